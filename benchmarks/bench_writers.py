"""Several writers at once (issue 9), run by hand, not a test: prints numbers.

    python benchmarks/bench_writers.py                       # PostgreSQL, 8 writers, 60 s each mode
    python benchmarks/bench_writers.py --seconds 10 --writers 4
    python benchmarks/bench_writers.py --backend sqlite

``--writers`` processes (each its own ``Archive``, as separate people
would be) record live games with ``Archive.record`` for ``--seconds``:

* **own games**: writer i records into its own game (a new one when a game
  ends): no two writers touch one stream;
* **one shared game**: every writer records into the same game: each writes
  the next event at the position it has seen; another writer there first is
  a ``WriteConflict`` (counted), after which it reloads (``game_length``:
  where the game is now; ``record`` then reads only the events it has not
  seen) and goes on; when the
  game is over they all move to the next one.

The events are those of ``rules.simulate.random_game`` (standard, legal
play), made before the clock starts.  Afterwards every stored game is read
back: **lost** counts acknowledged events (``record`` returned their
position) that are not stored at that position, **twice** counts positions
acknowledged to two writers, and every game must ``verify`` intact.
Printed: acknowledged events/s, conflicts, lost, twice, games verified.
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from euchre_events.archive import Archive, ArchiveError, WriteConflict  # noqa: E402
from euchre_events.rules.simulate import random_game  # noqa: E402

NS = uuid.UUID("0b6f3f9e-0c1e-4f7e-9a55-2d1f1c8f0e01")


def _game(j: int) -> list:
    return random_game("standard", seed=10_000 + j)


def _gid(mode: str, j: int) -> uuid.UUID:
    return uuid.uuid5(NS, f"{mode}-{j}")


def _open(where: str) -> Archive:
    return Archive(where)


def _writer(where: str, mode: str, w: int, writers: int, seconds: float, start, out) -> None:
    arch = _open(where)
    acked, conflicts, errors = [], 0, []
    games: dict = {}
    j = w if mode == "own" else 0
    start.wait()
    stop = time.perf_counter() + seconds
    n = None
    while time.perf_counter() < stop:
        evs = games.get(j) or games.setdefault(j, _game(j))
        gid = _gid(mode, j)
        try:
            if n is None:      # (re)load: where the stored game is now
                try:
                    n = arch.game_length(gid)
                except ArchiveError:   # not started yet
                    n = 0
            if n >= len(evs):  # game over: the next one
                j += writers if mode == "own" else 1
                n = None
                continue
            if n == 0:
                arch.start_game(evs[0], gid)
                pos = 0
            else:
                pos = arch.record(gid, evs[n], position=n)
            acked.append((str(gid), pos, j))
            n = pos + 1
        except WriteConflict:
            conflicts += 1
            n = None
        except Exception as e:  # noqa: BLE001 - reported, never hidden
            errors.append(f"{type(e).__name__}: {e}")
            n = None
            if len(errors) > 20:
                break
    out.put((w, acked, conflicts, errors))


def run(where: str, mode: str, writers: int, seconds: float) -> None:
    ctx = mp.get_context("fork")
    start, out = ctx.Barrier(writers), ctx.Queue()
    _open(where)   # tables made once, before the writers start
    procs = [ctx.Process(target=_writer, args=(where, mode, w, writers, seconds, start, out))
             for w in range(writers)]
    for p in procs:
        p.start()
    results = [out.get() for _ in procs]
    for p in procs:
        p.join()
    acked = [a for _, ack, _, _ in results for a in ack]
    conflicts = sum(c for _, _, c, _ in results)
    errors = [e for _, _, _, err in results for e in err]
    arch = _open(where)
    stored: dict = {}
    lost = 0
    seen: dict = {}
    for gid, pos, j in acked:
        seen[(gid, pos)] = seen.get((gid, pos), 0) + 1
        if gid not in stored:
            stored[gid] = arch.game_events(gid)
        evs = stored[gid]
        want = _game(j)[pos]
        if pos >= len(evs) or (pos > 0 and evs[pos] != want) or (pos == 0 and evs[0].kind != "GameStarted"):
            lost += 1
    twice = sum(c - 1 for c in seen.values() if c > 1)
    verified = [arch.verify(uuid.UUID(g)).status for g in stored]
    print(f"  {mode:>6} games, {writers} writers, {seconds:.0f} s: {len(acked) / seconds:7.0f} events/s "
          f"({len(acked)} acknowledged in {len(stored)} games), conflicts reported {conflicts}, "
          f"lost {lost}, stored twice {twice}, verify: {verified.count('intact')}/{len(verified)} intact"
          + (f", ERRORS {len(errors)}: {errors[:3]}" if errors else ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--writers", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--backend", choices=("postgres", "sqlite", "both"), default="postgres")
    ap.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/test")
    args = ap.parse_args()
    for mode in ("own", "shared"):
        _game(0)
    if args.backend in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as d:
            print("[sqlite]")
            for mode in ("own", "shared"):
                run(f"{d}/{mode}.sqlite", mode, args.writers, args.seconds)
    if args.backend in ("postgres", "both"):
        import psycopg
        from euchre_events.archive import postgres_settings
        s = postgres_settings(args.pg)
        conn = psycopg.connect(dbname=s["POSTGRES_DBNAME"], host=s["POSTGRES_HOST"], port=s["POSTGRES_PORT"],
                               user=s["POSTGRES_USER"], password=s["POSTGRES_PASSWORD"], autocommit=True)
        base = args.pg.split("?")[0]
        print("[postgres]")
        for mode in ("own", "shared"):
            sc = f"bench_w_{uuid.uuid4().hex[:8]}"
            conn.execute(f"CREATE SCHEMA {sc}")
            try:
                run(f"{base}?schema={sc}", mode, args.writers, args.seconds)
            finally:
                conn.execute(f"DROP SCHEMA {sc} CASCADE")
        conn.close()


if __name__ == "__main__":
    main()
