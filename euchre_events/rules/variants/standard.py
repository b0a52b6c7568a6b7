"""A: standard four-player partnership Euchre (rules.md section 2).

Seats 0..3 clockwise; side 0 = seats 0 and 2, side 1 = seats 1 and 3.
The auction is the shared up-card auction
(:class:`~euchre_events.rules.variants.upcard.UpCardAuction`: ``round1``,
``pickup``, ``discard``, ``round2``, then ``defend`` where defenders may
defend alone); standard Euchre adds ``alone`` (the maker decides after the
exchange, when ``alone_timing="after_exchange"``).  Every rule of the
auction is an option here (2.9).  Play and deal bookkeeping are the shared
engine's.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Optional, Sequence

from euchre_events.events import PlayedWithPartner, WentAlone
from euchre_events.rules.table import Renege, Table
from euchre_events.rules.variant import SINCE, Variant, VariantOptions
from euchre_events.rules.variants.upcard import UpCardAuction, loner_lead_seat

RENEGE_PRESETS = ("tournament", "casual", "deduct", "laws1888")


@dataclass(frozen=True)
class StandardOptions(VariantOptions):
    """Options of standard Euchre, defaults from rules.md 2.9 and section 8.

    * ``stick_the_dealer``: the dealer may not pass in round 2 (2.3);
    * ``stick_allows_turned_down``: a stuck dealer may name the turned-down suit (2.3);
    * ``target_score``: points to win (2.6), 10;
    * ``loner_lead``: ``"left_of_dealer"`` (2.5, Bicycle) or ``"left_of_loner"`` (pagat, EGN LEFT_OF_LONER);
    * ``lone_euchred_value``: defenders' points when a lone maker is euchred, 2 or 4 (2.6, 8.14);
    * ``defend_alone``: ``"off"``, ``"vs_lone"`` or ``"any"`` (2.4);
    * ``lone_defender_value``: points for a lone defender's euchre, 4 (2.6);
    * ``super_euchre``: makers with 0 tricks give 4 (2.6);
    * ``dealer_may_discard_upcard``: 2.2 toggle, allowed by default (case C7);
    * ``dealer_may_decline_upcard``: the exchange is optional (2.2 toggle, off);
    * ``alone_timing``: ``"with_call"`` (2.4 default) or ``"after_exchange"``
      (OpenSpiel: the maker decides after the dealer's discard);
    * ``exchange_when_dealer_out``: the dealer still picks up when the dealer's
      partner goes alone (2.2 says no);
    * ``dealers_partner_must_go_alone``: Canadian rule (2.2);
    * ``must_hold_named_suit``: round-2 caller must hold the suit (case C5, off);
    * ``thrown_in_next_dealer``: ``"left"`` (2.3, 1.4) or ``"same"`` (case C4);
    * ``renege_penalty``: ``"tournament"`` (2.7 default), ``"casual"``, ``"deduct"``, ``"laws1888"``;
    * ``renege_symmetric``: a renege by the lone maker costs the lone-hand value too (2.7);
    * ``lone_renege_value``: the renege penalty when a lone hand is involved,
      4 (2.7 default) or 2 (the option some clubs play);
    * ``loner_march_score``: points for a lone maker's march, 4 (2.6; EGN
      ``loner_march_score``, some tables play 3 or 5);
    * ``fast_break``: the defenders take the first two tricks and lose the
      last three: the deal scores 0 for both sides (2.9, EGN ``fast_break``);
    * ``four_trick_tokens``: makers who are not alone and take exactly 4
      tricks get a token besides the point; at 4 tokens a side turns them in
      for 1 extra point (2.9, EGN ``four_trick_tokens``);
    * ``num_deals``: the game ends after this many deals (0: no limit; 2.9,
      EGN ``num_deals``); with ``target_score`` it ends at whichever comes first;
    * and the shared table-law options of :class:`VariantOptions`
      (``renege_enforcement``, ``renege_claim_window``).
    """

    stick_the_dealer: bool = False
    stick_allows_turned_down: bool = False
    target_score: int = 10
    loner_lead: str = "left_of_dealer"
    lone_euchred_value: int = 2
    defend_alone: str = "off"
    lone_defender_value: int = 4
    super_euchre: bool = False
    dealer_may_discard_upcard: bool = True
    dealer_may_decline_upcard: bool = False
    alone_timing: str = "with_call"
    exchange_when_dealer_out: bool = False
    dealers_partner_must_go_alone: bool = False
    must_hold_named_suit: bool = False
    thrown_in_next_dealer: str = "left"
    renege_penalty: str = "tournament"
    renege_symmetric: bool = False
    lone_renege_value: int = field(default=4, metadata={SINCE: "0.2"})
    loner_march_score: int = field(default=4, metadata={SINCE: "0.2"})
    fast_break: bool = field(default=False, metadata={SINCE: "0.2"})
    four_trick_tokens: bool = field(default=False, metadata={SINCE: "0.2"})
    num_deals: int = field(default=0, metadata={SINCE: "0.2"})

    def __post_init__(self):
        self.check_shared()  # the table-law options every variant shares (rules.md 2.7)
        checks = {
            "loner_lead": ("left_of_dealer", "left_of_loner"),
            "defend_alone": ("off", "vs_lone", "any"),
            "alone_timing": ("with_call", "after_exchange"),
            "thrown_in_next_dealer": ("left", "same"),
            "renege_penalty": RENEGE_PRESETS,
            "lone_renege_value": (4, 2),
        }
        self.check_choices(checks)



class StandardPhase(StrEnum):
    """Standard Euchre's phase of its own (the others are
    :class:`~euchre_events.rules.variants.upcard.UpCardPhase`)."""

    ALONE = "alone"  # the maker decides on going alone after the exchange (alone_timing="after_exchange")


(ALONE,) = StandardPhase
"""The member as a module constant (see :data:`euchre_events.rules.table.PLAY`)."""


class StandardEuchre(UpCardAuction, Variant):
    """Standard North American partnership Euchre (rules.md section 2)."""

    name = "standard"
    aliases = ("euchre", "A")
    options_class = StandardOptions
    game_title = "standard Euchre"
    n_seats = 4
    n_sides = 2
    hand_size = 5
    tricks_per_deal = 5

    # ------------------------------------------------------------ dealing
    def next_dealer(self, t: Table) -> int:
        """Left of the dealer; the same dealer after a thrown-in deal with ``thrown_in_next_dealer='same'`` (case C4)."""
        if (self.options.thrown_in_next_dealer == "same" and t.deal_results
                and t.deal_results[-1][2] != "played"):
            return t.dealer
        return (t.dealer + 1) % 4

    # ------------------------------------------------------------ auction: the up-card auction, then
    def legal_own(self, t: Table) -> tuple:
        """(legal events, reason) in phase ``alone`` (rules.md 2.4)."""
        if t.phase == ALONE:
            if (self.options.dealers_partner_must_go_alone and t.auction.called_in_round == 1
                    and t.turn == (t.dealer + 2) % 4):
                return ((WentAlone(t.turn),),
                        "the dealer's partner accepted the up-card and must play alone (Canadian rule, 2.2)")
            return (WentAlone(t.turn), PlayedWithPartner(t.turn)), "the maker may go alone"
        return (), ""

    def apply_own(self, t: Table, ev) -> None:
        """Fold the maker's alone decision after the exchange (rules.md 2.4).
        Raises :class:`ImpossibleEvent` for any other event."""
        if t.phase == ALONE and ev.kind in ("WentAlone", "PlayedWithPartner") and ev.seat == t.maker:
            if ev.kind == "WentAlone":
                self.declare_alone(t, ev.seat)
            elif t.auction.called_in_round == 1:   # the Canadian rule (2.2): alone decided now
                self.check_canadian(t, ev.seat)
            self.offer_defend_alone(t)
            return
        super().apply_own(t, ev)

    def after_exchange(self, t: Table) -> None:
        """The maker may go alone now (``alone_timing="after_exchange"``), then
        the defenders may defend alone (2.4)."""
        if self.options.alone_timing == "after_exchange":
            t.phase, t.turn = ALONE, t.maker
            return
        self.offer_defend_alone(t)

    # ------------------------------------------------------------ play
    def first_leader(self, t: Table) -> int:
        """Eldest leads, skipping a seat that sits out (2.5); under
        ``left_of_loner`` the seat left of the lone player, the lone defender
        when both sides are alone."""
        return self.opening_leader(t.dealer, t.alone, t.lone_defender, t.next_active)

    def opening_leader(self, dealer: int, alone: Optional[int], lone_defender: Optional[int],
                       next_active) -> int:
        """The seat that leads the first trick (rules.md 2.5): eldest, the
        next active seat after ``dealer``; under ``loner_lead="left_of_loner"``
        the seat :func:`~euchre_events.rules.variants.upcard.loner_lead_seat`
        gives.  ``next_active``: seat -> the next seat clockwise that takes
        part (``Table.next_active``; the fast core passes its own table)."""
        if self.options.loner_lead == "left_of_loner":
            return loner_lead_seat(dealer, alone, lone_defender, next_active)
        return next_active(dealer)

    # ------------------------------------------------------------ scoring
    def score_deal(self, t: Table) -> list:
        """Points per side (rules.md 2.6): makers 3-4 = 1, march = 2
        (alone: ``loner_march_score``, 4); euchred = 2 to the defenders
        (lone maker: ``lone_euchred_value``; lone defender:
        ``lone_defender_value``; 0 tricks with super euchre: 4).  The 2.9
        toggles: under ``fast_break`` a deal whose defenders take the first
        two tricks and lose the last three scores 0 for both sides; under
        ``four_trick_tokens`` makers not alone who take exactly 4 tricks
        earn a token (folded into ``t.tokens``, per side), and the deal
        that brings a side to 4 tokens scores 1 extra point for it (the 4
        tokens are turned in).  Tokens are earned by the cards as played."""
        o = self.options
        pts = [0, 0]
        ms = self.side_of(t.maker)
        n = self.maker_tricks(t.tricks_won, t.maker)
        if o.fast_break and self.is_fast_break(t):
            return pts
        if n == 5:
            pts[ms] = o.loner_march_score if t.alone is not None else 2
        elif self.call_made(t.tricks_won, t.maker):
            pts[ms] = 1
            if n == 4 and o.four_trick_tokens and t.alone is None:
                pts[ms] += self.earn_token(t, ms)
        else:
            v = 2
            if t.alone is not None:
                v = o.lone_euchred_value
            if t.lone_defender is not None:
                v = max(v, o.lone_defender_value)
            if o.super_euchre and n == 0:
                v = max(v, 4)
            pts[1 - ms] = v
        return pts

    TOKENS_PER_POINT = 4
    """Four-trick tokens a side turns in for 1 extra point (EGN alternate-rules, ``four_trick_tokens``)."""

    def is_fast_break(self, t: Table) -> bool:
        """True if the deal just played is a fast break (EGN alternate-rules
        ``fast_break``): all five tricks played, the defenders (the side that
        did not make trump) won the first two and the makers the last three."""
        if len(t.tricks) != self.tricks_per_deal:
            return False
        return self._makers_took(t) == self._fast_break_pattern()

    def _makers_took(self, t: Table) -> list:
        """For each trick played, whether the makers took it."""
        ms = self.side_of(t.maker)
        return [self.side_of(w) == ms for _, _, w in t.tricks]

    def _fast_break_pattern(self) -> list:
        """The tricks of a fast break, in order: whether the makers took each
        (the defenders the first two, the makers the rest)."""
        return [False, False] + [True] * (self.tricks_per_deal - 2)

    def orders_tricks(self) -> bool:
        """True under ``fast_break`` (2.9): :meth:`Variant.orders_tricks`."""
        return bool(self.options.fast_break)

    def trick_order(self, t: Table) -> Optional[bool]:
        """Under ``fast_break`` (2.9), while the deal at ``t`` can still be
        a fast break (:meth:`is_fast_break`: the defenders have taken every
        trick so far up to the second, the makers every one since): True
        before the third trick (which of the tricks to play the defenders
        take decides), False after it (the counts decide: a fast break iff
        the makers take every trick left).  None otherwise (only the counts
        count): :meth:`Variant.trick_order`."""
        if not self.options.fast_break or t.maker is None:
            return None
        won = self._makers_took(t)
        if won != self._fast_break_pattern()[:len(won)]:
            return None
        return len(won) < 2

    def completed_tricks(self, t: Table, won: Sequence[int]) -> list:
        """``t.tricks`` and, under ``fast_break``, the tricks still to play
        as ``(None, None, winner)``: the defenders' first, then the
        makers' (:meth:`Variant.completed_tricks`; after the second trick a
        fast break needs the makers to take every one left, so any order of
        the same counts scores as this one)."""
        if not self.options.fast_break or t.maker is None:
            return t.tricks
        ms = self.side_of(t.maker)
        out = list(t.tricks)
        extra = [(self.side_of(s) == ms, s, n - t.tricks_won[s]) for s, n in enumerate(won)]
        for _, s, n in sorted(extra):
            out.extend([(None, None, s)] * n)
        return out

    def earn_token(self, t: Table, side: int) -> int:
        """Give ``side`` one four-trick token (``t.tokens``, per side, a new
        list: checkpoints share the old one); at :attr:`TOKENS_PER_POINT`
        tokens the side turns them in.  Returns the extra points (0 or 1)."""
        tokens = list(t.tokens) or [0] * self.n_sides
        tokens[side] += 1
        extra = 0
        if tokens[side] >= self.TOKENS_PER_POINT:
            tokens[side] -= self.TOKENS_PER_POINT
            extra = 1
        t.tokens = tokens
        return extra

    def deals_counted(self, t: Table) -> int:
        """Deals that count towards ``num_deals``: every deal played or
        thrown in; an abandoned one (a misdeal, a hand stopped) is dealt
        again and does not count (rules.md 2.9)."""
        return sum(1 for r in t.deal_results if r[2] != "abandoned")

    def game_winner(self, t: Table, scores: Sequence[int]) -> Any:
        """The side at ``target_score`` or more (10 by default, rules.md 2.6).
        A normal hand scores one side only; when a renege penalty lets both
        sides cross on one deal (``casual``, ``laws1888``), the first to
        reach the target wins, in the order the preset scores the deal
        (:meth:`penalty_order`, :meth:`Variant.first_at_target`); reached
        together, the higher wins, and level the game goes on (a record
        that starts level at the target: ``(0, 1)``, over with no known
        winner).  Under ``num_deals``, once that many deals are counted
        (:meth:`deals_counted`), the side with more points, or ``(0, 1)``
        when the sides are level (the game ends drawn: no winner, rules.md
        2.9); else None."""
        s0, s1 = scores
        over = self.first_at_target(t, scores, self.options.target_score)
        if len(over) == 1:
            return over[0]
        if over and s0 != s1:
            return 0 if s0 > s1 else 1
        if over and not t.deal_results:
            return (0, 1)   # a record starting level at the target: over, who won is not recorded
        if self.options.num_deals and self.deals_counted(t) >= self.options.num_deals:
            return (0, 1) if s0 == s1 else (0 if s0 > s1 else 1)
        return None

    def penalty_order(self) -> Optional[str]:
        """The ``casual`` preset scores the hand, then the penalty (2.7); the
        ``laws1888`` preset the penalty before anything else (1.5); the
        others replace the hand's points or take from the offender only, so
        one side at most crosses the target on a deal (2.6)."""
        return {"casual": "after", "laws1888": "before"}.get(self.options.renege_penalty)

    def renege_penalty(self, t: Table, r: Renege, deal_points: Sequence[int]) -> tuple:
        """(points per side for the deal, hand abandoned?, words) under the
        game's ``renege_penalty`` preset (rules.md 2.7): 2, or
        ``lone_renege_value`` (4) for a renege by a defender against a lone
        maker, and under ``renege_symmetric`` for one by the lone maker.  A
        lone defender changes neither (2.7 names the lone maker only): a
        renege by the makers against a lone defender, or by the lone
        defender, costs 2."""
        o = self.options
        off = self.side_of(r.seat)
        other = 1 - off
        val = 2
        maker_side = self.side_of(r.maker) if r.maker is not None else None
        # a defender's renege "against" a lone seat can only be against the
        # lone maker: the lone defender sits on the defender's own side
        against_lone_maker = r.against_lone and maker_side is not None and off != maker_side
        by_lone_maker = r.by_lone and r.seat == r.maker
        if against_lone_maker or (by_lone_maker and o.renege_symmetric):
            val = o.lone_renege_value
        side_name = self.side_name(other)
        off_name = self.side_name(off)
        if o.renege_penalty == "tournament":
            pts = [0, 0]
            pts[other] = val
            return pts, True, f"hand ends; {side_name} score {val}"
        if o.renege_penalty == "casual":
            pts = list(deal_points)
            pts[other] += val
            return pts, False, f"hand scored as played, then {side_name} score {val}"
        if o.renege_penalty == "deduct":
            pts = list(deal_points)
            pts[off] -= val
            return pts, False, f"hand scored as played; {off_name} lose {val}"
        v1888 = 5 if r.lone else 3
        pts = list(deal_points)
        pts[other] += v1888
        return pts, False, f"{side_name} score {v1888} (1888 laws), hand scored as played"

    def official_deal_points(self, t: Table, penalized: Sequence, deal_points: Sequence[int]) -> tuple:
        """As :meth:`Variant.official_deal_points`; under ``laws1888`` equal
        numbers of reneges by the two sides cancel (rules.md 1.5): the side
        with more reneges pays for the difference, its latest ones counting."""
        if self.options.renege_penalty != "laws1888" or not penalized:
            return super().official_deal_points(t, penalized, deal_points)
        by_side = [[p for p in penalized if self.side_of(p[0].seat) == s] for s in (0, 1)]
        k = min(map(len, by_side))
        cancelled = [p for side in by_side for p in side[:k]]
        rest = [p for p in penalized if p not in cancelled]
        pts, applied = super().official_deal_points(t, rest, deal_points)
        note = "cancelled by an equal renege of the other side (1888 laws)"
        applied = tuple(sorted(applied + tuple((p[0].position, note) for p in cancelled)))
        return pts, applied
