"""The archive: games stored as event streams with the ``eventsourcing`` library.

* one aggregate (:class:`GameRecord`) per game: its stream holds exactly the
  game's events (design.md "Events"), one stored event per game event, each
  with its own topic (``euchre_events.archive:GameRecord.CardPlayed`` ...);
* one :class:`AnnotationLog` per game: annotations and variations, kept apart
  so that commentary never alters the evidence;
* the game id is a UUID derived from the content (``uuid5``), so importing the
  same game twice stores it once; a game and its annotation log are written in
  one ``save()``, one transaction: a game is stored whole or not at all.

Storage: an SQLite file by default (``db`` argument, else ``$EUCHRE_EVENTS_DB``,
else ``euchre-events.sqlite`` in the current folder).  For a shared club
archive set the library's own variables, e.g. ``PERSISTENCE_MODULE=eventsourcing.postgres``
with ``POSTGRES_DBNAME``, ``POSTGRES_HOST``, ``POSTGRES_USER``, ``POSTGRES_PASSWORD``.
Nothing derived (trick winners, scores, verdicts) is ever stored.
"""
from __future__ import annotations

import hashlib
import json
import os
import uuid
from typing import Iterable, Optional

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError

from euchre_events.events import EVENT_TYPES, Event, event_from_dict
from euchre_events.formats import Record
from euchre_events.projections import Game
from euchre_events.rules.registry import complete_start

NAMESPACE = uuid.UUID("6f1c2a52-8c1e-5b7e-9d0b-3e5f0c2a9e11")
DEFAULT_DB = "euchre-events.sqlite"


class ArchiveError(ValueError):
    """A request the archive cannot satisfy (unknown or ambiguous game id, ...)."""


class GameRecord(Aggregate):
    """One recorded game: ``record`` is the list of its events as dicts
    (``Event.to_dict()`` form), in order; position k is event k."""

    class Started(Aggregate.Created):
        """The stream's first stored event; carries the GameStarted event."""
        data: dict

    def __init__(self, data: dict):  # applied by Started
        self.record = [data]

    class GameEvent(Aggregate.Event):
        """Base of every later event; ``data`` is ``Event.to_dict()``."""
        data: dict

        def apply(self, aggregate: "GameRecord") -> None:
            aggregate.record.append(self.data)

    def append(self, ev: Event) -> None:
        """Record one more event (its own stored event class by kind)."""
        self.trigger_event(_EVENT_CLASSES[ev.kind], data=ev.to_dict())

    def events(self) -> list:
        """The game's events as :mod:`euchre_events.events` objects."""
        return [event_from_dict(d) for d in self.record]


_EVENT_CLASSES: dict = {}
for _kind in EVENT_TYPES:
    if _kind == "GameStarted":
        continue
    _cls = type(_kind, (GameRecord.GameEvent,), {
        "__qualname__": f"GameRecord.{_kind}", "__module__": __name__,
        "__doc__": f"Stored form of :class:`euchre_events.events.{_kind}`."})
    setattr(GameRecord, _kind, _cls)
    _EVENT_CLASSES[_kind] = _cls


class AnnotationLog(Aggregate):
    """Annotations and variations of one game (its own stream).

    Notes point at an event position of the game stream; ``notes`` maps
    ``note_id -> {"position", "text", "mark", "author"}``; ``variations`` maps
    ``variation_id -> {"position", "events" (dicts), "annotations", "comment"}``.
    """

    @event("Created")
    def __init__(self, game_id: str):
        self.game_id = game_id
        self.notes: dict = {}
        self.variations: dict = {}

    @event("AnnotationAdded")
    def add(self, note_id: str, position: int, text: str, mark: Optional[str] = None,
            author: Optional[str] = None) -> None:
        """Append AnnotationAdded: a note at event ``position`` with an optional mark (``!``, ``?``, ``!?``...)."""
        self.notes[note_id] = {"position": position, "text": text, "mark": mark, "author": author}

    @event("AnnotationEdited")
    def edit(self, note_id: str, text: str, mark: Optional[str] = None) -> None:
        """Append AnnotationEdited: new text and mark for a note."""
        self.notes[note_id] = dict(self.notes[note_id], text=text, mark=mark)

    @event("AnnotationRemoved")
    def remove(self, note_id: str) -> None:
        """Append AnnotationRemoved."""
        self.notes.pop(note_id, None)

    @event("VariationAdded")
    def add_variation(self, variation_id: str, position: int, events: list,
                      annotations: list, comment: str = "") -> None:
        """Append VariationAdded: an alternative line (event dicts) branching before ``position``."""
        self.variations[variation_id] = {"position": position, "events": events,
                                         "annotations": annotations, "comment": comment}


def content_id(events: list, annotations: Iterable = (), variations: Iterable = ()) -> uuid.UUID:
    """UUID5 of a game's content: its events (without the ``source`` of the
    GameStarted event, so the same game read from another file, folder or
    format has the same id, and with every option written out, defaults
    included), its annotations and variations."""
    evs = []
    for e in events:
        if e.kind == "GameStarted":
            d = dict(complete_start(e).to_dict(), source={})
        else:
            d = e.to_dict()
        evs.append(d)
    var = [{"position": v.get("position"), "comment": v.get("comment", ""),
            "annotations": list(v.get("annotations", [])),
            "events": [x.to_dict() if isinstance(x, Event) else x for x in v.get("events", [])]}
           for v in variations]
    blob = json.dumps({"events": evs, "annotations": list(annotations), "variations": var},
                      sort_keys=True, separators=(",", ":"), default=str)
    return uuid.uuid5(NAMESPACE, hashlib.sha256(blob.encode()).hexdigest())


def annotation_log_id(game_id: uuid.UUID) -> uuid.UUID:
    """Id of a game's annotation stream."""
    return uuid.uuid5(game_id, "annotations")


def _with_full_options(record: Record) -> Record:
    """The record with its GameStarted completed (every option of its variant,
    defaults included, and the initial score: :func:`complete_start`), so the
    stored game replays the same way even if a default changes later."""
    import dataclasses
    first = record.events[0]
    full = complete_start(first)
    if full is first:
        return record
    return dataclasses.replace(record, events=[full] + list(record.events[1:]))


class Archive(Application):
    """The game archive (an ``eventsourcing`` Application).

    ``Archive(db)`` opens (or creates) the SQLite file ``db``; with
    ``PERSISTENCE_MODULE`` set in the environment the library's own settings
    are used instead (PostgreSQL for a shared archive).
    """

    name = "EuchreEvents"
    log_section_size = 1000

    def __init__(self, db: Optional[str] = None, env: Optional[dict] = None):
        cfg = dict(env or {})
        if "PERSISTENCE_MODULE" not in cfg and not os.environ.get("PERSISTENCE_MODULE") \
                and not os.environ.get("EUCHREEVENTS_PERSISTENCE_MODULE"):
            path = db or os.environ.get("EUCHRE_EVENTS_DB") or DEFAULT_DB
            cfg["PERSISTENCE_MODULE"] = "eventsourcing.sqlite"
            cfg["SQLITE_DBNAME"] = path
            cfg.setdefault("SQLITE_LOCK_TIMEOUT", "10")
        self.db = cfg.get("SQLITE_DBNAME") or os.environ.get("POSTGRES_DBNAME") or ""
        super().__init__(env=cfg)

    # ------------------------------------------------------------ writing
    def import_record(self, record: Record) -> tuple:
        """Store one validated record; returns ``(game_id, created)``.

        ``created`` is False when the same game was already stored (nothing is
        written).  The game stream and its annotation stream are saved in one
        transaction.  The record is validated again here (raises
        :class:`euchre_events.engine.ImpossibleEvent` if impossible).
        """
        Game(record.events)  # never store what cannot be folded
        record = _with_full_options(record)
        gid = content_id(record.events, record.annotations,
                         [dict(v, events=list(v.get("events", []))) for v in record.variations])
        if gid in self.repository:
            return gid, False
        first = record.events[0]
        agg = GameRecord._create(GameRecord.Started, id=gid, data=first.to_dict())
        for ev in record.events[1:]:
            agg.append(ev)
        notes = AnnotationLog._create(AnnotationLog.Created, id=annotation_log_id(gid), game_id=str(gid))
        for i, a in enumerate(record.annotations):
            notes.add(note_id=f"r{i}", position=int(a["position"]), text=str(a.get("text", "")),
                      mark=a.get("mark"), author=a.get("author", "record"))
        for i, v in enumerate(record.variations):
            evs = [x.to_dict() if isinstance(x, Event) else x for x in v.get("events", [])]
            notes.add_variation(variation_id=f"v{i}", position=int(v.get("position", 0)), events=evs,
                                annotations=list(v.get("annotations", [])), comment=str(v.get("comment", "")))
        try:
            self.save(agg, notes)
        except IntegrityError:
            # another writer stored the same game in the meantime: same content, same id
            if gid in self.repository:
                return gid, False
            raise
        return gid, True

    def import_records(self, records: Iterable[Record]) -> list:
        """Import several records; ``[(game_id, created), ...]``."""
        return [self.import_record(r) for r in records]

    # ------------------------------------------------------------ reading
    def resolve(self, game: str) -> uuid.UUID:
        """A stored game's UUID from its id or a unique prefix of it (as
        printed by ``euchre-events list``).  Raises :class:`ArchiveError`."""
        try:
            gid = uuid.UUID(game)
            if gid in self.repository:
                return gid
            raise ArchiveError(f"no stored game with id {game}")
        except ValueError:
            pass
        matches = [g for g in self.game_ids() if str(g).startswith(game.lower())]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise ArchiveError(f"no stored game with id {game!r}")
        raise ArchiveError(f"{game!r} matches {len(matches)} games; give more of the id")

    def game_events(self, game_id) -> list:
        """The events of a stored game, in order."""
        agg: GameRecord = self.repository.get(self._uuid(game_id))
        return agg.events()

    def load(self, game_id) -> Game:
        """The stored game as a :class:`~euchre_events.projections.Game`
        (validated by one fold, then checkpoints per deal built so that any
        jump is fast from the start)."""
        gid = self._uuid(game_id)
        return Game(self.game_events(gid), game_id=str(gid)).prepare_jumps()

    def game_ids(self) -> list:
        """UUIDs of every stored game, in import order."""
        topic = f"{__name__}:GameRecord.Started"
        out, start = [], None
        while True:
            items = self.notification_log.select(start=start, limit=self.log_section_size,
                                                 topics=[topic], inclusive_of_start=start is None)
            if not items:
                break
            out.extend(n.originator_id for n in items)
            start = items[-1].id
            if len(items) < self.log_section_size:
                break
        return [uuid.UUID(str(g)) for g in out]

    def annotation_log(self, game_id) -> AnnotationLog:
        """The annotation stream of a game (created empty if it is missing)."""
        gid = self._uuid(game_id)
        aid = annotation_log_id(gid)
        if aid in self.repository:
            return self.repository.get(aid)
        return AnnotationLog._create(AnnotationLog.Created, id=aid, game_id=str(gid))

    def annotations(self, game_id) -> list:
        """Current annotations ``[{"id", "position", "text", "mark", "author"}]``
        sorted by position."""
        log = self.annotation_log(game_id)
        return sorted(({"id": k, **v} for k, v in log.notes.items()), key=lambda a: (a["position"], a["id"]))

    def variations(self, game_id) -> list:
        """Variations ``[{"id", "position", "events": [Event], "annotations", "comment"}]``."""
        log = self.annotation_log(game_id)
        out = []
        for k, v in log.variations.items():
            evs = []
            for d in v["events"]:
                try:
                    evs.append(event_from_dict(d))
                except (ValueError, TypeError):
                    evs.append(d)
            out.append({"id": k, **v, "events": evs})
        return sorted(out, key=lambda v: v["position"])

    def add_annotation(self, game_id, position: int, text: str, mark: Optional[str] = None,
                       author: Optional[str] = None) -> str:
        """Append an annotation at event ``position``; returns its id."""
        log = self.annotation_log(game_id)
        n = len(self.repository.get(self._uuid(game_id)).record)
        if not 0 <= position <= n:
            raise ArchiveError(f"position {position} is outside the game (0..{n})")
        note_id = uuid.uuid4().hex[:12]
        log.add(note_id=note_id, position=int(position), text=text, mark=mark, author=author)
        self.save(log)
        return note_id

    def add_variation(self, game_id, position: int, events: list, comment: str = "",
                      annotations: Iterable = ()) -> str:
        """Store an alternative line branching before event ``position``
        (appends VariationAdded to the game's annotation stream; the game's own
        stream is untouched).  The line is checked by folding the game's first
        ``position`` events followed by ``events``; returns the variation id.
        Raises :class:`ArchiveError` or ``ImpossibleEvent``."""
        main = self.game_events(game_id)
        if not 0 <= position <= len(main):
            raise ArchiveError(f"position {position} is outside the game (0..{len(main)})")
        evs = [e if isinstance(e, Event) else event_from_dict(e) for e in events]
        Game(main[:position] + evs)
        log = self.annotation_log(game_id)
        vid = "u" + uuid.uuid4().hex[:12]
        log.add_variation(variation_id=vid, position=int(position), events=[e.to_dict() for e in evs],
                          annotations=list(annotations), comment=comment)
        self.save(log)
        return vid

    def edit_annotation(self, game_id, note_id: str, text: str, mark: Optional[str] = None) -> None:
        """Change an annotation's text and mark (appends AnnotationEdited)."""
        log = self.annotation_log(game_id)
        if note_id not in log.notes:
            raise ArchiveError(f"no annotation {note_id!r} on this game")
        log.edit(note_id=note_id, text=text, mark=mark)
        self.save(log)

    def remove_annotation(self, game_id, note_id: str) -> None:
        """Remove an annotation (appends AnnotationRemoved)."""
        log = self.annotation_log(game_id)
        if note_id not in log.notes:
            raise ArchiveError(f"no annotation {note_id!r} on this game")
        log.remove(note_id=note_id)
        self.save(log)

    def _uuid(self, game_id) -> uuid.UUID:
        if isinstance(game_id, uuid.UUID):
            return game_id
        return self.resolve(str(game_id))
