"""A compile cache for the methods :mod:`dataclasses` writes for this
package's classes, kept next to the package's bytecode (issue 21 "Speed").

:mod:`dataclasses` makes a class's ``__init__``, ``__repr__``, ``__eq__``,
``__hash__`` and frozen ``__setattr__``/``__delattr__`` by writing their
source text and running it with ``exec``: the text is parsed and compiled
at every start of the interpreter (177 texts, about a third of the imports
of an ``analyze``), where a module's own code is read back from its
``.pyc``.  This module does the same for those texts: the name ``exec`` of
the :mod:`dataclasses` module (a module's global is found before the
builtin) is :func:`_exec`, which runs the code object compiled earlier from
the same text, or compiles it (as ``exec`` does: file name ``"<string>"``,
no ``__future__`` flags) and keeps it.  The classes, their methods, the
methods' names and behaviour are the same; only the parsing and compiling
is skipped.

Only the texts run in a module of this package are kept (another
package's or a notebook's dataclasses are compiled as usual): the
``globals`` that :mod:`dataclasses` passes are those of the class's module.

The file: ``__pycache__/dataclass-code.<cache tag>.marshal`` in the
package's folder (where Python writes the package's ``.pyc``, under
``sys.pycache_prefix`` if it is set; ``.opt-1`` or ``.opt-2`` before
``.marshal`` under ``-O`` or ``-OO``, as a ``.pyc``): the import system's magic number
(4 bytes), then a :mod:`marshal` dump of a dict from text to code object.
Another Python version has another cache tag, so another file; a file
whose magic number is not this interpreter's, or that cannot be read or
unmarshalled, counts as empty (its texts are compiled again).  A changed
dataclass writes a changed text, so it is a miss: no other invalidation is
needed (old texts stay until the file has :data:`_MOST` texts; then it is
written with this process's texts only).

It is written when texts were compiled that the file did not have: at
:func:`save`, called by :func:`euchre_events.options.end_process` before
its ``os._exit`` and at the interpreter's exit; not when
``sys.dont_write_bytecode`` is set (``-B``, ``PYTHONDONTWRITEBYTECODE``),
not where the folder cannot be written (an installed package in a
read-only place: the texts are then compiled at each start, as without
this cache), never with an error to the user.  Written atomically: a
temporary file in the same folder, then ``os.replace``; the texts of the
file as it is then are kept (another command may have added its own).
"""
import atexit
import dataclasses
import marshal
import os
import sys

try:        # the import system's own, loaded with the interpreter (importlib.util costs ~4 ms)
    from _frozen_importlib_external import MAGIC_NUMBER, cache_from_source
except ImportError:         # pragma: no cover - another implementation
    from importlib.util import MAGIC_NUMBER, cache_from_source

_MOST = 4096
"""Texts kept in the file at most (the package's own classes make a few
hundred): past it, the file is written with this process's texts only
(edits of a checkout's dataclasses leave their old texts behind)."""

_codes: dict = {}
"""Text -> its code object: read from the file, and the misses added."""

_path = None
"""The file (a str), or None where the implementation caches no bytecode."""

misses = 0
"""Texts compiled by this process (for the tests: 0 when the file had them all)."""

_unsaved = 0
"""Texts compiled since the file was last read or written."""


def _read(path: str) -> dict:
    """The file's dict of text -> code object; empty if the file is
    missing, unreadable, of another interpreter (magic number) or not
    such a dict."""
    try:
        with open(path, "rb") as file:
            data = file.read()
        if data[:len(MAGIC_NUMBER)] != MAGIC_NUMBER:
            return {}
        codes = marshal.loads(data[len(MAGIC_NUMBER):])
    except Exception:       # a corrupt or truncated file is an empty cache
        return {}
    code_type = type(_read.__code__)
    if type(codes) is not dict or not all(type(text) is str and type(code) is code_type
                                          for text, code in codes.items()):
        return {}
    return codes


def start(path=None) -> None:
    """Load the cache from ``path`` (default: the package's file, see the
    module's docstring) and have :mod:`dataclasses` use it.  Called once
    when the package is imported; a test may call it again with another
    path (the counts start again)."""
    global _codes, _path, misses, _unsaved
    if path is None:
        tag = sys.implementation.cache_tag
        if tag is None:         # no bytecode caching: nothing to keep either
            return
        # beside this module's .pyc (its folder, and its tag for -O and -OO)
        pyc = cache_from_source(os.path.abspath(__file__))
        name = os.path.basename(pyc).replace("_codecache.", "dataclass-code.", 1)
        path = os.path.join(os.path.dirname(pyc), name[:-len(".pyc")] + ".marshal")
    _path = path
    _codes = _read(path)
    misses = _unsaved = 0
    dataclasses.exec = _exec


def _exec(source, globals=None, locals=None, /):
    """``exec`` for :mod:`dataclasses`: a text run in a module of this
    package runs as its cached code object (compiled and kept the first
    time); anything else as ``exec`` runs it."""
    global misses, _unsaved
    if type(source) is str and globals is not None:
        name = globals.get("__name__")
        if type(name) is str and (name == "euchre_events" or name.startswith("euchre_events.")):
            code = _codes.get(source)
            if code is None:
                # dont_inherit: the flags of dataclasses (none), not of this module
                code = _codes[source] = compile(source, "<string>", "exec", dont_inherit=True)
                misses += 1
                _unsaved += 1
            source = code
    return exec(source, globals, locals)


def save() -> None:
    """Write the file if this process compiled texts it did not have
    (merged with the file's texts as it is now); nothing where bytecode is
    not written or the folder cannot be.  Never raises."""
    global _unsaved
    if not _unsaved or _path is None or sys.dont_write_bytecode:
        return
    _unsaved = 0
    temporary = f"{_path}.{os.getpid()}.tmp"
    try:
        codes = _read(_path)
        if len(codes) + len(_codes) > _MOST:
            codes = {}
        codes.update(_codes)
        data = MAGIC_NUMBER + marshal.dumps(codes)
        os.makedirs(os.path.dirname(_path), exist_ok=True)
        with open(temporary, "wb") as file:
            file.write(data)
        os.replace(temporary, _path)
    except Exception:       # read-only folder, full disk...: the cache is only a saving
        try:
            os.remove(temporary)
        except OSError:
            pass


start()
atexit.register(save)
