"""Double-deck Bid Euchre has no plain 12 (rules.md 7.10, section 8 item 16).

As a plain 6 is not a bid in single deck (7.2), 12 tricks are bid in the
double deck only as partner's best or the moon.  Legal play never offers a
plain 12; a record that holds one keeps it (docs/design.md "Three kinds of
wrong": illegal but real): it is flagged ``plain-all-tricks-bid`` and stands
as a bid of 12, ranked above 11 and below partner's best, so the record goes
on from it.  Releases before 8.16 was settled offered the plain 12, so games
recorded then still load.

Seats 0..3 = N, E, S, W (side 0 = N/S).  Event positions: 0 GameStarted,
1 DealStarted, 2 CardsDealt, then the auction from 3.  Every expected value is
worked out by hand; comments give the reasoning.
"""
import json

import pytest

from conftest import RUNNER
from builders import Recorder
from euchre_events.cli import app
from euchre_events.events import (BidMade, CardPlayed, CardsDealt, DealStarted, GameStarted,
                                  Passed, TrumpNamed)
from euchre_events.formats import read_records
from euchre_events.rules.engine import ImpossibleEvent, apply
from euchre_events.rules.registry import make_variant

N, E, S, W = 0, 1, 2, 3
DD = {"double_deck": True}


def two(*ranks_suits):
    """Both copies of each card: two("AS", "KS") -> AS#1 AS#2 KS#1 KS#2."""
    return tuple(f"{c}#{i}" for c in ranks_suits for i in (1, 2))


# A 48-card deal, dealer W (so N bids first, 7.2).
# N: the twelve top hearts (both right bowers, both left bowers, A K Q T of
#    hearts twice); E: the two 9H and ten spades; S: the two 9S and ten
#    clubs; W: the two 9C and the ten diamonds left (the JD are N's).
N_HAND = two("JH", "JD", "AH", "KH", "QH", "TH")
E_HAND = two("9H", "AS", "KS", "QS", "JS", "TS")
S_HAND = two("9S", "AC", "KC", "QC", "JC", "TC")
W_HAND = two("9C", "AD", "KD", "QD", "TD", "9D")
HANDS = (N_HAND, E_HAND, S_HAND, W_HAND)
# At hearts N leads a heart every trick and nobody can beat it: E follows
# with 9H#1 and 9H#2 in tricks 1 and 2 (and then has none), S and W hold no
# heart.  N takes all 12 tricks.
N_LEADS = N_HAND


class Hand(Recorder):
    def __init__(self, hands=HANDS, **options):
        super().__init__(GameStarted("bid", {**DD, **options}, ("N", "E", "S", "W"), first_dealer=W))
        self.add(DealStarted(1, W), CardsDealt(hands))

    def legal(self):
        return self.legal_actions()[0]

    def bids_offered(self):
        return [e.bid for e in self.legal() if isinstance(e, BidMade)]

    def play_out(self):
        for k in range(12):
            self.add(CardPlayed(N, N_LEADS[k]), CardPlayed(E, E_HAND[k]),
                     CardPlayed(S, S_HAND[k]), CardPlayed(W, W_HAND[k]))
        return self


def test_the_ladder_has_no_plain_12():
    v = make_variant("bid", DD)
    assert v.bid_ladder() == (3, 4, 5, 6, 7, 8, 9, 10, 11, "pb", "moon")
    # the J-to-A double deck (case C11) deals 8 tricks: no plain 8 there
    assert make_variant("bid", {**DD, "deck_low_rank": "J"}).bid_ladder() == (3, 4, 5, 6, 7, "pb", "moon")
    # single deck unchanged (7.2): no plain 6 either
    assert make_variant("bid", {}).bid_ladder() == (3, 4, 5, "pb", "moon")


def test_legal_actions_never_offer_a_plain_12():
    h = Hand()
    assert h.t.turn == N
    assert h.bids_offered() == [3, 4, 5, 6, 7, 8, 9, 10, 11, "pb", "moon"]
    assert Passed(N) in h.legal()
    h.add(BidMade(N, 10))
    # over 10: 11, partner's best, moon; 12 is no bid
    assert h.bids_offered() == [11, "pb", "moon"]
    h.add(BidMade(E, 11))
    events, reason = h.legal_actions()
    assert [e.bid for e in events if isinstance(e, BidMade)] == ["pb", "moon"]
    assert reason == "beat 11 or pass"


def test_a_recorded_plain_12_is_kept_flagged_and_stands():
    h = Hand().add(BidMade(N, 12))
    [fl] = h.t.flags
    assert (fl.kind, fl.position, fl.seat, fl.deal) == ("plain-all-tricks-bid", 3, N, 1)
    assert "rules.md 7.10, 8.16" in fl.text and "partner's best or the moon" in fl.text
    # the words also go to the deal's contract state, as every auction irregularity's do
    assert h.t.contract.irregular == (fl.text,) and fl.text.startswith("seat 0: a plain bid of 12")
    # it is the high bid: E may only pass, or beat it with partner's best or the moon
    assert h.t.auction.high == 12 and h.t.auction.high_seat == N
    events, reason = h.legal_actions()
    assert set(events) == {Passed(E), BidMade(E, "pb"), BidMade(E, "moon")}
    assert reason == "beat 12 or pass"
    # E, S, W pass: N won the auction with the 12 as recorded and names trump
    h.add(Passed(E), Passed(S), Passed(W))
    assert h.t.phase == "trump" and h.t.turn == N and h.t.maker == N and h.t.contract.bid == 12
    h.add(TrumpNamed(N, "H"))
    # a plain bid: N plays with S (no one sits out, unlike partner's best or the moon)
    assert h.t.alone is None and h.t.out == frozenset()
    h.play_out()
    # 7.5: a bid made scores the bidding team's tricks: N/S 12; E/W took none: 0.
    # (The moon would have been 48, partner's best 24: the plain 12 gains nothing.)
    assert h.t.tricks_won == [12, 0, 0, 0] and h.t.reneges == []
    assert h.t.deal_results[0][1] == (12, 0) and h.t.scores == [12, 0]
    # the audit reports it once, with no score penalty
    game = h.game()
    [f] = [f for f in game.audit() if f.kind == "plain-all-tricks-bid"]
    assert (f.deal, f.seat, f.position) == (1, N, 3)
    assert "7.10" in f.penalty and f.score_if_penalized == (12, 0)
    assert len(game.audit()) == 1


def test_a_plain_12_that_fails_loses_12():
    # The same deal; N bids a plain 12 and names spades, though N holds none.
    h = Hand().add(BidMade(N, 12), Passed(E), Passed(S), Passed(W), TrumpNamed(N, "S"))
    # At spades the trumps are JS (right bower), JC (left bower, a spade now),
    # A K Q T 9 of spades: E holds the two JS and eight spades, S the two JC
    # and the two 9S.  Every trick, in play order:
    clubs = two("AC", "KC", "QC", "TC")      # S's clubs that are clubs at spades
    diamonds, hearts = W_HAND[2:], N_HAND[2:]
    seq = [
        # T1 N leads JH#1, a plain heart at spades; E must follow hearts:
        #    9H#1; S (no heart) trumps 9S#1; W 9C#1 -> S.
        (N, "JH#1"), (E, "9H#1"), (S, "9S#1"), (W, "9C#1"),
        # T2 S leads 9S#2 (trump); W (no spade) 9C#2; N JH#2; E JS#1 -> E.
        (S, "9S#2"), (W, "9C#2"), (N, "JH#2"), (E, "JS#1"),
        # T3 E leads JS#2; S must follow trump with a left bower, JC#1; -> E
        #    (the right bower beats the left).
        (E, "JS#2"), (S, "JC#1"), (W, diamonds[0]), (N, hearts[0]),
        # T4 E leads AS#1; S follows JC#2, the left bower, which beats it -> S.
        (E, "AS#1"), (S, "JC#2"), (W, diamonds[1]), (N, hearts[1]),
        # T5 S leads AC#1; W and N hold no club; E (no club) trumps TS#1 -> E.
        (S, "AC#1"), (W, diamonds[2]), (N, hearts[2]), (E, "TS#1"),
    ]
    # T6-T11 E leads his six spades left; nobody else holds a trump or a
    #    spade: S throws clubs, W diamonds, N hearts -> E six times.
    for k, card in enumerate(("AS#2", "KS#1", "KS#2", "QS#1", "QS#2", "TS#2")):
        seq += [(E, card), (S, clubs[k + 1]), (W, diamonds[k + 3]), (N, hearts[k + 3])]
    # T12 E leads 9H#2; S and W hold no heart; N's last heart TH#2 beats it -> N.
    seq += [(E, "9H#2"), (S, clubs[7]), (W, diamonds[9]), (N, hearts[9])]
    for seat, card in seq:
        h.add(CardPlayed(seat, card))
    # N 1 trick (T12), S 2 (T1, T4), E 9; W none.  N/S 3, E/W 9.
    assert h.t.tricks_won == [1, 9, 2, 0] and h.t.reneges == []
    # 7.5: set, the bidders lose the bid: N/S -12; E/W score their own tricks: +9
    assert h.t.deal_results[0][1] == (-12, 9) and h.t.scores == [-12, 9]
    assert [f.kind for f in h.t.flags] == ["plain-all-tricks-bid"]


def test_partners_best_and_the_moon_beat_a_plain_12():
    h = Hand().add(BidMade(N, 12), BidMade(E, "moon"))
    assert [f.kind for f in h.t.flags] == ["plain-all-tricks-bid"]   # only N's call
    assert h.t.auction.high == "moon" and h.t.auction.high_seat == E
    h2 = Hand().add(BidMade(N, 12), BidMade(E, "pb"))
    assert h2.t.auction.high == "pb" and len(h2.t.flags) == 1


def test_a_plain_12_that_does_not_beat_the_high_bid_is_an_insufficient_bid():
    # Over partner's best a 12 is too low: insufficient, it stands as a pass
    # (the auction's convention, tests/test_irregular_bids.py); one flag only.
    h = Hand().add(BidMade(N, "pb"), BidMade(E, 12))
    [fl] = h.t.flags
    assert fl.kind == "insufficient-bid" and fl.seat == E
    assert "does not beat the high bid of partner's best" in fl.text
    assert h.t.auction.high == "pb" and h.t.auction.bids[-1] == (E, "pass")
    # Two plain 12s: the second does not beat the first.
    h2 = Hand().add(BidMade(N, 12), BidMade(E, 12))
    assert [f.kind for f in h2.t.flags] == ["plain-all-tricks-bid", "insufficient-bid"]
    assert h2.t.auction.high_seat == N


def test_plain_8_in_the_j_to_a_double_deck_is_flagged_the_same_way():
    # case C11's deck: J Q K A twice in four suits, 32 cards, 8 each, 8 tricks
    v = make_variant("bid", {**DD, "deck_low_rank": "J"})
    d = v.deck()
    hands = tuple(tuple(d[i::4]) for i in range(4))
    h = Hand(hands=hands, deck_low_rank="J").add(BidMade(N, 8))
    [fl] = h.t.flags
    assert fl.kind == "plain-all-tricks-bid" and "a plain bid of 8" in fl.text
    assert h.t.auction.high == 8
    # 9 and more are no bid at all (there are only 8 tricks): impossible
    with pytest.raises(ImpossibleEvent, match="not a bid of this game"):
        apply(Hand(hands=hands, deck_low_rank="J").t, BidMade(N, 9))


def test_single_deck_plain_6_stays_impossible():
    # 7.2: a plain 6 was never offered by any release, so it stays impossible
    # (tests/test_bid.py, tests/test_irregular_bids.py); only the double deck's
    # plain 12, once offered, is kept.
    r = Recorder(GameStarted("bid", {}, ("N", "E", "S", "W"), first_dealer=W))
    d = make_variant("bid").deck()
    r.add(DealStarted(1, W), CardsDealt(tuple(tuple(d[i::4]) for i in range(4))))
    with pytest.raises(ImpossibleEvent, match="not a bid of this game"):
        apply(r.t.copy(), BidMade(N, 6))
    with pytest.raises(ImpossibleEvent):
        apply(Hand().t, BidMade(N, 13))   # 13 of 12 tricks: no such bid


def _record_text():
    def line(seat, cards):
        return f"{seat}: " + " ".join(cards)
    tricks = [f"T{k + 1}: N {N_LEADS[k]}  E {E_HAND[k]}  S {S_HAND[k]}  W {W_HAND[k]}" for k in range(12)]
    return "\n".join([
        '[Variant "bid"]', '[Option.double_deck "true"]', '[Title "A plain 12"]',
        '[North "Ann"]', '[East "Bob"]', '[South "Cy"]', '[West "Di"]', '[Dealer "W"]', "",
        "Deal 1 dealer W", line("N", N_HAND), line("E", E_HAND), line("S", S_HAND), line("W", W_HAND),
        "N bid 12  E pass  S pass  W pass  N name H", *tricks, ""])


def test_a_record_file_with_a_plain_12_reads_and_audits(tmp_path):
    path = tmp_path / "plain-12.euchre"
    path.write_text(_record_text())
    [rec] = read_records(str(path))
    assert BidMade(N, 12) in rec.events
    res = RUNNER.invoke(app, ["audit", "--json", str(path)], catch_exceptions=False)
    assert res.exit_code == 0, res.stderr
    [g] = json.loads(res.stdout)["games"]
    assert g["final_score"] == [12, 0]
    [f] = g["findings"]
    assert (f["kind"], f["deal"], f["seat"]) == ("plain-all-tricks-bid", 1, N)
    assert "rules.md 7.10, 8.16" in f["penalty"]
