"""Events and states in words, for the CLI text replay and the viewer.  Pure.

Seat views (a seat index instead of None) say only what that seat could
know, from :mod:`euchre_events.projections.seat`: a private event appears to
the other seats as what they saw ("West discards a card face down", "South
passes a card to North"), never with its cards.
"""
from __future__ import annotations

from typing import Optional, Sequence

from euchre_events.events import printable  # noqa: F401  (here for its callers)
from euchre_events.projections.seat import event_visible, knowledge_of_state, private_to, visible_from
from euchre_events.rules import cards as C
from euchre_events.rules.seats import SEAT_WORDS_4, score_text, seat_letter, seat_word, side_groups, side_short

SEAT_NAMES_4 = SEAT_WORDS_4
"""Seat names of a four-seat game (kept for callers; the table is :mod:`euchre_events.rules.seats`)."""


def not_read_line(error: dict) -> str:
    """A report's line for an input that could not be read (``error``:
    ``{"file", "error"}``, the error as said on stderr, without ``error: ``):
    ``not read: FILE...: reason`` (``audit`` and ``analyze``); ``read in
    part: FILE...: reason`` where ``error["partial"]`` (an EGN file whose
    impossible deal is reported and whose other deals are audited)."""
    return f"{'read in part' if error.get('partial') else 'not read'}: {error['error']}"


def seat_name(seat: Optional[int], players: Optional[Sequence[str]] = None, n_seats: int = 4) -> str:
    """``"East (Llama)"`` for seat 1 of a four-seat game with players; ``"P2"`` in others.
    The name is shown :func:`printable`."""
    if seat is None:
        return "-"
    base = seat_word(seat, n_seats)
    if (players and seat < len(players) and players[seat] and players[seat] != base
            and players[seat] != base[0]):
        return f"{base} ({printable(str(players[seat]))})"
    return base


def sides_of(variant: str, n_seats: int) -> list:
    """The seats of each side, in score order: ``[[0, 2], [1, 3]]`` for the
    partnership games, ``[[0], [1], [2]]`` where each plays alone (from the
    variant's ``side_of``; one side per seat for a variant not known here)."""
    return [list(seats) for seats, _ in _sides(variant, n_seats)]


_SIDES: dict = {}


def _sides(variant: str, n_seats: int) -> tuple:
    """``((seats, label), ...)`` per side (:func:`sides_of`, :func:`side_label`),
    from the one table of rules/seats.py, worked out once per variant and table
    size: ``list`` says them on each of 100,000 lines (issue 26)."""
    key = (variant, n_seats)
    found = _SIDES.get(key)
    if found is None:
        try:
            from euchre_events.rules.registry import make_variant
            v = make_variant(variant)
            groups = side_groups(n_seats, v.n_sides, v.side_of)
        except (ValueError, IndexError):
            groups = [[s] for s in range(n_seats)]
        found = _SIDES[key] = tuple((tuple(g), side_short(g, n_seats)) for g in groups)
    return found


def side_label(side: int, variant: str, players: Sequence[str]) -> str:
    """A side as a table says it: ``"E/W"`` (partners), ``"South"`` or ``"P2"`` (alone)."""
    n = len(players)
    groups = _sides(variant, n)
    if 0 <= side < len(groups):
        return groups[side][1]
    return side_short([side], n)


def side_name(side: Optional[int], variant: str, players: Sequence[str]) -> str:
    """A side by its seats and names: ``"E/W (Llama & LeftyKnavey)"``,
    ``"South (Euchrazy1)"``, ``"P2 (Bob)"``; ``"-"`` for None.  Names are
    shown :func:`printable`."""
    if side is None:
        return "-"
    n = len(players)
    groups = _sides(variant, n)
    seats, label = groups[side] if 0 <= side < len(groups) else ((side,), None)
    if len(seats) == 1:
        return seat_name(seats[0], players, n)
    names = side_player_names(seats, players)
    return f"{label} ({' & '.join(names)})" if names else label


def side_player_names(seats: Sequence[int], players: Sequence[str]) -> list:
    """The names of the players of ``seats`` that are known (shown
    :func:`printable`), or ``[]`` when each is only its seat's word or
    letter (``North``, ``N``): ``"N/S (North & South)"`` says nothing more
    than ``"N/S"``."""
    n = len(players)
    names = [str(players[s]) for s in seats if s < n and players[s]]
    plain = _PLAIN.get(n)
    if plain is None:   # per seat, the names that say only the seat ("", "North", "N")
        plain = _PLAIN[n] = tuple(("", seat_word(s, n), seat_word(s, n)[0]) for s in range(n))
    if all(s < n and str(players[s]) in plain[s] for s in seats):
        return []
    return [printable(nm) for nm in names]


_PLAIN: dict = {}


def level_sides(winner, game_over: bool, scores: Sequence[int], tied: Sequence[int] = ()) -> tuple:
    """The sides a game ended level between (rules.md 1.6, 2.9: a fixed
    number of deals may end level): ``tied`` when the variant noted them,
    else, for a game over with no winner, the sides with the highest of
    ``scores`` (the official points per side); ``()`` otherwise."""
    if tied or winner is not None or not game_over or not scores:
        return tuple(tied or ())
    return tuple(i for i, x in enumerate(scores) if x == max(scores))


def score_words(scores: Sequence[int], variant: str, players: Sequence[str]) -> str:
    """Points per side in words: ``"N/S 8, E/W 10"``; where each plays alone
    ``"P1 21, P2 -9, P3 33"`` (the seats, as ``show`` names them)."""
    key = (variant, len(players), *scores)
    text = _SCORES.get(key)
    if text is None:   # a few texts of scores: list says one on each of 100,000 lines
        groups, n = _sides(variant, len(players)), len(players)
        text = ", ".join(f"{groups[i][1] if i < len(groups) else side_short([i], n)} {x}" for i, x in enumerate(scores))
        if len(_SCORES) < 10000:
            _SCORES[key] = text
    return text


_SCORES: dict = {}


def winner_words(winner: Optional[int], variant: str, players: Sequence[str],
                 game_over: bool = True, tied: Sequence[int] = ()) -> str:
    """Who won: ``"E/W (Llama & LeftyKnavey)"``; ``"tied: ..."`` for sides
    tied at the end; ``"none yet (the record stops before the game ends)"``."""
    if winner is not None:
        return side_name(winner, variant, players)
    if tied:
        from euchre_events.rules.registry import variant_class
        try:
            sides = variant_class(variant).n_sides
        except ValueError:
            sides = None
        if len(tied) == sides == 2:   # both sides level at the end: a drawn game, no winner
            return "none: the game is drawn (" + " and ".join(side_name(s, variant, players) for s in tied) + " level)"
        return "tied: " + ", ".join(side_name(s, variant, players) for s in tied)
    return "none yet (the record stops before the game ends)" if not game_over else "none"


def suit_text(suit: Optional[str]) -> str:
    """``"hearts \u2665"``, or ``"no-trump"`` for None."""
    if suit is None:
        return "no-trump"
    return f"{C.SUIT_NAMES[suit]} {C.SUIT_SYMBOLS[suit]}"


def describe_events(events: Sequence, players: Optional[Sequence[str]] = None,
                    seat: Optional[int] = None, at: Optional[int] = None) -> list:
    """One line per event, knowing who deals each deal (so the dealer "takes
    it up" and the dealer's partner "assists" rather than "orders it up").

    ``seat``: None for the all-hands view (every event in full), or the seat
    whose view it is: each event as that seat reads it at position ``at``
    (default the end of the record; see
    :func:`euchre_events.projections.seat.event_visible`).
    """
    out, dealer = [], None
    for i, ev in enumerate(events):
        if ev.kind == "DealStarted":
            dealer = ev.dealer
        full = True if seat is None else event_visible(events, i, seat, at)
        out.append(describe_event(ev, players, dealer, seat=seat, full=full))
    return out


def seat_event_texts(events: Sequence, players: Optional[Sequence[str]] = None,
                     seat: Optional[int] = None) -> list:
    """For each event, ``(from_position, as_seen, in_full)``: how ``seat``
    reads it (None: the all-hands view).  ``in_full`` is the whole event in
    words, ``as_seen`` what the seat saw of it, ``from_position`` the
    position from which the seat reads it in full (None: never; see
    :func:`euchre_events.projections.seat.visible_from`).  At position ``p``
    show ``in_full`` when ``from_position`` is not None and
    ``max(p, k + 1) >= from_position`` (``k`` the event's index), else
    ``as_seen``: this is :func:`~euchre_events.projections.seat.event_visible`.
    """
    out, dealer = [], None
    for i, ev in enumerate(events):
        if ev.kind == "DealStarted":
            dealer = ev.dealer
        full = describe_event(ev, players, dealer, seat=seat, full=True)
        start = visible_from(events, i, seat)
        seen = full if start == i + 1 else describe_event(ev, players, dealer, seat=seat, full=False)
        out.append((start, seen, full))
    return out


SEAT_ONLY_PHRASES = {
    "Passed": "passes",
    "UpCardPickedUp": "picks up the up-card",
    "UpCardDeclined": "leaves the up-card",
    "WentAlone": "goes alone",
    "PlayedWithPartner": "plays with the partner",
    "DefendedAlone": "defends alone",
    "HandSwappedWithGhost": "swaps for the ghost hand",
    "DummyTaken": "takes the dummy",
    "DroppedOut": "drops out",
    "StayedIn": "stays in",
}
"""The words after the seat of the actions that are a seat alone, by kind
(the same kinds as the notation's :data:`euchre_events.events.SEAT_ONLY_WORDS`):
"North passes", "East goes alone"."""


def describe_event(ev, players: Optional[Sequence[str]] = None, dealer: Optional[int] = None,
                   seat: Optional[int] = None, full: Optional[bool] = None) -> str:
    """One line of text for an event (``"East plays J\u2666"``); ``dealer``
    (a seat), when given, names round-1 acceptances as players say them
    (take up, assist, order up: rules.md 2.2).

    ``seat``: None (the all-hands view) or the seat index whose view it is;
    ``full``: whether that seat reads the event in full (default: it does
    when the event is public or private to it, see
    :func:`euchre_events.projections.seat.private_to`; give
    :func:`~euchre_events.projections.seat.event_visible` for the timing of
    partner's best).  Read only as seen, a face-down discard is "a card face
    down" and a passed card "a card" (rules.md 2.2, 4.3, 7.3, 7.8).
    """
    n = len(players) if players else 4
    if full is None:
        who_sees = private_to(ev)
        full = seat is None or who_sees is None or seat in who_sees
    k = ev.kind
    who = seat_name(getattr(ev, "seat", None), players, n) if hasattr(ev, "seat") else ""
    if k in SEAT_ONLY_PHRASES:
        return f"{who} {SEAT_ONLY_PHRASES[k]}"
    if k == "GameStarted":
        return f"{ev.variant} game started: {', '.join(ev.players)}"
    if k == "DealStarted":
        return f"deal {ev.deal}: {seat_name(ev.dealer, players, n)} deals"
    if k == "CardsDealt":
        up = f"; up-card {C.pretty(ev.up_card)}" if ev.up_card else ""
        return f"cards dealt{up}"
    if k == "OrderedUp":
        verb = "orders it up"
        if dealer is not None and ev.seat == dealer:
            verb = "takes it up"
        elif dealer is not None and n == 4 and ev.seat == (dealer + 2) % 4:
            verb = "assists"
        return f"{who} {verb}" + (" and goes alone" if ev.alone else "")
    if k == "TrumpNamed":
        return f"{who} names {suit_text(ev.suit)}" + (" and goes alone" if ev.alone else "")
    if k == "Discarded":
        return f"{who} discards " + ("a card face down" if ev.card == C.UNKNOWN or not full
                                     else C.pretty(ev.card))
    if k == "BidMade":
        bid = {"pb": "partner's best", "moon": "shoot the moon"}.get(str(ev.bid), str(ev.bid))
        return f"{who} bids {bid}"
    if k == "CardPassed":
        card = C.pretty(ev.card) if full and ev.card != C.UNKNOWN else "a card"
        return f"{who} passes {card} to {seat_name(ev.to_seat, players, n)}"
    if k == "DealThrownIn":
        return f"deal thrown in ({ev.reason})"
    if k == "CardPlayed":
        return f"{who} plays {C.pretty(ev.card)}"
    if k == "PlayCorrected":
        return f"{who} takes back {C.pretty(ev.card)} and plays {C.pretty(ev.replacement)} instead"
    if k == "JokerSuitNamed":
        return f"{who} names {suit_text(ev.suit)} for the led joker"
    if k == "RenegeClaimed":   # rules.md 1.5: claimed at the table, judged by the audit
        return (f"{seat_name(ev.by, players, n)} claims a renege by {seat_name(ev.against, players, n)} "
                f"at trick {ev.trick} of deal {ev.deal}")
    if k == "RenegeRuled":     # the director's word decides (rules.md 2.7)
        verb = {"upheld": "upholds", "rejected": "rejects"}.get(ev.ruling, f"rules ({printable(str(ev.ruling))}) on")
        pts = f" (deal {ev.deal} scores {score_text(ev.penalty)})" if ev.penalty is not None else ""
        why = f": {printable(str(ev.reason))}" if ev.reason else ""
        return (f"{printable(str(ev.by)) if ev.by else 'the director'} {verb} the renege by "
                f"{seat_name(ev.against, players, n)} at trick {ev.trick} of deal {ev.deal}{pts}{why}")
    return k


def _discards_text(cards) -> str:
    """One seat's discards as its view shows them: ``"9♦"``, ``"a card
    face down"``, ``"5 cards face down"`` (None: a card it did not see)."""
    shown = " ".join(C.pretty(c) for c in cards if c is not None)
    hidden = sum(1 for c in cards if c is None)
    down = "" if not hidden else "a card face down" if hidden == 1 else f"{hidden} cards face down"
    return " and ".join(x for x in (shown, down) if x)


def _cards_text(cards, trump=None, sort=True) -> str:
    """Cards as ``"J\u2665 A\u2665"``; ``None`` (face down) as ``[n face down]``."""
    shown = [c for c in cards if c is not None]
    hidden = len(cards) - len(shown)
    words = " ".join(C.pretty(c) for c in (C.sort_hand(shown, trump) if sort else shown))
    if hidden:
        words = (words + " " if words else "") + f"[{hidden} face down]"
    return words or "-"


def knowledge_lines(k, players: Sequence[str]) -> list:
    """The seat's readout in words: the voids the others have shown, the
    cards still out per suit and the master card of each suit (from a
    :class:`~euchre_events.projections.seat.SeatKnowledge`; rules.md 1.2-1.5)."""
    n = len(players)
    trump = k.trump
    lines = []
    if k.voids:
        parts = []
        for v in k.voids:
            txt = f"{seat_name(v.seat, players, n)} {C.SUIT_NAMES[v.suit]} (trick {v.trick})"
            if v.known_false:
                txt += " - false: a renege"
            parts.append(txt)
        lines.append("Voids shown: " + "; ".join(parts))
    else:
        lines.append("Voids shown: none")
    order = ([trump] if trump else []) + [x for x in k.cards_out if x != trump]
    out = []
    for x in order:
        cards = k.cards_out.get(x, ())
        name = "joker" if x not in C.SUITS else C.SUIT_SYMBOLS[x]
        out.append(f"{name} {len(cards)}" + (f" ({' '.join(C.pretty(c) for c in cards)})" if cards else ""))
    lines.append("Cards out (not seen): " + ", ".join(out))
    masters = []
    for x in order:
        m = k.master.get(x)
        name = "joker" if x not in C.SUITS else C.SUIT_SYMBOLS[x]
        masters.append(f"{name} {C.pretty(m) if m else '-'}" + (" (yours)" if m and m in k.hand else ""))
    lines.append("Master cards: " + ", ".join(masters))
    return lines


def state_text(state, seat: Optional[int] = None, knowledge=None, after: Optional[str] = None) -> str:
    """The table as plain text (used by ``euchre-events show``).

    ``seat``: show only what that seat could know (its own hand; the others
    as the cards it knows of and counts of hidden cards; its own discards;
    the voids shown, the cards out and the master cards), from ``knowledge``
    (a :class:`~euchre_events.projections.seat.SeatKnowledge` of that seat at
    ``state.position``; default: computed from the state alone, without the
    events' extras); None shows all hands and every face-down card.
    ``after``: the first line's words for the position, as the caller counts
    events (``"event 13 of deal 1 (event 14 of the game)"``); default
    ``"event K | deal N"``, K counted in the game.
    """
    p = state.players
    n = len(p)
    k = None
    if seat is not None:
        k = knowledge if knowledge is not None else knowledge_of_state(state, seat)
    # events count from 1 (the table after event K: show --after K, record's "event K")
    lines = [f"After {after or f'event {state.position} | deal {state.deal}'} | phase {state.phase}"]
    if state.dealer is not None:
        lines.append(f"Dealer: {seat_name(state.dealer, p, n)}")
    if state.up_card:
        lines.append(f"Up-card: {C.pretty(state.up_card)} ({state.up_card_status})")
    if state.trump is not None or state.maker is not None:
        maker = seat_name(state.maker, p, n)
        lines.append(f"Trump: {suit_text(state.trump)}; maker: {maker}"
                     + (f"; alone: {seat_name(state.alone, p, n)}" if state.alone is not None else "")
                     + (f"; defending alone: {seat_name(state.lone_defender, p, n)}"
                        if state.lone_defender is not None else ""))
    maybe_note = False
    for s in range(n):
        hand = state.hands[s] if s < len(state.hands) else ()
        if k is not None and s != seat:
            seen = k.hands[s] if s < len(k.hands) else ()
            known = [c for c in seen if c is not None]
            maybe = set(k.may_hold.get(s, ()))
            maybe_note = maybe_note or bool(maybe)
            words = [C.pretty(c) + ("?" if c in maybe else "") for c in known]
            shown = " ".join(words + [f"[{len(seen) - len(known)} cards hidden]"])
        else:
            shown = " ".join(C.pretty(c) for c in C.sort_hand(hand, state.trump)) or "-"
        tags = []
        if s in state.sitting_out:
            tags.append("sits out")
        if s == state.turn:
            tags.append("to act")
        lines.append(f"  {seat_name(s, p, n):<22} {shown}" + (f"   ({', '.join(tags)})" if tags else ""))
    if maybe_note:
        lines.append("  (?: the up-card the dealer picked up; the face-down discard may have been it)")
    # the face-down cards: all of them in the all-hands view, as the seat saw them otherwise
    kitty = state.kitty
    if kitty and state.variant == "two-handed":
        # rules.md 3.1: the 13 cards left after the deal are not used: no kitty anyone may
        # take or look at, so a count (the tutorial's words), not thirteen "??"
        known = [c for c in (kitty if k is None else k.kitty) if c not in (None, C.UNKNOWN)]
        lines.append(f"Not dealt: {len(kitty)} cards" + (f": {_cards_text(known, state.trump)}" if known else ""))
        kitty = ()
    for label, cards, mine in (("Kitty", kitty, k and k.kitty), ("Dummy", state.dummy, k and k.dummy),
                               ("Ghost hand", state.ghost, k and k.ghost),
                               ("Dead hand", state.dead, k and k.dead)):
        if cards:
            lines.append(f"{label}: {_cards_text(cards if k is None else mine, state.trump)}")
    discards = state.discards if k is None else k.discards
    if discards:   # one entry per seat: "P2 (Bob) 5 cards face down", not the same words five times
        by_seat: dict = {}
        for s, c in discards:
            by_seat.setdefault(s, []).append(c)
        lines.append("Discards: " + ", ".join(
            f"{seat_name(s, p, n)} {_discards_text(cs)}" for s, cs in by_seat.items()))
    passes = (state.extra or {}).get("pb_cards", ()) if k is None else k.passes
    if passes:
        lines.append("Passed: " + ", ".join(
            f"{seat_name(a, p, n)} to {seat_name(b, p, n)} {C.pretty(c) if c is not None else 'a card'}"
            for a, b, c in passes))
    if state.trick:
        lines.append("Trick: " + ", ".join(f"{seat_name(s, p, n)} {C.pretty(c)}" for s, c in state.trick))
    if k is None:   # the reneges of this deal so far (a seat's view shows the false voids it knows of)
        for r in state.reneges or ():
            if r.deal == state.deal and getattr(r, "corrected_at", None) is None:
                led = C.SUIT_NAMES.get(r.led_suit, r.led_suit)
                lines.append(f"Renege: {seat_name(r.seat, p, n)} at trick {r.trick}: {C.pretty(r.card)} on a "
                             f"{led} lead, holding {' '.join(C.pretty(c) for c in r.evidence)} (rules.md 1.5)")
    if state.tricks:
        won = ", ".join(f"{seat_name(s, p, n)} {k_}" for s, k_ in enumerate(state.tricks_won) if k_)
        groups = sides_of(state.variant, n)
        if any(len(g) > 1 for g in groups):   # partners: the side's tricks are what count
            won += " (" + ", ".join(f"{side_label(i, state.variant, p)} "
                                    f"{sum(state.tricks_won[s] for s in g if s < len(state.tricks_won))}"
                                    for i, g in enumerate(groups)) + ")"
        lines.append("Tricks won: " + won)
    if state.score:
        lines.append("Score: " + score_words(state.score, state.variant, p))
        if state.official_score and tuple(state.official_score) != tuple(state.score):
            lines.append("Official score (renege penalties applied, rules.md 1.5): "
                         + score_words(state.official_score, state.variant, p))
        if getattr(state, "tokens", ()):   # four-trick tokens held (rules.md 2.9)
            lines.append("Four-trick tokens: " + score_words(state.tokens, state.variant, p))
    if state.legal and state.turn is not None and (seat is None or seat == state.turn):
        who = seat_name(state.turn, p, n) + " "
        words = [describe_event(e, p, state.dealer, seat=seat) for e in state.legal[:12]]
        acts = ", ".join(w[len(who):] if w.startswith(who) else w for w in words)
        if len(state.legal) > 12:
            acts += f", ... ({len(state.legal)} in all)"
        lines.append(f"Legal for {seat_name(state.turn, p, n)}: {acts}  [{state.legal_reason}]")
    if k is not None and state.deal and state.dealt:
        lines += knowledge_lines(k, p)
    if state.game_over:
        tied = level_sides(state.winner, True, state.official_score or state.score,
                           (state.extra or {}).get("tied") or ())
        lines.append(f"Game over: winner {winner_words(state.winner, state.variant, p, True, tied)}")
    return "\n".join(lines)
