"""The audit as a director reads it (``euchre-events audit --format
{text,json,html}``): the findings of :func:`euchre_events.projections.audit`
and the official result of each game, in words, as JSON, and as one
self-contained HTML page for both sides of a dispute (rules.md 1.5, 1.6, 2.7).

Everything taken from a record (player names, titles, annotations) is shown
:func:`~euchre_events.ui.describe.printable` in text and escaped in HTML.
"""
from __future__ import annotations

import html
from typing import Optional, Sequence

from euchre_events.rules import cards as C
from euchre_events.rules.seats import name_seats, score_text
from euchre_events.ui.describe import level_sides, printable, seat_name, side_player_names
from euchre_events.ui.describe import score_words as describe_score_words

__all__ = ["side_label", "game_json", "fast_game_json", "finding_lines", "game_lines", "by_deal_lines", "html_report"]


def side_label(variant, side: Optional[int], players: Sequence[str]) -> str:
    """A side in words: ``"North-South"`` / ``"East-West"`` in four-seat
    partnership games (with the players' names when known), else the
    player's seat and name; ``"nobody"`` for None, ``"A and B (tied)"`` for
    a tuple of sides."""
    if side is None:
        return "nobody"
    if isinstance(side, (tuple, list)):
        if len(side) == variant.n_sides == 2:   # both sides level at the end: no winner
            return "nobody: the game is drawn (" + " and ".join(side_label(variant, s, players) for s in side) + " level)"
        return " and ".join(side_label(variant, s, players) for s in side) + " (tied)"
    n = variant.n_seats
    if variant.partnerships and n == 4:
        word = "North-South" if side == 0 else "East-West"
        names = side_player_names((side, side + 2), players)
        return f"{word} ({' & '.join(names)})" if names else word
    return seat_name(side, players, n)


def named(text: str, players: Sequence[str], n_seats: int) -> str:
    """``text`` (words from the rules, which name seats by index) with each
    ``seat N`` as the seat's name (``East (Llama)``:
    :func:`~euchre_events.rules.seats.name_seats`), shown printable."""
    return printable(name_seats(text, players, n_seats))


def score_words(variant, score: Sequence[int], players: Sequence[str]) -> str:
    """Points per side (one entry per side): ``"N/S 2, E/W 0"``, ``"P1 10,
    P2 8"``; the one way every command says a score
    (:func:`euchre_events.ui.describe.score_words`: ``list``, ``show``,
    ``import``)."""
    return describe_score_words(score, variant.name, players)


def game_json(g, findings) -> dict:
    """One game of ``audit --format json``: ``id``, ``title``, ``variant``,
    ``deal_count``, ``final_score`` (= ``as_played_score``, per side, the
    cards as played), ``winner`` (side on the cards as played, or None),
    ``official_score``, ``official_winner`` (rules.md 1.6: penalties,
    claims and rulings applied), ``findings`` (each
    :meth:`~euchre_events.projections.audit.Finding.to_dict`), ``deals``
    (one :meth:`~euchre_events.projections.audit.DealReport.to_dict` per
    deal), and ``tied`` / ``shared_winners`` where a game ended so (more
    than two sides, or a fixed number of deals ending level), ``tokens``
    (per side) where the game plays four-trick tokens (rules.md 2.9)."""
    t = g.final
    apw = t.as_played_winner
    d = {
        "id": g.id, "title": g.title, "variant": g.variant, "deal_count": g.deals,
        "final_score": g.final_score, "winner": apw if isinstance(apw, int) else None,
        "as_played_score": g.final_score,
        "official_score": g.official_score, "official_winner": g.winner,
        "findings": [f.to_dict(g.players) for f in findings],
        "deals": [d.to_dict() for d in g.deal_reports()],
    }
    x = t.extra()
    for key in ("tied", "shared_winners"):   # games with more than two sides
        if x.get(key):
            d[key] = list(x[key])
    if "tied" not in d and "shared_winners" not in d and level_sides(g.winner, t.game_over, g.official_score):
        # level at a fixed end (num_deals, rules.md 2.9): the game is drawn
        d["tied"] = list(level_sides(g.winner, t.game_over, g.official_score))
    if getattr(t.options, "four_trick_tokens", False):   # tokens held at the end (rules.md 2.9)
        d["tokens"] = list(t.tokens) or [0] * len(g.official_score)
    return d


def fast_game_json(fg, game_id: str) -> dict:
    """:func:`game_json` of a game read by the fast path
    (:class:`~euchre_events.formats.openspiel.FastGame`: one regular deal,
    no finding, the game not over), without folding it: the same dict, key
    for key (``tests/test_fast_audit.py`` compares the two over thousands
    of games)."""
    fd = fg.deal
    score = list(fd.scores)
    deal = {"deal": 1, "dealer": fg.dealer, "maker": fd.maker, "trump": fd.trump,
            "alone": fd.alone, "trick_winners": list(fd.trick_winners),
            "tricks": list(fd.tricks_won), "points_as_played": list(fd.points),
            "points_official": list(fd.points), "score_as_played": score,
            "score_official": score, "flags": [], "note": fd.note, "penalties": []}
    if fd.out:
        deal["out"] = list(fd.out)
    return {"id": game_id, "title": fg.title, "variant": "standard", "deal_count": 1,
            "final_score": score, "winner": None, "as_played_score": score,
            "official_score": score, "official_winner": None, "findings": [], "deals": [deal]}


def _trick_word(place) -> str:
    return f"trick {place['trick']}" if place and place.get("trick") else "the end of the hand"


def finding_lines(g, f) -> list:
    """The lines a director reads aloud for one finding."""
    v = g.final.variant
    players = g.players
    who = seat_name(f.seat, players, v.n_seats)
    if f.kind == "renege":
        suit = C.SUIT_NAMES.get(f.led_suit, f.led_suit or "?")
        held = " ".join(C.pretty(c) for c in f.evidence)
        card = C.card_name(f.card) if C.is_unknown(f.card) else C.pretty(f.card)   # "an unknown card"
        parts = [f"{who} reneged at trick {f.trick} of deal {f.deal}, playing {card} "
                 f"on a {suit} lead while holding {held}"]
        if f.established_at is None and f.deal == g.final.deal_no and str(g.final.phase) not in (
                "deal_over", "game_over"):   # a live game: the deal is still being played
            parts.append("not established yet (the trick is not gathered: it can still be corrected)")
        elif f.established_at is None:
            parts.append("never established (the deal was abandoned before the trick was gathered)")
        elif f.established == "when the hand ended":
            parts.append("established when the hand ended")
        else:
            e = g.events[f.established_at["event"]]
            parts.append(f"established when {seat_name(e.seat, players, v.n_seats)} played to "
                         f"trick {f.established_at['trick']}")
        if f.provable_at is not None:
            parts.append(f"provable at {_trick_word(f.provable_at)}, when {who} showed "
                         f"{C.pretty(f.proving_card) if f.proving_card else 'the suit'}")
        else:
            parts.append("provable only from the hands (the suit held back was never shown)")
        if f.claimed_at is not None:
            by = g.events[f.claimed_at["event"]].by
            when = (f"at trick {f.claimed_at['trick']} of deal {f.claimed_at['deal']}"
                    if f.claimed_at.get("trick") else f"after the hand (deal {f.claimed_at['deal']})")
            parts.append(f"claimed by {seat_name(by, players, v.n_seats)} {when}")
        elif not f.status.startswith("unclaimed"):
            parts.append("unclaimed")
        if f.ruling:
            parts.append(f"{f.ruling} by {printable(f.ruled_by)}"
                         + (f": {named(f.ruling_reason, players, v.n_seats)}" if f.ruling_reason else ""))
        if f.penalized and f.status.startswith("penalized (the claim was rejected"):
            parts.append("the renege still counts: every established renege does, as if claimed at "
                         "once (renege_enforcement=automatic)")
        if f.penalized:
            after = next((d.score_official for d in g.deal_reports()
                          if any(p == f.position for p, _ in d.penalties)), None)
            parts.append(f"penalty: {f.penalty}"
                         + (f"; official score after deal {f.deal}: {score_words(v, after, players)}"
                            if after else ""))
        else:
            parts.append(f.status)
        return ["; ".join(parts)]
    if f.kind == "renege-corrected":
        return [f"{who} played {C.pretty(f.card)} at trick {f.trick} of deal {f.deal} holding "
                f"{' '.join(C.pretty(c) for c in f.evidence)}, and took it back before the trick was "
                f"gathered: no penalty (rules.md 1.5)"]
    if f.kind == "claim-rejected":
        against = seat_name(f.against, players, v.n_seats)
        return [f"{who} claimed that {against} reneged at trick {f.trick} of deal {f.deal}: "
                f"rejected, {named(f.ruling_reason, players, v.n_seats)}"]
    if f.kind == "ruling-without-renege":
        return [f"ruling by {printable(f.ruled_by)} on deal {f.deal}, trick {f.trick}: {f.penalty}"]
    return [f"{f.kind}: deal {f.deal}, event {f.position}, {who}: {named(f.penalty, players, v.n_seats)}"]


def _first_to_target(g, winner) -> str:
    """Why a side won with no more official points than another (rules.md 1.6,
    the first to the target wins): a renege penalty let both sides cross on
    the last deal, and the preset scores the hand and the penalty in an order
    (:meth:`~euchre_events.rules.variant.Variant.penalty_order`); ``""``
    otherwise."""
    v = g.final.variant
    score = list(g.official_score)
    if (not isinstance(winner, int) or not 0 <= winner < len(score)
            or all(score[winner] > p for i, p in enumerate(score) if i != winner)):
        return ""
    how = {"after": "the hand is scored before the renege penalty (rules.md 2.7)",
           "before": "the renege penalty is scored before the hand (rules.md 1.5)"}.get(v.penalty_order(), "")
    target = getattr(getattr(v, "options", None), "target_score", None)
    at = str(target) if isinstance(target, int) else "the target"
    return (f", who reached {at} first: both sides reached it on the last deal"
            + (f", and {how}" if how else ""))


def game_lines(g, findings) -> list:
    """The whole text report of one game: a heading line with the official
    and the as-played result, then one line per finding."""
    v = g.final.variant
    t = g.final
    winner = g.winner
    if winner is None and t.game_over:   # ended level (a fixed number of deals, rules.md 2.9)
        winner = tuple(game_json(g, ()).get("tied") or ()) or None
    head = (f"{g.id or '-'}  {printable(g.title or '-')}  {g.variant}  deals={g.deals}  "
            f"official score: {score_words(v, g.official_score, g.players)}; "
            f"official winner: {side_label(v, winner, g.players)}"
            f"{' (the game is not over)' if not t.game_over else ''}{_first_to_target(g, winner)}; "
            f"as played: {score_words(v, g.final_score, g.players)}, "
            f"winner {side_label(v, t.as_played_winner, g.players)}; findings={len(findings)}")
    return [head] + ["  " + line for f in findings for line in finding_lines(g, f)]


def by_deal_lines(path: str, g, findings, skipped, deal_count: int) -> list:
    """The text report of an EGN game audited deal by deal (a record with an
    impossible deal: :func:`~euchre_events.formats.egn.egn_game_by_deal`):
    a heading line with both scores, then each impossible deal and each
    finding in deal order, the findings in the words of :func:`finding_lines`
    (a renege after the hand had stopped says it was not penalized)."""
    from euchre_events.formats.egn import impossible_words
    v = g.final.variant
    score, official = score_words(v, g.final_score, g.players), score_words(v, g.official_score, g.players)
    head = (f"{printable(path)}: audited deal by deal ({len(skipped)} impossible deal(s) of {deal_count}); "
            f"official score: {official}; as played: {score}; official winner: "
            f"{side_label(g.final.variant, g.winner, g.players)}")
    rows = [(n, 0, f"impossible: deal {n}: {printable(impossible_words(e))}") for n, e in skipped]
    rows += [(f.deal, 1, line) for f in findings for line in finding_lines(g, f)]
    rows.sort(key=lambda r: (r[0], r[1]))   # stable: a deal's own findings keep their order
    return [head] + ["  " + line for _, _, line in rows]


# ------------------------------------------------------------------ HTML

_CSS = """
body{font-family:system-ui,sans-serif;margin:2em;max-width:70em;color:#222}
h1{font-size:1.4em} h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0} td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left}
.official{font-weight:bold} .finding{border:1px solid #bbb;border-radius:6px;padding:.6em 1em;margin:1em 0}
.finding.renege{border-left:6px solid #c33} .finding.claim-rejected{border-left:6px solid #888}
.card{font-family:monospace;font-size:1.05em} .red{color:#b00} .offending{background:#fdd}
.proving{background:#dfd} .ruling-upheld{color:#060} .ruling-rejected{color:#900}
"""


def _card_html(card: Optional[str], cls: str = "") -> str:
    if card is None:
        return "?"
    txt = html.escape(C.pretty(card)) if card != C.UNKNOWN else "??"
    red = " red" if len(card) >= 2 and card[1] in "DH" else ""
    return f'<span class="card{red} {cls}">{txt}</span>'


def _finding_html(g, f) -> str:
    v = g.final.variant
    esc = html.escape
    out = [f'<div class="finding {esc(f.kind)}">',
           f"<p>{esc(' '.join(finding_lines(g, f)))}</p>"]
    if f.kind == "renege":
        tb = g.table_at(f.position)      # the table just before the card
        rows = []
        for s in range(v.n_seats):
            cards = " ".join(
                _card_html(c, "offending" if (s == f.seat and c == f.card) else
                           "proving" if (s == f.seat and c in f.evidence) else "")
                for c in C.sort_hand([c for c in tb.hands[s]], tb.trump))
            rows.append(f"<tr><th>{esc(seat_name(s, g.players, v.n_seats))}</th><td>{cards}</td></tr>")
        trick = " ".join(f"{esc(seat_name(s, g.players, v.n_seats))}: {_card_html(c)}" for s, c in tb.trick)
        out.append(f"<p>Deal {f.deal}, trick {f.trick}; trump: "
                   f"{esc(C.SUIT_NAMES.get(tb.trump, 'none') if tb.trump else 'none')}. "
                   f"The hands when {esc(seat_name(f.seat, g.players, v.n_seats))} played "
                   f"{_card_html(f.card, 'offending')}:</p>")
        out.append("<table class='hands'>" + "".join(rows) + "</table>")
        out.append(f"<p>The trick so far: {trick or '(the card led it)'}</p>")
        out.append(f"<p>Proving card: {_card_html(f.proving_card, 'proving') if f.proving_card else 'none shown'}"
                   f"{'; provable from the table' if f.public_proof else '; provable only from the hands'}.</p>")
        ruling = f.ruling or "none"
        out.append(f"<p class='ruling-{esc(ruling)}'>Ruling: {esc(ruling)}"
                   f"{(' by ' + esc(f.ruled_by)) if f.ruled_by else ''}"
                   f"{(': ' + esc(f.ruling_reason)) if f.ruling_reason else ''}</p>")
        if f.penalized:
            out.append(f"<p>Final score with this renege penalized: "
                       f"{esc(score_words(v, f.score_if_penalized, g.players))}; without: "
                       f"{esc(score_words(v, g.final_score, g.players))}.</p>")
        else:   # the score "with this one penalized" would be a score no rule gives
            out.append(f"<p>This renege changes no score ({esc(f.status)}). Official score: "
                       f"{esc(score_words(v, g.official_score, g.players))}; as played: "
                       f"{esc(score_words(v, g.final_score, g.players))}.</p>")
    out.append("</div>")
    return "\n".join(out)


_NOTE_FLAG = {"abandoned": "deal-abandoned", "after the game was won": "played-after-game-won"}
"""A deal's note and the flag that already says it (the deals table names it once)."""


def _game_html(g, findings) -> list:
    """The HTML section of one game: its result both ways, every deal, every finding."""
    esc = html.escape
    v = g.final.variant
    t = g.final
    parts = [f"<p class='official'>Official score: {esc(score_words(v, g.official_score, g.players))}; "
             f"official winner: {esc(side_label(v, g.winner, g.players))}.</p>",
             f"<p>As played (no penalties): {esc(score_words(v, g.final_score, g.players))}; "
             f"winner on the cards: {esc(side_label(v, t.as_played_winner, g.players))}.</p>"]
    rows = ["<tr><th>deal</th><th>dealer</th><th>maker</th><th>trump</th><th>points as played</th>"
            "<th>points official</th><th>score as played</th><th>score official</th><th>flags</th></tr>"]
    for d in g.deal_reports():
        rows.append("<tr>" + "".join(f"<td>{esc(str(x))}</td>" for x in (
            d.deal, seat_name(d.dealer, g.players, v.n_seats), seat_name(d.maker, g.players, v.n_seats),
            C.SUIT_NAMES.get(d.trump, "-") if d.trump else "-",
            score_text(d.points_as_played), score_text(d.points_official),
            score_text(d.score_as_played), score_text(d.score_official),
            ", ".join(d.flags + ((d.note,) if d.note and _NOTE_FLAG.get(d.note) not in d.flags else ())))) + "</tr>")
    parts.append("<table class='deals'>" + "".join(rows) + "</table>")
    if not findings:
        parts.append("<p>No findings: every card followed suit.</p>")
    for f in findings:
        parts.append(_finding_html(g, f))
    return parts


def html_report(games: Sequence[tuple], by_deal: Sequence[tuple] = ()) -> str:
    """One self-contained HTML page (no script, no outside file) for the
    ``(game, findings)`` pairs: per game the official and the as-played
    result, every deal, and per finding the deal, the hands at that moment,
    the trick, the card, the proving card, the ruling and the score with
    and without the penalty; then each EGN game audited deal by deal
    (``by_deal``: ``(path, (game, findings, skipped, deal_count))`` as
    :func:`~euchre_events.formats.egn.egn_game_by_deal` returns), its
    impossible deals named and the rest as a game.  Everything from a
    record is escaped."""
    from euchre_events.formats.egn import impossible_words
    esc = html.escape
    parts = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
             "<title>euchre-events audit</title>", f"<style>{_CSS}</style></head><body>",
             "<h1>Renege audit and official result</h1>"]
    for g, findings in games:
        parts.append(f"<h2>{esc(g.title or g.id or 'game')} ({esc(g.variant)})</h2>")
        parts.extend(_game_html(g, findings))
    for path, (g, findings, skipped, deal_count) in by_deal:
        parts.append(f"<h2>{esc(str(path))} (audited deal by deal)</h2>")
        parts.append(f"<p>{len(skipped)} of {deal_count} deals cannot have happened as recorded; "
                     f"they are left out and score nothing.</p>")
        for n, e in skipped:
            parts.append(f"<div class='finding impossible'><p>impossible: deal {n}: "
                         f"{esc(impossible_words(e))}</p></div>")
        parts.extend(_game_html(g, findings))
    parts.append("</body></html>")
    return "\n".join(parts)
