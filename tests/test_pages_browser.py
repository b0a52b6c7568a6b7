"""The director's page and the club's page in a real browser (issue 23):
Debian's Chromium driven by Playwright, the files opened from disk, every
request to another host aborted, any page error failing the test.  The
assertions read the DOM.

* Director (``audit --format html``): case C3 of docs/cases.md with North's
  claim, a ruling and East's claim against South at trick 2 (South was void
  in diamonds): the five tricks of deal 1, the proving card 10♣ at trick 4
  highlighted, the rejected claim with its hands and reason.
* Club (``stats --format html``): C3 twice (standard), fixtures/bid/bid-1 and
  fixtures/cutthroat/cutthroat-2; sorting a column, switching variant, and
  no chart with more lines than distinct colours.
"""
import os
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

from browser_support import browser  # noqa: E402,F401 (a pytest fixture)

from conftest import ROOT, RUNNER
from euchre_events.archive import Archive  # noqa: E402
from euchre_events.cli import app  # noqa: E402
from euchre_events.formats import Record, read_records  # noqa: E402
from euchre_events.formats.text import write_text  # noqa: E402
from test_director_page import disputed  # noqa: E402


def _open(browser, path, width=1024):
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file:") else r.abort())
    page.goto(Path(path).as_uri())
    return page, errors


def test_the_director_s_page_shows_the_deal_the_proof_and_the_rejected_claim(browser, tmp_path):
    rec = tmp_path / "c3.euchre"
    rec.write_text(write_text(disputed()), encoding="utf-8")
    out = tmp_path / "audit.html"
    r = RUNNER.invoke(app, ["audit", str(rec), "--format", "html", "-o", str(out)])
    assert r.exit_code == 0, r.output
    for width in (1024, 1400):
        page, errors = _open(browser, out, width)
        renege = page.locator(".finding.renege")
        rows = renege.locator("table.tricks tr[data-trick]")
        assert rows.count() == 5
        played = [rows.nth(i).locator("td .card").evaluate_all("els => els.slice(0, 4).map(e => e.dataset.card)")
                  for i in range(5)]
        assert played == [["KC", "9H", "AC", "9C"], ["QD", "AD", "QH", "TH"], ["AS", "JS", "KS", "KH"],
                          ["9S", "TC", "TS", "JH"], ["TD", "KD", "QC", "AH"]]     # N E S W columns
        proving = renege.locator("table.tricks .card.proving")
        assert proving.count() == 1 and proving.get_attribute("data-card") == "TC"
        assert proving.evaluate("e => e.closest('tr').dataset.trick") == "4"
        assert proving.evaluate("e => getComputedStyle(e).backgroundColor") != "rgba(0, 0, 0, 0)"
        assert renege.locator("tr.provable-row").get_attribute("data-trick") == "4"
        assert renege.locator("table.tricks .card.offending").get_attribute("data-card") == "9H"
        claim = page.locator(".finding.claim-rejected")
        assert claim.count() == 1
        assert "South (Cy) played Q♥ on the diamonds lead, but held no diamonds then" in claim.locator(".why").inner_text()
        hands = claim.locator("table.hands tr")
        assert hands.count() == 4 and "South (Cy)" in hands.nth(2).inner_text()
        assert sorted(hands.nth(2).locator(".card").evaluate_all("els => els.map(e => e.dataset.card)")) == \
            sorted("QC KS TS QH".split())     # A♣ went to trick 1
        assert claim.locator("tr.claimed-row").get_attribute("data-trick") == "2"
        assert "upheld by TD Smith" in page.locator(".readaloud").inner_text()
        # nothing wider than the window (the trick table fits at 1024 px)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(tmp_path / f"director-{width}.png"), full_page=True)
        assert errors == []
        page.close()


@pytest.fixture()
def club_html(tmp_path):
    from euchre_events.events import GameStarted, RenegeClaimed, RenegeRuled
    from test_official_result import c3_events
    N, E, S, W = range(4)
    up = c3_events(initial=(8, 8))
    up[0] = GameStarted("standard", {}, ("Max", "Bob", "Cy", "Di"), W, initial_score=(8, 8), title="C3 upheld")
    up += [RenegeClaimed(N, E, 1, 1), RenegeRuled(1, 1, E, "upheld", None, "TD Smith", "")]
    other = c3_events()
    other[0] = GameStarted("standard", {}, ("Uma", "Vic", "Wes", "Xan"), W, initial_score=(0, 0), title="C3 b")
    db = str(tmp_path / "club.sqlite")
    Archive(db).import_records([Record(up), Record(other),
                                read_records(os.path.join(ROOT, "fixtures", "bid", "bid-1.euchre"))[0],
                                read_records(os.path.join(ROOT, "fixtures", "cutthroat", "cutthroat-2.euchre"))[0]])
    out = tmp_path / "club.html"
    r = RUNNER.invoke(app, ["stats", "--db", db, "--format", "html", "-o", str(out)])
    assert r.exit_code == 0, r.output
    return out


LINES_AND_COLOURS = """() => Array.from(document.querySelectorAll('section.variant:not([hidden]) .js-plotly-plot'))
  .map(d => { const lines = d.data.filter(t => t.type === 'scatter' && t.visible !== false);
              return [lines.length, new Set(lines.map(t => (t.line || {}).color + '/' + (t.line || {}).dash)).size,
                      new Set(lines.map(t => (t.line || {}).color)).size]; })"""


def test_the_club_s_page_sorts_switches_variant_and_tells_lines_apart(browser, club_html):
    page, errors = _open(browser, club_html, 1024)
    menu = page.locator("#variant")
    assert menu.input_value() == "standard"      # the variant with the most games (2)
    visible = page.locator("section.variant:not([hidden])")
    assert visible.count() == 1 and visible.get_attribute("data-variant") == "standard"
    names = lambda: visible.locator("table.players tbody tr td:first-child").evaluate_all(  # noqa: E731
        "els => els.map(e => e.textContent.replace(' *', ''))")
    assert "Max (standard)" in names() and "Nan" not in names()      # two Max: one per variant
    # sort by calls (descending, then ascending): Cy and Wes made the two calls
    head = visible.locator("th[data-col=calls] button")
    head.click()
    assert visible.locator("th[data-col=calls]").get_attribute("aria-sort") == "descending"
    col = list(page.locator("section.variant:not([hidden]) th").evaluate_all(
        "els => els.map(e => e.dataset.col)")).index("calls")
    calls = visible.locator("table.players tbody tr").evaluate_all(
        f"rows => rows.map(r => Number(r.cells[{col}].dataset.v))")
    assert calls == sorted(calls, reverse=True) and calls[:2] == [1, 1] and set(names()[:2]) == {"Cy", "Wes"}
    head.click()
    asc = visible.locator("table.players tbody tr").evaluate_all(
        f"rows => rows.map(r => Number(r.cells[{col}].dataset.v))")
    assert asc == sorted(asc)
    # no line drawn like another (colour and dash), never more lines than the palette's 12 colours;
    # the players' lines one colour each (a side's as-played line is its official colour, dashed)
    charts = page.evaluate(LINES_AND_COLOURS)
    assert charts[0][0] == charts[0][2] > 0                       # results over time: a colour a player
    for lines, styles, colours in charts:
        assert styles == lines and colours <= lines <= 12
    # each title once: the heading, not plotly's own title
    assert page.locator("section.variant:not([hidden]) .gtitle").count() == 0
    # switch to Bid: its players only, its charts drawn
    menu.select_option("bid")
    visible = page.locator("section.variant:not([hidden])")
    assert visible.get_attribute("data-variant") == "bid"
    assert sorted(names()) == ["Max (bid)", "Nan", "Otto", "Peg"]
    assert visible.locator(".js-plotly-plot").count() == 6
    for lines, styles, colours in page.evaluate(LINES_AND_COLOURS):
        assert styles == lines and colours <= lines <= 12
    # integer axes: no tick reads 0.2
    ticks = visible.locator(".ytick text, .fig:first-of-type .xtick text").evaluate_all(
        "els => els.map(e => e.textContent)")
    assert ticks and not any("." in t for t in ticks)
    assert errors == []
    page.close()
