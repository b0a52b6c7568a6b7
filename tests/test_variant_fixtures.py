"""Fixtures of every variant: complete games and hand-checked single deals.

* **Complete games** (``fixtures/<variant>/*.euchre``, written by
  ``fixtures/make_variant_fixtures.py`` and ``fixtures/standard/make_fixtures.py``):
  each parses, replays and runs to the end of the game.  Every trick, every
  deal's points, the final score, the winner (or tie) and every renege are
  recomputed here by :func:`referee`, a small counter written from rules.md
  that shares no code with the engine; the engine and the audit must agree
  with it, and the deliberate renege of each variant's ``[Renege]`` tag must
  be found at the deal, trick, seat and card it names, with its evidence.
* **Single deals** (``fixtures/<variant>/deals/*.euchre``): one deal per file,
  each pinning one rule of rules.md (``[Rule "..."]``), with values worked out
  by hand in these tags (all optional but at least one):

  ==========================  ==================================================
  ``ExpectedDealPoints``      points of the deal per side, ``"0, 2"`` (as played)
  ``ExpectedScore``           score per side after the deal (with ``InitialScore``)
  ``ExpectedWinner``          ``N/S``, ``E/W`` or a seat; ``none`` (game goes on);
                              ``tie P1 P2``
  ``ExpectedLeader``          seat that leads trick 1
  ``ExpectedTricks``          the winner of each trick, in order
  ``ExpectedTrump``           ``C D H S`` or ``NT``
  ``ExpectedMaker``           seat, or ``none``
  ``ExpectedSittingOut``      seats that sit out, or ``none``
  ``ExpectedLegal``           ``;``-separated checks: ``T<k> <seat>: <cards>``
                              (the seat's legal cards in trick k) or
                              ``move <m> <seat>: <action>, <action>`` (the
                              seat's legal actions before the m-th move after
                              the dealt cards, written as in the notation)
  ``ExpectedRenege``          ``T<k> <seat> <card> holding <cards>``
  ``ExpectedProven``          ``T<k>``: the trick where the evidence showed
  ``ExpectedPenalty``         the renege's points per side under the game's rule
  ``ExpectedNextDealer``      dealer of the next deal
  ==========================  ==================================================

  Sides are listed in seat order: per team (N/S, E/W) in standard and bid,
  per player in the others.  The referee checks the deal points, tricks,
  leader and reneges of these files too.
* The ``euchre-events`` command imports and audits a game of every variant,
  and the commands of README's "Variants" section work.
"""
from __future__ import annotations

import glob
import json
import os
import re

import pytest

from conftest import ROOT, RUNNER as runner
from euchre_events.cli import app
from euchre_events.rules.engine import legal_actions
from euchre_events.events import DealStarted
from euchre_events.formats import validate_events
from euchre_events.formats.text import read_text_file, write_text

FIX = os.path.join(ROOT, "fixtures")
VARIANTS = ("standard", "two-handed", "cutthroat", "ghost-hand", "buck", "bid")
GAMES = {v: sorted(glob.glob(os.path.join(FIX, v, "*.euchre"))) for v in VARIANTS}
DEALS = sorted(glob.glob(os.path.join(FIX, "*", "deals", "*.euchre")))


def rel(path):
    return os.path.relpath(path, FIX)


_RECORDS: dict = {}


def record(path):
    """The one game of ``path``, read once per test session."""
    if path not in _RECORDS:
        (rec,) = read_text_file(path)
        _RECORDS[path] = rec
    return _RECORDS[path]


# ====================================================================== the referee
# rules.md 1.1: with a trump suit, trumps rank joker, right bower, left bower,
# A K Q 10 9; plain suits A K Q J 10 9 (9 high at low no-trump).  1.2: the left
# bower and the joker belong to trump.  1.3: must follow the effective suit
# led; highest trump wins, else highest of the led suit; of identical cards
# (double deck) the first played wins.

SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}
N_SEATS = {"standard": 4, "two-handed": 2, "cutthroat": 3, "ghost-hand": 3, "buck": 4, "bid": 4}
PARTNERSHIPS = ("standard", "bid")

# Options the referee understands (the others would change what it counts).
KNOWN_OPTIONS = {
    "standard": {"stick_the_dealer", "stick_allows_turned_down", "target_score", "loner_lead",
                 "lone_euchred_value", "defend_alone", "lone_defender_value", "super_euchre",
                 "dealer_may_discard_upcard", "dealer_may_decline_upcard", "alone_timing",
                 "exchange_when_dealer_out", "dealers_partner_must_go_alone",
                 "must_hold_named_suit", "thrown_in_next_dealer", "renege_penalty",
                 "renege_symmetric"},
    "two-handed": {"stick_the_dealer", "stick_allows_turned_down", "target_score",
                   "dealer_may_decline_upcard", "dealer_may_discard_upcard", "deal_pattern",
                   "renege_penalty", "renege_value"},
    "cutthroat": {"use_dummy", "stick_the_dealer", "stick_allows_turned_down",
                  "dealer_may_decline_upcard", "dealer_may_discard_upcard", "lone_no_dummy_march",
                  "defend_alone", "lone_defender_scoring", "target_score", "shared_win",
                  "renege_penalty", "renege_value", "renege_lone_value"},
    "ghost-hand": {"swap_phase", "allow_no_trump", "auction_rounds", "stick_the_dealer",
                   "renege_abandons_hand", "renege_points", "target_score", "moon_value",
                   "failed_moon_penalty"},
    "buck": {"start_score", "drop_order", "no_trump_callable", "club_upcard_dealer_exchange",
             "walkover_counts_as_five", "last_may_not_drop", "no_drop_at_or_below",
             "renege_value", "tie_resolution", "dealer_may_discard_upcard"},
    "bid": {"stick_the_dealer", "ace_no_face", "ace_no_face_definition", "ace_no_face_same_dealer",
            "joker", "dealer_may_discard_joker", "nt_joker_any_time", "double_deck",
            "deck_low_rank", "pb_cards_exchanged", "pb_value", "moon_value", "failed_pb_penalty",
            "failed_moon_penalty", "allow_no_trump", "low_no_trump", "pb_no_trump_rule",
            "pb_partner_chooses", "auction_rounds", "renege_abandons_hand", "renege_points",
            "target_score"},
}


def plain(card):
    return card.split("#")[0]


def suit_of(card, trump):
    c = plain(card)
    if c == "JK":
        return trump                 # a trump; at no-trump a suit of its own (None)
    if trump and c[0] == "J" and c[1] == SAME_COLOUR[trump]:
        return trump
    return c[1]


def power(card, trump, low):
    c = plain(card)
    if trump is not None and suit_of(card, trump) == trump:
        if c == "JK":
            return 30
        if c == "J" + trump:
            return 29
        if c[0] == "J":
            return 28
        return 20 + "9TQKA".index(c[0])
    return ("AKQJT9" if low else "9TJQKA").index(c[0])


def trick_winner(plays, trump, led, low):
    """Seat that wins ``plays`` (``[(seat, card)]`` in order); ``led`` is the suit to follow."""
    best = best_key = None
    for seat, card in plays:
        s = suit_of(card, trump)
        if plain(card) == "JK":
            key = (3, 0)             # the joker beats everything, no-trump included (7.8)
        elif trump is not None and s == trump:
            key = (2, power(card, trump, low))
        elif s == led:
            key = (1, power(card, trump, low))
        else:
            key = (0, 0)
        if best_key is None or key > best_key:   # an equal (twin) card played later loses
            best, best_key = seat, key
    return best


def deck_of(variant, o):
    ranks = "9TJQKA"
    if variant == "bid":
        ranks = ranks[ranks.index(o.get("deck_low_rank", "9")):]
    cards = [r + s for s in "CDHS" for r in ranks]
    if variant == "bid" and o.get("double_deck"):
        cards = [c + "#1" for c in cards] + [c + "#2" for c in cards]
    if variant == "bid" and o.get("joker"):
        cards.append("JK")
    return cards


def referee(events):
    """Replay a game from rules.md alone.

    Returns ``{"deal_points": [(deal, points per side)], "scores", "winner",
    "tied", "end" (index of the event that ended the game, or None),
    "reneges": [(deal, trick, seat, card, frozenset(evidence))],
    "tricks": {deal: [winner seats]}, "leaders": {deal: seat},
    "problems": [words]}``.
    """
    start = events[0]
    v, o = start.variant, dict(start.options)
    unknown = set(o) - KNOWN_OPTIONS[v]
    assert not unknown, f"the referee does not know option(s) {unknown}"
    n = N_SEATS[v]
    n_sides = 2 if v in PARTNERSHIPS else n
    deck = deck_of(v, o)
    per_deal = (len(deck) - ("JK" in deck)) // 4 if v == "bid" else 6 if v == "ghost-hand" else 5
    target = o.get("target_score", 32 if v in ("ghost-hand", "bid") else 10)
    if start.initial_score:
        scores = list(start.initial_score)
    else:
        scores = [o.get("start_score", 25)] * 4 if v == "buck" else [0] * n_sides
    out = {"deal_points": [], "reneges": [], "tricks": {}, "leaders": {}, "problems": [],
           "winner": None, "tied": None, "end": None}
    problems = out["problems"]

    def side(seat):
        return seat % 2 if v in PARTNERSHIPS else seat

    d = {}
    for i, ev in enumerate(events[1:], 1):
        k = ev.kind
        if out["end"] is not None:
            problems.append(f"event {i} after the end of the game")
            break
        if k == "DealStarted":
            d = dict(no=ev.deal, dealer=ev.dealer, hands=None, trump=None, maker=None, contract=None,
                     alone=None, lone_def=None, out=set(), pending=[], trick=[], led=None,
                     winners=[], turn=None)
        elif k == "CardsDealt":
            known = [c for h in ev.hands for c in h] + list(ev.kitty) + list(ev.dummy) + list(ev.ghost)
            known += [ev.up_card] if ev.up_card else []
            seen = [c for c in known if c != "??"]
            if len(set(seen)) != len(seen) or not set(seen) <= set(deck):
                problems.append(f"deal {d['no']}: a card dealt twice or not in the deck")
            if len(seen) == len(known) and set(seen) != set(deck):
                problems.append(f"deal {d['no']}: not every card of the deck is dealt")
            d["hands"] = [list(h) for h in ev.hands]
            d["up"], d["dummy"], d["ghost"] = ev.up_card, list(ev.dummy), list(ev.ghost)
            if v == "buck" and ev.up_card[1] == "C":
                d["trump"] = "C"          # 6.1: a turned club is trump, no maker
        elif k == "OrderedUp":
            d["trump"], d["maker"] = d["up"][1], ev.seat
            if ev.alone:
                go_alone(v, d, ev.seat)
        elif k == "TrumpNamed":
            d["trump"] = ev.suit
            if v not in ("ghost-hand", "bid"):
                d["maker"] = ev.seat
            if ev.alone:
                go_alone(v, d, ev.seat)
        elif k == "BidMade":
            b = ev.bid
            d["contract"] = int(b) if str(b).isdigit() else str(b).lower()
            d["maker"] = ev.seat
        elif k == "UpCardPickedUp":
            d["hands"][ev.seat].append(d["up"])
        elif k == "Discarded":
            take(d, ev.seat, ev.card, problems)
        elif k == "DummyTaken":
            d["hands"][ev.seat] += d["dummy"]
        elif k == "WentAlone":
            go_alone(v, d, ev.seat)
        elif k == "DefendedAlone":
            d["lone_def"] = ev.seat
            if v == "standard":
                d["out"].add((ev.seat + 2) % 4)
            else:                          # cutthroat: the other defender sits out (4.4)
                d["out"] |= {s for s in range(3) if s not in (ev.seat, d["maker"])}
        elif k == "HandSwappedWithGhost":
            d["hands"][ev.seat] = d["ghost"]
        elif k == "CardPassed":
            take(d, ev.seat, ev.card, problems)
            d["pending"].append((ev.to_seat, ev.card))
        elif k == "DroppedOut":
            d["out"].add(ev.seat)
        elif k == "DealThrownIn":
            out["deal_points"].append((d["no"], (0,) * n_sides))
        elif k == "JokerSuitNamed":
            d["led"] = ev.suit
        elif k == "CardPlayed":
            if not d["winners"] and not d["trick"]:
                for to, card in d["pending"]:          # partner's best: both cards blind (7.3)
                    d["hands"][to].append(card)
                if v == "bid" and d["contract"] in ("pb", "moon"):   # the partner sits out (7.4)
                    d["alone"] = d["maker"]
                    d["out"].add((d["maker"] + 2) % 4)
                d["turn"] = first_leader(v, o, d, n)
                out["leaders"][d["no"]] = d["turn"]
            if ev.seat != d["turn"]:
                problems.append(f"deal {d['no']}: seat {ev.seat} plays, seat {d['turn']} is to play")
            hand = d["hands"][ev.seat]
            if d["trick"]:
                led, trump = d["led"], d["trump"]
                exempt = o.get("nt_joker_any_time") and trump is None and ev.card == "JK"
                follow = [c for c in hand if suit_of(c, trump) == led and led is not None]
                if suit_of(ev.card, trump) != led and follow and not exempt:
                    out["reneges"].append((d["no"], len(d["winners"]) + 1, ev.seat, ev.card,
                                           frozenset(follow)))
            else:
                d["led"] = suit_of(ev.card, d["trump"])
            take(d, ev.seat, ev.card, problems)
            d["trick"].append((ev.seat, ev.card))
            active = [s for s in range(n) if s not in d["out"]]
            if len(d["trick"]) < len(active):
                d["turn"] = next(s for s in ((ev.seat + j) % n for j in range(1, n + 1)) if s in active)
                continue
            w = trick_winner(d["trick"], d["trump"], d["led"], v == "bid" and o.get("low_no_trump")
                             and d["trump"] is None)
            d["winners"].append(w)
            d["trick"], d["led"], d["turn"] = [], None, w
            if len(d["winners"]) < per_deal:
                continue
            won = [d["winners"].count(s) for s in range(n)]
            pts = deal_points(v, o, d, won, per_deal)
            scores = [a + b for a, b in zip(scores, pts)]
            out["deal_points"].append((d["no"], tuple(pts)))
            out["tricks"][d["no"]] = list(d["winners"])
            winner, tied = game_end(v, o, d, won, scores, target)
            if winner is not None or tied:
                out["winner"], out["tied"], out["end"] = winner, tied, i
    out["scores"] = scores
    return out


def take(d, seat, card, problems):
    hand = d["hands"][seat]
    if card in hand:
        hand.remove(card)
    elif "??" in hand:
        hand.remove("??")
    else:
        problems.append(f"deal {d['no']}: seat {seat} does not hold {card}")


def go_alone(v, d, seat):
    d["alone"] = seat
    if v == "standard":               # 2.4: the partner sits out
        d["out"].add((seat + 2) % 4)


def next_active(d, seat, n):
    return next(s for s in ((seat + j) % n for j in range(1, n + 1)) if s not in d["out"])


def first_leader(v, o, d, n):
    """Who leads trick 1 (2.5, 3.3, 4.4, 5.2, 6.3, 7.4)."""
    if v == "two-handed":
        return (d["dealer"] + 1) % 2
    if v in ("ghost-hand", "bid"):
        return d["maker"]
    if v == "cutthroat" or (v == "standard" and o.get("loner_lead") == "left_of_loner"):
        if d["lone_def"] is not None:
            return d["lone_def"] if d["alone"] is not None else next_active(d, d["lone_def"], n)
        if d["alone"] is not None:
            return next_active(d, d["alone"], n)
    return next_active(d, d["dealer"], n)


def deal_points(v, o, d, won, per_deal):
    """Points per side of a deal played out (2.6, 3.4, 4.5, 5.4, 6.4, 7.5)."""
    m = d["maker"]
    if v == "standard":
        side = m % 2
        got = won[side] + won[side + 2]
        pts = [0, 0]
        if got == 5:
            pts[side] = 4 if d["alone"] is not None else 2
        elif got >= 3:
            pts[side] = 1
        else:
            val = o.get("lone_euchred_value", 2) if d["alone"] is not None else 2
            if d["lone_def"] is not None:
                val = max(val, o.get("lone_defender_value", 4))
            if o.get("super_euchre") and got == 0:
                val = max(val, 4)
            pts[1 - side] = val
        return pts
    if v == "two-handed":
        pts = [0, 0]
        if won[m] == 5:
            pts[m] = 2
        elif won[m] >= 3:
            pts[m] = 1
        else:
            pts[1 - m] = 2
        return pts
    if v == "cutthroat":
        pts = [0, 0, 0]
        defenders = [s for s in range(3) if s != m]
        if won[m] == 5:
            pts[m] = o.get("lone_no_dummy_march", 3) if d["alone"] == m else 3
        elif won[m] >= 3:
            pts[m] = 1
        elif d["lone_def"] is None:
            for s in defenders:
                pts[s] = 2
        elif o.get("lone_defender_scoring", "source") == "lone_defender_only_4":
            pts[d["lone_def"]] = 4
        else:
            for s in defenders:
                pts[s] = 4 if won[d["lone_def"]] == 5 else 2
        return pts
    if v == "ghost-hand":
        pts = list(won)
        c = d["contract"]
        if c == "moon":
            fail = o.get("failed_moon_penalty", 24)
            fail = {"moon": o.get("moon_value", 24), "bid": 6}.get(fail, fail)
            pts[m] = o.get("moon_value", 24) if won[m] == 6 else -fail
        elif won[m] < c:
            pts[m] = -c
        return pts
    if v == "buck":
        pts = [0, 0, 0, 0]
        for s in range(4):
            if s not in d["out"]:
                floor = 3 if s == m else 1
                pts[s] = -won[s] if won[s] >= floor else 5
        return pts
    # bid (7.5; 7.10 for the double deck)
    side = m % 2
    team = [won[0] + won[2], won[1] + won[3]]
    pts = [0, 0]
    pts[1 - side] = team[1 - side]
    c = d["contract"]
    if c in ("pb", "moon"):
        value = o.get(f"{c}_value") or (2 if c == "pb" else 4) * per_deal
        fail = o.get(f"failed_{c}_penalty") or value
        pts[side] = value if team[side] == per_deal else -fail
    else:
        pts[side] = team[side] if team[side] >= c else -c
    return pts


def game_end(v, o, d, won, scores, target):
    """(winning side or None, tied seats or None) after a deal (2.6, 3.4, 4.5, 5.5, 6.4, 7.5)."""
    if v == "buck":
        walkover = d["maker"] is not None and len(d["out"]) == 3
        for s in range(4):
            if won[s] == 5 and (not walkover or o.get("walkover_counts_as_five")):
                return s, None
        low = [s for s in range(4) if scores[s] <= 0]
        if not low:
            return None, None
        best = min(scores[s] for s in low)
        lowest = tuple(s for s in low if scores[s] == best)
        if len(lowest) == 1:
            return lowest[0], None
        return None, (lowest if o.get("tie_resolution", "tie") == "tie" else None)
    over = [s for s in range(len(scores)) if scores[s] >= target]
    if not over:
        return None, None
    top = max(scores[s] for s in over)
    best = tuple(s for s in over if scores[s] == top)
    if len(best) == 1:
        return best[0], None
    return None, (best if o.get("shared_win") else None)


# ====================================================================== complete games

ALL_GAMES = [p for v in VARIANTS for p in GAMES[v]]


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_has_three_complete_games(variant):
    assert len(GAMES[variant]) >= 3


RENEGE_TAG = re.compile(r"deal (\d+), trick (\d+), (\S+) plays (\S+) holding (.+)")


@pytest.mark.parametrize("path", ALL_GAMES, ids=rel)
def test_game_replays_to_the_refereed_end(path):
    rec = record(path)
    start = rec.events[0]
    assert start.variant == rel(path).split(os.sep)[0]
    with open(path, encoding="utf-8") as f:      # the files are the writer's own output
        assert write_text(rec.events, rec.annotations, rec.variations) == f.read()
    ref = referee(rec.events)
    assert ref["problems"] == []
    # a complete game: it stops exactly where the variant's rule ends it
    assert ref["end"] == len(rec.events) - 1
    assert ref["winner"] is not None or ref["tied"]
    game = validate_events(path, rec.events)
    t = game.final
    assert t.game_over
    assert [(d, tuple(p)) for d, p, _ in t.deal_results] == ref["deal_points"]
    assert game.final_score == ref["scores"]
    assert game.winner == ref["winner"]
    assert t.x.get("tied") == ref["tied"]
    # renege findings: exactly the illegal plays the referee saw
    found = [(f.deal, f.trick, f.seat, f.card, frozenset(f.evidence))
             for f in game.audit() if f.kind == "renege"]
    assert found == ref["reneges"]
    tag = start.source.get("Renege")
    if tag is None:
        assert found == []
        return
    n = len(start.players)
    deal, trick, who, card, held = RENEGE_TAG.fullmatch(tag).groups()
    assert found == [(int(deal), int(trick), seat_index(who, n), card, frozenset(held.split()))]
    [f] = [f for f in game.audit() if f.kind == "renege"]
    assert f.penalty and len(f.score_if_penalized) == len(game.final_score)


@pytest.mark.parametrize("variant", VARIANTS[1:])
def test_one_game_of_each_variant_holds_a_deliberate_renege(variant):
    tagged = [p for p in GAMES[variant] if "Renege" in record(p).events[0].source]
    assert len(tagged) >= 1


def _kinds(variant):
    return [e for p in GAMES[variant] for e in record(p).events]


def test_the_games_hold_what_each_variant_has_of_its_own():
    kinds = {v: {e.kind for e in _kinds(v)} for v in VARIANTS}
    assert {"DummyTaken", "WentAlone", "DefendedAlone"} <= kinds["cutthroat"]
    assert "HandSwappedWithGhost" in kinds["ghost-hand"]
    assert {"UpCardDeclined", "TrumpNamed", "DealThrownIn"} <= kinds["two-handed"]
    assert {"DroppedOut", "StayedIn"} <= kinds["buck"]
    # buck: a turned club (no auction) and a hand at no-trump (eight passes)
    buck = [e for e in _kinds("buck")]
    assert any(e.kind == "CardsDealt" and e.up_card[1] == "C" for e in buck)
    runs = "".join("p" if e.kind == "Passed" else "x" for e in buck)
    assert "p" * 8 in runs
    # moons (made: +24) in ghost hand and bid; partner's best in bid
    for v in ("ghost-hand", "bid"):
        made = []
        for p in GAMES[v]:
            ref = referee(record(p).events)
            deal = 0
            for e in record(p).events:
                deal = e.deal if e.kind == "DealStarted" else deal
                if e.kind == "BidMade" and e.bid == "moon":
                    made.append(dict(ref["deal_points"])[deal])
        assert any(24 in pts for pts in made), v
    assert any(e.kind == "BidMade" and e.bid == "pb" for e in _kinds("bid"))
    options = [record(p).events[0].options for p in GAMES["bid"]]
    assert any(o.get("joker") for o in options) and any(o.get("double_deck") for o in options)


# ====================================================================== single deals

SEAT4 = "NESW"


def seat_index(text, n):
    text = text.strip()
    if n == 4 and text in SEAT4:
        return SEAT4.index(text)
    m = re.fullmatch(r"P(\d+)", text)
    assert m and 1 <= int(m.group(1)) <= n, f"not a seat: {text!r}"
    return int(m.group(1)) - 1


def side_index(text, variant):
    if variant in PARTNERSHIPS:
        return {"N/S": 0, "E/W": 1}[text]
    return seat_index(text, N_SEATS[variant])


def numbers(text):
    return [int(x) for x in text.replace(",", " ").split()]


NOTATION = {"UpCardPickedUp": "pickup", "UpCardDeclined": "decline", "WentAlone": "alone",
            "PlayedWithPartner": "with-partner", "DefendedAlone": "defend-alone",
            "HandSwappedWithGhost": "swap", "DummyTaken": "dummy", "DroppedOut": "drop",
            "StayedIn": "stay", "DealThrownIn": "thrown-in", "Passed": "pass"}


def notation(ev):
    """A legal action as the notation writes it, without the seat."""
    k = ev.kind
    if k == "CardPlayed":
        return ev.card
    if k == "OrderedUp":
        return "order" + (" alone" if ev.alone else "")
    if k == "TrumpNamed":
        return f"name {ev.suit or 'NT'}" + (" alone" if ev.alone else "")
    if k == "BidMade":
        return f"bid {ev.bid}"
    if k == "Discarded":
        return f"discard {ev.card}"
    if k == "CardPassed":
        return f"give {ev.card}"
    return NOTATION[k]


EXPECTED = {"ExpectedDealPoints", "ExpectedScore", "ExpectedWinner", "ExpectedLeader",
            "ExpectedTricks", "ExpectedTrump", "ExpectedMaker", "ExpectedSittingOut",
            "ExpectedLegal", "ExpectedRenege", "ExpectedProven", "ExpectedPenalty",
            "ExpectedNextDealer"}


@pytest.mark.parametrize("variant", VARIANTS)
def test_ten_hand_checked_deals_per_variant(variant):
    assert len(glob.glob(os.path.join(FIX, variant, "deals", "*.euchre"))) >= 10


def legal_at(game, where, seat):
    """Notation of the legal actions of ``seat`` at ``where`` (``T<k>`` or ``move <m>``)."""
    evs = game.events
    if where.startswith("move"):
        dealt = next(i for i, e in enumerate(evs) if e.kind == "CardsDealt")
        st = game.state_at(dealt + 1 + int(where.split()[1]) - 1)
        assert st.turn in (seat, None), f"{where}: seat {st.turn} is to act"
    else:
        k = int(where[1:])
        st = next(s for s in (game.state_at(i) for i in range(len(evs)))
                  if s.phase == "play" and len(s.tricks) == k - 1 and s.turn == seat)
    return sorted(notation(a) for a in st.legal if getattr(a, "seat", seat) == seat)


@pytest.mark.parametrize("path", DEALS, ids=rel)
def test_single_deal_holds_its_hand_checked_values(path):
    rec = record(path)
    start = rec.events[0]
    v, n = start.variant, len(start.players)
    tags = {k: val for k, val in start.source.items() if k.startswith("Expected") or k == "Rule"}
    assert tags.get("Rule", "").startswith("rules.md"), "each deal names its rule"
    assert set(tags) - {"Rule"} and set(tags) - {"Rule"} <= EXPECTED, set(tags) - EXPECTED - {"Rule"}
    game = validate_events(path, rec.events)
    t = game.final
    ref = referee(rec.events)
    assert ref["problems"] == [] and game.deals == 1
    assert [(d, tuple(p)) for d, p, _ in t.deal_results] == ref["deal_points"]
    findings = [f for f in game.audit() if f.kind == "renege"]
    assert [(f.deal, f.trick, f.seat, f.card, frozenset(f.evidence)) for f in findings] == ref["reneges"]
    for name, want in tags.items():
        if name == "ExpectedDealPoints":
            assert list(t.deal_results[0][1]) == numbers(want) == list(ref["deal_points"][0][1])
        elif name == "ExpectedScore":
            assert game.final_score == numbers(want) == ref["scores"]
        elif name == "ExpectedWinner":
            if want == "none":
                assert game.winner is None and not t.game_over and ref["end"] is None
            elif want.startswith("tie "):
                tied = tuple(seat_index(s, n) for s in want.split()[1:])
                assert t.game_over and game.winner is None and t.x.get("tied") == tied == ref["tied"]
            else:
                assert t.game_over and game.winner == side_index(want, v) == ref["winner"]
        elif name == "ExpectedLeader":
            assert t.tricks[0][0] == seat_index(want, n) == ref["leaders"][1]
        elif name == "ExpectedTricks":
            seats = [seat_index(s, n) for s in want.split()]
            assert [w for _, _, w in t.tricks] == seats == ref["tricks"][1]
        elif name == "ExpectedTrump":
            assert t.trump == (None if want == "NT" else want)
        elif name == "ExpectedMaker":
            assert t.maker == (None if want == "none" else seat_index(want, n))
        elif name == "ExpectedSittingOut":
            assert sorted(t.out) == ([] if want == "none" else sorted(seat_index(s, n) for s in want.split()))
        elif name == "ExpectedLegal":
            for check in want.split(";"):
                head, items = check.split(":")
                *where, seat = head.split()
                where = " ".join(where)
                expected = items.split(",") if where.startswith("move") else items.split()
                assert legal_at(game, where, seat_index(seat, n)) == sorted(x.strip() for x in expected), check
        elif name == "ExpectedRenege":
            m = re.fullmatch(r"T(\d+) (\S+) (\S+) holding (.+)", want)
            trick, who, card, held = m.groups()
            assert [(f.trick, f.seat, f.card, frozenset(f.evidence)) for f in findings] == [
                (int(trick), seat_index(who, n), card, frozenset(held.split()))]
        elif name == "ExpectedProven":
            assert findings[0].proven["trick"] == int(want.lstrip("T"))
        elif name == "ExpectedPenalty":
            assert list(findings[0].penalty_points) == numbers(want)
        elif name == "ExpectedNextDealer":
            assert legal_actions(t)[0] == (DealStarted(2, seat_index(want, n)),)
    if "ExpectedRenege" not in tags:
        assert findings == []


# ====================================================================== the command line

CLI_GAMES = {v: next((p for p in GAMES[v] if "Renege" in record(p).events[0].source), GAMES[v][0])
             for v in VARIANTS}


def test_import_and_audit_json_for_every_variant(tmp_path):
    db = str(tmp_path / "fixtures.sqlite")
    paths = [CLI_GAMES[v] for v in VARIANTS]
    res = runner.invoke(app, ["import", *paths, "--db", db], catch_exceptions=False)
    assert res.exit_code == 0, res.stderr
    lines = res.stdout.strip().splitlines()
    assert len(lines) == len(VARIANTS)
    refs = {v: referee(record(CLI_GAMES[v]).events) for v in VARIANTS}
    ids = {}
    for v, line in zip(VARIANTS, lines):
        gid, rest = line.split("  ", 1)
        ids[v] = gid
        deals = sum(1 for e in record(CLI_GAMES[v]).events if e.kind == "DealStarted")
        sc = refs[v]["scores"]
        # the score as every command says it (list, show, audit): the sides by their seats
        sides = {"standard": ["N/S", "E/W"], "bid": ["N/S", "E/W"],
                 "buck": ["North", "East", "South", "West"]}.get(v, [f"P{i + 1}" for i in range(len(sc))])
        shown = ", ".join(f"{side} {x}" for side, x in zip(sides, sc))
        assert f"deals={deals}" in rest and ("score: " + shown in rest or f"(as played: {shown})" in rest)
    # audit the files (not stored) and the stored games: the same answer
    for args in (paths, [ids[v] for v in VARIANTS]):
        res = runner.invoke(app, ["audit", "--json", *args, "--db", db], catch_exceptions=False)
        assert res.exit_code == 0, res.stderr
        games = json.loads(res.stdout)["games"]
        assert [g["variant"] for g in games] == list(VARIANTS)
        for v, g in zip(VARIANTS, games):
            ref = refs[v]
            # one score per side in seat order: teams in standard and bid, players otherwise
            assert len(g["final_score"]) == {"standard": 2, "bid": 2}.get(v, N_SEATS[v])
            assert g["final_score"] == ref["scores"] and g["winner"] == ref["winner"]
            assert g.get("tied") == (list(ref["tied"]) if ref["tied"] else None)
            reneges = [(f["deal"], f["trick"], f["seat"], f["card"], frozenset(f["evidence"]))
                       for f in g["findings"] if f["kind"] == "renege"]
            assert reneges == ref["reneges"]
            assert (len(reneges) == 1) == (v != "standard")
            for f in g["findings"]:
                assert f["penalty"] and len(f["score_if_penalized"]) == len(g["final_score"])


def _readme_variants():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    section = text.split("\n## Variants\n", 1)[1].split("\n## ", 1)[0]
    return section, re.findall(r"euchre-events audit (fixtures/\S+?\.euchre)", section)


def test_readme_lists_the_six_variants_with_an_audit_command_that_works():
    section, paths = _readme_variants()
    for v in VARIANTS:
        assert f"`{v}`" in section
    assert sorted(p.split("/")[1] for p in paths) == sorted(VARIANTS)
    res = runner.invoke(app, ["audit", "--json", *[os.path.join(ROOT, p) for p in paths]],
                        catch_exceptions=False)
    assert res.exit_code == 0, res.stderr
    assert [g["variant"] for g in json.loads(res.stdout)["games"]] == [p.split("/")[1] for p in paths]
