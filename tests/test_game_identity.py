"""One game, one id, many commentaries (issue 14): a game's id comes from its
events alone, so the plain and the annotated copy of a game (and their binary
twins) are one stored game, whose annotation stream gathers every copy's
annotations and lines exactly once; games stored under the ids of earlier
releases keep them and are still recognised.

Hand counts, from /work/shared/records/egn/VWEC Finals Annotated.egn
(``callAnnotations`` and ``playAnnotations`` entries, ``alternativeLines``):
19 annotations (deals 2..13: 2+1+3+3+1+1+1+0+1+3+1+2), 7 lines (deal 1, two
in deal 5, deals 9, 11, 12, 13), each line holding one annotation of its
own.  ``VWEC Finals.egn`` has the same 13 deals with none of them.
"""
import dataclasses
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from conftest import ROOT, RUNNER
from euchre_events import events as ev
from euchre_events.archive import Archive, content_id, game_id_of
from euchre_events.archive.clubstats import club_stats
from euchre_events.archive.readmodels import ReadModels
from euchre_events.cli import app
from euchre_events.formats import Record, read_records
from test_archive import c3_events, pg_schema  # noqa: F401  (pg_schema is a fixture)

SHARED = Path("/work/shared/records/egn")
EGN = SHARED if SHARED.is_dir() else ROOT / "fixtures" / "egn"
PLAIN = EGN / "VWEC Finals.egn"
ANNOTATED = EGN / "VWEC Finals Annotated.egn"
BINARY = ([SHARED / "binary" / n for n in ("VWEC Finals.egnb", "VWEC Finals.expanded.egnb",
                                           "VWEC Finals Annotated.egnb", "VWEC Finals Annotated.expanded.egnb")]
          if SHARED.is_dir() else [])
OLD_010 = ROOT / "tests" / "data" / "archive-0.1.0.sqlite"
BEFORE = ROOT / "tests" / "data" / "archive-before-game-ids.sqlite"
"""Written by this package at commit 57e2151 (the release before game ids
from events; its ``import_record`` stored a game under ``content_id``):
``VWEC Finals.egn`` (fixtures/egn, the plain copy), then a note of Ann's at
position 5 (mark ``!``), then ``fixtures/standard/club-night-1.euchre``."""
BEFORE_IDS = ("8c2914a6-7af8-5a10-ab7d-eb11ad4239cb", "c4d3839e-6300-5fc1-b6da-e44c36a15747")


def rec(path):
    [r] = read_records(str(path))
    return r


def log_rows(db, gid):
    """Stored rows of a game's annotation stream (read raw, so nothing is
    hidden by the aggregate); ``db``: an SQLite file or an open Archive."""
    from euchre_events.archive import annotation_log_id
    if isinstance(db, Archive):
        return len(db.recorder.select_events(annotation_log_id(gid)))
    return sqlite3.connect(db).execute("select count(*) from stored_events where originator_id = ?",
                                       (annotation_log_id(gid).hex,)).fetchone()[0]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def make_archive(request, tmp_path):
    """A function giving a new Archive object on one store (each call another
    connection to the same SQLite file or PostgreSQL schema)."""
    if request.param == "sqlite":
        db = str(tmp_path / "a.sqlite")
        return lambda: Archive(db)
    from test_archive import _pg_env
    env = _pg_env(request.getfixturevalue("pg_schema"))
    return lambda: Archive(env=env)


def test_counts_of_the_two_copies_read_today():
    plain, annotated = rec(PLAIN), rec(ANNOTATED)
    assert (len(plain.annotations), len(plain.variations)) == (0, 0)
    assert (len(annotated.annotations), len(annotated.variations)) == (19, 7)
    assert sum(len(v["annotations"]) for v in annotated.variations) == 7
    assert plain.events[1:] == annotated.events[1:]
    assert plain.events[0].source["file"] != annotated.events[0].source["file"]
    assert game_id_of(plain.events) == game_id_of(annotated.events)
    # the old scheme hashed the commentary too: two ids for one game (the defect)
    assert content_id(plain.events, plain.annotations, plain.variations) != \
        content_id(annotated.events, annotated.annotations, annotated.variations)


def test_the_id_is_the_game_not_the_record():
    events = c3_events()
    start = events[0]
    gid = game_id_of(events)
    # the schemes are told apart by the UUID version: 8 (RFC 9562 B.2, SHA-256) now, 5 before
    assert gid.version == 8 and content_id(events).version == 5
    # a title, a source (file, date, description, player objects) are the record's
    other = dataclasses.replace(start, title="The same game, annotated",
                                source={"file": "x.egn", "date": "2026-01-01", "description": "d",
                                        "players": [{"name": start.players[0],
                                                     "playerIds": [{"id": "1", "source": "s"}]}]})
    assert game_id_of([other] + events[1:]) == gid
    # options written out or left to their defaults: the same game
    assert game_id_of([dataclasses.replace(start, options={})] + events[1:]) == gid
    # anything that happened otherwise is another game
    changed = [
        [dataclasses.replace(start, players=("A", "B", "C", "Zed"))] + events[1:],
        [dataclasses.replace(start, first_dealer=(start.first_dealer + 1) % 4)] + events[1:],
        [dataclasses.replace(start, initial_score=(2, 0))] + events[1:],
        [dataclasses.replace(start, options=dict(start.options, stick_the_dealer=True))] + events[1:],
        events[:-1],
    ]
    last = events[-1]
    assert isinstance(last, ev.CardPlayed)
    for e in changed:
        assert game_id_of(e) != gid
    assert len({game_id_of(e) for e in changed}) == len(changed)


def test_plain_then_annotated_then_every_copy_again(make_archive):
    a = make_archive()
    db = a
    first = a.import_record(rec(PLAIN))
    gid = first.game_id
    assert first == (gid, True) and gid == game_id_of(rec(PLAIN).events)
    assert a.annotations(gid) == [] and a.variations(gid) == []
    second = a.import_record(rec(ANNOTATED))
    assert second == (gid, False)
    assert (second.notes_added, second.lines_added) == (19, 7)
    assert second.describe() == "already stored; added 19 annotations, 7 lines"
    annotated = rec(ANNOTATED)
    notes = a.annotations(gid)
    assert sorted((n["position"], n["text"], n["mark"]) for n in notes) == \
        sorted((x["position"], x["text"], x.get("mark")) for x in annotated.annotations)
    assert len(notes) == 19 and len({n["id"] for n in notes}) == 19
    lines = a.variations(gid)
    assert len(lines) == 7
    assert sorted((v["position"], v["comment"]) for v in lines) == \
        sorted((v["position"], v.get("comment", "")) for v in annotated.variations)
    rows = log_rows(db, gid)
    assert rows == 1 + 19 + 7           # Created, then one stored event per note and line
    for path in [PLAIN, ANNOTATED] + BINARY:
        again = a.import_record(rec(path))
        assert again == (gid, False) and (again.notes_added, again.lines_added) == (0, 0), path
        assert again.describe() == "already stored"
    assert make_archive().game_ids() == [gid] and log_rows(db, gid) == rows


def test_two_writers_adding_one_copy_at_once_add_it_once(make_archive):
    """Two processes import the annotated copy into the stored plain game at
    the same moment: whichever saves second is refused by the library's
    concurrency check, reads the stream again and finds everything held."""
    import multiprocessing as mp
    a = make_archive()
    gid = a.import_record(rec(PLAIN)).game_id
    ctx = mp.get_context("fork")
    for _ in range(3):
        start = ctx.Barrier(2)
        opening = ctx.Lock()
        out = ctx.Queue()

        def one():
            try:
                with opening:   # the library's CREATE TABLE IF NOT EXISTS on PostgreSQL is not safe at once
                    b = make_archive()
                r = rec(ANNOTATED)
                start.wait(timeout=60)
                got = b.import_record(r)
                out.put((str(got.game_id), got.created, got.notes_added, got.lines_added))
            except BaseException as e:   # said to the test, which fails naming it
                out.put(("error", repr(e)))
                start.abort()

        procs = [ctx.Process(target=one, daemon=True) for _ in range(2)]
        try:
            for p in procs:
                p.start()
            results = [out.get(timeout=120) for _ in procs]
        finally:
            for p in procs:
                p.join(timeout=10)
                if p.is_alive():
                    p.terminate()
        assert not [r for r in results if r[0] == "error"], results
        assert all(r[:2] == (str(gid), False) for r in results)
        assert sorted(r[2:] for r in results)[-1] in ((19, 7), (0, 0))
        assert sum(r[2] for r in results) in (0, 19) and sum(r[3] for r in results) in (0, 7)
    fresh = make_archive()
    assert len(fresh.annotations(gid)) == 19 and len(fresh.variations(gid)) == 7
    assert log_rows(fresh, gid) == 1 + 19 + 7


def test_annotated_first_then_the_plain_copy_adds_nothing(tmp_path):
    a = Archive(str(tmp_path / "a.sqlite"))
    gid, created = a.import_record(rec(ANNOTATED))
    assert created and len(a.annotations(gid)) == 19 and len(a.variations(gid)) == 7
    plain = a.import_record(rec(PLAIN))
    assert plain == (gid, False) and plain.describe() == "already stored"
    assert a.game_ids() == [gid]


@pytest.mark.skipif(not BINARY, reason="the binary twins are in /work/shared/records/egn/binary")
def test_the_binary_twins_are_the_same_game(tmp_path):
    a = Archive(str(tmp_path / "a.sqlite"))
    gid = a.import_record(rec(BINARY[0])).game_id      # plain, condensed binary
    added = a.import_record(rec(BINARY[3]))            # annotated, expanded binary
    assert added == (gid, False) and (added.notes_added, added.lines_added) == (19, 7)
    assert a.import_record(rec(ANNOTATED)).describe() == "already stored"
    assert a.game_ids() == [gid]


def test_notes_a_person_edited_or_removed_are_not_brought_back(tmp_path):
    a = Archive(str(tmp_path / "a.sqlite"))
    gid, _ = a.import_record(rec(ANNOTATED))
    notes = a.annotations(gid)
    a.edit_annotation(gid, notes[0]["id"], "my better words", mark="?")
    a.remove_annotation(gid, notes[1]["id"])
    again = a.import_record(rec(ANNOTATED))
    assert again.describe() == "already stored"
    texts = [n["text"] for n in a.annotations(gid)]
    assert len(texts) == 18 and "my better words" in texts and notes[0]["text"] not in texts
    # a copy with one more note adds that one only, with an id of its own
    more = rec(ANNOTATED)
    more.annotations.append({"position": 12, "text": "a third opinion", "mark": "!?"})
    added = a.import_record(more)
    assert (added.notes_added, added.lines_added) == (1, 0)
    [n] = [n for n in a.annotations(gid) if n["text"] == "a third opinion"]
    assert n["position"] == 12 and n["mark"] == "!?" and n["id"] not in {x["id"] for x in notes}


def test_commentary_is_added_whole_or_not_at_all(tmp_path):
    db = str(tmp_path / "a.sqlite")
    a = Archive(db)
    gid, _ = a.import_record(rec(PLAIN))
    bad = rec(ANNOTATED)
    # a line holding something that is no event cannot be stored: the save fails
    bad.variations.append({"position": 20, "events": [object()], "annotations": [], "comment": "bad"})
    with pytest.raises(TypeError, match="not serializable"):
        a.import_record(bad)
    assert log_rows(db, gid) == 1 and Archive(db).annotations(gid) == []
    assert a.import_record(rec(ANNOTATED)).notes_added == 19


def test_cli_import_line_list_and_stats_count_the_game_once(tmp_path):
    """VWEC Finals by hand (dealer, then the bidder of each deal; bidding
    starts left of the dealer): 13 deals, every one called, none thrown in;
    WWMM (N) calls deals 2, 3, 5, 7, 10, 11 (6), Llama (E) 4 and 8 (2, deal
    8 alone), Euchrazy1 (S) 1, 9, 12, 13 (4), LeftyKnavey (W) 6 (1); deals
    2 and 5 name clubs, the other 11 order the up-card."""
    db = str(tmp_path / "a.sqlite")
    run = RUNNER.invoke
    r1 = run(app, ["import", "--db", db, str(PLAIN)])
    r2 = run(app, ["import", "--db", db, str(ANNOTATED)])
    r3 = run(app, ["import", "--db", db, str(ANNOTATED), str(PLAIN)])
    assert r1.exit_code == r2.exit_code == r3.exit_code == 0
    gid = str(game_id_of(rec(PLAIN).events))
    assert r1.stdout.startswith(gid) and "already stored" not in r1.stdout
    assert r2.stdout.strip().endswith("(already stored; added 19 annotations, 7 lines)")
    assert [line.endswith("(already stored)") for line in r3.stdout.strip().splitlines()] == [True, True]
    listed = run(app, ["list", "--db", db])
    assert listed.exit_code == 0 and listed.stdout.strip().splitlines()[0].startswith(gid)
    assert len(listed.stdout.strip().splitlines()) == 1
    import json
    s = json.loads(run(app, ["stats", "--db", db, "--format", "json"]).stdout)
    assert s["games"] == 1
    assert {n: p["deals"] for n, p in s["players"].items()} == \
        {"WWMM": 13, "Llama": 13, "Euchrazy1": 13, "LeftyKnavey": 13}
    assert {n: p["calls"] for n, p in s["players"].items()} == \
        {"WWMM": 6, "Llama": 2, "Euchrazy1": 4, "LeftyKnavey": 1}
    assert s["players"]["Llama"]["alone"]["attempts"] == 1
    assert {k: v["calls"] for k, v in s["by_call"].items()} == {"named": 2, "ordered up": 11}


def test_annotations_added_later_make_no_second_index_row(tmp_path):
    a = Archive(str(tmp_path / "a.sqlite"))
    gid, _ = a.import_record(rec(PLAIN))
    rm = ReadModels(a)
    rm.catch_up()
    before = (rm.games(), rm.deals(), rm.findings())
    assert len(before[0]) == 1 and len(before[1]) == 13
    a.import_record(rec(ANNOTATED))
    assert rm.catch_up() == 19 + 7          # the notifications of the notes and lines: read, not counted
    assert (rm.games(), rm.deals(), rm.findings()) == before
    s = club_stats(*[rm.games(), rm.deals(), rm.findings()])
    assert s["games"] == 1 and s["players"]["WWMM"]["deals"] == 13


# ------------------------------------------------------------------ stored by earlier releases
@pytest.fixture()
def old_010(tmp_path):
    db = tmp_path / "old.sqlite"
    shutil.copy(OLD_010, db)
    return str(db)


def test_010_archive_a_copy_of_its_game_is_not_stored_again(old_010):
    """The 0.1.0 archive holds VWEC Finals Annotated (fixtures/egn) under the
    old id: the plain copy and the binary twins are that game."""
    a = Archive(old_010)
    ids = a.game_ids()
    rows = log_rows(old_010, ids[0])
    for path in [ROOT / "fixtures" / "egn" / "VWEC Finals.egn",
                 ROOT / "fixtures" / "egn" / "VWEC Finals Annotated.egn"] + BINARY:
        got = a.import_record(rec(path))
        assert got == (ids[0], False) and got.describe() == "already stored", path
    for path in [ROOT / "fixtures" / "bid" / "bid-joker.euchre", ROOT / "fixtures" / "cutthroat" / "cutthroat-2.euchre",
                 ROOT / "fixtures" / "two-handed" / "parlour-2.euchre"]:
        assert a.import_record(rec(path)) in [(g, False) for g in ids[1:]]
    assert Archive(old_010).game_ids() == ids and log_rows(old_010, ids[0]) == rows
    # its ids are the old scheme's, never changed
    assert ids[0] == content_id(a.game_events(ids[0]), rec(ROOT / "fixtures" / "egn" / "VWEC Finals Annotated.egn").annotations,
                                rec(ROOT / "fixtures" / "egn" / "VWEC Finals Annotated.egn").variations)
    assert ids[0] != game_id_of(a.game_events(ids[0]))


def test_archive_of_the_release_before_takes_the_annotated_copy(tmp_path):
    db = str(tmp_path / "before.sqlite")
    shutil.copy(BEFORE, db)
    a = Archive(db)
    ids = [str(g) for g in a.game_ids()]
    assert ids == list(BEFORE_IDS)
    vwec = a.game_ids()[0]
    assert [(n["position"], n["text"], n["author"]) for n in a.annotations(vwec)] == \
        [(5, "a club member's note", "Ann")]
    got = a.import_record(rec(ANNOTATED))
    assert got == (vwec, False) and (got.notes_added, got.lines_added) == (19, 7)
    notes = a.annotations(vwec)
    assert len(notes) == 20 and "a club member's note" in [n["text"] for n in notes]
    assert len(a.variations(vwec)) == 7
    # again, in any form: nothing more; the ids are the ones stored
    b = Archive(db)
    for path in [PLAIN, ANNOTATED] + BINARY:
        assert b.import_record(rec(path)).describe() == "already stored", path
    assert b.import_record(rec(ROOT / "fixtures" / "standard" / "club-night-1.euchre")) == \
        (a.game_ids()[1], False)
    assert [str(g) for g in Archive(db).game_ids()] == list(BEFORE_IDS)
    # a game not stored yet gets the id of its events
    new = Record(c3_events())
    assert b.import_record(new) == (game_id_of(new.events), True)


def test_what_a_later_copy_says_of_the_record_is_named_not_kept(tmp_path):
    """A copy under another title, or with player ids the stored game lacks
    (the EMN match after its game's own EGN file), is the same game; the
    import says what of it is not kept."""
    db = str(tmp_path / "a.sqlite")
    a = Archive(db)
    plain = rec(PLAIN)
    gid = a.import_record(plain).game_id
    start = dataclasses.replace(plain.events[0], title="VWEC Finals, the annotated one",
                                source=dict(plain.events[0].source, description="with notes"))
    got = a.import_record(Record([start] + plain.events[1:]))
    assert got == (gid, False)
    assert got.not_kept == ("the title 'VWEC Finals, the annotated one'", "the description 'with notes'")
    assert a.load(gid).title == "VWEC Finals"
    assert a.import_record(rec(PLAIN)).not_kept == ()
    match = ROOT / "fixtures" / "egn" / "match"
    run = RUNNER.invoke
    assert run(app, ["import", "--db", db, str(match / "MotE W5 G1.egn")]).exit_code == 0
    r = run(app, ["import", "--db", db, str(match / "MotE W5 Match.emn")])
    assert r.exit_code == 0
    [g1] = [line for line in r.stdout.splitlines() if "MotE W5 G1" in line]
    # what the stored game lacked (the match and its players' ids) is added
    # (tests/test_source_merge.py); nothing of it differs, so nothing is "not kept"
    assert g1.endswith("(already stored; added the match membership)")
    assert "warning:" not in r.stderr
    # a copy whose ids differ from the stored ones: those are not kept
    [g1_rec] = [x for x in read_records(str(match / "MotE W5 Match.emn")) if x.events[0].title == "MotE W5 G1"]
    src = json.loads(json.dumps(g1_rec.events[0].source))
    for p in src["match"]["players"]:
        p["playerIds"] = [{"id": "other-" + p["id"], "source": "emn-combine"}]
    other = a.import_record(Record([dataclasses.replace(g1_rec.events[0], source=src)] + g1_rec.events[1:]))
    assert other.created is False and other.source_added == ()
    assert other.not_kept == ("the player ids",)

