"""The fast path of ``euchre-events audit`` on OpenSpiel JSON Lines files
(issue 11): for every line it takes, the report text (jsonl and --json) and
the game id are exactly the reference path's (the reader, the engine's
fold, ``game_json``, ``game_id_of``); every line it does not take is read by
the reference reader, so errors and warnings stay the same.  The lines are
made by the engine (``rules.simulate`` through
``formats.openspiel.simulated_openspiel_games``: always) and, where
``pyspiel`` is installed, by OpenSpiel."""
from __future__ import annotations

import json
import random

import pytest

from euchre_events.archive import game_id_of
from euchre_events.archive.fastpath import cards_dealt_text, fast_game_id, fast_game_id_text
from euchre_events.archive.canonical import event_text
from euchre_events.batch import parse_audit
from euchre_events.cli import app
from euchre_events.formats import RecordError
from euchre_events.formats.openspiel import (FastGame, _read_line, fast_line, iter_openspiel_file,
                                             random_openspiel_games, simulated_openspiel_games)
from euchre_events.ui.auditreport import game_json
from euchre_events.ui.auditwriter import fast_game_json, fast_game_text, indented_json, render_jsonl

CONFIGS = (({}, 1), ({"allow_lone_defender": True, "stick_the_dealer": False}, 100001),
           ({"allow_lone_defender": True}, 5001), ({"stick_the_dealer": False}, 7001))


def _lines(n_each: int, source: str = "simulate") -> list:
    make = random_openspiel_games if source == "pyspiel" else simulated_openspiel_games
    out = []
    for params, seed in CONFIGS:
        for d in make(n_each, seed, params, tricks=True):
            out.append(json.dumps(d, separators=(",", ":")))
    return out


def _reference(path, lineno, line):
    rec = _read_line(path, lineno, line)
    g = rec.game
    g.id = str(game_id_of(rec.events))
    return rec, game_json(g, g.audit())


@pytest.fixture(scope="module", params=["simulate", "pyspiel"])
def lines(request):
    """3,000 games, four parameter sets, made by the engine or by OpenSpiel
    (skipped where ``pyspiel`` is not installed)."""
    if request.param == "pyspiel":
        pytest.importorskip("pyspiel")
    return _lines(750, request.param)


def test_fast_report_is_the_reference_report(lines):
    taken = 0
    for lineno, line in enumerate(lines, 1):
        fg = fast_line(line.encode(), "f.jsonl", lineno)
        rec, ref = _reference("f.jsonl", lineno, line)
        if fg is None:
            assert rec.warnings or ref["findings"], "a regular game was not taken"
            continue
        taken += 1
        gid = str(fast_game_id(fg))
        assert gid == ref["id"] == fast_game_id_text(fg)
        assert fg.events()[1:] == rec.events[1:]
        assert fast_game_text(fg, "jsonl") == json.dumps(ref) + "\n"
        assert fast_game_json(fg, gid) == ref
        assert fast_game_text(fg, "json") == indented_json(ref, "\n    ")
        assert cards_dealt_text(fg.hands, fg.up, fg.kitty) == event_text(rec.events[2])
    assert taken == len(lines)


def _file(tmp_path, lines):
    p = tmp_path / "games.jsonl"
    p.write_text("\n".join(lines) + "\n")
    return str(p)


def _mixed(lines, rng):
    """Good lines, with reneges, impossible actions, stated scores that differ,
    unknown keys, long numbers, deep nesting and not-JSON among them."""
    out = []
    for line in lines:
        d = json.loads(line)
        r = rng.random()
        if r < 0.05:
            d["history"][25], d["history"][-1] = d["history"][-1], d["history"][25]
        elif r < 0.08:
            d["returns"] = [d["returns"][1], d["returns"][0], d["returns"][3], d["returns"][2]]
        elif r < 0.10:
            d["extra"] = [[[[1]]]]
        elif r < 0.12:
            d["seed"] = 10 ** 40
        elif r < 0.13:
            d["tricks"][0]["leader"] = 10 ** 35
        elif r < 0.14:
            d["history"] = d["history"][:30]
        elif r < 0.15:
            d["steps"][3]["legal"] = [1.5]
        elif r < 0.16:
            out.append("{\"history\": [1, 2" + "]" * 3)
            continue
        elif r < 0.17:
            d["params"]["allow_lone_defender"] = 1
        elif r < 0.18:
            deep = 1
            for _ in range(120):
                deep = [deep]
            d["steps"][0]["legal"] = deep
        out.append(json.dumps(d, separators=(",", ":")))
    return out

def _reference_report(path, jsonl: bool):
    """(stdout, stderr lines) of the reference path over the file."""
    games, errors = [], []
    for r in iter_openspiel_file(path):
        if isinstance(r, RecordError):
            errors.append(f"error: {r}")
            continue
        for w in r.warnings:
            errors.append(f"warning: {path}, line {r.source['line']}: {w}")   # named as errors are
        g = r.game
        g.id = str(game_id_of(r.events))
        games.append(game_json(g, g.audit()))
    if jsonl:
        return "".join(json.dumps(d) + "\n" for d in games), errors
    # json: the lines not read are named in the "errors" field after "games", as json.dumps writes it
    doc = {"games": games}
    if any(e.startswith("error: ") for e in errors):
        doc["errors"] = [{"file": path, "error": e[len("error: "):]} for e in errors if e.startswith("error: ")]
    return json.dumps(doc, indent=2) + "\n", errors


@pytest.mark.parametrize("fmt", ["jsonl", "json"])
def test_cli_audit_fast_and_reference_give_the_same_text(runner, tmp_path, lines, fmt):
    rng = random.Random(3)
    mixed = _mixed(lines[:1200], rng)
    path = _file(tmp_path, mixed)
    fast = [r for r in iter_openspiel_file(path, fast=True)]
    assert sum(type(r) is FastGame for r in fast) > 900
    assert sum(type(r) is not FastGame for r in fast) > 100
    res = runner.invoke(app, ["audit", path, "--format", fmt])
    out, errors = _reference_report(path, fmt == "jsonl")
    assert res.stdout == out
    got_err = [x for x in res.stderr.splitlines() if x.startswith(("error:", "warning:"))]
    assert got_err == errors
    assert res.exit_code == (1 if any(e.startswith("error:") for e in errors) else 0)


@pytest.mark.parametrize("fmt", ["jsonl", "json"])
def test_workers_give_the_same_report_in_the_same_order(runner, tmp_path, lines, fmt):
    """``--workers 2``: the fast lines read by two worker processes, a few
    hundred at a time; the report, the errors and warnings and their order,
    and the exit code are those of one process (and of the reference)."""
    rng = random.Random(5)
    mixed = _mixed(lines[:1500], rng)
    path = _file(tmp_path, mixed)
    one = runner.invoke(app, ["audit", path, "--format", fmt, "--workers", "1"])
    two = runner.invoke(app, ["audit", path, "--format", fmt, "--workers", "2"])
    out, errors = _reference_report(path, fmt == "jsonl")
    assert two.stdout == one.stdout == out
    assert two.stderr == one.stderr
    assert [x for x in two.stderr.splitlines() if x.startswith(("error:", "warning:"))] == errors
    assert two.exit_code == one.exit_code
    # the Rendered texts really came from other processes, in file order
    got = list(iter_openspiel_file(path, fast=True, render=render_jsonl, workers=2))
    assert [type(r).__name__ for r in got] == [
        "Rendered" if type(r) is FastGame else type(r).__name__ for r in iter_openspiel_file(path, fast=True)]


def test_workers_name_a_damaged_line_as_one_does(tmp_path, lines):
    """A NUL byte after a thousand good lines: both name that line with the
    same error (its offset) and read on, in the same order."""
    good = lines[:1000]
    path = tmp_path / "g.jsonl"
    path.write_bytes(("\n".join(good) + "\n").encode() + b'{"x": 1\x00}\n' + (good[0] + "\n").encode() * 50)
    one = list(iter_openspiel_file(str(path), fast=True, render=_render_for_test, workers=1))
    two = list(iter_openspiel_file(str(path), fast=True, render=_render_for_test, workers=2))
    assert [str(x) for x in one] == [str(x) for x in two]
    assert len(two) == 1051 and "NUL byte at offset" in str(two[1000])


def _render_for_test(fg) -> str:
    return fg.title


def test_lines_of_the_shared_generator_are_taken(tmp_path):
    """The lines ``../shared/tools/openspiel_games.py`` writes (with
    ``action_str``, ``legal``, ``summary``, ``openspiel_version``) go through
    the fast path, with the reference's report and id."""
    import os
    import subprocess
    import sys
    here = os.path.dirname(os.path.abspath(__file__))
    gen = next((p for p in (os.path.join(here, "..", "..", "shared", "tools", "openspiel_games.py"),
                            "/work/shared/tools/openspiel_games.py") if os.path.exists(p)), None)
    if gen is None:
        pytest.skip("needs ../shared/tools/openspiel_games.py")
    pytest.importorskip("pyspiel")      # the generator runs OpenSpiel
    path = str(tmp_path / "g.jsonl")
    subprocess.run([sys.executable, gen, "--n", "400", "--seed", "11", "--out", path],
                   check=True, capture_output=True)
    with open(path, "rb") as f:
        raw_lines = f.readlines()
    for lineno, raw in enumerate(raw_lines, 1):
        fg = fast_line(raw, path, lineno)
        assert fg is not None
        _, ref = _reference(path, lineno, raw.decode())
        assert fast_game_text(fg, "jsonl") == json.dumps(ref) + "\n"


def test_audit_command_lines_read_by_the_one_table():
    """The audit's table of options reads a plain command line (every
    report, every option, the last of a flag given twice); whatever typer
    must refuse or explain is left to typer."""
    assert parse_audit(["audit", "a.jsonl", "--format", "jsonl"]) == {
        "games": ["a.jsonl"], "report": "jsonl", "as_json": False, "output": None,
        "from_": None, "db": None, "workers": None}
    assert parse_audit(["audit", "a.jsonl", "--json", "--workers", "2"])["workers"] == 2
    assert parse_audit(["audit", "a.jsonl", "b.jsonl", "--json", "--from", "openspiel",
                        "-o", "out.json"])["games"] == ["a.jsonl", "b.jsonl"]
    assert parse_audit(["audit", "a.jsonl"])["report"] == "text"
    assert parse_audit(["audit", "a.euchre", "-f", "html", "-o", "a.html", "-f", "json"])["report"] == "json"
    assert parse_audit(["audit", "0760", "--db", "x.sqlite", "--json"])["db"] == "x.sqlite"
    for argv in (["audit", "--format", "jsonl"], ["audit", "a.jsonl", "--format=jsonl"],
                 ["audit", "a.jsonl", "--help"], ["show", "a.jsonl", "--json"], ["audit", "a.jsonl", "-f"],
                 ["audit", "a.jsonl", "--json", "--workers", "0"], ["audit", "a.jsonl", "--workers", "²"],
                 ["audit", "a.jsonl", "-o", "-x"], ["audit", "-"], ["audit", ""], []):
        assert parse_audit(argv) is None, argv


def test_console_script_gives_typer_s_output(runner, tmp_path, lines):
    """``euchre-events audit FILE --format jsonl`` (no typer application)
    writes what the typer command writes, with the same exit code, for good
    and bad files."""
    import subprocess
    import sys
    path = _file(tmp_path, _mixed(lines[:200], random.Random(9)))
    for argv in (["audit", path, "--format", "jsonl"], ["audit", path, "--json"],
                 ["audit", str(tmp_path / "missing.jsonl"), "--format", "jsonl"]):
        res = runner.invoke(app, argv)
        p = subprocess.run([sys.executable, "-c", "import sys; from euchre_events.cli import main; "
                            "sys.argv[0] = 'euchre-events'; main()"] + argv,
                           capture_output=True, text=True)
        assert p.stdout == res.stdout
        assert p.stderr == res.stderr
        assert p.returncode == res.exit_code


def _table_slots(t) -> dict:
    return {k: getattr(t, k) for cls in type(t).__mro__ for k in getattr(cls, "__slots__", ()) if hasattr(t, k)}


def test_plain_reader_takes_a_regular_line_through_the_fast_core(lines):
    """``_plain_line`` (every reader of a JSON Lines file: ``analyze``,
    ``audit`` without its fast path, ``show``) reads a regular game from what
    the fast core read (``_fast_record``): the Record the reference reader
    ``_read_line`` makes (events, source, warnings, stated score) and the
    same Game (its final table, slot by slot); the lines it does not take
    (reneges, bad values, unknown keys, an ``"openspiel_version": null``,
    not JSON ...) are the reference reader's, errors included."""
    from euchre_events.formats.openspiel import _fast_record, _plain_line
    rng = random.Random(5)
    mixed = _mixed(lines[:600], rng)
    d = json.loads(lines[0])
    d["openspiel_version"] = None
    mixed.append(json.dumps(d, separators=(",", ":")))
    d.pop("openspiel_version")
    d["index"], d["seed"] = None, 7
    mixed.append(json.dumps(d, separators=(",", ":")))
    d.pop("returns", None)
    d["params"] = {}
    mixed.append(json.dumps(d))
    taken = 0
    for lineno, line in enumerate(mixed, 2):
        raw = (line + "\n").encode()
        got, refused = _plain_line("f.jsonl", lineno, raw, 0, False)
        assert not refused
        fast = _fast_record(raw, "f.jsonl", lineno)
        try:
            ref = _read_line("f.jsonl", lineno, line)
        except RecordError as e:
            assert fast is None and isinstance(got, RecordError) and str(got) == str(e)
            continue
        assert got == ref and got.warnings == ref.warnings and got.source == ref.source
        assert got.stated_final_score == ref.stated_final_score
        assert _table_slots(got.game.final) == _table_slots(ref.game.final)
        assert got.game.events == ref.game.events
        if fast is not None:
            taken += 1
            assert not ref.warnings and fast == ref
        else:
            assert got is not fast
    assert taken > 400
    assert _fast_record(b'{"openspiel_version":null,' + lines[0][1:].encode(), "f.jsonl", 2) is None
