"""The compact decision codes of a four-seat, 24-card standard deal: the
numbers OpenSpiel's ``euchre`` game uses for its actions, written once for
the fast core (:mod:`euchre_events.rules.fastcore`) and the OpenSpiel
format (:mod:`euchre_events.formats.openspiel`), which imports them from
here (formats sit above rules).  Pure: no I/O.

====================  =================================================
0..23                 a card: ``rank * 4 + suit`` (``cards.RANKS`` and
                      ``cards.SUITS`` order: ``0 == "9C"``, ``9 == "JD"``)
24                    pass (either round of the auction, rules.md 2.2-2.3)
25, 26, 27, 28        order up (round 1) or name (round 2) C, D, H, S
29                    go alone (the maker) or defend alone (a defender, 2.4)
30                    play with the partner (the maker or a defender)
====================  =================================================
"""
from __future__ import annotations

from euchre_events.rules import cards as C

__all__ = ["CARD_CODES", "NUM_CARDS", "PASS", "CALL", "ALONE", "PARTNER", "SUIT_ACTION"]

CARD_CODES: tuple = tuple(r + s for r in C.RANKS for s in C.SUITS)
"""Card code of each card int 0..23 (``rank * 4 + suit``)."""
NUM_CARDS = len(CARD_CODES)
"""Cards of the deck (24): the card ints are ``0 .. NUM_CARDS - 1``."""
PASS = 24
"""Decision code of a pass (either round of the auction)."""
CALL = 25
"""Decision codes ``CALL + suit`` (C, D, H, S = 0..3): order up the up-card's
suit in round 1, name the suit in round 2."""
ALONE = 29
"""Decision code of going alone (the maker) or defending alone (a defender)."""
PARTNER = 30
"""Decision code of playing with the partner (the maker or a defender)."""
SUIT_ACTION: dict = {s: CALL + i for i, s in enumerate(C.SUITS)}
"""``{suit letter: decision code}`` of ordering up / naming that suit."""
