"""The archive application: games stored as event streams with the
``eventsourcing`` library (docs/design.md "Storage").

* one :class:`~euchre_events.archive.aggregates.GameRecord` per game: its
  stream holds exactly the game's events, one stored event per game event,
  the event itself written by the transcodings of
  :mod:`euchre_events.archive.transcodings`;
* one :class:`~euchre_events.archive.aggregates.AnnotationLog` per game:
  annotations and variations, kept apart so that commentary never alters the
  evidence;
* the game id is a UUID derived from the game's events alone (version 8,
  :func:`game_id_of`: not its title, source, annotations or lines), so
  importing the same game twice, from any file or format, with or without
  commentary, stores it once; another copy's annotations and lines are added
  to the stored game's annotation stream (:meth:`Archive.import_record`).
  Games stored by earlier releases keep their ids (:func:`content_id`, the
  old scheme, which hashed the commentary too) and are recognised by their
  events (docs/design.md "Storage");
* a game and its annotation log are written in one ``save()``, one
  transaction: a game is stored whole or not at all.

Storage: an SQLite file by default (``db`` argument, else ``$EUCHRE_EVENTS_DB``,
else ``euchre-events.sqlite`` in the current folder).  For a shared club
archive give a PostgreSQL URL instead of a file (``db`` or
``$EUCHRE_EVENTS_DB``: ``postgresql://user:password@host:port/dbname``), or
set the library's own variables, e.g. ``PERSISTENCE_MODULE=eventsourcing.postgres``
with ``POSTGRES_DBNAME``, ``POSTGRES_HOST``, ``POSTGRES_USER``, ``POSTGRES_PASSWORD``
(:func:`store_location` says which wins).
Nothing derived (trick winners, scores, verdicts) is ever stored.

This module holds :class:`Archive` (opening, reading, annotating); its other
jobs are modules of their own, mixed into it: :mod:`.importing` (import and
de-duplication), :mod:`.live` (live recording), :mod:`.snapshots` (the
snapshot cache), :mod:`.verify` (verification); and beside them
:mod:`.errors`, :mod:`.sources` (source merging), :mod:`.locate` (where the
store is; PostgreSQL probed).  Their public names are importable from here too.
"""
from __future__ import annotations

import os
import time
import uuid
from typing import Iterable, Optional

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError, InternalError, JSONTranscoder

from euchre_events.archive.aggregates import (ANNOTATION_TOPICS, GAME_START_TOPICS, SOURCE_ADDED_TOPIC,  # noqa: F401
                                              AnnotationLog, GameRecord, annotation_log_id)
from euchre_events.archive import chain
from euchre_events.archive.chain import AFTER_THE_RECORD  # noqa: F401
from euchre_events.archive.errors import ArchiveError, DamagedGame, WriteConflict
from euchre_events.archive.gameid import (GAME_ID_VERSION, GAME_NAMESPACE, NOT_THE_GAME,  # noqa: F401
                                          game_id_of, start_text)
from euchre_events.archive.importing import NAMESPACE, ImportMixin, ImportResult, content_id  # noqa: F401
from euchre_events.archive.live import LiveMixin
from euchre_events.archive.locate import (APP_NAME, ARCHIVE_TABLE, DEFAULT_DB, POSTGRES_SCHEMES,  # noqa: F401
                                          POSTGRES_TIMEOUT, check_postgres, check_scheme, foreign_tables,
                                          hide_password, is_postgres_url, library_env, persistence_module,
                                          postgres_settings, sqlite_file, store_location)
from euchre_events.archive.snapshots import ROWS_CHANGED, SnapshotMixin, links_hold
from euchre_events.archive.sources import merge_sources, source_additions, with_added_sources  # noqa: F401
from euchre_events.archive.transcodings import EVENT_TRANSCODINGS, ArchiveMapper, ArchiveTranscoder
from euchre_events.archive.verify import VerifyMixin, VerifyResult
from euchre_events.events import Event, event_from_dict
from euchre_events.projections import Game

# every public name this module held before it was split by job (issue 24)
# stays importable from here; each is defined in the module named above
__all__ = ["Archive", "ArchiveError", "DamagedGame", "WriteConflict", "VerifyResult", "ImportResult",
           "content_id", "game_id_of", "start_text", "annotation_log_id", "merge_sources", "source_additions",
           "with_added_sources", "sqlite_file", "store_location", "is_postgres_url", "postgres_settings",
           "persistence_module", "hide_password", "check_scheme", "check_postgres", "foreign_tables",
           "DEFAULT_DB", "NAMESPACE", "POSTGRES_SCHEMES", "POSTGRES_TIMEOUT", "ARCHIVE_TABLE",
           "AFTER_THE_RECORD", "SOURCE_ADDED_TOPIC", "GAME_ID_VERSION", "GAME_NAMESPACE", "NOT_THE_GAME",
           "GameRecord", "AnnotationLog"]



def _chain_holds(gid: uuid.UUID, stored: list) -> bool:
    """Whether the hash chain of a game's stored events (``stored``: the
    library's domain events, ``GameStarted`` first) holds link by link, and
    none of the events it was imported with is missing; True for a game
    stored without a chain (:func:`links_hold`)."""
    head = stored[0]
    if getattr(head, "chain", None) is None:
        return True
    if head.length and len(stored) < head.length:
        return False    # its last events removed: the chain of the others still holds
    return links_hold(chain.genesis(gid, head.length or 0), 1, stored)


class Archive(ImportMixin, LiveMixin, SnapshotMixin, VerifyMixin, Application):
    """The game archive (an ``eventsourcing`` Application).

    ``Archive(db)`` opens (or creates) the SQLite file ``db``, which wins
    over the environment; with no ``db`` and ``PERSISTENCE_MODULE`` set (in
    ``env`` or the environment) the library's own settings are used instead
    (PostgreSQL for a shared archive).  For PostgreSQL the server is tried
    first (:func:`check_postgres`): :class:`ArchiveError` says within a few
    seconds whether the connection was refused, the database is unknown or
    the authentication failed.  An SQLite file of another program (tables,
    none of ours: :func:`foreign_tables`) raises :class:`ArchiveError`
    before anything is written to it.
    """

    name = APP_NAME
    log_section_size = 1000
    is_snapshotting_enabled = True   # the snapshot store, for long games (SNAPSHOT_MIN)

    def __init__(self, db: Optional[str] = None, env: Optional[dict] = None):
        cfg = library_env(db, env)
        self._init_live()
        self.db = cfg.get("SQLITE_DBNAME") or cfg.get("POSTGRES_DBNAME") or os.environ.get("POSTGRES_DBNAME") or ""
        for attempt in range(6):
            try:
                super().__init__(env=cfg)
                break
            except (InternalError, IntegrityError) as e:
                # several people opening a new PostgreSQL archive at once: the
                # library's CREATE TABLE IF NOT EXISTS races ("tuple concurrently
                # updated", a duplicate pg_type key); the tables exist at the next try
                low = str(e).lower()
                if attempt == 5 or not ("concurrently" in low or "duplicate key" in low):
                    raise
                time.sleep(0.05 * (attempt + 1))

    def construct_mapper(self):
        """The library's mapper with our stored events written directly
        (:class:`~euchre_events.archive.transcodings.ArchiveMapper`: the same
        bytes, faster); the library's own when ``MAPPER_TOPIC`` names one."""
        if self.env.get("MAPPER_TOPIC"):
            return super().construct_mapper()
        return self.factory.mapper(transcoder=self.construct_transcoder(), mapper_class=ArchiveMapper)

    def construct_transcoder(self):
        """:class:`~euchre_events.archive.transcodings.ArchiveTranscoder`
        (the library's JSON transcoder, reading game events faster), with
        :meth:`register_transcodings`; the library's own when
        ``TRANSCODER_TOPIC`` names one."""
        if self.env.get("TRANSCODER_TOPIC"):
            return super().construct_transcoder()
        transcoder = ArchiveTranscoder()
        self.register_transcodings(transcoder)
        return transcoder

    def register_transcodings(self, transcoder: JSONTranscoder) -> None:
        """The library's transcodings plus one per game event class
        (:data:`~euchre_events.archive.transcodings.EVENT_TRANSCODINGS`)."""
        super().register_transcodings(transcoder)
        for t in EVENT_TRANSCODINGS:
            transcoder.register(t)

    # ------------------------------------------------------------ reading
    def resolve(self, game: str) -> uuid.UUID:
        """A stored game's UUID from its id or a unique prefix of it (as
        printed by ``euchre-events list``).  Raises :class:`ArchiveError`."""
        try:
            gid = uuid.UUID(game)
        except ValueError:
            gid = None
        if gid is not None:
            if self._has_stream(gid):
                return gid
            raise ArchiveError(f"no stored game with id {gid}")
        matches = [g for g in self.game_ids() if str(g).startswith(game.lower())]
        if not matches:
            # a game whose first stored row is damaged is not among game_ids(): say which it is
            return self._resolve_raw(game)
        if len(matches) == 1:
            return matches[0]
        raise ArchiveError(f"{game!r} matches {len(matches)} games; give more of the id")

    def game_events(self, game_id, with_sources: bool = False) -> list:
        """The events of a stored game, in order (:mod:`euchre_events.events`
        objects).  ``with_sources``: its GameStarted's source merged with
        what later copies of the game added (:meth:`added_sources`: player
        ids, the match; the game and its id are the same, only what is known
        of the record grows).  Raises :class:`ArchiveError` for an unknown
        id, :class:`DamagedGame` for one whose stored events cannot be read."""
        gid = self._uuid(game_id)
        events = self._read_game(gid)[0]
        return with_added_sources(events, self.added_sources(gid)) if with_sources else events

    def added_sources(self, game_id) -> tuple:
        """What copies of the game imported after the first added to its
        source (``SourceAdded`` events of its annotation stream, in order:
        :func:`source_additions`); ``()`` for none."""
        gid = self._uuid(game_id)
        aid = annotation_log_id(gid)
        if not self._has_stream(aid):
            return ()
        return tuple(self.repository.get(aid).sources)

    def _read_game(self, gid: uuid.UUID) -> tuple:
        """``(events, from_rows)``: the game's events, from its snapshot
        and the rows after it when it has a good one (``from_rows`` False),
        else from every stored row (True).  Raises as :meth:`game_events`."""
        try:
            fast = self._events_from_snapshot(gid)
            if fast == ROWS_CHANGED:
                # a stored row changed since the snapshot was taken: the archive only
                # inserts, so say what verify says (a snapshot must not hide it)
                result = self.verify(gid)
                if not result.ok:
                    raise DamagedGame(gid, result, ValueError(result.problem))
            elif fast is not None:
                return fast, False
            # the stored events, upcast by the mapper, without rebuilding the
            # aggregate: the library's per-event protocol checks in
            # project_aggregate cost most of a load (what it would append is
            # just each stored event's ``event``)
            stored = list(self.events.get(gid))
            if not stored:
                raise ArchiveError(f"no stored game with id {gid}")
            if not isinstance(stored[0], GameRecord.GameStarted):
                return list(self._stored_game(gid).events), True   # not a game stream: the library says why
            if not _chain_holds(gid, stored):
                # an event changed in the database may still fold (a title, a name, another
                # legal card): the chain shows it, as verify says; a link that differs only
                # because an older release wrote the event's form is verify's to clear
                result = self.verify(gid)
                if not result.ok:
                    raise DamagedGame(gid, result, ValueError(result.problem))
            return [d.event for d in stored], True
        except ArchiveError:
            raise
        except Exception as e:  # any stored byte may be damaged: name the game, never a traceback
            raise self._damaged(gid, e) from e

    def load(self, game_id) -> Game:
        """The stored game as a :class:`~euchre_events.projections.Game`
        (validated by one fold, then checkpoints per deal built so that any
        jump is fast from the start).  Raises :class:`ArchiveError` for an
        unknown id, :class:`DamagedGame` for a game that cannot be read or
        whose stored events no longer fold (a changed card)."""
        gid = self._uuid(game_id)
        events, from_rows = self._read_game(gid)
        try:
            game = Game(events, game_id=str(gid), jumps=True)
        except Exception as e:
            raise self._damaged(gid, e) from e
        if from_rows and len(events) >= self.SNAPSHOT_MIN:
            self._take_game_snapshot(gid, events)
        return game

    def _damaged(self, gid: uuid.UUID, cause: Exception) -> "DamagedGame":
        try:
            result = self.verify(gid)
        except Exception:
            result = None
        return DamagedGame(gid, result, cause)

    def _has_stream(self, gid: uuid.UUID) -> bool:
        """A stream of that id is stored (read raw: a damaged game is still there)."""
        return bool(self.recorder.select_events(gid, limit=1))

    def game_ids(self) -> list:
        """UUIDs of every stored game, in import order."""
        out, start = [], None
        while True:
            items = self.notification_log.select(start=start, limit=self.log_section_size,
                                                 topics=list(GAME_START_TOPICS),
                                                 inclusive_of_start=start is None)
            if not items:
                break
            out.extend(n.originator_id for n in items)
            start = items[-1].id
            if len(items) < self.log_section_size:
                break
        return [uuid.UUID(str(g)) for g in out]

    def annotation_log(self, game_id) -> AnnotationLog:
        """The annotation stream of a game (created empty if it is missing)."""
        gid = self._uuid(game_id)
        aid = annotation_log_id(gid)
        if aid in self.repository:
            return self.repository.get(aid)
        return AnnotationLog._create(AnnotationLog.Created, id=aid, game_id=str(gid))

    def annotations(self, game_id) -> list:
        """Current annotations ``[{"id", "position", "text", "mark", "author"}]``
        sorted by position."""
        log = self.annotation_log(game_id)
        return sorted(({"id": k, **v} for k, v in log.notes.items()), key=lambda a: (a["position"], a["id"]))

    def variations(self, game_id) -> list:
        """Variations ``[{"id", "position", "events": [Event], "annotations", "comment"}]``."""
        log = self.annotation_log(game_id)
        out = [{"id": k, **v, "events": list(v["events"])} for k, v in log.variations.items()]
        return sorted(out, key=lambda v: v["position"])

    def annotations_version(self, game_id) -> int:
        """The version of a game's annotation stream (0: none stored yet):
        what a writer read, to pass as ``version`` to :meth:`add_annotation`,
        :meth:`edit_annotation`, :meth:`remove_annotation` or
        :meth:`add_variation` so that a change made by someone else in
        between is a :class:`WriteConflict`, not silently overwritten."""
        aid = annotation_log_id(self._uuid(game_id))
        rows = self.recorder.select_events(aid, desc=True, limit=1)
        return rows[0].originator_version if rows else 0

    def _annotation_log_at(self, gid: uuid.UUID, version: Optional[int], position: int,
                           what: str) -> AnnotationLog:
        """The annotation log, checked to be at ``version`` when one is given."""
        log = self.annotation_log(gid)
        now = log.version if self._has_stream(annotation_log_id(gid)) else 0
        if version is not None and int(version) != now:
            raise WriteConflict(gid, position, "annotations", now, what)
        return log

    def _note_at(self, gid: uuid.UUID, note_id: str, version: Optional[int], what: str) -> tuple:
        """``(log, note)``: the annotation log, with its note ``note_id``
        (:class:`ArchiveError` if there is none), checked to be at
        ``version`` when one is given (:class:`WriteConflict` at the note's
        position)."""
        log = self.annotation_log(gid)
        note = log.notes.get(note_id)
        if note is None:
            raise ArchiveError(f"no annotation {note_id!r} on this game")
        if version is not None and int(version) != log.version:
            raise WriteConflict(gid, note["position"], "annotations", log.version, what)
        return log, note

    def _save_notes(self, gid: uuid.UUID, log: AnnotationLog, position: int, what: str) -> None:
        """Save the annotation log; the library's optimistic concurrency check
        refusing it (another writer saved this stream first) is a
        :class:`WriteConflict` naming the game and the position."""
        try:
            self.save(log)
        except IntegrityError:
            raise WriteConflict(gid, position, "annotations", None, what) from None

    def add_annotation(self, game_id, position: int, text: str, mark: Optional[str] = None,
                       author: Optional[str] = None, version: Optional[int] = None) -> str:
        """Append an annotation at event ``position``; returns its id.
        ``version``: the annotation stream's version the writer read
        (:meth:`annotations_version`), checked.  Raises :class:`ArchiveError`
        (a position outside the game), :class:`WriteConflict` (another writer
        changed the annotations first; nothing stored)."""
        gid = self._uuid(game_id)
        log = self._annotation_log_at(gid, version, int(position), "annotation")
        n = len(self.game_events(gid))
        if not 0 <= position <= n:
            raise ArchiveError(f"position {position} is outside the game (0..{n})")
        note_id = uuid.uuid4().hex[:12]
        log.add(note_id=note_id, position=int(position), text=text, mark=mark, author=author)
        self._save_notes(gid, log, int(position), "annotation")
        return note_id

    def add_variation(self, game_id, position: int, events: list, comment: str = "",
                      annotations: Iterable = (), version: Optional[int] = None) -> str:
        """Store an alternative line branching before event ``position``
        (appends VariationAdded to the game's annotation stream; the game's own
        stream is untouched).  The line is checked by folding the game's first
        ``position`` events followed by ``events``; returns the variation id.
        ``version`` as for :meth:`add_annotation`.  Raises
        :class:`ArchiveError`, :class:`WriteConflict` or ``ImpossibleEvent``."""
        gid = self._uuid(game_id)
        log = self._annotation_log_at(gid, version, int(position), "variation")
        main = self.game_events(gid)
        if not 0 <= position <= len(main):
            raise ArchiveError(f"position {position} is outside the game (0..{len(main)})")
        evs = [e if isinstance(e, Event) else event_from_dict(e) for e in events]
        Game(main[:position] + evs)
        vid = "u" + uuid.uuid4().hex[:12]
        log.add_variation(variation_id=vid, position=int(position), events=evs,
                          annotations=list(annotations), comment=comment)
        self._save_notes(gid, log, int(position), "variation")
        return vid

    def edit_annotation(self, game_id, note_id: str, text: str, mark: Optional[str] = None,
                        version: Optional[int] = None) -> None:
        """Change an annotation's text and mark (appends AnnotationEdited).
        ``version`` as for :meth:`add_annotation`.  Raises
        :class:`ArchiveError` (no such note), :class:`WriteConflict`."""
        gid = self._uuid(game_id)
        log, note = self._note_at(gid, note_id, version, "change")
        log.edit(note_id=note_id, text=text, mark=mark)
        self._save_notes(gid, log, note["position"], "change")

    def remove_annotation(self, game_id, note_id: str, version: Optional[int] = None) -> None:
        """Remove an annotation (appends AnnotationRemoved).  ``version`` as
        for :meth:`add_annotation`.  Raises :class:`ArchiveError` (no such
        note), :class:`WriteConflict`."""
        gid = self._uuid(game_id)
        log, note = self._note_at(gid, note_id, version, "removal")
        log.remove(note_id=note_id)
        self._save_notes(gid, log, note["position"], "removal")

    def _stored_game(self, gid: uuid.UUID) -> GameRecord:
        try:
            return self.repository.get(gid)
        except AggregateNotFoundError:
            raise ArchiveError(f"no stored game with id {gid}") from None

    def _uuid(self, game_id) -> uuid.UUID:
        if isinstance(game_id, uuid.UUID):
            return game_id
        return self.resolve(str(game_id))
