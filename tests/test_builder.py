"""The record builder every reader drives (formats/builder.py), on its own.

The game is case C1 of rules.md (fixtures/standard/deals/c1-left-bower-is-a-trump.euchre):
West deals, hearts named by North in round 2, five tricks.  Its events, counted
by hand: 0 GameStarted, 1 DealStarted, 2 CardsDealt, 3-7 the five calls
(N E S W pass, N names hearts), trick 1 8-11, trick 2 12-15 (N 9H, E JD,
S JC, W JH), trick 3 16-19, trick 4 20-23, trick 5 24-27.  N/S make 4
tricks: 1 point (rules.md 2.6).
"""
from __future__ import annotations

import pytest

from euchre_events.events import (CardPlayed, CardsDealt, DealStarted, Passed, TrumpNamed)
from euchre_events.formats import RecordError
from euchre_events.formats.builder import RecordBuilder
from euchre_events.formats.text import parse_text

N, E, S, W = 0, 1, 2, 3
PLAYERS = ("Ann", "Bob", "Cy", "Di")
HANDS = (("AD", "9H", "AH", "KH", "QH"), ("JD", "9C", "KS", "QS", "TC"),
         ("JC", "QC", "KC", "AC", "9D"), ("TD", "QD", "KD", "TH", "JH"))
TRICKS = ((N, "AD"), (E, "9C"), (S, "9D"), (W, "TD"),
          (N, "9H"), (E, "JD"), (S, "JC"), (W, "JH"),
          (W, "TH"), (N, "AH"), (E, "TC"), (S, "QC"),
          (N, "KH"), (E, "QS"), (S, "KC"), (W, "QD"),
          (N, "QH"), (E, "KS"), (S, "AC"), (W, "KD"))

TEXT = """[Variant "standard"]
[Title "C1"]
[Players "Ann; Bob; Cy; Di"]
[Dealer "W"]
[FinalScore "1, 0"]

Deal 1 dealer W
N: AD 9H AH KH QH
E: JD 9C KS QS TC
S: JC QC KC AC 9D
W: TD QD KD TH JH
Up: 9S
Kitty: TS JS AS
N pass  E pass  S pass  W pass  N name H
T1: N AD  E 9C  S 9D  W TD
T2: N 9H  E JD ! {the left bower is a heart}  S JC  W JH ({a dubious idea} W TH {keeps the right bower})
T3: W TH  N AH  E TC  S QC
T4: N KH  E QS  S KC  W QD
T5: N QH  E KS  S AC  W KD
"""


def deal_events():
    """Deal 1 of case C1, DealStarted to the last card."""
    out = [DealStarted(1, W), CardsDealt(HANDS, "9S", ("TS", "JS", "AS")),
           Passed(N), Passed(E), Passed(S), Passed(W), TrumpNamed(N, "H")]
    return out + [CardPlayed(s, c) for s, c in TRICKS]


def c1_builder(path="c1.euchre"):
    b = RecordBuilder(path, "text", source={"file": path, "format": "text", "line": 1})
    b.start_game("standard", {}, PLAYERS, first_dealer=W, title="C1")
    return b


def test_a_game_built_by_hand_is_the_record_the_text_reader_gives():
    b = c1_builder()
    b.state_final_score([1, 0])
    for ev in deal_events():
        b.add(ev)
        if ev == CardPlayed(E, "JD"):
            b.annotate("the left bower is a heart", "!")
        if ev == CardPlayed(W, "JH"):
            b.begin_variation(comment="a dubious idea")
            b.add(CardPlayed(W, "TH"))
            b.annotate("keeps the right bower")
            b.end_variation()
    built = b.finish()
    (read,) = parse_text(TEXT, "c1.euchre")
    assert built == read
    # the values, by hand: the initial score is the variant's own, written out
    assert built.events[0].initial_score == (0, 0) and len(built.events) == 28
    assert built.annotations == [{"position": 13, "text": "the left bower is a heart", "mark": "!"}]
    assert built.variations == [{"position": 15, "events": [CardPlayed(W, "TH")],
                                 "annotations": [{"position": 15, "text": "keeps the right bower",
                                                  "mark": None}],
                                 "comment": "a dubious idea"}]
    assert built.warnings == [] and built.stated_final_score == [1, 0]
    assert list(b.game.final_score) == [1, 0]


def test_the_table_is_live_while_a_reader_builds():
    """A reader that needs whose turn it is reads the builder's table."""
    b = c1_builder()
    for ev in deal_events()[:7]:
        b.add(ev)
    t = b.table
    assert (t.phase, t.turn, t.trump, t.leader) == ("play", N, "H", N)
    for s, c in TRICKS[:4]:
        b.add(CardPlayed(s, c))
    assert t.turn == N and t.tricks[-1][2] == N      # N's AD took trick 1


def test_an_impossible_event_names_file_line_deal_event_and_reason():
    b = c1_builder()
    for ev in deal_events()[:7]:
        b.add(ev)
    b.table        # folding as it goes, as the EGN and OpenSpiel readers do
    with pytest.raises(RecordError) as e:
        b.add(CardPlayed(N, "JH"), line=16, column=5)   # West holds the JH
    err = e.value
    assert (err.file, err.deal, err.event, err.line, err.column) == ("c1.euchre", 1, "9 (CardPlayed)",
                                                                     16, 5)
    assert err.reason == ("North (Ann) cannot play JH: it is not in that hand "
                          "(it was dealt elsewhere or already played)")
    assert str(err) == f"c1.euchre, line 16, column 5, deal 1, game event 9 (CardPlayed): {err.reason}"
    assert len(b.events) == 8       # the bad event (the 9th) is not added


def test_a_record_folded_at_the_end_names_the_same_place():
    """The text reader adds everything first and the builder folds once at
    the end: the error is the same, at the line and column the event had."""
    b = c1_builder()
    evs = deal_events()           # evs[k] is event k + 2 (from 1: GameStarted is event 1)
    evs[7] = CardPlayed(N, "JH")
    for k, ev in enumerate(evs):
        b.add(ev, line=101 + k, column=1)
    with pytest.raises(RecordError) as e:
        b.finish()
    assert (e.value.deal, e.value.event, e.value.line) == (1, "9 (CardPlayed)", 108)


def test_label_deal_name_and_the_event_name_of_the_file():
    b = RecordBuilder("m.emn", "egn", label="game 2: ")
    b.start_game("standard", {}, PLAYERS, first_dealer=W)
    b.name_deal(1, "EGN dealNumber 0")
    for ev in deal_events()[:7]:
        b.add(ev)
    b.table
    with pytest.raises(RecordError) as e:
        b.add(CardPlayed(N, "JH"), name="history[30]")
    assert e.value.event == "history[30]" and e.value.deal == 1
    assert e.value.reason.startswith("game 2: North (Ann) cannot play JH")
    assert e.value.reason.endswith("(EGN dealNumber 0)")


def test_an_impossible_alternative_line_is_named_along_the_line():
    b = c1_builder()
    for ev in deal_events()[:15]:    # events 0-15, W's JH last
        b.add(ev)
    b.begin_variation(name="variations/0")
    b.add(CardPlayed(W, "TH"), line=30, column=7)
    b.add(CardPlayed(E, "AD"), line=30, column=12)      # N played the AD to trick 1
    b.end_variation()
    with pytest.raises(RecordError) as e:
        b.finish()
    assert (e.value.deal, e.value.event, e.value.line, e.value.column) == (
        1, "2 of the alternative line (CardPlayed)", 30, 12)
    assert e.value.reason == ("variations/0: East (Bob) cannot play AD: it is not in that hand "
                              "(it was dealt elsewhere or already played)")


def test_positions_outside_their_line_are_refused():
    b = c1_builder()
    for ev in deal_events():
        b.add(ev)
    with pytest.raises(RecordError, match=r"annotation position 28 outside 0\.\.27"):
        b.annotate("after the end", position=28)
    with pytest.raises(RecordError, match=r"alternative line position 0 outside 1\.\.27"):
        b.begin_variation(0)
    b.begin_variation(15)
    b.add(CardPlayed(W, "TH"))
    with pytest.raises(RecordError, match=r"alternative line annotation position 14 outside 15\.\.15"):
        b.annotate("before the line", position=14)


def test_the_warnings_every_reader_gives():
    b = c1_builder()
    for ev in deal_events()[:19]:        # 20 events (numbered from 1, as show --after counts): stops after trick 3
        b.add(ev)
    assert b.finish().warnings == ["the record stops in the middle of deal 1 (after event 20)"]
    b = c1_builder()
    b.state_final_score([5, 0])
    for ev in deal_events():
        b.add(ev)
    assert b.finish().warnings == ["the file states the final score [5, 0], "
                                   "the deals as played give [1, 0]"]


def test_rollback_forgets_a_part_and_its_table():
    """The deal-by-deal audit leaves out a deal that cannot be read."""
    b = c1_builder()
    for ev in deal_events():
        b.add(ev)
    assert b.table.phase == "deal_over"
    mark = b.mark()
    b.add(DealStarted(2, N))
    b.annotate("a note on deal 2")
    b.warn("deal 2: something")
    b.rollback(mark)
    assert len(b.events) == 28 and b.table.phase == "deal_over" and b.warnings == []
    rec = b.finish()
    assert rec.annotations == [] and list(b.game.final_score) == [1, 0]
