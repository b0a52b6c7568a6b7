#!/usr/bin/env python3
"""The analyze command from file to answer (issue 21, "Speed"); prints numbers, not a test.

1. ``analyze --face-up-only --format json`` of N one-deal games (OpenSpiel's random standard
   games, made by ``../shared/tools/openspiel_games.py`` when pyspiel is there, otherwise
   seeded random legal games of ``rules.simulate`` written as our text notation), every
   decision valued: wall time per deal, start-up included (goal: at most 2 ms a deal).
   The anchor, measured in the same run: ``audit`` of the same file (reading and folding
   only), so the ratio says what the analysis adds.
2. Whole-game analysis of ``fixtures/egn/VWEC Finals.egn`` (13 deals), face up and a
   ``--samples`` seat view for every decision: wall time with ``--workers 1`` and ``2``
   (goal: at most 20 s on a 2-core machine).
3. One decision's seat view (200 samples) as the viewer asks it, in process: median of a
   mid-play and an auction decision of the same game (goal: 300 ms).

    python benchmarks/bench_analyze.py [--games 100] [--samples 200] [--repeat 3] [--skip-game]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
EE = os.path.join(os.path.dirname(sys.executable), "euchre-events")
VWEC = os.path.join(ROOT, "fixtures", "egn", "VWEC Finals.egn")
GEN = next((p for p in (os.path.join(ROOT, "..", "shared", "tools", "openspiel_games.py"),
                        "/work/shared/tools/openspiel_games.py") if os.path.exists(p)), None)


def one_deal_games(n: int, folder: str) -> str:
    """A file of ``n`` one-deal standard games; its path."""
    try:
        import pyspiel  # noqa: F401
        if GEN is None:
            raise ImportError
        path = os.path.join(folder, "games.jsonl")
        subprocess.run([sys.executable, GEN, "--n", str(n), "--seed", "11", "--out", path], check=True)
        return path
    except ImportError:
        from euchre_events.formats.text import write_text
        from euchre_events.rules.simulate import random_game
        path = os.path.join(folder, "games.euchre")
        with open(path, "w") as f:
            for i in range(n):
                f.write(write_text(random_game("standard", {"num_deals": 1}, seed=i)) + "\n")
        return path


def timed(cmd: list) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-game", action="store_true", help="leave out the whole VWEC game (2)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        path = one_deal_games(a.games, d)
        fu, an = [], []
        for _ in range(a.repeat):
            an.append(timed([EE, "audit", path, "--json"]))
            fu.append(timed([EE, "analyze", path, "--face-up-only", "--format", "json", "-o",
                             os.path.join(d, "out.json")]))
        best, anchor = min(fu), min(an)
        print(f"1. analyze --face-up-only of {a.games} one-deal games ({os.path.basename(path)}): "
              f"best {best:.2f} s = {1000 * best / a.games:.2f} ms a deal all-in "
              f"(goal 2 ms); audit of the same file {anchor:.2f} s; ratio {best / anchor:.1f}x")
    if not a.skip_game:
        for w in (1, 2):
            t = timed([EE, "analyze", VWEC, "--samples", str(a.samples), "--workers", str(w), "--format", "json",
                       "-o", os.devnull])
            print(f"2. VWEC Finals (13 deals), face up + {a.samples}-sample seat view, --workers {w}: "
                  f"{t:.1f} s (goal 20 s)")
    from euchre_events.analysis.sampling import seat_view
    from euchre_events.analysis.review import decision_kind
    from euchre_events.formats import read_records
    g = read_records(VWEC)[0].game
    t = g.table_at(0)
    picks = {}
    for k, ev in enumerate(g.events):
        kind = decision_kind(ev)
        if kind == "call" and "call" not in picks:
            picks["call"] = k
        if kind == "play" and "play" not in picks and k > 20:
            picks["play"] = k
        if len(picks) == 2:
            break
    for kind, k in picks.items():
        times = []
        for _ in range(max(3, a.repeat)):
            t0 = time.perf_counter()
            seat_view(g, k, samples=200, seed=0)
            times.append(time.perf_counter() - t0)
        print(f"3. one {kind} decision's seat view (200 samples, position {k}): median "
              f"{1000 * statistics.median(times):.0f} ms (goal 300 ms)")


if __name__ == "__main__":
    main()
