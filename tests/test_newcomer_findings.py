"""What a newcomer found on a clean clone (real records: the VWEC final of
fixtures/egn and /work/shared/records/egn)."""
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


def test_show_after_an_event_of_a_deal_numbers_it_one_way():
    """``show --deal 1 --after 13`` (VWEC: South's K♠ is the deal's 13th event,
    the game's 14th): one "After event" line, the deal's numbering as asked,
    the game's in brackets (it printed "After event 14 | deal 1" below too)."""
    r = _cli("show", VWEC, "--deal", 1, "--after", 13)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert [x for x in lines if x.startswith("After event")] == \
        ["After event 13 of deal 1 (event 14 of the game) | phase play"]
    assert "Last event: South (Euchrazy1) plays K\u2660" in lines
    # without --deal the game's numbering, as before
    lines = _cli("show", VWEC, "--after", 14).stdout.splitlines()
    assert [x for x in lines if x.startswith("After event")] == ["After event 14 | deal 1 | phase play"]


def test_record_names_the_event_it_refused(tmp_path):
    """VWEC Finals has 353 events; a renege claim recorded after them is
    event 354 and stored; a ruling "sometimes" after it would have been
    event 355 and is refused as that (it said "event 354", the claim)."""
    db = tmp_path / "a.sqlite"
    gid = _cli("import", VWEC, "--db", db).stdout.split()[0]
    r = _cli("record", gid, '{"type": "RenegeClaimed", "by": 1, "against": 0, "deal": 1, "trick": 3}', "--db", db)
    assert r.exit_code == 0 and r.stdout.startswith("event 354: RenegeClaimed"), r.output
    r = _cli("record", gid, '{"type": "RenegeRuled", "against": 0, "deal": 1, "trick": 3, "ruling": "sometimes"}',
             "--db", db)
    assert r.exit_code == 1
    assert "refused, not stored: deal 13, event 355, RenegeRuled: ruling 'sometimes'" in r.stderr, r.output
    assert "intact, 354 events" in _cli("verify", gid, "--db", db).stdout


def test_an_output_under_a_file_is_said_one_way_by_every_command(tmp_path, monkeypatch):
    """``-o mb.bak/out.txt`` where mb.bak is a file: export said "the folder
    .../mb.bak does not exist", analyze/audit/stats "cannot write: Not a
    directory".  Every one says "mb.bak is not a folder"."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mb.bak").write_text("a backup\n")
    db = tmp_path / "a.sqlite"
    gid = _cli("import", VWEC, "--db", db).stdout.split()[0]
    for args in (("export", gid, "--db", db, "-f", "json"), ("export", gid, "--db", db, "-f", "html"),
                 ("analyze", VWEC, "--deal", 1, "--face-up-only"), ("audit", VWEC), ("stats", "--db", db)):
        r = _cli(*args, "-o", "mb.bak/out.txt")
        assert r.exit_code == 1, (args, r.output)
        assert r.stderr.strip() == "error: mb.bak/out.txt: mb.bak is not a folder", (args, r.stderr)
    r = _cli("export", gid, "--db", db, "-f", "json", "-o", "nope/out.txt")
    assert r.exit_code == 1 and f"the folder {tmp_path / 'nope'} does not exist" in r.stderr
    assert (tmp_path / "mb.bak").read_text() == "a backup\n"


def test_a_stopped_server_stops_the_analysis_worker_quietly(tmp_path):
    """``serve`` stopped while the app's background analysis runs: Jupyter
    interrupts and ends the kernel by its process group, the analysis worker
    (``python -m euchre_events.ui.analysisview``) in it.  The worker, busy
    with VWEC deal 1's seat view, ends at once and prints no traceback (it
    printed a KeyboardInterrupt from review.py's ``_decide``)."""
    import os
    import pickle
    import signal
    import struct
    import subprocess
    import sys
    import time
    from euchre_events.formats import read_records
    events = list(read_records(str(VWEC))[0].game.events)
    for sig in (signal.SIGINT, signal.SIGTERM):
        p = subprocess.Popen([sys.executable, "-m", "euchre_events.ui.analysisview"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                             env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
        data = pickle.dumps((events, 1, {"samples": 200, "seed": 0}))
        p.stdin.write(struct.pack(">Q", len(data)) + data)
        p.stdin.flush()
        time.sleep(3)                       # well into the deal's seat view (tens of seconds)
        assert p.poll() is None
        os.killpg(p.pid, sig)               # the process group, as the server's stop reaches it
        out, err = p.communicate(timeout=20)
        assert p.returncode == 128 + sig, (sig, p.returncode, err)
        assert err == b"" and out == b"", (sig, err.decode()[-500:])


def test_an_egn_file_with_an_impossible_deal_is_said_to_be_read_in_part(tmp_path):
    """negative/test.egn: deal 1 is impossible (West plays the Q♠ the dealer
    took up), deal 2 holds four reneges.  The audit reads it in part and says
    so from the first line to the last (it began "audited deal by deal (1
    impossible deal(s) of 2)" and ended "not read: ...test.egn"); the exit
    code stays 1, as for any input with an error (audit --help)."""
    path = Path(EGN_FIXTURES) / "negative" / "test.egn"
    r = _cli("audit", path)
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    assert lines[0].startswith(f"{path}: read in part, audited deal by deal (1 impossible deal of 2); "
                               "official score: N/S 2, E/W 5")
    assert sum("reneged at trick" in x for x in lines) == 4
    assert lines[-1].startswith(f"read in part: {path}, deal 1, event 17 (CardPlayed): West (p4) plays QS")
    assert "not read" not in r.stdout and "(s)" not in r.stdout
    assert r.stderr.strip().endswith("; read in part: the other deals are audited")
    r = _cli("audit", path, "--json")
    assert r.exit_code == 1 and json.loads(r.stdout)["errors"][0]["partial"] is True
    out = tmp_path / "a.html"
    r = _cli("audit", path, "--format", "html", "-o", out)
    assert r.exit_code == 1 and "<h2>Read in part</h2>" in out.read_text() and "Not read" not in out.read_text()
