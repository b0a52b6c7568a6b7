"""``euchre-events`` and ``python -m euchre_events``: the command's entry
point.  An audit whose command line the audit's own table of options
reads (:func:`euchre_events.batch.parse_audit`) runs straight from
:mod:`euchre_events.batch`, and an ``analyze`` of record files from
:mod:`euchre_events.review` (issue 21 "Speed"), without loading the command-line application
(``typer`` and the other commands); every other command line goes to
:func:`euchre_events.cli.main`, the same commands and the same output.
"""
from __future__ import annotations

import sys


def main() -> None:
    """Console-script entry point (exits with the command's code; an
    ``analyze`` that its door ran ends the process at once:
    :func:`euchre_events.options.end_process`)."""
    from euchre_events.batch import quick_audit
    code = quick_audit(sys.argv[1:])
    if code is None:
        from euchre_events.review import quick_analyze
        code = quick_analyze(sys.argv[1:])
        if code is not None:        # all written: no tear-down of the interpreter (issue 21 "Speed")
            from euchre_events.options import end_process
            end_process(code)
    if code is None:
        from euchre_events.cli import app
        app()
        return
    sys.exit(code)


if __name__ == "__main__":
    main()
