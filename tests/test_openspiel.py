"""Differential test against OpenSpiel's ``euchre``, and the OpenSpiel reader.

4,000 random OpenSpiel games are generated in the test session with
``pyspiel`` (game ``i`` seeded with ``random.Random(seed + i)``, chance by its
probabilities, players uniformly among ``state.legal_actions()``): 2,000 with
OpenSpiel's default parameters (stick the dealer, no lone defender) and 2,000
with ``allow_lone_defender=True, stick_the_dealer=False``.  Each game is
converted to our events and folded by our engine; at EVERY OpenSpiel decision
point (every non-chance step) our legal actions, mapped to OpenSpiel action
ids, must equal OpenSpiel's legal actions and our seat on turn its player; our
tricks (leader, cards, winner) must equal ``state.tricks()``; our deal points
must equal its returns (makers' points minus defenders' points == the
maker's return; an all-pass deal scores 0).

Where OpenSpiel's rules differ from rules.md, and the options set to match
(:func:`euchre_events.formats.openspiel.openspiel_options`):

* one deal per game (``target_score`` never reached; 8 passes without stick
  end the game with 0 points: our DealThrownIn);
* going alone is decided after the dealer's exchange, not with the call
  (rules.md 2.4): ``alone_timing="after_exchange"``; so the dealer picks up
  even when the dealer's partner then goes alone (rules.md 2.2 says no
  exchange): ``exchange_when_dealer_out=True``;
* the dealer may not discard the up-card (rules.md 2.2 default allows it,
  case C7): ``dealer_may_discard_upcard=False``;
* with ``allow_lone_defender`` a defender may defend alone even against a
  maker who plays with the partner (rules.md 2.4: off by default); the
  defender left of the dealer (or the next one) is asked first:
  ``defend_alone="any"``; a lone defender's euchre is 4
  (``lone_defender_value=4``); a lone maker euchred gives 2;
* stick the dealer is OpenSpiel's default (rules.md 2.3: off by default),
  turned-down suit barred;
* the first card dealt goes to the dealer, one card at a time (rules.md 2.1:
  from the dealer's left, in packets) -- no rule depends on it;
* opening lead left of the dealer, skipping a seat that sits out (rules.md
  2.5 default, case C6).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter

import pytest

from euchre_events.rules.engine import apply, legal_actions, new_table
from euchre_events.events import (CardPlayed, CardsDealt, DealStarted, DealThrownIn, Discarded,
                                  GameStarted, OrderedUp, Passed, PlayedWithPartner,
                                  UpCardPickedUp)
from euchre_events.formats import RecordError
from euchre_events.formats.openspiel import (CARD_OF_ID, ID_OF_CARD, OpenSpielError,
                                             align_history, card_of, event_to_action,
                                             history_to_events, openspiel_options,
                                             random_openspiel_games, read_openspiel_file,
                                             score_from_returns)
from euchre_events.projections import Game
from conftest import ROOT

# the shared folder sits beside the repository (../shared), on a developer's machine and in CI
TOOL = next((p for p in (os.path.join(ROOT, "..", "shared", "tools", "openspiel_games.py"),
                         "/work/shared/tools/openspiel_games.py") if os.path.exists(p)),
            "../shared/tools/openspiel_games.py")

CONFIGS = {
    "default": ({}, 1),
    "lone_defender_no_stick": ({"allow_lone_defender": True, "stick_the_dealer": False}, 100001),
}


# ------------------------------------------------------------- card ids

def test_card_ids_follow_rank_times_four_plus_suit():
    # id = rank * 4 + suit; suits C D H S = 0..3, ranks 9 T J Q K A = 0..5
    assert card_of(0) == "9C"
    assert card_of(5) == "TD"          # 1*4 + 1
    assert card_of(10) == "JH"         # 2*4 + 2
    assert card_of(15) == "QS"         # 3*4 + 3
    assert card_of(23) == "AS"
    assert ID_OF_CARD["KC"] == 16 and ID_OF_CARD["AD"] == 21
    assert len(set(CARD_OF_ID)) == 24
    with pytest.raises(OpenSpielError):
        card_of(24)


def test_event_to_action_ids():
    assert event_to_action(Passed(1)) == 24
    assert event_to_action(OrderedUp(2), up_card="9H") == 27           # hearts
    assert event_to_action(PlayedWithPartner(0)) == 30
    assert event_to_action(Discarded(0, "JS")) == 11
    assert event_to_action(CardPlayed(3, "AC")) == 20
    assert event_to_action(UpCardPickedUp(0)) is None
    with pytest.raises(ValueError):
        event_to_action(OrderedUp(2))


def test_options_match_openspiel_rules():
    o = openspiel_options({})
    assert o["stick_the_dealer"] is True and o["defend_alone"] == "off"
    assert o["alone_timing"] == "after_exchange"
    assert o["dealer_may_discard_upcard"] is False
    o = openspiel_options({"allow_lone_defender": True, "stick_the_dealer": False})
    assert o["stick_the_dealer"] is False and o["defend_alone"] == "any"
    with pytest.raises(OpenSpielError, match="unknown"):
        openspiel_options({"players": 4})


# -------------------------------------------------- a history by hand

# Dealer N (0); card k goes to seat k % 4, so with cards 0..19 in order:
# N: 9C TC JC QC KC   E: 9D TD JD QD KD   S: 9H TH JH QH KH   W: 9S TS JS QS KS
# up-card 20 = AC; the kitty is AD AH AS (21, 22, 23).
DEAL = [0] + list(range(20)) + [20]


def test_history_to_events_by_hand():
    # E, S, W pass; N (dealer) takes clubs; discards 9C; plays with partner.
    # E leads KD; S (void in diamonds) 9H; W 9S; N trumps with AC and wins.
    hist = DEAL + [24, 24, 24, 25, 0, 30, 17, 2, 3, 20]
    evs = history_to_events(hist, {}, title="by hand")
    assert isinstance(evs[0], GameStarted) and evs[0].first_dealer == 0
    assert evs[0].players == ("N", "E", "S", "W") and evs[0].title == "by hand"
    assert evs[1] == DealStarted(1, 0)
    assert evs[2] == CardsDealt(
        (("9C", "TC", "JC", "QC", "KC"), ("9D", "TD", "JD", "QD", "KD"),
         ("9H", "TH", "JH", "QH", "KH"), ("9S", "TS", "JS", "QS", "KS")),
        "AC", ("AD", "AH", "AS"))
    assert evs[3:] == [Passed(1), Passed(2), Passed(3), OrderedUp(0), UpCardPickedUp(0),
                       Discarded(0, "9C"), PlayedWithPartner(0),
                       CardPlayed(1, "KD"), CardPlayed(2, "9H"), CardPlayed(3, "9S"),
                       CardPlayed(0, "AC")]
    t = new_table()
    for e in evs:
        apply(t, e)
    assert t.trump == "C" and t.maker == 0
    assert t.tricks[0][2] == 0                    # N's ace of trump wins
    assert t.turn == 0 and t.reneges == []


def test_alignment_marks_steps_openspiel_folds():
    hist = DEAL + [24, 24, 24, 25, 0]
    pairs = align_history(hist, {})
    # the pick-up has no OpenSpiel action: it follows the dealer's call (index 25)
    assert [(type(e).__name__, i) for e, i in pairs[3:]] == [
        ("Passed", 22), ("Passed", 23), ("Passed", 24), ("OrderedUp", 25),
        ("UpCardPickedUp", None), ("Discarded", 26)]


def test_eight_passes_without_stick_throw_the_deal_in():
    evs = history_to_events(DEAL + [24] * 8, {"stick_the_dealer": False})
    assert evs[-1] == DealThrownIn("all passed")
    g = Game(evs)
    assert g.final_score == [0, 0] and g.winner is None


def test_impossible_histories_are_refused():
    with pytest.raises(OpenSpielError, match="dealt twice") as e:
        history_to_events([0] + [1] * 21, {})
    assert e.value.index == 2
    with pytest.raises(OpenSpielError, match="only the up-card's suit"):
        history_to_events(DEAL + [26], {})       # diamonds ordered with AC up
    with pytest.raises(OpenSpielError, match="not in that hand"):
        history_to_events(DEAL + [24, 24, 24, 25, 0, 30, 0], {})   # E plays 9C, N's discard
    with pytest.raises(OpenSpielError, match="22"):
        history_to_events([0, 1, 2], {})


def test_a_renege_in_a_history_is_kept():
    # All four pass; E names spades (round 2) and plays with the partner.
    # Trick 1, E leads 9D: S 9H, W 9S (trump), N TC (all void in diamonds): W wins.
    # Trick 2, W leads TS: N holds JC, the left bower, a spade -- N plays QC: renege.
    hist = DEAL + [24] * 4 + [28, 30] + [1, 2, 3, 4] + [7, 12]
    t = new_table()
    for e in history_to_events(hist, {}):
        apply(t, e)
    assert t.trump == "S" and t.maker == 1
    assert t.tricks[0][2] == 3
    assert len(t.reneges) == 1
    r = t.reneges[0]
    assert (r.seat, r.card, r.led_suit, r.evidence) == (0, "QC", "S", ("JC",))
    # playing TC again (already played to trick 1) is impossible, not a renege
    with pytest.raises(OpenSpielError, match="not in that hand") as e:
        history_to_events(hist[:-1] + [4], {})
    assert e.value.index == len(hist) - 1


# ------------------------------------------------- the differential test

@pytest.fixture(scope="module", params=list(CONFIGS))
def generated(request):
    params, seed = CONFIGS[request.param]
    return request.param, params, list(random_openspiel_games(2000, seed, params))


def _compare(index: int, g: dict, kinds: Counter, terminal: bool = True) -> list:
    """Disagreements between our engine and OpenSpiel in one game; counts the
    event kinds of the game in ``kinds``.  ``terminal=False``: the history
    stops mid-deal; only the decisions so far and the finished tricks count."""
    steps = g["steps"]
    bad = []
    pairs = align_history(g["history"], g["params"])
    kinds.update({ev.kind for ev, _ in pairs})
    covered = set()
    t = new_table()
    for ev, i in pairs:
        if i is not None:
            st = steps[i]
            covered.add(i)
            acts, _ = legal_actions(t)
            ours = sorted(event_to_action(e, t.up_card) for e in acts)
            if ours != st["legal"]:
                bad.append(f"game {index}, step {i}: our legal {ours}, OpenSpiel {st['legal']}")
            if t.turn != st["player"]:
                bad.append(f"game {index}, step {i}: our turn seat {t.turn}, OpenSpiel {st['player']}")
        apply(t, ev)
    decisions = {i for i, st in enumerate(steps) if st["player"] >= 0}
    if covered != decisions:
        bad.append(f"game {index}: steps not matched to events {sorted(decisions ^ covered)}")
    ours_tricks = [(lead, [ID_OF_CARD[c] for _, c in cards], w) for lead, cards, w in t.tricks]
    theirs = [(tr["leader"], tr["cards"], tr["winner"]) for tr in g["tricks"]]
    if not terminal:
        theirs = theirs[:len(ours_tricks)]
    if ours_tricks != theirs:
        bad.append(f"game {index}: tricks {ours_tricks} vs OpenSpiel {theirs}")
    if not terminal:
        return bad
    if t.turn is not None or t.phase not in ("deal_over", "game_over"):
        bad.append(f"game {index}: OpenSpiel is terminal, ours is in phase {t.phase}")
    pts = t.deal_results[-1][1] if t.deal_results else None
    r = g["returns"]
    if t.maker is None:
        if pts != (0, 0) or any(r):
            bad.append(f"game {index}: all-pass deal scored {pts}, OpenSpiel {r}")
    else:
        ms = t.maker % 2
        if pts[ms] - pts[1 - ms] != r[t.maker]:
            bad.append(f"game {index}: makers' points {pts[ms] - pts[1 - ms]}, "
                       f"OpenSpiel return {r[t.maker]}")
    if t.reneges:
        bad.append(f"game {index}: OpenSpiel only plays legal cards, we saw reneges {t.reneges}")
    return bad


def test_same_legal_actions_tricks_and_points_as_openspiel(generated):
    name, params, games = generated
    bad = []
    kinds = Counter()  # games with at least one event of each kind
    for i, g in enumerate(games):
        bad += _compare(i, g, kinds)
    assert not bad, f"{len(bad)} disagreements ({name}), first ones:\n" + "\n".join(bad[:20])
    # the random games reach the branches being compared
    assert kinds["WentAlone"] > 100 and kinds["TrumpNamed"] > 50
    if params.get("allow_lone_defender"):
        assert kinds["DefendedAlone"] > 100
    else:
        assert kinds["DefendedAlone"] == 0


# Rare positions, built by hand and replayed in both engines: at every
# decision the legal actions and the player on turn must agree.
RARE = [
    ("stuck dealer (7 passes), stick", {}, DEAL + [24] * 7 + [26]),
    ("7 passes, no stick: the dealer may pass", {"stick_the_dealer": False}, DEAL + [24] * 8),
    # S (dealer's partner) orders clubs; N discards 9C, never the up-card AC;
    # S goes alone (N out); E defends with partner, W defends alone (E out):
    # S leads (dealer+1 = E sits out), W follows with anything.
    ("assist, alone, second defender alone", {"allow_lone_defender": True},
     DEAL + [24, 25, 0, 29, 30, 29, 18, 3]),
    # E orders clubs; N discards; E with partner; S defends alone (N out): E leads.
    ("lone defender against a maker with partner", {"allow_lone_defender": True},
     DEAL + [25, 0, 30, 29, 17, 2]),
]


@pytest.mark.parametrize("name,params,hist", RARE, ids=[r[0] for r in RARE])
def test_rare_positions_agree_with_openspiel(name, params, hist):
    import pyspiel
    p = {"allow_lone_defender": False, "stick_the_dealer": True}
    p.update(params)
    state = pyspiel.load_game("euchre", p).new_initial_state()
    steps = []
    for a in hist:
        legal = sorted(state.legal_actions()) if not state.is_chance_node() else []
        steps.append({"player": state.current_player(), "action": a, "legal": legal})
        state.apply_action_with_legality_check(a)
    g = {"steps": steps, "history": hist, "params": p, "returns": list(state.returns()),
         "tricks": [{"leader": tr.leader(), "cards": list(tr.cards()), "winner": tr.winner()}
                    for tr in state.tricks() if tr.leader() >= 0]}
    bad = _compare(0, g, Counter(), terminal=state.is_terminal())
    if not state.is_terminal():  # the position reached: same seat on turn, same choices
        ours = new_table()
        for e in history_to_events(hist, p):
            apply(ours, e)
        assert ours.turn == state.current_player()
        assert sorted(event_to_action(e, ours.up_card) for e in legal_actions(ours)[0]) \
            == sorted(state.legal_actions())
    assert not bad, "\n".join(bad)


# ----------------------------------------------------- JSONL reader

@pytest.mark.skipif(not os.path.exists(TOOL), reason="the shared OpenSpiel tool is not here")
def test_read_openspiel_file_from_the_shared_tool(tmp_path):
    out = tmp_path / "games.jsonl"
    subprocess.run([sys.executable, TOOL, "--n", "20", "--seed", "7", "--allow-lone-defender",
                    "--out", str(out)], check=True, capture_output=True)
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    records = read_openspiel_file(str(out))
    assert len(records) == 20
    for line, rec in zip(lines, records):
        g = Game(rec.events)
        r = line["returns"]
        assert g.final_score == [max(r[0], 0), max(r[1], 0)]
        assert rec.stated_final_score == g.final_score and rec.warnings == []
        assert rec.source["line"] == line["index"] + 1
        assert rec.events[0].first_dealer == line["summary"]["dealer"]
        assert len(g.final.tricks) == len(line["summary"]["tricks"])


def test_read_openspiel_file_bad_line_names_file_and_line(tmp_path):
    good = {"params": {}, "history": DEAL + [24, 24, 24, 25, 0, 30], "returns": [0, 0, 0, 0]}
    p = tmp_path / "bad.jsonl"
    p.write_text(json.dumps(good) + "\n" + json.dumps({"history": DEAL + [26]}) + "\n")
    with pytest.raises(RecordError) as e:
        read_openspiel_file(str(p))
    assert e.value.line == 2 and "bad.jsonl" in str(e.value)
    assert "only the up-card's suit" in e.value.reason and e.value.event == "history[22]"
    p.write_text("{not json\n")
    with pytest.raises(RecordError, match="not JSON") as e:
        read_openspiel_file(str(p))
    assert e.value.line == 1
    p.write_text(json.dumps({"params": {"players": 3}, "history": DEAL}) + "\n")
    with pytest.raises(RecordError, match="unknown OpenSpiel euchre parameter"):
        read_openspiel_file(str(p))


def test_partial_history_is_read_with_a_warning(tmp_path):
    p = tmp_path / "part.jsonl"
    p.write_text(json.dumps({"history": DEAL + [24, 24], "extra": 1}) + "\n\n")
    [rec] = read_openspiel_file(str(p))
    assert len(rec.events) == 5 and "stops before the end" in rec.warnings[0]


def test_score_from_returns():
    assert score_from_returns([-2.0, 2.0, -2.0, 2.0]) == [0, 2]
    assert score_from_returns([4, -4, 4, -4]) == [4, 0]
    with pytest.raises(ValueError):
        score_from_returns([1, 1, 1, 1])


# ------------------------------------ the replay fast path (benchmarks, issue 2)

def test_fold_fast_path_gives_the_same_table_as_apply():
    """engine.fold (used by Game) takes a fast path for runs of card plays; it
    must give exactly what apply() gives event by event, reneges included, for
    every variant (random games with 15% reneges)."""
    from euchre_events.rules.engine import fold
    from euchre_events.projections import snapshot
    from euchre_events.rules.simulate import random_game
    from euchre_events.rules.registry import VARIANT_CLASSES
    for name in sorted(c.name for c in VARIANT_CLASSES):
        for seed in range(12):
            evs = random_game(name, seed=seed, renege_rate=0.15)
            a = new_table()
            for e in evs:
                apply(a, e)
            b = fold(new_table(), evs)
            assert snapshot(a, False) == snapshot(b, False), (name, seed)
            g = Game(evs)
            for k in (len(evs) // 3, len(evs) // 2, len(evs) - 3):
                c = new_table()
                for e in evs[:k]:
                    apply(c, e)
                assert snapshot(g.table_at(k), False) == snapshot(c, False), (name, seed, k)


def test_fold_fast_path_with_unknown_cards_and_a_renege():
    # the renege game above, with W's hand unknown ("??") in the record
    hist = DEAL + [24] * 4 + [28, 30] + [1, 2, 3, 4] + [7, 12]
    evs = history_to_events(hist, {})
    evs[2] = CardsDealt(evs[2].hands[:3] + (("??",) * 5,), evs[2].up_card, evs[2].kitty)
    a = new_table()
    for e in evs:
        apply(a, e)
    g = Game(evs)
    assert g.final.reneges == a.reneges and len(a.reneges) == 1
    assert g.final.hands == a.hands and a.hands[3] == ["??"] * 3
    assert g.final.tricks == a.tricks and a.tricks[0][2] == 3
    # an impossible play is refused with the same position by both
    bad = evs[:-1] + [CardPlayed(0, "TC")]      # N's TC was played to trick 1
    from euchre_events.rules.engine import ImpossibleEvent
    with pytest.raises(ImpossibleEvent) as e:
        Game(bad)
    assert e.value.position == len(bad) - 1 and e.value.deal == 1


def test_load_json_decodes_as_json_loads():
    """load_json decodes with msgspec where it can (a line of an OpenSpiel
    file takes that path): on the awkward texts (NaN, a lone surrogate, a raw
    control character, numbers the strict hooks check, nesting past
    MAX_DEPTH, brackets in strings, duplicate keys, a BOM, trailing text,
    floats at the edges) and on real lines, the value is the one
    ``json.loads`` gives, or an error where ``json.loads`` refuses the text
    or a record may not hold it (a number too big, NaN, too deep)."""
    import json
    from euchre_events.formats import MAX_DEPTH, RecordError, load_json

    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    refused = ['{"a":NaN}', '{"a":Infinity}', '{"a":' + "9" * 31 + '}', '{"a":1e400}',
               '{"h":' + deep + '}', '{"h":[' + deep + ',"\\n"]}']
    texts = ['{"a":"\\ud800"}', '{"a":"\\ud83d\\ude00"}', '{"a":"x\x01y"}', '{"a":1,"b":2,"a":3}', '{"a":01}',
             '{"a":1.}', '\ufeff{"a":1}', '{"a":1} x', '{"a":[1,]}', '{"a":"\\x"}',
             '{"a":1e-400}', '{"a":-0}', '{"a":-0.0}', '{"a":1E5}', '{"a":0.1}', '{"a":"[[[\\"]]]"}',
             '{"h":"' + "[" * (MAX_DEPTH + 5) + '"}', '{"h":"\\\\' + "[" * (MAX_DEPTH + 5) + '"}',
             '{"a" : 1 }\r', '[]', '"s"', '', '{"a":"\ud800"}', '{"é":"\u2028"}',
             '{"a":0.1000000000000000055511151231257827}', '{"a":5e-324}', '{"a":123456789012345678}',
             '{"a":12345678901234567890123}']
    texts += ['{"game":"euchre","history":[3,0,5,17,22,8,9,1,24,25,26,27],"params":{"allow_lone_defender":true},'
              '"returns":[1.0,-1.0,1.0,-1.0],"seed":7,"index":2}',
              '{"steps":[{"action":3,"player":-1,"legal":[0,1,2,3]},{"action":24,"player":1,"action_str":"Pass"}]}']

    def outcome(fn, text):
        try:
            return "ok", repr(fn(text))
        except (RecordError, ValueError, RecursionError):
            return "error", None

    for text in refused:
        assert json.loads(text) is not None and outcome(lambda x: load_json(x, "f.jsonl", line=3), text)[0] == "error"
    for text in texts:
        assert outcome(lambda x: load_json(x, "f.jsonl", line=3), text) == outcome(json.loads, text), text
    assert outcome(json.loads, texts[3]) == ("ok", "{'a': 3, 'b': 2}")      # the texts cover both outcomes
    assert outcome(json.loads, texts[4]) == ("error", None)
