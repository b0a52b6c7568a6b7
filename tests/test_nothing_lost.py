"""Nothing lost (issue 26, findings 1, 2, 7, 10 and 11): no command writes
its output onto a file it reads, whatever the path's spelling; ``-o`` never
replaces what the path is (a link stays a link, a pipe a pipe); an archive
or folder that is imported is read through a size limit and only its regular
files are read; another program's SQLite file is not written to; a zip
member that cannot be read is named and the others are imported.

Real files, a real SQLite archive, the real command (typer's runner, or a
subprocess where a hang or the memory of a bomb must stay outside the test
process).  The records are the fixtures ``fixtures/standard/club-night-1``
and ``-2`` (two different games) and the EGN games of ``fixtures/egn``.
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
import subprocess
import sys
import tarfile
import threading
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT, RUNNER as runner
from euchre_events import formats
from euchre_events.cli import app

CLUB1 = ROOT / "fixtures" / "standard" / "club-night-1.euchre"
CLUB2 = ROOT / "fixtures" / "standard" / "club-night-2.euchre"
EGN = ROOT / "fixtures" / "egn" / "VWEC Finals.egn"
LIMIT = getattr(formats, "MAX_RECORD_BYTES", 8 << 20)   # the reader's limit (8 MiB on main, unnamed)


def _digest(path) -> str:
    """The archive's content: for an SQLite archive its rows, for any other
    file its bytes.  Rows, not bytes, for SQLite: a connection an earlier
    command left open may checkpoint the write-ahead log into the file, or
    remove the log when it closes, at any moment, changing the file's bytes
    (and whether a ``-wal`` file is there) but not what it holds.  A report
    written over the archive is not an SQLite file: its dump fails or differs."""
    p = Path(path)
    if p.read_bytes()[:16] == b"SQLite format 3\x00":
        con = sqlite3.connect(f"file:{p}?mode=ro", uri=True)
        try:
            return hashlib.sha256("\n".join(con.iterdump()).encode()).hexdigest()
        finally:
            con.close()
    return hashlib.sha256(p.read_bytes()).hexdigest()


def _archive_of_one(tmp_path) -> tuple:
    """``(archive path, game id)``: club-night-1 imported into ``A.sqlite``,
    its read models built (``list``), so that nothing later changes the file."""
    db = tmp_path / "A.sqlite"
    res = runner.invoke(app, ["import", str(CLUB1), "--db", str(db)])
    assert res.exit_code == 0, res.output
    listing = runner.invoke(app, ["list", "--db", str(db)])
    assert listing.exit_code == 0 and "Club night, table 1" in listing.stdout
    return db, listing.stdout.split()[0]


def _spellings(tmp_path, target: Path) -> list:
    """Other names of ``target`` (run from ``tmp_path``): relative, ``./``,
    absolute, a symbolic link and a hard link to it."""
    link, hard = tmp_path / f"link-{target.name}", tmp_path / f"hard-{target.name}"
    os.symlink(target, link)
    os.link(target, hard)
    return [target.name, f"./{target.name}", str(target), link.name, hard.name]


def _games_in(db) -> int:
    listing = runner.invoke(app, ["list", "--db", str(db), "--json"])
    assert listing.exit_code == 0, listing.output
    return len(json.loads(listing.stdout)["games"])


# ---------------------------------------------------------------- finding 1: output onto an input

@pytest.mark.parametrize("report", (["--format", "text"], ["--format", "html"], ["--json"]))
def test_an_audit_report_onto_the_archive_is_refused_whatever_the_spelling(tmp_path, monkeypatch, report):
    db, gid = _archive_of_one(tmp_path)
    before = _digest(db)
    monkeypatch.chdir(tmp_path)
    for out in _spellings(tmp_path, db):
        res = runner.invoke(app, ["audit", "--db", "A.sqlite", gid, *report, "-o", out])
        assert res.exit_code == 1, (out, res.output)
        assert res.stderr == f"error: {out}: is the archive A.sqlite this command reads: give -o another file\n"
        assert res.stdout == ""
        assert _digest(db) == before
    assert _games_in(db) == 1


def test_stats_onto_the_archive_is_refused(tmp_path, monkeypatch):
    db, _ = _archive_of_one(tmp_path)
    before = _digest(db)
    monkeypatch.chdir(tmp_path)
    for out in _spellings(tmp_path, db):
        for report in ("html", "json", "text"):
            res = runner.invoke(app, ["stats", "--db", "A.sqlite", "--format", report, "-o", out])
            assert res.exit_code == 1, (out, report, res.output)
            assert res.stderr == f"error: {out}: is the archive A.sqlite this command reads: give -o another file\n"
            assert _digest(db) == before
    assert _games_in(db) == 1


@pytest.mark.parametrize("fmt", ("html", "text", "json", "egn", "egnb"))
def test_an_export_onto_the_record_it_reads_is_refused(tmp_path, monkeypatch, fmt):
    rec = tmp_path / "g.euchre"
    rec.write_bytes(CLUB1.read_bytes())
    monkeypatch.chdir(tmp_path)
    for out in _spellings(tmp_path, rec):
        res = runner.invoke(app, ["export", "g.euchre", "--format", fmt, "-o", out])
        assert res.exit_code == 1, (out, res.output)
        assert res.stderr == f"error: {out}: is the record g.euchre being exported: give -o another file\n"
        assert rec.read_bytes() == CLUB1.read_bytes()
        assert not os.path.islink(out) or os.readlink(out) == str(rec)


def test_an_export_of_a_stored_game_or_a_match_onto_what_it_reads_is_refused(tmp_path):
    db, gid = _archive_of_one(tmp_path)
    before = _digest(db)
    res = runner.invoke(app, ["export", gid, "--db", str(db), "--format", "json", "-o", str(db)])
    assert res.exit_code == 1
    assert res.stderr == f"error: {db}: is the archive {db} this command reads: give -o another file\n"
    assert _digest(db) == before
    games = [tmp_path / "G1.egn", tmp_path / "G2.egn"]
    for i, g in enumerate(games, 1):
        g.write_bytes((ROOT / "fixtures" / "egn" / "match" / f"MotE W5 G{i}.egn").read_bytes())
    kept = [g.read_bytes() for g in games]
    res = runner.invoke(app, ["export", str(games[0]), str(games[1]), "--format", "emn", "-o", str(games[1])])
    assert res.exit_code == 1
    assert res.stderr == f"error: {games[1]}: is the record {games[1]} being exported: give -o another file\n"
    assert [g.read_bytes() for g in games] == kept


def test_an_audit_of_record_files_onto_one_of_them_is_refused_through_a_link(tmp_path):
    rec = tmp_path / "g.euchre"
    rec.write_bytes(CLUB1.read_bytes())
    link = tmp_path / "report.txt"
    os.symlink(rec, link)
    res = runner.invoke(app, ["audit", str(rec), "-o", str(link)])
    assert res.exit_code == 1
    assert res.stderr == f"error: {link}: is the record {rec} being audited: give -o another file\n"
    assert rec.read_bytes() == CLUB1.read_bytes()


# ---------------------------------------------------------------- finding 2: -o keeps what the path is

def test_an_html_export_through_a_link_writes_the_file_it_names_and_keeps_the_link(tmp_path):
    page, link = tmp_path / "page.html", tmp_path / "link.html"
    page.write_text("an old page\n")
    os.symlink(page, link)
    res = runner.invoke(app, ["export", str(CLUB1), "--format", "html", "-o", str(link)])
    assert res.exit_code == 0, res.output
    assert os.path.islink(link) and os.readlink(link) == str(page)
    assert page.read_text(encoding="utf-8").startswith("<!doctype html>")
    assert "Club night, table 1" in page.read_text(encoding="utf-8")
    assert sorted(os.listdir(tmp_path)) == ["link.html", "page.html"]      # no temporary file left


def _read_fifo(path: str, into: list) -> threading.Thread:
    """A reader of the named pipe ``path`` in a daemon thread (all it holds
    into ``into``); daemon: when nothing ever writes the pipe, the test
    still ends."""
    def read():
        with open(path, "rb") as f:
            into.append(f.read())
    t = threading.Thread(target=read, daemon=True)
    t.start()
    return t


@pytest.mark.parametrize("fmt", ("html", "json", "egnb"))
def test_an_export_to_a_named_pipe_writes_through_it_and_keeps_it(tmp_path, fmt):
    plain = tmp_path / "plain"
    assert runner.invoke(app, ["export", str(CLUB1), "--format", fmt, "-o", str(plain)]).exit_code == 0
    fifo = str(tmp_path / "pipe")
    os.mkfifo(fifo)
    got: list = []
    reader = _read_fifo(fifo, got)
    res = runner.invoke(app, ["export", str(CLUB1), "--format", fmt, "-o", fifo])
    reader.join(timeout=20)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the pipe was replaced by a file"
    assert res.exit_code == 0, res.output
    assert got == [plain.read_bytes()]           # the very bytes a file gets
    assert res.stdout == ""                      # no name said after it: it may be /dev/stdout
    if fmt == "html":
        assert got[0].startswith(b"<!doctype html>")
    assert sorted(os.listdir(tmp_path)) == ["pipe", "plain"]


def test_stats_html_through_a_link_keeps_the_link(tmp_path):
    db, _ = _archive_of_one(tmp_path)
    page, link = tmp_path / "club.html", tmp_path / "link.html"
    os.symlink(page, link)          # a link to a file not made yet
    res = runner.invoke(app, ["stats", "--db", str(db), "--format", "html", "-o", str(link)])
    assert res.exit_code == 0, res.output
    assert os.path.islink(link) and page.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")


# ---------------------------------------------------------------- finding 7: bombs, links, pipes

def _zeros_member(write, size: int) -> None:
    """``size`` zero bytes through ``write`` in pieces (never all in memory here)."""
    piece = bytes(1 << 20)
    left = size
    while left > 0:
        write(piece[:min(left, len(piece))])
        left -= len(piece)


BOMB = max(50 << 20, LIMIT + (1 << 20))
"""Bytes of the bomb member when unpacked: 50 MB of zeros, well over the limit."""


def test_a_zip_member_over_the_limit_is_refused_and_the_others_imported(tmp_path):
    path = tmp_path / "bomb.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(CLUB1, "a.euchre")
        with z.open("big.egn", "w", force_zip64=True) as f:
            _zeros_member(f.write, BOMB)
        z.write(CLUB2, "c.euchre")
    assert path.stat().st_size < 1 << 20          # a small file that unpacks to 50 MB
    db = tmp_path / "A.sqlite"
    res = runner.invoke(app, ["import", str(path), "--db", str(db)])
    assert res.exit_code == 1
    assert (f"error: {path}:big.egn: {BOMB} bytes unpacked, more than the {LIMIT} bytes a record "
            f"may hold: not read\n") in res.stderr
    assert "Traceback" not in res.output
    assert _games_in(db) == 2


def test_a_tar_member_over_the_limit_is_refused_and_the_others_imported(tmp_path):
    path = tmp_path / "bomb.tar.gz"
    src = tmp_path / "big.egn"
    with open(src, "wb") as f:
        _zeros_member(f.write, BOMB)
    with tarfile.open(path, "w:gz") as t:
        t.add(CLUB1, "a.euchre")
        t.add(src, "big.egn")
        t.add(CLUB2, "c.euchre")
    src.unlink()
    db = tmp_path / "A.sqlite"
    res = runner.invoke(app, ["import", str(path), "--db", str(db)])
    assert res.exit_code == 1
    assert (f"error: {path}:big.egn: {BOMB} bytes unpacked, more than the {LIMIT} bytes a record "
            f"may hold: not read\n") in res.stderr
    assert _games_in(db) == 2


def test_a_record_file_over_the_limit_is_refused_without_reading_it(tmp_path):
    big = tmp_path / "big.euchre"
    with open(big, "wb") as f:
        f.truncate(LIMIT + 1)        # a sparse file: no disk, and no memory if it is not read
    res = runner.invoke(app, ["audit", str(big)])
    assert res.exit_code == 1
    assert res.stderr == (f"error: {big}: {LIMIT + 1} bytes, more than the {LIMIT} bytes a record "
                          f"may hold: not read\n")


def _limited(max_bytes: int):
    """A ``preexec_fn``: the child may map at most ``max_bytes`` of memory
    (a reader of /dev/zero stops there instead of taking the machine's)."""
    def limit():
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (max_bytes, max_bytes))
    return limit


def test_a_folder_with_a_link_to_dev_zero_and_a_named_pipe_imports_the_rest(tmp_path):
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "a.euchre").write_bytes(CLUB1.read_bytes())
    os.mkfifo(folder / "b.egn")                    # nothing ever writes it: reading it waits for ever
    os.symlink("/dev/zero", folder / "zero.egn")   # reading it never ends
    (folder / "c.euchre").write_bytes(CLUB2.read_bytes())
    db = tmp_path / "A.sqlite"
    p = subprocess.run([sys.executable, "-m", "euchre_events", "import", str(folder), "--db", str(db)],
                       capture_output=True, text=True, timeout=60, preexec_fn=_limited(3 << 30))
    assert p.returncode == 1, p.stderr
    assert f"error: {folder}/b.egn: not a regular file (a named pipe): not read\n" in p.stderr
    assert f"error: {folder}/zero.egn: not a regular file (a character device): not read\n" in p.stderr
    assert "Traceback" not in p.stderr
    assert len(p.stdout.splitlines()) == 2 and _games_in(db) == 2


def test_a_named_pipe_given_by_name_is_refused_at_once(tmp_path):
    fifo = tmp_path / "live.euchre"
    os.mkfifo(fifo)
    p = subprocess.run([sys.executable, "-m", "euchre_events", "audit", str(fifo)],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 1
    assert p.stderr == f"error: {fifo}: not a regular file (a named pipe): not read\n"


# ---------------------------------------------------------------- finding 10: another program's SQLite file

def _tables(path) -> list:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as c:
        return sorted(r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))


@pytest.mark.parametrize("command", (["list"], ["stats"], ["verify", "--all"], ["rebuild"],
                                     ["import", str(CLUB1)]))
def test_another_programs_sqlite_file_is_refused_and_left_as_it_was(tmp_path, command):
    other = tmp_path / "budget.sqlite"
    with sqlite3.connect(other) as c:
        c.execute("CREATE TABLE expenses (day TEXT, amount INTEGER)")
        c.execute("INSERT INTO expenses VALUES ('2024-05-01', 12)")
    c.close()
    before = other.read_bytes()      # no other connection: its bytes must stay as they are
    res = runner.invoke(app, [*command, "--db", str(other)])
    assert res.exit_code == 1, res.output
    assert res.stderr == (f"error: cannot open the archive: {other}: an SQLite file of another program "
                          f"(its tables: expenses), not a euchre-events archive: nothing was written to it\n")
    assert _tables(other) == ["expenses"] and other.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["budget.sqlite"]


def test_an_empty_sqlite_file_becomes_an_archive(tmp_path):
    empty = tmp_path / "new.sqlite"
    sqlite3.connect(empty).close()          # a database with no table yet (0 bytes)
    res = runner.invoke(app, ["import", str(CLUB1), "--db", str(empty)])
    assert res.exit_code == 0, res.output
    assert _games_in(empty) == 1


# ---------------------------------------------------------------- finding 11: zip members that cannot be read

def _patch(path: Path, member: str, method: int = None, flags: int = None) -> None:
    """Write ``method`` as the compression method of ``member`` (98 is PPMd,
    which this zip reader does not have), or OR ``flags`` into its flag bits
    (1: encrypted), in both the local header and the central directory of
    the zip ``path`` (``zipfile`` writes neither)."""
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        offset = z.getinfo(member).header_offset
    assert data[offset:offset + 4] == b"PK\x03\x04"
    central = []
    at = data.find(b"PK\x01\x02")
    while at >= 0:
        n = int.from_bytes(data[at + 28:at + 30], "little")
        if data[at + 46:at + 46 + n] == member.encode():
            central.append(at)
        at = data.find(b"PK\x01\x02", at + 4)
    assert len(central) == 1
    # (flag bits, method) sit at 6 and 8 of a local header, 8 and 10 of a central one
    for flag_at, method_at in ((offset + 6, offset + 8), (central[0] + 8, central[0] + 10)):
        if method is not None:
            data[method_at:method_at + 2] = method.to_bytes(2, "little")
        if flags is not None:
            old = int.from_bytes(data[flag_at:flag_at + 2], "little")
            data[flag_at:flag_at + 2] = (old | flags).to_bytes(2, "little")
    path.write_bytes(bytes(data))


def test_encrypted_and_unsupported_zip_members_are_named_and_the_rest_imported(tmp_path):
    path = tmp_path / "season.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.write(CLUB1, "a.euchre")
        z.write(CLUB2, "secret.euchre")
        z.write(CLUB2, "ppmd.euchre")
        z.write(EGN, "z.egn")
    _patch(path, "secret.euchre", flags=0x1)       # encrypted (traditional PKWARE): a password is needed
    _patch(path, "ppmd.euchre", method=98)
    db = tmp_path / "A.sqlite"
    res = runner.invoke(app, ["import", str(path), "--db", str(db)])
    assert res.exit_code == 1, res.output
    assert f"error: {path}:secret.euchre: encrypted (a password is needed): not read\n" in res.stderr
    assert (f"error: {path}:ppmd.euchre: compressed with method 98 (ppmd), which this reader "
            f"does not have: not read\n") in res.stderr
    assert "Traceback" not in res.output
    titles = {g["title"] for g in json.loads(runner.invoke(app, ["list", "--db", str(db), "--json"]).stdout)["games"]}
    assert len(titles) == 2 and "Club night, table 1" in titles


# ---------------------------------------------------------------- a report onto a closed stdout

@pytest.mark.parametrize("command", (["analyze", str(CLUB1), "--face-up-only", "--deal", "1"],
                                     ["analyze", str(CLUB1), "--face-up-only", "--deal", "1", "--format", "json"],
                                     ["audit", str(CLUB1)], ["audit", str(CLUB1), "--json"],
                                     ["audit", str(CLUB1), "--format", "jsonl"]))
def test_a_report_onto_a_closed_standard_output_is_an_error(tmp_path, command):
    """Started with its standard output closed (``>&-``), a command whose
    report goes there says so and exits 1: the report is not lost without a
    word (``> /dev/full`` was already an error)."""
    res = subprocess.run([sys.executable, "-m", "euchre_events", *command], cwd=tmp_path,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: os.close(1), env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert res.returncode == 1, res.stderr
    assert res.stderr.endswith("error: cannot write the report to the standard output: it is closed "
                               "(give -o FILE)\n")
    # with -o the report goes to the file: a closed stdout loses nothing
    out = tmp_path / "report.out"
    res = subprocess.run([sys.executable, "-m", "euchre_events", *command, "-o", str(out)], cwd=tmp_path,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: os.close(1), env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert res.returncode == 0, res.stderr
    assert out.stat().st_size > 0
