"""Seat names: the one table of how seats are called, for every layer above
the rules (formats, projections, ui, cli).  Pure: no I/O.

Seats are indices ``0..n-1`` clockwise.  Four-seat games name them by the
compass, as EGN and the table drawings do (0 = North, 1 = East, 2 = South,
3 = West; partners sit opposite, rules.md 2.1); the two- and three-seat games
(rules.md 3, 4, 5) call them ``P1``, ``P2``, ``P3``.
"""
from __future__ import annotations

import re
from typing import Optional, Sequence

__all__ = ["SEAT_WORDS_4", "SEAT_LETTERS_4", "seat_word", "seat_letter", "seat_words", "name_seats",
           "parse_seat", "score_text", "is_placeholder_name", "side_groups", "side_short", "side_long"]

SEAT_WORDS_4 = ("North", "East", "South", "West")
"""Seat names of a four-seat game, seat 0 first."""
SEAT_LETTERS_4 = ("N", "E", "S", "W")
"""Their one-letter forms (EGN, the text notation, compact drawings)."""


def seat_word(seat: int, n_seats: int = 4) -> str:
    """``"North"`` for seat 0 of four; ``"P2"`` for seat 1 of two or three seats."""
    if n_seats == 4 and 0 <= seat < 4:
        return SEAT_WORDS_4[seat]
    return f"P{seat + 1}"


def seat_letter(seat: int, n_seats: int = 4) -> str:
    """``"N"`` for seat 0 of four; ``"P2"`` for seat 1 of two or three seats."""
    if n_seats == 4 and 0 <= seat < 4:
        return SEAT_LETTERS_4[seat]
    return f"P{seat + 1}"


def seat_words(n_seats: int) -> tuple:
    """Every seat's name in seat order: ``("North", ...)`` or ``("P1", "P2", "P3")``."""
    return tuple(seat_word(s, n_seats) for s in range(n_seats))


# ---------------------------------------------------------------- sides
# A side is the seats that score together (rules.md 2.1: partners sit
# opposite; 3-5: each plays alone).  Its name is made of its seats' names,
# here only: "N/S" short, "North-South" long; a side of one seat is that seat.

def side_groups(n_seats: int, n_sides: int, side_of) -> list:
    """The seats of each side, in score order (``side_of``: seat -> side
    index, the variant's): ``[[0, 2], [1, 3]]`` for four seats in two
    partnerships, ``[[0], [1], [2]]`` where each plays alone."""
    groups: list = [[] for _ in range(n_sides)]
    for seat in range(n_seats):
        groups[side_of(seat)].append(seat)
    return groups


def side_short(seats: Sequence[int], n_seats: int = 4) -> str:
    """A side's short name: ``"N/S"``, ``"E/W"`` (the seats' letters); a
    side of one seat: the seat's word (``"South"``, ``"P2"``); ``""`` for
    no seat."""
    if len(seats) == 1:
        return seat_word(seats[0], n_seats)
    return "/".join(seat_letter(s, n_seats) for s in seats)


def side_long(seats: Sequence[int], n_seats: int = 4) -> str:
    """A side's long name: ``"North-South"``, ``"East-West"`` (the seats'
    words); a side of one seat: the seat's word."""
    return "-".join(seat_word(s, n_seats) for s in seats)


def parse_seat(text: str, players: Sequence[str] = (), n_seats: Optional[int] = None) -> int:
    """The seat index named by ``text``.

    Accepted (any case): a seat index ``"0"`` .. ``"n-1"``; ``N E S W`` or
    ``North`` .. ``West`` in a four-seat game; ``P1`` .. ``Pn``; a player's
    name from ``players`` (names in seat order), or any part of one that
    names a single player (as ``list --player`` takes a name).  ``n_seats`` defaults to
    ``len(players)``.  Raises ``ValueError`` naming the text for an unknown
    seat or one the game does not have.
    """
    n = len(players) if n_seats is None else n_seats
    t = text.strip().lower()
    if t.isdigit():
        s = int(t)
    elif n == 4 and t in [w.lower() for w in SEAT_WORDS_4 + SEAT_LETTERS_4]:
        s = [w.lower() for w in SEAT_WORDS_4].index(t) if len(t) > 1 else \
            [w.lower() for w in SEAT_LETTERS_4].index(t)
    elif t.startswith("p") and t[1:].isdigit():
        s = int(t[1:]) - 1
    else:
        lowered = [p.lower() for p in players]
        if t in lowered:
            s = lowered.index(t)
        else:
            # any part of a name, as list --player takes it, when it names one player only
            some = [i for i, p in enumerate(lowered) if t and t in p]
            if len(some) != 1:
                raise ValueError(f"unknown seat {text!r}" if not some else
                                 f"seat {text!r} could be {' or '.join(repr(players[i]) for i in some)}: "
                                 "give more of the name")
            s = some[0]
    if not 0 <= s < n:
        raise ValueError(f"seat {text!r} does not exist in this game")
    return s


_PLACEHOLDER = re.compile(
    r"(north|east|south|west|[nesw]|n/a|(p|player|seat|hand)\s*[-_#]?\s*\d{1,2}|player|unknown|anonymous"
    r"|[?\-_.*]*)", re.IGNORECASE)


def is_placeholder_name(name) -> bool:
    """True for a name that stands for a seat, not a person: empty or blank,
    only ``?``/``-``/``_``/``.``/``*`` (``"?"``, ``"--"``), a seat's word or
    letter (``North`` .. ``West``, ``N E S W``), a seat number
    (``P1``, ``Player 2``, ``Seat 3``, ``Hand 4``, ``player-1``), or
    ``Player``, ``Unknown``, ``Anonymous``, ``N/A`` (any case, spaces around
    ignored).  What writers and our readers put where a record names no
    player (OpenSpiel games name the seats ``N E S W``; the text notation
    and EGN tools default to the compass); the club statistics count no
    player under such a name.  A non-str is a placeholder too."""
    if not isinstance(name, str):
        return True
    return _PLACEHOLDER.fullmatch(name.strip()) is not None


_SEAT_REF = re.compile(r"(\()?\bseat (\d+)\b(?(1)\))")


def name_seats(text: str, players: Sequence[str] = (), n_seats: int = 4) -> str:
    """``text`` (words from the rules, which name seats by index: ``"seat
    2 plays QS"``) with each ``seat N`` of this game as people say it:
    ``"South (Euchrazy1)"`` where the player's name is known and is not the
    seat's own word or letter, else ``"South"`` (``"P3"`` beyond four seats).
    A number that is no seat of the game is left as it is.  Names are not
    escaped here: each interface shows the text its own way."""
    def one(m: "re.Match") -> str:
        s = int(m.group(2))
        if not 0 <= s < n_seats:
            return m.group(0)
        word = seat_word(s, n_seats)
        name = players[s] if s < len(players) and isinstance(players[s], str) else ""
        if not name or name in (word, word[0]):
            return f"({word})" if m.group(1) else word
        # "the dealer (seat 0)" reads "the dealer (North, Ann)", not "(North (Ann))"
        return f"({word}, {name})" if m.group(1) else f"{word} ({name})"
    return _SEAT_REF.sub(one, text)


def score_text(score: Sequence[int]) -> str:
    """A score in short form, one entry per side or player (points):
    ``"8-10"`` for two sides; ``"21/-9/33"`` when there are more or one is
    negative (``"9--1-2"`` cannot be read aloud)."""
    if len(score) == 2 and all(x >= 0 for x in score):
        return f"{score[0]}-{score[1]}"
    return "/".join(str(x) for x in score)
