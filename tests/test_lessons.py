"""Issue 22, lessons answered on the cards, without a browser: every exercise
of the six tutorials is answered on the table, its table before the answer
holds none of it, two-choice questions end at the first wrong pick, and the
lesson counts answers and the score.  Answers come from the rules engine;
the browser side is tests/test_browser_lessons.py."""
import re

import pytest

from euchre_events.ui.lesson import LESSONS, Lesson, TableQuiz
from euchre_events.ui.tutorial import Exercise
from test_viewer_issue10 import tutorial_exercises

NOTEBOOKS = [f"tutorial-{v}.ipynb" for v in LESSONS]


def text_of(page: str) -> str:
    return re.sub(r"<[^>]+>", " ", page.split("</style>")[-1])


@pytest.mark.parametrize("nb", NOTEBOOKS)
def test_every_exercise_is_answered_on_the_table_with_nothing_of_the_answer_before(nb):
    ns = tutorial_exercises(nb)
    exercises = {k: v for k, v in ns.items() if isinstance(v, Exercise)}
    quizzes = {name: ex.quiz() for name, ex in exercises.items()}   # as the page shows them
    assert exercises and ns["lesson"].widget.total == len(exercises)
    for name, ex in exercises.items():
        q = quizzes[name]
        assert isinstance(q, TableQuiz)
        before = q.board_w.html
        # every choice has a target: a selector on the table or a button under it
        keys = {k for k, _ in q._targets} | set(re.findall(r'data-pick="(\d+)"', before))
        assert keys == {str(i) for i in range(len(ex.choices))}, name
        words = text_of(before)
        assert ex.explanation[:50] not in words, name
        assert "cannot be named now" not in words and "to act" not in words, name
        marks = re.sub(r"<style>.*?</style>", "", before, flags=re.S)
        assert 'class="ee-legal' not in marks and " ee-legal" not in marks and "ee-calls" not in marks, name


def test_two_choice_question_ends_at_the_first_wrong_pick_and_the_lesson_counts():
    """Two-handed (rules.md 3.3): Ben may not go alone.  "allowed" is wrong: the
    answer comes at once (the other choice would be a free answer), not a retry."""
    ns = tutorial_exercises("tutorial-two-handed.ipynb")
    lesson = Lesson("two-handed")
    alone = ns["ex_alone"]
    assert alone.answer == "no" and [lbl for lbl, _ in alone.choices] == ["allowed", "not allowed"]
    q = TableQuiz(alone, lesson=lesson)
    assert q.click(0) is False and q.answered and not q.first_try_right
    assert "Try again" not in q.feedback.value and "The answer: not allowed." in q.feedback.value
    assert "rules.md 3.3" in q.feedback.value and "rules.md 2." not in q.feedback.value
    assert q.board_w.marks == {"0": "wrong", "1": "right"} and q.board_w.locked
    # a seat question answered right at once: the score
    lead = TableQuiz(ns["ex_lead1"], lesson=lesson)     # the non-dealer, Ben, leads (3.3)
    assert ns["ex_lead1"].answer == 1 and lead.click(1) is True
    assert (lesson.widget.done, lesson.widget.total, lesson.widget.right) == (2, 2, 1)
    assert lesson.widget.next_name == "cutthroat"


def test_several_answers_are_picked_on_the_cards_then_checked_and_the_viewer_comes_after():
    """Two-handed trick 2: J♥ led, hearts trump: Ann must follow with J♦ (the left bower) or
    Q♥ (rules.md 1.2).  The viewer given to then() is not in the page before the answer."""
    ns = tutorial_exercises("tutorial-two-handed.ipynb")
    ex = ns["ex_follow2"]
    q = TableQuiz(ex, lesson=Lesson("two-handed"))
    q.then(__import__("ipywidgets").HTML("the deal"))
    assert q.after_w.children == ()
    values = [v for _, v in ex.choices]
    assert values == ["JD", "QH", "AS", "KS"]         # natural suits: J♦ with the diamonds, not the trumps
    q.click(values.index("AS"))
    assert q.board_w.picked == [str(values.index("AS"))]
    assert q.check() is False and "J\u2666" not in q.feedback.value and "Try again" in q.feedback.value
    q.click(values.index("AS"))
    q.click(values.index("JD"))
    q.click(values.index("QH"))
    assert q.check() is True and q.after_w.children[0].value == "the deal"


def test_a_renege_and_a_march_hint_without_their_points():
    """Wrong picks are told the case (rules.md 3.4: a march), never the points."""
    ns = tutorial_exercises("tutorial-two-handed.ipynb")
    march = ns["ex_points2"]
    assert march.answer == 2
    for v in (1, 4):
        assert "march" in march.why_wrong(v) and "worth" not in march.why_wrong(v)
        assert "+2" not in march.why_wrong(v) and "pays the maker" in march.why_wrong(v)
