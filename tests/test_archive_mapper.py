"""The archive's mapper (archive.transcodings.ArchiveMapper) writes exactly
the bytes the library's own Mapper writes, for every stored event kind."""
import dataclasses
import uuid
import pytest
from eventsourcing.persistence import Mapper

from conftest import CLUB

from euchre_events.archive import Archive
from euchre_events.archive.aggregates import AnnotationLog, GameRecord
from euchre_events.archive.transcodings import ArchiveMapper
from euchre_events.events import CardPlayed, GameStarted
from euchre_events.formats import Record
from euchre_events.rules.simulate import random_game

VARIANTS = ("standard", "two-handed", "cutthroat", "ghost-hand", "buck", "bid")

AWKWARD = ['plain', 'quote " inside', 'back\\slash', 'tab\there', 'line\nfeed', 'nul\x00', 'del\x7f',
           'élan', 'Straße', '日本語', 'emoji 🂡', '\u2028 separator', '<script>alert(1)</script>', '', ' ']


def _library(arch):
    return Mapper(transcoder=arch.mapper.transcoder)


def _same(arch, domain_events):
    lib = _library(arch)
    assert isinstance(arch.mapper, ArchiveMapper) and arch.mapper._fast
    n = 0
    for de in domain_events:
        mine, theirs = arch.mapper.to_stored_event(de), lib.to_stored_event(de)
        assert mine == theirs, (type(de).__name__, mine.state, theirs.state)
        n += 1
    return n


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_event_kind_of_every_variant_is_written_as_the_library_writes_it(tmp_path, variant):
    arch = Archive(str(tmp_path / "a.sqlite"))
    events = random_game(variant, seed=7)
    agg = GameRecord.record(events, uuid.uuid4())
    assert _same(arch, agg.collect_events()) == len(events)


def test_awkward_strings_and_values_are_written_as_the_library_writes_them(tmp_path):
    arch = Archive(str(tmp_path / "a.sqlite"))
    events = random_game("standard", seed=3)
    start = events[0]
    for text in AWKWARD:
        odd = dataclasses.replace(start, players=(text, "E", text, "W"), title=text,
                                  source={"file": text, "n": 1.5, "nested": {"k": [text, None, True]}})
        agg = GameRecord.record([odd] + list(events[1:5]), uuid.uuid4())
        agg.append(CardPlayed(seat=1, card=text))
        assert _same(arch, agg.collect_events()) == 6
    log = AnnotationLog._create(AnnotationLog.Created, id=uuid.uuid4(), game_id=str(uuid.uuid4()))
    for i, text in enumerate(AWKWARD):
        log.add(note_id=f"n{i}", position=i, text=text, mark=None if i % 2 else "!?", author=text)
    log.add_variation(variation_id="v", position=3, events=list(events[3:6]), annotations=[{"text": AWKWARD[1]}],
                      comment=AWKWARD[2])
    assert _same(arch, log.collect_events()) == len(AWKWARD) + 2


def test_a_game_written_fast_reads_back_equal_through_the_library(tmp_path):
    arch = Archive(str(tmp_path / "a.sqlite"))
    events = random_game("bid", seed=11)
    gid = uuid.uuid4()
    arch.save(GameRecord.record(events, gid))
    assert [d.event for d in arch.events.get(gid)] == list(events)
    assert isinstance(arch.game_events(gid)[0], GameStarted)


@pytest.mark.parametrize("variant", VARIANTS)
def test_new_stream_makes_the_events_record_makes(variant):
    """GameRecord.new_stream (the import's path, no aggregate replay) gives
    the stored events GameRecord.record gives: classes, versions, events,
    chain links and length; only the timestamps differ (each is its own now)."""
    events = random_game(variant, seed=5)
    gid = uuid.uuid4()
    a = GameRecord.record(events, gid).collect_events()
    stream = GameRecord.new_stream(events, gid)
    b = stream.collect_events()
    assert stream.id == gid and stream.collect_events() == []
    assert len(a) == len(b) == len(events)
    strip = lambda d: {k: v for k, v in vars(d).items() if k != "timestamp"}   # noqa: E731
    assert [type(d) for d in a] == [type(d) for d in b]
    assert [strip(d) for d in a] == [strip(d) for d in b]
    assert all(x.timestamp <= y.timestamp for x, y in zip(b, b[1:]))
    with pytest.raises(ValueError):
        GameRecord.new_stream(events[1:], gid)
    with pytest.raises(ValueError):
        GameRecord.new_stream(events + [events[0]], gid)


# ---------------------------------------------------------------- reading
from eventsourcing.persistence import JSONTranscoder  # noqa: E402

from euchre_events.archive.transcodings import EVENT_TRANSCODINGS, ArchiveTranscoder  # noqa: E402
from euchre_events.events import EVENT_TYPES, event_from_dict  # noqa: E402


def _outcome(fn, data):
    """("ok", the value, and its repr with every field's type: 1 and True are equal, not the same)
    or ("error", its class, its message)."""
    try:
        v = fn(data)
        return ("ok", v, repr(v), _types(v))
    except Exception as e:  # noqa: BLE001 - the same error is what is compared
        return ("error", type(e).__name__, str(e))


def _mutations(d: dict):
    """A stored event's fields, and ways a changed archive may hold them."""
    yield dict(d)
    for k in d:
        yield {x: v for x, v in d.items() if x != k}                         # a field missing
        for bad in (None, True, False, "0", 0, 1.5, [], ["9H"], [[1]], {}, {"_type_": "X"}):
            yield dict(d, **{k: bad})
    yield dict(d, extra=1)                                                    # a field too many
    yield dict(d, type="CardPlayed")


def _types(v):
    if isinstance(v, (tuple, list)):
        return (type(v).__name__,) + tuple(_types(x) for x in v)
    if isinstance(v, dict):
        return tuple((k, _types(x)) for k, x in v.items())
    if dataclasses.is_dataclass(v):
        return (type(v).__name__,) + tuple(_types(getattr(v, f.name)) for f in dataclasses.fields(v))
    return type(v).__name__


@pytest.mark.parametrize("variant", VARIANTS)
def test_reading_a_stored_event_gives_what_event_from_dict_gives(variant):
    """The fast reader of each event class returns what event_from_dict
    returns, or raises the same error, for the stored fields and for every
    way a changed archive may hold them (missing, extra, wrong types)."""
    tc = {t.type: t for t in EVENT_TRANSCODINGS}
    seen = set()
    for e in random_game(variant, seed=9):
        t = tc[type(e)]
        for data in _mutations(t.encode(e)):
            mine = _outcome(t.decode, dict(data))
            theirs = _outcome(event_from_dict, dict(data, type=t.name))
            assert mine == theirs, (t.name, data)
        assert t.decode(t.encode(e)) == e
        seen.add(t.name)
    assert "CardPlayed" in seen and "GameStarted" in seen


def test_reading_an_event_not_a_dict_fails_as_before():
    for t in EVENT_TRANSCODINGS:
        for data in ([], "x", 5, None):
            assert _outcome(t.decode, data)[0] == "error"
    assert set(t.name for t in EVENT_TRANSCODINGS) == set(EVENT_TYPES)


def test_the_archive_transcoder_reads_what_the_library_transcoder_reads(tmp_path):
    """Every object in a stored state comes back as the library's
    JSONTranscoder gives it: game events, the library's own types, and
    objects that look like a transcoded value but are not one (a record's
    source may hold anything)."""
    arch = Archive(str(tmp_path / "a.sqlite"))
    lib, mine = JSONTranscoder(), arch.mapper.transcoder
    assert isinstance(mine, ArchiveTranscoder)
    arch.register_transcodings(lib)
    events = random_game("ghost-hand", seed=2)
    texts = [lib.encode({"event": e, "n": [e, {"x": e}]}) for e in events]
    odd = [b'{"_type_":"CardPlayed","_data_":{"seat":1,"card":"KD"}}', b'{"_type_":"CardPlayed","_data_":5}',
           b'{"_type_":5,"_data_":1}', b'{"_type_":"nope","_data_":1}', b'{"_type_":null,"_data_":1}',
           b'{"_type_":[1],"_data_":1}', b'{"_type_":"uuid_hex","_data_":"6f1c2a528c1e5b7e9d0b3e5f0c2a9e11"}',
           b'{"_type_":"datetime_iso","_data_":"2026-12-03T06:50:17.287553+00:00"}',
           b'{"a":1,"b":2}', b'{"_type_":"CardPlayed","x":1}', b'{"_data_":1,"y":2}', b'{"_type_":"CardPlayed"}',
           b'{"_type_":"CardPlayed","_data_":{"seat":1,"card":"KD"},"z":0}', b'{"seat":1,"card":"KD"}',
           '{"s":{"players":[{"_type_":"Passed","_data_":{"seat":0}}],"t":"\u00e9\\u0000"}}'.encode()]
    for text in texts + odd:
        assert _outcome(mine.decode, text) == _outcome(lib.decode, text), text


# ---------------------------------------------------------------- one fold on the import path
def test_a_record_the_reader_folded_is_not_folded_again_and_is_stored_the_same(tmp_path):
    """import_record uses the reader's fold (record.game) when it is the
    fold of exactly the record's events; a record without one, or whose
    events were replaced, is folded by the import; either way the same game
    is stored under the same id."""
    from euchre_events.archive.importing import _folded
    from euchre_events.formats import Record, read_records
    rec = read_records(str(CLUB))[0]
    assert rec.game is not None and _folded(rec)
    plain = Record(list(rec.events))
    assert not _folded(plain)
    assert not _folded(dataclasses.replace(rec, events=list(rec.events)))
    a, b = Archive(str(tmp_path / "a.sqlite")), Archive(str(tmp_path / "b.sqlite"))
    ga, created_a = a.import_record(rec)
    gb, created_b = b.import_record(plain)
    assert ga == gb and created_a and created_b
    assert a.game_events(ga) == b.game_events(gb)
    assert a.game_events(ga)[1:] == list(rec.events[1:])      # GameStarted: with every option written out
    assert a.verify(ga).status == b.verify(gb).status == "intact"
    assert a.import_record(rec) == (ga, False)       # stored: the save is refused, the copy recognised


def test_an_impossible_record_is_refused_and_nothing_is_stored(tmp_path):
    from euchre_events.formats import Record
    from euchre_events.rules.engine import ImpossibleEvent
    events = random_game("standard", seed=4)
    bad = list(events)
    k = next(i for i, e in enumerate(bad) if isinstance(e, CardPlayed))
    bad[k] = CardPlayed(seat=bad[k].seat, card="ZZ")
    a = Archive(str(tmp_path / "a.sqlite"))
    with pytest.raises(ImpossibleEvent):
        a.import_record(Record(bad))
    assert a.game_ids() == []


# ---------------------------------------------------------------- a load in one query (PostgreSQL)
from test_archive import _pg_env, pg_schema  # noqa: E402,F401  (pg_schema is a fixture)


@pytest.mark.postgres
def test_on_postgres_the_snapshot_and_the_rows_after_it_come_in_one_query(pg_schema):  # noqa: F811
    """_snapshot_and_rows reads what the library's queries read: the latest
    snapshot, and every stored row of the game, raw (the snapshot's rows are
    compared with its digest, the rows after it decoded)."""
    a = Archive(env=_pg_env(pg_schema))
    a.SNAPSHOT_MIN = 100
    events = random_game("standard", seed=3)
    gid = a.start_game(events[0])
    for k in range(1, 150):
        a.record(gid, events[k], position=k)
    assert a._snapshot_and_rows(gid) == (None, [])
    a.load(gid)                                           # stores the snapshot of 150 events
    for k in range(150, 160):
        a.record(gid, events[k], position=k)
    snap, rows = Archive(env=_pg_env(pg_schema))._snapshot_and_rows(gid)
    lib_snap = list(a.snapshots.get(gid, desc=True, limit=1))[0]
    assert snap.originator_version == lib_snap.originator_version == 150
    assert snap.state["events"] == lib_snap.state["events"]
    assert rows == list(a.recorder.select_events(gid))
    assert [d.originator_version for d in rows] == list(range(1, 161))
    assert Archive(env=_pg_env(pg_schema)).load(gid).events[1:] == list(events[1:160])


def test_on_sqlite_the_library_reads_the_snapshot(tmp_path):
    a = Archive(str(tmp_path / "a.sqlite"))
    gid, _ = a.import_record(Record(random_game("standard", seed=424242, options={"target_score": 40})))
    assert a._snapshot_and_rows(gid) is None
    first = a.load(gid)
    assert Archive(str(tmp_path / "a.sqlite"))._events_from_snapshot(gid) == first.events


@pytest.mark.postgres
def test_on_postgres_an_archive_opened_before_is_not_created_again(pg_schema):  # noqa: F811
    """The first open of a schema creates the tables (the library's
    CREATE_TABLE); later opens see them on the connection that checks the
    server and ask the library not to create them again; an explicit
    CREATE_TABLE setting is kept."""
    first = Archive(env=_pg_env(pg_schema))
    assert first.env.get("CREATE_TABLE") in (None, "", "y", "yes", "true")
    gid, _ = first.import_record(Record(random_game("standard", seed=1)))
    again = Archive(env=_pg_env(pg_schema))
    assert again.env.get("CREATE_TABLE") == "false"
    assert again.game_ids() == [gid] and again.verify(gid).status == "intact"
    assert again.import_record(Record(random_game("standard", seed=2)))[1]
    told = Archive(env=dict(_pg_env(pg_schema), CREATE_TABLE="yes"))
    assert told.env.get("CREATE_TABLE") == "yes"


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_import_gives_the_game_the_id_game_id_of_gives(tmp_path, variant):
    """The import writes each event's text once (importing._game_id) and stores
    the game under exactly game_id_of's id."""
    from euchre_events.archive import game_id_of
    from euchre_events.archive.canonical import event_text
    from euchre_events.archive.gameid import start_text
    from euchre_events.archive.importing import _game_id, _with_full_options
    rec = _with_full_options(Record(random_game(variant, seed=12)))
    texts = [event_text(e) for e in rec.events[1:]]
    assert _game_id(start_text(rec.events[0]), texts) == game_id_of(rec.events)
    gid, created = Archive(str(tmp_path / "a.sqlite")).import_record(Record(random_game(variant, seed=12)))
    assert created and gid == game_id_of(rec.events)
