"""Seat-view analysis (issue 21 item 2): what each option of a decision was
worth *from the deciding seat's chair*, by perfect-information Monte Carlo.

:func:`seat_view` takes a position of a recorded game where a seat is on
turn, deals the cards that seat cannot know ``samples`` ways, each
consistent with what it could know there
(:func:`euchre_events.projections.seat.knowledge`), solves each imagined
deal face up (:func:`euchre_events.analysis.solver.action_values`) and
averages each option's value from the seat's side
(:func:`~euchre_events.analysis.solver.value_for`).

What the seat knows, and so what every imagined deal keeps
(:func:`imagined_deals`):

* its own hand, every card played or taken back, the up-card and its fate,
  its own face-down discards and passes, the dead hand it gave up, every
  hand size (public);
* cards it knows another seat holds (the up-card the dealer picked up, the
  card it passed in partner's best, a card taken back: rules.md 1.5, 2.2,
  7.3); the up-card after the dealer's face-down discard is in the dealer's
  hand *or* that discard (rules.md 2.2);
* the voids shown: a seat that did not follow a led suit holds none of it
  (effective suit, rules.md 1.2, 1.3), unless the seat could know the void
  is false (a renege it has seen shown, rules.md 1.5);
* a card played that the record does not state (``"??"``, ``"?D"``) takes
  one unseen card of the suits its code allows out of play;
* shown voids that no deal can keep prove a renege the seat did not see
  (rules.md 1.5): it then ignores the voids of the first seat, in seat
  order, whose voids explain it (or every void), and says so in
  ``_Model.dropped_voids``.

Cards of *other* seats the record does not state are simply unseen (they
are dealt like any hidden card: the seat view reads records with unknown
cards); the seat's own unknown card makes the decision
:class:`~euchre_events.analysis.solver.Unknowable`.

Everything else it cannot see (the other hands, the kitty or the 13 undealt
cards of two-handed Euchre, the other seats' face-down discards, the
cutthroat dummy, the ghost hand and a dead hand, cards passed face down) is
one *pool*, dealt to those places.

**Sampling is exact and uniform** over the consistent deals (no rejection):
cards are grouped into classes by the set of places they may go (a void
shuts a suit out of a hand, a card known held pins it), the number of
consistent deals is counted by a dynamic programme over the classes and the
places' remaining room, and each deal is drawn class by class with
probability proportional to the number of its completions
(:class:`random.Random` seeded with ``seed``, drawing from the pool sorted
by card code: the result depends only on the seat's knowledge, never on the
hidden cards themselves).  Each imagined deal is then written back as a
record of the deal (the same events, the hidden cards replaced:
:attr:`ImaginedDeal.events`) and folded by the rules engine, so every
variant's own state (the dummy, the dead hand, partner's best in flight)
is what the rules make of it; the engine refuses an inconsistent deal.

Known limits (docs/analysis.md): inside each imagined deal every seat plays
as if it saw every card (the method is optimistic); the calls made are not
read as evidence about the hands (a seat that ordered up is not assumed to
hold trump); nor are choices the rules prescribe (the partner's best trump
passed in partner's best, rules.md 7.3).  Where the choice is free and
unseen (which of the maker's cards came from the cutthroat dummy, which
card a seat passed face down between two other seats), the imagined record
picks one canonically: it does not change any seat's hand at the position.

Pure: no I/O.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

from euchre_events.analysis import solver
from euchre_events.events import CardPassed, CardsDealt, Discarded, Event
from euchre_events.projections.seat import SeatKnowledge, event_visible, knowledge
from euchre_events.rules import cards as C
from euchre_events.rules.engine import Table, apply, legal_actions

__all__ = ["OptionEstimate", "SeatView", "ImaginedDeal", "PASS_VALUES", "seat_view", "imagined_deals",
           "seat_on_turn", "own_readings", "seat_view_readings", "MAX_OWN_READINGS"]

PASS_VALUES = ("zero", "play-out")
"""How :func:`seat_view` values a pass in the auction: ``"zero"`` (0, as if
the deal were thrown in: the default, see :func:`seat_view`) or
``"play-out"`` (solved like any other action)."""


# ------------------------------------------------------------------ results

@dataclass(frozen=True)
class OptionEstimate:
    """One option of a decision, valued from the deciding seat's side.

    ``action``: the legal event (as :func:`euchre_events.rules.engine.legal_actions`
    gives it); ``mean``: its mean value over the imagined deals, in the
    deal's points from the seat's side (net with two parties, own points with
    more: :func:`~euchre_events.analysis.solver.value_for`); ``se``: the
    standard error of that mean (sample standard deviation / sqrt(samples),
    0 for one sample); ``best_share``: the share (0..1) of imagined deals in
    which this option was (one of) the best, with the pass valued as
    ``pass_value`` says.  ``played_out_mean`` / ``played_out_se``: for a pass
    valued 0, the mean and standard error when it is solved instead (the
    rest of the auction played out face up); None otherwise.
    """

    action: Event
    mean: float
    se: float
    best_share: float
    played_out_mean: Optional[float] = None
    played_out_se: Optional[float] = None


@dataclass(frozen=True)
class SeatView:
    """The seat view of one decision: ``seat`` (on turn), ``samples``
    (imagined deals), ``seed``, ``pass_value`` (see :data:`PASS_VALUES`),
    ``options``: one :class:`OptionEstimate` per legal action, in the
    engine's order; ``position``: the decision's position (events before it)."""

    seat: int
    samples: int
    seed: int
    pass_value: str
    options: tuple
    position: int = 0

    def best(self) -> OptionEstimate:
        """The option with the highest mean (the first of equals)."""
        return max(self.options, key=lambda o: o.mean)


@dataclass(frozen=True)
class ImaginedDeal:
    """One way the cards the seat cannot see may lie.

    ``events``: the deal's events from its DealStarted up to the position,
    with the hidden cards replaced (the CardsDealt, the face-down discards
    and passes the seat did not see); ``table``: those events folded by the
    engine onto the table before the deal (the imagined position, a fresh
    :class:`~euchre_events.rules.table.Table` the caller may change);
    ``places``: ``{place: (cards, ...)}`` the pool's cards as dealt to each
    place (``("hand", seat)``, ``("discards", seat)``, ``("kitty",)``,
    ``("dummy",)``, ``("ghost",)``, ``("dead",)``, ``("passing", k)``,
    ``("unstated", k)``), for tests and readers.
    """

    events: tuple
    table: Table
    places: dict


# ------------------------------------------------------------------ the model

def seat_on_turn(game, position: int) -> int:
    """The seat on turn after ``position`` events of ``game`` (a decision).
    Raises ``ValueError`` when nobody is on turn (between deals, game over)."""
    t = game.table_at(position)
    acts = _legal(t)
    if t.turn is None or not acts:
        raise ValueError(f"position {position}: no seat is on turn (phase {t.phase}), no decision to analyse")
    return t.turn


def _legal(t: Table) -> tuple:
    return legal_actions(t)[0]


def _unknowable(msg: str) -> Exception:
    """The solver's Unknowable (a ValueError) for a decision the seat view cannot value."""
    return solver.Unknowable(msg)


class _Model:
    """The pool, the places and the counting behind the sampling, built once
    per (game, position, seat) from the seat's knowledge and the public
    shape of the table (hand sizes, which events happened)."""

    def __init__(self, game, position: int, seat: int):
        if position < 0:
            position += len(game.events) + 1
        self.game = game
        self.position = position
        self.seat = seat
        events = game.events
        start = next((i for i in range(position - 1, -1, -1) if events[i].kind == "DealStarted"), None)
        dealt_at = next((i for i in range(start + 1, position) if events[i].kind == "CardsDealt"), None) \
            if start is not None else None
        if dealt_at is None:
            raise ValueError(f"position {position}: no cards have been dealt yet, nothing to imagine")
        self.start, self.dealt_at = start, dealt_at
        self.real_deal: CardsDealt = events[dealt_at]
        t = game.table_at(position)       # read for its public shape only (sizes, who, phase)
        self.table = t
        k: SeatKnowledge = knowledge(game, position, seat)
        self.k = k
        trump = t.trump
        self.eff = C.suit_and_power(trump)[0]
        own = t.hands[seat]
        if any(C.is_unknown(c) for c in own):
            from euchre_events.rules.seats import seat_word
            n_unknown = sum(1 for c in own if C.is_unknown(c))
            raise _unknowable(f"{seat_word(seat, t.n_seats)}'s own hand holds {n_unknown} card"
                              f"{'' if n_unknown == 1 else 's'} the record does not state "
                              f"({' '.join(C.pretty(c) for c in own)}): its options cannot be valued "
                              f"from its seat")
        up = t.up_card
        if up is not None and C.is_unknown(up):
            raise _unknowable("the record does not state the up-card: the seat view cannot place it")
        seen = k.seen
        # --- the places the pool may go: (key, room, fixed cards, barred effective suits, allowed codes)
        places: list = []
        self.fixed: dict = {}
        for s in range(t.n_seats):
            hand = t.hands[s]
            if s == seat:
                self.fixed[("hand", s)] = list(hand)
                continue
            known = [c for c in k.known_held.get(s, ()) if c in hand]
            barred = frozenset(v.suit for v in k.voids_of(s) if not v.known_false)
            places.append((("hand", s), len(hand) - len(known), barred, None))
            self.fixed[("hand", s)] = known
        by_seat: dict = {}
        for s, c in t.discards:
            by_seat.setdefault(s, []).append(c)
        for s, cards in sorted(by_seat.items()):
            if s == seat:
                known = [c for c in cards if not C.is_unknown(c)]
                self.fixed[("discards", s)] = known
                if len(known) < len(cards):      # own discards the record does not state
                    places.append((("discards", s), len(cards) - len(known), frozenset(), None))
            else:
                places.append((("discards", s), len(cards), frozenset(), None))
                self.fixed[("discards", s)] = []
        if t.dummy:
            places.append((("dummy",), len(t.dummy), frozenset(), None))
        if t.ghost:
            places.append((("ghost",), len(t.ghost), frozenset(), None))
        if t.dead:
            if all(c is not None for c in k.dead):
                known = [c for c in t.dead if not C.is_unknown(c)]
                self.fixed[("dead",)] = known
                if len(known) < len(t.dead):
                    places.append((("dead",), len(t.dead) - len(known), frozenset(), None))
            else:
                places.append((("dead",), len(t.dead), frozenset(), None))
        # partner's best in flight: the passes not yet handed over (rules.md 7.3)
        self.in_flight = self._in_flight()
        for j, i in enumerate(self.in_flight):
            ev = events[i]
            if not event_visible(events, i, seat, at=position):
                places.append((("passing", j), 1, frozenset(), None))
        # cards played that the record does not state: each takes one unseen card out of play
        n_unstated = 0
        for i in range(dealt_at + 1, position):
            ev = events[i]
            if ev.kind in ("CardPlayed", "PlayCorrected"):
                code = ev.card if ev.kind == "CardPlayed" else ev.replacement
                if C.is_unknown(code):
                    allowed = C.possible_suits(code, trump)
                    places.append((("unstated", n_unstated), 1, frozenset(), allowed))
                    n_unstated += 1
        # the pool: every card of the deck the seat has not seen, and the up-card where
        # only the dealer's hand or its face-down discard may hold it
        deck = t.variant.deck()
        pool = sorted(c for c in deck if c not in seen)
        self.pinned: dict = {}
        d = t.dealer
        for s, cards in k.may_hold.items():
            for c in cards:
                if c == up and s == d:
                    pool.append(c)
                    self.pinned[c] = {("hand", d), ("discards", d)}
                    # the slot it takes is already counted in the hand's or the discards' room
        pool.sort()
        used = sum(p[1] for p in places)
        rest = len(pool) - used
        if rest < 0 or (t.kitty and rest != len(t.kitty)):
            raise ValueError(f"position {position}: {len(pool)} cards unseen by seat {seat} do not fill "
                             f"the {used} hidden places and the kitty of {len(t.kitty)} (a record the "
                             "seat view cannot read)")
        places.append((("kitty",), rest, frozenset(), None))
        self.places = places
        self.pool = pool
        self.keys = [p[0] for p in places]
        self.rooms = tuple(p[1] for p in places)
        # --- classes: cards with the same set of allowed places.  Shown voids no deal
        # fits prove a renege the seat could not see made (rules.md 1.5): it then
        # drops one seat's voids (the first, in seat order, whose voids explain it),
        # or every void
        voided = [key[1] for key, _, barred, _ in places if key[0] == "hand" and barred]
        self.dropped_voids: tuple = ()
        for drop in [()] + [(s,) for s in voided] + [tuple(voided)]:
            self._classify(trump, drop)
            if self._count(0, self.rooms):
                self.dropped_voids = drop
                break
        else:
            raise ValueError(f"position {position}: no deal of the cards unseen by seat {seat} fits what it "
                             "knows (its known cards contradict the hand sizes)")

    def _classify(self, trump, drop: tuple) -> None:
        """Group the pool by allowed places, the voids of the seats in ``drop`` ignored."""
        places = self.places
        groups: dict = {}
        for c in self.pool:
            e = self.eff.get(c) if c in self.eff else C.effective_suit(c, trump)
            ok = []
            for j, (key, room, barred, allowed) in enumerate(places):
                if room == 0:
                    continue
                if c in self.pinned and key not in self.pinned[c]:
                    continue
                if e in barred and key[1] not in drop:
                    continue
                if allowed is not None and e not in allowed:
                    continue
                ok.append(j)
            groups.setdefault(tuple(ok), []).append(c)
        self.classes = sorted((allowed, tuple(cards)) for allowed, cards in groups.items())
        self._count = lru_cache(maxsize=None)(self._count_impl)
        self._splits_memo = {}

    # ---------------------------------------------------------- helpers
    def _in_flight(self) -> list:
        """Event indices of the CardPassed whose card is still passing (the
        exchange not done at the position)."""
        t = self.table
        if t.phase != "pb_exchange":
            return []
        out = []
        for i in range(self.position - 1, self.dealt_at, -1):
            if self.game.events[i].kind != "CardPassed":
                break
            out.append(i)
        return out[::-1]

    def _splits(self, k: int, rooms: tuple) -> list:
        """``[(ways, split), ...]``: each way to put class ``k``'s cards into
        places with room (``split[j]`` cards to place ``j``), with the number
        of completions of the deal it leaves (multinomial x later count)."""
        key = (k, rooms)
        got = self._splits_memo.get(key)
        if got is not None:
            return got
        allowed, cards = self.classes[k]
        n = len(cards)
        out = []

        def rec(i: int, left: int, split: list, ways: int) -> None:
            if i == len(allowed):
                if left == 0:
                    rest = tuple(r - x for r, x in zip(rooms, split))
                    w = ways * self._count(k + 1, rest)
                    if w:
                        out.append((w, tuple(split)))
                return
            j = allowed[i]
            top = min(left, rooms[j])
            for x in range(top + 1):
                split[j] = x
                rec(i + 1, left - x, split, ways * math.comb(left, x))
            split[j] = 0

        rec(0, n, [0] * len(rooms), 1)
        self._splits_memo[key] = out
        return out

    def _count_impl(self, k: int, rooms: tuple) -> int:
        """Number of ways to deal classes ``k..`` into exactly ``rooms``."""
        if k == len(self.classes):
            return 1 if not any(rooms) else 0
        return sum(w for w, _ in self._splits(k, rooms))

    def deal(self, rng: random.Random) -> dict:
        """One consistent deal of the pool, uniform: ``{place key: [cards]}``."""
        rooms = self.rooms
        got: dict = {key: [] for key in self.keys}
        for k, (allowed, cards) in enumerate(self.classes):
            options = self._splits(k, rooms)
            r = rng.randrange(sum(w for w, _ in options))
            for w, split in options:
                if r < w:
                    break
                r -= w
            order = list(cards)
            rng.shuffle(order)
            at = 0
            for j, x in enumerate(split):
                if x:
                    got[self.keys[j]].extend(order[at:at + x])
                    at += x
            rooms = tuple(r_ - x for r_, x in zip(rooms, split))
        return got

    def count(self) -> int:
        """The number of consistent deals (places unordered)."""
        return self._count(0, self.rooms)

    # ---------------------------------------------------------- the imagined record
    def imagine(self, got: dict) -> ImaginedDeal:
        """The deal's events with the hidden cards replaced by ``got``, and
        the position they fold to."""
        game, events, t, seat = self.game, self.game.events, self.table, self.seat
        pos = self.position
        hands = [list(self.fixed.get(("hand", s), ())) + got.get(("hand", s), []) for s in range(t.n_seats)]
        # the discards in their order, each seat's hidden ones filled in turn
        hidden = {s: iter(got.get(("discards", s), [])) for s, _ in t.discards}
        discards = []
        for s, c in t.discards:
            if s == seat and not C.is_unknown(c):
                discards.append((s, c))
            else:
                discards.append((s, next(hidden[s])))
        up = t.up_card
        dummy = list(got.get(("dummy",), []))
        ghost = list(got.get(("ghost",), []))
        dead = list(self.fixed.get(("dead",), [])) + list(got.get(("dead",), []))
        kitty = list(got.get(("kitty",), []))
        in_flight = {}
        for j, i in enumerate(self.in_flight):
            ev = events[i]
            if event_visible(events, i, seat, at=pos):
                in_flight[i] = ev.card
            else:
                in_flight[i] = got[("passing", j)][0]
        new_events: dict = {}
        passed_cards: dict = {}
        dummy_size = len(self.real_deal.dummy)
        i = pos - 1
        while i > self.dealt_at:
            ev = events[i]
            kd = ev.kind
            if kd == "CardPlayed":
                hands[ev.seat].append(ev.card)
            elif kd == "PlayCorrected":
                hands[ev.seat].remove(ev.card)
                hands[ev.seat].append(ev.replacement)
            elif kd == "Discarded":
                s, c = discards.pop()
                if s != ev.seat:
                    raise ValueError(f"event {i}: the discards do not match the record (a bug)")
                hands[s].append(c)
                if c != ev.card:
                    new_events[i] = Discarded(s, c)
            elif kd == "UpCardPickedUp":
                hands[ev.seat].remove(up)
            elif kd == "DummyTaken":
                s = ev.seat
                if s == seat:   # the maker saw its own hand and the dummy it took
                    dummy = list(self.real_deal.dummy)
                else:           # which of its cards were the dummy's nobody else saw: any will do
                    dummy = sorted(c for c in hands[s] if c != up)[:dummy_size]   # the up-card came up
                for c in dummy:
                    hands[s].remove(c)
            elif kd == "HandSwappedWithGhost":
                s = ev.seat
                ghost, hands[s], dead = hands[s], dead, []
                if s == seat:   # the swapper saw the ghost hand it took, in its order
                    ghost = list(self.real_deal.ghost)
            elif kd == "CardPassed":
                # a run of passes; if it was completed before the position the cards
                # were handed over at its last pass
                j = i
                while j - 1 > self.dealt_at and events[j - 1].kind == "CardPassed":
                    j -= 1
                run = list(range(j, i + 1))
                if i not in self.in_flight:
                    chosen: list = []
                    for q in run:
                        pq = events[q]
                        if event_visible(events, q, seat, at=pos):
                            c = pq.card
                        else:   # unseen between two other seats: any card the receiver then held
                            c = next(x for x in sorted(hands[pq.to_seat]) if x not in chosen
                                     and not C.is_unknown(x))
                        chosen.append(c)
                        passed_cards[q] = c
                    for q, c in zip(run, chosen):
                        hands[events[q].to_seat].remove(c)
                else:
                    for q in run:
                        passed_cards[q] = in_flight[q]
                for q in reversed(run):
                    pq = events[q]
                    c = passed_cards[q]
                    hands[pq.seat].append(c)
                    if c != pq.card:
                        new_events[q] = CardPassed(pq.seat, pq.to_seat, c)
                i = j
            i -= 1
        if discards:
            raise ValueError("the discards do not match the record (a bug)")
        rd = self.real_deal
        # the seat's own hand as it was dealt (its order is what the seat saw: the
        # order of its options); the others' in card order, which says nothing
        own = _own_dealt(rd.hands[seat], hands[seat])
        if own is None:
            raise ValueError(f"seat {seat}'s hand does not go back to its dealt hand (a bug)")
        hands = [own if s == seat else tuple(sorted(h)) for s, h in enumerate(hands)]
        took = {(ev.kind, ev.seat) for ev in events[self.dealt_at + 1:pos]
                if ev.kind in ("DummyTaken", "HandSwappedWithGhost")}
        dealt = CardsDealt(tuple(hands), rd.up_card,
                           tuple(sorted(kitty)) if rd.kitty else (),
                           tuple(dummy) if ("DummyTaken", seat) in took else tuple(sorted(dummy)),
                           tuple(ghost) if ("HandSwappedWithGhost", seat) in took else tuple(sorted(ghost)))
        evs = [events[self.start], dealt]
        for i in range(self.dealt_at + 1, pos):
            evs.append(new_events.get(i, events[i]))
        table = _base_table(game, self.start)
        for ev in evs:
            apply(table, ev)
        return ImaginedDeal(tuple(evs), table, {k: tuple(v) for k, v in got.items() if v})


def _own_dealt(recorded, imagined) -> Optional[tuple]:
    """The seat's own dealt hand in the record's order, with any card the record
    does not state (a discard the record lost: out of play by now) filled in from
    the imagined deal; None when the two cannot be the same hand."""
    rest = list(imagined)
    out = []
    for c in recorded:
        if C.is_unknown(c):
            out.append(None)
        elif c in rest:
            rest.remove(c)
            out.append(c)
        else:
            return None
    fill = sorted(c for c in rest)
    if len(fill) != out.count(None) or any(not _fits(code, card) for code, card in
                                            zip([c for c in recorded if C.is_unknown(c)], fill)):
        return None
    it = iter(fill)
    return tuple(c if c is not None else next(it) for c in out)


def _fits(code: str, card: str) -> bool:
    return code == C.UNKNOWN or code[1:2] == card[1:2]


def _base_table(game, start: int) -> Table:
    """A fresh copy of the table before the deal's DealStarted (cached per game)."""
    cache = getattr(game, "_analysis_bases", None)
    if cache is None:
        cache = {}
        try:
            game._analysis_bases = cache
        except AttributeError:
            pass
    base = cache.get(start)
    if base is None:
        base = cache[start] = game.table_at(start)
    return base.copy()


def imagined_deals(game, position: int, *, samples: int = 200, seed: int = 0,
                   seat: Optional[int] = None) -> list:
    """``samples`` :class:`ImaginedDeal`: the cards ``seat`` (default: the
    seat on turn) cannot know after ``position`` events of ``game``, dealt
    uniformly among the deals consistent with its knowledge (see the module
    docstring), reproducibly for a ``seed``.

    Raises ``ValueError`` for a position before the deal's cards are dealt
    or where nobody is on turn (and no ``seat`` is given), ``IndexError``
    for a position outside the game, and the solver's ``Unknowable`` (a
    ``ValueError``) when the seat's own hand holds a card the record does
    not state.
    """
    if position < 0:
        position += len(game.events) + 1
    if seat is None:
        seat = seat_on_turn(game, position)
    model = _Model(game, position, seat)
    rng = random.Random(seed)
    return [model.imagine(model.deal(rng)) for _ in range(samples)]


def consistent_deals(game, position: int, seat: int) -> int:
    """The number of deals of the cards ``seat`` cannot see that fit its
    knowledge after ``position`` events (places unordered; the count the
    sampling is uniform over)."""
    return _Model(game, position, seat).count()


# ------------------------------------------------------------------ seat view

def _is_auction_pass(t: Table, ev: Event) -> bool:
    """A pass made before the contract is fixed (no maker yet): the auction's
    passes, a dealer turning the up-card down, a Ghost Hand seat keeping its
    hand before the auction."""
    return ev.kind == "Passed" and t.maker is None


def seat_view(game, position: int, *, samples: int = 200, seed: int = 0,
              pass_value: str = "zero", played_out: bool = False) -> SeatView:
    """The seat view of the decision after ``position`` events of ``game``
    (a :class:`~euchre_events.projections.Game`; ``position`` counts events
    as :meth:`~euchre_events.projections.Game.state_at`, negative from the
    end): the seat on turn's options, each valued over ``samples`` deals of
    the cards it cannot know (see :func:`imagined_deals`), solved face up with
    :func:`euchre_events.analysis.solver.action_values` and read from its
    party's side with :func:`~euchre_events.analysis.solver.value_for`.

    ``pass_value="zero"`` (default): in the auction (a :class:`Passed` while
    no seat is maker yet) a pass is worth 0, as if the deal were thrown in,
    and is not solved (the rest of the auction is most of an auction
    decision's cost); with ``played_out=True`` it is solved all the same and
    its face-up value kept in :attr:`OptionEstimate.played_out_mean`.  Why:
    valuing a pass by playing the rest of the auction out face up credits the
    other seats with perfect knowledge of every hand, which made a published
    sampling player over-bid and be euchred for it; a pass at 0 bid like
    people and, in that study, cost no points.  ``"play-out"``: the pass is
    solved like any other action.

    Returns a :class:`SeatView`.  Raises ``ValueError`` for a bad
    ``samples``/``pass_value``, a position where nobody is on turn or before
    the deal's cards are dealt, ``IndexError`` for a position outside the
    game, and :class:`~euchre_events.analysis.solver.Unknowable` when the
    seat's own hand holds a card the record does not state.
    """
    if pass_value not in PASS_VALUES:
        raise ValueError(f"pass_value {pass_value!r}: expected one of {', '.join(PASS_VALUES)}")
    if samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    if position < 0:
        position += len(game.events) + 1
    seat = seat_on_turn(game, position)
    model = _Model(game, position, seat)
    real = model.table
    acts = _legal(real)
    party = solver.party_of(real, seat)
    variant = real.variant
    zero = [pass_value == "zero" and _is_auction_pass(real, a) for a in acts]
    skipped = {a for a, z in zip(acts, zero) if z}
    skip = (lambda a: a in skipped) if skipped and not played_out else None
    n_act = len(acts)
    sums = [0.0] * n_act
    sq = [0.0] * n_act
    po_sums = [0.0] * n_act
    po_sq = [0.0] * n_act
    best = [0] * n_act
    rng = random.Random(seed)
    for _ in range(samples):
        imagined = model.imagine(model.deal(rng))
        # a pass valued 0 is not solved: the rest of the auction is the costly part
        got = solver.action_values(imagined.table, skip=skip)
        if [a for a, _ in got] != list(acts):
            raise ValueError(f"position {position}: the legal actions differ in an imagined deal (a bug)")
        vals = []
        for j, (_, points) in enumerate(got):
            if points is None:
                vals.append(0.0)
                continue
            v = float(solver.value_for(variant, points, party))
            po_sums[j] += v
            po_sq[j] += v * v
            vals.append(0.0 if zero[j] else v)
        top = max(vals)
        for j, v in enumerate(vals):
            sums[j] += v
            sq[j] += v * v
            if v >= top - 1e-9:
                best[j] += 1

    def mean_se(s: float, s2: float) -> tuple:
        m = s / samples
        if samples < 2:
            return m, 0.0
        var = max(0.0, (s2 - samples * m * m) / (samples - 1))
        return m, math.sqrt(var / samples)

    options = []
    for j, a in enumerate(acts):
        m, se = mean_se(sums[j], sq[j])
        po_m = po_se = None
        if zero[j] and skip is None:
            po_m, po_se = mean_se(po_sums[j], po_sq[j])
        options.append(OptionEstimate(a, m, se, best[j] / samples, po_m, po_se))
    return SeatView(seat, samples, seed, pass_value, tuple(options), position)


# ------------------------------------------------------------------ the seat's own unknown cards

MAX_OWN_READINGS = 24
"""At most this many readings of the seat's own unknown cards are valued
(as the face-up solver's readings, ``review.MAX_READINGS``)."""


def _known_on_table(t: Table) -> set:
    """Every card the record states anywhere on table ``t`` (hands, kitty,
    dummy, ghost, dead hand, discards, cards seen, the trick, the up-card)."""
    out = set()
    for group in (*t.hands, t.kitty, t.dummy, t.ghost, t.dead):
        out.update(c for c in group if isinstance(c, str))
    out.update(c for _, c in t.discards)
    out.update(t.seen)
    out.update(c for _, c in t.trick)
    if t.up_card:
        out.add(t.up_card)
    return {c for c in out if not C.is_unknown(c)}


def own_readings(game, position: int, seat: int) -> Optional[list]:
    """Every way to read the cards of ``seat``'s own hand that the record does
    not state after ``position`` events (an EGN dealer's lost discard), as
    ``[(game, {card: unknown code}), ...]``: the game with those cards named
    in the deal's ``CardsDealt`` and in the seat's later events of the deal
    that carry them (its ``Discarded``), each unknown card read as one of the
    deck's cards the record states nowhere (a ``?D`` only as a diamond).
    The seat saw its own card, so each reading is a seat view of its own
    (docs/analysis.md "Cards the record does not know").  None when the hand
    holds no unknown card, or more than :data:`MAX_OWN_READINGS` readings."""
    from itertools import combinations, permutations
    from euchre_events.projections import Game
    if position < 0:
        position += len(game.events) + 1
    t = game.table_at(position)
    codes = [c for c in t.hands[seat] if C.is_unknown(c)]
    if not codes:
        return None
    events = list(game.events)
    start = next((i for i in range(position - 1, -1, -1) if events[i].kind == "DealStarted"), None)
    if start is None:
        return None
    end = next((i for i in range(position, len(events)) if events[i].kind == "DealStarted"), len(events))
    dealt_at = next((i for i in range(start + 1, position) if events[i].kind == "CardsDealt"), None)
    if dealt_at is None:
        return None
    dealt = events[dealt_at]
    slots = [i for i, c in enumerate(dealt.hands[seat]) if C.is_unknown(c)]
    if len(slots) != len(codes):
        return None     # an unknown card that came into the hand later: not read here
    pool = sorted(set(t.variant.deck()) - _known_on_table(t))
    codes = [dealt.hands[seat][i] for i in slots]
    # the same code twice (two ``??``): each set of cards once, in card order
    ways = combinations(pool, len(codes)) if len(set(codes)) == 1 else permutations(pool, len(codes))
    out = []
    for cards in ways:
        if all(_fits(code, card) for code, card in zip(codes, cards)):
            out.append(cards)
            if len(out) > MAX_OWN_READINGS:
                return None
    if not out:
        return None
    readings = []
    for cards in out:
        hand = list(dealt.hands[seat])
        for i, c in zip(slots, cards):
            hand[i] = c
        hands = tuple(tuple(hand) if s == seat else h for s, h in enumerate(dealt.hands))
        evs = list(events)
        evs[dealt_at] = CardsDealt(hands, dealt.up_card, dealt.kitty, dealt.dummy, dealt.ghost)
        left = dict(zip(cards, codes))
        for i in range(dealt_at + 1, end):
            ev = evs[i]
            card = getattr(ev, "card", None)
            if getattr(ev, "seat", None) == seat and card is not None and C.is_unknown(card):
                named = next((c for c, code in left.items() if code == card), None)
                if named is not None:
                    del left[named]
                    evs[i] = Discarded(seat, named) if ev.kind == "Discarded" else ev
        readings.append((Game(evs), dict(zip(cards, codes))))
    return readings


def seat_view_readings(game, position: int, *, samples: int = 200, seed: int = 0,
                       pass_value: str = "zero", played_out: bool = False) -> list:
    """The seat view of the decision after ``position`` events when the
    seat's own hand holds cards the record does not state: one
    :class:`SeatView` per reading of them (:func:`own_readings`), as
    ``[({card: unknown code}, SeatView), ...]`` (a reading's actions name its
    card; map them back with the dict).  The same samples and seed in every
    reading.  Raises :class:`~euchre_events.analysis.solver.Unknowable` when
    the cards cannot be read (none to read, or too many readings), and what
    :func:`seat_view` raises."""
    if position < 0:
        position += len(game.events) + 1
    seat = seat_on_turn(game, position)
    got = own_readings(game, position, seat)
    if got is None:
        raise _unknowable(f"the seat's own unknown cards cannot be read (more than {MAX_OWN_READINGS} "
                          "readings, or none fits the record)")
    return [(back, seat_view(g, position, samples=samples, seed=seed, pass_value=pass_value,
                             played_out=played_out)) for g, back in got]
