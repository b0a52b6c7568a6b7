"""``euchre-events audit FILE.jsonl`` reads and audits an OpenSpiel file game
by game and writes the report as it goes (issue "Speed"): the streamed
report is the very report of the whole file read at once."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from typing import Optional

import pytest

from conftest import ROOT, RUNNER as runner
from euchre_events.archive import game_id_of
from euchre_events.cli import app
from euchre_events.formats import RecordError, read_records
from euchre_events.formats.openspiel import iter_openspiel_file, read_openspiel_file
from euchre_events.projections import Game
from euchre_events.ui.auditreport import game_json, game_lines


def _generated(tmp_path, n: int = 40, seed: int = 5) -> str:
    pytest.importorskip("pyspiel")
    gen = os.path.join(ROOT, "..", "shared", "tools", "openspiel_games.py")
    if not os.path.exists(gen):
        gen = "/work/shared/tools/openspiel_games.py"
    out = tmp_path / "games.jsonl"
    subprocess.run([sys.executable, gen, "--n", str(n), "--seed", str(seed), "--out", str(out)],
                   check=True, capture_output=True)
    return str(out)


def _whole_file_games(path: str) -> list:
    """The games of the file read whole, each folded from its events and audited."""
    out = []
    for r in read_records(path):
        g = Game(r.events, game_id=str(game_id_of(r.events)))
        out.append((g, g.audit()))
    return out


def test_streamed_audit_equals_the_whole_file_audit(tmp_path):
    path = _generated(tmp_path)
    whole = _whole_file_games(path)
    assert len(whole) == 40
    res = runner.invoke(app, ["audit", path, "--from", "openspiel", "--json"])
    assert res.exit_code == 0, res.stderr
    expected = json.dumps({"games": [game_json(g, f) for g, f in whole]}, indent=2) + "\n"
    assert res.stdout == expected
    # the same games as JSON Lines, one per line
    res = runner.invoke(app, ["audit", path, "--format", "jsonl"])
    assert res.exit_code == 0
    assert [json.loads(x) for x in res.stdout.splitlines()] == [game_json(g, f) for g, f in whole]
    # the text report, and -o (written whole, no .part file left)
    res = runner.invoke(app, ["audit", path])
    assert res.stdout.splitlines() == [ln for g, f in whole for ln in game_lines(g, f)]
    out = tmp_path / "report.json"
    res = runner.invoke(app, ["audit", path, "--json", "-o", str(out)])
    assert res.exit_code == 0 and out.read_text() == expected
    assert not os.path.exists(str(out) + ".part")


def test_a_bad_line_is_named_and_the_other_games_are_audited(tmp_path):
    path = _generated(tmp_path, n=6)
    lines = open(path).read().splitlines()
    bad = json.loads(lines[2])
    bad["history"] = bad["history"][:22] + [7]        # a card id in the auction
    bad["steps"] = None                               # (steps that said otherwise: a contradiction)
    lines[2] = json.dumps(bad)
    lines.insert(4, "{oops")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    streamed = list(iter_openspiel_file(path))
    assert [type(x).__name__ for x in streamed] == ["Record", "Record", "RecordError", "Record",
                                                    "RecordError", "Record", "Record"]
    assert streamed[2].line == 3 and streamed[2].event == "history[22]" and streamed[2].deal == 1
    assert streamed[4].line == 5 and streamed[4].reason.startswith("not JSON")
    with pytest.raises(RecordError) as e:           # the whole-file reader still refuses the file
        read_openspiel_file(path)
    assert str(e.value) == str(streamed[2])
    res = runner.invoke(app, ["audit", path, "--json"])
    assert res.exit_code == 1
    assert len(json.loads(res.stdout)["games"]) == 5
    assert f"error: {path}, line 3, deal 1, event history[22]:" in res.stderr
    assert f"error: {path}, line 5, column 2: not JSON" in res.stderr


def test_a_file_that_is_not_json_lines_is_one_error(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text("[1, 2]\n{}\n")
    [e] = list(iter_openspiel_file(str(path)))
    assert "not JSON Lines" in e.reason
    good = _generated(tmp_path, n=2)
    data = open(good, "rb").read()
    path.write_bytes(data + b"\x00\n" + data)       # a NUL byte after two good games
    out = list(iter_openspiel_file(str(path)))
    # a damaged line: named (line 3, its offset), and the games after it are read
    assert [type(x).__name__ for x in out] == ["Record", "Record", "RecordError", "Record", "Record"]
    assert out[2].line == 3 and f"NUL byte at offset {len(data)} of the file" in out[2].reason
    path.write_bytes(data + b'{"game": "euchre\xff"}\n' + data)     # a byte that is not UTF-8
    out = list(iter_openspiel_file(str(path)))
    assert [type(x).__name__ for x in out] == ["Record", "Record", "RecordError", "Record", "Record"]
    assert f"byte 0xff at offset {len(data) + 16} of the file is not UTF-8" in out[2].reason
    path.write_bytes(b"\x00" + data)                 # before any game: no text at all
    [e] = list(iter_openspiel_file(str(path)))
    assert e.reason == "not a text record: it holds a NUL byte at offset 0 (a binary file?)"
    path.write_text("\n  \n")
    [e] = list(iter_openspiel_file(str(path)))
    assert e.reason == "the file is empty: it holds no game"
    res = runner.invoke(app, ["audit", "--json", str(path)])
    assert res.exit_code == 1 and json.loads(res.stdout) == {     # the file not read, named in the report
        "games": [], "errors": [{"file": str(path), "error": f"{path}: the file is empty: it holds no game"}]}


def test_output_to_a_folder_is_refused_and_leaves_nothing(tmp_path):
    path = _generated(tmp_path, n=2)
    folder = tmp_path / "out"
    folder.mkdir()
    res = runner.invoke(app, ["audit", path, "--json", "-o", str(folder)])
    assert res.exit_code == 1 and f"{folder}: is a folder; give a file name with -o" in res.stderr   # as export says it
    assert sorted(os.listdir(tmp_path)) == ["games.jsonl", "out"]


def _read_fifo(path: str, into: list, first: Optional[int] = None) -> threading.Thread:
    """A reader of the named pipe ``path`` in a thread: all it holds into
    ``into``, or only its first ``first`` bytes, then the pipe is closed."""
    def read():
        with open(path, "rb") as f:
            into.append(f.read() if first is None else f.read(first))
    t = threading.Thread(target=read)
    t.start()
    return t


def test_output_to_a_link_or_a_pipe_keeps_it_and_a_failed_write_is_an_error(tmp_path):
    """``-o`` follows a link (the file it names is written, the link stays) and
    writes a named pipe (or /dev/null, /dev/stdout) as it goes: renaming
    ``FILE.part`` over it put a plain file in its place (as root, ``-o
    /dev/null`` replaced the device).  A write the pipe refuses is an error
    naming FILE, not a traceback."""
    path = _generated(tmp_path, n=200)
    res = runner.invoke(app, ["audit", path, "--format", "jsonl"])
    expected = res.stdout
    assert res.exit_code == 0 and len(expected) > 70_000       # more than a pipe holds
    target, link = tmp_path / "report.jsonl", tmp_path / "link.jsonl"
    os.symlink(target, link)
    res = runner.invoke(app, ["audit", path, "--format", "jsonl", "-o", str(link)])
    assert res.exit_code == 0, res.stderr
    assert os.path.islink(link) and target.read_text() == expected
    assert sorted(os.listdir(tmp_path)) == ["games.jsonl", "link.jsonl", "report.jsonl"]
    fifo = str(tmp_path / "pipe")
    os.mkfifo(fifo)
    got: list = []
    reader = _read_fifo(fifo, got)
    res = runner.invoke(app, ["audit", path, "--format", "jsonl", "-o", fifo])
    reader.join()
    assert res.exit_code == 0, res.stderr
    assert got == [expected.encode()] and stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert not os.path.exists(fifo + ".part")
    assert res.stdout == ""          # no name said after the report: it may be /dev/stdout
    res = runner.invoke(app, ["audit", path, "--format", "jsonl", "-o", str(target)])
    assert res.stdout == f"{target}\n"                          # a file made: its name
    got = []
    reader = _read_fifo(fifo, got, first=10)   # stops reading: the next writes fail (EPIPE)
    res = runner.invoke(app, ["audit", path, "--format", "jsonl", "-o", fifo])
    reader.join()
    assert res.exit_code == 1 and got == [expected[:10].encode()]
    assert res.stderr == f"error: {fifo}: cannot write: Broken pipe\n"
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_import_stores_the_good_games_of_a_file_with_a_bad_line(tmp_path):
    """import reads an OpenSpiel JSON Lines file line by line as audit does: a bad
    line is named (file, line, reason), the other games are stored, exit 1."""
    from euchre_events.archive import Archive
    path = _generated(tmp_path, n=5)
    lines = open(path).read().splitlines()
    lines.insert(2, '{"game": "euchre", "history": [0, 1, 2]}')
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    db = str(tmp_path / "a.sqlite")
    res = runner.invoke(app, ["import", path, "--db", db])
    assert res.exit_code == 1
    assert f"{path}, line 3: the history has 3 actions" in res.stderr
    ids = {ln.split()[0] for ln in res.stdout.splitlines()}
    assert len(Archive(db).stream_ids()) == len(ids) == 5


def test_a_workers_variable_that_is_no_number_is_named(tmp_path, monkeypatch):
    path = _generated(tmp_path, n=3)
    monkeypatch.setenv("EUCHRE_EVENTS_WORKERS", "two")
    res = runner.invoke(app, ["audit", path, "--format", "jsonl"])
    assert res.exit_code == 0 and res.stdout.count("\n") == 3
    assert res.stderr == ("warning: EUCHRE_EVENTS_WORKERS='two' is not a number of processes: "
                          "the default is used\n")
