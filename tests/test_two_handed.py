"""Two-handed Euchre (rules.md section 3, case C13).

Every expected value below is worked out by hand from rules.md and written
next to the deal; seats are 0 ("A", the non-dealer in most deals) and 1
("B").  Cards: rank 9 T J Q K A + suit C D H S.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from builders import one_game
from euchre_events.rules import cards as C
from euchre_events.rules.engine import ImpossibleEvent, apply, legal_actions, new_table
from euchre_events.events import (CardPlayed, CardsDealt, DealStarted, DealThrownIn, Discarded,
                                  GameStarted, OrderedUp, Passed, TrumpNamed, UpCardDeclined,
                                  UpCardPickedUp)
from euchre_events.projections import Game
from euchre_events.rules.registry import make_variant
from euchre_events.rules.variants.two_handed import TwoHandedEuchre, TwoHandedOptions

UNSEEN = ("??",) * 13


def start(options=None, initial=None, dealer=1):
    return [GameStarted("two-handed", options or {}, ("A", "B"), first_dealer=dealer,
                        initial_score=initial)]


def plays(spec: str) -> list:
    """'0:JH 1:9H | 0:JD 1:TH' -> CardPlayed events (seat:card, in play order)."""
    out = []
    for part in spec.split("|"):
        for item in part.split():
            s, c = item.split(":")
            out.append(CardPlayed(int(s), c))
    return out


def hands(h0: str, h1: str) -> tuple:
    return (tuple(h0.split()), tuple(h1.split()))


# Deal A (case C13).  Dealer B (seat 1), non-dealer A (seat 0).  Up-card QH,
# the other 13 cards undealt and unknown.  A holds the right and left bowers
# and AH KH: A orders up, B takes the QH and discards QC.
DEAL_A = [DealStarted(1, 1),
          CardsDealt(hands("JH JD AH KH AS", "TH 9H AC KC QC"), "QH", UNSEEN),
          OrderedUp(0), UpCardPickedUp(1), Discarded(1, "QC")]
# Trump hearts.  A leads every trick and wins it:
#   T1 JH (right) - B must follow hearts: 9H
#   T2 JD (left bower, a heart) - B follows TH
#   T3 AH - B follows QH (the up-card he took)
#   T4 KH - B has no heart left: AC
#   T5 AS - B void in spades: KC is not a trump, A wins
PLAY_A = plays("0:JH 1:9H | 0:JD 1:TH | 0:AH 1:QH | 0:KH 1:AC | 0:AS 1:KC")

# Deal C: the dealer B takes the up-card himself in round 1 (A passed).
# B dealt JH AS AC 9D 9S, takes QH, discards 9S -> JH QH AS AC 9D.
# A holds AH KH KS KC AD.  Trump hearts.  A (non-dealer) still leads:
#   T1 A AD, B must follow 9D -> A      T2 A KS, B AS -> B
#   T3 B JH, A must follow KH -> B      T4 B QH, A AH -> A (ace beats queen)
#   T5 A KC, B AC -> B                  B (maker) 3 tricks -> B +1
DEAL_C = [DealStarted(1, 1),
          CardsDealt(hands("AH KH KS KC AD", "JH AS AC 9D 9S"), "QH", UNSEEN),
          Passed(0), OrderedUp(1), UpCardPickedUp(1), Discarded(1, "9S")]
PLAY_C = plays("0:AD 1:9D | 0:KS 1:AS | 1:JH 0:KH | 1:QH 0:AH | 0:KC 1:AC")


def test_registry_names_and_defaults():
    v = make_variant("two-handed")
    assert isinstance(v, TwoHandedEuchre)
    assert isinstance(make_variant("two_handed"), TwoHandedEuchre)
    assert (v.n_seats, v.n_sides, v.hand_size) == (2, 2, 5)
    o = TwoHandedOptions()
    # rules.md 3.4 / 3.2 / 3.5 defaults
    assert o.target_score == 10 and o.dealer_may_decline_upcard and not o.stick_the_dealer
    assert o.renege_penalty == "tournament" and o.renege_value == 2
    # the fixed auction constants are not options (not stored in GameStarted)
    assert "alone_timing" not in o.to_dict()
    with pytest.raises(ValueError):
        TwoHandedOptions(renege_penalty="whatever")


def test_c13_non_dealer_leads_13_unknown_undealt_and_march_is_2():
    g = Game(start() + DEAL_A + PLAY_A)
    before_play = g.state_at(len(start()) + len(DEAL_A))
    # C13: the 13 undealt cards are unknown, not missing
    assert before_play.kitty == UNSEEN
    assert before_play.phase == "play" and before_play.trump == "H"
    # C13: the non-dealer (A, seat 0) leads trick 1
    assert before_play.turn == 0 and before_play.leader == 0
    # B took the up-card and discarded QC: 5 cards, QH among them
    assert sorted(before_play.hands[1]) == sorted("TH 9H AC KC QH".split())
    assert before_play.discards == ((1, "QC"),)
    # all five tricks to A: a march in two-handed is worth 2 (3.4), not 4
    assert [w for _, _, w in g.final.tricks] == [0, 0, 0, 0, 0]
    assert g.final_score == [2, 0]


def test_dealer_may_take_or_leave_up_card_after_order_up():
    evs = start() + [DealStarted(1, 1), CardsDealt(hands("JH JD 9S 9C 9D", "AH KH AS AC AD"), "QH", UNSEEN),
                     OrderedUp(0)]
    g = Game(evs)
    s = g.state_at(len(evs))
    # rules.md 3.2: trump is fixed by the order-up; the dealer may exchange or not
    assert s.trump == "H" and s.phase == "pickup" and s.turn == 1
    assert set(s.legal) == {UpCardPickedUp(1), UpCardDeclined(1)}
    # B leaves it: his hand is unchanged, no discard, A leads
    g = Game(evs + [UpCardDeclined(1)])
    s = g.final
    assert s.hands[1] == ["AH", "KH", "AS", "AC", "AD"] and s.up_status == "left"
    assert s.phase == "play" and s.turn == 0


def test_euchred_maker_gives_2_to_the_other_player():
    # A orders up hearts holding JH JD and three nines; B leaves the QH.
    #   T1 A JH, B must follow with a heart: KH -> A
    #   T2 A JD (left bower), B AH -> A (left bower beats the ace)
    #   T3 A 9S, B AS -> B;  T4 B AC, A 9C -> B;  T5 B AD, A 9D -> B
    # A (maker) 2 tricks: euchred, B +2 (3.4)
    evs = start() + [DealStarted(1, 1), CardsDealt(hands("JH JD 9S 9C 9D", "AH KH AS AC AD"), "QH", UNSEEN),
                     OrderedUp(0), UpCardDeclined(1)]
    evs += plays("0:JH 1:KH | 0:JD 1:AH | 0:9S 1:AS | 1:AC 0:9C | 1:AD 0:9D")
    g = Game(evs)
    assert [w for _, _, w in g.final.tricks] == [0, 0, 1, 1, 1]
    assert g.final_score == [0, 2]


def test_dealer_as_maker_must_exchange_and_non_dealer_still_leads():
    evs = start() + DEAL_C[:4]          # B has taken it up (OrderedUp by the dealer)
    s = Game(evs).state_at(len(evs))
    # taking it up *is* the exchange: no UpCardDeclined offered (3.2)
    assert s.legal == (UpCardPickedUp(1),)
    with pytest.raises(ImpossibleEvent):
        Game(evs + [UpCardDeclined(1)])
    g = Game(start() + DEAL_C + PLAY_C)
    first = g.state_at(len(start()) + len(DEAL_C))
    # 3.6 item 3: the non-dealer leads even when the dealer is the maker
    assert first.maker == 1 and first.turn == 0
    assert [w for _, _, w in g.final.tricks] == [0, 1, 1, 0, 1]
    assert g.final_score == [0, 1]       # maker 3 tricks: +1


def test_no_going_alone():
    evs = start() + [DealStarted(1, 1), CardsDealt(hands("JH JD AH KH AS", "TH 9H AC KC QC"), "QH", UNSEEN)]
    s = Game(evs).state_at(len(evs))
    # 3.3: no alone call is offered ...
    assert set(s.legal) == {Passed(0), OrderedUp(0)}
    # ... and a record claiming one cannot be folded
    with pytest.raises(ImpossibleEvent, match="no going alone"):
        Game(evs + [OrderedUp(0, alone=True)])


def test_round2_other_suits_then_thrown_in_and_deal_passes():
    evs = start() + [DealStarted(1, 1), CardsDealt(hands("JH JD AH KH AS", "TH 9H AC KC QC"), "QH", UNSEEN),
                     Passed(0), Passed(1)]
    s = Game(evs).state_at(len(evs))
    # round 2 starts with the non-dealer; any suit but the turned-down hearts
    assert s.phase == "round2" and s.turn == 0 and s.up_card_status == "turned down"
    assert set(s.legal) == {Passed(0), TrumpNamed(0, "C"), TrumpNamed(0, "D"), TrumpNamed(0, "S")}
    evs += [Passed(0), Passed(1)]
    g = Game(evs)
    assert g.final.phase == "thrown_in"
    g = Game(evs + [DealThrownIn("all passed")])
    # the deal is void (no score) and the former non-dealer (A) deals (3.1)
    assert g.final_score == [0, 0]
    acts, _ = legal_actions(g.final)
    assert acts == (DealStarted(2, 0),)


def test_stick_the_dealer():
    evs = start({"stick_the_dealer": True}) + [
        DealStarted(1, 1), CardsDealt(hands("JH JD AH KH AS", "TH 9H AC KC QC"), "QH", UNSEEN),
        Passed(0), Passed(1), Passed(0)]
    s = Game(evs).state_at(len(evs))
    # the stuck dealer may not pass and may not name the turned-down suit
    assert set(s.legal) == {TrumpNamed(1, "C"), TrumpNamed(1, "D"), TrumpNamed(1, "S")}


def test_mandatory_exchange_option():
    evs = start({"dealer_may_decline_upcard": False}) + [
        DealStarted(1, 1), CardsDealt(hands("JH JD 9S 9C 9D", "AH KH AS AC AD"), "QH", UNSEEN), OrderedUp(0)]
    s = Game(evs).state_at(len(evs))
    assert s.legal == (UpCardPickedUp(1),)      # Keller: the dealer must take it
    with pytest.raises(ImpossibleEvent):
        Game(evs + [UpCardDeclined(1)])


# Deal C with a renege by A at trick 4: B leads QH, A holds AH and KC and
# plays KC (a renege: he holds a heart).  B's QH wins T4.  T5: B leads AC,
# A (now void in clubs) trumps with AH and wins.  Tricks: A T1 and T5, B T2,
# T3, T4 -> B (maker) 3 tricks, +1 as played.
PLAY_C_RENEGE = plays("0:AD 1:9D | 0:KS 1:AS | 1:JH 0:KH | 1:QH 0:KC | 1:AC 0:AH")


def test_renege_in_a_two_card_trick():
    g = Game(start() + DEAL_C + PLAY_C_RENEGE)
    assert [w for _, _, w in g.final.tricks] == [0, 1, 1, 1, 0]
    assert g.final_score == [0, 1]
    (f,) = g.audit()
    assert (f.seat, f.trick, f.card, f.led_suit, f.evidence) == (0, 4, "KC", "H", ("AH",))
    # A shows the AH on trick 5
    assert f.proven["trick"] == 5 and f.proven["card"] == "AH"
    assert f.established == "when trick 4 was gathered: seat 1 played to trick 5"
    assert f.established_at["trick"] == 5 and f.provable_at["trick"] == 5
    # 3.5: the hand stops and the other player scores 2 (not the +1 as played)
    assert f.penalty_points == (0, 2) and f.score_if_penalized == (0, 2)


@pytest.mark.parametrize("preset, points", [
    ("tournament", (0, 2)),   # hand void, B +2
    ("casual", (0, 3)),       # B's +1 as played, then +2
    ("deduct", (-2, 1)),      # as played, A loses 2
])
def test_renege_presets(preset, points):
    g = Game(start({"renege_penalty": preset}) + DEAL_C + PLAY_C_RENEGE)
    (f,) = g.audit()
    assert f.penalty_points == points


def test_game_ends_at_target_and_nothing_after():
    # A starts at 8; the march (+2) of deal A takes him to 10 (3.4)
    evs = start(initial=(8, 5)) + DEAL_A + PLAY_A
    g = Game(evs)
    assert g.final_score == [10, 5] and g.final.game_over and g.winner == 0
    # a later deal is kept and flagged, and counts for nothing (rules.md 1.6)
    g2 = Game(evs + [DealStarted(2, 0)])
    assert [f.kind for f in g2.final.flags] == ["played-after-game-won"]
    assert g2.winner == 0 and g2.final.official_scores == [10, 5]
    # with a target of 5 the same deal from 3-0 also ends the game
    g = Game(start({"target_score": 5}, initial=(3, 0)) + DEAL_A + PLAY_A)
    assert g.winner == 0
    # and from 7-5 it does not (9 < 10)
    g = Game(start(initial=(7, 5)) + DEAL_A + PLAY_A)
    assert not g.final.game_over and g.final_score == [9, 5]


def test_impossible_deals_are_refused():
    base = start() + [DealStarted(1, 1)]
    with pytest.raises(ImpossibleEvent, match="6 cards"):
        Game(base + [CardsDealt(hands("JH JD AH KH AS 9S", "TH 9H AC KC QC"), "QH", ("??",) * 12)])
    with pytest.raises(ImpossibleEvent, match="not 13"):
        Game(base + [CardsDealt(hands("JH JD AH KH AS", "TH 9H AC KC QC"), "QH", ("??",) * 12)])
    with pytest.raises(ImpossibleEvent, match="dealt twice"):
        Game(base + [CardsDealt(hands("JH JD AH KH AS", "TH 9H AC KC AS"), "QH", UNSEEN)])
    with pytest.raises(ImpossibleEvent, match="3 hands|seats"):
        Game(base + [CardsDealt(hands("JH JD AH KH AS", "TH 9H AC KC QC") + (("9D",) * 5,), "QH")])


# ------------------------------------------------------------ random play

@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), stick=st.booleans())
def test_random_games_end_deal_every_card_once_and_keep_hand_sizes(seed, stick):
    from euchre_events.rules.simulate import random_game
    evs = random_game("two-handed", {"stick_the_dealer": stick}, seed=seed)
    t = new_table()
    deck = sorted(C.deck())
    for ev in evs:
        if isinstance(ev, CardsDealt):
            every = [c for h in ev.hands for c in h] + [ev.up_card] + list(ev.kitty)
            assert sorted(every) == deck           # 5 + 5 + 1 + 13 = 24, each once
        apply(t, ev)
        if t.phase == "play" and not t.trick:
            # between tricks both players hold 5 minus the tricks played
            assert [len(h) for h in t.hands] == [5 - len(t.tricks)] * 2
    assert t.game_over and t.winner in (0, 1)
    assert max(t.scores) >= 10 and min(t.scores) < 10


# ---------------------------------------------------------------- the renege presets (from the rules audit, test_rulecheck)

# Dealer P2, KC up: clubs trump.  P1 orders up, P2 leaves the up-card (3.2).
# P2 holds JS, the left bower (a club here, rules.md 1.2), and plays AS on
# P1's AC lead: a renege at trick 1, shown at trick 2 (JS).
#   T1 P1 AC, P2 AS   -> P1 (trump)       T2 P1 9C, P2 JS -> P2 (left bower)
#   T3 P2 KD, P1 TD   -> P2               T4 P2 KS, P1 JH -> P2 (JH a plain heart)
#   T5 P2 9S, P1 9D   -> P2
# The maker P1 takes 1 trick: euchred, P2 +2 as played (rules.md 3.4).
TWO_HANDED_DEAL = """
Deal 1 dealer P2
P1: JH 9C 9D AC TD
P2: AS 9S KD KS JS
Up: KC
Kitty: JC QS QC AH AD TS QD 9H QH KH JD TC TH
P1 order  P2 decline
T1: P1 AC  P2 AS
T2: P1 9C  P2 JS
T3: P2 KD  P1 TD
T4: P2 KS  P1 JH
T5: P2 9S  P1 9D
"""


def test_two_handed_casual_first_to_reach_wins():
    # rules.md 3.5 (the four-handed rules apply) with the casual preset: the
    # hand is scored as played (P2 8 -> 10, P2 reaches 10 first), then P1
    # scores the renege's 2 (9 -> 11).  Official 11-10: P2 won (before the
    # fix: P1, the higher).
    g = one_game('[Variant "two-handed"]\n[Dealer "P2"]\n[Option.renege_penalty "casual"]\n'
                 '[InitialScore "9, 8"]\n' + TWO_HANDED_DEAL)
    (f,) = g.audit()
    assert (f.seat, f.trick, f.card, f.evidence) == (1, 1, "AS", ("JS",))
    assert g.final_score == [9, 10]
    assert g.official_score == [11, 10]
    assert g.winner == 1


def test_two_handed_tournament_renege():
    # rules.md 3.5 default: the hand stops and the other player scores 2.
    g = one_game('[Variant "two-handed"]\n[Dealer "P2"]\n' + TWO_HANDED_DEAL)
    assert g.final_score == [0, 2]
    assert g.official_score == [2, 0]
