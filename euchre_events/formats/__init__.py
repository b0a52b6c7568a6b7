"""Reading and writing game records: EGN/EMN, OpenSpiel histories, our text notation.

Every reader turns a file into :class:`Record` objects (events plus the
record's annotations and alternative lines) and validates each game by
folding it with the engine, so an impossible record fails here, with a
:class:`RecordError` naming the file, deal, event and reason, before anything
is stored.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..events import Event


class RecordError(ValueError):
    """A record that cannot be read or cannot have happened.

    ``file``, ``deal`` (number from 1, or None), ``event`` (0-based event
    index or a description), ``reason``; ``str()`` names them all.
    """

    def __init__(self, file: str, reason: str, deal: Optional[int] = None,
                 event: Optional[object] = None, line: Optional[int] = None,
                 column: Optional[int] = None):
        self.file, self.reason, self.deal, self.event = file, reason, deal, event
        self.line, self.column = line, column
        parts = [str(file)]
        if line is not None:
            parts.append(f"line {line}" + (f", column {column}" if column is not None else ""))
        if deal is not None:
            parts.append(f"deal {deal}")
        if event is not None:
            parts.append(f"event {event}")
        super().__init__(": ".join([", ".join(parts), reason]))


@dataclass
class Record:
    """One game read from a file.

    ``events``: the game's event stream (GameStarted first); ``annotations``:
    ``[{"position": k, "text": str, "mark": str|None}]`` where ``position`` is
    the index of the event the note is about; ``variations``: alternative
    lines ``[{"position": k, "events": [Event...], "annotations": [...],
    "comment": str}]`` branching before event ``k``; the positions of a
    variation's own annotations count along the line as if it had been
    played (``events[:k] + variation events``); ``source``: file and
    format details; ``warnings``: things a reader accepted but a person should
    know (unknown keys, ...); ``stated_final_score``: the file's own final
    score if it gives one.
    """

    events: list
    annotations: list = field(default_factory=list)
    variations: list = field(default_factory=list)
    source: dict = field(default_factory=dict)
    warnings: list = field(default_factory=list)
    stated_final_score: Optional[list] = None

    @property
    def title(self) -> str:
        return self.events[0].title if self.events else ""


FORMATS = ("egn", "emn", "openspiel", "text", "json")


def detect_format(path: str, fmt: Optional[str] = None) -> str:
    """The format of ``path``: ``fmt`` if given, else from the extension.

    ``.egn`` -> egn, ``.emn`` -> emn, ``.jsonl`` -> openspiel, ``.euchre``/``.txt``
    -> text, ``.json`` -> egn (EGN files are JSON).  Raises :class:`RecordError`.
    """
    if fmt:
        if fmt not in FORMATS:
            raise RecordError(path, f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
        return fmt
    ext = os.path.splitext(path)[1].lower()
    table = {".egn": "egn", ".emn": "emn", ".jsonl": "openspiel", ".euchre": "text",
             ".txt": "text", ".json": "egn", ".eej": "json"}
    if ext in table:
        return table[ext]
    raise RecordError(path, f"cannot tell the format from the extension {ext!r}; use --from")


def read_records(path: str, fmt: Optional[str] = None) -> list:
    """All games in a file as :class:`Record` objects, each already validated.

    Raises :class:`RecordError` for a file that is not a record, breaks the
    schema, or describes something impossible.
    """
    f = detect_format(path, fmt)
    if f in ("egn", "emn"):
        from .egn import read_egn_file
        return read_egn_file(path)
    if f == "openspiel":
        from .openspiel import read_openspiel_file
        return read_openspiel_file(path)
    if f == "text":
        from .text import read_text_file
        return read_text_file(path)
    if f == "json":
        from .jsonfmt import read_json_file
        return read_json_file(path)
    raise RecordError(path, f"no reader for {f}")  # pragma: no cover


def validate_events(path: str, events: list) -> "object":
    """Fold ``events`` with the engine; return the :class:`~euchre_events.projections.Game`.

    Raises :class:`RecordError` (file, deal, event index and kind, reason) if
    the record is impossible.
    """
    from ..engine import ImpossibleEvent
    from ..projections import Game
    try:
        return Game(events)
    except ImpossibleEvent as e:
        ev = None
        if e.position is not None:
            ev = f"{e.position} ({e.event.kind})" if e.event is not None else e.position
        raise RecordError(path, e.reason, deal=e.deal, event=ev) from None
    except ValueError as e:
        raise RecordError(path, str(e)) from None
