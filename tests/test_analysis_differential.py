"""The fast face-up solver against the reference (issue 21 "Speed": a
differential test that always runs, no optional dependency), and
properties of the solver (hypothesis).

Positions come from seeded random games of every variant
(rules/simulate.random_game), stopped inside the play where the
reference search is affordable, plus the last decision of the auction or
exchanges of small deals."""
import random
import shutil
import sys
import sysconfig
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchre_events.analysis import solver
from euchre_events.analysis.solver import _pick, action_values, solve, value_for
from euchre_events.rules.engine import apply, new_table
from euchre_events.rules.simulate import random_game
from euchre_events.rules.table import DEAL_OVER, GAME_OVER, PLAY

VARIANTS = {
    # variant: (option sets played in turn, most cards left in a position)
    "standard": ([None, {"defend_alone": "any"}, {"alone_timing": "after_exchange"},
                  {"four_trick_tokens": True}], 9),
    "two-handed": ([None], 8),
    "cutthroat": ([None, {"use_dummy": False}], 9),
    "ghost-hand": ([None, {"swap_phase": "before_auction"}], 9),
    "buck": ([None, {"drop_order": "maker_left"}], 9),
    "bid": ([None, {"low_no_trump": True, "allow_no_trump": "always"}], 8),
}

POINT_RANGE = {   # the default options' points per party (rules.md 2.6, 3.4, 4.5, 5.4, 6.4, 7.5)
    "standard": (0, 4), "two-handed": (0, 2), "cutthroat": (0, 4),
    "ghost-hand": (-24, 24), "buck": (-5, 5), "bid": (-24, 24),
}


def cards_left(t):
    return sum(len(h) for s, h in enumerate(t.hands) if s not in t.out)


def play_positions(variant, options, seed, max_cards, share=0.5):
    """Tables inside the play of a seeded random deal with at most
    ``max_cards`` cards left, each kept with probability ``share``."""
    rng = random.Random(seed)
    t = new_table()
    for e in random_game(variant, options, seed=seed, deals=1):
        if t.phase == PLAY and cards_left(t) <= max_cards and rng.random() < share:
            yield t.copy()
        apply(t, e)


SEARCHES = ["python"] + (["compiled"] if solver.compiled_available() else [])


@pytest.fixture(params=SEARCHES)
def search(request):
    """The fast method's play search: the Python one, and the compiled one
    (``_playsearch``) wherever it is built."""
    before = solver.use_compiled(request.param == "compiled")
    yield request.param
    solver.use_compiled(before)


def fast_values(t, compiled: bool):
    before = solver.use_compiled(compiled)   # and forgets the values kept across calls
    try:
        return action_values(t, method="fast")
    finally:
        solver.use_compiled(before)


def test_the_compiled_search_is_built_where_a_compiler_is():
    """On Linux with gcc and Python's headers, ``pip install`` builds the
    optional extension: a build that failed silently (the solver would
    quietly use the Python search) fails here."""
    headers = Path(sysconfig.get_paths()["include"], "Python.h").exists()
    if sys.platform != "linux" or shutil.which("gcc") is None or not headers:
        pytest.skip("no C compiler or no Python headers: the optional extension is not expected")
    assert solver.compiled_available(), "euchre_events.analysis._playsearch did not build (pip install -e .)"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_fast_equals_reference_on_2000_positions(variant):
    """Every legal action's points vector, fast == reference, at 2,000
    positions of the variant (with several option sets): the Python fast
    search always, the compiled one wherever it is built (one reference
    solve for both)."""
    option_sets, max_cards = VARIANTS[variant]
    n = seed = 0
    while n < 2000:
        options = option_sets[seed % len(option_sets)]
        for t in play_positions(variant, options, seed, max_cards):
            ref = action_values(t, method="reference")
            for compiled in [False] + ([True] if solver.compiled_available() else []):
                fast = fast_values(t, compiled)
                assert fast == ref, (variant, options, seed, t.pos, "compiled" if compiled else "python")
            n += 1
        seed += 1


def test_fast_break_positions_equal_the_reference_in_each_state():
    """Standard with ``fast_break`` (rules.md 2.9: the defenders take the
    first two tricks and lose the last three: 0 points), where the order of
    the tricks counts: the fast search goes card by card by the engine
    while a fast break may still come before the third trick
    (``trick_order`` True), then by counts on the tricks completed
    (False: a fast break iff the makers take every trick left; None: it
    can no longer come).  Every legal card's points vector equals the
    reference's, with 4 to 15 cards left, in each of the three states (it
    once fell back to the reference for the whole play: minutes a deal)."""
    counts = {True: 0, False: 0, None: 0}
    seed = 0
    while min(counts.values()) < 12 and seed < 400:
        t = new_table()
        for e in random_game("standard", {"fast_break": True}, seed=seed, deals=1):
            if t.phase == PLAY and t.maker is not None and 4 <= cards_left(t) <= 15:
                state = t.variant.trick_order(t)
                if counts[state] < 12:
                    counts[state] += 1
                    ref = action_values(t, method="reference")
                    for compiled in [False] + ([True] if solver.compiled_available() else []):
                        assert fast_values(t, compiled) == ref, (seed, t.pos, state, compiled)
            apply(t, e)
        seed += 1
    assert counts == {True: 12, False: 12, None: 12}


def test_a_fast_break_is_scored_by_the_solver_as_the_rules_score_it():
    """A hand-worked fast break: the makers' 3 tricks score 0 when the
    defenders took the first two, 1 otherwise (rules.md 2.9, 2.6), and the
    solver's outcome table at the third trick says so."""
    from euchre_events.analysis.solver import _outcomes
    seed = 0
    while True:
        t = new_table()
        for e in random_game("standard", {"fast_break": True}, seed=seed, deals=1):
            if t.phase == PLAY and t.maker is not None and len(t.tricks) == 2 and not t.trick:
                break
            apply(t, e)
        else:
            seed += 1
            continue
        v = t.variant
        ms = v.side_of(t.maker)
        if t.alone is None and t.lone_defender is None and \
                all(v.side_of(w) != ms for _, _, w in t.tricks):
            break
        seed += 1
    assert v.trick_order(t) is False
    maker_seats = [s for s in range(4) if v.side_of(s) == ms]
    out = _outcomes(t, [0, 1, 2, 3], 3)
    seen = set()
    for won, pts in out.items():
        m = sum(won[s] for s in maker_seats)     # the defenders hold 2: the makers 0 to 3
        seen.add(m)
        want = [0, 0]
        if m < 3:
            want[1 - ms] = 2        # euchred
        assert list(pts) == want, (won, pts)
    assert seen == {0, 1, 2, 3}
    # had the makers taken the first trick (the same counts): their 3 tricks make 1 point
    t.tricks = [t.tricks[0][:2] + (t.maker,)] + list(t.tricks[1:])
    assert v.trick_order(t) is None
    assert {tuple(p) for won, p in _outcomes(t, [0, 1, 2, 3], 3).items()
            if sum(won[s] for s in maker_seats) == 3} == {tuple(1 if s == ms else 0 for s in range(2))}


def last_decision_before_play(variant, seed):
    """The table at the last auction or exchange decision of a seeded
    random deal (None when the deal was thrown in)."""
    t = new_table()
    last = None
    for e in random_game(variant, seed=seed, deals=1):
        if t.dealer is not None and t.phase not in (PLAY, DEAL_OVER, GAME_OVER, "dealing", "deal") \
                and t.hands and t.phase != "thrown_in":
            last = t.copy()
        apply(t, e)
    return last if t.deal_results and t.deal_results[-1][2] == "played" else None


@pytest.mark.parametrize("variant", ["two-handed"])
def test_fast_equals_reference_at_the_last_call(variant, search):
    """The last decision before the play (a drop-out, a defender's answer,
    the dealer's discard...) of small deals: the auction and exchanges go
    through the engine in both methods, the play by each method's own
    search.  (Two-handed only: the reference search of a whole four-seat
    play takes minutes.)"""
    done = 0
    for seed in range(40):
        t = last_decision_before_play(variant, seed)
        if t is None:
            continue
        assert action_values(t, method="fast") == action_values(t, method="reference"), (variant, seed)
        done += 1
        if done == 2:
            break
    assert done == 2


# ------------------------------------------------------------ properties

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 10 ** 6),
       pick=st.integers(0, 10 ** 6))
def test_values_in_range_and_equal_to_the_best_child(search, variant, seed, pick):
    """At a random position inside the play (up to 15 cards left, fast
    method): every points vector lies in the variant's
    range, and the position's value is the best of its children's for the
    seat on turn (the model and tie rule of the solver)."""
    positions = list(play_positions(variant, None, seed, 15, share=1.0))
    if not positions:
        return
    t = positions[pick % len(positions)]
    lo, hi = POINT_RANGE[variant]
    av = action_values(t)
    value = solve(t)
    for _, p in av + [(None, value)]:
        assert len(p) == t.variant.n_sides and all(lo <= x <= hi for x in p)
    vecs = [p for _, p in av]
    party = t.variant.side_of(t.turn)
    assert value_for(t.variant, value, party) == max(value_for(t.variant, p, party) for p in vecs)
    assert value == vecs[_pick(t.variant, party, vecs)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 10 ** 6))
def test_a_deal_played_face_up_best_scores_its_root_value(search, variant, seed):
    """From a position of a random deal with 12 cards left, play at every step the action
    the solver's model takes (face-up best for the seat on turn, ties by the
    stated tie rule): the deal's recorded points equal the root's value."""
    positions = list(play_positions(variant, None, seed, 12, share=1.0))
    if not positions:
        return
    t = positions[0].copy()
    root = solve(t)
    while t.phase == PLAY:
        av = action_values(t)
        apply(t, av[_pick(t.variant, t.variant.side_of(t.turn), [p for _, p in av])][0])
    assert tuple(t.deal_results[-1][1]) == root


def decision_positions(variant, options, seed):
    """Tables at every auction and exchange decision of a seeded random deal."""
    t = new_table()
    for e in random_game(variant, options, seed=seed, deals=1):
        if t.dealer is not None and t.hands and t.turn is not None \
                and t.phase not in (PLAY, DEAL_OVER, GAME_OVER, "dealing", "deal", "thrown_in"):
            yield t.copy()
        apply(t, e)


@pytest.mark.skipif(not solver.compiled_available(), reason="the alpha-beta on the net runs with the compiled search")
@pytest.mark.parametrize("variant", ["standard", "two-handed", "bid"])
def test_net_alpha_beta_equals_the_plain_search_at_every_call(variant):
    """After the contract is made (the pick-up, the dealer's discard, a lone
    hand declared after it) the fast method searches by alpha-beta on the
    net (``solver._net_ab``) where one side only scores; every option of
    every auction and exchange decision of seeded deals (several option
    sets) has the same points vector as with the plain fast search (held to
    the reference by the tests above).  Bid (both sides score) must fall
    back to the plain search: same answers too."""
    option_sets, _ = VARIANTS[variant]
    n = 0
    seen = []
    for seed in range({"standard": 40, "two-handed": 60, "bid": 3}[variant]):
        options = option_sets[seed % len(option_sets)]
        for t in decision_positions(variant, options, seed):
            seen.append(t.variant)
            solver.clear_caches()
            got = action_values(t, method="fast")
            solver.clear_caches()
            solver._NET_AB = False
            try:
                plain = action_values(t, method="fast")
            finally:
                solver._NET_AB = True
            assert got == plain, (variant, options, seed, t.phase)
            n += 1
    assert n >= 10
    # the alpha-beta ran where one side only scores, and stood down in Bid
    assert all((v in solver._NOT_NET) == (variant == "bid") for v in seen), solver._NOT_NET


@pytest.mark.skipif(not solver.compiled_available(), reason="the alpha-beta on the net runs with the compiled search")
@pytest.mark.parametrize("variant", ["standard", "two-handed"])
def test_tricks_bounds_shared_across_contracts_change_no_value(variant):
    """``solver._KB`` (bounds on side 0's tricks of a play, learnt under one
    contract and read under another of the same play) changes no value:
    every option of every auction and exchange decision of seeded deals,
    the bounds kept across the decisions of a deal, equals the plain fast
    search (held to the reference by the tests above); and the bounds
    answered some plays without a search."""
    option_sets, _ = VARIANTS[variant]
    n = 0
    known = solver.STATS["known"]
    for seed in range({"standard": 30, "two-handed": 40}[variant]):
        options = option_sets[seed % len(option_sets)]
        solver.clear_caches()
        memo: dict = {}
        for t in decision_positions(variant, options, seed):
            got = action_values(t, method="fast", memo=memo)
            kb = dict(solver._KB)
            solver._K_CACHE = False
            try:
                plain = action_values(t, method="fast")
            finally:
                solver._K_CACHE = True
            solver._KB.clear()
            solver._KB.update(kb)
            assert got == plain, (variant, options, seed, t.phase)
            n += 1
    assert n >= 10 and solver.STATS["known"] > known


@pytest.mark.skipif(not solver.compiled_available(), reason="the alpha-beta on the net runs with the compiled search")
@pytest.mark.parametrize("variant", ["standard", "two-handed"])
def test_exchange_decisions_after_the_par_equal_the_plain_search(variant, monkeypatch):
    """As ``analyze`` values them: the deal solved first from its first
    decision (the par), then every auction and exchange decision with the
    same memo.  A play start below an exchange (the dealer's discard's six
    children, a lone hand's) is valued by the full-window leaf of the net
    search (``solver._net_leaf``, reading the tricks' bounds the par's
    windowed searches left), and the dealer's discards followed by the
    choice to go alone (``alone_timing="after_exchange"``) by
    ``solver._discards_then_plays`` (the plays after the other discards read
    from those after one, searched in one call), the lone-hand choice after
    it by the plays those kept (``solver._kept_play``); every option equals
    the plain fast search with nothing kept (held to the reference by the
    tests above)."""
    option_sets, _ = VARIANTS[variant]
    n = discards = 0
    batched = solver.STATS["discards"]
    kept = solver._kept_play
    read = []

    def counted(c):
        v = kept(c)
        read.append(v is not None)
        return v
    monkeypatch.setattr(solver, "_kept_play", counted)   # counts the plays read, changes nothing
    for seed in range({"standard": 30, "two-handed": 40}[variant]):
        options = option_sets[seed % len(option_sets)]
        solver.clear_caches()
        memo: dict = {}
        for i, t in enumerate(decision_positions(variant, options, seed)):
            if i == 0:
                solve(t, memo=memo)
            got = action_values(t, method="fast", memo=memo)
            saved = (dict(solver._KB), dict(solver._PLAYS))
            solver.clear_caches()
            solver._NET_AB = False
            try:
                plain = action_values(t, method="fast")
            finally:
                solver._NET_AB = True
            solver.clear_caches()
            solver._KB.update(saved[0])
            solver._PLAYS.update(saved[1])
            assert got == plain, (variant, options, seed, t.phase)
            discards += all(getattr(a, "kind", None) == "Discarded" for a, _ in got)
            n += 1
    assert n >= 10 and discards >= 3
    if variant == "standard":
        assert solver.STATS["discards"] > batched and any(read)


@pytest.mark.skipif(not solver.compiled_available(), reason="the contexts are the compiled search's")
@pytest.mark.parametrize("variant", ["standard", "two-handed"])
def test_a_play_context_read_from_the_play_start_equals_the_computed_one(variant):
    """``solver._contract_from_start``: at every position of the play of
    seeded deals (lone hands among them), the compiled search's context of
    the contract read from the play start's equals the one computed by
    scoring the outcomes (``solver._contract``): the same nets per count of
    side 0's tricks, tables, seats, tricks won and shape, and the same
    points vector for every net reachable from the position."""
    option_sets, _ = VARIANTS[variant]
    n = 0
    for seed in range(30):
        options = option_sets[seed % len(option_sets)]
        t = new_table()
        solver.clear_caches()
        for e in random_game(variant, options, seed=seed, deals=1):
            if t.phase == PLAY:
                prep = solver._play_prep(t)
                if prep is not None and prep[-1][-2] is not None:
                    pt, _, _, active, left, _, _, key = prep
                    ckey = (key[-2], key[4], left, key[-1])
                    solver._LEAF.pop(ckey, None)
                    got = solver._contract(t, pt, active, left, key)
                    if any(key[4]) and got[1] is not None:
                        solver._LEAF.pop(ckey, None)
                        solver._FROM_START = False
                        try:
                            want = solver._contract(t, pt, active, left, key)
                        finally:
                            solver._FROM_START = True
                        assert got[:2] + got[3:] == want[:2] + want[3:], (variant, seed, t.pos)
                        assert want[2].items() <= got[2].items(), (variant, seed, t.pos)
                        n += 1
            apply(t, e)
    assert n >= 100


@pytest.mark.skipif(not solver.compiled_available(), reason="the exchange search is the compiled one's")
@pytest.mark.parametrize("variant", ["standard", "two-handed"])
def test_a_contracts_exchange_in_one_compiled_call_equals_the_engine_children(variant, monkeypatch):
    """The dealer's discard with the lone-hand choice after it, or that
    choice alone, searched by one compiled call (``solver._exchange``:
    ``_playsearch.exchange``, alpha-beta over the discards and the play
    starts the engine gives, the tricks' bounds kept in C across contracts)
    changes no value: as ``analyze`` asks them (the par first, then every
    auction and exchange decision with the same memo), every option equals
    the search over the engine's children (``_EXCHANGE`` off, held to the
    plain search and the reference by the tests above), with and without
    the tricks' bounds; and in standard Euchre the call ran, at the discard
    and at the lone-hand choice, with plays answered by the bounds."""
    option_sets, _ = VARIANTS[variant]
    exchange = solver._exchange
    ran = []

    def counted(*args):
        v = exchange(*args)
        ran.append((v is not None, args[0].phase))
        return v
    monkeypatch.setattr(solver, "_exchange", counted)   # counts the calls, changes nothing
    n = 0
    known = solver.STATS["known"]
    for seed in range({"standard": 30, "two-handed": 40}[variant]):
        options = option_sets[seed % len(option_sets)]
        for k_cache in (True, False):
            solver._K_CACHE = k_cache
            try:
                solver.clear_caches()
                memo: dict = {}
                for i, t in enumerate(decision_positions(variant, options, seed)):
                    if i == 0:
                        solve(t, memo=memo)
                    got = action_values(t, method="fast", memo=memo)
                    solver._EXCHANGE = False
                    try:
                        plain = action_values(t, method="fast", memo={})
                    finally:
                        solver._EXCHANGE = True
                    assert got == plain, (variant, options, seed, t.phase, k_cache)
                    n += 1
            finally:
                solver._K_CACHE = True
    assert n >= 10
    if variant == "standard":   # (two-handed's discard starts the play: no choice after it)
        done = {str(phase) for ok, phase in ran if ok}
        assert {"discard", "alone"} <= done and solver.STATS["known"] > known, done


@pytest.mark.skipif(not solver.compiled_available(), reason="the exchange search is the compiled one's")
@pytest.mark.parametrize("variant", ["standard", "two-handed"])
def test_exchange_set_ups_shared_across_makers_and_deals_change_no_value(variant):
    """The dealer's other discards made once for every round-1 maker of a
    deal (``solver._DISCARD_KIDS``, read by the par and by the discard
    decision), a choice's play starts' parameters made once for every deal
    of the contract (``solver._CHOICES``) and the calls valued without the
    position after them where the same auction position comes again
    (``solver._CHOICE_KIDS``), all kept across deals and option sets
    (nothing forgotten between the seeds), change no value: as ``analyze``
    asks them (the par first, then every auction and exchange decision with
    the same memo), every option equals the values with the shares off and
    every set-up made by the engine (fresh memo and caches); and in standard
    Euchre each share was read."""
    option_sets, _ = VARIANTS[variant]
    solver.clear_caches()
    n = 0
    shared = solver.STATS["shared"]
    for seed in range({"standard": 48, "two-handed": 40}[variant]):
        options = option_sets[seed % len(option_sets)]
        memo: dict = {}
        positions = list(decision_positions(variant, options, seed))
        found = []
        for i, t in enumerate(positions):
            if i == 0:
                solve(t, memo=memo)
            found.append(action_values(t, method="fast", memo=memo))
        kept = (dict(solver._DISCARD_KIDS), dict(solver._CHOICES), dict(solver._CHOICE_KIDS),
                dict(solver._SHAPE_IDS))
        solver._SHARE_KIDS = solver._SHARE_CHOICES = False
        try:
            solver.clear_caches()
            memo = {}
            for i, t in enumerate(positions):
                if i == 0:
                    solve(t, memo=memo)
                got = action_values(t, method="fast", memo=memo)
                assert got == found[i], (variant, options, seed, t.phase)
                n += 1
        finally:
            solver._SHARE_KIDS = solver._SHARE_CHOICES = True
        solver.clear_caches()   # (the compiled search's bounds, kept under the shapes' ids, forgotten)
        for cache, got in zip((solver._DISCARD_KIDS, solver._CHOICES, solver._CHOICE_KIDS, solver._SHAPE_IDS), kept):
            cache.update(got)   # the shares go on from deal to deal
    assert n >= 10
    if variant == "standard":   # each share read (the counts: the runs with the shares on)
        assert solver._DISCARD_KIDS and len(solver._CHOICES) > 1 and solver.STATS["shared"] > shared + 10
        assert any(e and e[1] is not None for kids in solver._CHOICE_KIDS.values() for e in kids.values())
