"""``euchre-events audit FILE --format jsonl|json`` of OpenSpiel files runs
from ``euchre_events.batch`` without the command-line application (issue 11
"Speed": a sixth of the start-up): the same report, the same messages and
the same exit code as the full application gives, and ``typer`` is never
imported on that path.  Run as a person runs it: a new process."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from euchre_events.cli import app

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
runner = CliRunner()


def _messy_file(tmp_path) -> str:
    """Twelve OpenSpiel games, the second with a renege (two plays of a
    seat swapped), the fourth with an impossible history, and a line that
    is no JSON and a blank line among them."""
    pytest.importorskip("pyspiel")
    from euchre_events.formats.openspiel import history_to_events, random_openspiel_games
    from euchre_events.projections import Game
    games = list(random_openspiel_games(12, 40, tricks=False))
    lines = [json.dumps(x) for x in games]
    g = games[1]
    h, steps = g["history"], g["steps"]
    plays = [i for i in range(len(h) - 20, len(h)) if steps[i]["action"] < 24]
    for i in plays:                                   # a later card of the seat played first
        j = next((j for j in plays if j > i and steps[j]["player"] == steps[i]["player"]), None)
        if j is None:
            continue
        h2 = list(h)
        h2[i], h2[j] = h2[j], h2[i]
        try:
            if Game(history_to_events(h2, g["params"])).audit():
                lines[1] = json.dumps(dict(g, history=h2, steps=None))
                break
        except Exception:                             # not a possible game: try the next
            continue
    else:
        raise AssertionError("no renege could be made")
    bad = json.loads(lines[3])
    bad["history"] = bad["history"][:22] + [7]       # a card id in the auction
    lines[3] = json.dumps(bad)
    lines.insert(6, "{oops")
    lines.insert(8, "")
    path = tmp_path / "night.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _run(*args, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "euchre_events", *args], capture_output=True,
                          text=True, cwd=ROOT, env=env)


@pytest.mark.parametrize("report", (["--format", "jsonl"], ["--json"], ["--from", "openspiel", "--json"]))
def test_the_quick_path_gives_what_the_application_gives(tmp_path, report):
    path = _messy_file(tmp_path)
    quick = _run("audit", path, *report)
    full = runner.invoke(app, ["audit", path, *report])
    assert quick.returncode == full.exit_code == 1          # two bad lines named
    assert quick.stdout == full.stdout
    assert quick.stderr == full.stderr
    assert f"error: {path}, line 4, deal 1, event history[22]:" in quick.stderr
    assert f"error: {path}, line 7, column 2: not JSON" in quick.stderr
    games = ([json.loads(x) for x in quick.stdout.splitlines()] if "jsonl" in report
             else json.loads(quick.stdout)["games"])
    assert len(games) == 11
    assert games[1]["findings"] and not games[0]["findings"]     # the renege, found


def test_the_quick_path_does_not_load_the_application(tmp_path):
    path = _messy_file(tmp_path)
    code = ("import sys; from euchre_events.__main__ import main\n"
            f"sys.argv = ['euchre-events', 'audit', {path!r}, '--format', 'jsonl', '-o', {str(tmp_path / 'r.jsonl')!r}]\n"
            "try:\n    main()\nexcept SystemExit as e:\n    print('exit', e.code)\n"
            "print('typer' in sys.modules, 'euchre_events.cli' in sys.modules)")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert p.stdout.splitlines()[-2:] == ["exit 1", "False False"], p.stdout + p.stderr
    assert len((tmp_path / "r.jsonl").read_text().splitlines()) == 11
    # any other command line goes to the application
    p = subprocess.run([sys.executable, "-c", code.replace("'jsonl'", "'text'")],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.stdout.splitlines()[-1] == "True True", p.stdout + p.stderr


def test_a_report_that_cannot_be_written_is_one_error_and_leaves_nothing(tmp_path):
    path = _messy_file(tmp_path)
    folder = tmp_path / "out"
    folder.mkdir()
    p = _run("audit", path, "--format", "jsonl", "-o", str(folder))
    assert p.returncode == 1 and p.stdout == ""
    assert p.stderr == f"error: {folder}: cannot write: Is a directory\n"
    assert os.listdir(folder) == []


def test_the_console_script_and_python_m_are_one_command(tmp_path):
    path = _messy_file(tmp_path)
    exe = os.path.join(os.path.dirname(sys.executable), "euchre-events")
    if not os.path.exists(exe):
        pytest.skip("no console script beside this Python")
    a = subprocess.run([exe, "audit", path, "--format", "jsonl"], capture_output=True, text=True)
    b = _run("audit", path, "--format", "jsonl")
    assert (a.returncode, a.stdout, a.stderr) == (b.returncode, b.stdout, b.stderr)
    v = _run("--version")
    assert v.returncode == 0 and v.stdout.strip() == __import__("euchre_events").__version__
