"""Unknown stays unknown, never guessed (docs/design.md "Three kinds of
wrong"): EGN's unknown rank ``X`` and its unknown or generic suits
(``x``, ``t``, ``n``, ``g``) are read as ``??``, never as a real card.
Reading ``Xd`` as the ten of diamonds invented a card that could win a
trick and flip a deal's score."""
import json

import pytest

from conftest import ROOT
from builders import one_game
from euchre_events.formats import read_records_partial
from euchre_events.formats.egn import write_egn
from euchre_events.projections.game import Game
from euchre_events.rules.cards import UNKNOWN, CardError, card_name, parse_card, possible_suits


@pytest.mark.parametrize("text", ["Jx", "Kt", "An", "9g", "Xx"])
def test_unknown_suit_reads_as_unknown(text):
    assert parse_card(text) == UNKNOWN


@pytest.mark.parametrize("text", ["Xd", "XD", "X\u2666"])
def test_unknown_rank_of_a_known_suit_keeps_the_suit_only(text):
    # "a diamond, rank unknown": the suit is a fact of the record, the rank is not guessed
    assert parse_card(text) == "?D"
    assert card_name("?D") == "a diamond of unknown rank"
    assert possible_suits("?D", "C") == {"D"}
    assert possible_suits("?D", "H") == {"D", "H"}   # it may be the left bower


@pytest.mark.parametrize("text,card", [("Td", "TD"), ("10d", "TD"), ("Nd", "9D"), ("Jc", "JC")])
def test_known_cards_still_read(text, card):
    assert parse_card(text) == card


@pytest.mark.parametrize("text", ["XQ", "Zx", "1x"])
def test_not_a_card_still_refused(text):
    with pytest.raises(CardError, match="not a card"):
        parse_card(text)


def _vwec(tmp_path, changes):
    """The VWEC final with EGN trick cards replaced: ``{(deal, trick, card): text}``
    (EGN indices from 0); returns (records, errors) of reading it."""
    d = json.loads((ROOT / "fixtures" / "egn" / "VWEC Finals.egn").read_text())
    for (deal, trick, k), text in changes.items():
        d["deals"][deal]["phases"][1]["tricks"][trick][k] = text
    path = tmp_path / "unknown.egn"
    path.write_text(json.dumps(d))
    return read_records_partial(str(path))


def test_an_egn_play_of_unknown_rank_is_never_a_ten(tmp_path):
    # VWEC final, deal 1: North leads Ad; the record is changed to say only
    # "a diamond" (Xd).  Read as TD, the ten would have been invented.  Clubs
    # are trump and the 9c ruffs the trick, so whatever diamond it was, the
    # winner is decided: the game reads, the card stays "a diamond", and the
    # scores are those of the record with its Ad.
    plain, _ = _vwec(tmp_path, {})
    records, errors = _vwec(tmp_path, {(0, 0, 0): "Xd"})
    assert errors == []
    played = [e.card for e in records[0].events if e.kind == "CardPlayed"]
    assert played[0] == "?D" and "TD" not in played[:4]
    g, g0 = Game(records[0].events), Game(plain[0].events)
    assert g.final_score == g0.final_score == [8, 10]
    assert g.official_score == g0.official_score
    # the export writes back what the record says, not an invented card
    assert write_egn(records[0].events)["deals"][0]["phases"][1]["tricks"][0][0] == "Xd"


def test_undecidable_trick_winner_is_refused_by_name(tmp_path):
    # deal 12, trick 2: As Qs Ts Ac with clubs trump.  With Ts changed to Xs
    # (and the Js of trick 1 too) the spade could be the jack, the left bower,
    # which beats the Ac: who won cannot be decided, so the deal is refused
    # by name rather than scored on a guess.
    records, errors = _vwec(tmp_path, {(11, 0, 0): "Xs", (11, 1, 2): "Xs"})
    assert len(errors) == 1
    msg = str(errors[0])
    assert "deal 12" in msg and "who wins trick 2 cannot be decided" in msg
    assert "spade of unknown rank" in msg


def test_the_engine_deduces_an_unknown_rank_from_the_known_hands(tmp_path):
    # deal 12, trick 1 is led with Js; written Xs, every other spade is known
    # in some hand, so it can only be the jack (a trump): nothing is flagged.
    records, errors = _vwec(tmp_path, {(11, 0, 0): "Xs"})
    assert errors == []
    assert [f.kind for f in Game(records[0].events).audit()] == []


def test_follow_suit_that_depends_on_an_unknown_rank_could_not_decide(tmp_path):
    # deal 12 with its Js lead (trick 1) and 9s lead (trick 5) both written Xs:
    # the lead of trick 1 is the jack (a trump) or the nine (a spade).  Seat 3
    # played the 9h holding the Ts: a renege if a spade was led, not if the
    # jack was.  The audit says it could not decide; no penalty is invented.
    records, errors = _vwec(tmp_path, {(11, 0, 0): "Xs", (11, 4, 0): "Xs"})
    assert errors == []
    g = Game(records[0].events)
    found = [f for f in g.audit() if f.kind == "could-not-decide"]
    assert [(f.deal, f.seat) for f in found] == [(12, 3), (12, 1)]
    assert "ten of spades" in found[0].penalty and "nine of hearts" in found[0].penalty
    assert not [f for f in g.audit() if f.kind == "renege"]
    assert g.official_score == g.final_score == [8, 10]


# ---------------------------------------------------------------- cards the record does not state (from the rules audit, test_rulecheck)


def test_must_hold_named_suit_with_unknown_hands():
    # Case C5's option must_hold_named_suit (a round-2 caller must hold the
    # suit named).  A hand the record does not state ("??") may hold any
    # suit: every suit but the turned-down one is offered, and the call is
    # not flagged named-suit-not-held (before the fix: only a pass was
    # offered, and the call was flagged, accusing an unknown hand).
    # Known hands keep the rule: E (9C TC JC QC KC) may name clubs only.
    from euchre_events.events import TrumpNamed
    head = """[Variant "standard"]
[Dealer "W"]
[Option.must_hold_named_suit "true"]
Deal 1 dealer W
N: ?? ?? ?? ?? ??
E: 9C TC JC QC KC
S: ?? ?? ?? ?? ??
W: ?? ?? ?? ?? ??
Up: 9S
N pass  E pass  S pass  W pass
"""
    g = one_game(head)
    s = g.state_at(len(g.events))
    assert s.turn == 0 and {e.suit for e in s.legal if isinstance(e, TrumpNamed)} == {"C", "D", "H"}
    g = one_game(head + "N name H\n")
    assert g.final.trump == "H" and not [f for f in g.final.flags if f.kind == "named-suit-not-held"]
    g = one_game(head + "N pass\n")
    s = g.state_at(len(g.events))
    assert {e.suit for e in s.legal if isinstance(e, TrumpNamed)} == {"C"}
    g = one_game(head + "N pass  E name H\n")
    assert [f.seat for f in g.final.flags if f.kind == "named-suit-not-held"] == [1]


def test_legal_reason_does_not_call_an_unknown_hand_void():
    # rules.md 1.3: a seat holding none of the led suit may play any card.
    # With cards the record does not state, the seat is not known to be
    # void: the reason says so instead of "void in clubs" (the legal list,
    # the known cards, is unchanged).
    text = """[Variant "standard"]
[Dealer "W"]
Deal 1 dealer W
N: 9C KC QC JC TC
E: AH KH QH ?? ??
S: ?? ?? ?? ?? ??
W: ?? ?? ?? ?? ??
Up: 9S
N order  W pickup  W discard ??
N 9C
"""
    g = one_game(text)
    s = g.state_at(len(g.events))
    assert s.turn == 1 and {e.card for e in s.legal} == {"AH", "KH", "QH"}
    assert "void" not in s.legal_reason and "may include clubs" in s.legal_reason
