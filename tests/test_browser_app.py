"""The served review app in the real browser (first filed as issue 10's
browser tests, tests/test_browser_issue10.py; its learner's path through the
tutorials is in tests/test_browser_lessons.py): a record whose deal 1 is
impossible, opened in the app; a variation played by clicking a legal card; the
seat view's readout; and the kernels Voila starts for each page visit, culled
once the tabs are closed.

Voila (euchre_events.ui.serve) serves the notebooks, Playwright drives
Debian's Chromium (never ``playwright install``).  Requests to any host but
127.0.0.1 are aborted and a page error fails the test.  Checks are grouped in
few page visits (a Voila load costs 10-15 s here).  ``EE_SHOTS=DIR`` keeps
screenshots.
"""
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

from browser_support import browser, start_voila, stop_voila  # noqa: E402,F401 (browser: a pytest fixture; the module is skipped without Chromium)
from test_browser import (SNAPSHOT_JS, expected_snapshot, local_only, shot,  # noqa: E402
                          wait_for_snapshot)

from conftest import EGN_FIXTURES  # noqa: E402
from euchre_events.archive import Archive  # noqa: E402
from euchre_events.events import CardPlayed  # noqa: E402
from euchre_events.projections import Game  # noqa: E402
from euchre_events.ui.widgets import open_record_by_deal  # noqa: E402

BAD = EGN_FIXTURES / "negative" / "test.egn"   # deal 1 cannot have happened


@pytest.fixture(scope="module")
def voila_bad(tmp_path_factory):
    """The app on the record whose deal 1 is impossible (the user-facing culling: 60 s)."""
    proc, url, db, log = start_voila(tmp_path_factory.mktemp("voila-bad"), record=BAD)
    try:
        yield {"url": url, "db": db}
    finally:
        stop_voila(proc, log)


def new_page(browser, width=1400, height=1100):
    context = browser.new_context(viewport={"width": width, "height": height})
    local_only(context)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, errors


# ---------------------------------------------------------------- the impossible deal, a click, the readout

def out_of(page):
    """The seat readout as the page shows it (data-* attributes)."""
    return page.evaluate("""() => {
      const by = (sel, attr) => Object.fromEntries(Array.from(document.querySelectorAll(sel))
          .map(e => [e.dataset.suit, e.dataset[attr]]));
      return {out: by('.ee-knowledge .ee-out-suit', 'cards'), count: by('.ee-knowledge .ee-out-suit', 'count'),
              master: by('.ee-knowledge .ee-master-suit', 'card'),
              mine: Array.from(document.querySelectorAll('.ee-knowledge .ee-master-suit.ee-mine'))
                    .map(e => e.dataset.suit).sort(),
              voids: Object.fromEntries(Array.from(document.querySelectorAll('.ee-knowledge .ee-void-seat'))
                    .map(e => [e.dataset.seat, Array.from(e.querySelectorAll('.ee-void')).map(v => v.dataset.suit)])),
              head: (document.querySelector('.ee-knowledge .ee-k-head') || {}).textContent || ''};
    }""")


def test_impossible_deal_record_a_variation_by_click_and_the_seat_readout(voila_bad, browser):
    """fixtures/egn/negative/test.egn: in deal 1 West plays the Q♠ that the dealer took up, so
    deal 1 cannot have happened; deal 2 (East deals, West names clubs alone) replays.

    The app opens at deal 2 just dealt, names the refused deal in words in the banner and the
    deal menu, says why when the refused deal is chosen, and replays deal 2 to its end (2-1
    before it: the record's initial score; West alone takes 2 tricks, euchred: N/S +2, 4-1,
    rules.md 2.6).  At trick 2 (West led 10♠) North holds 10♦ A♦ A♠ 9♦ and must follow
    spades (rules.md 1.3): a click on 10♦ says why not, a click on A♠ plays it in a new
    variation (the table advances, the line menu and the move row show it), a click on South's
    A♣ extends it, and **save variation** stores it as a VariationAdded event.  North's view
    after trick 1 shows the readout worked by hand (trump clubs, the left bower J♠ a club):
    not seen J♣ J♠ A♣ K♣ Q♣ 9♣ / K♦ Q♦ / A♥ K♥ Q♥ J♥ 9♥ / K♠ 10♠ 9♠, masters J♣ A♦ A♥ A♠
    (A♦ and A♠ North's own), West void in diamonds."""
    rec, refused = open_record_by_deal(str(BAD))
    assert [d for d, _ in refused] == [1]
    game = Game(rec.events)
    assert refused[0][1] == ("West (p4) plays QS, but QS is the up-card, which the dealer (North, p1) "
                             "took up (EGN dealNumber 0)")
    refusal = ("West (p4) plays Q\u2660, but Q\u2660 is the up-card, which the dealer (North, p1) took up "
               "(EGN dealNumber 0)")
    context, page, errors = new_page(browser, 1400)
    page.goto(voila_bad["url"], timeout=180000)
    page.locator("button.ee-next").first.wait_for(timeout=180000)
    wait_for_snapshot(page, expected_snapshot(game, 3), "opened at deal 2 just dealt")
    banner = page.locator(".ee-refused").inner_text()
    assert f"Deal 1 of this record cannot have happened and is left out: {refusal}." in banner
    assert "The other deal replays" in banner
    labels = page.locator(".ee-deal select option").evaluate_all("os => os.map(o => o.textContent)")
    assert [x.replace("\xa0", " ") for x in labels] == ["deal 1 (refused)", "deal 2"]
    shot(page, "refused-deal-1400")
    page.locator(".ee-deal select").select_option(label="deal 1 (refused)")
    page.locator(".ee-status", has_text="deal 1 is refused").wait_for(timeout=15000)
    assert refusal in page.locator(".ee-status").inner_text()
    assert page.evaluate(SNAPSHOT_JS) == expected_snapshot(game, 3)
    # deal 2 replays, step by step, to its end
    for k in range(4, len(game.events) + 1):
        page.locator("button.ee-next").click()
        wait_for_snapshot(page, expected_snapshot(game, k), f"deal 2 after next to {k}")
    assert page.evaluate(SNAPSHOT_JS)["score"] == "4,1"

    # North's view after trick 1 (12 events): the readout, worked by hand
    page.evaluate("() => { location.hash = 'deal=2&event=11'; }")       # 1 + 11 = 12 events
    wait_for_snapshot(page, expected_snapshot(game, 12), "after trick 1")
    page.locator(".ee-seat-view select").select_option(index=1)          # North
    wait_for_snapshot(page, expected_snapshot(game, 12, seat=0), "North's view after trick 1")
    page.wait_for_function("() => document.querySelectorAll('.ee-knowledge .ee-out-suit').length === 4")
    got = out_of(page)
    assert got["out"] == {"C": "JC JS AC KC QC 9C", "D": "KD QD", "H": "AH KH QH JH 9H", "S": "KS TS 9S"}
    assert got["count"] == {"C": "6", "D": "2", "H": "5", "S": "3"}
    assert got["master"] == {"C": "JC", "D": "AD", "H": "AH", "S": "AS"} and got["mine"] == ["D", "S"]
    assert got["voids"] == {"3": ["D"]} and got["head"].startswith("what North (p1) could know")
    assert page.locator(".ee-knowledge").is_visible()
    shot(page, "north-readout")
    page.locator(".ee-seat-view select").select_option(index=0)
    wait_for_snapshot(page, expected_snapshot(game, 12), "back to all hands")

    # a variation by clicking a card: trick 2, West led 10♠ (13 events), North to play
    page.evaluate("() => { location.hash = 'deal=2&event=12'; }")
    wait_for_snapshot(page, expected_snapshot(game, 13), "West led 10♠")
    assert page.locator(".ee-hand-0 .ee-legal").evaluate_all("els => els.map(e => e.dataset.card)") == ["AS"]
    page.locator('.ee-hand-0 .ee-card[data-card="TD"]').click()
    page.locator(".ee-status", has_text="10\u2666 cannot be played now: must follow spades").wait_for(timeout=15000)
    assert page.evaluate(SNAPSHOT_JS) == expected_snapshot(game, 13)
    times = []
    t0 = time.perf_counter()
    page.locator('.ee-hand-0 .ee-card[data-card="AS"]').click()
    line = Game(list(game.events[:13]) + [CardPlayed(0, "AS")])
    wait_for_snapshot(page, expected_snapshot(line, 14), "after a click on A♠")
    times.append(time.perf_counter() - t0)
    chosen = page.locator(".ee-line select").evaluate("s => s.options[s.selectedIndex].text").replace("\xa0", " ")
    assert chosen == "my variation 1 (from event 13)"
    assert page.locator(".ee-move").is_visible() and page.locator("button.ee-var-save").is_visible()
    assert "\u21b3 North (p1) plays A\u2660" in page.locator(".ee-events .ee-current").inner_text()
    # South has no spade: any card; a click on A♣ extends the variation
    t0 = time.perf_counter()
    page.locator('.ee-hand-2 .ee-card[data-card="AC"]').click()
    line = Game(list(line.events) + [CardPlayed(2, "AC")])
    wait_for_snapshot(page, expected_snapshot(line, 15), "after a click on A♣")
    times.append(time.perf_counter() - t0)
    shot(page, "variation-by-click")
    page.locator("button.ee-var-save").click()
    page.locator(".ee-status", has_text="variation saved (2 moves)").wait_for(timeout=15000)
    arch = Archive(voila_bad["db"])
    [gid] = arch.game_ids()
    assert [(v["position"], v["events"]) for v in arch.variations(gid)] == [
        (13, [CardPlayed(0, "AS"), CardPlayed(2, "AC")])]
    assert arch.load(gid).events == game.events                 # the game itself is untouched
    print(f"\nclick on a legal card to the updated table: {[round(t * 1000) for t in times]} ms")

    # at 1024 px the banner and the table fit
    page.set_viewport_size({"width": 1024, "height": 1000})
    page.wait_for_timeout(1000)
    for sel in (".ee-refused", ".ee-viewer .ee-table", ".ee-line", "button.ee-var-save"):
        box = page.locator(sel).first.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 1024.5, (sel, box)
    shot(page, "variation-by-click-1024")
    assert errors == [], errors
    context.close()


# ---------------------------------------------------------------- a learner's path, per variant

# answered on the cards now, one lesson per variant: tests/test_browser_lessons.py (issue 22)


# ---------------------------------------------------------------- kernels: culled after the tabs close

def kernel_pids(voila_pid):
    """The kernels Voila runs: its child processes running ipykernel (read from /proc)."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, ValueError, IndexError):
            continue
        if ppid == voila_pid and "ipykernel" in cmd:
            out.append(int(d.name))
    return sorted(out)


def test_kernels_return_to_the_start_after_five_visits(browser, tmp_path):
    """Open and close the app page 5 times: Voila starts a kernel for each visit and, the tab
    closed, culls it once idle (ui/serve.py; short settings here, 60 s for users): the count
    of kernels goes back to where it started."""
    # idle long enough for a slow page to finish drawing its widgets before its kernel goes
    proc, url, db, log = start_voila(tmp_path, cull_idle=20, cull_interval=2)
    try:
        start = kernel_pids(proc.pid)
        most = 0
        for i in range(5):
            context, page, errors = new_page(browser, 1024, 900)
            page.goto(url, timeout=180000)
            page.locator("button.ee-next").first.wait_for(timeout=180000)
            most = max(most, len(kernel_pids(proc.pid)))
            assert errors == [], errors
            context.close()
        assert most > len(start)                     # each visit did run a kernel
        end = time.monotonic() + 180
        while time.monotonic() < end and len(kernel_pids(proc.pid)) != len(start):
            time.sleep(1)
        assert len(kernel_pids(proc.pid)) == len(start), (start, kernel_pids(proc.pid))
        print(f"\nkernels: {len(start)} before, up to {most} while visiting, {len(kernel_pids(proc.pid))} after")
    finally:
        stop_voila(proc, log)
