"""EGN and EMN written back as read (issue 14): import then export keeps a
record's EGN baseline, its annotation labels and unknown keys; derived
fields only with ``--with-derived``; the EMN writer keeps a match, its
master ids and ``playerIds``; an EMN naming a master id it does not list is
refused; the v1.1 writers' snake_case keys are upgraded in memory.

The baseline hash is computed here as the EGN project defines it, not with
our code: its spec (``spec/determinism-of-egn.md``, "Deterministic
Minimalism": a file stores only the rules, the initial score, the deal, the
bids and the cards played) and its schema, whose analysis keys say
"Analysis-only content that should be stripped for baseline hashing"; its
``egn-baseline --hash`` strips those keys and every empty array and object,
then hashes the JSON with sorted keys (SHA-256).  A 1.0.0 file is hashed as
its ``egn-upgrade`` leaves it (the baseline tool validates first, and a 1.0.0
file passes only upgraded; spec/player-tracking.md, "Backward
Compatibility")."""
from __future__ import annotations

import copy
import hashlib
import json
import re
from pathlib import Path

import pytest

from conftest import ROOT, RUNNER as runner
from euchre_events.archive import Archive, content_id, game_id_of
from euchre_events.cli import app
from euchre_events.formats import RecordError
from euchre_events.formats.egn import read_egn_dict, read_egn_file, validate_egn, validate_emn
from euchre_events.formats.egn.schema import upgrade_egn
from euchre_events.projections import Game

FIX = ROOT / "fixtures" / "egn"
SHARED = ROOT.parent / "shared" / "records" / "egn"
if not SHARED.is_dir():   # a worktree beside main: /work/wt/x and /work/shared
    SHARED = Path("/work/shared/records/egn")


def _games(folder: Path) -> list:
    if not folder.is_dir():
        return []
    return (sorted(folder.glob("*.egn")) + sorted((folder / "match").glob("*.egn"))
            + [folder / "negative" / "test_timingsLayouts.egn"])


SHIPPED = _games(FIX) + _games(SHARED)


def _id(p: Path) -> str:
    return ("shared/" if SHARED in p.parents else "fixtures/") + p.name


# ------------------------------------------------------------------ the EGN project's hash

SCHEMA = json.loads((ROOT / "euchre_events" / "schemas" / "egn-schema-v1.json").read_text())


def _analysis_keys(node, name=None, out=None) -> set:
    """The properties the schema describes as "Analysis-only content"."""
    out = set() if out is None else out
    if isinstance(node, dict):
        if "Analysis-only content" in str(node.get("description", "")) and name:
            out.add(name)
        for k, v in (node.get("properties") or {}).items():
            _analysis_keys(v, k, out)
        for v in (node.get("definitions") or {}).values():
            _analysis_keys(v, None, out)
        if "items" in node:
            _analysis_keys(node["items"], None, out)
        for key in ("oneOf", "anyOf", "allOf"):
            for v in node.get(key) or []:
                _analysis_keys(v, None, out)
    return out


ANALYSIS = _analysis_keys(SCHEMA)
assert ANALYSIS == {"callAnnotations", "playAnnotations", "alternativeLines"}


def _baseline(v):
    def empty(x):
        return isinstance(x, (list, dict)) and len(x) == 0
    if isinstance(v, list):
        return [y for y in (_baseline(x) for x in v) if not empty(y)]
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            y = None if k in ANALYSIS else _baseline(x)
            if k not in ANALYSIS and not empty(y):
                out[k] = y
        return out
    return v


def _stable(v) -> str:
    if isinstance(v, list):
        return "[" + ",".join(_stable(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + _stable(v[k]) for k in sorted(v)) + "}"
    return json.dumps(v, ensure_ascii=False)


_RENAMED = {"player_cards": "playerCards", "calls_annotations": "callAnnotations",
            "tricks_annotations": "playAnnotations"}
_REMOVED = ("kitty", "initialLead", "timings", "views", "layouts", "videoUrl", "viewSwitches", "screens")


def _egn_upgrade(doc):
    """What the EGN project's egn-upgrade does to the shipped 1.0.0 files:
    keys renamed, removed keys dropped, version 1.4, phases numbered 0 and 1
    (its trick-play phase losing isAlone)."""
    def walk(o):
        if isinstance(o, dict):
            return {_RENAMED.get(k, k): walk(x) for k, x in o.items() if k not in _REMOVED}
        if isinstance(o, list):
            return [walk(x) for x in o]
        return o
    out = walk(doc)
    if out.get("version", "").startswith("1.0"):
        out["version"] = "1.4"
    for deal in out["deals"]:
        for ph in deal["phases"]:
            if ph["type"] == "EUCHRE_BIDDING":
                ph["phaseNumber"] = 0
            else:
                ph["phaseNumber"] = 1
                ph.pop("isAlone", None)
    return out


def baseline_hash(doc) -> str:
    """SHA-256 of the EGN baseline of ``doc`` (see the module text)."""
    return hashlib.sha256(_stable(_baseline(_egn_upgrade(doc))).encode()).hexdigest()


def test_the_hash_sees_what_it_must():
    doc = json.loads((FIX / "Six Points in Two Hands.egn").read_text())
    h = baseline_hash(doc)
    noted = copy.deepcopy(doc)
    noted["deals"][0]["phases"][1]["playAnnotations"] = {"0": ["analysis"]}
    noted["deals"][0]["initialState"]["playerCards"] = [[], [], [], []]
    assert baseline_hash(noted) == h    # analysis and empty hands are not the baseline
    scored = copy.deepcopy(doc)
    scored["metadata"]["finalScore"] = [10, 9]
    assert baseline_hash(scored) != h   # a derived field is


# ------------------------------------------------------------------ helpers

def cli(*args):
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


def _import(path, db) -> list:
    """``[(game id, score text)]`` of the import lines (``... score: N/S 10, E/W 4``)."""
    res = cli("import", path, "--db", db)
    assert res.exit_code == 0, res.output
    return [(line.split()[0], re.search(r"score: ([^(]*?)(?:  \(|$)", line).group(1))
            for line in res.stdout.splitlines() if "score: " in line]


# ------------------------------------------------------------------ the round trip

@pytest.mark.parametrize("path", SHIPPED, ids=_id)
def test_import_export_keeps_the_baseline(path, tmp_path):
    db = tmp_path / "a.sqlite"
    original = json.loads(path.read_text(encoding="utf-8"))
    ((gid, score),) = _import(path, db)
    out = tmp_path / "out.egn"
    res = cli("export", gid, "-f", "egn", "-o", out, "--db", db)
    assert res.exit_code == 0, res.output
    back = json.loads(out.read_text(encoding="utf-8"))
    assert baseline_hash(back) == baseline_hash(original)
    assert "finalScore" not in back["metadata"]           # none of them states one
    # the whole document, its analysis too, is the file's (1.0.0: as egn-upgrade leaves it)
    assert _egn_upgrade(back) == _egn_upgrade(original)
    video = "timings" in original
    assert ("timings" in back) == video                   # unknown keys written back as read
    assert ("written back as read" in res.stderr) == video
    assert "warning" not in res.stderr or video
    # straight from the file (no archive) the same
    res = cli("export", path, "-f", "egn", "-o", tmp_path / "file.egn")
    assert baseline_hash(json.loads((tmp_path / "file.egn").read_text())) == baseline_hash(original)
    # derived fields only when asked: the import's score, the hands we rebuilt
    res = cli("export", gid, "-f", "egn", "--with-derived", "--db", db)
    derived = json.loads(res.stdout)
    assert "N/S {}, E/W {}".format(*derived["metadata"]["finalScore"]) == score   # no penalty in these
    assert baseline_hash(derived) != baseline_hash(original)
    (back_rec,) = read_egn_dict(derived, "d.egn")
    assert Game(back_rec.events).final_score == derived["metadata"]["finalScore"]


def test_with_derived_fills_only_hands_the_record_does_not_state(tmp_path):
    """MotE W5 G2 deal 9 states the hand of seat 2 only: --with-derived keeps
    it and adds the three rebuilt from the play (each fully known there)."""
    path = FIX / "match" / "MotE W5 G1.egn"
    raw = json.loads(path.read_text())
    stated = [(i, d["initialState"]["player_cards"]) for i, d in enumerate(raw["deals"])
              if any(d["initialState"]["player_cards"])]
    (i, hands), = stated
    assert [len(h) for h in hands] == [0, 0, 5, 0]
    res = cli("export", path, "-f", "egn", "--with-derived")
    doc = json.loads(res.stdout)
    got = doc["deals"][i]["initialState"]["playerCards"]
    assert got[2] == hands[2]
    rec = read_egn_file(str(path))[0]
    dealt = [e for e in rec.events if e.kind == "CardsDealt"][i]
    assert [len(h) for h in got] == [5 if "??" not in dealt.hands[s] else 0 for s in range(4)]
    plain = json.loads(cli("export", path, "-f", "egn").stdout)
    assert plain["deals"][i]["initialState"]["playerCards"] == hands


def _messy(tmp_path) -> Path:
    """Six Points in Two Hands with what our writer would not write by
    itself: a label without a space, a call note past the last call, a play
    note past the last play, keys the schema does not know, an alternative
    line that cannot be replayed."""
    doc = json.loads((FIX / "Six Points in Two Hands.egn").read_text())
    bid, play = doc["deals"][1]["phases"]
    play["playAnnotations"] = {"0": ["[!]x", "[?!]  two spaces"], "99": ["after the end"]}
    bid["callAnnotations"] = {"7": ["late call note"]}
    doc["x-club"] = {"table": 3}
    doc["deals"][0]["x-seat-map"] = "NESW"
    doc["deals"][0]["alternativeLines"] = [{"branchIndex": 500, "phases": [
        {"phaseNumber": 1, "type": "TRICK_PLAY", "tricks": [["As"]]}]}]
    p = tmp_path / "messy.egn"
    p.write_text(json.dumps(doc, indent=1))
    return p


def test_labels_misplaced_notes_unknown_keys_and_lines_are_kept(tmp_path):
    src = _messy(tmp_path)
    original = json.loads(src.read_text())
    rec = read_egn_file(str(src))[0]
    assert [(a["text"], a["mark"]) for a in rec.annotations] == \
        [("late call note", None), ("x", "!"), ("two spaces", "?!")]   # the call note on the last call
    assert any("past the last play" in w for w in rec.warnings)
    db = tmp_path / "a.sqlite"
    ((gid, _),) = _import(src, db)
    res = cli("export", gid, "-f", "egn", "--db", db)
    back = json.loads(res.stdout)
    assert back == original                     # every key, label and line as read
    assert "x-club" in res.stderr and "x-seat-map" in res.stderr
    # a note added in the archive is written as we write notes; the kept ones stay
    arch = Archive(str(db))
    pos = next(a["position"] for a in arch.annotations(gid) if a["text"] == "x")
    arch.add_annotation(gid, pos, "club view", mark="?")
    back = json.loads(cli("export", gid, "-f", "egn", "--db", db).stdout)
    # (the archive orders the notes of one event by their ids: a new note's is random)
    assert sorted(back["deals"][1]["phases"][1]["playAnnotations"]["0"]) == \
        sorted(["[!]x", "[?!]  two spaces", "[?] club view"])
    assert baseline_hash(back) == baseline_hash(original)


def test_a_game_not_from_egn_writes_no_derived_score_unless_asked(tmp_path):
    src = ROOT / "fixtures" / "standard" / "club-night-1.euchre"
    doc = json.loads(cli("export", src, "-f", "egn").stdout)
    assert "finalScore" not in doc["metadata"]
    derived = json.loads(cli("export", src, "-f", "egn", "--with-derived").stdout)
    from euchre_events.formats import read_records
    assert derived["metadata"]["finalScore"] == Game(read_records(str(src))[0].events).final_score


# ------------------------------------------------------------------ EMN

MATCH = FIX / "match" / "MotE W5 Match.emn"


def test_emn_export_of_a_stored_match_is_the_match_as_read(tmp_path):
    db = tmp_path / "a.sqlite"
    ids = _import(MATCH, db)
    assert len(ids) == 6
    out = tmp_path / "week5.emn"
    res = cli("export", "--match", "MotE Week 5 Match", "-f", "emn", "-o", out, "--db", db)
    assert res.exit_code == 0, res.output
    doc = json.loads(out.read_text())
    assert validate_emn(doc) == []
    assert all(validate_egn(upgrade_egn(g["gameData"])[0]) == [] for g in doc["games"])
    assert doc == json.loads(MATCH.read_text())   # master ids, playerIds, seats, games: as read
    # the same from the six ids given one by one
    res = cli("export", *[g for g, _ in ids], "-f", "emn", "--db", db)
    assert json.loads(res.stdout) == doc
    # and it reads back to the same six games
    back = read_egn_file(str(out))
    assert [str(game_id_of(r.events)) for r in back] == [g for g, _ in ids]


def test_emn_of_loose_games_tracks_players_by_their_ids(tmp_path):
    """Two EGN games: the players of one with playerIds (spec/player-tracking.md);
    the same person under another name but the same id is one master player."""
    a = json.loads((FIX / "Six Points in Two Hands.egn").read_text())
    b = json.loads((FIX / "Epic Comeback.egn").read_text())
    names_a, names_b = a["metadata"]["players"], b["metadata"]["players"]
    a["metadata"]["players"] = [{"name": names_a[0], "playerIds": [{"id": "u-7", "source": "euchre-site"}]}] + names_a[1:]
    b["metadata"]["players"] = [{"name": "Renamed", "playerIds": [{"id": "u-7", "source": "euchre-site"},
                                                                  {"id": "42", "source": "euchre-community"}]}] + names_b[1:]
    pa, pb = tmp_path / "a.egn", tmp_path / "b.egn"
    pa.write_text(json.dumps(a))
    pb.write_text(json.dumps(b))
    res = cli("export", pa, pb, "-f", "emn", "-o", tmp_path / "m.emn")
    assert res.exit_code == 0, res.output
    doc = json.loads((tmp_path / "m.emn").read_text())
    assert validate_emn(doc) == []
    reg = {p["id"]: p for p in doc["metadata"]["players"]}
    first = doc["games"][0]["players"][0]
    assert doc["games"][1]["players"][0] == first          # one player, known by the id
    assert reg[first]["playerIds"] == [{"id": "u-7", "source": "euchre-site"},
                                       {"id": "42", "source": "euchre-community"}]
    assert doc["games"][0]["gameData"]["metadata"]["players"] == a["metadata"]["players"]
    back = read_egn_file(str(tmp_path / "m.emn"))
    for rec, src in zip(back, (pa, pb)):
        (orig,) = read_egn_file(str(src))
        assert content_id(rec.events, rec.annotations, rec.variations) == \
            content_id(orig.events, orig.annotations, orig.variations)
        assert rec.source["players"] == orig.source["players"]    # player ids survive


def test_emn_naming_a_master_id_it_does_not_list_is_refused(tmp_path):
    doc = json.loads(MATCH.read_text())
    doc["games"][2]["players"][1] = "p-09"
    bad = tmp_path / "bad.emn"
    bad.write_text(json.dumps(doc))
    with pytest.raises(RecordError) as e:
        read_egn_file(str(bad))
    assert "game 3" in str(e.value) and "'p-09'" in str(e.value) and "metadata.players" in str(e.value)
    res = cli("import", bad, "--db", tmp_path / "a.sqlite")
    assert res.exit_code == 1 and "p-09" in res.stderr
    assert len([line for line in res.stdout.splitlines() if "score: " in line]) == 5   # the other games
    doc = json.loads(MATCH.read_text())
    doc["metadata"]["players"][1]["id"] = "p-01"
    twice = tmp_path / "twice.emn"
    twice.write_text(json.dumps(doc))
    with pytest.raises(RecordError, match="master id 'p-01' more than once"):
        read_egn_file(str(twice))


def test_several_games_need_emn():
    res = cli("export", FIX / "Epic Comeback.egn", FIX / "VWEC Finals.egn", "-f", "egn")
    assert res.exit_code == 1 and "only --format emn" in res.stderr


# ------------------------------------------------------------------ older writers

_V11 = {"initialState": "initial_state", "upCard": "up_card", "playerCards": "player_cards",
        "phaseNumber": "phase_number", "isAlone": "is_alone", "aloneDefender": "alone_defender",
        "initialScore": "initial_score", "alternativeLines": "alternative_lines",
        "branchIndex": "branch_index", "callAnnotations": "calls_annotations",
        "playAnnotations": "tricks_annotations", "fileType": "file_type"}


def _v11(doc):
    """A 1.4 document as a v1.1 writer wrote it: the snake_case keys the EGN
    project's egn-upgrade renames back (its cli-upgrade table)."""
    def walk(o):
        if isinstance(o, dict):
            return {_V11.get(k, k): walk(x) for k, x in o.items()}
        if isinstance(o, list):
            return [walk(x) for x in o]
        return o
    out = walk(doc)
    out["version"] = "1.1.0"
    return out


@pytest.mark.parametrize("name", ["VWEC Finals Annotated.egn", "Custom Scenario.egn",
                                  "Six Points in Two Hands.egn"])
def test_v11_snake_case_reads_to_the_same_game(name, tmp_path):
    doc = json.loads((FIX / name).read_text())
    old = _v11(doc)
    assert "initial_state" in old["deals"][0] and "file_type" in old
    (new_rec,) = read_egn_dict(doc, name)
    (old_rec,) = read_egn_dict(old, "v11.egn")
    assert old_rec.warnings == new_rec.warnings
    assert content_id(old_rec.events, old_rec.annotations, old_rec.variations) == \
        content_id(new_rec.events, new_rec.annotations, new_rec.variations)
    # and it is written back in the 1.4 form, with the baseline of its twin
    p = tmp_path / "v11.egn"
    p.write_text(json.dumps(old))
    back = json.loads(cli("export", p, "-f", "egn").stdout)
    assert baseline_hash(back) == baseline_hash(doc)


# ------------------------------------------------------------------ the text notation's file name

def test_text_written_as_dot_text_imports_back(tmp_path):
    db = tmp_path / "a.sqlite"
    ((gid, score),) = _import(FIX / "Epic Comeback.egn", db)
    out = tmp_path / "x.text"
    assert cli("export", gid, "-f", "text", "-o", out, "--db", db).exit_code == 0
    assert _import(out, db) == [(gid, score)]        # the same game, already stored
    res = cli("export", gid, "-f", "text", "-o", tmp_path / "x.notes", "--db", db)
    assert res.exit_code == 0 and "--from text" in res.stderr


# ------------------------------------------------------------------ a kept form that does not fit

@pytest.mark.parametrize("kept, says", [
    ('{"patch": [["cut", ["deals"], "x"], 7, ["set"]], "notes": [[[1], 0, "call", 0, 5]]}',
     "could not be rebuilt"),
    # a patch that would change a card: the read back refuses it
    ('{"patch": [["set", ["deals", 0, "initialState", "upCard"], "9s"]]}', "does not give this game back"),
])
def test_a_kept_form_that_does_not_fit_is_not_written(kept, says, tmp_path):
    """The kept form travels in the source, which a text record states as a
    Source.egn tag: one that does not fit the game is said on stderr, and
    the game written from its events."""
    src = FIX / "Six Points in Two Hands.egn"
    text = cli("export", src, "-f", "text").stdout
    assert '[Source.egn "' in text
    lines = [line if not line.startswith("[Source.egn ") else "[Source.egn " + json.dumps(kept) + "]"
             for line in text.splitlines()]
    p = tmp_path / "x.euchre"
    p.write_text("\n".join(lines) + "\n")
    res = cli("export", p, "-f", "egn")
    assert res.exit_code == 0 and says in res.stderr
    doc = json.loads(res.stdout)
    (rec,) = read_egn_dict(doc, "x.egn")
    (orig,) = read_egn_file(str(src))
    assert rec.events[1:] == orig.events[1:]
    # written from the events: not the file's empty description, which the kept form had
    assert json.loads(src.read_text())["metadata"]["description"] == "" and "description" not in doc["metadata"]


def test_emn_of_games_with_placeholder_seats_keeps_them_apart(tmp_path):
    """Two games whose seats are named only North, East, South, West: a seat
    name is no person (player-tracking.md tracks players, not seats), so no
    master player stands for North of both games; real names still join."""
    db = tmp_path / "a.sqlite"
    a = json.loads((FIX / "Six Points in Two Hands.egn").read_text())
    b = json.loads((FIX / "Epic Comeback.egn").read_text())
    for d in (a, b):
        d["metadata"]["players"] = ["North", "East", "South", "West"]
    b["metadata"]["players"][1] = "Ann"
    a["metadata"]["players"][3] = "Ann"
    for name, d in (("a.egn", a), ("b.egn", b)):
        (tmp_path / name).write_text(json.dumps(d))
    ids = _import(tmp_path / "a.egn", db) + _import(tmp_path / "b.egn", db)
    res = cli("export", *[g for g, _ in ids], "-f", "emn", "--db", db)
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert validate_emn(doc) == []
    names = [p["name"] for p in doc["metadata"]["players"]]
    # a: North, East, South, Ann; b: North, Ann (the same Ann), South, West
    assert sorted(names) == sorted(["North", "East", "South", "Ann", "North", "South", "West"])
