"""The fast core (rules/fastcore.py, issue 11) against the engine, the
reference: the same table at every event of every game it accepts, and a
decline (None), never an answer, for every game it must leave to the engine
(reneges, irregular and impossible decisions, incomplete deals, options it
does not handle).  The games are made by the engine itself
(``rules.simulate`` through ``formats.openspiel.simulated_openspiel_games``,
so these tests always run: a change to ``upcard.py`` that the fast core
does not follow fails here) and, where ``pyspiel`` is installed, by
OpenSpiel too, with both of its parameters; and seeded random histories
with injected faults."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchre_events.formats.openspiel import (ID_OF_CARD, OpenSpielError, _decode,
                                             openspiel_options, random_openspiel_games,
                                             simulated_openspiel_games)
from euchre_events.rules import fastcore as F
from euchre_events.rules.engine import ImpossibleEvent, apply, new_table, play_legal
from euchre_events.rules.registry import make_variant

PARAMS = ({}, {"allow_lone_defender": True, "stick_the_dealer": False},
          {"allow_lone_defender": True}, {"stick_the_dealer": False})

SOURCES = ("simulate", "pyspiel")
"""Who makes the games: the engine (``rules.simulate``, always) or OpenSpiel
(``pyspiel``; those cases skip where it is not installed)."""


def _games(source, n, seed, params, tricks=False):
    """``n`` one-deal games as OpenSpiel JSON Lines dicts, from ``source``."""
    if source == "pyspiel":
        pytest.importorskip("pyspiel")
        return random_openspiel_games(n, seed, params, tricks=tricks)
    return simulated_openspiel_games(n, seed, params, tricks=tricks)


def _engine_states(history, params):
    """[(event, state dict)] after each event past CardsDealt, as the engine
    folds the reader's events; raises what the reader raises."""
    t = new_table()
    out = []
    for ev, _ in _decode(history, params, "", None, lambda: t):
        apply(t, ev)
        if t.pos <= 3:
            continue
        out.append((ev, _state(t)))
    return out, t


def _state(t) -> dict:
    """The engine's table as the fast core's ``observe`` gives its own (card ints)."""
    legal = sorted(ID_OF_CARD[c] for c in play_legal(t)[0]) if t.phase == "play" else None
    return {
        "phase": str(t.phase), "turn": t.turn,
        "hands": [sorted(ID_OF_CARD[c] for c in h) for h in t.hands],
        "trick": [(s, ID_OF_CARD[c]) for s, c in t.trick], "tricks_won": list(t.tricks_won),
        "trick_winners": [w for _, _, w in t.tricks], "legal": legal, "maker": t.maker,
        "trump": t.trump, "alone": t.alone, "lone_defender": t.lone_defender,
        "out": tuple(sorted(t.out))}


def _fast(history, params, observe=None):
    rules = F.fast_rules(make_variant("standard", openspiel_options(params)))
    dealer = history[0]
    hands = [[history[1 + k] for k in range(20) if (dealer + k) % 4 == s] for s in range(4)]
    return rules.deal(dealer, hands, history[21], history, 22, observe=observe)


def _check_agrees(history, params):
    seen = []
    res = _fast(history, params, lambda code, st_: seen.append((code, st_)))
    try:
        ref, t = _engine_states(history, params)
    except (OpenSpielError, ImpossibleEvent):
        assert res is None, "the fast core answered for a history the reader refuses"
        return None
    clean = not t.reneges and not t.flags and t.phase in ("deal_over",)
    if not clean:
        assert res is None, f"the fast core answered for a game the engine flags ({t.flags}, {t.reneges})"
        return None
    assert res is not None, "the fast core declined a regular complete deal"
    assert [F.event_of(c) for c, _ in seen] == [ev for ev, _ in ref]
    assert [F.event_of(c) for c in res.codes] == [ev for ev, _ in ref]
    for k, ((_, fs), (ev, rs)) in enumerate(zip(seen, ref)):
        assert fs == rs, f"event {k} ({ev}): fast {fs} != engine {rs}"
    assert list(res.scores) == list(t.scores)
    assert list(res.tricks_won) == list(t.tricks_won)
    assert res.points == t.deal_results[-1][1]
    return res


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("params,seed", [(p, 1 + 1000 * i) for i, p in enumerate(PARAMS)])
def test_fast_core_agrees_with_the_engine_at_every_event(params, seed, source):
    answered = 0
    for line in _games(source, 400, seed, params):
        if _check_agrees(line["history"], params) is not None:
            answered += 1
    assert answered == 400     # every OpenSpiel game is regular: the core takes each one


def _mutate(history, rng):
    h = list(history)
    k = rng.randrange(22, len(h))
    what = rng.randrange(4)
    if what == 0:
        h[k] = rng.randrange(31)                 # any action at any step
    elif what == 1:
        del h[k:]                                # cut short
    elif what == 2:
        h.insert(k, rng.randrange(31))           # one action too many
    else:
        j = rng.randrange(22, len(h))
        h[k], h[j] = h[j], h[k]                  # two decisions swapped
    return h


@pytest.mark.parametrize("source", SOURCES)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10 ** 6), st.sampled_from(range(len(PARAMS))))
def test_fast_core_declines_what_it_must_leave_to_the_engine(source, seed, which):
    """Random faults (reneges, out-of-phase actions, cards not held, a
    stuck dealer's pass, cut-short deals ...): the core answers only where
    the engine finds a regular complete deal, and then agrees with it."""
    params = PARAMS[which]
    line = next(_games(source, 1, seed, params))
    rng = random.Random(seed)
    _check_agrees(_mutate(line["history"], rng), params)


@pytest.mark.parametrize("source", SOURCES)
def test_reneges_are_declined(source):
    """Two plays of one seat swapped (a later card played first): where the
    engine finds a renege in the result, the core declines."""
    rng = random.Random(5)
    declined = 0
    for line in _games(source, 300, 77, PARAMS[1]):
        h = line["history"]
        plays = [i for i, s in enumerate(line["steps"]) if i >= 22 and s["player"] >= 0
                 and s["action"] < 24 and i >= len(h) - 20]
        for _ in range(5):
            i, j = sorted(rng.sample(plays, 2))
            if line["steps"][i]["player"] != line["steps"][j]["player"]:
                continue
            h2 = list(h)
            h2[i], h2[j] = h2[j], h2[i]
            try:
                _, t = _engine_states(h2, PARAMS[1])
            except (OpenSpielError, ImpossibleEvent):
                continue
            if t.reneges:
                assert _fast(h2, PARAMS[1]) is None
                declined += 1
                break
    assert declined > 50


def test_options_it_does_not_take():
    assert F.fast_rules(make_variant("standard")) is None      # alone with the call
    assert F.fast_rules(make_variant("two-handed")) is None
    o = openspiel_options({})
    assert F.fast_rules(make_variant("standard", dict(o, fast_break=True))) is None
    assert F.fast_rules(make_variant("standard", dict(o, four_trick_tokens=True))) is None
    assert F.fast_rules(make_variant("standard", dict(o, dealers_partner_must_go_alone=True))) is None
    assert F.fast_rules(make_variant("standard", o)) is not None
    assert F.fast_rules(make_variant("standard", dict(o, loner_lead="left_of_loner",
                                                      defend_alone="vs_lone",
                                                      dealer_may_discard_upcard=True))) is not None


def test_event_codes_name_one_event_each():
    ev = F.event_of(F.K_CARD_PLAYED << 7 | 2 << 5 | 9)
    assert (ev.kind, ev.seat, ev.card) == ("CardPlayed", 2, "JD")
    assert F.event_of(F.K_CARD_PLAYED << 7 | 2 << 5 | 9) is ev
    assert F.event_of(F.K_TRUMP_NAMED << 7 | 1 << 5 | 3).suit == "S"
    with pytest.raises(ValueError):
        F.event_of(F.K_TRUMP_NAMED << 7 | 1 << 5 | 7)


# ---------------------------------------------------------------- every option it accepts

OPTION_SETS = [
    {},
    {"loner_lead": "left_of_loner", "defend_alone": "vs_lone"},
    {"loner_lead": "left_of_loner", "defend_alone": "any", "stick_the_dealer": True},
    {"dealer_may_discard_upcard": True, "stick_the_dealer": True, "stick_allows_turned_down": True},
    {"super_euchre": True, "lone_euchred_value": 4, "loner_march_score": 5,
     "lone_defender_value": 5, "defend_alone": "any"},
    {"exchange_when_dealer_out": False, "renege_penalty": "casual", "target_score": 4,
     "stick_the_dealer": False},
    {"target_score": 2, "defend_alone": "any"},
]
"""Options the core accepts (on top of OpenSpiel's: alone after the exchange, the
up-card kept, ...), each value of FREE that changes play or scoring at least once."""


def _engine_game(options, seed, faults=0.0):
    """A random game of standard Euchre with ``options`` (dict, on top of
    OpenSpiel's), played by the engine: legal actions, or with probability
    ``faults`` any decision code at all.  Returns ``(dealer, hands, up,
    actions, [(event, state)], table, refused)``: ``refused`` when the
    engine refused the last event (the game stops there)."""
    from euchre_events.events import CardsDealt, DealStarted, GameStarted
    from euchre_events.formats.openspiel import (CARD_OF_ID, PLAYERS, _decision_event,
                                                 event_to_action)
    from euchre_events.rules.engine import legal_actions
    rng = random.Random(seed)
    opts = dict(openspiel_options({}), **options)
    deck = list(range(24))
    rng.shuffle(deck)
    dealer = rng.randrange(4)
    hands = [deck[5 * s:5 * s + 5] for s in range(4)]
    up = deck[20]
    kitty = sorted(deck[21:])
    t = new_table()
    for ev in (GameStarted("standard", opts, PLAYERS, first_dealer=dealer, initial_score=(0, 0)),
               DealStarted(1, dealer),
               CardsDealt(tuple(tuple(CARD_OF_ID[c] for c in h) for h in hands), CARD_OF_ID[up],
                          tuple(CARD_OF_ID[c] for c in kitty))):
        apply(t, ev)
    actions, states = [], []
    while t.phase not in ("deal_over", "game_over"):
        acts = legal_actions(t)[0]
        if acts and acts[0].kind in ("UpCardPickedUp", "DealThrownIn"):
            ev = acts[0]
        else:
            if rng.random() < faults:
                a = rng.randrange(31)
                try:
                    ev = _decision_event(t, a, len(actions))
                except OpenSpielError:
                    actions.append(a)
                    return dealer, hands, up, actions, states, t, True
            else:
                ev = rng.choice(acts)
                a = event_to_action(ev, t.up_card)
            actions.append(a)
        try:
            apply(t, ev)
        except ImpossibleEvent:
            return dealer, hands, up, actions, states, t, True
        states.append((ev, _state(t)))
    return dealer, hands, up, actions, states, t, False


@pytest.mark.parametrize("which", range(len(OPTION_SETS)))
def test_fast_core_agrees_for_every_option_set_it_accepts(which):
    options = OPTION_SETS[which]
    v = make_variant("standard", dict(openspiel_options({}), **options))
    rules = F.fast_rules(v)
    assert rules is not None
    answered = declined = 0
    for seed in range(300):
        dealer, hands, up, actions, ref, t, refused = _engine_game(options, 1000 * which + seed,
                                                                   faults=0.02 if seed % 3 else 0.0)
        seen = []
        res = rules.deal(dealer, hands, up, actions, 0,
                         observe=lambda code, s: seen.append((code, s)))
        regular = (not refused and not t.reneges and not t.flags and not t.game_over
                   and t.phase == "deal_over")
        if not regular:
            assert res is None, (options, seed, t.flags, t.reneges, refused)
            declined += 1
            continue
        assert res is not None, (options, seed)
        answered += 1
        assert [F.event_of(c) for c, _ in seen] == [ev for ev, _ in ref]
        for (_, fs), (ev, rs) in zip(seen, ref):
            assert fs == rs, (options, seed, ev, fs, rs)
        assert list(res.scores) == list(t.scores)
        assert res.points == t.deal_results[-1][1]
    assert answered > 50 and declined > 5


def _spoiled(history, rng):
    """A history with one value no deal can hold: a card or action code out
    of range (negative, 24 as a card, 31 as an action), a card twice, or a
    hand of four; each is a game the reader refuses."""
    h = list(history)
    what = rng.randrange(6)
    if what == 0:
        h[rng.randrange(1, 22)] = rng.choice((-1, -8, -24, 24, 30, 10 ** 20))   # no card
    elif what == 1:
        h[rng.randrange(22, len(h))] = rng.choice((-1, -7, -8, -31, 31, 99))    # no decision
    elif what == 2:
        i, j = rng.sample(range(1, 22), 2)
        h[i] = h[j]                                                          # a card twice
    else:
        # a seat's card given twice in its own hand (positions 1..20 four apart)
        i = rng.randrange(1, 17)
        h[i + 4] = h[i]
    return h


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("ints", (False, True))
def test_values_no_deal_holds_are_declined_with_or_without_the_type_checks(ints, source):
    """The value checks hold with ``ints=True`` (the caller vouches for the
    types, not the values): every spoiled history is declined, and the
    reader refuses each one too."""
    rng = random.Random(3)
    rules = F.fast_rules(make_variant("standard", openspiel_options({})))
    n = 0
    for line in _games(source, 200, 5, {}):
        h = _spoiled(line["history"], rng)
        dealer = h[0]
        hands = [[h[1 + k] for k in range(20) if (dealer + k) % 4 == s] for s in range(4)]
        assert rules.deal(dealer, hands, h[21], h, 22, ints=ints) is None, h
        with pytest.raises((OpenSpielError, ImpossibleEvent)):
            _engine_states(h, {})
        n += 1
    assert n == 200


@pytest.mark.parametrize("source", SOURCES)
def test_values_of_other_types_are_declined(source):
    """Without ``ints=True`` a bool or a float is no card or action, even
    where it equals one (True == 1, 3.0 == 3)."""
    rules = F.fast_rules(make_variant("standard", openspiel_options({})))
    line = next(_games(source, 1, 9, {}))
    h = line["history"]
    dealer = h[0]
    hands = [[h[1 + k] for k in range(20) if (dealer + k) % 4 == s] for s in range(4)]
    assert rules.deal(dealer, hands, h[21], h, 22) is not None
    for i in (0, 1, 21, 22, len(h) - 1):
        for bad in (float(h[i]), bool(h[i]) if h[i] in (0, 1) else float(h[i])):
            h2 = list(h)
            h2[i] = bad
            hands2 = [[h2[1 + k] for k in range(20) if (dealer + k) % 4 == s] for s in range(4)]
            assert rules.deal(h2[0], hands2, h2[21], h2, 22) is None, (i, bad)
    assert rules.deal(dealer, hands[:3], h[21], h, 22) is None               # three hands
    assert rules.deal(dealer, [x[:4] for x in hands], h[21], h, 22) is None  # four cards each


# ---------------------------------------------------------------- one home for each rule (issue 24)

def test_simulated_lines_are_openspiel_lines():
    """The games made without OpenSpiel are OpenSpiel games: the reader
    takes each with no warning (its ``returns`` are the replay's score),
    each action is among its step's ``legal``, and, where pyspiel is
    installed, OpenSpiel replays each history to the same returns."""
    from euchre_events.formats.openspiel import _read_line
    import json
    lines = list(simulated_openspiel_games(200, 3, PARAMS[1], tricks=True))
    assert {len(x["history"]) > 22 for x in lines} == {True}
    for i, line in enumerate(lines):
        rec = _read_line("sim.jsonl", i + 1, json.dumps(line))
        assert rec.warnings == []
        assert all(s["action"] in s["legal"] for s in line["steps"])
        played = sum(len(tr["cards"]) for tr in line["tricks"])
        assert played in (0, 10, 15, 20)      # thrown in, two or one seats out, all four
    try:
        import pyspiel
    except ImportError:
        return
    game = pyspiel.load_game("euchre", dict(lines[0]["params"]))
    for line in lines:
        state = game.new_initial_state()
        for a in line["history"]:
            state.apply_action(a)
        assert state.is_terminal()
        assert [int(x) for x in state.returns()] == line["returns"]


@pytest.mark.parametrize("n_seats", (2, 3, 4))
def test_next_seats_is_the_tables_next_active(n_seats):
    """The turn passes by one rule: playcore.next_seats (the engine's fold
    and the fast core) gives what Table.next_active gives, for every set of
    seats sitting out but all."""
    from itertools import combinations
    from euchre_events.rules.playcore import next_seats
    t = new_table()
    t.n_seats = n_seats
    for k in range(n_seats):
        for out in combinations(range(n_seats), k):
            t.out = frozenset(out)
            assert next_seats(n_seats, t.out) == tuple(t.next_active(s) for s in range(n_seats))


def test_openspiel_action_codes_have_one_home():
    from euchre_events.formats import openspiel as O
    from euchre_events.rules import actions as A
    assert (O.PASS_ACTION, O.FIRST_TRUMP_ACTION, O.ALONE_ACTION, O.PARTNER_ACTION) == (
        A.PASS, A.CALL, A.ALONE, A.PARTNER) == (F.PASS, F.CALL, F.ALONE, F.PARTNER) == (24, 25, 29, 30)
    assert O.CARD_OF_ID is A.CARD_CODES is F.CARD_CODES
    assert (A.CARD_CODES[0], A.CARD_CODES[9], A.CARD_CODES[23]) == ("9C", "JD", "AS")


def test_first_twin_wins_is_read_in_one_place():
    """Bid's option (rules.md 5, 1.3) through Variant.first_twin_wins; a
    game without the option: the first of two twins wins."""
    assert make_variant("bid", {"first_twin_wins": False}).first_twin_wins is False
    assert make_variant("bid").first_twin_wins is True
    assert make_variant("standard").first_twin_wins is True


def test_the_fast_core_asks_the_variant_for_the_lead_and_the_defenders():
    """The opening lead and the order the defenders are asked in come from
    the variant (standard's opening_leader, upcard.defender_order): under
    left_of_loner a lone maker at seat 1 (partner 3 out) is led to by seat 2;
    North dealing, East making: South then North are asked (rules.md 2.4, 2.5)."""
    o = dict(openspiel_options({}), loner_lead="left_of_loner", defend_alone="any")
    rules = F.fast_rules(make_variant("standard", o))
    assert rules.leader(0, 1, None, (3,)) == 2
    assert rules.leader(0, None, 2, (0,)) == 3
    assert rules.leader(0, 1, 2, (0, 3)) == 2
    assert rules.defenders[0][1] == (2, 0)
    plain = F.fast_rules(make_variant("standard", openspiel_options({})))
    assert plain.leader(0, 1, None, (3,)) == 1
