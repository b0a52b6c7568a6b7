"""Game-win chances from the score: what a deal's points are worth at this score.

At 9-9 in a game to 10 a point is the game; at 9 a march is worth no more
than a point.  To weigh a decision by what it does to the game (as lichess
weighs a chess move by the win% it loses), a deal's points are turned into
the chance of winning the game from the score they leave, with the next
deal's dealer known (docs/analysis.md, "Win chance").

The model: the deals that follow are independent draws from a stated
distribution of deal outcomes, counted from real records and given relative
to the dealing side (:data:`OUTCOMES`).  :func:`win_chance` solves the game
to the target exactly under that model (a small dynamic programme over
``(our score, their score, who deals)``).

Two-party games only (the partnership games and two-handed Euchre).  In the
games of three or four parties (cutthroat, Ghost Hand, Buck) the chance of
winning depends on how the other parties treat each other; there
:func:`win_chance` returns None and the labels use points
(:mod:`euchre_events.analysis.labels`).

Pure: no I/O.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Optional, Sequence

__all__ = ["OUTCOMES", "outcomes_for", "win_chance", "win_chance_after"]

OUTCOMES: dict = {
    # standard Euchre: the 134 deals of the 13 EGN tournament records shipped in
    # fixtures/egn (VWEC, MotE league week 5, the annotated games), counted as
    # (points to the dealing side, points to the other side): the dealer's side
    # makes 1 in 45%, marches 17%, makes a lone march 4%; the other side makes 1
    # in 19%, 2 (a march, or a euchre of the dealer's side) in 14%.  Recounted
    # from the records by tests/test_analysis_review.py.
    "standard": ((1, 0, 60), (2, 0, 23), (4, 0, 6), (0, 1, 26), (0, 2, 19)),
    # two-handed Euchre (rules.md 3): the 38 deals of the shipped two-handed games
    # (fixtures/two-handed), thrown-in deals included.
    "two-handed": ((1, 0, 9), (2, 0, 11), (0, 0, 4), (0, 1, 10), (0, 2, 4)),
    # Bid Euchre (rules.md 7): the 17 deals of the shipped Bid games (fixtures/bid);
    # both sides score in a deal.
    "bid": ((-5, 2, 1), (1, 5, 2), (2, 4, 3), (2, 10, 1), (3, 9, 2), (4, -3, 1), (4, 2, 1),
            (5, 1, 2), (6, 0, 1), (10, 2, 1), (12, 0, 1), (24, 0, 1)),
}
"""Deal outcomes per variant: ``(points to the dealing side, points to the
other side, how many deals)``, counted from the shipped records named in
each comment."""


def outcomes_for(variant: str) -> Optional[tuple]:
    """The outcome table of ``variant`` as ``((dealer_points, other_points,
    probability), ...)``, or None for a game of more than two parties."""
    rows = OUTCOMES.get(variant)
    if rows is None:
        return None
    n = sum(r[2] for r in rows)
    return tuple((a, b, c / n) for a, b, c in rows)


def win_chance(variant: str, ours: int, theirs: int, we_deal: bool, target: int) -> Optional[float]:
    """The chance (0..1) that "our" side wins a game to ``target`` from the score
    ``ours``-``theirs`` with the next deal dealt by us (``we_deal``) or them.

    Both at or over the target cannot happen in the two-party games but for
    Bid, where a deal can carry both past it: then the higher score wins, and a
    tie is worth one half.  Returns None for a variant of more than two parties
    (see the module's docstring).
    """
    table = outcomes_for(variant)
    if table is None:
        return None
    return _solve(table, target)(int(ours), int(theirs), bool(we_deal))


def win_chance_after(variant: str, scores: Sequence[int], points: Sequence[int], party: int,
                     next_dealer_party: int, target: int) -> Optional[float]:
    """Win chance of ``party`` (0 or 1) after a deal worth ``points`` (per party)
    from the score ``scores`` (per party, before the deal), the next deal dealt
    by ``next_dealer_party``.  None for more than two parties."""
    if len(scores) != 2:
        return None
    other = 1 - party
    return win_chance(variant, scores[party] + points[party], scores[other] + points[other],
                      next_dealer_party == party, target)


@lru_cache(maxsize=16)
def _solve(table: tuple, target: int):
    """``f(ours, theirs, we_deal) -> chance``, by value iteration over the
    scores below the target (a deal may score nothing, so the recurrence is
    solved to a fixed point, not in one sweep).  The states' successors are
    looked up once, before the sweeps: each sweep then does the very
    arithmetic of :func:`_solve_reference`, in its order, so the chances are
    the same floats."""
    lo, size, done = _bounds(table, target)
    # w: every state's chance, (a - lo, b - lo, d) at ((a - lo) * size + (b - lo)) * 2 + d,
    # then the three chances of a game over (0, 1/2, 1) that no sweep changes
    n = size * size * 2
    w = [0.5] * n + [0.0, 0.5, 1.0]

    # the sweep's order: a and b downwards, d = 0 then 1; each state's (p, successor) in the
    # table's order (d == 1: we deal, so the dealing side's points are ours)
    sweep = []
    by_dealer = ((0, [(y, x, p) for x, y, p in table]), (1, table))
    for ai in range(size - 1, -1, -1):
        a = ai + lo
        for bi in range(size - 1, -1, -1):
            b = bi + lo
            for d, moves in by_dealer:
                steps = []
                for mine, theirs, p in moves:
                    a2, b2 = a + mine, b + theirs
                    if a2 >= target or b2 >= target:
                        j = n + 1 if a2 == b2 else n + 2 if a2 > b2 else n
                    else:       # a score under lo counts as lo
                        j = ((a2 - lo if a2 > lo else 0) * size + (b2 - lo if b2 > lo else 0)) * 2 + 1 - d
                    steps.append((p, j))
                sweep.append(((ai * size + bi) * 2 + d, steps))
    for _ in range(400):
        delta = 0.0
        for i, steps in sweep:
            v = 0.0
            for p, j in steps:
                v += p * w[j]
            change = abs(v - w[i])
            if change > delta:
                delta = change
            w[i] = v
        if delta < 1e-9:
            break

    def get(a: int, b: int, d: int) -> float:
        r = done(a, b)
        if r is not None:
            return r
        return w[((max(a, lo) - lo) * size + max(b, lo) - lo) * 2 + d]
    return lambda a, b, d: get(a, b, 1 if d else 0)


def _bounds(table: tuple, target: int) -> tuple:
    """``(lowest score, scores below the target counted from it, done)`` of
    :func:`_solve`: Bid scores can fall below zero (a score under
    ``-target`` counts as ``-target``); ``done(a, b)`` is the chance of a
    game over at ``a``-``b`` (1, 0, or 1/2 level), None while it goes on."""
    lo = 0 if all(x >= 0 and y >= 0 for x, y, _ in table) else -target

    def done(a: int, b: int) -> Optional[float]:
        if a >= target or b >= target:
            if a == b:
                return 0.5
            return 1.0 if a > b else 0.0
        return None
    return lo, target - lo, done


def _solve_reference(table: tuple, target: int):
    """:func:`_solve` as first written (each state's successors looked up in
    every sweep): the reference the tests compare it with."""
    lo, size, done = _bounds(table, target)
    w = [[[0.5, 0.5] for _ in range(size)] for _ in range(size)]

    def get(a: int, b: int, d: int) -> float:
        r = done(a, b)
        if r is not None:
            return r
        return w[max(a, lo) - lo][max(b, lo) - lo][d]

    for _ in range(400):
        delta = 0.0
        for ai in range(size - 1, -1, -1):
            a = ai + lo
            for bi in range(size - 1, -1, -1):
                b = bi + lo
                for d in (0, 1):
                    v = 0.0
                    for x, y, p in table:
                        # d == 1: we deal, so the dealing side's points are ours
                        mine, theirs = (x, y) if d else (y, x)
                        v += p * get(a + mine, b + theirs, 1 - d)
                    delta = max(delta, abs(v - w[ai][bi][d]))
                    w[ai][bi][d] = v
        if delta < 1e-9:
            break
    return lambda a, b, d: get(a, b, 1 if d else 0)
