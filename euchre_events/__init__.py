"""euchre_events: record Euchre games as event streams; replay, study and audit them.

Layers, bottom to top (docs/architecture.md; kept by the import-linter
contract in pyproject.toml): :mod:`.events` and :mod:`.samples` (the
vocabulary; the shipped files) -> :mod:`.rules` (cards, the shared engine,
the variants: pure) -> :mod:`.projections` (folds: the table, the audit, the
viewer model) -> :mod:`.analysis` (what each decision was worth) ->
:mod:`.formats` (records in and out) -> :mod:`.archive` (the eventsourcing
store) -> :mod:`.options` (a command's options, declared once) ->
:mod:`.console` (every command's messages) -> :mod:`.ui` (text,
HTML, widgets, tutorials, reports) -> :mod:`.batch` (the audit's door) ->
:mod:`.corpus` -> :mod:`.review` (``analyze``) -> :mod:`.cli` ->
:mod:`.__main__`.
"""
# first: the dataclasses of every module below take their generated methods'
# code from the compile cache (issue 21 "Speed")
from euchre_events import _codecache  # noqa: F401


def __getattr__(name: str):
    """``__version__``, read from the installed metadata the first time it
    is asked for: ``importlib.metadata`` scans the installed distributions,
    a sixth of the start-up of a command that never prints the version."""
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version
        global __version__
        try:  # one source of the version: pyproject.toml, read back from the installed metadata
            __version__ = version("euchre_events")
        except PackageNotFoundError:  # run from a checkout that was never installed
            __version__ = "0+unknown"
        return __version__
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
