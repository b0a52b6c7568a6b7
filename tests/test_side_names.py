"""Side names and side groupings have one home, rules/seats.py (issue 24):
the rules' renege notes, the describe/show words, the audit report's full
words, the tutorial and the table drawing all read them from there."""
from __future__ import annotations

import pytest

from euchre_events.rules.registry import make_variant
from euchre_events.rules.seats import side_groups, side_long, side_short
from euchre_events.ui.describe import score_words, side_name, sides_of, winner_words


@pytest.mark.parametrize("variant,groups", [("standard", [[0, 2], [1, 3]]), ("bid", [[0, 2], [1, 3]]),
                                            ("cutthroat", [[0], [1], [2]]),
                                            ("two-handed", [[0], [1]])])
def test_each_variant_groups_its_seats_into_sides_once(variant, groups):
    v = make_variant(variant)
    assert v.sides() == side_groups(v.n_seats, v.n_sides, v.side_of) == groups


def test_side_names_short_and_long():
    assert [side_short(s) for s in ([0, 2], [1, 3])] == ["N/S", "E/W"]
    assert [side_long(s) for s in ([0, 2], [1, 3])] == ["North-South", "East-West"]
    assert side_short([1], 3) == side_long([1], 3) == "P2"
    assert side_short([2], 4) == "South"
    assert make_variant("standard").side_name(1) == "E/W"


def test_the_rules_renege_notes_name_sides_from_the_table():
    """Standard's tournament penalty (rules.md 2.7) and Bid's (7.6) name the
    sides as the table does."""
    from euchre_events.rules.table import Renege
    r = Renege(position=0, deal=1, trick=1, seat=1, card="9C", led_suit="H", evidence=("TH",),
               lone=False, against_lone=False, by_lone=False, maker=0)
    _, _, note = make_variant("standard").renege_penalty(None, r, [1, 0])
    assert note == "hand ends; N/S score 2"
    _, _, note = make_variant("bid").renege_penalty(None, r, [1, 0])
    assert note.endswith("E/W lose 2")


def test_the_interfaces_agree_on_side_names():
    from euchre_events.ui.auditreport import side_in_full
    from euchre_events.ui.describe import score_words, side_label, sides_of
    players = ("Ann", "Bob", "Cy", "Di")
    assert sides_of("standard", 4) == make_variant("standard").sides()
    assert [side_label(i, "standard", players) for i in (0, 1)] == ["N/S", "E/W"]
    assert score_words([8, 10], "standard", players) == "N/S 8, E/W 10"
    assert side_in_full(make_variant("standard"), 1, players) == "East-West (Bob & Di)"
    assert side_in_full(make_variant("cutthroat"), 2, ("Jo", "Kit", "Lee")) == "P3 (Lee)"


# ---------------------------------------------------------------- sides, winners and seats in words (from issue 12's readable output tests)


def test_sides_and_winners_in_words():
    vwec = ("WWMM", "Llama", "Euchrazy1", "LeftyKnavey")
    assert sides_of("standard", 4) == [[0, 2], [1, 3]] and sides_of("cutthroat", 3) == [[0], [1], [2]]
    assert side_name(1, "standard", vwec) == "E/W (Llama & LeftyKnavey)"
    assert score_words([8, 10], "standard", vwec) == "N/S 8, E/W 10"
    assert winner_words(None, "standard", vwec, game_over=False) == \
        "none yet (the record stops before the game ends)"
    assert side_name(1, "cutthroat", ("Jo", "Kit", "Lee")) == "P2 (Kit)"
    assert score_words([8, 11, 4], "cutthroat", ("Jo", "Kit", "Lee")) == "P1 8, P2 11, P3 4"
    assert side_name(2, "buck", ("Ed", "Flo", "Gil", "Hope")) == "South (Gil)"


def test_errors_name_seats_as_people_say_them():
    """Issue "readable output": seats in errors as ``South (Euchrazy1)``, not ``seat 2``."""
    from euchre_events.rules.seats import name_seats
    players = ("Ann", "Bob", "Cora", "Dan")
    assert name_seats("seat 3 plays QS, but the dealer (seat 0) took it up", players) == \
        "West (Dan) plays QS, but the dealer (North, Ann) took it up"
    assert name_seats("seat 2 passes", ("N", "E", "S", "W")) == "South passes"
    assert name_seats("seat 7 and seat 1", players, 4) == "seat 7 and East (Bob)"
    assert name_seats("seat 2 leads", ("P1", "P2", "P3"), 3) == "P3 leads"
