"""Verification (docs/design.md "Tamper evidence"): a stored game's hash
chain recomputed from its raw rows (:mod:`~euchre_events.archive.chain`), a
damaged row named by its version and what is wrong (:class:`VerifyResult`),
and the streams found even when their first row is damaged.
:class:`VerifyMixin` gives :class:`~euchre_events.archive.store.Archive`
``verify``, ``verify_all`` and ``stream_ids``."""
from __future__ import annotations

import dataclasses
import json
import uuid
from typing import Optional

from eventsourcing.application import Application

from euchre_events.archive import chain
from euchre_events.archive.aggregates import ANNOTATION_TOPICS, GAME_START_TOPICS, annotation_log_id
from euchre_events.archive.chain import AFTER_THE_RECORD
from euchre_events.archive.errors import ArchiveError, short_error
from euchre_events.projections import Game

__all__ = ["VerifyResult", "VerifyMixin"]


class VerifyMixin:
    """Verification for an :class:`~euchre_events.archive.store.Archive`
    (its ``recorder``, ``notification_log``, ``mapper`` and
    ``_snapshot_problem``)."""

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
            return VerifyResult(gid, "", "damaged", 0, None, f"cannot be read from the archive ({short_error(e)})")
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
                    if n.topic in ANNOTATION_TOPICS:
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
            return damaged(v, f"cannot be read (its stored JSON is broken: {short_error(e)})", title)
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
                return damaged(v, f"cannot be read ({short_error(e)})", title)
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
            return damaged(i + 1, f"cannot be read ({short_error(e)})", title)
    try:
        Game(events)
    except Exception as e:
        pos = getattr(e, "position", None)
        where = pos + 1 if isinstance(pos, int) else n
        return damaged(where, f"cannot have happened ({short_error(e)})", title)
    return VerifyResult(gid, title, "intact" if chained else "no chain", n)
