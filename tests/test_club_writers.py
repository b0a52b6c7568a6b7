"""Several writers at once (issue 9): live recording (``Archive.record``) and
annotating one game from several archive objects, as several people would,
on SQLite and the local PostgreSQL, no mock.  The library's optimistic
concurrency check (and the position a writer expects) makes the second
writer fail with a WriteConflict naming the game and the position; a retry
after reloading succeeds; nothing is lost or stored twice; the hash chain
stays intact."""
import dataclasses
import json
import threading

import pytest

from conftest import RUNNER
from euchre_events.archive import Archive, ArchiveError, WriteConflict
from euchre_events.cli import app
from euchre_events.events import CardPlayed
from euchre_events.formats import Record
from euchre_events.projections import Game
from euchre_events.rules.simulate import random_game
from euchre_events.rules.table import ImpossibleEvent
from euchre_events.ui.widgets import GameViewer
from test_archive import _pg_env, pg_schema  # noqa: F401  (pg_schema is a fixture)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def opener(request, tmp_path):
    """A function giving a new Archive object on one store (one per writer)."""
    if request.param == "sqlite":
        db = str(tmp_path / "club.sqlite")
        return lambda: Archive(db)
    env = _pg_env(request.getfixturevalue("pg_schema"))
    return lambda: Archive(env=env)


GAME = random_game("standard", seed=3)   # a legal standard game, 273 events


def test_the_second_recorder_is_told_and_a_retry_after_reloading_succeeds(opener):
    ann, bob = opener(), opener()
    gid = ann.start_game(GAME[0])
    for k in range(1, 10):
        assert ann.record(gid, GAME[k], position=k) == k
    assert bob.record(gid, GAME[10], position=10) == 10
    # Ann saw 10 events and records position 10 too: her save is refused by the
    # library's optimistic concurrency check (the stream is at version 11 now)
    with pytest.raises(WriteConflict) as e:
        ann.record(gid, GAME[10], position=10)
    assert (e.value.game_id, e.value.position, e.value.stream) == (gid, 10, "game")
    assert str(e.value) == (f"game {gid}: another writer recorded position 10 first; your CardPlayed "
                            "was not stored: reload the game and try again")
    # the same again, now refused before the library: she is told how long the game is
    with pytest.raises(WriteConflict, match=r"position 10 first \(the game now has 11 events\)"):
        ann.record(gid, GAME[10], position=10)
    # reloaded: the next position is taken
    assert ann.game_length(gid) == 11 and len(ann.game_events(gid)) == 11
    assert ann.record(gid, GAME[11], position=11) == 11
    for k in range(12, len(GAME)):
        (ann if k % 2 else bob).record(gid, GAME[k], position=k)
    stored = opener().game_events(gid)
    assert stored[1:] == GAME[1:] and len(stored) == 273      # nothing lost, nothing twice
    assert Game(stored).final_score == Game(GAME).final_score
    assert opener().verify(gid).status == "intact"


def test_an_impossible_event_is_refused_before_it_is_stored(opener):
    a = opener()
    gid = a.start_game(GAME[0])
    for k in range(1, 8):
        a.record(gid, GAME[k])            # no position: at the end as stored now
    # position 8 is North's... a card dealt to another seat is not in that hand
    first = GAME[8]
    assert isinstance(first, CardPlayed)
    other = next(c for c in GAME[2].hands[(first.seat + 1) % 4])
    with pytest.raises(ImpossibleEvent) as e:
        a.record(gid, CardPlayed(first.seat, other), position=8)
    assert e.value.position == 8 and "not in that hand" in e.value.reason
    assert len(opener().game_events(gid)) == 8 and opener().verify(gid).status == "intact"
    assert a.record(gid, first, position=8) == 8


def test_a_game_imported_whole_is_not_recorded_into(opener):
    a = opener()
    gid, _ = a.import_record(Record(GAME[:40]))
    with pytest.raises(ArchiveError, match="imported whole \\(40 events\\)"):
        a.record(gid, GAME[40])
    assert a.verify(gid).status == "intact" and len(a.game_events(gid)) == 40


def test_recorded_live_the_chain_still_shows_a_changed_event(tmp_path):
    db = str(tmp_path / "live.sqlite")
    a = Archive(db)
    gid = a.start_game(GAME[0])
    for k in range(1, 30):
        a.record(gid, GAME[k], position=k)
    import sqlite3
    con = sqlite3.connect(db)
    (state,) = con.execute("select state from stored_events where originator_id=? and originator_version=12",
                           (gid.hex,)).fetchone() or con.execute(
        "select state from stored_events where originator_id=? and originator_version=12", (str(gid),)).fetchone()
    text = state.decode() if isinstance(state, bytes) else state
    card = GAME[11].card
    other = "9C" if card != "9C" else "TC"
    changed = text.replace(f'"{card}"', f'"{other}"')
    assert changed != text
    con.execute("update stored_events set state=? where originator_version=12 and originator_id in (?, ?)",
                (changed.encode() if isinstance(state, bytes) else changed, gid.hex, str(gid)))
    con.commit()
    r = Archive(db).verify(gid)
    assert (r.status, r.version) == ("damaged", 12) and "was changed" in r.problem


def test_two_annotators_one_is_told_then_both_notes_are_kept(opener):
    a, b = opener(), opener()
    gid, _ = a.import_record(Record(GAME))
    seen = a.annotations_version(gid)
    assert seen == 1 and b.annotations_version(gid) == 1        # the empty log stored with the game
    b.add_annotation(gid, 9, "Bob: a fine lead", version=seen)
    with pytest.raises(WriteConflict) as e:
        a.add_annotation(gid, 12, "Ann: why this card?", version=seen)
    assert str(e.value) == (f"game {gid}: another writer changed this game's annotations while you "
                            "annotated position 12; your annotation was not stored: reload the "
                            "annotations and try again")
    again = a.annotations_version(gid)
    assert again == 2
    a.add_annotation(gid, 12, "Ann: why this card?", version=again)
    assert [(n["position"], n["text"]) for n in opener().annotations(gid)] == [
        (9, "Bob: a fine lead"), (12, "Ann: why this card?")]
    # an edit on a stale view is refused too, and nothing changes
    nid = next(n["id"] for n in a.annotations(gid) if n["position"] == 9)
    with pytest.raises(WriteConflict, match="annotated position 9"):
        b.edit_annotation(gid, nid, "Bob: a poor lead", version=1)
    assert [n["text"] for n in opener().annotations(gid)] == ["Bob: a fine lead", "Ann: why this card?"]


def _record_together(opener, writers: int) -> tuple:
    """``writers`` threads, each with its own Archive, record GAME into one
    game: each writes the next event at the position it has seen, and on a
    WriteConflict reloads and goes on.  Returns (gid, acknowledged
    [(position, writer)], conflicts, errors)."""
    first = opener()
    gid = first.start_game(GAME[0])
    acked, conflicts, errors = [], [], []
    lock = threading.Lock()
    start = threading.Barrier(writers)

    def writer(w: int) -> None:
        try:
            arch = opener()       # several people opening the archive at once
        except Exception as e:  # noqa: BLE001 - a failure of the test, reported below
            with lock:
                errors.append(repr(e))
            start.abort()
            return
        start.wait(120)
        n = len(arch.game_events(gid))
        while n < len(GAME):
            try:
                pos = arch.record(gid, GAME[n], position=n)
            except WriteConflict as e:
                with lock:
                    conflicts.append(str(e))
                n = arch.game_length(gid)                # reload
                continue
            except Exception as e:  # noqa: BLE001 - anything else is a failure of the test
                with lock:
                    errors.append(repr(e))
                return
            with lock:
                acked.append((pos, w))
            n = pos + 1
    threads = [threading.Thread(target=writer, args=(w,)) for w in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    return gid, acked, conflicts, errors


def test_concurrent_recorders_on_one_game_lose_nothing(opener):
    gid, acked, conflicts, errors = _record_together(opener, 4)
    assert errors == []
    positions = sorted(p for p, _ in acked)
    assert positions == list(range(1, len(GAME)))          # each acknowledged once, none lost
    stored = opener().game_events(gid)
    assert stored[1:] == GAME[1:]                           # every acknowledged event, in place
    assert Game(stored).final_score == Game(GAME).final_score
    assert opener().verify(gid).status == "intact"
    for c in conflicts:
        assert c.startswith(f"game {gid}: another writer recorded position ")


def test_concurrent_annotators_lose_nothing(opener):
    gid, _ = opener().import_record(Record(GAME))
    done, conflicts, errors = [], [], []
    lock = threading.Lock()
    start = threading.Barrier(3)

    def writer(w: int) -> None:
        try:
            arch = opener()
        except Exception as e:  # noqa: BLE001
            with lock:
                errors.append(repr(e))
            start.abort()
            return
        start.wait(120)
        for i in range(6):
            text = f"writer {w} note {i}"
            while True:
                try:
                    arch.add_annotation(gid, 10 * w + i, text)   # no version: only the library's check
                except WriteConflict as e:
                    with lock:
                        conflicts.append(str(e))
                    continue
                except Exception as e:  # noqa: BLE001
                    with lock:
                        errors.append(repr(e))
                    return
                with lock:
                    done.append(text)
                break
    threads = [threading.Thread(target=writer, args=(w,)) for w in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert errors == []
    texts = [n["text"] for n in opener().annotations(gid)]
    assert sorted(texts) == sorted(done) and len(texts) == 18
    for c in conflicts:
        assert "another writer changed this game's annotations" in c


def test_cli_record_reports_a_conflict_without_a_traceback(tmp_path):
    db = str(tmp_path / "live.sqlite")
    run = RUNNER.invoke
    r = run(app, ["record", "new", json.dumps(GAME[0].to_dict()), json.dumps(GAME[1].to_dict()), "--db", db])
    assert r.exit_code == 0, r.output
    gid = r.output.split()[1]
    assert "event 2: DealStarted" in r.output     # counted from 1
    r = run(app, ["record", gid, json.dumps(GAME[2].to_dict()), "--position", "2", "--db", db])
    assert r.exit_code == 0 and "event 3: CardsDealt" in r.output
    r = run(app, ["record", gid, json.dumps(GAME[3].to_dict()), "--position", "2", "--db", db])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert (f"error: game {gid}: another writer recorded position 2 first (the game now has 3 events); "
            f"your {GAME[3].kind} was not stored") in r.output
    bad = CardPlayed(0, "AS")                 # before the auction is over
    r = run(app, ["record", gid, json.dumps(bad.to_dict()), "--db", db])
    assert r.exit_code == 1 and "refused, not stored" in r.output and "Traceback" not in r.output
    assert len(Archive(db).game_events(gid)) == 3


def test_the_viewer_shows_a_conflict_and_the_other_note(tmp_path):
    db = str(tmp_path / "club.sqlite")
    gid, _ = Archive(db).import_record(Record(GAME))
    ann = GameViewer(str(gid), archive=Archive(db), chart=False, position=10)
    bob = GameViewer(str(gid), archive=Archive(db), chart=False, position=10)
    ann.add_note("Ann: good play")
    bob.note_input.value = "Bob: bad play"
    bob._save_clicked()                         # as the Save button does: no exception
    assert bob.status.startswith(f"could not save the note: game {gid}: another writer changed")
    assert [n["text"] for n in bob.notes] == ["Ann: good play"]   # reloaded
    assert bob.note_input.value == "Bob: bad play"                # kept for the retry
    bob._save_clicked()
    assert bob.status == "note saved in the archive"
    assert sorted(n["text"] for n in Archive(db).annotations(gid)) == ["Ann: good play", "Bob: bad play"]


# ------------------------------------------------------------------ snapshots
def test_a_long_game_loads_from_its_snapshot_and_the_events_after_it(opener):
    a = opener()
    a.SNAPSHOT_MIN = 100                     # GAME has 273 events
    gid = a.start_game(GAME[0])
    for k in range(1, 150):
        a.record(gid, GAME[k], position=k)
    assert a._events_from_snapshot(gid) is None
    first = a.load(gid)                      # read row by row, then a snapshot of 150 events
    snap = a._events_from_snapshot(gid)
    assert snap is not None and snap == first.events and len(snap) == 150
    for k in range(150, len(GAME)):          # recorded after the snapshot
        a.record(gid, GAME[k], position=k)
    b = opener()
    assert b._events_from_snapshot(gid)[1:] == GAME[1:]     # the snapshot and the 123 rows after it
    g = b.load(gid)
    assert g.events[1:] == GAME[1:] and g.final_score == Game(GAME).final_score
    assert g.state_at(200) == Game(GAME).state_at(200)
    assert b.verify(gid).status == "intact"


def test_a_changed_snapshot_is_seen_by_verify(tmp_path):
    import sqlite3
    db = str(tmp_path / "club.sqlite")
    a = Archive(db)
    a.SNAPSHOT_MIN = 100
    gid, _ = a.import_record(Record(GAME))
    a.load(gid)
    con = sqlite3.connect(db)
    (state,) = con.execute("select state from stored_snapshots").fetchone()
    text = state.decode() if isinstance(state, bytes) else state
    card = GAME[20].card                      # a card played in deal 1
    other = next(c for c in ("9C", "TC", "JC", "QC") if c != card and f'"{c}"' in text)
    changed = text.replace(f'"card":"{card}"', f'"card":"{other}"', 1)
    assert changed != text
    con.execute("update stored_snapshots set state=?", (changed.encode() if isinstance(state, bytes) else changed,))
    con.commit()
    r = Archive(db).verify(gid)
    assert r.status == "damaged" and "differs from the game's snapshot" in r.problem
    assert r.version is not None and r.version <= 21


def test_the_fast_chain_link_is_the_chain_link():
    """Import writes each link from canonical.event_text; verify recomputes
    it from the stored dict (chain.link): the same digest for every event of
    a game of every variant, bid with its joker and odd options included."""
    from euchre_events.archive import chain
    from euchre_events.archive.canonical import event_text
    from euchre_events.rules.registry import complete_start
    for variant in ("standard", "two-handed", "cutthroat", "ghost-hand", "buck", "bid"):
        evs = random_game(variant, seed=7)
        evs = [complete_start(evs[0])] + evs[1:]
        prev = chain.genesis(GAME_ID, len(evs))
        for v, e in enumerate(evs, 1):
            assert chain.link_text(prev, v, event_text(e)) == chain.link(prev, v, e.to_dict()), (variant, v)
            prev = chain.link(prev, v, e.to_dict())


GAME_ID = __import__("uuid").UUID("12345678-1234-5678-1234-567812345678")


def test_a_game_stored_before_the_chain_gets_no_snapshot(tmp_path):
    """A 0.1.0 game has no chain head a load could check a snapshot against:
    it is read row by row every time, and no snapshot is written."""
    import shutil
    import sqlite3
    from pathlib import Path
    db = tmp_path / "old.sqlite"
    shutil.copy(Path(__file__).parent / "data" / "archive-0.1.0.sqlite", db)
    a = Archive(str(db))
    a.SNAPSHOT_MIN = 1
    gids = a.game_ids()
    assert gids
    for gid in gids:
        first = a.load(gid).events
        assert a.load(gid).events == first and a.verify(gid).status == "no chain"
    assert sqlite3.connect(db).execute("select count(*) from stored_snapshots").fetchone() == (0,)


def test_a_director_rules_on_a_game_imported_whole(opener):
    """Case C3 imported whole under claimed enforcement (rules.md 2.7): as played
    E/W 2, officially the same until someone claims.  The director's ruling is
    recorded into the stored game (a claim or a ruling comes after the play,
    rules.md 1.5): the official score becomes N/S 2, the chain stays intact,
    the ruling is part of it, and no other event may follow the record."""
    import sys, os
    sys.path.insert(0, os.path.dirname(__file__))
    from test_official_result import E, N, c3_events
    from euchre_events.events import RenegeClaimed, RenegeRuled
    a = opener()
    evs = c3_events({"renege_enforcement": "claimed"})
    gid, _ = a.import_record(Record(evs))
    assert a.load(gid).official_score == [0, 2]
    assert a.record(gid, RenegeClaimed(N, E, 1, 1)) == len(evs)
    assert a.record(gid, RenegeRuled(1, 1, E, "upheld", None, "the director", "E held TC")) == len(evs) + 1
    b = opener()                                   # another writer reads it back
    g = b.load(gid)
    assert g.official_score == [2, 0] and g.final_score == [0, 2] and g.winner is None
    res = b.verify(gid)
    assert res.status == "intact", res
    with pytest.raises(ArchiveError, match="takes only a claim or a ruling"):
        b.record(gid, CardPlayed(N, "KC"))
    assert len(b.game_events(gid)) == len(evs) + 2


def test_a_row_changed_after_the_snapshot_is_named_by_every_command(tmp_path):
    """A newcomer's finding: once ``show`` had stored a game's snapshot, a stored
    event changed in the database (the VWEC final's event 40, a card of the play)
    went unnoticed by ``show``, ``audit``, ``export`` and ``analyze``, which read
    the snapshot's copy and exited 0; only ``list`` and ``verify`` named it. The
    snapshot keeps the digest of the rows it copies: a load that finds them
    changed verifies the game, and each command names the changed event and
    exits 1 (README, ``list``: "then list, audit, show and export exit 1")."""
    import sqlite3
    from conftest import ROOT
    db = str(tmp_path / "club.sqlite")
    vwec = str(ROOT / "fixtures" / "egn" / "VWEC Finals.egn")
    assert RUNNER.invoke(app, ["import", "--db", db, vwec]).exit_code == 0
    gid = str(Archive(db).game_ids()[0])
    assert RUNNER.invoke(app, ["show", gid, "--db", db]).exit_code == 0     # takes the snapshot
    a = Archive(db)
    assert isinstance(a._events_from_snapshot(a._uuid(gid)), list)         # read from it while intact
    con = sqlite3.connect(db)
    (state,) = con.execute("select state from stored_events where originator_version = 40").fetchone()
    text = state.decode()
    card = a.game_events(gid)[39].card
    other = next(c for c in ("9D", "TD", "9C", "TC") if c != card)
    changed = text.replace(f'"{card}"', f'"{other}"', 1)
    assert changed != text
    con.execute("update stored_events set state = ? where originator_version = 40", (changed.encode(),))
    con.commit()
    con.close()
    for argv in (["show", gid], ["audit", gid], ["export", gid, "--format", "text"],
                 ["analyze", gid, "--face-up-only"]):
        r = RUNNER.invoke(app, argv + ["--db", db])
        assert r.exit_code == 1, (argv, r.output)
        assert f"game {gid}: stored event 40 was changed" in r.output, (argv, r.output)
        assert "Traceback" not in r.output


def test_a_changed_row_of_a_short_game_that_still_folds_is_named(tmp_path):
    """A game shorter than a snapshot (under SNAPSHOT_MIN events) is loaded
    from its rows; a stored event changed so that the game still folds (a
    title: nothing of the rules checks it) passed ``show`` and ``audit``
    unseen, exit 0; only ``list`` and ``verify`` named it.  The load checks
    the hash chain of the rows it read (docs/design.md "Tamper evidence")."""
    import sqlite3
    from conftest import ROOT
    db = str(tmp_path / "club.sqlite")
    rec = str(ROOT / "fixtures" / "standard" / "club-night-1.euchre")
    assert RUNNER.invoke(app, ["import", "--db", db, rec]).exit_code == 0
    a = Archive(db)
    gid = str(a.game_ids()[0])
    assert len(a.game_events(gid)) < a.SNAPSHOT_MIN
    assert RUNNER.invoke(app, ["show", gid, "--db", db]).exit_code == 0      # intact: read
    con = sqlite3.connect(db)
    (state,) = con.execute("select state from stored_events where originator_version = 1").fetchone()
    text = state.decode()
    changed = text.replace("Club night, table 1", "Club night, table 9", 1)
    assert changed != text
    con.execute("update stored_events set state = ? where originator_version = 1", (changed.encode(),))
    con.commit()
    con.close()
    for argv in (["show", gid], ["audit", gid], ["export", gid, "--format", "text"]):
        r = RUNNER.invoke(app, argv + ["--db", db])
        assert r.exit_code == 1, (argv, r.output)
        assert f"game {gid}: stored event 1 was changed" in r.output, (argv, r.output)
        assert "table 9" not in r.output and "Traceback" not in r.output


def test_a_row_recorded_after_the_snapshot_and_changed_is_named(tmp_path):
    """The rows recorded after a game's snapshot are read as they are: their
    links of the hash chain are checked too (the snapshot's digest covers only
    the rows it copied), so a load names a changed one, not shows it."""
    import sqlite3
    from euchre_events.archive.errors import DamagedGame
    from euchre_events.archive.snapshots import ROWS_CHANGED
    db = str(tmp_path / "club.sqlite")
    a = Archive(db)
    a.SNAPSHOT_MIN = 100
    gid = a.start_game(GAME[0])
    for k in range(1, 150):
        a.record(gid, GAME[k], position=k)
    a.load(gid)                                   # the snapshot of 150 events
    for k in range(150, len(GAME)):
        a.record(gid, GAME[k], position=k)
    assert Archive(db)._events_from_snapshot(gid)[1:] == GAME[1:]
    con = sqlite3.connect(db)
    (state,) = con.execute("select state from stored_events where originator_version = 200").fetchone()
    text = state.decode()
    changed = text.replace('"seat":', '"seat": ', 1)     # one byte more, the same event
    assert changed != text
    con.execute("update stored_events set state = ? where originator_version = 200", (changed.encode(),))
    con.commit()
    con.close()
    b = Archive(db)
    # the same event read back (JSON spacing): its canonical text and link are unchanged
    assert b._events_from_snapshot(gid)[1:] == GAME[1:]
    con = sqlite3.connect(db)
    before = GAME[199]
    other = dataclasses.replace(before, seat=(before.seat + 1) % 4) if hasattr(before, "seat") else None
    assert other is not None
    con.execute("update stored_events set state = ? where originator_version = 200",
                (text.replace(f'"seat":{before.seat}', f'"seat":{other.seat}', 1).encode(),))
    con.commit()
    con.close()
    assert Archive(db)._events_from_snapshot(gid) == ROWS_CHANGED
    with pytest.raises(DamagedGame, match="stored event 200 was changed"):
        Archive(db).load(gid)


def test_the_last_stored_events_removed_are_named(tmp_path):
    """A newcomer's finding: with the last stored event of an imported game
    deleted from the database, ``show``, ``audit`` and ``export`` read the
    shorter game (its chain still holds: each link covers the events before
    it) and ``audit`` gave another official score (N/S 9, nobody the winner,
    where the record says N/S 10 and N/S wins), exit 0; only ``verify`` said
    "event 242 is missing".  The game was stored with its length: a load of
    fewer rows names it, from the rows and from a snapshot alike."""
    import sqlite3
    from conftest import ROOT
    db = str(tmp_path / "club.sqlite")
    rec = str(ROOT / "fixtures" / "standard" / "club-night-1.euchre")
    assert RUNNER.invoke(app, ["import", "--db", db, rec]).exit_code == 0
    a = Archive(db)
    gid = str(a.game_ids()[0])
    n = len(a.game_events(gid))
    con = sqlite3.connect(db)
    con.execute("delete from stored_events where originator_version = ?", (n,))
    con.commit()
    con.close()
    for argv in (["show", gid], ["audit", gid], ["export", gid, "--format", "text"]):
        r = RUNNER.invoke(app, argv + ["--db", db])
        assert r.exit_code == 1, (argv, r.output)
        assert f"game {gid}: stored event {n} is missing" in r.output, (argv, r.output)
    # a game long enough for a snapshot, its last rows removed after the snapshot was taken
    db2 = str(tmp_path / "long.sqlite")
    b = Archive(db2)
    b.SNAPSHOT_MIN = 100
    gid2, _ = b.import_record(Record(GAME))
    b.load(gid2)                                           # the snapshot
    assert isinstance(Archive(db2)._events_from_snapshot(gid2), list)
    con = sqlite3.connect(db2)
    con.execute("delete from stored_events where originator_version > 270")
    con.commit()
    con.close()
    with pytest.raises(ArchiveError, match=f"stored event 271 is missing"):
        Archive(db2).load(gid2)


def test_list_built_after_the_last_rows_were_removed_names_the_game(tmp_path):
    """A newcomer's finding: read models built after the last stored event of
    an imported game was deleted left the game out of ``list`` (and ``list
    --json``'s ``damaged``) without a word, exit 0: the read model waited
    for the rest of the game, which never came.  The store has no more of
    its rows: the game is listed as damaged, naming the missing event."""
    import json as _json
    import sqlite3
    from conftest import ROOT
    db = str(tmp_path / "club.sqlite")
    recs = [str(ROOT / "fixtures" / "standard" / f"club-night-{k}.euchre") for k in (1, 2)]
    assert RUNNER.invoke(app, ["import", "--db", db, *recs]).exit_code == 0
    a = Archive(db)
    gid = str(a.game_ids()[0])
    n = len(a.game_events(gid))
    con = sqlite3.connect(db)
    con.execute("delete from stored_events where originator_id = ? and originator_version = ?",
                (gid.replace("-", ""), n))     # stored as 32 hex digits
    deleted = con.total_changes
    con.commit()
    con.close()
    assert deleted == 1
    r = RUNNER.invoke(app, ["list", "--db", db, "--json"])
    assert r.exit_code == 1, r.output
    doc = _json.loads(r.stdout)
    assert [d["id"] for d in doc["damaged"]] == [gid], doc
    assert f"stored event {n} is missing" in _json.dumps(doc["damaged"])


def test_a_game_changed_after_its_analysis_was_cached_is_named(tmp_path):
    """A newcomer's finding: once ``analyze --all`` had cached a game's
    analysis, a stored card changed in the database (event 14, T♣ to T♥)
    went unseen: ``analyze --all`` said "2 already done" and ``analyze ID1
    ID2`` printed the cached analysis, exit 0 (one id alone named it).  A
    cached game whose rows changed since is verified first."""
    import sqlite3
    from conftest import ROOT
    db = str(tmp_path / "club.sqlite")
    recs = [str(ROOT / "fixtures" / "standard" / f"club-night-{k}.euchre") for k in (1, 2)]
    assert RUNNER.invoke(app, ["import", "--db", db, *recs]).exit_code == 0
    assert RUNNER.invoke(app, ["analyze", "--all", "--face-up-only", "--db", db]).exit_code == 0
    a = Archive(db)
    gid, other = (str(g) for g in a.game_ids())
    ev = a.game_events(gid)[13]
    con = sqlite3.connect(db)
    (state,) = con.execute("select state from stored_events where originator_id = ? and originator_version = 14",
                           (gid.replace("-", ""),)).fetchone()
    text = state.decode()
    changed = text.replace(f'"{ev.card}"', f'"{ev.card[0]}H"' if ev.card[1] != "H" else f'"{ev.card[0]}S"', 1)
    assert changed != text
    con.execute("update stored_events set state = ? where originator_id = ? and originator_version = 14",
                (changed.encode(), gid.replace("-", "")))
    con.commit()
    con.close()
    for argv in (["analyze", "--all", "--face-up-only"], ["analyze", gid, other, "--face-up-only", "--format", "json"]):
        r = RUNNER.invoke(app, argv + ["--db", db])
        assert r.exit_code == 1, (argv, r.output)
        assert f"error: {gid}: stored event 14 was changed" in r.output, (argv, r.output)
        assert "DamagedGame" not in r.output and r.output.count(f"game {gid}:") == 0, r.output
    r = RUNNER.invoke(app, ["analyze", other, "--face-up-only", "--db", db])
    assert r.exit_code == 0, r.output          # the other game's cached analysis stands


def test_a_row_stored_as_text_is_named_in_words(tmp_path):
    """A newcomer's finding: a stored event rewritten by the sqlite3 shell's
    replace() (its state column then TEXT, not a BLOB) was named with the
    library's "MapperDeserialisationError: Failed to deserialise state of
    stored event with topic ..." cut in the middle of the game id.  The
    message names the event and says what went wrong, in one short clause."""
    import sqlite3
    from conftest import ROOT
    db = str(tmp_path / "club.sqlite")
    rec = str(ROOT / "fixtures" / "standard" / "club-night-1.euchre")
    assert RUNNER.invoke(app, ["import", "--db", db, rec]).exit_code == 0
    gid = str(Archive(db).game_ids()[0])
    con = sqlite3.connect(db)
    con.execute("update stored_events set state = cast(state as text) where originator_version = 14")
    con.commit()
    con.close()
    r = RUNNER.invoke(app, ["show", gid, "--db", db])
    assert r.exit_code == 1
    assert (f"game {gid}: stored event 14 cannot be read (its stored form cannot be decoded: "
            "AttributeError: 'str' object has no attribute 'decode')") in r.output, r.output
    assert "Mapper" not in r.output and "Failed to deserialise" not in r.output
