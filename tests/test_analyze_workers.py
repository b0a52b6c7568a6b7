"""``analyze FILE... --workers N`` over the games of record files: N forked
processes take a few contiguous runs of games each, and the report is the
same bytes as with ``--workers 1`` (the games in the same order, the same
errors named the same way, in json, text and html).  The records are real:
the MotE week 5 match (``fixtures/egn/match``, 6 games, 73 deals), the same
match with one card of its third game changed so that the game cannot be
read, and the parlour game of two hands."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import EGN_FIXTURES, FIXTURES, ROOT, RUNNER as runner
from euchre_events.cli import app
from euchre_events.review import _spans

MATCH = str(EGN_FIXTURES / "match" / "MotE W5 Match.emn")
PARLOUR = str(FIXTURES / "two-handed" / "parlour-2.euchre")


def _analyze(tmp_path, name: str, *args) -> tuple:
    """``(exit code, stdout, stderr, the -o file's bytes)`` of ``python -m
    euchre_events analyze ARGS -o FILE`` (the command as a person runs it)."""
    out = tmp_path / name
    p = subprocess.run([sys.executable, "-m", "euchre_events", "analyze", *args, "-o", str(out)],
                       capture_output=True, cwd=ROOT)
    return p.returncode, p.stdout.replace(str(out).encode(), b"OUT"), p.stderr, \
        out.read_bytes() if out.exists() else None


@pytest.fixture(scope="module")
def broken_match(tmp_path_factory):
    """The MotE match with its third game's first trick broken: West plays
    the J♥ North led (it is not in West's hand)."""
    with open(MATCH, encoding="utf-8") as f:
        doc = json.load(f)
    trick = doc["games"][2]["gameData"]["deals"][0]["phases"][1]["tricks"][0]
    assert trick == ["Jh", "Ah", "9h", "Th"]
    trick[2] = "Jh"
    path = tmp_path_factory.mktemp("broken") / "broken.emn"
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("fmt", ["json", "text", "html"])
def test_the_games_of_a_match_in_two_processes_are_the_same_bytes(tmp_path, fmt):
    one = _analyze(tmp_path, f"one.{fmt}", MATCH, "--face-up-only", "--format", fmt)
    two = _analyze(tmp_path, f"two.{fmt}", MATCH, "--face-up-only", "--format", fmt, "--workers", "2")
    assert one[0] == 0 and one[3], one[2]
    assert two == one
    if fmt == "json":
        games = json.loads(one[3])["games"]
        assert [g["title"] for g in games] == [f"MotE W5 G{i}" for i in range(1, 7)]
        assert sum(len(g["deals"]) for g in games) == 73


@pytest.mark.parametrize("fmt", ["json", "text", "html"])
def test_a_game_that_cannot_be_read_is_named_as_with_one_process(tmp_path, broken_match, fmt):
    args = (broken_match, PARLOUR, "--face-up-only", "--format", fmt)
    one = _analyze(tmp_path, f"one.{fmt}", *args)
    two = _analyze(tmp_path, f"two.{fmt}", *args, "--workers", "2")
    three = _analyze(tmp_path, f"three.{fmt}", *args, "--workers", "3")
    assert one[0] == 1 and one[3]
    assert two == one and three == one
    assert one[2].decode().splitlines() == [
        f"error: {broken_match}, deal 1, event 10 (CardPlayed): game 3: West (WWMM) cannot play JH: it is "
        "not in that hand (it was dealt elsewhere or already played) (EGN dealNumber 0)"]
    if fmt == "json":
        doc = json.loads(one[3])
        assert [g["title"] for g in doc["games"]] == [
            "MotE W5 G1", "MotE W5 G2", "MotE W5 G4", "MotE W5 G5", "MotE W5 G6", "Parlour game 2 (stick the dealer)"]
        assert [e["file"] for e in doc["errors"]] == [broken_match]


def test_games_without_the_deal_asked_are_named_in_order(tmp_path, broken_match):
    """``--deal 12``: the games of ten and eleven deals (1, 3 and 5) are
    named, in the order of the files, the game that cannot be read before
    them in its file; by both doors (typer's too)."""
    args = (MATCH, broken_match, "--face-up-only", "--deal", "12", "--format", "json")
    one = _analyze(tmp_path, "one.json", *args)
    two = _analyze(tmp_path, "two.json", *args, "--workers", "2")
    assert one[0] == 1 and two == one
    doc = json.loads(one[3])
    assert [(g["title"], [d["deal"] for d in g["deals"]]) for g in doc["games"]] == [
        (f"MotE W5 G{i}", [12]) for i in (2, 4, 6, 2, 4, 6)]
    assert [e["file"] for e in doc["errors"]] == [MATCH] * 3 + [broken_match] * 3
    assert [e["error"] for e in doc["errors"][:3]] == [f"{MATCH}, game {n}: deal 12 is not in the game (deals {deals})"
                                                       for n, deals in ((1, "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11"),
                                                                        (3, "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11"),
                                                                        (5, "1, 2, 3, 4, 5, 6, 7, 8, 9, 10"))]
    assert "game 3: West (WWMM) cannot play JH" in doc["errors"][3]["error"]
    typer = runner.invoke(app, ["analyze", *args, "--workers", "2"])
    assert typer.exit_code == 1 and json.loads(typer.stdout) == doc


def test_runs_of_games_are_contiguous_and_of_about_equal_deals():
    assert _spans([1] * 100, 8) == [(0, 13), (13, 25), (25, 38), (38, 50), (50, 63), (63, 75), (75, 88),
                                    (88, 100)]
    assert _spans([13, 1, 1, 1, 13, 2], 2) == [(0, 4), (4, 6)]
    assert _spans([5, 7], 8) == [(0, 1), (1, 2)]
    assert _spans([3], 4) == [(0, 1)]


def test_many_one_deal_records_of_two_variants_are_the_same_bytes(tmp_path):
    """The 21 one-deal records of ``fixtures/standard/deals`` and
    ``fixtures/two-handed/deals``, a file each: small games, the first one
    analysed before the workers are forked."""
    files = sorted(str(p) for folder in ("standard", "two-handed")
                   for p in (FIXTURES / folder / "deals").glob("*.euchre"))
    assert len(files) == 21
    one = _analyze(tmp_path, "one.json", *files, "--face-up-only", "--format", "json")
    two = _analyze(tmp_path, "two.json", *files, "--face-up-only", "--format", "json", "--workers", "2")
    assert one[0] == 0 and two == one
    games = json.loads(one[3])["games"]
    assert [g["file"] for g in games] == files
    assert [g["variant"] for g in games] == ["standard"] * 11 + ["two-handed"] * 10


def test_a_seat_some_games_lack_names_those_games_and_analyses_the_others(tmp_path):
    """``--seat Llama`` over the VWEC final (Llama sits East) and a two-handed
    game (P1, P2): the two-handed game is named with the reason, the final is
    analysed for Llama's seat only, exit 1; the same bytes with two workers
    (a newcomer's finding: the whole run was refused)."""
    vwec = str(EGN_FIXTURES / "VWEC Finals.egn")
    args = (vwec, PARLOUR, "--face-up-only", "--deal", "1", "--seat", "Llama", "--format", "json")
    one = _analyze(tmp_path, "one.json", *args)
    two = _analyze(tmp_path, "two.json", *args, "--workers", "2")
    assert one[0] == 1 and two == one
    doc = json.loads(one[3])
    assert [g["title"] for g in doc["games"]] == ["VWEC Finals"]
    assert {d["seat"] for g in doc["games"] for deal in g["deals"] for d in deal["decisions"]} == {1}
    assert [e["file"] for e in doc["errors"]] == [PARLOUR]
    assert doc["errors"][0]["error"].startswith(f"{PARLOUR}: --seat Llama: ")
    assert f"error: {PARLOUR}: --seat Llama: " in (one[2].decode() if isinstance(one[2], bytes) else one[2])
