"""One way to open a game from what a person gives: a stored game id (or a
unique prefix of it), a record file, a :class:`~euchre_events.formats.Record`
or a :class:`~euchre_events.projections.Game`.  The CLI (``show``,
``export``), the replay viewer and the app all open games through
:func:`open_game`, so a reference means the same thing everywhere.

What a reference is, in this order:

* a ``Game`` or a ``Record``: that game;
* a ``uuid.UUID``: a stored game's id;
* an ``os.PathLike``: a record file;
* a ``str``: a record file if a file of that name exists, or if it looks like
  one (it holds a path separator or ends with a record suffix,
  :data:`RECORD_SUFFIXES`), else a stored game id or unique prefix.
"""
from __future__ import annotations

import os
import uuid
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Optional

from euchre_events.archive.gameid import game_id_of
from euchre_events.formats import RECORD_SUFFIXES  # noqa: F401  (kept here for its callers)
from euchre_events.formats import Record, RecordError, no_game_error, read_records_partial
from euchre_events.projections import Game

__all__ = ["Opened", "open_game", "RECORD_SUFFIXES"]

if TYPE_CHECKING:   # the store (eventsourcing) is imported where a stored game is opened
    from euchre_events.archive.store import Archive


@dataclass
class Opened:
    """A game opened by :func:`open_game`.

    ``game``: the folded game (its ``id`` is ``str(game_id)`` when known);
    ``archive``: the archive it is stored in, or None (a file read without an
    archive is not stored); ``game_id``: its stored id, or for a game not
    stored the id it would be stored under
    (:func:`~euchre_events.archive.game_id_of`; None for a ``Game`` without
    one); ``stored``: ``game_id`` names a game of ``archive``; ``record``:
    the :class:`~euchre_events.formats.Record` when the game came from a file
    or a Record, else None; ``path``: the file read, or None;
    ``games_in_file``: how many games that file holds (0 when no file was
    read); ``note``: what a person should be told about the choice made, e.g.
    ``"m.emn holds 6 games; showing the first (MotE W5 G1)"``, else ``""``.
    """

    game: Game
    archive: Optional[Archive] = None
    game_id: Optional[uuid.UUID] = None
    stored: bool = False
    record: Optional[Record] = None
    path: Optional[str] = None
    games_in_file: int = 0
    note: str = ""

    @cached_property
    def notes(self) -> list:
        """Annotations ``[{"id", "position", "text", "mark", "author"}]``: the
        archive's when stored (sorted by position), else the record's (ids
        ``r0, r1...`` in record order), else ``[]``."""
        if self.stored:
            return self.archive.annotations(self.game_id)
        if self.record is None:
            return []
        return [{"id": f"r{i}", "position": int(a["position"]), "text": str(a.get("text", "")),
                 "mark": a.get("mark"), "author": a.get("author", "record")}
                for i, a in enumerate(self.record.annotations)]

    @cached_property
    def variations(self) -> list:
        """Variations ``[{"id", "position", "events": [Event], "annotations",
        "comment"}]``: the archive's when stored, else the record's (ids
        ``v0, v1...``), else ``[]``."""
        if self.stored:
            return self.archive.variations(self.game_id)
        if self.record is None:
            return []
        return [dict(v, id=f"v{i}") for i, v in enumerate(self.record.variations)]


def open_game(ref, archive: Optional[Archive] = None, db: Optional[str] = None,
              fmt: Optional[str] = None) -> Opened:
    """Open the game ``ref`` names (see the module docstring for what a
    reference is).

    ``archive``: an open :class:`~euchre_events.archive.Archive`.  When given,
    a ``Record``, a file's game, or a ``Game`` not stored in it is imported
    into it first (so notes written later persist) and the stored game is
    returned; when None, files are read without being stored, and a stored id
    is looked up in ``Archive(db)`` (``db``: an SQLite file, default
    ``$EUCHRE_EVENTS_DB`` or ``./euchre-events.sqlite``, or PostgreSQL through
    the library's variables), which must exist: a read never creates an
    empty archive file.  ``fmt``: a file's format (``formats.FORMATS``;
    default from its suffix).  A file with several games (a match) opens its
    first, and ``Opened.note`` says so.

    Raises :class:`~euchre_events.formats.RecordError` for a file that is
    missing, a folder, unreadable, holds no game or a bad one (the first
    error, naming the file and game); :class:`ArchiveError` for an id that
    is unknown or ambiguous, or an archive that is missing or cannot be
    opened (the message names the id, the archive, and that no file of that
    name exists either); ``TypeError`` for anything else than a Game, a
    Record, a str, a ``uuid.UUID`` or a path; ``ImpossibleEvent`` (from
    the rules) for a given Record whose events cannot have happened.
    """
    if isinstance(ref, Game):
        return _from_game(ref, archive)
    if isinstance(ref, Record):
        return _from_record(ref, archive)
    if isinstance(ref, uuid.UUID):
        return _from_archive(ref, archive, db)
    if isinstance(ref, os.PathLike):
        return _from_file(os.fspath(ref), archive, fmt)
    if isinstance(ref, str):
        if os.path.exists(ref) or _looks_like_file(ref):
            return _from_file(ref, archive, fmt)
        return _from_archive(ref, archive, db)
    raise TypeError(f"cannot open a {type(ref).__name__}: give a Game, a Record, a stored game id "
                    f"(str or uuid.UUID) or a record file path")


def _looks_like_file(text: str) -> bool:
    seps = [s for s in (os.sep, os.altsep, "/") if s]
    return any(s in text for s in seps) or os.path.splitext(text)[1].lower() in RECORD_SUFFIXES


def _from_game(g: Game, archive: Optional[Archive]) -> Opened:
    gid = _uuid_or_none(g.id)
    if archive is None:
        return Opened(g, game_id=gid)
    if gid is not None and gid in archive.repository:
        return Opened(g, archive, gid, stored=True)
    gid, _ = archive.import_record(Record(events=list(g.events)))
    return Opened(archive.load(gid), archive, gid, stored=True)


def _from_record(rec: Record, archive: Optional[Archive]) -> Opened:
    if archive is not None:
        gid, _ = archive.import_record(rec)
        return Opened(archive.load(gid), archive, gid, stored=True, record=rec)
    gid = game_id_of(rec.events)
    return Opened(Game(rec.events, game_id=str(gid)), game_id=gid, record=rec)


def _from_file(path: str, archive: Optional[Archive], fmt: Optional[str]) -> Opened:
    if os.path.isdir(path):
        raise RecordError(path, "is a folder, not a record file")
    if not os.path.exists(path):
        raise RecordError(path, "no such file")
    recs, errors = read_records_partial(path, fmt)
    if errors:  # a match with one bad game is refused whole, as the readers do
        raise errors[0]
    if not recs:
        raise no_game_error(path)
    first = recs[0]
    op = _from_record(first, archive)
    op.path, op.games_in_file = path, len(recs)
    if len(recs) > 1:
        op.note = f"{path} holds {len(recs)} games; showing the first ({first.title or 'untitled'})"
    return op


def _from_archive(ref, archive: Optional[Archive], db: Optional[str]) -> Opened:
    from euchre_events.archive.errors import ArchiveError, DamagedGame
    # "no file of that name" only for a str, the one reference that could have been a file
    also = ", and there is no file of that name" if isinstance(ref, str) else ""
    arch = archive if archive is not None else _open_archive(db, ref, also)
    try:
        gid = ref if isinstance(ref, uuid.UUID) else arch.resolve(ref)
        game = arch.load(gid)
    except DamagedGame:
        raise  # it names the game and what to run; where it looked is not the point
    except ArchiveError as e:
        raise ArchiveError(f"{e} (looked in the archive {arch.db or '(library settings)'}{also})") from None
    return Opened(game, arch, gid, stored=True)


def _open_archive(db: Optional[str], ref, also: str) -> Archive:
    """``Archive(db)``, refusing to create a file that is not there."""
    from euchre_events.archive.errors import ArchiveError
    from euchre_events.archive.locate import sqlite_file
    from euchre_events.archive.store import Archive
    path = sqlite_file(db)
    if path is not None:
        if os.path.isdir(path):
            raise ArchiveError(f"{path}: is a folder, not an archive file (looked for a stored game "
                               f"{str(ref)!r}{also})")
        if not os.path.exists(path):
            raise ArchiveError(f"{path}: no such archive file (import a record first; looked for "
                               f"a stored game {str(ref)!r}{also})")
    try:
        return Archive(db)
    except Exception as e:  # a file that is not SQLite, a server that does not answer...
        raise ArchiveError(f"{path or 'the archive'}: cannot open the archive: {type(e).__name__}: {e}") from None


def _uuid_or_none(value) -> Optional[uuid.UUID]:
    if value is None or isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None
