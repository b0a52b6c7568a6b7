"""Standard four-player Euchre (rules.md section 2) and docs/cases.md C1-C7.

Seats: 0 = N, 1 = E, 2 = S, 3 = W (clockwise); side 0 = N/S, side 1 = E/W.
Every expected value is worked out by hand from rules.md / docs/cases.md; the
comments give the reasoning.
"""
import pytest

from builders import Recorder, one_game
from euchre_events.rules.cards import deck
from euchre_events.rules.engine import ImpossibleEvent
from euchre_events.events import (CardPlayed, CardsDealt, DealStarted, DealThrownIn,
                                  DefendedAlone, Discarded, GameStarted, OrderedUp, Passed,
                                  PlayedWithPartner, TrumpNamed, UpCardPickedUp)
from euchre_events.projections import Game

N, E, S, W = 0, 1, 2, 3
NS, EW = 0, 1


def cards(text):
    return tuple(text.split())


class Hand(Recorder):
    """Builds a standard game event by event and folds it as it goes."""

    def __init__(self, dealer, deal_no=1, **options):
        super().__init__(GameStarted("standard", options, ("N", "E", "S", "W"), first_dealer=dealer))
        self.next_deal(dealer, deal_no)

    def next_deal(self, dealer, deal_no=None):
        self.add(DealStarted(deal_no or self.t.deal_no + 1, dealer))
        return self

    def deal(self, n, e, s, w, up):
        """Deal the four hands (strings of codes) and the up-card; the three
        cards left over are the kitty."""
        hands = (cards(n), cards(e), cards(s), cards(w))
        used = set(sum(hands, ())) | {up}
        kitty = tuple(c for c in deck() if c not in used)
        assert len(kitty) == 3, kitty
        return self.add(CardsDealt(hands, up, kitty))

    def legal(self):
        return self.legal_actions()

    def legal_cards(self):
        return [e.card for e in self.legal()[0]]

    def winners(self):
        return [w for (_, _, w) in self.t.tricks]



# ====================================================================== C1

# Trump hearts (named by N in round 2 after the spade up-card is turned down,
# dealer W so N leads).  East holds JD 9C KS QS TC.
C1_HANDS = dict(n="AD 9H AH KH QH", e="JD 9C KS QS TC", s="JC QC KC AC 9D",
                w="TD QD KD TH JH", up="9S")


def c1_hand(**options):
    h = Hand(W, **options).deal(**C1_HANDS)
    h.add(Passed(N), Passed(E), Passed(S), Passed(W), TrumpNamed(N, "H"))
    assert h.t.trump == "H" and h.t.turn == N
    return h


def test_c1a_void_in_diamonds_all_five_legal():
    h = c1_hand().play("AD")                     # N leads the ace of diamonds
    assert h.t.turn == E
    assert sorted(h.legal_cards()) == sorted(cards("JD 9C KS QS TC"))
    reason = h.legal()[1]
    assert "void in diamonds" in reason
    assert "jack of diamonds counts as a heart" in reason
    h.play("9C")                                 # legal: no renege
    assert h.t.reneges == []
    assert h.game().audit() == []


def test_c1b_must_play_left_bower_on_trump_lead():
    h = c1_hand().play("9H")                     # N leads a trump
    assert h.legal_cards() == ["JD"]
    reason = h.legal()[1]
    assert reason.startswith("must follow hearts")
    assert "jack of diamonds counts as a heart" in reason


@pytest.mark.parametrize("renege_card", ["9C", "KS", "QS", "TC"])
def test_c1b_other_cards_are_reneges(renege_card):
    h = c1_hand().play("9H", renege_card)        # E does not play his JD: a renege, kept
    assert len(h.t.reneges) == 1
    findings = h.game().audit()
    assert len(findings) == 1
    f = findings[0]
    assert (f.kind, f.deal, f.trick, f.seat, f.card, f.led_suit) == ("renege", 1, 1, E, renege_card, "H")
    assert f.evidence == ("JD",)
    assert f.proven is None                      # E has not shown JD yet


def test_c1b_renege_proven_when_left_bower_shows():
    # T1: N 9H, E 9C (renege), S 9D (no hearts), W TH -> W wins (TH > 9H).
    # T2: W leads JH, N AH, E JD (shows the evidence), S JC -> W wins (right bower).
    h = c1_hand().play("9H", "9C", "9D", "TH")
    assert h.winners() == [W]
    h.play("JH", "AH", "JD", "JC")
    assert h.winners() == [W, W]
    [f] = h.game().audit()
    assert f.proven == {"trick": 2, "position": 14, "card": "JD"}   # events 8-11 trick 1, 12 JH, 13 AH, 14 JD
    assert "trick 2" in f.established


def test_left_bower_led_suit_reason():
    # trump hearts, S leads... use a club lead where a seat holds the jack of the
    # same colour as trump: trump spades, clubs led, W holds JC and 9C.
    h = Hand(W).deal(n="AC 9H AH KH QH", e="JD TC KS QS 9D", s="JH QC KC TH TD",
                     w="JC 9C QD KD AD", up="9S")
    h.add(OrderedUp(N), UpCardPickedUp(W), Discarded(W, "9S"))
    assert h.t.trump == "S"
    h.play("AC", "TC", "QC")                    # N, E, S follow clubs
    assert h.legal_cards() == ["9C"]             # JC is a spade here
    assert h.legal()[1] == "must follow clubs; the jack of clubs is a trump here, not a club"


# ====================================================================== C2

def test_c2_left_bower_wins_trick_in_play():
    # Trump spades (N orders up the 9S, W picks up and discards it).
    # N leads AH, E 9H, S KH, W (void in hearts) JC: W wins with the left bower.
    h = Hand(W).deal(n="AH TC 9D QD AS", e="9H KC AC 9C TD", s="KH QH TH JH JD",
                     w="JC AD KD QS KS", up="9S")
    h.add(OrderedUp(N), UpCardPickedUp(W), Discarded(W, "9S"))
    h.play("AH", "9H", "KH")
    assert "JC" in h.legal_cards()               # W is void in hearts: any card
    h.play("JC")
    assert h.winners() == [W]
    assert h.t.turn == W                          # the winner leads next


# ====================================================================== C3

C3_TRICKS = [
    [(N, "KC"), (E, "9H"), (S, "AC"), (W, "9C")],
    [(E, "AD"), (S, "QH"), (W, "TH"), (N, "QD")],
    [(S, "KS"), (W, "KH"), (N, "AS"), (E, "JS")],
    [(W, "JH"), (N, "9S"), (E, "TC"), (S, "TS")],
    [(W, "AH"), (N, "TD"), (E, "KD"), (S, "QC")],
]


def c3_events(**options):
    # Dealer W, up-card TH; W's hand before the pick-up is JH AH KH 9C 9D.
    h = Hand(W, **options).deal(n="KC AS QD 9S TD", e="TC 9H AD KD JS", s="AC QC KS TS QH",
                                w="JH AH KH 9C 9D", up="TH")
    assert h.t.kitty == ["JC", "JD", "QS"]
    h.add(Passed(N), Passed(E), OrderedUp(S), UpCardPickedUp(W), Discarded(W, "9D"))
    assert [sorted(x) for x in h.t.hands] == [sorted(cards(x)) for x in (
        "KC AS QD 9S TD", "TC 9H AD KD JS", "AC QC KS TS QH", "JH AH KH TH 9C")]
    for trick in C3_TRICKS:
        for seat, card in trick:
            h.add(CardPlayed(seat, card))
    return h


def test_c3_trick_winners_and_unpenalized_score():
    h = c3_events()
    assert h.t.trump == "H" and h.t.maker == S
    assert h.winners() == [E, S, W, W, W]
    g = h.game()
    assert g.final_score == [0, 2]               # N/S euchred: E/W +2
    assert h.t.deal_results == [(1, (0, 2), "played")]
    assert g.winner is None


def test_c3_audit():
    g = c3_events().game()
    [f] = g.audit()
    assert (f.deal, f.trick, f.seat, f.card, f.led_suit) == (1, 1, E, "9H", "C")
    assert f.evidence == ("TC",)                 # E held TC when KC was led
    assert f.position == 9                       # GameStarted..Discarded are events 0..7, N's KC 8, E's 9H 9
    assert f.proven == {"trick": 4, "position": 22, "card": "TC"}   # trick 4: 20 JH, 21 9S, 22 TC
    assert "trick 2" in f.established            # E led to trick 2: no longer correctable
    assert f.penalty_points == (2, 0)            # tournament: N/S 2, the hand ends
    assert f.score_if_penalized == (2, 0)        # the euchre is void
    assert "N/S score 2" in f.penalty


def test_c3_corrected_play_is_no_renege():
    # Had E played TC instead of 9H to trick 1, there is nothing to flag.
    h = Hand(W).deal(n="KC AS QD 9S TD", e="TC 9H AD KD JS", s="AC QC KS TS QH",
                     w="JH AH KH 9C 9D", up="TH")
    h.add(Passed(N), Passed(E), OrderedUp(S), UpCardPickedUp(W), Discarded(W, "9D"))
    h.play("KC", "TC", "AC", "9C")
    assert h.winners() == [S]                    # AC is the highest club
    assert h.game().audit() == []


@pytest.mark.parametrize("preset, points, final, abandons", [
    ("tournament", (2, 0), (2, 0), "hand ends"),        # N/S +2, euchre void
    ("casual", (2, 2), (2, 2), "scored as played"),     # hand as played (E/W 2) then N/S +2
    ("deduct", (0, 0), (0, 0), "scored as played"),     # hand as played (E/W 2) then E/W -2
    ("laws1888", (3, 2), (3, 2), "1888"),               # 3 to N/S (not a lone hand), hand stands
])
def test_c3_renege_presets(preset, points, final, abandons):
    """rules.md 2.7: tournament / casual / deduct / laws1888 on the C3 deal."""
    g = c3_events(renege_penalty=preset).game()
    assert g.final_score == [0, 2]               # the fold itself never applies a penalty
    [f] = g.audit()
    assert f.penalty_points == points
    assert f.score_if_penalized == final
    assert abandons in f.penalty


# ====================================================================== C4

def c4_hand(**options):
    # Dealer E (1), up-card TD; S, W, N, E pass round 1; S, W, N pass round 2.
    h = Hand(E, **options).deal(n="9C TC JC QC KC", e="AC 9S TS JS QS", s="KS AS 9H TH JH",
                                w="QH KH AH 9D JD", up="TD")
    assert h.t.turn == S
    h.add(Passed(S), Passed(W), Passed(N), Passed(E))
    assert h.t.up_status == "turned down"
    h.add(Passed(S), Passed(W), Passed(N))
    assert h.t.turn == E
    return h


def test_c4_stick_the_dealer():
    h = c4_hand(stick_the_dealer=True)
    acts, reason = h.legal()
    assert not any(isinstance(a, Passed) for a in acts)            # no pass
    assert {a.suit for a in acts} == {"C", "H", "S"}               # not diamonds (turned down)
    assert all(isinstance(a, TrumpNamed) and a.seat == E for a in acts)
    assert "may not pass" in reason


def test_c4_stick_the_dealer_turned_down_suit_toggle():
    h = c4_hand(stick_the_dealer=True, stick_allows_turned_down=True)
    assert {a.suit for a in h.legal()[0]} == {"C", "D", "H", "S"}


def test_c4_without_stick_the_dealer_deal_thrown_in_next_dealer_left():
    h = c4_hand()
    acts, _ = h.legal()
    assert Passed(E) in acts
    assert {a.suit for a in acts if isinstance(a, TrumpNamed)} == {"C", "H", "S"}
    h.add(Passed(E))
    assert h.legal()[0] == (DealThrownIn("all passed"),)
    h.add(DealThrownIn("all passed"))
    assert h.t.scores == [0, 0]                                    # scoreless
    assert h.t.deal_results == [(1, (0, 0), "all passed")]
    assert h.legal()[0] == (DealStarted(2, S),)                    # the deal passes to the left
    h.next_deal(S)
    g = h.game()
    assert g.deals == 2 and g.final_score == [0, 0]
    assert any(isinstance(e, DealThrownIn) for e in g.events)


def test_c4_thrown_in_same_dealer_option():
    h = c4_hand(thrown_in_next_dealer="same")
    h.add(Passed(E), DealThrownIn("all passed"))
    assert h.legal()[0] == (DealStarted(2, E),)                    # E deals again


def test_no_throw_in_while_the_auction_is_open():
    h = c4_hand()
    with pytest.raises(ImpossibleEvent):
        h.add(DealThrownIn("all passed"))                          # E has not passed yet


# ====================================================================== C5

def c5_hand(**options):
    # Dealer N, up-card 9S turned down; E (eldest) holds AD KD QC TC 9D.
    h = Hand(N, **options).deal(n="AS KS QS JS TS", e="AD KD QC TC 9D", s="9H TH JH QH KH",
                                w="AH 9C JC KC AC", up="9S")
    h.add(Passed(E), Passed(S), Passed(W), Passed(N))
    assert h.t.turn == E and h.t.phase == "round2"
    return h


def test_c5_naming_a_suit_not_held_is_legal_by_default():
    h = c5_hand()
    assert TrumpNamed(E, "H") in h.legal()[0]
    assert TrumpNamed(E, "S") not in h.legal()[0]                  # the turned-down suit
    h.add(TrumpNamed(E, "H"))
    assert h.t.trump == "H" and h.t.maker == E and h.t.side_of(h.t.maker) == EW
    assert h.t.phase == "play" and h.t.turn == E                   # eldest leads


def test_c5_must_hold_named_suit_option():
    h = c5_hand(must_hold_named_suit=True)
    named = {a.suit for a in h.legal()[0] if isinstance(a, TrumpNamed)}
    assert named == {"C", "D"}                                     # he holds clubs and diamonds only


# ====================================================================== C6

def c6_hand(**options):
    # Dealer N; W orders up spades alone, so E (W's partner) sits out.
    h = Hand(N, **options).deal(n="AS KS QS JS TS", e="AD KD QC TC 9D", s="9H TH JH QH KH",
                                w="AH 9C JC KC AC", up="9S")
    h.add(Passed(E), Passed(S), OrderedUp(W, alone=True), UpCardPickedUp(N), Discarded(N, "9S"))
    assert h.t.out == frozenset({E}) and h.t.alone == W
    return h


def test_c6_standard_lead_skips_the_sitting_out_partner():
    h = c6_hand()
    assert h.t.phase == "play" and h.t.leader == S and h.t.turn == S


def test_c6_left_of_loner_lead():
    h = c6_hand(loner_lead="left_of_loner")
    assert h.t.leader == N and h.t.turn == N


def test_both_alone_lone_defender_leads_under_left_of_loner():
    # Dealer W.  N orders up alone (S out), W takes the up-card; E declines to
    # defend alone, W defends alone (E out).  rules.md 2.5: eldest (N) leads by
    # default; under left_of_loner the lone defender leads when both are alone.
    calls = [OrderedUp(N, alone=True), UpCardPickedUp(W), Discarded(W, "9H"),
             PlayedWithPartner(E), DefendedAlone(W)]
    h = Hand(W, defend_alone="vs_lone").deal(**D1).add(*calls)
    assert h.t.out == frozenset({S, E}) and h.t.leader == N
    h = Hand(W, defend_alone="vs_lone", loner_lead="left_of_loner").deal(**D1).add(*calls)
    assert h.t.leader == W and h.t.turn == W


def test_c6_trick_has_three_cards():
    h = c6_hand()
    h.play("9H", "AH", "TS")                    # S leads 9H, W AH, N (void) trumps with TS
    assert h.winners() == [N]


# ====================================================================== C7

def c7_hand(**options):
    # Dealer N holds AS KS QS AH AD; E orders up the 9S.
    h = Hand(N, **options).deal(n="AS KS QS AH AD", e="JS TS 9H TH JH", s="9C TC JC QC KC",
                                w="AC 9D TD JD QD", up="9S")
    h.add(OrderedUp(E), UpCardPickedUp(N))
    assert h.t.phase == "discard"
    return h


def test_c7_dealer_may_discard_the_up_card_by_default():
    h = c7_hand()
    assert sorted(a.card for a in h.legal()[0]) == sorted(cards("AS KS QS AH AD 9S"))
    h.add(Discarded(N, "9S"))
    assert sorted(h.t.hands[N]) == sorted(cards("AS KS QS AH AD"))
    assert h.t.discards == [(N, "9S")]
    assert h.t.trump == "S" and h.t.maker == E


def test_c7_keep_the_up_card_option():
    h = c7_hand(dealer_may_discard_upcard=False)
    assert sorted(a.card for a in h.legal()[0]) == sorted(cards("AS KS QS AH AD"))


# ====================================================================== scoring (rules.md 2.6)

# Deals for dealer W (N is eldest and leads).  Tricks are lists of
# (seat, card) in play order; a seat that sits out is simply left out.
#
# D1: N holds the five top hearts; E clubs, S diamonds, W spades; the only
# other hearts are the 9H up-card (the dealer W takes it and discards it) and
# the TH in the kitty.  With hearts trump, N wins every trick: he leads a
# trump each time and nobody else holds one.
D1 = dict(n="JH JD AH KH QH", e="AC KC QC JC TC", s="AD KD QD TD 9D",
          w="AS KS QS JS TS", up="9H")
D1_TRICKS = [
    [(N, "JH"), (E, "TC"), (S, "9D"), (W, "TS")],
    [(N, "JD"), (E, "JC"), (S, "TD"), (W, "JS")],
    [(N, "AH"), (E, "QC"), (S, "QD"), (W, "QS")],
    [(N, "KH"), (E, "KC"), (S, "KD"), (W, "KS")],
    [(N, "QH"), (E, "AC"), (S, "AD"), (W, "AS")],
]
# D2: N has only three trumps (JH JD AH) and the 9C TC; the KH up-card is
# discarded by W and the other hearts are in the kitty.  N wins tricks 1-3
# with trumps, then leads 9C: E's AC wins; E leads KC: it wins too (nobody
# has a trump left, and N's TC is lower).
D2 = dict(n="JH JD AH 9C TC", e="AC KC QC JC 9S", s="AD KD QD TD 9D",
          w="AS KS QS JS TS", up="KH")
D2_TRICKS = [
    [(N, "JH"), (E, "9S"), (S, "9D"), (W, "TS")],
    [(N, "JD"), (E, "JC"), (S, "TD"), (W, "JS")],
    [(N, "AH"), (E, "QC"), (S, "QD"), (W, "QS")],
    [(N, "9C"), (E, "AC"), (S, "KD"), (W, "KS")],
    [(E, "KC"), (S, "AD"), (W, "AS"), (N, "TC")],
]


def auction(deal, maker, alone=False, exchange=True):
    """Round 1 (dealer W): seats before ``maker`` pass, ``maker`` orders up,
    and W takes the up-card and discards it again (allowed, case C7)."""
    evs = [Passed(s) for s in range(N, maker)] + [OrderedUp(maker, alone=alone)]
    if exchange:
        evs += [UpCardPickedUp(W), Discarded(W, deal["up"])]
    return evs


def plays(tricks, out=()):
    return [CardPlayed(seat, c) for trick in tricks for seat, c in trick if seat not in out]


def scored(deal, calls, tricks, out=(), **options):
    h = Hand(W, **options).deal(**deal)
    h.add(*calls)
    h.add(*plays(tricks, out))
    assert h.t.phase in ("deal_over", "game_over")
    return h


def test_makers_three_tricks_score_one():
    h = scored(D2, auction(D2, N), D2_TRICKS)
    assert h.winners() == [N, N, N, E, E]
    assert h.t.scores == [1, 0]


def test_makers_four_tricks_score_one():
    # as D2, but N holds the QH instead of the TC: he wins four trump leads;
    # then his 9C loses to E's AC.
    d3 = dict(n="JH JD AH QH 9C", e="AC KC QC JC TC", s="AD KD QD TD 9D",
              w="AS KS QS JS TS", up="KH")
    tricks = D1_TRICKS[:3] + [
        [(N, "QH"), (E, "KC"), (S, "KD"), (W, "KS")],
        [(N, "9C"), (E, "AC"), (S, "AD"), (W, "AS")],
    ]
    h = scored(d3, auction(d3, N), tricks)
    assert h.winners() == [N, N, N, N, E]
    assert h.t.scores == [1, 0]


def test_march_scores_two():
    h = scored(D1, auction(D1, N), D1_TRICKS)
    assert h.winners() == [N] * 5
    assert h.t.scores == [2, 0]


def test_lone_march_scores_four():
    # N alone: S sits out, tricks have three cards (N, E, W).
    h = scored(D1, auction(D1, N, alone=True), D1_TRICKS, out=(S,))
    assert h.t.out == frozenset({S})
    assert h.winners() == [N] * 5
    assert h.t.scores == [4, 0]


def test_lone_maker_three_tricks_scores_one():
    h = scored(D2, auction(D2, N, alone=True), D2_TRICKS, out=(S,))
    assert h.winners() == [N, N, N, E, E]
    assert h.t.scores == [1, 0]


def test_euchred_makers_give_two():
    # E assists (E/W makers in hearts) but N/S take three tricks: euchred.
    h = scored(D2, auction(D2, E), D2_TRICKS)
    assert h.t.maker == E and h.winners() == [N, N, N, E, E]
    assert h.t.scores == [2, 0]


@pytest.mark.parametrize("value", [2, 4])
def test_lone_maker_euchred(value):
    # E assists alone: W (the dealer) sits out, so there is no exchange
    # (rules.md 2.2) and N still leads.  N/S take three tricks.
    h = scored(D2, auction(D2, E, alone=True, exchange=False), D2_TRICKS, out=(W,),
               lone_euchred_value=value)
    assert h.t.out == frozenset({W}) and h.t.up_status.startswith("face down")
    assert h.winners() == [N, N, N, E, E]
    assert h.t.scores == [value, 0]


@pytest.mark.parametrize("super_euchre, points", [(False, 2), (True, 4)])
def test_super_euchre(super_euchre, points):
    # E assists; N takes all five tricks, the makers none.
    h = scored(D1, auction(D1, E), D1_TRICKS, super_euchre=super_euchre)
    assert h.t.maker == E and h.winners() == [N] * 5
    assert h.t.scores == [points, 0]


def test_lone_defender_euchre_scores_four():
    # E assists; with defend_alone="any", N defends alone (S sits out) and
    # takes all five tricks: a lone defender's euchre is worth 4.
    calls = auction(D1, E) + [DefendedAlone(N)]
    h = scored(D1, calls, D1_TRICKS, out=(S,), defend_alone="any")
    assert h.t.lone_defender == N and h.t.out == frozenset({S})
    assert h.winners() == [N] * 5
    assert h.t.scores == [4, 0]


def test_defending_alone_is_offered_only_with_the_option():
    h = Hand(W).deal(**D1).add(*auction(D1, E))
    assert h.t.phase == "play"                                     # default: off
    h = Hand(W, defend_alone="vs_lone").deal(**D1).add(*auction(D1, E))
    assert h.t.phase == "play"                                     # E is not alone
    h = Hand(W, defend_alone="vs_lone").deal(**D1).add(*auction(D1, E, alone=True, exchange=False))
    assert h.t.phase == "defend" and h.t.turn == N
    h = Hand(W, defend_alone="any").deal(**D1).add(*auction(D1, E))
    assert h.t.phase == "defend" and h.t.turn == N                 # N asked first (left of dealer)
    assert set(h.legal()[0]) == {DefendedAlone(N), PlayedWithPartner(N)}


def test_march_against_a_lone_defender_scores_two():
    # N orders up; E declines to defend alone, W defends alone (E sits out).
    # Without E, N's 9C (trick 4) wins, and so does his TC: a march, worth 2
    # (the lone defender's 4 applies only when he euchres the makers).
    calls = auction(D2, N) + [PlayedWithPartner(E), DefendedAlone(W)]
    tricks = D2_TRICKS[:4] + [[(N, "TC"), (S, "AD"), (W, "AS")]]
    h = scored(D2, calls, tricks, out=(E,), defend_alone="any")
    assert h.t.lone_defender == W and h.t.out == frozenset({E})
    assert h.winners() == [N] * 5
    assert h.t.scores == [2, 0]


def test_renege_against_lone_maker_costs_four():
    # D2, N alone: N leads 9C first; E (holding AC KC QC JC) plays 9S: a renege
    # against a lone maker, so the lone maker's side scores 4 (rules.md 2.7).
    h = Hand(W).deal(**D2).add(*auction(D2, N, alone=True))
    h.add(CardPlayed(N, "9C"), CardPlayed(E, "9S"))
    [f] = h.game().audit()
    assert f.seat == E and sorted(f.evidence) == sorted(cards("AC KC QC JC"))
    assert f.penalty_points == (4, 0)


# ====================================================================== game end

def rotated_d1(dealer):
    """D1 turned so that the dealer's left (eldest) holds the five top hearts."""
    shift = (dealer - W) % 4
    hands = [D1["n"], D1["e"], D1["s"], D1["w"]]
    by_seat = {(k + shift) % 4: hands[k] for k in range(4)}
    return dict(n=by_seat[N], e=by_seat[E], s=by_seat[S], w=by_seat[W], up="9H"), shift


def eldest_marches(h, dealer, alone):
    """One deal of D1 turned to ``dealer``: eldest orders up (alone or not),
    the dealer takes the 9H and discards it, eldest wins all five tricks."""
    d, shift = rotated_d1(dealer)
    eldest = (dealer + 1) % 4
    h.deal(**d).add(OrderedUp(eldest, alone=alone), UpCardPickedUp(dealer), Discarded(dealer, "9H"))
    out = {(eldest + 2) % 4} if alone else set()
    for trick in D1_TRICKS:
        for seat, c in trick:
            s = (seat + shift) % 4
            if s not in out:
                h.add(CardPlayed(s, c))
    assert h.winners() == [eldest] * 5


def test_game_ends_at_ten_and_refuses_later_events():
    # The deal passes left each time; each eldest marches alone (4 points):
    # deal 1 (dealer W) N/S 4, deal 2 (N) E/W 4, deal 3 (E) N/S 8,
    # deal 4 (S) E/W 8, then deal 5 (W): N marches with his partner, N/S 10.
    h = Hand(W)
    expected = [[4, 0], [4, 4], [8, 4], [8, 8]]
    for i, dealer in enumerate([W, N, E, S]):
        if i:
            assert h.legal()[0] == (DealStarted(i + 1, dealer),)
            h.next_deal(dealer)
        eldest_marches(h, dealer, alone=True)
        assert h.t.scores == expected[i] and not h.t.game_over
    h.next_deal(W)
    eldest_marches(h, W, alone=False)
    assert h.t.scores == [10, 8]
    assert h.t.game_over and h.t.winner == NS and h.t.phase == "game_over"
    assert h.legal()[0] == ()
    g = h.game()
    assert g.winner == NS and g.final_score == [10, 8] and g.deals == 5
    # a deal recorded after the game was won is kept and flagged, never
    # refused, and counts for nothing (rules.md 1.6; real records do this)
    g6 = Game(h.events + [DealStarted(6, N)])
    [fl] = [f for f in g6.final.flags if f.kind == "played-after-game-won"]
    assert (fl.deal, fl.position) == (6, len(h.events))
    assert g6.winner == NS and g6.final.official_scores == [10, 8]
    # anything but a new deal after the game is over cannot have happened
    with pytest.raises(ImpossibleEvent) as e:
        Game(h.events + [Passed(N)])
    assert "game is over" in e.value.reason and e.value.position == len(h.events)


def test_target_score_option():
    h = Hand(W, target_score=5)
    eldest_marches(h, W, alone=True)
    assert h.t.scores == [4, 0] and not h.t.game_over                # 4 < 5
    h.next_deal(N)
    eldest_marches(h, N, alone=False)
    assert h.t.scores == [4, 2] and not h.t.game_over
    h.next_deal(E)
    eldest_marches(h, E, alone=False)
    assert h.t.scores == [6, 2] and h.t.game_over and h.t.winner == NS


# ====================================================================== impossible events

def test_card_not_in_hand_is_impossible():
    h = c1_hand()
    pos = len(h.events)
    with pytest.raises(ImpossibleEvent) as e:
        h.add(CardPlayed(N, "JD"))               # JD is East's
    assert e.value.deal == 1 and e.value.position == pos
    assert "JD" in e.value.reason
    with pytest.raises(ImpossibleEvent) as e2:
        Game(h.events + [CardPlayed(N, "JD")])
    assert e2.value.deal == 1 and e2.value.position == pos


def test_card_dealt_twice_is_impossible():
    h = Hand(W)
    hands = (cards("JH JD AH KH QH"), cards("JH KC QC JC TC"),   # JH twice
             cards("AD KD QD TD 9D"), cards("AS KS QS JS TS"))
    with pytest.raises(ImpossibleEvent) as e:
        h.add(CardsDealt(hands, "9H", cards("9C 9S TH")))
    assert e.value.deal == 1 and e.value.position == 2
    assert "JH" in e.value.reason and "twice" in e.value.reason


def test_wrong_hand_size_is_impossible():
    h = Hand(W)
    hands = (cards("JH JD AH KH"), cards("AC KC QC JC TC"),
             cards("AD KD QD TD 9D"), cards("AS KS QS JS TS"))
    with pytest.raises(ImpossibleEvent) as e:
        h.add(CardsDealt(hands, "9H", cards("9C 9S TH")))
    assert e.value.deal == 1 and "4 cards" in e.value.reason


def test_out_of_turn_lead_is_kept_and_flagged():
    """Illegal but real (docs/design.md): E leads while N is to lead; the card stands,
    the audit flags it, and the trick goes on clockwise from E (rules.md 1.3)."""
    h = c1_hand()                                # N is to lead
    pos = len(h.events)
    h.add(CardPlayed(E, "9C"))
    assert h.t.turn == S and h.t.trick == [(E, "9C")]
    [flag] = h.t.flags
    assert (flag.kind, flag.deal, flag.seat, flag.position) == ("led-out-of-turn", 1, E, pos)


def test_out_of_turn_call_is_impossible():
    h = Hand(W).deal(**D1)
    with pytest.raises(ImpossibleEvent) as e:
        h.add(OrderedUp(S))                      # N (eldest) has not spoken
    assert e.value.deal == 1 and e.value.position == 3


def test_play_before_trump_is_made_is_impossible():
    h = Hand(W).deal(**D1)
    with pytest.raises(ImpossibleEvent):
        h.add(CardPlayed(N, "JH"))


# ================================================================ the rules audit's corner cases
# Worked out by hand from rules.md (the tournament director's check, first
# filed as tests/test_rulecheck.py), each a defect found and fixed, or a corner
# that had no test; the other variants' corners are in their own files.
# ---------------------------------------------------------------- the C3 deal under each renege preset
# docs/cases.md C3 as played: trick winners E, S, W, W, W, so N/S (makers)
# take 1 trick and are euchred: E/W +2 (rules.md 2.6).  East reneged at
# trick 1 (9H on the KC lead holding TC), so N/S are the non-offending side.
C3_DEAL = """
Deal 1 dealer W
N: KC AS QD 9S TD
E: TC 9H AD KD JS
S: AC QC KS TS QH
W: JH AH KH 9C 9D
Up: TH
Kitty: JC JD QS
N pass  E pass  S order  W pickup  W discard 9D
T1: N KC  E 9H  S AC  W 9C
T2: E AD  S QH  W TH  N QD
T3: S KS  W KH  N AS  E JS
T4: W JH  N 9S  E TC  S TS
T5: W AH  N TD  E KD  S QC
"""


def c3_game(preset, initial):
    return one_game(f'[Variant "standard"]\n[Dealer "W"]\n[Option.renege_penalty "{preset}"]\n'
                    f'[InitialScore "{initial}"]\n' + C3_DEAL)


def test_casual_both_sides_reach_ten_first_to_reach_wins():
    # rules.md 2.7 casual: "the hand is played out and scored as usual, then
    # +2 to the other side"; 2.6: the game goes to the first side to 10.
    # From 9-8: the hand as played gives E/W 2 (8 -> 10: E/W reach 10 first),
    # then N/S score the renege's 2 (9 -> 11).  Official 11-10, and E/W won:
    # they were at 10 before N/S scored.  (Before the fix: N/S, the higher.)
    g = c3_game("casual", "9, 8")
    assert g.official_score == [11, 10]
    assert g.winner == 1
    assert g.as_played_winner == 1          # 9-10 as played: E/W


def test_casual_level_at_ten_first_to_reach_wins():
    # From 8-8: E/W 10 with the hand, then N/S 10 with the penalty: 10-10,
    # E/W got there first (before the fix: N/S, side 0, on the level score).
    g = c3_game("casual", "8, 8")
    assert g.official_score == [10, 10]
    assert g.winner == 1


def test_laws1888_penalty_scored_before_anything_else():
    # rules.md 1.5 (1888 Somerset Club laws): 3 points for a renege (not a
    # lone hand), "the penalty is scored before anything else".  From 7-9:
    # N/S first score the 3 (7 -> 10: N/S reach 10), then the hand stands,
    # E/W 2 (9 -> 11).  Official 10-11, and N/S won (before the fix: E/W,
    # the higher).
    g = c3_game("laws1888", "7, 9")
    assert g.official_score == [10, 11]
    assert g.winner == 0
    assert g.as_played_winner == 1          # 7-11 as played: E/W


def test_laws1888_penalty_alone_not_enough_then_the_hand_decides():
    # From 6-8: the 3 takes N/S to 9 (no one at 10), then the hand gives E/W
    # 10: E/W win, official 9-10 (only one side at 10: as before the fix).
    g = c3_game("laws1888", "6, 8")
    assert g.official_score == [9, 10]
    assert g.winner == 1


def test_tournament_one_side_scores_so_no_race():
    # rules.md 2.7 default: the hand ends, only N/S score 2: 8-9 -> 10-9.
    g = c3_game("tournament", "8, 9")
    assert g.official_score == [10, 9]
    assert g.winner == 0


# ------------------------------------------------ Canadian rule, alone decided after the exchange
CANADIAN_AFTER_EXCHANGE = """[Variant "standard"]
[Dealer "W"]
[Option.dealers_partner_must_go_alone "true"]
[Option.alone_timing "after_exchange"]
Deal 1 dealer W
N: JH JD AH KH QH
E: 9C TC JC QC KC
S: AC 9D TD QD KD
W: AD 9S TS QS KS
Up: TH
Kitty: AS JS 9H
N pass
"""


def test_canadian_partner_may_assist_when_alone_is_decided_after_the_exchange():
    # rules.md 2.2 (Canada: a dealer's partner who orders up must play alone)
    # with alone_timing="after_exchange" (the maker says alone after the
    # dealer's discard): E, the dealer's partner, may assist (before the fix
    # only a pass was offered), and must then go alone.
    from euchre_events.events import OrderedUp, Passed, WentAlone
    g = one_game(CANADIAN_AFTER_EXCHANGE)
    s = g.state_at(len(g.events))
    assert s.turn == 1 and set(s.legal) == {Passed(1), OrderedUp(1)}
    g = one_game(CANADIAN_AFTER_EXCHANGE + "E order  W pickup  W discard 9S\n")
    s = g.state_at(len(g.events))
    assert s.phase == "alone" and s.turn == 1
    assert s.legal == (WentAlone(1),) and "must play alone" in s.legal_reason


# ------------------------------------- standard renege value with a lone defender (rules.md 2.7)
# Dealer W, up-card TH; N orders up, W takes the TH and discards 9S; E
# declines to defend alone, W defends alone (E sits out).  N leads AD; S
# (N's partner) holds 9D TD QD KD and plays AC: a renege by the makers
# against a lone defender, shown at trick 2 (9D).
#   T1 N AD, S AC, W KS -> N     T2 N JH, S 9D, W TH -> N   T3 N JD, S TD, W QH -> N
#   T4 N AH, S QD, W TS -> N     T5 N KH, S KD, W QS -> N   (a march: N/S 2 as played)
VS_LONE_DEFENDER = """[Variant "standard"]
[Dealer "W"]
[Option.defend_alone "any"]
{opts}
Deal 1 dealer W
N: JH JD AH KH AD
E: 9C TC JC QC KC
S: AC 9D TD QD KD
W: QH 9S TS QS KS
Up: TH
Kitty: AS JS 9H
N order  W pickup  W discard 9S  E with-partner  W defend-alone
T1: N AD  S AC  W KS
T2: N JH  S 9D  W TH
T3: N JD  S TD  W QH
T4: N AH  S QD  W TS
T5: N KH  S KD  W QS
"""

# Dealer W; N orders up alone (S sits out), W takes the TH and discards AD,
# E declines, W defends alone (E sits out); under left_of_loner the lone
# defender leads when both are alone (2.5).  N trumps W's KS while holding
# 9S: a renege by the lone maker, shown at trick 5.
#   T1 W KS, N JH -> N   T2 N JD, W QH -> N   T3 N AH, W TH -> N
#   T4 N KH, W TS -> N   T5 N 9S, W QS -> W   (N 4 tricks: N/S 1 as played)
BOTH_ALONE = """[Variant "standard"]
[Dealer "W"]
[Option.defend_alone "any"]
[Option.loner_lead "left_of_loner"]
{opts}
Deal 1 dealer W
N: JH JD AH KH 9S
E: 9C TC JC QC KC
S: AC 9D TD QD KD
W: QH AD TS QS KS
Up: TH
Kitty: AS JS 9H
N order alone  W pickup  W discard AD  E with-partner  W defend-alone
T1: W KS  N JH
T2: N JD  W QH
T3: N AH  W TH
T4: N KH  W TS
T5: N 9S  W QS
"""


def test_renege_by_the_makers_against_a_lone_defender_costs_two():
    # rules.md 2.7 default: "The non-offending side scores 2"; 4 only for a
    # renege "by a defender against a lone maker" (and, under the symmetric
    # toggle, by the lone maker).  A renege by the makers against a lone
    # defender is neither: E/W score 2 (before the fix: 4).
    g = one_game(VS_LONE_DEFENDER.format(opts=""))
    (f,) = g.audit()
    assert (f.seat, f.trick, f.card, f.proven["trick"]) == (2, 1, "AC", 2)
    assert g.final_score == [2, 0]                 # the march as played
    assert f.penalty_points == (0, 2) and g.official_score == [0, 2]


def test_renege_by_the_lone_maker_facing_a_lone_defender():
    # The lone maker reneges: 2 to the defenders by default, 4 under
    # renege_symmetric (2.7).  The lone defender on the other side does not
    # make it a renege "against a lone maker" (before the fix: 4 by default).
    g = one_game(BOTH_ALONE.format(opts=""))
    (f,) = g.audit()
    assert (f.seat, f.trick, f.card, f.proven["trick"]) == (0, 1, "JH", 5)
    assert g.final_score == [1, 0]
    assert f.penalty_points == (0, 2) and g.official_score == [0, 2]
    g = one_game(BOTH_ALONE.format(opts='[Option.renege_symmetric "true"]'))
    assert g.official_score == [0, 4]


def test_record_starting_level_at_the_target_is_over_with_no_known_winner():
    # rules.md 1.6: a record that starts at 10-10 of 10 starts after the game
    # was won, but not by whom: flagged, and no winner is invented (before
    # the fix: N/S, side 0).
    g = c3_game("tournament", "10, 10")
    assert [f.kind for f in g.audit() if f.kind == "started-after-game-won"] == ["started-after-game-won"]
    assert g.winner is None and g.final.game_over
    assert g.official_score == [10, 10]


def test_audit_text_says_why_the_lower_score_won():
    # The director reads aloud "official 11-10, winner E/W": the line says why
    # (rules.md 1.6 first to the target; 2.7 casual: hand first, then penalty).
    from euchre_events.ui.auditreport import game_lines
    g = c3_game("casual", "9, 8")
    head = game_lines(g, g.audit())[0]
    assert ("official winner: East-West, who reached 10 first: both sides reached it on the "
            "last deal, and the hand is scored before the renege penalty (rules.md 2.7); as played") in head, head
    level = game_lines(c3_game("casual", "8, 8"), ())[0]
    assert "who reached 10 first" in level
    laws = c3_game("laws1888", "7, 9")          # N/S won 10-11 (the penalty first, rules.md 1.5)
    assert "the renege penalty is scored before the hand (rules.md 1.5)" in game_lines(laws, ())[0]
    plain = one_game('[Variant "standard"]\n[Dealer "W"]\n[InitialScore "8, 8"]\n' + C3_DEAL)
    assert "first" not in game_lines(plain, plain.audit())[0]
