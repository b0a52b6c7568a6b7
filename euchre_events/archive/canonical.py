"""The canonical JSON text of events, fast: exactly what
``json.dumps(event.to_dict(), sort_keys=True, separators=(",", ":"),
default=str)`` gives (the text a game's content id hashes, so that every id
stays the same), written without building a dict per event and without
the general encoder for the values events hold most (small ints, card
codes, None, tuples of them).  Anything else goes to ``json.dumps``.
"""
from __future__ import annotations

import dataclasses
import json
from typing import Any

from euchre_events.events import Event

_FIELDS: dict = {}


def canonical_dumps(value: Any) -> str:
    """The canonical JSON text of any value (keys sorted, no spaces, what
    JSON cannot hold as its ``str``): what the ids and the hash chain hash."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def value_text(v: Any) -> str:
    """The canonical JSON text of one event field's value."""
    t = type(v)
    if t is str:
        # plain printable ASCII without quote or backslash: json.dumps adds only the quotes
        if v.isascii() and v.isprintable() and '"' not in v and "\\" not in v:
            return '"' + v + '"'
        return canonical_dumps(v)
    if t is int:
        return int.__repr__(v)
    if v is None:
        return "null"
    if t is bool:
        return "true" if v else "false"
    if t is tuple or t is list:
        return "[" + ",".join(map(value_text, v)) + "]"
    return canonical_dumps(v)


_RECENT: dict = {}
"""``id(event) -> (event, text)`` of the events written last: importing a
game writes each event's text twice (its content id, then its link of the
hash chain); the event itself is kept beside its id, so a reused id never
gives another event's text."""


def event_text(e: Event) -> str:
    """``json.dumps(e.to_dict(), sort_keys=True, separators=(",", ":"),
    default=str)``, the same text, faster."""
    fn = _FIELDS.get(type(e))
    if fn is None:
        fn = _FIELDS[type(e)] = _text_function(type(e))
    return fn(e)


def kept_event_text(e: Event) -> str:
    """:func:`event_text`, the last few thousand kept (events are
    immutable): an import writes each event's text twice, for its game id
    and for its link of the hash chain.  Only a writer uses it; a reader
    (audit) needs each text once and pays nothing for keeping."""
    hit = _RECENT.get(id(e))
    if hit is not None and hit[0] is e:
        return hit[1]
    text = event_text(e)
    if len(_RECENT) >= 4096:
        _RECENT.clear()
    _RECENT[id(e)] = (e, text)
    return text


def _text_function(cls: type):
    """A function writing the canonical text of an event of class ``cls``:
    one expression, its keys sorted and written out, each field's value
    inlined for the common cases (a whole number, a plain ASCII string) and
    given to :func:`value_text` otherwise (the text of the loop it replaces,
    without a call and a list per field: the content id of a game costs
    its events' texts)."""
    keys = sorted([f.name for f in dataclasses.fields(cls)] + ["type"])
    parts = []
    for i, k in enumerate(keys):
        head = ("{" if i == 0 else ",") + json.dumps(k) + ":"
        if k == "type":
            parts.append(repr(head + '"' + cls.kind + '"'))
            continue
        parts.append(repr(head))
        parts.append(f"(int.__repr__(x) if (t := type(x := e.{k})) is int else '\"' + x + '\"' "
                     f"if t is str and x.isascii() and x.isprintable() and '\"' not in x "
                     f"and '\\\\' not in x else vt(x))")
    src = "def text(e, vt=value_text):\n    return " + " + ".join(parts) + " + '}'\n"
    scope: dict = {"value_text": value_text}
    exec(compile(src, f"<event_text {cls.__name__}>", "exec"), scope)
    return scope["text"]
