"""Read models of a club archive that follow its notification log
(docs/design.md "Read models"): a **game index** (players, date, variant,
source, result, official and as-played score), a **renege ledger** (every
audit finding of every game) and the **deals** every player statistic is
counted from (who dealt, who called, how, on which up-card, alone or not,
made or euchred, tricks per seat, lone defences).

Built with the ``eventsourcing`` library's own pieces: :class:`ClubProjection`
is a :class:`eventsourcing.projection.Projection`; its view is a tracking
recorder (:class:`SQLiteClubView` or :class:`PostgresClubView`, subclasses
of the library's ``SQLiteTrackingRecorder`` / ``PostgresTrackingRecorder``)
that writes its rows **and the tracking record in one transaction**.  So
each event is processed exactly once: a read model killed at any moment
resumes after the last notification whose rows were committed
(``max_tracking_id``), and a second process catching up at the same time
finds its tracking record refused (the library's single-row tracking only
moves forward) and its rows rolled back.

The same catch-up loop runs on SQLite and PostgreSQL (the library has no
subscription on SQLite): :meth:`ReadModels.catch_up` reads the log in
sections of :attr:`Archive.log_section_size`, decodes each notification with
the archive's mapper and hands a section to :meth:`ClubProjection.process_events`
with the tracking of its last notification.  A game's rows are computed
from the whole game (a fold, the audit, the deal reports) once its last
stored event has been seen (``length``, kept in its first stored event);
its earlier events come from the same section, from memory, or from the
event store after a restart.  Rows are replaced per game, so computing a
game twice (a restart, a game appended to) gives the same rows.

**Stale read models.**  The rows are derived by the rules; a rules fix can
change them.  :data:`RULES_VERSION` is written beside them; when the
stored one differs, :meth:`ReadModels.stale` says so and ``euchre-events
rebuild`` (:meth:`ReadModels.rebuild`) recomputes every row from the events;
rows a newer release built (:meth:`ReadModels.newer`) ask for an upgrade
instead, and ``rebuild`` leaves them alone.
"""
from __future__ import annotations

import json
import uuid
from contextlib import contextmanager
from typing import Callable, Iterable, Optional

from eventsourcing.persistence import IntegrityError, Tracking
from eventsourcing.projection import Projection
from eventsourcing.sqlite import SQLiteTrackingRecorder

from euchre_events import __version__
from euchre_events.archive.aggregates import (ANNOTATION_TOPICS, GAME_START_TOPICS, SOURCE_ADDED_TOPIC,
                                              annotation_log_id)
from euchre_events.archive.errors import DamagedGame
from euchre_events.archive.sources import with_added_sources
from euchre_events.archive.store import Archive
from euchre_events.projections import Game

__all__ = ["ReadModels", "ClubProjection", "SQLiteClubView", "PostgresClubView", "RULES_VERSION",
           "READ_MODEL_VERSION", "game_rows", "index_values", "unholdable", "is_newer"]

READ_MODEL_VERSION = 3   # 2: the deals' ``sat_out`` column (who sat a deal out); 3: ``made_official``
"""What the rows hold; raise it when a column or a definition changes."""

RULES_VERSION = f"{__version__}+rm{READ_MODEL_VERSION}"
"""The rules (package) version and read-model version the rows were built by."""

def _version_key(version: str) -> tuple:
    """``((0, 2, 0), 3)`` for the rules version ``"0.2.0+rm3"`` (the release's
    leading numbers, then the read-model version); ``((), 0)`` for a form
    that says neither (``"0+unknown"`` gives ``((0,), 0)``)."""
    import re
    release, _, rm = str(version).partition("+rm")
    m = re.match(r"\d+(?:\.\d+)*", release)
    return (tuple(int(x) for x in m.group().split(".")) if m else (),
            int(rm) if rm.isdigit() else 0)


def is_newer(version: str, than: str) -> bool:
    """Whether rules version ``version`` comes from a newer release (or a
    newer read-model version of the same release) than ``than``
    (``is_newer("0.3.0+rm2", "0.2.1+rm2")``).  A version whose release is
    unknown (``0+unknown``, a source checkout without metadata) is newer
    than nothing and nothing is newer than it."""
    a, b = _version_key(version), _version_key(than)
    if a[0] in ((), (0,)) or b[0] in ((), (0,)):
        return a[0] == b[0] and a[1] > b[1]
    return a > b


_TABLES = {
    "ee_rm_meta": "key TEXT PRIMARY KEY, value TEXT",
    "ee_rm_games": ("game_id TEXT PRIMARY KEY, seq BIGINT, title TEXT, variant TEXT, date TEXT, "
                    "source TEXT, players TEXT, deals INTEGER, events INTEGER, final_score TEXT, "
                    "official_score TEXT, winner TEXT, as_played_winner TEXT, game_over INTEGER, tied TEXT, "
                    "findings INTEGER, reneges INTEGER, score_after TEXT, error TEXT, rules_version TEXT"),
    "ee_rm_findings": ("game_id TEXT, n INTEGER, kind TEXT, deal INTEGER, trick INTEGER, seat INTEGER, "
                       "player TEXT, card TEXT, led_suit TEXT, status TEXT, penalized INTEGER, "
                       "penalty TEXT, position INTEGER, PRIMARY KEY (game_id, n)"),
    "ee_rm_deals": ("game_id TEXT, deal INTEGER, dealer INTEGER, maker INTEGER, maker_rel INTEGER, "
                    "call TEXT, bid TEXT, up_card TEXT, trump TEXT, alone INTEGER, lone_defender INTEGER, "
                    "made INTEGER, maker_tricks INTEGER, tricks TEXT, points TEXT, note TEXT, sat_out TEXT, "
                    "made_official INTEGER, PRIMARY KEY (game_id, deal)"),
    # the analysis cache (docs/analysis.md): derived like the rest, never events; one row per
    # game, analysis version and parameters (``key``: their canonical JSON with the events' count)
    "ee_rm_analysis": "game_id TEXT, key TEXT, version TEXT, doc TEXT, PRIMARY KEY (game_id, key)",
}
"""The read models' tables (the same SQL on SQLite and PostgreSQL)."""

_CHANGED = "ee_rm_changed"
"""The table of streams whose stored rows were updated or deleted (SQLite: filled by triggers)."""

_COLUMNS = {name: [c.split()[0] for c in cols.split(", ") if not c.startswith(("PRIMARY", "deal)", "n)", "key)"))]
            for name, cols in _TABLES.items()}


_JSON_GAME_COLUMNS = ("source", "players", "final_score", "official_score", "winner", "as_played_winner", "tied",
                      "score_after")
"""The game index's columns that hold JSON (decoded by :meth:`ReadModels.games`)."""

_SMALL_JSON_COLUMNS = ("final_score", "official_score", "winner", "as_played_winner", "tied")
"""JSON columns of a few distinct texts (scores, sides): decoded once per text."""


def _j(value) -> str:
    return json.dumps(value, ensure_ascii=False, default=list)


# ------------------------------------------------------------------ rows of one game
def index_values(game_id, g: Game) -> dict:
    """The game index's columns a fold alone gives, as values (not JSON
    text): ``game_id``, ``title``, ``variant``, ``date`` (the source's, or
    None), ``source`` (a dict), ``players`` (names), ``deals``, ``events``,
    ``final_score`` (as played), ``official_score``, ``winner`` and
    ``as_played_winner`` (a side, a tuple of sides, or None; rules.md 1.6),
    ``game_over`` (0/1), ``tied`` (the tied sides).  The one place an index
    row is made: :func:`game_rows` stores it, ``list`` without read models
    prints it."""
    start = g.events[0]
    source = start.source if isinstance(start.source, dict) else {}
    return {"game_id": str(game_id), "title": g.title, "variant": g.variant,
            "date": str(source.get("date") or "") or None, "source": source,
            "players": [str(p) for p in g.players], "deals": g.deals, "events": len(g.events),
            "final_score": g.final_score, "official_score": g.official_score,
            "winner": g.winner, "as_played_winner": g.as_played_winner,
            "game_over": int(bool(g.final.game_over)), "tied": list(g.final.x.get("tied") or ())}


def game_rows(game_id: uuid.UUID, events: list) -> dict:
    """The read-model rows of one game from its events (pure):
    ``{"game": {...}, "findings": [{...}], "deals": [{...}]}``, column names
    as in the tables.  Raises whatever the fold raises (ImpossibleEvent)."""
    g = Game(events, game_id=str(game_id))
    v = g.final.variant
    findings = g.audit()
    reports = g.deal_reports()
    values = index_values(game_id, g)
    players = values["players"]
    game = {k: _j(x) if k in _JSON_GAME_COLUMNS else x for k, x in values.items()}
    game.update(findings=len(findings), reneges=sum(1 for f in findings if f.kind == "renege"),
                score_after=_j([[d.deal, list(d.score_as_played), list(d.score_official)] for d in reports]),
                error=None, rules_version=RULES_VERSION)
    rows_f = []
    for i, f in enumerate(findings):
        seat = f.seat
        rows_f.append({"game_id": str(game_id), "n": i, "kind": f.kind, "deal": f.deal, "trick": f.trick,
                       "seat": seat, "player": players[seat] if seat is not None and 0 <= seat < len(players) else None,
                       "card": f.card, "led_suit": f.led_suit, "status": f.status,
                       "penalized": int(bool(f.penalized)), "penalty": f.penalty, "position": f.position})
    calls = _deal_calls(g.events)
    reneges = {r.position: r for r in g.final.reneges}
    rows_d = []
    n = v.n_seats
    for d in reports:
        c = calls.get(d.deal, {})
        maker = d.maker
        made, maker_tricks = None, None
        if maker is not None and d.tricks and d.note in ("", None):
            maker_tricks = v.maker_tricks(d.tricks, maker)
            made = int(v.call_made(d.tricks, maker, c.get("bid")))
        made_official = _made_officially(g, d, made, reneges)
        rows_d.append({"game_id": str(game_id), "deal": d.deal, "dealer": d.dealer, "maker": maker,
                       "maker_rel": (maker - d.dealer) % n if maker is not None and d.dealer is not None else None,
                       "call": c.get("call"), "bid": None if c.get("bid") is None else str(c.get("bid")),
                       "up_card": c.get("up_card"), "trump": d.trump, "alone": d.alone,
                       "lone_defender": c.get("lone_defender"), "made": made, "maker_tricks": maker_tricks,
                       "tricks": _j(list(d.tricks)), "points": _j(list(d.points_as_played)),
                       "note": d.note or "", "sat_out": _j(list(d.out)), "made_official": made_official})
    return {"game": game, "findings": rows_f, "deals": rows_d}


def _made_officially(g, d, made: Optional[int], reneges: dict) -> Optional[int]:
    """Whether deal report ``d``'s call was made by the official result
    (rules.md 1.5, 2.7): as played (``made``), unless a renege the official
    score penalizes ended the hand (a ruling's own points, or a preset that
    abandons the hand, as standard's tournament one): then the call is made
    when the offender defended and euchred when the offender sat on the
    maker's side.  None where ``made`` is None (no call played out)."""
    if made is None or not d.penalties:
        return made
    v = g.final.variant
    first = reneges.get(d.penalties[0][0])
    if first is None:
        return made
    ends = str(d.penalties[0][1]).startswith("as ruled") or \
        v.renege_penalty(g.final, first, d.points_as_played)[1]
    if not ends:        # the hand was played out and scored, the penalty beside it
        return made
    return int(v.side_of(first.seat) != v.side_of(d.maker))


INTEGER_RANGE = (-2 ** 31, 2 ** 31 - 1)
"""What the tables' ``INTEGER`` columns hold on both backends (PostgreSQL's
``INTEGER`` is 32 bits; SQLite's would take 64)."""


def unholdable(rows: dict) -> Optional[str]:
    """None when every whole number of one game's rows (:func:`game_rows`)
    fits an ``INTEGER`` column (:data:`INTEGER_RANGE`), else which one does
    not (``"deals.deal = 10000000001 does not fit an INTEGER column"``): a
    game whose rows cannot be written is listed as unreadable by itself,
    instead of failing the whole section (and every later one).  The
    engine's bound on stored numbers (:data:`euchre_events.events.MAX_NUMBER`)
    keeps a game folded by this release far inside."""
    low, high = INTEGER_RANGE
    for table, items in (("games", [rows["game"]]), ("findings", rows["findings"]), ("deals", rows["deals"])):
        for row in items:
            for col, v in row.items():
                if type(v) is int and not low <= v <= high and col != "seq":
                    return f"{table}.{col} = {v} does not fit an INTEGER column"
    return None


def _deal_calls(events: list) -> dict:
    """``{deal: {"call", "bid", "up_card", "lone_defender"}}`` from the events:
    ``call`` is how trump was made (``"ordered up"`` in the up-card round,
    ``"named"`` later, ``"bid"`` in the bidding variants, ``"turned"`` when
    the turned card was trump with no call, as Buck's clubs)."""
    out: dict = {}
    cur: dict = {}
    for e in events:
        k = e.kind
        if k == "DealStarted":
            cur = out.setdefault(e.deal, {"call": None, "bid": None, "up_card": None, "lone_defender": None})
        elif k == "CardsDealt":
            cur["up_card"] = e.up_card
        elif k == "OrderedUp":
            cur["call"] = "ordered up"
        elif k == "TrumpNamed" and cur.get("call") is None:
            cur["call"] = "named"
        elif k == "BidMade":
            cur["call"] = "bid"
            if e.bid not in (None, "pass", 0):
                cur.setdefault("bids", {})[e.seat] = e.bid
        elif k == "DefendedAlone":
            cur["lone_defender"] = e.seat
        elif k == "CardPlayed" and cur is not None and cur.get("call") is None and "played" not in cur:
            cur["call"] = "turned"
        if k == "CardPlayed":
            cur["played"] = True
    for d in out.values():
        bids = d.pop("bids", None) or {}
        d.pop("played", None)
        if bids:
            # the contract is the last bid made (the highest: bids only go up)
            d["bid"] = list(bids.values())[-1]
    return out


# ------------------------------------------------------------------ the views
class _ClubViewSQL:
    """The SQL of the club view, shared by both backends: ``_tx()`` gives a
    cursor in one transaction, ``_q`` turns ``?`` into the driver's marker,
    ``_t`` names a table."""

    marker = "?"

    def _q(self, sql: str) -> str:
        return sql if self.marker == "?" else sql.replace("?", self.marker)

    def _t(self, name: str) -> str:
        return name

    def write_games(self, rows: dict, tracking: Tracking) -> None:
        """Replace the rows of every game in ``rows`` (``{game_id: game_rows()
        or {"error": text}}``, each with ``"seq"``: where the game starts in
        the log, its place in import order) and record ``tracking``, in one
        transaction.
        Raises the library's ``IntegrityError`` when ``tracking`` is not after
        the one recorded (another process got there first: nothing written)."""
        with self._tx() as c:
            self._write(c, rows)
            self._insert_tracking(c, tracking)

    def _write(self, c, rows: dict) -> None:
        g_cols = _COLUMNS["ee_rm_games"]
        upsert = self._q(
            f"INSERT INTO {self._t('ee_rm_games')} ({', '.join(g_cols)}) VALUES ({', '.join('?' * len(g_cols))}) "
            f"ON CONFLICT (game_id) DO UPDATE SET "
            + ", ".join(f"{col} = excluded.{col}" for col in g_cols if col not in ("game_id", "seq")))
        for gid, r in rows.items():
            for table in ("ee_rm_findings", "ee_rm_deals"):
                c.execute(self._q(f"DELETE FROM {self._t(table)} WHERE game_id = ?"), (str(gid),))
            game = dict(r["game"]) if "game" in r else {"game_id": str(gid), "error": r["error"],
                                                        "rules_version": RULES_VERSION}
            game["seq"] = r.get("seq")   # an update keeps the first one
            c.execute(upsert, tuple(game.get(col) for col in g_cols))
            for table, key in (("ee_rm_findings", "findings"), ("ee_rm_deals", "deals")):
                cols = _COLUMNS[table]
                if r.get(key):
                    c.executemany(self._q(f"INSERT INTO {self._t(table)} ({', '.join(cols)}) "
                                          f"VALUES ({', '.join('?' * len(cols))})"),
                                  [tuple(row.get(col) for col in cols) for row in r[key]])
        c.execute(self._q(f"INSERT INTO {self._t('ee_rm_meta')} (key, value) VALUES ('rules_version', ?) "
                          f"ON CONFLICT (key) DO UPDATE SET value = excluded.value"), (RULES_VERSION,))

    def add_missing_columns(self) -> bool:
        """Add the columns of :data:`_TABLES` that tables made by an older
        read-model version lack; True if any was added (their rows must be
        built again)."""
        added = False
        for name, cols in _TABLES.items():
            for col in cols.split(", "):
                word, _, kind = col.partition(" ")
                if word == "PRIMARY" or not kind or not word.isidentifier() or self._has(name, word):
                    continue
                with self._tx() as c:
                    c.execute(f"ALTER TABLE {self._t(name)} ADD COLUMN {word} {kind}")
                added = True
        return added

    def _has(self, table: str, column: str) -> bool:
        """Whether ``table`` has ``column`` (asked the same way on SQLite and PostgreSQL)."""
        try:
            with self._tx(commit=False) as c:
                c.execute(f"SELECT {column} FROM {self._t(table)} LIMIT 0")
            return True
        except Exception:
            return False

    def reset(self, application_name: str) -> None:
        """Forget every row and the tracking of ``application_name`` (one
        transaction), so the next catch-up starts from the first event."""
        with self._tx() as c:
            for table in _TABLES:
                if table == "ee_rm_analysis":    # kept: only what this version cannot use is cleared
                    c.execute(self._q(f"DELETE FROM {self._t(table)} WHERE version <> ?"), (RULES_VERSION,))
                    continue
                c.execute(f"DELETE FROM {self._t(table)}")
            c.execute(self._q(f"DELETE FROM {self._tracking_table()} WHERE application_name = ?"),
                      (application_name,))

    def select(self, sql: str, params: Iterable = ()) -> list:
        """Rows of a query over the read-model tables (written with their
        plain names and ``?`` markers), as dicts."""
        for name in _TABLES:
            sql = sql.replace(f"{{{name}}}", self._t(name))
        with self._tx(commit=False) as c:
            c.execute(self._q(sql), tuple(params))
            # sqlite3.Row and psycopg's dict rows both know their column names
            return [dict(row) if isinstance(row, dict) else dict(zip(row.keys(), row)) for row in c.fetchall()]

    def stream(self, sql: str, params: Iterable = (), size: int = 2000):
        """Rows of a query over the read-model tables (as :meth:`select`),
        yielded one at a time and read ``size`` at a time in one read
        transaction, so a caller that counts them holds one section in
        memory, not the whole result (issue 26: ``stats`` of 100,000 games)."""
        for name in _TABLES:
            sql = sql.replace(f"{{{name}}}", self._t(name))
        with self._tx(commit=False) as c:
            c.execute(self._q(sql), tuple(params))
            raw = getattr(c, "sqlite_cursor", c)     # the library's SQLite cursor has no fetchmany
            while True:
                rows = raw.fetchmany(size)
                if not rows:
                    break
                for row in rows:
                    yield dict(row) if isinstance(row, dict) else dict(zip(row.keys(), row))

    def stream_tuples(self, sql: str, params: Iterable = (), size: int = 2000):
        """The rows of a query, yielded ``size`` at a time (lists of rows that
        index and iterate as tuples do)."""
        for name in _TABLES:
            sql = sql.replace(f"{{{name}}}", self._t(name))
        with self._tx(commit=False) as c:
            c.execute(self._q(sql), tuple(params))
            raw = getattr(c, "sqlite_cursor", c)
            while True:
                rows = raw.fetchmany(size)
                if not rows:
                    break
                yield rows

    def changed_streams(self) -> Optional[set]:
        """UUIDs of the streams whose stored rows were changed, or None when
        this backend does not note them (every game must then be checked)."""
        return None

    def stored_rules_version(self) -> Optional[str]:
        """The rules version the rows were built by, or None (nothing built)."""
        rows = self.select("SELECT value FROM {ee_rm_meta} WHERE key = 'rules_version'")
        return rows[0]["value"] if rows else None


class SQLiteClubView(_ClubViewSQL, SQLiteTrackingRecorder):
    """The club read models in an SQLite file (the archive's own file:
    the library's ``tracking`` table beside ``stored_events``).

    ``stored_tables``: the archive's tables of stored events and snapshots.
    Triggers on them note in ``ee_rm_changed`` the stream of every row
    updated or deleted (the archive only ever inserts): a changed event makes
    no notification, so this is how ``list`` and ``stats`` learn which games
    to check again (:meth:`ReadModels.changed_games`) without reading every
    game's events."""

    def __init__(self, datastore, stored_tables: tuple = ("stored_events", "stored_snapshots"), **kwargs):
        self.stored_tables = tuple(t for t in stored_tables if t and t.isidentifier())
        super().__init__(datastore, **kwargs)

    def construct_create_table_statements(self) -> list:
        watch = [f"CREATE TABLE IF NOT EXISTS {_CHANGED} (originator_id TEXT PRIMARY KEY)"]
        for table in self.stored_tables:
            for what in ("UPDATE", "DELETE"):
                watch.append(f"CREATE TRIGGER IF NOT EXISTS {_CHANGED}_{table}_{what.lower()} AFTER {what} "
                             f"ON {table} BEGIN INSERT OR IGNORE INTO {_CHANGED} (originator_id) "
                             f"VALUES (old.originator_id); END")
        return super().construct_create_table_statements() + [
            f"CREATE TABLE IF NOT EXISTS {name} ({cols})" for name, cols in _TABLES.items()] + [
            "CREATE INDEX IF NOT EXISTS ee_rm_games_seq ON ee_rm_games (seq)"] + watch

    def changed_streams(self) -> Optional[set]:
        """UUIDs of the streams with a stored row updated or deleted since the
        triggers exist."""
        return {uuid.UUID(str(r["originator_id"])) for r in self.select(f"SELECT originator_id FROM {_CHANGED}")}

    @contextmanager
    def _tx(self, commit: bool = True):
        with self.datastore.transaction(commit=commit) as c:
            yield c

    def _tracking_table(self) -> str:
        return "tracking"


try:  # PostgreSQL is optional (eventsourcing[postgres])
    from eventsourcing.postgres import PostgresTrackingRecorder
    from psycopg.sql import SQL, Identifier
except ImportError:  # pragma: no cover
    PostgresTrackingRecorder = None


if PostgresTrackingRecorder is not None:
    class PostgresClubView(_ClubViewSQL, PostgresTrackingRecorder):
        """The club read models on PostgreSQL, in the archive's schema, with
        their own tracking table (``ee_rm_tracking``).

        ``stored_tables``: the archive's tables of stored events and
        snapshots.  As on SQLite, a trigger on each notes in
        ``ee_rm_changed`` the stream of every row updated or deleted, so
        ``list`` and ``stats`` verify only those games
        (:meth:`ReadModels.changed_games`).  The triggers are made once,
        under a transaction-scoped advisory lock: two processes opening the
        read models at once do not both create them (PostgreSQL would fail
        one with "tuple concurrently updated"), and once they exist no lock
        is taken on the events table."""

        marker = "%s"

        def __init__(self, datastore, stored_tables: tuple = (), **kwargs):
            self.stored_tables = tuple(t for t in stored_tables if t and t.isidentifier())
            super().__init__(datastore, tracking_table_name="ee_rm_tracking", **kwargs)
            for name, cols in _TABLES.items():
                self.sql_create_statements.append(
                    SQL(f"CREATE TABLE IF NOT EXISTS {{0}}.{{1}} ({cols})").format(
                        Identifier(self.datastore.schema), Identifier(name)))
            self.sql_create_statements.append(
                SQL("CREATE INDEX IF NOT EXISTS ee_rm_games_seq ON {0}.{1} (seq)").format(
                    Identifier(self.datastore.schema), Identifier("ee_rm_games")))

        def _t(self, name: str) -> str:
            return f'"{self.datastore.schema}"."{name}"'

        def create_table(self) -> None:
            """The library's tables and ours, then the change triggers
            (:meth:`_watch`).  Another process creating the same tables at
            the same moment makes PostgreSQL refuse one ``CREATE ... IF NOT
            EXISTS`` ("duplicate key value violates unique constraint
            pg_type_typname_nsp_index"; the library's "Failed to record
            tracking for __migration__"): then it is tried again, and finds
            them made."""
            import time
            for attempt in range(6):
                try:
                    super().create_table()
                    break
                except Exception as e:  # the library wraps psycopg's errors
                    text = f"{e} {e.__cause__ or ''}"
                    if attempt == 5 or not any(w in text for w in ("already exists", "concurrently",
                                                                   "pg_type_typname_nsp_index",
                                                                   "tracking for __migration__",
                                                                   "deadlock detected")):
                        raise
                    time.sleep(0.05 * (attempt + 1))
            self._watch()

        def _watch(self) -> None:
            schema = self.datastore.schema
            with self._tx() as c:
                c.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"ee_rm_changed:{schema}",))
                c.execute(SQL("CREATE TABLE IF NOT EXISTS {0}.{1} (originator_id UUID PRIMARY KEY)").format(
                    Identifier(schema), Identifier(_CHANGED)))
                c.execute("SELECT c.relname AS tbl FROM pg_trigger t JOIN pg_class c ON t.tgrelid = c.oid "
                          "JOIN pg_namespace n ON c.relnamespace = n.oid "
                          "WHERE n.nspname = %s AND t.tgname = %s AND NOT t.tgisinternal",
                          (schema, f"{_CHANGED}_note"))
                watched = {r["tbl"] for r in c.fetchall()}
                todo = []
                for table in self.stored_tables:
                    c.execute("SELECT to_regclass(%s) AS r", (f'"{schema}"."{table}"',))
                    if c.fetchone()["r"] is not None and table not in watched:
                        todo.append(table)
                if not todo:
                    return
                c.execute(SQL("CREATE OR REPLACE FUNCTION {0}.{1}() RETURNS trigger LANGUAGE plpgsql AS $f$ "
                              "BEGIN INSERT INTO {0}.{2} (originator_id) VALUES (OLD.originator_id) "
                              "ON CONFLICT DO NOTHING; RETURN NULL; END $f$").format(
                    Identifier(schema), Identifier(f"{_CHANGED}_note"), Identifier(_CHANGED)))
                for table in todo:
                    c.execute(SQL("CREATE TRIGGER {0} AFTER UPDATE OR DELETE ON {1}.{2} FOR EACH ROW "
                                  "EXECUTE FUNCTION {1}.{0}()").format(
                        Identifier(f"{_CHANGED}_note"), Identifier(schema), Identifier(table)))

        def changed_streams(self) -> Optional[set]:
            """UUIDs of the streams with a stored row updated or deleted since the
            triggers exist."""
            return {uuid.UUID(str(r["originator_id"])) for r in self.select(f"SELECT originator_id FROM {self._t(_CHANGED)}")}

        def _tracking_table(self) -> str:
            return f'"{self.datastore.schema}"."{self.tracking_table_name}"'

        @contextmanager
        def _tx(self, commit: bool = True):
            with self.datastore.transaction(commit=commit) as c:
                yield c

        def stream(self, sql: str, params: Iterable = (), size: int = 2000):
            """:meth:`_ClubViewSQL.stream` through a server-side cursor: the
            client holds ``size`` rows at a time (a plain cursor would
            receive the whole result first)."""
            for name in _TABLES:
                sql = sql.replace(f"{{{name}}}", self._t(name))
            with self._tx(commit=False) as c:
                with c.connection.cursor(name=f"ee_rm_stream_{uuid.uuid4().hex}") as sc:
                    sc.itersize = size
                    sc.execute(self._q(sql), tuple(params))
                    for row in sc:
                        yield dict(row)

        def stream_tuples(self, sql: str, params: Iterable = (), size: int = 2000):
            """:meth:`_ClubViewSQL.stream_tuples` through a server-side cursor."""
            for name in _TABLES:
                sql = sql.replace(f"{{{name}}}", self._t(name))
            with self._tx(commit=False) as c:
                with c.connection.cursor(name=f"ee_rm_stream_{uuid.uuid4().hex}") as sc:
                    sc.execute(self._q(sql), tuple(params))
                    while True:
                        rows = sc.fetchmany(size)
                        if not rows:
                            break
                        yield [tuple(r.values()) if isinstance(r, dict) else tuple(r) for r in rows]
else:  # pragma: no cover
    PostgresClubView = None


# ------------------------------------------------------------------ the projection
class ClubProjection(Projection):
    """The club read models as a library ``Projection`` over the archive's
    game events (``topics``: the stored game event classes).

    ``process_event(event, tracking)`` (the library's interface, one event
    at a time) and :meth:`process_events` (a section at a time) keep the
    events of games not yet complete in memory and write the rows of each
    game whose last stored event they have seen, with the tracking record,
    in one transaction.  ``archive``: where the earlier events of a game
    come from after a restart in the middle of it."""

    name = "EuchreClubReadModels"

    def __init__(self, view, archive: Optional[Archive] = None):
        super().__init__(view)
        self.archive = archive
        self._pending: dict = {}     # game id -> [game events 1..k] of a game not complete yet
        self._length: dict = {}      # game id -> events the game was stored with (None: unchained)

    def process_event(self, domain_event, tracking: Tracking) -> None:  # noqa: D102 (the library's)
        self.process_events([(domain_event, None, tracking.notification_id)], tracking)

    def process_events(self, items: list, tracking: Tracking) -> int:
        """Process ``items`` (``[(domain_event or None, (game_id, error) or
        None, notification id or None)]``, in log order: None for a
        notification that could not be read, with its stream id and the
        reason) and record ``tracking`` (of the last one).  Returns the
        number of games written."""
        touched: dict = {}
        broken: dict = {}
        # games whose source a later copy added to (SourceAdded in their
        # annotation stream): their rows are made again from the stored game
        refresh: set = set()
        # a game's place in import order: the notification of its last event
        # seen here (for a complete game, its last event: the same whatever the
        # sections were, so a resumed read model equals one never stopped)
        last: dict = {}
        for de, bad, *nid in items:
            if _is_source_added(de):
                continue         # what a later copy added does not move the game
            gid = de.originator_id if de is not None else bad[0]
            last[gid] = (nid[0] if nid else None) or tracking.notification_id
        for de, bad, *_ in items:
            if _is_source_added(de):
                gid = uuid.UUID(str(de.game_id))
                self._pending.pop(gid, None)
                refresh.add(gid)
                touched.setdefault(gid, None)
                continue
            if de is None:
                gid, err = bad
                broken[gid] = err
                touched[gid] = None
                self._pending.pop(gid, None)
                continue
            gid, ver = de.originator_id, de.originator_version
            buf = self._pending.get(gid)
            if ver == 1:
                buf = self._pending[gid] = [de.event]
                self._length[gid] = getattr(de, "length", None)
            elif buf is not None and len(buf) == ver - 1:
                buf.append(de.event)
            else:
                self._pending.pop(gid, None)       # a gap (a restart): read the game from the store
            touched[gid] = max(ver, touched.get(gid) or 0)
        rows: dict = {}
        for gid, ver in touched.items():
            if gid in broken:
                rows[gid] = {"error": self._damage(gid, broken[gid])}
                continue
            events = self._pending.get(gid)
            from_store = events is None
            if events is None:
                try:
                    stored = list(self.archive.events.get(gid, lte=ver)) if self.archive else []
                    if [e.originator_version for e in stored] != list(range(1, len(stored) + 1)):
                        raise ValueError("its stored events are not numbered 1, 2, 3...: one is missing")
                    self._length[gid] = getattr(stored[0], "length", None) if stored else None
                    events = [e.event for e in stored]
                except Exception as e:  # a damaged row: the game is listed as damaged
                    rows[gid] = {"error": self._damage(gid, e)}
                    continue
            length = self._length.get(gid)
            if length is not None and len(events) < length:
                # the rest of the game comes later in the log (an import is one transaction:
                # its rows are all stored), unless the store has no more of them: the last
                # rows removed, which would leave the game out of every list without a word
                if self.archive is None or self.archive.recorder.select_events(gid, gt=len(events), limit=1):
                    self._pending[gid] = events
                    continue
                self._pending.pop(gid, None)
                rows[gid] = {"error": self._damage(gid, ValueError(f"its stored events stop at {len(events)} "
                                                                   f"of the {length} it was stored with"))}
                continue
            self._pending.pop(gid, None)
            try:
                if (from_store or gid in refresh) and self.archive is not None:
                    events = with_added_sources(events, self.archive.added_sources(gid))
                rows[gid] = game_rows(gid, events)
            except Exception as e:  # a stored game that no longer folds
                rows[gid] = {"error": self._damage(gid, e)}
                continue
            too_big = unholdable(rows[gid])
            if too_big:   # this game is listed as unreadable; the others are still built
                rows[gid] = {"error": f"game {gid}: the read models cannot hold its rows ({too_big})"}
        for gid, r in rows.items():
            r["seq"] = last.get(gid)      # a refreshed row keeps its seq (the upsert does)
        self.view.write_games(rows, tracking)
        return len(rows)

    def _damage(self, gid: uuid.UUID, cause) -> str:
        """What ``list`` says of a game that cannot be read (the archive's
        DamagedGame message, naming the first bad stored event)."""
        if self.archive is not None and isinstance(cause, Exception):
            return str(self.archive._damaged(gid, cause))
        return str(DamagedGame(gid, None, cause if isinstance(cause, Exception) else ValueError(cause)))


def _is_source_added(de) -> bool:
    return de is not None and type(de).__name__ == "SourceAdded" and hasattr(de, "game_id")


GAME_TOPICS: tuple = ()
"""Filled below: every stored game event topic (this release's and 0.1.0's)."""


def _game_topics() -> tuple:
    from eventsourcing.utils import get_topic
    from euchre_events.archive.aggregates import LEGACY_TOPICS, GameRecord, STORED_CLASS
    ours = [get_topic(GameRecord.GameStarted)] + [get_topic(c) for c in STORED_CLASS.values()]
    old = [t for t in LEGACY_TOPICS if ":GameRecord." in t]
    return tuple(dict.fromkeys(ours + old + list(GAME_START_TOPICS)))


GAME_TOPICS = _game_topics()
ClubProjection.topics = GAME_TOPICS


# ------------------------------------------------------------------ the service
class ReadModels:
    """The club read models of one archive: ``ReadModels(archive)`` opens
    (or creates) their tables beside the archive's events (same SQLite
    file, same PostgreSQL schema) and :meth:`catch_up` brings them up to
    date with the notification log.  Queries: :meth:`games`,
    :meth:`findings`, :meth:`deals`; :meth:`stale` and :meth:`rebuild`."""

    def __init__(self, archive: Archive):
        self.archive = archive
        ds = archive.recorder.datastore
        if type(archive.recorder).__module__.startswith("eventsourcing.postgres"):
            if PostgresClubView is None:  # pragma: no cover
                raise RuntimeError("PostgreSQL read models need eventsourcing[postgres]")
            self.view = PostgresClubView(ds, stored_tables=(
                getattr(archive.recorder, "events_table_name", ""),
                getattr(getattr(archive, "snapshots", None) and archive.snapshots.recorder, "events_table_name", "")))
        elif type(archive.recorder).__module__.startswith("eventsourcing.sqlite"):
            self.view = SQLiteClubView(ds, stored_tables=(
                getattr(archive.recorder, "events_table_name", "stored_events"),
                getattr(getattr(archive, "snapshots", None) and archive.snapshots.recorder,
                        "events_table_name", "stored_snapshots")))
        else:
            raise ValueError("read models need an SQLite or PostgreSQL archive")
        self.view.create_table()
        self.projection = ClubProjection(self.view, archive)
        if self.view.add_missing_columns():
            # tables of an older read-model version: their rows lack the new
            # columns, so they are built again from the events
            self.rebuild()

    def position(self) -> int:
        """The last notification id processed (0: none)."""
        return self.view.max_tracking_id(self.archive.name) or 0

    def catch_up(self, progress: Optional[Callable[[int], None]] = None,
                 section: Optional[int] = None, stop_after: Optional[int] = None) -> int:
        """Process every notification after :meth:`position`, a section at a
        time, each section's rows and tracking in one transaction; returns
        the number of notifications processed.  ``progress(n)`` is called
        after each section with the number it held; ``stop_after``: stop
        after that many sections (tests).  A second process catching up at
        the same time is no error: the section it lost is read again."""
        app = self.archive
        size = section or app.log_section_size
        done, sections = 0, 0
        while stop_after is None or sections < stop_after:
            start = self.position()
            items = app.notification_log.select(start=start, limit=size, inclusive_of_start=False)
            if not items:
                break
            batch = []
            for n in items:
                if n.topic in ANNOTATION_TOPICS and n.topic != SOURCE_ADDED_TOPIC:
                    continue
                try:
                    batch.append((app.mapper.to_domain_event(n), None, n.id))
                except Exception as e:  # a damaged stored event: its game is listed as damaged
                    batch.append((None, (uuid.UUID(str(n.originator_id)), e), n.id))
            try:
                self.projection.process_events(batch, Tracking(app.name, items[-1].id))
            except IntegrityError:
                # another process recorded this section first; what it wrote stands
                self.projection._pending.clear()
                continue
            done += len(items)
            sections += 1
            if progress:
                progress(len(items))
            if len(items) < size:
                break
        return done

    def behind(self) -> int:
        """How many notifications are not processed yet (an estimate: the
        log's last id minus :meth:`position`)."""
        return max(0, (self.archive.recorder.max_notification_id() or 0) - self.position())

    def newer(self) -> Optional[str]:
        """The newest rules version that built rows here when it is newer
        than this release's :data:`RULES_VERSION` (a newer release shares the
        archive), else None."""
        versions = {r["rules_version"] for r in self.view.select(
            "SELECT DISTINCT rules_version FROM {ee_rm_games} WHERE rules_version <> ?", (RULES_VERSION,))}
        versions.add(self.view.stored_rules_version())
        newer = [v for v in versions if v and is_newer(v, RULES_VERSION)]
        return max(newer, key=_version_key) if newer else None

    def stale(self) -> Optional[str]:
        """None when the rows were built by this rules version (or nothing is
        built yet), else what to say: rows of an older version: which
        version built them and to run ``euchre-events rebuild``; rows of a
        newer release (:meth:`newer`): to upgrade euchre-events, since a
        rebuild here would turn a shared archive's read models back into
        this older release's."""
        newer = self.newer()
        if newer is not None:
            return (f"the read models were built by a newer release (rules version {newer}; this is "
                    f"{RULES_VERSION}): upgrade euchre-events (pip install -U euchre-events) to use them; "
                    "do not rebuild them with this release, which would replace them with older rows "
                    "for everyone who shares the archive")
        stored = self.view.stored_rules_version()
        if stored is None or stored == RULES_VERSION:
            old = self.view.select("SELECT COUNT(*) AS n FROM {ee_rm_games} WHERE rules_version <> ?",
                                   (RULES_VERSION,))
            if not old or not old[0]["n"]:
                return None
            stored = "an older version"
        return (f"the read models were built by rules version {stored}, this is {RULES_VERSION}: "
                f"run euchre-events rebuild")

    def rebuild(self, progress: Optional[Callable[[int], None]] = None) -> int:
        """Forget every row and process the whole log again (after a rules
        fix); returns the number of notifications processed.  Killed in the
        middle, it goes on from where it stopped the next time."""
        self.view.reset(self.archive.name)
        self.projection._pending.clear()
        self.projection._length.clear()
        return self.catch_up(progress)

    # -------------------------------------------------------------- queries
    def changed_games(self) -> Optional[set]:
        """The game ids (strings) whose stored events or snapshots were updated
        or deleted since the read models' tables were made here (the archive
        never changes a stored row, so each is a game to verify again:
        docs/design.md "Tamper evidence"), or None when the backend does not
        note changes (PostgreSQL): then any game may have been changed.
        An annotation stream's change names its game."""
        changed = self.view.changed_streams()
        if changed is None:
            return None
        games = {str(g["game_id"]) for g in self.view.select("SELECT game_id FROM {ee_rm_games}")} \
            if changed else set()
        notes = {str(annotation_log_id(uuid.UUID(g))): g for g in games} if changed else {}
        return {str(c) if str(c) in games else notes.get(str(c), str(c)) for c in changed}

    def games(self, columns: Optional[Iterable[str]] = None) -> list:
        """Index rows, in import order, JSON columns decoded.  ``columns``:
        only these (and ``game_id``, ``error``), e.g. without ``score_after``
        (a list per deal): ``list`` and ``stats`` of 100,000 games read only
        what they show.  Raises ValueError for a column the index has not."""
        return list(self.iter_games(columns))

    def iter_games(self, columns: Optional[Iterable[str]] = None):
        """:meth:`games` one row at a time (read a section at a time)."""
        loads = json.loads
        if columns is None:
            for r in self.view.stream("SELECT * FROM {ee_rm_games} ORDER BY seq, game_id"):
                for k in _JSON_GAME_COLUMNS:
                    v = r.get(k)
                    if v is not None:
                        r[k] = loads(v)
                yield r
            return
        cols = list(dict.fromkeys(["game_id", "error", *columns]))
        unknown = [c for c in cols if c not in _COLUMNS["ee_rm_games"]]
        if unknown:
            raise ValueError(f"the game index has no column {unknown[0]!r}")
        small = [c for c in cols if c in _SMALL_JSON_COLUMNS]
        plain = [c for c in cols if c not in _JSON_GAME_COLUMNS] + small
        coded = [c for c in cols if c in _JSON_GAME_COLUMNS and c not in small]
        # the other JSON columns joined into one array by the query: one json.loads
        # a row, not one a column (list of 100,000 games: issue 26)
        joined = ("'[' || " + " || ',' || ".join(f"COALESCE({c}, 'null')" for c in coded) + " || ']'"
                  if coded else "'[]'")
        sql = f"SELECT {', '.join(plain)}, {joined} AS ee_json FROM {{ee_rm_games}} ORDER BY seq, game_id"
        seen: dict = {}     # the few texts of scores and winners, each decoded once
        k = len(plain) - len(small)
        for rows in self.view.stream_tuples(sql):
            for row in rows:
                r = dict(zip(plain, row))
                for c, text in zip(small, row[k:]):
                    if text is not None:
                        v = seen.get(text, seen)
                        if v is seen:
                            v = loads(text)
                            if len(seen) < 10000:
                                seen[text] = v
                        r[c] = v[:] if type(v) is list else v   # a copy: the caller may change it
                if coded:
                    r.update(zip(coded, loads(row[-1])))
                yield r

    def score_after(self, game_ids: Iterable[str]) -> dict:
        """``{game_id: score_after}`` (``[[deal, as played, official], ...]``)
        of the games ``game_ids`` (the score-progression chart draws a few)."""
        ids = [str(g) for g in game_ids]
        if not ids:
            return {}
        rows = self.view.select("SELECT game_id, score_after FROM {ee_rm_games} WHERE game_id IN ("
                                + ", ".join("?" * len(ids)) + ")", ids)
        return {str(r["game_id"]): json.loads(r["score_after"]) if r["score_after"] else None for r in rows}

    def findings(self) -> list:
        """Every finding of every game (the renege ledger), in import order."""
        return list(self.iter_findings())

    def iter_findings(self, variant: Optional[str] = None):
        """:meth:`findings` one row at a time (read a section at a time);
        ``variant``: only those of that variant's games (the club page counts
        one variant at a time)."""
        where, params = ("WHERE g.variant = ? ", (variant,)) if variant is not None else ("", ())
        return self.view.stream("SELECT f.* FROM {ee_rm_findings} f JOIN {ee_rm_games} g "
                                f"ON f.game_id = g.game_id {where}ORDER BY g.seq, f.n", params)

    def deals(self) -> list:
        """Every deal of every game, JSON columns decoded."""
        return list(self.iter_deals())

    def iter_deals(self, columns: Optional[Iterable[str]] = None, variant: Optional[str] = None):
        """:meth:`deals` one row at a time, read a section at a time: ``stats``
        counts them as they come (issue 26: every deal of 100,000 games held
        at once took gigabytes).  ``columns``: only these (and ``game_id``),
        their JSON decoded with one ``json.loads`` a row; ``variant``: only
        the deals of that variant's games.  Raises ValueError for a column the
        deals have not."""
        loads = json.loads
        where, params = ("WHERE g.variant = ? ", (variant,)) if variant is not None else ("", ())
        if columns is not None:
            cols = list(dict.fromkeys(["game_id", *columns]))
            unknown = [c for c in cols if c not in _COLUMNS["ee_rm_deals"]]
            if unknown:
                raise ValueError(f"the deals have no column {unknown[0]!r}")
            coded = [c for c in cols if c in ("tricks", "points", "sat_out")]
            plain = [c for c in cols if c not in coded]
            empty = {"sat_out": "'[]'"}     # no one sat out: stored empty (or by an older version, NULL)
            joined = ("'[' || " + " || ',' || ".join(f"COALESCE(NULLIF(d.{c}, ''), {empty.get(c, chr(39) + 'null' + chr(39))})"
                                                       for c in coded) + " || ']'") if coded else "'[]'"
            sql = (f"SELECT {', '.join('d.' + c for c in plain)}, {joined} AS ee_json FROM {{ee_rm_deals}} d "
                   f"JOIN {{ee_rm_games}} g ON d.game_id = g.game_id {where}ORDER BY g.seq, d.deal")
            for rows in self.view.stream_tuples(sql, params):
                for row in rows:
                    r = dict(zip(plain, row))
                    if coded:
                        r.update(zip(coded, loads(row[-1])))
                    yield r
            return
        for r in self.view.stream("SELECT d.* FROM {ee_rm_deals} d JOIN {ee_rm_games} g "
                                  f"ON d.game_id = g.game_id {where}ORDER BY g.seq, d.deal", params):
            r["tricks"] = loads(r["tricks"])
            r["points"] = loads(r["points"])
            r["sat_out"] = loads(r["sat_out"]) if r.get("sat_out") else []
            yield r


    # ------------------------------------------------------ analysis cache
    @staticmethod
    def _analysis_key(version: int, params: dict, n_events: int) -> str:
        return json.dumps({"analysis": version, "events": n_events, "params": params}, sort_keys=True)

    def cached_analysis(self, game_id: str, version: int, params: dict, n_events: int) -> Optional[dict]:
        """The cached analysis (the JSON of ``GameAnalysis.to_json``) of a stored
        game of ``n_events`` events for analysis ``version`` and ``params``,
        by this rules version; None when there is none."""
        rows = self.view.select("SELECT doc FROM {ee_rm_analysis} WHERE game_id = ? AND key = ? AND version = ?",
                                (str(game_id), self._analysis_key(version, params, n_events), RULES_VERSION))
        return json.loads(rows[0]["doc"]) if rows else None

    def cache_analysis(self, game_id: str, version: int, params: dict, n_events: int, doc: dict,
                       extra: Optional[Callable] = None) -> None:
        """Keep ``doc`` as the analysis of that game (one transaction; writing
        the same key again replaces it, so a rerun after a kill is harmless).
        ``extra(view, cursor)``: more rows derived from it, written in the same
        transaction (the decision explorer's, archive/explorer.py)."""
        v = self.view
        with v._tx() as c:
            if extra is not None:
                extra(v, c)
            c.execute(v._q(f"INSERT INTO {v._t('ee_rm_analysis')} (game_id, key, version, doc) VALUES (?, ?, ?, ?) "
                           f"ON CONFLICT (game_id, key) DO UPDATE SET version = excluded.version, doc = excluded.doc"),
                      (str(game_id), self._analysis_key(version, params, n_events), RULES_VERSION,
                       json.dumps(doc, ensure_ascii=False)))

    def analysed_games(self) -> int:
        """How many analyses the cache holds for this rules version."""
        rows = self.view.select("SELECT COUNT(*) AS n FROM {ee_rm_analysis} WHERE version = ?", (RULES_VERSION,))
        return rows[0]["n"] if rows else 0
