"""The audit as a director reads it (``euchre-events audit --format
{text,json,jsonl,html}``): the findings of :func:`euchre_events.projections.audit`
and the official result of each game, in words, as JSON, and as one
self-contained HTML page for both sides of a dispute (rules.md 1.5, 1.6, 2.7).
:mod:`.auditwriter` writes it out (the JSON encoder, the games of the
OpenSpiel fast path, the report written as the games are audited): the two
modules are the audit report.

Everything taken from a record (player names, titles, annotations) is shown
:func:`~euchre_events.ui.describe.printable` in text and escaped in HTML.
"""
from __future__ import annotations

import html
import re
from typing import Optional, Sequence

from euchre_events.rules import cards as C
from euchre_events.rules.seats import name_seats, side_long
from euchre_events.ui.describe import level_sides, printable, seat_name, side_player_names
from euchre_events.ui.describe import not_read_line, score_words

__all__ = ["side_in_full", "card_words", "lead_words", "findings_summary", "deal_tricks", "game_json", "finding_lines", "game_lines", "by_deal_lines", "html_report", "not_read_line"]


def side_in_full(variant, side: Optional[int], players: Sequence[str]) -> str:
    """A side in full words: ``"North-South"`` / ``"East-West"`` in
    four-seat partnership games (:func:`euchre_events.rules.seats.side_long`,
    with the players' names when known), else the player's seat and name;
    ``"nobody"`` for None, ``"A and B (tied)"`` for a tuple of sides."""
    if side is None:
        return "nobody"
    if isinstance(side, (tuple, list)):
        if len(side) == variant.n_sides == 2:   # both sides level at the end: no winner
            return "nobody: the game is drawn (" + " and ".join(side_in_full(variant, s, players) for s in side) + " level)"
        return " and ".join(side_in_full(variant, s, players) for s in side) + " (tied)"
    n = variant.n_seats
    seats = variant.sides()[side]
    if len(seats) > 1:
        word = side_long(seats, n)
        names = side_player_names(seats, players)
        return f"{word} ({' & '.join(names)})" if names else word
    return seat_name(seats[0], players, n)


def named(text: str, players: Sequence[str], n_seats: int) -> str:
    """``text`` (words from the rules, which name seats by index) with each
    ``seat N`` as the seat's name (``East (Llama)``:
    :func:`~euchre_events.rules.seats.name_seats`), shown printable."""
    return printable(name_seats(text, players, n_seats))


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


# one home for a card in a director's words: rules/cards.py (also read by the claims judge)
card_words = C.card_words


def lead_words(led_card: Optional[str], led_suit: Optional[str], trump: Optional[str]) -> str:
    """``"a clubs lead"``; when the card led is the left bower or the joker,
    which suit it led: ``"a spades lead (J♣ led: the left bower, a spade
    here)"`` (rules.md 1.2: the left bower is a trump, never its printed suit)."""
    suit = C.SUIT_NAMES.get(led_suit, led_suit or "?")
    text = f"a {suit} lead"
    if led_card is not None:
        b = C.base(led_card)
        if b == C.JOKER or (trump in C.SUIT_SINGULAR and b == C.left_bower(trump)):
            words = card_words(led_card, trump)
            text += f" ({C.pretty(led_card)} led: {words[words.index('(') + 1:-1]})"
    return text


def _trick_word(place) -> str:
    return f"trick {place['trick']}" if place and place.get("trick") else "the end of the hand"


def finding_lines(g, f) -> list:
    """The lines a director reads aloud for one finding."""
    v = g.final.variant
    players = g.players
    who = seat_name(f.seat, players, v.n_seats)
    if f.kind == "renege":
        tb = g.table_at(f.position)      # the trick before the card: its lead, the trump
        trump = tb.trump
        lead = lead_words(tb.trick[0][1] if tb.trick else None, f.led_suit, trump)
        held = " ".join(card_words(c, trump) for c in f.evidence)
        card = C.card_name(f.card) if C.is_unknown(f.card) else card_words(f.card, trump)   # "an unknown card"
        parts = [f"{who} reneged at trick {f.trick} of deal {f.deal}, playing {card} "
                 f"on {lead} while holding {held}"]
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
                         + (f"; official score after deal {f.deal}: {score_words(after, v.name, players)}"
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
            f"official score: {score_words(g.official_score, v.name, g.players)}; "
            f"official winner: {side_in_full(v, winner, g.players)}"
            f"{' (the game is not over)' if not t.game_over else ''}{_first_to_target(g, winner)}; "
            f"as played: {score_words(g.final_score, v.name, g.players)}, "
            f"winner {side_in_full(v, t.as_played_winner, g.players)}; {findings_summary(g, findings)}")
    return [head] + ["  " + line for f in findings for line in finding_lines(g, f)]


def findings_summary(g, findings) -> str:
    """The counts a director reads first, each kind apart (rules.md 1.5):
    ``"reneges=1 claims=2 (rejected 1) rulings=1"``, plus ``corrected=N``
    (reneges taken back in time) and ``irregularities=N`` (deals dealt out
    of turn, played after the game was won, ...) when there are any.  A
    claim is counted once however it was judged; a renege once however many
    claims name it."""
    t = g.final
    reneges = sum(1 for f in findings if f.kind == "renege")
    corrected = sum(1 for f in findings if f.kind == "renege-corrected")
    other = sum(1 for f in findings if f.kind not in ("renege", "renege-corrected", "claim-rejected",
                                                      "ruling-without-renege"))
    rejected = sum(1 for c in t.claims if c.verdict != "valid")
    words = [f"reneges={reneges}", f"claims={len(t.claims)}" + (f" (rejected {rejected})" if rejected else ""),
             f"rulings={len(t.rulings)}"]
    if corrected:
        words.append(f"corrected={corrected}")
    if other:
        words.append(f"irregularities={other}")
    return " ".join(words)


def by_deal_lines(path: str, g, findings, skipped, deal_count: int) -> list:
    """The text report of an EGN game audited deal by deal (a record with an
    impossible deal: :func:`~euchre_events.formats.egn.egn_game_by_deal`):
    a heading line with both scores, then each impossible deal and each
    finding in deal order, the findings in the words of :func:`finding_lines`
    (a renege after the hand had stopped says it was not penalized)."""
    from euchre_events.formats.egn import impossible_words
    v = g.final.variant
    score, official = score_words(g.final_score, v.name, g.players), score_words(g.official_score, v.name, g.players)
    head = (f"{printable(path)}: read in part, audited deal by deal ({len(skipped)} impossible "
            f"deal{'' if len(skipped) == 1 else 's'} of {deal_count}); "
            f"official score: {official}; as played: {score}; official winner: "
            f"{side_in_full(g.final.variant, g.winner, g.players)}")
    rows = [(n, 0, f"impossible: deal {n}: {printable(impossible_words(e))}") for n, e in skipped]
    rows += [(f.deal, 1, line) for f in findings for line in finding_lines(g, f)]
    rows.sort(key=lambda r: (r[0], r[1]))   # stable: a deal's own findings keep their order
    return [head] + ["  " + line for _, _, line in rows]


# ------------------------------------------------------------------ HTML

_CSS = """
body{font-family:system-ui,sans-serif;margin:2em;max-width:72em;color:#222;line-height:1.4}
h1{font-size:1.4em} h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
h3{font-size:1.05em;margin:.8em 0 .3em}
table{border-collapse:collapse;margin:.5em 0} td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#f4f4f4}
.official{font-weight:bold} .finding{border:1px solid #bbb;border-radius:6px;padding:.6em 1em;margin:1em 0}
.finding.renege{border-left:6px solid #c33} .finding.claim-rejected{border-left:6px solid #888}
.readaloud{border:2px solid #333;border-radius:6px;padding:.5em 1em;margin:1em 0;background:#fafafa;font-size:1.05em}
.readaloud p{margin:.3em 0} .readaloud b{display:inline-block;min-width:6.5em}
.card{font-family:monospace;font-size:1.05em;white-space:nowrap;padding:0 .1em;border-radius:3px}
.red{color:#c00} .offending{background:#fcc;outline:2px solid #c33} .proving{background:#cfc;outline:2px solid #393}
.held{text-decoration:underline wavy #c33} .claimed{outline:2px dashed #555}
.role{font-size:.75em;color:#555;font-family:system-ui,sans-serif}
.twin{font-size:.7em;vertical-align:super}
tr.differs td{font-weight:600} tr.provable-row td{background:#efe} tr.offence-row td{background:#fee} tr.claimed-row td{background:#eee}
td.note{font-size:.9em;max-width:18em} .led{font-size:.75em;color:#555}
.ruling-upheld{color:#060} .ruling-rejected{color:#900} .why{font-weight:bold}
.legend{font-size:.85em;color:#444}
.tricks td:first-child{text-align:right}
@media print{
  @page{size:auto;margin:12mm}
  body{margin:0;max-width:none;font-size:9.5pt;color:#000}
  h2{break-before:page;margin-top:0} h2:first-of-type{break-before:auto}
  .finding,.readaloud,table.tricks,table.hands{break-inside:avoid}
  *{-webkit-print-color-adjust:exact;print-color-adjust:exact}
  td,th{padding:.15em .3em}
}
"""

_RED_CARD = re.compile("(?:10|[2-9JQKA?])?[\u2665\u2666]")


def _colour(escaped: str) -> str:
    """Escaped text with each red card or suit symbol (``10♥``, ``♦``) in red."""
    return _RED_CARD.sub(lambda m: f'<span class="red">{m.group(0)}</span>', escaped)


def _t(text) -> str:
    """Text from anywhere (records included) as HTML: escaped, red suits in red."""
    return _colour(html.escape(str(text)))


def _card_html(card: Optional[str], cls: str = "", trump: Optional[str] = None) -> str:
    """One card: its printed face (``10♥`` in red), a ``left bower`` or
    ``joker`` note under trump, a small copy number in a double deck, and
    :func:`card_words` as its title; ``data-card`` holds the record's code."""
    if card is None:
        return "?"
    b = C.base(card)
    txt = html.escape(C.pretty(card)) if card != C.UNKNOWN else "??"
    red = " red" if len(b) >= 2 and b[1] in "DH" else ""
    role = ""
    if b == C.JOKER:
        role = " <span class='role'>joker</span>"
    elif trump is not None and b == C.left_bower(trump):
        role = " <span class='role'>left bower</span>"
    twin = f"<span class='twin'>{html.escape(card.split('#', 1)[1])}</span>" if "#" in card else ""
    return (f'<span class="card{red} {cls}" data-card="{html.escape(card)}" '
            f'title="{html.escape(card_words(card, trump))}">{txt}{twin}</span>{role}')


def deal_tricks(g, deal: int) -> list:
    """The play of deal ``deal`` of game ``g``, trick by trick: one dict per
    trick, ``{"trick": n (from 1), "start": event index of its first card,
    "plays": [(seat, card, event index, taken_back card or None), ...] in
    play order, "winner": seat or None (trick not finished), "hands": the
    hands before the trick (a list per seat), "trump", "led_suit"}``
    (rules.md 1.3; a card taken back, rules.md 1.5, shows as the card that
    replaced it, with the one taken back beside)."""
    idx = g.index()
    starts = list(idx.trick_start.get(deal, ()))
    if not starts:
        return []
    later = [k for d, k in idx.deal_start.items() if k > starts[0]]
    end = min(later) if later else len(g.events)
    final = g.table_at(end)
    done = final.tricks if final.deal_no == deal else []
    out = []
    for i, k in enumerate(starts):
        stop = starts[i + 1] if i + 1 < len(starts) else end
        tb = g.table_at(k)
        plays: list = []
        for j in range(k, stop):
            e = g.events[j]
            if e.kind == "CardPlayed" and e.seat is not None:
                plays.append([e.seat, e.card, j, None])
            elif e.kind == "PlayCorrected":
                for pl in plays:
                    if pl[0] == e.seat and pl[1] == e.card:
                        pl[1], pl[3] = e.replacement, e.card
        led = None
        if plays:
            after = g.table_at(plays[0][2] + 1)
            led = after.led_suit or C.effective_suit(plays[0][1], tb.trump)
        out.append({"trick": i + 1, "start": k, "plays": [tuple(p) for p in plays],
                    "winner": done[i][2] if i < len(done) else None,
                    "hands": [list(h) for h in tb.hands], "trump": tb.trump, "led_suit": led})
    return out


def _deal_html(g, deal: int, seat: Optional[int], marks: dict) -> str:
    """Deal ``deal`` trick by trick as a table: each seat's card (the leader
    marked), the trick's winner, ``seat``'s hand before the trick (the cards
    of the suit led it held back underlined) and what happened at that
    trick.  ``marks``: ``offending`` / ``proving`` / ``claimed`` (event
    indices of cards to highlight), ``notes`` ({trick: [words]}),
    ``row`` ({trick: css class of the row})."""
    v = g.final.variant
    n = v.n_seats
    tricks = deal_tricks(g, deal)
    if not tricks:
        return "<p>No card of this deal was played.</p>"
    esc = html.escape
    who = seat_name(seat, g.players, n) if seat is not None else None
    head = ("<tr><th>trick</th>" + "".join(f"<th>{esc(seat_name(s, g.players, n))}</th>" for s in range(n))
            + "<th>won by</th>" + (f"<th>{esc(who)}'s hand before the trick</th>" if who else "")
            + "<th>what happened</th></tr>")
    rows = [head]
    cls_of = {marks.get("offending"): "offending", marks.get("proving"): "proving",
              marks.get("claimed"): "claimed"}
    cls_of.pop(None, None)
    for t in tricks:
        trump, led = t["trump"], t["led_suit"]
        by_seat = {p[0]: p for p in t["plays"]}
        cells = []
        for s in range(n):
            p = by_seat.get(s)
            if p is None:
                cells.append("<td>&mdash;</td>")
                continue
            lead = " <span class='led'>led</span>" if t["plays"][0][0] == s else ""
            back = (f" <span class='role'>(took back {_card_html(p[3], '', trump)})</span>" if p[3] else "")
            cells.append(f"<td>{_card_html(p[1], cls_of.get(p[2], ''), trump)}{lead}{back}</td>")
        won = esc(seat_name(t["winner"], g.players, n)) if t["winner"] is not None else "(not finished)"
        hand = ""
        if who:
            h = t["hands"][seat] if seat < len(t["hands"]) else []
            played = by_seat.get(seat)
            followed = played is not None and led is not None and C.effective_suit(played[1], trump) == led
            held = set() if followed or played is None or t["plays"][0][0] == seat else \
                set(C.cards_of_suit(h, led, trump))
            held |= set(marks.get("evidence", ())) & set(h)   # the renege's evidence, until shown
            hand = "<td>" + (" ".join(_card_html(c, "held" if c in held else "", trump)
                                      for c in C.sort_hand(h, trump)) or "&mdash;") + "</td>"
        note = "; ".join(marks.get("notes", {}).get(t["trick"], ()))
        rc = marks.get("row", {}).get(t["trick"], "")
        rows.append(f"<tr class='{rc}' data-trick='{t['trick']}'><td>{t['trick']}</td>{''.join(cells)}"
                    f"<td>{won}</td>{hand}<td class='note'>{_t(note)}</td></tr>")
    trump = tricks[0]["trump"]
    legend = ("<p class='legend'>Trump: " + (esc(suit_words(trump)) if trump else "none")
              + ". <span class='card offending'>red box</span>: the renege card; "
              "<span class='card proving'>green box</span>: the card that proved it; "
              "<span class='held'>underlined</span>: a card of the suit led that the seat held back"
              + ("; <span class='card claimed'>dashed</span>: the card the claim named" if marks.get("claimed") else "")
              + ".</p>")
    return (f"<h3>Deal {deal}, trick by trick</h3>" + _colour(legend)
            + "<table class='tricks'>" + "".join(rows) + "</table>")


def suit_words(suit: Optional[str]) -> str:
    """``"hearts ♥"`` (``"none"`` for no trump)."""
    return f"{C.SUIT_NAMES[suit]} {C.SUIT_SYMBOLS[suit]}" if suit in C.SUIT_NAMES else "none"


def _hands_html(g, k: int, seat: Optional[int], offending: Optional[str], evidence=()) -> tuple:
    """``(HTML table, Table)``: every hand just before event ``k`` (``seat``'s
    card ``offending`` and the cards of ``evidence`` marked), and the table then."""
    v = g.final.variant
    tb = g.table_at(k)
    rows = []
    for s in range(v.n_seats):
        h = tb.hands[s] if s < len(tb.hands) else []
        cards = " ".join(
            _card_html(c, "offending" if (s == seat and c == offending) else
                       "held" if (s == seat and c in evidence) else "", tb.trump)
            for c in C.sort_hand(list(h), tb.trump)) or "&mdash;"
        rows.append(f"<tr><th>{html.escape(seat_name(s, g.players, v.n_seats))}</th><td>{cards}</td></tr>")
    return "<table class='hands'>" + "".join(rows) + "</table>", tb


def _renege_marks(g, f) -> dict:
    """The highlights and the notes of a renege's deal (:func:`_deal_html`)."""
    v = g.final.variant
    players = g.players
    who = seat_name(f.seat, players, v.n_seats)
    notes: dict = {}
    row: dict = {f.trick: "offence-row"}
    notes.setdefault(f.trick, []).append(f"{who} reneged: played {C.pretty(f.card)} holding "
                                         f"{' '.join(C.pretty(c) for c in f.evidence)}")
    if f.established_at and f.established_at.get("trick"):
        notes.setdefault(f.established_at["trick"], []).append("established (can no longer be taken back)")
    elif f.established == "when the hand ended":
        notes.setdefault(max([f.trick] + list(notes)), []).append("established when the hand ended")
    proving = None
    if f.provable_at and f.provable_at.get("trick"):
        e = g.events[f.provable_at["event"]]
        if e.kind == "CardPlayed":
            proving = f.provable_at["event"]
        t = f.provable_at["trick"]
        row[t] = "provable-row"
        notes.setdefault(t, []).append(f"provable from here: {who} showed "
                                       f"{C.pretty(f.proving_card) if f.proving_card else 'the suit'}")
    if f.claimed_at:
        by = g.events[f.claimed_at["event"]].by
        t = f.claimed_at.get("trick")
        words = f"claimed by {seat_name(by, players, v.n_seats)}"
        notes.setdefault(t or max(notes), []).append(words if t else words + " after the hand")
    return {"offending": f.position, "proving": proving, "notes": notes, "row": row, "evidence": f.evidence}


def _finding_html(g, f) -> str:
    v = g.final.variant
    esc = html.escape
    players = g.players
    kind_word = {"renege": "Renege", "claim-rejected": "Claim rejected", "renege-corrected": "Renege corrected",
                 "ruling-without-renege": "Ruling on no renege of the record"}.get(f.kind, f.kind)
    out = [f'<div class="finding {esc(f.kind)}" data-kind="{esc(f.kind)}" data-deal="{f.deal}">',
           f"<h3>{esc(kind_word)}: deal {f.deal}" + (f", trick {f.trick}" if f.trick else "") + "</h3>",
           f"<p>{_t(' '.join(finding_lines(g, f)))}</p>"]
    if f.kind == "renege":
        hands, tb = _hands_html(g, f.position, f.seat, f.card, f.evidence)
        out.append(f"<p>Deal {f.deal}, trick {f.trick}; trump: {_t(suit_words(tb.trump) if tb.trump else 'none')}. "
                   f"The hands when {esc(seat_name(f.seat, players, v.n_seats))} played "
                   f"{_card_html(f.card, 'offending', tb.trump)}:</p>")
        out.append(hands)
        trick = " ".join(f"{esc(seat_name(s, players, v.n_seats))}: {_card_html(c, '', tb.trump)}" for s, c in tb.trick)
        out.append(f"<p>The trick so far: {trick or '(the card led it)'}</p>")
        out.append(f"<p>Proving card: {_card_html(f.proving_card, 'proving', tb.trump) if f.proving_card else 'none shown'}"
                   f"{'; provable from the table' if f.public_proof else '; provable only from the hands'}.</p>")
        out.append(_deal_html(g, f.deal, f.seat, _renege_marks(g, f)))
        ruling = f.ruling or "none"
        out.append(f"<p class='ruling-{esc(ruling)}'>Ruling: {esc(ruling)}"
                   f"{(' by ' + esc(f.ruled_by)) if f.ruled_by else ''}"
                   f"{(': ' + _t(named(f.ruling_reason, players, v.n_seats))) if f.ruling_reason else ''}</p>")
        if f.penalized:
            out.append(f"<p>Final score with this renege penalized: "
                       f"{esc(score_words(f.score_if_penalized, v.name, players))}; without: "
                       f"{esc(score_words(g.final_score, v.name, players))}.</p>")
        else:   # the score "with this one penalized" would be a score no rule gives
            out.append(f"<p>This renege changes no score ({esc(f.status)}). Official score: "
                       f"{esc(score_words(g.official_score, v.name, players))}; as played: "
                       f"{esc(score_words(g.final_score, v.name, players))}.</p>")
    elif f.kind in ("claim-rejected", "ruling-without-renege", "renege-corrected"):
        accused = f.against if f.kind != "renege-corrected" else f.seat
        reason = f.ruling_reason if f.kind != "renege-corrected" else f.penalty
        if f.kind == "claim-rejected":
            out.append(f"<p class='why'>Why the claim is rejected: {_t(named(reason, players, v.n_seats))}</p>")
        marks: dict = {"notes": {}, "row": {}}
        tricks = deal_tricks(g, f.deal)
        if f.trick and 0 < f.trick <= len(tricks):
            t = tricks[f.trick - 1]
            marks["row"][f.trick] = "claimed-row"
            marks["notes"][f.trick] = [f"the trick the {'claim' if f.kind == 'claim-rejected' else 'ruling'} names"]
            mine = [p for p in t["plays"] if p[0] == accused]
            if mine:
                marks["claimed"] = mine[0][2]
            hands, tb = _hands_html(g, t["start"], accused, None)
            out.append(f"<p>The hands at the start of trick {f.trick} of deal {f.deal} "
                       f"(trump: {_t(suit_words(tb.trump) if tb.trump else 'none')}):</p>" + hands)
        out.append(_deal_html(g, f.deal, accused, marks))
    out.append("</div>")
    return "\n".join(out)


def _read_aloud(g, findings) -> str:
    """The few lines a director reads aloud first: the game, the players, what
    was claimed, the ruling, the official result against the result as played."""
    v = g.final.variant
    t = g.final
    n = v.n_seats
    players = g.players
    if v.partnerships and n == 4:
        who = " against ".join(side_in_full(v, s, players) for s in (0, 1))
    else:
        who = ", ".join(seat_name(s, players, n) for s in range(n))
    claims = [f"{seat_name(c.by, players, n)} claimed that {seat_name(c.against, players, n)} reneged at "
              f"trick {c.trick} of deal {c.deal} (the rules: {'a renege' if c.verdict == 'valid' else 'rejected'})"
              for c in t.claims]
    unclaimed = [f for f in findings if f.kind == "renege" and f.claimed_at is None]
    if unclaimed:
        claims.append(f"unclaimed: {len(unclaimed)} renege{'s' if len(unclaimed) > 1 else ''} the record shows "
                      f"({', '.join(f'deal {f.deal} trick {f.trick}' for f in unclaimed)})")
    rulings = [f"{u.ruling} by {printable(u.by or 'the director')} (the renege by "
               f"{seat_name(u.against, players, n)} at trick {u.trick} of deal {u.deal})"
               + (f": {named(u.reason, players, n)}" if u.reason else "") for u in t.rulings]
    winner = g.winner
    off = f"{score_words(g.official_score, v.name, players)}, winner {side_in_full(v, winner, players)}"
    if not t.game_over:
        off += " (the game is not over)"
    played = f"{score_words(g.final_score, v.name, players)}, winner {side_in_full(v, t.as_played_winner, players)}"
    lines = [("Game", f"{printable(g.title or g.id or 'game')} ({g.variant}, {g.deals} deal"
                      f"{'s' if g.deals != 1 else ''})"),
             ("Players", who),
             ("Claimed", "; ".join(claims) if claims else "no claim was made"),
             ("Ruling", "; ".join(rulings) if rulings else "no director's ruling (the rules judge each claim)"),
             ("Official", off), ("As played", played)]
    return ("<div class='readaloud'>" + "".join(f"<p><b>{html.escape(k)}:</b> {_t(text)}</p>" for k, text in lines)
            + "</div>")


_NOTE_FLAG = {"abandoned": "deal-abandoned", "after the game was won": "played-after-game-won"}
"""A deal's note and the flag that already says it (the deals table names it once)."""


def _game_html(g, findings) -> list:
    """The HTML section of one game: its result both ways, every deal, every finding."""
    esc = html.escape
    v = g.final.variant
    t = g.final
    parts = [_read_aloud(g, findings),
             f"<p class='official'>Official score: {esc(score_words(g.official_score, v.name, g.players))}; "
             f"official winner: {esc(side_in_full(v, g.winner, g.players))}.</p>",
             f"<p>As played (no penalties): {esc(score_words(g.final_score, v.name, g.players))}; "
             f"winner on the cards: {esc(side_in_full(v, t.as_played_winner, g.players))}.</p>"]
    rows = ["<tr><th>deal</th><th>dealer</th><th>maker</th><th>trump</th><th>points as played</th>"
            "<th>points official</th><th>score as played</th><th>score official</th><th>flags</th></tr>"]
    for d in g.deal_reports():
        # points and scores in the one way every command writes them (N/S 2, E/W 0)
        cells = [str(d.deal), seat_name(d.dealer, g.players, v.n_seats), seat_name(d.maker, g.players, v.n_seats),
                 suit_words(d.trump) if d.trump else "-",
                 score_words(d.points_as_played, v.name, g.players), score_words(d.points_official, v.name, g.players),
                 score_words(d.score_as_played, v.name, g.players), score_words(d.score_official, v.name, g.players),
                 ", ".join(d.flags + ((d.note,) if d.note and _NOTE_FLAG.get(d.note) not in d.flags else ()))]
        differs = tuple(d.points_as_played) != tuple(d.points_official)
        rows.append(f"<tr{' class=differs' if differs else ''}>" + "".join(f"<td>{_t(x)}</td>" for x in cells) + "</tr>")
    parts.append("<table class='deals'>" + "".join(rows) + "</table>")
    if not findings:
        parts.append("<p>No findings: every card followed suit.</p>")
    for f in findings:
        parts.append(_finding_html(g, f))
    return parts


def html_report(games: Sequence[tuple], by_deal: Sequence[tuple] = (), errors: Sequence[dict] = ()) -> str:
    """One self-contained HTML page (no script, no outside file) for the
    ``(game, findings)`` pairs: per game the official and the as-played
    result, every deal, and per finding the deal, the hands at that moment,
    the trick, the card, the proving card, the ruling and the score with
    and without the penalty; then each EGN game audited deal by deal
    (``by_deal``: ``(path, (game, findings, skipped, deal_count))`` as
    :func:`~euchre_events.formats.egn.egn_game_by_deal` returns), its
    impossible deals named and the rest as a game.  ``errors``
    (``{"file", "error"}``: the inputs that could not be read, or not
    whole) come first, under "Not read", so a reader of the page later sees
    a game is missing; no section when there are none.  Everything from a
    record is escaped."""
    from euchre_events.formats.egn import impossible_words
    esc = html.escape
    parts = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
             "<title>euchre-events audit</title>", f"<style>{_CSS}</style></head><body>",
             "<h1>Renege audit and official result</h1>",
             "<p class='legend'>For each game: the lines to read aloud, the result both ways, every deal, "
             "then each finding with its deal trick by trick.</p>"]
    if errors:
        parts.append("<h2>Read in part</h2>" if all(e.get("partial") for e in errors) else
                     "<h2>Not read, or read in part</h2>" if any(e.get("partial") for e in errors) else
                     "<h2>Not read</h2>")
        parts.extend(f"<div class='finding not-read'><p>{esc(not_read_line(e))}</p></div>" for e in errors)
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
