"""Analysis at the table, drawn: the pieces the viewer and the HTML page share.

The Jupyter viewer (:class:`euchre_events.ui.widgets.GameViewer`) and
``export --format html --with-analysis`` (:mod:`euchre_events.ui.htmlexport`)
show a decision's analysis the same way, from these functions (issue 22
"Analysis at the table"):

- :func:`option_costs`: each legal option's cost, face up and from the seat's
  view, and the EGN label of the one played;
- :func:`hand_with_badges`: the hand on turn with a cost badge under each
  legal card (``ee-badge``, ``ee-best`` for a best one, the label ``ee-lab``);
- :func:`options_table`: the options of the decision as a table (calls
  included), ``ee-option`` rows, ``ee-played`` for the one played;
- :func:`par_line`: the deal's face-up par beside what was bid (``ee-par``);
- :func:`eval_points`: the evaluation graph's points for a deal.

Values are deal points from the deciding seat's side (docs/analysis.md "Units
and sides"); a cost is the best option's value minus the option's (>= 0).
Every text from the record is escaped here.
"""
from __future__ import annotations

import re
from typing import Optional

from euchre_events.ui import render as R
from euchre_events.ui.analysisreport import pretty_action
from euchre_events.ui.analysisview import LABEL_WORDS, cost_text, low, plot_value

__all__ = ["option_costs", "hand_with_badges", "options_table", "par_line", "bid_words", "points_text",
           "eval_points"]


def points_text(v) -> str:
    """A value in points, ``"+2"``; a span over the record's readings of its unknown cards ``"+1..+2"``."""
    if isinstance(v, (tuple, list)):
        return "..".join(f"{x:+g}" for x in v)
    return f"{v:+g}"


def option_costs(fu, sv) -> dict:
    """``{option text: (face-up cost, seat-view cost, label or "")}`` of a
    decision: ``fu`` its face-up :class:`~euchre_events.analysis.review.Decision`
    (or None), ``sv`` the one with the seat view's values (or None; an
    analysis with both carries both in one Decision: pass it twice).  A cost
    is None where not known; the label is the played option's."""
    out = {}
    dec = sv or fu
    if dec is None:
        return out
    best_fu = max((low(o.face_up) for o in dec.options if o.face_up is not None), default=None)
    best_sv = max((low(o.seat_view) for o in (sv.options if sv else ()) if o.seat_view is not None), default=None)
    svs = {o.text: o for o in (sv.options if sv else ())}
    for o in (fu or dec).options:
        c_fu = None if o.face_up is None or best_fu is None else best_fu - low(o.face_up)
        so = svs.get(o.text)
        c_sv = None if so is None or so.seat_view is None or best_sv is None else best_sv - low(so.seat_view)
        if c_sv is None and sv is not None and getattr(dec, "forced", False):
            c_sv = 0.0      # one legal action: nothing to weigh, from any view (the seat view is not sampled)
        lab = dec.label if o.text == dec.played_text else ""
        out[o.text] = (c_fu, c_sv, lab or "")
    return out


def _num(c: Optional[float]) -> str:
    return "" if c is None else str(round(c, 3))


def hand_with_badges(hand_html: str, costs: dict, seat_view: bool = True) -> str:
    """The hand drawing ``hand_html`` (:func:`euchre_events.ui.render.table_parts`'s
    ``hand-S``) with a badge under each legal card (``ee-legal``) that
    :func:`option_costs` values: two short lines the card's width, its cost
    face up (with the label of the card played), then from the seat's view
    when ``seat_view``; ``data-face-up``/``data-seat-view`` carry the costs."""
    if not costs:
        return hand_html
    tip = ("cost in points: face up (above), from the seat's view (below)" if seat_view
           else "cost in points, face up")

    def put(m):
        b = costs.get(m.group(2))
        if b is None:
            return m.group(0)
        c_fu, c_sv, lab = b
        best = c_fu is not None and abs(c_fu) < 0.005
        labh = f'<span class="ee-lab ee-lab-{LABEL_WORDS[lab]}">{R._esc(lab)}</span>' if lab else ""
        shown = (f'<span class="ee-cost-fu">{cost_text(c_fu)}{labh}</span>'
                 + (f'<span class="ee-cost-sv">{cost_text(c_sv)}</span>' if seat_view else ""))
        return (m.group(0) + f'<span class="ee-badge ee-cost{" ee-best" if best else ""}" data-face-up="{_num(c_fu)}" '
                f'data-seat-view="{_num(c_sv)}" title="{tip}">'
                f'{shown}</span>')
    return re.sub(r'(<span class="ee-card ee-legal[^"]*" data-card="([^"]+)"[^>]*>)', put, hand_html)


def options_table(fu, sv, n_seats: int, computing: bool = False) -> str:
    """The decision's options as HTML: a heading naming the seat to decide,
    then one ``ee-option`` row per option (``data-option``, ``data-face-up``,
    ``data-seat-view``: its costs) with the label of the one played
    (``ee-played``), and the decision's ``why`` when a value is missing.
    ``computing``: the seat view is still on its way (says so, its column
    "…").  With neither ``sv`` nor ``computing`` (a face-up-only analysis)
    there is no seat view: no seat-view column, and the heading says face up
    only."""
    dec = sv or fu
    who = R.seat_label(dec.seat, n_seats)
    seat_view = sv is not None or computing
    head = (f"<div><b>{R._esc(who)}</b> to decide: costs in points, face up"
            + (f" (every hand seen) and from {R._esc(who)}'s view" + (" (computing…)" if computing else "")
               if seat_view else " only (every hand seen)") + "</div>")
    cols = ('<tr><th></th><th class="ee-num-cell">face up</th>'
            + ('<th class="ee-num-cell">seat view</th>' if seat_view else "") + '<th></th></tr>')
    body = []
    for text, (c_fu, c_sv, lab) in option_costs(fu, sv).items():
        played = text == dec.played_text
        labh = (f'<span class="ee-lab ee-lab-{LABEL_WORDS[lab]}" title="{LABEL_WORDS[lab]}">{R._esc(lab)}'
                f' {LABEL_WORDS[lab]}</span>' if lab else "")
        body.append(f'<tr class="ee-option{" ee-played" if played else ""}" data-option="{R._esc(text)}" '
                    f'data-face-up="{_num(c_fu)}" data-seat-view="{_num(c_sv)}">'
                    f'<td>{R._esc(pretty_action(text))}{" (played)" if played else ""}</td>'
                    f'<td class="ee-num-cell">{cost_text(c_fu)}</td>'
                    + (f'<td class="ee-num-cell">{cost_text(c_sv)}</td>' if seat_view else "") +
                    f'<td>{labh}</td></tr>')
    out = head + "<table>" + cols + "".join(body) + "</table>"
    if dec.why:
        out += f"<div>{R._esc(dec.why)}</div>"
    return out


def bid_words(game, deal: int) -> str:
    """What was bid in ``deal`` of ``game`` (the state at that deal's end):
    "South made ♥ alone", "no one made trump (thrown in)", "not yet"."""
    from euchre_events.ui.describe import suit_text
    n = len(game.players)
    starts = sorted(game.index().deal_start.items())
    later = [p for d, p in starts if d > deal]
    st = game.state_at(later[0] if later else len(game.events))
    if st.maker is None:
        return "no one made trump (thrown in)" if st.phase in ("deal_over", "game_over") or later else "not yet"
    return f"{R.seat_label(st.maker, n)} made {suit_text(st.trump)}" + (" alone" if st.alone is not None else "")


def par_line(da, bid: str, n_seats: int) -> str:
    """The deal's face-up par beside what was bid, as ``<div class="ee-par">``:
    ``da`` a :class:`~euchre_events.analysis.review.DealAnalysis`, ``bid``
    :func:`bid_words`."""
    def call(seat, text):
        if text is None:
            return "every seat passes"
        return pretty_action(text, seat, da.dealer) + (f" by {R.seat_label(seat, n_seats)}" if seat is not None else "")

    makers = f", {points_text(da.par_value)} for the makers" if da.par_value is not None else ""
    if da.par_calls:      # the call depends on the record's unknown cards: each one the readings give
        par = " or ".join(call(s, c) for s, c in da.par_calls) + ", as the record's unknown cards are read" + makers
    elif da.par_call is None:
        par = "not known (a card the record does not state)" if da.par_value is None else "every seat passes (thrown in)"
    else:
        par = call(da.par_seat, da.par_call) + makers
    return (f'<div class="ee-par" data-deal="{da.deal}">deal {da.deal} par (face up): {R._esc(par)}'
            f' · bid: {R._esc(bid)}</div>')


def eval_points(da, variant, fu_da=None) -> tuple:
    """``(xs, face_up, seat_view, positions, labels)`` of deal analysis
    ``da``: per analysed decision its event number (from 1, as the event
    list), the value after it face up and from the seat's view (deal points
    from the first side's view in the two-party games, the deciding seat's own
    otherwise; a range over unknown cards at its midpoint, :func:`plot_value`;
    None where not known), its event index and label.  ``fu_da``:
    a separate face-up analysis of the deal whose values to use face up."""
    xs, fu, sv, pos, labs = [], [], [], [], []
    fu_by = {x.position: x for x in (fu_da.decisions if fu_da else ())}
    for dec in da.decisions:
        xs.append(dec.position + 1)
        f = fu_by.get(dec.position, dec)
        fu.append(plot_value(dec, f.played_face_up, variant))
        sv.append(plot_value(dec, dec.played_seat_view, variant))
        pos.append(dec.position)
        labs.append(dec.label or "")
    return xs, fu, sv, pos, labs
