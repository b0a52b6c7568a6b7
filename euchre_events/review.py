"""The ``analyze`` command's job, without typer: read the games (record files
or stored games), analyse them (with ``--workers``, in worker processes: a
few runs of games each, or a single game's deals one each), keep the
results in the archive's analysis cache, and write the report
(docs/analysis.md).
"""
from __future__ import annotations

import os
import sys
from typing import Callable, List, Optional, Sequence

from euchre_events.console import (DB_HELP, FROM_HELP, choose_workers, emit_report, end_with, fail, progress_bar,
                                   say, short_error, warn)
from euchre_events.corpus import analysis_params, stop_pool
from euchre_events.options import Option, completing, parse_options, run_door

__all__ = ["run_analysis", "analysis_params", "analysis_notes", "game_analysis", "ENGINE_NOTE",
           "ANALYZE_OPTIONS", "plain_analyze", "quick_analyze"]

ENGINE_NOTE = "euchre-events analysis"
"""How an annotation written by the analysis begins: it marks the engine's
notes apart from a person's (``export --with-analysis``)."""


def _deal_task(args):
    """One deal in a worker process: ``(events, deal, kwargs) -> DealAnalysis``."""
    from euchre_events.analysis.review import analyze_deal
    from euchre_events.projections import Game
    events, deal, kw = args
    return analyze_deal(Game(events), deal, **kw)


_GAMES: list = []
"""The games of a pool over games (:func:`_analyze_games`), ``(game,
keyword arguments of analyze)`` each: filled before the workers are forked,
so that a task is two indices into it and no game is pickled on the way."""


def _worker_start(games=None, parent: Optional[int] = None) -> None:
    """In a worker process of a pool over games: Ctrl-C is the parent's to
    handle (a worker that took it too would print its own traceback);
    ``games``: :data:`_GAMES` where the workers are not forked (sent once
    to each); the process ends with the command's process ``parent``, even
    killed (:func:`~euchre_events.console.end_with`)."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if games is not None:
        _GAMES[:] = games
    if parent is not None:
        end_with(parent)


def _games_task(span):
    """Games ``_GAMES[start:stop]`` (``span``) in a worker process: for each,
    its GameAnalysis or the KeyError that stopped it (named by the parent,
    in the report's order)."""
    from euchre_events.analysis.review import analyze
    out = []
    for game, kw in _GAMES[span[0]:span[1]]:
        try:
            out.append(analyze(game, **kw))
        except KeyError as e:
            out.append(KeyError(*e.args))
    return out


def _spans(weights: Sequence[int], parts: int) -> list:
    """``(start, stop)`` of at most ``parts`` contiguous runs of
    ``weights`` (a game's number of deals), of about equal sums."""
    total = sum(weights) or 1
    spans, start, acc = [], 0, 0
    for i, w in enumerate(weights):
        acc += w
        if acc * parts >= total * (len(spans) + 1) and i + 1 < len(weights):
            spans.append((start, i + 1))
            start = i + 1
    spans.append((start, len(weights)))
    return spans


TASKS_PER_WORKER = 4
"""Runs of games per worker process (:func:`_analyze_games`): a few, so that
a worker that a busy core slows down is not waited for at the end; each
costs a round trip (~1 ms), nothing beside its games."""


def _analyze_games(jobs: list, workers: int, counts: Optional[Sequence[int]]) -> list:
    """:func:`analyze` of the ``jobs`` (``(game, keyword arguments)``) in
    ``workers`` processes, forked after the games were read (the default
    start method where there is no fork), a few contiguous runs of games
    each (:func:`_spans`, weighed by deals; a small first game here, before
    the fork); the results in the order of ``jobs``: a GameAnalysis or the
    KeyError of a game that failed.  One
    progress bar of the ``counts`` (decisions of each game; None: no bar)
    advances as runs finish."""
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor, as_completed
    forked = "fork" in mp.get_all_start_methods()
    weights = [len(kw["deals"]) for _, kw in jobs]
    parts = TASKS_PER_WORKER * workers
    _GAMES[:] = jobs
    try:
        # a process's first analysis builds what the later ones reuse (~14 ms of a one-deal
        # game's 18): done here once, before the fork, when the first game is a small share
        first = _games_task((0, 1)) if forked and 2 * parts * weights[0] <= sum(weights) else []
        spans = [(len(first) + a, len(first) + b) for a, b in _spans(weights[len(first):], parts)]
        results: list = [first] + [None] * len(spans)
        ex = ProcessPoolExecutor(max_workers=min(workers, len(spans)),
                                 mp_context=mp.get_context("fork" if forked else None),
                                 initializer=_worker_start, initargs=(None if forked else jobs, os.getpid()))
        bar = None
        try:
            todo = {ex.submit(_games_task, span): k for k, span in enumerate(spans, 1)}
            # the bar (and its thread) after the fork: the submits started the workers
            bar = _bar(sum(counts), f"analysing {len(jobs)} games") if counts else None
            if bar is not None:
                bar.update(sum(counts[:len(first)]))
            for f in as_completed(todo):
                k = todo[f]
                results[k] = f.result()
                if bar is not None:
                    bar.update(sum(counts[spans[k - 1][0]:spans[k - 1][1]]))
        except BaseException:
            # Ctrl-C (the workers leave it to this process) or a failure: the runs not begun
            # are dropped and the running ones stopped, not waited for
            stop_pool(ex)
            raise
        finally:
            if bar is not None:
                bar.close()
        ex.shutdown()
    finally:
        _GAMES.clear()
    return [r for run in results for r in run]


STREAM_RUNS = 8
"""Runs of the JSON Lines files' games per worker process
(:func:`_stream_units`): a few, so that a worker that a busy core slows
down is not waited for at the end; each costs a message from the worker
(some 0.1 ms), nothing beside its games."""

_MAX_UNITS = 8000
"""At most this many parts of the files for the worker processes: their
numbers are written at once into a pipe (64 KiB: 4 bytes each)."""


def _stream_units(items: List[str], from_: Optional[str], workers: int) -> Optional[list]:
    """The parts of the record files ``items`` that the worker processes of
    :func:`_stream_files` read and analyse, in the order of the report:
    ``(file, span, bytes)``, span None for a whole file (read as
    :func:`run_analysis` reads it), or a run of a JSON Lines file's lines
    (:func:`~euchre_events.formats.openspiel.openspiel_spans`: the head,
    then about :data:`STREAM_RUNS` runs per worker over all the files, by
    their bytes).  None where that does not pay (a single part) or cannot
    be balanced (a whole file of more than a worker's share: its games go
    to the workers one by one, :func:`_analyze_games`)."""
    from euchre_events.formats import RecordError, detect_format
    from euchre_events.formats.openspiel import openspiel_spans
    sizes = []
    for item in items:
        try:
            sizes.append(os.path.getsize(item) if os.path.isfile(item) else 0)
        except OSError:
            sizes.append(0)
    total = sum(sizes)
    units: list = []
    for item, size in zip(items, sizes):
        spans = None
        if size:
            try:
                if detect_format(item, from_) == "openspiel":
                    spans = openspiel_spans(item, max(1, round(STREAM_RUNS * workers * size / total)))
            except (RecordError, OSError):
                spans = None     # said when the file is read
        if spans is None:
            units.append((item, None, size))
        else:
            units.extend((item, sp, sp[1] - sp[0]) for sp in spans)
    if len(units) < 2 or len(units) > _MAX_UNITS or \
            workers * max((w for _, sp, w in units if sp is None), default=0) > total:
        return None
    return units


def _unit_result(unit, *, read, deals, seat, samples, seed, face_up_only, report, all_decisions) -> dict:
    """What :func:`_stream_files` needs of a part ``unit`` of the files
    (:func:`_stream_units`), read and analysed here (a worker process):
    ``errors`` (the reading errors' texts), ``warnings`` (lines), ``refused``
    (the JSON Lines file is refused in this part: nothing after it counts),
    ``failed`` (a reading that raised: the file's one error), ``broken``
    (the file-level error of a record that could not be made a game), and
    ``records``: for each good record in order, ``("error", line, text)``
    (a seat or a deal it lacks, named by the parent, which knows where),
    ``("fail", None, text)`` (the analysis refused it) or ``("game", None,
    part)``: the game's piece of the report (JSON or text already written,
    html the GameAnalysis)."""
    from euchre_events.analysis.review import analyze
    from euchre_events.console import reading_error, warning_lines
    from euchre_events.formats import RecordError
    from euchre_events.formats.openspiel import read_openspiel_span
    from euchre_events.rules.seats import parse_seat
    item, span, _ = unit
    out: dict = {"errors": [], "warnings": [], "records": [], "refused": False, "failed": None, "broken": None}
    try:
        if span is None:
            recs, errs = read(item)
        else:
            try:
                got, out["refused"] = read_openspiel_span(item, *span)
            except Exception as e:    # as read_file names a reading that raised
                out["failed"] = str(reading_error(item, e))
                return out
            recs = [r for r in got if not isinstance(r, RecordError)]
            errs = [r for r in got if isinstance(r, RecordError)]
        part = [_in_part(item, e) for e in errs] if span is None else [None] * len(errs)
        out["errors"] = [str(e) + (IN_PART if g is not None else "") for e, g in zip(errs, part)]
        todo = [(r.game if r.game is not None else _game_of(r.events), r) for r in recs]
        todo += [(g, None) for g in part if g is not None]
        for r in recs:
            out["warnings"].extend(warning_lines(item, r))
    except (RecordError, KeyError, ValueError) as e:
        out["broken"] = f"{item}: {e}"
        return out
    except Exception as e:
        out["broken"] = f"{item}: cannot be read ({short_error(e)})"
        return out
    for g, rec in todo:
        where = _line_of(item, rec)
        try:
            s = parse_seat(seat, g.players) if seat else None
        except ValueError as e:
            out["records"].append(("error", where, _no_seat(seat, e)))
            continue
        try:
            numbers = _deal_numbers(g, deals)
        except KeyError as e:
            out["records"].append(("error", where, e.args[0]))
            continue
        try:
            a = analyze(g, deals=numbers, seat=s, samples=samples, seed=seed, face_up_only=face_up_only,
                        game_id=None, file=item)
        except KeyError as e:
            out["records"].append(("fail", None, e.args[0]))
            continue
        out["records"].append(("game", None, _report_part(a, report, all_decisions)))
    return out


IN_PART = "; read in part: the other deals are analysed"
"""What follows the error of an EGN file with an impossible deal whose other
deals are analysed (:func:`_in_part`), as ``audit`` says it of its audit."""


def _in_part(item: str, e, from_: Optional[str] = None):
    """The game of the deals of the EGN file ``item`` that can be read, for
    its error ``e`` naming a deal that cannot have happened, or None
    (:func:`~euchre_events.formats.egn.egn_in_part`).  Real records are
    messy: the deals that happened are analysed, as ``audit`` audits them;
    the impossible deal stays an error (exit 1)."""
    from euchre_events.formats.egn import egn_in_part
    read = egn_in_part(item, e, from_)
    return None if read is None else read[0]


def _no_seat(seat: str, e: ValueError) -> str:
    """How a game that lacks the seat ``--seat`` asks is named (after where it stands)."""
    return f"--seat {seat}: {e}"


def _report_part(a, report: str, all_decisions: bool):
    """A GameAnalysis's piece of the report: its JSON or text as the report
    writes it, the object itself for html (:func:`_emit_analyses`)."""
    if report == "json":
        from euchre_events.analysis.review import json_game_part
        return json_game_part(a)
    if report == "text":
        from euchre_events.ui.analysisreport import analysis_text_part
        return analysis_text_part(a, all_decisions)
    return a


def _stream_files(units: list, workers: int, *, read, deals, seat, samples: int, seed: int, face_up_only: bool,
                  report: str, output: Optional[str], all_decisions: bool) -> None:
    """:func:`run_analysis` of record files in ``workers`` forked processes
    that read the files too: each takes the next part of them
    (:func:`_stream_units`) and sends back what :func:`_unit_result` gives,
    the games' report already written; this process says the errors and
    warnings and writes the report as :func:`run_analysis` does with one
    process, the same bytes in the same order (the reading's messages, the
    analysis's errors, the report, exit 1 after an error).  The first part,
    when small (a JSON Lines file's first game), is done here before the
    fork: a process's first analysis builds what the later ones reuse."""
    kw = dict(read=read, deals=deals, seat=seat, samples=samples, seed=seed, face_up_only=face_up_only,
              report=report, all_decisions=all_decisions)
    results: list = [None] * len(units)
    total = sum(w for _, _, w in units)
    first = 1 if 2 * STREAM_RUNS * workers * units[0][2] <= total else 0
    if first:
        results[0] = _unit_result(units[0], **kw)
    plan: list = []      # ("error", {"file", "error"}) | ("fail", item, text) | ("game", item, part)
    said = [0, 0]        # the files, and the parts, whose reading is said

    def say_read() -> None:
        # the reading's messages of each file whose parts are all in, in the files' order
        while said[1] < len(units):
            item = units[said[1]][0]
            end = said[1]
            while end < len(units) and units[end][0] == item:
                end += 1
            if any(r is None for r in results[said[1]:end]):
                return
            _plan_file(item, results[said[1]:end], plan)
            said[1] = end

    say_read()

    bar: list = []       # made at the first part done, after the fork (its thread is not forked)

    def got(k: int, res: dict) -> None:
        results[k] = res
        if not bar:
            bar.append(progress_bar(total, "analysing", least=4096, leave=False, unit="B", unit_scale=True,
                                    initial=units[0][2] if first else 0))
        if bar[0] is not None:
            bar[0].update(units[k][2])
        say_read()

    exiting: list = []   # the workers done, still ending: waited for once the report is written
    try:
        try:
            _fork_map(lambda k: _unit_result(units[k], **kw), list(range(first, len(units))), workers, got,
                      exiting)
        finally:
            if bar and bar[0] is not None:
                bar[0].close()
        _stream_end(plan, say_read, report, output, all_decisions)
    finally:
        for pid in exiting:
            os.waitpid(pid, 0)


def _stream_end(plan: list, say_read: Callable, report: str, output: Optional[str], all_decisions: bool) -> None:
    """The end of :func:`_stream_files` once every part is in: the
    reading's last messages (``say_read``), the analysis's errors and the
    report of what ``plan`` holds, exit 1 after an error."""
    say_read()
    analyses: list = []
    errors: list = []
    failed = 0
    for kind, item, x in plan:
        if kind == "error":
            errors.append(x)
            failed += 1
        elif kind == "fail":
            say(f"error: {item}: {x}", err=True)
            errors.append({"file": item, "error": f"{item}: {x}"})
            failed += 1
        else:
            analyses.append(x)
    _emit_analyses(analyses, report, output, all_decisions, failed, errors, parts=report != "html")
    if failed:
        raise SystemExit(1)


def _plan_file(item: str, parts: list, plan: list) -> None:
    """Say the reading's errors and warnings of the file ``item`` from the
    :func:`_unit_result` of its ``parts`` (in order), as :func:`run_analysis`
    says them reading it whole, and put its errors and games on ``plan``."""
    kept = []
    for r in parts:
        kept.append(r)
        if r["refused"]:
            break       # the file is refused there: the lines after it were never read
    failed = next((r["failed"] for r in kept if r["failed"]), None)
    errs = [failed] if failed else [e for r in kept for e in r["errors"]]
    for e in errs:
        say(f"error: {e}", err=True)
        plan.append(("error", None, dict({"file": item, "error": e}, **({"partial": True} if e.endswith(IN_PART)
                                                                            else {}))))
    if failed:
        return
    broken = next((r["broken"] for r in kept if r["broken"]), None)
    if broken:
        say(f"error: {broken}", err=True)
        plan.append(("error", None, {"file": item, "error": broken}))
        return
    for r in kept:
        for w in r["warnings"]:
            say(w, err=True)
    records = [x for r in kept for x in r["records"]]
    for n, (kind, line, x) in enumerate(records, 1):
        if kind == "error":
            where = _where_at(item, line, n, len(records))
            say(f"error: {where}: {x}", err=True)
            plan.append(("error", None, {"file": item, "error": f"{where}: {x}"}))
        else:
            plan.append((kind, item, x))


def _fork_map(fn: Callable, todo: List[int], workers: int, got: Callable, exiting: Optional[list] = None) -> None:
    """``got(k, fn(k))`` for each ``k`` of ``todo``, ``fn`` run in ``workers``
    processes: this one and ``workers - 1`` forked ones (at most one per
    ``k``), each taking the next ``k`` as it finishes one (from a pipe filled
    here first).  The forked workers send back their pickled results through
    a pipe of their own, read here between this process's own ``k``; ``got``
    is called here, in the order they finish.  This process working too
    spares a fork (its copy-on-write faults, a second copy of the caches
    warmed before it) and the pickling of its results, and its caches stay
    warm from one ``k`` to the next (issue 21 "Speed").  An exception ``fn``
    raised is raised here.  Ctrl-C (the workers leave it to this process),
    an error, or a worker that died: the workers still running are stopped,
    and every one is waited for before this returns.  ``exiting``: where
    every ``k`` is done, the workers' process ids go there instead of
    being waited for (each has sent its last result and closed its pipe,
    and is ending: its exit frees its memory, a few milliseconds the
    caller spends writing its report meanwhile); the caller waits for
    them."""
    import pickle
    import select
    import signal
    if not todo:
        return
    task_r, task_w = os.pipe()
    try:
        os.write(task_w, b"".join(k.to_bytes(4, "little") for k in todo))
    finally:
        os.close(task_w)
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()      # nothing buffered here is written twice by a child
    kids: dict = {}             # the read end of a worker's pipe: [its pid, what came of it]
    done = 0
    try:
        for _ in range(min(workers, len(todo)) - 1):
            r, w = os.pipe()
            _grow_pipe(w)
            parent = os.getpid()
            pid = os.fork()
            if pid == 0:        # the worker: never back into the caller's code
                code = 1
                try:
                    signal.signal(signal.SIGINT, signal.SIG_IGN)
                    end_with(parent)    # a killed command: not the rest of a part read and analysed
                    os.close(r)
                    for fd in kids:
                        os.close(fd)
                    while True:
                        b = os.read(task_r, 4)     # 4 bytes of a pipe's reader: read whole
                        if not b:
                            break
                        k = int.from_bytes(b, "little")
                        try:
                            res = (True, fn(k))
                        except Exception as e:
                            res = (False, e)
                        try:
                            data = pickle.dumps((k, res), pickle.HIGHEST_PROTOCOL)
                        except Exception as e:     # an exception that cannot be sent as it is
                            data = pickle.dumps((k, (False, RuntimeError(f"{type(e).__name__}: {e}"))))
                        out = memoryview(len(data).to_bytes(8, "little") + data)
                        while out:
                            out = out[os.write(w, out):]
                    # the end of the results said now: the exit frees the process's memory
                    # first (its pipe would close after that), a millisecond the caller waited
                    os.close(w)
                    code = 0
                finally:
                    os._exit(code)
            os.close(w)
            kids[r] = [pid, bytearray()]
        live = list(kids)

        def receive(timeout: Optional[float]) -> None:
            # what the workers sent: waiting up to timeout (None: until one of them sends or ends)
            nonlocal done
            for fd in select.select(live, [], [], timeout)[0]:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    live.remove(fd)
                    continue
                buf = kids[fd][1]
                buf += chunk
                while len(buf) >= 8 and len(buf) >= 8 + int.from_bytes(buf[:8], "little"):
                    size = int.from_bytes(buf[:8], "little")
                    k, (ok, res) = pickle.loads(buf[8:8 + size])
                    del buf[:8 + size]
                    if not ok:
                        raise res
                    done += 1
                    got(k, res)

        while True:             # this process's own parts, and between them what the workers sent
            b = os.read(task_r, 4)
            if not b:
                break
            k = int.from_bytes(b, "little")
            res = fn(k)
            done += 1
            got(k, res)
            if live:
                receive(0)
        os.close(task_r)
        task_r = -1
        while live:
            receive(None)
        if done < len(todo):
            raise RuntimeError(f"a worker process stopped before the end ({len(todo) - done} parts of the "
                               f"files not analysed)")
    finally:
        if task_r >= 0:
            os.close(task_r)
        for fd, (pid, _) in kids.items():
            os.close(fd)
            if done < len(todo):
                try:
                    os.kill(pid, signal.SIGTERM)
                except OSError:
                    pass
            elif exiting is not None:
                exiting.append(pid)
                continue
            os.waitpid(pid, 0)


def _grow_pipe(fd: int) -> None:
    """Make the pipe of ``fd`` hold 1 MiB (Linux; where it can): a worker's
    results (some 30 KB a game) are written whole while this process is
    busy with a part of its own, not waited for."""
    try:
        import fcntl
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, 1 << 20)
    except (ImportError, AttributeError, OSError):
        pass


def _deal_numbers(game, deals) -> list:
    """The numbers of the deals of ``game`` to analyse: ``deals`` (all when
    None) in the game's order; KeyError naming one it lacks."""
    numbers = []
    for d, _ in game.deal_positions():
        if d not in numbers:
            numbers.append(d)
    if deals:
        missing = [d for d in deals if d not in numbers]
        if missing:
            raise KeyError(f"deal {missing[0]} is not in the game (deals {', '.join(map(str, numbers))})")
        numbers = [d for d in numbers if d in deals]
    return numbers


def _where(item: str, rec, n: int, count: int) -> str:
    """Where a game of ``item`` stands, for an error about that game: the
    file alone when it holds one game, else ``FILE, line L`` (a JSON Lines
    file, as its reading errors say) or ``FILE, game N`` (1-based)."""
    return _where_at(item, _line_of(item, rec), n, count)


def _line_of(item: str, rec):
    """The line of a JSON Lines file ``item`` the record ``rec`` was read
    from (None for other files)."""
    return (getattr(rec, "source", None) or {}).get("line") if item.lower().endswith(".jsonl") else None


def _where_at(item: str, line, n: int, count: int) -> str:
    """:func:`_where` of the ``n``-th of ``count`` games of ``item``, read
    from its ``line`` (None where not a JSON Lines file)."""
    if count <= 1:
        return item
    return f"{item}, line {line}" if isinstance(line, int) else f"{item}, game {n}"


def _line_game(game, record, line: int, label: str):
    """``(Game, deal)``: the record's alternative line ``line`` (1-based, as the
    viewer numbers them: :func:`~euchre_events.ui.htmlexport.record_variation`)
    and the deal it branches in; :func:`fail` names a line the record lacks or
    one that cannot be replayed."""
    from euchre_events.ui.htmlexport import record_variation
    lines = list(getattr(record, "variations", None) or []) if record is not None else []
    if not 1 <= line <= len(lines):
        fail(f"{label}: --line {line}: the record has {len(lines) or 'no'} alternative line"
             f"{'' if len(lines) == 1 else 's'}")
    name, _, branch, g, error, _ = record_variation(game, line - 1, lines[line - 1])
    if g is None:
        fail(f"{label}: {name}: {error}")
    return g, g.index().deal_at[min(branch + 1, len(g.events))]


def _analyze_one(game, *, numbers, seat, samples, seed, face_up_only, workers, game_id, file, bar):
    """:func:`analyze` of the deals ``numbers`` of one game, in this process,
    or one deal per worker process with ``workers`` and several deals."""
    from euchre_events.analysis.review import analyze
    kw = dict(samples=samples, seed=seed, seat=seat, face_up_only=face_up_only)
    if workers > 1 and len(numbers) > 1:
        from concurrent.futures import ProcessPoolExecutor
        ex = ProcessPoolExecutor(max_workers=min(workers, len(numbers)), initializer=end_with,
                                 initargs=(os.getpid(),))
        try:
            results = []
            for r in ex.map(_deal_task, [(list(game.events), d, kw) for d in numbers]):
                results.append(r)
                if bar is not None:
                    bar.update(len(r.decisions))
        except BaseException:
            stop_pool(ex)     # Ctrl-C or a failure: the deals running are not waited for
            raise
        ex.shutdown()
        return analyze(game, deals=numbers, seat=seat, samples=samples, seed=seed, face_up_only=face_up_only,
                       game_id=game_id, file=file, deal_results=results)
    return analyze(game, deals=numbers, seat=seat, samples=samples, seed=seed, face_up_only=face_up_only,
                   game_id=game_id, file=file, progress=(bar.update if bar is not None else None))


def _bar(total: int, desc: str):
    """One game's bar, on a terminal and for 20 decisions or more."""
    return progress_bar(total, desc, least=20, leave=False)


def _counts(games) -> Optional[list]:
    """The decisions of each of ``games`` (a progress bar's steps), or None
    where stderr is no terminal and no bar is drawn: counting costs some
    0.2 ms a one-deal game, 3% of its analysis face up."""
    return [_count_decisions(g) for g in games] if sys.stderr.isatty() else None


def _count_decisions(game) -> int:
    from euchre_events.analysis.review import decision_kind
    return sum(1 for ev in game.events if decision_kind(ev) is not None)


MAX_ANALYZE_WORKERS = 64
"""The most ``analyze --workers`` takes (and ``$EUCHRE_EVENTS_WORKERS`` for it)."""

ANALYZE_PARALLEL_BYTES = 64 << 10
"""Record files of at least this many bytes in all (some 16 one-deal OpenSpiel
games, 25 ms of analysis face up) go over the cores by default
(:func:`analysis_workers`); below it a second process gains less than its
start and warm-up cost."""


def analysis_workers(asked: Optional[int], files: Sequence[str], *, stored: int, face_up_only: bool,
                     all_games: bool) -> int:
    """How many processes ``analyze`` runs: ``asked`` (``--workers``), else
    ``$EUCHRE_EVENTS_WORKERS``, else the cores (at most 4) where the job is
    big enough to gain (:func:`~euchre_events.console.choose_workers`): a
    seat view (200 imagined deals a decision: about a second a deal, so
    several deals or games gain from the start), the whole archive or
    several stored games, or record ``files`` of
    :data:`ANALYZE_PARALLEL_BYTES` or more face up; 1 otherwise.  Where
    there is a single deal to analyse, it runs in this process whatever
    this says (nothing to share out)."""
    big = not face_up_only or all_games or stored > 1
    if not big and asked is None:
        total = 0
        for f in files:
            try:
                total += os.path.getsize(f) if os.path.isfile(f) else 0
            except OSError:
                pass
        big = total >= ANALYZE_PARALLEL_BYTES
    return choose_workers(asked, big, MAX_ANALYZE_WORKERS)


def run_analysis(games: List[str], *, deals, seat, samples: int, seed: int, face_up_only: bool,
                 workers: Optional[int],
                 report: str, output: Optional[str], line: Optional[int], all_games: bool,
                 all_decisions: bool, from_: Optional[str], db: Optional[str],
                 open_archive: Callable, load: Callable, read: Callable,
                 scheduler: Optional[str] = None) -> None:
    """Analyse ``games`` (ids or record files; every stored game with
    ``all_games``) and write the report (``workers``: ``--workers``, None
    for the default of :func:`analysis_workers`); exit 1 after naming each game that
    could not be read.  A stored game's analysis is taken from the archive's
    cache when it is there for this version and these parameters, and put
    there when it is not (a record file is not stored, nor its analysis).
    Several stored games (or ``all_games``, or a ``scheduler``) run as one
    task per game (:func:`euchre_events.corpus.run_corpus`): processes over
    games with ``workers``, a Dask cluster with ``scheduler``.  Record files
    with ``workers`` above 1 (no progress bar on a terminal, no ``line``)
    are read by the forked processes too, by runs of a JSON Lines file's
    lines or file by file (:func:`_stream_files`), where the parts can be
    balanced (:func:`_stream_units`).  Otherwise every game is read first;
    then with ``workers`` above 1 several games go to that many forked
    processes (:func:`_analyze_games`), a single game's deals one per
    process.  The report is the same bytes as with one process."""
    from euchre_events.analysis.review import ANALYSIS_VERSION
    from euchre_events.formats import RECORD_SUFFIXES, RecordError
    from euchre_events.rules.seats import parse_seat
    analyses = []
    failed = 0
    errors: list = []      # {"file", "error"}: named in the report too
    arch = None
    models: dict = {}
    items: list = []
    if all_games:
        arch = open_archive()
        items.extend(("stored", gid) for gid in arch.game_ids())
    for item in games:
        is_file = os.path.exists(item) or os.path.sep in item or item.lower().endswith(RECORD_SUFFIXES)
        items.append(("file" if is_file else "stored", item))
    stored = [i for h, i in items if h == "stored"]
    workers = analysis_workers(workers, [i for h, i in items if h == "file"], stored=len(stored),
                               face_up_only=face_up_only, all_games=all_games)
    if stored and len(stored) == len(items) and (all_games or scheduler or len(stored) > 1):
        _run_stored(stored, all_games=all_games, deals=deals, seat=seat, samples=samples, seed=seed,
                    face_up_only=face_up_only, workers=workers, scheduler=scheduler, report=report,
                    output=output, line=line, all_decisions=all_decisions, db=db,
                    arch=arch or open_archive())
        return
    if scheduler:
        fail("--scheduler analyses stored games (ids, or --all): import the record files first")
    if workers > 1 and line is None and all(h == "file" for h, _ in items) and hasattr(os, "fork"):
        # record files over forked processes that read them too, by runs of games (on a
        # terminal the bar counts the files' bytes done: no game is read before the work)
        units = _stream_units([i for _, i in items], from_, workers)
        if units is not None:
            _stream_files(units, workers, read=read, deals=deals, seat=seat, samples=samples, seed=seed,
                          face_up_only=face_up_only, report=report, output=output,
                          all_decisions=all_decisions)
            return
    # first every game is read (each error said as it is met), then the games are analysed,
    # here or in worker processes; the report keeps the order of the command line
    plan: list = []     # ("error", {"file", "error"}) | ("cached", analysis) | ("game", job)
    for how, item in items:
        try:
            if how == "file":
                recs, errs = read(item)
                part = []
                for e in errs:
                    g = _in_part(item, e, from_)
                    text = str(e) + (IN_PART if g is not None else "")
                    say(f"error: {text}", err=True)
                    plan.append(("error", dict({"file": item, "error": text}, **({"partial": True} if g is not None
                                                                                   else {}))))
                    if g is not None:
                        part.append((g, None, None))
                todo = [(r.game if r.game is not None else _game_of(r.events), r, None) for r in recs] + part
                for r in recs:
                    warn(item, r)
            else:
                if all_games:
                    g = arch.load(item)
                    rec = None
                    gid = str(item)
                else:
                    g, rec = load(item)
                    gid = str(getattr(g, "id", None) or item)
                todo = [(g, rec, gid)]
        except (RecordError, KeyError, ValueError) as e:
            say(f"error: {item}: {e}", err=True)
            plan.append(("error", {"file": item, "error": f"{item}: {e}"}))
            continue
        except Exception as e:    # an archive that cannot be read: name it, go on with the others
            say(f"error: {item}: cannot be read ({short_error(e)})", err=True)
            plan.append(("error", {"file": item, "error": f"{item}: cannot be read ({short_error(e)})"}))
            continue
        for n, (g, rec, gid) in enumerate(todo, 1):
            where = _where(item, rec, n, len(todo))
            try:
                s = parse_seat(seat, g.players) if seat else None
            except ValueError as e:     # a seat this game lacks: named, as a deal it lacks is
                say(f"error: {where}: {_no_seat(seat, e)}", err=True)
                plan.append(("error", {"file": item, "error": f"{where}: {_no_seat(seat, e)}"}))
                continue
            line_deals = deals
            if line is not None:
                g, line_deal = _line_game(g, rec, line, item)
                line_deals = deals or [line_deal]
            params = analysis_params(samples, seed, face_up_only, s, deals, line)
            cached = None
            if gid is not None and how == "stored":
                if arch is None:
                    arch = open_archive()
                rm = _read_models(arch, models)
                cached = _cache_get(rm, gid, params, ANALYSIS_VERSION, len(g.events))
            if cached is not None:
                plan.append(("cached", cached))
                continue
            try:
                numbers = _deal_numbers(g, line_deals)
            except KeyError as e:
                say(f"error: {where}: {e.args[0]}", err=True)
                plan.append(("error", {"file": item, "error": f"{where}: {e.args[0]}"}))
                continue
            plan.append(("game", dict(game=g, item=item, how=how, gid=gid, params=params, seat=s,
                                      numbers=numbers)))
    jobs = [j for kind, j in plan if kind == "game"]
    pooled = None
    if workers > 1 and len(jobs) > 1:
        # several games: processes over games (a single game's deals go one per process below)
        pooled = iter(_analyze_games(
            [(j["game"], dict(deals=j["numbers"], seat=j["seat"], samples=samples, seed=seed,
                              face_up_only=face_up_only, game_id=j["gid"],
                              file=j["item"] if j["how"] == "file" else None)) for j in jobs],
            workers, _counts(j["game"] for j in jobs)))
    for kind, j in plan:
        if kind == "error":
            errors.append(j)
            failed += 1
            continue
        if kind == "cached":
            analyses.append(j)
            continue
        g, item, how, gid = j["game"], j["item"], j["how"], j["gid"]
        if pooled is not None:
            a = next(pooled)
        else:
            counts = _counts([g])
            bar = _bar(counts[0], f"analysing {g.title or item}"[:40]) if counts else None
            try:
                a = _analyze_one(g, numbers=j["numbers"], seat=j["seat"], samples=samples, seed=seed,
                                 face_up_only=face_up_only, workers=workers, game_id=gid,
                                 file=item if how == "file" else None, bar=bar)
            except KeyError as e:
                a = e
            finally:
                if bar is not None:
                    bar.close()
        if isinstance(a, KeyError):
            say(f"error: {item}: {a.args[0]}", err=True)
            errors.append({"file": item, "error": f"{item}: {a.args[0]}"})
            failed += 1
            continue
        if gid is not None and how == "stored":
            _cache_put(_read_models(arch, models), gid, j["params"], ANALYSIS_VERSION, len(g.events), a,
                       game=g)
        analyses.append(a)
    _emit_analyses(analyses, report, output, all_decisions, failed, errors)
    if failed:
        raise SystemExit(1)


def _emit_analyses(analyses: list, report: str, output: Optional[str], all_decisions: bool,
                   failed: int, errors: Sequence[dict] = (), parts: bool = False) -> None:
    """Write the report of ``analyses`` (json, html or text) to ``output`` or
    stdout; nothing at all when nothing was analysed and an error was said
    (no empty report file).  ``errors`` (``{"file", "error"}``, said on
    stderr) are named in the report too: json ``"errors"`` after
    ``"games"``, html a "Not read" section first, text ``not read:`` lines
    at the end; nothing of them when there are none.  ``parts``: json or
    text, ``analyses`` are the games' pieces of the report already written
    (:func:`_report_part`), not GameAnalysis objects."""
    from euchre_events.analysis.review import json_report, json_report_pieces
    if report == "json":
        pieces = json_report_pieces(analyses, errors) if parts else [json_report(analyses, errors)]
        if output and isinstance(pieces[0], bytes):
            # msgspec's UTF-8 bytes written as they are (the text's newline at the end added,
            # as write_file adds it to a str): no decoding and encoding again of megabytes,
            # and the pieces copied once, the newline with them
            pieces.append(b"\n")
        text = pieces[0] if len(pieces) == 1 else pieces[0][:0].join(pieces)
        if not output and isinstance(text, bytes):
            text = text.decode("utf-8")     # to_json_text
    elif report == "html":
        from euchre_events.ui.analysisreport import analysis_html
        text = analysis_html(analyses, errors)
    else:
        from euchre_events.ui.analysisreport import analysis_text, analysis_text_of_parts
        text = "" if not analyses else analysis_text_of_parts(analyses) if parts else \
            analysis_text(analyses, all_decisions=all_decisions)
        if analyses and errors:
            from euchre_events.ui.describe import not_read_line
            text += "".join(not_read_line(e) + "\n" for e in errors)
    if analyses or not failed:
        emit_report(text, report, output)


ANALYZE_OPTIONS = (
    Option("deal", ("--deal",), None, int, "Only deal N (may be repeated).", many=True),
    Option("seat", ("--seat",), None, str, "Only this seat's decisions (N, P2, a name).", typer_only=True),
    Option("samples", ("--samples",), 200, int, "Imagined deals per decision for the seat view.",
           minimum=1, maximum=100000),
    Option("seed", ("--seed",), 0, int, "Seed of the imagined deals.", minimum=0),
    Option("face_up_only", ("--face-up-only",), False, bool, "Only the face-up values (fast; Bid with the joker or a double deck: minutes a deal, docs/analysis.md)."),
    Option("workers", ("--workers",), None, int,
           "Processes over the games (of the files, or stored: --all, several ids); one game: over its deals. "
           "Default: the cores (at most 4) for a seat view, stored games or 64 KiB of files face up, else 1 "
           "($EUCHRE_EVENTS_WORKERS sets it).",
           minimum=1, maximum=MAX_ANALYZE_WORKERS),
    Option("report", ("--format", "-f"), "text", str, "text, json or html (needs -o).",
           choices=("text", "json", "html")),
    Option("output", ("--output", "-o"), None, str, "Write the report to this file."),
    Option("line", ("--line",), None, int, "Analyse the record's alternative line N (as the viewer numbers them).",
           minimum=1, typer_only=True),
    Option("all_games", ("--all",), False, bool, "Every game of the archive (fills the analysis cache).",
           typer_only=True),
    Option("all_decisions", ("--every",), False, bool, "Text: every decision, not only the marked ones."),
    Option("from_", ("--from",), None, str, FROM_HELP, typer_only=True),
    Option("db", ("--db",), None, str, DB_HELP, typer_only=True),
    Option("scheduler", ("--scheduler",), None, str,
           "A running Dask scheduler (tcp://HOST:8786): its workers analyse the stored games "
           "(pip install 'euchre-events[cluster]').", typer_only=True),
)
"""The options of ``analyze``, in the order of its help: the one table the
typer command (``cli.analyze_cmd``, by
:func:`euchre_events.options.typer_parameters`) and the typer-free door
(:func:`plain_analyze`) read.  The door runs record files with the plain
options; the ``typer_only`` ones (a seat, an alternative line, stored games,
another format, a cluster) and a ``--format`` it does not know are the
application's."""


def plain_analyze(argv: List[str]) -> Optional[dict]:
    """The arguments of ``analyze FILE... [options]`` of record files that
    exist, with the options of :data:`ANALYZE_OPTIONS` the typer-free door
    reads (:func:`~euchre_events.options.parse_options`), as
    :func:`run_analysis` takes them (``deals``: the ``--deal`` numbers or
    None; ``workers``: None by default, :func:`analysis_workers`), or None for any other command line
    (typer reads that one: stored games, ``--all``, ``--seat``, ``--line``,
    an option it would refuse, ``--format html`` without ``-o``).  Such a
    command runs without building the typer application, whose option
    adapters import ``pydantic``, nor the other commands: a third of the
    start-up of ``analyze --face-up-only`` (issue 21 "Speed")."""
    args = parse_options(argv, "analyze", ANALYZE_OPTIONS, accept=os.path.isfile)
    if args is None or (args["report"] == "html" and not args["output"]):
        return None     # a page for a terminal: typer says so
    args["deals"] = args.pop("deal")
    return args


def quick_analyze(argv: List[str]) -> Optional[int]:
    """Run ``argv`` (the command line after the program name) when it is a
    :func:`plain_analyze` of record files, and give its exit code
    (:func:`~euchre_events.options.run_door`: as typer ends a command);
    None for any other command line (the full command-line application
    runs it).  The same job as ``cli.analyze_cmd``: :func:`run_analysis`,
    the same report and messages."""
    args = None if completing() else plain_analyze(argv)
    if args is None:
        return None
    from euchre_events.console import archive_file, read_file, refuse_output_over_input
    import gc
    # a batch process: what the imports made stays (not scanned again), and the young
    # generation is collected less often (the solver makes many short-lived tables): ~5% of the time
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)

    def no_archive(*_a, **_k):      # record files only: the archive is never opened
        fail("the archive is not opened for record files")

    def job() -> None:
        refuse_output_over_input(args["games"], args["output"], archive=lambda: archive_file(None),
                                 doing="analysed")
        run_analysis(args["games"], deals=args["deals"], seat=None, samples=args["samples"], seed=args["seed"],
                     face_up_only=args["face_up_only"], workers=args["workers"], report=args["report"],
                     output=args["output"], line=None, all_games=False, all_decisions=args["all_decisions"],
                     from_=None, db=None, open_archive=no_archive, load=no_archive,
                     read=lambda item: read_file(item, None))

    return run_door(job)


def _game_of(events):
    from euchre_events.projections import Game
    return Game(events)


def _read_models(arch, cache: dict):
    if "rm" not in cache:
        from euchre_events.archive.readmodels import ReadModels
        cache["rm"] = ReadModels(arch)
    return cache["rm"]


def _cache_get(rm, gid: str, params: dict, version: int, n_events: int):
    """The cached :class:`GameAnalysis` of a stored game, or None."""
    doc = rm.cached_analysis(gid, version, params, n_events)
    if doc is None:
        return None
    from euchre_events.analysis.review import from_json
    try:
        return from_json(doc)
    except (KeyError, TypeError, ValueError):
        return None


def _cache_put(rm, gid: str, params: dict, version: int, n_events: int, a, game=None) -> None:
    """Keep ``a`` in the cache and, for the game as played (no ``line``), its
    auction decisions in the explorer's tables, in one transaction."""
    extra = None
    if game is not None and params.get("line") is None:
        from euchre_events.archive.explorer import decision_rows, ensure_tables, params_key, write_decisions
        ensure_tables(rm.view)
        rows = decision_rows(game, a, params_key(version, params))
        extra = lambda view, cur: write_decisions(view, cur, rows)  # noqa: E731
    rm.cache_analysis(gid, version, params, n_events, a.to_json(), extra=extra)


def _run_stored(ids: List[str], *, all_games: bool, deals, seat, samples: int, seed: int, face_up_only: bool,
                workers: int, scheduler: Optional[str], report: str, output: Optional[str], line, all_decisions: bool,
                db: Optional[str], arch) -> None:
    """Stored games as one task each (:func:`euchre_events.corpus.run_corpus`),
    then the report: with ``--all`` in text, a summary line (the analyses
    are in the archive); otherwise every game's analysis, read back from
    the cache in order.  Exit 1 after naming each game that failed."""
    from euchre_events.analysis.review import ANALYSIS_VERSION
    from euchre_events.corpus import run_corpus
    if seat is not None or line is not None:
        fail("--seat and --line go with one game; --all and several games analyse every seat as played")
    gids, failed, errors = [], 0, []
    for item in ids:
        try:
            gids.append(str(arch.resolve(str(item))))
        except Exception as e:  # noqa: BLE001 (an unknown id or prefix: named, the others go on)
            why = f"{item}: {short_error(e) if not isinstance(e, ValueError) else e}"
            say(f"error: {why}", err=True)
            errors.append({"file": str(item), "error": why})
            failed += 1
    gids = list(dict.fromkeys(gids))
    params = analysis_params(samples, seed, face_up_only, None, deals, None)
    try:
        res = run_corpus(gids, db=db, params=params, workers=workers, scheduler=scheduler)
    except RuntimeError as e:
        fail(str(e))
    failed += len(res.failed)
    errors += [{"file": gid, "error": f"{gid}: {why}"} for gid, why in res.failed]   # as run_corpus said them
    if all_games and report == "text":
        if output:
            emit_report(res.summary(), report, output)
        else:
            say(res.summary())
    else:
        rm = _read_models(arch, {})
        bad = {g for g, _ in res.failed}
        analyses = []
        for gid in gids:
            if gid in bad:
                continue
            a = _cache_get(rm, gid, params, ANALYSIS_VERSION, arch.game_length(gid))
            if a is not None:
                analyses.append(a)
        _emit_analyses(analyses, report, output, all_decisions, failed, errors)
        say(res.summary(), err=True)
    if failed:
        raise SystemExit(1)


def game_analysis(game, game_id, *, samples: int = 200, seed: int = 0, face_up_only: bool = False,
                  open_archive: Optional[Callable] = None):
    """The :class:`~euchre_events.analysis.review.GameAnalysis` of ``game``
    (every deal, every seat as played): a stored game's (``game_id`` and
    ``open_archive`` given) from the archive's analysis cache when it is
    there, and put into it when it is not (docs/analysis.md "The cache");
    otherwise computed (:func:`euchre_events.analysis.review.analyze`), with
    ``analyze``'s progress bar on a terminal's stderr (20 decisions or more)."""
    from euchre_events.analysis.review import ANALYSIS_VERSION, analyze
    params = analysis_params(samples, seed, face_up_only, None, None, None)
    a = None
    rm = None
    if game_id is not None and open_archive is not None:
        rm = _read_models(open_archive(), {})
        a = _cache_get(rm, str(game_id), params, ANALYSIS_VERSION, len(game.events))
    if a is None:
        # a long analysis (export --with-analysis) shows analyze's progress bar on stderr
        bar = _bar(_count_decisions(game), f"analysing {game.title or 'the game'}"[:40])
        try:
            a = analyze(game, samples=samples, seed=seed, face_up_only=face_up_only,
                        game_id=str(game_id) if game_id else None,
                        progress=bar.update if bar is not None else None)
        finally:
            if bar is not None:
                bar.close()
        if rm is not None:
            _cache_put(rm, str(game_id), params, ANALYSIS_VERSION, len(game.events), a, game=game)
    return a


def analysis_notes(game, game_id, *, samples: int = 200, seed: int = 0, face_up_only: bool = False,
                   open_archive: Optional[Callable] = None) -> list:
    """The analysis of ``game`` as annotations ``[{"position", "text", "mark"}]``:
    one per labelled decision, its text beginning with :data:`ENGINE_NOTE`
    and giving the reason in one line (the best option face up and what was
    lost).  A stored game's analysis comes from the cache when it is there
    (and goes into it when it is not): :func:`game_analysis`."""
    from euchre_events.ui.analysisreport import pretty_action
    a = game_analysis(game, game_id, samples=samples, seed=seed, face_up_only=face_up_only,
                      open_archive=open_archive)
    notes = []
    for d in a.decisions():
        if not d.label:
            continue
        best = d.best_face_up()
        why = f"{ENGINE_NOTE}: played {pretty_action(d.played_text)}"
        if best is not None and d.face_up_cost:
            why += f"; face up {pretty_action(best.text)} was {d.face_up_cost:.2f} points better"
        elif d.face_up_cost == 0:
            why += "; face up it was best"
        if d.seat_view_cost is not None:
            sv = d.best_seat_view()
            if sv is not None and d.seat_view_cost > 0:
                why += f"; from the seat's view {pretty_action(sv.text)} was {d.seat_view_cost:.2f} better"
            else:
                why += "; from the seat's view it was best"
        notes.append({"position": d.position, "text": why, "mark": d.label})
    return notes


def explore_filters(*, variant: Optional[str], seat: Optional[str], round_: Optional[int], up_card: Optional[str],
                    up_rank: Optional[str], up_suit: Optional[str], bowers: Optional[int],
                    right_bower: Optional[bool], left_bower: Optional[bool], trumps: Optional[int],
                    off_aces: Optional[int], score: Optional[str]) -> dict:
    """The explorer's filters (archive/explorer.py ``FILTERS``) from the
    command's options: ``seat`` a word (dealer, eldest, partner, right) or
    0..5 from the dealer; ``up_card`` a card (``JH``, ``J♥``) or its rank
    and suit apart; ``score`` ``US-THEM`` before the deal (``8-9``).
    :func:`fail` names an option it cannot read."""
    from euchre_events.archive.explorer import seat_rel_of
    from euchre_events.rules.cards import CardError, parse_card, parse_suit, rank_of, suit_of
    f: dict = {"variant": variant, "round": round_, "bowers": bowers, "trumps": trumps, "off_aces": off_aces}
    if seat is not None:
        try:
            f["seat_rel"] = seat_rel_of(seat)
        except ValueError as e:
            fail(f"--seat: {e}")
    try:
        if up_card is not None:
            c = parse_card(up_card)
            f["up_rank"], f["up_suit"] = rank_of(c), suit_of(c)
        if up_suit is not None:
            f["up_suit"] = parse_suit(up_suit)
    except CardError as e:
        fail(f"--up-card/--up-suit: {e}")
    if up_rank is not None:
        r = up_rank.strip().upper().replace("10", "T")
        if r not in ("9", "T", "J", "Q", "K", "A", "8", "7"):
            fail(f"--up-rank {up_rank!r}: expected 9, 10, J, Q, K or A")
        f["up_rank"] = r
    if right_bower is not None:
        f["right_bower"] = int(right_bower)
    if left_bower is not None:
        f["left_bower"] = int(left_bower)
    if score is not None:
        parts = score.replace(":", "-").split("-")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            fail(f"--score {score!r}: expected US-THEM, e.g. 8-9 (the deciding side's score first)")
        f["score_us"], f["score_them"] = int(parts[0]), int(parts[1])
    return {k: v for k, v in f.items() if v is not None}


def run_explore(filters: dict, *, report: str, output: Optional[str], samples: Optional[int],
                face_up_only: bool, seed: int, open_archive: Callable) -> None:
    """The ``explore`` command: the archive's decisions in the situation
    ``filters`` (:func:`euchre_events.archive.explorer.explore`), as text,
    JSON or an HTML page.  ``samples``/``face_up_only``/``seed`` pick which
    analysis (default: the one most games have)."""
    import html as _html
    import json as _json
    from euchre_events.analysis.review import ANALYSIS_VERSION
    from euchre_events.archive.explorer import explore, params_key
    from euchre_events.archive.readmodels import ReadModels
    pkey = None
    if samples is not None or face_up_only:
        pkey = params_key(ANALYSIS_VERSION, analysis_params(samples or 200, seed, face_up_only, None, None, None))
    ex = explore(ReadModels(open_archive()), pkey=pkey, **filters)
    if report == "json":
        text = _json.dumps(ex.to_json(), indent=1, ensure_ascii=False)
    elif report == "html":
        text = ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>Decision explorer</title>"
                "<style>body{font-family:sans-serif}td,th{padding:2px 8px;text-align:right}"
                "td:first-child{text-align:left}</style></head><body>"
                f"<h1>Decision explorer</h1>{ex.html()}<p>{_html.escape(_EXPLAIN)}</p></body></html>")
    else:
        text = ex.text()
    emit_report(text, report, output)


_EXPLAIN = ("scored: the deal's points for the deciding side when the action was played (net); face up, "
            "seat view: the analysis's mean value of the action where it was legal; best: the share of those "
            "decisions where it was best face up; cost: the mean face-up cost where played (docs/analysis.md).")
