"""Face-up solver speed (issue 21 "Speed"; run by hand, not a test).

    python benchmarks/bench_analysis.py [--deals 1000] [--auctions 20] [--per-variant 30]

* **play**: face-up solve of a full standard deal from the first lead,
  trump and maker fixed (``solver.solve`` at the first lead of
  ``random_game("standard", seed=k, deals=1)``, k = 0 ..), median and mean
  over ``--deals`` deals in milliseconds, with the positions visited (cards
  tried by the fast play search) per deal;
* **action values**: every legal card at the first lead valued
  (``solver.action_values``), median;
* **auction**: the whole face-up auction of a standard deal
  (``solver.action_values`` at the first call: every call valued, each
  played out perfectly, the dealer's discard best for the dealer), median
  over ``--auctions`` deals;
* **variants**: every variant's face-up solve from the first lead, mean
  microseconds per deal over ``--per-variant`` deals.  Bid's play falls back
  to the reference search (its play hooks, rules.md 7.8), which takes
  minutes from the first lead: Bid is timed from the first position with
  12 cards left, and says so.

Dealing (random_game) and folding are outside the timings.  The play
search is the compiled one where built (``_playsearch``); run with
``EUCHRE_EVENTS_NO_C=1`` for the Python search (the first line says which).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from euchre_events.analysis import solver  # noqa: E402
from euchre_events.rules.engine import apply, new_table  # noqa: E402
from euchre_events.rules.simulate import random_game  # noqa: E402
from euchre_events.rules.table import PLAY  # noqa: E402

VARIANTS = ("standard", "two-handed", "cutthroat", "ghost-hand", "buck", "bid")


def first_lead(variant: str, seed: int, max_cards: int = 99):
    """The table at the first lead of a seeded random deal (None if thrown
    in), or at the first position of the play with ``max_cards`` cards left."""
    t = new_table()
    for e in random_game(variant, seed=seed, deals=1):
        if t.phase == PLAY and sum(len(h) for s, h in enumerate(t.hands) if s not in t.out) <= max_cards:
            return t
        apply(t, e)
    return None


def first_call(variant: str, seed: int):
    """The table at the first call of a seeded random deal."""
    t = new_table()
    for e in random_game(variant, seed=seed, deals=1):
        if t.dealer is not None and t.hands and t.phase not in ("dealing",):
            return t
        apply(t, e)
    return None


def timed(f, *a, **k):
    solver.clear_caches()   # no value kept from an earlier timing
    t0 = time.perf_counter()
    r = f(*a, **k)
    return time.perf_counter() - t0, r


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--auctions", type=int, default=20)
    ap.add_argument("--per-variant", type=int, default=30)
    args = ap.parse_args()

    print(f"play search: {'compiled' if solver._C is not None else 'Python'}")
    times, nodes, avt = [], [], []
    seed = 0
    while len(times) < args.deals:
        t = first_lead("standard", seed)
        seed += 1
        if t is None:
            continue
        solver.STATS["nodes"] = 0
        dt, _ = timed(solver.solve, t)
        times.append(dt)
        nodes.append(solver.STATS["nodes"])
        avt.append(timed(solver.action_values, t)[0])
    print(f"standard play from the first lead, {len(times)} deals: median {statistics.median(times) * 1e3:.3f} ms, "
          f"mean {statistics.mean(times) * 1e3:.3f} ms; positions visited median "
          f"{statistics.median(nodes):.0f}, mean {statistics.mean(nodes):.0f}")
    print(f"every card at the first lead valued: median {statistics.median(avt) * 1e3:.3f} ms")

    at = []
    for seed in range(args.auctions):
        t = first_call("standard", seed)
        at.append(timed(solver.action_values, t)[0])
    print(f"whole face-up auction of a standard deal, {len(at)} deals: median "
          f"{statistics.median(at) * 1e3:.1f} ms, max {max(at) * 1e3:.1f} ms")

    for v in VARIANTS:
        ts, seed = [], 0
        while len(ts) < args.per_variant:
            t = first_lead(v, seed, 12 if v == "bid" else 99)
            seed += 1
            if t is None:
                continue
            ts.append(timed(solver.solve, t)[0])
        where = "12 cards left" if v == "bid" else "the first lead"
        print(f"{v:11s} face-up solve from {where}: mean {statistics.mean(ts) * 1e6:,.0f} us, "
              f"median {statistics.median(ts) * 1e6:,.0f} us per deal ({len(ts)} deals)")


if __name__ == "__main__":
    main()
