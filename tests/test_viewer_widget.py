"""The replay viewer widget (euchre_events.ui.widgets.GameViewer) without a
browser, first filed as issue 10's viewer tests: where the app opens, a click on
the event list, the list numbered as the slider counts, the last-trick box's
class, the chart's layout given at creation, the two-handed undealt cards and
the up-card's fate in words, a record with an impossible deal opened deal by
deal, a variation played by clicking a card, the seat view's readout, and the
keys and the position link (press, link, goto_link).
Values come from the projection and rules.md."""
import re

import pytest
from conftest import FIXTURES, ROOT, SIX

from euchre_events.formats import read_records
from euchre_events.projections import Game
from euchre_events.ui.render import state_html, up_card_words
from euchre_events.ui.widgets import KEY_ACTIONS, GameViewer

PARLOUR = FIXTURES / "two-handed" / "parlour-1.euchre"


def six_game():
    return Game(read_records(str(SIX))[0].events)


def test_the_viewer_opens_on_the_first_deal_dealt_with_its_menus_filled():
    g = six_game()
    v = GameViewer(g, chart=False)
    # deal 1's DealStarted is event 1 and its CardsDealt event 2: the table after 3 events
    assert dict(g.deal_positions())[1] == 1 and v.position == 3
    assert all(len(h) == 5 for h in v.state.hands)
    assert v.deal_dd.value == 1 and [o[1] for o in v.deal_dd.options] == [1, 2]
    assert [o[1] for o in v.trick_dd.options] == [1, 2, 3, 4, 5]
    assert GameViewer(g, chart=False, position=1).position == 1


def test_a_click_on_an_event_row_goes_there_and_the_row_reads_as_the_slider():
    v = GameViewer(six_game(), chart=False)
    v._on_keys_msg(v.keys, {"event": 16}, [])            # the row with data-pos 16
    assert v.position == 17 and v.slider.value == 17
    cur = re.search(r'class="ee-ev ee-current[^"]*" data-pos="(\d+)"[^>]*><span class="ee-num">(\d+)<',
                    v.events_html)
    assert cur and cur.groups() == ("16", "17")          # "event 17" on the slider, row 17 lit
    v._on_keys_msg(v.keys, {"event": "x"}, [])           # nonsense from the page: ignored
    assert v.position == 17


def test_ee_last_is_the_last_button_only():
    v = GameViewer(six_game(), chart=False)
    assert "ee-last" in v.last_b._dom_classes
    assert "ee-last" not in v.last_w._dom_classes and "ee-last-trick" in v.last_w._dom_classes
    page = state_html(six_game().state_at(10))
    assert 'class="ee-box ee-last"' not in page and 'class="ee-box ee-last-trick"' in page


def test_the_chart_layout_is_given_when_the_widget_is_made():
    v = GameViewer(six_game())
    lay = v.chart.layout
    assert lay.title.text.startswith("score as played after each deal")   # issue 22 finding 8
    assert (lay.xaxis.title.text, lay.yaxis.title.text) == ("deal", "points as played")
    assert (lay.xaxis.tickmode, lay.xaxis.dtick) == ("linear", 1)
    # that it reaches the browser is checked in tests/test_browser.py


def test_two_handed_shows_its_undealt_cards_as_a_count_and_the_up_card_in_words():
    g = Game(read_records(str(PARLOUR))[0].events)
    dealt = dict(g.deal_positions())[1] + 2
    st = g.state_at(dealt)
    assert len(st.kitty) == 13                                  # rules.md 3.1: 13 cards not used
    page = state_html(st)
    assert "13 cards not dealt" in page and "ee-kitty" not in page
    assert up_card_words(st) == f"{pretty(st.up_card)} face up: the proposed trump"
    # after the auction: the fate of the up-card, in words
    ends = [k for k in range(dealt, len(g.events)) if g.state_at(k).phase == "play"]
    st2 = g.state_at(ends[0])
    want = {"picked up": "taken up by the dealer", "left": "left on the table",
            "turned down": "turned down"}[st2.up_card_status]
    assert want in up_card_words(st2) and want in state_html(st2)


def pretty(card):
    from euchre_events.rules.cards import pretty as p
    return p(card)


def bad_vwec(tmp_path):
    """VWEC Finals with deal 5 impossible: its trick 2 led by the AD that trick 1 began with
    (as tests/test_egn.py's deal-by-deal audit)."""
    import json
    doc = json.loads((ROOT / "fixtures" / "egn" / "VWEC Finals.egn").read_text(encoding="utf-8"))
    play = [p for p in doc["deals"][4]["phases"] if p["type"] == "TRICK_PLAY"][0]
    play["tricks"][1][0] = "Ad"
    path = tmp_path / "vwec-bad.egn"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_a_record_with_an_impossible_deal_opens_deal_by_deal(tmp_path):
    import pytest
    from euchre_events.formats import RecordError
    from euchre_events.formats.egn import audit_egn_by_deal
    from euchre_events.ui.widgets import open_record_by_deal
    path = bad_vwec(tmp_path)
    with pytest.raises(RecordError):
        read_records(str(path))
    rec, refused = open_record_by_deal(str(path))
    assert [d for d, _ in refused] == [5] and refused[0][1].startswith("East (Llama) cannot play AD")
    g = Game(rec.events)
    # the same game the audit reads: twelve deals, 7-10 as played
    report = audit_egn_by_deal(str(path))
    assert g.final_score == report["final_score"] == [7, 10] and len(g.deal_positions()) == 12
    v = GameViewer(rec, chart=False, refused=refused)
    assert [o[0] for o in v.deal_dd.options][3:6] == ["deal 4", "deal 5 (refused)", "deal 6"]
    assert "Deal 5 of this record cannot have happened" in v.refused_w.value
    here = v.position
    v.deal_dd.value = -5                       # choosing the refused deal says why and stays
    assert v.position == here and "deal 5 is refused: East (Llama) cannot play A\u2666" in v.status
    v.deal_dd.value = 6
    assert v.state.deal == 6 and v.position == dict(g.deal_positions())[6] + 2
    # a record that reads whole: nothing refused
    assert open_record_by_deal(str(SIX))[1] == []


# ---------------------------------------------------------------- a variation by clicking a card

VWEC_ANNOTATED = ROOT / "fixtures" / "egn" / "VWEC Finals Annotated.egn"


def test_a_click_on_a_legal_card_plays_it_in_a_variation_saved_as_variation_added(tmp_path):
    """VWEC Finals, deal 1, trick 1 (clubs trump, rules.md 1.3): West led A♦, North followed
    9♦; East holds Q♦ J♠ K♥ 9♥ J♥ and must follow diamonds with Q♦ (J♠ is the left bower,
    a club).  A click on Q♦ starts a variation there; a second click extends it; the
    save button stores it as a VariationAdded event; the main line is untouched."""
    from euchre_events.archive import Archive
    from euchre_events.events import CardPlayed
    db = str(tmp_path / "click.sqlite")
    v = GameViewer(str(VWEC_ANNOTATED), archive=Archive(db), chart=False)
    main, n_lines = v.main, len(v.lines)
    v.goto(11)                                       # A♦, 9♦ played: East to play
    st = v.state
    assert st.turn == 1 and sorted(st.hands[1]) == sorted(["QD", "JS", "KH", "9H", "JH"])
    assert st.legal_cards() == ("QD",)
    # a card that may not be played: why, and nothing moves
    for seat, card, why in ((1, "JS", "J\u2660 cannot be played now: must follow diamonds"),
                            (1, "KH", "K\u2665 cannot be played now: must follow diamonds"),
                            (2, "9C", "9\u2663 cannot be played now: it is East's turn, not South's"),
                            (1, "AS", "AS is not a card of that hand")):
        assert v.play_card(seat, card) is False and v.status.startswith(why), v.status
        assert v.position == 11 and v.line.kind == "main" and len(v.lines) == n_lines
    # the click from the page, as the browser sends it
    v._on_keys_msg(v.keys, {"card": "QD", "seat": 1}, [])
    assert v.line.kind == "user" and v.line.branch == 11 and v.position == 12
    assert v.state.trick == ((3, "AD"), (0, "9D"), (1, "QD"))
    assert v.line_dd.value == v.line_no and v.move_box.layout.display == "flex"
    assert "East (Llama) plays Q\u2666: played in my variation 1 (from event 11)" == v.status
    # South holds 9♣ K♠ Q♥ J♣ K♣ (the up-card) and no diamond: any card; a second click extends
    assert v.play_card(2, "KS") and v.position == 13 and len(v.lines) == n_lines + 1
    v.var_save.click()
    assert "variation saved (2 moves)" in v.status
    again = Archive(db)
    saved = [(x["position"], x["events"]) for x in again.variations(v.game_id)]
    assert len(saved) == n_lines and (11, [CardPlayed(1, "QD"), CardPlayed(2, "KS")]) in saved
    assert again.load(v.game_id).events == main.events
    # junk from the page is ignored
    v._on_keys_msg(v.keys, {"card": "QD", "seat": "x"}, [])
    assert v.position == 13


def test_a_click_inside_a_record_variation_keeps_its_moves_and_its_branch(tmp_path):
    """The record's variation 1 leaves the main line after 13 events (South leads Q♥ rather
    than K♠); a card clicked in it starts a variation that keeps Q♥ and branches where
    variation 1 does, so that it is saved against the main line's first 13 events."""
    from euchre_events.archive import Archive
    from euchre_events.events import CardPlayed
    v = GameViewer(str(VWEC_ANNOTATED), archive=Archive(str(tmp_path / "rv.sqlite")), chart=False)
    v.select_line(1)
    assert v.line.kind == "record" and v.position == 14 and v.state.trick == ((2, "QH"),)
    west = v.state.legal_cards()
    assert v.state.turn == 3 and west == ("AH",)          # West must follow hearts: A♥ only
    assert v.play_card(3, "AH")
    assert v.line.kind == "user" and v.line.branch == 13
    assert v.game.events[13:] == [CardPlayed(2, "QH"), CardPlayed(3, "AH")]
    v.save_variation()
    saved = [(x["position"], x["events"]) for x in v.archive.variations(v.game_id)]
    assert (13, [CardPlayed(2, "QH"), CardPlayed(3, "AH")]) in saved


# ---------------------------------------------------------------- the seat view's readout

def test_seat_view_readouts_at_positions_of_a_real_record():
    """VWEC Finals, deal 1: clubs trump (the right bower J♣, the left bower J♠, rules.md
    1.2).  Worked by hand from the record:

    West after trick 2 (17 events; West holds A♥ 9♠ Q♠): trick 1 A♦ 9♦ Q♦ 9♣ (South
    showed no diamond), trick 2 K♠ A♠ A♣ J♠ (North and East showed no spade: J♠ is a
    club).  Not seen: clubs J♣ Q♣ 10♣; diamonds K♦ J♦ 10♦; hearts K♥ Q♥ J♥ 10♥ 9♥; spades
    10♠.  Masters: J♣, K♦ (A♦ is out), A♥ and Q♠ (West's own).

    North after trick 3 (21 events; K♥ Q♥ A♥ 10♣: North trumped): not seen J♣ Q♣ / 10♦ /
    J♥ 10♥ 9♥ / Q♠ 10♠ 9♠; masters J♣, K♦ (North's own), J♥, Q♠; voids East ♠, South ♦."""
    rec = read_records(str(ROOT / "fixtures" / "egn" / "VWEC Finals.egn"))[0]
    v = GameViewer(rec, chart=False, seat=3)
    v.goto(17)
    k = v.knowledge
    assert k.cards_out == {"C": ("JC", "QC", "TC"), "D": ("KD", "JD", "TD"),
                           "H": ("KH", "QH", "JH", "TH", "9H"), "S": ("TS",)}
    assert k.master == {"C": "JC", "D": "KD", "H": "AH", "S": "QS"}
    assert [(x.seat, x.suit, x.trick) for x in k.voids] == [(0, "S", 2), (1, "S", 2), (2, "D", 1)]
    # the seat's event list stops at the position: the plays to come would show other hands
    assert 'data-pos="16"' in v.events_html and 'data-pos="17"' not in v.events_html
    assert f"{len(rec.events) - 17} later event(s)" in v.events_html
    html = v.knowledge_html
    assert readout(html) == {
        "out": {"C": "JC QC TC", "D": "KD JD TD", "H": "KH QH JH TH 9H", "S": "TS"},
        "count": {"C": "3", "D": "3", "H": "5", "S": "1"},
        "master": {"C": "JC", "D": "KD", "H": "AH", "S": "QS"},
        "mine": {"H", "S"}, "voids": {"0": ["S"], "1": ["S"], "2": ["D"]}}
    v.set_seat(0)
    v.goto(21)
    assert readout(v.knowledge_html) == {
        "out": {"C": "JC QC", "D": "TD", "H": "JH TH 9H", "S": "QS TS 9S"},
        "count": {"C": "2", "D": "1", "H": "3", "S": "3"},
        "master": {"C": "JC", "D": "KD", "H": "JH", "S": "QS"},
        "mine": {"D"}, "voids": {"1": ["S"], "2": ["D"]}}
    v.set_seat(None)
    assert v.knowledge_html == "" and v.knowledge_w.layout.display == "none"
    assert 'data-pos="21"' in v.events_html          # all hands: the record's list goes on


def readout(html):
    """The seat readout's values as the page carries them (data-* attributes)."""
    out = dict(re.findall(r'class="ee-out-suit[^"]*" data-suit="(\w+)" data-count="\d+" data-cards="([^"]*)"', html))
    count = dict(re.findall(r'class="ee-out-suit[^"]*" data-suit="(\w+)" data-count="(\d+)"', html))
    master = dict(re.findall(r'class="ee-master-suit[^"]*" data-suit="(\w+)" data-card="([^"]*)"', html))
    mine = set(re.findall(r'class="ee-master-suit[^"]*ee-mine[^"]*" data-suit="(\w+)"', html))
    voids = {}
    for seat, body in re.findall(r'<span class="ee-void-seat" data-seat="(\d+)">(.*?)</span> ?(?=<span class="ee-void-seat"|</div>)', html):
        voids[seat] = re.findall(r'class="ee-void[^"]*" data-suit="(\w+)"', body)
    return {"out": out, "count": count, "master": master, "mine": mine, "voids": voids}


# ---------------------------------------------------------------- keys and the link
# (positions worked out by hand)


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
