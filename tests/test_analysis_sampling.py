"""The seat view's sampler and averages (euchre_events.analysis.sampling).

Every imagined deal must be one the seat could not tell from the real one:
written back as a record and folded by the engine, the game it makes gives
the seat *exactly* the same knowledge (projections/seat.py knowledge) at the
position: its hand, the cards it saw, every hand size, the shown voids, the
cards it knows a seat holds or may hold.  Checked at many positions of the
fixture games of all six variants (Bid with its joker and double-deck
options) and of random games.  The sampling is uniform: the number of
consistent deals is checked against a brute-force enumeration, and the
frequencies of 2,400 draws against it.  The seat view never reads a hidden
card: re-dealing the cards the seat cannot know (another consistent deal,
written back into the game) leaves the sampler's output, and the seat
view's, unchanged for the same seed.
"""
from collections import Counter
from itertools import permutations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import FIXTURES as FIX
from euchre_events.analysis.sampling import (ImaginedDeal, _Model, consistent_deals, imagined_deals,
                                             seat_on_turn)
from euchre_events.formats import read_records
from euchre_events.projections import Game
from euchre_events.projections.seat import knowledge
from euchre_events.events import CardPlayed, CardsDealt
from euchre_events.rules import cards as C
from euchre_events.rules.engine import legal_actions
from euchre_events.rules.simulate import random_game


VARIANT_FIXTURES = ["standard/club-night-1.euchre", "two-handed/parlour-1.euchre",
                    "cutthroat/cutthroat-2.euchre", "ghost-hand/ghost-2.euchre", "buck/buck-2.euchre",
                    "bid/bid-1.euchre", "bid/bid-joker.euchre", "bid/bid-double-deck.euchre",
                    "bid/deals/partners-best-failed.euchre", "cutthroat/deals/renege-by-a-defender.euchre"]
VARIANTS = [("standard", {}), ("two-handed", {}), ("cutthroat", {}), ("ghost-hand", {}),
            ("ghost-hand", {"swap_phase": "before_auction"}), ("buck", {}), ("bid", {}),
            ("bid", {"joker": True}), ("bid", {"double_deck": True})]


def load(rel: str) -> Game:
    return Game(read_records(str(FIX / rel))[0].events)


def decisions(game: Game) -> list:
    """Positions where a seat is on turn with its deal's cards dealt."""
    out = []
    dealt = False
    for pos in range(1, len(game.events) + 1):
        kind = game.events[pos - 1].kind
        if kind == "DealStarted":
            dealt = False
        elif kind == "CardsDealt":
            dealt = True
        if not dealt:
            continue
        t = game.table_at(pos)
        if t.turn is not None and legal_actions(t)[0] and t.phase != "dealing":
            out.append(pos)
    return out


def view(k) -> dict:
    """Everything a seat knows, with which reneges of the record are real
    (``renege_position``: the record's, not the seat's) left out."""
    d = dict(k.__dict__)
    d["voids"] = tuple((v.seat, v.suit, v.trick, v.card, v.known_false) for v in k.voids)
    return d


def game_of(game: Game, position: int, deal: ImaginedDeal) -> Game:
    """The game whose deal up to ``position`` is the imagined one."""
    start = position - len(deal.events)
    assert game.events[start].kind == "DealStarted"
    return Game(list(game.events[:start]) + list(deal.events))


def check_consistent(game: Game, position: int, deal: ImaginedDeal) -> None:
    seat = deal.table.turn
    real_k = knowledge(game, position, seat)
    other = game_of(game, position, deal)
    assert view(knowledge(other, position, seat)) == view(real_k)
    t = deal.table
    real = game.table_at(position)
    # the same public shape, the same seat on turn, the same options
    assert [len(h) for h in t.hands] == [len(h) for h in real.hands]
    assert t.hands[seat] == real.hands[seat]
    assert (t.turn, t.phase, t.trump, t.maker, t.out) == (real.turn, real.phase, real.trump, real.maker, real.out)
    assert legal_actions(t)[0] == legal_actions(real)[0]
    # shown voids hold in the imagined hands (unless the seat may know them false)
    for v in real_k.voids:
        if not v.known_false:
            held = [c for c in t.hands[v.seat] if not C.is_unknown(c) and C.effective_suit(c, t.trump) == v.suit]
            if held:   # only where no deal could keep the void (a renege the seat can prove)
                assert _dropped(game, position, seat, v.seat)
    for s, cards in real_k.known_held.items():
        assert set(cards) <= set(t.hands[s])
    # every card of the deck exactly once (the record's unknown cards aside)
    where = [c for h in t.hands for c in h] + list(t.kitty) + list(t.dummy) + list(t.ghost) + list(t.dead)
    where += [c for _, c in t.discards] + [c for _, plays, _ in t.tricks for _, c in plays] + [c for _, c in t.trick]
    if t.up_card is not None and t.up_status != "picked up":
        where.append(t.up_card)
    named = [c for c in where if not C.is_unknown(c)]
    assert len(named) == len(set(named))


def _dropped(game, position, seat, who) -> bool:
    return who in _Model(game, position, seat).dropped_voids


# ------------------------------------------------------------------ consistency

@pytest.mark.parametrize("rel", VARIANT_FIXTURES)
def test_every_imagined_deal_keeps_what_the_seat_knows_fixtures(rel):
    """Every 4th decision of a fixture game of each variant, two imagined deals each."""
    game = load(rel)
    positions = decisions(game)
    assert positions
    for pos in positions[::4]:
        for deal in imagined_deals(game, pos, samples=2, seed=pos):
            check_consistent(game, pos, deal)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VARIANTS), st.integers(0, 10_000), st.integers(0, 10_000), st.integers(0, 1000))
def test_every_imagined_deal_keeps_what_the_seat_knows_random(variant, game_seed, pick, seed):
    name, options = variant
    events = random_game(name, options, seed=game_seed, deals=2)
    game = Game(events)
    positions = decisions(game)
    pos = positions[pick % len(positions)]
    for deal in imagined_deals(game, pos, samples=3, seed=seed):
        check_consistent(game, pos, deal)


def test_same_seed_same_deals_other_seed_other_deals():
    game = load("standard/club-night-1.euchre")
    a = imagined_deals(game, 10, samples=20, seed=7)
    b = imagined_deals(game, 10, samples=20, seed=7)
    c = imagined_deals(game, 10, samples=20, seed=8)
    assert [d.events for d in a] == [d.events for d in b]
    assert [d.places for d in a] == [d.places for d in b]
    assert [d.places for d in a] != [d.places for d in c]
    # 20 draws among the 3 other hands of 5 and the kitty of 3 (up-card face up): all different
    assert len({tuple(sorted(d.places.items())) for d in a}) == 20


# ------------------------------------------------------------------ counting and uniformity

def brute_force(game: Game, position: int) -> Counter:
    """Every way to put the seat's unseen cards into the hidden places
    (the sampler's places, unordered), kept when the game written from it
    gives the seat the knowledge it really has: the deals the seat cannot
    tell from the real one.  Independent of the sampler's counting."""
    seat = seat_on_turn(game, position)
    m = _Model(game, position, seat)
    real = view(knowledge(game, position, seat))
    assert all(v.renege_position is None for v in knowledge(game, position, seat).voids)
    keys, rooms = m.keys, m.rooms
    found = Counter()
    tried = set()
    for order in permutations(m.pool):
        at, got = 0, {}
        for key, room in zip(keys, rooms):
            got[key] = sorted(order[at:at + room])
            at += room
        sig = tuple(tuple(v) for v in got.values())
        if sig in tried:
            continue
        tried.add(sig)
        deal = m.imagine(got)
        mine = knowledge(game_of(game, position, deal), position, seat)
        if all(v.renege_position is None for v in mine.voids) and view(mine) == real:
            found[sig] += 1
    return found


@pytest.mark.parametrize("position, count", [
    (79, 6),     # trick 5, up-card turned down: 6 cards, one each to three hands, 3 to the kitty, voids
    (52, 48),    # trick 5, up-card turned down
    (22, 600),   # trick 5, the dealer picked the up-card up and discarded face down (it may be the up-card)
])
def test_the_count_of_consistent_deals_is_the_brute_force_count(position, count):
    game = load("standard/club-night-1.euchre")
    assert len(brute_force(game, position)) == count
    assert consistent_deals(game, position, seat_on_turn(game, position)) == count


def test_draws_are_uniform_over_the_consistent_deals():
    """2,400 draws over the 48 consistent deals of position 52: each deal's
    frequency against 50 expected, chi-square with 47 degrees of freedom
    below 82.7 (its 0.1% point); every deal drawn."""
    game = load("standard/club-night-1.euchre")
    deals = brute_force(game, 52)
    counts = Counter()
    for d in imagined_deals(game, 52, samples=2400, seed=1):
        counts[tuple(tuple(sorted(d.places.get(k, ()))) for k in _Model(game, 52, 1).keys)] += 1
    assert set(counts) == set(deals)
    chi2 = sum((n - 50) ** 2 / 50 for n in counts.values())
    assert chi2 < 82.7


def test_shown_voids_no_deal_fits_prove_a_renege():
    """fixtures/cutthroat/deals/renege-by-a-defender.euchre, trick 5 (hearts
    trump), P2 to play on P1's AD holding 9D: P3 showed no heart at trick 2
    and no spade at trick 3 (P3 reneged, holding AS), but the four cards P2
    has not seen are AS JS QS (spades) and KH (trump): P3's last card must
    break a shown void.  P2 then drops P3's voids: P3 holds any one of the
    four, the kitty the other three (4 deals)."""
    game = load("cutthroat/deals/renege-by-a-defender.euchre")
    m = _Model(game, 26, 1)
    assert m.dropped_voids == (2,)
    assert m.count() == 4
    held = {d.places[("hand", 2)] for d in imagined_deals(game, 26, samples=40, seed=3)}
    assert held == {("AS",), ("JS",), ("KH",), ("QS",)}


# ------------------------------------------------------------------ the hidden cards are never read

def redealt(game: Game, position: int, seed: int) -> Game:
    """The game with the cards the seat on turn cannot know dealt another
    consistent way (its record up to ``position``)."""
    deal = imagined_deals(game, position, samples=1, seed=seed)[0]
    return game_of(game, position, deal)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VARIANTS), st.integers(0, 10_000), st.integers(0, 10_000), st.integers(0, 1000))
def test_the_sampler_never_reads_a_hidden_card(variant, game_seed, pick, seed):
    name, options = variant
    game = Game(random_game(name, options, seed=game_seed, deals=2))
    positions = decisions(game)
    pos = positions[pick % len(positions)]
    other = redealt(game, pos, seed + 1)
    a = imagined_deals(game, pos, samples=4, seed=seed)
    b = imagined_deals(other, pos, samples=4, seed=seed)
    assert [d.places for d in a] == [d.places for d in b]
    assert [d.table.hands for d in a] == [d.table.hands for d in b]
    assert [d.events for d in a] == [d.events for d in b]


# ------------------------------------------------------------------ the seat view

solver = pytest.importorskip("euchre_events.analysis.solver")
from euchre_events.analysis.sampling import seat_view  # noqa: E402


def test_seat_view_of_a_hand_worked_last_two_tricks():
    """fixtures/standard/club-night-2.euchre, deal 3, trick 4, position 71:
    spades trump, North (dealer, picked up 9S) made it; N/S have taken 2
    tricks, E/W 1.  North led QH, East trumped with the left bower JC, South
    played AH; West (seat 3) holds 9C and AS, and East's JC takes the trick
    whatever West plays (E/W then have 2 tricks).

    * 9C (keep AS): AS is the highest trump left (JS KS QS 9S JC played, TS
      at most out), so West takes trick 5 and E/W euchre the makers: +2 for
      E/W in every deal.  Exact mean 2.
    * AS (keep 9C): East leads its last card to trick 5.  West has seen
      everything but 9H AC QC QD TC TH TS (the 7-card pool: one card each to
      N, E, S, one to North's face-down discard, 3 to the kitty).  East
      showed no heart (trick 4), North no diamond (trick 2), South no
      diamond and no spade (tricks 1-3): 372 consistent deals.  By East's
      card: TS wins (80 deals of 80); AC wins unless North holds TS (48 of
      64); QC wins unless North holds TS or North/South hold AC (24 of 64);
      TC wins only when North and South hold 9H and TH (8 of 64); QD wins
      unless North trumps with TS (80 of 100).  E/W take 3 tricks (+2) in 240
      deals, the makers 3 (+1 to them, -1 from West's side) in 132:
      (240 x 2 - 132) / 372 = 348/372 = 0.9355.

    The exact values come from solving every consistent deal (brute force);
    200 samples land within 3 standard errors of them."""
    game = load("standard/club-night-2.euchre")
    pos = 71
    assert seat_on_turn(game, pos) == 3
    deals = brute_force(game, pos)
    assert len(deals) == 372
    m = _Model(game, pos, 3)
    exact = {}
    for sig in deals:
        got = {k: list(cards) for k, cards in zip(m.keys, sig)}
        t = m.imagine(got).table
        for ev, points in solver.action_values(t):
            exact.setdefault(ev.card, []).append(solver.value_for(t.variant, points, solver.party_of(t, 3)))
    assert {c: sum(v) / len(v) for c, v in exact.items()} == {"9C": 2.0, "AS": 348 / 372}
    sv = seat_view(game, pos, samples=200, seed=0)
    by = {o.action.card: o for o in sv.options}
    assert [o.action.card for o in sv.options] == ["9C", "AS"]
    assert by["9C"].mean == 2.0 and by["9C"].se == 0.0 and by["9C"].best_share == 1.0
    assert abs(by["AS"].mean - 348 / 372) < 3 * by["AS"].se
    assert abs(by["AS"].best_share - 240 / 372) < 0.1     # AS is as good as 9C when E/W take trick 5
    assert (sv.seat, sv.samples, sv.seed, sv.pass_value, sv.position) == (3, 200, 0, "zero", 71)


def test_seat_view_is_reproducible():
    game = load("standard/club-night-3.euchre")
    a = seat_view(game, 111, samples=30, seed=5)
    assert a == seat_view(game, 111, samples=30, seed=5)
    assert a != seat_view(game, 111, samples=30, seed=6)


def test_an_auction_pass_is_worth_zero_unless_played_out():
    """fixtures/two-handed/parlour-1.euchre, deal 1, round 2, P1 (seat 0)
    on turn after the up-card (QH) was turned down: the pass is 0 with
    ``pass_value="zero"``; asked (``played_out=True``), its solved value (P2,
    the dealer, then names or passes face up) is kept beside it and is what
    ``"play-out"`` reports.
    Same seed, same imagined deals: the other options are the same."""
    game = load("two-handed/parlour-1.euchre")
    pos = 5
    t = game.table_at(pos)
    assert (t.phase, t.turn) == ("round2", 0)
    zero = seat_view(game, pos, samples=2, seed=0, played_out=True)
    out = seat_view(game, pos, samples=2, seed=0, pass_value="play-out")
    # by default the pass is not solved at all: the same values, no played-out figure
    plain = seat_view(game, pos, samples=2, seed=0)
    assert [(o.action, o.mean, o.se, o.best_share) for o in plain.options] == \
        [(o.action, o.mean, o.se, o.best_share) for o in zero.options]
    assert all(o.played_out_mean is None for o in plain.options)
    assert [o.action for o in zero.options] == [o.action for o in out.options]
    for z, o in zip(zero.options, out.options):
        if z.action.kind == "Passed":
            assert (z.mean, z.se) == (0.0, 0.0)
            assert (z.played_out_mean, z.played_out_se) == (o.mean, o.se)
        else:
            assert (z.mean, z.se, z.played_out_mean) == (o.mean, o.se, None)
    best = max(o.mean for o in zero.options)
    assert [o.best_share == 1.0 for o in zero.options] == [o.mean == best and o.se == 0 for o in zero.options]


def test_own_unknown_card_is_unknowable_and_others_unknown_cards_are_sampled():
    """fixtures/two-handed/parlour-1.euchre, deal 1 (clubs trump), trick 4:
    the record states no kitty (13 ``??``): never an obstacle.  P2 (seat 1)
    led AS and holds 9D; P1 (seat 0) is on turn.  With P2's 9D written ``??``
    in the record, P1's seat view is the same (P1 never saw it either way).
    At the position before, P2 on turn with its own ``??`` cannot be valued
    (the solver's Unknowable, naming the seat)."""
    game = load("two-handed/parlour-1.euchre")
    assert game.events[13] == CardPlayed(1, "AS")
    sv = seat_view(game, 14, samples=20, seed=0)
    assert [o.action.card for o in sv.options] == ["KD", "TH"]
    events = list(game.events[:14])
    dealt = events[2]
    events[2] = CardsDealt((dealt.hands[0], tuple("??" if c == "9D" else c for c in dealt.hands[1])),
                           dealt.up_card, dealt.kitty)
    assert seat_view(Game(events), 14, samples=20, seed=0) == sv
    with pytest.raises(solver.Unknowable, match="P2.s own hand holds 1 card"):
        seat_view(Game(events[:13]), 13, samples=5, seed=0)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VARIANTS), st.integers(0, 10_000), st.integers(0, 10_000), st.integers(0, 1000))
def test_the_seat_view_never_reads_a_hidden_card(variant, game_seed, pick, seed):
    """Re-dealing the cards the seat on turn cannot know (consistently with
    its knowledge) leaves its seat view unchanged for the same seed: the
    plays of a one-deal random game of each variant with at most four cards
    a hand (Bid's play is solved by the reference search, and a decision
    before the play solves the rest of every imagined auction: too slow for
    many examples; calls of two variants below)."""
    name, options = variant
    game = Game(random_game(name, options, seed=game_seed, deals=1))
    positions = [p for p in decisions(game) if game.table_at(p).phase == "play"
                 and max(map(len, game.table_at(p).hands)) <= 4]
    if not positions:    # thrown in
        return
    pos = positions[pick % len(positions)]
    other = redealt(game, pos, seed + 1)
    assert seat_view(game, pos, samples=3, seed=seed) == seat_view(other, pos, samples=3, seed=seed)


@pytest.mark.parametrize("rel, pos", [("standard/club-night-1.euchre", 3), ("two-handed/parlour-1.euchre", 5)])
def test_the_seat_view_of_a_call_never_reads_a_hidden_card(rel, pos):
    """An auction decision: the seat view of the record and of the record
    with the unseen cards dealt another consistent way are equal."""
    game = load(rel)
    assert game.table_at(pos).maker is None
    assert seat_view(game, pos, samples=2, seed=4) == seat_view(redealt(game, pos, 9), pos, samples=2, seed=4)


def test_dealer_s_lost_discard_is_read_every_way():
    """VWEC Finals (the real EGN record), deal 1: South deals, orders the
    up-card (K♣) up and discards, and EGN keeps no discard: South's dealt hand
    holds ``??``.  From South's own seat the card is known, so its decisions
    before the discard are valued once for each card it can be (the four cards
    the record states nowhere in the deal: Q♣ 10♦ 10♥ 10♠), and a value that
    depends on the reading is a range (docs/analysis.md "Cards the record does
    not know"), as the face-up values are."""
    from conftest import SHARED_RECORDS
    from euchre_events.analysis import solver
    from euchre_events.analysis.review import analyze
    from euchre_events.analysis.sampling import own_readings, seat_view_readings
    path = SHARED_RECORDS / "VWEC Finals.egn"
    g = read_records(str(path))[0].game
    t = g.table_at(6)
    assert t.turn == 2 and t.dealer == 2 and t.up_card == "KC" and "??" in t.hands[2]
    with pytest.raises(solver.Unknowable):
        seat_view(g, 6, samples=5)
    readings = own_readings(g, 6, 2)
    stated = {c for h in t.hands for c in h} | {t.up_card}
    assert sorted(b for _, back in readings for b in back) == ["QC", "TD", "TH", "TS"]
    assert sorted(set(t.variant.deck()) - stated) == ["QC", "TD", "TH", "TS"]
    for rg, back in readings:
        (card,) = back
        assert card in rg.table_at(6).hands[2] and "??" not in rg.table_at(6).hands[2]
        # the reading's discard names the card: the deal goes on as recorded
        assert rg.table_at(9).discards == [(2, card)]
    views = seat_view_readings(g, 6, samples=20, seed=0)
    order = [[o for o in v.options if o.action.kind == "OrderedUp" and not o.action.alone][0].mean
             for _, v in views]
    a = analyze(g, deals=[1], samples=20, seed=0)
    d = next(x for x in a.deals[0].decisions if x.position == 6)
    assert d.played_text == "order" and d.why is None
    opt = {o.text: o for o in d.options}
    assert opt["order"].seat_view == (min(order), max(order)) and min(order) < max(order)
    assert opt["pass"].seat_view == 0.0            # a pass counts 0 in every reading
    # the discard itself (position 8): the lost card is one option, written as the record writes it
    disc = next(x for x in a.deals[0].decisions if x.position == 8)
    assert disc.played_text == "discard ??" and "discard ??" in [o.text for o in disc.options]
    assert all(o.seat_view is not None for o in disc.options) and disc.seat_view_cost is not None
    js = a.to_json()["deals"][0]["decisions"]
    assert next(x for x in js if x["position"] == 6)["options"][1]["seat_view"] == [round(min(order), 3),
                                                                                   round(max(order), 3)]
