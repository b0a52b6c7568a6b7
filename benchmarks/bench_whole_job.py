#!/usr/bin/env python3
"""Whole process, same file, alternating runs (issue "Speed"): the time of
``euchre-events audit FILE --from openspiel --json`` (and ``--format jsonl``)
against a script that replays the same action histories with ``pyspiel``
and ``legal_actions()`` at every decision.  Prints the best wall time and
the best CPU time (user + system of the child process and its worker
processes) of ``--repeat`` runs of each, and the ratios; not a test.  The
default audit of a file this big uses the cores (``--workers``, at most
4); ``--workers 1`` is one process.

    python benchmarks/bench_whole_job.py [--games 10000] [--repeat 3] [--valgrind N]
                                         [--baseline 'python /tmp/base/ee.py']

``--valgrind N`` also counts CPU instructions (``valgrind --tool=cachegrind
--cache-sim=no``, one run each on the first N games of the file), which a
busy machine does not disturb: the numbers to judge a change by on shared
cores (benchmarks/README.md).  The games are made by
``../shared/tools/openspiel_games.py`` (OpenSpiel's default parameters,
seed 11), the file our reader and the pyspiel script both read.
"""
from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
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


def timed(cmd: list) -> tuple:
    """``(wall seconds, CPU seconds)`` of one run of ``cmd`` (output dropped)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        raise SystemExit(f"{cmd} failed (status {status})")
    return wall, ru.ru_utime + ru.ru_stime


def instructions(cmd: list) -> int:
    """CPU instructions of one run of ``cmd`` under cachegrind."""
    with tempfile.NamedTemporaryFile(suffix=".cg") as out:
        env = dict(os.environ, PYTHONHASHSEED="0")
        r = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                            f"--cachegrind-out-file={out.name}"] + cmd, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        m = re.search(r"I\s+refs:\s+([\d,]+)", r.stderr)
        return int(m.group(1).replace(",", "")) if m else -1


def compile_bytecode() -> str:
    """Compile the package's modules to bytecode (``__pycache__``) where
    they are not, as ``pip install`` of the wheel does, so that each run
    starts as an installed command starts (a checkout installed with ``-e``
    on a machine with ``PYTHONDONTWRITEBYTECODE`` would compile every module
    at every start).  Returns what was done, for the report ("" if nothing)."""
    import compileall
    import importlib.util
    spec = importlib.util.find_spec("euchre_events")
    if spec is None or not spec.submodule_search_locations:
        return ""
    pkg = list(spec.submodule_search_locations)[0]
    if os.path.isdir(os.path.join(pkg, "__pycache__")) and not os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return ""
    compileall.compile_dir(pkg, quiet=1)
    return f"python -m compileall {pkg}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--valgrind", type=int, default=0, metavar="N",
                    help="also count instructions on the first N games (0: no)")
    ap.add_argument("--baseline", metavar="CMD",
                    help="also time this command (e.g. 'python /tmp/base/ee.py', the code "
                         "before a change, unpacked with git archive) with --json")
    a = ap.parse_args()
    if GEN is None:
        sys.exit("needs ../shared/tools/openspiel_games.py (and pyspiel)")
    compiled = compile_bytecode()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "games.jsonl")
        subprocess.run([sys.executable, GEN, "--n", str(a.games), "--seed", "11", "--out", path],
                       check=True, capture_output=True)
        script = os.path.join(tmp, "replay.py")
        with open(script, "w") as f:
            f.write(PYSPIEL_REPLAY)
        runs = {
            "euchre-events audit --from openspiel --json": [EE, "audit", path, "--from", "openspiel", "--json"],
            "euchre-events audit --format jsonl": [EE, "audit", path, "--format", "jsonl"],
            "euchre-events audit --format jsonl --workers 1": [EE, "audit", path, "--format", "jsonl",
                                                               "--workers", "1"],
            "pyspiel replay with legal_actions()": [sys.executable, script, path],
        }
        if a.baseline:
            runs["baseline audit --from openspiel --json"] = shlex.split(a.baseline) + [
                "audit", path, "--from", "openspiel", "--json"]
        times = {k: [] for k in runs}
        for _ in range(a.repeat):   # alternate, so a busy machine favours none
            for k, cmd in runs.items():
                times[k].append(timed(cmd))
        counts = {}
        if a.valgrind and shutil.which("valgrind"):
            small = os.path.join(tmp, "small.jsonl")
            with open(path) as f, open(small, "w") as g:
                for _, line in zip(range(a.valgrind), f):
                    g.write(line)
            for k, cmd in runs.items():
                counts[k] = instructions([c if c != path else small for c in cmd])
    ref = "pyspiel replay with legal_actions()"
    best = {k: (min(w for w, _ in v), min(c for _, c in v)) for k, v in times.items()}
    print(f"{a.games} OpenSpiel games (default parameters), whole process, best of {a.repeat} "
          "alternating runs:")
    for k, (w, c) in best.items():
        line = f"  {k:45s}: wall {w:6.2f} s ({a.games / w:7.0f} games/s), CPU {c:6.2f} s"
        if k != ref:
            line += f"; time / pyspiel's: wall {w / best[ref][0]:.2f}x, CPU {c / best[ref][1]:.2f}x"
        print(line)
    print("  target: ours at most 0.67x pyspiel's time (1.5 times faster)")
    if compiled:
        print(f"  (the package's bytecode was compiled first, as installing it does: {compiled})")
    if counts:
        print(f"instructions, first {a.valgrind} games (valgrind, one run each):")
        for k, n in counts.items():
            extra = f"  ({n / counts[ref]:.2f}x pyspiel's)" if k != ref else ""
            print(f"  {k:45s}: {n / 1e6:9.1f} M{extra}")


if __name__ == "__main__":
    main()
