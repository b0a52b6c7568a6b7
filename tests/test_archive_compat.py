"""An archive written by the previous release (0.1.0) still opens and reads
the same (DEVELOPERS.md: stored archives stay readable across versions).

``tests/data/archive-0.1.0.sqlite`` was written by euchre_events 0.1.0 with
``euchre-events import`` of four fixture records, plus annotations (added,
edited, removed) and one user variation through the Archive API.  Each stored
game must fold to the same events as the record read fresh today, under the
same content id, and its annotation stream must keep what was written.
"""
import shutil

import pytest

from conftest import ROOT
from euchre_events.archive import Archive, content_id
from euchre_events.formats import read_records
from euchre_events.projections import Game

OLD = ROOT / "tests" / "data" / "archive-0.1.0.sqlite"
RECORDS = [
    ROOT / "fixtures" / "egn" / "VWEC Finals Annotated.egn",
    ROOT / "fixtures" / "bid" / "bid-joker.euchre",
    ROOT / "fixtures" / "cutthroat" / "cutthroat-2.euchre",
    ROOT / "fixtures" / "two-handed" / "parlour-2.euchre",
]


@pytest.fixture()
def old_archive(tmp_path):
    db = tmp_path / "old.sqlite"
    shutil.copy(OLD, db)  # never write to the kept file
    return Archive(str(db))


def test_old_archive_lists_the_four_games_in_import_order(old_archive):
    ids = old_archive.game_ids()
    assert len(ids) == 4
    titles = [old_archive.load(g).title for g in ids]
    assert titles == ["VWEC Finals", "Bid club 2 (25 cards with the joker)",
                      "Cutthroat, table 2", "Parlour game 2 (stick the dealer)"]


@pytest.mark.parametrize("index", range(4))
def test_old_game_folds_to_the_record_read_today(old_archive, index):
    gid = old_archive.game_ids()[index]
    game = old_archive.load(gid)
    rec = read_records(str(RECORDS[index]))[0]
    # the same events (GameStarted carries every option, as stored)
    assert [e.kind for e in game.events] == [e.kind for e in rec.events]
    assert game.events[1:] == list(rec.events[1:])
    # the same game id as an import today would give
    assert gid == content_id(game.events, rec.annotations, rec.variations)
    today = Game(rec.events)
    assert game.final_score == today.final_score
    assert game.winner == today.winner


def test_old_annotations_and_variation_read_back(old_archive):
    gid = old_archive.game_ids()[0]
    notes = old_archive.annotations(gid)
    by_text = {n["text"]: n for n in notes}
    assert by_text["old-release note"]["position"] == 5
    assert by_text["old-release note"]["mark"] == "!"
    assert by_text["old-release note"]["author"] == "tester"
    assert by_text["edited"]["mark"] == "!?" and by_text["edited"]["position"] == 7
    assert "removed" not in by_text and "to be edited" not in by_text
    user = [v for v in old_archive.variations(gid) if v["comment"] == "old-release variation"]
    assert len(user) == 1 and user[0]["position"] == 10
    assert user[0]["events"][0].kind == "CardPlayed" and user[0]["events"][0].card == "KD"


def test_old_archive_takes_new_writes(old_archive):
    gid = old_archive.game_ids()[1]
    nid = old_archive.add_annotation(gid, 3, "written by this release")
    assert any(n["id"] == nid for n in old_archive.annotations(gid))
    # importing one of its games again stores nothing new
    rec = read_records(str(RECORDS[1]))[0]
    assert old_archive.import_record(rec) == (gid, False)
