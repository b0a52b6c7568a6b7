"""The one writer of a command's output file (``-o PATH``): every report,
export and page goes through :class:`OutputFile` (issue 26, finding 2).

``-o PATH`` never changes what PATH is.  A PATH that exists and is not a
regular file (a named pipe, ``/dev/null``, ``/dev/stdout``, a terminal) is
written through, as it goes: renaming a file over it would put a plain file
in its place (as root, ``-o /dev/null`` replaced the system's).  A regular
file, or a name not there yet, is written whole or not at all: a temporary
file beside it, renamed over it when complete.  A symbolic link is followed:
the file it names is replaced, the link stays.
"""
from __future__ import annotations

import errno
import os
import stat
from typing import Optional, Union


class OutputFile:
    """``PATH`` opened for writing a command's output (text in UTF-8, or
    bytes with ``binary``), as the module says: written through when it is
    not a regular file, else to a temporary file renamed over it by
    :meth:`commit` (:meth:`discard` drops it).  As a context manager:
    committed at the end of the block, discarded on an exception.

    ``made``: True when a regular file is written (its name may be said
    after it; not after ``/dev/stdout``, whose report it would join).
    Raises ``OSError`` (``IsADirectoryError`` for a folder, the error of
    ``open`` or ``os.replace`` otherwise: a missing folder, no permission, a
    full disk); nothing is left behind then.
    """

    def __init__(self, path: str, binary: bool = False):
        self.path = path
        self.tmp: Optional[str] = None
        self.target: Optional[str] = None
        try:
            mode: Optional[int] = os.stat(path).st_mode       # through links: /dev/stdout names a pipe
        except FileNotFoundError:
            mode = None                                      # not there yet (or a link to nothing yet)
        if mode is not None and stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        kind = {"mode": "wb"} if binary else {"mode": "w", "encoding": "utf-8"}
        if mode is not None and not stat.S_ISREG(mode):
            self.f = open(path, **kind)                      # what it is stays: written as it goes
            return
        self.target = os.path.realpath(path)
        folder, name = os.path.split(self.target)
        while True:    # a fresh name beside the target (never another file's): renamed within one file system
            tmp = os.path.join(folder, f".{name}.{os.urandom(4).hex()}.part")   # secrets.token_hex(4), without importing secrets (start-up)
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)   # the umask applies
                break
            except FileExistsError:
                continue
        self.tmp = tmp
        try:
            if mode is not None:
                os.fchmod(fd, stat.S_IMODE(mode))            # the file replaced keeps its permissions
            self.f = os.fdopen(fd, **kind)
        except BaseException:
            os.close(fd)
            os.unlink(tmp)
            raise

    @property
    def made(self) -> bool:
        return self.target is not None

    def write(self, data: Union[str, bytes]) -> None:
        """Write ``data``; ``OSError`` when it cannot be written (then call :meth:`discard`)."""
        self.f.write(data)

    def commit(self) -> None:
        """Close, and rename the temporary file over the target; ``OSError``
        (the temporary file removed) when that fails."""
        try:
            self.f.close()
            if self.tmp is not None:
                os.replace(self.tmp, self.target)
                self.tmp = None
        except BaseException:
            self.discard()
            raise

    def discard(self) -> None:
        """Drop what was written (the temporary file); never raises."""
        try:
            self.f.close()
        except OSError:
            pass
        if self.tmp is not None:
            try:
                os.unlink(self.tmp)
            except OSError:
                pass
            self.tmp = None

    def __enter__(self) -> "OutputFile":
        return self

    def __exit__(self, kind, value, tb) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()


def write_output(path: str, data: Union[str, bytes]) -> bool:
    """Write ``data`` (text in UTF-8, or bytes) to ``path`` through
    :class:`OutputFile`; returns whether a regular file was written
    (:attr:`OutputFile.made`).  Raises ``OSError`` as :class:`OutputFile`."""
    with OutputFile(path, binary=isinstance(data, bytes)) as f:
        f.write(data)
    return f.made
