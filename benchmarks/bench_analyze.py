#!/usr/bin/env python3
"""The analyze command from file to answer (issue 21, "Speed"); prints numbers, not a test.

1. ``analyze --face-up-only --format json`` of N one-deal games (OpenSpiel's random standard
   games, made by ``../shared/tools/openspiel_games.py`` when pyspiel is there, otherwise
   seeded random legal games of ``rules.simulate`` written as our text notation), every
   decision valued: wall time per deal, start-up included (goal: at most 2 ms a deal).
   The anchor, measured in the same run: ``audit`` of the same file (reading and folding
   only), so the ratio says what the analysis adds.  Each run's exit code is checked (a
   failed run is reported, never timed), and its CPU time (user + system of the child and
   of its worker processes, ``resource.getrusage``) is printed beside the wall time: on a
   machine shared with other jobs the CPU time is the steadier figure.  The same command
   with ``--workers 2`` (the games over two forked processes) is timed in turn with it,
   with the load average of the machine at the start.  The commands run with bytecode caching on, as
   an installed package runs (``PYTHONDONTWRITEBYTECODE`` is dropped from their environment;
   the first run writes the ``__pycache__`` folders).  ``--before DIR``: the same command from another
   checkout of the package (e.g. ``git worktree add /tmp/before main``), timed in turn
   with this one, so that before and after are measured in the same run.  ``--installed``:
   each checkout also as the user runs it, installed (not editable) in a new virtual
   environment as the README's ``pip install`` makes it, its ``euchre-events`` command run
   from a folder outside the checkout: a checkout's development environment starts some
   10 ms slower (the editable install's finder and the ``pathlib`` it imports at every
   start).  The new environment takes the dependencies from this one's ``site-packages``
   (a ``.pth`` line), so that nothing is downloaded: the package itself is built and
   installed from the checkout (its wheel built by this environment's ``pip wheel
   --no-deps --no-build-isolation``, then ``pip install --no-deps``).
2. Whole-game analysis of ``fixtures/egn/VWEC Finals.egn`` (13 deals), face up and a
   ``--samples`` seat view for every decision: wall time with ``--workers 1`` and ``2``
   (goal: at most 20 s on a 2-core machine).
3. One decision's seat view (200 samples) as the viewer asks it, in process: median of a
   mid-play and an auction decision of the same game (goal: 300 ms).

    python benchmarks/bench_analyze.py [--games 100] [--samples 200] [--repeat 3] [--skip-game]
                                       [--only-face-up] [--before DIR]
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
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


def installed(root: str, venv: str) -> str:
    """The ``euchre-events`` command of the checkout ``root`` installed (not
    editable) in a new virtual environment ``venv``, whose dependencies are
    this interpreter's (a ``.pth`` line naming its ``site-packages``); its path.
    SystemExit naming the step that failed."""
    import site
    import sysconfig
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    purelib = subprocess.run([os.path.join(venv, "bin", "python"), "-c",
                              "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    ours = [p for p in site.getsitepackages() if os.path.isdir(p)] or [sysconfig.get_paths()["purelib"]]
    with open(os.path.join(purelib, "zz-bench-deps.pth"), "w") as f:
        f.write("\n".join(ours) + "\n")
    # the wheel built by this environment's setuptools (the new one's may be older than
    # pyproject.toml asks), then installed in the new one
    wheels = os.path.join(venv, "wheel")
    for cmd in ([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", wheels, root],
                None):
        if cmd is None:
            whl = [os.path.join(wheels, w) for w in os.listdir(wheels) if w.endswith(".whl")]
            cmd = [os.path.join(venv, "bin", "pip"), "install", "-q", "--no-deps"] + whl
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr[-500:]}")
    return os.path.join(venv, "bin", "euchre-events")


def timed(cmd: list, root: str = ROOT, cwd: str = None) -> tuple:
    """``(wall seconds, CPU seconds)`` of running ``cmd`` with the package of the
    checkout ``root``; SystemExit naming the
    command when it fails (a failed run is no measurement)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    # python -m puts the working folder first on the path: run in the checkout measured
    env = dict(os.environ, PYTHONPATH=root)
    if cwd is not None and cwd != root:
        env.pop("PYTHONPATH")       # an installed command: its own package, not the checkout's
    # as installed (pip compiles the bytecode): a shell with PYTHONDONTWRITEBYTECODE would
    # compile every module again at each start (about 0.1 s)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False, env=env, cwd=cwd or root)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.decode(errors='replace')[-500:]}")
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-game", action="store_true", help="leave out the whole VWEC game (2)")
    ap.add_argument("--only-face-up", action="store_true", help="measure 1 only")
    ap.add_argument("--before", help="another checkout of the package, timed in turn with this one")
    ap.add_argument("--installed", action="store_true",
                    help="time each checkout installed (not editable) in a new venv too, as a user runs it")
    a = ap.parse_args()
    py = sys.executable
    runs = [("this", ROOT)] + ([("before", os.path.abspath(a.before))] if a.before else [])
    with tempfile.TemporaryDirectory() as d:
        path = one_deal_games(a.games, d)
        out = os.path.join(d, "out.json")
        # (name, checkout, the command's first words, its working folder)
        cmds = [(name, root, [py, "-m", "euchre_events"], root) for name, root in runs]
        if a.installed:
            cmds += [(name + ", installed", root, [installed(root, os.path.join(d, f"venv-{k}"))], d)
                     for k, (name, root) in enumerate(runs)]
        load = os.getloadavg()
        # the command as typed (no --workers: the cores, at most 4, for this file's size), then
        # one process and two; an older checkout's default may be one process
        modes = (("", []), ("--workers 1", ["--workers", "1"]), ("--workers 2", ["--workers", "2"]))
        got: dict = {(name, w): [] for name, *_ in cmds for w, _ in modes}
        anchor = []
        for _ in range(a.repeat):
            anchor.append(timed([py, "-m", "euchre_events", "audit", path, "--json"], ROOT))
            for name, root, first, cwd in cmds:
                for w, flag in modes:
                    got[name, w].append(timed(first + ["analyze", path, "--face-up-only", "--format", "json",
                                                       "-o", out] + flag, root, cwd))
        ac = min(c for _, c in anchor)
        aw = min(w for w, _ in anchor)
        print(f"   load average at the start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (other jobs on the "
              f"{os.cpu_count()} cores slow the wall times, of --workers 2 most)")
        for name, root, *_ in cmds:
            for workers, _ in modes:
                runs_ = got[name, workers]
                w, c = min(x for x, _ in runs_), min(y for _, y in runs_)
                print(f"1. analyze --face-up-only of {a.games} one-deal games ({os.path.basename(path)}), "
                      f"{workers or 'no --workers (as typed)'}, {name} ({root}): best of {a.repeat}: "
                      f"{1000 * c / a.games:.2f} ms CPU "
                      f"a deal all-in (parent + workers), {1000 * w / a.games:.2f} ms wall (goal 2 ms); audit of "
                      f"the same file {1000 * ac / a.games:.2f} ms CPU a deal ({1000 * aw / a.games:.2f} wall); "
                      f"ratio {c / ac:.1f}x CPU, {w / aw:.1f}x wall")
                print("   every run (wall s, CPU s): " + ", ".join(f"({x:.2f}, {y:.2f})" for x, y in runs_))
    if a.only_face_up:
        return
    if not a.skip_game:
        for w in (1, 2):
            t, c = timed([py, "-m", "euchre_events", "analyze", VWEC, "--samples", str(a.samples), "--workers",
                          str(w), "--format", "json", "-o", os.devnull], ROOT)
            print(f"2. VWEC Finals (13 deals), face up + {a.samples}-sample seat view, --workers {w}: "
                  f"{t:.1f} s wall, {c:.1f} s CPU (goal 20 s)")
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
