"""open_game: one way to open a game from an id, a prefix, a file, a match
file, a Record or a Game (archive/opening.py), used by the CLI and the viewer."""
import os
import uuid

import pytest

from conftest import ROOT, RUNNER, VWEC
from euchre_events.archive import Archive, ArchiveError, game_id_of, open_game
from euchre_events.formats import Record, RecordError, read_records
from euchre_events.projections import Game
from euchre_events.rules.simulate import random_game

from test_archive import _pg_env, c3_events, pg_schema  # noqa: F401  (pg_schema is a fixture)

ANNOTATED = ROOT / "fixtures" / "egn" / "VWEC Finals Annotated.egn"
MATCH = ROOT / "fixtures" / "egn" / "match" / "MotE W5 Match.emn"


@pytest.fixture
def stored(tmp_path):
    """(db path, game id) of the C3 game stored with one note."""
    db = str(tmp_path / "a.sqlite")
    gid, _ = Archive(db).import_record(Record(c3_events(), annotations=[{"position": 9, "text": "renege?"}]))
    return db, gid


def test_a_stored_id_a_prefix_and_a_uuid(stored):
    db, gid = stored
    for ref in (str(gid), str(gid)[:8], str(gid).upper()[:6], gid):
        op = open_game(ref, db=db)
        assert op.stored and op.game_id == gid and op.game.id == str(gid)
        assert op.game.events == c3_events() and op.record is None and op.path is None
        assert op.archive is not None and op.archive.db == db
        assert [n["text"] for n in op.notes] == ["renege?"] and op.variations == []
        assert op.note == "" and op.games_in_file == 0


def test_a_file_is_read_not_stored(tmp_path):
    for ref in (str(VWEC), VWEC):                     # a str or a Path
        op = open_game(ref, db=str(tmp_path / "none.sqlite"))
        rec = read_records(str(VWEC))[0]
        assert not op.stored and op.archive is None and op.record is not None
        assert op.game_id == game_id_of(rec.events)
        assert op.game.id == str(op.game_id) and op.game.events == rec.events
        assert op.path == str(VWEC) and op.games_in_file == 1 and op.note == ""
    assert not (tmp_path / "none.sqlite").exists()


def test_a_files_notes_and_variations_come_from_the_record():
    op = open_game(str(ANNOTATED))
    rec = op.record
    assert [n["id"] for n in op.notes] == [f"r{i}" for i in range(len(rec.annotations))]
    assert [n["text"] for n in op.notes] == [a["text"] for a in rec.annotations]
    assert [v["id"] for v in op.variations] == [f"v{i}" for i in range(len(rec.variations))]
    assert op.variations[0]["events"] == rec.variations[0]["events"]


def test_a_match_file_opens_its_first_game_and_says_so():
    recs = read_records(str(MATCH))
    op = open_game(str(MATCH))
    assert op.games_in_file == len(recs) == 6
    assert op.game.events == recs[0].events and op.game.title == "MotE W5 G1"
    assert op.note == f"{MATCH} holds 6 games; showing the first (MotE W5 G1)"


def test_with_an_archive_a_file_a_record_or_a_game_is_imported_first(tmp_path):
    db = str(tmp_path / "a.sqlite")
    a = Archive(db)
    op = open_game(str(VWEC), archive=a)
    assert op.stored and op.archive is a and op.record is not None
    assert Archive(db).game_ids() == [op.game_id]
    again = open_game(read_records(str(VWEC))[0], archive=a)        # the same game: stored once
    assert again.game_id == op.game_id and Archive(db).game_ids() == [op.game_id]
    g = open_game(Game(c3_events()), archive=a)                       # a Game without an id
    assert g.stored and g.game_id == game_id_of(c3_events())
    loaded = a.load(g.game_id)
    same = open_game(loaded, archive=a)                               # a stored Game is kept as it is
    assert same.game is loaded and same.game_id == g.game_id
    assert set(Archive(db).game_ids()) == {op.game_id, g.game_id}


def test_without_an_archive_a_game_or_record_is_only_opened():
    g = Game(c3_events())
    op = open_game(g)
    assert op.game is g and not op.stored and op.game_id is None and op.notes == []
    rec = Record(c3_events(), annotations=[{"position": 3, "text": "x", "mark": "!"}])
    op = open_game(rec)
    assert not op.stored and op.record is rec and op.game_id == game_id_of(rec.events)
    assert op.notes == [{"id": "r0", "position": 3, "text": "x", "mark": "!", "author": "record"}]


def test_a_missing_thing_is_a_clear_error(stored, tmp_path, monkeypatch):
    db, gid = stored
    with pytest.raises(ArchiveError) as e:
        open_game("zzz", db=db)
    msg = str(e.value)
    assert "'zzz'" in msg and db in msg and "no file of that name" in msg
    other = uuid.uuid4()
    with pytest.raises(ArchiveError, match=f"no stored game with id {other}"):
        open_game(other, db=db)
    with pytest.raises(ArchiveError, match=f"no stored game with id {other}"):
        open_game(str(other), db=db)
    # a file name that is not there is a missing file, not an unknown id
    with pytest.raises(RecordError, match="no such file"):
        open_game(str(tmp_path / "nope.egn"), db=db)
    with pytest.raises(RecordError, match="no such file"):
        open_game("nope/game", db=db)
    with pytest.raises(RecordError, match="is a folder"):
        open_game(str(tmp_path), db=db)
    # an archive file that is not there is named, and not created by a read
    missing = str(tmp_path / "typo.sqlite")
    with pytest.raises(ArchiveError) as e:
        open_game(str(gid)[:8], db=missing)
    assert "no such archive file" in str(e.value) and missing in str(e.value) and str(gid)[:8] in str(e.value)
    assert not os.path.exists(missing)
    monkeypatch.chdir(tmp_path / "..")
    monkeypatch.delenv("EUCHRE_EVENTS_DB", raising=False)
    monkeypatch.delenv("PERSISTENCE_MODULE", raising=False)
    if not os.path.exists("euchre-events.sqlite"):
        with pytest.raises(ArchiveError, match="no such archive file"):
            open_game("abc123")
        assert not os.path.exists("euchre-events.sqlite")
    with pytest.raises(TypeError):
        open_game(42)


def test_an_ambiguous_prefix_says_so(tmp_path):
    db = str(tmp_path / "a.sqlite")
    a = Archive(db)
    by_first = {}
    for seed in range(17):        # 17 ids, 16 hex digits: two share a first digit
        gid, _ = a.import_record(Record(random_game("two-handed", seed=seed, deals=1)))
        if str(gid)[0] in by_first:
            break
        by_first[str(gid)[0]] = gid
    with pytest.raises(ArchiveError, match="matches 2 games; give more of the id"):
        open_game(str(gid)[0], db=db)


@pytest.mark.postgres
def test_postgres_archive_by_prefix(pg_schema):  # noqa: F811
    a = Archive(env=_pg_env(pg_schema))
    gid, _ = a.import_record(Record(c3_events()))
    op = open_game(str(gid)[:8], archive=a)
    assert op.stored and op.game_id == gid and op.game.events == c3_events()
    with pytest.raises(ArchiveError, match="no file of that name"):
        open_game("0000", archive=a)


def test_cli_show_names_the_game_of_a_match_file_and_what_was_tried(tmp_path):
    from euchre_events.cli import app
    runner = RUNNER
    res = runner.invoke(app, ["show", str(MATCH), "--deal", "1", "--after", "1"])
    assert res.exit_code == 0, res.stderr
    assert f"note: {MATCH} holds 6 games; showing the first (MotE W5 G1)" in res.stderr
    db = str(tmp_path / "a.sqlite")
    Archive(db).import_record(Record(c3_events()))
    res = runner.invoke(app, ["show", "zzz", "--db", db])
    assert res.exit_code == 1 and "'zzz'" in res.stderr and "no file of that name" in res.stderr
    res = runner.invoke(app, ["export", "abc", "--db", str(tmp_path / "typo.sqlite")])
    assert res.exit_code == 1 and "no such archive file" in res.stderr
    assert not (tmp_path / "typo.sqlite").exists()


def test_viewer_opens_through_the_same_function(tmp_path):
    from euchre_events.ui.widgets import GameViewer
    v = GameViewer(str(MATCH), chart=False)
    assert v.main.title == "MotE W5 G1" and v.archive is None and v.game_id is None
    db = str(tmp_path / "a.sqlite")
    a = Archive(db)
    v = GameViewer(str(ANNOTATED), archive=a, chart=False)
    assert v.game_id in a.game_ids() and v.archive is a
    assert [n["text"] for n in a.annotations(v.game_id)] == [x["text"] for x in read_records(str(ANNOTATED))[0].annotations]
    w = GameViewer(v.game_id, archive=Archive(db), chart=False)   # a uuid.UUID
    assert w.game_id == v.game_id and len(w.lines) == len(v.lines)


@pytest.mark.postgres
def test_postgres_through_the_librarys_environment_variables(pg_schema, monkeypatch):  # noqa: F811
    """No archive and no db given: the opener's Archive follows PERSISTENCE_MODULE
    and the POSTGRES_* variables, as `euchre-events show` does for a club archive."""
    for k, v in _pg_env(pg_schema).items():
        monkeypatch.setenv(k, v)
    gid, _ = Archive().import_record(Record(c3_events()))
    op = open_game(str(gid)[:6])
    assert op.stored and op.game_id == gid and op.archive.db == _pg_env(pg_schema)["POSTGRES_DBNAME"]
    from euchre_events.cli import app
    res = RUNNER.invoke(app, ["show", str(gid)[:6], "--deal", "1", "--after", "3"])
    assert res.exit_code == 0, res.stderr
