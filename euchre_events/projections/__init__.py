"""Projections: folds from a game's events to what people look at (docs/design.md
"Projections").  Pure: no I/O; nothing here is ever stored.

* :mod:`.game`: :class:`Game` (a validated event list with per-deal
  checkpoints) and :class:`TableState` (the immutable table after k events);
* :mod:`.audit`: renege findings and irregularities (:class:`Finding`);
* :mod:`.seat`: what a seat could know (:func:`knowledge`, :class:`SeatKnowledge`,
  :func:`event_visible`), the one source of every seat view.
"""
import sys
import types

from euchre_events.projections.game import Game, TableState, snapshot

# The audit's and the seat views' names are imported the first time they are asked for
# (PEP 562): folding a game (the analyze command) loads neither module.
_LAZY = {"DealReport": "audit", "Finding": "audit", "deal_reports": "audit",
         "SeatKnowledge": "seat", "event_visible": "seat", "knowledge": "seat"}


def __getattr__(name: str):
    """``DealReport``, ``Finding``, ``deal_reports`` (from :mod:`.audit`) and
    ``SeatKnowledge``, ``event_visible``, ``knowledge`` (from :mod:`.seat`),
    imported on first use; AttributeError for any other name."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    globals()[name] = value
    return value


class _Package(types.ModuleType):
    """This package's module type: its ``audit`` stays the function
    :func:`.audit.audit` even after the submodule of that name is imported
    (the import system sets the package's attribute to the submodule then)."""

    @property
    def audit(self):
        from euchre_events.projections.audit import audit
        return audit

    @audit.setter
    def audit(self, _module) -> None:
        pass


sys.modules[__name__].__class__ = _Package

__all__ = ["Game", "TableState", "snapshot", "Finding", "DealReport", "audit", "deal_reports", "SeatKnowledge", "knowledge",
           "event_visible"]
