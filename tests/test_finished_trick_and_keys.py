"""Issue 10 without a browser: the finished trick left on the table with the
reason in words (euchre_events.ui.render), and the viewer's keys and position
link (euchre_events.ui.widgets.GameViewer.press / link / goto_link).
tests/test_browser.py (test_keys_link_and_the_finished_trick_in_chromium)
checks the same in Chromium.

Expected words and positions are worked out by hand (rules.md 1.1-1.3 for
the card order).
"""
import pytest

from conftest import SIX
from euchre_events.events import (CardPlayed, CardsDealt, DealStarted, Discarded, GameStarted,
                                  OrderedUp, Passed, UpCardPickedUp)
from euchre_events.formats import read_records
from euchre_events.projections import Game
from euchre_events.ui.render import state_html, trick_reason
from euchre_events.ui.widgets import KEY_ACTIONS, GameViewer

from test_viewer import cards_in

N, E, S, W = 0, 1, 2, 3


@pytest.mark.parametrize("cards,trump,winner,words", [
    # clubs trump: JS is the left bower (a club), above the AC
    (["AC", "JS", "KC", "9C"], "C", 1, "J\u2660 is the left bower: a club here, beats A\u2663"),
    (["JH", "9C", "KC", "QD"], "H", 0, "J\u2665 is the right bower, the highest heart"),
    # hearts trump, clubs led: the only trump wins over the best club
    (["AC", "9H", "KC", "QC"], "H", 1, "9\u2665 is a trump (hearts), beats A\u2663"),
    # two trumps on a club lead: the higher one
    (["AC", "9H", "KC", "TH"], "H", 3, "10\u2665 is the highest trump played, beats 9\u2665"),
    (["AH", "9H", "KH", "QD"], "H", 0, "A\u2665 is the highest heart played, beats K\u2665"),
    # no trump in the trick: the led suit; the QD cannot win
    (["AC", "9C", "KC", "QD"], "H", 0,
     "A\u2663 is the highest of the suit led (clubs), beats K\u2663; no trump was played"),
    (["QS", "9S", "AS", "9C"], None, 2, "A\u2660 is the highest of the suit led (spades), beats Q\u2660"),
    # double deck: of two identical aces the first played wins (rules.md 1.3, 7.10)
    (["AS#1", "AS#2", "KS#1", "9D#1"], "H", 0,
     "A\u2660 is the highest of the suit led (spades), beats K\u2660; no trump was played; "
     "of the identical A\u2660, the one played first wins"),
    (["9S", "JK", "AS", "9C"], "S", 1, "the joker is the highest trump"),
    (["JK", "9S", "AS", "9C"], None, 0, "the joker: at no-trump it beats every card"),
])
def test_trick_reason_in_words(cards, trump, winner, words):
    assert trick_reason(cards, trump, winner) == words
    assert trick_reason(cards, trump) == words


def test_trick_reason_never_explains_another_card():
    # low no-trump (rules.md 1.1): the 9S won; the high ranking names the AS: no words
    assert trick_reason(["QS", "9S", "AS", "9C"], None, 1) == ""
    assert trick_reason(["??", "9S", "AS", "9C"], "H") == ""     # a card the record does not state
    assert trick_reason([], "H") == ""


# docs/cases.md C3 (tests/test_viewer.py): dealer W, up-card TH, S orders up
# (hearts trump), W discards 9D.  Trick 1: N KC, E 9H (a renege: E holds TC),
# S AC, W 9C.  The 9H is the only trump: E wins it and leads trick 2.
C3_HANDS = {N: "KC AS QD 9S TD", E: "TC 9H AD KD JS", S: "AC QC KS TS QH", W: "JH AH KH 9C 9D"}


def c3_game(plays="KC 9H AC 9C AD"):
    ev = [GameStarted("standard", {}, ("N", "E", "S", "W"), first_dealer=W), DealStarted(1, W),
          CardsDealt(tuple(tuple(C3_HANDS[s].split()) for s in range(4)), "TH", ("JC", "JD", "QS")),
          Passed(N), Passed(E), OrderedUp(S), UpCardPickedUp(W), Discarded(W, "9D")]
    seats = [N, E, S, W, E]
    ev += [CardPlayed(s, c) for s, c in zip(seats, plays.split())]
    return Game(ev)


def test_the_finished_trick_stays_in_the_middle_with_its_winner_and_reason():
    g = c3_game()
    st = g.state_at(12)            # 8 events to the discard, then the 4 cards of trick 1
    assert st.trick == () and st.tricks[-1][2] == E
    page = state_html(st, findings=g.audit())
    trick_part = page.split('class="ee-box ee-trick-cards"', 1)[1].split('class="ee-box ee-last-trick"', 1)[0]
    assert 'class="ee-trick-grid ee-finished"' in trick_part and 'data-winner="1"' in trick_part
    shown = cards_in(trick_part)
    assert [c for c, _ in shown] == ["KC", "9H", "AC", "9C"]
    assert all("ee-done" in cls for _, cls in shown)
    assert [c for c, cls in shown if "ee-winner" in cls] == ["9H"]
    # the renege mark stays on the card where it was played (rules.md 1.5)
    assert [c for c, cls in shown if "ee-renege" in cls] == ["9H"]
    assert ("trick 1 won by East: 9\u2665 is a trump (hearts), beats A\u2663. East leads next"
            in trick_part.replace("&#x27;", "'"))
    # East leads trick 2: the middle shows the new trick only
    nxt = state_html(g.state_at(13), include_css=False)
    part = nxt.split('class="ee-box ee-trick-cards"', 1)[1].split('class="ee-box ee-last-trick"', 1)[0]
    assert "ee-finished" not in part and [c for c, _ in cards_in(part)] == ["AD"]
    # before any trick is finished there is nothing to leave on the table
    assert "ee-finished" not in state_html(g.state_at(8), include_css=False)


# ---------------------------------------------------------------- keys and the link


@pytest.fixture
def six():
    g = Game(read_records(str(SIX))[0].events)
    # DealStarted of deal 1 is event 1, of deal 2 event 24; 49 events in all
    assert g.deal_positions() == [(1, 1), (2, 24)] and len(g.events) == 49
    return GameViewer(g, chart=False, position=1)


def test_keys(six):
    v = six
    assert v.press("ArrowRight") and v.position == 2
    assert v.press("ArrowLeft") and v.position == 1
    assert v.press("End") and v.position == 49
    assert v.press("Home") and v.position == 1
    # by deal: the start of a deal is just after its cards are dealt (DealStarted, CardsDealt)
    assert v.press("ArrowDown") and v.position == 3          # deal 1: events 1, 2 applied
    assert v.press("PageDown") and v.position == 26          # deal 2: events 24, 25 applied
    assert v.press("PageDown") and v.position == 49          # no later deal: the end
    assert v.press("PageUp") and v.position == 26            # back to the start of deal 2
    assert v.press("ArrowUp") and v.position == 3            # already there: deal 1
    assert v.press("ArrowUp") and v.position == 1            # before deal 1: the first position
    assert not v.press("a") and v.position == 1
    assert set(KEY_ACTIONS) == {"ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown",
                                "ArrowUp", "ArrowDown", "m", "M"}     # m, M: next and previous mistake


def test_position_link(six):
    v = six
    assert v.link == "event=1" and v.keys.link == "event=1"
    v.goto(30)                     # deal 2 starts at event 24: its 6 first events applied
    assert v.link == "deal=2&event=6" and v.keys.link == "deal=2&event=6"
    assert v.goto_link("#deal=1&event=11") and v.position == 12
    assert v.goto_link("deal=2") and v.position == 26
    assert v.goto_link("deal=1&event=99") and v.position == 24   # clamped to deal 1's 23 events
    assert v.goto_link("event=40") and v.position == 40
    for bad in ("deal=3", "deal=x", "event=", "", "seat=2"):
        assert not v.goto_link(bad) and v.position == 40
    # the browser's message: a link the game has, then one it has not
    v._on_keys_msg(v.keys, {"link": "deal=2&event=1"}, [])
    assert v.position == 25 and v.link == "deal=2&event=1"
    v._on_keys_msg(v.keys, {"link": "deal=9"}, [])
    assert v.position == 25 and "names no position" in v.status
    v._on_keys_msg(v.keys, {"key": "ArrowRight"}, [])
    assert v.position == 26
