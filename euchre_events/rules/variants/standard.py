"""A: standard four-player partnership Euchre (rules.md section 2).

Seats 0..3 clockwise; side 0 = seats 0 and 2, side 1 = seats 1 and 3.
Phases owned here: ``round1`` (order up / pass), ``pickup`` (dealer takes the
up-card), ``discard``, ``round2`` (name a suit / pass), ``alone`` (maker decides
after the exchange, when ``alone_timing="after_exchange"``), ``defend``
(defenders may defend alone).  Play and deal bookkeeping are the shared engine's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from euchre_events.rules import cards as C
from euchre_events.rules.table import flag, ImpossibleEvent, Renege, Table
from euchre_events.rules.variant import Variant, VariantOptions
from euchre_events.events import (DefendedAlone, Discarded, OrderedUp, Passed, PlayedWithPartner,
                      TrumpNamed, UpCardDeclined, UpCardPickedUp, WentAlone)

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
    * ``renege_symmetric``: a renege by the lone maker costs 4 too (2.7).
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

    def __post_init__(self):
        checks = {
            "loner_lead": ("left_of_dealer", "left_of_loner"),
            "defend_alone": ("off", "vs_lone", "any"),
            "alone_timing": ("with_call", "after_exchange"),
            "thrown_in_next_dealer": ("left", "same"),
            "renege_penalty": RENEGE_PRESETS,
        }
        self.check_choices(checks)



class StandardEuchre(Variant):
    """Standard North American partnership Euchre (rules.md section 2)."""

    name = "standard"
    aliases = ("euchre", "A")
    options_class = StandardOptions
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

    def check_dealt(self, t: Table, ev) -> None:
        """Four hands of 5, an up-card, a kitty of 3 or unstated (rules.md 2.1)."""
        super().check_dealt(t, ev)
        if ev.up_card is None or ev.up_card == C.UNKNOWN:
            raise ImpossibleEvent("the deal has no up-card")
        if len(ev.kitty) not in (0, 3):
            raise ImpossibleEvent(f"the kitty holds {len(ev.kitty)} cards, not 3")

    def start_auction(self, t: Table) -> None:
        """Round 1 starts with eldest, the seat left of the dealer (rules.md 2.2)."""
        t.phase = "round1"
        t.turn = (t.dealer + 1) % t.n_seats
        t.x["passes"] = 0

    # ------------------------------------------------------------ auction
    def legal(self, t: Table) -> tuple:
        """(legal events, reason) in the auction and exchange phases (rules.md 2.2-2.4)."""
        o = self.options
        ph, s = t.phase, t.turn
        if ph == "round1":
            acts = [Passed(s), OrderedUp(s)]
            if o.alone_timing == "with_call":
                acts.append(OrderedUp(s, alone=True))
            if o.dealers_partner_must_go_alone and s == (t.dealer + 2) % 4:
                acts = [a for a in acts if not (isinstance(a, OrderedUp) and not a.alone)]
            suit = C.SUIT_NAMES[C.suit_of(t.up_card)]
            who = "take it up" if s == t.dealer else ("assist" if s == (t.dealer + 2) % t.n_seats else "order it up")
            return tuple(acts), f"round 1: pass or {who} ({suit} as trump)"
        if ph == "round2":
            turned = C.suit_of(t.up_card)
            stuck = o.stick_the_dealer and s == t.dealer
            suits = [x for x in C.SUITS if x != turned or (stuck and o.stick_allows_turned_down)]
            if o.must_hold_named_suit:
                suits = [x for x in suits if C.cards_of_suit(t.hands[s], x, x)]
            acts = [] if stuck else [Passed(s)]
            for x in suits:
                acts.append(TrumpNamed(s, x))
                if o.alone_timing == "with_call":
                    acts.append(TrumpNamed(s, x, alone=True))
            reason = (f"round 2: name a suit other than {C.SUIT_NAMES[turned]}"
                      + ("; the dealer is stuck and may not pass" if stuck else ", or pass"))
            return tuple(acts), reason
        if ph == "pickup":
            if t.maker == t.dealer:  # taking it up *is* the exchange (rules.md 2.2, 3.2, 4.2)
                return (UpCardPickedUp(s),), "the dealer took it up: the up-card joins the hand"
            if o.dealer_may_decline_upcard:
                return ((UpCardPickedUp(s), UpCardDeclined(s)),
                        "trump is fixed; the dealer may take the up-card and discard, or leave it")
            return (UpCardPickedUp(s),), "the dealer picks up the up-card"
        if ph == "discard":
            hand = [c for c in t.hands[s] if c != C.UNKNOWN]
            if not o.dealer_may_discard_upcard:
                hand = [c for c in hand if c != t.up_card]
                return tuple(Discarded(s, c) for c in hand), "the dealer discards one card (not the up-card)"
            return tuple(Discarded(s, c) for c in hand), "the dealer discards one card face down"
        if ph == "alone":
            return (WentAlone(s), PlayedWithPartner(s)), "the maker may go alone"
        if ph == "defend":
            return (DefendedAlone(s), PlayedWithPartner(s)), "a defender may defend alone"
        return (), ""

    def apply(self, t: Table, ev) -> None:
        """Fold a call, pick-up, discard or alone decision (rules.md 2.2-2.4); illegal-but-real calls are flagged."""
        ph, k, o = t.phase, ev.kind, self.options
        if ph == "round1" and k == "Passed":
            t.x["passes"] += 1
            if t.x["passes"] == t.n_seats:
                t.up_status = "turned down"
                t.phase = "round2"
            t.turn = (t.turn + 1) % t.n_seats
            return
        if ph == "round1" and k == "OrderedUp":
            t.trump = C.suit_of(t.up_card)
            self._make(t, ev.seat, ev.alone)
            if t.dealer in t.out and not o.exchange_when_dealer_out:
                t.up_status = "face down (dealer sits out)"
                self._after_exchange(t)
            else:
                t.phase, t.turn = "pickup", t.dealer
            return
        if ph == "pickup" and k == "UpCardPickedUp":
            t.hands[t.dealer].append(t.up_card)
            t.up_status = "picked up"
            t.phase = "discard"
            return
        if ph == "pickup" and k == "UpCardDeclined" and o.dealer_may_decline_upcard and t.maker != t.dealer:
            t.up_status = "left"
            self._after_exchange(t)
            return
        if ph == "discard" and k == "Discarded":
            t.remove_card(ev.seat, ev.card, "discard")
            t.discards.append((ev.seat, ev.card))
            self._after_exchange(t)
            return
        if ph == "round2" and k == "Passed":
            if o.stick_the_dealer and ev.seat == t.dealer:
                # a stuck dealer who passes: illegal but real; the deal is dead
                t.x["stuck_dealer_passed"] = True
                flag(t, "stuck-dealer-passed", "the dealer passes although stuck (rules.md 2.3)", ev.seat)
            t.x["passes"] += 1
            if t.x["passes"] == 2 * t.n_seats:
                t.phase = "thrown_in"
                t.turn = None
            else:
                t.turn = (t.turn + 1) % t.n_seats
            return
        if ph == "round2" and k == "TrumpNamed":
            if ev.suit not in C.SUITS:
                raise ImpossibleEvent(f"{ev.suit!r} is not a suit that can be trump in standard Euchre")
            turned = C.suit_of(t.up_card)
            if ev.suit == turned and not (o.stick_the_dealer and o.stick_allows_turned_down
                                          and ev.seat == t.dealer):
                flag(t, "turned-down-suit-named",
                     f"{C.SUIT_NAMES[turned]} was turned down and may not be named in round 2 (rules.md 2.3)",
                     ev.seat)
            elif o.must_hold_named_suit and not C.cards_of_suit(t.hands[ev.seat], ev.suit, ev.suit):
                flag(t, "named-suit-not-held",
                     f"the caller holds no {C.SUIT_NAMES[ev.suit]} (option must_hold_named_suit)", ev.seat)
            t.trump = ev.suit
            self._make(t, ev.seat, ev.alone)
            self._after_exchange(t)
            return
        if ph == "alone" and k in ("WentAlone", "PlayedWithPartner") and ev.seat == t.maker:
            if k == "WentAlone":
                self._go_alone(t, ev.seat)
            self._after_alone(t)
            return
        if ph == "defend" and k in ("DefendedAlone", "PlayedWithPartner"):
            if k == "DefendedAlone":
                t.lone_defender = ev.seat
                t.out = t.out | {(ev.seat + 2) % 4}
                self.start_play(t)
                return
            rest = t.x.get("defenders_left", ())
            if rest:
                t.turn = rest[0]
                t.x["defenders_left"] = rest[1:]
            else:
                self.start_play(t)
            return
        raise ImpossibleEvent(f"{k} is not possible now (phase {ph})")

    def _make(self, t: Table, seat: int, alone: bool) -> None:
        t.maker = seat
        t.x["called_in_round"] = 1 if t.phase == "round1" else 2
        if alone:
            self._go_alone(t, seat)

    @staticmethod
    def _go_alone(t: Table, seat: int) -> None:
        t.alone = seat
        t.out = t.out | {(seat + 2) % 4}

    def _after_exchange(self, t: Table) -> None:
        if self.options.alone_timing == "after_exchange":
            t.phase, t.turn = "alone", t.maker
            return
        self._after_alone(t)

    def _after_alone(self, t: Table) -> None:
        o = self.options
        if o.defend_alone == "any" or (o.defend_alone == "vs_lone" and t.alone is not None):
            defenders = [s for s in ((t.dealer + k) % 4 for k in range(1, 5))
                         if self.side_of(s) != self.side_of(t.maker)]
            t.phase, t.turn = "defend", defenders[0]
            t.x["defenders_left"] = tuple(defenders[1:])
            return
        self.start_play(t)

    # ------------------------------------------------------------ play
    def first_leader(self, t: Table) -> int:
        """Eldest leads, skipping a seat that sits out (2.5); under
        ``left_of_loner`` the seat left of the lone player, the lone defender
        when both sides are alone."""
        if self.options.loner_lead == "left_of_loner":
            if t.lone_defender is not None:
                return t.lone_defender if t.alone is not None else t.next_active(t.lone_defender)
            if t.alone is not None:
                return t.next_active(t.alone)
        return t.next_active(t.dealer)

    # ------------------------------------------------------------ scoring
    def maker_tricks(self, t: Table) -> int:
        """Tricks won by the maker's side in the deal just played."""
        if self.partnerships and type(self).side_of is Variant.side_of:
            return sum(t.tricks_won[t.maker % 2::2])  # side = seat % 2
        side = self.side_of(t.maker)
        return sum(n for s, n in enumerate(t.tricks_won) if self.side_of(s) == side)

    def score_deal(self, t: Table) -> list:
        """Points per side (rules.md 2.6): makers 3-4 = 1, march = 2 (4 alone);
        euchred = 2 to the defenders (lone maker: ``lone_euchred_value``;
        lone defender: ``lone_defender_value``; 0 tricks with super euchre: 4)."""
        o = self.options
        pts = [0, 0]
        ms = self.side_of(t.maker)
        n = self.maker_tricks(t)
        if n == 5:
            pts[ms] = 4 if t.alone is not None else 2
        elif n >= 3:
            pts[ms] = 1
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

    def game_winner(self, t: Table) -> Optional[int]:
        """The side at ``target_score`` or more (10 by default, rules.md 2.6), else None."""
        s0, s1 = t.scores
        best = 1 if s1 > s0 else 0  # side 0 on a tie, as max() would give
        return best if t.scores[best] >= self.options.target_score else None

    def renege_penalty(self, t: Table, r: Renege, deal_points: Sequence[int]) -> tuple:
        """(points per side for the deal, hand abandoned?, words) under the
        game's ``renege_penalty`` preset (rules.md 2.7)."""
        o = self.options
        off = self.side_of(r.seat)
        other = 1 - off
        val = 2
        if r.against_lone or (r.by_lone and o.renege_symmetric):
            val = 4
        side_name = "N/S" if other == 0 else "E/W"
        off_name = "N/S" if off == 0 else "E/W"
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
