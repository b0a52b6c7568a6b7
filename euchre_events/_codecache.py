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
``.marshal`` under ``-O`` or ``-OO``, as a ``.pyc``): a header of 24 bytes
(the import system's magic number, 4 bytes; the size and the ``st_mtime_ns``
of this module's source, 8 bytes each, which an install or a reinstall
rewrites; the ``zlib.crc32`` of the rest, 4 bytes; all little-endian), then a
:mod:`marshal` dump of a dict from text to code object.  Another Python
version has another cache tag, so another file; a file whose magic number
or stamp is not this interpreter's and this install's, whose checksum does
not match (a damaged file that still unmarshals would run damaged
bytecode), or that cannot be read or unmarshalled, counts as empty (its
texts are compiled again, and it is written anew at :func:`save`).  A
changed dataclass writes a changed text, so it is a miss: no other
invalidation is needed.  Old texts stay until the file would hold more
than :data:`_MOST`; then it is written with the texts this process used
only (found or compiled).

It is written when texts were compiled that the file did not have, or
the file read held more than :data:`_MOST`: at
:func:`save`, called by :func:`euchre_events.options.end_process` before
its ``os._exit`` and at the interpreter's exit; not when
``sys.dont_write_bytecode`` is set (``-B``, ``PYTHONDONTWRITEBYTECODE``),
not where the folder cannot be written (an installed package in a
read-only place: the texts are then compiled at each start, as without
this cache), never with an error to the user.  Written atomically: a
temporary file in the same folder (created new, never through a link, mode
``0o644``), then ``os.replace``; the texts of the file as it is then are
kept.  It is best effort: two commands writing at once can lose the texts
of one of them (a later command compiles and adds them again); a temporary
file that a killed process left is removed by a later :func:`save` once
it is some minutes old.

``pip uninstall`` removes the files it installed and their ``.pyc``, not
this file: the package's folder stays behind with ``__pycache__`` in it,
to be removed by hand (``rm -r`` of the folder ``euchre_events`` in the
``Location`` that ``pip show euchre-events`` printed before the uninstall).
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
hundred): past it, the file is written with the texts this process used
only (edits of a checkout's dataclasses leave their old texts behind)."""

_STALE = 300
"""Seconds after which a temporary file of this cache is a leftover of a
killed process (a save takes milliseconds)."""

_codes: dict = {}
"""Text -> its code object: read from the file, and the misses added."""

_used: dict = {}
"""Text -> code object of the texts this process ran (found or compiled):
what is written when the file would pass :data:`_MOST`."""

_header = b""
"""The file's first 20 bytes: the magic number and this module's source's
stamp (set by :func:`start`)."""

_path = None
"""The file (a str), or None where the implementation caches no bytecode."""

misses = 0
"""Texts compiled by this process (for the tests: 0 when the file had them all)."""

_unsaved = 0
"""Texts compiled since the file was last read or written."""


def _stamp() -> bytes:
    """The magic number and the size and ``st_mtime_ns`` of this module's
    source (little-endian, 8 bytes each): 20 bytes, changed by a reinstall
    (one ``stat``); without the source, the magic number and 16 zero bytes."""
    try:
        st = os.stat(__file__)
        size, mtime = st.st_size, st.st_mtime_ns
    except (OSError, TypeError):
        size = mtime = 0
    return MAGIC_NUMBER + size.to_bytes(8, "little") + (mtime & (1 << 64) - 1).to_bytes(8, "little")


def _read(path: str) -> dict:
    """The file's dict of text -> code object; empty if the file is
    missing, unreadable, of another interpreter or install (the header's
    magic number and stamp), damaged (its checksum) or not such a dict."""
    try:
        with open(path, "rb") as file:
            data = file.read()
        n = len(_header)
        if len(data) < n + 4 or data[:n] != _header:
            return {}
        from zlib import crc32      # imported here: ~0.3 ms, only with a file to check
        if int.from_bytes(data[n:n + 4], "little") != crc32(memoryview(data)[n + 4:]):
            return {}
        codes = marshal.loads(memoryview(data)[n + 4:])
    except Exception:       # a corrupt or truncated file is an empty cache
        return {}
    code_type = type(_read.__code__)
    if type(codes) is not dict or not all(type(text) is str and type(code) is code_type
                                          for text, code in codes.items()):
        return {}
    return codes


def _dumps(codes: dict) -> bytes:
    """The file's bytes for ``codes`` (text -> code object): header, checksum, marshal dump."""
    from zlib import crc32
    data = marshal.dumps(codes)
    return _header + crc32(data).to_bytes(4, "little") + data


def start(path=None) -> None:
    """Load the cache from ``path`` (default: the package's file, see the
    module's docstring) and have :mod:`dataclasses` use it.  Called once
    when the package is imported; a test may call it again with another
    path (the counts start again)."""
    global _codes, _used, _header, _path, misses, _unsaved
    if path is None:
        tag = sys.implementation.cache_tag
        if tag is None:         # no bytecode caching: nothing to keep either
            return
        # beside this module's .pyc (its folder, and its tag for -O and -OO)
        pyc = cache_from_source(os.path.abspath(__file__))
        name = os.path.basename(pyc).replace("_codecache.", "dataclass-code.", 1)
        path = os.path.join(os.path.dirname(pyc), name[:-len(".pyc")] + ".marshal")
    _path = path
    _header = _stamp()
    _codes = _read(path)
    _used = {}
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
            _used[source] = source = code
    return exec(source, globals, locals)


def _remove_stale(folder: str, name: str) -> None:
    """Remove the temporary files of the cache file ``name`` in ``folder``
    (``<name>.<pid>.tmp``) older than :data:`_STALE` seconds: left by a
    process killed before its ``os.replace``.  Errors are ignored."""
    import time
    prefix, old = name + ".", time.time() - _STALE
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                pid = entry.name[len(prefix):-len(".tmp")]
                try:
                    if entry.name.startswith(prefix) and entry.name.endswith(".tmp") and pid.isdigit() \
                            and entry.stat(follow_symlinks=False).st_mtime < old:
                        os.remove(entry.path)       # a link itself, never its target
                except OSError:     # gone meanwhile, another owner's: the next one
                    pass
    except OSError:
        pass


def save() -> None:
    """Write the file if this process compiled texts it did not have, or
    read one of more than :data:`_MOST` texts: merged with the file's texts
    as it is now, or only the texts this process used where the merge would
    hold more than :data:`_MOST`; nothing where bytecode is not written or
    the folder cannot be.  Never raises."""
    global _unsaved
    if not (_unsaved or len(_codes) > _MOST) or _path is None or sys.dont_write_bytecode:
        return
    _unsaved = 0
    folder = os.path.dirname(_path)
    temporary = f"{_path}.{os.getpid()}.tmp"
    try:
        codes = _read(_path)
        if len(codes) + sum(text not in codes for text in _used) > _MOST:
            codes = {}
        codes.update(_used)
        data = _dumps(codes)
        os.makedirs(folder, exist_ok=True)
        _remove_stale(folder, os.path.basename(_path))
        # new (O_EXCL: never an existing file, nor through a planted link), with a
        # .pyc's mode whatever the umask; importlib's _write_atomic does the same
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(temporary, flags, 0o644)
    except Exception:       # read-only folder, a temporary file already there...: no saving
        return
    try:
        with open(fd, "wb") as file:
            file.write(data)
        os.replace(temporary, _path)
    except Exception:       # full disk...: the cache is only a saving
        try:
            os.remove(temporary)
        except OSError:
            pass


start()
atexit.register(save)
