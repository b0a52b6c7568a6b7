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
"""
from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import operator
import os
import threading
import time
import uuid
from collections import OrderedDict
from typing import Iterable, Optional

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError, InternalError, JSONTranscoder

from eventsourcing.domain import Snapshot
from eventsourcing.utils import get_topic

from euchre_events.archive.location import (  # noqa: F401  (their home before; no library needed)
    _PREFIX, _URL_PART, DEFAULT_DB, POSTGRES_SCHEMES, ArchiveError, _setting, check_scheme, hide_password,
    is_postgres_url, persistence_module, postgres_settings, sqlite_file, store_location)
from euchre_events.archive import chain
from euchre_events.archive.canonical import _dumps, event_text
from euchre_events.archive.gameid import (GAME_ID_VERSION, GAME_NAMESPACE, NOT_THE_GAME,  # noqa: F401
                                          _uuid8, game_id_of, start_text)
from euchre_events.archive.aggregates import GAME_START_TOPICS, LEGACY_TOPICS, AnnotationLog, GameRecord
from euchre_events.archive.transcodings import EVENT_TRANSCODINGS, ArchiveMapper, ArchiveTranscoder
from euchre_events.events import Event, GameStarted, event_from_dict
from euchre_events.formats import Record
from euchre_events.projections import Game
from euchre_events.rules.engine import apply, fold, new_table
from euchre_events.rules.registry import complete_start

NAMESPACE = uuid.UUID("6f1c2a52-8c1e-5b7e-9d0b-3e5f0c2a9e11")


class DamagedGame(ArchiveError):
    """A stored game that cannot be read back (a changed or garbage stored
    event, an unknown topic, a missing row, a damaged database page).

    ``game_id``: its UUID; ``result``: what :meth:`Archive.verify` says of
    it (a :class:`VerifyResult`, or None when even that failed); the message
    names the game, the first bad event and what to run, e.g. ``game <id>:
    stored event 17 cannot be read (...); run euchre-events verify <id>``.
    """

    def __init__(self, game_id: uuid.UUID, result: Optional["VerifyResult"], cause: Exception):
        self.game_id, self.result, self.cause = game_id, result, cause
        if result is not None and not result.ok and result.version is not None:
            what = f"stored event {result.version} {result.problem}"
        else:
            what = f"cannot be read ({_short(cause)})"
        super().__init__(f"game {game_id}: {what}; run euchre-events verify {game_id}")


AFTER_THE_RECORD = ("RenegeClaimed", "RenegeRuled")
"""Events a game imported whole (a record with a fixed length in its hash
chain's genesis) may still take, recorded after it: a claim and a director's
ruling come after the play (rules.md 1.5, 2.7).  The chain links them like any
event; ``verify`` accepts them after the stored length, and nothing else."""


class WriteConflict(ArchiveError):
    """Another writer changed the game (or its annotations) first: the
    library's optimistic concurrency check (``eventsourcing``'s
    ``IntegrityError``, a ``RecordConflictError``) refused this write, or the
    position the writer expected is already taken.  Nothing of this write was
    stored; reload and try again.

    ``game_id``: the game's UUID; ``position``: the game position (0-based
    event index) the writer meant to record at or annotate; ``stream``:
    ``"game"`` (recording) or ``"annotations"``; ``now``: the game's event
    count (``"game"``) or the annotation stream's version, as stored now, or
    None when not known.  The message names the game and the position, e.g.
    ``game <id>: another writer recorded position 12 first (the game now
    has 13 events); your CardPlayed was not stored: reload the game and try
    again``.
    """

    def __init__(self, game_id: uuid.UUID, position: int, stream: str = "game",
                 now: Optional[int] = None, what: str = "event"):
        self.game_id, self.position, self.stream, self.now = game_id, position, stream, now
        if stream == "game":
            has = "" if now is None else f" (the game now has {now} events)"
            msg = (f"game {game_id}: another writer recorded position {position} first{has}; "
                   f"your {what} was not stored: reload the game and try again")
        else:
            msg = (f"game {game_id}: another writer changed this game's annotations while you "
                   f"annotated position {position}; your {what} was not stored: "
                   "reload the annotations and try again")
        super().__init__(msg)


def content_id(events: list, annotations: Iterable = (), variations: Iterable = ()) -> uuid.UUID:
    """The game id of the old scheme (releases up to 0.1.x): UUID5 of a
    game's content: its events (without the ``source`` of the GameStarted
    event, with every option written out, defaults included, but with its
    title), its annotations and variations.  Games stored so keep that id;
    it is computed here only to find them again (:meth:`Archive.import_record`).
    New games are stored under :func:`game_id_of`."""
    # the text json.dumps(sort_keys=True) gives of {"annotations", "events",
    # "variations"}, with each event written by canonical.event_text (the same
    # text, several times faster: the id of a one-deal game cost as much as its fold)
    evs = []
    for e in events:
        if e.kind == "GameStarted":
            evs.append(_dumps(dict(complete_start(e).to_dict(), source={})))
        else:
            evs.append(event_text(e))
    var = [{"position": v.get("position"), "comment": v.get("comment", ""),
            "annotations": list(v.get("annotations", [])),
            "events": [x.to_dict() if isinstance(x, Event) else x for x in v.get("events", [])]}
           for v in variations]
    blob = ('{"annotations":' + _dumps(list(annotations)) + ',"events":[' + ",".join(evs)
            + '],"variations":' + _dumps(var) + "}")
    return uuid.uuid5(NAMESPACE, hashlib.sha256(blob.encode()).hexdigest())


# the game id (GAME_NAMESPACE, GAME_ID_VERSION, NOT_THE_GAME, start_text, game_id_of)
# lives in gameid.py, which needs no eventsourcing: an audit computes ids without it


def _game_id(start: str, texts: list) -> uuid.UUID:
    """:func:`~euchre_events.archive.gameid.game_id_of` from the texts
    already written (an import writes each event's text once, for the id and
    then for the hash chain): ``start``, the :func:`start_text` of the
    GameStarted, and ``texts``, the
    :func:`~euchre_events.archive.canonical.event_text` of each later event
    (tests/test_archive_mapper.py checks it gives game_id_of's id)."""
    return _uuid8(GAME_NAMESPACE, '{"events":[' + ",".join([start] + texts) + "]}")


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


def _addition_words(add: dict) -> tuple:
    """What a :func:`source_additions` result adds, in words."""
    return tuple(w for k, w in (("players", "the player ids"), ("match", "the match membership"))
                 if add.get(k))


class ImportResult(tuple):
    """What :meth:`Archive.import_record` did: the tuple ``(game_id,
    created)`` (so ``gid, created = archive.import_record(rec)`` reads it),
    with ``notes_added`` and ``lines_added``: the annotations and
    alternative lines written (all of the record's for a new game; for a
    game already stored, those its annotation stream did not hold), and
    ``not_kept``: what a copy of a stored game says about the record that
    differs from the stored game's and is not kept (its title, description,
    date, player ids that differ: the stored game keeps its first copy's),
    in words, e.g. ``("the title 'VWEC Finals (annotated)'",)``, and
    ``source_added``: what the copy added to the stored game's source, in
    words (``("the player ids", "the match membership")``: a game imported
    from its ``.egn`` file, then from its match's ``.emn``)."""

    def __new__(cls, game_id: uuid.UUID, created: bool, notes_added: int = 0, lines_added: int = 0,
                not_kept: tuple = (), source_added: tuple = ()):
        self = super().__new__(cls, (game_id, created))
        self.notes_added, self.lines_added = notes_added, lines_added
        self.not_kept = tuple(not_kept)
        self.source_added = tuple(source_added)
        return self

    @property
    def game_id(self) -> uuid.UUID:
        return self[0]

    @property
    def created(self) -> bool:
        return self[1]

    def describe(self) -> str:
        """``""`` for a new game, else ``"already stored"`` or ``"already
        stored; added 12 annotations, 2 lines"`` (what the import line says)."""
        if self.created:
            return ""
        added = [f"{n} {word}{'' if n == 1 else 's'}" for n, word in
                 ((self.notes_added, "annotation"), (self.lines_added, "line")) if n]
        added += list(self.source_added)
        return "already stored" + ("; added " + ", ".join(added) if added else "")

    def __repr__(self) -> str:
        return (f"ImportResult({self.game_id!r}, {self.created!r}, notes_added={self.notes_added}, "
                f"lines_added={self.lines_added}, not_kept={self.not_kept!r}, "
                f"source_added={self.source_added!r})")


def _note_key(position, text, mark) -> tuple:
    """What makes two annotations the same: position, text and mark (not
    the author, not the id)."""
    return (int(position), str(text), mark or None)


def _line_key(position, events, annotations, comment) -> str:
    """What makes two alternative lines the same: the canonical JSON of
    their position, events, annotations and comment."""
    evs = [e.to_dict() if isinstance(e, Event) else e for e in events]
    return _dumps({"position": int(position), "events": evs, "annotations": list(annotations),
                   "comment": str(comment or "")})


def annotation_log_id(game_id: uuid.UUID) -> uuid.UUID:
    """Id of a game's annotation stream."""
    return uuid.uuid5(game_id, "annotations")


def _folded(record: Record) -> bool:
    """The reader already folded ``record``'s events (``record.game``, a
    :class:`~euchre_events.projections.Game` of exactly these event
    objects): the import need not fold them again."""
    game = getattr(record, "game", None)
    if game is None or len(game.events) != len(record.events):
        return False
    return all(map(operator.is_, game.events, record.events))


def _with_full_options(record: Record) -> Record:
    """The record with its GameStarted completed (every option of its variant,
    defaults included, and the initial score: :func:`complete_start`), so the
    stored game replays the same way even if a default changes later."""
    first = record.events[0]
    full = complete_start(first)
    if full is first:
        return record
    return dataclasses.replace(record, events=[full] + list(record.events[1:]))


POSTGRES_TIMEOUT = 5
"""Seconds to wait for the PostgreSQL server before saying it does not
answer (the library's own default is 30); ``POSTGRES_CONNECT_TIMEOUT``
overrides it."""


def check_postgres(env: Optional[dict] = None, url: Optional[str] = None, tables: tuple = (),
                   types: tuple = ()) -> bool:
    """Connect once to the PostgreSQL server the library settings name
    (``POSTGRES_DBNAME``, ``_HOST``, ``_PORT``, ``_USER``, ``_PASSWORD``;
    ``env`` before the environment) and raise :class:`ArchiveError` saying
    what failed, within :data:`POSTGRES_TIMEOUT` seconds: a setting missing,
    the server refusing the connection or not answering, an unknown host,
    an unknown database, the authentication.  ``url``: the ``--db`` /
    ``$EUCHRE_EVENTS_DB`` URL the settings came from, if any: the advice
    then names the URL's part (``check the port in the URL``), not a
    variable the user never set; the password is never repeated.

    When the server takes the connection: ``tables`` and ``types`` (names
    in ``POSTGRES_SCHEMA``, else ``public``) are asked about on it; returns
    True when every one of them exists (an archive opened before: the
    library need not create them again), else False."""
    def check(*keys: str) -> str:
        if url:
            return "check " + " and ".join(f"the {_URL_PART[k]} in the URL" for k in keys)
        return "check " + " and ".join(keys)
    missing = [k for k in ("POSTGRES_DBNAME", "POSTGRES_HOST", "POSTGRES_USER")
               if not _setting(k, env)]
    if missing:
        raise ArchiveError("PERSISTENCE_MODULE=eventsourcing.postgres needs "
                           f"{', '.join(missing)} (and POSTGRES_PASSWORD): see the README, "
                           "\"A shared club archive on PostgreSQL\"")
    try:
        import psycopg
    except ImportError:  # pragma: no cover - installed with eventsourcing[postgres]
        raise ArchiveError("PostgreSQL needs psycopg: pip install 'eventsourcing[postgres]'") from None
    host, port = _setting("POSTGRES_HOST", env), _setting("POSTGRES_PORT", env) or "5432"
    dbname, user = _setting("POSTGRES_DBNAME", env), _setting("POSTGRES_USER", env)
    timeout = _setting("POSTGRES_CONNECT_TIMEOUT", env) or str(POSTGRES_TIMEOUT)
    where = f"PostgreSQL at {host}:{port}"
    try:
        with psycopg.connect(dbname=dbname, host=host, port=port, user=user,
                             password=_setting("POSTGRES_PASSWORD", env) or "",
                             connect_timeout=int(float(timeout)), autocommit=True) as conn:
            if not (tables or types):
                return False
            schema = (_setting("POSTGRES_SCHEMA", env) or "").strip() or "public"
            try:
                (found,) = conn.execute(
                    "SELECT (SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = %s "
                    "AND tablename = ANY(%s)) + (SELECT count(*) FROM pg_catalog.pg_type t JOIN "
                    "pg_catalog.pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname = %s "
                    "AND t.typname = ANY(%s))", (schema, list(tables), schema, list(types))).fetchone()
            except psycopg.Error:   # a catalogue we may not read: let the library create what it needs
                return False
            return found == len(set(tables)) + len(set(types))
    except psycopg.Error as e:
        text = str(e)
        low = text.lower()
        if "connection refused" in low:
            why = f"connection refused (is the server running, and on this port? {check('POSTGRES_PORT')})"
        elif "does not exist" in low and "database" in low:
            why = f"unknown database {dbname!r} ({check('POSTGRES_DBNAME')}, or create it: createdb {dbname})"
        elif "role" in low and "does not exist" in low:
            why = f"authentication failed: there is no user {user!r} ({check('POSTGRES_USER')})"
        elif ("authentication failed" in low or "no password supplied" in low
              or "pg_hba.conf" in low):
            why = f"authentication failed for user {user!r} ({check('POSTGRES_USER', 'POSTGRES_PASSWORD')})"
        elif "resolve host" in low or "name or service not known" in low:
            why = f"unknown host {host!r} ({check('POSTGRES_HOST')})"
        elif "timeout" in low or "timed out" in low:
            why = f"no answer within {timeout} s ({check('POSTGRES_HOST', 'POSTGRES_PORT')})"
        else:
            why = "cannot connect"
        detail = text.strip().splitlines()[0] if text.strip() else type(e).__name__
        raise ArchiveError(f"{where}, database {dbname!r}, user {user!r}: {why} "
                           f"[{detail}]") from None


ARCHIVE_TABLE = "stored_events"
"""The table every SQLite archive of ours has (the library's event store):
a file with tables and not this one is another program's."""


def foreign_tables(path: str) -> list:
    """The tables of the SQLite file ``path`` when it is another program's
    (it has tables, and not :data:`ARCHIVE_TABLE`), sorted; ``[]`` for an
    archive of ours, an empty database, a file not there yet, or one that
    cannot be read here as SQLite (the library then says what it is).

    Read-only (``mode=ro``): nothing is written to the file (issue 26:
    ``list --db`` on another program's database added seven tables to it).
    """
    import sqlite3
    from urllib.parse import quote
    try:
        if not os.path.isfile(path) or os.path.getsize(path) == 0:
            return []
        con = sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True)
        try:
            names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        finally:
            con.close()
    except (sqlite3.Error, OSError):
        return []
    names = sorted(n for n in names if not n.startswith("sqlite_"))
    return [] if not names or ARCHIVE_TABLE in names else names


class Archive(Application):
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

    name = "EuchreEvents"
    log_section_size = 1000
    is_snapshotting_enabled = True   # the snapshot store, for long games (SNAPSHOT_MIN)

    def __init__(self, db: Optional[str] = None, env: Optional[dict] = None):
        cfg = dict(env or {})
        kind, where = store_location(db, env)
        path = where if kind == "sqlite" else None
        if kind == "postgres" and where:
            # a URL: the library's own PostgreSQL persistence, both spellings
            # (the library reads EUCHREEVENTS_<KEY> before <KEY>)
            for k, v in postgres_settings(where).items():
                cfg[k] = cfg[_PREFIX + k] = v
        if path is not None:
            foreign = foreign_tables(path)
            if foreign:   # before the library creates its tables in someone else's file
                shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
                raise ArchiveError(f"{path}: an SQLite file of another program (its tables: {shown}), "
                                   f"not a euchre-events archive: nothing was written to it")
            # both spellings: the library reads EUCHREEVENTS_PERSISTENCE_MODULE first
            cfg["PERSISTENCE_MODULE"] = cfg[_PREFIX + "PERSISTENCE_MODULE"] = "eventsourcing.sqlite"
            cfg["SQLITE_DBNAME"] = cfg[_PREFIX + "SQLITE_DBNAME"] = path
            cfg.setdefault("SQLITE_LOCK_TIMEOUT", "10")
        elif "postgres" in (persistence_module(cfg) or ""):
            # says what failed, in seconds, not "no connection" after 30; and
            # whether this archive's tables exist: then the library is not asked
            # to create them again (CREATE ... IF NOT EXISTS, each statement a
            # round trip and a catalogue lock, on every open)
            name = (self.name or "").lower()
            ready = check_postgres(cfg, url=where if kind == "postgres" else None,
                                   tables=(f"{name}_events", f"{name}_snapshots"),
                                   types=(f"stored_event_{_setting('ORIGINATOR_ID_TYPE', cfg) or 'uuid'}",))
            if ready and _setting("CREATE_TABLE", cfg) is None:
                cfg["CREATE_TABLE"] = cfg[_PREFIX + "CREATE_TABLE"] = "false"
            if not _setting("POSTGRES_CONNECT_TIMEOUT", cfg):
                cfg["POSTGRES_CONNECT_TIMEOUT"] = str(POSTGRES_TIMEOUT)
        self._live: "OrderedDict[uuid.UUID, tuple]" = OrderedDict()   # record(): games kept folded
        self._live_lock = threading.RLock()
        self._live_stale: set = set()   # record(): games whose last write here was refused
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

    # ------------------------------------------------------------ writing
    def import_record(self, record: Record) -> "ImportResult":
        """Store one validated record; returns an :class:`ImportResult`, a
        tuple ``(game_id, created)`` (which also says what a copy added).

        The game is known by its events alone (:func:`game_id_of`).  When it
        is stored already (under that id, or under the id an earlier release
        gave it: :meth:`find_game`), nothing of the game stream is written
        and ``created`` is False; the record's annotations and alternative
        lines that the stored game's annotation stream does not hold yet are
        appended to it, in one transaction (an annotation is held when one
        with the same position, text and mark was ever added or edited to
        that; a line when one with the same position, events, annotations and
        comment was added), so importing one file twice adds nothing.  A new
        game stream and its annotation stream are saved in one transaction.
        The record is validated here (raises
        :class:`euchre_events.engine.ImpossibleEvent` if impossible), by one
        fold, unless the reader already folded these events
        (``record.game``: each event is folded once on the import's path).
        """
        if not _folded(record):
            Game(record.events)  # never store what cannot be folded
        record = _with_full_options(record)
        # each event's canonical text, written once: the game id, then the hash chain
        texts = [event_text(e) for e in record.events[1:]]
        gid = _game_id(start_text(record.events[0]), texts)
        # a copy stored by an earlier release (an index in memory, read once);
        # a game stored under gid is found by the save itself, which the
        # library refuses for a stream that exists (no query per game first)
        stored = self._find_old(record, gid)
        if stored is not None:
            return self._add_commentary(gid if self._has_stream(gid) else stored, record)
        agg = GameRecord.new_stream(record.events, gid, texts)
        notes = AnnotationLog._create(AnnotationLog.Created, id=annotation_log_id(gid), game_id=str(gid))
        for i, a in enumerate(record.annotations):
            notes.add(note_id=f"r{i}", position=int(a["position"]), text=str(a.get("text", "")),
                      mark=a.get("mark"), author=a.get("author", "record"))
        for i, v in enumerate(record.variations):
            notes.add_variation(variation_id=f"v{i}", position=int(v.get("position", 0)),
                                events=list(v.get("events", [])),
                                annotations=list(v.get("annotations", [])), comment=str(v.get("comment", "")))
        try:
            self.save(agg, notes)
        except IntegrityError:
            # another writer stored the same game in the meantime: same events, same id
            if self._has_stream(gid):
                return self._add_commentary(gid, record)
            raise
        return ImportResult(gid, True, len(record.annotations), len(record.variations))

    def find_game(self, record: Record, gid: Optional[uuid.UUID] = None) -> Optional[uuid.UUID]:
        """The stored id of the game ``record`` holds, or None when it is not
        stored.  ``gid``: its :func:`game_id_of` when already computed.

        In this order: a game stored under ``gid``; else, only when a game
        stored under an old-scheme id (UUID version 5) begins as this one does
        (the same GameStarted, title and source aside, and as many events),
        the old-scheme id of the record (:func:`content_id` with its
        commentary: the same file imported again); else such a game whose
        events give ``gid`` (a copy with other commentary of a game stored
        by an earlier release).  Games stored by this release are always
        under their :func:`game_id_of` (version 8): only older ones need the
        last two steps, whose index is read once per ``Archive``."""
        if gid is None:
            Game(record.events)
            record = _with_full_options(record)
            gid = game_id_of(record.events)
        if self._has_stream(gid):
            return gid
        return self._find_old(record, gid)

    def _find_old(self, record: Record, gid: uuid.UUID) -> Optional[uuid.UUID]:
        """The last two steps of :meth:`find_game`: the id of a copy of the
        game stored by an earlier release (old-scheme id), or None."""
        old_games = self._starts()
        if not old_games:
            return None
        try:
            key = start_text(record.events[0])
        except (ValueError, TypeError, KeyError):
            return None
        n = len(record.events)
        candidates = [sid for sid, length in old_games.get(key, ()) if length in (None, n)]
        if not candidates:
            return None
        old = content_id(record.events, record.annotations,
                         [dict(v, events=list(v.get("events", []))) for v in record.variations])
        if old in candidates:
            return old
        head = list(record.events[1:3])
        for sid in candidates:
            try:
                if [e.event for e in self.events.get(sid, gt=1, lte=3)] != head:
                    continue      # another game: not even its first deal starts the same
                if game_id_of(self.game_events(sid)) == gid:
                    return sid
            except Exception:     # a damaged stored game is not this one (verify names it)
                continue
        return None

    def _starts(self) -> dict:
        """``{start_text: [(stored id, length or None)]}`` of every game
        stored under an old-scheme id (not UUID version
        :data:`GAME_ID_VERSION`), in import order: read from the
        notification log (the stored GameStarted rows only; a row of a
        version-8 game is not even decoded) the first time, then kept.  Games
        stored later need not be added: they are stored under their
        :func:`game_id_of`, which :meth:`find_game` tries first."""
        idx = getattr(self, "_start_index", None)
        if idx is not None:
            return idx
        idx = {}
        start = None
        while True:
            items = self.notification_log.select(start=start, limit=self.log_section_size,
                                                 topics=list(GAME_START_TOPICS),
                                                 inclusive_of_start=start is None)
            for n in items:
                sid = uuid.UUID(str(n.originator_id))
                if sid.version == GAME_ID_VERSION:
                    continue
                try:
                    st = self.mapper.to_domain_event(n)
                    key = start_text(st.event)
                except Exception:  # a damaged first event: that game is not found by its events
                    continue
                idx.setdefault(key, []).append((sid, getattr(st, "length", None)))
            if len(items) < self.log_section_size:
                break
            start = items[-1].id
        self._start_index = idx
        return idx

    def _add_commentary(self, gid: uuid.UUID, record: Record, attempts: int = 3) -> "ImportResult":
        """Append to the annotation stream of the stored game ``gid`` the
        record's annotations and lines it does not hold yet (see
        :meth:`import_record`), in one ``save()``; returns the
        :class:`ImportResult` (``created`` False).  Another writer appending
        to that stream at the same moment makes the library refuse this save:
        it is tried again on the stream as it now is (``attempts`` times)."""
        for attempt in range(attempts):
            log = self.annotation_log(gid)
            held, note_ids = self._held_notes(log.id)
            lines = {_line_key(v["position"], v["events"], v["annotations"], v["comment"])
                     for v in log.variations.values()}
            added_notes = added_lines = 0
            k = 0
            for a in record.annotations:
                key = _note_key(a.get("position"), a.get("text", ""), a.get("mark"))
                if key in held:
                    continue
                held.add(key)
                while f"r{k}" in note_ids:
                    k += 1
                note_ids.add(f"r{k}")
                log.add(note_id=f"r{k}", position=int(a["position"]), text=str(a.get("text", "")),
                        mark=a.get("mark"), author=a.get("author", "record"))
                added_notes += 1
            k = 0
            for v in record.variations:
                key = _line_key(v.get("position", 0), v.get("events", []), v.get("annotations", []),
                                v.get("comment", ""))
                if key in lines:
                    continue
                lines.add(key)
                while f"v{k}" in log.variations:
                    k += 1
                log.add_variation(variation_id=f"v{k}", position=int(v.get("position", 0)),
                                  events=list(v.get("events", [])),
                                  annotations=list(v.get("annotations", [])), comment=str(v.get("comment", "")))
                added_lines += 1
            stored_source = self._first_source(gid)
            add = {} if stored_source is None else source_additions(
                merge_sources(stored_source, log.sources), record.events[0].source)
            if add:
                log.add_source(game_id=str(gid), source=add)
            if not (added_notes or added_lines or add):
                return ImportResult(gid, False, not_kept=self._not_kept(gid, record, log.sources))
            try:
                self.save(log)
            except IntegrityError:
                if attempt + 1 == attempts:
                    raise ArchiveError(f"game {gid}: its annotations were being changed by another "
                                       f"writer; import the record again") from None
                continue
            return ImportResult(gid, False, added_notes, added_lines,
                                self._not_kept(gid, record, log.sources), _addition_words(add))
        raise AssertionError("unreachable")  # pragma: no cover

    def _first_source(self, gid: uuid.UUID) -> Optional[dict]:
        """The source of the stored game's GameStarted (its first copy's),
        None when it cannot be read (verify says why)."""
        try:
            src = next(iter(self.events.get(gid, lte=1))).event.source
        except Exception:
            return None
        return src if isinstance(src, dict) else {}

    def _not_kept(self, gid: uuid.UUID, record: Record, added: tuple = ()) -> list:
        """What ``record``'s GameStarted says of the record (title,
        description, date, player ids) that differs from the stored game
        ``gid``'s (its source merged with ``added``, what later copies
        added) and is not kept, in words (see :class:`ImportResult`);
        ``[]`` when the stored start cannot be read (verify says why)."""
        try:
            stored = next(iter(self.events.get(gid, lte=1))).event
        except Exception:
            return []
        mine = record.events[0]
        out = []
        if (mine.title or "") != (stored.title or "") and mine.title:
            out.append(f"the title {mine.title!r}")
        a = mine.source if isinstance(mine.source, dict) else {}
        b = merge_sources(stored.source if isinstance(stored.source, dict) else {}, added)
        for key, what in (("description", "the description"), ("date", "the date")):
            if a.get(key) and a.get(key) != b.get(key):
                out.append(f"{what} {str(a[key])[:60]!r}")

        def ids(src: dict) -> list:
            match = src.get("match") if isinstance(src.get("match"), dict) else {}
            return [p.get("playerIds") for p in list(src.get("players") or []) + list(match.get("players") or [])
                    if isinstance(p, dict) and p.get("playerIds")]
        if ids(a) and ids(a) != ids(b):
            out.append("the player ids")
        return out

    def _held_notes(self, log_id: uuid.UUID) -> tuple:
        """``(keys, note ids)`` of every annotation ever added to the
        annotation stream ``log_id``, edited texts included (a note a person
        edited or removed is not brought back by importing its record again):
        keys as :func:`_note_key` makes them."""
        keys, ids, where = set(), set(), {}
        if not self._has_stream(log_id):
            return keys, ids
        for e in self.events.get(log_id):
            name = type(e).__name__
            if name == "AnnotationAdded":
                ids.add(e.note_id)
                where[e.note_id] = e.position
                keys.add(_note_key(e.position, e.text, e.mark))
            elif name == "AnnotationEdited" and e.note_id in where:
                keys.add(_note_key(where[e.note_id], e.text, e.mark))
        return keys, ids

    def import_records(self, records: Iterable[Record]) -> list:
        """Import several records; ``[ImportResult]`` (each ``(game_id, created)``)."""
        return [self.import_record(r) for r in records]

    # ------------------------------------------------------------ live recording
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
            if fast is not None:
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

    # ------------------------------------------------------------ snapshots
    SNAPSHOT_MIN = 300
    """Games of at least this many events get a snapshot the first time they
    are loaded (docs/design.md "Snapshots": below it, reading the rows is
    fast enough)."""

    def _take_game_snapshot(self, gid: uuid.UUID, events: list) -> bool:
        """Store a library snapshot of the game (its events as one stored
        document, with its length and chain head) so that later loads read
        one row instead of one per event.  A snapshot is only a cache of the
        stored events: nothing derived; :meth:`verify` checks it against
        them.  Returns False when it could not be written (a read-only
        file): loading goes on without it."""
        if self.snapshots is None:
            return False
        try:
            last = self.recorder.select_events(gid, desc=True, limit=1)
            if not last or last[0].originator_version != len(events):
                return False    # another writer appended meanwhile: next time
            first, tail = (list(self.events.get(gid, lte=1)) + [None])[0], list(
                self.events.get(gid, gt=len(events) - 1))
            if first is None or not tail or getattr(tail[-1], "chain", None) is None:
                return False    # a game stored before the chain: a load could not check a snapshot
            snap = Snapshot(originator_id=gid, originator_version=len(events),
                            timestamp=Snapshot.create_timestamp(), topic=get_topic(GameRecord),
                            state={"_created_on": first.timestamp, "_modified_on": tail[-1].timestamp,
                                   "events": list(events), "length": getattr(first, "length", None),
                                   "chain_head": getattr(tail[-1], "chain", None)})
            self.snapshots.put([snap])
            return True
        except Exception:  # noqa: BLE001 - a cache: a read-only archive simply has none
            return False

    def _events_from_snapshot(self, gid: uuid.UUID) -> Optional[list]:
        """The game's events from its latest snapshot and the stored events
        after it, or None (no snapshot, or one that does not fit: its chain
        head is not the stored chain at its version, a version is missing):
        then the caller reads every row, which names any damage."""
        if self.snapshots is None:
            return None
        try:
            both = self._snapshot_and_rows(gid)
            if both is not None:
                snap, rest = both
                if snap is None:
                    return None
            else:
                snaps = list(self.snapshots.get(gid, desc=True, limit=1))
                if not snaps:
                    return None
                snap, rest = snaps[0], None
            v, st = snap.originator_version, snap.state
            events = list(st.get("events") or [])
            head = st.get("chain_head")
            if len(events) != v or head is None or not all(isinstance(e, Event) for e in events):
                return None
            if rest is None:
                rest = list(self.events.get(gid, gt=v - 1))   # the event at the snapshot's version too
            if not rest or getattr(rest[0], "chain", None) != head:
                return None
            if [d.originator_version for d in rest] != list(range(v, v + len(rest))):
                return None
            return events + [d.event for d in rest[1:]]
        except Exception:  # noqa: BLE001 - a cache: read the rows instead
            return None

    def _snapshot_and_rows(self, gid: uuid.UUID) -> Optional[tuple]:
        """On PostgreSQL, ``(snapshot, events)``: the game's latest snapshot
        (None when it has none) and its stored events from the snapshot's
        version on, both read by one query (a load from a snapshot is then
        one round trip to the server instead of two, each prepared on a new
        connection first: most of a first load's time); through the
        library's own connection pool, tables and mapper.  None on another
        store, or when the query fails (the caller then asks the library,
        query by query)."""
        rec = self.recorder
        snaps = getattr(self.snapshots, "recorder", None)
        ds = getattr(rec, "datastore", None)
        if ds is None or not type(rec).__module__.startswith("eventsourcing.postgres") or snaps is None:
            return None
        try:
            from eventsourcing.persistence import StoredEvent
            from psycopg.sql import SQL, Identifier
            query = getattr(self, "_pg_snapshot_query", None)
            if query is None:
                query = self._pg_snapshot_query = SQL(
                    "WITH s AS (SELECT originator_version, topic, state FROM {schema}.{snaps} "
                    "WHERE originator_id = %s ORDER BY originator_version DESC LIMIT 1) "
                    "SELECT 0 AS part, originator_version, topic, state FROM s UNION ALL "
                    "SELECT 1, e.originator_version, e.topic, e.state FROM {schema}.{events} e, s "
                    "WHERE e.originator_id = %s AND e.originator_version >= s.originator_version "
                    "ORDER BY 1, 2").format(schema=Identifier(ds.schema), snaps=Identifier(snaps.events_table_name),
                                            events=Identifier(rec.events_table_name))
            with ds.get_connection() as conn, conn.cursor() as curs:
                curs.execute(query, [gid, gid])
                rows = curs.fetchall()
        except Exception:  # noqa: BLE001 - the library's own queries then say what is wrong
            return None
        if not rows or rows[0]["part"] != 0:
            return None, []
        stored = [StoredEvent(originator_id=gid, originator_version=r["originator_version"], topic=r["topic"],
                              state=bytes(r["state"])) for r in rows]
        to_domain = self.mapper.to_domain_event
        return to_domain(stored[0]), [to_domain(x) for x in stored[1:]]

    def _snapshot_problem(self, gid: uuid.UUID, rows: list) -> Optional[tuple]:
        """``(version, problem)`` when a stored snapshot of the game differs
        from its stored events (the first event where they differ), else None."""
        if self.snapshots is None:
            return None
        try:
            snaps = list(self.snapshots.get(gid))
        except Exception as e:  # noqa: BLE001
            return 1, f"has a snapshot that cannot be read ({_short(e)})"
        if not snaps:
            return None
        evs = [self.mapper.to_domain_event(r).event for r in rows]
        for snap in snaps:
            mine = list(snap.state.get("events") or [])
            for k in range(max(len(mine), snap.originator_version)):
                if k >= len(mine) or k >= len(evs) or mine[k] != evs[k]:
                    return k + 1, ("differs from the game's snapshot (the copy of its first "
                                   f"{snap.originator_version} events kept for fast loading was changed)")
        return None

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
        log = self.annotation_log(gid)
        note = log.notes.get(note_id)
        if note is None:
            raise ArchiveError(f"no annotation {note_id!r} on this game")
        if version is not None and int(version) != log.version:
            raise WriteConflict(gid, note["position"], "annotations", log.version, "change")
        log.edit(note_id=note_id, text=text, mark=mark)
        self._save_notes(gid, log, note["position"], "change")

    def remove_annotation(self, game_id, note_id: str, version: Optional[int] = None) -> None:
        """Remove an annotation (appends AnnotationRemoved).  ``version`` as
        for :meth:`add_annotation`.  Raises :class:`ArchiveError` (no such
        note), :class:`WriteConflict`."""
        gid = self._uuid(game_id)
        log = self.annotation_log(gid)
        note = log.notes.get(note_id)
        if note is None:
            raise ArchiveError(f"no annotation {note_id!r} on this game")
        if version is not None and int(version) != log.version:
            raise WriteConflict(gid, note["position"], "annotations", log.version, "removal")
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

    # ------------------------------------------------------------ tamper evidence
    def verify(self, game_id) -> "VerifyResult":
        """Recompute the hash chain of a stored game from its raw stored rows
        (docs/design.md "Tamper evidence"; :mod:`~euchre_events.archive.chain`).

        The rows are read through the library's recorder, not rebuilt into
        an aggregate, so a changed byte, broken JSON, an unknown topic, a
        removed, inserted or renumbered row are all seen, and named: the
        first bad event's stream version (1 = GameStarted) and what is wrong.
        A game stored before the chain existed gives status ``"no chain"``
        (its rows are still checked to be readable and to fold).  ``game_id``:
        a UUID, an id string or a unique prefix; raises :class:`ArchiveError`
        for an unknown one, never for a damaged one.
        """
        gid = game_id if isinstance(game_id, uuid.UUID) else self._resolve_raw(str(game_id))
        try:
            rows = list(self.recorder.select_events(gid))
        except Exception as e:  # a damaged database page
            return VerifyResult(gid, "", "damaged", 0, None, f"cannot be read from the archive ({_short(e)})")
        if not rows:
            raise ArchiveError(f"no stored game with id {gid}")
        result = _verify_rows(self, gid, rows)
        if result.ok:
            bad = self._snapshot_problem(gid, rows)
            if bad is not None:
                return VerifyResult(gid, result.title, "damaged", result.events, bad[0], bad[1])
        return result

    def verify_all(self) -> list:
        """:meth:`verify` of every stored game stream, in import order:
        ``[VerifyResult]``.  Game streams are found by scanning the whole
        notification log (so a game whose first event's topic was damaged is
        still found and reported)."""
        return [self.verify(g) for g in self.stream_ids()]

    def stream_ids(self) -> list:
        """UUIDs of every stream that is not an annotation stream, in the
        order of their first stored row (every game, even one whose
        GameStarted row is damaged).  Reads the whole notification log; when
        that fails on a damaged SQLite page, the ids are read from the
        table's primary-key index instead (sorted by id, not import order),
        so the undamaged games can still be read.  Raises the database's
        error when neither can be read."""
        seen: dict = {}
        notes: set = set()
        start = None
        try:
            while True:
                items = self.notification_log.select(start=start, limit=self.log_section_size,
                                                     inclusive_of_start=start is None)
                for n in items:
                    oid = uuid.UUID(str(n.originator_id))
                    seen.setdefault(oid, None)
                    if n.topic in _ANNOTATION_TOPICS:
                        notes.add(oid)
                if len(items) < self.log_section_size:
                    break
                start = items[-1].id
        except Exception:
            ids = self._ids_from_index()
            if ids is None:
                raise
            return ids
        return [g for g in seen if g not in notes]

    def _ids_from_index(self) -> Optional[list]:
        """Stream ids (without the annotation streams of games) read from the
        SQLite primary-key index alone, or None (not SQLite, or that fails
        too).  Annotation streams are told by their id (:func:`annotation_log_id`)."""
        datastore = getattr(self.recorder, "datastore", None)
        table = getattr(self.recorder, "events_table_name", None)
        if datastore is None or table is None or not type(self.recorder).__module__.startswith("eventsourcing.sqlite"):
            return None
        try:
            with datastore.transaction(commit=False) as c:
                c.execute(f"SELECT DISTINCT originator_id FROM {table}")  # the covering index, not the rows
                ids = [uuid.UUID(str(r[0])) for r in c.fetchall()]
        except Exception:
            return None
        logs = {annotation_log_id(g) for g in ids}
        return [g for g in ids if g not in logs]

    def _resolve_raw(self, game: str) -> uuid.UUID:
        """:meth:`resolve` that does not need the game to be readable."""
        try:
            return uuid.UUID(game)
        except ValueError:
            pass
        matches = [g for g in self.stream_ids() if str(g).startswith(game.lower())]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise ArchiveError(f"no stored game with id {game!r}")
        raise ArchiveError(f"{game!r} matches {len(matches)} games; give more of the id")


@dataclasses.dataclass(frozen=True)
class VerifyResult:
    """What :meth:`Archive.verify` found for one game.

    ``game_id``: the stream's UUID; ``title``: the game's title as stored
    (``""`` when unknown or unreadable); ``status``: ``"intact"`` (the chain
    holds for every event), ``"no chain"`` (stored before tamper evidence;
    readable, but nothing can be proven) or ``"damaged"``; ``events``: the
    number of stored rows read; ``version``: for a damaged game, the stream
    version of the first bad event (1 = GameStarted; event ``version`` is
    game position ``version - 1``), else None; ``problem``: what is wrong
    with it, in words (``"was changed (stored hash does not match its
    content)"``), else ``""``.
    """

    game_id: uuid.UUID
    title: str
    status: str
    events: int
    version: Optional[int] = None
    problem: str = ""

    @property
    def ok(self) -> bool:
        """True unless damaged."""
        return self.status != "damaged"

    def describe(self) -> str:
        """One line a tournament director can read aloud, e.g.
        ``"intact, 353 events"``, ``"event 17 was changed (stored hash does
        not match its content)"``, ``"no chain (stored before tamper
        evidence), 240 events"``."""
        if self.status == "intact":
            return f"intact, {self.events} events"
        if self.status == "no chain":
            return f"no chain (stored before tamper evidence), {self.events} events"
        if self.version is None:
            return self.problem
        return f"event {self.version} {self.problem}"


_ANNOTATION_TOPICS = frozenset(
    [get_topic(getattr(AnnotationLog, n)) for n in
     ("Created", "AnnotationAdded", "AnnotationEdited", "AnnotationRemoved", "VariationAdded",
      "SourceAdded")]
    + [t for t in LEGACY_TOPICS if ":AnnotationLog" in t])

SOURCE_ADDED_TOPIC = get_topic(AnnotationLog.SourceAdded)
"""The stored topic of what a later copy of a game added to its source (read
models refresh that game's row when they see one)."""


def _raw_state(app: Application, row) -> dict:
    """The JSON state of a stored row as plain dicts (``_type_``/``_data_``
    wrappers kept).  Raises ``ValueError`` (JSON, UTF-8) or the cipher's or
    compressor's error."""
    data = row.state
    if app.mapper.cipher:
        data = app.mapper.cipher.decrypt(data)
    if app.mapper.compressor:
        data = app.mapper.compressor.decompress(data)
    if isinstance(data, memoryview):
        data = bytes(data)
    if isinstance(data, bytes):
        data = data.decode("utf-8")  # the library writes UTF-8; json.loads would guess others
    st = json.loads(data)
    if not isinstance(st, dict):
        raise ValueError("the stored state is not a JSON object")
    return st


def _event_dict(st: dict) -> dict:
    """The game event's dict form (``Event.to_dict()``) inside a raw state:
    ``{"event": {"_type_", "_data_"}}`` (class_version 2 and 3) or
    ``{"data": {...}}`` (0.1.0).  Raises ``ValueError`` when neither."""
    if "event" in st:
        e = st["event"]
        if not (isinstance(e, dict) and isinstance(e.get("_data_"), dict) and isinstance(e.get("_type_"), str)):
            raise ValueError("the stored event has no kind or no fields")
        return dict(e["_data_"], type=e["_type_"])
    if isinstance(st.get("data"), dict):
        return dict(st["data"])
    raise ValueError("the stored state holds no game event")


def _short(e: Exception) -> str:
    text = str(e).split("\n")[0]
    return f"{type(e).__name__}: {text[:160]}"


def _verify_rows(app: "Archive", gid: uuid.UUID, rows: list) -> VerifyResult:
    n = len(rows)

    def damaged(version: int, problem: str, title: str = "") -> VerifyResult:
        return VerifyResult(gid, title, "damaged", n, version, problem)

    # 1. every row readable as JSON holding a game event, in versions 1..n
    states, dicts, title = [], [], ""
    for i, row in enumerate(rows):
        v = i + 1
        if row.originator_version != v:
            return damaged(v, f"is missing (the stored events jump from {v - 1} to {row.originator_version})",
                           title)
        try:
            st = _raw_state(app, row)
            d = _event_dict(st)
        except Exception as e:  # any byte may be garbage: say so, never raise
            return damaged(v, f"cannot be read (its stored JSON is broken: {_short(e)})", title)
        is_start = d.get("type") == "GameStarted"
        if (v == 1) != is_start or (v == 1) != (row.topic in GAME_START_TOPICS):
            return damaged(v, f"was changed (a {d.get('type')!r} event stored as {row.topic!r} "
                              f"at position {v})", title)
        if v == 1:
            title = str(d.get("title") or "")
        states.append(st)
        dicts.append(d)

    # 2. the chain
    length = states[0].get("length")
    chained = states[0].get("chain") is not None
    if not chained and any(st.get("chain") is not None for st in states[1:]):
        return damaged(1, "was changed (later events carry a hash chain, the first does not)", title)
    if chained:
        if not isinstance(length, int) or isinstance(length, bool) or length < 0:
            return damaged(1, "was changed (its stored event count is not a number)", title)
        # length 0: recorded live (Archive.record), no fixed length to check against
        prev = chain.genesis(gid, length)
        for i, (st, d) in enumerate(zip(states, dicts)):
            v = i + 1
            stored = st.get("chain")
            try:
                mine = chain.link(prev, v, d)
            except (TypeError, ValueError) as e:
                return damaged(v, f"cannot be read ({_short(e)})", title)
            if stored == mine:
                prev = stored
                continue
            if not isinstance(stored, str):
                return damaged(v, "was inserted or changed (it carries no hash)", title)
            if length and v > length:
                return damaged(v, f"was inserted (the game was stored with {length} events)", title)
            # does it still link to the row after it, as if it stood at a later
            # position k (rows before it removed, the later ones renumbered)?
            if i + 1 < n and any(chain.link(stored, k + 1, dicts[i + 1]) == states[i + 1].get("chain")
                                 for k in range(v + 1, max(length, n) + 2)):
                return damaged(v, "is missing (removed, and the later events renumbered)", title)
            # does the next row follow on from the event before this one (this row inserted)?
            if i + 1 < n and chain.link(prev, v, dicts[i + 1]) == states[i + 1].get("chain"):
                return damaged(v, "was inserted (it is not part of the stored chain)", title)
            return damaged(v, "was changed (stored hash does not match its content)", title)
        if length and n < length:
            return damaged(n + 1, f"is missing (the game was stored with {length} events; "
                                  f"the last {length - n} were removed)", title)
        if length and n > length and any(d.get("type") not in AFTER_THE_RECORD for d in dicts[length:]):
            k = next(i for i, d in enumerate(dicts[length:], length + 1) if d.get("type") not in AFTER_THE_RECORD)
            return damaged(k, f"was inserted (the game was stored with {length} events)", title)

    # 3. the library reads every row back, and the events fold
    events = []
    for i, row in enumerate(rows):
        try:
            events.append(app.mapper.to_domain_event(row).event)
        except Exception as e:
            return damaged(i + 1, f"cannot be read ({_short(e)})", title)
    try:
        Game(events)
    except Exception as e:
        pos = getattr(e, "position", None)
        where = pos + 1 if isinstance(pos, int) else n
        return damaged(where, f"cannot have happened ({_short(e)})", title)
    return VerifyResult(gid, title, "intact" if chained else "no chain", n)
