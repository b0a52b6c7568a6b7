"""The text notation (docs/notation.md) and the JSON export.

Expected values are worked out by hand from rules.md / docs/cases.md, or recomputed
here by a small trick and score counter of our own (rules.md 1.1-1.3, 2.6) that
shares no code with the engine.
"""
from __future__ import annotations

import glob
import json
import os
import re

import pytest
from conftest import FIXTURES as FIX, ROOT, cli as _cli

from euchre_events.events import (EVENT_TYPES, BidMade, CardPassed, CardPlayed, CardsDealt,
                                  DealStarted, DealThrownIn, DefendedAlone, Discarded,
                                  DroppedOut, DummyTaken, GameStarted, HandSwappedWithGhost,
                                  JokerSuitNamed, OrderedUp, Passed, PlayedWithPartner,
                                  StayedIn, TrumpNamed, UpCardDeclined, UpCardPickedUp,
                                  WentAlone)
from euchre_events.formats import RecordError, read_records, validate_events
from euchre_events.formats.jsonfmt import parse_json, read_json_file, write_json
from euchre_events.formats.text import GRAMMAR, parse_text, read_text_file, write_text

FIXTURES = sorted(glob.glob(os.path.join(ROOT, "fixtures", "standard", "*.euchre")))
DOC = os.path.join(ROOT, "docs", "notation.md")

# ------------------------------------------------------------------ an independent counter
# rules.md 1.1: trumps rank right bower, left bower, A K Q 10 9; plain suits A K Q J 10 9.
# rules.md 1.2: the left bower belongs to trump.  1.3: highest trump, else highest of the
# led suit.  2.6: makers 3-4 = 1, 5 = 2 (4 alone); euchred = 2 to the defenders (4 for a
# lone defender).

_SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}


def _suit(card, trump):
    if trump and card[0] == "J" and card[1] == _SAME_COLOUR[trump]:
        return trump
    return card[1]


def _rank(card, trump):
    if trump and _suit(card, trump) == trump:
        if card == "J" + trump:
            return 20
        if card[0] == "J":
            return 19
        return 10 + "9TQKA".index(card[0])
    return "9TJQKA".index(card[0])


def _trick_winner(plays, trump):
    led = _suit(plays[0][1], trump)

    def key(play):
        s = _suit(play[1], trump)
        return (2 if s == trump else 1 if s == led else 0, _rank(play[1], trump))
    return max(plays, key=key)[0]


def count_standard_game(events):
    """Replay a standard game by hand: scores, winner, trick winners per deal,
    illegal plays, and the index of the event where a side reached the target."""
    start = events[0]
    target = start.options.get("target_score", 10)
    scores = list(start.initial_score or (0, 0))
    out = {"deal_tricks": [], "reneges": 0, "winner": None, "end": None, "deal_points": []}
    full_deck = {r + s for r in "9TJQKA" for s in "CDHS"}
    hands = trump = maker = up = None
    for i, ev in enumerate(events[1:], 1):
        k = ev.kind
        if k == "DealStarted":
            hands, trump, maker, alone, lone_def, out_seats = None, None, None, False, None, set()
            trick, winners = [], []
        elif k == "CardsDealt":
            dealt = [c for h in ev.hands for c in h] + [ev.up_card] + list(ev.kitty)
            assert len(dealt) == 24 and set(dealt) == full_deck, "not a genuine 24-card deal"
            assert all(len(h) == 5 for h in ev.hands)
            hands = [list(h) for h in ev.hands]
            up = ev.up_card
        elif k in ("OrderedUp", "TrumpNamed"):
            trump = up[1] if k == "OrderedUp" else ev.suit
            maker = ev.seat
            if ev.alone:
                alone = True
                out_seats.add((ev.seat + 2) % 4)
        elif k == "WentAlone":
            alone = True
            out_seats.add((ev.seat + 2) % 4)
        elif k == "DefendedAlone":
            lone_def = ev.seat
            out_seats.add((ev.seat + 2) % 4)
        elif k == "UpCardPickedUp":
            hands[ev.seat].append(up)
        elif k == "Discarded":
            hands[ev.seat].remove(ev.card)
        elif k == "CardPlayed":
            assert ev.seat not in out_seats
            hand = hands[ev.seat]
            assert ev.card in hand
            if trick:
                led = _suit(trick[0][1], trump)
                if _suit(ev.card, trump) != led and any(_suit(c, trump) == led for c in hand):
                    out["reneges"] += 1
            hand.remove(ev.card)
            trick.append((ev.seat, ev.card))
            if len(trick) == 4 - len(out_seats):
                winners.append(_trick_winner(trick, trump))
                trick = []
            if len(winners) == 5:
                side = maker % 2
                n = sum(1 for w in winners if w % 2 == side)
                pts = [0, 0]
                if n == 5:
                    pts[side] = 4 if alone else 2
                elif n >= 3:
                    pts[side] = 1
                else:
                    pts[1 - side] = 4 if lone_def is not None else 2
                scores = [scores[0] + pts[0], scores[1] + pts[1]]
                out["deal_tricks"].append(winners)
                out["deal_points"].append(pts)
                winners = []
                if max(scores) >= target and out["end"] is None:
                    out["end"] = i
                    out["winner"] = 0 if scores[0] >= target else 1
    out["scores"] = scores
    return out


# ------------------------------------------------------------------ fixtures

def test_there_are_at_least_three_standard_fixtures():
    assert len(FIXTURES) >= 3


@pytest.mark.parametrize("path", FIXTURES, ids=os.path.basename)
def test_fixture_replays_to_the_independently_counted_result(path):
    (rec,) = read_text_file(path)
    assert rec.events[0].variant == "standard"
    mine = count_standard_game(rec.events)
    assert mine["reneges"] == 0                       # every play follows suit
    assert mine["winner"] is not None                 # a complete game, to the target
    assert max(mine["scores"]) >= 10
    assert mine["end"] == len(rec.events) - 1         # it stops where the game was won
    game = validate_events(path, rec.events)
    assert game.final_score == mine["scores"]
    assert game.winner == mine["winner"]
    assert [r[1] for r in game.final.deal_results if r[2] == "played"] == \
        [tuple(p) for p in mine["deal_points"]]
    assert game.audit() == []


@pytest.mark.parametrize("path", FIXTURES, ids=os.path.basename)
def test_fixture_round_trips_through_text_and_json(path, tmp_path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    (rec,) = parse_text(text, path)
    again = write_text(rec.events, rec.annotations, rec.variations)
    assert again == text                               # the writer's own layout
    (rec2,) = parse_text(again)
    assert (rec2.events, rec2.annotations, rec2.variations) == \
        (rec.events, rec.annotations, rec.variations)
    out = tmp_path / "game.eej"
    out.write_text(write_json(rec.events, rec.annotations, rec.variations), encoding="utf-8")
    (rec3,) = read_json_file(str(out))
    assert (rec3.events, rec3.annotations, rec3.variations) == \
        (rec.events, rec.annotations, rec.variations)
    (rec4,) = read_records(str(out))                   # .eej -> json via detect_format
    assert rec4.events == rec.events


def test_fixtures_exercise_the_notation():
    kinds, marks, n_var = set(), set(), 0
    for path in FIXTURES:
        (rec,) = read_text_file(path)
        kinds |= {e.kind for e in rec.events}
        marks |= {a["mark"] for a in rec.annotations}
        n_var += len(rec.variations)
    assert {"DealThrownIn", "WentAlone", "DefendedAlone", "UpCardDeclined", "TrumpNamed",
            "PlayedWithPartner"} <= kinds
    assert {"!", "!?"} <= marks and n_var >= 1


# ------------------------------------------------------------------ case C3 written by hand

C3 = """[Variant "standard"]
[North "N"] [East "E"] [South "S"] [West "W"]
[Dealer "W"]
{Case C3 of docs/cases.md}

Deal 1 dealer W
N: KC AS QD 9S TD
E: TC 9H AD KD JS
S: AC QC KS TS QH
W: JH AH KH 9C 9D
Up: TH
Kitty: JC JD QS
N pass  E pass  S order  W pickup  W discard 9D
T1: N KC  E 9H ?? {renege: E holds TC}  S AC  W 9C
T2: E AD  S QH  W TH  N QD
T3: S KS  W KH  N AS  E JS (E TC {a club, had he kept it}  W JH)
T4: W JH  N 9S  E TC !? {the club shows}  S TS
T5: W AH  N TD  E KD  S QC
"""


def test_case_c3_reads_to_the_events_of_cases_md():
    (rec,) = parse_text(C3)
    ev = rec.events
    # no [InitialScore] tag: the game starts at 0-0 (rules.md 2.6), as every reader says
    assert ev[0] == GameStarted("standard", {}, ("N", "E", "S", "W"), first_dealer=3,
                                initial_score=(0, 0))
    assert ev[1] == DealStarted(1, 3)
    assert ev[2] == CardsDealt((("KC", "AS", "QD", "9S", "TD"), ("TC", "9H", "AD", "KD", "JS"),
                                ("AC", "QC", "KS", "TS", "QH"), ("JH", "AH", "KH", "9C", "9D")),
                               "TH", ("JC", "JD", "QS"))
    assert ev[3:8] == [Passed(0), Passed(1), OrderedUp(2), UpCardPickedUp(3), Discarded(3, "9D")]
    assert ev[8:12] == [CardPlayed(0, "KC"), CardPlayed(1, "9H"), CardPlayed(2, "AC"),
                        CardPlayed(3, "9C")]
    assert len(ev) == 8 + 20
    # comments: about the game (0), E's 9H (event 9), E's TC in trick 4 (event 8 + 14 = 22)
    assert rec.annotations == [
        {"position": 0, "text": "Case C3 of docs/cases.md", "mark": None},
        {"position": 9, "text": "renege: E holds TC", "mark": "??"},
        {"position": 22, "text": "the club shows", "mark": "!?"}]
    # the alternative line replaces E's JS (trick 3, 4th card: event 8 + 11 = 19); its
    # comment is on its first event, position 19 of the line's own stream
    assert rec.variations == [{"position": 19, "events": [CardPlayed(1, "TC"), CardPlayed(3, "JH")],
                               "annotations": [{"position": 19, "text": "a club, had he kept it",
                                                "mark": None}],
                               "comment": ""}]
    # docs/cases.md C3: trick winners E, S, W, W, W; N/S euchred (E/W +2) before any penalty
    mine = count_standard_game(ev)
    assert mine["deal_tricks"] == [[1, 2, 3, 3, 3]]
    assert mine["scores"] == [0, 2] and mine["reneges"] == 1
    game = validate_events("c3", ev)
    assert [t[2] for t in game.final.tricks] == [1, 2, 3, 3, 3]
    assert game.final_score == [0, 2]
    (finding,) = game.audit()
    assert (finding.seat, finding.trick, finding.proven["trick"]) == (1, 1, 4)


def test_seat_and_tag_spellings():
    text = """[Variant "standard"]
[Options "dealer_may_decline_upcard=true, alone_timing=after_exchange; defend_alone=any"]
[Players "Ann; Bob; Cy; Di"]
[Dealer "Di"]
[InitialScore "4-9"]
[FinalScore "4, 9"]
[Date "2025-03-14"] [Source.seed "37"] [Annotator "Zed"]

Deal 1 dealer W
N: KC AS QD 9S TD
E: TC 9H AD KD JS
S: AC QC KS TS QH
W: JH AH KH 9C 9D
Up: TH
Kitty: JC JD QS
0 pass  1 pass  2 pass  3 pass
P1 pass  P2 Pass  P3 PASS  P4 passes
thrown-in

Deal 2 dealer N
N: KC AS QD 9S TD
E: TC 9H AD KD JS
S: AC QC KS TS QH
W: JH AH KH 9C 9D
Up: TH
Kitty: JC JD QS
E pass  S pass  W orders it up  N declines
W alone  S with partner  N defends alone
T1: W play 9c  N K\u2663
"""
    (rec,) = parse_text(text)
    g = rec.events[0]
    assert g.options == {"dealer_may_decline_upcard": True, "alone_timing": "after_exchange",
                         "defend_alone": "any"}
    assert g.players == ("Ann", "Bob", "Cy", "Di") and g.first_dealer == 3
    assert g.initial_score == (4, 9) and rec.stated_final_score == [4, 9]
    assert g.source == {"date": "2025-03-14", "seed": 37, "Annotator": "Zed"}
    assert rec.events[3:12] == [Passed(s % 4) for s in range(8)] + [DealThrownIn("all passed")]
    assert rec.events[14:] == [Passed(1), Passed(2), OrderedUp(3), UpCardDeclined(0),
                               WentAlone(3), PlayedWithPartner(2), DefendedAlone(0),
                               CardPlayed(3, "9C"), CardPlayed(0, "KC")]
    (rec2,) = parse_text(write_text(rec.events, rec.annotations, rec.variations,
                                    final_score=rec.stated_final_score))
    assert (rec2.events, rec2.stated_final_score) == (rec.events, [4, 9])


# ------------------------------------------------------------------ every event type

ALL_EVENTS = """[Variant "no-such-variant"]
[P1 "a"] [P2 "b"] [P3 "c"] [P4 "d"]
Deal 1 dealer P4
P1: 9C TC JC QC KC AC
P2: ?? ?? ?? ?? ?? ??
P3: JK AS#1 AS#2 10h J\u2666 ??
P4:
Up: ??  Kitty: 9D  Dummy: TD JD  Ghost: QD KD AD
P1 pass  P2 order  P3 order alone  P4 name hearts alone  P1 call NT
P2 pickup  P3 decline  P4 discard ??  P1 alone  P2 with-partner  P3 defend-alone
P4 bid 3  P1 bid moon  P2 bid "pb 2"  P3 swap  P4 dummy  P1 give AS#2 to P3
P2 drop  P3 stay  P4 thrown-in "ace no face"  thrown-in  P1 joker-suit S
P2 KC  @CardPassed(seat=3, to_seat=0, card="QH")  @DealThrownIn(reason="farmer's hand", seat=null)
"""


def test_every_event_type_has_a_notation():
    (rec,) = parse_text(ALL_EVENTS, validate=False)
    assert rec.events[1:] == [
        DealStarted(1, 3),
        CardsDealt((("9C", "TC", "JC", "QC", "KC", "AC"), ("??",) * 6,
                    ("JK", "AS#1", "AS#2", "TH", "JD", "??"), ()),
                   "??", ("9D",), ("TD", "JD"), ("QD", "KD", "AD")),
        Passed(0), OrderedUp(1), OrderedUp(2, alone=True), TrumpNamed(3, "H", alone=True),
        TrumpNamed(0, None),
        UpCardPickedUp(1), UpCardDeclined(2), Discarded(3, "??"), WentAlone(0),
        PlayedWithPartner(1), DefendedAlone(2),
        BidMade(3, 3), BidMade(0, "moon"), BidMade(1, "pb 2"), HandSwappedWithGhost(2),
        DummyTaken(3), CardPassed(0, 2, "AS#2"),
        DroppedOut(1), StayedIn(2), DealThrownIn("ace no face", 3), DealThrownIn("all passed"),
        JokerSuitNamed(0, "S"),
        CardPlayed(1, "KC"), CardPassed(3, 0, "QH"), DealThrownIn("farmer's hand")]
    # PlayCorrected (table law, rules.md 1.5) has no short form: it is written
    # @PlayCorrected(...) and its round trip is tested in test_play_corrected.py
    # nor do the claims and rulings (RenegeClaimed, RenegeRuled: test_official_result.py)
    assert {e.kind for e in rec.events} == set(EVENT_TYPES) - {"PlayCorrected", "RenegeClaimed", "RenegeRuled"}
    text = write_text(rec.events)
    (rec2,) = parse_text(text, validate=False)
    assert rec2.events == rec.events
    assert "@" not in text      # every event of today's vocabulary has a short form


def test_generic_form_round_trips_an_event_without_short_form():
    ev = [GameStarted("standard", {}, ("N", "E", "S", "W")), BidMade(0, -1),
          JokerSuitNamed(1, "X")]
    text = write_text(ev)
    assert "@BidMade(seat=0, bid=-1)" in text and '@JokerSuitNamed(seat=1, suit="X")' in text
    back = parse_text(text, validate=False)[0].events
    assert back[0] == GameStarted("standard", {}, ("N", "E", "S", "W"), initial_score=(0, 0))
    assert back[1:] == ev[1:]


@pytest.mark.parametrize("variant,options", [
    ("standard", None), ("two-handed", None), ("cutthroat", None), ("ghost-hand", None),
    ("buck", None), ("bid", None), ("bid", {"joker": True}), ("bid", {"double_deck": True}),
])
def test_random_games_of_every_variant_round_trip(variant, options):
    import dataclasses
    from euchre_events.rules.simulate import random_game
    events = random_game(variant, options=options, seed=5, renege_rate=0.05)
    assert events[0].initial_score is None
    # read back, a game that states no initial score starts from the variant's:
    # 0 per side, 25 each in Buck (rules.md 6.4); three sides in cutthroat and ghost hand
    start = {"buck": (25, 25, 25, 25), "cutthroat": (0, 0, 0), "ghost-hand": (0, 0, 0)}
    expected = [dataclasses.replace(events[0], initial_score=start.get(variant, (0, 0)))] + events[1:]
    (rec,) = parse_text(write_text(events))          # validated by the engine
    assert rec.events == expected
    (rec2,) = parse_json(write_json(events))
    assert rec2.events == expected


def test_comments_with_braces_backslashes_and_lines_round_trip():
    (rec,) = parse_text(C3)
    notes = [{"position": 0, "text": "a {brace} and a \\ backslash\nover two lines", "mark": None},
             {"position": 3, "text": "", "mark": "?"},
             {"position": 3, "text": "second note on the same pass", "mark": None},
             {"position": 5, "text": "", "mark": None}]
    # E leads trick 2 (event 12): KD instead of AD, or (nested) TC instead of KD;
    # then S follows with QC
    var = [{"position": 12, "events": [CardPlayed(1, "KD"), CardPlayed(2, "QC")],
            "comment": "from trick 2 {sic}",
            "annotations": [{"position": 12, "text": "x", "mark": "!!"},
                            {"position": 13, "text": "y", "mark": None}],
            "variations": [{"position": 12, "events": [CardPlayed(1, "TC")],
                            "annotations": [{"position": 12, "text": "z", "mark": "?"}],
                            "comment": ""}]}]
    text = write_text(rec.events, notes, var)
    assert "E AD (" in text and "(E TC ? {z})" in text
    (back,) = parse_text(text)
    assert back.annotations == notes and back.variations == var
    (j,) = parse_json(write_json(rec.events, notes, var))
    assert j.annotations == notes and j.variations == var


def test_variations_a_reader_could_not_replay_and_extra_keys():
    (rec,) = parse_text(C3)
    raw = {"position": None, "events": [], "annotations": [], "comment": "EGN line 2",
           "raw": {"branchIndex": 40}, "deal": 1}
    var = [dict(rec.variations[0], deal=1), raw]
    (j,) = parse_json(write_json(rec.events, rec.annotations, var))
    assert j.variations == rec.variations           # JSON: the playable line, documented keys only
    (t,) = parse_text(write_text(rec.events, rec.annotations, var))
    assert t.variations == rec.variations           # text: the playable line, notation keys only
    # a file that carries such keys or lines is read with a warning per item
    doc = json.loads(write_json(rec.events, rec.annotations, rec.variations))
    doc["variations"][0]["deal"] = 1
    doc["variations"].append({"position": None, "events": [], "raw": {"branchIndex": 40}})
    (j2,) = parse_json(json.dumps(doc), "x.eej")
    assert j2.variations == rec.variations
    assert j2.warnings == ["variations/0: key(s) 'deal' are not part of an alternative line; left out",
                           "variations/1: key(s) 'raw' are not part of an alternative line; left out",
                           "variations/1: an alternative line without events or position "
                           "(one a reader could not replay); left out"]


def test_several_games_in_one_file():
    two = C3 + "\n" + C3.replace('[Dealer "W"]', '[Dealer "W"]\n[Title "again"]')
    recs = parse_text(two, "two.euchre")
    assert [r.title for r in recs] == ["", "again"]
    assert recs[0].events[1:] == recs[1].events[1:]
    assert recs[1].source["line"] == C3.count("\n") + 2


def test_a_misplaced_trick_label_gives_a_warning():
    (rec,) = parse_text(C3.replace("T2: E AD", "T3: E AD"), "x.euchre")
    assert rec.warnings == ["x.euchre, line 15, column 1: label T3: stands at trick 2 card 1"]


# ------------------------------------------------------------------ errors

def _error(text):
    with pytest.raises(RecordError) as e:
        parse_text(text, "bad.euchre")
    return e.value


def test_syntax_error_names_file_line_column_and_what_was_expected():
    e = _error(C3.replace("N: KC AS QD", "N: KC AX QD"))
    assert (e.file, e.line, e.column) == ("bad.euchre", 7, 7)
    assert "unexpected 'AX'" in e.reason and "suit 'X' is not one of C D H S" in e.reason
    assert "a card (JD, 10H, JK, ??)" in e.reason
    assert str(e).startswith("bad.euchre, line 7, column 7: ")


def test_a_move_without_a_seat():
    e = _error(C3.replace("N pass  E pass  S order", "N pass  pass  S order"))
    assert (e.line, e.column) == (13, 9)
    assert "unexpected 'pass'" in e.reason and "a seat (N E S W or P1..Pn)" in e.reason


def test_an_unclosed_comment_is_found_where_it_opens():
    e = _error(C3.replace("{renege: E holds TC}", "{renege: E holds TC"))
    assert (e.line, e.column) == (14, 19)
    assert "unexpected '{'" in e.reason and "a {comment}" in e.reason


def test_an_unclosed_alternative_line():
    e = _error(C3.replace("W JH)", "W JH"))
    assert e.line == 19 and "unexpected end of the file" in e.reason and "')'" in e.reason


def test_a_seat_the_game_does_not_have():
    e = _error(C3.replace("N pass", "P5 pass"))
    assert (e.line, e.column) == (13, 1) and "seat P5 does not exist" in e.reason


def test_an_impossible_record_names_deal_event_line_and_column():
    e = _error(C3.replace("W discard 9D", "W discard 9S"))
    assert (e.line, e.column, e.deal) == (13, 36, 1)
    assert e.event == "8 (Discarded)" and "cannot discard 9S" in e.reason


def test_an_impossible_alternative_line_is_refused():
    # West leads trick 4 with the AD, which East played to trick 2
    e = _error(C3.replace("(E TC {a club, had he kept it}  W JH)", "(E TC  W AD)"))
    assert (e.line, e.deal) == (16, 1) and "AD" in e.reason and "not in that hand" in e.reason
    assert e.event == "2 of the alternative line (CardPlayed)"


def test_header_errors():
    assert "[Variant" in _error(C3.replace('[Variant "standard"]\n', "")).reason
    e = _error(C3.replace('[Dealer "W"]', '[Dealer "W"] [Dealer "N"]'))
    assert (e.line, e.column) == (3, 15) and "given twice" in e.reason
    e = _error(C3.replace("E: TC 9H AD KD JS\n", ""))
    assert (e.line, e.column) == (7, 1) and "no hand for seat E" in e.reason
    e = _error(C3.replace("Kitty: JC JD QS", "Kitty: JC JD QS ! {x}"))
    assert (e.line, e.column) == (12, 17) and "judges a move" in e.reason


def test_writer_refuses_what_it_cannot_write_back():
    (rec,) = parse_text(C3)
    with pytest.raises(ValueError):
        write_text(rec.events, [{"position": 2, "text": "", "mark": "??"}])
    with pytest.raises(ValueError):
        write_text(rec.events, variations=[{"position": 0, "events": [CardPlayed(0, "KC")]}])
    with pytest.raises(ValueError):
        write_text(rec.events[1:])


# ------------------------------------------------------------------ JSON

def test_json_layout_and_errors(tmp_path):
    (rec,) = parse_text(C3)
    text = write_json(rec.events, rec.annotations, rec.variations)
    data = json.loads(text)
    assert data["format"] == "euchre-events" and data["version"] == 1
    assert data["events"][9] == {"type": "CardPlayed", "seat": 1, "card": "9H"}
    assert data["variations"][0]["events"][0] == {"type": "CardPlayed", "seat": 1, "card": "TC"}
    both = parse_json(json.dumps([data, data]))
    assert len(both) == 2 and both[1].annotations == rec.annotations
    bad = tmp_path / "bad.eej"
    bad.write_text('{"format": "euchre-events",\n "version": 1,\n "events": [}\n')
    with pytest.raises(RecordError) as e:
        read_json_file(str(bad))
    assert (e.value.line, e.value.column) == (3, 13)
    data2 = dict(data, version=2)
    with pytest.raises(RecordError, match="at version"):
        parse_json(json.dumps(data2))
    data3 = json.loads(text)
    data3["events"][7] = {"type": "Discarded", "seat": 3, "card": "9S"}
    with pytest.raises(RecordError) as e:
        parse_json(json.dumps(data3), "x.eej")
    assert e.value.deal == 1 and e.value.event == "8 (Discarded)"   # events[7]: the 8th event


# ------------------------------------------------------------------ the documentation

def _doc_block(lang):
    with open(DOC, encoding="utf-8") as f:
        doc = f.read()
    m = re.search(r"```" + lang + r"\n(.*?)```", doc, re.S)
    return m.group(1)


def test_documented_grammar_is_the_grammar_in_use():
    assert _doc_block("lark").strip() == GRAMMAR.strip()


def test_documented_example_reads_validates_and_is_written_back_unchanged():
    text = _doc_block("euchre")
    (rec,) = parse_text(text, "notation.md")
    assert write_text(rec.events, rec.annotations, rec.variations) == text
    mine = count_standard_game(rec.events)
    # worked out by hand in docs/notation.md section 8
    assert mine["deal_points"] == [[0, 2], [0, 1]] and mine["scores"] == [0, 3]
    game = validate_events("notation.md", rec.events)
    assert game.final_score == [0, 3]
    assert [(f.deal, f.trick, f.seat) for f in game.audit()] == [(1, 1, 1)]


# ------------------------------------------------------------------ any text survives

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_C3_RECORD = None


def _c3():
    global _C3_RECORD
    if _C3_RECORD is None:
        (_C3_RECORD,) = parse_text(C3)
    return _C3_RECORD


@settings(max_examples=60, deadline=None)
@given(comment=st.text(), title=st.text(), name=st.text(), mark=st.sampled_from(
    [None, "!", "?", "!?", "?!", "!!", "??"]))
def test_any_comment_title_and_name_round_trip(comment, title, name, mark):
    rec = _c3()
    g = rec.events[0]
    start = GameStarted(g.variant, g.options, (name, "E", "S", "W"), first_dealer=g.first_dealer,
                        initial_score=g.initial_score, title=title)
    events = [start] + rec.events[1:]
    notes = [{"position": 0, "text": comment, "mark": None},
             {"position": 9, "text": comment, "mark": mark}]
    (back,) = parse_text(write_text(events, notes))
    assert back.events == events and back.annotations == notes


def test_a_generic_event_names_its_seats_as_the_moves_do():
    """@RenegeRuled(... against=E ...) reads as against=1: in the @Event(...)
    form a seat may be given by its name (N E S W, P1...), as in the moves;
    the writer still writes the index, and both read to the same game."""
    from euchre_events.formats.text import parse_text, write_text
    from euchre_events.events import RenegeRuled
    base = open(os.path.join(ROOT, "fixtures", "standard", "club-night-1.euchre"), encoding="utf-8").read().rstrip("\n")
    by_name = base + '\n@RenegeRuled(deal=1, trick=1, against=E, ruling="rejected", by="TD")\n'
    by_index = base + '\n@RenegeRuled(deal=1, trick=1, against=1, ruling="rejected", by="TD")\n'
    (a,), (b,) = parse_text(by_name), parse_text(by_index)
    assert a.events == b.events and a.events[-1] == RenegeRuled(1, 1, 1, "rejected", None, "TD")
    (c,) = parse_text(write_text(a.events))
    assert c.events == a.events


# ---------------------------------------------------------------- a fixed-deal game's text export (issue 27, a newcomer's first minutes)


def test_text_export_of_a_fixed_deal_game_says_no_target_score(tmp_path):
    """num-deals-2.egn (EGN toggles fixture): ``num_deals`` 2 and no
    ``winning_score``; the game ends after deal 2 (N/S 10, E/W 1).  The text
    export says ``[Option.target_score "none"]`` beside ``[Option.num_deals
    "2"]``, as the record said, and reads back as the same game (same id,
    the same events).  Before: ``[Option.target_score "1000000"]``, the
    internal value of "no target"."""
    from euchre_events.formats import read_records
    src = FIX / "egn" / "toggles" / "num-deals-2.egn"
    out = tmp_path / "two-deals.euchre"
    assert _cli("export", src, "--format", "text", "-o", out).exit_code == 0
    text = out.read_text(encoding="utf-8")
    assert '[Option.target_score "none"]' in text and '[Option.num_deals "2"]' in text
    assert "1000000" not in text
    [a], [b] = read_records(str(src)), read_records(str(out))
    assert b.events == a.events and b.game.final_score == [10, 1] and b.game.final.game_over
    # a text record may say it itself, in the one-tag form too
    one_tag = text.replace('[Option.target_score "none"]\n', "").replace(
        '[Option.num_deals "2"]', '[Options "target_score=None, num_deals=2"]')
    (tmp_path / "one-tag.euchre").write_text(one_tag, encoding="utf-8")
    [c] = read_records(str(tmp_path / "one-tag.euchre"))
    assert c.events[0].options["target_score"] == a.events[0].options["target_score"]
