"""Projections: folds from a game's events to what people look at.

* :class:`Game` holds a validated event list with checkpoints (one per deal)
  so that :meth:`Game.state_at` jumps to any event without replaying the whole
  game (docs/design.md, "Projections").
* :class:`TableState` is the immutable table after ``k`` events.
* the audit (:mod:`euchre_events.projections.audit`) is :meth:`Game.audit`.

Pure: no I/O.  Nothing here is ever stored.
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Optional, Sequence

from euchre_events.rules.engine import ImpossibleEvent, Table, apply, fold, new_table
from euchre_events.events import Event, GameStarted

# the audit (projections.audit, projections.seat) and the immutable TableState
# (projections.state) are imported where they are used: a command that only
# folds and analyses games does not load them (issue 21 "Speed", start-up)


def __getattr__(name: str):
    """``TableState`` and ``snapshot``, their home before
    :mod:`euchre_events.projections.state`, imported when asked for."""
    if name in ("TableState", "snapshot"):
        from euchre_events.projections import state
        return getattr(state, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Game:
    """A validated game: its events, folded once, with a checkpoint per deal
    (made on the first jump, :meth:`table_at`).

    ``Game(events)`` raises :class:`ImpossibleEvent` (with ``deal`` and
    ``position``) if the record cannot be folded; ``jumps=True`` makes the
    per-deal checkpoints in that same fold (:meth:`prepare_jumps` without a
    second fold: what loading from the archive wants).  ``title``, ``variant``,
    ``players``, ``final`` (the working table after the last event).
    """

    def __init__(self, events: Sequence[Event], game_id: Optional[str] = None, jumps: bool = False,
                 _final: Optional[Table] = None):
        self.events = list(events)
        self.id = game_id
        if not self.events or not isinstance(self.events[0], GameStarted):
            raise ImpossibleEvent("the first event must be GameStarted", position=0)
        # one fold, no copies: the per-deal checkpoints are built the first
        # time a jump needs them (_checkpoints), so validating and auditing
        # a game pays for none
        self._cp_pos: Optional[list] = None
        self._cp: Optional[list] = None
        self._index: Optional[GameIndex] = None
        self._deal_reports: Optional[tuple] = None
        if _final is not None:   # the table these events were already folded into (from_folded)
            self.final = _final
        elif jumps:   # the checkpoints from this same fold (prepare_jumps without a second fold)
            pos: list = []
            cps: list = []

            def keep(tb: Table) -> None:
                pos.append(tb.pos)
                cps.append(tb.copy())
            self.final = fold(new_table(), self.events, checkpoint=keep)
            self._cp_pos, self._cp = pos, cps
        else:
            self.final = fold(new_table(), self.events)
        self.started: GameStarted = self.events[0]

    @classmethod
    def from_folded(cls, events: Sequence[Event], final: Table,
                    game_id: Optional[str] = None) -> "Game":
        """The :class:`Game` of ``events`` that were already folded, one by
        one, into ``final`` (a reader's working table: the
        :class:`~euchre_events.formats.builder.RecordBuilder` validates each
        event as it adds it), without folding them again: each event of the
        whole job is folded once.  ``final`` is kept as the game's final
        table (do not fold more into it).  The result is the game
        ``Game(events)`` gives (tests/test_one_fold.py checks it, event by
        event, for every variant).

        Raises ``ValueError`` if ``final`` has not folded exactly
        ``events`` (its position is not ``len(events)``, or the first event
        is not the GameStarted it started from).
        """
        if (not events or not isinstance(events[0], GameStarted) or final.pos != len(events)
                or final.variant is None):
            raise ValueError(f"the table has folded {final.pos} events, not these {len(events)}")
        return cls(events, game_id, _final=final)

    def prepare_jumps(self) -> "Game":
        """Build the per-deal checkpoints now (one extra fold) so that every
        later :meth:`state_at` is fast; returns the game.  Loading from the
        archive does this, validation alone does not need it."""
        self._checkpoints()
        return self

    def _checkpoints(self) -> tuple:
        """``(positions, tables)``: a copy of the working table before each
        DealStarted and at position 0, from one more fold of the events (the
        first time only)."""
        if self._cp is None:
            pos: list = []
            cps: list = []

            def keep(tb: Table) -> None:  # a checkpoint before each deal (and at 0)
                pos.append(tb.pos)
                cps.append(tb.copy())
            fold(new_table(), self.events, checkpoint=keep)
            self._cp_pos, self._cp = pos, cps
        return self._cp_pos, self._cp

    # ----------------------------------------------------------- basics
    @property
    def title(self) -> str:
        """The game's title (from GameStarted)."""
        return self.started.title

    @property
    def variant(self) -> str:
        """The variant's name (``standard``, ``bid``, ...)."""
        return self.final.variant.name

    @property
    def players(self) -> tuple:
        """Player names in seat order."""
        return self.final.players

    def __len__(self) -> int:
        return len(self.events)

    @property
    def deals(self) -> int:
        """Number of deals recorded (thrown-in deals included)."""
        return sum(1 for e in self.events if e.kind == "DealStarted")

    @property
    def final_score(self) -> list:
        """Points per side after the last event, renege penalties not applied."""
        return list(self.final.scores)

    @property
    def winner(self) -> Optional[int]:
        """The official winning side (rules.md 1.6: decided on the official
        score, renege penalties, claims and rulings applied), or None if the
        record stops before the game is won or it ended tied."""
        return self.final.winner

    @property
    def official_score(self) -> list:
        """Points per side after the last event with the game's renege
        policy, claims and rulings applied (rules.md 1.5, 2.7); deals after
        the official game end count for nothing."""
        return list(self.final.official_scores)

    @property
    def as_played_winner(self):
        """The side that won on the cards as played (no penalties), a tuple
        of sides for a game that ended tied there, or None."""
        return self.final.as_played_winner

    def deal_reports(self) -> list:
        """Every deal as played and officially (see
        :func:`euchre_events.projections.audit.deal_reports`; computed the
        first time only: each report reports read it once per finding)."""
        if self._deal_reports is None:
            from euchre_events.projections import deal_reports   # through the package: its audit stays the function
            self._deal_reports = tuple(deal_reports(self))
        return list(self._deal_reports)

    # ----------------------------------------------------------- folding
    def table_at(self, k: int) -> Table:
        """Working table after the first ``k`` events (from the nearest checkpoint)."""
        if k < 0:
            k += len(self.events) + 1
        if not 0 <= k <= len(self.events):
            raise IndexError(f"position {k} outside 0..{len(self.events)}")
        if k == len(self.events):
            return self.final.copy()
        cp_pos, cps = self._checkpoints()
        i = bisect_right(cp_pos, k) - 1
        t = cps[i].copy()
        fold(t, self.events, t.pos, k)
        return t

    def state_at(self, k: int) -> TableState:
        """Immutable table state after the first ``k`` events (``k`` may be negative)."""
        from euchre_events.projections.state import snapshot
        return snapshot(self.table_at(k))

    def deal_positions(self) -> list:
        """``[(deal_number, position_of_DealStarted), ...]``."""
        return [(e.deal, i) for i, e in enumerate(self.events) if e.kind == "DealStarted"]

    def trick_positions(self, deal: int) -> list:
        """Positions just before the first card of each trick of ``deal``
        (trick 1 first), for jumps (from :meth:`index`)."""
        return list(self.index().trick_start.get(deal, ()))

    def index(self) -> "GameIndex":
        """Where the deals and tricks start and the score after each deal:
        the one index the viewer, the tutorials and the formats jump with
        (one fold, the first time only)."""
        if self._index is None:
            self._index = _build_index(self.events)
        return self._index

    def audit(self) -> list:
        """Renege findings of the whole game (see
        :func:`euchre_events.projections.audit.audit`)."""
        from euchre_events.projections import deal_reports   # noqa: F401 (loads the audit through the package)
        from euchre_events.projections.audit import audit
        return audit(self)


@dataclass(frozen=True)
class GameIndex:
    """Positions in a game's event list (event indices), from one fold.

    ``deal_start``: ``{deal number: position of its DealStarted}``;
    ``trick_start``: ``{deal number: [position of the first card of trick 1,
    2, ...]}``; ``deal_at``: the deal number after ``k`` events, for ``k`` =
    0..n; ``score_after``: ``[(deal, points per side after it), ...]``, the
    first entry deal 0 with the initial score.
    """

    deal_start: dict
    trick_start: dict
    deal_at: tuple
    score_after: tuple


def _build_index(events: Sequence[Event]) -> GameIndex:
    t = new_table()
    deal_start: dict = {}
    trick_start: dict = {}
    deal_at = [0]
    score_after = []
    n_results = 0
    for i, ev in enumerate(events):
        if ev.kind == "DealStarted":
            deal_start[ev.deal] = i
            trick_start.setdefault(ev.deal, [])
        elif ev.kind == "CardPlayed" and not t.trick:
            trick_start.setdefault(t.deal_no, []).append(i)
        apply(t, ev)
        if i == 0:
            score_after.append((0, tuple(t.scores)))
        if len(t.deal_results) > n_results:
            n_results = len(t.deal_results)
            score_after.append((t.deal_results[-1][0], tuple(t.scores)))
        deal_at.append(t.deal_no)
    return GameIndex(deal_start, trick_start, tuple(deal_at), tuple(score_after))
