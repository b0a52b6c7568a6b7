"""Drawing cards and the table (euchre_events.ui.render).

The expected values are worked out by hand from rules.md and case C3 of
docs/cases.md (the renege audit case); the drawings are read back with an HTML
parser and compared with them, and with the projection where the test says so.
Seats: 0 = N, 1 = E, 2 = S, 3 = W.
"""
from html.parser import HTMLParser

import pytest

from euchre_events.rules.cards import Card, CardError
from euchre_events.events import (CardPlayed, CardsDealt, DealStarted, Discarded, GameStarted,
                                  OrderedUp, Passed, UpCardPickedUp)
from euchre_events.projections import Game
from euchre_events.ui.render import (card_html, card_svg, hand_html, side_names, state_html,
                                  table_parts, trick_reason)

from test_viewer import cards_in

N, E, S, W = 0, 1, 2, 3


# --------------------------------------------------------------- helpers

class Node:
    def __init__(self, tag, attrs, parent=None):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []
        self.text = ""

    @property
    def classes(self):
        return set((self.attrs.get("class") or "").split())

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()

    def find_all(self, cls):
        return [n for n in self.walk() if cls in n.classes]

    def find(self, cls):
        found = self.find_all(cls)
        assert len(found) == 1, f"{len(found)} elements with class {cls}"
        return found[0]

    def cards(self):
        """[(data-card, classes)] of the cards inside, in document order."""
        return [(n.attrs.get("data-card"), n.classes) for n in self.walk() if "ee-card" in n.classes]

    def all_text(self):
        return "".join(n.text for n in self.walk())


VOID = {"br", "img", "input", "meta", "link", "hr"}


class TreeParser(HTMLParser):
    def __init__(self):
        super().__init__()
        self.root = Node("root", {})
        self.cur = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_endtag(self, tag):
        n = self.cur
        while n is not self.root and n.tag != tag:
            n = n.parent
        if n is not self.root:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.text += data


def parse(html):
    p = TreeParser()
    p.feed(html)
    return p.root


# --------------------------------------------------------------- case C3

C3_AFTER_DISCARD = {N: "KC AS QD 9S TD", E: "TC 9H AD KD JS", S: "AC QC KS TS QH", W: "JH AH KH TH 9C"}
C3_TRICKS = [(N, "KC 9H AC 9C"), (E, "AD QH TH QD"), (S, "KS KH AS JS"), (W, "JH 9S TC TS"), (W, "AH TD KD QC")]


def c3_events():
    """Case C3 as events: dealer W, up-card TH, S orders up, W discards 9D."""
    dealt = [tuple(C3_AFTER_DISCARD[s].split()) for s in range(4)]
    dealt[W] = ("JH", "AH", "KH", "9C", "9D")  # W's hand before taking TH and discarding 9D
    ev = [GameStarted("standard", {}, ("N", "E", "S", "W"), first_dealer=W),
          DealStarted(1, W), CardsDealt(tuple(dealt), "TH", ("JC", "JD", "QS")),
          Passed(N), Passed(E), OrderedUp(S), UpCardPickedUp(W), Discarded(W, "9D")]
    for leader, cs in C3_TRICKS:
        for i, c in enumerate(cs.split()):
            ev.append(CardPlayed((leader + i) % 4, c))
    return ev


# positions in the C3 event list (state after k events)
P_AUCTION = 3      # cards dealt, N to act in round 1
P_DISCARD = 7      # W has picked up TH and must discard
P_T1_EAST = 9      # N has led KC; E to play (E holds TC: must follow clubs)
P_AFTER_RENEGE = 10
P_AFTER_PROOF = 23  # E has played TC in trick 4 (event 22)


@pytest.fixture(scope="module")
def c3():
    return Game(c3_events())


# --------------------------------------------------------------- cards

def test_card_html_draws_rank_suit_and_colour():
    jd = parse(card_html("JD")).find("ee-card")
    assert jd.attrs["data-card"] == "JD"
    assert "ee-red" in jd.classes and "ee-black" not in jd.classes
    assert jd.all_text() == "J\u2666"
    ts = parse(card_html("10s")).find("ee-card")  # any spelling is read (rules.md 1.1 ranks)
    assert ts.attrs["data-card"] == "TS" and "ee-black" in ts.classes
    assert ts.all_text() == "10\u2660"
    assert "jack of diamonds" == jd.attrs["title"]


def test_card_html_unknown_joker_and_double_deck_copy():
    unk = parse(card_html("??")).find("ee-card")
    assert "ee-unknown" in unk.classes and unk.attrs["data-card"] == "??"
    jk = parse(card_html("JK")).find("ee-card")
    assert jk.attrs["data-card"] == "JK"
    copy2 = parse(card_html("JS#2")).find("ee-card")
    assert copy2.attrs["data-card"] == "JS#2" and "copy 2" in copy2.attrs["title"]
    with pytest.raises(CardError):
        card_html("1X")


def test_card_and_table_draw_themselves_in_ipython():
    # the UI layer registers formatters on a real IPython shell: a Card shows
    # as render.card_html / card_svg, a TableState as render.state_html
    from IPython.core.interactiveshell import InteractiveShell
    from euchre_events.ui.display import register_display
    shell = InteractiveShell.instance()
    assert register_display(shell)
    data, _ = shell.display_formatter.format(Card("QH"))
    assert data["text/html"] == card_html("QH")
    assert data["image/svg+xml"] == card_svg("QH")
    game = Game(c3_events())
    st = game.state_at(6)
    assert shell.display_formatter.format(st)[0]["text/html"] == state_html(st)
    svg = card_svg("QH")
    assert svg.startswith("<svg") and "Q" in svg and "\u2665" in svg and "#c40018" in svg
    assert "\u2663" in card_svg("9C") and "#111" in card_svg("9C")


def test_importing_ui_registers_nothing_the_notebook_modules_do():
    """issue 24: ``import euchre_events.ui`` has no side effect (it loads no
    drawing module and touches no IPython); the modules a notebook imports
    register the display on the running shell (a real IPython shell here,
    in a fresh process)."""
    import subprocess
    import sys
    code = ("import sys, euchre_events.ui\n"
            "print(sorted(m for m in sys.modules if m.startswith(('euchre_events.ui.', 'IPython'))))\n"
            "from IPython.core.interactiveshell import InteractiveShell\n"
            "from euchre_events.rules.cards import Card\n"
            "shell = InteractiveShell.instance()\n"
            "print('text/html' in shell.display_formatter.format(Card('QH'))[0])\n"
            "import euchre_events.ui.tutorial\n"
            "print('text/html' in shell.display_formatter.format(Card('QH'))[0])\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert p.stdout.splitlines() == ["[]", "False", "True"], p.stdout + p.stderr


def test_hand_html_groups_trump_first_and_marks_legal():
    # trump hearts: JD is the left bower, so it sits with the hearts (rules.md 1.2)
    root = parse(hand_html(["9C", "JD", "AH", "KS"], trump="H", legal=["JD", "AH"]))
    shown = root.cards()
    assert [c for c, _ in shown] == ["JD", "AH", "9C", "KS"]
    assert {c for c, cls in shown if "ee-legal" in cls} == {"JD", "AH"}


# --------------------------------------------------------------- the table (C3)

def test_all_hands_view_shows_each_hand(c3):
    st = c3.state_at(P_T1_EAST)
    root = parse(state_html(st))
    table = root.find("ee-table")
    for seat, text in C3_AFTER_DISCARD.items():
        shown = {c for c, _ in table.find(f"ee-hand-{seat}").cards()}
        expected = set(text.split())
        if seat == N:
            expected.discard("KC")  # N has led KC
        assert shown == expected
    # the current trick: N led KC
    trick = table.find("ee-trick-cards")
    assert [c for c, _ in trick.cards()] == ["KC"]
    leader = trick.find("ee-leader")
    assert leader.attrs["data-seat"] == str(N)


def test_legal_cards_and_coming_renege_marked(c3):
    # E holds TC, the only club: it is E's only legal card (rules.md 1.3); the
    # record's next play, 9H, is a renege and is marked in E's hand.
    st = c3.state_at(P_T1_EAST)
    root = parse(state_html(st, next_event=c3.events[P_T1_EAST]))
    hand = root.find("ee-hand-1").cards()
    assert {c for c, cls in hand if "ee-legal" in cls} == {"TC"}
    assert {c for c, cls in hand if "ee-renege" in cls} == {"9H"}
    for other in (N, S, W):
        assert not any("ee-legal" in cls for _, cls in root.find(f"ee-hand-{other}").cards())
    assert "must follow clubs" in root.find("ee-act").all_text()


def test_renege_marked_in_the_trick_with_evidence(c3):
    st = c3.state_at(P_AFTER_RENEGE)
    root = parse(state_html(st, findings=c3.audit()))
    trick = root.find("ee-trick-cards").cards()
    assert [c for c, _ in trick] == ["KC", "9H"]
    assert [c for c, cls in trick if "ee-renege" in cls] == ["9H"]
    # the club E held back is the evidence
    assert [c for c, cls in root.find("ee-hand-1").cards() if "ee-evidence" in cls] == ["TC"]
    note = root.find("ee-renege-note").all_text()
    assert "East played 9\u2665" in note and "10\u2663" in note
    assert "can still be corrected" in note          # trick 1 not yet gathered (rules.md 1.5)
    assert "Not yet proven" in note


def test_renege_proven_at_trick_four_with_penalty(c3):
    st = c3.state_at(P_AFTER_PROOF)
    root = parse(state_html(st, findings=c3.audit()))
    trick = root.find("ee-trick-cards").cards()
    assert [c for c, _ in trick] == ["JH", "9S", "TC"]
    assert [c for c, cls in trick if "ee-proof" in cls] == ["TC"]
    note = root.find("ee-renege-note").all_text()
    assert "Proven in trick 4" in note
    # tournament preset (rules.md 2.7): the hand ends, N/S score 2
    assert "N/S score 2" in note
    # seats by name, and no final score in the middle of a replay
    assert "Established when trick 1 was gathered: East played to trick 2." in note
    assert "seat " not in note and "2-0" not in note


def test_seat_view_hides_what_the_seat_cannot_know(c3):
    st = c3.state_at(P_AFTER_RENEGE)
    root = parse(state_html(st, seat=N, findings=c3.audit()))
    north = root.find("ee-hand-0").cards()
    assert {c for c, _ in north} == {"AS", "QD", "9S", "TD"}
    # E and S: backs only, as many as they hold (E 4 after playing, S 5)
    assert [c for c, _ in root.find("ee-hand-1").cards()] == ["hidden"] * 4
    assert [c for c, _ in root.find("ee-hand-2").cards()] == ["hidden"] * 5
    # W picked up the up-card TH in view of all: it shows; the other 4 are backs
    west = [c for c, _ in root.find("ee-hand-3").cards()]
    assert sorted(west) == sorted(["TH"] + ["hidden"] * 4)
    # kitty and W's discard are face down for N
    assert [c for c, _ in root.find("ee-kitty").cards()] == ["hidden"] * 3
    assert [c for c, _ in root.find("ee-discard").cards()] == ["hidden"]
    # N cannot know yet that E reneged (not proven): no mark, no note
    assert not root.find_all("ee-renege") and not root.find_all("ee-renege-note")
    # cards on the table are public
    assert [c for c, _ in root.find("ee-trick-cards").cards()] == ["KC", "9H"]
    # the dealer W sees the own discard
    west_view = parse(state_html(st, seat=W))
    assert [c for c, _ in west_view.find("ee-discard").cards()] == ["9D"]
    # after the proof (E shows TC in trick 4) every seat may know
    later = parse(state_html(c3.state_at(P_AFTER_PROOF), seat=N, findings=c3.audit()))
    assert later.find_all("ee-renege-note")


def test_auction_calls_and_discard_choices(c3):
    st = c3.state_at(P_AUCTION)
    act = parse(state_html(st)).find("ee-act")
    calls = [n.all_text() for n in act.find_all("ee-call")]
    # N, left of dealer W, may pass, order up, or order up alone (rules.md 2.2, 2.4)
    assert calls == ["passes", "orders it up", "orders it up and goes alone"]
    assert "hearts as trump" in act.all_text()
    # the dealer W after picking up TH holds six cards and may discard any (C7)
    st = c3.state_at(P_DISCARD)
    hand = parse(state_html(st)).find("ee-hand-3").cards()
    assert {c for c, cls in hand if "ee-legal" in cls} == {"JH", "AH", "KH", "9C", "9D", "TH"}


def test_score_and_tricks_after_the_deal(c3):
    # trick winners E, S, W, W, W: N/S took 1, E/W 4; makers N/S euchred, E/W +2 (rules.md 2.6)
    st = c3.state_at(len(c3.events))
    root = parse(state_html(st))
    score = root.find("ee-score")
    assert score.find_all("ee-points")[0].attrs["data-points"] == "0"
    assert score.find_all("ee-points")[1].attrs["data-points"] == "2"
    sides = score.find_all("ee-side-0")[0], score.find_all("ee-side-1")[0]
    assert "1 trick" in sides[0].all_text() and "4 tricks" in sides[1].all_text()
    assert "E/W +2" in score.all_text()
    last = root.find("ee-last-trick-body")
    assert last.attrs["data-winner"] == str(W)
    assert [c for c, _ in last.cards()] == ["AH", "TD", "KD", "QC"]


def test_parts_are_the_same_drawing(c3):
    st = c3.state_at(P_T1_EAST)
    parts = table_parts(st)
    assert set(parts) == {"head-0", "head-1", "head-2", "head-3", "hand-0", "hand-1", "hand-2",
                          "hand-3", "trick", "last", "info", "score", "act"}
    for key, html in parts.items():
        assert html in state_html(st)


def test_two_and_three_seat_tables():
    from euchre_events.rules.simulate import random_game
    for variant, n, names in (("two-handed", 2, ["P1", "P2"]), ("cutthroat", 3, ["P1", "P2", "P3"])):
        g = Game(random_game(variant, seed=3, deals=1))
        st = g.state_at(len(g.events) // 2)
        root = parse(state_html(st))
        assert len(root.find_all("ee-hand")) == n
        assert not root.find_all(f"ee-hand-{n}")
        for s in range(n):
            assert {c for c, _ in root.find(f"ee-hand-{s}").cards()} == set(st.hands[s])
        assert side_names(st) == names


# --------------------------------------------------------------- static HTML export

def test_export_html_holds_every_position(c3, tmp_path):
    import json
    import re

    from euchre_events.ui.htmlexport import export_html

    path = tmp_path / "c3.html"
    export_html(c3, str(path), annotations=[{"position": 9, "text": "renege!", "mark": "??"}])
    page = path.read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir()] == ["c3.html"]     # no temporary file left
    assert "http://" not in page and "https://" not in page          # nothing from other hosts
    for cls in ("ee-first", "ee-prev", "ee-next", "ee-last", "ee-table", "ee-hand-0", "ee-hand-3",
                "ee-trick-cards", "ee-score", "ee-seat-view", "ee-events"):
        assert f'class="{cls}' in page or f" {cls}" in page, cls
    blob = re.search(r'<script id="ee-data" type="application/json">(.*?)</script>', page, re.S).group(1)
    data = json.loads(blob.replace("<\\/", "</"))
    assert data["n"] == 28 and set(data["views"]) == {"all", "0", "1", "2", "3"}
    assert data["notes"] == {"9": [{"text": "renege!", "mark": "??"}]}
    assert data["reneges"] == [P_T1_EAST]
    assert data["deals"] == {"1": 3}
    # position 10 (after E's 9H), all hands: the trick part marks 9H as the renege
    trick = data["strings"][data["views"]["all"][P_AFTER_RENEGE - 1][data["parts"].index("trick")]]
    assert [c for c, cls in parse(trick).cards() if "ee-renege" in cls] == ["9H"]
    # North's view of E's hand at that moment: four backs
    hand = data["strings"][data["views"]["0"][P_AFTER_RENEGE - 1][data["parts"].index("hand-1")]]
    assert [c for c, _ in parse(hand).cards()] == ["hidden"] * 4


def test_export_html_to_a_missing_folder_writes_nothing(c3, tmp_path):
    from euchre_events.ui.htmlexport import export_html
    with pytest.raises(OSError):
        export_html(c3, str(tmp_path / "missing" / "x.html"))
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------ a finished trick and why it was won
# (in Chromium: tests/test_browser.py test_keys_link_and_the_finished_trick_in_chromium)


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
