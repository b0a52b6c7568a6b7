"""One record builder for every reader, in the manner of ``chess.pgn``'s
visitors: a reader walks its file and tells a :class:`RecordBuilder` what it
finds (the game's start, each event, a comment, the start and end of an
alternative line, a warning, the file's stated final score); the builder
does, once for every format, what a record needs:

* the :class:`~euchre_events.events.GameStarted` always states its initial
  score (:func:`~euchre_events.formats.with_initial_score`, that is
  :func:`euchre_events.rules.registry.complete_start`: the variant's own
  when the file says nothing).  The options stay as the file gives them: the
  archive writes them all out when it stores the game, and the content id
  hashes that complete form, so a record and its stored game have one id;
* folding with the engine to validate the game and every alternative line
  (docs/design.md "Three kinds of wrong": an impossible record is refused, a
  renege is kept for the audit); a reader that needs the table while it reads
  (whose turn it is, who won the trick) asks :attr:`RecordBuilder.table`;
* positions: an annotation is about an event of its line; a variation
  replaces event ``position`` of its parent line and what follows, and the
  positions inside it count along the line as if it had been played
  (``parent[:position] + its events``), as :class:`~euchre_events.formats.Record`
  says;
* the warnings every reader gives the same way: a record that stops in the
  middle of a deal (:func:`~euchre_events.formats.incomplete_warning`), a
  stated final score that the play does not reach;
* errors (:meth:`RecordBuilder.error`): a
  :class:`~euchre_events.formats.RecordError` naming the file, the line and
  column when the reader gave them, the deal, the event and the reason.

Pure: no I/O.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

from euchre_events.events import Event, GameStarted
from euchre_events.formats import Record, RecordError, incomplete_warning, with_initial_score
from euchre_events.rules.engine import ImpossibleEvent, Table, apply, fold, new_table
from euchre_events.rules.seats import name_seats

__all__ = ["RecordBuilder", "fold_game"]

_FOLD_ERRORS = (ImpossibleEvent, ValueError)
"""What the engine raises for a record that cannot be folded (ValueError: an
unknown variant or option, from the registry)."""


class _Line:
    """The main line of a game or one alternative line, as it is built.

    ``base``: the position (in the parent's stream) of the event the line
    replaces, 0 for the main line; ``events[k]`` stands at position
    ``base + k`` of the line's own stream; ``places[k]``: ``(line, column,
    name)`` of that event in the file (each may be None).
    """

    def __init__(self, parent: Optional["_Line"], base: int, name: str = "", comment: str = ""):
        self.parent, self.base, self.name = parent, base, name
        self.events: list = []
        self.places: list = []
        self.annotations: list = []
        self.variations: list = []     # finished child lines, as Record dicts
        self.children: list = []       # the same, as _Line objects (for validation)
        self.comment_parts: list = [comment] if comment else []
        self.table: Optional[Table] = None   # live working table, made on demand
        self.folded = False            # every event went through ``table``
        # the main line's table before each deal (position of its DealStarted -> a copy),
        # kept as the live table folds: an alternative line folds from its deal's start
        self.deal_starts: dict = {}

    def end(self) -> int:
        """One past the last position of the line's stream."""
        return self.base + len(self.events)

    def stream(self, stop: int) -> list:
        """The line's own stream up to position ``stop`` (exclusive)."""
        if self.parent is None:
            return self.events[:stop]
        return self.parent.stream(self.base) + self.events[:stop - self.base]

    def as_dict(self) -> dict:
        d = {"position": self.base, "events": self.events, "annotations": self.annotations,
             "comment": "\n".join(self.comment_parts)}
        if self.variations:
            d["variations"] = self.variations
        return d


class _Mark:
    """A point of the main line to come back to (:meth:`RecordBuilder.rollback`)."""

    def __init__(self, line: _Line, n_warnings: int):
        self.n = (len(line.events), len(line.annotations), len(line.variations), n_warnings)
        self.table = line.table.copy() if line.table is not None else None


class RecordBuilder:
    """Builds one :class:`~euchre_events.formats.Record` from what a reader finds.

    ``path``: the file, named in every error; ``fmt``: the format name that
    goes into ``source`` (``"egn"``, ``"text"``, ...); ``label``: a prefix for
    reasons and for the builder's own warnings (``"game 2: "`` in a match or
    a file of several games); ``validate=False``: do not fold the record at
    the end (a reader that reads :attr:`table` folds what it adds anyway);
    ``source``: the record's ``source`` dict (default ``{"file": path,
    "format": fmt}``).

    Use: :meth:`start_game` (or :meth:`add` of a GameStarted), then
    :meth:`add` per event, :meth:`annotate`, :meth:`begin_variation` /
    :meth:`end_variation`, :meth:`warn`, :meth:`state_final_score`, and
    :meth:`finish` for the record.  Every method that meets an impossible
    event raises :class:`~euchre_events.formats.RecordError` (file, line and
    column if known, deal, event, reason).
    """

    def __init__(self, path: str, fmt: str = "", *, label: str = "", validate: bool = True,
                 source: Optional[dict] = None):
        self.path, self.fmt, self.label, self.validate_at_end = path, fmt, label, validate
        self.source = dict(source) if source is not None else {"file": path, "format": fmt}
        self.main = _Line(None, 0)
        self.line = self.main                 # the line being built
        self.warnings: list = []
        self.stated: Optional[list] = None
        self.stated_words: Optional[str] = None
        self.deal_names: dict = {}            # deal number -> how the file names it
        self._game: Any = None

    # ------------------------------------------------------------ errors
    def name_deal(self, deal: int, name: str) -> None:
        """Say how the file names deal ``deal`` (from 1); errors about it add
        ``" (name)"`` to their reason (EGN: ``"EGN dealNumber 0"``)."""
        self.deal_names[deal] = name

    def error(self, reason: str, deal: Optional[int] = None, position: Optional[int] = None,
              event: Any = None, line: Optional[int] = None,
              column: Optional[int] = None) -> RecordError:
        """A :class:`RecordError` for this record: ``label + reason`` (plus how
        the file names the deal), ``deal`` (from 1), the event (``"17
        (CardPlayed)"`` from ``position`` and an :class:`Event`, or ``event``
        as given when there is no ``position``), the file's ``line`` and
        ``column``.  Returned, not raised."""
        if position is not None:
            # numbered from 1, as ``show --after`` and the engine's messages count events
            event = f"{position + 1} ({event.kind})" if isinstance(event, Event) else position + 1
        root = self.line
        while root.parent is not None:
            root = root.parent
        first = root.events[0] if root.events else None
        if isinstance(first, GameStarted) and isinstance(first.players, tuple) and first.players:
            # seats as people say them: "South (Euchrazy1)", not "seat 2"
            reason = name_seats(reason, first.players, len(first.players))
        if deal in self.deal_names:
            reason += f" ({self.deal_names[deal]})"
        return RecordError(self.path, self.label + reason, deal=deal, event=event,
                           line=line, column=column)

    def _fold_error(self, line: _Line, exc: Exception, pos: Optional[int]) -> RecordError:
        """The error of an event that cannot be folded at position ``pos`` of
        ``line``'s stream (None: not known), named where the file has it."""
        while line.parent is not None and pos is not None and pos < line.base:
            line = line.parent            # the prefix a variation replays is its parent's
        imp = isinstance(exc, ImpossibleEvent)
        reason = exc.reason if imp else str(exc)
        deal = exc.deal if imp else None
        k = None if pos is None else pos - line.base
        where = line.places[k] if k is not None and 0 <= k < len(line.places) else (None, None, None)
        ev = line.events[k] if k is not None and 0 <= k < len(line.events) else None
        if line.parent is not None:
            name = f"{line.name}: " if line.name else ""
            kind = ev.kind if ev is not None else "?"
            event = f"{k + 1} of the alternative line ({kind})"
            return self.error(name + reason, deal, event=event, line=where[0], column=where[1])
        if not imp:
            return self.error(reason, line=where[0], column=where[1])
        event = where[2] if where[2] is not None else (
            f"{pos + 1} ({ev.kind})" if ev is not None else pos + 1)
        return self.error(reason, deal, event=event, line=where[0], column=where[1])

    # ------------------------------------------------------------ the game
    def start_game(self, variant: str, options: Any = None, players: Sequence[str] = (), *,
                   first_dealer: int = 0, initial_score: Optional[Sequence[int]] = None,
                   title: str = "", source: Optional[dict] = None, line: Optional[int] = None,
                   column: Optional[int] = None) -> GameStarted:
        """Add the game's :class:`GameStarted` (``initial_score`` None: the
        variant's own, rules.md); returns it as added."""
        start = GameStarted(variant, options if options is not None else {}, tuple(players),
                            first_dealer=first_dealer,
                            initial_score=tuple(initial_score) if initial_score else None,
                            title=title, source=dict(source or {}))
        self.add(start, line=line, column=column)
        return self.main.events[0]

    def add(self, event: Event, *, line: Optional[int] = None, column: Optional[int] = None,
            name: Optional[str] = None) -> int:
        """Add ``event`` to the line being built; returns its position.

        ``line``/``column``: where the file has it; ``name``: how the file
        names it in errors (``"history[22]"``; default ``"17 (CardPlayed)"``).
        If the line's :attr:`table` is in use the event is folded at once and
        an impossible one raises :class:`RecordError` (and is not added; the
        table is left as the engine stopped: :meth:`rollback` to a
        :meth:`mark` to go on reading).
        """
        ln = self.line
        if ln is self.main and not ln.events and isinstance(event, GameStarted):
            event = with_initial_score([event])[0]
        if ln is self.main and self._game is not None:
            # the validated game keeps the live table as its final one: fold on a copy
            if ln.table is not None and ln.table is self._game.final:
                ln.table = ln.table.copy()
            self._game = None
        if ln.table is not None:
            if ln.parent is None and event.kind == "DealStarted":
                ln.deal_starts[ln.end()] = ln.table.copy()
            try:
                apply(ln.table, event)
            except _FOLD_ERRORS as e:
                ln.places.append((line, column, name))
                ln.events.append(event)
                err = self._fold_error(ln, e, ln.end() - 1)   # the table stood at the line's end
                ln.places.pop()
                ln.events.pop()
                raise err from None
        ln.events.append(event)
        ln.places.append((line, column, name))
        return ln.end() - 1

    @property
    def table(self) -> Table:
        """The working table after the last event of the line being built
        (live: every later :meth:`add` folds into it).  Raises
        :class:`RecordError` if what was added so far cannot be folded."""
        ln = self.line
        if ln.table is None:
            t, start = new_table(), 0
            if ln.parent is self.main and ln.parent.deal_starts:
                # from the main line's table before the line's deal, not from the first event
                start = max((p for p in ln.parent.deal_starts if p <= ln.base), default=0)
                if start:
                    t = ln.parent.deal_starts[start].copy()
            try:
                fold(t, ln.stream(ln.end()), start)
            except _FOLD_ERRORS as e:
                raise self._fold_error(ln, e, _position(e, t)) from None
            ln.table = t
            ln.folded = True
        return ln.table

    @property
    def events(self) -> list:
        """The events of the line being built (its own, not the parent's)."""
        return self.line.events

    @property
    def last_position(self) -> Optional[int]:
        """Position of the last event of the line being built (None if it has none)."""
        return self.line.end() - 1 if self.line.events else None

    @property
    def in_variation(self) -> bool:
        """True while an alternative line is being built."""
        return self.line is not self.main

    # ------------------------------------------------------------ notes and lines
    def annotate(self, text: str, mark: Optional[str] = None, position: Optional[int] = None) -> dict:
        """A note ``{"position", "text", "mark"}`` about event ``position`` of the
        line being built (default: its last event).  Raises :class:`RecordError`
        for a position outside the line."""
        ln = self.line
        pos = self.last_position if position is None else position
        lo = ln.base if ln.parent is not None else 0
        if not isinstance(pos, int) or not lo <= pos < ln.end():
            what = "alternative line annotation" if ln.parent is not None else "annotation"
            raise self.error(f"{what} position {pos} outside {lo}..{ln.end() - 1}")
        note = {"position": pos, "text": text, "mark": mark}
        ln.annotations.append(note)
        return note

    def begin_variation(self, position: Optional[int] = None, name: str = "",
                        comment: str = "") -> None:
        """Start an alternative line that replaces event ``position`` of the
        line being built (default: its last event) and what follows.
        ``name``: how the file names the line, prefixed to its errors
        (``"variations/0"``); ``comment``: the line's own comment.  The
        GameStarted cannot be replaced.  Raises :class:`RecordError` for a
        position outside the line."""
        ln = self.line
        pos = self.last_position if position is None else position
        lo = ln.base if ln.parent is not None else 1
        if not isinstance(pos, int) or not lo <= pos < ln.end():
            raise self.error(f"alternative line position {pos} outside {lo}..{ln.end() - 1}")
        self.line = _Line(ln, pos, name, comment)

    def comment_variation(self, text: str) -> None:
        """Add to the comment of the alternative line being built (parts are
        joined by newlines)."""
        self.line.comment_parts.append(text)

    def end_variation(self) -> dict:
        """Finish the alternative line being built; returns its Record dict
        (``position``, ``events``, ``annotations``, ``comment`` and, when it
        has some, ``variations``)."""
        ln = self.line
        self.line = ln.parent
        d = ln.as_dict()
        self.line.variations.append(d)
        self.line.children.append(ln)
        return d

    def drop_variation(self) -> None:
        """Leave out the alternative line being built (a reader that could not
        replay it says why with :meth:`warn`)."""
        self.line = self.line.parent

    def warn(self, text: str) -> None:
        """A warning for the record, as given (no label added)."""
        self.warnings.append(text)

    def state_final_score(self, score: Sequence[int], words: Optional[str] = None) -> None:
        """The file's own final score (``Record.stated_final_score``); when the
        play of a complete record gives another, :meth:`finish` warns with
        ``words`` (a ``str.format`` text with ``{stated}`` and ``{final}``)."""
        self.stated = list(score)
        self.stated_words = words

    # ------------------------------------------------------------ going back
    def mark(self) -> _Mark:
        """The main line as it is now, to come back to with :meth:`rollback`."""
        assert self.line is self.main, "marks are on the main line"
        return _Mark(self.main, len(self.warnings))

    def rollback(self, mark: _Mark) -> None:
        """Forget what was added to the main line since ``mark`` (events,
        notes, lines, warnings), and the table with it (a reader that skips
        a part it cannot read: the deal-by-deal audit)."""
        ln = self.main
        n_ev, n_notes, n_vars, n_warn = mark.n
        del ln.events[n_ev:], ln.places[n_ev:], ln.annotations[n_notes:]
        del ln.variations[n_vars:], ln.children[n_vars:], self.warnings[n_warn:]
        ln.table = mark.table.copy() if mark.table is not None else None
        ln.deal_starts = {p: t for p, t in ln.deal_starts.items() if p < n_ev}
        self._game = None

    # ------------------------------------------------------------ the end
    def validate(self) -> Any:
        """Fold the main line (a :class:`~euchre_events.projections.Game`,
        also kept as :attr:`game`) and every alternative line not yet folded,
        each from its branch point, parents before children.  Returns None
        when the builder was made with ``validate=False``.  Raises
        :class:`RecordError` at the first impossible event."""
        main = self.main
        if not self.validate_at_end and main.table is None:
            return None
        if self._game is None:
            if main.table is not None and main.folded and main.table.pos == len(main.events):
                # every event went through the live table as it was added (the
                # reader read the table): that was the fold; it is not done again
                from euchre_events.projections import Game
                self._game = Game.from_folded(main.events, main.table)
            else:
                self._game = _fold_game(self, main)
            for child in self.main.children:
                self._check_line(child)
        return self._game

    @property
    def game(self) -> Any:
        """The validated :class:`~euchre_events.projections.Game` (see :meth:`validate`)."""
        return self.validate()

    def _check_line(self, ln: _Line) -> None:
        if ln.events and not ln.folded:
            t = self._game.table_at(ln.base) if ln.parent is self.main else None
            if t is None:
                t = new_table()
                try:
                    fold(t, ln.parent.stream(ln.base))
                except _FOLD_ERRORS as e:
                    raise self._fold_error(ln.parent, e, _position(e, t)) from None
            for k, ev in enumerate(ln.events):
                try:
                    apply(t, ev)
                except _FOLD_ERRORS as e:
                    raise self._fold_error(ln, e, ln.base + k) from None
        for child in ln.children:
            self._check_line(child)

    def finish(self, stop_prefix: str = "") -> Record:
        """The :class:`~euchre_events.formats.Record`, validated (see
        :meth:`validate`).  Adds the warnings: the record stops in the middle
        of a deal (``label + stop_prefix + "the record stops in the middle of
        deal 2 (after event 37)"``); the stated final score is not what the
        play of a complete record gives.  Raises :class:`RecordError` as
        :meth:`validate` does, or if no event was added."""
        if not self.main.events:
            raise self.error("the record holds no event")
        while self.line is not self.main:   # a reader that did not close its lines
            self.end_variation()
        game = self.validate()
        if game is not None:
            stop = incomplete_warning(game)
            if stop:
                self.warnings.append(self.label + stop_prefix + stop)
            elif self.stated is not None and list(game.final_score) != self.stated:
                words = self.stated_words or ("the file states the final score {stated}, "
                                              "the deals as played give {final}")
                self.warnings.append(self.label + words.format(stated=self.stated,
                                                               final=list(game.final_score)))
        rec = Record(events=self.main.events, annotations=self.main.annotations,
                     variations=self.main.variations, source=self.source,
                     warnings=self.warnings, stated_final_score=self.stated)
        rec.game = game
        return rec


def _position(exc: Exception, t: Table) -> int:
    """Position of the event that ``exc`` refused: the engine says it for an
    :class:`ImpossibleEvent`; a ``ValueError`` (the registry's) stops the
    fold of ``t`` at that event."""
    pos = getattr(exc, "position", None)
    return t.pos if pos is None else pos


def _fold_game(builder: RecordBuilder, line: _Line) -> Any:
    from euchre_events.projections import Game
    try:
        return Game(line.events)
    except _FOLD_ERRORS as e:
        if not isinstance(e, ImpossibleEvent):   # Game does not say where: fold again to see
            t = new_table()
            try:
                fold(t, line.events)
            except _FOLD_ERRORS:
                pass
            raise builder._fold_error(line, e, t.pos) from None
        raise builder._fold_error(line, e, e.position) from None


def fold_game(path: str, events: Sequence[Event]) -> Any:
    """Fold ``events`` (GameStarted first) into a
    :class:`~euchre_events.projections.Game`, as the builder validates a
    record.  Raises :class:`RecordError` (file, deal, event ``"k (Kind)"``,
    reason) if they cannot have happened; the events are not changed."""
    b = RecordBuilder(path)
    b.main.events = list(events)
    b.main.places = [(None, None, None)] * len(b.main.events)
    return _fold_game(b, b.main)
