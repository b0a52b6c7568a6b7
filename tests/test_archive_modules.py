"""archive/store.py split by job (issue 24): every public name stays
importable from ``euchre_events.archive.store`` and ``euchre_events.archive``,
as the same object as in the module that now defines it, and the Archive
still has the methods each job gave it."""
import importlib

import euchre_events.archive as archive
from euchre_events.archive import store

HOMES = {
    "errors": ["ArchiveError", "DamagedGame", "WriteConflict"],
    "sources": ["merge_sources", "source_additions", "with_added_sources"],
    "locate": ["sqlite_file", "store_location", "is_postgres_url", "postgres_settings", "persistence_module",
               "hide_password", "check_scheme", "check_postgres", "foreign_tables", "DEFAULT_DB",
               "POSTGRES_SCHEMES", "POSTGRES_TIMEOUT", "ARCHIVE_TABLE"],
    "importing": ["content_id", "ImportResult", "NAMESPACE"],
    "verify": ["VerifyResult"],
    "aggregates": ["annotation_log_id", "SOURCE_ADDED_TOPIC", "GameRecord", "AnnotationLog"],
    "chain": ["AFTER_THE_RECORD"],
    "gameid": ["game_id_of", "start_text", "GAME_ID_VERSION", "GAME_NAMESPACE", "NOT_THE_GAME"],
}


def test_store_reexports_every_public_name_from_its_home():
    for home, names in HOMES.items():
        mod = importlib.import_module(f"euchre_events.archive.{home}")
        for name in names:
            assert getattr(store, name) is getattr(mod, name), (home, name)
            assert name in store.__all__, name
    for name in store.__all__:
        assert hasattr(store, name), name


def test_package_names_are_the_stores():
    for name in archive.__all__:
        if name in ("open_game", "Opened"):
            continue
        assert getattr(archive, name) is getattr(store, name), name


def test_archive_has_every_jobs_methods():
    for method in ("import_record", "import_records", "find_game",        # importing
                   "start_game", "record", "game_length",                  # live
                   "_take_game_snapshot", "_events_from_snapshot",         # snapshots
                   "verify", "verify_all", "stream_ids",                   # verify
                   "load", "game_events", "resolve", "add_annotation"):    # store itself
        assert callable(getattr(store.Archive, method)), method
    assert store.Archive.name == "EuchreEvents"   # the library's table names depend on it
