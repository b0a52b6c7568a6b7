"""The event vocabulary of a recorded game (docs/design.md, "Events").

Every action at the table is one immutable event; a game is the ordered list
of its events, starting with :class:`GameStarted`.  Events hold only what
happened (who did what, with which card); nothing derived (trick winners,
scores, legality verdicts) is ever an event.  The same classes are used by the
rules engine, the formats, the projections and the archive, which maps each
one to an ``eventsourcing`` domain event of the same name.

Seats are indices ``0..n-1`` clockwise (in EGN: 0 = North, 1 = East, ...);
cards are code strings (see :mod:`euchre_events.cards`); suits are ``C D H S``
or ``None`` for no-trump.
"""
from __future__ import annotations

import dataclasses
import functools
import json
import operator
import re
import typing
from dataclasses import dataclass, field
from typing import Any, ClassVar, Optional, Union

Bid = Union[int, str]
"""A bid: a number of tricks, or ``"pb"`` (partner's best) or ``"moon"``."""

MAX_NUMBER = 1_000_000
"""The bound of every whole number an event holds: a deal or trick number, a
seat, a bid, points (an initial score, a ruling's penalty), a variant's
whole-number options: ``-MAX_NUMBER <= n <= MAX_NUMBER``.  A real record needs
a few dozen; the bound keeps every number far inside what the read models'
``INTEGER`` columns hold (PostgreSQL: below 2**31), so no stored game can
stop them being built.  Checked in one place, where every way in (the
readers, ``record``, the Python API) meets the rules: the engine's ``apply``
(:func:`number_problem`)."""


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all events.  ``to_dict``/``from_dict`` give the stored JSON form."""

    kind: ClassVar[str] = "Event"
    by_seat: ClassVar[bool] = True  # events with a ``seat`` field that a player chose

    def __repr__(self) -> str:
        # every event class's (_event_class): the text dataclasses writes, ``CardPlayed(seat=0, card='JD')``
        return f"{self.__class__.__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self.__match_args__)})"

    def to_dict(self) -> dict:
        """``{"type": kind, **fields}`` with tuples as lists (JSON-ready)."""
        d = {"type": self.kind}
        for name in _field_names(type(self)):
            v = getattr(self, name)
            d[name] = _plain(v) if isinstance(v, (tuple, dict)) else v
        return d


def _event_class(cls: type) -> type:
    """``@dataclass(frozen=True, slots=True)`` of an event class: the same
    class (fields, ``__init__``, frozen, slots, pickling, ``__match_args__``,
    ``__dataclass_params__``), the same ``__repr__`` text (:class:`Event`'s),
    ``__eq__`` (the fields in order, of the same class only) and
    ``__hash__`` (that of the fields' tuple), made here from functions
    compiled once with the module: dataclasses compiles each method it makes
    from its text, and the 24 event classes' were a sixth of the start-up of
    ``analyze`` (issue 21 "Speed").  Only ``__init__`` and the frozen
    ``__setattr__``/``__delattr__`` are still made by dataclasses."""
    cls = dataclass(frozen=True, slots=True, repr=False, eq=False)(cls)
    cls.__dataclass_params__ = Event.__dataclass_params__     # as declared: repr, eq
    for fn in _eq_hash(cls.__match_args__):
        fn.__qualname__ = f"{cls.__qualname__}.{fn.__name__}"
        setattr(cls, fn.__name__, fn)
    return cls


def _eq_hash(names: tuple) -> tuple:
    """``__eq__`` and ``__hash__`` of an event class of the fields ``names``
    (at least one), as dataclasses makes them: ``(self.a, self.b) ==
    (other.a, other.b)`` when ``other`` is of the same class, else
    NotImplemented; ``hash((self.a, self.b))``."""
    if len(names) == 1:
        one = operator.attrgetter(names[0])

        def __eq__(self, other):
            if other.__class__ is self.__class__:
                return (one(self),) == (one(other),)
            return NotImplemented

        def __hash__(self):
            return hash((one(self),))
    else:
        values = operator.attrgetter(*names)     # the tuple of the fields' values

        def __eq__(self, other):
            if other.__class__ is self.__class__:
                return values(self) == values(other)
            return NotImplemented

        def __hash__(self):
            return hash(values(self))
    return __eq__, __hash__


@functools.lru_cache(maxsize=None)
def _field_names(cls: type) -> tuple:
    """The field names of an event class, in order (looked up once: to_dict
    runs for every event stored)."""
    return tuple(f.name for f in dataclasses.fields(cls))


def _plain(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


def _frozen(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_frozen(x) for x in v)
    return v


@_event_class
class GameStarted(Event):
    """First event of every game.

    ``variant``: ``standard``, ``two-handed``, ``cutthroat``, ``ghost-hand``,
    ``buck`` or ``bid``; ``options``: the variant's options as a dict (every
    field of its options dataclass, so a record replays the same way forever);
    ``players``: names in seat order; ``first_dealer``: seat index;
    ``initial_score``: points per side (a fragment of a longer game may start
    from a non-zero score); ``title`` and ``source`` (file, site, date...).
    """

    kind: ClassVar[str] = "GameStarted"
    variant: str
    options: dict
    players: tuple[str, ...]
    first_dealer: int = 0
    initial_score: Optional[tuple[int, ...]] = None
    title: str = ""
    source: dict = field(default_factory=dict)


@_event_class
class DealStarted(Event):
    """A new deal: ``deal`` numbered from 1, ``dealer`` a seat index."""

    kind: ClassVar[str] = "DealStarted"
    deal: int
    dealer: int


@_event_class
class CardsDealt(Event):
    """The cards as dealt: ``hands[seat]`` (``"??"`` for a card the record does
    not state), the ``up_card`` (or ``None``), the ``kitty`` (undealt cards),
    and where the variant has them the ``dummy`` and ``ghost`` hands."""

    kind: ClassVar[str] = "CardsDealt"
    hands: tuple[tuple[str, ...], ...]
    up_card: Optional[str] = None
    kitty: tuple[str, ...] = ()
    dummy: tuple[str, ...] = ()
    ghost: tuple[str, ...] = ()


@_event_class
class Passed(Event):
    """``seat`` passes in the auction (or turns the up-card down as dealer)."""

    kind: ClassVar[str] = "Passed"
    seat: int


@_event_class
class OrderedUp(Event):
    """Round 1: ``seat`` accepts the up-card's suit as trump (order up, assist,
    or take up when it is the dealer; rules.md 2.2).  ``alone``: declared with
    the call (rules.md 2.4)."""

    kind: ClassVar[str] = "OrderedUp"
    seat: int
    alone: bool = False


@_event_class
class TrumpNamed(Event):
    """Round 2 (or after a won bid): ``seat`` names ``suit`` as trump
    (``None`` = no-trump).  ``alone`` as in :class:`OrderedUp`."""

    kind: ClassVar[str] = "TrumpNamed"
    seat: int
    suit: Optional[str]
    alone: bool = False


@_event_class
class UpCardPickedUp(Event):
    """The dealer (``seat``) adds the up-card to the hand (rules.md 2.2)."""

    kind: ClassVar[str] = "UpCardPickedUp"
    seat: int


@_event_class
class UpCardDeclined(Event):
    """The dealer leaves the up-card after an order-up, where the variant lets
    the dealer decline the exchange (rules.md 3.2, 4.2)."""

    kind: ClassVar[str] = "UpCardDeclined"
    seat: int


@_event_class
class Discarded(Event):
    """``seat`` puts ``card`` face down, out of play (``"??"`` if unrecorded)."""

    kind: ClassVar[str] = "Discarded"
    seat: int
    card: str


@_event_class
class WentAlone(Event):
    """The maker (``seat``) plays alone; the partner sits out (rules.md 2.4)."""

    kind: ClassVar[str] = "WentAlone"
    seat: int


@_event_class
class PlayedWithPartner(Event):
    """``seat`` declines to go (or defend) alone when asked."""

    kind: ClassVar[str] = "PlayedWithPartner"
    seat: int


@_event_class
class DefendedAlone(Event):
    """A defender (``seat``) plays alone; the partner sits out (rules.md 2.4)."""

    kind: ClassVar[str] = "DefendedAlone"
    seat: int


@_event_class
class BidMade(Event):
    """``seat`` bids ``bid`` tricks, or ``"pb"`` / ``"moon"`` (rules.md 5.2, 7.2)."""

    kind: ClassVar[str] = "BidMade"
    seat: int
    bid: Bid


@_event_class
class HandSwappedWithGhost(Event):
    """``seat`` takes the ghost hand blind; its own hand is dead (rules.md 5.2)."""

    kind: ClassVar[str] = "HandSwappedWithGhost"
    seat: int


@_event_class
class DummyTaken(Event):
    """The maker (``seat``) picks up the dummy hand (rules.md 4.3)."""

    kind: ClassVar[str] = "DummyTaken"
    seat: int


@_event_class
class CardPassed(Event):
    """``card`` passes face down from ``seat`` to ``to_seat`` (partner's best)."""

    kind: ClassVar[str] = "CardPassed"
    seat: int
    to_seat: int
    card: str


@_event_class
class DroppedOut(Event):
    """``seat`` drops out of the hand (Buck Euchre, rules.md 6.2)."""

    kind: ClassVar[str] = "DroppedOut"
    seat: int


@_event_class
class StayedIn(Event):
    """``seat`` stays in the hand when asked (Buck Euchre, rules.md 6.2)."""

    kind: ClassVar[str] = "StayedIn"
    seat: int


@_event_class
class DealThrownIn(Event):
    """The deal is dead and scores nothing: ``reason`` says why (all passed,
    ace-no-face, farmer's hand); ``seat`` is who declared it, if anyone."""

    kind: ClassVar[str] = "DealThrownIn"
    by_seat: ClassVar[bool] = False
    reason: str = "all passed"
    seat: Optional[int] = None


@_event_class
class CardPlayed(Event):
    """``seat`` plays ``card`` to the current trick, as it really happened
    (an illegal play is kept and flagged by the audit, never refused)."""

    kind: ClassVar[str] = "CardPlayed"
    seat: int
    card: str


@_event_class
class JokerSuitNamed(Event):
    """The leader (``seat``) of the joker at no-trump names ``suit``
    (``C D H S``), which the others must then follow (rules.md 7.8)."""

    kind: ClassVar[str] = "JokerSuitNamed"
    seat: int
    suit: str


@_event_class
class PlayCorrected(Event):
    """``seat`` takes back ``card`` before its trick is gathered and plays
    ``replacement`` (a card of the same hand) in its place (rules.md 1.5:
    a renege corrected this way costs no points).

    Possible while ``card`` is in the trick being played, or in the trick
    just completed before any card of the next one (and before the deal is
    scored); a card that led its trick cannot be taken back this way.  Not a
    turn-taking action: it may come while another seat is on turn
    (``by_seat`` is False).
    """

    kind: ClassVar[str] = "PlayCorrected"
    by_seat: ClassVar[bool] = False
    seat: int
    card: str
    replacement: str


@_event_class
class RenegeClaimed(Event):
    """A player claims a renege (rules.md 1.5 "Claim window"): ``by`` (seat)
    says that ``against`` (seat) failed to follow suit at trick ``trick``
    (from 1) of deal ``deal`` (the deal's number as its DealStarted gives it).

    What happened at the table, kept as it was said: the claim may be false
    or late; the rules judge it (:mod:`euchre_events.rules.claims`), and
    nothing derived is stored.  Not a turn-taking action (``by_seat`` False):
    it may come at any moment after GameStarted, even after the game is won.
    """

    kind: ClassVar[str] = "RenegeClaimed"
    by_seat: ClassVar[bool] = False
    by: int
    against: int
    deal: int
    trick: int


@_event_class
class RenegeRuled(Event):
    """A ruling on a renege (rules.md 1.5, 2.7: "a game recorded with claims
    and rulings is scored by its rulings"): the renege of seat ``against`` at
    trick ``trick`` of deal ``deal`` is ``ruling`` = ``"upheld"`` or
    ``"rejected"``; ``penalty``: the points per side that deal scores under
    the ruling (None: the game's renege preset decides); ``by``: who ruled
    (a director's name, free text); ``reason`` in words.  Not a turn-taking
    action; it may come at any moment after GameStarted.
    """

    kind: ClassVar[str] = "RenegeRuled"
    by_seat: ClassVar[bool] = False
    deal: int
    trick: int
    against: int
    ruling: str
    penalty: Optional[tuple[int, ...]] = None
    by: str = ""
    reason: str = ""


EVENT_TYPES: dict[str, type] = {
    cls.kind: cls for cls in (
        GameStarted, DealStarted, CardsDealt, Passed, OrderedUp, TrumpNamed,
        UpCardPickedUp, UpCardDeclined, Discarded, WentAlone, PlayedWithPartner,
        DefendedAlone, BidMade, HandSwappedWithGhost, DummyTaken, CardPassed,
        DroppedOut, StayedIn, DealThrownIn, CardPlayed, JokerSuitNamed,
        PlayCorrected, RenegeClaimed, RenegeRuled)
}
"""Every event class by its ``kind`` name."""


SEAT_ONLY_WORDS = {"Passed": "pass", "UpCardPickedUp": "pickup", "UpCardDeclined": "decline",
                   "WentAlone": "alone", "PlayedWithPartner": "with-partner",
                   "DefendedAlone": "defend-alone", "HandSwappedWithGhost": "swap",
                   "DummyTaken": "dummy", "DroppedOut": "drop", "StayedIn": "stay"}
"""The events that are a seat and one word in our text notation (docs/notation.md), by
kind: the notation's reader and writer and the analysis's action names read this one table."""

_BID_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_\-]*\Z")


def action_words(ev: Event) -> Optional[str]:
    """A seat's action as our text notation writes it after the seat
    (docs/notation.md), the one place these words are made: ``JD``,
    ``pass``, ``order``, ``order alone``, ``name H``, ``name NT alone``,
    ``bid 4``, ``bid pb``, ``discard 9C``, ``give AS`` (a card passed, without
    its receiver), ``joker-suit D``, and the one-word actions of
    :data:`SEAT_ONLY_WORDS`.  None for an event that is not such an action,
    and for a bid the notation cannot write as a word (not a whole number
    >= 0 nor a string; a bool); a bid name that is not a lower-case word is
    written as a JSON string.  The text writer (``formats/text.py``) and the
    analysis's option names (``analysis/review.py``) both read it."""
    k = ev.kind
    if k == "CardPlayed":
        return ev.card
    word = SEAT_ONLY_WORDS.get(k)
    if word is not None:
        return word
    if k == "OrderedUp":
        return "order alone" if ev.alone else "order"
    if k == "TrumpNamed":
        return f"name {ev.suit or 'NT'}" + (" alone" if ev.alone else "")
    if k == "Discarded":
        return f"discard {ev.card}"
    if k == "CardPassed":
        return f"give {ev.card}"
    if k == "JokerSuitNamed":
        return f"joker-suit {ev.suit}"
    if k == "BidMade":
        b = ev.bid
        if isinstance(b, bool) or not isinstance(b, (int, str)) or (isinstance(b, int) and b < 0):
            return None
        if isinstance(b, int):
            return f"bid {b}"
        if _BID_NAME_RE.match(b) and b == b.lower() and b not in ("true", "false", "null"):
            return f"bid {b}"
        return "bid " + json.dumps(b, ensure_ascii=False)
    return None


def event_from_dict(d: dict) -> Event:
    """Rebuild an event from :meth:`Event.to_dict` output (lists become tuples).

    Every field is checked against its annotation (:func:`type_problem`):
    ``seat`` must be a whole number (``false`` and ``"0"`` are not),
    ``card`` a string, ``hands`` a list of lists of strings...  Raises
    ``ValueError`` for a ``d`` that is not an object, an unknown ``type``,
    missing or unknown fields, or a field of the wrong type
    (``"bad CardPlayed event: seat: expected a whole number, not the
    string '0'"``).
    """
    if not isinstance(d, dict):
        raise ValueError(f"an event must be an object with a \"type\", not {describe_value(d)}")
    try:
        cls = EVENT_TYPES[d["type"]]
    except (KeyError, TypeError):
        raise ValueError(f"unknown event type {clip(repr(d.get('type')))}") from None
    hints = field_types(cls)
    kwargs = {}
    for k, v in d.items():
        if k == "type":
            continue
        if type(v) is list and k not in ("options", "source"):
            v = _frozen(v)
        hint = hints.get(k)
        if hint is not None and not _fits(v, hint):   # _fits first: every stored event read back comes here
            problem = type_problem(v, hint)
            if problem:
                raise ValueError(f"bad {cls.kind} event: {k}: {problem}")
        kwargs[k] = v
    try:
        return cls(**kwargs)
    except TypeError as e:
        raise ValueError(f"bad {cls.kind} event: {e}") from None


# ------------------------------------------------------------ stored numbers

_NUMBER_FIELDS: dict = {}
"""``{event class: ((name, annotation), ...)}``: its fields that hold whole
numbers (``int``, ``Optional[int]``, a :data:`Bid`, ``tuple[int, ...]``),
worked out once per class (every event folded is checked)."""


def _number_fields(cls: type) -> tuple:
    def holds_int(hint: Any) -> bool:
        return hint is int or any(holds_int(a) for a in typing.get_args(hint))
    fields = tuple((name, hint) for name, hint in field_types(cls).items() if holds_int(hint))
    _NUMBER_FIELDS[cls] = fields
    return fields


def number_problem(ev: Event) -> Optional[str]:
    """None when every whole-number field of ``ev`` holds a whole number
    (``int``, never ``bool`` nor a float: ``0.5``, ``NaN``, ``true`` are not
    points) within :data:`MAX_NUMBER` either way, else the problem in words
    naming the field (``"deal: the number 9223372036854775808 is out of
    range (a record's numbers are at most 1000000 either way)"``; the
    caller names the event).  The engine calls it for every event it folds
    (rules.md 1.5: a ruling's penalty is points, whole numbers)."""
    fields = _NUMBER_FIELDS.get(ev.__class__)
    if fields is None:
        fields = _number_fields(ev.__class__)
    for name, hint in fields:
        v = getattr(ev, name)
        if v.__class__ is int and -MAX_NUMBER <= v <= MAX_NUMBER:   # the common case: one test
            continue
        problem = type_problem(v, hint)
        if problem:
            return f"{name}: {problem}"
        items = enumerate(v) if isinstance(v, (tuple, list)) else ((None, v),)
        for i, x in items:
            if isinstance(x, int) and not -MAX_NUMBER <= x <= MAX_NUMBER:
                return (f"{name}: {'' if i is None else f'item {i}: '}{describe_value(x)} is out of range "
                        f"(a record's numbers are at most {MAX_NUMBER} either way)")
    return None


# ------------------------------------------------------------ type checks
# One check of a value against a dataclass field's annotation, for the
# events read from files (event_from_dict) and for the variants' options
# (rules.variant.options_from_dict): a value of the wrong type from a
# record must be a clear error, never a TypeError deep in the engine.

@functools.lru_cache(maxsize=None)
def field_types(cls: type) -> dict:
    """``{field name: resolved annotation}`` of a dataclass (``ClassVar``
    left out); the annotations are strings under ``from __future__ import
    annotations``, resolved in the class's module."""
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls) if f.name in hints}


_TYPE_WORDS = {bool: "true or false", int: "a whole number", float: "a number", str: "a string",
               type(None): "null", dict: "an object", tuple: "a list", list: "a list"}


def _type_words(hint: Any) -> str:
    origin = typing.get_origin(hint) or hint
    if origin is Union:
        return " or ".join(_type_words(a) for a in typing.get_args(hint))
    if origin is tuple and typing.get_args(hint):
        return "a list of " + _plural(typing.get_args(hint)[0])
    return _TYPE_WORDS.get(origin, getattr(origin, "__name__", str(origin)))


def _plural(hint: Any) -> str:
    origin = typing.get_origin(hint) or hint
    if origin is tuple:
        return "lists" + (" of " + _plural(typing.get_args(hint)[0]) if typing.get_args(hint) else "")
    return {str: "strings", int: "whole numbers", bool: "true/false values"}.get(origin, _type_words(hint))


def clip(text: str, limit: int = 80) -> str:
    """``text`` cut to about ``limit`` characters (``'yyyy...' (52428800
    characters)``), so that a hostile value is never echoed whole in a
    message."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"


_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def printable(text: str) -> str:
    """``text`` with every control character written as an escape (``\\n``,
    ``\\x1b``, ``\\u2028``...), so that text from a record (a title, a name, a
    note) can neither break a one-line-per-game listing nor send escape
    sequences to a terminal.  Idempotent; other characters are kept."""
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch.isprintable() or ch == " ":
            out.append(ch)
        elif ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        else:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
    return "".join(out)


def describe_value(value: Any) -> str:
    """A value in words for an error message, clipped: ``the string '0'``,
    ``false``, ``a list``, ``the number 10.5``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return "the string " + clip(repr(value))
    if isinstance(value, int) and value.bit_length() >= 256:   # never converted to text whole
        n = abs(value)
        digits = int((n.bit_length() - 1) * 0.30102999566398) + 1   # those of 2**(bits - 1)
        return f"a number of {digits + (n >= 10 ** digits)} digits"
    if isinstance(value, (int, float)):
        return "the number " + clip(repr(value))
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)} item{'s' if len(value) != 1 else ''}"
    if isinstance(value, dict):
        return "an object"
    return "a " + type(value).__name__


def type_problem(value: Any, hint: Any) -> Optional[str]:
    """None when ``value`` (as read from JSON or the text notation) fits the
    annotation ``hint``, else the problem in words (``"expected a whole
    number, not false"``).

    Understood: ``bool`` (only ``True``/``False``), ``int`` (not a bool, not
    a float), ``float`` (an int or a float, not a bool), ``str``, ``dict``,
    ``tuple``/``list`` (a list or tuple; ``tuple[X, ...]`` checks each item
    against ``X``), ``Optional``/``Union``, ``Any``; any other annotation
    accepts everything.  Iterative in nothing but the annotation's depth, so
    a deeply nested value is refused at its first level.
    """
    if _fits(value, hint):
        return None
    origin = typing.get_origin(hint) or hint
    if origin is Union and isinstance(value, (list, tuple)):
        # Optional[tuple[int, ...]]: say which item is wrong, as for the list alone
        lists = [a for a in typing.get_args(hint) if (typing.get_origin(a) or a) in (tuple, list)]
        if len(lists) == 1:
            return type_problem(value, lists[0])
    if origin is tuple and isinstance(value, (list, tuple)) and typing.get_args(hint):
        item = typing.get_args(hint)[0]
        for i, x in enumerate(value):
            inner = type_problem(x, item)
            if inner:
                return f"item {i}: {inner}"
    return f"expected {_type_words(hint)}, not {describe_value(value)}"


@functools.lru_cache(maxsize=None)
def _hint_parts(hint: Any) -> tuple:
    """``(origin, args)`` of an annotation, worked out once per annotation
    (every stored event read back is checked: this was most of a load)."""
    return typing.get_origin(hint) or hint, typing.get_args(hint)


def _fits(value: Any, hint: Any) -> bool:
    if hint is Any:
        return True
    t = type(value)
    if hint is int:          # the common cases first: seats, points, cards
        return t is int or (isinstance(value, int) and not isinstance(value, bool))
    if hint is str:
        return isinstance(value, str)
    try:
        origin, args = _hint_parts(hint)
    except TypeError:        # an annotation that cannot be hashed
        origin, args = typing.get_origin(hint) or hint, typing.get_args(hint)
    if origin is Union:
        return any(_fits(value, a) for a in args)
    if hint is type(None) or hint is None:
        return value is None
    if origin is bool:
        return isinstance(value, bool)
    if origin is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if origin is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if origin is str:
        return isinstance(value, str)
    if origin is dict:
        return isinstance(value, dict)
    if origin in (tuple, list):
        if not isinstance(value, (list, tuple)):
            return False
        return not args or all(_fits(x, args[0]) for x in value)
    return True


ANNOTATION_MARKS = ("!", "?", "!!", "??", "!?", "?!")
"""The quality marks an annotation may carry, as in chess annotation (and in
this order, that of PGN's NAGs $1..$6): good, mistake, brilliant, blunder,
interesting, dubious.  An annotation without a mark has ``mark`` None.  The
one list for the record formats, the archive and the viewer."""
