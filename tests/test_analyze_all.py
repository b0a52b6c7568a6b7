"""A whole archive analysed (issue 25): ``analyze --all`` one task per game,
resumable after SIGKILL, ``--workers`` processes over games, a Dask cluster
(``--scheduler``) giving the same read model, a worker killed mid-task
losing and duplicating nothing; and the decision explorer's counts for a
hand-counted archive.  SQLite and PostgreSQL (marked ``postgres``)."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import ROOT, RUNNER as runner
from euchre_events.archive import Archive
from euchre_events.archive.readmodels import ReadModels
from euchre_events.cli import app
from euchre_events.formats import read_records
from test_archive import pg_schema  # noqa: F401  (pg_schema is a fixture)
from test_club_db_url import pg_url

FIXTURES = [os.path.join(ROOT, "fixtures", v, f) for v in ("standard", "two-handed")
            for f in sorted(os.listdir(os.path.join(ROOT, "fixtures", v))) if f.endswith(".euchre")]
PARLOUR1 = os.path.join(ROOT, "fixtures", "two-handed", "parlour-1.euchre")
CLI = os.path.join(ROOT, ".venv", "bin", "euchre-events")
TABLES = ("ee_rm_analysis", "ee_ex_games", "ee_ex_decisions", "ee_ex_options")


def run(*args):
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


def build(db: str, files=FIXTURES) -> list:
    arch = Archive(db)
    ids = []
    for f in files:
        for rec in read_records(f):
            ids.append(str(arch.import_record(rec)[0]))
    return ids


def dump(db: str) -> dict:
    """Every row of the analysis read model and the explorer's tables, sorted."""
    rm = ReadModels(Archive(db))
    out = {}
    for t in TABLES:
        try:
            rows = rm.view.select(f"SELECT * FROM {rm.view._t(t)}")
        except Exception:   # a table not made yet: no rows
            rows = []
        out[t] = sorted(json.dumps(r, sort_keys=True, default=str) for r in rows)
    return out


def clear(db: str) -> None:
    rm = ReadModels(Archive(db))
    with rm.view._tx() as c:
        for t in TABLES:
            c.execute(f"DELETE FROM {rm.view._t(t)}")


def count(db: str) -> int:
    rm = ReadModels(Archive(db))
    return rm.view.select("SELECT COUNT(*) AS n FROM {ee_rm_analysis}")[0]["n"]


def _killed_then_rerun(db: str):
    """An uninterrupted run's read model; then the same archive emptied of
    analyses, a run SIGKILLed after its first games were written, and a rerun:
    the same rows, and the rerun skipped what the killed run had done."""
    n_games = len(build(db))
    r = run("analyze", "--all", "--db", db, "--face-up-only")
    assert r.exit_code == 0, r.output
    assert f"{n_games} games analysed, 0 already done, 0 failed" in r.stdout
    whole = dump(db)
    assert len(whole["ee_rm_analysis"]) == n_games and whole["ee_ex_decisions"]
    clear(db)
    env = dict(os.environ, PYTHONPATH=ROOT)
    # one process (a worker of a pool may still write its game after its parent was killed)
    p = subprocess.Popen([CLI, "analyze", "--all", "--db", db, "--face-up-only", "--workers", "1"], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    while time.time() < deadline and p.poll() is None:
        try:
            if count(db) >= 2:
                break
        except Exception:  # tables not made yet by the child
            pass
        time.sleep(0.02)
    assert p.poll() is None, "the run ended before it could be killed"
    p.send_signal(signal.SIGKILL)
    p.wait()
    done = count(db)
    assert 2 <= done < n_games
    r = run("analyze", "--all", "--db", db, "--face-up-only")
    assert r.exit_code == 0, r.output
    assert f"{n_games - done} games analysed, {done} already done" in r.stdout
    assert dump(db) == whole


def test_sigkill_then_rerun_gives_the_same_read_model_sqlite(tmp_path):
    _killed_then_rerun(str(tmp_path / "club.sqlite"))


@pytest.mark.postgres
def test_sigkill_then_rerun_gives_the_same_read_model_postgres(pg_schema):  # noqa: F811
    _killed_then_rerun(pg_url(pg_schema))


def test_a_game_appended_to_is_analysed_again_and_workers_agree(tmp_path):
    """Two local processes over games give the read model of one; a rerun
    analyses nothing; several game ids run as tasks too, and print their
    report as one game at a time would."""
    one, two = str(tmp_path / "one.sqlite"), str(tmp_path / "two.sqlite")
    ids = build(one)
    build(two)
    assert run("analyze", "--all", "--db", one, "--face-up-only").exit_code == 0
    r = run("analyze", "--all", "--db", two, "--face-up-only", "--workers", "2")
    assert r.exit_code == 0, r.output
    assert dump(one) == dump(two)
    again = run("analyze", "--all", "--db", two, "--face-up-only", "--workers", "2")
    assert f"0 games analysed, {len(ids)} already done" in again.stdout
    several = run("analyze", ids[0][:8], ids[-1][:8], "--db", two, "--face-up-only", "--format", "json")
    assert several.exit_code == 0, several.output
    assert [g["game_id"] for g in json.loads(several.stdout)["games"]] == [ids[0], ids[-1]]
    bad = run("analyze", ids[0][:8], "nosuchgame", "--db", two, "--face-up-only", "--format", "json")
    assert bad.exit_code == 1 and "nosuchgame" in bad.stderr


# ------------------------------------------------------------------ Dask
@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=40) as c:
        yield c


def _same_on_the_cluster(db: str, reference: str, cluster):
    build(db)
    build(reference)
    assert run("analyze", "--all", "--db", reference, "--face-up-only", "--workers", "1").exit_code == 0
    r = run("analyze", "--all", "--db", db, "--face-up-only", "--scheduler", cluster.scheduler_address)
    assert r.exit_code == 0, r.output
    assert dump(db) == dump(reference)


def test_local_cluster_gives_what_one_worker_gives_sqlite(tmp_path, cluster):
    """SQLite: the events go in the tasks, this process writes the results."""
    _same_on_the_cluster(str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite"), cluster)


@pytest.mark.postgres
def test_local_cluster_gives_what_one_worker_gives_postgres(tmp_path, cluster, pg_schema):  # noqa: F811
    """PostgreSQL: the workers read their games and write their results."""
    _same_on_the_cluster(pg_url(pg_schema), str(tmp_path / "b.sqlite"), cluster)


def _worker_killed(db: str, reference: str, cluster):
    """A worker process killed (SIGKILL, by its PID) while it runs a task: the
    nanny starts a new one, the scheduler runs the lost task again; every
    game is analysed once in the read model, the same as one process does."""
    from euchre_events.corpus import analysis_params, run_corpus
    ids = build(db)
    build(reference)
    params = analysis_params(3, 0, False, None, None, None)      # a seat view: tasks of a few seconds
    ref = run_corpus([str(g) for g in Archive(reference).game_ids()], db=reference, params=params, progress=False)
    assert ref.analysed == len(ids)
    killed = []

    def on_result(_r):
        # the scheduler runs in this process (LocalCluster): its own record of
        # each worker's PID and of the tasks processing there
        if killed:
            return
        busy = [ws for ws in list(cluster.scheduler.workers.values()) if ws.processing]
        if busy:
            killed.append(busy[0].pid)
            os.kill(busy[0].pid, signal.SIGKILL)
    res = run_corpus(ids, db=db, params=params, scheduler=cluster.scheduler_address, progress=False,
                     on_result=on_result)
    assert killed, "no worker was busy to kill"
    assert res.analysed == len(ids) and not res.failed
    got, want = dump(db), dump(reference)
    assert got == want
    assert len(got["ee_rm_analysis"]) == len(ids)


def test_a_worker_killed_mid_task_loses_and_duplicates_nothing_sqlite(tmp_path, cluster):
    _worker_killed(str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite"), cluster)


@pytest.mark.postgres
def test_a_worker_killed_mid_task_loses_and_duplicates_nothing_postgres(tmp_path, cluster, pg_schema):  # noqa: F811
    _worker_killed(pg_url(pg_schema), str(tmp_path / "b.sqlite"), cluster)


def test_scheduler_not_reachable_is_one_line(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    db = str(tmp_path / "a.sqlite")
    build(db, FIXTURES[:1])
    monkeypatch.setenv("EUCHRE_EVENTS_DASK_TIMEOUT", "1s")
    r = run("analyze", "--all", "--db", db, "--face-up-only", "--scheduler", "tcp://127.0.0.1:9")
    assert r.exit_code == 1 and "cannot reach the Dask scheduler tcp://127.0.0.1:9" in r.stderr
    assert count(db) == 0


# ------------------------------------------------------------------ the explorer
def test_explorer_counts_a_hand_counted_archive(tmp_path):
    """fixtures/two-handed/parlour-1.euchre, read by hand (12 deals, the
    dealer alternating P2, P1, ...):

    * the non-dealer (eldest) in the up-card's round: pass in deals 1-3, 5-12,
      ordered up in deal 4 (9S up; P2's JS AH KD KS TS take all five tricks:
      a march, 2 points in two-handed, rules.md 3);
    * the dealer in the up-card's round (deal 4 never came to it): passed in
      deals 1-3, 5, 6, 10-12, ordered up in 7, 8 and 9;
    * eldest in round two: named clubs in deals 2 and 12, diamonds in 6,
      passed in 1, 3, 5, 10, 11;
    * eldest, clubs turned up (TC, AC, JC, 9C: deals 6, 8, 9, 10): four passes."""
    from euchre_events.archive.explorer import explore
    db = str(tmp_path / "p.sqlite")
    build(db, [PARLOUR1])
    assert run("analyze", "--all", "--db", db, "--face-up-only").exit_code == 0
    rm = ReadModels(Archive(db))

    def played(**f):
        ex = explore(rm, variant="two-handed", **f)
        return {a.action: a.played for a in ex.actions if a.played}, ex
    got, ex = played(seat_rel=1, round=1)
    assert got == {"pass": 11, "order": 1} and ex.decisions == 12 and ex.games == 1
    assert {a.action: a.points for a in ex.actions}["order"] == 2.0
    assert played(seat_rel=0, round=1)[0] == {"pass": 8, "order": 3}
    assert played(seat_rel=1, round=2)[0] == {"pass": 5, "name C": 2, "name D": 1}
    assert played(seat_rel=1, round=1, up_suit="C")[0] == {"pass": 4}
    # every hand holds 0, 1 or 2 bowers of the up-card.s suit: the bowers filter splits the 11 passes
    assert sum(played(seat_rel=1, round=1, bowers=b)[0].get("pass", 0) for b in (0, 1, 2)) == 11
    # the command: text, JSON, HTML (escaped), and a bad filter named
    r = run("explore", "--db", db, "--variant", "two-handed", "--seat", "eldest", "--round", "1", "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert {a["action"]: a["played"] for a in doc["actions"]} == {"pass": 11, "order": 1}
    t = run("explore", "--db", db, "--variant", "two-handed", "--seat", "dealer", "--round", "1")
    assert "11 decisions in 1 game" in t.stdout and "order" in t.stdout
    h = run("explore", "--db", db, "--variant", "<b>", "--format", "html", "-o", tmp_path / "x.html")
    assert h.exit_code == 0 and "&lt;b&gt;" in (tmp_path / "x.html").read_text()
    bad = run("explore", "--db", db, "--seat", "north")
    assert bad.exit_code == 1 and "--seat" in bad.stderr and "Traceback" not in bad.output
    bad = run("explore", "--db", db, "--score", "eight")
    assert bad.exit_code == 1 and "--score" in bad.stderr


def test_an_analysis_of_one_deal_never_stands_for_the_game_in_the_explorer(tmp_path):
    """The newcomer's case: ``analyze --all`` (every deal of parlour game 1:
    12 decisions of the non-dealer in the up-card's round), then ``analyze
    GAME --deal 2`` (one deal, other parameters): the explorer must still
    count the 12, not the one deal's single decision (it used to pick the
    one-deal analysis, a tie of one game each, and drop eleven deals unseen).
    The one-deal analysis stays in the cache."""
    from euchre_events.archive.explorer import explore
    db = str(tmp_path / "p.sqlite")
    [gid] = build(db, [PARLOUR1])
    assert run("analyze", "--all", "--db", db, "--face-up-only").exit_code == 0
    assert run("analyze", str(gid), "--db", db, "--deal", "2", "--face-up-only", "--seed", "3").exit_code == 0
    rm = ReadModels(Archive(db))
    ex = explore(rm, variant="two-handed", seat_rel=1, round=1)
    assert ex.decisions == 12 and ex.games == 1
    assert json.loads(ex.pkey)["params"]["deals"] is None
    assert rm.analysed_games() == 2      # both analyses cached


def _descendants(pid: int) -> set:
    """The processes below ``pid`` (its children, theirs, ...), from /proc."""
    kids: dict = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat", "rb") as f:
                    ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, set()).add(int(d))
    out, todo = set(), [pid]
    while todo:
        for k in kids.get(todo.pop(), ()):
            if k not in out:
                out.add(k)
                todo.append(k)
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def _kill_leaves_nothing(args: list, least: int) -> None:
    """``euchre-events ARGS`` SIGKILLed once it runs ``least`` processes
    below it: every one of them ends within 10 s (they once waited for tasks
    forever: a pool's workers and its forkserver, holding their PostgreSQL
    connections)."""
    p = subprocess.Popen([CLI, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 60
        below: set = set()
        while time.time() < deadline and p.poll() is None:
            below = _descendants(p.pid)
            if len(below) >= least:
                break
            time.sleep(0.05)
        assert p.poll() is None and len(below) >= least, "the run ended before its workers were seen"
        time.sleep(0.5)      # the workers at their tasks
        below |= _descendants(p.pid)
    finally:
        p.send_signal(signal.SIGKILL)
        p.wait()
    deadline = time.time() + 10
    while time.time() < deadline and any(_alive(k) for k in below):
        time.sleep(0.1)
    left = sorted(k for k in below if _alive(k))
    for k in left:
        os.kill(k, signal.SIGKILL)
    assert left == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_killed_run_over_the_archive_leaves_no_worker(tmp_path):
    """``analyze --all --workers 2`` (a forkserver and two workers) killed
    mid-run: the forkserver and the workers end too."""
    db = str(tmp_path / "club.sqlite")
    build(db)
    _kill_leaves_nothing(["analyze", "--all", "--db", db, "--samples", "100", "--workers", "2"], 3)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_killed_run_over_a_game_s_deals_leaves_no_worker():
    """``analyze VWEC --workers 2`` (its 13 deals over two forked workers,
    each a second or more) killed mid-run: both workers end too."""
    vwec = os.path.join(ROOT, "fixtures", "egn", "VWEC Finals.egn")
    _kill_leaves_nothing(["analyze", vwec, "--workers", "2", "--format", "json"], 2)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_killed_run_over_record_files_leaves_no_worker():
    """``analyze`` of three EGN files, their seat view (a file a part, each
    several seconds): the forked reader ends with the killed command, not
    at the end of its part."""
    files = [os.path.join(ROOT, "fixtures", "egn", f) for f in ("Epic Comeback.egn", "VWEC Finals.egn",
                                                                "Me and Bears.egn")]
    _kill_leaves_nothing(["analyze", *files, "--workers", "2", "--format", "json"], 1)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_of_a_run_over_the_archive_stops_its_games_in_flight(tmp_path):
    """A person's Ctrl-C (SIGINT to the process group) of ``analyze --all
    --workers 2`` with the seat view (8 games in flight, seconds each): exit
    130 at once, no traceback, no worker left; the games in flight were
    once all finished first (14 s on the MotE match) and their results
    dropped.  A rerun then analyses every game."""
    db = str(tmp_path / "club.sqlite")
    n_games = len(build(db))
    p = subprocess.Popen([CLI, "analyze", "--all", "--db", db, "--workers", "2"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.time() + 60
    below: set = set()
    while time.time() < deadline and p.poll() is None and len(below) < 3:
        time.sleep(0.05)
        below = _descendants(p.pid)
    assert p.poll() is None and len(below) >= 3, "the workers never started"
    time.sleep(0.5)
    below |= _descendants(p.pid)
    t0 = time.monotonic()
    os.killpg(p.pid, signal.SIGINT)
    _, err = p.communicate(timeout=120)
    took = time.monotonic() - t0
    assert p.returncode == 130 and b"Traceback" not in err, err
    deadline = time.time() + 10
    while time.time() < deadline and any(_alive(k) for k in below):
        time.sleep(0.1)
    assert [k for k in below if _alive(k)] == []
    assert took < 5, f"{took:.1f} s after Ctrl-C: the games in flight were waited for"
    r = run("analyze", "--all", "--db", db, "--face-up-only", "--workers", "1")
    assert r.exit_code == 0 and f"{n_games} games analysed, 0 already done" in r.stdout


@pytest.mark.postgres
def test_a_run_over_a_postgresql_archive_ends_without_a_word_on_stderr(pg_schema):  # noqa: F811
    """``analyze --all`` of a PostgreSQL archive as a person runs it: exit 0
    and nothing on stderr (its archive was let go at the interpreter's exit,
    where the library's ``__del__`` raised: "Exception ignored in ...
    PostgresDatastore.__del__", a newcomer's finding)."""
    db = pg_url(pg_schema)
    n_games = len(build(db, FIXTURES[:2]))
    p = subprocess.run([CLI, "analyze", "--all", "--db", db, "--face-up-only", "--workers", "1"],
                       capture_output=True, text=True)
    assert (p.returncode, p.stderr) == (0, "")
    assert f"{n_games} games analysed, 0 already done, 0 failed" in p.stdout
