"""The EGN ``metadata.ruleset`` and our standard Euchre options, both ways.

EGN records standard four-player Euchre (rules.md section 2); its ruleset
toggles map onto :class:`~euchre_events.rules.variants.standard.StandardOptions`.
A key the file leaves out has the default the EGN schema gives it (read from
the schema, not written here); what the game is (seats, deck) comes from our
standard variant.  The rules themselves (scoring, game end) stay with the
variant: this module only translates.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

from euchre_events.formats.egn.schema import known_keys, ruleset_defaults
from euchre_events.rules.cards import RANKS
from euchre_events.rules.registry import make_variant

NO_TARGET = 10 ** 6
"""Our ``target_score`` for EGN ``winning_score`` 0 ("no winning score": the
game ends after ``num_deals``): a score no game reaches."""

# option fields that EGN 1.4 has no ruleset key for
_NO_KEY = ("super_euchre", "lone_defender_value", "dealer_may_discard_upcard",
           "dealer_may_decline_upcard", "alone_timing", "exchange_when_dealer_out",
           "must_hold_named_suit", "thrown_in_next_dealer", "renege_penalty",
           "renege_symmetric", "stick_allows_turned_down")


@lru_cache(maxsize=None)
def standard():
    """Our standard variant with the defaults of rules.md (seats, hand size,
    deck, options): what an EGN game is played by."""
    return make_variant("standard")


def unsupported_rules() -> dict:
    """``{ruleset key: the value our standard variant plays}`` for the keys
    that change the game itself (rules.md 2.1: four players, 24 cards from
    the nine up, no joker, no no-trump, no partner's best, no going under)."""
    v = standard()
    return {"joker": False, "allow_no_trump": False, "partners_best": False, "go_under": False,
            "num_players": v.n_seats, "min_rank": int(RANKS[0])}


def options_from_ruleset(ruleset: dict, deals: Sequence, warnings: list) -> dict:
    """StandardOptions fields (a dict, every field) from an EGN ruleset
    (rules.md 2.9 toggles); what our options cannot express is said in
    ``warnings`` (a list, appended to)."""
    d = ruleset_defaults()

    def get(key: str) -> Any:
        return ruleset.get(key, d.get(key))
    o = standard().options.to_dict()
    o["stick_the_dealer"] = bool(get("std"))
    o["dealers_partner_must_go_alone"] = bool(get("canadian"))
    o["loner_lead"] = "left_of_loner" if get("loner_lead") == "LEFT_OF_LONER" else "left_of_dealer"
    ws = get("winning_score")
    if ws:
        o["target_score"] = int(ws)
    else:  # 0 = no winning score; the game ends after num_deals
        o["target_score"] = NO_TARGET
        warnings.append("ruleset: no winning score (winning_score 0); the game is not ended by points")
    o["lone_euchred_value"] = int(get("loner_euchred_score"))
    defend = bool(get("defend_alone"))
    if not defend:
        for deal in deals:
            for ph in (deal.get("phases") or []) if isinstance(deal, dict) else []:
                if isinstance(ph, dict) and isinstance(ph.get("aloneDefender"), int) and ph["aloneDefender"] >= 0:
                    defend = True
        if defend:
            warnings.append("a deal has an aloneDefender but the ruleset does not say defend_alone: "
                            "defending alone is allowed for this game")
    o["defend_alone"] = "vs_lone" if defend else "off"
    # our standard scoring (rules.md 2.6) gives the EGN default for a lone march
    march = d["loner_march_score"]
    if int(get("loner_march_score")) != march:
        warnings.append(f"ruleset loner_march_score {ruleset['loner_march_score']}: our standard "
                        f"scoring gives {march} for a lone march (rules.md 2.6)")
    # toggles our standard options have no field for yet (issue 14): said, never silent
    for key, what in (("fast_break", "a fast break (defenders take the first two tricks, lose the "
                                     "last three: no score)"),
                      ("four_trick_tokens", "four-trick tokens")):
        if ruleset.get(key):
            warnings.append(f"ruleset {key}: {what} is not replayed; deals are scored by the "
                            "standard rules (rules.md 2.6)")
    if ruleset.get("num_deals"):
        warnings.append(f"ruleset num_deals {ruleset['num_deals']}: a fixed number of deals is not "
                        "replayed; the game ends by points only")
    if get("farmers"):
        warnings.append("ruleset farmers: the farmer's hand exchange is not replayed")
    return o


def ruleset_from_options(opts: Any, original: dict, notes_out: list) -> dict:
    """The EGN ruleset for StandardOptions ``opts``: ``original`` (the file's
    own ruleset, if the game came from one) with the keys our options set;
    a key left at the EGN default is written only if ``original`` had it.
    What EGN 1.4 cannot hold is left out and said in ``notes_out``."""
    d = ruleset_defaults()
    r = {k: v for k, v in original.items()}
    r["std"] = bool(opts.stick_the_dealer)
    r["canadian"] = bool(opts.dealers_partner_must_go_alone)
    r["loner_lead"] = "LEFT_OF_LONER" if opts.loner_lead == "left_of_loner" else "LEFT_OF_DEALER"
    if opts.target_score >= NO_TARGET:
        r.setdefault("winning_score", 0)
    elif opts.target_score != d["winning_score"] or "winning_score" in original:
        r["winning_score"] = int(opts.target_score)
    if opts.lone_euchred_value != d["loner_euchred_score"] or "loner_euchred_score" in original:
        r["loner_euchred_score"] = int(opts.lone_euchred_value)
    if opts.defend_alone != "off" or "defend_alone" in original:
        r["defend_alone"] = opts.defend_alone != "off"
    if opts.defend_alone == "any":
        notes_out.append("defend_alone 'any' is written as EGN defend_alone true "
                         "(read back as defending against a lone maker only)")
    known = set(known_keys()["ruleset"])
    for k in list(r):
        if k not in known:
            del r[k]
            notes_out.append(f"ruleset key {k!r} has no place in EGN 1.4; left out")
    default = standard().options
    for f in _NO_KEY:
        if getattr(opts, f) != getattr(default, f):
            notes_out.append(f"option {f}={getattr(opts, f)!r} has no EGN ruleset key; left out")
    return r
