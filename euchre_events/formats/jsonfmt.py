"""Our own JSON export of a game: the event stream as stored, losslessly.

A file (extension ``.eej``) holds one game object, or a JSON array of them::

    {"format": "euchre-events", "version": 1,
     "events": [{"type": "GameStarted", ...}, {"type": "DealStarted", ...}, ...],
     "annotations": [{"position": 9, "text": "...", "mark": "??"}],
     "variations": [{"position": 19, "events": [...], "annotations": [...],
                     "comment": ""}]}

``events`` are :meth:`Event.to_dict` outputs (:func:`event_from_dict` reads
them back); annotation positions index ``events``; a variation replaces the
main line's event ``position`` and what follows, and the positions of its
annotations and nested lines (under ``"variations"``) index the line's own
stream ``events[:position] + its events``, exactly as in
:class:`~euchre_events.formats.Record`.  A variation holds only these keys
(``position``, ``events``, ``annotations``, ``comment``, ``variations``):
other keys are not written, and are left out with a warning when read; a
variation with no events and a ``null`` position (an alternative line some
reader could not replay) is admitted by the schema but left out, with a
warning.  A game without ``initial_score`` starts from the variant's
initial scores, a game that stops in the middle of a deal is read with a
warning, as in every reader.

Reading validates the layout with a JSON schema, then hands the game to a
:class:`~euchre_events.formats.builder.RecordBuilder`, which folds it with
the engine and every alternative line from its branch point.  Errors are
:class:`~euchre_events.formats.RecordError` naming the file, the JSON line and
column (syntax), the JSON path (layout) or the deal and event (impossible).
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Optional, Sequence

from euchre_events.events import ANNOTATION_MARKS, Event, event_from_dict
from euchre_events.formats import (VARIATION_KEYS, Record, RecordError, load_json, no_game_error,
                                   schema_message,
                                   read_record_text)
from euchre_events.formats.builder import RecordBuilder

__all__ = ["write_json", "read_json_file", "parse_json", "game_to_json", "FORMAT", "VERSION", "SCHEMA"]

FORMAT = "euchre-events"
VERSION = 1

_ANNOTATION = {
    "type": "object",
    "required": ["position", "text"],
    "properties": {
        "position": {"type": "integer", "minimum": 0},
        "text": {"type": "string"},
        "mark": {"enum": [None, *ANNOTATION_MARKS]},
    },
}
_EVENT = {"type": "object", "required": ["type"], "properties": {"type": {"type": "string"}}}
_VARIATION = {
    "type": "object",
    "required": ["position", "events"],
    "properties": {
        "position": {"type": ["integer", "null"], "minimum": 0},
        "events": {"type": "array", "items": _EVENT},
        "annotations": {"type": "array", "items": _ANNOTATION},
        "comment": {"type": "string"},
        "variations": {"type": "array", "items": {"$ref": "#/$defs/variation"}},
    },
}
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "euchre-events game",
    "type": "object",
    "required": ["format", "version", "events"],
    "properties": {
        "format": {"const": FORMAT},
        "version": {"const": VERSION},
        "events": {"type": "array", "items": _EVENT, "minItems": 1},
        "annotations": {"type": "array", "items": _ANNOTATION},
        "variations": {"type": "array", "items": {"$ref": "#/$defs/variation"}},
    },
    "$defs": {"variation": _VARIATION},
}
"""JSON schema of one game object (draft 2020-12)."""

@lru_cache(maxsize=1)
def _validator():
    """The schema's validator, made when a game is first read (writing needs
    no ``jsonschema``: a tenth of a second of every export's start-up)."""
    import jsonschema
    return jsonschema.Draft202012Validator(SCHEMA)


# ------------------------------------------------------------------- writing

def _variation_to_json(v: dict) -> dict:
    out = {"position": v.get("position"), "events": [e.to_dict() for e in v.get("events", ())],
           "annotations": [dict(a) for a in v.get("annotations", ())],
           "comment": v.get("comment", "")}
    subs = _playable(v.get("variations", ()))
    if subs:
        out["variations"] = [_variation_to_json(x) for x in subs]
    return out


def _playable(variations) -> list:
    """The variations that hold events (lines kept as raw data by some
    reader, with no position and no events, are not written)."""
    return [v for v in variations if not (v.get("position") is None and not v.get("events"))]


def game_to_json(events: Sequence[Event], annotations: Sequence[dict] = (),
                 variations: Sequence[dict] = ()) -> dict:
    """The JSON object of one game (see the module docstring)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "events": [e.to_dict() for e in events],
        "annotations": [dict(a) for a in annotations],
        "variations": [_variation_to_json(v) for v in _playable(variations)],
    }


def write_json(events: Sequence[Event], annotations: Sequence[dict] = (),
               variations: Sequence[dict] = (), indent: Optional[int] = 1) -> str:
    """One game as our JSON text (``{"format": "euchre-events", "version": 1,
    "events": [...], "annotations": [...], "variations": [...]}``).

    ``events``: :class:`GameStarted` first; ``annotations`` and ``variations``
    as in :class:`Record` (a variation's other keys are not written, nor a
    line without events).  Raises ``TypeError`` if a value is not JSON-able.
    """
    return json.dumps(game_to_json(events, annotations, variations), indent=indent,
                      ensure_ascii=False) + "\n"


# ------------------------------------------------------------------- reading

def read_json_file(path: str) -> list:
    """All games of a JSON export file as validated :class:`Record` objects.

    Raises :class:`RecordError` (see the module docstring), also when the
    file cannot be read, is not UTF-8 text, or holds no game (empty, ``[]``).
    """
    return parse_json(read_record_text(str(path)), path=str(path))


def parse_json(text: str, path: str = "<string>", validate: bool = True) -> list:
    """Games from JSON text: one game object or an array of them.

    ``validate=False`` skips the engine fold (the layout is still checked).
    Raises :class:`RecordError`: not JSON, not our layout (an EGN document is
    named as such), holds no game (blank text, ``[]``), or impossible.
    """
    if not text.strip():
        raise no_game_error(path)
    data = load_json(text, path)
    games = data if isinstance(data, list) else [data]
    if not games:
        raise no_game_error(path)
    records = []
    for gi, obj in enumerate(games):
        where = f"game {gi + 1}: " if len(games) > 1 else ""
        records.append(_record(path, obj, where, validate, gi))
    return records


def _record(path: str, obj: Any, where: str, validate: bool, index: int) -> Record:
    if isinstance(obj, dict) and "fileType" in obj and "format" not in obj:
        raise RecordError(path, f"{where}not an {FORMAT} game: it has fileType "
                                f"{obj['fileType']!r} (an EGN/EMN file: read it with --from egn)")
    errors = sorted(_validator().iter_errors(obj), key=lambda e: list(e.absolute_path))
    if errors:
        e = errors[0]
        at = "/".join(str(p) for p in e.absolute_path) or "the top level"
        raise RecordError(path, f"{where}not an {FORMAT} v{VERSION} game: at {at}: {schema_message(e)}")
    b = RecordBuilder(path, "json", label=where, validate=validate,
                      source={"file": path, "format": "json", "game": index})
    _events(b, obj["events"], "")
    for a in obj.get("annotations", []):
        b.annotate(a["text"], a.get("mark"), a["position"])
    _variations(b, obj.get("variations", []), "variations")
    return b.finish()


def _events(b: RecordBuilder, items: list, what: str) -> None:
    for i, d in enumerate(items):
        try:
            ev = event_from_dict(d)
        except ValueError as e:
            raise b.error(what + str(e), event=i + 1) from None   # from 1, as show counts
        b.add(ev)


def _variations(b: RecordBuilder, items: list, name: str) -> None:
    """The variations of ``items`` (JSON path ``name``) into the builder's
    line, with only the keys of :data:`~euchre_events.formats.VARIATION_KEYS`;
    lines without events and a ``null`` position are left out, each with a
    warning."""
    where = b.label
    for i, v in enumerate(items):
        here = f"{name}/{i}"
        extra = sorted(k for k in v if k not in VARIATION_KEYS)
        if extra:
            b.warn(f"{where}{here}: key(s) {', '.join(map(repr, extra))} are not part of "
                   "an alternative line; left out")
        if v["position"] is None:
            if v["events"] or v.get("annotations") or v.get("variations"):
                raise b.error(f"{here}: an alternative line with events needs a position")
            b.warn(f"{where}{here}: an alternative line without events or position "
                   "(one a reader could not replay); left out")
            continue
        b.begin_variation(v["position"], name=here, comment=v.get("comment", ""))
        _events(b, v["events"], "alternative line: ")
        for a in v.get("annotations", []):
            b.annotate(a["text"], a.get("mark"), a["position"])
        _variations(b, v.get("variations", []), here + "/variations")
        b.end_variation()
