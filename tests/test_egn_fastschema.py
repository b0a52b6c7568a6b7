"""The fast first check of an EGN document (formats/egn/fastschema.py,
issue 11 "Speed") never calls valid what the shipped schema refuses: on
every shipped record (all of which it takes, so that reading them skips
``jsonschema``) and on thousands of records mutated one value, key or list
at a time, where ``jsonschema`` is the judge."""
from __future__ import annotations

import copy
import glob
import json
import os
import random

import pytest

from conftest import ROOT
from euchre_events.formats.egn.fastschema import certainly_valid
from euchre_events.formats.egn.schema import _validators, upgrade_egn, validate_egn

FILES = sorted(f for f in glob.glob(os.path.join(ROOT, "fixtures", "**", "*.egn"), recursive=True))


def _docs() -> list:
    out = []
    for f in FILES:
        with open(f, encoding="utf-8") as fh:
            doc = json.load(fh)
        if isinstance(doc, dict) and doc.get("fileType") == "Euchre Game Notation":
            out.append((os.path.relpath(f, ROOT), upgrade_egn(doc)[0]))
    return out


DOCS = _docs()


def test_every_shipped_record_is_taken_by_the_fast_check():
    assert len(DOCS) >= 20
    for name, doc in DOCS:
        assert _validators()[0].is_valid(doc), name
        assert certainly_valid(doc), name
        assert validate_egn(doc) == [], name


_VALUES = (None, True, False, 0, 1, -1, 9, 10, 101, 3.0, 2.5, "", "x", "x" * 65, "x" * 129,
           "x" * 1025, "AS", "as", "ZZ", "R", "Pass", "Order", "h", "q", "TRICK_PLAY",
           "EUCHRE_BIDDING", "LEFT_OF_LONER", "1", "12", "1.4", "1.5", "AS\n", "=",
           "QUJD", [], {}, ["AS"], [1, 2, 3], {"0": ["x"]}, {"a": ["x"]}, {"1": "x"})


def _places(x, path=()):
    """Every (container, key) of a parsed JSON value, depth first."""
    if isinstance(x, dict):
        for k, v in x.items():
            yield x, k
            yield from _places(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield x, i
            yield from _places(v, path + (i,))


def _mutate(doc, rng: random.Random):
    d = copy.deepcopy(doc)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        places = list(_places(d))
        if not places:
            break
        box, key = rng.choice(places)
        what = rng.randrange(6)
        if what == 0:                                   # a value replaced
            box[key] = copy.deepcopy(rng.choice(_VALUES))
        elif what == 1 and isinstance(box, dict):       # a key dropped
            del box[key]
        elif what == 2 and isinstance(box, dict):       # an unknown key, or a known one elsewhere
            box[rng.choice(("extra", "type", "phases", "isAlone", "discard", "name", "7",
                            "winning_score", "num_deals", "sender"))] = copy.deepcopy(rng.choice(_VALUES))
        elif what == 3 and isinstance(box[key], list) and box[key]:   # a list made too long
            box[key] = box[key] * rng.choice((2, 5, 30, 120))
        elif what == 4 and isinstance(box[key], list):  # a list emptied
            box[key] = []
        else:                                           # a value moved to another place
            other_box, other_key = rng.choice(places)
            box[key] = copy.deepcopy(other_box[other_key])
    return d


@pytest.mark.parametrize("seed", range(4))
def test_the_fast_check_never_takes_what_the_schema_refuses(seed):
    rng = random.Random(seed)
    judge = _validators()[0]
    taken = refused_by_both = 0
    for n in range(500):
        _, doc = DOCS[(seed * 500 + n) % len(DOCS)]
        d = _mutate(doc, rng)
        fast = certainly_valid(d)
        valid = judge.is_valid(d)
        if fast:
            assert valid, json.dumps(d)[:2000]
            taken += 1
        elif not valid:
            refused_by_both += 1
    # neither side is trivial: mutated records it takes, and ones both refuse
    assert taken > 40 and refused_by_both > 150, (taken, refused_by_both)


def test_what_only_jsonschema_can_say_is_left_to_it():
    """A document the fast check refuses but the schema takes (an integer
    written 3.0, a date in another shape) still reads: the check is only a
    shortcut."""
    _, doc = DOCS[0]
    d = copy.deepcopy(doc)
    d["metadata"]["initialScore"] = [0.0, 0.0]
    assert not certainly_valid(d) and _validators()[0].is_valid(d) and validate_egn(d) == []
    d = copy.deepcopy(doc)
    d["metadata"].setdefault("ruleset", {})["winning_score"] = 0      # both refuse it
    assert not certainly_valid(d) and validate_egn(d) != []
