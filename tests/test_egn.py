"""EGN / EMN reading and writing (euchre_events.formats.egn).

The fixture files are real EGN records (fixtures/egn, see SOURCE.md).  The
expected scores are not taken from our engine: a tiny trick-winner and
scoring implementation below, written straight from rules.md 1.2, 1.3, 2.5
and 2.6, replays each deal from the raw JSON.  Some deals are also worked out
by hand in the comments.
"""
from __future__ import annotations

import glob
import json
import os

import pytest
from conftest import EGN_FIXTURES, RUNNER

from euchre_events.events import (CardPlayed, CardsDealt, DealThrownIn, DefendedAlone,
                                  Discarded, OrderedUp, Passed, TrumpNamed, UpCardPickedUp)
from euchre_events.formats import RecordError, read_records
from euchre_events.formats.egn import (read_egn_dict, read_egn_file, read_egn_text, upgrade_egn,
                                       validate_egn, write_egn)
from euchre_events.projections import Game

HERE = os.path.dirname(__file__)
FIX = str(EGN_FIXTURES)
TOP = sorted(glob.glob(os.path.join(FIX, "*.egn")))
MATCH = sorted(glob.glob(os.path.join(FIX, "match", "*.egn")))
EMN = os.path.join(FIX, "match", "MotE W5 Match.emn")
NEG = os.path.join(FIX, "negative")


def fx(*parts):
    return os.path.join(FIX, *parts)


def raw_games(path):
    """The raw EGN game documents of a fixture file (an EMN holds several)."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if doc["fileType"] == "Euchre Match Notation":
        return [g["gameData"] for g in doc["games"]]
    return [doc]


# ---------------------------------------------------------------------------
# An independent referee, from rules.md only (not our engine).

SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}


def _card(text):
    return text[0].upper(), text[1].upper()


def eff_suit(card, trump):
    """rules.md 1.2: the left bower belongs to trump."""
    r, s = _card(card)
    if r == "J" and s == SAME_COLOUR[trump]:
        return trump
    return s


def rank_value(card, trump):
    """rules.md 1.1: trumps right, left, A, K, Q, 10, 9; plain A, K, Q, J, 10, 9."""
    r, s = _card(card)
    if eff_suit(card, trump) == trump:
        if r == "J":
            return 20 if s == trump else 19
        return "9TQKA".index(r)
    return "9TJQKA".index(r)


def referee_winner(cards, trump):
    """rules.md 1.3: highest trump, else highest card of the led (effective) suit."""
    led = eff_suit(cards[0], trump)
    best, key = 0, None
    for i, c in enumerate(cards):
        s = eff_suit(c, trump)
        if s == trump:
            k = (1, rank_value(c, trump))
        elif s == led:
            k = (0, rank_value(c, trump))
        else:
            continue
        if key is None or k > key:
            best, key = i, k
    return best


def referee_deal(deal, loner_lead):
    """Points per team for one raw EGN deal (rules.md 2.2-2.6, lone euchre = 2)."""
    dealer = deal["initialState"]["dealer"]
    up = deal["initialState"]["upCard"]
    bid = [p for p in deal["phases"] if p["type"] == "EUCHRE_BIDDING"][0]
    tricks = [p for p in deal["phases"] if p["type"] == "TRICK_PLAY"]
    calls = bid["calls"]
    made = [i for i, c in enumerate(calls) if c != "Pass"]
    if not made:
        assert len(calls) == 8
        return [0, 0]
    i = made[0]
    maker = (dealer + 1 + i) % 4
    trump = _card(up)[1] if i < 4 else calls[i].upper()
    alone = bid.get("isAlone", False)
    out = {(maker + 2) % 4} if alone else set()

    def next_active(s):
        s = (s + 1) % 4
        while s in out:
            s = (s + 1) % 4
        return s

    leader = next_active(maker) if (alone and loner_lead == "LEFT_OF_LONER") else next_active(dealer)
    won = [0, 0]
    for cards in tricks[0]["tricks"]:
        seats = [leader]
        while len(seats) < len(cards):
            seats.append(next_active(seats[-1]))
        w = seats[referee_winner(cards, trump)]
        won[w % 2] += 1
        leader = w
    side = maker % 2
    pts = [0, 0]
    n = won[side]
    if n == 5:
        pts[side] = 4 if alone else 2
    elif n >= 3:
        pts[side] = 1
    else:
        pts[1 - side] = 2
    return pts


def referee_game(doc):
    """(number of deals, final score) of a raw EGN game."""
    lead = doc["metadata"].get("ruleset", {}).get("loner_lead", "LEFT_OF_DEALER")
    score = list(doc["metadata"]["initialScore"])
    for d in doc["deals"]:
        p = referee_deal(d, lead)
        score = [score[0] + p[0], score[1] + p[1]]
    return len(doc["deals"]), score


def test_referee_on_hand_worked_deals():
    # Custom Scenario (dealt hands given): dealer N, four passes, E names spades.
    # E leads: 9H JH 9S(W trumps) AH -> W; W: JS AS 9C TC -> W (right bower);
    # W: TD JD QD KD -> S; S: AD 9D TH QC -> S; S: AC QS(W trumps) KH KC -> W.
    # E/W take 3: one point -> 0-1.
    assert referee_game(raw_games(fx("Custom Scenario.egn"))[0]) == (1, [0, 1])
    # Six Points in Two Hands, from 4-9: S goes alone in hearts and marches (+4),
    # then S orders the QD and N/S march (+2): 10-9.
    assert referee_game(raw_games(fx("Six Points in Two Hands.egn"))[0]) == (2, [10, 9])


# ---------------------------------------------------------------------------
# Every real game imports; deals and final score agree with the referee.

REAL = TOP + MATCH + [EMN]


@pytest.mark.parametrize("path", REAL, ids=os.path.basename)
def test_real_games_import_and_score(path):
    records = read_egn_file(path)
    raws = raw_games(path)
    assert len(records) == len(raws)
    for rec, raw in zip(records, raws):
        game = Game(rec.events)
        n_deals, score = referee_game(raw)
        assert game.deals == n_deals
        assert game.final_score == score
        if raw["metadata"].get("finalScore") is not None:
            assert rec.stated_final_score == raw["metadata"]["finalScore"] == score
        if max(score) >= 10:   # target 10 in every fixture ruleset
            assert game.winner == score.index(max(score))
        else:
            assert game.winner is None
        assert rec.events[0].players == tuple(
            p if isinstance(p, str) else p["name"] for p in raw["metadata"]["players"])
        assert rec.events[0].initial_score == tuple(raw["metadata"]["initialScore"])
        assert rec.events[0].first_dealer == raw["deals"][0]["initialState"]["dealer"]


def test_final_scores_per_file():
    # the scores the referee gives, written out for the report (and a check
    # that the referee agrees with itself across the EGN and EMN copies)
    expected = {
        "Custom Scenario.egn": [0, 1], "Six Points in Two Hands.egn": [10, 9],
    }
    for name, score in expected.items():
        assert Game(read_egn_file(fx(name))[0].events).final_score == score
    emn = [Game(r.events).final_score for r in read_egn_file(EMN)]
    single = [Game(read_egn_file(p)[0].events).final_score for p in MATCH]
    assert emn == single == [referee_game(raw_games(p)[0])[1] for p in MATCH]


def test_emn_match():
    records = read_egn_file(EMN)
    assert [r.title for r in records] == [f"MotE W5 G{i}" for i in range(1, 7)]
    assert records[2].events[0].players == ("Jen-Eye", "Dad of Carl", "Chach", "WWMM")
    assert records[0].source["match"]["title"] == "MotE Week 5 Match"
    assert records[5].source["match"]["gameIndex"] == 5
    # the same games as the 1.0.0 single files, upgraded
    for rec, path in zip(records, MATCH):
        assert rec.events[1:] == read_egn_file(path)[0].events[1:]
    # read_records dispatches on the extension
    assert len(read_records(EMN)) == 6


@pytest.mark.parametrize("path", REAL, ids=os.path.basename)
def test_no_renege_in_real_games(path):
    for rec in read_egn_file(path):
        assert Game(rec.events).audit() == []


def test_options_from_ruleset():
    vwec = read_egn_file(fx("VWEC Finals.egn"))[0].events[0]
    assert vwec.options["loner_lead"] == "left_of_loner"
    assert vwec.options["stick_the_dealer"] is True       # "std": true
    assert vwec.options["target_score"] == 10
    assert vwec.options["defend_alone"] == "off"
    assert vwec.source["ruleset"] == {"std": True, "canadian": False, "loner_lead": "LEFT_OF_LONER"}
    assert vwec.source["date"] == "2026-05-29T16:30"
    bears = read_egn_file(fx("Me and Bears.egn"))[0].events[0]
    assert bears.options["loner_lead"] == "left_of_dealer"
    doc = raw_games(fx("Six Points in Two Hands.egn"))[0]
    doc["metadata"]["ruleset"].update(house_rule=1, winning_score=11, loner_euchred_score=4)
    rec = read_egn_dict(doc, "six.egn")[0]
    assert rec.events[0].source["ruleset"]["house_rule"] == 1
    assert rec.events[0].options["target_score"] == 11
    assert rec.events[0].options["lone_euchred_value"] == 4
    assert any("'house_rule'" in w for w in rec.warnings)
    # a joker allowed but never dealt: read as standard, with a warning (issue 14)
    doc["metadata"]["ruleset"]["joker"] = True
    (rec,) = read_egn_dict(doc, "six.egn")
    assert any("ruleset joker=True: no deal of this record uses it" in w for w in rec.warnings)
    # another number of players is the game itself: refused by name
    doc["metadata"]["ruleset"]["num_players"] = 3
    with pytest.raises(RecordError, match="num_players=3 is not standard Euchre"):
        read_egn_dict(doc, "six.egn")


# ---------------------------------------------------------------------------
# Events of particular deals, worked out by hand.

def deal_events(rec, n):
    evs, out, cur = rec.events, [], 0
    for e in evs[1:]:
        if e.kind == "DealStarted":
            cur = e.deal
        if cur == n:
            out.append(e)
    return out


def test_hand_rebuilt_with_recorded_discard():
    # Me and Bears, deal 2 (dealNumber 1): dealer S (2), up-card JH, the dealer
    # takes it up and discards QC (recorded).  W leads.  Tricks (hearts trump):
    # AD QH 9D KD -> N; QS JD 9S QD -> E (left bower); AC TH KH 9C -> W;
    # 9H TC TD JH -> S; JS AH KC JC -> W.  S played KD 9S TH JH JS: JH came from
    # the pick-up, so S was dealt KD 9S TH JS QC.
    rec = read_egn_file(fx("Me and Bears.egn"))[0]
    evs = deal_events(rec, 2)
    dealt = [e for e in evs if isinstance(e, CardsDealt)][0]
    assert dealt.up_card == "JH"
    assert sorted(dealt.hands[2]) == sorted(["KD", "9S", "TH", "JS", "QC"])
    assert sorted(dealt.hands[3]) == sorted(["AD", "QD", "KH", "9H", "AH"])
    assert [e for e in evs if e.kind in ("Passed", "OrderedUp", "UpCardPickedUp", "Discarded")] == [
        Passed(3), Passed(0), Passed(1), OrderedUp(2), UpCardPickedUp(2), Discarded(2, "QC")]
    plays = [e for e in evs if isinstance(e, CardPlayed)]
    assert plays[:4] == [CardPlayed(3, "AD"), CardPlayed(0, "QH"), CardPlayed(1, "9D"), CardPlayed(2, "KD")]
    assert plays[4] == CardPlayed(0, "QS")   # N won trick 1 with the QH


def test_hand_rebuilt_with_unknown_discard():
    # VWEC Finals, deal 1: dealer S takes up KC, discard not recorded.  S plays
    # 9C KS QH KC JC; KC is the up-card, so S was dealt 9C KS QH JC and a card
    # the record does not state.
    rec = read_egn_file(fx("VWEC Finals.egn"))[0]
    evs = deal_events(rec, 1)
    dealt = [e for e in evs if isinstance(e, CardsDealt)][0]
    assert sorted(dealt.hands[2]) == sorted(["9C", "KS", "QH", "JC", "??"])
    assert dealt.kitty == ("??", "??", "??")
    assert Discarded(2, "??") in evs


def test_lone_hand_and_left_of_loner():
    # VWEC Finals deal 8 (dealNumber 7): dealer E (1), three passes, E takes up
    # TS alone, so W (3) sits out.  LEFT_OF_LONER: S (2) leads: 9D QD TS.
    rec = read_egn_file(fx("VWEC Finals.egn"))[0]
    evs = deal_events(rec, 8)
    dealt = [e for e in evs if isinstance(e, CardsDealt)][0]
    assert dealt.hands[3] == ("??",) * 5
    assert OrderedUp(1, alone=True) in evs
    plays = [e for e in evs if isinstance(e, CardPlayed)]
    assert plays[:3] == [CardPlayed(2, "9D"), CardPlayed(0, "QD"), CardPlayed(1, "TS")]


def test_partial_player_cards_of_sitting_out_partner():
    # MotE W5 G1, deal 9 (dealNumber 8): dealer N (0) takes up AH alone; the
    # 1.0.0 file gives only S's hand (S sits out): KH AS JS TS 9C.
    rec = read_egn_file(fx("match", "MotE W5 G1.egn"))[0]
    evs = deal_events(rec, 9)
    dealt = [e for e in evs if isinstance(e, CardsDealt)][0]
    assert dealt.hands[2] == ("KH", "AS", "JS", "TS", "9C")
    assert [e.seat for e in evs if isinstance(e, CardPlayed)][:3] == [1, 3, 0]   # initialLead 1


def test_stick_the_dealer_deal():
    # Epic Comeback deal 2: seven passes, then the dealer (E, 1) names diamonds.
    rec = read_egn_file(fx("Epic Comeback.egn"))[0]
    evs = deal_events(rec, 2)
    assert [e for e in evs if e.kind in ("Passed", "TrumpNamed")] == \
        [Passed(s % 4) for s in range(2, 9)] + [TrumpNamed(1, "D")]


# ---------------------------------------------------------------------------
# The led-suit trap (docs/egn.md): a led left bower asks for trump.

def test_left_bower_led_others_must_follow_trump():
    # VWEC Finals deal 12 (dealNumber 11): dealer E (1), S orders up TC (clubs
    # trump), E picks it up.  S leads JS, the left bower.  E holds JC, AS, QD,
    # 9D, TC and one unknown card: a printed-suit reader would ask E for
    # spades (AS); the rules ask for clubs: JC or TC.  E plays JC: no renege.
    rec = read_egn_file(fx("VWEC Finals.egn"))[0]
    game = Game(rec.events)
    first = [i for i, e in enumerate(rec.events) if e.kind == "DealStarted"][11]
    plays = [i for i in range(first, len(rec.events)) if rec.events[i].kind == "CardPlayed"]
    assert rec.events[plays[0]] == CardPlayed(2, "JS")
    st = game.state_at(plays[3])          # E (dealer) to play the 4th card of trick 1
    assert st.turn == 1 and st.trump == "C"
    assert sorted(st.legal_cards()) == ["JC", "TC"]
    assert "AS" not in st.legal_cards() and "AS" in st.hands[1]
    assert "clubs" in st.legal_reason
    assert rec.events[plays[3]] == CardPlayed(1, "JC")
    assert game.audit() == []
    # N/S made 1 trick (N trumps the spade in trick 2 with the AC): euchred, E/W +2
    assert game.final.deal_results[11][1] == (0, 2)


# ---------------------------------------------------------------------------
# Negative files.

def one_deal(path, deal_number):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    doc["deals"] = [d for d in doc["deals"] if d["dealNumber"] == deal_number]
    return doc


@pytest.mark.parametrize("name", ["test.egn", "test_annotated.egn"])
def test_negative_first_deal_is_impossible(name):
    # dealNumber 0: N (dealer) takes up the QS and discards KH, yet W plays the
    # QS in trick 3 (tricks: QC QD TC TD -> E; TH TS JS QH -> W with the right
    # bower; W leads QS).  A card the dealer holds cannot be played by W: the
    # file is refused, naming the file, deal, event and reason.
    with pytest.raises(RecordError) as e:
        read_egn_file(os.path.join(NEG, name))
    err = e.value
    assert err.deal == 1 and err.event == "18 (CardPlayed)"
    assert "West (p4) plays QS, but QS is the up-card, which the dealer (North, p1) took up" in err.reason
    assert name in str(err)


@pytest.mark.parametrize("name", ["test.egn", "test_annotated.egn"])
def test_negative_follow_suit_violations_flagged(name):
    # dealNumber 1 on its own (it is consistent).  Dealer E (1), up QS, kitty
    # QH JH JC, E's hand QD QC KC KH KS.  Five passes, then W (3) names clubs
    # alone: E sits out; S (2) leads.  Tricks (clubs trump):
    #  1. S JD, W TC, N TH   -> W   N holds TD AD 9D: renege (diamonds led)
    #  2. W TS, N TD, S 9C   -> S   N holds AS: renege (spades led)
    #  3. S 9H, W 9S, N AD   -> S   W holds AH: renege (hearts led)
    #  4. S AC, W AH, N AS   -> S   W holds JS, the left bower, a club: renege
    #  5. S KD, W JS, N 9D   -> W
    # W alone takes 2 tricks: euchred, N/S +2: 2-1 becomes 4-1.
    rec = read_egn_dict(one_deal(os.path.join(NEG, name), 1), name)[0]
    game = Game(rec.events)
    found = [(f.deal, f.trick, f.seat, f.card, set(f.evidence)) for f in game.audit()]
    assert found == [
        (1, 1, 0, "TH", {"TD", "AD", "9D"}),
        (1, 2, 0, "TD", {"AS"}),
        (1, 3, 3, "9S", {"AH"}),
        (1, 4, 3, "AH", {"JS"}),
    ]
    assert game.final_score == [4, 1]
    dealt = [e for e in rec.events if isinstance(e, CardsDealt)][0]
    assert dealt.kitty == ("QH", "JH", "JC")
    assert dealt.hands[1] == ("QD", "QC", "KC", "KH", "KS")


# ---------------------------------------------------------------------------
# Game end is the variant's (rules.md 2.6: the first side to the target
# score; EGN ruleset winning_score, default 10).  "Six Points in Two Hands"
# starts 4-9; deal 1: S names hearts alone and takes all five, N/S +4; deal 2:
# S orders up and N/S take all five, +2 (a march): 10-9.

def _six(winning_score=None, initial=None):
    doc = raw_games(fx("Six Points in Two Hands.egn"))[0]
    if winning_score is not None:
        doc["metadata"]["ruleset"]["winning_score"] = winning_score
    if initial is not None:
        doc["metadata"]["initialScore"] = initial
    return doc


def test_game_end_comes_from_the_ruleset_target():
    (rec,) = read_egn_dict(_six(), "six.egn")
    g = Game(rec.events)
    assert (g.final_score, g.winner) == ([10, 9], 0)       # 10 reaches the default target
    (rec,) = read_egn_dict(_six(winning_score=11), "six.egn")
    g = Game(rec.events)
    assert rec.events[0].options["target_score"] == 11
    assert (g.final_score, g.winner) == ([10, 9], None)    # 10 is short of 11: not over


def test_a_game_goes_on_past_10_when_the_target_is_11(tmp_path):
    """From 6-9, deal 1 (+4) gives 10-9: under the default target the game is
    over, and deal 2, recorded all the same, is kept and flagged as played
    after the game was won (it counts for nothing: rules.md 1.6); under
    winning_score 11 it goes on and deal 2 (+2) gives 12-9, a win for N/S."""
    from euchre_events.formats.egn import audit_egn_by_deal
    (rec,) = read_egn_dict(_six(initial=[6, 9]), "six.egn")
    assert any("deal 2: played after the game was won (10-9" in w for w in rec.warnings)
    g = Game(rec.events)
    assert (g.final_score, g.official_score, g.winner) == ([12, 9], [10, 9], 0)
    assert [f.kind for f in g.audit()] == ["played-after-game-won"]
    (rec,) = read_egn_dict(_six(winning_score=11, initial=[6, 9]), "six.egn")
    g = Game(rec.events)
    assert (g.final_score, g.winner, g.deals) == ([12, 9], 0, 2)
    # the deal-by-deal audit asks the same game: under 10, deal 2 is flagged
    path = tmp_path / "six.egn"
    path.write_text(json.dumps(_six(initial=[6, 9])), encoding="utf-8")
    report = audit_egn_by_deal(str(path))
    assert (report["official_score"], report["official_winner"], report["impossible"]) == ([10, 9], 0, 0)
    assert [(f["deal"], f["kind"]) for f in report["findings"]] == [(2, "played-after-game-won")]
    path.write_text(json.dumps(_six(winning_score=11, initial=[6, 9])), encoding="utf-8")
    report = audit_egn_by_deal(str(path))
    assert (report["final_score"], report["winner"], report["impossible"]) == ([12, 9], 0, 0)
    # and the target goes back out as the EGN ruleset says it
    assert write_egn(rec.events)["metadata"]["ruleset"]["winning_score"] == 11


def test_deal_by_deal_audit_is_one_game_of_the_deals_it_can_fold(tmp_path):
    """VWEC Finals with deal 5 made impossible (its trick 2 led by the AD
    that trick 1 began with): the other twelve deals are one game, scored by
    the engine: 8-10 less deal 5's point for N/S is 7-10, E/W win.  The deal
    after the one left out is not flagged for its dealer (rotation cannot be
    judged across a missing deal)."""
    from euchre_events.formats.egn import audit_egn_by_deal
    doc = raw_games(fx("VWEC Finals.egn"))[0]
    play = [p for p in doc["deals"][4]["phases"] if p["type"] == "TRICK_PLAY"][0]
    assert play["tricks"][0][0] == "Ad"
    play["tricks"][1][0] = "Ad"
    path = tmp_path / "vwec.egn"
    path.write_text(json.dumps(doc), encoding="utf-8")
    report = audit_egn_by_deal(str(path))
    assert {k: report[k] for k in ("deal_count", "final_score", "winner", "impossible")} == {
        "deal_count": 13, "final_score": [7, 10], "winner": 1, "impossible": 1}
    assert len(report["deals"]) == 12 and report["official_score"] == [7, 10]
    [f] = report["findings"]
    assert (f["deal"], f["kind"], f["event"]) == (5, "impossible", "125 (CardPlayed)")
    assert f["penalty"].startswith("the deal is refused: East (Llama) cannot play AD")


def test_negative_annotated_alternative_line_of_second_deal():
    # test_annotated.egn dealNumber 1 has a line from call 3: the dealer E
    # takes up the QS himself and discards QD; S leads AC.
    rec = read_egn_dict(one_deal(os.path.join(NEG, "test_annotated.egn"), 1), "t")[0]
    (var,) = rec.variations
    assert rec.events[var["position"]] == Passed(1)      # E's round-1 pass is replaced
    assert var["events"][:4] == [OrderedUp(1), UpCardPickedUp(1), Discarded(1, "QD"),
                                 CardPlayed(2, "AC")]


def test_upgrade_of_old_keys():
    with open(os.path.join(NEG, "test_annotated.egn"), encoding="utf-8") as f:
        doc = json.load(f)
    schema_doc, full, warnings = upgrade_egn(doc)
    assert doc["version"] == "1.0.0" and "player_cards" in doc["deals"][0]["initialState"]
    assert full["version"] == "1.4"
    st = full["deals"][0]["initialState"]
    assert st["kitty"] == ["Kc", "Jc", "Jh"] and "playerCards" in st
    assert full["deals"][0]["phases"][0]["callAnnotations"] == {"4": ["not sure about this order"]}
    alt = full["deals"][0]["alternativeLines"][0]["phases"][0]
    assert alt["playAnnotations"] == {"0": ["better line"]} and alt["initialLead"] == 2
    assert validate_egn(schema_doc) == [] and warnings == []
    assert validate_egn(doc) != []          # as it stands, 1.0.0 breaks the 1.4 schema


def test_invalid_files_refused():
    with pytest.raises(RecordError) as e:
        read_egn_file(os.path.join(NEG, "invalid1.json"))
    assert "fileType 'Euchre Layout Template' is not Euchre Game Notation" in str(e.value)
    assert "invalid1.json" in str(e.value)
    with pytest.raises(RecordError) as e:
        read_egn_file(os.path.join(NEG, "invalid2.json"))
    assert "JSON is an array" in str(e.value) and "invalid2.json" in str(e.value)


def test_timings_layouts_imports_with_warnings():
    (rec,) = read_egn_file(os.path.join(NEG, "test_timingsLayouts.egn"))
    assert rec.title == "Three Trump is a Must Go"
    for key in ("timings", "videoUrl", "viewSwitches", "views"):
        assert any(repr(key) in w for w in rec.warnings)
    # one deal: dealer S (2) takes up the JS; N/S are euchred: E/W +2
    assert referee_game(raw_games(os.path.join(NEG, "test_timingsLayouts.egn"))[0]) == (1, [0, 2])
    assert Game(rec.events).final_score == [0, 2]


def test_not_json_and_schema_errors(tmp_path):
    p = tmp_path / "broken.egn"
    p.write_text('{"fileType": "Euchre Game Notation",\n "version": }')
    with pytest.raises(RecordError) as e:
        read_egn_file(str(p))
    assert e.value.line == 2 and "not JSON" in e.value.reason and "broken.egn" in str(e.value)
    doc = raw_games(fx("VWEC Finals.egn"))[0]
    doc["deals"][2]["phases"][0]["calls"][3] = "Oder"
    with pytest.raises(RecordError) as e:
        read_egn_dict(doc, "oder.egn")
    assert "breaks the EGN schema" in str(e.value) and "'Oder'" in str(e.value)


def test_impossible_play_names_deal_and_event():
    # VWEC deal 3, trick 2: W plays the AD, which N already played in trick 1
    doc = raw_games(fx("VWEC Finals.egn"))[0]
    doc["deals"][2]["phases"][1]["tricks"][1][2] = "Ad"
    with pytest.raises(RecordError) as e:
        read_egn_dict(doc, "twice.egn")
    assert e.value.deal == 3 and "AD" in e.value.reason and "CardPlayed" in str(e.value.event)


def test_stated_final_score_checked():
    doc = raw_games(fx("Six Points in Two Hands.egn"))[0]
    doc["metadata"]["finalScore"] = [10, 9]
    rec = read_egn_dict(doc, "six.egn")[0]
    assert rec.stated_final_score == [10, 9] and not rec.warnings
    doc["metadata"]["finalScore"] = [9, 9]
    rec = read_egn_dict(doc, "six.egn")[0]
    assert rec.stated_final_score == [9, 9]
    assert any("[9, 9]" in w and "[10, 9]" in w for w in rec.warnings)


# ---------------------------------------------------------------------------
# Small hand-made EGN games for what the fixtures do not show.

def tiny(deals, ruleset=None, initial=(0, 0)):
    return {"fileType": "Euchre Game Notation", "version": "1.4",
            "metadata": {"title": "tiny", "players": ["N", "E", "S", "W"],
                         "initialScore": list(initial),
                         "ruleset": ruleset or {"std": False, "loner_lead": "LEFT_OF_DEALER"}},
            "deals": deals}


def test_dealer_never_plays_the_up_card_so_it_was_the_discard():
    # Dealer W (3) takes up the 9S; W then plays JH KH QD AC 9C, never the 9S,
    # so the 9S is the only card W can have discarded.  N leads.
    # 1: N AS, E KS, S QS, W JH  -> N;  2: N JS, E TS, S AD, W KH -> N
    # 3: N JC, E 9D, S TD, W QD  -> N (left bower);  4: N AH, E QH, S TH, W AC -> N
    # 5: N KC, E TC, S QC, W 9C  -> N.  W/E ordered: N/S take 5: euchred, N/S +2.
    deal = {"dealNumber": 0, "initialState": {"dealer": 3, "upCard": "9s"},
            "phases": [{"phaseNumber": 0, "type": "EUCHRE_BIDDING",
                        "calls": ["Pass", "Pass", "Pass", "Order"], "isAlone": False},
                       {"phaseNumber": 1, "type": "TRICK_PLAY", "tricks": [
                           ["As", "Ks", "Qs", "Jh"], ["Js", "Ts", "Ad", "Kh"],
                           ["Jc", "9d", "Td", "Qd"], ["Ah", "Qh", "Th", "Ac"],
                           ["Kc", "Tc", "Qc", "9c"]]}]}
    rec = read_egn_dict(tiny([deal]), "tiny.egn")[0]
    assert Discarded(3, "9S") in rec.events
    dealt = [e for e in rec.events if isinstance(e, CardsDealt)][0]
    assert sorted(dealt.hands[3]) == sorted(["JH", "KH", "QD", "AC", "9C"])
    game = Game(rec.events)
    assert game.final_score == [2, 0] and game.audit() == []


def test_defend_alone_and_thrown_in():
    # deal 1: all eight pass: thrown in (rules.md 2.3, no stick the dealer).
    # deal 2: dealer E (1), up-card 9H.  S (2) orders up alone, so N sits out;
    # E is still in, takes up the 9H and discards the QD.  Defending alone is on
    # (rules.md 2.4): the defenders are asked from the dealer's left, W (3)
    # first; W defends alone, so E sits out too.  S, left of the dealer, leads.
    deal1 = {"dealNumber": 0, "initialState": {"dealer": 0, "upCard": "9c"},
             "phases": [{"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": ["Pass"] * 8}]}
    # S: JH AH KH AS AC.  W: JD QH TH KS KC.  Hearts trump.
    # 1: S JH, W TH -> S;  2: S AH, W QH -> S;  3: S KH, W JD -> W (left bower)
    # 4: W KS, S AS -> S;  5: S AC, W KC -> S.  S alone takes 4: N/S +1.
    deal2 = {"dealNumber": 1, "initialState": {"dealer": 1, "upCard": "9h"},
             "phases": [{"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": ["Order"],
                         "isAlone": True, "aloneDefender": 3, "discard": "Qd"},
                        {"phaseNumber": 1, "type": "TRICK_PLAY", "tricks": [
                            ["Jh", "Th"], ["Ah", "Qh"], ["Kh", "Jd"], ["Ks", "As"], ["Ac", "Kc"]]}]}
    rec = read_egn_dict(tiny([deal1, deal2], {"std": False, "defend_alone": True}), "t.egn")[0]
    assert rec.events[0].options["defend_alone"] == "vs_lone"
    assert DealThrownIn("all passed") in rec.events
    d2 = deal_events(rec, 2)
    kinds = [e for e in d2 if e.kind in ("OrderedUp", "UpCardPickedUp", "Discarded",
                                         "DefendedAlone", "PlayedWithPartner")]
    assert kinds == [OrderedUp(2, alone=True), UpCardPickedUp(1), Discarded(1, "QD"),
                     DefendedAlone(3)]
    assert [e.seat for e in d2 if isinstance(e, CardPlayed)][:4] == [2, 3, 2, 3]
    game = Game(rec.events)
    assert game.final_score == [1, 0] and game.audit() == []
    back = read_egn_dict(write_egn(rec.events), "back.egn")[0]
    assert back.events[1:] == rec.events[1:]


# ---------------------------------------------------------------------------
# Annotations and alternative lines.

def test_vwec_annotations_and_lines():
    rec = read_egn_file(fx("VWEC Finals Annotated.egn"))[0]
    ev = rec.events
    assert len(rec.annotations) == 19 and len(rec.variations) == 7
    by_text = {a["text"]: a["position"] for a in rec.annotations}
    # deal 2, call 4: eldest N names clubs in round 2
    p = by_text[[t for t in by_text if t.startswith("Pretty ambitious next call")][0]]
    assert ev[p] == TrumpNamed(0, "C")
    # deal 2, play 10: the dealer W plays the JH on a spade lead
    p = by_text["Even if dealer trumps here we get the last two tricks."]
    assert ev[p] == CardPlayed(3, "JH")
    # deal 4, play 6: S trumps with the QH
    p = by_text["Trumping here in case S2 has the Ks."]
    assert ev[p] == CardPlayed(2, "QH")
    assert all(a["mark"] is None for a in rec.annotations)
    # deal 1, line from play 4 (trick 2): S leads QH instead of KS
    v = rec.variations[0]
    assert ev[v["position"]] == CardPlayed(2, "KS")
    assert v["events"][0] == CardPlayed(2, "QH") and len(v["events"]) == 16
    assert v["annotations"][0]["position"] == v["position"]
    assert v["annotations"][0]["text"].startswith("This line leads to a march")
    # deal 5, two lines from play 1: N trumps high with the AC
    v2, v3 = rec.variations[1], rec.variations[2]
    assert v2["position"] == v3["position"] and ev[v2["position"]] == CardPlayed(0, "TC")
    assert v3["events"][0] == CardPlayed(0, "AC")
    line = ev[:v3["position"]] + v3["events"]
    second = [a for a in v3["annotations"] if a["text"].startswith("Instead of playing trump")][0]
    assert line[second["position"]] == CardPlayed(0, "9H")
    # the lines replay: each folds with the game's prefix
    for v in rec.variations:
        Game(ev[:v["position"]] + v["events"])


def test_hustle_annotations_and_lines():
    rec = read_egn_file(fx("Quite the Hustle Annotated.egn"))[0]
    ev = rec.events
    (note,) = rec.annotations
    # deal 11: the dealer is N (0), so call 0 is E's pass
    assert note["text"].startswith("Can't really consider donating with the L here")
    assert ev[note["position"]] == Passed(1)
    assert len(rec.variations) == 5 and not rec.warnings
    # deal 7, line from call 3: the dealer N orders (takes up the JH), discarding the JS
    # (DealStarted and CardsDealt come first, so call 3 is 5 events after the deal starts)
    deal7 = [i for i, e in enumerate(ev) if e.kind == "DealStarted" and e.deal == 7][0]
    (v,) = [x for x in rec.variations if x["position"] == deal7 + 5]
    assert set(v) == {"position", "events", "annotations", "comment"} and v["comment"] == ""
    assert ev[v["position"]] == Passed(0)
    assert v["events"][:3] == [OrderedUp(0), UpCardPickedUp(0), Discarded(0, "JS")]
    assert v["annotations"][0]["text"] == "Definitely need to order this as dealer."
    assert (ev[:v["position"]] + v["events"])[v["annotations"][0]["position"]] == OrderedUp(0)


def test_marks_parsed():
    doc = raw_games(fx("Six Points in Two Hands.egn"))[0]
    doc["deals"][1]["phases"][1]["playAnnotations"] = {"0": ["[?!] risky lead", "plain"]}
    rec = read_egn_dict(doc, "m.egn")[0]
    assert [(a["text"], a["mark"]) for a in rec.annotations] == [("risky lead", "?!"), ("plain", None)]
    assert rec.events[rec.annotations[0]["position"]] == CardPlayed(2, "JD")
    back = write_egn(rec.events, rec.annotations)
    assert back["deals"][1]["phases"][1]["playAnnotations"] == {"0": ["[?!] risky lead", "plain"]}


# ---------------------------------------------------------------------------
# Writing: read -> events -> EGN 1.4 -> schema -> read back -> same events.

def _same_start(a, b):
    keep = lambda s: {k: v for k, v in s.items() if k not in ("file", "path", "version", "match")}
    return (a.variant, a.options, a.players, a.first_dealer, a.initial_score, a.title, keep(a.source)) == \
        (b.variant, b.options, b.players, b.first_dealer, b.initial_score, b.title, keep(b.source))


@pytest.mark.parametrize("path", REAL + [os.path.join(NEG, "test_timingsLayouts.egn")],
                         ids=os.path.basename)
def test_write_round_trip(path):
    for rec in read_egn_file(path):
        notes: list = []
        doc = write_egn(rec.events, rec.annotations, rec.variations, warnings=notes)
        # written back as read: the video keys of test_timingsLayouts.egn too,
        # which the schema does not know (the reader sets them aside)
        assert validate_egn(upgrade_egn(doc)[0]) == []
        assert notes == []
        assert "finalScore" not in doc["metadata"]   # derived: only when asked
        derived = write_egn(rec.events, rec.annotations, rec.variations, with_derived=True)
        assert derived["metadata"]["finalScore"] == Game(rec.events).final_score
        (back,) = read_egn_text(json.dumps(doc), "back.egn")
        assert _same_start(back.events[0], rec.events[0])
        assert back.events[1:] == rec.events[1:]
        assert back.annotations == rec.annotations
        assert [(v["position"], v["events"], v["annotations"]) for v in back.variations] == \
            [(v["position"], v["events"], v["annotations"]) for v in rec.variations]


def test_write_loses_known_kitty_with_a_warning():
    rec = read_egn_dict(one_deal(os.path.join(NEG, "test.egn"), 1), "t.egn")[0]
    notes: list = []
    doc = write_egn(rec.events, warnings=notes)
    assert validate_egn(doc) == [] and any("kitty" in n for n in notes)
    back = read_egn_dict(doc, "back.egn")[0]
    dealt = [e for e in back.events if isinstance(e, CardsDealt)][0]
    assert dealt.kitty == ("??", "??", "??")
    assert [e for e in back.events if not isinstance(e, CardsDealt)][1:] == \
        [e for e in rec.events if not isinstance(e, CardsDealt)][1:]


def test_write_refuses_what_egn_cannot_hold():
    from euchre_events.events import GameStarted, UpCardDeclined
    with pytest.raises(ValueError):
        write_egn([GameStarted("two-handed", {}, ("A", "B"))])
    # a dealer who leaves the up-card (rules.md 2.2 toggle) has no EGN call
    rec = read_egn_file(fx("Custom Scenario.egn"))[0]
    start = rec.events[0]
    opts = dict(start.options, dealer_may_decline_upcard=True)
    evs = [GameStarted("standard", opts, start.players, start.first_dealer),
           rec.events[1], rec.events[2], Passed(1), OrderedUp(2), UpCardDeclined(0)]
    Game(evs)   # a possible record...
    with pytest.raises(ValueError, match="UpCardDeclined"):
        write_egn(evs)   # ...that EGN cannot hold


def test_write_egn_file(tmp_path):
    from euchre_events.formats.egn import write_egn_file
    rec = read_egn_file(fx("Six Points in Two Hands.egn"))[0]
    out = tmp_path / "six.egn"
    assert write_egn_file(str(out), rec.events) == []
    (back,) = read_egn_file(str(out))
    assert back.events[1:] == rec.events[1:]
    assert "finalScore" not in json.loads(out.read_text())["metadata"]   # the file states none


# ---------------------------------------------------------------------------
# Issue 26, finding 8: the work of refusing a document stays that of its size.

def _club_egn(name: str = "club-night-1") -> dict:
    (rec,) = read_records(os.path.join(HERE, "..", "fixtures", "standard", name + ".euchre"))
    return write_egn(rec.events)


def _refused_with_peak(path):
    import tracemalloc
    tracemalloc.start()
    try:
        with pytest.raises(RecordError) as e:
            read_records(str(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return e.value, peak


def test_more_deals_than_a_game_holds_are_refused_before_they_are_walked(tmp_path):
    from euchre_events.cli import app
    doc = _club_egn()
    doc["deals"] = [{}] * 5000          # 15 KB of empty deals (100,000 took 1.57 GB and 18 s)
    p = tmp_path / "empty.egn"
    p.write_text(json.dumps(doc))
    err, peak = _refused_with_peak(p)
    assert err.reason == "breaks the EGN schema: deals: 5000 deals; an EGN game holds at most 100"
    assert peak < 100 * p.stat().st_size, peak        # a few copies of the parsed file, no more
    r = RUNNER.invoke(app, ["audit", str(p)])    # the deal-by-deal audit too
    assert r.exit_code == 1 and "deals: 5000 deals; an EGN game holds at most 100" in r.output


def test_a_list_longer_than_any_of_the_schema_is_refused_first(tmp_path):
    doc = _club_egn()
    doc["deals"][0]["alternativeLines"] = [{}] * 5000
    p = tmp_path / "lines.egn"
    p.write_text(json.dumps(doc))
    err, peak = _refused_with_peak(p)
    assert err.reason == ("breaks the EGN schema: deals/0/alternativeLines: 5000 items; "
                          "no list of an EGN game holds more than 100")
    assert peak < 100 * p.stat().st_size, peak


def test_the_schema_check_stops_at_the_first_errors(tmp_path):
    from euchre_events.formats.egn.schema import MAX_SCHEMA_ERRORS, MORE_ERRORS, _schema, validate_egn
    assert _schema("egn-schema-v1.json")["properties"]["deals"]["maxItems"] == 100
    doc = _club_egn()
    doc["deals"] = [{}] * 100           # as many as a game holds, each missing its dealNumber...
    errs = validate_egn(doc)
    assert len(errs) == MAX_SCHEMA_ERRORS + 1 and errs[-1] == MORE_ERRORS   # ...not 100+ errors
    assert errs[0] == "deals/0: 'dealNumber' is a required property"
    p = tmp_path / "hundred.egn"
    p.write_text(json.dumps(doc))
    with pytest.raises(RecordError) as e:
        read_records(str(p))
    assert e.value.reason.endswith("(and more: the check stops at the first 50)")


# ---------------------------------------------------------------------------
# Issue 26, finding 14: EGN's trump-relative cards (its README, "Card
# Representation": ``t`` the trump suit, ``n`` the next suit) are read once
# trump is made.

def _trumps(rec) -> dict:
    """``{EGN deal index: trump}`` of a record as our reader reads it."""
    return {i: d.trump for i, d in enumerate(Game(rec.events).deal_reports())}


def _by_trump(doc: dict, trumps: dict) -> tuple:
    """``doc`` with every played card and discard of the trump suit written
    ``t`` and of the next suit ``n`` (``Kd`` -> ``Kt`` under diamonds), in
    place; returns how many plays and discards were rewritten."""
    same = {"C": "S", "S": "C", "D": "H", "H": "D"}
    plays = discards = 0

    def generic(card: str, trump: str) -> str:
        return card[:-1] + ("t" if card[-1].upper() == trump else "n")

    for i, deal in enumerate(doc["deals"]):
        trump = trumps[i]
        if not trump:
            continue
        bid = deal["phases"][0]
        if bid.get("discard") and bid["discard"][-1].upper() in (trump, same[trump]):
            bid["discard"] = generic(bid["discard"], trump)   # discarded once the up-card's suit is trump
            discards += 1
        for trick in deal["phases"][1]["tricks"]:
            for k, card in enumerate(trick):
                if card[-1].upper() in (trump, same[trump]):
                    trick[k] = generic(card, trump)
                    plays += 1
    return plays, discards


@pytest.mark.parametrize("name", ["VWEC Finals.egn", "club-night-2"])
def test_trump_relative_cards_read_as_the_cards_they_name(tmp_path, name):
    if name.endswith(".egn"):       # a real record
        (rec,) = read_records(fx(name))
        doc = json.loads(open(fx(name), encoding="utf-8").read())
    else:                           # our writer's EGN of a club-night fixture: it states discards
        doc = _club_egn(name)
        (rec,) = read_egn_dict(json.loads(json.dumps(doc)), "club.egn")
    plays, discards = _by_trump(doc, _trumps(rec))
    assert plays > 50 and "Jn" in json.dumps(doc) and discards == (0 if name.endswith(".egn") else 3)
    p = tmp_path / "generic.egn"
    p.write_text(json.dumps(doc))
    (back,) = read_records(str(p))
    assert back.events[1:] == rec.events[1:]          # the same game, card for card
    assert Game(back.events).final_score == Game(rec.events).final_score


@pytest.mark.parametrize("where, text, said", [
    ("upCard", "At", "upCard: 'At' names a card by trump ('t' the trump suit, 'n' the next suit), "
                     "but trump is not known when the up-card is turned"),
    ("playerCards", "Kt", "playerCards[1]: 'Kt' names a card by trump ('t' the trump suit, 'n' the "
                          "next suit), but trump is not known when the cards are dealt")])
def test_a_trump_relative_card_before_trump_is_made_is_refused_by_name(tmp_path, where, text, said):
    doc = _club_egn()
    st = doc["deals"][2]["initialState"]
    if where == "upCard":
        st["upCard"] = text
    else:
        st["playerCards"][1][0] = text
    p = tmp_path / "early.egn"
    p.write_text(json.dumps(doc))
    with pytest.raises(RecordError) as e:
        read_records(str(p))
    assert e.value.file == str(p) and e.value.deal == 3 and e.value.reason.startswith(said)


# ---------------------------------------------------------------- the unknown call 'x' (from the newcomer's findings, test_newcomer_findings)


def test_the_unknown_call_x_is_refused_in_words(tmp_path):
    """EGN's round-2 call 'x' (determinism-of-egn.md: a suit was named, which one
    is unknown): trump decides every trick, so the deal is refused by name rather
    than replayed with a guessed suit; the other deals are audited."""
    from conftest import RUNNER as runner, VWEC
    from euchre_events.cli import app
    doc = json.loads(open(VWEC, encoding="utf-8").read())
    calls = [p for p in doc["deals"][1]["phases"] if p.get("calls") is not None][0]["calls"]
    assert calls == ["Pass", "Pass", "Pass", "Pass", "c"]      # deal 2: North names clubs
    calls[-1] = "x"
    rec = tmp_path / "x.egn"
    rec.write_text(json.dumps(doc))
    res = runner.invoke(app, ["audit", str(rec)])
    assert res.exit_code == 1
    assert "deal 2: call 4 is 'x': trump was named but the record does not say which suit" in res.stderr
    assert "impossible: deal 2" in res.stdout and "1 impossible deal of 13" in res.stdout
