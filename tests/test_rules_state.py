"""The rules' typed state and tables (first filed as tests/test_typed_rules.py,
issue "One rule in one place"): phase and up-card enums with the old strings,
each variant's frozen auction and contract state read at real points of fixture
deals, fixed-rule options of stored games, the one trick-ranking table
(rules.md 1.1-1.3, 7.8, 7.10)."""
import dataclasses
from enum import StrEnum

import pytest
from conftest import FIXTURES

from euchre_events.archive import content_id
from euchre_events.events import GameStarted
from euchre_events.formats import read_records
from euchre_events.projections import Game
from euchre_events.projections.game import snapshot
from euchre_events.rules import cards as C
from euchre_events.rules.registry import complete_start, make_variant
from euchre_events.rules.table import Phase, UpCardStatus, evolve
from euchre_events.rules.variants.bid import BidContract, BidPhase
from euchre_events.rules.variants.bidding import AuctionPhase, BidAuctionState
from euchre_events.rules.variants.buck import BuckContract, BuckPhase
from euchre_events.rules.variants.cutthroat import CutthroatContract, CutthroatOptions, CutthroatPhase
from euchre_events.rules.variants.ghost_hand import GhostContract, GhostPhase
from euchre_events.rules.variants.standard import StandardPhase
from euchre_events.rules.variants.two_handed import TwoHandedEuchre, TwoHandedOptions
from euchre_events.rules.variants.upcard import UpCardAuctionState, UpCardPhase, UpCardRules

FIX = FIXTURES


def game(rel: str) -> Game:
    return Game(read_records(str(FIX / rel))[0].events)


# ------------------------------------------------------------------ enums

OLD_PHASES = {
    Phase: ("start", "deal", "dealing", "play", "deal_over", "game_over", "thrown_in"),
    UpCardPhase: ("round1", "pickup", "discard", "round2", "defend"),
    StandardPhase: ("alone",),
    CutthroatPhase: ("dummy", "dummy_discard"),
    BuckPhase: ("drop",),
    AuctionPhase: ("auction", "trump"),
    GhostPhase: ("swap",),
    BidPhase: ("joker_discard", "pb_exchange", "joker_suit"),
}


@pytest.mark.parametrize("enum", list(OLD_PHASES), ids=lambda e: e.__name__)
def test_phase_enums_keep_the_old_strings(enum):
    assert issubclass(enum, StrEnum)
    assert tuple(m.value for m in enum) == OLD_PHASES[enum]
    for m in enum:
        assert m == m.value and isinstance(m, str) and f"{m}" == m.value and hash(m) == hash(m.value)


def test_up_card_status_keeps_the_old_strings():
    assert [s.value for s in UpCardStatus] == ["", "face up", "turned down", "face down (dealer sits out)",
                                               "picked up", "left"]


def test_every_phase_a_fixture_reaches_is_an_enum_member():
    """Readers outside rules/ compare with strings; inside, the members are used."""
    members = {m for e in OLD_PHASES for m in e}
    seen = set()
    for path in sorted(FIX.glob("**/*.euchre")):
        g = Game(read_records(str(path))[0].events)
        for k in range(len(g) + 1):
            st = g.state_at(k)
            assert type(st.phase) in OLD_PHASES and st.phase in members
            assert isinstance(st.up_card_status, UpCardStatus)
            seen.add(st.phase.value)
    assert {"round1", "round2", "pickup", "discard", "defend", "dummy", "dummy_discard", "drop", "auction",
            "trump", "joker_discard", "pb_exchange", "play", "thrown_in", "deal_over", "game_over"} <= seen


# ------------------------------------------------------------------ typed auction and contract state

def test_two_handed_round_two_state():
    """parlour-2 deal 1 (rules.md 3.2): P1 pass, P2 pass (round 1 over, the 9D
    turned down), P1 pass, P2 names hearts in round 2."""
    g = game("two-handed/parlour-2.euchre")
    t = g.table_at(5)                      # GameStarted, DealStarted, CardsDealt, two passes
    assert t.auction == UpCardAuctionState(passes=2)
    assert t.phase == UpCardPhase.ROUND2 and t.up_status == UpCardStatus.TURNED_DOWN == "turned down"
    t = g.table_at(7)                      # P1 pass, P2 name H
    assert t.auction == UpCardAuctionState(passes=3, called_in_round=2)
    assert (t.maker, t.trump, t.phase, t.contract) == (1, "H", Phase.PLAY, None)
    assert snapshot(t).extra == {"first_dealer": 1, "passes": 3, "called_in_round": 2}


def test_cutthroat_dummy_and_defend_state():
    """cutthroat-2 deal 1 (rules.md 4.2-4.4): P2 orders up the QC, P1 (dealer)
    picks up and discards TS, P2 takes the dummy and discards 5, then P3 and
    P1 are asked whether to defend alone (clockwise from the maker's left)."""
    g = game("cutthroat/cutthroat-2.euchre")
    t = g.table_at(4)
    assert t.auction == UpCardAuctionState(passes=0, called_in_round=1)
    assert (t.maker, t.trump, t.phase) == (1, "C", UpCardPhase.PICKUP)
    t = g.table_at(6)
    assert (t.phase, t.turn, t.up_status) == (CutthroatPhase.DUMMY, 1, "picked up")
    assert t.contract == CutthroatContract()
    t = g.table_at(7)
    assert t.contract == CutthroatContract(dummy_discards=5, dummy_taken=True)
    assert len(t.hands[1]) == 10
    assert g.table_at(9).contract.dummy_discards == 3
    t = g.table_at(12)
    assert t.phase == UpCardPhase.DEFEND and t.turn == 2 and t.auction.defenders_left == (0,)
    t = g.table_at(13)
    assert t.turn == 0 and t.auction.defenders_left == ()
    assert snapshot(t).extra == {"first_dealer": 0, "passes": 0, "called_in_round": 1,
                                 "defenders_left": (), "dummy_discards": 0, "dummy_taken": True}
    assert g.table_at(14).phase == Phase.PLAY


def test_buck_drop_state():
    """drop-order-from-the-makers-left (rules.md 6.2, dropOrder=maker_left):
    P2 orders up the 9H; P3, P4, P1 are asked in that order; P3 drops."""
    g = game("buck/deals/drop-order-from-the-makers-left.euchre")
    t = g.table_at(7)                      # ... P4 pickup, P4 discard JC
    assert (t.phase, t.turn, t.maker) == (BuckPhase.DROP, 2, 1)
    assert t.contract == BuckContract(to_ask=(3, 0), asked=())
    t = g.table_at(8)                      # P3 drop
    assert t.contract == BuckContract(to_ask=(0,), asked=(2,)) and t.out == {2}
    t = g.table_at(10)                     # P4 stay, P1 stay
    assert t.contract == BuckContract(to_ask=(), asked=(2, 3, 0)) and t.phase == Phase.PLAY
    assert t.auction == UpCardAuctionState(passes=1, called_in_round=1)


def test_buck_tie_is_typed_and_in_extra():
    """equal-scores-at-zero-tie (rules.md 6.4): P1 and P2 both reach 0: a tie."""
    g = game("buck/deals/equal-scores-at-zero-tie.euchre")
    assert g.final.contract.tied == (0, 1) and g.winner is None and g.final.phase == Phase.GAME_OVER
    assert g.state_at(len(g)).extra["tied"] == (0, 1)


def test_bid_partners_best_state():
    """partners-best-made-with-a-renege (rules.md 7.2, 7.3): N bids partner's
    best, three passes, N names hearts, N gives 9S to S, S gives QH to N."""
    g = game("bid/deals/partners-best-made-with-a-renege.euchre")
    t = g.table_at(4)
    assert t.auction == BidAuctionState(high="pb", high_seat=0, bids=((0, "pb"),), turns=1, passes_in_row=0)
    assert t.contract == BidContract()
    t = g.table_at(7)
    assert t.auction == BidAuctionState("pb", 0, ((0, "pb"), (1, "pass"), (2, "pass"), (3, "pass")), 4, 3)
    assert (t.phase, t.maker, t.contract.bid) == (AuctionPhase.TRUMP, 0, "pb")
    t = g.table_at(8)
    assert t.phase == BidPhase.PB_EXCHANGE and t.contract.pb_owed == ((2, 1), (0, 1))
    assert t.contract.pb_cards == ()
    t = g.table_at(9)
    assert t.contract.pb_owed == ((2, 1), (0, 0)) and t.contract.pb_cards == ((0, 2, "9S"),)
    t = g.table_at(10)
    assert t.phase == Phase.PLAY and t.alone == 0 and t.out == {2} and "QH" in t.hands[0]
    end = g.final
    assert end.contract.made is True and end.deal_results[-1][1] == (12, 0)
    extra = g.state_at(len(g)).extra
    assert extra["contract"] == "pb" and extra["made"] is True and extra["pb_cards"][1] == (2, 0, "QH")


def test_ghost_swap_state():
    """ghost-swap-blind-then-bid (rules.md 5.2): P1 takes the ghost hand blind,
    then bids 3; P2 and P3 pass; P1 names diamonds."""
    g = game("ghost-hand/deals/ghost-swap-blind-then-bid.euchre")
    t = g.table_at(3)
    assert t.contract == GhostContract(swapped=None) and t.phase == AuctionPhase.AUCTION
    t = g.table_at(4)
    assert t.contract == GhostContract(swapped=0, dead=("JH", "JD", "AH", "KH", "9S", "9C"),
                                       swap_pending=True)
    assert t.hands[0] == ["9H", "AD", "KD", "QD", "TD", "9D"]
    t = g.table_at(5)
    assert t.contract.swap_pending is False and t.auction.high == 3 and t.auction.high_seat == 0
    t = g.table_at(8)
    assert (t.trump, t.maker, t.contract.bid, t.phase) == ("D", 0, 3, Phase.PLAY)
    assert g.final.contract.made is True


def test_engine_state_and_read_only_views():
    g = game("two-handed/parlour-2.euchre")
    t = g.table_at(3)
    assert t.first_dealer == 1 and t.out_of_turn is False
    assert t.extra() == dict(t.x) == {"first_dealer": 1, "passes": 0}
    with pytest.raises(TypeError):
        t.x["passes"] = 5                  # the old dict is a read-only view now
    t.extra()["passes"] = 5                # a copy: the table is unchanged
    assert t.auction.passes == 0
    c = t.copy()                           # checkpoints share the frozen states
    assert c.auction is t.auction and c.contract is t.contract


def test_evolve_is_dataclasses_replace():
    states = [UpCardAuctionState(3, 1, False, (0,)), CutthroatContract(dummy_discards=2, dummy_taken=True),
              BuckContract(to_ask=(1,), asked=(2,)), BidAuctionState(4, 1, ((1, 4),), 1, 0),
              BidContract(bid="moon", pb_cards=()), GhostContract(swapped=2, swap_turns=1)]
    for s in states:
        for f in dataclasses.fields(s):
            new = evolve(s, **{f.name: ("x",)})
            assert new == dataclasses.replace(s, **{f.name: ("x",)}) and type(new) is type(s)
            assert getattr(new, f.name) == ("x",) and s != new
        with pytest.raises(TypeError, match="no field"):
            evolve(s, not_a_field=1)
        with pytest.raises(dataclasses.FrozenInstanceError):
            evolve(s).passes = 1


# ------------------------------------------------------------------ fixed rules, stored options

STORED_TWO_HANDED = {"stick_the_dealer": True, "stick_allows_turned_down": False, "target_score": 10,
                     "dealer_may_decline_upcard": True, "dealer_may_discard_upcard": True,
                     "deal_pattern": "2-3", "renege_penalty": "tournament", "renege_value": 2}
STORED_CUTTHROAT = {"use_dummy": True, "stick_the_dealer": False, "stick_allows_turned_down": False,
                    "dealer_may_decline_upcard": True, "dealer_may_discard_upcard": True,
                    "lone_no_dummy_march": 3, "defend_alone": "any", "lone_defender_scoring": "source",
                    "target_score": 10, "shared_win": False, "renege_penalty": "tournament",
                    "renege_value": 2, "renege_lone_value": 4}
"""The options as release 0.1.0 stored them (tests/data/archive-0.1.0.sqlite)."""


@pytest.mark.parametrize("name,stored", [("two-handed", STORED_TWO_HANDED), ("cutthroat", STORED_CUTTHROAT)])
def test_stored_options_with_a_fixed_rule_still_read(name, stored):
    v = make_variant(name, stored)
    assert v.options.to_dict() == stored              # same stored form, so the same content id
    start = GameStarted(name, dict(stored), tuple(f"P{i}" for i in range(v.n_seats)),
                        initial_score=tuple(v.initial_scores()))
    assert complete_start(start) is start
    assert v.upcard_rules.stick_allows_turned_down is False and v.upcard_rules.alone_timing == "none"
    with pytest.raises(ValueError, match="stick_allows_turned_down=True: the rules of .* fix it at False"):
        make_variant(name, dict(stored, stick_allows_turned_down=True))


def test_fixed_rules_are_the_variants_not_options():
    """rules.md 3.2-3.3: round 2 names any other suit; no going alone."""
    assert not hasattr(TwoHandedOptions(), "alone_timing")
    with pytest.raises(ValueError, match="unknown option"):
        make_variant("two-handed", {"alone_timing": "none"})
    with pytest.raises(ValueError):
        CutthroatOptions(stick_allows_turned_down=True)
    r = TwoHandedEuchre({"stick_the_dealer": True}).upcard_rules
    assert r == UpCardRules(stick_the_dealer=True, stick_allows_turned_down=False, alone_timing="none",
                            dealer_may_decline_upcard=True, dealer_may_discard_upcard=True,
                            dealers_partner_must_go_alone=False, must_hold_named_suit=False,
                            exchange_when_dealer_out=False)
    s = make_variant("standard", {"stick_the_dealer": True, "stick_allows_turned_down": True}).upcard_rules
    assert s.stick_allows_turned_down and s.alone_timing == "with_call"
    buck = make_variant("buck").upcard_rules
    assert not buck.stick_the_dealer and not buck.dealer_may_decline_upcard     # 6.1


def test_fixture_ids_are_unchanged_by_the_fixed_rule_field():
    rec = read_records(str(FIX / "two-handed" / "parlour-2.euchre"))[0]
    # the id the 0.1.0 archive stored for this game (test_archive_compat reads it there)
    assert str(content_id(rec.events, rec.annotations, rec.variations)) == "66486ff8-eb17-5519-a87f-e75951c3ad55"


# ------------------------------------------------------------------ the one trick-ranking table

def test_left_bower_beats_the_ace_of_trump():
    """rules.md 1.1: trumps rank right bower, left bower, A, K, ...; 1.2: the
    left bower (JH under diamonds) is a diamond."""
    cards = ["AD", "JH", "KD", "AS"]
    r = C.rank_trick(cards, "D")
    assert r.winner == 1 == C.trick_winner_index(cards, "D")
    assert r.led_suit == "D" and r.roles == (C.TrickRole.TRUMP,) * 3 + (C.TrickRole.CANNOT_WIN,)
    assert r.keys[1] > r.keys[0] > r.keys[2] and r.keys[3] == C.CANNOT_WIN
    assert r.ranked() == (1, 0, 2)
    assert C.trick_keys("D", "D")["JH"] == C.TRUMP_KEY + 106 and C.trick_keys("D", "D")["JD"] == C.TRUMP_KEY + 107


def test_a_trump_beats_the_led_suit_and_off_suits_cannot_win():
    """rules.md 1.3: the highest trump wins; else the highest of the led suit."""
    r = C.rank_trick(["AH", "9H", "KH", "9S"], "S")
    assert r.winner == 3 and r.roles == (C.TrickRole.LED,) * 3 + (C.TrickRole.TRUMP,)
    r = C.rank_trick(["KH", "AC", "QH"], "S")
    assert r.winner == 0 and r.roles[1] == C.TrickRole.CANNOT_WIN


def test_joker_at_no_trump_beats_every_card():
    """rules.md 7.8: at no-trump the joker is the only trump; led, its leader
    names the suit (here hearts)."""
    r = C.rank_trick(["AH", "JK", "KH"], None)
    assert r.winner == 1 and r.roles[1] == C.TrickRole.TOP and r.keys[1] == C.TOP_KEY
    r = C.rank_trick(["JK", "AH", "9H"], None, led_suit="H")
    assert r.winner == 0 and r.roles == (C.TrickRole.TOP, C.TrickRole.LED, C.TrickRole.LED)
    # with a trump suit the joker is the highest trump, not above the trump order (7.8)
    assert C.trick_keys("S", "H")["JK"] == C.TRUMP_KEY + 108


def test_low_no_trump_reverses_the_led_suit():
    """rules.md 1.1: low no-trump ranks 9 high, A low."""
    assert C.rank_trick(["AS", "9S", "TS"], None, low=True).winner == 1


def test_double_deck_twins_first_played_wins():
    """rules.md 1.3, 7.10 (case C11, fixtures/bid/deals/c11-...): N's JS#1
    beats E's JS#2 under spades; with first_twin_wins=False the later one."""
    trick = ["JS#1", "JS#2", "AS#1", "JC#1"]
    r = C.rank_trick(trick, "S")
    assert r.winner == 0 and r.twins == (1,) and r.keys[0] == r.keys[1]
    assert r.ranked() == (0, 1, 3, 2)
    r = C.rank_trick(trick, "S", first_twin_wins=False)
    assert r.winner == 1 and r.twins == (0,) and r.ranked()[:2] == (1, 0)
    g = game("bid/deals/c11-double-deck-first-twin-wins.euchre")
    assert [w for _, _, w in g.final.tricks][:3] == [0, 3, 0]


def test_fast_and_slow_path_rank_tricks_alike():
    """fold()'s fast path and apply() event by event give the same tricks."""
    from euchre_events.rules.engine import apply, fold, new_table
    for path in sorted(FIX.glob("**/*.euchre")):
        events = read_records(str(path))[0].events
        slow = new_table()
        for ev in events:
            apply(slow, ev)
        fast = fold(new_table(), events)
        assert fast.tricks == slow.tricks and fast.scores == slow.scores, path.name
        twins = getattr(slow.options, "first_twin_wins", True)
        for _, plays, w in slow.tricks:            # the last deal's tricks, under its trump
            cards = [c for _, c in plays]
            if C.UNKNOWN not in cards and "JK" not in cards:
                r = C.rank_trick(cards, slow.trump, low=slow.low, first_twin_wins=twins)
                assert plays[r.winner][0] == w, path.name
