"""The console of every command (issue 24: its own module): lines to the
terminal (:func:`echo`, :func:`say`, record text shown escaped), an error
line then ``SystemExit`` (:func:`fail`), a record's warnings (:func:`warn`),
the progress bar (:func:`progress`), a report to ``-o FILE`` or the
terminal (:func:`write_file`, :func:`emit_report`), and the refusal of an
``-o`` that names a file the command reads
(:func:`refuse_output_over_input`).

Without ``typer``: the command-line application (:mod:`euchre_events.cli`),
the audit's typer-free door (:mod:`euchre_events.batch`), ``analyze``
(:mod:`euchre_events.review`, :mod:`euchre_events.corpus`) and the audit
report's writer (:mod:`euchre_events.ui.auditreport`) all print through it.
"""
from __future__ import annotations

import os
import stat
import sys
from typing import List, Optional, Sequence

from euchre_events.events import printable
from euchre_events.formats import FORMATS, RecordError


def echo(text: str, err: bool = False, nl: bool = True) -> None:
    """Write ``text`` (and a newline) to stdout, or stderr with ``err``, and
    flush, as ``click.echo`` does for text."""
    f = sys.stderr if err else sys.stdout
    if f is None:
        return
    if nl:
        text += "\n"
    try:
        f.write(text)
        f.flush()
    except UnicodeEncodeError:   # a terminal that cannot show a name: escaped, not a traceback
        enc = f.encoding or "utf-8"
        f.write(text.encode(enc, "backslashreplace").decode(enc))
        f.flush()
    except BrokenPipeError:      # a reader that stopped reading: the caller ends quietly
        raise
    except OSError as e:         # a full disk behind stdout (> /dev/full)
        if err:
            raise
        sys.stderr.write(f"error: cannot write the report to the standard output: "
                         f"{e.strerror or e}\n")
        raise SystemExit(1) from None


def say(line: str, err: bool = False) -> None:
    """Print one line; control characters from records (a newline in a title,
    an escape sequence in a name) are shown escaped (ui.describe.printable)."""
    echo(printable(line), err=err)


def fail(msg: str, code: int = 1) -> None:
    say(f"error: {msg}", err=True)
    raise SystemExit(code)


def warn(path: str, rec) -> None:
    """Say each warning of the Record ``rec`` read from ``path``, with its
    line in a JSON Lines file (as its errors name it)."""
    for text in warning_lines(path, rec):
        say(text, err=True)


def warning_lines(path: str, rec) -> list:
    """The lines :func:`warn` says for ``rec`` (``warning: WHERE: ...``)."""
    line = (getattr(rec, "source", None) or {}).get("line") if path.lower().endswith(".jsonl") else None
    where = f"{path}, line {line}" if isinstance(line, int) else path
    return [f"warning: {where}: {w}" for w in getattr(rec, "warnings", ()) or ()]


def refuse_output_over_input(games: List[str], output: Optional[str], archive=None,
                             doing: str = "audited") -> None:
    """:func:`fail` when ``-o output`` names a file the command reads: one
    of the record files ``games`` (a folder among them: any file in it), or
    the archive ``archive`` (its SQLite file, or its ``-wal``, ``-shm`` or
    ``-journal`` beside it; a callable giving that path, or None, is asked
    only when ``output`` is an existing file, so that a command that names no
    existing file does not load the archive's store).  The report would
    replace what it is made from (issue 26: an audit, stats or export onto
    the archive left it with no game).

    Whatever the spelling (relative, ``./``, a symbolic link, a hard link),
    files are compared by device and inode (``os.stat`` through links).
    Only a regular file is compared: a pipe or a terminal is not replaced
    by a report (``audit /dev/stdin -o /dev/stdout`` reads and writes one
    terminal).  ``doing``: what is done with a record (``"audited"``,
    ``"exported"``), for the message."""
    if not output:
        return
    try:
        out = os.stat(output)
    except OSError:
        return                    # not there: it is no file read here
    if not stat.S_ISREG(out.st_mode):
        return
    key = (out.st_dev, out.st_ino)

    def same(path: str) -> bool:
        try:
            st = os.stat(path)
        except OSError:
            return False
        return (st.st_dev, st.st_ino) == key

    for item in games:
        if os.path.isdir(item):
            for folder, _, files in os.walk(item):
                for name in files:
                    if same(os.path.join(folder, name)):
                        fail(f"{output}: is the record {os.path.join(folder, name)} being {doing}: "
                             f"give -o another file")
        elif same(item):
            fail(f"{output}: is the record {item} being {doing}: give -o another file")
    if callable(archive):
        archive = archive()
    if archive and any(same(archive + tail) for tail in ("", "-wal", "-shm", "-journal")):
        fail(f"{output}: is the archive {archive} this command reads: give -o another file")


def progress(items, desc: str, total: Optional[int] = None):
    if items is not None and not sys.stderr.isatty():
        return items     # tqdm would draw nothing (disable=None): not imported
    from tqdm import tqdm
    return tqdm(items, desc=desc, total=total, file=sys.stderr, disable=None, leave=False)


def progress_bar(total: int, desc: str, *, show: Optional[bool] = None, least: int = 0, **tqdm_args):
    """A ``tqdm`` bar of ``total`` steps on stderr, or None where none is
    drawn: ``show`` False, or (``show`` None) stderr is no terminal or the
    job has fewer than ``least`` steps.  ``tqdm_args``: the bar's own
    settings (``leave``, ``initial``, ``unit``...)."""
    if show is False or (show is None and (not sys.stderr.isatty() or total < least)):
        return None
    from tqdm import tqdm
    return tqdm(total=total, desc=desc, file=sys.stderr, **tqdm_args)


def output_problem(output: str) -> Optional[str]:
    """Why ``-o output`` cannot be written where its path is concerned, in
    the words every command says it (after ``"OUTPUT: "``): ``"is a folder;
    give a file name with -o"``, ``"mb.bak is not a folder"`` (a part of the
    path is a file), ``"the folder /abs/dir does not exist"``; None when the
    path is fine (the write itself may still fail: rights, a full disk)."""
    if os.path.isdir(output):
        return "is a folder; give a file name with -o"
    folder = os.path.dirname(output)
    part = folder
    while part and not os.path.lexists(part):      # the nearest part of the path that is there
        up = os.path.dirname(part)
        part = "" if up == part else up
    if part and not os.path.isdir(part):
        return f"{part} is not a folder"
    if folder and not os.path.isdir(folder):
        return f"the folder {os.path.abspath(folder)} does not exist"
    return None


def write_error(output: str, e: OSError) -> str:
    """The error line of a failed write of ``-o output``: what
    :func:`output_problem` says where the path is the cause, else the
    system's words (``"cannot write: No space left on device"``)."""
    return f"{output}: {output_problem(output) or f'cannot write: {e.strerror or e}'}"


def write_file(output: str, text) -> bool:
    """Write ``text`` (ending in a newline; bytes as they are) to the file
    ``output`` through the one writer of ``-o``
    (:class:`euchre_events.formats.output.OutputFile`: whole or not at
    all, a link or a pipe kept); a file that cannot be written is one error
    line naming it (:func:`fail`).  Returns whether a regular file was
    written (its name is then said; not after ``/dev/stdout``, into the
    output itself)."""
    from euchre_events.formats.output import write_output
    if isinstance(text, str) and not text.endswith("\n"):
        text += "\n"
    try:
        return write_output(output, text)
    except OSError as e:
        fail(write_error(output, e))
        return False


def emit_report(text: str, report: str, output: Optional[str]) -> None:
    """Write a report to ``output`` (then print its name), else print it:
    text line by line through :func:`say` (record text shown escaped),
    JSON as it is; nothing for an empty report.  Exits 1 (:func:`fail`)
    when the standard output is closed: the report would be lost."""
    if output:
        if write_file(output, text):
            say(output)
        return
    if text:
        need_stdout()
    if text and report == "text":
        for line in text.split("\n"):
            say(line)
    elif text:
        echo(text)


def need_stdout() -> None:
    """:func:`fail` when the process was started with its standard output
    closed (``>&-``: ``sys.stdout`` is None): a report printed there would be
    lost without a word, as ``> /dev/full`` is not (:func:`echo`)."""
    if sys.stdout is None:
        fail("cannot write the report to the standard output: it is closed (give -o FILE)")


MAX_WORKERS = 32
"""Most worker processes a command starts, whatever ``--workers`` or
``$EUCHRE_EVENTS_WORKERS`` asks (each is a copy of this process: a typo of
a few zeros must not fork thousands), unless the command gives its own
bound (``analyze``: its option's)."""


def choose_workers(asked: Optional[int], big: bool, most: int = MAX_WORKERS) -> int:
    """How many processes a batch command (``audit``, ``analyze``) runs:
    ``asked`` (``--workers``), else ``$EUCHRE_EVENTS_WORKERS`` (a warning
    and the default where it is not a number of processes: not digits, or
    0), either at most ``most`` (a warning above it), else the cores this
    process may use (at most 4) where the job is ``big`` (enough work that
    a second process pays for its start, some 3 ms), else 1.  Returns an
    int of at least 1."""
    what = "--workers"
    if asked is None:
        env = os.environ.get("EUCHRE_EVENTS_WORKERS", "").strip()
        asked = int(env) if env.isascii() and env.isdigit() and int(env) > 0 else None
        what = f"EUCHRE_EVENTS_WORKERS={env}"
        if env and asked is None:
            say(f"warning: EUCHRE_EVENTS_WORKERS={env!r} is not a number of processes: "
                "the default is used", err=True)
    if asked is not None:
        if asked > most:
            say(f"warning: {what}: at most {most} processes are started", err=True)
            return most
        return max(1, asked)
    if not big:
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, 4))


def end_with(pid: int, every: float = 0.5) -> None:
    """In a worker process: end this process (``os._exit(1)``) within
    ``every`` seconds of the command's process ``pid`` ending, even killed.
    A SIGKILLed command cannot stop its workers, and they would go on: a
    pool's wait for tasks forever (each holds its task queue's writing end,
    and a ``forkserver`` lives as long as they do; on PostgreSQL each kept
    its connections open), a forked reader to the end of its part of the
    files.  A daemon thread looks every ``every`` seconds: where ``pid`` is
    this process's parent (a forked worker), whether it still is (an orphan
    is given another parent: no pid reused fools it); otherwise (a
    forkserver's worker) whether ``pid`` is there and not a zombie, a pid
    this user may not signal counting as gone (the workers run as the
    command's user: the pid was taken again by another's process)."""
    import threading
    import time
    child = os.getppid() == pid

    def gone() -> bool:
        if child:
            return os.getppid() != pid
        try:
            os.kill(pid, 0)
        except OSError:     # no such process, or another user's that took its pid
            return True
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                return f.read().rsplit(b")", 1)[1].split()[0] == b"Z"
        except (OSError, IndexError):
            return False

    def watch() -> None:
        while True:
            time.sleep(every)
            if gone():
                os._exit(1)

    threading.Thread(target=watch, name=f"end-with-{pid}", daemon=True).start()


def short_error(e: Exception) -> str:
    """``Kind: first line`` of an exception, for an error line."""
    return f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"


DB_HELP = ("SQLite archive file or PostgreSQL URL (postgresql://user:password@host:port/dbname); "
           "given, it wins over PERSISTENCE_MODULE (default: the PostgreSQL archive "
           "PERSISTENCE_MODULE names, else $EUCHRE_EVENTS_DB, a file or a URL, "
           "else ./euchre-events.sqlite).")
"""The help of ``--db``, every command's."""

FROM_HELP = f"Format of record files: {', '.join(FORMATS)}."
"""The help of ``--from`` of a command that reads record files."""


def open_archive(db: Optional[str], create: bool = False):
    """The archive; a ``--db`` file that does not exist is an error except
    when importing (a typo must not silently give an empty archive)."""
    from euchre_events.archive import Archive, ArchiveError, sqlite_file
    # an explicit --db wins over PERSISTENCE_MODULE (archive.sqlite_file);
    # $EUCHRE_EVENTS_DB or the default file only when no store is configured
    try:
        path = sqlite_file(db)     # None for PostgreSQL (a URL, or the library's variables)
    except ArchiveError as e:      # a misspelled URL scheme (postgressql://...)
        fail(f"cannot open the archive: {e}")
    named = (db or os.environ.get("EUCHRE_EVENTS_DB")) if path else None
    if path and not create and not os.path.exists(path):
        # the default file too: a director in the wrong folder is told, not given an empty archive
        fail(f"{path}: no such archive file (import a record first)"
              + ("" if named else ", or give --db FILE"))
    if path and os.path.isdir(path):
        fail(f"{path}: is a folder, not an archive file")
    try:
        return Archive(db)
    except ArchiveError as e:  # PostgreSQL: refused, unknown database, authentication...
        fail(f"cannot open the archive: {e}")
    except Exception as e:  # a file that is not SQLite, a server that does not answer...
        hint = ""
        if path and os.path.exists(path) and "unable to open database file" in str(e):
            hint = (f"; SQLite writes its journal (-wal and -shm files) beside the archive, so the "
                    f"folder {os.path.dirname(os.path.abspath(path))} must be writable: copy the "
                    f"archive to a folder you can write to")
        fail(f"{path or 'the archive'}: cannot open the archive: {type(e).__name__}: {e}{hint}")






def archive_file(db: Optional[str]) -> Optional[str]:
    """The SQLite file of the archive ``--db`` names (or the environment, or
    the default), for :func:`refuse_output_over_input`; None for PostgreSQL
    or a URL that cannot be read (:func:`open_archive` says why, if it is opened)."""
    from euchre_events.archive import ArchiveError, sqlite_file
    try:
        return sqlite_file(db)
    except ArchiveError:
        return None


def read_file(path: str, from_: Optional[str], keep: bool = True):
    """(records, errors) of a file; errors are RecordErrors (one per bad game
    of a match file, or one for the file).  ``keep=False``: without what
    only writing an EGN game back as read needs (``audit``)."""
    from euchre_events import formats
    if os.path.isdir(path):
        return [], [RecordError(path, "is a folder, not a record file")]
    if not os.path.exists(path):
        return [], [RecordError(path, "no such file")]
    reader = getattr(formats, "read_records_partial", None)
    try:
        if reader is not None:
            return reader(path, from_, keep=keep)
        return formats.read_records(path, from_), []
    except Exception as e:  # a reader's defect must not stop a batch of files
        return [], [reading_error(path, e)]


def reading_error(path: str, e: Exception):
    """The RecordError :func:`read_file` gives for a file whose reading
    raised ``e`` (``e`` itself when it is one)."""
    if isinstance(e, RecordError):
        return e
    if isinstance(e, OSError):
        return RecordError(path, f"cannot read the file: {e.strerror or e}")
    if isinstance(e, UnicodeDecodeError):
        return RecordError(path, f"not a text file (UTF-8 expected): {e.reason}")
    return RecordError(path, f"could not be read ({type(e).__name__}: {str(e)[:200]}); nothing of it was stored")


def report_format(report: str, output: Optional[str],
                  formats: Sequence[str] = ("text", "json", "html")) -> str:
    """``--format`` of a report command (``audit``, ``stats``): one of
    ``formats`` (the command's, from its options table: ``audit`` adds
    jsonl), lower case; html needs ``-o FILE`` (a page is no text for a
    terminal).  Anything else is a one-line error listing ``formats``."""
    report = report.lower()
    if report not in formats:
        fail(f"--format {report}: expected {', '.join(formats[:-1])} or {formats[-1]}")
    if report == "html" and not output:
        fail("--format html needs -o FILE")
    return report
