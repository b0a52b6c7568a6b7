"""Writing an EGN game back as it was read (issue 14, "a lossless round trip").

Our events say what happened; an EGN file also says things the events do
not keep: an empty ``description``, ``aloneDefender: -1``, the dealt hands
it stated (and only those: the others we rebuild from the play), a
``finalScore``, keys the schema does not know, an annotation label written
``[!]x``, a note past the last play, an alternative line we could not
replay.  So that ``export`` writes back what was read, and the EGN
**baseline** (the document without its analysis-only keys, hashed with its
keys sorted: the EGN project's ``egn-baseline --hash``; the spec's
determinism-of-egn.md says what a file holds, the schema marks the keys
"analysis-only content that should be stripped for baseline hashing") is
the same before and after, the reader keeps, in the game's
``GameStarted.source["egn"]`` (outside the game's id: ``content_id`` leaves
the source out), what our writer would not write by itself:

* ``"patch"``: the operations that turn what :func:`write_egn` writes from
  the events (no analysis, no derived fields) into the document as read
  (its 1.4 form, after the in-memory upgrade; without ``kitty`` and
  ``initialLead``, which 1.4 has no place for).  An operation is
  ``["set", path, value]``, ``["del", path]``, ``["cut", path, n]`` (a list
  cut to ``n`` items) or ``["order", path, [key, ...]]`` (an object's key
  order); a path is a list of keys and list indices;
* ``"notes"``: ``[position or None, deal index, "call" | "play", index,
  label]`` for each annotation of the main line that our writer would write
  otherwise: its label as read (``[!]x``), or its place when the reader had
  to move it (a call note past the last call) or leave it out (position
  None: a play note past the last play);
* ``"lines"``: per alternative line read, ``{"key", "deal", "index",
  "patch"}``: its place among the deal's lines and the patch from the line
  we write to the line as read (its notes included: a line is never edited);
* ``"unread"``: ``{"deal", "index", "line"}``, each line the reader could
  not replay, as it was.

Nothing here is a rule, and nothing derived is kept: the writer applies
the patch, then reads the result back and keeps it only when it gives the
same game (:func:`~euchre_events.formats.egn.write.write_egn`).
"""
from __future__ import annotations

import copy
import hashlib
import json
import re
from typing import Any, Iterable, Optional

ANALYSIS_KEYS = ("callAnnotations", "playAnnotations", "alternativeLines")
"""The keys the EGN schema marks "Analysis-only content that should be
stripped for baseline hashing"; our annotation stream holds them."""

READER_ONLY_KEYS = ("kitty", "initialLead")
"""Keys of EGN 1.0.0 the reader uses but EGN 1.4 has no place for (the EGN
project's ``egn-upgrade`` removes them too)."""

SOURCE_KEY = "egn"
"""Where a game's residue lives in ``GameStarted.source``."""


_MARK = re.compile(r"^\s*\[([!?]{1,2})\]\s*")


def split_annotation(text: str) -> tuple:
    """``(text, mark)`` of an EGN annotation: a leading ``[!]``, ``[?!]``...
    is the mark (None without one), the rest the text (``"[!]x"`` and
    ``"[!] x"`` are both ``("x", "!")``; the label as read is kept for the
    writer: ``"notes"`` above)."""
    m = _MARK.match(text)
    if m:
        return text[m.end():], m.group(1)
    return text, None


def note_label(text: str, mark: Optional[str]) -> str:
    """An annotation as EGN writes it: a mark as a leading ``[?!] ``, the
    text after it (the inverse of :func:`split_annotation`)."""
    return f"[{mark}] {text}" if mark else text


class PatchError(ValueError):
    """A patch that does not fit the document it is applied to."""


# ------------------------------------------------------------------ diff and patch

def diff(a: Any, b: Any, path: Optional[list] = None, ops: Optional[list] = None) -> list:
    """The operations (see the module text) that turn JSON value ``a`` into
    ``b``; ``[]`` when they are equal (``1`` and ``true`` are not)."""
    path = [] if path is None else path
    ops = [] if ops is None else ops
    if isinstance(a, dict) and isinstance(b, dict):
        for k in a:
            if k not in b:
                ops.append(["del", path + [k]])
        for k, v in b.items():
            if k in a:
                diff(a[k], v, path + [k], ops)
            else:
                ops.append(["set", path + [k], copy.deepcopy(v)])
        after = [k for k in a if k in b] + [k for k in b if k not in a]
        if after != list(b):
            ops.append(["order", path, list(b)])
    elif isinstance(a, list) and isinstance(b, list):
        n = min(len(a), len(b))
        for i in range(n):
            diff(a[i], b[i], path + [i], ops)
        if len(a) > len(b):
            ops.append(["cut", path, len(b)])
        for i in range(n, len(b)):
            ops.append(["set", path + [i], copy.deepcopy(b[i])])
    elif type(a) is not type(b) or a != b:
        ops.append(["set", path, copy.deepcopy(b)])
    return ops


def _at(doc: Any, path: list) -> Any:
    for p in path:
        try:
            doc = doc[p]
        except (KeyError, IndexError, TypeError):
            raise PatchError(f"no {'/'.join(map(str, path))} to patch") from None
    return doc


def apply_patch(doc: Any, ops: Iterable) -> Any:
    """``doc`` changed by the operations of :func:`diff` (in place; returned).
    Raises :class:`PatchError` when an operation does not fit."""
    for op in ops:
        if not isinstance(op, (list, tuple)) or len(op) < 2 or not isinstance(op[1], (list, tuple)):
            raise PatchError(f"not a patch operation: {str(op)[:60]}")
        kind, path = op[0], list(op[1])
        if kind == "order":
            obj = _at(doc, path)
            if not isinstance(obj, dict):
                raise PatchError("order of a value that is not an object")
            if len(op) < 3 or not isinstance(op[2], list):
                raise PatchError("order without keys")
            keys = [k for k in op[2] if isinstance(k, str) and k in obj]
            keys += [k for k in obj if k not in keys]
            items = [(k, obj[k]) for k in keys]
            obj.clear()
            obj.update(items)
            continue
        if kind == "cut":
            obj = _at(doc, path)
            if not isinstance(obj, list):
                raise PatchError("cut of a value that is not a list")
            if len(op) < 3 or type(op[2]) is not int:
                raise PatchError("cut without a length")
            del obj[op[2]:]
            continue
        if not path:
            if kind == "set":
                return copy.deepcopy(op[2])
            raise PatchError("cannot delete the document")
        parent, last = _at(doc, path[:-1]), path[-1]
        if kind == "del":
            if isinstance(parent, dict):
                parent.pop(last, None)
            continue
        if kind != "set":
            raise PatchError(f"unknown patch operation {kind!r}")
        if len(op) < 3:
            raise PatchError("set without a value")
        value = copy.deepcopy(op[2])
        if isinstance(parent, dict) and isinstance(last, str):
            parent[last] = value
        elif isinstance(parent, list) and isinstance(last, int) and 0 <= last <= len(parent):
            if last == len(parent):
                parent.append(value)
            else:
                parent[last] = value
        else:
            raise PatchError(f"cannot set {'/'.join(map(str, path))}")
    return doc


# ------------------------------------------------------------------ forms of a document

def without_analysis(doc: Any, reader_only: bool = True) -> Any:
    """A deep copy of an EGN document (or one deal, phase or line) without
    the analysis-only keys (:data:`ANALYSIS_KEYS`) and, with
    ``reader_only``, without :data:`READER_ONLY_KEYS`; nothing else changes."""
    drop = ANALYSIS_KEYS + (READER_ONLY_KEYS if reader_only else ())
    if isinstance(doc, dict):
        return {k: without_analysis(v, reader_only) for k, v in doc.items() if k not in drop}
    if isinstance(doc, list):
        return [without_analysis(v, reader_only) for v in doc]
    return copy.deepcopy(doc)


def clean_line(line: Any) -> Any:
    """An alternative line as read, without :data:`READER_ONLY_KEYS` (its
    notes are kept: a line is written back whole)."""
    if isinstance(line, dict):
        return {k: clean_line(v) for k, v in line.items() if k not in READER_ONLY_KEYS}
    if isinstance(line, list):
        return [clean_line(v) for v in line]
    return copy.deepcopy(line)


def variation_key(v: dict) -> str:
    """A short key of a variation: its position and a hash of its events,
    so that its kept form finds it again in a stored game's annotation
    stream (whose order and ids may differ from the record's)."""
    from euchre_events.events import Event
    evs = [e.to_dict() if isinstance(e, Event) else e for e in v.get("events", [])]
    blob = json.dumps([v.get("position"), evs], sort_keys=True, default=list)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


class KeptNotes:
    """The ``"notes"`` of a residue, to be taken one by one by the writer:
    :meth:`take` gives where and how to write an annotation of the stream
    that was read so (``(deal index, kind, index, label)``), :meth:`left`
    the notes the reader left out (no position)."""

    def __init__(self, entries: Iterable = ()):
        self.by_note: dict = {}
        self.unplaced: list = []
        for e in entries or ():
            try:
                pos, di, kind, idx, label = e
            except (TypeError, ValueError):
                continue
            # a source is data from a file (a text record's Source.egn tag): take only what fits
            if (not (pos is None or type(pos) is int) or type(di) is not int or type(idx) is not int
                    or kind not in ("call", "play") or not isinstance(label, str) or idx < 0):
                continue
            if pos is None:
                self.unplaced.append((di, kind, idx, label))
                continue
            text, mark = split_annotation(str(label))
            self.by_note.setdefault((pos, text, mark), []).append((di, kind, idx, label))

    def take(self, a: dict) -> Optional[tuple]:
        got = self.by_note.get((a.get("position"), str(a.get("text", "")), a.get("mark") or None))
        return got.pop(0) if got else None
