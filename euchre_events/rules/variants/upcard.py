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
the dummy, drop-outs) with :meth:`UpCardAuction.after_exchange`.  The deal
check and the packet deal of these games (2.1, 3.1, 4.1, 6.1) and the lead
when a lone hand moves it (2.5, 4.4) live here too.

Pure: no I/O.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property, lru_cache
from typing import Any, Callable, Mapping, Optional, Sequence

from euchre_events.events import (DefendedAlone, Discarded, OrderedUp, Passed, PlayedWithPartner,
                                  TrumpNamed, UpCardDeclined, UpCardPickedUp)
from euchre_events.rules import cards as C
from euchre_events.rules.table import THROWN_IN, ImpossibleEvent, Table, UpCardStatus, flag


class UpCardPhase(StrEnum):
    """The phases of the up-card auction and of the offer to defend alone."""

    ROUND1 = "round1"    # order up / assist / take it up, or pass (2.2)
    PICKUP = "pickup"    # the dealer takes the up-card (or leaves it, 3.2, 4.2)
    DISCARD = "discard"  # the dealer discards one card face down (2.2)
    ROUND2 = "round2"    # name a suit other than the turned-down one, or pass (2.3)
    DEFEND = "defend"    # each defender in turn may defend alone (2.4, 4.4)


ROUND1, PICKUP, DISCARD, ROUND2, DEFEND = UpCardPhase
"""The members as module constants (see :data:`euchre_events.rules.table.PLAY`)."""

_TURNED_DOWN, _DEALER_OUT, _PICKED_UP, _LEFT = (UpCardStatus.TURNED_DOWN, UpCardStatus.DEALER_OUT,
                                                UpCardStatus.PICKED_UP, UpCardStatus.LEFT)


@dataclass(frozen=True)
class UpCardAuctionState:
    """The auction state of an up-card game (``Table.auction``, rules.md 2.2-2.4).

    * ``passes``: Passed events of this deal so far, both rounds
      (0 .. 2 x seats; ``n_seats`` passes end round 1);
    * ``called_in_round``: 1 or 2 once a seat has made trump, else None;
    * ``stuck_dealer_passed``: a stuck dealer passed in round 2 (illegal but
      real, flagged ``"stuck-dealer-passed"``, 2.3);
    * ``defenders_left``: in the offer to defend alone (2.4, 4.4), the
      defenders still to be asked, in order (seat indices); None before it.

    Build one with :func:`upcard_state`, not the constructor.
    """

    passes: int
    called_in_round: Optional[int] = None
    stuck_dealer_passed: bool = False
    defenders_left: Optional[tuple] = None


@lru_cache(maxsize=None)
def upcard_state(passes: int, called_in_round: Optional[int] = None,
                 stuck_dealer_passed: bool = False,
                 defenders_left: Optional[tuple] = None) -> UpCardAuctionState:
    """The :class:`UpCardAuctionState` with these values, one shared instance
    per value (it is frozen).  The fold makes one on almost every event of
    every up-card deal: a cached lookup costs about a tenth of
    :func:`dataclasses.replace` there (the standard replay benchmark), and
    the values are few (passes 0-8, a round, a flag, a tuple of seats)."""
    return UpCardAuctionState(passes, called_in_round, stuck_dealer_passed, defenders_left)


@lru_cache(maxsize=None)
def _initial(state_class: Any) -> Any:
    """The all-defaults instance of a contract state class (shared: it is frozen), or None."""
    return state_class() if state_class is not None else None


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


# ---------------------------------------------------------------- the rules, once
# Pure functions of an UpCardRules and seat numbers: the engine's fold
# (UpCardAuction below) and the replay shortcut (rules/fastcore.py) both ask
# these, so each rule of the auction is written here only.

_MADE: dict = {}
"""``{(event class, fields): event}``: the auction's and the exchange's legal
actions made once (events are immutable; the solver asks :meth:`legal` at
every node of its search, as the engine's play makes each CardPlayed once)."""


def _made(cls, *fields):
    """``cls(*fields)``, the one object for these fields (:data:`_MADE`)."""
    key = (cls, fields)
    ev = _MADE.get(key)
    if ev is None:
        ev = cls(*fields)
        if len(_MADE) < 10_000:
            _MADE[key] = ev
    return ev


def dealer_is_stuck(r: UpCardRules, seat: int, dealer: int) -> bool:
    """True if ``seat`` is a stuck dealer in round 2: under
    ``stick_the_dealer`` the dealer may not pass (rules.md 2.3)."""
    return r.stick_the_dealer and seat == dealer


def may_name_turned_down(r: UpCardRules, seat: int, dealer: int) -> bool:
    """True if ``seat`` may name the turned-down suit in round 2: only a
    stuck dealer, and only under ``stick_allows_turned_down`` (rules.md 2.3)."""
    return r.stick_the_dealer and r.stick_allows_turned_down and seat == dealer


def may_discard(r: UpCardRules, card: str, up_card: str) -> bool:
    """True if the dealer may discard ``card`` after taking up ``up_card``:
    any card, unless the keep-the-up-card rule holds
    (``dealer_may_discard_upcard`` off; rules.md 2.2, 2.9, case C7)."""
    return r.dealer_may_discard_upcard or card != up_card


def defence_offered(defend_alone: str, maker_alone: bool) -> bool:
    """True if the defenders are asked whether one defends alone: option
    ``defend_alone`` ``"any"``, or ``"vs_lone"`` against a lone maker
    (rules.md 2.4, 4.4); ``"off"``: never."""
    return defend_alone == "any" or (defend_alone == "vs_lone" and maker_alone)


def defender_order(dealer: int, maker: int, n_seats: int, side_of: Callable[[int], Any]) -> list:
    """The seats that may defend alone, in the order they are asked: from
    the dealer's left clockwise (the dealer last), those not on the maker's
    side (``side_of``: seat -> side; rules.md 2.4, 4.4)."""
    return [s for s in ((dealer + k) % n_seats for k in range(1, n_seats + 1))
            if side_of(s) != side_of(maker)]


def loner_lead_seat(dealer: int, alone: Optional[int], lone_defender: Optional[int],
                    next_active: Callable[[int], int]) -> int:
    """The opening lead when a lone hand changes it (rules.md 2.5 toggle
    ``loneLead``, 4.4): with a lone defender, the lone defender if the maker
    is alone too, else the active seat on the lone defender's left; with a
    lone maker only, the active seat on the maker's left; with no lone
    hand, eldest.  ``next_active``: seat -> the next seat clockwise that
    takes part in the play."""
    if lone_defender is not None:
        return lone_defender if alone is not None else next_active(lone_defender)
    return next_active(alone if alone is not None else dealer)


class UpCardAuction:
    """Mixin (before :class:`~euchre_events.rules.variant.Variant`): the
    up-card auction of rules.md 2.2-2.3 as the variant's ``start_auction``,
    ``legal`` and ``apply`` for the phases of :class:`UpCardPhase`.

    A variant sets :attr:`fixed_rules` (the rules its rules.md section fixes)
    and may override :meth:`after_exchange` (what follows the exchange;
    default: the play), :meth:`declare_alone` (a call that says alone),
    :meth:`all_passed` (everyone passed twice; default: thrown in),
    :meth:`name_no_trump` (a round-2 call of no-trump; default: impossible),
    :meth:`legal_own` / :meth:`apply_own` (the phases the variant adds) and
    :attr:`no_going_alone` (words of the :class:`ImpossibleEvent` for a call
    that says alone in a game without going alone).  ``Table.auction`` holds
    an :class:`UpCardAuctionState` (built with :func:`upcard_state`).
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
    kitty_size = 3
    """Cards left face down after the up-card (2.1); a record may leave them unstated (0)."""
    kitty_name = "the kitty"
    absent_hands: tuple = ()
    """Hands of :class:`CardsDealt` this game never deals (``"dummy"``, ``"ghost"``)."""
    game_title = "this game"
    """The game in words, for messages."""

    def check_dealt(self, t: Table, ev) -> None:
        """Hands of ``hand_size`` for every seat, a known up-card, none of
        :attr:`absent_hands`, the other hands (:meth:`check_other_hands`), a
        kitty of :attr:`kitty_size` cards or none stated (rules.md 2.1, 3.1,
        4.1, 6.1).  Raises :class:`ImpossibleEvent` at the first that is not so."""
        super().check_dealt(t, ev)
        if ev.up_card is None or ev.up_card == C.UNKNOWN:
            raise ImpossibleEvent("the deal has no up-card")
        if any(getattr(ev, h) for h in self.absent_hands):
            raise ImpossibleEvent(f"{self.game_title} has no {' or '.join(self.absent_hands)} hand")
        self.check_other_hands(ev)
        if len(ev.kitty) not in (0, self.kitty_size):
            raise ImpossibleEvent(f"{self.kitty_name} holds {len(ev.kitty)} cards, not {self.kitty_size}")

    def check_other_hands(self, ev) -> None:
        """Check a hand a game deals besides the seats' (the dummy, 4.1); none here."""

    @staticmethod
    def deal_packets(shuffled: Sequence[str], receivers: Sequence, rounds: Sequence[Sequence[int]]):
        """Deal ``shuffled`` (card codes) in rounds of packets (rules.md 2.1,
        3.1, 4.1, 6.1): in each round every receiver (seat index, or a name
        such as ``"dummy"``) in ``receivers`` order gets the number of cards
        ``rounds[i]`` gives it, in the same order.  Returns
        ``({receiver: [cards]}, the cards left)``; the first left is the up-card."""
        got: dict = {r: [] for r in receivers}
        rest = list(shuffled)
        for sizes in rounds:
            for r, n in zip(receivers, sizes):
                got[r] += rest[:n]
                rest = rest[n:]
        return got, rest

    @staticmethod
    def crossed_packets(n_receivers: int, first: int) -> tuple:
        """The two rounds of the usual deal of five (2.1): ``first`` cards (3 or
        2) to the first receiver, the other size to the next, alternating; in
        round 2 each receiver gets the other size."""
        other = 5 - first
        return (tuple(first if i % 2 == 0 else other for i in range(n_receivers)),
                tuple(other if i % 2 == 0 else first for i in range(n_receivers)))

    def start_auction(self, t: Table) -> None:
        """Round 1 starts with eldest, the seat left of the dealer (rules.md 2.2)."""
        t.phase = ROUND1
        t.turn = (t.dealer + 1) % t.n_seats
        t.auction = upcard_state(0)
        cs = self.contract_state
        t.contract = None if cs is None else _initial(cs)

    # ------------------------------------------------------------ legal
    def legal(self, t: Table) -> tuple:
        """(legal events, reason) in the up-card auction and exchange (rules.md 2.2-2.3)
        and in the offer to defend alone (2.4, 4.4)."""
        r = self.upcard_rules
        ph, s = t.phase, t.turn
        if ph == ROUND1:
            acts = [_made(Passed, s), _made(OrderedUp, s, False)]
            if r.alone_timing == "with_call":
                acts.append(_made(OrderedUp, s, True))
            if (r.dealers_partner_must_go_alone and s == (t.dealer + 2) % 4
                    and r.alone_timing == "with_call"):
                # the Canadian rule (2.2): the call itself says alone; with
                # alone_timing="after_exchange" the partner orders up and the
                # alone decision comes after the exchange (standard's ALONE)
                acts = [a for a in acts if not (isinstance(a, OrderedUp) and not a.alone)]
            suit = C.SUIT_NAMES[C.suit_of(t.up_card)]
            if s == t.dealer:
                who = "take it up"
            elif self.across_assists and s == (t.dealer + 2) % t.n_seats:
                who = "assist"
            else:
                who = "order it up"
            return tuple(acts), f"round 1: pass or {who} ({suit} as trump)"
        if ph == ROUND2:
            turned = C.suit_of(t.up_card)
            stuck = dealer_is_stuck(r, s, t.dealer)
            suits = [x for x in C.SUITS if x != turned or may_name_turned_down(r, s, t.dealer)]
            if r.must_hold_named_suit:
                suits = self._held_suits(t, s, suits)
            acts = [] if stuck else [_made(Passed, s)]
            for x in suits:
                acts.append(_made(TrumpNamed, s, x, False))
                if r.alone_timing == "with_call":
                    acts.append(_made(TrumpNamed, s, x, True))
            reason = (f"round 2: name a suit other than {C.SUIT_NAMES[turned]}"
                      + ("; the dealer is stuck and may not pass" if stuck else ", or pass"))
            return tuple(acts), reason
        if ph == PICKUP:
            if t.maker == t.dealer:  # taking it up *is* the exchange (rules.md 2.2, 3.2, 4.2)
                return (_made(UpCardPickedUp, s),), "the dealer took it up: the up-card joins the hand"
            if r.dealer_may_decline_upcard:
                return ((_made(UpCardPickedUp, s), _made(UpCardDeclined, s)),
                        "trump is fixed; the dealer may take the up-card and discard, or leave it")
            return (_made(UpCardPickedUp, s),), "the dealer picks up the up-card"
        if ph == DISCARD:
            hand = [c for c in t.hands[s] if c != C.UNKNOWN]
            if not r.dealer_may_discard_upcard:
                hand = [c for c in hand if may_discard(r, c, t.up_card)]
                return tuple([_made(Discarded, s, c) for c in hand]), (
                    "the dealer discards one card (not the up-card: the dealer keeps it, rules.md 2.2)")
            return tuple([_made(Discarded, s, c) for c in hand]), "the dealer discards one card face down"
        if ph == DEFEND:
            return (_made(DefendedAlone, s), _made(PlayedWithPartner, s)), "a defender may defend alone"
        return self.legal_own(t)

    def legal_own(self, t: Table) -> tuple:
        """(legal events, reason) in the variant's own phases (after the auction); none here."""
        return (), ""

    # ------------------------------------------------------------ apply
    def apply(self, t: Table, ev) -> None:
        """Fold a call, pick-up or discard (rules.md 2.2-2.3), or a defender's
        answer (2.4, 4.4); illegal-but-real calls are flagged.  Raises
        :class:`ImpossibleEvent` for an event the phase cannot contain."""
        ph, k = t.phase, ev.kind
        if ph == ROUND1:
            if k == "Passed":
                passes = t.auction.passes + 1
                t.auction = upcard_state(passes)  # in round 1 nothing but the passes is set yet
                if passes == t.n_seats:
                    t.up_status = _TURNED_DOWN
                    t.phase = ROUND2
                t.turn = (t.turn + 1) % t.n_seats
                return
            if k == "OrderedUp":
                t.trump = C.suit_of(t.up_card)
                self._make(t, ev.seat, ev.alone)
                if not ev.alone and self.upcard_rules.alone_timing == "with_call":
                    self.check_canadian(t, ev.seat)
                if t.dealer in t.out and not self.upcard_rules.exchange_when_dealer_out:
                    t.up_status = _DEALER_OUT
                    self.after_exchange(t)
                else:
                    t.phase, t.turn = PICKUP, t.dealer
                return
        elif ph == PICKUP:
            if k == "UpCardPickedUp":
                t.hands[t.dealer].append(t.up_card)
                t.up_status = _PICKED_UP
                t.phase = DISCARD
                return
            if k == "UpCardDeclined" and self.upcard_rules.dealer_may_decline_upcard and t.maker != t.dealer:
                t.up_status = _LEFT
                self.after_exchange(t)
                return
        elif ph == DISCARD:
            if k == "Discarded":
                self._check_upcard_kept(t, ev)
                t.remove_card(ev.seat, ev.card, "discard")
                t.discards.append((ev.seat, ev.card))
                self.after_exchange(t)
                return
        elif ph == ROUND2:
            if k == "Passed":
                self._round2_pass(t, ev.seat)
                return
            if k == "TrumpNamed":
                self._round2_call(t, ev)
                return
        elif ph == DEFEND:
            if k in ("DefendedAlone", "PlayedWithPartner"):
                self._defender_answers(t, ev.seat, k == "DefendedAlone")
                return
        self.apply_own(t, ev)

    def _check_upcard_kept(self, t: Table, ev) -> None:
        """Under the `keep the up-card` rule (``dealer_may_discard_upcard``
        off; rules.md 2.2, 2.9 ``dealerMayDiscardUpcard``; docs/cases.md C7)
        a dealer who discards the up-card just taken up breaks it: illegal
        but real, so the discard is kept and flagged ``"upcard-discarded"``
        (docs/design.md "Three kinds of wrong").  A face-down discard
        recorded as ``"??"`` cannot be told apart and is not flagged."""
        if may_discard(self.upcard_rules, ev.card, t.up_card):
            return
        flag(t, "upcard-discarded",
             f"the dealer discarded the up-card {ev.card}, which the dealer must keep under the "
             f"keep-the-up-card rule (option dealer_may_discard_upcard off; rules.md 2.2, 2.9 "
             f"dealerMayDiscardUpcard, docs/cases.md C7); the discard is kept as recorded",
             ev.seat)

    def _round2_pass(self, t: Table, seat: int) -> None:
        """A pass in round 2; a stuck dealer's pass is flagged (2.3); the last
        pass ends the auction (:meth:`all_passed`)."""
        r, a = self.upcard_rules, t.auction
        stuck = a.stuck_dealer_passed
        if dealer_is_stuck(r, seat, t.dealer):
            # a stuck dealer who passes: illegal but real; the deal is dead
            stuck = True
            flag(t, "stuck-dealer-passed", "the dealer passes although stuck (rules.md 2.3)", seat)
        passes = a.passes + 1
        t.auction = upcard_state(passes, a.called_in_round, stuck, a.defenders_left)
        if passes == 2 * t.n_seats:
            self.all_passed(t)
        else:
            t.turn = (t.turn + 1) % t.n_seats

    def _round2_call(self, t: Table, ev) -> None:
        """A suit named in round 2 (2.3): the turned-down suit, or a suit the
        caller does not hold under ``must_hold_named_suit``, is flagged and stands."""
        if ev.suit is None:
            self.name_no_trump(t, ev)
            return
        if ev.suit not in C.SUITS:
            raise ImpossibleEvent(f"{ev.suit!r} is not a suit that can be trump in standard Euchre")
        r = self.upcard_rules
        turned = C.suit_of(t.up_card)
        if ev.suit == turned and not may_name_turned_down(r, ev.seat, t.dealer):
            flag(t, "turned-down-suit-named",
                 f"{C.SUIT_NAMES[turned]} was turned down and may not be named in round 2 (rules.md 2.3)",
                 ev.seat)
        elif r.must_hold_named_suit and ev.suit not in self._held_suits(t, ev.seat, [
                x for x in C.SUITS if x != turned or may_name_turned_down(r, ev.seat, t.dealer)]):
            flag(t, "named-suit-not-held",
                 f"the caller holds no {C.SUIT_NAMES[ev.suit]} (option must_hold_named_suit)", ev.seat)
        t.trump = ev.suit
        self._make(t, ev.seat, ev.alone)
        self.after_exchange(t)

    @staticmethod
    def _held_suits(t: Table, seat: int, suits: list) -> list:
        """Of ``suits`` (the suits ``seat`` may name in round 2), those it
        may hold a card of, as trump (``must_hold_named_suit``, case C5; the
        left bower counts, rules.md 1.2).  A card the record does not state
        (``??``, or ``?D`` of unknown rank) may be one: such a suit is never
        ruled out, so an unknown hand is not accused of naming a suit it
        does not hold (docs/design.md "Three kinds of wrong": unknown stays
        unknown)."""
        hand = t.hands[seat]
        return [x for x in suits if any(x in C.possible_suits(c, x) for c in hand)]

    def apply_own(self, t: Table, ev) -> None:
        """Fold an event of the variant's own phases (after the auction);
        here, none: raises :class:`ImpossibleEvent`."""
        raise ImpossibleEvent(f"{ev.kind} is not possible now (phase {t.phase})")

    def _make(self, t: Table, seat: int, alone: bool) -> None:
        """``seat`` makes trump (in the round being played), alone or not."""
        if alone and self.no_going_alone:
            raise ImpossibleEvent(self.no_going_alone)
        t.maker = seat
        a = t.auction  # a call ends the auction: no defender has been asked yet
        t.auction = upcard_state(a.passes, 1 if t.phase == ROUND1 else 2, a.stuck_dealer_passed)
        if alone:
            self.declare_alone(t, seat)

    def check_canadian(self, t: Table, seat: int) -> None:
        """Under the Canadian rule (``dealers_partner_must_go_alone``, rules.md
        2.2, EGN ``canadian``) the dealer's partner who accepts the up-card
        must play alone; ``seat`` has just accepted it (in round 1) and does
        not: illegal but real, so the call is kept as recorded (the partner
        plays) and flagged ``"canadian-not-alone"``."""
        if self.upcard_rules.dealers_partner_must_go_alone and seat == (t.dealer + 2) % t.n_seats:
            flag(t, "canadian-not-alone",
                 f"seat {seat}, the dealer's partner, orders up the up-card without going alone, "
                 "which the Canadian rule forbids (option dealers_partner_must_go_alone, rules.md "
                 "2.2); the call is kept as recorded and the partner plays", seat)

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

    def name_no_trump(self, t: Table, ev) -> None:
        """A round-2 call of no-trump (``TrumpNamed`` with no suit): not a
        call of the up-card auction (2.3), so :class:`ImpossibleEvent`;
        Buck may allow it (6.1, ``no_trump_callable``)."""
        raise ImpossibleEvent(f"{ev.suit!r} is not a suit that can be trump in standard Euchre")

    def all_passed(self, t: Table) -> None:
        """Everyone passed in both rounds: the deal is thrown in (2.3)."""
        t.phase = THROWN_IN
        t.turn = None

    # ------------------------------------------------------------ defending alone
    def defenders(self, t: Table) -> list:
        """The seats that may defend alone, in the order they are asked."""
        return defender_order(t.dealer, t.maker, t.n_seats, self.side_of)

    def offer_defend_alone(self, t: Table) -> None:
        """Ask the defenders in turn whether one defends alone, when the
        ``defend_alone`` option allows it (``"any"``; ``"vs_lone"``: only
        against a lone maker, 2.4, 4.4); otherwise start the play.  The
        auction state keeps who is left to ask (``defenders_left``)."""
        if defence_offered(self.options.defend_alone, t.alone is not None):
            order = self.defenders(t)
            t.phase, t.turn = DEFEND, order[0]
            a = t.auction
            t.auction = upcard_state(a.passes, a.called_in_round, a.stuck_dealer_passed, tuple(order[1:]))
            return
        self.start_play(t)

    def _defender_answers(self, t: Table, seat: int, alone: bool) -> None:
        """A defender defends alone (the other defender sits out: 2.4, 4.4)
        and the play starts; or does not, and the next defender is asked."""
        if alone:
            t.lone_defender = seat
            partner = self.partner_of(seat)   # the lone defender's partner sits out (2.4);
            t.out = t.out | ({partner} if partner is not None   # else the other defender (4.4)
                             else {s for s in range(t.n_seats) if s not in (seat, t.maker)})
            self.start_play(t)
            return
        a = t.auction
        rest = a.defenders_left
        if rest:
            t.turn = rest[0]
            t.auction = upcard_state(a.passes, a.called_in_round, a.stuck_dealer_passed, rest[1:])
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
        return loner_lead_seat(t.dealer, t.alone, t.lone_defender, t.next_active)
