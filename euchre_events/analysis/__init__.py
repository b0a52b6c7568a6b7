"""Analysis of recorded deals (issue 21): what every decision was worth.
Pure: no I/O.  See docs/analysis.md.

* :mod:`.solver`: the face-up solver (every hand visible, exact), every
  variant and phase: :func:`~.solver.action_values`, :func:`~.solver.solve`;
* :mod:`.sampling`: the seat view (the unseen cards dealt many ways, each
  solved face up): :func:`~.sampling.seat_view`;
* :mod:`.winchance`: deal points as game-win chances from the score;
* :mod:`.labels`: the EGN project's labels and lichess's accuracy;
* :mod:`.review`: :func:`analyze` a game, the results as frozen dataclasses
  that draw themselves in Jupyter.

``from euchre_events.analysis import analyze`` (the names below are loaded on
first use, so importing the package costs nothing).
"""
from __future__ import annotations

__all__ = ["analyze", "analyze_deal", "GameAnalysis", "DealAnalysis", "Decision", "Option", "PlayerSummary",
           "action_values", "solve", "seat_view", "Unknowable"]

_HOMES = {"analyze": "review", "analyze_deal": "review", "GameAnalysis": "review", "DealAnalysis": "review",
          "Decision": "review", "Option": "review", "PlayerSummary": "review", "action_values": "solver",
          "solve": "solver", "Unknowable": "solver", "seat_view": "sampling"}


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'euchre_events.analysis' has no attribute {name!r}")
    import importlib
    return getattr(importlib.import_module(f"euchre_events.analysis.{home}"), name)
