"""Output people can read (issue 12): sides and winners by name in ``list``
and ``show``, ``list`` with players, date and its filters, and a ``--help``
without typer's type markup or reST, with examples for every command.

Expected values from the records: the VWEC final (fixtures/egn/"VWEC
Finals.egn": WWMM & Euchrazy1 N/S 8, Llama & LeftyKnavey E/W 10, dated
2026-05-29T16:30), club night 1 (Ann & Cora N/S 10, Bob & Dan 4; deal 10:
N 3 tricks, E 1, S 1) and cutthroat table 2 (Jo 8, Kit 11, Lee 4).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from euchre_events.cli import EXAMPLES, app
from euchre_events.ui.describe import score_words, side_name, sides_of, winner_words

ROOT = Path(__file__).resolve().parent.parent
VWEC = str(ROOT / "fixtures" / "egn" / "VWEC Finals.egn")
CLUB = str(ROOT / "fixtures" / "standard" / "club-night-1.euchre")
CUT = str(ROOT / "fixtures" / "cutthroat" / "cutthroat-2.euchre")


def run(*args):
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("arch") / "a.sqlite")
    r = run("import", VWEC, CLUB, CUT, "--db", path)
    assert r.exit_code == 0, r.output
    return path, {line.split("  ")[1]: line.split()[0] for line in r.stdout.splitlines()}


def test_sides_and_winners_in_words():
    vwec = ("WWMM", "Llama", "Euchrazy1", "LeftyKnavey")
    assert sides_of("standard", 4) == [[0, 2], [1, 3]] and sides_of("cutthroat", 3) == [[0], [1], [2]]
    assert side_name(1, "standard", vwec) == "E/W (Llama & LeftyKnavey)"
    assert score_words([8, 10], "standard", vwec) == "N/S 8, E/W 10"
    assert winner_words(None, "standard", vwec, game_over=False) == \
        "none yet (the record stops before the game ends)"
    assert side_name(1, "cutthroat", ("Jo", "Kit", "Lee")) == "P2 (Kit)"
    assert score_words([8, 11, 4], "cutthroat", ("Jo", "Kit", "Lee")) == "P1 8, P2 11, P3 4"
    assert side_name(2, "buck", ("Ed", "Flo", "Gil", "Hope")) == "South (Gil)"


def test_list_gives_players_date_score_and_winner_by_side(db):
    path, ids = db
    lines = run("list", "--db", path).stdout.splitlines()
    assert len(lines) == 3
    vwec = next(line for line in lines if "VWEC Finals" in line)
    assert vwec == (f"{ids['VWEC Finals']}  VWEC Finals  standard  2026-05-29T16:30  players: WWMM, "
                    "Llama, Euchrazy1, LeftyKnavey  deals=13  score: N/S 8, E/W 10  "
                    "winner: E/W (Llama & LeftyKnavey)")
    cut = next(line for line in lines if "Cutthroat" in line)
    assert cut.endswith("  -  players: Jo, Kit, Lee  deals=10  score: P1 8, P2 11, P3 4  winner: P2 (Kit)")


def test_list_filters_and_json(db):
    path, ids = db
    only = run("list", "--db", path, "--variant", "euchre").stdout.splitlines()   # an alias of standard
    assert sorted(line.split()[0] for line in only) == sorted([ids["VWEC Finals"], ids["Club night, table 1"]])
    llama = run("list", "--db", path, "--player", "LLAMA").stdout.splitlines()
    assert [line.split()[0] for line in llama] == [ids["VWEC Finals"]]
    assert run("list", "--db", path, "--player", "nobody").stdout == ""
    bad = run("list", "--db", path, "--variant", "chess")
    assert bad.exit_code == 1 and "--variant: unknown variant 'chess'" in bad.output
    doc = json.loads(run("list", "--db", path, "--json", "--player", "kit").stdout)
    assert doc == {"damaged": [], "games": [{
        "id": ids["Cutthroat, table 2"], "title": "Cutthroat, table 2", "variant": "cutthroat",
        "date": None, "players": ["Jo", "Kit", "Lee"], "deals": 10, "final_score": [8, 11, 4],
        "as_played_score": [8, 11, 4], "official_score": [8, 11, 4],   # the penalty (2 each to Jo, Kit) is what deal 2 gave
        "sides": ["P1", "P2", "P3"], "winner": 1, "winner_name": "P2 (Kit)"}]}


def test_show_names_sides_scores_and_the_winner(db):
    path, ids = db
    out = run("show", ids["Club night, table 1"], "--db", path, "--deal", "10").stdout
    assert "Tricks won: North (Ann) 3, East (Bob) 1, South (Cora) 1 (N/S 4, E/W 1)" in out
    assert "Score: N/S 10, E/W 4" in out
    assert out.rstrip().endswith("Game over: winner N/S (Ann & Cora)")
    assert "side 0" not in out
    out = run("show", ids["Cutthroat, table 2"], "--db", path, "--deal", "10").stdout
    assert "Score: P1 8, P2 11, P3 4" in out and "Game over: winner P2 (Kit)" in out


COMMANDS = ["import", "list", "show", "audit", "export", "serve", "version", "tutorial",
            "samples", "verify", "stats", "rebuild", "record", "analyze", "drill", "explore"]


@pytest.mark.parametrize("command", COMMANDS)
def test_help_is_plain_words_with_examples(command):
    out = run(command, "--help").output
    for markup in ("<str>", "<bool>", "<int>", "<list", "``", ":func:", ":class:", "{GAME", "{FILE"):
        assert markup not in out, (markup, out)
    examples = out[out.index("Examples (in the folder"):].splitlines()[1:]
    shown = [line.strip() for line in examples if line.strip().startswith("euchre-events")]
    assert shown == EXAMPLES[command] and all(f"euchre-events {command}" in e or "--version" in e
                                              for e in shown)
    assert out.rstrip().splitlines()[-1].strip() == EXAMPLES[command][-1]   # the help ends with them


def test_top_level_help_and_version_flag():
    out = run("--help").output
    assert "<bool>" not in out and "--version" in out
    assert all(c in out for c in COMMANDS)
    v = run("--version")
    assert v.exit_code == 0 and v.output.strip()


def test_errors_name_seats_as_people_say_them():
    """Issue "readable output": seats in errors as ``South (Euchrazy1)``, not ``seat 2``."""
    from euchre_events.rules.seats import name_seats
    players = ("Ann", "Bob", "Cora", "Dan")
    assert name_seats("seat 3 plays QS, but the dealer (seat 0) took it up", players) == \
        "West (Dan) plays QS, but the dealer (North, Ann) took it up"
    assert name_seats("seat 2 passes", ("N", "E", "S", "W")) == "South passes"
    assert name_seats("seat 7 and seat 1", players, 4) == "seat 7 and East (Bob)"
    assert name_seats("seat 2 leads", ("P1", "P2", "P3"), 3) == "P3 leads"
