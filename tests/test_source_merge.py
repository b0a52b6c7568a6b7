"""A game imported from its own file, then from its match's file: the match
copy's player ids and match membership are added to the stored game
(``SourceAdded`` in its annotation stream), so the archive ends as if the
match file had come first: the same statistics (players known by their
platform ids), the same ``export --match``, the same game ids.

Hand facts, from fixtures/egn/match: the six ``MotE W5 G*.egn`` files name
no player ids and no match; ``MotE W5 Match.emn`` holds the same six games
with the match "MotE Week 5 Match" whose master players carry the ids
``emn-combine:p-01`` (Dad of Carl) .. ``p-04`` (WWMM); Chach is ``p-03``.
"""
import json

import pytest
from conftest import EGN_FIXTURES, ROOT, RUNNER, cli as _cli

from euchre_events.archive import Archive, annotation_log_id, merge_sources, source_additions
from euchre_events.archive.clubstats import club_stats
from euchre_events.archive.readmodels import ReadModels
from euchre_events.cli import app
from euchre_events.formats import read_records
from test_game_identity import make_archive  # noqa: F401  (fixture: SQLite and PostgreSQL)
from test_archive import pg_schema  # noqa: F401  (fixture)

MATCH = EGN_FIXTURES / "match"
GAMES = sorted(MATCH.glob("MotE W5 G*.egn"))
EMN = MATCH / "MotE W5 Match.emn"
IDS = {"Dad of Carl": ["emn-combine:p-01"], "Jen-Eye": ["emn-combine:p-02"],
       "Chach": ["emn-combine:p-03"], "WWMM": ["emn-combine:p-04"]}


def _stats(arch):
    rm = ReadModels(arch)
    rm.catch_up()
    return club_stats(rm.games(), rm.deals(), rm.findings())


def test_pure_additions_and_merge():
    stored = {"file": "g.egn", "players": [{"name": "Ann"}, {"name": "Bob", "playerIds": [{"id": "b", "source": "x"}]}]}
    copy = {"file": "m.emn", "players": [{"name": "Ann", "playerIds": [{"id": "a", "source": "x"}]},
                                         {"name": "Bob", "playerIds": [{"id": "OTHER", "source": "x"}]}],
            "match": {"title": "M", "gameIndex": 0}}
    add = source_additions(stored, copy)
    # Ann's ids are new; Bob's stored ids are never replaced by a copy that disagrees
    assert add == {"players": [{"playerIds": [{"id": "a", "source": "x"}]}, None], "match": {"title": "M", "gameIndex": 0}}
    merged = merge_sources(stored, [add])
    assert merged["players"][0] == {"name": "Ann", "playerIds": [{"id": "a", "source": "x"}]}
    assert merged["players"][1]["playerIds"] == [{"id": "b", "source": "x"}]
    assert merged["match"]["title"] == "M" and merged["file"] == "g.egn"
    assert stored["players"][0] == {"name": "Ann"}          # the stored source is not changed
    assert source_additions(merged, copy) == {}             # nothing twice


def test_egn_then_emn_ends_as_emn_alone(make_archive):
    first = make_archive()
    for path in GAMES:
        [r] = read_records(str(path))
        assert first.import_record(r).created
    results = [first.import_record(r) for r in read_records(str(EMN))]
    assert [r.created for r in results] == [False] * 6
    assert {r.describe() for r in results} == {"already stored; added the match membership"}
    assert all(r.not_kept == () for r in results)
    # a second import of the match adds nothing: one SourceAdded per game
    again = [make_archive().import_record(r) for r in read_records(str(EMN))]
    assert {r.describe() for r in again} == {"already stored"}
    for r in results:
        assert len(first.added_sources(r.game_id)) == 1
        start = first.game_events(r.game_id, with_sources=True)[0]
        assert start.source["match"]["title"] == "MotE Week 5 Match"
        assert start.source["file"].endswith(".egn")       # the first copy's record stays
        assert "match" not in first.game_events(r.game_id)[0].source   # the stored event is unchanged

    merged_stats = _stats(make_archive())
    assert {name: p["ids"] for name, p in merged_stats["players"].items()} == IDS
    assert merged_stats["games"] == 6


def test_same_stats_and_match_export_as_emn_first(tmp_path):
    a, b = str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite")
    run = RUNNER.invoke
    assert run(app, ["import", *map(str, GAMES), "--db", a]).exit_code == 0
    out = run(app, ["import", str(EMN), "--db", a])
    assert out.exit_code == 0 and out.output.count("added the match membership") == 6
    assert run(app, ["import", str(EMN), "--db", b]).exit_code == 0
    sa, sb = (json.loads(run(app, ["stats", "--json", "--db", d]).output) for d in (a, b))
    assert sa == sb and sa["players"]["Chach"]["ids"] == ["emn-combine:p-03"]
    for d, name in ((a, "a.emn"), (b, "b.emn")):
        r = run(app, ["export", "--format", "emn", "--match", "MotE Week 5 Match", "-o", str(tmp_path / name), "--db", d])
        assert r.exit_code == 0, r.output
    assert (tmp_path / "a.emn").read_bytes() == (tmp_path / "b.emn").read_bytes()
    r = run(app, ["export", "--format", "emn", "--match", "mote week 5 match", "-o", str(tmp_path / "c.emn"), "--db", a])
    assert r.exit_code == 0 and (tmp_path / "c.emn").read_bytes() == (tmp_path / "a.emn").read_bytes()
    # the ids are the ones the games had when the match came first
    ia = json.loads(run(app, ["list", "--json", "--db", a]).output)
    ib = json.loads(run(app, ["list", "--json", "--db", b]).output)
    key = (lambda rows: sorted(g["id"] for g in (rows if isinstance(rows, list) else rows["games"])))
    assert key(ia) == key(ib)


def test_rebuild_and_a_fresh_read_model_see_the_merge(tmp_path):
    db = str(tmp_path / "a.sqlite")
    arch = Archive(db)
    for path in GAMES:
        arch.import_record(read_records(str(path))[0])
    rm = ReadModels(arch)
    rm.catch_up()
    before = club_stats(rm.games(), rm.deals(), rm.findings())
    assert all(p["ids"] == [] for p in before["players"].values())
    order = [g["game_id"] for g in rm.games()]
    for r in read_records(str(EMN)):
        arch.import_record(r)
    rm.catch_up()                     # the SourceAdded notifications refresh the six rows
    after = club_stats(rm.games(), rm.deals(), rm.findings())
    assert {n: p["ids"] for n, p in after["players"].items()} == IDS
    assert [g["game_id"] for g in rm.games()] == order      # import order kept
    assert rm.rebuild() > 0
    assert club_stats(rm.games(), rm.deals(), rm.findings()) == after
    # the annotation stream holds the addition; the game stream is untouched
    gid = order[0]
    import uuid
    assert len(arch.recorder.select_events(annotation_log_id(uuid.UUID(gid)))) == 2   # Created, SourceAdded


# ---------------------------------------------------------------- a match's games and its .emn, any order, three copies (issue 27, a newcomer's first minutes)

MATCH_GAMES = GAMES


def _club_after(tmp_path, name, *batches):
    """Import the batches in order into a new archive; ``(export --match
    bytes, stats JSON, {game id: SourceAdded count})``."""
    import json
    from euchre_events.archive import Archive
    db = tmp_path / f"{name}.sqlite"
    for batch in batches:
        res = _cli("import", *batch, "--db", db)
        assert res.exit_code == 0, res.output
        assert "not kept from this copy" not in res.stderr, res.stderr
    out = tmp_path / f"{name}.emn"
    assert _cli("export", "--format", "emn", "--match", "MotE Week 5 Match", "-o", out, "--db", db).exit_code == 0
    stats = json.loads(_cli("stats", "--format", "json", "--db", db).stdout)
    arch = Archive(str(db))
    added = {str(g): len(arch.added_sources(g)) for g in arch.game_ids()}
    return out.read_bytes(), stats, added


def test_a_match_imported_in_any_order_and_three_times_ends_as_its_emn_alone(tmp_path):
    """fixtures/egn/match: six games (MotE W5 G1..G6.egn, no player ids, no
    match) and their match file (the same games with the match "MotE Week 5
    Match" and the master player ids, Chach emn-combine:p-03).  The .emn
    first then the games, the games then the .emn then a copy of the .emn
    under another name, or that copy first: each archive ends as the .emn
    alone makes it (the same export --match, the same statistics, the same
    six games), and a copy adds the match to a game once, never twice.
    docs/design.md "A club's archive" tells a club this."""
    import shutil
    copy = tmp_path / "week5 from the club website.emn"
    shutil.copyfile(EMN, copy)
    alone = _club_after(tmp_path, "alone", [EMN])
    assert alone[1]["players"]["Chach"]["ids"] == ["emn-combine:p-03"] and len(alone[2]) == 6
    assert set(alone[2].values()) == {0}
    for name, batches in (("emn-first", ([EMN], MATCH_GAMES)),
                          ("games-first-three-copies", (MATCH_GAMES, [EMN], [copy])),
                          ("copy-first-three-copies", ([copy], MATCH_GAMES, [EMN]))):
        emn, stats, added = _club_after(tmp_path, name, *batches)
        assert emn == alone[0] and stats == alone[1], name
        assert sorted(added) == sorted(alone[2]), name
        # the match and the ids come once: with the games first, one SourceAdded per game
        assert set(added.values()) == ({1} if name.startswith("games-first") else {0}), (name, added)
    text = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    assert "### A club's archive: a match's files in any order" in text
