"""D: Ghost Hand Euchre, three players each for themselves (rules.md section 5).

Seats 0..2 clockwise (P1..P3); every seat is its own side.  Six cards each
plus a six-card ghost hand (``CardsDealt.ghost``), dealt one at a time as if
a fourth player sat on the dealer's right (5.1); no up-card, no kitty.

Phases owned here (the engine owns dealing, trick play and game end):

* ``swap`` (only with ``swap_phase="before_auction"``): from the dealer's
  left each seat may take the ghost hand (:class:`HandSwappedWithGhost`) or
  keep its own (:class:`Passed`); the first swap ends the phase;
* ``auction`` (5.2): from the dealer's left, one turn each, :class:`BidMade`
  (3 < 4 < 5 < ``"moon"``) or :class:`Passed`; with the default
  ``swap_phase="at_turn"`` a seat on turn may first take the ghost hand blind
  (once per deal) and must then bid or pass at once; the hand given up is
  dead (``t.dead``, also ``t.contract.dead``); everyone passing throws the deal in
  and the deal passes left; an insufficient bid (not beating the high bid,
  or below 3) is kept, flagged ``"insufficient-bid"`` and stands as a pass;
  a stuck dealer's pass is kept and flagged ``"stuck-dealer-passed"``
  (see :class:`~euchre_events.rules.variants.bidding.BidAuction`);
* ``trump``: the high bidder names trump (:class:`TrumpNamed`; no-trump only
  with ``allow_no_trump``), then leads (5.2).

Six tricks of three cards (5.3); scoring 5.4, winning 5.5, renege 5.6.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Optional, Sequence

from euchre_events.events import CardsDealt, HandSwappedWithGhost, Passed, TrumpNamed
from euchre_events.rules import cards as C
from euchre_events.rules.table import ImpossibleEvent, Renege, Table, evolve
from euchre_events.rules.variant import Variant, VariantOptions
from euchre_events.rules.variants.bidding import AUCTION, TRUMP, BidAuction, BidContractBase, bid_text


@dataclass(frozen=True)
class GhostHandOptions(VariantOptions):
    """Options of Ghost Hand Euchre, defaults from rules.md 5.8 and section 8.

    * ``swap_phase``: ``"at_turn"`` (default: at one's own turn, before
      bidding or passing) or ``"before_auction"`` (pagat Columbus Buck: in
      order from the dealer's left before the first bid) (5.2, 8.5);
    * ``allow_no_trump``: the high bidder may name no-trump (default False, 5.2);
    * ``auction_rounds``: ``"single"`` (default, one turn each) or ``"multi"``;
    * ``moon_value``: points for a made moon, 24 (5.4);
    * ``failed_moon_penalty``: points lost by a failed moon, 24 (default;
      ``"moon"`` means the same) or 6 (``"bid"``: minus the bid) (5.4, 8.4);
    * ``bidder_out``: a player can only win on a hand where they made their
      bid or helped set the bidder (5.5);
    * ``stick_the_dealer``: the dealer must bid 3 if the others passed (5.8);
    * ``renege_abandons_hand``: only the penalty counts for that hand
      (default False: played out and scored, then the penalty, 5.6);
      ``renege_points``: the offender loses 2 (5.6);
    * ``target_score``: 32 (5.5).
    """

    swap_phase: str = "at_turn"
    allow_no_trump: bool = False
    auction_rounds: str = "single"
    moon_value: int = 24
    failed_moon_penalty: int = 24
    bidder_out: bool = False
    stick_the_dealer: bool = False
    renege_abandons_hand: bool = False
    renege_points: int = 2
    target_score: int = 32

    def __post_init__(self):
        self.check_shared()  # the table-law options every variant shares (rules.md 2.7)
        fmp = self.failed_moon_penalty
        if fmp == "moon":
            object.__setattr__(self, "failed_moon_penalty", self.moon_value)
        elif fmp == "bid":
            object.__setattr__(self, "failed_moon_penalty", 6)
        elif not isinstance(fmp, int) or isinstance(fmp, bool):
            raise ValueError(f"option failed_moon_penalty={fmp!r}: expected a number, 'moon' or 'bid'")
        checks = {
            "swap_phase": ("at_turn", "before_auction"),
            "auction_rounds": ("single", "multi"),
        }
        self.check_choices(checks)


class GhostPhase(StrEnum):
    """Ghost Hand's phase of its own (the auction's are
    :class:`~euchre_events.rules.variants.bidding.AuctionPhase`)."""

    SWAP = "swap"  # before the auction, in order: take the ghost hand or keep one's own (5.2)


(SWAP,) = GhostPhase
"""The member as a module constant (see :data:`euchre_events.rules.table.PLAY`)."""


@dataclass(frozen=True, kw_only=True)
class GhostContract(BidContractBase):
    """Ghost Hand's contract state (``Table.contract``): the won ``bid``,
    ``irregular`` and ``made`` of :class:`BidContractBase`, and the ghost swap (5.2):

    * ``swapped``: the seat that took the ghost hand, None while nobody has
      (once per deal);
    * ``swap_turns``: with ``swap_phase="before_auction"``, the seats asked
      so far (0-3), else None;
    * ``dead``: the hand given up (dead, face down), None before a swap;
    * ``swap_pending``: True from an at-turn swap until that seat bids or
      passes; False after any bid or pass; None before the first.
    """

    swapped: Optional[int]
    swap_turns: Optional[int] = None
    dead: Optional[tuple] = None
    swap_pending: Optional[bool] = None


# frozen: one shared instance of each serves every table
_SWAP_ROUND = GhostContract(swapped=None, swap_turns=0)
_SWAP_AT_TURN = GhostContract(swapped=None)


class GhostHandEuchre(BidAuction, Variant):
    """Ghost Hand Euchre (rules.md section 5), a plug-in of the shared engine."""

    name = "ghost-hand"
    aliases = ("ghost", "ghost_hand", "D")
    options_class = GhostHandOptions
    contract_state = GhostContract
    n_seats = 3
    partnerships = False
    n_sides = 3
    hand_size = 6
    tricks_per_deal = 6

    PER_TRICK = 1
    """Points per trick taken, every player's (5.4), unless a set bidder's."""
    auction_section = "5.2"
    stick_section = "5.8"

    # ------------------------------------------------------------ seats

    def bid_ladder(self) -> tuple:
        """3 < 4 < 5 < moon (5.2; nobody bids a plain 6)."""
        return (3, 4, 5, "moon")

    # ------------------------------------------------------------ dealing
    def check_dealt(self, t: Table, ev: CardsDealt) -> None:
        """Three hands and the ghost hand, 6 cards each; no up-card or kitty (5.1)."""
        super().check_dealt(t, ev)
        if len(ev.ghost) != self.hand_size:
            raise ImpossibleEvent(f"the ghost hand has {len(ev.ghost)} cards, not {self.hand_size}")
        if ev.up_card is not None:
            raise ImpossibleEvent("Ghost Hand Euchre has no up-card")
        if ev.kitty or ev.dummy:
            raise ImpossibleEvent("Ghost Hand Euchre deals every card (no kitty or dummy)")

    def deal_cards(self, t: Table, shuffled: list) -> CardsDealt:
        """Deal ``shuffled`` one at a time from the dealer's left, the ghost
        sitting on the dealer's right (5.1): left, across, ghost, dealer."""
        d = t.dealer
        order = [(d + 1) % 3, (d + 2) % 3, "ghost", d]
        hands: dict = {k: [] for k in order}
        for i, c in enumerate(shuffled[:24]):
            hands[order[i % 4]].append(c)
        return CardsDealt(tuple(tuple(hands[s]) for s in range(3)), ghost=tuple(hands["ghost"]))

    def start_auction(self, t: Table) -> None:
        """The swap round (``swap_phase="before_auction"``), else the auction (5.2)."""
        if self.options.swap_phase == "before_auction":
            t.contract = _SWAP_ROUND
            t.phase, t.turn = SWAP, (t.dealer + 1) % 3
        else:
            t.contract = _SWAP_AT_TURN
            self.auction_start(t)

    # ------------------------------------------------------------ auction
    def may_swap(self, t: Table) -> bool:
        """True if the seat on turn may still take the ghost hand (5.2)."""
        return t.contract.swapped is None and (
            t.phase == SWAP
            or (t.phase == AUCTION and self.options.swap_phase == "at_turn"))

    def legal(self, t: Table) -> tuple:
        ph, s = t.phase, t.turn
        if ph == SWAP:
            return ((HandSwappedWithGhost(s), Passed(s)),
                    "before the auction: take the ghost hand blind, or keep your hand (pass)")
        if ph == AUCTION:
            acts, reason = self.auction_legal(t)
            if self.may_swap(t):
                acts = (HandSwappedWithGhost(s),) + acts
                reason += "; or first take the ghost hand blind (once per deal), then bid or pass"
            elif t.contract.swapped == s and t.contract.swap_pending:
                reason = "you took the ghost hand: now " + reason
            return acts, reason
        if ph == TRUMP:
            acts = [TrumpNamed(s, x) for x in C.SUITS]
            if self.options.allow_no_trump:
                acts.append(TrumpNamed(s, None))
            return tuple(acts), f"the high bidder ({bid_text(t.contract.bid)}) names trump"
        return (), ""

    def _swap(self, t: Table, seat: int, **more) -> None:
        """``seat`` takes the ghost hand blind; its own hand is dead (5.2).
        ``more``: other contract fields to set with it."""
        if t.contract.swapped is not None:
            raise ImpossibleEvent(f"only one ghost swap per deal (seat {t.contract.swapped} already swapped)")
        t.dead = list(t.hands[seat])
        t.hands[seat] = list(t.ghost)
        t.ghost = []
        t.contract = evolve(t.contract, swapped=seat, dead=tuple(t.dead), **more)

    def apply(self, t: Table, ev) -> None:
        ph, k = t.phase, ev.kind
        if ph == SWAP and k == "HandSwappedWithGhost":
            self._swap(t, ev.seat)
            self.auction_start(t)
            return
        if ph == SWAP and k == "Passed":
            t.contract = evolve(t.contract, swap_turns=t.contract.swap_turns + 1)
            if t.contract.swap_turns >= 3:
                self.auction_start(t)
            else:
                t.turn = (t.turn + 1) % 3
            return
        if ph == AUCTION and k == "HandSwappedWithGhost":
            if self.options.swap_phase != "at_turn":
                raise ImpossibleEvent("the ghost hand can only be taken before the auction in this game")
            self._swap(t, ev.seat, swap_pending=True)
            return
        if ph == AUCTION and self.auction_apply(t, ev):
            if t.contract.swap_pending is not False:  # set once: after the first bid or pass
                t.contract = evolve(t.contract, swap_pending=False)
            return
        if ph == TRUMP and k == "TrumpNamed":
            if ev.alone:
                raise ImpossibleEvent("Ghost Hand Euchre has no going alone: every hand is played alone")
            if ev.suit is None and not self.options.allow_no_trump:
                raise ImpossibleEvent("no-trump may not be named in this game (allow_no_trump is off)")
            if ev.suit is not None and ev.suit not in C.SUITS:
                raise ImpossibleEvent(f"{ev.suit!r} is not a suit")
            t.trump = ev.suit
            self.start_play(t)
            return
        raise ImpossibleEvent(f"{k} is not possible now (phase {ph})")

    # ------------------------------------------------------------ play
    def first_leader(self, t: Table) -> int:
        """The high bidder leads (5.2)."""
        return t.maker

    # ------------------------------------------------------------ scoring
    def score_deal(self, t: Table) -> list:
        """Points per player (5.4): every player +1 per trick taken; a bidder
        of 3-5 who is set scores minus the bid instead; a made moon scores
        ``moon_value`` (24), a failed moon loses ``failed_moon_penalty`` (24)."""
        o = self.options
        pts = [self.PER_TRICK * n for n in t.tricks_won]
        b, c = t.maker, t.contract.bid
        made = self.call_made(t.tricks_won, b, c)
        if c == "moon":
            pts[b] = o.moon_value if made else -o.failed_moon_penalty
        elif not made:
            pts[b] = -c
        t.contract = evolve(t.contract, made=made)
        return pts

    def renege_penalty(self, t: Table, r: Renege, deal_points: Sequence[int]) -> tuple:
        """The offender loses ``renege_points`` (2); the hand is scored as
        played unless ``renege_abandons_hand`` (5.6)."""
        return self.renege_points_lost(r.seat, deal_points, f"P{r.seat + 1} loses")
