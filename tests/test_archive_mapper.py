"""The archive's mapper (archive.transcodings.ArchiveMapper) writes exactly
the bytes the library's own Mapper writes, for every stored event kind."""
import dataclasses
import uuid

import pytest
from eventsourcing.persistence import Mapper

from euchre_events.archive import Archive
from euchre_events.archive.aggregates import AnnotationLog, GameRecord
from euchre_events.archive.transcodings import ArchiveMapper
from euchre_events.events import CardPlayed, GameStarted
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
