"""The director's page and the text audit's summary (issue 23, findings 1-5):
the whole deal trick by trick, a rejected claim with its hands and the reason
in words, the left bower named where a suit is said, one way of writing
points, suits in their colours, a print stylesheet, and the summary counting
reneges, claims and rulings apart.  The game is case C3 of docs/cases.md
(East trumps North's K♣ lead with 9♥ holding 10♣, shows 10♣ at trick 4),
with North's claim, the director's ruling and East's claim that South
reneged at trick 2 (South, void in diamonds, trumped with Q♥)."""
import re

from euchre_events.events import GameStarted, RenegeClaimed, RenegeRuled
from euchre_events.projections import Game
from euchre_events.rules.simulate import random_game
from euchre_events.ui.auditreport import deal_tricks, finding_lines, game_lines, html_report
from test_official_result import c3_events, pos

N, E, S, W = range(4)


def disputed():
    evs = c3_events()
    evs[0] = GameStarted("standard", {}, ("Ann", "Bob", "Cy", "Di"), W, initial_score=(0, 0), title="C3")
    return evs + [RenegeClaimed(N, E, 1, 1), RenegeRuled(1, 1, E, "upheld", None, "TD Smith", ""),
                  RenegeClaimed(E, S, 1, 2)]


def test_the_summary_counts_reneges_claims_and_rulings_apart():
    """Finding 5: one renege and a rejected claim were ``findings=2``."""
    g = Game(disputed())
    head = game_lines(g, g.audit())[0]
    assert head.endswith("; reneges=1 claims=2 (rejected 1) rulings=1")
    assert "findings=" not in head


def test_the_deal_trick_by_trick_with_the_offender_s_hand():
    """Finding 1: the five tricks of C3 as played, the hands before each."""
    g = Game(disputed())
    tricks = deal_tricks(g, 1)
    assert [[c for _, c, _, _ in t["plays"]] for t in tricks] == [
        "KC 9H AC 9C".split(), "AD QH TH QD".split(), "KS KH AS JS".split(),
        "JH 9S TC TS".split(), "AH TD KD QC".split()]
    assert [t["winner"] for t in tricks] == [E, S, W, W, W]
    assert sorted(tricks[0]["hands"][E]) == sorted("TC 9H AD KD JS".split())
    assert sorted(tricks[3]["hands"][E]) == ["KD", "TC"]
    assert tricks[0]["led_suit"] == "C" and tricks[0]["trump"] == "H"


def _rows(section):
    return re.findall(r"<tr class='([^']*)' data-trick='(\d)'>(.*?)</tr>", section, re.S)


def test_the_page_shows_the_proof_happen_and_the_rejected_claim_with_its_hands():
    evs = disputed()
    g = Game(evs)
    page = html_report([(g, g.audit())])
    renege, claim = page.split("<div class=\"finding ")[1:3]
    rows = _rows(renege)
    assert [int(t) for _, t, _ in rows] == [1, 2, 3, 4, 5]
    # the renege card in its trick, the proving card (10♣ at trick 4) highlighted, that row marked
    assert rows[0][0] == "offence-row" and 'class="card red offending" data-card="9H"' in rows[0][2]
    assert rows[3][0] == "provable-row" and 'class="card proving" data-card="TC"' in rows[3][2]
    assert "provable from here: East (Bob) showed 10♣" in rows[3][2]
    # 10♣, held back at trick 1, underlined in East's hand until it is shown
    assert all('class="card held" data-card="TC"' in r[2] for r in rows[:4])
    assert 'data-card="TC"' not in rows[4][2].split("</td><td>")[-2]
    # the rejected claim: the reason in words, the hands at its trick, its deal, its trick marked
    assert claim.startswith("claim-rejected")
    assert ("Why the claim is rejected: no renege: South (Cy) played <span class=\"red\">Q♥</span> on the "
            "diamonds lead, but held no diamonds then: a void, not a renege") in claim
    assert "<table class='hands'>" in claim and claim.count("data-trick=") == 5
    assert [c for c, t, _ in _rows(claim) if t == "2"] == ["claimed-row"]
    assert 'class="card red claimed" data-card="QH"' in claim
    # the header read aloud, one way of points, red suits, a print stylesheet, no script
    assert "<b>Ruling:</b> upheld by TD Smith" in page
    assert "<b>Official:</b> N/S 2, E/W 0" in page and "<b>As played:</b> N/S 0, E/W 2" in page
    assert "<td>N/S 0, E/W 2</td><td>N/S 2, E/W 0</td>" in page
    assert not re.search(r"<td>\d+[-/]-?\d+</td>", page)
    assert 'playing <span class="red">9♥</span> on a clubs lead' in page
    assert "@media print" in page and "<script" not in page
    assert pos(evs, E, "9H") == g.audit()[0].position


def test_the_left_bower_led_is_named_as_such():
    """Finding 3: seeded Bid game (random_game("bid", seed=0, renege_rate=0.3)),
    deal 12, trick 1: spades trump, J♣ led, West plays Q♦ holding K♠ Q♠ J♠."""
    g = Game(random_game("bid", seed=0, renege_rate=0.3))
    [f] = [f for f in g.audit() if f.kind == "renege" and (f.deal, f.trick) == (12, 1)]
    [line] = finding_lines(g, f)
    assert "playing Q♦ on a spades lead (J♣ led: the left bower, a spade here) while holding K♠ Q♠ J♠" in line
