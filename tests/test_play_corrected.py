"""A card taken back before the trick is gathered (rules.md 1.5; docs/cases.md C3).

C3: dealer W, up-card TH, S orders up (trump hearts, N/S make), W discards 9D.
After the discard: N KC AS QD 9S TD, E TC 9H AD KD JS, S AC QC KS TS QH,
W JH AH KH TH 9C.  At trick 1 N leads KC and E trumps with 9H while holding
TC: a renege.  "Had E swapped 9H for TC before T1 was gathered, there is no
penalty."  With TC in place trick 1 is KC TC AC 9C: clubs led, no trump, so
AC (S) wins (A > K > 10 > 9, rules.md 1.1, 1.3), not E's 9H.

Worked by hand for the rest of the corrected deal (S leads trick 2):
T2 S KS, W TH (void in spades, trumps), N AS, E JS: W wins with the trump.
T3 W JH, N 9S (no hearts), E 9H, S QH: W (right bower).
T4 W AH, N TD, E AD, S TS: W.   T5 W KH, N QD, E KD, S QC: W.
N/S (makers) take 1 trick: euchred, E/W score 2 (rules.md 2.6).  Final 0-2.
"""
import dataclasses

import pytest

from euchre_events.ui.describe import describe_event

from euchre_events.archive import Archive
from euchre_events.rules.engine import ImpossibleEvent
from euchre_events.events import (CardPlayed, CardsDealt, DealStarted, Discarded, GameStarted,
                                  OrderedUp, Passed, PlayCorrected, UpCardPickedUp,
                                  event_from_dict)
from euchre_events.formats import Record
from euchre_events.formats.egn import write_egn
from euchre_events.formats.text import parse_text, write_text
from euchre_events.projections import Game
from euchre_events.rules.variants.standard import StandardOptions

from builders import Recorder

N, E, S, W = range(4)
NO_PENALTY = "none: corrected before the trick was gathered (rules.md 1.5)"
REST_OF_DEAL = "KS TH AS JS  JH 9S 9H QH  AH TD AD TS  KH QD KD QC"


def c3():
    dealt = ("KC AS QD 9S TD".split(), "TC 9H AD KD JS".split(),
             "AC QC KS TS QH".split(), "JH AH KH 9C 9D".split())
    r = Recorder(GameStarted("standard", StandardOptions().to_dict(),
                             ("N", "E", "S", "W"), first_dealer=W, initial_score=(0, 0)))
    r.add(DealStarted(1, W), CardsDealt(tuple(map(tuple, dealt)), "TH", ("JC", "JD", "QS")),
          Passed(N), Passed(E), OrderedUp(S), UpCardPickedUp(W), Discarded(W, "9D"))
    return r


def check_corrected_deal(r):
    """Trick 1 went to S; the rest of the deal as worked out above."""
    assert r.t.tricks[0][2] == S
    assert r.t.turn == S and r.t.leader == S
    r.play(REST_OF_DEAL)
    g = r.game()
    assert [w for _, _, w in g.final.tricks] == [S, W, W, W, W]
    assert g.final_score == [0, 2]
    [f] = g.audit()
    assert f.kind == "renege-corrected"
    assert (f.deal, f.trick, f.seat, f.card, f.evidence) == (1, 1, E, "9H", ("TC",))
    assert f.penalty == NO_PENALTY
    assert f.proven is None
    assert f.score_if_penalized == (0, 2)
    return g


def test_corrected_right_after_the_renege():
    r = c3().play("KC 9H")
    assert len(r.t.reneges) == 1
    r.add(PlayCorrected(E, "9H", "TC"))
    assert r.t.trick == [(N, "KC"), (E, "TC")]
    assert "9H" in r.t.hands[E] and "TC" not in r.t.hands[E]
    assert r.t.turn == S
    r.play("AC 9C")
    check_corrected_deal(r)


def test_corrected_after_the_trick_is_complete_but_not_gathered():
    r = c3().play("KC 9H AC 9C")
    assert r.t.tricks[0][2] == E              # 9H, the only trump, wins as played
    assert r.t.turn == E
    r.add(PlayCorrected(E, "9H", "TC"))
    assert r.t.tricks[0][1] == ((N, "KC"), (E, "TC"), (S, "AC"), (W, "9C"))
    assert r.t.tricks_won == [0, 0, 1, 0]
    check_corrected_deal(r)


def test_uncorrected_renege_still_costs_two_points():
    """The same deal without the correction (docs/cases.md C3): penalty 2 to N/S."""
    r = c3().play("KC 9H AC 9C", "AD QH TH QD", "KS KH AS JS", "JH 9S TC TS", "AH TD KD QC")
    [f] = r.game().audit()
    assert f.kind == "renege" and f.proven["trick"] == 4


def test_replacement_is_checked_for_a_renege():
    """E takes back 9H and plays AD: still not a club while holding TC."""
    r = c3().play("KC 9H").add(PlayCorrected(E, "9H", "AD"))
    r.play("AC 9C")
    assert r.t.tricks[0][2] == S              # no trump in the trick: AC wins
    kinds = [(x.kind, x.card, x.evidence) for x in r.game().audit()]
    assert kinds == [("renege-corrected", "9H", ("TC",)), ("renege", "AD", ("TC",))]


def test_a_legal_card_can_also_be_taken_back():
    """No renege to correct: the card simply changes, no finding."""
    r = c3().play("KC").add(CardPlayed(E, "TC"), PlayCorrected(E, "TC", "9H"))
    assert len(r.t.reneges) == 1 and r.t.reneges[0].card == "9H"
    assert r.t.reneges[0].evidence == ("TC",)


@pytest.mark.parametrize("events, words", [
    # trick 2 has started: trick 1 is gathered
    (["KC 9H AC 9C", "AD"], "gathered"),
    # 9H is not in the trick
    (["KC"], "did not play it"),
    # the replacement is not in E's hand (S holds AC)
    (["KC 9H"], "not in that hand"),
    # a lead cannot be taken back
    (["KC 9H"], "led trick 1"),
])
def test_impossible_corrections(events, words):
    r = c3().play(*events)
    ev = {"gathered": PlayCorrected(E, "9H", "TC"),
          "did not play it": PlayCorrected(E, "9H", "TC"),
          "not in that hand": PlayCorrected(E, "9H", "AC"),
          "led trick 1": PlayCorrected(N, "KC", "AS")}[words]
    with pytest.raises(ImpossibleEvent) as e:
        r.add(ev)
    assert words in str(e.value)
    assert "deal 1" in str(e.value) and "PlayCorrected" in str(e.value)


def test_correction_after_the_deal_is_scored_is_impossible():
    r = c3().play("KC 9H AC 9C", "AD QH TH QD", "KS KH AS JS", "JH 9S TC TS", "AH TD KD QC")
    with pytest.raises(ImpossibleEvent, match="already scored"):
        r.add(PlayCorrected(N, "TD", "QD"))


def test_describe_and_dict_roundtrip():
    ev = PlayCorrected(E, "9H", "TC")
    assert describe_event(ev, ["N", "E", "S", "W"]) == "East takes back 9\u2665 and plays 10\u2663 instead"
    assert event_from_dict(ev.to_dict()) == ev


def corrected_events():
    r = c3().play("KC 9H AC 9C").add(PlayCorrected(E, "9H", "TC")).play(REST_OF_DEAL)
    return r.events


def test_text_notation_roundtrip():
    evs = corrected_events()
    [rec] = parse_text(write_text(evs))
    assert rec.events == evs


def test_egn_refuses_it():
    with pytest.raises(ValueError, match="PlayCorrected"):
        write_egn(corrected_events())


def test_archive_stores_it(tmp_path):
    evs = corrected_events()
    a = Archive(str(tmp_path / "a.sqlite"))
    gid, created = a.import_record(Record(evs))
    assert created
    g = Archive(str(tmp_path / "a.sqlite")).load(gid)
    assert g.events == evs
    assert g.final_score == [0, 2]
    assert [f.kind for f in g.audit()] == ["renege-corrected"]
    assert isinstance(Game(evs).events[12], PlayCorrected)
