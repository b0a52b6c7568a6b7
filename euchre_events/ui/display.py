"""Rich display in Jupyter for the core types, registered from the interface
layer so that the rules and projections never import presentation
(docs/architecture.md): a :class:`~euchre_events.rules.cards.Card` draws as a
card (HTML and SVG), a :class:`~euchre_events.projections.TableState` as the
table (all hands face up).

:func:`register_display` is called by the modules a notebook imports
(:mod:`.widgets`, :mod:`.tutorial`), not by importing :mod:`euchre_events.ui`
(which does nothing: a command that prints a report does not load the
drawing); call it yourself in a notebook that uses neither, or with a shell
to register on another one.
"""
from __future__ import annotations

from typing import Any, Optional

from euchre_events.projections import TableState
from euchre_events.rules.cards import Card
from euchre_events.ui.render import card_html, card_svg, state_html


def register_display(shell: Optional[Any] = None) -> bool:
    """Register HTML/SVG formatters for ``Card`` and ``TableState`` on an
    IPython ``shell`` (the running one when None).  Returns False when there
    is no IPython shell (plain Python: nothing to do)."""
    if shell is None:
        import sys
        if "IPython" not in sys.modules:   # no IPython loaded, so no shell running: spare its import
            return False
        try:
            from IPython import get_ipython
        except ImportError:
            return False
        shell = get_ipython()
        if shell is None:
            return False
    formatters = shell.display_formatter.formatters
    formatters["text/html"].for_type(Card, card_html)
    formatters["image/svg+xml"].for_type(Card, card_svg)
    formatters["text/html"].for_type(TableState, state_html)
    return True
