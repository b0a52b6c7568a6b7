"""The review app's clicks in Chromium (issue 22, Voila through ``serve``): the
evaluation graph's points (and a click beside a point, in its column) jump the
table to their decision, click after click, while the analysis is computed,
and the game picker's links keep the served app's token (a fresh browser
without the login cookie opens them).

``EE_EVAL_CLICKS`` (default 10) is how many points are clicked; the graph
with the last one ringed goes to ``review-eval-ring.png`` in the shots
folder of test_browser_review (``EE_SHOTS``)."""
import os
from urllib.parse import parse_qs, urlparse

import pytest

pytestmark = pytest.mark.browser

from browser_support import browser  # noqa: E402,F401 (a pytest fixture)
from test_browser_review import SHOTS, VWEC, opened, page_for, start, stop  # noqa: E402

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


# the points of the evaluation graph drawn with the ring (a black stroke 2.5 px wide, the
# page's computed style): exactly those of decision ``p``, a face-up one among them
RINGED = """p => {
  const pts = Array.from(document.querySelectorAll('.ee-eval circle.ee-eval-point'));
  const ringed = pts.filter(c => { const s = getComputedStyle(c);
    return s.stroke === 'rgb(0, 0, 0)' && s.strokeWidth === '2.5px'; });
  const unringed = pts.filter(c => { const s = getComputedStyle(c);
    return (s.stroke === 'none' || s.strokeWidth === '0px') && c.dataset.decision !== String(p); });
  return ringed.length > 0 && ringed.every(c => c.dataset.decision === String(p))
    && ringed.some(c => c.classList.contains('ee-eval-fu')) && ringed.length + unringed.length === pts.length;
}"""


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
            # the graph rings the decision now on turn, as drawn: its points alone have a black stroke
            page.wait_for_function(RINGED, arg=p, timeout=10000)
            jumped.append(p)
        assert len(jumped) >= n - 1
        # deal 1's seat-view values join the graph (computed in the background, perhaps before
        # the page connected: a value set then never came, and the graph is sent only when its
        # values change, so the page asks for it again once drawn)
        page.locator(".ee-eval circle.ee-eval-sv").first.wait_for(timeout=240000)
        page.wait_for_function(RINGED, arg=jumped[-1], timeout=10000)
        # the graph as a reviewer sees it, the last point clicked ringed
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator(".ee-eval svg").screenshot(path=str(SHOTS / "review-eval-ring.png"))
        assert not errors, errors
    finally:
        ctx.close()
    assert all(u.startswith("http://127.0.0.1") for u in requests)


IN_VIEW = """() => { const box = s => { const e = document.querySelector(s); if (!e) return null;
    const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  // a cost badge, a seat's head, a trick's words: none over a card of another box
  const cards = Array.from(document.querySelectorAll('.ee-viewer .ee-table .ee-card'));
  const over = [];
  for (const t of document.querySelectorAll('.ee-viewer .ee-table .ee-badge, .ee-viewer .ee-seat-head, '
                                            + '.ee-viewer .ee-trick-reason, .ee-viewer .ee-played > div')) {
    const a = t.getBoundingClientRect(); if (!a.width) continue;
    for (const c of cards) { if (c.contains(t) || t.contains(c)) continue; const b = c.getBoundingClientRect();
      if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
        over.push([t.className, t.textContent, c.dataset.card]); } }
  return {pos: document.querySelector('.ee-events .ee-current').dataset.pos, table: box('.ee-table'),
          turn: box('.ee-viewer .ee-table .ee-seat.ee-turn'), events: box('.ee-events'),
          current: box('.ee-events .ee-current'), next: box('.ee-next'), side: box('.ee-side'), over}; }"""


def test_stepping_at_1024x768_keeps_the_table_in_view(browser, app):
    """Issue 22: "the layout fits 1024 px without scrolling while stepping". On a
    1024 x 768 screen, the viewer scrolled to its top once, every click on **next**
    through the first two deals of VWEC Finals (analysis on: cost badges under the
    hand on turn, finished tricks with their reasons) leaves the whole table, the
    seat on turn, the event list with its current row and the next button in the
    window, the button where it was, and no badge or label over a card."""
    requests = []
    ctx, page, errors = page_for(browser, 1024, requests)
    page.set_viewport_size({"width": 1024, "height": 768})
    try:
        opened(page, app.url)
        page.locator(".ee-events [data-label]").first.wait_for(timeout=240000)
        page.evaluate("() => document.querySelector('.ee-viewer').scrollIntoView({block: 'start'})")
        start = page.evaluate(IN_VIEW)
        seen, tall = 0, 0
        while seen < 60:
            before = page.evaluate(IN_VIEW)["pos"]
            page.locator(".ee-next").click()
            page.wait_for_function(f"() => document.querySelector('.ee-events .ee-current').dataset.pos !== '{before}'",
                                   timeout=10000)
            got = page.evaluate(IN_VIEW)
            seen += 1
            for part in ("table", "events", "current", "next") + (("turn",) if got["turn"] else ()):
                left, top, right, bottom = got[part]
                assert left >= 0 and top >= 0 and right <= 1024 and bottom <= 768, (got["pos"], part, got)
            assert got["next"] == start["next"], (got["pos"], "the page scrolled")
            # the event list inside its panel, its right border not clipped (finding 8)
            assert got["events"][2] <= got["side"][2], (got["events"], got["side"])
            assert not got["over"], (got["pos"], got["over"])
            tall = max(tall, got["table"][3] - got["table"][1])
        # the steps went through tall tables (a finished trick, badges), not only the auction
        assert tall > 560, tall
        assert not errors, errors
    finally:
        ctx.close()


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
