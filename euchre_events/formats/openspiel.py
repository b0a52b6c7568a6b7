"""OpenSpiel ``euchre`` action histories as event streams.

OpenSpiel (https://github.com/google-deepmind/open_spiel, ``games/euchre``)
records a game as a flat list of integer actions, chance outcomes included:

* ``history[0]``: the dealer, a seat 0..3 (0 = North, clockwise, as our seats);
* ``history[1:21]``: the 20 dealt cards; card ``k`` (0-based) goes to seat
  ``(dealer + k) % 4``, so the first card goes to the dealer;
* ``history[21]``: the up-card; the 3 cards never named are the kitty;
* then the players' decisions, with these action ids:

  ====================  =================================================
  0..23                 a card (discard or play): ``rank * 4 + suit`` with
                        suits C, D, H, S = 0..3 and ranks 9, T, J, Q, K, A = 0..5
  24                    Pass
  25, 26, 27, 28        trump Clubs, Diamonds, Hearts, Spades (round 1 offers
                        only the up-card's suit; round 2 the three others)
  29                    Alone (the maker goes alone, or a defender defends alone)
  30                    Partner (plays with the partner)
  ====================  =================================================

Each JSON Lines file line (as written by ``openspiel_games.py`` or
:func:`random_openspiel_games`) is one single-deal game:
``{"params": {...}, "history": [...], "returns": [...], ...}``; other keys are
ignored.  :func:`history_to_events` turns a history into our events (the
dealer's pick-up after an order-up and the throw-in after eight passes, which
OpenSpiel folds into the neighbouring action, become events of their own);
:func:`event_to_action` maps our events back to OpenSpiel action ids.

No I/O except :func:`read_openspiel_file`; :func:`random_openspiel_games`
needs the optional ``open_spiel`` package (``pyspiel``).
"""
from __future__ import annotations

import json
from typing import Annotated, Iterator, Literal, Optional, Sequence


from euchre_events.formats import sigint_held

with sigint_held():
    import msgspec

from euchre_events.rules.actions import (ALONE, CALL, CARD_CODES, NUM_CARDS, PARTNER, PASS,
                                          SUIT_ACTION)
from euchre_events.rules.cards import SUITS
from euchre_events.rules.seats import SEAT_LETTERS_4
from euchre_events.rules.fastcore import event_of, fast_rules
from euchre_events.rules.registry import make_variant
from euchre_events.events import (CardPlayed, CardsDealt, DealStarted, DealThrownIn, DefendedAlone,
                      Discarded, Event, GameStarted, OrderedUp, Passed, PlayedWithPartner,
                      TrumpNamed, UpCardPickedUp, WentAlone)
from euchre_events.formats import Record, RecordError, load_json, open_record, read_record_text

PASS_ACTION = PASS
"""OpenSpiel action id of Pass (:data:`euchre_events.rules.actions.PASS`)."""
FIRST_TRUMP_ACTION = CALL
"""OpenSpiel action id of Clubs; Diamonds, Hearts, Spades follow (26, 27, 28)."""
ALONE_ACTION = ALONE
"""OpenSpiel action id of Alone (go alone, or defend alone)."""
PARTNER_ACTION = PARTNER
"""OpenSpiel action id of Partner (play with the partner)."""
PLAYERS = SEAT_LETTERS_4  # OpenSpiel games name no players: the seats stand for them
"""Player names used for OpenSpiel games: seats 0..3 clockwise from North."""
DEFAULT_PARAMS = {"allow_lone_defender": False, "stick_the_dealer": True}
"""OpenSpiel's ``euchre`` parameters and their defaults (OpenSpiel 2.0)."""

CARD_OF_ID: tuple = CARD_CODES
"""Our card code for each OpenSpiel card id 0..23 (``CARD_OF_ID[0] == "9C"``)."""
ID_OF_CARD: dict = {c: i for i, c in enumerate(CARD_OF_ID)}
"""OpenSpiel card id (0..23) of each card code."""

_SUIT_ACTION = SUIT_ACTION


class OpenSpielError(ValueError):
    """An OpenSpiel history that cannot be turned into events.

    ``index``: position in the history (0-based, chance actions included) or
    None; ``reason``: words.
    """

    def __init__(self, reason: str, index: Optional[int] = None, deal: Optional[int] = None):
        super().__init__(reason if index is None else f"history[{index}]: {reason}")
        self.reason = reason
        self.index = index
        self.deal = deal


def card_of(action: int) -> str:
    """Card code of an OpenSpiel card id 0..23 (``card_of(9) == "JD"``, ``card_of(5) == "TD"``).

    Raises :class:`OpenSpielError` for anything else.
    """
    if type(action) is not int or not 0 <= action < NUM_CARDS:
        raise OpenSpielError(f"{action!r} is not a card id (0..23)")
    return CARD_OF_ID[action]


def action_name(action: int) -> str:
    """OpenSpiel's own name of an action after the deal: ``"Pass"``,
    ``"Hearts"``, ``"Alone"``, ``"Partner"`` or a card (``"HJ"`` style is
    OpenSpiel's; we give our code, ``"JH"``)."""
    if action == PASS_ACTION:
        return "Pass"
    if FIRST_TRUMP_ACTION <= action < FIRST_TRUMP_ACTION + 4:
        return ("Clubs", "Diamonds", "Hearts", "Spades")[action - FIRST_TRUMP_ACTION]
    if action == ALONE_ACTION:
        return "Alone"
    if action == PARTNER_ACTION:
        return "Partner"
    if type(action) is int and 0 <= action < NUM_CARDS:
        return CARD_OF_ID[action]
    return repr(action)


def openspiel_options(params: Optional[dict] = None) -> dict:
    """Our :class:`~euchre_events.variants.standard.StandardOptions` (as a
    dict) that replay OpenSpiel's ``euchre`` rules with ``params``.

    ``params``: OpenSpiel's game parameters, ``allow_lone_defender`` (bool,
    default False) and ``stick_the_dealer`` (bool, default True).  Raises
    :class:`OpenSpielError` for an unknown parameter or a non-boolean value.

    Where OpenSpiel departs from rules.md section 2, and the option that matches it:

    * alone is decided *after* the exchange (OpenSpiel's GoAlone phase comes
      after the dealer's discard; rules.md 2.4 has it declared with the call):
      ``alone_timing="after_exchange"``;
    * the dealer may not discard the up-card just picked up (rules.md 2.2
      allows it by default, case C7): ``dealer_may_discard_upcard=False``;
    * since alone is decided after the exchange, the dealer has already picked
      up when the dealer's partner goes alone (rules.md 2.2: no exchange):
      ``exchange_when_dealer_out=True``;
    * with ``allow_lone_defender`` either defender may defend alone, even
      against a maker who plays with the partner (rules.md 2.4: off by
      default): ``defend_alone="any"``, first the defender nearer the dealer's
      left, then the other; a lone defender's euchre is worth 4
      (``lone_defender_value=4``, rules.md 2.6);
    * ``stick_the_dealer`` is OpenSpiel's default (rules.md 2.3: an option,
      off by default); the turned-down suit stays barred
      (``stick_allows_turned_down=False``);
    * the opening lead is left of the dealer, skipping a seat that sits out
      (rules.md 2.5 default): ``loner_lead="left_of_dealer"``; a lone maker
      euchred gives 2 (``lone_euchred_value=2``, rules.md 2.6 default);
    * one deal per game: a game ends after its only deal, so ``target_score``
      is never reached and does not matter (it is left at the standard
      variant's default, rules.md 2.6); eight passes without stick
      end the game scoring 0 (our ``DealThrownIn``);
    * the deal is one card at a time and the first card goes to the dealer
      (rules.md 2.1: from the dealer's left, in packets); this changes no rule,
      the hands are recorded as dealt.
    """
    p = dict(DEFAULT_PARAMS)
    for k, v in (params or {}).items():
        if k not in DEFAULT_PARAMS:
            raise OpenSpielError(f"unknown OpenSpiel euchre parameter {k!r} "
                                 f"(known: {', '.join(DEFAULT_PARAMS)})")
        if not isinstance(v, bool):
            raise OpenSpielError(f"parameter {k} must be true or false, not {v!r}")
        p[k] = v
    return {
        "stick_the_dealer": p["stick_the_dealer"],
        "stick_allows_turned_down": False,
        "target_score": make_variant("standard").options.target_score,
        "loner_lead": "left_of_dealer",
        "lone_euchred_value": 2,
        "defend_alone": "any" if p["allow_lone_defender"] else "off",
        "lone_defender_value": 4,
        "super_euchre": False,
        "dealer_may_discard_upcard": False,
        "dealer_may_decline_upcard": False,
        "alone_timing": "after_exchange",
        "exchange_when_dealer_out": True,
        "dealers_partner_must_go_alone": False,
        "must_hold_named_suit": False,
    }


def event_to_action(ev: Event, up_card: Optional[str] = None) -> Optional[int]:
    """The OpenSpiel action id of one of our events, or None when OpenSpiel
    has no action for it (GameStarted, DealStarted, CardsDealt, UpCardPickedUp,
    DealThrownIn: chance outcomes or steps OpenSpiel folds into another action).

    ``up_card``: the deal's up-card (card code), needed for :class:`OrderedUp`,
    whose OpenSpiel action is the up-card's suit.  Card events give the card id
    (0..23).  Raises ``ValueError`` for an event OpenSpiel cannot express
    (no-trump, a joker, a bid, an OrderedUp without ``up_card``).
    """
    k = ev.kind
    if k == "CardPlayed" or k == "Discarded":
        try:
            return ID_OF_CARD[ev.card]
        except KeyError:
            raise ValueError(f"{ev.card!r} is not a card of OpenSpiel's deck") from None
    if k == "Passed":
        return PASS_ACTION
    if k == "OrderedUp":
        if up_card is None:
            raise ValueError("OrderedUp needs the up-card to give its OpenSpiel action")
        return _SUIT_ACTION[up_card[1]]
    if k == "TrumpNamed":
        if ev.suit not in _SUIT_ACTION:
            raise ValueError(f"trump {ev.suit!r} has no OpenSpiel action")
        return _SUIT_ACTION[ev.suit]
    if k == "WentAlone" or k == "DefendedAlone":
        return ALONE_ACTION
    if k == "PlayedWithPartner":
        return PARTNER_ACTION
    if k in ("GameStarted", "DealStarted", "CardsDealt", "UpCardPickedUp", "DealThrownIn"):
        return None
    raise ValueError(f"{k} has no OpenSpiel action")


def _deal_events(history: Sequence[int], params: Optional[dict], title: str,
                 source: Optional[dict]) -> list:
    """GameStarted, DealStarted, CardsDealt from the 22 chance actions."""
    if len(history) < 22:
        raise OpenSpielError(f"the history has {len(history)} actions; the deal alone "
                             f"takes 22 (dealer, 20 cards, up-card)")
    for i in range(22):
        if type(history[i]) is not int:
            raise OpenSpielError(f"{history[i]!r} is not an action id", index=i)
    dealer = history[0]
    if not 0 <= dealer < 4:
        raise OpenSpielError(f"dealer {dealer} is not a seat 0..3", index=0)
    hands: list = [[], [], [], []]
    used: set = set()
    for k in range(21):
        a = history[1 + k]
        if not 0 <= a < NUM_CARDS:
            raise OpenSpielError(f"{a} is not a card id (0..23)", index=1 + k)
        if a in used:
            raise OpenSpielError(f"card {CARD_OF_ID[a]} ({a}) is dealt twice", index=1 + k)
        used.add(a)
        if k < 20:
            hands[(dealer + k) % 4].append(CARD_OF_ID[a])
    up = CARD_OF_ID[history[21]]
    kitty = tuple(CARD_OF_ID[i] for i in range(NUM_CARDS) if i not in used)
    src = {"format": "openspiel", "game": "euchre", "params": dict(params or {})}
    if source:
        src.update(source)
    return [
        GameStarted("standard", openspiel_options(params), PLAYERS, first_dealer=dealer,
                    initial_score=(0, 0), title=title, source=src),
        DealStarted(1, dealer),
        CardsDealt(tuple(tuple(h) for h in hands), up, kitty),
    ]


def _decision_event(t, a, i: int) -> Event:
    """Our event for OpenSpiel action ``a`` (history index ``i``) at table ``t``."""
    ph, s = t.phase, t.turn
    if type(a) is not int:
        raise OpenSpielError(f"{a!r} is not an action id", index=i, deal=1)
    if ph == "play" or ph == "discard":
        if not 0 <= a < NUM_CARDS:
            raise OpenSpielError(f"action {a} ({action_name(a)}) is not a card, but seat {s} "
                                 f"is to {'play' if ph == 'play' else 'discard'}", index=i, deal=1)
        return CardPlayed(s, CARD_OF_ID[a]) if ph == "play" else Discarded(s, CARD_OF_ID[a])
    if ph == "round1" or ph == "round2":
        if a == PASS_ACTION:
            return Passed(s)
        if FIRST_TRUMP_ACTION <= a < FIRST_TRUMP_ACTION + 4:
            suit = SUITS[a - FIRST_TRUMP_ACTION]
            if ph == "round2":
                return TrumpNamed(s, suit)
            if suit == t.up_card[1]:
                return OrderedUp(s)
            raise OpenSpielError(f"{action_name(a)} called in round 1: only the up-card's suit "
                                 f"({t.up_card}) can be ordered up", index=i, deal=1)
    elif ph == "alone" or ph == "defend":
        if a == ALONE_ACTION:
            return WentAlone(s) if ph == "alone" else DefendedAlone(s)
        if a == PARTNER_ACTION:
            return PlayedWithPartner(s)
    elif ph in ("deal_over", "game_over", "thrown_in"):
        raise OpenSpielError(f"action {a} ({action_name(a)}) after the end of the deal",
                             index=i, deal=1)
    raise OpenSpielError(f"action {a} ({action_name(a)}) is not possible in phase {ph}",
                         index=i, deal=1)


def align_history(history: Sequence[int], params: Optional[dict] = None, title: str = "",
                  source: Optional[dict] = None) -> list:
    """``[(event, history_index or None), ...]``: our events for an OpenSpiel
    history, each with the history position of the action it comes from.

    The three opening events carry None (they stand for the 22 chance
    actions), and so do the events OpenSpiel has no action for: the dealer's
    :class:`UpCardPickedUp` right after a round-1 call, and
    :class:`DealThrownIn` after eight passes.  The events are folded with the
    engine as they are made.  A history may stop before the end of the deal.

    Raises :class:`OpenSpielError` (with the history index) for a history that
    cannot have happened: a bad dealer or card id, a card dealt twice, an
    action that means nothing in its phase, a card not in the hand, an action
    after the end.  A play that does not follow suit is kept: the engine
    records it as a renege.
    """
    return _align(history, params, title, source)[0]


def _align(history, params, title, source):
    """(aligned events, folded table): see :func:`align_history`."""
    # the engine and the builder are imported where used: the fast path needs neither
    from euchre_events.rules.engine import ImpossibleEvent, apply, new_table
    t = new_table()
    out = []
    for ev, i in _decode(history, params, title, source, lambda: t):
        try:
            apply(t, ev)
        except (ImpossibleEvent, ValueError) as e:
            if i is None:
                raise OpenSpielError(str(e), deal=1) from None
            raise OpenSpielError(e.reason, index=i, deal=1) from None
        out.append((ev, i))
    return out, t


def _decode(history, params, title, source, table) -> Iterator[tuple]:
    """``(event, history index or None)`` for an OpenSpiel history, one at a
    time; ``table()`` (called once, after the three opening events) gives
    the table the caller folds every event into, each before asking for the
    next: the engine says
    whose turn it is and which phase an action belongs to.  Raises
    :class:`OpenSpielError` for an action that means nothing there."""
    for ev in _deal_events(history, params, title, source):
        yield ev, None
    t = None
    for i in range(22, len(history)):
        if t is None:
            t = table()     # the caller folds into this one table from now on
        yield _decision_event(t, history[i], i), i
        # the steps OpenSpiel folds into the action before them
        if t.phase == "pickup":
            yield UpCardPickedUp(t.dealer), None
        elif t.phase == "thrown_in":
            yield DealThrownIn("all passed"), None


def history_to_events(history: Sequence[int], params: Optional[dict] = None,
                      title: str = "", source: Optional[dict] = None) -> list:
    """Our events (``list[Event]``) for one OpenSpiel euchre game.

    ``history``: OpenSpiel action ids, chance actions included (``state.history()``);
    ``params``: OpenSpiel's game parameters (see :func:`openspiel_options`);
    ``title`` and ``source`` go into :class:`GameStarted` (``source`` is merged
    with ``{"format": "openspiel", "game": "euchre", "params": ...}``).

    Gives GameStarted (variant ``standard``, players N E S W, first dealer from
    the history), DealStarted(1, dealer), CardsDealt (the four hands, the
    up-card, the three undealt cards as the kitty), then Passed / OrderedUp /
    TrumpNamed, UpCardPickedUp + Discarded, WentAlone / PlayedWithPartner,
    DefendedAlone / PlayedWithPartner, CardPlayed, or DealThrownIn when all
    eight pass.  Raises :class:`OpenSpielError` as :func:`align_history` does.
    """
    return [ev for ev, _ in align_history(history, params, title, source)]


def score_from_returns(returns: Sequence[float]) -> list:
    """Our score per side (side 0 = N/S, side 1 = E/W, points >= 0) from
    OpenSpiel's zero-sum returns per player: the side with the positive return
    scored it.  Raises ``ValueError`` if the returns are not four numbers of
    the form ``[a, -a, a, -a]`` with ``a`` a whole number of points a deal
    can score (at most 100 either way)."""
    if not isinstance(returns, (list, tuple)) or len(returns) != 4:
        raise ValueError("expected 4 returns, one per player" if not isinstance(returns, (list, tuple))
                         else f"{len(returns)} returns, expected 4")
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) and abs(x) <= 100
               for x in returns):
        raise ValueError("each return must be a number of points a deal can score (-100 to 100)")
    r = [float(x) for x in returns]
    if r[0] != r[2] or r[1] != r[3] or r[0] != -r[1] or r[0] != int(r[0]):
        raise ValueError(f"returns {list(returns)} are not of the form [a, -a, a, -a]")
    a = int(r[0])
    return [max(a, 0), max(-a, 0)]


def read_openspiel_file(path: str) -> list:
    """All games of a JSON Lines file of OpenSpiel euchre games, as
    :class:`~euchre_events.formats.Record` objects (one per non-blank line).

    Each line: ``{"history": [int, ...], "params": {...}}`` (``params``
    optional, OpenSpiel's defaults; a line without ``history`` may give
    ``steps: [{"action": int}, ...]``); ``returns`` (per player) becomes
    ``stated_final_score`` per side; ``seed`` and ``index`` go into the title
    and source; other keys are ignored.  Every game is folded by the engine.

    Raises :class:`RecordError` naming the file, the line number and the reason
    (not JSON, no history, unknown parameter, an impossible action, ...) at the
    first bad line; nothing is returned then.  A file whose first line is not
    a complete JSON object (a pretty-printed JSON document, an EGN file...)
    is "not JSON Lines"; a file that cannot be read, is not UTF-8 text, or is
    empty or blank is refused naming the file.
    """
    records = []
    first = True
    # no size limit: a JSON Lines file of any number of games is an OpenSpiel file
    for lineno, line in enumerate(read_record_text(str(path), limit=None).split("\n"), 1):
        if not line.strip():
            continue
        records.append(_read_line(path, lineno, line, first))
        first = False
    return records


def iter_openspiel_file(path: str, fast: bool = False, render=None, workers: int = 1) -> Iterator:
    """The games of a JSON Lines file of OpenSpiel euchre games one at a
    time, read line by line (constant memory for a file of any number of
    games): a :class:`~euchre_events.formats.Record` per good line (with its
    validated ``game``, each event folded once), a
    :class:`~euchre_events.formats.RecordError` per bad line (file, line,
    deal, event, reason, as :func:`read_openspiel_file` gives it); the lines
    after a bad game are read on.

    ``fast=True``: a line that :func:`fast_line` takes (a regular complete
    game, nothing unusual in the line) comes as a :class:`FastGame`
    instead of a Record (no event objects made, no engine fold); every
    other line is read as above, so errors and warnings stay the same.
    ``render``: a function of a FastGame giving its text (a module-level
    function: it goes to other processes); with it, a fast line comes as a
    :class:`Rendered` text instead.  ``workers`` > 1 (with ``fast`` and
    ``render``): the fast lines are read and rendered by that many worker
    processes, a few hundred lines at a time, at most two pieces each ahead
    of what has been given out (memory stays constant); what comes out, and
    in which order, is the same as with one.  Where processes cannot be
    started, one is used.

    The file is refused (one error, then nothing more) when it cannot be
    opened, when its first line is not a JSON object ("not JSON Lines"), at
    a NUL byte or a byte that is not UTF-8 before its first game (the offset
    in the file is named, as :func:`~euchre_events.formats.read_record_text`
    does), and when it holds no game line ("the file is empty").  Such a
    byte in a later line is a damaged line: named, and the lines after it
    are read on.
    """
    try:
        f = open_record(path)     # a regular file: a named pipe or /dev/zero is refused
    except RecordError as e:
        yield e
        return
    with f:
        if fast and render is not None and workers > 1:
            lines = _in_workers(f, path, render, workers)
        elif fast:
            lines = ((lineno, raw, _fast_one(raw, path, lineno, render)) for lineno, raw in enumerate(f, 1))
        else:
            lines = ((lineno, raw, None) for lineno, raw in enumerate(f, 1))
        offset = 0
        first = True
        try:
            for lineno, raw, done in lines:
                if done is not None:    # a line the fast path took is JSON: UTF-8, not blank
                    offset += len(raw)
                    first = False
                    yield done
                    continue
                item, refused = _plain_line(path, lineno, raw, offset, first)
                offset += len(raw)
                if item is not None:
                    yield item
                    if refused:
                        return     # no text, or not JSON Lines at all: nothing more to read
                    first = False
            if first:
                yield RecordError(path, "the file is empty: it holds no game")
        finally:
            close = getattr(lines, "close", None)
            if close is not None:
                close()          # the workers stop with the reading


def _plain_line(path: str, lineno: int, raw: bytes, offset: int, first: bool) -> tuple:
    """``(item, refused)`` of one line of a JSON Lines file read without the
    fast path (:func:`iter_openspiel_file`): its Record or RecordError, None
    for a blank line; ``refused``: the file is refused at this line (no
    text, or not JSON Lines, at its first game: ``first``), nothing after it
    is read.  ``offset``: the line's first byte in the file (errors name it)."""
    # a bad byte before any game: the file is no text (refused); after
    # games, one damaged line: named, and the lines after it read on
    if b"\x00" in raw:
        at = offset + raw.index(0)
        if first:
            return RecordError(path, f"not a text record: it holds a NUL byte at offset "
                                     f"{at} (a binary file?)"), True
        return RecordError(path, f"not text: the line holds a NUL byte at offset {at} of "
                                 "the file (a damaged line)", line=lineno), False
    try:
        line = raw.decode("utf-8-sig" if lineno == 1 else "utf-8")
    except UnicodeDecodeError as e:
        at = offset + e.start
        if first:
            return RecordError(path, f"not a text record: byte 0x{raw[e.start]:02x} at offset "
                                     f"{at} is not UTF-8 (a binary file, or text "
                                     "in another encoding: save it as UTF-8)"), True
        return RecordError(path, f"not text: byte 0x{raw[e.start]:02x} at offset {at} of the "
                                 "file is not UTF-8 (a damaged line)", line=lineno), False
    if not line.strip():
        return None, False
    # a regular game (most lines): its Record from the fast core's reading, the same one
    rec = _fast_record(raw, path, lineno) if lineno > 1 or not raw.startswith(b"\xef\xbb\xbf") else None
    if rec is not None:
        return rec, False
    try:
        return _read_line(path, lineno, line, first), False
    except RecordError as e:
        return e, first and e.reason.startswith(_NOT_JSONL)


def openspiel_spans(path: str, parts: int) -> list:
    """``(start, stop, lineno, first)`` of the runs of lines of a JSON Lines
    file that processes read in parallel (``analyze --workers``), each by
    :func:`read_openspiel_span`, in order: its head (the lines up to its
    first one that is not blank, ``first`` True: whether the file is taken
    at all is said there), then at most ``parts`` runs, shorter and shorter
    (``first`` False: for workers that take the next run as they finish one); ``start``, ``stop``: byte offsets, ``lineno``: the
    number of the run's first line.  The lines are not read as games here
    (only decoded up to the head).  OSError where the file cannot be read."""
    with open(path, "rb") as f:
        data = f.read()
    pos, lineno, size = 0, 1, len(data)
    while pos < size:
        nl = data.find(b"\n", pos)
        end = size if nl < 0 else nl + 1
        raw = data[pos:end]
        try:
            blank = b"\x00" not in raw and not raw.decode("utf-8-sig" if lineno == 1 else "utf-8").strip()
        except UnicodeDecodeError:
            blank = False
        if not blank:
            pos = end
            break
        pos, lineno = end, lineno + 1
    spans = [(0, pos, 1, True)]
    start, lineno = pos, lineno + 1
    for k in range(1, max(1, parts) + 1):
        # run k ends at 1 - (1 - k/parts)**2 of the bytes: shorter and shorter runs, so that
        # workers taking the next one as they finish end together
        nl = data.find(b"\n", size - ((size - pos) * (parts - k) ** 2) // parts ** 2) if k < parts else -1
        stop = size if nl < 0 else nl + 1
        if stop > start:
            spans.append((start, stop, lineno, False))
            lineno += data.count(b"\n", start, stop)
            start = stop
    return spans


def read_openspiel_span(path: str, start: int, stop: int, lineno: int, first: bool) -> tuple:
    """``(items, refused)`` for a run of :func:`openspiel_spans`: the
    Records and RecordErrors :func:`iter_openspiel_file` gives for the lines
    of ``path`` from byte ``start`` to ``stop`` (the first numbered
    ``lineno``), in order; ``refused``: the file is refused there (its head,
    ``first``: no text, not JSON Lines, no game), so that nothing of the runs
    after it counts.  OSError where the file cannot be read."""
    if first:
        try:
            f = open_record(path)     # a regular file, as iter_openspiel_file opens it
        except RecordError as e:
            return [e], True
    else:
        f = open(path, "rb")
    with f:
        f.seek(start)
        block = f.read(stop - start)
    items = []
    offset = start
    for i, raw in enumerate(_lines_of(block)):
        item, refused = _plain_line(path, lineno + i, raw, offset, first)
        offset += len(raw)
        if item is not None:
            items.append(item)
            if refused:
                return items, True
            first = False
    if first:
        items.append(RecordError(path, "the file is empty: it holds no game"))
        return items, True
    return items, False


class Rendered(str):
    """The text a ``render`` function gave for a game the fast path read
    (:func:`iter_openspiel_file`)."""

    __slots__ = ()


def _fast_one(raw: bytes, path: str, lineno: int, render):
    """What :func:`iter_openspiel_file` gives for a line the fast path takes
    (a FastGame, or its Rendered text), None for any other line."""
    if b"\x00" in raw:
        return None
    fg = fast_line(raw, path, lineno)
    if fg is None or render is None:
        return fg
    return Rendered(render(fg))


def _lines_of(block: bytes) -> list:
    """The lines of ``block`` as iterating over the file gives them (each
    with its ``\\n``; the last without one at the end of the file)."""
    parts = block.split(b"\n")
    tail = parts.pop()
    lines = [x + b"\n" for x in parts]
    if tail:
        lines.append(tail)
    return lines


def _fast_block(render, path: str, start: int, size: int, lineno: int) -> list:
    """In a worker process: :func:`_fast_one` of each line of the ``size``
    bytes of ``path`` from ``start`` (read here: the text is not sent
    between processes), the first numbered ``lineno``."""
    with open(path, "rb") as f:
        f.seek(start)
        block = f.read(size)
    return [_fast_one(raw, path, lineno + i, render) for i, raw in enumerate(_lines_of(block))]


_BLOCK = 1 << 20
"""Bytes (then to the end of a line) a worker reads at a time: some 250 OpenSpiel games."""


def _worker_start() -> None:
    """In a worker process: Ctrl-C is this process's parent's to handle (it
    stops the workers); a worker that took it too would print its own
    traceback."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _in_workers(f, path: str, render, workers: int) -> Iterator:
    """``(lineno, raw, Rendered or None)`` for each line of ``f`` in order,
    the fast lines read by ``workers`` forked processes (each reading its
    own block of the file, at most two blocks each ahead of what has been
    given out); in this process when they cannot be started or one fails."""
    import collections
    try:
        import concurrent.futures as cf
        import multiprocessing as mp
        pool = cf.ProcessPoolExecutor(workers, mp_context=mp.get_context("fork"),
                                      initializer=_worker_start)
    except (ImportError, OSError, ValueError, NotImplementedError):
        for lineno, raw in enumerate(f, 1):
            yield lineno, raw, _fast_one(raw, path, lineno, render)
        return
    pending: collections.deque = collections.deque()
    at = [0, 1]                   # byte offset and line number of the next block

    def submit() -> None:
        block = f.read(_BLOCK)
        if not block:
            return
        if not block.endswith(b"\n"):
            block += f.readline()
        start, lineno = at
        lines = _lines_of(block)
        at[0], at[1] = start + len(block), lineno + len(lines)
        try:
            done = pool.submit(_fast_block, render, path, start, len(block), lineno)
        except Exception:   # the pool broke (a worker killed): read it here
            done = None
        pending.append((lines, lineno, done))

    try:
        for _ in range(2 * workers):
            submit()
        while pending:
            lines, lineno, done = pending.popleft()
            try:
                if done is None:
                    raise RuntimeError("no worker")
                results = done.result()
                if len(results) != len(lines):
                    raise RuntimeError("the file changed while it was read")
            except Exception:   # a worker that died: this block is read here
                results = [_fast_one(raw, path, lineno + i, render) for i, raw in enumerate(lines)]
            submit()
            for i, (raw, r) in enumerate(zip(lines, results)):
                yield lineno + i, raw, r
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


_NOT_JSONL = "not JSON Lines (one OpenSpiel game object per line)"
_HISTORY_NAMES = tuple(f"history[{i}]" for i in range(128))
"""How errors name the actions of a history (made once, not per action)."""


def _title_and_source(seed, index) -> tuple:
    """A line's game title and the ``seed``/``index`` part of its source
    (:func:`_read_line`, :func:`_fast_record`)."""
    title = "OpenSpiel euchre"
    if index is not None:
        title += f" game {index}"
    if seed is not None:
        title += f" (seed {seed})"
    return title, ({"seed": seed, "index": index} if seed is not None or index is not None else {})


def _read_line(path: str, lineno: int, line: str, first: bool = False) -> Record:
    from euchre_events.formats.builder import RecordBuilder
    try:
        obj = load_json(line, path, line=lineno)
    except RecordError as e:
        if first and e.reason.startswith("not JSON: "):
            raise RecordError(path, f"{_NOT_JSONL}: line {lineno} is not a complete JSON object "
                                    f"({e.reason[len('not JSON: '):]})", line=lineno,
                              column=e.column) from None
        raise
    if not isinstance(obj, dict):
        if first:
            raise RecordError(path, f"{_NOT_JSONL}: line {lineno} is a JSON "
                                    f"{type(obj).__name__}, not an object", line=lineno)
        raise RecordError(path, "a line must be a JSON object with a \"history\"", line=lineno)
    game = obj.get("game", "euchre")
    if game != "euchre":
        raise RecordError(path, f"game {game!r} is not OpenSpiel's euchre", line=lineno)
    history = obj.get("history")
    if history is None and isinstance(obj.get("steps"), list):
        try:
            history = [s["action"] for s in obj["steps"]]
        except (TypeError, KeyError):
            raise RecordError(path, "a step without an \"action\"", line=lineno) from None
    if not isinstance(history, list):
        raise RecordError(path, "no \"history\" list of action ids", line=lineno)
    steps = obj.get("steps")
    if "history" in obj and isinstance(steps, list):
        # a line that states its actions twice must state the same ones: one that does not
        # contradicts itself (the history alone was read: a changed step went unseen)
        try:
            acts = [s["action"] for s in steps]
        except (TypeError, KeyError):
            raise RecordError(path, "a step without an \"action\"", line=lineno) from None
        if acts != history:
            k = next((i for i, (a, b) in enumerate(zip(acts, history)) if a != b), min(len(acts), len(history)))
            said = [f"{x[k]!r}" if k < len(x) else "nothing" for x in (acts, history)]
            raise RecordError(path, f"its \"steps\" and its \"history\" differ at action {k + 1} "
                                    f"(steps: {said[0]}, history: {said[1]}): the line contradicts itself",
                              line=lineno)
    params = obj.get("params") or {}
    if not isinstance(params, dict):
        raise RecordError(path, "\"params\" must be an object", line=lineno)
    title, src = _title_and_source(obj.get("seed"), obj.get("index"))
    source = {"file": str(path), "format": "openspiel", "line": lineno, "params": dict(params)}
    if "openspiel_version" in obj:
        source["openspiel_version"] = obj["openspiel_version"]
    source.update(src)
    b = RecordBuilder(str(path), "openspiel", source=source)
    if "returns" in obj:
        try:
            stated = score_from_returns(obj["returns"])
        except (TypeError, ValueError) as e:
            raise RecordError(path, f"bad \"returns\": {e}", line=lineno) from None
        b.state_final_score(stated, f"the file's returns {list(obj['returns'])} give {{stated}}, "
                                    "the replay scores {final}")
    names = _HISTORY_NAMES
    try:
        for ev, i in _decode(history, params, title, src, lambda: b.table):
            b.add(ev, line=lineno, name=None if i is None else (
                names[i] if i < len(names) else f"history[{i}]"))
    except OpenSpielError as e:
        ev = None if e.index is None else f"history[{e.index}]"
        raise b.error(e.reason, deal=e.deal, event=ev, line=lineno) from None
    return b.finish(stop_prefix="the history stops before the end of the deal "
                                f"(phase {b.table.phase}): ")


# ------------------------------------------------------- the fast path


with sigint_held():
    _Int = Annotated[int, msgspec.Meta(ge=-(10 ** 18), le=10 ** 18)]
    """A whole number of at most 19 digits (:func:`load_json` refuses more
    than :data:`~euchre_events.formats.MAX_DIGITS`; a longer one goes to it)."""

    _Legal = Literal[tuple(range(31))]
    """An action id OpenSpiel's euchre can list as legal (0..30: cards, the
    dealer's seat at the first chance step, pass, the calls, alone, with the
    partner); anything else sends the line to the reference reader."""
    _Player = Literal[-1, 0, 1, 2, 3]

    class _Step(msgspec.Struct, forbid_unknown_fields=True, gc=False):
        action: _Int
        player: _Player = -1
        action_str: str = ""
        legal: list[_Legal] = []

    class _Trick(msgspec.Struct, forbid_unknown_fields=True, gc=False):
        leader: _Int
        cards: list[_Int]
        winner: _Int
        winning_card: _Int = -1

    class _Summary(msgspec.Struct, forbid_unknown_fields=True, gc=False):
        dealer: _Int = -1
        upcard: _Int = -1
        trump_suit: _Int = -1
        declarer: _Int = -1
        declarer_partner: _Int = -1
        discard: _Int = -1
        declarer_go_alone: bool = False
        lone_defender: _Int = -1
        active_players: list[bool] = []
        num_passes: _Int = 0
        tricks: list[_Trick] = []

    class _Line(msgspec.Struct, forbid_unknown_fields=True, gc=False):
        """Every key a line of ``openspiel_games.py`` or
        :func:`random_openspiel_games` holds, each value typed: a line with any
        other key or value (where :func:`load_json`'s limits on numbers and
        nesting could matter) does not decode, and the reference reader reads it."""
        game: str = "euchre"
        params: Optional[dict[str, bool]] = None
        openspiel_version: Optional[str] = None
        seed: Optional[_Int] = None
        index: Optional[_Int] = None
        steps: Optional[list[_Step]] = None
        history: Optional[list[_Int]] = None
        returns: msgspec.Raw = msgspec.Raw()     # JSON text, read by load_json (cached)
        summary: Optional[_Summary] = None
        tricks: Optional[list[_Trick]] = None

    _DECODER = msgspec.json.Decoder(_Line)
_FAST_RULES: dict = {}
_HAND_SLICES = tuple(tuple(slice(1 + ((s - dealer) & 3), 21, 4) for s in range(4)) for dealer in range(4))
"""Per dealer, the slices of the history holding each seat's cards."""
_STATED: dict = {}
"""``returns`` JSON text -> the score it states (None: refused)."""


class FastGame:
    """A line :func:`fast_line` read: ``title``, ``params`` (OpenSpiel's
    ``(allow_lone_defender, stick_the_dealer)``), ``options`` (ours, a
    dict), ``dealer``, ``hands`` (card ints per seat, as dealt), ``up``,
    ``kitty`` (card ints), ``deal``
    (:class:`~euchre_events.rules.fastcore.FastDeal`).  The events are
    GameStarted, DealStarted(1, dealer), CardsDealt, then ``deal.codes``
    (:func:`~euchre_events.rules.fastcore.event_of`): exactly the events of
    :func:`history_to_events`."""

    __slots__ = ("title", "params", "options", "dealer", "hands", "up", "kitty", "deal")

    def __init__(self, title, params, options, dealer, hands, up, kitty, deal):
        self.title, self.params, self.options, self.dealer = title, params, options, dealer
        self.hands, self.up, self.kitty, self.deal = hands, up, kitty, deal

    def start(self) -> GameStarted:
        """The game's GameStarted (without the title and source of a line)."""
        return GameStarted("standard", self.options, PLAYERS, first_dealer=self.dealer,
                           initial_score=(0, 0))

    def cards_dealt(self) -> CardsDealt:
        return CardsDealt(tuple(tuple(CARD_OF_ID[c] for c in h) for h in self.hands),
                          CARD_OF_ID[self.up], tuple(CARD_OF_ID[c] for c in self.kitty))

    def events(self) -> list:
        """The game's events (what :func:`history_to_events` gives, title and source apart)."""
        return [self.start(), DealStarted(1, self.dealer), self.cards_dealt()] + [
            event_of(c) for c in self.deal.codes]


def fast_line(raw: bytes, path: str = "", lineno: int = 0) -> Optional[FastGame]:
    """The game of one JSON Lines line (bytes) through the fast core
    (:mod:`euchre_events.rules.fastcore`), or None when the line needs the
    reference reader: anything the typed decoding does not take (another
    key, another type, a byte order mark, text that is not JSON ...), an
    unknown parameter, a bad deal, bad ``returns``, or a game the fast core
    declines (a renege, an irregular or impossible action, an incomplete
    deal), and a line whose ``returns`` differ from the replay (the reader
    warns about it)."""
    got = _fast_parts(raw, path)
    return None if got is None else got[0]


def _fast_parts(raw: bytes, path: str) -> Optional[tuple]:
    """:func:`fast_line`'s work: ``(FastGame, decoded line, history, stated
    score or None)``, or None where :func:`fast_line` gives None."""
    try:
        d = _DECODER.decode(raw)
    except msgspec.DecodeError:
        return None
    if d.game != "euchre":
        return None
    history = d.history
    if history is None:
        if d.steps is None:
            return None
        history = [s.action for s in d.steps]
    elif d.steps is not None and [s.action for s in d.steps] != history:
        return None     # steps and history differ: the plain reader names it
    if len(history) < 22:
        return None
    p = d.params
    lone, stick = False, True
    if p:
        for k, v in p.items():
            if k == "allow_lone_defender":
                lone = v
            elif k == "stick_the_dealer":
                stick = v
            else:
                return None
    key = (lone, stick)
    got = _FAST_RULES.get(key)
    if got is None:
        opts = openspiel_options({"allow_lone_defender": lone, "stick_the_dealer": stick})
        got = _FAST_RULES[key] = (opts, fast_rules(make_variant("standard", opts)))
    options, rules = got
    if rules is None:
        return None
    dealer = history[0]
    if not 0 <= dealer < 4:
        return None
    # card k goes to seat (dealer + k) % 4: seat s gets cards (s - dealer) % 4, 4 apart
    h0, h1, h2, h3 = _HAND_SLICES[dealer]
    hands = [history[h0], history[h1], history[h2], history[h3]]
    up = history[21]
    deal = rules.deal(dealer, hands, up, history, 22, ints=True)   # msgspec gave ints: checks the values
    if deal is None:
        return None
    if d.returns:
        raw = bytes(d.returns)
        stated = _STATED.get(raw, False)
        if stated is False:
            try:    # the reference reader's strict JSON and check, once per distinct text
                stated = score_from_returns(load_json(raw.decode(), path))
            except (RecordError, TypeError, ValueError):
                stated = None
            if len(_STATED) < 4096:
                _STATED[raw] = stated
        if stated is None or stated[0] != deal.scores[0] or stated[1] != deal.scores[1]:
            return None
    else:
        stated = None
    kitty = deal.undealt      # the 3 cards never named
    title = _title_and_source(d.seed, d.index)[0]
    return FastGame(title, key, options, dealer, hands, up, kitty, deal), d, history, stated


def _fast_record(raw: bytes, path: str, lineno: int) -> Optional[Record]:
    """The Record :func:`_read_line` gives for the line ``raw`` (its events,
    source, stated score, no warning, and its Game), made from what
    :func:`fast_line` read where it takes the line: the events of the
    history (``_deal_events`` as the reader makes them, then the fast
    core's, :func:`history_to_events`'s own: tests/test_fast_audit.py),
    folded once by the engine, without the reader's event-by-event build
    (the RecordBuilder, the decoding of each action at its table).  None
    where the reader must read it (:func:`fast_line` does not take it, or
    the typed decoding cannot tell an ``"openspiel_version": null`` from
    none): the reader then says what the line holds, errors and warnings
    included.  A line taken has nothing to warn about: the fast core takes
    complete regular deals only, and ``returns`` that the replay gives."""
    got = _fast_parts(raw, path)
    if got is None:
        return None
    fg, d, history, stated = got
    version = d.openspiel_version
    if version is None and b'"openspiel_version"' in raw:
        return None     # null, or in some string: the reader says which
    from euchre_events.projections import Game
    from euchre_events.rules.engine import ImpossibleEvent, fold, new_table
    params = d.params or {}
    title, src = fg.title, _title_and_source(d.seed, d.index)[1]
    source = {"file": str(path), "format": "openspiel", "line": lineno, "params": dict(params)}
    if version is not None:
        source["openspiel_version"] = version
    source.update(src)
    events = _deal_events(history, params, title, src)
    events += map(event_of, fg.deal.codes)
    try:
        final = fold(new_table(), events)
    except (ImpossibleEvent, ValueError):    # (never met: the core declines first) the reader names it
        return None
    rec = Record(events=events, source=source, stated_final_score=None if stated is None else list(stated))
    rec.game = Game.from_folded(events, final)
    return rec


# ------------------------------------------------------- random games

def random_openspiel_games(n: int, seed: int = 1, params: Optional[dict] = None,
                           tricks: bool = True) -> Iterator[dict]:
    """``n`` random OpenSpiel euchre games, as the lines of
    ``openspiel_games.py`` (a dict per game).

    Game ``i`` uses ``random.Random(seed + i)``: chance outcomes drawn by their
    probabilities, player actions uniformly among ``state.legal_actions()``.
    Each dict: ``params``, ``seed``, ``index``, ``steps`` (``{"player",
    "action", "legal"}``; player -1 = chance, ``legal`` sorted action ids or
    chance outcomes), ``history``, ``returns`` (points per player) and, with
    ``tricks``, ``tricks``: ``[{"leader", "cards", "winner"}]`` from
    ``state.tricks()``.  Needs ``pyspiel`` (``pip install open-spiel``).
    """
    import random     # the generator's only: not on a reader's start-up
    import pyspiel
    p = dict(DEFAULT_PARAMS)
    p.update(params or {})
    game = pyspiel.load_game("euchre", p)
    for i in range(n):
        rng = random.Random(seed + i)
        state = game.new_initial_state()
        steps = []
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                r = rng.random()
                acc = 0.0
                action = outcomes[-1][0]
                for a, prob in outcomes:
                    acc += prob
                    if r < acc:
                        action = a
                        break
                steps.append({"player": -1, "action": action,
                              "legal": sorted(a for a, _ in outcomes)})
            else:
                legal = sorted(state.legal_actions())
                action = legal[rng.randrange(len(legal))]
                steps.append({"player": state.current_player(), "action": action,
                              "legal": legal})
            state.apply_action(action)
        line = {"game": "euchre", "params": p, "seed": seed + i, "index": i, "steps": steps,
                "history": [s["action"] for s in steps], "returns": list(state.returns())}
        if tricks:
            line["tricks"] = [{"leader": tr.leader(), "cards": list(tr.cards()),
                               "winner": tr.winner()}
                              for tr in state.tricks() if tr.leader() >= 0]
        yield line


def simulated_openspiel_games(n: int, seed: int = 1, params: Optional[dict] = None,
                              tricks: bool = True) -> Iterator[dict]:
    """``n`` random one-deal games of OpenSpiel's ``euchre`` rules made
    without OpenSpiel, as the lines :func:`random_openspiel_games` gives
    (the same keys: ``params``, ``seed``, ``index``, ``steps``, ``history``,
    ``returns``, and ``tricks`` with ``tricks=True``).

    Game ``i`` is :func:`euchre_events.rules.simulate.random_game` of
    standard Euchre under :func:`openspiel_options` of ``params`` (one deal,
    seed ``seed + i``, every legal action equally likely, as OpenSpiel's
    random games pick them), turned into OpenSpiel's actions with
    :func:`event_to_action`: the dealer, the 20 dealt cards (card ``k`` to
    seat ``(dealer + k) % 4``), the up-card, the decisions.  ``legal`` of a
    decision is the engine's legal actions as action ids; ``returns`` is
    ``[a, -a, a, -a]`` with ``a`` North/South's points less East/West's
    (rules.md 2.6).  So the tests that hold the fast core and the fast
    audit against the engine run where ``pyspiel`` is not installed.  Pure."""
    from euchre_events.rules.engine import legal_actions, new_table, apply
    from euchre_events.rules.simulate import random_game
    p = dict(DEFAULT_PARAMS)
    p.update(params or {})
    options = openspiel_options(p)
    for i in range(n):
        events = random_game("standard", options, seed=seed + i, deals=1, policy="uniform")
        t = new_table()
        steps: list = []
        for ev in events:
            k = ev.kind
            if k == "CardsDealt":
                dealer = t.dealer
                steps.append({"player": -1, "action": dealer, "legal": [0, 1, 2, 3]})
                order = [ID_OF_CARD[ev.hands[(dealer + k4) % 4][k4 // 4]] for k4 in range(20)]
                order.append(ID_OF_CARD[ev.up_card])
                left = set(range(NUM_CARDS))
                for a in order:
                    steps.append({"player": -1, "action": a, "legal": sorted(left)})
                    left.discard(a)
            elif k not in ("GameStarted", "DealStarted"):
                a = event_to_action(ev, t.up_card)
                if a is not None:
                    legal = {event_to_action(x, t.up_card) for x in legal_actions(t)[0]}
                    steps.append({"player": ev.seat, "action": a,
                                  "legal": sorted(x for x in legal if x is not None)})
            apply(t, ev)
        pts = t.deal_results[-1][1]
        a = pts[0] - pts[1]
        line = {"game": "euchre", "params": p, "seed": seed + i, "index": i, "steps": steps,
                "history": [s["action"] for s in steps], "returns": [a, -a, a, -a]}
        if tricks:
            line["tricks"] = [{"leader": leader, "cards": [ID_OF_CARD[c] for _, c in plays],
                               "winner": winner} for leader, plays, winner in t.tricks]
        yield line
