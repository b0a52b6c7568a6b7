"""The working state of a game and the ways a record can be wrong (docs/design.md
"Three kinds of wrong"): :class:`Table` (with its typed state: :class:`Phase`,
:class:`UpCardStatus`, a variant's auction and contract dataclasses, and the
read-only :meth:`Table.extra` view of them), :class:`ImpossibleEvent`,
:class:`Renege`, :class:`Irregularity` and :func:`flag`.  Pure: no I/O.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Optional

from euchre_events.events import Event
from euchre_events.rules.cards import UNKNOWN


class ImpossibleEvent(ValueError):
    """An event the record cannot contain (a card not in the hand, a card dealt
    twice, a seat out of turn, an event after the game ended).

    Attributes: ``reason`` (words), ``position`` (0-based event index, set by
    the fold; the message says it from 1, "event K" as ``record`` and ``show
    --after K`` count), ``deal`` (deal number or None), ``event`` (the event).
    """

    def __init__(self, reason: str, position: Optional[int] = None,
                 deal: Optional[int] = None, event: Optional[Event] = None):
        super().__init__(reason)
        self.reason = reason
        self.position = position
        self.deal = deal
        self.event = event

    def __str__(self) -> str:
        where = []
        if self.deal is not None:
            where.append(f"deal {self.deal}")
        if self.position is not None:   # counted from 1, as record, show --after and verify say it
            where.append(f"event {self.position + 1}")
        if self.event is not None:
            where.append(self.event.kind)
        return (", ".join(where) + ": " if where else "") + self.reason


@dataclass(frozen=True)
class Renege:
    """A renege as it happened (rules.md 1.5), found by the trick engine.

    ``position``: index of the offending CardPlayed event; ``deal``/``trick``
    count from 1; ``seat``; ``card``: the card played; ``led_suit``;
    ``evidence``: the led-suit cards the seat held at that moment;
    ``lone``: a lone hand was involved (maker or defender alone);
    ``against_lone``: the renege was by the side opposing a lone player;
    ``maker``: the maker's seat in that deal (None when there is no maker);
    ``corrected_at``: position of the :class:`~euchre_events.events.PlayCorrected`
    that took the card back before the trick was gathered (no penalty,
    rules.md 1.5), or None;
    ``established_at``: position of the event that made it stand (rules.md
    1.5: the first card of a later trick, when the trick has been gathered;
    for a renege on the deal's last trick, the card that ended the hand), or
    None (corrected, or the deal was abandoned first);
    ``shown_at`` / ``shown_card``: position and card of the offender's first
    later play of the suit held back (``led_suit``, effective under trump),
    or of a card of that suit it took back (the moment the table sees it,
    and the only moment a ``first-chance`` claim may be made), or None.
    """

    position: int
    deal: int
    trick: int
    seat: int
    card: str
    led_suit: Optional[str]
    evidence: tuple
    lone: bool = False
    against_lone: bool = False
    by_lone: bool = False
    maker: Optional[int] = None
    corrected_at: Optional[int] = None
    established_at: Optional[int] = None
    shown_at: Optional[int] = None
    shown_card: Optional[str] = None


@dataclass(frozen=True)
class Claim:
    """A renege claim as the rules judged it (rules.md 1.5, 2.7).

    ``position``: event index of the :class:`~euchre_events.events.RenegeClaimed`;
    ``by``, ``against``: seats; ``deal``/``trick``: as claimed (from 1);
    ``verdict``: ``"valid"`` (a renege by ``against`` at that trick, claimed
    within the game's window) or ``"rejected"``; ``reason`` in words;
    ``renege``: position of the renege it names (its CardPlayed), or None.
    """

    position: int
    by: int
    against: int
    deal: int
    trick: int
    verdict: str
    reason: str
    renege: Optional[int] = None


@dataclass(frozen=True)
class Ruling:
    """A ruling (:class:`~euchre_events.events.RenegeRuled`) as folded:
    ``position`` of the event; ``deal``, ``trick``, ``against`` as given;
    ``ruling`` (``"upheld"``/``"rejected"``); ``penalty`` (points per side
    for the deal, or None: the preset's); ``by``, ``reason``; ``renege``:
    position of the renege of the record it names, or None (the ruling then
    contradicts the record: kept, and reported by the audit)."""

    position: int
    deal: int
    trick: int
    against: int
    ruling: str
    penalty: Optional[tuple]
    by: str
    reason: str
    renege: Optional[int] = None


@dataclass(frozen=True)
class DealOutcome:
    """The official result of one deal (rules.md 1.5, 2.7): ``deal``
    (number), ``points`` per side officially (the as-played points with the
    renege policy, claims and rulings applied; 0 for a deal after the game
    was won), ``penalized``: ``((renege position, words), ...)`` the
    penalties applied, in play order; ``note``: ``""``, ``"abandoned"``,
    ``"thrown in"`` or ``"after the game was won"``."""

    deal: int
    points: tuple
    penalized: tuple = ()
    note: str = ""


@dataclass(frozen=True)
class DealEnd:
    """What a variant's ``game_winner`` reads of the table besides the
    scores, as one deal left it (rules.md 1.6): ``maker`` (seat or None),
    ``contract`` (the variant's frozen contract state), ``tricks_won`` (per
    seat) and ``out`` (seats sitting out); ``start``, the position of its
    DealStarted.  Kept per deal so that a late
    ruling on an earlier deal can decide the game end there again."""

    maker: Optional[int]
    contract: Any
    tricks_won: tuple
    out: frozenset
    start: int = 0   # position of the deal's DealStarted (a deal dealt again keeps its number)


@dataclass(frozen=True)
class Irregularity:
    """An illegal-but-real action other than a renege (docs/design.md "Three kinds
    of wrong"): a call the rules do not allow, a stuck dealer who passes, a
    dealer out of rotation.  ``position`` is the event index, ``deal`` counts
    from 1, ``seat`` may be None, ``kind`` a short id, ``text`` in words."""

    position: int
    deal: int
    seat: Optional[int]
    kind: str
    text: str


class Phase(StrEnum):
    """The engine's phases of a game (``Table.phase``).  A variant adds the
    phases of its auction and exchanges as a StrEnum of its own (e.g.
    :class:`~euchre_events.rules.variants.upcard.UpCardPhase`).  Members are
    ``str``: ``Phase.PLAY == "play"``, so readers may compare either way."""

    START = "start"            # nothing folded yet: GameStarted comes first
    DEAL = "deal"              # GameStarted folded; deal 1 starts next
    DEALING = "dealing"        # DealStarted folded; CardsDealt comes next
    PLAY = "play"              # the play of tricks (rules.md 1.3)
    DEAL_OVER = "deal_over"    # the deal is scored or thrown in; the next deal starts next
    GAME_OVER = "game_over"    # the game is won (or ends tied); nothing may follow
    THROWN_IN = "thrown_in"    # everyone passed: DealThrownIn comes next (rules.md 2.3)


START, DEAL, DEALING, PLAY, DEAL_OVER, GAME_OVER, THROWN_IN = Phase
"""The members as module constants (as ``re`` exports ``re.IGNORECASE``): the
fold compares phases on every event, and in Python 3.11 an Enum class
attribute costs several times a global lookup.  Each variant module does the
same for its own phases."""


class UpCardStatus(StrEnum):
    """Where the up-card is (``Table.up_status``, rules.md 2.1-2.3, 3.2, 4.2, 6.1)."""

    NONE = ""                                       # no up-card in this game or deal
    FACE_UP = "face up"                             # turned up, the auction under way
    TURNED_DOWN = "turned down"                     # all passed in round 1 (2.3)
    DEALER_OUT = "face down (dealer sits out)"      # the dealer's partner went alone (2.2)
    PICKED_UP = "picked up"                         # in the dealer's hand (2.2)
    LEFT = "left"                                   # the dealer left it after an order-up (3.2, 4.2)


_NO_UP_CARD = UpCardStatus.NONE  # a global: see PLAY


_new = object.__new__


def evolve(state: Any, **changes: Any) -> Any:
    """A new typed state: ``state`` (a frozen dataclass of auction or
    contract state) with the fields in ``changes`` replaced; ``state`` is
    unchanged.  The same value as ``dataclasses.replace(state, **changes)``
    (the tests check it for every state class), made without running the
    constructor again, which the typed states need not (every field an init
    field, no ``__post_init__``): the fold replaces a state on most auction
    events, and ``dataclasses.replace`` costs 5-8 times as much there (it
    doubled the replay time of a Ghost Hand game).  Raises ``TypeError`` for
    a name that is not a field.
    """
    fields = state.__dict__
    new = _new(type(state))
    d = new.__dict__
    d.update(fields)
    d.update(changes)
    if len(d) != len(fields):  # a name that is not a field added a key
        raise TypeError(f"{type(state).__name__} has no field "
                        f"{', '.join(sorted(changes.keys() - fields.keys()))}")
    return new


def state_view(state: Any) -> dict:
    """The plain-dict view of a variant's typed auction or contract state
    (a frozen dataclass, or None for none): ``{key: value}`` with each field
    that has no default, and each field whose value differs from its default
    (the state as the former ``Table.x`` dict showed it: a key appears once
    the rules have set it).  The key is the field's name, or its
    ``metadata["key"]`` where the field is named otherwise."""
    if state is None:
        return {}
    out = {}
    for f in dataclasses.fields(state):
        value = getattr(state, f.name)
        if f.default is dataclasses.MISSING or value != f.default:
            out[f.metadata.get("key", f.name)] = value
    return out


def flag(t: "Table", kind: str, text: str, seat: Optional[int] = None) -> None:
    """Record an :class:`Irregularity` at the event being folded."""
    t.flags.append(Irregularity(t.pos, t.deal_no, seat, kind, text))


class Table:
    """Mutable working state of one game, folded event by event.

    Seat-indexed lists have one entry per seat (``n_seats``); side-indexed
    lists one per side (``variant.n_sides``).  Use :meth:`copy` for
    checkpoints and :func:`euchre_events.projections.snapshot` for an immutable
    view.

    Typed state: ``phase`` (a :class:`Phase`, or a member of the variant's
    own phase enum), ``up_status`` (:class:`UpCardStatus`); ``first_dealer``
    (seat of GameStarted's first dealer) and ``out_of_turn`` (True after a
    card played out of turn until its trick is complete, rules.md 1.3): the
    engine's own; ``auction`` and ``contract``: the variant's frozen
    dataclasses (its ``auction_state`` and ``contract_state``, None until
    its auction starts, reset by each DealStarted), replaced whole with
    :func:`dataclasses.replace`, never changed in place, so that
    :meth:`copy` needs to copy neither.
    """

    __slots__ = (
        "variant", "options", "players", "n_seats", "pos", "title", "source",
        "scores", "initial_score", "deal_no", "dealer", "phase", "turn", "hands", "dealt",
        "up_card", "up_status", "kitty", "dummy", "ghost", "dead", "discards",
        "trump", "maker", "alone", "lone_defender", "out", "first_dealer", "out_of_turn",
        "auction", "contract",
        "leader", "trick", "tricks", "tricks_won", "seen", "deal_results",
        "reneges", "flags", "game_over", "winner", "led_suit", "deal_start_pos", "low",
        "official_scores", "official_results", "as_played_winner", "claims", "rulings",
        "open_reneges", "scored_contract", "deal_outcomes", "deal_ends", "tokens",
    )

    def __init__(self):
        self.variant: Any = None
        self.options: Any = None
        self.players: tuple = ()
        self.n_seats = 0
        self.pos = 0
        self.title = ""
        self.source: dict = {}
        self.scores: list = []
        self.initial_score: tuple = ()
        self.deal_no = 0
        self.dealer: Optional[int] = None
        self.phase: StrEnum = START
        self.turn: Optional[int] = None
        self.hands: list = []
        self.dealt: tuple = ()
        self.up_card: Optional[str] = None
        self.up_status = _NO_UP_CARD
        self.kitty: list = []
        self.dummy: list = []
        self.ghost: list = []
        self.dead: list = []
        self.discards: list = []
        self.trump: Optional[str] = None
        self.maker: Optional[int] = None
        self.alone: Optional[int] = None
        self.lone_defender: Optional[int] = None
        self.out: frozenset = frozenset()
        self.first_dealer = 0
        self.out_of_turn = False
        self.auction: Any = None
        self.contract: Any = None
        self.leader: Optional[int] = None
        self.trick: list = []
        self.tricks: list = []
        self.tricks_won: list = []
        self.seen: set = set()
        self.deal_results: list = []
        self.reneges: list = []
        self.flags: list = []
        self.game_over = False
        self.winner: Optional[int] = None
        self.led_suit: Optional[str] = None
        self.deal_start_pos = 0
        self.low = False
        # the official result (rules.md 1.5, 1.6): ``scores`` stay as played;
        # ``official_scores`` (per side) apply the renege policy, claims and
        # rulings, and decide ``game_over`` and ``winner``
        self.official_scores: list = []
        self.official_results: list = []     # DealOutcome per deal scored, as it counts
        self.deal_outcomes: list = []        # DealOutcome per deal scored, as if it counted
        self.deal_ends: list = []            # DealEnd per deal scored (what game_winner reads)
        self.as_played_winner: Any = None    # side (or tuple of tied sides) on the cards as played
        self.claims: list = []               # Claim per RenegeClaimed
        self.rulings: list = []              # Ruling per RenegeRuled
        self.open_reneges: list = []         # indices into reneges not yet established or shown
        self.scored_contract: Any = None     # contract as the deal's scoring left it
        # a variant's counters that last the game, per side (standard Euchre's
        # four-trick tokens, rules.md 2.9); [] when the game keeps none.  Replaced
        # whole, never changed in place (checkpoints share it)
        self.tokens: list = []

    def copy(self) -> "Table":
        """An independent copy (lists and sets copied; their values, and the
        frozen auction and contract states, are immutable and shared)."""
        return _copy_table(self)

    # ------------------------------------------------------------ views
    def extra(self) -> dict:
        """A plain-dict, read-only view of the variant-specific state (what
        ``TableState.extra`` carries): ``first_dealer`` once GameStarted is
        folded, ``out_of_turn`` (True) after a card out of turn, then the
        fields of ``auction`` and ``contract`` (:func:`state_view`), e.g.
        ``passes``, ``called_in_round``, ``high``, ``bids``, ``contract``,
        ``made``, ``tied``, ``shared_winners``.  A new dict each call:
        changing it changes nothing."""
        out = {} if self.phase == START else {"first_dealer": self.first_dealer}
        if self.out_of_turn:
            out["out_of_turn"] = True
        out.update(state_view(self.auction))
        out.update(state_view(self.contract))
        return out

    @property
    def x(self):
        """Deprecated read-only alias of :meth:`extra` (a mapping proxy:
        writing to it raises ``TypeError``); read the typed state instead."""
        return MappingProxyType(self.extra())

    # ------------------------------------------------------------ helpers
    def side_of(self, seat: int) -> int:
        """The side (team or player) a seat scores for."""
        return self.variant.side_of(seat)

    def active(self) -> list:
        """Seats that take part in the play of this deal, clockwise from 0."""
        return [s for s in range(self.n_seats) if s not in self.out]

    def next_active(self, seat: int) -> int:
        """The next seat clockwise after ``seat`` that is not sitting out."""
        n = self.n_seats
        for k in range(1, n + 1):
            s = (seat + k) % n
            if s not in self.out:
                return s
        raise ImpossibleEvent("no seat is taking part in the play")

    def next_seat(self, seat: int) -> int:
        """The next seat clockwise (sitting out or not)."""
        return (seat + 1) % self.n_seats

    def remove_card(self, seat: int, card: str, what: str = "play") -> None:
        """Take ``card`` out of ``seat``'s hand; a ``??`` in the hand can stand
        for a card the record did not state.  Raises :class:`ImpossibleEvent`."""
        hand = self.hands[seat]
        if card in hand:
            hand.remove(card)
            return
        if card == UNKNOWN:
            raise ImpossibleEvent(f"seat {seat} cannot {what} an unknown card: none left in the hand")
        if card[0] == "?":   # "?D": a "??" held may be it; it names no card, so nothing is seen
            if UNKNOWN in hand:
                hand.remove(UNKNOWN)
                return
            raise ImpossibleEvent(f"seat {seat} cannot {what} a card the record does not state: "
                                  "none left in the hand")
        if UNKNOWN in hand and card not in self.seen:
            hand.remove(UNKNOWN)
            self.seen.add(card)
            return
        if card in self.seen:
            raise ImpossibleEvent(
                f"seat {seat} cannot {what} {card}: it is not in that hand "
                f"(it was dealt elsewhere or already played)")
        raise ImpossibleEvent(f"seat {seat} cannot {what} {card}: it is not in that hand")


def _slot_copier(cls):
    """A function ``f(obj) -> new cls instance`` with every slot of ``obj``
    (shallow), generated with one assignment per slot as :mod:`dataclasses`
    does: several times faster than a ``setattr`` loop (checkpoints)."""
    body = "".join(f"    t.{n} = s.{n}\n" for n in cls.__slots__)
    ns = {"cls": cls}
    exec(f"def copy_slots(s):\n    t = cls.__new__(cls)\n{body}    return t\n", ns)
    return ns["copy_slots"]


_copy_slots = _slot_copier(Table)

_COPIED_LISTS = ("scores", "kitty", "dummy", "ghost", "dead", "discards", "trick", "tricks", "tricks_won",
                 "deal_results", "reneges", "flags", "official_scores", "official_results", "deal_outcomes",
                 "deal_ends", "claims", "rulings", "open_reneges")
"""The list slots :meth:`Table.copy` copies (``hands``, a list of lists, and
``seen``, a set, are copied too); every other slot is shared."""


def _table_copier():
    """:meth:`Table.copy` as one generated function: each slot assigned once,
    the containers copied in place of the shared ones (the solver copies a
    table at each position of the auction it searches)."""
    lines = []
    for n in Table.__slots__:
        if n in _COPIED_LISTS:
            lines.append(f"    t.{n} = s.{n}[:]")
        elif n == "hands":
            lines.append(f"    t.{n} = [h[:] for h in s.{n}]")
        elif n == "seen":
            lines.append(f"    t.{n} = s.{n}.copy()")
        else:
            lines.append(f"    t.{n} = s.{n}")
    ns = {"cls": Table}
    exec("def copy_table(s):\n    t = cls.__new__(cls)\n" + "\n".join(lines) + "\n    return t\n", ns)
    return ns["copy_table"]


_copy_table = _table_copier()
