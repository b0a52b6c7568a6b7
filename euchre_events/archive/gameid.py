"""The id of a game (docs/design.md "Storage"): :func:`game_id_of`, a
name-based UUID of the game's events alone.  Apart from
:mod:`~euchre_events.archive.store` so that what needs only the id (an
audit of a file, the fast path of :mod:`~euchre_events.archive.fastpath`)
does not import the ``eventsourcing`` library; ``store`` re-exports every
name.  Pure: no I/O.
"""
from __future__ import annotations

import hashlib
import uuid

from euchre_events.archive.canonical import canonical_dumps, event_text
from euchre_events.events import Event
from euchre_events.rules.registry import complete_start

__all__ = ["GAME_NAMESPACE", "GAME_ID_VERSION", "NOT_THE_GAME", "start_text", "game_id_of", "uuid8"]


GAME_NAMESPACE = uuid.UUID("0b6a4f8e-3d2c-5e71-a9c4-7f1e2d3c4b5a")
"""Namespace of :func:`game_id_of` (not :data:`NAMESPACE`, the old scheme's)."""

GAME_ID_VERSION = 8
"""The UUID version of :func:`game_id_of` ids: 8, name-based with SHA-256 as
RFC 9562 (appendix B.2) shows it.  Ids of the old scheme (:func:`content_id`)
are version 5, so an id alone says which scheme made it: only version-5
games need to be looked at to find an old copy (:meth:`Archive.find_game`)."""


def uuid8(namespace: uuid.UUID, name: str) -> uuid.UUID:
    """A name-based UUID version 8 (RFC 9562, B.2): the first 128 bits of
    SHA-256(namespace bytes + name as UTF-8), version and variant bits set."""
    return uuid.UUID(int=_uuid8_int(namespace.bytes, name))


def _uuid8_int(namespace: bytes, name: str) -> int:
    """The 128-bit value of :func:`uuid8` (``namespace``: its 16 bytes)."""
    n = int.from_bytes(hashlib.sha256(namespace + name.encode()).digest()[:16], "big")
    n = (n & ~(0xF << 76)) | (GAME_ID_VERSION << 76)     # version
    n = (n & ~(0x3 << 62)) | (0x2 << 62)                 # variant RFC 4122/9562
    return n


def uuid8_text(namespace: bytes, name: str) -> str:
    """``str(uuid8(uuid.UUID(bytes=namespace), name))`` without making the
    UUID object (a fifth of the cost of a game id in a batch)."""
    h = "%032x" % _uuid8_int(namespace, name)
    return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]


NOT_THE_GAME = ("title", "source")
"""GameStarted fields that describe the record, not the game: its title (a
copy may be called "... annotated") and its source (file, format, date,
description, the EGN ruleset as written, player objects with their platform
ids).  Everything else of GameStarted is the game: the variant, every option
(defaults written out), the players' names in seat order, the first dealer
and the initial score."""


def start_text(start: Event) -> str:
    """The canonical JSON text of what a GameStarted says about the game
    (:data:`NOT_THE_GAME` left out, every option written out:
    :func:`complete_start`).  Raises ``ValueError`` for an unknown variant
    or option."""
    d = complete_start(start).to_dict()
    for k in NOT_THE_GAME:
        d.pop(k, None)
    return canonical_dumps(d)


def game_id_of(events: list, _text=event_text) -> uuid.UUID:
    """The id of the game ``events`` record (GameStarted first): a
    name-based UUID (version :data:`GAME_ID_VERSION`) of the game's events alone, without :data:`NOT_THE_GAME` and without any
    annotation or alternative line, so two copies of one game (a plain
    record and its annotated twin, EGN and binary EGN, another title or
    date) get the same id, and any difference in what happened at the table
    (a card, a call, a player's name, an option) gives another.  Raises
    ``ValueError`` when ``events`` does not start with GameStarted or its
    variant or options are unknown."""
    if not events or events[0].kind != "GameStarted":
        raise ValueError("a game's events start with GameStarted")
    texts = [start_text(events[0])] + [_text(e) for e in events[1:]]
    return uuid8(GAME_NAMESPACE, '{"events":[' + ",".join(texts) + "]}")
