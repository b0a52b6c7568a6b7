"""Issue "hostile input", item 9 at scale: an archive of 300 stored games
with one event damaged in each of five games, each in another way; `list`,
`audit`, `show` and `export` work on the other 295 and name each damaged
game (docs/design.md "Tamper evidence")."""
import sqlite3


from conftest import RUNNER as runner
from euchre_events.archive import Archive
from euchre_events.cli import app
from euchre_events.formats import Record
from euchre_events.rules.registry import VARIANT_CLASSES
from euchre_events.rules.simulate import random_game

WAYS = ["changed card", "bad json", "garbage", "unknown topic", "deleted row"]


def _sql(db, statement, *params):
    with sqlite3.connect(db) as c:
        c.execute(statement, params)


def test_300_games_five_damaged_the_rest_work(tmp_path):
    db = str(tmp_path / "club.sqlite")
    arch = Archive(db)
    names = sorted(c.name for c in VARIANT_CLASSES)
    ids = []
    for i in range(300):
        evs = random_game(names[i % len(names)], seed=i, deals=1)
        gid, created = arch.import_record(Record(evs))
        assert created
        ids.append(gid)
    damaged = {}
    for way, gid in zip(WAYS, ids[10:300:60]):
        damaged[gid] = way
        where = "where originator_id=? and originator_version=5"
        if way == "changed card":
            with sqlite3.connect(db) as c:   # the last event: a card played; another card in it
                last = c.execute("select max(originator_version) from stored_events where originator_id=?",
                                 (gid.hex,)).fetchone()[0]
                w = "where originator_id=? and originator_version=?"
                state = c.execute(f"select state from stored_events {w}", (gid.hex, last)).fetchone()[0]
                i = state.index(b'"card":"') + 8
                other = b"9H" if state[i:i + 2] != b"9H" else b"TH"
                c.execute(f"update stored_events set state=? {w}", (state[:i] + other + state[i + 2:], gid.hex, last))
        elif way == "bad json":
            _sql(db, f"update stored_events set state=substr(state, 1, 10) {where}", gid.hex)
        elif way == "garbage":
            _sql(db, f"update stored_events set state=? {where}", bytes(range(256)), gid.hex)
        elif way == "unknown topic":
            _sql(db, f"update stored_events set topic='gone:Away' {where}", gid.hex)
        else:
            _sql(db, f"delete from stored_events {where}", gid.hex)
    res = runner.invoke(app, ["list", "--db", db])
    assert res.exit_code == 1 and "Traceback" not in res.output
    listed = {line.split()[0] for line in res.stdout.splitlines() if line.strip()}
    assert listed == {str(g) for g in ids} - {str(g) for g in damaged}
    for gid in damaged:
        assert f"error: game {gid}" in res.stderr, damaged[gid]
    res = runner.invoke(app, ["audit", "--db", db, "--format", "json", *map(str, ids)])
    assert res.exit_code == 1 and "Traceback" not in res.output
    import json
    audited = [g["id"] for g in json.loads(res.stdout)["games"]]
    assert audited == [str(g) for g in ids if g not in damaged]
    assert sum(f"error: game {gid}" in res.stderr for gid in damaged) == 5
    for gid in list(damaged)[:2]:
        for args in (["show", str(gid)], ["export", str(gid), "-f", "text"]):
            r = runner.invoke(app, [*args, "--db", db])
            assert r.exit_code == 1 and f"game {gid}" in r.stderr and "Traceback" not in r.output
    ok = ids[0]
    assert runner.invoke(app, ["show", str(ok), "--db", db]).exit_code == 0
    assert runner.invoke(app, ["export", str(ok), "-f", "text", "--db", db]).exit_code == 0


def test_a_game_damaged_after_the_index_was_built_is_named_by_list_and_stats(tmp_path):
    """The read models are built once; a stored event changed or removed later
    makes no new notification, so list and stats check each game's chain."""
    db = str(tmp_path / "a.sqlite")
    arch = Archive(db)
    ids = [arch.import_record(Record(random_game("standard", seed=s, deals=2)))[0] for s in range(3)]
    assert runner.invoke(app, ["list", "--db", db]).exit_code == 0        # the index is built now
    _sql(db, "delete from stored_events where originator_id=? and originator_version=7", ids[1].hex)
    res = runner.invoke(app, ["list", "--db", db])
    assert res.exit_code == 1 and f"error: game {ids[1]}: stored event 7 is missing" in res.stderr
    assert {line.split()[0] for line in res.stdout.splitlines()} == {str(ids[0]), str(ids[2])}
    res = runner.invoke(app, ["stats", "--db", db, "--format", "json"])
    import json
    s = json.loads(res.stdout)
    assert s["games"] == 2 and s["damaged"] == 1
