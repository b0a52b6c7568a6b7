"""The ``euchre-events`` command: import, list, rebuild, stats, show, audit,
analyze, explore, drill, export, serve, version, tutorial, samples, verify,
record (docs/architecture.md "The commands": where each one's work is done).

Games are stored in an SQLite file (``--db``, default ``euchre-events.sqlite``
in the current folder, or ``$EUCHRE_EVENTS_DB``); set ``PERSISTENCE_MODULE=
eventsourcing.postgres`` and the ``POSTGRES_*`` variables for a shared archive.
"""
from __future__ import annotations

import json
import os
import sys
from typing import List, Optional

import typer

import euchre_events
from euchre_events.batch import AUDIT_OPTIONS, GAMES_HELP, run_audit
from euchre_events.console import (DB_HELP, archive_file, echo, emit_report, fail, open_archive, progress,
                                   read_file, refuse_output_over_input, report_format, say, short_error,
                                   warn, write_file)
from euchre_events.formats import FORMAT_TABLE, FORMATS, RECORD_SUFFIXES, WRITTEN, RecordError, detect_format
from euchre_events.options import typer_parameters
from euchre_events.review import ANALYZE_OPTIONS, run_analysis

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  help="Record Euchre games as event streams; replay, study and audit them.")




def _score_text(score) -> str:
    """See :func:`euchre_events.rules.seats.score_text`."""
    from euchre_events.rules.seats import score_text
    return score_text(score)




def _expand(paths: List[str]):
    """``(path, label)`` of every record file the arguments name, in order:
    a file as it is; a folder: its record files, recursively, sorted; a
    pattern that names no file (``*.egn``, ``club/**/*.json``): its matches;
    a ``.zip`` or ``.tar.gz`` archive: each member that is a record file
    (label ``archive.zip:member``; ``path`` None: read by :func:`_members`).
    A name that is none of these is yielded as it is, so that reading it
    says what is wrong."""
    import glob
    from euchre_events.formats import RECORD_SUFFIXES
    for arg in paths:
        low = arg.lower()
        if os.path.isdir(arg):
            found = []
            for folder, dirs, files in os.walk(arg):
                dirs.sort()
                found += [os.path.join(folder, f) for f in sorted(files) if f.lower().endswith(RECORD_SUFFIXES)]
            yield from ((f, f) for f in found)
        elif os.path.isfile(arg) and low.endswith((".zip", ".tar.gz", ".tgz", ".tar")):
            yield (None, arg)
        elif not os.path.exists(arg) and any(c in arg for c in "*?["):
            matches = sorted(glob.glob(arg, recursive=True))
            if not matches:
                yield (arg, arg)
            for m in matches:
                yield from _expand([m]) if os.path.isdir(m) else [(m, m)]
        else:
            yield (arg, arg)


_TAR_KINDS = (("issym", "a symbolic link"), ("islnk", "a hard link"), ("isfifo", "a named pipe"),
              ("ischr", "a character device"), ("isblk", "a block device"))


def _members(archive_path: str):
    """``(label, path or RecordError)`` of each record file inside a zip or
    tar archive (label ``archive.zip:member``), one at a time: the member
    unpacked into a temporary file of the same suffix (the readers read
    files), removed when the next member is asked for.

    A member is read through :data:`~euchre_events.formats.MAX_RECORD_BYTES`
    (a 400 KB zip unpacking to 400 MB took 1.24 GB: issue 26): one whose size
    when unpacked is larger is refused unread, and the copy stops at the
    limit whatever the archive declares.  A member that cannot be read is a
    RecordError naming it and the reason, and the members after it are read:
    encrypted, compressed with a method this zip reader does not have,
    damaged (a bad CRC), or in a tar archive not a regular file (a link, a
    named pipe, a device: never followed)."""
    import tarfile
    import zipfile
    from euchre_events.formats import MAX_RECORD_BYTES, RECORD_SUFFIXES
    limit = MAX_RECORD_BYTES

    def too_big(label: str, size: int) -> RecordError:
        return RecordError(label, f"{size} bytes unpacked, more than the {limit} bytes a record may hold: "
                                  f"not read")

    def unpacked(label: str, stream):
        """The temporary file of ``stream`` (a member), or a RecordError."""
        import tempfile
        fd, tmp = tempfile.mkstemp(suffix="." + label.rsplit(".", 1)[-1])
        try:
            with os.fdopen(fd, "wb") as out:
                total = 0
                while True:
                    block = stream.read(1 << 20)
                    if not block:
                        return tmp
                    total += len(block)
                    if total > limit:    # more than the archive declared: stop here
                        os.unlink(tmp)
                        return RecordError(label, f"more than the {limit} bytes a record may hold "
                                                  f"when unpacked: not read")
                    out.write(block)
        except BaseException as e:
            if os.path.exists(tmp):
                os.unlink(tmp)
            if isinstance(e, Exception):   # a bad CRC, a damaged stream: this member only
                return RecordError(label, f"cannot be unpacked ({short_error(e)}): not read")
            raise

    def given(label: str, item):
        """Yield the member to the caller; its temporary file removed after."""
        try:
            yield label, item
        finally:
            if isinstance(item, str) and os.path.exists(item):
                os.unlink(item)

    try:
        if zipfile.is_zipfile(archive_path):
            with zipfile.ZipFile(archive_path) as z:
                for info in z.infolist():
                    if info.is_dir() or not info.filename.lower().endswith(RECORD_SUFFIXES):
                        continue
                    label = f"{archive_path}:{info.filename}"
                    if info.flag_bits & 0x1:
                        yield label, RecordError(label, "encrypted (a password is needed): not read")
                        continue
                    if info.file_size > limit:
                        yield label, too_big(label, info.file_size)
                        continue
                    try:
                        stream = z.open(info)
                    except NotImplementedError:   # PPMd, WavPack...: named, and the rest imported
                        method = info.compress_type
                        yield label, RecordError(label, f"compressed with method {method} "
                                                        f"({zipfile.compressor_names.get(method, 'unknown')}), "
                                                        f"which this reader does not have: not read")
                        continue
                    except (zipfile.BadZipFile, RuntimeError, ValueError, OSError) as e:
                        yield label, RecordError(label, f"cannot be unpacked ({short_error(e)}): not read")
                        continue
                    with stream:
                        item = unpacked(label, stream)
                    yield from given(label, item)
            return
        with tarfile.open(archive_path) as t:
            for m in t:
                if m.isdir() or not m.name.lower().endswith(RECORD_SUFFIXES):
                    continue
                label = f"{archive_path}:{m.name}"
                if not m.isfile():
                    kind = next((w for test, w in _TAR_KINDS if getattr(m, test)()), "not a file")
                    yield label, RecordError(label, f"not a regular file ({kind}): not read")
                    continue
                if m.size > limit:
                    yield label, too_big(label, m.size)
                    continue
                f = t.extractfile(m)
                item = unpacked(label, f) if f is not None else RecordError(label, "cannot be unpacked")
                yield from given(label, item)
    except (zipfile.BadZipFile, tarfile.TarError, EOFError) as e:
        kind = "zip" if archive_path.lower().endswith(".zip") else "tar"
        yield archive_path, RecordError(archive_path, f"not a readable {kind} archive: damaged, cut off, "
                                                      f"or not an archive at all ({type(e).__name__})")
    except OSError as e:
        yield archive_path, RecordError(archive_path, f"cannot read the archive: {e.strerror or e}")


def _records_of(path: Optional[str], label: str, from_: Optional[str]):
    """``(label, records, errors)`` for one item of :func:`_expand`; a
    member of a zip or tar archive is read from the temporary file
    :func:`_members` unpacks it into."""
    if path is not None:
        records, errors = read_file(path, from_)
        yield label, records, errors
        return
    for member, tmp in _members(label):
        if isinstance(tmp, RecordError):
            yield member, [], [tmp]
            continue
        records, errors = read_file(tmp, from_)
        # the errors name the member, not the temporary file
        yield member, records, [str(e).replace(tmp, member) for e in errors]


@app.command("import")
def import_cmd(paths: List[str] = typer.Argument(..., help=f"Record files ({', '.join(RECORD_SUFFIXES)}), "
                                                          "folders (searched recursively), patterns such as "
                                                          "'club/**/*.egn', or .zip / .tar.gz archives of them."),
               db: Optional[str] = typer.Option(None, "--db", help=DB_HELP),
               from_: Optional[str] = typer.Option(None, "--from", help=f"Format: {', '.join(FORMATS)}.")):
    """Import record files into the archive: one line per game (id, title, deals, score).

    A line reads: ID  TITLE  deals=13  score: N/S 8, E/W 10, the official
    score (rules.md 1.6) said as list, show and audit say it, with the score
    as played beside it when a penalty makes them differ.

    Each game is validated and stored whole, or not at all (one transaction);
    importing the same game twice stores it once, so an import that was
    stopped (Ctrl-C, kill -9) is finished by running it again.  Bad files do
    not stop the others: they are listed at the end with their reasons, and
    the exit status is 1.
    """
    from euchre_events.projections import Game
    arch = None     # opened (and created) at the first record to store: no empty file for a typo
    failed: list = []
    new = old = 0
    items = list(_expand(paths))
    bar = progress(None, "importing", len(items)) if len(items) > 1 else None
    for path, label in items:
        for where, records, errors in _records_of(path, label, from_):
            for e in errors:
                say(f"error: {e}", err=True)
                failed.append(str(e))
            for rec in records:
                warn(where, rec)
                if arch is None:
                    arch = open_archive(db, create=True)
                try:
                    done = arch.import_record(rec)
                    gid, created = done
                except Exception as e:  # an impossible record: nothing of it was written
                    say(f"error: {where}: {e}", err=True)
                    failed.append(f"{where}: {e}")
                    continue
                new += created
                old += not created
                if getattr(done, "not_kept", ()):
                    say(f"warning: {where}: the game is stored already ({gid}); not kept from this "
                         f"copy: {', '.join(done.not_kept)} (the stored game keeps those of the copy "
                         f"imported first)", err=True)
                # the reader's fold when it made one (import_record used it too): one fold per game
                g = rec.game if rec.game is not None and len(rec.game.events) == len(rec.events) \
                    else Game(rec.events)
                note = f"  ({done.describe()})" if not created else ""
                # the score as list says it: the official one, as played beside it where they differ
                from euchre_events.ui.describe import score_words
                played = ("" if list(g.official_score) == list(g.final_score)
                          else f" (as played: {score_words(g.final_score, g.variant, g.players)})")
                say(f"{gid}  {g.title or os.path.basename(where)}  deals={g.deals}  "
                     f"score: {score_words(g.official_score, g.variant, g.players)}{played}{note}")
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    # a summary when the files were found (a folder, a pattern, an archive):
    # named one by one on the command line, each error line already says it
    found = any(path is None for path, _ in items) or any(
        os.path.isdir(arg) or (not os.path.exists(arg) and any(c in arg for c in "*?[")) for arg in paths)
    if found:
        say(f"imported {new} game{'' if new == 1 else 's'} ({old} already stored) from {len(items)} "
            f"file{'' if len(items) == 1 else 's'} or archive{'' if len(items) == 1 else 's'}; "
             f"{len(failed)} could not be imported", err=True)
        for i, why in enumerate(failed, 1):
            say(f"  {i}. {why}", err=True)
    if failed:
        raise typer.Exit(1)


@app.command("list")
def list_cmd(db: Optional[str] = typer.Option(None, "--db", help=DB_HELP),
             variant: Optional[str] = typer.Option(None, "--variant",
                                                   help="Only games of this variant (a name or alias: "
                                                        "standard, bid, buck...)."),
             player: Optional[str] = typer.Option(None, "--player",
                                                  help="Only games with a player whose name contains "
                                                       "this (any case)."),
             as_json: bool = typer.Option(False, "--json", help="Print JSON: {\"games\": [...]}.")):
    """One line per stored game: id, title, variant, date, players, deals,
    score and winner by side.

    A line reads: ID  TITLE  VARIANT  DATE  players: Ann, Bob, Cora, Dan
    deals=10  score: N/S 10, E/W 4  winner: N/S (Ann & Cora): the official
    score and winner (rules.md 1.6), with the score as played beside them
    when a penalty or a later deal makes it differ.  --json gives
    the same per game (id, title, variant, date, players, deals,
    final_score = as_played_score, official_score, sides, winner, winner_name) and the damaged games under
    "damaged".  A damaged game is an error line naming it (stderr) and the
    others are still listed; exit status 1 then.
    """
    want = _variant_name(variant)
    arch = open_archive(db)
    rm = _read_models(arch)
    if rm is not None:
        return _list_from_index(rm, want, player, as_json, arch)
    _list_by_folding(arch, want, player, as_json)


def _list_by_folding(arch, want, player, as_json) -> None:
    """``list`` without read models (a damaged log, a read-only file): every
    stored game loaded and folded, its index row made as the read models
    make it (:func:`~euchre_events.archive.readmodels.index_values`)."""
    from euchre_events.archive import ArchiveError
    from euchre_events.archive.readmodels import index_values
    try:
        ids = arch.stream_ids()   # every game stream, even one whose first row is damaged
    except Exception as e:  # a damaged database page under the log itself
        fail(f"{arch.db or 'the archive'}: cannot list the stored games ({short_error(e)})")
    damaged, games = [], []
    for gid in ids:
        try:
            g = arch.load(gid)
        except ArchiveError as e:
            damaged.append({"id": str(gid), "error": str(e)})
            if not as_json:
                say(f"error: {e}", err=True)
            continue
        games.append(index_values(gid, g))
    _print_list(games, damaged, want, player, as_json)


def _read_models(arch, quiet: bool = False):
    """The archive's read models, caught up with its log (a progress bar when
    there is much to do; a stale one says so on stderr), or None when they
    cannot be built here (a damaged log, a read-only file): the caller then
    reads the games themselves."""
    from euchre_events.archive.readmodels import ReadModels
    try:
        rm = ReadModels(arch)
        todo = rm.behind()
        if todo > 5000 and not quiet:
            bar = progress(None, "read models", todo)
            rm.catch_up(progress=bar.update)
            bar.close()
        else:
            rm.catch_up()
    except Exception:
        return None
    note = rm.stale()
    if note and not quiet:
        say(f"note: {note}", err=True)
    return rm


def _checked(rm, arch, games: list) -> list:
    """``games`` (index rows) with ``error`` set on each stored game changed
    since its rows were written (a changed or removed event makes no
    notification, so the index cannot see it): the games the read models
    noted as changed (:meth:`ReadModels.changed_games`, SQLite's triggers)
    get their hash chain recomputed, the others are not read (issue 26: a
    chain check of every game made ``list`` read the whole archive); where
    changes are not noted (PostgreSQL) every game is checked."""
    return list(_checked_iter(rm, arch, games))


def _checked_iter(rm, arch, games):
    """:func:`_checked` one row at a time (``list`` prints as it reads)."""
    suspects = rm.changed_games()
    for g in games:
        yield (g if g.get("error") or (suspects is not None and g["game_id"] not in suspects)
               else dict(g, error=_tampered(arch, g["game_id"])))


def _tampered(arch, game_id: str) -> Optional[str]:
    """The error line of a stored game changed since its read-model rows were
    written (its hash chain recomputed from the stored rows), or None when it
    is intact."""
    from euchre_events.archive import DamagedGame
    try:
        res = arch.verify(game_id)
    except Exception as e:  # an unreadable row: damaged too
        return f"game {game_id}: cannot be read ({short_error(e)}); run euchre-events verify {game_id}"
    return None if res.ok else str(DamagedGame(res.game_id, res, ValueError(res.problem)))


_LIST_COLUMNS = ("title", "variant", "date", "players", "deals", "final_score", "official_score", "winner",
                 "game_over", "tied")
"""The game-index columns ``list`` shows (not the source, nor the score after each deal)."""

_STATS_COLUMNS = ("title", "variant", "players", "source", "winner", "as_played_winner")
"""The game-index columns ``stats`` counts from (the source: the players' ids)."""

_STATS_DEAL_COLUMNS = ("deal", "tricks", "note", "sat_out", "maker", "made", "made_official", "lone_defender",
                       "alone", "maker_tricks", "maker_rel", "call", "up_card")
"""The deals' columns ``stats`` counts from (not the points)."""


def _list_from_index(rm, want, player, as_json, arch=None) -> None:
    damaged = []
    rows = rm.iter_games(columns=_LIST_COLUMNS)

    def good():   # the index rows read and printed a section at a time, not all held (issue 26)
        for r in (_checked_iter(rm, arch, rows) if arch is not None else rows):
            error = r.get("error")
            if error:
                damaged.append({"id": r["game_id"], "error": error})
                if not as_json:
                    say(f"error: {error}", err=True)
                continue
            yield r
    _print_list(good(), damaged, want, player, as_json)


def _print_list(games: list, damaged: list, want, player, as_json) -> None:
    """The lines (or the JSON) of ``list`` from index rows; exit 1 when a
    game is damaged."""
    from euchre_events.ui.describe import level_sides, score_words, side_label, winner_words
    from euchre_events.events import printable
    out, shown, lines = [], 0, []
    for g in games:
        if want is not None and g["variant"] != want:
            continue
        if player is not None and not any(player.lower() in str(n).lower() for n in g["players"]):
            continue
        gid, date, players = g["game_id"], g["date"] or "", tuple(g["players"])
        winner = tuple(g["winner"]) if isinstance(g["winner"], list) else g["winner"]
        over = bool(g["game_over"])
        official = list(g.get("official_score") or g["final_score"])
        tied = level_sides(winner, over, official, tuple(g["tied"] or ()))   # a drawn game reads as drawn
        if as_json:
            out.append({"id": gid, "title": g["title"], "variant": g["variant"], "date": date or None,
                        "players": list(players), "deals": g["deals"],
                        "final_score": list(g["final_score"]), "as_played_score": list(g["final_score"]),
                        "official_score": official,
                        "sides": [side_label(i, g["variant"], players) for i in range(len(g["final_score"]))],
                        "winner": winner,
                        "winner_name": winner_words(winner, g["variant"], players, over, tied)})
            continue
        shown += 1
        names = ", ".join(map(str, players))
        # the official score goes with the official winner; as played beside it when they differ
        played = ("" if official == list(g["final_score"]) else
                  f" (as played: {score_words(g['final_score'], g['variant'], players)})")
        lines.append(printable(f"{gid}  {g['title'] or '-'}  {g['variant']}  {date or '-'}  players: {names}  "
                               f"deals={g['deals']}  score: {score_words(official, g['variant'], players)}{played}  "
                               f"winner: {winner_words(winner, g['variant'], players, over, tied)}"))
        if len(lines) >= 5000:   # a few writes of many lines (100,000 lines: issue 26)
            echo("\n".join(lines))
            lines = []
    if lines:   # each line as say would print it
        echo("\n".join(lines))
    if as_json:
        typer.echo(json.dumps({"games": out, "damaged": damaged}, ensure_ascii=False))
    elif not shown and (want is not None or player is not None):
        say("no stored game matches "
             + " and ".join(w for w in (want and f"--variant {want}", player and f"--player {player!r}") if w),
             err=True)
    if damaged:
        raise typer.Exit(1)


@app.command("rebuild")
def rebuild_cmd(db: Optional[str] = typer.Option(None, "--db", help=DB_HELP),
                downgrade: bool = typer.Option(False, "--downgrade",
                                               help="Rebuild read models a newer release built, with this "
                                                    "older one (for everyone who shares the archive).")):
    """Rebuild every read model (game index, renege ledger, the deals the
    statistics count) from the stored events, after a rules fix.

    Stopped in the middle, it goes on from where it stopped the next time
    (list, stats or rebuild).  Prints the events and games processed.
    Read models a newer release built are left alone (exit 1: upgrade
    euchre-events instead) unless --downgrade is given.
    """
    import time
    from euchre_events.archive.readmodels import RULES_VERSION, ReadModels
    arch = open_archive(db)
    try:
        rm = ReadModels(arch)
        newer = None if downgrade else rm.newer()
    except Exception as e:  # a damaged log: say so, never a traceback
        fail(f"{arch.db or 'the archive'}: cannot rebuild the read models ({short_error(e)})")
    if newer is not None:
        fail(f"{arch.db or 'the archive'}: not rebuilt: {rm.stale()} (or rebuild --downgrade)")
    try:
        total = arch.recorder.max_notification_id() or 0
        bar = progress(None, "rebuilding", total)
        t0 = time.perf_counter()
        n = rm.rebuild(progress=bar.update)
        bar.close()
        games = rm.games()
    except Exception as e:  # a damaged log: say so, never a traceback
        fail(f"{arch.db or 'the archive'}: cannot rebuild the read models ({short_error(e)})")
    dt = time.perf_counter() - t0
    bad = sum(1 for g in games if g.get("error"))
    say(f"rebuilt the read models (rules version {RULES_VERSION}): {n} event{'' if n == 1 else 's'}, "
        f"{len(games)} game{'' if len(games) == 1 else 's'}"
         f"{f' ({bad} damaged)' if bad else ''} in {dt:.1f} s")


@app.command("stats")
def stats_cmd(player: Optional[str] = typer.Option(None, "--player",
                                                   help="Only players whose name or player id contains this (any case)."),
              variant: Optional[str] = typer.Option(None, "--variant", help="Only games of this variant."),
              report: str = typer.Option("text", "--format", "-f", help="text, json, or html (a page with charts)."),
              output: Optional[str] = typer.Option(None, "--output", "-o", help="Write to this file."),
              as_json: bool = typer.Option(False, "--json", help="Same as --format json."),
              db: Optional[str] = typer.Option(None, "--db", help=DB_HELP)):
    """Club statistics from the read models: per player games and wins, deals
    played, calls made and euchred, alone hands, lone defences, tricks per
    deal, reneges; calls by seat from the dealer, by up-card and by kind.

    --format html writes one self-contained page with the charts (results
    over time, calls by seat and up-card, alone hands, reneges by player,
    score progressions).

    A player is known by the platform ids of the records (EGN player objects,
    EMN master players) where they give them, else by name; placeholder names
    (North, P1, Player 2, ?, empty) are no player (docs/design.md "Read models").
    """
    from euchre_events.archive.clubstats import club_counts, stats_json_of, stats_text_of
    if as_json and report not in ("text", "json"):
        fail(f"--json and --format {report} ask for two reports: give one")
    report = report_format("json" if as_json else report, output)
    want = _variant_name(variant)
    refuse_output_over_input([], output, archive=lambda: archive_file(db))
    arch = open_archive(db)
    rm = _read_models(arch)
    if rm is None:
        fail(f"{arch.db or 'the archive'}: the read models cannot be built (run euchre-events verify --all)")
    # only the index columns counted; the deals and findings one section at a time, as
    # counted (issue 26: every deal row of 100,000 games held at once took gigabytes)
    games = rm.games(columns=_STATS_COLUMNS)
    # a game changed since its rows were written is damaged: not counted (docs/design.md "Tamper evidence")
    games = _checked(rm, arch, games)
    for g in games:
        if g.get("error"):
            say(f"error: {g['error']}", err=True)
    if report in ("json", "text"):
        counts = club_counts(games, rm.iter_deals(columns=_STATS_DEAL_COLUMNS), rm.iter_findings(),
                             player=player, variant=want)
        text = stats_json_of(counts) if report == "json" else stats_text_of(counts)
    else:
        # one variant at a time (issue 23), each counted from its own deals as read (issue 26)
        from euchre_events.ui.clubcharts import club_page_of
        text = club_page_of(games, lambda v: (rm.iter_deals(columns=_STATS_DEAL_COLUMNS, variant=v),
                                              rm.iter_findings(variant=v)),
                            player=player, variant=want, score_after=rm.score_after)
    emit_report(text, report, output)
    if any(g.get("error") for g in games):   # the damaged games were named and not counted
        raise typer.Exit(1)


def _variant_name(variant: Optional[str]) -> Optional[str]:
    """The variant's own name for a ``--variant`` name or alias (None for
    None); an unknown one is a one-line error."""
    if variant is None:
        return None
    from euchre_events.rules.registry import variant_class
    try:
        return variant_class(variant).name
    except ValueError as e:
        try:   # Two-Handed, BID: a name is a name in any case
            return variant_class(variant.strip().lower()).name
        except ValueError:
            fail(f"--variant: {e}")


def _load_game(arch_db: Optional[str], game: str, from_: Optional[str] = None):
    """``(Game, Record or None)`` from a stored id (or prefix) or a record file
    (its first game; a match file says so on stderr), through
    :func:`euchre_events.archive.opening.open_game`.  Raises ``RecordError``
    or ``ArchiveError`` naming what was tried."""
    from euchre_events.archive.opening import open_game
    opened = open_game(game, db=arch_db, fmt=from_)
    if opened.note:
        say(f"note: {opened.note}", err=True)
    if opened.record is not None:
        warn(game, opened.record)
    return opened.game, opened.record


def _load_game_or_fail(arch_db: Optional[str], game: str, from_: Optional[str] = None):
    """:func:`_load_game`, or the command ends with one error line (never a
    traceback): the ``RecordError``/``ArchiveError`` naming what was tried,
    or, for a damaged archive file, what failed and ``verify --all``."""
    from euchre_events.archive import ArchiveError
    try:
        return _load_game(arch_db, game, from_)
    except (RecordError, ArchiveError) as e:
        fail(str(e))
    except Exception as e:  # a damaged archive file: one line, never a traceback
        fail(f"{game}: cannot be read ({short_error(e)}); run euchre-events verify --all")


def _parse_seat(text: Optional[str], players) -> Optional[int]:
    """The seat of ``--seat`` (None for all hands: no value, ``all`` or ``*``);
    the names are :func:`euchre_events.rules.seats.parse_seat`'s."""
    from euchre_events.rules.seats import parse_seat
    if text is None or text.lower() in ("all", "*"):
        return None
    try:
        return parse_seat(text, players)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None


@app.command("show")
def show_cmd(game: str = typer.Argument(..., help="Stored game id (or a unique prefix), or a record file."),
             deal: Optional[int] = typer.Option(None, "--deal", help="Deal number (from 1)."),
             after: Optional[int] = typer.Option(None, "--after",
                                                 help="Show the table after K events (of the deal if --deal is given)."),
             seat: Optional[str] = typer.Option(None, "--seat",
                                                help="Seat whose view to show (0-3, N/E/S/W, P1.., a name); default all hands."),
             db: Optional[str] = typer.Option(None, "--db", help=DB_HELP),
             from_: Optional[str] = typer.Option(None, "--from", help="Format of a record file.")):
    """The table as text after event K (of deal N), from one seat's view or all hands."""
    from euchre_events.ui.describe import describe_event, state_text
    g, _ = _load_game_or_fail(db, game, from_)
    try:
        s = _parse_seat(seat, g.players)
    except typer.BadParameter as e:
        fail(f"--seat: {e}")
    # counted, linked and checked as the viewer and the HTML page count (one viewer model)
    from euchre_events.projections.viewer import ViewerModel
    model = ViewerModel(g)
    try:
        k = model.show_position(deal, after)
    except ValueError as e:
        fail(str(e))
    start = model.deal_span(deal)[0] if deal is not None else 0
    from euchre_events.projections.seat import event_visible, knowledge
    st = g.state_at(k)
    # a seat's view: everything shown comes from what that seat could know
    known = knowledge(g, k, s) if s is not None else None
    say(f"{g.title or g.id}  ({g.variant})")
    if deal is not None and k == start:
        # the table as the deal before it ended (its trump, maker and empty hands), or the game's start
        ended = f"the table as deal {deal - 1} ended" if deal > 1 else "the table as the game starts"
        say(f"Before deal {deal} begins (its first event is --after 1): {ended}")
    # events count from 1 in the deal and in the game: the viewer's link deal=N&event=K and
    # counter "deal N · event K / M" name this K (ViewerModel); the table's first line says it, once
    after_words = f"event {k - start} of deal {deal} (event {k} of the game)" \
        if deal is not None and k != start else None
    if k > 0:
        full = s is None or event_visible(g.events, k - 1, s, at=k)
        say(f"Last event: {describe_event(g.events[k - 1], g.players, st.dealer, seat=s, full=full)}")
    for line in state_text(st, s, knowledge=known, after=after_words).split("\n"):
        say(line)






































def audit_cmd(games: List[str], **options):
    """Renege audit and the official result: who reneged, where, the evidence,
    when it was established and provable, the claims and rulings, the penalty,
    and the official score and winner beside the score as played.

    JSON: per game ``official_score``, ``official_winner``, ``as_played_score``
    (= ``final_score``: the cards as played, no penalties), ``deals`` (one
    entry per deal) and ``findings``; each finding's ``score_if_penalized``
    is the final score with that renege alone penalized.  ``jsonl``: the
    same object per game, one per line.

    The report is written as the games are audited: a JSON Lines file of
    OpenSpiel games is read game by game (constant memory), and a bad line
    is named on stderr while the other games are audited (exit code 1).  An
    EGN file with an impossible deal is read in part: that deal is reported
    impossible and the other deals audited (exit code 1).
    """
    if run_audit(games, **options):
        raise typer.Exit(1)


def _with_parameters(fn, arguments: list, options: list):
    """``fn`` with the signature typer reads: ``arguments`` and ``options``
    as ``[(name, annotation, typer default)]`` (the options of ``audit``
    and ``analyze`` from their one table, by
    :func:`euchre_events.options.typer_parameters`)."""
    import inspect
    params = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=d, annotation=t)
              for n, t, d in arguments + options]
    fn.__signature__ = inspect.Signature(params)
    fn.__annotations__ = {n: t for n, t, _ in arguments + options}
    return fn


app.command("audit")(_with_parameters(audit_cmd, [("games", List[str], typer.Argument(..., help=GAMES_HELP))],
                                      typer_parameters(AUDIT_OPTIONS)))


def analyze_cmd(games: List[str], *, deal: Optional[List[int]], seat: Optional[str], samples: int, seed: int,
                face_up_only: bool, workers: Optional[int], report: str, output: Optional[str], line: Optional[int],
                all_games: bool, all_decisions: bool, from_: Optional[str], db: Optional[str],
                scheduler: Optional[str]):
    """What each decision was worth: every call, exchange and card valued face up
    (every hand visible, exact) and from the seat's own view (the unseen cards
    dealt --samples ways), the points and game-win chance lost, and the EGN
    label (?? blunder, ? mistake, ?! dubious, !? interesting, ! great,
    !! brilliant); a per-player accuracy. docs/analysis.md explains the method.
    """
    games = list(games or [])
    if not games and not all_games:
        fail("give a game id or a record file (or --all for the whole archive)")
    report = report_format(report, output)
    refuse_output_over_input(games, output, archive=lambda: archive_file(db), doing="analysed")
    run_analysis(games, deals=deal, seat=seat, samples=samples, seed=seed, face_up_only=face_up_only,
                 workers=workers, report=report, output=output, line=line, all_games=all_games,
                 all_decisions=all_decisions, from_=from_, db=db,
                 open_archive=lambda create=False: open_archive(db, create),
                 load=lambda item: _load_game(db, item, from_), read=lambda item: read_file(item, from_),
                 scheduler=scheduler)


app.command("analyze")(_with_parameters(
    analyze_cmd, [("games", List[str], typer.Argument(None, metavar="GAME|FILE...",
                                                      help="Stored game ids (or prefixes) or record files."))],
    typer_parameters(ANALYZE_OPTIONS)))


@app.command("explore")
def explore_cmd(variant: Optional[str] = typer.Option(None, "--variant", help="standard, two-handed, cutthroat..."),
                seat: Optional[str] = typer.Option(None, "--seat", help="From the dealer: dealer, eldest, partner, "
                                                                       "right (or 0..5)."),
                round_: Optional[int] = typer.Option(None, "--round", min=0, max=2,
                                                     help="1: the up-card's round, 2: naming a suit."),
                up_card: Optional[str] = typer.Option(None, "--up-card", help="The up-card (JH, J\u2665)."),
                up_rank: Optional[str] = typer.Option(None, "--up-rank", help="Its rank only (9, 10, J, Q, K, A)."),
                up_suit: Optional[str] = typer.Option(None, "--up-suit", help="Its suit only (H, hearts)."),
                bowers: Optional[int] = typer.Option(None, "--bowers", min=0, max=4,
                                                     help="Bowers held (of the up-card's suit)."),
                right_bower: Optional[bool] = typer.Option(None, "--right-bower/--no-right-bower",
                                                           help="Holding the right bower or not."),
                left_bower: Optional[bool] = typer.Option(None, "--left-bower/--no-left-bower",
                                                          help="Holding the left bower or not."),
                trumps: Optional[int] = typer.Option(None, "--trumps", min=0, help="Trumps held, bowers in."),
                off_aces: Optional[int] = typer.Option(None, "--off-aces", min=0, help="Aces of other suits held."),
                score: Optional[str] = typer.Option(None, "--score", help="US-THEM before the deal (8-9)."),
                samples: Optional[int] = typer.Option(None, "--samples", min=1,
                                                      help="Use the analyses with this many samples."),
                face_up_only: bool = typer.Option(False, "--face-up-only", help="Use the face-up-only analyses."),
                seed: int = typer.Option(0, "--seed", min=0, help="Seed of the analyses to use."),
                report: str = typer.Option("text", "--format", "-f", help="text, json or html (needs -o)."),
                output: Optional[str] = typer.Option(None, "--output", "-o", help="Write the report to this file."),
                db: Optional[str] = typer.Option(None, "--db", help=DB_HELP)):
    """The archive's auction decisions in one situation (variant, seat from the
    dealer, up-card, trump held, score): what players did, how often, what
    they scored, and what the analysis says of each option.  The analysed
    games only (euchre-events analyze --all fills them); docs/analysis.md.
    """
    from euchre_events.review import explore_filters, run_explore
    report = report_format(report, output)
    filters = explore_filters(variant=variant, seat=seat, round_=round_, up_card=up_card, up_rank=up_rank,
                              up_suit=up_suit, bowers=bowers, right_bower=right_bower, left_bower=left_bower,
                              trumps=trumps, off_aces=off_aces, score=score)
    refuse_output_over_input([], output, archive=lambda: archive_file(db), doing="explored")
    run_explore(filters, report=report, output=output, samples=samples, face_up_only=face_up_only, seed=seed,
                open_archive=lambda: open_archive(db))


@app.command("drill")
def drill_cmd(player: Optional[str] = typer.Option(None, "--player",
                                                  help="Drills from this player's decisions (the name as the "
                                                       "records give it, any case); default: every player's."),
              variant: Optional[str] = typer.Option(None, "--variant", help="Only games of this variant."),
              db: Optional[str] = typer.Option(None, "--db", help=DB_HELP),
              port: int = typer.Option(8866, "--port", help="Port on 127.0.0.1."),
              no_browser: bool = typer.Option(False, "--no-browser", help="Do not open a browser; print the address."),
              list_: bool = typer.Option(False, "--list", help="Print the drills and the progress line instead "
                                                               "of serving the page.")):
    """Practise on your own mistakes: a page (Voila on 127.0.0.1) with the positions of the
    archive's analysed games where the player lost 1 point or more with every hand visible
    and 0.25 or more from the seat's view. The table shows what the seat could see; click a
    card or a call; the answer comes with the values. A drill answered right comes back less
    often, one answered wrong sooner: the answers are kept in the archive. Make the analyses
    first with analyze --all.
    """
    from euchre_events.archive import is_postgres_url, sqlite_file
    from euchre_events.archive.drills import NO_ANALYSIS_HINT, DrillSet
    arch = open_archive(db)
    try:
        drills = DrillSet(arch, player=player, variant=variant)
    except ValueError as e:
        fail(f"--variant {variant}: {e}")
    except Exception as e:   # an archive that cannot be read: said, never a traceback
        fail(f"{arch.db or 'the archive'}: cannot read the analyses ({short_error(e)})")
    whose = f" with a player named {player!r}" if player else ""
    kind = f" of {variant}" if variant else ""
    if not drills.analysed:
        msg = f"no analysed game{kind}{whose} in the archive yet: {NO_ANALYSIS_HINT}"
        if player:      # analysed games there may be: the name is what matched none
            try:
                n = DrillSet(arch, variant=variant).analysed
            except Exception:   # noqa: BLE001 (the first message stands)
                n = 0
            if n:
                msg = (f"no player named {player!r} in the {n} analysed game{'s' if n != 1 else ''}{kind} "
                       f"of the archive (the name as the records give it, any case; euchre-events list "
                       f"shows the players)")
        if list_:       # an empty list is no failure: it says what to do
            say(msg, err=True)
            return
        fail(msg)
    if list_ or not drills.exercises:
        if not drills.exercises:
            say(f"no drill in the {drills.analysed} analysed game{'s' if drills.analysed != 1 else ''}{kind}"
                 f"{whose}: no decision lost 1 point or more with every hand visible and 0.25 or more "
                 f"from the seat's view", err=True)
            return
        _print_drills(arch, drills)
        return
    _need_voila("drill")
    env = {"EUCHRE_EVENTS_DRILL_PLAYER": player or "", "EUCHRE_EVENTS_DRILL_VARIANT": variant or ""}
    if is_postgres_url(db):
        env["EUCHRE_EVENTS_DB"] = db
        _run_voila(notebook="drill.ipynb", port=port, env=env, open_browser=not no_browser)
        return
    _run_voila(notebook="drill.ipynb", port=port, db=sqlite_file(db), env=env, open_browser=not no_browser)


def _print_drills(arch, drills) -> None:
    """``drill --list``: one line per drill (not its answer), then the progress line."""
    from datetime import datetime, timezone
    from euchre_events.rules.seats import seat_letter, seat_word
    from euchre_events.ui.analysisreport import pretty_action
    from euchre_events.ui.describe import printable
    now = datetime.now(timezone.utc)
    for i, ex in enumerate(drills.exercises, 1):
        due = drills.due(ex)
        when = ("new" if due is None else "due now" if due <= now
                else f"due {due.astimezone().strftime('%Y-%m-%d %H:%M')}")
        say(f"{i}. {printable(ex.title) or '-'}, deal {ex.deal}, event {ex.position + 1}: "
             f"{seat_word(ex.seat, ex.n_seats)} ({printable(ex.player)}) {ex.kind}, played "
             f"{pretty_action(ex.played, ex.seat, ex.dealer)}: lost {ex.face_up_cost:g} with every hand visible, "
             f"{ex.seat_view_cost:.2f} from the seat's view{' ' + ex.label if ex.label else ''}; {when}"
             f"  (the table: euchre-events show {ex.game_id[:8]} --after {ex.position} "
             f"--seat {seat_letter(ex.seat, ex.n_seats)})")
    say(drills.progress().line())


def _export_html(g, notes, variations, with_derived=False, analysis=None):
    """``export --format html``: the self-contained replay page (ui.htmlexport);
    with ``analysis`` (``--with-analysis``) the analysis at the table."""
    from euchre_events.formats import Exported
    from euchre_events.ui.htmlexport import export_page
    return Exported(export_page(g, annotations=notes, variations=variations, analysis=analysis), [])


def _exports() -> dict:
    """``export``'s writers: the one-game writers of :data:`FORMAT_TABLE`
    (each ``(game, notes, variations, with_derived) -> Exported``), ``emn``
    (several games: :func:`_export_emn`) and ``html`` (the replay page)."""
    table = {}
    for name in WRITTEN:
        w = FORMAT_TABLE[name].write
        table[name] = (lambda w: lambda g, n, v, d: w(g.events, n, v, d))(w) if w else None
    table["html"] = _export_html
    return table


_EXPORTS = _exports()
_EXPORT_NAMES = ", ".join(list(_EXPORTS)[:-1]) + " or " + list(_EXPORTS)[-1]
"""``"egn, egnb, egnb-expanded, emn, text, json or html"``: export's help and errors."""


@app.command("export")
def export_cmd(games: List[str] = typer.Argument(None, metavar="GAME...",
                                                 help="Stored game id (or prefix), or a record file; "
                                                      "several only with --format emn."),
               fmt: str = typer.Option("json", "--format", "-f", help=f"{_EXPORT_NAMES}."),
               output: Optional[str] = typer.Option(None, "--output", "-o", help="Output file (default: stdout; required for html)."),
               db: Optional[str] = typer.Option(None, "--db", help=DB_HELP),
               from_: Optional[str] = typer.Option(None, "--from", help="Format of a record file."),
               with_derived: bool = typer.Option(False, "--with-derived",
                                                 help="EGN and EMN: also write what we work out from the play "
                                                      "(finalScore, dealt hands rebuilt from the cards played). "
                                                      "Without it a game read from EGN is written back as it was read."),
               match: Optional[str] = typer.Option(None, "--match",
                                                   help="With --format emn: the stored games of this EMN match "
                                                        "(its matchId or title), in match order."),
               with_analysis: bool = typer.Option(False, "--with-analysis",
                                                  help="EGN, text, JSON: add the analysis's labels and a one-line "
                                                       "reason to each marked call and play, as annotations "
                                                       "marked as the engine's, beside a person's (analyze "
                                                       "explains the method). HTML: the page shows the analysis "
                                                       "at the table (labels, costs, par, evaluation graph)."),
               samples: int = typer.Option(200, "--samples", min=1, max=100000,
                                           help="With --with-analysis: imagined deals per decision."),
               face_up_only: bool = typer.Option(False, "--face-up-only",
                                                 help="With --with-analysis: face-up values only (fast).")):
    """Write a game as EGN, our text notation, our JSON, or a self-contained HTML replay;
    several games (or a stored match) as one EMN match.

    A game read from EGN is written back as it was read (the same EGN baseline,
    annotation labels and unknown keys as in the file); what cannot be kept is said on stderr.
    """
    fmt = fmt.lower()
    games = list(games or [])
    # never onto what is read: a record file named, or the archive
    refuse_output_over_input(games, output, archive=lambda: archive_file(db), doing="exported")
    if fmt == "emn" or match:
        if fmt != "emn":
            fail("--match goes with --format emn")
        _export_emn(games, match, output, db, from_, with_derived)
        return
    if len(games) != 1:
        fail("give one game to export" if not games else
              f"{len(games)} games given: only --format emn writes several games (one match)")
    game = games[0]
    g, rec = _load_game_or_fail(db, game, from_)
    notes, variations = [], []
    if rec is not None:
        notes, variations = rec.annotations, rec.variations
    else:
        arch = open_archive(db)
        notes, variations = _stored_notes(arch, g.id)
        added = arch.added_sources(g.id)    # player ids, the match: what later copies added
        if added:
            from euchre_events.archive.sources import with_added_sources
            from euchre_events.projections import Game
            g = Game(with_added_sources(g.events, added), game_id=g.id)
    analysis = None
    if with_analysis and fmt == "html":
        # the page shows the analysis at the table (badges, labels, par, graph): issue 22
        from euchre_events.review import game_analysis
        analysis = game_analysis(g, None if rec is not None else g.id, samples=samples,
                                 face_up_only=face_up_only, open_archive=lambda: open_archive(db))
    elif with_analysis:
        if fmt not in ("egn", "text", "json"):
            fail(f"--with-analysis goes with --format egn, text, json or html (not {fmt})")
        from euchre_events.review import analysis_notes
        notes = list(notes) + analysis_notes(g, None if rec is not None else g.id, samples=samples,
                                             face_up_only=face_up_only,
                                             open_archive=lambda: open_archive(db))
    _check_output(output)
    write = _EXPORTS.get(fmt)
    if write is None:
        fail(f"unknown format {fmt!r}: expected {_EXPORT_NAMES}")
    binary = fmt in FORMAT_TABLE and FORMAT_TABLE[fmt].binary
    if (binary or fmt == "html") and not output:
        fail(f"--format {fmt} needs -o FILE" + (" (binary output)" if binary else ""))
    try:
        out = (write(g, notes, variations, with_derived) if analysis is None
               else _export_html(g, notes, variations, analysis=analysis))
    except ValueError as e:
        fail(f"cannot write this game as {FORMAT_TABLE[fmt].title if fmt in FORMAT_TABLE else fmt}: {e}")
    _say_lost(out.lost)
    if fmt in FORMAT_TABLE and not binary:
        _write_text(out.data, output, fmt, from_)
    elif write_file(output, out.data):
        (typer.echo if binary else say)(output)




def _stored_notes(arch, game_id) -> tuple:
    """``(annotations, variations)`` of a stored game, as the writers take them."""
    notes = [{"position": a["position"], "text": a["text"], "mark": a.get("mark")}
             for a in arch.annotations(game_id)]
    variations = [{"position": v["position"], "events": v["events"],
                   "annotations": v["annotations"], "comment": v["comment"]}
                  for v in arch.variations(game_id)]
    return notes, variations


def _check_output(output: Optional[str]) -> None:
    from euchre_events.console import output_problem
    problem = output_problem(output) if output else None
    if problem:
        fail(f"{output}: {problem}")


def _say_lost(lost: list) -> None:
    for w in lost:   # what EGN cannot hold, or what could not be kept as read
        say(f"warning: EGN cannot hold everything of this game: {w}", err=True)


def _write_text(text: str, output: Optional[str], fmt: str, from_: Optional[str] = None) -> None:
    """``text`` to ``output`` (or stdout); a file name that ``import`` would
    not read as ``fmt`` is written, with a note saying how to read it back."""
    if output:
        if not write_file(output, text):
            return      # a pipe or a device written through: no file to read back, no name to say
        try:
            back = detect_format(output)
        except RecordError:
            back = None
        f = FORMAT_TABLE.get(fmt)
        want = fmt if f is not None and f.read is not None and not f.binary else None
        if want and back != want and not (want == "json" and back is None):
            say(f"note: import reads {os.path.basename(output)} back only with --from {want} "
                 f"(its name does not say {want})", err=True)
        typer.echo(output)
    else:   # the bytes -o writes: the text's own last newline, not a second one
        typer.echo(text, nl=not text.endswith("\n"))


def _export_emn(games: List[str], match: Optional[str], output: Optional[str], db: Optional[str],
                from_: Optional[str], with_derived: bool) -> None:
    """``export --format emn``: the games named (stored ids or record files,
    each file with all its games), or the stored games of ``--match``, as
    one EMN match."""
    from euchre_events.archive import ArchiveError
    from euchre_events.formats import write_emn_match
    items: list = []    # (events, annotations, variations)
    arch = None
    if match:
        arch = open_archive(db)
        found = _match_games(arch, match)
        if not found:
            fail(f"no stored game belongs to the match {match!r} (give its matchId or title)")
        for gid in found:
            items.append((arch.game_events(gid, with_sources=True),) + _stored_notes(arch, gid))
    for name in games:
        if os.path.exists(name) or name.lower().endswith(_record_suffixes()):
            records, errors = read_file(name, from_)
            if errors:
                fail(str(errors[0]))
            items += [(r.events, r.annotations, r.variations) for r in records]
            continue
        try:
            arch = arch or open_archive(db)
            gid = arch.resolve(name)
            items.append((arch.game_events(gid, with_sources=True),) + _stored_notes(arch, gid))
        except ArchiveError as e:
            fail(str(e))
    if not items:
        fail("give the games of the match (stored ids or record files), or --match NAME")
    _check_output(output)
    try:
        out = write_emn_match(items, with_derived)
    except ValueError as e:
        fail(f"cannot write these games as EMN: {e}")
    _say_lost(out.lost)
    _write_text(out.data, output, "emn")


def _record_suffixes() -> tuple:
    from euchre_events.formats import RECORD_SUFFIXES
    return RECORD_SUFFIXES


def _match_games(arch, name: str) -> list:
    """Stored game ids of the EMN match whose matchId (or else title) is
    ``name`` (as a person types it: any case), in match order (``gameIndex``)."""
    found = []
    for gid in arch.game_ids():
        try:
            first = next(iter(arch.events.get(gid, limit=1)))
        except Exception:   # a damaged game is not part of any match we can write
            continue
        src = getattr(getattr(first, "event", None), "source", None)
        m = src.get("match") if isinstance(src, dict) else None
        if not isinstance(m, dict):   # a match copy imported after the game's own file
            from euchre_events.archive import merge_sources
            try:
                m = merge_sources(src, arch.added_sources(gid)).get("match")
            except Exception:
                m = None
        if isinstance(m, dict) and name.casefold() in (str(m.get("matchId") or "").casefold(),
                                                       str(m.get("title") or "").casefold()):
            found.append((m.get("gameIndex", 0), len(found), gid))
    return [gid for _, _, gid in sorted(found)]


@app.command("serve")
def serve_cmd(port: int = typer.Option(8866, "--port", help="Port on 127.0.0.1."),
              notebook: Optional[str] = typer.Option(None, "--notebook", help="Notebook to serve (default: the review notebook)."),
              db: Optional[str] = typer.Option(None, "--db", help=DB_HELP),
              record: Optional[str] = typer.Option(None, "--record", help="A record file to review (opens at its first deal; an EGN file with an impossible deal opens deal by deal).")):
    """Start Voila on the review notebook at http://127.0.0.1:PORT (no code needed).

    The app opens the games of the archive (--db, $EUCHRE_EVENTS_DB, or
    ./euchre-events.sqlite) with a game picker, and keeps the notes and
    variations saved there; --record FILE imports that record and opens it.
    A busy port moves on to the next free one: the address printed is the
    one to open."""
    _need_voila("serve")
    from euchre_events.archive import is_postgres_url, sqlite_file
    if db is None:
        # the archive the other commands use ($EUCHRE_EVENTS_DB, else ./euchre-events.sqlite),
        # made absolute here: the app's kernel runs in the notebooks' folder
        db = sqlite_file(None) or os.environ.get("EUCHRE_EVENTS_DB")
    if is_postgres_url(db):   # a URL is no file to make absolute: the notebook reads it as it is
        _run_voila(notebook=notebook, port=port, env={"EUCHRE_EVENTS_DB": db}, record=record)
        return
    _run_voila(notebook=notebook, port=port, db=db, record=record)


@app.command("version")
def version_cmd():
    """Print the version."""
    typer.echo(euchre_events.__version__)


# --- shipping: what a user of the installed wheel has (the notebooks, the samples) ---

def _need_voila(command: str) -> None:
    """Exit 1 with the install command that fits this installation if Voila is missing."""
    import importlib.util
    from euchre_events.samples import install_hint
    if importlib.util.find_spec("voila") is None:
        fail(f"{command} needs Voila, in the app extra: {install_hint('app')}")


def _run_voila(**kwargs) -> None:
    """Serve a notebook with Voila until Ctrl-C; a missing notebook is a one-line error."""
    from euchre_events.ui.serve import serve
    try:
        rc = serve(**kwargs)
    except (FileNotFoundError, ValueError) as e:
        fail(str(e))
    if isinstance(rc, int) and rc > 0:   # Voila failed (a signal that stopped it is not a failure)
        raise typer.Exit(rc)


def _tutorial_name(variant: str) -> str:
    """``tutorial-<variant>.ipynb`` for a variant name or alias (``two_handed``, ``ghost``...)."""
    from euchre_events.rules.registry import VARIANT_CLASSES, variant_class
    from euchre_events.samples import DataMissing, notebook
    try:
        name = variant_class(variant.strip().lower()).name
    except ValueError:
        fail(f"no tutorial for {variant!r}; there is one per variant: "
              f"{', '.join(c.name for c in VARIANT_CLASSES)}")
    try:
        return notebook(f"tutorial-{name}").name
    except DataMissing as e:
        fail(str(e))


@app.command("tutorial")
def tutorial_cmd(variant: str = typer.Argument("standard", help="The variant: standard, two-handed, cutthroat, "
                                               "ghost-hand, buck or bid (or an alias)."),
                 copy: Optional[str] = typer.Option(None, "--copy", metavar="DIR",
                                                    help="Write an editable copy of the notebook (and rules.md) "
                                                         "into DIR for JupyterLab, instead of serving it."),
                 force: bool = typer.Option(False, "--force", help="With --copy: overwrite files already in DIR."),
                 port: int = typer.Option(8866, "--port", help="Port on 127.0.0.1."),
                 no_browser: bool = typer.Option(False, "--no-browser", help="Do not open a browser; print the address.")):
    """Open a variant's rules tutorial as an app in the browser (Voila on 127.0.0.1), or copy it with --copy DIR."""
    import shutil
    from pathlib import Path
    from euchre_events.samples import DataMissing, install_hint, notebook, rules_reference
    name = _tutorial_name(variant)
    if copy is None:
        _need_voila("tutorial")
        _run_voila(notebook=name, port=port, open_browser=not no_browser)
        return
    dest = Path(copy)
    if dest.exists() and not dest.is_dir():
        fail(f"{dest}: exists and is not a folder")
    try:
        pairs = [(notebook(name), dest / name), (rules_reference(), dest / "rules.md")]
    except DataMissing as e:
        fail(str(e))
    # never overwrite a teacher's edited copy unless asked
    clash = [str(t) for s, t in pairs if t.exists() and t.read_bytes() != s.read_bytes()]
    if clash and not force:
        fail(f"would overwrite {', '.join(clash)} (give --force to overwrite)")
    try:
        dest.mkdir(parents=True, exist_ok=True)
        for src, target in pairs:
            shutil.copyfile(src, target)
    except OSError as e:
        fail(f"{dest}: cannot write: {e.strerror or e}")
    for _, target in pairs:
        typer.echo(str(target))
    typer.echo(f"open it with: jupyter lab {_shell_quote(str(dest / name))}  "
               f"(JupyterLab and the widgets: {install_hint('app', also='jupyterlab')})", err=True)


def _shell_quote(text: str) -> str:
    """``text`` quoted for a shell command line (for the hints printed to the user)."""
    import shlex
    return shlex.quote(text)


@app.command("samples")
def samples_cmd(dest: str = typer.Argument(..., metavar="DIR", help="Folder to write the records into (created if missing)."),
                force: bool = typer.Option(False, "--force", help="Overwrite sample files already in DIR.")):
    """Write the sample records (real EGN games with their licence, one game per variant) into DIR."""
    from euchre_events.samples import DataMissing, copy_samples
    try:
        written = copy_samples(dest, force=force)
    except (DataMissing, FileExistsError, NotADirectoryError) as e:
        fail(str(e))
    except OSError as e:
        fail(f"{dest}: cannot write: {e.strerror or e}")
    for p in written:
        typer.echo(str(p))
    first = _shell_quote(os.path.join(dest, "egn", "VWEC Finals.egn"))
    typer.echo(f"try: euchre-events import {first} && euchre-events list && euchre-events audit {first}",
               err=True)


@app.command("verify")
def verify_cmd(games: List[str] = typer.Argument(None, help="Stored game ids (or unique prefixes)."),
               all_: bool = typer.Option(False, "--all", help="Verify every stored game."),
               db: Optional[str] = typer.Option(None, "--db", help=DB_HELP)):
    """Tamper evidence: recompute each game's hash chain from the stored rows.

    One line per game: ``intact, N events``; ``event K was changed``
    (removed, inserted, cannot be read...); or ``no chain`` for a game
    stored before tamper evidence (release 0.1.0 and before this check).
    Event K counts from 1 (the game's start).  Exit status 1 if any game is
    damaged or unknown.
    """
    from euchre_events.archive import ArchiveError
    if not games and not all_:
        fail("give a game id, or --all")
    arch = open_archive(db)
    bad = 0
    try:
        refs = arch.stream_ids() if all_ else list(games)
    except Exception as e:  # a damaged database page under the log itself
        fail(f"{arch.db or 'the archive'}: cannot list the stored games ({short_error(e)})")
    for ref in refs:
        try:
            r = arch.verify(ref)
        except ArchiveError as e:
            say(f"error: {e}", err=True)
            bad += 1
            continue
        except Exception as e:  # never a traceback: the archive itself may be damaged
            say(f"{ref}  -: cannot be read from the archive ({short_error(e)})")
            bad += 1
            continue
        say(f"{r.game_id}  {r.title or '-'}: {r.describe()}")
        bad += not r.ok
    if bad:
        raise typer.Exit(1)


@app.command("record")
def record_cmd(game: str = typer.Argument(..., help="Stored game id (or a unique prefix) of a game begun live, "
                                                  "or 'new' to start one (the first event a GameStarted)."),
               events: List[str] = typer.Argument(..., help="Events as JSON objects, e.g. "
                                                  "'{\"type\": \"Passed\", \"seat\": 1}'."),
               position: Optional[int] = typer.Option(None, "--position",
                                                      help="The number of events you have seen (the last event "
                                                           "number record or show printed): the first event "
                                                           "goes after them; someone else there first is an error."),
               db: Optional[str] = typer.Option(None, "--db", help=DB_HELP)):
    """Record a live game event by event (Archive.record), or add a claim or
    a director's ruling (RenegeClaimed, RenegeRuled) to a game imported whole.

    Each event is checked by the rules engine before it is stored, and
    stored with its link of the game's hash chain.  With --position, an
    event someone else recorded at that position first is reported, and
    nothing of yours is stored: run show, then record again.  Prints
    ``event K: Kind`` per event stored (and the new game's id), K counted
    from 1 as every command counts events (show --after K shows the table
    after it, verify names event K); the next --position is the last K.
    """
    import json as _json
    from euchre_events.archive import ArchiveError
    from euchre_events.events import event_from_dict
    from euchre_events.rules.table import ImpossibleEvent
    parsed = []
    for i, text in enumerate(events, 1):
        try:
            parsed.append(event_from_dict(_json.loads(text)))
        except (ValueError, TypeError, KeyError) as e:
            import re as _re
            m = _re.search(r"(\w+)\.__init__\(\) missing \d+ required positional arguments?: (.*)", str(e))
            why = (f"a {m.group(1)} needs {m.group(2).replace(chr(39), '')}" if m
                   else str(e).splitlines()[0][:200] if str(e) else type(e).__name__)
            fail(f"event {i}: not an event ({why})")
    arch = open_archive(db, create=game == "new")
    gid = None if game == "new" else game
    at = position
    stored: list = []

    def named(text: str) -> str:   # seats as people say them (rules/seats.name_seats)
        from euchre_events.rules.seats import name_seats
        try:
            g = arch.load(gid)
            return name_seats(text, g.players, g.final.variant.n_seats)
        except Exception:
            return text
    try:
        for i, ev in enumerate(parsed, 1):
            if gid is None:
                if ev.kind != "GameStarted":
                    fail("a new game starts with a GameStarted event")
                gid = str(arch.start_game(ev))
                say(f"game {gid}")
                pos = 0
            else:
                pos = arch.record(gid, ev, position=at)
            stored.append(pos)
            say(f"event {pos + 1}: {ev.kind}")    # counted from 1, as show --after and verify count
            at = None if at is None else pos + 1
    except ImpossibleEvent as e:
        fail(f"game {gid}: refused, not stored: {named(str(e))}")
    except ArchiveError as e:   # WriteConflict, unknown game, a game imported whole
        fail(str(e))
    finally:
        # what the rules flag in what was stored (a play out of turn, a deal after the
        # game was won): kept, as a real record keeps it, and said to the scorer now
        if stored and gid is not None:
            try:
                g = arch.load(gid)
                for f in g.final.flags:
                    if f.position in stored:
                        say(f"warning: event {f.position + 1}: {f.kind}: "
                             f"{named(f.text)}", err=True)
                # a claim is judged by the rules at once (rules.md 1.5): the table hears the verdict
                for c in g.final.claims:
                    if c.position in stored:
                        say(f"event {c.position + 1}: the rules judge this claim {c.verdict}: "
                             f"{named(c.reason)}")
            except Exception:
                pass


def _print_version(value: bool) -> None:
    if value:
        typer.echo(euchre_events.__version__)
        raise typer.Exit()


@app.callback()
def _options(version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                          help="Print the version (from the package metadata) and exit.")):
    # the options that come before any command
    pass


# ------------------------------------------------------------------ help for people
# Applied to every command once they are all defined, so that a command added
# later (or changed on another branch) gets the same treatment: metavars in
# words instead of typer's <str>/<int>, docstrings without reST markup, and
# examples at the end of each command's help.

EXAMPLES = {
    "import": ['euchre-events import "egn/VWEC Finals.egn"',
               "euchre-events import egn/ standard/ two-handed/",
               "euchre-events import egn/ 'standard/*.euchre' --db club.sqlite",
               "euchre-events import standard/club-night-1.euchre --from text"],
    "list": ["euchre-events list", "euchre-events list --variant two-handed --player dot",
             "euchre-events list --json"],
    "show": ["euchre-events show 0760 --deal 3 --after 12", "euchre-events show 0760 --deal 3 --seat E",
             "euchre-events show two-handed/parlour-2.euchre --deal 2 --after 3"],
    "audit": ['euchre-events audit "egn/VWEC Finals.egn"', "euchre-events audit 0760 --format json",
              "euchre-events audit e47b --format html -o dispute.html"],
    "export": ["euchre-events export 0760 --format html -o game.html",
               "euchre-events export 0760 --format egn -o game.egn",
               "euchre-events export standard/club-night-1.euchre --format text -o club-night.text",
               "euchre-events export 0760 13ed --format emn -o match.emn"],
    "serve": ["euchre-events serve", 'euchre-events serve --port 8900 --record "egn/VWEC Finals.egn"'],
    "version": ["euchre-events version", "euchre-events --version"],
    "tutorial": ["euchre-events tutorial two-handed", "euchre-events tutorial bid --copy lessons"],
    "samples": ["euchre-events samples recs"],
    "verify": ["euchre-events verify --all", "euchre-events verify 0760"],
    "stats": ["euchre-events stats", "euchre-events stats --player llama --format json",
              "euchre-events stats --variant standard --format html -o club.html",
              "euchre-events stats --db club.sqlite"],
    "rebuild": ["euchre-events rebuild", "euchre-events rebuild --db club.sqlite"],
    "explore": ["euchre-events explore --variant standard --seat dealer --round 1",
                "euchre-events explore --seat eldest --up-card JH --format json"],
    "analyze": ['euchre-events analyze "egn/VWEC Finals.egn" --deal 2 --face-up-only',
                "euchre-events analyze two-handed/parlour-2.euchre --deal 1 --samples 20 --format json",
                "euchre-events analyze 0760 --deal 5 --face-up-only --format html -o review.html"],
    "drill": ["euchre-events drill --list", "euchre-events drill --player Llama --variant standard --list",
              "euchre-events drill --player Llama"],
    "record": ["euchre-events record 0760 '{\"type\": \"RenegeClaimed\", \"by\": 0, \"against\": 1, "
               "\"deal\": 13, \"trick\": 2}'"],
}
"""Examples shown at the end of each command's ``--help``, as they run in the
folder ``euchre-events samples recs`` writes (``cd recs``), after the import
examples (0760, 13ed, e47b: the start of the ids ``import`` prints for the VWEC
final, Epic 0-7 Comeback and parlour game 2; tests/test_cli.py
runs each one)."""

EXAMPLES_WHERE = ("Examples (in the folder 'euchre-events samples recs' writes: cd recs; "
                  "0760 is the start of the id import prints for the VWEC final):")

_METAVARS = {"position": "N", "db": "FILE", "from_": "FORMAT", "fmt": "FORMAT", "output": "FILE", "deal": "N",
             "after": "K", "seat": "SEAT", "port": "PORT", "notebook": "NAME_OR_PATH",
             "variant": "VARIANT", "player": "NAME", "game": "GAME", "games": "GAME...",
             "paths": "FILE...", "copy": "DIR", "dest": "DIR", "workers": "N"}


def _plain(text: str) -> str:
    """Help text without reST markup: ``x`` and :func:`a.b.c` read x and c."""
    import re
    text = re.sub(r":[a-z]+:`~?(?:[\w.]+\.)?([\w]+)`", r"\1", text)
    return text.replace("``", "")


def _argument_usage(self) -> str:
    """An argument in the usage line as click writes it: ``GAME``,
    ``[VARIANT]``, ``FILE...`` (typer 0.2x writes ``{GAME}``)."""
    name = self.metavar or self.name.upper()
    many = self.nargs != 1 or name.endswith("...")
    name = name.rstrip(".") + ("..." if many else "")
    return name if self.required else f"[{name}]"


def _typer_plain_arguments() -> None:
    """Arguments in the help without typer's type suffix (``GAME <str>``):
    typer has no setting for it, so its two display methods are replaced,
    if this typer has them (tests/test_cli_output.py checks the help)."""
    from typer import core
    cls = getattr(core, "TyperArgument", None)
    if cls is not None and hasattr(cls, "display_type_rich") and hasattr(cls, "_usage_display_name"):
        cls.display_type_rich = lambda self, ctx=None: None
        cls._usage_display_name = _argument_usage


def _people_help(application: typer.Typer) -> None:
    import inspect
    _typer_plain_arguments()
    for info in application.registered_commands:
        name = info.name or info.callback.__name__
        doc = _plain(inspect.cleandoc(info.help or info.callback.__doc__ or ""))
        if name in EXAMPLES and not info.epilog:
            # the epilog: the help ends with the examples, after the options;
            # \b: click keeps the lines of that paragraph as written
            info.epilog = f"{EXAMPLES_WHERE}\n\n\b\n" + "\n".join("  " + ex for ex in EXAMPLES[name])
        info.help = doc
        for pname, param in inspect.signature(info.callback).parameters.items():
            default = param.default
            if not hasattr(default, "metavar"):
                continue
            if default.help:
                default.help = _plain(default.help)
            if default.metavar is None and param.annotation not in (bool, "bool"):
                default.metavar = _METAVARS.get(pname, pname.strip("_").upper())


_people_help(app)


def main() -> None:
    """The command-line application (:mod:`euchre_events.__main__` calls it
    for every command line :func:`euchre_events.batch.quick_audit` leaves;
    an audit given here runs that door too, the same code)."""
    from euchre_events.batch import quick_audit
    code = quick_audit(sys.argv[1:])
    if code is not None:
        sys.exit(code)
    app()


if __name__ == "__main__":
    main()
