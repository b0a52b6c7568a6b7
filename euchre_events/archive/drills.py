"""Drills from a player's own mistakes (issue 22, lichess's "learn from your
mistakes"): the exercises found in the archive's analysis cache, the
attempts kept in the archive, and when each exercise comes back.

**An exercise** is a decision of a stored, analysed game (docs/analysis.md)
where the player lost at least :data:`FACE_UP_THRESHOLD` deal points face up
(every hand visible) *and* at least :data:`SEAT_VIEW_THRESHOLD` from the
seat's view (the mean over the imagined deals), that was legal and not
forced, and where some option is right on both counts: an option is
**right** when its seat-view value is within :data:`RIGHT_MARGIN` of the
seat view's best *and* face up it beat what was played.  A position where
the seat view's best choice would have lost as much this time teaches
nothing certain and is left out.  Values are deal points from the deciding
seat's side (net in two-party games, own points with three or four parties).

**Attempts** are practice data, not game events: they live in a table of
their own, ``ee_drill_attempts`` (:class:`AttemptLog`), beside the read
models in the archive's SQLite file or PostgreSQL schema, written with the
read models' SQL helpers.  A ``rebuild`` leaves them alone.

**The schedule** (:func:`due_after`), a Leitner box per exercise: a new
exercise is due now; after a wrong answer (not right at the first try) it is
due again :data:`WRONG_DELAY` later (in the same session, after the others);
after the k-th right answer in a row it is due :data:`RIGHT_INTERVALS`\\[k-1\\]
later (1 day, 3 days, a week, two weeks, a month, three months): a right
answer brings it back less often, a wrong one sooner.

:class:`DrillSet` puts it together without a browser: ``DrillSet(archive,
player="Llama")``, ``.next()``, ``.answer(ex, ["order"], right=False)``,
``.progress()``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Iterable, List, Optional, Sequence

__all__ = ["FACE_UP_THRESHOLD", "SEAT_VIEW_THRESHOLD", "WIN_CHANCE_THRESHOLD", "RIGHT_MARGIN", "WRONG_DELAY", "RIGHT_INTERVALS",
           "DrillExercise", "Attempt", "AttemptLog", "Progress", "DrillSet", "exercise_of", "find_exercises",
           "due_after", "NO_ANALYSIS_HINT"]

FACE_UP_THRESHOLD = 1.0
"""Deal points the played option lost face up (at least) for a drill."""
SEAT_VIEW_THRESHOLD = 0.25
"""Deal points it lost from the seat's view (at least): the ``?!`` label's bar."""
WIN_CHANCE_THRESHOLD = 0.005
"""Game-win chance it lost face up (at least), where the game has one (two
parties): points lost when every call wins the game (or loses it) teach
nothing, and the analysis gives them no mark."""
RIGHT_MARGIN = 0.1
"""An answer is right when its seat-view value is this close (points) to the best."""
WRONG_DELAY = timedelta(minutes=1)
"""How soon an exercise answered wrong comes back."""
RIGHT_INTERVALS = (timedelta(days=1), timedelta(days=3), timedelta(days=7), timedelta(days=14),
                   timedelta(days=30), timedelta(days=90))
"""How long after the 1st, 2nd... right answer in a row an exercise is due again."""

NO_ANALYSIS_HINT = ("analyse the archive's games first: euchre-events analyze --all "
                    "(add --db FILE for another archive; --samples 50 for a quicker run)")

TABLE = "ee_drill_attempts"
_COLUMNS = ("learner", "exercise", "n", "game_id", "position", "answers", "correct", "answered_at")
_DDL = ("learner TEXT, exercise TEXT, n INTEGER, game_id TEXT, position INTEGER, answers TEXT, "
        "correct INTEGER, answered_at TEXT, PRIMARY KEY (learner, exercise, n)")


def _now() -> datetime:
    return datetime.now(timezone.utc)


# ------------------------------------------------------------------ exercises
@dataclass(frozen=True)
class DrillExercise:
    """One drill: a decision the player got wrong.

    ``key``: ``"GAME_ID:POSITION"`` (the attempts' key); ``position``: the
    decision's event, 0-based (the table before it is the game after
    ``position`` events); ``seat``: the deciding seat (0..n-1); ``player``:
    its name; ``kind``: ``call``, ``exchange`` or ``play``; ``played``: the
    action as played, in our text notation (``"order"``, ``"9C"``,
    ``"discard 9C"``); ``right``: the right actions (see the module);
    ``face_up_cost`` / ``seat_view_cost``: points lost; ``decision``: the
    analysis's :class:`~euchre_events.analysis.review.Decision` with every
    option's values; ``samples``: imagined deals behind the seat view;
    ``n_seats``: the game's seats; ``dealer``: the deal's dealer (None if not
    known), so the dealer's own ``order`` is said "pick up" as ``analyze`` says it."""

    key: str
    game_id: str
    title: str
    variant: str
    deal: int
    position: int
    seat: int
    player: str
    kind: str
    played: str
    right: tuple
    face_up_cost: float
    seat_view_cost: float
    label: Optional[str]
    samples: int
    n_seats: int = 4
    decision: object = field(repr=False, compare=False, default=None)
    dealer: Optional[int] = None


def _low(v):
    return None if v is None else (v[0] if isinstance(v, (tuple, list)) else v)


def exercise_of(d, *, game_id: str, title: str, variant: str, players: Sequence[str],
                samples: int, dealer: Optional[int] = None) -> Optional[DrillExercise]:
    """The :class:`DrillExercise` of decision ``d`` (an analysis
    ``Decision``), or None when it is not one (the rules of the module: the
    thresholds, legal, not forced, a right option that also beat the played
    one face up).  Pure."""
    if d.forced or not d.legal or d.face_up_cost is None or d.seat_view_cost is None:
        return None
    if d.face_up_cost < FACE_UP_THRESHOLD or d.seat_view_cost < SEAT_VIEW_THRESHOLD:
        return None
    if d.win_chance_lost is not None and d.win_chance_lost < WIN_CHANCE_THRESHOLD:
        return None
    played_fu = _low(d.played_face_up)
    sv = [_low(o.seat_view) for o in d.options if o.seat_view is not None]
    if not sv or played_fu is None:
        return None
    best = max(sv)
    right = tuple(o.text for o in d.options
                  if o.seat_view is not None and _low(o.seat_view) >= best - RIGHT_MARGIN
                  and o.face_up is not None and _low(o.face_up) > played_fu and o.text != d.played_text)
    if not right:
        return None
    return DrillExercise(key=f"{game_id}:{d.position}", game_id=str(game_id), title=title or "", variant=variant,
                         deal=d.deal, position=d.position, seat=d.seat,
                         player=str(players[d.seat]) if d.seat < len(players) else "",
                         kind=d.kind, played=d.played_text, right=right, face_up_cost=float(d.face_up_cost),
                         seat_view_cost=float(d.seat_view_cost), label=d.label, samples=samples,
                         n_seats=len(players), decision=d, dealer=dealer)


def _cached_docs(rm) -> list:
    """``[(game_id, key dict, doc dict)]``: every analysis the cache holds for
    this rules version."""
    from euchre_events.archive.readmodels import RULES_VERSION
    out = []
    for r in rm.view.select("SELECT game_id, key, doc FROM {ee_rm_analysis} WHERE version = ?", (RULES_VERSION,)):
        try:
            out.append((str(r["game_id"]), json.loads(r["key"]), json.loads(r["doc"])))
        except (TypeError, ValueError):
            continue        # a damaged row: not a drill
    return out


def _name_matches(name: str, wanted: Optional[str]) -> bool:
    return wanted is None or str(name).casefold() == wanted.strip().casefold()


def find_exercises(archive, player: Optional[str] = None, variant: Optional[str] = None,
                   rm=None) -> tuple:
    """``(exercises, analysed)``: the drills of ``player`` (a seat's name,
    any case, exactly; None: every player) in the games of ``variant`` (a
    name or alias; None: all) that the archive's analysis cache holds with a
    seat view, biggest seat-view loss first (then game, position); and how
    many stored games of that player and variant have such an analysis (0:
    nothing analysed, say :data:`NO_ANALYSIS_HINT`).

    Of several cached analyses of one game (other samples, some deals only)
    each decision is taken from the one with the most samples.  An analysis
    of an older length of the game (events recorded since) is not used.
    Raises ``ValueError`` for an unknown variant."""
    from euchre_events.analysis.review import ANALYSIS_VERSION, from_json
    want_variant = None
    if variant:
        from euchre_events.rules.registry import variant_class
        want_variant = variant_class(variant.strip().lower()).name
    if rm is None:
        from euchre_events.archive.readmodels import ReadModels
        rm = ReadModels(archive)
    by_game: dict = {}
    for gid, key, doc in _cached_docs(rm):
        params = key.get("params") or {}
        if key.get("analysis") != ANALYSIS_VERSION or params.get("face_up_only") or not params.get("samples") \
                or params.get("line") is not None:
            continue
        by_game.setdefault(gid, []).append((int(params.get("samples") or 0), key.get("events"), doc))
    exercises: list = []
    analysed = 0
    order = {}
    for gid, docs in by_game.items():
        try:
            game = archive.load(gid)
        except Exception:      # a game deleted or damaged since: its analysis teaches nothing now
            continue
        order[gid] = len(order)
        if want_variant and game.variant != want_variant:
            continue
        players = [str(p) for p in game.players]
        if player is not None and not any(_name_matches(p, player) for p in players):
            continue
        docs = [d for d in docs if d[1] == len(game.events)]
        if not docs:
            continue
        analysed += 1
        seen = set()
        for samples, _, doc in sorted(docs, key=lambda d: -d[0]):
            try:
                a = from_json(doc)
            except (KeyError, TypeError, ValueError):
                continue
            dealers = {x.deal: x.dealer for x in a.deals}
            for d in a.decisions():
                if d.position in seen:
                    continue
                seen.add(d.position)
                if player is not None and not (d.seat < len(players) and _name_matches(players[d.seat], player)):
                    continue
                ex = exercise_of(d, game_id=gid, title=game.title, variant=game.variant, players=players,
                                 samples=samples, dealer=dealers.get(d.deal))
                if ex is not None:
                    exercises.append(ex)
    exercises.sort(key=lambda e: (-e.seat_view_cost, -e.face_up_cost, order.get(e.game_id, 0), e.position))
    return tuple(exercises), analysed


# ------------------------------------------------------------------ attempts
@dataclass(frozen=True)
class Attempt:
    """One showing of an exercise: ``answers`` the actions clicked, in order
    (``()`` when the learner asked for the answer); ``correct`` right at the
    first try; ``at`` when (UTC); ``n`` its number for this learner and
    exercise (1, 2...)."""

    learner: str
    exercise: str
    n: int
    game_id: str
    position: int
    answers: tuple
    correct: bool
    at: datetime


class AttemptLog:
    """The attempts table of an archive (SQLite file or PostgreSQL schema):
    ``AttemptLog(archive)`` creates it if needed.  ``learner``: who
    practises (the ``--player`` name, ``""`` for everyone's drills).
    Raises what the database raises when it cannot be written."""

    def __init__(self, archive, rm=None):
        if rm is None:
            from euchre_events.archive.readmodels import ReadModels
            rm = ReadModels(archive)
        # the archive is kept: its datastore closes its connections when the archive is collected
        self.archive, self.rm, self.view = archive, rm, rm.view
        with self.view._tx() as c:
            c.execute(f"CREATE TABLE IF NOT EXISTS {self.view._t(TABLE)} ({_DDL})")

    def record(self, learner: str, exercise: DrillExercise, answers: Iterable[str], correct: bool,
               at: Optional[datetime] = None) -> Attempt:
        """Keep one attempt (one transaction); returns it."""
        v, t = self.view, self.view._t(TABLE)
        at = (at or _now()).astimezone(timezone.utc)
        answers = tuple(str(a) for a in answers)
        with v._tx() as c:
            c.execute(v._q(f"SELECT COALESCE(MAX(n), 0) AS m FROM {t} WHERE learner = ? AND exercise = ?"),
                      (learner, exercise.key))
            row = c.fetchone()
            n = int((row["m"] if isinstance(row, dict) or hasattr(row, "keys") else row[0]) or 0) + 1
            c.execute(v._q(f"INSERT INTO {t} ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})"),
                      (learner, exercise.key, n, exercise.game_id, exercise.position, json.dumps(list(answers)),
                       1 if correct else 0, at.isoformat()))
        return Attempt(learner, exercise.key, n, exercise.game_id, exercise.position, answers, bool(correct), at)

    def attempts(self, learner: str) -> List[Attempt]:
        """Every attempt of ``learner``, oldest first."""
        v = self.view
        with v._tx(commit=False) as c:
            c.execute(v._q(f"SELECT {', '.join(_COLUMNS)} FROM {v._t(TABLE)} WHERE learner = ? "
                           f"ORDER BY answered_at, exercise, n"), (learner,))
            rows = c.fetchall()
        out = []
        for r in rows:
            r = dict(r) if isinstance(r, dict) else dict(zip(r.keys(), r))
            out.append(Attempt(r["learner"], r["exercise"], int(r["n"]), r["game_id"], int(r["position"]),
                               tuple(json.loads(r["answers"] or "[]")), bool(r["correct"]),
                               datetime.fromisoformat(r["answered_at"])))
        return out


def due_after(history: Sequence[Attempt]) -> Optional[datetime]:
    """When an exercise with these attempts (oldest first) is due again:
    None for a new one (due now); :data:`WRONG_DELAY` after a wrong last
    attempt; after ``k`` right attempts in a row, ``RIGHT_INTERVALS[k-1]``
    (the last interval for more) after the last."""
    if not history:
        return None
    last = history[-1]
    if not last.correct:
        return last.at + WRONG_DELAY
    streak = 0
    for a in reversed(history):
        if not a.correct:
            break
        streak += 1
    return last.at + RIGHT_INTERVALS[min(streak, len(RIGHT_INTERVALS)) - 1]


@dataclass(frozen=True)
class Progress:
    """``total`` exercises; ``done``: answered at least once; ``right``: whose
    last answer was right; ``to_review``: answered before and due now;
    ``new``: never answered; ``next_due``: the earliest time one is due
    later (None when something is due now or nothing was answered)."""

    total: int
    done: int
    right: int
    to_review: int
    new: int
    next_due: Optional[datetime] = None

    def line(self) -> str:
        """``"3 of 12 done · 2 right · 1 to review"``."""
        return f"{self.done} of {self.total} done \u00b7 {self.right} right \u00b7 {self.to_review} to review"


class DrillSet:
    """The drills of one learner: the exercises of :func:`find_exercises`
    and the schedule from the attempts of :class:`AttemptLog`.

    ``player``/``variant`` as :func:`find_exercises`; ``exercises``: give
    them instead of reading the cache (tests).  ``analysed``: games with a
    usable analysis (0: say :data:`NO_ANALYSIS_HINT`)."""

    def __init__(self, archive, player: Optional[str] = None, variant: Optional[str] = None,
                 exercises: Optional[Sequence[DrillExercise]] = None):
        from euchre_events.archive.readmodels import ReadModels
        self.archive = archive
        self.player = player
        self.learner = (player or "").strip()
        rm = ReadModels(archive)
        if exercises is None:
            self.exercises, self.analysed = find_exercises(archive, player, variant, rm=rm)
        else:
            self.exercises, self.analysed = tuple(exercises), len({e.game_id for e in exercises})
        self.log = AttemptLog(archive, rm=rm)
        self._history: dict = {}
        for a in self.log.attempts(self.learner):
            self._history.setdefault(a.exercise, []).append(a)

    def history(self, ex: DrillExercise) -> list:
        """The learner's attempts at ``ex``, oldest first."""
        return list(self._history.get(ex.key, ()))

    def due(self, ex: DrillExercise) -> Optional[datetime]:
        """When ``ex`` is due (None: new, due now): :func:`due_after`."""
        return due_after(self._history.get(ex.key, ()))

    def next(self, now: Optional[datetime] = None, early: bool = False) -> Optional[DrillExercise]:
        """The exercise to show now: the answered ones due, the longest
        overdue first, then the new ones in their order; None when nothing is
        due (``early``: then the one due soonest)."""
        now = now or _now()
        due = [(self.due(e), i, e) for i, e in enumerate(self.exercises) if self.due(e) is not None]
        ready = sorted((d, i, e) for d, i, e in due if d <= now)
        if ready:
            return ready[0][2]
        for e in self.exercises:
            if e.key not in self._history:
                return e
        if early and due:
            return min(due)[2]
        return None

    def answer(self, ex: DrillExercise, answers: Iterable[str], correct: bool,
               at: Optional[datetime] = None) -> Attempt:
        """Keep an attempt at ``ex`` in the archive and schedule it."""
        a = self.log.record(self.learner, ex, answers, correct, at)
        self._history.setdefault(ex.key, []).append(a)
        return a

    def progress(self, now: Optional[datetime] = None) -> Progress:
        """Counts for the progress line (:class:`Progress`)."""
        now = now or _now()
        done = right = review = 0
        later = []
        for e in self.exercises:
            h = self._history.get(e.key)
            if not h:
                continue
            done += 1
            right += h[-1].correct
            d = due_after(h)
            if d <= now:
                review += 1
            else:
                later.append(d)
        new = len(self.exercises) - done
        return Progress(len(self.exercises), done, right, review, new,
                        min(later) if later and not review and not new else None)
