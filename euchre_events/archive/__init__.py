"""The archive: games stored as event streams with the ``eventsourcing``
library (docs/design.md "Storage").

* :mod:`~euchre_events.archive.store`: the application :class:`Archive`
  (open, read, annotate; SQLite file by default, PostgreSQL through the
  library's variables), made of one module per job:
  :mod:`~euchre_events.archive.importing` (import and de-duplication;
  :func:`content_id`, the id scheme of earlier releases),
  :mod:`~euchre_events.archive.live` (live recording),
  :mod:`~euchre_events.archive.snapshots` (the snapshot cache),
  :mod:`~euchre_events.archive.verify` (verification), with
  :mod:`~euchre_events.archive.errors`, :mod:`~euchre_events.archive.sources`
  (source merging) and :mod:`~euchre_events.archive.locate` (where the store
  is, PostgreSQL probed); the id of a game (:func:`game_id_of`, from its
  events alone) is :mod:`~euchre_events.archive.gameid`'s;
* :mod:`~euchre_events.archive.aggregates`: :class:`GameRecord` (a game's
  events, one stored event each, the event itself) and :class:`AnnotationLog`
  (annotations and variations), and the topics of release 0.1.0, registered
  so old archives stay readable;
* :mod:`~euchre_events.archive.location`: where the games are kept (``--db``,
  the environment), answered without the library;
* :mod:`~euchre_events.archive.transcodings`: how the library writes our
  event classes;
* :mod:`~euchre_events.archive.chain`: the hash chain over a game stream
  (tamper evidence; :meth:`Archive.verify` -> :class:`VerifyResult`, and
  :class:`DamagedGame` when a stored game cannot be read back);
* :mod:`~euchre_events.archive.opening`: :func:`open_game`, the one way to
  open a game from an id, a file, a Record or a Game (CLI, viewer, app).
"""
from euchre_events.lazy import lazy_names

__all__ = ["Archive", "ArchiveError", "DamagedGame", "WriteConflict", "VerifyResult", "GameRecord", "AnnotationLog",
           "content_id", "game_id_of", "ImportResult", "annotation_log_id", "merge_sources", "source_additions",
           "open_game", "Opened", "sqlite_file", "store_location",
           "is_postgres_url", "postgres_settings", "DEFAULT_DB", "NAMESPACE"]

_WHERE = {"AnnotationLog": "aggregates", "GameRecord": "aggregates", "annotation_log_id": "aggregates",
          "Opened": "opening", "open_game": "opening", "game_id_of": "gameid",
          "ArchiveError": "errors", "DamagedGame": "errors", "WriteConflict": "errors",
          "VerifyResult": "verify", "content_id": "importing", "ImportResult": "importing", "NAMESPACE": "importing",
          "merge_sources": "sources", "source_additions": "sources",
          "sqlite_file": "locate", "store_location": "locate", "is_postgres_url": "locate",
          "postgres_settings": "locate", "DEFAULT_DB": "locate"}
"""Where each name of ``__all__`` is defined (the others: ``store``); an
error or a store location is had without importing ``eventsourcing``."""


# ``store`` brings the ``eventsourcing`` library, a fifth of the start-up of a command
# that needs only a game id (``audit`` of a file): its names come when first asked for
__getattr__, __dir__ = lazy_names(__name__, _WHERE, default="store")
