"""Renege claims and rulings judged against the record (rules.md 1.5 "Claim
window", 2.7): the one place that says whether a claim names a real renege,
whether it came in time, and which reneges a deal's official score
penalizes.  Pure: no I/O.

Shapes: seats are indices ``0..n-1``; deals and tricks count from 1 (a
deal's number as its DealStarted gives it); positions are event indices.
"""
from __future__ import annotations

from typing import Optional

from euchre_events.rules import cards as C
from euchre_events.rules.table import Claim, Renege, Ruling, Table

__all__ = ["judge_claim", "rule", "penalized", "renege_named", "deal_start"]


def deal_start(t: Table, deal: int) -> int:
    """Position of the DealStarted of the deal numbered ``deal`` that the
    table's present moment belongs to: the last one with that number so far
    (a deal stopped and dealt again under its own number is two deals,
    rules.md 1.5); 0 when no deal has that number yet."""
    starts = [end.start for (number, *_), end in zip(t.deal_results, t.deal_ends) if number == deal]
    if t.deal_no == deal:
        starts.append(t.deal_start_pos)
    return max(starts, default=0)


def renege_named(t: Table, deal: int, trick: int, against: int) -> Optional[Renege]:
    """The renege of the record by seat ``against`` at trick ``trick`` of
    deal ``deal`` that still stands (not taken back), or None.  A deal
    number dealt twice (an abandoned deal dealt again) names the last deal
    with that number before now (:func:`deal_start`): a claim or a ruling
    goes to the deal its moment belongs to, never to the abandoned one."""
    since = deal_start(t, deal)
    for r in t.reneges:
        if r.deal == deal and r.trick == trick and r.seat == against and r.corrected_at is None \
                and r.position >= since:
            return r
    return None


def _play_of(t: Table, deal: int, trick: int, seat: int) -> Optional[tuple]:
    """``(card, led suit, trump)`` of ``seat``'s card to trick ``trick`` of
    the deal being played now, or None (another deal, or not yet played)."""
    if deal != t.deal_no:
        return None
    if trick <= len(t.tricks):
        plays = t.tricks[trick - 1][1]
    elif trick == len(t.tricks) + 1:
        plays = tuple(t.trick)
    else:
        return None
    for i, (s, c) in enumerate(plays):
        if s == seat:
            led = C.effective_suit(plays[0][1], t.trump) if not C.is_unknown(plays[0][1]) else None
            return c, (led if i else None), t.trump
    return None


def _last_card(t: Table) -> Optional[tuple]:
    """``(seat, card)`` of the last card played in this deal, or None."""
    if t.trick:
        return t.trick[-1]
    if t.tricks:
        return t.tricks[-1][1][-1]
    return None


def _why_no_renege(t: Table, deal: int, trick: int, against: int) -> str:
    """Words for a claim that names no renege: the card followed suit (the
    left bower is a trump, never a card of its printed suit: case C1), the
    seat was void, a correction, a trick not played."""
    who = f"seat {against}"
    since = deal_start(t, deal)
    for r in t.reneges:
        if r.deal == deal and r.trick == trick and r.seat == against and r.position >= since:
            return f"{who} took back {C.pretty(r.card)} before trick {trick} was gathered (rules.md 1.5: no renege)"
    if deal == t.deal_no and trick > t.variant.tricks_in_deal(t):
        return f"deal {deal} has {t.variant.tricks_in_deal(t)} tricks: there is no trick {trick}"
    if deal > t.deal_no or (deal == t.deal_no and trick > len(t.tricks) + 1):
        return f"trick {trick} of deal {deal} has not been played"
    play = _play_of(t, deal, trick, against)
    if play is None:
        if deal == t.deal_no and against in t.out:
            return f"{who} sat out deal {deal} and played to no trick"
        if deal == t.deal_no:
            return f"{who} has not played to trick {trick} of deal {deal}"
        return f"the record shows no renege by {who} at trick {trick} of deal {deal}"
    card, led, trump = play
    if led is None:
        return f"{who} led trick {trick}: a lead cannot be a renege"
    if C.is_unknown(card):
        return f"the record does not state {who}'s card to trick {trick}"
    name = C.SUIT_NAMES.get(led, led)
    lb = C.left_bower(trump) if trump is not None else None
    if C.effective_suit(card, trump) == led:
        if lb is not None and C.base(card) == lb and led == trump:
            return (f"{who} played {C.pretty(card)}, the left bower, which is a trump: it follows the "
                    f"{name} lead (rules.md 1.2, case C1)")
        return f"{who} followed suit with {C.pretty(card)} ({name} led)"
    why = f"{who} played {C.pretty(card)} on the {name} lead, but held no {name} then: a void, not a renege"
    if lb is not None and C.suit_of(lb) == led and deal == t.deal_no \
            and any(C.base(c) == lb for c in t.hands[against]):
        why += (f" (the {C.card_name(lb)} it held is the left bower, a trump, not one of "
                f"the {name}: rules.md 1.2, case C1)")
    return why


def judge_claim(t: Table, position: int, by: int, against: int, deal: int, trick: int) -> Claim:
    """Judge a :class:`~euchre_events.events.RenegeClaimed` folded at
    ``position`` into ``t`` (the table before it): ``valid`` if seat
    ``against`` reneged at that trick of that deal and the claim comes in
    the game's window (``renege_claim_window``: ``next-deal``, before the
    next deal starts; ``first-chance``, after the offender shows the suit
    held back and before the next card is played, rules.md 1.5); else
    ``rejected`` with the reason.  A claim by the offending side is judged
    the same way (a player may own up)."""
    r = renege_named(t, deal, trick, against)
    if r is None:
        return Claim(position, by, against, deal, trick, "rejected",
                     "no renege: " + _why_no_renege(t, deal, trick, against))
    window = getattr(t.options, "renege_claim_window", "next-deal")
    if deal != t.deal_no:
        return Claim(position, by, against, deal, trick, "rejected",
                     f"late: deal {t.deal_no} had started (a renege may be claimed until the next "
                     "deal starts, rules.md 1.5)", r.position)
    if window == "first-chance":
        if r.shown_at is None:
            return Claim(position, by, against, deal, trick, "rejected",
                         f"under first-chance a renege may be called only when seat {against} shows "
                         f"the suit held back, and it has not (rules.md 1.5)", r.position)
        if _last_card(t) != (r.seat, r.shown_card):
            return Claim(position, by, against, deal, trick, "rejected",
                         f"late under first-chance: seat {against} showed {C.pretty(r.shown_card)} at event "
                         f"{r.shown_at}, and play went on before the claim (rules.md 1.5)", r.position)
    return Claim(position, by, against, deal, trick, "valid",
                 f"seat {against} played {C.card_words(r.card, t.trump)} on a "
                 f"{C.SUIT_NAMES.get(r.led_suit, r.led_suit)} lead holding "
                 f"{' '.join(C.card_words(c, t.trump) for c in r.evidence)}", r.position)


def rule(t: Table, position: int, deal: int, trick: int, against: int, ruling: str,
         penalty: Optional[tuple], by: str, reason: str) -> Ruling:
    """A :class:`~euchre_events.events.RenegeRuled` as folded: the renege of
    the record it names (None when the record shows none there: the ruling
    stands, and the audit reports the contradiction).  Raises ``ValueError``
    for a ruling other than ``upheld``/``rejected`` or a penalty of the
    wrong length."""
    if ruling not in ("upheld", "rejected"):
        raise ValueError(f"ruling {ruling!r}: expected upheld or rejected")
    if penalty is not None and len(penalty) != t.variant.n_sides:
        raise ValueError(f"ruling penalty {list(penalty)}: expected {t.variant.n_sides} numbers, one per side")
    r = renege_named(t, deal, trick, against)
    return Ruling(position, deal, trick, against, ruling,
                  tuple(penalty) if penalty is not None else None, by, reason,
                  r.position if r is not None else None)


def penalized(t: Table, deal: int, abandoned: bool, since: int = 0, until: Optional[int] = None,
              latest: bool = True) -> list:
    """The reneges of deal ``deal`` its official score penalizes, in play
    order: ``[(Renege, ruled points or None), ...]`` (rules.md 1.5, 2.7).

    The latest ruling on a renege decides it (upheld: penalized, with the
    ruling's points if it gives them; rejected: not).  Without a ruling,
    under ``renege_enforcement="automatic"`` every renege that stands and
    was established (an abandoned deal's renege that was never established
    could still have been corrected: not penalized); under ``"claimed"``
    only one with a valid claim.  A ruling upholding a renege the record
    does not show penalizes nothing here: there is no renege to apply the
    preset to, unless it gives its own points: then it is listed at its
    trick as a :class:`Renege` of the ruled seat with the ruling's
    position and an unknown card (``??``), and the first ruling with points
    in play order gives the deal's points.

    ``since``/``until``: the positions of this deal's DealStarted and of
    the next deal's (None: none yet); a deal stopped and dealt again under
    its own number is two deals, each with its own reneges, and a ruling
    that names no renege of the record goes to the later one (``latest``:
    no later deal has this number)."""
    enforcement = getattr(t.options, "renege_enforcement", "automatic")
    out = []
    for r in t.reneges:
        if r.deal != deal or r.corrected_at is not None or r.position < since \
                or (until is not None and r.position >= until):
            continue
        ruled = [u for u in t.rulings if u.renege == r.position]
        if ruled:
            last = ruled[-1]
            if last.ruling == "upheld":
                out.append((r, last.penalty))
            continue
        if enforcement == "automatic":
            if r.established_at is not None or not abandoned:
                out.append((r, None))
        elif any(c.renege == r.position and c.verdict == "valid" for c in t.claims):
            out.append((r, None))
    # rulings on a renege the record does not show: the latest on each
    # (trick, seat) decides; upheld with its own points, they stand
    unseen = {}
    for u in t.rulings:
        if u.renege is None and u.deal == deal and latest:
            unseen[(u.trick, u.against)] = u
    for u in unseen.values():
        if u.ruling == "upheld" and u.penalty is not None:
            out.append((Renege(u.position, u.deal, u.trick, u.against, C.UNKNOWN, None, ()), u.penalty))
    out.sort(key=lambda p: (p[0].trick, p[0].position))   # play order, a ruling at its trick
    return out
