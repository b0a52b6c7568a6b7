"""Rules read from the variant, not restated (issue 24, "rules re-derived
outside rules/"): whether a call was made (the read models' deals), the
Buck and Ghost Hand scoring words of the tutorial, the game-index row of
``list`` without read models, and the side a seat plays for in the club
statistics.  Each test changes the rule in the variant and checks the copy
follows: a copy with its own numbers would not."""
import glob
import json
import os
import uuid

import pytest

from conftest import FIXTURES
from euchre_events import cli
from euchre_events.archive import Archive, clubstats
from euchre_events.archive.readmodels import ReadModels, game_rows
from euchre_events.formats import read_records
from euchre_events.projections import Game
from euchre_events.rules.registry import make_variant
from euchre_events.rules.variants.buck import BuckEuchre
from euchre_events.rules.variants.ghost_hand import GhostHandEuchre
from euchre_events.rules.variants.standard import StandardEuchre
from euchre_events.ui import tutorial as T

GID = uuid.UUID(int=24)
VARIANTS = ("standard", "two-handed", "cutthroat", "ghost-hand", "buck", "bid")


def _games(variant: str) -> list:
    return [r.events for p in sorted(glob.glob(os.path.join(FIXTURES, variant, "*.euchre")))
            for r in read_records(p)]


def _first_deal_with(games: list, maker_tricks: int) -> list:
    """The events of a game up to the end of the first deal whose makers,
    not alone, took ``maker_tricks`` (an unfinished game: a changed score
    cannot end it)."""
    for events in games:
        g = Game(events)
        v = g.final.variant
        for d in g.deal_reports():
            if d.maker is None or d.note or not d.tricks or d.alone is not None:
                continue
            if sum(t for s, t in enumerate(d.tricks) if v.side_of(s) == v.side_of(d.maker)) == maker_tricks:
                return events[:T.deal_end(g, d.deal)]
    raise AssertionError(f"no deal whose makers took {maker_tricks}")


@pytest.mark.parametrize("variant", VARIANTS)
def test_made_agrees_with_the_variants_score(variant):
    """Every deal of the shipped games: the read models' ``made`` says what
    the variant's score_deal scored (made: the makers' side gained, Buck's
    maker went down; else euchred, set or bucked)."""
    checked = 0
    for events in _games(variant):
        g = Game(events)
        reports = {d.deal: d for d in g.deal_reports()}
        v = g.final.variant
        for row in game_rows(GID, events)["deals"]:
            d = reports[row["deal"]]
            if row["made"] is None or d.penalties:
                continue
            pts = d.points_as_played[v.side_of(d.maker)]
            assert row["made"] == int(pts < 0 if variant == "buck" else pts > 0), (variant, row["deal"])
            checked += 1
    assert checked >= 5


def test_made_follows_the_tricks_the_variant_needs(monkeypatch):
    """Makers with 3 tricks made their call; where the variant asks 4, the
    same deal is a euchre in the score and in the read models alike."""
    events = _first_deal_with(_games("standard"), 3)
    last = game_rows(GID, events)["deals"][-1]
    assert (last["maker_tricks"], last["made"]) == (3, 1)
    monkeypatch.setattr(StandardEuchre, "MAKERS_NEED", 4)
    g = Game(events)
    last = game_rows(GID, events)["deals"][-1]
    assert (last["maker_tricks"], last["made"]) == (3, 0)
    d = g.deal_reports()[-1]
    assert d.points_as_played[1 - g.final.variant.side_of(d.maker)] == 2   # the defenders score the euchre


def _buck_deal(name: str):
    (rec,) = read_records(os.path.join(FIXTURES, "buck", "deals", name))
    return rec.events


def test_buck_words_are_the_variants_numbers(monkeypatch):
    """The tutorial's Buck scoring words say the numbers BuckEuchre scores
    with: 3 tricks needed, minus 1 a trick, up 5 when bucked; changed there,
    changed in the words and the score alike."""
    events = _buck_deal("maker-three-tricks-dropped-player-zero.euchre")
    g = Game(events)
    st = g.state_at(len(events))
    pts = g.final.deal_results[-1][1]
    assert list(pts) == [-3, -2, 0, 5]
    assert T.buck_rule(st, 0, pts) == "North (Al), the maker, took 3 tricks: 3 or more, so minus 1 a trick"
    assert T.buck_rule(st, 3, pts) == "bucked: West (Dee) stayed in and took no trick, so West (Dee) goes up 5"
    monkeypatch.setattr(BuckEuchre, "BUCKED", 6)
    monkeypatch.setattr(BuckEuchre, "PER_TRICK", -2)
    monkeypatch.setattr(BuckEuchre, "MAKERS_NEED", 4)
    g = Game(events)
    pts = g.final.deal_results[-1][1]
    assert list(pts) == [6, -4, 0, 6]          # the maker with 3 of 4 needed is bucked now
    st = g.state_at(len(events))
    assert T.buck_rule(st, 0, pts) == ("bucked: North (Al), the maker, took only 3 tricks (fewer than 4), "
                                       "so North (Al) goes up 6")
    assert T.buck_rule(st, 1, pts) == "East (Bo) stayed in and took 2 tricks: minus 2 a trick"
    assert "took only 3 tricks: look up what being bucked costs" in T.points_hint(st, 0, pts)


def test_ghost_hand_trick_value_is_the_variants(monkeypatch):
    """The tutorial's words for a Ghost Hand player who did not win the
    bidding say GhostHandEuchre's points per trick, as its score_deal counts."""
    game, deal, other = next((g, d.deal, s) for g in map(Game, _games("ghost-hand")) for d in g.deal_reports()
                             if d.maker is not None and not d.note
                             for s in range(3) if s != d.maker and d.tricks[s])
    before = T.deal_points(game, deal, other, [0, 1, 2])
    assert "such a player scores 1 a trick" in before.explanation
    monkeypatch.setattr(GhostHandEuchre, "PER_TRICK", 2)
    events = game.events[:T.deal_end(game, deal)]
    g = Game(events)
    took = g.state_at(len(events)).tricks_won[other]
    ex = T.deal_points(g, deal, other, [0, 1, 2])
    assert ex.answer == 2 * took
    assert "such a player scores 2 a trick" in ex.explanation


def test_list_without_read_models_prints_the_index_rows(tmp_path, capsys):
    """``list`` without read models (every game folded) prints what it
    prints from the game index: the same JSON and the same lines, for games
    of every variant (the row is made in one place, readmodels.index_values)."""
    arch = Archive(str(tmp_path / "a.sqlite"))
    for variant in VARIANTS:
        for p in sorted(glob.glob(os.path.join(FIXTURES, variant, "*.euchre")))[:2]:
            arch.import_records(read_records(p))
    rm = ReadModels(arch)
    rm.catch_up()
    outs = []
    for as_json in (True, False):
        cli._list_from_index(rm, None, None, as_json, arch)
        from_index = capsys.readouterr().out
        cli._list_by_folding(arch, None, None, as_json)
        folded = capsys.readouterr().out
        assert folded == from_index
        outs.append(folded)
    games = json.loads(outs[0])["games"]
    assert {g["variant"] for g in games} == set(VARIANTS)
    assert len(outs[1].splitlines()) == len(games)


@pytest.mark.parametrize("variant", VARIANTS)
def test_club_stats_side_is_the_variants(variant):
    v = make_variant(variant)
    for i, seats in enumerate(v.sides()):
        for s in seats:
            assert clubstats.seat_side(variant, s) == i


def test_club_stats_side_follows_a_changed_side_of(monkeypatch):
    """Partners seated side by side (a variant whose side_of says so): the
    club statistics count the wins of the side the variant says."""
    monkeypatch.setattr(clubstats, "_SIDE_CACHE", {})
    monkeypatch.setattr(StandardEuchre, "side_of", lambda self, seat: seat // 2)
    assert [clubstats.seat_side("standard", s) for s in range(4)] == [0, 0, 1, 1]


def test_made_is_the_variants_one_judgement(monkeypatch):
    """The read models' ``made`` and the score both ask ``Variant.call_made``:
    a variant that judged every call failed gives a euchre in both, with the
    makers' tricks as they were."""
    events = _first_deal_with(_games("standard"), 3)
    monkeypatch.setattr(StandardEuchre, "call_made", lambda self, tricks_won, maker, contract=None: False)
    last = game_rows(GID, events)["deals"][-1]
    assert (last["maker_tricks"], last["made"]) == (3, 0)
    g = Game(events)
    d = g.deal_reports()[-1]
    assert d.points_as_played[g.final.variant.side_of(d.maker)] == 0
    assert d.points_as_played[1 - g.final.variant.side_of(d.maker)] == 2
