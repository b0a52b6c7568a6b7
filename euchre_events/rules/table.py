"""The working state of a game and the ways a record can be wrong (design.md
"Three kinds of wrong"): :class:`Table`, :class:`ImpossibleEvent`,
:class:`Renege`, :class:`Irregularity` and :func:`flag`.  Pure: no I/O.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from euchre_events.events import Event
from euchre_events.rules.cards import UNKNOWN


class ImpossibleEvent(ValueError):
    """An event the record cannot contain (a card not in the hand, a card dealt
    twice, a seat out of turn, an event after the game ended).

    Attributes: ``reason`` (words), ``position`` (0-based event index, set by
    the fold), ``deal`` (deal number or None), ``event`` (the event).
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
        if self.position is not None:
            where.append(f"event {self.position}")
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
    rules.md 1.5), or None.
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


@dataclass(frozen=True)
class Irregularity:
    """An illegal-but-real action other than a renege (design.md "Three kinds
    of wrong"): a call the rules do not allow, a stuck dealer who passes, a
    dealer out of rotation.  ``position`` is the event index, ``deal`` counts
    from 1, ``seat`` may be None, ``kind`` a short id, ``text`` in words."""

    position: int
    deal: int
    seat: Optional[int]
    kind: str
    text: str


def flag(t: "Table", kind: str, text: str, seat: Optional[int] = None) -> None:
    """Record an :class:`Irregularity` at the event being folded."""
    t.flags.append(Irregularity(t.pos, t.deal_no, seat, kind, text))


class Table:
    """Mutable working state of one game, folded event by event.

    Seat-indexed lists have one entry per seat (``n_seats``); side-indexed
    lists one per side (``variant.n_sides``).  Use :meth:`copy` for
    checkpoints and :func:`euchre_events.projections.snapshot` for an immutable
    view.  Variant-specific auction state lives in the ``x`` dict (values must
    be immutable so that a shallow copy is safe).
    """

    __slots__ = (
        "variant", "options", "players", "n_seats", "pos", "title", "source",
        "scores", "initial_score", "deal_no", "dealer", "phase", "turn", "hands", "dealt",
        "up_card", "up_status", "kitty", "dummy", "ghost", "dead", "discards",
        "trump", "maker", "alone", "lone_defender", "out", "x",
        "leader", "trick", "tricks", "tricks_won", "seen", "deal_results",
        "reneges", "flags", "game_over", "winner", "led_suit", "deal_start_pos", "low",
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
        self.phase = "start"
        self.turn: Optional[int] = None
        self.hands: list = []
        self.dealt: tuple = ()
        self.up_card: Optional[str] = None
        self.up_status = ""
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
        self.x: dict = {}
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

    def copy(self) -> "Table":
        """An independent copy (lists and dicts copied; their values are immutable)."""
        t = _copy_slots(self)  # every slot, shallow; the containers are copied below
        t.scores = list(self.scores)
        t.hands = [list(h) for h in self.hands]
        t.kitty = list(self.kitty)
        t.dummy = list(self.dummy)
        t.ghost = list(self.ghost)
        t.dead = list(self.dead)
        t.discards = list(self.discards)
        t.x = dict(self.x)
        t.trick = list(self.trick)
        t.tricks = list(self.tricks)
        t.tricks_won = list(self.tricks_won)
        t.seen = set(self.seen)
        t.deal_results = list(self.deal_results)
        t.reneges = list(self.reneges)
        t.flags = list(self.flags)
        return t

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
