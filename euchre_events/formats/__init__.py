"""Reading and writing game records: EGN/EMN, OpenSpiel histories, our text notation.

Every reader turns a file into :class:`Record` objects (events plus the
record's annotations and alternative lines) by driving one
:class:`~euchre_events.formats.builder.RecordBuilder` per game, as
``chess.pgn`` readers drive a visitor: the builder validates each game by
folding it with the engine, so an impossible record fails here, with a
:class:`RecordError` naming the file, deal, event and reason, before anything
is stored.  Writers walk the events (folded into a Game where they need the
table).

What every reader does the same way:

* the file's bytes: :func:`read_record_text` (unreadable, not a regular
  file, over :data:`MAX_RECORD_BYTES`, not UTF-8, NUL bytes, empty ->
  :class:`RecordError` naming the file); a file with no game is
  ``"... holds no game"``;
* ``GameStarted.initial_score`` is always a tuple (:func:`with_initial_score`:
  the variant's initial scores when the file says nothing), done by the builder;
* a record that stops in the middle of a deal is kept, with the warning of
  :func:`incomplete_warning`, given by the builder;
* variations hold only :data:`VARIATION_KEYS`.

Modules: :mod:`.builder` (the record builder), :mod:`.egn` (EGN/EMN, a
package), :mod:`.text`, :mod:`.jsonfmt`, :mod:`.openspiel`.

:func:`read_records` reads a file whole; :func:`read_records_partial` keeps
the good games of a match file with a bad one.
"""
from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple, Optional

from euchre_events.events import clip

MAX_DEPTH = 100
"""Deepest nesting of lists and objects a record may have (an EGN file needs
about 10, our JSON 2 per level of nested alternative lines): deeper is
refused before anything walks it, so no reader meets a ``RecursionError``."""
MAX_DIGITS = 30
"""Most digits of a whole number in a record (seats, deal numbers, scores
need a few): a longer one is refused before Python converts it (``int()``
refuses more than 4,300 digits, ``float()`` overflows)."""
MAX_RECORD_BYTES = 8 * 1024 * 1024
"""Most bytes of a record file read whole, and of a member of a zip or tar
archive unpacked (issue 26: a 400 KB zip with one 400 MB member took 1.24 GB):
the EGN format's own cap on a file (8 MiB, binary-format.md "Validation and
Safety Limits"; :data:`euchre_events.formats.egn.binary.MAX_BYTES` is this
number), some 400 tournament games in one match file.  A larger file is
refused before it is read (:func:`read_record_bytes`); an OpenSpiel JSON
Lines file given by name is read line by line and has no such limit."""
MAX_REASON = 1000
"""Longest reason a :class:`RecordError` repeats: a hostile value quoted in
it is clipped (a 50 MB string must not be printed back whole)."""


class RecordError(ValueError):
    """A record that cannot be read or cannot have happened.

    ``file``, ``deal`` (number from 1, or None), ``event`` (the event's
    number from 1, as ``show --after`` and the engine count, or a
    description that starts with it: ``"14 (CardPlayed)"``), ``reason``;
    ``str()`` names them all.
    """

    def __init__(self, file: str, reason: str, deal: Optional[int] = None,
                 event: Optional[object] = None, line: Optional[int] = None,
                 column: Optional[int] = None):
        if len(reason) > MAX_REASON:   # keep its start and its end, which say what is wrong
            reason = (reason[:MAX_REASON // 2] + f" ... ({len(reason) - MAX_REASON} characters "
                      "left out) ... " + reason[-MAX_REASON // 2:])
        event = clip(event, 200) if isinstance(event, str) else event
        self.file, self.reason, self.deal, self.event = file, reason, deal, event
        self.line, self.column = line, column
        parts = [str(file)]
        if line is not None:
            parts.append(f"line {line}" + (f", column {column}" if column is not None else ""))
        if deal is not None:
            parts.append(f"deal {deal}")
        if event is not None:
            # a number counts the whole game's events, as show --after does without --deal:
            # "game event 44" (the viewer's words), never read as the 44th of deal 2
            parts.append(f"game event {event}" if str(event)[:1].isdigit() else f"event {event}")
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
    score if it gives one; ``game``: the validated
    :class:`~euchre_events.projections.Game` of ``events`` the reader folded
    (None when it made none), so that no later step folds the record again;
    not compared, and not copied by ``dataclasses.replace`` (a replaced
    record has other events).
    """

    events: list
    annotations: list = field(default_factory=list)
    variations: list = field(default_factory=list)
    source: dict = field(default_factory=dict)
    warnings: list = field(default_factory=list)
    stated_final_score: Optional[list] = None
    game: Any = field(default=None, init=False, compare=False, repr=False)

    @property
    def title(self) -> str:
        return self.events[0].title if self.events else ""


class Exported(NamedTuple):
    """What every writer of :data:`FORMAT_TABLE` returns (none writes a
    file): ``data``, the record (``str``, or ``bytes`` for a binary format),
    and ``lost``, the warnings of what the format could not hold (words)."""

    data: Any
    lost: list


@dataclass(frozen=True)
class Format:
    """One record format of :data:`FORMAT_TABLE`.

    * ``name``: as ``--from`` / ``export --format`` say it;
    * ``suffixes``: file name endings that mean this format (lower case);
    * ``read``: ``path -> [Record]`` (raises :class:`RecordError`), or None
      for a format only written;
    * ``read_partial``: ``(path, keep) -> (records, errors)`` for a format
      read game by game or line by line, or None (read whole);
    * ``write``: ``(events, annotations, variations, with_derived) ->``
      :class:`Exported` for one game (raises ``ValueError`` for a game the
      format cannot hold), or None for a format not written one game at a
      time (OpenSpiel; EMN writes a match: :func:`write_emn_match`);
    * ``title``: the format in an error message (``"EGN"``);
    * ``binary``: the writer gives bytes (written only with ``-o``).
    """

    name: str
    suffixes: tuple = ()
    read: Optional[Callable] = None
    read_partial: Optional[Callable] = None
    write: Optional[Callable] = None
    title: str = ""
    binary: bool = False


def _read_egn(path):
    from euchre_events.formats.egn import read_egn_file
    return read_egn_file(path)


def _read_egn_partial(path, keep=True):
    from euchre_events.formats.egn import read_egn_file_partial
    return read_egn_file_partial(path, keep=keep)


def _read_egnb(path):
    from euchre_events.formats.egn import read_egnb_file
    return read_egnb_file(path)


def _read_openspiel(path):
    from euchre_events.formats.openspiel import read_openspiel_file
    return read_openspiel_file(path)


def _read_openspiel_partial(path, keep=True):
    from euchre_events.formats.openspiel import iter_openspiel_file
    records, errors = [], []
    for r in iter_openspiel_file(path):
        (errors if isinstance(r, RecordError) else records).append(r)
    return records, errors


def _read_text(path):
    from euchre_events.formats.text import read_text_file
    return read_text_file(path)


def _read_json(path):
    from euchre_events.formats.jsonfmt import read_json_file
    return read_json_file(path)


def _write_egn(events, notes, variations, with_derived=False) -> Exported:
    from euchre_events.formats.egn.read import reads_back_to
    from euchre_events.formats.egn.write import KEPT_UNKNOWN, egn_to_json, schema_form, write_egn
    lost: list = []
    doc = write_egn(events, notes, variations=variations, warnings=lost,
                    with_derived=with_derived, check=reads_back_to(events))
    lost += [KEPT_UNKNOWN + w for w in schema_form(doc)[1]]
    return Exported(egn_to_json(doc), lost)


def _egnb_writer(expanded: bool) -> Callable:
    def write(events, notes, variations, with_derived=False) -> Exported:
        from euchre_events.formats.egn import write_egnb
        from euchre_events.formats.egn.read import reads_back_to
        lost: list = []
        data = write_egnb(events, notes, variations, expanded=expanded, warnings=lost,
                          with_derived=with_derived, check=reads_back_to(events))
        return Exported(data, lost)
    return write


def _write_text(events, notes, variations, with_derived=False) -> Exported:
    from euchre_events.formats.text import write_text
    return Exported(write_text(events, notes, variations), [])


def _write_json(events, notes, variations, with_derived=False) -> Exported:
    from euchre_events.formats.jsonfmt import write_json
    return Exported(write_json(events, notes, variations), [])


def write_emn_match(items: list, with_derived: bool = False) -> Exported:
    """Several games as one EMN match: ``items`` is ``[(events,
    annotations, variations)]`` in match order.  Raises ``ValueError`` for
    games EMN cannot hold."""
    from euchre_events.formats.egn.read import reads_back_to
    from euchre_events.formats.egn.write import emn_to_json, write_emn
    lost: list = []
    doc = write_emn(items, lost, with_derived=with_derived,
                    checks=[reads_back_to(evs) for evs, _, _ in items])
    return Exported(emn_to_json(doc), lost)


FORMAT_TABLE: dict = {f.name: f for f in (
    Format("egn", (".egn",), _read_egn, _read_egn_partial, _write_egn, "EGN"),
    Format("egnb", (".egnb",), _read_egnb, None, _egnb_writer(False), "egnb", binary=True),
    Format("egnb-expanded", (), None, None, _egnb_writer(True), "egnb-expanded", binary=True),
    Format("emn", (".emn",), _read_egn, _read_egn_partial, None, "EMN"),
    Format("openspiel", (".jsonl",), _read_openspiel, _read_openspiel_partial, None, "OpenSpiel"),
    Format("text", (".euchre", ".txt", ".text"), _read_text, None, _write_text, "text"),
    Format("json", (".eej",), _read_json, None, _write_json, "JSON"),
)}
"""The one table of record formats (issue 24): ``name -> Format`` (suffixes,
reader, partial reader, writer).  Detection (:func:`detect_format`), reading
(:func:`read_records`, :func:`read_records_partial`), ``export`` and the
commands' help all read it: a new format is one entry here (and its module).
A ``.json`` file is looked into (:func:`sniff_json`)."""

FORMATS = tuple(n for n, f in FORMAT_TABLE.items() if f.read is not None)
"""The formats read (``--from``): ``("egn", "egnb", "emn", "openspiel", "text", "json")``."""
WRITTEN = tuple(n for n, f in FORMAT_TABLE.items() if f.write is not None or n == "emn")
"""The formats ``export`` writes (``emn``: several games as one match)."""

VARIATION_KEYS = ("position", "events", "annotations", "comment", "variations")
"""The keys of a :class:`Record` variation dict (``variations``: nested lines,
which only the text notation and our JSON hold)."""



_SUFFIX_FORMATS = {x: n for n, f in FORMAT_TABLE.items() for x in f.suffixes}
RECORD_SUFFIXES = tuple(_SUFFIX_FORMATS) + (".json",)  # .expanded.egnb ends so too
"""Names ending so are record files, never game ids: the suffixes
:func:`detect_format` knows (``.json`` is looked into)."""


def detect_format(path: str, fmt: Optional[str] = None) -> str:
    """The format of ``path``: ``fmt`` if given (any case: ``"EGN"`` is
    ``"egn"``), else from the extension.

    ``.egn`` -> egn, ``.egnb`` (condensed or ``.expanded.egnb``) -> egnb, ``.emn`` -> emn, ``.jsonl`` -> openspiel, ``.euchre``/``.txt``/``.text``
    -> text, ``.eej`` -> json (our own export).  A ``.json`` file is looked
    into (:func:`sniff_json`): ``{"format": "euchre-events", ...}`` (or an
    array of such objects) is our JSON, a ``fileType`` of EMN is emn, anything
    else egn (whose reader then says what the file is not).  Raises
    :class:`RecordError` for an unknown ``fmt`` or extension.
    """
    if fmt:
        f = str(fmt).strip().lower()
        if f not in FORMATS:
            raise RecordError(path, f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
        return f
    ext = os.path.splitext(path)[1].lower()
    if ext == ".json":
        return sniff_json(path)
    if ext in _SUFFIX_FORMATS:
        return _SUFFIX_FORMATS[ext]
    raise RecordError(path, f"cannot tell the format from the extension {ext!r}; use --from")


def sniff_json(path: str) -> str:
    """The format of a ``.json`` file, from what it holds: ``"json"`` for our
    export (``"format": "euchre-events"``, or an array whose first item says
    so), ``"emn"`` for ``"fileType": "Euchre Match Notation"``, else ``"egn"``
    (also when the file cannot be read or is not JSON: the EGN reader then
    raises the :class:`RecordError`).  Reads the whole file."""
    try:
        doc = load_json(read_record_text(path), path)
    except RecordError:
        return "egn"
    first = doc[0] if isinstance(doc, list) and doc else doc
    if isinstance(first, dict):
        if first.get("format") == "euchre-events":
            return "json"
        if first.get("fileType") == "Euchre Match Notation":
            return "emn"
    return "egn"


class sigint_held:
    """``with sigint_held():`` SIGINT blocked for the block (where the
    signal module allows it).  A Ctrl-C while msgspec is imported or builds
    its types (the Struct classes of a fast path, their decoder) can leave
    them half made (msgspec 0.23 loses the KeyboardInterrupt there), and the
    process then crashes with a segmentation fault: seen in about one start
    in twenty interrupted at that moment, none in 200 with the signal held.
    Held back, it is raised right after the block, a plain
    KeyboardInterrupt; one already due is raised on entry, before msgspec
    is called."""

    def __enter__(self):
        import signal
        self.mask = getattr(signal, "pthread_sigmask", None)
        if self.mask is not None:
            self.old = self.mask(signal.SIG_BLOCK, {signal.SIGINT})
            try:
                for _ in range(2):   # a loop's jump runs a handler already due: here, not in msgspec
                    pass
            except BaseException:
                self.mask(signal.SIG_SETMASK, self.old)
                raise
        return self

    def __exit__(self, *exc) -> None:
        if self.mask is not None:
            import signal
            self.mask(signal.SIG_SETMASK, self.old)


class _BadNumber(Exception):
    """A JSON number a record cannot hold (raised inside ``json.loads``)."""


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _BadNumber(f"the number {clip(text, 40)} has {len(text.lstrip('-'))} digits; "
                         f"a record holds no number of more than {MAX_DIGITS}")
    return int(text)


def _json_float(text: str) -> float:
    import math
    value = float(text) if len(text) <= 400 else math.inf
    if not math.isfinite(value):
        raise _BadNumber(f"the number {clip(text, 40)} is too large")
    return value


def _json_constant(text: str) -> Any:
    raise _BadNumber(f"{text} is not a number a record can hold (nor JSON)")


def load_json(text: str, path: str, line: Optional[int] = None, what: str = "not JSON") -> Any:
    """The JSON value of ``text`` (a record file, or one line of one: ``line``).

    Stricter than ``json.loads``, so that no reader meets a value it cannot
    handle: ``NaN``/``Infinity``, a float that overflows (``1e309``) and a
    whole number of more than :data:`MAX_DIGITS` digits are refused, and so
    is nesting deeper than :data:`MAX_DEPTH`.  Raises :class:`RecordError`
    naming ``path`` (and ``line``, and the column for a syntax error):
    ``"<what>: Expecting value"`` for text that is not JSON.

    Decoded by ``msgspec`` (three times faster than ``json.loads``) where
    the text holds no number the strict hooks check: the same value as
    ``json.loads`` gives (tests/test_openspiel.py); what msgspec refuses (it
    also refuses ``NaN``, a lone surrogate and a BOM, which ``json.loads``
    reads) goes to ``json.loads``, which takes it or says why not.
    """
    import json
    # the strict number hooks cost a Python call per number (half the time of
    # reading an OpenSpiel file): take them only when the text holds a number
    # they could refuse (a long run of digits, a 3-digit exponent)
    data = text.encode("utf-8", "surrogatepass")   # scanned as bytes: C-speed translate and find
    strict = _risky_numbers(data)
    doc = _REFUSED if strict else _msgspec_decode(data)
    if doc is _REFUSED:
        try:
            if strict:
                doc = json.loads(text, parse_int=_json_int, parse_float=_json_float,
                                 parse_constant=_json_constant)
            else:
                doc = json.loads(text, parse_constant=_json_constant)
        except json.JSONDecodeError as e:
            # json says "Unterminated string starting at" and gives the place apart
            msg = e.msg[:-len(" starting at")] + " (it starts at the place named)" \
                if e.msg.endswith(" starting at") else e.msg
            if not text[e.pos:].strip(" \t\n\r") or msg.startswith("Unterminated"):   # JSON's whitespace only
                msg += "; the text ends before the JSON does: is the file cut off?"
            raise RecordError(path, f"{what}: {msg}", line=line if line is not None else e.lineno,
                              column=e.colno) from None
        except _BadNumber as e:
            raise RecordError(path, str(e), line=line) from None
        except RecursionError:
            raise RecordError(path, f"lists or objects nested deeper than {MAX_DEPTH} levels: "
                                    "not a record", line=line) from None
    if not (_shallow_bytes(data) if b"\\" not in data
            else text.count("[") + text.count("{") <= MAX_DEPTH or _shallow(text)):
        raise RecordError(path, f"lists or objects nested deeper than {MAX_DEPTH} levels: "
                                "not a record", line=line)
    return doc


_REFUSED = object()
_DECODE: Optional[Callable] = None


def _msgspec_decode(data: bytes) -> Any:
    """``msgspec.json.decode(data)``, or :data:`_REFUSED` where msgspec
    refuses the text (``json.loads`` then decides: it takes NaN, a lone
    surrogate, a BOM, or names the error)."""
    global _DECODE
    if _DECODE is None:
        with sigint_held():
            import msgspec
        _DECODE = msgspec.json.decode
    try:
        return _DECODE(data)
    except Exception:
        return _REFUSED


_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _shallow(text: str) -> bool:
    """True if the brackets of ``text`` (valid JSON) nest at most
    :data:`MAX_DEPTH` deep; strings are skipped whole.  Several times
    faster than walking the parsed value, which visits every number too."""
    depth = 0
    for m in _JSON_TOKENS.finditer(text):
        c = m.group()
        if c == "[" or c == "{":
            depth += 1
            if depth > MAX_DEPTH:
                return False
        elif c == "]" or c == "}":
            depth -= 1
    return True


_BRACKETS_ONLY = (bytes.maketrans(b"{}", b"[]"),
                  bytes(c for c in range(256) if c not in b'[]{}"'))
"""``bytes.translate`` arguments that keep only the brackets (``{}`` read as
``[]``: the text is valid JSON, so only the depth matters) and the quotes."""


def _shallow_bytes(data: bytes) -> bool:
    """:func:`_shallow` for the UTF-8 bytes of valid JSON holding no
    backslash (so no escaped quote): the same answer, in C-speed steps.

    Strings without brackets are dropped as ``""`` pairs; a string holding a
    bracket leaves a quote behind (some run of adjacent quotes has odd
    length) and the exact walk decides.  Then each ``replace`` of ``[]``
    removes exactly the innermost level."""
    s = data.translate(*_BRACKETS_ONLY)
    if len(s) <= MAX_DEPTH:                # too few brackets (and quotes) to nest deeper
        return True
    if b'"' in s:
        s = s.replace(b'""', b"")
        if b'"' in s:
            return _shallow(data.decode("utf-8", "surrogatepass"))
    for _ in range(MAX_DEPTH):
        if not s:
            return True
        s = s.replace(b"[]", b"")
    return not s


_NUMBER_SHAPES = bytes.maketrans(b"123456789E-", b"000000000e+")
_LONG_RUN = b"0" * (MAX_DIGITS + 1)


def _risky_numbers(data: bytes) -> bool:
    """True if ``data`` (UTF-8) may hold a number :func:`load_json` refuses:
    what :data:`_RISKY_NUMBER` finds, found with one ``translate`` (digits
    to ``0``, ``E`` to ``e``, ``-`` to ``+``) and three substring searches,
    several times faster than the regular expression on a long line."""
    t = data.translate(_NUMBER_SHAPES)
    return _LONG_RUN in t or b"e000" in t or b"e+000" in t


_RISKY_NUMBER = re.compile(r"\d{%d,}|[eE][+-]?\d{3,}" % (MAX_DIGITS + 1))
"""Text that may hold a number :func:`load_json` refuses (more than
:data:`MAX_DIGITS` digits, or an exponent that may overflow a float)."""


def schema_message(err: Any) -> str:
    """A ``jsonschema`` error's message for people: the value it quotes
    clipped (a 50 MB description is not repeated back), and a string or list
    that is too long says how long it is and what the limit is
    (``"'AAAA...' is too long (65 characters; at most 64)"``)."""
    inst = err.instance
    shown = clip(repr(inst), 60)
    if err.validator in ("maxLength", "maxItems") and isinstance(inst, (str, list)):
        unit = "characters" if isinstance(inst, str) else "items"
        shown = repr(inst[:40]) + "..." if len(inst) > 40 else repr(inst)
        return f"{shown} is too long ({len(inst)} {unit}; at most {err.validator_value})"
    text = err.message
    if len(text) <= 200:
        return text
    r = repr(inst)
    return text.replace(r, shown) if r in text else clip(text, 200)


_KINDS = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"))


def _not_regular(path: str, mode: int) -> Optional[RecordError]:
    """The error for ``path`` when ``mode`` is not a regular file's, else None."""
    if stat.S_ISREG(mode):
        return None
    kind = next((name for test, name in _KINDS if test(mode)), "not a file")
    return RecordError(path, f"not a regular file ({kind}): not read")


def open_record(path: str):
    """``path`` opened for reading bytes, when it is a regular file (through
    a symbolic link).  A named pipe (reading it waits for a writer, for ever
    if none comes), a device (``/dev/zero`` never ends), a socket or a folder
    is refused before anything is read (issue 26): it is opened without
    waiting (``O_NONBLOCK``) and looked at first.  Raises
    :class:`RecordError` naming the file: ``"not a regular file (a named
    pipe): not read"``, or ``"cannot read the file: ..."``."""
    try:
        bad = _not_regular(path, os.stat(path).st_mode)   # a socket cannot even be opened
        if bad is not None:
            raise bad
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise RecordError(path, f"cannot read the file: {e.strerror or e}") from None
    try:
        bad = _not_regular(path, os.fstat(fd).st_mode)    # what was opened, if the name changed since
        if bad is not None:
            raise bad
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_record_bytes(path: str, limit: Optional[int] = MAX_RECORD_BYTES) -> bytes:
    """The bytes of the regular file ``path`` (:func:`open_record`), at most
    ``limit`` of them (:data:`MAX_RECORD_BYTES`; None: no limit): a larger
    file is refused before it is read (``"9000000 bytes, more than the
    8388608 bytes a record may hold: not read"``), and one that grows while
    it is read is refused too.  Raises :class:`RecordError` naming the file."""
    with open_record(path) as f:
        try:
            size = os.fstat(f.fileno()).st_size
            if limit is not None and size > limit:
                raise RecordError(path, f"{size} bytes, more than the {limit} bytes a record may hold: "
                                        f"not read")
            if limit is None:
                data = f.read()
            else:
                # read what the file holds (not a buffer of the limit's size), then
                # whatever it grew by while being read, up to one byte past the limit
                data = f.read(min(size, limit) + 1)
                while len(data) <= limit:
                    more = f.read(min(1 << 20, limit + 1 - len(data)))
                    if not more:
                        break
                    data += more
        except OSError as e:
            raise RecordError(path, f"cannot read the file: {e.strerror or e}") from None
    if limit is not None and len(data) > limit:
        raise RecordError(path, f"more than the {limit} bytes a record may hold: not read")
    return data


def read_record_text(path: str, limit: Optional[int] = MAX_RECORD_BYTES) -> str:
    """The text of a record file (UTF-8, a leading byte-order mark dropped;
    UTF-16 when it starts with a UTF-16 byte-order mark, as Windows editors
    save "Unicode" text), read through :func:`read_record_bytes` (a regular
    file of at most ``limit`` bytes).

    Raises :class:`RecordError` naming the file when it cannot be read
    (missing, a folder, no permission, a named pipe or a device, more than
    ``limit`` bytes), is not UTF-8 text or holds NUL bytes (a binary file),
    or is empty or blank (``"the file is empty: it holds no game"``).
    """
    data = read_record_bytes(path, limit)
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            data = data.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError as e:
            raise RecordError(path, f"not a text record: it starts as UTF-16 text, but its bytes at "
                                    f"offset {e.start} are not UTF-16 (save it as UTF-8)") from None
    if b"\x00" in data:
        raise RecordError(path, f"not a text record: it holds a NUL byte at offset "
                                f"{data.index(0)} (a binary file?)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RecordError(path, f"not a text record: byte 0x{data[e.start]:02x} at offset {e.start} "
                                "is not UTF-8 (a binary file, or text in another encoding: "
                                "save it as UTF-8)") from None
    if not text.strip():
        raise RecordError(path, "the file is empty: it holds no game")
    return text


def no_game_error(path: str) -> RecordError:
    """The error for a file that holds no game (``"the file holds no game"``)."""
    return RecordError(path, "the file holds no game")


def incomplete_warning(game: "object") -> Optional[str]:
    """A warning for a record that stops in the middle of a deal, else None.

    ``game``: a :class:`~euchre_events.projections.Game` (or a folded
    :class:`~euchre_events.engine.Table`).  The last deal is unfinished when
    not all its tricks were played and it was not thrown in (the table is
    neither between deals nor at the game's end): ``"the record stops in the
    middle of deal 2 (after event 37)"``, event 37 being the last event's
    number (from 1, as ``show --after`` counts).  Such a fragment is still a valid game.
    """
    t = getattr(game, "final", game)
    if t.phase in ("start", "deal", "deal_over", "game_over"):
        return None
    return f"the record stops in the middle of deal {t.deal_no} (after event {t.pos})"


def with_initial_score(events: list) -> list:
    """``events`` with the GameStarted's ``initial_score`` always a tuple.

    A file that states no initial score starts from the variant's own
    (:func:`euchre_events.rules.registry.complete_start`), so every format
    reads the same game the same way.  Returns the list unchanged when the
    variant or its options are unknown (validation reports that).
    """
    import dataclasses
    if not events or getattr(events[0], "kind", None) != "GameStarted":
        return events
    start = events[0]
    init = tuple(start.initial_score) if start.initial_score else default_initial_score(start)
    if init is None or start.initial_score == init:
        return events
    return [dataclasses.replace(start, initial_score=init)] + list(events[1:])


def read_records(path: str, fmt: Optional[str] = None) -> list:
    """All games in a file as :class:`Record` objects, each already validated.

    ``fmt``: a name of :data:`FORMATS` (any case) or None (see
    :func:`detect_format`).  Raises :class:`RecordError` for a file that
    cannot be read, is not text, holds no game, is not a record, breaks the
    schema, or describes something impossible (the first bad game of a match
    refuses the file: :func:`read_records_partial` keeps the others).
    """
    return FORMAT_TABLE[detect_format(path, fmt)].read(path)


def validate_events(path: str, events: list) -> "object":
    """Fold ``events`` with the engine; return the :class:`~euchre_events.projections.Game`.

    Raises :class:`RecordError` (file, deal, event index and kind, reason) if
    the record is impossible: the builder's own check
    (:func:`euchre_events.formats.builder.fold_game`).
    """
    from euchre_events.formats.builder import fold_game
    return fold_game(path, events)


def default_initial_score(start: "object") -> Optional[tuple]:
    """The initial score a game of ``start``'s variant and options begins with
    when its record states none (rules.md: 0 per side in most variants), or
    None when the variant or its options are unknown."""
    import dataclasses
    from euchre_events.rules.registry import complete_start
    try:
        return complete_start(dataclasses.replace(start, initial_score=None)).initial_score
    except (KeyError, ValueError, TypeError):
        return None


def read_records_partial(path: str, fmt: Optional[str] = None, keep: bool = True) -> tuple:
    """``(records, errors)``: the good games of a file and a
    :class:`RecordError` per bad one.  ``keep=False``: an EGN or EMN game
    is read without what only writing it back as read needs (an audit).

    An EMN match file is read game by game: a bad game becomes an error
    naming the file and ``game N``, the good ones are returned; an OpenSpiel
    JSON Lines file line by line (a bad line is an error naming its line,
    the other games are returned).  Any other format is read whole: ``(read_records(path, fmt), [])`` on success,
    ``([], [error])`` on failure (also when the file cannot be read or its
    format cannot be told).  Never raises :class:`RecordError`.
    """
    try:
        f = FORMAT_TABLE[detect_format(path, fmt)]
        if f.read_partial is not None:
            return f.read_partial(path, keep)
        return f.read(path), []
    except RecordError as e:
        return [], [e]
