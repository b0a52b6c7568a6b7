"""Random legal games, for property tests and benchmarks.

:func:`random_game` deals shuffled decks (a seeded :class:`random.Random`, so
the same seed always gives the same game) and, at every step, picks one of the
events that :func:`euchre_events.engine.legal_actions` offers.  It works for
every registered variant: the engine and the variant decide what is legal; this
module only chooses.

Pure: no I/O.
"""
from __future__ import annotations

import dataclasses
import random
from typing import Any, Optional

from euchre_events.rules import cards as C
from euchre_events.rules.engine import ImpossibleEvent, Phase, Table, apply, legal_actions, new_table
from euchre_events.events import CardPlayed, CardsDealt, Event, GameStarted
from euchre_events.rules.registry import make_variant
from euchre_events.rules.seats import SEAT_LETTERS_4, seat_letter

__all__ = ["random_game", "random_deal", "SimulationError"]

FOUR_SEATS = SEAT_LETTERS_4  # the players' names of a simulated four-seat game


class SimulationError(RuntimeError):
    """The simulator found no way to go on (no legal action, no deal shape
    the variant accepts, or more deals than ``max_deals``)."""


def _options_dict(options: Any) -> dict:
    if dataclasses.is_dataclass(options) and not isinstance(options, type):
        return dataclasses.asdict(options)
    return dict(options or {})


def _layouts(v, n_seats: int, n_cards: int):
    """Candidate deal shapes ``(hand_size, up_card?, dummy_size, ghost_size)``
    for a variant that does not define ``deal_cards``, most common first."""
    hs = v.hand_size
    seen = set()
    for up in (True, False):
        for dummy in (0, hs):
            for ghost in (0, hs):
                shape = (hs, up, dummy, ghost)
                used = hs * n_seats + int(up) + dummy + ghost
                if used <= n_cards and shape not in seen:
                    seen.add(shape)
                    yield shape


POLICIES = ("sensible", "uniform")


def _weights(t: Table, acts) -> list:
    """Relative chances of auction actions under the ``sensible`` policy:
    risky calls are rarer and trump tends to be a suit the caller holds, so
    that random games of the bidding variants reach their target (a failed
    moon costs 24, rules.md 5.4, 7.5).  Against a pass (weight 1): partner's
    best and moon 1/100, lone calls 1/4, a bid of ``b`` tricks ``0.35**(b-2)``;
    naming a suit counts 1 + 3 per card of that suit (bowers included) held."""
    out = []
    for a in acts:
        w = 1.0
        b = getattr(a, "bid", None)
        if isinstance(b, str):
            w = 0.01
        elif isinstance(b, int):
            w = 0.35 ** max(b - 2, 0)
        if a.kind == "TrumpNamed" and a.suit is not None and 0 <= a.seat < len(t.hands):
            w *= 1 + 3 * len(C.cards_of_suit(t.hands[a.seat], a.suit, a.suit))
        if getattr(a, "alone", False) or a.kind in ("WentAlone", "DefendedAlone"):
            w *= 0.25
        out.append(w)
    return out


def _sensible_card(t: Table, acts, rng: random.Random):
    """Half the time a uniform choice; otherwise the cheapest card that takes
    the trick so far, or the cheapest card when none does."""
    if len(acts) == 1 or rng.random() < 0.5:
        return acts[rng.randrange(len(acts))]
    v, trump = t.variant, t.trump

    def cost(ev):
        return C.strength(ev.card, trump, t.low) if ev.card != C.UNKNOWN else 0

    if t.trick:
        so_far = [c for _, c in t.trick]
        winners = [a for a in acts if a.card != C.UNKNOWN
                   and v.trick_winner(t, so_far + [a.card]) == len(so_far)]
        if winners:
            return min(winners, key=cost)
        return min(acts, key=cost)
    return max(acts, key=cost) if rng.random() < 0.5 else min(acts, key=cost)


def _choose(t: Table, acts, rng: random.Random, policy: str):
    if policy == "uniform":
        return acts[rng.randrange(len(acts))]
    if t.phase == Phase.PLAY and all(isinstance(a, CardPlayed) for a in acts):
        return _sensible_card(t, acts, rng)
    return rng.choices(acts, weights=_weights(t, acts))[0]


def random_deal(t: Table, rng: random.Random) -> CardsDealt:
    """A random :class:`CardsDealt` for the deal that ``t`` has just started.

    ``t`` must be in phase ``"dealing"`` (right after a DealStarted).  A
    variant may define ``deal_cards(t, shuffled) -> CardsDealt`` to give its
    deal plan (rules.md 1.4 and each game's "Deal" section); otherwise the
    usual shapes are tried in turn (``hand_size`` cards to every seat, then an
    up-card, a dummy or ghost hand of the same size, the rest in the kitty)
    and the first one the engine accepts is used.  Raises
    :class:`SimulationError` if none fits.
    """
    v = t.variant
    shuffled = list(v.deck())
    rng.shuffle(shuffled)
    hook = getattr(v, "deal_cards", None)
    if hook is not None:
        return hook(t, shuffled)
    reasons = []
    for hs, up, dummy, ghost in _layouts(v, t.n_seats, len(shuffled)):
        rest = list(shuffled)
        hands = tuple(tuple(rest[s * hs:(s + 1) * hs]) for s in range(t.n_seats))
        rest = rest[hs * t.n_seats:]
        up_card = rest.pop(0) if up else None
        dummy_cards = tuple(rest[:dummy])
        rest = rest[dummy:]
        ghost_cards = tuple(rest[:ghost])
        rest = rest[ghost:]
        ev = CardsDealt(hands, up_card, tuple(rest), dummy_cards, ghost_cards)
        try:
            apply(t.copy(), ev)
        except ImpossibleEvent as e:
            reasons.append(e.reason)
            continue
        return ev
    raise SimulationError(f"no deal shape accepted by variant {v.name!r}: {'; '.join(reasons)}")


def random_game(variant: str = "standard", options: Any = None, seed: int = 0,
                deals: Optional[int] = None, players: Optional[tuple] = None,
                first_dealer: Optional[int] = None, renege_rate: float = 0.0,
                policy: str = "sensible", max_deals: int = 500) -> list[Event]:
    """Events of a random game of ``variant`` (a registered name).

    ``options``: dict or options dataclass (``None`` = the defaults of
    rules.md); the full option dict is stored in the :class:`GameStarted`
    event.  ``seed``: seeds :class:`random.Random`, so equal arguments give
    equal games.  ``deals``: stop once that many deals (thrown-in deals
    included) have ended, or earlier if the game is won; ``None`` plays to
    the end of the game.  ``players``: names in seat order (default
    ``N E S W`` for four seats, ``P1..Pn`` otherwise); ``first_dealer``: a
    seat index (default: random).  ``renege_rate``: probability (0..1) that a
    seat holding the led suit plays a card of another suit instead (an
    illegal but real play, kept by the engine and flagged by the audit,
    rules.md 1.5); 0 gives only legal play.  ``policy``: how a legal
    action is picked: ``"uniform"`` (every legal action equally likely) or
    ``"sensible"`` (the default: risky calls rarer, trump a suit the caller
    holds, half the cards played to win the trick cheaply), which lets the
    bidding variants reach their target in a few dozen deals.  Every action
    chosen is legal under either policy.

    Returns the list of events, :class:`GameStarted` first; the list folds
    without :class:`ImpossibleEvent`.  Raises ``ValueError`` for an unknown
    variant or option and :class:`SimulationError` if the game cannot go on
    or has not ended after ``max_deals`` deals.  ``variant`` may be an alias
    (``"euchre"``); the GameStarted event names the variant by its own name.
    """
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; expected one of {', '.join(POLICIES)}")
    if deals is not None and deals < 1:
        raise ValueError(f"deals must be at least 1, not {deals}")
    rng = random.Random(seed)
    v = make_variant(variant, options)
    n = v.n_seats
    if players is None:
        players = tuple(seat_letter(s, n) for s in range(n))
    if first_dealer is None:
        first_dealer = rng.randrange(n)
    start = GameStarted(v.name, _options_dict(v.options), tuple(players), first_dealer=first_dealer)
    events: list[Event] = [start]
    t = new_table()
    apply(t, start)
    ended = 0
    # a table plays on until it sees the game won: on the official score, or
    # on the cards as played when nobody noticed a renege (rules.md 1.5, 1.6)
    while not t.game_over and t.as_played_winner is None:
        if t.phase in (Phase.DEAL, Phase.DEAL_OVER) and t.deal_no:
            ended += 1
            if deals is not None and ended >= deals:
                break
            if ended >= max_deals:
                raise SimulationError(f"the game has not ended after {max_deals} deals")
        if t.phase == Phase.DEALING:
            ev = random_deal(t, rng)
        else:
            acts, reason = legal_actions(t)
            if not acts:
                raise SimulationError(f"no legal action in phase {t.phase!r} ({reason}) at event {t.pos}")
            ev = _choose(t, acts, rng, policy)
            if (renege_rate and isinstance(ev, CardPlayed) and t.trick
                    and rng.random() < renege_rate):
                known = [c for c in t.hands[t.turn] if c != C.UNKNOWN]
                others = [c for c in known if C.effective_suit(c, t.trump) != t.led_suit]
                if others and len(others) < len(known):
                    ev = CardPlayed(t.turn, others[rng.randrange(len(others))])
        apply(t, ev)
        events.append(ev)
    return events
