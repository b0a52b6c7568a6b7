"""The commands' output people can read (first filed as issue 12's
tests/test_readable_output.py): sides and winners by name in ``list`` and
``show``, ``list`` with players, date and its filters, and a ``--help``
without typer's type markup or reST, with examples for every command.  (The
words' own tests: tests/test_side_names.py.)

Expected values from the records: the VWEC final (fixtures/egn/"VWEC
Finals.egn": WWMM & Euchrazy1 N/S 8, Llama & LeftyKnavey E/W 10, dated
2026-05-29T16:30), club night 1 (Ann & Cora N/S 10, Bob & Dan 4; deal 10:
N 3 tricks, E 1, S 1) and cutthroat table 2 (Jo 8, Kit 11, Lee 4).
"""
from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CLUB, FIXTURES, RUNNER, VWEC, cli as _cli

from euchre_events.cli import EXAMPLES, app

VWEC = str(VWEC)
CLUB = str(CLUB)
CUT = str(FIXTURES / "cutthroat" / "cutthroat-2.euchre")
FIX = FIXTURES
PARLOUR = FIXTURES / "two-handed" / "parlour-2.euchre"
PY = sys.executable


def run(*args):
    return RUNNER.invoke(app, list(args))


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("arch") / "a.sqlite")
    r = run("import", VWEC, CLUB, CUT, "--db", path)
    assert r.exit_code == 0, r.output
    return path, {line.split("  ")[1]: line.split()[0] for line in r.stdout.splitlines()}


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


# ---------------------------------------------------------------- a drawn fixed-deal game in audit and show (from the newcomer's findings)


def test_a_drawn_fixed_deal_game_reads_as_drawn():
    """num_deals 2 ending 1-1 (EGN alternate-rules, rules.md 2.9): no winner."""
    rec = str(FIXTURES / "egn" / "toggles" / "num-deals-2-tied.egn")
    head = RUNNER.invoke(app, ["audit", rec]).stdout.splitlines()[0]
    assert "official winner: nobody: the game is drawn (North-South" in head and "(tied)" not in head
    shown = RUNNER.invoke(app, ["show", rec]).stdout
    assert "Game over: winner none: the game is drawn (N/S" in shown


# ---------------------------------------------------------------- one way of saying a score, the 13 cards not dealt, one numbering of events, every --help example run (issue 27, a newcomer's first minutes)


def test_import_list_show_and_audit_say_a_score_the_same_way(tmp_path):
    """The VWEC final ends N/S 8, E/W 10 (the EGN record, no penalty); the
    two-handed parlour game 2 ends P1 10, P2 8 as played and P1 10, P2 9
    officially (Dot's renege at trick 3 of deal 3, fixtures/SAMPLES.md).
    import, list, show and audit say both in the same words.  Before:
    ``score=8-10`` (import), ``North-South 8, East-West 10`` (audit)."""
    db = tmp_path / "a.sqlite"
    imported = _cli("import", VWEC, PARLOUR, "--db", db).stdout.splitlines()
    listed = _cli("list", "--db", db).stdout.splitlines()
    audit = _cli("audit", VWEC, PARLOUR).stdout
    shown = _cli("show", VWEC).stdout + _cli("show", PARLOUR).stdout
    for words in ("N/S 8, E/W 10", "P1 10, P2 9", "P1 10, P2 8"):
        assert any(words in line for line in imported), (words, imported)
        assert any(words in line for line in listed), (words, listed)
        assert words in audit, (words, audit)
    assert "Score: N/S 8, E/W 10" in shown and "Score: P1 10, P2 8" in shown
    assert "Official score (renege penalties applied, rules.md 1.5): P1 10, P2 9" in shown
    assert any(line.endswith("score: P1 10, P2 9 (as played: P1 10, P2 8)") for line in imported)
    for text in (imported, listed, audit.splitlines()):
        assert not any(re.search(r"score=|North-South \d|\b8-10\b", line) for line in text)


def test_show_of_a_two_handed_game_says_the_13_cards_are_not_dealt():
    """rules.md 3.1: the 13 cards left after a two-handed deal are not used.
    show (all hands and a seat's view) says so in the tutorial's words
    instead of ``Kitty: ??`` thirteen times; a four-handed game keeps its
    kitty (club night 1, deal 2: K♦ K♥ Q♠ under the 9♥ turned up)."""
    for args in ((), ("--seat", "P1")):
        out = _cli("show", PARLOUR, "--deal", 2, "--after", 3, *args).stdout
        assert "Not dealt: 13 cards" in out and "Kitty" not in out and "??" not in out.split("Not dealt")[1]
    out = _cli("show", FIX / "standard" / "club-night-1.euchre", "--deal", 2, "--after", 3).stdout
    assert "Kitty: K\u2666 K\u2665 Q\u2660" in out and "Not dealt" not in out


def test_record_show_and_verify_count_events_the_same_way(tmp_path):
    """Parlour game 2 has 203 events (fixtures/two-handed/parlour-2.euchre).
    A claim recorded after them is event 204 in record's words, in show's
    (--after 204 shows it as the last event; the header says "After event
    204"), in verify's ("intact, 204 events"), and --position 204 (the
    events seen) is where the next one goes.  Deal 3's event 5 is said with
    the game's number too.  Before, record printed "position 203" (from 0)
    for what show called --after 204, and show's header said "Position"."""
    from euchre_events.formats import read_records
    [rec] = read_records(str(PARLOUR))
    n = len(rec.events)
    assert n == 203
    db = tmp_path / "a.sqlite"
    gid = _cli("import", PARLOUR, "--db", db).stdout.split()[0]
    claim = '{"type": "RenegeClaimed", "by": 1, "against": 0, "deal": 3, "trick": 3}'
    out = _cli("record", gid, claim, "--db", db).stdout.splitlines()
    assert out[0] == f"event {n + 1}: RenegeClaimed" and out[1].startswith(f"event {n + 1}: the rules judge")
    shown = _cli("show", gid, "--after", n + 1, "--db", db).stdout.splitlines()
    assert shown[1].startswith("Last event: P2 (Dot) claims") and shown[2].startswith(f"After event {n + 1} |")
    assert f"intact, {n + 1} events" in _cli("verify", gid, "--db", db).stdout
    again = _cli("record", gid, claim, "--position", n + 1, "--db", db)
    assert again.exit_code == 0 and again.stdout.startswith(f"event {n + 2}: RenegeClaimed")
    s3 = dict(rec.game.deal_positions())[3]
    shown = _cli("show", PARLOUR, "--deal", 3, "--after", 5).stdout.splitlines()
    assert f"After event 5 of deal 3 (event {s3 + 5} of the game)" in shown
    assert any(line.startswith(f"After event {s3 + 5} | deal 3 |") for line in shown)


SERVING = {"euchre-events serve", 'euchre-events serve --port 8900 --record "egn/VWEC Finals.egn"',
           "euchre-events tutorial two-handed", "euchre-events drill --player Llama"}
# Examples that start a web server and run until Ctrl-C: not run here
# (tests/test_wheel.py gets serve's and tutorial's pages over HTTP).


def test_every_help_example_runs_as_written_in_the_samples_folder(tmp_path):
    """``euchre-events samples recs``, ``cd recs``, then each command's
    --help examples as written (the import examples first: the others use
    the games they store, 0760 the VWEC final): each exits 0.  Before,
    most named files of the checkout (fixtures/egn/...), a game id no import
    gives (8c29), a match and a PostgreSQL server the samples do not have;
    record had none."""
    import os
    from euchre_events.cli import EXAMPLES, app
    env = dict(os.environ)
    env.pop("PERSISTENCE_MODULE", None)
    env.pop("EUCHRE_EVENTS_DB", None)
    exe = Path(PY).parent / "euchre-events"
    subprocess.run([exe, "samples", "recs"], cwd=tmp_path, env=env, check=True, capture_output=True)
    folder = tmp_path / "recs"
    names = [info.name for info in app.registered_commands]
    assert sorted(EXAMPLES) == sorted(names)
    order = ["import"] + [n for n in names if n != "import"]
    ran = 0
    for name in order:
        for example in EXAMPLES[name]:
            if example in SERVING:
                continue
            words = shlex.split(example)
            assert words[0] == "euchre-events"
            proc = subprocess.run([exe] + words[1:], cwd=folder, env=env, capture_output=True, text=True,
                                  timeout=300)
            assert proc.returncode == 0, (example, proc.stdout[-2000:], proc.stderr[-2000:])
            assert "Traceback" not in proc.stderr, example
            ran += 1
    assert ran == sum(len(v) for v in EXAMPLES.values()) - len(SERVING)
    # what they wrote is there, and the text export reads back by its name (.text)
    for out in ("dispute.html", "game.html", "game.egn", "club-night.text", "match.emn", "club.html",
                "lessons/tutorial-bid.ipynb", "club.sqlite", "euchre-events.sqlite"):
        assert (folder / out).is_file(), out
    back = subprocess.run([exe, "import", "club-night.text"], cwd=folder, env=env, capture_output=True, text=True)
    assert back.returncode == 0 and "(already stored)" in back.stdout
