"""Plotly charts of a club archive (``euchre-events stats --format html`` and
``notebooks/club-archive.ipynb`` draw the same ones), from the read-model
rows and :func:`~euchre_events.archive.clubstats.club_stats`.

Names and titles come from records anyone may write: the HTML page embeds
the figures as JSON with ``<``, ``>`` and ``&`` escaped, so a name such as
``</script><script>alert(1)</script>`` stays text; and plotly reads its own
markup (``<b>``, ``<br>``, ``<a href>``) in trace names, category labels and
hover text, so every name and title goes into a figure HTML-escaped
(plotly shows ``&lt;b&gt;`` as ``<b>``).

Each figure draws at most :data:`TOP_PLAYERS` players (the results-over-time
lines at the games where a count changes, steps between): its size grows
with what is shown, not with the archive (issue 26: one line per player of
one point per game grew as players x games).
"""
from __future__ import annotations

import html
import json

__all__ = ["club_figures", "stats_html", "page_stats", "TOP_PLAYERS", "PAGE_PLAYERS"]

TOP_PLAYERS = 12
"""Most players one chart shows (the most wins, alone hands, reneges)."""

PAGE_PLAYERS = 200
"""Most players the page's statistics list (the most games), besides those
the charts draw: the page's size is bounded, whatever the archive's."""


def _label(text) -> str:
    """A name or title as plotly text: HTML-escaped, so plotly's markup in it is shown, not applied."""
    return html.escape(str(text), quote=False)


def _top(names, key, n: int = TOP_PLAYERS, zero: bool = False) -> tuple:
    """``(shown, of)``: the ``n`` players of ``names`` with the highest
    ``key(name)`` (a tuple or a number), highest first, ties by name, and how
    many there were to choose from (those above 0 unless ``zero``)."""
    import heapq
    pool = [x for x in names if zero or key(x) > 0]
    # nsmallest(n) is sorted(...)[:n] without sorting every player
    return heapq.nsmallest(n, pool, key=lambda x: (tuple(-k for k in key(x)) if isinstance(key(x), tuple)
                                                   else -key(x), x.lower())), len(pool)


def page_stats(counts: dict, n: int = PAGE_PLAYERS) -> dict:
    """The statistics a page shows, from
    :func:`~euchre_events.archive.clubstats.club_counts`: the
    :func:`~euchre_events.archive.clubstats.club_stats` dict with only the
    ``n`` players with the most games (then wins; ties by name) and those
    each chart draws (:data:`TOP_PLAYERS` by wins, alone hands, reneges),
    plus ``"players_total"`` (how many players were counted) and
    ``"pools"`` (how many each chart chose from, for its title).  Its size
    is bounded by ``n``, not by the archive (issue 26 finding 9)."""
    from euchre_events.archive import clubstats as cs
    c = counts["players"]
    most, _ = _top(c, lambda x: (c[x][cs._GAMES], c[x][cs._WINS]), n=n, zero=True)
    wins, pool_w = _top(c, lambda x: (c[x][cs._WINS], c[x][cs._GAMES]), zero=True)
    alone, pool_a = _top(c, lambda x: c[x][cs._A_ATT])
    reneged, pool_r = _top(c, lambda x: c[x][cs._RENEGES])
    s = cs.stats_of(counts, only=dict.fromkeys(most + wins + alone + reneged))
    s["players_total"] = len(c)
    s["pools"] = {"wins": pool_w, "alone": pool_a, "reneges": pool_r}
    return s


def _of(shown: list, pool: int) -> str:
    """`` (the 12 of 40 with the most)`` when a chart leaves players out, else ``""``."""
    return f" (the {len(shown)} of {pool} with the most)" if pool > len(shown) else ""


def _rate(row: dict) -> float:
    return round(100 * row["made"] / row["calls"], 1) if row["calls"] else 0.0


def club_figures(stats: dict, games: list, deals: list, findings: list, last_games: int = 12,
                 seats: tuple = None) -> list:
    """``[(title, plotly Figure)]``: results over time (wins of the
    :data:`TOP_PLAYERS` players with the most, game after game in import
    order), call success by seat and by up-card, alone-hand results and
    reneges by player (the :data:`TOP_PLAYERS` with the most), score
    progressions of the last ``last_games`` games (as played, per side).
    ``deals`` and ``findings`` are not read (the counts are in ``stats``):
    they may be iterators.  Always six figures, in that order.

    ``stats`` may hold only the players shown (:func:`page_stats`: its
    ``pools`` say how many each chart chose from); ``seats``: the
    :func:`~euchre_events.archive.clubstats.seat_players` of ``games``
    when already known."""
    import plotly.graph_objects as go
    figs = []
    names = list(stats["players"])
    variant = stats["filters"].get("variant")
    kept = [g for g in games if not g.get("error") and (not variant or g["variant"] == variant)]
    # results over time: cumulative official wins of the players with the most, as steps
    pools = stats.get("pools") or {}
    shown, pool = _top(names, lambda n: (stats["players"][n]["wins"], stats["players"][n]["games"]), zero=True)
    pool = pools.get("wins", pool)
    steps = {n: ([0], [0]) for n in shown}
    count = dict.fromkeys(shown, 0)
    from euchre_events.archive.clubstats import _side, _won, seat_players
    seats_of, _ = seats if seats is not None else seat_players(games)   # as the statistics know them
    for i, g in enumerate(kept, 1):
        for seat, n in enumerate(seats_of[g["game_id"]]):
            if n in count and _won(g["winner"], _side(g["variant"], seat)):
                count[n] += 1
                steps[n][0].append(i)
                steps[n][1].append(count[n])
    for n in shown:                      # each line runs to the last game
        if steps[n][0][-1] != len(kept):
            steps[n][0].append(len(kept))
            steps[n][1].append(count[n])
    fig = go.Figure([go.Scatter(x=steps[n][0], y=steps[n][1], mode="lines", line_shape="hv", name=_label(n))
                     for n in shown])
    fig.update_layout(title="Results over time: games won (official result)" + _of(shown, pool),
                      xaxis_title="game (import order)", yaxis_title="games won")
    figs.append(("Results over time", fig))
    for key, title, xt in (("by_seat", "Calls made by seat (from the dealer)", "caller"),
                           ("by_up_card", "Ordered-up calls made by up-card", "up-card")):
        rows = stats[key]
        fig = go.Figure([go.Bar(x=list(rows), y=[_rate(r) for r in rows.values()],
                                text=[f"{r['made']}/{r['calls']}" for r in rows.values()], name="made %")])
        fig.update_layout(title=title, xaxis_title=xt, yaxis_title="made (%)", yaxis_range=[0, 100])
        figs.append((title, fig))
    alone, pool = _top(names, lambda n: stats["players"][n]["alone"]["attempts"])
    pool = pools.get("alone", pool)
    fig = go.Figure([go.Bar(x=[_label(n) for n in alone], y=[stats["players"][n]["alone"][k] for n in alone], name=k)
                     for k in ("attempts", "made", "march", "euchred")])
    fig.update_layout(title="Alone hands" + _of(alone, pool), barmode="group", yaxis_title="deals")
    figs.append(("Alone hands", fig))
    reneged, pool = _top(names, lambda n: stats["players"][n]["reneges"])
    pool = pools.get("reneges", pool)
    fig = go.Figure([go.Bar(x=[_label(n) for n in reneged], y=[stats["players"][n]["reneges"] for n in reneged],
                            name="reneges")])
    fig.update_layout(title="Reneges by player" + _of(reneged, pool), yaxis_title="reneges")
    figs.append(("Reneges by player", fig))
    fig = go.Figure()
    for g in kept[-last_games:]:
        after = g.get("score_after") or []
        n_sides = len(after[0][1]) if after else 0
        for side in range(n_sides):
            fig.add_trace(go.Scatter(x=[0] + [s[0] for s in after], y=[0] + [s[1][side] for s in after],
                                     mode="lines+markers", name=_label(f"{g['title'] or g['game_id'][:8]}: side {side + 1}")))
    fig.update_layout(title=f"Score progressions (the last {min(last_games, len(kept))} games, as played)",
                      xaxis_title="deal", yaxis_title="score")
    figs.append(("Score progressions", fig))
    return figs


def _safe_json(text: str) -> str:
    """JSON that cannot end a ``<script>`` element or start markup."""
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def stats_html(stats: dict, figures: list, text: str) -> str:
    """One self-contained HTML page: the statistics as text (escaped) and
    every figure, plotly.js inlined (no network needed).  ``stats`` from
    :func:`page_stats` lists only some players: a line after the text says
    how many more there are and where to find them all."""
    from plotly.offline import get_plotlyjs
    more = stats.get("players_total", len(stats["players"])) - len(stats["players"])
    if more > 0:
        text += (f"\n(the {len(stats['players'])} players with the most games, and those the charts show, "
                 f"are listed; {more} more are counted above: euchre-events stats --format json lists them all)")
    parts = []
    for i, (title, fig) in enumerate(figures):
        parts.append(f'<h2>{html.escape(title)}</h2><div id="fig{i}" class="fig"></div>'
                     f'<script>(function(){{var f = {_safe_json(fig.to_json())};'
                     f'Plotly.newPlot("fig{i}", f.data, f.layout, {{responsive: true}});}})();</script>')
    data = _safe_json(json.dumps(stats, ensure_ascii=False))
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Club statistics</title>"
            "<style>body{font-family:sans-serif;margin:2em}pre{white-space:pre-wrap}.fig{height:420px}</style>"
            f"<script>{get_plotlyjs()}</script></head><body><h1>Club statistics</h1>"
            f"<pre>{html.escape(text)}</pre>{''.join(parts)}"
            f'<script type="application/json" id="stats">{data}</script></body></html>\n')
