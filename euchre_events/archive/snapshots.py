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

from euchre_events.archive import chain
from euchre_events.archive.aggregates import GameRecord
from euchre_events.archive.canonical import event_text
from euchre_events.archive.errors import short_error
from euchre_events.events import Event

__all__ = ["SnapshotMixin", "ROWS_CHANGED", "rows_digest"]

ROWS_CHANGED = "rows changed"
"""What :meth:`SnapshotMixin._events_from_snapshot` says when the stored rows
a snapshot covers are not the bytes it was taken from."""


def rows_digest(rows) -> str:
    """A digest (BLAKE2b, hex) of stored rows as stored: each row's version,
    topic and state bytes, in order.  A snapshot keeps the digest of the rows
    it copies, so that a load from it sees a row changed since (docs/design.md
    "Tamper evidence", "Snapshots")."""
    import hashlib     # not at import: off the start-up path of every command
    h = hashlib.blake2b(digest_size=20)
    for r in rows:
        state = r.state if isinstance(r.state, (bytes, bytearray)) else str(r.state).encode()
        h.update(f"{r.originator_version}\x00{r.topic}\x00{len(state)}\x00".encode())
        h.update(state)
    return h.hexdigest()



def links_hold(link: Optional[str], version: int, stored: list) -> bool:
    """Whether the hash chain holds along ``stored`` (the library's domain
    events of one game, at stream versions ``version``, ``version + 1``, ...),
    chained to ``link`` (the link of the event before, or the genesis);
    True where the game has no chain (``link`` None).  About 4 us an event
    (the canonical text and a SHA-256; docs/design.md "Tamper evidence")."""
    if link is None:
        return True
    for v, d in enumerate(stored, version):
        link = chain.link_text(link, v, event_text(d.event))
        if link != getattr(d, "chain", None):
            return False
    return True

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
            rows = list(self.recorder.select_events(gid, lte=len(events)))
            snap = Snapshot(originator_id=gid, originator_version=len(events),
                            timestamp=Snapshot.create_timestamp(), topic=get_topic(GameRecord),
                            state={"_created_on": first.timestamp, "_modified_on": tail[-1].timestamp,
                                   "events": list(events), "length": getattr(first, "length", None),
                                   "chain_head": getattr(tail[-1], "chain", None),
                                   "rows_digest": rows_digest(rows)})
            self.snapshots.put([snap])
            return True
        except Exception:  # noqa: BLE001 - a cache: a read-only archive simply has none
            return False

    def _events_from_snapshot(self, gid: uuid.UUID):
        """The game's events from its latest snapshot and the stored events
        after it; None when there is no snapshot to use (none, one written
        before its rows' digest was kept, one that does not fit: a version
        missing, its chain head not the stored chain at its version): then
        the caller reads every row, which names any damage; or
        :data:`ROWS_CHANGED` when the stored rows the snapshot covers are no
        longer the bytes it was taken from (a row updated since: the caller
        verifies the game, docs/design.md "Tamper evidence").  Every row is
        read raw (cheap: no decoding), the rows after the snapshot decoded."""
        if self.snapshots is None:
            return None
        try:
            both = self._snapshot_and_rows(gid)
            if both is not None:
                snap, rows = both
                if snap is None:
                    return None
            else:
                snaps = list(self.snapshots.get(gid, desc=True, limit=1))
                if not snaps:
                    return None
                snap, rows = snaps[0], None
            v, st = snap.originator_version, snap.state
            events = list(st.get("events") or [])
            head, digest = st.get("chain_head"), st.get("rows_digest")
            if len(events) != v or head is None or digest is None or not all(isinstance(e, Event) for e in events):
                return None
            if rows is None:
                rows = list(self.recorder.select_events(gid))
            length = st.get("length")
            if [r.originator_version for r in rows] != list(range(1, len(rows) + 1)) or len(rows) < v \
                    or (isinstance(length, int) and len(rows) < length):   # the last events removed
                return ROWS_CHANGED
            # the rows the snapshot stands for, as stored: one changed byte and the
            # snapshot no longer speaks for them (a load would show the old events)
            if rows_digest(rows[:v]) != digest:
                return ROWS_CHANGED
            rest = [self.mapper.to_domain_event(r) for r in rows[v - 1:]]   # the event at its version too
            if getattr(rest[0], "chain", None) != head:
                return None
            if not links_hold(head, v + 1, rest[1:]):
                return ROWS_CHANGED     # a row recorded after the snapshot was changed
            return events + [d.event for d in rest[1:]]
        except Exception:  # noqa: BLE001 - a cache: read the rows instead
            return None

    def _snapshot_and_rows(self, gid: uuid.UUID) -> Optional[tuple]:
        """On PostgreSQL, ``(snapshot, rows)``: the game's latest snapshot
        (None when it has none) and every stored row of the game, raw
        (``StoredEvent``, not decoded: the snapshot's rows are only compared
        with its digest), both read by one query (a load from a snapshot is then
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
                    "WHERE e.originator_id = %s "
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
        return self.mapper.to_domain_event(stored[0]), stored[1:]

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
