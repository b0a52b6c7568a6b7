"""The review app's findings of issue 22 (1-5, 8, 9) that need no browser:
the archive it opens, the game picker, the audit in sentences, the port it
really listens on, the page template without a CDN, the viewer's chart and
status line.  The browser half is tests/test_browser_review.py."""
import socket
import sys

import pytest

from conftest import ROOT, SIX
from euchre_events.archive import Archive
from euchre_events.events import (CardPlayed, CardsDealt, DealStarted, Discarded, GameStarted, OrderedUp,
                                  Passed, UpCardPickedUp)
from euchre_events.formats import read_records
from euchre_events.projections import Game
from euchre_events.ui import serve as S
from euchre_events.ui.auditreport import finding_lines
from euchre_events.ui.reviewapp import audit_sentences, choose_game, game_choices, picker_html, requested_game
from euchre_events.ui.widgets import GameViewer

TWO = ROOT / "fixtures" / "two-handed" / "parlour-1.euchre"
VWEC = ROOT / "fixtures" / "egn" / "VWEC Finals Annotated.egn"


def c3_game():
    """docs/cases.md C3 (the audit notebook's game): East reneges at trick 1
    (9H on a club lead holding 10C), proven at trick 4; 2 points to N/S."""
    dealt = {0: "KC AS QD 9S TD", 1: "TC 9H AD KD JS", 2: "AC QC KS TS QH", 3: "JH AH KH 9C 9D"}
    tricks = [(0, "KC 9H AC 9C"), (1, "AD QH TH QD"), (2, "KS KH AS JS"), (3, "JH 9S TC TS"), (3, "AH TD KD QC")]
    events = [GameStarted("standard", {}, ("North", "East", "South", "West"), first_dealer=3),
              DealStarted(1, 3), CardsDealt(tuple(tuple(dealt[s].split()) for s in range(4)), "TH", ("JC", "JD", "QS")),
              Passed(0), Passed(1), OrderedUp(2), UpCardPickedUp(3), Discarded(3, "9D")]
    for leader, cards in tricks:
        events += [CardPlayed((leader + i) % 4, c) for i, c in enumerate(cards.split())]
    return Game(events)


def test_audit_in_sentences_with_card_symbols_as_the_cli_says_it():
    """Finding 2: the app printed a raw dict per renege; now the CLI's sentence, with 10♣ not TC."""
    g = c3_game()
    [f] = g.audit()
    said = audit_sentences(g)
    cli = finding_lines(g, f)[0]
    assert said[0] == cli[0].upper() + cli[1:] + "."
    assert said[0].startswith("East reneged at trick 1 of deal 1, playing 9\u2665 on a clubs lead while holding 10\u2663")
    assert "{" not in " ".join(said) and "TC" not in " ".join(said)
    # the official points differ from the points as played in deal 1: said in a sentence
    assert any(s.startswith("Deal 1: ") and "as played" in s and "officially" in s for s in said)


def test_audit_sentence_when_there_is_no_renege():
    g = read_records(str(TWO))[0].game
    assert audit_sentences(g) == ["No renege in this game: the official score is the score as played."]


def test_the_app_opens_the_archives_games_newest_first_and_the_address_picks_one(tmp_path):
    """Finding 3: games imported with ``import`` are in the picker; ``?game=ID`` opens one."""
    arch = Archive(str(tmp_path / "a.sqlite"))
    two_id, _ = arch.import_record(read_records(str(TWO))[0])
    six_id, _ = arch.import_record(read_records(str(SIX))[0])
    choices = game_choices(arch)
    assert [c["id"] for c in choices] == [str(six_id), str(two_id)]
    assert choices[1]["title"] == "Parlour game 1" and choices[1]["players"] == ["Ada", "Ben"]
    # no record, no address: the last game imported; ?game=ID: that one
    assert choose_game(arch, environ={})[0] == str(six_id)
    assert choose_game(arch, environ={"QUERY_STRING": f"token=x&game={two_id}"})[0] == str(two_id)
    assert requested_game({"EUCHRE_EVENTS_GAME": "abc"}) == "abc"
    html = picker_html(choices, str(two_id))
    assert f'href="?game={two_id}"' in html and "P1 (Ada), P2 (Ben)" in html
    assert html.count("ee-game-current") == 1 and "2 games in this archive" in html
    # a record given (serve --record) is imported and opened
    arch2 = Archive(str(tmp_path / "b.sqlite"))
    gid, refused = choose_game(arch2, str(TWO), environ={})
    assert refused == [] and arch2.load(gid).title == "Parlour game 1"


def test_picker_escapes_titles_from_records():
    html = picker_html([{"id": "x", "title": "<script>alert(1)</script>", "variant": "standard",
                         "players": ["<b>", "B", "C", "D"], "deals": 1, "date": ""}])
    assert "<script>" not in html and "&lt;script&gt;" in html and "North (&lt;b&gt;)" in html
    assert "1 deal ·" in html


def test_serve_prints_the_port_voila_really_takes(tmp_path):
    """Finding 4: with the port busy, serve printed 8876 while Voila moved to 8878."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        got = S.free_port(port)
        assert got != port and got > port
        cmd = S.voila_command(port=got)
        assert f"--port={got}" in cmd and "--Voila.port_retries=0" in cmd


def test_the_page_template_asks_no_cdn():
    """Finding 5: Voila's lab template asks cdn.jsdelivr.net for Font Awesome; ours is that
    template without it, and serve puts it first on JUPYTER_PATH."""
    t = S.template_root() / "voila" / "templates" / S.TEMPLATE
    text = (t / "index.html.j2").read_text()
    assert "https://" not in text.replace("https://github.com/pallets/jinja/issues/1044", "")
    assert '"base_template": "lab"' in (t / "conf.json").read_text()
    assert f"--VoilaConfiguration.template={S.TEMPLATE}" in S.voila_command()


def test_two_handed_viewer_names_p1_p2():
    """Finding 1: the two-handed game's players and sides are P1/P2 everywhere in the viewer."""
    v = GameViewer(read_records(str(TWO))[0])
    assert "P1: Ada" in v.title_w.value and "P2: Ben" in v.title_w.value
    assert [t.name for t in v.chart.data[:2]] == ["P1", "P2"]
    assert "North" not in v.title_w.value and "East" not in v.events_html


def test_variation_chart_has_a_point_and_whole_ticks():
    """Finding 8: in a variation inside deal 1 the chart was empty, its ticks "1, 1, 0, -1, -1"."""
    v = GameViewer(read_records(str(SIX))[0])
    v.jump_deal(1)
    v.new_variation()
    start = v.game.state_at(1).score         # the record begins at a score already
    assert list(v.chart.data[0].x) == [0] and list(v.chart.data[0].y) == [start[0]]
    y = v.chart.layout.yaxis
    assert y.tickmode == "linear" and y.dtick >= 1 and float(y.dtick).is_integer()
    assert "as played" in v.chart.layout.title.text


def test_chart_title_gives_the_official_score_where_it_differs():
    g = c3_game()
    v = GameViewer(g)
    assert list(g.official_score) != list(g.final_score)
    assert "score as played" in v.chart.layout.title.text and "official score N/S" in v.chart.layout.title.text


def test_an_illegal_card_is_explained_below_the_table():
    """Finding 8: the message for an illegal card sat beside the note box, far from the cards."""
    v = GameViewer(c3_game())
    table_column = v.widget.children[-3].children[0]       # the row: [table column, side panel]
    assert v.status_w in table_column.children and v.table_w in table_column.children
    v.goto(9)                                              # North led K♣ to trick 1, East to play
    assert not v.play_card(1, "AD")                        # East holds TC: must follow clubs
    assert "must follow" in v.status_w.value


def test_face_down_discard_question_mark_is_explained():
    """Finding 8: the "?" of a discard the record does not name now says what it is."""
    rec = read_records(str(VWEC))[0]
    v = GameViewer(rec)
    g = v.game
    k = next(i for i, e in enumerate(g.events) if e.kind == "Discarded") + 1
    v.goto(k)
    info = v.parts["info"]
    assert "discarded" in info and "? = face down, the record does not name it" in info


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))


def test_evaluation_graph_fills_in_one_widget_and_its_points_jump():
    """The graph is one HTML widget whose SVG is redrawn when the deal's values
    arrive (a plotly figure remade at each arrival stalled the page); each
    face-up point names its decision, and the browser's click message on it
    shows the table just before that decision, its points ringed by a style
    rule of their own (a step sends that rule, not the graph again)."""
    v = GameViewer(c3_game(), analysis="face-up")
    box = v.eval_box
    assert v.wait_analysis(300)
    v._redraw()
    assert v.eval_box is box
    svg = box.value
    decisions = v.analysis_job.deal(1).decisions
    import re
    shown = [int(p) for p in re.findall(r'<circle class="ee-eval-fu[^"]*" data-decision="(\d+)"', svg)]
    assert shown == [d.position for d in decisions]
    first, last = decisions[0], decisions[-1]
    v.goto(first.position)
    ring = '.%s circle.ee-eval-point[data-decision="%d"]{stroke:#000;stroke-width:2.5}'
    scope = next(c for c in box._dom_classes if c.startswith("ee-eval-of-"))
    assert v.eval_mark.value == "<style>" + ring % (scope, first.position) + "</style>"
    # a step moves the ring (its rule in a widget of its own), never resends the graph
    sent = []
    box.observe(lambda change: sent.append(change), names="value")
    v._on_keys_msg(None, {"decision": last.position}, None)
    assert v._position == last.position
    fu, _ = v.decision_here()
    assert fu is not None and fu.position == last.position
    assert v.eval_mark.value == "<style>" + ring % (scope, last.position) + "</style>"
    assert sent == [] and box.value == svg
    # off the main line no point is ringed
    v.new_variation()
    assert v.eval_mark.value == ""


def test_a_seat_view_does_not_name_another_seats_cards_in_the_analysis():
    """Issue 22, analysis at the table in a seat view: South's view of East's
    play (C3, trick 1: East holds TC 9H AD KD JS) lists no option of East's
    (its hidden cards); South's own play lists South's cards with their
    costs; all hands lists East's again."""
    v = GameViewer(c3_game(), analysis="face-up")
    assert v.wait_analysis(300)
    v.goto(9)                       # North led K♣; East to play
    v.set_seat(2)
    panel = v.analysis_w.value
    assert "East</b> to decide" in panel and "South cannot see" in panel
    assert "ee-option" not in panel
    for card in ("9\u2665", "10\u2663", "A\u2666", "K\u2666", "J\u2660"):
        assert card not in panel, card
    v.goto(10)                      # South to play: its own cards and their costs
    panel = v.analysis_w.value
    assert 'data-option="AC"' in panel and 'data-option="QC"' in panel
    v.goto(9)
    v.set_seat(None)
    assert 'data-option="TC"' in v.analysis_w.value and 'data-option="9H"' in v.analysis_w.value


def test_the_background_worker_runs_below_the_page():
    """The viewer's analysis worker runs at the lowest priority (nice 19): on
    two cores it must not take a step's CPU from the kernel, the server and
    the browser (issue 22: a click under 40 ms with analysis on), and on an
    idle core it still runs at full speed.  It answers a real deal."""
    import os
    from euchre_events.formats import read_records
    from euchre_events.projections import Game
    from euchre_events.ui.analysisview import _Worker
    from conftest import ROOT
    rec = read_records(str(ROOT / "fixtures" / "standard" / "club-night-1.euchre"))[0]
    w = _Worker()
    try:
        da = w.run((rec.events, 1, {"face_up_only": True}))
        assert da.deal == 1 and da.decisions
        with open(f"/proc/{w.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        assert int(fields[16]) == min(19, os.nice(0) + 19)    # stat's field 19: the nice value
    finally:
        w.close()
