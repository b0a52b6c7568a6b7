"""The archive's errors (docs/design.md "Storage"): :class:`ArchiveError`
(a request the archive cannot satisfy), :class:`DamagedGame` (a stored game
that cannot be read back), :class:`WriteConflict` (another writer was first),
and :func:`short_error`, the one-line form of a cause they quote."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:       # an annotation only: uuid (and the platform module it loads) is not imported to run
    import uuid

__all__ = ["ArchiveError", "DamagedGame", "WriteConflict", "short_error"]


def short_error(e: Exception) -> str:
    """``"Kind: first line of the message"`` (at most 160 characters of
    it): how an error quotes its cause in one line."""
    if type(e).__name__.startswith("Mapper") and e.__cause__ is not None:
        # the library's "Failed to deserialise state of stored event with topic ..., originator_id
        # ..." repeats what the caller names (the game, the event): what went wrong is its cause
        return f"its stored form cannot be decoded: {short_error(e.__cause__)}"
    text = str(e).split("\n")[0]
    if len(text) > 160:     # cut at a word, and say so
        text = text[:160].rsplit(" ", 1)[0] + " ..."
    return f"{type(e).__name__}: {text}"


class ArchiveError(ValueError):
    """A request the archive cannot satisfy (unknown or ambiguous game id, ...)."""


class DamagedGame(ArchiveError):
    """A stored game that cannot be read back (a changed or garbage stored
    event, an unknown topic, a missing row, a damaged database page).

    ``game_id``: its UUID; ``result``: what :meth:`Archive.verify` says of
    it (a :class:`VerifyResult`, or None when even that failed); the message
    names the game, the first bad event and what to run, e.g. ``game <id>:
    stored event 17 cannot be read (...); run euchre-events verify <id>``.
    """

    def __init__(self, game_id: uuid.UUID, result: Optional["VerifyResult"], cause: Exception):
        self.game_id, self.result, self.cause = game_id, result, cause
        if result is not None and not result.ok and result.version is not None:
            what = f"stored event {result.version} {result.problem}"
        else:
            what = f"cannot be read ({short_error(cause)})"
        super().__init__(f"game {game_id}: {what}; run euchre-events verify {game_id}")



class WriteConflict(ArchiveError):
    """Another writer changed the game (or its annotations) first: the
    library's optimistic concurrency check (``eventsourcing``'s
    ``IntegrityError``, a ``RecordConflictError``) refused this write, or the
    position the writer expected is already taken.  Nothing of this write was
    stored; reload and try again.

    ``game_id``: the game's UUID; ``position``: the game position (0-based
    event index) the writer meant to record at or annotate; ``stream``:
    ``"game"`` (recording) or ``"annotations"``; ``now``: the game's event
    count (``"game"``) or the annotation stream's version, as stored now, or
    None when not known.  The message names the game and the position, e.g.
    ``game <id>: another writer recorded position 12 first (the game now
    has 13 events); your CardPlayed was not stored: reload the game and try
    again``.
    """

    def __init__(self, game_id: uuid.UUID, position: int, stream: str = "game",
                 now: Optional[int] = None, what: str = "event"):
        self.game_id, self.position, self.stream, self.now = game_id, position, stream, now
        if stream == "game":
            has = "" if now is None else f" (the game now has {now} events)"
            msg = (f"game {game_id}: another writer recorded position {position} first{has}; "
                   f"your {what} was not stored: reload the game and try again")
        else:
            msg = (f"game {game_id}: another writer changed this game's annotations while you "
                   f"annotated position {position}; your {what} was not stored: "
                   "reload the annotations and try again")
        super().__init__(msg)
