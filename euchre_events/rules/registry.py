"""The variant registry: every rule set of the family by the name stored in
:class:`~euchre_events.events.GameStarted` (and its aliases: EGN letters,
spellings people use).  A static table, built once at import: looking a
variant up costs one dict access.

Pure: no I/O.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from euchre_events.events import GameStarted

from euchre_events.rules.variants.bid import BidEuchre
from euchre_events.rules.variants.buck import BuckEuchre
from euchre_events.rules.variants.cutthroat import CutthroatEuchre
from euchre_events.rules.variants.ghost_hand import GhostHandEuchre
from euchre_events.rules.variants.standard import StandardEuchre
from euchre_events.rules.variants.two_handed import TwoHandedEuchre

VARIANT_CLASSES = (StandardEuchre, TwoHandedEuchre, CutthroatEuchre, GhostHandEuchre,
                   BuckEuchre, BidEuchre)
"""The six rule sets (rules.md sections 2 to 7), in the order of rules.md."""

VARIANTS: dict[str, type] = {}
"""``{name or alias: variant class}``."""
for _cls in VARIANT_CLASSES:
    VARIANTS[_cls.name] = _cls
    for _alias in _cls.aliases:
        VARIANTS[_alias] = _cls


def variant_class(name: str) -> type:
    """The variant class registered under ``name`` (or an alias).
    Raises ``ValueError`` for an unknown name."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown variant {name!r}; known: "
                         f"{', '.join(c.name for c in VARIANT_CLASSES)}") from None


def make_variant(name: str, options: Any = None):
    """The variant called ``name`` with ``options`` (a dict, the variant's
    options dataclass, or None for the defaults of rules.md).

    A variant holds nothing but its frozen options, so one instance per
    (name, options dict) is kept and shared: building one checks every
    option (half the cost of reading a one-deal game).  Raises
    ``ValueError`` for an unknown name or unknown option keys.
    """
    key = None
    if options is None or isinstance(options, dict):
        try:
            items = () if options is None else tuple(options.items())
            # the types too: True == 1 and 1.0 == 1, but they are not the same option value
            key = (name, items, tuple(type(x) for _, x in items))
            v = _MADE.get(key)
        except TypeError:   # an unhashable value (a list): built each time, and refused there
            key = v = None
        if v is not None:
            return v
    v = variant_class(name)(options)
    if key is not None and len(_MADE) < 1024:
        _MADE[key] = v
    return v


_MADE: dict = {}


def complete_start(start: GameStarted) -> GameStarted:
    """``start`` with every option of its variant written out (defaults of
    rules.md included) and its initial score stated (the variant's own, 0 per
    side, when the record gives none), as a tuple: the one form in which a
    game is stored, hashed for its id and replayed (docs/design.md "What a variant
    is": a record replays the same way forever).  Returns ``start`` itself
    when it is complete already.

    Raises ``ValueError`` for an unknown variant or option (and whatever the
    options dataclass raises for a bad value: ``ValueError``/``TypeError``).
    """
    v = make_variant(start.variant, start.options)
    options = v.options.to_dict()
    init = tuple(start.initial_score) if start.initial_score else tuple(v.initial_scores())
    if start.options == options and start.initial_score == init:
        return start
    return dataclasses.replace(start, options=options, initial_score=init)
