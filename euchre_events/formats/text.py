"""The plain-text notation for Euchre-family games (``.euchre`` files).

What PGN is for chess and PBN for bridge: a file people can write at the table
on paper and type in later.  A game is a header of tag pairs followed by its
deals; every action is one short item naming the seat and what it did, so the
notation covers the whole event vocabulary of :mod:`euchre_events.events`
(hence every variant) without any change per variant.  The grammar, with a
complete example, is in ``docs/notation.md``; in short::

    [Variant "standard"]
    [North "Ann"] [East "Bob"] [South "Cy"] [West "Di"]
    [Dealer "W"]

    Deal 1 dealer W
    N: KC AS QD 9S TD
    E: TC 9H AD KD JS
    S: AC QC KS TS QH
    W: JH AH KH 9C 9D
    Up: TH
    Kitty: JC JD QS
    N pass  E pass  S order  W pickup  W discard 9D
    T1: N KC  E 9H ?! {trumps his partner's king}  S AC  W 9C
    ...

Comments ``{...}`` (with an optional mark ``! ? !? ?! !! ??`` before them)
are about the event just before them; ``( ... )`` after an event holds an
alternative line that replaces that event and what follows it.

The file is parsed with ``lark`` (LALR, contextual lexer).  Public API:

* :func:`parse_text` / :func:`read_text_file`: text -> list of
  :class:`~euchre_events.formats.Record` (one per game, built and validated
  by a :class:`~euchre_events.formats.builder.RecordBuilder`);
* :func:`write_text`: events (+ annotations, variations) -> text.

Errors: :class:`~euchre_events.formats.RecordError` naming the file, line and
column, and what was expected (syntax), or the deal and event (a record that
cannot have happened).  An illegal play (a renege) is not an error: it is kept
and the audit flags it (rules.md 1.5).
"""
from __future__ import annotations

import dataclasses
import json
import re
import threading
from typing import Any, Iterable, Optional, Sequence

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from euchre_events.rules.cards import SUITS, CardError, parse_card, parse_suit
from euchre_events.rules.seats import SEAT_LETTERS_4, SEAT_WORDS_4
from euchre_events.rules.engine import ImpossibleEvent, apply, new_table
from euchre_events.rules.variant import VariantOptions
from euchre_events.events import ANNOTATION_MARKS, SEAT_ONLY_WORDS, action_words
from euchre_events.events import (BidMade, CardPassed, CardPlayed, CardsDealt, DealStarted, DealThrownIn,
                      DefendedAlone, Discarded, DroppedOut, DummyTaken, Event, GameStarted,
                      HandSwappedWithGhost, OrderedUp, Passed, PlayedWithPartner, StayedIn,
                      JokerSuitNamed, TrumpNamed, UpCardDeclined, UpCardPickedUp, WentAlone,
                      event_from_dict)
from euchre_events.events import clip
from euchre_events.formats import (MAX_DIGITS, Record, RecordError, default_initial_score, load_json,
                                   no_game_error, read_record_text)
from euchre_events.formats.builder import RecordBuilder

__all__ = ["parse_text", "read_text_file", "write_text", "GRAMMAR"]

# --------------------------------------------------------------------- grammar

GRAMMAR = r"""
start: game*

game: tag+ _item*
tag: "[" TAG_NAME STRING "]"

_item: deal_header | hand_line | up_line | kitty_line | dummy_line | ghost_line
     | event | annotation | variation | trick_label

deal_header: _DEAL INT _DEALER other_seat
hand_line: HAND_SEAT CARD*
up_line: _UP CARD
kitty_line: _KITTY CARD*
dummy_line: _DUMMY_LINE CARD*
ghost_line: _GHOST_LINE CARD*
trick_label: TRICK
annotation: MARK COMMENT? | COMMENT
variation: "(" _item* ")"

event: seat _PASS                      -> passed
     | seat _ORDER ALONE?              -> ordered_up
     | seat _NAME trump ALONE?         -> trump_named
     | seat _PICKUP                    -> picked_up
     | seat _DECLINE                   -> declined
     | seat _DISCARD CARD              -> discarded
     | seat ALONE                      -> went_alone
     | seat _WITH_PARTNER              -> with_partner
     | seat _DEFEND_ALONE              -> defended_alone
     | seat _BID bid                   -> bid_made
     | seat _SWAP                      -> swapped
     | seat _TAKE_DUMMY                -> dummy_taken
     | seat _GIVE CARD _TO other_seat  -> card_passed
     | seat _DROP                      -> dropped_out
     | seat _STAY                      -> stayed_in
     | seat? _THROWN STRING?           -> thrown_in
     | seat _JOKER_SUIT SUIT           -> joker_suit
     | seat _PLAY? CARD                -> played
     | "@" KIND "(" field* ")"         -> generic

seat: SEAT | INT
other_seat: SEAT | INT
trump: SUIT | NOTRUMP
bid: INT | BIDNAME | STRING
field: KEY "=" value
?value: INT | SIGNED | STRING | LITERAL | SEAT | list
list: "[" value* "]"

TAG_NAME: /[A-Za-z][A-Za-z0-9_.\-]*/
STRING: /"[^"\\\n]*(?:\\.[^"\\\n]*)*"/
COMMENT: /\{[^\\{}]*(?:\\.[^\\{}]*)*\}/s
MARK: /!!|\?\?|!\?|\?!|!|\?/
TRICK: /T\d+\s*:/
HAND_SEAT: /(?:[NESW]|P\d+|\d+)\s*:/
SEAT: /(?:[NESW]|P\d+)(?![\w:#])/
INT: /\d+(?![\w:#])/
SIGNED: /-\d+(?![\w#])/
CARD.2: /(?:(?:10|[9TJQKA])[CDHS\u2663\u2666\u2665\u2660]|JK)(?:#\d+)?(?![\w#])|\?\?/i
SUIT: /[CDHS](?![\w#])|[\u2663\u2666\u2665\u2660]|(?:clubs|diamonds|hearts|spades)\b/i
NOTRUMP: /nt\b|no[- ]?trumps?\b/i
BIDNAME: /[A-Za-z][A-Za-z0-9_\-]*/
KIND: /[A-Z][A-Za-z0-9]*/
KEY: /[a-z_][a-z0-9_]*/
LITERAL: /(?:true|false|null)\b/

_DEAL: /deal\b/i
_DEALER: /dealer\b/i
_UP: /up\s*:/i
_KITTY: /kitty\s*:/i
_DUMMY_LINE: /dummy\s*:/i
_GHOST_LINE: /ghost\s*:/i
_PASS: /pass(?:es)?\b/i
_ORDER: /(?:orders?|assists?)(?:\s+(?:it\s+)?up)?\b/i
ALONE: /alone\b/i
_NAME: /(?:names?|calls?)\b/i
_PICKUP: /picks?[- ]?up\b/i
_DECLINE: /declines?\b/i
_DISCARD: /discards?\b/i
_WITH_PARTNER: /with[- ]partner\b/i
_DEFEND_ALONE: /defends?[- ]alone\b/i
_BID: /bids?\b/i
_SWAP: /swaps?(?:[- ]ghost)?\b/i
_TAKE_DUMMY: /(?:takes?[- ])?dummy\b(?!\s*:)/i
_GIVE: /gives?\b/i
_TO: /to\b/i
_DROP: /drops?(?:[- ]out)?\b/i
_STAY: /stays?(?:[- ]in)?\b/i
_THROWN: /thrown[- ]in\b/i
_PLAY: /plays?\b/i
_JOKER_SUIT: /joker[- ]suit\b/i

%ignore /\s+/
%ignore ","
"""

MAX_NESTING = 40
"""Deepest nesting of brackets and parentheses (alternative lines inside
alternative lines, lists inside a generic event's field): deeper is refused
as the lexer meets it, before any tree is built or walked."""


class _Limit(Exception):
    """Raised by a lexer callback: a token past a limit (caught in parse_text)."""

    def __init__(self, reason: str, token: Token):
        super().__init__(reason)
        self.reason, self.token = reason, token


_LEX = threading.local()   # the nesting depth of the text being lexed (per thread)
_DIGITS_RE = re.compile(r"\d{%d,}" % (MAX_DIGITS + 1))


def _opened(tok: Token) -> Token:
    _LEX.depth = getattr(_LEX, "depth", 0) + 1
    if _LEX.depth > MAX_NESTING:
        raise _Limit(f"brackets or parentheses nested deeper than {MAX_NESTING} levels", tok)
    return tok


def _closed(tok: Token) -> Token:
    _LEX.depth = getattr(_LEX, "depth", 0) - 1
    return tok


def _number(tok: Token) -> Token:
    if _DIGITS_RE.search(tok):
        raise _Limit(_too_many_digits(str(tok)), tok)
    return tok


def _too_many_digits(text: str) -> str:
    n = max(len(m) for m in re.findall(r"\d+", text))
    return (f"a number of {n} digits ({clip(text.strip(), 30)}): a record holds no number "
            f"of more than {MAX_DIGITS}")


_PARSER = Lark(GRAMMAR, parser="lalr", lexer="contextual", propagate_positions=True,
               maybe_placeholders=False,
               lexer_callbacks={"LSQB": _opened, "LPAR": _opened, "RSQB": _closed, "RPAR": _closed,
                                **{name: _number for name in ("INT", "SIGNED", "TRICK", "HAND_SEAT",
                                                              "SEAT", "CARD", "TAG_NAME")}})

# Friendly names of the grammar's terminals, for "expected ..." messages.
_EXPECTED_NAMES = {
    "TAG_NAME": "a tag name", "STRING": 'a "quoted string"', "COMMENT": "a {comment}",
    "MARK": "a mark (! ? !? ?! !! ??)", "TRICK": "a trick label (T1:)",
    "HAND_SEAT": "a hand (N: ...)", "SEAT": "a seat (N E S W or P1..Pn)",
    "INT": "a number", "SIGNED": "a number", "CARD": "a card (JD, 10H, JK, ??)",
    "SUIT": "a suit (C D H S)", "NOTRUMP": "NT", "BIDNAME": "a bid (3, pb, moon)",
    "KIND": "an event type", "KEY": "a field name", "LITERAL": "true/false/null",
    "_DEAL": "Deal", "_DEALER": "dealer", "_UP": "Up:", "_KITTY": "Kitty:",
    "_DUMMY_LINE": "Dummy:", "_GHOST_LINE": "Ghost:", "_PASS": "pass", "_ORDER": "order",
    "ALONE": "alone", "_NAME": "name", "_PICKUP": "pickup", "_DECLINE": "decline",
    "_DISCARD": "discard", "_WITH_PARTNER": "with-partner", "_DEFEND_ALONE": "defend-alone",
    "_BID": "bid", "_SWAP": "swap", "_TAKE_DUMMY": "dummy", "_GIVE": "give", "_TO": "to",
    "_DROP": "drop", "_STAY": "stay", "_JOKER_SUIT": "joker-suit", "_THROWN": "thrown-in", "_PLAY": "play",
    "LSQB": "'['", "RSQB": "']'", "LPAR": "'('", "RPAR": "')'", "AT": "'@'",
    "EQUAL": "'='", "$END": "the end of the file",
}

FOUR_SEATS = SEAT_LETTERS_4     # seats as the text notation writes them (rules.seats)
FOUR_SEAT_TAGS = SEAT_WORDS_4   # and as its seat tags name them
# the events that are a seat and one word, both ways: grammar rule, class, word
_SEAT_ONLY = tuple((rule, cls, SEAT_ONLY_WORDS[cls.kind]) for rule, cls in (
    ("passed", Passed), ("picked_up", UpCardPickedUp), ("declined", UpCardDeclined),
    ("went_alone", WentAlone), ("with_partner", PlayedWithPartner), ("defended_alone", DefendedAlone),
    ("swapped", HandSwappedWithGhost), ("dummy_taken", DummyTaken), ("dropped_out", DroppedOut),
    ("stayed_in", StayedIn)))
_SEAT_ONLY_BY_RULE = {rule: cls for rule, cls, _ in _SEAT_ONLY}

MARKS = ANNOTATION_MARKS  # the one list of annotation marks (events.py)
"""Marks a comment may carry, as in chess: good, mistake, interesting, dubious,
brilliant, blunder."""
_SOURCE_TAGS = {"Date": "date", "Event": "event", "Site": "site", "Round": "round"}
_RESERVED_TAGS = ({"Variant", "Options", "Players", "Dealer", "Title", "InitialScore",
                   "FinalScore", "Source"} | set(FOUR_SEAT_TAGS) | set(_SOURCE_TAGS))
_TAG_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_.\-]*\Z")
_PSEAT_RE = re.compile(r"P(\d+)\Z")
_KEY_RE = re.compile(r"[a-z_][a-z0-9_]*\Z")

# ---------------------------------------------------------------- [Options "..."]

_OPTIONS_GRAMMAR = r"""
start: pair*
pair: KEY "=" (DQ | SQ | BARE)
KEY: /[A-Za-z_][A-Za-z0-9_]*/
DQ: /"(?:[^"\\]|\\.)*"/
SQ: /'[^']*'/
BARE: /[^\s,;='"]+/
%ignore /[\s,;]+/
"""
_OPTIONS_PARSER = Lark(_OPTIONS_GRAMMAR, parser="lalr")


def _typed(text: str) -> Any:
    """A typed option value: JSON (``10``, ``true``, ``"10"``, ``[1, 2]``) if the
    text is JSON a record can hold (:func:`~euchre_events.formats.load_json`),
    else the text itself (``left_of_dealer``; ``1e309`` stays a string, which
    the option's own check then refuses)."""
    try:
        return load_json(text, "<option>")
    except RecordError:
        return text


NO_TARGET = VariantOptions.option_maximum
"""``target_score`` of a game with no target score (a fixed number of deals,
``num_deals``, rules.md 2.9; an EGN game with no ``winning_score``): the
largest value an option may hold.  The notation writes it ``"none"``."""


def _option_value(name: str, text: str) -> Any:
    """:func:`_typed`, and ``target_score "none"`` (no target score) as
    :data:`NO_TARGET`."""
    if name == "target_score" and text.strip().lower() == "none":
        return NO_TARGET
    return _typed(text)


def _option_text(name: str, value: Any, words: frozenset) -> str:
    """An option's tag value: a word option as written, ``target_score`` at
    :data:`NO_TARGET` as ``none`` (what the record said: no target score),
    else :func:`_untyped`."""
    if name in words and isinstance(value, str):
        return value
    if name == "target_score" and isinstance(value, int) and not isinstance(value, bool) and value >= NO_TARGET:
        return "none"
    return _untyped(value)


def _str_options(variant: str) -> frozenset:
    """Names of the variant's options whose values are words (``str`` fields
    of its options dataclass): their tag values are taken as written."""
    try:
        from euchre_events.rules.registry import variant_class
        cls = variant_class(variant).options_class
        return frozenset(f.name for f in dataclasses.fields(cls) if f.type in ("str", str))
    except (KeyError, ValueError, TypeError):
        return frozenset()


def _untyped(value: Any) -> str:
    """Inverse of :func:`_typed`: strings are written bare unless they would
    read back as something else."""
    if isinstance(value, str):
        try:
            json.loads(value)
        except ValueError:
            if value.strip() == value and value:
                return value
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False)


# ------------------------------------------------------------------- reading

def read_text_file(path: str) -> list:
    """All games of a ``.euchre`` file as validated :class:`Record` objects.

    Raises :class:`RecordError` (file, line, column, what was expected) for a
    syntax error, (file, line, column, deal, event, reason) for a record
    that cannot have happened, and (file, reason) for a file that cannot be
    read, is not UTF-8 text, or holds no game (empty, or no ``[Variant]``
    tag anywhere).
    """
    return parse_text(read_record_text(str(path)), path=str(path))


def parse_text(text: str, path: str = "<string>", validate: bool = True) -> list:
    """Parse the text notation (docs/notation.md) into one :class:`Record` per game.

    ``path`` names the source in errors.  Every game is folded with the engine
    (:class:`~euchre_events.formats.builder.RecordBuilder`) and so is every alternative line from its branch
    point; ``validate=False`` skips both (used to test the notation alone, or
    for a variant this installation does not know).

    Each record has ``events`` (:class:`GameStarted` first), ``annotations``
    (``{"position": k, "text": str, "mark": str | None}``, ``k`` the index
    of the event the comment follows), ``variations`` (``{"position": k,
    "events": [...], "annotations": [...], "comment": str}``, replacing event
    ``k`` and what follows; the positions of its annotations and of nested
    lines, under ``"variations"``, index the line's own stream
    ``events[:k] + its events``), ``source``
    (``{"file", "format": "text", "line"}``), ``warnings`` (a misplaced
    trick label; a record that stops in the middle of a deal, see
    :func:`~euchre_events.formats.incomplete_warning`) and
    ``stated_final_score`` (from a ``[FinalScore]`` tag).  With no
    ``[InitialScore]`` tag the game starts from the variant's initial scores
    (``(0, 0)`` for partnerships), as every reader does.

    Raises :class:`RecordError` with ``line`` and ``column`` set, or naming
    only the file when the text holds no game (empty or blank).
    """
    _LEX.depth = 0
    try:
        tree = _PARSER.parse(text)
    except UnexpectedInput as e:
        raise _syntax_error(path, text, e) from None
    except _Limit as e:
        raise RecordError(path, e.reason, line=e.token.line, column=e.token.column) from None
    if not tree.children:
        raise no_game_error(path)
    records = []
    for game in tree.children:
        records.append(_GameReader(path, validate).build(game))
    return records


def _syntax_error(path: str, text: str, e: UnexpectedInput) -> RecordError:
    if isinstance(e, UnexpectedCharacters):
        expected = _describe_expected(e.allowed or ())
        m = re.compile(r"[^\s{}()\[\],]+").match(text, e.pos_in_stream)
        word = m.group(0) if m else text[e.pos_in_stream:e.pos_in_stream + 1]
        reason = f"unexpected {word!r}" + _card_hint(word, e.allowed or ())
        line, col = e.line, e.column
    elif isinstance(e, UnexpectedEOF):
        expected = _describe_expected(e.expected or ())
        reason = "unexpected end of the file"
        lines = text.split("\n")
        line, col = len(lines), len(lines[-1]) + 1
    else:
        assert isinstance(e, UnexpectedToken)
        expected = _describe_expected(e.accepts or e.expected or ())
        tok = e.token
        if tok.type == "$END":
            reason = "unexpected end of the file"
            lines = text.split("\n")
            line, col = len(lines), len(lines[-1]) + 1
        else:
            reason = f"unexpected {str(tok)!r}" + _card_hint(str(tok), e.accepts or e.expected or ())
            line, col = e.line, e.column
    if expected:
        reason += "; expected " + expected
    return RecordError(path, reason, line=line, column=col)


def _card_hint(word: str, expected) -> str:
    """Why a word that stands where a card could is not a card (or "")."""
    if "CARD" not in expected or not 2 <= len(word) <= 6 or not word[0].isalnum():
        return ""
    try:
        parse_card(word)
    except CardError as e:
        return f" ({e})"
    return ""


def _describe_expected(names: Iterable[str]) -> str:
    words = sorted({_EXPECTED_NAMES.get(n, n) for n in names},
                   key=lambda w: (w[0] in "'\"", w.lower()))
    return ", ".join(words)


class _Lines:
    """What the text reader keeps per line (main or alternative) besides the
    events, which the :class:`~euchre_events.formats.builder.RecordBuilder`
    holds: the dealt-cards block being read and the trick labels."""

    def __init__(self):
        self.block: Optional[dict] = None
        self.labels: list = []          # (index in the line's events, trick number, line, column)


class _GameReader:
    """Turns one ``game`` parse tree into a :class:`Record`, through a
    :class:`~euchre_events.formats.builder.RecordBuilder`."""

    def __init__(self, path: str, validate: bool):
        self.path = path
        self.validate = validate

    # ------------------------------------------------------------ errors
    def error(self, node, reason: str) -> RecordError:
        line = col = None
        if isinstance(node, Token):
            line, col = node.line, node.column
        elif isinstance(node, Tree) and not node.meta.empty:
            line, col = node.meta.line, node.meta.column
        elif isinstance(node, tuple):
            line, col = node
        return RecordError(self.path, reason, line=line, column=col)

    # ------------------------------------------------------------ header
    def build(self, game: Tree) -> Record:
        tags = [c for c in game.children if isinstance(c, Tree) and c.data == "tag"]
        items = [c for c in game.children if not (isinstance(c, Tree) and c.data == "tag")]
        started, stated, warnings = self.header(game, tags)
        self.n_seats = len(started.players)
        self.b = RecordBuilder(self.path, "text", validate=self.validate,
                               source={"file": self.path, "format": "text", "line": game.meta.line})
        for w in warnings:
            self.b.warn(w)
        if stated is not None:
            self.b.state_final_score(stated)
        self.b.add(started, line=game.meta.line, column=game.meta.column)
        main = _Lines()
        self.items(main, items)
        self.finish(main)
        if self.validate:
            for w in self.label_warnings(self.b.validate(), main):
                self.b.warn(w)
        return self.b.finish()

    def header(self, game: Tree, tags: list):
        seen: dict = {}
        for t in tags:
            name_tok, value_tok = t.children
            name = str(name_tok)
            if name in seen:
                raise self.error(name_tok, f"the tag [{name}] is given twice")
            try:
                value = json.loads(str(value_tok))
            except ValueError as e:
                raise self.error(value_tok, f"bad string in tag [{name}]: {e}") from None
            seen[name] = (value, t)
        if "Variant" not in seen:
            raise self.error(game, 'a game must start with a [Variant "..."] tag')
        variant = seen["Variant"][0].strip()
        words = _str_options(variant)
        options: dict = {}
        option_tags: dict = {}            # option name -> the tag's value token (for errors)
        source: dict = {}
        players: dict = {}
        title = ""
        initial = None
        stated = None
        warnings: list = []
        dealer_text = None
        players_list = None
        for name, (value, t) in seen.items():
            tok = t.children[1]
            if name == "Variant":
                continue
            if name == "Options":
                for k, v in self.parse_options(value, tok, words).items():
                    if k in options:
                        raise self.error(tok, f"option {k} is given twice")
                    options[k] = v
                    option_tags[k] = tok
            elif name.startswith("Option."):
                k = name[len("Option."):]
                if not k or k in options:
                    raise self.error(t.children[0], f"option {k!r} is given twice or has no name")
                options[k] = value if k in words else _option_value(k, value)
                option_tags[k] = tok
            elif name == "Players":
                players_list = [p.strip() for p in re.split(r"[;,]", value)]
            elif name in FOUR_SEAT_TAGS or _PSEAT_RE.match(name):
                k = (FOUR_SEAT_TAGS.index(name) if name in FOUR_SEAT_TAGS
                     else int(_PSEAT_RE.match(name).group(1)) - 1)
                if k < 0:
                    raise self.error(t.children[0], "seats are numbered P1, P2, ...")
                if k in players:
                    raise self.error(t.children[0], f"seat {k} is named twice "
                                                    f"([{players[k][1].children[0]}] and [{name}])")
                players[k] = (value, t)
            elif name == "Dealer":
                dealer_text = (value, tok)
            elif name == "Title":
                title = value
            elif name == "InitialScore":
                initial = tuple(self.parse_score(value, tok))
            elif name == "FinalScore":
                stated = self.parse_score(value, tok)
            elif name in _SOURCE_TAGS:
                source[_SOURCE_TAGS[name]] = value
            elif name == "Source":
                try:
                    extra = load_json(value, self.path)
                except RecordError:
                    extra = None
                if not isinstance(extra, dict):
                    raise self.error(tok, "[Source] must hold a JSON object") from None
                source.update(extra)
            elif name.startswith("Source."):
                k = name[len("Source."):]
                try:
                    source[k] = load_json(value, self.path)
                except RecordError as e:
                    raise self.error(tok, f"[{name}] must hold a JSON value ({e.reason})") from None
            else:
                source[name] = value
        if players_list is not None and players:
            raise self.error(seen["Players"][1], "give the players either in [Players] or one tag per seat")
        n = self.variant_seats(variant)
        if players_list is not None:
            names = players_list
        else:
            top = max(players) + 1 if players else 0
            n_total = max(top, n or 0)
            if n_total == 0:
                raise self.error(seen["Variant"][1], f"unknown variant {variant!r} and no players named")
            names = []
            for i in range(n_total):
                if i in players:
                    names.append(players[i][0])
                else:
                    names.append(FOUR_SEAT_TAGS[i] if n_total == 4 else f"P{i + 1}")
        self.n_seats = len(names)
        self.players = tuple(names)
        first_dealer = 0
        if dealer_text is not None:
            first_dealer = self.seat_from_text(dealer_text[0], dealer_text[1])
        if self.validate and options:
            self.check_options(variant, options, option_tags)
        started = GameStarted(variant, options, tuple(names), first_dealer=first_dealer,
                              initial_score=initial, title=title, source=source)
        return started, stated, warnings

    def check_options(self, variant: str, options: dict, tags: dict) -> None:
        """Raise the error of a bad option value at the tag that gives it
        (the options' own check, :func:`~euchre_events.rules.variant.options_from_dict`);
        an unknown variant is left to the builder's fold."""
        from euchre_events.rules.registry import make_variant
        try:
            make_variant(variant, options)
        except ValueError as e:
            m = re.match(r"option (\w+)=", str(e))
            if m and m.group(1) in tags:
                raise self.error(tags[m.group(1)], str(e)) from None
            unknown = [k for k in tags if str(e).startswith("unknown option") and f"'{k}'" in str(e)]
            if unknown:       # at the tag that names it
                raise self.error(tags[unknown[0]], str(e)) from None

    @staticmethod
    def variant_seats(variant: str) -> Optional[int]:
        try:
            from euchre_events.rules.registry import variant_class
            return variant_class(variant).n_seats
        except (KeyError, ValueError):
            return None

    def parse_options(self, value: str, tok: Token, words: frozenset = frozenset()) -> dict:
        try:
            tree = _OPTIONS_PARSER.parse(value)
        except UnexpectedInput as e:
            raise self.error(tok, f"[Options] is not a list of key=value pairs "
                                  f"(at character {e.column} of the value)") from None
        out = {}
        for pair in tree.children:
            key, val = pair.children
            k = str(key)
            if k in out:
                raise self.error(tok, f"option {k} is given twice")
            if val.type == "DQ":
                out[k] = json.loads(str(val))
            elif val.type == "SQ":
                out[k] = str(val)[1:-1]
            else:
                out[k] = str(val) if k in words else _option_value(k, str(val))
        return out

    def parse_score(self, value: str, tok: Token) -> list:
        if _DIGITS_RE.search(value):
            raise self.error(tok, _too_many_digits(value))
        m = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*", value)
        if m:
            return [int(m.group(1)), int(m.group(2))]
        if not re.fullmatch(r"\s*-?\d+(?:\s*[,;\s]\s*-?\d+)*\s*", value):
            raise self.error(tok, f"a score must be numbers per side, e.g. \"4, 9\", not {value!r}")
        return [int(x) for x in re.findall(r"-?\d+", value)]

    def seat_from_text(self, text: str, tok) -> int:
        t = text.strip()
        if _DIGITS_RE.search(t):
            raise self.error(tok, _too_many_digits(t))
        if t in FOUR_SEATS or t in FOUR_SEAT_TAGS:
            k = (FOUR_SEATS.index(t) if t in FOUR_SEATS else FOUR_SEAT_TAGS.index(t))
        elif _PSEAT_RE.match(t):
            k = int(_PSEAT_RE.match(t).group(1)) - 1
        elif t.isdigit():
            k = int(t)
        elif t in self.players:
            k = self.players.index(t)
        else:
            raise self.error(tok, f"{text!r} is not a seat (N E S W, P1..P{self.n_seats}, 0..{self.n_seats - 1} "
                                  f"or a player's name)")
        return self.check_seat(k, tok, text)

    def check_seat(self, k: int, tok, text: str) -> int:
        if not 0 <= k < self.n_seats:
            raise self.error(tok, f"seat {text} does not exist: this game has {self.n_seats} seats")
        return k

    # ------------------------------------------------------------ items
    def seat(self, node: Tree) -> int:
        """Seat index of a ``seat``/``other_seat`` node (checked against the game)."""
        tok = node.children[0]
        if tok.type == "INT":
            return self.check_seat(int(tok), tok, str(tok))
        t = str(tok)
        if t in FOUR_SEATS:
            return self.check_seat(FOUR_SEATS.index(t), tok, t)
        return self.check_seat(int(t[1:]) - 1, tok, t)

    def card(self, tok: Token) -> str:
        try:
            return parse_card(str(tok))
        except CardError as e:
            raise self.error(tok, str(e)) from None

    def items(self, ctx: _Lines, items: Sequence) -> None:
        for it in items:
            kind = it.data
            if kind in ("hand_line", "up_line", "kitty_line", "dummy_line", "ghost_line"):
                self.block_line(ctx, it)
                continue
            if kind == "annotation":
                self.annotation(ctx, it)
                continue
            self.flush(ctx)
            if kind == "variation":
                self.variation(ctx, it)
            elif kind == "trick_label":
                tok = it.children[0]
                n = int(re.search(r"\d+", str(tok)).group(0))
                ctx.labels.append((len(self.b.events), n, tok.line, tok.column))
            elif kind == "deal_header":
                deal_tok, seat_node = it.children
                self.add(DealStarted(int(deal_tok), self.seat(seat_node)), it)
            else:
                self.add(self.event(it), it)

    def add(self, ev: Event, node) -> None:
        line, col = (node.meta.line, node.meta.column) if isinstance(node, Tree) else node
        self.b.add(ev, line=line, column=col)

    def event(self, it: Tree) -> Event:
        k, ch = it.data, it.children
        seat = self.seat(ch[0]) if ch and isinstance(ch[0], Tree) and ch[0].data == "seat" else None
        if k in _SEAT_ONLY_BY_RULE:
            return _SEAT_ONLY_BY_RULE[k](seat)
        if k == "ordered_up":
            return OrderedUp(seat, alone=len(ch) > 1)
        if k == "trump_named":
            tok = ch[1].children[0]
            suit = None if tok.type == "NOTRUMP" else parse_suit(str(tok))
            return TrumpNamed(seat, suit, alone=len(ch) > 2)
        if k == "discarded":
            return Discarded(seat, self.card(ch[1]))
        if k == "bid_made":
            tok = ch[1].children[0]
            if tok.type == "INT":
                bid: Any = int(tok)
            elif tok.type == "STRING":
                bid = json.loads(str(tok))
            else:
                bid = str(tok).lower()
            return BidMade(seat, bid)
        if k == "card_passed":
            return CardPassed(seat, self.seat(ch[2]), self.card(ch[1]))
        if k == "thrown_in":
            reasons = [json.loads(str(c)) for c in ch if isinstance(c, Token) and c.type == "STRING"]
            return DealThrownIn(reasons[0] if reasons else "all passed", seat)
        if k == "played":
            return CardPlayed(seat, self.card(ch[-1]))
        if k == "joker_suit":
            return JokerSuitNamed(seat, parse_suit(str(ch[1])))
        if k == "generic":
            return self.generic(it)
        raise self.error(it, f"unknown item {k}")  # pragma: no cover - grammar and code agree

    def generic(self, it: Tree) -> Event:
        kind_tok, *fields = it.children
        d: dict = {"type": str(kind_tok)}
        for f in fields:
            key, val = f.children
            if str(key) in d:
                raise self.error(key, f"field {key} is given twice")
            d[str(key)] = self.value(val)
        try:
            return event_from_dict(d)
        except ValueError as e:
            raise self.error(it, str(e)) from None

    def value(self, v) -> Any:
        if isinstance(v, Tree):  # list
            return [self.value(x) for x in v.children]
        if v.type in ("INT", "SIGNED"):
            return int(v)
        if v.type == "SEAT":   # against=E, by=P2: a seat by its name, as in the moves
            return self.seat(Tree("seat", [v]))
        if v.type == "STRING":
            return json.loads(str(v))
        return json.loads(str(v))  # LITERAL

    # ------------------------------------------------------------ dealt cards
    def block_line(self, ctx: _Lines, it: Tree) -> None:
        if ctx.block is None:
            ctx.block = {"hands": {}, "where": (it.meta.line, it.meta.column), "node": it,
                         "notes": []}
        b = ctx.block
        cards = tuple(self.card(c) for c in it.children if c.type == "CARD")
        if it.data == "hand_line":
            tok = it.children[0]
            text = re.sub(r"\s*:\Z", "", str(tok))
            seat = self.seat(Tree("seat", [Token("INT" if text.isdigit() else "SEAT", text,
                                                  line=tok.line, column=tok.column)]))
            if seat in b["hands"]:
                raise self.error(tok, f"the hand of seat {text} is given twice in this deal")
            b["hands"][seat] = cards
            return
        key = {"up_line": "up", "kitty_line": "kitty", "dummy_line": "dummy",
               "ghost_line": "ghost"}[it.data]
        if key in b:
            raise self.error(it, f"the {key} is given twice in this deal")
        b[key] = cards[0] if key == "up" else cards

    def flush(self, ctx: _Lines) -> None:
        b = ctx.block
        if b is None:
            return
        ctx.block = None
        missing = [s for s in range(self.n_seats) if s not in b["hands"]]
        if missing:
            names = ", ".join(self.seat_label(s) for s in missing)
            raise self.error(b["where"], f"the dealt cards give no hand for seat {names} "
                                         f"(write ?? for cards not known)")
        hands = tuple(b["hands"][s] for s in range(self.n_seats))
        ev = CardsDealt(hands, b.get("up"), b.get("kitty", ()), b.get("dummy", ()), b.get("ghost", ()))
        self.add(ev, b["where"])
        for text in b["notes"]:
            self.b.annotate(text)

    def seat_label(self, s: int) -> str:
        return FOUR_SEATS[s] if self.n_seats == 4 else f"P{s + 1}"

    # ------------------------------------------------------------ comments
    def annotation(self, ctx: _Lines, it: Tree) -> None:
        mark = None
        text = ""
        for tok in it.children:
            if tok.type == "MARK":
                mark = str(tok)
            else:
                text = re.sub(r"\\(.)", r"\1", str(tok)[1:-1], flags=re.S)
        if ctx.block is not None:
            if mark is not None:
                raise self.error(it, "a mark (! ? ...) judges a move; the dealt cards are not one")
            ctx.block["notes"].append(text)
            return
        events = self.b.events
        if self.b.in_variation and not events:
            if mark is not None:
                raise self.error(it, "a mark must follow a move; a variation starts with its moves "
                                     "or with a plain {comment}")
            self.b.comment_variation(text)
            return
        if events and events[-1].kind == "CardsDealt" and mark is not None:
            raise self.error(it, "a mark (! ? ...) judges a move; the dealt cards are not one")
        self.b.annotate(text, mark)

    # ------------------------------------------------------------ variations
    def variation(self, ctx: _Lines, it: Tree) -> None:
        first = 0 if self.b.in_variation else 1
        if len(self.b.events) <= first:
            raise self.error(it, "an alternative line ( ... ) must follow the event it replaces")
        self.b.begin_variation()
        sub = _Lines()
        self.items(sub, it.children)
        self.finish(sub)
        if not self.b.events:
            raise self.error(it, "an alternative line ( ... ) holds no event")
        self.b.end_variation()

    def finish(self, ctx: _Lines) -> None:
        self.flush(ctx)
        if ctx.labels and ctx.labels[-1][0] >= len(self.b.events):
            _, n, line, col = ctx.labels[-1]
            raise self.error((line, col), f"trick label T{n}: is followed by no card")

    # ------------------------------------------------------------ validation
    def label_warnings(self, game, main: _Lines) -> list:
        """A trick label that does not stand where that trick begins (the
        game folded: :meth:`RecordBuilder.validate`)."""
        out = []
        for idx, n, line, col in main.labels:
            t = game.table_at(idx)
            if t.phase != "play" or t.trick or len(t.tricks) + 1 != n:
                actual = (f"trick {len(t.tricks) + 1} card {len(t.trick) + 1}" if t.phase == "play"
                          else f"phase {t.phase}")
                out.append(f"{self.path}, line {line}, column {col}: label T{n}: stands at {actual}")
        return out


# ------------------------------------------------------------------- writing

def write_text(events: Sequence[Event], annotations: Sequence[dict] = (),
               variations: Sequence[dict] = (), final_score: Optional[Sequence[int]] = None) -> str:
    """The game as text notation (docs/notation.md); :func:`parse_text` reads it back.

    ``events``: :class:`GameStarted` first, then the game's events in order;
    ``annotations``: ``{"position", "text", "mark"}`` dicts (``position`` =
    index of the event the comment is about); ``variations``: ``{"position",
    "events", "annotations", "comment"}`` dicts (an alternative to event
    ``position`` and what follows, ``position`` in 1..len(events)-1; the
    positions of its annotations and of nested lines, under ``"variations"``,
    index the line's own stream ``events[:position] + its events``; other
    keys are not written, and lines without events are left out);
    ``final_score``: points per side, written as a ``[FinalScore]`` tag when
    given.  ``[InitialScore]`` is written only when it is not the variant's
    own initial score (which a game without the tag starts from).

    Tricks are labelled ``T1:`` .. by folding the events with the engine; if
    the events cannot be folded the plays are written without labels.

    Raises ``ValueError`` if the first event is not :class:`GameStarted`, a
    position is out of range, or a mark is put on dealt cards (where ``??``
    would read as an unknown card).
    """
    events = list(events)
    if not events or not isinstance(events[0], GameStarted):
        raise ValueError("the first event must be GameStarted")
    if any(isinstance(e, GameStarted) for e in events[1:]):
        raise ValueError("GameStarted may only be the first event")
    g: GameStarted = events[0]
    n = len(g.players)
    w = _Writer(n)
    lines = w.header(g, final_score)
    notes = _notes_by_position(annotations, 0, len(events))
    for note in notes.get(0, []):
        lines.append(w.note(note, events[0]))
    vars_at = _variations_by_position(variations, 1, len(events))
    labels, mid = _trick_labels(events)
    lines.append("")
    lines.extend(w.body(events, 1, notes, vars_at, labels, mid))
    return "\n".join(lines).rstrip() + "\n"


def _notes_by_position(annotations: Sequence[dict], lo: int, hi: int) -> dict:
    """``{position: [annotation, ...]}``; positions must lie in ``lo..hi-1``."""
    out: dict = {}
    for a in annotations:
        p = a["position"]
        if not isinstance(p, int) or not lo <= p < hi:
            raise ValueError(f"annotation position {p!r} outside {lo}..{hi - 1}")
        out.setdefault(p, []).append(a)
    return out


def _variations_by_position(variations: Sequence[dict], lo: int, hi: int) -> dict:
    """``{position: [variation, ...]}`` of the lines that hold events."""
    out: dict = {}
    for v in variations:
        if v.get("position") is None and not v.get("events"):
            continue          # kept as raw data by a reader: nothing to write
        p = v["position"]
        if not isinstance(p, int) or not lo <= p < hi:
            what = "GameStarted cannot be replaced" if p == 0 and lo == 1 else f"outside {lo}..{hi - 1}"
            raise ValueError(f"alternative line position {p!r}: {what}")
        out.setdefault(p, []).append(v)
    return out


def _trick_labels(events: Sequence[Event]) -> tuple:
    """``({event index: trick number}, {indices})``: the first card of every
    trick, and the other events that happen in the middle of a trick (a suit
    named for a led joker), from an engine fold; stops quietly where the
    events cannot be folded."""
    labels = {}
    mid = set()
    t = new_table()
    for i, ev in enumerate(events):
        if isinstance(ev, CardPlayed) and t.phase == "play" and not t.trick:
            labels[i] = len(t.tricks) + 1
        elif not isinstance(ev, CardPlayed) and t.trick:
            mid.add(i)
        try:
            apply(t, ev)
        except (ImpossibleEvent, ValueError):
            break
    return labels, mid


def _escape_comment(text: str) -> str:
    return text.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}")


def _tag(name: str, value: str) -> str:
    return f"[{name} {json.dumps(value, ensure_ascii=False)}]"


class _Writer:
    def __init__(self, n_seats: int):
        self.n = n_seats

    def seat(self, s: Optional[int]) -> str:
        if not isinstance(s, int) or not 0 <= s < self.n:
            raise ValueError(f"seat {s!r} does not exist in a game of {self.n} seats")
        return FOUR_SEATS[s] if self.n == 4 else f"P{s + 1}"

    def header(self, g: GameStarted, final_score) -> list:
        lines = [_tag("Variant", g.variant)]
        words = _str_options(g.variant)
        for k, v in (g.options or {}).items():
            if not _TAG_NAME_RE.match("Option." + k):
                raise ValueError(f"option name {k!r} cannot be written as a tag")
            lines.append(_tag("Option." + k, _option_text(k, v, words)))
        if g.title:
            lines.append(_tag("Title", g.title))
        odd: dict = {}
        for k, v in (g.source or {}).items():
            tag = {v2: k2 for k2, v2 in _SOURCE_TAGS.items()}.get(k)
            if isinstance(v, str) and tag is not None:
                lines.append(_tag(tag, v))
            elif (isinstance(v, str) and _TAG_NAME_RE.match(k) and k not in _RESERVED_TAGS
                  and not k.startswith(("Option.", "Source.")) and not _PSEAT_RE.match(k)):
                lines.append(_tag(k, v))
            elif _TAG_NAME_RE.match("Source." + k):
                lines.append(_tag("Source." + k, json.dumps(v, ensure_ascii=False)))
            else:
                odd[k] = v
        if odd:
            lines.append(_tag("Source", json.dumps(odd, ensure_ascii=False)))
        names = FOUR_SEAT_TAGS if self.n == 4 else tuple(f"P{i + 1}" for i in range(self.n))
        for name, player in zip(names, g.players):
            lines.append(_tag(name, str(player)))
        lines.append(_tag("Dealer", self.seat(g.first_dealer)))
        if g.initial_score and tuple(g.initial_score) != default_initial_score(g):
            lines.append(_tag("InitialScore", ", ".join(str(int(x)) for x in g.initial_score)))
        if final_score is not None:
            lines.append(_tag("FinalScore", ", ".join(str(int(x)) for x in final_score)))
        return lines

    def note(self, a: dict, ev: Optional[Event]) -> str:
        mark = a.get("mark")
        text = "{" + _escape_comment(str(a.get("text") or "")) + "}"
        if mark:
            if mark not in MARKS:
                raise ValueError(f"unknown mark {mark!r}; marks are {' '.join(MARKS)}")
            if ev is not None and ev.kind == "CardsDealt":
                raise ValueError("a mark cannot be written on dealt cards (?? would read as a card)")
            return f"{mark} {text}"
        return text

    def cards(self, cards: Iterable[str]) -> str:
        return " ".join(cards)

    def event(self, ev: Event) -> str:
        k = ev.kind
        s = self.seat(ev.seat) if hasattr(ev, "seat") and ev.seat is not None else None
        if k == "DealThrownIn":
            out = "thrown-in" if s is None else f"{s} thrown-in"
            if ev.reason != "all passed":
                out += " " + json.dumps(ev.reason, ensure_ascii=False)
            return out
        if k == "DealStarted":
            return f"Deal {ev.deal} dealer {self.seat(ev.dealer)}"
        if k == "JokerSuitNamed" and ev.suit not in SUITS:
            return self.generic(ev)
        words = action_words(ev)   # the notation's words for an action: one place (events.py)
        if words is None:
            return self.generic(ev)
        if k == "CardPassed":
            return f"{s} {words} to {self.seat(ev.to_seat)}"
        return f"{s} {words}"

    def generic(self, ev: Event) -> str:
        parts = []
        for f in dataclasses.fields(ev):
            v = getattr(ev, f.name)
            parts.append(f"{f.name}={self.value(v)}")
        return f"@{ev.kind}(" + ", ".join(parts) + ")"

    def value(self, v) -> str:
        if v is None or isinstance(v, bool):
            return json.dumps(v)
        if isinstance(v, int):
            return str(v)
        if isinstance(v, str):
            return json.dumps(v, ensure_ascii=False)
        if isinstance(v, (list, tuple)):
            return "[" + " ".join(self.value(x) for x in v) + "]"
        raise ValueError(f"value {v!r} of type {type(v).__name__} cannot be written in @Event(...) form")

    def dealt(self, ev: CardsDealt) -> list:
        if len(ev.hands) != self.n:
            raise ValueError(f"CardsDealt has {len(ev.hands)} hands for {self.n} seats")
        lines = [f"{self.seat(s)}: {self.cards(h)}".rstrip() for s, h in enumerate(ev.hands)]
        if ev.up_card is not None:
            lines.append(f"Up: {ev.up_card}")
        if ev.kitty:
            lines.append(f"Kitty: {self.cards(ev.kitty)}")
        if ev.dummy:
            lines.append(f"Dummy: {self.cards(ev.dummy)}")
        if ev.ghost:
            lines.append(f"Ghost: {self.cards(ev.ghost)}")
        return lines

    def body(self, events: Sequence[Event], start: int, notes: dict, vars_at: dict,
             labels: dict, mid: frozenset = frozenset(), inline: bool = False) -> list:
        """Lines for ``events[start:]``: a blank line and a header per deal,
        one line per hand, the auction and exchanges on one line, one line
        per trick (labelled from ``labels``).  ``inline`` (alternative lines)
        keeps moves on one line and writes no labels."""
        lines: list = []
        cur: list = []
        cur_kind = ""

        def end_line():
            nonlocal cur_kind
            if cur:
                lines.append("  ".join(cur))
                cur.clear()
            cur_kind = ""

        for i in range(start, len(events)):
            ev = events[i]
            extra = [self.note(a, ev) for a in notes.get(i, [])]
            extra += [self.variation(v) for v in vars_at.get(i, [])]
            if ev.kind == "DealStarted":
                end_line()
                if lines and not inline:
                    lines.append("")
                lines.append(" ".join([self.event(ev)] + extra))
                continue
            if ev.kind == "CardsDealt":
                end_line()
                block = self.dealt(ev)
                if extra:
                    block[-1] = " ".join([block[-1]] + extra)
                lines.extend(block)
                continue
            kind = "play" if ev.kind == "CardPlayed" or i in mid else "auction"
            label = ""
            if not inline:
                if i in labels:
                    end_line()
                    label = f"T{labels[i]}: "
                elif kind != cur_kind:
                    end_line()
                cur_kind = kind
            cur.append(label + " ".join([self.event(ev)] + extra))
        end_line()
        return lines

    def variation(self, v: dict) -> str:
        evs = list(v["events"])
        if not evs:
            raise ValueError("an alternative line holds no event")
        base = v["position"]
        notes = _notes_by_position(v.get("annotations", ()), base, base + len(evs))
        sub = _variations_by_position(v.get("variations", ()), base, base + len(evs))
        parts = []
        if v.get("comment"):
            parts.append("{" + _escape_comment(v["comment"]) + "}")
        body = self.body([None] + evs, 1, {k - base + 1: a for k, a in notes.items()},
                         {k - base + 1: a for k, a in sub.items()}, {}, inline=True)
        text = "\n".join(body)
        parts.append(text)
        return "(" + " ".join(parts) + ")"
