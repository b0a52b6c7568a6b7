"""Every fixture record, every variant, through every format ``export``
writes that reads back (issue 24, task "door"): written, saved under the
format's suffix, read back with the format's reader, and compared with the
original.  A ``.egnb`` of ``club-night-1`` once exported with exit code 0 and
then could not be read ("packed deal 2 ... no end marker"): a packed deal
cannot hold an alternative line that stops inside a trick.

What each format holds (and so what is compared):

* ``text`` and ``json`` (our own): everything; the events (the
  ``GameStarted`` without its ``source``, which names the file read),
  the annotations and the alternative lines, nested ones and comments too;
* ``egn``, ``egnb``, ``egnb-expanded``: standard Euchre only (another
  variant is refused with ``ValueError``, before anything is written); the
  folded game (the options resolved, the scores, the winner) and the calls
  and plays; what EGN has no place for is left out with a warning, and
  only that: the kitty (``??`` when read back), an annotation not on a call
  or a play, a line's comment and nested lines;
* ``egnb`` (bit-packed deals) holds what ``egn`` holds, but an alternative
  line that stops inside the bidding or a trick: each one left out is
  warned about, the others come back as the ``.egn`` gives them.
"""
from __future__ import annotations

import dataclasses
import glob
import os

import pytest
from conftest import FIXTURES

from euchre_events.formats import FORMAT_TABLE, read_records
from euchre_events.projections import Game

NOT_RECORDS = ("invalid1.json", "invalid2.json", "egn-schema-v1.json", "emn-schema-v1.json",
               "test.egn", "test_annotated.egn")
"""Files under fixtures/ that are not games that can have happened: the EGN
project's schemas, two files its tests use as not EGN at all, and two games
that break follow-suit, which every reader refuses (tests/test_egn.py)."""

RECORDS = sorted(
    os.path.relpath(p, FIXTURES) for p in glob.glob(os.path.join(FIXTURES, "**", "*"), recursive=True)
    if p.endswith((".euchre", ".egn", ".emn", ".jsonl", ".eej", ".json", ".egnb"))
    and os.path.basename(p) not in NOT_RECORDS)
WRITTEN = sorted(n for n, f in FORMAT_TABLE.items() if f.write is not None)
EGN_FAMILY = ("egn", "egnb", "egnb-expanded")
SUFFIX = {"egnb-expanded": ".expanded.egnb"}
HOUSE_MOVES = {"WentAlone", "UpCardDeclined"}
"""Moves of standard Euchre's house rules that EGN has no call for (going
alone after the exchange, the dealer leaving the up-card): EGN refuses
such a game."""


def _write_and_read(rec, fmt: str, tmp_path) -> tuple:
    """``(record read back, warnings of what was left out)``."""
    f = FORMAT_TABLE[fmt]
    out = f.write(rec.events, rec.annotations, rec.variations)
    path = tmp_path / ("back" + (SUFFIX.get(fmt) or f.suffixes[0]))
    (path.write_bytes if f.binary else path.write_text)(out.data)
    (back,) = read_records(str(path))
    return back, out.lost


def _events(evs: list, kitty_lost: bool = False) -> list:
    """Events as compared: the GameStarted without its source; with
    ``kitty_lost``, each kitty card unknown."""
    out = []
    for e in evs:
        if e.kind == "GameStarted":
            e = dataclasses.replace(e, source={}, options={})
        elif e.kind == "CardsDealt" and kitty_lost:
            e = dataclasses.replace(e, kitty=tuple("??" for _ in e.kitty))
        out.append(e)
    return out


def _lines(variations: list) -> list:
    """Alternative lines as EGN holds them: no comment, no nested lines."""
    return [{k: v for k, v in x.items() if k not in ("comment", "variations")} for x in variations]


def test_every_variant_and_format_is_covered():
    variants = {read_records(os.path.join(FIXTURES, p))[0].events[0].variant for p in RECORDS}
    assert variants == {"standard", "bid", "buck", "cutthroat", "ghost-hand", "two-handed"}, variants
    assert {"text", "json", "egn", "egnb", "egnb-expanded"} <= set(WRITTEN)
    assert len(RECORDS) >= 90


@pytest.mark.parametrize("fmt", WRITTEN)
@pytest.mark.parametrize("name", RECORDS)
def test_record_reads_back_from_every_format(name, fmt, tmp_path):
    for rec in read_records(os.path.join(FIXTURES, name)):
        start = rec.events[0]
        if fmt in EGN_FAMILY and start.variant != "standard":
            with pytest.raises(ValueError, match="standard Euchre only"):
                FORMAT_TABLE[fmt].write(rec.events, rec.annotations, rec.variations)
            continue
        if fmt in EGN_FAMILY and set(k for e in rec.events for k in [e.kind]) & HOUSE_MOVES:
            # a house rule's move EGN has no call for: refused, nothing written
            with pytest.raises(ValueError, match="cannot be written in EGN"):
                FORMAT_TABLE[fmt].write(rec.events, rec.annotations, rec.variations)
            continue
        back, lost = _write_and_read(rec, fmt, tmp_path)
        if fmt not in EGN_FAMILY:
            assert _events(back.events) == _events(rec.events)
            assert back.events[0].options == start.options
            assert back.annotations == rec.annotations
            assert back.variations == rec.variations
            assert not lost
            continue
        game, again = Game(rec.events), Game(back.events)
        assert again.final.options == game.final.options
        assert (again.final_score, again.official_score, again.winner) == \
               (game.final_score, game.official_score, game.winner)
        kitty_lost = any("no place for the kitty" in w for w in lost)
        assert _events(back.events) == _events(rec.events, kitty_lost)
        on_moves = {p for p, e in enumerate(rec.events) if e.kind not in (
            "GameStarted", "DealStarted", "CardsDealt", "TrickWon", "DealScored", "GameEnded")}
        kept = [a for a in rec.annotations if a["position"] in on_moves]
        assert back.annotations == kept
        if fmt == "egnb":
            as_egn, _ = _write_and_read(rec, "egn", tmp_path)
            left_out = [w for w in lost if "a packed deal cannot hold it" in w]
            assert back.annotations == as_egn.annotations
            assert all(v in as_egn.variations for v in back.variations)
            assert len(back.variations) == len(as_egn.variations) - len(left_out)
        else:
            assert _lines(back.variations) == _lines(rec.variations)


def test_club_night_packed_leaves_out_the_line_inside_a_trick(tmp_path):
    # the line at event 37 of club-night-1: one card instead of the trick's
    # second card; the packed deal counts no cards, so its reader would
    # take three and run past the end marker
    (rec,) = read_records(os.path.join(FIXTURES, "standard", "club-night-1.euchre"))
    back, lost = _write_and_read(rec, "egnb", tmp_path)
    assert [w for w in lost if "packed" in w] == [
        "deal 2: the alternative line from action 9 stops in the middle of the bidding or of a "
        "trick: a packed deal cannot hold it; left out (the expanded form keeps it)"]
    assert _events(back.events) == _events(rec.events, kitty_lost=True)
    expanded, _ = _write_and_read(rec, "egnb-expanded", tmp_path)
    assert [v["position"] for v in expanded.variations] == [v["position"] for v in rec.variations]
    assert len(back.variations) == len(rec.variations) - 1


def test_a_game_stopped_inside_a_trick_is_refused_packed_and_kept_expanded(tmp_path):
    # club-night-1 cut after the seventh card of deal 1 (a record of a game
    # stopped there): the packed form cannot say where the trick stops
    (rec,) = read_records(os.path.join(FIXTURES, "standard", "club-night-1.euchre"))
    seventh = [i for i, e in enumerate(rec.events) if e.kind == "CardPlayed"][6]
    cut = dataclasses.replace(rec, events=rec.events[:seventh + 1], annotations=[], variations=[])
    with pytest.raises(ValueError, match="deal 1 cannot be packed: the deal's own play stops in the "
                                         r"middle of the bidding or of a trick.*expanded form"):
        FORMAT_TABLE["egnb"].write(cut.events, [], [])
    back, _ = _write_and_read(cut, "egnb-expanded", tmp_path)
    assert _events(back.events) == _events(cut.events, kitty_lost=True)
