"""The archive: one eventsourcing stream per game, on SQLite and PostgreSQL."""
import dataclasses
import os
import sqlite3
import uuid

import pytest

from euchre_events.archive import Archive, ArchiveError, game_id_of
from euchre_events.rules.engine import ImpossibleEvent
from euchre_events.events import (CardPlayed, CardsDealt, DealStarted, Discarded, GameStarted,
                                  OrderedUp, Passed, UpCardPickedUp)
from euchre_events.formats import Record


from euchre_events.rules.variants.standard import StandardOptions

FULL_OPTIONS = StandardOptions().to_dict()  # every option as stored


def c3_events():
    """Case C3 of docs/cases.md: dealer W, TH turned, S orders up, W discards 9D."""
    dealt = ["KC AS QD 9S TD".split(), "TC 9H AD KD JS".split(),
             "AC QC KS TS QH".split(), "JH AH KH 9C 9D".split()]
    evs = [GameStarted("standard", FULL_OPTIONS, ("N", "E", "S", "W"), 3, initial_score=(0, 0), title="C3"),
           DealStarted(1, 3), CardsDealt(tuple(map(tuple, dealt)), "TH", ("JC", "JD", "QS")),
           Passed(0), Passed(1), OrderedUp(2), UpCardPickedUp(3), Discarded(3, "9D")]
    for leader, cards in [(0, "KC 9H AC 9C"), (1, "AD QH TH QD"), (2, "KS KH AS JS"),
                          (3, "JH 9S TC TS"), (3, "AH TD KD QC")]:
        for i, c in enumerate(cards.split()):
            evs.append(CardPlayed((leader + i) % 4, c))
    return evs


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "archive.sqlite")


def test_import_load_roundtrip_and_restart(db):
    evs = c3_events()
    a = Archive(db)
    gid, created = a.import_record(Record(evs))
    assert created
    b = Archive(db)  # a new process would do the same
    g = b.load(gid)
    assert g.events == evs
    assert g.final_score == [0, 2]          # E/W euchre N/S: +2 (rules.md 2.6)
    [f] = g.audit()
    assert (f.deal, f.trick, f.seat, f.card, f.evidence) == (1, 1, 1, "9H", ("TC",))
    assert b.game_ids() == [gid]


def test_same_game_twice_is_stored_once(db):
    a = Archive(db)
    gid1, c1 = a.import_record(Record(c3_events()))
    gid2, c2 = a.import_record(Record(c3_events()))
    assert (c1, c2) == (True, False) and gid1 == gid2
    assert len(a.game_ids()) == 1
    assert gid1 == game_id_of(c3_events())
    rows = sqlite3.connect(db).execute("select count(*) from stored_events where originator_id = ?",
                                       (gid1.hex,)).fetchone()
    assert rows == (len(c3_events()),) or rows == (0,)  # id stored as hex or as uuid text
    rows = sqlite3.connect(db).execute("select count(*) from stored_events").fetchone()[0]
    assert rows == len(c3_events()) + 1  # the game stream plus the annotation log's Created


def test_impossible_record_writes_nothing(db):
    evs = c3_events()
    evs[9] = CardPlayed(1, "AH")  # East never held the ace of hearts (West did)
    a = Archive(db)
    with pytest.raises(ImpossibleEvent) as e:
        a.import_record(Record(evs))
    assert e.value.deal == 1 and e.value.position == 9
    assert a.game_ids() == []
    assert sqlite3.connect(db).execute("select count(*) from stored_events").fetchone()[0] == 0


def test_only_events_are_stored_nothing_derived(db):
    a = Archive(db)
    a.import_record(Record(c3_events()))
    topics = [r[0] for r in sqlite3.connect(db).execute("select topic from stored_events")]
    kinds = {t.split(".")[-1] for t in topics if "GameRecord" in t}
    assert kinds == {"GameStarted", "DealStarted", "CardsDealt", "Passed", "OrderedUp",
                     "UpCardPickedUp", "Discarded", "CardPlayed"}
    blob = b"".join(r[0] for r in sqlite3.connect(db).execute("select state from stored_events"))
    for derived in (b"winner", b"\"score\"", b"reneges", b"findings", b"tricks_won", b"final_score"):
        assert derived not in blob


def test_annotations_are_events_and_survive_restart(db):
    a = Archive(db)
    gid, _ = a.import_record(Record(c3_events(), annotations=[{"position": 9, "text": "E trumps", "mark": "?"}]))
    nid = a.add_annotation(str(gid)[:8], 22, "here E shows the ten of clubs", "!")
    b = Archive(db)
    notes = b.annotations(gid)
    assert [(n["position"], n["text"], n["mark"]) for n in notes] == [
        (9, "E trumps", "?"), (22, "here E shows the ten of clubs", "!")]
    b.edit_annotation(gid, nid, "renege proven", "!!")
    b.remove_annotation(gid, "r0")
    c = Archive(db)
    assert [(n["position"], n["text"], n["mark"]) for n in c.annotations(gid)] == [(22, "renege proven", "!!")]
    # the game stream itself is untouched by commentary
    assert c.load(gid).events == c3_events()
    with pytest.raises(ArchiveError):
        c.add_annotation(gid, 999, "outside the game")


def test_unknown_and_ambiguous_ids(db):
    a = Archive(db)
    with pytest.raises(ArchiveError):
        a.resolve(str(uuid.uuid4()))
    with pytest.raises(ArchiveError):
        a.resolve("zzz")


def test_concurrent_writers_loser_gets_integrity_error(db):
    from eventsourcing.persistence import IntegrityError
    a = Archive(db)
    gid, _ = a.import_record(Record(c3_events()))
    one, two = Archive(db), Archive(db)
    log1, log2 = one.annotation_log(gid), two.annotation_log(gid)
    log1.add(note_id="x1", position=1, text="first")
    log2.add(note_id="x2", position=2, text="second")
    one.save(log1)
    with pytest.raises(IntegrityError):
        two.save(log2)
    assert [n["text"] for n in Archive(db).annotations(gid)] == ["first"]


def _pg_env(schema):
    return {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": os.environ.get("POSTGRES_DBNAME", "test"),
            "POSTGRES_HOST": os.environ.get("POSTGRES_HOST", "127.0.0.1"),
            "POSTGRES_PORT": os.environ.get("POSTGRES_PORT", "5432"),
            "POSTGRES_USER": os.environ.get("POSTGRES_USER", "postgres"),
            "POSTGRES_PASSWORD": os.environ.get("POSTGRES_PASSWORD", ""),
            "POSTGRES_SCHEMA": schema}


@pytest.fixture
def pg_schema():
    psycopg = pytest.importorskip("psycopg")
    env = _pg_env("")
    dsn = f"host={env['POSTGRES_HOST']} port={env['POSTGRES_PORT']} dbname={env['POSTGRES_DBNAME']} user={env['POSTGRES_USER']}"
    try:
        conn = psycopg.connect(dsn, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as e:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"PostgreSQL not reachable: {e}")
    schema = "ee_test_" + uuid.uuid4().hex[:8]
    conn.execute(f"create schema {schema}")
    yield schema
    conn.execute(f"drop schema {schema} cascade")
    conn.close()


@pytest.mark.postgres
def test_postgres_archive_roundtrip(pg_schema):
    a = Archive(env=_pg_env(pg_schema))
    gid, created = a.import_record(Record(c3_events(), annotations=[{"position": 9, "text": "renege", "mark": "?"}]))
    assert created
    assert a.import_record(Record(c3_events(), annotations=[{"position": 9, "text": "renege", "mark": "?"}])) == (gid, False)
    b = Archive(env=_pg_env(pg_schema))
    g = b.load(gid)
    assert g.events == c3_events() and g.final_score == [0, 2]
    assert [n["text"] for n in b.annotations(gid)] == ["renege"]
    bad = c3_events()
    bad[2] = CardsDealt(bad[2].hands, "TC", bad[2].kitty)  # TC is also in East's hand: dealt twice
    with pytest.raises(ImpossibleEvent):
        b.import_record(Record(bad))
    assert b.game_ids() == [gid]


def test_user_variation_is_stored_checked_and_leaves_the_game_alone(db):
    """A teacher's alternative line: at trick 1 East follows with TC instead of
    trumping (the correct play of case C3); it is folded before being stored."""
    a = Archive(db)
    gid, _ = a.import_record(Record(c3_events()))
    vid = a.add_variation(gid, 9, [CardPlayed(1, "TC"), CardPlayed(2, "AC")], comment="E follows suit")
    [v] = Archive(db).variations(gid)
    assert v["id"] == vid and v["position"] == 9 and v["events"] == [CardPlayed(1, "TC"), CardPlayed(2, "AC")]
    assert Archive(db).load(gid).events == c3_events()
    with pytest.raises(ImpossibleEvent):          # East does not hold the ace of hearts
        a.add_variation(gid, 9, [CardPlayed(1, "AH")])
    assert len(Archive(db).variations(gid)) == 1


def test_options_are_stored_in_full(db):
    """A record that wrote only some options is stored with every option of its
    variant (defaults included), and is the same game as one that wrote them all."""
    evs = c3_events()
    partial = [dataclasses.replace(evs[0], options={"stick_the_dealer": False})] + evs[1:]
    a = Archive(db)
    gid, created = a.import_record(Record(partial))
    assert created and a.load(gid).events[0].options == FULL_OPTIONS
    assert a.import_record(Record(evs)) == (gid, False)


# ---------------------------------------------------------------- a stored game's source (from the newcomer's findings, test_newcomer_findings)


def test_a_stored_game_keeps_the_file_name_not_the_importers_path(tmp_path):
    """A club archive is shared: the folders of whoever imported a record are not
    stored with it (nor exported); the file's own name is."""
    from conftest import RUNNER as runner, VWEC
    from euchre_events.cli import app
    VWEC = str(VWEC)
    db = str(tmp_path / "a.sqlite")
    out = runner.invoke(app, ["import", VWEC, "--db", db]).stdout
    g = Archive(db).load(out.split()[0])
    assert g.events[0].source["file"] == "VWEC Finals.egn"
    exported = runner.invoke(app, ["export", out.split()[0], "--db", db, "--format", "json"]).stdout
    assert os.path.dirname(VWEC) not in exported and os.path.dirname(VWEC) not in str(g.events[0].source)
