"""What the commands say when something is off: show's one event numbering, the event
`record` refused, an output under a file, a stopped server's analysis worker, a file read
in part (real records)."""
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
        # stdout may hold the results sent before the signal (the deal face up comes first)
        assert err == b"", (sig, err.decode()[-500:])


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
    assert lines[-1].startswith(f"read in part: {path}, deal 1, game event 18 (CardPlayed): West (p4) plays QS")
    assert "not read" not in r.stdout and "(s)" not in r.stdout
    assert r.stderr.strip().endswith("; read in part: the other deals are audited")
    r = _cli("audit", path, "--json")
    assert r.exit_code == 1 and json.loads(r.stdout)["errors"][0]["partial"] is True


def test_analyze_reads_an_egn_file_with_an_impossible_deal_in_part(tmp_path):
    """The same file, analysed: the deals that happened are analysed, as the
    audit audits them (real records are messy: deal 2, with its four
    reneges, happened); the impossible deal stays an error, exit 1, and the
    report says the file was read in part (it analysed nothing before).
    The same bytes with one process and with two."""
    path = Path(EGN_FIXTURES) / "negative" / "test.egn"
    outs = []
    for workers in ("1", "2"):
        out = tmp_path / f"a{workers}.json"
        r = _cli("analyze", path, str(VWEC), "--face-up-only", "--format", "json", "--workers", workers, "-o", out)
        assert r.exit_code == 1, r.output
        assert r.stderr.strip().splitlines()[0].endswith("; read in part: the other deals are analysed")
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    doc = json.loads(outs[0])
    assert [g["title"] for g in doc["games"]][-1] == "VWEC Finals"
    (part,) = [g for g in doc["games"] if g["file"] == str(path)]
    assert [d["deal"] for d in part["deals"]] == [2] and part["deals"][0]["decisions"]
    (err,) = doc["errors"]
    assert err["partial"] is True and "deal 1, game event 18 (CardPlayed): West (p4) plays QS" in err["error"]
    r = _cli("analyze", path, "--face-up-only")
    assert r.exit_code == 1 and "Deal 2" in r.stdout
    assert r.stdout.strip().splitlines()[-1].startswith(f"read in part: {path}, deal 1, game event 18")
    out = tmp_path / "a.html"
    r = _cli("audit", path, "--format", "html", "-o", out)
    assert r.exit_code == 1 and "<h2>Read in part</h2>" in out.read_text() and "Not read" not in out.read_text()
