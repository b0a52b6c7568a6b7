"""Test helpers that build games: a game built event by event and folded as it
goes (:class:`Recorder`), and a game read from the text notation (``one_game``).

Each rule test subclasses :class:`Recorder` with its own set-up (variant,
players, deal) and uses ``add``/``play``/``legal``/``game`` from here."""
from euchre_events.rules.engine import apply, legal_actions, new_table
from euchre_events.events import CardPlayed, GameStarted
from euchre_events.formats.text import parse_text
from euchre_events.projections import Game



def one_game(text: str) -> Game:
    """The one game of a text-notation record (docs/notation.md), folded
    (RecordError if the text holds an impossible event or not one game)."""
    (rec,) = parse_text(text)
    return Game(rec.events)

class Recorder:
    """``Recorder(GameStarted(...))``: ``events`` so far and the working table ``t``."""

    def __init__(self, started: GameStarted):
        self.events = [started]
        self.t = new_table()
        apply(self.t, started)

    def add(self, *evs):
        """Fold and keep each event (raises ImpossibleEvent like the engine)."""
        for ev in evs:
            apply(self.t, ev)
            self.events.append(ev)
        return self

    def play(self, *texts):
        """Play cards in order (codes, or strings of codes separated by spaces),
        each by the seat the engine has on turn."""
        for text in texts:
            for c in text.split():
                self.add(CardPlayed(self.t.turn, c))
        return self

    def legal_actions(self):
        """``(events, reason)`` for the seat on turn."""
        return legal_actions(self.t)

    def game(self):
        """The events so far as a validated Game."""
        return Game(self.events)
