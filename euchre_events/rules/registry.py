"""The variant registry: every rule set of the family by the name stored in
:class:`~euchre_events.events.GameStarted` (and its aliases: EGN letters,
spellings people use).  A static table, built once on first use (a name
looked up before that imports its own module only): looking a variant up
costs one dict access.

Pure: no I/O.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from euchre_events.events import GameStarted

_MODULES = ("standard", "two_handed", "cutthroat", "ghost_hand", "buck", "bid")
"""The modules of ``rules/variants/`` holding the six rule sets (rules.md
sections 2 to 7, in that order); each variant's name with ``-`` for ``_``."""

_BY_NAME: dict = {}
"""``{name: variant class}`` of the variants looked up so far."""


def _table() -> None:
    """Import every variant: :data:`VARIANT_CLASSES` and :data:`VARIANTS`."""
    import importlib
    from euchre_events.rules.variant import Variant
    classes = []
    for m in _MODULES:
        mod = importlib.import_module(f"euchre_events.rules.variants.{m}")
        classes += [c for c in vars(mod).values() if isinstance(c, type) and issubclass(c, Variant)
                    and c.__module__ == mod.__name__ and "name" in vars(c)]
    table: dict = {}
    for cls in classes:
        table[cls.name] = cls
        for alias in cls.aliases:
            table[alias] = cls
    globals().update(VARIANT_CLASSES=tuple(classes), VARIANTS=table)


def __getattr__(name: str):
    """:data:`VARIANT_CLASSES` (the six rule sets, rules.md order) and
    :data:`VARIANTS` (``{name or alias: variant class}``), built on first
    use: a command that meets one variant imports only its module (a reader
    of OpenSpiel files: standard Euchre)."""
    if name in ("VARIANT_CLASSES", "VARIANTS"):
        _table()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def variant_class(name: str) -> type:
    """The variant class registered under ``name`` (or an alias).
    Raises ``ValueError`` for an unknown name."""
    cls = _BY_NAME.get(name) if type(name) is str else None
    if cls is not None:
        return cls
    if type(name) is str and name.replace("-", "_") in _MODULES and "VARIANTS" not in globals():
        import importlib
        mod = importlib.import_module("euchre_events.rules.variants." + name.replace("-", "_"))
        cls = next((c for c in vars(mod).values() if isinstance(c, type)
                    and c.__module__ == mod.__name__ and vars(c).get("name") == name), None)
    if cls is None:
        table = __getattr__("VARIANTS") if "VARIANTS" not in globals() else globals()["VARIANTS"]
        try:
            cls = table[name]
        except (KeyError, TypeError):
            raise ValueError(f"unknown variant {name!r}; known: "
                             f"{', '.join(c.name for c in __getattr__('VARIANT_CLASSES'))}") from None
    if type(name) is str:
        _BY_NAME[name] = cls
    return cls


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
