"""Source merging: what a later copy of a stored game adds to what is
known of its record (player ids, the match), kept in the game's annotation
stream (``SourceAdded``) and merged into its GameStarted's source on reading.
Pure: the game and its id never change."""
from __future__ import annotations

import dataclasses
from typing import Iterable

from euchre_events.events import GameStarted

__all__ = ["source_additions", "merge_sources", "with_added_sources", "addition_words"]


def _player_ids_of(obj) -> list:
    ids = obj.get("playerIds") if isinstance(obj, dict) else None
    return list(ids) if isinstance(ids, list) and ids else []


def source_additions(stored: dict, copy_source: dict) -> dict:
    """What a copy of a stored game says of its players and its match that
    the stored source (first copy's, merged with what later copies added:
    :func:`merge_sources`) lacks: ``{"players": [per seat: {"playerIds":
    [...]} or None], "match": {...}}``, either key only when there is
    something to add, ``{}`` for nothing.  Only what is missing is added:
    a player's ids when the stored seat has none, the match when the stored
    game belongs to none; what the stored source says is never replaced (a
    copy that disagrees is reported as not kept).  Pure."""
    stored = stored if isinstance(stored, dict) else {}
    copy_source = copy_source if isinstance(copy_source, dict) else {}
    out: dict = {}
    mine = copy_source.get("players")
    if isinstance(mine, list):
        held = stored.get("players") if isinstance(stored.get("players"), list) else []
        seats = []
        for seat, obj in enumerate(mine):
            have = held[seat] if seat < len(held) else None
            ids = _player_ids_of(obj)
            seats.append({"playerIds": ids} if ids and not _player_ids_of(have) else None)
        if any(seats):
            out["players"] = seats
    if isinstance(copy_source.get("match"), dict) and not isinstance(stored.get("match"), dict):
        out["match"] = copy_source["match"]
    return out


def merge_sources(source: dict, additions: Iterable) -> dict:
    """``source`` (a GameStarted's) with the :func:`source_additions` of
    later copies applied in order (a new dict; ``source`` is not changed):
    a seat's player object gets the ``playerIds`` it lacked (a seat with no
    object gets ``{"playerIds": [...]}``), the match is set where there was
    none."""
    out = dict(source) if isinstance(source, dict) else {}
    for add in additions:
        if not isinstance(add, dict):
            continue
        if isinstance(add.get("players"), list):
            held = [dict(p) if isinstance(p, dict) else {} for p in
                    (out.get("players") if isinstance(out.get("players"), list) else [])]
            for seat, obj in enumerate(add["players"]):
                ids = _player_ids_of(obj)
                if not ids:
                    continue
                while len(held) <= seat:
                    held.append({})
                if not _player_ids_of(held[seat]):
                    held[seat]["playerIds"] = ids
            out["players"] = held
        if isinstance(add.get("match"), dict) and not isinstance(out.get("match"), dict):
            out["match"] = add["match"]
    return out


def with_added_sources(events: list, added: Iterable) -> list:
    """``events`` with their GameStarted's source merged with ``added`` (what
    later copies added: :func:`merge_sources`); ``events`` itself when there
    is nothing to add.  The game and its id are the same."""
    added = tuple(added)
    if not added or not events or not isinstance(events[0], GameStarted):
        return events
    return [dataclasses.replace(events[0], source=merge_sources(events[0].source, added))] + list(events[1:])


def addition_words(add: dict) -> tuple:
    """What a :func:`source_additions` result adds, in words
    (``("the player ids", "the match membership")``, each only when added)."""
    return tuple(w for k, w in (("players", "the player ids"), ("match", "the match membership"))
                 if add.get(k))
