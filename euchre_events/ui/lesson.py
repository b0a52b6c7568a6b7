"""Lessons answered on the cards (issue 22): the tutorials' exercise widget
and the lesson's progress bar.

:class:`TableQuiz` shows one :class:`euchre_events.ui.tutorial.Exercise` as
a learner meets it at the table: the question, then the table before the
decision (drawn with ``hide_answers``, rules.md sections as the exercise
cites them), and the learner answers *on the table*: a click on a card of
the hand asked about, on a seat (its box, or its card in the trick), or on
a button of the answer strip under the table (the calls asked about, a
points picker where a number is asked).  Nothing of the answer is in the
page before the learner has answered: no legal card raised, no legal call
listed, no reason, no verdict, no viewer of the deal (:meth:`TableQuiz.then`).

One answer: a click answers.  Several answers (``Exercise.multiple``): each
click picks or unpicks (class ``ee-picked``), then **check my answer**.  A
wrong pick is told why *that* pick is wrong, and the learner may try again,
except on a question with two choices, where the other choice would be a
free answer: there a wrong pick ends the exercise with the answer.  The
answer and its explanation (with the rules.md section) come with a right
pick, a second wrong one, or **show the answer**; the table then shows its
highlights and the picks are marked ``ee-mark-right``, ``ee-mark-wrong``,
``ee-mark-missed``.

:class:`Lesson` is one tutorial notebook's progress: exercises answered out
of those on the page, the score (answered right at the first try) and the
link to the next lesson (:data:`LESSONS`).  Every quiz of the lesson shows
a view of the same bar (class ``ee-lesson``).

CSS classes a browser test finds: ``ee-quiz``, ``ee-quiz-board`` (the
table), ``ee-pickable`` (every answer target, with ``data-pick``: its
index among the exercise's choices), ``ee-answer-bar`` and
``ee-answer-btn``, ``ee-quiz-check``, ``ee-quiz-show``,
``ee-quiz-feedback`` holding ``ee-quiz-right`` / ``ee-quiz-wrong`` /
``ee-quiz-answer`` with the mark ``ee-quiz-mark``, ``ee-quiz-after``;
``ee-lesson`` with ``ee-lesson-progress``, ``ee-lesson-score`` and
``ee-lesson-next``.
"""
from __future__ import annotations

import html
from typing import Any, Optional, Sequence

import anywidget
import ipywidgets as W
import traitlets

from euchre_events.ui import render as R

__all__ = ["LESSONS", "Lesson", "TableQuiz", "answer_bar", "current_lesson", "answer_among", "answer_controls"]

LESSONS = ("standard", "two-handed", "cutthroat", "ghost-hand", "buck", "bid")
"""The lessons in the order a learner takes them (``notebooks/tutorial-<name>.ipynb``):
standard Euchre first, the game the others compare themselves with."""

LESSON_TITLES = {"standard": "standard Euchre", "two-handed": "two-handed Euchre",
                 "cutthroat": "cutthroat Euchre", "ghost-hand": "Ghost Hand Euchre",
                 "buck": "Buck Euchre", "bid": "Bid Euchre"}

QUIZ_CSS = """
.ee-quiz{max-width:100%}
.ee-quiz-board .ee-table{max-width:820px}
.ee-quiz-board .ee-pickable{cursor:pointer}
.ee-quiz-board .ee-seat.ee-pickable:hover,.ee-quiz-board .ee-played.ee-pickable:hover,
.ee-quiz-board .ee-side-row.ee-pickable:hover{box-shadow:0 0 0 2px #90caf9}
.ee-quiz-board .ee-card.ee-pickable:hover{transform:translateY(-4px)}
.ee-quiz-board .ee-card.ee-picked{transform:translateY(-8px);box-shadow:0 0 0 3px #42a5f5}
.ee-quiz-board .ee-seat.ee-picked,.ee-quiz-board .ee-played.ee-picked{box-shadow:0 0 0 3px #42a5f5}
.ee-quiz-board .ee-mark-right{box-shadow:0 0 0 3px #34a853 !important}
.ee-quiz-board .ee-mark-wrong{box-shadow:0 0 0 3px #ea4335 !important}
.ee-quiz-board .ee-mark-missed{box-shadow:0 0 0 3px #fbbc04 !important}
.ee-answer-bar{background:#0b6b3a;color:#fff;border-radius:0 0 12px 12px;margin-top:-6px;padding:8px 10px;
 max-width:820px;box-sizing:border-box;display:flex;flex-wrap:wrap;gap:6px;align-items:center}
.ee-answer-bar .ee-bar-title{font-weight:700;margin-right:4px}
.ee-answer-btn{background:#fff;color:#202124;border:1px solid #c8c8c8;border-radius:6px;padding:4px 10px;
 font-size:14px;cursor:pointer;font-family:inherit}
.ee-answer-btn.ee-picked{background:#e3f2fd;border-color:#42a5f5;box-shadow:0 0 0 2px #42a5f5}
.ee-prompt{font-style:italic;opacity:.9}
""" + R.QUIZ_FEEDBACK_CSS
"""The lessons' styles: right and wrong each have a colour *and* a mark
(\u2713, \u2717), so they read without colour too."""

def answer_among(answer: Any, values: Sequence, multiple: bool) -> Any:
    """A quiz's answer as it checks it: the set of right values
    (``frozenset``) where ``multiple``, else the one value.  Raises
    ``ValueError`` naming what is not among ``values`` (the choices')."""
    answer = frozenset(answer) if multiple else answer
    missing = (set(answer) - set(values)) if multiple else ({answer} - set(values))
    if missing:
        raise ValueError(f"the answer {sorted(map(str, missing))} is not among the choices")
    return answer


def answer_controls(quiz: Any) -> None:
    """The controls every quiz has, set on ``quiz`` (a :class:`TableQuiz`
    or :class:`euchre_events.ui.widgets.Quiz`, which call their own
    ``check()`` and ``show_answer()``): ``check_b`` (class
    ``ee-quiz-check``), ``show_b`` (``ee-quiz-show``), ``feedback``
    (``ee-quiz-feedback``) and ``after_w`` (``ee-quiz-after``: what shows
    once the answer is known, :meth:`TableQuiz.then`; hidden till then)."""
    quiz.check_b = W.Button(description="check my answer", layout=W.Layout(width="auto"))
    quiz.check_b.add_class("ee-quiz-check")
    quiz.check_b.on_click(lambda _: quiz.check())
    quiz.show_b = W.Button(description="show the answer", layout=W.Layout(width="auto"))
    quiz.show_b.add_class("ee-quiz-show")
    quiz.show_b.on_click(lambda _: quiz.show_answer())
    quiz.feedback = W.HTML()
    quiz.feedback.add_class("ee-quiz-feedback")
    quiz.after_w = W.VBox([], layout=W.Layout(display="none", width="100%"))
    quiz.after_w.add_class("ee-quiz-after")


# The table in the browser: draws the HTML, marks the answer targets (CSS
# selectors per choice, computed by the exercise from the rules), sends a
# click (or Enter/Space on a focused target) to the kernel, and shows the
# picks and, once answered, the marks.  All the checking is done in Python.
_BOARD_ESM = """
function render({ model, el }) {
  el.classList.add('ee-quiz-table');
  const draw = () => {
    el.innerHTML = model.get('html');
    const marks = model.get('marks') || {};
    const picked = new Set(model.get('picked') || []);
    const locked = model.get('locked');
    for (const [key, sel] of model.get('targets') || []) {
      if (!sel) continue;
      let found = [];
      try { found = el.querySelectorAll(sel); } catch (e) { found = []; }
      for (const t of found) {
        t.dataset.pick = key;
        t.classList.add('ee-pickable');
        if (!locked) { t.setAttribute('role', 'button'); t.setAttribute('tabindex', '0'); }
      }
    }
    for (const t of el.querySelectorAll('[data-pick]')) {
      t.classList.add('ee-pickable');
      t.classList.toggle('ee-picked', picked.has(t.dataset.pick) && !locked);
      for (const m of ['right', 'wrong', 'missed']) t.classList.toggle('ee-mark-' + m, marks[t.dataset.pick] === m);
      if (locked) t.classList.remove('ee-pickable');
    }
  };
  const pick = (e) => {
    const t = e.target && e.target.closest ? e.target.closest('[data-pick]') : null;
    if (!t || !el.contains(t) || model.get('locked')) return;
    e.preventDefault();
    model.send({ pick: t.dataset.pick });
  };
  el.addEventListener('click', pick);
  el.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') pick(e); });
  for (const name of ['html', 'targets', 'picked', 'marks', 'locked']) model.on('change:' + name, draw);
  draw();
}
export default { render };
"""


class _Board(anywidget.AnyWidget):
    """The exercise's table in the browser (see :data:`_BOARD_ESM`)."""

    _esm = _BOARD_ESM
    html = traitlets.Unicode("").tag(sync=True)
    targets = traitlets.List([]).tag(sync=True)     # [[key, css selector], ...]
    picked = traitlets.List([]).tag(sync=True)      # keys picked (several answers)
    marks = traitlets.Dict({}).tag(sync=True)       # key -> "right" | "wrong" | "missed"
    locked = traitlets.Bool(False).tag(sync=True)


_BAR_ESM = """
function render({ model, el }) {
  el.classList.add('ee-lesson');
  const draw = () => {
    const done = model.get('done'), total = model.get('total'), right = model.get('right');
    const next = model.get('next_name'), nextTitle = model.get('next_title');
    // the next lesson's address: this page's, with the notebook's name changed (the token kept)
    let link = '';
    if (next) {
      const path = location.pathname.replace(/tutorial-[^/]*\\.ipynb$/, 'tutorial-' + next + '.ipynb');
      const href = path === location.pathname && !/tutorial-/.test(path) ? 'tutorial-' + next + '.ipynb' : path;
      link = `<a class="ee-lesson-next" href="${href}${location.search}">next lesson: ${nextTitle} \u2192</a>`;
    }
    const pct = total ? Math.round(100 * done / total) : 0;
    el.innerHTML = `<div style="display:flex;flex-wrap:wrap;align-items:center;gap:10px;font-size:13px;
        padding:4px 8px;background:#f1f3f4;border-radius:6px;max-width:820px;box-sizing:border-box">
      <b>${model.get('title')}</b>
      <progress class="ee-lesson-progress" max="${total}" value="${done}" style="width:160px"></progress>
      <span class="ee-lesson-count" data-done="${done}" data-total="${total}">${done} of ${total} answered</span>
      <span class="ee-lesson-score" data-right="${right}">score: ${right} right at the first try</span>
      ${done === total && total ? '<b>lesson done!</b>' : ''} ${link}</div>`;
  };
  for (const n of ['done', 'total', 'right', 'next_name', 'title']) model.on('change:' + n, draw);
  draw();
}
export default { render };
"""


class _LessonBar(anywidget.AnyWidget):
    _esm = _BAR_ESM
    title = traitlets.Unicode("").tag(sync=True)
    done = traitlets.Int(0).tag(sync=True)
    total = traitlets.Int(0).tag(sync=True)
    right = traitlets.Int(0).tag(sync=True)
    next_name = traitlets.Unicode("").tag(sync=True)
    next_title = traitlets.Unicode("").tag(sync=True)


_CURRENT: list = []


def current_lesson() -> Optional["Lesson"]:
    """The lesson the exercises made now belong to (the last :class:`Lesson` made), or None."""
    return _CURRENT[-1] if _CURRENT else None


class Lesson:
    """One tutorial's progress: answered, right at the first try, next lesson.

    ``variant``: the lesson's name in :data:`LESSONS` (``"two-handed"``);
    raises ``ValueError`` for another name.  Making a lesson makes it the
    current one: every exercise shown afterwards (:meth:`TableQuiz`) is
    counted in it.  ``lesson.widget`` (and displaying the lesson) is the bar:
    a progress bar, ``"3 of 13 answered"``, the score, and once every
    exercise is answered "lesson done!"; the link to the next lesson is
    always there (a learner may skip).
    """

    def __init__(self, variant: str):
        if variant not in LESSONS:
            raise ValueError(f"no lesson {variant!r}; the lessons are {', '.join(LESSONS)}")
        self.variant = variant
        i = LESSONS.index(variant)
        nxt = LESSONS[i + 1] if i + 1 < len(LESSONS) else ""
        self.quizzes: list = []
        self.widget = _LessonBar(title=f"Lesson {i + 1} of {len(LESSONS)}: {LESSON_TITLES[variant]}",
                                 next_name=nxt, next_title=LESSON_TITLES.get(nxt, ""))
        _CURRENT.append(self)

    def add(self, quiz: "TableQuiz") -> None:
        """Count ``quiz`` in this lesson (done by :class:`TableQuiz` itself)."""
        if quiz not in self.quizzes:
            self.quizzes.append(quiz)
            self.update()

    def update(self) -> None:
        """Recount after an answer."""
        self.widget.total = len(self.quizzes)
        self.widget.done = sum(1 for q in self.quizzes if q.answered)
        self.widget.right = self.score

    @property
    def score(self) -> int:
        """Exercises answered right at the first try."""
        return sum(1 for q in self.quizzes if q.first_try_right)

    @property
    def done(self) -> int:
        """Exercises answered (right, wrong twice, one wrong of two choices, or shown)."""
        return sum(1 for q in self.quizzes if q.answered)

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def answer_bar(title: str, buttons: Sequence, prompt: str = "") -> str:
    """The strip under the table with the answer buttons: ``buttons`` is
    ``[(key, label), ...]`` (the calls asked about, a points picker); labels
    escaped.  With no buttons, the ``prompt`` alone (what to click on the
    table)."""
    out = [f'<div class="ee-answer-bar">']
    if title:
        out.append(f'<span class="ee-bar-title">{html.escape(title)}</span>')
    for key, label in buttons:
        out.append(f'<button type="button" class="ee-answer-btn" data-pick="{html.escape(str(key))}">'
                   f'{html.escape(str(label))}</button>')
    if prompt:
        out.append(f'<span class="ee-prompt">{html.escape(prompt)}</span>')
    out.append("</div>")
    return "".join(out)


class TableQuiz:
    """One exercise answered on the table (see the module docstring).

    ``ex``: an :class:`euchre_events.ui.tutorial.Exercise` (question,
    choices, answer, explanation with its rules.md section, ``board`` and
    ``reveal`` tables, ``targets``: per choice, the CSS selector of what to
    click on the table, ``""`` for a button of the answer strip);
    ``tries``: wrong picks allowed before the answer shows (2; 1 when there
    are two choices).  ``lesson``: the :class:`Lesson` to count it in
    (default: :func:`current_lesson`).

    ``quiz.click(i)`` is what a click on the target of choice ``i`` does;
    ``quiz.check(selection)`` checks a value (one answer) or a set of values
    and returns True when right; ``quiz.show_answer()``; ``quiz.then(w)``.
    State: ``answered``, ``wrong_tries``, ``first_try_right``, ``last_result``.
    """

    def __init__(self, ex: Any, tries: int = 2, lesson: Optional[Lesson] = None):
        self.ex = ex
        self.choices = list(ex.choices)
        self.values = [v for _, v in self.choices]
        self.multiple = bool(ex.multiple)
        self.answer = answer_among(ex.answer, self.values, self.multiple)
        # two choices, one answer: after a wrong pick the other one is no longer a question
        self.tries = 1 if (not self.multiple and len(self.choices) == 2) else max(1, int(tries))
        self.answered = False
        self.wrong_tries = 0
        self.first_try_right = False
        self.last_result: Optional[bool] = None
        self._picked: list = []
        self._after: list = []
        self._viewers: list = []
        targets = list(getattr(ex, "targets", ()) or ())
        targets += [""] * (len(self.choices) - len(targets))
        self._targets = [[str(i), sel] for i, sel in enumerate(targets) if sel]
        self._bar_keys = [(str(i), lbl) for i, ((lbl, _), sel) in enumerate(zip(self.choices, targets)) if not sel]
        ref = f" (rules.md {ex.section})" if ex.section else ""
        self.explanation = ex.explanation + ref

        q = W.HTML(f"<style>{QUIZ_CSS}</style><b>{html.escape(ex.question)}</b>")
        q.add_class("ee-quiz-question")
        self.board_w = _Board(html=self._table(ex.board, before=True), targets=self._targets)
        self.board_w.add_class("ee-quiz-board")
        self.board_w.on_msg(self._on_msg)
        answer_controls(self)
        if not self.multiple:
            self.check_b.layout.display = "none"     # one answer: the click is the answer
        self.lesson = lesson if lesson is not None else current_lesson()
        kids = [q, self.board_w, W.HBox([self.check_b, self.show_b], layout=W.Layout(flex_flow="row wrap")),
                self.feedback, self.after_w]
        if self.lesson is not None:
            kids.append(self.lesson.widget)
            self.lesson.add(self)
        self.widget = W.VBox(kids, layout=W.Layout(align_items="flex-start", margin="6px 0", max_width="100%"))
        self.widget.add_class("ee-quiz")
        self.widget.add_class("ee-root")

    # ------------------------------------------------------------ drawing
    def _prompt(self) -> str:
        if self.multiple:
            return "click every right answer, then check"
        return "click your answer" + (" on the table" if self._targets else "")

    def _table(self, table: str, before: bool) -> str:
        """The table (``board`` or ``reveal``) with the answer strip under it."""
        bar = ""
        if self._bar_keys or before:
            bar = answer_bar(getattr(self.ex, "bar_title", "") if self._bar_keys else "",
                             self._bar_keys, self._prompt() if before else "")
        picture = getattr(self.ex, "picture", "")
        if not table:
            # no position: the picture (cards to click) on a small green table
            inner = f"<div style='padding:10px'>{picture}</div>" if picture else ""
            table = (f"<style>{R.CSS}</style><div class='ee-root'><div class='ee-table ee-mini-table' "
                     f"style='display:block;background:#0b6b3a;border-radius:12px 12px 0 0;min-height:8px'>"
                     f"{inner}</div></div>")
        elif before:
            table = table.replace('<div class="ee-reason ee-hidden-answer">answer the question to see what '
                                  'the rules allow</div>',
                                  '<div class="ee-reason ee-hidden-answer">answer on the table</div>')
        return table + bar

    # ------------------------------------------------------------ answering
    def _on_msg(self, _widget, content, _buffers) -> None:
        key = content.get("pick") if isinstance(content, dict) else None
        try:
            i = int(key)
        except (TypeError, ValueError):
            return                                   # nonsense from the page: ignored
        if 0 <= i < len(self.values):
            self.click(i)

    def click(self, i: int) -> Optional[bool]:
        """A click on choice ``i``'s target: picks or unpicks it (several
        answers; returns None), or answers with it (one answer; returns
        what :meth:`check` returns).  Ignored once answered."""
        if self.answered:
            return None
        if self.multiple:
            key = str(i)
            self._picked = [k for k in self._picked if k != key] if key in self._picked else self._picked + [key]
            self.board_w.picked = list(self._picked)
            return None
        return self.check(self.values[i])

    def selection(self):
        """What the learner has picked now (several answers: a frozenset of values)."""
        return frozenset(self.values[int(k)] for k in self._picked)

    def _right_text(self) -> str:
        return self.ex.answer_text

    def _answer_html(self) -> str:
        return (f'<div class="ee-quiz-answer"><b>The answer: {R.esc_words(self._right_text())}.</b> '
                f'{R.esc_words(self.explanation)}</div>')

    def then(self, *widgets) -> "TableQuiz":
        """Show ``widgets`` (a :class:`~euchre_events.ui.widgets.GameViewer`,
        any ipywidget) under the feedback once the answer is known, not
        before: a viewer of the deal gives the answer away (its legal calls,
        the trick's winner, the score).  A viewer's analysis switch is locked
        (off, out of the page) until then, and given back off once answered.
        Returns the quiz."""
        # kept out of the page until then: a hidden widget is still in the page's text
        self._after += [getattr(w, "widget", w) for w in widgets]
        # a viewer's analysis would give the answer away (the values of each card and
        # call): off, its switch out of the page, until the learner has answered
        for w in widgets:
            if hasattr(w, "lock_analysis"):
                self._viewers.append(w)
                if not self.answered:
                    w.lock_analysis("answer the exercise first")
        if self.answered:
            self._show_after()
        return self

    def _show_after(self) -> None:
        for v in self._viewers:
            v.unlock_analysis()
        if self._after:
            self.after_w.children = tuple(self._after)
            self.after_w.layout.display = "flex"

    def _reveal(self, got=None) -> None:
        self.answered = True
        marks = {}
        got_set = set(got) if self.multiple and got is not None else ({got} if got is not None else set())
        right = set(self.answer) if self.multiple else {self.answer}
        for i, v in enumerate(self.values):
            if v in right:
                marks[str(i)] = "right" if (v in got_set or got is None or not self.multiple) else "missed"
            elif v in got_set:
                marks[str(i)] = "wrong"
        if self.ex.reveal:
            self.board_w.html = self._table(self.ex.reveal, before=False)
        else:
            self.board_w.html = self._table(self.ex.board, before=False)
        self.board_w.marks = marks
        self.board_w.locked = True
        self.check_b.layout.display = "none"
        self.show_b.layout.display = "none"
        self._show_after()
        if self.lesson is not None:
            self.lesson.update()

    def check(self, selection=None) -> bool:
        """Check ``selection`` (default: the picks on the table): \u2713 with the
        explanation, or \u2717 with why that pick is wrong and, after the last
        try, the answer.  Raises nothing; a check with nothing picked on a
        one-answer exercise asks for a pick."""
        if self.answered:
            return bool(self.last_result)
        if selection is not None and self.multiple:
            self._picked = [str(i) for i, v in enumerate(self.values) if v in set(selection)]
            self.board_w.picked = list(self._picked)
        got = self.selection() if self.multiple else selection
        if got is None:
            self.feedback.value = '<div class="ee-quiz-answer">Click your answer on the table first.</div>'
            return False
        ok = got == self.answer
        self.last_result = ok
        if ok:
            self.first_try_right = self.wrong_tries == 0
            self.feedback.value = (f'<div class="ee-quiz-right"><span class="ee-quiz-mark">\u2713</span>'
                                   f'<b>Right: {R.esc_words(self._right_text())}.</b> {R.esc_words(self.explanation)}</div>')
            self._reveal(got)
            return True
        self.wrong_tries += 1
        why = self.ex.why_wrong(got) or ""
        out = ('<div class="ee-quiz-wrong"><span class="ee-quiz-mark">\u2717</span><b>Not that.</b> '
               + (R.esc_words(why[:1].upper() + why[1:]) + "." if why else ""))
        if self.wrong_tries >= self.tries:
            out += "</div>" + self._answer_html()
            self._reveal(got)
        else:
            out += " Try again, or press <i>show the answer</i>.</div>"
        self.feedback.value = out
        return False

    def show_answer(self) -> None:
        """Show the answer, its explanation and the table with its highlights."""
        if self.answered:
            return
        self.feedback.value = self._answer_html()
        self.last_result = False
        self._reveal(None)

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)
