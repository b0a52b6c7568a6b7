"""The replay viewer's model: positions, links, keys, deal jumps and the event window.

One model for every replay of a game (issue 24 "one viewer model"): the
Jupyter viewer (:class:`euchre_events.ui.widgets.GameViewer`), the data of
the static HTML page (:mod:`euchre_events.ui.htmlexport`, whose script only
displays what is computed here) and ``euchre-events show --deal N --after K``
(``cli.show_cmd``) all count, link and jump with it, so they cannot drift.

Positions: position ``k`` (``1 <= k <= n``) is the table after the first ``k``
events of a line (``Game.state_at(k)``).  A deal's events count from 1, its
DealStarted being event 1, as ``show --deal N --after K`` counts them: the
link of a position inside deal ``N`` is ``"deal=N&event=K"`` with ``K = k -
(index of deal N's DealStarted)``, before the first deal ``"event=k"``; in a
record's variation number ``j`` (from 1) the link ends in ``"&line=j"``.  The
counter beside it uses the same numbers: ``"deal 1 · event 12 / 27 (game
event 13)"`` (27 = the deal's events; in brackets the number the event list
and the analysis give that event, counted over the game), ``"event 1 / 353"``
before the first deal (issue 22 finding 9: the counter and the link name one
number for one position).

Pure: reads :meth:`euchre_events.projections.Game.index` and the states the
caller folds; no drawing, no I/O.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional
from urllib.parse import parse_qs

__all__ = ["KEY_ACTIONS", "ViewerModel", "Position", "rows_window", "trick_at"]

KEY_ACTIONS = {
    "ArrowLeft": "prev", "ArrowRight": "next", "Home": "first", "End": "last",
    "PageUp": "deal_prev", "ArrowUp": "deal_prev", "PageDown": "deal_next", "ArrowDown": "deal_next",
    "m": "mistake_next", "M": "mistake_prev",
}
"""The viewer's keys (``KeyboardEvent.key``) and their actions: Left/Right one
event back/forward, Home/End the first/last event, PageUp or Up the start of
the deal shown (or, when already there, of the deal before), PageDown or Down
the start of the next deal (the last event after the last deal), ``m``/``M``
the next/previous mistake when the analysis is on.  The one table of keys of
the viewer and the HTML page."""


@dataclass(frozen=True)
class Position:
    """One position of a line: ``position`` (events applied, from 1),
    ``deal`` (0 before the first deal), ``deal_event`` (the event number in
    the deal, from 1, or None before its DealStarted), ``deal_events`` (the
    deal's number of events, or None), ``trick`` (the trick menu's value or
    None), ``link`` and ``counter`` (see the module docstring)."""

    position: int
    deal: int
    deal_event: Optional[int]
    deal_events: Optional[int]
    trick: Optional[int]
    link: str
    counter: str


def trick_at(state, trick_starts) -> Optional[int]:
    """The trick menu's value at ``state`` (a
    :class:`~euchre_events.projections.TableState`): the trick being played
    in the play phase, the last trick once the deal's cards are all played,
    None before the play.  ``trick_starts``: the deal's trick start positions
    (``Game.index().trick_start[deal]``)."""
    n = len(trick_starts)
    tr = None
    if state.phase == "play" and n:
        tr = min(len(state.tricks) + 1, n)
    elif state.tricks:
        tr = len(state.tricks)
    return tr if tr is not None and 1 <= tr <= n else None


def rows_window(current: int, n_events: int, before: int = 12, after: int = 14,
                seat_view: bool = False) -> tuple:
    """``(lo, hi)``: the event indices ``lo <= i < hi`` the event list shows
    around event index ``current`` (``position - 1``): ``before`` events
    before it and ``after`` after it; in a seat's view none after it (the
    plays still to come would show the other hands: docs/design.md "What a
    seat could know").  The list says "… lo earlier event(s)" and "… n_events -
    hi later event(s)" for the rest."""
    lo, hi = max(0, current - before), min(n_events, current + after + 1)
    if seat_view:
        hi = min(hi, current + 1)
    return lo, hi


class ViewerModel:
    """The navigation of one line of play of a game.

    ``game``: the line's folded :class:`~euchre_events.projections.Game`
    (the main line, or a variation: the main line's events up to the branch,
    then its own); ``line``: 0 for the main line, ``j`` for the record's
    variation ``j`` (from 1, as the page's and the viewer's line menus number
    them: the link carries ``&line=j``).
    """

    def __init__(self, game, line: int = 0):
        self.game = game
        self.line = int(line)
        ix = game.index()
        self.n = len(game.events)
        self.deal_start = dict(ix.deal_start)
        self.trick_start = {d: list(p) for d, p in ix.trick_start.items()}
        self._deal_at = ix.deal_at
        self.deals = sorted(self.deal_start)
        # each deal's span of positions: (index of its DealStarted, index of the next one or n)
        self._end = {}
        for i, d in enumerate(self.deals):
            self._end[d] = self.deal_start[self.deals[i + 1]] if i + 1 < len(self.deals) else self.n

    # ---------------------------------------------------------------- counting
    def clamp(self, k: int) -> int:
        """``k`` clamped to the line's positions ``1..n``."""
        return max(1, min(int(k), self.n))

    def deal_of(self, k: int) -> int:
        """The deal number after ``k`` events (0 before the first deal)."""
        return self._deal_at[k]

    def deal_span(self, deal: int) -> tuple:
        """``(start, end)`` of ``deal``: the index of its DealStarted and of
        the next deal's (or ``n``): positions ``start + 1 .. end`` are its
        events 1 .. ``end - start``.  Raises ``KeyError`` for a deal the line
        does not have."""
        return self.deal_start[int(deal)], self._end[int(deal)]

    def _in_deal(self, k: int):
        d = self._deal_at[k]
        start = self.deal_start.get(d)
        if not d or start is None or k <= start:
            return None
        return d, start, self._end[d]

    def link(self, k: int) -> str:
        """The link fragment of position ``k`` (no ``#``): ``"deal=3&event=12"``,
        ``"event=5"`` before the first deal, ``"&line=j"`` added in a variation."""
        where = self._in_deal(k)
        tail = f"&line={self.line}" if self.line else ""
        if where is None:
            return f"event={k}{tail}"
        d, start, _ = where
        return f"deal={d}&event={k - start}{tail}"

    def counter(self, k: int) -> str:
        """The position counter shown beside the link, with its numbers:
        ``"deal 1 · event 12 / 27 (game event 13)"``, or ``"event 5 / 353"``
        before the first deal.  The game's number in brackets is the one the
        event list, the evaluation graph and ``analyze``'s text give the same
        event (they count over the whole game, as ``show`` says it: "event 13
        of the game")."""
        where = self._in_deal(k)
        if where is None:
            return f"event {k} / {self.n}"
        d, start, end = where
        return f"deal {d} \u00b7 event {k - start} / {end - start} (game event {k})"

    def position(self, k: int, state=None) -> Position:
        """Everything about position ``k``; ``state``: ``game.state_at(k)``
        if the caller has it (folded here otherwise)."""
        st = state if state is not None else self.game.state_at(k)
        where = self._in_deal(k)
        d = self._deal_at[k]
        return Position(k, d, None if where is None else k - where[1],
                        None if where is None else where[2] - where[1],
                        trick_at(st, self.trick_start.get(st.deal, [])), self.link(k), self.counter(k))

    # ---------------------------------------------------------------- links in
    @staticmethod
    def parse_link(text: str) -> Optional[dict]:
        """``{"deal", "event", "line"}`` (each an int or None) of a link
        fragment (a leading ``#`` allowed), or None when a value is not a
        whole number.  Never raises."""
        q = parse_qs(str(text or "").lstrip("#"))
        out = {}
        for key in ("deal", "event", "line"):
            try:
                out[key] = int(q[key][0].strip()) if key in q else None
            except ValueError:
                return None
        return out

    def resolve(self, deal: Optional[int], event: Optional[int]) -> Optional[int]:
        """The position a link's ``deal``/``event`` names in this line:
        ``deal=N&event=K`` (K clamped to the deal's events, 1 at least),
        ``deal=N`` (the deal's start, :meth:`deal_jump`), ``event=K`` (after K
        events of the game, clamped); None for an unknown deal or no position."""
        if deal is not None:
            if deal not in self.deal_start:
                return None
            if event is None:
                return self.deal_jump(deal)
            start, end = self.deal_span(deal)
            return start + max(1, min(event, end - start))
        if event is None:
            return None
        return self.clamp(event)

    def show_position(self, deal: Optional[int], after: Optional[int]) -> int:
        """The position ``show [--deal N] [--after K]`` shows: after K events
        of deal N (0: before it begins), or of the game; without ``--after``
        the deal's (or the game's) last event.  Raises ``ValueError`` with
        the reason in words for a deal or a count out of range."""
        start, end = 0, self.n
        if deal is not None:
            if deal not in self.deal_start:
                raise ValueError(f"the game has deals 1..{len(self.deals)}; there is no deal {deal}")
            start, end = self.deal_span(deal)
        if after is None:
            return end
        if not 0 <= after <= end - start:
            what = f"deal {deal} has {end - start} events" if deal else f"the game has {end} events"
            raise ValueError(f"--after {after} is outside the range: {what}")
        return start + after if deal is not None else after

    # ---------------------------------------------------------------- jumps and keys
    def deal_jump(self, deal: int) -> int:
        """The position that opens deal ``deal``: just after its cards are
        dealt (rules.md 2.1), so the hands and up-card show.  Raises
        ``KeyError`` for a deal the line does not have."""
        k = self.deal_start[int(deal)] + 1
        if k < self.n and self.game.events[k].kind == "CardsDealt":
            k += 1
        return min(k, self.n)

    def deal_end_jump(self, deal: int) -> int:
        """The last position of deal ``deal`` (deal 0: position 1), where the
        score chart's point of that deal jumps."""
        if int(deal) <= 0:
            return 1
        later = [x for x in self.deals if x > int(deal)]
        return self.deal_start[later[0]] if later else self.n

    def key_target(self, action: str, k: int) -> Optional[int]:
        """The position an action of :data:`KEY_ACTIONS` goes to from
        position ``k`` (``"prev"``, ``"next"``, ``"first"``, ``"last"``,
        ``"deal_prev"``, ``"deal_next"``); None for an action this model does
        not move by (the mistake keys need the analysis)."""
        if action == "prev":
            return self.clamp(k - 1)
        if action == "next":
            return self.clamp(k + 1)
        if action == "first":
            return 1
        if action == "last":
            return self.n
        d = self._deal_at[k]
        if action == "deal_next":
            later = [x for x in self.deals if x > d]
            return self.deal_jump(later[0]) if later else self.n
        if action == "deal_prev":
            if d in self.deal_start:
                here = self.deal_jump(d)
                if here < k:
                    return here
            earlier = [x for x in self.deals if x < d]
            return self.deal_jump(earlier[-1]) if earlier else 1
        return None

    def deal_jumps(self) -> dict:
        """``{deal: position that opens it}`` for every deal of the line (the deal menu)."""
        return {d: self.deal_jump(d) for d in self.deals}
