"""F: Bid Euchre, four players in two partnerships (rules.md section 7).

Seats 0..3 clockwise (N, E, S, W); side = seat % 2 (side 0 = N/S, side 1 =
E/W).  Everyone gets 6 cards and all 24 are dealt (no up-card, no kitty).

Phases owned here (the engine owns dealing, trick play and game end):

* ``joker_discard`` (joker option, 7.8): the dealer holds 7 cards and
  discards one face down (:class:`Discarded`) before the auction;
* ``auction`` (7.2): from the dealer's left, one turn each, :class:`BidMade`
  (3 < 4 < 5 < ``"pb"`` < ``"moon"``) or :class:`Passed`; with the ace-no-face
  option a seat that has not yet bid may show its hand with
  ``DealThrownIn(reason="ace no face", seat=...)`` (7.9);
* ``trump``: the high bidder names trump (:class:`TrumpNamed`, ``suit=None``
  for no-trump where allowed);
* ``pb_exchange`` (partner's best, 7.3): two :class:`CardPassed` events in
  either order (the choices are simultaneous and blind, so ``turn`` is None):
  the partner gives the best trump to the bidder and the bidder gives one card
  back; the partner then sits out;
* ``joker_suit`` (joker option, during the play, 7.8): the leader of the
  joker at no-trump names the suit the others must follow
  (:class:`~euchre_events.events.JokerSuitNamed`).

:class:`~euchre_events.rules.variants.bidding.BidAuction` (the numeric
auction, phases ``auction`` and ``trump``) is shared with Ghost Hand Euchre
(rules.md 5.2, which follows pagat's general Bid Euchre rule).  Typed state:
``Table.auction`` a :class:`~euchre_events.rules.variants.bidding.BidAuctionState`,
``Table.contract`` a :class:`BidContract`.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Optional, Sequence

from euchre_events.events import (CardPassed, CardsDealt, DealThrownIn, Discarded, JokerSuitNamed,
                                  TrumpNamed)
from euchre_events.rules import cards as C
from euchre_events.rules.table import PLAY, ImpossibleEvent, Renege, Table, evolve
from euchre_events.rules.variant import Variant, VariantOptions
# the shared numeric auction; its helpers stay importable from here
from euchre_events.rules.variants.bidding import (AUCTION, TRUMP, AuctionPhase, BidAuction,  # noqa: F401
                                                  BidContractBase,
                                                  bid_text, bidder_out_winner, normalize_bid,
                                                  note_irregular)

ACE_NO_FACE = "ace no face"
"""The ``DealThrownIn.reason`` of an ace-no-face redeal (rules.md 7.9)."""


# ------------------------------------------------------------------ helpers

def is_ace_no_face(hand: Sequence[str], definition: str = "loose",
                   unknown_may_fit: bool = False) -> bool:
    """True if ``hand`` (card codes) is an ace-no-face hand (rules.md 7.9).

    ``definition="loose"``: at least one ace and no K, Q, J (nor the joker,
    which counts as a face card); ``"strict"``: exactly one ace and every other
    card a 9 or 10.  Cards ``"??"`` make the answer False unless
    ``unknown_may_fit`` (then True when the known cards do not rule it out).
    """
    known = [c for c in hand if c != C.UNKNOWN]
    if len(known) < len(hand) and not unknown_may_fit:
        return False
    unknown = len(hand) - len(known)
    if any(C.base(c) == C.JOKER for c in known):
        return False
    ranks = [C.rank_of(C.base(c)) for c in known]
    if any(r in ("K", "Q", "J") for r in ranks):
        return False
    aces = ranks.count("A")
    if definition == "strict":
        return aces == 1 or (aces == 0 and unknown > 0)
    return aces >= 1 or unknown > 0


def _ace_no_face_reason(reason) -> bool:
    """True for ``"ace no face"`` however it is spelt (``ace-no-face``, ``ACE_NO_FACE``)."""
    text = str(reason or "").strip().lower().replace("-", " ").replace("_", " ")
    return text == ACE_NO_FACE


# ------------------------------------------------------------------ options

@dataclass(frozen=True)
class BidOptions(VariantOptions):
    """Options of Bid Euchre, defaults from rules.md 7.12 and section 8.

    * ``stick_the_dealer``: the dealer must bid 3 if all others passed (7.7);
    * ``ace_no_face``: a hand with an ace and no face card may be shown for a
      redeal before its holder bids (7.9); ``ace_no_face_definition``
      ``"loose"`` (default) or ``"strict"``; ``ace_no_face_same_dealer``: the
      same dealer deals again (default: the deal passes left);
    * ``joker``: 25 cards; the dealer holds 7 and discards 1 before the
      auction; the joker is the highest trump (7.8);
      ``dealer_may_discard_joker`` (default True); ``nt_joker_any_time``: at
      no-trump the joker may be played even when holding the led suit
      (default False: only when void, as a suit of one card);
    * ``double_deck``: 48 cards with copy indices ``AS#1``/``AS#2``, 12 each,
      12 tricks, bids 3..11, partner's best and the moon (7.10: no plain 12,
      8.16); ``deck_low_rank``: ``"9"`` (default) or
      ``"J"`` for the J-to-A deck (16 cards, 32 doubled: case C11);
      ``first_twin_wins``: of two identical cards the first played wins (1.3);
      ``pb_cards_exchanged``: cards each way in partner's best, 1..3;
    * ``pb_value`` / ``moon_value``: points for a made partner's best / moon,
      None = 2 x and 4 x the tricks of a deal (12 / 24; 24 / 48 double deck);
      ``failed_pb_penalty`` / ``failed_moon_penalty``: points lost when it
      fails, None = the same value (7.5 default; 6 is the toggle);
    * ``allow_no_trump``: ``"not_pb"`` (default: no-trump may be named for
      bids of 3-5 and the moon, not partner's best), ``"always"`` or
      ``"never"`` (True/False are read as ``"always"``/``"never"``);
      ``low_no_trump``: a no-trump hand ranks 9 high to A low (1.1);
    * ``pb_no_trump_rule``: what a partner holding no trump passes: ``"any"``
      card (default), the ``"best"`` card by rank, or ``"none"`` (no exchange);
      ``pb_partner_chooses``: the partner may pass any card even with trump;
    * ``auction_rounds``: ``"single"`` (default) or ``"multi"``;
    * ``bidder_out``: a team can only win on a hand where it made its bid or
      set the bidders (7.5);
    * ``renege_abandons_hand``: only the penalty counts for that hand (7.6,
      default False: played out and scored, then the penalty);
      ``renege_points``: the offending team loses 2 (7.6);
    * ``target_score``: 32 (7.5).
    """

    stick_the_dealer: bool = False
    ace_no_face: bool = False
    ace_no_face_definition: str = "loose"
    ace_no_face_same_dealer: bool = False
    joker: bool = False
    dealer_may_discard_joker: bool = True
    nt_joker_any_time: bool = False
    double_deck: bool = False
    deck_low_rank: str = "9"
    first_twin_wins: bool = True
    pb_cards_exchanged: int = 1
    pb_value: Optional[int] = None
    moon_value: Optional[int] = None
    failed_pb_penalty: Optional[int] = None
    failed_moon_penalty: Optional[int] = None
    allow_no_trump: str = "not_pb"
    low_no_trump: bool = False
    pb_no_trump_rule: str = "any"
    pb_partner_chooses: bool = False
    auction_rounds: str = "single"
    bidder_out: bool = False
    renege_abandons_hand: bool = False
    renege_points: int = 2
    target_score: int = 32

    def __post_init__(self):
        self.check_shared()  # the table-law options every variant shares (rules.md 2.7)
        if self.allow_no_trump is True:
            object.__setattr__(self, "allow_no_trump", "always")
        elif self.allow_no_trump is False:
            object.__setattr__(self, "allow_no_trump", "never")
        checks = {
            "ace_no_face_definition": ("loose", "strict"),
            "deck_low_rank": ("9", "T", "J", "Q"),
            "allow_no_trump": ("not_pb", "always", "never"),
            "pb_no_trump_rule": ("any", "best", "none"),
            "auction_rounds": ("single", "multi"),
        }
        self.check_choices(checks)
        if not 1 <= self.pb_cards_exchanged <= 3:
            raise ValueError(f"option pb_cards_exchanged={self.pb_cards_exchanged!r}: expected 1, 2 or 3")


# ------------------------------------------------------------------ state

class BidPhase(StrEnum):
    """Bid Euchre's phases of its own (the auction's are
    :class:`~euchre_events.rules.variants.bidding.AuctionPhase`)."""

    JOKER_DISCARD = "joker_discard"  # the dealer holds 7 and discards one before the auction (7.8)
    PB_EXCHANGE = "pb_exchange"      # partner's best: the two blind card passes (7.3)
    JOKER_SUIT = "joker_suit"        # the joker was led at no-trump: its leader names a suit (7.8)


JOKER_DISCARD, PB_EXCHANGE, JOKER_SUIT = BidPhase
"""The members as module constants (see :data:`euchre_events.rules.table.PLAY`)."""


@dataclass(frozen=True, kw_only=True)
class BidContract(BidContractBase):
    """Bid Euchre's contract state (``Table.contract``): the won ``bid``,
    ``irregular`` and ``made`` of :class:`BidContractBase`, and

    * ``pb_owed``: in partner's best, ``((seat, cards still to pass), ...)``
      for the partner and the bidder (7.3), None otherwise;
    * ``pb_cards``: the cards passed so far, ``((from, to, card), ...)``;
    * ``joker_next``: the seat to play after a joker led at no-trump, while
      its leader names the suit (7.8), else None.
    """

    pb_owed: Optional[tuple] = None
    pb_cards: Optional[tuple] = None
    joker_next: Optional[int] = None


_NO_CONTRACT = BidContract()  # frozen: one shared instance serves every table


# ------------------------------------------------------------------ variant

class BidEuchre(BidAuction, Variant):
    """Bid Euchre (rules.md section 7), a plug-in of the shared engine.

    ``hand_size`` and ``tricks_per_deal`` follow the deck: 6 (24 cards), 12
    (double deck), 8 (J-to-A double deck of case C11).
    """

    name = "bid"
    aliases = ("bid-euchre", "bid_euchre", "F")
    options_class = BidOptions
    contract_state = BidContract
    n_seats = 4
    n_sides = 2
    hand_size = 6
    tricks_per_deal = 6

    def __init__(self, options=None):
        super().__init__(options)
        o = self.options
        plain = len(C.deck(double=o.double_deck, low_rank=o.deck_low_rank))
        self.hand_size = self.tricks_per_deal = plain // 4

    # ------------------------------------------------------------ values
    @property
    def pb_value(self) -> int:
        """Points for a made partner's best (7.5; 7.10 for the double deck)."""
        o = self.options
        return o.pb_value if o.pb_value is not None else 2 * self.tricks_per_deal

    @property
    def moon_value(self) -> int:
        """Points for a made moon (7.5; 7.10 for the double deck)."""
        o = self.options
        return o.moon_value if o.moon_value is not None else 4 * self.tricks_per_deal

    def bid_ladder(self) -> tuple:
        """The bids legal play offers, low to high: 3 < 4 < 5 < pb < moon
        (7.2); with a double deck 3 .. 11 < pb < moon (7.10, 8.16: a plain 12
        is not a bid, as a plain 6 is not in single deck; 3 .. 7 in the
        J-to-A double deck of case C11, whose deal has 8 tricks)."""
        return tuple(range(3, self.tricks_per_deal)) + ("pb", "moon")

    def ranked_bids(self) -> tuple:
        """The ladder, and with a double deck the plain bid of every trick
        (12; 8 in case C11) in its place above 11 and below partner's best:
        a record may hold one, and it is kept and flagged
        (:meth:`unoffered_bid`, rules.md 7.10, 8.16).  Releases before the
        rule was settled offered it, so games recorded with one still load.
        In single deck a plain 6 stays impossible (7.2)."""
        ladder = self.bid_ladder()
        if not self.options.double_deck:
            return ladder
        return ladder[:-2] + (self.tricks_per_deal,) + ladder[-2:]

    def unoffered_bid(self, bid) -> Optional[tuple]:
        """``("plain-all-tricks-bid", words)`` for a double deck's plain bid of every
        trick (rules.md 7.10, 8.16), else None."""
        n = self.tricks_per_deal
        if self.options.double_deck and bid == n:
            return ("plain-all-tricks-bid",
                    f"a plain bid of {n} is not a bid in double-deck Bid Euchre: {n} tricks are bid "
                    f"only as partner's best or the moon (rules.md 7.10, 8.16); the bid is kept "
                    f"as recorded and stands as a bid of {n}")
        return None

    # ------------------------------------------------------------ dealing
    def deck(self) -> list:
        o = self.options
        return C.deck(joker=o.joker, double=o.double_deck, low_rank=o.deck_low_rank)

    def check_dealt(self, t: Table, ev: CardsDealt) -> None:
        """Four hands of ``hand_size`` (the dealer one more with the joker,
        7.8); no up-card, kitty, dummy or ghost (7.1)."""
        if len(ev.hands) != 4:
            raise ImpossibleEvent(f"{len(ev.hands)} hands dealt, Bid Euchre has 4 seats")
        for s, h in enumerate(ev.hands):
            want = self.hand_size + (1 if self.options.joker and s == t.dealer else 0)
            if len(h) != want:
                raise ImpossibleEvent(f"seat {s} was dealt {len(h)} cards, not {want}")
        if ev.up_card is not None:
            raise ImpossibleEvent("Bid Euchre has no up-card")
        if ev.kitty or ev.dummy or ev.ghost:
            raise ImpossibleEvent("Bid Euchre deals every card to the players (no kitty, dummy or ghost)")

    def deal_cards(self, t: Table, shuffled: list) -> CardsDealt:
        """Deal ``shuffled`` one at a time clockwise from the dealer's left
        (7.1); with the joker the dealer keeps the last card (7.8)."""
        hands: list = [[] for _ in range(4)]
        n = 4 * self.hand_size
        for i, c in enumerate(shuffled[:n]):
            hands[(t.dealer + 1 + i) % 4].append(c)
        hands[t.dealer].extend(shuffled[n:])
        return CardsDealt(tuple(tuple(h) for h in hands))

    def next_dealer(self, t: Table) -> int:
        """One seat left (7.2); the same dealer after an ace-no-face redeal
        when ``ace_no_face_same_dealer`` (7.9)."""
        if (self.options.ace_no_face_same_dealer and t.deal_results
                and _ace_no_face_reason(t.deal_results[-1][2])):
            return t.dealer
        return (t.dealer + 1) % 4

    def start_auction(self, t: Table) -> None:
        """The joker discard (7.8), else the auction (7.2); a fresh contract state."""
        t.contract = _NO_CONTRACT
        if self.options.joker:
            t.phase, t.turn = JOKER_DISCARD, t.dealer
        else:
            self.auction_start(t)

    def may_throw_in(self, t: Table, ev) -> bool:
        """An ace-no-face hand shown by a seat that has not bid yet (7.9)."""
        o = self.options
        if not o.ace_no_face or ev.seat is None or not _ace_no_face_reason(ev.reason):
            return False
        if not 0 <= ev.seat < 4 or t.phase not in (JOKER_DISCARD, AUCTION):
            return False
        if t.auction is not None and any(s == ev.seat for s, _ in t.auction.bids):
            return False
        return is_ace_no_face(t.hands[ev.seat], o.ace_no_face_definition, unknown_may_fit=True)

    # ------------------------------------------------------------ auction and exchanges
    def no_trump_allowed(self, contract) -> bool:
        """May no-trump be named for ``contract`` (7.2, 8.11)?"""
        a = self.options.allow_no_trump
        return a == "always" or (a == "not_pb" and contract != "pb")

    def legal(self, t: Table) -> tuple:
        o = self.options
        ph, s = t.phase, t.turn
        if ph == JOKER_DISCARD:
            hand = [c for c in t.hands[s] if c != C.UNKNOWN]
            if not o.dealer_may_discard_joker:
                hand = [c for c in hand if c != C.JOKER]
            return tuple(Discarded(s, c) for c in hand), "the dealer discards one card before the auction"
        if ph == AUCTION:
            acts, reason = self.auction_legal(t)
            if (o.ace_no_face and is_ace_no_face(t.hands[s], o.ace_no_face_definition)
                    and all(seat != s for seat, _ in t.auction.bids)):
                acts = acts + (DealThrownIn(ACE_NO_FACE, s),)
                reason += "; an ace-no-face hand may be shown for a redeal"
            return acts, reason
        if ph == TRUMP:
            c = t.contract.bid
            acts = [TrumpNamed(s, x) for x in C.SUITS]
            if self.no_trump_allowed(c):
                acts.append(TrumpNamed(s, None))
                return tuple(acts), f"the bidder ({bid_text(c)}) names trump or no-trump"
            return tuple(acts), f"the bidder ({bid_text(c)}) names trump"
        if ph == PB_EXCHANGE:
            owed = dict(t.contract.pb_owed)
            bidder, partner = t.maker, self.partner_of(t.maker)
            acts = []
            if owed.get(partner):
                acts += [CardPassed(partner, bidder, c) for c in self.partner_choices(t)]
            if owed.get(bidder):
                acts += [CardPassed(bidder, partner, c) for c in t.hands[bidder] if c != C.UNKNOWN]
            return tuple(acts), ("partner's best: the partner gives the best trump, the bidder "
                                 "gives one card; both face down")
        if ph == JOKER_SUIT:
            return (tuple(JokerSuitNamed(s, x) for x in C.SUITS),
                    "the joker was led at no-trump: its leader names the suit to follow")
        return (), ""

    def partner_choices(self, t: Table) -> list:
        """Cards the partner may pass in partner's best (7.3): the highest
        trump (both copies in a double deck); with no trump, per
        ``pb_no_trump_rule``; any card with ``pb_partner_chooses``."""
        o = self.options
        hand = [c for c in t.hands[self.partner_of(t.maker)] if c != C.UNKNOWN]
        if o.pb_partner_chooses:
            return hand
        trumps = C.cards_of_suit(hand, t.trump, t.trump) if t.trump is not None else []
        if trumps:
            top = max(C.strength(c, t.trump) for c in trumps)
            return [c for c in trumps if C.strength(c, t.trump) == top]
        if o.pb_no_trump_rule == "best":
            # the best card by rank: the plain order (no trump), the joker on top
            top = max((C.strength(c, None) for c in hand), default=None)
            return [c for c in hand if C.strength(c, None) == top]
        return hand

    def apply(self, t: Table, ev) -> None:
        o = self.options
        ph, k = t.phase, ev.kind
        if ph == JOKER_DISCARD and k == "Discarded":
            if ev.seat != t.dealer:
                raise ImpossibleEvent(f"only the dealer (seat {t.dealer}) discards before the auction")
            if C.base(ev.card) == C.JOKER and not o.dealer_may_discard_joker:
                note_irregular(t, "the dealer discarded the joker, which this game does not allow (rules.md 7.8)")
            t.remove_card(ev.seat, ev.card, "discard")
            t.discards.append((ev.seat, ev.card))
            self.auction_start(t)
            return
        if ph == AUCTION and self.auction_apply(t, ev):
            return
        if ph == TRUMP and k == "TrumpNamed":
            self._trump_named(t, ev)
            return
        if ph == PB_EXCHANGE and k == "CardPassed":
            self._card_passed(t, ev)
            return
        if ph == JOKER_SUIT and k == "JokerSuitNamed":
            if ev.suit not in C.SUITS:
                raise ImpossibleEvent(f"{ev.suit!r} is not a suit")
            t.led_suit = ev.suit
            t.phase = PLAY
            t.turn = t.contract.joker_next
            t.contract = evolve(t.contract, joker_next=None)
            return
        raise ImpossibleEvent(f"{k} is not possible now (phase {ph})")

    def _trump_named(self, t: Table, ev) -> None:
        c = t.contract.bid
        if ev.alone:
            raise ImpossibleEvent("in Bid Euchre a lone hand is bid (partner's best or moon), not declared")
        if ev.suit is None:
            if not self.no_trump_allowed(c):
                raise ImpossibleEvent(f"no-trump may not be named for a bid of {bid_text(c)} in this game")
            t.low = self.options.low_no_trump
        elif ev.suit not in C.SUITS:
            raise ImpossibleEvent(f"{ev.suit!r} is not a suit")
        t.trump = ev.suit
        if c == "moon":
            self._go_alone(t)
        elif c == "pb":
            partner = self.partner_of(t.maker)
            hand = t.hands[partner]
            no_trump_held = (C.UNKNOWN not in hand
                             and not (t.trump and C.cards_of_suit(hand, t.trump, t.trump)))
            if self.options.pb_no_trump_rule == "none" and no_trump_held:
                self._go_alone(t)
                return
            k = self.options.pb_cards_exchanged
            t.phase, t.turn = PB_EXCHANGE, None
            t.contract = evolve(t.contract, pb_owed=((partner, k), (t.maker, k)), pb_cards=())
        else:
            self.start_play(t)

    def _card_passed(self, t: Table, ev) -> None:
        owed = dict(t.contract.pb_owed)
        bidder, partner = t.maker, self.partner_of(t.maker)
        if not owed.get(ev.seat):
            raise ImpossibleEvent(f"seat {ev.seat} has no card to pass now")
        to = bidder if ev.seat == partner else partner
        if ev.to_seat != to:
            raise ImpossibleEvent(f"in partner's best seat {ev.seat} passes to seat {to}, not {ev.to_seat}")
        if ev.seat == partner and ev.card != C.UNKNOWN and ev.card in t.hands[partner]:
            choices = self.partner_choices(t)
            if choices and ev.card not in choices:
                note_irregular(t, f"the partner passed {ev.card}, not the best trump "
                                  f"({', '.join(choices)}) (rules.md 7.3)")
        t.remove_card(ev.seat, ev.card, "pass")
        owed[ev.seat] -= 1
        t.contract = evolve(t.contract, pb_owed=tuple(owed.items()),
                             pb_cards=t.contract.pb_cards + ((ev.seat, to, ev.card),))
        if not any(owed.values()):
            for _, dest, card in t.contract.pb_cards:
                t.hands[dest].append(card)
            self._go_alone(t)

    def _go_alone(self, t: Table) -> None:
        t.alone = t.maker
        t.out = frozenset({self.partner_of(t.maker)})
        self.start_play(t)

    # ------------------------------------------------------------ play
    def first_leader(self, t: Table) -> int:
        """The high bidder leads (7.4)."""
        return t.maker

    def after_card(self, t: Table) -> None:
        """A joker led at no-trump: its leader names the suit (7.8)."""
        if (len(t.trick) == 1 and t.trump is None and C.base(t.trick[0][1]) == C.JOKER):
            t.contract = evolve(t.contract, joker_next=t.turn)
            t.phase = JOKER_SUIT
            t.turn = t.trick[0][0]

    def exempt_from_following(self, t: Table, card: str) -> bool:
        """The joker at no-trump with ``nt_joker_any_time`` (7.8)."""
        return self.options.nt_joker_any_time and t.trump is None and C.base(card) == C.JOKER

    # ------------------------------------------------------------ scoring
    def score_deal(self, t: Table) -> list:
        """Points per side (7.5): a bid of 3-5 made scores the bidding team's
        tricks, set scores minus the bid; partner's best / moon with all
        tricks score ``pb_value`` / ``moon_value``, failing loses the failed
        penalty; the other team always scores its own tricks (0 after a made
        partner's best or moon, as it took none)."""
        o = self.options
        bs = self.side_of(t.maker)
        tricks = [0, 0]
        for s, n in enumerate(t.tricks_won):
            tricks[self.side_of(s)] += n
        c = t.contract.bid
        pts = [0, 0]
        pts[1 - bs] = tricks[1 - bs]
        if c in ("pb", "moon"):
            value = self.pb_value if c == "pb" else self.moon_value
            fail = o.failed_pb_penalty if c == "pb" else o.failed_moon_penalty
            made = self.call_made(t.tricks_won, t.maker, c)
            pts[bs] = value if made else -(value if fail is None else fail)
        else:
            made = self.call_made(t.tricks_won, t.maker, c)
            pts[bs] = tricks[bs] if made else -c
        t.contract = evolve(t.contract, made=made)
        return pts

    def renege_penalty(self, t: Table, r: Renege, deal_points: Sequence[int]) -> tuple:
        """The offending team loses ``renege_points`` (2) for the renege; the
        hand is scored as played unless ``renege_abandons_hand`` (7.6)."""
        off = self.side_of(r.seat)
        return self.renege_points_lost(off, deal_points, f"{self.side_name(off)} lose")
