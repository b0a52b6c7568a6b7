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

The auction is standard Euchre's up-card auction with three bidders
(eldest, across, dealer; reused from
:class:`~euchre_events.variants.standard.StandardEuchre`).  The across
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

Phases: ``round1``, ``pickup``, ``discard``, ``round2`` (as in standard),
``dummy`` (take it or go alone), ``dummy_discard`` (5 discards), ``defend``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from euchre_events.rules import cards as C
from euchre_events.rules.table import ImpossibleEvent, Renege, Table
from euchre_events.rules.variant import Variant, VariantOptions
from euchre_events.events import (CardsDealt, DefendedAlone, Discarded, DummyTaken, PlayedWithPartner,
                      WentAlone)
from euchre_events.rules.variants.standard import StandardEuchre

DEFEND_ALONE = ("off", "vs_lone", "any")
LONE_DEFENDER_SCORING = ("source", "lone_defender_only_4")
RENEGE_PRESETS = ("tournament", "casual")


@dataclass(frozen=True)
class CutthroatOptions(VariantOptions):
    """Options of cutthroat Euchre, defaults from rules.md 4.8 and section 8.

    * ``use_dummy``: a dummy hand is dealt and the maker may take it (4.3), on;
      off = Hoyle's three-hand game (no dummy, 8 cards in the kitty);
    * ``stick_the_dealer``: the dealer may not pass in round 2 (4.2), off;
    * ``stick_allows_turned_down``: a stuck dealer may name the turned-down suit, off;
    * ``dealer_may_decline_upcard``: after an order-up the dealer may leave the
      up-card (4.2, default on); off = the mandatory exchange of standard Euchre;
    * ``dealer_may_discard_upcard``: the dealer may discard the card taken up (2.2), on;
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

    Raises ``ValueError`` for a value outside the listed ones.
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

    # Fixed by the rules of this game (not options, not stored): read by the
    # shared up-card auction of standard.py.  Going alone is decided after
    # the exchange (the ``dummy`` phase), not with the call.
    alone_timing = "none"
    dealers_partner_must_go_alone = False
    must_hold_named_suit = False
    exchange_when_dealer_out = False

    def __post_init__(self):
        checks = {"defend_alone": DEFEND_ALONE, "lone_defender_scoring": LONE_DEFENDER_SCORING,
                  "renege_penalty": RENEGE_PRESETS}
        self.check_choices(checks)
        if self.lone_no_dummy_march not in (3, 4):
            raise ValueError(f"option lone_no_dummy_march={self.lone_no_dummy_march!r}: expected 3 or 4")



class CutthroatEuchre(StandardEuchre):
    """Three-handed cutthroat Euchre with a dummy (rules.md section 4):
    seats 0, 1, 2, each a side; the dummy is a hand, not a seat."""

    name = "cutthroat"
    aliases = ("three-handed", "three_handed", "C")
    options_class = CutthroatOptions
    n_seats = 3
    partnerships = False
    n_sides = 3
    hand_size = 5
    tricks_per_deal = 5

    # ------------------------------------------------------------ dealing
    def next_dealer(self, t: Table) -> int:
        """One player to the left, thrown-in deals included (1.4)."""
        return Variant.next_dealer(self, t)

    def check_dealt(self, t: Table, ev: CardsDealt) -> None:
        """Three hands of 5, an up-card, the dummy's 5 cards and a kitty of 3
        (``use_dummy=False``: no dummy, a kitty of 8); an empty kitty is
        accepted.  Raises :class:`ImpossibleEvent` otherwise (4.1)."""
        Variant.check_dealt(self, t, ev)
        if ev.up_card is None or ev.up_card == C.UNKNOWN:
            raise ImpossibleEvent("the deal has no up-card")
        if ev.ghost:
            raise ImpossibleEvent("cutthroat Euchre has no ghost hand")
        if self.options.use_dummy:
            if len(ev.dummy) != 5:
                raise ImpossibleEvent(f"the dummy holds {len(ev.dummy)} cards, not 5")
            if len(ev.kitty) not in (0, 3):
                raise ImpossibleEvent(f"the kitty holds {len(ev.kitty)} cards, not 3")
        else:
            if ev.dummy:
                raise ImpossibleEvent("a dummy is dealt but the game is played without one (use_dummy off)")
            if len(ev.kitty) not in (0, 8):
                raise ImpossibleEvent(f"the kitty holds {len(ev.kitty)} cards, not 8")

    def deal_cards(self, t: Table, shuffled: Sequence[str]) -> CardsDealt:
        """The deal of rules.md 4.1 from a shuffled deck (24 card codes):
        packets of 3 then 2 (2 then 3 for the others in turn) clockwise from
        the dealer's left: eldest, across, the dummy (dealer's right), the
        dealer; the 21st card up, the last 3 in the kitty."""
        d = t.dealer
        order = [(d + 1) % 3, (d + 2) % 3, "dummy", d]
        if not self.options.use_dummy:
            order.remove("dummy")
        got: dict = {k: [] for k in order}
        rest = list(shuffled)
        for rnd in (0, 1):
            for i, k in enumerate(order):
                n = 3 if (i + rnd) % 2 == 0 else 2
                got[k] += rest[:n]
                rest = rest[n:]
        up = rest.pop(0)
        hands = tuple(tuple(got[s]) for s in range(3))
        return CardsDealt(hands, up, tuple(rest), tuple(got.get("dummy", ())))

    # ------------------------------------------------------------ auction
    def legal(self, t: Table) -> tuple:
        """``(events, reason)``: what the seat on turn may do in this variant's
        auction and exchange phases (rules.md 4.2-4.4); play is the engine's."""
        ph, s = t.phase, t.turn
        if ph == "dummy":
            return ((DummyTaken(s), WentAlone(s)),
                    "the maker takes the dummy (keeps 5 of 10) or goes alone without it")
        if ph == "dummy_discard":
            left = t.x.get("dummy_discards", 0)
            cards = [c for c in t.hands[s] if c != C.UNKNOWN]
            return (tuple(Discarded(s, c) for c in cards),
                    f"the maker keeps 5 of the cards: {left} more to discard face down")
        if ph == "defend":
            return (DefendedAlone(s), PlayedWithPartner(s)), "a defender may defend alone"
        return super().legal(t)

    def apply(self, t: Table, ev) -> None:
        """Fold an auction or exchange event into ``t`` (rules.md 4.2-4.4).
        Raises :class:`ImpossibleEvent` for an event the phase cannot contain."""
        ph, k = t.phase, ev.kind
        if ph == "dummy" and k == "DummyTaken":
            t.hands[ev.seat].extend(t.dummy)
            t.x["dummy_discards"] = len(t.dummy)
            t.x["dummy_taken"] = True
            t.dummy = []
            t.phase = "dummy_discard"
            if t.x["dummy_discards"] == 0:
                self._after_alone(t)
            return
        if ph == "dummy" and k == "WentAlone":
            t.alone = ev.seat
            self._after_alone(t)
            return
        if ph == "dummy_discard" and k == "Discarded":
            t.remove_card(ev.seat, ev.card, "discard")
            t.discards.append((ev.seat, ev.card))
            t.x["dummy_discards"] -= 1
            if t.x["dummy_discards"] == 0:
                self._after_alone(t)
            return
        if ph == "defend" and k in ("DefendedAlone", "PlayedWithPartner"):
            rest = t.x.get("defenders_left", ())
            if k == "DefendedAlone":
                t.lone_defender = ev.seat
                others = [s for s in range(3) if s not in (ev.seat, t.maker)]
                t.out = t.out | set(others)
                self.start_play(t)
            elif rest:
                t.turn = rest[0]
                t.x["defenders_left"] = rest[1:]
            else:
                self.start_play(t)
            return
        if ph in ("dummy", "dummy_discard", "defend"):
            raise ImpossibleEvent(f"{k} is not possible now (phase {ph})")
        super().apply(t, ev)

    def _make(self, t: Table, seat: int, alone: bool) -> None:
        # "alone" declared with the call (a record may say so): the maker
        # refuses the dummy; nobody sits out.
        t.maker = seat
        t.x["called_in_round"] = 1 if t.phase == "round1" else 2
        if alone:
            t.alone = seat

    def _after_exchange(self, t: Table) -> None:
        if self.options.use_dummy and t.alone is None:
            t.phase, t.turn = "dummy", t.maker
            return
        self._after_alone(t)

    def _after_alone(self, t: Table) -> None:
        o = self.options
        if o.defend_alone == "any" or (o.defend_alone == "vs_lone" and t.alone is not None):
            defenders = [(t.maker + 1) % 3, (t.maker + 2) % 3]
            t.phase, t.turn = "defend", defenders[0]
            t.x["defenders_left"] = tuple(defenders[1:])
            return
        self.start_play(t)

    # ------------------------------------------------------------ play
    def first_leader(self, t: Table) -> int:
        """Opening lead (4.4): the lone defender if the maker is alone too;
        else the active player left of whoever declared alone; else eldest."""
        if t.lone_defender is not None:
            if t.alone is not None:
                return t.lone_defender
            return t.next_active(t.lone_defender)
        if t.alone is not None:
            return t.next_active(t.alone)
        return t.next_active(t.dealer)

    # ------------------------------------------------------------ scoring
    def score_deal(self, t: Table) -> list:
        """Points per player (4.5).

        Maker 3-4 tricks: maker +1; 5 tricks: +3 (alone without the dummy:
        ``lone_no_dummy_march``).  Maker 0-2: each defender +2; with a lone
        defender, +2 each, or +4 each when the lone defender took all 5
        (``"lone_defender_only_4"``: only the lone defender, +4).
        """
        o = self.options
        m = t.maker
        n = t.tricks_won[m]
        pts = [0, 0, 0]
        defenders = [s for s in range(3) if s != m]
        if n == 5:
            pts[m] = o.lone_no_dummy_march if t.alone == m else 3
        elif n >= 3:
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

    def game_winner(self, t: Table) -> Optional[int]:
        """The player at ``target_score`` or more; of several, the highest;
        equal highest play another hand, or with ``shared_win`` end the game
        with no single winner (``t.x["shared_winners"]`` lists them) (4.5)."""
        target = self.options.target_score
        over = [s for s in range(3) if t.scores[s] >= target]
        if not over:
            return None
        top = max(t.scores[s] for s in over)
        best = [s for s in over if t.scores[s] == top]
        if len(best) == 1:
            return best[0]
        if self.options.shared_win:
            t.x["shared_winners"] = tuple(best)
            t.game_over = True
            t.phase = "game_over"
        return None

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
