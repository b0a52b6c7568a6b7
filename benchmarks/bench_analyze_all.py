"""A whole archive analysed (issue 25), run by hand, not a test: prints numbers.

    python benchmarks/bench_analyze_all.py                    # 200 games, face up and seat view (8 samples)
    python benchmarks/bench_analyze_all.py --games 50 --samples 4
    python benchmarks/bench_analyze_all.py --explore-games 10000   # the explorer on 10,000 games

* **games/s** of ``run_corpus`` (what ``analyze --all`` runs) over ``--games``
  standard games (``rules.simulate.random_game``, played to the end) in a
  fresh SQLite archive, for 1 local worker, 2 local workers and a 2-worker
  Dask ``LocalCluster``, face up and with a seat view of ``--samples``
  samples; each run starts from an empty analysis read model;
* **cluster overhead per task**: the same tasks, each doing nothing but its
  round trip (an unknown game id: read, fail, return), on the LocalCluster:
  wall seconds per task;
* **the explorer**: ``--explore-games`` analysed games' explorer rows (the
  rows of the 200 analysed games copied under new game ids: the tables'
  size is what matters), then a teacher's query (standard, eldest, round 1,
  jack of hearts turned, 2 trumps) timed: median of 20.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from euchre_events.archive import Archive  # noqa: E402
from euchre_events.archive.explorer import TABLES, _COLS, ensure_tables, explore  # noqa: E402
from euchre_events.archive.readmodels import ReadModels  # noqa: E402
from euchre_events.corpus import _OPEN, analysis_params, run_corpus  # noqa: E402
from euchre_events.formats import Record  # noqa: E402
from euchre_events.rules.simulate import random_game  # noqa: E402


def build(db: str, games: int) -> list:
    arch = Archive(db)
    return [str(arch.import_record(Record(random_game("standard", seed=s)))[0]) for s in range(games)]


def clear(db: str) -> None:
    rm = ReadModels(Archive(db))
    ensure_tables(rm.view)
    with rm.view._tx() as c:
        for t in ("ee_rm_analysis", *TABLES):
            c.execute(f"DELETE FROM {t}")


def timed(db, ids, params, **kw) -> float:
    clear(db)
    _OPEN.clear()
    t0 = time.perf_counter()
    res = run_corpus(ids, db=db, params=params, progress=False, **kw)
    dt = time.perf_counter() - t0
    assert res.analysed == len(ids), res.summary()
    return dt


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--samples", type=int, default=8)
    ap.add_argument("--explore-games", type=int, default=10000)
    args = ap.parse_args()
    from distributed import LocalCluster
    tmp = Path(tempfile.mkdtemp())
    db = str(tmp / "bench.sqlite")
    ids = build(db, args.games)
    print(f"{args.games} standard games stored")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=40) as cluster:
        for name, params in (("face up", analysis_params(0, 0, True, None, None, None)),
                             (f"seat view, {args.samples} samples",
                              analysis_params(args.samples, 0, False, None, None, None))):
            one = timed(db, ids, params)
            two = timed(db, ids, params, workers=2)
            dask = timed(db, ids, params, scheduler=cluster.scheduler_address)
            print(f"{name:>24}: 1 worker {len(ids) / one:7.2f} games/s ({one / len(ids) * 1000:7.1f} ms/game), "
                  f"2 workers {len(ids) / two:7.2f} games/s, 2-worker LocalCluster {len(ids) / dask:7.2f} games/s")
        bogus = [str(uuid.uuid4()) for _ in range(args.games)]
        t0 = time.perf_counter()
        res = run_corpus(bogus, db=db, params=analysis_params(0, 0, True, None, None, None),
                         scheduler=cluster.scheduler_address, progress=False)
        dt = time.perf_counter() - t0
        print(f"cluster path, a task that does nothing: {dt / len(bogus) * 1000:.1f} ms per task "
              f"({len(res.failed)} empty tasks)")
    # the explorer on a big table
    rm = ReadModels(Archive(db))
    face = analysis_params(0, 0, True, None, None, None)
    timed(db, ids, face)
    view = rm.view
    dec = view.select("SELECT * FROM ee_ex_decisions")
    opt = view.select("SELECT * FROM ee_ex_options")
    games = view.select("SELECT * FROM ee_ex_games")
    copies = max(0, args.explore_games // len(ids) - 1)
    t0 = time.perf_counter()
    for k in range(copies):
        remap = {g["game_id"]: str(uuid.uuid4()) for g in games}
        with view._tx() as c:
            for table, rows in (("ee_ex_games", games), ("ee_ex_decisions", dec), ("ee_ex_options", opt)):
                cols = _COLS[table]
                c.executemany(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                              [tuple(remap[r["game_id"]] if col == "game_id" else r[col] for col in cols)
                               for r in rows])
    n = view.select("SELECT COUNT(*) AS n FROM ee_ex_games")[0]["n"]
    nd = view.select("SELECT COUNT(*) AS n FROM ee_ex_decisions")[0]["n"]
    print(f"explorer: {n} analysed games, {nd} call decisions (filled in {time.perf_counter() - t0:.1f} s)")
    for label, f in (("standard, eldest, round 1, JH up, 2 trumps",
                      dict(variant="standard", seat_rel=1, round=1, up_rank="J", up_suit="H", trumps=2)),
                     ("standard, dealer, round 1", dict(variant="standard", seat_rel=0, round=1)),
                     ("every call decision", {})):
        times = []
        for _ in range(20):
            t0 = time.perf_counter()
            ex = explore(rm, **f)
            times.append(time.perf_counter() - t0)
        print(f"explorer query ({label}): {ex.decisions} decisions, median {statistics.median(times) * 1000:.1f} ms, "
              f"max {max(times) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
