"""A game as one self-contained HTML file that replays in any browser.

:func:`export_html` writes a page that needs no Jupyter, no kernel and no
network: every table state is drawn in Python by :mod:`euchre_events.render`
(the same drawing as the viewer's), the drawings are stored once each in the
page (a step usually changes two or three parts of the table, so each
distinct part is kept once and each position lists which parts it shows), and
a small embedded script steps through them.  The page carries the viewer's
CSS classes: ``ee-first``, ``ee-prev``, ``ee-next``, ``ee-last``,
``ee-slider``, ``ee-deal``, ``ee-trick``, ``ee-line`` (with variations),
``ee-link``, ``ee-seat-view``, ``ee-table``, ``ee-hand-0`` ..,
``ee-trick-cards``, ``ee-score``, ``ee-events`` (``ee-current``), and in a
seat view the readout ``ee-knowledge`` (``ee-voids``, ``ee-cards-out``,
``ee-master``), the box of the last trick ``ee-last-trick``, and the score chart
``ee-chart`` (``ee-chart-point`` per deal and side, ``ee-chart-now``).  Keys
and the position link: see :func:`export_html`.

Every seat view, its table and its event list, is drawn from what that seat
could know (:mod:`euchre_events.projections.seat`): a private event (the
dealer's discard, a partner's-best pass, the cutthroat dummy, the ghost swap)
reads as what the seat saw, without its cards.
"""
from __future__ import annotations

import html
import json
from typing import Iterable, Optional

from euchre_events.formats.output import write_output
from euchre_events.projections.seat import knowledge_of_state
from euchre_events.projections.viewer import KEY_ACTIONS, ViewerModel, rows_window
from euchre_events.ui import render as R

__all__ = ["export_html", "export_page", "export_data"]

EXPORT_CSS = """
body{margin:12px;background:#fff}
.ee-export h3{margin:4px 0}
.ee-controls{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:6px 0}
.ee-controls button{padding:4px 10px;font-size:14px;cursor:pointer}
.ee-controls input[type=range]{width:360px}
.ee-layout{display:flex;gap:10px;align-items:flex-start}
.ee-main{flex:1 1 620px;min-width:min(630px,100%);max-width:900px}
.ee-main .ee-knowledge:empty{display:none}
.ee-layout{flex-wrap:wrap}
.ee-side{flex:1 1 300px;min-width:270px;max-width:430px;display:flex;flex-direction:column;gap:8px}
.ee-events{font-size:12px;max-height:560px;overflow:auto;background:#fafafa;border:1px solid #ddd;
 border-radius:6px;padding:3px}
.ee-events [data-pos],.ee-events [data-line]{cursor:pointer}
.ee-events [data-pos]:hover{background:#eef}
.ee-ev.ee-var{color:#0d47a1;font-style:italic;margin-left:2.8em}
.ee-ev.ee-ev-var .ee-num{color:#0d47a1}
.ee-chart svg{max-width:100%;height:auto;background:#fff;border:1px solid #ddd;border-radius:6px}
.ee-chart text{font:11px sans-serif;fill:#333}
.ee-chart .ee-chart-title{font-weight:700}
.ee-chart .ee-chart-point{cursor:pointer}
.ee-link{font-size:12px;color:#555;font-family:monospace}
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
        dealSel = $('.ee-deal'), trickSel = $('.ee-trick'), lineSel = $('.ee-line'), events = $('.ee-events'),
        linkA = $('.ee-link'), chartBox = $('.ee-chart');
  const targets = D.parts.map(name => document.querySelector('[data-part="' + name + '"]'));
  const seats = Array.from(document.querySelectorAll('.ee-seat'));
  let pos = D.start, view = 'all', line = 0, L = D, trickDeal = null;
  const knowBox = $('.ee-knowledge');
  const esc = t => String(t).replace(/[&<>"]/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c]));
  function eventText(i) {
    // a seat reads a private event in full only from the position given (never if null)
    const e = L.view_events[view][i];
    if (typeof e === 'number') return D.texts[e];
    return (e[2] !== null && Math.max(pos, i + 1) >= e[2]) ? D.texts[e[1]] : D.texts[e[0]];
  }
  function renegeShown(i) {
    const from = L.view_reneges[view][i];
    return from !== undefined && pos >= from;
  }
  function branchRows(i) {
    // the record's variations leave the main line after `branch` events: shown under event branch - 1
    if (line !== 0) return '';
    let out = '';
    D.lines.forEach((v, j) => {
      if (v.branch - 1 !== i) return;
      out += '<div class="ee-ev ee-var" data-line="' + (j + 1) + '">\u21b3 ' + esc(v.name) +
             (v.comment ? ': ' + esc(v.comment) : '') + (v.error ? ' (' + esc(v.error) + ')' : '') + '</div>';
    });
    return out;
  }
  function eventList() {
    // the window of rows as Python computed it (projections.viewer.rows_window): a seat's view stops at now
    const cur = pos - 1, w = L.rows[cur], lo = w[0], hi = view === 'all' ? w[1] : w[2];
    let out = lo > 0 ? '<div class="ee-ev ee-more">\u2026 ' + lo + ' earlier event(s)</div>' : '';
    for (let i = lo; i < hi; i++) {
      const cls = ['ee-ev'];
      if (i === cur) cls.push('ee-current');
      if (line !== 0 && i >= L.branch) cls.push('ee-ev-var');
      const renege = renegeShown(i);
      if (renege) cls.push('ee-ev-renege');
      let notes = '';
      for (const n of (L.notes[i] || [])) {
        notes += '<span class="ee-note">' + (n.mark ? '<span class="ee-mark">' + esc(n.mark) + '</span>' : '') +
                 esc(n.text) + '</span>';
      }
      // numbered from 1 as the viewer does: the row of #event=18 reads 18 (data-pos 17)
      out += '<div class="' + cls.join(' ') + '" data-pos="' + i + '"><span class="ee-num">' + (i + 1) + '</span>' +
             esc(eventText(i)) + (renege ? ' (renege)' : '') + notes + '</div>' + branchRows(i);
    }
    if (hi < L.events.length) out += '<div class="ee-ev ee-more">\u2026 ' + (L.events.length - hi) + ' later event(s)</div>';
    return out;
  }
  // ---- the position link and counter, as Python computed them (projections.viewer.ViewerModel)
  function link() { return L.links[pos - 1]; }
  function goLink(h) {
    const q = new URLSearchParams(String(h || '').replace(/^#/, ''));
    const num = k => { const v = q.get(k); return v !== null && /^-?\d+$/.test(v.trim()) ? Number(v) : (v === null ? null : NaN); };
    const deal = num('deal'), event = num('event'), ln = num('line');
    if (Number.isNaN(deal) || Number.isNaN(event) || Number.isNaN(ln)) return false;
    const want = ln === null ? 0 : ln;
    if (want < 0 || want > D.lines.length || (want > 0 && D.lines[want - 1].error)) return false;
    const LL = want ? D.lines[want - 1] : D;
    if (deal !== null) {
      const span = LL.deal_span[String(deal)];
      if (span === undefined) return false;
      setLine(want, false);
      if (event === null) { jumpDeal(deal); return true; }
      go(span[0] + Math.max(1, Math.min(event, span[1] - span[0])));
      return true;
    }
    if (event === null) return false;
    setLine(want, false);
    go(event);
    return true;
  }
  // ---- the chart: score after each deal, the "now" marker at the last deal scored
  let chartGeom = null;
  function drawChart() {
    if (!chartBox) return;
    const pts = L.score_after, W = 420, H = 190, ml = 34, mr = 10, mt = 24, mb = 30;
    if (!pts.length) { chartBox.innerHTML = ''; chartGeom = null; return; }
    const xmax = Math.max(1, pts[pts.length - 1][0]);
    let ymax = 1;
    pts.forEach(p => p[1].forEach(v => { ymax = Math.max(ymax, v); }));
    const X = d => ml + (W - ml - mr) * d / xmax, Y = v => H - mb - (H - mt - mb) * v / ymax;
    const colours = ['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b', '#e377c2'];
    let svg = '<svg class="ee-chart-svg" viewBox="0 0 ' + W + ' ' + H + '" width="' + W + '" height="' + H +
      '" role="img" aria-label="score after each deal"><text class="ee-chart-title" x="' + (W / 2) +
      '" y="14" text-anchor="middle">score after each deal (click a point to jump there)</text>';
    svg += '<line x1="' + ml + '" y1="' + Y(0) + '" x2="' + (W - mr) + '" y2="' + Y(0) + '" stroke="#999"/>';
    svg += '<line x1="' + ml + '" y1="' + mt + '" x2="' + ml + '" y2="' + Y(0) + '" stroke="#999"/>';
    const step = Math.max(1, Math.ceil(xmax / 12));
    for (let d = 0; d <= xmax; d += step)
      svg += '<text class="ee-tick" x="' + X(d) + '" y="' + (Y(0) + 12) + '" text-anchor="middle">' + d + '</text>';
    const ystep = Math.max(1, Math.ceil(ymax / 5));
    for (let v = 0; v <= ymax; v += ystep)
      svg += '<text class="ee-tick" x="' + (ml - 4) + '" y="' + (Y(v) + 3) + '" text-anchor="end">' + v + '</text>';
    svg += '<text class="ee-axis" x="' + ((W + ml) / 2) + '" y="' + (H - 3) + '" text-anchor="middle">deal</text>';
    svg += '<text class="ee-axis" x="10" y="' + ((H - mb + mt) / 2) + '" text-anchor="middle" transform="rotate(-90 10 ' +
      ((H - mb + mt) / 2) + ')">points</text>';
    D.sides.forEach((name, s) => {
      const c = colours[s % colours.length];
      svg += '<polyline class="ee-chart-line" data-side="' + s + '" fill="none" stroke="' + c + '" stroke-width="2" points="' +
        pts.map(p => X(p[0]) + ',' + Y(p[1][s])).join(' ') + '"/>';
      pts.forEach(p => {
        svg += '<circle class="ee-chart-point" data-deal="' + p[0] + '" data-side="' + s + '" cx="' + X(p[0]) + '" cy="' +
          Y(p[1][s]) + '" r="4" fill="' + c + '"><title>' + esc(name) + ' after deal ' + p[0] + ': ' + p[1][s] + '</title></circle>';
      });
      svg += '<text class="ee-legend" x="' + (ml + 8 + 70 * s) + '" y="' + (mt + 8) + '" style="fill:' + c + '">\u25cf ' + esc(name) + '</text>';
    });
    D.sides.forEach((_, s) => { svg += '<circle class="ee-chart-now" data-side="' + s + '" r="8" fill="none" stroke="#d62728" stroke-width="2.5"/>'; });
    svg += '</svg>';
    chartBox.innerHTML = svg;
    chartGeom = {X, Y, now: Array.from(chartBox.querySelectorAll('.ee-chart-now'))};
  }
  function moveMarker() {
    if (!chartGeom) return;
    const sc = L.scored[pos - 1];
    chartGeom.now.forEach((c, s) => {
      c.setAttribute('cx', chartGeom.X(sc[0]));
      c.setAttribute('cy', chartGeom.Y(sc[1][s] || 0));
    });
    chartBox.dataset.deal = sc[0];
  }
  function fillTricks(d) {
    if (trickDeal === d) return;
    trickDeal = d;
    const starts = L.tricks[String(d)] || [];
    trickSel.innerHTML = '<option value="0">-</option>' + starts.map((_, i) => '<option value="' + (i + 1) + '">trick ' + (i + 1) + '</option>').join('');
  }
  function draw() {
    const row = L.views[view][pos - 1];
    for (let i = 0; i < targets.length; i++) {
      const html = S[row[i]];
      if (targets[i].innerHTML !== html) targets[i].innerHTML = html;
    }
    const k = row[targets.length];
    const khtml = k === undefined || k === null ? '' : k.map(i => S[i]).join('');
    if (knowBox.innerHTML !== khtml) knowBox.innerHTML = khtml;
    const turn = L.turn[pos - 1];
    seats.forEach((el, s) => el.classList.toggle('ee-turn', turn === s));
    slider.max = L.n;
    slider.value = pos;
    // one numbering with the link (#deal=1&event=12 reads "deal 1 · event 12 / 27"): the
    // game-wide count "13 / 353" beside it named another number for the same position
    readout.textContent = L.counters[pos - 1];
    const table = document.querySelector('.ee-table');
    table.dataset.position = pos;
    table.dataset.line = line;
    const d = L.deal_at[pos - 1];
    const dv = L.deals[String(d)] !== undefined ? String(d) : '0';
    if (dealSel.value !== dv) dealSel.value = dv;
    fillTricks(d);
    const t = L.trick_at[pos - 1];
    const tv = t === null ? '0' : String(t);
    if (trickSel.value !== tv) trickSel.value = tv;
    if (lineSel && lineSel.value !== String(line)) lineSel.value = String(line);
    events.innerHTML = eventList();
    moveMarker();
    const h = link();
    linkA.textContent = '#' + h;
    linkA.setAttribute('href', '#' + h);
    if (location.hash !== '#' + h) {
      try { history.replaceState(null, '', '#' + h); } catch (err) { /* a sandboxed frame: the readout still shows it */ }
    }
  }
  function go(k) { pos = Math.max(1, Math.min(L.n, k)); draw(); }
  function setLine(j, redraw) {
    if (j === line) return;
    line = j;
    L = j ? D.lines[j - 1] : D;
    trickDeal = null;
    const opts = Object.keys(L.deals).map(Number).sort((a, b) => a - b);
    dealSel.innerHTML = '<option value="0">-</option>' + opts.map(d => '<option value="' + d + '">deal ' + d + '</option>').join('');
    drawChart();
    pos = Math.max(1, Math.min(L.n, pos));
    if (redraw) draw();
  }
  function jumpDeal(n) { const p = L.deals[String(n)]; if (p) go(p); }
  // the keys (KEY_ACTIONS) and where each goes from each position (ViewerModel.key_target)
  const ACTIONS = {prev: () => go(pos - 1), next: () => go(pos + 1), first: () => go(1), last: () => go(L.n),
                   deal_prev: () => go(L.deal_prev[pos - 1]), deal_next: () => go(L.deal_next[pos - 1])};
  const KEYS = {};
  Object.keys(D.keys).forEach(k => { if (ACTIONS[D.keys[k]]) KEYS[k] = ACTIONS[D.keys[k]]; });
  $('.ee-first').addEventListener('click', () => go(1));
  $('.ee-prev').addEventListener('click', () => go(pos - 1));
  $('.ee-next').addEventListener('click', () => go(pos + 1));
  $('.ee-last').addEventListener('click', () => go(L.n));
  slider.addEventListener('input', () => go(Number(slider.value)));
  // a menu gives the keys back once chosen (its own arrow keys would change it again)
  dealSel.addEventListener('change', () => { const p = L.deals[dealSel.value]; if (p) go(p); else draw(); dealSel.blur(); });
  trickSel.addEventListener('change', () => {
    const starts = L.tricks[String(L.deal_at[pos - 1])] || [], t = Number(trickSel.value);
    if (t >= 1 && t <= starts.length) go(starts[t - 1]); else draw();
    trickSel.blur();
  });
  viewSel.addEventListener('change', () => { view = viewSel.value; draw(); viewSel.blur(); });
  if (lineSel) lineSel.addEventListener('change', () => {
    const j = Number(lineSel.value);
    if (j && D.lines[j - 1].error) { lineSel.value = String(line); return; }
    setLine(j, true);
    lineSel.blur();
  });
  events.addEventListener('click', e => {
    const v = e.target.closest && e.target.closest('[data-line]');
    if (v) {
      const j = Number(v.dataset.line);
      if (!D.lines[j - 1].error) { setLine(j, false); go(D.lines[j - 1].branch + 1); }
      return;
    }
    const row = e.target.closest && e.target.closest('[data-pos]');
    if (row) go(Number(row.dataset.pos) + 1);
  });
  if (chartBox) chartBox.addEventListener('click', e => {
    const p = e.target.closest && e.target.closest('[data-deal]');
    if (p) { const e = L.deal_end[p.dataset.deal]; if (e) go(e); }
  });
  document.addEventListener('keydown', e => {
    const t = e.target, tag = t && t.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || (t && t.isContentEditable)) return;
    if (e.altKey || e.ctrlKey || e.metaKey || !KEYS[e.key]) return;
    e.preventDefault();
    KEYS[e.key]();
  });
  window.addEventListener('hashchange', () => { if (location.hash.length > 1 && location.hash !== '#' + link()) goLink(location.hash); });
  drawChart();
  if (!(location.hash.length > 1 && goLink(location.hash))) go(D.start);
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


ANALYSIS_CSS = """
.ee-export .ee-hand .ee-card.ee-legal{margin:2px 7px 28px 5px}
""" + R.BADGE_CSS + """.ee-lab{font-weight:700;margin-left:2px}
.ee-lab-blunder,.ee-lab-mistake{color:#b00020}
.ee-lab-dubious{color:#b26a00}
.ee-lab-interesting{color:#6a1b9a}
.ee-lab-great,.ee-lab-brilliant{color:#1b5e20}
.ee-ev .ee-label{font-weight:700;margin-left:4px}
.ee-analysis{font-size:12.5px;background:#f6f8fa;border:1px solid #dde;border-radius:6px;padding:4px 8px;
 max-width:900px;margin-top:6px}
.ee-analysis table{border-collapse:collapse;margin:2px 0}
.ee-analysis td,.ee-analysis th{padding:1px 8px 1px 0;text-align:left}
.ee-analysis .ee-played td{font-weight:700}
.ee-analysis-progress{color:#555;font-size:12px}
.ee-eval{max-width:900px;min-height:10px;margin-top:6px;position:relative}
.ee-eval-ring{position:absolute;width:18px;height:18px;border:2.5px solid #000;border-radius:50%;
 pointer-events:none;display:none;z-index:3}
"""
"""The page's CSS for the analysis at the table (``export --with-analysis``)."""

# The analysis at the table, added to SCRIPT only with --with-analysis (the page
# without it stays byte for byte what it was): (anchor in SCRIPT, text put after it).
ANALYSIS_SCRIPT = (
    ("  function draw() {\n", r"""    drawTable();
    drawAnalysis();
  }
  // ---- the analysis at the table: everything computed in Python (htmlexport._Board)
  const A = D.analysis, panelBox = $('.ee-analysis'), evalBox = $('.ee-eval');
  let evalDeal = null, evalHere = null, evalBound = false;
  const evalRing = document.createElement('div');
  evalRing.className = 'ee-eval-ring';
  function labelHtml(i) {
    const lab = line === 0 ? A.labels[String(i)] : undefined;
    if (!lab) return '';
    const w = A.words[lab];
    return '<span class="ee-label ee-lab-' + w + '" data-label="' + esc(lab) + '" title="analysis: ' + w + '">' +
           esc(lab) + '</span>';
  }
  function mistake(forward) {
    if (line !== 0) setLine(0, false);
    const k = forward ? A.mistake_next[pos - 1] : A.mistake_prev[pos - 1];
    if (k !== null) go(k); else draw();
  }
  function drawAnalysis() {
    // a seat view: another seat's play or discard is its hidden cards, not named in the panel
    const hid = line === 0 && view !== 'all' ? A.hidden[pos - 1] : null;
    const pi = line === 0 ? (hid && hid[view] !== undefined ? hid[view] : A.panel[pos - 1]) : A.off_main;
    if (panelBox.innerHTML !== S[pi]) panelBox.innerHTML = S[pi];
    const d = line === 0 ? L.deal_at[pos - 1] : null, fig = d === null ? undefined : A.graphs[String(d)];
    if (!fig) {
      if (evalDeal !== null) { Plotly.purge(evalBox); evalDeal = null; evalRing.remove(); }
      evalBox.dataset.deal = '';
      return;
    }
    if (evalDeal !== d) {
      Plotly.react(evalBox, fig.data, fig.layout, {displayModeBar: false});
      evalDeal = d; evalHere = null;
      if (!evalRing.parentNode) evalBox.appendChild(evalRing);
      if (!evalBound) {
        evalBound = true;
        // a click on a decision's point: the table just before it (its options on the table)
        evalBox.on('plotly_click', ev => {
          const p = ev && ev.points && ev.points[0];
          if (p && p.customdata !== undefined && p.customdata !== null) go(Number(p.customdata));
        });
      }
    }
    const i = fig.data[0].customdata.indexOf(pos), here = i >= 0 ? i : -1;
    if (here !== evalHere) {
      // the ring on the decision on turn: a positioned element moved over the plot (a
      // Plotly.restyle at each step took 100-200 ms; this takes none), at the point's pixels
      evalHere = here;
      const fl = evalBox._fullLayout, y = here >= 0 ? fig.data[0].y[here] : null;
      if (here < 0 || y === null || !fl) { evalRing.style.display = 'none'; }
      else {
        evalRing.style.left = (fl.xaxis._offset + fl.xaxis.l2p(fig.data[0].x[here]) - 11) + 'px';
        evalRing.style.top = (fl.yaxis._offset + fl.yaxis.l2p(y) - 11) + 'px';
        evalRing.style.display = 'block';
      }
    }
    evalBox.dataset.deal = d;
    evalBox.dataset.here = here >= 0 ? String(pos) : '';
  }
  function drawTable() {
"""),
    ("esc(eventText(i)) + (renege ? ' (renege)' : '')", " + labelHtml(i)"),
    ("deal_next: () => go(L.deal_next[pos - 1])", ",\n                   mistake_next: () => mistake(true), mistake_prev: () => mistake(false)"),
)


def _script(analysis: bool) -> str:
    """The page's script; with the analysis, :data:`ANALYSIS_SCRIPT` put in at its anchors."""
    if not analysis:
        return SCRIPT
    out = SCRIPT
    for anchor, text in ANALYSIS_SCRIPT:
        assert out.count(anchor) == 1, anchor     # a changed SCRIPT must change its anchors too
        out = out.replace(anchor, anchor + text)
    return out


class _Board:
    """The analysis at the table as the page shows it (``export --format html
    --with-analysis``, issue 22), computed here so the page's script only
    displays it: ``analysis`` a :class:`~euchre_events.analysis.review.GameAnalysis`
    of ``game``'s main line.

    - the hand on turn: each legal card with its cost badge
      (:func:`~euchre_events.ui.analysistable.hand_with_badges`), in every
      view that shows those cards;
    - :meth:`data`: ``panel`` (per position, the string index of the panel
      below the table: the deal's par beside what was bid, the decision's
      options with their costs face up and from the seat's view and the label
      of the one played), ``off_main`` (the panel in a variation), ``labels``
      (``{event index: EGN label}`` for the event list), ``words`` (label ->
      word), ``graphs`` (``{deal: plotly figure}``, the evaluation graph:
      each point's ``customdata`` is the decision's event index, the position
      a click goes to), ``mistake_next``/``mistake_prev`` (per position, the
      position of the next/previous ``??``, ``?``, ``?!``, or None).
    """

    def __init__(self, game, analysis):
        self.game = game
        self.analysis = analysis
        self.seat_view = not analysis.method.face_up_only
        self.by_pos = {d.position: d for d in analysis.decisions()}
        self.n_seats = len(game.players)
        self._costs: dict = {}

    def costs(self, k: int) -> dict:
        """The option costs of the decision on turn after ``k`` events (empty if none)."""
        from euchre_events.ui.analysistable import option_costs
        dec = self.by_pos.get(k)
        if dec is None:
            return {}
        if k not in self._costs:
            self._costs[k] = option_costs(dec, dec if self.seat_view else None)
        return self._costs[k]

    def with_badges(self, k: int, st, parts: dict) -> dict:
        """``parts`` with the badges on the hand on turn after ``k`` events."""
        from euchre_events.ui.analysistable import hand_with_badges
        key = f"hand-{st.turn}"
        c = self.costs(k) if st.turn is not None else {}
        if not c or key not in parts:
            return parts
        out = dict(parts)
        out[key] = hand_with_badges(parts[key], c, self.seat_view)
        return out

    def _graph(self, da) -> dict:
        from euchre_events.ui.analysistable import eval_points
        xs, fu, sv, pos, labs = eval_points(da, self.game.final.variant)
        names = R.side_names(self.game.state_at(1))
        who = names[0] if self.game.final.variant.n_sides == 2 else "the deciding player"
        tip = [f"event {x}" + (f" {lab}" if lab else "") for x, lab in zip(xs, labs)]
        vals = [v for v in fu + sv if v is not None] + [0.0]
        lo, hi = min(vals), max(vals)
        data = [{"type": "scatter", "x": xs, "y": fu, "customdata": pos, "text": labs, "hovertext": tip,
                 "mode": "lines+markers+text", "textposition": "top center", "name": "face up",
                 "textfont": {"color": "#b00", "size": 12},
                 "hovertemplate": "%{hovertext}: %{y:+.2f} face up<extra></extra>",
                 "line": {"color": "#1f77b4", "width": 2}, "marker": {"size": 9, "color": "#1f77b4"}}]
        if self.seat_view:
            data.append({"type": "scatter", "x": xs, "y": sv, "customdata": pos, "hovertext": tip,
                         "mode": "lines+markers", "name": "seat view",
                         "hovertemplate": "%{hovertext}: %{y:+.2f} seat view<extra></extra>",
                         "line": {"color": "#ff7f0e", "width": 1.5, "dash": "dot"},
                         "marker": {"size": 7, "color": "#ff7f0e"}})
        layout = {"height": 230, "margin": {"l": 46, "r": 12, "t": 28, "b": 34}, "hovermode": "closest",
                  # plotly reads markup in its texts: names are escaped (ui/clubcharts.py does the same)
                  "title": {"text": html.escape(f"deal {da.deal}: value after each decision, deal points for {who}"
                                                " (click a point to go to that decision)"),
                            "font": {"size": 12}, "x": 0.01},
                  "xaxis": {"title": {"text": "event"}, "tickmode": "array", "tickvals": xs},
                  # room above the highest point for its label
                  "yaxis": {"zeroline": True, "zerolinecolor": "#999", "range": [lo - 0.3, hi + 0.6]},
                  "legend": {"orientation": "h", "x": 1, "xanchor": "right", "y": 1.12},
                  "font": {"size": 11}}
        return {"data": data, "layout": layout}

    def data(self, game, model, intern) -> dict:
        from euchre_events.ui.analysisview import LABEL_WORDS, MISTAKES
        from euchre_events.ui.analysistable import bid_words, options_table, par_line
        a = self.analysis
        deals = {da.deal: da for da in a.deals}
        how = ("face up only" if a.method.face_up_only else
               f"face up and from the seat's view ({a.method.samples} imagined deals per decision)")
        head = f'<div class="ee-analysis-progress">analysis: {R._esc(how)}</div>'
        pars = {d: par_line(da, bid_words(game, d), self.n_seats) for d, da in deals.items()}
        panel, hidden = [], []
        for k in range(1, model.n + 1):
            d = model.deal_of(k)
            rows = [head]
            if d in pars:
                rows.append(pars[d])
            dec = self.by_pos.get(k)
            if dec is not None:
                rows.append(options_table(dec, dec if self.seat_view else None, self.n_seats))
            panel.append(intern("".join(rows)))
            # in another seat's view a play's or a discard's options are that seat's hidden
            # cards: the page shows hidden[k][view] instead (as the GameViewer's panel does)
            if dec is None or dec.kind == "call":
                hidden.append(None)
                continue
            who = R._esc(R.seat_label(dec.seat, self.n_seats))
            hidden.append({str(v): intern("".join(rows[:-1]) + f'<div class="ee-analysis-hidden"><b>{who}</b> to '
                                          f'decide: its options are cards {R._esc(R.seat_label(v, self.n_seats))} '
                                          f'cannot see (choose all hands to see them with their costs)</div>')
                           for v in range(self.n_seats) if v != dec.seat})
        mistakes = sorted(p for p, dec in self.by_pos.items() if dec.label in MISTAKES)
        nxt = [next((p for p in mistakes if p > k), None) for k in range(1, model.n + 1)]
        prv = [next((p for p in reversed(mistakes) if p < k), None) for k in range(1, model.n + 1)]
        return {"panel": panel, "hidden": hidden,
                "off_main": intern(head + "<div>values are shown on the main line</div>"),
                "labels": {str(p): dec.label for p, dec in self.by_pos.items() if dec.label},
                "words": dict(LABEL_WORDS),
                "graphs": {str(d): self._graph(da) for d, da in deals.items() if da.decisions},
                "mistake_next": nxt, "mistake_prev": prv}


def _line_data(game, annotations, view_keys, names, intern, text_id, line: int = 0, board=None) -> dict:
    """One line of play (the main line or a variation ``line``, from 1) as the
    page replays it: the per-line keys of :func:`export_data`, its drawings
    and texts interned into the page's shared tables.  Positions, links,
    counters, jumps and the event window come from the one viewer model
    (:class:`euchre_events.projections.viewer.ViewerModel`).  ``board``: the
    main line's :class:`_Board` (the analysis at the table), or None."""
    from euchre_events.ui.describe import describe_events, seat_event_texts
    n = len(game.events)
    players = game.players
    findings = game.audit()

    def key(v) -> str:
        return "all" if v is None else str(v)

    variant = game.final.variant
    renege_positions = [r.position for r in game.final.reneges if getattr(r, "corrected_at", None) is None]
    rows = {key(v): [] for v in view_keys}
    renege_from: dict = {key(v): {} for v in view_keys}
    ix = game.index()
    model = ViewerModel(game, line)
    turn, deal_at, trick_at, scored = [], [], [], []
    links, counters, deal_prev, deal_next, window = [], [], [], [], []
    for k in range(1, n + 1):
        st = game.state_at(k)
        nxt = game.events[k] if k < n else None
        turn.append(st.turn)
        at = model.position(k, st)
        deal_at.append(st.deal)
        trick_at.append(at.trick)      # the trick menu's value, as the viewer sets it
        links.append(at.link)
        counters.append(at.counter)
        deal_prev.append(model.key_target("deal_prev", k))
        deal_next.append(model.key_target("deal_next", k))
        lo, hi = rows_window(k - 1, n)
        window.append([lo, hi, rows_window(k - 1, n, seat_view=True)[1]])
        # the chart's "now" marker: the last deal scored and the score now
        scored.append([st.deal_results[-1][0] if st.deal_results else 0, list(st.score)])
        for v in view_keys:
            know = None if v is None else knowledge_of_state(st, v, events=game.events, variant=variant)
            parts = R.table_parts(st, v, findings, nxt, knowledge=know)
            if board is not None:
                parts = board.with_badges(k, st, parts)
            row = [intern(parts[name]) for name in names]
            # the readout in its pieces: the voids and master cards change less often than the cards out
            row.append([intern(x) for x in R.knowledge_parts(know, players)] if know is not None else None)
            rows[key(v)].append(row)
            if know is not None:
                for p in know.reneges_known:
                    renege_from[key(v)].setdefault(str(p), k)
    if None in view_keys:
        renege_from["all"] = {str(p): 0 for p in renege_positions}

    view_events = {}
    for v in view_keys:
        entries = []
        for i, (start, seen, full) in enumerate(seat_event_texts(game.events, players, v)):
            if start == i + 1 or seen == full:
                entries.append(text_id(full if start is not None else seen))
            else:
                entries.append([text_id(seen), text_id(full), start])
        view_events[key(v)] = entries
    deals = {str(d): p for d, p in model.deal_jumps().items()}
    out = {
        "n": n, "views": rows, "turn": turn, "deal_at": deal_at,
        "deals": deals, "events": describe_events(game.events, players),
        "view_events": view_events,
        "notes": {str(k): v for k, v in _notes(annotations).items()},
        "reneges": renege_positions, "view_reneges": renege_from,
        "deal_start": {str(d): p for d, p in ix.deal_start.items()},
        "deal_span": {str(d): list(model.deal_span(d)) for d in model.deals},
        "deal_end": {str(d): model.deal_end_jump(d) for d, _ in ix.score_after},
        "links": links, "counters": counters, "deal_prev": deal_prev, "deal_next": deal_next,
        "rows": window,
        "tricks": {str(d): list(p) for d, p in ix.trick_start.items()},
        "trick_at": trick_at, "scored": scored,
        "score_after": [[d, list(sc)] for d, sc in ix.score_after],
    }
    if board is not None:
        out["analysis"] = board.data(game, model, intern)
    return out


def record_variation(main, i: int, v: dict):
    """``(name, comment, branch, folded Game or None, error, notes)`` of the
    record's variation number ``i`` (from 0), ``v`` = ``{"position",
    "events", "annotations", "comment"}``, branching from ``main`` (a
    :class:`~euchre_events.projections.Game`) after ``branch`` events: the
    one naming and folding of a variation, for this page and the viewer
    (:class:`euchre_events.ui.widgets.GameViewer`).  A variation that cannot
    be replayed has no Game, the error in words, and "[cannot be replayed]"
    in its name."""
    from euchre_events.events import Event
    from euchre_events.projections import Game
    from euchre_events.rules.engine import ImpossibleEvent
    k = int(v.get("position", 0))
    comment = str(v.get("comment", "") or "")
    deal = v.get("deal")
    where = f"deal {deal}, " if deal else ""
    name = f"variation {i + 1} ({where}from event {k})"
    evs = [e for e in v.get("events", []) if isinstance(e, Event)]
    notes = [{"position": int(a.get("position", 0)), "text": str(a.get("text", "")), "mark": a.get("mark")}
             for a in v.get("annotations", []) or []]
    try:
        g = Game(list(main.events[:k]) + evs)
    except (ImpossibleEvent, ValueError) as e:
        return name + " [cannot be replayed]", comment, k, None, str(e), notes
    return name, comment, k, g, "", notes


def export_data(game, annotations: Iterable = (), views: Optional[Iterable] = None,
                variations: Iterable = (), analysis=None) -> dict:
    """The replay data of :func:`export_html` as a dict (JSON-ready).

    ``game``: a :class:`~euchre_events.projections.Game`; ``annotations``:
    ``[{"position", "text", "mark"}]`` (event indices); ``views``: the seat
    views to include (default: all hands and every seat); ``variations``:
    the record's variations ``[{"position", "events", "annotations",
    "comment"}]`` (as ``Record.variations`` or ``Archive.variations``).
    Keys: ``n`` (positions 1..n), ``parts`` (part names), ``strings``
    (distinct part drawings), ``views`` (``{"all"|"0".., [[string index per
    part, then the seat view's readout as the string indices of its pieces
    (see :func:`euchre_events.ui.render.knowledge_parts`) or None] per
    position]}``), ``turn``, ``deal_at``,
    ``deals`` (deal -> position just after its cards are dealt), ``events``
    (in words, all hands), ``texts`` (distinct event texts), ``view_events``
    (``{view: [entry per event]}``: a ``texts`` index, or ``[as seen, in
    full, from position or None]`` for an event the seat reads in full only
    from that position, see
    :func:`euchre_events.ui.describe.seat_event_texts`), ``notes``,
    ``reneges`` (event indices), ``view_reneges`` (``{view: {event index:
    position from which that view knows of the renege}}``), ``start``;
    for the menus, the position link and the chart: ``deal_start`` (deal ->
    index of its DealStarted, :meth:`~euchre_events.projections.Game.index`),
    ``tricks`` (deal -> position before each trick's first card),
    ``trick_at`` (the trick menu's value per position, or None),
    ``scored`` (``[last deal scored, score]`` per position), ``score_after``
    (``[[deal, points per side], ...]`` from deal 0), ``sides`` (side names);
    from the viewer model (:class:`~euchre_events.projections.viewer.ViewerModel`),
    per position: ``links`` (the link fragment), ``counters`` (the counter
    text), ``deal_prev``/``deal_next`` (where Up/Down go), ``rows`` (``[lo,
    hi all hands, hi seat view]`` of the event list); ``deal_span`` (deal ->
    ``[start, end]``), ``deal_end`` (deal -> its last position, the chart's
    jump), and ``keys`` (:data:`~euchre_events.projections.viewer.KEY_ACTIONS`);
    with ``analysis`` (a :class:`~euchre_events.analysis.review.GameAnalysis`
    of the main line), the main line's hands on turn carry each legal card's
    cost badge and the key ``analysis`` holds the rest (see :class:`_Board`);
    ``lines``: one entry per record variation, ``{"name", "comment",
    "branch", "error"}`` and, unless ``error``, the per-line keys above
    (``n`` .. ``score_after``) of the variation's whole line.
    Every seat view is drawn from :mod:`euchre_events.projections.seat`.
    """
    n_seats = len(game.players)
    names = [f"head-{s}" for s in range(n_seats)] + [f"hand-{s}" for s in range(n_seats)] \
        + ["trick", "last", "info", "score", "act"]
    view_keys = list(views) if views is not None else [None] + list(range(n_seats))
    strings: list = []
    intern = _interner(strings)
    texts: list = []
    text_id = _interner(texts)
    board = _Board(game, analysis) if analysis is not None else None
    out = _line_data(game, annotations, view_keys, names, intern, text_id, board=board)
    lines = []
    for i, v in enumerate(variations or ()):
        name, comment, branch, g, error, notes = record_variation(game, i, v)
        entry = {"name": name, "comment": comment, "branch": branch, "error": error}
        if g is not None:
            entry.update(_line_data(g, notes, view_keys, names, intern, text_id, i + 1))
        lines.append(entry)
    out.update({"parts": names, "strings": strings, "texts": texts, "start": 1, "lines": lines,
                "keys": dict(KEY_ACTIONS),
                "sides": R.side_names(game.state_at(1))})
    return out


def _skeleton(n_seats: int) -> str:
    pos = R.POSITIONS.get(n_seats, R.POSITIONS[4])
    seats = "".join(
        f'<div class="ee-seat ee-seat-{s}" style="grid-area:{pos[s] if s < len(pos) else "bottom"}">'
        f'<div class="ee-seat-head" data-part="head-{s}"></div>'
        f'<div class="ee-hand ee-hand-{s}" data-seat="{s}" data-part="hand-{s}"></div></div>'
        for s in range(n_seats))
    boxes = "".join(f'<div class="ee-box {cls}" style="grid-area:{area}" data-part="{part}"></div>'
                    for part, cls, area in (("trick", "ee-trick-cards", "trick"), ("last", "ee-last-trick", "last"),
                                            ("info", "ee-info", "info"), ("score", "ee-score", "score"),
                                            ("act", "ee-act", "act")))
    return f'<div class="ee-table">{seats}{boxes}</div>'


def export_html(game, path: str, annotations: Iterable = (), title: Optional[str] = None,
                views: Optional[Iterable] = None, variations: Iterable = (), analysis=None) -> None:
    """Write :func:`export_page` of ``game`` to ``path``.

    The file is written through :func:`euchre_events.formats.output.write_output`:
    whole or not at all (a temporary file renamed into place), a symbolic
    link kept (the file it names is written), a named pipe or a device
    written through, never replaced.  Raises ``OSError`` if it cannot be
    written (a missing folder, no permission).
    """
    write_output(path, export_page(game, annotations, title, views, variations, analysis))


def export_page(game, annotations: Iterable = (), title: Optional[str] = None,
                views: Optional[Iterable] = None, variations: Iterable = (), analysis=None) -> str:
    """``game`` as one HTML page (the text of the file) that replays it step by step.

    ``game``: a :class:`~euchre_events.projections.Game`; ``annotations``:
    notes ``[{"position", "text", "mark"}]`` shown at their events (e.g.
    ``Archive.annotations(game_id)`` or ``Record.annotations``); ``title``:
    page title (default: the game's); ``views``: seat views offered (default:
    all hands and each seat); ``variations``: the record's variations
    ``[{"position", "events", "annotations", "comment"}]`` (e.g.
    ``Record.variations``), offered in a line menu and under the event they
    leave the main line at.

    The page steps with its buttons, the slider, a deal and a trick menu, a
    click on an event of the list or on a point of the score chart (an SVG
    drawn in the page), and the keys: Left/Right one event, Home/End the
    first/last event, PageUp/Up and PageDown/Down by deal (as
    :meth:`euchre_events.ui.widgets.GameViewer.press`).  Its address carries
    the position, ``#deal=3&event=12`` counted as ``euchre-events show
    --deal 3 --after 12`` counts (``&line=2`` in a variation): opening such
    an address opens there, and every step rewrites it.
    The page makes no request to any other host.

    ``analysis``: a :class:`~euchre_events.analysis.review.GameAnalysis` of
    the main line (``export --with-analysis``): the page then shows the
    analysis at the table (issue 22): each decision's EGN label in the event
    list (``ee-label``, ``data-label``), the legal cards' cost badges on the
    hand on turn (``ee-badge``, face up / seat view), below the table the
    deal's par beside what was bid (``ee-par``) and the decision's options with
    their costs (``ee-option``), and the deal's evaluation graph (plotly,
    inlined: ``ee-eval``; a click on a point goes to that decision); keys
    ``m``/``M`` go to the next/previous mistake.  Without it the page is the
    same, byte for byte, as before the analysis was added.
    """
    data = export_data(game, annotations, views, variations, analysis)
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
    line_menu = ""
    if data["lines"]:
        line_menu = ('<label>line <select class="ee-line"><option value="0">main line</option>' + "".join(
            f'<option value="{j + 1}"{" disabled" if v["error"] else ""}>{html.escape(v["name"])}</option>'
            for j, v in enumerate(data["lines"])) + "</select></label>")
    players = ", ".join(f"{R.seat_label(s, n_seats)}: {p}" for s, p in enumerate(game.players))
    extra_css = plotly = boxes = ""
    if analysis is not None:
        from plotly.offline import get_plotlyjs
        # plotly.js inlined, as the analysis report does: the page still asks no network
        extra_css, plotly = ANALYSIS_CSS, f"<script>{get_plotlyjs()}</script>"
        boxes = '<div class="ee-analysis"></div><div class="ee-eval"></div>'
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>{html.escape(ttl)}</title>
<style>{R.CSS}{EXPORT_CSS}{extra_css}</style>{plotly}</head>
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
<label>trick <select class="ee-trick"><option value="0">-</option></select></label>
<label>view <select class="ee-seat-view">{''.join(view_opts)}</select></label>
{line_menu}<a class="ee-link" href="#" title="a link to this position">#</a>
</div>
<div class="ee-layout"><div class="ee-main">{_skeleton(n_seats)}<div class="ee-knowledge"></div>{boxes}</div>
<div class="ee-side"><div class="ee-events"></div><div class="ee-chart"></div></div></div>
</div>
<script id="ee-data" type="application/json">{blob}</script>
<script>{_script(analysis is not None)}</script>
</body></html>
"""
    return page
