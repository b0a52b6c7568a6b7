"""How game events are written into the archive: one ``eventsourcing``
:class:`~eventsourcing.persistence.Transcoding` per event class of
:mod:`euchre_events.events` (docs/design.md "Storage").

The library's JSON transcoder calls a transcoding for any object whose exact
type is registered and writes ``{"_type_": name, "_data_": encoded}``; on the
way back it looks the transcoding up by ``name``.  An event is written as its
fields (``Event.to_dict()`` without ``type``, which the name already says)::

    {"_type_": "CardPlayed", "_data_": {"seat": 1, "card": "KD"}}

and read back with :func:`euchre_events.events.event_from_dict`, the one
place that knows the dict form of an event, so what comes back is equal to
what went in: tuples (``players``, ``hands``, ``kitty``, ``initial_score``
...) come back as tuples, which the library's JSON transcoder would otherwise
turn into lists.  The fields hold nothing else that JSON cannot say (``str``,
``int``, ``bool``, ``None``, tuples of those, and the plain ``options`` and
``source`` dicts), so no other value type needs a transcoding.

The names (the event kinds) are part of the stored format: never rename one
without registering the old name too.
"""
from __future__ import annotations

from typing import Any

from eventsourcing.persistence import Transcoding

from euchre_events.events import EVENT_TYPES, Event, event_from_dict

__all__ = ["EventTranscoding", "EVENT_TRANSCODINGS"]


class EventTranscoding(Transcoding):
    """The transcoding of one event class (``cls``: a class of
    :data:`euchre_events.events.EVENT_TYPES`); its ``name`` is the class's
    ``kind`` (``"CardPlayed"``).

    ``encode(event) -> dict`` of the fields (JSON-ready, tuples as lists);
    ``decode(dict) -> Event`` (raises ``ValueError`` for fields the class does
    not have or lacks: :func:`~euchre_events.events.event_from_dict`).
    """

    def __init__(self, cls: type):
        self.type = cls
        self.name = cls.kind

    def encode(self, obj: Event) -> dict:
        d = obj.to_dict()
        del d["type"]
        return d

    def decode(self, data: Any) -> Event:
        data["type"] = self.name
        return event_from_dict(data)


EVENT_TRANSCODINGS: tuple = tuple(EventTranscoding(cls) for cls in EVENT_TYPES.values())
"""One :class:`EventTranscoding` per event class, for
``Application.register_transcodings``."""
