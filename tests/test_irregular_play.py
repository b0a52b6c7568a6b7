"""Illegal-but-real plays other than reneges (docs/design.md "Three kinds of wrong"):
a card led or played out of turn is kept, flagged, and the trick goes on."""
import pytest

from euchre_events.rules.engine import ImpossibleEvent
from euchre_events.events import (CardPlayed, CardsDealt, DealStarted, Discarded, GameStarted,
                                  OrderedUp, Passed, UpCardPickedUp)
from euchre_events.projections import Game

N, E, S, W = range(4)


def c3_with(trick2):
    """Case C3 of docs/cases.md (dealer W, hearts trump, S maker), with trick 2 as given."""
    dealt = ["KC AS QD 9S TD".split(), "TC 9H AD KD JS".split(),
             "AC QC KS TS QH".split(), "JH AH KH 9C 9D".split()]
    evs = [GameStarted("standard", {}, ("N", "E", "S", "W"), 3),
           DealStarted(1, 3), CardsDealt(tuple(map(tuple, dealt)), "TH", ("JC", "JD", "QS")),
           Passed(N), Passed(E), OrderedUp(S), UpCardPickedUp(W), Discarded(W, "9D")]
    plays = [[(N, "KC"), (E, "9H"), (S, "AC"), (W, "9C")], trick2,
             [(S, "KS"), (W, "KH"), (N, "AS"), (E, "JS")], [(W, "JH"), (N, "9S"), (E, "TC"), (S, "TS")],
             [(W, "AH"), (N, "TD"), (E, "KD"), (S, "QC")]]
    for trick in plays:
        evs += [CardPlayed(seat, card) for seat, card in trick]
    return evs


def test_lead_out_of_turn_is_kept_and_flagged():
    """East won trick 1 (9H trumps KC) and should lead trick 2; South leads QH
    instead.  The record keeps it: West, North and East follow, South's QH is
    the highest trump (TH, AD, QD: rules.md 1.1) and South leads trick 3 as in
    the case; the deal scores as played, E/W +2 for the euchre (rules.md 2.6)."""
    g = Game(c3_with([(S, "QH"), (W, "TH"), (N, "QD"), (E, "AD")]))
    assert [tr[2] for tr in g.final.tricks] == [E, S, W, W, W]
    assert g.final.tricks[1][0] == S                      # the trick as really led
    assert g.final_score == [0, 2]
    kinds = [(f.kind, f.deal, f.seat, f.position) for f in g.audit()]
    assert ("led-out-of-turn", 1, S, 12) in kinds
    assert ("renege", 1, E, 9) in kinds                    # C3's renege is still found


def test_play_out_of_turn_mid_trick_then_the_skipped_seat_plays():
    """Trick 2 led correctly by East (AD); North plays QD before South and West.
    The trick goes on from North to the seats yet to play: South, then West."""
    g = Game(c3_with([(E, "AD"), (N, "QD"), (S, "QH"), (W, "TH")]))
    st = g.state_at(14)                                    # after E AD, N QD
    assert st.trick == ((E, "AD"), (N, "QD")) and st.turn == S
    assert g.final.tricks[1][2] == S                        # QH wins (trump)
    assert [f.kind for f in g.audit() if f.kind != "renege"] == ["played-out-of-turn"]


def test_a_second_card_to_one_trick_is_impossible():
    evs = c3_with([(E, "AD"), (E, "KD"), (S, "QH"), (W, "TH")])
    with pytest.raises(ImpossibleEvent) as e:
        Game(evs)
    assert "second card" in e.value.reason and e.value.position == 13
