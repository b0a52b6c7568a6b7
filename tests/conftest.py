"""Fixtures, paths and helpers the tests share (issue 24: one home for each thing).

Where the tests of each topic live: docs/architecture.md "Tests and tools".

* Paths (``pathlib.Path``; ``os.path.join`` takes them too and gives a str):
  ``ROOT`` (the checkout), ``FIXTURES`` (``fixtures/``), ``EGN_FIXTURES``
  (``fixtures/egn``, the real EGN records), ``NOTEBOOKS`` (``notebooks/``),
  ``SHARED_RECORDS`` (``/work/shared/records/egn`` or ``../shared/records/egn``,
  the real records outside the repository; None where absent), and the records
  the tests use most: ``VWEC`` (the VWEC final), ``SIX`` (Six Points in Two
  Hands), ``CLUB`` (standard club night 1).  Import them
  (``from conftest import FIXTURES``) or take the fixtures ``fixtures_dir`` and
  ``egn_fixtures``;
* ``RUNNER``: one typer ``CliRunner`` for the command-line application
  (stdout and stderr kept apart, as the commands write them), for module-level
  use (``from conftest import RUNNER as runner``); the ``runner`` fixture is
  the same runner;
* ``cli(*args)``: ``euchre-events ARGS`` run in-process with ``RUNNER``
  (each argument ``str()``-ed, so paths may be ``Path``s; exceptions raised);
* ``tutorial_exercises(name)``: a tutorial notebook's code run here, its names.
"""
from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
EGN_FIXTURES = FIXTURES / "egn"
NOTEBOOKS = ROOT / "notebooks"
SHARED_RECORDS = next((Path(p) for p in (ROOT / ".." / "shared" / "records" / "egn",
                                         "/work/shared/records/egn") if os.path.isdir(p)), None)
VWEC = EGN_FIXTURES / "VWEC Finals.egn"
SIX = EGN_FIXTURES / "Six Points in Two Hands.egn"
CLUB = FIXTURES / "standard" / "club-night-1.euchre"

# invoke() isolates each call, so one runner serves every test
RUNNER = CliRunner()


@pytest.fixture
def runner() -> CliRunner:
    """A CliRunner for ``euchre_events.cli.app`` (``RUNNER``)."""
    return RUNNER


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    """``fixtures/`` of the checkout."""
    return FIXTURES


@pytest.fixture(scope="session")
def egn_fixtures() -> Path:
    """``fixtures/egn``: the real EGN records kept in the repository."""
    return EGN_FIXTURES


def cli(*args, catch_exceptions: bool = False, **kwargs):
    """``euchre-events ARGS`` run in-process: the click ``Result`` (``exit_code``,
    ``stdout``, ``stderr``).  An exception the command does not turn into an
    error message is raised (``catch_exceptions=True`` keeps it in the result)."""
    from euchre_events.cli import app
    return RUNNER.invoke(app, [str(a) for a in args], catch_exceptions=catch_exceptions, **kwargs)


def tutorial_exercises(name: str) -> dict:
    """Run the code cells of ``notebooks/<name>`` here, in the notebooks folder
    as its kernel does, and return the names they define (its exercises).
    Raises what a cell raises."""
    import nbformat
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    ns, cwd = {}, os.getcwd()
    os.chdir(NOTEBOOKS)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            for cell in nb.cells:
                if cell.cell_type == "code":
                    exec(compile(cell.source, name, "exec"), ns)
    finally:
        os.chdir(cwd)
    return ns
