"""The analysis in words and graphs: the evaluation graph over unknown cards, the par
where the call depends on them, the dealer's "pick up" in the drill, the coach text's
names and counts (real records: the VWEC final, Me and Bears)."""
import json
import re
from pathlib import Path

from typer.testing import CliRunner

from conftest import EGN_FIXTURES

VWEC = Path(EGN_FIXTURES) / "VWEC Finals.egn"


def _cli(*args):
    from euchre_events.cli import app
    return CliRunner().invoke(app, [str(a) for a in args])


def _same_kind(a, b) -> bool:
    return isinstance(a, tuple) == isinstance(b, tuple)


def test_the_evaluation_graph_does_not_move_where_nobody_lost_anything(tmp_path):
    """VWEC deal 1, events 4-8: the three passes, the dealer's order and its
    pick-up cost 0 and are worth the range +1 to +2 to North/South (the
    dealer's discard is not in the record).  Each graph draws one point for
    them (the range's midpoint from North/South's view), not the low end for
    one side and the high end for the other (the graph went 2, 1, 2, 1)."""
    from euchre_events.analysis.review import analyze
    from euchre_events.formats import read_records
    from euchre_events.ui.analysisreport import analysis_html
    from euchre_events.ui.analysistable import eval_points
    g = read_records(str(VWEC))[0].game
    a = analyze(g, deals=[1], face_up_only=True)
    da = a.deals[0]
    decs = da.decisions
    assert [d.position + 1 for d in decs[:5]] == [4, 5, 6, 7, 8]
    assert [d.played_face_up for d in decs[:5]] == [(-2.0, -1.0), (1.0, 2.0), (-2.0, -1.0), (1.0, 2.0), (1.0, 2.0)]
    xs, fu, _sv, _pos, _labs = eval_points(da, g.final.variant)
    assert fu[:5] == [1.5] * 5
    html = analysis_html([a])
    page = json.loads(re.search(r"var p=(\{.*?\});Plotly", html).group(1).replace("<\\/", "</"))
    assert page["data"][0]["x"] == xs and page["data"][0]["y"] == fu
    # the rule: after a decision that cost nothing, the line stays where it was
    for i in range(1, len(decs)):
        if decs[i].face_up_cost == 0 and _same_kind(decs[i].played_face_up, decs[i - 1].played_face_up):
            assert fu[i] == fu[i - 1], (xs[i], fu[i - 1], fu[i])


def test_a_par_whose_call_depends_on_the_unknown_cards_holds_no_sentence_in_call(tmp_path):
    """VWEC deals 4 and 13: the dealer's discard is not in the record, and
    over its readings the face-up par is East's pick-up or South naming ♣
    (deal 4), West naming ♥ or ♠ (deal 13).  ``par.call`` is an action or
    null (docs/analysis.md "The JSON"); the calls go in ``par.calls``; the
    text and the export's par line name them."""
    from euchre_events.analysis.review import analyze, from_json
    from euchre_events.formats import read_records
    from euchre_events.ui.analysisreport import par_words
    from euchre_events.ui.analysistable import par_line
    out = tmp_path / "a.json"
    r = _cli("analyze", VWEC, "--deal", 4, "--deal", 13, "--face-up-only", "-f", "json", "-o", out)
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_text())
    d4, d13 = doc["games"][0]["deals"]
    assert d4["par"] == {"call": None, "seat": None, "value": 1.0, "points": None,
                         "calls": [{"seat": 1, "call": "order"}, {"seat": 2, "call": "name C"}]}
    assert d13["par"]["call"] is None and d13["par"]["value"] == [1.0, 2.0]
    assert d13["par"]["calls"] == [{"seat": 3, "call": "name H"}, {"seat": 3, "call": "name S"}]
    a = from_json(doc["games"][0])
    assert a.deals[0].par_calls == ((1, "order"), (2, "name C"))
    assert par_words(a, a.deals[0]) == ("par (every hand visible): East (Llama) pick up or South (Euchrazy1) "
                                         "name ♣, as the record's unknown cards are read, +1 for the makers")
    assert "par (every hand visible): West (LeftyKnavey) name ♥ or West (LeftyKnavey) name ♠, as the record's unknown " \
           "cards are read, +1 to +2 for the makers" == par_words(a, a.deals[1])
    assert "deal 4 par (face up): pick up by East or name ♣ by South, as the record&#x27;s unknown cards are read, +1 " \
           "for the makers" in par_line(a.deals[0], "x", 4)
    # an analysis of one reading names one call, as before
    g = read_records(str(VWEC))[0].game
    one = analyze(g, deals=[1], face_up_only=True).deals[0]
    assert (one.par_seat, one.par_call, one.par_calls) == (2, "order", None)


def test_the_drill_says_pick_up_for_the_dealers_own_order_as_analyze_does(tmp_path):
    """Me and Bears, deal 10, event 242: South (WWMM), the dealer, takes the
    up-card, 1 point lost with every hand visible.  ``analyze`` says "pick up"
    for the dealer's own ``order`` (rules.md 2.3); ``drill --list`` and the
    drill's choices and explanation say it the same way (they said "order",
    "take it up")."""
    from euchre_events.archive import Archive
    from euchre_events.archive.drills import find_exercises
    from euchre_events.formats import read_records
    from euchre_events.ui.drill import drill_question
    db = str(tmp_path / "club.sqlite")
    assert _cli("import", Path(EGN_FIXTURES) / "Me and Bears.egn", "--db", db).exit_code == 0
    r = _cli("analyze", "--all", "--samples", 8, "--db", db, "--format", "json")
    assert r.exit_code == 0, r.output
    r = _cli("drill", "--list", "--db", db, "--player", "WWMM")
    assert r.exit_code == 0, r.output
    assert "Me and Bears, deal 10, event 242: South (WWMM) call, played pick up: lost 1 with every hand visible" \
        in r.stdout
    ex = next(e for e in find_exercises(Archive(db), player="WWMM")[0] if e.position == 241)
    assert (ex.played, ex.seat, ex.dealer) == ("order", 2, 2)
    q = drill_question(ex, read_records(str(Path(EGN_FIXTURES) / "Me and Bears.egn"))[0].game)
    labels = [lab for lab, _ in q.choices]
    assert "pick up" in labels and not any("it up" in lab or lab == "order" for lab in labels), labels
    assert "pick up (played at the table)" in q.explanation


def test_the_coach_text_names_the_player_and_counts_in_words(tmp_path):
    """VWEC deal 8: East's hand holds one card the record does not state
    (the dealer's discard), so the auction is not analysed face up; West
    (LeftyKnavey) has one decision in the deal.  The text names the player,
    counts "1 card", "1 decision", and starts the reason as a sentence.
    ``import`` of a folder of one record: "imported 1 game ... 1 file"."""
    r = _cli("analyze", VWEC, "--deal", 8, "--face-up-only")
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "Deal 8: no face-up par: East (Llama) holds 1 card the record does not state (??)" in out
    assert ("Deal 8, the auction (event 199): South (Euchrazy1) chose pass. Not analysed face up: East (Llama) "
            "holds 1 card the record does not state") in out
    assert "West (LeftyKnavey): accuracy -, 1 decision, 0.0 points lost face up" in out
    assert "(s)" not in out and ". not" not in out and "seat 1" not in out
    r = _cli("analyze", VWEC, "--deal", 8, "--samples", 1)
    assert "analysed face up and 1 imagined deal per decision (seed 0)" in r.stdout
    assert "over 1 imagined deal;" in r.stdout
    folder = tmp_path / "one"
    folder.mkdir()
    (folder / "v.egn").write_bytes(VWEC.read_bytes())
    r = _cli("import", folder, "--db", tmp_path / "a.sqlite")
    assert r.exit_code == 0, r.output
    assert "imported 1 game (0 already stored) from 1 file or archive; 0 could not be imported" in r.stderr
    r = _cli("rebuild", "--db", tmp_path / "a.sqlite")
    assert r.exit_code == 0 and ", 1 game in " in r.output, r.output
