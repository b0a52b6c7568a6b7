"""Whole process, same file, alternating runs (issue "Speed"): the time of
``euchre-events audit FILE --from openspiel --json`` against a script that
replays the same action histories with ``pyspiel`` and ``legal_actions()``
at every decision.  Prints the best of ``--repeat`` runs of each and the
ratio; not a test.

    python benchmarks/bench_whole_job.py [--games 2000] [--repeat 3]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = next((p for p in (os.path.join(HERE, "..", "..", "shared", "tools", "openspiel_games.py"),
                        "/work/shared/tools/openspiel_games.py") if os.path.exists(p)), None)
EE = os.path.join(os.path.dirname(sys.executable), "euchre-events")

PYSPIEL_REPLAY = r'''
import json, sys
import pyspiel
games = {}
n = 0
with open(sys.argv[1]) as f:
    for line in f:
        d = json.loads(line)
        key = tuple(sorted(d["params"].items()))
        g = games.get(key) or games.setdefault(key, pyspiel.load_game("euchre", dict(d["params"])))
        s = g.new_initial_state()
        for step in d["steps"]:
            if not s.is_chance_node():
                s.legal_actions()
            s.apply_action(step["action"])
        n += 1
print(n)
'''


def timed(cmd: list) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    if GEN is None:
        sys.exit("needs ../shared/tools/openspiel_games.py (and pyspiel)")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "games.jsonl")
        subprocess.run([sys.executable, GEN, "--n", str(a.games), "--seed", "11", "--out", path],
                       check=True, capture_output=True)
        script = os.path.join(tmp, "replay.py")
        with open(script, "w") as f:
            f.write(PYSPIEL_REPLAY)
        ours, theirs = [], []
        for _ in range(a.repeat):   # alternate, so a busy machine favours neither
            ours.append(timed([EE, "audit", path, "--from", "openspiel", "--json"]))
            theirs.append(timed([sys.executable, script, path]))
    o, t = min(ours), min(theirs)
    print(f"{a.games} OpenSpiel games, whole process, best of {a.repeat}:")
    print(f"  euchre-events audit --from openspiel --json : {o:6.2f} s  ({a.games / o:8.0f} games/s)")
    print(f"  pyspiel replay with legal_actions()        : {t:6.2f} s  ({a.games / t:8.0f} games/s)")
    print(f"  ours / OpenSpiel time: {o / t:.2f}x (target: at most 0.67x, i.e. 1.5 times faster)")


if __name__ == "__main__":
    main()
