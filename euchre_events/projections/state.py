"""The immutable table state (:class:`TableState`) and :func:`snapshot`, the
view of a working table that every projection and interface reads.  Pure:
no I/O.  (Its own module so that the seat projection and the audit can use
it without importing :mod:`~euchre_events.projections.game`.)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from euchre_events.events import CardPlayed
from euchre_events.rules.engine import Table, legal_actions


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

    ``score`` is as played (the cards as recorded); ``official_score`` per
    side with the renege policy, claims and rulings applied (rules.md 1.5),
    which decides ``game_over`` and ``winner``; ``as_played_winner``: the
    side (or tuple of tied sides) that won on the cards, or None.
    ``tokens``: four-trick tokens held per side (standard Euchre's
    ``four_trick_tokens``, rules.md 2.9), ``()`` in a game without them or
    before the first is earned.
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
    official_score: tuple = ()
    as_played_winner: Optional[object] = None
    tokens: tuple = ()

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
        official_score=tuple(t.official_scores), as_played_winner=t.as_played_winner,
        tokens=tuple(t.tokens),
    )
