"""Projections: folds from a game's events to what people look at (docs/design.md
"Projections").  Pure: no I/O; nothing here is ever stored.

* :mod:`.game`: :class:`Game` (a validated event list with per-deal
  checkpoints) and :class:`TableState` (the immutable table after k events);
* :mod:`.audit`: renege findings and irregularities (:class:`Finding`);
* :mod:`.seat`: what a seat could know (:func:`knowledge`, :class:`SeatKnowledge`,
  :func:`event_visible`), the one source of every seat view.
"""
# the audit's names at import, not on demand: ``audit`` is both a function and its module, and
# a submodule imported first (``from euchre_events.projections.audit import audit``) would
# otherwise leave the package's ``audit`` the module, not the function
from euchre_events.lazy import lazy_names
from euchre_events.projections.audit import DealReport, Finding, audit, deal_reports  # noqa: E402

__all__ = ["Game", "TableState", "snapshot", "Finding", "DealReport", "audit", "deal_reports", "SeatKnowledge", "knowledge",
           "event_visible"]

_WHERE = {"Game": "game", "TableState": "state", "snapshot": "state", "SeatKnowledge": "seat", "knowledge": "seat",
          "event_visible": "seat"}
"""The module of each name of ``__all__`` given on demand."""


# a command that folds and analyses games (``Game``) does not load the seat views nor the
# immutable states (issue 21 "Speed", start-up): their names come when first asked for
__getattr__, __dir__ = lazy_names(__name__, _WHERE)
