"""What a seat could know: one projection for every position and every seat
(docs/design.md "What a seat could know").  Every seat view (the CLI's ``show
--seat``, the viewer, the HTML export, the tutorials) draws from it.

At a position (the table after ``position`` events) a seat knows:

* its own hand, and every card it has seen in this deal: its hand as dealt
  (a ghost swapper its dead hand too), the up-card (public while face up,
  rules.md 2.1), every card played or taken back (rules.md 1.5), its own
  face-down discards (the dealer's exchange, rules.md 2.2; the cutthroat
  maker's five dummy discards, 4.3; the joker-deck dealer's discard, 7.8),
  the dummy once it took it (4.3), the ghost hand once it took it (5.2), a
  card passed to it in partner's best once the exchange is done (7.3), a
  hand shown to claim a redeal (7.9);
* what it knows of other hands: the up-card the dealer picked up in view of
  all (only *may* hold once the dealer has discarded face down, unless the
  game forbids discarding the up-card), the card it passed in partner's
  best, a card taken back, a shown hand;
* the voids others have shown: a seat that did not follow the led suit is
  void in it, the led suit being the *effective* suit under trump (the left
  bower is a trump, rules.md 1.2, 1.3).  A renege (rules.md 1.5) makes a
  shown void false: the seat only *appears* void; the void notes it
  (:attr:`ShownVoid.renege_position`) and says whether this seat could know
  it yet (:attr:`ShownVoid.known_false`: it is the offender, or the
  offender has since shown a card of that suit);
* the cards still out (not seen by this seat) per suit, and the highest card
  left in each suit (the master card) among the cards it does not know to be
  out of play;
* which events it may read in full, and which only as what it saw
  (:func:`private_to`, :func:`event_visible`): the dealer's discard, the
  cards passed in partner's best, the cutthroat dummy, the ghost hand and the
  deal itself (each seat sees its own hand; the kitty, the undealt cards of
  two-handed Euchre, the dummy and the ghost hand nobody sees).

Shapes and units: seats are indices ``0..n-1`` clockwise; positions count
events (``position`` = the table after the first ``position`` events, as in
:meth:`~euchre_events.projections.Game.state_at`; an event's own index is
``k``, 0-based); cards are codes (``"JD"``, ``"TH"``, ``"JK"``,
``"JS#2"``); ``"??"`` is a card *the record* does not state, ``None`` a card
*this seat* cannot see (face down); suits are ``C D H S`` (and
:data:`JOKER_KEY` for the joker at no-trump, a suit of its own, rules.md 7.8).
Knowledge is per deal: a new deal starts from nothing.

Pure: no I/O.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Sequence

from euchre_events.events import Event
from euchre_events.rules import cards as C
from euchre_events.rules.cards import UNKNOWN
from euchre_events.rules.engine import fold, new_table
from euchre_events.rules.registry import make_variant

__all__ = ["SeatKnowledge", "ShownVoid", "knowledge", "knowledge_of_state", "event_visible",
           "visible_from", "private_to", "JOKER_KEY", "SUIT_KEYS"]

JOKER_KEY = "JK"
"""The key of the joker in :attr:`SeatKnowledge.cards_out` and
:attr:`SeatKnowledge.master` at no-trump, where it belongs to no suit (rules.md 7.8)."""
SUIT_KEYS = C.SUITS
"""Suit keys of the per-suit readouts, in order (``C D H S``)."""

_PICKED_UP = "picked up"
# up-card statuses while it may still be taken up (the auction of rules.md 2.2)
_UP_LIVE_PHASES = ("round1", "pickup")


# ------------------------------------------------------------------ events

def private_to(ev: Event) -> Optional[frozenset]:
    """The seats that see all of ``ev``, or None for a public event.

    * ``CardsDealt``: nobody sees every hand (each seat its own, and the
      up-card: rules.md 2.1): ``frozenset()``;
    * ``Discarded``: the discarder only (face down: rules.md 2.2, 4.3, 7.8);
    * ``CardPassed``: the giver and the receiver (partner's best, face down,
      rules.md 7.3; the receiver sees it once the exchange is done, see
      :func:`event_visible`);
    * ``DummyTaken``: the maker, who now sees the dummy (rules.md 4.3);
    * ``HandSwappedWithGhost``: the swapper, who now sees the ghost hand
      (taken blind, the hand given up stays face down: rules.md 5.2).

    Everything else (calls, bids, plays, corrections) happens in view of the
    table.
    """
    k = ev.kind
    if k == "CardsDealt":
        return frozenset()
    if k in ("Discarded", "DummyTaken", "HandSwappedWithGhost"):
        return frozenset((ev.seat,))
    if k == "CardPassed":
        return frozenset((ev.seat, ev.to_seat))
    return None


def visible_from(events: Sequence[Event], k: int, seat: Optional[int]) -> Optional[int]:
    """The position from which ``seat`` may read event ``k`` in full, or None
    if it never may (it sees the event only as what it saw).

    ``events``: the game's events (or a :class:`~euchre_events.projections.Game`);
    ``k``: 0-based index; ``seat``: a seat index, or None for the all-hands
    (director's) view, which reads everything.  Usually ``k + 1`` (as soon as
    it happens) or None (:func:`private_to`).  The one later case: in
    partner's best the choices are blind (rules.md 7.3), so the receiver reads
    a passed card from the position where the whole exchange is done.
    Raises ``IndexError`` for ``k`` outside the events.
    """
    events = getattr(events, "events", events)
    ev = events[k]
    who = None if seat is None else private_to(ev)
    if who is None:
        return k + 1
    if seat not in who:
        return None
    if ev.kind == "CardPassed" and seat == ev.to_seat and seat != ev.seat:
        return _exchange_end(events, k)
    return k + 1


def event_visible(events: Sequence[Event], k: int, seat: Optional[int], at: Optional[int] = None) -> bool:
    """Whether ``seat`` may read event ``k`` of ``events`` in full (True), or
    only as what it saw (False: the cards in it are face down for this seat).

    ``at``: the position shown (the table after ``at`` events; default the
    end of the record); an event not yet applied at ``at`` (``k >= at``) is
    judged as it will be seen when it happens.  See :func:`visible_from`
    (the rule) and :func:`private_to`.  Raises ``IndexError`` for ``k``
    outside the events.
    """
    events = getattr(events, "events", events)
    start = visible_from(events, k, seat)
    if start is None:
        return False
    return max(len(events) if at is None else at, k + 1) >= start


def _exchange_end(events: Sequence[Event], k: int) -> Optional[int]:
    """The position just after the last pass of the partner's-best exchange
    holding pass ``k``, or None if the record stops before it is done (the
    passes are the only events of the exchange, so an event after its last
    pass means it was done)."""
    j = k
    while j + 1 < len(events) and events[j + 1].kind == "CardPassed":
        j += 1
    if j + 1 < len(events):
        return j + 1
    # the record stops on a pass: only the engine knows whether more are owed
    done = fold(new_table(), events, 0, j + 1).phase != "pb_exchange"
    return j + 1 if done else None


def _deal_start(events: Sequence[Event], position: int) -> Optional[int]:
    """Index of the DealStarted of the deal shown after ``position`` events."""
    for i in range(min(position, len(events)) - 1, -1, -1):
        if events[i].kind == "DealStarted":
            return i
    return None


# ------------------------------------------------------------------ knowledge

@dataclass(frozen=True)
class ShownVoid:
    """A void a seat has shown: it did not follow ``suit`` when it was led.

    ``seat``: who showed it; ``suit``: the led suit, effective under the
    deal's trump (rules.md 1.2: a left bower played to a trump lead follows
    suit and shows nothing); ``trick``: the trick (from 1) where it was
    first shown (after a false showing, a renege, the later showing);
    ``card``: the card played then; ``renege_position``: the position of the play when the record shows the seat held the suit after
    all (a renege, rules.md 1.5: the seat only appears void), else None;
    ``known_false``: whether the seat whose knowledge this is could know the
    void is false by now (it is the offender itself, or the offender has
    since shown a card of the suit: played it, taken it back, or it is known
    to hold it).
    """

    seat: int
    suit: str
    trick: int
    card: str
    renege_position: Optional[int] = None
    known_false: bool = False

    @property
    def only_appears(self) -> bool:
        """True when the record shows the void is false (a renege)."""
        return self.renege_position is not None


@dataclass(frozen=True)
class SeatKnowledge:
    """What ``seat`` could know after ``position`` events (see the module docstring).

    * ``seat``, ``position``, ``deal`` (from 1; 0 before the first deal),
      ``trump`` (suit letter, None for none yet or no-trump), ``n_seats``;
    * ``hand``: its own hand now (card codes, ``"??"`` where the record does
      not say); ``hands``: for every seat, that hand as this seat sees it
      (its own in full; another's known cards, then the cards it *may* hold,
      then ``None`` for each face-down card: hand sizes are public);
    * ``seen``: every card it has seen in this deal (``frozenset``);
      ``gone``: the cards it knows are out of play (played, turned down,
      discarded by itself, dead, or in the hand of a seat that sits out);
    * ``known_held`` / ``may_hold``: ``{seat: (cards, ...)}`` another seat
      surely holds / may hold (the picked-up up-card after a face-down discard);
    * ``voids``: :class:`ShownVoid` of the *other* seats, one per seat and
      suit, in seat then suit order; ``reneges_known``: positions of the
      reneges of this deal this seat could know of;
    * ``unseen``: the deck's cards it has not seen (sorted); ``cards_out``:
      ``{suit: (cards, ...)}`` those by effective suit, high to low;
      ``master``: ``{suit: card or None}``, the highest card of each suit not
      known to be out of play (possibly its own);
    * ``up_card``, ``up_card_status`` (public); ``kitty``, ``dummy``,
      ``ghost``, ``dead``: as this seat sees them (``None`` face down);
      ``discards``: ``((seat, card or None), ...)``; ``passes``:
      ``((giver, receiver, card or None), ...)`` (partner's best);
    * ``private_events``: indices of this deal's events (before
      ``position``) it may read only as what it saw (:func:`event_visible`).
    """

    seat: int
    position: int
    deal: int
    n_seats: int
    trump: Optional[str] = None
    hand: tuple = ()
    hands: tuple = ()
    seen: frozenset = frozenset()
    gone: frozenset = frozenset()
    known_held: dict = field(default_factory=dict)
    may_hold: dict = field(default_factory=dict)
    voids: tuple = ()
    reneges_known: tuple = ()
    unseen: tuple = ()
    cards_out: dict = field(default_factory=dict)
    master: dict = field(default_factory=dict)
    up_card: Optional[str] = None
    up_card_status: str = ""
    kitty: tuple = ()
    dummy: tuple = ()
    ghost: tuple = ()
    dead: tuple = ()
    discards: tuple = ()
    passes: tuple = ()
    private_events: tuple = ()

    def readable(self, k: int) -> bool:
        """Whether event ``k`` of this deal (before ``position``) may be read in full."""
        return k not in self.private_events

    def voids_of(self, seat: int) -> tuple:
        """The :class:`ShownVoid` of ``seat`` (suit order)."""
        return tuple(v for v in self.voids if v.seat == seat)

    def sees_card(self, card: str) -> bool:
        """True if this seat has seen ``card`` in this deal."""
        return card in self.seen


def knowledge(game, position: int, seat: int) -> SeatKnowledge:
    """What ``seat`` could know after the first ``position`` events of ``game``.

    ``game``: a :class:`~euchre_events.projections.Game`; ``position``:
    ``0..len(game.events)`` (negative counts from the end, as
    :meth:`~euchre_events.projections.Game.state_at`); ``seat``: ``0..n-1``.
    Raises ``IndexError`` for a position outside the game, ``ValueError``
    for a seat the game does not have.
    """
    from euchre_events.projections.state import snapshot
    state = snapshot(game.table_at(position), with_legal=False)
    return knowledge_of_state(state, seat, events=game.events, variant=game.final.variant)


def knowledge_of_state(state, seat: int, events: Optional[Sequence[Event]] = None,
                       variant=None) -> SeatKnowledge:
    """What ``seat`` could know at ``state`` (a
    :class:`~euchre_events.projections.TableState` after ``state.position``
    events).

    ``events``: the game's events (at least the first ``state.position``);
    they add what a table state does not keep: cards taken back
    (``PlayCorrected``), the suit named for a joker led at no-trump, a hand
    shown for a redeal, and which events are private.  Without them those
    are left out (no private events are listed).  ``variant``: the game's
    :class:`~euchre_events.rules.variant.Variant` (its options say whether the
    dealer may discard the up-card, whether the joker may be played at any
    time, low no-trump); default: the variant of ``state.variant`` with its
    default options.  Raises ``ValueError`` for a seat the game does not have.
    """
    n = len(state.players)
    if seat is None or not 0 <= int(seat) < n:
        raise ValueError(f"seat {seat!r} does not exist in this game (seats 0..{n - 1})")
    seat = int(seat)
    if variant is None and state.variant:
        variant = make_variant(state.variant)
    if not state.deal or not state.dealt:
        return SeatKnowledge(seat=seat, position=state.position, deal=state.deal, n_seats=n,
                             hands=tuple(() for _ in range(n)))
    options = getattr(variant, "options", None)
    trump = state.trump
    hands = [tuple(h) for h in state.hands]

    # --- what the events add (this deal only)
    withdrawn: list = []        # (seat, card) taken back in view of the table
    joker_suits: list = []      # suits named for jokers led at no-trump, in order
    shown_hands: list = []      # seats that showed their hand for a redeal
    private: list = []
    if events is not None:
        events = getattr(events, "events", events)
        start = _deal_start(events, state.position)
        if start is not None:
            for i in range(start, min(state.position, len(events))):
                ev = events[i]
                if ev.kind == "PlayCorrected":
                    withdrawn.append((ev.seat, ev.card))
                elif ev.kind == "JokerSuitNamed":
                    joker_suits.append(ev.suit)
                elif ev.kind == "DealThrownIn" and ev.seat is not None:
                    shown_hands.append(ev.seat)   # shown to claim the redeal (rules.md 7.9)
                if not event_visible(events, i, seat, at=state.position):
                    private.append(i)

    played = [c for _, plays, _ in state.tricks for _, c in plays] + [c for _, c in state.trick]
    played_set = set(played)
    x = state.extra or {}

    # --- cards seen
    seen = set(hands[seat]) | set(state.dealt[seat] if seat < len(state.dealt) else ())
    seen |= played_set
    seen.update(c for s, c in withdrawn)
    if state.up_card is not None:
        seen.add(state.up_card)
    own_discards = [c for s, c in state.discards if s == seat]
    seen.update(own_discards)
    swapped = x.get("swapped")
    dead_seen = swapped == seat
    if dead_seen:
        seen.update(state.dead)
    exchange_done = state.phase != "pb_exchange"
    passes = []
    for giver, to, card in x.get("pb_cards", ()) or ():
        sees = seat == giver or (seat == to and exchange_done)
        passes.append((giver, to, card if sees else None))
        if sees:
            seen.add(card)
    for s in shown_hands:
        seen.update(hands[s])

    # --- what it knows of the other hands
    known: dict = {}
    maybe: dict = {}

    def hold(where: dict, s: int, card: str) -> None:
        if s != seat and not C.is_unknown(card) and card not in played_set and card not in where.get(s, ()):
            where[s] = where.get(s, ()) + (card,)

    d = state.dealer
    if state.up_card_status == _PICKED_UP and d is not None and state.up_card not in played_set:
        discarded = any(s == d for s, _ in state.discards)
        may_discard_it = getattr(options, "dealer_may_discard_upcard", True)
        # taken up in view of all; a face-down discard after it may have been the up-card itself
        hold(maybe if (discarded and may_discard_it) else known, d, state.up_card)
    if exchange_done:
        for giver, to, card in x.get("pb_cards", ()) or ():
            if giver == seat:
                hold(known, to, card)
    for s, card in withdrawn:
        if card in hands[s]:
            hold(known, s, card)
    for s in shown_hands:
        for card in hands[s]:
            hold(known, s, card)

    # --- cards it knows are out of play
    gone = set(played_set) | set(own_discards)
    if state.up_card is not None and state.up_card_status != _PICKED_UP and not (
            state.up_card_status == "face up" and state.phase in _UP_LIVE_PHASES):
        gone.add(state.up_card)    # turned down, left on the table, or face down with the kitty
    if dead_seen:
        gone.update(state.dead)
    out = set(state.sitting_out)
    if seat in out:
        gone.update(hands[seat])
    for s in out:
        gone.update(known.get(s, ()))
    gone = {c for c in gone if not C.is_unknown(c)}     # "??", "?D": no card named
    seen = {c for c in seen if not C.is_unknown(c)}

    # --- voids shown (rules.md 1.2, 1.3), checked against the record's reneges (1.5)
    reneges = {(r.trick, r.seat, r.card): r.position for r in state.reneges
               if r.deal == state.deal and getattr(r, "corrected_at", None) is None}
    tricks = [plays for _, plays, _ in state.tricks] + ([tuple(state.trick)] if state.trick else [])
    showings = []                 # (seat, suit, trick, card, renege position)
    later_suits: dict = {}        # seat -> [(trick, effective suit)] of its plays
    jokers = iter(joker_suits)
    for t_no, plays in enumerate(tricks, 1):
        lead = plays[0][1]
        led = None
        if not C.is_unknown(lead):
            led = C.effective_suit(lead, trump)
            if led is None:       # the joker led at no-trump: the suit its leader named (7.8)
                led = next(jokers, None)
        for i, (s, c) in enumerate(plays):
            if C.is_unknown(c):
                # the table saw the card, the record does not name it: it shows a suit
                # only where its printed suit ("?D") settles it, and a void where its
                # suit rules the led suit out or the engine proved it off-suit (a
                # renege recorded whatever the unknown card is, rules.md 1.5)
                suits = C.possible_suits(c, trump)
                if len(suits) == 1:
                    later_suits.setdefault(s, []).append((t_no, next(iter(suits))))
                if i and led is not None and (led not in suits or (t_no, s, c) in reneges):
                    showings.append((s, led, t_no, c, reneges.get((t_no, s, c))))
                continue
            later_suits.setdefault(s, []).append((t_no, C.effective_suit(c, trump)))
            if i == 0 or led is None:
                continue
            if C.effective_suit(c, trump) != led and not (
                    variant is not None and variant.exempt_from_following(state, c)):
                showings.append((s, led, t_no, c, reneges.get((t_no, s, c))))

    def shown_false(s: int, suit: str, t_no: int) -> bool:
        if any(tn > t_no and su == suit for tn, su in later_suits.get(s, ())):
            return True
        if any(w == s and C.effective_suit(c, trump) == suit for w, c in withdrawn):
            return True
        return any(C.effective_suit(c, trump) == suit for c in known.get(s, ()))

    latest: dict = {}
    reneges_known = []
    for s, suit, t_no, c, rp in showings:
        kf = rp is not None and (s == seat or shown_false(s, suit, t_no))
        if rp is not None and kf:
            reneges_known.append(rp)
        old = latest.get((s, suit))
        # a void reads from the trick it was first shown; a false one (a renege) gives
        # way to a later showing, which may be true
        if s != seat and (old is None or old.renege_position is not None):
            latest[(s, suit)] = ShownVoid(s, suit, t_no, c, rp, kf)
    voids = tuple(latest[key] for key in sorted(latest, key=lambda k: (k[0], SUIT_KEYS.index(k[1]))))

    # --- cards out and master cards, per effective suit
    deck = variant.deck() if variant is not None else C.deck()
    low = bool(getattr(options, "low_no_trump", False)) and trump is None and state.maker is not None

    eff = C.suit_and_power(trump)[0]
    keys = list(SUIT_KEYS) + ([JOKER_KEY] if trump is None and any(C.base(c) == C.JOKER for c in deck) else [])
    by_key: dict = {k: [] for k in keys}
    for c in deck:                # each suit's cards, effective under trump (rules.md 1.2)
        k = eff.get(c) or JOKER_KEY
        if k in by_key:
            by_key[k].append(c)

    def power(card: str) -> int:
        return C.strength(card, trump, low)

    unseen = [c for c in deck if c not in seen]
    cards_out = {}
    master = {}
    for k, cards in by_key.items():
        ranked = sorted(cards, key=power, reverse=True)   # stable: the first copy of twins first
        cards_out[k] = tuple(c for c in ranked if c not in seen)
        master[k] = next((c for c in ranked if c not in gone), None)

    # --- everything else as this seat sees it
    def face(cards, visible: bool) -> tuple:
        return tuple(cards) if visible else (None,) * len(cards)

    shown = []
    for s in range(n):
        h = hands[s] if s < len(hands) else ()
        if s == seat:
            shown.append(h)
            continue
        k_cards, m_cards = known.get(s, ()), maybe.get(s, ())
        rest = max(0, len(h) - len(k_cards) - len(m_cards))
        shown.append(tuple(k_cards) + tuple(m_cards) + (None,) * rest)

    return SeatKnowledge(
        seat=seat, position=state.position, deal=state.deal, n_seats=n, trump=trump,
        hand=hands[seat], hands=tuple(shown), seen=frozenset(seen), gone=frozenset(gone),
        known_held=known, may_hold=maybe, voids=voids, reneges_known=tuple(sorted(reneges_known)),
        unseen=tuple(sorted(unseen)), cards_out=cards_out, master=master,
        up_card=state.up_card, up_card_status=state.up_card_status,
        kitty=face(state.kitty, False), dummy=face(state.dummy, False),
        ghost=face(state.ghost, False), dead=face(state.dead, dead_seen),
        discards=tuple((s, c if s == seat else None) for s, c in state.discards),
        passes=tuple(passes), private_events=tuple(private))
