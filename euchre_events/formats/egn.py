"""EGN (Euchre Game Notation) and EMN (Euchre Match Notation): reading and writing.

EGN is a JSON format for standard four-player Euchre (rules.md section 2); an
EMN file groups several EGN games into a match.  What a reader must know about
the format is in ``notes-egn.md``; in short:

* seats are ``0..3`` clockwise (team 0 = seats 0 and 2), scores are points per
  team ``[team 0, team 1]``;
* a deal's ``calls`` start at the dealer's left: indices 0-3 are round 1
  (``Pass`` / ``Order``, older writers ``PickUp``, ``Alone``, ``Call``), 4-7
  round 2 (``Pass`` or a suit letter);
* each trick lists its cards in the order played, **leader first**, without
  seats: the reader finds the first leader and each trick's winner with our
  rules engine (rules.md 1.2, 1.3, 2.5) and so the seat of every card;
* most records do not give the dealt hands: each hand is rebuilt from the
  cards its seat played (plus the dealer's exchange, see
  :func:`read_egn_dict`); a card the record does not state stays ``"??"``.

Version 1.0.0 files (``player_cards``, ``kitty``, ``initialLead``,
``calls_annotations``, ``tricks_annotations``) are upgraded in memory to the
1.4 layout before they are checked against the schema.  The schemas are
shipped in ``euchre_events/schemas/``.

Public API:

* :func:`read_egn_file` / :func:`read_egn_text` / :func:`read_egn_dict`:
  a file, a string or a parsed JSON document to validated :class:`Record`
  objects (one per game); :func:`read_egn_file_partial` reads the games of
  a match one by one, keeping the good ones;
* :func:`write_egn`: our events (standard Euchre) to an EGN 1.4 document;
  :func:`egn_to_json` to text;
* :func:`validate_egn` / :func:`validate_emn`: schema checks.

Errors are :class:`~euchre_events.formats.RecordError` naming the file, the
deal (numbered from 1, as in our events), the event and the reason.
"""
from __future__ import annotations

import copy
import json
import os
import re
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable, Optional, Sequence

from euchre_events.rules import cards as C
from euchre_events.rules.cards import UNKNOWN, CardError, parse_card
from euchre_events.rules.engine import ImpossibleEvent, Table, apply, new_table
from euchre_events.events import (CardPlayed, CardsDealt, DealStarted, DealThrownIn, DefendedAlone,
                      Discarded, Event, GameStarted, OrderedUp, Passed, PlayedWithPartner,
                      TrumpNamed, UpCardPickedUp)
from euchre_events.formats import (Record, RecordError, incomplete_warning, read_record_text,
                                    validate_events)

EGN_FILE_TYPE = "Euchre Game Notation"
EMN_FILE_TYPE = "Euchre Match Notation"
EGN_WRITE_VERSION = "1.4"
"""The EGN version :func:`write_egn` produces."""

ROUND1_ACCEPT = ("Order", "PickUp", "Alone", "Call")
"""Round-1 calls that accept the up-card's suit (``Order``; older writers)."""

_MARK = re.compile(r"^\s*\[([!?]{1,2})\]\s*")
_OLD_PHASE_KEYS = {"calls_annotations": "callAnnotations",
                   "tricks_annotations": "playAnnotations",
                   "plays_annotations": "playAnnotations",
                   "play_annotations": "playAnnotations",
                   "call_annotations": "callAnnotations"}

# ruleset keys that StandardOptions expresses, and those it cannot
_UNSUPPORTED_RULES = {  # key: value our standard variant plays
    "joker": False, "allow_no_trump": False, "partners_best": False, "go_under": False,
    "num_players": 4, "min_rank": 9,
}


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
    out = []
    for err in sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path))):
        leaf = err
        while leaf.context:  # oneOf / anyOf: report the most specific sub-error
            leaf = min(leaf.context, key=lambda e: (-len(e.absolute_path), str(e.message)))
        where = "/".join(str(p) for p in leaf.absolute_path) or "(top level)"
        out.append(f"{where}: {leaf.message}")
    return out


def validate_egn(doc: Any) -> list:
    """Schema errors of an EGN 1.2-1.4 document (empty list when it is valid).

    ``doc`` is the parsed JSON.  Version 1.0.0 documents must be upgraded first
    (:func:`upgrade_egn`).
    """
    return _schema_errors(_validators()[0], doc)


def validate_emn(doc: Any) -> list:
    """Schema errors of an EMN 1.0 document (its games are not checked here)."""
    return _schema_errors(_validators()[1], doc)


@lru_cache(maxsize=None)
def _known_keys() -> dict:
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


# ------------------------------------------------------------------ upgrade

def upgrade_egn(doc: dict) -> tuple:
    """Bring an EGN document to the 1.4 layout, in memory; the input is not changed.

    Returns ``(schema_doc, full_doc, warnings)``:

    * ``full_doc``: the upgraded document that the converter reads.  1.0.0
      keys are renamed (``player_cards`` -> ``playerCards``,
      ``calls_annotations`` -> ``callAnnotations``, ``tricks_annotations`` ->
      ``playAnnotations``), ``version`` is set to 1.4, and what 1.4 has no
      place for but a reader needs is kept: ``kitty`` (``""`` = unknown) and
      ``initialLead`` (seat of the first card of a trick-play phase);
    * ``schema_doc``: the same without those kept keys and without unknown
      extra keys (such as ``timings``, ``videoUrl``, ``viewSwitches``), to be
      checked against the EGN schema;
    * ``warnings``: one line per unknown key that was set aside.
    """
    full = copy.deepcopy(doc)
    warnings: list = []
    if re.fullmatch(r"1\.[01](\.\d+)?", str(full.get("version", ""))):
        full["version"] = EGN_WRITE_VERSION
    keys = _known_keys()
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
                warnings.append(f"unknown key {k!r} in {where} ignored")

    def upgrade_phase(ph: dict) -> None:
        for old, new in _OLD_PHASE_KEYS.items():
            if old in ph and new not in ph:
                ph[new] = ph.pop(old)

    def upgrade_deal(deal: Any) -> None:
        if not isinstance(deal, dict):
            return
        st = deal.get("initialState")
        if isinstance(st, dict) and "player_cards" in st and "playerCards" not in st:
            st["playerCards"] = st.pop("player_cards")
        for ph in deal.get("phases", []) or []:
            if isinstance(ph, dict):
                upgrade_phase(ph)
        for alt in deal.get("alternativeLines", []) or []:
            if isinstance(alt, dict):
                for ph in alt.get("phases", []) or []:
                    if isinstance(ph, dict):
                        upgrade_phase(ph)

    for target in (full, schema_doc):
        for deal in target.get("deals", []) or []:
            upgrade_deal(deal)

    # set aside what 1.4 cannot hold, warn about what nobody knows
    strip(schema_doc, "top", "the file")
    md = schema_doc.get("metadata")
    strip(md, "metadata", "metadata")
    if isinstance(md, dict):
        strip(md.get("ruleset"), "ruleset", "metadata.ruleset")
    for i, deal in enumerate(schema_doc.get("deals", []) or []):
        if not isinstance(deal, dict):
            continue
        w = f"deal {i + 1}"
        strip(deal, "deal", w)
        strip(deal.get("initialState"), "initialState", w + " initialState", keep=("kitty",))
        for ph in deal.get("phases", []) or []:
            if isinstance(ph, dict) and ph.get("type") in keys:
                strip(ph, ph["type"], f"{w} {ph['type']} phase", keep=("initialLead",))
        for j, alt in enumerate(deal.get("alternativeLines", []) or []):
            strip(alt, "alternativeLine", f"{w} alternative line {j + 1}")
            if isinstance(alt, dict):
                for ph in alt.get("phases", []) or []:
                    if isinstance(ph, dict) and ph.get("type") in keys:
                        strip(ph, ph["type"], f"{w} alternative line {j + 1}", keep=("initialLead",))
    # the unknown ruleset keys are warned about but kept in `full` (they go to the source)
    return schema_doc, full, warnings


# ------------------------------------------------------------------ reading

def read_egn_file(path: str) -> list:
    """All games of an ``.egn`` (one game) or ``.emn`` (a match) file.

    Returns a list of :class:`Record` (events validated by folding them with
    the engine; annotations, alternative lines as variations, warnings, the
    file's stated final score).  Raises :class:`RecordError` (file, deal,
    event, reason) when the file cannot be read, is not JSON, is not an
    EGN/EMN document, breaks the schema, or describes something impossible
    (a card played by a seat that cannot hold it...), and when it is empty
    or not UTF-8 text.  Reneges are not errors: they are kept and
    :meth:`Game.audit` flags them (rules.md 1.5).
    """
    return read_egn_text(read_record_text(path), path)


def read_egn_file_partial(path: str) -> tuple:
    """``(records, errors)`` of an EGN or EMN file, reading a match game by game.

    For an EMN file each game is read on its own: a game that breaks the
    schema or cannot have happened becomes a :class:`RecordError` in
    ``errors`` (its reason starts with ``"game N: "``, N from 1 in the
    match's order) and the good games are returned.  An EGN file, or an EMN
    file that cannot be read as a match at all, gives ``(records, [])`` or
    ``([], [error])``.  Never raises :class:`RecordError`.
    """
    try:
        doc = _parse(read_record_text(path), path)
        if isinstance(doc, dict) and doc.get("fileType") == EMN_FILE_TYPE:
            errors: list = []
            return _read_emn(doc, path, errors), errors
        return read_egn_dict(doc, path), []
    except RecordError as e:
        return [], [e]


def _parse(text: str, path: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(path, f"not JSON: {e.msg}", line=e.lineno, column=e.colno) from None


def read_egn_text(text: str, path: str = "<text>") -> list:
    """Like :func:`read_egn_file` for the JSON text of a file; ``path`` names it in errors."""
    if not text.strip():
        raise RecordError(path, "the file is empty: it holds no game")
    return read_egn_dict(_parse(text, path), path)


def read_egn_dict(doc: Any, path: str = "<dict>") -> list:
    """Records of a parsed EGN or EMN document (dispatch on ``fileType``).

    How an EGN deal becomes events (seats 0-3, cards as codes, deals from 1):

    ``DealStarted(n, dealer)``, ``CardsDealt(hands, up_card, kitty)``, one
    ``Passed`` / ``OrderedUp(seat, alone)`` / ``TrumpNamed(seat, suit, alone)``
    per call, then what the standard rules call for: ``UpCardPickedUp`` and
    ``Discarded`` by the dealer after a round-1 acceptance (no exchange when
    the dealer sits out, rules.md 2.2), ``DefendedAlone`` /
    ``PlayedWithPartner`` when defending alone is on (``aloneDefender``), the
    ``CardPlayed`` events in play order, or ``DealThrownIn`` after eight passes.

    Dealt hands: ``playerCards`` when given; otherwise each seat's played
    cards.  A dealer who took up the up-card played it from the pick-up, and
    the recorded ``discard`` was in the dealt hand; an unrecorded discard is
    ``"??"`` in the dealt hand, except when the dealer never played the
    up-card (then the up-card was the discard: nothing else can be).  A seat
    that sat out has ``"??"`` x5; a hand of a deal that stops early is filled
    with ``"??"``.  The kitty is known only from 1.0.0 files, else ``"??"`` x3.

    Alternative lines become variations ``{"position", "events",
    "annotations", "comment": ""}`` (EGN has no comment for a line); a line
    that cannot be replayed is left out with a warning.  A game that stops in
    the middle of a deal is read with a warning.  A document that is our own
    JSON export (it has ``"events"``) is refused with a hint to read it as
    ``--from json`` / ``.eej``.
    """
    if isinstance(doc, list):
        if doc and all(isinstance(x, dict) and "events" in x for x in doc):
            raise RecordError(path, "not an EGN or EMN file: it is a JSON array of games with "
                                    f"\"events\"{_OURS_HINT}")
        raise RecordError(path, "not an EGN or EMN file: the JSON is an array, not an object "
                                f"with fileType {EGN_FILE_TYPE!r}")
    if not isinstance(doc, dict):
        raise RecordError(path, f"not an EGN or EMN file: the JSON is a {type(doc).__name__}")
    ft = doc.get("fileType")
    if ft == EMN_FILE_TYPE:
        return _read_emn(doc, path)
    if ft == EGN_FILE_TYPE:
        return [_read_game(doc, path)]
    if ft is None:
        if "events" in doc:
            raise RecordError(path, f"not an EGN or EMN file: it has \"events\" and no fileType{_OURS_HINT}")
        if "deals" in doc and "metadata" in doc:
            raise RecordError(path, f"fileType is missing (an EGN file says {EGN_FILE_TYPE!r})")
        raise RecordError(path, "not an EGN or EMN file: it has no fileType "
                                f"(keys: {', '.join(sorted(map(str, doc))[:8])})")
    raise RecordError(path, f"fileType {ft!r} is not {EGN_FILE_TYPE} (nor {EMN_FILE_TYPE})")


_OURS_HINT = ("; it looks like our own JSON export: read it with --from json, "
              "or name the file .eej")


def _read_emn(doc: dict, path: str, errors: Optional[list] = None) -> list:
    """The games of an EMN document.  With ``errors`` a list, a bad game's
    :class:`RecordError` goes there and the other games are still read;
    without it the first bad game raises."""
    errs = validate_emn(doc)
    if errs:
        raise RecordError(path, "breaks the EMN schema: " + "; ".join(errs[:5]))
    md = doc.get("metadata", {})
    ids = {p.get("id"): p.get("name") for p in md.get("players", []) if isinstance(p, dict)}
    out = []
    for k, g in enumerate(doc["games"]):
        gd = g["gameData"]
        label = f"game {k + 1}"
        match = {"title": md.get("title", ""), "matchId": md.get("matchId"),
                 "gameIndex": g["gameIndex"], "player_ids": list(g["players"]),
                 "format": md.get("matchFormat")}
        match = {a: b for a, b in match.items() if b is not None}
        try:
            if not isinstance(gd, dict) or gd.get("fileType") != EGN_FILE_TYPE:
                ft = gd.get("fileType") if isinstance(gd, dict) else type(gd).__name__
                raise RecordError(path, f"{label}: gameData is not an EGN game (fileType {ft!r})")
            rec = _read_game(gd, path, label=label, match=match)
        except RecordError as e:
            if errors is None:
                raise
            errors.append(e)
            continue
        names = [ids.get(pid) for pid in g["players"]]
        if all(names) and list(names) != list(rec.events[0].players):
            rec.warnings.append(f"{label}: the match lists players {names}, the game "
                                f"{list(rec.events[0].players)}; the game's names are kept")
        out.append(rec)
    return out


class _Bad(Exception):
    """A conversion problem at a known place of a deal."""

    def __init__(self, reason: str, position: Optional[int] = None, event: Any = None):
        super().__init__(reason)
        self.reason, self.position, self.event = reason, position, event


def _card(text: Any, what: str) -> str:
    if text == "" or text is None:
        return UNKNOWN
    try:
        return parse_card(str(text))
    except CardError as e:
        raise _Bad(f"{what}: {e}") from None


def _player_name(p: Any) -> str:
    return p.get("name", "") if isinstance(p, dict) else str(p)


def _options(ruleset: dict, deals: list, warnings: list) -> dict:
    """StandardOptions fields from an EGN ruleset (rules.md 2.9 toggles)."""
    from euchre_events.rules.variants.standard import StandardOptions
    o = StandardOptions().to_dict()
    o["stick_the_dealer"] = bool(ruleset.get("std", True))
    o["dealers_partner_must_go_alone"] = bool(ruleset.get("canadian", False))
    lead = ruleset.get("loner_lead", "LEFT_OF_DEALER")
    o["loner_lead"] = "left_of_loner" if lead == "LEFT_OF_LONER" else "left_of_dealer"
    ws = ruleset.get("winning_score", 10)
    if ws:
        o["target_score"] = int(ws)
    else:  # 0 = no winning score; the game ends after num_deals
        o["target_score"] = 10 ** 6
        warnings.append("ruleset: no winning score (winning_score 0); the game is not ended by points")
    o["lone_euchred_value"] = int(ruleset.get("loner_euchred_score", 2))
    defend = bool(ruleset.get("defend_alone", False))
    if not defend:
        for d in deals:
            for ph in (d.get("phases") or []) if isinstance(d, dict) else []:
                if isinstance(ph, dict) and isinstance(ph.get("aloneDefender"), int) and ph["aloneDefender"] >= 0:
                    defend = True
        if defend:
            warnings.append("a deal has an aloneDefender but the ruleset does not say defend_alone: "
                            "defending alone is allowed for this game")
    o["defend_alone"] = "vs_lone" if defend else "off"
    if int(ruleset.get("loner_march_score", 4)) != 4:
        warnings.append(f"ruleset loner_march_score {ruleset['loner_march_score']}: our standard "
                        "scoring gives 4 for a lone march (rules.md 2.6)")
    if ruleset.get("farmers"):
        warnings.append("ruleset farmers: the farmer's hand exchange is not replayed")
    return o


def _read_game(doc: dict, path: str, label: str = "", match: Optional[dict] = None) -> Record:
    pre = f"{label}: " if label else ""
    schema_doc, full, warnings = upgrade_egn(doc)
    warnings = [pre + w for w in warnings]
    errs = validate_egn(schema_doc)
    if errs:
        more = f" (and {len(errs) - 5} more)" if len(errs) > 5 else ""
        raise RecordError(path, pre + "breaks the EGN schema: " + "; ".join(errs[:5]) + more)
    md = full["metadata"]
    ruleset = md.get("ruleset", {}) or {}
    for k, ours in _UNSUPPORTED_RULES.items():
        if k in ruleset and ruleset[k] != ours and ruleset[k] is not None:
            raise RecordError(path, pre + f"ruleset {k}={ruleset[k]!r} is not standard Euchre; "
                                          "this reader replays standard 4-player Euchre only")
    deals = full["deals"]
    for i, d in enumerate(deals):
        if isinstance(d, str):
            raise RecordError(path, pre + "packed (string) deals are not supported", deal=i + 1)
    players = tuple(_player_name(p) for p in md["players"])
    if len(players) != 4:
        raise RecordError(path, pre + f"{len(players)} players listed; standard Euchre has 4")
    opts_warn: list = []
    options = _options(ruleset, deals, opts_warn)
    warnings += [pre + w for w in opts_warn]
    init = md.get("initialScore") or [0, 0]
    if len(init) != 2:
        raise RecordError(path, pre + f"initialScore {init} does not have two team scores")
    source = {"file": os.path.basename(path) if path and not path.startswith("<") else path,
              "path": path, "format": "egn", "version": str(doc.get("version", ""))}
    for k in ("date", "description", "gameId"):
        if md.get(k):
            source[k] = md[k]
    if ruleset:
        source["ruleset"] = dict(ruleset)
    if any(isinstance(p, dict) for p in md["players"]):
        source["players"] = copy.deepcopy(md["players"])
    if match:
        source["match"] = match
    first_dealer = deals[0]["initialState"]["dealer"] if deals else 0
    start = GameStarted("standard", options, players, first_dealer=first_dealer,
                        initial_score=tuple(int(x) for x in init), title=md.get("title", ""),
                        source=source)
    conv = _Converter(path, pre)
    rec = conv.convert(start, deals)
    rec.warnings = warnings + rec.warnings
    game = validate_events(path, rec.events)   # every game is validated by folding it
    stop = incomplete_warning(game)
    if stop:
        rec.warnings.append(pre + stop)
    if md.get("finalScore") is not None:
        rec.stated_final_score = list(md["finalScore"])
        if list(game.final_score) != rec.stated_final_score:
            rec.warnings.append(pre + f"the file states the final score {rec.stated_final_score}, "
                                      f"the deals as played give {list(game.final_score)}")
    return rec


def _split_annotation(text: str) -> tuple:
    m = _MARK.match(text)
    if m:
        return text[m.end():], m.group(1)
    return text, None


def _notes(d: Any) -> dict:
    """``{index: [text, ...]}`` from an EGN annotations object."""
    out: dict = {}
    if isinstance(d, dict):
        for k, v in d.items():
            texts = v if isinstance(v, list) else [v]
            out[int(k)] = [str(t) for t in texts]
    return out


class _DealData:
    """One EGN deal (or an alternative line spliced into one), parsed."""

    def __init__(self, deal: dict):
        st = deal["initialState"]
        self.dealer = st["dealer"]
        if not 0 <= self.dealer <= 3:
            raise _Bad(f"dealer seat {self.dealer} does not exist (seats 0-3)")
        self.up = _card(st["upCard"], "upCard")
        if self.up in (C.JOKER, UNKNOWN):
            raise _Bad(f"up-card {st['upCard']!r} is not a card of the standard deck")
        self.hands = [[_card(c, f"playerCards[{s}]") for c in h] for s, h in
                      enumerate(st.get("playerCards") or [])]
        self.kitty = tuple(_card(c, "kitty") for c in (st.get("kitty") or []))
        bids = [p for p in deal["phases"] if p.get("type") == "EUCHRE_BIDDING"]
        plays = [p for p in deal["phases"] if p.get("type") == "TRICK_PLAY"]
        if len(bids) > 1 or len(plays) > 1:
            raise _Bad("more than one bidding or trick-play phase")
        b = bids[0] if bids else {}
        p = plays[0] if plays else {}
        self.has_bidding, self.has_play = bool(bids), bool(plays)
        self.calls = list(b.get("calls", []))
        self.alone = bool(b.get("isAlone", p.get("isAlone", False)))
        self.discard = _card(b["discard"], "discard") if b.get("discard") else None
        ad = b.get("aloneDefender")
        self.alone_defender = ad if isinstance(ad, int) and ad >= 0 else None
        self.call_notes = _notes(b.get("callAnnotations"))
        self.exchanges = b.get("cardExchanges")
        self.plays = [str(c) for t in p.get("tricks", []) for c in t]
        self.play_notes = _notes(p.get("playAnnotations"))
        self.initial_lead = p.get("initialLead")


class _Line:
    """What :func:`_drive` produced: events and the global position of each
    call and play, the seat and card code of every play, the index (in
    ``events``) of the Discarded event."""

    def __init__(self):
        self.events: list = []
        self.call_pos: list = []
        self.play_pos: list = []
        self.seats: list = []
        self.cards: list = []
        self.discard_at: Optional[int] = None


def _call_event(t: Table, call: str, seat: int, index: int, alone: bool) -> Event:
    """The event of EGN call ``index`` (text ``call``) by ``seat`` on table ``t``."""
    ph = t.phase
    c = str(call).strip()
    if ph == "round1":
        if c == "Pass":
            return Passed(seat)
        if c in ROUND1_ACCEPT:
            return OrderedUp(seat, alone=alone or c == "Alone")
        if len(c) == 1 and c.upper() in C.SUITS and c.upper() == C.suit_of(t.up_card):
            return OrderedUp(seat, alone=alone)
        raise _Bad(f"call {index} ({call!r}) is not a round-1 call (Pass or Order)")
    if ph == "round2":
        if c == "Pass":
            return Passed(seat)
        if c.lower() == "n":
            return TrumpNamed(seat, None, alone=alone)
        if len(c) == 1 and c.upper() in C.SUITS:
            return TrumpNamed(seat, c.upper(), alone=alone)
        raise _Bad(f"call {index} ({call!r}) is not a round-2 call (Pass or a suit letter)")
    raise _Bad(f"call {index} ({call!r}) comes after the bidding ended")


def _drive(t: Table, dd: _DealData, call_start: int, play_start: int, offset: int,
           discard: Optional[str]) -> _Line:
    """Apply calls ``dd.calls[call_start:]``, the exchanges, and plays
    ``dd.plays[play_start:]`` to the working table ``t``, letting the engine
    say whose turn it is (rules.md 2.2-2.5: who bids, who leads, who wins
    each trick).  ``offset`` is the global position of the first event made;
    ``discard`` the dealer's discard (``None``: unknown, written ``"??"``).
    Raises :class:`_Bad` with the global ``position`` of the failing event.
    """
    line = _Line()

    def put(ev: Event) -> None:
        try:
            apply(t, ev)
        except ImpossibleEvent as e:
            raise _Bad(e.reason, offset + len(line.events), ev) from None
        line.events.append(ev)

    for i in range(call_start, len(dd.calls)):
        call = dd.calls[i]
        if t.phase not in ("round1", "round2"):
            raise _Bad(f"call {i} ({call!r}) comes after trump was made", offset + len(line.events))
        seat = t.turn
        if seat != (dd.dealer + 1 + i) % 4:  # pragma: no cover - the engine's turn order is the same
            raise _Bad(f"call {i} is not seat {seat}'s")
        line.call_pos.append(offset + len(line.events))
        put(_call_event(t, call, seat, i, dd.alone))
    if t.phase == "thrown_in":
        put(DealThrownIn("all passed"))
    while t.phase in ("pickup", "discard", "defend"):
        if t.phase == "pickup":
            put(UpCardPickedUp(t.turn))
        elif t.phase == "discard":
            line.discard_at = len(line.events)
            put(Discarded(t.turn, discard if discard is not None else UNKNOWN))
        else:
            s = t.turn
            put(DefendedAlone(s) if dd.alone_defender == s else PlayedWithPartner(s))
    for k in range(play_start, len(dd.plays)):
        text = dd.plays[k]
        if t.phase != "play":
            if t.phase in ("round1", "round2"):
                raise _Bad(f"cards are played but the bidding has not ended "
                           f"({len(dd.calls)} calls)", offset + len(line.events))
            raise _Bad(f"play {k} ({text}) comes after the deal ended", offset + len(line.events))
        card = _resolve_bower(text, t.trump)
        seat = t.turn
        line.play_pos.append(offset + len(line.events))
        line.seats.append(seat)
        line.cards.append(card)
        put(CardPlayed(seat, card))
    return line


def _blank(t: Table) -> Table:
    """A copy of a working table with every hand unknown (to find seats only)."""
    b = t.copy()
    b.hands = [[UNKNOWN] * (len(h) + 1) for h in b.hands]   # a spare, as in pass 1 of a deal
    b.seen = {b.up_card} if b.up_card else set()
    for _, trick_cards, _ in b.tricks:
        b.seen.update(c for _, c in trick_cards)
    b.seen.update(c for _, c in b.trick)
    return b


def _left_after(hand: Sequence[str], played: Sequence[str]) -> list:
    """What is left of ``hand`` after ``played`` (an unknown slot covers a card not in it)."""
    rest = list(hand)
    for c in played:
        if c in rest:
            rest.remove(c)
        elif UNKNOWN in rest:
            rest.remove(UNKNOWN)
    return rest


class _Converter:
    """Turns EGN deals into events, folding them with the engine as it goes."""

    def __init__(self, path: str, pre: str):
        self.path, self.pre = path, pre
        self.deal_numbers: dict = {}

    def error(self, reason: str, deal: Optional[int], pos: Optional[int] = None,
              ev: Any = None) -> RecordError:
        """A RecordError for deal ``deal`` (from 1) at event ``pos``; the
        reason also gives the deal's EGN ``dealNumber`` (often from 0)."""
        event = None
        if pos is not None:
            event = f"{pos} ({ev.kind})" if isinstance(ev, Event) else pos
        dn = self.deal_numbers.get(deal)
        if dn is not None:
            reason += f" (EGN dealNumber {dn})"
        return RecordError(self.path, self.pre + reason, deal=deal, event=event)

    # -------------------------------------------------------------- the game
    def convert(self, start: GameStarted, deals: list) -> Record:
        t = new_table()
        events: list = [start]
        apply(t, start)
        annotations: list = []
        variations: list = []
        warnings: list = []
        for i, deal in enumerate(deals):
            n = i + 1
            self.deal_numbers[n] = deal.get("dealNumber")
            try:
                dd = _DealData(deal)
            except _Bad as e:
                raise self.error(e.reason, n) from None
            if dd.exchanges:
                warnings.append(f"deal {n}: cardExchanges are not replayed by standard Euchre")
            if t.game_over:
                raise self.error(f"the game was already won ({t.scores[0]} to {t.scores[1]}) "
                                 "before this deal", n, t.pos, DealStarted(n, dd.dealer))
            base = t.pos
            deal_events, line = self.deal_events(t, n, dd)
            for k, ev in enumerate(deal_events):   # fold for real (reneges are kept)
                try:
                    apply(t, ev)
                except ImpossibleEvent as e:
                    raise self.error(e.reason, n, base + k, ev) from None
            events.extend(deal_events)
            annotations += self.deal_annotations(dd, n, line, warnings)
            for j, alt in enumerate(deal.get("alternativeLines") or []):
                v = self.variation(events, base, dd, line, deal, alt, n, j, warnings)
                if v is not None:
                    variations.append(v)
        return Record(events=events, annotations=annotations, variations=variations,
                      source=dict(start.source), warnings=warnings)

    # -------------------------------------------------------------- a deal
    def deal_events(self, t: Table, n: int, dd: _DealData) -> tuple:
        """(events of deal ``n``, its :class:`_Line`), ``t`` being the table before it."""
        base = t.pos
        # pass 1: every hand unknown; the engine gives the seat of every card
        scratch = t.copy()
        head = DealStarted(n, dd.dealer)
        blank = CardsDealt(tuple((UNKNOWN,) * 5 for _ in range(4)), dd.up, (UNKNOWN,) * 3)
        for k, ev in enumerate((head, blank)):
            try:
                apply(scratch, ev)
            except ImpossibleEvent as e:
                raise self.error(e.reason, n, base + k, ev) from None
        # a spare unknown card each: the dealer may discard an unknown card and
        # still play five the record states (the up-card being the discard)
        scratch.hands = [h + [UNKNOWN] for h in scratch.hands]
        try:
            line = _drive(scratch, dd, 0, 0, base + 2, dd.discard)
        except _Bad as e:
            reason = e.reason
            ev = e.event
            if isinstance(ev, CardPlayed) and ev.card == dd.up and not (
                    scratch.up_status == "picked up" and ev.seat == dd.dealer):
                who = (f"which the dealer (seat {dd.dealer}) took up"
                       if scratch.up_status == "picked up" else "which nobody took up")
                reason = f"seat {ev.seat} plays {ev.card}, but {ev.card} is the up-card, {who}"
            raise self.error(reason, n, e.position, ev) from None
        if dd.initial_lead is not None and line.seats and line.seats[0] != dd.initial_lead:
            raise self.error(f"initialLead says seat {dd.initial_lead} leads, but the rules of "
                             f"this game give the lead to seat {line.seats[0]}", n,
                             line.play_pos[0], CardPlayed(line.seats[0], line.cards[0]))
        out = set(scratch.out)
        picked = any(isinstance(e, UpCardPickedUp) for e in line.events)
        played = [[] for _ in range(4)]
        for s, c in zip(line.seats, line.cards):
            played[s].append(c)
        hands = []
        discard = dd.discard
        for s in range(4):
            given = dd.hands[s] if s < len(dd.hands) else []
            if given:
                if len(given) != 5:
                    raise self.error(f"playerCards[{s}] holds {len(given)} cards, not 5", n)
                hands.append(tuple(given))
                if picked and s == dd.dealer and discard is None:
                    rest = _left_after(list(given) + [dd.up], played[s])
                    if len(played[s]) == 5 and len(rest) == 1:
                        discard = rest[0]   # the one card the dealer did not play
                continue
            if s in out and not played[s]:
                hands.append((UNKNOWN,) * 5)
                continue
            h = list(played[s])
            if picked and s == dd.dealer:
                if dd.up in h:
                    h.remove(dd.up)
                    h.append(discard if discard is not None else UNKNOWN)
                elif len(h) == 5:
                    # the dealer took the up-card and never played it: it was the discard
                    if discard is not None and discard != dd.up:
                        raise self.error(
                            f"the dealer (seat {s}) took up {dd.up} and discarded {discard}, "
                            f"but never played {dd.up}", n)
                    discard = dd.up
                elif discard is not None and discard != dd.up:
                    h.append(discard)
            if len(h) > 5:
                raise self.error(f"seat {s} plays {len(h)} cards in this deal", n)
            hands.append(tuple(h + [UNKNOWN] * (5 - len(h))))
        body = list(line.events)
        if line.discard_at is not None:
            body[line.discard_at] = Discarded(dd.dealer, discard if discard is not None else UNKNOWN)
        kitty = dd.kitty if any(c != UNKNOWN for c in dd.kitty) else (UNKNOWN,) * 3
        if len(kitty) != 3:
            raise self.error(f"the kitty holds {len(kitty)} cards, not 3", n)
        return [head, CardsDealt(tuple(hands), dd.up, tuple(kitty))] + body, line

    def deal_annotations(self, dd: _DealData, n: int, line: _Line, warnings: list) -> list:
        out = []
        for k, texts in sorted(dd.call_notes.items()):
            if k < len(line.call_pos):
                pos = line.call_pos[k]
            elif line.call_pos:
                pos = line.call_pos[-1]
                warnings.append(f"deal {n}: call annotation {k} is past the last call "
                                f"({len(line.call_pos) - 1}); attached to the last call")
            else:
                warnings.append(f"deal {n}: call annotation {k} has no call; left out")
                continue
            out += [_note(pos, text) for text in texts]
        for k, texts in sorted(dd.play_notes.items()):
            if k >= len(line.play_pos):
                warnings.append(f"deal {n}: play annotation {k} is past the last play; left out")
                continue
            out += [_note(line.play_pos[k], text) for text in texts]
        return out

    # -------------------------------------------------------------- variations
    def variation(self, events: list, base: int, dd: _DealData, main: _Line, deal: dict,
                  alt: dict, n: int, j: int, warnings: list) -> dict:
        """An EGN alternative line as a variation: ``position`` = the event it
        replaces, ``events`` = the rest of the deal along the line,
        ``annotations`` with positions in the line's own stream
        (``events[:position] + variation["events"]``).  A line that cannot be
        replayed is left out (``None``), with a warning.  EGN has no comment
        for a line: ``comment`` is ``""``."""
        bi = alt["branchIndex"]
        ncalls = len(dd.calls)
        where = f"from call {bi}" if bi < ncalls else f"from play {bi - ncalls}"
        try:
            alt_dd = _DealData({"initialState": deal["initialState"], "phases": alt["phases"]})
            position, var_events, notes = self.branch(events, base, dd, main, alt_dd, bi)
        except _Bad as e:
            warnings.append(f"deal {n}: alternative line {j + 1} ({where}) could not be replayed "
                            f"({e.reason}); left out")
            return None
        return {"position": position, "events": var_events, "annotations": notes, "comment": ""}

    def branch(self, events: list, base: int, dd: _DealData, main: _Line, alt: _DealData,
               bi: int) -> tuple:
        ncalls = len(dd.calls)
        line = copy.copy(dd)
        line.initial_lead = None
        if bi < ncalls:
            if not alt.has_bidding:
                raise _Bad("the line starts in the bidding but has no bidding phase")
            line.calls = dd.calls[:bi] + alt.calls
            line.plays = list(alt.plays)
            line.alone, line.discard, line.alone_defender = alt.alone, alt.discard, alt.alone_defender
            call_start, play_start = bi, 0
            position = main.call_pos[bi]
        else:
            k = bi - ncalls
            if k >= len(dd.plays):
                raise _Bad(f"branchIndex {bi} is past the last play")
            if alt.has_bidding:
                raise _Bad("the line starts in the play but has a bidding phase")
            line.plays = dd.plays[:k] + list(alt.plays)
            call_start, play_start = ncalls, k
            position = main.play_pos[k]
        t = new_table()
        for ev in events[:position]:
            apply(t, ev)
        discard = line.discard
        if bi < ncalls:
            # pass 1 with unknown hands for the seats, then work out an unrecorded discard
            seen = _drive(_blank(t), line, call_start, play_start, position, discard)
            if seen.discard_at is not None and discard is None:
                mine = [c for s, c in zip(seen.seats, seen.cards) if s == dd.dealer]
                rest = _left_after(list(t.hands[dd.dealer]) + [t.up_card], mine)
                if len(rest) == 1 and len(mine) == 5:
                    discard = rest[0]
        real = _drive(t, line, call_start, play_start, position, discard)
        if alt.initial_lead is not None and real.seats and real.seats[0] != alt.initial_lead:
            raise _Bad(f"its initialLead {alt.initial_lead} is not seat {real.seats[0]}, "
                       "who plays its first card")
        notes = []
        for k, texts in sorted(alt.call_notes.items()):
            if k < len(real.call_pos):
                notes += [_note(real.call_pos[k], text) for text in texts]
        for k, texts in sorted(alt.play_notes.items()):
            if k < len(real.play_pos):
                notes += [_note(real.play_pos[k], text) for text in texts]
        return position, real.events, notes


def _note(position: int, text: str) -> dict:
    body, mark = _split_annotation(text)
    return {"position": position, "text": body, "mark": mark}


def _resolve_bower(text: str, trump: Optional[str]) -> str:
    """A played card code; EGN's ``R``/``L`` (right/left bower) need the trump."""
    t = str(text).strip()
    if t.upper() in ("R", "L"):
        if trump is None:
            return UNKNOWN if t else t
        return C.right_bower(trump) if t.upper() == "R" else C.left_bower(trump)
    try:
        return parse_card(t)
    except CardError as e:
        raise _Bad(f"play {t!r}: {e}") from None


# ------------------------------------------------------------------ writing

def _egn_card(card: str) -> str:
    """Our card code as EGN writes it: rank upper case, suit lower case (``"Kc"``)."""
    if card == C.JOKER:
        return "B"
    if card == UNKNOWN or "#" in card:
        raise ValueError(f"EGN cannot write the card {card!r}")
    return card[0] + card[1].lower()


def write_egn(events: Sequence[Event], annotations: Iterable = (), variations: Iterable = (),
              warnings: Optional[list] = None) -> dict:
    """An EGN 1.4 document (a dict ready for ``json.dump``) for a standard Euchre game.

    ``events``: the game's events (GameStarted first, variant ``standard``);
    ``annotations``: ``[{"position", "text", "mark"}]`` on calls and plays
    (written as ``callAnnotations`` / ``playAnnotations``, a mark as a
    leading ``[?!]``); ``variations``: as :class:`Record` holds them
    (``{"position", "events", "annotations", "comment"}``, written as
    ``alternativeLines``: :func:`read_egn_dict` reads them back the same,
    except the ``comment`` and nested lines, which EGN cannot hold).  Dealt hands that are fully known are
    written as ``playerCards`` (a partly known hand as ``[]``); the dealer's
    discard when known; ``finalScore`` is the folded score.

    What EGN 1.4 cannot hold is left out and, if ``warnings`` is a list,
    noted there: a known kitty, annotations on other events, options with no
    EGN ruleset key, a variation's comment or nested lines.  Raises ``ValueError`` for a game EGN cannot express
    (another variant, events such as ``UpCardDeclined`` or ``WentAlone``
    after the exchange) or events that cannot be folded.
    """
    from euchre_events.projections import Game
    notes_out = warnings if warnings is not None else []
    events = list(events)
    if not events or not isinstance(events[0], GameStarted):
        raise ValueError("the first event must be GameStarted")
    start = events[0]
    if start.variant not in ("standard", "euchre", "A"):
        raise ValueError(f"EGN records standard Euchre only, not {start.variant!r}")
    try:
        game = Game(events)
    except ImpossibleEvent as e:
        raise ValueError(f"the events cannot be folded: {e}") from None
    opts = game.final.options
    src = start.source or {}
    md: dict = {}
    if start.title:
        md["title"] = start.title[:128]
    for k, longest in (("description", 1024), ("date", 64), ("gameId", 64)):
        if src.get(k):
            md[k] = str(src[k])[:longest]
    raw_players = src.get("players")
    if isinstance(raw_players, list) and [_player_name(p) for p in raw_players] == list(start.players):
        md["players"] = copy.deepcopy(raw_players)
    else:
        md["players"] = list(start.players)
    md["initialScore"] = list(start.initial_score) if start.initial_score else [0, 0]
    md["finalScore"] = list(game.final_score)
    md["ruleset"] = _ruleset(opts, src.get("ruleset") or {}, notes_out)

    # ---- split the stream into deals
    deals: list = []
    where: dict = {}   # event position -> (deal index, "call"/"play", index)
    cur = None
    for pos, ev in enumerate(events[1:], start=1):
        k = ev.kind
        if k == "DealStarted":
            cur = {"deal": ev.deal, "dealer": ev.dealer, "calls": [], "alone": False,
                   "discard": None, "defender": None, "plays": [], "hands": None,
                   "up": None, "kitty": (), "start": pos}
            deals.append(cur)
            continue
        if cur is None:
            raise ValueError(f"event {pos} ({k}) comes before the first deal")
        if k == "CardsDealt":
            cur["hands"], cur["up"], cur["kitty"] = ev.hands, ev.up_card, ev.kitty
        elif k == "Passed":
            where[pos] = (len(deals) - 1, "call", len(cur["calls"]))
            cur["calls"].append("Pass")
        elif k == "OrderedUp":
            where[pos] = (len(deals) - 1, "call", len(cur["calls"]))
            cur["calls"].append("Order")
            cur["alone"] = cur["alone"] or ev.alone
        elif k == "TrumpNamed":
            if ev.suit is None:
                raise ValueError(f"event {pos}: no-trump is not standard Euchre")
            where[pos] = (len(deals) - 1, "call", len(cur["calls"]))
            cur["calls"].append(ev.suit.lower())
            cur["alone"] = cur["alone"] or ev.alone
        elif k == "UpCardPickedUp":
            pass
        elif k == "Discarded":
            cur["discard"] = ev.card
        elif k == "DefendedAlone":
            cur["defender"] = ev.seat
        elif k == "PlayedWithPartner":
            pass
        elif k == "DealThrownIn":
            pass
        elif k == "CardPlayed":
            where[pos] = (len(deals) - 1, "play", len(cur["plays"]))
            cur["plays"].append(ev.card)
        else:
            raise ValueError(f"event {pos} ({k}) cannot be written in EGN")

    # trick sizes from the fold (4, or 3 with a lone hand, 2 with two)
    out_deals = []
    if deals and deals[-1]["up"] is None:   # the record stops before the cards are dealt
        notes_out.append(f"deal {deals[-1]['deal']} has no cards dealt yet; left out")
        deals.pop()
    for di, d in enumerate(deals):
        size = 4
        for pos in range(d["start"], len(events)):
            if events[pos].kind == "CardPlayed":
                size = game.final.variant.trick_size(game.table_at(pos))
                break
        out_deals.append(_egn_deal(d, di, size, opts, notes_out))

    # ---- annotations
    for a in annotations:
        pos = a.get("position")
        text = str(a.get("text", ""))
        if a.get("mark"):
            text = f"[{a['mark']}] {text}"
        if pos not in where:
            notes_out.append(f"annotation at event {pos} is not on a call or a play; left out")
            continue
        di, kind, idx = where[pos]
        phases = out_deals[di]["phases"]
        ph = phases[0] if kind == "call" else (phases[1] if len(phases) > 1 else None)
        if ph is None:
            notes_out.append(f"annotation at event {pos} has no phase to go in; left out")
            continue
        key = "callAnnotations" if kind == "call" else "playAnnotations"
        ph.setdefault(key, {}).setdefault(str(idx), []).append(text)

    # ---- variations
    for v in variations:
        _write_variation(v, events, where, deals, out_deals, notes_out)

    doc = {"fileType": EGN_FILE_TYPE, "version": EGN_WRITE_VERSION, "metadata": md,
           "deals": out_deals}
    return doc


def _ruleset(opts: Any, original: dict, notes_out: list) -> dict:
    from euchre_events.rules.variants.standard import StandardOptions
    r = {k: v for k, v in original.items()}
    r["std"] = bool(opts.stick_the_dealer)
    r["canadian"] = bool(opts.dealers_partner_must_go_alone)
    r["loner_lead"] = "LEFT_OF_LONER" if opts.loner_lead == "left_of_loner" else "LEFT_OF_DEALER"
    if opts.target_score >= 10 ** 6:
        r.setdefault("winning_score", 0)
    elif opts.target_score != 10 or "winning_score" in original:
        r["winning_score"] = int(opts.target_score)
    if opts.lone_euchred_value != 2 or "loner_euchred_score" in original:
        r["loner_euchred_score"] = int(opts.lone_euchred_value)
    if opts.defend_alone != "off" or "defend_alone" in original:
        r["defend_alone"] = opts.defend_alone != "off"
    if opts.defend_alone == "any":
        notes_out.append("defend_alone 'any' is written as EGN defend_alone true "
                         "(read back as defending against a lone maker only)")
    known = set(_known_keys()["ruleset"])
    for k in list(r):
        if k not in known:
            del r[k]
            notes_out.append(f"ruleset key {k!r} has no place in EGN 1.4; left out")
    default = StandardOptions()
    for f in ("super_euchre", "lone_defender_value", "dealer_may_discard_upcard",
              "dealer_may_decline_upcard", "alone_timing", "exchange_when_dealer_out",
              "must_hold_named_suit", "thrown_in_next_dealer", "renege_penalty",
              "renege_symmetric", "stick_allows_turned_down"):
        if getattr(opts, f) != getattr(default, f):
            notes_out.append(f"option {f}={getattr(opts, f)!r} has no EGN ruleset key; left out")
    return r


def _egn_deal(d: dict, di: int, size: int, opts: Any, notes_out: list) -> dict:
    st: dict = {"dealer": d["dealer"], "upCard": _egn_card(d["up"])}
    hands = d["hands"] or ()
    if any(all(c != UNKNOWN for c in h) for h in hands):
        st["playerCards"] = [[_egn_card(c) for c in h] if all(c != UNKNOWN for c in h) else []
                             for h in hands]
    if d["kitty"] and any(c != UNKNOWN for c in d["kitty"]):
        notes_out.append(f"deal {d['deal']}: EGN 1.4 has no place for the kitty; left out")
    bid: dict = {"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": list(d["calls"]),
                 "isAlone": bool(d["alone"])}
    if d["discard"] not in (None, UNKNOWN):
        bid["discard"] = _egn_card(d["discard"])
    if d["defender"] is not None:
        bid["aloneDefender"] = d["defender"]
    phases = [bid]
    if d["plays"]:
        phases.append({"phaseNumber": 1, "type": "TRICK_PLAY",
                       "tricks": _chunk([_egn_card(c) for c in d["plays"]], size, 0)})
    return {"dealNumber": di, "initialState": st, "phases": phases}


def _chunk(cards: list, size: int, start_in_trick: int) -> list:
    """Cards in tricks of ``size``; the first chunk holds what is left of a
    trick whose first ``start_in_trick`` cards were already played."""
    out = []
    first = size - start_in_trick if start_in_trick else size
    if cards:
        out.append(cards[:first])
        rest = cards[first:]
        out += [rest[i:i + size] for i in range(0, len(rest), size)]
    return out


def _write_variation(v: dict, events: list, where: dict, deals: list, out_deals: list,
                     notes_out: list) -> None:
    pos = v.get("position")
    if pos is None and not v.get("events"):
        notes_out.append("an alternative line without position or events; left out")
        return
    if v.get("comment"):
        notes_out.append(f"the comment of the alternative line at event {pos} has no place in EGN; "
                         "left out")
    if v.get("variations"):
        notes_out.append(f"the alternative lines inside the line at event {pos} have no place in "
                         "EGN; left out")
    if pos not in where:
        notes_out.append(f"variation at event {pos} does not start on a call or a play; left out")
        return
    di, kind, idx = where[pos]
    d = deals[di]
    ncalls = len(d["calls"])
    branch_index = idx if kind == "call" else ncalls + idx
    line_events = [x if isinstance(x, Event) else _event(x) for x in v.get("events", [])]
    # fold the line to know trick sizes and where each of its events goes
    from euchre_events.projections import Game
    try:
        g = Game(list(events[:pos]) + line_events)
    except ImpossibleEvent as e:
        notes_out.append(f"variation at event {pos} cannot be folded ({e}); left out")
        return
    calls, plays = [], []
    alone, discard, defender = False, None, None
    lwhere: dict = {}
    for k, ev in enumerate(line_events):
        p = pos + k
        if ev.kind == "Passed":
            lwhere[p] = ("call", len(calls)); calls.append("Pass")
        elif ev.kind == "OrderedUp":
            lwhere[p] = ("call", len(calls)); calls.append("Order"); alone = alone or ev.alone
        elif ev.kind == "TrumpNamed":
            lwhere[p] = ("call", len(calls)); calls.append(ev.suit.lower()); alone = alone or ev.alone
        elif ev.kind == "Discarded":
            discard = ev.card
        elif ev.kind == "DefendedAlone":
            defender = ev.seat
        elif ev.kind == "CardPlayed":
            lwhere[p] = ("play", len(plays)); plays.append(_egn_card(ev.card))
        elif ev.kind in ("UpCardPickedUp", "PlayedWithPartner", "DealThrownIn"):
            pass
        else:
            notes_out.append(f"variation at event {pos}: {ev.kind} cannot be written in EGN; left out")
            return
    phases = []
    if kind == "call":
        bid = {"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": calls,
               "isAlone": bool(alone or any(getattr(e, "alone", False) for e in events[d["start"]:pos]))}
        if discard not in (None, UNKNOWN):
            bid["discard"] = _egn_card(discard)
        if defender is not None:
            bid["aloneDefender"] = defender
        phases.append(bid)
        start_in_trick = 0
    else:
        start_in_trick = idx % (_size_at(g, pos))
    size = None
    for k, ev in enumerate(line_events):
        if ev.kind == "CardPlayed":
            size = _size_at(g, pos + k)
            break
    if plays:
        phases.append({"phaseNumber": 1, "type": "TRICK_PLAY",
                       "tricks": _chunk(plays, size or 4, start_in_trick)})
    for a in v.get("annotations", []):
        ap = a.get("position")
        if ap not in lwhere:
            notes_out.append(f"variation annotation at event {ap} is not on a call or play; left out")
            continue
        kind2, i2 = lwhere[ap]
        ph = phases[0] if kind2 == "call" else phases[-1]
        text = str(a.get("text", ""))
        if a.get("mark"):
            text = f"[{a['mark']}] {text}"
        key = "callAnnotations" if kind2 == "call" else "playAnnotations"
        ph.setdefault(key, {}).setdefault(str(i2), []).append(text)
    if not phases:
        notes_out.append(f"variation at event {pos} is empty; left out")
        return
    out_deals[di].setdefault("alternativeLines", []).append(
        {"branchIndex": branch_index, "phases": phases})


def _size_at(g: Any, pos: int) -> int:
    return g.final.variant.trick_size(g.table_at(pos))


def _event(d: Any) -> Event:
    from euchre_events.events import event_from_dict
    return event_from_dict(d)


def egn_to_json(doc: dict, indent: int = 2) -> str:
    """EGN document as JSON text (UTF-8 characters kept, ``indent`` spaces)."""
    return json.dumps(doc, indent=indent, ensure_ascii=False) + "\n"


def write_egn_file(path: str, events: Sequence[Event], annotations: Iterable = (),
                   variations: Iterable = ()) -> list:
    """Write :func:`write_egn` output to ``path`` (checked against the schema
    first, so nothing is written when it fails).  Returns the warnings."""
    notes: list = []
    doc = write_egn(events, annotations, variations, warnings=notes)
    errs = validate_egn(doc)
    if errs:
        raise ValueError("the EGN document breaks the schema: " + "; ".join(errs[:5]))
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(egn_to_json(doc))
    os.replace(tmp, path)
    return notes


def audit_egn_by_deal(path: str) -> dict:
    """Audit an EGN game deal by deal, for a record that cannot be read whole.

    A tournament director auditing a disputed file wants every problem in it,
    not just the first: each deal is read on its own (starting from the score
    the deals before it reached); a deal that is impossible becomes a finding
    of kind ``"impossible"`` (with the reason) and scores nothing, every other
    deal is folded and audited as usual (its reneges flagged).  Nothing is
    stored.  Returns ``{"title", "variant", "deals", "final_score", "winner",
    "findings": [dict...], "impossible": int}``.  Raises :class:`RecordError`
    when the file is not an EGN game at all (no deal-level reading possible).
    """
    from euchre_events.projections import Game
    doc = _parse(read_record_text(path), path)
    if not isinstance(doc, dict) or doc.get("fileType") != EGN_FILE_TYPE or not doc.get("deals"):
        raise RecordError(path, "deal-by-deal audit needs an EGN game file")
    md = doc.get("metadata", {})
    score = list(md.get("initialScore") or [0, 0])
    findings, impossible, winner, target = [], 0, None, 10
    for i, deal in enumerate(doc["deals"]):
        one = copy.deepcopy(doc)
        one["deals"] = [deal]
        one.setdefault("metadata", {})["initialScore"] = list(score)
        one["metadata"].pop("finalScore", None)
        try:
            [rec] = read_egn_dict(one, path)
        except RecordError as e:
            impossible += 1
            findings.append({"deal": i + 1, "trick": None, "seat": None, "kind": "impossible",
                             "card": None, "led_suit": None, "evidence": [],
                             "penalty": "the deal is refused: " + e.reason + "; it scores nothing here",
                             "score_if_penalized": None, "event": e.event})
            continue
        g = Game(rec.events)
        target = g.final.options.target_score
        for f in g.audit():
            d = f.to_dict(g.players)
            d["deal"] = i + 1
            d["score_if_penalized"] = None  # filled below, once the whole file's score is known
            d["_delta"] = [a - b for a, b in zip(f.score_if_penalized, g.final_score)]
            findings.append(d)
        score = g.final_score
        if g.winner is not None and winner is None:
            winner = g.winner
    for d in findings:
        delta = d.pop("_delta", None)
        if delta is not None:
            d["score_if_penalized"] = [s + x for s, x in zip(score, delta)]
    return {"title": md.get("title", ""), "variant": "standard", "deals": len(doc["deals"]),
            "final_score": score, "winner": winner if max(score) >= target else None,
            "findings": findings, "impossible": impossible}
