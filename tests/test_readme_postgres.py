"""The README's PostgreSQL set-up works as written, on a machine without
``sudo`` (issue 12): the block under "A shared club archive on PostgreSQL"
is run by bash from the checkout, as root (``runuser``), against the local
server; the database and user it creates are dropped before and after."""
from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from conftest import ROOT


def _block() -> str:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("### A shared club archive on PostgreSQL"):]
    return re.search(r"```bash\n(.*?)```", section, re.S).group(1)


def _psql(sql: str) -> None:
    subprocess.run(["runuser", "-u", "postgres", "--", "psql", "-q", "-c", sql],
                   capture_output=True, text=True, check=False)


@pytest.mark.postgres
def test_the_readme_postgres_block_runs_as_written():
    block = _block()
    assert "sudo" not in block and block.startswith("runuser -u postgres -- psql")
    if os.getuid() != 0 or not shutil.which("runuser") or not (ROOT / ".venv/bin/euchre-events").exists():
        pytest.skip("needs root (runuser) and the checkout's .venv, as in CI")
    ok = subprocess.run(["runuser", "-u", "postgres", "--", "psql", "-tAc", "select 1"],
                        capture_output=True, text=True)
    if ok.returncode != 0:
        if os.environ.get("CI"):
            raise AssertionError(ok.stderr)
        pytest.skip(f"PostgreSQL not reachable: {ok.stderr}")
    clean = ["DROP DATABASE IF EXISTS euchre", "DROP ROLE IF EXISTS club"]
    for sql in clean:
        _psql(sql)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("POSTGRES_", "PERSISTENCE_MODULE", "EUCHREEVENTS_"))}
    try:
        r = subprocess.run(["bash", "-e", "-c", block], cwd=ROOT, env=env, capture_output=True,
                           text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        lines = r.stdout.strip().splitlines()
        assert lines[:2] == ["CREATE ROLE", "CREATE DATABASE"]       # psql's answers
        n = len(list((ROOT / "fixtures" / "egn" / "match").glob("*.egn")))
        games = lines[2:]
        assert len(games) == n and all(re.match(r"[0-9a-f-]{36}  MotE W5 G\d", g) for g in games)
        # the same environment lists them back from the new database
        export = next(line for line in block.splitlines() if line.startswith("export"))
        export += "\n" + next(line for line in block.splitlines() if line.startswith("       "))
        listing = subprocess.run(["bash", "-e", "-c", export + "\n.venv/bin/euchre-events list"],
                                 cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert listing.returncode == 0, listing.stderr
        assert sorted(x.split()[0] for x in listing.stdout.splitlines()) == \
            sorted(g.split()[0] for g in games)
    finally:
        for sql in clean:
            _psql(sql)
