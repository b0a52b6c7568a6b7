#!/usr/bin/env python3
"""Memory of a streamed audit (issue "Speed"): peak RSS of
``euchre-events audit FILE.jsonl --format jsonl`` and ``--json`` on a JSON
Lines file of ``--games`` OpenSpiel games (default 1,000,000; target: under
200 MB), and the same on a file a hundred times smaller, to show it does not
grow.  Prints numbers; not a test.

The big file repeats the lines of a 2,000-game file made by
``../shared/tools/openspiel_games.py`` (seed 11), each written compactly
(``params``, ``seed``, ``index``, ``history``, ``returns``: the steps and
their legal lists are left out, so a million games take about 250 MB of
disk instead of 4 GB).  The report goes to /dev/null.  Peak RSS is the
child's ``ru_maxrss`` (``os.wait4``).

    python benchmarks/bench_stream_memory.py [--games 1000000] [--format jsonl json]
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = next((p for p in (os.path.join(HERE, "..", "..", "shared", "tools", "openspiel_games.py"),
                        "/work/shared/tools/openspiel_games.py") if os.path.exists(p)), None)
EE = os.path.join(os.path.dirname(sys.executable), "euchre-events")


def run(cmd: list) -> tuple:
    """``(wall s, CPU s, peak RSS MB)`` of one run of ``cmd``, output to /dev/null."""
    t0 = time.perf_counter()
    with open(os.devnull, "w") as null:
        p = subprocess.Popen(cmd, stdout=null)
        _, status, ru = os.wait4(p.pid, 0)
    if status != 0:
        raise SystemExit(f"{cmd} failed (status {status})")
    return time.perf_counter() - t0, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024


def write_games(src: list, n: int, path: str) -> None:
    with open(path, "w") as f:
        for i in range(n):
            f.write(src[i % len(src)])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--format", nargs="+", default=["jsonl", "json"])
    ap.add_argument("--keep", help="keep the big file at this path (it is reused if it exists)")
    ap.add_argument("--ee", default=EE, help="the command to run (default: this Python's "
                                             "euchre-events; e.g. 'python /snapshot/ee.py')")
    a = ap.parse_args()
    ee = shlex.split(a.ee)
    if GEN is None:
        sys.exit("needs ../shared/tools/openspiel_games.py (and pyspiel)")
    with tempfile.TemporaryDirectory() as tmp:
        full = os.path.join(tmp, "full.jsonl")
        subprocess.run([sys.executable, GEN, "--n", "2000", "--seed", "11", "--out", full],
                       check=True, capture_output=True)
        src = []
        with open(full) as f:
            for line in f:
                d = json.loads(line)
                src.append(json.dumps({k: d[k] for k in ("game", "params", "seed", "index",
                                                         "history", "returns")},
                                      separators=(",", ":")) + "\n")
        small = os.path.join(tmp, "small.jsonl")
        write_games(src, max(a.games // 100, 1), small)
        big = a.keep or os.path.join(tmp, "big.jsonl")
        if not (a.keep and os.path.exists(big)):
            write_games(src, a.games, big)
        print(f"peak RSS of euchre-events audit, report to /dev/null "
              f"({os.path.getsize(big) / 1e6:.0f} MB file of {a.games} games):")
        for fmt in a.format:
            for path, n in ((small, max(a.games // 100, 1)), (big, a.games)):
                flag = ["--json"] if fmt == "json" else ["--format", fmt]
                wall, cpu, rss = run(ee + ["audit", path, "--from", "openspiel"] + flag)
                print(f"  --format {fmt:5s} {n:9d} games: peak RSS {rss:6.1f} MB, "
                      f"wall {wall:7.1f} s, CPU {cpu:7.1f} s ({n / cpu:6.0f} games per CPU second)")
    print("  target: under 200 MB for 1,000,000 games")


if __name__ == "__main__":
    main()
