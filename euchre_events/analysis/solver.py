"""The face-up solver (issue 21, item 1): the exact value of every legal
action of a position when every hand is visible and every seat plays
perfectly to the end of the deal.  Pure: no I/O.

A *position* is a :class:`~euchre_events.rules.table.Table` in the middle
of a deal, of any of the six variants with any options, in any phase the
variant has: the auction (pass, order, name, bids, alone, moon), the
exchanges (the dealer's discard, partner's best passes, the ghost swap,
the cutthroat dummy, Buck's drop-outs) and the play of tricks.  The rules
are the engine's: every action comes from
:func:`~euchre_events.rules.engine.legal_actions`, and the points of a
finished deal from the variant's own scoring (``score_deal``, rules.md 2.6,
3.4, 4.5, 5.4, 6.4, 7.5); nothing of the rules is written again here.

**Units.** Values are *deal points*: the points vector of the deal (one int
per party, ``variant.n_sides``; as :attr:`Table.deal_results` records it;
a thrown-in deal is 0 to every party).  Buck counts down (rules.md 6.4), so
its *utility* is the points negated (:func:`utilities`).

**Model.**

* Two parties (standard, two-handed, Bid): minimax on the net value, the
  party's utility minus the other's (+1/+2/+4 for makers, -2 euchred; Bid:
  both sides score, net).  Perfect play is then zero-sum.  Of the actions
  with equal net value the one with the most own points is taken (in the
  play of a fixed contract the net value decides the points vector, so
  this only matters between calls of the auction).
* More than two parties (cutthroat, Ghost Hand, Buck): *max-n*: each seat
  maximises its own utility.  **Tie rule**: of the actions with equal own
  utility a seat takes the one that leaves the least to its rivals (the
  lowest sum of the other parties' utilities: every other party is a rival
  in the race to the target).
* Remaining ties (the same values, a different split among the others)
  go to the points vector whose utilities, read as a tuple in party order,
  are the smallest; actions reaching the very same vector are equal, and
  the first in ``legal_actions`` order is named.  The rule reads only the
  vectors, so equal cards searched once give the same answer.
* The dealer's discard after an order-up is chosen by the dealer (so the
  best for the dealer's side): this falls out of the search.  A seat
  deciding with a forced single action (the dealer picking up) just takes
  it.

Two methods give the same answers: ``"reference"``, the plain search by
the engine (legal_actions / apply on table copies), the oracle of the
tests; ``"fast"``, the default: the auction and the exchanges by the
engine as in the reference, the play of tricks on bit masks
(:mod:`euchre_events.rules.playcore`) with alpha-beta, a transposition
table at trick starts, the exact cut-offs of Euchre's scoring (a deal's
value depends only on how many tricks each party takes: once it is decided
the search stops) and equal cards searched once.  Where the fast play
cannot rank the cards (a variant with its own play hooks: Bid's joker, see
``engine.fast_plays_ok``) or the scoring depends on more than the tricks
taken (standard's ``fast_break``), the play falls back to the reference.

The fast play search runs compiled when the optional C extension
``euchre_events/analysis/_playsearch.c`` is built (``pip install``
compiles it where a C compiler is present): the same search, move for
move, over tables this module computes from ``rules/`` (card suits, trick
keys per led suit, equal-card runs, who follows whom, each party's value
of every tricks-won outcome); nothing of the rules is in C.  A contract's
dealer's discards and lone-hand choice are searched there too, from one
set-up (:func:`_exchange`): the choices and the play starts they lead to
are made by the engine, the nets by the variant's scoring; what the engine
gives there that does not depend on the cards held (the other discards of
the same dealer's hand, a choice's play starts, a call's choice) is made
once and read again (:data:`_DISCARD_KIDS`, :data:`_CHOICES`,
:data:`_CHOICE_KIDS`).  Without it
(or with the environment variable ``EUCHRE_EVENTS_NO_C=1``, or
:func:`use_compiled` ``(False)``) the Python search runs; the answers are
the same.

A card the record does not state (``??``, ``?D``) in a hand still to be
played, the dummy or the ghost hand makes the position :class:`Unknowable`;
a card out of play (a buried discard, the kitty) never does.
"""
from __future__ import annotations

import os
from itertools import islice, product
from operator import itemgetter
from typing import Callable, Optional, Sequence

from euchre_events.events import Event
from euchre_events.rules import playcore
from euchre_events.rules import cards as C
from euchre_events.rules.variant import PLAY_HOOKS, Variant
from euchre_events.rules.engine import apply, apply_legal, fast_plays_ok, legal_actions, play_actions
from euchre_events.rules.table import DEAL_OVER, GAME_OVER, PLAY, Table

__all__ = ["Unknowable", "party_of", "utilities", "value_for", "action_values", "solve", "METHODS",
           "compiled_available", "use_compiled", "clear_caches"]

METHODS = ("fast", "reference")

try:   # the optional compiled play search (setup.py: an optional Extension)
    from euchre_events.analysis import _playsearch as _COMPILED
except ImportError:   # no compiler at install time: the Python search
    _COMPILED = None

_C = None if os.environ.get("EUCHRE_EVENTS_NO_C") else _COMPILED


def compiled_available() -> bool:
    """True if the compiled play search (``_playsearch``) was built and imports."""
    return _COMPILED is not None


def use_compiled(on: bool) -> bool:
    """Use the compiled play search (``on=True``, where built) or the Python
    one (``False``) for the fast method; returns the previous setting.  The
    answers are the same; the environment variable ``EUCHRE_EVENTS_NO_C=1``
    starts a process with the Python search."""
    global _C
    before = _C is not None
    _C = _COMPILED if on else None
    clear_caches()
    return before


def clear_caches() -> None:
    """Forget the play values kept across calls (:data:`_PLAYS`), so that
    the next solve searches again (the tests compare the searches)."""
    _PLAYS.clear()
    _LEAF.clear()
    _DECK_PT.clear()
    _HAND_MASKS.clear()
    _LAST_MASKS[:] = (None, None, (), None, -1, ())
    _KB.clear()
    _DISCARD_KIDS.clear()
    _CHOICES.clear()
    _CHOICE_KIDS.clear()
    _CLAMPED.clear()
    _SHAPE_IDS.clear()
    if _COMPILED is not None:
        _COMPILED.exchange_clear()


class Unknowable(ValueError):
    """A face-up solve needs a card the record does not state (``??``,
    ``?D``): the message names the seat (or hand) and why.  Never guessed."""


# ------------------------------------------------------------------ values

def party_of(t: Table, seat: int) -> int:
    """The party (side) ``seat`` scores for: ``t.variant.side_of(seat)``."""
    return t.variant.side_of(seat)


def _counts_down(variant) -> bool:
    """Buck scores count down: fewer points are better (rules.md 6.4)."""
    return variant.name == "buck"


def utilities(variant, points: Sequence[int]) -> tuple:
    """Per party, bigger is better: the points themselves, negated in Buck
    (which counts down, rules.md 6.4).  ``points``: one int per party."""
    if _counts_down(variant):
        return tuple(-p for p in points)
    return tuple(points)


def value_for(variant, points: Sequence[int], party: int) -> float:
    """The value of a deal's ``points`` (one int per party) from ``party``'s
    side, in deal points: with two parties the net, own utility minus the
    other's; with more, the party's own utility."""
    u = utilities(variant, points)
    if len(u) == 2:
        return u[party] - u[1 - party]
    return u[party]


def _pick(variant, party: Optional[int], vecs: Sequence[tuple]) -> int:
    """Index of the child a deciding ``party`` takes among the points
    vectors ``vecs`` (in legal order): the model and tie rule of the module
    docstring.  The choice depends only on the vectors (the first index of
    the chosen vector), never on where an action stands in the hand: equal
    cards searched once give the same answer."""
    if party is None or len(vecs) == 1:
        return 0
    down = _counts_down(variant)
    best_i, best_k = 0, None
    for i, v in enumerate(vecs):
        k = _pick_key(down, party, v)
        if best_k is None or k > best_k:
            best_i, best_k = i, k
    return best_i


def _pick_key(down: bool, party: int, v: Sequence[int]) -> tuple:
    """How much ``party`` likes the points vector ``v`` (bigger is better;
    distinct vectors have distinct keys): the model and tie rule of the
    module docstring.  ``down``: the variant counts down (Buck)."""
    if len(v) == 2:
        u0, u1 = (-v[0], -v[1]) if down else (v[0], v[1])
        own, other = (u0, u1) if party == 0 else (u1, u0)
        return (own - other, own, (-u0, -u1))
    u = tuple(-p for p in v) if down else tuple(v)
    return (u[party], u[party] - sum(u), tuple(-x for x in u))


# ------------------------------------------------------------------ positions

_OVER_PHASES = (DEAL_OVER, GAME_OVER)


def _over(t: Table) -> bool:
    return t.phase in _OVER_PHASES


def _check_known(t: Table) -> None:
    """Raise :class:`Unknowable` when a card still to be played (or that
    may still be taken into a hand: the dummy, the ghost hand) is not
    stated by the record, or the trick being played holds one."""
    if _over(t):
        return
    if t.dealer is None or not t.hands:
        raise ValueError(f"no deal is being played at this position (phase {t.phase})")
    play = t.phase == PLAY
    for s, hand in enumerate(t.hands):
        if (play and s in t.out) or "?" not in "".join(hand):   # (no "?" at all: none unknown)
            continue
        bad = [c for c in hand if c[:1] == "?"]
        if bad:
            raise Unknowable(f"seat {s} holds {len(bad)} card{'' if len(bad) == 1 else 's'} the record does not state "
                             f"({bad[0]}): "
                             "the value depends on which cards they are, and they are never guessed")
    if play:
        for s, c in t.trick:
            if c[:1] == "?":
                raise Unknowable(f"seat {s} played a card the record does not state ({c}) to the trick "
                                 "being played: who wins it cannot be known")
    else:
        for name in ("dummy", "ghost"):
            cards = getattr(t, name)
            if not cards:
                continue
            bad = [c for c in cards if c[:1] == "?"]
            if bad:
                raise Unknowable(f"the {name} hand holds a card the record does not state ({bad[0]}), "
                                 "and it may still be taken into play")


def _decider(t: Table, acts) -> Optional[int]:
    """The party that chooses among ``acts``: the seat on turn's (or the
    acting seat's, where the engine has none on turn)."""
    s = t.turn
    if s is None:
        s = getattr(acts[0], "seat", None)
    return None if s is None else t.variant.side_of(s)


def _points(t: Table) -> tuple:
    return tuple(t.deal_results[-1][1])


def _reference(t: Table) -> tuple:
    """The points vector of ``t`` under perfect play: the plain engine search."""
    if _over(t):
        return _points(t)
    return _by_children(t, _reference)


def _by_children(t: Table, value: Callable) -> tuple:
    """The points vector of ``t`` (the deal not over) picked among its
    children's: each legal action played by the engine on a copy, valued by
    ``value(copy)``.  ValueError where ``t`` has no legal action."""
    acts, reason = legal_actions(t)
    if not acts:
        raise ValueError(f"no legal action at this position ({reason})")
    vecs = []
    for a in acts:
        c = t.copy()
        apply(c, a)
        vecs.append(value(c))
    return vecs[_pick(t.variant, _decider(t, acts), vecs)]


def _discard_run(t: Table, acts) -> Optional[tuple]:
    """``(seat, phase)`` when every action at ``t`` is a discard by one seat
    (the dealer's discard, the cutthroat maker's discards after taking the
    dummy, rules.md 2.2, 4.3), else None."""
    seat = None
    for a in acts:
        if getattr(a, "kind", None) != "Discarded" or (seat is not None and a.seat != seat):
            return None
        seat = a.seat
    return seat, t.phase


def _fast(t: Table, memo: dict, after: Optional[tuple] = None, own: bool = False) -> Optional[tuple]:
    """The points vector of ``t`` under perfect play: the engine for the
    auction and the exchanges, the bit-mask play search from the first lead.

    Discards in a row by one seat in one phase (the cutthroat maker's five
    after taking the dummy, rules.md 4.3) may come in any order and leave
    the same table whichever the order: they are searched as *sets*, each
    once, by taking them in card-code order.  ``after`` is ``(seat, phase,
    card)`` of the discard just made; a discard of a lower code at the next
    node is skipped, and a node with none left returns None (a set reached
    in another order).  The first discard of a run (the one an action at
    the root stands for) is never restricted, so each root action is still
    valued over every set it belongs to.  ``own``: ``t`` is a copy nobody
    reads after the call (its last child is played on it: :func:`_fast_node`)."""
    if _over(t):
        return _points(t)
    key = _node_key(t, after)
    try:
        got = memo.get(key, memo)
    except TypeError:   # a slot holding something unhashable: not memoised
        return _fast_node(t, memo, after, None, own)
    if got is not memo:
        return got
    v = memo[key] = _fast_node(t, memo, after, key, own)
    return v


_AV = object()
"""The memo's tag for a node's action values: ``memo[(_AV, node key)]`` is
``((action, points vector), ...)`` in legal order, as :func:`action_values`
returns them, kept by :func:`_fast_node` where it valued every child (the
par line and the decisions then read the auction's values, not search them)."""


def _fast_node(t: Table, memo: Optional[dict], after: Optional[tuple], key=None, own: bool = False) -> Optional[tuple]:
    """:func:`_fast` at a position not in ``memo`` (the deal not over);
    ``key``: its node key, under which the children's values are kept;
    ``own``: ``t`` is a copy nobody reads after the call (its last child
    is played on it, not on a copy)."""
    if t.phase == PLAY:
        if _NET_AB and t.maker is not None and _C is not None and t.variant.n_sides == 2 \
                and t.variant not in _NOT_NET:
            # a play start of the exchanges (the children of the dealer's discard and of a
            # lone hand's choice): the full-window leaf, which reads the tricks' bounds
            # (:data:`_KB`) the par's windowed searches left
            try:
                return _vec_of(_net_leaf(t, memo, -_INF, _INF))
            except _NotNet:
                pass
        v = _play_fast(t, memo)
        if v is None and _variant_play(t.variant)[0] and t.variant.trick_order(t):
            # the order of the tricks decides (a fast break may still come): the cards one
            # by one, by the engine, each position after them searched by counts once it can
            v = _children_fast(t, memo)
        return _reference(t) if v is None else v
    if _NET_AB and t.maker is not None and _C is not None and t.variant.n_sides == 2 \
            and t.variant not in _NOT_NET:
        try:
            if after is None and key is not None:   # (:func:`_fast` found no value under key, and keeps the one found)
                return _vec_of(_net_ab(t, memo, -_INF, _INF, False, key, True))
            return _vec_of(_net_ab(t, memo, -_INF, _INF, False, None))
        except _NotNet:
            if len(_NOT_NET) < 1024:
                _NOT_NET.add(t.variant)
    acts, reason = legal_actions(t)
    if not acts:
        raise ValueError(f"no legal action at this position ({reason})")
    run = _discard_run(t, acts)
    if run is not None and after is not None and run == after[:2]:
        acts = [a for a in acts if a.card > after[2]]
        if not acts:
            return None
    variant, party = t.variant, _decider(t, acts)
    last = len(acts) - 1 if own else -1
    kids = None   # the auction's calls that lead to a choice met in an earlier deal (:data:`_CHOICE_KIDS`)
    if _SHARE_CHOICES and run is None and after is None and key is not None and t.maker is None \
            and _NET_AB and _C is not None and variant.n_sides == 2 and variant not in _NOT_NET:
        try:
            vk = (variant, _K_CACHE, _BUT_CARDS(key))
            kids = _CHOICE_KIDS.get(vk)
            if kids is None:
                if len(_CHOICE_KIDS) > 10_000:
                    _CHOICE_KIDS.clear()
                kids = _CHOICE_KIDS[vk] = {}
        except TypeError:
            kids = None
    shared = None   # {index: value} of the calls valued by :func:`_choice_kid`
    if kids is not None:
        hk = key[_HANDS_AT]
        for i, a in enumerate(acts):
            e = kids.get(a)
            if e:
                v = _choice_kid(t, e, hk)   # (on t's hands: before any child is played on t)
                if v is not None:
                    if shared is None:
                        shared = {}
                    shared[i] = v
        if shared is not None and own:
            # the last child that needs a table is played on t (a pass, where every call
            # after it was valued without its position): one copy less
            last = max((i for i in range(len(acts)) if i not in shared), default=-1)
    vecs = []
    for i, a in enumerate(acts):
        if shared is not None:
            v = shared.get(i)
            if v is not None:
                vecs.append(v)
                continue
        c = t if i == last else t.copy()
        apply_legal(c, a)
        if kids is not None and a not in kids:
            e, ck = _choice_kid_entry(c, key)
            kids[a] = e
            if e:
                # a choice met the first time (a new dealer or auction: the warm-up of a
                # process): valued by the one compiled call its later meetings make, on the
                # node key just made, not through the memo (no second key, legal actions
                # and decider of the same position)
                x = _exchange(c, list(e[0][3]), e[2], -_INF, _INF, ck)
                if x is not None:
                    vecs.append(_vec_of(x))
                    continue
        v = _fast(c, memo, None if run is None else (run[0], run[1], a.card), True)
        if v is not None:
            vecs.append(v)
    if not vecs:
        return None
    if run is None and after is None and key is not None and memo is not None and len(vecs) == len(acts):
        memo[(_AV, key)] = tuple(zip(acts, vecs))
    return vecs[_pick(variant, party, vecs)]


def _children_fast(t: Table, memo: Optional[dict]) -> tuple:
    """The points vector of the play position ``t`` from its children's
    (:func:`_fast` of each legal card played on a copy, by the engine): where
    the bit-mask search does not apply at ``t`` but may at the positions
    after it (``Variant.trick_order`` True: a fast break still possible
    before the third trick, rules.md 2.9)."""
    if memo is None:
        memo = {}
    return _by_children(t, lambda c: _fast(c, memo))


_CHOICE_KIDS: dict = {}
"""``{(variant, _K_CACHE, an auction position's node key but its cards): {call: [its
:data:`_CHOICES` key, the entry there once found, the choice's party] or False}}``: a call
that makes the contract and moves no card, after which the maker's choice (alone or not,
rules.md 2.3) leads straight to the play (False: any other call).  Where the same position
but its cards comes again (the same dealer and calls in another deal), :func:`_fast_node`
values such a call by one compiled call on the position's own hands (:func:`_choice_kid`),
without making the position after it: what the engine gives there (the contract, the
choice's actions, the play starts' seating and nets) does not depend on the cards held."""


def _choice_kid_entry(c: Table, pkey: tuple) -> tuple:
    """``(entry, node key of c)``: :data:`_CHOICE_KIDS`' entry of the position
    ``c`` after a call at the auction position of node key ``pkey``, made by
    the engine, with ``c``'s node key (:func:`_node_key`, for
    :func:`_exchange`); ``(False, None)`` where it is not a contract's choice
    as :func:`_net_ab` hands it to :func:`_exchange` (two to four actions, no
    discard) or the call moved a card."""
    if c.maker is None or c.phase == PLAY or c.phase in _OVER_PHASES:
        return False, None
    try:
        ck = _node_key(c, None)
    except TypeError:
        return False, None
    if _CARDS_OF(ck) != _CARDS_OF(pkey):
        return False, None
    acts2, _ = legal_actions(c)
    if not 2 <= len(acts2) <= 4 or _discard_run(c, acts2) is not None:
        return False, None
    party2 = _decider(c, acts2)
    if party2 is None:
        return False, None
    if len(acts2) == 2:
        acts2 = acts2[::-1]   # :func:`_net_ab`'s order
    return [(c.variant, _K_CACHE, _BUT_CARDS(ck), tuple(acts2)), None, party2], ck


def _choice_kid(t: Table, e: list, hkey=None) -> Optional[tuple]:
    """The points vector after a call at ``t`` whose :data:`_CHOICE_KIDS`
    entry is ``e``, by the compiled call :func:`_exchange` makes there
    (the full window: exact), on ``t``'s hands; None where :data:`_CHOICES`
    has no entry for it yet or the hands are not the regular play it found.
    ``hkey``: ``t``'s hands as its node key holds them (:func:`_exchange_call`)."""
    ch = e[1]
    if ch is None:
        ch = e[1] = _CHOICES.get(e[0])
        if ch is None:
            return None
    opts, shapes, tabs, n_cards = ch
    hands = t.hands
    for h in hands:
        if len(h) != n_cards:
            return None
    val = _exchange_call(opts, shapes, tabs, hands, None, -1, (), e[2], e[2], -_INF, _INF, hkey)
    if val is None:
        return None
    STATS["shared"] += 1
    return _vec_of(val)


# ------------------------------------------------------------------ the contract's exchanges: alpha-beta on the net

class _NotNet(Exception):
    """A position :func:`_net_ab` does not take (the caller values it the exact way)."""


_NET_AB = True
"""Use :func:`_net_ab` and :func:`_discards_then_plays` where they apply (the tests
compare them with the plain search)."""
_INF = 1 << 20
_NO_BOUNDS = (-_INF, _INF)
_BOUNDS = object()
"""The memo's slot for :func:`_net_ab`'s bounds (``{node key: (low, high)}``)."""
_NOT_NET: set = set()
"""Variants (with their options) found to score both sides in one deal: not for :func:`_net_ab`."""
_SINGLE: dict = {}
"""``{id(outcomes): (outcomes, every vector scores one side only)}``."""


def _one_side(p) -> bool:
    return len(p) == 2 and p[0] >= 0 and p[1] >= 0 and (p[0] == 0 or p[1] == 0)


def _vec_of(net: int) -> tuple:
    """The points vector of side 0's net ``net`` when one side only scores."""
    return (net, 0) if net > 0 else (0, -net)


def _single_scorer(outcomes: dict) -> bool:
    got = _SINGLE.get(id(outcomes))
    if got is None or got[0] is not outcomes:
        got = (outcomes, all(_one_side(p) for p in outcomes.values()))
        if len(_SINGLE) > 50_000:
            _SINGLE.clear()
        _SINGLE[id(outcomes)] = got
    return got[1]


def _net_ab(t: Table, memo: dict, alpha: int, beta: int, own: bool = False, key=None, top: bool = False) -> int:
    """Side 0's net value of ``t`` (a position after the contract is made:
    the pick-up, the dealer's discard, a lone hand declared after it, the
    play) clamped to ``[alpha, beta]``, by alpha-beta over the engine's
    actions down to the play, whose search reads the nets clamped the same
    way (a monotone change of the values, which minimax carries through).

    Exact where the module's model is plain minimax on the net: two
    parties, and every outcome scores one side only (standard Euchre,
    two-handed: rules.md 2.6, 3.4), so that the net decides the points
    vector and the tie rule never has two vectors of one net to choose
    between.  Raises :class:`_NotNet` elsewhere (a deal that scores both
    sides, a play the bit-mask search does not take).  Exact values go in
    ``memo`` as the points vector (as :func:`_fast` keeps them), bounds in
    ``memo[_BOUNDS]``.  ``own``: ``t`` is a copy nobody reads after the call
    (a child made here): its last child is played on it, not on a copy.
    ``key``: ``_node_key(t, None)`` where the caller has it; ``top``: the
    caller (:func:`_fast`, the full window) found no value under ``key`` in
    ``memo`` and keeps the one this returns (not looked up, nor kept, here)."""
    if t.phase in _OVER_PHASES:
        p = _points(t)
        if not _one_side(p):
            raise _NotNet
        n = p[0] - p[1]
        return alpha if n < alpha else beta if n > beta else n
    if key is None:
        key = _node_key(t, None)
    if not top:
        got = memo.get(key)
        if got is not None:
            if not _one_side(got):
                raise _NotNet
            n = got[0] - got[1]
            return alpha if n < alpha else beta if n > beta else n
    bounds = memo.get(_BOUNDS)
    if bounds is None:
        bounds = memo[_BOUNDS] = {}
    got = bounds.get(key, _NO_BOUNDS) if bounds else _NO_BOUNDS   # (no hash of the key when none is kept)
    lo, hi = got
    if lo >= beta:
        return beta
    if hi <= alpha:
        return alpha
    a, b = max(alpha, lo), min(beta, hi)
    if t.phase == PLAY:
        v = _net_leaf(t, memo, a, b)
    else:
        acts, reason = legal_actions(t)
        if not acts:
            raise ValueError(f"no legal action at this position ({reason})")
        party = _decider(t, acts) if len(acts) > 1 else 0
        if party is None:
            raise _NotNet
        if len(acts) == 2:
            # the order of the search only, never its value: of two actions the second first
            # (the engine lists going alone before playing with the partner, whose play is
            # more often the better and the same under every maker of a side: :data:`_KB`);
            # the better child searched first leaves the other a narrower window
            acts = acts[::-1]
        # (one action, such as the pick-up: its child searched below, no call set up)
        v = _exchange(t, acts, party, a, b, key) if _EXCHANGE and len(acts) > 1 else None
        last = len(acts) - 1 if own else -1   # an own table is the last child's (no copy)
        if v is not None:
            pass
        elif party == 0:
            v = a
            for i, act in enumerate(acts):
                c = t if i == last else t.copy()
                apply_legal(c, act)
                x = _net_leaf(c, memo, v, b) if c.phase == PLAY else _net_ab(c, memo, v, b, True)
                if x > v:
                    v = x
                    if v >= b:
                        break
        else:
            v = b
            for i, act in enumerate(acts):
                c = t if i == last else t.copy()
                apply_legal(c, act)
                x = _net_leaf(c, memo, a, v) if c.phase == PLAY else _net_ab(c, memo, a, v, True)
                if x < v:
                    v = x
                    if v <= a:
                        break
    if a < v < b or (v <= a and a == lo) or (v >= b and b == hi):
        if not top:
            memo[key] = _vec_of(v)      # exact (at a bound the other bound meets)
        if got is not _NO_BOUNDS:   # (a descendant never has this node's key)
            bounds.pop(key, None)
    elif v <= a:
        bounds[key] = (lo, a)
    else:
        bounds[key] = (b, hi)
    return alpha if v < alpha else beta if v > beta else v


_SHAPE_IDS: dict = {}
"""``{(play shape, cards a trick, twins): id}``: the ids under which ``_playsearch.exchange``
keeps the tricks' bounds of the plays it searches (forgotten with them: :func:`clear_caches`)."""

_SHARE_KIDS = True
"""Let :func:`_exchange` read the other discards' positions from :data:`_DISCARD_KIDS`
(the tests compare it with making them for every maker)."""
_DISCARD_KIDS: dict = {}
"""``{(variant, the discard position's node key but its pos, maker, auction and seat on turn, the discards):
(the first discard's node key but the same four, the seat's hand after each other discard)}``:
the dealer's discards after the pick-up are the same whoever ordered it up (rules.md 2.2), so
:func:`_exchange` makes and checks them by the engine for the first maker of a deal only; for
the next it makes the first discard and finds it the same but for those four slots."""

_SHARE_CHOICES = True
"""Let :func:`_exchange` read a choice's play starts' parameters from :data:`_CHOICES`
(the tests compare it with making them every time)."""
_CHOICES: dict = {}
"""``{(variant, the choice's position's node key but its cards, the choice's actions): (each play
start's parameters for the compiled search, their shapes' ids, the play tables, cards a hand)}``: where a
contract's last choice (alone or not, rules.md 2.3) leads straight to the play and moves no
card, the play starts' seating, leader, seats out and nets (:func:`_play_prep`,
:func:`_contract`) come from the contract, not from the cards held: :func:`_exchange`
makes them by the engine for the first deal of a contract and reads them for the next (the
hands' masks made from each deal's own hands)."""

_EXCHANGE = True
"""Let :func:`_net_ab` search a dealer's discard and the lone-hand choice after it
(or that choice alone) by one compiled call (:func:`_exchange`; the tests compare
it with the search over the engine's children)."""


def _exchange(t: Table, acts: list, party: int, a: int, b: int, tkey=None) -> Optional[int]:
    """Side 0's net of ``t`` clamped to ``[a, b]`` by ONE compiled call
    (``_playsearch.exchange``) where ``t``'s actions ``acts`` (in the order
    :func:`_net_ab` searches them) are the discards of one seat (rules.md
    2.2) each leading to a choice whose every action starts the play (alone
    or not, rules.md 2.3), or are themselves such a choice; None where that
    is not so (the caller searches the engine's children).

    Every discard is made by the engine, and the positions after them are
    checked equal in every slot but the hands and the discards, with the
    same legal actions (as :func:`_discards_then_plays` checks); each play
    start is made by the engine after the first discard and must move no
    card, so that the plays after the other discards differ only in that
    seat's hand.  The play starts' seating, leader and nets come from
    :func:`_play_prep` and :func:`_contract` (the variant's own scoring);
    the compiled search walks the same alpha-beta as :func:`_net_ab` over
    them, each play on the nets clamped to its window (as :func:`_net_leaf`;
    without its tricks' bounds :data:`_KB`, which it neither reads nor
    keeps)."""
    if _C is None or len(acts) > 16:
        return None
    run = _discard_run(t, acts) if len(acts) > 1 else None
    seat_kids = None
    if run is not None:
        seat = acts[0].seat
        base = t.copy()
        apply_legal(base, acts[0])
        if base.phase == PLAY or base.phase in _OVER_PHASES:
            return None
        try:
            k0 = _node_key(base, None)
            tk = tkey if tkey is not None else _node_key(t, None)
        except TypeError:
            return None
        acts2, _ = legal_actions(base)
        if not acts2:
            return None
        # the other discards' positions, made and checked once for every maker of the same
        # dealer's hand (:data:`_DISCARD_KIDS`)
        skey = (t.variant, _BUT_MAKER(tk), tuple(acts)) if _SHARE_KIDS else None
        got = _DISCARD_KIDS.get(skey) if skey is not None else None
        if got is not None and got[0] == _BUT_MAKER(k0):
            seat_kids = got[1]
            STATS["shared"] += 1
        else:
            same = k0[:_HANDS_AT] + k0[_HANDS_AT + 1:_DISCARDS_AT] + k0[_DISCARDS_AT + 1:]
            seat_kids = []
            for act in acts[1:]:
                c = t.copy()
                apply_legal(c, act)
                if c.phase == PLAY or c.phase in _OVER_PHASES:
                    return None
                k = _node_key(c, None)
                if k[:_HANDS_AT] + k[_HANDS_AT + 1:_DISCARDS_AT] + k[_DISCARDS_AT + 1:] != same \
                        or legal_actions(c)[0] != acts2:
                    return None
                seat_kids.append(c.hands[seat])
            if skey is not None:
                if len(_DISCARD_KIDS) > 10_000:
                    _DISCARD_KIDS.clear()
                _DISCARD_KIDS[skey] = (_BUT_MAKER(k0), seat_kids)
        party2 = _decider(base, acts2) if len(acts2) > 1 else 0
        if party2 is None:
            return None
        if len(acts2) == 2:
            acts2 = acts2[::-1]   # :func:`_net_ab`'s order
    else:
        seat, base, acts2, party2 = -1, t, acts, party
    if not 1 <= len(acts2) <= 4:
        return None
    base_hands = base.hands
    all_masks = None
    # the play starts' parameters, the same for every deal's hands (:data:`_CHOICES`)
    ckey = got = hkey = None
    if _SHARE_CHOICES:
        try:
            bk = k0 if run is not None else (tkey if tkey is not None else _node_key(t, None))
            ckey = (t.variant, _K_CACHE, _BUT_CARDS(bk), tuple(acts2))   # (the variant: a node key is one game's)
            got = _CHOICES.get(ckey)
            hkey = bk[_HANDS_AT]
        except TypeError:
            ckey = got = hkey = None
    if got is not None:
        opts, shapes, tabs, n_cards = got
        STATS["shared"] += 1
        for h in base_hands:
            if len(h) != n_cards:   # (not the regular play the set-up found: the engine's children)
                return None
    else:
        opts = []
        tabs = None
        last = len(acts2) - 1 if run is not None else -1   # base is this call's own: the last choice made on it
        for i, a2 in enumerate(acts2):
            if i == last:
                base_hands = [h[:] for h in base_hands]   # (the other choices' plays read them)
                g = base
            else:
                g = base.copy()
            apply_legal(g, a2)
            if g.phase != PLAY or g.hands != base_hands:
                return None
            prep = _play_prep(g)
            if prep is None or prep[2]:
                return None
            pt, hands, _, active, left, size, twins, key = prep
            if key[-2] is None or any(g.tricks_won):
                return None
            if all_masks is None and len(active) == len(hands):
                all_masks = (pt, hands)   # every seat in play: each hand's mask, as below would make it
            ctx = _contract(g, pt, active, left, key)
            if not ctx[0] or ctx[1] is None:
                return None
            _, nets_l, _, nxt, side, cap, lead, _, _, per_deal, _ = ctx
            if tabs is None:
                tabs = (pt, cap, lead, twins, per_deal)
            elif tabs[1] is not cap or tabs[2] is not lead or tabs[3] != twins or tabs[4] != per_deal:
                return None
            inplay = 0
            for s2 in active:
                inplay |= 1 << s2
            # the play's shape (:data:`_KB`) with its cards a trick: the compiled search keeps
            # the tricks' bounds of the plays it searches under an id of it (:data:`_SHAPE_IDS`)
            opts.append(((side, nxt, g.turn, size, nets_l, inplay),
                         (ctx[-1], size) if _K_CACHE and ctx[-1] is not None else None))
        shapes = []
        for _, shape in opts:
            if shape is None:
                shapes.append(-1)
                continue
            sk = (shape, twins)
            sid = _SHAPE_IDS.get(sk)
            if sid is None:
                if len(_SHAPE_IDS) >= 1 << 30:
                    clear_caches()
                sid = _SHAPE_IDS[sk] = len(_SHAPE_IDS)
            shapes.append(sid)
        opts = [o for o, _ in opts]
        n_cards = len(base_hands[0]) if base_hands else -1
        deck = _variant_play(t.variant)[2]   # (tables over the whole deck: the same for every deal)
        if ckey is not None and deck is not None and tabs[0].codes == deck[0] \
                and all(len(h) == n_cards for h in base_hands):
            if len(_CHOICES) > 10_000:
                _CHOICES.clear()
            _CHOICES[ckey] = (opts, shapes, tabs, n_cards)
    return _exchange_call(opts, shapes, tabs, base_hands, all_masks, seat, seat_kids, party, party2, a, b, hkey)


_LAST_MASKS: list = [None, None, (), None, -1, ()]
"""``[deck codes, hands as a tuple of tuples, their masks, the discards' hands (the list
object), the discarding seat, its masks]`` of :func:`_exchange_call`'s last hands given with
their key: the next call on the same hands (and the same discards' list) reads them."""


def _known_masks(pt) -> dict:
    """``{hand as a tuple: mask}`` over ``pt``'s deck, as :func:`_play_prep_deck` keeps them."""
    known = _HAND_MASKS.get(id(pt.codes))
    if known is None or known[0] is not pt.codes:
        known = _HAND_MASKS[id(pt.codes)] = (pt.codes, {})
    return known[1]


def _masks_of(pt, base_hands) -> Optional[list]:
    """The masks of the hands ``base_hands`` over ``pt``'s deck, or None where a
    card is not of the deck or is held twice (as :func:`_play_prep` finds)."""
    known = _known_masks(pt)
    bit = pt.bit
    hands = []
    held = 0
    for h in base_hands:
        h = tuple(h)
        m = known.get(h)
        if m is None:
            m = _new_hand_mask(h, bit, known)
        if m < 0 or m & held:
            return None
        held |= m
        hands.append(m)
    return hands


def _exchange_call(opts, shapes, tabs, base_hands, all_masks, seat: int, seat_kids, party: int, party2: int,
                   a: int, b: int, hkey=None) -> Optional[int]:
    """The compiled call of :func:`_exchange` (and of :func:`_fast_node`'s
    choices met again, :data:`_CHOICE_KIDS`): ``opts``, ``shapes``, ``tabs``
    as :data:`_CHOICES` keeps them, ``base_hands`` the hands before the
    choice (``all_masks``: ``(play tables, their masks)`` where the caller
    has them; ``hkey``: ``base_hands`` as a node key holds them, a tuple of
    tuples, where the caller has it), ``seat`` the discarding seat (-1: none)
    with its hand after each other discard (``seat_kids``); None where a hand
    is not one of the regular play the set-up found (an unknown card, a card
    twice)."""
    pt, cap, lead, twins, per_deal = tabs
    kept = False    # (``hands`` are the ones :data:`_LAST_MASKS` keeps)
    if all_masks is not None and all_masks[0] is pt:
        hands = list(all_masks[1])
    elif hkey is not None and _LAST_MASKS[0] is pt.codes and _LAST_MASKS[1] == hkey:
        # the same hands as the call before (a deal's 16 calls meet two sets of hands:
        # the dealt ones, the dealer's after the pick-up and first discard)
        hands = list(_LAST_MASKS[2])
        kept = True
        if seat >= 0 and _LAST_MASKS[3] is seat_kids and _LAST_MASKS[4] == seat:
            seat = -2   # (the discarding seat's hands too: the same discards' hands, one list a deal)
    else:
        hands = _masks_of(pt, base_hands)
        if hands is None:
            return None
        if hkey is not None:
            _LAST_MASKS[:] = (pt.codes, hkey, tuple(hands), None, -1, ())
            kept = True
    if seat == -2:
        seat = _LAST_MASKS[4]
        seat_hands = list(_LAST_MASKS[5])
    elif seat >= 0:
        seat_hands = [hands[seat]]
        others = 0
        for s2, m in enumerate(hands):
            if s2 != seat:
                others |= m
        known = _known_masks(pt)
        n = hands[seat].bit_count()
        for h in seat_kids:
            h = tuple(h)
            m = known.get(h)
            if m is None:
                m = _new_hand_mask(h, pt.bit, known)
            if m < 0 or m & others or m.bit_count() != n:
                return None
            seat_hands.append(m)
        if kept:
            _LAST_MASKS[3:] = (seat_kids, seat, tuple(seat_hands))
    else:
        seat_hands = []
    val, nodes, known = _C.exchange(cap, lead, twins, per_deal, hands, seat, seat_hands, party,
                                    opts, party2, a, b, shapes)
    STATS["nodes"] += nodes
    STATS["known"] += known
    return val


def _net_leaf(t: Table, memo: dict, a: int, b: int) -> int:
    """:func:`_net_ab` at a position in the play: the compiled search on the
    nets clamped to ``[a, b]``; for the full window the exact value, kept in
    :data:`_PLAYS` as :func:`_play_fast` keeps it.  A play start is met once
    per line of the exchanges: it is not kept in the memo (its parent is)."""
    prep = _play_prep(t)
    if prep is None:
        raise _NotNet
    pt, hands, trick, active, left, size, twins, key = prep
    if key[-2] is None:
        raise _NotNet
    ctx = _contract(t, pt, active, left, key)
    if not ctx[0]:
        raise _NotNet
    _, nets_l, vec_of_net, nxt, side, cap, lead, suit_index, a_now, per_deal, shape = ctx
    if nets_l is None:
        raise _NotNet
    full = a <= -_INF and b >= _INF
    if full:
        clamped = nets_l
    else:
        got = _CLAMPED.get((id(nets_l), a, b))
        if got is None or got[0] is not nets_l:
            if len(_CLAMPED) > 50_000:
                _CLAMPED.clear()
            got = _CLAMPED[(id(nets_l), a, b)] = (nets_l, [a if n < a else b if n > b else n for n in nets_l])
        clamped = got[1]   # not changed here: a copy is made where it is
    pkey = None
    if _K_CACHE and shape is not None:
        # the same play (hands, seats, trump) under another contract: read its
        # tricks' bounds (:data:`_KB`) before searching
        flat, led = _c_trick(pt, suit_index, t, trick) if trick else ((), -1)
        pkey = (shape, key[1], t.turn, tuple(flat), led, len(t.tricks), a_now, size, twins)
        kb = _KB.get(pkey)
        if kb is not None:
            k0, k1 = kb
            lo_v = clamped[k0]
            if lo_v == clamped[k1]:
                STATS["known"] += 1
                return lo_v
            # the count lies in [k0, k1]: the values outside it made flat (the same value,
            # more cut-offs)
            clamped = [lo_v] * k0 + clamped[k0:k1 + 1] + [clamped[k1]] * (len(clamped) - k1 - 1)
    if full:   # the exact value, kept in :data:`_PLAYS` as :func:`_play_fast` keeps it
        vec = _PLAYS.pop(key, None)
        if vec is not None:
            _PLAYS[key] = vec   # most recently used last
            if not _one_side(vec):
                raise _NotNet
            if pkey is not None:
                _k_learn(pkey, clamped, vec[0] - vec[1], a_now, per_deal - len(t.tricks))
            return vec[0] - vec[1]
    if pkey is None:
        flat, led = _c_trick(pt, suit_index, t, trick) if trick else ((), -1)
    done = len(t.tricks)
    val, nodes = _C.two_party(cap, hands, side, nxt, t.turn, flat, led, done, per_deal, size, a_now,
                              clamped, lead, twins)
    STATS["nodes"] += nodes
    if full:
        vec = vec_of_net[val]
        _plays_put(key, vec)
        if not _one_side(vec):
            raise _NotNet
    if pkey is not None:
        _k_learn(pkey, clamped, val, a_now, per_deal - done)
    return val


_CLAMPED: dict = {}
"""``{(id(nets), a, b): (nets, nets clamped to [a, b])}`` for :func:`_net_leaf`."""

_K_CACHE = True
"""Read and keep :data:`_KB` in :func:`_net_leaf` (the tests compare it with searching every time)."""

_KB: dict = {}
"""``{play key: (low, high)}``: bounds on the number of tricks side 0 ends
the deal with under perfect play of the position, each party playing for
its own net.  Where a contract's net is a nondecreasing function ``f`` of
side 0's final tricks (checked per contract: :func:`_contract`'s
``shape``), the value of the play on ``f`` is ``f`` of that number
(minimax commutes with a nondecreasing function of the leaves' values), so
one search of a play bounds the count for every contract of the same play
(another maker, alone or not with the same seats out): where ``f`` clamped
to the window is constant on the bounds, no search is needed.  Keyed by
what the compiled search reads but the nets (tables, seating, hands, seat
on turn, trick, tricks done, side 0's tricks, cards a trick, twins)."""


def _k_learn(pkey, g: list, val: int, a_now: int, left: int) -> None:
    """Narrow :data:`_KB` ``[pkey]`` to the counts whose value under the
    nondecreasing ``g`` (per count of side 0's final tricks) is the searched
    ``val``: ``g`` of the true count is ``val``."""
    lo, hi = _KB.get(pkey, (a_now, a_now + left))
    while lo < hi and g[lo] != val:
        lo += 1
    while hi > lo and g[hi] != val:
        hi -= 1
    if g[lo] != val:   # cannot be (minimax commutes with g): keep nothing
        _KB.pop(pkey, None)
        return
    if len(_KB) > 50_000:
        _KB.clear()
    _KB[pkey] = (lo, hi)


_LEAF: dict = {}
"""``{(scoring key, tricks won, tricks left, codes): context}``:
what the compiled two-party search reads of a contract (:func:`_contract`)."""


def _contract(t: Table, pt, active: list, left: int, key: tuple) -> Optional[tuple]:
    """``(every outcome scores one side only, nets per count of side 0's
    tricks, points vector of each net, next seats, parties, compiled tables,
    lead order, suit indices, side 0's tricks now, tricks a deal, the play's
    shape for :data:`_KB` or None where the net falls somewhere as side 0
    takes more tricks)`` for the compiled two-party search of a play
    position (``key``: its :func:`_play_prep` key); the items after the
    first are None where the net is not decided by the tricks each side
    takes.  Kept per contract, tricks won and codes
    (computed once when the scoring key is None)."""
    ckey = None if key[-2] is None else (key[-2], key[4], left, key[-1])
    if ckey is not None:
        got = _LEAF.get(ckey, _LEAF)
        if got is not _LEAF:
            return got
        won = key[4]
        if _FROM_START and any(won):
            start = _LEAF.get((key[-2], (0,) * len(won), t.variant.tricks_per_deal, key[-1]))
            if start is not None and start[0] and start[1] is not None:
                ctx = _contract_from_start(start, active, left, won)
                if len(_LEAF) > 50_000:
                    _LEAF.clear()
                _LEAF[ckey] = ctx
                return ctx
    outcomes = _outcomes(t, active, left)
    nxt, side = _seating(t)
    nets = _net_tables(t, outcomes, side)
    ctx = (_single_scorer(outcomes),) + (None,) * 10
    if nets is not None:
        per_deal = t.variant.tricks_per_deal
        cap, lead, suit_index = _c_tables(pt, t.trump)
        a_now = sum(n for s, n in enumerate(t.tricks_won) if side[s] == 0)
        nets_l = [nets[0].get(k, 0) for k in range(per_deal + 1)]
        reach = nets_l[a_now:a_now + left + 1]
        # the play's shape for :data:`_KB`, where the net never falls as side 0 takes more tricks
        shape = (cap, tuple(nxt), tuple(side), per_deal) \
            if all(x <= y for x, y in zip(reach, reach[1:])) else None
        ctx = (ctx[0], nets_l, nets[1], nxt, side, cap, lead, suit_index, a_now, per_deal, shape)
    if ckey is not None:
        if len(_LEAF) > 50_000:
            _LEAF.clear()
        _LEAF[ckey] = ctx
    return ctx


_FROM_START = True
"""Let :func:`_contract` read a play's context from its contract's play start
(:func:`_contract_from_start`; the tests compare it with computing it)."""


def _contract_from_start(start: tuple, active: list, left: int, won: tuple) -> tuple:
    """:func:`_contract`'s context of a play with tricks ``won`` (per seat)
    and ``left`` to play, from the context ``start`` of its contract's play
    start (every trick to play, none won; every outcome scoring one side
    only, the net decided by side 0's tricks): the outcomes from here are
    some of those from the start, scored the same (the scoring reads the
    tricks won and the scoring key), so each count of side 0's tricks
    reachable from here has the start's net and points vector, and the
    counts not reachable the net 0, as :func:`_contract` writes them.  The
    same tuple :func:`_contract` computes, without scoring the outcomes
    again."""
    _, nets0, vec_of_net, nxt, side, cap, lead, suit_index, _, per_deal, _ = start
    a_now = sum(n for s, n in enumerate(won) if side[s] == 0)
    # side 0's count ends anywhere from a_now (side 1 plays) to a_now + left (side 0 plays)
    lo = a_now if any(side[s] for s in active) else a_now + left
    hi = a_now + left if not all(side[s] for s in active) else a_now
    nets_l = [nets0[k] if lo <= k <= hi else 0 for k in range(per_deal + 1)]
    reach = nets_l[a_now:a_now + left + 1]
    shape = (cap, tuple(nxt), tuple(side), per_deal) \
        if all(x <= y for x, y in zip(reach, reach[1:])) else None
    return (True, nets_l, vec_of_net, nxt, side, cap, lead, suit_index, a_now, per_deal, shape)


_GAME_SLOTS = frozenset({
    # the same for every position of one game: the memo is kept per deal of one game
    "variant", "options", "players", "n_seats", "title", "source", "initial_score", "first_dealer",
    # what earlier deals left: changed only when a deal is scored (then no memo is read)
    "deal_results", "official_scores", "official_results", "deal_outcomes", "deal_ends",
    "as_played_winner", "deal_start_pos",
})
_NODE_SLOTS = tuple(n for n in Table.__slots__ if n not in _GAME_SLOTS)


def _node_keyer():
    """A function ``table -> tuple`` of the :data:`_NODE_SLOTS`, each made
    hashable the cheap way its default value says: a list as a tuple (the
    hands as a tuple of tuples), a set as a frozenset (their items are
    immutable: cards, (seat, card) pairs, frozen records)."""
    blank = Table()
    parts = []
    for n in _NODE_SLOTS:
        d = getattr(blank, n)
        if n == "hands":
            parts.append(f"tuple(map(tuple, t.{n}))")
        elif isinstance(d, list):
            parts.append(f"tuple(t.{n})")
        elif isinstance(d, set):
            parts.append(f"frozenset(t.{n})")
        else:
            parts.append(f"t.{n}")
    ns: dict = {}
    exec(f"def node_key(t, after):\n    return ({', '.join(parts)}, after)\n", ns)
    return ns["node_key"]


_node_key = _node_keyer()
_node_key.__doc__ = """Everything of ``t`` a deal's positions can differ in (every slot
but those of :data:`_GAME_SLOTS`), hashable, plus the discard run ``after``."""


def _method(method: str):
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; expected one of {', '.join(METHODS)}")
    if method == "reference":
        return lambda c, memo: _reference(c)
    return _fast


def action_values(t: Table, *, method: str = "fast", skip=None, memo: Optional[dict] = None) -> list:
    """Every legal action at ``t`` (in ``engine.legal_actions`` order) with
    the points vector (tuple of ints, one per party, deal points) reached
    when every seat plays perfectly from there to the end of the deal (see
    the module docstring for the model and tie rule).  ``[]`` when the deal
    is over.  ``t`` is not changed.

    ``skip``: a predicate on actions whose value the caller does not need
    (the seat view's pass, valued 0): those come with ``None``, unsolved.

    ``memo``: a dict the caller keeps across calls on the positions of ONE
    deal of one game (the review's successive decisions and par line): the
    fast method then values each position of the auction and the play once
    (keyed by everything a deal's positions differ in, :func:`_node_key`).
    None: a memo for this call only.  The answers are the same either way.

    Raises :class:`Unknowable` when a card the solve needs is not stated by
    the record; ``ValueError`` for an unknown ``method`` or a position that
    is not inside a deal.
    """
    run = _method(method)
    if run is _fast:
        # one compiled call for every card, before the check of the cards, which holds
        # wherever it answers
        got = play_values(t)
        if got is not None:
            return [(a, None if skip is not None and skip(a) else v) for a, v in zip(*got)]
    _check_known(t)
    if _over(t):
        return []
    if memo is None:
        memo = {}
    elif run is _fast and t.phase != PLAY:
        try:
            got = memo.get((_AV, _node_key(t, None)))
        except TypeError:   # a slot holding something unhashable: not memoised
            got = None
        if got is not None:     # every child valued by the search already
            return [(a, None if skip is not None and skip(a) else v) for a, v in got]
    acts, reason = legal_actions(t)
    if not acts:
        raise ValueError(f"no legal action at this position ({reason})")
    # (in the play, where the compiled call did not answer above: each child below)
    if run is _fast and t.phase != PLAY and _NET_AB and t.maker is not None and len(acts) > 1 \
            and _discard_run(t, acts) is not None:
        vecs = _discards_then_plays(t, acts, memo)
        if vecs is not None:
            return [(a, None if skip is not None and skip(a) else v) for a, v in zip(acts, vecs)]
    out = []
    kept = run is _fast and t.maker is not None
    for a in acts:
        if skip is not None and skip(a):
            out.append((a, None))
            continue
        c = t.copy()
        apply_legal(c, a)
        v = _kept_play(c) if kept and c.phase == PLAY else None
        out.append((a, run(c, memo) if v is None else v))
    return out


def play_values(t: Table) -> Optional[tuple]:
    """``(actions, points vectors)``: :func:`action_values` ``(t)`` of a
    position in the play (``t.phase == PLAY``) where ONE call of the compiled
    search values every legal card (:func:`_play_moves`), as two lists in
    ``engine.legal_actions`` order; None anywhere else (then ask
    :func:`action_values`, which also raises what it raises).  No check of
    the cards first: the search answers only where every card in play (the
    hands of the seats in play, the trick) is one of the deck's, so where it
    answers :func:`_check_known` finds none unknown (the review's play
    decisions, 80% of them, skip that pass over the hands)."""
    if t.phase != PLAY or _C is None:
        return None
    try:
        acts = play_actions(t)
    except Exception:   # a table the check of the cards refuses first (action_values says why)
        return None
    if not acts:
        return None
    vecs = _play_moves(t, acts)
    return None if vecs is None else (acts, vecs)


def _kept_play(c: Table) -> Optional[tuple]:
    """The points vector of the play start ``c`` where :data:`_PLAYS` keeps
    it (the discard's values put there the plays after a lone hand's
    choice), else None: the value :func:`_fast` gives, without its node key
    and search set-up."""
    if _C is None:
        return None
    prep = _play_prep(c)
    if prep is None or prep[-1][-2] is None:
        return None
    return _PLAYS.get(prep[-1])


def solve(t: Table, *, method: str = "fast", memo: Optional[dict] = None) -> tuple:
    """The points vector of position ``t`` under perfect play (tuple of
    ints, one per party, deal points); a finished deal's own points.  Same
    model, errors, ``method`` and ``memo`` as :func:`action_values`."""
    run = _method(method)
    _check_known(t)
    return run(t, {} if memo is None else memo)


# ------------------------------------------------------------------ the fast play search

STATS = {"nodes": 0, "known": 0, "discards": 0, "shared": 0}
"""Positions visited by the fast play search (cards tried), for the benchmark;
``known``: plays answered by :data:`_KB` without a search; ``discards``:
discard decisions valued by :func:`_discards_then_plays`; ``shared``: set-ups
:func:`_exchange` read from :data:`_DISCARD_KIDS` and :data:`_CHOICES`."""

_SCORES: dict = {}
"""``{scoring key: {tricks won: points}}``: the variant's own points for a tricks-won
outcome, asked once (a table copy scored by ``score_deal``)."""


def _score_key(t: Table):
    """What a variant's ``score_deal`` reads besides ``tricks_won`` (the
    contract, who made and who plays alone, seats out, tokens), as a key;
    None when it cannot be a key (then nothing is cached across positions)."""
    key = (t.variant, t.trump, t.low, t.maker, t.alone, t.lone_defender, t.out, t.contract,
           tuple(t.tokens))
    if _variant_play(t.variant)[0]:
        key += (t.variant.trick_order(t),)   # (fast_break: the tricks so far decide a count's points)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _splits(n: int, k: int):
    """Every way to share ``n`` tricks among ``k`` seats (tuples of ``k`` counts)."""
    if k == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _splits(n - first, k - 1):
            yield (first,) + rest


_OUTCOMES: dict = {}
"""``{(scoring key, tricks won, seats in play, tricks left): outcomes}``:
:func:`_outcomes` asked once per contract and score of the tricks."""


_SIDE_SCORES: dict = {}
"""``{side scoring key: {tricks per side: points}}``: the variant's own
points for each way the sides' tricks end (:func:`_outcomes`), asked once."""


def _side_score_key(t: Table):
    """:func:`_score_key` less the trump suit, which ``score_deal`` does not
    read (``Variant.SCORES_BY_SIDE``): one key for the four trumps of a
    contract; None when it cannot be a key."""
    key = (t.variant, t.low, t.maker, t.alone, t.lone_defender, t.out, t.contract, tuple(t.tokens))
    if _variant_play(t.variant)[0]:
        key += (t.variant.trick_order(t),)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _outcomes(t: Table, active: list, left: int) -> dict:
    """``{final tricks_won tuple: points}`` for every way the ``left``
    tricks still to play can fall among the ``active`` seats, each scored
    by the variant (rules.md 2.6 ...).  Where ``score_deal`` reads the
    tricks only as each side's total and not the trump
    (``Variant.SCORES_BY_SIDE``), each way the sides' tricks end is scored
    once (a table copy whose first active seat of each side took its
    side's tricks, ``score_deal``), kept for every trump of the contract,
    and given to every way the seats of each side share those tricks: the
    same dict :func:`_outcomes_by_seat` (the reference, which scores every
    seat's count) builds, in the same order, with far fewer tables copied
    and scored (a deal's first analysis builds some 32 of them).  Do not
    modify the returned dict (it is cached, shared by the trumps)."""
    v = t.variant
    key = _side_score_key(t) if getattr(v, "SCORES_BY_SIDE", False) else None
    if key is None:
        return _outcomes_by_seat(t, active, left)
    won0 = tuple(t.tricks_won)
    okey = (key, won0, tuple(active), left)
    got = _OUTCOMES.get(okey)
    if got is not None:
        return got
    scores = _SIDE_SCORES.get(key)
    if scores is None:
        if len(_SIDE_SCORES) > 20_000:
            _SIDE_SCORES.clear()
        scores = _SIDE_SCORES[key] = {}
    side_of = v.side_of
    side = [side_of(s) for s in range(len(won0))]
    tot0 = [0] * v.n_sides
    for s, n in enumerate(won0):
        tot0[side[s]] += n
    # the sides in play, in the order of their first active seat, and each one's active seats
    seats: dict = {}
    for s in active:
        seats.setdefault(side[s], []).append(s)
    parties = list(seats)
    by_sides: dict = {}
    for extra in _splits(left, len(parties)):
        tot = tot0[:]
        for p, e in zip(parties, extra):
            tot[p] += e
        tot = tuple(tot)
        p = scores.get(tot)
        if p is None:
            won = list(won0)
            for q, e in zip(parties, extra):
                won[seats[q][0]] += e
            c = t.copy()
            c.tricks_won = won
            if _variant_play(v)[0]:
                c.tricks = v.completed_tricks(t, won)
            p = scores[tot] = tuple(v.score_deal(c))
        by_sides[extra] = p
    where = tuple(parties.index(side[s]) for s in active)
    out = {won: by_sides[per] for won, per in _shares(won0, tuple(active), where, len(parties), left)}
    if len(_OUTCOMES) > 50_000:
        _OUTCOMES.clear()
    _OUTCOMES[okey] = out
    return out


_SHARES: dict = {}
"""``{(tricks won, seats in play, their sides, sides, tricks left): shares}``
(:func:`_shares`): the same for every contract and variant of a shape."""


def _shares(won0: tuple, active: tuple, where: tuple, n_parties: int, left: int) -> tuple:
    """Every way the ``left`` tricks still to play can fall among the
    ``active`` seats (whose sides are ``where``: 0 to ``n_parties - 1``),
    in :func:`_splits`'s order: ``(final tricks won per seat, tricks each
    side takes of the left ones)`` pairs, for :func:`_outcomes`."""
    key = (won0, active, where, n_parties, left)
    got = _SHARES.get(key)
    if got is None:
        got = []
        for extra in _splits(left, len(active)):
            won = list(won0)
            per = [0] * n_parties
            for s, i, e in zip(active, where, extra):
                won[s] += e
                per[i] += e
            got.append((tuple(won), tuple(per)))
        got = tuple(got)
        if len(_SHARES) > 20_000:
            _SHARES.clear()
        _SHARES[key] = got
    return got


def _outcomes_by_seat(t: Table, active: list, left: int) -> dict:
    """:func:`_outcomes` scoring every way the ``left`` tricks still to
    play can fall among the ``active`` seats (a table copy, ``score_deal``
    each): the reference, and the way of a variant whose points read more
    than each side's tricks (``Variant.SCORES_BY_SIDE`` False).  Do not
    modify the returned dict (it is cached)."""
    key = _score_key(t)
    okey = None if key is None else (key, tuple(t.tricks_won), tuple(active), left)
    if okey is not None:
        got = _OUTCOMES.get(okey)
        if got is not None:
            return got
    base = None
    out = {}
    # the contract's scores by tricks won (one look-up of the long key, not one a split)
    scores = None
    if key is not None:
        scores = _SCORES.get(key)
        if scores is None:
            if len(_SCORES) > 20_000:
                _SCORES.clear()
            scores = _SCORES[key] = {}
    for extra in _splits(left, len(active)):
        won = list(t.tricks_won)
        for s, e in zip(active, extra):
            won[s] += e
        won = tuple(won)
        p = scores.get(won) if scores is not None else None
        if p is None:
            if base is None:
                base = t.copy()
            c = base.copy()
            c.tricks_won = list(won)
            if _variant_play(c.variant)[0]:
                c.tricks = c.variant.completed_tricks(t, won)
            p = tuple(c.variant.score_deal(c))
            if scores is not None:
                scores[won] = p
        out[won] = p
    if okey is not None:
        if len(_OUTCOMES) > 50_000:
            _OUTCOMES.clear()
        _OUTCOMES[okey] = out
    return out


PLAY_CACHE_SIZE = 100_000
"""Most play-start states whose value :data:`_PLAYS` keeps."""

_PLAYS: dict = {}
"""The value of a play position across calls (an LRU keyed by the whole
state the play search reads: the hands as masks over the table's codes,
the seat on turn, the trick, the tricks won, the scoring key and the
codes): the same contract and hands recur across the options of one
decision, the par line and the successive decisions of a deal."""

_DECKS: dict = {}

_SEATING: dict = {}
"""``{(variant, seats out): (next seat in play after each seat, each seat's party)}``."""


_JOKER_HOOKS = frozenset({"after_card", "exempt_from_following"})
"""Play hooks that act on the joker only (Bid's, rules.md 7.8: the joker led
at no-trump, the joker played at any time): with no joker left in play they
do what the base engine does, so the bit-mask search may play the deal."""


def _joker_hooks_idle(v, in_play) -> bool:
    """True when ``v`` overrides only joker play hooks and no joker is in play."""
    cls = type(v)
    own = {h for h in PLAY_HOOKS if getattr(cls, h) is not getattr(Variant, h)}
    return (own <= _JOKER_HOOKS and frozenset(v.deck()) <= C.suit_and_power(None)[0].keys() | {C.JOKER}
            and not any(C.base(c) == C.JOKER for c in in_play))


def _deck_codes(v):
    """The variant's deck as (sorted codes, set), for play tables shared by
    every deal of the variant (the cards out of play are in no hand: the
    search never meets them); None for a deck of more than 64 cards."""
    got = _DECKS.get(v, False)
    if got is False:
        deck = sorted(set(v.deck()))
        got = (tuple(deck), frozenset(deck)) if len(deck) <= 64 else None
        if len(_DECKS) < 1024:
            _DECKS[v] = got
    return got


_VARIANT_PLAY: dict = {}
"""``{variant: (the order of the tricks may count (``Variant.trick_order``: fast_break),
base play (no hook), deck codes, twins rule, tricks a deal)}``: what :func:`_play_prep`
reads of a variant, once."""


def _variant_play(v) -> tuple:
    got = _VARIANT_PLAY.get(v)
    if got is None:
        got = (v.orders_tricks(), fast_plays_ok(v), _deck_codes(v),
               v.first_twin_wins, v.tricks_per_deal)
        if len(_VARIANT_PLAY) < 1024:
            _VARIANT_PLAY[v] = got
    return got


def _play_prep(t: Table) -> Optional[tuple]:
    """What the bit-mask play search reads of a position in the play:
    ``(play tables, hands as masks, trick as (seat, mask) pairs, seats in
    play, tricks left, cards a trick, twins rule, cache key)``, or None where
    the search does not apply (a variant with its own play hooks, a scoring
    that reads more than the tricks won, a card out of turn, an unknown
    card, hands of unequal length)."""
    v = t.variant
    order, base_play, deck, twins, per_deal = _variant_play(v)
    if (order and v.trick_order(t)) or t.out_of_turn or (t.trick and t.led_suit is None):
        return None
    if base_play and deck is not None:
        got = _play_prep_deck(t, deck[0], twins, per_deal)
        if got is not None:
            return got
    out = t.out
    n_seats = t.n_seats
    hands_l = t.hands
    active = [s for s in range(n_seats) if s not in out] if out else list(range(n_seats))
    in_play = [c for s in active for c in hands_l[s]]
    if t.trick:
        in_play += [c for _, c in t.trick]
    if deck is not None and deck[1].issuperset(in_play):
        codes = deck[0]     # every card a card of the deck: none unknown
    else:
        if any(c[:1] == "?" for c in in_play):
            return None
        codes = tuple(sorted(in_play))
    if not base_play and not _joker_hooks_idle(v, in_play):
        return None
    pt = playcore.play_tables(codes, t.trump, t.low)
    left = per_deal - len(t.tricks)
    size = n_seats - len(out)
    if len(in_play) != left * size or len(set(in_play)) != len(in_play):
        return None   # not a regular play (hands of unequal length)
    bit = pt.bit
    hands = []
    for s in range(n_seats):
        m = 0
        if s not in out:
            for c in hands_l[s]:
                m |= bit[c]
        hands.append(m)
    trick = [(s, bit[c]) for s, c in t.trick]
    key = ("play", tuple(hands), t.turn, tuple(trick), tuple(t.tricks_won), _score_key(t), codes)
    return pt, hands, trick, active, left, size, twins, key


_DECK_PT: dict = {}
"""``{(id of deck codes, trump, low): (codes, play tables, hand masks)}``:
:func:`_play_prep_deck`'s tables over a variant's whole deck, found without
hashing the codes."""

_HAND_MASKS: dict = {}
"""``{id of deck codes: (codes, {hand as a tuple: mask})}``: a hand's mask
over the deck's bits (the same bits under every trump), -1 for a hand with
a card not of the deck or a card twice."""



def _new_hand_mask(h: tuple, bit: dict, known: dict) -> int:
    """The bit mask of the hand ``h`` (a tuple of card codes) under the
    play's ``bit`` (``{card: bit}``), kept in ``known``; -1 for a card not of
    the deck or held twice.  Called where ``known`` has no entry for ``h``
    (the callers look it up inline: that is the hot path)."""
    m = 0
    for card in h:
        bc = bit.get(card)
        if bc is None or m & bc:
            m = -1
            break
        m |= bc
    if len(known) > 100_000:
        known.clear()
    known[h] = m
    return m

def _play_prep_deck(t: Table, codes: tuple, twins, per_deal: int) -> Optional[tuple]:
    """:func:`_play_prep` where the variant plays by the base engine and its
    deck is the tables' codes: the hands' masks made in one pass, each card
    looked up once (a card not of the deck, such as an unknown one, or a
    card twice: None, and the general path decides).  The same answer."""
    ptk = (id(codes), t.trump, t.low)
    got = _DECK_PT.get(ptk)
    if got is None or got[0] is not codes:
        masks = _HAND_MASKS.get(id(codes))
        if masks is None or masks[0] is not codes:
            masks = _HAND_MASKS[id(codes)] = (codes, {})
        got = _DECK_PT[ptk] = (codes, playcore.play_tables(codes, t.trump, t.low), masks[1])
    pt = got[1]
    bit = pt.bit
    known = got[2]
    out = t.out
    n_seats = t.n_seats
    seen = 0
    n = 0
    hands = []
    for s, hand in enumerate(t.hands):
        m = 0
        if s not in out:
            h = tuple(hand)
            m = known.get(h)
            if m is None:
                m = _new_hand_mask(h, bit, known)
            if m < 0 or seen & m:
                return None
            seen |= m
            n += len(hand)
        hands.append(m)
    if len(hands) != n_seats:
        return None
    trick = []
    for s, c in t.trick:
        b = bit.get(c)
        if b is None or seen & b:
            return None
        seen |= b
        trick.append((s, b))
    left = per_deal - len(t.tricks)
    size = n_seats - len(out)
    if n + len(trick) != left * size:
        return None   # not a regular play (hands of unequal length)
    active = [s for s in range(n_seats) if s not in out] if out else list(range(n_seats))
    key = ("play", tuple(hands), t.turn, tuple(trick), tuple(t.tricks_won), _score_key(t), codes)
    return pt, hands, trick, active, left, size, twins, key


def _seating(t: Table) -> tuple:
    """``(next seat in play after each seat, each seat's party)``."""
    v = t.variant
    seating = _SEATING.get((v, t.out))
    if seating is None:
        seating = ([t.next_active(s) for s in range(t.n_seats)], [v.side_of(s) for s in range(t.n_seats)])
        if len(_SEATING) < 4096:
            _SEATING[(v, t.out)] = seating
    return seating


def _play_fast(t: Table, memo: dict, prep=False) -> Optional[tuple]:
    """The points vector of a position in the play (``t.phase == PLAY``)
    by the bit-mask search, or None where it does not apply
    (:func:`_play_prep`): the caller then uses the reference search.
    ``prep``: :func:`_play_prep` of ``t`` when the caller has it."""
    if prep is False:
        prep = _play_prep(t)
    if prep is None:
        return None
    pt, hands, trick, active, left, size, twins, key = prep
    if key[-2] is not None:
        got = _PLAYS.pop(key, None)
        if got is not None:
            _PLAYS[key] = got   # most recently used last
            return got
    outcomes = _outcomes(t, active, left)
    nxt, side = _seating(t)
    if t.variant.n_sides == 2:
        res = _two_party(t, pt, hands, nxt, side, trick, outcomes, left, size, twins)
    else:
        res = _max_n(t, pt, hands, nxt, side, trick, outcomes, left, size, twins, active)
    if res is not None and key[-2] is not None:
        _plays_put(key, res)
    return res


def _plays_put(key, res: tuple) -> None:
    """Keep the points vector ``res`` of the play position of :func:`_play_prep` key ``key``
    in :data:`_PLAYS` (its least recently used quarter dropped when full)."""
    if len(_PLAYS) >= PLAY_CACHE_SIZE:
        for k in list(islice(_PLAYS, PLAY_CACHE_SIZE // 4)):   # the least recently used quarter
            del _PLAYS[k]
    _PLAYS[key] = res


def _play_moves(t: Table, acts) -> Optional[list]:
    """The points vector after each of ``acts`` (the legal cards of the
    seat on turn, in the play of a two-party deal) by ONE call of the
    compiled search (``two_party_moves``: the cards share its
    transposition table, and no table is copied or event applied per
    card); the same values as :func:`_fast` on each child.  None where that
    does not apply (no compiled search, :func:`_play_prep` says no, more
    than two parties, the net not decided by the tricks taken, an action
    that is not a card of the seat on turn, or the card that ends the deal,
    whose points the engine's own scoring gives): the caller then values
    each child."""
    if _C is None or t.variant.n_sides != 2 or t.turn is None:
        return None
    prep = _play_prep(t)
    if prep is None:
        return None
    pt, hands, trick0, active, left, size, twins, key = prep
    if left == 1 and len(trick0) == size - 1:
        return None
    bit, turn = pt.bit, t.turn
    idx = []    # each card's index in the tables
    for a in acts:
        if getattr(a, "kind", None) != "CardPlayed" or a.seat != turn:
            return None
        b = bit.get(a.card)
        if b is None:
            return None
        idx.append(b.bit_length() - 1)
    ctx = _contract(t, pt, active, left, key)
    if ctx[1] is None:
        return None
    _, nets_l, vec_of_net, nxt, side, cap, lead, suit_index, a_now, per_deal, _ = ctx
    flat, led = _c_trick(pt, suit_index, t, trick0)
    got, nodes = _C.two_party_moves(cap, hands, side, nxt, t.turn, flat, led, len(t.tricks), per_deal,
                                    size, a_now, nets_l, lead, twins)
    STATS["nodes"] += nodes
    net = dict(got)
    out = []
    for i in idx:
        n = net.get(i)
        if n is None:   # a card the engine allows and the tables do not: value each child
            return None
        out.append(vec_of_net[n])
    return out


_HANDS_AT = _NODE_SLOTS.index("hands")
_DISCARDS_AT = _NODE_SLOTS.index("discards")
_BUT_CARDS = itemgetter(*(i for i, n in enumerate(_NODE_SLOTS)
                          if n not in ("hands", "dealt", "kitty", "seen", "up_card", "discards")))
"""A node key's items but the cards held, dealt, turned up, buried and seen (:data:`_CHOICES`)."""
_CARDS_OF = itemgetter(*(i for i, n in enumerate(_NODE_SLOTS)
                         if n in ("hands", "dealt", "kitty", "seen", "up_card", "discards")))
"""A node key's cards held, dealt, turned up, buried and seen (:data:`_CHOICE_KIDS`)."""
_BUT_MAKER = itemgetter(*(i for i, n in enumerate(_NODE_SLOTS) if n not in ("pos", "maker", "auction", "turn")))
"""A node key's items but the position number, the maker, the auction state and the seat on turn
(the maker's after the discard; :data:`_DISCARD_KIDS`)."""


def _discards_then_plays(t: Table, acts, memo: dict) -> Optional[list]:
    """The points vector after each of ``acts``, the discards of one seat
    (the dealer's, rules.md 2.2) of a two-party deal, where each leads to a
    decision whose every action starts the play (alone or not, rules.md
    2.3): each discard made by the engine and read in ``memo`` where the
    par left its exact value; the decision's actions made by the engine
    after ONE of the discards, and the plays after the others read from
    those with the seat's hand changed: exact because the positions after
    the discards are checked equal in every slot but the hands and the
    discards, with the same legal actions, and the actions move no card.
    The plays of one action searched by ONE call of the compiled search
    (``two_party_many``: positions that differ only in the hands share its
    transposition table), each the value :func:`_play_fast` gives (kept in
    :data:`_PLAYS` as it keeps them); the decision takes its child by
    :func:`_pick`, as :func:`_fast_node` does.  Where the par's
    :func:`_exchange` made and checked the other discards of this position
    (:data:`_DISCARD_KIDS`), only the first is made here, and every discard
    is searched (none read in ``memo``).  None where that does not apply:
    the caller then values each child."""
    if _C is None or t.variant.n_sides != 2:
        return None
    seat = acts[0].seat
    out = [None] * len(acts)
    kids = None   # (index, the seat's hand after the discard)
    if _SHARE_KIDS:   # the other discards as the par's :func:`_exchange` made and checked them
        c0 = t.copy()
        apply_legal(c0, acts[0])
        if c0.phase == PLAY or _over(c0):
            return None
        try:
            k0 = _node_key(c0, None)
            got = _DISCARD_KIDS.get((t.variant, _BUT_MAKER(_node_key(t, None)), tuple(acts)))
        except TypeError:
            return None
        if got is not None and got[0] == _BUT_MAKER(k0):
            acts2, _ = legal_actions(c0)
            if not acts2:
                return None
            kids = [(0, c0.hands[seat])] + [(i, h) for i, h in enumerate(got[1], 1)]
    if kids is None:
        kids = []
        made = []   # (index, position after the discard, its node key)
        for i, a in enumerate(acts):
            c = t.copy()
            apply_legal(c, a)
            if c.phase == PLAY or _over(c):
                return None
            try:
                k = _node_key(c, None)
                got = memo.get(k)
            except TypeError:
                return None
            if got is not None:
                out[i] = got
            else:
                made.append((i, c, k))
        if not made:
            return out
        _, c0, k0 = made[0]
        same = k0[:_HANDS_AT] + k0[_HANDS_AT + 1:_DISCARDS_AT] + k0[_DISCARDS_AT + 1:]
        acts2, _ = legal_actions(c0)
        if not acts2:
            return None
        for _, c, k in made[1:]:
            if k[:_HANDS_AT] + k[_HANDS_AT + 1:_DISCARDS_AT] + k[_DISCARDS_AT + 1:] != same \
                    or legal_actions(c)[0] != acts2:
                return None
        kids = [(i, c.hands[seat]) for i, c, _ in made]
    party = _decider(c0, acts2)
    plays = []   # per action of the decision: (prep after c0, context)
    for a2 in acts2:
        g = c0.copy()
        apply_legal(g, a2)
        if g.phase != PLAY or g.hands != c0.hands:
            return None
        prep = _play_prep(g)
        if prep is None or prep[-1][-2] is None:
            return None
        pt, hands, trick0, active, left, size, twins, key0 = prep
        ctx = _contract(g, pt, active, left, key0)
        if ctx[1] is None:
            return None
        plays.append((g, prep, ctx))
    vecs = [[None] * len(plays) for _ in kids]
    for j, (g, prep, ctx) in enumerate(plays):
        pt, hands0, trick0, active, left, size, twins, key0 = prep
        bit = pt.bit
        todo = []   # (kid, hands)
        for n, (_, held) in enumerate(kids):
            hands = list(hands0)
            if hands[seat]:     # the seat plays: its hand after this discard
                m = 0
                for card in held:
                    b = bit.get(card)
                    if b is None or m & b:
                        return None
                    m |= b
                others = 0
                for s2, h in enumerate(hands):
                    if s2 != seat:
                        others |= h
                if m & others or m.bit_count() != hands0[seat].bit_count():
                    return None
                hands[seat] = m
            key = ("play", tuple(hands)) + key0[2:]
            v = _PLAYS.get(key)
            if v is None:
                todo.append((n, hands, key))
            else:
                vecs[n][j] = v
        if todo:
            _, nets_l, vec_of_net, nxt, side, cap, lead, suit_index, a_now, per_deal, _ = ctx
            flat, led = _c_trick(pt, suit_index, g, trick0) if trick0 else ((), -1)
            vals, nodes = _C.two_party_many(cap, todo[0][1], side, nxt, g.turn, flat, led, len(g.tricks),
                                            per_deal, size, a_now, nets_l, lead, twins,
                                            [h for _, h, _ in todo[1:]])
            STATS["nodes"] += nodes
            for (n, _, key), val in zip(todo, vals):
                vecs[n][j] = vec = vec_of_net[val]
                _plays_put(key, vec)
    STATS["discards"] += 1
    variant = t.variant
    for (i, _), vs in zip(kids, vecs):
        out[i] = vs[_pick(variant, party, vs)]
    return out


def _index_of(pt, bit: int) -> int:
    return bit.bit_length() - 1


def _moves(pt, hand: int, legal: int, others: int, order) -> list:
    """The legal cards of ``hand`` with equal cards merged: two cards of an
    effective suit are one move when no card between them is held by
    another seat or lies in the trick (``others``).  Each merged move is
    represented by its member first in ``order`` (hand order); moves come
    in that order."""
    out = []
    for run in pt.runs:
        rep = None
        for b in run:
            if legal & b:
                if rep is None:
                    rep = b
                elif order[b] < order[rep]:
                    rep = b
            elif others & b:
                if rep is not None:
                    out.append(rep)
                    rep = None
        if rep is not None:
            out.append(rep)
    out.sort(key=order.__getitem__)
    return out


_NETS: dict = {}
"""``{id(outcomes): (outcomes, side, net_of, vec_of_net)}``: the net value
of each count of side 0's tricks, per cached outcomes dict (kept alive by
the entry, so the id is not reused while it is there)."""


def _net_tables(t, outcomes, side) -> Optional[tuple]:
    """``(net_of, vec_of_net)``: side 0's net value for each count of side
    0's tricks, and the points vector of each net; None when the net is
    not decided by the tricks each side takes (checked on every outcome)."""
    v = t.variant
    nets = _NETS.get(id(outcomes))
    if nets is None or nets[0] is not outcomes or nets[1] != side:
        net_of: dict = {}
        vec_of_net: dict = {}
        zero = None         # side 0's seats
        value: dict = {}    # each points vector's net (a handful of vectors over the outcomes)
        for won, p in outcomes.items():
            if zero is None:
                zero = [s for s in range(len(won)) if side[s] == 0]
            k = 0
            for s in zero:
                k += won[s]
            n = value.get(p)
            if n is None:
                n = value[p] = value_for(v, p, 0)
            if net_of.setdefault(k, n) != n or vec_of_net.setdefault(n, p) != p:
                net_of = None   # the value is not decided by the tricks each side takes
                break
        nets = (outcomes, list(side), net_of, vec_of_net)
        if len(_NETS) > 50_000:
            _NETS.clear()
        _NETS[id(outcomes)] = nets
    return None if nets[2] is None else (nets[2], nets[3])


def _search_maps(t, pt) -> tuple:
    """The maps both pure-Python play searches build once: ``order`` (a
    card's bit -> its place in its hand: the order of equal moves, never a
    value), ``keys_by_led`` (led suit -> {bit: trick key}) and ``eff_of``
    (bit -> effective suit)."""
    order = {}
    for s in range(t.n_seats):
        for i, c in enumerate(t.hands[s]):
            if c in pt.bit:
                order[pt.bit[c]] = i
    keys_by_led = {led: {1 << i: k for i, k in enumerate(ks)} for led, ks in pt.keys.items()}
    eff_of = {1 << i: e for i, e in enumerate(pt.eff)}
    return order, keys_by_led, eff_of


def _seat_moves(pt, hands: list, order: dict, seats):
    """The moves of both pure-Python play searches: ``seat_moves(seat,
    trick, led)`` gives :func:`_moves` of ``seat``'s legal cards in
    ``hands`` (the search's own list, changed as it plays): its cards of the
    led suit if it holds any, else its whole hand (an empty ``trick``: it
    leads; rules.md 1.4), merged against the cards of the other ``seats``
    and of the trick."""
    suit_mask = pt.suit_mask

    def seat_moves(seat, trick, led):
        hand = hands[seat]
        legal = hand & suit_mask.get(led, 0) if trick else hand
        if not legal:
            legal = hand
        others = 0
        for s2 in seats:
            if s2 != seat:
                others |= hands[s2]
        for _, b in trick:
            others |= b
        return _moves(pt, hand, legal, others, order)
    return seat_moves


def _play_step(keys_by_led: dict, eff_of: dict, twins: bool):
    """The step of both pure-Python play searches: ``play_into(b, seat,
    trick, led, keys, best, best_seat)`` gives, for the card bit ``b`` played
    by ``seat`` into ``trick`` (led in ``led``, keys ``keys``, led so far by
    ``best``/``best_seat``; None: it is the first card), the trick's led
    suit and keys after it (the card's own when it leads) and its new lead
    ``(nb, nbs)``: a higher key, or an identical twin played later when
    ``twins`` (``Variant.first_twin_wins``) is False (rules.md 1.3, as
    :func:`euchre_events.rules.cards.winning_index`): ``(lk, ks, nb, nbs)``."""
    def play_into(b, seat, trick, led, keys, best, best_seat):
        if trick:
            lk, ks = led, keys
        else:
            lk = eff_of[b]
            ks = keys_by_led[lk]
        k = ks[b]
        if best_seat is None or k > best or (not twins and k == best):
            return lk, ks, k, seat
        return lk, ks, best, best_seat
    return play_into


def _trick_lead(trick0, led, ks, play_into) -> tuple:
    """``(key, seat)`` of the card leading the trick so far ``trick0``
    (``((seat, bit), ...)``, led in ``led``, keys ``ks``), by the search's
    own step; ``(None, None)`` if empty."""
    best, bs = None, None
    for s, b in trick0:
        _, _, best, bs = play_into(b, s, trick0, led, ks, best, bs)
    return best, bs


def _two_party(t, pt, hands, nxt, side, trick0, outcomes, left, size, twins):
    """Alpha-beta on side 0's net value over the tricks left; returns the
    points vector.  The net value is a function of side 0's total tricks
    (checked on every outcome: else None)."""
    a_now = sum(n for s, n in enumerate(t.tricks_won) if side[s] == 0)
    nets = _net_tables(t, outcomes, side)
    if nets is None:
        return None
    net_of, vec_of_net = nets
    if _C is not None:
        return _two_party_c(t, pt, hands, nxt, side, trick0, left, size, twins, a_now, net_of, vec_of_net)
    top = a_now + left
    # rng[(a, r)]: (lowest, highest) net still reachable with a tricks and r to play
    rng = {}
    for a in range(a_now, top + 1):
        for r in range(0, top - a + 1):
            vals = [net_of[a + j] for j in range(r + 1)]
            rng[a, r] = (min(vals), max(vals))
    order, keys_by_led, eff_of = _search_maps(t, pt)
    play_into = _play_step(keys_by_led, eff_of, twins)
    seat_moves = _seat_moves(pt, hands, order, range(len(hands)))
    per_deal = t.variant.tricks_per_deal
    tt: dict = {}
    stats = STATS
    power = {1 << i: (1000 if e == t.trump else 0) + pt.power[i] for i, e in enumerate(pt.eff)}

    def at_start(leader, a, done, alpha, beta):
        r = per_deal - done
        lo, hi = rng[a, r]
        if lo == hi or hi <= alpha or lo >= beta:
            return lo if lo >= beta or lo == hi else hi
        key = (tuple(hands), leader, a)
        e = tt.get(key)
        if e is not None:
            lower, upper = e
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower
            alpha0, beta0 = alpha, beta
            alpha, beta = max(alpha, lower), min(beta, upper)
        else:
            lower, upper = lo, hi
            alpha0, beta0 = alpha, beta
            alpha, beta = max(alpha, lo), min(beta, hi)
        val = play(leader, [], None, None, -1, None, a, done, alpha, beta)
        if val <= alpha:
            upper = min(upper, val)
        elif val >= beta:
            lower = max(lower, val)
        else:
            lower = upper = val
        tt[key] = (lower, upper)
        return val

    def play(seat, trick, led, keys, best, best_seat, a, done, alpha, beta):
        hand = hands[seat]
        moves = seat_moves(seat, trick, led)
        if len(moves) > 1:   # move ordering: the strongest card first (values do not depend on it)
            moves.sort(key=(keys if trick else power).__getitem__, reverse=True)
        maxi = side[seat] == 0
        val = None
        n_in = len(trick) + 1
        for b in moves:
            stats["nodes"] += 1
            lk, ks, nb, nbs = play_into(b, seat, trick, led, keys, best, best_seat)
            hands[seat] = hand ^ b
            if n_in == size:
                na = a + (1 if side[nbs] == 0 else 0)
                x = at_start(nbs, na, done + 1, alpha, beta)
            else:
                x = play(nxt[seat], trick + [(seat, b)], lk, ks, nb, nbs, a, done, alpha, beta)
            hands[seat] = hand
            if val is None or (x > val if maxi else x < val):
                val = x
            if maxi:
                if val > alpha:
                    alpha = val
            elif val < beta:
                beta = val
            if alpha >= beta:
                break
        return val

    lo, hi = rng[a_now, left]
    if not trick0:
        val = at_start(t.turn, a_now, len(t.tricks), lo - 1, hi + 1)
    else:
        led = t.led_suit
        ks = keys_by_led[led]
        best, bs = _trick_lead(trick0, led, ks, play_into)
        val = play(t.turn, trick0, led, ks, best, bs, a_now, len(t.tricks), lo - 1, hi + 1)
    return vec_of_net[val]


def _max_n(t, pt, hands, nxt, side, trick0, outcomes, left, size, twins, active):
    """Max-n (each seat its own utility, the tie rule of :func:`_pick`)
    over the tricks left, with a transposition table at trick starts;
    returns the points vector."""
    v = t.variant
    if _C is not None:
        return _max_n_c(t, pt, hands, nxt, side, trick0, outcomes, size, twins)
    order, keys_by_led, eff_of = _search_maps(t, pt)
    play_into = _play_step(keys_by_led, eff_of, twins)
    seat_moves = _seat_moves(pt, hands, order, active)
    per_deal = v.tricks_per_deal
    tt: dict = {}
    stats = STATS
    won = list(t.tricks_won)

    def at_start(leader, done):
        if done == per_deal:
            return outcomes[tuple(won)]
        key = (tuple(hands), leader, tuple(won))
        e = tt.get(key)
        if e is None:
            e = tt[key] = play(leader, [], None, None, -1, None, done)
        return e

    def play(seat, trick, led, keys, best, best_seat, done):
        hand = hands[seat]
        moves = seat_moves(seat, trick, led)
        vecs = []
        n_in = len(trick) + 1
        for b in moves:
            stats["nodes"] += 1
            lk, ks, nb, nbs = play_into(b, seat, trick, led, keys, best, best_seat)
            hands[seat] = hand ^ b
            if n_in == size:
                won[nbs] += 1
                x = at_start(nbs, done + 1)
                won[nbs] -= 1
            else:
                x = play(nxt[seat], trick + [(seat, b)], lk, ks, nb, nbs, done)
            hands[seat] = hand
            vecs.append(x)
        return vecs[_pick(v, side[seat], vecs)]

    if not trick0:
        return at_start(t.turn, len(t.tricks))
    led = t.led_suit
    ks = keys_by_led[led]
    best, bs = _trick_lead(trick0, led, ks, play_into)
    return play(t.turn, trick0, led, ks, best, bs, len(t.tricks))


# ------------------------------------------------------------------ the compiled play search

_C_TABLES: dict = {}
"""``{PlayTables: (capsule, lead order, suit index)}`` for the compiled search."""


def _c_tables(pt, trump):
    """The compiled search's tables of ``pt`` (parsed once): the capsule of
    :meth:`PlayTables.flat`, the order to try leads in (trumps first, then
    by power: only the order of the search, never its value) and the index
    of each effective suit."""
    got = _C_TABLES.get(pt)
    if got is None:
        if len(_C_TABLES) > 1024:
            _C_TABLES.clear()
        lead = tuple((1000 if e == trump else 0) + p for e, p in zip(pt.eff, pt.power))
        got = _C_TABLES[pt] = (_C.tables(pt.flat()), lead, {s: i for i, s in enumerate(pt.suits)})
    return got


def _c_trick(pt, suit_index, t, trick0):
    flat = []
    for s, b in trick0:
        flat += (s, b.bit_length() - 1)
    return flat, (suit_index[t.led_suit] if trick0 else -1)


def _two_party_c(t, pt, hands, nxt, side, trick0, left, size, twins, a_now, net_of, vec_of_net):
    """:func:`_two_party` by the compiled search: the same alpha-beta over
    the tables; returns the points vector."""
    cap, lead, suit_index = _c_tables(pt, t.trump)
    per_deal = t.variant.tricks_per_deal
    flat, led = _c_trick(pt, suit_index, t, trick0)
    nets = [net_of.get(k, 0) for k in range(per_deal + 1)]
    val, nodes = _C.two_party(cap, hands, side, nxt, t.turn, flat, led, len(t.tricks), per_deal, size,
                              a_now, nets, lead, twins)
    STATS["nodes"] += nodes
    return vec_of_net[val]


_RANKS: dict = {}
"""``{(down, n parties, vectors): ranks}``: each party's ranking of the
outcome vectors by :func:`_pick_key`, for the compiled max-n."""


_MAXN: dict = {}
"""``{id(outcomes): (outcomes, vectors, outcome ids, ranks)}`` for the
compiled max-n (the outcomes dict kept alive by its entry)."""


def _maxn_tables(v, n_seats, outcomes) -> tuple:
    """The compiled max-n's view of ``outcomes``: the distinct vectors, the
    vector id of each tricks-won state (mixed radix, seat 0 lowest; -1 for
    a state the deal cannot end in) and each party's rank of each vector
    (:func:`_pick_key`; equal vectors equal ranks)."""
    per_deal = v.tricks_per_deal
    vecs = tuple(sorted(set(outcomes.values())))
    down = _counts_down(v)
    rkey = (down, v.n_sides, vecs)
    rank = _RANKS.get(rkey)
    if rank is None:
        rank = []
        for party in range(v.n_sides):
            order = sorted(range(len(vecs)), key=lambda i: _pick_key(down, party, vecs[i]))
            r = [0] * len(vecs)
            for pos, i in enumerate(order):
                r[i] = pos
            rank += r
        if len(_RANKS) > 4096:
            _RANKS.clear()
        _RANKS[rkey] = rank
    vid = {p: i for i, p in enumerate(vecs)}
    radix = per_deal + 1
    outcome = [-1] * radix ** n_seats
    for won, p in outcomes.items():
        idx = 0
        for s in reversed(range(n_seats)):
            idx = idx * radix + won[s]
        outcome[idx] = vid[p]
    return vecs, outcome, rank


def _max_n_c(t, pt, hands, nxt, side, trick0, outcomes, size, twins):
    """:func:`_max_n` by the compiled search: each outcome vector gets an
    id, each party ranks the ids by :func:`_pick_key` (equal vectors, equal
    ranks), and the search keeps the first child of the highest rank, as
    :func:`_pick` does; returns the points vector."""
    v = t.variant
    cap, lead, suit_index = _c_tables(pt, t.trump)
    per_deal = v.tricks_per_deal
    got = _MAXN.get(id(outcomes))
    if got is None or got[0] is not outcomes:
        got = (outcomes,) + _maxn_tables(v, t.n_seats, outcomes)
        if len(_MAXN) > 50_000:
            _MAXN.clear()
        _MAXN[id(outcomes)] = got
    _, vecs, outcome, rank = got
    flat, led = _c_trick(pt, suit_index, t, trick0)
    i, nodes = _C.max_n(cap, hands, side, nxt, t.turn, flat, led, len(t.tricks), per_deal, size,
                        list(t.tricks_won), outcome, rank, len(vecs), lead, twins)
    STATS["nodes"] += nodes
    return vecs[i]
