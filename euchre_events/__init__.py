"""euchre_events: record Euchre games as event streams; replay, study and audit them.

Layers (design.md): :mod:`.cards` -> :mod:`.engine` and :mod:`.variants` ->
:mod:`.events` -> :mod:`.projections` -> :mod:`.archive` -> interfaces
(:mod:`.cli`, :mod:`.widgets`).
"""
__version__ = "0.1.0"
