"""``audit -o FILE`` and the inputs that cannot be read (task "fixaudit"):
when no game is audited nothing is written (the file there stays, byte for
byte, and its name is not said), and a report that has games names the
inputs it could not read (text: ``not read:`` lines, json: ``"errors"``,
html: a "Not read" section; jsonl stays one game per line).  Both doors:
the typer-free one (:func:`euchre_events.batch.quick_audit`, what ``python
-m euchre_events audit`` runs) and the typer application (CliRunner).
The bad input is a real record cut short: the first 3,000 bytes of
``fixtures/egn/VWEC Finals.egn``."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, RUNNER as runner
from euchre_events.batch import quick_audit
from euchre_events.cli import app

VWEC = os.path.join(ROOT, "fixtures", "egn", "VWEC Finals.egn")


@pytest.fixture
def files(tmp_path):
    good = tmp_path / "vwec.egn"
    shutil.copyfile(VWEC, good)
    trunc = tmp_path / "trunc.egn"
    trunc.write_bytes(good.read_bytes()[:3000])
    return str(good), str(trunc)


def _quick(argv, capsys):
    """(exit code, stdout, stderr) of the typer-free door, in this process."""
    capsys.readouterr()
    try:
        code = quick_audit(argv)
    except SystemExit as e:      # a fail(): the door lets it end the process
        code = e.code
    out = capsys.readouterr()
    return code, out.out, out.err


def _typer(argv, capsys):
    res = runner.invoke(app, argv)
    return res.exit_code, res.stdout, res.stderr


DOORS = {"quick": _quick, "typer": _typer}


@pytest.mark.parametrize("door", sorted(DOORS))
@pytest.mark.parametrize("fmt", ["text", "json", "jsonl", "html"])
def test_no_game_audited_leaves_the_file_as_it_was(tmp_path, files, capsys, fmt, door):
    _, trunc = files
    out = tmp_path / f"k.{fmt}"
    out.write_bytes(b"keep\n")
    code, stdout, stderr = DOORS[door](["audit", trunc, "--format", fmt, "-o", str(out)], capsys)
    assert code == 1
    assert out.read_bytes() == b"keep\n"                      # byte for byte
    assert str(out) not in stdout + stderr                    # not said as if written
    assert f"error: {trunc}, line 161, column 14: not JSON" in stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["vwec.egn", "trunc.egn", out.name])


def test_no_game_audited_through_the_console_command(tmp_path, files):
    """``python -m euchre_events audit`` as the newcomer ran it."""
    _, trunc = files
    out = tmp_path / "k.json"
    out.write_text("keep\n")
    p = subprocess.run([sys.executable, "-m", "euchre_events", "audit", trunc, "--format", "json", "-o", str(out)],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 1 and p.stdout == "" and out.read_text() == "keep\n"
    assert p.stderr.startswith(f"error: {trunc}, line 161") and str(out) not in p.stderr


@pytest.mark.parametrize("door", sorted(DOORS))
def test_json_report_names_the_file_not_read(tmp_path, files, capsys, door):
    good, trunc = files
    out = tmp_path / "r.json"
    code, stdout, stderr = DOORS[door](["audit", good, trunc, "--format", "json", "-o", str(out)], capsys)
    assert code == 1 and stdout.splitlines() == [str(out)]    # a report written: its name said
    text = out.read_text()
    doc = json.loads(text)
    assert [g["title"] for g in doc["games"]] == ["VWEC Finals"]
    assert doc["games"][0]["official_score"] == [8, 10]
    assert len(doc["errors"]) == 1 and doc["errors"][0]["file"] == trunc
    assert doc["errors"][0]["error"].startswith(f"{trunc}, line 161, column 14: not JSON")
    assert f"error: {doc['errors'][0]['error']}" in stderr.splitlines()
    assert text == json.dumps(doc, indent=2) + "\n"          # as json.dumps writes it, the field after "games"


@pytest.mark.parametrize("door", sorted(DOORS))
def test_text_and_html_reports_name_the_file_not_read(tmp_path, files, capsys, door):
    good, trunc = files
    txt, page = tmp_path / "r.txt", tmp_path / "r.html"
    code, _, stderr = DOORS[door](["audit", good, trunc, "-o", str(txt)], capsys)
    assert code == 1
    lines = txt.read_text().splitlines()
    assert lines[0].startswith("07608601-1388-8a0a-98dc-dbf8a02d6293  VWEC Finals  standard  deals=13")
    assert lines[-1].startswith(f"not read: {trunc}, line 161, column 14: not JSON")
    code, _, _ = DOORS[door](["audit", good, trunc, "--format", "html", "-o", str(page)], capsys)
    assert code == 1
    html = page.read_text()
    assert "<h2>Not read</h2>" in html and f"not read: {trunc}, line 161, column 14: not JSON" in html
    assert html.index("<h2>Not read</h2>") < html.index("<h2>VWEC Finals (standard)</h2>")   # seen first


@pytest.mark.parametrize("fmt", ["text", "json", "jsonl", "html"])
def test_a_report_of_good_inputs_has_no_trace_of_errors(tmp_path, files, capsys, fmt):
    good, trunc = files
    out, bad = tmp_path / f"r.{fmt}", tmp_path / f"b.{fmt}"
    assert _quick(["audit", good, "--format", fmt, "-o", str(out)], capsys)[0] == 0
    assert _quick(["audit", good, trunc, "--format", fmt, "-o", str(bad)], capsys)[0] == 1
    clean = out.read_text()
    assert "not read" not in clean.lower() and '"errors"' not in clean
    if fmt == "jsonl":     # one game per line, errors or not (the errors are on stderr)
        assert bad.read_text() == clean and len(clean.splitlines()) == 1
    else:
        assert bad.read_text() != clean


def test_the_format_message_lists_every_audit_format(files, capsys):
    good, _ = files
    for door in (_quick, _typer):
        code, _, stderr = door(["audit", good, "--format", "xml"], capsys)
        assert code == 1 and "error: --format xml: expected text, json, jsonl or html" in stderr


def test_the_analyze_all_summary_counts_in_words():
    from euchre_events.corpus import CorpusResult
    r = CorpusResult()
    r.analysed, r.decisions, r.seconds = 1, 1, 2.0
    assert r.summary() == "1 game analysed, 0 already done, 0 failed (1 decision) in 2.0 s: 0.50 games/s"
    r.analysed, r.decisions = 2, 0
    assert r.summary().startswith("2 games analysed, 0 already done, 0 failed (0 decisions)")


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_analyze_report_names_the_file_not_read(tmp_path, files, fmt):
    good, trunc = files
    out = tmp_path / f"a.{fmt}"
    res = runner.invoke(app, ["analyze", good, trunc, "--format", fmt, "--samples", "5", "-o", str(out)])
    assert res.exit_code == 1
    said = f"{trunc}, line 161, column 14: not JSON"
    assert f"error: {said}" in res.stderr
    text = out.read_text()
    if fmt == "json":
        doc = json.loads(text)
        assert [g["title"] for g in doc["games"]] == ["VWEC Finals"]
        assert [e["file"] for e in doc["errors"]] == [trunc] and doc["errors"][0]["error"].startswith(said)
        assert list(doc) == ["games", "errors"]
    elif fmt == "html":
        assert "<h2>Not read</h2>" in text and f"not read: {said}" in text
    else:
        assert text.splitlines()[0].startswith("VWEC Finals (standard): analysed")
        assert text.splitlines()[-1].startswith(f"not read: {said}")
    # every input good: no trace of errors (the report as before)
    clean = tmp_path / f"c.{fmt}"
    assert runner.invoke(app, ["analyze", good, "--format", fmt, "--samples", "5", "-o", str(clean)]).exit_code == 0
    kept = clean.read_text()     # (plotly's script has words of its own: the report's marks are looked for)
    assert "not read: " not in kept and "<h2>Not read</h2>" not in kept and '"errors"' not in kept


def test_analyze_of_nothing_read_leaves_the_file_as_it_was(tmp_path, files):
    _, trunc = files
    out = tmp_path / "k.json"
    out.write_bytes(b"keep\n")
    res = runner.invoke(app, ["analyze", trunc, "--format", "json", "-o", str(out)])
    assert res.exit_code == 1 and out.read_bytes() == b"keep\n" and str(out) not in res.stdout


@pytest.mark.parametrize("door", sorted(DOORS))
def test_no_game_audited_to_stdout(files, capsys, door):
    """Without -o: json still prints its document (games none, the error
    named); text and jsonl print nothing, as before."""
    _, trunc = files
    code, stdout, _ = DOORS[door](["audit", trunc, "--json"], capsys)
    doc = json.loads(stdout)
    assert code == 1 and doc["games"] == [] and [e["file"] for e in doc["errors"]] == [trunc]
    for fmt in ("text", "jsonl"):
        code, stdout, stderr = DOORS[door](["audit", trunc, "--format", fmt], capsys)
        assert code == 1 and stdout == "" and stderr.startswith(f"error: {trunc}, line 161")
