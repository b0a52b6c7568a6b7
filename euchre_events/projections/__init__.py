"""Projections: folds from a game's events to what people look at (docs/design.md
"Projections").  Pure: no I/O; nothing here is ever stored.

* :mod:`.game`: :class:`Game` (a validated event list with per-deal
  checkpoints) and :class:`TableState` (the immutable table after k events);
* :mod:`.audit`: renege findings and irregularities (:class:`Finding`);
* :mod:`.seat`: what a seat could know (:func:`knowledge`, :class:`SeatKnowledge`,
  :func:`event_visible`), the one source of every seat view.
"""
__all__ = ["Game", "TableState", "snapshot", "Finding", "DealReport", "audit", "deal_reports", "SeatKnowledge", "knowledge",
           "event_visible"]

_WHERE = {"Game": "game", "TableState": "state", "snapshot": "state", "Finding": "audit", "DealReport": "audit",
          "audit": "audit", "deal_reports": "audit", "SeatKnowledge": "seat", "knowledge": "seat",
          "event_visible": "seat"}
"""The module of each name of ``__all__``."""


def __getattr__(name: str):
    """The names of ``__all__`` (and the submodules), imported the first
    time they are asked for: a command that folds and analyses games (``Game``)
    does not load the audit nor the seat views (issue 21 "Speed", start-up)."""
    import importlib
    if name in _WHERE:
        module = importlib.import_module(f"{__name__}.{_WHERE[name]}")
        value = getattr(module, name)
        globals()[name] = value
        if _WHERE[name] == "audit":
            # loading the submodule made the package's ``audit`` that module: the function, as before
            globals()["audit"] = module.audit
        return value
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as e:
        if e.name != f"{__name__}.{name}":
            raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
