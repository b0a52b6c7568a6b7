"""B: Two-handed Euchre (rules.md section 3).

Seats 0 and 1; each player is a side of its own (``side_of(seat) == seat``).
Five cards each, the 11th card turned up, the other 13 undealt: the
:class:`~euchre_events.events.CardsDealt` kitty holds them (13 cards, usually
all ``"??"`` because nobody sees them; an empty kitty is accepted too).

The auction is the shared up-card auction (rules.md 2.2-2.3,
:class:`~euchre_events.rules.variants.upcard.UpCardAuction`) with two seats:
round 1 the non-dealer orders up or passes, then the dealer takes it up or
turns it down; round 2 the non-dealer, then the dealer, name another suit or
pass; two passes there throw the deal in (or the dealer is stuck).  What
differs (rules.md 3.2-3.4):

* after the non-dealer orders up, the dealer *may* take the up-card and
  discard (``UpCardPickedUp`` then ``Discarded``) or leave it
  (``UpCardDeclined``); trump is fixed either way.  A dealer who takes it up
  as maker always exchanges;
* there is no going alone (every hand is already a lone hand, 3.3), and
  the other rules of the auction that section 3 fixes are class-level
  rules (:data:`FIXED_RULES`), not options;
* the non-dealer always leads trick 1 (3.3, 3.6 item 3);
* scoring: maker 3-4 tricks = 1, 5 = 2, euchred = 2 to the other player;
  game to 10 (3.4);
* renege (3.5): the other player scores 2 and the hand stops.

Phases: ``round1``, ``pickup``, ``discard``, ``round2`` (as in standard),
then the engine's ``play``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence

from euchre_events.events import CardsDealt
from euchre_events.rules.table import Renege, Table
from euchre_events.rules.variant import Variant, VariantOptions
from euchre_events.rules.variants.upcard import UpCardAuction

RENEGE_PRESETS = ("tournament", "casual", "deduct")
DEAL_PATTERNS = ("2-3", "3-2", "crossed")

FIXED_RULES = {
    "alone_timing": "none",                  # no going alone: every hand is a lone hand (3.3)
    "stick_allows_turned_down": False,       # round 2 names "any other suit" (3.2)
    "dealers_partner_must_go_alone": False,  # there is no partner (3.3)
    "must_hold_named_suit": False,           # 3.2 puts no condition on naming
    "exchange_when_dealer_out": False,       # the dealer never sits out
}
"""The rules of the up-card auction that rules.md section 3 fixes (not
options): :attr:`TwoHandedEuchre.fixed_rules`."""


@dataclass(frozen=True)
class TwoHandedOptions(VariantOptions):
    """Options of two-handed Euchre, defaults from rules.md 3.7 and section 8.

    * ``stick_the_dealer``: the dealer may not pass in round 2 (3.2), off;
    * ``stick_allows_turned_down``: *not an option*: fixed at False by 3.2
      (round 2 names "any other suit", stuck dealer included; 3.7 has no
      such toggle).  Kept as a field, validated, because every stored game
      carries it in ``GameStarted.options`` and its content id hashes the
      options as stored (a different value raises ``ValueError``);
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

    Raises ``ValueError`` for an unknown preset or pattern, or a fixed rule
    (:data:`FIXED_RULES`) given another value.
    """

    stick_the_dealer: bool = False
    stick_allows_turned_down: bool = False
    target_score: int = 10
    dealer_may_decline_upcard: bool = True
    dealer_may_discard_upcard: bool = True
    deal_pattern: str = "2-3"
    renege_penalty: str = "tournament"
    renege_value: int = 2

    def __post_init__(self):
        self.check_shared()  # the table-law options every variant shares (rules.md 2.7)
        self.check_choices({"renege_penalty": RENEGE_PRESETS, "deal_pattern": DEAL_PATTERNS})
        self.check_fixed(FIXED_RULES, "two-handed Euchre")



class TwoHandedEuchre(UpCardAuction, Variant):
    """Two-handed Euchre (rules.md section 3): seats 0 and 1, each a side."""

    name = "two-handed"
    aliases = ("two_handed", "B")
    options_class = TwoHandedOptions
    game_title = "two-handed Euchre"
    fixed_rules = FIXED_RULES
    no_going_alone = "there is no going alone in two-handed Euchre (rules.md 3.3)"
    n_seats = 2
    partnerships = False
    n_sides = 2
    hand_size = 5
    tricks_per_deal = 5

    # ------------------------------------------------------------ dealing
    # two hands of 5, an up-card, the 13 undealt cards in the kitty (or none stated), 3.1
    kitty_size = 13
    kitty_name = "the undealt stock"
    absent_hands = ("dummy", "ghost")

    def deal_cards(self, t: Table, shuffled: Sequence[str]) -> CardsDealt:
        """The deal of rules.md 3.1 from a shuffled deck (24 card codes):
        packets alternately to the non-dealer first (``deal_pattern``), the
        11th card up, the other 13 undealt (given as known cards)."""
        rounds = {"2-3": ((2, 2), (3, 3)), "3-2": ((3, 3), (2, 2)),
                  "crossed": self.crossed_packets(2, 3)}[self.options.deal_pattern]
        hands, rest = self.deal_packets(shuffled, [(t.dealer + 1) % 2, t.dealer], rounds)
        up = rest.pop(0)
        return CardsDealt((tuple(hands[0]), tuple(hands[1])), up, tuple(rest))

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
        elif self.call_made(t.tricks_won, m):
            pts[m] = 1
        else:
            pts[1 - m] = 2
        return pts

    def game_winner(self, t: Table, scores: Sequence[int]) -> Any:
        """The player at ``target_score`` or more (3.4).  Only one player
        scores in a normal hand; when the ``casual`` renege penalty lets both
        cross on one deal, the first to reach the target wins (the hand is
        scored first, then the penalty: :meth:`penalty_order`,
        :meth:`Variant.first_at_target`); reached together, the higher wins,
        and level the game goes on (a record that starts level at the
        target: ``(0, 1)``, over with no known winner)."""
        over = self.first_at_target(t, scores, self.options.target_score)
        if len(over) == 1:
            return over[0]
        if over and scores[0] != scores[1]:
            return 0 if scores[0] > scores[1] else 1
        if over and not t.deal_results:
            return (0, 1)   # a record starting level at the target: over, who won is not recorded
        return None

    def penalty_order(self) -> Optional[str]:
        """``casual``: the hand is scored as played, then the penalty (3.5, 2.7)."""
        return "after" if self.options.renege_penalty == "casual" else None

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
