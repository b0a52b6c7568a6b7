"""The archive stores our event classes themselves (archive/transcodings.py,
archive/aggregates.py), on SQLite and on the PostgreSQL test database:

* every kind of event reads back as the same :mod:`euchre_events.events`
  object (random games of every variant, plus the kinds simulation never
  makes);
* the stored topics of a new archive name the event classes, and the state
  holds the event, not a dict of it;
* an archive holding games of release 0.1.0 (old topics, ``data`` dicts) and
  games written now reads both, under unchanged content ids.
"""
import dataclasses
import json
import shutil
import sqlite3
import typing
import uuid

import pytest
from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import resolve_topic

from conftest import ROOT
from euchre_events import events as ev
from euchre_events.archive import Archive, GameRecord, content_id, game_id_of
from euchre_events.events import EVENT_TYPES
from euchre_events.formats import Record, read_records
from euchre_events.rules.registry import VARIANT_CLASSES, complete_start
from euchre_events.rules.simulate import random_game

from test_archive import _pg_env, c3_events, pg_schema  # noqa: F401  (pg_schema is a fixture)

OLD = ROOT / "tests" / "data" / "archive-0.1.0.sqlite"
OLD_RECORDS = [
    ROOT / "fixtures" / "egn" / "VWEC Finals Annotated.egn",
    ROOT / "fixtures" / "bid" / "bid-joker.euchre",
    ROOT / "fixtures" / "cutthroat" / "cutthroat-2.euchre",
    ROOT / "fixtures" / "two-handed" / "parlour-2.euchre",
]
NEW_TOPIC = "euchre_events.archive.aggregates:GameRecord.{}"
OLD_TOPIC = "euchre_events.archive:GameRecord.{}"


def same(a, b) -> bool:
    """Equal and of the same types all the way down (``repr`` tells a tuple
    from a list and ``True`` from ``1``, which ``==`` does not)."""
    return a == b and repr(a) == repr(b)


def corrected_c3():
    """Case C3 with East's renege taken back (PlayCorrected, rules.md 1.5)."""
    from test_play_corrected import corrected_events
    return corrected_events()


def sample_games() -> list:
    """Random games of every variant (some reneges), Bid Euchre with the joker at
    no-trump (JokerSuitNamed), a corrected play, and case C3 with a claim
    and a ruling: together every kind."""
    games = [random_game(cls.name, seed=seed, renege_rate=0.1, deals=6)
             for cls in VARIANT_CLASSES for seed in (1, 2)]
    for seed in range(10):
        g = random_game("bid", {"joker": True, "allow_no_trump": "always"}, seed=seed, deals=10)
        if any(e.kind == "JokerSuitNamed" for e in g):
            games.append(g)
            break
    games.append(corrected_c3())
    from test_official_result import c3_events, claim_and_ruling
    games.append(claim_and_ruling(c3_events()))   # RenegeClaimed, RenegeRuled
    return games


def stored(evs: list) -> list:
    """The events as the archive stores them (every option written out)."""
    return [complete_start(evs[0])] + list(evs[1:])


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request, tmp_path):
    """``make()`` -> a new Archive on the same store (as another process would
    open it); ``topics(gid)`` -> the stored topics of a stream, in order;
    ``state(gid)`` -> its stored states (JSON bytes)."""
    if request.param == "sqlite":
        db = str(tmp_path / "a.sqlite")

        def rows(gid, col):
            con = sqlite3.connect(db)
            try:
                return [r[0] for r in con.execute(
                    f"select {col} from stored_events where originator_id in (?, ?) order by originator_version",
                    (str(gid), gid.hex))]
            finally:
                con.close()
        return type("B", (), {"make": staticmethod(lambda: Archive(db)), "rows": staticmethod(rows)})
    schema = request.getfixturevalue("pg_schema")
    env = _pg_env(schema)
    import psycopg

    def rows(gid, col):
        dsn = f"host={env['POSTGRES_HOST']} port={env['POSTGRES_PORT']} dbname={env['POSTGRES_DBNAME']} " \
              f"user={env['POSTGRES_USER']}"
        with psycopg.connect(dsn) as con:
            return [bytes(r[0]) if isinstance(r[0], memoryview) else r[0] for r in con.execute(
                f"select {col} from {schema}.euchreevents_events where originator_id = %s "
                f"order by originator_version", (gid,))]
    return type("B", (), {"make": staticmethod(lambda: Archive(env=env)), "rows": staticmethod(rows)})


def test_every_kind_round_trips_through_the_archive_transcoder(tmp_path):
    """One event of every kind, with the awkward values (nested tuples,
    None, a bid as a word), through the Archive's own mapper and back."""
    samples = [
        ev.GameStarted("bid", {"joker": True}, ("A", "B", "C", "D"), 3, (0, 0), "t", {"file": "x"}),
        ev.DealStarted(1, 3), ev.CardsDealt((("AS", "??"), ("KD",)), None, ("JK",), ("9S",), ("TS", "QS")),
        ev.Passed(0), ev.OrderedUp(1, True), ev.TrumpNamed(2, None, False), ev.UpCardPickedUp(3),
        ev.UpCardDeclined(3), ev.Discarded(3, "??"), ev.WentAlone(1), ev.PlayedWithPartner(2),
        ev.DefendedAlone(0), ev.BidMade(1, "moon"), ev.BidMade(2, 4), ev.HandSwappedWithGhost(1),
        ev.DummyTaken(0), ev.CardPassed(0, 2, "AS#2"), ev.DroppedOut(3), ev.StayedIn(2),
        ev.DealThrownIn("ace-no-face", 1), ev.DealThrownIn(), ev.CardPlayed(0, "JK"),
        ev.JokerSuitNamed(0, "H"), ev.PlayCorrected(1, "9H", "TC"),
        ev.RenegeClaimed(0, 1, 1, 1), ev.RenegeRuled(1, 1, 1, "upheld", (2, 0), "the director", "TC shown"),
    ]
    assert {e.kind for e in samples} == set(EVENT_TYPES)
    mapper = Archive(str(tmp_path / "a.sqlite")).mapper
    agg = GameRecord.record(samples[:1], uuid.uuid4())
    for e in samples[1:]:
        if e.kind != "GameStarted":
            agg.append(e)
    for domain_event in agg.collect_events():
        back = mapper.to_domain_event(mapper.to_stored_event(domain_event))
        assert type(back) is type(domain_event)
        assert same(back.event, domain_event.event)


def test_random_games_of_every_variant_read_back_the_same(backend):
    games = sample_games()
    assert {e.kind for g in games for e in g} == set(EVENT_TYPES)
    a = backend.make()
    ids = [a.import_record(Record(g))[0] for g in games]
    b = backend.make()
    for gid, g in zip(ids, games):
        back = b.game_events(gid)
        assert len(back) == len(g)
        for x, y in zip(back, stored(g)):
            assert same(x, y), (x, y)
        assert gid == game_id_of(back)  # the id is the events', whatever the stored form


def test_new_archive_topics_name_the_event_classes(backend):
    a = backend.make()
    evs = corrected_c3()
    gid, _ = a.import_record(Record(evs, variations=[{"position": 9, "events": [ev.CardPlayed(1, "TC")]}]))
    topics = backend.rows(gid, "topic")
    assert topics == [NEW_TOPIC.format(e.kind) for e in evs]
    for topic, e in zip(topics, evs):
        cls = resolve_topic(topic)
        assert typing.get_type_hints(cls)["event"] is type(e)  # the stored class holds that event class
    # the state holds the event itself (our transcoding), not a dict of it
    for state, e in zip(backend.rows(gid, "state"), evs):
        d = json.loads(state)
        assert "data" not in d and d["event"]["_type_"] == e.kind
    from euchre_events.archive.aggregates import annotation_log_id
    assert set(backend.rows(annotation_log_id(gid), "topic")) == {
        "euchre_events.archive.aggregates:AnnotationLog.Created",
        "euchre_events.archive.aggregates:AnnotationLog.VariationAdded"}
    [v] = backend.make().variations(gid)
    assert same(v["events"], [ev.CardPlayed(1, "TC")])


def old_stored_events() -> list:
    """Every stored event of the 0.1.0 archive, as the library's StoredEvent."""
    con = sqlite3.connect(f"file:{OLD}?mode=ro", uri=True)
    try:
        return [StoredEvent(uuid.UUID(i), v, t, bytes(s)) for i, v, t, s in con.execute(
            "select originator_id, originator_version, topic, state from stored_events order by rowid")]
    finally:
        con.close()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def old_archive(request, tmp_path):
    """A store holding what release 0.1.0 wrote: the kept SQLite file copied, or
    its stored events inserted as they are into a PostgreSQL schema."""
    if request.param == "sqlite":
        db = tmp_path / "old.sqlite"
        shutil.copy(OLD, db)
        db.chmod(0o644)
        return lambda: Archive(str(db))
    env = _pg_env(request.getfixturevalue("pg_schema"))
    writer = Archive(env=env)   # kept until the insert is done: the pool closes with it
    writer.recorder.insert_events(old_stored_events())
    return lambda: Archive(env=env)


def test_old_and_new_games_in_one_archive(old_archive):
    a = old_archive()
    old_ids = a.game_ids()
    assert len(old_ids) == 4
    new_games = [Record(random_game("standard", seed=7)),
                 read_records(str(ROOT / "fixtures" / "buck" / "buck-2.euchre"))[0]]
    new_ids = [a.import_record(r)[0] for r in new_games]
    b = old_archive()
    assert b.game_ids() == old_ids + new_ids          # import order, old and new alike
    # old games: the same events as the records read today, under the same ids
    for gid, path in zip(old_ids, OLD_RECORDS):
        rec = read_records(str(path))[0]
        back = b.game_events(gid)
        for x, y in zip(back[1:], rec.events[1:]):
            assert same(x, y)
        assert gid == content_id(back, rec.annotations, rec.variations)
        assert b.import_record(rec) == (gid, False)    # still stored once
    # new games too
    for gid, rec in zip(new_ids, new_games):
        assert same(b.game_events(gid), stored(rec.events))
    # an old annotation log takes new-form events next to its old ones
    vid = b.add_variation(old_ids[0], 10, [ev.CardPlayed(0, "KD")], comment="written now")
    c = old_archive()
    mine = {v["comment"]: v for v in c.variations(old_ids[0])}
    assert same(mine["old-release variation"]["events"], [ev.CardPlayed(0, "KD")])   # stored as a dict
    assert mine["written now"]["id"] == vid and same(mine["written now"]["events"], [ev.CardPlayed(0, "KD")])
    assert all(isinstance(e, ev.Event) for v in mine.values() for e in v["events"])
    nid = c.add_annotation(old_ids[0], 5, "new note")
    c.edit_annotation(old_ids[0], nid, "new note, edited", "!")
    texts = {n["text"] for n in old_archive().annotations(old_ids[0])}
    assert {"old-release note", "edited", "new note, edited"} <= texts


def test_old_topics_are_registered_for_the_current_classes():
    """Every topic release 0.1.0 wrote resolves to a class that reads it."""
    from euchre_events.archive.aggregates import LEGACY_TOPICS, AnnotationLog
    con = sqlite3.connect(f"file:{OLD}?mode=ro", uri=True)
    written = {t for (t,) in con.execute("select distinct topic from stored_events")}
    con.close()
    assert written <= set(LEGACY_TOPICS)
    assert resolve_topic("euchre_events.archive:GameRecord.Started") is GameRecord.GameStarted
    assert resolve_topic("euchre_events.archive:GameRecord") is GameRecord
    assert resolve_topic("euchre_events.archive:AnnotationLog.VariationAdded") is AnnotationLog.VariationAdded
    for kind in EVENT_TYPES:
        if kind != "GameStarted":
            assert resolve_topic(OLD_TOPIC.format(kind)) is getattr(GameRecord, kind)


def test_a_snapshot_holds_the_events_as_events(tmp_path):
    """The aggregate's state is our events, so a snapshot (vars of the
    aggregate, through the same transcoder) restores them as they were."""
    db = str(tmp_path / "a.sqlite")
    evs = random_game("cutthroat", seed=3)
    a = Archive(db, env={"IS_SNAPSHOTTING_ENABLED": "y"})
    gid, _ = a.import_record(Record(evs))
    a.take_snapshot(gid)
    b = Archive(db, env={"IS_SNAPSHOTTING_ENABLED": "y"})
    assert list(b.snapshots.get(gid))                   # read from the snapshot, not the stream
    assert same(b.game_events(gid), stored(evs))


def test_the_record_factory_refuses_a_stream_without_its_start():
    with pytest.raises(ValueError):
        GameRecord.record([], uuid.uuid4())
    with pytest.raises(ValueError):
        GameRecord.record([ev.DealStarted(1, 0)], uuid.uuid4())
    agg = GameRecord.record(c3_events()[:1], uuid.uuid4())
    with pytest.raises(ValueError):
        agg.append(c3_events()[0])
    assert dataclasses.is_dataclass(agg.events[0]) and agg.version == 1
