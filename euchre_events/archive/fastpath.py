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
from euchre_events.archive.gameid import GAME_NAMESPACE, uuid8, start_text, uuid8_text
from euchre_events.events import DealStarted
from euchre_events.rules.fastcore import CARD_CODES, event_of

__all__ = ["fast_game_id", "fast_game_id_text", "cards_dealt_text"]

_HEADS: dict = {}


class _Texts(dict):
    """Event code -> the event's canonical text, made on first use."""

    def __missing__(self, code: int) -> str:
        text = self[code] = event_text(event_of(code))
        return text


_TEXTS = _Texts()
_Q = tuple('"' + c + '"' for c in CARD_CODES)
_QUOTED = _Q.__getitem__
_NS = GAME_NAMESPACE.bytes


_HAND = "[" + ",".join(["%s"] * 5) + "]"
_CARDS_DEALT = ('{"dummy":[],"ghost":[],"hands":[' + ",".join([_HAND] * 4) + '],"kitty":[%s,%s,%s],'
                '"type":"CardsDealt","up_card":%s}')
"""The CardsDealt text of four hands of five, a kitty of three and an up-card:
24 quoted card codes in that order."""


def cards_dealt_text(hands, up: int, kitty) -> str:
    """``event_text(CardsDealt(hands, up, kitty))`` for card ints (hands:
    per seat; no dummy, no ghost)."""
    if len(hands) == 4 and len(kitty) == 3 and all(len(h) == 5 for h in hands):
        return _CARDS_DEALT % tuple(map(_QUOTED, [*hands[0], *hands[1], *hands[2], *hands[3],
                                                   *kitty, up]))
    q = _QUOTED
    return ('{"dummy":[],"ghost":[],"hands":[[' + "],[".join([",".join(map(q, h)) for h in hands])
            + ']],"kitty":[' + ",".join(map(q, kitty)) + '],"type":"CardsDealt","up_card":'
            + _Q[up] + "}")


def _name(fg) -> str:
    """The text :func:`~euchre_events.archive.gameid.game_id_of` hashes for ``fg``'s events."""
    key = (fg.params, fg.dealer)
    head = _HEADS.get(key)
    if head is None:
        head = _HEADS[key] = ('{"events":[' + start_text(fg.start()) + ","
                              + event_text(DealStarted(1, fg.dealer)) + ",")
    h0, h1, h2, h3 = fg.hands
    return "".join((head, _CARDS_DEALT % tuple(map(_QUOTED, [*h0, *h1, *h2, *h3, *fg.kitty, fg.up])),
                    ",", ",".join(map(_TEXTS.__getitem__, fg.deal.codes)), "]}"))


def fast_game_id(fg) -> uuid.UUID:
    """:func:`~euchre_events.archive.gameid.game_id_of` of ``fg.events()``."""
    return uuid8(GAME_NAMESPACE, _name(fg))


def fast_game_id_text(fg) -> str:
    """``str(fast_game_id(fg))``, faster."""
    return uuid8_text(_NS, _name(fg))
