"""The EGN ruleset toggles played by our standard variant (the EGN spec's
alternate-rules.md; rules.md 2.9): one small valid EGN per toggle in
fixtures/egn/toggles/, each built so that the toggle changes the result, with
its score worked by hand below.  The same deals without the toggle give the
standard score (rules.md 2.6).

Seats 0-3 are North, East, South, West; side 0 is North-South.  Every deal
states the dealt hands (``playerCards``), so each trick's winner can be read
off the file: the leader is first in each trick.
"""
import dataclasses
import json
import os
import subprocess
import sys

import jsonschema
import pytest

from conftest import ROOT
from euchre_events.events import PlayedWithPartner
from euchre_events.formats.egn import read_egn_dict, read_egn_file
from euchre_events.formats.egn.ruleset import NO_TARGET, options_from_ruleset, ruleset_from_options
from euchre_events.formats.egn.read import read_egnb_file
from euchre_events.formats.egn.write import write_egn, write_egnb
from euchre_events.formats.jsonfmt import parse_json, write_json
from euchre_events.formats.text import parse_text, write_text
from euchre_events.projections.game import Game
from euchre_events.rules.registry import make_variant
from euchre_events.rules.variants.standard import StandardOptions
from euchre_events.ui.describe import state_text
from euchre_events.ui.render import state_html

TOGGLES = ROOT / "fixtures" / "egn" / "toggles"
SCHEMA = json.loads((ROOT / "euchre_events" / "schemas" / "egn-schema-v1.json").read_text())


def doc(name: str, **ruleset) -> dict:
    """A fixture as a dict; ``ruleset`` keys set (``None``: the key removed)."""
    d = json.loads((TOGGLES / name).read_text(encoding="utf-8"))
    for k, v in ruleset.items():
        if v is None:
            d["metadata"]["ruleset"].pop(k, None)
        else:
            d["metadata"]["ruleset"][k] = v
    return d


def game(name: str, **ruleset) -> Game:
    (rec,) = read_egn_dict(doc(name, **ruleset), name)
    return Game(rec.events)


@pytest.mark.parametrize("path", sorted(TOGGLES.glob("*.egn")), ids=lambda p: p.name)
def test_the_fixtures_are_valid_egn(path):
    errors = list(jsonschema.Draft7Validator(SCHEMA).iter_errors(json.loads(path.read_text())))
    assert errors == []
    (rec,) = read_egn_file(str(path))
    assert not [r for r in Game(rec.events).final.reneges]   # every play follows suit


# ------------------------------------------------------------ loner_march_score

def test_a_lone_march_worth_5_ends_the_game():
    # Deal 1, West deals: all pass in round 1 (up-card 9s), North names hearts alone
    # holding Jh Jd Ah Kh Qh and leads them: every trick is North's (5 of 5).  From
    # 5-0: loner_march_score 5 gives 10-0, North-South win (rules.md 2.6: 10 points).
    g = game("loner-march-5.egn")
    assert g.final.deal_results[0][1] == (5, 0)
    assert g.official_score == [10, 0] and g.winner == 0 and g.final.game_over
    # the standard 4 (rules.md 2.6): 9-0, the game goes on
    g4 = game("loner-march-5.egn", loner_march_score=None)
    assert g4.official_score == [9, 0] and g4.winner is None and not g4.final.game_over
    assert game("loner-march-5.egn", loner_march_score=3).official_score == [8, 0]


# ------------------------------------------------------------ fast_break

def test_a_fast_break_scores_nothing():
    # North names hearts (makers North-South).  Tricks: East's Ac takes North's 9c
    # lead, East's As takes the spades; then East leads 9d, North trumps with Kh
    # (South's Th lower), North's Jh and South's Jd (left bower) take the last two:
    # defenders the first two, makers the last three.  fast_break: 0-0, so 9-0 stays.
    g = game("fast-break.egn")
    t = g.final
    assert [t.variant.side_of(w) for _, _, w in t.tricks] == [1, 1, 0, 0, 0]
    assert t.deal_results[0][1] == (0, 0)
    assert g.official_score == [9, 0] and g.winner is None and not t.game_over
    # standard (rules.md 2.6): makers with 3 tricks score 1, which ends the game 10-0
    std = game("fast-break.egn", fast_break=None)
    assert std.official_score == [10, 0] and std.winner == 0


def test_a_fast_break_needs_the_defenders_first_two_tricks():
    # the same makers' three tricks taken in another order are no fast break
    v = make_variant("standard", {"fast_break": True})
    g = game("fast-break.egn")
    t = g.final.copy()
    t.tricks = [t.tricks[0], t.tricks[2], t.tricks[1], t.tricks[3], t.tricks[4]]
    assert not v.is_fast_break(t)
    assert v.is_fast_break(g.final)


# ------------------------------------------------------------ four_trick_tokens

def test_four_trick_tokens_earn_the_point_that_ends_the_game():
    # Four deals (dealers West, North, East, South); in each North-South make hearts
    # (not alone) and take exactly 4 tricks (East's As takes a spade trick in deals
    # 1 and 3, East's As the first trick in deals 2 and 4).  From 5-0: 1 point each,
    # a token each; the 4th token is turned in for 1 extra point in deal 4: 5+1+1+1+2
    # = 10, North-South win.  Standard: 9-0, not over.
    g = game("four-trick-tokens.egn")
    reports = g.deal_reports()
    assert [sum(r.tricks[0::2]) for r in reports] == [4, 4, 4, 4]   # North-South's tricks
    assert [r.points_official for r in reports] == [(1, 0), (1, 0), (1, 0), (2, 0)]
    assert [r.tokens for r in reports] == [(1, 0), (2, 0), (3, 0), (0, 0)]
    assert g.official_score == [10, 0] and g.winner == 0
    std = game("four-trick-tokens.egn", four_trick_tokens=None)
    assert std.official_score == [9, 0] and std.winner is None
    assert [r.tokens for r in std.deal_reports()] == [()] * 4
    assert "tokens" not in std.deal_reports()[0].to_dict()


def test_tokens_show_where_the_score_shows():
    g = game("four-trick-tokens.egn")
    before_deal_4 = g.deal_positions()[3][1]   # after deal 3, before deal 4 starts
    st = g.state_at(before_deal_4)
    assert st.tokens == (3, 0) and st.score == (8, 0)
    assert "Four-trick tokens: N/S 3, E/W 0" in state_text(st)
    assert 'data-tokens="3,0"' in state_html(st)
    assert g.state_at(len(g.events)).tokens == (0, 0)
    # tokens are folded, never stored: no event carries them
    assert not any("token" in json.dumps(e.to_dict()) for e in g.events[1:])


def test_a_lone_four_trick_hand_earns_no_token():
    v = make_variant("standard", {"four_trick_tokens": True})
    g = game("four-trick-tokens.egn")
    t = g.table_at(g.deal_positions()[1][1])   # deal 1 played: North-South took 4 tricks
    t.tokens = [3, 0]
    t.alone = t.maker
    assert v.score_deal(t) == [1, 0] and t.tokens == [3, 0]
    t.alone = None
    assert v.score_deal(t) == [2, 0] and t.tokens == [0, 0]


# ------------------------------------------------------------ num_deals

def test_a_fixed_number_of_deals_ends_the_game():
    # num_deals 2, no winning_score.  From 9-0: deal 1 North names hearts and takes 4
    # (+1: 10-0, which does not end a fixed-deal game); deal 2 (North deals) East names
    # hearts and takes 4 (+1: 10-1).  After 2 deals North-South lead: they win.
    g = game("num-deals-2.egn")
    assert g.final.options.num_deals == 2 and g.final.options.target_score == NO_TARGET
    assert [r.points_official for r in g.deal_reports()] == [(1, 0), (0, 1)]
    assert g.official_score == [10, 1] and g.winner == 0 and g.final.game_over
    assert g.final.flags == []    # deal 2 is no deal "after the game was won"
    assert not g.table_at(g.deal_positions()[1][1]).game_over   # 10-0 after deal 1


def test_a_fixed_number_of_deals_ending_level_is_drawn():
    # the same two deals from 0-0: 1-1 after deal 2; the game ends drawn (no winner)
    g = game("num-deals-2-tied.egn")
    assert g.official_score == [1, 1] and g.final.game_over and g.winner is None
    assert g.as_played_winner == (0, 1)
    # the seats' own words as names add nothing: "N/S", not "N/S (North & South)"
    assert "Game over: winner none: the game is drawn (N/S and E/W level)" in \
        state_text(g.state_at(len(g.events)))
    assert "drawn, 1-1" in state_html(g.state_at(len(g.events)))


def test_a_deal_after_the_fixed_number_is_kept_and_flagged():
    # deals 1 and 2 give North-South 1 each (2-0, the game is over after 2 deals);
    # deal 3 (North-South +1 as played) is kept, flagged and counts for nothing
    g = game("num-deals-2-then-one-more.egn")
    assert g.official_score == [2, 0] and g.winner == 0 and g.final_score == [3, 0]
    assert [(f.kind, f.deal) for f in g.final.flags] == [("played-after-game-won", 3)]
    assert g.deal_reports()[2].note == "after the game was won"


def test_a_thrown_in_deal_counts_and_can_end_the_game():
    # without stick the dealer, deal 2 is passed round twice and thrown in: it is the
    # 2nd deal, so the game ends 10-0 (North-South win) on it
    d = doc("num-deals-2.egn", std=False)
    d["deals"][1]["phases"] = [{"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": ["Pass"] * 8}]
    (rec,) = read_egn_dict(d)
    g = Game(rec.events)
    assert g.final.deal_results[1][2] == "all passed"
    assert g.official_score == [10, 0] and g.winner == 0 and g.final.game_over
    assert g.as_played_winner == 0


def test_points_and_deals_together_end_at_whichever_comes_first():
    # option level (EGN holds one limit): to 10 or 5 deals; 10-0 after deal 1 ends it
    (rec,) = read_egn_dict(doc("num-deals-2.egn"))
    start = rec.events[0]
    opts = dict(start.options, target_score=10, num_deals=5)
    g = Game([dataclasses.replace(start, options=opts)] + rec.events[1:])
    assert g.winner == 0 and g.official_score == [10, 0]
    assert [(f.kind, f.deal) for f in g.final.flags] == [("played-after-game-won", 2)]


# ------------------------------------------------------------ canadian

def test_the_dealers_partner_ordering_up_without_going_alone_is_flagged():
    # North deals, up-card 9h; East passes, South (the dealer's partner) orders up
    # with her partner under the Canadian rule: kept as recorded (South takes 4
    # tricks with North: 1-0) and flagged
    g = game("canadian-not-alone.egn")
    [f] = g.audit()
    assert (f.kind, f.deal, f.seat) == ("canadian-not-alone", 1, 2)
    assert g.events[f.position].kind == "OrderedUp" and not g.events[f.position].alone
    assert g.official_score == [1, 0]
    assert game("canadian-not-alone.egn", canadian=False).audit() == []


def test_the_canadian_rule_when_going_alone_is_decided_after_the_exchange():
    (rec,) = read_egn_dict(doc("canadian-not-alone.egn"))
    start = rec.events[0]
    opts = dict(start.options, alone_timing="after_exchange")
    evs = [dataclasses.replace(start, options=opts)] + list(rec.events[1:])
    k = next(i for i, e in enumerate(evs) if e.kind == "Discarded")
    evs.insert(k + 1, PlayedWithPartner(2))
    g = Game(evs)
    assert [(f.kind, f.position) for f in g.audit()] == [("canadian-not-alone", k + 1)]


# ------------------------------------------------------------ the options

def test_the_new_options_are_type_checked_and_stored_only_off_their_default():
    for bad in ({"loner_march_score": "5"}, {"loner_march_score": -1}, {"fast_break": 1},
                {"four_trick_tokens": "yes"}, {"num_deals": 2.0}, {"num_deals": -3}):
        name = next(iter(bad))
        with pytest.raises(ValueError, match=f"option {name}="):
            make_variant("standard", bad)
    assert StandardOptions().to_dict() == StandardOptions(loner_march_score=4, num_deals=0).to_dict()
    assert "num_deals" not in StandardOptions().to_dict()
    assert StandardOptions(num_deals=8).to_dict()["num_deals"] == 8
    # a record without the toggles stores the options it stored before (same game id)
    (vwec,) = read_egn_file(str(ROOT / "fixtures" / "egn" / "VWEC Finals.egn"))
    assert not {"loner_march_score", "fast_break", "four_trick_tokens", "num_deals"} & set(vwec.events[0].options)


def test_the_import_warnings_are_gone():
    for name in ("loner-march-5.egn", "fast-break.egn", "four-trick-tokens.egn", "num-deals-2.egn"):
        (rec,) = read_egn_file(str(TOGGLES / name))
        assert rec.warnings == []
    warnings: list = []
    o = options_from_ruleset({"winning_score": 0}, [], warnings)
    assert o["target_score"] == NO_TARGET and any("no num_deals" in w for w in warnings)


@pytest.mark.parametrize("name", sorted(p.name for p in TOGGLES.glob("*.egn")))
def test_every_format_writes_the_toggles_back(name):
    (rec,) = read_egn_file(str(TOGGLES / name))
    notes: list = []
    out = write_egn(rec.events, warnings=notes)
    assert list(jsonschema.Draft7Validator(SCHEMA).iter_errors(out)) == []
    as_read = json.loads((TOGGLES / name).read_text())["metadata"]["ruleset"]
    assert out["metadata"]["ruleset"] == as_read           # written back as read
    assert notes == []
    # from the options alone (a game not read from EGN): every toggle the file set
    fresh = ruleset_from_options(make_variant("standard", rec.events[0].options).options, {}, notes)
    assert {k: fresh[k] for k in as_read if k != "loner_lead"} == {k: v for k, v in as_read.items()
                                                                     if k != "loner_lead"}
    assert notes == []
    (back,) = read_egn_dict(out)
    assert back.events[0].options == rec.events[0].options
    # the text notation and our JSON state options generally
    (txt,) = parse_text(write_text(rec.events))
    assert txt.events[0].options == rec.events[0].options
    (js,) = parse_json(write_json(rec.events))
    assert js.events[0].options == rec.events[0].options
    assert Game(txt.events).official_score == Game(rec.events).official_score


@pytest.mark.parametrize("expanded", [False, True])
def test_binary_egn_keeps_the_toggles(tmp_path, expanded):
    for path in sorted(TOGGLES.glob("*.egn")):
        (rec,) = read_egn_file(str(path))
        out = tmp_path / (path.stem + ".egnb")
        out.write_bytes(write_egnb(rec.events, expanded=expanded))
        (back,) = read_egnb_file(str(out))
        assert back.events[0].options == rec.events[0].options, path.name
        assert Game(back.events).official_score == Game(rec.events).official_score


def test_the_text_notation_states_a_toggle():
    (rec,) = read_egn_file(str(TOGGLES / "loner-march-5.egn"))
    text = write_text(rec.events)
    assert '[Option.loner_march_score "5"]' in text
    (std,) = parse_text(text.replace('[Option.loner_march_score "5"]\n', ""))
    assert Game(std.events).official_score == [9, 0]


# ------------------------------------------------------------ the real command

def test_import_and_audit_through_the_command(tmp_path):
    env = dict(os.environ)
    env.pop("PERSISTENCE_MODULE", None)
    cmd = [sys.executable, "-m", "euchre_events.cli"]
    db = str(tmp_path / "t.sqlite")
    files = sorted(str(p) for p in TOGGLES.glob("*.egn"))
    out = subprocess.run(cmd + ["import", *files, "--db", db], cwd=tmp_path, env=env,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    ids = {line.split("  ")[1]: line.split("  ")[0] for line in out.stdout.strip().splitlines()}
    audit = subprocess.run(cmd + ["audit", "--format", "json", *ids.values(), "--db", db], cwd=tmp_path,
                           env=env, capture_output=True, text=True)
    assert audit.returncode == 0, audit.stderr
    games = {g["title"]: g for g in json.loads(audit.stdout)["games"]}
    expect = {   # title: (official score, official winner), worked above
        "Loner march worth 5": ([10, 0], 0),
        "Fast break": ([9, 0], None),
        "Four-trick tokens": ([10, 0], 0),
        "Two deals": ([10, 1], 0),
        "Two deals, level": ([1, 1], None),
        "Two deals and one more": ([2, 0], 0),
        "Canadian rule broken": ([1, 0], None),
    }
    assert {t: (g["official_score"], g["official_winner"]) for t, g in games.items()} == expect
    assert [d["tokens"] for d in games["Four-trick tokens"]["deals"]] == [[1, 0], [2, 0], [3, 0], [0, 0]]
    assert games["Four-trick tokens"]["tokens"] == [0, 0]
    assert games["Two deals, level"]["tied"] == [0, 1]
    assert games["Two deals and one more"]["deals"][2]["flags"] == ["played-after-game-won"]
    assert [f["kind"] for f in games["Canadian rule broken"]["findings"]] == ["canadian-not-alone"]
    assert games["Fast break"]["deals"][0]["points_official"] == [0, 0]


def test_the_specs_fixed_deal_form_with_winning_score_0_reads():
    """alternate-rules.md: a fixed-deal game omits winning_score "(or sets it to
    0)"; the shipped schema refuses the two keys together, so a 0 is read as not
    set.  The same game as num-deals-2.egn: 10-1 after deal 2, N/S win."""
    doc = json.loads((TOGGLES / "num-deals-2.egn").read_text())
    assert "winning_score" not in doc["metadata"]["ruleset"]
    doc["metadata"]["ruleset"]["winning_score"] = 0
    (rec,) = read_egn_dict(doc)
    g = Game(rec.events)
    assert g.official_score == [10, 1] and g.winner == 0
    assert rec.events[0].options == game("num-deals-2.egn").events[0].options
