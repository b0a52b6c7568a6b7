"""The drill page (issue 22, "drills from your own mistakes"): one exercise
of :class:`euchre_events.archive.drills.DrillSet` at a time, answered on the
table with the lessons' :class:`~euchre_events.ui.lesson.TableQuiz`.

The position is drawn from the deciding seat's view only
(:func:`euchre_events.projections.seat.knowledge`: its own hand, what it saw;
the other hands face down, with nothing of them in the page), without the
answer (``hide_answers``).  The learner clicks a card of the hand (a play, a
discard) or a call on the strip under the table.  A wrong pick is told what
it is worth from the seat's view and may try again (once; a question of two
choices ends with the answer); the answer comes with the values: each
option's mean over the imagined deals (the seat view) and its value with
every hand visible (face up), and the table with every hand shown, the cards
that decided it.  Each showing is kept as one attempt in the archive (right
when right at the first try), which schedules the exercise
(:func:`~euchre_events.archive.drills.due_after`).

``euchre-events drill`` serves ``notebooks/drill.ipynb``, which calls
:func:`drill_page` (the archive, player and variant from the environment:
``EUCHRE_EVENTS_DB``, ``EUCHRE_EVENTS_DRILL_PLAYER``, ``EUCHRE_EVENTS_DRILL_VARIANT``).

CSS classes a browser test finds: ``ee-drill``, ``ee-drill-progress``
(``data-done``, ``data-right``, ``data-review``, ``data-total``),
``ee-drill-next``, ``ee-drill-early``, ``ee-drill-values``, ``ee-drill-empty``,
and the quiz's own (:mod:`euchre_events.ui.lesson`).
"""
from __future__ import annotations

import html
import os
from dataclasses import dataclass, field
from typing import Optional

import ipywidgets as W

from euchre_events.archive.drills import (FACE_UP_THRESHOLD, NO_ANALYSIS_HINT, RIGHT_MARGIN, SEAT_VIEW_THRESHOLD,
                                          DrillExercise, DrillSet)
from euchre_events.rules import cards as C
from euchre_events.ui.analysisreport import points_text, pretty_action
from euchre_events.ui.describe import seat_name
from euchre_events.ui.lesson import TableQuiz
from euchre_events.ui.render import state_html

__all__ = ["DrillQuestion", "DrillQuiz", "DrillPage", "drill_question", "drill_page", "action_words"]

BEST = "\u2713best"
"""The value every right option carries in the quiz (any of them is right)."""

DRILL_CSS = """
.ee-drill{max-width:100%}
.ee-drill-head{display:flex;flex-wrap:wrap;align-items:center;gap:12px;font-size:14px;padding:6px 10px;
 background:#f1f3f4;border-radius:6px;max-width:820px;box-sizing:border-box}
.ee-drill-progress{font-weight:600}
.ee-drill-values{border-collapse:collapse;font-size:13px;margin:6px 0;max-width:820px}
.ee-drill-values th,.ee-drill-values td{border-bottom:1px solid #dadce0;padding:3px 8px;text-align:left}
.ee-drill-values td.num{text-align:right;font-variant-numeric:tabular-nums}
.ee-drill-values tr.ee-right td{background:#e6f4ea}
.ee-drill-values tr.ee-played td{background:#fdecea}
.ee-drill .ee-quiz-board .ee-card.ee-legal{outline:none;transform:none}
.ee-drill-how{font-size:13px;color:#3c4043}
.ee-drill-empty{padding:10px 12px;background:#fff8e1;border-left:5px solid #f9a825;max-width:820px;line-height:1.45}
"""


def action_words(text: str, dealer: bool = False) -> str:
    """An option in words with card symbols, as ``analyze`` says it
    (:func:`~euchre_events.ui.analysisreport.pretty_action`): ``"order"``
    (the dealer's own: ``"pick up"``, rules.md 2.3), ``"name H alone"`` ->
    ``"name ♥ alone"``, ``"discard 9C"`` -> ``"discard 9♣"``."""
    return pretty_action(text, 0, 0 if dealer else None)


@dataclass
class DrillQuestion:
    """One drill as the quiz asks it (the fields :class:`TableQuiz` reads, as
    :class:`euchre_events.ui.tutorial.Exercise` has them): ``choices``
    ``((label, value), ...)``, every right option with the value
    :data:`BEST`; ``texts`` the options' actions in choice order;
    ``board`` the seat's view before the answer, ``reveal`` every hand;
    ``values_html`` the table of values shown after the answer."""

    question: str
    choices: tuple
    texts: tuple
    answer: str
    explanation: str
    board: str
    reveal: str
    targets: tuple
    why: dict
    values_html: str
    exercise: DrillExercise = field(repr=False)
    multiple: bool = False
    section: str = ""
    picture: str = ""
    bar_title: str = ""

    @property
    def answer_text(self) -> str:
        labels = [lab for lab, v in self.choices if v == BEST]
        return " or ".join(labels)

    def why_wrong(self, picked) -> str:
        return self.why.get(picked, "")


def _question_words(ex: DrillExercise, game, st) -> str:
    who = seat_name(ex.seat, game.players, len(game.players))
    where = f"{ex.title or 'Game'}, deal {ex.deal}"
    d = ex.decision
    if ex.kind == "play":
        where += f", trick {d.trick}" if d is not None and d.trick else ""
        ask = "Which card do you play?"
    elif ex.kind == "call":
        ask = "What do you call?"
    elif ex.played.startswith("discard"):
        ask = "Which card do you discard?"
    else:
        ask = "What do you do?"
    return f"{where}: you are {who}. {ask}"


def _values_table(ex: DrillExercise, dealer: bool) -> str:
    d = ex.decision
    best_fu = max((o.face_up if not isinstance(o.face_up, (tuple, list)) else o.face_up[0])
                  for o in d.options if o.face_up is not None)
    rows = []
    for o in d.options:
        marks = []
        cls = ""
        if o.text in ex.right:
            marks.append("\u2713 right")
            cls = "ee-right"
        if o.text == ex.played:
            marks.append("played at the table")
            cls = "ee-played"
        fu = o.face_up[0] if isinstance(o.face_up, (tuple, list)) else o.face_up
        if fu is not None and fu == best_fu:
            marks.append("best with every hand visible")
        sv = "?" if o.seat_view is None else points_text(o.seat_view) + (
            f" \u00b1 {o.seat_view_se:.2f}" if o.seat_view_se else "")
        share = "" if o.best_share is None else f"{round(100 * o.best_share)}%"
        rows.append(f"<tr class='{cls}'><td>{html.escape(action_words(o.text, dealer))}</td>"
                    f"<td class='num'>{html.escape(sv)}</td><td class='num'>{html.escape(share)}</td>"
                    f"<td class='num'>{html.escape(points_text(o.face_up))}</td><td>{html.escape(', '.join(marks))}</td></tr>")
    return (f"<table class='ee-drill-values'><tr><th>option</th><th>from your seat (mean of {ex.samples} deals)</th>"
            f"<th>best in</th><th>every hand visible</th><th></th></tr>{''.join(rows)}</table>"
            f"<div style='font-size:12px;color:#5f6368;max-width:820px'>Deal points for your side. "
            f"\u201cFrom your seat\u201d: the cards you could not see dealt {ex.samples} ways consistent with what "
            f"you saw, each played out with every card known (docs/analysis.md); right: within "
            f"{RIGHT_MARGIN:g} of the best from your seat and better than what was played with every hand "
            f"visible. This drill: {html.escape(action_words(ex.played, dealer))} lost {ex.face_up_cost:g} points "
            f"with every hand visible (drills: {FACE_UP_THRESHOLD:g} or more) and {ex.seat_view_cost:.2f} "
            f"from your seat ({SEAT_VIEW_THRESHOLD:g} or more).</div>")


def _unseen_words(game, st, seat: int) -> str:
    """The hands the seat could not see, in words: the cards that decided it."""
    parts = []
    for s, hand in enumerate(st.hands):
        if s == seat or not hand:
            continue
        cards = [c for c in C.sort_hand(list(hand), st.trump) if c and not C.is_unknown(c)]
        if cards:
            parts.append(f"{seat_name(s, game.players, len(game.players))} held "
                         f"{' '.join(C.pretty(c) for c in cards)}")
    return "; ".join(parts)


def drill_question(ex: DrillExercise, game) -> DrillQuestion:
    """The quiz of ``ex`` on ``game`` (its :class:`~euchre_events.projections.Game`):
    the seat's view at ``ex.position``, the options as targets (a card of the
    seat's hand, else a button of the strip), the explanation with the values.
    Raises ``ValueError`` when the game's event there is not the decision
    (the cache belongs to another game)."""
    from euchre_events.projections.seat import knowledge
    from euchre_events.ui.tutorial import card_target
    d = ex.decision
    st = game.state_at(ex.position)
    if st.turn is not None and st.turn != ex.seat and ex.kind != "exchange":
        raise ValueError(f"event {ex.position + 1} of {ex.title or ex.game_id} is not {ex.player}'s decision")
    know = knowledge(game, ex.position, ex.seat)
    # the table as the seat saw it, the tricks it saw won included (a tutorial's hide_answers
    # would hide them: they are no answer here); the other hands face down
    board = state_html(st, ex.seat, include_css=True, knowledge=know)
    reveal = state_html(st, None, include_css=True)
    hand = set(st.hands[ex.seat])
    dealer = st.dealer == ex.seat
    choices, texts, targets, why = [], [], [], {}
    from euchre_events.ui.analysisview import low
    best_sv = max(low(o.seat_view) for o in d.options if o.seat_view is not None)
    for o in d.options:
        label = action_words(o.text, dealer)
        value = BEST if o.text in ex.right else o.text
        choices.append((label, value))
        texts.append(o.text)
        card = getattr(o.action, "card", None)
        targets.append(card_target(card, ex.seat) if card and card in hand else "")
        if value != BEST:
            gap = best_sv - (low(o.seat_view) or 0)
            why[value] = (f"from your seat {label} averages {points_text(o.seat_view)} points, "
                          f"{gap:.2f} less than the best choice" if o.seat_view is not None
                          else f"{label} is not the best choice")
            if o.text == ex.played:
                why[value] = "that is what was played at the table; " + why[value]
    right_opts = [o for o in d.options if o.text in ex.right]
    r = max(right_opts, key=lambda o: low(o.seat_view))
    played = next((o for o in d.options if o.text == ex.played), None)
    fu_best = d.best_face_up()
    expl = (f"From your seat (the cards you could not see dealt {ex.samples} ways, each played out) "
            f"{action_words(r.text, dealer)} averages {points_text(r.seat_view)} points for your side, "
            f"{action_words(ex.played, dealer)} (played at the table) {points_text(played.seat_view if played else None)}: "
            f"{ex.seat_view_cost:.2f} less. With every hand visible, "
            f"{action_words(fu_best.text, dealer) if fu_best else '?'} was best at {points_text(fu_best.face_up if fu_best else None)}"
            f" and {action_words(ex.played, dealer)} made {points_text(played.face_up if played else None)}: "
            f"it cost {ex.face_up_cost:g} points this time.")
    unseen = _unseen_words(game, st, ex.seat)
    if unseen:
        expl += f" The cards you could not see: {unseen}."
    bar = {"call": "your call:", "exchange": "you:"}.get(ex.kind, "")
    return DrillQuestion(question=_question_words(ex, game, st), choices=tuple(choices), texts=tuple(texts),
                         answer=BEST, explanation=expl, board=board, reveal=reveal, targets=tuple(targets),
                         why=why, values_html=_values_table(ex, dealer), exercise=ex, bar_title=bar)


class DrillQuiz(TableQuiz):
    """A :class:`TableQuiz` that notes the actions clicked (``clicked``) and
    calls ``on_answered(quiz)`` once, when the answer is known."""

    def __init__(self, q: DrillQuestion, on_answered=None):
        self.clicked: list = []
        self._on_answered = on_answered
        self._told = False
        self.question = q
        super().__init__(q, tries=2, lesson=None)
        self.lesson = None
        # the feedback right under the question, above the table: seen at 1024 px without scrolling
        kids = list(self.widget.children)
        kids.remove(self.feedback)
        kids.insert(1, self.feedback)
        self.widget.children = tuple(kids)

    def click(self, i: int):
        if not self.answered and 0 <= i < len(self.question.texts):
            self.clicked.append(self.question.texts[i])
        return super().click(i)

    def _reveal(self, got=None) -> None:
        super()._reveal(got)
        # every wrong pick stays marked, not only the last one
        marks = dict(self.board_w.marks)
        for i, t in enumerate(self.question.texts):
            if t in self.clicked and self.values[i] != BEST:
                marks[str(i)] = "wrong"
        self.board_w.marks = marks
        if not self._told:
            self._told = True
            if self._on_answered is not None:
                self._on_answered(self)


class DrillPage:
    """The practice page of a :class:`DrillSet`: a header with the progress
    line, the exercise due (:meth:`DrillSet.next`), **next exercise** once
    it is answered; "nothing due" with the time of the next review and
    **practise early**; or, with no exercise, how to make some.
    ``page.quiz`` is the exercise shown (None when none), ``page.widget``
    (and displaying the page) the page."""

    def __init__(self, drills: DrillSet, title: str = ""):
        self.drills = drills
        who = drills.player or "every player"
        self.title = title or f"Drills from {who}'s mistakes"
        self.head = W.HTML()
        self.body = W.VBox([], layout=W.Layout(width="100%"))
        self.next_b = W.Button(description="next exercise \u2192", layout=W.Layout(width="auto", display="none"))
        self.next_b.add_class("ee-drill-next")
        self.next_b.on_click(lambda _: self.show_next())
        self.early_b = W.Button(description="practise early", layout=W.Layout(width="auto", display="none"))
        self.early_b.add_class("ee-drill-early")
        self.early_b.on_click(lambda _: self.show_next(early=True))
        self.quiz: Optional[DrillQuiz] = None
        self.exercise: Optional[DrillExercise] = None
        self._games: dict = {}
        self.widget = W.VBox([W.HTML(f"<style>{DRILL_CSS}</style>"), self.head, self.body,
                              W.HBox([self.next_b, self.early_b])],
                             layout=W.Layout(align_items="flex-start", max_width="100%"))
        self.widget.add_class("ee-drill")
        self.widget.add_class("ee-root")
        self._draw_head()
        self.show_next()

    def _draw_head(self) -> None:
        p = self.drills.progress()
        self.head.value = (f"<div class='ee-drill-head'><b>{html.escape(self.title)}</b>"
                           f"<span class='ee-drill-progress' data-done='{p.done}' data-right='{p.right}' "
                           f"data-review='{p.to_review}' data-total='{p.total}'>{html.escape(p.line())}</span></div>")

    def _game(self, gid: str):
        if gid not in self._games:
            self._games[gid] = self.drills.archive.load(gid)
        return self._games[gid]

    def _message(self, text: str) -> None:
        self.body.children = (W.HTML(f"<div class='ee-drill-empty'>{text}</div>"),)

    def show_next(self, early: bool = False) -> Optional[DrillExercise]:
        """Show the exercise due now (``early``: the one due soonest); returns it, or None."""
        self.next_b.layout.display = "none"
        self.early_b.layout.display = "none"
        if not self.drills.exercises:
            self.quiz = self.exercise = None
            if not self.drills.analysed:
                self._message(f"No analysed game of {html.escape(self.drills.player or 'any player')} in the "
                              f"archive yet: {html.escape(NO_ANALYSIS_HINT)}, then open this page again.")
            else:
                self._message(f"No drill in {self.drills.analysed} analysed game"
                              f"{'s' if self.drills.analysed != 1 else ''}: no decision lost "
                              f"{FACE_UP_THRESHOLD:g} point{'s' if FACE_UP_THRESHOLD != 1 else ''} or more with every "
                              f"hand visible and {SEAT_VIEW_THRESHOLD:g} or more from the seat's view. Well played.")
            return None
        ex = self.drills.next(early=early)
        if ex is None:
            p = self.drills.progress()
            when = p.next_due.astimezone().strftime("%Y-%m-%d %H:%M") if p.next_due else "later"
            self.quiz = self.exercise = None
            self._message(f"Nothing to review now: every drill is answered; the next one is due {when}.")
            self.early_b.layout.display = "inline-flex"
            return None
        q = drill_question(ex, self._game(ex.game_id))
        self.exercise = ex
        self.quiz = DrillQuiz(q, on_answered=self._answered)
        self.quiz.then(W.HTML(q.values_html))
        self.body.children = (self.quiz.widget,)
        return ex

    def _answered(self, quiz: DrillQuiz) -> None:
        self.drills.answer(self.exercise, quiz.clicked, bool(quiz.first_try_right))
        self._draw_head()
        self.next_b.layout.display = "inline-flex"

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def drill_page(db: Optional[str] = None, player: Optional[str] = None, variant: Optional[str] = None):
    """The drill page for the archive ``db`` (default ``$EUCHRE_EVENTS_DB``,
    then the archive the environment names) and ``player``/``variant``
    (default ``$EUCHRE_EVENTS_DRILL_PLAYER``, ``$EUCHRE_EVENTS_DRILL_VARIANT``):
    a :class:`DrillPage`, or an HTML message saying what is missing (no
    archive there, an archive that cannot be opened)."""
    from euchre_events.archive import Archive, sqlite_file
    db = db or os.environ.get("EUCHRE_EVENTS_DB") or None
    player = player or os.environ.get("EUCHRE_EVENTS_DRILL_PLAYER") or None
    variant = variant or os.environ.get("EUCHRE_EVENTS_DRILL_VARIANT") or None
    try:
        path = sqlite_file(db)
        if path and not os.path.exists(path):
            return W.HTML(f"<style>{DRILL_CSS}</style><div class='ee-drill-empty'>No archive at "
                          f"{html.escape(path)}: import your games (euchre-events import FILE), then "
                          f"{html.escape(NO_ANALYSIS_HINT)}.</div>")
        drills = DrillSet(Archive(db), player=player, variant=variant)
    except Exception as e:  # the page says why, never a traceback
        return W.HTML(f"<style>{DRILL_CSS}</style><div class='ee-drill-empty'>The archive cannot be opened: "
                      f"{html.escape(type(e).__name__)}: {html.escape(str(e)[:300])}</div>")
    return DrillPage(drills)
