"""E: Buck Euchre, also called Dirty Clubs (rules.md section 6).

Four seats 0..3 clockwise, each player a side of its own
(``side_of(seat) == seat``).  Scores start at 25 (``start_score``) and count
*down*; the first player at 0 or below wins.  Five cards each, the 21st card
turned up, the last 3 in the kitty (rules.md 6.1).

Trump (6.1):

* a club turned up makes clubs trump at once: no auction, no maker, nobody
  may drop out (case C8);
* otherwise the shared up-card auction with four bidders from the
  dealer's left (:class:`~euchre_events.rules.variants.upcard.UpCardAuction`,
  every rule of it fixed by section 6: :data:`FIXED_RULES`): round 1 order
  up or pass (the dealer takes it up), the dealer always exchanges; round 2
  name another suit (or no-trump with ``no_trump_callable``);
* everyone passing twice does *not* throw the deal in: it is played at
  no-trump (trump ``None``, no bowers, case C9), with no maker and no drops.

Drop-outs (6.2): once there is a maker, each other player in turn
(``drop_order``) says ``StayedIn`` or ``DroppedOut``; a dropped player sits
out (``t.out``) and scores nothing.  The player on the dealer's left leads,
or the next active player (6.3).  Scoring and game end: see
:meth:`BuckEuchre.score_deal` and :meth:`BuckEuchre.game_winner`.

Phases: ``round1``, ``pickup``, ``discard``, ``round2``
(:class:`~euchre_events.rules.variants.upcard.UpCardPhase`), ``drop``
(:class:`BuckPhase`), then the engine's ``play``.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any, Optional, Sequence

from euchre_events.events import CardsDealt, DroppedOut, StayedIn, TrumpNamed
from euchre_events.rules import cards as C
from euchre_events.rules.table import ImpossibleEvent, Renege, Table, evolve, flag
from euchre_events.rules.variant import Variant, VariantOptions, leaders
from euchre_events.rules.variants.upcard import PICKUP, ROUND2, UpCardAuction

DROP_ORDERS = ("dealer_left", "maker_left")
TIE_RESOLUTIONS = ("tie", "play_on")

FIXED_RULES = {
    "stick_the_dealer": False,               # all passing twice is a no-trump hand (6.1)
    "stick_allows_turned_down": False,       # round 2 names "a different suit" (6.1)
    "dealer_may_decline_upcard": False,      # the dealer exchanges the up-card (6.1)
    "alone_timing": "none",                  # no going alone in Buck Euchre
    "dealers_partner_must_go_alone": False,  # no partnerships
    "must_hold_named_suit": False,           # 6.1 puts no condition on naming
    "exchange_when_dealer_out": False,       # nobody sits out before the drop-outs
}
"""The rules of the up-card auction that rules.md section 6 fixes (none is
an option): :attr:`BuckEuchre.fixed_rules`."""


class BuckPhase(StrEnum):
    """Buck's phase of its own (the auction's are
    :class:`~euchre_events.rules.variants.upcard.UpCardPhase`)."""

    DROP = "drop"  # each player but the maker stays in or drops out (6.2)


(DROP,) = BuckPhase
"""The member as a module constant (see :data:`euchre_events.rules.table.PLAY`)."""


@dataclass(frozen=True)
class BuckContract:
    """Buck's contract state (``Table.contract``, rules.md 6.1-6.4).

    * ``dirty_clubs``: a club was turned up: clubs are trump with no auction (6.1, case C8);
    * ``no_trump``: everyone passed twice: the hand is played at no-trump (6.1, case C9);
    * ``to_ask`` / ``asked``: the players still to be asked whether they drop
      out, in order, and those asked so far (seat indices; None before the
      drop-outs, 6.2);
    * ``tied``: the players tied for the win (equal lowest at or below 0,
      ``tie_resolution="tie"``, 6.4), else None.
    """

    dirty_clubs: bool = False
    no_trump: bool = False
    to_ask: Optional[tuple] = None
    asked: Optional[tuple] = None
    tied: Optional[tuple] = None


@dataclass(frozen=True)
class BuckOptions(VariantOptions):
    """Options of Buck Euchre, defaults from rules.md 6.7 and section 8.

    * ``start_score``: every player's score at the start (6.4), 25 (Dirty
      Clubs 20, three-player Buck 15; case C9 also names 15);
    * ``drop_order``: who is asked first whether to drop out (6.2):
      ``"dealer_left"`` (our source, default) or ``"maker_left"`` (pagat);
      the maker is never asked;
    * ``no_trump_callable``: no-trump may be named in round 2, making the
      caller the maker (6.1, whiteknucklecards), off;
    * ``club_upcard_dealer_exchange``: on a turned club the dealer takes the
      club and discards (6.1, section 8 item 9), off;
    * ``walkover_counts_as_five``: when everyone but the maker drops out, the
      maker plays alone, takes all 5 tricks and this counts for the instant
      win (6.2, section 8 item 8), off (the maker just subtracts 5).  The
      record then holds the maker's five plays, each a one-card trick;
    * ``last_may_not_drop``: the last player asked may not drop if all the
      others asked have dropped (6.2, the "alternative"), off;
    * ``no_drop_at_or_below``: a player whose score is at or below this value
      may not drop (pagat's three-player rule uses 5), ``None`` = no limit;
    * ``renege_value``: the offender's score change for a renege, +5 (treated
      as bucked, no trick subtraction; 6.5, section 8 item 10);
    * ``tie_resolution``: several players reaching the same lowest score at
      or below 0 on one hand: ``"tie"`` (declared a tie, 6.4 default) or
      ``"play_on"`` (play another hand).

    Raises ``ValueError`` for a value outside the listed ones.
    """

    start_score: int = 25
    drop_order: str = "dealer_left"
    no_trump_callable: bool = False
    club_upcard_dealer_exchange: bool = False
    walkover_counts_as_five: bool = False
    last_may_not_drop: bool = False
    no_drop_at_or_below: Optional[int] = None
    renege_value: int = 5
    tie_resolution: str = "tie"
    dealer_may_discard_upcard: bool = True

    def __post_init__(self):
        self.check_shared()  # the table-law options every variant shares (rules.md 2.7)
        checks = {"drop_order": DROP_ORDERS, "tie_resolution": TIE_RESOLUTIONS}
        self.check_choices(checks)



_DIRTY_CLUBS = BuckContract(dirty_clubs=True)  # frozen: one shared instance serves every table


@lru_cache(maxsize=None)
def _asking(to_ask: tuple, asked: tuple) -> BuckContract:
    """The contract state during the drop-outs (6.2; there is a maker, so
    neither a turned club nor a no-trump hand, and the game is not over):
    one shared instance per value (it is frozen), as the fold makes one per
    answer."""
    return BuckContract(to_ask=to_ask, asked=asked)


class BuckEuchre(UpCardAuction, Variant):
    """Buck Euchre (rules.md section 6): four players, each a side,
    scores counting down from ``start_score``."""

    name = "buck"
    aliases = ("buck-euchre", "buck_euchre", "dirty-clubs", "E")
    options_class = BuckOptions
    game_title = "Buck Euchre"
    contract_state = BuckContract
    fixed_rules = FIXED_RULES
    across_assists = False
    no_going_alone = "there is no going alone in Buck Euchre (rules.md 6)"
    n_seats = 4
    partnerships = False
    n_sides = 4
    hand_size = 5
    tricks_per_deal = 5

    BUCKED = 5
    """The score change of a player bucked (6.4): a maker who took fewer than
    :meth:`tricks_needed`, another player in the hand who took no trick."""
    PER_TRICK = -1
    """The score change per trick taken by a player not bucked (6.4: scores count down)."""

    # ------------------------------------------------------------ seats

    def initial_scores(self) -> list:
        """``start_score`` (25) for each of the four players (6.4)."""
        return [self.options.start_score] * 4

    # ------------------------------------------------------------ dealing
    absent_hands = ("dummy", "ghost")  # four hands of 5, an up-card, a kitty of 3 (6.1)

    def deal_cards(self, t: Table, shuffled: Sequence[str]) -> CardsDealt:
        """The deal of rules.md 6.1 from a shuffled deck: packets of 2 and 3
        clockwise from the dealer's left, the 21st card up, 3 in the kitty."""
        order = [(t.dealer + k) % 4 for k in range(1, 5)]
        got, rest = self.deal_packets(shuffled, order, self.crossed_packets(4, 2))
        up = rest.pop(0)
        return CardsDealt(tuple(tuple(got[s]) for s in range(4)), up, tuple(rest))

    # ------------------------------------------------------------ auction: the up-card auction, then
    def start_auction(self, t: Table) -> None:
        """A turned club makes clubs trump with no auction (6.1, case C8);
        otherwise round 1 starts on the dealer's left."""
        if C.suit_of(t.up_card) == "C":
            t.trump = "C"
            t.contract = _DIRTY_CLUBS
            if self.options.club_upcard_dealer_exchange:
                t.phase, t.turn = PICKUP, t.dealer
            else:
                self.start_play(t)
            return
        super().start_auction(t)

    def legal(self, t: Table) -> tuple:
        """``(events, reason)``: what the seat on turn may do in this variant's
        auction and exchange phases (rules.md 6.1-6.2); play is the engine's."""
        ph, s = t.phase, t.turn
        acts, reason = super().legal(t)
        if ph == ROUND2:
            if self.options.no_trump_callable:
                acts = acts + (TrumpNamed(s, None),)
            if t.auction.passes == 2 * t.n_seats - 1:
                reason += "; if the dealer passes too, the hand is played at no-trump"
        elif ph == PICKUP and t.maker is None:
            reason = "a club was turned: the dealer takes it and discards"
        return acts, reason

    def legal_own(self, t: Table) -> tuple:
        """``(events, reason)`` in the drop-outs (rules.md 6.2)."""
        if t.phase != DROP:
            return (), ""
        s = t.turn
        forced = self.may_not_drop(t, s)
        if forced:
            return (StayedIn(s),), forced
        return (StayedIn(s), DroppedOut(s)), "stay in or drop out (a dropped player scores nothing)"

    def may_not_drop(self, t: Table, seat: int) -> str:
        """Why ``seat``, asked now, may not drop out (rules.md 6.2, 6.7), in
        words, or ``""``: ``last_may_not_drop`` (everyone else asked has
        dropped) or ``no_drop_at_or_below`` (the player's score, the
        official one the table keeps, is at or below the limit)."""
        c, o = t.contract, self.options
        if o.no_drop_at_or_below is not None and t.official_scores[seat] <= o.no_drop_at_or_below:
            return f"a player at {o.no_drop_at_or_below} or below may not drop"
        if o.last_may_not_drop and not c.to_ask and c.asked and all(a in t.out for a in c.asked):
            return "the others asked have dropped, so the last player may not"
        return ""

    def apply_own(self, t: Table, ev) -> None:
        """Fold a player's answer in the drop-outs (rules.md 6.2).
        Raises :class:`ImpossibleEvent` for an event the phase cannot contain."""
        k = ev.kind
        if t.phase == DROP and k in ("StayedIn", "DroppedOut"):
            if k == "DroppedOut":
                forced = self.may_not_drop(t, ev.seat)
                if forced:
                    # illegal but real (docs/design.md "Three kinds of wrong"):
                    # the drop is kept as recorded, and flagged for the audit
                    flag(t, "forbidden-drop",
                         f"seat {ev.seat} drops out, but {forced} (rules.md 6.2, 6.7); "
                         "the drop is kept as recorded", ev.seat)
                t.out = t.out | {ev.seat}
            c = t.contract
            t.contract = _asking(c.to_ask[1:], c.asked + (ev.seat,))
            if c.to_ask:
                t.turn = c.to_ask[0]
            else:
                self.start_play(t)
            return
        super().apply_own(t, ev)

    def name_no_trump(self, t: Table, ev) -> None:
        """No-trump named in round 2: the caller is the maker (6.1, whiteknucklecards),
        with ``no_trump_callable``; else :class:`ImpossibleEvent`."""
        if not self.options.no_trump_callable:
            raise ImpossibleEvent("no-trump cannot be called in this game (option no_trump_callable is off)")
        t.trump = None
        self._make(t, ev.seat, ev.alone)
        self.after_exchange(t)

    def all_passed(self, t: Table) -> None:
        """Everyone passed twice: a no-trump hand, no maker, no drops (6.1, case C9)."""
        t.contract = evolve(t.contract, no_trump=True)
        t.trump = None
        self.start_play(t)

    def after_exchange(self, t: Table) -> None:
        """The drop-outs (6.2), asked in ``drop_order``; after an exchanged
        turned club (no maker), the play."""
        if t.maker is None:          # a turned club, exchanged by the dealer
            self.start_play(t)
            return
        if self.options.drop_order == "maker_left":
            order = [(t.maker + k) % 4 for k in range(1, 4)]
        else:
            order = [s for s in ((t.dealer + k) % 4 for k in range(1, 5)) if s != t.maker]
        t.phase, t.turn = DROP, order[0]
        t.contract = _asking(tuple(order[1:]), ())

    # ------------------------------------------------------------ scoring
    def score_deal(self, t: Table) -> list:
        """Score change per player, counting down (6.4).

        Maker: 3-5 tricks = -1 per trick, 0-2 tricks ("bucked") = +5.  Any
        other player in the hand (all four in clubs and no-trump hands):
        -1 per trick, +5 with no trick.  A dropped player: 0.
        """
        pts = [0, 0, 0, 0]
        for s in range(4):
            if s in t.out:
                continue
            n = t.tricks_won[s]
            bucked = not self.call_made(t.tricks_won, s) if s == t.maker else n == 0
            pts[s] = self.BUCKED if bucked else self.PER_TRICK * n
        return pts

    def game_winner(self, t: Table, scores: Sequence[int]) -> Any:
        """The winner after a hand (6.4).

        A player who took all 5 tricks wins at once (any player, clubs and
        no-trump hands too; a maker whom everyone left only with
        ``walkover_counts_as_five``).  Otherwise the lowest score at or below
        0 wins; equal lowest scores end the game as a tie
        (``t.contract.tied`` lists them, no winner) or, with
        ``tie_resolution="play_on"``, play another hand.
        """
        o = self.options
        walkover = t.maker is not None and len(t.out) == 3
        for s in range(4):
            if t.tricks_won[s] == 5 and (not walkover or o.walkover_counts_as_five):
                return s
        lowest = leaders(scores, [s for s in range(4) if scores[s] <= 0], lowest=True)
        if len(lowest) == 1:
            return lowest[0]
        if lowest and o.tie_resolution == "tie":
            return tuple(lowest)
        return None

    def record_tie(self, t: Table, sides: tuple) -> None:
        """Equal lowest scores end the game as a tie (6.4): ``t.contract.tied``."""
        t.contract = evolve(t.contract, tied=tuple(sides))

    def renege_penalty(self, t: Table, r: Renege, deal_points: Sequence[int]) -> tuple:
        """(score changes per player for the deal, hand abandoned?, words)
        for a renege (6.5): the offender is treated as bucked
        (``renege_value``, +5, with no trick subtraction); the others are
        scored as played; the hand is not abandoned."""
        pts = list(deal_points)
        pts[r.seat] = self.options.renege_value
        return (pts, False, f"{t.players[r.seat]} is treated as bucked ({self.options.renege_value:+d}); "
                            "the others are scored as played")
