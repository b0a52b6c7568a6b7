"""The game id of a game read by the fast path
(:class:`~euchre_events.formats.openspiel.FastGame`, issue 11 "Speed"):
exactly :func:`~euchre_events.archive.gameid.game_id_of` of its events, from
texts made once: the GameStarted and DealStarted text per (parameters,
dealer), each decision event's text per event code (the events are shared
objects, :func:`~euchre_events.rules.fastcore.event_of`), and the
CardsDealt text written straight from the card ints.  ``tests/test_fast_audit.py``
checks the ids against ``game_id_of`` over thousands of games.
"""
from __future__ import annotations

import uuid

from euchre_events.archive.canonical import event_text
from euchre_events.archive.gameid import GAME_NAMESPACE, _uuid8, start_text
from euchre_events.events import DealStarted
from euchre_events.rules.fastcore import CARD_CODES, event_of

__all__ = ["fast_game_id", "cards_dealt_text"]

_HEADS: dict = {}
_TEXTS: dict = {}
_Q = tuple('"' + c + '"' for c in CARD_CODES)


def cards_dealt_text(hands, up: int, kitty) -> str:
    """``event_text(CardsDealt(hands, up, kitty))`` for card ints (hands:
    per seat; no dummy, no ghost)."""
    q = _Q
    return ('{"dummy":[],"ghost":[],"hands":[' + ",".join(["[" + ",".join([q[c] for c in h]) + "]"
                                                           for h in hands])
            + '],"kitty":[' + ",".join([q[c] for c in kitty]) + '],"type":"CardsDealt","up_card":'
            + q[up] + "}")


def fast_game_id(fg) -> uuid.UUID:
    """:func:`~euchre_events.archive.gameid.game_id_of` of ``fg.events()``."""
    key = (fg.params, fg.dealer)
    head = _HEADS.get(key)
    if head is None:
        head = _HEADS[key] = ('{"events":[' + start_text(fg.start()) + ","
                              + event_text(DealStarted(1, fg.dealer)) + ",")
    texts = _TEXTS
    parts = [cards_dealt_text(fg.hands, fg.up, fg.kitty)]
    for c in fg.deal.codes:
        t = texts.get(c)
        if t is None:
            t = texts[c] = event_text(event_of(c))
        parts.append(t)
    return _uuid8(GAME_NAMESPACE, head + ",".join(parts) + "]}")
