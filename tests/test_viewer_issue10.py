"""Issue 10 in the viewer, without a browser: where the app opens, a click on
the event list, the list numbered as the slider counts, the last-trick box's
class, the chart's layout given at creation, the two-handed undealt cards and
the up-card's fate in words.  Values come from the projection and rules.md."""
import re
from pathlib import Path

from euchre_events.formats import read_records
from euchre_events.projections import Game
from euchre_events.ui.render import state_html, up_card_words
from euchre_events.ui.widgets import GameViewer

ROOT = Path(__file__).resolve().parent.parent
SIX = ROOT / "fixtures" / "egn" / "Six Points in Two Hands.egn"
PARLOUR = ROOT / "fixtures" / "two-handed" / "parlour-1.euchre"


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
    assert lay.title.text.startswith("score after each deal")
    assert (lay.xaxis.title.text, lay.yaxis.title.text) == ("deal", "points")
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
    assert v.position == here and "deal 5 is refused: East (Llama) cannot play AD" in v.status
    v.deal_dd.value = 6
    assert v.state.deal == 6 and v.position == dict(g.deal_positions())[6] + 2
    # a record that reads whole: nothing refused
    assert open_record_by_deal(str(SIX))[1] == []


def test_serve_culls_idle_kernels_and_refuses_a_missing_record(tmp_path):
    import pytest
    from euchre_events.ui.serve import serve, voila_command
    cmd = voila_command()
    assert "--MappingKernelManager.cull_idle_timeout=300" in cmd
    assert "--MappingKernelManager.cull_interval=60" in cmd
    assert not any("cull" in a for a in voila_command(cull_idle=0))
    with pytest.raises(FileNotFoundError):
        serve(record=str(tmp_path / "missing.egn"), block=False, quiet=True)
