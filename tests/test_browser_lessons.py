"""Issue 22, lessons answered on the cards, in the real browser: one exercise
per variant's tutorial, answered by clicks on the table (a card, a seat, a
call button, the points picker), never a radio button or a checkbox.

Before the answer the page's whole DOM text (``document.body.textContent``:
hidden elements and the viewers kept for later included) holds neither the
explanation nor the words that give this exercise away; after a wrong click
the feedback says why that pick is wrong and allows a retry; after the right
click (and **check my answer** where several are right) the feedback, the
lesson's progress bar and its score follow.

Voila (euchre_events.ui.serve) serves the notebooks, Playwright drives
Debian's Chromium at 1024 px.  Requests to any host but 127.0.0.1 are
aborted and a page error fails the test.  ``EE_SHOTS=DIR`` keeps screenshots.
"""
import html
import os
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

from browser_support import browser  # noqa: E402,F401 (a pytest fixture; the module is skipped without Chromium)
from browser_support import local_only, start_voila, stop_voila  # noqa: E402
from conftest import tutorial_exercises  # noqa: E402


@pytest.fixture(scope="module")
def voila_lessons(tmp_path_factory):
    proc, url, db, log = start_voila(tmp_path_factory.mktemp("voila-lessons"))
    try:
        path, token = url.split("?")
        yield {"base": path.rsplit("/", 1)[0], "token": token}
    finally:
        stop_voila(proc, log)


# (notebook, exercise, a part of its question, wrong picks in order, words that must not be in the
#  page before the answer (besides the explanation), the next lesson)
LESSONS = [
    # hearts trump, hearts led: West must follow with J♦, the left bower (rules.md 1.2); a hand
    # sorted by trump would put J♦ among the hearts
    ("tutorial-standard.ipynb", "q6", "Suppose North had led the ace of hearts", [{"9C"}],
     ["left bower, a heart here", "Must follow hearts"], "two-handed"),
    # round 2: spades was turned down (3.2): the table must not say "its suit cannot be named now"
    ("tutorial-two-handed.ipynb", "ex_round2", "which suits may Ben name", [{0, 1, 2, 3}],
     ["cannot be named", "other than spades"], "cutthroat"),
    # the maker with the dummy holds 5 + 5 = 10 cards (4.3): the text must not say "the ten"
    ("tutorial-cutthroat.ipynb", "ex_dummy", "How many cards does P3 hold", [5],
     ["best five of the ten", "holds 10 cards"], "ghost-hand"),
    # hearts trump: A♣ 9♥ Q♣, the nine of trump wins (1.3)
    ("tutorial-ghost-hand.ipynb", "ex_trick4", "Trick 4: P1 leads A\u2663", [0],
     ["trick 4, won by", "9\u2665 wins"], "buck"),
    # East (dealer's left) dropped out: South, the next player still in, leads (6.3)
    ("tutorial-buck.ipynb", "ex_lead2", "Who leads to the first trick", [0],
     ["South to lead", "So South leads"], "bid"),
    # the joker is a heart when hearts are trump: West must follow with it (7.8)
    ("tutorial-bid.ipynb", "ex_jk_follow", "North led jack of hearts", [{"AC"}],
     ["the joker, a heart here", "Must follow hearts"], ""),
]


def dom_text(page):
    """Every text of the page, hidden ones included (not only what is visible)."""
    return page.evaluate("() => document.body.textContent")


def shot(locator, name):
    where = os.environ.get("EE_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        locator.screenshot(path=str(Path(where) / f"{name}.png"))


def click_answer(board, ex, value):
    """Click ``value``'s target on the table (a card, a seat) or its button under the table."""
    i = [v for _, v in ex.choices].index(value)
    target = ex.targets[i] if i < len(ex.targets) else ""
    el = board.locator(f'[data-pick="{i}"]').first
    if target:
        # the card or the seat itself, not a control beside the table
        assert el.evaluate("e => e.classList.contains('ee-card') || e.classList.contains('ee-seat')")
    else:
        assert el.evaluate("e => e.classList.contains('ee-answer-btn')")
    el.click()


@pytest.mark.parametrize("nb,name,question,wrong,leaks,next_lesson", LESSONS,
                         ids=[c[0][9:-6] for c in LESSONS])
def test_a_lesson_answered_on_the_cards(voila_lessons, browser, nb, name, question, wrong, leaks, next_lesson):
    ex = tutorial_exercises(nb)[name]
    context = browser.new_context(viewport={"width": 1024, "height": 900})
    local_only(context)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{voila_lessons['base']}/{nb}?{voila_lessons['token']}", timeout=180000)
    quiz = page.locator(".ee-quiz", has_text=question).first
    quiz.wait_for(timeout=180000)
    quiz.scroll_into_view_if_needed()
    board = quiz.locator(".ee-quiz-board")
    board.locator(".ee-pickable").first.wait_for(timeout=30000)
    # answered on the table: no radio button, no checkbox anywhere in the lesson
    assert page.locator(".ee-quiz input[type=radio], .ee-quiz input[type=checkbox]").count() == 0
    assert board.locator(".ee-pickable").count() >= len(ex.choices)
    # before the answer: nothing of it in the page's text, hidden parts included
    text = dom_text(page)
    for words in [ex.explanation[:60]] + leaks:
        assert words not in text, words
    assert board.locator(".ee-legal, .ee-turn, .ee-mark-right").count() == 0
    assert quiz.locator(".ee-quiz-after").evaluate("e => e.querySelectorAll('.ee-viewer').length") == 0
    assert quiz.locator(".ee-quiz-feedback").inner_text().strip() == ""
    if ex.multiple:   # a hand: in natural suits, never sorted by trump (the left bower among the trumps)
        from euchre_events.rules.cards import sort_hand
        shown = board.locator(".ee-hand .ee-card.ee-pickable").evaluate_all("els => els.map(e => e.dataset.card)")
        if shown:
            assert shown == [c for c in sort_hand(shown, None)]
    shot(quiz, f"{name}-1024-before")
    count = quiz.locator(".ee-lesson-count")
    done0 = int(count.get_attribute("data-done"))
    # a wrong pick: why that pick is wrong, a retry, not the answer
    for pick in wrong:
        if ex.multiple:
            for v in pick:
                click_answer(board, ex, v)
            # a pick goes to the kernel and comes back as the card or button raised
            board.locator(".ee-picked").nth(len(pick) - 1).wait_for(timeout=15000)
            quiz.locator("button.ee-quiz-check").click()
        else:
            click_answer(board, ex, pick)
        box = quiz.locator(".ee-quiz-wrong")
        box.wait_for(timeout=15000)
        why = ex.why_wrong(pick)
        assert why[:1].upper() + why[1:] in box.inner_text()
        assert "Try again" in box.inner_text() and "The answer" not in quiz.inner_text()
        assert ex.explanation[:60] not in dom_text(page)
        shot(quiz, f"{name}-1024-wrong")
        if ex.multiple:   # unpick before the right answer
            for v in pick:
                click_answer(board, ex, v)
            page.wait_for_function("el => el.querySelectorAll('.ee-picked').length === 0",
                                   arg=board.element_handle(), timeout=15000)
    # the right answer, by clicks
    if ex.multiple:
        for v in ex.answer:
            click_answer(board, ex, v)
        quiz.locator("button.ee-quiz-check").click()
    else:
        click_answer(board, ex, ex.answer)
    right = quiz.locator(".ee-quiz-right")
    right.wait_for(timeout=15000)
    assert "\u2713" in right.inner_text() and ex.explanation[:60] in right.inner_text()
    if ex.section:
        assert f"rules.md {ex.section}" in right.inner_text()
    page.wait_for_function("el => el.querySelectorAll('.ee-mark-right').length > 0", arg=board.element_handle(),
                           timeout=15000)
    # the lesson counts it: one more answered, not right at the first try
    page.wait_for_function("([el, n]) => Number(el.dataset.done) === n",
                           arg=[count.element_handle(), done0 + 1], timeout=15000)
    assert quiz.locator(".ee-lesson-score").get_attribute("data-right") == "0"
    link = quiz.locator(".ee-lesson-next")
    if next_lesson:
        assert f"tutorial-{next_lesson}.ipynb" in link.get_attribute("href")
        assert voila_lessons["token"] in link.get_attribute("href")
    else:
        assert link.count() == 0
    shot(quiz, f"{name}-1024-right")
    assert errors == [], errors
    context.close()


# the analysis classes the viewer draws: the switch, its panel, the graph, the cost badges, the labels
ANALYSIS = ".ee-analysis-toggle, .ee-analysis, .ee-eval, .ee-badge.ee-cost, .ee-label, .ee-best-line"


def test_lesson_analysis_off_until_answered(voila_lessons, browser):
    """Issue 22: in a lesson the analysis is off until the learner has
    answered: no analysis control or text in the page's DOM before, the
    switch there (off) after, and turned on it shows the values."""
    nb, name = "tutorial-standard.ipynb", "q5"
    ex = tutorial_exercises(nb)[name]
    context = browser.new_context(viewport={"width": 1024, "height": 900})
    local_only(context)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{voila_lessons['base']}/{nb}?{voila_lessons['token']}", timeout=180000)
    quiz = page.locator(".ee-quiz", has_text="Which cards may West play").first
    quiz.wait_for(timeout=180000)
    # the whole notebook has run (the last lesson bar is drawn) before the DOM is read
    page.locator(".ee-lesson-next").last.wait_for(timeout=180000)
    quiz.scroll_into_view_if_needed()
    board = quiz.locator(".ee-quiz-board")
    board.locator(".ee-pickable").first.wait_for(timeout=30000)
    # before the answer: no analysis anywhere in the page, hidden parts included
    found = page.evaluate("""sel => Array.from(document.querySelectorAll(sel)).map(e => e.className + ' < '
        + (e.closest('.ee-quiz') ? 'quiz:' + e.closest('.ee-quiz').innerText.slice(0, 40) : 'no quiz')
        + ' < ' + (e.closest('.ee-viewer') ? 'viewer' : ''))""", ANALYSIS)
    assert found == [], found
    text = dom_text(page)
    # (the up-card is "face up" on the table: the analysis's own words only)
    for words in ("analysis:", "par (face up)", "face up (every hand seen)", "seat view", "best line",
                  "mistake \u203a"):
        assert words not in text, words
    # the right answer, by clicks
    if ex.multiple:
        for v in ex.answer:
            click_answer(board, ex, v)
        board.locator(".ee-picked").nth(len(ex.answer) - 1).wait_for(timeout=15000)
        quiz.locator("button.ee-quiz-check").click()
    else:
        click_answer(board, ex, ex.answer)
    quiz.locator(".ee-quiz-right").wait_for(timeout=15000)
    # after: the viewer of the deal, its analysis switch there and off; on, the values come
    after = quiz.locator(".ee-quiz-after")
    toggle = after.locator(".ee-analysis-toggle")
    toggle.wait_for(timeout=30000)
    assert toggle.is_enabled()
    assert not toggle.evaluate("e => e.classList.contains('mod-active')")
    toggle.click()
    after.locator(".ee-analysis-progress", has_text="analysis:").wait_for(timeout=30000)
    after.locator(".ee-par", has_text="par (face up)").wait_for(timeout=120000)
    # the record stops before West's card; one event back, the card played there has its costs
    after.locator(".ee-analysis", has_text="the record does not say").wait_for(timeout=120000)
    after.locator("button.ee-prev").click()
    after.locator(".ee-analysis tr.ee-option").first.wait_for(timeout=30000)
    assert after.locator(".ee-hand .ee-badge.ee-cost").count() >= 1
    shot(quiz, f"{name}-1024-analysis-after")
    assert errors == [], errors
    context.close()
