"""The EGN ``metadata.ruleset`` and our standard Euchre options, both ways.

EGN records standard four-player Euchre (rules.md section 2); its ruleset
toggles map onto :class:`~euchre_events.rules.variants.standard.StandardOptions`.
A key the file leaves out has the default the EGN schema gives it (read from
the schema, not written here); what the game is (seats, deck) comes from our
standard variant.  The rules themselves (scoring, game end) stay with the
variant: this module only translates.
"""
from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any, Sequence

from euchre_events.formats.egn.schema import known_keys, ruleset_defaults
from euchre_events.rules.cards import RANKS
from euchre_events.rules.registry import make_variant
from euchre_events.rules.variant import SINCE

NO_TARGET = 10 ** 6
"""Our ``target_score`` for EGN ``winning_score`` 0 ("no winning score": the
game ends after ``num_deals``): a score no game reaches."""

# option fields that EGN 1.4 has no ruleset key for
_NO_KEY = ("super_euchre", "lone_defender_value", "dealer_may_discard_upcard",
           "dealer_may_decline_upcard", "alone_timing", "exchange_when_dealer_out",
           "must_hold_named_suit", "thrown_in_next_dealer", "renege_penalty",
           "renege_symmetric", "stick_allows_turned_down", "renege_enforcement",
           "renege_claim_window", "lone_renege_value")


@lru_cache(maxsize=None)
def standard():
    """Our standard variant with the defaults of rules.md (seats, hand size,
    deck, options): what an EGN game is played by."""
    return make_variant("standard")


def unsupported_rules() -> dict:
    """``{ruleset key: the value our standard variant plays}`` for the keys
    that change the game itself (rules.md 2.1: four players, 24 cards from
    the nine up, no joker, no no-trump, no card exchange: no farmer's hand,
    partner's best or going under)."""
    v = standard()
    return {"joker": False, "allow_no_trump": False, "farmers": False, "partners_best": False,
            "go_under": False, "num_players": v.n_seats, "min_rank": int(RANKS[0])}


def options_from_ruleset(ruleset: dict, deals: Sequence, warnings: list) -> dict:
    """StandardOptions fields (a dict: every field, except those added after
    0.1.0 while at their default, as ``StandardOptions.to_dict`` leaves them
    out) from an EGN ruleset (rules.md 2.9 toggles, the EGN spec's
    alternate-rules.md): ``loner_march_score``, ``fast_break``,
    ``four_trick_tokens`` and ``num_deals`` are options of ours of the same
    name, played by the standard variant; what our options cannot express
    is said in ``warnings`` (a list, appended to)."""
    d = ruleset_defaults()

    def get(key: str) -> Any:
        return ruleset.get(key, d.get(key))
    o = standard().options.to_dict()
    o["stick_the_dealer"] = bool(get("std"))
    o["dealers_partner_must_go_alone"] = bool(get("canadian"))
    o["loner_lead"] = "left_of_loner" if get("loner_lead") == "LEFT_OF_LONER" else "left_of_dealer"
    # completion (alternate-rules.md "Interaction of limits"): a fixed-deal game
    # omits winning_score (or sets it to 0) and sets num_deals; the schema
    # allows the two keys only one at a time
    deals_limit = int(get("num_deals") or 0)
    ws = ruleset.get("winning_score", 0 if deals_limit else d.get("winning_score"))
    o["num_deals"] = deals_limit
    if ws:
        o["target_score"] = int(ws)
    else:  # 0 = no winning score
        o["target_score"] = NO_TARGET
        if not deals_limit:
            warnings.append("ruleset: no winning score (winning_score 0) and no num_deals; "
                            "the game is not ended by points nor by deals")
    o["lone_euchred_value"] = int(get("loner_euchred_score"))
    o["loner_march_score"] = int(get("loner_march_score"))
    o["fast_break"] = bool(get("fast_break"))
    o["four_trick_tokens"] = bool(get("four_trick_tokens"))
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
    # an option added after 0.1.0 is stored only when it is not at its default,
    # as StandardOptions.to_dict does: games read before keep their ids
    for f in dataclasses.fields(standard().options):
        if SINCE in f.metadata and o.get(f.name) == f.default and type(o.get(f.name)) is type(f.default):
            del o[f.name]
    return o


EXCHANGE_TOGGLES = ("farmers", "partners_best", "go_under")
"""The ruleset keys whose deals may exchange cards (``cardExchanges``):
the farmer's hand, partner's best, going under.  Standard Euchre replays no
such exchange (rules.md 2.1-2.2): a deal that records one is refused by
name; a toggle set but unused is a warning (the reader)."""


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
    if opts.num_deals:
        # the schema holds one completion key only (alternate-rules.md "Interaction of limits")
        r["num_deals"] = int(opts.num_deals)
        r.pop("winning_score", None)
        if opts.target_score < NO_TARGET:
            notes_out.append(f"target_score {opts.target_score} with num_deals {opts.num_deals}: "
                             "EGN holds one completion limit only; winning_score left out")
    else:
        r.pop("num_deals", None)
        if opts.target_score >= NO_TARGET:
            r.setdefault("winning_score", 0)
        elif opts.target_score != d["winning_score"] or "winning_score" in original:
            r["winning_score"] = int(opts.target_score)
    if opts.lone_euchred_value != d["loner_euchred_score"] or "loner_euchred_score" in original:
        r["loner_euchred_score"] = int(opts.lone_euchred_value)
    if opts.loner_march_score != d["loner_march_score"] or "loner_march_score" in original:
        r["loner_march_score"] = int(opts.loner_march_score)
    for key in ("fast_break", "four_trick_tokens"):
        if getattr(opts, key) or key in original:
            r[key] = bool(getattr(opts, key))
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
