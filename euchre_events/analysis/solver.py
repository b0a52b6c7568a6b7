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
  both sides score, net).  Perfect play is then zero-sum; of the actions
  with equal net value the first in ``legal_actions`` order is taken (in
  the play of a fixed contract the net value decides the points vector, so
  this choice never changes a value).
* More than two parties (cutthroat, Ghost Hand, Buck): *max-n*: each seat
  maximises its own utility.  **Tie rule**: of the actions with equal own
  utility a seat takes the one that leaves the least to its rivals (the
  lowest sum of the other parties' utilities: every other party is a rival
  in the race to the target), then the first in ``legal_actions`` order.
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
``engine._fast_plays_ok``) or the scoring depends on more than the tricks
taken (standard's ``fast_break``), the play falls back to the reference.

A card the record does not state (``??``, ``?D``) in a hand still to be
played, the dummy or the ghost hand makes the position :class:`Unknowable`;
a card out of play (a buried discard, the kitty) never does.
"""
from __future__ import annotations

from typing import Optional, Sequence

from euchre_events.events import Event
from euchre_events.rules.engine import apply, legal_actions
from euchre_events.rules.table import DEAL_OVER, GAME_OVER, PLAY, Table

__all__ = ["Unknowable", "party_of", "utilities", "value_for", "action_values", "solve", "METHODS"]

METHODS = ("fast", "reference")


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
    docstring."""
    if party is None or len(vecs) == 1:
        return 0
    down = _counts_down(variant)
    best_i, best_k = 0, None
    for i, v in enumerate(vecs):
        u = [-p for p in v] if down else v
        if len(u) == 2:
            k = (u[party] - u[1 - party],)
        else:
            k = (u[party], u[party] - sum(u))
        if best_k is None or k > best_k:
            best_i, best_k = i, k
    return best_i


# ------------------------------------------------------------------ positions

def _over(t: Table) -> bool:
    return t.phase in (DEAL_OVER, GAME_OVER)


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
        if play and s in t.out:
            continue
        bad = [c for c in hand if c[:1] == "?"]
        if bad:
            raise Unknowable(f"seat {s} holds {len(bad)} card(s) the record does not state ({bad[0]}): "
                             "the value depends on which cards they are, and they are never guessed")
    if play:
        for s, c in t.trick:
            if c[:1] == "?":
                raise Unknowable(f"seat {s} played a card the record does not state ({c}) to the trick "
                                 "being played: who wins it cannot be known")
    else:
        for name in ("dummy", "ghost"):
            bad = [c for c in getattr(t, name) if c[:1] == "?"]
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
    acts, reason = legal_actions(t)
    if not acts:
        raise ValueError(f"no legal action at this position ({reason})")
    vecs = []
    for a in acts:
        c = t.copy()
        apply(c, a)
        vecs.append(_reference(c))
    return vecs[_pick(t.variant, _decider(t, acts), vecs)]


def _fast(t: Table, memo: dict) -> tuple:
    """The points vector of ``t`` under perfect play: the engine for the
    auction and the exchanges, the bit-mask play search from the first lead."""
    if _over(t):
        return _points(t)
    if t.phase == PLAY:
        return _reference(t)   # the bit-mask play search comes next (issue 21 step 2)
    acts, reason = legal_actions(t)
    if not acts:
        raise ValueError(f"no legal action at this position ({reason})")
    vecs = []
    for a in acts:
        c = t.copy()
        apply(c, a)
        vecs.append(_fast(c, memo))
    return vecs[_pick(t.variant, _decider(t, acts), vecs)]


def _method(method: str):
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; expected one of {', '.join(METHODS)}")
    if method == "reference":
        return lambda c, memo: _reference(c)
    return _fast


def action_values(t: Table, *, method: str = "fast") -> list:
    """Every legal action at ``t`` (in ``engine.legal_actions`` order) with
    the points vector (tuple of ints, one per party, deal points) reached
    when every seat plays perfectly from there to the end of the deal (see
    the module docstring for the model and tie rule).  ``[]`` when the deal
    is over.  ``t`` is not changed.

    Raises :class:`Unknowable` when a card the solve needs is not stated by
    the record; ``ValueError`` for an unknown ``method`` or a position that
    is not inside a deal.
    """
    run = _method(method)
    _check_known(t)
    if _over(t):
        return []
    acts, reason = legal_actions(t)
    if not acts:
        raise ValueError(f"no legal action at this position ({reason})")
    memo: dict = {}
    out = []
    for a in acts:
        c = t.copy()
        apply(c, a)
        out.append((a, run(c, memo)))
    return out


def solve(t: Table, *, method: str = "fast") -> tuple:
    """The points vector of position ``t`` under perfect play (tuple of
    ints, one per party, deal points); a finished deal's own points.  Same
    model, errors and ``method`` as :func:`action_values`."""
    run = _method(method)
    _check_known(t)
    return run(t, {})
