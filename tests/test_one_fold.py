"""The one-fold path (issue "Speed"): a reader's record builder folds each
event once, as it is added, and the :class:`Game` it hands on is made from
that table (``Game.from_folded``) instead of folding the events again.

Checked against the reference fold (``Game(events)``: ``engine.fold`` from
the start, with its checkpoints) at every event, for every variant's
fixtures (complete games and hand-checked deals, the renege fixtures among
them) and for random games of every variant with reneges injected.
"""
from __future__ import annotations

import glob
import os
import subprocess
import sys

import pytest

from conftest import ROOT
from euchre_events.formats import read_records, with_initial_score
from euchre_events.formats.builder import RecordBuilder
from euchre_events.formats.openspiel import read_openspiel_file
from euchre_events.projections import Game, snapshot
from euchre_events.rules.registry import VARIANT_CLASSES
from euchre_events.rules.simulate import random_game

VARIANT_DIRS = ("standard", "two-handed", "cutthroat", "bid", "buck", "ghost-hand")
FIXTURES = sorted(p for v in VARIANT_DIRS
                  for p in glob.glob(os.path.join(ROOT, "fixtures", v, "*.euchre"))
                  + glob.glob(os.path.join(ROOT, "fixtures", v, "deals", "*.euchre")))


def _one_fold_matches_reference(events: list, where: str) -> Game:
    """Add ``events`` to a builder that folds each one as it comes (its live
    table), compare the table after every event with the reference fold, then
    check the Game the builder validates with: made from that very table, the
    same at every event, the same audit."""
    events = with_initial_score(list(events))   # as every reader's builder states it
    ref = Game(events)
    b = RecordBuilder(where, "test")
    b.add(events[0])
    live = b.table                       # from here on every add folds into it
    assert snapshot(live) == ref.state_at(1), (where, 1)
    for k, ev in enumerate(events[1:], 2):
        b.add(ev)
        assert b.table is live
        assert snapshot(live) == ref.state_at(k), (where, k, ev)
    g = b.validate()
    assert g.final is live                # no second fold
    assert g.events == ref.events
    for k in range(len(events) + 1):
        assert g.state_at(k) == ref.state_at(k), (where, k)
    assert g.audit() == ref.audit()
    assert (g.final_score, g.official_score, g.winner) == (ref.final_score, ref.official_score,
                                                            ref.winner)
    return g


def test_there_are_fixtures_of_every_variant_with_reneges():
    assert {os.path.relpath(p, os.path.join(ROOT, "fixtures")).split(os.sep)[0]
            for p in FIXTURES} == set(VARIANT_DIRS)
    reneges = [p for p in FIXTURES if any(Game(r.events).final.reneges for r in read_records(p))]
    assert len({p.split(os.sep)[-2] if "deals" not in p else p.split(os.sep)[-3]
                for p in reneges}) == len(VARIANT_DIRS), reneges


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: os.path.relpath(p, ROOT))
def test_one_fold_equals_reference_fold_on_fixtures(path):
    for rec in read_records(path):
        _one_fold_matches_reference(list(rec.events), path)


@pytest.mark.parametrize("name", sorted(c.name for c in VARIANT_CLASSES))
def test_one_fold_equals_reference_fold_with_reneges_injected(name):
    n_reneges = 0
    for seed in range(6):
        evs = random_game(name, seed=seed, renege_rate=0.15)
        g = _one_fold_matches_reference(evs, f"{name} seed {seed}")
        n_reneges += len(g.final.reneges)
    assert n_reneges > 0


def test_openspiel_records_carry_the_game_folded_once(tmp_path):
    """The OpenSpiel reader reads the live table to decode each action: the
    record's game is that table, equal to the reference fold at every event."""
    gen = os.path.join(ROOT, "..", "shared", "tools", "openspiel_games.py")
    if not os.path.exists(gen):
        gen = "/work/shared/tools/openspiel_games.py"
    pytest.importorskip("pyspiel")
    out = tmp_path / "g.jsonl"
    subprocess.run([sys.executable, gen, "--n", "30", "--seed", "3", "--allow-lone-defender",
                    "--out", str(out)], check=True, capture_output=True)
    recs = read_openspiel_file(str(out))
    assert len(recs) == 30
    for rec in recs:
        ref = Game(rec.events)
        assert rec.game is not None and rec.game.events == ref.events
        for k in range(len(rec.events) + 1):
            assert rec.game.state_at(k) == ref.state_at(k)
        assert rec.game.final_score == ref.final_score and rec.game.audit() == ref.audit()


def test_adding_after_validation_does_not_change_the_validated_game():
    evs = random_game("standard", seed=1)
    b = RecordBuilder("x", "test")
    b.add(evs[0])
    b.table
    for ev in evs[1:-1]:
        b.add(ev)
    g = b.validate()
    before = snapshot(g.final)
    b.add(evs[-1])
    assert snapshot(g.final) == before and len(g.events) == len(evs) - 1
    assert b.validate().state_at(-1) == Game(with_initial_score(evs)).state_at(-1)
