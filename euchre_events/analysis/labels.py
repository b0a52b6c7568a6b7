"""The EGN project's marks for a decision, and a player's accuracy.

The six labels are the EGN project's own (its ``spec/annotations.md``):
``??`` blunder (directly cost points), ``?`` mistake, ``?!`` dubious (did not
cost points this time, could have with other cards), ``!?`` interesting,
``!`` great, ``!!`` brilliant (directly earned extra points).  "This time" is
the face-up value (every hand visible, exact); "with other cards" is the
seat-view value (the unseen cards dealt many ways).  What each threshold is,
and why, with worked examples: docs/analysis.md, "Labels".

Pure: no I/O.
"""
from __future__ import annotations

import math
from typing import Optional, Sequence

__all__ = ["LABELS", "BLUNDER", "MISTAKE", "SEAT_BAD", "ONLY_MOVE", "OBVIOUS", "label", "accuracy_of",
           "decision_accuracy", "LABEL_WORDS"]

LABELS = ("??", "?", "?!", "!?", "!", "!!")
LABEL_WORDS = {"??": "blunder", "?": "mistake", "?!": "dubious", "!?": "interesting",
               "!": "great", "!!": "brilliant"}

BLUNDER = 0.20
"""Game-win chance lost (0..1) from which a costly decision is a blunder ``??``
(lichess: 30 points of win%; Euchre's deals move the chance in bigger steps,
a euchre at 0-0 already moves it about 11 points)."""
MISTAKE = 0.07
"""Game-win chance lost from which a costly decision is a mistake ``?``."""
POINTS_BLUNDER = 2.0
POINTS_MISTAKE = 1.0
"""The same two thresholds in deal points, for the games of three or four
parties, where no win chance is computed (:mod:`.winchance`)."""
SEAT_BAD = 0.25
"""Seat-view cost (deal points, mean over the sampled deals) from which a
decision was bad on what the seat could know (and more than two standard
errors of the estimate)."""
ONLY_MOVE = 1.0
"""An "only move": every other option costs at least this many points face up."""
OBVIOUS = 0.5
"""An only move that was the best in this share of the imagined deals or more
was obvious from the seat: no ``!``."""


def _seat_bad(sv_cost: Optional[float], sv_se: Optional[float]) -> Optional[bool]:
    """The seat view's verdict on a choice: True (bad: worse than the seat
    view's best by :data:`SEAT_BAD` points or more, and by more than two
    standard errors), False (fair: worse by less than :data:`SEAT_BAD`),
    None (no seat view, or worse by that much but within the noise: the
    imagined deals cannot tell, so neither ``?!`` nor ``!?``)."""
    if sv_cost is None:
        return None
    if sv_cost < SEAT_BAD:
        return False
    return True if sv_cost > 2 * (sv_se or 0.0) else None


def label(face_up_cost: Optional[float], seat_view_cost: Optional[float],
          win_chance_lost: Optional[float], *, seat_view_se: Optional[float] = None,
          others_face_up_cost: Optional[float] = None, seat_view_gap: Optional[float] = None,
          best_share: Optional[float] = None, forced: bool = False) -> Optional[str]:
    """The EGN label of one decision, or None.

    ``face_up_cost`` and ``seat_view_cost``: deal points lost against the best
    option (>= 0; None where not computed); ``win_chance_lost``: game-win
    chance lost face up (0..1, None in the games of more than two parties,
    which then use points); ``others_face_up_cost``: the smallest face-up cost
    of the options not played (how much the best option stood out);
    ``seat_view_gap``: how much worse, from the seat's view, the played option
    looked than the seat view's best (0 when it was the seat view's best);
    ``best_share``: the share of the imagined deals in which the played
    option was (one of) the best.

    * ``??`` / ``?``: it cost this much face up (:data:`BLUNDER`,
      :data:`MISTAKE` of win chance, or :data:`POINTS_BLUNDER`,
      :data:`POINTS_MISTAKE`) and was also bad from the seat's view (or the
      seat view was not computed);
    * ``!?``: it cost points face up, but from the seat's view it was right
      (worse than the seat view's best by less than :data:`SEAT_BAD`): the
      cards lay badly; where the seat view cannot tell (worse by that much but
      within two standard errors) the face-up label stands;
    * ``!!``: the only good option face up (every other costs
      :data:`ONLY_MOVE` points or more) and one that the seat view did not
      favour: it found points the odds did not show;
    * ``!``: the only good option face up, the seat view's best too, and not
      an obvious one: in fewer than half (:data:`OBVIOUS`) of the imagined deals was
      it the best (most "only moves" of Euchre, following suit or trumping
      a trick one must win, are no feat and get no mark);
    * ``?!``: it cost nothing this time (and was not the only good option),
      but from the seat's view it was bad;
    * a forced decision (one legal option) has no label, and without a seat
      view (``--face-up-only``) ``!``, ``!!``, ``!?`` and ``?!`` are not given.
    """
    if forced or face_up_cost is None:
        return None
    bad_seat = _seat_bad(seat_view_cost, seat_view_se)
    if win_chance_lost is not None:
        big, small = win_chance_lost >= BLUNDER, win_chance_lost >= MISTAKE
    else:
        big, small = face_up_cost >= POINTS_BLUNDER, face_up_cost >= POINTS_MISTAKE
    costly = face_up_cost > 1e-9 and small
    if costly:
        if bad_seat is False:
            return "!?"
        return "??" if big else "?"
    if face_up_cost <= 1e-9:
        if (others_face_up_cost is not None and others_face_up_cost >= ONLY_MOVE
                and seat_view_gap is not None):
            # the only good option: it earned the points every other option gave away
            if seat_view_gap > SEAT_BAD / 2:
                return "!!"
            if best_share is not None and best_share < OBVIOUS:
                return "!"
        if bad_seat:
            return "?!"
    return None


def decision_accuracy(win_chance_lost: Optional[float], face_up_cost: float) -> float:
    """lichess's accuracy of one move (0..100) from the win% it lost:
    ``103.1668 * exp(-0.04354 * loss%) - 3.1669``, clipped to 0..100.  Where no
    win chance is computed, 10 points of win% per deal point lost stand in."""
    loss = 100 * win_chance_lost if win_chance_lost is not None else 10 * face_up_cost
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * max(0.0, loss)) - 3.1669))


def accuracy_of(values: Sequence[float]) -> Optional[float]:
    """A player's accuracy in a game: the mean of :func:`decision_accuracy`
    over their unforced decisions analysed face up (None if there are none)."""
    return sum(values) / len(values) if values else None
