"""Where the archive keeps its games (docs/design.md "Storage"): an SQLite
file (``db``, else ``$EUCHRE_EVENTS_DB``, else :data:`DEFAULT_DB`), a
PostgreSQL URL, or the library's own variables (:func:`store_location`);
the settings the library is opened with (:func:`library_env`); the
PostgreSQL server tried before it is used (:func:`check_postgres`) and an
SQLite file of another program refused (:func:`foreign_tables`)."""
from __future__ import annotations

import os
import re
from typing import Optional

from euchre_events.archive.errors import ArchiveError

__all__ = ["DEFAULT_DB", "POSTGRES_SCHEMES", "POSTGRES_TIMEOUT", "ARCHIVE_TABLE", "is_postgres_url",
           "postgres_settings", "store_location", "sqlite_file", "persistence_module", "hide_password",
           "check_scheme", "check_postgres", "foreign_tables", "library_env", "APP_NAME"]

DEFAULT_DB = "euchre-events.sqlite"


POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""How a PostgreSQL URL starts (``--db`` or ``$EUCHRE_EVENTS_DB``)."""


def is_postgres_url(text: Optional[str]) -> bool:
    """``text`` is a PostgreSQL URL (``postgresql://user:password@host:port/dbname``)."""
    return bool(text) and str(text).lower().startswith(POSTGRES_SCHEMES)


def postgres_settings(url: str) -> dict:
    """The library's PostgreSQL settings for a URL
    ``postgresql://user:password@host:port/dbname`` (``postgres://`` too;
    percent-escapes in the user and password decoded; port 5432 and host
    127.0.0.1 when left out; ``?schema=NAME`` gives ``POSTGRES_SCHEMA``).
    Raises :class:`ArchiveError` for a URL without a database name or
    with a port that is not a number, naming what is wrong (the password is
    never repeated)."""
    from urllib.parse import parse_qs, unquote, urlsplit
    parts = urlsplit(url)
    shown = f"{parts.scheme}://{parts.hostname or ''}{parts.path}"   # no user, no password
    try:
        port = parts.port
    except ValueError:
        raise ArchiveError(f"{shown}: the port of a PostgreSQL URL must be a number") from None
    dbname = unquote(parts.path.lstrip("/"))
    if not dbname:
        raise ArchiveError(f"{shown}: a PostgreSQL URL names its database: "
                           "postgresql://user:password@host:port/dbname")
    out = {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": dbname,
           "POSTGRES_HOST": unquote(parts.hostname or "127.0.0.1"), "POSTGRES_PORT": str(port or 5432),
           "POSTGRES_USER": unquote(parts.username or os.environ.get("USER", "postgres")),
           "POSTGRES_PASSWORD": unquote(parts.password or "")}
    schema = parse_qs(parts.query).get("schema")
    if schema:
        out["POSTGRES_SCHEMA"] = schema[-1]
    return out


def store_location(db: Optional[str] = None, env: Optional[dict] = None) -> tuple:
    """Where ``Archive(db, env)`` keeps its games: ``("sqlite", path)``,
    ``("postgres", url_or_None)`` or ``("library", None)``.

    In this order: ``db`` (a file, or a PostgreSQL URL) wins; else
    ``PERSISTENCE_MODULE`` (the library's own variables, in ``env`` or the
    environment); else ``$EUCHRE_EVENTS_DB`` (a file or a URL); else
    :data:`DEFAULT_DB` in the current folder."""
    if db:
        check_scheme(db)
        return ("postgres", db) if is_postgres_url(db) else ("sqlite", db)
    if persistence_module(env):
        return ("postgres" if "postgres" in persistence_module(env) else "library", None)
    named = os.environ.get("EUCHRE_EVENTS_DB")
    check_scheme(named)
    if is_postgres_url(named):
        return ("postgres", named)
    return ("sqlite", named or DEFAULT_DB)


def sqlite_file(db: Optional[str] = None, env: Optional[dict] = None) -> Optional[str]:
    """The SQLite file ``Archive(db, env)`` opens, or None when the games
    are kept elsewhere (a PostgreSQL URL in ``db`` or ``$EUCHRE_EVENTS_DB``,
    or ``PERSISTENCE_MODULE`` set): ``db`` when given (an explicit file
    wins over the environment: ``--db x.sqlite`` is never silently
    ignored), else None when ``PERSISTENCE_MODULE`` is set (in ``env`` or
    the environment, also as ``EUCHREEVENTS_PERSISTENCE_MODULE``): then the
    library's own settings choose the store; else ``$EUCHRE_EVENTS_DB``,
    else :data:`DEFAULT_DB` (see :func:`store_location`)."""
    kind, where = store_location(db, env)
    return where if kind == "sqlite" else None


APP_NAME = "EuchreEvents"
"""The library application's name (``Archive.name``): its tables are
``euchreevents_events`` and ``euchreevents_snapshots`` on PostgreSQL."""

_PREFIX = APP_NAME.upper() + "_"   # the library's per-application prefix


def _setting(key: str, env: Optional[dict] = None) -> Optional[str]:
    """A library setting as the library reads it: ``EUCHREEVENTS_<key>``
    before ``<key>``, ``env`` before the process environment."""
    for name in (_PREFIX + key, key):
        for source in (env or {}, os.environ):
            if source.get(name):
                return source[name]
    return None


def persistence_module(env: Optional[dict] = None) -> Optional[str]:
    """The ``PERSISTENCE_MODULE`` the library would use (``env`` or the
    environment), or None for our SQLite default."""
    return _setting("PERSISTENCE_MODULE", env)


_URL_PART = {"POSTGRES_PORT": "port", "POSTGRES_HOST": "host", "POSTGRES_DBNAME": "database name",
             "POSTGRES_USER": "user name", "POSTGRES_PASSWORD": "password"}
"""What a library setting is called in a URL (``check_postgres`` advice)."""


def hide_password(text: str) -> str:
    """``text`` with the password of a URL in it replaced by ``***``
    (``postgresql://ann:secret@host/db`` -> ``postgresql://ann:***@host/db``)."""
    return re.sub(r"(//[^:/@\s]*):[^@\s]*@", r"\1:***@", str(text))


def check_scheme(text: Optional[str]) -> None:
    """Refuse a ``--db`` / ``$EUCHRE_EVENTS_DB`` that looks like a URL but
    is not a PostgreSQL one, rather than take it for an SQLite file name
    (``postgressql://...`` used to give "unable to open database file").
    Allowed: ``postgresql://`` and ``postgres://`` URLs, file names (also
    ``C:/...`` and ``name:with-colon``) and SQLite ``file:`` URIs.  Raises
    :class:`ArchiveError` naming the scheme, e.g. ``postgressql://ann:***@db/club:
    unknown scheme 'postgressql' (did you mean postgresql?)...``; the
    password is never repeated."""
    m = re.match(r"^([A-Za-z][A-Za-z0-9+.\-]*):(/*)", str(text or ""))
    if not m:
        return
    scheme, slashes = m.group(1), m.group(2)
    low = scheme.lower()
    if len(scheme) == 1 or low == "file":      # a Windows drive; an SQLite URI
        return
    shown = hide_password(text)
    form = "postgresql://user:password@host:port/dbname"
    if low in ("postgresql", "postgres"):
        if slashes != "//":
            raise ArchiveError(f"{shown}: a PostgreSQL URL has two slashes after {scheme}: ({form})")
        return
    import difflib      # only for a scheme that is not PostgreSQL's: not on every command's start-up
    close = difflib.get_close_matches(low, ["postgresql", "postgres"], n=1, cutoff=0.7)
    if not slashes and not close:
        return                                 # a file name with a colon in it
    hint = f" (did you mean {close[0]}?)" if close else ""
    raise ArchiveError(f"{shown}: unknown scheme {scheme!r}{hint}: a PostgreSQL URL starts "
                       f"postgresql:// ({form}); an SQLite archive is a file name")


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


def library_env(db: Optional[str] = None, env: Optional[dict] = None) -> dict:
    """The settings ``Archive(db, env)`` opens the library with: ``env``
    completed for the store :func:`store_location` chooses (an SQLite file,
    a PostgreSQL URL's settings, or the library's own variables), each
    setting in both spellings (the library reads ``EUCHREEVENTS_<KEY>``
    before ``<KEY>``).

    For PostgreSQL the server is tried first (:func:`check_postgres`: says
    within :data:`POSTGRES_TIMEOUT` seconds what failed), and the library is
    told not to create tables that exist.  Raises :class:`ArchiveError` for
    an SQLite file of another program (:func:`foreign_tables`; nothing is
    written to it), a bad URL or an unreachable server."""
    cfg = dict(env or {})
    kind, where = store_location(db, env)
    path = where if kind == "sqlite" else None
    if kind == "postgres" and where:
        for k, v in postgres_settings(where).items():
            cfg[k] = cfg[_PREFIX + k] = v
    if path is not None:
        foreign = foreign_tables(path)
        if foreign:   # before the library creates its tables in someone else's file
            shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
            raise ArchiveError(f"{path}: an SQLite file of another program (its tables: {shown}), "
                               f"not a euchre-events archive: nothing was written to it")
        cfg["PERSISTENCE_MODULE"] = cfg[_PREFIX + "PERSISTENCE_MODULE"] = "eventsourcing.sqlite"
        cfg["SQLITE_DBNAME"] = cfg[_PREFIX + "SQLITE_DBNAME"] = path
        cfg.setdefault("SQLITE_LOCK_TIMEOUT", "10")
    elif "postgres" in (persistence_module(cfg) or ""):
        # says what failed, in seconds, not "no connection" after 30; and
        # whether this archive's tables exist: then the library is not asked
        # to create them again (CREATE ... IF NOT EXISTS, each statement a
        # round trip and a catalogue lock, on every open)
        name = APP_NAME.lower()
        ready = check_postgres(cfg, url=where if kind == "postgres" else None,
                               tables=(f"{name}_events", f"{name}_snapshots"),
                               types=(f"stored_event_{_setting('ORIGINATOR_ID_TYPE', cfg) or 'uuid'}",))
        if ready and _setting("CREATE_TABLE", cfg) is None:
            cfg["CREATE_TABLE"] = cfg[_PREFIX + "CREATE_TABLE"] = "false"
        if not _setting("POSTGRES_CONNECT_TIMEOUT", cfg):
            cfg["POSTGRES_CONNECT_TIMEOUT"] = str(POSTGRES_TIMEOUT)
    return cfg
