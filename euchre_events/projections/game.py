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
from dataclasses import dataclass, field
from typing import Optional, Sequence

from euchre_events.rules.engine import ImpossibleEvent, Table, apply, fold, legal_actions, new_table
from euchre_events.events import CardPlayed, Event, GameStarted
from euchre_events.projections.audit import audit


@dataclass(frozen=True)
class TableState:
    """The table after ``position`` events (immutable).

    Seats are indices 0..n-1 clockwise; sides are teams (side 0 = seats 0, 2
    in four-handed partnership games) or players.  ``hands[seat]`` are card
    codes (``"??"`` unknown); ``trick`` is ``((seat, card), ...)`` leader first;
    ``tricks`` are the finished tricks of this deal as ``(leader, ((seat, card),
    ...), winner)``; ``score`` is points per side; ``legal`` are the events the
    seat on ``turn`` may add, with ``legal_reason`` in words.

    ``phase`` is a :class:`~euchre_events.rules.table.Phase` or a variant's
    phase enum member, ``up_card_status`` an
    :class:`~euchre_events.rules.table.UpCardStatus`: both ``str`` enums, so
    ``state.phase == "play"`` holds as before.  ``extra`` is a plain dict and
    a read-only view (a copy: changing it changes nothing) of the
    variant-specific typed state (:meth:`~euchre_events.rules.table.Table.extra`):
    ``first_dealer``; ``out_of_turn``; the auction's ``passes``,
    ``called_in_round``, ``high``, ``high_seat``, ``bids``, ...; the
    contract's ``contract`` (the won bid), ``made``, ``defenders_left``,
    ``dummy_discards``, ``to_ask``, ``swapped``, ``pb_owed``, ...; at the
    end of a game ``tied`` (Buck) or ``shared_winners`` (cutthroat).
    Each key appears once the rules have set it.
    """

    position: int
    variant: str
    players: tuple
    phase: str
    deal: int
    dealer: Optional[int]
    turn: Optional[int]
    hands: tuple
    dealt: tuple
    up_card: Optional[str]
    up_card_status: str
    kitty: tuple
    dummy: tuple
    ghost: tuple
    discards: tuple
    trump: Optional[str]
    maker: Optional[int]
    alone: Optional[int]
    lone_defender: Optional[int]
    sitting_out: tuple
    leader: Optional[int]
    trick: tuple
    tricks: tuple
    tricks_won: tuple
    tricks_by_side: tuple
    score: tuple
    deal_results: tuple
    legal: tuple
    legal_reason: str
    reneges: tuple
    game_over: bool
    winner: Optional[int]
    extra: dict = field(default_factory=dict)
    dead: tuple = ()
    flags: tuple = ()

    def legal_cards(self) -> tuple:
        """Cards the seat on turn may play now (empty outside the play)."""
        return tuple(e.card for e in self.legal if isinstance(e, CardPlayed))


def snapshot(t: Table, with_legal: bool = True) -> TableState:
    """Immutable view of a working table."""
    v = t.variant
    if with_legal and v is not None:
        legal, reason = legal_actions(t)
    else:
        legal, reason = (), ""
    n_sides = v.n_sides if v else 0
    by_side = [0] * n_sides
    for s, n in enumerate(t.tricks_won):
        by_side[v.side_of(s)] += n
    return TableState(
        position=t.pos, variant=v.name if v else "", players=t.players, phase=t.phase,
        deal=t.deal_no, dealer=t.dealer, turn=t.turn,
        hands=tuple(tuple(h) for h in t.hands), dealt=t.dealt, up_card=t.up_card,
        up_card_status=t.up_status, kitty=tuple(t.kitty), dummy=tuple(t.dummy),
        ghost=tuple(t.ghost), discards=tuple(t.discards), trump=t.trump, maker=t.maker,
        alone=t.alone, lone_defender=t.lone_defender, sitting_out=tuple(sorted(t.out)),
        leader=t.leader, trick=tuple(t.trick), tricks=tuple(t.tricks),
        tricks_won=tuple(t.tricks_won), tricks_by_side=tuple(by_side), score=tuple(t.scores),
        deal_results=tuple(t.deal_results), legal=tuple(legal), legal_reason=reason,
        reneges=tuple(t.reneges), game_over=t.game_over, winner=t.winner,
        extra=t.extra(),
        dead=tuple(t.dead), flags=tuple(t.flags),
    )


class Game:
    """A validated game: its events, folded once, with a checkpoint per deal
    (made on the first jump, :meth:`table_at`).

    ``Game(events)`` raises :class:`ImpossibleEvent` (with ``deal`` and
    ``position``) if the record cannot be folded.  ``title``, ``variant``,
    ``players``, ``final`` (the working table after the last event).
    """

    def __init__(self, events: Sequence[Event], game_id: Optional[str] = None):
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
        self.final = fold(new_table(), self.events)
        self.started: GameStarted = self.events[0]

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
        """Winning side, or None if the record stops before the game is won."""
        return self.final.winner

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
