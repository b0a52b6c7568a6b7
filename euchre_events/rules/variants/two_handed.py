"""B: Two-handed Euchre (rules.md section 3).

Seats 0 and 1; each player is a side of its own (``side_of(seat) == seat``).
Five cards each, the 11th card turned up, the other 13 undealt: the
:class:`~euchre_events.events.CardsDealt` kitty holds them (13 cards, usually
all ``"??"`` because nobody sees them; an empty kitty is accepted too).

The auction is standard Euchre's up-card auction (rules.md 2.2-2.3, reused
from :class:`~euchre_events.variants.standard.StandardEuchre`) with two seats:
round 1 the non-dealer orders up or passes, then the dealer takes it up or
turns it down; round 2 the non-dealer, then the dealer, name another suit or
pass; two passes there throw the deal in (or the dealer is stuck).  What
differs (rules.md 3.2-3.4):

* after the non-dealer orders up, the dealer *may* take the up-card and
  discard (``UpCardPickedUp`` then ``Discarded``) or leave it
  (``UpCardDeclined``); trump is fixed either way.  A dealer who takes it up
  as maker always exchanges;
* there is no going alone (every hand is already a lone hand, 3.3);
* the non-dealer always leads trick 1 (3.3, 3.6 item 3);
* scoring: maker 3-4 tricks = 1, 5 = 2, euchred = 2 to the other player;
  game to 10 (3.4);
* renege (3.5): the other player scores 2 and the hand stops.

Phases: ``round1``, ``pickup``, ``discard``, ``round2`` (as in standard),
then the engine's ``play``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from euchre_events.rules import cards as C
from euchre_events.rules.table import ImpossibleEvent, Renege, Table
from euchre_events.rules.variant import Variant, VariantOptions
from euchre_events.events import CardsDealt
from euchre_events.rules.variants.standard import StandardEuchre

RENEGE_PRESETS = ("tournament", "casual", "deduct")
DEAL_PATTERNS = ("2-3", "3-2", "crossed")


@dataclass(frozen=True)
class TwoHandedOptions(VariantOptions):
    """Options of two-handed Euchre, defaults from rules.md 3.7 and section 8.

    * ``stick_the_dealer``: the dealer may not pass in round 2 (3.2), off;
    * ``stick_allows_turned_down``: a stuck dealer may name the turned-down suit (2.3), off;
    * ``target_score``: points to win (3.4), 10 (older sources: 5);
    * ``dealer_may_decline_upcard``: after the non-dealer orders up, the dealer
      may leave the up-card (3.2, default on); off = Keller's mandatory exchange;
    * ``dealer_may_discard_upcard``: the dealer may discard the card just taken up (2.2), on;
    * ``deal_pattern``: packets of the deal, ``"2-3"`` (3.1 reading a, default),
      ``"3-2"`` or ``"crossed"`` (3.1 reading b).  Data only: it changes nothing
      about play and is used when cards are dealt by :meth:`TwoHandedEuchre.deal_cards`;
    * ``renege_penalty``: ``"tournament"`` (3.5 default: the hand stops and the
      other player scores ``renege_value``), ``"casual"`` (the hand is scored
      as played, then the other player scores ``renege_value``) or
      ``"deduct"`` (scored as played, the offender loses ``renege_value``);
    * ``renege_value``: points of a renege (3.5, section 8 item 10), 2.

    Raises ``ValueError`` for an unknown preset or pattern.
    """

    stick_the_dealer: bool = False
    stick_allows_turned_down: bool = False
    target_score: int = 10
    dealer_may_decline_upcard: bool = True
    dealer_may_discard_upcard: bool = True
    deal_pattern: str = "2-3"
    renege_penalty: str = "tournament"
    renege_value: int = 2

    # Fixed by the rules of this game (not options, not stored): read by the
    # shared up-card auction of standard.py.
    alone_timing = "none"                 # no going alone (3.3)
    dealers_partner_must_go_alone = False
    must_hold_named_suit = False
    exchange_when_dealer_out = False
    defend_alone = "off"

    def __post_init__(self):
        self.check_choices({"renege_penalty": RENEGE_PRESETS, "deal_pattern": DEAL_PATTERNS})



class TwoHandedEuchre(StandardEuchre):
    """Two-handed Euchre (rules.md section 3): seats 0 and 1, each a side."""

    name = "two-handed"
    aliases = ("two_handed", "B")
    options_class = TwoHandedOptions
    n_seats = 2
    partnerships = False
    n_sides = 2
    hand_size = 5
    tricks_per_deal = 5

    # ------------------------------------------------------------ dealing
    def next_dealer(self, t: Table) -> int:
        """The deal alternates, thrown-in deals included (3.1)."""
        return Variant.next_dealer(self, t)

    def check_dealt(self, t: Table, ev: CardsDealt) -> None:
        """Two hands of 5, an up-card, and 13 undealt cards in the kitty (or
        none stated).  Raises :class:`ImpossibleEvent` otherwise (3.1)."""
        Variant.check_dealt(self, t, ev)
        if ev.up_card is None or ev.up_card == C.UNKNOWN:
            raise ImpossibleEvent("the deal has no up-card")
        if len(ev.kitty) not in (0, 13):
            raise ImpossibleEvent(f"the undealt stock holds {len(ev.kitty)} cards, not 13")
        if ev.dummy or ev.ghost:
            raise ImpossibleEvent("two-handed Euchre has no dummy or ghost hand")

    def deal_cards(self, t: Table, shuffled: Sequence[str]) -> CardsDealt:
        """The deal of rules.md 3.1 from a shuffled deck (24 card codes):
        packets alternately to the non-dealer first (``deal_pattern``), the
        11th card up, the other 13 undealt (given as known cards)."""
        first, second = {"2-3": ((2, 2), (3, 3)), "3-2": ((3, 3), (2, 2)),
                         "crossed": ((3, 2), (2, 3))}[self.options.deal_pattern]
        order = [(t.dealer + 1) % 2, t.dealer]
        hands = {0: [], 1: []}
        rest = list(shuffled)
        for sizes in (first, second):
            for seat, k in zip(order, sizes):
                hands[seat] += rest[:k]
                rest = rest[k:]
        up = rest.pop(0)
        return CardsDealt((tuple(hands[0]), tuple(hands[1])), up, tuple(rest))

    # ------------------------------------------------------------ auction
    def _make(self, t: Table, seat: int, alone: bool) -> None:
        if alone:
            raise ImpossibleEvent("there is no going alone in two-handed Euchre (rules.md 3.3)")
        super()._make(t, seat, False)

    def _after_exchange(self, t: Table) -> None:
        self.start_play(t)

    # ------------------------------------------------------------ play
    def first_leader(self, t: Table) -> int:
        """The non-dealer always leads trick 1 (3.3), even as maker."""
        return (t.dealer + 1) % 2

    # ------------------------------------------------------------ scoring
    def score_deal(self, t: Table) -> list:
        """Points per player (3.4): maker 3-4 tricks = 1, all 5 = 2;
        maker 0-2 (euchred) = 2 to the other player."""
        m = t.maker
        n = t.tricks_won[m]
        pts = [0, 0]
        if n == 5:
            pts[m] = 2
        elif n >= 3:
            pts[m] = 1
        else:
            pts[1 - m] = 2
        return pts

    def game_winner(self, t: Table) -> Optional[int]:
        """The player at ``target_score`` or more (3.4); only one player
        scores in a hand, so two cannot reach it together."""
        target = self.options.target_score
        best = max(range(2), key=lambda i: t.scores[i])
        return best if t.scores[best] >= target else None

    def renege_penalty(self, t: Table, r: Renege, deal_points: Sequence[int]) -> tuple:
        """(points per player for the deal, hand abandoned?, words) for a
        renege by ``r.seat`` (rules.md 3.5; preset ``renege_penalty``)."""
        o = self.options
        off, other = r.seat, 1 - r.seat
        val = o.renege_value
        who, offender = t.players[other], t.players[off]
        if o.renege_penalty == "tournament":
            pts = [0, 0]
            pts[other] = val
            return pts, True, f"hand ends; {who} scores {val}"
        pts = list(deal_points)
        if o.renege_penalty == "casual":
            pts[other] += val
            return pts, False, f"hand scored as played, then {who} scores {val}"
        pts[off] -= val
        return pts, False, f"hand scored as played; {offender} loses {val}"
