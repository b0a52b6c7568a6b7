"""Hand-worked positions of the variants the solver's own tests leave out
(issue 21, "Checked against people and against the physical facts"): the
values are worked out from rules.md in each docstring; the solver must find
them (method "fast", which tests/test_analysis_differential.py holds to the
reference).  Each position is a recorded single-deal fixture cut after
``k`` events."""
from __future__ import annotations

import os

import pytest

from conftest import ROOT
from euchre_events.analysis.solver import action_values, value_for
from euchre_events.formats import read_records
from euchre_events.rules.engine import fold, new_table


def at(rel: str, k: int):
    """The table of fixture ``rel`` after ``k`` events."""
    evs = read_records(os.path.join(ROOT, "fixtures", rel))[0].events
    return fold(new_table(), evs, 0, k)


def values(t, seat: int) -> dict:
    """``{action words: value from seat's side}`` at ``t``."""
    out = {}
    for a, pts in action_values(t):
        word = getattr(a, "card", None) or getattr(a, "bid", None) or type(a).__name__
        out[word] = value_for(t.variant, pts, t.variant.side_of(seat))
    return out


C13 = "two-handed/deals/c13-non-dealer-leads-march-two.euchre"


def test_two_handed_order_is_a_march():
    """Two-handed, case C13 (rules.md 3.1-3.4): P1 holds JH JD AH KH AS, QH is
    turned up; P2 (dealer) TH 9H AC KC QC.  If P1 orders, P2 picks QH up and
    keeps three hearts at most below P1's four top trumps (right, left, ace,
    king, rules.md 1.1): P1 draws them and AS takes the last trick, a march,
    +2 (3.4).  Ordering is worth +2 for P1 whatever P2 discards."""
    t = at(C13, 3)
    v = values(t, 0)
    assert v["OrderedUp"] == 2
    assert max(v.values()) == 2


def test_two_handed_dealer_discards_are_all_lost():
    """After the pick-up P2 may discard any of six cards: each leaves P1's
    four top trumps and the ace of spades to take all five tricks (+2 for
    P1, -2 from P2's side)."""
    t = at(C13, 5)
    v = values(t, 1)
    assert set(v) == {"TH", "9H", "AC", "KC", "QC", "QH"} and set(v.values()) == {-2}


def test_two_handed_leading_the_side_ace_first_costs_the_march():
    """At P1's first lead: any trump draws P2's trumps (P2 holds TH 9H QH,
    three, and must follow, 1.3), so the march stands (+2); leading AS first
    lets P2, void in spades, trump it: P1 takes four, one point (3.4)."""
    t = at(C13, 6)
    v = values(t, 0)
    assert v == {"JH": 2, "JD": 2, "AH": 2, "KH": 2, "AS": 1}


MOON = "bid/deals/moon-made-scores-24.euchre"
GHOST = "ghost-hand/deals/ghost-swap-blind-then-bid.euchre"


def test_bid_moon_made_at_the_last_two_tricks():
    """Bid Euchre, a moon (rules.md 7.2, 7.4, 7.5): N bid the moon and named
    hearts; its partner S sits out.  After four tricks all N's, N holds QH TH,
    the only trumps left (E and W hold none): either lead wins both tricks,
    six of six, the moon's 24 points; the defenders score nothing.  From N/S's
    side +24 whatever N leads."""
    t = at(MOON, 20)
    assert values(t, 0) == {"QH": 24, "TH": 24}


def test_bid_moon_three_tricks_out():
    """The same moon one trick earlier: N holds KH QH TH, every lead still
    wins (E and W are void in hearts, 1.3: they must discard): +24 each."""
    t = at(MOON, 17)
    assert values(t, 0) == {"KH": 24, "QH": 24, "TH": 24}


def test_ghost_hand_swapper_names_its_long_suit():
    """Ghost Hand (rules.md 5.2-5.4): P1 took the ghost hand blind (9H AD KD QD
    TD 9D; its own hand, with both red jacks, is dead) and bid 3.  Naming
    diamonds: nobody else holds a diamond or a red jack, so P1's five
    diamonds win five tricks; the last, 9H, loses to P2's QH (P3 follows
    TH): the bid made, P1 +5 (a trick a point), P2 +1 for its trick, P3 0.
    Naming clubs, hearts or spades P1 takes at most two tricks: the bid is
    set, -3 (5.4).  Each party's own points (max-n, docs/analysis.md)."""
    t = at(GHOST, 7)
    pts = {a.suit: p for a, p in action_values(t)}
    assert pts["D"] == (5, 1, 0)
    assert all(p[0] == -3 for s, p in pts.items() if s != "D")


def test_ghost_hand_swap_weighed_against_keeping_the_hand():
    """P1's first decision: take the ghost hand, or bid or pass with its own
    (JH JD AH KH 9S 9C).  Face up, max-n: with the ghost hand P1 cannot stop
    P2 (AS KS QS JS TS QH) from bidding the moon over it: with spades trump
    P2's right bower draws P3's only trump, the left bower JC, and QH outranks
    the other hearts, so P2 takes all six (24, rules.md 5.4) and P1 scores 0.
    Keeping its hand and passing, P1 takes a trick as a defender (+1).  The
    solver must find the swap worth less to P1 than keeping its hand."""
    t = at(GHOST, 3)
    pts = {(type(a).__name__, getattr(a, "bid", None)): p for a, p in action_values(t)}
    assert pts[("HandSwappedWithGhost", None)] == (0, 24, 0)
    assert pts[("Passed", None)][0] == 1
    assert pts[("Passed", None)][0] > pts[("HandSwappedWithGhost", None)][0]


def test_cutthroat_lone_defender_takes_all_five():
    """Cutthroat (rules.md 4.4, 4.5): P2 took the dummy and made hearts, P3
    defends alone with JH JD AH KH QH, the five highest trumps (1.1), P1 sits
    out.  Whatever P2 leads and whatever P3 plays, P3 takes all five: a lone
    defender's five tricks give 4 to each defender, 0 to the maker."""
    lead = at("cutthroat/deals/lone-defender-takes-five.euchre", 12)
    assert {p for _, p in action_values(lead)} == {(4, 0, 4)}
    follow = at("cutthroat/deals/lone-defender-takes-five.euchre", 13)
    assert {p for _, p in action_values(follow)} == {(4, 0, 4)}
    assert values(follow, 2)["JH"] == 4          # P3's own points (max-n): +4


def test_cutthroat_forced_left_bower():
    """Cutthroat case C12 b: P3 holds one trump, JD (the left bower of
    hearts, 1.2), and must follow the right bower's lead (1.3): its only
    legal card, and the maker ends with two tricks: each defender +2 (4.5)."""
    t = at("cutthroat/deals/c12b-euchre-pays-each-defender.euchre", 14)
    assert [(a.card, p) for a, p in action_values(t)] == [("JD", (2, 0, 2))]


def test_buck_five_top_clubs_take_every_trick():
    """Buck, clubs turned (rules.md 6.2-6.4): P1 holds JC JS AC KC QC, the
    five highest clubs (JS the left bower); any lead takes all five tricks:
    -5 off P1's count (a gain: Buck counts down, so +5 from P1's side) and
    +5 for each other player."""
    t = at("buck/deals/five-tricks-win-at-once.euchre", 3)
    assert {p for _, p in action_values(t)} == {(-5, 5, 5, 5)}
    assert set(values(t, 0).values()) == {5}


def test_buck_maker_held_to_two_is_bucked_whatever_he_leads():
    """Buck (6.4): P2 ordered diamonds and is held to two tricks by P1's
    bowers and ace: every card P2 plays to the first trick ends the same,
    P2 bucked (+5 on his count, -5 from his side), P1 -3, P4 +5, P3 (out) 0."""
    t = at("buck/deals/bucked-maker-scores-plus-five.euchre", 11)
    assert {p for _, p in action_values(t)} == {(-3, 5, 0, 5)}
    assert set(values(t, 1).values()) == {-5}


def test_bid_four_made_and_the_defenders_score_their_two():
    """Bid Euchre case C10 (rules.md 7.5): N bid 4 in hearts and has taken
    four tricks; E/W took one and take the last with AC (S holds KD QD, no
    trump, and E/W's AC and KS win the last two).  Whatever S plays, the bid
    is made with four: N/S 4, E/W 2 for their tricks: from N/S's side
    4 - 2 = +2 (the net of docs/analysis.md)."""
    t = at("bid/deals/c10-bid-four-made.euchre", 26)
    assert {a.card: p for a, p in action_values(t)} == {"KD": (4, 2), "QD": (4, 2)}
    assert set(values(t, 2).values()) == {2}


def test_ghost_hand_failed_moon_whatever_is_led():
    """Ghost Hand (5.4): P1 bid the moon in hearts and, after four tricks,
    holds 9S 9C with no trump left: P2's AS or P3's AC wins whichever is led,
    so the moon fails, -24 for P1 either way.  Who takes the last two tricks
    follows the lead (9S: P2 with AS then KS, 2 points; 9C: P3 with AC, KC).
    P1's own points are equal, so the tie rule (docs/analysis.md) decides
    between the others: the same total to the rivals, then the smaller
    points vector in party order, 9C."""
    t = at("ghost-hand/deals/failed-moon-loses-24.euchre", 19)
    pts = {a.card: p for a, p in action_values(t)}
    assert pts == {"9S": (-24, 2, 0), "9C": (-24, 0, 2)}
    from euchre_events.analysis.solver import solve
    assert solve(t) == (-24, 0, 2)
