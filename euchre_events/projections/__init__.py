"""Projections: folds from a game's events to what people look at (docs/design.md
"Projections").  Pure: no I/O; nothing here is ever stored.

* :mod:`.game`: :class:`Game` (a validated event list with per-deal
  checkpoints) and :class:`TableState` (the immutable table after k events);
* :mod:`.audit`: renege findings and irregularities (:class:`Finding`);
* :mod:`.seat`: what a seat could know (:func:`knowledge`, :class:`SeatKnowledge`,
  :func:`event_visible`), the one source of every seat view.
"""
from euchre_events.projections.audit import DealReport, Finding, audit, deal_reports
from euchre_events.projections.game import Game, TableState, snapshot
from euchre_events.projections.seat import SeatKnowledge, event_visible, knowledge

__all__ = ["Game", "TableState", "snapshot", "Finding", "DealReport", "audit", "deal_reports", "SeatKnowledge", "knowledge",
           "event_visible"]
