"""Cards of a known suit and unknown rank ("?D", EGN ``Xd``) reach every
view without a crash: the table at every position, each seat's view, the
text view, the HTML export, the audit report and the viewer."""
from euchre_events.projections import Game
from euchre_events.projections.seat import knowledge
from euchre_events.rules.cards import sort_hand
from euchre_events.ui.auditreport import game_lines, html_report
from euchre_events.ui.describe import state_text
from euchre_events.ui.htmlexport import export_html
from euchre_events.ui.render import state_html
from euchre_events.ui.widgets import GameViewer
from test_unknown_cards import _vwec


def test_sort_hand_puts_an_unknown_rank_after_its_suit():
    assert sort_hand(["?D", "AD", "??", "KS", "9D"], "H") == ["AD", "9D", "?D", "KS", "??"]
    assert sort_hand(["?H", "9H", "AS"], "H") == ["9H", "?H", "AS"]


def test_every_view_of_games_with_unknown_ranks(tmp_path):
    for changes in ({(0, 0, 0): "Xd"}, {(11, 0, 0): "Xs", (11, 4, 0): "Xs"}):
        [rec], errors = _vwec(tmp_path, changes)
        g = Game(rec.events)
        for k in range(1, len(g.events) + 1):
            st = g.state_at(k)
            assert state_html(st) and state_text(st)
            for s in range(4):
                state_html(st, seat=s, knowledge=knowledge(g, k, s))
        export_html(g, str(tmp_path / "g.html"))
        findings = g.audit()
        assert "Official score" in html_report([(g, findings)]) and game_lines(g, findings)
        GameViewer(g, chart=False)
    # the second game: two could-not-decide findings, in words a director can read
    assert [f.kind for f in findings] == ["could-not-decide"] * 2
    assert "depends on cards the record does not state" in game_lines(g, findings)[1]
