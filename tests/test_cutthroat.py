"""Three-handed cutthroat Euchre with a dummy (rules.md section 4, case C12).

Seats 0, 1, 2 are P1, P2, P3 clockwise; the dummy is a hand
(CardsDealt.dummy), not a seat.  In every deal here P1 (seat 0) deals, so
P2 (seat 1) is eldest and P3 (seat 2) is across; the up-card is 9H.  Every
expected value is worked out by hand in the comments.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from builders import one_game
from euchre_events.rules import cards as C
from euchre_events.rules.engine import ImpossibleEvent, apply, legal_actions, new_table
from euchre_events.events import (CardPlayed, CardsDealt, DealStarted, DealThrownIn, DefendedAlone,
                                  Discarded, DummyTaken, GameStarted, OrderedUp, Passed,
                                  PlayedWithPartner, TrumpNamed, UpCardDeclined, UpCardPickedUp,
                                  WentAlone)
from euchre_events.projections import Game
from euchre_events.rules.registry import make_variant
from euchre_events.rules.variants.cutthroat import CutthroatEuchre, CutthroatOptions

PLAYERS = ("P1", "P2", "P3")


def start(options=None, initial=None):
    return [GameStarted("cutthroat", options or {}, PLAYERS, first_dealer=0, initial_score=initial)]


def plays(spec: str) -> list:
    """'1:JH 2:9D 0:9S | ...' -> CardPlayed events (seat:card in play order)."""
    return [CardPlayed(int(s), c) for part in spec.split("|") for s, c in
            (item.split(":") for item in part.split())]


def dealt(p1, p2, p3, dummy, kitty, up="9H"):
    return CardsDealt((tuple(p1.split()), tuple(p2.split()), tuple(p3.split())), up,
                      tuple(kitty.split()), tuple(dummy.split()))


def discards(seat, cards):
    return [Discarded(seat, c) for c in cards.split()]


def both_defend_together():
    # defenders are asked clockwise from the maker's left: P3 (2) then P1 (0)
    return [PlayedWithPartner(2), PlayedWithPartner(0)]


# --- Deal A (C12 a).  P2 holds the five top hearts.
DEAL_A = dealt("9S TS QS 9C TC", "JH JD AH KH QH", "9D TD QD KD QC",
               dummy="TH AS AC AD KS", kitty="JC KC JS")
# P2 (eldest) orders up hearts; the dealer P1 leaves the up-card (4.2, optional);
# P2 takes the dummy and puts its five cards face down again.
AUCTION_A = [OrderedUp(1), UpCardDeclined(0), DummyTaken(1)] + discards(1, "TH AS AC AD KS")
# Eldest (P2) leads; nobody else holds a heart, P2 leads trumps:
PLAY_A = plays("1:JH 2:9D 0:9S | 1:JD 2:TD 0:TS | 1:AH 2:QD 0:QS | 1:KH 2:KD 0:9C | 1:QH 2:QC 0:TC")

# --- Deal B (C12 b).  P2 dealt JH 9C 9D TC JC, the dummy TH KS TD QD QH;
# P2 keeps JH TH KS 9C 9D and discards TC JC TD QD QH.
DEAL_B = dealt("AH 9S AC AD TS", "JH 9C 9D TC JC", "JD AS KC QC KD",
               dummy="TH KS TD QD QH", kitty="KH JS QS")
AUCTION_B = [OrderedUp(1), UpCardDeclined(0), DummyTaken(1)] + discards(1, "TC JC TD QD QH")
#   T1 P2 JH, P3 must follow with JD (left bower), P1 with AH -> P2
#   T2 P2 TH, P3 and P1 are out of hearts: KD, 9S       -> P2
#   T3 P2 KS, P3 AS, P1 TS                              -> P3
#   T4 P3 KC, P1 AC, P2 must follow 9C                  -> P1
#   T5 P1 AD, P2 9D, P3 QC                              -> P1
PLAY_B = plays("1:JH 2:JD 0:AH | 1:TH 2:KD 0:9S | 1:KS 2:AS 0:TS | 2:KC 0:AC 1:9C | 0:AD 1:9D 2:QC")


def test_registry_options_and_seats():
    v = make_variant("cutthroat")
    assert isinstance(v, CutthroatEuchre)
    assert (v.n_seats, v.n_sides) == (3, 3) and [v.side_of(s) for s in range(3)] == [0, 1, 2]
    o = CutthroatOptions()
    assert o.use_dummy and o.lone_no_dummy_march == 3 and o.target_score == 10
    assert o.defend_alone == "any" and o.lone_defender_scoring == "source" and not o.shared_win
    with pytest.raises(ValueError):
        CutthroatOptions(lone_no_dummy_march=5)


def test_c12a_maker_with_dummy_takes_5_scores_3():
    evs = start() + [DealStarted(1, 0), DEAL_A] + AUCTION_A + both_defend_together() + PLAY_A
    g = Game(evs)
    assert [w for _, _, w in g.final.tricks] == [1, 1, 1, 1, 1]
    assert g.final_score == [0, 3, 0]          # C12 (a): march = 3


def test_c12b_euchre_gives_2_to_each_defender_and_dummy_is_private():
    evs = start() + [DealStarted(1, 0), DEAL_B] + AUCTION_B + both_defend_together() + PLAY_B
    g = Game(evs)
    # dummy variant: the merge and the five discards are the maker's events
    after_dummy = g.state_at(len(start()) + 2 + len(AUCTION_B))
    assert after_dummy.dummy == () and sorted(after_dummy.hands[1]) == sorted("JH TH KS 9C 9D".split())
    assert after_dummy.discards == tuple((1, c) for c in "TC JC TD QD QH".split())
    assert after_dummy.phase == "defend" and after_dummy.turn == 2
    assert [w for _, _, w in g.final.tricks] == [1, 1, 2, 0, 0]
    assert g.final_score == [2, 0, 2]          # C12 (b): P1 +2 and P3 +2


def test_bidding_order_vocabulary_and_thrown_in():
    evs = start() + [DealStarted(1, 0), DEAL_A]
    g = Game(evs)
    s = g.state_at(len(evs))
    # eldest (left of the dealer) first; the dummy never bids
    assert s.turn == 1 and "order it up" in s.legal_reason
    s = Game(evs + [Passed(1)]).final
    acts, reason = legal_actions(s)
    assert s.turn == 2 and "assist" in reason       # across "assists": an order-up (4.2)
    s = Game(evs + [Passed(1), Passed(2)]).final
    assert s.turn == 0 and "take it up" in legal_actions(s)[1]
    evs += [Passed(1), Passed(2), Passed(0)]
    s = Game(evs).state_at(len(evs))
    assert s.phase == "round2" and s.turn == 1
    assert TrumpNamed(1, "H") not in s.legal and TrumpNamed(1, "S") in s.legal
    evs += [Passed(1), Passed(2), Passed(0), DealThrownIn("all passed")]
    g = Game(evs)
    assert g.final_score == [0, 0, 0]
    assert legal_actions(g.final)[0] == (DealStarted(2, 1),)   # the deal passes left


def test_stick_the_dealer():
    evs = start({"stick_the_dealer": True}) + [DealStarted(1, 0), DEAL_A] + [Passed(s) for s in (1, 2, 0, 1, 2)]
    s = Game(evs).state_at(len(evs))
    assert set(s.legal) == {TrumpNamed(0, "C"), TrumpNamed(0, "D"), TrumpNamed(0, "S")}


def test_maker_3_or_4_tricks_scores_1_and_legal_follow():
    # P2 dealt JH JD AS TC JC, dummy AC TD QD AD TH; keeps JH JD AS AC TD.
    deal = dealt("AH KH 9S 9C 9D", "JH JD AS TC JC", "KS QS KC QC KD",
                 dummy="AC TD QD AD TH", kitty="QH TS JS")
    auction = [OrderedUp(1), UpCardDeclined(0), DummyTaken(1)] + discards(1, "TC JC QD AD TH")
    #   T1 P2 JH; P3 has no heart (KS); P1 must follow: KH   -> P2
    #   T2 P2 JD (left bower); P3 QS; P1 must follow AH      -> P2
    #   T3 P2 AS; P3 (no spade left) KC; P1 9S               -> P2
    #   T4 P2 AC; P3 QC; P1 9C                               -> P2
    #   T5 P2 TD; P3 KD; P1 9D                               -> P3
    play = plays("1:JH 2:KS 0:KH | 1:JD 2:QS 0:AH | 1:AS 2:KC 0:9S | 1:AC 2:QC 0:9C | 1:TD 2:KD 0:9D")
    evs = start() + [DealStarted(1, 0), deal] + auction + both_defend_together() + play
    g = Game(evs)
    k = len(evs) - len(play) + 1                      # after P2 led JH
    s = g.state_at(k)
    assert s.turn == 2 and set(s.legal_cards()) == set("KS QS KC QC KD".split())   # void in hearts
    s = g.state_at(k + 1)
    assert s.turn == 0 and set(s.legal_cards()) == {"AH", "KH"}                     # must follow
    assert g.final.tricks_won == [0, 4, 1]
    assert g.final_score == [0, 1, 0]


def test_dealer_maker_keeps_5_of_11():
    # P2 and P3 pass, the dealer P1 takes it up: exchange is part of accepting
    evs = start() + [DealStarted(1, 0), DEAL_A, Passed(1), Passed(2), OrderedUp(0)]
    s = Game(evs).state_at(len(evs))
    assert s.legal == (UpCardPickedUp(0),)
    evs += [UpCardPickedUp(0), Discarded(0, "9S")]
    s = Game(evs).state_at(len(evs))
    assert s.phase == "dummy" and set(s.legal) == {DummyTaken(0), WentAlone(0)}
    evs += [DummyTaken(0)]
    s = Game(evs).state_at(len(evs))
    assert len(s.hands[0]) == 10 and s.phase == "dummy_discard"
    evs += discards(0, "TS QS 9C TC KS")
    s = Game(evs).state_at(len(evs))
    # 1 + 5 discards: the dealer chose 5 of 11 cards
    assert sorted(s.hands[0]) == sorted("9H TH AS AC AD".split()) and len(s.discards) == 6
    assert s.phase == "defend" and s.turn == 1       # defenders from the maker's left


# Deal A played by P2 alone, without the dummy.  The lead goes to the active
# player on the lone maker's left: P3 (4.4).
#   T1 P3 9D; P1 9S; P2 has no diamond (JD is a heart) and trumps with QH -> P2
#   T2-T5 P2 leads JH, JD, AH, KH; nobody else holds a heart              -> P2
ALONE_A = [OrderedUp(1), UpCardDeclined(0), WentAlone(1)] + both_defend_together()
PLAY_ALONE_A = plays("2:9D 0:9S 1:QH | 1:JH 2:TD 0:TS | 1:JD 2:QD 0:QS | 1:AH 2:KD 0:9C | 1:KH 2:QC 0:TC")


@pytest.mark.parametrize("march, points", [(3, [0, 3, 0]), (4, [0, 4, 0])])
def test_lone_maker_without_dummy_march_and_lead(march, points):
    evs = start({"lone_no_dummy_march": march}) + [DealStarted(1, 0), DEAL_A] + ALONE_A
    g = Game(evs + PLAY_ALONE_A)
    first = g.state_at(len(evs))
    assert first.alone == 1 and first.turn == 2 and first.sitting_out == ()
    assert first.dummy == tuple("TH AS AC AD KS".split())     # refused, untouched
    assert g.final.tricks_won == [0, 5, 0]
    assert g.final_score == points                             # 4.5 and toggle (8 item 1)


# Deal L (a): P3 holds the five top hearts and defends alone against P2,
# who took the dummy.  P1 sits out; tricks have 2 cards.
DEAL_L = dealt("9D TD QD KD AD", "9S TS QS 9C TC", "JH JD AH KH QH",
               dummy="TH AS KS AC KC", kitty="JC QC JS")
DUMMY_L = [OrderedUp(1), UpCardDeclined(0), DummyTaken(1)] + discards(1, "9S TS QS 9C TC")
# Lead: the active player left of the lone defender P3: P1 sits out, so P2.
PLAY_L = plays("1:AS 2:JH | 2:JD 1:TH | 2:AH 1:KS | 2:KH 1:AC | 2:QH 1:KC")


@pytest.mark.parametrize("scoring, points", [
    ("source", [4, 0, 4]),                 # lone defender took all 5: +4 to each defender
    ("lone_defender_only_4", [0, 0, 4]),   # pagat British: the lone defender alone
])
def test_lone_defender_takes_all_five(scoring, points):
    evs = start({"lone_defender_scoring": scoring}) + [DealStarted(1, 0), DEAL_L] + DUMMY_L + [DefendedAlone(2)]
    g = Game(evs + PLAY_L)
    first = g.state_at(len(evs))
    assert first.lone_defender == 2 and first.sitting_out == (0,) and first.turn == 1
    assert all(len(tr[1]) == 2 for tr in g.final.tricks)
    assert g.final.tricks_won == [0, 0, 5]
    assert g.final_score == points


@pytest.mark.parametrize("scoring, points", [("source", [2, 0, 2]), ("lone_defender_only_4", [0, 0, 4])])
def test_lone_defender_takes_three(scoring, points):
    # P3 JH JD AH 9C 9D alone against P2 (keeps TH AS KS AC KC from his hand and the dummy)
    deal = dealt("TD QD KD AD QH", "TH AS 9S TS QS", "JH JD AH 9C 9D",
                 dummy="KS AC KC TC JC", kitty="KH JS QC")
    auction = [OrderedUp(1), UpCardDeclined(0), DummyTaken(1)] + discards(1, "9S TS QS TC JC") + [DefendedAlone(2)]
    #   T1 P2 AS, P3 trumps JH -> P3;  T2 P3 JD, P2 TH -> P3;  T3 P3 AH, P2 KS -> P3
    #   T4 P3 9C, P2 must follow AC -> P2;  T5 P2 KC, P3 9D -> P2
    play = plays("1:AS 2:JH | 2:JD 1:TH | 2:AH 1:KS | 2:9C 1:AC | 1:KC 2:9D")
    g = Game(start({"lone_defender_scoring": scoring}) + [DealStarted(1, 0), deal] + auction + play)
    assert g.final.tricks_won == [0, 2, 3]
    assert g.final_score == points


def test_both_alone_lone_defender_leads():
    # P2 goes alone with 9S TS QS 9C TC (no dummy); P3 defends alone and leads (4.4)
    evs = start() + [DealStarted(1, 0), DEAL_L, OrderedUp(1), UpCardDeclined(0), WentAlone(1), DefendedAlone(2)]
    s = Game(evs).state_at(len(evs))
    assert s.alone == 1 and s.lone_defender == 2 and s.turn == 2
    g = Game(evs + plays("2:JH 1:9S | 2:JD 1:TS | 2:AH 1:QS | 2:KH 1:9C | 2:QH 1:TC"))
    assert g.final_score == [4, 0, 4]


def test_defend_alone_options():
    base = [DealStarted(1, 0), DEAL_A]
    # vs_lone: no defend question when the maker took the dummy ...
    g = Game(start({"defend_alone": "vs_lone"}) + base + AUCTION_A)
    assert g.final.phase == "play" and g.final.turn == 1
    # ... but there is one against a maker alone without it
    g = Game(start({"defend_alone": "vs_lone"}) + base + [OrderedUp(1), UpCardDeclined(0), WentAlone(1)])
    assert g.final.phase == "defend" and g.final.turn == 2
    # off: never
    g = Game(start({"defend_alone": "off"}) + base + [OrderedUp(1), UpCardDeclined(0), WentAlone(1)])
    assert g.final.phase == "play" and g.final.turn == 2


def test_tie_at_target_plays_on_or_shared_win():
    deal_b = [DealStarted(1, 0), DEAL_B] + AUCTION_B + both_defend_together() + PLAY_B
    # P1 and P3 both go from 8 to 10 on P2's euchre: equal, so play on (4.5)
    g = Game(start(initial=(8, 0, 8)) + deal_b)
    assert g.final_score == [10, 0, 10] and not g.final.game_over and g.winner is None
    assert legal_actions(g.final)[0] == (DealStarted(2, 1),)
    # shared_win: the game ends with both as winners
    g = Game(start({"shared_win": True}, initial=(8, 0, 8)) + deal_b)
    assert g.final.game_over and g.winner is None
    assert g.final.x["shared_winners"] == (0, 2)
    # 11 beats 10: the higher total wins
    g = Game(start(initial=(9, 0, 8)) + deal_b)
    assert g.final.game_over and g.winner == 0


def test_renege_by_defender_in_a_three_card_trick():
    # Deal B, but at T3 P3 plays KC on P2's KS while holding AS (a renege):
    #   T3 P2 KS, P3 KC, P1 TS -> P2;  T4 P2 9C, P3 QC, P1 AC -> P1;
    #   T5 P1 AD, P2 9D, P3 AS (shows the ace) -> P1.   P2 3 tricks -> +1 as played
    play = plays("1:JH 2:JD 0:AH | 1:TH 2:KD 0:9S | 1:KS 2:KC 0:TS | 1:9C 2:QC 0:AC | 0:AD 1:9D 2:AS")
    evs = start() + [DealStarted(1, 0), DEAL_B] + AUCTION_B + both_defend_together() + play
    g = Game(evs)
    assert g.final_score == [0, 1, 0]
    (f,) = g.audit()
    assert (f.seat, f.trick, f.card, f.led_suit, f.evidence) == (2, 3, "KC", "S", ("AS",))
    assert f.proven["trick"] == 5 and f.established == "when trick 3 was gathered: seat 1 played to trick 4"
    assert f.established_at["trick"] == 4 and f.provable_at["trick"] == 5 and f.public_proof
    # 4.6: the hand stops; a defender's renege gives the maker 2
    assert f.penalty_points == (0, 2, 0) and f.score_if_penalized == (0, 2, 0)
    g = Game(start({"renege_penalty": "casual"}) + evs[1:])
    assert g.audit()[0].penalty_points == (0, 3, 0)


def test_renege_by_maker_gives_each_opponent_2():
    # Deal B, but at T4 P2 plays 9D on P3's KC (after P1's AC) while holding 9C;
    # he shows 9C at T5.
    play = plays("1:JH 2:JD 0:AH | 1:TH 2:KD 0:9S | 1:KS 2:AS 0:TS | 2:KC 0:AC 1:9D | 0:AD 1:9C 2:QC")
    g = Game(start() + [DealStarted(1, 0), DEAL_B] + AUCTION_B + both_defend_together() + play)
    (f,) = g.audit()
    assert (f.seat, f.trick, f.evidence) == (1, 4, ("9C",))
    assert f.penalty_points == (2, 0, 2) and "P1 and P3 score 2 each" in f.penalty


def test_renege_against_lone_maker_costs_4():
    # Deal A played alone by P2, but P1 holds TH (the dummy has TC instead).
    # T2: P2 leads JH, P1 plays TS while holding TH (renege), shows TH at T3.
    deal = dealt("9S TS QS 9C TH", "JH JD AH KH QH", "9D TD QD KD QC", dummy="TC AS AC AD KS", kitty="JC KC JS")
    play = plays("2:9D 0:9S 1:QH | 1:JH 2:TD 0:TS | 1:JD 2:QD 0:TH | 1:AH 2:KD 0:QS | 1:KH 2:QC 0:9C")
    g = Game(start() + [DealStarted(1, 0), deal] + ALONE_A + play)
    assert g.final_score == [0, 3, 0]
    (f,) = g.audit()
    assert (f.seat, f.trick, f.evidence, f.proven["trick"]) == (0, 2, ("TH",), 3)
    assert f.penalty_points == (0, 4, 0)       # 4.6: 4 against a maker alone without the dummy


def test_without_dummy_and_impossible_deals():
    hoyle = CardsDealt(DEAL_A.hands, "9H", tuple("TH AS AC AD KS JC KC JS".split()))
    g = Game(start({"use_dummy": False}) + [DealStarted(1, 0), hoyle, OrderedUp(1), UpCardDeclined(0)])
    assert g.final.phase == "defend"           # no dummy question at all
    with pytest.raises(ImpossibleEvent, match="dummy"):
        Game(start({"use_dummy": False}) + [DealStarted(1, 0), DEAL_A])
    with pytest.raises(ImpossibleEvent, match="dummy holds 4"):
        Game(start() + [DealStarted(1, 0), dealt("9S TS QS 9C TC", "JH JD AH KH QH", "9D TD QD KD QC",
                                                 dummy="TH AS AC AD", kitty="JC KC JS")])
    with pytest.raises(ImpossibleEvent, match="out of turn"):
        Game(start() + [DealStarted(1, 0), DEAL_A, OrderedUp(1), UpCardDeclined(0), DummyTaken(2)])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), use_dummy=st.booleans(),
       defend=st.sampled_from(["any", "vs_lone", "off"]))
def test_random_games(seed, use_dummy, defend):
    from euchre_events.rules.simulate import random_game
    evs = random_game("cutthroat", {"use_dummy": use_dummy, "defend_alone": defend}, seed=seed)
    t = new_table()
    deck = sorted(C.deck())
    for ev in evs:
        if isinstance(ev, CardsDealt):
            every = [c for h in ev.hands for c in h] + [ev.up_card] + list(ev.kitty) + list(ev.dummy)
            assert sorted(every) == deck
            assert len(ev.dummy) == (5 if use_dummy else 0)
        apply(t, ev)
        if t.phase == "play" and not t.trick:
            for s in range(3):
                assert len(t.hands[s]) == (5 if s in t.out else 5 - len(t.tricks))
    assert t.game_over
    assert max(t.scores) >= 10


# ---------------------------------------------------------------- march values (from the rules audit, test_rulecheck)

# Dealer P3: P1 eldest, P2 across, the dummy on P3's right.  P1 holds the
# five top hearts (JH JD AH KH QH); every other heart is the up-card TH or
# in the kitty (9H), so with hearts trump P1 leads trumps and takes all 5.
CUTTHROAT_DEAL = """[Variant "cutthroat"]
[Dealer "P3"]
{opts}[InitialScore "{initial}"]
Deal 1 dealer P3
P1: JH JD AH KH QH
P2: 9C TC JC QC KC
P3: AC 9D TD QD KD
Dummy: AD 9S TS QS KS
Up: TH
Kitty: AS JS 9H
{moves}
T1: P1 JH  P2 KC  P3 KD
T2: P1 JD  P2 QC  P3 QD
T3: P1 AH  P2 JC  P3 AC
T4: P1 KH  P2 TC  P3 TD
T5: P1 QH  P2 9C  P3 9D
"""


WITH_DUMMY = ("P1 order  P3 decline  P1 dummy  P1 discard AD  P1 discard 9S  P1 discard TS  "
              "P1 discard QS  P1 discard KS  P2 with-partner  P3 with-partner")


ALONE = "P1 order  P3 decline  P1 alone  P2 with-partner  P3 with-partner"


def cutthroat(moves, opts="", initial="0, 0, 0"):
    return one_game(CUTTHROAT_DEAL.format(opts=opts, initial=initial, moves=moves))


def test_cutthroat_march_values():
    # 4.5: a march with the dummy scores 3; alone without it 3 (the source),
    # 4 with lone_no_dummy_march; case C12's "2 for a march" house rule is
    # the option march_value (before: no such option).
    assert cutthroat(WITH_DUMMY).final_score == [3, 0, 0]
    assert cutthroat(WITH_DUMMY, '[Option.march_value "2"]\n').final_score == [2, 0, 0]
    assert cutthroat(ALONE).final_score == [3, 0, 0]
    assert cutthroat(ALONE, '[Option.lone_no_dummy_march "4"]\n').final_score == [4, 0, 0]
    # march_value is the march of a maker with the dummy only
    assert cutthroat(ALONE, '[Option.march_value "2"]\n').final_score == [3, 0, 0]


def test_cutthroat_march_to_exactly_ten_wins():
    # 4.5: first to 10.  P1 at 7 marches (3): 10, the target exactly.
    g = cutthroat(WITH_DUMMY, initial="7, 9, 9")
    assert g.official_score == [10, 9, 9] and g.winner == 0
