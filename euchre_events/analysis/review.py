"""What each decision of a game was worth: the review (docs/analysis.md).

:func:`analyze` walks a recorded game and, at every decision (a call, an
exchange, a card), values each legal option two ways:

* **face up**: every hand visible, every seat playing perfectly from there
  (:func:`euchre_events.analysis.solver.action_values`), exact;
* **from the seat's view**: the cards that seat could not know dealt
  ``samples`` ways (:func:`euchre_events.analysis.sampling.seat_view`), each
  solved face up, averaged, with the standard error.

Values are deal points "from the deciding seat's side" (net of the other
side's in the two-party games, the party's own otherwise:
:func:`~euchre_events.analysis.solver.value_for`).  A decision's cost is the
best option's value minus the played one's; the game-win chance it lost
comes from :mod:`.winchance`, its label from :mod:`.labels`.

The result is frozen dataclasses (:class:`GameAnalysis`, :class:`DealAnalysis`,
:class:`Decision`, :class:`Option`, :class:`PlayerSummary`) that draw
themselves in Jupyter (``_repr_html_``) and turn into the JSON of
``euchre-events analyze --format json`` with :meth:`GameAnalysis.to_json`.

Pure: no I/O.
"""
from __future__ import annotations

import dataclasses
import gc
import json
from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional, Sequence

from euchre_events.analysis import labels as L
from euchre_events.analysis import solver as S
from euchre_events.analysis.winchance import win_chance_after
from euchre_events.events import Event, action_words, event_from_dict
from euchre_events.rules import cards as C
from euchre_events.rules import engine
from euchre_events.rules.seats import seat_letter, seat_word
from euchre_events.rules.table import DEAL_OVER, GAME_OVER

__all__ = ["ANALYSIS_VERSION", "Option", "Decision", "DealAnalysis", "PlayerSummary", "GameAnalysis",
           "Method", "analyze", "analyze_deal", "action_text", "decision_kind", "CALL_KINDS",
           "EXCHANGE_KINDS", "from_json", "to_json_text", "json_report", "json_game_part", "json_report_of_parts", "summarize"]

ANALYSIS_VERSION = 3
"""Bumped whenever a change of the solver, the sampler or the labels changes
a result: the analysis cache (archive read model) keys on it.  2: the seat
view of a seat whose own hand holds a card the record lost, over its readings.
3: a costly choice the seat view cannot clear (worse by 0.25 points or more but
within two standard errors) keeps its face-up ``?``/``??`` (it was ``!?``);
a par whose call depends on the unknown cards has ``call`` null and the
calls in ``par.calls`` (it held a sentence)."""

CALL_KINDS = frozenset({"Passed", "OrderedUp", "TrumpNamed", "BidMade", "WentAlone", "PlayedWithPartner",
                        "DefendedAlone", "DroppedOut", "StayedIn", "UpCardDeclined", "JokerSuitNamed"})
"""Decisions of the auction (EGN ``callAnnotations`` count these)."""
EXCHANGE_KINDS = frozenset({"Discarded", "CardPassed", "HandSwappedWithGhost", "DummyTaken",
                            "UpCardPickedUp"})
"""Decisions of an exchange: the dealer's discard, partner's best, the ghost
swap, the cutthroat dummy, the two-handed dealer's pick-up."""


def decision_kind(ev: Event) -> Optional[str]:
    """``"call"``, ``"exchange"``, ``"play"`` or None (not a seat's choice)."""
    k = ev.kind
    if k == "CardPlayed":
        return "play"
    if k in CALL_KINDS:
        return "call"
    if k in EXCHANGE_KINDS:
        return "exchange"
    return None


def action_text(ev: Event) -> str:
    """An action as our text notation writes it, without the seat
    (docs/notation.md; :func:`euchre_events.events.action_words`): ``JD``,
    ``pass``, ``order``, ``order alone``, ``name H``, ``name NT alone``,
    ``bid 4``, ``discard 9C``, ``give AS`` (a partner's best pass, without
    its receiver), ``pickup``, ``dummy``...; the event's kind for anything
    else."""
    return action_words(ev) or ev.kind


# ------------------------------------------------------------ the results


def _event_dict(ev: Event, evs: Optional[dict]) -> dict:
    """``ev.to_dict()``; with ``evs`` (``{id(event): (event, its dict)}``:
    :data:`_EVENT_DICTS`, which keeps each event alive, so that its ``id``
    names no other), one dict for an event object met again (an option's
    and a decision's played action; the engine's and the fast reader's
    shared actions, game after game).  An event is frozen: its dict stays
    its own, and the report never changes a dict it encodes."""
    if evs is None:
        return ev.to_dict()
    got = evs.get(id(ev))
    if got is None or got[0] is not ev:
        got = evs[id(ev)] = (ev, ev.to_dict())
    return got[1]


_EVENT_DICTS: dict = {}
""":func:`_event_dict`'s dicts of the events :func:`json_report` wrote, kept
from one report to the next (one per game with ``analyze``; most actions
are the same shared objects); emptied at :data:`_MAX_EVENT_DICTS`."""
_MAX_EVENT_DICTS = 20_000

@dataclass(frozen=True)
class Method:
    """How the values were found: ``samples`` and ``seed`` of the seat view
    (``samples`` 0: face up only), ``pass_value`` (``"zero"``: a pass in the
    auction is worth 0 from the seat's view; face up it is solved)."""

    samples: int
    seed: int
    pass_value: str = "zero"
    face_up_only: bool = False

    def to_json(self) -> dict:
        return {"samples": self.samples, "seed": self.seed, "pass_value": self.pass_value,
                "face_up_only": self.face_up_only, "version": ANALYSIS_VERSION}


@dataclass(frozen=True)
class Option:
    """One legal option at a decision.

    ``face_up``: deal points from the deciding seat's side with every hand
    visible (None if the record's unknown cards stop it); ``points``: the
    deal's points per party face up; ``seat_view``/``seat_view_se``: the mean
    over the sampled deals and its standard error; ``best_share``: the share
    of sampled deals in which it was (one of) the best.  Where the seat's own
    hand holds a card the record does not state (an EGN dealer's lost
    discard), the seat view is found for every reading of it: ``seat_view``
    is then a ``(low, high)`` pair when the readings differ, ``seat_view_se``
    the largest error and ``best_share`` the smallest share."""

    action: Event
    text: str
    face_up: Optional[float]
    points: Optional[tuple]
    seat_view: Optional[float] = None
    seat_view_se: Optional[float] = None
    best_share: Optional[float] = None

    def to_json(self) -> dict:
        return self._json([])

    def _json(self, nums: list, evs: Optional[dict] = None) -> dict:
        """:meth:`to_json`, its numbers also put in ``nums`` (:func:`to_json_text`);
        ``evs``: the events' dicts by ``id`` of the event, shared where one
        event object comes again (:func:`json_report`), or None."""
        fu, sv, pts = self.face_up, self.seat_view, self.points
        e = _event_dict(self.action, evs)
        if sv is None and fu.__class__ is not tuple and self.seat_view_se is None and self.best_share is None:
            # face up only: no seat view, one value (most options)
            nums.append(fu)
            if pts is None:
                return {"action": self.text, "event": e, "face_up": fu, "seat_view": None, "seat_view_se": None,
                        "best_share": None, "points": None}
            nums += pts
            return {"action": self.text, "event": e, "face_up": fu, "seat_view": None, "seat_view_se": None,
                    "best_share": None, "points": list(pts)}
        se, bs = self.seat_view_se, self.best_share
        span = isinstance(fu, tuple)
        d = {"action": self.text, "event": e, "face_up": list(fu) if span else fu,
             "seat_view": None if sv is None else _rv(sv),
             "seat_view_se": None if se is None else round(float(se), 3),
             "best_share": None if bs is None else round(float(bs), 3),
             "points": list(pts) if pts is not None else None}
        if span:
            nums += fu
        else:
            nums.append(fu)
        if sv is not None:
            _put(nums, sv)
            nums += (d["seat_view_se"], d["best_share"])
        if pts is not None:
            nums += pts
        return d


@dataclass(frozen=True)
class Decision:
    """One decision: event ``position`` (0-based: the table before it is
    ``show GAME --after POSITION``), by ``seat``, of ``kind`` ``call``,
    ``exchange`` or ``play``; ``index`` its 0-based number among the deal's
    calls, exchanges or plays (for calls and plays, EGN's annotation keys);
    ``trick`` 1-based or None.

    Costs are deal points lost against the best option (face up, and from
    the seat's view); ``win_chance_lost`` the game-win chance lost face up
    (0..1; None in the games of more than two parties); ``label`` an EGN
    label or None; ``why`` says, when a value is missing, why."""

    position: int
    deal: int
    seat: int
    kind: str
    index: int
    trick: Optional[int]
    played: Event
    options: tuple
    forced: bool
    played_face_up: Optional[float] = None
    played_seat_view: Optional[float] = None
    face_up_cost: Optional[float] = None
    seat_view_cost: Optional[float] = None
    win_chance_lost: Optional[float] = None
    label: Optional[str] = None
    legal: bool = True
    why: Optional[str] = None

    @property
    def played_text(self) -> str:
        return action_text(self.played)

    def best_face_up(self) -> Optional[Option]:
        """The face-up best option (the first of equals, in legal order)."""
        vals = [o for o in self.options if o.face_up is not None]
        return max(vals, key=lambda o: _low(o.face_up)) if vals else None

    def best_seat_view(self) -> Optional[Option]:
        vals = [o for o in self.options if o.seat_view is not None]
        return max(vals, key=lambda o: _low(o.seat_view)) if vals else None

    def to_json(self) -> dict:
        return self._json([])

    def _json(self, nums: list, evs: Optional[dict] = None) -> dict:
        """:meth:`to_json`, its numbers also put in ``nums`` (:func:`to_json_text`);
        ``evs`` as :meth:`Option._json` takes it."""
        fc, sc, wc, psv = self.face_up_cost, self.seat_view_cost, self.win_chance_lost, self.played_seat_view
        pe = _event_dict(self.played, evs)
        if fc is not None:
            fc = round(float(fc), 3)
        if sc is not None:
            sc = round(float(sc), 3)
        if wc is not None:
            wc = round(float(wc), 3)
        pfu = self.played_face_up
        position, deal, seat, index, trick = self.position, self.deal, self.seat, self.index, self.trick
        d = {"position": position, "deal": deal, "seat": seat, "kind": self.kind,
             "index": index, "trick": trick, "played": action_text(self.played),
             "played_event": pe,
             "options": [o._json(nums, evs) for o in self.options],
             "face_up_cost": fc, "seat_view_cost": sc, "win_chance_lost": wc, "label": self.label,
             "played_face_up": list(pfu) if isinstance(pfu, tuple) else pfu,
             "played_seat_view": None if psv is None else _rv(psv)}
        nums += (position, deal, seat, index, trick, fc, sc, wc)
        if isinstance(pfu, tuple):
            nums += pfu
        else:
            nums.append(pfu)
        if psv is not None:
            _put(nums, psv)
        if self.forced:
            d["forced"] = True
        if not self.legal:
            d["legal"] = False
        if self.why:
            d["why"] = self.why
        return d


@dataclass(frozen=True)
class DealAnalysis:
    """One deal: its number, its face-up par (the contract a table that sees
    every card reaches: ``par_call`` as ``"order"`` or ``"name H alone"`` by
    ``par_seat``, None when every seat passes; ``par_value``, the maker's
    side's points net, a number or a (low, high) pair over the readings of
    the record's unknown cards; ``par_points`` per party) and its decisions.
    Where the par's call depends on the reading of the unknown cards,
    ``par_call`` and ``par_seat`` are None and ``par_calls`` holds each
    reading's ``(seat, call)`` once (``(None, None)``: every seat passes)."""

    deal: int
    dealer: int
    par_call: Optional[str]
    par_value: Optional[float]
    par_points: Optional[tuple]
    decisions: tuple
    why: Optional[str] = None
    par_seat: Optional[int] = None
    par_calls: Optional[tuple] = None

    def to_json(self) -> dict:
        return self._json([])

    def _json(self, nums: list, evs: Optional[dict] = None) -> dict:
        """:meth:`to_json`, its numbers also put in ``nums`` (:func:`to_json_text`);
        ``evs`` as :meth:`Option._json` takes it."""
        d = {"deal": self.deal, "dealer": self.dealer,
             "par": {"call": self.par_call, "seat": self.par_seat, "value": _jv(self.par_value),
                     "points": list(self.par_points) if self.par_points is not None else None},
             "decisions": [x._json(nums, evs) for x in self.decisions]}
        if self.par_calls is not None:
            d["par"]["calls"] = [{"seat": s, "call": c} for s, c in self.par_calls]
            nums += tuple(s for s, _ in self.par_calls)
        nums += (self.deal, self.dealer, self.par_seat)
        _put(nums, self.par_value)
        if self.par_points is not None:
            nums += self.par_points
        if self.why:
            d["why"] = self.why
        return d


@dataclass(frozen=True)
class PlayerSummary:
    """One seat's totals over the analysed decisions: their number (unforced),
    the face-up and seat-view costs summed (deal points), the accuracy
    (0..100, lichess's formula on the win chance lost) and the labels."""

    seat: int
    name: str
    decisions: int
    face_up_cost: float
    seat_view_cost: Optional[float]
    accuracy: Optional[float]
    labels: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return self._json([])

    def _json(self, nums: list) -> dict:
        """:meth:`to_json`, its numbers also put in ``nums`` (:func:`to_json_text`)."""
        d = {"seat": self.seat, "name": self.name, "decisions": self.decisions,
             "face_up_cost": _r(self.face_up_cost), "seat_view_cost": _r(self.seat_view_cost),
             "accuracy": _r(self.accuracy, 1), "labels": dict(self.labels)}
        nums += (self.seat, self.decisions, d["face_up_cost"], d["seat_view_cost"], d["accuracy"], *self.labels.values())
        return d


@dataclass(frozen=True)
class GameAnalysis:
    """A game's analysis: the deals analysed, the players' summaries and the
    method.  ``to_json()`` is one entry of ``analyze --format json``'s
    ``games`` list; in Jupyter it draws itself as a table of the decisions
    that lost points."""

    game_id: Optional[str]
    variant: str
    title: str
    players: tuple
    n_seats: int
    method: Method
    deals: tuple
    players_summary: tuple
    file: Optional[str] = None

    def decisions(self) -> list:
        return [d for deal in self.deals for d in deal.decisions]

    def to_json(self) -> dict:
        return self._json([])

    def _json(self, nums: list, evs: Optional[dict] = None) -> dict:
        """:meth:`to_json`, its numbers also put in ``nums`` (:func:`to_json_text`);
        ``evs`` as :meth:`Option._json` takes it."""
        m = self.method
        nums += (self.n_seats, m.samples, m.seed)
        return {"game_id": self.game_id, "variant": self.variant, "title": self.title,
                "file": self.file, "n_seats": self.n_seats, "player_names": list(self.players), "method": m.to_json(),
                "deals": [d._json(nums, evs) for d in self.deals],
                "players": [p._json(nums) for p in self.players_summary]}

    def _repr_html_(self) -> str:
        import html     # Jupyter's only: not imported by the command's start-up
        rows = []
        for d in self.decisions():
            if not d.label:
                continue
            best = d.best_face_up()
            rows.append("<tr>" + "".join(f"<td>{html.escape(str(x))}</td>" for x in (
                d.deal, d.trick or "", seat_word(d.seat, self.n_seats), d.played_text, d.label,
                best.text if best else "", _r(d.face_up_cost), _r(d.seat_view_cost))) + "</tr>")
        head = "".join(f"<th>{h}</th>" for h in ("deal", "trick", "seat", "played", "label",
                                                   "best face up", "cost face up", "cost seat view"))
        summary = "; ".join(f"{html.escape(p.name)}: accuracy {_r(p.accuracy, 1)}"
                            for p in self.players_summary)
        return (f"<div class='ee-analysis'><b>{html.escape(self.title or 'game')}</b> "
                f"({html.escape(self.variant)}): {summary}<table><tr>{head}</tr>{''.join(rows)}</table></div>")


def _maker(cls):
    """A function making ``cls(...)`` (a frozen dataclass of plain fields)
    without its ``__init__``, whose one ``object.__setattr__`` a field is a
    third of a decision's own cost: the same object, its fields set in their
    order, the same parameters and defaults (read from ``cls``'s fields, so
    the two cannot drift apart)."""
    params, sets, ns = [], [], {"_new": object.__new__, "_cls": cls}
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            ns[f"_d_{f.name}"] = f.default
            params.append(f"{f.name}=_d_{f.name}")
        else:
            params.append(f.name)
        sets.append(f"    d[{f.name!r}] = {f.name}\n")
    exec(f"def make({', '.join(params)}):\n    o = _new(_cls)\n    d = o.__dict__\n{''.join(sets)}    return o\n",
         ns)
    return ns["make"]


_option = _maker(Option)
_decision = _maker(Decision)
_player_summary = _maker(PlayerSummary)     # labels (a default_factory) always given


def _put(nums: list, v) -> None:
    """``v`` (a value, or a (low, high) pair over readings) into the numbers
    :func:`to_json_text` checks."""
    if isinstance(v, tuple):
        nums += v
    else:
        nums.append(v)


def _r(x: Optional[float], nd: int = 3) -> Optional[float]:
    return None if x is None else round(float(x), nd)


def _rv(v):
    """A seat-view mean for JSON: a number rounded as :func:`_r`, or ``[low, high]``
    over the readings of the seat's own unknown cards."""
    return [_r(v[0]), _r(v[1])] if isinstance(v, tuple) else _r(v)


def _jv(v):
    """A face-up value for JSON: a number, or ``[low, high]``."""
    return list(v) if isinstance(v, tuple) else v


# ------------------------------------------------- unknown cards: every reading

MAX_READINGS = 24
"""At most this many readings of the record's unknown cards are solved; a
position with more is said to be unanswerable face up."""


def _known_cards(t) -> set:
    out = set()
    for group in (*t.hands, t.kitty, t.dummy, t.ghost, t.dead, t.discards):
        out.update(c for c in group if isinstance(c, str))
    out.update(t.seen)
    out.update(c for _, c in t.trick)
    if t.up_card:
        out.add(t.up_card)
    return {c for c in out if not C.is_unknown(c)}


def readings(t) -> Optional[list]:
    """Every way to read the cards the record does not state in the hands
    still to be played (and the dummy and ghost hand), as ``[(table,
    {card: unknown code}), ...]``: each unknown card replaced by one of the
    deck's cards not known to be elsewhere (a ``?D`` only by a diamond, under
    the effective suit of rules.md 1.2 as the record means it: the printed
    suit).  None when there are none to read, or more than
    :data:`MAX_READINGS` readings (then the position is not analysed face up).
    """
    places = []
    for s, hand in enumerate(t.hands):
        for i, c in enumerate(hand):
            if C.is_unknown(c):
                places.append(("hands", s, i, c))
    for name in ("dummy", "ghost"):
        for i, c in enumerate(getattr(t, name)):
            if C.is_unknown(c):
                places.append((name, None, i, c))
    if not places:
        return None
    pool = sorted(set(t.variant.deck()) - _known_cards(t))
    out: list = []

    def fits(code: str, card: str) -> bool:
        return code == C.UNKNOWN or (len(code) == 2 and card[1:2] == code[1])

    def walk(i: int, used: tuple) -> bool:
        if len(out) > MAX_READINGS:
            return False
        if i == len(places):
            out.append(used)
            return True
        for card in pool:
            if card not in used and fits(places[i][3], card):
                walk(i + 1, used + (card,))
        return True

    walk(0, ())
    if not out or len(out) > MAX_READINGS:
        return None
    tables = []
    for cards in out:
        c = t.copy()
        c.hands = [list(h) for h in c.hands]
        c.dummy, c.ghost = list(c.dummy), list(c.ghost)
        back = {}
        for (where, s, i, code), card in zip(places, cards):
            if where == "hands":
                c.hands[s][i] = card
            else:
                getattr(c, where)[i] = card
            back[card] = code
        tables.append((c, back))
    return tables


def _as_recorded(ev: Event, back: dict) -> Event:
    """``ev`` with a card of one reading written back as the record's unknown code."""
    card = getattr(ev, "card", None)
    if card is not None and card in back:
        return dataclasses.replace(ev, card=back[card])
    return ev


def _span(vals: list):
    """One number, or a ``(low, high)`` pair when the readings differ."""
    lo, hi = min(vals), max(vals)
    return float(lo) if lo == hi else (float(lo), float(hi))


def _low(v) -> Optional[float]:
    return None if v is None else (v[0] if isinstance(v, tuple) else v)


# -------------------------------------------------------------- the walk

def _value_of(t, points, seat: int) -> float:
    return S.value_for(t.variant, points, S.party_of(t, seat))


def _score_context(t, points, seat: int) -> Optional[float]:
    """Game-win chance of the deciding seat's party after a deal worth
    ``points`` (None in the games of more than two parties or without a target)."""
    v = t.variant
    if v.n_sides != 2:
        return None
    target = getattr(t.options, "target_score", None)
    if not isinstance(target, int) or target <= 0 or target >= 1000:
        return None
    name = v.name if hasattr(v, "name") else None
    party = S.party_of(t, seat)
    try:
        nxt = v.next_dealer(t)
    except Exception:          # a variant that cannot say yet: the next seat deals
        nxt = (t.dealer + 1) % t.n_seats
    return win_chance_after(name or "", list(t.scores), points, party, v.side_of(nxt), target)


def _variant_name(t) -> str:
    return getattr(t.variant, "name", "") or ""


def analyze_deal(game, deal: int, *, samples: int = 200, seed: int = 0, seat: Optional[int] = None,
                 face_up_only: bool = False, pass_value: str = "zero",
                 progress: Optional[Callable[[int], None]] = None) -> DealAnalysis:
    """Analyse one deal of ``game`` (a :class:`~euchre_events.projections.Game`).

    ``deal``: the deal's number (as recorded; the last deal of that number if
    it was dealt again); ``seat``: only that seat's decisions (None: all);
    ``samples``/``seed``: the seat view (ignored with ``face_up_only``).
    ``progress`` is called with 1 after each decision.  Raises ``KeyError``
    for a deal the game does not have.
    """
    return _analyze_deal(game, deal, game.deal_positions(), None, samples=samples, seed=seed, seat=seat,
                         face_up_only=face_up_only, pass_value=pass_value, progress=progress)[0]


def _analyze_deal(game, deal: int, positions: list, before: Optional[tuple], *, samples: int, seed: int,
                  seat: Optional[int], face_up_only: bool, pass_value: str,
                  progress: Optional[Callable[[int], None]]) -> tuple:
    """:func:`analyze_deal` given the game's ``deal_positions()`` and
    ``before``: ``(position, table)``, the working table after that many
    events, or None.  When the deal starts at or after that position, that
    table is folded on to the deal's start (the same table as
    ``game.table_at``, engine.fold; without the game's checkpoints, which
    cost a fold of the whole game) and walked; it is changed.  Returns
    ``(DealAnalysis, (position, table))``: the table at the deal's end, for
    the next deal."""
    events = game.events
    starts = [p for d, p in positions if d == deal]
    if not starts:
        raise KeyError(f"deal {deal} is not in the game")
    start = starts[-1]
    nxt = [p for d, p in positions if p > start]
    end = nxt[0] if nxt else len(events)
    if before is not None and before[0] <= start:
        t = engine.fold(before[1], events, before[0], start)
    else:
        t = game.table_at(start)
    decisions = []
    calls = plays = exchanges = 0
    trick_no = 0
    par = (None, None, None, None)
    par_why = None
    par_done = False
    dealer = events[start].dealer if events[start].kind == "DealStarted" else None
    wc_cache: dict = {}
    memo: dict = {}   # the solver's values of this deal's positions, shared by its decisions
    chain = [None]    # (position, points vector) of the card just played at a play decision (_decide)
    for k in range(start, end):
        ev = events[k]
        kind = decision_kind(ev)
        if kind is not None and getattr(ev, "seat", None) is not None and t.turn == ev.seat \
                and t.phase not in (DEAL_OVER, GAME_OVER):
            if not par_done and kind in ("call", "exchange"):
                par_done = True
                try:
                    par = _par(t, memo)
                except S.Unknowable as e:
                    par_why = f"no face-up par: {e}"
            if kind == "play" and not t.trick:
                trick_no += 1
            index = {"call": calls, "play": plays}.get(kind, exchanges)
            if seat is None or ev.seat == seat:
                decisions.append(_decide(game, t, k, ev, kind, index, trick_no if kind == "play" else None,
                                         deal, samples=0 if face_up_only else samples, seed=seed,
                                         pass_value=pass_value, wc_cache=wc_cache, memo=memo, chain=chain))
                if progress is not None:
                    progress(1)
            if kind == "play":
                plays += 1
            elif kind == "call":
                calls += 1
            else:
                exchanges += 1
        elif kind == "play":
            if not t.trick:
                trick_no += 1
            plays += 1
        # the game's events were folded (and their numbers checked) when the Game was made:
        # the same fold, without apply's check of each event's numbers again
        engine.apply_legal(t, ev)
    return DealAnalysis(deal, dealer, par[1], par[2], par[3], tuple(decisions), par_why, par[0],
                        par[4] if len(par) > 4 else None), (end, t)


def _par(t, memo: Optional[dict] = None) -> tuple:
    """The face-up par of the deal from table ``t`` (the first decision of its
    auction): follow each seat's best action until the maker and trump are
    fixed. ``(seat or None, call text or None, the maker's side's net value
    (a number, or a (low, high) pair over the readings of the record's
    unknown cards), points per party or None, the readings' distinct
    (seat, call) pairs where the call depends on the reading, else None)``:
    then seat and call are None.  A deal every seat passes out has no call
    and value 0.  Raises Unknowable when the unknown cards cannot be read
    (:func:`readings`)."""
    tables = [(t, {})]
    try:
        S._check_known(t)
    except S.Unknowable:
        tables = readings(t)
        if tables is None:
            raise
    found = [_par_one(c, memo) for c, _ in tables]
    calls = sorted({(seat, call) for seat, call, _, _ in found}, key=lambda sc: (sc[0] is None, sc[0] or 0, sc[1] or ""))
    seat, call = calls[0] if len(calls) == 1 else (None, None)
    return (seat, call, _span([v for _, _, v, _ in found]), found[0][3] if len(found) == 1 else None,
            tuple(calls) if len(calls) > 1 else None)


def _par_one(t, memo: Optional[dict] = None) -> tuple:
    t = t.copy()
    root = S.solve(t, memo=memo)
    made = None
    for _ in range(64):
        if t.phase in (DEAL_OVER, GAME_OVER) or t.maker is not None:
            break
        vals = S.action_values(t, memo=memo)
        if not vals:
            break
        seat = t.turn
        best_ev, _ = max(vals, key=lambda ev_pts: _value_of(t, ev_pts[1], seat))
        if decision_kind(best_ev) == "call" and best_ev.kind != "Passed":
            made = (seat, action_text(best_ev))
        engine.apply_legal(t, best_ev)   # (one of the engine's legal actions: its numbers are its own)
    if t.maker is None:
        return None, None, 0.0, tuple(root)
    maker = t.maker
    seat, call = made if made else (maker, "makes")
    return seat, call, float(_value_of(t, root, maker)), tuple(root)


def _in_reading(ev: Event, back: dict) -> Event:
    """The recorded ``ev`` as it reads in one reading (an unknown card named)."""
    card = getattr(ev, "card", None)
    if card is not None and C.is_unknown(card):
        for real, code in back.items():
            if code == card:
                return dataclasses.replace(ev, card=real)
    return ev


def _face_up(t, ev: Event, memo: Optional[dict] = None) -> tuple:
    """Face-up values at ``t`` for the decision ``ev``: ``(per_reading, why)``
    where ``per_reading`` is a list (one entry per reading of the record's
    unknown cards; one entry when it states every card that matters) of
    ``{action as recorded: points}``, the recorded action included even when
    it was not legal; whether it was legal (in some reading); and whether
    the one entry is ``t``'s own (every card that matters stated: no reading)."""
    try:
        # action_values checks the cards first (solver._check_known): no check of our own
        first = S.action_values(t, memo=memo)
        tables = None
    except S.Unknowable as e:
        try:
            S._check_known(t)
        except S.Unknowable:
            tables = readings(t)
            if tables is None:
                return [], f"not analysed face up: {e}", None, False
        else:
            raise       # not the cards' check: as before, not ours to say
    if tables is None:      # every card stated: the one table, no card to write back
        vals = {a: tuple(pts) for a, pts in first}
        legal = ev in vals
        if not legal:
            vals[ev] = _solve_after(t, ev, memo)
        return [vals], None, legal, True
    out = []
    legal = False
    for c, back in tables:
        vals = {}
        for a, pts in S.action_values(c, memo=memo):
            vals[_as_recorded(a, back)] = tuple(pts)
        if ev in vals:
            legal = True
        else:
            vals[ev] = _solve_after(c, _in_reading(ev, back), memo)
        out.append(vals)
    return out, None, legal, False


def _solve_after(c, ev: Event, memo: Optional[dict]) -> tuple:
    """The points after the (illegal) recorded ``ev`` at ``c``, as the engine takes it."""
    x = c.copy()
    engine.apply(x, ev)
    return tuple(S.solve(x, memo=memo))


def _decide(game, t, k: int, ev: Event, kind: str, index: int, trick: Optional[int], deal: int, *,
            samples: int, seed: int, pass_value: str, wc_cache: dict,
            memo: Optional[dict] = None, chain: Optional[list] = None) -> Decision:
    """Value every option of the decision at event ``k`` (table ``t`` before it).

    ``chain``: ``[None]`` kept by the caller through a deal's walk, where a
    play decision valued face up leaves ``(k, points vector of the card
    played)``: the value of the position after it under perfect play, so
    of the next position (``k + 1``).  A forced card there (one legal
    card, the recorded one) is worth that very vector (perfect play from a
    position with one move is that move): not searched again (over a third of
    the play decisions have one card; the tests compare it with the solver's)."""
    after = None
    if chain is not None:
        after, chain[0] = chain[0], None
    if not samples and kind == "play" and t.phase == engine.PLAY:
        # the legal cards once: the forced card's check and the compiled call share them
        # (S.play_values's two steps, the forced card's check between them)
        acts = engine.play_actions(t)
        if after is not None and after[0] == k - 1 and len(acts) == 1 and acts[0] == ev:
            if chain is not None:
                chain[0] = after[0] + 1, after[1]
            return _decide_known(t, k, ev, kind, index, trick, deal, acts, (after[1],), 0, True, wc_cache)
        vecs = S._play_moves(t, acts) if acts else None   # the cards in one compiled call (most decisions)
        if vecs is not None:
            card = getattr(ev, "card", None)    # ``ev`` among the cards: the one of its card, equal
            for i, a in enumerate(acts):
                if a.card == card:
                    if a == ev:
                        if chain is not None:
                            chain[0] = (k, vecs[i])
                        return _decide_known(t, k, ev, kind, index, trick, deal, acts, vecs, i, True, wc_cache)
    seat = ev.seat
    variant, party = t.variant, S.party_of(t, seat)
    values: dict = {}

    def value(points) -> float:     # _value_of, once per points vector of the decision
        v = values.get(points)
        if v is None:
            v = values[points] = S.value_for(variant, points, party)
        return v

    why = None
    try:
        per_reading, why, legal_read, known = _face_up(t, ev, memo)
    except engine.ImpossibleEvent as e:     # a recorded event the engine took; said, not raised
        per_reading, why, legal_read, known = [], f"not analysed: {e}", None, False
    if known and not samples:
        vals = per_reading[0]
        actions = list(vals)
        return _decide_known(t, k, ev, kind, index, trick, deal, actions, list(vals.values()), actions.index(ev),
                             legal_read, wc_cache)
    legal, _ = engine.legal_actions(t)
    if per_reading:
        actions = [a for a in per_reading[0] if all(a in r for r in per_reading)]
        is_legal = bool(legal_read)
    else:
        actions = list(legal) + ([] if ev in legal else [ev])
        # a card the record does not state (a lost discard) is not known to be illegal
        is_legal = ev in legal or C.is_unknown(getattr(ev, "card", None) or "")
    forced = len(actions) <= 1 or (len(legal) <= 1 and ev in legal)
    # the seat view: one {action as recorded: estimate} per reading of the seat's own
    # unknown cards (one when it states them all)
    sv_reads: list = []
    if samples and not forced:
        from euchre_events.analysis.sampling import seat_view, seat_view_readings
        try:
            sv = seat_view(game, k, samples=samples, seed=seed, pass_value=pass_value)
            sv_reads = [{o.action: o for o in sv.options}]
        except S.Unknowable as e:
            try:
                sv_reads = [{_as_recorded(o.action, back): o for o in v.options}
                            for back, v in seat_view_readings(game, k, samples=samples, seed=seed,
                                                              pass_value=pass_value)]
            except S.Unknowable:
                why = (why + "; " if why else "") + f"no seat view: {e}"
    options = []
    for a in actions:
        ests = [r.get(a) for r in sv_reads]
        if not ests or None in ests:
            ests = None
        if per_reading:
            vals = [value(r[a]) for r in per_reading]
            fu = _span(vals)
            pts = per_reading[0][a] if len(per_reading) == 1 else None
        else:
            fu, pts = None, None
        options.append(Option(a, action_text(a), fu, pts,
                              _span([o.mean for o in ests]) if ests else None,
                              max(o.se for o in ests) if ests else None,
                              min(o.best_share for o in ests) if ests else None))
    played = options[actions.index(ev)] if ev in actions else None
    fu_cost = wcl = None
    if per_reading and played is not None:
        costs, losses = [], []
        for r in per_reading:
            best_a = max(actions, key=lambda a: value(r[a]))
            costs.append(max(0.0, value(r[best_a]) - value(r[ev])))
            w_best = _wc(t, r[best_a], seat, wc_cache)
            w_played = _wc(t, r[ev], seat, wc_cache)
            losses.append(None if w_best is None or w_played is None else max(0.0, w_best - w_played))
        # what it lost in every reading of the unknown cards: the least of them
        fu_cost = min(costs)
        wcl = None if None in losses else min(losses)
    # the seat view's cost: what the choice lost in every reading (the least of them)
    sv_cost = sv_se = None
    in_all = [a for a in actions if all(a in r for r in sv_reads)]
    if sv_reads and in_all:
        costs, ses = [], []
        for r in sv_reads:
            top = max(in_all, key=lambda a: r[a].mean)
            if ev in in_all:
                costs.append(max(0.0, r[top].mean - r[ev].mean))
            # the verdict is the difference of two means: its noise is the larger error
            ses.append(max(r[top].se or 0.0, (r[ev].se or 0.0) if ev in in_all else 0.0))
        sv_cost = min(costs) if costs else None
        sv_se = max(ses)
    others_cost = None
    if per_reading and played is not None and fu_cost == 0 and len(per_reading) == 1:
        r = per_reading[0]
        others = [value(r[a]) for a in actions if a != ev]
        if others:
            others_cost = value(r[ev]) - max(others)
    lab = L.label(fu_cost, sv_cost, wcl, seat_view_se=sv_se,
                  others_face_up_cost=others_cost, seat_view_gap=sv_cost,
                  best_share=played.best_share if played else None, forced=forced)
    return Decision(k, deal, seat, kind, index, trick, ev, tuple(options), forced,
                    played.face_up if played else None, played.seat_view if played else None,
                    fu_cost, sv_cost, wcl, lab, is_legal, why)


def _decide_known(t, k: int, ev: Event, kind: str, index: int, trick: Optional[int], deal: int,
                  actions: Sequence[Event], pts: Sequence[tuple], i: int, legal: bool, cache: dict) -> Decision:
    """:func:`_decide` face up only, where every card that matters is stated:
    ``actions`` and their ``pts`` (points vectors) at ``t`` (the recorded
    ``ev`` among them, legal or not: ``legal``; ``actions[i]`` is equal to
    ``ev``, the played option).  The same Decision as the general
    way, without what only readings and the seat view need (the engine's
    legal actions: with one table, a decision is forced exactly when it has
    one option).  ``cache``: the deal's (:func:`_analyze_deal`; :func:`_wc`'s
    too): per seat ``(values, win chances, party)``, the two dicts by
    points vector shared by the seats of one party (what they read of the
    seat is its party), the same all through a deal."""
    seat = ev.seat
    got = cache.get(seat)
    if got is None:
        party = S.party_of(t, seat)
        got = cache.get(("party", party))
        if got is None:
            got = cache[("party", party)] = _party_values(t, party)
        cache[seat] = got
    vals, wcs, party = got
    values = []
    for p in pts:
        v = vals.get(p)
        if v is None:
            v = vals[p] = S.value_for(t.variant, p, party)
        values.append(v)
    options = tuple([_option(a, action_text(a), float(v), p) for a, v, p in zip(actions, values, pts)])
    best = max(values)
    n = len(values)
    w_played = _wc_kept(wcs, t, pts[i], seat)
    others_cost = None
    if n == 1:      # forced: its own best
        fu_cost = max(0.0, best - values[0])
        wcl = None if w_played is None else 0.0
    else:
        b = values.index(best)      # the first of equals, as max(actions, key=...) takes it
        fu_cost = max(0.0, best - values[i])
        w_best = _wc_kept(wcs, t, pts[b], seat)
        wcl = None if w_best is None or w_played is None else max(0.0, w_best - w_played)
        if fu_cost == 0:
            others_cost = values[i] - max(v for j, v in enumerate(values) if j != i)
    lab = L.label(fu_cost, None, wcl, seat_view_se=None, others_face_up_cost=others_cost,
                  seat_view_gap=None, best_share=None, forced=n <= 1)
    # the played action as the option's own event object (equal to ``ev``): its JSON made once
    return _decision(k, deal, seat, kind, index, trick, actions[i], options, n <= 1, options[i].face_up,
                     None, fu_cost, None, wcl, lab, legal, None)


_PARTY_VALUES: dict = {}
""":func:`_party_values`' dicts, from one deal (and game) to the next: a
points vector's value and win chance are the same wherever these are."""


def _party_values(t, party: int) -> tuple:
    """``(values, win chances, party)`` of :func:`_decide_known`'s cache for
    ``party`` at ``t``: the two dicts by points vector kept for every deal
    where what they read is the same (:data:`_PARTY_VALUES`): the variant
    (:func:`~euchre_events.analysis.solver.value_for`), and for the win
    chance (:func:`_score_context`) the score before the deal, the target
    and the next dealer.  One-deal games from 0-0 share them all."""
    v = t.variant
    try:
        nxt = v.next_dealer(t)
    except Exception:          # as _score_context takes it
        nxt = None if t.dealer is None else (t.dealer + 1) % t.n_seats
    try:
        key = (v, party, tuple(t.scores), getattr(t.options, "target_score", None), nxt)
        got = _PARTY_VALUES.get(key)
    except TypeError:           # something unhashable: this deal's own dicts
        return {}, {}, party
    if got is None:
        if len(_PARTY_VALUES) >= 4096:
            _PARTY_VALUES.clear()
        got = _PARTY_VALUES[key] = ({}, {}, party)
    return got


def _wc_kept(wcs: dict, t, points: tuple, seat: int) -> Optional[float]:
    """The win chance of ``points`` for ``seat`` at ``t`` (:func:`_score_context`),
    kept in ``wcs`` by points vector (a party's dict: :func:`_party_values`)."""
    got = wcs.get(points, wcs)
    if got is wcs:
        got = wcs[points] = _score_context(t, points, seat)
    return got


def _wc(t, points, seat: int, cache: dict) -> Optional[float]:
    key = (tuple(points), seat)
    got = cache.get(key, cache)
    if got is cache:
        got = cache[key] = _score_context(t, points, seat)
    return got


def analyze(game, *, deals: Optional[Iterable[int]] = None, seat: Optional[int] = None, samples: int = 200,
            seed: int = 0, face_up_only: bool = False, pass_value: str = "zero", game_id: Optional[str] = None,
            file: Optional[str] = None, progress: Optional[Callable[[int], None]] = None,
            deal_results: Optional[Sequence[DealAnalysis]] = None) -> GameAnalysis:
    """Analyse ``game`` (a :class:`~euchre_events.projections.Game`): every
    decision of every deal (or of ``deals``; of ``seat`` only), face up and,
    unless ``face_up_only``, from the seat's view with ``samples`` imagined
    deals seeded by ``seed`` (docs/analysis.md).  ``deal_results``: deals
    already analysed (e.g. by worker processes), used instead of analysing.

    Returns a :class:`GameAnalysis`.  Raises ``KeyError`` for a deal number
    the game does not have; a decision the record's unknown cards make
    unanswerable is kept with ``why`` saying so, never refused.
    """
    positions = game.deal_positions()
    wanted = [d for d, _ in positions]
    seen = []
    for d in wanted:
        if d not in seen:
            seen.append(d)
    if deals is not None:
        deals = list(deals)
        for d in deals:
            if d not in seen:
                raise KeyError(f"deal {d} is not in the game (deals {', '.join(map(str, seen))})")
        seen = [d for d in seen if d in deals]
    if deal_results is None:
        # each deal's walk goes on from the table the one before left (no fold of its own)
        deal_results = []
        before = (0, engine.new_table())
        for d in seen:
            res, before = _analyze_deal(game, d, positions, before, samples=samples, seed=seed, seat=seat,
                                        face_up_only=face_up_only, pass_value=pass_value, progress=progress)
            deal_results.append(res)
    method = Method(0 if face_up_only else samples, seed, pass_value, face_up_only)
    n = len(game.players)
    summary = summarize(deal_results, game.players, n)
    if seat is not None:      # a review of one seat sums up that seat only
        summary = tuple(p for p in summary if p.seat == seat)
    return GameAnalysis(game_id, game.variant, game.title, tuple(game.players), n, method,
                        tuple(deal_results), summary, file)


def summarize(deal_results: Sequence[DealAnalysis], players: Sequence[str], n_seats: int) -> tuple:
    """Per-seat totals (:class:`PlayerSummary`) over ``deal_results``."""
    out = []
    by_seat: dict = {s: [] for s in range(n_seats)}     # one pass over the decisions, in their order
    for deal in deal_results:
        for d in deal.decisions:
            if not d.forced:
                mine = by_seat.get(d.seat)
                if mine is not None:
                    mine.append(d)
    accuracy = L.decision_accuracy
    for s in range(n_seats):
        ds = by_seat[s]
        costs, accs, sv = [], [], []       # one pass over the seat's decisions, in their order
        labs: dict = {}
        for d in ds:
            c = d.face_up_cost
            if c is not None:
                costs.append(c)
                accs.append(accuracy(d.win_chance_lost, c))
            x = d.seat_view_cost
            if x is not None:
                sv.append(x)
            lab = d.label
            if lab:
                labs[lab] = labs.get(lab, 0) + 1
        name = players[s] if s < len(players) and players[s] else seat_word(s, n_seats)
        out.append(_player_summary(s, str(name), len(ds), sum(costs), sum(sv) if sv else None,
                                   L.accuracy_of(accs), labs))
    return tuple(out)


def to_json_text(analyses: Sequence[GameAnalysis], errors: Sequence[dict] = ()) -> str:
    """``{"games": [...]}`` as ``analyze --format json`` prints it: the text
    of ``json.dumps(doc, ensure_ascii=False, indent=1)``, byte for byte.
    ``errors`` (``{"file", "error"}``: the inputs that could not be read or
    analysed) are the field ``"errors"`` after ``"games"``, only when there
    are some.

    Written by ``msgspec.json.encode`` (several times faster than the
    standard library's encoder) where it writes the same text: every number
    of the document an int or a float that both spell alike (finite,
    ``1e-4 <= |x| < 1e15``, or 0: :func:`_plain_numbers`), every string
    without a lone surrogate (msgspec refuses those), the game's own
    strings plain ``str``; otherwise by :func:`_dumps_indent1`."""
    out = json_report(analyses, errors)
    return out.decode("utf-8") if isinstance(out, bytes) else out


def json_report(analyses: Sequence[GameAnalysis], errors: Sequence[dict] = ()):
    """:func:`to_json_text`'s text as msgspec writes it: its UTF-8 bytes
    (never a lone surrogate then), or the ``str`` where the standard
    library wrote it.  ``analyze -o FILE`` writes the bytes as they are
    (no decoding and encoding again of a text of megabytes)."""
    # tens of thousands of dicts and lists, no cycle among them: the collector
    # would only walk every object alive, several times over
    collecting = gc.isenabled()
    gc.disable()
    try:
        nums: list = []
        # an event met again (an engine's action, the same card in several decisions)
        # is written from one dict: the document is encoded, never changed
        evs = _EVENT_DICTS
        if len(evs) > _MAX_EVENT_DICTS:
            evs.clear()
        doc: dict = {"games": [a._json(nums, evs) for a in analyses]}
        if errors:
            doc["errors"] = [dict(e) for e in errors]
        if _plain_numbers(nums) and _plain_strings(analyses, doc.get("errors", ())):
            try:
                from msgspec.json import encode, format as _format
                return _format(encode(doc), indent=1)
            except Exception:     # a lone surrogate, a type msgspec does not take, no msgspec
                pass
        return _dumps_indent1(doc)
    finally:
        if collecting:
            gc.enable()


_GAMES_HEAD = '{\n "games": [\n  '
_GAMES_TAIL = "\n ]\n}"
_NO_GAMES = '{\n "games": []'


def json_game_part(a: GameAnalysis):
    """The text of one game in :func:`json_report`'s document, as the
    report writes it at its place in ``"games"`` (indented for that place):
    bytes or ``str`` as :func:`json_report` gives it.  The parts of games
    analysed apart (``analyze --workers``, each in its process) make the
    report by :func:`json_report_of_parts`."""
    text = json_report([a])
    if isinstance(text, bytes):
        assert text.startswith(_GAMES_HEAD.encode()) and text.endswith(_GAMES_TAIL.encode())
    else:
        assert text.startswith(_GAMES_HEAD) and text.endswith(_GAMES_TAIL)
    return text[len(_GAMES_HEAD):-len(_GAMES_TAIL)]


def json_report_of_parts(parts: Sequence, errors: Sequence[dict] = ()):
    """:func:`json_report` of the games whose :func:`json_game_part` are
    ``parts`` (in order) and of ``errors``: the same text, bytes where every
    part and the errors are written by msgspec, else ``str`` (either one is
    ``json.dumps``'s text: a part is the same text whichever wrote it)."""
    pieces = json_report_pieces(parts, errors)
    return pieces[0] if len(pieces) == 1 else pieces[0][:0].join(pieces)


def json_report_pieces(parts: Sequence, errors: Sequence[dict] = ()) -> list:
    """:func:`json_report_of_parts`'s text in pieces, in order (all bytes
    where every part and the errors are written by msgspec, else all
    ``str``): joined once, with what follows it, the text is copied once,
    not once a ``+`` (three copies of megabytes for 100 games)."""
    rest = json_report([], errors)      # '{"games": []' and the errors after it
    if not parts:
        return [rest]
    tail = rest[len(_NO_GAMES):]
    if isinstance(tail, bytes) and all(isinstance(p, bytes) for p in parts):
        head, sep, close = _GAMES_HEAD.encode(), b",\n  ", b"\n ]"
    else:
        head, sep, close = _GAMES_HEAD, ",\n  ", "\n ]"
        parts = [p.decode("utf-8") if isinstance(p, bytes) else p for p in parts]
        tail = tail.decode("utf-8") if isinstance(tail, bytes) else tail
    pieces = [head]
    for p in parts:
        pieces += (p, sep)
    pieces[-1] = close
    pieces.append(tail)
    return pieces


_NUMBER_TYPES = frozenset({int, float, bool, type(None)})


def _plain_numbers(nums: list) -> bool:
    """Whether ``msgspec`` writes each of ``nums`` (None or numbers) as
    ``json.dumps`` does: ints and bools always; floats when finite and 0 or
    ``1e-4 <= |x| < 1e15`` (outside, msgspec spells them ``1e16`` and
    ``0.00001``, the standard library ``1e+16`` and ``1e-05``; NaN, which
    json writes, msgspec writes ``null``).  Anything else: False."""
    if not _NUMBER_TYPES.issuperset(map(type, nums)):
        return False
    mags = list(map(abs, filter(None, nums)))      # no None, no zero
    # a NaN or an infinity makes the sum one too: never below 1e15
    return not mags or (sum(mags) < 1e15 and min(mags) >= 1e-4)


def _plain_strings(analyses: Sequence[GameAnalysis], errors) -> bool:
    """The game-level texts (names, title, file, variant, id) and the
    errors' values are ``str`` or None: nothing msgspec would write in its
    own way (a date, bytes) where ``json.dumps`` refuses."""
    ok = (str, type(None))
    for a in analyses:
        for x in (a.game_id, a.variant, a.title, a.file, a.method.pass_value, *a.players):
            if x.__class__ not in ok:
                return False
        for p in a.players_summary:
            if p.name.__class__ not in ok or any(k.__class__ is not str for k in p.labels):
                return False
    return all(v.__class__ in ok for e in errors for v in e.values())


def _dumps_indent1(doc) -> str:
    """``json.dumps(doc, ensure_ascii=False, indent=1)``, byte for byte, for
    documents of dicts with string keys, lists, tuples, strings, ints,
    floats, bools and None; anything else is left to ``json.dumps``.

    The standard library's compact encoder (in C) writes every token; the
    indentation is then added by ``msgspec.json.format``, which copies each
    token as it is (numbers in Python's own spelling, strings with their
    escapes) and lays them out as ``indent=1`` does.  A document that is no
    strict JSON (NaN): the standard library's own indented encoder (slow,
    and never met by a report of finite values)."""
    try:
        from msgspec.json import format as _format
        return _format(json.dumps(doc, ensure_ascii=False, separators=(",", ":"), allow_nan=False), indent=1)
    except Exception:    # NaN or infinity, a type json does not take
        return json.dumps(doc, ensure_ascii=False, indent=1)


def _tv(v):
    return tuple(v) if isinstance(v, list) else v


def from_json(doc: dict) -> GameAnalysis:
    """The :class:`GameAnalysis` that :meth:`GameAnalysis.to_json` wrote (the
    analysis cache keeps that JSON).  Raises ``KeyError``/``ValueError`` for a
    document of another shape."""
    def opt(o: dict) -> Option:
        pts = o.get("points")
        return Option(event_from_dict(o["event"]), o["action"], _tv(o["face_up"]),
                      tuple(pts) if pts is not None else None,
                      _tv(o.get("seat_view")), o.get("seat_view_se"), o.get("best_share"))

    deals = []
    for dd in doc["deals"]:
        decs = []
        for x in dd["decisions"]:
            decs.append(Decision(x["position"], x["deal"], x["seat"], x["kind"], x["index"], x["trick"],
                                 event_from_dict(x["played_event"]), tuple(opt(o) for o in x["options"]),
                                 bool(x.get("forced", False)), _tv(x.get("played_face_up")), _tv(x.get("played_seat_view")),
                                 x["face_up_cost"], x["seat_view_cost"], x["win_chance_lost"], x["label"],
                                 x.get("legal", True), x.get("why")))
        par = dd["par"]
        pp = par.get("points")
        pc = par.get("calls")
        deals.append(DealAnalysis(dd["deal"], dd.get("dealer"), par["call"], _tv(par["value"]),
                                  tuple(pp) if pp is not None else None, tuple(decs), dd.get("why"),
                                  par.get("seat"), tuple((x["seat"], x["call"]) for x in pc) if pc else None))
    m = doc["method"]
    method = Method(m["samples"], m["seed"], m.get("pass_value", "zero"), m.get("face_up_only", False))
    players = tuple(doc.get("player_names") or [p["name"] for p in doc["players"]])
    n = doc.get("n_seats") or len(doc["players"])
    summary = tuple(PlayerSummary(p["seat"], p["name"], p["decisions"], p["face_up_cost"], p["seat_view_cost"],
                                  p["accuracy"], dict(p.get("labels") or {})) for p in doc["players"])
    return GameAnalysis(doc.get("game_id"), doc["variant"], doc.get("title") or "", players, n, method,
                        tuple(deals), summary, doc.get("file"))
