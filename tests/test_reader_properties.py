"""Every reader, fed anything (issue 12, "Tests"): random bytes, and random
mutations of a valid record (a value swapped for one of another type, a
number of thousands of digits, nesting thousands deep, a long string,
control characters, a key or item deleted or doubled), gives valid records
or a RecordError naming the file and the reason, never another exception.

Readers: EGN, EMN, the text notation, our JSON (.eej), OpenSpiel JSON Lines.
The seeds are small records (fixtures/egn/"Six Points in Two Hands.egn" and
its text and JSON exports, one game of the EMN match, a one-deal OpenSpiel
line) so that each example reads in milliseconds.  Worst-case time and memory
are the benchmark's (benchmarks/), not asserted here.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT
from euchre_events.formats import RecordError, read_records, read_records_partial
from euchre_events.formats.jsonfmt import write_json
from euchre_events.formats.text import write_text
from euchre_events.projections import Game

EGN_PATH = ROOT / "fixtures" / "egn" / "Six Points in Two Hands.egn"
(_REC,) = read_records(str(EGN_PATH))
_EMN = json.loads((ROOT / "fixtures" / "egn" / "match" / "MotE W5 Match.emn").read_text())
_EMN["games"] = _EMN["games"][:1]

SEEDS = {
    ".egn": EGN_PATH.read_text(),
    ".emn": json.dumps(_EMN),
    ".euchre": write_text(_REC.events, _REC.annotations, _REC.variations),
    ".eej": write_json(_REC.events, _REC.annotations, _REC.variations),
    ".jsonl": json.dumps({"params": {}, "history": [0] + list(range(20)) + [20, 24, 24, 24, 25, 0, 30],
                          "returns": [0, 0, 0, 0]}) + "\n",
}
JSON_KINDS = (".egn", ".emn", ".eej", ".jsonl")

# modest and derandomized: the same examples on every CI run, the whole file in a few seconds
SETTINGS = settings(max_examples=30, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
MUTATIONS = settings(SETTINGS, max_examples=80)

# raw JSON texts a hostile file may hold where a value stands
RAW = ["9" * 5000, "-" + "9" * 400, "1e309", "-1e400", "NaN", "Infinity", "1" * 31,
       "[" * 3000 + "]" * 3000, '{"a":' * 2000 + "1" + "}" * 2000,
       "true", "false", "null", "0", "-1", "4", "3.5", "[]", "{}", "[1, 2]", '{"x": []}',
       json.dumps("x" * 200_000), json.dumps("\x1b[2J\nfake\u2028line\x07"), '"N"', '"0"',
       '"JK"', '"B"', '"??"', '"Ad"', '"Pass"', '""']
# words a hostile text record may hold where a token stands
WORDS = ["9" * 5000, "[" * 200, "(" * 200, ")", "]", "{" + "x" * 100_000 + "}", "{", "}", '"',
         "\\", "@CardPlayed(seat=false, card=\"9D\")", '@CardPlayed(seat="N", card=5)',
         "@Nope()", "@CardsDealt(hands=[[1]])", "Deal " + "9" * 40 + " dealer N", "T99:",
         "??", "!!", "JK", "10S#999999999999999999999999999999999", "P0:", "P99", "N:", "Up: JK",
         '[Option.target_score "1e309"]', '[Option.target_score "[1,2]"]', '[InitialScore "-"]',
         '[Dealer "P9"]', '[Variant "nope"]', "\x1b[2J", "\u2028", "\t", ""]


def _paths(doc) -> list:
    """Every (container, key) in a JSON document, found without recursion."""
    out, stack = [], [doc]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for k, v in items:
            out.append((node, k))
            if isinstance(v, (dict, list)):
                stack.append(v)
    return out


SENTINEL = "\u0000hostile\u0000"


@st.composite
def mutated_json(draw, kind: str) -> str:
    text = SEEDS[kind]
    lines = text.splitlines() if kind == ".jsonl" else [text]
    doc = json.loads(lines[0])
    raws = []
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        if not paths:
            break
        node, key = paths[draw(st.integers(0, len(paths) - 1))]
        op = draw(st.sampled_from(["raw", "value", "delete", "double", "swap"]))
        if op == "raw":
            raws.append(draw(st.sampled_from(RAW)))
            node[key] = SENTINEL + str(len(raws) - 1)
        elif op == "value":
            node[key] = draw(st.recursive(
                st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False,
                                                                                 allow_infinity=False)
                | st.text(max_size=20),
                lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                           max_size=3),
                max_leaves=6))
        elif op == "delete":
            del node[key]
        elif op == "double" and isinstance(node, list):
            node.insert(key, node[key])
        elif op == "swap":
            other_node, other_key = paths[draw(st.integers(0, len(paths) - 1))]
            node[key], other_node[other_key] = other_node[other_key], node[key]
    out = json.dumps(doc)
    for i, raw in enumerate(raws):
        out = out.replace(json.dumps(SENTINEL + str(i)), raw)
    return out + ("\n" if kind == ".jsonl" else "")


@st.composite
def mutated_text(draw) -> str:
    lines = SEEDS[".euchre"].splitlines()
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        words = lines[i].split(" ")
        j = draw(st.integers(0, len(words) - 1))
        op = draw(st.sampled_from(["word", "text", "delete", "double"]))
        if op == "word":
            words[j] = draw(st.sampled_from(WORDS))
        elif op == "text":
            words.insert(j, draw(st.text(max_size=12)))
        elif op == "delete":
            del words[j]
        else:
            lines.insert(i, lines[i])
            continue
        lines[i] = " ".join(words)
    return "\n".join(lines) + "\n"


def _check(name: str, data) -> None:
    """Read ``data`` as a file called ``name``: records that fold, or a RecordError naming it."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, name)
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
        try:
            records = read_records(path)
        except RecordError as e:
            assert e.file == path and e.reason and str(e).startswith(path)
            assert len(str(e)) < 5000          # a hostile value is never echoed whole
        else:
            assert records
            for rec in records:
                assert rec.events[0].kind == "GameStarted"
                Game(rec.events)               # what a reader returns folds
        good, errors = read_records_partial(path)
        assert all(isinstance(e, RecordError) for e in errors)


def test_the_seeds_are_valid_records():
    for kind, text in SEEDS.items():
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "seed" + kind)
            Path(path).write_text(text)
            assert read_records(path)


@pytest.mark.parametrize("kind", list(SEEDS))
@SETTINGS
@given(data=st.binary(max_size=400) | st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_any_bytes_give_records_or_a_record_error(kind, data):
    _check("any" + kind, data)


@pytest.mark.parametrize("kind", JSON_KINDS)
@MUTATIONS
@given(data=st.data())
def test_a_mutated_json_record_gives_records_or_a_record_error(kind, data):
    _check("mutated" + kind, data.draw(mutated_json(kind)))


@MUTATIONS
@given(text=mutated_text())
def test_a_mutated_text_record_gives_records_or_a_record_error(text):
    _check("mutated.euchre", text)
