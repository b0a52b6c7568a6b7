"""Drawing cards, hands and the table as HTML (and a card as SVG).

Everything here is a pure function from values to markup: no I/O, no widgets.
The replay viewer (:mod:`euchre_events.widgets`), the static export
(:mod:`euchre_events.htmlexport`) and Jupyter's rich display
(``Card._repr_html_``, ``TableState._repr_html_``) all draw with it.

Stable CSS classes (tests and style sheets rely on them):

* ``ee-card`` on every card, plus ``ee-red``/``ee-black`` for the suit colour,
  ``ee-back`` (face down: the chosen seat cannot know it), ``ee-unknown``
  (``"??"``, a card the record does not state); ``data-card`` holds the card
  code (``"hidden"`` for a back);
* ``ee-table``: the table drawing; ``ee-seat-N``: a seat's box;
  ``ee-hand-0`` .. ``ee-hand-3``: a seat's hand;
* ``ee-legal``: a card (or call, ``ee-call``) the seat on turn may play now
  (rules.md 1.3 with the effective suit of 1.2);
* ``ee-renege``: a card played in breach of follow-suit (rules.md 1.5), drawn
  where it was played, and in the offender's hand just before it is played;
  ``ee-evidence``: a led-suit card the offender held back; ``ee-proof``: the
  play that showed that card to the table;
* ``ee-trick-cards``: the current trick (each card at its seat's side, the
  leader marked ``ee-leader``); until the next card is led, the trick just
  finished stays there (``ee-finished``; its cards and their cells
  ``ee-done``, the winning card ``ee-winner``, who won and why in
  ``ee-trick-reason``);
  ``ee-last-trick``: the box of the last trick gathered (its cards and
  winner in ``ee-last-trick-body``; ``ee-last`` is the viewer's "last"
  button only);
* ``ee-score``: points per side and tricks taken in this deal;
* ``ee-info`` (deal, dealer, up-card and its fate in words, ``ee-upcard``
  (:func:`up_card_words`), kitty (in two-handed the cards nobody receives,
  ``ee-undealt``: "13 cards not dealt"), trump, maker, alone; the
  face-down cards ``ee-kitty``, ``ee-dummy``, ``ee-ghost``, ``ee-dead`` (the
  hand a ghost swapper gave up), ``ee-discard`` (one row per seat) and
  ``ee-passed`` (partner's best), face up only for those who saw them),
  ``ee-act`` (who is to act, the legal calls or the reason in words, renege
  notes ``ee-renege-note``), ``ee-turn`` (the seat on turn).

* ``ee-maybe``: in a seat view, a card another seat *may* hold (the up-card
  the dealer picked up, once the dealer has discarded face down);
* ``ee-knowledge`` (the seat view's readout, below the table): ``ee-voids``
  (the voids the other seats have shown, ``ee-void-false`` on one the seat
  knows to be false: a renege), ``ee-cards-out`` (the cards this seat has
  not seen, per suit), ``ee-master`` (the highest card left in each suit);
  each suit entry carries ``data-suit``.

Seat views: ``seat=None`` shows every hand face up; ``seat=s`` shows what seat
``s`` could know at that moment, and nothing else: the drawing takes it from
:mod:`euchre_events.projections.seat` (a
:class:`~euchre_events.projections.seat.SeatKnowledge`): its own hand, every
card played, the up-card (and the dealer's copy of it while the dealer holds
it), its own discards, the cards passed to it, the dummy or ghost hand once it
took it; other hands, the kitty, the dummy, the ghost hand and other seats'
discards face down.
"""
from __future__ import annotations

import html
from functools import lru_cache
from typing import Iterable, Optional, Sequence

from euchre_events.projections.seat import knowledge_of_state
from euchre_events.rules import cards as C
# the seat names are the table of rules.seats (SEAT_*_4 re-exported for older callers)
from euchre_events.rules.seats import SEAT_LETTERS_4, SEAT_WORDS_4, name_seats, seat_letter, seat_word, side_short  # noqa: F401
from euchre_events.ui.describe import sides_of

__all__ = [
    "BADGE_CSS", "QUIZ_FEEDBACK_CSS", "esc_words",
    "CSS", "card_html", "card_svg", "hand_html", "state_html", "table_parts",
    "seat_label", "side_names", "legal_cards_of", "POSITIONS", "knowledge_html", "trick_reason",
    "up_card_words",
]

POSITIONS = {
    4: ("top", "right", "bottom", "left"),
    3: ("top", "right", "left"),
    2: ("top", "bottom"),
}
"""Where each seat sits on the drawing, by number of seats (clockwise from the top)."""

GRID_AREAS = '"score top info" "left trick right" "last bottom act"'

CSS = """
.ee-root{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:14px;color:#111}
.ee-card{display:inline-flex;flex-direction:column;align-items:flex-start;justify-content:space-between;
 width:36px;height:52px;margin:2px;padding:3px 4px;box-sizing:border-box;border:1px solid #777;
 border-radius:5px;background:#fff;font-weight:700;line-height:1;vertical-align:middle;
 box-shadow:0 1px 2px rgba(0,0,0,.35);font-family:Georgia,"DejaVu Serif",serif;position:relative}
.ee-card .ee-r{font-size:16px}
.ee-card .ee-s{font-size:22px;align-self:flex-end}
.ee-card .ee-copy{position:absolute;right:2px;top:2px;font-size:9px;color:#555}
.ee-red{color:#c40018}
.ee-black{color:#111}
.ee-back{background:repeating-linear-gradient(45deg,#24467f 0 4px,#3a64ad 4px 8px);border-color:#1b3563}
.ee-unknown{background:#e9e9e9;color:#666;align-items:center;justify-content:center;font-size:18px}
.ee-legal{outline:3px solid #35d06a;outline-offset:0;transform:translateY(-5px)}
.ee-renege{outline:3px solid #ff2b2b;background:#ffe3e3}
.ee-evidence{outline:3px dashed #ff2b2b}
.ee-proof{outline:3px dotted #ffb000}
.ee-small .ee-card{width:28px;height:40px;padding:2px 3px}
.ee-small .ee-card .ee-r{font-size:13px}
.ee-small .ee-card .ee-s{font-size:16px}
.ee-table{display:grid;grid-template-areas:"score top info" "left trick right" "last bottom act";
 grid-template-columns:minmax(190px,1fr) minmax(230px,1.2fr) minmax(190px,1fr);gap:8px;
 background:#0b6b3a;color:#fff;padding:10px;border-radius:12px;max-width:900px;box-sizing:border-box}
.ee-table .ee-seat,.ee-table .ee-box{background:rgba(0,0,0,.2);border-radius:8px;padding:5px 7px;min-height:40px}
.ee-seat-head{font-size:13px;margin-bottom:2px}
.ee-seat-name{font-weight:700}
.ee-player{opacity:.85}
.ee-badge{display:inline-block;font-size:11px;padding:0 5px;margin-left:3px;border-radius:8px;background:#e8e8e8;color:#111}
.ee-badge.ee-dealer-badge{background:#ffe082}
.ee-badge.ee-maker-badge{background:#90caf9}
.ee-badge.ee-alone-badge{background:#ce93d8}
.ee-badge.ee-out-badge{background:#9e9e9e}
.ee-badge.ee-turn-badge{background:#ffd54a;font-weight:700}
.ee-badge.ee-renege-badge{background:#ff5252;color:#fff}
.ee-seat.ee-turn,.ee-turn{box-shadow:0 0 0 2px #ffd54a}
.ee-hand{min-height:56px;padding-top:5px}
.ee-out .ee-card,.ee-hand.ee-out .ee-card{opacity:.45}
.ee-trick-grid{display:grid;grid-template-areas:". top ." "left mid right" ". bottom .";
 grid-template-columns:1fr 1fr 1fr;justify-items:center;align-items:center;min-height:150px}
.ee-trick-grid .ee-played{text-align:center;font-size:11px}
.ee-leader .ee-card{box-shadow:0 0 0 2px #ffd54a}
.ee-card.ee-done{opacity:.8}
.ee-card.ee-done.ee-winner{opacity:1;outline:3px solid #ffd54a;outline-offset:1px}
.ee-winner>div{font-weight:700}
.ee-trick-grid.ee-finished{grid-template-areas:". top ." "left mid right" ". bottom ." "why why why"}
.ee-trick-reason{font-size:12px;font-weight:600;text-align:center;padding:2px 4px 0;justify-self:stretch}
.ee-mid{font-size:12px;text-align:center;opacity:.9}
.ee-trump{font-size:22px;vertical-align:middle}
.ee-score table{border-collapse:collapse;color:inherit}
.ee-score td{padding:1px 6px 1px 0}
.ee-points{font-size:20px;font-weight:700}
.ee-act .ee-reason{font-style:italic}
.ee-call{display:inline-block;margin:2px;padding:1px 6px;border-radius:6px;background:#fff;color:#111;font-size:12px}
.ee-call.ee-legal{outline:2px solid #35d06a;transform:none}
.ee-renege-note{margin-top:4px;padding:3px 5px;background:#7a0010;border-radius:5px;font-size:12px}
.ee-info div,.ee-act div{margin:1px 0}
.ee-why-unknown{display:block;font-size:11px;line-height:1.2;opacity:.9}
.ee-maybe{outline:2px dashed #ffd54a;outline-offset:-1px}
.ee-knowledge{max-width:900px;box-sizing:border-box;margin-top:6px;padding:4px 9px 5px;border:1px solid #b9cbbf;
 border-radius:8px;background:#f3f7f4;color:#111;font-size:13px;line-height:1.55}
.ee-knowledge .ee-k-head{font-size:11px;font-weight:700;color:#0b6b3a;text-transform:uppercase;letter-spacing:.04em}
.ee-knowledge .ee-k-label{display:inline-block;min-width:6.2em;color:#555;font-size:12px}
.ee-knowledge .ee-out-suit,.ee-knowledge .ee-master-suit,.ee-knowledge .ee-void-seat{display:inline-block;
 margin-right:12px;white-space:nowrap}
.ee-knowledge .ee-suit-sym{font-size:15px}
.ee-knowledge .ee-out-suit,.ee-knowledge .ee-master-suit{font-weight:600}
.ee-knowledge .ee-out-suit b{font-weight:400;color:#555}
.ee-knowledge .ee-void{margin-left:2px}
.ee-knowledge .ee-void-false{text-decoration:line-through;opacity:.55}
.ee-knowledge .ee-mine{background:#fff0b3;border-radius:4px;padding:0 4px}
.ee-knowledge .ee-none{color:#777}
"""
"""The style sheet for every class above (included once per drawing)."""


# ------------------------------------------------------------------ cards

def _esc(text) -> str:
    return html.escape(str(text), quote=True)


def esc_words(text) -> str:
    """``text`` escaped for an element's content (never an attribute), the
    joker's glyph (U+1F0CF) wrapped in ``<span class="ee-joker-glyph">``:
    the fonts here draw it as a small boxed star, hard to tell in a
    sentence of feedback (rules.md 7: the Bid variants' joker)."""
    return _esc(text).replace("\U0001F0CF", '<span class="ee-joker-glyph">\U0001F0CF</span>')


def _card_title(card: str) -> str:
    b = C.base(card)
    name = C.card_name(b)
    if b != card:
        name += f" (copy {card.split('#', 1)[1]})"
    return name


def _card(card: Optional[str], classes: Iterable[str] = (), face_down: bool = False,
          title: Optional[str] = None) -> str:
    """One card as a ``<span class="ee-card ...">`` without any style sheet."""
    cls = ["ee-card"] + [c for c in classes if c]
    if face_down or card is None:
        cls.append("ee-back")
        return f'<span class="{" ".join(cls)}" data-card="hidden" title="face down"></span>'
    if card == C.UNKNOWN:
        cls.append("ee-unknown")
        t = title or "a card the record does not state"
        return f'<span class="{" ".join(cls)}" data-card="??" title="{_esc(t)}">?</span>'
    b = C.base(card)
    if b == C.JOKER:
        cls.append("ee-black")
        t = title or "the joker"
        return (f'<span class="{" ".join(cls)}" data-card="{_esc(card)}" title="{_esc(t)}">'
                f'<span class="ee-r">Jo</span><span class="ee-s">\u2605</span></span>')
    suit = C.suit_of(b)
    cls.append("ee-red" if suit in C.RED_SUITS else "ee-black")
    rank = "10" if b[0] == "T" else b[0]
    copy = f'<span class="ee-copy">{_esc(card.split("#", 1)[1])}</span>' if "#" in card else ""
    t = title or _card_title(card)
    return (f'<span class="{" ".join(cls)}" data-card="{_esc(card)}" title="{_esc(t)}">'
            f'<span class="ee-r">{rank}</span>{copy}<span class="ee-s">{C.SUIT_SYMBOLS[suit]}</span></span>')


def card_html(card: str) -> str:
    """A card drawn as a card: rank and suit symbol, red or black.

    ``card``: a card code (``"JD"``, ``"TH"``, ``"JK"``, ``"JS#2"``, ``"??"``).
    Returns a self-contained HTML fragment (style sheet included), as used by
    ``Card._repr_html_``.  Raises :class:`~euchre_events.cards.CardError` for
    text that is not a card.
    """
    code = C.parse_card(card)
    return f'<style>{CSS}</style><span class="ee-root">{_card(code)}</span>'


def card_svg(card: str, width: int = 60) -> str:
    """A card as a standalone SVG image (``width`` pixels wide, ratio 5:7).

    Raises :class:`~euchre_events.cards.CardError` for text that is not a card.
    """
    code = C.parse_card(card)
    h = round(width * 7 / 5)
    b = C.base(code)
    if code == C.UNKNOWN:
        rank, sym, colour = "?", "", "#666"
    elif b == C.JOKER:
        rank, sym, colour = "Jo", "\u2605", "#111"
    else:
        rank = "10" if b[0] == "T" else b[0]
        sym = C.SUIT_SYMBOLS[b[1]]
        colour = "#c40018" if b[1] in C.RED_SUITS else "#111"
    fs = width * 0.3
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h}" '
            f'viewBox="0 0 {width} {h}"><title>{_esc(_card_title(code) if code != C.UNKNOWN else "unknown card")}</title>'
            f'<rect x="1" y="1" width="{width - 2}" height="{h - 2}" rx="{width * 0.1:.1f}" '
            f'fill="#fff" stroke="#777"/>'
            f'<text x="{width * 0.1:.1f}" y="{fs * 1.1:.1f}" font-size="{fs:.1f}" font-family="Georgia,serif" '
            f'font-weight="bold" fill="{colour}">{_esc(rank)}</text>'
            f'<text x="{width / 2:.1f}" y="{h * 0.72:.1f}" font-size="{width * 0.5:.1f}" text-anchor="middle" '
            f'fill="{colour}">{sym}</text></svg>')


def hand_html(cards: Sequence[str], trump: Optional[str] = None, legal: Iterable[str] = (),
              sort: bool = True) -> str:
    """A row of cards (style sheet included), e.g. for a tutorial exercise.

    ``cards``: card codes; ``trump``: suit letter or None, used to group the
    hand by effective suit (rules.md 1.2) when ``sort``; ``legal``: cards to
    mark ``ee-legal``.
    """
    lg = set(legal)
    shown = C.sort_hand(cards, trump) if sort else list(cards)
    inner = "".join(_card(c, ["ee-legal" if c in lg else ""]) for c in shown)
    return f'<style>{CSS}</style><span class="ee-root ee-hand">{inner}</span>'


# ------------------------------------------------------------------ seats and sides

def seat_label(seat: Optional[int], n_seats: int = 4, short: bool = False) -> str:
    """``"North"``/``"N"`` for seat 0 of four, ``"P2"`` for seat 1 of three; ``"-"`` for None."""
    if seat is None:
        return "-"
    return seat_letter(seat, n_seats) if short else seat_word(seat, n_seats)


@lru_cache(maxsize=32)
def _variant(name: str):
    from euchre_events.rules.registry import make_variant
    return make_variant(name)


def _sides(state) -> list:
    """Seats of each side: ``[[0, 2], [1, 3]]`` in partnership games
    (:func:`euchre_events.ui.describe.sides_of`: one side per seat for an
    unknown variant)."""
    return sides_of(state.variant, len(state.players))


def side_names(state) -> list:
    """Names of the sides in score order: ``["N/S", "E/W"]`` for four seats in
    two partnerships, else the seat labels (``"P1"`` ...)."""
    n = len(state.players)
    out = []
    for seats in _sides(state):
        out.append(side_short(seats, n) or "-")
    return out


def legal_cards_of(state) -> tuple:
    """Cards the seat on turn may play or discard now (from ``state.legal``)."""
    return tuple(e.card for e in state.legal if hasattr(e, "card") and getattr(e, "seat", None) == state.turn)


def _describe(ev, players, dealer=None) -> str:
    try:
        from euchre_events.ui.describe import describe_event
        return describe_event(ev, players, dealer)
    except Exception:  # pragma: no cover - describe is the lead's module
        fields = {k: v for k, v in ev.to_dict().items() if k != "type"}
        return f"{ev.kind} {fields}"


def _call_words(ev, players, dealer=None) -> str:
    """An auction action without the seat's name: ``"orders it up"``."""
    text = _describe(ev, players, dealer)
    seat = getattr(ev, "seat", None)
    if seat is not None:
        from euchre_events.ui.describe import seat_name
        who = seat_name(seat, players, len(players))
        if text.startswith(who + " "):
            return text[len(who) + 1:]
    return text


# ------------------------------------------------------------------ the table in parts

def _renege_sets(state, findings: Sequence = ()):
    """Positions and cards of reneges, evidence and proofs in the shown deal."""
    here = [r for r in state.reneges if r.deal == state.deal
            and getattr(r, "corrected_at", None) is None]  # a corrected card is no renege (rules.md 1.5)
    by_trick = {(r.trick, r.seat): r for r in here}
    proofs = {}
    for f in findings or ():
        if getattr(f, "kind", "") == "renege" and f.deal == state.deal and f.proven:
            if f.proven["position"] < state.position:
                proofs[(f.proven["trick"], f.seat)] = f
    return here, by_trick, proofs


def _renege_visible(r, know) -> bool:
    """Whether the view may know of a renege yet: the all-hands view
    (``know`` None) always; a seat as its knowledge says (the offender, or
    every seat once the table has seen a card of the suit held back)."""
    return know is None or r.position in know.reneges_known


def _first_lead(state) -> bool:
    """True just before the first card of a deal: who is on turn is who leads."""
    return state.phase == "play" and not state.trick and not state.tricks


def _seat_head(state, s: int, n: int, here_reneges, know=None, hide: bool = False) -> str:
    p = state.players
    name = seat_label(s, n)
    player = p[s] if s < len(p) else ""
    badges = []
    if state.dealer == s:
        badges.append('<span class="ee-badge ee-dealer-badge">dealer</span>')
    if state.maker == s:
        badges.append('<span class="ee-badge ee-maker-badge">maker</span>')
    if state.alone == s:
        badges.append('<span class="ee-badge ee-alone-badge">alone</span>')
    if state.lone_defender == s:
        badges.append('<span class="ee-badge ee-alone-badge">defends alone</span>')
    if s in state.sitting_out:
        badges.append('<span class="ee-badge ee-out-badge">sits out</span>')
    if state.turn == s and not hide:
        badges.append('<span class="ee-badge ee-turn-badge">to act</span>')
    for r in here_reneges:
        if r.seat == s and r.position < state.position and _renege_visible(r, know):
            badges.append(f'<span class="ee-badge ee-renege-badge">renege, trick {r.trick}</span>')
    won = state.tricks_won[s] if s < len(state.tricks_won) else 0
    if hide and _trick_finished(state):   # the count would name the winner of the trick asked about
        won = state.tricks_won[s] - (1 if state.tricks[-1][2] == s else 0) if s < len(state.tricks_won) else 0
    tricks = (f'<span class="ee-badge ee-tricks" data-tricks="{won}">{won} trick{"s" if won != 1 else ""}</span>'
              if state.phase not in ("start", "deal", "dealing") and state.deal else "")
    shown = player and player not in (name, seat_label(s, n, short=True))
    pl = f' <span class="ee-player">{_esc(player)}</span>' if shown else ""
    return f'<span class="ee-seat-name">{_esc(name)}</span>{pl} {"".join(badges)} {tricks}'


def _held_title(state, know, s: int, card: str) -> str:
    """Why a seat's view shows a card of another seat's hand."""
    if card in know.may_hold.get(s, ()):
        return f"{_card_title(card)}: the up-card the dealer picked up (the face-down discard may have been it)"
    if s == state.dealer and card == state.up_card:
        return f"{_card_title(card)}: the up-card the dealer picked up"
    return f"{_card_title(card)}: known to be in this hand"


def _hand_inner(state, s: int, know=None, next_event=None, here_reneges=(), hide: bool = False) -> str:
    hand = list(state.hands[s]) if s < len(state.hands) else []
    mine = know is None or know.seat == s
    out_cls = "ee-out" if s in state.sitting_out else ""
    if not mine:
        # what this seat knows of another hand (the seat projection): known cards, then backs
        shown = know.hands[s] if s < len(know.hands) else ()
        maybe = set(know.may_hold.get(s, ()))
        return "".join(_card(c, [out_cls, "ee-maybe" if c in maybe else ""], face_down=c is None,
                             title=_held_title(state, know, s, c) if c else None) for c in shown)
    legal = set(legal_cards_of(state)) if state.turn == s and not hide else set()
    evidence = set()
    for r in here_reneges:
        if r.seat == s and r.position < state.position:
            evidence |= set(r.evidence)
    renege_next = None
    if (not hide and next_event is not None and next_event.kind == "CardPlayed" and next_event.seat == s
            and state.phase == "play" and state.turn == s and next_event.card != C.UNKNOWN
            and legal and next_event.card not in legal and next_event.card in hand):
        renege_next = next_event.card
    parts = []
    # before an exercise's answer, natural suits: sorted by trump the left bower would sit
    # among the trumps and answer "which cards may be played" (issue 22)
    for c in C.sort_hand(hand, None if hide else state.trump):
        cls = [out_cls]
        if c in legal:
            cls.append("ee-legal")
        if c == renege_next:
            cls.append("ee-renege")
            cls.append("ee-next-play")
        if c in evidence:
            cls.append("ee-evidence")
        title = None
        if c == renege_next:
            title = f"{_card_title(c)}: played next, a renege ({state.legal_reason})"
        elif c in evidence:
            title = f"{_card_title(c)}: held back when this seat reneged"
        parts.append(_card(c, cls, title=title))
    return "".join(parts)


def _played_card(state, s: int, card: str, trick_no: int, by_trick, proofs, extra=()) -> str:
    cls = list(extra)
    title = None
    r = by_trick.get((trick_no, s))
    if r is not None and r.card == card:
        cls.append("ee-renege")
        title = (f"{_card_title(card)}: a renege; {C.SUIT_NAMES.get(r.led_suit, 'the led suit')} were led "
                 f"and this seat held {', '.join(C.pretty(e) for e in r.evidence)}")
    f = proofs.get((trick_no, s))
    if f is not None and f.proven["card"] == card:
        cls.append("ee-proof")
        title = f"{_card_title(card)}: shows the renege of trick {f.trick}"
    return _card(card, cls, title=title)


def _trick_finished(state) -> bool:
    """True when the middle shows the trick just finished (until the next lead)."""
    return bool(not state.trick and state.tricks and state.phase in ("play", "deal_over", "game_over"))


def _deal_scored(state) -> bool:
    return bool(state.deal_results and state.deal_results[-1][0] == state.deal)


def _trick_inner(state, n: int, by_trick, proofs, hide: bool = False) -> str:
    if _trick_finished(state):
        # a finished trick stays on the table until the next card is led
        return _finished_inner(state, n, by_trick, proofs, hide)
    pos = POSITIONS.get(n, POSITIONS[4])
    trick_no = len(state.tricks) + 1
    cells = []
    for i, (s, card) in enumerate(state.trick):
        area = pos[s] if s < len(pos) else "mid"
        lead = " ee-leader" if i == 0 else ""
        label = seat_label(s, n, short=True) + (" led" if i == 0 else "")
        cells.append(f'<div class="ee-played{lead}" style="grid-area:{area}" data-seat="{s}" data-order="{i}">'
                     f'{_played_card(state, s, card, trick_no, by_trick, proofs)}<div>{_esc(label)}</div></div>')
    mid = ""
    if state.phase == "play":
        if state.trick:
            mid = f"trick {trick_no}, led by {seat_label(state.trick[0][0], n)}"
        elif hide and not state.tricks:
            mid = f"trick {trick_no}: who leads?"
        elif state.leader is not None:
            mid = f"trick {trick_no}: {seat_label(state.leader, n)} to lead"
    elif state.deal:
        mid = {"round1": "bidding, round 1", "round2": "bidding, round 2", "pickup": "ordered up: the dealer's turn",
               "discard": "the dealer discards", "deal_over": "deal over", "game_over": "game over",
               "thrown_in": "everyone passed", "trump": "naming trump"}.get(state.phase, state.phase)
        if hide and state.phase in ("pickup", "discard"):
            mid = "trump ordered up"     # who takes the card, and whether they must, may be the question
    cells.append(f'<div class="ee-mid" style="grid-area:mid">{_esc(mid)}</div>')
    lead = "" if state.leader is None or hide else state.leader
    return f'<div class="ee-trick-grid" data-trick="{trick_no}" data-leader="{lead}">{"".join(cells)}</div>'


def trick_reason(cards: Sequence[str], trump: Optional[str], winner: Optional[int] = None) -> str:
    """Why the winning card of a finished trick wins, in a teacher's words
    (rules.md 1.1-1.3: trumps beat the led suit, bowers, identical twins),
    e.g. ``"J\u2660 is the left bower: a trump, beats A\u2663"``.

    ``cards``: the trick's card codes in play order (leader first);
    ``trump``: suit letter or None (no-trump); ``winner``: index (0 = leader)
    of the card the record's table says won.  The words come from the rules'
    own trick ranking (:func:`euchre_events.rules.cards.rank_trick`, led suit
    from the first card, high no-trump, first twin wins); when that ranking
    names another winner (low no-trump, a joker led with a named suit, the
    last-twin option) or a card is unknown (``"??"``), the answer is ``""``
    rather than words that would explain another card.  Never raises.
    """
    try:
        r = C.rank_trick(cards, trump)
    except (KeyError, IndexError, ValueError):
        return ""
    w = r.winner
    if winner is not None and winner != w:
        return ""
    p = [C.pretty(C.base(c)) for c in cards]
    role = r.roles[w]
    rest = [i for i in r.ranked() if i != w and i not in r.twins]
    runner = rest[0] if rest else None
    beats = f", beats {p[runner]}" if runner is not None else ""
    b = C.base(cards[w])
    if role == C.TrickRole.TOP:
        words = "the joker: at no-trump it beats every card"
    elif role == C.TrickRole.TRUMP:
        suit = C.SUIT_SINGULAR[trump]
        if b == C.JOKER:
            words = "the joker is the highest trump"
        elif b == C.right_bower(trump):
            words = f"{p[w]} is the right bower, the highest {suit}"
        elif b == C.left_bower(trump):
            words = f"{p[w]} is the left bower: a {suit} here{beats}"
        elif r.led_suit == trump:
            words = f"{p[w]} is the highest {suit} played{beats}"
        elif runner is not None and r.roles[runner] == C.TrickRole.TRUMP:
            words = f"{p[w]} is the highest trump played{beats}"
        else:
            words = f"{p[w]} is a trump ({suit}s){beats}"
    else:
        led = C.SUIT_NAMES.get(r.led_suit, "the suit led")
        words = f"{p[w]} is the highest of the suit led ({led}){beats}"
        if trump is not None:
            words += "; no trump was played"
    if r.twins:
        words += f"; of the identical {p[w]}, the one played first wins"
    return words


def _finished_inner(state, n: int, by_trick, proofs, hide: bool = False) -> str:
    """The trick just finished, left in the middle until the next lead
    (``ee-finished``): each card at its seat (``ee-done``), the winner's card
    ``ee-winner``, and in words who won it and why (:func:`trick_reason`)."""
    pos = POSITIONS.get(n, POSITIONS[4])
    leader, plays, winner = state.tricks[-1]
    k = len(state.tricks)
    seats = [s for s, _ in plays]
    cells = []
    for i, (s, card) in enumerate(plays):
        area = pos[s] if s < len(pos) else "mid"
        won = s == winner and not hide
        label = seat_label(s, n, short=True) + (" led" if i == 0 else "") + (", won" if won else "")
        cells.append(f'<div class="ee-played ee-done{" ee-winner" if won else ""}" style="grid-area:{area}" '
                     f'data-seat="{s}" data-order="{i}">'
                     f'{_played_card(state, s, card, k, by_trick, proofs, ("ee-done", "ee-winner") if won else ("ee-done",))}'
                     f'<div>{_esc(label)}</div></div>')
    if hide:   # an exercise asks who wins it: the cards only, until the learner has answered
        cells.append(f'<div class="ee-mid" style="grid-area:mid">trick {k}:<br>who wins it?</div>')
        return (f'<div class="ee-trick-grid ee-finished ee-hidden-answer" data-trick="{k}" '
                f'data-finished="{k}">{"".join(cells)}</div>')
    why = trick_reason([c for _, c in plays], state.trump, seats.index(winner) if winner in seats else None)
    text = f"trick {k} won by {seat_label(winner, n)}" + (f": {why}" if why else "")
    if state.phase == "play" and state.leader is not None:
        text += f". {seat_label(state.leader, n)} leads next"
    # the centre says who won; the reason runs the width of the box below the cards
    cells.append(f'<div class="ee-mid" style="grid-area:mid">trick {k}:<br>{_esc(seat_label(winner, n))}</div>')
    cells.append(f'<div class="ee-trick-reason" style="grid-area:why">{_esc(text)}</div>')
    return (f'<div class="ee-trick-grid ee-finished" data-trick="{len(state.tricks) + 1}" '
            f'data-finished="{k}" data-winner="{winner}" '
            f'data-leader="{"" if state.leader is None else state.leader}">{"".join(cells)}</div>')


def _last_inner(state, n: int, by_trick, proofs, hide: bool = False) -> str:
    if hide and _trick_finished(state):
        # the trick in the middle is the question: the box would name its winner
        state_tricks = state.tricks[:-1]
        if not state_tricks:
            return '<div class="ee-last-trick-body ee-small"><div>no trick gathered yet</div></div>'
        leader, plays, winner = state_tricks[-1]
        k = len(state_tricks)
        cards = "".join(_played_card(state, s, c, k, by_trick, proofs) for s, c in plays)
        return (f'<div class="ee-last-trick-body ee-small" data-winner="{winner}" data-trick="{k}">'
                f'<div>trick {k}, won by {_esc(seat_label(winner, n))}</div>{cards}</div>')
    if not state.tricks:
        return '<div class="ee-last-trick-body ee-small"><div>no trick gathered yet</div></div>' if state.deal else ""
    leader, plays, winner = state.tricks[-1]
    k = len(state.tricks)
    cards = "".join(_played_card(state, s, c, k, by_trick, proofs) for s, c in plays)
    order = " ".join(seat_label(s, n, short=True) for s, _ in plays)
    return (f'<div class="ee-last-trick-body ee-small" data-winner="{winner}" data-trick="{k}">'
            f'<div>trick {k} ({_esc(order)}), won by {_esc(seat_label(winner, n))}</div>{cards}</div>')


def _info_inner(state, know=None, hide: bool = False) -> str:
    n = len(state.players)
    if not state.variant:
        return "<div>no game yet</div>"
    rows = [f'<div>{_esc(state.variant)} euchre' + (f', deal {state.deal}' if state.deal else "") + "</div>"]
    if state.dealer is not None:
        rows.append(f"<div>dealer: {_esc(seat_label(state.dealer, n))}</div>")
    if state.up_card is not None and state.deal:
        rows.append(f'<div class="ee-upcard" data-status="{_esc(state.up_card_status)}">up-card: '
                    f'{_card(state.up_card, ["ee-small-card"])} <span>{_esc(up_card_words(state, rule=not hide))}</span></div>')
    kitty = state.kitty
    if kitty and state.variant == "two-handed":
        # rules.md 3.1: the 13 cards left after the deal take no part in it; they are
        # not a kitty anyone may look at or take, so a learner reads a count, not 13 backs
        known = [c for c in (kitty if know is None else know.kitty) if c not in (None, C.UNKNOWN)]
        rows.append(f'<div class="ee-undealt ee-small" data-count="{len(kitty)}">{len(kitty)} cards not dealt'
                    + (": " + "".join(_card(c) for c in known) if known else "") + "</div>")
        kitty = ()
    # face-down cards: all of them in the all-hands view, else as the seat saw them
    faces = (("ee-kitty", "kitty", kitty, know and know.kitty),
             ("ee-dummy", "dummy", state.dummy, know and know.dummy),
             ("ee-ghost", "ghost hand", state.ghost, know and know.ghost),
             ("ee-dead", "dead hand", state.dead, know and know.dead))
    for cls, label, cards, seen in faces:
        if cards:
            shown = cards if know is None else seen
            rows.append(f'<div class="{cls} ee-small">{label}: '
                        + "".join(_card(c, face_down=c is None) for c in shown) + "</div>")
    discards = state.discards if know is None else know.discards
    by_seat: dict = {}            # one row per seat (the cutthroat maker discards five)
    for s, c in discards:
        by_seat.setdefault(s, []).append(c)
    for s, cards in by_seat.items():
        unstated = any(c == C.UNKNOWN for c in cards)
        # a "?" alone puzzles a learner: say that the discard went face down unnamed
        rows.append(f'<div class="ee-discard ee-small">{_esc(seat_label(s, n))} discarded: '
                    + "".join(_card(c, face_down=c is None,
                                    title="discarded face down: the record does not say which card")
                              for c in cards)
                    + (' <span class="ee-why-unknown">(? = face down, the record does not name it)</span>'
                       if unstated else "") + "</div>")
    passes = (state.extra or {}).get("pb_cards", ()) if know is None else know.passes
    for a, b, c in passes or ():
        rows.append(f'<div class="ee-passed ee-small">{_esc(seat_label(a, n))} passed to '
                    f'{_esc(seat_label(b, n))}: {_card(c, face_down=c is None)}</div>')
    if state.maker is not None or state.trump is not None:
        if state.trump is None and state.phase == "trump":
            # the high bidder has not named trump yet: not no-trump (rules.md 5.2, 7.2)
            tr = "not named yet"
        elif state.trump is None:
            tr = '<span class="ee-trump">NT</span> no-trump'
        else:
            colour = "ee-red" if state.trump in C.RED_SUITS else "ee-black"
            tr = (f'<span class="ee-trump {colour}" style="background:#fff;border-radius:4px;padding:0 3px">'
                  f'{C.SUIT_SYMBOLS[state.trump]}</span> {C.SUIT_NAMES[state.trump]}')
        rows.append(f'<div class="ee-trump-line" data-trump="{state.trump or ""}">trump: {tr}</div>')
        if state.maker is not None:
            extra = " (alone)" if state.alone is not None else ""
            rows.append(f'<div>maker: {_esc(seat_label(state.maker, n))}{extra}</div>')
        if state.lone_defender is not None:
            rows.append(f'<div>defending alone: {_esc(seat_label(state.lone_defender, n))}</div>')
        if state.sitting_out:
            rows.append("<div>sitting out: " + ", ".join(seat_label(s, n) for s in state.sitting_out) + "</div>")
    return "".join(rows)


def up_card_words(state, rule: bool = True) -> str:
    """What became of the up-card, in words, from ``state.up_card_status``
    (rules.md 2.1-2.3, 3.2, 4.2): ``"10♦ left on the table"``,
    ``"10♦ taken up by the dealer, North"``, ``"10♦ turned down: nobody
    ordered it up"``, ``"10♦ face up: the proposed trump"``, ``"10♦ stays
    face down: the dealer sits out"``.  ``""`` when the deal has no up-card.
    ``rule=False``: what happened without the rule that follows from it
    (``"10♦ turned down"``), as an exercise's table says it before the
    answer: "its suit cannot be named now" answers "which suits may be
    named?" (issue 22).  Never raises."""
    card = state.up_card
    if card is None:
        return ""
    name = C.pretty(card)
    status = str(state.up_card_status or "")
    n = len(state.players)
    dealer = f", {seat_label(state.dealer, n)}" if state.dealer is not None else ""
    words = {
        "face up": f"{name} face up: the proposed trump",
        "turned down": (f"{name} turned down: nobody ordered it up, its suit cannot be named now" if rule
                        else f"{name} turned down: nobody ordered it up"),
        "face down (dealer sits out)": f"{name} stays face down: the dealer sits out, the partner plays alone",
        "picked up": f"{name} taken up by the dealer{dealer}",
        "left": f"{name} left on the table: the dealer did not take it",
    }
    return words.get(status, f"{name} {status}".strip())


def _score_inner(state, hide: bool = False) -> str:
    if not state.variant:
        return ""
    # an exercise on this position: a finished trick's count names its winner,
    # a scored deal's points are the answer
    hide_tricks = hide and _trick_finished(state)
    hide_points = hide and _deal_scored(state)
    names = side_names(state)
    groups = _sides(state)
    rows = []
    for i, name in enumerate(names):
        pts = state.score[i] if i < len(state.score) else 0
        tr = state.tricks_by_side[i] if i < len(state.tricks_by_side) else 0
        players = " & ".join(state.players[s] for s in groups[i] if s < len(state.players))
        shown_pts = "?" if hide_points else pts
        shown_tr = "? tricks" if hide_tricks else f'{tr} trick{"s" if tr != 1 else ""}'
        # a player who plays alone under their own name (P1, North): the name once
        sub = "" if players == name else f'<br><span class="ee-player">{_esc(players)}</span>'
        rows.append(f'<tr class="ee-side-{i}"><td><b>{_esc(name)}</b>{sub}</td>'
                    f'<td class="ee-points" data-points="{shown_pts}">{shown_pts}</td>'
                    f'<td data-tricks="{"?" if hide_tricks else tr}">{shown_tr}</td></tr>')
    last = ""
    if hide_points:
        return f'<table data-score="?">{"".join(rows)}</table>'
    if state.deal_results:
        d, pts, how = state.deal_results[-1]
        gains = ", ".join(f"{names[i]} {p:+d}" for i, p in enumerate(pts) if p) or "no points"
        last = f'<div class="ee-last-deal">deal {d}: {_esc(gains)}{" (" + _esc(how) + ")" if how != "played" else ""}</div>'
    score = ",".join(str(x) for x in state.score)
    official = ""
    if state.official_score and tuple(state.official_score) != tuple(state.score):
        # the score as played differs from the official one (a renege penalty, rules.md 1.5)
        words = ", ".join(f"{names[i]} {p}" for i, p in enumerate(state.official_score) if i < len(names))
        official = (f'<div class="ee-official-score" data-official="{",".join(map(str, state.official_score))}">'
                    f'official (penalties applied): {_esc(words)}</div>')
    tokens = ""
    if getattr(state, "tokens", ()):   # four-trick tokens held (rules.md 2.9)
        words = ", ".join(f"{names[i]} {n}" for i, n in enumerate(state.tokens) if i < len(names))
        tokens = (f'<div class="ee-tokens" data-tokens="{",".join(map(str, state.tokens))}">'
                  f'four-trick tokens: {_esc(words)}</div>')
    return f'<table data-score="{score}">{"".join(rows)}</table>{official}{tokens}{last}'


def _act_inner(state, know=None, findings: Sequence = (), here_reneges=(), hide: bool = False) -> str:
    n = len(state.players)
    p = state.players
    rows = []
    if hide:
        # an exercise on this position: neither who is on turn (after a trick it is
        # the trick's winner, after an order-up the dealer), nor the reason, nor the
        # legal calls: they are the answer (issue 10); the question names who decides
        rows.append('<div class="ee-reason ee-hidden-answer">answer the question to see what the rules allow</div>')
        return "".join(rows)
    if state.game_over:
        names = side_names(state)
        w = names[state.winner] if state.winner is not None and state.winner < len(names) else "?"
        final = state.official_score or state.score   # the game ends on the official score
        # "N/S win", "P1 wins": a side of two is plural, a player alone is not
        plural = state.winner is not None and len(_sides(state)[state.winner]) > 1
        result = (f"{w} {'win' if plural else 'wins'}" if state.winner is not None
                  else "drawn")   # level at a fixed end (2.9)
        rows.append(f'<div class="ee-game-over"><b>Game over:</b> {_esc(result)}, '
                    f'{_esc("-".join(str(x) for x in final))}</div>')
    elif state.turn is not None:
        who = seat_label(state.turn, n)
        may_see = know is None or know.seat == state.turn
        rows.append(f'<div class="ee-to-act" data-turn="{state.turn}"><b>{_esc(who)}</b> to act</div>')
        if state.phase == "play":
            if may_see:
                rows.append(f'<div class="ee-reason">{_esc(state.legal_reason)}</div>')
        elif state.legal:
            rows.append(f'<div class="ee-reason">{_esc(state.legal_reason)}</div>')
            if may_see:
                chips = "".join(f'<span class="ee-call ee-legal">{_esc(_call_words(e, p, state.dealer))}</span>'
                                for e in state.legal if not hasattr(e, "card"))
                if chips:
                    rows.append(f'<div class="ee-calls">{chips}</div>')
    elif state.phase == "deal_over" and state.deal_results:
        rows.append('<div>deal over</div>')
    fmap = {getattr(f, "position", None): f for f in (findings or ()) if getattr(f, "kind", "") == "renege"}
    for r in here_reneges:
        if r.position >= state.position or not _renege_visible(r, know):
            continue
        who = seat_label(r.seat, n)
        led = C.SUIT_NAMES.get(r.led_suit, "the led suit")
        txt = (f"Renege in trick {r.trick}: {who} played {C.pretty(r.card)} when {led} were led, "
               f"holding {', '.join(C.pretty(e) for e in r.evidence)}.")
        gathered = len(state.tricks) >= r.trick or state.phase in ("deal_over", "game_over")
        if not gathered:
            txt += " It can still be corrected: the trick is not gathered (rules.md 1.5)."
        f = fmap.get(r.position)
        if f is not None:
            if f.proven and f.proven["position"] < state.position:
                txt += (f" Proven in trick {f.proven['trick']}, when {who} showed "
                        f"{C.pretty(f.proven['card'])}.")
            elif f.proven:
                txt += " Not yet proven: the table has not seen the held card."
            else:
                txt += " Only the record's hands show it."
            if gathered:   # seats by name; the deal's penalty, not the final score (a spoiler mid-game)
                txt += f" Established {name_seats(f.established, state.players, n)}."
                txt += (f" Penalty: {name_seats(f.penalty, state.players, n)}." if f.penalized
                        else f" {f.status[:1].upper()}{f.status[1:]}.")
        rows.append(f'<div class="ee-renege-note" data-position="{r.position}">{_esc(txt)}</div>')
    return "".join(rows)


def _suit_sym(key: str) -> str:
    """A suit's symbol (``"JK"``: the joker), coloured by the enclosing element."""
    return C.SUIT_SYMBOLS.get(key, "Jo")


def _suit_mark(key: str) -> str:
    """A suit as its symbol in the suit's colour (``"JK"``: the joker)."""
    if key not in C.SUITS:
        return '<span class="ee-black">Jo</span>'
    colour = "ee-red" if key in C.RED_SUITS else "ee-black"
    return f'<span class="ee-suit-sym {colour}">{C.SUIT_SYMBOLS[key]}</span>'


def _rank_text(card: str, suit: str) -> str:
    """A card in its suit's group of the readout: the rank alone (``10``), with
    the printed suit when it differs from the group's (the left bower ``J\u2666``
    among the hearts)."""
    b = C.base(card)
    if b == C.JOKER:
        return "Jo"
    rank = "10" if b[0] == "T" else b[0]
    return rank if C.suit_of(b) == suit else rank + C.SUIT_SYMBOLS[C.suit_of(b)]


def knowledge_parts(know, players: Sequence[str] = ()) -> tuple:
    """The seat view's readout as a tuple of HTML pieces whose concatenation
    is :func:`knowledge_html` (the head, the voids, then the cards out and the
    master card suit by suit); the HTML export stores each distinct piece
    once, and they change at different moments.  Empty before the deal."""
    if not know.deal or not know.cards_out:
        return ()
    n = know.n_seats
    trump = know.trump
    order = ([trump] if trump else []) + [k for k in know.cards_out if k != trump]
    by_seat: dict = {}
    for v in know.voids:
        by_seat.setdefault(v.seat, []).append(v)
    voids = []
    for s in sorted(by_seat):
        marks = []
        for v in by_seat[s]:
            cls = "ee-void ee-void-false" if v.known_false else "ee-void"
            title = f"trick {v.trick}" + (": false, a renege (rules.md 1.5)" if v.known_false else "")
            marks.append(f'<span class="{cls}" data-suit="{v.suit}" title="{_esc(title)}">{_suit_mark(v.suit)}</span>')
        voids.append(f'<span class="ee-void-seat" data-seat="{s}">{_esc(seat_label(s, n, short=True))}: '
                     f'{"".join(marks)}</span>')
    void_html = " ".join(voids) if voids else '<span class="ee-none">none yet</span>'
    outs = []
    for k in order:
        cards = know.cards_out.get(k, ())
        colour = "ee-red" if k in C.RED_SUITS else "ee-black"
        ranks = " ".join(_rank_text(c, k) for c in cards)
        trump_cls = " ee-trump-suit" if k == trump else ""
        # compact: this piece changes with every card played, for every seat (the export keeps each once)
        outs.append(f'<span class="ee-out-suit {colour}{trump_cls}" data-suit="{k}" data-count="{len(cards)}" '
                    f'data-cards="{_esc(" ".join(cards))}">{_suit_sym(k)} <b>{len(cards)}</b>'
                    + (f": {_esc(ranks)}" if ranks else "") + "</span>")
    masters = []
    for k in order:
        m = know.master.get(k)
        mine = " ee-mine" if m is not None and m in know.hand else ""
        colour = "ee-red" if k in C.RED_SUITS else "ee-black"
        body = _esc(_rank_text(m, k)) if m else "-"
        masters.append(f'<span class="ee-master-suit {colour}{mine}" data-suit="{k}" data-card="{_esc(m or "")}">'
                       f'{_suit_sym(k)} {body}</span>')
    who = seat_label(know.seat, n)
    player = players[know.seat] if know.seat < len(players) else ""
    head = _esc(who) + (f" ({_esc(player)})" if player and player not in (who, seat_label(know.seat, n, short=True)) else "")
    legend = ("voids shown: suits a seat did not follow (the left bower is a trump; struck out: known "
              "to be false, a renege); not seen: the cards this seat has not seen, by suit, high to low; "
              "master: the highest card left in each suit (highlighted: in this seat's hand)")
    # many small pieces: each suit's entry changes only when a card of that suit shows
    return ((f'<div class="ee-k-head" title="{legend}">what {head} could know</div>',
             f'<div class="ee-voids"><span class="ee-k-label">voids shown</span> {void_html}</div>',
             '<div class="ee-cards-out"><span class="ee-k-label">not seen</span> ')
            + tuple(x + " " for x in outs)
            + ('</div><div class="ee-master"><span class="ee-k-label">master</span> ',)
            + tuple(x + " " for x in masters) + ("</div>",))


def knowledge_html(know, players: Sequence[str] = ()) -> str:
    """The seat view's readout (inner HTML of ``ee-knowledge``): the voids the
    other seats have shown (``ee-voids``), the cards this seat has not seen
    per suit (``ee-cards-out``: each suit's count, ``data-count``, and its
    cards high to low, ``data-cards``) and the master card of each suit
    (``ee-master``, ``data-card``), from a
    :class:`~euchre_events.projections.seat.SeatKnowledge` (rules.md 1.2-1.5).

    Suits are listed trump first.  A void the seat knows to be false (a
    renege, rules.md 1.5) is struck through with class ``ee-void-false``; a
    master card in the seat's own hand carries ``ee-mine``.  Empty before the
    cards are dealt.  Names from ``players`` are escaped.
    """
    return "".join(knowledge_parts(know, players))


def table_parts(state, seat: Optional[int] = None, findings: Sequence = (), next_event=None,
                knowledge=None, hide_answers: bool = False) -> dict:
    """The table drawing in named parts (inner HTML, no style sheet, no wrapper).

    Keys: ``"head-s"`` and ``"hand-s"`` for each seat ``s``, ``"trick"``,
    ``"last"``, ``"info"``, ``"score"``, ``"act"``, and in a seat view
    ``"knowledge"`` (the readout, :func:`knowledge_html`).  ``state``: a
    :class:`~euchre_events.projections.TableState`; ``seat``: None for every
    hand, or the seat index whose knowledge is shown; ``knowledge``: that
    seat's :class:`~euchre_events.projections.seat.SeatKnowledge` at
    ``state.position`` (give :func:`euchre_events.projections.seat.knowledge`
    for a game; default: computed from the state alone, which lacks only the
    events' extras such as a card taken back); ``findings``: the game's
    audit findings (renege notes gain proof and penalty); ``next_event``: the
    event recorded after this state, used to mark a coming renege in the hand.
    ``hide_answers``: the position as an exercise shows it before the
    learner answers (issue 10): no legal cards raised, no legal calls or
    reason, nobody marked as on turn (after a trick that is its winner, after
    an order-up the dealer), no "the dealer's turn", a finished trick's winner and
    reason left out (and its trick count shown as "?"), a scored deal's
    points shown as "?".  The viewer puts each part in its own widget, so
    that a step resends only the parts that changed.  Raises ``ValueError`` for a seat the game does
    not have, or a ``knowledge`` of another seat.
    """
    n = len(state.players)
    know = None
    if seat is not None:
        know = knowledge if knowledge is not None else knowledge_of_state(state, seat)
        if know.seat != seat:
            raise ValueError(f"the knowledge given is seat {know.seat}'s, not seat {seat}'s")
    here, by_trick, proofs = _renege_sets(state, findings)
    by_trick = {k: r for k, r in by_trick.items() if _renege_visible(r, know)}
    parts = {}
    for s in range(n):
        parts[f"head-{s}"] = _seat_head(state, s, n, here, know, hide_answers)
        parts[f"hand-{s}"] = _hand_inner(state, s, know, next_event, here, hide_answers)
    parts["trick"] = _trick_inner(state, n, by_trick, proofs, hide_answers)
    parts["last"] = _last_inner(state, n, by_trick, proofs, hide_answers)
    parts["info"] = _info_inner(state, know, hide_answers)
    parts["score"] = _score_inner(state, hide_answers)
    parts["act"] = _act_inner(state, know, findings, here, hide_answers)
    if know is not None:
        parts["knowledge"] = knowledge_html(know, state.players)
    return parts


def table_from_parts(parts: dict, state, include_css: bool = True, hide_answers: bool = False) -> str:
    """Assemble :func:`table_parts` into one ``ee-table`` drawing
    (``hide_answers``: as the parts were made; no seat is outlined as
    the seat on turn)."""
    n = len(state.players)
    pos = POSITIONS.get(n, POSITIONS[4])
    seats = []
    for s in range(n):
        area = pos[s] if s < len(pos) else "bottom"
        turn = " ee-turn" if state.turn == s and not hide_answers else ""
        out = " ee-out" if s in state.sitting_out else ""
        seats.append(f'<div class="ee-seat ee-seat-{s}{turn}" style="grid-area:{area}">'
                     f'<div class="ee-seat-head">{parts[f"head-{s}"]}</div>'
                     f'<div class="ee-hand ee-hand-{s}{out}" data-seat="{s}">{parts[f"hand-{s}"]}</div></div>')
    body = ("".join(seats)
            + f'<div class="ee-box ee-trick-cards" style="grid-area:trick">{parts["trick"]}</div>'
            + f'<div class="ee-box ee-last-trick" style="grid-area:last">{parts["last"]}</div>'
            + f'<div class="ee-box ee-info" style="grid-area:info">{parts["info"]}</div>'
            + f'<div class="ee-box ee-score" style="grid-area:score">{parts["score"]}</div>'
            + f'<div class="ee-box ee-act" style="grid-area:act">{parts["act"]}</div>')
    css = f"<style>{CSS}</style>" if include_css else ""
    readout = ""
    if parts.get("knowledge"):
        readout = f'<div class="ee-knowledge">{parts["knowledge"]}</div>'
    return (f'{css}<div class="ee-root"><div class="ee-table" data-position="{state.position}" '
            f'data-deal="{state.deal}" data-phase="{_esc(state.phase)}">{body}</div>{readout}</div>')


def state_html(state, seat: Optional[int] = None, findings: Sequence = (), next_event=None,
               include_css: bool = True, knowledge=None, hide_answers: bool = False) -> str:
    """The whole table after ``state.position`` events as one HTML drawing.

    ``state``: a :class:`~euchre_events.projections.TableState`; ``seat``: None
    (every hand face up) or a seat index (what that seat could know, others
    face down, with the readout of :func:`knowledge_html` below the table);
    ``findings``, ``next_event``, ``knowledge``: see :func:`table_parts`;
    ``include_css``: prepend the style sheet (True for a standalone drawing,
    as ``TableState._repr_html_`` uses it); ``hide_answers``: see
    :func:`table_parts`.  Classes: see the module docstring.
    """
    return table_from_parts(table_parts(state, seat, findings, next_event, knowledge, hide_answers),
                            state, include_css, hide_answers)


BADGE_CSS = """
.ee-badge.ee-cost{position:absolute;left:-1px;right:-1px;top:calc(100% + 1px);bottom:auto;margin:0;min-width:0;
 font:600 9px/11px system-ui,sans-serif;background:#fff;color:#111;border:1px solid #999;border-radius:3px;padding:0;
 text-align:center;white-space:nowrap;z-index:2;overflow:hidden}
.ee-badge.ee-cost>span{display:block}.ee-badge.ee-cost .ee-cost-sv{color:#8a4b00}
.ee-badge.ee-cost.ee-best{background:#c8f7d3;border-color:#1e8e3e}
"""
"""The cost badge under a legal card (:func:`hand_with_badges`), one copy for
the viewer widget and the HTML export (drawn by :func:`euchre_events.ui.analysistable.hand_with_badges`); its own class ``ee-cost``, so the
table's seat tags (``ee-badge``: tricks, dealer, maker) keep their place."""


QUIZ_FEEDBACK_CSS = """\
.ee-quiz-feedback .ee-quiz-right,.ee-quiz-feedback .ee-quiz-wrong,.ee-quiz-feedback .ee-quiz-answer{
 padding:6px 10px;border-radius:6px;margin:4px 0;line-height:1.4;max-width:820px}
.ee-quiz-right{background:#e6f4ea;border-left:5px solid #1e8e3e;color:#0d4f22}
.ee-quiz-wrong{background:#fdecea;border-left:5px solid #c5221f;color:#7a1410}
.ee-quiz-answer{background:#f1f3f4;border-left:5px solid #5f6368;color:#202124}
.ee-quiz-mark{font-weight:700;font-size:17px;margin-right:6px}
.ee-joker-glyph{font-size:1.5em;line-height:1;vertical-align:-0.1em}
.ee-quiz-right .ee-quiz-mark{color:#1e8e3e}
.ee-quiz-wrong .ee-quiz-mark{color:#c5221f}
"""
"""The feedback of a tutorial's or a lesson's answer (``ee-quiz-right``,
``ee-quiz-wrong``, ``ee-quiz-answer``): right and wrong each have a colour
*and* a mark (\u2713, \u2717), so they read without colour too; one copy
for the quiz of ``widgets.py`` and the lessons of ``lesson.py``."""
