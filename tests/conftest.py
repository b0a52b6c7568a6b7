"""Fixtures and paths the tests share (issue 24: one home for each thing).

* ``ROOT`` (the checkout), ``FIXTURES`` (``fixtures/``), ``EGN_FIXTURES``
  (``fixtures/egn``, the real EGN records), ``SHARED_RECORDS``
  (``/work/shared/records/egn`` or ``../shared/records/egn``, the real
  records outside the repository; None where absent): import them
  (``from conftest import FIXTURES``) or take the fixtures of the same
  name in lower case;
* ``runner``: a typer ``CliRunner`` for the command-line application
  (stdout and stderr kept apart, as the commands write them).
"""
from __future__ import annotations

import os

import pytest
from typer.testing import CliRunner

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "fixtures")
EGN_FIXTURES = os.path.join(FIXTURES, "egn")
SHARED_RECORDS = next((p for p in (os.path.join(ROOT, "..", "shared", "records", "egn"),
                                   "/work/shared/records/egn") if os.path.isdir(p)), None)


@pytest.fixture
def runner() -> CliRunner:
    """A CliRunner for ``euchre_events.cli.app``."""
    return CliRunner()


@pytest.fixture(scope="session")
def fixtures_dir() -> str:
    """``fixtures/`` of the checkout."""
    return FIXTURES


@pytest.fixture(scope="session")
def egn_fixtures() -> str:
    """``fixtures/egn``: the real EGN records kept in the repository."""
    return EGN_FIXTURES
