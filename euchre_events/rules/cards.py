"""Cards, suits, decks and the trump-dependent card order of the Euchre family.

Cards are represented by canonical code strings, which are cheap to hash,
compare and store as JSON:

* rank ``9 T J Q K A`` (``10`` is accepted on input) followed by a suit letter
  ``C D H S``: ``"JD"`` is the jack of diamonds, ``"TH"`` the ten of hearts;
* ``"JK"`` is the joker (rules.md 7.8);
* in a double deck (rules.md 7.10) every card carries a copy index:
  ``"JS#1"`` and ``"JS#2"`` are the two jacks of spades;
* ``"??"`` is a card the record does not state (docs/design.md, "Unknown").

:class:`Card` is a ``str`` subclass with properties; every function here
accepts plain strings too.  Nothing in this module does I/O (Jupyter draws a
Card through :mod:`euchre_events.ui.display`).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Iterable, Optional, Sequence

SUITS = ("C", "D", "H", "S")
"""Suit letters in the order clubs, diamonds, hearts, spades."""
RANKS = ("9", "T", "J", "Q", "K", "A")
"""Ranks from low to high in a plain suit (the jack's place changes under trump)."""
JOKER = "JK"
UNKNOWN = "??"
"""A card the record does not state at all."""
UNKNOWN_OF = {s: "?" + s for s in SUITS}
"""``"?D"``: a card whose printed suit the record states (EGN ``Xd``) but
not its rank.  Never guessed: its effective suit is decided only when every
card it could be agrees (:func:`possible_suits`); the engine decides a
trick with one only when every card it could be wins the same way."""

SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SINGULAR = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
RANK_NAMES = {"9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
RED_SUITS = frozenset("DH")
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}
"""The suit of the same colour: its jack is the left bower (rules.md 1.1)."""

_SYMBOL_TO_SUIT = {
    "\u2663": "C", "\u2667": "C", "\u2666": "D", "\u2662": "D",
    "\u2665": "H", "\u2661": "H", "\u2660": "S", "\u2664": "S",
}


_GENERIC_SUITS = frozenset("xtng")
"""EGN's suit letters for a suit the record does not name (``x`` unknown;
``t``, ``n``, ``g`` generic suits): a card written with one is unknown."""


class CardError(ValueError):
    """A card or suit code that cannot be read."""


class Card(str):
    """A card code (``"JD"``, ``"JS#2"``, ``"JK"``, ``"??"``) with helpers.

    ``Card("10d") == "TD"``; use :func:`parse_card` for any spelling.
    """

    __slots__ = ()

    def __new__(cls, text: str) -> "Card":
        return str.__new__(cls, parse_card(text))

    @property
    def rank(self) -> Optional[str]:
        """Rank letter (``9 T J Q K A``), ``None`` for the joker or an unknown card."""
        return rank_of(self)

    @property
    def suit(self) -> Optional[str]:
        """Printed suit letter, ``None`` for the joker or an unknown card."""
        return suit_of(self)

    def name(self) -> str:
        """The card in words: ``"jack of diamonds"``."""
        return card_name(self)

    def pretty(self) -> str:
        """The card with a suit symbol: ``"J\u2666"``."""
        return pretty(self)


def parse_suit(text: str) -> str:
    """Read a suit: a letter (any case), a symbol, or a word ("hearts").

    Returns one of ``C D H S``.  Raises :class:`CardError` otherwise.
    """
    t = text.strip()
    if t in _SYMBOL_TO_SUIT:
        return _SYMBOL_TO_SUIT[t]
    u = t.upper()
    if u in SUITS:
        return u
    for letter, name in SUIT_NAMES.items():
        if u.lower() in (name, SUIT_SINGULAR[letter]):
            return letter
    raise CardError(f"not a suit: {text!r}")


@lru_cache(maxsize=4096)
def parse_card(text: str) -> str:
    """Canonical code of a card written in any usual way.

    Accepted: ``JD``, ``jd``, ``Jd`` (EGN), ``TD``, ``10D``, ``J\u2666``,
    ``JS#2`` (double-deck copy), ``JK``/``B``/``joker`` (joker), ``??``.
    A card whose rank is ``X`` or whose suit is EGN's ``x``/``t``/``n``/``g``
    (``Xd``, ``Jx``) is read as ``??``: the record does not say which card it
    is, and it is never guessed (the EGN reader reads ``t``/``n``, trump and
    the next suit, by its deal's trump before a card comes here).
    Raises :class:`CardError` naming the text when it is not a card.
    """
    if not isinstance(text, str):
        raise CardError(f"not a card: {text!r}")
    t = text.strip()
    if t in (UNKNOWN, "?", "XX"):
        return UNKNOWN
    if t.upper() in ("JK", "B", "JOKER", "BJ"):
        return JOKER
    copy = ""
    if "#" in t:
        t, _, idx = t.partition("#")
        if not idx.isdigit():
            raise CardError(f"not a card: {text!r} (copy index must be a number)")
        copy = "#" + str(int(idx))
    if len(t) < 2:
        raise CardError(f"not a card: {text!r}")
    rank_text, suit_text = t[:-1].upper(), t[-1]
    if rank_text == "X" or (len(t) == 2 and suit_text in _GENERIC_SUITS):
        # EGN's unknown rank (``Xd``: "a diamond, rank unknown") and its
        # unknown or generic suits (``Jx``, ``Kt``...): the card is unknown.
        # Never guessed (docs/design.md "Three kinds of wrong": unknown stays
        # unknown); it must still look like a card
        if rank_text != "X" and rank_text not in RANKS and rank_text not in ("10", "N"):
            raise CardError(f"not a card: {text!r} (rank {t[:-1]!r} is not one of 9 10 J Q K A)")
        if suit_text not in _GENERIC_SUITS and suit_text.upper() not in SUITS \
                and suit_text not in _SYMBOL_TO_SUIT:
            raise CardError(f"not a card: {text!r} (suit {suit_text!r} is not one of C D H S)")
        if rank_text == "X" and suit_text not in _GENERIC_SUITS:
            # "a diamond, rank unknown": the suit is a fact of the record, kept
            return UNKNOWN_OF[_SYMBOL_TO_SUIT.get(suit_text, suit_text.upper())]
        return UNKNOWN
    if rank_text == "10":
        rank_text = "T"
    if rank_text == "N":
        rank_text = "9"
    if rank_text not in RANKS:
        raise CardError(f"not a card: {text!r} (rank {t[:-1]!r} is not one of 9 10 J Q K A)")
    try:
        suit = parse_suit(suit_text)
    except CardError:
        raise CardError(f"not a card: {text!r} (suit {suit_text!r} is not one of C D H S)") from None
    return rank_text + suit + copy


def is_unknown(card: str) -> bool:
    """True for ``"??"`` and for a card of known suit but unknown rank (``"?D"``)."""
    return card[:1] == "?"


def possible_suits(card: str, trump: Optional[str]) -> frozenset:
    """The effective suits (rules.md 1.2) ``card`` may have under ``trump``:
    one for a known card; for ``"?D"`` two when diamonds are the left
    bower's printed suit (it may be the left bower, a trump); every suit for
    ``"??"``."""
    if card == UNKNOWN:
        return frozenset(SUITS)
    if is_unknown(card):
        s = card[1]
        if trump is not None and s == SAME_COLOUR[trump]:
            return frozenset((s, trump))
        return frozenset((s,))
    return frozenset((effective_suit(card, trump),))


def base(card: str) -> str:
    """The card without its double-deck copy index: ``base("JS#2") == "JS"``."""
    i = card.find("#")
    return card if i < 0 else card[:i]


def rank_of(card: str) -> Optional[str]:
    """Rank letter of a card code, ``None`` for the joker or ``??``."""
    if card == JOKER or is_unknown(card):
        return None
    return card[0]


def suit_of(card: str) -> Optional[str]:
    """Printed suit letter of a card code, ``None`` for the joker or ``??``."""
    if card == JOKER or card == UNKNOWN:
        return None
    return card[1]


def card_name(card: str) -> str:
    """The card in words (``"jack of diamonds"``, ``"the joker"``)."""
    if card == JOKER:
        return "the joker"
    if card == UNKNOWN:
        return "an unknown card"
    if is_unknown(card):
        return f"a {SUIT_SINGULAR[card[1]]} of unknown rank"
    return f"{RANK_NAMES[card[0]]} of {SUIT_NAMES[card[1]]}"


def pretty(card: str) -> str:
    """Short display form with a suit symbol, ``"10\u2665"`` for ``"TH"``."""
    if card == JOKER:
        return "\U0001F0CF"
    if card == UNKNOWN:
        return "??"
    if is_unknown(card):
        return "?" + SUIT_SYMBOLS[card[1]]
    r = "10" if card[0] == "T" else card[0]
    return r + SUIT_SYMBOLS[card[1]]


def card_words(card: str, trump: Optional[str]) -> str:
    """A card as a director says it under ``trump`` (a suit letter or None):
    ``"10♣"``; the left bower with its suit here, ``"J♣ (the left bower, a
    spade here)"``; ``"🃏 (the joker, a spade here)"``; a double deck's
    copy, ``"J♠ (copy 2 of 2, double deck)"`` (rules.md 1.1, 1.2, 7.8, 7.10)."""
    if card is None:
        return "?"
    b = base(card)
    notes = []
    if b == JOKER:
        notes.append(f"the joker, a {SUIT_SINGULAR[trump]} here" if trump in SUIT_SINGULAR else "the joker")
    elif trump in SUIT_SINGULAR and b == left_bower(trump):
        notes.append(f"the left bower, a {SUIT_SINGULAR[trump]} here")
    if "#" in card:
        notes.append(f"copy {card.split('#', 1)[1]} of 2, double deck")
    return pretty(card) + (f" ({'; '.join(notes)})" if notes else "")


def deck(joker: bool = False, double: bool = False, low_rank: str = "9") -> list[str]:
    """The cards of a deck, in a fixed order (suit by suit, rank low to high).

    * standard: 24 cards, 9 to A (rules.md 1.1);
    * ``joker=True``: 25 cards (rules.md 7.8);
    * ``double=True``: 48 cards, each code with ``#1``/``#2`` (rules.md 7.10);
    * ``low_rank="J"``: the J-to-A deck of 16 (32 when doubled) used by case C11.
    """
    ranks = RANKS[RANKS.index(low_rank):]
    cards = [r + s for s in SUITS for r in ranks]
    if double:
        cards = [c + "#" + str(k) for c in cards for k in (1, 2)]
    if joker:
        cards.append(JOKER)
    return cards


# ---------------------------------------------------------------- trump order
# Strength of a card under a trump: trumps score 100 + order, plain cards their
# plain-suit order.  Precomputed per trump for speed (the replay hot path).

_PLAIN_ORDER = {"9": 0, "T": 1, "J": 2, "Q": 3, "K": 4, "A": 5}
_TRUMP_ORDER = {"9": 0, "T": 1, "Q": 3, "K": 4, "A": 5}  # jacks handled apart


@lru_cache(maxsize=64)
def _tables(trump: Optional[str], low: bool = False):
    """(effective-suit dict, strength dict) for every base card under ``trump``."""
    eff: dict[str, Optional[str]] = {}
    power: dict[str, int] = {}
    for s in SUITS:
        for r in RANKS:
            c = r + s
            if trump is None:
                eff[c] = s
                power[c] = (5 - _PLAIN_ORDER[r]) if low else _PLAIN_ORDER[r]
                continue
            if r == "J" and s == trump:
                eff[c], power[c] = trump, 107          # right bower
            elif r == "J" and s == SAME_COLOUR[trump]:
                eff[c], power[c] = trump, 106          # left bower
            elif s == trump:
                eff[c], power[c] = trump, 100 + _TRUMP_ORDER[r]
            else:
                eff[c], power[c] = s, _PLAIN_ORDER[r]
    eff[JOKER] = trump  # None at no-trump: the joker is a suit of its own
    power[JOKER] = 108 if trump is not None else 200
    for c in list(power):  # double-deck copies (rules.md 7.10), looked up without base()
        if c != JOKER:
            for k in ("#1", "#2"):
                eff[c + k], power[c + k] = eff[c], power[c]
    return eff, power


@lru_cache(maxsize=64)
def suit_and_power(trump: Optional[str], low: bool = False) -> tuple:
    """``(effective_suit, strength)`` lookup dicts for every card code of every
    deck (copies ``#1``/``#2`` and the joker included, ``"??"`` excluded)
    under ``trump``: the tables behind :func:`effective_suit` and
    :func:`strength`, for hot loops.  Do not modify the returned dicts."""
    return _tables(trump, low)


def effective_suit(card: str, trump: Optional[str]) -> Optional[str]:
    """The suit a card belongs to under ``trump`` (rules.md 1.2).

    The left bower (the other jack of trump's colour) belongs to trump for every
    purpose, and so does the joker.  With ``trump=None`` (no-trump) every card
    keeps its printed suit and the joker has none (``None``).
    """
    return _tables(trump)[0][base(card)]


def strength(card: str, trump: Optional[str], low: bool = False) -> int:
    """Comparable strength of a card under ``trump`` (higher beats lower).

    Trumps rank joker, right bower, left bower, A, K, Q, 10, 9 (rules.md 1.1);
    plain suits A, K, Q, J, 10, 9; ``low=True`` reverses plain order (low no-trump).
    Only cards of the same effective suit, or trumps, are comparable.
    """
    return _tables(trump, low)[1][base(card)]


def is_trump(card: str, trump: Optional[str]) -> bool:
    """True when the card belongs to the trump suit (bowers and joker included)."""
    return trump is not None and effective_suit(card, trump) == trump


def right_bower(trump: str) -> str:
    """The jack of trump (rules.md 1.1)."""
    return "J" + trump


def left_bower(trump: str) -> str:
    """The jack of the other suit of trump's colour (rules.md 1.1)."""
    return "J" + SAME_COLOUR[trump]


# ---------------------------------------------------------------- trick ranking
# The one ranking of cards in a trick (rules.md 1.3): every card gets a key
# from trick_keys(); the first highest key wins (the last one when the later
# of two identical double-deck cards wins).  trick_winner_index, rank_trick
# and the engine's replay fast path all read this table.

CANNOT_WIN = -1
"""Trick key of a card that can never win its trick: neither a trump nor a
card of the led suit (rules.md 1.3)."""
TRUMP_KEY = 1000
"""Trick keys of trumps are ``TRUMP_KEY + strength`` (1100 for the 9 up to
1107 for the right bower, 1108 for the joker), above every led-suit key
(0-5): any trump beats any card of the led suit (rules.md 1.1, 1.3)."""
TOP_KEY = 2200
"""Trick key of the joker at no-trump, the only trump there: it beats every
other card (rules.md 7.8)."""


class TrickRole(StrEnum):
    """Why a card can (or cannot) win its trick (rules.md 1.3, 7.8), read from
    its trick key."""

    TOP = "top"                # the joker at no-trump: beats every card (7.8)
    TRUMP = "trump"            # a trump, bowers and joker included (1.1, 1.2)
    LED = "led"                # a card of the led suit (by effective suit, 1.2)
    CANNOT_WIN = "cannot win"  # neither trump nor the led suit


@lru_cache(maxsize=256)
def trick_keys(trump: Optional[str], led: Optional[str], low: bool = False) -> dict:
    """``{card code: trick key}`` for every card code of every deck (copies
    ``#1``/``#2`` and the joker included, ``"??"`` excluded) in a trick led
    in ``led`` (an effective suit letter, or None for a joker led at no-trump
    with no suit named) under ``trump`` (a suit letter, None = no-trump).

    Keys: :data:`TOP_KEY` for the joker at no-trump (7.8), :data:`TRUMP_KEY`
    + strength for a trump, the strength (0-5; reversed with ``low``, low
    no-trump 1.1) for a card of the led suit, :data:`CANNOT_WIN` for any
    other card.  The highest key wins the trick; identical double-deck cards
    share a key (see :func:`winning_index`).  Do not modify the returned dict.
    """
    eff, power = _tables(trump, low)
    keys = {}
    for c, s in eff.items():
        if trump is None:
            keys[c] = TOP_KEY if c == JOKER else (power[c] if s == led else CANNOT_WIN)
        elif s == trump:
            keys[c] = TRUMP_KEY + power[c]
        else:
            keys[c] = power[c] if s == led else CANNOT_WIN
    return keys


def winning_index(keys: Sequence[int], first_twin_wins: bool = True) -> int:
    """Index (0 = leader) of the winning card given the cards' trick keys in
    play order (:func:`trick_keys`): the highest key; of equal keys
    (identical double-deck cards, rules.md 1.3 and 7.10) the first played,
    or the last with ``first_twin_wins=False``.  0 if no card can win."""
    best = max(keys)
    if best < 0:
        return 0
    if first_twin_wins:
        return keys.index(best)
    return len(keys) - 1 - keys[::-1].index(best)


def _led(cards: Sequence[str], trump: Optional[str], low: bool) -> Optional[str]:
    """The effective suit of the first card (``KeyError`` for a code of no deck)."""
    eff = _tables(trump, low)[0]
    c0 = cards[0]
    return eff[c0] if c0 in eff else eff[base(c0)]


def _keys_of(cards: Sequence[str], keys: dict) -> list:
    """The trick key of each card (``KeyError`` naming a card of no deck, e.g. ``"??"``)."""
    return [keys[c] if c in keys else keys[base(c)] for c in cards]


def trick_winner_index(cards: Sequence[str], trump: Optional[str], led_suit: Optional[str] = None,
                       low: bool = False, first_twin_wins: bool = True) -> int:
    """Index (0 = leader) of the card that wins a trick (rules.md 1.3).

    ``cards``: card codes in play order; ``trump``: suit letter or None
    (no-trump).  The highest trump wins; with no trump in it, the highest card
    of the led suit.  ``led_suit`` defaults to the effective suit of the first
    card (give it for a led joker at no-trump, rules.md 7.8).  Identical
    double-deck cards: the first played wins unless ``first_twin_wins`` is
    False.  Raises ``KeyError`` (the code) for a card of no deck, ``"??"``
    included.  See :func:`rank_trick` for the keys and the reasons.
    """
    if led_suit is None:
        led_suit = _led(cards, trump, low)
    return winning_index(_keys_of(cards, trick_keys(trump, led_suit, low)), first_twin_wins)


@dataclass(frozen=True)
class TrickRanking:
    """How the cards of one trick rank (rules.md 1.3), from :func:`rank_trick`.

    ``winner``: index (0 = leader) of the winning card; ``led_suit``: the
    effective suit led (None: a joker led at no-trump with no suit named);
    ``keys``: each card's trick key (:func:`trick_keys`), in play order;
    ``roles``: each card's :class:`TrickRole`; ``twins``: indices of the
    cards identical to the winner that lost to it on the twin rule (double
    deck, 1.3 and 7.10), in play order.
    """

    winner: int
    led_suit: Optional[str]
    keys: tuple
    roles: tuple
    twins: tuple

    def ranked(self) -> tuple:
        """Indices of the cards that could win (trumps, else the led suit),
        best first; the winner comes first among identical twins."""
        can = [i for i, k in enumerate(self.keys) if k != CANNOT_WIN]
        return tuple(sorted(can, key=lambda i: (-self.keys[i], i != self.winner, i)))


def _role(key: int) -> TrickRole:
    if key == TOP_KEY:
        return TrickRole.TOP
    if key >= TRUMP_KEY:
        return TrickRole.TRUMP
    return TrickRole.LED if key >= 0 else TrickRole.CANNOT_WIN


def rank_trick(cards: Sequence[str], trump: Optional[str], led_suit: Optional[str] = None,
               low: bool = False, first_twin_wins: bool = True) -> TrickRanking:
    """The winner of a trick with the ranking behind it (rules.md 1.3): for
    explaining why a card wins (the tutorial's "who wins this trick?").

    Arguments as :func:`trick_winner_index`, whose answer ``winner`` always
    equals.  Raises ``KeyError`` for a card of no deck (``"??"`` included).
    """
    if led_suit is None:
        led_suit = _led(cards, trump, low)
    keys = tuple(_keys_of(cards, trick_keys(trump, led_suit, low)))
    w = winning_index(keys, first_twin_wins)
    twins = tuple(i for i, c in enumerate(cards)
                  if i != w and keys[i] == keys[w] != CANNOT_WIN and base(c) == base(cards[w]))
    return TrickRanking(w, led_suit, keys, tuple(map(_role, keys)), twins)


def cards_of_suit(hand: Iterable[str], suit: Optional[str], trump: Optional[str]) -> list[str]:
    """The known cards of ``hand`` whose effective suit under ``trump`` is ``suit``."""
    eff = _tables(trump)[0]
    return [c for c in hand if c[:1] != "?" and (eff[c] if c in eff else eff[base(c)]) == suit]


def sort_hand(hand: Iterable[str], trump: Optional[str] = None) -> list[str]:
    """Cards grouped by effective suit (trump first) and ranked high to low."""
    eff, power = _tables(trump)
    order = {s: i for i, s in enumerate(SUITS)}

    def key(c: str):
        if c[:1] == "?":   # "??" last; "?D" (a diamond of unknown rank) after the known diamonds
            s = c[1:2]
            if s not in order:
                return (9, 0)
            return (-1 if s == trump else order[s], 1)
        b = base(c)
        s = eff[b]
        group = -1 if (trump is not None and s == trump) else (order[s] if s else 8)
        return (group, -power[b])
    return sorted(hand, key=key)
