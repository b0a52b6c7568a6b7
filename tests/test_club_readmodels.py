"""Read models of a club archive (issue 9): the game index, the renege
ledger and the deals the statistics count, following the notification log
with the library's Projection and tracking records; ``stats`` against values
counted by hand; a read model killed with SIGKILL resumes and equals one
built without interruption.  SQLite and the local PostgreSQL, no mock."""
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from conftest import ROOT, RUNNER
from euchre_events.archive import Archive
from euchre_events.archive.clubstats import club_stats
from euchre_events.archive.readmodels import RULES_VERSION, ReadModels
from euchre_events.cli import app
from euchre_events.formats import Record, read_records
from euchre_events.rules.simulate import random_game
from test_archive import _pg_env, pg_schema  # noqa: F401  (pg_schema is a fixture)

CLUB1 = os.path.join(ROOT, "fixtures", "standard", "club-night-1.euchre")
CUT2 = os.path.join(ROOT, "fixtures", "cutthroat", "cutthroat-2.euchre")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def archive(request, tmp_path):
    if request.param == "sqlite":
        return Archive(str(tmp_path / "club.sqlite"))
    return Archive(env=_pg_env(request.getfixturevalue("pg_schema")))


def _rows(rm):
    return rm.games(), rm.findings(), rm.deals()


def test_stats_of_club_night_1_as_counted_by_hand(archive):
    """fixtures/standard/club-night-1.euchre, deal by deal (N Ann, E Bob,
    S Cora, W Dan): 1 Ann orders AD up (left of the dealer W), N/S take all
    five; 2 Ann names clubs as dealer, 2 tricks: euchred; 3 Cora names
    spades (left of the dealer E), 4 tricks; 4 Bob orders TH alone (3rd from S), 4
    tricks; 5 Cora orders AC alone (3rd from W), 4 tricks; 6 thrown in; 7
    Bob orders KH as dealer, 4 tricks; 8 Ann orders QS alone (2nd from S),
    all five; 9 Cora orders 9H (3rd from W), 4 tricks; 10 Ann names diamonds
    as dealer, 4 tricks.  Ann's tricks 2+2+1+0+0+0+5+1+3 = 14 in 9 deals,
    Dan's 0+2+1+0+1+2+0+1+0 = 7; N/S win.  A lone player's partner sits the
    deal out (rules.md 2.4): Ann deal 5 (Cora alone), Dan deal 4, Cora deal 8,
    so Ann played 8 deals (not 6, thrown in, nor 5): 14 tricks in 8."""
    archive.import_record(read_records(CLUB1)[0])
    rm = ReadModels(archive)
    rm.catch_up()
    s = club_stats(rm.games(), rm.deals(), rm.findings())
    ann, bob, cora, dan = (s["players"][n] for n in ("Ann", "Bob", "Cora", "Dan"))
    assert (ann["games"], ann["wins"], ann["deals"], ann["played"]) == (1, 1, 10, 8)
    assert (bob["played"], cora["played"], dan["played"]) == (9, 8, 8)
    assert (ann["calls"], ann["made"], ann["euchred"]) == (4, 3, 1)
    assert ann["alone"] == {"attempts": 1, "made": 1, "march": 1, "euchred": 0}
    assert (bob["calls"], bob["made"], bob["alone"]["attempts"], bob["alone"]["march"]) == (2, 2, 1, 0)
    assert (cora["calls"], cora["made"], cora["alone"]["made"]) == (3, 3, 1)
    assert (dan["calls"], dan["wins"]) == (0, 0)
    assert ann["tricks"] == 14 and ann["tricks_per_deal"] == round(14 / 8, 3)
    assert dan["tricks"] == 7
    assert all(p["reneges"] == 0 and p["lone_defences"]["attempts"] == 0 for p in s["players"].values())
    # no renege: the official figures are the ones as played
    assert s["by_seat"] == {k: dict(v, made_as_played=v["made"]) for k, v in {
        "1 (left of dealer)": {"calls": 2, "made": 2}, "2": {"calls": 1, "made": 1},
        "3": {"calls": 3, "made": 3}, "dealer": {"calls": 3, "made": 2}}.items()}
    assert s["by_up_card"] == {k: dict(v, made_as_played=v["made"]) for k, v in {
        "A": {"calls": 2, "made": 2}, "K": {"calls": 1, "made": 1}, "Q": {"calls": 1, "made": 1},
        "T": {"calls": 1, "made": 1}, "9": {"calls": 1, "made": 1}}.items()}
    assert ann["as_played"] == {"wins": 1, "made": 3, "euchred": 1, "alone": {"made": 1, "march": 1, "euchred": 0},
                                "lone_defences": {"euchred": 0}, "reneges": 0}
    [g] = rm.games()
    assert g["players"] == ["Ann", "Bob", "Cora", "Dan"] and g["deals"] == 10 and g["winner"] == 0
    assert g["variant"] == "standard" and g["rules_version"] == RULES_VERSION


def test_the_renege_ledger_and_stats_of_a_renege(archive):
    """cutthroat-2's record says it: deal 2, trick 4, P3 (Lee) plays AS holding AD."""
    archive.import_record(read_records(CUT2)[0])
    rm = ReadModels(archive)
    rm.catch_up()
    [f] = rm.findings()
    assert (f["kind"], f["deal"], f["trick"], f["player"], f["card"], f["led_suit"]) == \
        ("renege", 2, 4, "Lee", "AS", "D")
    s = club_stats(rm.games(), rm.deals(), rm.findings(), player="lee")
    assert list(s["players"]) == ["Lee"] and s["players"]["Lee"]["reneges"] == 1


def test_index_follows_the_log_and_each_event_counts_once(archive):
    for seed in range(6):
        archive.import_record(Record(random_game("standard", seed=seed)))
    rm = ReadModels(archive)
    n = rm.catch_up(section=37)          # sections cut games in two
    assert n == rm.position() and rm.catch_up() == 0
    before = _rows(rm)
    archive.import_record(Record(random_game("bid", seed=9)))
    assert rm.catch_up() > 0
    assert len(rm.games()) == 7 and rm.games()[:6] == before[0]
    again = ReadModels(archive)            # a second process: nothing left to do
    assert again.catch_up() == 0
    fresh = _rows(rm)
    rm.rebuild()
    assert _rows(rm) == fresh


def test_a_stale_read_model_says_so(tmp_path):
    db = str(tmp_path / "a.sqlite")
    a = Archive(db)
    a.import_record(read_records(CLUB1)[0])
    rm = ReadModels(a)
    rm.catch_up()
    assert rm.stale() is None
    with rm.view._tx() as c:   # as an older release would have left them
        c.execute("UPDATE ee_rm_meta SET value = '0.0.9+rm0'")
        c.execute("UPDATE ee_rm_games SET rules_version = '0.0.9+rm0'")
    r = RUNNER.invoke(app, ["list", "--db", db])
    assert r.exit_code == 0 and "rules version 0.0.9+rm0" in r.stderr and "euchre-events rebuild" in r.stderr
    r = RUNNER.invoke(app, ["rebuild", "--db", db])
    assert r.exit_code == 0 and "1 game in" in r.stdout
    assert ReadModels(Archive(db)).stale() is None
    assert "rebuild" not in RUNNER.invoke(app, ["list", "--db", db]).stderr


def test_read_models_of_a_newer_release_ask_for_an_upgrade_not_a_rebuild(tmp_path):
    """Issue 26, finding 12: rows a newer release built are not rebuilt (which
    would turn a shared archive's read models back into older rows)."""
    from euchre_events.archive.readmodels import RULES_VERSION
    db = str(tmp_path / "a.sqlite")
    a = Archive(db)
    a.import_record(read_records(CLUB1)[0])
    rm = ReadModels(a)
    rm.catch_up()
    with rm.view._tx() as c:   # as a newer release would have left them
        c.execute("UPDATE ee_rm_meta SET value = '99.0.0+rm9'")
        c.execute("UPDATE ee_rm_games SET rules_version = '99.0.0+rm9'")
    for args in (["list", "--db", db], ["stats", "--db", db]):
        r = RUNNER.invoke(app, args)
        assert r.exit_code == 0 and "built by a newer release (rules version 99.0.0+rm9" in r.stderr
        assert "upgrade euchre-events" in r.stderr and "run euchre-events rebuild" not in r.stderr
    r = RUNNER.invoke(app, ["rebuild", "--db", db])
    assert r.exit_code == 1 and "not rebuilt" in r.output and "upgrade euchre-events" in r.output
    assert [g["rules_version"] for g in ReadModels(Archive(db)).games()] == ["99.0.0+rm9"]
    r = RUNNER.invoke(app, ["rebuild", "--db", db, "--downgrade"])
    assert r.exit_code == 0 and "1 game in" in r.stdout
    assert [g["rules_version"] for g in ReadModels(Archive(db)).games()] == [RULES_VERSION]


def test_which_rules_version_is_newer():
    from euchre_events.archive.readmodels import is_newer
    assert is_newer("0.3.0+rm2", "0.2.1+rm2") and is_newer("0.2.0+rm3", "0.2.0+rm2")
    assert is_newer("0.10.0+rm2", "0.9.0+rm2")              # numbers, not text
    assert not is_newer("0.0.9+rm0", "0.1.0+rm2") and not is_newer("0.1.0+rm2", "0.1.0+rm2")
    assert not is_newer("0+unknown+rm2", "0.1.0+rm2") and not is_newer("0.1.0+rm2", "0+unknown+rm2")


CHILD = textwrap.dedent("""
    import sys, time
    from euchre_events.archive import Archive
    from euchre_events.archive.readmodels import ReadModels
    rm = ReadModels(Archive(sys.argv[1]))
    def tick(n):
        print(rm.position(), flush=True)
        time.sleep(0.02)
    rm.catch_up(progress=tick, section=53)
    print("done", flush=True)
""")


def test_a_read_model_killed_with_sigkill_resumes(tmp_path):
    db = str(tmp_path / "k.sqlite")
    a = Archive(db)
    for seed in range(40):
        a.import_record(Record(random_game(["standard", "cutthroat", "bid", "two-handed"][seed % 4],
                                           seed=seed, renege_rate=0.05)))
    total = a.recorder.max_notification_id()
    assert total > 3000
    p = subprocess.Popen([sys.executable, "-c", CHILD, db], stdout=subprocess.PIPE, text=True)
    seen = [p.stdout.readline() for _ in range(8)]      # 8 sections committed, then SIGKILL
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    assert p.returncode == -signal.SIGKILL and "done\n" not in seen
    rm = ReadModels(Archive(db))
    stopped = rm.position()
    assert 0 < stopped < total
    rm.catch_up()
    assert rm.position() == total
    resumed = _rows(rm)
    other = ReadModels(Archive(db))
    other.rebuild()                       # built without interruption
    assert _rows(other) == resumed
    assert len(resumed[0]) == 40 and any(r["kind"] == "renege" for r in resumed[1])


def test_stats_command_formats(tmp_path):
    db = str(tmp_path / "s.sqlite")
    Archive(db).import_records([read_records(CLUB1)[0], read_records(CUT2)[0]])
    r = RUNNER.invoke(app, ["stats", "--db", db])
    assert r.exit_code == 0 and "Ann: games 1, won 1; deals 10 (played 8); calls 4, made 3, euchred 1" in r.stdout
    import json
    doc = json.loads(RUNNER.invoke(app, ["stats", "--db", db, "-f", "json", "--variant", "cutthroat"]).stdout)
    assert doc["games"] == 1 and set(doc["players"]) == {"Jo", "Kit", "Lee"}
    out = tmp_path / "s.html"
    r = RUNNER.invoke(app, ["stats", "--db", db, "-f", "html", "-o", str(out)])
    page = out.read_text()
    assert r.exit_code == 0 and "Reneges by player" in page
    # one variant at a time (issue 23): six figures for each of the two variants, the menu's first
    # the one with the most games (a tie: by name)
    import re
    figures = json.loads(re.search(r'<script type="application/json" id="figures">(.*?)</script>', page, re.S).group(1))
    assert {v: len(f) for v, f in figures.items()} == {"cutthroat": 6, "standard": 6}
    assert re.findall(r"<option value='(\w+)'", page) == ["cutthroat", "standard"]
    # a page of charts is not printed to a terminal: -o is needed, as for audit
    r = RUNNER.invoke(app, ["stats", "--db", db, "-f", "html"])
    assert r.exit_code == 1 and "--format html needs -o FILE" in r.stderr and r.stdout == ""


def test_names_with_markup_stay_text_in_the_stats_page(tmp_path):
    import dataclasses
    db = str(tmp_path / "h.sqlite")
    evs = random_game("standard", seed=3, players=("</script><script>alert(1)</script>", "<b>E</b>", "S&W", "W"))
    evs[0] = dataclasses.replace(evs[0], title="<img src=x onerror=alert(2)>")
    Archive(db).import_record(Record(evs))
    out = tmp_path / "h.html"
    assert RUNNER.invoke(app, ["stats", "--db", db, "-f", "html", "-o", str(out)]).exit_code == 0
    page = out.read_text()
    assert "<script>alert(1)" not in page and "<b>E</b>" not in page and "<img src=x" not in page
    assert "&lt;/script&gt;&lt;script&gt;alert(1)" in page


def test_a_seat_that_sat_out_did_not_play_the_deal(tmp_path):
    """fixtures/buck/buck-2.euchre: Gil (S) drops out of deal 2, Ed (N) and Flo
    (E) out of deal 3 (rules.md 6.2: a dropped player plays no card).  Gil:
    3 deals, 2 played, 3 + 5 tricks = 4.00 a deal played; Ed: 3 deals, 2
    played (deals 1 and 2, no trick); Hope, in every deal: 3 played, 1 + 4 + 0 tricks."""
    db = str(tmp_path / "b.sqlite")
    assert RUNNER.invoke(app, ["import", os.path.join(ROOT, "fixtures", "buck", "buck-2.euchre"), "--db", db]).exit_code == 0
    rm = ReadModels(Archive(db))
    rm.catch_up()
    assert [d["sat_out"] for d in rm.deals()] == [[], [2], [0, 1]]
    p = club_stats(rm.games(), rm.deals(), rm.findings())["players"]
    assert (p["Gil"]["deals"], p["Gil"]["played"], p["Gil"]["tricks_per_deal"]) == (3, 2, 4.0)
    assert (p["Ed"]["deals"], p["Ed"]["played"], p["Ed"]["tricks"]) == (3, 2, 0)
    assert (p["Hope"]["played"], p["Hope"]["tricks"]) == (3, 5)


def test_read_models_of_the_version_before_get_the_new_column_and_are_rebuilt(tmp_path):
    """An archive whose read models were built before the deals' sat_out column
    (read-model version 1): opening it adds the column and builds the rows
    again, so the counts are right without a manual rebuild."""
    import sqlite3
    db = str(tmp_path / "b.sqlite")
    assert RUNNER.invoke(app, ["import", os.path.join(ROOT, "fixtures", "buck", "buck-2.euchre"), "--db", db]).exit_code == 0
    ReadModels(Archive(db)).catch_up()
    with sqlite3.connect(db) as c:                       # as version 1 left the table
        c.execute("ALTER TABLE ee_rm_deals DROP COLUMN sat_out")
    rm = ReadModels(Archive(db))
    assert [d["sat_out"] for d in rm.deals()] == [[], [2], [0, 1]]
    assert club_stats(rm.games(), rm.deals(), rm.findings())["players"]["Gil"]["played"] == 2


def test_stats_json_by_the_official_result_with_as_played_beside(tmp_path):
    """Issue 23, finding 10, counted by hand.  Two games of case C3 (docs/cases.md:
    dealer W, S orders the 10♥ up, E trumps N's K♣ with 9♥ holding 10♣; the
    tricks go E S W W W: as played N/S are euchred, E/W +2):

    * "C3 upheld", from 8-8 (Max N, Bob E, Cy S, Di W): the ruling upholds the
      renege, the hand ends, N/S score 2 (rules.md 2.7): officially Cy's call
      is made and N/S win 10-8; as played it was euchred and E/W won 10-8.
    * "C3 ruled out" (Uma, Vic, Wes, Xan): the director rules the renege out:
      officially no renege and Wes's call euchred, as played one renege by Vic.

    With fixtures/bid/bid-1.euchre (Max, Nan, Otto, Peg: a Bid game), "Max"
    is two players: a name alone says who within one variant and source."""
    from euchre_events.events import GameStarted, RenegeClaimed, RenegeRuled
    from test_official_result import c3_events
    import json
    N, E, S, W = range(4)
    up = c3_events(initial=(8, 8))
    up[0] = GameStarted("standard", {}, ("Max", "Bob", "Cy", "Di"), W, initial_score=(8, 8), title="C3 upheld")
    up += [RenegeClaimed(N, E, 1, 1), RenegeRuled(1, 1, E, "upheld", None, "TD Smith", "")]
    out = c3_events()
    out[0] = GameStarted("standard", {}, ("Uma", "Vic", "Wes", "Xan"), W, initial_score=(0, 0), title="C3 ruled out")
    out += [RenegeClaimed(N, E, 1, 1), RenegeRuled(1, 1, E, "rejected", None, "TD Smith", "not seen")]
    db = str(tmp_path / "o.sqlite")
    Archive(db).import_records([Record(up), Record(out), read_records(os.path.join(ROOT, "fixtures", "bid", "bid-1.euchre"))[0]])
    r = RUNNER.invoke(app, ["stats", "--db", db, "--json"])
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    p = s["players"]
    assert "Max" not in p and p["Max (standard)"]["games"] == p["Max (bid)"]["games"] == 1
    assert p["Max (standard)"]["same_name"] == ["Max (bid)"]
    assert s["notes"] == ["Max (bid) and Max (standard) share a name and no player id links them: "
                          "one person or several"]
    mx, di, cy, bob = p["Max (standard)"], p["Di"], p["Cy"], p["Bob"]
    assert (mx["wins"], mx["as_played"]["wins"], di["wins"], di["as_played"]["wins"]) == (1, 0, 0, 1)
    assert (cy["calls"], cy["made"], cy["euchred"]) == (1, 1, 0)
    assert (cy["as_played"]["made"], cy["as_played"]["euchred"]) == (0, 1)
    assert (bob["reneges"], bob["as_played"]["reneges"]) == (1, 1)
    vic, wes = p["Vic"], p["Wes"]
    assert (vic["reneges"], vic["as_played"]["reneges"]) == (0, 1)
    assert (wes["made"], wes["euchred"], wes["as_played"]["made"], wes["as_played"]["euchred"]) == (0, 1, 0, 1)
    std = json.loads(RUNNER.invoke(app, ["stats", "--db", db, "--json", "--variant", "standard"]).stdout)
    # S is third from the dealer W in both games; both ordered up the 10♥
    assert std["by_seat"] == {"3": {"calls": 2, "made": 1, "made_as_played": 0}}
    assert std["by_up_card"] == {"T": {"calls": 2, "made": 1, "made_as_played": 0}}
    text = RUNNER.invoke(app, ["stats", "--db", db, "--variant", "standard"]).stdout
    assert "Cy: games 1, won 1 (as played 0); deals 1 (played 1); calls 1, made 1 (as played 0), euchred 0 (as played 1)" in text
    assert "Vic: games 1, won 0" in text and "reneges 0 (as played 1)" in text
