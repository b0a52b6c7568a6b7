#!/usr/bin/env python3
"""Replay benchmarks (issue 2): run on demand, prints numbers; not a test.

(a) Replay and audit against OpenSpiel.  The 4,000 OpenSpiel games of
    ``tests/test_openspiel.py`` (2,000 with default parameters, seed 1; 2,000
    with ``allow_lone_defender=True, stick_the_dealer=False``, seed 100001) are
    generated with ``pyspiel`` and converted to our events (not timed).  Timed:
    our replay-and-audit of all 4,000 (``projections.Game(events)``, which folds
    and validates every event (the per-deal checkpoints for jumps are made on
    the first jump, so not here), then ``game.audit()``), and OpenSpiel replaying the same action histories
    (``new_initial_state()``, then at each step ``legal_actions()`` and
    ``apply_action()``); and the fast core (``rules/fastcore.py``, issue 11)
    on the same histories (every decision checked, the tricks, the points and
    the game end; it would decline a renege or anything irregular: none of
    these games has one).  Prints games/s for each and the ratios (target: ours
    >= 1.5x OpenSpiel's).

(b) Archive load and jumps.  A real multi-deal game (``fixtures/egn/VWEC
    Finals.egn`` through the EGN reader when it exists; otherwise a full
    random standard game to 10 points from ``euchre_events.rules.simulate``) is
    stored in a fresh SQLite archive in a temporary folder; timed: loading it
    (``Archive(db).load(game_id)``, ms) and jumping to a random event
    (``game.state_at(k)``, median and p95 over 1,000 random jumps, ms; target
    under 1 ms; the first jump also makes the game's checkpoints).

Usage: ``python benchmarks/bench_replay.py [--games N] [--repeat R] [--jumps J]``.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from euchre_events.formats import Record  # noqa: E402
from euchre_events.formats.openspiel import (history_to_events, openspiel_options,  # noqa: E402
                                             random_openspiel_games)
from euchre_events.projections import Game  # noqa: E402
from euchre_events.rules.fastcore import fast_rules  # noqa: E402
from euchre_events.rules.registry import make_variant  # noqa: E402

CONFIGS = (({}, 1), ({"allow_lone_defender": True, "stick_the_dealer": False}, 100001))


def best_of(fn, repeat: int) -> float:
    """Smallest wall time of ``repeat`` runs of ``fn()`` (seconds)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def bench_openspiel(n_per_config: int, repeat: int) -> None:
    import pyspiel
    t0 = time.perf_counter()
    lines = []
    for params, seed in CONFIGS:
        lines += list(random_openspiel_games(n_per_config, seed, params, tricks=False))
    t1 = time.perf_counter()
    games = [(l["params"], l["history"]) for l in lines]
    events = [history_to_events(h, p) for p, h in games]
    t2 = time.perf_counter()
    n = len(games)
    n_events = sum(len(e) for e in events)
    n_actions = sum(len(h) for _, h in games)
    print(f"(a) {n} OpenSpiel games: generated in {t1 - t0:.2f} s, converted in {t2 - t1:.2f} s "
          f"({n_actions} OpenSpiel actions, {n_events} of our events)")

    def ours():
        for evs in events:
            Game(evs).audit()

    loaded = {}
    for params, _ in CONFIGS:
        p = {"allow_lone_defender": False, "stick_the_dealer": True}
        p.update(params)
        loaded[tuple(sorted(p.items()))] = pyspiel.load_game("euchre", p)
    os_games = []
    for params, hist in games:
        p = {"allow_lone_defender": False, "stick_the_dealer": True}
        p.update(params)
        os_games.append((loaded[tuple(sorted(p.items()))], hist))

    def theirs():
        for game, hist in os_games:
            state = game.new_initial_state()
            for a in hist:
                state.legal_actions()
                state.apply_action(a)
            assert state.is_terminal()

    # the fast core (rules/fastcore.py) on the same histories: every decision checked (in
    # turn, in the hand, suit followed: a renege or anything irregular makes it decline),
    # the tricks, the points and the game end; no event objects (their codes only)
    fast_inputs = [(fast_rules(make_variant("standard", openspiel_options(p))), h)
                   for p, h in games]

    def fast():
        for rules, h in fast_inputs:
            d = h[0]
            hands = [h[1 + ((s - d) & 3):21:4] for s in range(4)]
            if rules.deal(d, hands, h[21], h, 22, ints=True) is None:
                raise SystemExit("the fast core declined an OpenSpiel game")

    t_ours = t_theirs = t_fast = float("inf")
    for _ in range(repeat):  # interleaved, the best of each kept: fair under a varying load
        t_ours = min(t_ours, best_of(ours, 1))
        t_theirs = min(t_theirs, best_of(theirs, 1))
        t_fast = min(t_fast, best_of(fast, 1))
    print(f"    ours (fold + validate + audit):               {n / t_ours:10,.0f} games/s "
          f"({t_ours * 1e6 / n:6.1f} us/game, {n_events / t_ours:,.0f} events/s)")
    print(f"    ours, fast core (validate + tricks + points): {n / t_fast:10,.0f} games/s "
          f"({t_fast * 1e6 / n:6.1f} us/game)")
    print(f"    OpenSpiel (legal_actions + apply_action):     {n / t_theirs:10,.0f} games/s "
          f"({t_theirs * 1e6 / n:6.1f} us/game)")
    for what, t in (("engine", t_ours), ("fast core", t_fast)):
        ratio = t_theirs / t
        print(f"    ratio ours ({what})/OpenSpiel: {ratio:.2f}x  (target >= 1.5x: "
              f"{'met' if ratio >= 1.5 else 'NOT met'})")


def real_game() -> tuple:
    """(Record, description) of the long game used for (b)."""
    root = os.path.dirname(HERE)
    for path in (os.path.join(root, "fixtures", "egn", "VWEC Finals.egn"),
                 "/work/shared/records/egn/VWEC Finals.egn"):
        if not os.path.exists(path):
            continue
        try:
            from euchre_events.formats.egn import read_egn_file
        except ImportError:
            break
        recs = read_egn_file(path)
        rec = max(recs, key=lambda r: len(r.events))
        return rec, f"{os.path.basename(path)} (EGN)"
    try:
        from euchre_events.rules.simulate import random_game
    except ImportError:
        random_game = None
    if random_game is not None:
        evs = random_game("standard", seed=2024)
        return Record(events=evs, source={"format": "simulated"}), \
            "a random standard game to 10 points (simulate.random_game, seed 2024)"
    raise SystemExit("no EGN reader and no simulator: nothing to store for (b)")


def bench_archive(n_jumps: int, repeat: int) -> None:
    from euchre_events.archive import Archive
    rec, what = real_game()
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "bench.sqlite")
        t0 = time.perf_counter()
        gid, _ = Archive(db).import_record(rec)
        t_import = time.perf_counter() - t0
        loads = []
        for _ in range(max(repeat, 5)):
            t0 = time.perf_counter()
            game = Archive(db).load(gid)
            loads.append(time.perf_counter() - t0)
        arch = Archive(db)
        warm = []
        for _ in range(max(repeat, 5)):
            t0 = time.perf_counter()
            game = arch.load(gid)
            warm.append(time.perf_counter() - t0)
    n = len(game.events)
    print(f"(b) {what}: {n} events, {game.deals} deals, final score {game.final_score}")
    print(f"    import into SQLite: {t_import * 1e3:.1f} ms")
    print(f"    load (new Archive(db) + load): median {statistics.median(loads) * 1e3:.1f} ms; "
          f"load on an open archive: median {statistics.median(warm) * 1e3:.1f} ms")
    rng = random.Random(7)
    ks = [rng.randrange(n + 1) for _ in range(n_jumps)]
    times = []
    for k in ks:
        t0 = time.perf_counter()
        game.state_at(k)
        times.append(time.perf_counter() - t0)
    times.sort()
    med = statistics.median(times) * 1e3
    p95 = times[int(0.95 * (len(times) - 1))] * 1e3
    print(f"    jump to a random event (state_at): median {med:.3f} ms, p95 {p95:.3f} ms, "
          f"max {times[-1] * 1e3:.3f} ms over {n_jumps} jumps (target < 1 ms: "
          f"{'met' if p95 < 1 else 'NOT met'})")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2000, help="games per OpenSpiel configuration")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs; the best is kept")
    ap.add_argument("--jumps", type=int, default=1000)
    ap.add_argument("--skip-openspiel", action="store_true")
    ap.add_argument("--skip-archive", action="store_true")
    a = ap.parse_args(argv)
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    if not a.skip_openspiel:
        bench_openspiel(a.games, a.repeat)
    if not a.skip_archive:
        bench_archive(a.jumps, a.repeat)


if __name__ == "__main__":
    main()
