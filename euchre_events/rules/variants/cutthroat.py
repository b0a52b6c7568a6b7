"""C: Three-handed "cutthroat" Euchre with a dummy hand (rules.md section 4).

Seats and the dummy (rules.md 4.1).  The three players are seats 0, 1, 2
clockwise; each is a side of its own (``side_of(seat) == seat``).  The dummy
is *not* a seat: it sits on the dealer's right, so its place moves with the
deal (dealer d: eldest d+1, across d+2, dummy between across and the dealer).
A fixed fourth seat could not stay on the dealer's right as the deal passes
round three players, and the dummy never bids or plays, so it is recorded as
the :class:`~euchre_events.events.CardsDealt` ``dummy`` (5 cards, ``"??"``
where unknown).  ``CardsDealt.hands`` has 3 hands of 5, the up-card is the
21st card and the ``kitty`` the last 3 (or none stated).  With
``use_dummy=False`` (Hoyle's three-hand game) there is no dummy and the kitty
holds the 8 cards left after the up-card.

The auction is the shared up-card auction with three bidders (eldest,
across, dealer; :class:`~euchre_events.rules.variants.upcard.UpCardAuction`,
with the rules section 4 fixes as :data:`FIXED_RULES`).  The across
player's "assist" is just an order-up (4.2).  After an order-up the dealer
may take the up-card and discard, or leave it (4.2, ``UpCardDeclined``).
Then (4.3, 4.4):

1. the maker takes the dummy (``DummyTaken``, then 5 ``Discarded`` events:
   private, face down) or goes alone without it (``WentAlone``);
2. each defender, clockwise from the maker's left, may defend alone
   (``DefendedAlone``; the other defender then sits out) or not
   (``PlayedWithPartner``); the first to announce takes it;
3. the opening lead: eldest; if someone declared alone, the active player on
   that lone player's left; if the maker and a defender are both alone, the
   lone defender.  Taking the dummy does not make the maker a lone player.

Scoring per player (4.5): maker 3-4 tricks = 1, 5 = 3 (alone without the
dummy: ``lone_no_dummy_march``); maker euchred = 2 to *each* defender; a lone
defender's euchre = 2 to each defender, 4 each if the lone defender took all
5 (``lone_defender_scoring``).  Game to 10; when several reach it on one
hand the highest wins, equal highest play on (``shared_win``).

Phases: ``round1``, ``pickup``, ``discard``, ``round2`` and ``defend``
(:class:`~euchre_events.rules.variants.upcard.UpCardPhase`), ``dummy``
(take it or go alone) and ``dummy_discard`` (5 discards): :class:`CutthroatPhase`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Any, Optional, Sequence

from euchre_events.events import CardsDealt, Discarded, DummyTaken, WentAlone
from euchre_events.rules import cards as C
from euchre_events.rules.table import ImpossibleEvent, Renege, Table, evolve
from euchre_events.rules.variant import SINCE, Variant, VariantOptions, leaders
from euchre_events.rules.variants.upcard import UpCardAuction

DEFEND_ALONE = ("off", "vs_lone", "any")
LONE_DEFENDER_SCORING = ("source", "lone_defender_only_4")
RENEGE_PRESETS = ("tournament", "casual")

FIXED_RULES = {
    "alone_timing": "none",                  # going alone is decided at the dummy (4.3, 4.4)
    "stick_allows_turned_down": False,       # round 2 "names another suit" (4.2)
    "dealers_partner_must_go_alone": False,  # no partnerships: "assist" is a name only (4.2)
    "must_hold_named_suit": False,           # 4.2 puts no condition on naming
    "exchange_when_dealer_out": False,       # the dealer never sits out before the exchange
}
"""The rules of the up-card auction that rules.md section 4 fixes (not
options): :attr:`CutthroatEuchre.fixed_rules`."""


class CutthroatPhase(StrEnum):
    """Cutthroat's phases of its own (the auction's are
    :class:`~euchre_events.rules.variants.upcard.UpCardPhase`)."""

    DUMMY = "dummy"                  # the maker takes the dummy or goes alone (4.3)
    DUMMY_DISCARD = "dummy_discard"  # the maker discards 5 of the 10 (or 11) cards (4.3)


DUMMY, DUMMY_DISCARD = CutthroatPhase
"""The members as module constants (see :data:`euchre_events.rules.table.PLAY`)."""


@dataclass(frozen=True)
class CutthroatContract:
    """Cutthroat's contract state (``Table.contract``, rules.md 4.3-4.5).

    * ``dummy_discards``: cards the maker still has to discard after taking
      the dummy (5 down to 0), None if the dummy was not taken;
    * ``dummy_taken``: the maker took the dummy;
    * ``shared_winners``: with ``shared_win``, the players who share the
      win (equal highest at the target, 4.5), else None.
    """

    dummy_discards: Optional[int] = None
    dummy_taken: bool = False
    shared_winners: Optional[tuple] = None


@dataclass(frozen=True)
class CutthroatOptions(VariantOptions):
    """Options of cutthroat Euchre, defaults from rules.md 4.8 and section 8.

    * ``use_dummy``: a dummy hand is dealt and the maker may take it (4.3), on;
      off = Hoyle's three-hand game (no dummy, 8 cards in the kitty);
    * ``stick_the_dealer``: the dealer may not pass in round 2 (4.2), off;
    * ``stick_allows_turned_down``: *not an option*: fixed at False by 4.2
      (round 2 "names another suit", stuck dealer included; 4.8 has no such
      toggle).  Kept as a field, validated, because every stored game
      carries it in ``GameStarted.options`` and its content id hashes the
      options as stored (a different value raises ``ValueError``);
    * ``dealer_may_decline_upcard``: after an order-up the dealer may leave the
      up-card (4.2, default on); off = the mandatory exchange of standard Euchre;
    * ``dealer_may_discard_upcard``: the dealer may discard the card taken up (2.2), on;
    * ``march_value``: points for all 5 tricks by a maker who is not
      alone (with the dummy, or in the game without one), 3 (4.5) or 2
      (the "2 for a march" house rule named by case C12);
    * ``lone_no_dummy_march``: points for all 5 tricks by a maker alone
      without the dummy, 3 (4.5, section 8 item 1) or 4;
    * ``defend_alone``: ``"any"`` (4.4: a defender may always defend alone,
      default), ``"vs_lone"`` (only against a maker alone without the dummy)
      or ``"off"``;
    * ``lone_defender_scoring``: ``"source"`` (4.5: 2 to each defender, 4 each
      if the lone defender took all 5) or ``"lone_defender_only_4"`` (pagat
      British: the lone defender alone scores 4);
    * ``target_score``: points to win (4.5), 10;
    * ``shared_win``: when the highest totals at or over the target are equal,
      those players share the win instead of playing on (4.5), off;
    * ``renege_penalty``: ``"tournament"`` (4.6 default: the hand stops;
      a maker's renege gives each opponent ``renege_value``, a defender's
      gives the maker ``renege_value``, or ``renege_lone_value`` against a
      maker alone without the dummy) or ``"casual"`` (the hand is scored as
      played and the same points are added);
    * ``renege_value``: 2; ``renege_lone_value``: 4.

    Raises ``ValueError`` for a value outside the listed ones, or a fixed
    rule (:data:`FIXED_RULES`) given another value.
    """

    use_dummy: bool = True
    stick_the_dealer: bool = False
    stick_allows_turned_down: bool = False
    dealer_may_decline_upcard: bool = True
    dealer_may_discard_upcard: bool = True
    lone_no_dummy_march: int = 3
    defend_alone: str = "any"
    lone_defender_scoring: str = "source"
    target_score: int = 10
    shared_win: bool = False
    renege_penalty: str = "tournament"
    renege_value: int = 2
    renege_lone_value: int = 4
    march_value: int = field(default=3, metadata={SINCE: "0.2"})

    def __post_init__(self):
        self.check_shared()  # the table-law options every variant shares (rules.md 2.7)
        checks = {"defend_alone": DEFEND_ALONE, "lone_defender_scoring": LONE_DEFENDER_SCORING,
                  "renege_penalty": RENEGE_PRESETS, "lone_no_dummy_march": (3, 4),
                  "march_value": (3, 2)}
        self.check_choices(checks)
        self.check_fixed(FIXED_RULES, "cutthroat Euchre")


@lru_cache(maxsize=None)
def _dummy_taken(discards_left: int) -> CutthroatContract:
    """The contract state while the maker who took the dummy has
    ``discards_left`` cards to discard (4.3): one shared instance per value
    (it is frozen), as the fold makes one per discard."""
    return CutthroatContract(dummy_discards=discards_left, dummy_taken=True)


class CutthroatEuchre(UpCardAuction, Variant):
    """Three-handed cutthroat Euchre with a dummy (rules.md section 4):
    seats 0, 1, 2, each a side; the dummy is a hand, not a seat."""

    name = "cutthroat"
    aliases = ("three-handed", "three_handed", "C")
    options_class = CutthroatOptions
    game_title = "cutthroat Euchre"
    contract_state = CutthroatContract
    fixed_rules = FIXED_RULES
    n_seats = 3
    partnerships = False
    n_sides = 3
    hand_size = 5
    tricks_per_deal = 5

    # ------------------------------------------------------------ dealing
    absent_hands = ("ghost",)

    @property
    def kitty_size(self) -> int:
        """3 after the dummy's 5 and the up-card; 8 without a dummy (4.1)."""
        return 3 if self.options.use_dummy else 8

    def check_other_hands(self, ev: CardsDealt) -> None:
        """The dummy's 5 cards (``use_dummy=False``: no dummy; the kitty then
        holds 8).  Raises :class:`ImpossibleEvent` otherwise (4.1)."""
        if self.options.use_dummy and len(ev.dummy) != 5:
            raise ImpossibleEvent(f"the dummy holds {len(ev.dummy)} cards, not 5")
        if not self.options.use_dummy and ev.dummy:
            raise ImpossibleEvent("a dummy is dealt but the game is played without one (use_dummy off)")

    def deal_cards(self, t: Table, shuffled: Sequence[str]) -> CardsDealt:
        """The deal of rules.md 4.1 from a shuffled deck (24 card codes):
        packets of 3 then 2 (2 then 3 for the others in turn) clockwise from
        the dealer's left: eldest, across, the dummy (dealer's right), the
        dealer; the 21st card up, the last 3 in the kitty."""
        d = t.dealer
        order = [(d + 1) % 3, (d + 2) % 3, "dummy", d]
        if not self.options.use_dummy:
            order.remove("dummy")
        got, rest = self.deal_packets(shuffled, order, self.crossed_packets(len(order), 3))
        up = rest.pop(0)
        hands = tuple(tuple(got[s]) for s in range(3))
        return CardsDealt(hands, up, tuple(rest), tuple(got.get("dummy", ())))

    # ------------------------------------------------------------ auction: the up-card auction, then
    def legal_own(self, t: Table) -> tuple:
        """``(events, reason)`` of the maker at the dummy (rules.md 4.3)."""
        ph, s = t.phase, t.turn
        if ph == DUMMY:
            return ((DummyTaken(s), WentAlone(s)),
                    "the maker takes the dummy (keeps 5 of 10) or goes alone without it")
        if ph == DUMMY_DISCARD:
            left = t.contract.dummy_discards
            cards = [c for c in t.hands[s] if c != C.UNKNOWN]
            return (tuple(Discarded(s, c) for c in cards),
                    f"the maker keeps 5 of the cards: {left} more to discard face down")
        return (), ""

    def apply_own(self, t: Table, ev) -> None:
        """Fold the maker's choice at the dummy and its discards (rules.md 4.3).
        Raises :class:`ImpossibleEvent` for an event the phase cannot contain."""
        ph, k = t.phase, ev.kind
        if ph == DUMMY and k == "DummyTaken":
            t.hands[ev.seat].extend(t.dummy)
            t.contract = _dummy_taken(len(t.dummy))
            t.dummy = []
            t.phase = DUMMY_DISCARD
            if t.contract.dummy_discards == 0:
                self.offer_defend_alone(t)
            return
        if ph == DUMMY and k == "WentAlone":
            t.alone = ev.seat
            self.offer_defend_alone(t)
            return
        if ph == DUMMY_DISCARD and k == "Discarded":
            t.remove_card(ev.seat, ev.card, "discard")
            t.discards.append((ev.seat, ev.card))
            t.contract = _dummy_taken(t.contract.dummy_discards - 1)
            if t.contract.dummy_discards == 0:
                self.offer_defend_alone(t)
            return
        super().apply_own(t, ev)

    def after_exchange(self, t: Table) -> None:
        """The maker takes the dummy or goes alone (4.3), unless alone
        already or playing without a dummy; then the defenders (4.4)."""
        if self.options.use_dummy and t.alone is None:
            t.phase, t.turn = DUMMY, t.maker
            return
        self.offer_defend_alone(t)

    def defenders(self, t: Table) -> list:
        """The two defenders, clockwise from the maker's left (4.4)."""
        return [(t.maker + 1) % 3, (t.maker + 2) % 3]

    # ------------------------------------------------------------ play
    def first_leader(self, t: Table) -> int:
        """Opening lead (4.4, pagat's British rule): the lone defender if the
        maker is alone too; else the active player left of whoever declared
        alone; else eldest.  Taking the dummy is not playing alone (4.7 item 4)."""
        return self.lead_left_of_loner(t)

    # ------------------------------------------------------------ scoring
    def score_deal(self, t: Table) -> list:
        """Points per player (4.5).

        Maker 3-4 tricks: maker +1; 5 tricks: ``march_value`` (3; alone
        without the dummy: ``lone_no_dummy_march``).  Maker 0-2: each defender +2; with a lone
        defender, +2 each, or +4 each when the lone defender took all 5
        (``"lone_defender_only_4"``: only the lone defender, +4).
        """
        o = self.options
        m = t.maker
        n = t.tricks_won[m]
        pts = [0, 0, 0]
        defenders = [s for s in range(3) if s != m]
        if n == 5:
            pts[m] = o.lone_no_dummy_march if t.alone == m else o.march_value
        elif self.call_made(t.tricks_won, m):
            pts[m] = 1
        elif t.lone_defender is None:
            for d in defenders:
                pts[d] = 2
        elif o.lone_defender_scoring == "lone_defender_only_4":
            pts[t.lone_defender] = 4
        else:
            v = 4 if t.tricks_won[t.lone_defender] == 5 else 2
            for d in defenders:
                pts[d] = v
        return pts

    def game_winner(self, t: Table, scores: Sequence[int]) -> Any:
        """The player at ``target_score`` or more; of several, the highest;
        equal highest play another hand, or with ``shared_win`` end the game
        with no single winner (``t.contract.shared_winners`` lists them) (4.5)."""
        target = self.options.target_score
        best = leaders(scores, [s for s in range(3) if scores[s] >= target])
        if len(best) == 1:
            return best[0]
        if best and self.options.shared_win:
            return tuple(best)
        return None

    def record_tie(self, t: Table, sides: tuple) -> None:
        """A shared win (``shared_win``, 4.5): ``t.contract.shared_winners``."""
        t.contract = evolve(t.contract, shared_winners=tuple(sides))

    def renege_penalty(self, t: Table, r: Renege, deal_points: Sequence[int]) -> tuple:
        """(points per player for the deal, hand abandoned?, words) for a
        renege (rules.md 4.6): by the maker, each opponent scores
        ``renege_value``; by a defender, the maker scores ``renege_value``
        (``renege_lone_value`` if the maker was alone without the dummy)."""
        o = self.options
        pts = [0, 0, 0] if o.renege_penalty == "tournament" else list(deal_points)
        names = t.players
        if r.maker is None:
            return list(deal_points), False, "no maker recorded: no penalty"
        if r.seat == r.maker:
            who = [s for s in range(3) if s != r.maker]
            for s in who:
                pts[s] += o.renege_value
            words = f"{' and '.join(names[s] for s in who)} score {o.renege_value} each"
        else:
            # a defender's renege is against a lone maker exactly when the
            # maker was alone without the dummy (the only lone seat of the
            # other side: each player is a side of its own)
            val = o.renege_lone_value if r.against_lone else o.renege_value
            pts[r.maker] += val
            words = f"{names[r.maker]} scores {val}"
        if o.renege_penalty == "tournament":
            return pts, True, "hand ends; " + words
        return pts, False, "hand scored as played, then " + words
