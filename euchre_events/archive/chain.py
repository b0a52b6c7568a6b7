"""The hash chain of a game stream (docs/design.md "Tamper evidence").

Each stored game event carries ``chain``: a SHA-256 hex digest (64 chars)
over the previous event's digest, the event's stream version (1 for
GameStarted) and its canonical content::

    chain(v) = sha256(f"{chain(v - 1)}|{v}|{canonical(event)}")
    chain(0) = sha256(f"{game_id}|{length}")      # the genesis

``canonical(event)`` is ``json.dumps(event.to_dict(), sort_keys=True,
separators=(",", ":"))``; ``length`` is the number of events the game was
stored with (kept in the stored GameStarted), so that removing the last
events is seen too.  A game recorded live, event by event
(``Archive.record``), has ``length`` 0: its chain still shows a changed,
removed, inserted or renumbered event, but not its last events removed
(nothing says how long it was).  The chain is evidence, not a seal: it has no secret, so
someone who rewrites every later event and its hash is not caught; a single
changed byte, a removed, inserted or renumbered row is.

Pure standard library, so the verifier can recompute it from raw stored rows
without the ``eventsourcing`` library rebuilding anything.
"""
from __future__ import annotations

import hashlib
import json
import uuid

__all__ = ["canonical", "genesis", "link", "link_text", "AFTER_THE_RECORD"]


def canonical(event_dict: dict) -> str:
    """The canonical JSON of an event's dict form (``Event.to_dict()``):
    sorted keys, no spaces; tuples and lists read the same.  Raises
    ``TypeError`` for a value JSON cannot hold."""
    return json.dumps(event_dict, sort_keys=True, separators=(",", ":"))


def genesis(game_id: uuid.UUID, length: int) -> str:
    """The digest before a game's first event: over its id and the number of
    events it was stored with (``length``, an int >= 1; 0 for a game
    recorded live, whose length is not fixed)."""
    return hashlib.sha256(f"{game_id}|{int(length)}".encode()).hexdigest()


def link_text(previous: str, version: int, canonical_text: str) -> str:
    """:func:`link` from the event's canonical text (:func:`canonical` of
    its dict form) already written, e.g. by
    ``euchre_events.archive.canonical.event_text``, which gives the same
    text faster (the archive writes every event's link on import)."""
    return hashlib.sha256(f"{previous}|{int(version)}|{canonical_text}".encode()).hexdigest()


def link(previous: str, version: int, event_dict: dict) -> str:
    """The digest (64 hex chars) of the event at stream ``version`` (from 1)
    whose dict form is ``event_dict``, chained to ``previous`` (the digest
    of the event before, or :func:`genesis` for version 1)."""
    blob = f"{previous}|{int(version)}|{canonical(event_dict)}"
    return hashlib.sha256(blob.encode()).hexdigest()


AFTER_THE_RECORD = ("RenegeClaimed", "RenegeRuled")
"""Events a game imported whole (a record with a fixed length in its hash
chain's genesis) may still take, recorded after it: a claim and a director's
ruling come after the play (rules.md 1.5, 2.7).  The chain links them like any
event; ``verify`` accepts them after the stored length, and nothing else."""
