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

from conftest import cli as _cli
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


# ---------------------------------------------------------------- list and stats read the read models


@pytest.fixture()
def indexed(tmp_path):
    """An archive of three standard games whose read models were built (a first ``list``)."""
    db = tmp_path / "a.sqlite"
    arch = Archive(str(db))
    ids = [arch.import_record(Record(random_game("standard", seed=s)))[0] for s in (1, 2, 3)]
    assert _cli("list", "--db", db).exit_code == 0
    return db, ids


def _events_read(db, args):
    """(result, {game ids whose stored events were read}) of ``euchre-events ARGS``,
    from SQLite's own trace of the statements run on the archive's connections."""
    import sqlite3
    import re
    seen = set()
    real = sqlite3.connect

    def connect(*a, **k):
        c = real(*a, **k)
        c.set_trace_callback(lambda sql: seen.update(re.findall(r"originator_id\s*=\s*'([0-9a-f]{32})'", sql))
                             if "stored_events" in sql and "SELECT" in sql.upper() else None)
        return c
    sqlite3.connect = connect
    try:
        res = _cli(*args)
    finally:
        sqlite3.connect = real
    return res, seen


def test_list_and_stats_read_no_game_when_none_changed(indexed):
    """Finding 9: ``list`` and ``stats`` are read-model queries: with no stored row changed
    they read no game's events (main recomputed every game's hash chain: 98% of a
    10,000-game ``list``)."""
    db, ids = indexed
    for args in (["list"], ["stats"], ["stats", "--format", "json"]):
        res, seen = _events_read(db, [*args, "--db", db])
        assert res.exit_code == 0, res.output
        assert seen == set(), (args, seen)
    res, seen = _events_read(db, ["verify", ids[0], "--db", db])
    assert res.exit_code == 0 and seen == {ids[0].hex}     # the trace does see a game read


def test_a_row_changed_after_the_index_was_built_is_still_named(indexed):
    """Tamper evidence stays (docs/design.md): a stored event changed with SQL after the read
    models were built makes no notification; the archive's triggers note its stream, so
    ``list`` and ``stats`` verify that game (and only it) and name the changed event."""
    import sqlite3
    db, ids = indexed
    with sqlite3.connect(db) as c:
        state = c.execute("select state from stored_events where originator_id=? and originator_version=2",
                          (ids[1].hex,)).fetchone()[0]
        assert b'"deal":1,' in state                  # DealStarted of deal 1: now deal 7
        c.execute("update stored_events set state=? where originator_id=? and originator_version=2",
                  (state.replace(b'"deal":1,', b'"deal":7,'), ids[1].hex))
    res, seen = _events_read(db, ["list", "--db", db])
    assert res.exit_code == 1
    assert [line.split()[0] for line in res.stdout.splitlines()] == [str(ids[0]), str(ids[2])]
    assert f"error: game {ids[1]}: stored event 2 " in res.stderr
    assert seen == {ids[1].hex}
    res = _cli("stats", "--db", db)
    assert res.exit_code == 1 and f"error: game {ids[1]}: stored event 2 " in res.stderr


# ---------------------------------------------------------------- stats counted as the rows come

def test_stats_counted_from_streamed_rows_equal_the_lists(club, tmp_path):
    """Finding 9: ``stats`` counts the deals and findings one section at a time
    (``iter_deals``/``iter_findings``) and reads only the index columns it counts: the
    statistics are those of the whole rows held at once (main held every deal row of
    the archive: about 2.5 GB at 100,000 games)."""
    from euchre_events.archive.clubstats import club_counts, stats_of
    games, deals, findings, s = club
    arch = Archive(str(tmp_path / "c.sqlite"))
    for i in range(40):
        events = random_game("standard", seed=i)
        names = (HOSTILE if i < 10 else f"Ann {i}", f"Bob {i}", f"Cy {i}", f"Di {i}")
        arch.import_record(Record([dataclasses.replace(events[0], players=names)] + events[1:]))
    rm = ReadModels(arch)
    rm.catch_up()
    from euchre_events.cli import _STATS_COLUMNS, _STATS_DEAL_COLUMNS   # what stats reads
    light = rm.games(columns=_STATS_COLUMNS)
    assert set(light[0]) == {"game_id", "error", "title", "variant", "players", "source", "winner",
                             "as_played_winner"}
    assert [g["players"] for g in light] == [g["players"] for g in games]
    assert list(rm.iter_deals()) == deals and list(rm.iter_findings()) == findings
    cols = ("deal", "tricks", "sat_out", "maker", "made", "alone", "call")
    assert list(rm.iter_deals(columns=cols)) == [{k: d[k] for k in ("game_id",) + cols} for d in deals]
    assert any(d["sat_out"] for d in deals) and any(not d["sat_out"] for d in deals)
    # one variant's rows only (the club page counts a variant at a time): these are all standard
    assert list(rm.iter_deals(variant="standard")) == deals and list(rm.iter_deals(cols, variant="bid")) == []
    assert list(rm.iter_findings(variant="standard")) == findings and list(rm.iter_findings(variant="bid")) == []
    counts = club_counts(light, rm.iter_deals(columns=_STATS_DEAL_COLUMNS), rm.iter_findings())
    assert stats_of(counts) == s
    assert counts["players"]["Bob 12"][:2] == [1, s["players"]["Bob 12"]["wins"]]
    with pytest.raises(ValueError, match="no column 'nope'"):
        rm.games(columns=("nope",))


def test_the_page_lists_a_bounded_number_of_players(club):
    """Finding 9: the HTML page's statistics list the players with the most games (at
    most ``n``) and those the charts draw, and say how many were counted; each chart
    draws the players it would from every player's statistics, with the same title
    (main's page listed all 6,000 players of 3,000 games: a 106 MB page)."""
    from euchre_events.archive.clubstats import club_counts
    from euchre_events.ui.clubcharts import page_stats, stats_html
    games, deals, findings, s = club
    page = page_stats(club_counts(games, deals, findings), n=5)
    assert page["players_total"] == 151 and page["games"] == 40
    most = sorted(s["players"], key=lambda n: (-s["players"][n]["games"], -s["players"][n]["wins"], n.lower()))[:5]
    assert set(most) <= set(page["players"]) and HOSTILE in most
    assert len(page["players"]) < 5 + 3 * TOP_PLAYERS
    assert all(page["players"][n] == s["players"][n] for n in page["players"])
    full = club_figures(s, games, deals, findings)
    shown = club_figures(page, games, deals, findings)
    for (title, a), (_, b) in zip(full, shown):
        assert a.to_json() == b.to_json(), title
    html = stats_html(page, shown, "the text")
    assert f"{151 - len(page['players'])} more are counted above" in html


# ---------------------------------------------------------------- PostgreSQL notes changed games too

@pytest.fixture
def pg_schema():
    """(env of a fresh PostgreSQL schema, an autocommit connection on it); dropped after."""
    import os
    import uuid
    psycopg = pytest.importorskip("psycopg")
    base = {"PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": os.environ.get("POSTGRES_DBNAME", "test"),
            "POSTGRES_HOST": os.environ.get("POSTGRES_HOST", "127.0.0.1"),
            "POSTGRES_PORT": os.environ.get("POSTGRES_PORT", "5432"),
            "POSTGRES_USER": os.environ.get("POSTGRES_USER", "postgres"),
            "POSTGRES_PASSWORD": os.environ.get("POSTGRES_PASSWORD", "")}
    try:
        conn = psycopg.connect(f"host={base['POSTGRES_HOST']} port={base['POSTGRES_PORT']} "
                               f"dbname={base['POSTGRES_DBNAME']} user={base['POSTGRES_USER']}",
                               autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as e:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"PostgreSQL not reachable: {e}")
    schema = "ee_scale_" + uuid.uuid4().hex[:8]
    conn.execute(f"create schema {schema}")
    yield dict(base, POSTGRES_SCHEMA=schema), conn
    conn.execute(f"drop schema {schema} cascade")
    conn.close()


@pytest.mark.postgres
def test_postgres_read_models_note_changed_games(pg_schema, monkeypatch):
    """Finding 9 on PostgreSQL: triggers note the game of a stored row updated or deleted
    (main had none there and verified every game on each ``list`` and ``stats``): with
    nothing changed no game is a suspect; a changed event and a removed one name their
    games, which ``list`` reports as damaged."""
    env, conn = pg_schema
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    arch = Archive(env=env)
    ids = [arch.import_record(Record(random_game("standard", seed=s)))[0] for s in (1, 2, 3)]
    assert _cli("list").exit_code == 0
    rm = ReadModels(arch)
    assert rm.changed_games() == set()
    # stats reads the PostgreSQL index and deals through server-side cursors, only the columns it counts
    res = _cli("stats", "--format", "json")
    assert res.exit_code == 0
    assert json.loads(res.stdout) == json.loads(json.dumps(club_stats(rm.games(), rm.deals(), rm.findings())))
    table = f'{env["POSTGRES_SCHEMA"]}.euchreevents_events'
    conn.execute(f"update {table} set state = state where originator_id = %s and originator_version = 2",
                 (ids[1],))
    conn.execute(f"delete from {table} where originator_id = %s and originator_version = 9", (ids[2],))
    assert ReadModels(arch).changed_games() == {str(ids[1]), str(ids[2])}
    res = _cli("list")
    assert res.exit_code == 1
    assert [line.split()[0] for line in res.stdout.splitlines()] == [str(ids[0]), str(ids[1])]
    assert f"error: game {ids[2]}: " in res.stderr and "event 9 is missing" in res.stderr
    arch.close()


@pytest.mark.postgres
def test_postgres_read_models_opened_by_four_processes_at_once(pg_schema):
    """Four processes opening the read models of one new archive at the same moment all
    succeed (the triggers are made once, under an advisory lock: PostgreSQL fails a
    second concurrent CREATE FUNCTION with "tuple concurrently updated"); each stored
    table then has exactly one change trigger."""
    import os
    import subprocess
    import sys
    import time
    env, conn = pg_schema
    arch = Archive(env=env)
    arch.import_record(Record(random_game("standard", seed=5)))
    arch.close()
    go = time.time() + 3
    code = ("import time, sys; from euchre_events.archive import Archive; "
            "from euchre_events.archive.readmodels import ReadModels; "
            f"a = Archive(); time.sleep(max(0, {go} - time.time())); rm = ReadModels(a); rm.catch_up(); "
            "print(len(rm.games()), sorted(rm.changed_games()))")
    procs = [subprocess.Popen([sys.executable, "-c", code], env=dict(os.environ, **env),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, [o[1][-800:] for o in outs]
    assert [o[0].strip() for o in outs] == ["1 []"] * 4
    rows = conn.execute("select c.relname, count(*) from pg_trigger t join pg_class c on t.tgrelid = c.oid "
                        "join pg_namespace n on c.relnamespace = n.oid where n.nspname = %s "
                        "and not t.tgisinternal group by c.relname order by 1", (env["POSTGRES_SCHEMA"],)).fetchall()
    assert rows == [("euchreevents_events", 1), ("euchreevents_snapshots", 1)]


def test_stats_text_and_json_written_a_player_at_a_time_are_the_same_text(club):
    """Finding 9: ``stats`` and ``stats --format json`` write each player's entry in turn
    (main made all 170,000 entries of 100,000 games first: 1.1 GB for the JSON); the text
    is that of the whole dict, byte for byte, names with quotes, markup and a newline
    included, and with no player at all."""
    from euchre_events.archive.clubstats import club_counts, stats_json_of, stats_of, stats_text, stats_text_of
    games, deals, findings, s = club
    odd = [dict(g, players=['Zoë "Z" \n', *g["players"][1:]]) if i == 3 else g for i, g in enumerate(games)]
    for rows, who in ((games, None), (odd, None), (odd, "zoë"), (games, "no one at all")):
        counts = club_counts(rows, deals, findings, player=who)
        whole = stats_of(counts)
        assert stats_json_of(counts) == json.dumps(whole, ensure_ascii=False, indent=1)
        assert stats_text_of(counts) == stats_text(whole)
    assert json.loads(stats_json_of(club_counts(odd, deals, findings, player="zoë")))["players"]
