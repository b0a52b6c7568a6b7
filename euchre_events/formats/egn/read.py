"""Reading EGN and EMN: JSON documents to :class:`~euchre_events.formats.Record`
objects, through a :class:`~euchre_events.formats.builder.RecordBuilder`.

How an EGN deal becomes events is in :func:`read_egn_dict`; the seats of the
cards come from our rules engine (the file lists each trick's cards leader
first, without seats: docs/egn.md), the game's rules from the ruleset
(:mod:`.ruleset`), game end from the variant.
"""
from __future__ import annotations

import copy
import os
import re
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from euchre_events.events import (CardPlayed, CardsDealt, DealStarted, DealThrownIn, DefendedAlone,
                                  Discarded, Event, OrderedUp, Passed, PlayedWithPartner,
                                  TrumpNamed, UpCardPickedUp)
from euchre_events.events import clip
from euchre_events.formats import Record, RecordError, read_record_text
from euchre_events.formats.builder import RecordBuilder
from euchre_events.formats.egn.asread import note_label, split_annotation
from euchre_events.formats.egn.ruleset import (EXCHANGE_TOGGLES, options_from_ruleset, standard,
                                               unsupported_rules)
from euchre_events.formats.egn.schema import (EGN_FILE_TYPE, EMN_FILE_TYPE, MAX_SCHEMA_ERRORS, MORE_ERRORS,
                                              checked_egn, parse_json, player_name, too_many_deals,
                                              validate_emn)
from euchre_events.rules import cards as C
from euchre_events.rules.cards import UNKNOWN, CardError, parse_card
from euchre_events.rules.engine import ImpossibleEvent, Table, apply
from euchre_events.rules.seats import score_text

ROUND1_ACCEPT = ("Order", "PickUp", "Alone", "Call")
"""Round-1 calls that accept the up-card's suit (``Order``; older writers)."""



def _shape() -> tuple:
    """(seats, cards per hand, kitty size) of standard Euchre (rules.md 2.1),
    from the variant: the kitty is what the deal leaves of the deck after the
    hands and the up-card."""
    v = standard()
    return v.n_seats, v.hand_size, len(v.deck()) - v.n_seats * v.hand_size - 1


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


def read_egn_file_partial(path: str, keep: bool = True) -> tuple:
    """``(records, errors)`` of an EGN or EMN file, reading a match game by game.
    ``keep=False``: what only writing the game back as read needs is not
    kept (:func:`read_game`; an audit, which writes no EGN, is faster).

    For an EMN file each game is read on its own: a game that breaks the
    schema or cannot have happened becomes a :class:`RecordError` in
    ``errors`` (its reason starts with ``"game N: "``, N from 1 in the
    match's order) and the good games are returned.  An EGN file, or an EMN
    file that cannot be read as a match at all, gives ``(records, [])`` or
    ``([], [error])``.  Never raises :class:`RecordError`.
    """
    try:
        doc = parse_json(read_record_text(path), path)
        if isinstance(doc, dict) and doc.get("fileType") == EMN_FILE_TYPE:
            errors: list = []
            return _read_emn(doc, path, errors, keep=keep), errors
        return read_egn_dict(doc, path, keep=keep), []
    except RecordError as e:
        return [], [e]


def read_egnb_file(path: str) -> list:
    """The game of a binary EGN file (condensed ``.egnb`` or
    ``.expanded.egnb``, told apart by its magic byte: :mod:`.binary`), read
    as :func:`read_egn_file` reads its JSON twin.  Raises
    :class:`RecordError` naming the file (and deal) when it cannot be read,
    is not binary EGN, or describes something impossible."""
    from euchre_events.formats import read_record_bytes
    from euchre_events.formats.egn.binary import egnb_to_dict
    # a regular file of at most MAX_RECORD_BYTES (the format's own cap), refused before it is read
    return read_egn_dict(egnb_to_dict(read_record_bytes(path), path), path)


def read_egn_text(text: str, path: str = "<text>") -> list:
    """Like :func:`read_egn_file` for the JSON text of a file; ``path`` names it in errors."""
    if not text.strip():
        raise RecordError(path, "the file is empty: it holds no game")
    return read_egn_dict(parse_json(text, path), path)


def read_egn_dict(doc: Any, path: str = "<dict>", keep: bool = True) -> list:
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
    ft = doc.get("fileType", doc.get("file_type"))   # file_type: a v1.1 writer (schema.OLD_KEYS)
    if ft == EMN_FILE_TYPE:
        return _read_emn(doc, path, keep=keep)
    if ft == EGN_FILE_TYPE:
        return [read_game(doc, path, keep=keep)]
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


def _read_emn(doc: dict, path: str, errors: Optional[list] = None, keep: bool = True) -> list:
    """The games of an EMN document.  With ``errors`` a list, a bad game's
    :class:`RecordError` goes there and the other games are still read;
    without it the first bad game raises."""
    errs = validate_emn(doc)
    if errs:
        raise RecordError(path, "breaks the EMN schema: " + "; ".join(errs[:5]))
    md = doc.get("metadata", {})
    ids = {p.get("id"): p.get("name") for p in md.get("players", []) if isinstance(p, dict)}
    listed = [p.get("id") for p in md.get("players", []) if isinstance(p, dict)]
    twice = sorted({str(i) for i in listed if listed.count(i) > 1})
    if twice:   # the EMN spec's validator: "Duplicate master player ID"
        raise RecordError(path, f"metadata.players lists the master id {twice[0]!r} more than once; "
                                "an EMN match gives each player one master id")
    out = []
    for k, g in enumerate(doc["games"]):
        gd = g["gameData"]
        label = f"game {k + 1}"
        # the match as read goes with each game (the EMN writer writes it back)
        match = {"title": md.get("title", ""), "matchId": md.get("matchId"),
                 "gameIndex": g["gameIndex"], "player_ids": list(g["players"]),
                 "format": md.get("matchFormat"), "metadata": copy.deepcopy(md)}
        match = {a: b for a, b in match.items() if b is not None}
        # the master player of each seat (name, playerIds): how the archive's statistics know a player
        masters = {p.get("id"): p for p in md.get("players", []) if isinstance(p, dict)}
        match["players"] = [copy.deepcopy(masters[pid]) if pid in masters else None for pid in g["players"]]
        try:
            unknown = [pid for pid in g["players"] if pid not in ids]
            if unknown:   # the EMN spec: every seat holds a master id of metadata.players
                raise RecordError(path, f"{label}: players names the master id {unknown[0]!r}, which "
                                        f"metadata.players does not list (it lists "
                                        f"{', '.join(map(str, listed)) or 'none'}); an EMN game's "
                                        "players must be master ids of the match")
            if not isinstance(gd, dict) or gd.get("fileType") != EGN_FILE_TYPE:
                ft = gd.get("fileType") if isinstance(gd, dict) else type(gd).__name__
                raise RecordError(path, f"{label}: gameData is not an EGN game (fileType {ft!r})")
            rec = read_game(gd, path, label=label, match=match, keep=keep)
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


_BY_TRUMP = re.compile(r"(?:[9TJQKAN]|10)[tn]")
"""EGN's trump-relative cards (its README, "Card Representation"): a rank
and ``t`` (the trump suit) or ``n`` (the next suit, trump's colour): ``Kt``
is the king of trump, ``Jn`` the left bower.  Its other generic suits
(``g``, the green suits, and ``x``, unknown) say no suit: ``??``; ``h`` is
read as hearts, as everywhere else in EGN."""


def _by_trump(text: str, trump: Optional[str], what: str, when: str = "") -> Optional[str]:
    """The card code of a trump-relative EGN card (``Kt`` -> ``KD`` when
    diamonds are trump, ``Qn`` -> ``QH``), or None when ``text`` is not one.
    Raises :class:`_Bad` naming ``what`` when ``trump`` is None: ``when``
    says why it is not known (the cards are dealt before anyone calls), or
    the deal is played at no-trump."""
    if not _BY_TRUMP.fullmatch(text):
        return None
    if trump is None:
        why = when or "this deal is played at no-trump"
        raise _Bad(f"{what}: {clip(repr(text), 20)} names a card by trump ('t' the trump suit, 'n' the "
                   f"next suit), but {why}")
    rank = {"10": "T", "N": "9"}.get(text[:-1], text[:-1])
    return rank + (trump if text[-1] == "t" else C.SAME_COLOUR[trump])


_DEALT = "trump is not known when the cards are dealt"


def _card(text: Any, what: str, trump: Optional[str] = None, when: str = _DEALT) -> str:
    if text == "" or text is None:
        return UNKNOWN
    card = _by_trump(str(text).strip(), trump, what, when)
    if card is not None:
        return card
    try:
        card = parse_card(str(text))
    except CardError as e:
        raise _Bad(f"{what}: {e}") from None
    return _no_joker(card, text, what)


def _no_joker(card: str, text: Any, what: str) -> str:
    """``card``, unless it is the joker: this reader replays standard Euchre,
    whose deck has none (rules.md 2.1; EGN writes the joker ``B``)."""
    if card == C.JOKER:
        raise _Bad(f"{what}: {clip(repr(text), 20)} is the joker (benny), but standard Euchre is "
                   "played without one (rules.md 2.1)")
    return card



def read_game(doc: dict, path: str, label: str = "", match: Optional[dict] = None,
               skipped: Optional[list] = None, keep: bool = True) -> Record:
    """One EGN game.  With ``skipped`` a list (the deal-by-deal audit), a
    deal that breaks the schema or cannot have happened is left out and its
    :class:`RecordError` appended as ``(deal number, error)``; the other deals
    are read as one game.  Without it the first bad deal raises.  With
    ``keep`` (and no ``skipped``), what the writer needs to write the game
    back as read goes in its source (:mod:`.asread`)."""
    pre = f"{label}: " if label else ""
    too_many = too_many_deals(doc.get("deals")) if isinstance(doc, dict) else None
    if too_many:   # before anything walks the deals: the work stays that of the file's size
        raise RecordError(path, pre + "breaks the EGN schema: " + too_many)
    doc = _unpack_string_deals(doc, path, pre)
    # with ``skipped``, a deal that breaks the schema is one bad deal
    schema_doc, full, warnings, errs, deal_errs = checked_egn(doc, by_deal=skipped is not None)
    if errs:
        more = ("" if len(errs) <= 5 else " (and more: the check stops at the first "
                f"{MAX_SCHEMA_ERRORS})" if errs[-1] == MORE_ERRORS else f" (and {len(errs) - 5} more)")
        raise RecordError(path, pre + "breaks the EGN schema: " + "; ".join(errs[:5]) + more)
    md = full["metadata"]
    ruleset = md.get("ruleset", {}) or {}
    v = standard()
    deals = full["deals"]
    unused = []
    for k, ours in unsupported_rules().items():
        if k in ruleset and ruleset[k] != ours and ruleset[k] is not None:
            if k != "num_players" and not _toggle_used(k, deals):
                unused.append(k)   # a house rule the table allowed but nobody used
                continue
            raise RecordError(path, pre + f"ruleset {k}={ruleset[k]!r} is not standard Euchre and "
                                          f"this record uses it; this reader replays standard "
                                          f"{v.n_seats}-player Euchre only")
    for i, d in enumerate(deals):
        if isinstance(d, str) and skipped is None:
            raise RecordError(path, pre + "packed (string) deals are not supported", deal=i + 1)
    players = tuple(player_name(p) for p in md["players"])
    if len(players) != v.n_seats:
        raise RecordError(path, pre + f"{len(players)} players listed; standard Euchre has {v.n_seats}")
    opts_warn: list = []
    options = options_from_ruleset(ruleset, deals, opts_warn)
    init = md.get("initialScore")   # one per side: the engine checks it (rules.registry)
    source = {"file": os.path.basename(path) if path and not path.startswith("<") else path,
              "format": "egn", "version": str(doc.get("version", ""))}
    for k in ("date", "description", "gameId"):
        if md.get(k):
            source[k] = md[k]
    if ruleset:
        source["ruleset"] = dict(ruleset)
    if any(isinstance(p, dict) for p in md["players"]):
        source["players"] = copy.deepcopy(md["players"])
    if match:
        source["match"] = match
    b = RecordBuilder(path, "egn", label=pre, source=source)
    for w in warnings + opts_warn:
        b.warn(pre + w)
    for k in unused:
        b.warn(pre + f"ruleset {k}={ruleset[k]!r}: no deal of this record uses it, so it is read "
                     "as standard Euchre (the toggle is kept in the source)")
    readable = [d for i, d in enumerate(deals) if isinstance(d, dict) and i not in deal_errs]
    first_dealer = readable[0]["initialState"]["dealer"] if readable else 0
    b.start_game(v.name, options, players, first_dealer=first_dealer,
                 initial_score=[int(x) for x in init] if init else None,
                 title=md.get("title", ""), source=source)
    if md.get("finalScore") is not None and skipped is None:
        b.state_final_score(md["finalScore"])
    conv = _Converter(b)
    conv.convert(deals, skipped, deal_errs)
    rec = b.finish()
    if skipped is None and keep:
        _keep_as_read(rec, full, conv)
    return rec


def _keep_as_read(rec: Record, full: dict, conv: "_Converter") -> None:
    """Put in ``rec``'s source (``source["egn"]``, :mod:`.asread`) what the
    writer needs to write the game back as read: the patch from what it
    writes to the document as read, the labels and places of notes it would
    write otherwise, the alternative lines.  A game our writer cannot write
    (not standard Euchre) keeps nothing."""
    import dataclasses
    from euchre_events.formats.egn import asread
    from euchre_events.formats.egn.write import write_egn_lines
    # written as the writer writes a game read from EGN (an empty residue:
    # no rebuilt hands), without the annotations (the stream holds them)
    marked = [dataclasses.replace(rec.events[0], source=dict(rec.source, **{asread.SOURCE_KEY: {}}))]
    try:
        doc, placed = write_egn_lines(marked + list(rec.events[1:]), (), rec.variations, [],
                                      with_derived=False, as_read=False)
    except ValueError:
        return
    lines_written = {k: doc["deals"][di]["alternativeLines"][li] for k, (di, li) in placed.items()}
    kept: dict = {"patch": asread.diff(asread.without_analysis(doc),
                                       asread.without_analysis(full))}
    if conv.kept_notes:
        kept["notes"] = conv.kept_notes
    lines = []
    for k, di, j in conv.line_map:
        raw = full["deals"][di]["alternativeLines"][j]
        mine = lines_written.get(k)
        entry = {"key": asread.variation_key(rec.variations[k]), "deal": di, "index": j}
        if mine is None:   # written nowhere by us: keep it whole
            entry["line"] = asread.clean_line(raw)
        else:
            entry["patch"] = asread.diff(mine, asread.clean_line(raw))
            if not entry["patch"] and placed[k] == (di, j):
                continue   # we write it so, there
        lines.append(entry)
    if lines:
        kept["lines"] = lines
    unread = [{"deal": di, "index": j, "line": asread.clean_line(full["deals"][di]["alternativeLines"][j])}
              for di, j in conv.unread]
    if unread:
        kept["unread"] = unread
    source = dict(rec.source, **{asread.SOURCE_KEY: kept})
    rec.source = source
    rec.events[0] = dataclasses.replace(rec.events[0], source=source)


def reads_back_to(events: Sequence[Event]):
    """A check for :func:`~euchre_events.formats.egn.write.write_egn`:
    ``check(document) -> bool``, true when the EGN document reads back to
    ``events`` (the GameStarted compared without its source; a director's
    claims and rulings, which EGN has no place for and the writer leaves
    out, not compared)."""
    import dataclasses
    want = [e for e in events if e.kind not in ("RenegeClaimed", "RenegeRuled")]

    def check(doc: dict) -> bool:
        try:
            back = read_game(doc, "<export>", keep=False).events
        except (RecordError, ValueError):
            return False
        bare = lambda e: dataclasses.replace(e, source={})
        return [bare(back[0])] + back[1:] == [bare(want[0])] + want[1:]
    return check


def _unpack_string_deals(doc: Any, path: str, pre: str) -> Any:
    """``doc`` with its bit-packed (string) deals unpacked (:mod:`.packed`),
    as the EGN schema allows them in JSON; a copy only when it has some."""
    from euchre_events.formats.egn.packed import PackError, unpack_deal
    deals = doc.get("deals") if isinstance(doc, dict) else None
    if not isinstance(deals, list) or not any(isinstance(d, str) for d in deals):
        return doc
    out = []
    for i, d in enumerate(deals):
        if isinstance(d, str):
            try:
                d = unpack_deal(d, i)
            except PackError as e:
                raise RecordError(path, pre + f"packed deal {i + 1} cannot be read: {e}", deal=i + 1) from None
        out.append(d)
    return dict(doc, deals=out)


def _toggle_used(key: str, deals: list) -> bool:
    """Whether an EGN deal list (main and alternative lines) uses the house
    rule ``key``: a joker card (``B``), a no-trump call (``n``), a card
    exchange (``cardExchanges``: the farmer's hand, partner's best, going
    under), a card below the nine."""
    def cards(ph: dict, st: dict) -> list:
        out = [st.get("upCard"), ph.get("discard")]
        out += [c for h in st.get("playerCards") or st.get("player_cards") or [] for c in h]
        out += [c for t in ph.get("tricks") or [] for c in t]
        return [str(c) for c in out if c]
    for d in deals:
        if not isinstance(d, dict):
            continue
        st = d.get("initialState") or {}
        lines = [d.get("phases") or []] + [a.get("phases") or [] for a in d.get("alternativeLines") or []
                                           if isinstance(a, dict)]
        for ph in (p for line in lines for p in line if isinstance(p, dict)):
            cs = cards(ph, st)
            if key == "joker" and any(c.upper() == "B" for c in cs):
                return True
            if key == "allow_no_trump" and "n" in (ph.get("calls") or []):
                return True
            if key in EXCHANGE_TOGGLES and ph.get("cardExchanges"):
                return True
            if key == "min_rank" and any(c[:1] in "2345678" for c in cs):
                return True
    return False


def _notes(d: Any) -> dict:
    """``{index: [text, ...]}`` from an EGN annotations object."""
    out: dict = {}
    if isinstance(d, dict):
        for k, v in d.items():
            texts = v if isinstance(v, list) else [v]
            out[int(k)] = [str(t) for t in texts]
    return out


_EXCHANGE_REFUSED = ("it records cardExchanges (cards passed between seats or with the kitty: "
                     "EGN farmers, partners_best, go_under); standard Euchre replays no card "
                     "exchange (rules.md 2.1-2.2), so the deal cannot be replayed as recorded")


class _DealData:
    """One EGN deal (or an alternative line spliced into one), parsed."""

    def __init__(self, deal: dict):
        st = deal["initialState"]
        self.dealer = st["dealer"]
        n_seats = _shape()[0]
        if not 0 <= self.dealer < n_seats:
            raise _Bad(f"dealer seat {self.dealer} does not exist (seats 0-{n_seats - 1})")
        self.up = _card(st["upCard"], "upCard", when="trump is not known when the up-card is turned")
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
        # the dealer discards after taking up the up-card, whose suit is then trump (rules.md 2.2)
        taken = any(str(c).strip() in ROUND1_ACCEPT for c in self.calls[:n_seats])
        self.discard = _card(b["discard"], "discard", C.suit_of(self.up) if taken else None,
                             "the up-card was not taken up") if b.get("discard") else None
        ad = b.get("aloneDefender")
        self.alone_defender = ad if isinstance(ad, int) and ad >= 0 else None
        self.call_notes = _notes(b.get("callAnnotations"))
        self.exchanges = b.get("cardExchanges")
        self.plays = [str(c) for t in p.get("tricks", []) for c in t]
        self.trick_lens: Optional[list] = [len(t) for t in p.get("tricks", [])]
        self.play_notes = _notes(p.get("playAnnotations"))
        self.initial_lead = p.get("initialLead")


@dataclass
class _Driven:
    """What :func:`_drive` produced: events and the global position of each
    call and play, the seat and card code of every play, the index (in
    ``events``) of the Discarded event."""

    events: list = field(default_factory=list)
    call_pos: list = field(default_factory=list)
    play_pos: list = field(default_factory=list)
    seats: list = field(default_factory=list)
    cards: list = field(default_factory=list)
    discard_at: Optional[int] = None


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
        if c.lower() == "x":   # EGN: a suit was named, the record does not say which
            raise _Bad(f"call {index} is 'x': trump was named but the record does not say which suit; "
                       "a deal whose trump is unknown is not replayed (refused rather than guessed)")
        raise _Bad(f"call {index} ({call!r}) is not a round-2 call (Pass or a suit letter)")
    raise _Bad(f"call {index} ({call!r}) comes after the bidding ended")


def _drive(t: Table, dd: _DealData, call_start: int, play_start: int, offset: int,
           discard: Optional[str]) -> _Driven:
    """Apply calls ``dd.calls[call_start:]``, the exchanges, and plays
    ``dd.plays[play_start:]`` to the working table ``t``, letting the engine
    say whose turn it is (rules.md 2.2-2.5: who bids, who leads, who wins
    each trick).  ``offset`` is the global position of the first event made;
    ``discard`` the dealer's discard (``None``: unknown, written ``"??"``).
    Raises :class:`_Bad` with the global ``position`` of the failing event.
    """
    line = _Driven()

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
        if seat != (dd.dealer + 1 + i) % t.n_seats:  # pragma: no cover - the engine's turn order is the same
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
    if dd.trick_lens and play_start == 0 and t.phase == "play":
        _check_tricks(dd.trick_lens, t.n_seats - len(t.out), offset + len(line.events))
    for k in range(play_start, len(dd.plays)):
        text = dd.plays[k]
        if t.phase != "play":
            if t.phase in ("round1", "round2"):
                raise _Bad(f"cards are played but the bidding has not ended "
                           f"({len(dd.calls)} calls)", offset + len(line.events))
            raise _Bad(f"play {k} ({text}) comes after the deal ended", offset + len(line.events))
        try:
            card = _resolve_bower(text, t.trump)
        except _Bad as e:
            raise _Bad(f"play {k}: {e.reason.split(': ', 1)[-1]}", offset + len(line.events)) from None
        seat = t.turn
        line.play_pos.append(offset + len(line.events))
        line.seats.append(seat)
        line.cards.append(card)
        put(CardPlayed(seat, card))
    return line


def _check_tricks(lens: Sequence[int], size: int, first: int) -> None:
    """Raise :class:`_Bad` if an EGN trick holds more cards than a trick of
    the deal has (``size``: one per player in the deal), or one before the
    last holds fewer: the flat play order would otherwise put the extra card
    into the next trick and blame a seat that did nothing wrong.  ``first``
    is the position of the deal's first play."""
    pos = first
    for i, n in enumerate(lens):
        if n > size or (n < size and i < len(lens) - 1):
            more = "more" if n > size else "fewer"
            raise _Bad(f"trick {i + 1} holds {n} cards, {more} than the {size} of a trick in this "
                       f"deal (one per player{' who plays' if size < 4 else ''})",
                       pos + min(n, size))
        pos += n


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
    """Turns EGN deals into events for a :class:`RecordBuilder`: the engine,
    on a copy of the builder's table, gives the seat of every call and card;
    the builder then folds the deal for real (reneges are kept)."""

    def __init__(self, b: RecordBuilder):
        self.b = b
        self.deal_index = 0
        # what the writer needs to write the record back as read (.asread)
        self.kept_notes: list = []   # [position or None, deal index, kind, index, label]
        self.line_map: list = []     # (variation index, deal index, line index)
        self.unread: list = []       # (deal index, line index): lines not replayed

    # -------------------------------------------------------------- the game
    def convert(self, deals: list, skipped: Optional[list] = None,
                bad: Optional[dict] = None) -> None:
        """Every deal into the builder.  With ``skipped`` a list, a deal that
        cannot be read is left out (the builder rolls back to before it) and
        ``(deal number, RecordError)`` appended; ``bad``: ``{deal index:
        [schema error, ...]}``, deals refused without reading them."""
        b = self.b
        b.table   # the GameStarted is the game's, not a deal's: a bad one refuses the game
        for i, deal in enumerate(deals):
            n = i + 1
            if skipped is not None and (i in (bad or {}) or isinstance(deal, str)):
                why = ("breaks the EGN schema: " + "; ".join(bad[i][:5]) if i in (bad or {})
                       else "packed (string) deals are not supported")
                skipped.append((n, b.error(why, n)))
                continue
            self.deal_index = i
            if deal.get("dealNumber") is not None:
                b.name_deal(n, f"EGN dealNumber {deal['dealNumber']}")
            if skipped is None:
                self.deal(deal, n)
                continue
            mark = b.mark()
            try:
                self.deal(deal, n)
            except RecordError as e:
                b.rollback(mark)
                skipped.append((n, e))

    def deal(self, deal: dict, n: int) -> None:
        """Deal ``n`` (from 1): its events, notes and alternative lines."""
        b = self.b
        try:
            dd = _DealData(deal)
        except _Bad as e:
            raise b.error(e.reason, n) from None
        if dd.exchanges:   # never dropped silently: the hands played would not be the hands dealt
            raise b.error(_EXCHANGE_REFUSED, n)
        t = b.table
        if t.game_over:   # real records go on after a win: kept, flagged by the engine (rules.md 1.6)
            b.warn(f"deal {n}: played after the game was won "
                   f"({score_text(t.official_scores)}, official score); kept and flagged, "
                   "it does not count")
        deal_events, line = self.deal_events(t, n, dd)
        for ev in deal_events:
            b.add(ev)
        self.deal_annotations(dd, n, line)
        for j, alt in enumerate(deal.get("alternativeLines") or []):
            self.variation(dd, line, deal, alt, n, j)

    # -------------------------------------------------------------- a deal
    def deal_events(self, t: Table, n: int, dd: _DealData) -> tuple:
        """(events of deal ``n``, its :class:`_Driven`), ``t`` being the table before it."""
        b = self.b
        n_seats, hand_size, kitty_size = _shape()
        base = t.pos
        # pass 1: every hand unknown; the engine gives the seat of every card
        scratch = t.copy()
        head = DealStarted(n, dd.dealer)
        blank = CardsDealt(tuple((UNKNOWN,) * hand_size for _ in range(n_seats)), dd.up,
                           (UNKNOWN,) * kitty_size)
        for k, ev in enumerate((head, blank)):
            try:
                apply(scratch, ev)
            except ImpossibleEvent as e:
                raise b.error(e.reason, n, base + k, ev) from None
        # a spare unknown card each: the dealer may discard an unknown card and
        # still play the cards the record states (the up-card being the discard)
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
            raise b.error(reason, n, e.position, ev) from None
        if dd.initial_lead is not None and line.seats and line.seats[0] != dd.initial_lead:
            raise b.error(f"initialLead says seat {dd.initial_lead} leads, but the rules of "
                          f"this game give the lead to seat {line.seats[0]}", n,
                          line.play_pos[0], CardPlayed(line.seats[0], line.cards[0]))
        out = set(scratch.out)
        picked = any(isinstance(e, UpCardPickedUp) for e in line.events)
        played = [[] for _ in range(n_seats)]
        for s, c in zip(line.seats, line.cards):
            played[s].append(c)
        hands = []
        discard = dd.discard
        for s in range(n_seats):
            given = dd.hands[s] if s < len(dd.hands) else []
            if given:
                if len(given) != hand_size:
                    raise b.error(f"playerCards[{s}] holds {len(given)} cards, not {hand_size}", n)
                hands.append(tuple(given))
                if picked and s == dd.dealer and discard is None:
                    rest = _left_after(list(given) + [dd.up], played[s])
                    if len(played[s]) == hand_size and len(rest) == 1:
                        discard = rest[0]   # the one card the dealer did not play
                continue
            if s in out and not played[s]:
                hands.append((UNKNOWN,) * hand_size)
                continue
            h = list(played[s])
            if picked and s == dd.dealer:
                if dd.up in h:
                    h.remove(dd.up)
                    h.append(discard if discard is not None else UNKNOWN)
                elif len(h) == hand_size:
                    # the dealer took the up-card and never played it: it was the discard
                    if discard is not None and discard != dd.up:
                        raise b.error(
                            f"the dealer (seat {s}) took up {dd.up} and discarded {discard}, "
                            f"but never played {dd.up}", n)
                    discard = dd.up
                elif discard is not None and discard != dd.up:
                    h.append(discard)
            if len(h) > hand_size:
                raise b.error(f"seat {s} plays {len(h)} cards in this deal", n)
            hands.append(tuple(h + [UNKNOWN] * (hand_size - len(h))))
        body = list(line.events)
        if line.discard_at is not None:
            body[line.discard_at] = Discarded(dd.dealer, discard if discard is not None else UNKNOWN)
        # an unstated kitty is unknown; the engine checks a stated one (rules.md 2.1)
        kitty = dd.kitty if any(c != UNKNOWN for c in dd.kitty) else (UNKNOWN,) * kitty_size
        return [head, CardsDealt(tuple(hands), dd.up, tuple(kitty))] + body, line

    def deal_annotations(self, dd: _DealData, n: int, line: _Driven) -> None:
        """The deal's call and play annotations, on the events they are about."""
        b = self.b
        di = self.deal_index
        for k, texts in sorted(dd.call_notes.items()):
            if k < len(line.call_pos):
                pos = line.call_pos[k]
            elif line.call_pos:
                pos = line.call_pos[-1]
                b.warn(f"deal {n}: call annotation {k} is past the last call "
                       f"({len(line.call_pos) - 1}); attached to the last call (export "
                       f"writes it back at call {k})")
            else:
                b.warn(f"deal {n}: call annotation {k} has no call; left out (export writes it back)")
                pos = None
            self._notes(texts, pos, di, "call", k, k < len(line.call_pos))
        for k, texts in sorted(dd.play_notes.items()):
            pos = line.play_pos[k] if k < len(line.play_pos) else None
            if pos is None:
                b.warn(f"deal {n}: play annotation {k} is past the last play; left out "
                       "(export writes it back)")
            self._notes(texts, pos, di, "play", k, pos is not None)

    def _notes(self, texts: list, pos: Optional[int], di: int, kind: str, k: int,
               in_place: bool) -> None:
        """Annotate ``pos`` with each text; keep the label and place of a note
        the writer would write otherwise (:mod:`.asread`)."""
        for text in texts:
            note, mark = split_annotation(text)
            if pos is not None:
                self.b.annotate(note, mark, position=pos)
            if pos is None or not in_place or text != note_label(note, mark):
                self.kept_notes.append([pos, di, kind, k, text])

    # -------------------------------------------------------------- variations
    def variation(self, dd: _DealData, main: _Driven, deal: dict, alt: dict, n: int, j: int) -> None:
        """An EGN alternative line as a variation: ``position`` = the event it
        replaces, ``events`` = the rest of the deal along the line,
        annotations with positions in the line's own stream.  A line that
        cannot be replayed is left out, with a warning.  EGN has no comment
        for a line: ``comment`` is ``""``."""
        bi = alt["branchIndex"]
        ncalls = len(dd.calls)
        where = f"from call {bi}" if bi < ncalls else f"from play {bi - ncalls}"
        try:
            alt_dd = _DealData({"initialState": deal["initialState"], "phases": alt["phases"]})
            if alt_dd.exchanges:
                raise _Bad(_EXCHANGE_REFUSED)
            self.branch(dd, main, alt_dd, bi)
        except _Bad as e:
            self.b.warn(f"deal {n}: alternative line {j + 1} ({where}) could not be replayed "
                        f"({e.reason}); left out")
            self.unread.append((self.deal_index, j))
        else:
            self.line_map.append((len(self.b.main.variations) - 1, self.deal_index, j))

    def branch(self, dd: _DealData, main: _Driven, alt: _DealData, bi: int) -> None:
        """Replay the line on a copy of the table at its branch point (the
        engine gives the seats), then hand it to the builder.  Raises
        :class:`_Bad` (the builder's line is dropped)."""
        b = self.b
        ncalls = len(dd.calls)
        line = copy.copy(dd)
        line.initial_lead = None
        line.trick_lens = None   # the line's plays are spliced: the main line's tricks say nothing
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
        b.begin_variation(position)
        try:
            t = b.table
            discard = line.discard
            if bi < ncalls:
                # pass 1 with unknown hands for the seats, then work out an unrecorded discard
                seen = _drive(_blank(t), line, call_start, play_start, position, discard)
                if seen.discard_at is not None and discard is None:
                    mine = [c for s, c in zip(seen.seats, seen.cards) if s == dd.dealer]
                    rest = _left_after(list(t.hands[dd.dealer]) + [t.up_card], mine)
                    if len(rest) == 1 and len(mine) == _shape()[1]:
                        discard = rest[0]
            real = _drive(t.copy(), line, call_start, play_start, position, discard)
            if alt.initial_lead is not None and real.seats and real.seats[0] != alt.initial_lead:
                raise _Bad(f"its initialLead {alt.initial_lead} is not seat {real.seats[0]}, "
                           "who plays its first card")
            for ev in real.events:
                b.add(ev)
        except (_Bad, RecordError):
            b.drop_variation()
            raise
        for pos, texts in [(real.call_pos[k], ts) for k, ts in sorted(alt.call_notes.items())
                           if k < len(real.call_pos)] + \
                          [(real.play_pos[k], ts) for k, ts in sorted(alt.play_notes.items())
                           if k < len(real.play_pos)]:
            for text in texts:
                b.annotate(*split_annotation(text), position=pos)
        b.end_variation()


def _resolve_bower(text: str, trump: Optional[str]) -> str:
    """A played card code; EGN's ``R``/``L`` (right/left bower) and its
    trump-relative cards (``Kt``, ``Jn``: :func:`_by_trump`) need the trump."""
    t = str(text).strip()
    if t.upper() in ("R", "L"):
        if trump is None:
            return UNKNOWN if t else t
        return C.right_bower(trump) if t.upper() == "R" else C.left_bower(trump)
    card = _by_trump(t, trump, "play")   # Kt: the king of trump, once trump is made
    if card is not None:
        return card
    try:
        card = parse_card(t)
    except CardError as e:
        raise _Bad(f"play {clip(repr(t), 20)}: {e}") from None
    return _no_joker(card, t, "play")
