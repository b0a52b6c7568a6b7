"""A fast core for the regular one-deal game (issue 11 "Speed"): integer
cards, bit-mask hands, per-trump effective-suit masks (following suit is one
AND) and a trick-key table per (trump, led suit), all built from
:mod:`euchre_events.rules.cards` (rules.md 1.1-1.3: one rule in one place);
the deal's points and the game end come from the variant's own
``score_deal`` and ``game_winner`` (rules.md 2.6).

It is a shortcut, never a second set of rules: the engine
(:mod:`euchre_events.rules.engine`) stays the reference, and this core
**declines** (returns None) whatever it does not handle, so that the caller
folds the record with the engine as before.  A silently wrong answer is the
one outcome it must never give.

What it accepts (anything else: None):

* the ``standard`` variant (rules.md 2), one deal from the start of a game,
  with the options of :data:`FIXED` at those values (OpenSpiel's rules: the
  maker decides alone after the exchange, the dealer keeps the up-card, no
  Canadian rule, no named-suit rule, no fast break, no four-trick tokens);
  every other option of :class:`~euchre_events.rules.variants.standard.StandardOptions`
  (:data:`FREE`) at any value: ``stick_the_dealer``,
  ``stick_allows_turned_down``, ``defend_alone``, ``loner_lead``, the lone
  and euchre values, the target score, the renege options (no renege is
  accepted, so they never apply) ... A new option of the variant that is in
  neither list makes every game decline;
* a regular deal: each decision legal, in turn, the card in the hand, suit
  followed.  It declines at the first irregular or impossible decision (a
  renege, a stuck dealer's pass, the turned-down suit named, the up-card
  discarded, a card not held, an action after the end) and for a deal that
  stops before its end or whose end also ends the game.

Cards are ints ``rank * 4 + suit`` (:data:`CARD_CODES`: ``cards.RANKS`` and
``cards.SUITS`` order, so ``0 == "9C"``, ``9 == "JD"``); the decisions are
the compact action codes below (the same numbers OpenSpiel uses).  The
events the deal consists of come back as *event codes* (:func:`event_of`
gives each one's :class:`~euchre_events.events.Event`, made once and
shared).  Pure: no I/O.
"""
from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Callable, Optional, Sequence

from euchre_events.events import (CardPlayed, DealThrownIn, DefendedAlone, Discarded, Event,
                                  OrderedUp, Passed, PlayedWithPartner, TrumpNamed, UpCardPickedUp,
                                  WentAlone)
from euchre_events.rules import cards as C
from euchre_events.rules.actions import ALONE, CALL, CARD_CODES, PARTNER, PASS
from euchre_events.rules.playcore import legal_mask, next_seats, play_tables
from euchre_events.rules.variants.upcard import (dealer_is_stuck, defence_offered, defender_order,
                                                 may_discard, may_name_turned_down)

__all__ = ["CARD_CODES", "PASS", "CALL", "ALONE", "PARTNER", "FIXED", "FREE", "FastRules",
           "FastDeal", "fast_rules", "event_of"]

FIXED = {"alone_timing": "after_exchange", "dealer_may_decline_upcard": False,
         "dealers_partner_must_go_alone": False, "must_hold_named_suit": False,
         "fast_break": False, "four_trick_tokens": False}
"""Standard options the core accepts only at these values (rules.md 2.2-2.4, 2.9)."""
FREE = frozenset({"stick_the_dealer", "stick_allows_turned_down", "target_score", "loner_lead",
                  "lone_euchred_value", "defend_alone", "lone_defender_value", "super_euchre",
                  "dealer_may_discard_upcard", "exchange_when_dealer_out",
                  "thrown_in_next_dealer", "renege_penalty", "renege_symmetric",
                  "lone_renege_value", "loner_march_score", "num_deals",
                  "renege_enforcement", "renege_claim_window"})
"""Standard options the core accepts at any value (``exchange_when_dealer_out``:
with the alone decision after the exchange nobody sits out at the order-up)."""

# event codes: kind << 7 | seat << 5 | x (x: a card int, a suit index, or 0)
K_PASSED, K_ORDERED_UP, K_TRUMP_NAMED, K_PICKED_UP, K_DISCARDED, K_WENT_ALONE, \
    K_WITH_PARTNER, K_DEFENDED_ALONE, K_CARD_PLAYED, K_THROWN_IN = range(10)

# phases, as the engine names them (Table.phase)
ROUND1, ROUND2, PICKUP, DISCARD, ALONE_PHASE, DEFEND, PLAY, DEAL_OVER, THROWN_IN = (
    "round1", "round2", "pickup", "discard", "alone", "defend", "play", "deal_over", "thrown_in")

_EVENTS: dict = {}


def event_of(code: int) -> Event:
    """The event of an event code (one object per code, shared: events are
    immutable).  Raises ``ValueError`` for a code no deal gives."""
    ev = _EVENTS.get(code)
    if ev is None:
        kind, seat, x = code >> 7, (code >> 5) & 3, code & 31
        make = {K_PASSED: lambda: Passed(seat), K_ORDERED_UP: lambda: OrderedUp(seat),
                K_TRUMP_NAMED: lambda: TrumpNamed(seat, C.SUITS[x]),
                K_PICKED_UP: lambda: UpCardPickedUp(seat),
                K_DISCARDED: lambda: Discarded(seat, CARD_CODES[x]),
                K_WENT_ALONE: lambda: WentAlone(seat),
                K_WITH_PARTNER: lambda: PlayedWithPartner(seat),
                K_DEFENDED_ALONE: lambda: DefendedAlone(seat),
                K_CARD_PLAYED: lambda: CardPlayed(seat, CARD_CODES[x]),
                K_THROWN_IN: lambda: DealThrownIn("all passed")}.get(kind)
        if make is None or x >= 24 or (kind == K_TRUMP_NAMED and x >= 4):
            raise ValueError(f"{code} is not an event code")
        ev = _EVENTS[code] = make()
    return ev


def _tables():
    """Per trump suit index: the effective suit index of each card int, the
    mask of the cards of each effective suit, and the trick keys of each card
    per led suit: the bit-mask play core's tables
    (:meth:`euchre_events.rules.playcore.PlayTables.indexed`, read from
    ``cards.suit_and_power`` and ``cards.trick_keys``)."""
    per_trump = [play_tables(CARD_CODES, trump).indexed() for trump in C.SUITS]
    return tuple(zip(*per_trump))


_EFF, _MASKS, _KEYS = _tables()
_SUIT_OF = tuple(C.SUITS.index(c[1]) for c in CARD_CODES)
_BITS = tuple(1 << i for i in range(24))
_BIT = {i: 1 << i for i in range(24)}
"""The bit of each card int (``.get``: None for anything else)."""
_INT_ONLY = {int}
_CODE_BITS = dict(enumerate(_BITS + (0,) * (PARTNER + 1 - 24)))
"""The bit of each decision code: a card's, 0 for the others (no card of a
hand); a KeyError for an int that is no decision code."""
_PLAYED = tuple(K_CARD_PLAYED << 7 | s << 5 for s in range(4))
_NEXT = {out: next_seats(4, frozenset(out))
         for out in [()] + [(a,) for a in range(4)] + [(a, b) for a in range(4) for b in range(a + 1, 4)]}
"""The next seat clockwise that takes part, per tuple of seats sitting out
(sorted): :func:`euchre_events.rules.playcore.next_seats`."""
_THROWN = "thrown in"
"""What :meth:`FastRules._auction` gives for a deal everyone passed twice."""


_CACHED = 4096
"""Most entries of each cache of :class:`FastRules` (a batch from other
initial scores cannot grow them without bound)."""


_UNDEALT: dict = {}


def _undealt(dealt: int) -> tuple:
    """The card ints whose bit is not set in ``dealt`` (a mask of 21 cards),
    sorted; one tuple per distinct mask (2,024 at most)."""
    u = _UNDEALT.get(dealt)
    if u is None:
        u = _UNDEALT[dealt] = tuple(c for c in range(24) if not dealt >> c & 1)
    return u


class FastDeal:
    """What :meth:`FastRules.deal` gives for a regular deal: ``codes`` (the
    event codes after CardsDealt, in order), ``maker``, ``trump`` (suit
    letter), ``alone``, ``lone_defender`` (seats or None), ``out`` (sorted
    tuple of seats sitting out), ``trick_winners`` (seat per trick),
    ``tricks_won`` (per seat), ``points`` (per side, as played), ``scores``
    (per side after the deal), ``note`` (``""`` or ``"thrown in"``),
    ``undealt`` (the card ints of the deck in no hand and not the up-card,
    sorted: the kitty)."""

    __slots__ = ("codes", "maker", "trump", "alone", "lone_defender", "out", "trick_winners",
                 "tricks_won", "points", "scores", "note", "undealt")

    def __init__(self, codes, maker, trump, alone, lone_defender, out, trick_winners, tricks_won,
                 points, scores, note, undealt=()):
        self.codes, self.maker, self.trump, self.alone = codes, maker, trump, alone
        self.lone_defender, self.out, self.trick_winners = lone_defender, out, trick_winners
        self.tricks_won, self.points, self.scores, self.note = tricks_won, points, scores, note
        self.undealt = undealt


class FastRules:
    """The fast core for one accepted (variant, options): see the module
    docstring; made by :func:`fast_rules`."""

    def __init__(self, variant):
        self.variant = v = variant
        # the auction's rules as the variant states them (rules/variants/upcard.py)
        self.rules = r = v.upcard_rules
        # ... as tables, asked of upcard.py once here rather than at each decision:
        # per dealer, per seat: may not pass in round 2 / may name the turned-down suit;
        # per up-card, the mask of the cards the dealer may not discard
        self.stuck = tuple(tuple(dealer_is_stuck(r, s, d) for s in range(4)) for d in range(4))
        self.turned_ok = tuple(tuple(may_name_turned_down(r, s, d) for s in range(4)) for d in range(4))
        self.kept = tuple(sum(1 << c for c in range(24) if not may_discard(r, CARD_CODES[c], CARD_CODES[u]))
                          for u in range(24))
        self.offered = (defence_offered(v.options.defend_alone, False),
                        defence_offered(v.options.defend_alone, True))
        self.defenders = tuple(tuple(tuple(defender_order(d, m, 4, v.side_of)) for m in range(4))
                               for d in range(4))
        self.partner = tuple(v.partner_of(s) for s in range(4))
        self._leaders: dict = {}
        self._points: dict = {}
        self._ends: dict = {}
        self._finals: dict = {}
        self.zero_start_open = self.game_end((0, 0), (), (None, (0,) * 4, ())) is None

    def leader(self, dealer: int, alone, lone_defender, out: tuple) -> int:
        """The opening lead, as the variant's ``opening_leader`` gives it
        (rules.md 2.5), asked once per distinct case."""
        key = (dealer, alone, lone_defender)
        s = self._leaders.get(key)
        if s is None:
            s = self._leaders[key] = self.variant.opening_leader(dealer, alone, lone_defender,
                                                                 _NEXT[out].__getitem__)
        return s

    # the variant's own scoring and game end, asked once per distinct case
    def points(self, maker: int, alone, lone_defender, tricks_won: tuple) -> tuple:
        key = (maker, alone, lone_defender, tricks_won)
        p = self._points.get(key)
        if p is None:
            t = SimpleNamespace(maker=maker, alone=alone, lone_defender=lone_defender,
                                tricks_won=list(tricks_won), tricks=[], tokens=[],
                                options=self.variant.options)
            p = tuple(self.variant.score_deal(t))
            if len(self._points) < _CACHED:
                self._points[key] = p
        return p

    def game_end(self, scores: tuple, results: tuple, end: tuple):
        """The variant's ``game_winner`` at ``scores`` (per side) after the
        deals ``results`` (``((deal, points, note), ...)``, as
        ``Table.deal_results``), the last deal's ``end`` ``(maker,
        tricks_won, out)``."""
        key = (scores, results, end)
        if key in self._ends:
            return self._ends[key]
        maker, tricks_won, out = end
        t = SimpleNamespace(deal_results=list(results), maker=maker,
                            tricks_won=tuple(tricks_won), out=frozenset(out),
                            contract=None, options=self.variant.options)
        winner = self.variant.game_winner(t, list(scores))
        if len(self._ends) < _CACHED:
            self._ends[key] = winner
        return winner

    def deal(self, dealer: int, hands: Sequence[Sequence[int]], up: int, actions: Sequence[int],
             start: int = 0, initial_score: tuple = (0, 0),
             observe: Optional[Callable[[int, dict], None]] = None,
             ints: bool = False) -> Optional[FastDeal]:
        """Play the game's first deal: ``dealer`` (seat), ``hands`` (card
        ints per seat, 5 each), ``up`` (the up-card), ``actions[start:]``
        (decision codes, ints), from ``initial_score`` (per side).  Returns
        a :class:`FastDeal`, or None where the core declines (see the module
        docstring).  ``ints=True``: the caller vouches that ``dealer``,
        ``up`` and every item of ``hands`` and ``actions`` is an ``int``
        (not a bool, a float ...), as a typed decoder gives them (msgspec's
        ``int``), and the type checks are skipped; the values are checked
        all the same.  ``observe(code, state)``, if given, is called after each
        event with the event code and a dict of the table (``phase``,
        ``turn``, ``hands`` (card-int lists per seat, sorted), ``trick``
        (``[(seat, card int)]``), ``tricks_won``, ``trick_winners``,
        ``legal`` (the card ints the seat on turn may play, or None outside
        the play), ``maker``, ``trump``, ``alone``, ``lone_defender``,
        ``out``); for the tests that hold it against the engine."""
        rest = actions[start:]
        if type(rest) is not list:
            rest = list(rest)
        h = self._hands(dealer, hands, up, rest, ints)
        if h is None:
            return None
        dealt = h[0] | h[1] | h[2] | h[3] | _BITS[up]
        if type(initial_score) is not tuple:
            initial_score = tuple(initial_score)
        if initial_score != (0, 0) or not self.zero_start_open:
            if self.game_end(initial_score, (), (None, (0,) * 4, ())) is not None:
                return None   # already won at the start: the engine flags it
        it = iter(rest)
        codes: list = []
        bid = self._auction(dealer, h, up, it, codes, observe)
        if bid is None:
            return None
        if bid is _THROWN:
            if next(it, None) is not None:
                return None           # goes on after the end
            pts = (0, 0)
            scores = (initial_score[0] + pts[0], initial_score[1] + pts[1])
            if self.game_end(scores, ((1, pts, "all passed"),), (None, (0,) * 4, ())) is not None:
                return None           # the deal ends the game
            return FastDeal(codes, None, None, None, None, (), (), (0, 0, 0, 0), pts, scores,
                            "thrown in", _undealt(dealt))
        maker, trump, alone, lone_def, out = bid
        played = self._tricks(h, it, codes, self.leader(dealer, alone, lone_def, out), maker,
                              trump, alone, lone_def, out, observe)
        if played is None:
            return None
        winners, won = played
        key = (maker, alone, lone_def, won, initial_score)
        end = self._finals.get(key)
        if end is None:     # the variant's points and game end, asked once per distinct case
            pts = self.points(maker, alone, lone_def, won)
            scores = (initial_score[0] + pts[0], initial_score[1] + pts[1])
            ends = self.game_end(scores, ((1, pts, "played"),), (maker, won, out)) is not None
            end = (pts, scores, ends)
            if len(self._finals) < _CACHED:
                self._finals[key] = end
        if end[2]:
            return None               # the deal ends the game
        return FastDeal(codes, maker, C.SUITS[trump], alone, lone_def, out, winners, won,
                        end[0], end[1], "", _undealt(dealt))

    @staticmethod
    def _hands(dealer, hands, up, rest: list, ints: bool) -> Optional[list]:
        """The four hands as card masks, or None for what is no regular deal
        of five cards each: a seat, card or decision code that is no int
        (unless ``ints``), a dealer out of range, a card twice."""
        if len(hands) != 4:
            return None
        h0, h1, h2, h3 = hands
        if not ints and (type(dealer) is not int or type(up) is not int
                         or set(map(type, [*h0, *h1, *h2, *h3])) != _INT_ONLY
                         or rest and set(map(type, rest)) != _INT_ONLY):
            return None               # bool, float ...: not a seat, card or action code
        if not 0 <= dealer < 4 or len(h0) != 5 or len(h1) != 5 or len(h2) != 5 or len(h3) != 5:
            return None
        b = _BIT                      # a KeyError for what is no card int
        try:
            a0, a1, a2, a3, a4 = h0
            m0 = b[a0] | b[a1] | b[a2] | b[a3] | b[a4]
            a0, a1, a2, a3, a4 = h1
            m1 = b[a0] | b[a1] | b[a2] | b[a3] | b[a4]
            a0, a1, a2, a3, a4 = h2
            m2 = b[a0] | b[a1] | b[a2] | b[a3] | b[a4]
            a0, a1, a2, a3, a4 = h3
            m3 = b[a0] | b[a1] | b[a2] | b[a3] | b[a4]
            mu = b[up]
        except KeyError:
            return None
        if (m0 + m1 + m2 + m3 + mu).bit_count() != 21:
            return None               # a card twice (in a hand, or in two: a carry)
        return [m0, m1, m2, m3]

    def _auction(self, dealer: int, h: list, up: int, it, codes: list, observe):
        """The auction, the exchange and the alone decisions (rules.md
        2.2-2.4), each rule asked of :mod:`~euchre_events.rules.variants.upcard`
        with the variant's :class:`UpCardRules`: the event codes are
        appended to ``codes`` and ``h`` (masks) updated.  Returns ``(maker,
        trump suit index, alone, lone defender, out)`` once the play
        starts, :data:`_THROWN` when everyone passed twice, or None to
        decline (an irregular decision, or the actions stop)."""
        stuck, turned_ok = self.stuck[dealer], self.turned_ok[dealer]
        up_suit = _SUIT_OF[up]
        phase = ROUND1
        turn = (dealer + 1) & 3
        passes = 0
        maker = trump = alone = lone_def = None
        out = ()
        defenders: list = []
        emit = codes.append
        for a in it:
            if phase is ROUND1 or phase is ROUND2:
                if a == PASS:
                    if phase is ROUND2 and stuck[turn]:
                        return None  # a stuck dealer passes: flagged by the engine
                    emit(K_PASSED << 7 | turn << 5)
                    passes += 1
                    if passes == 4:
                        phase = ROUND2
                    elif passes == 8:
                        phase = THROWN_IN
                        turn = None
                        if observe is not None:
                            self._show(observe, codes[-1], locals(), [])
                        emit(K_THROWN_IN << 7)
                        phase = DEAL_OVER
                        if observe is not None:
                            self._show(observe, codes[-1], locals(), [])
                        return _THROWN
                    turn = (turn + 1) & 3
                elif CALL <= a < CALL + 4:
                    suit = a - CALL
                    maker = turn
                    trump = suit
                    if phase is ROUND1:
                        if suit != up_suit:
                            return None   # the reader refuses it
                        emit(K_ORDERED_UP << 7 | turn << 5)
                        if observe is not None:
                            self._show(observe, codes[-1], dict(locals(), phase=PICKUP, turn=dealer), [])
                        emit(K_PICKED_UP << 7 | dealer << 5)
                        h[dealer] |= _BITS[up]
                        phase, turn = DISCARD, dealer
                    else:
                        if suit == up_suit and not turned_ok[turn]:
                            return None   # the turned-down suit named: flagged by the engine
                        emit(K_TRUMP_NAMED << 7 | turn << 5 | suit)
                        phase = ALONE_PHASE
                else:
                    return None
            elif phase is DISCARD:
                bit = _CODE_BITS.get(a, 0)
                if not h[dealer] & bit:
                    return None       # not a card, or not in the dealer's hand
                if bit & self.kept[up]:
                    return None       # the up-card discarded: flagged by the engine
                h[dealer] ^= bit
                emit(K_DISCARDED << 7 | dealer << 5 | a)
                phase, turn = ALONE_PHASE, maker
            elif phase is ALONE_PHASE:
                if a == ALONE:
                    emit(K_WENT_ALONE << 7 | turn << 5)
                    alone = maker
                    out = (self.partner[maker],)
                elif a == PARTNER:
                    emit(K_WITH_PARTNER << 7 | turn << 5)
                else:
                    return None
                if self.offered[alone is not None]:
                    defenders = list(self.defenders[dealer][maker])
                    phase, turn = DEFEND, defenders.pop(0)
                else:
                    phase = PLAY
            else:                     # DEFEND
                if a == ALONE:
                    emit(K_DEFENDED_ALONE << 7 | turn << 5)
                    lone_def = turn
                    out = tuple(sorted(out + (self.partner[turn],)))
                    phase = PLAY
                elif a == PARTNER:
                    emit(K_WITH_PARTNER << 7 | turn << 5)
                    if defenders:
                        turn = defenders.pop(0)
                    else:
                        phase = PLAY
                else:
                    return None
            if phase is PLAY:
                return maker, trump, alone, lone_def, out
            if observe is not None:
                self._show(observe, codes[-1], locals(), [])
        return None                   # stops before the end

    @staticmethod
    def _tricks(h: list, it, codes: list, turn: int, maker, trump: int, alone, lone_def,
                out: tuple, observe):
        """The play of the five tricks (rules.md 1.3, 2.5) from ``turn`` (the
        opening leader) on the play core's tables: the event codes are
        appended to ``codes``.  Returns ``(trick winners, tricks won per
        seat)``, or None to decline (a renege, a card not held, an action
        that is no card, the actions stopping or going on after the end)."""
        phase = PLAY
        nxt = _NEXT[out]
        size = 4 - len(out)
        if observe is not None:
            FastRules._show(observe, codes[-1], locals(), [])
        eff, masks, keys_t = _EFF[trump], _MASKS[trump], _KEYS[trump]
        played = _PLAYED
        code_bits = _CODE_BITS
        emit = codes.append
        winners: list = []
        won = [0, 0, 0, 0]
        nt = led = best = bs = 0
        keys = None
        try:
            for a in it:
                bit = code_bits[a]    # a KeyError for no decision code
                hm = h[turn]
                if not hm & bit:
                    return None       # not a card, or not in the hand: the engine refuses it
                if nt:
                    if eff[a] != led and hm & masks[led]:
                        return None   # a renege (playcore.legal_mask): the audit reports it
                    k = keys[a]
                    if k > best:      # the first highest key wins (cards.winning_index)
                        best, bs = k, turn
                    nt += 1
                else:
                    led = eff[a]
                    keys = keys_t[led]
                    best, bs, nt = keys[a], turn, 1
                h[turn] = hm ^ bit
                emit(played[turn] | a)
                if nt < size:
                    turn = nxt[turn]
                else:
                    winners.append(bs)
                    won[bs] += 1
                    turn = bs
                    nt = 0
                    if len(winners) == 5:
                        turn = None
                        phase = DEAL_OVER
                        if observe is not None:
                            FastRules._show(observe, codes[-1], locals(), [])
                        break
                if observe is not None:
                    FastRules._show(observe, codes[-1], locals(), codes[len(codes) - nt:] if nt else [])
        except KeyError:
            return None
        if phase is not DEAL_OVER or next(it, None) is not None:
            return None               # stops before the end, or goes on after it
        return tuple(winners), tuple(won)

    @staticmethod
    def _show(observe, code: int, loc: dict, trick_codes: list) -> None:
        ph = loc["phase"]
        h = loc["h"]
        trump = loc["trump"]
        legal = None
        trick = [((c >> 5) & 3, c & 31) for c in trick_codes]
        if ph is PLAY:
            led_mask = _MASKS[trump][_EFF[trump][trick[0][1]]] if trick else 0
            hm = legal_mask(h[loc["turn"]], led_mask)
            legal = [c for c in range(24) if hm & _BITS[c]]
        observe(code, {
            "phase": ph, "turn": loc["turn"],
            "hands": [[c for c in range(24) if hm & _BITS[c]] for hm in h],
            "trick": trick, "tricks_won": list(loc.get("won", (0, 0, 0, 0))),
            "trick_winners": list(loc.get("winners", ())), "legal": legal,
            "maker": loc["maker"], "trump": None if trump is None else C.SUITS[trump],
            "alone": loc["alone"], "lone_defender": loc["lone_def"], "out": tuple(loc["out"])})


_RULES: dict = {}


def fast_rules(variant) -> Optional[FastRules]:
    """The :class:`FastRules` for ``variant`` (a
    :class:`~euchre_events.rules.variant.Variant`, as the registry makes
    it), or None when the core does not accept it (see the module
    docstring).  Cached per variant."""
    r = _RULES.get(variant, False)
    if r is not False:
        return r
    r = None
    from euchre_events.rules.variant import PLAY_HOOKS, Variant
    cls = type(variant)
    if variant.name == "standard" and variant.n_seats == 4 \
            and all(getattr(cls, h) is getattr(Variant, h) for h in PLAY_HOOKS) \
            and variant.partnerships and variant.hand_size == 5 and variant.tricks_per_deal == 5 \
            and sorted(variant.deck()) == sorted(CARD_CODES):
        o = variant.options
        names = {f.name for f in dataclasses.fields(o)}
        if names <= FREE | FIXED.keys() and all(getattr(o, k) == x for k, x in FIXED.items()) \
                and o.defend_alone in ("off", "vs_lone", "any") \
                and o.loner_lead in ("left_of_dealer", "left_of_loner"):
            r = FastRules(variant)
    if len(_RULES) < 256:
        _RULES[variant] = r
    return r
