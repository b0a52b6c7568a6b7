"""Import and de-duplication (docs/design.md "Storage"): a record is stored
under the id its events give (:func:`~euchre_events.archive.gameid.game_id_of`),
once; a copy of a stored game (this release's id, or the id an earlier release
gave it: :func:`content_id`) adds only the annotations, lines and source it
lacked.  :class:`ImportMixin` gives :class:`~euchre_events.archive.store.Archive`
``import_record``, ``import_records`` and ``find_game``."""
from __future__ import annotations

import dataclasses
import hashlib
import operator
import uuid
from typing import Iterable, Optional

from eventsourcing.persistence import IntegrityError

from euchre_events.archive.aggregates import GAME_START_TOPICS, AnnotationLog, GameRecord, annotation_log_id
from euchre_events.archive.canonical import canonical_dumps, event_text
from euchre_events.archive.errors import ArchiveError
from euchre_events.archive.gameid import GAME_ID_VERSION, GAME_NAMESPACE, uuid8, game_id_of, start_text
from euchre_events.archive.sources import addition_words, merge_sources, source_additions
from euchre_events.events import Event
from euchre_events.formats import Record
from euchre_events.projections import Game
from euchre_events.rules.registry import complete_start

__all__ = ["NAMESPACE", "content_id", "ImportResult", "ImportMixin"]

NAMESPACE = uuid.UUID("6f1c2a52-8c1e-5b7e-9d0b-3e5f0c2a9e11")


def content_id(events: list, annotations: Iterable = (), variations: Iterable = ()) -> uuid.UUID:
    """The game id of the old scheme (releases up to 0.1.x): UUID5 of a
    game's content: its events (without the ``source`` of the GameStarted
    event, with every option written out, defaults included, but with its
    title), its annotations and variations.  Games stored so keep that id;
    it is computed here only to find them again (:meth:`Archive.import_record`).
    New games are stored under :func:`game_id_of`."""
    # the text json.dumps(sort_keys=True) gives of {"annotations", "events",
    # "variations"}, with each event written by canonical.event_text (the same
    # text, several times faster: the id of a one-deal game cost as much as its fold)
    evs = []
    for e in events:
        if e.kind == "GameStarted":
            evs.append(canonical_dumps(dict(complete_start(e).to_dict(), source={})))
        else:
            evs.append(event_text(e))
    var = [{"position": v.get("position"), "comment": v.get("comment", ""),
            "annotations": list(v.get("annotations", [])),
            "events": [x.to_dict() if isinstance(x, Event) else x for x in v.get("events", [])]}
           for v in variations]
    blob = ('{"annotations":' + canonical_dumps(list(annotations)) + ',"events":[' + ",".join(evs)
            + '],"variations":' + canonical_dumps(var) + "}")
    return uuid.uuid5(NAMESPACE, hashlib.sha256(blob.encode()).hexdigest())


# the game id (GAME_NAMESPACE, GAME_ID_VERSION, NOT_THE_GAME, start_text, game_id_of)
# lives in gameid.py, which needs no eventsourcing: an audit computes ids without it


def _game_id(start: str, texts: list) -> uuid.UUID:
    """:func:`~euchre_events.archive.gameid.game_id_of` from the texts
    already written (an import writes each event's text once, for the id and
    then for the hash chain): ``start``, the :func:`start_text` of the
    GameStarted, and ``texts``, the
    :func:`~euchre_events.archive.canonical.event_text` of each later event
    (tests/test_archive_mapper.py checks it gives game_id_of's id)."""
    return uuid8(GAME_NAMESPACE, '{"events":[' + ",".join([start] + texts) + "]}")


class ImportResult(tuple):
    """What :meth:`Archive.import_record` did: the tuple ``(game_id,
    created)`` (so ``gid, created = archive.import_record(rec)`` reads it),
    with ``notes_added`` and ``lines_added``: the annotations and
    alternative lines written (all of the record's for a new game; for a
    game already stored, those its annotation stream did not hold), and
    ``not_kept``: what a copy of a stored game says about the record that
    differs from the stored game's and is not kept (its title, description,
    date, player ids that differ: the stored game keeps its first copy's),
    in words, e.g. ``("the title 'VWEC Finals (annotated)'",)``, and
    ``source_added``: what the copy added to the stored game's source, in
    words (``("the player ids", "the match membership")``: a game imported
    from its ``.egn`` file, then from its match's ``.emn``)."""

    def __new__(cls, game_id: uuid.UUID, created: bool, notes_added: int = 0, lines_added: int = 0,
                not_kept: tuple = (), source_added: tuple = ()):
        self = super().__new__(cls, (game_id, created))
        self.notes_added, self.lines_added = notes_added, lines_added
        self.not_kept = tuple(not_kept)
        self.source_added = tuple(source_added)
        return self

    @property
    def game_id(self) -> uuid.UUID:
        return self[0]

    @property
    def created(self) -> bool:
        return self[1]

    def describe(self) -> str:
        """``""`` for a new game, else ``"already stored"`` or ``"already
        stored; added 12 annotations, 2 lines"`` (what the import line says)."""
        if self.created:
            return ""
        added = [f"{n} {word}{'' if n == 1 else 's'}" for n, word in
                 ((self.notes_added, "annotation"), (self.lines_added, "line")) if n]
        added += list(self.source_added)
        return "already stored" + ("; added " + ", ".join(added) if added else "")

    def __repr__(self) -> str:
        return (f"ImportResult({self.game_id!r}, {self.created!r}, notes_added={self.notes_added}, "
                f"lines_added={self.lines_added}, not_kept={self.not_kept!r}, "
                f"source_added={self.source_added!r})")


def _note_key(position, text, mark) -> tuple:
    """What makes two annotations the same: position, text and mark (not
    the author, not the id)."""
    return (int(position), str(text), mark or None)


def _line_key(position, events, annotations, comment) -> str:
    """What makes two alternative lines the same: the canonical JSON of
    their position, events, annotations and comment."""
    evs = [e.to_dict() if isinstance(e, Event) else e for e in events]
    return canonical_dumps({"position": int(position), "events": evs, "annotations": list(annotations),
                   "comment": str(comment or "")})


def _folded(record: Record) -> bool:
    """The reader already folded ``record``'s events (``record.game``, a
    :class:`~euchre_events.projections.Game` of exactly these event
    objects): the import need not fold them again."""
    game = getattr(record, "game", None)
    if game is None or len(game.events) != len(record.events):
        return False
    return all(map(operator.is_, game.events, record.events))


def _with_full_options(record: Record) -> Record:
    """The record with its GameStarted completed (every option of its variant,
    defaults included, and the initial score: :func:`complete_start`), so the
    stored game replays the same way even if a default changes later."""
    first = record.events[0]
    full = complete_start(first)
    if full is first:
        return record
    return dataclasses.replace(record, events=[full] + list(record.events[1:]))


class ImportMixin:
    """The import of records into an :class:`~euchre_events.archive.store.Archive`
    (its ``save``, ``events``, ``notification_log``, ``mapper``,
    ``annotation_log``, ``game_events`` and ``_has_stream``)."""

    def import_record(self, record: Record) -> "ImportResult":
        """Store one validated record; returns an :class:`ImportResult`, a
        tuple ``(game_id, created)`` (which also says what a copy added).

        The game is known by its events alone (:func:`game_id_of`).  When it
        is stored already (under that id, or under the id an earlier release
        gave it: :meth:`find_game`), nothing of the game stream is written
        and ``created`` is False; the record's annotations and alternative
        lines that the stored game's annotation stream does not hold yet are
        appended to it, in one transaction (an annotation is held when one
        with the same position, text and mark was ever added or edited to
        that; a line when one with the same position, events, annotations and
        comment was added), so importing one file twice adds nothing.  A new
        game stream and its annotation stream are saved in one transaction.
        The record is validated here (raises
        :class:`euchre_events.engine.ImpossibleEvent` if impossible), by one
        fold, unless the reader already folded these events
        (``record.game``: each event is folded once on the import's path).
        """
        if not _folded(record):
            Game(record.events)  # never store what cannot be folded
        record = _with_full_options(record)
        # each event's canonical text, written once: the game id, then the hash chain
        texts = [event_text(e) for e in record.events[1:]]
        gid = _game_id(start_text(record.events[0]), texts)
        # a copy stored by an earlier release (an index in memory, read once);
        # a game stored under gid is found by the save itself, which the
        # library refuses for a stream that exists (no query per game first)
        stored = self._find_old(record, gid)
        if stored is not None:
            return self._add_commentary(gid if self._has_stream(gid) else stored, record)
        agg = GameRecord.new_stream(record.events, gid, texts)
        notes = AnnotationLog._create(AnnotationLog.Created, id=annotation_log_id(gid), game_id=str(gid))
        for i, a in enumerate(record.annotations):
            notes.add(note_id=f"r{i}", position=int(a["position"]), text=str(a.get("text", "")),
                      mark=a.get("mark"), author=a.get("author", "record"))
        for i, v in enumerate(record.variations):
            notes.add_variation(variation_id=f"v{i}", position=int(v.get("position", 0)),
                                events=list(v.get("events", [])),
                                annotations=list(v.get("annotations", [])), comment=str(v.get("comment", "")))
        try:
            self.save(agg, notes)
        except IntegrityError:
            # another writer stored the same game in the meantime: same events, same id
            if self._has_stream(gid):
                return self._add_commentary(gid, record)
            raise
        return ImportResult(gid, True, len(record.annotations), len(record.variations))

    def find_game(self, record: Record, gid: Optional[uuid.UUID] = None) -> Optional[uuid.UUID]:
        """The stored id of the game ``record`` holds, or None when it is not
        stored.  ``gid``: its :func:`game_id_of` when already computed.

        In this order: a game stored under ``gid``; else, only when a game
        stored under an old-scheme id (UUID version 5) begins as this one does
        (the same GameStarted, title and source aside, and as many events),
        the old-scheme id of the record (:func:`content_id` with its
        commentary: the same file imported again); else such a game whose
        events give ``gid`` (a copy with other commentary of a game stored
        by an earlier release).  Games stored by this release are always
        under their :func:`game_id_of` (version 8): only older ones need the
        last two steps, whose index is read once per ``Archive``."""
        if gid is None:
            Game(record.events)
            record = _with_full_options(record)
            gid = game_id_of(record.events)
        if self._has_stream(gid):
            return gid
        return self._find_old(record, gid)

    def _find_old(self, record: Record, gid: uuid.UUID) -> Optional[uuid.UUID]:
        """The last two steps of :meth:`find_game`: the id of a copy of the
        game stored by an earlier release (old-scheme id), or None."""
        old_games = self._starts()
        if not old_games:
            return None
        try:
            key = start_text(record.events[0])
        except (ValueError, TypeError, KeyError):
            return None
        n = len(record.events)
        candidates = [sid for sid, length in old_games.get(key, ()) if length in (None, n)]
        if not candidates:
            return None
        old = content_id(record.events, record.annotations,
                         [dict(v, events=list(v.get("events", []))) for v in record.variations])
        if old in candidates:
            return old
        head = list(record.events[1:3])
        for sid in candidates:
            try:
                if [e.event for e in self.events.get(sid, gt=1, lte=3)] != head:
                    continue      # another game: not even its first deal starts the same
                if game_id_of(self.game_events(sid)) == gid:
                    return sid
            except Exception:     # a damaged stored game is not this one (verify names it)
                continue
        return None

    def _starts(self) -> dict:
        """``{start_text: [(stored id, length or None)]}`` of every game
        stored under an old-scheme id (not UUID version
        :data:`GAME_ID_VERSION`), in import order: read from the
        notification log (the stored GameStarted rows only; a row of a
        version-8 game is not even decoded) the first time, then kept.  Games
        stored later need not be added: they are stored under their
        :func:`game_id_of`, which :meth:`find_game` tries first."""
        idx = getattr(self, "_start_index", None)
        if idx is not None:
            return idx
        idx = {}
        start = None
        while True:
            items = self.notification_log.select(start=start, limit=self.log_section_size,
                                                 topics=list(GAME_START_TOPICS),
                                                 inclusive_of_start=start is None)
            for n in items:
                sid = uuid.UUID(str(n.originator_id))
                if sid.version == GAME_ID_VERSION:
                    continue
                try:
                    st = self.mapper.to_domain_event(n)
                    key = start_text(st.event)
                except Exception:  # a damaged first event: that game is not found by its events
                    continue
                idx.setdefault(key, []).append((sid, getattr(st, "length", None)))
            if len(items) < self.log_section_size:
                break
            start = items[-1].id
        self._start_index = idx
        return idx

    def _add_commentary(self, gid: uuid.UUID, record: Record, attempts: int = 3) -> "ImportResult":
        """Append to the annotation stream of the stored game ``gid`` the
        record's annotations and lines it does not hold yet (see
        :meth:`import_record`), in one ``save()``; returns the
        :class:`ImportResult` (``created`` False).  Another writer appending
        to that stream at the same moment makes the library refuse this save:
        it is tried again on the stream as it now is (``attempts`` times)."""
        for attempt in range(attempts):
            log = self.annotation_log(gid)
            held, note_ids = self._held_notes(log.id)
            lines = {_line_key(v["position"], v["events"], v["annotations"], v["comment"])
                     for v in log.variations.values()}
            added_notes = added_lines = 0
            k = 0
            for a in record.annotations:
                key = _note_key(a.get("position"), a.get("text", ""), a.get("mark"))
                if key in held:
                    continue
                held.add(key)
                while f"r{k}" in note_ids:
                    k += 1
                note_ids.add(f"r{k}")
                log.add(note_id=f"r{k}", position=int(a["position"]), text=str(a.get("text", "")),
                        mark=a.get("mark"), author=a.get("author", "record"))
                added_notes += 1
            k = 0
            for v in record.variations:
                key = _line_key(v.get("position", 0), v.get("events", []), v.get("annotations", []),
                                v.get("comment", ""))
                if key in lines:
                    continue
                lines.add(key)
                while f"v{k}" in log.variations:
                    k += 1
                log.add_variation(variation_id=f"v{k}", position=int(v.get("position", 0)),
                                  events=list(v.get("events", [])),
                                  annotations=list(v.get("annotations", [])), comment=str(v.get("comment", "")))
                added_lines += 1
            stored_source = self._first_source(gid)
            add = {} if stored_source is None else source_additions(
                merge_sources(stored_source, log.sources), record.events[0].source)
            if add:
                log.add_source(game_id=str(gid), source=add)
            if not (added_notes or added_lines or add):
                return ImportResult(gid, False, not_kept=self._not_kept(gid, record, log.sources))
            try:
                self.save(log)
            except IntegrityError:
                if attempt + 1 == attempts:
                    raise ArchiveError(f"game {gid}: its annotations were being changed by another "
                                       f"writer; import the record again") from None
                continue
            return ImportResult(gid, False, added_notes, added_lines,
                                self._not_kept(gid, record, log.sources), addition_words(add))
        raise AssertionError("unreachable")  # pragma: no cover

    def _first_source(self, gid: uuid.UUID) -> Optional[dict]:
        """The source of the stored game's GameStarted (its first copy's),
        None when it cannot be read (verify says why)."""
        try:
            src = next(iter(self.events.get(gid, lte=1))).event.source
        except Exception:
            return None
        return src if isinstance(src, dict) else {}

    def _not_kept(self, gid: uuid.UUID, record: Record, added: tuple = ()) -> list:
        """What ``record``'s GameStarted says of the record (title,
        description, date, player ids) that differs from the stored game
        ``gid``'s (its source merged with ``added``, what later copies
        added) and is not kept, in words (see :class:`ImportResult`);
        ``[]`` when the stored start cannot be read (verify says why)."""
        try:
            stored = next(iter(self.events.get(gid, lte=1))).event
        except Exception:
            return []
        mine = record.events[0]
        out = []
        if (mine.title or "") != (stored.title or "") and mine.title:
            out.append(f"the title {mine.title!r}")
        a = mine.source if isinstance(mine.source, dict) else {}
        b = merge_sources(stored.source if isinstance(stored.source, dict) else {}, added)
        for key, what in (("description", "the description"), ("date", "the date")):
            if a.get(key) and a.get(key) != b.get(key):
                out.append(f"{what} {str(a[key])[:60]!r}")

        def ids(src: dict) -> list:
            match = src.get("match") if isinstance(src.get("match"), dict) else {}
            return [p.get("playerIds") for p in list(src.get("players") or []) + list(match.get("players") or [])
                    if isinstance(p, dict) and p.get("playerIds")]
        if ids(a) and ids(a) != ids(b):
            out.append("the player ids")
        return out

    def _held_notes(self, log_id: uuid.UUID) -> tuple:
        """``(keys, note ids)`` of every annotation ever added to the
        annotation stream ``log_id``, edited texts included (a note a person
        edited or removed is not brought back by importing its record again):
        keys as :func:`_note_key` makes them."""
        keys, ids, where = set(), set(), {}
        if not self._has_stream(log_id):
            return keys, ids
        for e in self.events.get(log_id):
            name = type(e).__name__
            if name == "AnnotationAdded":
                ids.add(e.note_id)
                where[e.note_id] = e.position
                keys.add(_note_key(e.position, e.text, e.mark))
            elif name == "AnnotationEdited" and e.note_id in where:
                keys.add(_note_key(where[e.note_id], e.text, e.mark))
        return keys, ids

    def import_records(self, records: Iterable[Record]) -> list:
        """Import several records; ``[ImportResult]`` (each ``(game_id, created)``)."""
        return [self.import_record(r) for r in records]
