"""Insufficient bids and a stuck dealer who passes, in Bid Euchre (rules.md
section 7) and Ghost Hand Euchre (section 5).

docs/design.md "Three kinds of wrong": these are *illegal but real*.  The record
keeps them as they happened, the audit flags them (no score penalty: the
rules give none), and an insufficient bid stands as a pass, the usual table
remedy.  A bid the game does not have, or a seat bidding out of turn, stays
*impossible*.

Seats: Bid Euchre 0..3 = N, E, S, W (side 0 = N/S); Ghost Hand 0..2 = P1..P3.
Event positions: 0 GameStarted, 1 DealStarted, 2 CardsDealt, then the auction
from 3.  Every expected value is worked out by hand; comments give the reasoning.
"""
import pytest

from builders import Recorder
from euchre_events.rules.engine import ImpossibleEvent, apply
from euchre_events.events import (BidMade, CardsDealt, DealStarted, DealThrownIn,
                                  GameStarted, HandSwappedWithGhost, Passed, TrumpNamed,
                                  event_from_dict)
from euchre_events.formats import RecordError, validate_events
from euchre_events.projections import Game

N, E, S, W = 0, 1, 2, 3
P1, P2, P3 = 0, 1, 2


def cards(text):
    return tuple(text.split())


# Bid Euchre deal (docs/cases.md C10), dealer W.  Under hearts N holds both
# bowers, AH, KH, 9S, 9C; S the other three hearts; E spades and TD; W clubs and 9D.
BID_HANDS = (cards("JH JD AH KH 9S 9C"), cards("AS KS QS JS TS TD"),
             cards("QH TH 9H AD KD QD"), cards("AC KC QC JC TC 9D"))
# Played at hearts, N leading, order N E S W:
# T1 JH TD 9H 9D -> N (right bower).  T2 JD TS TH TC -> N (left bower; S follows TH).
# T3 AH JS QH JC -> N.  T4 KH QS AD QC -> N (S out of hearts).
# T5 9S AS KD KC -> E (AS high spade, no trump).  T6 E leads KS, S QD, W AC, N 9C -> E.
# N/S 4 tricks, E/W 2.
BID_PLAY = "JH TD 9H 9D  JD TS TH TC  AH JS QH JC  KH QS AD QC  9S AS KD KC  KS QD AC 9C"

# Ghost Hand deal, dealer P3.  Under hearts P1 holds JH JD AH KH 9S 9C; P2
# spades and QH; P3 clubs and TH; the ghost 9H and five diamonds.
GHOST_HANDS = (cards("JH JD AH KH 9S 9C"), cards("AS KS QS JS TS QH"),
               cards("AC KC QC JC TC TH"))
GHOST = cards("9H AD KD QD TD 9D")
# Played at hearts, P1 leading:
# T1 JH QH TH -> P1.  T2 JD TS TC -> P1 (left bower).  T3 AH JS JC -> P1.
# T4 KH QS QC -> P1.  T5 9S AS KC -> P2.  T6 P2 leads KS, P3 AC, P1 9C -> P2.
# P1 4 tricks, P2 2, P3 0.
GHOST_PLAY = "JH QH TH  JD TS TC  AH JS JC  KH QS QC  9S AS KC  KS AC 9C"


class Record(Recorder):
    """A game built event by event and folded as it goes."""

    def __init__(self, variant, players, dealer, dealt, **options):
        super().__init__(GameStarted(variant, options, players, first_dealer=dealer))
        self.add(DealStarted(1, dealer), dealt)

    def legal(self):
        return self.legal_actions()[0]


def bid_game(**options):
    return Record("bid", ("N", "E", "S", "W"), W, CardsDealt(BID_HANDS), **options)


def ghost_game(**options):
    return Record("ghost-hand", ("Ann", "Bob", "Cy"), P3, CardsDealt(GHOST_HANDS, ghost=GHOST),
                  **options)


def only_finding(events):
    """The one audit finding of a game rebuilt from its (serialized) events."""
    game = Game([event_from_dict(e.to_dict()) for e in events])
    [f] = game.audit()
    return game, f


# ---------------------------------------------------------------- Bid Euchre

def test_bid_euchre_insufficient_bid_stands_as_a_pass():
    # Dealer W, so N bids first (7.2).  N bids 4; E bids 3, which does not beat 4.
    r = bid_game().add(BidMade(N, 4), BidMade(E, 3))
    # The auction goes on with S, who still has to beat N's 4 (E's 3 is a pass).
    assert r.t.phase == "auction" and r.t.turn == S
    assert {e.bid for e in r.legal() if isinstance(e, BidMade)} == {5, "pb", "moon"}
    assert r.t.x["high"] == 4 and r.t.x["high_seat"] == N
    r.add(Passed(S), Passed(W))
    # One turn each: N wins the auction at 4, names trump and leads (7.2, 7.4).
    assert r.t.phase == "trump" and r.t.maker == N and r.t.x["contract"] == 4
    r.add(TrumpNamed(N, "H")).play(BID_PLAY)
    # 7.5: N/S bid 4 and took 4 -> made, +4; E/W +2 for their own tricks.
    assert r.t.scores == [4, 2]
    game, f = only_finding(r.events)
    assert list(game.final_score) == [4, 2]
    # The flag sits on E's bid: event 4 (after 0-2 and N's bid at 3), deal 1.
    assert (f.kind, f.position, f.seat, f.deal) == ("insufficient-bid", 4, E, 1)
    assert "7.2" in f.penalty and "does not beat" in f.penalty
    # No score penalty in the rules: the score stays as played.
    assert list(f.score_if_penalized) == [4, 2] and f.penalty_points == ()


def test_bid_euchre_bid_below_three_is_a_pass():
    # N bids 2 (the minimum is 3, 7.2): flagged, a pass.  E passes, S bids 3,
    # W passes: S wins at 3.
    r = bid_game().add(BidMade(N, 2))
    assert r.t.x["high"] is None and r.t.turn == E
    assert BidMade(E, 3) in r.legal()  # 3 is still open: nobody has really bid
    r.add(Passed(E), BidMade(S, 3), Passed(W))
    assert r.t.phase == "trump" and r.t.maker == S and r.t.x["contract"] == 3
    [fl] = r.t.flags
    assert (fl.kind, fl.position, fl.seat, fl.deal) == ("insufficient-bid", 3, N, 1)
    assert "minimum" in fl.text and "7.2" in fl.text


def test_bid_euchre_everyone_passing_after_a_bid_below_three_throws_in():
    # N's 2 stands as a pass, and the others pass: all passed, the deal is
    # thrown in and passes left from W to N (7.2).
    r = bid_game().add(BidMade(N, 2), Passed(E), Passed(S), Passed(W))
    assert r.t.phase == "thrown_in"
    r.add(DealThrownIn("all passed"))
    assert r.t.scores == [0, 0]
    assert r.legal() == (DealStarted(2, N),)
    _, f = only_finding(r.events)
    assert (f.kind, f.position, f.seat) == ("insufficient-bid", 3, N)


def test_bid_euchre_partner_under_bid_and_lower_special():
    # Partners may overbid each other (7.2) but not underbid: after N's 5,
    # S's 4 is insufficient.  N 5, E pass, S 4 (flagged, a pass), W partner's
    # best (beats 5 on the ladder) -> W wins with partner's best.
    r = bid_game().add(BidMade(N, 5), Passed(E), BidMade(S, 4), BidMade(W, "pb"))
    assert r.t.phase == "trump" and r.t.maker == W and r.t.x["contract"] == "pb"
    assert [(f.kind, f.seat, f.position) for f in r.t.flags] == [("insufficient-bid", S, 5)]
    # The moon, then partner's best: pb does not beat the moon (7.2 ladder).
    r2 = bid_game().add(BidMade(N, "moon"), BidMade(E, "pb"), Passed(S), Passed(W))
    assert r2.t.maker == N and r2.t.x["contract"] == "moon"
    assert [(f.kind, f.seat) for f in r2.t.flags] == [("insufficient-bid", E)]


def test_multi_round_auction_counts_an_insufficient_bid_as_a_pass():
    # auction_rounds="multi": the auction ends after 3 passes in a row follow
    # a bid.  N 4, E 3 (a pass), S pass, W pass -> three passes: N wins at 4.
    r = bid_game(auction_rounds="multi").add(BidMade(N, 4), BidMade(E, 3), Passed(S))
    assert r.t.phase == "auction" and r.t.turn == W
    r.add(Passed(W))
    assert r.t.phase == "trump" and r.t.maker == N


def test_bid_euchre_stuck_dealer_passes_deal_thrown_in_and_flagged():
    # stick_the_dealer: N, E, S pass; W, the dealer, must bid 3 (7.7) but passes.
    r = bid_game(stick_the_dealer=True).add(Passed(N), Passed(E), Passed(S))
    assert Passed(W) not in r.legal()
    r.add(Passed(W))
    # The record shows a pass: it is kept, so everyone passed and the deal is
    # thrown in; the deal passes left to N (7.2); no points.
    assert r.t.phase == "thrown_in"
    r.add(DealThrownIn("all passed"))
    assert r.t.scores == [0, 0]
    assert r.legal() == (DealStarted(2, N),)
    _, f = only_finding(r.events)
    # W's pass is event 6 (N 3, E 4, S 5).
    assert (f.kind, f.position, f.seat, f.deal) == ("stuck-dealer-passed", 6, W, 1)
    assert "7.7" in f.penalty


def test_passing_dealer_not_flagged_without_stick_the_dealer_or_after_a_bid():
    # Without the option the dealer may pass (7.2).
    r = bid_game().add(Passed(N), Passed(E), Passed(S), Passed(W))
    assert r.t.flags == []
    # With it, the dealer is stuck only when nobody bid (7.7).
    r2 = bid_game(stick_the_dealer=True).add(Passed(N), BidMade(E, 3), Passed(S), Passed(W))
    assert r2.t.flags == [] and r2.t.maker == E


def test_bids_that_cannot_exist_stay_impossible():
    r = bid_game().add(BidMade(N, 4))
    for bad in (6, 7, 0, -1, "six", "pass"):  # no plain 6 (7.2); not a bid at all
        with pytest.raises(ImpossibleEvent):
            apply(r.t.copy(), BidMade(E, bad))
    # S bids while E is on turn: out of turn, impossible.
    with pytest.raises(ImpossibleEvent, match="out of turn"):
        apply(r.t.copy(), BidMade(S, 5))
    # In a file, an impossible bid is a RecordError naming file, deal and event.
    events = r.events + [BidMade(E, 6)]
    with pytest.raises(RecordError) as err:
        validate_events("game.json", events)
    e = err.value
    assert e.file == "game.json" and e.deal == 1 and e.event == "5 (BidMade)"   # from 1: GameStarted, DealStarted, CardsDealt, N 4, E 6


# ---------------------------------------------------------------- Ghost Hand

def test_ghost_hand_insufficient_bid_stands_as_a_pass():
    # Dealer P3: P1 bids first (5.2).  P1 4; P2 3 (does not beat 4): a pass.
    r = ghost_game().add(BidMade(P1, 4), BidMade(P2, 3))
    assert r.t.phase == "auction" and r.t.turn == P3
    assert {e.bid for e in r.legal() if isinstance(e, BidMade)} == {5, "moon"}
    r.add(Passed(P3))
    assert r.t.phase == "trump" and r.t.maker == P1 and r.t.x["contract"] == 4
    r.add(TrumpNamed(P1, "H")).play(GHOST_PLAY)
    # 5.4: P1 bid 4 and took 4 -> +4; P2 +2, P3 0 for their own tricks.
    assert r.t.scores == [4, 2, 0]
    game, f = only_finding(r.events)
    assert list(game.final_score) == [4, 2, 0]
    assert (f.kind, f.position, f.seat, f.deal) == ("insufficient-bid", 4, P2, 1)
    assert "5.2" in f.penalty
    assert list(f.score_if_penalized) == [4, 2, 0]


def test_ghost_hand_bid_below_three_after_taking_the_ghost():
    # P1 takes the ghost hand (at its turn, 5.2), then bids 2: below the
    # minimum of 3, a pass; the swap stands (the hand given up is dead).
    r = ghost_game().add(HandSwappedWithGhost(P1), BidMade(P1, 2))
    assert sorted(r.t.hands[P1]) == sorted(GHOST) and r.t.turn == P2
    r.add(BidMade(P2, 3), Passed(P3))
    assert r.t.maker == P2 and r.t.x["contract"] == 3
    # The bid of 2 is event 4 (the swap is event 3).
    assert [(f.kind, f.position, f.seat) for f in r.t.flags] == [("insufficient-bid", 4, P1)]


def test_ghost_hand_stuck_dealer_passes_and_partners_best_is_impossible():
    r = ghost_game(stick_the_dealer=True).add(Passed(P1), Passed(P2), Passed(P3))
    assert r.t.phase == "thrown_in"
    [fl] = r.t.flags
    assert (fl.kind, fl.position, fl.seat) == ("stuck-dealer-passed", 5, P3)
    assert "5.8" in fl.text
    # Ghost Hand has no partner's best (5.2: 3 < 4 < 5 < moon): impossible.
    r2 = ghost_game().add(BidMade(P1, 4))
    with pytest.raises(ImpossibleEvent, match="not a bid"):
        apply(r2.t.copy(), BidMade(P2, "pb"))
