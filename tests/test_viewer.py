"""The replay viewer's logic in plain Python (euchre_events.ui.widgets.GameViewer).

Each test drives the viewer as a person would (buttons, slider, dropdowns,
note box) and reads back what it shows.  Expected values are worked out by
hand from rules.md, case C3 of docs/cases.md and the EGN records in
fixtures/egn/, or taken from the projection (``Game.state_at``) where the
test says the viewer must agree with it.  Seats: 0 = N, 1 = E, 2 = S, 3 = W.
"""
import re
from html.parser import HTMLParser

import pytest

from conftest import ROOT
from euchre_events.archive import Archive
from euchre_events.events import (CardPlayed, CardsDealt, DealStarted, Discarded, GameStarted,
                                  OrderedUp, Passed, UpCardPickedUp)
from euchre_events.formats import Record, read_records
from euchre_events.projections import Game
from euchre_events.ui.render import legal_cards_of
from euchre_events.ui.widgets import GameViewer

N, E, S, W = 0, 1, 2, 3
EGN = ROOT / "fixtures" / "egn"
SIX = EGN / "Six Points in Two Hands.egn"
VWEC = EGN / "VWEC Finals Annotated.egn"


# --------------------------------------------------------------- reading the drawing

class _Cards(HTMLParser):
    """Collects (data-card, classes) of every ee-card in a fragment."""

    def __init__(self):
        super().__init__()
        self.cards = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = set((a.get("class") or "").split())
        if "ee-card" in cls:
            self.cards.append((a.get("data-card"), cls))


def cards_in(html):
    p = _Cards()
    p.feed(html)
    return p.cards


def shown_hand(viewer, seat):
    return sorted(c for c, _ in cards_in(viewer.hand_w[seat].value))


def legal_shown(viewer, seat):
    return sorted(c for c, cls in cards_in(viewer.hand_w[seat].value) if "ee-legal" in cls)


def trick_shown(viewer):
    # the trick being played; a finished trick left on the table is ee-done
    return [c for c, cls in cards_in(viewer.trick_w.value) if "ee-done" not in cls]


def finished_shown(viewer):
    return [c for c, cls in cards_in(viewer.trick_w.value) if "ee-done" in cls]


def finished_expected(st):
    """The trick just finished, which stays on the table until the next lead."""
    if st.trick or not st.tricks or st.phase not in ("play", "deal_over", "game_over"):
        return []
    return [c for _, c in st.tricks[-1][1]]


def score_shown(viewer):
    m = re.search(r'data-score="([^"]*)"', viewer.score_w.value)
    return tuple(int(x) for x in m.group(1).split(","))


# --------------------------------------------------------------- case C3

C3_AFTER_DISCARD = {N: "KC AS QD 9S TD", E: "TC 9H AD KD JS", S: "AC QC KS TS QH", W: "JH AH KH TH 9C"}
C3_TRICKS = [(N, "KC 9H AC 9C"), (E, "AD QH TH QD"), (S, "KS KH AS JS"), (W, "JH 9S TC TS"), (W, "AH TD KD QC")]


def c3_events():
    """Case C3 as events: dealer W, up-card TH, S orders up, W discards 9D."""
    dealt = [tuple(C3_AFTER_DISCARD[s].split()) for s in range(4)]
    dealt[W] = ("JH", "AH", "KH", "9C", "9D")
    ev = [GameStarted("standard", {}, ("N", "E", "S", "W"), first_dealer=W),
          DealStarted(1, W), CardsDealt(tuple(dealt), "TH", ("JC", "JD", "QS")),
          Passed(N), Passed(E), OrderedUp(S), UpCardPickedUp(W), Discarded(W, "9D")]
    for leader, cs in C3_TRICKS:
        for i, c in enumerate(cs.split()):
            ev.append(CardPlayed((leader + i) % 4, c))
    return ev


@pytest.fixture
def c3_viewer():
    return GameViewer(Game(c3_events()), chart=False, position=1)


# --------------------------------------------------------------- stepping

def test_every_step_shows_the_projection(c3_viewer):
    """next() x k shows exactly Game.state_at(k + 1): hands, trick, legal cards, score."""
    v = c3_viewer
    g = v.game
    assert v.position == 1
    for k in range(2, len(g.events) + 1):
        v.next_b.click()
        assert v.position == k
        st = g.state_at(k)
        for s in range(4):
            assert shown_hand(v, s) == sorted(st.hands[s])
            if st.turn == s:
                assert legal_shown(v, s) == sorted(legal_cards_of(st))
            else:
                assert legal_shown(v, s) == []
        assert trick_shown(v) == [c for _, c in st.trick]
        assert finished_shown(v) == finished_expected(st)
        assert score_shown(v) == st.score
    v.next()  # stays at the end
    assert v.position == len(g.events)


def test_hand_worked_position_before_trick_four(c3_viewer):
    v = c3_viewer
    v.jump_deal(1)
    assert v.position == 3          # after DealStarted and CardsDealt: the hands show
    v.jump_trick(4)
    # tricks 1-3 went to E, S, W; W leads trick 4 (rules.md 1.3)
    assert v.state.leader == W and v.state.trick == ()
    assert shown_hand(v, N) == ["9S", "TD"]
    assert shown_hand(v, E) == ["KD", "TC"]
    assert shown_hand(v, S) == ["QC", "TS"]
    assert shown_hand(v, W) == ["AH", "JH"]
    assert legal_shown(v, W) == ["AH", "JH"]     # a leader may lead anything
    assert score_shown(v) == (0, 0)
    assert 'data-tricks="1"' in v.parts["score"] and 'data-tricks="2"' in v.parts["score"]
    assert v.trick_dd.value == 4 and v.deal_dd.value == 1
    with pytest.raises(IndexError):
        v.jump_trick(6)


def test_controls_prev_first_last_slider(c3_viewer):
    v = c3_viewer
    v.last_b.click()
    assert v.position == 28 and v.slider.value == 28
    v.prev_b.click()
    assert v.position == 27 and v.slider.value == 27
    v.slider.value = 10                       # the slider drives the viewer
    assert v.position == 10 and trick_shown(v) == ["KC", "9H"]
    v.trick_dd.value = 2                      # jump to trick 2 from its dropdown
    assert v.position == 12 and v.state.leader == E
    v.first_b.click()
    assert v.position == 1
    v.prev()
    assert v.position == 1
    v.goto(1000)
    assert v.position == 28


def test_renege_shown_where_it_happened(c3_viewer):
    v = c3_viewer
    v.goto(9)   # N led KC; E to play and holds TC
    assert legal_shown(v, E) == ["TC"]
    assert [c for c, cls in cards_in(v.hand_w[E].value) if "ee-renege" in cls] == ["9H"]
    v.next()    # E plays 9H: a renege
    assert [c for c, cls in cards_in(v.trick_w.value) if "ee-renege" in cls] == ["9H"]
    assert "ee-current" in v.events_html and "(renege)" in v.events_html
    current = re.search(r'<div class="([^"]*ee-current[^"]*)" data-pos="(\d+)"', v.events_html)
    assert current.group(2) == "9" and "ee-ev-renege" in current.group(1)
    assert "renege, trick 1" in v.head_w[E].value
    v.goto(23)  # E has shown TC in trick 4: proven; tournament penalty N/S 2 (rules.md 2.7)
    assert "Proven in trick 4" in v.act_w.value and "N/S score 2" in v.act_w.value


def test_seat_view_selector(c3_viewer):
    v = c3_viewer
    v.goto(10)
    v.seat_dd.value = S                       # what South could know
    assert v.seat == S
    assert shown_hand(v, S) == sorted(["AC", "QC", "KS", "TS", "QH"])
    assert shown_hand(v, N) == ["hidden"] * 4
    assert shown_hand(v, E) == ["hidden"] * 4
    assert shown_hand(v, W) == sorted(["TH"] + ["hidden"] * 4)  # the picked-up up-card is known
    assert trick_shown(v) == ["KC", "9H"]
    assert legal_shown(v, S) == ["AC", "QC"]  # S must follow clubs
    v.set_seat(None)
    assert v.seat_dd.value == -1 and shown_hand(v, E) == sorted(["TC", "AD", "KD", "JS"])
    with pytest.raises(ValueError):
        v.set_seat(7)


def test_a_step_redraws_only_what_changed(c3_viewer):
    v = c3_viewer
    v.goto(9)
    tree = list(v.widget.children)
    changed = []
    widgets = {f"hand-{s}": v.hand_w[s] for s in range(4)}
    widgets.update({"trick": v.trick_w, "score": v.score_w, "info": v.info_w})
    for name, w in widgets.items():
        w.observe(lambda ch, name=name: changed.append(name), names="value")
    v.next()   # E plays 9H: E's hand, the trick and S's legal cards change, nothing else
    assert sorted(changed) == ["hand-1", "hand-2", "trick"]
    assert list(v.widget.children) == tree


# --------------------------------------------------------------- real records

def test_real_record_from_a_file_path():
    # "Six Points in Two Hands": starts 4-9; deal 1 S names hearts alone and
    # marches (+4), deal 2 S orders up and N/S march (+2): 10-9 (rules.md 2.6)
    v = GameViewer(str(SIX))
    assert score_shown(v) == (4, 9)
    assert v.chart_marker == (0, (4, 9))
    v.jump_deal(1)
    assert v.state.dealer == N
    v.jump_trick(1)
    # N sits out (S alone); eldest E leads trick 1 (rules.md 2.5, LEFT_OF_DEALER)
    assert v.state.leader == E and N in v.state.sitting_out
    assert "sits out" in v.head_w[N].value
    v.next()
    v.next()
    assert trick_shown(v) == ["9S", "AS"]
    v.next()   # three cards: the trick is gathered; A of spades wins (JS is no bower under hearts)
    assert trick_shown(v) == []
    assert [c for c, _ in cards_in(v.last_w.value)] == ["9S", "AS", "JS"]
    assert f'data-winner="{S}"' in v.last_w.value
    assert v.chart_marker == (0, (4, 9))      # the marker moves only when a deal is scored
    v.jump_deal_end(1)
    assert score_shown(v) == (8, 9) and v.chart_marker == (1, (8, 9))
    v.last()
    assert score_shown(v) == (10, 9) and v.chart_marker == (2, (10, 9))
    assert "Game over" in v.act_w.value


def test_chart_click_jumps_to_the_deal():
    from plotly.callbacks import Points
    v = GameViewer(str(SIX))
    line = v.chart.data[0]
    assert list(line.x) == [0, 1, 2] and list(line.y) == [4, 8, 10]
    assert list(v.chart.data[1].y) == [9, 9, 9]
    pts = Points(point_inds=[1], xs=[1], ys=[8], trace_name=line.name, trace_index=0)
    v._on_chart_click(line, pts)
    assert v.state.deal_results[-1][0] == 1 and score_shown(v) == (8, 9)
    assert v.state.phase == "deal_over"


def test_record_annotations_and_variations():
    v = GameViewer(str(VWEC), chart=False)
    rec = read_records(str(VWEC))[0]
    first = rec.annotations[0]
    v.goto(first["position"] + 1)    # the note is on the current event
    assert first["text"][:30] in v.events_html
    # variation 1 leaves the main line at trick 2 of deal 1: S (who won trick 1
    # with the 9 of clubs, trump) leads QH instead of KS
    assert v.line_names[0] == "main line" and len(v.line_names) == 1 + len(rec.variations)
    v.goto(13)
    assert v.state.leader == S and v.game.events[13] == CardPlayed(S, "KS")
    v.line_dd.value = 1
    assert v.line.kind == "record" and v.position == 14
    assert v.state.trick == ((S, "QH"),)
    assert "This line leads to a march" in v.events_html
    v.line_dd.value = 0                  # back out to the main line, where it branched
    assert v.line.kind == "main" and v.position == 13 and v.state.trick == ()


def test_user_variation_plays_legal_moves_only(c3_viewer):
    v = c3_viewer
    v.goto(9)
    v.var_new.click()
    assert v.line.kind == "user" and v.position == 9
    moves = v.legal_moves()
    assert [ev for _, ev in moves] == [CardPlayed(E, "TC")]  # E must follow clubs
    with pytest.raises(ValueError):
        v.play(CardPlayed(E, "9H"))
    v.move_play.click()                                      # plays the chosen legal move
    assert v.state.trick == ((N, "KC"), (E, "TC"))
    assert sorted(ev.card for _, ev in v.legal_moves()) == ["AC", "QC"]
    v.select_line(0)
    assert v.line.kind == "main" and v.position == 9


# --------------------------------------------------------------- notes in the archive

def test_notes_are_saved_in_the_archive_and_survive_a_restart(tmp_path):
    db = str(tmp_path / "notes.sqlite")
    v = GameViewer(str(SIX), archive=Archive(db), chart=False)
    gid = v.game_id
    v.goto(10)
    v.note_input.value = "bold loner"
    v.note_mark.value = "!?"
    v.note_save.click()
    assert "note saved in the archive" in v.status
    # a new process opens the same file
    again = Archive(db)
    notes = again.annotations(gid)
    assert [(a["position"], a["text"], a["mark"]) for a in notes] == [(9, "bold loner", "!?")]
    v2 = GameViewer(str(gid), archive=again, chart=False, position=10)
    assert "bold loner" in v2.events_html and "!?" in v2.events_html
    # edit, then remove
    nid = notes[0]["id"]
    v2.note_select.value = nid
    assert v2.note_input.value == "bold loner"
    v2.note_input.value = "bold and right"
    v2.note_save.click()
    assert [a["text"] for a in Archive(db).annotations(gid)] == ["bold and right"]
    v2.note_select.value = nid
    v2.note_remove.click()
    assert Archive(db).annotations(gid) == []
    assert "bold and right" not in v2.events_html
    with pytest.raises(ValueError):
        v2.add_note("x", mark="+")


def test_default_archive_and_stored_id(tmp_path, monkeypatch):
    db = str(tmp_path / "default.sqlite")
    monkeypatch.setenv("EUCHRE_EVENTS_DB", db)
    arch = Archive(db)
    gid, created = arch.import_record(Record(events=c3_events()))
    assert created
    v = GameViewer(str(gid)[:8], chart=False)   # a unique prefix, default archive
    assert v.game_id == gid and len(v.game.events) == 28
    v.add_note("E reneged here", "??", position=9)
    assert [a["text"] for a in Archive(db).annotations(gid)] == ["E reneged here"]


def test_controls_carry_stable_classes(c3_viewer):
    v = c3_viewer
    expected = {
        "ee-first": v.first_b, "ee-prev": v.prev_b, "ee-next": v.next_b, "ee-last": v.last_b,
        "ee-slider": v.slider, "ee-deal": v.deal_dd, "ee-trick": v.trick_dd,
        "ee-seat-view": v.seat_dd, "ee-table": v.table_w, "ee-trick-cards": v.trick_w,
        "ee-score": v.score_w, "ee-events": v.events_w, "ee-note-input": v.note_input,
        "ee-note-save": v.note_save,
    }
    for cls, w in expected.items():
        assert cls in w._dom_classes, cls
    for s in range(4):
        assert f"ee-hand-{s}" in v.hand_w[s]._dom_classes
    chart = GameViewer(str(SIX)).chart
    assert "ee-chart" in chart._dom_classes


def test_unsupported_input():
    with pytest.raises(TypeError):
        GameViewer(42)


def test_quiz_checks_an_answer_computed_by_the_engine():
    from euchre_events.ui.widgets import Quiz
    g = Game(c3_events())
    st = g.state_at(9)                        # E to play to a club lead, holding TC
    q = Quiz("Which cards may East play?", [(c, c) for c in st.hands[E]], answer=set(st.legal_cards()),
             explanation=st.legal_reason, multiple=True)
    assert q.answer == {"TC"}
    q.boxes[[c for _, c in q.choices].index("9H")].value = True
    q.check_b.click()
    # a wrong pick: marked wrong, a retry offered, the answer not yet given
    assert q.last_result is False and "ee-quiz-wrong" in q.feedback.value and "\u2717" in q.feedback.value
    assert "Try again" in q.feedback.value and "The answer" not in q.feedback.value
    assert q.check({"TC"}) is True and "must follow clubs" in q.feedback.value
    assert "ee-quiz-right" in q.feedback.value and "\u2713" in q.feedback.value
    with pytest.raises(ValueError):
        Quiz("?", [("a", 1)], answer=2)


def test_user_variation_is_saved_in_the_archive(tmp_path):
    """C3, trick 1: the correct play (East follows with TC) saved as a variation
    event in the annotation stream, seen by a new viewer; the game is unchanged."""
    db = str(tmp_path / "var.sqlite")
    arch = Archive(db)
    gid, _ = arch.import_record(Record(c3_events()))
    v = GameViewer(str(gid), archive=arch, chart=False)
    with pytest.raises(ValueError):
        v.save_variation()                       # the main line is not a variation
    v.goto(9)
    v.var_new.click()
    v.move_play.click()                          # East's only legal card: TC
    v.var_save.click()
    assert "variation saved" in v.status
    again = Archive(db)
    [saved] = again.variations(gid)
    assert saved["position"] == 9 and saved["events"] == [CardPlayed(E, "TC")]
    assert again.load(gid).events[1:] == c3_events()[1:]
    w = GameViewer(str(gid), archive=again, chart=False)
    assert len(w.lines) == 2 and w.lines[1].kind == "record"
