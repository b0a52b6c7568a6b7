"""Statistics know a player (issues 9 and 14; EGN spec/player-tracking.md):
platform ids, where a record has them, say who a player is across games;
placeholder names (seat words, P1, "?", empty) are no player.

Fixtures (tests/data/players/, the shipped EGN games with other players):

* ids-a.egn = Six Points in Two Hands: N Florida (euchre-site fl-1), E 24wil,
  S Brownsbacke®07 (euchre-site bb-7), W "West".  Deal 1 (dealer N): five
  passes, S names hearts alone, takes all five (4 points); deal 2 (dealer E):
  S orders the QD up first, N/S take all five (S four, N the last): 4+4+2 =
  10, N/S win.  So bb-7: 2 calls, 2 made, 1 alone made and marched, 9
  tricks in 2 deals.
* ids-b.egn = Custom Scenario (one deal, dealer N): N "Florida Man" (fl-1
  and club-registry 77), E Brownsbacke®07 (bb-8), S "P3", W "": four passes,
  E names spades (1 call).  The game is not over.
* names-c.egn = Epic Comeback (9 deals): N "Florida" (no id), E Glanke,
  S "?" with club-registry 77, W "N".  Bidders (from the left of the dealer):
  deal 1 S, 2 E (names), 3 N (names), 4 E, 5 S, 6 E, 7 W, 8 N, 9 W: N 2
  calls, E 3, S 2, W 2; 2 named, 7 ordered up.  N/S win.

So: fl-1 and 77 are one player (Florida, Florida Man, ?): 3 games, 2+1+9 =
12 deals, 2 calls (all in game C), wins A and C; the Florida of game C has
no id: another player, 1 game, 9 deals, 2 calls; the two Brownsbacke®07 are
two players; West, P3, "" and N are 4 unnamed seats.
"""
import json

import pytest

from conftest import ROOT, RUNNER
from euchre_events.archive import Archive
from euchre_events.archive.clubstats import club_stats, seat_players, stats_text
from euchre_events.archive.readmodels import ReadModels
from euchre_events.cli import app
from euchre_events.formats import read_records
from euchre_events.rules.seats import is_placeholder_name

PLAYERS = ROOT / "tests" / "data" / "players"
MATCH = ROOT / "fixtures" / "egn" / "match" / "MotE W5 Match.emn"
CUSTOM = ROOT / "fixtures" / "egn" / "Custom Scenario.egn"
FL = "Florida [club-registry:77]"
BB7, BB8 = "Brownsbacke®07 [euchre-site:bb-7]", "Brownsbacke®07 [euchre-site:bb-8]"


@pytest.mark.parametrize("name", ["North", "west", "N", "e", "P1", "p3", "Player 1", "player2", "Seat 4",
                                  "", "  ", "?", "??", "-", "Unknown", "Player", "N/A", None])
def test_placeholder_names(name):
    assert is_placeholder_name(name)


@pytest.mark.parametrize("name", ["Ann", "Nora", "Westley", "WWMM", "Euchrazy1", "P1ayer", "Bot 1",
                                  "Orde® Me Up", "Northrop"])
def test_names_of_people(name):
    assert not is_placeholder_name(name)


@pytest.fixture()
def stats(tmp_path):
    a = Archive(str(tmp_path / "club.sqlite"))
    for name in ("ids-a.egn", "ids-b.egn", "names-c.egn"):
        a.import_record(read_records(str(PLAYERS / name))[0])
    rm = ReadModels(a)
    rm.catch_up()
    return rm.games(), rm.deals(), rm.findings()


def test_ids_say_who_a_player_is(stats):
    s = club_stats(*stats)
    assert s["games"] == 3 and s["unnamed_seats"] == 4
    assert sorted(s["players"]) == sorted([FL, "Florida", "24wil", BB7, BB8, "Glanke"])
    fl = s["players"][FL]
    assert (fl["games"], fl["wins"], fl["deals"], fl["calls"]) == (3, 2, 12, 2)
    assert fl["names"] == ["Florida", "Florida Man", "?"]
    assert fl["ids"] == ["club-registry:77", "euchre-site:fl-1"]
    plain = s["players"]["Florida"]
    assert (plain["games"], plain["deals"], plain["calls"], plain["ids"]) == (1, 9, 2, [])
    b7, b8 = s["players"][BB7], s["players"][BB8]
    assert (b7["games"], b7["wins"], b7["deals"], b7["calls"], b7["made"]) == (1, 1, 2, 2, 2)
    assert b7["alone"] == {"attempts": 1, "made": 1, "march": 1, "euchred": 0}
    assert b7["tricks"] == 9 and b7["tricks_per_deal"] == 4.5
    assert (b8["games"], b8["deals"], b8["calls"]) == (1, 1, 1)
    assert (s["players"]["Glanke"]["calls"], s["players"]["24wil"]["deals"]) == (3, 2)
    # the unnamed seats' calls (W of game C: 2) still count in the tables
    assert {k: v["calls"] for k, v in s["by_call"].items()} == {"named": 4, "ordered up": 8}
    assert not any(is_placeholder_name(n) for n in s["players"])


def test_a_player_found_by_id_or_name(stats):
    s = club_stats(*stats, player="fl-1")
    assert list(s["players"]) == [FL] and s["games"] == 3
    s = club_stats(*stats, player="florida")
    assert sorted(s["players"]) == ["Florida", FL] and s["games"] == 3
    assert {k: v["calls"] for k, v in s["by_call"].items()} == {"named": 1, "ordered up": 3}
    s = club_stats(*stats, player="brownsbacke")
    assert sorted(s["players"]) == [BB7, BB8] and s["games"] == 2
    assert club_stats(*stats, player="west")["players"] == {}


def test_seat_players_per_game(stats):
    games = stats[0]
    seats, players = seat_players(games)
    by_title = {g["title"]: seats[g["game_id"]] for g in games}
    assert by_title == {"Players with ids A": [FL, "24wil", BB7, None],
                        "Players with ids B": [FL, BB8, None, None],
                        "Names only C": ["Florida", "Glanke", FL, None]}
    assert players[FL]["ids"] == ["club-registry:77", "euchre-site:fl-1"]


def test_text_and_html_show_the_labels(stats, tmp_path):
    s = club_stats(*stats)
    text = stats_text(s)
    assert "unnamed seats (a placeholder name such as North or P1, no player id; counted under no player): 4" in text
    assert f"\n{BB7}: games 1, won 1; deals 2 (played 2); calls 2, made 2" in text
    from euchre_events.ui.clubcharts import club_figures
    figs = dict(club_figures(s, *stats))
    # wins after each game, drawn as steps at the games where a count changes (issue 26 finding 9):
    # FL won games 1 and 3 (1, 1, 2), Florida game 3 (0, 0, 1), BB8 none
    traces = {t.name: list(zip(t.x, t.y)) for t in figs["Results over time"].data}
    assert traces[FL] == [(0, 0), (1, 1), (3, 2)] and traces["Florida"] == [(0, 0), (3, 1)]
    assert traces[BB8] == [(0, 0), (3, 0)]


def test_placeholder_names_only_make_no_player(tmp_path):
    """Custom Scenario as shipped names its seats North, East, South, West."""
    a = Archive(str(tmp_path / "c.sqlite"))
    a.import_record(read_records(str(CUSTOM))[0])
    rm = ReadModels(a)
    rm.catch_up()
    s = club_stats(rm.games(), rm.deals(), rm.findings())
    assert s["players"] == {} and s["unnamed_seats"] == 4 and s["games"] == 1
    assert {k: v["calls"] for k, v in s["by_call"].items()} == {"named": 1}     # East names spades


def test_an_emn_match_knows_its_players_by_master_ids(tmp_path):
    """MotE W5 Match.emn: six games (11, 12, 11, 13, 10, 16 deals = 73), the
    four master players (emn-combine p-01 .. p-04) in every game, their seats
    rotated."""
    db = str(tmp_path / "m.sqlite")
    assert RUNNER.invoke(app, ["import", "--db", db, str(MATCH)]).exit_code == 0
    out = RUNNER.invoke(app, ["stats", "--db", db, "--format", "json"])
    s = json.loads(out.stdout)
    assert {n: (p["games"], p["deals"], p["ids"]) for n, p in s["players"].items()} == {
        "Dad of Carl": (6, 73, ["emn-combine:p-01"]), "Jen-Eye": (6, 73, ["emn-combine:p-02"]),
        "Chach": (6, 73, ["emn-combine:p-03"]), "WWMM": (6, 73, ["emn-combine:p-04"])}
    assert s["unnamed_seats"] == 0
