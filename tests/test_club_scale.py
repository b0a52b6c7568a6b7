"""The club charts (``stats --format html``, ui/clubcharts.py): issue 26
findings 9 and 13.

Finding 9: the charts grew as players x games (one line per player, one
point per game): 3,000 games of 6,000 players took 2 GB and 56 s.  Each chart
now shows at most ``TOP_PLAYERS`` players, the results lines only where a
count changes.  Finding 13: plotly reads ``<b>``, ``<br>`` in names as
markup; names go into the figures HTML-escaped.  Real archives, real games
(``rules.simulate.random_game``, legal play), no mock.
"""
import dataclasses
import json

import pytest

pytest.importorskip("plotly")

from euchre_events.archive import Archive  # noqa: E402
from euchre_events.archive.clubstats import club_stats  # noqa: E402
from euchre_events.archive.readmodels import ReadModels  # noqa: E402
from euchre_events.formats import Record  # noqa: E402
from euchre_events.rules.simulate import random_game  # noqa: E402
from euchre_events.ui.clubcharts import club_figures  # noqa: E402

TOP_PLAYERS = 12   # the most players a chart shows (ui/clubcharts.TOP_PLAYERS)

HOSTILE = "<b>Ann</b><br>10 wins"


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    """40 standard games, each with four players of its own but North of the first ten,
    one player named with plotly markup (151 players); the read models caught up."""
    arch = Archive(str(tmp_path_factory.mktemp("club") / "club.sqlite"))
    for i in range(40):
        events = random_game("standard", seed=i)
        names = (HOSTILE if i < 10 else f"Ann {i}", f"Bob {i}", f"Cy {i}", f"Di {i}")
        arch.import_record(Record([dataclasses.replace(events[0], players=names)] + events[1:]))
    rm = ReadModels(arch)
    rm.catch_up()
    games, deals, findings = rm.games(), rm.deals(), rm.findings()
    return games, deals, findings, club_stats(games, deals, findings)


def test_each_chart_shows_at_most_the_top_players(club):
    """151 players: no chart draws more than TOP_PLAYERS of them; the results lines are
    those of the players with the most wins, each a step at the games that player won
    (2 winners a game over 40 games: at most their wins + 2 points)."""
    games, deals, findings, s = club
    assert s["games"] == 40 and len(s["players"]) == 151
    figs = dict(club_figures(s, games, deals, findings))
    assert len(figs) == 6
    results = figs["Results over time"].data
    assert len(results) == TOP_PLAYERS
    assert "the 12 of 151 with the most" in figs["Results over time"].layout.title.text
    wins = sorted((p["wins"] for p in s["players"].values()), reverse=True)
    assert sorted((t.y[-1] for t in results), reverse=True) == wins[:TOP_PLAYERS]
    for t in results:
        assert t.x[-1] == 40 and len(t.x) <= t.y[-1] + 2
        assert list(t.y) == list(range(len(t.y) - 1)) + [t.y[-1]] or list(t.y) == list(range(len(t.y)))
    for title in ("Alone hands", "Reneges by player"):
        for t in figs[title].data:
            assert len(t.x) <= TOP_PLAYERS
    points = sum(len(t.x) for f in figs.values() for t in f.data)
    assert points < 12 * 42 + 4 * 12 + 12 + 12 * 2 * 20, points   # bounded by what is shown, not 151 x 40


def test_names_are_text_in_the_charts(club, tmp_path):
    """A player named <b>Ann</b><br>10 wins: every trace name and category label of the
    figures carries it escaped (&lt;b&gt;...), never as markup plotly would draw bold."""
    games, deals, findings, s = club
    assert s["players"][HOSTILE]["games"] == 10 and s["players"][HOSTILE]["wins"] >= 2
    figs = club_figures(s, games, deals, findings)
    labels = []
    for _, f in figs:
        for t in f.data:
            labels.append(str(t.name))
            labels += [str(x) for x in (t.x or ()) if isinstance(x, str)]
    text = json.dumps(labels)
    assert "<b>" not in text and "<br>" not in text
    shown = [x for x in labels if "Ann</b>" in x or "Ann&lt;/b&gt;" in x]
    assert shown and all(x == "&lt;b&gt;Ann&lt;/b&gt;&lt;br&gt;10 wins" for x in shown)
