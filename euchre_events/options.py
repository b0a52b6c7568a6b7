"""A command's options, declared once (issue 24 "One front door"): the
table a command's typer parameters are made from (:func:`typer_parameters`,
by :mod:`euchre_events.cli`) and that reads a plain command line without
``typer`` (:func:`parse_options`, the typer-free doors of ``audit`` in
:mod:`euchre_events.batch` and ``analyze`` in :mod:`euchre_events.review`),
and how such a door ends a command as typer does (:func:`run_door`).

Standard library only, and nothing of the package: a door that reads its
command line here has loaded nothing it does not use.
"""
from __future__ import annotations

import os
import sys
from typing import Any, Callable, List, Optional


class Option:
    """One option of a command: ``name`` (the keyword of the command's
    function), ``flags`` (as typed; the first is the long one), ``default``,
    ``kind`` (``str``, ``int``, or ``bool`` for a flag without a value),
    ``help``, ``minimum``/``maximum`` (an ``int`` outside them is refused),
    ``many`` (may be repeated: a list of the values; its default None, as
    typer's),
    ``choices`` (the values the typer-free door takes; another goes to typer,
    which says what is wrong: the help does not list them) and
    ``typer_only`` (the typer-free door leaves a command line with it to
    typer).  A plain class: a dataclass would cost the typer-free start-up
    a millisecond."""

    __slots__ = ("name", "flags", "default", "kind", "help", "minimum", "maximum", "many", "choices",
                 "typer_only")

    def __init__(self, name: str, flags: tuple, default: Any, kind: type, help: str,
                 minimum: Optional[int] = None, maximum: Optional[int] = None, many: bool = False,
                 choices: Optional[tuple] = None, typer_only: bool = False):
        self.name, self.flags, self.default, self.kind = name, flags, default, kind
        self.help, self.minimum, self.maximum, self.many = help, minimum, maximum, many
        self.choices, self.typer_only = choices, typer_only


def typer_parameters(table) -> list:
    """``[(name, annotation, typer.Option)]`` of the options ``table`` (a
    sequence of :class:`Option`), in its order, for a typer command's
    signature (:mod:`euchre_events.cli`); imports ``typer``, so only the
    application calls it."""
    import typer
    out = []
    for o in table:
        kw = {"help": o.help}
        if o.minimum is not None:
            kw["min"] = o.minimum
        if o.maximum is not None:
            kw["max"] = o.maximum
        kind = List[o.kind] if o.many else o.kind
        if o.default is None:
            kind = Optional[kind]
        out.append((o.name, kind, typer.Option(o.default, *o.flags, **kw)))
    return out


def parse_options(argv: List[str], command: str, table,
                  accept: Optional[Callable[[str], bool]] = None) -> Optional[dict]:
    """The keywords of ``command``'s function for the command line ``argv``
    (after the program's name) when it is ``command ARG... [options]`` with
    every option of ``table`` (:class:`Option`) spelt ``--flag value``:
    ``{"games": [ARG...], name: value}`` (the default of an option not
    given; a ``many`` option's values as a list).  None for any other
    command line, and for one whose values typer must refuse or explain:
    no ARG, an ARG that ``accept`` refuses, ``--help``, an unknown or
    ``typer_only`` option, ``--flag=value``, a value missing or starting
    with ``-``, a value not among the option's ``choices``, a number that
    is no whole number or outside its minimum and maximum.  A flag given
    twice counts once, its last value (as typer does)."""
    if not argv or argv[0] != command:
        return None
    by_flag = {f: o for o in table for f in o.flags}
    args: dict = {"games": []}
    args.update((o.name, o.default) for o in table if not o.typer_only)
    i = 1
    while i < len(argv):
        a = argv[i]
        o = by_flag.get(a)
        if o is None:
            if not a or a.startswith("-") or (accept is not None and not accept(a)):
                return None
            args["games"].append(a)
            i += 1
            continue
        if o.typer_only:
            return None
        if o.kind is bool:
            args[o.name] = True
            i += 1
            continue
        value = argv[i + 1] if i + 1 < len(argv) else None
        if not value or value.startswith("-") or (o.choices is not None and value not in o.choices):
            return None
        if o.kind is int:
            if not (value.isascii() and value.isdigit()):   # "²" or "١" is no number here: typer says so
                return None
            value = int(value)
            if (o.minimum is not None and value < o.minimum) or (o.maximum is not None and value > o.maximum):
                return None
        if o.many:
            args[o.name] = (args[o.name] or []) + [value]
        else:
            args[o.name] = value
        i += 2
    return args if args["games"] else None


def run_door(job: Callable[[], Any]) -> int:
    """Run ``job`` (a typer-free door's command: a true result is a failure)
    and give its exit code, 0 or 1, as the typer application ends the same
    command: an interruption is 130, without a message; a reader that
    stopped reading (``| head``) is 1, silently, as click ends it.  A
    ``SystemExit`` (:func:`~euchre_events.console.fail`) goes on to end the
    process with its code."""
    try:
        return 1 if job() else 0
    except KeyboardInterrupt:     # as typer ends a command: no message, 130
        return 130
    except BrokenPipeError:       # a reader that stopped reading (| head): as click does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def end_process(code: int) -> None:
    """End the process with the exit ``code`` of a typer-free door's
    command that has written everything (the report written and closed,
    its messages said): the standard streams flushed, then ``os._exit``,
    without the interpreter's tear-down (unloading every module, freeing
    every object one by one: some 20 million instructions after an
    ``analyze`` of 100 games, issue 21 "Speed").  ``sys.exit(code)`` as
    usual where the tear-down may still have work to do: a stream that
    cannot be flushed (Python then says so and ends with its own code),
    ``multiprocessing`` loaded (its exit handlers join and clean up),
    another thread running.  The dataclasses' compile cache is written
    first if it has new texts (:func:`euchre_events._codecache.save`: the
    interpreter's exit handlers do not run after ``os._exit``)."""
    from euchre_events import _codecache
    _codecache.save()
    threading = sys.modules.get("threading")
    if "multiprocessing" in sys.modules or (threading is not None and threading.active_count() > 1):
        sys.exit(code)
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except Exception:       # the usual exit says it
        sys.exit(code)
    os._exit(code)


def completing() -> bool:
    """Whether shell completion asked (the application answers it, never a
    typer-free door)."""
    return bool(os.environ.get("_EUCHRE_EVENTS_COMPLETE"))
