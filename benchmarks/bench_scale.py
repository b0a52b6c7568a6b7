"""The club commands at archive scale (issue 26 finding 9), run by hand, not a
test: prints numbers.

    python benchmarks/bench_scale.py                       # 10,000 games
    python benchmarks/bench_scale.py --games 10000 100000  # and 100,000 (building it takes long)
    python benchmarks/bench_scale.py --games 3000 --keep /tmp/club   # keep the archives for another run

For each size, an SQLite archive of that many stored standard games is built
once (or reused from ``--keep DIR``): ``--distinct`` different random games
(``rules.simulate.random_game``, legal play) are stored again and again, each
time with four other players' names drawn from a club of ``2 x games``
players (a different game each time: the names are part of the game's id).
The distinct games go through ``Archive.import_record`` and the read models
catch up, as the first ``list`` would; the copies are written straight into
the tables as importing would write them (:func:`build_fast`: 100,000 games
in about 13 minutes instead of hours; ``--slow`` imports every game,
``--check`` rebuilds the read models from the events and verifies every
game).  Not timed.

Timed, each the whole command in its own process (``python -m euchre_events``,
stdout to a file): wall time and peak memory (the child's maximum resident set,
``wait4``):

* ``list``, ``stats`` (text), ``stats --format json``,
  ``stats --format html -o FILE`` and ``verify --all``.

CPU time (user + system, ``wait4``) is printed beside the wall time: on a
machine shared with other jobs the wall time of one run varies by 2x.

Goals (issue 26): ``list`` under 2 s and ``stats --format html`` under 500 MB
at 100,000 games.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from euchre_events.archive import Archive  # noqa: E402
from euchre_events.archive.readmodels import ReadModels  # noqa: E402
from euchre_events.formats import Record  # noqa: E402
from euchre_events.rules.simulate import random_game  # noqa: E402

FIRST = ["Ann", "Bob", "Cora", "Dan", "Eve", "Finn", "Gail", "Hal", "Ivy", "Jo", "Kit", "Lee", "Mo", "Ned"]


def build(db: Path, games: int, distinct: int, seed: int = 1) -> float:
    """Store ``games`` games in the archive ``db`` (new file); returns seconds."""
    t0 = time.perf_counter()
    base = [random_game("standard", seed=s) for s in range(distinct)]
    club = [f"{FIRST[i % len(FIRST)]} {i // len(FIRST) + 1}" for i in range(2 * games)]
    rng = random.Random(seed)
    arch = Archive(str(db))
    for i in range(games):
        events = base[i % distinct]
        players = tuple(rng.sample(club, 4))
        arch.import_record(Record([dataclasses.replace(events[0], players=players)] + events[1:]))
        if (i + 1) % 5000 == 0:
            print(f"  ... {i + 1} games stored ({time.perf_counter() - t0:.0f} s)", flush=True)
    ReadModels(arch).catch_up()
    return time.perf_counter() - t0


def build_fast(db: Path, games: int, distinct: int, seed: int = 1) -> float:
    """Store ``games`` games in the archive ``db`` (new file) the quick way;
    returns seconds.  The ``distinct`` base games (with their first players)
    go through ``Archive.import_record`` and the read models catch up as the
    first ``list`` would; every further game is a base game under four other
    players' names, written as ``import_record`` would write it, straight
    into the tables in one transaction: its id is ``game_id_of`` its events,
    its GameStarted row holds the new names, every stored event's hash-chain
    link is computed again from the new id (``verify`` checks them), its
    annotation stream names it, and its read-model rows are the base game's
    with the new id and names (``--check`` rebuilds them from the events and
    compares).  About 30 times faster than importing each game."""
    import hashlib
    import json
    from euchre_events.archive import chain
    from euchre_events.archive.canonical import event_text
    from euchre_events.archive.gameid import start_text
    from euchre_events.archive.aggregates import annotation_log_id
    from euchre_events.archive.importing import _game_id
    t0 = time.perf_counter()
    first = min(games, distinct)
    build(db, first, distinct, seed)
    if games == first:
        return time.perf_counter() - t0
    arch = Archive(str(db))
    rm = ReadModels(arch)
    bases = []
    con = arch.recorder.datastore
    for g in rm.games():
        gid = uuid.UUID(g["game_id"])
        events = arch.game_events(gid)
        with con.transaction(commit=False) as c:
            c.execute("SELECT originator_version, topic, state FROM stored_events WHERE originator_id = ? "
                      "ORDER BY originator_version", (gid.hex,))
            rows = [(v, t, bytes(s)) for v, t, s in c.fetchall()]
            c.execute("SELECT originator_version, topic, state FROM stored_events WHERE originator_id = ? "
                      "ORDER BY originator_version", (annotation_log_id(gid).hex,))
            notes = [(v, t, bytes(s)) for v, t, s in c.fetchall()]
        st0 = json.loads(rows[0][2])
        texts = [event_text(e) for e in events[1:]]
        # each later event's canonical text as verify reads it back, and its stored chain link
        later = [(v, t, s, chain.canonical(dict(json.loads(s)["event"]["_data_"], type=json.loads(s)["event"]["_type_"])),
                  json.loads(s)["chain"].encode()) for v, t, s in rows[1:]]
        bases.append((gid, events[0], st0, texts, later, notes, g,
                      rm.view.select("SELECT * FROM {ee_rm_deals} WHERE game_id = ? ORDER BY deal", (str(gid),)),
                      rm.view.select("SELECT * FROM {ee_rm_findings} WHERE game_id = ? ORDER BY n", (str(gid),))))
    club = [f"{FIRST[i % len(FIRST)]} {i // len(FIRST) + 1}" for i in range(2 * games)]
    rng = random.Random(seed + 1)
    cols = {t: [r["name"] for r in rm.view.select(f"SELECT name FROM pragma_table_info('{t}')")]
            for t in ("ee_rm_games", "ee_rm_deals", "ee_rm_findings")}
    ins = {t: f"INSERT INTO {t} ({', '.join(c)}) VALUES ({', '.join('?' * len(c))})" for t, c in cols.items()}
    with con.transaction(commit=True) as c:
        for i in range(first, games):
            base_id, start, st0, texts, later, notes, g, deals, findings = bases[i % len(bases)]
            players = list(rng.sample(club, 4))
            new_start = dataclasses.replace(start, players=tuple(players))
            gid = _game_id(start_text(new_start), texts)
            st = json.loads(json.dumps(st0))
            st["event"]["_data_"]["players"] = players
            d0 = dict(st["event"]["_data_"], type=st["event"]["_type_"])
            prev = chain.link(chain.genesis(gid, st["length"]), 1, d0)
            st["chain"] = prev
            out = [(gid.hex, 1, None, json.dumps(st, separators=(",", ":")).encode())]
            for v, t, s, text, old in later:
                prev = hashlib.sha256(f"{prev}|{v}|{text}".encode()).hexdigest()
                out.append((gid.hex, v, t, s.replace(old, prev.encode())))
            out[0] = (gid.hex, 1, "euchre_events.archive.aggregates:GameRecord.GameStarted", out[0][3])
            c.executemany("INSERT INTO stored_events (originator_id, originator_version, topic, state) "
                          "VALUES (?, ?, ?, ?)", out)
            c.execute("SELECT last_insert_rowid()")
            last = c.fetchone()[0]
            c.executemany("INSERT INTO stored_events (originator_id, originator_version, topic, state) "
                          "VALUES (?, ?, ?, ?)", [(annotation_log_id(gid).hex, v, t,
                                                   s.replace(str(base_id).encode(), str(gid).encode()))
                                                  for v, t, s in notes])
            row = dict(g, game_id=str(gid), seq=last, players=json.dumps(players, ensure_ascii=False))
            for k in ("source", "final_score", "official_score", "winner", "as_played_winner", "tied",
                      "score_after"):
                if row.get(k) is not None:
                    row[k] = json.dumps(row[k], ensure_ascii=False)
            c.execute(ins["ee_rm_games"], [row.get(k) for k in cols["ee_rm_games"]])
            c.executemany(ins["ee_rm_deals"], [[str(gid) if k == "game_id" else d[k] for k in cols["ee_rm_deals"]]
                                               for d in deals])
            c.executemany(ins["ee_rm_findings"],
                          [[str(gid) if k == "game_id" else players[f["seat"]] if k == "player" and f["seat"] is not None
                            else f[k] for k in cols["ee_rm_findings"]] for f in findings])
            if (i + 1) % 10000 == 0:
                print(f"  ... {i + 1} games stored ({time.perf_counter() - t0:.0f} s)", flush=True)
        c.execute("SELECT MAX(rowid) FROM stored_events")
        c.execute("UPDATE tracking SET notification_id = ? WHERE application_name = ?",
                  (c.fetchone()[0], arch.name))
    return time.perf_counter() - t0


def check(db: Path) -> None:
    """Rebuild a copy of ``db``'s read models from its events and compare
    every row with the stored ones; ``verify --all`` must find every game
    intact.  Raises AssertionError naming the first difference."""
    import shutil
    copy = db.with_suffix(".check.sqlite")
    shutil.copy(db, copy)
    arch = Archive(str(copy))
    rm = ReadModels(arch)
    before = {t: rm.view.select(f"SELECT * FROM {{{t}}} ORDER BY 1, 2") for t in
              ("ee_rm_games", "ee_rm_deals", "ee_rm_findings")}
    rm.rebuild()
    after = {t: rm.view.select(f"SELECT * FROM {{{t}}} ORDER BY 1, 2") for t in before}
    for t in before:
        assert len(before[t]) == len(after[t]), (t, len(before[t]), len(after[t]))
        for a, b in zip(before[t], after[t]):
            assert a == b, (t, a, b)
    bad = [r for r in arch.verify_all() if not r.ok]
    assert not bad, bad[:3]
    print(f"  check: read models rebuilt from the events equal the written ones "
          f"({', '.join(f'{len(v)} {t}' for t, v in before.items())}); every game intact")
    copy.unlink()


def run(args: list, out: Path) -> tuple:
    """(seconds, CPU seconds (user + system), peak resident MB, exit status)
    of ``euchre-events ARGS``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with open(out, "wb") as f:
        t0 = time.perf_counter()
        p = subprocess.Popen([sys.executable, "-m", "euchre_events", *args], stdout=f,
                             stderr=subprocess.PIPE, env=env)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, p.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, nargs="+", default=[10000],
                    help="archive sizes (default 10000; add 100000 for the issue's goal, a long build)")
    ap.add_argument("--distinct", type=int, default=200, help="different random games stored again under other names")
    ap.add_argument("--keep", help="folder to keep (and reuse) the archives in")
    ap.add_argument("--skip", nargs="*", default=[], help="commands to leave out: list stats-text stats-json "
                                                           "stats-html verify")
    ap.add_argument("--slow", action="store_true", help="build by importing every game (not only the distinct ones)")
    ap.add_argument("--check", action="store_true", help="rebuild the read models from the events and verify every "
                                                         "game: the quick build wrote what importing would")
    args = ap.parse_args()
    where = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-scale-"))
    where.mkdir(parents=True, exist_ok=True)
    for n in args.games:
        db = where / f"club-{n}.sqlite"
        if db.exists():
            print(f"\n{n} games: reusing {db}")
        else:
            print(f"\n{n} games: building {db} ...", flush=True)
            maker = build if args.slow else build_fast
            print(f"  built in {maker(db, n, args.distinct):.0f} s")
        if args.check:
            check(db)
        print(f"  archive file {db.stat().st_size / 2**20:.0f} MB")
        html = where / f"club-{n}.html"
        cases = [("list", ["list", "--db", str(db)]),
                 ("stats-text", ["stats", "--db", str(db)]),
                 ("stats-json", ["stats", "--db", str(db), "--format", "json"]),
                 ("stats-html", ["stats", "--db", str(db), "--format", "html", "-o", str(html)]),
                 ("verify", ["verify", "--all", "--db", str(db)])]
        for name, cmd in cases:
            if name in args.skip:
                continue
            wall, cpu, mb, rc = run(cmd, where / f"out-{n}-{name}.txt")
            size = (html.stat().st_size / 2**20 if name == "stats-html" and html.exists()
                    else (where / f"out-{n}-{name}.txt").stat().st_size / 2**20)
            print(f"  {name:12s}"
                  f" {wall:7.2f} s  (CPU {cpu:7.2f} s)  peak {mb:7.0f} MB  output {size:6.1f} MB  exit {rc}",
                  flush=True)


if __name__ == "__main__":
    main()
