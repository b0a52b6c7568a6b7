"""PostgreSQL settings that cannot work are named within seconds (issue 12,
defect 10): the connection refused, an unknown database, an unknown user, a
setting missing; and an explicit ``--db`` file wins over
``PERSISTENCE_MODULE``.  Needs the local server (127.0.0.1:5432, trust
authentication, database ``test``) for the cases that reach it."""
from __future__ import annotations

import os
import time
import uuid

import pytest

from conftest import ROOT, RUNNER
from euchre_events.archive import Archive, ArchiveError, sqlite_file
from euchre_events.cli import app

CLUB = str(ROOT / "fixtures" / "standard" / "club-night-1.euchre")


def _env(**changes) -> dict:
    env = {"PERSISTENCE_MODULE": "eventsourcing.postgres",
           "POSTGRES_DBNAME": os.environ.get("POSTGRES_DBNAME", "test"),
           "POSTGRES_HOST": os.environ.get("POSTGRES_HOST", "127.0.0.1"),
           "POSTGRES_PORT": os.environ.get("POSTGRES_PORT", "5432"),
           "POSTGRES_USER": os.environ.get("POSTGRES_USER", "postgres"),
           "POSTGRES_PASSWORD": os.environ.get("POSTGRES_PASSWORD", "")}
    env.update(changes)
    return env


@pytest.fixture
def server():
    psycopg = pytest.importorskip("psycopg")
    e = _env()
    try:
        psycopg.connect(dbname=e["POSTGRES_DBNAME"], host=e["POSTGRES_HOST"], port=e["POSTGRES_PORT"],
                        user=e["POSTGRES_USER"], connect_timeout=3).close()
    except psycopg.OperationalError as err:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"PostgreSQL not reachable: {err}")


def _error_of(env: dict) -> tuple:
    t = time.monotonic()
    with pytest.raises(ArchiveError) as e:
        Archive(env=env)
    return str(e.value), time.monotonic() - t


@pytest.mark.postgres
@pytest.mark.parametrize("changes, words", [
    ({"POSTGRES_PORT": "1"}, "PostgreSQL at 127.0.0.1:1, database 'test', user 'postgres': "
                             "connection refused (is the server running, and on this port?"),
    ({"POSTGRES_DBNAME": "no_such_db_12"}, "unknown database 'no_such_db_12' (check POSTGRES_DBNAME"),
    ({"POSTGRES_USER": "no_such_user_12"}, "authentication failed: there is no user 'no_such_user_12'"),
    ({"POSTGRES_HOST": "no-such-host.invalid"}, "unknown host 'no-such-host.invalid'"),
])
def test_a_postgres_setting_that_cannot_work_is_named(server, changes, words):
    message, seconds = _error_of(_env(**changes))
    assert words in message
    assert seconds < 6          # not the library's 30 s wait for a pooled connection


def test_a_missing_postgres_setting_is_named():
    env = _env(POSTGRES_DBNAME="")
    saved = os.environ.pop("POSTGRES_DBNAME", None), os.environ.pop("EUCHREEVENTS_POSTGRES_DBNAME", None)
    try:
        message, _ = _error_of(env)
    finally:
        for k, v in zip(("POSTGRES_DBNAME", "EUCHREEVENTS_POSTGRES_DBNAME"), saved):
            if v is not None:
                os.environ[k] = v
    assert message.startswith("PERSISTENCE_MODULE=eventsourcing.postgres needs POSTGRES_DBNAME")


@pytest.mark.postgres
def test_the_cli_names_the_cause(server, monkeypatch):
    for k, v in _env(POSTGRES_DBNAME="no_such_db_12").items():
        monkeypatch.setenv(k, v)
    r = RUNNER.invoke(app, ["list"])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert r.output.startswith("error: cannot open the archive: PostgreSQL at 127.0.0.1:5432, "
                               "database 'no_such_db_12'")


def test_an_explicit_db_wins_over_persistence_module(tmp_path, monkeypatch):
    # a PostgreSQL setting that would fail: the explicit file is used, never it
    for k, v in _env(POSTGRES_PORT="1").items():
        monkeypatch.setenv(k, v)
    monkeypatch.setenv("EUCHREEVENTS_PERSISTENCE_MODULE", "eventsourcing.postgres")
    db = str(tmp_path / "x.sqlite")
    assert sqlite_file(db) == db and sqlite_file(None) is None
    r = RUNNER.invoke(app, ["import", CLUB, "--db", db])
    assert r.exit_code == 0, r.output
    gid = r.output.split()[0]
    assert os.path.exists(db)
    listing = RUNNER.invoke(app, ["list", "--db", db])
    assert listing.exit_code == 0 and listing.output.startswith(gid)
    assert Archive(db).game_ids() == [uuid.UUID(gid)]
    missing = RUNNER.invoke(app, ["list", "--db", str(tmp_path / "typo.sqlite")])
    assert missing.exit_code == 1 and "typo.sqlite: no such archive file" in missing.output
