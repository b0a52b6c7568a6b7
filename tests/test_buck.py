"""Buck Euchre (rules.md section 6, cases C8 and C9).

Seats 0..3 are P1..P4 clockwise, each a side of its own; scores start at 25
and count down.  In every deal here P4 (seat 3) deals, so P1 (seat 0) is on
the dealer's left.  Every expected value is worked out by hand in the
comments.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from builders import one_game
from euchre_events.rules import cards as C
from euchre_events.rules.engine import ImpossibleEvent, apply, legal_actions, new_table
from euchre_events.events import (CardPlayed, CardsDealt, DealStarted, Discarded, DroppedOut,
                                  GameStarted, OrderedUp, Passed, StayedIn, TrumpNamed,
                                  UpCardPickedUp)
from euchre_events.projections import Game
from euchre_events.rules.registry import make_variant
from euchre_events.rules.variants.buck import BuckEuchre, BuckOptions

PLAYERS = ("P1", "P2", "P3", "P4")


def start(options=None, initial=None):
    return [GameStarted("buck", options or {}, PLAYERS, first_dealer=3, initial_score=initial)]


def plays(spec: str) -> list:
    """'0:JC 1:9C | ...' -> CardPlayed events (seat:card in play order)."""
    return [CardPlayed(int(s), c) for part in spec.split("|") for s, c in
            (item.split(":") for item in part.split())]


def dealt(p1, p2, p3, p4, up, kitty):
    return CardsDealt(tuple(tuple(h.split()) for h in (p1, p2, p3, p4)), up, tuple(kitty.split()))


def winners(g):
    return [w for _, _, w in g.final.tricks]


# --- Case C8: the ten of clubs is turned: clubs are trump, no auction.
DEAL_C8 = dealt("JC 9H 9D QS TS", "9C AH AD QH KD", "JS JH TD 9S AS", "QD TH JD KH KS",
                up="TC", kitty="QC KC AC")
#   T1 P1 JC; P2 must follow 9C; P3 follows with JS (left bower, a club); P4 no club: QD -> P1
#   T2 P1 9H; P2 AH, P3 JH, P4 TH                                                   -> P2
#   T3 P2 AD; P3 TD, P4 JD, P1 9D                                                   -> P2
#   T4 P2 QH; P3 (no heart) 9S, P4 KH, P1 (no heart, no club) QS                    -> P4
#   T5 P4 KS; P1 TS, P2 (no spade) KD, P3 AS                                        -> P3
PLAY_C8 = plays("0:JC 1:9C 2:JS 3:QD | 0:9H 1:AH 2:JH 3:TH | 1:AD 2:TD 3:JD 0:9D | "
                "1:QH 2:9S 3:KH 0:QS | 3:KS 0:TS 1:KD 2:AS")

# --- Case C9: 9D turned down, everyone passes twice: no-trump.
DEAL_C9 = dealt("QS 9H TC TD AS", "JC TH QC QD KD", "KS AH 9C KH TS", "JS JH AC AD 9S",
                up="9D", kitty="KC JD QH")
ALL_PASS = [Passed(s) for s in (0, 1, 2, 3)] * 2
#   T1 P1 QS; P2 (no spade) JC; P3 KS; P4 JS -> P3 (no bowers: JS is a plain spade below QS)
#   T2 P3 AH; P4 JH, P1 9H, P2 TH           -> P3
#   T3 P3 9C; P4 AC, P1 TC, P2 QC           -> P4
#   T4 P4 AD; P1 TD, P2 QD, P3 (no diamond) KH -> P4
#   T5 P4 9S; P1 AS, P2 (no spade) KD, P3 TS -> P1
PLAY_C9 = plays("0:QS 1:JC 2:KS 3:JS | 2:AH 3:JH 0:9H 1:TH | 2:9C 3:AC 0:TC 1:QC | "
                "3:AD 0:TD 1:QD 2:KH | 3:9S 0:AS 1:KD 2:TS")

# --- Deal B: 9H turned; P4 takes it and discards JC whoever orders up.
DEAL_B = dealt("JH JD AH 9C 9S", "QD TD KC AC AS", "TH QH KH AD KD", "9D QC TC KS JC",
               up="9H", kitty="TS JS QS")
# P1 orders up; P2 stays, P3 drops, P4 stays.  Active P1, P2, P4; P1 leads.
AUCTION_B1 = [OrderedUp(0), UpCardPickedUp(3), Discarded(3, "JC"), StayedIn(1), DroppedOut(2), StayedIn(3)]
#   T1 P1 JH; P2 (no heart) QD; P4 must follow 9H -> P1
#   T2 P1 JD (left bower); P2 TD; P4 9D           -> P1
#   T3 P1 AH; P2 KC; P4 QC                        -> P1
#   T4 P1 9C; P2 must follow AC; P4 TC            -> P2
#   T5 P2 AS; P4 KS; P1 9S                        -> P2
PLAY_B = plays("0:JH 1:QD 3:9H | 0:JD 1:TD 3:9D | 0:AH 1:KC 3:QC | 0:9C 1:AC 3:TC | 1:AS 3:KS 0:9S")


def test_registry_and_defaults():
    v = make_variant("buck")
    assert isinstance(v, BuckEuchre) and isinstance(make_variant("buck_euchre"), BuckEuchre)
    assert (v.n_seats, v.n_sides) == (4, 4) and v.initial_scores() == [25, 25, 25, 25]
    o = BuckOptions()
    assert (o.start_score, o.drop_order, o.renege_value, o.tie_resolution) == (25, "dealer_left", 5, "tie")
    assert not (o.no_trump_callable or o.club_upcard_dealer_exchange or o.walkover_counts_as_five)
    assert make_variant("buck", {"start_score": 15}).initial_scores() == [15] * 4
    with pytest.raises(ValueError):
        BuckOptions(drop_order="random")


def test_c8_dirty_clubs_no_bidder_everyone_scores_per_trick():
    evs = start() + [DealStarted(1, 3), DEAL_C8]
    s = Game(evs).state_at(len(evs))
    # no auction, no maker, nobody may drop: play starts at once, P1 leads
    assert s.phase == "play" and s.trump == "C" and s.maker is None and s.turn == 0
    assert all(isinstance(e, CardPlayed) for e in s.legal)
    g = Game(evs + PLAY_C8)
    assert g.final.tricks_won == [1, 2, 1, 1]
    # C8: P1 -1, P2 -2, P3 -1, P4 -1 (nobody scored against a contract)
    assert g.final_score == [24, 23, 24, 24]


def test_c9_all_pass_twice_is_a_no_trump_hand():
    evs = start() + [DealStarted(1, 3), DEAL_C9] + ALL_PASS
    s = Game(evs).state_at(len(evs))
    assert s.phase == "play" and s.trump is None and s.maker is None and s.turn == 0
    g = Game(evs + PLAY_C9)
    first = g.final.tricks[0]
    assert first[1] == ((0, "QS"), (1, "JC"), (2, "KS"), (3, "JS")) and first[2] == 2   # P3 wins with KS
    assert winners(g) == [2, 2, 3, 3, 0]
    # each trick -1 from 25; P2 took none: +5 (6.4)
    assert g.final_score == [24, 30, 23, 23]


def test_round1_from_dealers_left_mandatory_exchange_and_drop_order():
    evs = start() + [DealStarted(1, 3), DEAL_B]
    s = Game(evs).state_at(len(evs))
    assert s.turn == 0 and set(s.legal) == {Passed(0), OrderedUp(0)}   # no going alone
    # P2 sits across from the dealer but is nobody's partner: no "assist"
    s2 = Game(evs + [Passed(0)]).state_at(len(evs) + 1)
    assert s2.turn == 1 and "order it up" in s2.legal_reason and "assist" not in s2.legal_reason
    with pytest.raises(ImpossibleEvent, match="no going alone"):
        Game(evs + [OrderedUp(0, alone=True)])
    evs += [OrderedUp(0)]
    s = Game(evs).state_at(len(evs))
    assert s.legal == (UpCardPickedUp(3),)                # the dealer always exchanges (6.1)
    evs += [UpCardPickedUp(3), Discarded(3, "JC")]
    s = Game(evs).state_at(len(evs))
    # drop-outs from the dealer's left, skipping the maker P1: P2 first
    assert s.phase == "drop" and s.turn == 1 and set(s.legal) == {StayedIn(1), DroppedOut(1)}
    s = Game(evs + [StayedIn(1)]).final
    assert s.turn == 2


def test_maker_3_tricks_dropped_player_zero_stayed_in_without_trick_plus_5():
    evs = start() + [DealStarted(1, 3), DEAL_B] + AUCTION_B1
    s = Game(evs).state_at(len(evs))
    # P3 sits out; P1 (dealer's left) leads; tricks have 3 cards
    assert s.sitting_out == (2,) and s.turn == 0
    g = Game(evs + PLAY_B)
    assert winners(g) == [0, 0, 0, 1, 1] and all(len(tr[1]) == 3 for tr in g.final.tricks)
    # P1 maker 3 tricks: -3; P2 2 tricks: -2; P3 dropped: 0; P4 in, no trick: +5
    assert g.final_score == [22, 23, 25, 30]


def test_bucked_maker_scores_plus_5_without_trick_subtraction():
    # same cards, but P2 orders up; asked to drop from the dealer's left: P1, P3, P4
    auction = [Passed(0), OrderedUp(1), UpCardPickedUp(3), Discarded(3, "JC")]
    evs = start() + [DealStarted(1, 3), DEAL_B] + auction
    assert Game(evs).final.turn == 0
    evs += [StayedIn(0), DroppedOut(2), StayedIn(3)]
    g = Game(evs + PLAY_B)
    # P2 (maker) took 2 tricks: bucked, +5 (not -2); P1 -3; P4 +5
    assert g.final_score == [22, 30, 25, 30]


def test_drop_order_maker_left():
    evs = start({"drop_order": "maker_left"}) + [DealStarted(1, 3), DEAL_B,
                                                Passed(0), OrderedUp(1), UpCardPickedUp(3), Discarded(3, "JC")]
    # pagat: from the maker's left: P3, P4, then P1
    assert Game(evs).final.turn == 2
    assert Game(evs + [StayedIn(2)]).final.turn == 3
    assert Game(evs + [StayedIn(2), StayedIn(3)]).final.turn == 0


@pytest.mark.parametrize("initial, over, winner, tied", [
    ((3, 25, 25, 25), True, 0, None),        # P1 3 -> 0: at or below 0 wins
    ((4, 25, 25, 25), False, None, None),    # P1 4 -> 1: not yet
    ((2, 2, 25, 25), True, 0, None),         # P1 -1, P2 0: the one furthest below wins
    ((3, 2, 25, 25), True, None, (0, 1)),    # both at 0: a tie (6.4 default)
])
def test_game_end_and_ties(initial, over, winner, tied):
    g = Game(start(initial=initial) + [DealStarted(1, 3), DEAL_B] + AUCTION_B1 + PLAY_B)
    assert g.final.game_over is over and g.winner == winner
    assert g.final.x.get("tied") == tied


def test_tie_play_on_option():
    evs = start({"tie_resolution": "play_on"}, initial=(3, 2, 25, 25)) + [DealStarted(1, 3), DEAL_B] + AUCTION_B1 + PLAY_B
    g = Game(evs)
    assert g.final_score == [0, 0, 25, 30] and not g.final.game_over
    assert legal_actions(g.final)[0] == (DealStarted(2, 0),)


def test_all_five_tricks_wins_at_once():
    # Clubs turned.  P1 holds the five top clubs and leads them; P2 must
    # follow his 9C on the first; everyone else is void.  P1 ends at 20, not
    # at or below 0, but all five tricks win the game (6.4).
    deal = dealt("JC JS AC KC QC", "9C AH KH QH JH", "AD KD QD JD TD", "AS KS QS TS 9S",
                 up="TC", kitty="9D TH 9H")
    play = plays("0:JC 1:9C 2:AD 3:AS | 0:JS 1:AH 2:KD 3:KS | 0:AC 1:KH 2:QD 3:QS | "
                 "0:KC 1:QH 2:JD 3:TS | 0:QC 1:JH 2:TD 3:9S")
    g = Game(start() + [DealStarted(1, 3), deal] + play)
    assert g.final_score == [20, 30, 30, 30]
    assert g.final.game_over and g.winner == 0


@pytest.mark.parametrize("option, over", [(False, False), (True, True)])
def test_walkover_when_everyone_drops(option, over):
    evs = start({"walkover_counts_as_five": option}) + [DealStarted(1, 3), DEAL_B,
                                                       OrderedUp(0), UpCardPickedUp(3), Discarded(3, "JC"),
                                                       DroppedOut(1), DroppedOut(2), DroppedOut(3)]
    # the maker plays alone: five one-card tricks, all his
    g = Game(evs + plays("0:JH | 0:JD | 0:AH | 0:9C | 0:9S"))
    assert g.final.tricks_won == [5, 0, 0, 0]
    assert g.final_score == [20, 25, 25, 25]          # simply -5 (section 8 item 8)
    assert g.final.game_over is over and g.winner == (0 if over else None)


def test_drop_restrictions():
    evs = start({"last_may_not_drop": True}) + [DealStarted(1, 3), DEAL_B, OrderedUp(0), UpCardPickedUp(3),
                                                Discarded(3, "JC"), DroppedOut(1), DroppedOut(2)]
    s = Game(evs).state_at(len(evs))
    assert s.legal == (StayedIn(3),)
    evs = start({"no_drop_at_or_below": 5}, initial=(25, 5, 25, 25)) + [
        DealStarted(1, 3), DEAL_B, OrderedUp(0), UpCardPickedUp(3), Discarded(3, "JC")]
    s = Game(evs).state_at(len(evs))
    assert s.turn == 1 and s.legal == (StayedIn(1),)


def test_no_trump_call_option():
    evs = start() + [DealStarted(1, 3), DEAL_C9] + [Passed(s) for s in (0, 1, 2, 3)]
    s = Game(evs).state_at(len(evs))
    assert TrumpNamed(0, None) not in s.legal and TrumpNamed(0, "D") not in s.legal
    with pytest.raises(ImpossibleEvent, match="no-trump cannot be called"):
        Game(evs + [TrumpNamed(0, None)])
    evs = start({"no_trump_callable": True}) + evs[1:]
    s = Game(evs).state_at(len(evs))
    assert TrumpNamed(0, None) in s.legal
    g = Game(evs + [TrumpNamed(0, None)])
    # P1 is the maker at no-trump; drop-outs start with P2
    assert g.final.maker == 0 and g.final.trump is None and g.final.phase == "drop" and g.final.turn == 1


def test_club_upcard_dealer_exchange_option():
    evs = start({"club_upcard_dealer_exchange": True}) + [DealStarted(1, 3), DEAL_C8]
    s = Game(evs).state_at(len(evs))
    assert s.legal == (UpCardPickedUp(3),) and s.trump == "C"
    g = Game(evs + [UpCardPickedUp(3), Discarded(3, "QD")])
    assert g.final.phase == "play" and g.final.maker is None and g.final.turn == 0
    assert "TC" in g.final.hands[3]


def test_renege_no_trump_four_card_trick():
    # C9 deal, but at T3 (clubs led) P1 plays TD while holding TC; at T4 he
    # is out of diamonds and shows TC.  Tricks unchanged: P1 1, P2 0, P3 2, P4 2.
    play = plays("0:QS 1:JC 2:KS 3:JS | 2:AH 3:JH 0:9H 1:TH | 2:9C 3:AC 0:TD 1:QC | "
                 "3:AD 0:TC 1:QD 2:KH | 3:9S 0:AS 1:KD 2:TS")
    g = Game(start() + [DealStarted(1, 3), DEAL_C9] + ALL_PASS + play)
    assert g.final_score == [24, 30, 23, 23]
    (f,) = g.audit()
    assert (f.seat, f.trick, f.card, f.led_suit, f.evidence) == (0, 3, "TD", "C", ("TC",))
    assert f.proven["trick"] == 4
    # 6.5: P1 is treated as bucked (+5 instead of -1); the others as played
    assert f.penalty_points == (5, 5, -2, -2) and f.score_if_penalized == (30, 30, 23, 23)


def test_renege_in_a_three_card_trick_with_a_dropped_player():
    # Deal B, P1 maker, P3 out.  At T4 (9C led) P2 plays AS holding AC:
    #   T4 P1 9C, P2 AS, P4 TC -> P4 (TC is the best club);  T5 P4 KS, P1 9S, P2 AC -> P4
    # P1 3 tricks -3, P2 none +5, P4 2 tricks -2.
    play = plays("0:JH 1:QD 3:9H | 0:JD 1:TD 3:9D | 0:AH 1:KC 3:QC | 0:9C 1:AS 3:TC | 3:KS 0:9S 1:AC")
    g = Game(start() + [DealStarted(1, 3), DEAL_B] + AUCTION_B1 + play)
    assert winners(g) == [0, 0, 0, 3, 3]
    assert g.final_score == [22, 30, 25, 23]
    (f,) = g.audit()
    assert (f.seat, f.trick, f.evidence, f.proven["trick"]) == (1, 4, ("AC",), 5)
    assert f.penalty_points == (-3, 5, 0, -2)          # P2 already +5; hand played out
    assert "scored as played" in f.penalty


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), order=st.sampled_from(["dealer_left", "maker_left"]),
       nt=st.booleans())
def test_random_games(seed, order, nt):
    from euchre_events.rules.simulate import random_game
    evs = random_game("buck", {"drop_order": order, "no_trump_callable": nt}, seed=seed)
    t = new_table()
    deck = sorted(C.deck())
    for ev in evs:
        if isinstance(ev, CardsDealt):
            every = [c for h in ev.hands for c in h] + [ev.up_card] + list(ev.kitty)
            assert sorted(every) == deck
        apply(t, ev)
        if t.phase == "play" and not t.trick:
            for s in range(4):
                assert len(t.hands[s]) == (5 if s in t.out else 5 - len(t.tricks))
            assert t.maker is None or t.maker not in t.out
    assert t.game_over
    assert t.winner is not None or len(t.x.get("tied", ())) >= 2


# ---------------------------------------------------------------- drops and scoring (from the rules audit, test_rulecheck)

# Dealer P4, up-card TH.  P1 holds the five top hearts: P1 orders up, P4
# takes the TH and discards 9S; P1 leads trumps and takes all 5 tricks.
BUCK_DEAL = """[Variant "buck"]
[Dealer "P4"]
{opts}[InitialScore "{initial}"]
Deal 1 dealer P4
P1: JH JD AH KH QH
P2: 9C TC JC QC KC
P3: AC 9D TD QD KD
P4: AD 9S TS QS KS
Up: TH
Kitty: AS JS 9H
P1 order  P4 pickup  P4 discard 9S  {drops}
"""


def buck(drops, opts="", initial="25, 25, 25, 25"):
    return one_game(BUCK_DEAL.format(opts=opts, initial=initial, drops=drops))


def test_buck_drop_forbidden_by_the_score_limit_is_flagged():
    # rules.md 6.7 noDropAtOrBelow5: P2 at 5 may not drop.  A record where
    # P2 drops anyway is kept (illegal but real) and flagged; before the fix
    # it was accepted silently and scored as a drop (0 for P2).
    g = buck("P2 drop  P3 stay  P4 stay", '[Option.no_drop_at_or_below "5"]\n', "25, 5, 25, 25")
    (flag,) = [f for f in g.final.flags if f.kind == "forbidden-drop"]
    assert flag.seat == 1 and "at 5 or below may not drop" in flag.text
    # P2 legally offered only "stay"
    s = buck("", '[Option.no_drop_at_or_below "5"]\n', "25, 5, 25, 25")
    st = s.state_at(len(s.events))
    assert st.turn == 1 and [e.kind for e in st.legal] == ["StayedIn"]


def test_buck_last_player_may_not_drop_is_flagged():
    # 6.2 alternative (last_may_not_drop): P2 and P3 dropped, so P4 may not.
    g = buck("P2 drop  P3 drop  P4 drop", '[Option.last_may_not_drop "true"]\n')
    assert [f.seat for f in g.final.flags if f.kind == "forbidden-drop"] == [3]
    assert not [f for f in buck("P2 drop  P3 drop  P4 stay", '[Option.last_may_not_drop "true"]\n')
                .final.flags if f.kind == "forbidden-drop"]


def test_buck_drop_out_scoring_and_all_five():
    # 6.4: the maker P1 takes 5 tricks: -5 (25 -> 20) and wins at once; P3
    # stayed in with no trick: +5; the dropped P2 and P4 score 0.
    g = buck("P2 drop  P3 stay  P4 drop")
    g = Game(list(g.events) + [CardPlayed(s, c) for s, c in (
        (0, "JH"), (2, "KD"), (0, "JD"), (2, "QD"), (0, "AH"), (2, "TD"),
        (0, "KH"), (2, "9D"), (0, "QH"), (2, "AC"))])
    assert g.final_score == [20, 25, 30, 25]
    assert g.winner == 0
