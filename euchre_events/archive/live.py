"""Live recording (docs/design.md "Storage"): a game begun by
``start_game`` grows event by event through ``record``, each event checked
by the engine and appended with its link of the hash chain, under the
library's optimistic concurrency check (:class:`~euchre_events.archive.errors.WriteConflict`
when another writer was first).  The games being recorded are kept folded
per archive object (``LIVE_CACHE`` of them, under one lock), so event n+1
reads only what other writers stored since.  :class:`LiveMixin` gives
:class:`~euchre_events.archive.store.Archive` these methods."""
from __future__ import annotations

import copy
import threading
import uuid
from collections import OrderedDict
from typing import Optional

from eventsourcing.persistence import IntegrityError

from euchre_events.archive.aggregates import AnnotationLog, GameRecord, annotation_log_id
from euchre_events.archive.chain import AFTER_THE_RECORD
from euchre_events.archive.errors import ArchiveError, WriteConflict
from euchre_events.events import Event, GameStarted, event_from_dict
from euchre_events.projections import Game
from euchre_events.rules.engine import apply, fold, new_table
from euchre_events.rules.registry import complete_start

__all__ = ["LiveMixin"]


class LiveMixin:
    """Live recording for an :class:`~euchre_events.archive.store.Archive`
    (its ``save``, ``events``, ``recorder``, ``_uuid``, ``_has_stream`` and
    ``_damaged``); :meth:`_init_live` before use."""

    def _init_live(self) -> None:
        """The cache of games kept folded (:meth:`record`), its lock, and the
        games whose last write here was refused."""
        self._live: "OrderedDict[uuid.UUID, tuple]" = OrderedDict()
        self._live_lock = threading.RLock()
        self._live_stale: set = set()

    def start_game(self, started, game_id=None) -> uuid.UUID:
        """Start a game recorded live, event by event (:meth:`record`):
        stores its GameStarted (an :class:`~euchre_events.events.GameStarted`
        or its dict form; every option of its variant written out, as import
        does) and an empty annotation stream, in one transaction.  Returns
        the game's UUID: ``game_id`` (a UUID or its text) when given, else a
        new random one (a live game's content is not known yet, so its id is
        not derived from it).

        Raises ``ImpossibleEvent`` (the engine refuses the start, e.g. an
        unknown option), ``ValueError`` for a dict that is no event,
        :class:`WriteConflict` when a stream with that id is already stored
        (another writer started it first)."""
        ev = started if isinstance(started, Event) else event_from_dict(started)
        if not isinstance(ev, GameStarted):
            raise ArchiveError(f"a game starts with a GameStarted event, not {ev.kind}")
        ev = complete_start(ev)
        Game([ev])   # the engine checks the start (variant, options, players)
        gid = uuid.UUID(str(game_id)) if game_id is not None else uuid.uuid4()
        if self._has_stream(gid):
            raise WriteConflict(gid, 0, "game", len(self.recorder.select_events(gid)), ev.kind)
        agg = GameRecord.start(ev, gid)
        notes = AnnotationLog._create(AnnotationLog.Created, id=annotation_log_id(gid), game_id=str(gid))
        try:
            self.save(agg, notes)
        except IntegrityError:
            raise WriteConflict(gid, 0, "game", None, ev.kind) from None
        with self._live_lock:
            self._live[gid] = (agg, fold(new_table(), [ev]))
        return gid

    def record(self, game_id, event, position: Optional[int] = None) -> int:
        """Record one event of a live game (rules.md 2-9 as the game's
        variant plays them): checked by the engine against the game so far,
        then appended to the stored game with its link of the hash chain.
        Returns the event's position (0-based event index; GameStarted is
        position 0).

        ``game_id``: a UUID, its text or a unique prefix; ``event``: an
        :class:`~euchre_events.events.Event` or its dict form; a GameStarted
        starts the game (:meth:`start_game`, ``game_id`` becomes its id).
        ``position``: where the writer expects the event to go (the number
        of events it has seen); another writer having recorded there first
        is then a :class:`WriteConflict`, never a second event after theirs.
        Without it the event goes at the end as stored now.

        The game is kept folded in this archive object, so recording event
        n+1 reads nothing but what other writers stored since (the write
        itself is guarded by the library's optimistic concurrency check).

        Raises ``ImpossibleEvent`` (its ``reason``, ``position``, ``deal``:
        the engine refuses the event; nothing stored), :class:`WriteConflict`
        (another writer recorded at that position first; nothing stored),
        :class:`ArchiveError` (unknown game, a position past the end, a game
        imported whole: only a game begun by :meth:`start_game` grows),
        :class:`DamagedGame` (the stored game no longer reads or folds).
        """
        ev = event if isinstance(event, Event) else event_from_dict(event)
        if isinstance(ev, GameStarted):
            if position not in (None, 0):
                raise ArchiveError(f"GameStarted is position 0 of a game, not {position}")
            self.start_game(ev, game_id)
            return 0
        gid = self._uuid(game_id)
        with self._live_lock:
            stale = gid in self._live_stale    # refused last time: someone else wrote since
            agg, table = self._live_game(gid, refresh=stale or position is None
                                         or position != self._live_len(gid))
            self._live_stale.discard(gid)
            n = agg.version
            if position is not None and position != n:
                self._live.pop(gid, None)
                if position < n:
                    raise WriteConflict(gid, position, "game", n, ev.kind)
                raise ArchiveError(f"game {gid}: position {position} is past its end (it has {n} events)")
            if agg.length != 0 and not (agg.length and ev.kind in AFTER_THE_RECORD):
                how = f"imported whole ({agg.length} events)" if agg.length else "stored before live recording"
                raise ArchiveError(f"game {gid} was {how}: only a game begun live (start_game) "
                                   f"can be recorded into, and a game imported whole takes only a claim or a "
                                   f"ruling ({', '.join(AFTER_THE_RECORD)}), not a {ev.kind}")
            after = table.copy()
            apply(after, ev)   # ImpossibleEvent: refused before anything is stored
            # append to a copy: when the save is refused, the kept game is still
            # the stored one, and the retry reads only what the other writer added
            trial = copy.copy(agg)
            trial.events = list(agg.events)
            trial.append(ev)
            try:
                self.save(trial)
            except IntegrityError:
                agg.collect_events()   # the refused event, pending in the list the copy shares
                self._live_stale.add(gid)
                raise WriteConflict(gid, n, "game", None, ev.kind) from None
            self._live[gid] = (trial, after)
            self._live.move_to_end(gid)
            while len(self._live) > self.LIVE_CACHE:
                self._live.popitem(last=False)
            return n

    def game_length(self, game_id) -> int:
        """The number of stored events of a game (one query, nothing decoded):
        what a writer told of a :class:`WriteConflict` reloads to find its next
        position.  Raises :class:`ArchiveError` for an unknown game."""
        gid = self._uuid(game_id)
        rows = self.recorder.select_events(gid, desc=True, limit=1)
        if not rows:
            raise ArchiveError(f"no stored game with id {gid}")
        return rows[0].originator_version

    LIVE_CACHE = 32
    """Live games kept folded by one archive object (:meth:`record`)."""

    def _live_len(self, gid: uuid.UUID) -> Optional[int]:
        got = self._live.get(gid)
        return None if got is None else got[0].version

    def _live_game(self, gid: uuid.UUID, refresh: bool) -> tuple:
        """``(GameRecord, Table)`` of a stored game, kept between calls:
        caught up with what other writers stored since (``refresh``), or
        read and folded whole the first time.  Raises :class:`ArchiveError`
        (no such game), :class:`DamagedGame`."""
        got = self._live.get(gid)
        try:
            if got is None:
                stored = list(self.events.get(gid))
                if not stored:
                    raise ArchiveError(f"no stored game with id {gid}")
                if not isinstance(stored[0], GameRecord.GameStarted):
                    raise ArchiveError(f"{gid} is not a game")
                agg = None
                for d in stored:
                    agg = d.mutate(agg)
                got = (agg, fold(new_table(), agg.events))
            elif refresh:
                agg, table = got
                newer = list(self.events.get(gid, gt=agg.version))
                if newer:
                    table = table.copy()
                    for d in newer:
                        d.mutate(agg)
                        apply(table, d.event)
                    got = (agg, table)
        except ArchiveError:
            raise
        except Exception as e:  # a stored event that no longer reads or folds
            self._live.pop(gid, None)
            raise self._damaged(gid, e) from e
        self._live[gid] = got
        return got
