"""The club commands at archive scale (issue 26 finding 9), run by hand, not a
test: prints numbers.

    python benchmarks/bench_scale.py                       # 10,000 games
    python benchmarks/bench_scale.py --games 10000 100000  # and 100,000 (building it takes long)
    python benchmarks/bench_scale.py --games 3000 --keep /tmp/club   # keep the archives for another run

For each size, an SQLite archive of that many stored standard games is built
once (or reused from ``--keep DIR``): ``--distinct`` different random games
(``rules.simulate.random_game``, legal play) are stored again and again, each
time with four other players' names drawn from a club of ``2 x games``
players (a different game each time: the names are part of the game's id),
through ``Archive.import_record``; then the read models are caught up, as the
first ``list`` would.  Not timed.

Timed, each the whole command in its own process (``python -m euchre_events``,
stdout to a file): wall time and peak memory (the child's maximum resident set,
``wait4``):

* ``list``, ``stats`` (text), ``stats --format json``,
  ``stats --format html -o FILE`` and ``verify --all``.

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


def run(args: list, out: Path) -> tuple:
    """(seconds, peak resident MB, exit status) of ``euchre-events ARGS``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with open(out, "wb") as f:
        t0 = time.perf_counter()
        p = subprocess.Popen([sys.executable, "-m", "euchre_events", *args], stdout=f,
                             stderr=subprocess.PIPE, env=env)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss / 1024, p.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, nargs="+", default=[10000],
                    help="archive sizes (default 10000; add 100000 for the issue's goal, a long build)")
    ap.add_argument("--distinct", type=int, default=200, help="different random games stored again under other names")
    ap.add_argument("--keep", help="folder to keep (and reuse) the archives in")
    ap.add_argument("--skip", nargs="*", default=[], help="commands to leave out: list stats-text stats-json "
                                                           "stats-html verify")
    args = ap.parse_args()
    where = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-scale-"))
    where.mkdir(parents=True, exist_ok=True)
    for n in args.games:
        db = where / f"club-{n}.sqlite"
        if db.exists():
            print(f"\n{n} games: reusing {db}")
        else:
            print(f"\n{n} games: building {db} ...", flush=True)
            print(f"  built in {build(db, n, args.distinct):.0f} s")
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
            wall, mb, rc = run(cmd, where / f"out-{n}-{name}.txt")
            size = (html.stat().st_size / 2**20 if name == "stats-html" and html.exists()
                    else (where / f"out-{n}-{name}.txt").stat().st_size / 2**20)
            print(f"  {name:12s}"
                  f" {wall:7.2f} s  peak {mb:7.0f} MB  output {size:6.1f} MB  exit {rc}", flush=True)


if __name__ == "__main__":
    main()
