"""Events and states in words, for the CLI text replay and the viewer.  Pure."""
from __future__ import annotations

from typing import Optional, Sequence

from euchre_events.rules import cards as C

SEAT_NAMES_4 = ("North", "East", "South", "West")


def seat_name(seat: Optional[int], players: Optional[Sequence[str]] = None, n_seats: int = 4) -> str:
    """``"East (Llama)"`` for seat 1 of a four-seat game with players; ``"P2"`` in others."""
    if seat is None:
        return "-"
    base = SEAT_NAMES_4[seat] if n_seats == 4 and seat < 4 else f"P{seat + 1}"
    if (players and seat < len(players) and players[seat] and players[seat] != base
            and players[seat] != base[0]):
        return f"{base} ({players[seat]})"
    return base


def suit_text(suit: Optional[str]) -> str:
    """``"hearts \u2665"``, or ``"no-trump"`` for None."""
    if suit is None:
        return "no-trump"
    return f"{C.SUIT_NAMES[suit]} {C.SUIT_SYMBOLS[suit]}"


def describe_events(events: Sequence, players: Optional[Sequence[str]] = None) -> list:
    """One line per event, knowing who deals each deal (so the dealer "takes
    it up" and the dealer's partner "assists" rather than "orders it up")."""
    out, dealer = [], None
    for ev in events:
        if ev.kind == "DealStarted":
            dealer = ev.dealer
        out.append(describe_event(ev, players, dealer))
    return out


def describe_event(ev, players: Optional[Sequence[str]] = None, dealer: Optional[int] = None) -> str:
    """One line of text for an event (``"East plays J\u2666"``); ``dealer``
    (a seat), when given, names round-1 acceptances as players say them
    (take up, assist, order up: rules.md 2.2)."""
    n = len(players) if players else 4
    k = ev.kind
    who = seat_name(getattr(ev, "seat", None), players, n) if hasattr(ev, "seat") else ""
    if k == "GameStarted":
        return f"{ev.variant} game started: {', '.join(ev.players)}"
    if k == "DealStarted":
        return f"deal {ev.deal}: {seat_name(ev.dealer, players, n)} deals"
    if k == "CardsDealt":
        up = f"; up-card {C.pretty(ev.up_card)}" if ev.up_card else ""
        return f"cards dealt{up}"
    if k == "Passed":
        return f"{who} passes"
    if k == "OrderedUp":
        verb = "orders it up"
        if dealer is not None and ev.seat == dealer:
            verb = "takes it up"
        elif dealer is not None and n == 4 and ev.seat == (dealer + 2) % 4:
            verb = "assists"
        return f"{who} {verb}" + (" and goes alone" if ev.alone else "")
    if k == "TrumpNamed":
        return f"{who} names {suit_text(ev.suit)}" + (" and goes alone" if ev.alone else "")
    if k == "UpCardPickedUp":
        return f"{who} picks up the up-card"
    if k == "UpCardDeclined":
        return f"{who} leaves the up-card"
    if k == "Discarded":
        return f"{who} discards " + ("a card face down" if ev.card == C.UNKNOWN else C.pretty(ev.card))
    if k == "WentAlone":
        return f"{who} goes alone"
    if k == "PlayedWithPartner":
        return f"{who} plays with the partner"
    if k == "DefendedAlone":
        return f"{who} defends alone"
    if k == "BidMade":
        bid = {"pb": "partner's best", "moon": "shoot the moon"}.get(str(ev.bid), str(ev.bid))
        return f"{who} bids {bid}"
    if k == "HandSwappedWithGhost":
        return f"{who} swaps for the ghost hand"
    if k == "DummyTaken":
        return f"{who} takes the dummy"
    if k == "CardPassed":
        return f"{who} passes {C.pretty(ev.card)} to {seat_name(ev.to_seat, players, n)}"
    if k == "DroppedOut":
        return f"{who} drops out"
    if k == "StayedIn":
        return f"{who} stays in"
    if k == "DealThrownIn":
        return f"deal thrown in ({ev.reason})"
    if k == "CardPlayed":
        return f"{who} plays {C.pretty(ev.card)}"
    if k == "PlayCorrected":
        return f"{who} takes back {C.pretty(ev.card)} and plays {C.pretty(ev.replacement)} instead"
    if k == "JokerSuitNamed":
        return f"{who} names {suit_text(ev.suit)} for the led joker"
    return k


def state_text(state, seat: Optional[int] = None) -> str:
    """The table as plain text (used by ``euchre-events show``).

    ``seat``: show only what that seat could know (its own hand; the others
    as counts of hidden cards); None shows all hands.
    """
    p = state.players
    n = len(p)
    lines = [f"Position {state.position} | deal {state.deal} | phase {state.phase}"]
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
    for s in range(n):
        hand = state.hands[s] if s < len(state.hands) else ()
        if seat is not None and s != seat:
            shown = f"[{len(hand)} cards hidden]"
        else:
            shown = " ".join(C.pretty(c) for c in C.sort_hand(hand, state.trump)) or "-"
        tags = []
        if s in state.sitting_out:
            tags.append("sits out")
        if s == state.turn:
            tags.append("to act")
        lines.append(f"  {seat_name(s, p, n):<22} {shown}" + (f"   ({', '.join(tags)})" if tags else ""))
    if state.trick:
        lines.append("Trick: " + ", ".join(f"{seat_name(s, p, n)} {C.pretty(c)}" for s, c in state.trick))
    if state.tricks:
        lines.append("Tricks won: " + ", ".join(f"{seat_name(s, p, n)} {k}"
                                                for s, k in enumerate(state.tricks_won) if k))
    if state.score:
        sc = state.score
        lines.append("Score: " + (f"{sc[0]} - {sc[1]}" if len(sc) == 2 and min(sc) >= 0
                                  else " / ".join(str(x) for x in sc)))
    if state.legal and state.turn is not None and (seat is None or seat == state.turn):
        who = seat_name(state.turn, p, n) + " "
        words = [describe_event(e, p, state.dealer) for e in state.legal[:12]]
        acts = ", ".join(w[len(who):] if w.startswith(who) else w for w in words)
        if len(state.legal) > 12:
            acts += f", ... ({len(state.legal)} in all)"
        lines.append(f"Legal for {seat_name(state.turn, p, n)}: {acts}  [{state.legal_reason}]")
    if state.game_over:
        lines.append(f"Game over: side {state.winner} wins")
    return "\n".join(lines)
