"""The tutorial's "why this card wins" reads the rules' one trick ranking
(rules.cards.rank_trick, rules.md 1.1-1.3, 7.8, 7.10)."""
import pytest

from euchre_events.rules.cards import trick_winner_index
from euchre_events.ui.tutorial import trick_words


def test_left_bower_beats_the_ace_of_trump():
    # hearts trump: JD is the left bower, second only to JH (rules.md 1.1)
    cards = ["AC", "AH", "JD", "KC"]
    w = trick_winner_index(cards, "H")
    assert w == 2
    words = trick_words(cards, "H", None, w)
    assert "trumps played, highest first: J\u2666, A\u2665" in words
    assert "left bower" in words and words.endswith("J\u2666 wins.")
    assert "A\u2663, K\u2663 cannot win" in words


def test_led_suit_wins_without_trump_and_off_suit_cannot():
    cards = ["9S", "KS", "AD", "QS"]
    words = trick_words(cards, "C", None)
    assert "No trump was played, so the highest spade wins" in words
    assert "A\u2666 cannot win" in words and words.endswith("K\u2660 wins.")


def test_identical_twins_first_played_wins_by_default():
    # double deck (rules.md 7.10): the first of two identical cards wins
    cards = ["AS#1", "AS#2", "9S#1", "KS#1"]
    words = trick_words(cards, "C", None)
    assert "identical twin" in words and "the one played first wins" in words
    assert trick_winner_index(cards, "C", first_twin_wins=False) == 1
    assert "the one played later wins" in trick_words(cards, "C", None, 1, first_twin_wins=False)


def test_a_winner_the_rules_do_not_give_is_refused():
    with pytest.raises(ValueError, match="rank card 2 first"):
        trick_words(["AC", "AH", "JD", "KC"], "H", None, 1)
