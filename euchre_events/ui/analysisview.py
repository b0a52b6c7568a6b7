"""Analysis at the table (issue 22): the values of :mod:`euchre_events.analysis`
as the viewer shows them, and the background job that computes them.

:class:`BackgroundAnalysis` gives the viewer each deal's
:class:`~euchre_events.analysis.review.DealAnalysis`, face up and from the
seat's view, without ever making a step wait: a stored game's analysis comes
from the archive's analysis cache (``ReadModels.cached_analysis``, docs/analysis.md
"The cache") when it is there; otherwise a thread hands the deals, one at a
time, to one worker process (the solver is pure Python: in a thread it would
hold the interpreter lock and slow each step), face up first (about 1 s a
deal), the deal shown before the others, then the seat view with
:data:`SEAT_SAMPLES` imagined deals per decision (1-15 s a decision), the
deal shown first.  Each finished deal is reported to ``on_update`` (from the
thread).  A completed face-up analysis is written to the cache.

Values are deal points from the deciding seat's side (docs/analysis.md "Units
and sides"); a cost is the best option's value minus the option's (>= 0).
"""
from __future__ import annotations

import threading
from typing import Callable, Optional

__all__ = ["BackgroundAnalysis", "SEAT_SAMPLES", "MISTAKES", "LABEL_WORDS", "params", "cost_text",
           "decision_value_for", "plot_value", "best_line", "low"]

SEAT_SAMPLES = 40
"""Imagined deals per decision for the viewer's seat view (``analyze``
defaults to 200): a coarser estimate, in reach of a reviewer's patience."""

MISTAKES = ("??", "?", "?!")
"""The labels the mistake keys jump between (docs/analysis.md "Labels")."""

LABEL_WORDS = {"??": "blunder", "?": "mistake", "?!": "dubious", "!?": "interesting", "!": "great",
               "!!": "brilliant"}
"""EGN's six labels in words (the EGN project's ``spec/annotations.md``)."""


def params(samples: int, face_up_only: bool, seed: int = 0) -> dict:
    """The cache key's parameters of a whole-game analysis, as ``analyze``
    writes them (``euchre_events.review.analysis_params`` with no seat, deals
    or line)."""
    return {"samples": 0 if face_up_only else samples, "seed": seed, "face_up_only": face_up_only,
            "seat": None, "deals": None, "line": None, "pass_value": "zero"}


def low(v) -> Optional[float]:
    """A value as one number: the low end of a span over the record's
    readings of its unknown cards (a tuple), as ``analyze`` costs them."""
    if isinstance(v, (tuple, list)):
        return min(v) if v else None
    return v


def cost_text(cost: Optional[float]) -> str:
    """A cost in points as shown on a badge: ``"0"``, ``"-1.5"``; ``"…"`` when not known yet."""
    if cost is None:
        return "\u2026"
    if abs(cost) < 0.005:
        return "0"
    return f"-{cost:.2f}".rstrip("0").rstrip(".")


def decision_value_for(decision, value: Optional[float], variant, party: int = 0) -> Optional[float]:
    """``value`` (from the deciding seat's side) from ``party``'s side in the
    two-party games (the net is zero-sum: the other side's value is its
    negative); in the games of three or four parties each party counts its own
    points, so the deciding seat's value is returned as it is."""
    if value is None:
        return None
    if variant.n_sides == 2:
        return value if variant.side_of(decision.seat) == party else -value
    return value


def plot_value(decision, value, variant, party: int = 0) -> Optional[float]:
    """The one point an evaluation graph draws for ``value`` (from the deciding
    seat's side: a number, a ``(low, high)`` range over the readings of unknown
    cards, or None), from ``party``'s side as :func:`decision_value_for`.  A
    range is turned to ``party``'s view first (``[-high, -low]`` for the other
    side) and drawn at its midpoint, so both sides' decisions of one position
    give one point (docs/analysis.md "Cards the record does not know")."""
    if isinstance(value, (tuple, list)):
        value = (min(value) + max(value)) / 2 if value else None
    return decision_value_for(decision, value, variant, party)


def _deal_task(args):
    """One deal in the worker process: ``(events, deal, kwargs) -> DealAnalysis``."""
    from euchre_events.analysis.review import analyze_deal
    from euchre_events.projections import Game
    events, deal, kw = args
    return analyze_deal(Game(events), deal, **kw)


class _Worker:
    """One worker process (``python -m euchre_events.ui.analysisview``) that
    analyses deals sent to it: length-prefixed pickles over its stdin and
    stdout.  Not a multiprocessing pool: "spawn" re-runs the parent's main
    module, which a Jupyter kernel or a script read from stdin does not
    have, and "fork" copies a kernel's threads."""

    def __init__(self):
        import subprocess
        import sys
        self.proc = subprocess.Popen([sys.executable, "-m", "euchre_events.ui.analysisview"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def run(self, task):
        import pickle
        import struct
        data = pickle.dumps(task)
        self.proc.stdin.write(struct.pack(">Q", len(data)) + data)
        self.proc.stdin.flush()
        head = self.proc.stdout.read(8)
        if len(head) < 8:
            raise RuntimeError("the analysis worker process stopped")
        ok, value = pickle.loads(self.proc.stdout.read(struct.unpack(">Q", head)[0]))
        if not ok:
            raise ValueError(value)
        return value

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def _worker_main() -> None:
    """The worker's loop: read a task, answer ``(True, DealAnalysis)`` or ``(False, reason)``."""
    import os
    import pickle
    import signal
    import struct
    import sys
    inp, out = sys.stdin.buffer, sys.stdout.buffer

    def stop(signum, frame):
        # a stop of the server reaches the kernel's process group, this worker in it (Jupyter
        # interrupts and ends a kernel by its group): end at once and quietly, no traceback of
        # the deal being solved; os._exit, as a flush of a half-written answer to a parent that
        # is going would only add a BrokenPipeError
        os._exit(128 + signum)
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, stop)
    # below the kernel, the server and the browser: on a machine of two cores the
    # solver took a step's CPU (the viewer's click with analysis on; bench_viewer.py).
    # The lowest nice (19: a weight of 15 against 1024, where 10 had 110) still
    # runs at full speed on an idle core, and takes ~1.5% of a busy one
    try:
        os.nice(19)
    except (AttributeError, OSError):   # Windows, or no right to change it
        pass
    while True:
        head = inp.read(8)
        if len(head) < 8:
            return
        task = pickle.loads(inp.read(struct.unpack(">Q", head)[0]))
        try:
            answer = (True, _deal_task(task))
        except Exception as e:   # the deal's reason goes back to the viewer, in words
            answer = (False, f"{type(e).__name__}: {e}")
        data = pickle.dumps(answer)
        out.write(struct.pack(">Q", len(data)) + data)
        out.flush()


class BackgroundAnalysis:
    """The analysis of one game for the viewer, filled in the background.

    ``game``: the :class:`~euchre_events.projections.Game`; ``archive`` and
    ``game_id``: where its cached analysis may be (and where a finished
    face-up analysis is written); ``on_update(kind, deal)`` is called (from
    the thread) when a deal's ``kind`` (``"face_up"`` or ``"seat_view"``)
    values arrive; ``seat_view``: also compute the seat view
    (``seat_samples`` imagined deals per decision); ``given``: a
    :class:`~euchre_events.analysis.review.GameAnalysis` already made (then
    nothing is computed).  :meth:`start` starts the thread;
    :meth:`focus` puts a deal first; :meth:`stop` ends it after the deal in
    hand.  Read :attr:`face_up` and :attr:`seat_view` (``{deal: DealAnalysis}``)
    and :meth:`progress_text`."""

    def __init__(self, game, archive=None, game_id=None, on_update: Optional[Callable] = None,
                 seat_view: bool = True, seat_samples: int = SEAT_SAMPLES, given=None):
        self.game = game
        self.archive = archive
        self.game_id = game_id
        self.on_update = on_update
        self.want_seat_view = seat_view
        self.seat_samples = int(seat_samples)
        self.deals = []
        for d, _ in game.deal_positions():
            if d not in self.deals:
                self.deals.append(d)
        self.face_up: dict = {}
        self.seat_view: dict = {}
        self.source = "computed"
        self.error = ""
        self.busy: Optional[tuple] = None
        self._focus = self.deals[0] if self.deals else None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self.thread: Optional[threading.Thread] = None
        if given is not None:
            self._take(given, seat=not given.method.face_up_only)
            self.want_seat_view = not given.method.face_up_only
            self.source = "given"
        else:
            self._from_cache()

    # ---------------------------------------------------------------- the cache
    def _from_cache(self) -> None:
        if self.archive is None or self.game_id is None:
            return
        try:
            from euchre_events.analysis.review import ANALYSIS_VERSION, from_json
            from euchre_events.archive.readmodels import ReadModels
            rm = ReadModels(self.archive)
            n = len(self.game.events)
            for samples, fu in ((200, False), (self.seat_samples, False), (0, True)):
                doc = rm.cached_analysis(str(self.game_id), ANALYSIS_VERSION, params(samples, fu), n)
                if doc is not None:
                    self._take(from_json(doc), seat=not fu)
                    self.source = "the archive's analysis cache"
                    if not fu:
                        return
        except Exception as e:   # an archive without read models (another store): compute instead
            self.error = f"the analysis cache could not be read ({type(e).__name__})"

    def _take(self, analysis, seat: bool) -> None:
        for da in analysis.deals:
            self.face_up.setdefault(da.deal, da)
            if seat:
                self.seat_view[da.deal] = da

    def _write_cache(self) -> None:
        """Keep a finished face-up analysis in the archive's cache (a fresh
        archive connection: this runs in the thread)."""
        if self.archive is None or self.game_id is None or self.source != "computed":
            return
        try:
            from euchre_events.analysis.review import ANALYSIS_VERSION, GameAnalysis, Method, summarize
            from euchre_events.archive import Archive
            from euchre_events.archive.readmodels import ReadModels
            import os
            path = getattr(self.archive, "db", None)
            # SQLite: a connection of this thread's own; PostgreSQL: the archive's pool
            arch = Archive(path) if path and os.path.isfile(path) else self.archive
            deals = tuple(self.face_up[d] for d in self.deals if d in self.face_up)
            g = self.game
            a = GameAnalysis(str(self.game_id), g.variant, g.title or "", tuple(g.players), len(g.players),
                             Method(0, 0, "zero", True), deals,
                             summarize(deals, g.players, len(g.players)))
            ReadModels(arch).cache_analysis(str(self.game_id), ANALYSIS_VERSION, params(0, True),
                                            len(g.events), a.to_json())
        except Exception:   # the cache is an optimisation: a failure to write it is no failure here
            pass

    # ---------------------------------------------------------------- the thread
    def start(self) -> "BackgroundAnalysis":
        """Start computing what is missing (nothing when all is there)."""
        if self.thread is None and self.source != "given" and not self.complete():
            self.thread = threading.Thread(target=self._run, name="euchre-analysis", daemon=True)
            self.thread.start()
        return self

    def focus(self, deal: Optional[int]) -> None:
        """Compute ``deal`` before the others (the deal the viewer shows)."""
        if deal in self.deals:
            self._focus = deal

    def stop(self) -> None:
        """Stop after the deal being computed."""
        self._stop.set()

    def complete(self) -> bool:
        """Every deal has its face-up values (and seat view when wanted)."""
        return (all(d in self.face_up for d in self.deals)
                and (not self.want_seat_view or all(d in self.seat_view for d in self.deals)))

    def wait(self, timeout: Optional[float] = None) -> bool:
        """Wait for the thread to finish (tests, scripts); True if it has."""
        if self.thread is not None:
            self.thread.join(timeout)
            return not self.thread.is_alive()
        return True

    def _next(self) -> Optional[tuple]:
        order = ([self._focus] if self._focus in self.deals else []) + self.deals
        for d in order:
            if d not in self.face_up:
                return ("face_up", d)
        if self.want_seat_view:
            for d in order:
                if d not in self.seat_view:
                    return ("seat_view", d)
        return None

    def _run(self) -> None:
        events = list(self.game.events)
        worker = None
        try:
            worker = _Worker()
            if True:
                wrote = False
                while not self._stop.is_set():
                    job = self._next()
                    if job is None:
                        break
                    kind, deal = job
                    self.busy = job
                    kw = ({"face_up_only": True} if kind == "face_up"
                          else {"samples": self.seat_samples, "seed": 0})
                    try:
                        da = worker.run((events, deal, kw))
                    except ValueError as e:   # a deal the solver refuses: say so, go on
                        self.error = f"deal {deal}: {type(e).__name__}: {e}"
                        (self.face_up if kind == "face_up" else self.seat_view)[deal] = None
                        continue
                    with self._lock:
                        (self.face_up if kind == "face_up" else self.seat_view)[deal] = da
                        if kind == "seat_view":
                            self.face_up[deal] = da   # the seat-view run carries the face-up values too
                    self.busy = None
                    if kind == "face_up" and not wrote and all(d in self.face_up for d in self.deals):
                        wrote = True
                        if all(self.face_up.get(d) is not None for d in self.deals):
                            self._write_cache()
                    if self.on_update is not None:
                        try:
                            self.on_update(kind, deal)
                        except Exception:
                            pass
        except Exception as e:
            self.error = f"analysis stopped: {type(e).__name__}: {e}"
        finally:
            if worker is not None:
                worker.close()
            self.busy = None
            if self.on_update is not None:
                try:
                    self.on_update("done", None)
                except Exception:
                    pass

    # ---------------------------------------------------------------- reading
    def decision_at(self, position: int):
        """``(face_up Decision or None, seat_view Decision or None)`` of the
        decision whose event index is ``position``."""
        fu = sv = None
        for store, kind in ((self.face_up, "fu"), (self.seat_view, "sv")):
            for da in store.values():
                if da is None:
                    continue
                for dec in da.decisions:
                    if dec.position == position:
                        if kind == "fu":
                            fu = dec
                        else:
                            sv = dec
        return fu, sv

    def decisions(self) -> dict:
        """``{position: Decision}``, the seat-view decision where there is one
        (it carries the face-up values too), else the face-up one."""
        out = {}
        for store in (self.face_up, self.seat_view):
            for da in store.values():
                if da is not None:
                    for dec in da.decisions:
                        out[dec.position] = dec
        return out

    def deal(self, deal: int):
        """The deal's analysis (seat view when there, else face up), or None."""
        return self.seat_view.get(deal) or self.face_up.get(deal)

    def progress_text(self) -> str:
        """Where the analysis stands, in words."""
        n = len(self.deals)
        fu = sum(1 for d in self.deals if d in self.face_up)
        sv = sum(1 for d in self.deals if d in self.seat_view)
        parts = [f"face up {fu}/{n} deals"]
        if self.want_seat_view or sv:
            parts.append(f"seat view {sv}/{n} deals")
        if self.busy is not None:
            kind, d = self.busy
            parts.append(f"computing deal {d} {'face up' if kind == 'face_up' else 'from the seat view'}\u2026")
        elif self.complete():
            parts.append("done" + (f" (from {self.source})" if self.source != "computed" else ""))
        if self.error:
            parts.append(self.error)
        return "analysis: " + "; ".join(parts)


def best_line(game, position: int, limit: int = 60) -> list:
    """The face-up best continuation from the table after ``position`` events
    of ``game`` to the end of that deal: the events every seat plays when
    each sees every card and plays perfectly (the solver's model and tie rule,
    :mod:`euchre_events.analysis.solver`).  ``[]`` at a position with nothing
    to decide.  Raises :class:`~euchre_events.analysis.solver.Unknowable`
    when the record leaves a card that matters unstated."""
    from euchre_events.analysis import solver as S
    from euchre_events.rules.engine import apply
    t = game.table_at(position).copy()
    out = []
    while not S._over(t) and len(out) < limit:
        vals = S.action_values(t)
        if not vals:
            break
        acts = [a for a, _ in vals]
        if getattr(acts[0], "kind", "") == "DealStarted":
            break
        i = S._pick(t.variant, S._decider(t, acts), [v for _, v in vals])
        a = acts[i]
        out.append(a)
        apply(t, a)
    return out


if __name__ == "__main__":
    _worker_main()
