"""The HTML export in a real browser (issue 10): keys, the deal and trick
menus, the clickable event list, the position link, the record's variations
and the score chart, in Debian's Chromium (/usr/bin/chromium; never
``playwright install``) driven by Playwright, the file opened from disk.

Every position the page shows is checked against the projection
(:meth:`euchre_events.projections.Game.state_at`), and every move against the
app's own navigation (:class:`euchre_events.ui.widgets.GameViewer`: ``press``,
``link``, ``goto_link``), so the export and the app agree key for key and
link for link.  Every request to another host is aborted and any page error
fails.  ``EE_SHOTS=DIR`` keeps screenshots; ``-s`` prints the click-to-update
medians.
"""
import json
import os
import random
import statistics
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

from browser_support import browser  # noqa: E402,F401 (a pytest fixture; the module is skipped without Chromium)

from conftest import CLUB  # noqa: E402
from euchre_events.formats import read_records  # noqa: E402
from euchre_events.projections import Game  # noqa: E402
from euchre_events.ui.htmlexport import export_html  # noqa: E402
from euchre_events.ui.render import legal_cards_of  # noqa: E402
from euchre_events.ui.widgets import KEY_ACTIONS, GameViewer  # noqa: E402


SNAPSHOT_JS = """() => {
  const cards = sel => Array.from(document.querySelectorAll(sel)).map(e => e.dataset.card);
  const score = document.querySelector('.ee-score table');
  const cur = document.querySelector('.ee-events .ee-current');
  return {
    hands: [0, 1, 2, 3].map(s => cards(`.ee-hand-${s} .ee-card`).sort()),
    legal: [0, 1, 2, 3].map(s => cards(`.ee-hand-${s} .ee-legal`).sort()),
    trick: cards('.ee-trick-cards .ee-card:not(.ee-done)'),
    done: cards('.ee-trick-cards .ee-card.ee-done'),
    score: score ? score.dataset.score : null,
    current: cur ? Number(cur.dataset.pos) : null,
    label: cur ? Number(cur.querySelector('.ee-num').textContent) : null,
    position: Number(document.querySelector('.ee-table').dataset.position),
    hash: location.hash,
  };
}"""


def expected_snapshot(game, k, link):
    """What the page must show after k events (all hands), from the projection."""
    st = game.state_at(k)
    hands = [sorted(st.hands[s]) if s < len(st.hands) else [] for s in range(4)]
    legal = [sorted(legal_cards_of(st)) if st.turn == s else [] for s in range(4)]
    done = ([c for _, c in st.tricks[-1][1]]
            if not st.trick and st.tricks and st.phase in ("play", "deal_over", "game_over") else [])
    return {"hands": hands, "legal": legal, "trick": [c for _, c in st.trick], "done": done,
            # events numbered from 1, as the viewer and the link count: after event 18, position 18
            "score": ",".join(str(x) for x in st.score), "current": k - 1, "label": k if k > 0 else None,
            "position": k, "hash": "#" + link}


def wait_for(page, expected, what, timeout=5000):
    try:
        page.wait_for_function(f"(exp) => JSON.stringify(({SNAPSHOT_JS})()) === JSON.stringify(exp)",
                               arg=expected, timeout=timeout, polling=20)
    except Exception:
        got = page.evaluate(SNAPSHOT_JS)
        raise AssertionError(f"{what}: the page shows {json.dumps(got)}, expected {json.dumps(expected)}")


def open_page(browser, path, fragment="", width=1400, height=1000):
    context = browser.new_context(viewport={"width": width, "height": height})
    requests = []
    context.on("request", lambda r: requests.append(r.url))
    context.route("**/*", lambda route: route.continue_()
                  if route.request.url.startswith("file://") else route.abort())
    context.set_default_timeout(8000)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri() + fragment)
    page.wait_for_function("() => document.querySelector('.ee-table').dataset.position")
    return context, page, errors, requests


def shot(page, name):
    where = os.environ.get("EE_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(where) / f"{name}.png"), full_page=True)


def viewer(game):
    return GameViewer(game, chart=False)


def test_export_keys_menus_list_and_chart_match_the_app_and_the_projection(browser, tmp_path):
    """Keys, buttons, event-list rows, the deal and trick menus and the chart's
    points, in the exported page, against GameViewer (the same moves in the
    app) and Game.state_at (what the table must show) at every step."""
    game = Game(read_records(str(CLUB))[0].events)
    path = tmp_path / "club.html"
    export_html(game, str(path))
    context, page, errors, requests = open_page(browser, path)
    v = viewer(game)
    v.goto(1)                                        # the export opens at position 1
    wait_for(page, expected_snapshot(game, 1, v.link), "on opening")

    def check(what):
        wait_for(page, expected_snapshot(game, v.position, v.link), what)

    # every key, then a seeded walk of 60 keys, each checked
    for key in KEY_ACTIONS:
        page.keyboard.press(key)
        v.press(key)
        check(f"after {key}")
    rng = random.Random(10)
    keys = list(KEY_ACTIONS) + ["ArrowRight"] * 6 + ["ArrowLeft"] * 2
    for step in range(60):
        key = rng.choice(keys)
        page.keyboard.press(key)
        v.press(key)
        check(f"walk step {step}: {key}")
    # the buttons
    for cls, move in (("ee-first", v.first), ("ee-next", v.next), ("ee-next", v.next), ("ee-last", v.last),
                      ("ee-prev", v.prev)):
        page.click(f"button.{cls}")
        move()
        check(f"after the {cls} button")
    # a click on an event of the list jumps to it (the table after that event)
    v.goto(60)
    page.keyboard.press("Home")
    for _ in range(59):
        page.keyboard.press("ArrowRight")
    check("at 60 by keys")
    for j in (55, 67, 58, 50):
        page.click(f'.ee-events [data-pos="{j}"]')
        v.goto_event(j)
        check(f"after a click on event {j}")
    # the deal menu, then the trick menu (of the deal shown); a key works right after
    for d in (5, 2, 9):
        page.locator(".ee-deal").select_option(value=str(d))
        v.jump_deal(d)
        check(f"deal menu: deal {d}")
        assert page.locator(".ee-deal").input_value() == str(d)
    for t in (3, 1, 5):
        page.locator(".ee-trick").select_option(value=str(t))
        v.jump_trick(t)
        check(f"trick menu: trick {t} of deal 9")
        assert page.locator(".ee-trick").input_value() == str(t)
    page.keyboard.press("ArrowRight")
    v.press("ArrowRight")
    check("a key after the trick menu")
    assert page.locator(".ee-trick").input_value() == "5"
    # the chart: a point per deal and side; a click goes to the end of that deal
    n_deals = len(game.deal_positions())
    assert page.locator(".ee-chart .ee-chart-point").count() == 2 * (n_deals + 1)
    assert "score after each deal" in page.locator(".ee-chart").inner_text()
    for d in (3, 0, n_deals):
        page.locator(f'.ee-chart .ee-chart-point[data-deal="{d}"]').first.dispatch_event("click")
        v.jump_deal_end(d)
        check(f"chart click on deal {d}")
    page.keyboard.press("End")
    v.last()
    check("End")
    st = game.state_at(v.position)
    assert page.locator(".ee-chart").get_attribute("data-deal") == str(st.deal_results[-1][0])
    shot(page, "export-end-with-chart")
    assert [u for u in requests if not u.startswith("file://")] == []
    assert errors == [], errors
    context.close()


def test_export_opens_at_a_position_link(browser, tmp_path):
    """#deal=N&event=K opens after the first K events of deal N, counted as
    ``show --deal N --after K`` counts; ``event=K``, ``deal=N`` too; a link
    that names no position opens at position 1; the hash follows every step;
    editing the address moves the table."""
    game = Game(read_records(str(CLUB))[0].events)
    starts = dict(game.deal_positions())
    path = tmp_path / "club.html"
    export_html(game, str(path))
    for frag, k in (("deal=3&event=12", starts[3] + 12), ("deal=2&event=1", starts[2] + 1),
                    ("event=40", 40), ("deal=10", None), ("deal=4&event=999", None)):
        v = viewer(game)
        assert v.goto_link(frag)
        if k is not None:
            assert v.position == k, frag                # as `show --deal N --after K`
        context, page, errors, _ = open_page(browser, path, "#" + frag)
        wait_for(page, expected_snapshot(game, v.position, v.link), f"opened at #{frag}")
        page.keyboard.press("ArrowRight")
        v.press("ArrowRight")
        wait_for(page, expected_snapshot(game, v.position, v.link), f"#{frag}, then ArrowRight")
        if frag == "deal=3&event=12":
            shot(page, "export-link-deal3-event13")
            # a new address in the same page (a director's link pasted in): the table follows
            page.evaluate("() => { location.hash = '#deal=5&event=3'; }")
            v.goto_link("deal=5&event=3")
            wait_for(page, expected_snapshot(game, v.position, v.link), "after the address changed")
        assert errors == [], errors
        context.close()
    for bad in ("deal=99&event=2", "deal=x", "line=7&event=3", "nothing"):
        context, page, errors, _ = open_page(browser, path, "#" + bad)
        v = viewer(game)
        v.goto(1)
        wait_for(page, expected_snapshot(game, 1, v.link), f"opened at the bad link #{bad}")
        assert errors == [], errors
        context.close()


def test_export_variations_replay(browser, tmp_path):
    """The record's variation: a row under the event it leaves the main line
    at, the line menu, and its own positions (the main line's events, then its
    own), checked against its folded Game; the link carries &line=1."""
    rec = read_records(str(CLUB))[0]
    main = Game(rec.events)
    var = rec.variations[0]
    k = var["position"]
    line = Game(list(rec.events[:k]) + list(var["events"]))
    path = tmp_path / "club.html"
    export_html(main, str(path), annotations=rec.annotations, variations=rec.variations)
    context, page, errors, _ = open_page(browser, path, f"#event={k}")
    row = page.locator('.ee-events [data-line="1"]')
    assert "variation 1" in row.inner_text()
    row.click()
    lv = viewer(line)
    lv.goto(k + 1)
    wait_for(page, expected_snapshot(line, k + 1, lv.link + "&line=1"), "the variation's first event")
    assert page.locator(".ee-line").input_value() == "1"
    for _ in range(3):
        page.keyboard.press("ArrowRight")
        lv.press("ArrowRight")
        wait_for(page, expected_snapshot(line, lv.position, lv.link + "&line=1"), "stepping in the variation")
    shot(page, "export-variation")
    # back to the main line from the menu, at the same position
    page.locator(".ee-line").select_option(value="0")
    v = viewer(main)
    v.goto(lv.position)
    wait_for(page, expected_snapshot(main, v.position, v.link), "back on the main line")
    # a link into the variation opens in it
    context.close()
    context, page, errors2, _ = open_page(browser, path, "#" + lv.link + "&line=1")
    wait_for(page, expected_snapshot(line, lv.position, lv.link + "&line=1"), "a link into the variation")
    assert errors == [] and errors2 == [], (errors, errors2)
    context.close()


def test_export_with_hostile_names_does_not_inject(browser, tmp_path):
    """A player name, a note and a variation comment holding markup and
    ``</script>``, and a hostile address: shown as text, nothing runs, the
    page still replays."""
    hostile = "<!--<script>window.pwned=1</script>&amp;<img src=x onerror=\"window.pwned=2\">"
    src = CLUB.read_text().replace('[North "Ann"]', '[North "' + hostile.replace('"', "'") + '"]')
    rec_path = tmp_path / "hostile.euchre"
    rec_path.write_text(src)
    rec = read_records(str(rec_path))[0]
    game = Game(rec.events)
    name = game.players[0]
    assert "<script>" in name
    variations = [dict(rec.variations[0], comment=hostile)]
    path = tmp_path / "hostile.html"
    export_html(game, str(path), annotations=[{"position": 3, "text": hostile + "-->", "mark": "?"}],
                variations=variations)
    raw = path.read_text()
    data = raw[raw.index('<script id="ee-data"'):]
    data = data[:data.index("</script>")]
    assert "<!--" not in data and "<script>window" not in data and "<img" not in data
    context, page, errors, requests = open_page(browser, path, "#deal=<img src=x onerror='window.pwned=3'>")
    v = viewer(game)
    v.goto(1)
    wait_for(page, expected_snapshot(game, 1, v.link), "hostile page opened at a hostile address")
    for _ in range(4):
        page.keyboard.press("ArrowRight")
        v.press("ArrowRight")
        wait_for(page, expected_snapshot(game, v.position, v.link), "hostile page stepping")
    page.goto(path.as_uri() + f"#event={variations[0]['position']}")
    page.wait_for_function("() => document.querySelector('.ee-events [data-line]')")
    assert hostile in page.locator(".ee-events").inner_text()      # the comment, as text
    assert name in page.locator(".ee-root").inner_text()            # the name, as text
    assert page.locator(".ee-events img, .ee-root img").count() == 0
    assert page.evaluate("() => window.pwned") is None
    assert [u for u in requests if not u.startswith("file://")] == []
    assert errors == [], errors
    context.close()


def test_export_click_to_update_median(browser, tmp_path):
    """Click to updated table in the export: in the page (click() to the next
    frame) and from Playwright (click to the DOM checked), over 40 clicks of
    next and 20 event-list clicks."""
    game = Game(read_records(str(CLUB))[0].events)
    path = tmp_path / "club.html"
    export_html(game, str(path))
    context, page, errors, _ = open_page(browser, path)
    in_page = page.evaluate("""async () => {
      const out = [], btn = document.querySelector('button.ee-next');
      const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
      for (let i = 0; i < 40; i++) {
        const t0 = performance.now();
        btn.click();
        await frame();
        out.push(performance.now() - t0);
      }
      return out;
    }""")
    import time
    round_trip = []
    for j in range(45, 65):
        t0 = time.perf_counter()
        page.click(f'.ee-events [data-pos="{j}"]')
        page.wait_for_function(f"() => document.querySelector('.ee-table').dataset.position === '{j + 1}'",
                               polling="raf")
        round_trip.append((time.perf_counter() - t0) * 1000)
    med_page, med_rt = statistics.median(in_page), statistics.median(round_trip)
    print(f"\nexport click-to-update median: {med_page:.1f} ms in the page (next, to the next frame), "
          f"{med_rt:.1f} ms from Playwright (event-list click to DOM)")
    assert med_page < 100 and med_rt < 300
    assert errors == [], errors
    context.close()


BOXES_JS = """() => Array.from(document.querySelectorAll(
    '.ee-controls button, .ee-controls select, .ee-controls input, .ee-link, .ee-table, .ee-events, .ee-chart svg'))
  .map(e => { const r = e.getBoundingClientRect();
              return {cls: e.className.baseVal !== undefined ? 'svg' : e.className,
                      x: r.left, y: r.top, r: r.right, b: r.bottom}; })"""


@pytest.mark.parametrize("width", [1024, 1400])
def test_export_layout_fits(browser, tmp_path, width):
    """At 1024 and 1400 px wide every control, the table, the event list and
    the chart lie inside the viewport's width and no two controls overlap
    (the event list beside the table at both: at 1024 px it went below the
    table, a screen's height of scrolling away)."""
    rec = read_records(str(CLUB))[0]
    path = tmp_path / "club.html"
    export_html(Game(rec.events), str(path), annotations=rec.annotations, variations=rec.variations)
    context, page, errors, _ = open_page(browser, path, "#deal=3&event=12", width=width, height=900)
    boxes = page.evaluate(BOXES_JS)
    assert len(boxes) >= 13
    for b in boxes:
        assert b["x"] >= 0 and b["r"] <= width, (width, b)
    controls = [b for b in boxes if b["cls"] not in ("ee-table", "ee-events", "svg")]
    for i, a in enumerate(controls):
        for c in controls[i + 1:]:
            apart = a["r"] <= c["x"] or c["r"] <= a["x"] or a["b"] <= c["y"] or c["b"] <= a["y"]
            assert apart, (width, a, c)
    table = next(b for b in boxes if b["cls"] == "ee-table")
    events = next(b for b in boxes if b["cls"] == "ee-events")
    assert events["x"] >= table["r"] and events["y"] < table["b"]     # beside it
    shot(page, f"export-{width}")
    assert errors == [], errors
    context.close()
