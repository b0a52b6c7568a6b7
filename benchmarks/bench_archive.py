"""Archive speed, two source trees side by side (run by hand, not a test).

    python benchmarks/bench_archive.py --tree /tmp/ee-baseline --tree . --repeat 9
    python benchmarks/bench_archive.py --tree /tmp/ee-baseline --tree . --valgrind

For each ``--tree`` (a checkout of euchre_events, put first on ``sys.path``
of a child process, so two versions run under the same interpreter and
libraries) and each of ``--repeat`` rounds, the trees taking turns:

* **import**: ``euchre-events import`` (the CLI's ``main()``) of
  ``fixtures/egn/match/*.egn`` plus every ``fixtures/*/*.euchre`` into a
  fresh SQLite file: the time of ``main()`` in the child (reading, checking
  and storing every game; Python start-up and module imports excluded),
  wall clock and CPU time of the process;
* **load**: ``Archive(db).load(gid)`` of ``fixtures/egn/VWEC Finals.egn``
  (353 events) stored in a fresh file: median of 15 loads, each with a new
  ``Archive`` (as a new process would), and median of 15 on one open archive.

Prints each round, then the median and the minimum of the rounds per tree,
in milliseconds.  On a shared machine wall-clock times vary by tens of per
cent from run to run; ``--valgrind`` instead counts the CPU instructions of
the same work (``valgrind --tool=cachegrind --cache-sim=no``, one run per
tree, minus a run that does everything but the measured work), which does
not depend on the load: import of all the files, and one ``Archive(db).load``
(the mean of 5).  The fixtures are read from this checkout, whatever the trees.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import contextlib, io, json, os, statistics, sys, time
tree, what, n, db, out = sys.argv[1:6]
n = int(n)
files = sys.argv[6:]
sys.path.insert(0, tree)
import euchre_events
assert os.path.dirname(euchre_events.__file__) == os.path.join(tree, "euchre_events"), euchre_events.__file__
res = {}
if what == "import":
    from euchre_events.cli import main
    import euchre_events.archive, euchre_events.formats.egn, euchre_events.formats.text, tqdm
    sys.argv = ["euchre-events", "import", "--db", db, *files]
    t0, c0 = time.perf_counter(), time.process_time()
    with contextlib.redirect_stdout(io.StringIO()) as buf:
        try:
            if n:
                main()
        except SystemExit as e:
            res["exit"] = e.code
    res["ms"] = (time.perf_counter() - t0) * 1e3
    res["cpu_ms"] = (time.process_time() - c0) * 1e3
    res["games"] = len(buf.getvalue().splitlines())
else:
    from euchre_events.archive import Archive
    from euchre_events.formats import read_records
    gid, _ = Archive(db).import_record(read_records(files[0])[0])
    fresh, warm = [], []
    for _ in range(n):
        t0 = time.perf_counter(); g = Archive(db).load(gid); fresh.append(time.perf_counter() - t0)
    arch = Archive(db)
    for _ in range(n if n > 5 else 0):
        t0 = time.perf_counter(); g = arch.load(gid); warm.append(time.perf_counter() - t0)
    res = {"fresh_ms": statistics.median(fresh or [0]) * 1e3, "open_ms": statistics.median(warm or [0]) * 1e3,
           "events": len(g.events) if n else 0}
with open(out, "w") as f:
    json.dump(res, f)
"""


def run(tree: str, what: str, n: int, files: list, valgrind: bool = False):
    """One child run; returns its measurements (and with ``valgrind`` its
    instruction count under the key ``"Ir"``)."""
    with tempfile.TemporaryDirectory() as tmp:
        db, out = os.path.join(tmp, "bench.sqlite"), os.path.join(tmp, "out.json")
        cmd = [sys.executable, "-c", CHILD, tree, what, str(n), db, out, *files]
        if valgrind:
            cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no",
                   f"--cachegrind-out-file={tmp}/cg.out"] + cmd
        env = dict(os.environ, PYTHONHASHSEED="0")
        env.pop("PERSISTENCE_MODULE", None)
        p = subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True, cwd=tmp, env=env)
        with open(out) as f:
            res = json.load(f)
        if valgrind:
            m = re.search(r"I\s+refs:\s+([\d,]+)", p.stderr)
            res["Ir"] = int(m.group(1).replace(",", ""))
        return res


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", action="append", required=True, help="a source tree (give two or more)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--valgrind", action="store_true", help="count instructions instead of timing")
    a = ap.parse_args(argv)
    trees = [os.path.abspath(t) for t in a.tree]
    files = sorted(glob.glob(str(ROOT / "fixtures" / "egn" / "match" / "*.egn"))) + \
        sorted(glob.glob(str(ROOT / "fixtures" / "*" / "*.euchre")))
    vwec = [str(ROOT / "fixtures" / "egn" / "VWEC Finals.egn")]
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; import of {len(files)} files")
    if a.valgrind:
        for t in trees:
            imp = run(t, "import", 1, files, True)["Ir"] - run(t, "import", 0, files, True)["Ir"]
            load = (run(t, "load", 5, vwec, True)["Ir"] - run(t, "load", 0, vwec, True)["Ir"]) / 5
            print(f"  {t}: import {imp / 1e6:,.0f} M instructions; one load {load / 1e6:,.1f} M instructions")
        return
    keys = ("import", "import_cpu", "fresh", "open")
    rows = {t: {k: [] for k in keys} for t in trees}
    for r in range(a.repeat):
        for t in trees:
            imp = run(t, "import", 1, files)
            load = run(t, "load", 15, vwec)
            for k, v in zip(keys, (imp["ms"], imp["cpu_ms"], load["fresh_ms"], load["open_ms"])):
                rows[t][k].append(v)
            print(f"round {r + 1} {t}: import {imp['ms']:.0f} ms (CPU {imp['cpu_ms']:.0f} ms; {imp['games']} "
                  f"games, exit {imp.get('exit')}); load {load['fresh_ms']:.1f} ms new Archive, "
                  f"{load['open_ms']:.1f} ms open ({load['events']} events)")
    for name, f in (("medians", statistics.median), ("minima", min)):
        print(f"{name} of the rounds:")
        for t in trees:
            m = {k: f(v) for k, v in rows[t].items()}
            print(f"  {t}: import {m['import']:.0f} ms (CPU {m['import_cpu']:.0f} ms); load "
                  f"{m['fresh']:.1f} ms new Archive, {m['open']:.1f} ms open")


if __name__ == "__main__":
    main()
