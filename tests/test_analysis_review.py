"""The review layer (issue 21): win chances from the score, the EGN labels,
the decisions of a real record, the JSON of ``analyze`` and its cache.

Values are worked out by hand from the rules (rules.md 2.6) and from the
stated outcome table (docs/analysis.md, "Win chance")."""
from __future__ import annotations

import collections
import glob
import os

import pytest

from conftest import ROOT
from euchre_events.analysis import labels as L
from euchre_events.analysis.winchance import OUTCOMES, outcomes_for, win_chance, win_chance_after


def _recount(pattern: str) -> collections.Counter:
    from euchre_events.formats import read_records
    from euchre_events.projections import Game
    cnt: collections.Counter = collections.Counter()
    for f in sorted(glob.glob(os.path.join(ROOT, pattern))):
        for r in read_records(f):
            t = Game(r.events).table_at(len(r.events))
            dealers = {ev.deal: ev.dealer for ev in r.events if ev.kind == "DealStarted"}
            for dn, pts, _ in t.deal_results:
                ds = t.variant.side_of(dealers[dn])
                cnt[(pts[ds], pts[1 - ds])] += 1
    return cnt


@pytest.mark.parametrize("variant,patterns", [
    ("standard", ["fixtures/egn/*.egn", "fixtures/egn/match/*.egn"]),
    ("two-handed", ["fixtures/two-handed/*.euchre"]),
    ("bid", ["fixtures/bid/*.euchre"]),
])
def test_outcome_table_is_what_the_records_say(variant, patterns):
    """The stated distribution of deal outcomes is recounted from the records it names."""
    cnt: collections.Counter = collections.Counter()
    for p in patterns:
        cnt += _recount(p)
    assert sorted(cnt.items()) == sorted(((a, b), n) for a, b, n in OUTCOMES[variant])


def test_one_deal_from_the_end():
    """At 9-9 to 10 the next deal decides: the dealer's side wins with the
    chance that it scores, (60 + 23 + 6) / 134 by the table."""
    assert win_chance("standard", 9, 9, True, 10) == pytest.approx(89 / 134)
    assert win_chance("standard", 9, 9, False, 10) == pytest.approx(45 / 134)


def test_a_march_at_nine_is_worth_a_point():
    """At 9 a march (2) wins the game as a point (1) does: no win chance lost
    between them (the issue's example)."""
    one = win_chance_after("standard", [9, 4], (1, 0), 0, 1, 10)
    two = win_chance_after("standard", [9, 4], (2, 0), 0, 1, 10)
    assert one == two == 1.0


def test_symmetry_and_range():
    """Level at 0-0 the two sides' chances add to 1, and dealing is an edge."""
    a = win_chance("standard", 0, 0, True, 10)
    b = win_chance("standard", 0, 0, False, 10)
    assert a + b == pytest.approx(1.0)
    assert 0.5 < a < 0.6
    assert win_chance("standard", 3, 8, True, 10) < win_chance("standard", 8, 3, True, 10)


@pytest.mark.parametrize("variant", sorted(OUTCOMES))
def test_win_chances_are_the_reference_sweeps_floats(variant):
    """``winchance._solve`` (each state's successors looked up once) gives the
    very floats of ``_solve_reference`` (looked up in every sweep), at every
    score from below ``-target`` (Bid) to past the target, either side
    dealing, for the targets the variants play (5 to 15 and Bid's 32)."""
    from euchre_events.analysis import winchance
    table = outcomes_for(variant)
    for target in (5, 10, 11, 15) + ((32,) if variant == "bid" else ()):
        fast = winchance._solve.__wrapped__(table, target)
        ref = winchance._solve_reference(table, target)
        scores = range(-target - 6, target + 26)
        assert [fast(a, b, d) for a in scores for b in scores for d in (True, False)] == \
            [ref(a, b, d) for a in scores for b in scores for d in (True, False)]


def test_more_than_two_parties_have_no_win_chance():
    assert outcomes_for("cutthroat") is None
    assert win_chance("buck", 10, 10, True, 0) is None
    assert win_chance_after("cutthroat", [1, 2, 3], (2, 0, 2), 0, 1, 10) is None


# ----------------------------------------------------------------- labels

def test_labels_worked_examples():
    """docs/analysis.md's examples: a euchre given away at 0-0 (2 points face
    up, 11% win chance) that the seat view also disliked is a mistake; at
    8-8 (27% of the game) a blunder; the same card the seat view found best
    is "interesting" (the cards lay badly); a cost-free card the seat view
    disliked is dubious; the only card that saves two points, found against
    the odds, is brilliant; found where the odds gave it in under half of the
    deals, great."""
    assert L.label(2.0, 1.1, 0.11, seat_view_se=0.1) == "?"
    assert L.label(2.0, 1.1, 0.27, seat_view_se=0.1) == "??"
    assert L.label(2.0, 0.0, 0.11, seat_view_se=0.1) == "!?"
    assert L.label(0.0, 0.6, 0.0, seat_view_se=0.1) == "?!"
    assert L.label(0.0, 0.4, 0.0, seat_view_se=0.1, others_face_up_cost=2.0, seat_view_gap=0.4) == "!!"
    assert L.label(0.0, 0.0, 0.0, seat_view_se=0.1, others_face_up_cost=2.0, seat_view_gap=0.0,
                   best_share=0.4) == "!"
    # the only move, but the best in most imagined deals: obvious, no mark
    assert L.label(0.0, 0.0, 0.0, seat_view_se=0.1, others_face_up_cost=2.0, seat_view_gap=0.0,
                   best_share=0.9) is None
    # face up only: no "great"
    assert L.label(0.0, None, 0.0, others_face_up_cost=2.0) is None
    assert L.label(0.0, 0.0, 0.0, others_face_up_cost=0.0) is None
    assert L.label(3.0, 3.0, 0.5, forced=True) is None
    # a seat-view cost within two standard errors is not "bad"
    assert L.label(0.0, 0.3, 0.0, seat_view_se=0.2) is None
    # no win chance (three or four parties): points decide
    assert L.label(2.0, None, None) == "??"
    assert L.label(1.0, None, None) == "?"


def test_accuracy_is_lichess_formula():
    """No loss is 100 (103.1668 - 3.1669 = 99.9999, clipped); 10% lost is
    103.1668 e^-0.4354 - 3.1669 = 63.6."""
    assert L.decision_accuracy(0.0, 0.0) == pytest.approx(99.9999, abs=1e-3)
    assert L.decision_accuracy(0.10, 2.0) == pytest.approx(63.59, abs=0.05)
    assert L.accuracy_of([]) is None


def test_json_text_is_the_standard_librarys_indented_json():
    """``analyze --format json`` writes its own indent-1 JSON (the standard
    library's indented encoder is pure Python): it must be, byte for byte,
    ``json.dumps(doc, ensure_ascii=False, indent=1)``: on the face-up
    analysis of a real record (fixtures/egn/VWEC Finals.egn, deal 1), and on
    the awkward values (quotes, a newline, non-ASCII and U+2028 in a name,
    -0.0, big ints, empty containers, tuples); a document it does not know
    (a non-string key, NaN) is left to ``json.dumps``."""
    import json

    from euchre_events.analysis.review import _dumps_indent1, analyze, to_json_text
    from euchre_events.formats import read_records

    game = read_records("fixtures/egn/VWEC Finals.egn")[0].game
    a = analyze(game, deals=[1], face_up_only=True)
    assert to_json_text([a]) == json.dumps({"games": [a.to_json()]}, ensure_ascii=False, indent=1)
    odd = {"name": 'Dé "Q"\n\u2028<b>', "v": [-0.0, 0.1, 2 ** 70, True, False, None, (1, [])],
           "e": {}, "l": [], "n": {"x": [{"y": []}]}}
    assert _dumps_indent1(odd) == json.dumps(odd, ensure_ascii=False, indent=1)
    # numbers as Python spells them (the compact C encoder writes them; msgspec only lays them out)
    odd2 = {"f": [1e-05, 9.999e-05, 1e16, -1e300, 123456.789, 5e-324], "c": "\x00\x1f\x7f\\/\u00e9\U0001f0a1",
            "\u2029k": [[[]], [{}]]}
    assert _dumps_indent1(odd2) == json.dumps(odd2, ensure_ascii=False, indent=1)
    for other in ({1: "a"}, [float("nan")], {"x": float("inf")}, ["\ud800"]):
        assert _dumps_indent1(other) == json.dumps(other, ensure_ascii=False, indent=1)


def test_json_text_of_odd_values_is_the_standard_librarys():
    """to_json_text writes with msgspec only where msgspec spells every value
    as json.dumps does: floats outside 1e-4..1e15 (1e-05, 1e+16), NaN and
    infinity, a lone surrogate in a name, a name that is not a string, in
    any of the places a number or a text stands, give the same text as
    ``json.dumps(doc, ensure_ascii=False, indent=1)``."""
    import dataclasses
    import json

    from euchre_events.analysis.review import analyze, to_json_text
    from euchre_events.formats import read_records

    game = read_records("fixtures/egn/VWEC Finals.egn")[0].game
    a = analyze(game, deals=[1], face_up_only=True)

    def same(x, errors=()):
        doc = {"games": [g.to_json() for g in x]}
        if errors:
            doc["errors"] = [dict(e) for e in errors]
        assert to_json_text(x, errors) == json.dumps(doc, ensure_ascii=False, indent=1)

    same([a])
    same([a], [{"file": "x.egn", "error": "bad \u00e9"}])
    same([a], [{"file": "x.egn", "error": 1e-05}])
    deal = a.deals[0]
    d0 = deal.decisions[3]
    o0 = d0.options[0]
    p = a.players_summary[0]
    for odd in (1e-05, -9.99e-05, 1e16, float("nan"), float("inf"), (1e-05, 2.0), 2 ** 70, 0.0, -0.0):
        # a (low, high) pair only where a value over readings stands
        span = isinstance(odd, tuple)
        opts = [dataclasses.replace(o0, face_up=odd), dataclasses.replace(o0, seat_view=odd, seat_view_se=0.1)]
        decs = [dataclasses.replace(d0, played_face_up=odd), dataclasses.replace(d0, played_seat_view=odd)]
        if not span:
            opts.append(dataclasses.replace(o0, best_share=odd, seat_view=1.0))
            decs += [dataclasses.replace(d0, face_up_cost=odd), dataclasses.replace(d0, win_chance_lost=odd)]
            same([dataclasses.replace(a, players_summary=(dataclasses.replace(p, accuracy=odd),))])
            same([dataclasses.replace(a, players_summary=(dataclasses.replace(p, labels={"?": odd}),))])
        decs += [dataclasses.replace(d0, options=(opt,) + d0.options[1:]) for opt in opts]
        for dec in decs:
            same([dataclasses.replace(a, deals=(dataclasses.replace(deal, decisions=(dec,)),))])
        same([dataclasses.replace(a, deals=(dataclasses.replace(deal, par_value=odd),))])
    for name in ("\ud800", 3, 1e-05, None, "Dé \"Q\"\n\u2028"):
        same([dataclasses.replace(a, players=(name,) + a.players[1:], title=str(name))])
        same([dataclasses.replace(a, file=name)])


def test_fast_constructors_make_the_dataclasses():
    """review's _option and _decision (no frozen __init__) make objects equal
    to the dataclasses' own, field for field and in the same order."""
    from euchre_events.analysis.review import Decision, Option, _decision, _option
    from euchre_events.events import CardPlayed

    ev = CardPlayed(1, "JD")
    args = (ev, "JD", 2.0, (2, 0), (0.5, 1.0), 0.25, 0.75)
    o = _option(*args)
    assert o == Option(*args) and vars(o) == vars(Option(*args))
    assert list(vars(o)) == [f.name for f in dataclasses_fields(Option)]
    assert _option(*args[:4]) == Option(*args[:4])
    dargs = (7, 1, 1, "play", 3, 1, ev, (o,), False, 2.0, 1.0, 0.0, 0.5, 0.1, "?", False, "why")
    d = _decision(*dargs)
    assert d == Decision(*dargs) and repr(d) == repr(Decision(*dargs))
    assert list(vars(d)) == [f.name for f in dataclasses_fields(Decision)]
    assert _decision(*dargs[:9]) == Decision(*dargs[:9])


def dataclasses_fields(cls):
    import dataclasses
    return dataclasses.fields(cls)


def test_analyze_walks_on_from_the_deal_before():
    """analyze() goes on from the table the deal before left (no fold of the
    game's checkpoints): the same deals as analyze_deal, one by one, from
    game.table_at; and a deal asked alone, or a later one only, the same."""
    from euchre_events.analysis.review import analyze, analyze_deal
    from euchre_events.formats import read_records

    game = read_records("fixtures/egn/Six Points in Two Hands.egn")[0].game
    assert [d for d, _ in game.deal_positions()] == [1, 2]
    a = analyze(game, face_up_only=True)
    one = [analyze_deal(read_records("fixtures/egn/Six Points in Two Hands.egn")[0].game, d, face_up_only=True)
           for d in (1, 2)]
    assert repr(a.deals) == repr(tuple(one))
    assert repr(analyze(game, deals=[2], face_up_only=True).deals) == repr((one[1],))


def test_each_play_decision_has_the_solvers_values_at_its_position():
    """A play decision's options are the engine's legal cards at its position
    with the solver's points (``action_values``), the played card equal to
    the recorded one: also where the review took a forced card's value from
    the card played just before it (``_decide``'s chain) or valued the cards
    by ``play_values``.  Over whole games of two records (93 and 12 forced
    cards among their play decisions, each right after a play
    decision: the chain's)."""
    from euchre_events.analysis import solver as S
    from euchre_events.analysis.review import analyze
    from euchre_events.formats import read_records
    from euchre_events.rules import engine

    forced = []
    for f in ("fixtures/egn/VWEC Finals.egn", "fixtures/egn/Six Points in Two Hands.egn"):
        game = read_records(f)[0].game
        a = analyze(game, face_up_only=True)
        n = chained = 0
        before = None
        for d in a.decisions():
            prev, before = before, d
            if d.kind != "play":
                continue
            chained += d.forced and prev is not None and prev.kind == "play" and prev.position == d.position - 1
            t = game.table_at(d.position)
            want = S.action_values(t)
            assert [(o.action, o.points) for o in d.options] == [(x, tuple(v)) for x, v in want], (f, d.position)
            assert [o.action for o in d.options] == list(engine.legal_actions(t)[0])
            assert d.played == game.events[d.position] and d.legal
            assert d.played_face_up == d.options[[o.action for o in d.options].index(d.played)].face_up
            n += d.forced
        forced.append((n, chained))
    assert forced == [(93, 93), (12, 12)]


def test_json_report_is_the_texts_utf8():
    """json_report: msgspec's UTF-8 bytes of to_json_text's text (what
    analyze -o writes as they are), or the str itself where json wrote it
    (a NaN, a lone surrogate in a name)."""
    import dataclasses

    from euchre_events.analysis.review import analyze, json_report, to_json_text
    from euchre_events.formats import read_records

    a = analyze(read_records("fixtures/egn/Six Points in Two Hands.egn")[0].game, face_up_only=True)
    a = dataclasses.replace(a, title="Dé \"Q\" \u2028 \U0001f0a1")
    assert json_report([a]) == to_json_text([a]).encode("utf-8")
    for odd in (dataclasses.replace(a, players=("\ud800",) + a.players[1:]),
                dataclasses.replace(a, deals=(dataclasses.replace(a.deals[0], par_value=float("nan")),))):
        assert json_report([odd]) == to_json_text([odd]) and isinstance(json_report([odd]), str)


def test_a_choice_the_imagined_deals_cannot_clear_keeps_its_face_up_mark():
    """A newcomer's finding: VWEC Finals deal 5, event 119, West passes in round 2
    (--samples 20). Face up the pass lost 2 points (16% of the game); from West's
    seat naming ♦ looked 0.6 points better (+0.6 ± 0.31 against a pass's 0), and the
    pass was the best in none of the 20 deals, yet it was marked ``!?`` ("a fair
    choice from the seat"), because 0.6 is within two errors (0.62). Within the
    noise the seat view cannot tell: the face-up ``?`` stands; ``!?`` needs the seat
    view to find the choice fair (worse by less than SEAT_BAD, 0.25 points)."""
    from euchre_events.analysis import analyze
    from euchre_events.formats import read_records
    from euchre_events.projections import Game
    game = Game(read_records(str(ROOT / "fixtures" / "egn" / "VWEC Finals.egn"))[0].events)
    a = analyze(game, deals=[5], samples=20, seed=0)
    d = next(x for x in a.decisions() if x.position == 118)
    assert (d.seat, d.played_text, d.face_up_cost) == (3, "pass", 2.0)
    assert abs(d.seat_view_cost - 0.6) < 1e-9 and d.label == "?"
    assert L.label(2.0, 0.6, 0.163, seat_view_se=0.311) == "?"       # within two errors: no verdict
    assert L.label(2.0, 0.6, 0.163, seat_view_se=0.25) == "?"        # worse, beyond them
    assert L.label(2.0, 0.2, 0.163, seat_view_se=0.311) == "!?"      # fair from the seat
    assert L.label(0.0, 0.6, 0.0, seat_view_se=0.311) is None         # ?! needs a clear verdict
    assert L.label(0.0, 0.6, 0.0, seat_view_se=0.25) == "?!"
