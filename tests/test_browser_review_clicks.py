"""The review app's clicks in Chromium (issue 22, Voila through ``serve``): the
evaluation graph's points (and a click beside a point, in its column) jump the
table to their decision, click after click, while the analysis is computed,
and the game picker's links keep the served app's token (a fresh browser
without the login cookie opens them).

``EE_EVAL_CLICKS`` (default 10) is how many points are clicked."""
import os
from urllib.parse import parse_qs, urlparse

import pytest

pytestmark = pytest.mark.browser

from browser_support import browser  # noqa: E402,F401 (a pytest fixture)
from test_browser_review import VWEC, opened, page_for, start, stop  # noqa: E402

from euchre_events.archive import Archive  # noqa: E402
from euchre_events.formats import read_records  # noqa: E402

TWO = VWEC.parent.parent / "two-handed" / "parlour-1.euchre"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """The review app on an archive of two games (a two-handed one, then VWEC
    Finals, opened first), analysis on: face up, then the seat view computed
    in the background while the test clicks (the graph redrawn as it arrives)."""
    tmp = tmp_path_factory.mktemp("review-clicks")
    db = str(tmp / "club.sqlite")
    arch = Archive(db)
    arch.import_record(read_records(str(TWO))[0])
    del arch
    proc, log = start(tmp, db, record=str(VWEC), analysis="on")
    try:
        yield proc
    finally:
        stop(proc, log)


def current(page) -> int:
    return int(page.locator(".ee-events .ee-current").get_attribute("data-pos"))


def test_eval_graph_click_jumps(browser, app):
    requests = []
    ctx, page, errors = page_for(browser, 1024, requests)
    try:
        opened(page, app.url)
        # deal 1's face-up values arrive in the background: one point per decision
        page.locator(".ee-eval circle.ee-eval-fu").first.wait_for(timeout=240000)
        points = page.evaluate("""() => Array.from(document.querySelectorAll('.ee-eval circle.ee-eval-fu'))
            .map(c => Number(c.dataset.decision))""")
        assert len(points) >= 10
        g = page.locator(".ee-eval svg").bounding_box()
        graph_mid = g["y"] + g["height"] / 2
        # far apart and back: each click must move the table (never the decision shown now)
        order = [p for pair in zip(points[::2], reversed(points[1::2])) for p in pair]
        n = int(os.environ.get("EE_EVAL_CLICKS", "10"))
        jumped = []
        for p in (order * 3)[:n]:
            if current(page) == p - 1:
                continue
            pt = page.locator(f'.ee-eval circle.ee-eval-fu[data-decision="{p}"]')
            if len(jumped) % 2 == 0:
                pt.click()
            else:   # near the point, as a hand does: its column answers too
                box = pt.bounding_box()
                y = box["y"] + box["height"] / 2
                page.mouse.click(box["x"] + box["width"] / 2, y + (12 if y < graph_mid else -12))
            # the table just before that decision: its event list's current row is the event before
            page.locator(f'.ee-events .ee-current[data-pos="{p - 1}"]').wait_for(timeout=10000)
            # the graph rings the decision now on turn
            page.locator(f'.ee-eval circle.ee-eval-fu.ee-eval-here[data-decision="{p}"]').wait_for(timeout=10000)
            jumped.append(p)
        assert len(jumped) >= n - 1
        assert not errors, errors
    finally:
        ctx.close()
    assert all(u.startswith("http://127.0.0.1") for u in requests)


def test_game_picker_keeps_the_token(browser, app):
    requests = []
    ctx, page, errors = page_for(browser, 1024, requests)
    token = parse_qs(urlparse(app.url).query)["token"][0]
    try:
        opened(page, app.url)
        links = page.locator(".ee-game-picker a")
        assert links.count() == 2
        # every link carries the token the page was opened with
        page.wait_for_function("""t => Array.from(document.querySelectorAll('.ee-game-picker a'))
            .every(a => new URL(a.href).searchParams.get('token') === t)""", arg=token, timeout=20000)
        other = page.locator(".ee-game:not(.ee-game-current) a")
        href = other.get_attribute("href")
        game = parse_qs(urlparse(href).query)["game"][0]
        other.click()
        page.wait_for_url(f"**game={game}*", timeout=240000, wait_until="commit")
        assert parse_qs(urlparse(page.url).query).get("token") == [token]
        page.locator(".ee-table").wait_for(timeout=180000)
        assert "P1" in page.locator(".ee-title").inner_text()
        assert not errors, errors
    finally:
        ctx.close()
    # a browser with no login cookie opens the link as it is
    ctx2, page2, errors2 = page_for(browser, 1024, requests)
    try:
        resp = page2.goto(href if href.startswith("http") else app.url.split("?")[0] + href, timeout=180000)
        assert resp.status == 200
        page2.locator(".ee-table").wait_for(timeout=180000)
        assert not errors2, errors2
    finally:
        ctx2.close()
