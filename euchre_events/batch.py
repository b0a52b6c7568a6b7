"""The audit as a batch, without the command-line library (issue 11
"Speed"): the report written as the games are audited
(:class:`AuditReport`), the texts of the games the fast path reads
(:func:`fast_game_jsonl`, :func:`fast_game_json_text`), the worker
processes' share (:func:`render_jsonl`, :func:`render_json`), and the
OpenSpiel JSON Lines audit itself (:func:`audit_openspiel`).

``euchre-events audit FILE... --format jsonl|json`` of OpenSpiel files runs
from here (:func:`quick_audit`, called by :mod:`euchre_events.__main__`)
without importing ``typer`` and the other commands (0.12 s to start instead
of 0.18 s).
:mod:`euchre_events.cli` takes the same pieces for every other audit, so
each is written once.  Messages go through :func:`say` (record text shown
escaped) and :func:`fail` (an error line, then ``SystemExit``).
"""
from __future__ import annotations

import json
import os
import stat
import sys
from json.encoder import encode_basestring_ascii as _json_str
from typing import List, Optional

from euchre_events.events import printable
from euchre_events.formats import RecordError, detect_format


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
    line = (getattr(rec, "source", None) or {}).get("line") if path.lower().endswith(".jsonl") else None
    where = f"{path}, line {line}" if isinstance(line, int) else path
    for w in getattr(rec, "warnings", ()) or ():
        say(f"warning: {where}: {w}", err=True)


def read_file(path: str, from_: Optional[str], keep: bool = True):
    """(records, errors) of a record file; errors are RecordErrors (one per bad game
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
    except RecordError as e:
        return [], [e]
    except OSError as e:
        return [], [RecordError(path, f"cannot read the file: {e.strerror or e}")]
    except UnicodeDecodeError as e:
        return [], [RecordError(path, f"not a text file (UTF-8 expected): {e.reason}")]
    except Exception as e:  # a reader's defect must not stop a batch of files
        return [], [RecordError(path, f"could not be read ({type(e).__name__}: {str(e)[:200]}); "
                                      f"nothing of it was stored")]


def archive_path(db: Optional[str]) -> Optional[str]:
    """The SQLite file of the archive ``--db`` names (or the environment, or
    the default), for :func:`refuse_output_over_input`; None for PostgreSQL
    or a URL that cannot be read (the archive says why, if it is opened)."""
    from euchre_events.archive import ArchiveError, sqlite_file
    try:
        return sqlite_file(db)
    except ArchiveError:
        return None


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
        fail(f"{output}: cannot write: {e.strerror or e}")
        return False


def emit_report(text: str, report: str, output: Optional[str]) -> None:
    """Write a report to ``output`` (then print its name), else print it:
    text line by line through :func:`say` (record text shown escaped),
    JSON as it is; nothing for an empty report."""
    if output:
        if write_file(output, text):
            say(output)
    elif text and report == "text":
        for line in text.split("\n"):
            say(line)
    elif text:
        echo(text)


def short_error(e: Exception) -> str:
    """``Kind: first line`` of an exception, for an error line."""
    return f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"


def _game_json(g, findings) -> dict:
    from euchre_events.ui.auditreport import game_json
    return game_json(g, findings)


class AuditReport:
    """The audit report, written as the games are audited (constant memory
    for a JSON Lines file of any size): ``text`` line by line, ``json`` as
    the very text ``json.dumps({"games": [...]}, indent=2)`` gives (each game
    as it comes; the EGN games audited deal by deal last, as before),
    ``jsonl`` one compact JSON object per game and line; ``html`` is one
    page, so it is made at the end.  ``-o FILE`` goes through the one writer
    of ``-o`` (:class:`euchre_events.formats.output.OutputFile`): a
    temporary file renamed when the report is complete (nothing partial is
    left), a symbolic link followed (the file it names is replaced, the
    link stays), and a FILE that exists and is not a regular file
    (``/dev/null``, ``/dev/stdout``, a named pipe) written to as it goes:
    renaming over it would put a plain file in its place.  A write that
    fails (disk full) is an error naming FILE, never a traceback."""

    def __init__(self, report: str, output: Optional[str]):
        self.report, self.output = report, output
        self.partial: list = []
        self.buf: list = []
        self.by_deal: list = []        # html only: (path, what egn_game_by_deal read)
        self.games: list = []          # html only
        self.n = 0
        self.f = None                  # the -o file (an OutputFile), None: stdout
        if output and report != "html":
            from euchre_events.formats.output import OutputFile
            try:
                self.f = OutputFile(output)
            except OSError as e:
                fail(f"{output}: cannot write: {e.strerror or e}")

    def _put(self, text: str) -> None:
        """``text`` to the ``-o`` file; a failed write (disk full, a closed
        pipe) drops the unfinished report and is an error naming the file."""
        try:
            self.f.write(text)
        except OSError as e:
            self.discard()
            fail(f"{self.output}: cannot write: {e.strerror or e}")

    def _write(self, text: str) -> None:
        if self.f is not None:
            self._put(text)
        else:   # to stdout in pieces of some hundred games: one echo per game costs more than the game
            self.buf.append(text)
            if len(self.buf) >= 256:
                self.flush()

    def flush(self) -> None:
        """Write out what :meth:`_write` keeps for stdout (before a message
        on stderr, so the two stay in order on a terminal)."""
        if self.buf:
            echo("".join(self.buf), nl=False)
            self.buf = []

    def game(self, g, findings) -> None:
        r = self.report
        if r == "html":
            self.games.append((g, findings))
        elif r == "text":
            for line in _report_lines(g, findings):
                self._line(line)
        else:
            d = _game_json(g, findings)
            if r == "jsonl":
                self._write(json.dumps(d) + "\n")
            else:
                self._array_item(d)
        self.n += 1

    def fast_game(self, fg) -> None:
        """A game the fast path read (json and jsonl only): the same text as
        :meth:`game` gives for it."""
        from euchre_events.archive.fastpath import fast_game_id_text
        if self.report == "jsonl":
            self._write(fast_game_jsonl(fg, fast_game_id_text(fg), "\n"))
        else:
            self._write(('{\n  "games": [\n    ' if self.n == 0 else ",\n    ")
                        + fast_game_json_text(fg, fast_game_id_text(fg)))
        self.n += 1

    def fast_games(self, items):
        """Write each :class:`~euchre_events.formats.openspiel.FastGame` of
        ``items`` as :meth:`fast_game` does; yield every other item."""
        from euchre_events.archive.fastpath import fast_game_id_text
        from euchre_events.formats.openspiel import FastGame, Rendered
        if self.report != "jsonl":
            for r in items:
                if type(r) is FastGame:
                    self.fast_game(r)
                elif type(r) is Rendered:     # made by a worker (render_json)
                    self._write(('{\n  "games": [\n    ' if self.n == 0 else ",\n    ") + r)
                    self.n += 1
                else:
                    yield r
            return
        write = self._write
        for r in items:
            if type(r) is FastGame:
                write(fast_game_jsonl(r, fast_game_id_text(r), "\n"))
                self.n += 1
            elif type(r) is Rendered:         # made by a worker (render_jsonl)
                write(r)
                self.n += 1
            else:
                yield r

    def deal_by_deal(self, p: dict, path: str, read: tuple) -> None:
        """An EGN game audited deal by deal: ``p`` as ``audit_egn_by_deal``
        gives it, ``read`` what ``egn_game_by_deal`` read (the text and the
        page draw the game from it, as any other game)."""
        if self.report == "text":
            from euchre_events.ui.auditreport import by_deal_lines
            for line in by_deal_lines(path, *read):
                self._line(line)
        elif self.report == "jsonl":
            self._write(json.dumps(p) + "\n")
        elif self.report == "html":
            self.by_deal.append((path, read))
        else:
            self.partial.append(p)

    def _line(self, line: str) -> None:
        self.flush()
        if self.f is not None:
            self._put(line + "\n")
        else:
            say(line)
        self.n += 1

    def _array_item(self, d: dict) -> None:
        body = indented_json(d, "\n    ")
        self._write(('{\n  "games": [\n    ' if self.n == 0 else ",\n    ") + body)

    def close(self) -> None:
        self.flush()
        r = self.report
        if r == "json":
            for p in self.partial:
                self._array_item(p)
                self.n += 1
            self._write('{\n  "games": []\n}\n' if self.n == 0 else "\n  ]\n}\n")
            self.flush()
        elif r == "html":
            from euchre_events.ui.auditreport import html_report
            emit_report(html_report(self.games, self.by_deal), r, self.output)
            return
        elif self.f is not None and self.n == 0 and r != "jsonl":
            self._put("\n")
        if self.f is not None:
            f, self.f = self.f, None
            try:
                f.commit()
            except OSError as e:
                fail(f"{self.output}: cannot write: {e.strerror or e}")
            if f.made:   # a file made: its name (not /dev/stdout's, into the report)
                say(self.output)

    def discard(self) -> None:
        """Drop the unfinished report (an error or an interruption): its
        temporary file is removed."""
        self.flush()
        if self.f is not None:
            f, self.f = self.f, None
            f.discard()


class _IntLists(dict):
    """A tuple of whole numbers -> its JSON text as ``json.dumps`` writes it (``"[0, 2]"``)."""

    def __missing__(self, xs: tuple) -> str:
        text = self[xs] = "[" + ", ".join(map(str, xs)) + "]"
        return text


_INTS = _IntLists()


_OR_NULL = {None: "null", 0: "0", 1: "1", 2: "2", 3: "3"}


_JSONL = ('{"id": "%s", "title": %s, "variant": "standard", "deal_count": 1, "final_score": %s, '
          '"winner": null, "as_played_score": %s, "official_score": %s, "official_winner": null, '
          '"findings": [], "deals": [{"deal": 1, "dealer": %d, "maker": %s, "trump": %s, '
          '"alone": %s, "trick_winners": %s, "tricks": %s, "points_as_played": %s, '
          '"points_official": %s, "score_as_played": %s, "score_official": %s, "flags": [], '
          '"note": "%s", "penalties": []%s}]}%s')


def fast_game_jsonl(fg, game_id: str, end: str = "") -> str:
    """``json.dumps(ui.auditreport.fast_game_json(fg, game_id)) + end``, the
    same text, written straight from ``fg`` (no dict, no encoder: a tenth of the
    time; here, not in ``ui``, so that an audit to JSON Lines does not import
    the HTML and SVG drawing)."""
    fd = fg.deal
    ints = _INTS
    sc = ints[fd.scores]
    pts = ints[fd.points]
    title = fg.title
    if title.isascii() and title.isprintable() and '"' not in title and "\\" not in title:
        title = '"' + title + '"'
    else:
        title = json.dumps(title)
    return _JSONL % (game_id, title, sc, sc, sc, fg.dealer, _OR_NULL[fd.maker],
                     "null" if fd.trump is None else '"' + fd.trump + '"', _OR_NULL[fd.alone],
                     ints[fd.trick_winners], ints[fd.tricks_won], pts, pts, sc, sc, fd.note,
                     ', "out": ' + ints[fd.out] if fd.out else "", end)


class _IndentedLists(dict):
    """``(numbers, indent)`` -> the text :func:`indented_json` gives for the
    list at that indentation (each number on its own line)."""

    def __missing__(self, key: tuple) -> str:
        xs, nl = key
        text = self[key] = indented_json(list(xs), nl)
        return text


_ILISTS = _IndentedLists()


_I1, _I2, _I3 = "\n      ", "\n        ", "\n          "


_JSON_GAME = ("{" + _I1 + '"id": "%s",' + _I1 + '"title": %s,' + _I1 + '"variant": "standard",'
              + _I1 + '"deal_count": 1,' + _I1 + '"final_score": %s,' + _I1 + '"winner": null,'
              + _I1 + '"as_played_score": %s,' + _I1 + '"official_score": %s,' + _I1
              + '"official_winner": null,' + _I1 + '"findings": [],' + _I1 + '"deals": [' + _I2
              + "{" + _I3 + '"deal": 1,' + _I3 + '"dealer": %d,' + _I3 + '"maker": %s,' + _I3
              + '"trump": %s,' + _I3 + '"alone": %s,' + _I3 + '"trick_winners": %s,' + _I3
              + '"tricks": %s,' + _I3 + '"points_as_played": %s,' + _I3 + '"points_official": %s,'
              + _I3 + '"score_as_played": %s,' + _I3 + '"score_official": %s,' + _I3 + '"flags": [],'
              + _I3 + '"note": "%s",' + _I3 + '"penalties": []%s' + _I2 + "}" + _I1 + "]\n    }")


def fast_game_json_text(fg, game_id: str) -> str:
    """``indented_json(ui.auditreport.fast_game_json(fg, game_id), "\\n    ")``
    (one game of ``audit --json``), the same text, from ``fg`` without the
    dict and the recursive writer."""
    fd = fg.deal
    il = _ILISTS
    sc1 = il[fd.scores, _I1]
    sc3 = il[fd.scores, _I3]
    p3 = il[fd.points, _I3]
    title = fg.title
    if title.isascii() and title.isprintable() and '"' not in title and "\\" not in title:
        title = '"' + title + '"'
    else:
        title = _json_str(title)
    return _JSON_GAME % (game_id, title, sc1, sc1, sc1, fg.dealer, _OR_NULL[fd.maker],
                         "null" if fd.trump is None else '"' + fd.trump + '"', _OR_NULL[fd.alone],
                         il[fd.trick_winners, _I3], il[fd.tricks_won, _I3], p3, p3, sc3, sc3,
                         fd.note, "," + _I3 + '"out": ' + il[fd.out, _I3] if fd.out else "")


def indented_json(v, nl: str = "\n") -> str:
    """``json.dumps(v, indent=2)``, the same text, with ``nl`` (a newline and
    the indentation ``v`` stands at) before each nested line: several times
    faster, as the standard library takes its slow pure-Python encoder for
    any indented output.  Raises ``TypeError`` for what JSON cannot hold."""
    if isinstance(v, str):
        return _json_str(v)
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return int.__repr__(v)
    if isinstance(v, float):
        return json.dumps(v)
    inner = nl + "  "
    if isinstance(v, (list, tuple)):
        if not v:
            return "[]"
        return "[" + inner + ("," + inner).join([indented_json(x, inner) for x in v]) + nl + "]"
    if isinstance(v, dict):
        if not v:
            return "{}"
        return ("{" + inner + ("," + inner).join([_json_key(k) + ": " + indented_json(x, inner)
                                                   for k, x in v.items()]) + nl + "}")
    return json.dumps(v)   # raises the standard library's TypeError


def _json_key(k) -> str:
    if isinstance(k, str):
        return _json_str(k)
    if k is True or k is False or k is None or isinstance(k, (int, float)):
        return '"' + json.dumps(k) + '"'
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(k).__name__}")


def render_jsonl(fg) -> str:
    """A worker's text of one game of ``audit --format jsonl`` (module level: it is sent to worker processes)."""
    from euchre_events.archive.fastpath import fast_game_id_text
    return fast_game_jsonl(fg, fast_game_id_text(fg), "\n")


def render_json(fg) -> str:
    """A worker's text of one game of ``audit --json`` (without the separator before it)."""
    from euchre_events.archive.fastpath import fast_game_id_text
    return fast_game_json_text(fg, fast_game_id_text(fg))


_PARALLEL_BYTES = 4 << 20
"""A JSON Lines file at least this big (about 1,000 OpenSpiel games) is read
by several processes when the machine has several cores: below it, starting
them costs more than it saves."""


MAX_WORKERS = 32
"""Most worker processes an audit starts, whatever ``--workers`` asks (each
is a copy of this process: a typo of a few zeros must not fork thousands)."""


def audit_workers(path: str, asked: Optional[int]) -> int:
    """How many processes read the OpenSpiel file ``path``: ``asked``
    (``--workers``; 1 for one), else ``$EUCHRE_EVENTS_WORKERS``, else the
    cores (at most 4) for a file of :data:`_PARALLEL_BYTES` or more."""
    what = "--workers"
    if asked is None:
        env = os.environ.get("EUCHRE_EVENTS_WORKERS", "").strip()
        asked = int(env) if env.isascii() and env.isdigit() else None
        what = f"EUCHRE_EVENTS_WORKERS={env}"
        if env and asked is None:
            say(f"warning: EUCHRE_EVENTS_WORKERS={env!r} is not a number of processes: "
                 "the default is used", err=True)
    if asked is not None:
        if asked > MAX_WORKERS:
            say(f"warning: {what}: at most {MAX_WORKERS} processes are started", err=True)
            return MAX_WORKERS
        return max(1, asked)
    try:
        big = os.path.getsize(path) >= _PARALLEL_BYTES
    except OSError:
        big = False
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return min(cores, 4) if big else 1


def _game(events):
    from euchre_events.projections import Game
    return Game(events)


def _report_lines(g, findings) -> list:
    from euchre_events.ui.auditreport import game_lines
    return game_lines(g, findings)


def is_openspiel_file(item: str, from_: Optional[str]) -> bool:
    if not os.path.isfile(item):
        return False
    try:
        return detect_format(item, from_) == "openspiel"
    except RecordError:
        return False


def plain_audit(argv: List[str]) -> Optional[dict]:
    """The arguments of ``audit FILE... [--format jsonl|json | --json]
    [--from openspiel] [-o OUT]`` as :func:`audit_cmd` takes them, or None
    for any other command line (typer reads that one).  Such a command is
    run without building the typer application, whose option adapters
    import ``pydantic``: a third of the start-up of an audit."""
    if not argv or argv[0] != "audit":
        return None
    args = {"games": [], "report": "text", "as_json": False, "output": None, "from_": None,
            "db": None, "workers": None}
    i = 1
    while i < len(argv):
        a = argv[i]
        nxt = argv[i + 1] if i + 1 < len(argv) else None
        if a in ("--format", "-f") and nxt in ("jsonl", "json"):
            args["report"] = nxt
        elif a == "--from" and nxt == "openspiel":
            args["from_"] = nxt
        elif a in ("-o", "--output") and nxt and not nxt.startswith("-"):
            args["output"] = nxt
        elif a == "--workers" and nxt and nxt.isascii() and nxt.isdigit() and int(nxt) >= 1:
            args["workers"] = int(nxt)      # "²" or "١" is no number here: typer says so
        elif a == "--json":
            args["as_json"] = True
            i += 1
            continue
        elif not a.startswith("-") and a:
            args["games"].append(a)
            i += 1
            continue
        else:
            return None
        i += 2
    if not args["games"] or (args["report"] == "text" and not args["as_json"]) \
            or (args["as_json"] and args["report"] != "text"):
        return None     # no report asked for here, or two (--json --format jsonl): typer says so
    return args


def audit_openspiel(item: str, rep: "AuditReport", report: str, workers: Optional[int]) -> int:
    """Audit the OpenSpiel JSON Lines file ``item`` into ``rep`` (``report``:
    text, json, jsonl or html; ``workers``: ``--workers`` or None) game by
    game; a bad line is named on stderr and the lines after it are audited.
    Returns the number of errors said (0: every line audited)."""
    from euchre_events.formats.openspiel import iter_openspiel_file
    failed = 0
    # json and jsonl: a regular game goes through the fast core (the same report)
    fast = report in ("json", "jsonl")
    n = audit_workers(item, workers) if fast else 1
    render = None if n < 2 else render_jsonl if report == "jsonl" else render_json
    lines = progress(iter_openspiel_file(item, fast=fast, render=render, workers=n), "auditing")
    lines = iter(rep.fast_games(lines) if fast else lines)
    while True:
        try:
            r = next(lines)
        except StopIteration:
            break
        except Exception as e:  # a reader's defect must not stop a batch of files
            rep.flush()
            say(f"error: {item}: could not be read ({short_error(e)})", err=True)
            failed += 1
            break
        if isinstance(r, RecordError):
            rep.flush()
            say(f"error: {r}", err=True)
            failed += 1
            continue
        if r.warnings:
            rep.flush()
        warn(item, r)
        audit_one(rep, r.game if r.game is not None else _game(r.events), r)   # the reader's fold
    return failed


def audit_one(rep: "AuditReport", g, r) -> None:
    """Write game ``g`` (a projections ``Game``) and its audit into ``rep``;
    ``r``: the Record it was read from (its id is made from its events), or
    None for a stored game (which has its id)."""
    if r is not None:
        from euchre_events.archive.gameid import game_id_of
        g.id = str(game_id_of(r.events))
    rep.game(g, g.audit())


def quick_audit(argv: List[str]) -> Optional[int]:
    """Run ``argv`` (the command line after the program name) when it is a
    :func:`plain_audit` of OpenSpiel files only, and give its exit code;
    None for any other command line (the full command-line application runs
    it).  An interruption and a reader that stopped reading (``| head``) end
    it as ``typer`` ends a command (130; 1, silently)."""
    if os.environ.get("_EUCHRE_EVENTS_COMPLETE"):
        return None       # shell completion asked: the application answers
    args = plain_audit(argv)
    if args is None or not all(is_openspiel_file(item, args["from_"]) for item in args["games"]):
        return None
    report = "json" if args["as_json"] else args["report"]
    failed = 0
    refuse_output_over_input(args["games"], args["output"])
    rep = AuditReport(report, args["output"])
    try:
        try:
            for item in args["games"]:
                rep.flush()     # the games so far, before what this item may say on stderr
                failed += audit_openspiel(item, rep, report, args["workers"])
        except BaseException:
            rep.discard()
            raise
        rep.close()
    except KeyboardInterrupt:     # as typer ends a command: no message, 130
        return 130
    except BrokenPipeError:       # a reader that stopped reading (| head): as click does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 1 if failed else 0
