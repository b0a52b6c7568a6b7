"""Plotly charts of a club archive (``euchre-events stats --format html`` and
``notebooks/club-archive.ipynb`` draw the same ones), from the read-model
rows and :func:`~euchre_events.archive.clubstats.club_stats`.

Names and titles come from records anyone may write: the HTML page embeds
the figures as JSON with ``<``, ``>`` and ``&`` escaped, so a name such as
``</script><script>alert(1)</script>`` stays text.
"""
from __future__ import annotations

import html
import json

__all__ = ["club_figures", "stats_html"]


def _rate(row: dict) -> float:
    return round(100 * row["made"] / row["calls"], 1) if row["calls"] else 0.0


def club_figures(stats: dict, games: list, deals: list, findings: list, last_games: int = 12) -> list:
    """``[(title, plotly Figure)]``: results over time (wins per player, game
    after game, in import order), call success by seat and by up-card,
    alone-hand results, reneges by player, score progressions of the last
    ``last_games`` games (as played, per side)."""
    import plotly.graph_objects as go
    figs = []
    names = list(stats["players"])
    kept = [g for g in games if not g.get("error")
            and (not stats["filters"].get("variant") or g["variant"] == stats["filters"]["variant"])]
    # results over time: cumulative official wins, one line per player
    wins = {n: [] for n in names}
    count = {n: 0 for n in names}
    from euchre_events.archive.clubstats import _side, _won, seat_players
    seats_of, _ = seat_players(games)    # the players as the statistics know them (ids, placeholders)
    for i, g in enumerate(kept, 1):
        for seat, n in enumerate(seats_of[g["game_id"]]):
            if n in count and _won(g["winner"], _side(g["variant"], seat)):
                count[n] += 1
        for n in names:
            wins[n].append(count[n])
    fig = go.Figure([go.Scatter(x=list(range(1, len(kept) + 1)), y=wins[n], mode="lines", name=n) for n in names])
    fig.update_layout(title="Results over time: games won (official result)", xaxis_title="game (import order)",
                      yaxis_title="games won")
    figs.append(("Results over time", fig))
    for key, title, xt in (("by_seat", "Calls made by seat (from the dealer)", "caller"),
                           ("by_up_card", "Ordered-up calls made by up-card", "up-card")):
        rows = stats[key]
        fig = go.Figure([go.Bar(x=list(rows), y=[_rate(r) for r in rows.values()],
                                text=[f"{r['made']}/{r['calls']}" for r in rows.values()], name="made %")])
        fig.update_layout(title=title, xaxis_title=xt, yaxis_title="made (%)", yaxis_range=[0, 100])
        figs.append((title, fig))
    fig = go.Figure([go.Bar(x=names, y=[stats["players"][n]["alone"][k] for n in names], name=k)
                     for k in ("attempts", "made", "march", "euchred")])
    fig.update_layout(title="Alone hands", barmode="group", yaxis_title="deals")
    figs.append(("Alone hands", fig))
    fig = go.Figure([go.Bar(x=names, y=[stats["players"][n]["reneges"] for n in names], name="reneges")])
    fig.update_layout(title="Reneges by player", yaxis_title="reneges")
    figs.append(("Reneges by player", fig))
    fig = go.Figure()
    for g in kept[-last_games:]:
        steps = g.get("score_after") or []
        n_sides = len(steps[0][1]) if steps else 0
        for side in range(n_sides):
            fig.add_trace(go.Scatter(x=[0] + [s[0] for s in steps], y=[0] + [s[1][side] for s in steps],
                                     mode="lines+markers", name=f"{g['title'] or g['game_id'][:8]}: side {side + 1}"))
    fig.update_layout(title=f"Score progressions (the last {min(last_games, len(kept))} games, as played)",
                      xaxis_title="deal", yaxis_title="score")
    figs.append(("Score progressions", fig))
    return figs


def _safe_json(text: str) -> str:
    """JSON that cannot end a ``<script>`` element or start markup."""
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def stats_html(stats: dict, figures: list, text: str) -> str:
    """One self-contained HTML page: the statistics as text (escaped) and
    every figure, plotly.js inlined (no network needed)."""
    from plotly.offline import get_plotlyjs
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
