"""The audit, its one front door (issue 11 "Speed", issue 24): the
options of ``euchre-events audit``, declared once (:data:`AUDIT_OPTIONS`,
a table of :class:`euchre_events.options.Option`), read from a command
line without ``typer`` (:func:`parse_audit`) and made into the typer
command's parameters (:func:`euchre_events.options.typer_parameters`, by
:mod:`euchre_events.cli`); the audit's loop, written once
(:func:`run_audit`: record files, OpenSpiel JSON Lines files, stored
games); and the OpenSpiel JSON Lines audit (:func:`audit_openspiel`).

``euchre-events audit ...`` runs from here (:func:`quick_audit`, called by
:mod:`euchre_events.__main__`) whenever :func:`parse_audit` reads its whole
command line: without building the typer application, whose option
adapters import ``pydantic`` (a third of the start-up of an audit).  Any
other command line (``--help``, a value typer must refuse or explain, an
``--opt=value`` spelling) goes to the application, which runs the same
:func:`run_audit`.  The report is written by
:class:`~euchre_events.ui.auditwriter.AuditReport`; messages go through
:mod:`euchre_events.console`.
"""
from __future__ import annotations

import os
from typing import List, Optional

from euchre_events.console import (DB_HELP, FROM_HELP, archive_file, choose_workers, fail, open_archive, progress,
                                   read_file, refuse_output_over_input, report_format, say, short_error, warn)
from euchre_events.formats import RecordError, detect_format
from euchre_events.options import Option, completing, parse_options, run_door


GAMES_HELP = "Stored game ids or record files (audited without storing)."
"""The help of ``audit``'s arguments."""

AUDIT_FORMATS = ("text", "json", "jsonl", "html")
"""The values of ``audit --format`` (any case), as its help lists them and
its error message (:func:`~euchre_events.console.report_format`) says."""

AUDIT_OPTIONS = (
    Option("report", ("--format", "-f"), "text", str,
           "text (read aloud), json, jsonl (one game per line), or html (one page; needs -o)."),
    Option("as_json", ("--json",), False, bool, "Same as --format json."),
    Option("output", ("--output", "-o"), None, str, "Write the report to this file."),
    Option("from_", ("--from",), None, str, FROM_HELP),
    Option("db", ("--db",), None, str, DB_HELP),
    Option("workers", ("--workers",), None, int,
           "Processes reading a big OpenSpiel JSON Lines file (json, jsonl): default the cores, "
           "at most 4; 1 for one.", minimum=1),
)
"""The options of ``audit``, in the order of its help: the one table the
typer command (:func:`euchre_events.options.typer_parameters`) and the
typer-free door (:func:`parse_audit`) read."""


def parse_audit(argv: List[str]) -> Optional[dict]:
    """The keywords of :func:`run_audit` for the command line ``argv``
    (after the program's name) when it is ``audit GAME... [options]`` that
    :data:`AUDIT_OPTIONS` reads (:func:`~euchre_events.options.parse_options`);
    None for any other, and for one typer must refuse or explain."""
    return parse_options(argv, "audit", AUDIT_OPTIONS)


_PARALLEL_BYTES = 4 << 20
"""A JSON Lines file at least this big (about 1,000 OpenSpiel games) is read
by several processes when the machine has several cores: below it, starting
them costs more than it saves."""


def audit_workers(path: str, asked: Optional[int]) -> int:
    """How many processes read the OpenSpiel file ``path``: ``asked``
    (``--workers``; 1 for one), else ``$EUCHRE_EVENTS_WORKERS``, else the
    cores (at most 4) for a file of :data:`_PARALLEL_BYTES` or more
    (:func:`~euchre_events.console.choose_workers`)."""
    try:
        big = os.path.getsize(path) >= _PARALLEL_BYTES
    except OSError:
        big = False
    return choose_workers(asked, big)


def is_openspiel_file(item: str, from_: Optional[str]) -> bool:
    if not os.path.isfile(item):
        return False
    try:
        return detect_format(item, from_) == "openspiel"
    except RecordError:
        return False


def _record_file(item: str) -> bool:
    """Whether ``item`` names a record file rather than a stored game."""
    from euchre_events.formats import RECORD_SUFFIXES
    return os.path.exists(item) or os.path.sep in item or item.lower().endswith(RECORD_SUFFIXES)


def run_audit(games: List[str], report: str = "text", as_json: bool = False,
              output: Optional[str] = None, from_: Optional[str] = None, db: Optional[str] = None,
              workers: Optional[int] = None) -> int:
    """``euchre-events audit``: audit ``games`` (record files, OpenSpiel
    JSON Lines files, stored game ids or prefixes) into one report
    (``report``: text, json, jsonl or html; ``as_json``: json), to
    ``output`` or the standard output, as the games are audited.  A file
    or game that cannot be read is named on stderr and the others are
    audited.  Returns the number of errors said (exit code 1 when any);
    a wrong option is :func:`~euchre_events.console.fail` (``SystemExit``)."""
    from euchre_events.ui.auditwriter import AuditReport
    if as_json and report.lower() not in ("text", "json"):
        fail(f"--json and --format {report} ask for two reports: give one")
    jsonl = not as_json and report.lower() == "jsonl"
    report = "jsonl" if jsonl else report_format("json" if as_json else report, output, AUDIT_FORMATS)
    # imported where needed: the archive's store (eventsourcing) only for a stored game,
    # the projections only for a game the fast path does not take
    refuse_output_over_input(games, output, archive=lambda: archive_file(db))
    rep = AuditReport(report, output)
    failed = 0
    try:
        for item in games:
            rep.flush()     # the games so far, before what this item may say on stderr
            if is_openspiel_file(item, from_):
                failed += audit_openspiel(item, rep, report, workers)
            elif _record_file(item):
                failed += _audit_record_file(item, rep, from_)
            else:
                failed += _audit_stored(item, rep, db)
    except BaseException:
        rep.discard()
        raise
    rep.close()
    return failed


def _audit_record_file(item: str, rep, from_: Optional[str]) -> int:
    """Audit the games of the record file ``item`` into ``rep``; an EGN
    file with an impossible deal is audited deal by deal after its error.
    Returns the number of errors said."""
    failed = 0
    recs, errors = read_file(item, from_, keep=False)   # an audit writes no EGN
    for e in errors:
        failed += 1             # an impossible deal is an error (exit 1) even where the rest is audited
        # an impossible deal of an EGN game: the rest audited deal by deal (a director wants
        # every problem in the file); otherwise not read, as any other error
        from euchre_events.formats.egn import by_deal_report, egn_in_part
        read = egn_in_part(item, e, from_)
        # said as what happened: the file read in part (its other deals audited), or not read
        say(f"error: {e}" + ("; read in part: the other deals are audited" if read else ""), err=True)
        rep.error(item, str(e), partial=read is not None)
        if read is not None:
            rep.deal_by_deal(dict(by_deal_report(*read), id=None, file=item), item, read)
    for r in progress(recs, "auditing", len(recs)):
        warn(item, r)
        audit_one(rep, r.game if r.game is not None else _game(r.events), r)   # the reader's fold
    return failed


def _audit_stored(item: str, rep, db: Optional[str]) -> int:
    """Audit the stored game ``item`` (an id or a unique prefix) into ``rep``;
    returns 1 when it cannot be loaded (said on stderr), else 0."""
    from euchre_events.archive import ArchiveError, DamagedGame
    try:
        g = open_archive(db).load(item)
    except DamagedGame as e:
        why = str(e)
    except ArchiveError as e:
        why = f"{e} (and no file of that name)"
    except Exception as e:  # a damaged archive file: name it, audit the rest
        why = f"{item}: cannot be read ({short_error(e)}); run euchre-events verify --all"
    else:
        audit_one(rep, g, None)
        return 0
    say(f"error: {why}", err=True)
    rep.error(item, why)
    return 1


def audit_openspiel(item: str, rep, report: str, workers: Optional[int]) -> int:
    """Audit the OpenSpiel JSON Lines file ``item`` into ``rep`` (an
    :class:`~euchre_events.ui.auditwriter.AuditReport`; ``report``: text,
    json, jsonl or html; ``workers``: ``--workers`` or None) game by game;
    a bad line is named on stderr and the lines after it are audited.
    Returns the number of errors said (0: every line audited)."""
    from euchre_events.formats.openspiel import iter_openspiel_file
    from euchre_events.ui.auditwriter import render_json, render_jsonl
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
            why = f"{item}: could not be read ({short_error(e)})"
            say(f"error: {why}", err=True)
            rep.error(item, why)
            failed += 1
            break
        if isinstance(r, RecordError):
            rep.flush()
            say(f"error: {r}", err=True)
            rep.error(item, str(r))
            failed += 1
            continue
        if r.warnings:
            rep.flush()
        warn(item, r)
        audit_one(rep, r.game if r.game is not None else _game(r.events), r)   # the reader's fold
    return failed


def _game(events):
    from euchre_events.projections import Game
    return Game(events)


def audit_one(rep, g, r) -> None:
    """Write game ``g`` (a projections ``Game``) and its audit into ``rep``;
    ``r``: the Record it was read from (its id is made from its events), or
    None for a stored game (which has its id)."""
    if r is not None:
        from euchre_events.archive.gameid import game_id_of
        g.id = str(game_id_of(r.events))
    rep.game(g, g.audit())


def quick_audit(argv: List[str]) -> Optional[int]:
    """Run ``argv`` (the command line after the program name) when
    :func:`parse_audit` reads it, without the typer application, and give
    its exit code (:func:`~euchre_events.options.run_door`: as typer ends a
    command); None for any other command line (the application runs it,
    and shell completion)."""
    args = None if completing() else parse_audit(argv)
    if args is None:
        return None
    return run_door(lambda: run_audit(**args))
