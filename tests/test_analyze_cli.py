"""``euchre-events analyze`` from the command line (issue 21, item 4): the
text a coach reads, the JSON's fields, the HTML page, the options, the
errors, and the archive's analysis cache (SQLite and PostgreSQL)."""
from __future__ import annotations

import json
import os
import shutil

import pytest

from conftest import ROOT, RUNNER as runner
from euchre_events.cli import app
from test_archive import pg_schema  # noqa: F401  (pg_schema is a fixture)
from test_club_db_url import pg_url

VWEC = os.path.join(ROOT, "fixtures", "egn", "VWEC Finals.egn")
PARLOUR = os.path.join(ROOT, "fixtures", "two-handed", "parlour-2.euchre")


def run(*args):
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture(scope="module")
def vwec_json():
    r = run("analyze", VWEC, "--deal", "2", "--face-up-only", "--format", "json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_json_has_the_issue_fields(vwec_json):
    g = vwec_json["games"][0]
    assert g["variant"] == "standard" and g["file"] == VWEC
    assert g["method"]["samples"] == 0 and g["method"]["seed"] == 0 and g["method"]["pass_value"] == "zero"
    deal = g["deals"][0]
    assert deal["deal"] == 2
    # par with every hand visible: West orders up, one point (tests/test_analysis_experts.py)
    assert deal["par"] == {"call": "order", "seat": 3, "value": 1.0, "points": deal["par"]["points"]}
    kinds = [d["kind"] for d in deal["decisions"]]
    assert kinds.count("play") == 20 and "call" in kinds
    for d in deal["decisions"]:
        for key in ("position", "seat", "kind", "index", "trick", "played", "options", "face_up_cost",
                    "seat_view_cost", "win_chance_lost", "label"):
            assert key in d
        assert d["label"] in (None, "??", "?", "?!", "!?", "!", "!!")
        assert {o["action"] for o in d["options"]} >= {d["played"]}
    plays = [d for d in deal["decisions"] if d["kind"] == "play"]
    assert [d["index"] for d in plays] == list(range(20))
    assert [d["trick"] for d in plays] == [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4 + [5] * 4
    # West's pass in round two cost two points: order was worth +1, the pass -1 (at 0-2 in the game)
    west = next(d for d in deal["decisions"] if d["position"] == 34)
    assert west["played"] == "pass" and west["face_up_cost"] == 2.0 and west["label"] == "?"
    assert {o["action"]: o["face_up"] for o in west["options"]}["order"] == 1.0


def test_positions_are_what_show_after_shows(vwec_json):
    """``position`` is the decision's event: ``show --after POSITION`` is the table it was made at."""
    d = vwec_json["games"][0]["deals"][0]["decisions"][-1]
    r = run("show", VWEC, "--after", d["position"])
    assert r.exit_code == 0
    r2 = run("show", VWEC, "--after", d["position"] + 1)
    assert r.stdout != r2.stdout


def test_text_reads_like_a_coach():
    r = run("analyze", VWEC, "--deal", "2", "--face-up-only")
    assert r.exit_code == 0, r.output
    out = r.stdout
    # West deals deal 2: its own order is a pick-up
    assert "Deal 2: par (every hand visible): West (LeftyKnavey) pick up, +1 for the makers." in out
    assert ("Deal 2, the auction (event 35): West (LeftyKnavey) chose pass [? mistake]. Face up, pick up "
            "was worth +1 for E/W against \u22121") in out
    assert "accuracy" in out


def test_html_page_is_self_contained_and_escaped(tmp_path):
    src = tmp_path / "odd.euchre"
    text = open(PARLOUR, encoding="utf-8").read().replace("Cal", "<b>Cal</b>")
    src.write_text(text, encoding="utf-8")
    out = tmp_path / "review.html"
    r = run("analyze", src, "--deal", "1", "--face-up-only", "--format", "html", "-o", out)
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    assert "<b>Cal</b>" not in page and "&lt;b&gt;Cal&lt;/b&gt;" in page
    assert "Plotly.newPlot" in page and "src=\"http" not in page
    # the graph's point texts too: plotly reads markup there, so the name goes in escaped
    texts = json.loads(page.split('"text": ', 1)[1].split("]", 1)[0] + "]")
    named = [t for t in texts if "Cal" in t]
    assert named and all("&lt;b&gt;Cal&lt;/b&gt;" in t and "<b>" not in t for t in named)


def test_html_numbers_decisions_by_event_as_the_text_does(tmp_path):
    """The page's decisions table and graph count events from 1, as the text
    (and ``show --after``) do: VWEC deal 1, South's K♠ in trick 2 is
    "event 14" in both (it was "pos 13" in the page)."""
    import re
    text = run("analyze", VWEC, "--deal", "1", "--face-up-only")
    assert text.exit_code == 0, text.output
    marked_text = [int(n) for n in re.findall(r"\(event (\d+)\): [^\n]*\[", text.stdout)]
    assert marked_text == [10, 14] and "(event 14): South (Euchrazy1) played K♠ [? mistake]" in text.stdout
    out = tmp_path / "review.html"
    r = run("analyze", VWEC, "--deal", "1", "--face-up-only", "--format", "html", "-o", out)
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    assert "<tr><th>event</th><th>trick</th>" in page and "<th>pos</th>" not in page
    rows = re.findall(r"<tr><td>(\d+)</td><td>(\d*)</td><td>([^<]*)</td><td>(.*?)</td><td>(<span class='ee-label[^<]*</span>)?",
                      page)
    marked_html = [int(ev) for ev, _trick, _seat, _played, lab in rows if lab]
    assert marked_html == marked_text
    k = next(row for row in rows if row[0] == "14")
    assert k[1:3] == ("2", "South (Euchrazy1)") and "K" in k[3] and "\u2660" in k[3]
    assert '"xaxis": {"title": {"text": "event"}}' in page
    # the graph: the first decision, West's pass, is event 4; the last play event 29
    assert '"x": [4, 5, 6, ' in page and ', 28, 29], "y"' in page
    assert '"text": ["event 4: West (LeftyKnavey) pass", ' in page

def test_html_graph_axis_names_whose_points(tmp_path):
    """The graph's axis says whose points each value is: the first side's
    (N/S) in standard Euchre, the deciding player's own in Buck, where four
    players score apart (docs/analysis.md "Face up", max-n): a Buck
    page that said "points for N/S" misread every point of it."""
    out = tmp_path / "vwec.html"
    assert run("analyze", VWEC, "--deal", "1", "--face-up-only", "--format", "html", "-o", out).exit_code == 0
    assert '"yaxis": {"title": {"text": "points for N/S"}}' in out.read_text(encoding="utf-8")
    buck = os.path.join(ROOT, "fixtures", "buck", "buck-1.euchre")
    out = tmp_path / "buck.html"
    r = run("analyze", buck, "--deal", "1", "--face-up-only", "--format", "html", "-o", out)
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    assert '"yaxis": {"title": {"text": "points for the deciding player"}}' in page and "points for N/S" not in page


def test_seat_and_errors(tmp_path):
    r = run("analyze", PARLOUR, "--deal", "1", "--face-up-only", "--seat", "P2", "--format", "json")
    assert r.exit_code == 0, r.output
    seats = {d["seat"] for d in json.loads(r.stdout)["games"][0]["deals"][0]["decisions"]}
    assert seats == {1}
    r = run("analyze", PARLOUR, "--deal", "99", "--face-up-only")
    assert r.exit_code == 1 and "deal 99 is not in the game" in r.stderr
    r = run("analyze", tmp_path / "missing.egn", "--face-up-only")
    assert r.exit_code == 1 and "missing.egn" in r.stderr and "Traceback" not in r.output
    r = run("analyze", PARLOUR, "--format", "html")
    assert r.exit_code == 1 and "needs -o" in r.stderr
    # -o never lands on the record it reads
    copy = tmp_path / "p.euchre"
    shutil.copy(PARLOUR, copy)
    r = run("analyze", copy, "--face-up-only", "-o", copy)
    assert r.exit_code == 1 and open(copy, encoding="utf-8").read() == open(PARLOUR, encoding="utf-8").read()


def _cache_roundtrip(db, tmp_path):
    r = run("import", PARLOUR, "--db", db)
    assert r.exit_code == 0, r.output
    gid = r.stdout.split()[0]
    first = run("analyze", gid, "--db", db, "--deal", "1", "--face-up-only", "--format", "json")
    assert first.exit_code == 0, first.output
    from euchre_events.archive import Archive
    from euchre_events.archive.readmodels import ReadModels
    rm = ReadModels(Archive(db))
    assert rm.analysed_games() == 1
    again = run("analyze", gid, "--db", db, "--deal", "1", "--face-up-only", "--format", "json")
    assert json.loads(again.stdout) == json.loads(first.stdout)
    assert rm.analysed_games() == 1            # the same key: read from the cache, not written twice
    run("analyze", gid, "--db", db, "--deal", "2", "--face-up-only", "--format", "json")
    assert rm.analysed_games() == 2            # other parameters: another row
    assert run("rebuild", "--db", db).exit_code == 0
    assert rm.analysed_games() == 2            # the same rules version: kept


def test_cache_on_sqlite(tmp_path):
    _cache_roundtrip(str(tmp_path / "club.sqlite"), tmp_path)


@pytest.mark.postgres
def test_cache_on_postgres(pg_schema, tmp_path):  # noqa: F811
    _cache_roundtrip(pg_url(pg_schema), tmp_path)


def test_an_alternative_line_is_analysed():
    """``--line 1`` of VWEC Finals Annotated: the record's first alternative line
    (the viewer's "variation 1", from event 13 of deal 1) is analysed as played
    there: its deal only, its own cards from the branch on."""
    annotated = os.path.join(ROOT, "fixtures", "egn", "VWEC Finals Annotated.egn")
    r = run("analyze", annotated, "--line", "1", "--face-up-only", "--format", "json")
    assert r.exit_code == 0, r.output
    deals = json.loads(r.stdout)["games"][0]["deals"]
    assert [d["deal"] for d in deals] == [1]
    from euchre_events.formats import read_records
    rec = read_records(annotated)[0]
    v = rec.variations[0]
    plays = {d["position"]: d["played"] for d in deals[0]["decisions"] if d["kind"] == "play"}
    first = v["events"][0]
    assert plays[v["position"]] == first.card
    r = run("analyze", annotated, "--line", "99", "--face-up-only")
    assert r.exit_code == 1 and "--line 99" in r.stderr


def test_workers_give_the_same_answer():
    one = run("analyze", PARLOUR, "--face-up-only", "--format", "json", "--deal", "1", "--deal", "2")
    two = run("analyze", PARLOUR, "--face-up-only", "--format", "json", "--deal", "1", "--deal", "2",
              "--workers", "2")
    assert one.exit_code == two.exit_code == 0
    assert json.loads(one.stdout) == json.loads(two.stdout)


def test_export_egn_with_analysis_keeps_the_expert_notes(tmp_path):
    """``export --format egn --with-analysis``: the engine's labels are added as
    annotations beginning "euchre-events analysis", beside the record's own
    notes, which stay as they were; the file reads back with both."""
    annotated = os.path.join(ROOT, "fixtures", "egn", "VWEC Finals Annotated.egn")
    out = tmp_path / "with.egn"
    r = run("export", annotated, "--format", "egn", "--with-analysis", "--face-up-only", "-o", out)
    assert r.exit_code == 0, r.output
    from euchre_events.formats import read_records
    before = read_records(annotated)[0].annotations
    after = read_records(str(out))[0].annotations
    people = [a for a in after if not a["text"].startswith("euchre-events analysis")]
    engine = [a for a in after if a["text"].startswith("euchre-events analysis")]
    assert sorted((a["position"], a["text"]) for a in people) == sorted((a["position"], a["text"]) for a in before)
    assert engine and all(a["mark"] in ("??", "?", "?!", "!?", "!", "!!") for a in engine)
    # North's club call in deal 5 lost three points face up: marked, with its reason
    north = [a for a in engine if a["position"] == 119]
    assert north and north[0]["mark"] == "??"
    assert "name \u2666" in north[0]["text"] or "name \u2660" in north[0]["text"]


def test_output_never_lands_on_the_archive_nor_is_left_by_a_failure(tmp_path):
    """``-o`` onto the archive ``analyze`` reads is refused (any spelling), and
    a run that analysed nothing writes no report file (found by a newcomer)."""
    db = tmp_path / "club.sqlite"
    r = run("import", PARLOUR, "--db", db)
    gid = r.stdout.split()[0]
    before = db.read_bytes()
    r = run("analyze", gid, "--db", db, "--deal", "1", "--face-up-only", "-o", db)
    assert r.exit_code == 1 and "archive" in r.stderr
    assert db.read_bytes() == before
    out = tmp_path / "out.txt"
    r = run("analyze", "nothing-like-this", "--db", db, "--face-up-only", "-o", out)
    assert r.exit_code == 1 and not out.exists()


def test_a_lost_discard_is_not_called_illegal():
    """EGN keeps no dealer's discard: ``discard ??`` is what the record says,
    not an illegal action (VWEC deal 8, East's discard, where West's hand is
    unknown too and nothing is valued face up)."""
    r = run("analyze", VWEC, "--deal", "8", "--face-up-only", "--format", "json")
    d = [x for x in json.loads(r.stdout)["games"][0]["deals"][0]["decisions"] if x["played"] == "discard ??"]
    assert d and all("legal" not in x for x in d)


def test_plain_analyze_command_lines(tmp_path):
    """Only an analyze of record files with the plain options skips typer
    (``euchre_events.review.quick_analyze``); the rest go to it."""
    from euchre_events.review import plain_analyze
    got = plain_analyze(["analyze", VWEC, "--face-up-only", "--format", "json", "-o", "out.json",
                         "--deal", "2", "--deal", "3", "--seed", "4"])
    assert got == {"games": [VWEC], "deals": [2, 3], "seed": 4, "samples": 200, "workers": None,
                   "face_up_only": True, "all_decisions": False, "report": "json", "output": "out.json"}
    assert plain_analyze(["analyze", VWEC])["report"] == "text"
    for argv in (["analyze", "abc123"], ["analyze", VWEC, "--seat", "N"], ["analyze", VWEC, "--all"],
                 ["analyze", VWEC, "--format", "html"], ["analyze", VWEC, "--samples", "0"],
                 ["analyze", VWEC, "--format=json"], ["analyze", VWEC, "--line", "1"], ["analyze", VWEC, "--help"],
                 ["analyze", VWEC, "--deal", "²"], ["analyze", VWEC, "--workers", "65"], ["analyze"],
                 ["audit", VWEC], []):
        assert plain_analyze(argv) is None, argv


def test_console_script_gives_typer_s_output(tmp_path):
    """``python -m euchre_events analyze FILE ...`` (no typer application)
    writes what the typer command writes, with the same exit code: a report on
    stdout and in a file, a missing file, ``-o`` over the record."""
    import subprocess
    import sys
    out = tmp_path / "out.json"
    for argv in (["analyze", VWEC, "--deal", "2", "--face-up-only"],
                 ["analyze", VWEC, "--deal", "2", "--face-up-only", "--format", "json", "-o", str(out)],
                 ["analyze", str(tmp_path / "missing.egn"), "--face-up-only"],
                 ["analyze", VWEC, "--deal", "99", "--face-up-only"],
                 ["analyze", VWEC, "--face-up-only", "-o", VWEC]):
        res = runner.invoke(app, argv)
        typer_file = out.read_text() if out.exists() else None
        if out.exists():
            out.unlink()
        p = subprocess.run([sys.executable, "-m", "euchre_events"] + argv, capture_output=True, text=True,
                           cwd=tmp_path)
        assert p.stdout == res.stdout, argv
        assert p.stderr == res.stderr, argv
        assert p.returncode == res.exit_code, argv
        assert (out.read_text() if out.exists() else None) == typer_file
        if out.exists():
            out.unlink()


def test_the_dealer_s_own_order_is_said_pick_up():
    """The dealer who takes the up-card "picks it up" (rules.md 2.3): the text says so
    where the seat calling ``order`` is the deal's dealer, and keeps "order" for another
    seat; the JSON keeps the notation's ``order`` either way. Club night 1, face up:
    deal 3's par is East's own order (East deals), deal 1's South's (West deals)."""
    f = str(ROOT / "fixtures" / "standard" / "club-night-1.euchre")
    r = runner.invoke(app, ["analyze", f, "--face-up-only"])
    assert r.exit_code == 0, r.output
    assert "Deal 3: par (every hand visible): East (Bob) pick up, +1 for the makers." in r.output
    assert "Deal 1: par (every hand visible): South (Cora) order, +2 for the makers." in r.output
    j = runner.invoke(app, ["analyze", f, "--face-up-only", "--format", "json"])
    doc = json.loads(j.output)
    deals = {d["deal"]: d for d in (doc["games"][0] if "games" in doc else doc)["deals"]}
    assert (deals[3]["dealer"], deals[3]["par"]["call"], deals[3]["par"]["seat"]) == (1, "order", 1)
    assert (deals[1]["dealer"], deals[1]["par"]["call"], deals[1]["par"]["seat"]) == (3, "order", 2)
