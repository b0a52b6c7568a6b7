#!/usr/bin/env python3
"""Per-variant fold speed (issue "Speed"): games/s and events/s of folding
and validating a game of each of the six games, on random complete games
(``rules.simulate.random_game``, seeds 0..N-1, made before timing), with and
without 10 % reneges; best CPU time (``time.process_time``) of ``--repeat``.  Prints numbers; not a test.

Timed per variant: ``Game(events)`` (one fold with the engine's fast path,
every event checked; the per-deal checkpoints are not made) and the fold
a reader makes event by event (``engine.apply`` per event, as the record
builder's live table does, then ``Game.from_folded``).

    python benchmarks/bench_fold.py [--games 200] [--repeat 3]
"""
from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from euchre_events.projections import Game  # noqa: E402
from euchre_events.rules.engine import apply, new_table  # noqa: E402
from euchre_events.rules.registry import VARIANT_CLASSES  # noqa: E402
from euchre_events.rules.simulate import random_game  # noqa: E402


def best_of(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()     # CPU time: a busy machine's waits are not counted
        fn()
        best = min(best, time.process_time() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()

    def one_by_one(games):
        for evs in games:
            t = new_table()
            for ev in evs:
                apply(t, ev)
            Game.from_folded(evs, t)

    print(f"{a.games} random complete games per variant, best of {a.repeat}:")
    print(f"  {'variant':12s} {'reneges':>7s} {'events/game':>11s} | {'Game(events)':>22s} | "
          f"{'apply per event':>22s}")
    for name in sorted(c.name for c in VARIANT_CLASSES):
        for rate in (0.0, 0.1):
            games = [random_game(name, seed=s, renege_rate=rate) for s in range(a.games)]
            n_ev = sum(map(len, games))
            t1 = best_of(lambda: [Game(evs) for evs in games], a.repeat)
            t2 = best_of(lambda: one_by_one(games), a.repeat)
            print(f"  {name:12s} {rate:7.0%} {n_ev / len(games):11.0f} | "
                  f"{len(games) / t1:7.0f} games/s {t1 / n_ev * 1e6:5.2f} µs/ev | "
                  f"{len(games) / t2:7.0f} games/s {t2 / n_ev * 1e6:5.2f} µs/ev")


if __name__ == "__main__":
    main()
