"""The audit report written out (issue 24: the audit report in one place,
with :mod:`.auditreport`): the one JSON encoder of ``audit --format
json|jsonl`` (:func:`json_text`), the JSON of a game the OpenSpiel fast
path read (:func:`fast_game_json`, and its text, :func:`fast_game_text`,
from templates made of that very function and encoder), and the writer
of all four kinds, as the games are audited (:class:`AuditReport`).

:mod:`.auditreport` says what the report says (the words of the text
report, :func:`~.auditreport.game_json` of a folded game, the HTML page);
this module writes it.  It is the one the audit's fast door
(:mod:`euchre_events.batch`) imports to write JSON and JSON Lines, so it
imports neither :mod:`.auditreport` nor the projections at the top (they
cost a third of that start-up): the text and the page load them when a
game is written so.
"""
from __future__ import annotations

import json
from json.encoder import encode_basestring_ascii as _json_str
from typing import Optional

from euchre_events.console import echo, emit_report, fail, need_stdout, say, write_error

__all__ = ["AuditReport", "json_text", "indented_json", "fast_game_json", "fast_game_text",
           "render_json", "render_jsonl"]


# ------------------------------------------------------------------ the encoder

def json_text(v, nl: Optional[str] = None) -> str:
    """The audit report's JSON encoder: with ``nl`` None the one-line text
    of a JSON Lines report, ``json.dumps(v)``; else :func:`indented_json`
    (the text of ``json.dumps(v, indent=2)`` with ``nl`` before each nested
    line).  Raises ``TypeError`` for what JSON cannot hold."""
    return json.dumps(v) if nl is None else indented_json(v, nl)


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


# ------------------------------------------------------------------ games the fast path read

def _fast_values(fg, game_id: str) -> dict:
    """What the JSON of a fast-path game is made of: ``fg``'s fields by the
    names :func:`_fast_dict` uses (tuples of numbers for the lists)."""
    fd = fg.deal
    return {"id": game_id, "title": fg.title, "dealer": fg.dealer, "maker": fd.maker,
            "trump": fd.trump, "alone": fd.alone, "trick_winners": fd.trick_winners,
            "tricks": fd.tricks_won, "points": fd.points, "score": fd.scores, "note": fd.note,
            "out": fd.out}


def _fast_dict(v: dict) -> dict:
    score = list(v["score"])
    deal = {"deal": 1, "dealer": v["dealer"], "maker": v["maker"], "trump": v["trump"],
            "alone": v["alone"], "trick_winners": list(v["trick_winners"]),
            "tricks": list(v["tricks"]), "points_as_played": list(v["points"]),
            "points_official": list(v["points"]), "score_as_played": score,
            "score_official": score, "flags": [], "note": v["note"], "penalties": []}
    if v["out"]:
        deal["out"] = list(v["out"])
    return {"id": v["id"], "title": v["title"], "variant": "standard", "deal_count": 1,
            "final_score": score, "winner": None, "as_played_score": score,
            "official_score": score, "official_winner": None, "findings": [], "deals": [deal]}


def fast_game_json(fg, game_id: str) -> dict:
    """:func:`~.auditreport.game_json` of a game read by the fast path
    (:class:`~euchre_events.formats.openspiel.FastGame`: one regular deal,
    no finding, the game not over), without folding it: the same dict, key
    for key (``tests/test_fast_audit.py`` compares the two over thousands
    of games)."""
    return _fast_dict(_fast_values(fg, game_id))


_LISTS = ("trick_winners", "tricks", "points", "score", "out")
_TEXTS = frozenset(("id", "title"))


class _Template:
    """The text of :func:`fast_game_json` through :func:`json_text` (``nl``
    as there), made once from that function and that encoder: the dict of
    a probe whose every value is a marker, encoded, then cut at the markers.
    Filling it writes each value with :func:`json_text` too (a list of
    numbers once per indentation: they repeat), so the text is the
    encoder's, in a fifth of the time of building and encoding the dict."""

    def __init__(self, nl: Optional[str], with_out: bool, end: str = ""):
        probe = {k: (f"@{k}@",) if k in _LISTS else f"@{k}@" for k in _fast_values(_Probe, "")}
        if not with_out:
            probe["out"] = ()
        text = (json_text(_fast_dict(probe), nl) + end).replace("%", "%%")
        names: dict = {}      # (value's name, its indentation) -> its name in the format
        parts, at = [], 0
        while True:
            i = text.find('"@', at)
            if i < 0:
                break
            j = text.index('@"', i + 2)
            key, start, stop, at_nl = text[i + 2:j], i, j + 2, nl
            if key in _LISTS:   # the whole list; its indentation stands before its closing bracket
                start, stop = text.rindex("[", 0, i), text.index("]", stop) + 1
                at_nl = None if nl is None else text[j + 2:stop - 1]
            name = names.setdefault((key, at_nl), f"v{len(names)}")
            parts += [text[at:start], f"%({name})s"]
            at = stop
        self.format = "".join(parts) + text[at:]
        self.slots = [(name, key, at_nl) for (key, at_nl), name in names.items()]
        self.cache: dict = {}

    def fill(self, values: dict) -> str:
        cache = self.cache
        texts = {}
        for name, key, at_nl in self.slots:
            v = values[key]
            if key in _TEXTS:         # free text (the id, a title): not kept
                texts[name] = _json_str(v)
                continue
            try:                      # numbers, lists of numbers, a suit: they repeat
                texts[name] = cache[v, at_nl]
            except KeyError:
                t = texts[name] = cache[v, at_nl] = json_text(list(v) if type(v) is tuple else v, at_nl)
        return self.format % texts


class _ProbeDeal:
    maker = trump = alone = trick_winners = tricks_won = points = scores = note = out = None


class _Probe:
    """Stands for a FastGame while :class:`_Template` learns the names."""
    title = dealer = None
    deal = _ProbeDeal


_TEMPLATES: dict = {}
_id_text = None


def fast_game_text(fg, report: str) -> str:
    """The text of one fast-path game in a ``report`` (``"jsonl"``: its
    line, with the newline; ``"json"``: the game as it stands in the
    ``"games"`` array, without the separator before it):
    ``json_text(fast_game_json(fg, id))``, the same text."""
    global _id_text
    if _id_text is None:   # imported once, and only for a fast-path game
        from euchre_events.archive.fastpath import fast_game_id_text as _id_text
    values = _fast_values(fg, _id_text(fg))
    key = (report, not values["out"])
    t = _TEMPLATES.get(key)
    if t is None:
        jsonl = report == "jsonl"
        t = _TEMPLATES[key] = _Template(None if jsonl else "\n    ", not key[1], "\n" if jsonl else "")
    return t.fill(values)


def render_jsonl(fg) -> str:
    """A worker's text of one game of ``audit --format jsonl`` (module level: it is sent to worker processes)."""
    return fast_game_text(fg, "jsonl")


def render_json(fg) -> str:
    """A worker's text of one game of ``audit --json`` (without the separator before it)."""
    return fast_game_text(fg, "json")


_FAST = {"json": render_json, "jsonl": render_jsonl}


# ------------------------------------------------------------------ the writer

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
        self.errors: list = []         # {"file", "error"}: the inputs not read (or not whole)
        self.n = 0
        self.f = None                  # the -o file (an OutputFile), None: stdout
        if output and report != "html":
            from euchre_events.formats.output import OutputFile
            try:
                self.f = OutputFile(output)
            except OSError as e:
                fail(write_error(output, e))

    def _put(self, text: str) -> None:
        """``text`` to the ``-o`` file; a failed write (disk full, a closed
        pipe) drops the unfinished report and is an error naming the file."""
        try:
            self.f.write(text)
        except OSError as e:
            self.discard()
            fail(write_error(self.output, e))

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
            need_stdout()
            echo("".join(self.buf), nl=False)
            self.buf = []

    def game(self, g, findings) -> None:
        r = self.report
        if r == "html":
            self.games.append((g, findings))
        elif r == "text":
            from euchre_events.ui.auditreport import game_lines
            for line in game_lines(g, findings):
                self._line(line)
        else:
            from euchre_events.ui.auditreport import game_json
            d = game_json(g, findings)
            if r == "jsonl":
                self._write(json_text(d) + "\n")
            else:
                self._array_item(d)
        self.n += 1

    def fast_game(self, fg) -> None:
        """A game the fast path read (json and jsonl only): the same text as
        :meth:`game` gives for it."""
        self._fast_text(fast_game_text(fg, self.report))

    def _fast_text(self, text: str) -> None:
        if self.report == "jsonl":
            self._write(text)
        else:
            self._write(('{\n  "games": [\n    ' if self.n == 0 else ",\n    ") + text)
        self.n += 1

    def fast_games(self, items):
        """Write each :class:`~euchre_events.formats.openspiel.FastGame` of
        ``items`` as :meth:`fast_game` does, and each text a worker made
        (``Rendered``: :func:`render_json`, :func:`render_jsonl`); yield
        every other item."""
        from euchre_events.formats.openspiel import FastGame, Rendered
        fill, put = _FAST[self.report], self._fast_text
        for r in items:
            if type(r) is FastGame:
                put(fill(r))
            elif type(r) is Rendered:
                put(r)
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
            self._write(json_text(p) + "\n")
        elif self.report == "html":
            self.by_deal.append((path, read))
        else:
            self.partial.append(p)

    def error(self, file: str, error: str, partial: bool = False) -> None:
        """Note that ``file`` (a record file, an OpenSpiel file, a stored
        game) could not be read, or not whole: ``error`` is the message as
        said on stderr, without ``error: ``.  The report names it at its end
        (text: ``not read: ...`` lines; json: the ``"errors"`` field beside
        ``"games"``; html: a "Not read" section first), so a reader of the
        file later sees a game is missing.  JSON Lines stays one game per
        line (a program reads each line as a game; the errors are on stderr
        and in the exit code).  A report without a game is not written at
        all (:meth:`close`).  ``partial``: the file was read in part (an EGN
        file with an impossible deal, its other deals audited deal by deal):
        ``"partial": true`` in JSON, ``read in part: ...`` in text."""
        self.errors.append(dict({"file": file, "error": error}, **({"partial": True} if partial else {})))

    def _line(self, line: str) -> None:
        self.flush()
        if self.f is not None:
            self._put(line + "\n")
        else:
            need_stdout()
            say(line)
        self.n += 1

    def _array_item(self, d: dict) -> None:
        body = indented_json(d, "\n    ")
        self._write(('{\n  "games": [\n    ' if self.n == 0 else ",\n    ") + body)

    def close(self) -> None:
        """End the report.  When no game was audited and an input could not
        be read (:meth:`error`), nothing is written to ``-o``: the file, if
        it exists, stays as it was, byte for byte, and its name is not said
        (as ``export`` and ``analyze`` do); on stdout json still prints
        ``{"games": [], "errors": [...]}`` (a program reading it gets JSON),
        text and jsonl nothing (as before)."""
        self.flush()
        r = self.report
        if self.errors and not (self.n or self.partial or self.games or self.by_deal) and (
                self.output or r != "json"):
            # -o: the file stays as it was; stdout: json still prints its document (its "errors")
            self.discard()
            return
        if r == "json":
            for p in self.partial:
                self._array_item(p)
                self.n += 1
            end = '{\n  "games": []' if self.n == 0 else "\n  ]"
            if self.errors:   # a field added only then: a report of good inputs stays as it was
                end += ',\n  "errors": ' + indented_json(self.errors, "\n  ")
            self._write(end + "\n}\n")
            self.flush()
        elif r == "html":
            from euchre_events.ui.auditreport import html_report
            emit_report(html_report(self.games, self.by_deal, self.errors), r, self.output)
            return
        elif r == "text":
            if self.errors:
                from euchre_events.ui.auditreport import not_read_line
                for e in self.errors:
                    self._line(not_read_line(e))
            if self.f is not None and self.n == 0:
                self._put("\n")
        if self.f is not None:
            f, self.f = self.f, None
            try:
                f.commit()
            except OSError as e:
                fail(write_error(self.output, e))
            if f.made:   # a file made: its name (not /dev/stdout's, into the report)
                say(self.output)

    def discard(self) -> None:
        """Drop the unfinished report (an error or an interruption): its
        temporary file is removed."""
        self.flush()
        if self.f is not None:
            f, self.f = self.f, None
            f.discard()
