"""``euchre-events audit FILE --format jsonl|json`` of OpenSpiel files runs
from ``euchre_events.batch`` without the command-line application (issue 11
"Speed": a third of the start-up): the same report, the same messages and
the same exit code as the full application gives, and ``typer`` is never
imported on that path.  Run as a person runs it: a new process."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, RUNNER as runner
from euchre_events.cli import app


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
    bad["steps"] = None                              # (steps that said otherwise: a contradiction)
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
    # every audit its table of options reads runs so (issue 24: one door), a text report too
    p = subprocess.run([sys.executable, "-c", code.replace("'jsonl'", "'text'")],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.stdout.splitlines()[-2:] == ["exit 1", "False False"], p.stdout + p.stderr
    # a command line typer must explain goes to the application
    p = subprocess.run([sys.executable, "-c", code.replace("'--format', 'jsonl'", "'--format=jsonl'")],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.stdout.splitlines()[-1] == "True True", p.stdout + p.stderr


def test_a_report_that_cannot_be_written_is_one_error_and_leaves_nothing(tmp_path):
    path = _messy_file(tmp_path)
    folder = tmp_path / "out"
    folder.mkdir()
    p = _run("audit", path, "--format", "jsonl", "-o", str(folder))
    assert p.returncode == 1 and p.stdout == ""
    assert p.stderr == f"error: {folder}: is a folder; give a file name with -o\n"
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


def _big_file(tmp_path, n: int = 2000) -> str:
    pytest.importorskip("pyspiel")
    gen = os.path.join(ROOT, "..", "shared", "tools", "openspiel_games.py")
    if not os.path.exists(gen):
        gen = "/work/shared/tools/openspiel_games.py"
    out = tmp_path / "big.jsonl"
    subprocess.run([sys.executable, gen, "--n", str(n), "--seed", "5", "--out", str(out)],
                   check=True, capture_output=True)
    return str(out)


def test_two_reports_asked_for_are_refused_as_the_application_refuses_them(tmp_path):
    path = _messy_file(tmp_path)
    for args in (["--json", "--format", "jsonl"], ["--format", "jsonl", "--json"], ["-f", "jsonl", "--json"]):
        quick = _run("audit", path, *args)
        full = runner.invoke(app, ["audit", path, *args])
        assert quick.returncode == full.exit_code == 1 and quick.stdout == ""
        assert quick.stderr == full.stderr == "error: --json and --format jsonl ask for two reports: give one\n"


@pytest.mark.parametrize("n", ("²", "١", "３"))
def test_digits_of_other_scripts_are_no_number_of_workers(tmp_path, n):
    path = _messy_file(tmp_path)
    p = _run("audit", path, "--json", "--workers", n)
    assert p.returncode == 2 and "Invalid value for '--workers'" in p.stderr
    assert "Traceback" not in p.stderr and p.stdout == ""
    env = dict(os.environ, EUCHRE_EVENTS_WORKERS=n)
    p = _run("audit", path, "--format", "jsonl", env=env)
    assert p.returncode == 1 and "Traceback" not in p.stderr      # the two bad lines
    assert f"warning: EUCHRE_EVENTS_WORKERS={n!r} is not a number of processes" in p.stderr
    assert len(p.stdout.splitlines()) == 11


def test_a_huge_number_of_workers_is_capped_with_a_warning(tmp_path):
    path = _messy_file(tmp_path)
    p = _run("audit", path, "--format", "jsonl", "--workers", "100000000000")
    assert p.returncode == 1 and len(p.stdout.splitlines()) == 11
    assert "warning: --workers: at most 32 processes are started" in p.stderr
    assert "could not be read" not in p.stderr


def test_the_report_over_the_record_it_audits_is_refused(tmp_path):
    path = _messy_file(tmp_path)
    before = open(path).read()
    for runner_args in (["--format", "jsonl"], ["--json"], []):
        p = _run("audit", path, *runner_args, "-o", path)
        assert p.returncode == 1 and p.stdout == ""
        assert p.stderr == f"error: {path}: is the record {path} being audited: give -o another file\n"
    assert open(path).read() == before


def test_a_full_disk_behind_stdout_is_one_error(tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    path = _messy_file(tmp_path)
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "euchre_events", "audit", path, "--json"],
                           stdout=full, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert p.stderr.endswith("error: cannot write the report to the standard output: "
                             "No space left on device\n")


def test_a_jsonl_report_of_no_game_is_no_file(tmp_path):
    # nothing audited, an error said: no report is written (the -o file, had it existed, would stay)
    path = tmp_path / "bad.jsonl"
    path.write_text('{"game": "euchre", "history": [0, 1]}\n')
    out = tmp_path / "r.jsonl"
    p = _run("audit", str(path), "--format", "jsonl", "-o", str(out))
    assert p.returncode == 1 and not out.exists() and p.stdout == ""
    assert list(tmp_path.iterdir()) == [path]       # no temporary file left either


def test_a_warning_names_the_line_as_an_error_does(tmp_path):
    pytest.importorskip("pyspiel")
    from euchre_events.formats.openspiel import random_openspiel_games
    g = next(random_openspiel_games(1, 3, tricks=False))
    g["returns"] = [5.0, -5.0, 5.0, -5.0]                 # a score the cards do not give
    path = tmp_path / "w.jsonl"
    path.write_text("\n" + json.dumps(g) + "\n")
    quick = _run("audit", str(path), "--format", "jsonl")
    full = runner.invoke(app, ["audit", str(path), "--format", "jsonl"])
    assert quick.stderr == full.stderr
    assert quick.stderr.startswith(f"warning: {path}, line 2: ")


def test_ctrl_c_ends_the_audit_with_130_and_no_traceback(tmp_path):
    """A person's Ctrl-C (SIGINT to the process group, workers included)
    while the report is being written."""
    import signal
    path = _big_file(tmp_path)
    p = subprocess.Popen([sys.executable, "-m", "euchre_events", "audit", path, "--format", "jsonl"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                         start_new_session=True)
    first = p.stdout.readline()                 # it is auditing (two processes: 8 MB)
    assert first.startswith(b'{"id": ')
    os.killpg(p.pid, signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert b"Traceback" not in err and err == b""


@pytest.mark.parametrize("args", (
    ["fixtures/standard/club-night-1.euchre", "fixtures/egn/negative/test.egn"],
    ["fixtures/cutthroat/cutthroat-2.euchre", "--json"],
    ["fixtures/bid/bid-1.euchre", "fixtures/standard/deals/c3-renege-audit.euchre", "-f", "jsonl"],
    ["fixtures/standard/club-night-1.euchre", "--format", "html"],           # needs -o
    ["fixtures/standard/club-night-1.euchre", "--format", "xml"],
    ["fixtures/standard/club-night-1.euchre", "--json", "--format", "jsonl"],
    ["no-such-file.egn", "--format", "jsonl"],
    ["fixtures/standard/club-night-1.euchre", "--from", "egn"],
))
def test_both_doors_give_one_audit(args):
    """issue 24: the options of ``audit`` are one table and its loop one
    function; the typer-free door (a new process) and the application give
    the same output, messages and exit code for record files, errors and
    refused options alike."""
    quick = _run("audit", *args)
    full = runner.invoke(app, ["audit", *args])
    assert (quick.returncode, quick.stdout, quick.stderr) == (full.exit_code, full.stdout, full.stderr)
