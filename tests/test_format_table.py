"""One table of formats (issue 24): formats.FORMAT_TABLE gives the
suffixes, the reader, the partial reader and the writer of each format;
detection, reading, partial reading, ``export`` and its help read it, and
every writer returns one kind of thing (an Exported: data and warnings)."""
from __future__ import annotations

import os

import pytest
from conftest import EGN_FIXTURES

from euchre_events.cli import app
from euchre_events.formats import (FORMAT_TABLE, FORMATS, RECORD_SUFFIXES, Exported, WRITTEN,
                                   detect_format, read_records, read_records_partial)

FIXTURE = os.path.join(EGN_FIXTURES, "Epic Comeback.egn")


def test_detection_and_the_suffix_list_come_from_the_table():
    assert FORMATS == ("egn", "egnb", "emn", "openspiel", "text", "json")
    assert WRITTEN == ("egn", "egnb", "egnb-expanded", "emn", "text", "json")
    for name, f in FORMAT_TABLE.items():
        for suffix in f.suffixes:
            assert detect_format("game" + suffix) == name
            assert suffix in RECORD_SUFFIXES
    assert set(RECORD_SUFFIXES) == {x for f in FORMAT_TABLE.values() for x in f.suffixes} | {".json"}


def test_export_help_lists_the_tables_writers(runner):
    res = runner.invoke(app, ["export", "--help"])
    assert "egn, egnb, egnb-expanded, emn, text, json or html." in " ".join(res.stdout.split())


def test_import_help_lists_the_tables_suffixes(runner):
    # the files import takes are those of RECORD_SUFFIXES: its help says the same list
    res = runner.invoke(app, ["import", "--help"])
    assert "Record files (.egn, .egnb, .emn, .jsonl, .euchre, .txt, .text, .eej, .json)," \
        in " ".join(res.stdout.split())


@pytest.mark.parametrize("name", [n for n in WRITTEN if n != "emn"])
def test_every_writer_returns_an_exported_that_reads_back(name, tmp_path):
    """Each one-game writer returns an Exported (str, or bytes for a binary
    format); written to a file of its suffix, it reads back to the game's
    events through the table's reader."""
    rec = read_records(FIXTURE)[0]
    f = FORMAT_TABLE[name]
    out = f.write(rec.events, rec.annotations, rec.variations, False)
    assert isinstance(out, Exported) and isinstance(out.data, bytes if f.binary else str)
    reader = f if f.read is not None else FORMAT_TABLE["egnb"]
    path = tmp_path / ("g" + (reader.suffixes[0] if reader.suffixes else ".egnb"))
    (path.write_bytes if f.binary else path.write_text)(out.data)
    back, errors = read_records_partial(str(path))
    assert errors == [] and len(back) == 1
    assert [e.kind for e in back[0].events[1:]] == [e.kind for e in rec.events[1:]]


def test_export_unknown_format_names_the_tables_formats(runner):
    res = runner.invoke(app, ["export", FIXTURE, "--format", "pgn"])
    assert res.exit_code == 1
    assert "expected egn, egnb, egnb-expanded, emn, text, json or html" in res.stderr
