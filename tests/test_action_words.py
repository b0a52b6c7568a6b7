"""The words of an action, each written once (issue 24): the notation's
(events.action_words: the text writer and the analysis's option names) and
show's English (ui/describe.SEAT_ONLY_PHRASES)."""
from euchre_events.events import BidMade, CardPassed, CardPlayed


def test_action_words_are_the_notation_writers_and_the_analysis_option_names():
    """One place writes an action's words (events.action_words, docs/notation.md):
    the text writer puts the seat before them, the analysis names its options with them."""
    from euchre_events.analysis.review import action_text
    from euchre_events.events import (DealStarted, Discarded, JokerSuitNamed, OrderedUp, Passed,
                                      TrumpNamed, action_words)
    cases = [(CardPlayed(0, "JD"), "JD"), (Passed(1), "pass"), (OrderedUp(2, True), "order alone"),
             (OrderedUp(2, False), "order"), (TrumpNamed(3, None, True), "name NT alone"),
             (TrumpNamed(3, "H", False), "name H"), (Discarded(0, "9C"), "discard 9C"),
             (BidMade(1, 4), "bid 4"), (BidMade(1, "pb"), "bid pb"), (BidMade(1, "Big Bid"), 'bid "Big Bid"'),
             (CardPassed(2, 0, "AS"), "give AS"), (JokerSuitNamed(0, "D"), "joker-suit D")]
    for ev, words in cases:
        assert action_words(ev) == words
        assert action_text(ev) == words
    assert action_words(DealStarted(1, 0)) is None and action_text(DealStarted(1, 0)) == "DealStarted"
    assert action_words(BidMade(1, True)) is None   # the writer writes such a bid generically


def test_the_actions_of_a_seat_alone_have_one_phrase_table_with_the_notations_kinds():
    """describe_event's words for a seat-only action come from one table
    (ui/describe.SEAT_ONLY_PHRASES), over the notation's kinds (events.SEAT_ONLY_WORDS)."""
    from euchre_events.events import SEAT_ONLY_WORDS, DummyTaken, Passed, StayedIn, UpCardDeclined
    from euchre_events.ui.describe import SEAT_ONLY_PHRASES, describe_event
    assert set(SEAT_ONLY_PHRASES) == set(SEAT_ONLY_WORDS)
    players = ["Ann", "Bob", "Cy", "Di"]
    assert describe_event(Passed(1), players) == "East (Bob) passes"
    assert describe_event(UpCardDeclined(0), players) == "North (Ann) leaves the up-card"
    assert describe_event(DummyTaken(2), players[:3]) == "P3 (Cy) takes the dummy"
    assert describe_event(StayedIn(3), players) == "West (Di) stays in"
