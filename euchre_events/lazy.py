"""Names of a package given on demand (PEP 562), one way for every package
that keeps a heavy module off the start-up of the commands that do not
need it (issue 21 "Speed"; docs/architecture.md).  Standard library only:
the lowest layer, importable from any package."""
from __future__ import annotations

import importlib
import sys
from typing import Mapping, Optional

__all__ = ["lazy_names"]


def lazy_names(package: str, homes: Mapping[str, str], default: Optional[str] = None) -> tuple:
    """``(__getattr__, __dir__)`` of ``package`` (its ``__name__``), to be
    assigned at its module level.  ``__dir__`` lists the names given on
    demand too (``dir()``, a notebook's completion).  ``__getattr__``:
    a name of ``homes`` (``{name: submodule}``; a name of the package's
    ``__all__`` not in it: the submodule ``default``, when given) is
    imported from ``package.submodule`` the first time it is asked for and
    kept in the package; any other name is tried as a submodule.  Raises
    ``AttributeError`` for a name that is neither (as a module does), and
    lets the ``ImportError`` of a submodule that exists but fails through.

    A name equal to its submodule's (a function ``audit`` in ``audit.py``)
    must not be given on demand: importing that submodule first would leave
    the package's name the module (import it at the package's import)."""
    def __getattr__(name: str):
        mod = sys.modules[package]
        home = homes.get(name)
        if home is None and default is not None and name in getattr(mod, "__all__", ()):
            home = default
        if home is not None:
            value = getattr(importlib.import_module(f"{package}.{home}"), name)
            setattr(mod, name, value)
            return value
        try:
            return importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{package}.{name}":
                raise
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list:
        mod = sys.modules[package]
        return sorted(set(vars(mod)) | set(getattr(mod, "__all__", ())) | set(homes))
    return __getattr__, __dir__
