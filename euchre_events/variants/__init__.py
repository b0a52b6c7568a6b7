"""Variants of the Euchre family: each plugs into :mod:`euchre_events.engine`.

``make_variant(name, options)`` builds one from the name stored in a
:class:`~euchre_events.events.GameStarted` event.
"""
from __future__ import annotations

from typing import Any

VARIANTS: dict[str, type] = {}


def register(cls):
    """Class decorator: make a variant known under ``cls.name`` (and aliases)."""
    VARIANTS[cls.name] = cls
    for alias in getattr(cls, "aliases", ()):
        VARIANTS[alias] = cls
    return cls


def make_variant(name: str, options: Any = None):
    """The variant called ``name`` with ``options`` (dict, dataclass or None).

    Raises ``ValueError`` for an unknown name or unknown option keys.
    """
    _load_all()
    try:
        cls = VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}; known: {', '.join(sorted(set(VARIANTS)))}") from None
    return cls(options)


def variant_class(name: str):
    """The variant class registered under ``name``."""
    _load_all()
    return VARIANTS[name]


def _load_all() -> None:
    import importlib
    import pkgutil
    for m in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{m.name}")
