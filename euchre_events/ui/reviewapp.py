"""What the review app (``notebooks/review-a-game.ipynb``, served by
``euchre-events serve``) shows besides the viewer: which game to open, the
game picker, and the audit in sentences.

The app opens the archive the CLI uses (``--db``, ``$EUCHRE_EVENTS_DB``, or
``./euchre-events.sqlite``): notes and variations typed in the viewer are
annotation events of that archive and are there after a restart.  A game is
chosen by the page address (``?game=ID``, which Voila hands the kernel as
``$QUERY_STRING``) or ``$EUCHRE_EVENTS_GAME``; ``--record FILE``
(``$EUCHRE_EVENTS_RECORD``) imports that record into the archive and opens
it; with neither, the last game imported; with an empty archive, the shipped
tournament record.
"""
from __future__ import annotations

import os
from typing import Optional, Sequence
from urllib.parse import parse_qs, quote

from euchre_events.ui import render as R

__all__ = ["game_choices", "requested_game", "picker_html", "audit_sentences", "choose_game"]


def game_choices(archive) -> list:
    """The archive's games for the picker, newest import first:
    ``[{"id", "title", "variant", "players", "deals", "date"}]`` (from the
    game index read model, brought up to date first).  An archive whose read
    models cannot be built (neither SQLite nor PostgreSQL) gives the ids
    alone."""
    try:
        from euchre_events.archive.readmodels import ReadModels
        rm = ReadModels(archive)
        rm.catch_up()
        rows = rm.games()
    except (ValueError, RuntimeError):
        return [{"id": str(g), "title": "", "variant": "", "players": [], "deals": None, "date": ""}
                for g in reversed(archive.game_ids())]
    return [{"id": str(r["game_id"]), "title": r.get("title") or "", "variant": r.get("variant") or "",
             "players": list(r.get("players") or []), "deals": r.get("deals"), "date": r.get("date") or ""}
            for r in reversed(rows)]


def requested_game(environ: Optional[dict] = None) -> Optional[str]:
    """The game id the page address asks for (``?game=ID`` in Voila's
    ``$QUERY_STRING``), else ``$EUCHRE_EVENTS_GAME``, else None."""
    env = os.environ if environ is None else environ
    q = parse_qs(env.get("QUERY_STRING") or "")
    return (q.get("game") or [None])[0] or env.get("EUCHRE_EVENTS_GAME") or None


def choose_game(archive, record: Optional[str] = None, default_record: Optional[str] = None,
                environ: Optional[dict] = None) -> tuple:
    """``(game_id, refused)``: the stored game the app opens (see the module
    docstring for the order) and the refused deals of a record imported now
    (``[(deal, reason)]``).  Raises ``RecordError`` for a record that cannot
    be read and ``ArchiveError`` for an unknown ``?game=`` id."""
    from euchre_events.ui.widgets import open_record_by_deal
    wanted = requested_game(environ)
    if wanted:
        return str(archive.load(wanted).id), []
    if not record:
        choices = game_choices(archive)
        if choices:
            return choices[0]["id"], []
        record = default_record
    rec, refused = open_record_by_deal(str(record))
    game_id, _ = archive.import_record(rec)
    return str(game_id), refused


def picker_html(choices: Sequence[dict], current: Optional[str] = None, token: Optional[str] = None) -> str:
    """The game picker: one link per stored game (``?game=ID``, which opens
    it in a fresh page), the game shown marked ``ee-game-current``.  Titles
    and names from records are escaped."""
    from euchre_events.ui.describe import seat_name
    rows = []
    for c in choices:
        n = len(c["players"])
        who = ", ".join(seat_name(s, c["players"], n) for s in range(n))
        label = c["title"] or "untitled game"
        extra = " \u00b7 ".join(x for x in (c["variant"], f"{c['deals']} deal{'' if c['deals'] == 1 else 's'}" if c["deals"] is not None else "",
                                             c["date"], who) if x)
        cur = c["id"] == str(current)
        href = "?game=" + quote(c["id"]) + (f"&token={quote(token, safe='')}" if token else "")
        rows.append(f'<li class="ee-game{" ee-game-current" if cur else ""}" data-game="{R._esc(c["id"])}">'
                    f'<a href="{R._esc(href)}">{R._esc(label)}</a>'
                    f' <span class="ee-game-about">{R._esc(extra)}</span>'
                    + (" <b>(shown)</b>" if cur else "") + "</li>")
    head = f"<b>{len(choices)} game{'' if len(choices) == 1 else 's'} in this archive</b> (click one to open it)"
    return (f'<div class="ee-game-picker"><div>{head}</div>'
            f'<ul style="max-height:9em;overflow:auto;margin:2px 0">{"".join(rows)}</ul></div>')


def audit_sentences(game) -> list:
    """The audit of ``game`` as a director reads it aloud: one sentence per
    finding (as ``euchre-events audit`` says it, cards with their suit
    symbols: :func:`euchre_events.ui.auditreport.finding_lines`), then one per
    deal whose official points differ from the points as played (rules.md
    1.5, 2.7).  ``["No renege in this game: ..."]`` when there is none."""
    from euchre_events.ui.auditreport import finding_lines
    from euchre_events.ui.describe import score_words
    out = []
    for f in game.audit():
        out.extend(line[:1].upper() + line[1:] + "." for line in finding_lines(game, f))
    if not out:
        out.append("No renege in this game: the official score is the score as played.")
    for d in game.deal_reports():
        if d.points_official != d.points_as_played:
            out.append(f"Deal {d.deal}: {score_words(d.points_as_played, game.variant, game.players)} as played, "
                       f"{score_words(d.points_official, game.variant, game.players)} officially.")
    return out
