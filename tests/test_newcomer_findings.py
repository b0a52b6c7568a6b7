"""What a newcomer met trying the command line on a clean clone (the review of
this release): each error names the file and the reason in words, never an
internal name; a typo writes no archive; flags work in the forms people type."""
from __future__ import annotations

import json
import os

from typer.testing import CliRunner

from euchre_events.cli import app

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VWEC = os.path.join(ROOT, "fixtures", "egn", "VWEC Finals.egn")
CLUB = os.path.join(ROOT, "fixtures", "standard", "club-night-1.euchre")
runner = CliRunner()


def test_a_missing_record_file_is_named_without_an_archive(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)               # no archive here either
    res = runner.invoke(app, ["audit", "nosuch.egn"])
    assert res.exit_code == 1 and res.stderr.strip() == "error: nosuch.egn: no such file"


def test_import_of_nothing_writes_no_archive(tmp_path):
    db = tmp_path / "typo.sqlite"
    res = runner.invoke(app, ["import", str(tmp_path / "nosuch.egn"), "--db", str(db)])
    assert res.exit_code == 1 and "no such file" in res.stderr and not db.exists()


def test_a_damaged_zip_is_named_in_words(tmp_path):
    bad = tmp_path / "fake.zip"
    bad.write_bytes(b"PK\x03\x04garbage")
    res = runner.invoke(app, ["import", str(bad), "--db", str(tmp_path / "a.sqlite")])
    assert res.exit_code == 1
    assert f"{bad}: not a readable zip archive: damaged, cut off, or not an archive at all" in res.stderr
    assert "\\n" not in res.stderr and "method gz" not in res.stderr


def test_a_cut_off_json_record_is_said_to_be_cut_off(tmp_path):
    text = open(VWEC, encoding="utf-8").read()
    cut = tmp_path / "cut.egn"
    cut.write_text(text[:len(text) // 2] + '"Kc')
    res = runner.invoke(app, ["audit", str(cut)])
    assert res.exit_code == 1
    assert "not JSON: Unterminated string (it starts at the place named); the text ends before " \
           "the JSON does: is the file cut off?" in res.stderr


def test_an_unknown_option_is_named_at_its_tag_in_the_games_words(tmp_path):
    lines = open(CLUB, encoding="utf-8").read().splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith("[Players") or ln.startswith("[North"))
    lines.insert(at, '[Option.no_such_option "1"]')
    rec = tmp_path / "opt.euchre"
    rec.write_text("\n".join(lines) + "\n")
    res = runner.invoke(app, ["audit", str(rec)])
    assert res.exit_code == 1
    assert f"{rec}, line {at + 1}, column " in res.stderr
    assert "unknown option(s) of standard Euchre: 'no_such_option' (its options: alone_timing," in res.stderr
    assert "StandardOptions" not in res.stderr


def test_flags_in_the_forms_people_type(tmp_path):
    db = str(tmp_path / "a.sqlite")
    assert runner.invoke(app, ["import", VWEC, "--db", db]).exit_code == 0
    # a variant name in any case
    res = runner.invoke(app, ["list", "--db", db, "--variant", "Standard"])
    assert res.exit_code == 0 and "VWEC Finals" in res.stdout
    # a game matches: listed, no note; no game matches: said, not silence
    res = runner.invoke(app, ["list", "--db", db, "--player", "llama"])
    assert "VWEC Finals" in res.stdout and "no stored game matches" not in res.stderr
    res = runner.invoke(app, ["list", "--db", db, "--player", "zzz"])
    assert res.exit_code == 0 and res.stdout == "" and "no stored game matches --player 'zzz'" in res.stderr
    # stats --json as list and audit have it; two report forms at once refused
    stats = json.loads(runner.invoke(app, ["stats", "--db", db, "--json"]).stdout)
    assert stats == json.loads(runner.invoke(app, ["stats", "--db", db, "--format", "json"]).stdout)
    res = runner.invoke(app, ["audit", VWEC, "--json", "--format", "html", "-o", str(tmp_path / "a.html")])
    assert res.exit_code == 1 and "--json and --format html ask for two reports" in res.stderr


def test_the_unknown_call_x_is_refused_in_words(tmp_path):
    """EGN's round-2 call 'x' (determinism-of-egn.md: a suit was named, which one
    is unknown): trump decides every trick, so the deal is refused by name rather
    than replayed with a guessed suit; the other deals are audited."""
    doc = json.loads(open(VWEC, encoding="utf-8").read())
    calls = [p for p in doc["deals"][1]["phases"] if p.get("calls") is not None][0]["calls"]
    assert calls == ["Pass", "Pass", "Pass", "Pass", "c"]      # deal 2: North names clubs
    calls[-1] = "x"
    rec = tmp_path / "x.egn"
    rec.write_text(json.dumps(doc))
    res = runner.invoke(app, ["audit", str(rec)])
    assert res.exit_code == 1
    assert "deal 2: call 4 is 'x': trump was named but the record does not say which suit" in res.stderr
    assert "impossible: deal 2" in res.stdout and "1 impossible deal(s) of 13" in res.stdout


def test_a_renege_in_a_deal_still_being_played_is_not_yet_established():
    """Mid-deal (a live game, rules.md 1.5): E's 9H on a clubs lead is a renege
    that can still be corrected until the trick is gathered; the deal is not
    abandoned, and the audit must not say so."""
    import sys
    sys.path.insert(0, os.path.dirname(__file__))
    from test_official_result import E, c3_events, pos
    from euchre_events.projections import Game
    from euchre_events.ui.auditreport import game_lines
    evs = c3_events()
    g = Game(evs[:pos(evs, E, "9H") + 2])
    text = "\n".join(game_lines(g, g.audit()))
    assert "not established yet (the trick is not gathered: it can still be corrected)" in text
    assert "abandoned" not in text


def test_a_drawn_fixed_deal_game_reads_as_drawn():
    """num_deals 2 ending 1-1 (EGN alternate-rules, rules.md 2.9): no winner."""
    rec = os.path.join(ROOT, "fixtures", "egn", "toggles", "num-deals-2-tied.egn")
    head = runner.invoke(app, ["audit", rec]).stdout.splitlines()[0]
    assert "official winner: nobody: the game is drawn (North-South" in head and "(tied)" not in head
    shown = runner.invoke(app, ["show", rec]).stdout
    assert "Game over: winner none: the game is drawn (N/S" in shown


def test_a_stored_game_keeps_the_file_name_not_the_importers_path(tmp_path):
    """A club archive is shared: the folders of whoever imported a record are not
    stored with it (nor exported); the file's own name is."""
    from euchre_events.archive import Archive
    db = str(tmp_path / "a.sqlite")
    out = runner.invoke(app, ["import", VWEC, "--db", db]).stdout
    g = Archive(db).load(out.split()[0])
    assert g.events[0].source["file"] == "VWEC Finals.egn"
    exported = runner.invoke(app, ["export", out.split()[0], "--db", db, "--format", "json"]).stdout
    assert os.path.dirname(VWEC) not in exported and os.path.dirname(VWEC) not in str(g.events[0].source)


def test_export_to_stdout_is_the_file_export_o_writes(tmp_path):
    """``export ... > f`` and ``export ... -o f`` give the same bytes: the
    text already ends in a newline, stdout added a second one."""
    for fmt, suffix in (("text", ".euchre"), ("json", ".json"), ("egn", ".egn")):
        out = tmp_path / f"game{suffix}"
        res = runner.invoke(app, ["export", VWEC, "--format", fmt, "-o", str(out)])
        assert res.exit_code == 0, res.stderr
        res = runner.invoke(app, ["export", VWEC, "--format", fmt])
        assert res.exit_code == 0 and res.stdout == out.read_text(encoding="utf-8")
        assert res.stdout.endswith("\n") and not res.stdout.endswith("\n\n")


def test_text_after_the_json_is_not_said_to_be_a_cut_off_file():
    """A form feed (no JSON whitespace) after a complete object is extra
    data, not the end of a cut-off file."""
    from euchre_events.formats import RecordError, load_json
    for text, cut in (('{"a": 1}\f', False), ('{"a": 1}\n\t ', None), ('{"a": 1', True)):
        try:
            load_json(text, "f.egn")
        except RecordError as e:
            assert ("is the file cut off?" in str(e)) is cut, (text, str(e))
        else:
            assert cut is None          # trailing JSON whitespace is fine


def test_a_packed_deal_that_cannot_be_unpacked_is_one_error_not_a_traceback(tmp_path):
    """A string deal that is no packed deal: the file is named with the
    reason, the deal-by-deal audit that follows a deal's error finds
    nothing more to read, and the other files are audited."""
    bad = tmp_path / "packed.egn"
    bad.write_text('{"fileType":"Euchre Game Notation","version":"1.4","metadata":{"players":'
                   '["a","b","c","d"],"initialScore":[0,0]},"deals":["x.y"]}')
    res = runner.invoke(app, ["audit", str(bad), VWEC, "--format", "jsonl"])
    assert res.exit_code == 1
    assert res.stderr == (f"error: {bad}, deal 1: packed deal 1 cannot be read: "
                          "not a Base64URL string\n")
    assert len(res.stdout.splitlines()) == 1 and '"title": "VWEC Finals"' in res.stdout
