"""One viewer model (issue 24): the widget, the HTML export's data and
``show`` count, link, key and jump with :class:`euchre_events.projections.viewer.ViewerModel`,
so the same position reads the same link and counter in all three (and issue
22 finding 9, "13 / 353" beside ``#deal=1&event=12``, cannot come back)."""
import pytest

from conftest import CLUB, RUNNER, VWEC
from euchre_events.cli import app
from euchre_events.formats import read_records
from euchre_events.projections import Game
from euchre_events.projections.viewer import KEY_ACTIONS, ViewerModel, rows_window
from euchre_events.ui.htmlexport import export_data


@pytest.fixture(scope="module")
def vwec():
    rec = read_records(str(VWEC))[0]
    return rec, Game(rec.events)


@pytest.fixture(scope="module")
def vwec_data(vwec):
    return export_data(vwec[1], views=[None])


def _viewer(game):
    from euchre_events.ui.widgets import GameViewer
    return GameViewer(game, chart=False)


def test_finding_9_counter_and_link_name_one_number(vwec):
    """After 13 events of the VWEC final (the 12th of deal 1, its DealStarted
    being event 1), the counter and the link both say 12."""
    m = ViewerModel(vwec[1])
    assert m.link(13) == "deal=1&event=12"
    # and the game's number, which the event list shows on that event's row (issue 22 finding 9)
    assert m.counter(13) == "deal 1 \u00b7 event 12 / 28 (game event 13)"
    assert m.link(1) == "event=1" and m.counter(1) == f"event 1 / {len(vwec[1].events)}"


def test_same_position_same_link_and_counter_in_widget_export_and_show(vwec, vwec_data):
    rec, game = vwec
    v = _viewer(game)
    runner = RUNNER
    starts = game.index().deal_start
    checked = 0
    for k in (2, 13, 29, 30, 100, 205, len(game.events)):
        v.goto(k)
        link, counter = vwec_data["links"][k - 1], vwec_data["counters"][k - 1]
        assert (v.link, v.counter) == (link, counter), k
        d = game.index().deal_at[k]
        args = ["show", str(VWEC), "--deal", str(d), "--after", str(k - starts[d])] if d else \
            ["show", str(VWEC), "--after", str(k)]
        out = runner.invoke(app, args).stdout
        at = ViewerModel(game).position(k)
        if d and at.deal_event is not None:
            # show's header names the link's numbers: deal=D&event=K is "After event K of deal D"
            assert link == f"deal={d}&event={at.deal_event}" and counter.startswith(f"deal {d} \u00b7 event {at.deal_event} /")
            assert f"After event {at.deal_event} of deal {d} (event {k} of the game)" in out, out
        else:
            assert link == f"event={k}" and counter == f"event {k} / {len(game.events)}"
        # the link opens the same position in the widget
        v.goto(1)
        assert v.goto_link("#" + link) and v.position == k
        checked += 1
    assert checked == 7


def test_keys_and_deal_jumps_agree(vwec, vwec_data):
    """Up/Down (PageUp/PageDown) from every position of the first deals: the
    widget's press and the export's precomputed targets are the model's."""
    game = vwec[1]
    v = _viewer(game)
    m = ViewerModel(game)
    for k in range(1, 80):
        for key in ("ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", "ArrowLeft", "ArrowRight"):
            v.goto(k)
            v.press(key)
            assert v.position == m.key_target(KEY_ACTIONS[key], k)
            if KEY_ACTIONS[key] in ("deal_prev", "deal_next"):
                assert vwec_data[KEY_ACTIONS[key]][k - 1] == v.position
    assert vwec_data["deals"] == {str(d): p for d, p in m.deal_jumps().items()}
    assert vwec_data["keys"] == KEY_ACTIONS
    # the first deal opens with its cards dealt: DealStarted, CardsDealt, then the table
    assert m.deal_jump(1) == game.index().deal_start[1] + 2


def test_variation_link_carries_line_in_widget_and_export():
    """In the record's variation 1 the widget's link ends in &line=1, as the
    export's does, and a link with &line=1 opens the variation."""
    rec = read_records(str(CLUB))[0]
    main = Game(rec.events)
    data = export_data(main, views=[None], variations=rec.variations)
    line = data["lines"][0]
    from euchre_events.ui.widgets import GameViewer
    v = GameViewer(rec, chart=False)
    v.select_line(1)
    k = v.position
    assert v.link.endswith("&line=1") and v.link == line["links"][k - 1]
    assert v.counter == line["counters"][k - 1]
    v.select_line(0)
    v.goto(1)
    assert v.goto_link(line["links"][k - 1]) and v.line_no == 1 and v.position == k
    assert not v.goto_link("deal=1&event=3&line=9")     # no such line: nothing moves
    assert v.line_no == 1 and v.position == k


def test_event_window_stops_at_now_in_a_seat_view(vwec, vwec_data):
    """The event list's rows: 12 before, 14 after; a seat's view none after
    the current event (the export used to show the plays to come)."""
    n = len(vwec[1].events)
    assert rows_window(0, n) == (0, 15)
    assert rows_window(50, n) == (38, 65)
    assert rows_window(50, n, seat_view=True) == (38, 51)
    assert vwec_data["rows"][50] == [38, 65, 51]


def test_show_errors_come_from_the_model(vwec):
    m = ViewerModel(vwec[1])
    with pytest.raises(ValueError, match="deal 1 has 28 events"):
        m.show_position(1, 40)
    with pytest.raises(ValueError, match="there is no deal 99"):
        m.show_position(99, None)
    assert m.show_position(1, 12) == 13
