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
from typing import Optional

__all__ = ["club_figures", "club_page", "club_page_of", "players_table", "stats_html", "page_stats",
           "TOP_PLAYERS", "PAGE_PLAYERS", "PALETTE"]

TOP_PLAYERS = 12
"""Most players one chart shows (the most wins, alone hands, reneges)."""

PAGE_PLAYERS = 200
"""Most players the page's statistics list (the most games), besides those
the charts draw: the page's size is bounded, whatever the archive's."""

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
           "#e377c2", "#17becf", "#7f7f7f", "#bcbd22", "#000000", "#aec7e8")
"""One colour per line of a line chart (:data:`TOP_PLAYERS` of them, none
twice: a chart draws no more lines than it has colours to tell apart)."""

DASHES = ("solid", "dash", "dot", "dashdot")
"""Line styles that tell the lines of one chart apart beside their colours."""


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
    plus ``"players_total"`` (how many players were counted),
    ``"pools"`` (how many each chart chose from, for its title),
    ``"same_name_total"`` (players sharing a name with no id linking them)
    and ``"notes_total"`` (``notes`` keeps the first ``n``).  Its size
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
    known = counts["known"]
    s["same_name_total"] = sum(1 for x in c if known[x].get("same_name"))
    s["notes_total"] = len(s.get("notes") or ())
    s["notes"] = list(s.get("notes") or ())[:n]
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
    from euchre_events.archive.clubstats import has_won, seat_players, seat_side
    seats_of, _ = seats if seats is not None else seat_players(games)   # as the statistics know them
    for i, g in enumerate(kept, 1):
        for seat, n in enumerate(seats_of[g["game_id"]]):
            if n in count and has_won(g["winner"], seat_side(g["variant"], seat)):
                count[n] += 1
                steps[n][0].append(i)
                steps[n][1].append(count[n])
    for n in shown:                      # each line runs to the last game
        if steps[n][0][-1] != len(kept):
            steps[n][0].append(len(kept))
            steps[n][1].append(count[n])
    fig = go.Figure([go.Scatter(x=steps[n][0], y=steps[n][1], mode="lines", line_shape="hv", name=_label(n),
                                line={"color": PALETTE[i % len(PALETTE)], "dash": DASHES[i // 4 % len(DASHES)]})
                     for i, n in enumerate(shown)])
    fig.update_layout(title="Results over time: games won (official result)" + _of(shown, pool),
                      xaxis_title="game (import order)", yaxis_title="games won")
    _integers(fig, max([count[n] for n in shown] + [1]))
    fig.update_xaxes(tickformat="d", rangemode="tozero", dtick=1 if len(kept) <= 20 else None)   # games count whole
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
    _integers(fig, max([stats["players"][n]["alone"]["attempts"] for n in alone] + [1]))
    figs.append(("Alone hands", fig))
    reneged, pool = _top(names, lambda n: stats["players"][n]["reneges"])
    pool = pools.get("reneges", pool)
    fig = go.Figure([go.Bar(x=[_label(n) for n in reneged], y=[stats["players"][n]["reneges"] for n in reneged],
                            name="reneges")])
    fig.update_layout(title="Reneges by player (official result)" + _of(reneged, pool), yaxis_title="reneges")
    _integers(fig, max([stats["players"][n]["reneges"] for n in reneged] + [1]))
    figs.append(("Reneges by player", fig))
    # score progressions: one game at a time (a menu), a line per side named by its players,
    # officially and, where it differs, as played (dashed)
    fig = go.Figure()
    shown_games = kept[-last_games:]
    buttons = []
    for gi, g in enumerate(shown_games):
        after = g.get("score_after") or []
        n_sides = len(after[0][1]) if after else 0
        first = len(fig.data)
        for side in range(n_sides):
            who = _label(_side_words(g, side))
            official = [s[2][side] if len(s) > 2 else s[1][side] for s in after]
            played = [s[1][side] for s in after]
            colour = PALETTE[side % len(PALETTE)]
            fig.add_trace(go.Scatter(x=[0] + [s[0] for s in after], y=[0] + official, mode="lines+markers",
                                     name=who, visible=gi == len(shown_games) - 1, line={"color": colour}))
            if played != official:
                fig.add_trace(go.Scatter(x=[0] + [s[0] for s in after], y=[0] + played, mode="lines",
                                         name=who + " (as played)", visible=gi == len(shown_games) - 1,
                                         line={"color": colour, "dash": "dash"}))
        buttons.append((_label(g["title"] or g["game_id"][:8]), first, len(fig.data)))
    menu = [{"label": label, "method": "update",
             "args": [{"visible": [a <= k < b for k in range(len(fig.data))]}]} for label, a, b in buttons]
    fig.update_layout(title=f"Score progressions (the last {min(last_games, len(kept))} games, one at a time)",
                      xaxis_title="deal", yaxis_title="score",
                      updatemenus=[{"buttons": menu, "active": len(menu) - 1, "x": 0, "xanchor": "left",
                                    "y": 1.15, "yanchor": "top"}] if menu else [])
    fig.update_xaxes(tickformat="d", dtick=1 if max([len(g.get("score_after") or []) for g in shown_games] + [0]) <= 20 else None)
    fig.update_yaxes(tickformat="d")
    figs.append(("Score progressions", fig))
    return figs


def _side_words(g: dict, side: int) -> str:
    """A side of a game-index row by its players: ``"N/S Ann & Cy"``, ``"P2 Bob"``."""
    from euchre_events.ui.describe import side_label, sides_of
    players = g.get("players") or []
    seats = sides_of(g["variant"], len(players))
    names = [str(players[s]) for s in (seats[side] if side < len(seats) else []) if s < len(players)]
    return f"{side_label(side, g['variant'], players)} {' & '.join(names)}".strip()


def _integers(fig, top: int) -> None:
    """Counts on whole-number axes: no 0.2, 0.4 ticks (a step of 1 up to 10)."""
    fig.update_yaxes(tickformat="d", rangemode="tozero", dtick=1 if top <= 10 else None)


def _safe_json(text: str) -> str:
    """JSON that cannot end a ``<script>`` element or start markup."""
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


_COLUMNS = (
    ("games", "games", lambda p: p["games"], None),
    ("wins", "won", lambda p: p["wins"], ("wins",)),
    ("deals", "deals", lambda p: p["deals"], None),
    ("played", "deals played", lambda p: p["played"], None),
    ("calls", "calls", lambda p: p["calls"], None),
    ("made", "made", lambda p: p["made"], ("made",)),
    ("euchred", "euchred", lambda p: p["euchred"], ("euchred",)),
    ("made_pct", "made %", lambda p: round(100 * p["made"] / p["calls"]) if p["calls"] else None, None),
    ("alone", "alone", lambda p: p["alone"]["attempts"], None),
    ("alone_made", "alone made", lambda p: p["alone"]["made"], ("alone", "made")),
    ("march", "marches", lambda p: p["alone"]["march"], ("alone", "march")),
    ("lone_defences", "lone defences", lambda p: p["lone_defences"]["attempts"], None),
    ("tricks_per_deal", "tricks a deal", lambda p: p["tricks_per_deal"], None),
    ("reneges", "reneges", lambda p: p["reneges"], ("reneges",)),
)
"""The per-player table's columns: key, heading, the official figure, the
path of the figure as played under the player's ``as_played`` (None: one figure)."""


def players_table(stats: dict) -> str:
    """The per-player figures as an HTML table, one row per player, every
    column sortable on the page (``data-v``: the value it sorts by), each
    figure by the official result with the figure as played beside where it
    differs.  Names escaped."""
    esc = html.escape
    head = "<th data-col='player' data-type='text' aria-sort='none'><button>player</button></th>" + "".join(
        f"<th data-col='{key}' data-type='num' aria-sort='none'><button>{esc(title)}</button></th>"
        for key, title, _, _ in _COLUMNS)
    rows = []
    for name, p in stats["players"].items():
        cells = [f"<td data-v='{esc(name.lower(), quote=True)}'>{esc(name)}"
                 + (" <span class='ap' title='no player id links them'>*</span>" if p.get("same_name") else "")
                 + "</td>"]
        for key, _, get, path in _COLUMNS:
            v = get(p)
            shown = "-" if v is None else (f"{v:.2f}" if isinstance(v, float) else str(v))
            ap = p.get("as_played") or {}
            for k in path or ():
                ap = ap.get(k) if isinstance(ap, dict) else None
            beside = (f" <span class='ap' title='as played: {ap}'>({ap})</span>"
                      if path and isinstance(ap, int) and ap != v else "")
            cells.append(f"<td data-v='{'' if v is None else v}'>{shown}{beside}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return ("<table class='players'><thead><tr>" + head + "</tr></thead><tbody>" + "".join(rows)
            + "</tbody></table>")


_PAGE_CSS = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.5em} h2{font-size:1.15em;margin:1.6em 0 .3em}
table.players{border-collapse:collapse;font-size:.85em} .players th,.players td{border:1px solid #ccc;padding:.15em .35em}
.players td{text-align:right;white-space:nowrap} .players td:first-child{text-align:left;white-space:nowrap}
.players th button{all:unset;cursor:pointer;font-weight:600} .players th[aria-sort=ascending] button::after{content:" \\25B2"}
.players th[aria-sort=descending] button::after{content:" \\25BC"} .players th{background:#f4f4f4;position:sticky;top:0}
.ap{color:#a50;font-size:.85em} .wrap{overflow-x:auto} .notes{color:#444}
.fig{height:460px;max-width:1100px} .menu{font-size:1.1em;margin:.5em 0}
@media print{.fig{break-inside:avoid} .menu select{border:none}}
"""

_PAGE_JS = """
(function(){
  var data = JSON.parse(document.getElementById('figures').textContent);
  var drawn = {};
  function show(v){
    document.querySelectorAll('section.variant').forEach(function(s){ s.hidden = s.dataset.variant !== v; });
    if (!drawn[v]) {
      drawn[v] = true;
      (data[v] || []).forEach(function(f, i){
        var el = document.getElementById('fig-' + v + '-' + i);
        if (el && window.Plotly) Plotly.newPlot(el, f.data, f.layout, {responsive: true, displaylogo: false});
      });
    }
  }
  var menu = document.getElementById('variant');
  menu.addEventListener('change', function(){ show(menu.value); });
  show(menu.value);
  document.querySelectorAll('table.players').forEach(function(table){
    var heads = table.querySelectorAll('th');
    heads.forEach(function(th, col){
      th.querySelector('button').addEventListener('click', function(){
        var down = th.getAttribute('aria-sort') !== 'descending';
        heads.forEach(function(h){ h.setAttribute('aria-sort', 'none'); });
        th.setAttribute('aria-sort', down ? 'descending' : 'ascending');
        var num = th.dataset.type === 'num';
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function(a, b){
          var x = a.cells[col].dataset.v, y = b.cells[col].dataset.v;
          if (num) { x = x === '' ? -Infinity : Number(x); y = y === '' ? -Infinity : Number(y); }
          var c = x < y ? -1 : x > y ? 1 : 0;
          return down ? -c : c;
        });
        rows.forEach(function(r){ body.appendChild(r); });
      });
    });
  });
})();
"""


def club_page(games: list, deals, findings, player: Optional[str] = None,
              variant: Optional[str] = None) -> str:
    """The club's page (``stats --format html``): one self-contained HTML
    page, one variant at a time (a menu, the variant with the most games
    first; only ``variant`` when given), per variant the per-player table
    (:func:`players_table`, sortable; at most :data:`PAGE_PLAYERS` players
    with the most games and those the charts draw, :func:`page_stats`), the
    notes on shared names and the six charts of :func:`club_figures`, each
    title once (the heading; the figure's own title is left out), plotly.js
    inlined, nothing fetched.  ``games``, ``deals``, ``findings``: the
    read-model rows (with ``score_after`` for the score progressions);
    ``player`` as :func:`~euchre_events.archive.clubstats.club_stats` takes
    it.  Everything from records is escaped."""
    deals, findings = list(deals), list(findings)
    return club_page_of(games, lambda v: (deals, findings), player=player, variant=variant)


def club_page_of(games: list, rows_of, player: Optional[str] = None, variant: Optional[str] = None,
                 score_after=None) -> str:
    """:func:`club_page` counted one variant at a time, a section of rows at
    a time (issue 26): ``rows_of(variant)`` gives ``(deals, findings)`` to
    count that variant from, read once (``ReadModels.iter_deals(variant=...)``
    and ``.iter_findings(variant=...)``); ``score_after(game_ids)``, when
    given, the ``{game_id: score_after}`` of the games whose score
    progressions are drawn (``ReadModels.score_after``: ``games`` then need
    not hold that column).  Memory: the players' counts of one variant at a
    time, and a page bounded by :data:`PAGE_PLAYERS` per variant."""
    from collections import Counter

    from euchre_events.archive.clubstats import club_counts, seat_players
    seats = seat_players(games)     # every variant's players at once: "Max (bid)" beside "Max (standard)"
    counts = Counter(g["variant"] for g in games if not g.get("error") and (not variant or g["variant"] == variant))
    variants = sorted(counts, key=lambda v: (-counts[v], v)) or [variant or "standard"]
    sections = []
    for v in variants:
        deals, findings = rows_of(v)
        c = club_counts(games, deals, findings, player=player, variant=v, seats=seats)
        s = page_stats(c)
        del c
        if score_after is not None:
            drawn = [g for g in games if not g.get("error") and g["variant"] == v][-12:]
            after = score_after(g["game_id"] for g in drawn)
            for g in drawn:
                g["score_after"] = after.get(g["game_id"])
        sections.append((v, s, club_figures(s, games, (), (), seats=seats)))
    return _page(sections, counts)


def _page(sections: list, counts: dict) -> str:
    """The page of :func:`club_page` from ``[(variant, stats, figures)]``."""
    from plotly.offline import get_plotlyjs
    esc = html.escape
    options = "".join(f"<option value='{esc(v, quote=True)}'>{esc(v)} ({counts.get(v, 0)} games)</option>"
                      for v, _, _ in sections)
    body, figs = [], {}
    for v, s, figures in sections:
        out = [f"<section class='variant' data-variant='{esc(v, quote=True)}'>",
               f"<h2>{esc(v)}: {s['games']} games, {s.get('players_total', len(s['players']))} players</h2>",
               "<p>Figures by the official result (renege penalties, claims and rulings applied, rules.md 1.5, "
               "1.6); <span class='ap'>(N)</span> beside a figure: the figure as played, where it differs. "
               "Click a heading to sort.</p>"]
        if s.get("damaged"):
            out.append(f"<p>Damaged games, not counted: {s['damaged']}.</p>")
        if s.get("unnamed_seats"):
            out.append(f"<p>Unnamed seats (a placeholder name such as North or P1, no player id; counted "
                       f"under no player): {s['unnamed_seats']}.</p>")
        if s.get("notes"):   # many in a big archive: folded, the count said
            n = s.get("same_name_total", sum(1 for p in s["players"].values() if p.get("same_name")))
            left = s.get("notes_total", len(s["notes"])) - len(s["notes"])
            out.append(f"<details class='notes'><summary>* {n} player{'s' if n != 1 else ''} here share a name "
                       "with a player of another variant or source, and no player id links them: they may be "
                       "one person or several</summary><ul>"
                       + "".join(f"<li>{esc(x)}</li>" for x in s["notes"])
                       + (f"<li>and {left} more: euchre-events stats --format json lists them all</li>" if left > 0
                          else "") + "</ul></details>")
        more = s.get("players_total", len(s["players"])) - len(s["players"])
        if more > 0:    # the page's size is bounded, whatever the archive's (issue 26)
            out.append(f"<p>The {len(s['players'])} players with the most games, and those the charts show, "
                       f"are listed; {more} more are counted above: euchre-events stats --format json lists "
                       "them all.</p>")
        out.append("<div class='wrap'>" + players_table(s) + "</div>")
        figs[v] = []
        for i, (title, fig) in enumerate(figures):
            heading = fig.layout.title.text or title
            fig = go_copy(fig)
            fig.update_layout(title=None, margin={"t": 60 if fig.layout.updatemenus else 30},
                              legend={"orientation": "h", "y": -0.2, "yanchor": "top"})
            figs[v].append(json.loads(fig.to_json()))
            out.append(f"<h2>{esc(html.unescape(heading))}</h2>"
                       f"<div id='fig-{esc(v, quote=True)}-{i}' class='fig'></div>")
        out.append("</section>")
        body.append("".join(out))
    data = _safe_json(json.dumps(figs, ensure_ascii=False))
    stats = _safe_json(json.dumps({v: s for v, s, _ in sections}, ensure_ascii=False))
    return ("<!DOCTYPE html>\n<html lang='en'><head><meta charset=\"utf-8\"><title>Club statistics</title>"
            f"<style>{_PAGE_CSS}</style><script>{get_plotlyjs()}</script></head><body><h1>Club statistics</h1>"
            f"<p class='menu'><label>Variant: <select id='variant'>{options}</select></label></p>"
            + "".join(body)
            + f'<script type="application/json" id="figures">{data}</script>'
            + f'<script type="application/json" id="stats">{stats}</script>'
            + f"<script>{_PAGE_JS}</script></body></html>\n")


def go_copy(fig):
    """A copy of a plotly figure (the caller's stays as it was)."""
    import plotly.graph_objects as go
    return go.Figure(fig)


def stats_html(stats: dict, figures: list, text: str = "") -> str:
    """One self-contained page of one set of statistics (``stats`` of one
    variant, as :func:`club_page` draws each); ``text`` is not used (kept
    for callers: the table says it)."""
    v = (stats.get("filters") or {}).get("variant") or "all games"
    return _page([(v, stats, figures)], {v: stats.get("games", 0)})
