"""A game as one self-contained HTML file that replays in any browser.

:func:`export_html` writes a page that needs no Jupyter, no kernel and no
network: every table state is drawn in Python by :mod:`euchre_events.render`
(the same drawing as the viewer's), the drawings are stored once each in the
page (a step usually changes two or three parts of the table, so each
distinct part is kept once and each position lists which parts it shows), and
a small embedded script steps through them.  The page carries the viewer's
CSS classes: ``ee-first``, ``ee-prev``, ``ee-next``, ``ee-last``,
``ee-slider``, ``ee-deal``, ``ee-seat-view``, ``ee-table``, ``ee-hand-0`` ..,
``ee-trick-cards``, ``ee-score``, ``ee-events`` (``ee-current``), and in a
seat view the readout ``ee-knowledge`` (``ee-voids``, ``ee-cards-out``,
``ee-master``).  The arrow keys step too.

Every seat view, its table and its event list, is drawn from what that seat
could know (:mod:`euchre_events.projections.seat`): a private event (the
dealer's discard, a partner's-best pass, the cutthroat dummy, the ghost swap)
reads as what the seat saw, without its cards.
"""
from __future__ import annotations

import html
import json
import os
import tempfile
from typing import Iterable, Optional

from euchre_events.projections.seat import knowledge_of_state
from euchre_events.ui import render as R

__all__ = ["export_html", "export_data"]

EXPORT_CSS = """
body{margin:12px;background:#fff}
.ee-export h3{margin:4px 0}
.ee-controls{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:6px 0}
.ee-controls button{padding:4px 10px;font-size:14px;cursor:pointer}
.ee-controls input[type=range]{width:360px}
.ee-layout{display:flex;gap:10px;align-items:flex-start}
.ee-main{flex:0 1 900px;min-width:0}
.ee-main .ee-knowledge:empty{display:none}
.ee-events{font-size:12px;width:360px;max-height:560px;overflow:auto;background:#fafafa;border:1px solid #ddd;
 border-radius:6px;padding:3px}
.ee-ev{padding:1px 4px;border-radius:3px}
.ee-ev.ee-current{background:#ffe082;font-weight:700}
.ee-ev.ee-ev-renege{color:#b00020}
.ee-ev .ee-num{display:inline-block;min-width:2.6em;color:#888}
.ee-note{display:block;margin-left:2.8em;color:#1b5e20;font-style:italic}
.ee-mark{font-weight:700;color:#b00020;margin-right:4px}
"""

SCRIPT = r"""
(function () {
  const D = JSON.parse(document.getElementById('ee-data').textContent);
  const S = D.strings;
  const $ = sel => document.querySelector(sel);
  const slider = $('.ee-slider'), readout = $('.ee-position'), viewSel = $('.ee-seat-view'),
        dealSel = $('.ee-deal'), events = $('.ee-events');
  const targets = D.parts.map(name => document.querySelector('[data-part="' + name + '"]'));
  const seats = Array.from(document.querySelectorAll('.ee-seat'));
  let pos = D.start, view = 'all';
  const knowBox = $('.ee-knowledge');
  const esc = t => String(t).replace(/[&<>"]/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c]));
  function eventText(i) {
    // a seat reads a private event in full only from the position given (never if null)
    const e = D.view_events[view][i];
    if (typeof e === 'number') return D.texts[e];
    return (e[2] !== null && Math.max(pos, i + 1) >= e[2]) ? D.texts[e[1]] : D.texts[e[0]];
  }
  function renegeShown(i) {
    const from = D.view_reneges[view][i];
    return from !== undefined && pos >= from;
  }
  function eventList() {
    const cur = pos - 1, lo = Math.max(0, cur - 12), hi = Math.min(D.events.length, cur + 15);
    let out = lo > 0 ? '<div class="ee-ev ee-more">\u2026 ' + lo + ' earlier event(s)</div>' : '';
    for (let i = lo; i < hi; i++) {
      const cls = ['ee-ev'];
      if (i === cur) cls.push('ee-current');
      const renege = renegeShown(i);
      if (renege) cls.push('ee-ev-renege');
      let notes = '';
      for (const n of (D.notes[i] || [])) {
        notes += '<span class="ee-note">' + (n.mark ? '<span class="ee-mark">' + esc(n.mark) + '</span>' : '') +
                 esc(n.text) + '</span>';
      }
      out += '<div class="' + cls.join(' ') + '" data-pos="' + i + '"><span class="ee-num">' + i + '</span>' +
             esc(eventText(i)) + (renege ? ' (renege)' : '') + notes + '</div>';
    }
    if (hi < D.events.length) out += '<div class="ee-ev ee-more">\u2026 ' + (D.events.length - hi) + ' later event(s)</div>';
    return out;
  }
  function draw() {
    const row = D.views[view][pos - 1];
    for (let i = 0; i < targets.length; i++) {
      const html = S[row[i]];
      if (targets[i].innerHTML !== html) targets[i].innerHTML = html;
    }
    const k = D.views[view][pos - 1][targets.length];
    const khtml = k === undefined || k === null ? '' : k.map(i => S[i]).join('');
    if (knowBox.innerHTML !== khtml) knowBox.innerHTML = khtml;
    const turn = D.turn[pos - 1];
    seats.forEach((el, s) => el.classList.toggle('ee-turn', turn === s));
    slider.value = pos;
    readout.textContent = pos + ' / ' + D.n;
    document.querySelector('.ee-table').dataset.position = pos;
    const d = D.deal_at[pos - 1];
    if (dealSel.value !== String(d)) dealSel.value = String(d);
    events.innerHTML = eventList();
  }
  function go(k) { pos = Math.max(1, Math.min(D.n, k)); draw(); }
  $('.ee-first').addEventListener('click', () => go(1));
  $('.ee-prev').addEventListener('click', () => go(pos - 1));
  $('.ee-next').addEventListener('click', () => go(pos + 1));
  $('.ee-last').addEventListener('click', () => go(D.n));
  slider.addEventListener('input', () => go(Number(slider.value)));
  dealSel.addEventListener('change', () => { const p = D.deals[dealSel.value]; if (p) go(p); });
  viewSel.addEventListener('change', () => { view = viewSel.value; draw(); });
  document.addEventListener('keydown', e => {
    if (e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT')) return;
    if (e.key === 'ArrowRight') go(pos + 1);
    if (e.key === 'ArrowLeft') go(pos - 1);
  });
  draw();
})();
"""


def _notes(annotations: Iterable) -> dict:
    out: dict = {}
    for a in annotations or ():
        out.setdefault(int(a["position"]), []).append({"text": str(a.get("text", "")),
                                                       "mark": a.get("mark") or ""})
    return out


def _interner(table: list):
    """A function ``text -> index into table`` that appends each new text once
    (the page ships every distinct piece of markup or text one time)."""
    index: dict = {}

    def intern(text: str) -> int:
        i = index.get(text)
        if i is None:
            i = index[text] = len(table)
            table.append(text)
        return i
    return intern


def export_data(game, annotations: Iterable = (), views: Optional[Iterable] = None) -> dict:
    """The replay data of :func:`export_html` as a dict (JSON-ready).

    ``game``: a :class:`~euchre_events.projections.Game`; ``annotations``:
    ``[{"position", "text", "mark"}]`` (event indices); ``views``: the seat
    views to include (default: all hands and every seat).  Keys: ``n``
    (positions 1..n), ``parts`` (part names), ``strings`` (distinct part
    drawings), ``views`` (``{"all"|"0".., [[string index per part, then the
    seat view's readout as the string indices of its pieces (see
    :func:`euchre_events.ui.render.knowledge_parts`) or None] per
    position]}``), ``turn``, ``deal_at``,
    ``deals`` (deal -> position just after its cards are dealt), ``events``
    (in words, all hands), ``texts`` (distinct event texts), ``view_events``
    (``{view: [entry per event]}``: a ``texts`` index, or ``[as seen, in
    full, from position or None]`` for an event the seat reads in full only
    from that position, see
    :func:`euchre_events.ui.describe.seat_event_texts`), ``notes``,
    ``reneges`` (event indices), ``view_reneges`` (``{view: {event index:
    position from which that view knows of the renege}}``), ``start``.
    Every seat view is drawn from :mod:`euchre_events.projections.seat`.
    """
    from euchre_events.ui.describe import describe_events, seat_event_texts
    n = len(game.events)
    players = game.players
    n_seats = len(players)
    names = [f"head-{s}" for s in range(n_seats)] + [f"hand-{s}" for s in range(n_seats)] \
        + ["trick", "last", "info", "score", "act"]
    view_keys = list(views) if views is not None else [None] + list(range(n_seats))
    findings = game.audit()
    strings: list = []
    intern = _interner(strings)

    def key(v) -> str:
        return "all" if v is None else str(v)

    variant = game.final.variant
    renege_positions = [r.position for r in game.final.reneges if getattr(r, "corrected_at", None) is None]
    rows = {key(v): [] for v in view_keys}
    renege_from: dict = {key(v): {} for v in view_keys}
    turn, deal_at = [], []
    for k in range(1, n + 1):
        st = game.state_at(k)
        nxt = game.events[k] if k < n else None
        turn.append(st.turn)
        deal_at.append(st.deal)
        for v in view_keys:
            know = None if v is None else knowledge_of_state(st, v, events=game.events, variant=variant)
            parts = R.table_parts(st, v, findings, nxt, knowledge=know)
            row = [intern(parts[name]) for name in names]
            # the readout in its pieces: the voids and master cards change less often than the cards out
            row.append([intern(x) for x in R.knowledge_parts(know, players)] if know is not None else None)
            rows[key(v)].append(row)
            if know is not None:
                for p in know.reneges_known:
                    renege_from[key(v)].setdefault(str(p), k)
    if None in view_keys:
        renege_from["all"] = {str(p): 0 for p in renege_positions}
    texts: list = []
    text_id = _interner(texts)

    view_events = {}
    for v in view_keys:
        entries = []
        for i, (start, seen, full) in enumerate(seat_event_texts(game.events, players, v)):
            if start == i + 1 or seen == full:
                entries.append(text_id(full if start is not None else seen))
            else:
                entries.append([text_id(seen), text_id(full), start])
        view_events[key(v)] = entries
    deals = {}
    for i, ev in enumerate(game.events):
        if ev.kind == "DealStarted":
            p = i + 1
            if i + 1 < n and game.events[i + 1].kind == "CardsDealt":
                p += 1
            deals[str(ev.deal)] = min(p, n)
    return {
        "n": n, "parts": names, "strings": strings, "views": rows, "turn": turn, "deal_at": deal_at,
        "deals": deals, "events": describe_events(game.events, players),
        "texts": texts, "view_events": view_events,
        "notes": {str(k): v for k, v in _notes(annotations).items()},
        "reneges": renege_positions, "view_reneges": renege_from,
        "start": 1,
    }


def _skeleton(n_seats: int) -> str:
    pos = R.POSITIONS.get(n_seats, R.POSITIONS[4])
    seats = "".join(
        f'<div class="ee-seat ee-seat-{s}" style="grid-area:{pos[s] if s < len(pos) else "bottom"}">'
        f'<div class="ee-seat-head" data-part="head-{s}"></div>'
        f'<div class="ee-hand ee-hand-{s}" data-seat="{s}" data-part="hand-{s}"></div></div>'
        for s in range(n_seats))
    boxes = "".join(f'<div class="ee-box {cls}" style="grid-area:{area}" data-part="{part}"></div>'
                    for part, cls, area in (("trick", "ee-trick-cards", "trick"), ("last", "ee-last", "last"),
                                            ("info", "ee-info", "info"), ("score", "ee-score", "score"),
                                            ("act", "ee-act", "act")))
    return f'<div class="ee-table">{seats}{boxes}</div>'


def export_html(game, path: str, annotations: Iterable = (), title: Optional[str] = None,
                views: Optional[Iterable] = None) -> None:
    """Write ``game`` to ``path`` as one HTML file that replays it step by step.

    ``game``: a :class:`~euchre_events.projections.Game`; ``annotations``:
    notes ``[{"position", "text", "mark"}]`` shown at their events (e.g.
    ``Archive.annotations(game_id)`` or ``Record.annotations``); ``title``:
    page title (default: the game's); ``views``: seat views offered (default:
    all hands and each seat).  The page makes no request to any other host.
    The file is written whole or not at all (a temporary file renamed into
    place).  Raises ``OSError`` if the folder cannot be written.
    """
    data = export_data(game, annotations, views)
    n_seats = len(game.players)
    ttl = title or game.title or "Euchre game"
    # text from the record (names, notes) must not end or open an HTML element
    # inside the <script> that holds the data: <, > and & as JSON escapes
    blob = (json.dumps(data, separators=(",", ":"), ensure_ascii=False)
            .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
    view_opts = []
    for key in data["views"]:
        if key == "all":
            view_opts.append('<option value="all">all hands</option>')
        else:
            s = int(key)
            p = game.players[s] if s < len(game.players) else ""
            label = R.seat_label(s, n_seats) + (f" ({p})" if p else "")
            view_opts.append(f'<option value="{key}">{html.escape(label)}</option>')
    deal_opts = '<option value="0">-</option>' + "".join(
        f'<option value="{d}">deal {d}</option>' for d in data["deals"])
    players = ", ".join(f"{R.seat_label(s, n_seats)}: {p}" for s, p in enumerate(game.players))
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>{html.escape(ttl)}</title>
<style>{R.CSS}{EXPORT_CSS}</style></head>
<body><div class="ee-root ee-export">
<h3>{html.escape(ttl)}</h3><div>{html.escape(players)}</div>
<div class="ee-controls">
<button class="ee-first" type="button">&laquo; first</button>
<button class="ee-prev" type="button">&lsaquo; prev</button>
<button class="ee-next" type="button">next &rsaquo;</button>
<button class="ee-last" type="button">last &raquo;</button>
<input class="ee-slider" type="range" min="1" max="{data['n']}" value="1" aria-label="event">
<span class="ee-position"></span>
<label>deal <select class="ee-deal">{deal_opts}</select></label>
<label>view <select class="ee-seat-view">{''.join(view_opts)}</select></label>
</div>
<div class="ee-layout"><div class="ee-main">{_skeleton(n_seats)}<div class="ee-knowledge"></div></div><div class="ee-events"></div></div>
</div>
<script id="ee-data" type="application/json">{blob}</script>
<script>{SCRIPT}</script>
</body></html>
"""
    folder = os.path.dirname(os.path.abspath(path)) or "."
    fd, tmp = tempfile.mkstemp(prefix=".ee-export-", suffix=".html", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(page)
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; a page is meant to be shared
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
