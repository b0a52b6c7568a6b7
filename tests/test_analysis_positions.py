"""Hand-worked positions of the variants the solver's own tests leave out
(issue 21, "Checked against people and against the physical facts"): the
values are worked out from rules.md in each docstring; the solver must find
them (method "fast", which tests/test_analysis_differential.py holds to the
reference).  Each position is a recorded single-deal fixture cut after
``k`` events."""
from __future__ import annotations

import os

import pytest

from euchre_events.analysis.solver import action_values, value_for
from euchre_events.formats import read_records
from euchre_events.rules.engine import fold, new_table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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
