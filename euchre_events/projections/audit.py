"""The audit projection: renege findings, claims and rulings, irregularities,
and the official result of a game (rules.md 1.5, 1.6, 2.7; docs/design.md
"Three kinds of wrong").

The rules engine decides (:mod:`euchre_events.rules.engine`,
:mod:`euchre_events.rules.claims`): which reneges stand, when each was
established and shown, how each claim is judged, the official points of
each deal and the official game end.  This projection reads that off the
folded game, adds what only the seat-knowledge projection can tell (when
the other side could first *prove* the renege from the table,
:func:`~euchre_events.projections.seat.knowledge`), and puts it in the
shapes the reports use.  Pure: no I/O.  Nothing here is ever stored.

Shapes: a *place* is ``{"event": k, "deal": n, "trick": t}`` (``k`` the
0-based index of the event in the game's stream, ``n`` the deal's number,
``t`` the trick from 1, or None between tricks); points and scores are per
side (a list, side 0 first).
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Optional, Sequence

from euchre_events.rules.seats import score_text


@dataclass(frozen=True)
class Finding:
    """One audit finding (rules.md 1.5).

    ``kind``: ``"renege"``, ``"renege-corrected"`` (the card was taken back
    before the trick was gathered: no penalty, rules.md 1.5),
    ``"claim-rejected"`` (a claim that names no renege: ``seat`` is the
    claimant, ``against`` the accused) or an irregularity's kind
    (``"deal-abandoned"``, ``"played-after-game-won"``, ``"game-end-moved"``
    (a late ruling on an earlier deal moved the official game end), ``"led-out-of-turn"``,
    ...); ``deal``/``trick`` count from 1; ``seat``; ``card`` played;
    ``led_suit``; ``evidence``: the led-suit cards the seat held;
    ``position``: event index of the play (of the claim, of the
    irregularity); ``established``: in words; ``proven``: where the table
    showed the evidence (``{"trick": n, "position": k, "card": c}``) or None;
    ``penalty`` in words; ``penalty_points`` for the deal per side;
    ``score_if_penalized``: the final as-played score with this renege alone
    penalized.

    The life of a renege (each a place or None, see the module docstring):
    ``committed_at`` (the card played), ``established_at`` (the trick
    gathered: the first card of a later trick, or the end of the hand),
    ``provable_at`` (the first event after which a seat of the other side
    could know it, from the seat-knowledge projection), ``claimed_at`` (the
    first claim naming it); ``public_proof`` (True when provable from the
    table; False when only the hands show it: the proving card was buried,
    in the kitty or never played); ``ruling`` (None, ``"upheld"`` or
    ``"rejected"``), ``ruling_reason``, ``ruled_by`` (a director's name,
    or ``"the rules"`` for a claim judged against the record);
    ``penalized``: whether the official score applies it, ``status`` in
    words (``"penalized"``, ``"unclaimed"``, ...).
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
    committed_at: Optional[dict] = None
    established_at: Optional[dict] = None
    provable_at: Optional[dict] = None
    claimed_at: Optional[dict] = None
    public_proof: bool = False
    ruling: Optional[str] = None
    ruling_reason: str = ""
    ruled_by: str = ""
    penalized: bool = False
    status: str = ""
    against: Optional[int] = None
    proving_card: Optional[str] = None

    def to_dict(self, players: Optional[Sequence[str]] = None) -> dict:
        """The JSON form used by ``euchre-events audit --format json`` (plus
        ``player`` when names are given)."""
        d = {
            "deal": self.deal, "trick": self.trick, "seat": self.seat,
            "kind": self.kind, "card": self.card, "led_suit": self.led_suit,
            "evidence": list(self.evidence), "position": self.position,
            "established": self.established, "proven": self.proven,
            "penalty": self.penalty, "score_if_penalized": list(self.score_if_penalized),
            "committed_at": self.committed_at, "established_at": self.established_at,
            "provable_at": self.provable_at, "claimed_at": self.claimed_at,
            "public_proof": self.public_proof, "ruling": self.ruling,
            "ruling_reason": self.ruling_reason, "ruled_by": self.ruled_by,
            "penalized": self.penalized, "status": self.status,
        }
        if self.against is not None:
            d["against"] = self.against
        if players and self.seat is not None and self.seat < len(players):
            d["player"] = players[self.seat]
        return d


@dataclass(frozen=True)
class DealReport:
    """One deal as the audit reports it (``deals`` in ``audit --format json``):
    ``deal`` (number), ``dealer``, ``maker``, ``trump`` (suit letter or
    None), ``alone`` (seat or None), ``trick_winners`` (seat per trick),
    ``tricks`` (per seat), ``points_as_played`` / ``points_official`` (per
    side), ``score_as_played`` / ``score_official`` (per side, after the
    deal), ``flags`` (kinds: ``deal-abandoned``, ``played-after-game-won``,
    ``renege``, ...), ``note`` (``""``, ``"abandoned"``, ``"thrown in"``,
    ``"after the game was won"``); ``tokens``: four-trick tokens held per
    side after the deal, in a game that plays them (standard Euchre's
    ``four_trick_tokens``, rules.md 2.9), else ``()`` and left out of the JSON;
    ``out``: the seats that sat the deal out (a lone player's partner, rules.md
    2.4; Buck drop-outs, 6.2; the seat out of a deal dealt round), left out of
    the JSON when none did."""

    deal: int
    dealer: Optional[int]
    maker: Optional[int]
    trump: Optional[str]
    alone: Optional[int]
    trick_winners: tuple
    tricks: tuple
    points_as_played: tuple
    points_official: tuple
    score_as_played: tuple
    score_official: tuple
    flags: tuple = ()
    note: str = ""
    penalties: tuple = field(default=())
    tokens: tuple = field(default=())
    out: tuple = field(default=())

    def to_dict(self) -> dict:
        """JSON form (lists for tuples)."""
        d = {"deal": self.deal, "dealer": self.dealer, "maker": self.maker, "trump": self.trump,
                "alone": self.alone, "trick_winners": list(self.trick_winners),
                "tricks": list(self.tricks), "points_as_played": list(self.points_as_played),
                "points_official": list(self.points_official),
                "score_as_played": list(self.score_as_played),
                "score_official": list(self.score_official), "flags": list(self.flags),
                "note": self.note, "penalties": [list(p) for p in self.penalties]}
        if self.tokens:
            d["tokens"] = list(self.tokens)
        if self.out:
            d["out"] = list(self.out)
        return d


def place(game, k: Optional[int]) -> Optional[dict]:
    """``{"event": k, "deal": n, "trick": t}`` for event ``k`` of ``game``
    (``trick``: the trick being played at that event, None outside the
    play), or None for None."""
    if k is None:
        return None
    idx = game.index()
    deal = idx.deal_at[k + 1] if k + 1 < len(idx.deal_at) else idx.deal_at[-1]
    starts = idx.trick_start.get(deal, ())
    trick = bisect_right(starts, k) or None
    if trick is not None and game.events[k].kind in ("RenegeClaimed", "RenegeRuled") \
            and game.table_at(k).phase in ("deal_over", "game_over"):
        trick = None   # said after the hand, not during a trick
    return {"event": k, "deal": deal, "trick": trick}


def _deal_end(game, k: int) -> int:
    """Index of the first event after the deal holding event ``k`` (the next
    DealStarted, or the end of the stream)."""
    evs = game.events
    for j in range(k + 1, len(evs)):
        if evs[j].kind == "DealStarted":
            return j
    return len(evs)


def provable_at(game, r) -> Optional[int]:
    """The first event (index) after which a seat of the other side could
    know of renege ``r`` (:attr:`SeatKnowledge.reneges_known`), within its
    deal; None when only the hands show it (rules.md 1.5).  Only an event by
    the offender, or a card taken back, can show what a hand held: those
    are the events looked at."""
    from euchre_events.projections.seat import knowledge   # here: a fold for analysis needs no seat view
    v = game.final.variant
    opponents = [s for s in range(v.n_seats) if v.side_of(s) != v.side_of(r.seat)]
    evs = game.events
    end = _deal_end(game, r.position)
    for k in range(r.position, end):
        e = evs[k]
        if not (getattr(e, "seat", None) == r.seat or e.kind == "PlayCorrected"):
            continue
        for s in opponents:
            if r.position in knowledge(game, k + 1, s).reneges_known:
                return k
    return None


def audit(game) -> list:
    """Findings of a game in play order: every renege (with its life, the
    claims and the ruling, the penalty and whether the official score
    applies it), every claim that names no renege, every irregularity."""
    t = game.final
    if not t.reneges and not t.flags and not t.claims and not t.rulings:
        return []
    v = t.variant
    deal_points = {}
    for deal_no, pts, _ in t.deal_results:
        deal_points[deal_no] = pts
    applied = {pos: words for o in t.official_results for pos, words in o.penalized}
    over = {o.deal for o in t.official_results if o.note == "after the game was won"}
    ended = {o.deal for o in t.official_results}   # deals scored, thrown in or abandoned
    enforcement = getattr(t.options, "renege_enforcement", "automatic")
    findings = []
    for r in t.reneges:
        committed = place(game, r.position)
        if r.corrected_at is not None:   # taken back before the trick was gathered
            findings.append(Finding(
                kind="renege-corrected", deal=r.deal, trick=r.trick, seat=r.seat, card=r.card,
                led_suit=r.led_suit, evidence=r.evidence, position=r.position,
                established=f"never: taken back at event {r.corrected_at}", proven=None,
                penalty="none: corrected before the trick was gathered (rules.md 1.5)",
                penalty_points=(0,) * v.n_sides, score_if_penalized=tuple(t.scores),
                committed_at=committed, status="corrected"))
            continue
        if r.established_at is None:
            established = "never: the deal was abandoned before the trick was gathered"
        elif r.established_at == r.position or game.events[r.established_at].kind != "CardPlayed" \
                or place(game, r.established_at)["trick"] == r.trick:
            established = "when the hand ended"
        else:
            e = game.events[r.established_at]
            established = (f"when trick {r.trick} was gathered: seat {e.seat} played to "
                           f"trick {place(game, r.established_at)['trick']}")
        pk = provable_at(game, r)
        proven = None
        proving = r.shown_card
        if pk is not None:
            e = game.events[pk]
            card = getattr(e, "card", None)
            proving = card if card is not None else r.shown_card
            proven = {"trick": place(game, pk)["trick"], "position": pk, "card": proving}
        dp = deal_points.get(r.deal, (0,) * v.n_sides)
        pts, _, words = v.renege_penalty(t, r, dp)
        final = list(t.scores)
        for i in range(v.n_sides):
            final[i] += pts[i] - dp[i]
        named = [c for c in t.claims if c.renege == r.position]
        rulings = [u for u in t.rulings if u.renege == r.position]
        ruling, reason, by = None, "", ""
        if rulings:
            u = rulings[-1]
            ruling, reason, by = u.ruling, u.reason, u.by or "the director"
        elif named:
            c = next((c for c in named if c.verdict == "valid"), named[0])
            ruling = "upheld" if c.verdict == "valid" else "rejected"
            reason, by = c.reason, "the rules"
        is_pen = r.position in applied
        if is_pen:
            status = "penalized"
        elif r.deal in over:
            status = "not penalized: the deal was played after the game was won"
        elif ruling == "rejected":
            status = "not penalized: " + ("ruled out" if rulings else "the claim was rejected")
        elif enforcement == "claimed" and not named:
            status = "unclaimed: not penalized (renege_enforcement=claimed)"
        elif r.established_at is None:
            status = "not penalized: never established"
        elif r.deal not in ended:
            status = f"not penalized yet: the record stops before deal {r.deal} ends"
        else:
            status = "not penalized: the hand had already stopped for an earlier renege"
        if not named and is_pen:
            status = "penalized (unclaimed: scored as if claimed at once, renege_enforcement=automatic)"
        elif is_pen and not rulings and ruling == "rejected":   # the claim came late, say; it still counts
            status = ("penalized (the claim was rejected, but every established renege counts, as if "
                      "claimed at once: renege_enforcement=automatic)")
        findings.append(Finding(
            kind="renege", deal=r.deal, trick=r.trick, seat=r.seat, card=r.card,
            led_suit=r.led_suit, evidence=r.evidence, position=r.position,
            established=established, proven=proven, penalty=applied.get(r.position, words),
            penalty_points=tuple(pts), score_if_penalized=tuple(final),
            committed_at=committed, established_at=place(game, r.established_at),
            provable_at=place(game, pk), claimed_at=place(game, named[0].position) if named else None,
            public_proof=pk is not None, ruling=ruling, ruling_reason=reason, ruled_by=by,
            penalized=is_pen, status=status, proving_card=proving))
    for c in t.claims:
        if c.renege is None:
            findings.append(Finding(
                kind="claim-rejected", deal=c.deal, trick=c.trick, seat=c.by, card=None,
                led_suit=None, evidence=(), position=c.position, established="", proven=None,
                penalty="none: " + c.reason, penalty_points=(), score_if_penalized=tuple(t.scores),
                claimed_at=place(game, c.position), ruling="rejected", ruling_reason=c.reason,
                ruled_by="the rules", status="claim rejected", against=c.against))
    for u in t.rulings:
        if u.renege is None:
            findings.append(Finding(
                kind="ruling-without-renege", deal=u.deal, trick=u.trick, seat=u.against, card=None,
                led_suit=None, evidence=(), position=u.position, established="", proven=None,
                penalty=(f"the ruling ({u.ruling}) names a renege the record does not show; "
                         + (f"its points stand: deal {u.deal} scores {score_text(u.penalty)}"
                            if u.position in applied else
                            "its points do not count (a later ruling, or a penalty before it in the deal, decides)"
                            if u.penalty is not None and u.ruling == "upheld" else "it changes nothing")),
                penalty_points=tuple(u.penalty or ()), score_if_penalized=tuple(t.scores),
                ruling=u.ruling, ruling_reason=u.reason, ruled_by=u.by or "the director",
                status="ruling contradicts the record", against=u.against))
    for fl in t.flags:
        findings.append(Finding(
            kind=fl.kind, deal=fl.deal, trick=None, seat=fl.seat, card=None, led_suit=None,
            evidence=(), position=fl.position, established="when it was made", proven=None,
            penalty=f"{fl.text}; no score penalty in the rules, noted for the director",
            penalty_points=(), score_if_penalized=tuple(t.scores), committed_at=place(game, fl.position)))
    findings.sort(key=lambda f: f.position)
    return findings


def deal_reports(game) -> list:
    """One :class:`DealReport` per deal that ended (scored, thrown in,
    abandoned), in order, as played and officially."""
    t = game.final
    ends = []   # the table at the end of each deal: before the next DealStarted, or the last
    starts = [k for k, e in enumerate(game.events) if e.kind == "DealStarted"]
    for i, k in enumerate(starts):
        ends.append(starts[i + 1] if i + 1 < len(starts) else len(game.events))
    flags_by_deal: dict = {}
    for fl in t.flags:
        flags_by_deal.setdefault(fl.deal, []).append(fl.kind)
    for r in t.reneges:
        if r.corrected_at is None:
            flags_by_deal.setdefault(r.deal, []).append("renege")
    # four-trick tokens (rules.md 2.9): 0 each until a side earns one
    no_tokens = (0,) * len(t.initial_score) if getattr(t.options, "four_trick_tokens", False) else ()
    out = []
    played = list(t.initial_score)
    official = list(t.initial_score)
    for i, (deal_no, pts, _) in enumerate(t.deal_results):
        o = t.official_results[i] if i < len(t.official_results) else None
        tb = game.table_at(ends[i]) if i < len(ends) else t
        opts = o.points if o is not None else pts
        played = [a + b for a, b in zip(played, pts)]
        official = [a + b for a, b in zip(official, opts)]
        tricks = tuple(tb.tricks_won) if tb.deal_no == deal_no else ()
        winners = tuple(w for _, _, w in tb.tricks) if tb.deal_no == deal_no else ()
        out.append(DealReport(
            deal=deal_no, dealer=tb.dealer, maker=tb.maker, trump=tb.trump, alone=tb.alone,
            trick_winners=winners, tricks=tricks, points_as_played=tuple(pts),
            points_official=tuple(opts), score_as_played=tuple(played),
            score_official=tuple(official), flags=tuple(dict.fromkeys(flags_by_deal.get(deal_no, ()))),
            note=o.note if o is not None else "", penalties=o.penalized if o is not None else (),
            tokens=tuple(tb.tokens) or no_tokens,
            out=tuple(sorted(tb.out)) if tb.deal_no == deal_no else ()))
    return out
