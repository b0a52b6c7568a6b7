"""EGN and EMN layouts: the file types, the JSON schemas shipped in
``euchre_events/schemas/``, schema checks, and the in-memory upgrade of
version 1.0.0 documents to the 1.4 layout (docs/egn.md "Versions and
strictness").  No rules here: what a layout means for the game is
:mod:`.read`'s and :mod:`.write`'s.
"""
from __future__ import annotations

import copy
import json
import re
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable

from euchre_events.formats import RecordError, load_json, schema_message

EGN_FILE_TYPE = "Euchre Game Notation"
EMN_FILE_TYPE = "Euchre Match Notation"
EGN_WRITE_VERSION = "1.4"
"""The EGN version :func:`~euchre_events.formats.egn.write_egn` produces."""

# Older writers' keys and their 1.4 names: the EGN project's ``egn-upgrade``
# table (its cli-upgrade: snake_case of v1.0.0/v1.1 to camelCase, the ruleset's
# ``max_deals``, ``match_id``), and a few spellings of the annotation keys seen
# in the wild; renamed at any depth of an EGN document.
OLD_KEYS = {"calls_annotations": "callAnnotations", "tricks_annotations": "playAnnotations",
            "plays_annotations": "playAnnotations", "play_annotations": "playAnnotations",
            "call_annotations": "callAnnotations", "player_cards": "playerCards",
            "card_exchanges": "cardExchanges", "match_id": "gameId", "matchId": "gameId",
            "initial_score": "initialScore", "initial_state": "initialState",
            "phase_number": "phaseNumber", "is_alone": "isAlone", "alone_defender": "aloneDefender",
            "alternative_lines": "alternativeLines", "branch_index": "branchIndex",
            "up_card": "upCard", "file_type": "fileType", "max_deals": "num_deals",
            "player_ids": "playerIds", "initial_lead": "initialLead"}

_NOT_REPLAYED = ": not replayed, kept as read"

MAX_DEALS = 100
"""Most deals an EGN game holds (the EGN schema's ``deals`` ``maxItems``):
a document with more is refused before anything walks its deals, so the work
of refusing it does not grow with them (100,000 empty deals took 1.57 GB)."""

MAX_SCHEMA_ERRORS = 50
"""Most schema errors collected of one document: ``jsonschema`` gives them
one at a time, and the check stops there (one error per deal of a huge
document was gigabytes); a message shows the first few."""

MORE_ERRORS = f"(more errors: the check stops at the first {MAX_SCHEMA_ERRORS})"
"""The last error of a list the check cut short (a game-level error: with
it the game is refused whole, never read deal by deal)."""


def _long_list(doc: Any) -> str | None:
    """The first list in ``doc`` (the schema's part of an EGN document)
    longer than :data:`MAX_DEALS`, the longest any list of the EGN schema may
    be (``"deals/0/alternativeLines: 100000 items; no list of an EGN game
    holds more than 100"``), else None.  One walk of the document, so the
    schema check after it works on lists of bounded length."""
    stack = [(doc, ())]
    while stack:
        value, where = stack.pop()
        if isinstance(value, dict):
            stack.extend((v, where + (k,)) for k, v in value.items() if isinstance(v, (dict, list)))
        elif isinstance(value, list):
            if len(value) > MAX_DEALS:
                return (f"{'/'.join(map(str, where)) or '(top level)'}: {len(value)} items; "
                        f"no list of an EGN game holds more than {MAX_DEALS}")
            stack.extend((v, where + (i,)) for i, v in enumerate(value) if isinstance(v, (dict, list)))
    return None


def too_many_deals(deals: Any) -> str | None:
    """The error of a ``deals`` list (or a count of deals) longer than
    :data:`MAX_DEALS` (``"deals: 100000 deals; an EGN game holds at most
    100"``), else None."""
    n = deals if isinstance(deals, int) else len(deals) if isinstance(deals, list) else 0
    return f"deals: {n} deals; an EGN game holds at most {MAX_DEALS}" if n > MAX_DEALS else None

# ------------------------------------------------------------------ schemas

@lru_cache(maxsize=None)
def _schema(name: str) -> dict:
    """A JSON schema shipped in ``euchre_events/schemas`` (parsed)."""
    text = resources.files("euchre_events").joinpath("schemas", name).read_text(encoding="utf-8")
    return json.loads(text)


_BASE = "https://euchre-events.invalid/schemas/"


@lru_cache(maxsize=None)
def _validators():
    """(EGN validator, EMN validator), Draft 7, the EMN one resolving its
    reference to the EGN schema's player definition."""
    import jsonschema
    egn = dict(_schema("egn-schema-v1.json"), **{"$id": _BASE + "egn-schema-v1.json"})
    # the EMN schema refers to "../egn-schema-v1.json": give it a base URI one folder down
    emn = dict(_schema("emn-schema-v1.json"), **{"$id": _BASE + "emn/emn-schema-v1.json"})
    try:
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT7
    except ImportError:  # pragma: no cover - jsonschema < 4.18
        resolver = jsonschema.RefResolver(base_uri=emn["$id"], referrer=emn,
                                          store={egn["$id"]: egn})
        return jsonschema.Draft7Validator(egn), jsonschema.Draft7Validator(emn, resolver=resolver)
    reg = Registry().with_resources([
        (egn["$id"], Resource.from_contents(egn, default_specification=DRAFT7)),
        (emn["$id"], Resource.from_contents(emn, default_specification=DRAFT7)),
    ])
    return (jsonschema.Draft7Validator(egn, registry=reg),
            jsonschema.Draft7Validator(emn, registry=reg))


def _schema_errors(validator, doc: Any) -> list:
    """Readable schema errors: ``["deals/3/phases/0: 'Oder' is not one of ...", ...]``."""
    return [text for _, text in _located_errors(validator, doc)]


def _located_errors(validator, doc: Any) -> list:
    """``[(path, text)]``: each schema error with the JSON path (a tuple of
    keys and indices) of its most specific part, and its readable text."""
    from itertools import islice
    errors = list(islice(validator.iter_errors(doc), MAX_SCHEMA_ERRORS + 1))   # the first ones only
    cut = len(errors) > MAX_SCHEMA_ERRORS
    out = []
    for err in sorted(errors[:MAX_SCHEMA_ERRORS], key=lambda e: list(map(str, e.absolute_path))):
        leaf = err
        while leaf.context:  # oneOf / anyOf: report the most specific sub-error
            # the deepest; then one of the branch whose type the value has (a
            # 65-character name is "too long", not "not of type 'object'")
            leaf = min(leaf.context, key=lambda e: (-len(e.absolute_path), e.validator == "type",
                                                    str(e.message)))
        where = "/".join(str(p) for p in leaf.absolute_path) or "(top level)"
        out.append((tuple(leaf.absolute_path), f"{where}: {schema_message(leaf)}"))
    if cut:
        out.append(((), MORE_ERRORS))
    return out



def validate_egn(doc: Any) -> list:
    """Schema errors of an EGN 1.2-1.4 document (empty list when it is valid).

    ``doc`` is the parsed JSON.  Version 1.0.0 documents must be upgraded first
    (:func:`upgrade_egn`).  A document :func:`.fastschema.certainly_valid`
    takes is valid without asking ``jsonschema`` (a twentieth of the time).
    """
    from euchre_events.formats.egn.fastschema import certainly_valid
    if certainly_valid(doc):
        return []
    return _schema_errors(_validators()[0], doc)


def egn_errors_by_deal(doc: Any) -> tuple:
    """``(game_errors, {deal index from 0: [error, ...]})``: the schema errors
    of an EGN document (as :func:`validate_egn` words them), those inside one
    deal set apart by deal (the deal-by-deal audit refuses only that deal)."""
    from euchre_events.formats.egn.fastschema import certainly_valid
    game, deals = [], {}
    if certainly_valid(doc):
        return game, deals
    for where, text in _located_errors(_validators()[0], doc):
        if len(where) > 1 and where[0] == "deals" and isinstance(where[1], int):
            deals.setdefault(where[1], []).append(text)
        else:
            game.append(text)
    return game, deals


def validate_emn(doc: Any) -> list:
    """Schema errors of an EMN 1.0 document (its games are not checked here)."""
    return _schema_errors(_validators()[1], doc)


@lru_cache(maxsize=None)
def known_keys() -> dict:
    """Keys the EGN schema admits at each level (for warning about extra ones)."""
    s = _schema("egn-schema-v1.json")
    deal = s["properties"]["deals"]["items"]["oneOf"][0]
    d = s["definitions"]
    return {
        "top": set(s["properties"]),
        "metadata": set(s["properties"]["metadata"]["properties"]),
        "ruleset": set(s["properties"]["metadata"]["properties"]["ruleset"]["properties"]),
        "deal": set(deal["properties"]),
        "initialState": set(deal["properties"]["initialState"]["properties"]),
        "EUCHRE_BIDDING": set(d["biddingPhase"]["properties"]),
        "TRICK_PLAY": set(d["trickPlayPhase"]["properties"]),
        "alternativeLine": set(d["alternativeLine"]["properties"]),
    }


@lru_cache(maxsize=None)
def ruleset_defaults() -> dict:
    """``{key: default}`` of the EGN schema's ruleset (``std`` true,
    ``winning_score`` 10, ``loner_euchred_score`` 2, ...): what a file that
    leaves a key out means."""
    props = _schema("egn-schema-v1.json")["properties"]["metadata"]["properties"]["ruleset"]["properties"]
    return {k: p["default"] for k, p in props.items() if "default" in p}


# ------------------------------------------------------------------ upgrade

def upgrade_egn(doc: dict) -> tuple:
    """Bring an EGN document to the 1.4 layout, in memory; the input is not changed.

    Returns ``(schema_doc, full_doc, warnings)``:

    * ``full_doc``: the upgraded document that the converter reads.  Older
      writers' keys are renamed as the EGN project's ``egn-upgrade`` renames
      them, at any depth (:data:`OLD_KEYS`: ``player_cards`` ->
      ``playerCards``, the v1.1 ``initial_state``, ``up_card``,
      ``phase_number``, ``is_alone``, ``calls_annotations`` ->
      ``callAnnotations``, ``tricks_annotations`` -> ``playAnnotations``,
      ``max_deals`` -> ``num_deals``...; a key whose new name is already
      there is left, and warned about as unknown); a 1.0/1.1 document gets
      ``version`` 1.4 and, as ``egn-upgrade`` does, its phases numbered 0
      (bidding) and 1 (trick play), the ``isAlone`` and ``aloneDefender``
      its trick-play phase carried moved to its bidding phase; what 1.4 has
      no place for but a reader needs is kept: ``kitty`` (``""`` = unknown)
      and ``initialLead`` (seat of the first card of a trick-play phase);
    * ``schema_doc``: the same without those kept keys and without unknown
      extra keys (such as ``timings``, ``videoUrl``, ``viewSwitches``), to be
      checked against the EGN schema;
    * ``warnings``: one line per unknown key that was set aside.

    A document :func:`.fastschema.certainly_valid` takes is in the 1.4
    layout already, with no old or unknown key: it comes back as it is, as
    both documents (read them, do not change them).
    """
    from euchre_events.formats.egn.fastschema import certainly_valid
    if certainly_valid(doc):
        return doc, doc, []
    return _upgraded(doc)


def checked_egn(doc: dict, by_deal: bool = False) -> tuple:
    """:func:`upgrade_egn` then :func:`validate_egn` (with ``by_deal``,
    :func:`egn_errors_by_deal`) in one, the fast check made once for a
    document in the 1.4 layout: ``(schema_doc, full_doc, warnings, errors,
    deal_errors)`` (``deal_errors`` is ``{}`` without ``by_deal``)."""
    from euchre_events.formats.egn.fastschema import certainly_valid
    if certainly_valid(doc):
        return doc, doc, [], [], {}
    too_many = too_many_deals(doc.get("deals")) if isinstance(doc, dict) else None
    if too_many:   # refused before the upgrade and the schema walk every deal
        return doc, doc, [], [too_many], {}
    schema_doc, full, warnings = _upgraded(doc)
    too_long = _long_list(schema_doc)
    if too_long:   # refused before the schema check meets each of its items
        return schema_doc, full, warnings, [too_long], {}
    if by_deal:
        errs, deal_errs = egn_errors_by_deal(schema_doc)
    else:
        errs, deal_errs = validate_egn(schema_doc), {}
    return schema_doc, full, warnings, errs, deal_errs


def _upgraded(doc: dict) -> tuple:
    """:func:`upgrade_egn` without its fast check (the work of a document
    that needs it)."""
    full = _renamed(doc)
    warnings: list = []
    if re.fullmatch(r"1\.[01](\.\d+)?", str(full.get("version", ""))):
        full["version"] = EGN_WRITE_VERSION
        for deal in _items(full.get("deals")):
            if isinstance(deal, dict):
                _number_phases(deal.get("phases"))
                for alt in _items(deal.get("alternativeLines")):
                    if isinstance(alt, dict):
                        _number_phases(alt.get("phases"))
    keys = known_keys()
    schema_doc = copy.deepcopy(full)

    def strip(obj: Any, level: str, where: str, keep: Iterable = ()) -> None:
        if not isinstance(obj, dict):
            return
        for k in list(obj):
            if k in keys[level]:
                continue
            del obj[k]
            if k in keep:
                continue
            if level == "ruleset":
                warnings.append(f"unknown ruleset key {k!r}: not used, kept in the game's source")
            else:
                warnings.append(f"unknown key {k!r} in {where}{_NOT_REPLAYED}")

    # set aside what 1.4 cannot hold, warn about what nobody knows
    strip(schema_doc, "top", "the file")
    md = schema_doc.get("metadata")
    strip(md, "metadata", "metadata")
    if isinstance(md, dict):
        strip(md.get("ruleset"), "ruleset", "metadata.ruleset")
        rs = md.get("ruleset")
        # alternate-rules.md writes a fixed-deal game as winning_score 0 with
        # num_deals; the schema refuses the two keys together: 0 means "not set"
        if (isinstance(rs, dict) and rs.get("winning_score") == 0 and type(rs.get("winning_score")) is int
                and isinstance(rs.get("num_deals"), int) and rs.get("num_deals")):
            del rs["winning_score"]
    for i, deal in enumerate(_items(schema_doc.get("deals"))):
        if not isinstance(deal, dict):
            continue
        w = f"deal {i + 1}"
        strip(deal, "deal", w)
        strip(deal.get("initialState"), "initialState", w + " initialState", keep=("kitty",))
        for ph in _items(deal.get("phases")):
            if isinstance(ph, dict) and isinstance(ph.get("type"), str) and ph["type"] in keys:
                strip(ph, ph["type"], f"{w} {ph['type']} phase", keep=("initialLead",))
        for j, alt in enumerate(_items(deal.get("alternativeLines"))):
            strip(alt, "alternativeLine", f"{w} alternative line {j + 1}")
            if isinstance(alt, dict):
                for ph in _items(alt.get("phases")):
                    if isinstance(ph, dict) and isinstance(ph.get("type"), str) and ph["type"] in keys:
                        strip(ph, ph["type"], f"{w} alternative line {j + 1}", keep=("initialLead",))
    # the unknown ruleset keys are warned about but kept in `full` (they go to the source)
    return schema_doc, full, warnings



def _renamed(value: Any) -> Any:
    """A deep copy of ``value`` with the keys of :data:`OLD_KEYS` renamed at
    every depth (in place of the old key; one whose new name is there too
    is left as it is)."""
    if isinstance(value, list):
        return [_renamed(v) for v in value]
    if not isinstance(value, dict):
        return copy.deepcopy(value)
    out = {}
    for k, v in value.items():
        new = OLD_KEYS.get(k, k)
        if new != k and (new in value or new in out):
            new = k
        out[new] = _renamed(v)
    return out


def _number_phases(phases: Any) -> None:
    """A 1.0/1.1 deal's (or line's) phases as ``egn-upgrade`` leaves them:
    bidding numbered 0, trick play 1 (older writers counted from 1), the
    ``isAlone`` / ``aloneDefender`` a trick-play phase carried moved to the
    bidding phase (dropped when that has its own)."""
    phases = _items(phases)
    bid = next((p for p in phases if isinstance(p, dict) and p.get("type") == "EUCHRE_BIDDING"), None)
    for ph in phases:
        if not isinstance(ph, dict):
            continue
        if ph.get("type") == "EUCHRE_BIDDING":
            ph["phaseNumber"] = 0
        elif ph.get("type") == "TRICK_PLAY":
            ph["phaseNumber"] = 1
            for k in ("isAlone", "aloneDefender"):
                if k in ph:
                    v = ph.pop(k)
                    if bid is not None and k not in bid:
                        bid[k] = v


def _items(value: Any) -> list:
    """``value`` if it is a list, else ``[]``: the upgrade walks what it can,
    and the schema check then names what is not a list."""
    return value if isinstance(value, list) else []


def player_name(p: Any) -> str:
    """A player's name: EGN lists players as names or as objects with a ``name``."""
    return p.get("name", "") if isinstance(p, dict) else str(p)


def parse_json(text: str, path: str) -> Any:
    """The JSON document of a record file; :class:`RecordError` (file, line,
    column) when it is not JSON, or holds what no record can (a number of
    thousands of digits, nesting thousands deep: :func:`~euchre_events.formats.load_json`)."""
    return load_json(text, path)
