"""Tamper evidence (docs/design.md "Tamper evidence") and damaged archives.

Each stored game event carries a hash chained to the one before;
``Archive.verify`` recomputes it from the raw stored rows and names the
first event changed, removed or inserted; ``euchre-events verify`` says so
in one line per game.  A damaged stored game never stops ``list``,
``audit``, ``show`` or ``export`` on the others: it is an error line naming
it, and the exit status is 1.

The damage is done the way someone with the file would: ``sqlite3`` on the
``stored_events`` table, one row picked by originator id and version.
"""
import shutil
import sqlite3
import uuid
from pathlib import Path

import pytest

from conftest import ROOT, RUNNER as runner
from euchre_events.archive import Archive, DamagedGame, game_id_of
from euchre_events.cli import app
from euchre_events.formats import read_records

FILES = [ROOT / "fixtures" / "standard" / "club-night-1.euchre",
         ROOT / "fixtures" / "egn" / "VWEC Finals.egn",
         ROOT / "fixtures" / "bid" / "bid-1.euchre"]
OLD = ROOT / "tests" / "data" / "archive-0.1.0.sqlite"


def cli(*args):
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture()
def stored(tmp_path):
    """(db path, [game ids], [event counts]) of an archive holding FILES."""
    db = str(tmp_path / "a.sqlite")
    arch = Archive(db)
    ids, counts = [], []
    for f in FILES:
        rec = read_records(str(f))[0]
        gid, created = arch.import_record(rec)
        assert created
        ids.append(gid)
        counts.append(len(rec.events))
    return db, ids, counts


def _row(db, gid, version):
    with sqlite3.connect(db) as c:
        return c.execute("select state from stored_events where originator_id=? and originator_version=?",
                         (gid.hex, version)).fetchone()[0]


def _set_state(db, gid, version, state):
    with sqlite3.connect(db) as c:
        n = c.execute("update stored_events set state=? where originator_id=? and originator_version=?",
                      (state, gid.hex, version)).rowcount
    assert n == 1


def _sql(db, statement, *params):
    with sqlite3.connect(db) as c:
        assert c.execute(statement, params).rowcount >= 1


def _flip_one_byte(state: bytes) -> bytes:
    """The card (or seat) of a stored event with one byte changed, JSON still valid."""
    i = state.index(b'"card":"') + len(b'"card":"')
    return state[:i] + (b"Q" if state[i:i + 1] != b"Q" else b"K") + state[i + 1:]


# ---------------------------------------------------------------- verify


def test_fresh_games_verify_intact_with_their_event_count(stored):
    db, ids, counts = stored
    arch = Archive(db)
    for gid, n in zip(ids, counts):
        r = arch.verify(gid)
        assert (r.status, r.events, r.version, r.ok) == ("intact", n, None, True)
    res = cli("verify", "--all", "--db", db)
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[1] == f"{ids[1]}  VWEC Finals: intact, {counts[1]} events"
    assert counts[1] == 353
    assert len(lines) == 3 and all(": intact, " in line for line in lines)
    one = cli("verify", str(ids[0])[:8], "--db", db)
    assert one.exit_code == 0 and one.stdout.startswith(f"{ids[0]}  Club night, table 1: intact")


def test_the_chain_does_not_change_the_game_id(stored):
    db, ids, _ = stored
    arch = Archive(db)
    for gid, f in zip(ids, FILES):
        rec = read_records(str(f))[0]
        assert game_id_of(arch.game_events(gid)) == gid == game_id_of(rec.events)


def test_one_changed_byte_is_named(stored):
    db, ids, counts = stored
    state = _row(db, ids[0], 17)
    _set_state(db, ids[0], 17, _flip_one_byte(state))
    r = Archive(db).verify(ids[0])
    assert (r.status, r.version) == ("damaged", 17)
    assert r.describe() == "event 17 was changed (stored hash does not match its content)"
    res = cli("verify", "--all", "--db", db)
    assert res.exit_code == 1
    assert f"{ids[0]}  Club night, table 1: event 17 was changed (stored hash does not match its content)" \
        in res.stdout
    assert f"{ids[1]}  VWEC Finals: intact, {counts[1]} events" in res.stdout


def test_a_changed_hash_or_event_count_is_named(stored):
    db, ids, _ = stored
    state = _row(db, ids[1], 40)
    i = state.index(b'"chain":"') + len(b'"chain":"')
    _set_state(db, ids[1], 40, state[:i] + (b"0" if state[i:i + 1] != b"0" else b"1") + state[i + 1:])
    assert Archive(db).verify(ids[1]).version == 40
    first = _row(db, ids[2], 1)
    _set_state(db, ids[2], 1, first.replace(b'"length":276', b'"length":275'))
    r = Archive(db).verify(ids[2])
    assert (r.status, r.version) == ("damaged", 1)


def test_a_deleted_row_is_named(stored):
    db, ids, counts = stored
    _sql(db, "delete from stored_events where originator_id=? and originator_version=30", ids[0].hex)
    r = Archive(db).verify(ids[0])
    assert (r.status, r.version) == ("damaged", 30) and "missing" in r.problem
    res = cli("verify", ids[0], "--db", db)
    assert res.exit_code == 1 and ": event 30 is missing" in res.stdout


def test_deleting_the_last_rows_is_named(stored):
    db, ids, counts = stored
    n = counts[0]
    _sql(db, "delete from stored_events where originator_id=? and originator_version>?", ids[0].hex, n - 2)
    r = Archive(db).verify(ids[0])
    assert (r.status, r.version) == ("damaged", n - 1) and "missing" in r.problem


def test_a_deleted_row_with_the_later_ones_renumbered_is_named(stored):
    db, ids, counts = stored
    gid, n = ids[0], counts[0]
    with sqlite3.connect(db) as c:
        c.execute("delete from stored_events where originator_id=? and originator_version=50", (gid.hex,))
        for v in range(51, n + 1):
            c.execute("update stored_events set originator_version=? where originator_id=? and originator_version=?",
                      (v - 1, gid.hex, v))
    r = Archive(db).verify(gid)
    assert (r.status, r.version) == ("damaged", 50)
    assert r.problem == "is missing (removed, and the later events renumbered)"


def test_an_inserted_row_is_named(stored):
    db, ids, counts = stored
    gid, n = ids[0], counts[0]
    # a copy of the last event appended as one more
    _sql(db, "insert into stored_events (originator_id, originator_version, topic, state) "
             "select originator_id, ?, topic, state from stored_events where originator_id=? and originator_version=?",
         n + 1, gid.hex, n)
    r = Archive(db).verify(gid)
    assert (r.status, r.version) == ("damaged", n + 1) and "inserted" in r.problem


def test_swapped_versions_are_named(stored):
    db, ids, _ = stored
    gid = ids[1]
    with sqlite3.connect(db) as c:
        for a, b in ((60, -1), (61, 60), (-1, 61)):
            c.execute("update stored_events set originator_version=? where originator_id=? and originator_version=?",
                      (b, gid.hex, a))
    r = Archive(db).verify(gid)
    assert (r.status, r.version) == ("damaged", 60)


@pytest.mark.parametrize("damage", ["bad json", "garbage", "not an object", "unknown topic"])
def test_unreadable_rows_are_named_without_a_traceback(stored, damage):
    db, ids, counts = stored
    gid = ids[0]
    if damage == "bad json":
        _set_state(db, gid, 17, _row(db, gid, 17)[:-9])
    elif damage == "garbage":
        _set_state(db, gid, 17, b"\xff\xfe\x00\x01garbage")
    elif damage == "not an object":
        _set_state(db, gid, 17, b"[1, 2]")
    else:
        _sql(db, "update stored_events set topic='nowhere.at.all:Thing' where originator_id=? and originator_version=17",
             gid.hex)
    r = Archive(db).verify(gid)
    assert (r.status, r.version) == ("damaged", 17)
    assert r.problem.startswith("cannot be read") or r.problem.startswith("was changed"), r.problem
    res = cli("verify", "--all", "--db", db)
    assert res.exit_code == 1
    assert f"{gid}  Club night, table 1: event 17 " in res.stdout
    assert res.stdout.count(": intact, ") == 2
    # the library cannot rebuild it: a DamagedGame naming the event, not a library error
    with pytest.raises(DamagedGame, match=f"game {gid}: stored event 17 .*run euchre-events verify {gid}"):
        Archive(db).load(gid)


def test_an_archive_of_0_1_0_verifies_as_no_chain(tmp_path):
    db = tmp_path / "old.sqlite"
    shutil.copy(OLD, db)  # never write to the kept file
    arch = Archive(str(db))
    results = [arch.verify(g) for g in arch.game_ids()]
    assert [r.status for r in results] == ["no chain"] * 4
    assert results[0].events == 353 and results[0].title == "VWEC Finals"
    res = cli("verify", "--all", "--db", db)
    assert res.exit_code == 0
    lines = res.stdout.splitlines()
    assert len(lines) == 4
    assert lines[0].endswith("  VWEC Finals: no chain (stored before tamper evidence), 353 events")
    # a game imported today beside them is chained
    gid, _ = arch.import_record(read_records(str(FILES[0]))[0])
    assert arch.verify(gid).status == "intact"


def test_an_old_game_still_reports_an_unreadable_row(tmp_path):
    db = tmp_path / "old.sqlite"
    shutil.copy(OLD, db)
    gid = Archive(str(db)).game_ids()[1]
    _set_state(str(db), gid, 5, b"{not json")
    r = Archive(str(db)).verify(gid)
    assert (r.status, r.version) == ("damaged", 5)


def test_verify_of_an_unknown_game_is_an_error_line(stored):
    db, _, _ = stored
    res = cli("verify", str(uuid.uuid4()), "--db", db)
    assert res.exit_code == 1 and "error: no stored game" in res.stderr
    assert cli("verify", "--db", db).exit_code == 1


# ---------------------------------------------------------------- damaged archives, the other commands


@pytest.fixture(params=["changed card", "bad json", "garbage", "unknown topic", "deleted row"])
def damaged(request, stored):
    """The archive of ``stored`` with event 17 of the first game damaged."""
    db, ids, counts = stored
    gid = ids[0]
    if request.param == "changed card":
        # a card no longer in the hand: the game cannot fold any more
        _set_state(db, gid, 17, _row(db, gid, 17).replace(b'"card":"KS"', b'"card":"9H"'))
    elif request.param == "bad json":
        _set_state(db, gid, 17, _row(db, gid, 17)[:-5])
    elif request.param == "garbage":
        _set_state(db, gid, 17, bytes(range(256)))
    elif request.param == "unknown topic":
        _sql(db, "update stored_events set topic='gone:Away' where originator_id=? and originator_version=17", gid.hex)
    else:
        _sql(db, "delete from stored_events where originator_id=? and originator_version=17", gid.hex)
    return db, ids, counts


def test_the_changed_card_fixture_really_changes_a_card(stored):
    db, ids, _ = stored
    assert b'"card":"KS"' in _row(db, ids[0], 17)


def test_list_shows_the_other_games_and_names_the_damaged_one(damaged):
    db, ids, _ = damaged
    res = cli("list", "--db", db)
    assert res.exit_code == 1
    assert [line.split()[0] for line in res.stdout.splitlines()] == [str(ids[1]), str(ids[2])]
    assert f"error: game {ids[0]}: stored event 17 " in res.stderr
    assert f"run euchre-events verify {ids[0]}" in res.stderr
    assert "Traceback" not in res.output


def test_audit_goes_on_with_the_other_games(damaged):
    db, ids, _ = damaged
    res = cli("audit", str(ids[0]), str(ids[1]), "--db", db)
    assert res.exit_code == 1
    assert f"error: game {ids[0]}: stored event 17 " in res.stderr
    assert res.stdout.startswith(f"{ids[1]}  VWEC Finals  standard")


def test_show_and_export_name_the_damaged_game_and_work_on_the_others(damaged, tmp_path):
    db, ids, _ = damaged
    for args in (["show", str(ids[0])], ["export", str(ids[0]), "-f", "text"]):
        res = cli(*args, "--db", db)
        assert res.exit_code == 1
        assert f"error: game {ids[0]}: stored event 17 " in res.stderr
        assert "Traceback" not in res.output
    assert cli("show", str(ids[1]), "--db", db).exit_code == 0
    out = tmp_path / "g.eej"
    assert cli("export", str(ids[2]), "-f", "json", "-o", out, "--db", db).exit_code == 0
    assert out.stat().st_size > 0
    # a prefix of the damaged game resolves to it too
    res = cli("show", str(ids[0])[:8], "--db", db)
    assert res.exit_code == 1 and f"game {ids[0]}" in res.stderr


def test_a_damaged_first_row_is_still_listed_by_name(stored):
    db, ids, _ = stored
    _set_state(db, ids[1], 1, b"\x00garbage")
    res = cli("list", "--db", db)
    assert res.exit_code == 1
    assert f"error: game {ids[1]}: stored event 1 cannot be read" in res.stderr
    assert [line.split()[0] for line in res.stdout.splitlines()] == [str(ids[0]), str(ids[2])]
    ver = cli("verify", "--all", "--db", db)
    assert f"{ids[1]}  -: event 1 cannot be read" in ver.stdout
    shown = cli("show", str(ids[1])[:8], "--db", db)   # a prefix still finds it
    assert shown.exit_code == 1 and f"error: game {ids[1]}: stored event 1 cannot be read" in shown.stderr


def test_a_corrupt_database_page_is_an_error_line(stored):
    db, ids, _ = stored
    data = bytearray(Path(db).read_bytes())
    # a page of the first game's rows: pages 2-4 are the roots of the events
    # table, its index and the snapshots table
    data[4096 * 4:4096 * 5] = b"\xab" * 4096
    Path(db).write_bytes(bytes(data))
    # the log cannot be scanned; the ids come from the index and the other games still list
    res = cli("list", "--db", db)
    assert res.exit_code == 1
    assert sorted(line.split()[0] for line in res.stdout.splitlines()) == sorted([str(ids[1]), str(ids[2])])
    assert f"error: game {ids[0]}: cannot be read (DatabaseError" in res.stderr
    ver = cli("verify", "--all", "--db", db)
    assert ver.stdout.count(": intact, ") == 2 and f"{ids[0]}  -: cannot be read from the archive" in ver.stdout
    for args in (["audit", "c4d3"], ["show", "c4d3"], ["export", "c4d3"]):
        res = cli(*args, "--db", db)
        assert res.exit_code == 1, args
        assert "error:" in res.stderr and "Traceback" not in res.output, args


# ---------------------------------------------------------------- PostgreSQL (a club archive)


def _pg_env(schema):
    import os
    return {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": os.environ.get("POSTGRES_DBNAME", "test"),
            "POSTGRES_HOST": os.environ.get("POSTGRES_HOST", "127.0.0.1"),
            "POSTGRES_PORT": os.environ.get("POSTGRES_PORT", "5432"),
            "POSTGRES_USER": os.environ.get("POSTGRES_USER", "postgres"),
            "POSTGRES_PASSWORD": os.environ.get("POSTGRES_PASSWORD", ""),
            "POSTGRES_SCHEMA": schema}


@pytest.fixture
def pg(monkeypatch):
    """(env, a psycopg connection on the schema, [game ids], [event counts]):
    FILES imported into a fresh schema; the environment points the CLI at it."""
    import os
    psycopg = pytest.importorskip("psycopg")
    env = _pg_env("")
    dsn = (f"host={env['POSTGRES_HOST']} port={env['POSTGRES_PORT']} dbname={env['POSTGRES_DBNAME']} "
           f"user={env['POSTGRES_USER']}")
    try:
        conn = psycopg.connect(dsn, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as e:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"PostgreSQL not reachable: {e}")
    schema = "ee_verify_" + uuid.uuid4().hex[:8]
    conn.execute(f"create schema {schema}")
    env = _pg_env(schema)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    arch = Archive(env=env)
    ids, counts = [], []
    for f in FILES:
        rec = read_records(str(f))[0]
        ids.append(arch.import_record(rec)[0])
        counts.append(len(rec.events))
    conn.execute(f"set search_path to {schema}")
    yield env, conn, ids, counts
    arch.close()
    conn.execute(f"drop schema {schema} cascade")
    conn.close()


PG_TABLE = "euchreevents_events"   # the library's table: the application's name + "_events"


@pytest.mark.postgres
def test_postgres_verify_names_a_changed_and_a_removed_event(pg):
    env, conn, ids, counts = pg
    assert [Archive(env=env).verify(g).status for g in ids] == ["intact"] * 3
    state = bytes(conn.execute(f"select state from {PG_TABLE} where originator_id=%s and originator_version=17",
                               (ids[0],)).fetchone()[0])
    conn.execute(f"update {PG_TABLE} set state=%s where originator_id=%s and originator_version=17",
                 (_flip_one_byte(state), ids[0]))
    conn.execute(f"delete from {PG_TABLE} where originator_id=%s and originator_version=30", (ids[1],))
    conn.execute(f"update {PG_TABLE} set state=%s where originator_id=%s and originator_version=5",
                 (b"{broken", ids[2]))
    res = cli("verify", "--all")
    assert res.exit_code == 1
    lines = res.stdout.splitlines()
    assert lines[0] == f"{ids[0]}  Club night, table 1: event 17 was changed (stored hash does not match its content)"
    assert lines[1].startswith(f"{ids[1]}  VWEC Finals: event 30 is missing")
    assert lines[2].startswith(f"{ids[2]}  Bid club 1: event 5 cannot be read")


@pytest.mark.postgres
def test_postgres_list_goes_on_past_a_damaged_game(pg):
    env, conn, ids, counts = pg
    conn.execute(f"update {PG_TABLE} set state=%s where originator_id=%s and originator_version=17",
                 (b"\x00garbage", ids[1]))
    res = cli("list")
    assert res.exit_code == 1
    assert [line.split()[0] for line in res.stdout.splitlines()] == [str(ids[0]), str(ids[2])]
    assert f"error: game {ids[1]}: stored event 17 cannot be read" in res.stderr
