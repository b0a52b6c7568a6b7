"""The snapshot cache (docs/design.md "Snapshots"): a long game's events as
one stored library snapshot, so that a load reads one row instead of one per
event; on PostgreSQL the snapshot and the rows after it in one query.  Only a
cache of the stored events, never anything derived: a snapshot that does not
fit the stored chain is ignored, and ``verify`` names one that differs.
:class:`SnapshotMixin` gives :class:`~euchre_events.archive.store.Archive`
these methods."""
from __future__ import annotations

import uuid
from typing import Optional

from eventsourcing.domain import Snapshot
from eventsourcing.utils import get_topic

from euchre_events.archive.aggregates import GameRecord
from euchre_events.archive.errors import short_error
from euchre_events.events import Event

__all__ = ["SnapshotMixin"]


class SnapshotMixin:
    """Snapshots for an :class:`~euchre_events.archive.store.Archive` (its
    ``snapshots``, ``recorder``, ``events`` and ``mapper``)."""

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
            return 1, f"has a snapshot that cannot be read ({short_error(e)})"
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
