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

import dataclasses
from datetime import datetime
from typing import Any, Optional

from eventsourcing.persistence import DatetimeAsISO, JSONTranscoder, Mapper, StoredEvent, Transcoding
from eventsourcing.utils import get_topic

from euchre_events.events import EVENT_TYPES, Event, _field_names, _fits, _frozen, event_from_dict, field_types

__all__ = ["EventTranscoding", "EVENT_TRANSCODINGS", "ArchiveMapper", "ArchiveTranscoder"]


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
        self._fast = _fast_reader(cls, self._slow)

    def encode(self, obj: Event) -> dict:
        d = obj.to_dict()
        del d["type"]
        return d

    def decode(self, data: Any) -> Event:
        # a stored event holds every field of its class with a value of its
        # type: built at once; anything else goes through event_from_dict,
        # which says what is wrong (the same event, or the same error)
        return self._fast(data)

    def _slow(self, data: Any) -> Event:
        data["type"] = self.name
        return event_from_dict(data)


INTERNED = 4096
"""At most this many distinct events of one class are kept for reuse while
reading (:func:`_fast_reader`)."""


def _fast_reader(cls: type, slow):
    """``read(data) -> Event`` for class ``cls``: when ``data`` is a dict of
    exactly the class's fields, each of a plain JSON type its annotation
    takes (a whole number for ``int``, a string for ``str``, ``None`` for an
    ``Optional``; other annotations through the check ``event_from_dict``
    makes, lists made tuples as it makes them), the event built at once;
    otherwise ``slow(data)`` (``event_from_dict``).  So the result is always
    what ``event_from_dict`` gives, and the checks it would make are made
    (stricter ones first: a value they refuse goes to ``slow``, which
    decides).  Generated as one function per class: a game of 1,000 events
    is read back from its snapshot in one go."""
    hints = field_types(cls)
    names = _field_names(cls)
    plain = {int: "type({v}) is int", str: "type({v}) is str", bool: "type({v}) is bool",
             dict: "type({v}) is dict", Optional[int]: "({v} is None or type({v}) is int)",
             Optional[str]: "({v} is None or type({v}) is str)"}
    scope: dict = {"cls": cls, "slow": slow, "_fits": _fits, "_frozen": _frozen}
    reads, converts, checks = [], [], []
    for i, n in enumerate(names):
        v = f"a{i}"
        reads.append(f"{v} = d[{n!r}]")
        hint = hints.get(n, Any)
        if hint in plain and not (hint is dict and n not in ("options", "source")):
            checks.append(plain[hint].format(v=v))
        else:
            scope[f"H{i}"] = hint
            if n not in ("options", "source"):
                converts.append(f"if type({v}) is list: {v} = _frozen({v})")
            checks.append(f"_fits({v}, H{i})")
    body = [f"if type(d) is not dict or len(d) != {len(names)}: return slow(d)",
            "try:"] + ["    " + r for r in reads] + ["except KeyError:", "    return slow(d)"] + converts
    if checks:
        body += ["if not (" + " and ".join(checks) + "): return slow(d)"]
    args = ", ".join(f"a{i}" for i in range(len(names)))
    if names and all(hints.get(n) in plain and hints.get(n) is not dict for n in names):
        # every field a plain scalar: events are immutable, so one object per
        # distinct value (a game of 1,000 events holds some 100 distinct card
        # plays); kept per class, at most INTERNED of them
        scope["cache"], scope["limit"] = {}, INTERNED
        body += [f"key = ({args},)", "e = cache.get(key)", "if e is None:",
                 "    if len(cache) >= limit: cache.clear()",
                 f"    e = cache[key] = cls({args})", "return e"]
    else:
        body += [f"return cls({args})"]
    src = "def read(d):\n" + "".join("    " + line + "\n" for line in body)
    exec(compile(src, f"<read {cls.__name__}>", "exec"), scope)
    return scope["read"]


EVENT_TRANSCODINGS: tuple = tuple(EventTranscoding(cls) for cls in EVENT_TYPES.values())
"""One :class:`EventTranscoding` per event class, for
``Application.register_transcodings``."""


_ABSENT = object()


class ArchiveTranscoder(JSONTranscoder):
    """The library's JSON transcoder, reading our game events faster: a
    ``{"_type_": kind, "_data_": fields}`` object of a registered
    :class:`EventTranscoding` goes straight to it (no exception raised and
    caught for the many two-field events' ``_data_``); every other object
    as the library reads it (``JSONTranscoder._decode_obj``), so what comes
    back is the same."""

    def __init__(self) -> None:
        super().__init__()
        self._readers: dict = {}

    def register(self, transcoding: Transcoding) -> None:
        super().register(transcoding)
        if isinstance(transcoding, EventTranscoding) and transcoding.type is not None:
            self._readers[transcoding.name] = transcoding.decode
        else:
            self._readers.pop(transcoding.name, None)

    def _decode_obj(self, d: dict) -> Any:
        if len(d) != 2:
            return d
        t = d.get("_type_", _ABSENT)
        if t is _ABSENT:
            return d         # a two-field event's own fields (the library: KeyError, then d)
        if type(t) is str and "_data_" in d:
            read = self._readers.get(t)
            if read is not None:
                return read(d["_data_"])
        return super()._decode_obj(d)


# ---------------------------------------------------------------- writing fast
class ArchiveMapper(Mapper):
    """The library's :class:`~eventsourcing.persistence.Mapper` with the JSON
    text of a stored event written directly: the same bytes, about twice as
    fast (an import writes one stored event per game event; the library's
    encoder calls back into Python twice per event, for the timestamp and
    for the event, and builds a dict per event).

    ``to_stored_event(domain_event) -> StoredEvent``: exactly what
    ``Mapper.to_stored_event`` gives (tests/test_archive_mapper.py compares
    the bytes for every event kind, every variant and awkward strings): the
    state is ``vars(domain_event)`` without ``originator_id`` and
    ``originator_version``, with ``class_version`` when above 1, written as
    the library's ``JSONTranscoder`` writes it (``separators=(",", ":")``,
    ``ensure_ascii=False``, registered types as ``{"_type_", "_data_"}``).
    Written here: game events of a registered :class:`EventTranscoding`
    (their fields in order, as :meth:`EventTranscoding.encode` gives them),
    datetimes of the library's ``DatetimeAsISO``, plain ``str`` without
    quote, backslash or unprintable character, ``int``, ``bool``, ``None``
    and lists and tuples of those; any other value (a dict, a float, an odd
    string) is handed to the library's own encoder, so it is written as the
    library writes it.  With another transcoder than the library's JSON one
    everything goes to the library (``super()``); a compressor and a cipher
    are applied as the library applies them."""

    def __init__(self, transcoder, compressor=None, cipher=None):
        super().__init__(transcoder, compressor=compressor, cipher=cipher)
        self._fast = isinstance(transcoder, JSONTranscoder)
        if self._fast:
            enc = transcoder.encoder
            self._encode = enc.encode
            self._fast = (not enc.ensure_ascii and enc.item_separator == "," and enc.key_separator == ":"
                          and not enc.sort_keys and enc.indent is None)
            dt = transcoder.types.get(datetime)
            self._iso = isinstance(dt, DatetimeAsISO) and '{"_type_":' + self._encode(dt.name) + ',"_data_":"'
            # an event class -> its writer, only for our transcodings registered under the kind
            self._events = {t.type: _data_writer(t.type, self._value)
                            for t in transcoder.types.values()
                            if isinstance(t, EventTranscoding) and t.name == t.type.kind}
        self._writers: dict = {}   # domain event class -> (topic, attribute count, write)

    def to_stored_event(self, domain_event) -> StoredEvent:
        if not self._fast:
            return super().to_stored_event(domain_event)
        cls = type(domain_event)
        got = self._writers.get(cls)
        if got is None:
            got = self._writers[cls] = self._writer(cls, domain_event)
        topic, n, write = got
        state = vars(domain_event)
        if write is None or len(state) != n:
            return super().to_stored_event(domain_event)
        stored_state = write(state).encode("utf8")
        if self.compressor:
            stored_state = self.compressor.compress(stored_state)
        if self.cipher:
            stored_state = self.cipher.encrypt(stored_state)
        return StoredEvent(originator_id=state["originator_id"], originator_version=state["originator_version"],
                           topic=topic, state=stored_state)

    def _writer(self, cls: type, sample) -> tuple:
        """``(topic, number of attributes, write)`` for a domain event class:
        ``write(vars(event)) -> str``, the state's JSON text, generated as one
        expression from the attributes of ``sample`` (a dataclass's fields, in
        the order ``vars`` gives them: its ``__init__`` sets them so), or
        ``write`` None (not a dataclass, or other attributes: the library
        writes those)."""
        names = list(vars(sample))
        topic = get_topic(cls)
        if not dataclasses.is_dataclass(cls) or names != [f.name for f in dataclasses.fields(cls)] \
                or names[:2] != ["originator_id", "originator_version"]:
            return topic, len(names), None
        # each value inlined for what stored events hold most (a datetime, a
        # game event, a plain string), else value(): the text the library writes
        parts = [repr(("{" if i == 0 else ",") + self._encode(k) + ":") + " + " + _INLINE.format(k=k)
                 for i, k in enumerate(names[2:])]
        class_version = getattr(cls, "class_version", 1)
        tail = ("," if parts else "{") + '"class_version":' + self._encode(class_version) if class_version > 1 else ""
        if not parts and not tail:
            tail = "{"
        src = ("def write(s, value=value, datetime=datetime, iso=iso, writer=writer):\n    return "
               + " + ".join(parts + [repr(tail + "}")]) + "\n")
        scope: dict = {"value": self._value, "datetime": datetime, "iso": self._iso,
                       "writer": self._events.get}
        exec(compile(src, f"<stored state {cls.__name__}>", "exec"), scope)
        return topic, len(names), scope["write"]

    def _value(self, v: Any) -> str:
        """The JSON text the library's encoder gives ``v`` inside a stored state."""
        t = type(v)
        if t is str:
            if v.isprintable() and '"' not in v and "\\" not in v:
                return '"' + v + '"'
        elif t is int:
            return int.__repr__(v)
        elif v is None:
            return "null"
        elif t is bool:
            return "true" if v else "false"
        elif t is tuple or t is list:
            return "[" + ",".join(map(self._value, v)) + "]"
        else:
            write = self._events.get(t)
            if write is not None:
                return write(v)
            if t is datetime and self._iso:
                return self._iso + v.isoformat() + '"}'
        return self._encode(v)


_INLINE = ("(('\"' + x + '\"') if (t := type(x := s[{k!r}])) is str and x.isprintable() and '\"' not in x "
           "and '\\\\' not in x else (iso + x.isoformat() + '\"}}') if t is datetime and iso "
           "else w(x) if (w := writer(t)) is not None else value(x))")
"""The text of the state's value ``{k}`` (a generated expression): what
:meth:`ArchiveMapper._value` gives, its common cases inlined."""

_FIELD = ("(int.__repr__(x) if (t := type(x := e.{n})) is int else ('\"' + x + '\"') if t is str "
          "and x.isprintable() and '\"' not in x and '\\\\' not in x else value(x))")
"""The text of an event's field ``{n}`` (a generated expression): what
:meth:`ArchiveMapper._value` gives, whole numbers and plain strings inlined."""


def _data_writer(cls: type, value):
    """A function writing ``{"_type_": kind, "_data_": fields}`` for an event
    of class ``cls`` (the fields in order, each by ``value``), generated as one
    expression: what the library writes for :meth:`EventTranscoding.encode`."""
    names = _field_names(cls)
    head = '{"_type_":"' + cls.kind + '","_data_":{'
    if not names:
        src = f"def write(e):\n    return {head + '}}'!r}\n"
    else:
        parts = [repr((head if i == 0 else ",") + '"' + n + '":') + " + " + _FIELD.format(n=n)
                 for i, n in enumerate(names)]
        src = "def write(e, value=value):\n    return " + " + ".join(parts) + " + '}}'\n"
    scope: dict = {"value": value}
    exec(compile(src, f"<stored {cls.__name__}>", "exec"), scope)
    return scope["write"]
