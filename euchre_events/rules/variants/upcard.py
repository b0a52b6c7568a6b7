"""The up-card auction, shared by the games that turn up a card (rules.md
2.2-2.3): standard (section 2), two-handed (3.2), cutthroat (4.2) and Buck
(6.1) Euchre; and the offer to defend alone that follows it where a maker
may go alone (2.4, 4.4).

Round 1 (``round1``): from the dealer's left each seat passes or accepts the
up-card's suit as trump (orders it up; the seat across from the dealer
"assists"; the dealer "takes it up").  Then the dealer picks the up-card up
(``pickup``) and discards one card (``discard``), or, where the game lets
him, leaves it.  Round 2 (``round2``), once every seat has passed: the
up-card is turned down and each seat in turn may name another suit or pass;
a stuck dealer may not pass.  Everyone passing twice throws the deal in.

What the rules of a game fix and what its options choose is one
:class:`UpCardRules` per variant (:attr:`UpCardAuction.upcard_rules`): the
fields a game's rules.md section fixes are class-level values
(:attr:`UpCardAuction.fixed_rules`), the others are read from the option of
the same name.  A variant plugs in what follows the exchange (going alone,
the dummy, drop-outs) with :meth:`UpCardAuction.after_exchange`.

Pure: no I/O.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cached_property
from typing import Any, Mapping, Optional

from euchre_events.events import (DefendedAlone, Discarded, OrderedUp, Passed, PlayedWithPartner,
                                  TrumpNamed, UpCardDeclined, UpCardPickedUp)
from euchre_events.rules import cards as C
from euchre_events.rules.table import ImpossibleEvent, Phase, Table, UpCardStatus, flag


class UpCardPhase(StrEnum):
    """The phases of the up-card auction and of the offer to defend alone."""

    ROUND1 = "round1"    # order up / assist / take it up, or pass (2.2)
    PICKUP = "pickup"    # the dealer takes the up-card (or leaves it, 3.2, 4.2)
    DISCARD = "discard"  # the dealer discards one card face down (2.2)
    ROUND2 = "round2"    # name a suit other than the turned-down one, or pass (2.3)
    DEFEND = "defend"    # each defender in turn may defend alone (2.4, 4.4)


@dataclass(frozen=True)
class UpCardAuctionState:
    """The auction state of an up-card game (``Table.auction``, rules.md 2.2-2.3).

    * ``passes``: Passed events of this deal so far, both rounds
      (0 .. 2 x seats; ``n_seats`` passes end round 1);
    * ``called_in_round``: 1 or 2 once a seat has made trump, else None;
    * ``stuck_dealer_passed``: a stuck dealer passed in round 2 (illegal but
      real, flagged ``"stuck-dealer-passed"``, 2.3).
    """

    passes: int
    called_in_round: Optional[int] = None
    stuck_dealer_passed: bool = False


@dataclass(frozen=True)
class DefendAloneState:
    """Contract state of a game whose defenders may defend alone (2.4, 4.4):
    ``defenders_left``: the defenders still to be asked, in order (seat
    indices; None before the offer)."""

    defenders_left: Optional[tuple] = None


@dataclass(frozen=True)
class UpCardRules:
    """The rules of the up-card auction one game plays by (rules.md 2.2-2.3).

    * ``stick_the_dealer``: the dealer may not pass in round 2 (2.3);
    * ``stick_allows_turned_down``: a stuck dealer may name the turned-down suit (2.3);
    * ``alone_timing``: ``"with_call"`` (a call may say "alone", 2.4),
      ``"after_exchange"`` (the maker decides after the dealer's discard) or
      ``"none"`` (no call says alone: two-handed 3.3, Buck 6; cutthroat
      decides at the dummy, 4.3);
    * ``dealer_may_decline_upcard``: after an order-up the dealer may leave
      the up-card (2.2 toggle; 3.2, 4.2 default);
    * ``dealer_may_discard_upcard``: the dealer may discard the card just
      taken up (2.2 toggle, case C7);
    * ``dealers_partner_must_go_alone``: the dealer's partner who accepts
      must play alone (2.2, Canada);
    * ``must_hold_named_suit``: a round-2 caller must hold the suit named (case C5);
    * ``exchange_when_dealer_out``: the dealer still exchanges when the
      dealer's partner goes alone (2.2 says no).
    """

    stick_the_dealer: bool
    stick_allows_turned_down: bool
    alone_timing: str
    dealer_may_decline_upcard: bool
    dealer_may_discard_upcard: bool
    dealers_partner_must_go_alone: bool
    must_hold_named_suit: bool
    exchange_when_dealer_out: bool


class UpCardAuction:
    """Mixin (before :class:`~euchre_events.rules.variant.Variant`): the
    up-card auction of rules.md 2.2-2.3 as the variant's ``start_auction``,
    ``legal`` and ``apply`` for the phases of :class:`UpCardPhase`.

    A variant sets :attr:`fixed_rules` (the rules its rules.md section fixes)
    and may override :meth:`after_exchange` (what follows the exchange;
    default: the play), :meth:`declare_alone` (a call that says alone),
    :meth:`all_passed` (everyone passed twice; default: thrown in) and
    :attr:`no_going_alone` (words of the :class:`ImpossibleEvent` for a call
    that says alone in a game without going alone).  ``Table.auction`` holds
    an :class:`UpCardAuctionState`.
    """

    auction_state: Any = UpCardAuctionState
    contract_state: Any = None

    fixed_rules: Mapping[str, Any] = {}
    """``{UpCardRules field: value}`` that the game's rules.md section fixes;
    every other field of :class:`UpCardRules` is the option of that name."""

    across_assists = True
    """The seat across from the dealer "assists" (2.2; in cutthroat only a
    name, 4.2); False where it is a plain order-up (Buck)."""

    no_going_alone = ""
    """Words of the :class:`ImpossibleEvent` for a call that says alone, in a
    game with no going alone; empty where going alone exists."""

    @cached_property
    def upcard_rules(self) -> UpCardRules:
        """The :class:`UpCardRules` of this game: :attr:`fixed_rules`, then its options."""
        fixed = self.fixed_rules
        return UpCardRules(**{f.name: fixed[f.name] if f.name in fixed else getattr(self.options, f.name)
                              for f in dataclasses.fields(UpCardRules)})

    # ------------------------------------------------------------ deal
    @staticmethod
    def check_up_card(ev) -> None:
        """Raise :class:`ImpossibleEvent` when a deal has no known up-card (2.1)."""
        if ev.up_card is None or ev.up_card == C.UNKNOWN:
            raise ImpossibleEvent("the deal has no up-card")

    def start_auction(self, t: Table) -> None:
        """Round 1 starts with eldest, the seat left of the dealer (rules.md 2.2)."""
        t.phase = UpCardPhase.ROUND1
        t.turn = (t.dealer + 1) % t.n_seats
        t.auction = UpCardAuctionState(passes=0)
        t.contract = self.contract_state() if self.contract_state else None

    # ------------------------------------------------------------ legal
    def legal(self, t: Table) -> tuple:
        """(legal events, reason) in the up-card auction and exchange (rules.md 2.2-2.3)
        and in the offer to defend alone (2.4, 4.4)."""
        r = self.upcard_rules
        ph, s = t.phase, t.turn
        if ph == UpCardPhase.ROUND1:
            acts = [Passed(s), OrderedUp(s)]
            if r.alone_timing == "with_call":
                acts.append(OrderedUp(s, alone=True))
            if r.dealers_partner_must_go_alone and s == (t.dealer + 2) % 4:
                acts = [a for a in acts if not (isinstance(a, OrderedUp) and not a.alone)]
            suit = C.SUIT_NAMES[C.suit_of(t.up_card)]
            if s == t.dealer:
                who = "take it up"
            elif self.across_assists and s == (t.dealer + 2) % t.n_seats:
                who = "assist"
            else:
                who = "order it up"
            return tuple(acts), f"round 1: pass or {who} ({suit} as trump)"
        if ph == UpCardPhase.ROUND2:
            turned = C.suit_of(t.up_card)
            stuck = r.stick_the_dealer and s == t.dealer
            suits = [x for x in C.SUITS if x != turned or (stuck and r.stick_allows_turned_down)]
            if r.must_hold_named_suit:
                suits = [x for x in suits if C.cards_of_suit(t.hands[s], x, x)]
            acts = [] if stuck else [Passed(s)]
            for x in suits:
                acts.append(TrumpNamed(s, x))
                if r.alone_timing == "with_call":
                    acts.append(TrumpNamed(s, x, alone=True))
            reason = (f"round 2: name a suit other than {C.SUIT_NAMES[turned]}"
                      + ("; the dealer is stuck and may not pass" if stuck else ", or pass"))
            return tuple(acts), reason
        if ph == UpCardPhase.PICKUP:
            if t.maker == t.dealer:  # taking it up *is* the exchange (rules.md 2.2, 3.2, 4.2)
                return (UpCardPickedUp(s),), "the dealer took it up: the up-card joins the hand"
            if r.dealer_may_decline_upcard:
                return ((UpCardPickedUp(s), UpCardDeclined(s)),
                        "trump is fixed; the dealer may take the up-card and discard, or leave it")
            return (UpCardPickedUp(s),), "the dealer picks up the up-card"
        if ph == UpCardPhase.DISCARD:
            hand = [c for c in t.hands[s] if c != C.UNKNOWN]
            if not r.dealer_may_discard_upcard:
                hand = [c for c in hand if c != t.up_card]
                return tuple(Discarded(s, c) for c in hand), "the dealer discards one card (not the up-card)"
            return tuple(Discarded(s, c) for c in hand), "the dealer discards one card face down"
        if ph == UpCardPhase.DEFEND:
            return (DefendedAlone(s), PlayedWithPartner(s)), "a defender may defend alone"
        return (), ""

    # ------------------------------------------------------------ apply
    def apply(self, t: Table, ev) -> None:
        """Fold a call, pick-up or discard (rules.md 2.2-2.3), or a defender's
        answer (2.4, 4.4); illegal-but-real calls are flagged.  Raises
        :class:`ImpossibleEvent` for an event the phase cannot contain."""
        ph, k, r = t.phase, ev.kind, self.upcard_rules
        if ph == UpCardPhase.ROUND1 and k == "Passed":
            passes = t.auction.passes + 1
            t.auction = replace(t.auction, passes=passes)
            if passes == t.n_seats:
                t.up_status = UpCardStatus.TURNED_DOWN
                t.phase = UpCardPhase.ROUND2
            t.turn = (t.turn + 1) % t.n_seats
            return
        if ph == UpCardPhase.ROUND1 and k == "OrderedUp":
            t.trump = C.suit_of(t.up_card)
            self._make(t, ev.seat, ev.alone)
            if t.dealer in t.out and not r.exchange_when_dealer_out:
                t.up_status = UpCardStatus.DEALER_OUT
                self.after_exchange(t)
            else:
                t.phase, t.turn = UpCardPhase.PICKUP, t.dealer
            return
        if ph == UpCardPhase.PICKUP and k == "UpCardPickedUp":
            t.hands[t.dealer].append(t.up_card)
            t.up_status = UpCardStatus.PICKED_UP
            t.phase = UpCardPhase.DISCARD
            return
        if (ph == UpCardPhase.PICKUP and k == "UpCardDeclined" and r.dealer_may_decline_upcard
                and t.maker != t.dealer):
            t.up_status = UpCardStatus.LEFT
            self.after_exchange(t)
            return
        if ph == UpCardPhase.DISCARD and k == "Discarded":
            t.remove_card(ev.seat, ev.card, "discard")
            t.discards.append((ev.seat, ev.card))
            self.after_exchange(t)
            return
        if ph == UpCardPhase.ROUND2 and k == "Passed":
            if r.stick_the_dealer and ev.seat == t.dealer:
                # a stuck dealer who passes: illegal but real; the deal is dead
                t.auction = replace(t.auction, stuck_dealer_passed=True)
                flag(t, "stuck-dealer-passed", "the dealer passes although stuck (rules.md 2.3)", ev.seat)
            passes = t.auction.passes + 1
            t.auction = replace(t.auction, passes=passes)
            if passes == 2 * t.n_seats:
                self.all_passed(t)
            else:
                t.turn = (t.turn + 1) % t.n_seats
            return
        if ph == UpCardPhase.ROUND2 and k == "TrumpNamed":
            if ev.suit not in C.SUITS:
                raise ImpossibleEvent(f"{ev.suit!r} is not a suit that can be trump in standard Euchre")
            turned = C.suit_of(t.up_card)
            if ev.suit == turned and not (r.stick_the_dealer and r.stick_allows_turned_down
                                          and ev.seat == t.dealer):
                flag(t, "turned-down-suit-named",
                     f"{C.SUIT_NAMES[turned]} was turned down and may not be named in round 2 (rules.md 2.3)",
                     ev.seat)
            elif r.must_hold_named_suit and not C.cards_of_suit(t.hands[ev.seat], ev.suit, ev.suit):
                flag(t, "named-suit-not-held",
                     f"the caller holds no {C.SUIT_NAMES[ev.suit]} (option must_hold_named_suit)", ev.seat)
            t.trump = ev.suit
            self._make(t, ev.seat, ev.alone)
            self.after_exchange(t)
            return
        if ph == UpCardPhase.DEFEND and k in ("DefendedAlone", "PlayedWithPartner"):
            self._defender_answers(t, ev.seat, k == "DefendedAlone")
            return
        raise ImpossibleEvent(f"{k} is not possible now (phase {ph})")

    def _make(self, t: Table, seat: int, alone: bool) -> None:
        """``seat`` makes trump (in the round being played), alone or not."""
        if alone and self.no_going_alone:
            raise ImpossibleEvent(self.no_going_alone)
        t.maker = seat
        t.auction = replace(t.auction, called_in_round=1 if t.phase == UpCardPhase.ROUND1 else 2)
        if alone:
            self.declare_alone(t, seat)

    # ------------------------------------------------------------ hooks
    def declare_alone(self, t: Table, seat: int) -> None:
        """The maker ``seat`` plays alone: the partner, if any, sits out (2.4;
        in cutthroat, 4.3, nobody sits out: the maker refuses the dummy)."""
        t.alone = seat
        partner = self.partner_of(seat)
        if partner is not None:
            t.out = t.out | {partner}

    def after_exchange(self, t: Table) -> None:
        """What follows trump and the dealer's exchange; default: the play."""
        self.start_play(t)

    def all_passed(self, t: Table) -> None:
        """Everyone passed in both rounds: the deal is thrown in (2.3)."""
        t.phase = Phase.THROWN_IN
        t.turn = None

    # ------------------------------------------------------------ defending alone
    def defenders(self, t: Table) -> list:
        """The seats that may defend alone, in the order they are asked."""
        return [s for s in ((t.dealer + k) % t.n_seats for k in range(1, t.n_seats + 1))
                if self.side_of(s) != self.side_of(t.maker)]

    def offer_defend_alone(self, t: Table) -> None:
        """Ask the defenders in turn whether one defends alone, when the
        ``defend_alone`` option allows it (``"any"``; ``"vs_lone"``: only
        against a lone maker, 2.4, 4.4); otherwise start the play.  The
        contract state (a :class:`DefendAloneState`) keeps who is left to ask."""
        o = self.options
        if o.defend_alone == "any" or (o.defend_alone == "vs_lone" and t.alone is not None):
            order = self.defenders(t)
            t.phase, t.turn = UpCardPhase.DEFEND, order[0]
            t.contract = replace(t.contract, defenders_left=tuple(order[1:]))
            return
        self.start_play(t)

    def _defender_answers(self, t: Table, seat: int, alone: bool) -> None:
        """A defender defends alone (the other defender sits out: 2.4, 4.4)
        and the play starts; or does not, and the next defender is asked."""
        if alone:
            t.lone_defender = seat
            t.out = t.out | {s for s in self.defenders(t) if s != seat}
            self.start_play(t)
            return
        rest = t.contract.defenders_left
        if rest:
            t.turn = rest[0]
            t.contract = replace(t.contract, defenders_left=rest[1:])
        else:
            self.start_play(t)

    # ------------------------------------------------------------ the lead with lone hands
    @staticmethod
    def lead_left_of_loner(t: Table) -> int:
        """The opening lead when a lone hand changes it (rules.md 2.5 toggle
        ``loneLead``, 4.4): with a lone defender, the lone defender if the
        maker is alone too, else the active seat on the lone defender's left;
        with a lone maker only, the active seat on the maker's left; with no
        lone hand, eldest (the active seat left of the dealer)."""
        if t.lone_defender is not None:
            return t.lone_defender if t.alone is not None else t.next_active(t.lone_defender)
        return t.next_active(t.alone if t.alone is not None else t.dealer)
