"""Writing EGN 1.4: a standard Euchre game (its events, annotations and
alternative lines) to an EGN document, by walking the folded
:class:`~euchre_events.projections.Game`: the engine says the trick sizes
(a lone hand plays three to a trick) and the final score; the ruleset comes
from the game's options (:mod:`.ruleset`).
"""
from __future__ import annotations

import copy
import json
from typing import Any, Callable, Iterable, Optional, Sequence

from euchre_events.events import Event, GameStarted, event_from_dict
from euchre_events.formats.egn.ruleset import ruleset_from_options, standard
from euchre_events.formats.egn.schema import EGN_FILE_TYPE, EGN_WRITE_VERSION, player_name
from euchre_events.rules import cards as C
from euchre_events.rules.cards import UNKNOWN
from euchre_events.rules.engine import ImpossibleEvent
from euchre_events.rules.registry import variant_class
from euchre_events.rules.seats import is_placeholder_name


def _egn_card(card: str) -> str:
    """Our card code as EGN writes it: rank upper case, suit lower case (``"Kc"``)."""
    if card == C.JOKER:
        return "B"
    if C.is_unknown(card):   # EGN's own notation for what the record does not state
        return "Xx" if card == UNKNOWN else "X" + card[1].lower()
    if "#" in card:
        raise ValueError(f"EGN cannot write the card {card!r}")
    return card[0] + card[1].lower()



def _egn_item(ev: Event) -> Optional[tuple]:
    """What EGN writes for one event of a deal: ``("call", text, alone)``,
    ``("play", card)``, ``("discard", card)``, ``("defender", seat)``; None
    for the events the reader makes again by itself (the dealer's pick-up, a
    defender who plays with the partner, a deal thrown in after eight
    passes); ``("unwritable",)`` for an event EGN has no place for.  Raises
    ``ValueError`` (the reason) for a no-trump call."""
    k = ev.kind
    if k == "Passed":
        return "call", "Pass", False
    if k == "OrderedUp":
        return "call", "Order", ev.alone
    if k == "TrumpNamed":
        if ev.suit is None:
            raise ValueError("no-trump is not standard Euchre")
        return "call", ev.suit.lower(), ev.alone
    if k == "CardPlayed":
        return "play", ev.card
    if k == "Discarded":
        return "discard", ev.card
    if k == "DefendedAlone":
        return "defender", ev.seat
    if k in ("UpCardPickedUp", "PlayedWithPartner", "DealThrownIn"):
        return None
    return ("unwritable",)


def _note_text(a: dict) -> str:
    """An annotation as EGN writes it: a mark as a leading ``[?!]``."""
    from euchre_events.formats.egn.asread import note_label
    return note_label(str(a.get("text", "")), a.get("mark") or None)


def _put_note(phase: dict, kind: str, index: int, text: str) -> None:
    """Note ``text`` on call or play ``index`` of an EGN phase."""
    key = "callAnnotations" if kind == "call" else "playAnnotations"
    phase.setdefault(key, {}).setdefault(str(index), []).append(text)


def _size_at(g: Any, pos: int) -> int:
    """Cards in the trick under way at event ``pos`` of game ``g`` (the variant's word)."""
    return g.final.variant.trick_size(g.table_at(pos))


def write_egn(events: Sequence[Event], annotations: Iterable = (), variations: Iterable = (),
              warnings: Optional[list] = None, *, with_derived: bool = False,
              as_read: bool = True, check: Optional[Callable] = None) -> dict:
    """An EGN 1.4 document (a dict ready for ``json.dump``) for a standard Euchre game.

    A game read from EGN is written back as it was read (``as_read``, the
    default): the reader kept in ``GameStarted.source["egn"]`` what the
    events do not say (:mod:`.asread`), so the document's EGN baseline (and
    its hash) is the file's, its annotation labels and unknown keys are as
    read; the annotations and lines themselves are the ones given (a stored
    game's annotation stream).  With ``check`` (``check(document) -> bool``:
    :func:`~euchre_events.formats.egn.read.reads_back_to`), the result is
    kept only when the check passes; otherwise it is written from the
    events and ``warnings`` says so.  Derived fields (``finalScore``, dealt hands we
    rebuilt from the play) are written only ``with_derived``.

    ``events``: the game's events (GameStarted first, variant ``standard``);
    ``annotations``: ``[{"position", "text", "mark"}]`` on calls and plays
    (written as ``callAnnotations`` / ``playAnnotations``, a mark as a
    leading ``[?!]``); ``variations``: as :class:`~euchre_events.formats.Record`
    holds them (``{"position", "events", "annotations", "comment"}``, written
    as ``alternativeLines``: :func:`~euchre_events.formats.egn.read_egn_dict`
    reads them back the same, except the ``comment`` and nested lines, which
    EGN cannot hold).  Dealt hands that are fully known are written as
    ``playerCards`` (a partly known hand as ``[]``; for a game read from
    EGN, whose other hands we rebuilt, only ``with_derived``); the dealer's
    discard when known; ``finalScore``, only ``with_derived``, is the folded
    score (rules.md 2.6).

    What EGN 1.4 cannot hold is left out and, if ``warnings`` is a list,
    noted there: a known kitty, annotations on other events, options with no
    EGN ruleset key, a variation's comment or nested lines.  Raises
    ``ValueError`` for a game EGN cannot express (another variant, events
    such as ``UpCardDeclined`` or ``WentAlone`` after the exchange) or events
    that cannot be folded.
    """
    return write_egn_lines(events, annotations, variations, warnings, with_derived=with_derived,
                           as_read=as_read, check=check)[0]


def write_egn_lines(events: Sequence[Event], annotations: Iterable = (), variations: Iterable = (),
                    warnings: Optional[list] = None, *, with_derived: bool = False,
                    as_read: bool = True, check: Optional[Callable] = None) -> tuple:
    """:func:`write_egn`, and where each variation went: ``(document,
    {variation index: (deal index, index in its alternativeLines)})``."""
    from euchre_events.formats.egn import asread as AR
    from euchre_events.projections import Game
    notes_out = warnings if warnings is not None else []
    events = list(events)
    annotations = list(annotations)
    variations = list(variations)
    if not events or not isinstance(events[0], GameStarted):
        raise ValueError("the first event must be GameStarted")
    start = events[0]
    try:
        cls = variant_class(start.variant)
    except ValueError:
        cls = None
    if cls is not type(standard()):
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
    if isinstance(raw_players, list) and [player_name(p) for p in raw_players] == list(start.players):
        md["players"] = copy.deepcopy(raw_players)
    else:
        md["players"] = list(start.players)
    md["initialScore"] = list(game.final.initial_score)
    kept = src.get(AR.SOURCE_KEY) if isinstance(src.get(AR.SOURCE_KEY), dict) else None
    if with_derived:
        md["finalScore"] = list(game.final_score)
    md["ruleset"] = ruleset_from_options(opts, src.get("ruleset") or {}, notes_out)

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
            continue
        try:
            item = _egn_item(ev)
        except ValueError as e:
            raise ValueError(f"event {pos}: {e}") from None
        if item == ("unwritable",) and k in ("RenegeClaimed", "RenegeRuled"):
            # a director's claim or ruling, added after the record: EGN has no
            # place for it, and the record itself is whole without it
            notes_out.append(f"event {pos} ({k}): EGN has no place for a renege claim or ruling; "
                             "left out (export --format text or json keeps it)")
            continue
        if item == ("unwritable",):
            raise ValueError(f"event {pos} ({k}) cannot be written in EGN")
        if item is not None:
            _take(cur, item, pos, len(deals) - 1, where)

    out_deals = []
    if deals and deals[-1]["up"] is None:   # the record stops before the cards are dealt
        notes_out.append(f"deal {deals[-1]['deal']} has no cards dealt yet; left out")
        deals.pop()
    # a game read from EGN: the hands it did not state we rebuilt (derived)
    hands = with_derived or kept is None
    for di, d in enumerate(deals):
        out_deals.append(_egn_deal(d, di, game, notes_out, hands))

    # ---- annotations (a note read from EGN: its label and place as read)
    labels = AR.KeptNotes(kept.get("notes") if kept and as_read else ())
    for a in annotations:
        pos = a.get("position")
        mine = labels.take(a)
        if mine is not None:
            _put_kept(out_deals, mine, notes_out)
            continue
        if pos not in where:
            notes_out.append(f"annotation at event {pos} is not on a call or a play; left out")
            continue
        di, kind, idx = where[pos]
        phases = out_deals[di]["phases"]
        ph = phases[0] if kind == "call" else (phases[1] if len(phases) > 1 else None)
        if ph is None:
            notes_out.append(f"annotation at event {pos} has no phase to go in; left out")
            continue
        _put_note(ph, kind, idx, _note_text(a))

    for mine in labels.unplaced:   # notes the reader could not place: back where they were
        _put_kept(out_deals, mine, notes_out)

    # ---- variations
    placed: dict = {}
    for k, v in enumerate(variations):
        at = _write_variation(v, events, where, deals, out_deals, notes_out)
        if at is not None:
            placed[k] = at

    doc = {"fileType": EGN_FILE_TYPE, "version": EGN_WRITE_VERSION, "metadata": md,
           "deals": out_deals}
    if kept is not None and as_read:
        out = _as_read(doc, kept, variations, placed, game if with_derived else None, notes_out, check)
        if out is None:   # written from the events, as a game not read from EGN (hands known written)
            import dataclasses
            bare = dict(src)
            bare.pop(AR.SOURCE_KEY, None)
            return write_egn_lines([dataclasses.replace(start, source=bare)] + events[1:], annotations,
                                   variations, notes_out, with_derived=with_derived, as_read=False)
        return out
    return doc, placed


def _put_kept(out_deals: list, mine: tuple, notes_out: list) -> None:
    """A note as read (``(deal index, kind, index, label)``) at its place."""
    di, kind, idx, label = mine
    phases = out_deals[di]["phases"] if isinstance(di, int) and 0 <= di < len(out_deals) else []
    ph = next((p for p in phases if p["type"] == ("EUCHRE_BIDDING" if kind == "call" else "TRICK_PLAY")),
              None)
    if ph is None:
        notes_out.append(f"the note {label!r} of deal {di + 1 if isinstance(di, int) else di} has "
                         "no phase to go in; left out")
        return
    _put_note(ph, kind, idx, label)


def _as_read(doc: dict, kept: dict, variations: list, placed: dict,
             game: Any, notes_out: list, check: Optional[Callable]) -> tuple:
    """``doc`` (written from the events) made the document as read: the
    kept patch applied to it without its analysis, the analysis put back,
    each alternative line as read, in its place; then, with ``game``, the
    derived fields (the folded final score, the dealt hands we rebuilt where
    the record states none).  Returns ``(document, placed)``, or None (and
    a line in ``notes_out``) when the kept form does not fit or ``check`` (a
    read back) refuses the result."""
    from euchre_events.formats.egn import asread as AR
    try:
        out = AR.apply_patch(AR.without_analysis(doc, reader_only=False), kept.get("patch") or [])
        out_deals = out["deals"]
        for di, deal in enumerate(doc["deals"]):
            if di >= len(out_deals):
                break
            for key in ("callAnnotations", "playAnnotations"):
                for ph in deal["phases"]:
                    if key in ph:
                        twin = next((p for p in out_deals[di].get("phases", [])
                                     if isinstance(p, dict) and p.get("type") == ph["type"]), None)
                        if twin is None:
                            raise AR.PatchError(f"deal {di + 1} has no {ph['type']} phase")
                        twin[key] = ph[key]
        # the lines: each as read, in the order read; those not replayed too
        by_key = {e.get("key"): e for e in kept.get("lines") or [] if isinstance(e, dict)}
        lines: dict = {}    # deal index -> [(order, line)]
        new_placed: dict = {}
        for k, (di, li) in sorted(placed.items(), key=lambda x: x[1]):
            line = doc["deals"][di]["alternativeLines"][li]
            e = by_key.pop(AR.variation_key(variations[k]), None)
            order = li
            if e is not None and e.get("deal") == di:
                line = e["line"] if "line" in e else AR.apply_patch(line, e.get("patch") or [])
                order = e.get("index", li)
            lines.setdefault(di, []).append((order, k, line))
        for e in kept.get("unread") or []:
            di = e.get("deal")
            if isinstance(di, int) and 0 <= di < len(out_deals):
                lines.setdefault(di, []).append((e.get("index", 0), None, e["line"]))
            else:
                notes_out.append(f"an alternative line of deal {di} as read has no deal to go in; left out")
        for di, items in lines.items():
            if di >= len(out_deals):
                notes_out.append(f"the alternative lines of deal {di + 1} have no deal to go in; left out")
                continue
            items.sort(key=lambda x: x[0])
            out_deals[di]["alternativeLines"] = [line for _, _, line in items]
            for li, (_, k, _) in enumerate(items):
                if k is not None:
                    new_placed[k] = (di, li)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as e:   # PatchError too
        notes_out.append(f"the record as read could not be rebuilt ({e}); written from the events")
        return None
    if game is not None:
        _add_derived(out, doc, game)
    if check is not None and not check(out):
        notes_out.append("the record as read does not give this game back; written from the events")
        return None
    return out, new_placed


def _add_derived(out: dict, doc: dict, game: Any) -> None:
    """The derived fields in the document as read ``out``: the folded final
    score; each dealt hand we rebuilt (fully known, in ``doc``) where the
    record states none."""
    out.setdefault("metadata", {})["finalScore"] = list(game.final_score)
    for mine, theirs in zip(doc["deals"], out.get("deals", [])):
        ours = mine["initialState"].get("playerCards")
        if not ours or not isinstance(theirs, dict):
            continue
        st = theirs.setdefault("initialState", {})
        stated = st.get("playerCards") or []
        st["playerCards"] = [stated[s] if s < len(stated) and stated[s] else ours[s]
                             for s in range(len(ours))]


def _take(cur: dict, item: tuple, pos: int, di: int, where: dict) -> None:
    """Put one :func:`_egn_item` into the deal (or line) being written;
    ``where[pos]`` says which call or play event ``pos`` became."""
    what = item[0]
    if what == "call":
        where[pos] = (di, "call", len(cur["calls"]))
        cur["calls"].append(item[1])
        cur["alone"] = cur["alone"] or item[2]
    elif what == "play":
        where[pos] = (di, "play", len(cur["plays"]))
        cur["plays"].append(item[1])
    elif what == "discard":
        cur["discard"] = item[1]
    else:
        cur["defender"] = item[1]


def _bidding(d: dict) -> dict:
    """The EUCHRE_BIDDING phase of a deal or line being written."""
    bid: dict = {"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": list(d["calls"]),
                 "isAlone": bool(d["alone"])}
    if d["discard"] not in (None, UNKNOWN):
        bid["discard"] = _egn_card(d["discard"])
    if d["defender"] is not None:
        bid["aloneDefender"] = d["defender"]
    return bid


def _tricks(plays: list, size: int, start_in_trick: int = 0) -> dict:
    """The TRICK_PLAY phase: the cards in tricks of ``size`` (see :func:`_chunk`)."""
    return {"phaseNumber": 1, "type": "TRICK_PLAY",
            "tricks": _chunk([_egn_card(c) for c in plays], size, start_in_trick)}


def _egn_deal(d: dict, di: int, game: Any, notes_out: list, with_hands: bool = True) -> dict:
    st: dict = {"dealer": d["dealer"], "upCard": _egn_card(d["up"])}
    hands = d["hands"] or ()
    if with_hands and any(all(c != UNKNOWN for c in h) for h in hands):
        st["playerCards"] = [[_egn_card(c) for c in h] if all(c != UNKNOWN for c in h) else []
                             for h in hands]
    if d["kitty"] and any(c != UNKNOWN for c in d["kitty"]):
        notes_out.append(f"deal {d['deal']}: EGN 1.4 has no place for the kitty; left out")
    phases = [_bidding(d)]
    if d["plays"]:
        first = next(pos for pos in range(d["start"], len(game.events))
                     if game.events[pos].kind == "CardPlayed")
        phases.append(_tricks(d["plays"], _size_at(game, first)))
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
                     notes_out: list) -> Optional[tuple]:
    """One variation as an ``alternativeLine`` of the deal it branches in
    (its ``branchIndex`` counts the deal's calls, then its plays); the line
    is folded from its branch point for its trick sizes.  Returns ``(deal
    index, line index)``, None when it is left out."""
    from euchre_events.projections import Game
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
    branch_index = idx if kind == "call" else len(d["calls"]) + idx
    line_events = [x if isinstance(x, Event) else event_from_dict(x) for x in v.get("events", [])]
    try:
        g = Game(list(events[:pos]) + line_events)
    except ImpossibleEvent as e:
        notes_out.append(f"variation at event {pos} cannot be folded ({e}); left out")
        return
    line = {"calls": [], "alone": False, "discard": None, "defender": None, "plays": []}
    lwhere: dict = {}   # position in the line's stream -> (0, "call"/"play", index)
    first_play = None
    for p, ev in enumerate(line_events, start=pos):
        try:
            item = _egn_item(ev)
        except ValueError as e:
            item, why = ("unwritable",), str(e)
        else:
            why = f"{ev.kind} cannot be written in EGN"
        if item == ("unwritable",):
            notes_out.append(f"variation at event {pos}: {why}; left out")
            return
        if item is not None:
            _take(line, item, p, 0, lwhere)
            if item[0] == "play" and first_play is None:
                first_play = p
    phases = []
    if kind == "call":
        line["alone"] = line["alone"] or any(getattr(e, "alone", False)
                                             for e in events[d["start"]:pos])
        phases.append(_bidding(line))
    if line["plays"]:
        start_in_trick = 0 if kind == "call" else idx % _size_at(g, pos)
        phases.append(_tricks(line["plays"], _size_at(g, first_play), start_in_trick))
    for a in v.get("annotations", []):
        ap = a.get("position")
        if ap not in lwhere:
            notes_out.append(f"variation annotation at event {ap} is not on a call or play; left out")
            continue
        _, kind2, i2 = lwhere[ap]
        _put_note(phases[0] if kind2 == "call" else phases[-1], kind2, i2, _note_text(a))
    if not phases:
        notes_out.append(f"variation at event {pos} is empty; left out")
        return
    out_deals[di].setdefault("alternativeLines", []).append(
        {"branchIndex": branch_index, "phases": phases})
    return di, len(out_deals[di]["alternativeLines"]) - 1


KEPT_UNKNOWN = "written back as read, though the EGN schema does not define it (the EGN validator refuses it): "
"""How a note about a kept unknown key starts (then ``unknown key 'timings' in the file``)."""


def schema_form(doc: dict) -> tuple:
    """``(document without the keys the EGN schema does not know, [one line
    per such key])``; raises ``ValueError`` when that document breaks the
    schema (nothing we write should)."""
    from euchre_events.formats.egn.schema import _NOT_REPLAYED, checked_egn
    checked, _, unknown, errs, _ = checked_egn(doc)
    if errs:
        raise ValueError("the EGN document breaks the schema: " + "; ".join(errs[:5]))
    return checked, [w.rsplit(_NOT_REPLAYED, 1)[0] for w in unknown if _NOT_REPLAYED in w]


def egn_to_json(doc: dict, indent: int = 2) -> str:
    """EGN document as JSON text (UTF-8 characters kept, ``indent`` spaces)."""
    return json.dumps(doc, indent=indent, ensure_ascii=False) + "\n"


def write_egnb(events: Sequence[Event], annotations: Iterable = (), variations: Iterable = (),
               expanded: bool = False, warnings: Optional[list] = None, *,
               with_derived: bool = False, check: Optional[Callable] = None) -> bytes:
    """The binary EGN bytes (:mod:`.binary`) of :func:`write_egn`'s document:
    condensed (bit-packed deals) or ``expanded``.  The document is checked
    against the schema first; keys the schema does not know (kept from the
    record as read) are left out, each noted in ``warnings``.  Raises ``ValueError`` for a game EGN cannot
    express, or a deal the condensed form cannot hold (a card the record
    does not state, a deal that stops inside a trick: use ``expanded``); an
    alternative line it cannot hold is left out and noted in ``warnings``."""
    from euchre_events.formats import RecordError
    from euchre_events.formats.egn.binary import dict_to_egnb
    notes_out = warnings if warnings is not None else []
    doc = write_egn(events, annotations, variations, warnings=notes_out, with_derived=with_derived,
                    check=check)
    doc, unknown = schema_form(doc)
    for w in unknown:   # the protobuf schemas have no field for them
        notes_out.append(f"binary EGN has no place for it: {w}; left out")
    try:
        return dict_to_egnb(doc, expanded=expanded, warnings=notes_out)
    except RecordError as e:
        raise ValueError(e.reason) from None


def write_egn_file(path: str, events: Sequence[Event], annotations: Iterable = (),
                   variations: Iterable = (), *, with_derived: bool = False,
                   check: Optional[Callable] = None) -> list:
    """Write :func:`write_egn` output to ``path`` (checked against the schema
    first, so nothing is written when it fails; keys the schema does not
    know, kept from the record as read, are checked aside and noted),
    through :func:`euchre_events.formats.output.write_output`.  Returns the
    warnings; raises ``OSError`` when ``path`` cannot be written."""
    notes: list = []
    doc = write_egn(events, annotations, variations, warnings=notes, with_derived=with_derived,
                    check=check)
    notes += [KEPT_UNKNOWN + w for w in schema_form(doc)[1]]
    from euchre_events.formats.output import write_output
    write_output(path, egn_to_json(doc))   # whole or not at all; a link or a pipe kept
    return notes



# ------------------------------------------------------------------ EMN

EMN_WRITE_VERSION = "1.0"
"""The EMN version :func:`write_emn` produces (the spec's ``match-specification.md``)."""


def write_emn(games: Sequence, warnings: Optional[list] = None, *, with_derived: bool = False,
              checks: Optional[Sequence] = None) -> dict:
    """An EMN 1.0 document (a dict ready for ``json.dump``): several standard
    Euchre games as one match.

    ``games``: ``[(events, annotations, variations), ...]`` in match order,
    each written by :func:`write_egn` (as read, derived fields only
    ``with_derived``; ``checks[k]``, if given, checks game ``k``).

    Games read from one EMN match (each keeps the match as read in
    ``GameStarted.source["match"]``) are written back with that match's
    metadata (title, matchId, format, result, its player registry with the
    master ids and ``playerIds``) and each game's ``gameIndex`` and master
    ids.  Other games get a registry made from their players
    (``spec/player-tracking.md``): two seats are one player when they share
    a ``playerIds`` entry, or, neither having any, a name; a player keeps
    the master id of an EMN it came from when that id is free, else gets
    ``p-01``, ``p-02``...  Games are numbered 0, 1... in the order given.
    Raises ``ValueError`` when a game cannot be written in EGN or the match
    breaks the EMN schema (nothing we write should).
    """
    from euchre_events.formats.egn.schema import EMN_FILE_TYPE, validate_emn
    notes_out = warnings if warnings is not None else []
    games = list(games)
    if not games:
        raise ValueError("an EMN match needs at least one game")
    datas, starts = [], []
    for k, (events, annotations, variations) in enumerate(games):
        lost: list = []
        check = checks[k] if checks is not None else None
        doc = write_egn(events, annotations, variations, warnings=lost, with_derived=with_derived,
                        check=check)
        schema_form(doc)   # raises when the game breaks the EGN schema
        notes_out.extend(f"game {k + 1}: {w}" for w in lost)
        datas.append(doc)
        starts.append(events[0])
    matches = [(s.source or {}).get("match") if isinstance(s.source, dict) else None for s in starts]
    kept = matches[0].get("metadata") if isinstance(matches[0], dict) else None
    same = kept is not None and all(isinstance(m, dict) and m.get("metadata") == kept for m in matches)
    if same:
        md = copy.deepcopy(kept)
        entries = [{"gameIndex": m.get("gameIndex", k), "players": list(m.get("player_ids", [])),
                    "gameData": d} for k, (m, d) in enumerate(zip(matches, datas))]
    else:
        md, seats = _registry(starts, matches)
        entries = [{"gameIndex": k, "players": seats[k], "gameData": d} for k, d in enumerate(datas)]
        titles = {str(m.get("title")) for m in matches if isinstance(m, dict) and m.get("title")}
        if len(titles) == 1 and all(isinstance(m, dict) for m in matches):
            md = dict({"title": titles.pop()}, **md)
    doc = {"fileType": EMN_FILE_TYPE, "version": EMN_WRITE_VERSION, "metadata": md, "games": entries}
    errs = validate_emn(doc)
    if errs:
        raise ValueError("the EMN document breaks the schema: " + "; ".join(errs[:5]))
    return doc


def _registry(starts: list, matches: list) -> tuple:
    """``({"players": [master entry, ...]}, [[master id per seat] per game])``
    for games that are not one EMN match as read (see :func:`write_emn`)."""
    reg: list = []        # entries {"id", "name", "playerIds"?}
    keys: list = []       # per entry: set of (source, id) pairs
    used: set = set()
    seats_out = []
    for start, match in zip(starts, matches):
        src = start.source if isinstance(start.source, dict) else {}
        raw = src.get("players") if isinstance(src.get("players"), list) else []
        master = {}
        if isinstance(match, dict) and isinstance(match.get("metadata"), dict):
            master = {p.get("id"): p for p in match["metadata"].get("players", []) if isinstance(p, dict)}
        mids = list(match.get("player_ids", [])) if isinstance(match, dict) else []
        seats = []
        for s, name in enumerate(start.players):
            obj = raw[s] if s < len(raw) and isinstance(raw[s], dict) else {}
            came = master.get(mids[s]) if s < len(mids) else None
            pids = [dict(p) for p in list(obj.get("playerIds") or []) + list((came or {}).get("playerIds") or [])
                    if isinstance(p, dict) and "id" in p and "source" in p]
            mine = {(str(p["source"]), str(p["id"])) for p in pids}
            found = None
            for i, e in enumerate(reg):
                if reg[i]["id"] in seats:
                    continue   # one player holds one seat of a game
                # by platform id, else by name; a placeholder name ("North", "P1", "") is
                # a seat, not a person: never the same player across games
                if (mine and mine & keys[i]) or (not mine and not keys[i] and e["name"] == str(name)
                                                 and not is_placeholder_name(str(name))):
                    found = i
                    break
            if found is None:
                want = came.get("id") if came else None
                mid = want if want and want not in used else next(
                    f"p-{n:02d}" for n in range(1, len(used) + 2) if f"p-{n:02d}" not in used)
                used.add(mid)
                reg.append({"id": mid, "name": str(name)[:64]})
                keys.append(set())
                found = len(reg) - 1
            for p in pids:
                pair = (str(p["source"]), str(p["id"]))
                if pair not in keys[found]:
                    keys[found].add(pair)
                    reg[found].setdefault("playerIds", []).append({"id": pair[1], "source": pair[0]})
            seats.append(reg[found]["id"])
        seats_out.append(seats)
    return {"players": reg}, seats_out


def emn_to_json(doc: dict, indent: int = 2) -> str:
    """EMN document as JSON text (UTF-8 characters kept, ``indent`` spaces)."""
    return json.dumps(doc, indent=indent, ensure_ascii=False) + "\n"
