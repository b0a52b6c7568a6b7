"""The face-up solver (euchre_events.analysis.solver, issue 21 item 1).

Hand-worked positions: the values are worked out from rules.md in each
test's docstring and the solver must find them.  Real records: positions
late in the fixture games (fixtures/<variant>/*.euchre), where the plain
reference search is quick.
"""
import os
import glob

import pytest

from euchre_events.analysis import solver
from euchre_events.analysis.solver import Unknowable, action_values, solve, utilities, value_for
from euchre_events.formats import read_records
from euchre_events.rules.engine import apply, fold, legal_actions, new_table
from euchre_events.rules.table import PLAY

METHODS = ("reference", "fast")


def events_of(path):
    return read_records(path)[0].events


def table_at(path, k):
    """The table after the first ``k`` events of the record at ``path``."""
    return fold(new_table(), events_of(path), 0, k)


def by_text(av):
    """``{str(action): points}`` of action_values' answer."""
    return {(getattr(a, "card", None) or type(a).__name__): v for a, v in av}


def cards_left(t):
    return sum(len(h) for s, h in enumerate(t.hands) if s not in t.out)


# ------------------------------------------------------------ values

def test_utilities_and_values_follow_the_scoring_direction():
    """Buck counts down (rules.md 6.4): its utility is the points negated;
    two parties: the net (a euchre, 0-2, is -2 for the makers, rules.md 2.6)."""
    from euchre_events.rules.registry import make_variant
    buck, std, cut = make_variant("buck"), make_variant("standard"), make_variant("cutthroat")
    assert utilities(buck, (-3, 5, 0, -2)) == (3, -5, 0, 2)
    assert value_for(buck, (-3, 5, 0, -2), 3) == 2
    assert value_for(std, (0, 2), 0) == -2 and value_for(std, (0, 2), 1) == 2
    assert value_for(cut, (0, 2, 2), 1) == 2


# ------------------------------------------------------------ hand-worked positions

@pytest.mark.parametrize("method", METHODS)
def test_standard_lone_march_every_card_wins_four(method):
    """Standard, fixtures/standard/deals/lone-march-scores-four.euchre: N
    ordered hearts up alone (S sits out) and holds JH JD AH KH QH, the five
    highest trumps (rules.md 1.1).  After trick 2 (JH, JD won) N leads from
    AH KH QH: each wins its trick whatever E and W hold, so every lead ends
    in a lone march, 4 points to N/S (rules.md 2.6), 0 to E/W."""
    t = table_at("fixtures/standard/deals/lone-march-scores-four.euchre", 6 + 6)
    assert t.phase == PLAY and t.turn == 0 and sorted(t.hands[0]) == ["AH", "KH", "QH"]
    assert by_text(action_values(t, method=method)) == {"AH": (4, 0), "KH": (4, 0), "QH": (4, 0)}
    assert solve(t, method=method) == (4, 0)


@pytest.mark.parametrize("method", METHODS)
def test_buck_drop_out_stay_in_is_worth_two_tricks(method):
    """Buck, fixtures/buck/deals/everyone-drops-walkover.euchre, P4 (the
    dealer, seat 3) asked last after P2 and P3 dropped (rules.md 6.2).
    Hearts trump; P1 (maker) holds JH JD AH 9C 9S; P4 holds 9D QC TC KS 9H
    (took the 9H, threw JC).
    * P4 drops: P1 plays alone and takes 5 (-5 for P1, 6.4), P4 scores 0.
    * P4 stays: P1 leads JH (P4 must follow with the 9H), JD, AH: 3 tricks;
      then P1 has only 9C and 9S, and P4 beats each (QC or TC over the 9C,
      KS over the 9S): P1 -3, P4 -2 (two tricks, counting down).
    Utility is the points negated: staying (+2) beats dropping (0)."""
    t = table_at("fixtures/buck/deals/everyone-drops-walkover.euchre", 8)
    assert t.phase == "drop" and t.turn == 3
    assert by_text(action_values(t, method=method)) == {"StayedIn": (-3, 0, 0, -2),
                                                       "DroppedOut": (-5, 0, 0, 0)}
    assert solve(t, method=method) == (-3, 0, 0, -2)


@pytest.mark.parametrize("method", METHODS)
def test_cutthroat_dummy_march_scores_three(method):
    """Cutthroat, fixtures/cutthroat/deals/c12a-dummy-march-scores-three.euchre:
    P2 made hearts, took the dummy and kept JH JD AH KH QH, the five highest
    trumps (rules.md 4.3).  After two tricks he leads from AH KH QH: every
    card wins, a march with the dummy: 3 points to P2 (4.5
    ``march_value``), nothing to the defenders."""
    t = table_at("fixtures/cutthroat/deals/c12a-dummy-march-scores-three.euchre", 19)
    assert t.turn == 1 and t.contract.dummy_taken
    assert by_text(action_values(t, method=method)) == {"AH": (0, 3, 0), "KH": (0, 3, 0), "QH": (0, 3, 0)}


@pytest.mark.parametrize("method", METHODS)
def test_a_finished_deal_is_its_own_points(method):
    """After the last card a deal's value is its recorded points (the
    walkover: P1 alone takes 5, -5 counting down, rules.md 6.2, 6.4)."""
    ev = events_of("fixtures/buck/deals/everyone-drops-walkover.euchre")
    t = fold(new_table(), ev)
    assert solve(t, method=method) == (-5, 0, 0, 0)
    assert action_values(t, method=method) == []


def test_unknown_card_in_play_is_unknowable_but_the_kitty_is_not():
    """Two-handed records leave the 13 undealt cards unstated (``??``, 3.1):
    out of play, they never stop the analysis; a ``??`` in a hand does."""
    path = "fixtures/two-handed/deals/dealer-takes-it-up-must-exchange.euchre"
    ev = events_of(path)
    t = fold(new_table(), ev, 0, len(ev) - 2)   # trick 5: P1 KC, P2 AC left
    assert solve(t, method="reference") == (0, 1)
    t.hands[1] = ["??"]
    with pytest.raises(Unknowable, match="seat 1"):
        solve(t)


def test_unknown_method_is_refused():
    t = table_at("fixtures/buck/deals/everyone-drops-walkover.euchre", 8)
    with pytest.raises(ValueError, match="unknown method"):
        solve(t, method="guess")


# ------------------------------------------------------------ real records

GAMES = sorted(glob.glob("fixtures/*/*.euchre"))


def late_positions(path, max_cards):
    """Tables of the record at ``path`` inside the play with at most
    ``max_cards`` cards left in the hands that play (and their events)."""
    ev = events_of(path)
    t = new_table()
    for e in ev:
        if t.phase == PLAY and cards_left(t) <= max_cards and not any(
                c[:1] == "?" for s, h in enumerate(t.hands) if s not in t.out for c in h):
            yield t.copy(), e
        apply(t, e)


@pytest.mark.parametrize("path", GAMES)
def test_late_positions_of_real_games_are_consistent(path):
    """At every position of the record's play with few cards left: the
    position's value is the best of its children for the seat on turn (the
    model of the module docstring), a forced last card gives the deal's
    recorded points, and the value lies between the worst and best points
    any child reaches."""
    v = None
    n = 0
    for t, played in late_positions(path, 8):
        av = action_values(t, method="reference")
        value = solve(t, method="reference")
        party = t.variant.side_of(t.turn)
        best = max(value_for(t.variant, p, party) for _, p in av)
        assert value_for(t.variant, value, party) == best
        assert value in [p for _, p in av]
        after = t.copy()
        apply(after, played)
        if after.phase in ("deal_over", "game_over"):   # the last card: forced, the record's points
            assert len(av) == 1 and value == tuple(after.deal_results[-1][1])
        n += 1
    assert n > 0


# ------------------------------------------------------------ the per-deal memo

def test_a_deal_memo_values_each_position_once_and_changes_no_answer():
    """fixtures/standard/deals/c7-dealer-discards-the-up-card.euchre, from its
    first call: ``solve`` with a memo searches the whole auction (every
    call, the dealer's discard, the play from each contract).  Every later
    auction position of the same deal (the record's own line, as the review
    walks it) is then in the memo: ``action_values`` there with the same memo
    visits no new play position (``STATS["nodes"]`` unchanged).  After the
    contract is made the solve keeps only bounds of what alpha-beta on the
    net did not need exactly (``solver._net_ab``: a discard that cannot beat
    the best one is searched only that far), so the dealer's discard is
    searched again there.  Every answer is exactly what a fresh search (no
    memo, nothing kept) answers (the fast search against the reference:
    tests/test_analysis_differential.py)."""
    path = "fixtures/standard/deals/c7-dealer-discards-the-up-card.euchre"
    events = events_of(path)
    first = next(k for k, ev in enumerate(events) if ev.kind in ("Passed", "OrderedUp"))
    t = table_at(path, first)
    solver.clear_caches()
    memo: dict = {}
    root = solve(t, memo=memo)
    assert len(memo) > 20
    solver.clear_caches()
    assert root == solve(t)
    checked = 0
    for k in range(first, len(events)):
        ev = events[k]
        if t.phase in ("deal_over", "game_over"):
            break
        if getattr(ev, "seat", None) == t.turn and t.phase != PLAY:
            before = solver.STATS["nodes"]
            got = action_values(t, memo=memo)
            if t.maker is None:
                assert solver.STATS["nodes"] == before, f"event {k}: searched again"
            solver.clear_caches()
            assert got == action_values(t)
            checked += 1
        apply(t, ev)
    assert checked >= 2


@pytest.mark.skipif(not solver.compiled_available() or bool(os.environ.get("EUCHRE_EVENTS_NO_C")),
                    reason="the compiled play search is not built, or is turned off (EUCHRE_EVENTS_NO_C)")
@pytest.mark.parametrize("path", sorted(glob.glob("fixtures/standard/club-night-*.euchre"))[:2])
def test_every_card_of_a_play_decision_in_one_compiled_call(path):
    """At every play of the first deals of real standard records (two
    parties), ``_play_moves`` values each legal card by one compiled call
    (``two_party_moves``, equal cards searched once); each value is the one
    the per-card search gives (apply the card to a copy, ``solve`` it), and
    the last card of the deal is left to the engine's scoring (None)."""
    events = events_of(path)
    t = new_table()
    checked = 0
    for ev in events[:120]:
        if t.phase == PLAY and getattr(ev, "seat", None) == t.turn and ev.kind == "CardPlayed":
            acts, _ = legal_actions(t)
            got = solver._play_moves(t, acts)
            last = sum(len(h) for s, h in enumerate(t.hands) if s not in t.out) == 1
            if last:
                assert got is None
            else:
                solver.clear_caches()
                want = []
                for a in acts:
                    c = t.copy()
                    apply(c, a)
                    want.append(solve(c))
                assert got == want, (path, t.pos)
                checked += 1
        apply(t, ev)
    assert checked >= 20


@pytest.mark.parametrize("path", sorted(glob.glob("fixtures/*/*-1.euchre")))
def test_apply_legal_folds_as_apply(path):
    """``engine.apply_legal`` (the solver's fold of the actions ``legal_actions``
    gives, without the number check) leaves the very table ``apply`` leaves, and
    ``Table.copy`` copies every slot: at each position of a real record of every
    variant, for every legal action."""
    from euchre_events.rules.engine import apply_legal
    from euchre_events.rules.table import Table
    events = events_of(path)
    t = new_table()
    checked = 0
    for ev in events[:80]:
        if t.phase not in ("start", "dealing", "deal_over", "game_over"):
            acts, _ = legal_actions(t)
            for a in acts:
                x, y = t.copy(), t.copy()
                apply(x, a)
                apply_legal(y, a)
                assert all(getattr(x, n) == getattr(y, n) for n in Table.__slots__), (path, t.pos, a)
                checked += 1
        c = t.copy()
        assert all(getattr(c, n) == getattr(t, n) for n in Table.__slots__)
        assert all(a is not b for a, b in zip(c.hands, t.hands)) and c.seen is not t.seen
        apply(t, ev)
    assert checked >= 40


# ------------------------------------------------------------ the score tables

def _scoring_variants(v):
    """``v`` and copies of it with the options its scoring reads set otherwise
    (standard: super euchre, tokens, a lone maker's and a lone defender's
    values; cutthroat: the march values and the lone defender's scoring; Bid:
    the values of partner's best and moon)."""
    from dataclasses import replace
    o = v.options
    changes = {
        "standard": [dict(super_euchre=True, four_trick_tokens=True, loner_march_score=3,
                          lone_euchred_value=4, lone_defender_value=5)],
        "cutthroat": [dict(march_value=2, lone_no_dummy_march=4, lone_defender_scoring="lone_defender_only_4")],
        "bid": [dict(pb_value=7, moon_value=9, failed_pb_penalty=3, failed_moon_penalty=11)],
        "ghost_hand": [dict(moon_value=12, failed_moon_penalty=6)],
    }.get(v.name, [])
    out = [v]
    for ch in changes:
        ch = {k: x for k, x in ch.items() if hasattr(o, k)}
        out.append(type(v)(replace(o, **ch)))
    return out


def _scoring_tables(t):
    """``t`` and copies of it with another contract: each seat in play as the
    maker (alone or not, a lone defender), tokens near a point, and for the
    bidding variants every bid, partner's best and moon."""
    from dataclasses import replace
    active = t.active()
    for v in _scoring_variants(t.variant):
        for maker in active:
            for alone in (None, maker):
                for lone_defender in (None, next(s for s in active if v.side_of(s) != v.side_of(maker))):
                    c = t.copy()
                    c.variant, c.maker, c.alone, c.lone_defender = v, maker, alone, lone_defender
                    if v.name == "standard":
                        c.tokens = [3, 3]
                    bid = getattr(t.contract, "bid", None)
                    if bid is None:
                        yield c
                        continue
                    for b in (3, 4, 5, "moon") + (("pb",) if v.name == "bid" else ()):
                        d = c.copy()
                        d.contract = replace(c.contract, bid=b)
                        yield d


def _nets_reference(v, outcomes, side):
    """``solver._net_tables`` as first written: side 0's net for each count
    of its tricks and the points vector of each net, None where the net is
    not decided by the count (every outcome's sum and value made anew)."""
    net_of, vec_of_net = {}, {}
    for won, p in outcomes.items():
        k = sum(n for s, n in enumerate(won) if side[s] == 0)
        n = value_for(v, p, 0)
        if net_of.setdefault(k, n) != n or vec_of_net.setdefault(n, p) != p:
            return None
    return net_of, vec_of_net


@pytest.mark.parametrize("path", GAMES)
def test_score_tables_by_side_are_the_reference_enumeration(path):
    """``_outcomes`` (each way the sides' tricks end scored once, shared by the
    four trumps of a contract and by the ways the seats of a side share the
    tricks, ``Variant.SCORES_BY_SIDE``) gives the very dict, in the same order,
    that ``_outcomes_by_seat`` (the reference: a table copy scored for every
    seat's count) gives, and the nets ``_net_tables`` reads of it those of
    the first enumeration: with five and with three tricks to play in the
    record's first three deals, for every trump and every contract the
    variant's scoring reads (standard, two-handed, cutthroat, Ghost Hand,
    Buck, Bid with partner's best and moon)."""
    solver._OUTCOMES.clear()
    solver._SIDE_SCORES.clear()
    solver._SCORES.clear()
    t = new_table()
    checked = plays = 0
    for ev in events_of(path):
        left = t.variant.tricks_per_deal - len(t.tricks) if t.phase == PLAY else 0
        if not t.trick and left in (5, 3):      # (Bid's double deck: its last five tricks)
            plays += left == 5
            if plays > 3:
                break       # three deals of each record
            for c in _scoring_tables(t):
                for trump in ("C", "D", "H", "S"):
                    c.trump = trump
                    active = c.active()
                    got = solver._outcomes(c, active, left)
                    want = solver._outcomes_by_seat(c, active, left)
                    assert list(got.items()) == list(want.items()), (path, c.pos, c.maker, c.alone, c.contract)
                    if c.variant.n_sides == 2:
                        side = solver._seating(c)[1]
                        assert solver._net_tables(c, got, side) == _nets_reference(c.variant, want, side)
                    checked += 1
        apply(t, ev)
    assert checked > 0


def test_a_variant_whose_points_read_the_seats_is_scored_seat_by_seat(monkeypatch):
    """A variant that says its ``score_deal`` reads more than each side's
    tricks (``SCORES_BY_SIDE`` False) has its every seat's count scored, per
    trump: ``_outcomes`` gives ``_outcomes_by_seat``'s own dict."""
    path = "fixtures/standard/club-night-1.euchre"
    t = new_table()
    for ev in events_of(path):
        if t.phase == PLAY:
            break
        apply(t, ev)
    monkeypatch.setattr(type(t.variant), "SCORES_BY_SIDE", False)
    active = t.active()
    assert solver._outcomes(t, active, 5) is solver._outcomes_by_seat(t, active, 5)
