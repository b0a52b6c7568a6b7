"""Issue 22, drills from your own mistakes, in the real browser: ``euchre-events
drill``'s page (notebooks/drill.ipynb, served by euchre_events.ui.serve as the
CLI serves it) over an archive analysed with 8 imagined deals per decision.

Llama's drill (VWEC Finals deal 5, trick 2: A♥ played, 9♣ right) is answered
wrong then right by clicks on the cards of the hand; the feedback gives the
values; the progress line counts it; the attempt is in the archive's
``ee_drill_attempts`` (wrong at the first try, both cards clicked).  Before
the answer the page's DOM text holds neither the explanation nor a hidden
hand's card.  Requests to any host but 127.0.0.1 are aborted; a page error
fails the test.  ``EE_SHOTS=DIR`` keeps screenshots.
"""
import os
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

from browser_support import browser  # noqa: E402,F401 (a fixture; the module is skipped without Chromium)
from browser_support import free_port, local_only, stop_voila, wait_http  # noqa: E402
from test_drills import VWEC, analysed  # noqa: E402


@pytest.fixture(scope="module")
def drill_app(tmp_path_factory):
    from euchre_events.ui.serve import serve
    tmp = tmp_path_factory.mktemp("voila-drills")
    db = str(tmp / "club.sqlite")
    analysed(db, VWEC)
    env = {"EUCHRE_EVENTS_DRILL_PLAYER": "Llama", "EUCHRE_EVENTS_DRILL_VARIANT": ""}
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
        d = tmp / name.lower()
        d.mkdir(exist_ok=True)
        env[name] = str(d)
    port = free_port()
    log = open(tmp / "voila.log", "w")
    proc = serve(notebook="drill.ipynb", port=port, db=db, env=env, block=False, quiet=True, log=log)
    try:
        wait_http(f"http://127.0.0.1:{port}/voila/static/")
        yield {"url": proc.url, "db": db}
    finally:
        stop_voila(proc, log)


def shot(page, name):
    where = os.environ.get("EE_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(where) / f"{name}.png"), full_page=True)


def test_a_drill_answered_wrong_then_right_is_kept_in_the_archive(drill_app, browser):
    from euchre_events.archive import Archive
    from euchre_events.archive.drills import AttemptLog, DrillSet
    ds = DrillSet(Archive(drill_app["db"]), player="Llama")
    ex = ds.next()
    assert (ex.played, ex.right) == ("AH", ("9C",))
    north = list(Archive(drill_app["db"]).load(ex.game_id).state_at(ex.position).hands[0])
    context = browser.new_context(viewport={"width": 1024, "height": 900})
    local_only(context)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(drill_app["url"], timeout=180000)
    board = page.locator(".ee-drill .ee-quiz-board")
    board.locator(".ee-pickable").first.wait_for(timeout=180000)
    progress = page.locator(".ee-drill-progress")
    assert progress.inner_text() == "0 of 1 done \u00b7 0 right \u00b7 0 to review"
    assert "VWEC Finals, deal 5, trick 2: you are East (Llama). Which card do you play?" in page.inner_text("body")
    # the seat's view only: the other hands face down, nothing of them in the DOM
    east = board.locator(".ee-hand-1 .ee-card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert sorted(east) == sorted(["9C", "AH", "KH", "QS"])
    for s in (0, 2, 3):
        assert set(board.locator(f".ee-hand-{s} .ee-card").evaluate_all(
            "els => els.map(e => e.dataset.card)")) <= {"hidden"}
    text = page.evaluate("() => document.body.textContent")
    assert "From your seat" not in text and "could not see:" not in text
    assert "every hand visible" not in text
    assert page.locator(".ee-drill-values").count() == 0
    shot(page, "drill-1024-before")
    # wrong: the ace of hearts, as played at the table; a card of the hand is the target
    ah = board.locator('.ee-hand-1 .ee-card[data-card="AH"]')
    assert ah.evaluate("e => e.classList.contains('ee-pickable')")
    ah.click()
    wrong = page.locator(".ee-quiz-wrong")
    wrong.wait_for(timeout=20000)
    assert "what was played at the table" in wrong.inner_text() and "Try again" in wrong.inner_text()
    assert "From your seat" not in page.evaluate("() => document.body.textContent")
    assert progress.inner_text().startswith("0 of 1 done")         # not answered yet: a try left
    shot(page, "drill-1024-wrong")
    # right: the nine of clubs
    board.locator('.ee-hand-1 .ee-card[data-card="9C"]').click()
    right = page.locator(".ee-quiz-right")
    right.wait_for(timeout=20000)
    said = right.inner_text()
    assert "\u2713" in said and "9\u2663" in said and "it cost 3 points this time" in said
    assert "From your seat" in said and "could not see: North (WWMM) held" in said
    # the header is drawn again after the answer: looked up anew, not held
    page.wait_for_function("() => document.querySelector('.ee-drill-progress').dataset.done === '1'",
                           timeout=20000)
    assert progress.inner_text() == "1 of 1 done \u00b7 0 right \u00b7 0 to review"
    page.locator(".ee-drill-values").wait_for(timeout=20000)
    rows = page.locator(".ee-drill-values tr").all_inner_texts()
    assert any(r.startswith("9\u2663") and "right" in r for r in rows)
    assert any(r.startswith("A\u2665") and "played at the table" in r for r in rows)
    # both picks marked on the table: the wrong one and the right one
    page.wait_for_function("el => el.querySelector('.ee-mark-wrong[data-card=\"AH\"]') && "
                           "el.querySelector('.ee-mark-right[data-card=\"9C\"]')", arg=board.element_handle(),
                           timeout=20000)
    # after the answer: every hand is shown, the cards that decided it
    assert sorted(board.locator(".ee-hand-0 .ee-card").evaluate_all("els => els.map(e => e.dataset.card)")) \
        == sorted(north)
    page.locator(".ee-drill-next").wait_for(timeout=20000)
    # the feedback is above the table, in view without scrolling at 1024 x 900
    box = right.bounding_box()
    assert box["y"] + box["height"] <= 900 and box["x"] + box["width"] <= 1024
    shot(page, "drill-1024-right")
    page.locator(".ee-drill-values").scroll_into_view_if_needed()
    shot(page, "drill-1024-values")
    # the attempt is in the archive: wrong at the first try, both clicks
    got = AttemptLog(Archive(drill_app["db"])).attempts("Llama")
    assert [(a.exercise, a.answers, a.correct) for a in got] == [(ex.key, ("AH", "9C"), False)]
    # next: nothing due now (back in a minute), said with practise early
    page.locator(".ee-drill-next").click()
    page.locator(".ee-drill-empty").wait_for(timeout=20000)
    assert "Nothing to review now" in page.locator(".ee-drill-empty").inner_text()
    assert errors == [], errors
    context.close()
