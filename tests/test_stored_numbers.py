"""Stored numbers (issue 26, findings 3 and 4): one bound for every whole
number an event holds (events.MAX_NUMBER), checked where every way in folds
(the engine's apply): the readers, ``record`` and the Python API; ruling
penalties are whole numbers (not NaN, Infinity, 0.5, 1e300, true); and a
game stored by an older release with a number out of range is named by
``stats``/``rebuild``/``verify`` while the rest of the archive is built.

The records are the club-night fixture (fixtures/standard/club-night-1.euchre:
10 deals, 242 events, N/S 10 - E/W 4) and the C3 renege case of
tests/test_official_result.py (E reneges at trick 1 of deal 1: as played
E/W 2, officially N/S 2, rules.md 2.7).
"""
from __future__ import annotations

import json
import uuid

import pytest

from conftest import ROOT, RUNNER
from euchre_events.archive import Archive
from euchre_events.archive.aggregates import GameRecord
from euchre_events.archive.canonical import event_text
from euchre_events.archive import readmodels
from euchre_events.archive.readmodels import ReadModels, game_rows
from euchre_events.archive.gameid import start_text
from euchre_events.archive.importing import _game_id
from euchre_events.cli import app
from euchre_events import events
from euchre_events.events import RenegeClaimed, RenegeRuled, event_from_dict
from euchre_events.formats import RecordError, read_records
from euchre_events.formats.egn import write_egn
from euchre_events.formats.jsonfmt import write_json
from euchre_events.projections import Game
from euchre_events.rules.registry import complete_start
from euchre_events.rules.table import ImpossibleEvent
from euchre_events.rules.variant import VariantOptions
from test_archive import pg_schema  # noqa: F401  (a fixture)
from test_club_db_url import pg_url

CLUB_PATH = ROOT / "fixtures" / "standard" / "club-night-1.euchre"
(CLUB,) = read_records(str(CLUB_PATH))
BIG = 2 ** 63                        # what SQLite's INTEGER cannot take
TEN_DIGITS = 10 ** 10                # what PostgreSQL's INTEGER cannot take
MAX_NUMBER = getattr(events, "MAX_NUMBER", 1_000_000)   # the one bound (main has none)


def _cli(*args):
    return RUNNER.invoke(app, [str(a) for a in args])


def _imported(db) -> str:
    r = _cli("import", "--db", db, CLUB_PATH)
    assert r.exit_code == 0, r.output
    return r.output.split()[0]


def _claim(deal, trick=1) -> str:
    return json.dumps({"type": "RenegeClaimed", "by": 0, "against": 1, "deal": deal, "trick": trick})


def _store_as_an_older_release(arch: Archive, events: list) -> uuid.UUID:
    """Store ``events`` as a release before the bound did: the import's own
    steps (full options, canonical texts, game id, hash chain) without the
    engine's fold, so the stored game is intact and chained."""
    events = [complete_start(events[0])] + list(events[1:])
    texts = [event_text(e) for e in events[1:]]
    gid = _game_id(start_text(events[0]), texts)
    arch.save(GameRecord.new_stream(events, gid, texts))
    return gid


# ------------------------------------------------------------- finding 3: one bound

def test_the_one_bound_fits_the_read_models_and_is_the_options_bound():
    assert VariantOptions.option_maximum == events.MAX_NUMBER
    INTEGER_RANGE = readmodels.INTEGER_RANGE
    assert INTEGER_RANGE[0] < -MAX_NUMBER and MAX_NUMBER < INTEGER_RANGE[1] < TEN_DIGITS


def test_record_refuses_a_claim_number_out_of_range_and_stats_still_work(tmp_path):
    db = tmp_path / "a.sqlite"
    gid = _imported(db)
    for text in (_claim(BIG), _claim(1, trick=int("9" * 400)), _claim(MAX_NUMBER + 1),
                 _claim(-MAX_NUMBER - 1)):
        r = _cli("record", "--db", db, gid[:8], text)
        assert r.exit_code == 1, r.output
        assert "refused, not stored" in r.output and "out of range" in r.output
        assert "Traceback" not in r.output
    assert "trick: a number of 400 digits is out of range" in _cli(
        "record", "--db", db, gid[:8], _claim(1, trick=int("9" * 400))).output
    assert Archive(str(db)).game_length(gid) == 242          # nothing stored
    # at the bound itself: a claim the rules judge (no such deal), stored
    r = _cli("record", "--db", db, gid[:8], _claim(MAX_NUMBER))
    assert r.exit_code == 0 and f"trick 1 of deal {MAX_NUMBER} has not been played" in r.output
    for args in (["stats", "--db", db, "--json"], ["rebuild", "--db", db], ["verify", "--db", db, "--all"]):
        r = _cli(*args)
        assert r.exit_code == 0, (args, r.output)
    r = _cli("stats", "--db", db, "--json")
    assert json.loads(r.stdout)["games"] == 1


def test_every_reader_has_the_same_bound(tmp_path):
    # EGN: an initial score of 10**10 (10 digits: PostgreSQL's INTEGER cannot hold it)
    egn = write_egn(CLUB.events)
    egn["metadata"]["initialScore"] = [TEN_DIGITS, 0]
    p = tmp_path / "score.egn"
    p.write_text(json.dumps(egn))
    with pytest.raises(RecordError) as e:
        read_records(str(p))
    assert e.value.file == str(p) and "initial_score: item 0: the number 10000000000 is out of range" in e.value.reason
    # our JSON: the last deal numbered 10**10, then a claim of deal 2**63
    eej = json.loads(write_json(CLUB.events))
    last = max(i for i, d in enumerate(eej["events"]) if d["type"] == "DealStarted")
    assert eej["events"][last]["deal"] == 10
    eej["events"][last]["deal"] = TEN_DIGITS
    p = tmp_path / "deal.eej"
    p.write_text(json.dumps(eej))
    with pytest.raises(RecordError) as e:
        read_records(str(p))
    assert e.value.event == f"{last + 1} (DealStarted)" and "deal: the number 10000000000 is out of range" in e.value.reason
    eej = json.loads(write_json(CLUB.events))
    eej["events"].append(json.loads(_claim(BIG)))
    p = tmp_path / "claim.eej"
    p.write_text(json.dumps(eej))
    with pytest.raises(RecordError) as e:
        read_records(str(p))
    assert f"deal: the number {BIG} is out of range" in e.value.reason and e.value.event == f"{len(eej['events'])} (RenegeClaimed)"   # the last, from 1
    # the text notation: an initial score past the bound
    text = CLUB_PATH.read_text().replace('[Dealer "W"]', f'[Dealer "W"]\n[InitialScore "{MAX_NUMBER + 1}, 0"]')
    assert text != CLUB_PATH.read_text()
    p = tmp_path / "score.euchre"
    p.write_text(text)
    with pytest.raises(RecordError) as e:
        read_records(str(p))
    assert "initial_score: item 0: the number 1000001 is out of range" in e.value.reason
    # import stores none of them
    r = _cli("import", "--db", tmp_path / "b.sqlite", *sorted(tmp_path.iterdir()))
    assert r.exit_code == 1 and r.output.count("out of range") == 4, r.output
    assert not (tmp_path / "b.sqlite").exists()


def test_the_python_api_has_the_same_bound(tmp_path):
    arch = Archive(str(tmp_path / "a.sqlite"))
    gid = arch.import_record(CLUB).game_id
    for ev in (RenegeClaimed(0, 1, BIG, 1), RenegeClaimed(0, 1, 1, MAX_NUMBER + 1),
               RenegeRuled(BIG, 1, 1, "upheld")):
        with pytest.raises(ImpossibleEvent, match="out of range"):
            arch.record(gid, ev)
    assert arch.game_length(gid) == 242
    with pytest.raises(ImpossibleEvent, match="first_dealer: the number 4294967296 is out of range"):
        Game([event_from_dict({**CLUB.events[0].to_dict(), "first_dealer": 2 ** 32})])


def test_a_game_an_older_release_stored_out_of_range_is_named_and_the_rest_built(tmp_path):
    db = tmp_path / "a.sqlite"
    good = _imported(db)
    arch = Archive(str(db))
    bad = _store_as_an_older_release(arch, list(CLUB.events) + [RenegeClaimed(0, 1, BIG, 1)])
    del arch
    r = _cli("rebuild", "--db", db)
    assert r.exit_code == 0, r.output
    assert "2 games (1 damaged)" in r.output
    r = _cli("stats", "--db", db, "--json")            # the damaged game named, the good one counted
    assert r.exit_code == 1 and f"error: game {bad}" in r.output and "out of range" in r.output
    assert (json.loads(r.stdout)["games"], json.loads(r.stdout)["damaged"]) == (1, 1)
    r = _cli("list", "--db", db)
    assert good in r.stdout and f"error: game {bad}: stored event 243 cannot have happened" in r.output
    r = _cli("verify", "--db", db, bad)                        # verify says the same
    assert r.exit_code == 1 and "event 243 cannot have happened" in r.output and "out of range" in r.output


@pytest.mark.postgres
def test_postgres_refuses_a_ten_digit_deal_and_builds_the_rest(pg_schema, tmp_path):  # noqa: F811
    url = pg_url(pg_schema)
    good = _imported(url)
    eej = json.loads(write_json(CLUB.events))
    last = max(i for i, d in enumerate(eej["events"]) if d["type"] == "DealStarted")
    eej["events"][last]["deal"] = TEN_DIGITS
    p = tmp_path / "deal.eej"
    p.write_text(json.dumps(eej))
    r = _cli("import", "--db", url, p)
    assert r.exit_code == 1 and "deal: the number 10000000000 is out of range" in r.output
    r = _cli("record", "--db", url, good[:8], _claim(TEN_DIGITS))
    assert r.exit_code == 1 and "out of range" in r.output
    # the same game as an older release stored it: PostgreSQL's INTEGER cannot hold deal 10**10
    arch = Archive(url)
    events = list(CLUB.events)
    events[last] = event_from_dict(eej["events"][last])
    bad = _store_as_an_older_release(arch, events)
    rm = ReadModels(arch)
    rm.rebuild()
    rows = {g["game_id"]: g for g in rm.games()}
    assert rows[good]["error"] is None and rows[good]["deals"] == 10
    assert rows[str(bad)]["error"].startswith(f"game {bad}: stored event {last + 1} cannot have happened")
    assert len(rm.deals()) == 10                               # the good game's deals
    r = _cli("stats", "--db", url, "--json")           # the damaged game named, the good one counted
    assert r.exit_code == 1 and f"error: game {bad}" in r.output
    assert (json.loads(r.stdout)["games"], json.loads(r.stdout)["damaged"]) == (1, 1)


def test_a_row_the_read_models_cannot_hold_names_its_game_only():
    rows = game_rows(uuid.uuid4(), CLUB.events)
    assert readmodels.unholdable(rows) is None
    rows["deals"][3]["deal"] = TEN_DIGITS
    assert readmodels.unholdable(rows) == "deals.deal = 10000000000 does not fit an INTEGER column"


# ------------------------------------------------------------- finding 4: whole points

def _ruling(penalty) -> str:
    return ('{"type": "RenegeRuled", "deal": 1, "trick": 1, "against": 1, "ruling": "upheld", '
            f'"penalty": [{penalty}, 0]}}')


@pytest.mark.parametrize("penalty, said", [
    ("NaN", "not the number nan"), ("Infinity", "not the number inf"), ("0.5", "not the number 0.5"),
    ("1e300", "not the number 1e+300"), ("true", "not true"), ("false", "not false"),
    (str(MAX_NUMBER + 1), "the number 1000001 is out of range")])
def test_record_refuses_a_penalty_that_is_not_whole_points(tmp_path, penalty, said):
    db = tmp_path / "a.sqlite"
    gid = _imported(db)
    r = _cli("record", "--db", db, gid[:8], _ruling(penalty))
    assert r.exit_code == 1 and "penalty: item 0" in r.output and said in r.output, r.output
    assert Archive(str(db)).game_length(gid) == 242
    r = _cli("export", gid[:8], "--db", db, "--format", "text")
    assert r.exit_code == 0 and r.output.rstrip().endswith("T5: N JH  E TH  S JC  W AH")   # the last trick


def test_our_json_and_the_api_refuse_a_penalty_that_is_not_whole_points(tmp_path):
    for penalty in (0.5, True, 1e300):
        eej = json.loads(write_json(CLUB.events))
        eej["events"].append(json.loads(_ruling(json.dumps(penalty))))
        p = tmp_path / "r.eej"
        p.write_text(json.dumps(eej))
        with pytest.raises(RecordError, match="penalty: item 0: expected a whole number"):
            read_records(str(p))
    arch = Archive(str(tmp_path / "a.sqlite"))
    gid = arch.import_record(CLUB).game_id
    for penalty in ((0.5, 0), (float("nan"), 0), (True, 0), (2, float("inf"))):
        with pytest.raises(ImpossibleEvent, match="penalty: item [01]: expected a whole number"):
            arch.record(gid, RenegeRuled(1, 1, 1, "upheld", penalty))
    assert arch.game_length(gid) == 242


def test_a_whole_penalty_scores_and_exports(tmp_path):
    from test_official_result import E, c3_events
    evs = c3_events() + [RenegeClaimed(0, E, 1, 1), RenegeRuled(1, 1, E, "upheld", (4, 0))]
    g = Game(evs)
    assert g.final_score == [0, 2] and g.official_score == [4, 0]     # the ruling's points
    arch = Archive(str(tmp_path / "a.sqlite"))
    gid = arch.start_game(evs[0])
    for ev in evs[1:]:
        arch.record(gid, ev)
    out = tmp_path / "g.eej"
    r = _cli("export", str(gid), "--db", tmp_path / "a.sqlite", "--format", "json", "-o", out)
    assert r.exit_code == 0, r.output
    (back,) = read_records(str(out))
    assert Game(back.events).official_score == [4, 0]
