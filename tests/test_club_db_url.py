"""``--db postgresql://...`` and ``$EUCHRE_EVENTS_DB`` with a URL, through
the library's own PostgreSQL persistence (issue 9); the local server, no mock."""

import pytest

from conftest import RUNNER, VWEC
from euchre_events.archive import Archive, ArchiveError, postgres_settings, sqlite_file, store_location
from euchre_events.cli import app
from test_archive import _pg_env, pg_schema  # noqa: F401  (pg_schema is a fixture)

VWEC = str(VWEC)


def pg_url(schema):
    e = _pg_env(schema)
    pw = f":{e['POSTGRES_PASSWORD']}" if e["POSTGRES_PASSWORD"] else ""
    return (f"postgresql://{e['POSTGRES_USER']}{pw}@{e['POSTGRES_HOST']}:{e['POSTGRES_PORT']}/"
            f"{e['POSTGRES_DBNAME']}?schema={schema}")


def test_url_settings():
    s = postgres_settings("postgresql://ann:p%40ss@db.club:6543/games?schema=s1")
    assert s == {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": "games",
                 "POSTGRES_HOST": "db.club", "POSTGRES_PORT": "6543", "POSTGRES_USER": "ann",
                 "POSTGRES_PASSWORD": "p@ss", "POSTGRES_SCHEMA": "s1"}
    with pytest.raises(ArchiveError, match="names its database"):
        postgres_settings("postgresql://ann@db.club:6543")
    with pytest.raises(ArchiveError, match="must be a number") as e:
        postgres_settings("postgresql://ann:secret@db.club:port/x")
    assert "secret" not in str(e.value)


def test_which_store_wins(monkeypatch, tmp_path):
    monkeypatch.delenv("PERSISTENCE_MODULE", raising=False)
    monkeypatch.delenv("EUCHREEVENTS_PERSISTENCE_MODULE", raising=False)
    monkeypatch.setenv("EUCHRE_EVENTS_DB", "postgresql://u@h/d")
    assert store_location() == ("postgres", "postgresql://u@h/d") and sqlite_file() is None
    assert store_location("x.sqlite") == ("sqlite", "x.sqlite")
    monkeypatch.setenv("PERSISTENCE_MODULE", "eventsourcing.postgres")
    assert store_location() == ("postgres", None)          # the library's variables before ours
    assert store_location("postgresql://v@h/e") == ("postgres", "postgresql://v@h/e")  # --db wins


@pytest.mark.postgres
def test_every_command_takes_a_url(pg_schema, monkeypatch, tmp_path):  # noqa: F811
    monkeypatch.chdir(tmp_path)
    url = pg_url(pg_schema)
    r = RUNNER.invoke(app, ["import", "--db", url, VWEC])
    assert r.exit_code == 0, r.output
    gid = r.output.split()[0]
    for args in (["list", "--db", url], ["show", gid[:6], "--db", url, "--deal", "1"],
                 ["audit", gid[:6], "--db", url], ["verify", "--all", "--db", url],
                 ["export", gid[:6], "--db", url, "--format", "text"]):
        r = RUNNER.invoke(app, args)
        assert r.exit_code == 0, (args, r.output)
        assert "VWEC" in r.output or "intact" in r.output or "Llama" in r.output, args
    monkeypatch.setenv("EUCHRE_EVENTS_DB", url)
    r = RUNNER.invoke(app, ["list"])
    assert r.exit_code == 0 and gid in r.output
    assert not list(tmp_path.iterdir())          # no SQLite file made on the side
    assert Archive(url).game_ids() == Archive(env=_pg_env(pg_schema)).game_ids()


@pytest.mark.postgres
def test_a_url_to_nowhere_names_the_cause(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = RUNNER.invoke(app, ["list", "--db", "postgresql://postgres@127.0.0.1:1/test"])
    assert r.exit_code == 1 and "connection refused" in r.output


@pytest.mark.parametrize("url, says", [
    ("postgressql://ann:s3cret@127.0.0.1:5432/test",
     "postgressql://ann:***@127.0.0.1:5432/test: unknown scheme 'postgressql' (did you mean postgresql?)"),
    ("postgres:/test", "postgres:/test: a PostgreSQL URL has two slashes after postgres:"),
    ("mysql://ann:s3cret@db/club", "mysql://ann:***@db/club: unknown scheme 'mysql': a PostgreSQL URL starts "
                                   "postgresql://"),
])
def test_a_misspelled_scheme_is_named_not_taken_for_a_file(url, says, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for args in (["list", "--db", url], ["import", VWEC, "--db", url]):
        r = RUNNER.invoke(app, args)
        assert r.exit_code == 1 and says in r.output, r.output
        assert "s3cret" not in r.output and "unable to open database file" not in r.output
        assert "Traceback" not in r.output
    assert not list(tmp_path.iterdir())          # no SQLite file made by that name
    monkeypatch.setenv("EUCHRE_EVENTS_DB", url)
    with pytest.raises(ArchiveError, match="scheme|two slashes"):
        Archive()


@pytest.mark.postgres
@pytest.mark.parametrize("url, says", [
    ("postgresql://ann:s3cret@127.0.0.1:1/test", "connection refused (is the server running, and on this "
                                                 "port? check the port in the URL)"),
    ("postgresql://postgres@127.0.0.1:5432/no_such_db_12", "unknown database 'no_such_db_12' (check the "
                                                           "database name in the URL, or create it"),
    ("postgresql://nobody_12:s3cret@127.0.0.1:5432/test", "there is no user 'nobody_12' (check the user "
                                                          "name in the URL)"),
])
def test_url_errors_name_the_part_of_the_url(url, says, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = RUNNER.invoke(app, ["list", "--db", url])
    assert r.exit_code == 1 and says in r.output, r.output
    assert "POSTGRES_" not in r.output and "s3cret" not in r.output
