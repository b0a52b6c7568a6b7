"""The Jupyter replay viewer: :class:`GameViewer` (ipywidgets + plotly).

``GameViewer(game)`` shows a recorded game step by step: the table drawn by
:mod:`euchre_events.render` (four seats, or two or three, with each hand or
face-down backs for what the chosen seat cannot know, the up-card and kitty,
trump, maker, lone players, the current trick, tricks taken and the score),
controls to step, jump and change the seat view, the event list with its
annotations, renege marks from the audit (rules.md 1.5), variations, and a
plotly chart of the score across deals.

Every control carries a stable CSS class (``widget.add_class``), so a browser
test can find it: ``ee-first``, ``ee-prev``, ``ee-next``, ``ee-last``,
``ee-slider``, ``ee-deal``, ``ee-trick``, ``ee-seat-view``, ``ee-table``,
``ee-hand-0`` .. ``ee-hand-3``, ``ee-trick-cards``, ``ee-score``,
``ee-events`` (the current event ``ee-current``), ``ee-note-input``,
``ee-note-mark``, ``ee-note-save``, ``ee-note-select``, ``ee-note-remove``,
``ee-line``, ``ee-var-new``, ``ee-move``, ``ee-move-play``, ``ee-chart``, and
in a seat view the readout ``ee-knowledge`` (``ee-voids``, ``ee-cards-out``,
``ee-master``).

A seat view (``seat=s``) shows what that seat could know and nothing else,
all of it from :mod:`euchre_events.projections.seat` (:attr:`GameViewer.knowledge`):
the hands, the face-down cards, the renege marks, the readout and the event
list, where a private event reads as what the seat saw ("West discards a
card face down") and which stops at the position shown (the plays to come
would show the other hands).

Positions: ``viewer.position == k`` shows the table after the first ``k``
events of the current line (``Game.state_at(k)``), ``1 <= k <= len(events)``;
the *current event* is event ``k - 1``, and a note typed in the viewer is
attached to it (annotation ``position = k - 1``, the record convention).

Playing a variation by clicking (issue 10): a click on a card the seat on
turn may play (raised, ``ee-legal``) plays it in a variation from the position
shown (:meth:`GameViewer.play_card`); a click on another card of a hand says
why it may not be played (the status line, ``ee-status``).

Keys and the position link (issue 10): in the browser Left/Right step,
Home/End go to the first/last event, PageUp/Up and PageDown/Down go by deal
(:meth:`GameViewer.press`), when the focus is inside the viewer, or anywhere
in a Voila app page with one viewer.  In a Voila page with one viewer (the
app; not a tutorial, whose many viewers keep their own positions) the address
carries the position, ``#deal=3&event=12`` (:attr:`GameViewer.link`, counted as
``euchre-events show --deal 3 --after 12`` counts): opening such an address
opens there, and every step rewrites it (:class:`KeyLink`, ``ee-keys``).

Stepping redraws only what changed: the widget tree is built once and each
step assigns new values to the HTML widgets (ipywidgets sends only values that
differ); the chart moves its marker only when a deal ends or the line changes.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

import anywidget
import ipywidgets as W
import traitlets

from euchre_events.rules import cards as C
from euchre_events.ui import render as R
from euchre_events.events import ANNOTATION_MARKS, Event
from euchre_events.projections import Game
from euchre_events.projections.seat import knowledge_of_state
from euchre_events.ui.display import register_display
# the keys, links, deal jumps and event window: the one viewer model (issue 24)
from euchre_events.projections.viewer import KEY_ACTIONS, ViewerModel, rows_window, trick_at

__all__ = ["GameViewer", "Line", "Quiz", "game_index", "open_record_by_deal"]

register_display()   # used in a notebook: Card and TableState draw themselves there

MARKS = ("",) + ANNOTATION_MARKS
"""Quality marks a note may carry (as in chess annotation; ``""`` = none):
:data:`euchre_events.events.ANNOTATION_MARKS`."""

VIEWER_CSS = """
.ee-viewer{max-width:1280px}
.ee-viewer .ee-table{display:grid;background:#0b6b3a;color:#fff;padding:10px;border-radius:12px;
 grid-gap:8px;max-width:900px;box-sizing:border-box}
.ee-viewer .ee-table .widget-html,.ee-viewer .ee-table .widget-html-content{color:#fff;line-height:1.25}
.ee-viewer .ee-table .ee-box,.ee-viewer .ee-table .ee-seat{background:rgba(0,0,0,.2);border-radius:8px;
 padding:5px 7px;margin:0}
.ee-viewer .ee-seat .widget-html{margin:0}
.ee-viewer .ee-events{font-size:12px;max-height:460px;overflow:auto;background:#fafafa;border:1px solid #ddd;
 border-radius:6px;padding:3px}
/* the whole width of the side panel and no more: with the widgets' 2 px side margins it ran 2 px
   past the panel, which clipped its right border (issue 22, finding 8) */
.ee-viewer .ee-side>.ee-events{margin-left:0;margin-right:0}
.ee-viewer .ee-events .widget-html-content{line-height:1.3}
.ee-ev{padding:1px 4px;border-radius:3px;white-space:normal}
.ee-ev[data-pos]{cursor:pointer}
.ee-viewer .ee-hand .ee-legal{cursor:pointer}
.ee-ev[data-pos]:hover{background:#e3f2fd}
.ee-ev.ee-current:hover{background:#ffd54f}
.ee-ev.ee-current{background:#ffe082;font-weight:700}
.ee-ev.ee-ev-renege{color:#b00020}
.ee-ev .ee-num{display:inline-block;min-width:2.6em;color:#888}
.ee-note{display:block;margin-left:2.8em;color:#1b5e20;font-style:italic}
.ee-mark{font-weight:700;color:#b00020;margin-right:4px}
.ee-branch{display:block;margin-left:2.8em;color:#0d47a1}
.ee-title h3{margin:4px 0}
.ee-viewer .ee-status{min-height:1.5em;color:#7a1410;font-weight:600;padding:2px 4px}
.ee-viewer,.ee-viewer *{box-sizing:border-box}
.ee-side{overflow:hidden}
.ee-viewer .ee-hand .ee-card{margin-bottom:16px}
.ee-viewer.ee-analysis-on .ee-hand .ee-card.ee-legal{margin-bottom:26px}
""" + R.BADGE_CSS + """
.ee-lab{font-weight:700;margin-left:2px}
.ee-lab-blunder,.ee-lab-mistake{color:#b00020}
.ee-lab-dubious{color:#b26a00}
.ee-lab-interesting{color:#6a1b9a}
.ee-lab-great,.ee-lab-brilliant{color:#1b5e20}
.ee-ev .ee-label{font-weight:700;margin-left:4px}
.ee-viewer .ee-analysis{font-size:12px;line-height:1.3;background:#f6f8fa;border:1px solid #dde;border-radius:6px;
 padding:3px 6px;margin:4px 0}
.ee-viewer.ee-analysis-on .ee-events{max-height:300px}
.ee-viewer .ee-analysis .widget-html-content,.ee-viewer .ee-analysis div{line-height:1.35}
.ee-viewer .ee-info .ee-card{width:28px;height:40px;padding:2px 3px}
.ee-viewer .ee-info .ee-card .ee-r{font-size:13px}.ee-viewer .ee-info .ee-card .ee-s{font-size:16px}
/* 1024 x 768 (issue 22): the whole table in view under the controls at every step. The trick
   as a cross (West and East beside the three rows of North, the middle words and South), its
   cards and the last trick's a little smaller, the title and the players on one line, the
   room for a cost badge under the legal cards only (the other cards have none) */
.ee-viewer .ee-trick-grid{min-height:0;grid-template-areas:"left top right" "left mid right" "left bottom right"}
.ee-viewer .ee-trick-grid.ee-finished{grid-template-areas:"left top right" "left mid right" "left bottom right"
 "why why why"}
.ee-viewer .ee-trick-grid .ee-card,.ee-viewer .ee-last-trick .ee-card{width:30px;height:43px;padding:2px 3px}
.ee-viewer .ee-trick-grid .ee-card .ee-r,.ee-viewer .ee-last-trick .ee-card .ee-r{font-size:14px}
.ee-viewer .ee-trick-grid .ee-card .ee-s,.ee-viewer .ee-last-trick .ee-card .ee-s{font-size:18px}
.ee-viewer .ee-trick-reason{font-size:11px;line-height:1.2}
.ee-viewer .ee-table .ee-info .widget-html-content{line-height:1.2}
.ee-viewer .ee-info div{margin:0}
.ee-viewer .ee-title h3{display:inline-block;margin:4px 12px 4px 0}
.ee-viewer .ee-title h3+div{display:inline-block}
@media (max-width:1100px){
 .ee-viewer .ee-table .ee-seat{padding:5px 3px}
 .ee-viewer .ee-hand .ee-card{margin-left:1px;margin-right:1px}
}
.ee-viewer .ee-analysis table{border-collapse:collapse;margin:2px 0;width:100%}
.ee-viewer .ee-analysis tr,.ee-viewer .ee-analysis tbody tr:nth-child(odd){background:none}
.ee-viewer .ee-analysis td,.ee-viewer .ee-analysis th{padding:0 6px 0 0;text-align:left;line-height:1.35;border:0;
 font-size:12px;vertical-align:top}
.ee-viewer .ee-analysis th{font-weight:600;color:#555}
.ee-viewer .ee-analysis td.ee-num-cell{text-align:right;white-space:nowrap}
.ee-analysis .ee-played td{font-weight:700}
.ee-analysis-progress{color:#555;font-size:12px}
.ee-eval-svg{display:block;font:11px sans-serif}
.ee-eval-title{font-size:12px;fill:#333}.ee-eval-tick{fill:#555}.ee-eval-empty{fill:#777}
.ee-eval-grid{stroke:#eee}.ee-eval-zero{stroke:#999}
polyline.ee-eval-fu{fill:none;stroke:#1f77b4;stroke-width:2}polyline.ee-eval-sv{fill:none;stroke:#ff7f0e;stroke-width:1.5;stroke-dasharray:3 3}
circle.ee-eval-fu{fill:#1f77b4;cursor:pointer}circle.ee-eval-sv{fill:#ff7f0e;cursor:pointer}
rect.ee-eval-hit{fill:transparent;cursor:pointer}rect.ee-eval-hit:hover{fill:rgba(31,119,180,.08)}
.ee-eval-fu-key{fill:#1f77b4}.ee-eval-sv-key{fill:#ff7f0e}
.ee-eval-label{fill:#b00;font-weight:700}
.ee-refused{background:#fff4e5;border-left:5px solid #e65100;padding:4px 8px;border-radius:4px;margin:4px 0;
 max-width:900px}
"""


# The browser half of the keys and the position link.  Keys are taken when
# the focus is inside this viewer (a click on any of its buttons or its
# table), or, in a Voila app page with one viewer, from anywhere but a text
# field; never while typing in a field, a menu or the slider (their own
# arrow keys).  The position is written to the page's address (#deal=..&
# event=..) only in a Voila page: in JupyterLab the address is the lab's.
_KEYS_ESM = """
const KEYS = new Set(%s);
const inVoila = () => location.pathname.indexOf('/voila/') >= 0;
function own(t) {
  if (!t || !t.closest) return false;
  const tag = (t.tagName || '').toLowerCase();
  return tag === 'input' || tag === 'textarea' || tag === 'select' || t.isContentEditable
    || !!t.closest('.ee-slider');
}
// the served app's token (?token=...) carried into the game picker's links: the kernel
// never sees it (ui/voilaapp.py keeps it out of the kernels), so the page adds it
function withToken(href) {
  const token = new URLSearchParams(location.search).get('token');
  if (!token) return href;
  const u = new URL(href, location.href);
  if (!u.searchParams.has('token')) u.searchParams.set('token', token);
  return u.href;
}
function tokenLinks() {
  document.querySelectorAll('.ee-game-picker a[href]').forEach(a => {
    const h = withToken(a.href);
    if (a.href !== h) a.setAttribute('href', h);
  });
}
function render({ model, el }) {
  el.classList.add('ee-keys');
  if (inVoila()) { tokenLinks(); setTimeout(tokenLinks, 500); }
  const root = () => el.closest('.ee-viewer');
  const r0 = root();
  if (r0 && !r0.hasAttribute('tabindex')) r0.setAttribute('tabindex', '0');
  const onKey = (e) => {
    if (!KEYS.has(e.key) || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || own(e.target)) return;
    const r = root();
    if (!r) return;
    const inside = r.contains(e.target);
    const lone = inVoila() && document.querySelectorAll('.ee-viewer').length === 1
      && !(e.target && e.target.closest && e.target.closest('.ee-viewer'));
    if (!inside && !lone) return;
    e.preventDefault();
    model.send({ key: e.key });
  };
  document.addEventListener('keydown', onKey);
  // the event list is one HTML widget redrawn at every step: one listener on the
  // document finds the row clicked (data-pos: the event's index) inside this viewer
  const onClick = (e) => {
    // the review app's game picker opens a game in this page (the HTML widget gives its
    // links target=_blank, a new tab that a reviewer did not ask for)
    const pick = e.target && e.target.closest && e.target.closest('.ee-game-picker a[href]');
    if (pick && !e.defaultPrevented && inVoila()) { e.preventDefault(); location.assign(withToken(pick.href)); return; }
    const r = root();
    if (!r || !e.target || !e.target.closest) return;
    const row = e.target.closest('.ee-events [data-pos]');
    if (row && r.contains(row)) { model.send({ event: Number(row.dataset.pos) }); return; }
    // a point of the evaluation graph: taken at the press (onPress), not here
    if (e.target.closest('.ee-eval [data-decision]')) return;
    // a card of a hand on the table: play it in a variation (the kernel says why when it may not)
    const card = e.target.closest('.ee-table .ee-hand .ee-card[data-card]');
    const hand = card && card.closest('.ee-hand');
    const m = hand && Array.from(hand.classList).map(c => /^ee-hand-(\\d+)$/.exec(c)).find(x => x);
    if (!m || !r.contains(card) || card.dataset.card === 'hidden') return;
    model.send({ card: card.dataset.card, seat: Number(m[1]) });
  };
  document.addEventListener('click', onClick);
  // a point of the evaluation graph (an SVG redrawn as its values arrive),
  // or the band of its column: that decision, at the press.  A click whose press and
  // release straddled a redraw reached no point and was lost (3 clicks of 10)
  const onPress = (e) => {
    if (e.button !== 0 || !e.target || !e.target.closest) return;
    const r = root();
    const pt = e.target.closest('.ee-eval [data-decision]');
    if (r && pt && r.contains(pt)) { e.preventDefault(); model.send({ decision: Number(pt.dataset.decision) }); }
  };
  document.addEventListener('pointerdown', onPress);
  // drawn: ask for the graph again.  A value set between the notebook's run and the page's
  // connection (a deal's values arriving then) never reached a Voila page; the graph, sent
  // only when its values change, would have stayed without them until the next deal
  model.send({ ready: true });
  // the address holds one position: only the app page's one viewer reads and writes it
  // (a tutorial page holds many viewers, which would otherwise all follow the last one)
  const lone = () => document.querySelectorAll('.ee-viewer').length === 1;
  const write = () => {
    const h = model.get('link');
    if (inVoila() && lone() && h && location.hash !== '#' + h) history.replaceState(null, '', '#' + h);
  };
  model.on('change:link', write);
  const onHash = () => {
    if (inVoila() && lone() && location.hash.length > 1) model.send({ link: location.hash.slice(1) });
  };
  window.addEventListener('hashchange', onHash);
  // once the page's other widgets are drawn too, so that the count of viewers is known;
  // the address the page was opened with, unless a step already rewrote it (a click in
  // the first half second was undone by going back to the address the click had written)
  const opened = location.hash;
  const first = setTimeout(() => {
    if (opened.length > 1 && location.hash === opened) onHash(); else if (location.hash.length <= 1) write();
  }, 500);
  return () => {
    clearTimeout(first);
    document.removeEventListener('keydown', onKey);
    document.removeEventListener('click', onClick);
    document.removeEventListener('pointerdown', onPress);
    window.removeEventListener('hashchange', onHash);
    model.off('change:link', write);
  };
}
export default { render };
""" % ("[" + ", ".join(f"'{k}'" for k in KEY_ACTIONS) + "]")


class KeyLink(anywidget.AnyWidget):
    """The viewer's keyboard and position link in the browser (no drawing).

    Sends ``{"key": name}`` for a key of :data:`KEY_ACTIONS` and ``{"link":
    "deal=3&event=12"}`` for the page address's position (on load and when
    the address changes); writes its ``link`` trait to the address (Voila
    pages only).  :class:`GameViewer` owns one and answers its messages.
    """

    _esm = _KEYS_ESM
    link = traitlets.Unicode("").tag(sync=True)


@dataclass
class Line:
    """One line of play the viewer can show.

    ``kind``: ``"main"``, ``"record"`` (a variation from the record) or
    ``"user"`` (started in the viewer); ``game``: the folded line (the main
    line's events up to ``branch``, then the line's own); ``branch``: event
    index where it leaves the main line (0 for the main line); ``notes``: the
    line's own annotations ``[{"position", "text", "mark"}]``; ``error``: why
    a record variation cannot be replayed (then ``game`` is None).
    """

    name: str
    kind: str
    game: Optional[Game]
    branch: int = 0
    notes: list = field(default_factory=list)
    comment: str = ""
    error: str = ""
    index: Any = None


def game_index(game: Game) -> dict:
    """What the jumps and the chart need, from the game's one index
    (:meth:`euchre_events.projections.Game.index`) as a dict:
    ``{"deal_start", "trick_start", "deal_at", "score_after"}``."""
    ix = game.index()
    return {"deal_start": ix.deal_start, "trick_start": ix.trick_start,
            "deal_at": list(ix.deal_at), "score_after": list(ix.score_after)}


def open_record_by_deal(path: str) -> tuple:
    """``(record, refused)``: the first game of the record file ``path``, and
    ``[(deal number, reason in words), ...]`` for its deals that cannot have
    happened.  A record that reads whole has ``refused == []``.  An EGN game
    with an impossible deal is read deal by deal, as the audit reads it
    (:func:`euchre_events.formats.egn.audit_egn_by_deal`, docs/design.md "Three
    kinds of wrong"): each impossible deal is left out and the others are one
    game, so the viewer replays them and names the refused deal.  Raises
    :class:`~euchre_events.formats.RecordError` for any other unreadable
    record (another format, or an EGN file that is not a game)."""
    from euchre_events.formats import RecordError, detect_format, read_record_text, read_records
    try:
        return read_records(str(path))[0], []
    except RecordError:
        if detect_format(str(path)) != "egn":
            raise
    from euchre_events.formats.egn.read import read_game
    from euchre_events.formats.egn.schema import parse_json
    doc = parse_json(read_record_text(str(path)), str(path))
    if not isinstance(doc, dict) or not doc.get("deals"):
        raise RecordError(str(path), "not an EGN game")
    skipped: list = []
    rec = read_game(doc, str(path), skipped=skipped)
    return rec, [(int(n), getattr(e, "reason", "") or str(e)) for n, e in skipped]


def _card_symbols(text: str) -> str:
    """Card codes in a reason written as a learner reads cards: ``"QS"`` -> ``"Q♠"``."""
    import re
    return re.sub(r"\b([9TJQKA])([CDHS])\b", lambda m: C.pretty(m.group(0)), text)


def _resolve(game, archive):
    """(Game, archive, game_id, notes, variations) from what the caller gave,
    opened by :func:`euchre_events.archive.opening.open_game` (a Record or
    file is imported into ``archive`` first when one is given)."""
    from euchre_events.archive.opening import open_game
    opened = open_game(game, archive=archive)
    if opened.stored:  # the viewer reads notes and variations from the archive itself
        return opened.game, opened.archive, opened.game_id, [], []
    return opened.game, None, None, opened.notes, opened.variations


class GameViewer:
    """Replay viewer for one game in Jupyter or Voila.

    ``game``: a :class:`~euchre_events.projections.Game`, a
    :class:`~euchre_events.formats.Record`, a stored game id (or unique
    prefix; looked up in ``archive`` or the default archive file), or a
    record file path (its first game; imported into ``archive`` when one is
    given, so that notes persist; a record with an impossible deal: open
    it with :func:`open_record_by_deal` and give its ``refused`` deals).
    ``archive``: an
    :class:`~euchre_events.archive.Archive` where notes typed here are saved
    as annotation events; ``seat``: None (all hands) or the seat index whose
    view is shown; ``position``: where to start (default: the first deal
    just dealt, its hands and up-card on the table and the deal and trick
    menus filled; position 1 for a record with no deal); ``chart``: build
    the plotly score chart; ``refused``: ``[(deal, reason), ...]``, deals
    left out of the record because they cannot have happened: the deal menu
    lists them as refused, and the banner ``ee-refused`` says why in words;
    ``analysis``: False (off until the **analysis** switch is turned on),
    True or ``"on"`` (on: face up, then the seat view), ``"face-up"`` (on,
    face up only), or a :class:`~euchre_events.analysis.review.GameAnalysis`
    already made (see :meth:`set_analysis`).

    Raises ``TypeError`` for an unsupported ``game``, ``ValueError``/
    :class:`~euchre_events.formats.RecordError` for a record that cannot be
    read, :class:`~euchre_events.archive.ArchiveError` for an unknown id.
    """

    def __init__(self, game, archive=None, seat: Optional[int] = None, position: Optional[int] = None,
                 chart: bool = True, refused: Sequence = (), analysis=False):
        main, self.archive, self.game_id, notes, variations = _resolve(game, archive)
        # deals of the record that cannot have happened (open_record_by_deal): named, not replayed
        self.refused = {int(d): _card_symbols(str(why)) for d, why in refused}
        self.main = main
        self._mem_notes = notes
        self.findings = main.audit()
        self.lines: list[Line] = [Line("main line", "main", main, 0, index=game_index(main))]
        if self.archive is not None and self.game_id is not None:
            variations = self.archive.variations(self.game_id)
        for i, v in enumerate(variations):
            self.lines.append(self._record_line(i, v))
        self.line_no = 0
        self.seat = seat
        self._knowledge = None
        self._position = 1
        self._syncing = False
        self.status = ""
        # analysis at the table (issue 22): off, on (face up, then seat view), "face-up"
        # (face up only), or a GameAnalysis already made; computed in the background
        import threading
        self._lock = threading.RLock()
        self.analysis_job = None
        self._analysis_given = analysis if hasattr(analysis, "deals") else None
        mode = str(analysis).lower() if not hasattr(analysis, "deals") else "on"
        self._analysis_seat_view = mode not in ("face-up", "face_up", "faceup")
        self._analysis_on = mode not in ("false", "off", "none", "0", "")
        self._eval_key = None
        self._analysis_lock = ""
        self._build(chart)
        self._refresh_notes()
        if position is not None:
            self.goto(position)
        elif self.line.index["deal_start"]:
            # open on a table with cards on it, never on an empty one (issue 10)
            self.jump_deal(min(self.line.index["deal_start"]))
        else:
            self.goto(1)
        if self._analysis_on:
            self.analysis_b.value = True      # starts the analysis (_on_analysis_toggle)

    # ------------------------------------------------------------ analysis at the table (public)
    @property
    def analysis_on(self) -> bool:
        """The analysis switch (``ee-analysis-toggle``) is on."""
        return bool(self.analysis_b.value)

    @property
    def analysis_locked(self) -> str:
        """Why the analysis switch may not be turned on now (``""``: it may)."""
        return self._analysis_lock

    def lock_analysis(self, why: str = "answer the exercise first") -> None:
        """Turn the analysis off and take its switch, best line and mistake
        keys out of the page until :meth:`unlock_analysis` (a lesson, until
        the learner has answered: issue 22 "off in lessons until the learner
        has answered"): no analysis text is in the page meanwhile."""
        self._analysis_lock = str(why) or "locked"
        if self.analysis_b.value:
            self.analysis_b.value = False
        self.analysis_b.disabled = True
        self.jumps_w.children = tuple(c for c in self.jumps_w.children if c is not self.analysis_bar)

    def unlock_analysis(self) -> None:
        """Give the analysis switch back (off: the learner turns it on)."""
        self._analysis_lock = ""
        self.analysis_b.disabled = False
        if self.analysis_bar not in self.jumps_w.children:
            self.jumps_w.children = tuple(self.jumps_w.children) + (self.analysis_bar,)

    def set_analysis(self, on: bool) -> None:
        """Turn the analysis on or off.  On: the values shown are those there
        are now (the archive's cache, or a given analysis); what is missing is
        computed in the background (:class:`~euchre_events.ui.analysisview.BackgroundAnalysis`),
        the deal shown first, and shown as it arrives: a step never waits.
        Turning it on while :attr:`analysis_locked` raises ``ValueError`` (why)."""
        if on and self._analysis_lock:
            raise ValueError(f"the analysis is off here: {self._analysis_lock}")
        if bool(self.analysis_b.value) != bool(on):
            self.analysis_b.value = bool(on)     # the observer does the rest
            return
        self._apply_analysis_switch()

    def _on_analysis_toggle(self, change) -> None:
        self._apply_analysis_switch()

    def _apply_analysis_switch(self) -> None:
        on = bool(self.analysis_b.value)
        if on and self._analysis_lock:   # the page's switch is disabled; a kernel-side change too
            self.analysis_b.value = False
            return
        if on and self.analysis_job is None:
            from euchre_events.ui.analysisview import BackgroundAnalysis
            self.analysis_job = BackgroundAnalysis(self.main, self.archive, self.game_id,
                                                   on_update=self._analysis_arrived,
                                                   seat_view=self._analysis_seat_view,
                                                   given=self._analysis_given)
        disp = "block" if on else "none"
        self.analysis_w.layout.display = disp
        if on:
            self.widget.add_class("ee-analysis-on")
        else:
            self.widget.remove_class("ee-analysis-on")
        self.eval_box.layout.display = disp if self.chart is not None else "none"
        if on:
            self.analysis_job.focus(self._state.deal)
            self.analysis_job.start()
        self._eval_key = None
        self._redraw()

    def wait_analysis(self, timeout: Optional[float] = None) -> bool:
        """Wait for the background analysis to finish (scripts and tests;
        the viewer itself never waits).  True when it has."""
        return self.analysis_job.wait(timeout) if self.analysis_job is not None else True

    def _analysis_arrived(self, kind, deal) -> None:
        """A deal's values arrived (called from the analysis thread): redraw
        what shows them in the kernel's own thread (its event loop: a plotly
        figure changed from another thread never reached the browser), or
        here, under the viewer's lock, outside a kernel."""
        loop = None
        try:
            from IPython import get_ipython
            ip = get_ipython()
            loop = getattr(getattr(ip, "kernel", None), "io_loop", None)
        except ImportError:
            pass
        if loop is not None:
            loop.add_callback(self._analysis_redraw)
        else:
            self._analysis_redraw()

    def _analysis_redraw(self) -> None:
        with self._lock:
            self._redraw()

    def _decisions(self) -> dict:
        """``{event index: Decision}`` of the main line (empty when off)."""
        if not self.analysis_on or self.analysis_job is None:
            return {}
        return self.analysis_job.decisions()

    def decision_here(self):
        """``(face-up Decision, seat-view Decision)`` of the decision on turn at
        the position shown (the next event of the main line), either None when
        not known (yet); ``(None, None)`` off the main line or when off."""
        if not self.analysis_on or self.analysis_job is None or self.line.kind != "main":
            return None, None
        return self.analysis_job.decision_at(self._position)

    def mistakes(self) -> list:
        """Event indexes of the main line's decisions labelled ``??``, ``?``
        or ``?!`` (:data:`~euchre_events.ui.analysisview.MISTAKES`), in order."""
        from euchre_events.ui.analysisview import MISTAKES
        return sorted(p for p, d in self._decisions().items() if d.label in MISTAKES)

    def goto_mistake(self, forward: bool = True) -> bool:
        """Show the table at the next (previous) mistake, just before it is
        made (its options on the table).  False, with a status line, when
        there is none that way (or none known yet)."""
        here = self._position
        ms = self.mistakes()
        pick = [p for p in ms if p > here] if forward else [p for p in ms if p < here][-1:]
        if not pick:
            self._set_status("no " + ("later" if forward else "earlier") + " mistake"
                             + ("" if self.analysis_on else ": turn the analysis on"))
            return False
        if self.line.kind != "main":
            self.select_line(0)
        self.goto(pick[0])
        return True

    def best_line(self) -> int:
        """Play the face-up best continuation from the position shown to the
        end of the deal as a new variation (:func:`~euchre_events.ui.analysisview.best_line`);
        returns its line index.  Raises ``ValueError`` where there is nothing
        to decide or the record leaves a card that matters unstated."""
        from euchre_events.analysis.solver import Unknowable
        from euchre_events.ui.analysisview import best_line
        try:
            moves = best_line(self.game, self._position)
        except Unknowable as e:
            raise ValueError(f"no best line here: {e}") from None
        if not moves:
            raise ValueError("no best line here: nothing is left to decide in this deal")
        k = self._position
        i = self.new_variation(name=f"best line, face up (from event {k})")
        for ev in moves:
            self.play(ev)
        self.goto(k + 1)
        self._set_status(f"best line, face up: {len(moves)} moves to the end of the deal")
        return i

    def _best_line_clicked(self) -> None:
        try:
            self.best_line()
        except ValueError as e:
            self._set_status(str(e))

    def _badges(self, fu, sv) -> dict:
        """``{option text: (face-up cost, seat-view cost, label or "")}`` of the decision on turn."""
        from euchre_events.ui.analysistable import option_costs
        return option_costs(fu, sv)

    def _analysis_panel(self, fu, sv) -> str:
        """The analysis below the table: progress, par and bid, the options of
        the decision on turn (costs face up and from the seat's view, the label
        of the one played)."""
        from euchre_events.ui.analysistable import options_table, par_line
        job = self.analysis_job
        rows = [f'<div class="ee-analysis-progress">{R._esc(job.progress_text())}</div>']
        st = self._state
        n = self.n_seats
        da = job.deal(st.deal) if st.deal else None
        if da is not None and self.line.kind == "main":
            rows.append(par_line(da, self._bid_words(st.deal), n))
        dec = sv or fu
        if self.line.kind != "main":
            rows.append("<div>values are shown on the main line; <b>best line</b> plays the face-up best "
                        "continuation as a variation</div>")
        elif dec is None:
            if st.turn is not None and st.legal:
                rows.append("<div>this decision's values are not computed yet…</div>" if not job.complete() else
                            "<div>no values here: the record does not say what was decided (it stops "
                            "here); the decisions before it have theirs</div>")
        elif self.seat is not None and dec.seat != self.seat and dec.kind != "call":
            # a seat view shows what that seat could know: another seat's options of a play or
            # a discard are its hidden cards, not named here (the hand is face down above)
            rows.append(f'<div class="ee-analysis-hidden"><b>{R._esc(R.seat_label(dec.seat, n))}</b> to '
                        f'decide: its options are cards {R._esc(R.seat_label(self.seat, n))} cannot see '
                        f'(choose all hands to see them with their costs)</div>')
        else:
            rows.append(options_table(fu, sv, n, computing=sv is None and job.want_seat_view))
        return "".join(rows)

    def _bid_words(self, deal: int) -> str:
        """What was bid in ``deal`` (the main line's end of that deal)."""
        from euchre_events.ui.analysistable import bid_words
        return bid_words(self.main, deal)

    def _with_badges(self, hand_html: str, badges: dict) -> str:
        """The hand's legal cards with their cost badges (face up / seat view, and the label)."""
        from euchre_events.ui.analysistable import hand_with_badges
        return hand_with_badges(hand_html, badges, self.analysis_job.want_seat_view)

    # ------------------------------------------------------------ the evaluation graph
    def eval_series(self) -> tuple:
        """``(xs, face_up, seat_view, positions, labels)`` of the deal shown:
        for each analysed decision of it, its event number (from 1, as the
        event list), the value after it face up and from the seat's view (deal
        points from the first side's view in the two-party games, the deciding
        seat's own otherwise; None where not known), its event index and label."""
        from euchre_events.ui.analysistable import eval_points
        d = self._state.deal
        da = self.analysis_job.deal(d) if (self.analysis_job is not None and d) else None
        if da is None:
            return [], [], [], [], []
        return eval_points(da, self.main.final.variant, self.analysis_job.face_up.get(d))

    def eval_svg(self, series=None) -> str:
        """The evaluation graph of the deal shown as SVG (a string): one point
        per analysed decision at its event number (x) and value after it (y,
        deal points, as :meth:`eval_series`), face up solid with its EGN label
        above, seat view dotted.  Each point carries ``data-decision`` (its
        event index); a click on it goes there (the page's one listener,
        :class:`KeyLink`).  Empty values (not known yet) leave a gap; a deal
        not analysed yet draws its frame and says so.  The ring on the decision
        now on turn is not in it: :meth:`eval_mark_css`.

        Plain SVG in an HTML widget, redrawn whole when the deal or its values
        change: a plotly figure remade at each arrival stalled the page under
        load (its model set up in seconds, clicks lost meanwhile)."""
        xs, fu, sv, pos, labs = series if series is not None else self.eval_series()
        names = R.side_names(self.main.state_at(1))
        who = names[0] if self.main.final.variant.n_sides == 2 else "the deciding player"
        W_, H_, l, r, t, b = 860, 200, 46, 12, 36, 34   # t: the labels above the top points clear the title
        title = (f'<text x="{l}" y="15" class="ee-eval-title">value after each decision, deal points for '
                 f'{R._esc(who)} (click a point to go to that decision)</text>')
        if not xs:
            return (f'<svg class="ee-eval-svg" viewBox="0 0 {W_} {H_}" width="100%" role="img">{title}'
                    f'<text x="{W_ // 2}" y="{H_ // 2}" text-anchor="middle" class="ee-eval-empty">'
                    f'{"values of this deal not known yet" if self.analysis_on else ""}</text></svg>')
        vals = [v for v in fu + sv if v is not None] + [0.0]
        lo, hi = min(vals), max(vals)
        if hi - lo < 1:
            lo, hi = lo - 0.5, hi + 0.5
        x0, x1 = min(xs), max(xs)
        if x1 == x0:
            x0, x1 = x0 - 1, x1 + 1
        X = lambda x: l + (x - x0) * (W_ - l - r) / (x1 - x0)          # noqa: E731
        Y = lambda y: t + (hi - y) * (H_ - t - b) / (hi - lo)          # noqa: E731
        out = [f'<svg class="ee-eval-svg" viewBox="0 0 {W_} {H_}" width="100%" role="img">', title]
        # axes: zero line, whole-point ticks (at most about 6), event ticks at the points
        step = max(1, int((hi - lo) // 5) or 1)
        import math
        for k in range(math.ceil(lo), math.floor(hi) + 1, step):
            out.append(f'<line x1="{l}" x2="{W_ - r}" y1="{Y(k):.1f}" y2="{Y(k):.1f}" '
                       f'class="{"ee-eval-zero" if k == 0 else "ee-eval-grid"}"/>'
                       f'<text x="{l - 6}" y="{Y(k) + 4:.1f}" text-anchor="end" class="ee-eval-tick">{k}</text>')
        out.append(f'<text x="{(l + W_ - r) / 2:.0f}" y="{H_ - 4}" text-anchor="middle" class="ee-eval-tick">'
                   f'event · <tspan class="ee-eval-fu-key">— face up</tspan> · '
                   f'<tspan class="ee-eval-sv-key">··· seat view</tspan></text>')
        for k, x in enumerate(xs):
            out.append(f'<text x="{X(x):.1f}" y="{H_ - b + 14}" text-anchor="middle" class="ee-eval-tick">{x}</text>')
        # each decision's column is a click target (a point alone is a few pixels wide at 1024 px)
        gaps = [X(b) - X(a) for a, b in zip(xs, xs[1:])]
        for k, (x, p) in enumerate(zip(xs, pos)):
            left = min(gaps[k - 1] / 2 if k > 0 else 12, 12)
            right = min(gaps[k] / 2 if k < len(gaps) else 12, 12)
            out.append(f'<rect class="ee-eval-hit" data-decision="{p}" x="{X(x) - left:.1f}" y="{t}" '
                       f'width="{left + right:.1f}" height="{H_ - t - b}"/>')
        for cls, ys in (("ee-eval-sv", sv), ("ee-eval-fu", fu)):
            run = []
            for x, y in list(zip(xs, ys)) + [(None, None)]:
                if y is None:
                    if len(run) > 1:
                        out.append(f'<polyline class="{cls}" points="{" ".join(run)}"/>')
                    run = []
                else:
                    run.append(f"{X(x):.1f},{Y(y):.1f}")
        for x, f, v, p, lab in zip(xs, fu, sv, pos, labs):
            tip = (f"event {x}" + (f" {lab}" if lab else "")
                   + (f"; face up {f:+.2f}" if f is not None else "")
                   + (f"; seat view {v:+.2f}" if v is not None else ""))
            for cls, y in (("ee-eval-sv", v), ("ee-eval-fu", f)):
                if y is None:
                    continue
                out.append(f'<circle class="{cls} ee-eval-point" data-decision="{p}" data-value="{y:.3f}" '
                           f'cx="{X(x):.1f}" cy="{Y(y):.1f}" r="{6 if cls == "ee-eval-fu" else 4}">'
                           f'<title>{R._esc(tip)}</title></circle>')
            if lab and f is not None:
                out.append(f'<text x="{X(x):.1f}" y="{Y(f) - 9:.1f}" text-anchor="middle" class="ee-eval-label">'
                           f'{R._esc(lab)}</text>')
        out.append("</svg>")
        return "".join(out)

    def eval_mark_css(self) -> str:
        """The ring on the decision now on turn in the evaluation graph: a
        ``<style>`` rule (a string) giving its points (``circle`` with its
        ``data-decision``) a black stroke, scoped to this viewer's graph (a
        page may hold several viewers); ``""`` off the main line.  Kept out
        of :meth:`eval_svg` so that a step sends this rule (under 200 bytes),
        not the graph's SVG (about 13 kB for a deal of VWEC Finals)."""
        if self.line.kind != "main":
            return ""
        return (f'<style>.{self._eval_scope} circle.ee-eval-point[data-decision="{int(self._position)}"]'
                f'{{stroke:#000;stroke-width:2.5}}</style>')

    def _update_eval(self) -> None:
        if self.chart is None or not self.analysis_on:
            return
        d = self._state.deal
        # the graph is redrawn when the deal or its values change (a string of a few kB,
        # sent as one widget value, never a new widget); a step moves the ring only
        key = (d, d in self.analysis_job.face_up, d in self.analysis_job.seat_view)
        if key != self._eval_key:
            self._eval_key = key
            self.eval_box.value = self.eval_svg()
        mark = self.eval_mark_css()
        if self.eval_mark.value != mark:
            self.eval_mark.value = mark

    def goto_decision(self, position: int) -> None:
        """Show the main line's table just before the decision at event index
        ``position`` (as a click on its point of the evaluation graph does)."""
        if self.line.kind != "main":
            self.select_line(0)
        self.goto(int(position))

    # ------------------------------------------------------------ lines
    def _record_line(self, i: int, v: dict) -> Line:
        from euchre_events.ui.htmlexport import record_variation
        name, comment, k, g, error, notes = record_variation(self.main, i, v)
        if g is None:
            return Line(name, "record", None, k, comment=comment, error=error)
        notes = [dict(n, id=f"v{i}n{j}") for j, n in enumerate(notes)]
        return Line(name, "record", g, k, notes=notes, comment=comment, index=game_index(g))

    @property
    def line(self) -> Line:
        """The line shown now."""
        return self.lines[self.line_no]

    @property
    def game(self) -> Game:
        """The game of the line shown now."""
        return self.line.game

    # ------------------------------------------------------------ building
    def _build(self, chart: bool) -> None:
        n = len(self.main.players)
        self.n_seats = n
        self.style_w = W.HTML(f"<style>{R.CSS}{VIEWER_CSS}</style>")
        title = self.main.title or f"{self.main.variant} euchre"
        players = ", ".join(f"{R.seat_label(s, n)}: {p}" for s, p in enumerate(self.main.players)
                            if p and p not in (R.seat_label(s, n), R.seat_label(s, n, short=True)))
        self.title_w = W.HTML(f"<h3>{R._esc(title)}</h3><div>{R._esc(players)}</div>")
        self.title_w.add_class("ee-title")
        banner = "".join(
            f'<div class="ee-refused-deal" data-deal="{d}">Deal {d} of this record cannot have happened and is '
            f'left out: {R._esc(why)}.</div>' for d, why in sorted(self.refused.items()))
        if banner:
            left = len(self.main.deal_positions())
            banner += ("<div>" + ("The other deal replays" if left == 1 else f"The other {left} deals replay")
                       + "; the score runs without the deal left out.</div>")
        self.refused_w = W.HTML(banner, layout=W.Layout(display="block" if banner else "none"))
        self.refused_w.add_class("ee-refused")

        def button(desc, cls, tip):
            b = W.Button(description=desc, tooltip=tip, layout=W.Layout(width="auto"))
            b.add_class(cls)
            return b
        self.first_b = button("\u00ab first", "ee-first", "first event")
        self.prev_b = button("\u2039 prev", "ee-prev", "previous event")
        self.next_b = button("next \u203a", "ee-next", "next event")
        self.last_b = button("last \u00bb", "ee-last", "last event")
        self.first_b.on_click(lambda _: self.first())
        self.prev_b.on_click(lambda _: self.prev())
        self.next_b.on_click(lambda _: self.next())
        self.last_b.on_click(lambda _: self.last())
        self.slider = W.IntSlider(value=1, min=1, max=max(1, len(self.main.events)), description="event",
                                  continuous_update=False, layout=W.Layout(width="420px"))
        self.slider.add_class("ee-slider")
        self.slider.observe(self._on_slider, names="value")
        wide = {"description_width": "initial"}
        self.deal_dd = W.Dropdown(description="deal", layout=W.Layout(width="130px"), style=wide)
        self.deal_dd.add_class("ee-deal")
        self.deal_dd.observe(self._on_deal, names="value")
        self.trick_dd = W.Dropdown(description="trick", layout=W.Layout(width="130px"), style=wide)
        self.trick_dd.add_class("ee-trick")
        self.trick_dd.observe(self._on_trick, names="value")
        seat_opts = [("all hands", -1)] + [(f"{R.seat_label(s, n)} ({p})" if p else R.seat_label(s, n), s)
                                           for s, p in enumerate(self.main.players)]
        self.seat_dd = W.Dropdown(options=seat_opts, value=-1 if self.seat is None else self.seat,
                                  description="view", layout=W.Layout(width="240px"), style=wide)
        self.seat_dd.add_class("ee-seat-view")
        self.seat_dd.observe(self._on_seat, names="value")
        controls = W.HBox([self.first_b, self.prev_b, self.next_b, self.last_b, self.slider],
                          layout=W.Layout(flex_flow="row wrap"))
        jumps = W.HBox([self.deal_dd, self.trick_dd, self.seat_dd], layout=W.Layout(flex_flow="row wrap"))

        # the table: one HTML widget per part, so a step resends only what changed
        pos = R.POSITIONS.get(n, R.POSITIONS[4])
        self.head_w, self.hand_w, seat_boxes = [], [], []
        for s in range(n):
            h = W.HTML()
            h.add_class("ee-seat-head")
            hw = W.HTML()
            hw.add_class("ee-hand")
            hw.add_class(f"ee-hand-{s}")
            box = W.VBox([h, hw], layout=W.Layout(grid_area=pos[s] if s < len(pos) else "bottom"))
            box.add_class("ee-seat")
            box.add_class(f"ee-seat-{s}")
            self.head_w.append(h)
            self.hand_w.append(hw)
            seat_boxes.append(box)
        self.seat_boxes = seat_boxes

        def part(cls, area):
            w = W.HTML(layout=W.Layout(grid_area=area))
            w.add_class("ee-box")
            w.add_class(cls)
            return w
        self.trick_w = part("ee-trick-cards", "trick")
        self.last_w = part("ee-last-trick", "last")   # "ee-last" is the last button's class only
        self.info_w = part("ee-info", "info")
        self.score_w = part("ee-score", "score")
        self.act_w = part("ee-act", "act")
        self.table_w = W.GridBox(
            seat_boxes + [self.trick_w, self.last_w, self.info_w, self.score_w, self.act_w],
            layout=W.Layout(grid_template_areas=R.GRID_AREAS,
                            # even columns: a hand of five fits its seat at 1024 px (one row, not two)
                            grid_template_columns="minmax(150px,1fr) minmax(180px,1fr) minmax(150px,1fr)",
                            width="100%", max_width="900px"))
        self.table_w.add_class("ee-table")
        # the seat view's readout (voids shown, cards out, master cards): empty for all hands
        self.knowledge_w = W.HTML(layout=W.Layout(width="100%", max_width="900px", display="none"))
        self.knowledge_w.add_class("ee-knowledge")

        # the event list, notes, lines
        self.events_w = W.HTML(layout=W.Layout(width="100%"))
        self.events_w.add_class("ee-events")
        self.note_input = W.Text(placeholder="a note on the current event", layout=W.Layout(width="200px"))
        self.note_input.add_class("ee-note-input")
        self.note_mark = W.Dropdown(options=[("mark", "")] + [(m, m) for m in MARKS if m], value="",
                                    layout=W.Layout(width="70px"))
        self.note_mark.add_class("ee-note-mark")
        self.note_save = W.Button(description="save note", layout=W.Layout(width="auto"))
        self.note_save.add_class("ee-note-save")
        self.note_save.on_click(lambda _: self._save_clicked())
        self.note_select = W.Dropdown(options=[("new note", "")], value="", layout=W.Layout(width="200px"))
        self.note_select.add_class("ee-note-select")
        self.note_select.observe(self._on_note_select, names="value")
        self.note_remove = W.Button(description="remove note", layout=W.Layout(width="auto"))
        self.note_remove.add_class("ee-note-remove")
        self.note_remove.on_click(lambda _: self._remove_clicked())
        self.status_w = W.HTML()
        self.status_w.add_class("ee-status")
        # analysis: the switch, the panel below the table, best line, the mistake keys, the graph
        self.analysis_b = W.ToggleButton(value=False, description="analysis", tooltip="analysis on/off",
                                         layout=W.Layout(width="auto"))
        self.analysis_b.add_class("ee-analysis-toggle")
        self.analysis_b.observe(self._on_analysis_toggle, names="value")
        self.best_b = button("best line", "ee-best-line", "play the face-up best continuation as a variation")
        self.best_b.on_click(lambda _: self._best_line_clicked())
        self.mistake_prev_b = button("\u2039 mistake", "ee-mistake-prev", "previous mistake (M)")
        self.mistake_next_b = button("mistake \u203a", "ee-mistake-next", "next mistake (m)")
        self.mistake_prev_b.on_click(lambda _: self.press("M"))
        self.mistake_next_b.on_click(lambda _: self.press("m"))
        self.analysis_bar = W.HBox([self.analysis_b, self.best_b, self.mistake_prev_b, self.mistake_next_b],
                                   layout=W.Layout(flex_flow="row wrap"))
        self.analysis_w = W.HTML(layout=W.Layout(width="100%", display="none"))
        self.analysis_w.add_class("ee-analysis")
        self.eval_box = W.HTML(layout=W.Layout(width="100%", max_width="900px", display="none"))
        self.eval_box.add_class("ee-eval-box")
        self.eval_box.add_class("ee-eval")
        # the ring on the decision on turn: a rule of its own, in a widget that takes no room
        # (a <style> applies where it is not displayed), scoped to this graph by a class
        self._eval_scope = "ee-eval-of-" + self.eval_box.model_id
        self.eval_box.add_class(self._eval_scope)
        self.eval_mark = W.HTML(layout=W.Layout(display="none"))
        self.eval_mark.add_class("ee-eval-mark")
        self.line_dd = W.Dropdown(options=[(ln.name, i) for i, ln in enumerate(self.lines)], value=0,
                                  description="line", layout=W.Layout(width="360px"), style=wide)
        self.line_dd.add_class("ee-line")
        self.line_dd.observe(self._on_line, names="value")
        self.var_new = W.Button(description="new variation from here", layout=W.Layout(width="auto"))
        self.var_new.add_class("ee-var-new")
        self.var_new.on_click(lambda _: self.new_variation())
        self.move_dd = W.Dropdown(options=[], description="move", layout=W.Layout(width="280px"), style=wide)
        self.move_dd.add_class("ee-move")
        self.move_play = W.Button(description="play", layout=W.Layout(width="auto"))
        self.move_play.add_class("ee-move-play")
        self.move_play.on_click(lambda _: self._play_clicked())
        self.var_save = W.Button(description="save variation", layout=W.Layout(width="auto"))
        self.var_save.add_class("ee-var-save")
        self.var_save.on_click(lambda _: self._save_variation_clicked())
        self.move_box = W.HBox([self.move_dd, self.move_play, self.var_save], layout=W.Layout(display="none"))
        # fluid: the side panel sits beside the table when the page is wide enough
        # (about 1280 px), else it wraps below it; its rows wrap rather than clip
        wrap = W.Layout(flex_flow="row wrap", width="100%")
        self.move_box.layout.flex_flow = "row wrap"
        self.line_dd.layout.width = "auto"
        self.line_dd.layout.max_width = "100%"
        # the analysis panel under the event list, beside the table: the costs of the decision
        # on turn stay in sight while stepping (below the table they were off a laptop's
        # screen at 1024 px); the event list is shorter while the analysis is on
        side = W.VBox([self.events_w, self.analysis_w,
                       W.HBox([self.note_input, self.note_mark, self.note_save], layout=wrap),
                       W.HBox([self.note_select, self.note_remove], layout=wrap),
                       self.line_dd, self.var_new, self.move_box],
                      layout=W.Layout(flex="1 1 300px", min_width="270px", max_width="400px"))
        side.add_class("ee-side")

        self.chart = None
        jumps.children = tuple(jumps.children) + (self.analysis_bar,)
        self.jumps_w = jumps
        parts = [self.style_w, self.title_w, self.refused_w, controls, jumps,
                 W.HBox([W.VBox([self.table_w, self.status_w, self.eval_box, self.eval_mark, self.knowledge_w],
                                layout=W.Layout(flex="1 1 600px", min_width="min(560px, 100%)", max_width="900px")),
                         side],
                        layout=W.Layout(flex_flow="row wrap", width="100%", grid_gap="10px"))]
        if chart:
            self.chart = self._make_chart()
            parts.append(self.chart)

        # keys and the position link (a widget with nothing to draw)
        self.keys = KeyLink(layout=W.Layout(width="0px", height="0px", margin="0px"))
        self.keys.on_msg(self._on_keys_msg)
        parts.append(self.keys)
        self.widget = W.VBox(parts)
        self.widget.add_class("ee-root")
        self.widget.add_class("ee-viewer")
        self._chart_key = None

    def _chart_series(self):
        """(deal numbers, [scores of side i ...], side names, score now) of the current line."""
        idx = self.line.index
        state = self.line.game.state_at(1)
        names = R.side_names(state)
        # the start (deal 0) first, so a line with no deal scored yet (a variation
        # inside its first deal) still shows a point, never an empty chart
        pts = [(0, tuple(state.score))] + [(d, tuple(sc)) for d, sc in idx["score_after"] if d]
        xs = [d for d, _ in pts]
        ys = [[sc[i] for _, sc in pts] for i in range(len(names))]
        return xs, ys, names, list(state.score)

    def _chart_title(self) -> str:
        """The chart's title: the score as played; where the official score
        differs (renege penalties, rulings: rules.md 1.5) it says so and
        gives the official one."""
        g = self.main
        title = "score as played after each deal (click a point to jump there)"
        if list(g.official_score) != list(g.final_score):
            from euchre_events.ui.describe import score_words
            title = (f"score as played after each deal; official score "
                     f"{score_words(g.official_score, g.variant, g.players)} (penalties applied, see the audit)")
        return title

    def _make_chart(self):
        import plotly.graph_objects as go
        xs, ys, names, now = self._chart_series()
        # the traces are given at creation, so that they travel with the widget's first state
        traces = [go.Scatter(x=xs, y=y, mode="lines+markers", name=name) for y, name in zip(ys, names)]
        traces.append(go.Scatter(x=[0] * len(names), y=now, mode="markers", name="now",
                                 marker=dict(size=16, symbol="circle-open", line=dict(width=3),
                                             color="#d62728")))
        # the layout is given when the widget is made: an update_layout after construction
        # reaches the Python side only, and the browser drew the chart untitled
        # (shared/notes-jupyter.md); deals are whole numbers, so are the ticks
        # whole points: ticks a whole number apart (plotly put 0.5 steps, read "1, 1, 0, -1, -1")
        top = max([abs(v) for y in ys for v in y] + [1])
        layout = go.Layout(height=260, autosize=True, margin=dict(l=50, r=10, t=36, b=40),
                           title=dict(text=self._chart_title(), font=dict(size=13)),
                           xaxis=dict(title=dict(text="deal"), tickmode="linear", tick0=0, dtick=1,
                                      tickformat="d", rangemode="tozero"),
                           yaxis=dict(title=dict(text="points as played"), tickformat="d", tickmode="linear",
                                      tick0=0, dtick=max(1, -(-top // 6)), rangemode="tozero"),
                           clickmode="event", legend=dict(orientation="h", y=-0.3))
        fig = go.FigureWidget(data=traces, layout=layout)
        fig.add_class("ee-chart")
        for tr in fig.data:
            tr.on_click(self._on_chart_click)
        return fig

    def _fill_chart(self, fig) -> None:
        """Show the current line's scores (same traces, new values)."""
        xs, ys, names, now = self._chart_series()
        with fig.batch_update():
            for tr, y in zip(fig.data, ys):
                tr.x, tr.y = xs, y
        self._chart_key = None

    # ------------------------------------------------------------ control callbacks
    def _on_slider(self, change) -> None:
        if not self._syncing:
            self.goto(change["new"])

    def _on_deal(self, change) -> None:
        if self._syncing or change["new"] is None:
            return
        if change["new"] < 0:    # a refused deal: say why, stay where we are
            d = -change["new"]
            self._set_status(f"deal {d} is refused: {self.refused.get(d, '')}")
            self._sync_controls()
            return
        self.jump_deal(change["new"])

    def _on_trick(self, change) -> None:
        if not self._syncing and change["new"] is not None:
            self.jump_trick(change["new"])

    def _on_seat(self, change) -> None:
        if not self._syncing:
            self.set_seat(None if change["new"] == -1 else change["new"])

    def _on_line(self, change) -> None:
        if not self._syncing:
            self.select_line(change["new"])

    def _on_chart_click(self, trace, points, selector=None) -> None:
        """Plotly click: jump to the end of the clicked deal (deal 0: the start)."""
        if not points.xs:
            return
        deal = int(round(points.xs[0]))
        self.jump_deal_end(deal)

    def _on_note_select(self, change) -> None:
        if self._syncing:
            return
        nid = change["new"]
        note = next((a for a in self.notes if a["id"] == nid), None)
        self._syncing = True
        try:
            self.note_input.value = note["text"] if note else ""
            mark = (note.get("mark") or "") if note else ""
            self.note_mark.value = mark if mark in MARKS else ""
        finally:
            self._syncing = False

    def _save_clicked(self) -> None:
        text = self.note_input.value.strip()
        mark = self.note_mark.value or None
        try:
            if self.note_select.value:
                self.edit_note(self.note_select.value, text, mark)
                self._set_status("note changed")
            else:
                if not text:
                    self._set_status("type a note first")
                    return
                self.add_note(text, mark)
                self._set_status("note saved" + (" in the archive" if self.archive is not None else
                                                 " (no archive: kept in this session only)"))
        except Exception as e:  # shown to the person, not raised into the front end
            self._set_status(f"could not save the note: {e}")
            return
        self._syncing = True
        try:
            self.note_input.value = ""
            self.note_mark.value = ""
        finally:
            self._syncing = False

    def _remove_clicked(self) -> None:
        nid = self.note_select.value
        if not nid:
            self._set_status("choose a note to remove")
            return
        try:
            self.remove_note(nid)
            self._set_status("note removed")
        except Exception as e:
            self._set_status(f"could not remove the note: {e}")

    def _play_clicked(self) -> None:
        if self.move_dd.value is None:
            return
        try:
            self.play(self.move_dd.value)
        except Exception as e:
            self._set_status(f"could not play: {e}")

    def _set_status(self, text: str) -> None:
        self.status = text
        self.status_w.value = f"<span>{R._esc(text)}</span>"

    # ------------------------------------------------------------ stepping (public)
    @property
    def position(self) -> int:
        """Number of events applied in the current line (``1..len(events)``)."""
        return self._position

    @property
    def state(self):
        """The :class:`~euchre_events.projections.TableState` shown now."""
        return self._state

    @property
    def n_events(self) -> int:
        """Number of events in the current line."""
        return len(self.game.events)

    def goto(self, k: int) -> None:
        """Show the table after ``k`` events (clamped to ``1..n_events``)."""
        k = max(1, min(int(k), self.n_events))
        self._position = k
        self._state = self.game.state_at(k)
        self._redraw()

    def next(self) -> None:
        """One event forward (stays at the last event)."""
        self.goto(self._position + 1)

    def prev(self) -> None:
        """One event back (stays at position 1)."""
        self.goto(self._position - 1)

    def first(self) -> None:
        """Back to position 1 (just after GameStarted)."""
        self.goto(1)

    def last(self) -> None:
        """To the end of the line."""
        self.goto(self.n_events)

    def goto_event(self, i: int) -> None:
        """Make event index ``i`` (from 0, the ``data-pos`` of the event
        list's row) the current event: the table after events ``0..i``, as a
        click on that row does.  Clamped to the line's events."""
        self.goto(int(i) + 1)

    def jump_deal(self, n: int) -> None:
        """To the start of deal ``n``: just after its cards are dealt (rules.md
        2.1), so the hands and up-card show.  Raises ``KeyError`` for a deal
        the line does not have."""
        self.goto(self.model.deal_jump(n))

    def jump_deal_end(self, n: int) -> None:
        """To the last event of deal ``n`` (deal 0: position 1)."""
        self.goto(self.model.deal_end_jump(n))

    def jump_trick(self, t: int) -> None:
        """To just before the first card of trick ``t`` of the deal shown (its
        leader to lead).  Raises ``IndexError`` if that trick was not played."""
        deal = self._state.deal
        starts = self.line.index["trick_start"].get(deal, [])
        if not 1 <= int(t) <= len(starts):
            raise IndexError(f"deal {deal} has {len(starts)} trick(s) recorded, not trick {t}")
        self.goto(starts[int(t) - 1])

    def press(self, key: str) -> bool:
        """Do what a key does in the browser (:data:`KEY_ACTIONS`): Left/Right
        one event back/forward, Home/End the first/last event, PageUp or Up
        the start of the deal shown (or, when already there, of the deal
        before), PageDown or Down the start of the next deal (the last event
        after the last deal).  ``key``: a ``KeyboardEvent.key`` name.
        Returns False for a key it does not know (and does nothing)."""
        action = KEY_ACTIONS.get(key)
        if action is None:
            return False
        if action in ("mistake_next", "mistake_prev"):
            self.goto_mistake(action == "mistake_next")
            return True
        self.goto(self.model.key_target(action, self._position))
        return True

    @property
    def link(self) -> str:
        """The position as a link fragment: ``"deal=3&event=12"`` is the table
        after the first 12 events of deal 3, counted from its DealStarted as
        ``euchre-events show --deal 3 --after 12`` counts them; before the
        first deal, ``"event=K"`` (the table after K events of the game).
        In a variation, ``&line=j`` (its number in the line menu) follows.
        The app writes it to the page address (``#deal=3&event=12``); the
        HTML export and ``show`` count the same (:class:`ViewerModel`)."""
        return self.model.link(self._position)

    @property
    def counter(self) -> str:
        """The position in words, with the link's numbers: ``"deal 1 · event
        12 / 27"`` (:meth:`ViewerModel.counter`)."""
        return self.model.counter(self._position)

    @property
    def model(self) -> ViewerModel:
        """The navigation model of the line shown (kept while its game is)."""
        ln = self.line
        m = getattr(ln, "_model", None)
        if m is None or m.game is not ln.game or m.line != self.line_no:
            m = ln._model = ViewerModel(ln.game, self.line_no)
        return m

    def goto_link(self, link: str) -> bool:
        """Show the position a link names (:attr:`link`; a leading ``#`` is
        allowed): ``deal=N&event=K`` (K from 1, clamped to the deal's
        events), ``deal=N`` (the start of deal N, as :meth:`jump_deal`) or
        ``event=K`` (after K events of the game, clamped).  Returns False
        and leaves the position for a link that names no position of this
        line (an unknown deal, not a number); never raises.  ``&line=j``
        selects line ``j`` first (the main line without it)."""
        q = ViewerModel.parse_link(link)
        if q is None:
            return False
        j = q["line"] or 0
        if not 0 <= j < len(self.lines) or self.lines[j].game is None:
            return False
        k = ViewerModel(self.lines[j].game, j).resolve(q["deal"], q["event"])
        if k is None:
            return False
        if j != self.line_no:
            self.select_line(j)
        self.goto(k)
        return True

    def _on_keys_msg(self, _widget, content, _buffers) -> None:
        if not isinstance(content, dict):
            return
        if "key" in content:
            self.press(str(content["key"]))
        elif "event" in content:
            try:
                self.goto_event(int(content["event"]))
            except (TypeError, ValueError):
                pass
        elif "decision" in content:
            try:
                self.goto_decision(int(content["decision"]))
            except (TypeError, ValueError):
                pass
        elif "card" in content:
            try:
                self.play_card(int(content.get("seat")), str(content["card"]))
            except (TypeError, ValueError):
                pass
        elif content.get("ready"):
            with self._lock:
                for w in (self.eval_box, self.eval_mark):
                    if w.value:
                        w.send_state("value")
        elif "link" in content and not self.goto_link(str(content["link"])):
            self._set_status(f"the address names no position of this game: #{content['link']}")

    def set_seat(self, seat: Optional[int]) -> None:
        """Show every hand (None) or what ``seat`` could know (others face down)."""
        if seat is not None and not 0 <= int(seat) < self.n_seats:
            raise ValueError(f"seat {seat} does not exist (0..{self.n_seats - 1})")
        self.seat = None if seat is None else int(seat)
        self._redraw()

    # ------------------------------------------------------------ what is shown (public)
    @property
    def parts(self) -> dict:
        """The table parts as drawn now (see :func:`euchre_events.render.table_parts`)."""
        return dict(self._parts)

    @property
    def knowledge(self):
        """What the seat of the view could know now (a
        :class:`~euchre_events.projections.seat.SeatKnowledge`), or None in
        the all-hands view.  Every seat view draws from it."""
        return self._knowledge

    @property
    def knowledge_html(self) -> str:
        """The seat view's readout as shown (empty for all hands)."""
        return self.knowledge_w.value

    @property
    def table_html(self) -> str:
        """The whole table as one HTML drawing, for the current seat view."""
        return R.table_from_parts(self._parts, self._state, include_css=True)

    @property
    def events_html(self) -> str:
        """The event list as shown (the current event carries ``ee-current``)."""
        return self.events_w.value

    @property
    def current_event(self) -> Event:
        """The event just applied (event ``position - 1``)."""
        return self.game.events[self._position - 1]

    # ------------------------------------------------------------ drawing
    def _redraw(self) -> None:
        with self._lock:
            self._redraw_locked()

    def _redraw_locked(self) -> None:
        k = self._position
        g = self.game
        nxt = g.events[k] if k < len(g.events) else None
        findings = self.findings if self.line.kind == "main" else self._line_findings()
        self._knowledge = None
        if self.seat is not None:
            self._knowledge = knowledge_of_state(self._state, self.seat, events=g.events,
                                                 variant=g.final.variant)
        parts = R.table_parts(self._state, self.seat, findings, nxt, knowledge=self._knowledge)
        self._parts = parts
        analysis = self.analysis_on and self.analysis_job is not None
        badges = {}
        if analysis:
            fu, sv = self.decision_here()
            badges = self._badges(fu, sv)
            self.analysis_job.focus(self._state.deal)
        readout = parts.get("knowledge", "")
        if self.knowledge_w.value != readout:
            self.knowledge_w.value = readout
        display = "block" if readout else "none"
        if self.knowledge_w.layout.display != display:
            self.knowledge_w.layout.display = display
        for s in range(self.n_seats):
            self.head_w[s].value = parts[f"head-{s}"]
            hand = parts[f"hand-{s}"]
            if badges and s == self._state.turn:
                hand = self._with_badges(hand, badges)
            self.hand_w[s].value = hand
            box = self.seat_boxes[s]
            if self._state.turn == s:
                box.add_class("ee-turn")
            else:
                box.remove_class("ee-turn")
        self.trick_w.value = parts["trick"]
        self.last_w.value = parts["last"]
        self.info_w.value = parts["info"]
        self.score_w.value = parts["score"]
        self.act_w.value = parts["act"]
        self.events_w.value = self._events_list()
        # the table and the event list go first (each value is a message of its own, drawn
        # in the order sent); the analysis panel, the controls and the graph follow
        if analysis:
            panel = self._analysis_panel(fu, sv)
            if self.analysis_w.value != panel:
                self.analysis_w.value = panel
        self.keys.link = self.link
        self._sync_controls()
        self._update_chart()
        self._update_eval()
        self._update_moves()

    def _line_findings(self):
        ln = self.line
        if getattr(ln, "_findings", None) is None:
            ln._findings = ln.game.audit() if ln.game is not None else []
        return ln._findings

    def _sync_controls(self) -> None:
        self._syncing = True
        try:
            if self.slider.max != self.n_events:
                if self.slider.value > self.n_events:
                    self.slider.value = self.n_events
                self.slider.max = self.n_events
            self.slider.value = self._position
            deals = sorted(self.line.index["deal_start"])
            opts = sorted([(f"deal {d}", d) for d in deals]
                          + [(f"deal {d} (refused)", -d) for d in self.refused], key=lambda o: abs(o[1]))
            if list(self.deal_dd.options) != opts:
                self.deal_dd.options = opts
            d = self._state.deal
            self.deal_dd.value = d if d in deals else None
            starts = self.line.index["trick_start"].get(d, [])
            topts = [(f"trick {i + 1}", i + 1) for i in range(len(starts))]
            if list(self.trick_dd.options) != topts:
                self.trick_dd.options = topts
            self.trick_dd.value = trick_at(self._state, starts)
            sv = -1 if self.seat is None else self.seat
            if self.seat_dd.value != sv:
                self.seat_dd.value = sv
            if self.line_dd.value != self.line_no:
                self.line_dd.value = self.line_no
            self._refresh_note_select()
        finally:
            self._syncing = False

    def _events_list(self, before: int = 12, after: int = 14) -> str:
        g = self.game
        cur = self._position - 1
        lo, hi = rows_window(cur, len(g.events), before, after, seat_view=self.seat is not None)
        notes = self._notes_by_position()
        renege_pos = {r.position for r in (g.final.reneges if self.line.kind != "main" else self.main.final.reneges)
                      if getattr(r, "corrected_at", None) is None}
        if self._knowledge is not None:   # a seat knows of a renege once the table could prove it
            renege_pos &= set(self._knowledge.reneges_known)
        texts = self._event_texts(g)
        at = self._position
        from euchre_events.ui.analysisview import LABEL_WORDS
        labels = ({p: d.label for p, d in self._decisions().items() if d.label}
                  if self.line.kind == "main" else {})
        branches = {}
        if self.line.kind == "main":
            for i, ln in enumerate(self.lines[1:], 1):
                branches.setdefault(ln.branch, []).append(ln.name)
        rows = []
        if lo > 0:
            rows.append(f'<div class="ee-ev ee-more">\u2026 {lo} earlier event(s)</div>')
        for i in range(lo, hi):
            cls = ["ee-ev"]
            if i == cur:
                cls.append("ee-current")
            if i in renege_pos:
                cls.append("ee-ev-renege")
            start, seen, full = texts[i]
            text = full if start is not None and max(at, i + 1) >= start else seen
            if i in renege_pos:
                text += " (renege)"
            if self.line.kind != "main" and i == self.line.branch:
                text = "\u21b3 " + text
            for name in branches.get(i, []):
                rows.append(f'<div class="ee-branch">\u21aa {R._esc(name)} branches here</div>')
            sub = "".join(
                f'<span class="ee-note" data-note="{R._esc(a["id"])}">'
                + (f'<span class="ee-mark">{R._esc(a["mark"])}</span>' if a.get("mark") else "")
                + f'{R._esc(a["text"])}</span>' for a in notes.get(i, []))
            # numbered from 1, as the slider counts: "event 17" is the 17th event, data-pos 16
            lab = labels.get(i)
            labh = (f'<span class="ee-label ee-lab-{LABEL_WORDS[lab]}" data-label="{R._esc(lab)}" '
                    f'title="analysis: {LABEL_WORDS[lab]}">{R._esc(lab)}</span>' if lab else "")
            rows.append(f'<div class="{" ".join(cls)}" data-pos="{i}" title="go to event {i + 1}">'
                        f'<span class="ee-num">{i + 1}</span>'
                        f'{R._esc(text)}{labh}{sub}</div>')
        if hi < len(g.events):
            rows.append(f'<div class="ee-ev ee-more">\u2026 {len(g.events) - hi} later event(s)</div>')
        return "".join(rows)

    def _event_texts(self, g: Game) -> list:
        """``(from_position, as_seen, in_full)`` of every event of ``g`` for
        the seat of the view (cached per folded line and seat; see
        :func:`euchre_events.ui.describe.seat_event_texts`)."""
        cache = getattr(self, "_texts_cache", None)
        if cache is None or cache[0] is not g or cache[1] != self.seat:
            from euchre_events.ui.describe import seat_event_texts
            cache = (g, self.seat, seat_event_texts(g.events, g.players, self.seat))
            self._texts_cache = cache
        return cache[2]

    def _update_chart(self) -> None:
        if self.chart is None:
            return
        st = self._state
        # the marker sits on the last deal scored by now (deal 0: the start)
        x = st.deal_results[-1][0] if st.deal_results else 0
        key = (self.line_no, x, tuple(st.score))
        if key == self._chart_key:
            return
        self._chart_key = key
        marker = self.chart.data[-1]
        with self.chart.batch_update():
            marker.x = [x] * len(st.score)
            marker.y = list(st.score)

    @property
    def chart_marker(self) -> tuple:
        """``(deal, score per side)`` where the chart's marker is now."""
        if self.chart is None:
            return ()
        m = self.chart.data[-1]
        return (m.x[0] if m.x else None, tuple(m.y))

    # ------------------------------------------------------------ notes (public)
    @property
    def notes(self) -> list:
        """Notes of the current line ``[{"id", "position", "text", "mark"}]``."""
        if self.line.kind == "main":
            return list(self._main_notes)
        return list(self.line.notes)

    def _refresh_notes(self) -> None:
        if self.archive is not None and self.game_id is not None:
            # the version first: a note saved in between makes our next write a
            # conflict (reload, try again), never a silent overwrite
            self._notes_version = self.archive.annotations_version(self.game_id)
            self._main_notes = self.archive.annotations(self.game_id)
        else:
            self._main_notes = sorted(self._mem_notes, key=lambda a: (a["position"], a["id"]))

    def _notes_by_position(self) -> dict:
        out: dict = {}
        for a in self.notes:
            out.setdefault(a["position"], []).append(a)
        return out

    def notes_at(self, position: Optional[int] = None) -> list:
        """Notes attached to event index ``position`` (default: the current event)."""
        p = self._position - 1 if position is None else position
        return [a for a in self.notes if a["position"] == p]

    def _refresh_note_select(self) -> None:
        here = self.notes_at()
        opts = [("new note", "")] + [((a.get("mark") or "") + " " + a["text"][:30], a["id"]) for a in here]
        if list(self.note_select.options) != opts:
            keep = self.note_select.value if self.note_select.value in [o[1] for o in opts] else ""
            self.note_select.options = opts
            self.note_select.value = keep

    def _check_main(self) -> None:
        if self.line.kind != "main":
            raise ValueError("notes are kept on the main line; go back to it to annotate")

    def add_note(self, text: str, mark: Optional[str] = None, position: Optional[int] = None) -> str:
        """Attach a note (``mark``: one of ``! ? !! ?? !? ?!`` or None) to event
        index ``position`` (default: the current event).  With an archive it is
        appended to the game's annotation stream (an ``AnnotationAdded``
        event) and survives a restart.  Returns the note id.  Raises
        ``ValueError`` for an empty text, an unknown mark or outside the main line."""
        self._check_main()
        if not text or not text.strip():
            raise ValueError("a note needs some text")
        if mark not in (None, "") and mark not in MARKS:
            raise ValueError(f"unknown mark {mark!r}; use one of {' '.join(m for m in MARKS if m)}")
        mark = mark or None
        p = self._position - 1 if position is None else int(position)
        if self.archive is not None and self.game_id is not None:
            nid = self._write_notes(lambda v: self.archive.add_annotation(
                self.game_id, p, text.strip(), mark, author="viewer", version=v))
        else:
            nid = f"m{uuid.uuid4().hex[:10]}"
            self._mem_notes.append({"id": nid, "position": p, "text": text.strip(), "mark": mark,
                                    "author": "viewer"})
        self._refresh_notes()
        self._redraw_notes()
        return nid

    def edit_note(self, note_id: str, text: str, mark: Optional[str] = None) -> None:
        """Change a note's text and mark (``AnnotationEdited`` in the archive)."""
        self._check_main()
        if mark not in (None, "") and mark not in MARKS:
            raise ValueError(f"unknown mark {mark!r}")
        mark = mark or None
        if self.archive is not None and self.game_id is not None:
            self._write_notes(lambda v: self.archive.edit_annotation(self.game_id, note_id, text, mark, version=v))
        else:
            for a in self._mem_notes:
                if a["id"] == note_id:
                    a.update(text=text, mark=mark)
                    break
            else:
                raise KeyError(f"no note {note_id!r}")
        self._refresh_notes()
        self._redraw_notes()

    def remove_note(self, note_id: str) -> None:
        """Remove a note (``AnnotationRemoved`` in the archive)."""
        self._check_main()
        if self.archive is not None and self.game_id is not None:
            self._write_notes(lambda v: self.archive.remove_annotation(self.game_id, note_id, version=v))
        else:
            before = len(self._mem_notes)
            self._mem_notes[:] = [a for a in self._mem_notes if a["id"] != note_id]
            if len(self._mem_notes) == before:
                raise KeyError(f"no note {note_id!r}")
        self._refresh_notes()
        self._redraw_notes()

    def _write_notes(self, write):
        """Run an archive write of the notes with the annotation version this
        viewer last read; when another writer changed them first
        (:class:`~euchre_events.archive.WriteConflict`), show their notes
        (reload) and re-raise: the status line says so, and saving again works."""
        from euchre_events.archive import WriteConflict
        try:
            return write(getattr(self, "_notes_version", None))
        except WriteConflict:
            self._refresh_notes()
            self._redraw_notes()
            raise

    def _redraw_notes(self) -> None:
        self.events_w.value = self._events_list()
        self._syncing = True
        try:
            self._refresh_note_select()
        finally:
            self._syncing = False

    # ------------------------------------------------------------ lines (public)
    @property
    def line_names(self) -> list:
        """Names of the lines: the main line, the record's variations, the user's."""
        return [ln.name for ln in self.lines]

    def select_line(self, i: int) -> None:
        """Step into line ``i`` (0 = back out to the main line).

        Entering a variation shows its first own event; backing out shows the
        main line at the point where the variation left it.  Raises
        ``ValueError`` for a variation that cannot be replayed."""
        i = int(i)
        if not 0 <= i < len(self.lines):
            raise IndexError(f"no line {i}")
        target = self.lines[i]
        if target.game is None:
            self._syncing = True
            try:
                self.line_dd.value = self.line_no
            finally:
                self._syncing = False
            self._set_status(f"{target.name}: {target.error}")
            raise ValueError(f"{target.name} cannot be replayed: {target.error}")
        old = self.line
        self.line_no = i
        if target.kind == "main":
            k = old.branch if old.kind != "main" else self._position
        else:
            k = min(target.branch + 1, len(target.game.events))
        if self.chart is not None:
            self._fill_chart(self.chart)
        self.goto(k)

    def new_variation(self, name: Optional[str] = None) -> int:
        """Start a new line from the position shown; returns its index.  Moves
        are then added with :meth:`play` (legal moves only)."""
        k = self._position
        base = list(self.game.events[:k])
        g = Game(base)
        # from inside another variation the new one keeps that line's moves: it
        # leaves the main line where that one did (as it is saved: after the
        # main line's first `branch` events)
        branch = k if self.line.kind == "main" else min(self.line.branch, k)
        nm = name or f"my variation {sum(1 for ln in self.lines if ln.kind == 'user') + 1} (from event {k})"
        self.lines.append(Line(nm, "user", g, branch, index=game_index(g)))
        self._syncing = True
        try:
            self.line_dd.options = [(ln.name, j) for j, ln in enumerate(self.lines)]
        finally:
            self._syncing = False
        self.line_no = len(self.lines) - 1
        if self.chart is not None:
            self._fill_chart(self.chart)
        self.goto(k)
        return self.line_no

    def legal_moves(self) -> list:
        """``[(words, event), ...]`` the seat on turn may play now in a user
        variation (from the engine's legal actions; the next deal cannot be
        invented, so a variation ends with its deal)."""
        st = self._state
        out = []
        for ev in st.legal:
            if ev.kind == "DealStarted":
                continue
            out.append((R._describe(ev, st.players, st.dealer), ev))
        return out

    def play(self, move) -> None:
        """Add a move to the user variation shown: ``move`` is an index into
        :meth:`legal_moves` or one of its events.  Moves after the position
        shown are replaced.  Raises ``ValueError`` for a move that is not
        legal now or outside a user variation."""
        if self.line.kind != "user":
            raise ValueError("start a variation first (new_variation)")
        moves = self.legal_moves()
        if isinstance(move, int):
            if not 0 <= move < len(moves):
                raise ValueError(f"no legal move {move}")
            ev = moves[move][1]
        else:
            ev = move
            if ev not in [m[1] for m in moves]:
                raise ValueError(f"{R._describe(ev, self._state.players, self._state.dealer)} is not legal now "
                                 f"({self._state.legal_reason})")
        ln = self.line
        evs = list(ln.game.events[:self._position]) + [ev]
        ln.game = Game(evs)
        ln.index = game_index(ln.game)
        ln._findings = None
        self.goto(len(evs))

    def play_card(self, seat: int, card: str) -> bool:
        """Play ``card`` (a card code such as ``"JD"``) from ``seat``'s hand at
        the position shown, as a click on that card in the browser does: in a
        variation started here it extends it (the moves after the position
        shown are replaced), anywhere else it starts a new variation from here
        (:meth:`new_variation`) holding that card.  Save it with
        :meth:`save_variation` (the **save variation** button): a
        ``VariationAdded`` event.  Returns True when played; False, with
        why in :attr:`status`, for a card that may not be played now (not
        that seat's turn, a renege: rules.md 1.3, or not in a card play)."""
        st = self._state
        ev = next((e for e in st.legal if e.kind == "CardPlayed" and e.seat == seat and e.card == card), None)
        if ev is None:
            self._set_status(self._why_not_playable(seat, card))
            return False
        if self.line.kind != "user":
            self.new_variation()
        self.play(ev)
        self._set_status(f"{R._describe(ev, st.players, st.dealer)}: played in {self.line.name}")
        return True

    def _why_not_playable(self, seat: int, card: str) -> str:
        st = self._state
        n = len(st.players)
        if not (0 <= seat < len(st.hands)) or card not in st.hands[seat] or card == C.UNKNOWN:
            return f"{str(card)[:8]} is not a card of that hand the record names"
        name = C.pretty(card)
        if st.phase != "play" or st.turn is None:
            return f"{name} cannot be played now: no card is to be played here ({st.legal_reason or st.phase})"
        if seat != st.turn:
            return (f"{name} cannot be played now: it is {R.seat_label(st.turn, n)}'s turn, "
                    f"not {R.seat_label(seat, n)}'s")
        return f"{name} cannot be played now: {st.legal_reason} (rules.md 1.3)"

    def save_variation(self) -> str:
        """Store the user variation shown in the game's annotation stream
        (a ``VariationAdded`` event: the game's own events are untouched);
        returns its id.  Raises ``ValueError`` outside a user variation or
        without an archive (a record file opened directly)."""
        ln = self.line
        if ln.kind != "user":
            raise ValueError("only a variation started here can be saved")
        if self.archive is None or self.game_id is None:
            raise ValueError("this game is not stored in an archive; import it first")
        own = list(ln.game.events[ln.branch:])
        if not own:
            raise ValueError("the variation has no moves yet")
        vid = self.archive.add_variation(self.game_id, ln.branch, own, comment=ln.name)
        ln.kind = "record"
        self._set_status(f"variation saved ({len(own)} moves)")
        return vid

    def _save_variation_clicked(self) -> None:
        try:
            self.save_variation()
        except ValueError as e:
            self._set_status(str(e))

    def _update_moves(self) -> None:
        if self.line.kind != "user":
            if self.move_box.layout.display != "none":
                self.move_box.layout.display = "none"
            return
        self.move_box.layout.display = "flex"
        moves = self.legal_moves()
        self._syncing = True
        try:
            self.move_dd.options = [(w, i) for i, (w, _) in enumerate(moves)]
            self.move_dd.value = 0 if moves else None
        finally:
            self._syncing = False
        if not moves:
            self._set_status("this variation has reached the end of its deal")

    # ------------------------------------------------------------ display
    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        return (f"<GameViewer {self.main.title or 'game'!r}: line {self.line.name!r}, "
                f"position {self._position}/{self.n_events}>")


QUIZ_CSS = """
.ee-quiz-board .ee-table{max-width:820px}
""" + R.QUIZ_FEEDBACK_CSS
"""The tutorials' quiz styles: right and wrong each have a colour *and* a
mark (\u2713, \u2717), so they read without colour too."""


class Quiz:
    """A small exercise for tutorials: a question, the table before the
    decision, choices, a check button, retries.

    ``question``: text (HTML allowed); ``choices``: ``[(label, value), ...]``;
    ``answer``: the right value, or for ``multiple=True`` the set of right
    values (compute it with the engine, never type it by hand);
    ``explanation``: words shown with the right answer; ``why_wrong``: a
    function from a wrong pick to why *that* pick is wrong (words; default
    none); ``board``: HTML of the position with the answers hidden, shown
    until the answer is known; ``reveal``: the same position with its
    highlights, shown in its place then; ``tries``: wrong picks allowed
    before the answer is shown (default 2).

    ``quiz.check(selection)`` returns True when right.  A wrong pick shows
    \u2717 and why it is wrong, and the learner may try again; after
    ``tries`` wrong picks, a right one, or ``quiz.show_answer()`` (the **show
    the answer** button) the answer, the explanation and ``reveal`` show.
    ``quiz.then(viewer)`` adds what shows under the feedback only then.
    ``quiz.widget`` is the ipywidgets box (classes ``ee-quiz``,
    ``ee-quiz-board``, ``ee-quiz-choices``, ``ee-quiz-check``,
    ``ee-quiz-show``, ``ee-quiz-feedback`` with ``ee-quiz-right`` /
    ``ee-quiz-wrong`` / ``ee-quiz-answer`` and the mark ``ee-quiz-mark``,
    ``ee-quiz-after`` for :meth:`then`).
    Raises ``ValueError`` when the answer is not among the choices.
    """

    def __init__(self, question: str, choices: Sequence, answer, explanation: str = "",
                 multiple: bool = False, why_wrong=None, board: str = "", reveal: str = "",
                 tries: int = 2):
        from euchre_events.ui.lesson import answer_among, answer_controls   # a quiz's page only
        self.question = question
        self.choices = [(str(lbl), val) for lbl, val in choices]
        self.multiple = multiple
        self.answer = answer_among(answer, [v for _, v in self.choices], multiple)
        self.explanation = explanation
        self.why_wrong = why_wrong
        self.board, self.reveal = board, reveal
        self.tries = max(1, int(tries))
        q = W.HTML(f"<style>{QUIZ_CSS}</style><b>{question}</b>")
        self.board_w = W.HTML(board)
        self.board_w.add_class("ee-quiz-board")
        if not board:
            self.board_w.layout.display = "none"
        if multiple:
            self.boxes = [W.Checkbox(description=lbl, value=False, indent=False,
                                     layout=W.Layout(width="auto")) for lbl, _ in self.choices]
            self.choice_w = W.HBox(self.boxes, layout=W.Layout(flex_flow="row wrap"))
        else:
            self.boxes = []
            self.choice_w = W.RadioButtons(options=self.choices, value=None)
        self.choice_w.add_class("ee-quiz-choices")
        answer_controls(self)
        self.widget = W.VBox([q, self.board_w, self.choice_w,
                              W.HBox([self.check_b, self.show_b], layout=W.Layout(flex_flow="row wrap")),
                              self.feedback, self.after_w],
                             layout=W.Layout(align_items="flex-start", margin="6px 0", max_width="100%"))
        self.widget.add_class("ee-quiz")
        self.widget.add_class("ee-root")
        self.last_result: Optional[bool] = None
        self.wrong_tries = 0
        self.answered = False

    def selection(self):
        """What the learner has chosen now (a value, or a frozenset of values)."""
        if self.multiple:
            return frozenset(v for (_, v), b in zip(self.choices, self.boxes) if b.value)
        return self.choice_w.value

    def _right_text(self) -> str:
        labels = {v: lbl for lbl, v in self.choices}
        if self.multiple:
            return ", ".join(labels[v] for _, v in self.choices if v in self.answer) or "none of them"
        return labels[self.answer]

    def _answer_html(self) -> str:
        return (f'<div class="ee-quiz-answer"><b>The answer: {R.esc_words(self._right_text())}.</b> '
                f'{R.esc_words(self.explanation)}</div>')

    def then(self, *widgets) -> "Quiz":
        """Show ``widgets`` (a :class:`GameViewer`, or any ipywidget) under the
        feedback once the answer is known, not before: a viewer of the deal
        would give the answer away (its legal calls, the trick's winner).
        Returns the quiz, so a notebook cell can end with ``Quiz(...).then(viewer)``."""
        kids = [getattr(w, "widget", w) for w in widgets]
        self.after_w.children = tuple(self.after_w.children) + tuple(kids)
        if self.answered:
            self.after_w.layout.display = "flex"
        return self

    def _reveal(self) -> None:
        self.answered = True
        if self.reveal:
            self.board_w.value = self.reveal
        self.show_b.layout.display = "none"
        if self.after_w.children:
            self.after_w.layout.display = "flex"

    def check(self, selection=None) -> bool:
        """Compare ``selection`` (default: what is ticked) with the answer and
        show the feedback: \u2713 with the explanation, or \u2717 with why that
        pick is wrong (and, after ``tries`` wrong picks, the answer)."""
        if selection is not None:
            self._select(selection)
        got = self.selection()
        if got is None and not self.multiple:
            self.feedback.value = '<div class="ee-quiz-answer">Choose an answer first.</div>'
            return False
        ok = got == self.answer
        self.last_result = ok
        if ok:
            self.feedback.value = (f'<div class="ee-quiz-right"><span class="ee-quiz-mark">\u2713</span>'
                                   f'<b>Right: {R.esc_words(self._right_text())}.</b> {R.esc_words(self.explanation)}</div>')
            self._reveal()
            return True
        self.wrong_tries += 1
        why = self.why_wrong(got) if self.why_wrong is not None else ""
        out = ('<div class="ee-quiz-wrong"><span class="ee-quiz-mark">\u2717</span><b>Not that.</b> '
               + (R.esc_words(why[:1].upper() + why[1:]) + "." if why else ""))
        if self.wrong_tries >= self.tries or self.answered:
            out += "</div>" + self._answer_html()
            self._reveal()
        else:
            out += " Try again, or press <i>show the answer</i>.</div>"
        self.feedback.value = out
        return False

    def show_answer(self) -> None:
        """Show the answer, its explanation and the table with its highlights."""
        self.feedback.value = self._answer_html()
        self._reveal()

    def _select(self, selection) -> None:
        if self.multiple:
            chosen = set(selection)
            for (_, v), b in zip(self.choices, self.boxes):
                b.value = v in chosen
        else:
            self.choice_w.value = selection

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)
