"""A whole archive analysed (issue 25): one task per stored game, on this
machine (``--workers N`` processes) or on an existing Dask cluster
(``--scheduler tcp://HOST:8786``), each game's result written to the
archive's read model as it finishes, in one transaction (the analysis cache
row of :meth:`ReadModels.cache_analysis` with the decision explorer's rows,
archive/explorer.py).  docs/analysis.md "A whole archive" says how to run it.

**Resumable.**  Before any task is sent, one query lists the analyses the
read model holds; a game whose analysis is there for this analysis version,
these parameters, its current number of events and this rules version is
skipped.  A run killed at any moment (SIGKILL included) has written whole
games only, so the next run does the rest.

**Who writes.**  On PostgreSQL each task reads its game from the archive and
writes its own result (every worker needs the archive's URL and the
package).  On SQLite (a file that a remote worker cannot reach, and one
writer at a time) the task gets the game's events and returns the result,
which this process writes.  Either way the write is keyed by the game and
the parameters and replaces what is there, so a task run twice (its worker
died after writing, the scheduler ran it again) leaves one row, and a task
whose worker died before writing is run again by the scheduler: nothing is
lost.  The queue, the retries and the transport are Dask's or the standard
library's (:mod:`concurrent.futures`); nothing here schedules.
"""
from __future__ import annotations

import json
import os
import time
from typing import Callable, List, Optional

from euchre_events.console import end_with, progress_bar, say, short_error

__all__ = ["analysis_params", "analyze_task", "run_corpus", "CorpusResult"]


def analysis_params(samples: int, seed: int, face_up_only: bool, seat: Optional[int],
                    deals: Optional[List[int]], line: Optional[int]) -> dict:
    """What a cached analysis depends on besides the game and the version."""
    return {"samples": 0 if face_up_only else samples, "seed": seed, "face_up_only": face_up_only,
            "seat": seat, "deals": sorted(deals) if deals else None, "line": line, "pass_value": "zero"}


# ------------------------------------------------------------------ in a worker
_OPEN: dict = {}
"""Per process: ``{db: (Archive, ReadModels)}``, opened once per worker."""


def _open(db: Optional[str]):
    got = _OPEN.get(db)
    if got is None:
        from euchre_events.archive import Archive
        from euchre_events.archive.explorer import ensure_tables
        from euchre_events.archive.readmodels import ReadModels
        arch = Archive(db)
        rm = ReadModels(arch)
        ensure_tables(rm.view)
        got = _OPEN[db] = (arch, rm)
    return got


def _forget_open(parent: Optional[int] = None) -> None:
    """A new worker process starts with no archive open (a forked copy of the
    parent's connection must not be used), and ends with the command's
    process ``parent`` (:func:`~euchre_events.console.end_with`)."""
    _OPEN.clear()
    if parent is not None:
        end_with(parent)


def analyze_task(spec: dict) -> dict:
    """One game's task (runs in any process: this one, a local worker, a Dask
    worker).  ``spec``: ``{"game_id", "params", "db", "events" (None: read
    from the archive ``db``), "write" (write the result here)}``.  Returns
    ``{"game_id", "status": "done" | "error", "seconds", "decisions",
    "error"?}`` and, when it did not write, ``"n_events"``, ``"doc"``
    (``GameAnalysis.to_json``) and ``"rows"`` (the explorer's) for the
    caller to write.  A game that cannot be read or analysed is
    ``"error"`` with the reason, never an exception (one bad game does not
    stop a corpus)."""
    from euchre_events.analysis.review import ANALYSIS_VERSION, analyze
    from euchre_events.archive.explorer import decision_rows, params_key, write_decisions
    from euchre_events.projections import Game
    t0 = time.perf_counter()
    gid = spec["game_id"]
    p = spec["params"]
    try:
        if spec.get("events") is not None:
            g = Game(spec["events"], game_id=gid)
        else:
            arch, _ = _open(spec["db"])
            g = arch.load(gid)
        a = analyze(g, deals=p["deals"], seat=p["seat"], samples=p["samples"] or 1, seed=p["seed"],
                    face_up_only=p["face_up_only"], game_id=gid)
        doc = a.to_json()
        rows = decision_rows(g, a, params_key(ANALYSIS_VERSION, p))
    except Exception as e:  # noqa: BLE001 (named and counted by the caller)
        from euchre_events.archive.errors import DamagedGame
        # a damaged game says itself what is wrong and what to run; the caller names the game
        why = str(e).removeprefix(f"game {gid}: ") if isinstance(e, DamagedGame) \
            else f"cannot be analysed ({short_error(e)})"
        return {"game_id": gid, "status": "error", "error": why,
                "seconds": time.perf_counter() - t0, "decisions": 0}
    out = {"game_id": gid, "status": "done", "decisions": len(a.decisions()), "n_events": len(g.events)}
    if spec.get("write"):
        _, rm = _open(spec["db"])
        rm.cache_analysis(gid, ANALYSIS_VERSION, p, len(g.events), doc,
                          extra=lambda view, cur: write_decisions(view, cur, rows))
    else:
        out.update(doc=doc, rows=rows)
    out["seconds"] = time.perf_counter() - t0
    return out


def store_result(rm, params: dict, result: dict) -> None:
    """Write a task's returned result (one transaction): the analysis cache
    row and the explorer's rows."""
    from euchre_events.analysis.review import ANALYSIS_VERSION
    from euchre_events.archive.explorer import write_decisions
    rows = result["rows"]
    rm.cache_analysis(result["game_id"], ANALYSIS_VERSION, params, result["n_events"], result["doc"],
                      extra=lambda view, cur: write_decisions(view, cur, rows))


# ------------------------------------------------------------------ the run
class CorpusResult:
    """What a run did: ``analysed``, ``skipped`` (done and current before),
    ``failed`` (``[(game_id, reason)]``), ``seconds`` (wall clock),
    ``task_seconds`` (the tasks' own time, summed), ``game_ids`` (every
    game of the run, in order)."""

    def __init__(self):
        self.analysed = 0
        self.skipped = 0
        self.failed: list = []
        self.seconds = 0.0
        self.task_seconds = 0.0
        self.decisions = 0
        self.game_ids: list = []

    def summary(self) -> str:
        rate = self.analysed / self.seconds if self.seconds > 0 else 0.0
        return (f"{_count(self.analysed, 'game')} analysed, {self.skipped} already done, "
                f"{len(self.failed)} failed ({_count(self.decisions, 'decision')}) in {self.seconds:.1f} s: "
                f"{rate:.2f} games/s")


def _count(n: int, noun: str) -> str:
    """``1 game``, ``0 games``, ``2 games``: ``n`` and ``noun``, plural unless one."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _is_postgres(rm) -> bool:
    return type(rm.view).__name__ == "PostgresClubView"


def pending(arch, rm, game_ids: list, params: dict) -> tuple:
    """``(todo, done)``: the games of ``game_ids`` whose analysis for
    ``params`` is missing or not current (a game appended to since, another
    analysis or rules version), and those it is there for (with the
    explorer's rows).  One query for the cache, one per game for its length
    (no event decoded); a cached game whose stored rows were changed since
    (:meth:`~euchre_events.archive.readmodels.ReadModels.changed_games`) is
    verified, and analysed again (its task naming the damage) unless intact."""
    from euchre_events.analysis.review import ANALYSIS_VERSION
    from euchre_events.archive.explorer import params_key
    from euchre_events.archive.readmodels import RULES_VERSION
    pkey = params_key(ANALYSIS_VERSION, params)
    have = {(r["game_id"], r["key"]) for r in rm.view.select(
        "SELECT game_id, key FROM {ee_rm_analysis} WHERE version = ?", (RULES_VERSION,))}
    rows = rm.view.select(f"SELECT game_id FROM {rm.view._t('ee_ex_games')} WHERE pkey = ? AND version = ?",
                          (pkey, RULES_VERSION))
    explored = {r["game_id"] for r in rows}
    # a game whose stored rows were changed since (the read models' triggers note them) is
    # verified: a damaged one is analysed again, and its task names the damage, never the
    # analysis cached from the game as it was (docs/design.md "Tamper evidence")
    changed = rm.changed_games() or set()
    todo, done = [], []
    for gid in game_ids:
        try:
            n = arch.game_length(gid)
        except Exception:  # noqa: BLE001 (the task names what is wrong)
            todo.append(gid)
            continue
        key = rm._analysis_key(ANALYSIS_VERSION, params, n)
        cached = (gid, key) in have and gid in explored
        if cached and gid in changed:
            try:
                cached = arch.verify(gid).ok
            except Exception:  # noqa: BLE001 (the task names what is wrong)
                cached = False
        (done if cached else todo).append(gid)
    return todo, done


def _bar(total: int, initial: int, show: Optional[bool]):
    return progress_bar(total, "analysing", show=show, initial=initial, unit="game", smoothing=0.1,
                        dynamic_ncols=True)


def run_corpus(game_ids: List[str], *, db: Optional[str], params: dict, workers: int = 1,
               scheduler: Optional[str] = None, progress: Optional[bool] = None,
               on_result: Optional[Callable[[dict], None]] = None, window: Optional[int] = None) -> CorpusResult:
    """Analyse the stored games ``game_ids`` (UUID strings) of the archive
    ``db`` (a file, a PostgreSQL URL, or None: the configured one) with
    analysis ``params`` (:func:`analysis_params`), skipping those done and
    current; each result goes into the read model as its game finishes.

    ``workers``: processes on this machine (1: this process);
    ``scheduler``: the address of a running Dask scheduler
    (``tcp://HOST:8786``; needs ``euchre-events[cluster]``), which then
    runs every task.  ``progress``: a bar with games/s and the time left
    (None: when stderr is a terminal).  ``window``: tasks in flight at once
    (default 4 per worker), so a million-game archive is never all in
    memory.  Raises RuntimeError when the scheduler cannot be reached or
    Dask is not installed."""
    from euchre_events.archive.explorer import ensure_tables
    res = CorpusResult()
    res.game_ids = list(game_ids)
    arch, rm = _open(db)
    ensure_tables(rm.view)
    todo, done = pending(arch, rm, [str(g) for g in game_ids], params)
    res.skipped = len(done)
    pg = _is_postgres(rm)
    t0 = time.perf_counter()
    bar = _bar(len(game_ids), len(done), progress)

    def spec(gid: str) -> dict:
        s = {"game_id": gid, "params": params, "db": db, "events": None, "write": True}
        if not pg and (workers > 1 or scheduler):
            # SQLite: the task carries its events and returns its result; this process writes
            s["write"] = False
            try:
                s["events"] = list(arch.load(gid).events)
            except Exception as e:  # noqa: BLE001
                s["error"] = f"cannot be read ({short_error(e)})"
        return s

    def finished(r: dict) -> None:
        if r["status"] == "done" and "doc" in r:
            store_result(rm, params, r)
        if r["status"] == "done":
            res.analysed += 1
            res.decisions += r.get("decisions", 0)
        else:
            res.failed.append((r["game_id"], r.get("error", "failed")))
            say(f"error: {r['game_id']}: {r.get('error')}", err=True)
        res.task_seconds += r.get("seconds", 0.0)
        if bar is not None:
            bar.update(1)
        if on_result is not None:
            on_result(r)

    try:
        if scheduler:
            _run_dask(todo, spec, finished, scheduler, window)
        elif workers > 1 and len(todo) > 1:
            _run_pool(todo, spec, finished, workers, window or 4 * workers)
        else:
            for gid in todo:
                finished(analyze_task(spec(gid)))
    finally:
        if bar is not None:
            bar.close()
        # this process's archive of the run let go now, while the interpreter is whole (kept
        # to its exit, a PostgreSQL datastore's __del__ raised there: "Exception ignored")
        _OPEN.pop(db, None)
    res.seconds = time.perf_counter() - t0
    return res


def _errored(s: dict) -> Optional[dict]:
    if "error" in s:
        return {"game_id": s["game_id"], "status": "error", "error": s["error"], "seconds": 0.0}
    return None


def _run_pool(todo: list, spec: Callable, finished: Callable, workers: int, window: int) -> None:
    """Local worker processes (``forkserver``: a worker never shares the
    parent's database connection), at most ``window`` tasks in flight."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    ctx = multiprocessing.get_context("forkserver")
    it = iter(todo)
    ex = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_forget_open,
                             initargs=(os.getpid(),))
    try:
        running: set = set()

        def fill():
            while len(running) < window:
                gid = next(it, None)
                if gid is None:
                    return
                s = spec(gid)
                bad = _errored(s)
                if bad is not None:
                    finished(bad)
                    continue
                running.add(ex.submit(analyze_task, s))
        fill()
        while running:
            ready, _ = wait(running, return_when=FIRST_COMPLETED)
            for f in ready:
                running.discard(f)
                finished(f.result())
            fill()
    except BaseException:
        # Ctrl-C or a failure: the games in flight are stopped, not waited for (their
        # results would be dropped; each finished game is already written, so a rerun
        # goes on from there)
        stop_pool(ex)
        raise
    ex.shutdown()


def stop_pool(ex) -> None:
    """Stop the ``concurrent.futures.ProcessPoolExecutor`` ``ex`` at once:
    the tasks not begun dropped, the worker processes running terminated
    (SIGTERM), not waited for (Ctrl-C: a whole game's analysis can take
    minutes)."""
    running = list((getattr(ex, "_processes", None) or {}).values())
    ex.shutdown(wait=False, cancel_futures=True)
    for p in running:
        p.terminate()


def task_key(spec: dict) -> str:
    """The Dask key of a game's task: the game and the parameters (the same
    task has the same key, so a second client asking for it shares it)."""
    import hashlib   # here: the analyze command's start-up needs no hashlib
    h = hashlib.sha1(json.dumps(spec["params"], sort_keys=True).encode()).hexdigest()[:12]
    return f"ee-analyze-{spec['game_id']}-{h}"


def _run_dask(todo: list, spec: Callable, finished: Callable, scheduler: str, window: Optional[int]) -> None:
    """The tasks on the Dask cluster at ``scheduler``: at most ``window``
    in flight (default 4 per worker thread); a task whose worker dies is
    run again by the scheduler (its ``allowed-failures``)."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise RuntimeError("--scheduler needs Dask: pip install 'euchre-events[cluster]'") from None
    try:
        client = Client(scheduler, timeout=os.environ.get("EUCHRE_EVENTS_DASK_TIMEOUT", "10s"))
    except (OSError, TimeoutError) as e:
        raise RuntimeError(f"cannot reach the Dask scheduler {scheduler}: {short_error(e)}") from None
    try:
        if window is None:
            window = max(4, 4 * sum(client.nthreads().values()))
        it = iter(todo)
        ac = as_completed()

        def submit_one() -> bool:
            while True:
                gid = next(it, None)
                if gid is None:
                    return False
                s = spec(gid)
                bad = _errored(s)
                if bad is not None:
                    finished(bad)
                    continue
                ac.add(client.submit(analyze_task, s, key=task_key(s), pure=False))
                return True
        for _ in range(window):
            if not submit_one():
                break
        for fut in ac:
            r = fut.result()
            fut.release()
            finished(r)
            submit_one()
    finally:
        client.close()
