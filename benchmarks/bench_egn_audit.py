#!/usr/bin/env python3
"""EGN from file to answer (issue 11 "Speed"): ``euchre-events audit
FILES --json`` of ``--copies`` copies of each shipped tournament game
(``fixtures/egn/*.egn``), whole process, against the fold and audit alone
(``Game(events).audit()`` of the same games, events read beforehand), and
the reading alone (``read_records_partial(path, keep=False)``, what
``audit`` does).  Best wall time of ``--repeat``; prints numbers, not a test.

    python benchmarks/bench_egn_audit.py [--copies 20] [--repeat 3]
"""
from __future__ import annotations

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from euchre_events.formats import read_records_partial  # noqa: E402
from euchre_events.projections import Game  # noqa: E402

EE = os.path.join(os.path.dirname(sys.executable), "euchre-events")


def best(fn, repeat: int) -> float:
    t = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        t = min(t, time.perf_counter() - t0)
    return t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--copies", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    sources = sorted(glob.glob(os.path.join(ROOT, "fixtures", "egn", "*.egn")))
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for k in range(a.copies):
            for s in sources:
                dst = os.path.join(tmp, f"{k:03d} {os.path.basename(s)}")
                shutil.copyfile(s, dst)
                files.append(dst)
        records = [r for f in files for r in read_records_partial(f, keep=False)[0]]
        n, n_ev = len(records), sum(len(r.events) for r in records)
        t_read = best(lambda: [read_records_partial(f, keep=False) for f in files], a.repeat)
        t_fold = best(lambda: [Game(r.events).audit() for r in records], a.repeat)
        t_cmd = best(lambda: subprocess.run([EE, "audit", *files, "--json"], check=False,
                                            stdout=subprocess.DEVNULL), a.repeat)
        t_one = best(lambda: subprocess.run([EE, "audit", sources[-1], "--json"], check=False,
                                            stdout=subprocess.DEVNULL), a.repeat)
    print(f"{n} EGN games ({len(sources)} shipped games x {a.copies}), {n_ev} events, best of {a.repeat}:")
    print(f"  fold + audit (Game(events).audit()):        {t_fold:6.2f} s  {t_fold / n * 1e3:6.2f} ms/game")
    print(f"  read (schema, convert, each event folded):  {t_read:6.2f} s  {t_read / n * 1e3:6.2f} ms/game")
    print(f"  euchre-events audit FILES --json (process): {t_cmd:6.2f} s  {t_cmd / n * 1e3:6.2f} ms/game"
          f"  = {t_cmd / t_fold:.1f}x the fold + audit")
    print(f"  one game, whole process:                    {t_one:6.2f} s")


if __name__ == "__main__":
    main()
