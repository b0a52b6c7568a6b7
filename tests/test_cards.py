"""Cards, effective suit, card order and trick winners (rules.md 1.1-1.3;
docs/cases.md C1, C2, C9, C11).  Every expected value below is worked out by hand
from rules.md / docs/cases.md."""
import pytest

from euchre_events.rules import cards as C
from euchre_events.rules.cards import (CardError, cards_of_suit, deck, effective_suit, parse_card,
                                 parse_suit, strength, trick_winner_index)


# ------------------------------------------------------------------ parsing

@pytest.mark.parametrize("text, code", [
    ("JD", "JD"), ("jd", "JD"), ("Jd", "JD"), ("jD", "JD"),
    ("TD", "TD"), ("10D", "TD"), ("10d", "TD"), ("td", "TD"),
    ("9h", "9H"), ("Ts", "TS"), ("Ac", "AC"), ("Qh", "QH"), ("Kd", "KD"),  # EGN rank + lowercase suit
    ("J\u2666", "JD"), ("10\u2665", "TH"), ("A\u2660", "AS"), ("9\u2663", "9C"),
    ("Q\u2661", "QH"), ("K\u2664", "KS"),            # white (outline) suit symbols
    (" JD ", "JD"),
    ("JK", "JK"), ("jk", "JK"), ("joker", "JK"), ("Joker", "JK"), ("B", "JK"),
    ("JS#2", "JS#2"), ("js#1", "JS#1"), ("10H#2", "TH#2"), ("JS#02", "JS#2"),
    ("??", "??"),
])
def test_parse_card_spellings(text, code):
    assert parse_card(text) == code
    assert C.Card(text) == code


@pytest.mark.parametrize("text", [
    "", "J", "D", "1D", "11D", "8H", "JX", "ZZ", "JDD", "J?", "JS#", "JS#a", "#2",
    "A\u2605",
])
def test_parse_card_rejects_bad_codes(text):
    with pytest.raises(CardError) as e:
        parse_card(text)
    assert repr(text) in str(e.value)          # the message names the text
    assert isinstance(e.value, ValueError)


def test_parse_card_rejects_non_strings():
    with pytest.raises(CardError):
        parse_card(None)
    with pytest.raises(CardError):
        parse_card(10)


@pytest.mark.parametrize("text, suit", [
    ("C", "C"), ("d", "D"), ("\u2665", "H"), ("spades", "S"), ("Heart", "H"), ("clubs", "C"),
])
def test_parse_suit(text, suit):
    assert parse_suit(text) == suit


def test_parse_suit_rejects():
    with pytest.raises(CardError):
        parse_suit("X")


def test_card_properties():
    assert C.Card("10d").rank == "T" and C.Card("10d").suit == "D"
    assert C.Card("JK").rank is None and C.Card("JK").suit is None
    assert C.card_name("JD") == "jack of diamonds"
    assert C.pretty("TH") == "10\u2665"
    assert C.base("JS#2") == "JS"


# ------------------------------------------------------------------ decks

def test_decks():
    d = deck()
    assert len(d) == 24 and len(set(d)) == 24          # rules.md 1.1: 9..A in four suits
    assert set(d) == {r + s for r in "9TJQKA" for s in "CDHS"}
    assert len(deck(joker=True)) == 25 and "JK" in deck(joker=True)      # 7.8
    dd = deck(double=True)
    assert len(dd) == 48 and len(set(dd)) == 48 and {"JS#1", "JS#2"} <= set(dd)  # 7.10
    ja = deck(double=True, low_rank="J")                 # C11: J-to-A double deck
    assert len(ja) == 32 and not any(c.startswith(("9", "T")) for c in ja)


# ------------------------------------------------------------------ effective suit

@pytest.mark.parametrize("card, trump, suit", [
    ("JD", "H", "H"),   # left bower is a heart (C1)
    ("JH", "D", "D"),
    ("JC", "S", "S"),   # C2: JC is trump when spades are trump
    ("JS", "C", "C"),
    ("JH", "H", "H"),   # right bower
    ("JD", "S", "D"),   # a jack of the other colour keeps its suit
    ("JC", "H", "C"),
    ("AD", "H", "D"),
    ("9H", "H", "H"),
    ("JC", None, "C"),  # no-trump: no bowers (C9)
    ("JS", None, "S"),
    ("JD#2", "H", "H"),  # double-deck copies behave like the card
    ("JK", "H", "H"),   # the joker belongs to trump (7.8)
])
def test_effective_suit(card, trump, suit):
    assert effective_suit(card, trump) == suit


def test_joker_at_no_trump_has_no_suit():
    assert effective_suit("JK", None) is None


def test_is_trump_and_bowers():
    assert C.right_bower("H") == "JH" and C.left_bower("H") == "JD"
    assert C.right_bower("C") == "JC" and C.left_bower("C") == "JS"
    assert C.is_trump("JD", "H") and not C.is_trump("JD", "S") and not C.is_trump("JC", None)


def test_cards_of_suit_c1_hand():
    east = ["JD", "9C", "KS", "QS", "TC"]                 # C1: trump hearts
    assert cards_of_suit(east, "D", "H") == []            # void in diamonds
    assert cards_of_suit(east, "H", "H") == ["JD"]        # his only trump
    assert cards_of_suit(east, "C", "H") == ["9C", "TC"]
    assert cards_of_suit(east, "D", None) == ["JD"]       # no trump: JD is a diamond


# ------------------------------------------------------------------ card order

def _order(cards, trump, low=False):
    return sorted(cards, key=lambda c: strength(c, trump, low), reverse=True)


@pytest.mark.parametrize("trump, expected", [
    ("H", ["JH", "JD", "AH", "KH", "QH", "TH", "9H"]),
    ("D", ["JD", "JH", "AD", "KD", "QD", "TD", "9D"]),
    ("S", ["JS", "JC", "AS", "KS", "QS", "TS", "9S"]),
    ("C", ["JC", "JS", "AC", "KC", "QC", "TC", "9C"]),
])
def test_trump_order(trump, expected):
    """rules.md 1.1: right bower > left bower > A > K > Q > 10 > 9."""
    trumps = [c for c in deck() if effective_suit(c, trump) == trump]
    assert _order(trumps, trump) == expected


def test_joker_above_right_bower():
    assert strength("JK", "S") > strength("JS", "S") > strength("JC", "S")


def test_plain_suit_order():
    # a plain suit of the other colour keeps its jack: A K Q J 10 9
    clubs = [c for c in deck() if effective_suit(c, "H") == "C"]
    assert _order(clubs, "H") == ["AC", "KC", "QC", "JC", "TC", "9C"]
    # the plain suit of trump's colour has no jack: A K Q 10 9
    diamonds = [c for c in deck() if effective_suit(c, "H") == "D"]
    assert _order(diamonds, "H") == ["AD", "KD", "QD", "TD", "9D"]


def test_no_trump_order_and_low_no_trump():
    spades = ["9S", "TS", "JS", "QS", "KS", "AS"]
    assert _order(spades, None) == ["AS", "KS", "QS", "JS", "TS", "9S"]      # 1.1 no trump
    assert _order(spades, None, low=True) == ["9S", "TS", "JS", "QS", "KS", "AS"]  # low no-trump


def test_every_trump_beats_every_plain_card():
    for trump in "CDHS":
        trumps = [c for c in deck() if C.is_trump(c, trump)]
        plain = [c for c in deck() if not C.is_trump(c, trump)]
        assert min(strength(c, trump) for c in trumps) > max(strength(c, trump) for c in plain)


# ------------------------------------------------------------------ trick winner

def test_c2_left_bower_wins_over_led_ace():
    # C2: trump spades; N AH, E 9H, S KH, W (void in hearts) JC -> West (index 3)
    assert trick_winner_index(["AH", "9H", "KH", "JC"], "S") == 3


@pytest.mark.parametrize("cards, trump, winner", [
    (["9C", "AD", "TC", "KD"], "S", 2),    # no trump in it: highest of the led suit; off-suit ace loses
    (["KC", "9H", "AC", "9C"], "H", 1),    # C3 trick 1: E's 9H trumps
    (["AD", "QH", "TH", "QD"], "H", 1),    # C3 trick 2: S's QH beats W's TH
    (["KS", "KH", "AS", "JS"], "H", 1),    # C3 trick 3: W's KH; JS is a plain spade
    (["JD", "AH", "KH", "AD"], "H", 0),    # the led left bower beats the ace of trump
    (["AH", "JD", "JH", "9H"], "H", 2),    # right bower beats left bower
    (["AD", "9D", "JD", "KD"], "H", 2),    # JD is trump when hearts are trump: it ruffs the AD
    (["AD", "9D", "JD", "KD"], "S", 0),    # but with spades trump JD is a plain diamond
    (["TH", "JK", "JH", "AH"], "H", 1),    # joker is the top trump (7.8)
])
def test_trick_winner(cards, trump, winner):
    assert trick_winner_index(cards, trump) == winner


def test_c9_no_trump_has_no_bowers():
    # C9: no-trump; P1 QS, P2 JC (a plain club), P3 KS, P4 JS (below QS) -> P3 wins
    assert trick_winner_index(["QS", "JC", "KS", "JS"], None) == 2


def test_low_no_trump_trick():
    assert trick_winner_index(["QS", "9S", "AS", "9C"], None, low=True) == 1


def test_c11_first_twin_wins():
    # C11: J-to-A double deck, trump spades; N JS, E JS, S AS, W JC -> N wins
    trick = ["JS#1", "JS#2", "AS#1", "JC#1"]
    assert set(trick) <= set(deck(double=True, low_rank="J"))
    assert trick_winner_index(trick, "S") == 0
    # British six-handed rule (rules.md 1.3 toggle): the later twin wins
    assert trick_winner_index(trick, "S", first_twin_wins=False) == 1
    # the copy index does not matter, only the order of play
    assert trick_winner_index(["JS#2", "JS#1", "AS#1", "JC#1"], "S") == 0
