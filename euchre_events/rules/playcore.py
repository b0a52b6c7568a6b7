"""The bit-mask trick-play core (rules.md 1.1-1.3), shared by the replay
fast core (:mod:`euchre_events.rules.fastcore`) and the face-up solver
(:mod:`euchre_events.analysis.solver`): trick play written once.

A set of cards is an ``int``: bit ``i`` is card ``codes[i]``.  For a trump
suit (or None, no-trump) a :class:`PlayTables` gives each card's effective
suit, the mask of each effective suit (following suit is one AND), the
trick key of each card per led suit, and the cards of each effective suit
from the highest down (equal cards: touching in that order once the cards
between them are gone).  Everything is read from
:func:`euchre_events.rules.cards.suit_and_power` and
:func:`euchre_events.rules.cards.trick_keys`: no rank rule is written
here.  Pure: no I/O.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Optional, Sequence

from euchre_events.rules import cards as C

__all__ = ["PlayTables", "play_tables", "legal_mask", "winner_of", "bits"]


class PlayTables:
    """Per (cards, trump, low) tables for bit-mask trick play.

    * ``codes``: the card codes, bit ``i`` is ``codes[i]``;
    * ``bit``: ``{code: 1 << i}``;
    * ``eff``: effective suit letter of each card (rules.md 1.2);
    * ``suit_mask``: ``{effective suit: mask}``;
    * ``keys``: ``{led suit: tuple of trick keys per card}`` (rules.md 1.3:
      the highest key wins; :func:`euchre_events.rules.cards.trick_keys`);
    * ``runs``: per effective suit, the card bits from the strongest down
      (power under trump, ``low`` reversing plain suits), one per suit of
      ``suits`` (the effective suits present, in ``str`` order).
    """

    __slots__ = ("codes", "bit", "eff", "suit_mask", "keys", "runs", "power", "suits")

    def __init__(self, codes: Sequence[str], trump: Optional[str], low: bool = False):
        eff_of, power = C.suit_and_power(trump, low)
        self.codes = tuple(codes)
        self.bit = {c: 1 << i for i, c in enumerate(self.codes)}
        self.eff = tuple(eff_of[c] for c in self.codes)
        self.power = tuple(power[c] for c in self.codes)
        masks: dict = {}
        for i, s in enumerate(self.eff):
            masks[s] = masks.get(s, 0) | 1 << i
        self.suit_mask = masks
        self.keys = {led: tuple(C.trick_keys(trump, led, low)[c] for c in self.codes) for led in masks}
        self.suits = tuple(sorted(masks, key=str))
        self.runs = tuple(tuple(1 << i for i in sorted((i for i, e in enumerate(self.eff) if e == s),
                                                        key=lambda i: -self.power[i]))
                          for s in self.suits)

    def flat(self) -> tuple:
        """The tables as one tuple of ints, for a compiled search
        (``euchre_events/analysis/_playsearch.c``): the number of cards and
        of effective suits; each card's suit (index into ``suits``); per
        suit, the trick key of each card when that suit is led (rules.md
        1.3); per suit, its run length then its card indices from the
        strongest down."""
        idx = {s: i for i, s in enumerate(self.suits)}
        out = [len(self.codes), len(self.suits)]
        out += [idx[e] for e in self.eff]
        for s in self.suits:
            out += self.keys[s]
        for run in self.runs:
            out.append(len(run))
            out += [b.bit_length() - 1 for b in run]
        return tuple(out)

    def mask(self, cards) -> int:
        """The mask of ``cards`` (codes of this table)."""
        m = 0
        for c in cards:
            m |= self.bit[c]
        return m


@lru_cache(maxsize=512)
def play_tables(codes: tuple, trump: Optional[str], low: bool = False) -> PlayTables:
    """The :class:`PlayTables` of ``codes`` (a tuple of card codes) under
    ``trump`` (cached; do not modify)."""
    return PlayTables(codes, trump, low)


def legal_mask(hand: int, led_mask: int) -> int:
    """The cards of ``hand`` that may be played to a trick led in a suit
    whose cards are ``led_mask`` (0 when leading): the led suit if held,
    else any card (rules.md 1.3)."""
    f = hand & led_mask
    return f if f else hand


def winner_of(keys: Sequence[int], first_twin_wins: bool = True) -> int:
    """Index (0 = leader) of the winning card from the cards' trick keys in
    play order: :func:`euchre_events.rules.cards.winning_index`."""
    return C.winning_index(keys, first_twin_wins)


def bits(mask: int):
    """The single-bit masks of ``mask``, lowest first."""
    while mask:
        b = mask & -mask
        yield b
        mask ^= b
