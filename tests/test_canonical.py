"""The fast canonical text of events is exactly the JSON text the content
id hashed before (so every stored game keeps its id)."""
import json

from hypothesis import given, settings, strategies as st

from euchre_events import events as ev
from euchre_events.archive.canonical import event_text
from euchre_events.rules.registry import VARIANT_CLASSES
from euchre_events.rules.simulate import random_game


def slow(e):
    return json.dumps(e.to_dict(), sort_keys=True, separators=(",", ":"), default=str)


def test_every_kind_and_awkward_values():
    samples = [
        ev.DealStarted(1, 3), ev.CardsDealt((("AS", "??"), ("KD",)), None, ("JK",), ("9S",), ("TS", "QS")),
        ev.Passed(0), ev.OrderedUp(1, True), ev.TrumpNamed(2, None, False), ev.BidMade(1, "moon"),
        ev.BidMade(2, 4), ev.CardPassed(0, 2, "AS#2"), ev.DealThrownIn("ace-no-face \u2660 \"q\"\n", 1),
        ev.CardPlayed(0, "JK"), ev.PlayCorrected(1, "9H", "TC"), ev.RenegeClaimed(0, 1, 1, 1),
        ev.RenegeRuled(1, 1, 1, "upheld", (2, 0), "Zo\u00eb \\ the director", "\x1b[2J"),
        ev.GameStarted("bid", {"joker": True, "x": [1, 2.5]}, ("A", "\u00c9", "C", "D"), 3, (0, 0), "t", {"f": 1}),
    ]
    for e in samples:
        assert event_text(e) == slow(e), e


def test_random_games_of_every_variant():
    for cls in VARIANT_CLASSES:
        for e in random_game(cls.name, seed=5, renege_rate=0.1):
            assert event_text(e) == slow(e)


@settings(max_examples=200, deadline=None)
@given(st.text(), st.integers(-10**40, 10**40))
def test_any_text_and_number(text, n):
    for e in (ev.DealThrownIn(text, n), ev.RenegeRuled(n, n, n, text, None, text, text)):
        assert event_text(e) == slow(e)
