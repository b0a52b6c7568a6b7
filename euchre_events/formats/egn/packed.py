"""EGN's bit-packed deals (the EGN project's ``spec/binary-format.md``,
versions 1 to 3): a deal as a Base64URL string, both ways.

Written from the specification; where it is silent the example files of
``records/egn/binary/`` settle it (``tests/test_egn_binary.py``):

* an integer that can be at most ``m`` takes as many bits as ``m`` has in
  binary (at least one): the dealer of version 1 takes 2 bits, a card index
  into a remaining deck of ``n`` cards ``bit_length(n - 1)`` bits;
* the deck is ordered by rank from the lowest up, and within a rank by the
  suit order of :data:`SUITS`;
* round-2 calls index the three suits other than the up-card's, in the
  same suit order.

Every card is an index into the cards not yet played (``cardsRemaining``),
so a packed deal cannot hold a card the record does not state (``Xd``) or
a no-trump call: :func:`pack_deal` refuses those with :class:`PackError`
(the expanded binary form holds them).
"""
from __future__ import annotations

import base64
from typing import Any, Optional

SUITS = ("s", "h", "c", "d")
"""The suit order of the packed deck and of round-2 calls."""
_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
_MIN_RANK = (9, 8, 7, 6, 2)      # by the 2-bit min-rank code of versions 2 and 3
_END = "1010"


class PackError(ValueError):
    """A packed deal that cannot be read, or a deal that cannot be packed (the reason)."""


def deck(min_rank: int = 9) -> list:
    """The packed deck for ``min_rank`` (24 cards for 9), in packing order."""
    if str(min_rank) not in _RANKS:
        raise PackError(f"no deck starts at rank {min_rank}")
    ranks = _RANKS[_RANKS.index(str(min_rank)):]
    return [r + s for r in ranks for s in SUITS]


def _width(max_value: int) -> int:
    return max(1, int(max_value).bit_length())


class _Bits:
    """Reads a bit string MSB first."""

    def __init__(self, bits: str):
        self.bits, self.pos = bits, 0

    def take(self, n: int) -> str:
        if self.pos + n > len(self.bits):
            raise PackError("the packed deal ends too early")
        s = self.bits[self.pos:self.pos + n]
        self.pos += n
        return s

    def int(self, max_value: int) -> int:
        return int(self.take(_width(max_value)), 2)

    def flag(self) -> bool:
        return self.take(1) == "1"


def _b64_bits(text: str) -> str:
    if not isinstance(text, str) or any(c not in _B64 for c in text):
        raise PackError("not a Base64URL string")
    t = text.replace("-", "+").replace("_", "/").rstrip("=")
    try:
        raw = base64.b64decode(t + "=" * (-len(t) % 4))
    except ValueError as e:
        raise PackError(f"not Base64URL ({e})") from None
    return "".join(f"{b:08b}" for b in raw)


_B64 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=")


# ------------------------------------------------------------------ reading

def unpack_deal(text: str, deal_number: int = 0) -> dict:
    """The EGN deal (a dict of the JSON form) of a packed deal string.
    Raises :class:`PackError` (the reason) for a string that is not one."""
    r = _Bits(_b64_bits(text))
    head = r.bits[:4]
    if head not in ("0001", "0010", "0011"):
        raise PackError("a version 0 (legacy, headerless) packed deal, which this reader does "
                        "not read; only versions 1 to 3")
    version = int(r.take(4), 2)
    if version == 1:
        dealer, n_players, cards = r.int(3), 4, deck(9)
    else:
        dealer, n_players = r.int(7), r.int(7) + 1
        code = r.int(3)
        cards = deck(_MIN_RANK[code])
    up = cards[r.int(len(cards) - 1)]
    state: dict = {"dealer": dealer, "upCard": up}
    if version >= 3 and r.flag():
        state["playerCards"] = [[cards[r.int(len(cards) - 1)] for _ in range(r.int(15))]
                                for _ in range(n_players)]
    deal: dict = {"dealNumber": deal_number, "initialState": state, "phases": []}
    remaining = list(cards)
    alone = defender = False
    for p in range(r.int(7)):
        if r.take(1) == "0":
            ph = _read_bidding(r, up, 0, n_players, version, cards)
            alone, defender = ph["isAlone"], ph.get("aloneDefender", -1) >= 0
        else:
            ph = _read_play(r, _per_trick(n_players, alone, defender), remaining, None)
        ph["phaseNumber"] = p
        deal["phases"].append(ph)
    if r.flag():
        lines = []
        main_calls = sum(len(ph["calls"]) for ph in deal["phases"] if ph["type"] == "EUCHRE_BIDDING")
        for _ in range(r.int(255)):
            bi = r.int(65535)
            rem = _remaining_at(deal, bi, cards)
            phases = []
            a_alone, a_def = alone, defender
            for p in range(r.int(15)):
                if r.take(1) == "0":
                    ph = _read_bidding(r, up, bi, n_players, version, cards)
                    ph["phaseNumber"] = 0
                    a_alone, a_def = ph["isAlone"], ph.get("aloneDefender", -1) >= 0
                else:
                    size = _per_trick(n_players, a_alone, a_def)
                    first = None
                    if p == 0 and bi - main_calls > 0 and (bi - main_calls) % size:
                        first = size - (bi - main_calls) % size   # the rest of a trick begun
                    ph = _read_play(r, size, rem, first)
                    ph["phaseNumber"] = 1
                phases.append(ph)
            lines.append({"branchIndex": bi, "phases": phases})
        deal["alternativeLines"] = lines
    if r.take(4) != _END:
        raise PackError("no end marker: the packed deal is damaged")
    return deal


def _per_trick(n_players: int, alone: bool, defender: bool) -> int:
    return n_players - (2 if defender else 1) if alone else n_players


def _read_notes(r: _Bits) -> Optional[dict]:
    if not r.flag():
        return None
    notes = {}
    for _ in range(r.int(255)):
        k = r.int(255)
        texts = []
        for _ in range(r.int(255)):
            n = r.int(65535)
            raw = bytes(int(r.take(8), 2) for _ in range(n))
            try:
                texts.append(raw.decode("utf-8"))
            except UnicodeDecodeError:
                raise PackError(f"annotation {k} is not UTF-8 text") from None
        notes[str(k)] = texts
    return notes


def _read_bidding(r: _Bits, up: str, start: int, n: int, version: int, cards: list) -> dict:
    calls = []
    made = False
    for _ in range(start, n):
        if r.flag():
            calls.append("Order")
            made = True
            break
        calls.append("Pass")
    if not made:
        others = [s for s in SUITS if s != up[1].lower()]
        for _ in range(max(0, start - n), n):
            v = r.int(3)
            if v:
                calls.append(others[v - 1])
                break
            calls.append("Pass")
    ph: dict = {"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": calls, "isAlone": r.flag()}
    if version >= 2 and ph["isAlone"] and r.flag():
        ph["aloneDefender"] = r.int(7)
    if version >= 3 and r.flag():
        ph["discard"] = cards[r.int(len(cards) - 1)]
    notes = _read_notes(r)
    if notes:
        ph["callAnnotations"] = notes
    return ph


def _read_play(r: _Bits, size: int, remaining: list, first: Optional[int]) -> dict:
    tricks = []
    for t in range(r.int(7)):
        trick = []
        for _ in range(first if t == 0 and first is not None else size):
            if not remaining:
                break
            i = r.int(len(remaining) - 1)
            if i >= len(remaining):
                raise PackError(f"card index {i} is past the {len(remaining)} cards left")
            trick.append(remaining.pop(i))
        tricks.append(trick)
    ph: dict = {"phaseNumber": 1, "type": "TRICK_PLAY", "tricks": tricks}
    notes = _read_notes(r)
    if notes:
        ph["playAnnotations"] = notes
    return ph


def _remaining_at(deal: dict, branch: int, cards: list) -> list:
    """The cards not yet played before action ``branch`` (calls and plays
    counted together) of the deal's main line."""
    rem = list(cards)
    count = 0
    for ph in deal["phases"]:
        if ph["type"] == "EUCHRE_BIDDING":
            if count + len(ph["calls"]) > branch:
                return rem
            count += len(ph["calls"])
            continue
        for trick in ph["tricks"]:
            for c in trick:
                if count >= branch:
                    return rem
                if c in rem:
                    rem.remove(c)
                count += 1
    return rem


# ------------------------------------------------------------------ writing

def _norm(card: Any, cards: list, what: str) -> str:
    t = str(card).strip()
    c = (t[:-1].upper() + t[-1:].lower()) if len(t) == 2 else t
    if c not in cards:
        raise PackError(f"{what} {t!r} is not a card of the packed deck (a card the record does "
                        "not state, a bower letter or the joker cannot be packed; write the "
                        "expanded form)")
    return c


def _int(value: int, max_value: int) -> str:
    if not 0 <= int(value) <= max_value:
        raise PackError(f"{value} is out of the range 0-{max_value} of its packed field")
    return format(int(value), f"0{_width(max_value)}b")


def _notes_bits(notes: Optional[dict]) -> str:
    keys = sorted(int(k) for k in (notes or {}))
    if not keys:
        return "0"
    out = "1" + _int(len(keys), 255)
    for k in keys:
        texts = notes.get(str(k), notes.get(k)) if isinstance(notes, dict) else []
        texts = texts if isinstance(texts, list) else [texts]
        out += _int(k, 255) + _int(len(texts), 255)
        for text in texts:
            raw = str(text).encode("utf-8")
            out += _int(len(raw), 65535) + "".join(f"{b:08b}" for b in raw)
    return out


def _bidding_bits(ph: dict, up: str, start: int, n: int, version: int, cards: list) -> str:
    out = ""
    others = [s for s in SUITS if s != up[1].lower()]
    for i, call in enumerate(ph.get("calls") or []):
        if start + i < n:
            out += "0" if call == "Pass" else "1"
        elif call == "Pass":
            out += "00"
        elif str(call).lower() in others:
            out += _int(others.index(str(call).lower()) + 1, 3)
        else:
            raise PackError(f"round-2 call {call!r} cannot be packed (only a pass or one of the "
                            "three suits other than the up-card's)")
    alone = bool(ph.get("isAlone"))
    out += "1" if alone else "0"
    ad = ph.get("aloneDefender")
    if version >= 2 and alone:
        out += ("1" + _int(ad, 7)) if isinstance(ad, int) and ad >= 0 else "0"
    if version >= 3:
        out += ("1" + _int(cards.index(_norm(ph["discard"], cards, "discard")), len(cards) - 1)
                if ph.get("discard") else "0")
    return out + _notes_bits(ph.get("callAnnotations"))


def _play_bits(ph: dict, remaining: list) -> str:
    tricks = ph.get("tricks") or []
    out = _int(len(tricks), 7)
    for trick in tricks:
        for card in trick:
            c = _norm(card, remaining, "play")
            out += _int(remaining.index(c), len(remaining) - 1)
            remaining.remove(c)
    return out + _notes_bits(ph.get("playAnnotations"))


def pack_deal(deal: dict, n_players: int = 4, min_rank: int = 9,
              lost: Optional[list] = None) -> str:
    """The packed string of an EGN deal (JSON form): version 1 when it fits,
    2 for other seat counts, decks or a lone defender, 3 when it states a
    discard or dealt hands.  Raises :class:`PackError` for what a packed
    deal cannot hold.

    A packed deal counts neither calls nor a trick's cards: the reader
    takes calls until the first that is not a pass and whole tricks (the
    rest of a trick for a line that branches inside one).  So a line that
    stops in the middle of the bidding or of a trick cannot be packed: the
    deal's own play raises :class:`PackError`; such an alternative line
    is left out and, if ``lost`` is a list, noted there (one line of words
    each), else raises too.  Every string returned reads back
    (:func:`unpack_deal`) to the calls and tricks given."""
    main = {k: v for k, v in deal.items() if k != "alternativeLines"}
    why = _unpackable(main, n_players, min_rank)
    if why:
        raise PackError(f"the deal's own play {why}, which a packed deal cannot hold "
                        "(write the expanded form)")
    keep = []
    for ln in deal.get("alternativeLines") or []:
        why = _unpackable(dict(main, alternativeLines=[ln]), n_players, min_rank)
        if not why:
            keep.append(ln)
            continue
        what = f"the alternative line from action {ln.get('branchIndex', 0)} {why}"
        if lost is None:
            raise PackError(what + ", which a packed deal cannot hold (write the expanded form)")
        lost.append(what + ": a packed deal cannot hold it; left out (the expanded form keeps it)")
    return _pack(dict(main, alternativeLines=keep) if keep else main, n_players, min_rank)


def _shape(phases: list) -> list:
    """What a packed deal does not count, phase by phase: the number of
    calls, or each trick's number of cards."""
    return [len(p.get("calls") or []) if p.get("type") == "EUCHRE_BIDDING"
            else [len(t) for t in p.get("tricks") or []] for p in phases]


def _unpackable(deal: dict, n_players: int, min_rank: int) -> str:
    """Why ``deal`` packed does not read back to its calls and tricks (the
    words after "the deal's own play"), or ``""`` when it does."""
    text = _pack(deal, n_players, min_rank)
    try:
        back = unpack_deal(text)
    except PackError:   # the reader ran past where the writer stopped
        back = {}
    lines = [deal] + list(deal.get("alternativeLines") or [])
    read = [back] + list(back.get("alternativeLines") or [])
    if [_shape(ln.get("phases") or []) for ln in lines] != [_shape(r.get("phases") or []) for r in read]:
        return "stops in the middle of the bidding or of a trick"
    return ""


def _pack(deal: dict, n_players: int, min_rank: int) -> str:
    phases = deal.get("phases") or []
    lines = deal.get("alternativeLines") or []
    bids = [p for ln in [phases] + [ln.get("phases") or [] for ln in lines] for p in ln
            if p.get("type") == "EUCHRE_BIDDING"]
    st = deal.get("initialState") or {}
    hands = st.get("playerCards") or []
    dealer = int(st.get("dealer", 0))
    if any(p.get("discard") for p in bids) or any(h for h in hands):
        version = 3
    elif (n_players != 4 or min_rank != 9 or dealer >= 4
          or any(isinstance(p.get("aloneDefender"), int) and p["aloneDefender"] >= 0 for p in bids)):
        version = 2
    else:
        version = 1
    cards = deck(min_rank)
    up = _norm(st.get("upCard"), cards, "upCard")
    if version == 1:
        out = "0001" + _int(dealer, 3)
    else:
        out = _int(version, 15) + _int(dealer, 7) + _int(n_players - 1, 7) + _int(_MIN_RANK.index(min_rank), 3)
    out += _int(cards.index(up), len(cards) - 1)
    if version >= 3:
        if any(h for h in hands):
            out += "1"
            for s in range(n_players):
                h = hands[s] if s < len(hands) else []
                out += _int(len(h), 15) + "".join(
                    _int(cards.index(_norm(c, cards, "playerCards")), len(cards) - 1) for c in h)
        else:
            out += "0"
    out += _int(len(phases), 7)
    remaining = list(cards)
    for ph in phases:
        if ph.get("type") == "EUCHRE_BIDDING":
            out += "0" + _bidding_bits(ph, up, 0, n_players, version, cards)
        else:
            out += "1" + _play_bits(ph, remaining)
    if lines:
        out += "1" + _int(len(lines), 255)
        norm_main = {"phases": [dict(p, tricks=[[_norm(c, cards, "play") for c in t] for t in p["tricks"]])
                                if p.get("type") == "TRICK_PLAY" else p for p in phases]}
        for ln in lines:
            bi = int(ln.get("branchIndex", 0))
            rem = _remaining_at(norm_main, bi, cards)
            alt = ln.get("phases") or []
            out += _int(bi, 65535) + _int(len(alt), 15)
            for ph in alt:
                if ph.get("type") == "EUCHRE_BIDDING":
                    out += "0" + _bidding_bits(ph, up, bi, n_players, version, cards)
                else:
                    out += "1" + _play_bits(ph, rem)
    else:
        out += "0"
    out += _END
    out += "0" * (-len(out) % 8)
    raw = bytes(int(out[i:i + 8], 2) for i in range(0, len(out), 8))
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")
