"""``export --format html --with-analysis`` in a real browser (issue 22
"Analysis at the table"): the exported page of the VWEC final shows, at a
known position, the same EGN labels and costs as ``analyze --format json``
(event list, the legal cards' badges, the options below the table, the deal's
par), its evaluation graph jumps where a point is clicked, ``m`` goes to the
next mistake, and no request leaves the file.  Debian's Chromium through
Playwright (tests/browser_support.py); ``EE_SHOTS=DIR`` keeps screenshots at
1024 and 1400 px.  tests/test_export_analysis.py checks the page without a browser."""
import json
import os
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
from browser_support import browser  # noqa: F401 (a pytest fixture; the module is skipped without Chromium)
from conftest import VWEC, cli
SAMPLES = "20"      # a coarse seat view, enough to label; the page and analyze use the same


def _cli(*args):
    r = cli(*args)
    assert r.exit_code == 0, r.output
    return r


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """(page path, analyze's JSON of the game, Game) for the VWEC final."""
    from euchre_events.formats import read_records
    d = tmp_path_factory.mktemp("analysis")
    page = d / "vwec.html"
    _cli("export", VWEC, "-f", "html", "--with-analysis", "--samples", SAMPLES, "-o", page)
    doc = json.loads(_cli("analyze", VWEC, "--samples", SAMPLES, "--format", "json").stdout)
    return page, doc["games"][0], read_records(str(VWEC))[0].game


def _costs(dec):
    """``{option: (face-up cost, seat-view cost)}`` from analyze's JSON, as a
    badge and an option row carry them (3 decimals; "" where not known)."""
    low = lambda v: min(v) if isinstance(v, list) else v      # noqa: E731  (a span: its low end)
    fus = [low(o["face_up"]) for o in dec["options"] if o["face_up"] is not None]
    svs = [o["seat_view"] for o in dec["options"] if o["seat_view"] is not None]
    out = {}
    for o in dec["options"]:
        fu = "" if o["face_up"] is None else str(round(max(fus) - low(o["face_up"]), 3))
        sv = "" if o["seat_view"] is None else str(round(max(svs) - o["seat_view"], 3))
        out[o["action"]] = (fu, sv)
    return out


PAGE_JS = """() => ({
  position: Number(document.querySelector('.ee-table').dataset.position),
  hash: location.hash,
  labels: Array.from(document.querySelectorAll('.ee-events [data-pos]')).map(r => {
    const l = r.querySelector('.ee-label'); return [Number(r.dataset.pos), l ? l.dataset.label : null]; }),
  badges: Array.from(document.querySelectorAll('.ee-hand .ee-card.ee-legal')).map(c => {
    const b = c.querySelector('.ee-badge'), l = c.querySelector('.ee-lab');
    return [c.dataset.card, b ? b.dataset.faceUp : null, b ? b.dataset.seatView : null, l ? l.textContent : null]; }),
  options: Array.from(document.querySelectorAll('.ee-analysis .ee-option')).map(r =>
    [r.dataset.option, r.dataset.faceUp, r.dataset.seatView, r.classList.contains('ee-played'),
     (r.querySelector('.ee-lab') || {}).textContent || null]),
  par: (document.querySelector('.ee-analysis .ee-par') || {}).textContent || '',
  evalDeal: document.querySelector('.ee-eval').dataset.deal,
})"""


def _open(browser, path, fragment, width=1400):
    context = browser.new_context(viewport={"width": width, "height": 1000})
    requests = []
    context.on("request", lambda r: requests.append(r.url))
    context.route("**/*", lambda route: route.continue_()
                  if route.request.url.startswith("file://") else route.abort())
    context.set_default_timeout(15000)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri() + fragment)
    page.wait_for_function("() => document.querySelector('.ee-table').dataset.position")
    page.wait_for_function("() => document.querySelector('.ee-eval .scatterlayer')")
    return context, page, errors, requests


def _shot(page, name):
    where = os.environ.get("EE_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(where) / f"{name}.png"), full_page=True)


def _check_position(page, game_json, position):
    """The page at ``position`` (the table just before the decision at event
    index ``position``) shows analyze's labels and costs."""
    from euchre_events.ui.analysisreport import pretty_action
    decs = {d["position"]: d for deal in game_json["deals"] for d in deal["decisions"]}
    dec = decs[position]
    got = page.evaluate(PAGE_JS)
    assert got["position"] == position
    # the event list: each row's label is analyze's for that event (none where it has none)
    assert got["labels"], "no event rows"
    assert dec["label"] is None or [dec["position"], dec["label"]] in [list(x) for x in got["labels"]] \
        or dec["position"] > max(i for i, _ in got["labels"])
    for i, lab in got["labels"]:
        assert lab == (decs[i]["label"] if i in decs else None), (i, lab)
    # the options below the table: every legal option, its costs, the one played and its label
    costs = _costs(dec)
    assert {o[0] for o in got["options"]} == set(costs)
    for text, fu, sv, played, lab in got["options"]:
        assert (fu, sv) == costs[text], text
        assert played == (text == dec["played"])
        assert lab == (f"{dec['label']} " + {"??": "blunder", "?": "mistake", "?!": "dubious", "!?": "interesting",
                                               "!": "great", "!!": "brilliant"}[dec["label"]]
                       if played and dec["label"] else None)
    if dec["kind"] == "play":
        # the legal cards' badges: the same costs, the label on the card played
        assert got["badges"] and sorted(b[0] for b in got["badges"]) == sorted(costs)
        for card, fu, sv, lab in got["badges"]:
            assert (fu, sv) == costs[card], card
            assert lab == (dec["label"] if card == dec["played"] else None)
    deal = next(deal for deal in game_json["deals"] if deal["deal"] == dec["deal"])
    par = deal["par"]
    # the dealer's own order is said "pick up" (pretty_action with the seat and the dealer)
    assert f"deal {dec['deal']} par (face up): {pretty_action(par['call'], par['seat'], deal['dealer'])}" in got["par"]
    assert str(got["evalDeal"]) == str(dec["deal"])
    return dec


def test_badges_labels_par_and_graph_click_match_analyze(browser, exported):
    from euchre_events.projections.viewer import ViewerModel
    path, game_json, game = exported
    model = ViewerModel(game)
    decs = [d for deal in game_json["deals"] for d in deal["decisions"]]
    play = next(d for d in decs if d["label"] and d["kind"] == "play")        # a card played, marked
    call = next(d for d in decs if d["label"] and d["kind"] == "call")        # a call, marked
    for width in (1400, 1024):
        context, page, errors, requests = _open(browser, path, "#" + model.link(play["position"]), width)
        _check_position(page, game_json, play["position"])
        _shot(page, f"export-analysis-{width}")
        # the event list beside the table at 1024 px too (it went below the table, the
        # analysis and both graphs); the options panel below the table, in the first screen
        box = page.evaluate("""() => Object.fromEntries(['.ee-table', '.ee-events', '.ee-analysis'].map(s => {
            const r = document.querySelector(s).getBoundingClientRect();
            return [s, [r.left, r.top, r.right, r.bottom]]; }))""")
        table, events, panel = box[".ee-table"], box[".ee-events"], box[".ee-analysis"]
        assert events[0] >= table[2] and events[1] < table[3] and events[2] <= width, (width, box)
        assert panel[1] >= table[3] and panel[1] < 1000, (width, box)
        if width == 1400:
            # a click on another decision's point of the graph: the table just before it
            target = next(d for d in decs if d["deal"] == play["deal"] and d["position"] > play["position"] + 3)
            j = [d["position"] for d in decs if d["deal"] == play["deal"]].index(target["position"])
            box = page.locator(".ee-eval .scatterlayer .trace").first.locator(".point").nth(j).bounding_box()
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            page.wait_for_function(f"() => document.querySelector('.ee-table').dataset.position == "
                                   f"'{target['position']}'")
            assert page.evaluate("() => location.hash") == "#" + model.link(target["position"])
            _check_position(page, game_json, target["position"])
            # the mistake key: the next decision marked ??, ? or ?!
            nxt = next(d for d in decs if d["position"] > target["position"] and d["label"] in ("??", "?", "?!"))
            page.keyboard.press("m")
            page.wait_for_function(f"() => document.querySelector('.ee-table').dataset.position == "
                                   f"'{nxt['position']}'")
            # a call: its options and costs below the table
            page.evaluate(f"() => {{ location.hash = '#{model.link(call['position'])}'; }}")
            page.wait_for_function(f"() => document.querySelector('.ee-table').dataset.position == "
                                   f"'{call['position']}'")
            _check_position(page, game_json, call["position"])
            _shot(page, "export-analysis-call-1400")
        assert [u for u in requests if not u.startswith("file://")] == []
        assert errors == [], errors
        context.close()



def test_a_seat_view_does_not_name_another_seats_cards(browser, exported):
    """In another seat's view, the options below the table of a card to play
    are that seat's hidden cards: the panel says so and names none of them;
    in the deciding seat's own view and in all hands they are listed."""
    from euchre_events.projections.viewer import ViewerModel
    path, game_json, game = exported
    decs = [d for deal in game_json["deals"] for d in deal["decisions"]]
    play = next(d for d in decs if d["label"] and d["kind"] == "play")
    other = (play["seat"] + 1) % 4
    context, page, errors, requests = _open(browser, path, "#" + ViewerModel(game).link(play["position"]), 1024)
    view = page.locator("select.ee-seat-view")
    view.select_option(str(other))
    panel = page.locator(".ee-analysis")
    page.wait_for_function("() => document.querySelector('.ee-analysis .ee-analysis-hidden')")
    assert panel.locator(".ee-option").count() == 0
    assert "cannot see" in panel.inner_text() and "par (face up)" in panel.inner_text()
    view.select_option(str(play["seat"]))
    page.wait_for_function("() => document.querySelectorAll('.ee-analysis .ee-option').length > 0")
    assert {r.get_attribute("data-option") for r in panel.locator(".ee-option").all()} \
        == {o["action"] for o in play["options"]}
    view.select_option("all")
    page.wait_for_function("() => document.querySelectorAll('.ee-analysis .ee-option').length > 0")
    assert errors == [] and [u for u in requests if not u.startswith("file://")] == []
    context.close()
