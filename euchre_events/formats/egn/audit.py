"""The deal-by-deal audit of an EGN game that cannot be read whole
(``euchre-events audit FILE`` for a record with an impossible deal).

The deals that can be folded are read as one game, in order, leaving out
the impossible ones; that game is scored and audited by the projections
(:class:`~euchre_events.projections.Game`, :func:`~euchre_events.projections.audit`):
the score, the winner, game end (the variant's target score) and every
renege penalty come from there, and each impossible deal becomes a finding
of its own.
"""
from __future__ import annotations

from euchre_events.formats import RecordError, read_record_text
from euchre_events.formats.egn.read import read_game
from euchre_events.formats.egn.schema import EGN_FILE_TYPE, parse_json


def egn_game_by_deal(path: str):
    """Read an EGN game deal by deal, leaving out the deals that cannot be
    read (see :func:`audit_egn_by_deal`).

    Returns ``(game, findings, skipped, deal_count)``: the
    :class:`~euchre_events.projections.Game` of the deals read, its audit
    (a list of :class:`~euchre_events.projections.Finding`, without the
    dealer-out-of-rotation and deal-numbers-skipped flags of a deal just
    after a deal left out),
    ``skipped`` as ``[(deal number, RecordError)]`` and the number of deals in
    the file.  Raises :class:`RecordError` as :func:`audit_egn_by_deal`."""
    from euchre_events.projections import Game
    from euchre_events.projections.audit import audit
    doc = parse_json(read_record_text(path), path)
    if not isinstance(doc, dict) or doc.get("fileType") != EGN_FILE_TYPE or not doc.get("deals"):
        raise RecordError(path, "deal-by-deal audit needs an EGN game file")
    skipped: list = []
    rec = read_game(doc, path, skipped=skipped)
    game = Game(rec.events)
    left_out = {n for n, _ in skipped}
    # the first deal read after a deal left out: its dealer cannot be judged
    after_gap = {pos for deal, pos in game.deal_positions() if deal - 1 in left_out}
    # and no "deal-numbers-skipped" there: the deal left out is reported as refused
    findings = [f for f in audit(game)
                if not (f.kind in ("dealer-out-of-rotation", "deal-numbers-skipped")
                        and f.position in after_gap)]
    return game, findings, skipped, len(doc["deals"])


def egn_in_part(path: str, err: RecordError, from_=None):
    """:func:`egn_game_by_deal` of ``path`` where its reading error ``err``
    names a deal of an EGN game file (the other deals read deal by deal:
    ``audit`` audits them, ``analyze`` analyses them), else None: the error
    names no deal, the file is not EGN (``from_``: the format asked for, as
    :func:`~euchre_events.formats.detect_format` takes it), or nothing of
    it reads deal by deal (a packed deal that cannot be unpacked)."""
    if getattr(err, "deal", None) is None:
        return None
    from euchre_events.formats import detect_format
    try:
        if detect_format(path, from_) != "egn":
            return None
        return egn_game_by_deal(path)
    except RecordError:
        return None


def impossible_words(err) -> str:
    """What an impossible deal of a deal-by-deal audit comes to, in words."""
    return "the deal is refused: " + err.reason + "; it scores nothing here"


def audit_egn_by_deal(path: str) -> dict:
    """Audit an EGN game deal by deal, for a record that cannot be read whole.

    A tournament director auditing a disputed file wants every problem in it,
    not just the first: a deal that is impossible (it breaks the schema or
    cannot have happened, docs/design.md "Three kinds of wrong") is left out and
    becomes a finding of kind ``"impossible"`` (with the reason; it scores
    nothing), the other deals are read as one game and audited as usual
    (their reneges flagged, rules.md 1.5, 2.7).  A deal after the official
    game end is kept and flagged (``played-after-game-won``, rules.md 1.6).  The rotation of the deal
    cannot be judged across a deal left out: a dealer out of rotation just
    after one is not flagged.  Nothing is stored.

    Returns ``{"title", "variant", "deal_count" (deals in the file),
    "deals" (one report per deal read: :class:`~euchre_events.projections.DealReport`),
    "final_score" = "as_played_score" (per side), "winner" (side on the
    cards as played, or None), "official_score", "official_winner",
    "findings": [dict...], "impossible": int}``; each finding is :meth:`~euchre_events.projections.Finding.to_dict`
    (with ``player``), and an impossible one is ``{"deal", "trick": None,
    "seat": None, "kind": "impossible", "card": None, "led_suit": None,
    "evidence": [], "penalty": words, "score_if_penalized": None, "event"}``.
    Raises :class:`RecordError` when the file is not an EGN game at all (not
    readable, not JSON, not an EGN game, a game-level schema error, players or
    ruleset not of standard Euchre).
    """
    return by_deal_report(*egn_game_by_deal(path))


def by_deal_report(game, kept, skipped, deal_count) -> dict:
    """The dict of :func:`audit_egn_by_deal` from what :func:`egn_game_by_deal` returns."""
    findings = [{"deal": n, "trick": None, "seat": None, "kind": "impossible",
                 "card": None, "led_suit": None, "evidence": [],
                 "penalty": impossible_words(e),
                 "score_if_penalized": None, "event": e.event} for n, e in skipped]
    findings += [f.to_dict(game.players) for f in kept]
    findings.sort(key=lambda d: d["deal"])   # stable: a deal's own findings keep their order
    apw = game.as_played_winner
    return {"title": game.title, "variant": game.variant, "deal_count": deal_count,
            "deals": [d.to_dict() for d in game.deal_reports()],
            "final_score": game.final_score, "as_played_score": game.final_score,
            "winner": apw if isinstance(apw, int) else None,
            "official_score": game.official_score, "official_winner": game.winner,
            "findings": findings, "impossible": len(skipped)}
