"""The review as people read it: text like a coach, and one HTML page
(``euchre-events analyze --format text|html``; docs/analysis.md).

Everything from the record (player names, titles) is escaped in HTML and
shown :func:`~euchre_events.events.printable` in text.
"""
from __future__ import annotations

import html
import json
from typing import Optional, Sequence

from euchre_events.analysis.labels import LABEL_WORDS
from euchre_events.analysis.review import Decision, GameAnalysis
from euchre_events.events import printable
from euchre_events.rules import cards as C
from euchre_events.rules.registry import make_variant
from euchre_events.rules.seats import name_seats
from euchre_events.ui.analysisview import plot_value
from euchre_events.ui.describe import not_read_line, seat_name, side_label

__all__ = ["analysis_text", "analysis_text_part", "analysis_text_of_parts", "analysis_html", "decision_sentence", "pretty_action", "par_words"]


def pretty_action(text: str, seat: Optional[int] = None, dealer: Optional[int] = None) -> str:
    """An action's words with card symbols: ``"JD"`` -> ``"J♦"``,
    ``"discard 9C"`` -> ``"discard 9♣"``, ``"name H alone"`` -> ``"name ♥ alone"``.
    With ``seat`` the dealer's own ``order`` is said as people say it at the
    table, ``"pick up"`` (``"pick up alone"``; rules.md 2.3): the words only,
    the JSON keeps the notation's ``order``."""
    if seat is not None and seat == dealer and (text == "order" or text.startswith("order ")):
        text = "pick up" + text[len("order"):]
    out = []
    for w in text.split(" "):
        if len(w) == 2 and w[1] in C.SUITS and (w[0] in "9TJQKA8765432" or w == "JK"):
            out.append(C.pretty(w))
        elif len(w) == 1 and w in C.SUITS:
            out.append(C.SUIT_SYMBOLS[w])
        else:
            out.append(w)
    return " ".join(out)


def points_text(x) -> str:
    """A value in points as people write it: ``+2``, ``−1``, ``0``, ``−1.5``;
    a (low, high) pair over the readings of unknown cards as ``−1 to +2``."""
    if x is None:
        return "?"
    if isinstance(x, (tuple, list)):
        return f"{points_text(x[0])} to {points_text(x[1])}"
    x = round(x, 2)
    s = f"{x:+.2f}".rstrip("0").rstrip(".")
    return s.replace("-", "\u2212") if s not in ("+0", "-0") else "0"


def _party_words(a: GameAnalysis, seat: int) -> str:
    """"N/S" or "P2": whose side a value is from."""
    from euchre_events.rules.registry import make_variant
    try:
        side = make_variant(a.variant).side_of(seat)
    except (ValueError, IndexError):
        side = seat
    return side_label(side, a.variant, list(a.players))


def par_words(a: GameAnalysis, deal) -> str:
    """The deal's face-up par in words: "par (every hand visible): West order, +1 for the makers";
    where the call depends on the record's unknown cards, each call the readings give:
    "East order or South name ♣, as the record's unknown cards are read, +1 for the makers"."""
    if deal.why and deal.par_value is None:
        return _why_words(a, deal.why)
    if deal.par_value is None:
        return "no par: the deal has no auction to analyse"
    if deal.par_calls:
        calls = " or ".join(_par_call_words(a, deal, s, c) for s, c in deal.par_calls)
        return (f"par (every hand visible): {calls}, as the record's unknown cards are read, "
                f"{points_text(deal.par_value)} for the makers")
    if deal.par_call is None:
        return "par (every hand visible): every seat passes, the deal is thrown in (0)"
    return f"par (every hand visible): {_par_call_words(a, deal, deal.par_seat, deal.par_call)}, " \
           f"{points_text(deal.par_value)} for the makers"


def _par_call_words(a: GameAnalysis, deal, seat: Optional[int], call: Optional[str]) -> str:
    """One par call in words: "West (Bob) pick up"; None: every seat passes."""
    if call is None:
        return "every seat passes"
    who = seat_name(seat, list(a.players), a.n_seats) + " " if seat is not None else ""
    return who + pretty_action(call, seat, deal.dealer)


def _why_words(a: GameAnalysis, why: str) -> str:
    """A ``why`` of the analysis (the solver's words, seats by index: "seat 1
    holds 1 card the record does not state") with each seat as the text names
    players: "North (Florida) holds 1 card the record does not state"."""
    return name_seats(why, [str(p) for p in a.players], a.n_seats)


def _sentence(text: str) -> str:
    """``text`` starting with a capital, as a sentence after a full stop."""
    return text[:1].upper() + text[1:]


def _dealer(a: GameAnalysis, deal: int) -> Optional[int]:
    """The dealer of deal number ``deal`` of the analysis (None if not analysed)."""
    return next((x.dealer for x in a.deals if x.deal == deal), None)


def decision_sentence(a: GameAnalysis, d: Decision) -> str:
    """One decision as a coach says it (text, not escaped)."""
    who = seat_name(d.seat, list(a.players), a.n_seats)
    where = f"Deal {d.deal}" + (f", trick {d.trick}" if d.trick else ", the auction" if d.kind == "call"
                                else ", the exchange")
    verb = "played" if d.kind == "play" else "chose"
    dealer = _dealer(a, d.deal)

    def words(text: str) -> str:
        return pretty_action(text, d.seat, dealer)
    # event K counted from 1, as record, show and drill say it (show --after K-1 is its table)
    s = f"{where} (event {d.position + 1}): {who} {verb} {words(d.played_text)}"
    if d.label:
        s += f" [{d.label} {LABEL_WORDS[d.label]}]"
    s += "."
    if not d.legal:
        s += " It was not a legal action (see the audit)."
    best = d.best_face_up()
    side = _party_words(a, d.seat)
    if d.why:
        s += f" {_sentence(_why_words(a, d.why))}."
    if best is not None and d.played_face_up is not None:
        if d.face_up_cost and d.face_up_cost > 1e-9:
            s += (f" Face up, {words(best.text)} was worth {points_text(best.face_up)} for {side}"
                  f" against {points_text(d.played_face_up)} ({points_text(d.face_up_cost).lstrip('+')} lost")
            if d.win_chance_lost is not None:
                s += f", {100 * d.win_chance_lost:.0f}% of the game's winning chance"
            s += ")."
        else:
            s += f" Face up it was best ({points_text(d.played_face_up)} for {side})."
    sv = d.best_seat_view()
    pl = next((o for o in d.options if o.action == d.played), None)
    if sv is not None and pl is not None and pl.seat_view is not None:
        n = a.method.samples
        share = "" if pl.best_share is None else f"; {words(pl.text)} was the best in {100 * pl.best_share:.0f}% of them"
        def est(o) -> str:     # a pass in the auction counts 0 from the seat: no error to give
            if o.action.kind == "Passed" and a.method.pass_value == "zero" and not o.seat_view_se:
                return "0 (a pass counts 0)"
            return f"{points_text(o.seat_view)} \u00b1 {abs(o.seat_view_se or 0):.2f}"
        if sv.action != d.played and (d.seat_view_cost or 0) > 1e-9:
            s += (f" From {who}'s seat {words(sv.text)} looked better: {est(sv)} against "
                  f"{est(pl)} over {n} imagined deal{'' if n == 1 else 's'}{share}.")
        else:
            s += f" From {who}'s seat it was the best choice: {est(pl)} over {n} imagined deal{'' if n == 1 else 's'}{share}."
    return s


def analysis_text(analyses: Sequence[GameAnalysis], all_decisions: bool = False) -> str:
    """The review of each game: a header, each deal's par, the decisions that
    earned a label (every decision with ``all_decisions``), and each player's
    accuracy and points lost."""
    return analysis_text_of_parts([analysis_text_part(a, all_decisions) for a in analyses])


def analysis_text_part(a: GameAnalysis, all_decisions: bool = False) -> str:
    """One game's piece of :func:`analysis_text` (games analysed apart,
    ``analyze --workers``, each in its process: :func:`analysis_text_of_parts`)."""
    lines = []
    title = printable(a.title or (a.file or "game"))
    m = a.method
    how = "face up only" if m.face_up_only else f"face up and {m.samples} imagined deal{'' if m.samples == 1 else 's'} per decision (seed {m.seed})"
    lines.append(f"{title} ({a.variant}): analysed {how}.")
    for deal in a.deals:
        lines.append(f"Deal {deal.deal}: {par_words(a, deal)}.")
        for d in deal.decisions:
            if d.label or all_decisions or (d.why and not d.forced):
                lines.append("  " + decision_sentence(a, d))
    lines.append("Players:")
    for p in a.players_summary:
        acc = "-" if p.accuracy is None else f"{p.accuracy:.0f}%"
        labs = ", ".join(f"{n} {k}" for k, n in sorted(p.labels.items())) or "no marks"
        sv = "" if p.seat_view_cost is None else f", {p.seat_view_cost:.1f} from the seat's view"
        lines.append(f"  {seat_name(p.seat, list(a.players), a.n_seats)}: accuracy {acc}, "
                     f"{p.decisions} decision{'' if p.decisions == 1 else 's'}, "
                     f"{p.face_up_cost:.1f} points lost face up{sv} ({labs})")
    lines.append("")
    return "\n".join(lines)


def analysis_text_of_parts(parts: Sequence[str]) -> str:
    """:func:`analysis_text` of the games whose :func:`analysis_text_part`
    are ``parts``, in order."""
    return "\n".join(parts).rstrip("\n") + "\n"


_CSS = """
body{font-family:system-ui,sans-serif;margin:1.5em;max-width:1100px;color:#222}
h1{font-size:1.4em} h2{font-size:1.15em;margin-top:1.6em}
table.ee-decisions{border-collapse:collapse;width:100%;font-size:.92em}
.ee-decisions td,.ee-decisions th{border-bottom:1px solid #ddd;padding:.25em .5em;text-align:left;vertical-align:top}
.ee-label{font-weight:bold}
.ee-label-blunder{color:#b00020}.ee-label-mistake{color:#d9480f}.ee-label-dubious{color:#a07900}
.ee-label-interesting{color:#1c6dd0}.ee-label-great{color:#2b8a3e}.ee-label-brilliant{color:#0b7285}
.ee-suit-D,.ee-suit-H{color:#c00}
.ee-players td,.ee-players th{padding:.2em .8em;text-align:left}
@media print{.ee-graph{display:none}}
"""


def _suits_html(text: str, seat: Optional[int] = None, dealer: Optional[int] = None) -> str:
    """Escaped text with card symbols, hearts and diamonds in red (the
    dealer's own ``order`` as ``pick up``: :func:`pretty_action`)."""
    out = []
    for w in pretty_action(text, seat, dealer).split(" "):
        e = html.escape(w)
        if w.endswith(C.SUIT_SYMBOLS["H"]) or w.endswith(C.SUIT_SYMBOLS["D"]):
            e = f"<span class='ee-suit-{'H' if w.endswith(C.SUIT_SYMBOLS['H']) else 'D'}'>{e}</span>"
        out.append(e)
    return " ".join(out)


def analysis_html(analyses: Sequence[GameAnalysis], errors: Sequence[dict] = ()) -> str:
    """One self-contained page: per game the players' accuracy, per deal an
    evaluation graph (plotly, inlined) and the decisions with their costs,
    each by its event number counted from 1 (as the text and ``show --after``);
    first, when there are ``errors`` (``{"file", "error"}``), a "Not read"
    section naming each input that could not be read or analysed.
    Everything from the record is escaped."""
    from plotly.offline import get_plotlyjs
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Analysis</title>"
             f"<style>{_CSS}</style><script>{get_plotlyjs()}</script></head><body>"]
    if errors:
        parts.append("<h2>Not read</h2>")
        parts.extend(f"<p class='not-read'>{html.escape(not_read_line(e))}</p>" for e in errors)
    gid = 0
    for a in analyses:
        parts.append(f"<h1>{html.escape(a.title or a.file or 'game')} "
                     f"<small>({html.escape(a.variant)})</small></h1>")
        m = a.method
        parts.append("<p>" + html.escape("Face up only." if m.face_up_only else
                                         f"Face up, and from each seat's view over {m.samples} imagined deal{'' if m.samples == 1 else 's'} "
                                         f"(seed {m.seed}); a pass in the auction is worth 0 from the seat's view.")
                     + "</p>")
        parts.append("<table class='ee-players'><tr><th>player</th><th>accuracy</th><th>decisions</th>"
                     "<th>points lost face up</th><th>seat view</th><th>marks</th></tr>")
        for p in a.players_summary:
            parts.append("<tr>" + "".join(f"<td>{x}</td>" for x in (
                html.escape(seat_name(p.seat, list(a.players), a.n_seats)),
                "-" if p.accuracy is None else f"{p.accuracy:.0f}%", p.decisions, f"{p.face_up_cost:.1f}",
                "-" if p.seat_view_cost is None else f"{p.seat_view_cost:.1f}",
                html.escape(", ".join(f"{n} {k}" for k, n in sorted(p.labels.items())))) ) + "</tr>")
        parts.append("</table>")
        variant = make_variant(a.variant)
        for deal in a.deals:
            parts.append(f"<h2>Deal {deal.deal}</h2>")
            parts.append(f"<p class='ee-par'>{html.escape(par_words(a, deal))}</p>")
            xs, fu, sv, texts = [], [], [], []
            for d in deal.decisions:
                xs.append(d.position + 1)      # the event number, from 1, as the text and show --after count
                # the value after the decision, from side 0's (N/S, P1) point of view; a range at its
                # midpoint, as the viewer's graph (analysisview.plot_value)
                fu.append(plot_value(d, d.played_face_up, variant))
                sv.append(plot_value(d, d.played_seat_view, variant))
                # plotly reads markup in a point's text (<b>, <a href>): a name from the record is escaped
                texts.append(html.escape(f"event {d.position + 1}: {seat_name(d.seat, list(a.players), a.n_seats)} "
                                         f"{pretty_action(d.played_text, d.seat, deal.dealer)}"))
            gid += 1
            data = [{"x": xs, "y": fu, "name": "face up", "mode": "lines+markers", "text": texts,
                     "hovertemplate": "%{text}: %{y}<extra></extra>"}]
            if any(v is not None for v in sv):
                data.append({"x": xs, "y": sv, "name": "seat view (what the deciding seat expected)",
                             "mode": "lines+markers", "connectgaps": True, "text": texts,
                             "hovertemplate": "%{text}: %{y}<extra></extra>"})
            # each point is side 0's value where two sides play, the deciding seat's own where
            # three or four parties score apart (plot_value)
            who = html.escape(_party_words(a, 0)) if variant.n_sides == 2 else "the deciding player"
            layout = {"height": 240, "margin": {"l": 50, "r": 10, "t": 10, "b": 40},
                      "xaxis": {"title": {"text": "event"}},
                      "yaxis": {"title": {"text": f"points for {who}"}}}
            # json.dumps escapes nothing for HTML: names go through html.escape in text, and "</"
            # is broken so that no record text can close the script
            payload = json.dumps({"data": data, "layout": layout}, ensure_ascii=True).replace("</", "<\\/")
            parts.append(f"<div class='ee-graph' id='g{gid}'></div><script>(function(){{var p={payload};"
                         f"Plotly.newPlot('g{gid}',p.data,p.layout,{{displayModeBar:false}});}})();</script>")
            parts.append("<table class='ee-decisions'><tr><th>event</th><th>trick</th><th>seat</th><th>played</th>"
                         "<th>mark</th><th>best face up</th><th>lost face up</th><th>lost seat view</th>"
                         "<th>win chance lost</th></tr>")
            for d in deal.decisions:
                best = d.best_face_up()
                lab = (f"<span class='ee-label ee-label-{LABEL_WORDS[d.label]}'>{html.escape(d.label)}</span>"
                       if d.label else "")
                parts.append("<tr>" + "".join(f"<td>{x}</td>" for x in (
                    d.position + 1, d.trick or "", html.escape(seat_name(d.seat, list(a.players), a.n_seats)),
                    _suits_html(d.played_text, d.seat, deal.dealer) + ("" if d.legal else " (illegal)"), lab,
                    _suits_html(best.text, d.seat, deal.dealer) if best else html.escape(_why_words(a, d.why or "")),
                    "" if d.face_up_cost is None else f"{d.face_up_cost:.2f}",
                    "" if d.seat_view_cost is None else f"{d.seat_view_cost:.2f}",
                    "" if d.win_chance_lost is None else f"{100 * d.win_chance_lost:.0f}%")) + "</tr>")
            parts.append("</table>")
    parts.append("</body></html>")
    return "".join(parts)


