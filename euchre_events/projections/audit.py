"""The audit projection: renege findings and irregularities of a game
(rules.md 1.5, 2.7; docs/design.md "Three kinds of wrong").

Pure: no I/O.  Nothing here is ever stored.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from euchre_events.rules.engine import apply


@dataclass(frozen=True)
class Finding:
    """One audit finding (rules.md 1.5).

    ``kind``: ``"renege"``, ``"renege-corrected"`` (the card was taken back
    before the trick was gathered: no penalty, rules.md 1.5) or an
    irregularity's kind; ``deal``/``trick`` count from 1; ``seat``; ``card``
    played; ``led_suit``; ``evidence``: the led-suit cards the seat held;
    ``position``: event index of the play; ``established``: where it could no
    longer be corrected (description); ``proven``: where the table showed the
    evidence (``{"trick": n, "position": k, "card": c}``) or None if only the
    record's hands show it; ``penalty`` in words; ``penalty_points`` for the
    deal per side; ``score_if_penalized``: the game's final score with this
    renege penalized.
    """

    kind: str
    deal: int
    trick: Optional[int]
    seat: Optional[int]
    card: Optional[str]
    led_suit: Optional[str]
    evidence: tuple
    position: int
    established: str
    proven: Optional[dict]
    penalty: str
    penalty_points: tuple
    score_if_penalized: tuple

    def to_dict(self, players: Optional[Sequence[str]] = None) -> dict:
        """The JSON form used by ``euchre-events audit --json`` (plus ``player`` when names are given)."""
        d = {
            "deal": self.deal, "trick": self.trick, "seat": self.seat,
            "kind": self.kind, "card": self.card, "led_suit": self.led_suit,
            "evidence": list(self.evidence), "position": self.position,
            "established": self.established, "proven": self.proven,
            "penalty": self.penalty, "score_if_penalized": list(self.score_if_penalized),
        }
        if players and self.seat is not None:
            d["player"] = players[self.seat]
        return d


def audit(game) -> list:
    """Renege findings of a game, in play order.

    For each renege the trick engine recorded: the evidence (led-suit cards
    held), when it was *established* (the offending side played to the next
    trick, or the hand ended: rules.md 1.5), when it was *proven* (the
    offender later played one of the evidence cards, visible to the table),
    and the penalty under the game's options with the score it would give.
    """
    t = game.final
    if not t.reneges and not t.flags:
        return []
    v = t.variant
    findings = []
    deal_points = {}
    for deal_no, pts, _ in t.deal_results:
        deal_points[deal_no] = pts
    evs = game.events
    for r in t.reneges:
        if r.corrected_at is not None:   # taken back before the trick was gathered
            findings.append(Finding(
                kind="renege-corrected", deal=r.deal, trick=r.trick, seat=r.seat, card=r.card,
                led_suit=r.led_suit, evidence=r.evidence, position=r.position,
                established=f"never: taken back at event {r.corrected_at}", proven=None,
                penalty="none: corrected before the trick was gathered (rules.md 1.5)",
                penalty_points=(0,) * v.n_sides, score_if_penalized=tuple(t.scores)))
            continue
        # one walk over the rest of the deal, with the table, to find when the
        # renege was established (the offending side played to a later trick)
        # and when it was proven (the offender showed one of the evidence cards)
        proven, established = None, None
        ev_set = set(r.evidence)
        tk = game.table_at(r.position + 1)
        for j in range(r.position + 1, len(evs)):
            e = evs[j]
            if e.kind == "DealStarted":
                break
            if e.kind == "CardPlayed":
                trick_now = len(tk.tricks) + 1
                if established is None and trick_now > r.trick and v.side_of(e.seat) == v.side_of(r.seat):
                    established = f"when the offending side played to trick {trick_now}"
                if proven is None and e.seat == r.seat and e.card in ev_set:
                    proven = {"trick": trick_now, "position": j, "card": e.card}
                if proven is not None and established is not None:
                    break
            apply(tk, e)
        established = established or "at the end of the hand"
        dp = deal_points.get(r.deal, (0,) * v.n_sides)
        pts, abandons, words = v.renege_penalty(t, r, dp)
        final = list(t.scores)
        for i in range(v.n_sides):
            final[i] += pts[i] - dp[i]
        findings.append(Finding(
            kind="renege", deal=r.deal, trick=r.trick, seat=r.seat, card=r.card,
            led_suit=r.led_suit, evidence=r.evidence, position=r.position,
            established=established, proven=proven, penalty=words,
            penalty_points=tuple(pts), score_if_penalized=tuple(final)))
    for fl in t.flags:
        findings.append(Finding(
            kind=fl.kind, deal=fl.deal, trick=None, seat=fl.seat, card=None, led_suit=None,
            evidence=(), position=fl.position, established="when it was made", proven=None,
            penalty=f"{fl.text}; no score penalty in the rules, noted for the director",
            penalty_points=(), score_if_penalized=tuple(t.scores)))
    findings.sort(key=lambda f: f.position)
    return findings
