"""Where the archive keeps its games (``--db``, ``$EUCHRE_EVENTS_DB``, the
library's ``PERSISTENCE_MODULE``), answered without importing the
``eventsourcing`` library: a command that only needs the archive's file
name (``-o`` over an existing file is refused when it is the archive) does
not pay for loading the store (:mod:`~euchre_events.archive.store`
re-exports every name here)."""
from __future__ import annotations

import difflib
import os
import re
from typing import Optional

DEFAULT_DB = "euchre-events.sqlite"


class ArchiveError(ValueError):
    """A request the archive cannot satisfy (unknown or ambiguous game id, ...)."""


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


_PREFIX = "EUCHREEVENTS_"   # the library's per-application prefix (Archive.name, upper case)


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
    close = difflib.get_close_matches(low, ["postgresql", "postgres"], n=1, cutoff=0.7)
    if not slashes and not close:
        return                                 # a file name with a colon in it
    hint = f" (did you mean {close[0]}?)" if close else ""
    raise ArchiveError(f"{shown}: unknown scheme {scheme!r}{hint}: a PostgreSQL URL starts "
                       f"postgresql:// ({form}); an SQLite archive is a file name")
