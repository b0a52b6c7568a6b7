"""The `keep the up-card` rule (rules.md 2.2, 2.9 ``dealerMayDiscardUpcard``;
docs/cases.md C7): option ``dealer_may_discard_upcard`` off.

The dealer who takes the up-card may not discard that very card.  Legal play
never offers the discard; a record that holds one keeps it (docs/design.md
"Three kinds of wrong": illegal but real), flagged ``upcard-discarded`` with
words naming the rule, and the deal goes on as recorded.  Every up-card game
has the option: standard (section 2), two-handed (3.2), cutthroat (4.2) and
Buck (6.1), all through the shared up-card auction
(``euchre_events/rules/variants/upcard.py``).

Every expected value is worked out by hand in the comments.
"""
import json

import pytest

from conftest import RUNNER
from builders import Recorder
from euchre_events.cli import app
from euchre_events.events import (CardPlayed, CardsDealt, DealStarted, Discarded, DummyTaken,
                                  GameStarted, OrderedUp, Passed, PlayedWithPartner, StayedIn,
                                  UpCardPickedUp)
from euchre_events.formats import read_records
from euchre_events.rules.cards import deck

KEEP = {"dealer_may_discard_upcard": False}


def cards(text):
    return tuple(text.split())


class Table(Recorder):
    def __init__(self, variant, players, dealer, dealt, **options):
        super().__init__(GameStarted(variant, options, players, first_dealer=dealer))
        self.add(DealStarted(1, dealer), dealt)

    def discards_offered(self):
        events, reason = self.legal_actions()
        assert all(isinstance(e, Discarded) for e in events)
        return sorted(e.card for e in events), reason


# ---------------------------------------------------------------- standard (C7)

N, E, S, W = 0, 1, 2, 3
# docs/cases.md C7: dealer N holds AS KS QS AH AD; E orders up the 9S.
C7 = dict(n="AS KS QS AH AD", e="JS TS 9H TH JH", s="9C TC JC QC KC", w="AC 9D TD JD QD")


def c7(**options):
    hands = tuple(cards(C7[k]) for k in "nesw")
    used = set(sum(hands, ())) | {"9S"}
    kitty = tuple(c for c in deck() if c not in used)
    t = Table("standard", ("N", "E", "S", "W"), N, CardsDealt(hands, "9S", kitty), **options)
    # positions: 0 GameStarted, 1 DealStarted, 2 CardsDealt, 3 OrderedUp, 4 UpCardPickedUp
    return t.add(OrderedUp(E), UpCardPickedUp(N))


def test_standard_keep_the_upcard_is_not_offered():
    t = c7(**KEEP)
    offered, reason = t.discards_offered()
    # N holds AS KS QS AH AD and the 9S just taken: the five first cards only
    assert offered == sorted(cards("AS KS QS AH AD"))
    assert "not the up-card" in reason
    # default: the 9S may go (C7: legal under common rules)
    offered, _ = c7().discards_offered()
    assert offered == sorted(cards("AS KS QS AH AD 9S"))


def test_standard_upcard_discarded_under_keep_is_kept_and_flagged():
    t = c7(**KEEP).add(Discarded(N, "9S"))
    [fl] = t.t.flags
    assert (fl.kind, fl.position, fl.seat, fl.deal) == ("upcard-discarded", 5, N, 1)
    assert "9S" in fl.text and "keep-the-up-card" in fl.text
    assert "rules.md 2.2" in fl.text and "dealerMayDiscardUpcard" in fl.text and "C7" in fl.text
    # kept as recorded: the 9S is the discard, N keeps the five others, trump
    # spades by E, and the play starts with eldest E (left of the dealer N, 2.5)
    assert t.t.discards == [(N, "9S")]
    assert sorted(t.t.hands[N]) == sorted(cards("AS KS QS AH AD"))
    assert (t.t.trump, t.t.maker, t.t.phase, t.t.turn) == ("S", E, "play", E)
    # the audit reports it once, with no score penalty
    game = t.game()
    [f] = game.audit()
    assert (f.kind, f.deal, f.seat, f.position) == ("upcard-discarded", 1, N, 5)
    assert "no score penalty" in f.penalty and "rules.md 2.2" in f.penalty


def test_standard_other_discards_and_the_default_are_not_flagged():
    assert c7(**KEEP).add(Discarded(N, "AD")).t.flags == []
    assert c7().add(Discarded(N, "9S")).t.flags == []
    # a record that does not know the dealer's hand (an EGN file) nor his
    # face-down discard: "??" cannot be told from the up-card, so no flag
    hands = (("??",) * 5,) + tuple(cards(C7[k]) for k in "esw")
    t = Table("standard", ("N", "E", "S", "W"), N, CardsDealt(hands, "9S"), **KEEP)
    t.add(OrderedUp(E), UpCardPickedUp(N), Discarded(N, "??"))
    assert t.t.flags == [] and "9S" in t.t.hands[N]


def test_standard_dealer_who_takes_it_up_himself_must_keep_it_too():
    # E, S, W pass; the dealer N takes the 9S up (2.2): the same exchange.
    hands = tuple(cards(C7[k]) for k in "nesw")
    t = Table("standard", ("N", "E", "S", "W"), N, CardsDealt(hands, "9S"), **KEEP)
    t.add(Passed(E), Passed(S), Passed(W), OrderedUp(N), UpCardPickedUp(N))
    assert "9S" not in t.discards_offered()[0]
    t.add(Discarded(N, "9S"))   # positions 3-5 the passes, 6 the call, 7 pick-up, 8 the discard
    assert [(f.kind, f.position, f.seat) for f in t.t.flags] == [("upcard-discarded", 8, N)]


def test_standard_record_file_reads_and_audits(tmp_path):
    # Deal 1 of fixtures/standard/club-night-1.euchre, with the option off and
    # W discarding the up-card AD instead of 9C; W then plays 9C to trick 1
    # where he had played the AD.  Trump diamonds (N ordered up the AD).
    # T1 N 9D, E KD, S JH (the left bower: a diamond), W 9C  -> S
    # T2 S AC, W QC, N JC (a plain club: the left bower is JH), E TC -> S
    # T3 S AH, W 9H, N KS, E TH                               -> S
    # T4 S QH, W KC, N TD (trump)                             -> N
    # T5 N QD (trump), E TS, S JS, W AS                       -> N
    # N/S (makers) take all five: a march, +2 (2.6).  As played in the fixture.
    text = "\n".join([
        '[Variant "standard"]', '[Option.dealer_may_discard_upcard "false"]', '[Title "C7 at the club"]',
        '[North "Ann"]', '[East "Bob"]', '[South "Cora"]', '[West "Dan"]', '[Dealer "W"]', "",
        "Deal 1 dealer W", "N: JC KS 9D QD TD", "E: TH TC 9S KD TS", "S: JH AC AH QH JS",
        "W: AS QC 9C 9H KC", "Up: AD", "Kitty: KH QS JD",
        "N order  W pickup  W discard AD",
        "T1: N 9D  E KD  S JH  W 9C", "T2: S AC  W QC  N JC  E TC", "T3: S AH  W 9H  N KS  E TH",
        "T4: S QH  W KC  N TD  E 9S", "T5: N QD  E TS  S JS  W AS", ""])
    path = tmp_path / "c7.euchre"
    path.write_text(text)
    [rec] = read_records(str(path))
    assert Discarded(W, "AD") in rec.events
    res = RUNNER.invoke(app, ["audit", "--json", str(path)], catch_exceptions=False)
    assert res.exit_code == 0, res.stderr
    [g] = json.loads(res.stdout)["games"]
    assert g["final_score"] == [2, 0]
    [f] = g["findings"]
    assert (f["kind"], f["deal"], f["seat"]) == ("upcard-discarded", 1, W)
    assert "AD" in f["penalty"] and "rules.md 2.2" in f["penalty"]


# ---------------------------------------------------------------- the other up-card games

# two-handed (3.2): dealer B (seat 1); deal C of tests/test_two_handed.py.
# A passes, B takes the QH up himself and holds JH AS AC 9D 9S QH.
TWO = CardsDealt((cards("AH KH KS KC AD"), cards("JH AS AC 9D 9S")), "QH", ("??",) * 13)

# cutthroat (4.2): dealer P1 (seat 0); deal A of tests/test_cutthroat.py,
# up-card 9H.  P2 and P3 pass, P1 takes it up: 9S TS QS 9C TC 9H.
CUT = CardsDealt((cards("9S TS QS 9C TC"), cards("JH JD AH KH QH"), cards("9D TD QD KD QC")), "9H",
                 cards("JC KC JS"), cards("TH AS AC AD KS"))

# Buck (6.1): dealer P4 (seat 3); deal B of tests/test_buck.py, up-card 9H.
# P1 orders up; P4 takes the 9H: 9D QC TC KS JC 9H.
BUCK = CardsDealt((cards("JH JD AH 9C 9S"), cards("QD TD KC AC AS"), cards("TH QH KH AD KD"),
                   cards("9D QC TC KS JC")), "9H", cards("TS JS QS"))

GAMES = {
    # variant: (players, dealer, deal, the auction up to the discard, the dealer's
    #           other cards, the position of the discard, what may follow it)
    "two-handed": (("A", "B"), 1, TWO, [Passed(0), OrderedUp(1), UpCardPickedUp(1)],
                   "JH AS AC 9D 9S", 6, CardPlayed),
    "cutthroat": (("P1", "P2", "P3"), 0, CUT, [Passed(1), Passed(2), OrderedUp(0), UpCardPickedUp(0)],
                  "9S TS QS 9C TC", 7, DummyTaken),
    "buck": (("P1", "P2", "P3", "P4"), 3, BUCK, [OrderedUp(0), UpCardPickedUp(3)],
             "9D QC TC KS JC", 5, StayedIn),
}


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_other_upcard_games_keep_the_upcard(variant):
    players, dealer, dealt, auction, others, pos, then = GAMES[variant]
    up = dealt.up_card
    # default: the up-card may be discarded (rules.md 2.2 default, 3.2, 4.2, 6.1)
    t = Table(variant, players, dealer, dealt).add(*auction)
    assert t.discards_offered()[0] == sorted(cards(others) + (up,))
    # keep the up-card: not offered
    t = Table(variant, players, dealer, dealt, **KEEP).add(*auction)
    offered, reason = t.discards_offered()
    assert offered == sorted(cards(others)) and "not the up-card" in reason
    # recorded anyway: kept, flagged, and the deal goes on
    t.add(Discarded(dealer, up))
    [fl] = t.t.flags
    assert (fl.kind, fl.position, fl.seat, fl.deal) == ("upcard-discarded", pos, dealer, 1)
    assert up in fl.text and "rules.md 2.2" in fl.text
    assert t.t.discards == [(dealer, up)] and sorted(t.t.hands[dealer]) == sorted(cards(others))
    assert any(isinstance(e, then) for e in t.legal_actions()[0])
    [f] = t.game().audit()
    assert (f.kind, f.seat, f.position) == ("upcard-discarded", dealer, pos)
    # another card discarded under the option: no flag
    t2 = Table(variant, players, dealer, dealt, **KEEP).add(*auction, Discarded(dealer, cards(others)[0]))
    assert t2.t.flags == []


def test_cutthroat_flag_then_the_dummy_as_usual():
    # After the flagged discard the dealer-maker goes on to the dummy (4.3):
    # P1 takes it; his 5 cards and the dummy's 5 make 10, of which he keeps 5.
    players, dealer, dealt, auction, _, _, _ = GAMES["cutthroat"]
    t = Table("cutthroat", players, dealer, dealt, **KEEP).add(*auction, Discarded(0, "9H"),
                                                             DummyTaken(0))
    assert len(t.t.hands[0]) == 10 and t.t.phase == "dummy_discard"
    for c in cards("9S TS QS 9C TC"):
        t.add(Discarded(0, c))
    # the dealer keeps the dummy's TH AS AC AD KS; defenders from his left: P2, P3
    assert sorted(t.t.hands[0]) == sorted(cards("TH AS AC AD KS"))
    t.add(PlayedWithPartner(1), PlayedWithPartner(2))
    assert t.t.phase == "play" and [f.kind for f in t.t.flags] == ["upcard-discarded"]
