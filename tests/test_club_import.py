"""Import at scale (issue 9): folders (recursive), patterns, .zip and
.tar.gz archives; bad files listed at the end (exit 1) while the others
import; an import killed with SIGKILL in the middle of a folder, run again,
leaves every game stored once and none partial.  Real SQLite, no mock."""
import os
import signal
import subprocess
import sys
import tarfile
import zipfile


from conftest import RUNNER
from euchre_events.archive import Archive
from euchre_events.cli import app
from euchre_events.formats.jsonfmt import write_json
from euchre_events.rules.simulate import random_game


def _folder(tmp_path, n=30):
    d = tmp_path / "records"
    for i in range(n):
        sub = d / f"night-{i % 3}" / ("late" if i % 2 else "")
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"g{i}.json").write_text(write_json(random_game("standard", seed=i)))
    return d


def _broken(d):
    (d / "truncated.json").write_text(write_json(random_game("standard", seed=99))[:500])
    (d / "schema.json").write_text('{"format": "euchre-events", "events": [{"type": "Nonsense"}]}')
    (d / "latin1.euchre").write_bytes("[Title \"caf\xe9\"]\n".encode("latin-1") + b"\xff\xfe")
    (d / "<img onerror=alert(1)>.egn").write_text("<html><script>alert(1)</script></html>")
    with open(os.path.join(os.fsencode(d), b"bad-\xff-name.json"), "wb") as f:   # not UTF-8
        f.write(b"\x00\x01")
    (d / "empty.egn").write_text("")


def test_folders_patterns_and_archives(tmp_path):
    d = _folder(tmp_path, 9)
    _broken(d)
    db = str(tmp_path / "a.sqlite")
    r = RUNNER.invoke(app, ["import", "--db", db, str(d)])
    assert r.exit_code == 1
    assert len([ln for ln in r.stdout.splitlines() if "deals=" in ln]) == 9
    assert "imported 9 games (0 already stored)" in r.stderr and "6 could not be imported" in r.stderr
    for name in ("truncated.json", "schema.json", "latin1.euchre", "<img onerror=alert(1)>.egn", "empty.egn", "bad-"):
        assert name in r.stderr, name
    assert "Traceback" not in r.output
    assert len(Archive(db).game_ids()) == 9
    z = tmp_path / "night.zip"
    with zipfile.ZipFile(z, "w") as zf:
        for p in sorted(d.rglob("g*.json")):
            zf.write(p, p.relative_to(d))
    t = tmp_path / "night.tar.gz"
    with tarfile.open(t, "w:gz") as tf:
        tf.add(d / "night-0", arcname="night-0")
    extra = tmp_path / "more"
    extra.mkdir()
    (extra / "new.json").write_text(write_json(random_game("bid", seed=5)))
    r = RUNNER.invoke(app, ["import", "--db", db, str(z), str(t), str(tmp_path / "m*" / "*.json")])
    assert r.exit_code == 0, r.output
    assert "imported 1 game (" in r.stderr and r.stdout.count("(already stored)") == 9 + 3
    assert len(Archive(db).game_ids()) == 10


def test_an_import_killed_with_sigkill_is_finished_by_a_rerun(tmp_path):
    d = _folder(tmp_path, 36)
    db = str(tmp_path / "k.sqlite")
    cmd = [sys.executable, "-c", "from euchre_events.cli import main; main()", "import", "--db", db, str(d)]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines = [p.stdout.readline() for _ in range(10)]     # ten games stored, then SIGKILL
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    assert p.returncode == -signal.SIGKILL and all("deals=" in ln for ln in lines)
    stopped = len(Archive(db).game_ids())
    assert 10 <= stopped < 36
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert f"imported {36 - stopped} games ({stopped} already stored)" in r.stderr
    a = Archive(db)
    ids = a.game_ids()
    assert len(ids) == len(set(ids)) == 36
    assert all(a.verify(g).status == "intact" for g in ids)     # none partial: every event of each
