"""Drills from a player's own mistakes (issue 22): the exercises found in a
small archive analysed with a few samples, the thresholds, the schedule after
right and wrong answers, the attempts kept in the archive (SQLite and the
local PostgreSQL, no mock), the seat's view drawn without the other hands,
and ``euchre-events drill --list``.

The face-up values asserted are exact (the solver, every hand visible) and
checked by hand from the record: VWEC Finals deal 5, trick 2, East (Llama)
on lead after winning trick 1 with K♣ (clubs trump, North the maker with
J♠ A♣ 9♥ A♠): A♥ lets North ruff and the makers take 4 tricks (E/W −1),
9♣ draws North's trumps and E/W euchre North (+2).
"""
import os
from datetime import datetime, timedelta, timezone
from html.parser import HTMLParser

import pytest

from conftest import ROOT, RUNNER as runner
from euchre_events.analysis.review import Decision, Option
from euchre_events.archive import Archive
from euchre_events.archive.drills import (FACE_UP_THRESHOLD, RIGHT_INTERVALS, SEAT_VIEW_THRESHOLD, WRONG_DELAY,
                                          AttemptLog, DrillSet, due_after, exercise_of, find_exercises)
from euchre_events.archive.readmodels import ReadModels
from euchre_events.cli import app
from euchre_events.events import CardPlayed, OrderedUp, Passed
from test_archive import pg_schema  # noqa: F401  (a fixture)
from test_club_db_url import pg_url

VWEC = os.path.join(ROOT, "fixtures", "egn", "VWEC Finals.egn")
PARLOUR = os.path.join(ROOT, "fixtures", "two-handed", "parlour-2.euchre")
T0 = datetime(2025, 3, 1, 20, 0, tzinfo=timezone.utc)


def run(*args):
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


def analysed(db, *records, samples=8):
    for r in records:
        res = run("import", r, "--db", db)
        assert res.exit_code == 0, res.output
    res = run("analyze", "--all", "--samples", samples, "--db", db, "--format", "json")
    assert res.exit_code == 0, res.output
    return res


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    """VWEC Finals and parlour game 2, analysed with 8 imagined deals per decision."""
    db = str(tmp_path_factory.mktemp("drills") / "club.sqlite")
    analysed(db, VWEC, PARLOUR)
    return db


# ------------------------------------------------------------------ selection
def test_llamas_drill_is_the_ace_of_hearts_lead_of_deal_5(club):
    exs, n = find_exercises(Archive(club), player="LLAMA")       # any case
    assert n == 1                                                  # one analysed game with Llama
    ex = next(e for e in exs if e.deal == 5 and e.kind == "play")
    assert (ex.player, ex.seat, ex.played, ex.position) == ("Llama", 1, "AH", 124)
    d = ex.decision
    fu = {o.text: o.face_up for o in d.options}
    assert fu["AH"] == -1 and fu["9C"] == 2 and ex.face_up_cost == 3
    assert "9C" in ex.right and "AH" not in ex.right
    assert ex.samples == 8 and ex.key.endswith(":124")


def test_every_drill_meets_both_thresholds_and_is_the_players(club):
    arch = Archive(club)
    every, n = find_exercises(arch)
    assert n == 2 and every
    for ex in every:
        assert ex.face_up_cost >= FACE_UP_THRESHOLD and ex.seat_view_cost >= SEAT_VIEW_THRESHOLD
        d = ex.decision
        assert not d.forced and d.legal
        best = max(o.seat_view for o in d.options)
        played_fu = next(o.face_up for o in d.options if o.text == ex.played)
        for o in d.options:
            if o.text in ex.right:   # right: the seat view's best (within 0.1) that also did better face up
                assert o.seat_view >= best - 0.1 and o.face_up > played_fu
        assert arch.load(ex.game_id).players[ex.seat] == ex.player
    # biggest seat-view loss first
    assert [e.seat_view_cost for e in every] == sorted((e.seat_view_cost for e in every), reverse=True)
    # the same decisions the analysis itself lists with those costs (face up exact, seat view cached)
    from euchre_events.analysis.review import from_json
    rm = ReadModels(arch)
    want = set()
    for r in rm.view.select("SELECT game_id, doc FROM {ee_rm_analysis}"):
        import json
        for d in from_json(json.loads(r["doc"])).decisions():
            if (d.face_up_cost or 0) >= 1 and (d.seat_view_cost or 0) >= 0.25 and not d.forced:
                want.add((str(r["game_id"]), d.position))
    assert {(e.game_id, e.position) for e in every} <= want
    # Cal and Dot play parlour game 2 (two-handed) only
    cal, _ = find_exercises(arch, player="cal")
    assert cal and all(e.variant == "two-handed" and e.player == "Cal" for e in cal)
    assert {e.key for e in find_exercises(arch, variant="two-handed")[0]} == \
        {e.key for e in every if e.variant == "two-handed"}
    assert find_exercises(arch, player="Llama", variant="two_handed") == ((), 0)
    assert find_exercises(arch, player="Lla") == ((), 0)        # a name, not a part of one
    with pytest.raises(ValueError):
        find_exercises(arch, variant="snap")


def test_a_face_up_only_analysis_makes_no_drill(tmp_path):
    db = str(tmp_path / "f.sqlite")
    assert run("import", PARLOUR, "--db", db).exit_code == 0
    assert run("analyze", "--all", "--face-up-only", "--db", db).exit_code == 0
    assert find_exercises(Archive(db)) == ((), 0)     # no seat view: nothing to say what the seat could know


def _decision(played_fu, played_sv, options, forced=False):
    """A decision of three options: ``options`` is ``[(text, face_up, seat_view)]``, the first played."""
    opts = tuple(Option(action=Passed(seat=1) if t == "pass" else OrderedUp(seat=1, alone=False),
                        text=t, face_up=fu, points=None, seat_view=sv, seat_view_se=0.05) for t, fu, sv in options)
    best_fu = max(fu for _, fu, _ in options)
    best_sv = max(sv for _, _, sv in options)
    return Decision(position=4, deal=1, seat=1, kind="call", index=1, trick=None, played=opts[0].action,
                    options=opts, forced=forced, played_face_up=played_fu, played_seat_view=played_sv,
                    face_up_cost=best_fu - played_fu, seat_view_cost=best_sv - played_sv)


def test_the_thresholds_are_both_needed():
    kw = dict(game_id="g", title="t", variant="standard", players=("A", "B", "C", "D"), samples=8)
    # a pass that lost 2 face up and 0.30 from the seat's view: a drill, order is right
    ex = exercise_of(_decision(-1, 0, [("pass", -1, 0), ("order", 1, 0.30)]), **kw)
    assert ex is not None and ex.right == ("order",) and ex.player == "B"
    # 0.99 face up, or 0.24 from the seat's view: not one
    assert exercise_of(_decision(-1, 0, [("pass", -1, 0), ("order", -0.01, 0.30)]), **kw) is None
    assert exercise_of(_decision(-1, 0, [("pass", -1, 0), ("order", 1, 0.24)]), **kw) is None
    # forced: never
    assert exercise_of(_decision(-1, 0, [("pass", -1, 0), ("order", 1, 0.3)], forced=True), **kw) is None
    # the seat view's best would have lost as much this time: teaches nothing certain
    d = _decision(-1, 0, [("pass", -1, 0), ("order", -1, 0.5)])
    d = Decision(**{**d.__dict__, "face_up_cost": 2.0})
    assert exercise_of(d, **kw) is None


# ------------------------------------------------------------------ schedule
def test_a_right_answer_comes_back_later_a_wrong_one_sooner(tmp_path):
    db = str(tmp_path / "s.sqlite")
    analysed(db, PARLOUR)
    ds = DrillSet(Archive(db), player="Cal")
    first, second = ds.exercises[0], ds.exercises[1]
    assert ds.next(T0) is first and ds.progress(T0).line() == f"0 of {len(ds.exercises)} done \u00b7 0 right \u00b7 0 to review"
    ds.answer(first, ["pass"], correct=False, at=T0)
    assert ds.due(first) == T0 + WRONG_DELAY == T0 + timedelta(minutes=1)
    assert ds.next(T0 + timedelta(seconds=30)) is second          # not yet: the new ones first
    assert ds.next(T0 + timedelta(minutes=2)) is first           # due again: before the new ones
    p = ds.progress(T0 + timedelta(minutes=2))
    assert (p.done, p.right, p.to_review) == (1, 0, 1)
    t1 = T0 + timedelta(minutes=2)
    ds.answer(first, ["order"], correct=True, at=t1)
    assert ds.due(first) == t1 + RIGHT_INTERVALS[0] == t1 + timedelta(days=1)
    t2 = t1 + timedelta(days=1, minutes=5)
    ds.answer(first, ["order"], correct=True, at=t2)
    assert ds.due(first) == t2 + timedelta(days=3)                # right twice in a row: later still
    t3 = t2 + timedelta(days=3)
    ds.answer(first, ["pass"], correct=False, at=t3)
    assert ds.due(first) == t3 + timedelta(minutes=1)             # wrong: back to soon
    p = ds.progress(t3)
    assert (p.done, p.right, p.to_review) == (1, 0, 0)
    # every drill answered right: nothing due, the next review said, practise early gives the soonest
    for i, ex in enumerate(ds.exercises):
        ds.answer(ex, ["x"], correct=True, at=t3 + timedelta(seconds=i + 1))
    now = t3 + timedelta(minutes=10)
    assert ds.next(now) is None
    p = ds.progress(now)
    assert (p.done, p.right, p.to_review, p.new) == (len(ds.exercises), len(ds.exercises), 0, 0)
    assert p.next_due == t3 + timedelta(seconds=1) + timedelta(days=1)
    assert ds.next(now, early=True) is first
    assert due_after(()) is None


# ------------------------------------------------------------------ attempts in the archive
def _attempts_roundtrip(db):
    analysed(db, PARLOUR)
    ds = DrillSet(Archive(db), player="Dot")
    ex = ds.exercises[0]
    a1 = ds.answer(ex, ["pass"], correct=False, at=T0)
    a2 = ds.answer(ex, ["order"], correct=True, at=T0 + timedelta(minutes=3))
    assert (a1.n, a2.n) == (1, 2)
    # another process opens the archive: the attempts are there, and schedule the drill
    again = DrillSet(Archive(db), player="Dot")
    got = again.history(ex)
    assert [(a.n, a.answers, a.correct, a.at) for a in got] == \
        [(1, ("pass",), False, T0), (2, ("order",), True, T0 + timedelta(minutes=3))]
    assert got[0].game_id == ex.game_id and got[0].position == ex.position
    assert again.due(ex) == T0 + timedelta(minutes=3) + timedelta(days=1)
    # kept per learner: Cal's drills know nothing of Dot's answers
    assert AttemptLog(Archive(db)).attempts("Cal") == []
    # derived practice data, not events: the game's events are as imported, and rebuild keeps the attempts
    assert run("rebuild", "--db", db).exit_code == 0
    assert len(DrillSet(Archive(db), player="Dot").history(ex)) == 2
    assert run("verify", "--all", "--db", db).exit_code == 0


def test_attempts_are_kept_in_the_sqlite_archive(tmp_path):
    db = str(tmp_path / "a.sqlite")
    _attempts_roundtrip(db)
    import sqlite3
    rows = sqlite3.connect(db).execute("SELECT learner, answers, correct FROM ee_drill_attempts ORDER BY n").fetchall()
    assert rows == [("Dot", '["pass"]', 0), ("Dot", '["order"]', 1)]


@pytest.mark.postgres
def test_attempts_are_kept_in_the_postgres_archive(pg_schema):  # noqa: F811
    _attempts_roundtrip(pg_url(pg_schema))


# ------------------------------------------------------------------ the seat's view
class _HandCards(HTMLParser):
    """The ``data-card`` of every card inside each ``ee-hand-S`` element."""

    def __init__(self):
        super().__init__()
        self.stack, self.cards = [], {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        hand = next((int(c[8:]) for c in classes if c.startswith("ee-hand-") and c[8:].isdigit()), None)
        if tag in ("br", "img", "input", "meta", "link"):
            return
        self.stack.append(hand)
        inside = [h for h in self.stack if h is not None]
        if inside and a.get("data-card"):
            self.cards.setdefault(inside[-1], []).append(a["data-card"])

    def handle_endtag(self, tag):
        if self.stack:
            self.stack.pop()


def test_the_table_shows_the_seat_its_own_cards_only(club):
    from euchre_events.projections.seat import knowledge
    from euchre_events.ui.drill import BEST, drill_question
    arch = Archive(club)
    exs, _ = find_exercises(arch)
    for ex in exs:
        game = arch.load(ex.game_id)
        q = drill_question(ex, game)
        st = game.state_at(ex.position)
        know = knowledge(game, ex.position, ex.seat)
        p = _HandCards()
        p.feed(q.board)
        for s, hand in enumerate(st.hands):
            shown = [c for c in p.cards.get(s, []) if c not in ("hidden", "??")]
            if s == ex.seat:
                assert sorted(shown) == sorted(hand)
            else:   # only what the seat knows another holds (the up-card it saw taken up)
                known = set(know.known_held.get(s, ())) | set(know.may_hold.get(s, ()))
                assert set(shown) <= known, (ex.key, s, shown)
                assert len(set(shown)) <= 1
        # every option is a choice; the right ones share the value BEST; a card is clicked in the hand
        assert [t for t in q.texts] == [o.text for o in ex.decision.options]
        assert {t for t, (_, v) in zip(q.texts, q.choices) if v == BEST} == set(ex.right)
        for t, sel in zip(q.texts, q.targets):
            assert bool(sel) == (ex.kind == "play"), (t, sel)
        # the explanation gives the values and names the hidden cards, after the answer only
        assert "every hand visible" in q.explanation and f"{ex.face_up_cost:g} points" in q.explanation
        assert q.explanation not in q.board


# ------------------------------------------------------------------ the command
def test_drill_list_and_what_it_says_without_analyses(tmp_path, club):
    db = str(tmp_path / "empty.sqlite")
    assert run("import", PARLOUR, "--db", db).exit_code == 0
    r = run("drill", "--list", "--db", db)
    assert r.exit_code == 0 and "euchre-events analyze --all" in r.stderr and r.stdout == ""
    r = run("drill", "--db", db, "--no-browser")          # nothing to serve: said, exit 1
    assert r.exit_code == 1 and "euchre-events analyze --all" in r.stderr
    r = run("drill", "--list", "--db", club, "--player", "llama")
    assert r.exit_code == 0, r.output
    lines = r.stdout.strip().splitlines()
    assert any("VWEC Finals, deal 5, event 125: East (Llama) play, played A\u2665: lost 3 with every hand visible"
               in line and "show 07608601 --after 124 --seat E" in line for line in lines)
    assert "9\u2663" not in r.stdout                        # the list does not give the answer
    assert lines[-1].endswith("done \u00b7 0 right \u00b7 0 to review")
    r = run("drill", "--list", "--db", club, "--variant", "snap")
    assert r.exit_code == 1 and "--variant snap" in r.stderr and "Traceback" not in r.output
    # a name no player has, in an analysed archive: the name is what is wrong, not the analyses
    r = run("drill", "--list", "--db", club, "--player", "nobody")
    assert r.exit_code == 0 and r.stdout == ""
    assert "no player named 'nobody' in the 2 analysed games of the archive" in r.stderr
    assert "analyze --all" not in r.stderr


def test_points_lost_where_every_call_decides_the_game_the_same_make_no_drill():
    """A newcomer's finding: "Six Points in Two Hands" deal 2, South's order (event 27)
    lost 2 points face up and 0.7 from the seat's view, but either call won the game
    (0% of the winning chance lost: the analysis gives it no mark), and ``drill --list``
    offered it. A drill needs some winning chance lost, where the game has one."""
    from euchre_events.analysis import analyze
    from euchre_events.archive.drills import exercise_of
    from euchre_events.formats import read_records
    from euchre_events.projections import Game
    from conftest import SIX
    game = Game(read_records(str(SIX))[0].events)
    d = next(x for x in analyze(game, deals=[2], samples=20, seed=0).decisions() if x.position == 26)
    assert (d.seat, d.played_text, d.face_up_cost, d.win_chance_lost, d.label) == (2, "order", 2.0, 0.0, None)
    assert d.seat_view_cost >= SEAT_VIEW_THRESHOLD
    kw = dict(game_id="g", title="t", variant="standard", players=tuple(game.players), samples=20)
    assert exercise_of(d, **kw) is None
    # the same losses with some of the game's chance lost: a drill
    assert exercise_of(Decision(**{**d.__dict__, "win_chance_lost": 0.12}), **kw) is not None
