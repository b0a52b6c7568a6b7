"""The archive's aggregates: :class:`GameRecord` (one game's events) and
:class:`AnnotationLog` (its annotations and variations), docs/design.md "Storage"
and "Events".

A game is one stream: its stored events are exactly the game's events, one
for one, in order.  Each stored event class is declared below, one per kind
of :data:`euchre_events.events.EVENT_TYPES` and named after it, and holds the
game event itself in its ``event`` attribute; the library writes that
attribute through :mod:`euchre_events.archive.transcodings`.  The stored
topics therefore name the event classes::

    euchre_events.archive.aggregates:GameRecord.GameStarted
    euchre_events.archive.aggregates:GameRecord.CardPlayed   (...)

**Archives of release 0.1.0** kept every class in ``euchre_events.archive``
itself, called the first event ``GameRecord.Started`` and stored each game
event as a ``data`` dict (``Event.to_dict()``) instead of the event.  Those
topics are registered here (``eventsourcing.utils.register_topic``) for the
classes below, whose ``class_version = 2`` upcasts the old state
(``upcast_v1_v2``: ``data`` -> ``event``), so old and new games load the same
way, side by side in one archive.  Their ids never change (they were
made by :func:`euchre_events.archive.content_id` from the events, not from
their stored form; games stored now are under
:func:`euchre_events.archive.game_id_of`).

**Tamper evidence** (class_version 3): every stored game event also holds
``chain``, its link of the game's hash chain, and the first one ``length``,
the number of events stored (:mod:`euchre_events.archive.chain`;
``Archive.verify`` checks them).  Events of version 1 and 2 are upcast with
``chain`` (and ``length``) None: such a game verifies as "no chain".
"""
from typing import Optional, Sequence
import uuid

from eventsourcing.domain import Aggregate, event
from eventsourcing.utils import get_topic, register_topic

from euchre_events import events as ev
from euchre_events.archive import chain
from euchre_events.archive.canonical import event_text, kept_event_text
from euchre_events.events import EVENT_TYPES, Event, event_from_dict

__all__ = ["GameRecord", "NewStream", "AnnotationLog", "LEGACY_TOPICS", "GAME_START_TOPICS",
           "ANNOTATION_TOPICS", "SOURCE_ADDED_TOPIC", "annotation_log_id"]


def _upcast_data_to_event(state: dict) -> None:
    """Stored state of release 0.1.0 (``{"data": Event.to_dict(), ...}``) to
    the version 2 one (``{"event": Event, ...}``), in place."""
    state["event"] = event_from_dict(state.pop("data"))


def _upcast_no_chain(state: dict) -> None:
    """Version 2 state (no hash chain) to version 3, in place: ``chain`` None
    says the event was stored before tamper evidence existed."""
    state["chain"] = None


def _upcast_start_no_chain(state: dict) -> None:
    """As :func:`_upcast_no_chain`, for the first event (``length`` None too)."""
    state["chain"] = None
    state["length"] = None


class GameRecord(Aggregate):
    """One recorded game: ``events`` is the list of its events
    (:mod:`euchre_events.events` objects, :class:`~euchre_events.events.GameStarted`
    first); position k is event k.  Nothing derived is kept.

    Make one with :meth:`record`; ``append`` records one more event.
    """

    class GameStarted(Aggregate.Created):
        """The stream's first stored event; ``event`` is the game's GameStarted,
        ``length`` the number of events the game was stored with and
        ``chain`` its link of the hash chain (:mod:`~euchre_events.archive.chain`);
        both None for a game stored before tamper evidence (class_version 2)."""
        class_version = 3
        upcast_v1_v2 = staticmethod(_upcast_data_to_event)
        upcast_v2_v3 = staticmethod(_upcast_start_no_chain)
        event: ev.GameStarted
        length: Optional[int]
        chain: Optional[str]

    def __init__(self, event: ev.GameStarted, length: Optional[int] = None,
                 chain: Optional[str] = None):  # applied by GameStarted
        self.events = [event]
        self.length = length     # events stored by an import; 0 for a game recorded live
        self.chain_head = chain  # the last link, None for an unchained game

    class Recorded(Aggregate.Event):
        """Base of the stored form of every later game event: ``event`` is the
        game event, ``chain`` its link of the hash chain (None for an
        event stored before tamper evidence, class_version 2); applying it
        appends the event to ``events``."""
        class_version = 3
        upcast_v1_v2 = staticmethod(_upcast_data_to_event)
        upcast_v2_v3 = staticmethod(_upcast_no_chain)
        event: Event
        chain: Optional[str]

        def apply(self, aggregate: "GameRecord") -> None:
            aggregate.events.append(self.event)
            aggregate.chain_head = self.chain

    # One stored class per event kind, named after it (the stored topics name
    # the event classes).  A kind added to events.EVENT_TYPES needs its line
    # here: the table STORED_CLASS below fails at import without it.
    class DealStarted(Recorded):
        event: ev.DealStarted

    class CardsDealt(Recorded):
        event: ev.CardsDealt

    class Passed(Recorded):
        event: ev.Passed

    class OrderedUp(Recorded):
        event: ev.OrderedUp

    class TrumpNamed(Recorded):
        event: ev.TrumpNamed

    class UpCardPickedUp(Recorded):
        event: ev.UpCardPickedUp

    class UpCardDeclined(Recorded):
        event: ev.UpCardDeclined

    class Discarded(Recorded):
        event: ev.Discarded

    class WentAlone(Recorded):
        event: ev.WentAlone

    class PlayedWithPartner(Recorded):
        event: ev.PlayedWithPartner

    class DefendedAlone(Recorded):
        event: ev.DefendedAlone

    class BidMade(Recorded):
        event: ev.BidMade

    class HandSwappedWithGhost(Recorded):
        event: ev.HandSwappedWithGhost

    class DummyTaken(Recorded):
        event: ev.DummyTaken

    class CardPassed(Recorded):
        event: ev.CardPassed

    class DroppedOut(Recorded):
        event: ev.DroppedOut

    class StayedIn(Recorded):
        event: ev.StayedIn

    class DealThrownIn(Recorded):
        event: ev.DealThrownIn

    class CardPlayed(Recorded):
        event: ev.CardPlayed

    class JokerSuitNamed(Recorded):
        event: ev.JokerSuitNamed

    class PlayCorrected(Recorded):
        event: ev.PlayCorrected

    class RenegeClaimed(Recorded):
        event: ev.RenegeClaimed

    class RenegeRuled(Recorded):
        event: ev.RenegeRuled

    @classmethod
    def record(cls, events: Sequence[Event], game_id: uuid.UUID) -> "GameRecord":
        """A new aggregate ``game_id`` holding ``events`` (GameStarted first),
        one stored event each, not yet saved (``Application.save``).

        Every stored event carries its link of the hash chain
        (:mod:`~euchre_events.archive.chain`), the first one also the number
        of events, so that ``Archive.verify`` sees any later change.  The
        events are not checked against the rules here (the archive folds
        them first).  Raises ``ValueError`` when ``events`` is empty or does
        not start with GameStarted, ``KeyError`` for an event of a kind
        without a stored class.
        """
        if not events or not isinstance(events[0], ev.GameStarted):
            raise ValueError("a game record starts with a GameStarted event")
        first = chain.link(chain.genesis(game_id, len(events)), 1, events[0].to_dict())
        agg = cls._create(cls.GameStarted, id=game_id, event=events[0], length=len(events), chain=first)
        for e in events[1:]:
            agg.append(e)
        return agg

    @classmethod
    def new_stream(cls, events: Sequence[Event], game_id: uuid.UUID,
                   texts: Optional[Sequence[str]] = None) -> "NewStream":
        """The stored events :meth:`record` would make of ``events`` (the
        same classes, fields, chain links and order), built without an
        aggregate object replaying each one (an import does not need the
        aggregate, only its events: this costs less than half of
        ``record(...).collect_events()``).  ``texts``: the canonical text of
        each event after the GameStarted
        (:func:`~euchre_events.archive.canonical.event_text`), when the
        caller already wrote them (the game id needs them too).  Returns a
        :class:`NewStream` for ``Application.save``.  Raises as
        :meth:`record`."""
        if not events or not isinstance(events[0], ev.GameStarted):
            raise ValueError("a game record starts with a GameStarted event")
        if texts is None:
            texts = [event_text(e) for e in events[1:]]
        first = chain.link(chain.genesis(game_id, len(events)), 1, events[0].to_dict())
        out = list(cls._create(cls.GameStarted, id=game_id, event=events[0], length=len(events),
                               chain=first).collect_events())
        link, stamp, stored, append = first, cls.GameStarted.create_timestamp, STORED_CLASS, out.append
        for v, (e, text) in enumerate(zip(events[1:], texts), 2):
            if type(e) is ev.GameStarted:
                raise ValueError("a game has one GameStarted event, the first")
            link = chain.link_text(link, v, text)
            append(stored[type(e)](originator_id=game_id, originator_version=v, timestamp=stamp(),
                                   event=e, chain=link))
        return NewStream(game_id, out)

    @classmethod
    def start(cls, started: ev.GameStarted, game_id: uuid.UUID) -> "GameRecord":
        """A new aggregate ``game_id`` for a game recorded live, event by
        event (``Archive.start_game`` / ``Archive.record``): its first stored
        event holds ``started`` and ``length`` 0, which says "recorded live,
        no fixed length" and is itself part of the chain's genesis (so it
        cannot be changed unseen).  Later events are chained by
        :meth:`append`.  Not yet saved.  Raises ``ValueError`` when
        ``started`` is not a GameStarted."""
        if not isinstance(started, ev.GameStarted):
            raise ValueError("a game record starts with a GameStarted event")
        first = chain.link(chain.genesis(game_id, 0), 1, started.to_dict())
        return cls._create(cls.GameStarted, id=game_id, event=started, length=0, chain=first)

    def append(self, event: Event) -> None:
        """Record one more event (stored as the class named after its kind),
        chained to the one before (unchained when that one is).  A game
        imported whole is stored with the length :meth:`record` gave it: an
        event appended to it later is reported by ``Archive.verify`` as
        inserted; a game begun by :meth:`start` (length 0) grows freely.
        Raises ``KeyError`` for a kind without a stored class, ``ValueError``
        for a second GameStarted."""
        if type(event) is ev.GameStarted:
            raise ValueError("a game has one GameStarted event, the first")
        link = None
        if self.chain_head is not None:
            # event_text is canonical(event.to_dict()), the same text, faster
            link = chain.link_text(self.chain_head, self.version + 1, kept_event_text(event))
        self.trigger_event(STORED_CLASS[type(event)], event=event, chain=link)


class NewStream:
    """A new stream's events, not yet saved, without an aggregate object
    (:meth:`GameRecord.new_stream`): what ``Application.save`` takes of an
    aggregate, its ``id`` and ``collect_events()`` (the library's
    ``CollectEventsProtocol``)."""

    def __init__(self, stream_id: uuid.UUID, events: list):
        self.id = stream_id
        self._events = list(events)

    def collect_events(self) -> list:
        """The pending events, once (a second call gives ``[]``)."""
        out, self._events = self._events, []
        return out


STORED_CLASS: dict = {EVENT_TYPES[kind]: getattr(GameRecord, kind) for kind in EVENT_TYPES if kind != "GameStarted"}
"""Event class -> its stored class."""


def _as_event(d):
    """A variation's event: an Event as it is, a dict of the 0.1.0 form rebuilt
    (a dict that is no event, from an odd record, is kept as it is)."""
    if isinstance(d, Event):
        return d
    try:
        return event_from_dict(d)
    except (ValueError, TypeError, KeyError):
        return d


class AnnotationLog(Aggregate):
    """Annotations and variations of one game (its own stream, so commentary
    never alters the evidence).

    Notes point at an event position of the game stream; ``notes`` maps
    ``note_id -> {"position", "text", "mark", "author"}``; ``variations`` maps
    ``variation_id -> {"position", "events" ([Event]), "annotations",
    "comment"}``.
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
        """Append VariationAdded: an alternative line (events) branching before
        ``position``.  The events are stored as events; those of a 0.1.0
        archive, stored as dicts, are rebuilt here on every replay."""
        self.variations[variation_id] = {"position": position, "events": [_as_event(e) for e in events],
                                         "annotations": annotations, "comment": comment}

    sources: tuple = ()
    """What later copies of the game added to its source (``SourceAdded``),
    in order; a stream stored before this event existed has none."""

    @event("SourceAdded")
    def add_source(self, game_id: str, source: dict) -> None:
        """Append SourceAdded: what another copy of the game (imported after
        the first) says of the record that the stored source lacks, as
        :func:`~euchre_events.archive.sources.source_additions` gives it
        (``{"players": [...], "match": {...}}``): the platform ids of its
        players, the match it belongs to.  ``game_id``: the game's id (so a
        read model knows the game without the stream's)."""
        self.sources = tuple(self.sources) + (source,)


LEGACY_MODULE = "euchre_events.archive"
"""Where release 0.1.0 defined every archive class."""

LEGACY_GAME_KINDS = (
    "DealStarted", "CardsDealt", "Passed", "OrderedUp", "TrumpNamed", "UpCardPickedUp",
    "UpCardDeclined", "Discarded", "WentAlone", "PlayedWithPartner", "DefendedAlone", "BidMade",
    "HandSwappedWithGhost", "DummyTaken", "CardPassed", "DroppedOut", "StayedIn", "DealThrownIn",
    "CardPlayed", "JokerSuitNamed", "PlayCorrected")
"""The game event kinds release 0.1.0 stored as ``GameRecord.<kind>`` (every
kind after GameStarted it had); written out, not taken from EVENT_TYPES, so
that a later rename in events.py cannot lose an old topic."""

LEGACY_TOPICS: dict = {
    f"{LEGACY_MODULE}:GameRecord": GameRecord,
    f"{LEGACY_MODULE}:GameRecord.Started": GameRecord.GameStarted,
    **{f"{LEGACY_MODULE}:GameRecord.{k}": getattr(GameRecord, k) for k in LEGACY_GAME_KINDS},
    f"{LEGACY_MODULE}:AnnotationLog": AnnotationLog,
    **{f"{LEGACY_MODULE}:AnnotationLog.{n}": getattr(AnnotationLog, n)
       for n in ("Created", "AnnotationAdded", "AnnotationEdited", "AnnotationRemoved", "VariationAdded")},
}
"""Topic of release 0.1.0 -> the class that reads it now."""

for _topic, _cls in LEGACY_TOPICS.items():
    register_topic(_topic, _cls)

GAME_START_TOPICS = (get_topic(GameRecord.GameStarted), f"{LEGACY_MODULE}:GameRecord.Started")
"""Topics of the first stored event of a game stream, this release's and
0.1.0's (the archive lists its games by them)."""

ANNOTATION_TOPICS = frozenset(
    [get_topic(getattr(AnnotationLog, n)) for n in
     ("Created", "AnnotationAdded", "AnnotationEdited", "AnnotationRemoved", "VariationAdded",
      "SourceAdded")]
    + [t for t in LEGACY_TOPICS if ":AnnotationLog" in t])
"""Every stored topic of an annotation stream, this release's and 0.1.0's
(what is not a game stream when the whole log is scanned)."""

SOURCE_ADDED_TOPIC = get_topic(AnnotationLog.SourceAdded)
"""The stored topic of what a later copy of a game added to its source (read
models refresh that game's row when they see one)."""


def annotation_log_id(game_id: uuid.UUID) -> uuid.UUID:
    """Id of a game's annotation stream."""
    return uuid.uuid5(game_id, "annotations")
