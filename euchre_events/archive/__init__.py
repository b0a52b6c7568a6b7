"""The archive: games stored as event streams with the ``eventsourcing``
library (docs/design.md "Storage").

* :mod:`~euchre_events.archive.store`: the application :class:`Archive`
  (import, read, annotate; SQLite file by default, PostgreSQL through the
  library's variables), the id of a game (:func:`game_id_of`, from its
  events alone; :func:`content_id`, the scheme of earlier releases);
* :mod:`~euchre_events.archive.aggregates`: :class:`GameRecord` (a game's
  events, one stored event each, the event itself) and :class:`AnnotationLog`
  (annotations and variations), and the topics of release 0.1.0, registered
  so old archives stay readable;
* :mod:`~euchre_events.archive.transcodings`: how the library writes our
  event classes;
* :mod:`~euchre_events.archive.chain`: the hash chain over a game stream
  (tamper evidence; :meth:`Archive.verify` -> :class:`VerifyResult`, and
  :class:`DamagedGame` when a stored game cannot be read back);
* :mod:`~euchre_events.archive.opening`: :func:`open_game`, the one way to
  open a game from an id, a file, a Record or a Game (CLI, viewer, app).
"""
from euchre_events.archive.aggregates import AnnotationLog, GameRecord
from euchre_events.archive.opening import Opened, open_game
from euchre_events.archive.store import (DEFAULT_DB, NAMESPACE, Archive, ArchiveError, DamagedGame, VerifyResult,
                                         WriteConflict, annotation_log_id, ImportResult, content_id, game_id_of,
                                         is_postgres_url, merge_sources, postgres_settings, source_additions,
                                         sqlite_file, store_location)

__all__ = ["Archive", "ArchiveError", "DamagedGame", "WriteConflict", "VerifyResult", "GameRecord", "AnnotationLog",
           "content_id", "game_id_of", "ImportResult", "annotation_log_id", "merge_sources", "source_additions",
           "open_game", "Opened", "sqlite_file", "store_location",
           "is_postgres_url", "postgres_settings", "DEFAULT_DB", "NAMESPACE"]
