"""The audit report in words: what a tournament director reads aloud from the
audit of a disputed game (first filed as the director's findings,
tests/test_director_findings.py; docs/cases.md C3 and C1, rules.md 1.5, 2.7):
claims that name no renege,
said in the words of the table, cards as printed on the card (``10♣``, not
the record's code ``TC``).

The game is the worked example of docs/notation.md section 8: deal 1 is
case C3 (East trumps North's K♣ lead with 9♥ holding 10♣, shows 10♣ at
trick 4), deal 2 is thrown in, in deal 3 (dealer East, diamonds trump) East
goes alone, so West sits out, and takes 4 tricks (North's K♣ wins trick 4);
at trick 5 North leads A♣ and East, void in clubs, trumps with J♥, the left
bower (rules.md 1.2).
"""
import os
import re

import pytest
from conftest import CLUB, FIXTURES, ROOT, RUNNER

from euchre_events.events import RenegeClaimed
from euchre_events.formats.text import parse_text
from euchre_events.projections import Game
from euchre_events.ui.auditreport import finding_lines

N, E, S, W = range(4)


def notation_example():
    doc = open(os.path.join(ROOT, "docs", "notation.md"), encoding="utf-8").read()
    text = re.search(r"```euchre\n(.*?)```", doc, re.S).group(1)
    (rec,) = parse_text(text, "notation.md")
    return rec.events


def said(events):
    """The audit's lines of every finding of ``events``, as `audit` prints them."""
    g = Game(events)
    return [line for f in g.audit() for line in finding_lines(g, f)]


def test_claims_that_name_no_renege_are_answered_in_the_table_s_words():
    lines = said(notation_example() + [
        RenegeClaimed(S, E, 3, 5),    # East trumped A♣ with J♥, void in clubs
        RenegeClaimed(E, W, 3, 2),    # West sat out deal 3 (East alone)
        RenegeClaimed(E, S, 3, 6),    # a deal has 5 tricks (rules.md 0)
    ])
    text = "\n".join(lines)
    assert ("South (Cy) claimed that East (Bob) reneged at trick 5 of deal 3: rejected, no renege: "
            "East (Bob) played J♥ on the clubs lead, but held no clubs then: a void, not a renege") in text
    # before: "West (Di) has not played to trick 2 of deal 3", as if the trick were still to come
    assert ("East (Bob) claimed that West (Di) reneged at trick 2 of deal 3: rejected, no renege: "
            "West (Di) sat out deal 3 and played to no trick") in text
    # before: "South (Cy) has not played to trick 6 of deal 3"
    assert ("East (Bob) claimed that South (Cy) reneged at trick 6 of deal 3: rejected, no renege: "
            "deal 3 has 5 tricks: there is no trick 6") in text


def test_a_valid_claim_names_the_cards_as_printed():
    evs = notation_example()
    k = next(i for i, e in enumerate(evs) if e.kind == "CardPlayed" and (e.seat, e.card) == (E, "TC"))
    lines = said(evs[:k + 1] + [RenegeClaimed(N, E, 1, 1)] + evs[k + 1:])
    assert any("upheld by the rules: East (Bob) played 9♥ on a clubs lead holding 10♣;" in line
               for line in lines), lines


# ------------------------------------------- a drawn game, as list reads it

def test_list_reads_a_drawn_game_as_drawn_like_audit(tmp_path):
    """fixtures/egn/toggles/num-deals-2-tied.egn: two deals (num_deals 2,
    rules.md 2.9), N/S +1 then E/W +1, 1-1: the game ends level, drawn.
    audit said so; list said "winner: none", as for nothing at all.  Its
    players are the seats' own words: "N/S", not "N/S (North & South)"."""
    from euchre_events.cli import app
    db = str(tmp_path / "a.sqlite")
    tied = os.path.join(FIXTURES, "egn", "toggles", "num-deals-2-tied.egn")
    r = RUNNER.invoke(app, ["import", "--db", db, tied])
    assert r.exit_code == 0, r.output
    r = RUNNER.invoke(app, ["list", "--db", db])
    assert "score: N/S 1, E/W 1  winner: none: the game is drawn (N/S and E/W level)" in r.output
    r = RUNNER.invoke(app, ["audit", tied])
    assert ("official winner: nobody: the game is drawn (North-South and East-West level); "
            "as played: N/S 1, E/W 1, winner nobody: the game is drawn") in r.output


# ------------------------------- EGN export of a game the director ruled on

def test_egn_export_of_a_ruled_game_gives_the_record_back_and_names_the_ruling_left_out():
    """A director adds a claim and a ruling to the Epic Comeback (read from
    EGN), then exports it as EGN.  EGN has no place for them: the export
    is the game as read, the same document as before the ruling, and the
    warnings name the two events left out.  Before: "cannot write this game
    as EGN: event 242 (RenegeClaimed) cannot be written in EGN", exit 1."""
    from euchre_events.events import RenegeRuled
    from euchre_events.formats import read_records
    from euchre_events.formats.egn import write_egn
    from euchre_events.formats.egn.read import reads_back_to
    (rec,) = read_records(os.path.join(FIXTURES, "egn", "Epic Comeback.egn"))
    plain = write_egn(rec.events, rec.annotations, rec.variations, check=reads_back_to(rec.events))
    n = len(rec.events)
    ruled = rec.events + [RenegeClaimed(E, N, 9, 2), RenegeRuled(9, 2, N, "upheld", (0, 4), "TD", "seen")]
    lost = []
    doc = write_egn(ruled, rec.annotations, rec.variations, lost, check=reads_back_to(ruled))
    assert doc == plain
    assert lost == [f"event {n} (RenegeClaimed): EGN has no place for a renege claim or ruling; "
                    "left out (export --format text or json keeps it)",
                    f"event {n + 1} (RenegeRuled): EGN has no place for a renege claim or ruling; "
                    "left out (export --format text or json keeps it)"]


def test_a_renege_in_a_deal_the_record_stops_in_is_not_blamed_on_an_earlier_renege():
    """The notation example cut after trick 2 of deal 1: East's renege at
    trick 1 is established (he led trick 2) but the deal is not over, so no
    score is known yet.  The status said "the hand had already stopped for
    an earlier renege", and there is none."""
    evs = notation_example()
    cut = next(i for i, e in enumerate(evs) if e.kind == "CardPlayed" and (e.seat, e.card) == (S, "KS"))
    g = Game(evs[:cut])
    [f] = [f for f in g.audit() if f.kind == "renege"]
    assert not f.penalized and f.established_at["trick"] == 2
    assert f.status == "not penalized yet: the record stops before deal 1 ends"
    assert any("unclaimed; not penalized yet: the record stops before deal 1 ends" in line
               for line in finding_lines(g, f))


def test_claims_and_rulings_read_in_words_in_the_event_lists():
    from euchre_events.events import RenegeRuled
    from euchre_events.ui.describe import describe_event
    players = ("Ann", "Bob", "Cy", "<b>Di</b>")
    assert describe_event(RenegeClaimed(S, E, 3, 5), players) == \
        "South (Cy) claims a renege by East (Bob) at trick 5 of deal 3"
    assert describe_event(RenegeRuled(1, 1, E, "upheld", (4, 0), "TD", "appeal"), players) == \
        "TD upholds the renege by East (Bob) at trick 1 of deal 1 (deal 1 scores 4-0): appeal"
    assert describe_event(RenegeRuled(1, 1, W, "rejected", None, "", "line1\nline2"), players) == \
        "the director rejects the renege by West (<b>Di</b>) at trick 1 of deal 1: line1\\nline2"


def test_a_deal_numbered_again_is_refused_not_penalized_twice():
    """The notation example with deal 2 headed "Deal 1" again: the renege
    of deal 1 was found twice by its number, so the thrown-in second "deal
    1" scored N/S 2 as well: official 4-1 instead of 2-1.  A deal number
    that does not go up is now a RecordError naming file, line, deal and
    event; nothing is read."""
    import pytest
    from euchre_events.formats import RecordError
    doc = open(os.path.join(ROOT, "docs", "notation.md"), encoding="utf-8").read()
    text = re.search(r"```euchre\n(.*?)```", doc, re.S).group(1)
    assert Game(parse_text(text)[0].events).official_score == [2, 1]
    with pytest.raises(RecordError) as e:
        parse_text(text.replace("Deal 2 dealer N", "Deal 1 dealer N"), "same.euchre")
    assert "same.euchre" in str(e.value) and "event 29 (DealStarted)" in str(e.value)
    assert "deal 1 follows deal 1: each deal's number must be higher than the one before" in str(e.value)


def test_show_of_all_hands_names_the_renege_of_the_deal():
    """`show GAME --deal 1 --after 9` (all hands), just after East's 9♥ on
    North's K♣ (case C3): the director sees the renege named, with the card
    held back; before the play, and in deal 3, there is none.  A seat's
    view does not get the line (it shows the false void once it can know)."""
    from euchre_events.ui.describe import state_text
    g = Game(notation_example())
    k = next(i for i, e in enumerate(g.events) if e.kind == "CardPlayed" and (e.seat, e.card) == (E, "9H"))
    line = "Renege: East (Bob) at trick 1: 9♥ on a clubs lead, holding 10♣ (rules.md 1.5)"
    assert line in state_text(g.state_at(k + 1)).splitlines()
    assert "Renege:" not in state_text(g.state_at(k))
    assert "Renege:" not in state_text(g.state_at(k + 1), seat=S)
    assert "Renege:" not in state_text(g.state_at(len(g.events)))   # deal 3


def test_a_maker_s_five_dummy_discards_read_as_one_entry():
    """fixtures/cutthroat/deals/lone-defender-takes-three.euchre: P2 takes
    the dummy and discards 9♠ 10♠ Q♠ 10♣ J♣ face down (rules.md 4.3).  P1
    reads "P2 (Bob) 5 cards face down" (it read "P2 (Bob) a card face down"
    five times); the all-hands view lists the five cards once."""
    from euchre_events.formats import read_records
    from euchre_events.ui.describe import state_text
    (rec,) = read_records(os.path.join(FIXTURES, "cutthroat", "deals", "lone-defender-takes-three.euchre"))
    g = Game(rec.events)
    k = max(i for i, e in enumerate(g.events) if e.kind == "Discarded") + 1
    assert "Discards: P2 (Bob) 5 cards face down" in state_text(g.state_at(k), seat=0).splitlines()
    assert "Discards: P2 (Bob) 9♠ 10♠ Q♠ 10♣ J♣" in state_text(g.state_at(k)).splitlines()


def test_a_late_claim_under_automatic_enforcement_says_why_the_penalty_still_stands():
    """North claims East's renege of deal 1 after deal 3 (rules.md 1.5: late,
    the next deal had started).  Under the default renege_enforcement=automatic
    (rules.md 2.7) the renege counts anyway, as if claimed at once: N/S 2.  The
    line read "rejected by the rules: late ...; penalty: hand ends; N/S score 2",
    a rejection followed by a penalty with no word why."""
    g = Game(notation_example() + [RenegeClaimed(N, E, 1, 1)])
    assert g.official_score == [2, 1]
    [f] = [f for f in g.audit() if f.kind == "renege"]
    assert f.penalized and f.status.startswith("penalized (the claim was rejected, but every established")
    [line] = finding_lines(g, f)
    assert ("rejected by the rules: late: deal 3 had started (a renege may be claimed until the next deal "
            "starts, rules.md 1.5); the renege still counts: every established renege does, as if claimed "
            "at once (renege_enforcement=automatic); penalty: hand ends; N/S score 2") in line


def test_a_renege_with_a_card_the_record_does_not_name_is_provable_when_shown():
    """C3 with East's 9♥ recorded as ?? (dealt and played: the record does not
    name it).  All six clubs are placed elsewhere (K♣ North, A♣ Q♣ South,
    9♣ West, 10♣ East, J♣ kitty), so the ?? is no club and East, holding 10♣,
    reneged whatever it is (the engine records it).  The table saw the card:
    North and South saw East's club void at trick 1, and East's 10♣ at trick 4
    proves it false, as with the card named.  Before, the audit said
    "provable only from the hands" and no seat saw the void."""
    from euchre_events.projections.seat import knowledge
    text = notation_example_text().replace("E: TC 9H AD KD JS", "E: TC ?? AD KD JS") \
        .replace("T1: N KC  E 9H ??", "T1: N KC  E ?? ??")
    (rec,) = parse_text(text, "unknown.euchre")
    g = Game(rec.events)
    [f] = [f for f in g.audit() if f.kind == "renege"]
    assert f.card == "??" and f.evidence == ("TC",) and f.penalized
    assert f.provable_at["trick"] == 4 and f.proving_card == "TC"
    [line] = finding_lines(g, f)
    assert line.startswith("East (Bob) reneged at trick 1 of deal 1, playing an unknown card on a clubs lead "
                           "while holding 10♣;") and "provable at trick 4, when East (Bob) showed 10♣" in line
    k = next(i for i, e in enumerate(g.events) if e.kind == "CardPlayed" and (e.seat, e.card) == (E, "??"))
    [void] = knowledge(g, k + 1, N).voids
    assert (void.seat, void.suit, void.trick, void.known_false) == (E, "C", 1, False)


def test_a_card_of_known_suit_and_unknown_rank_shows_a_void():
    """East's 9♥ recorded as ?H (EGN "Xh": its suit known, not its rank) on
    North's K♣ lead, trump hearts: whatever its rank it is a heart (a ?H
    cannot be the left bower, J♦), so East showed a club void at trick 1."""
    import dataclasses
    from euchre_events.projections.seat import knowledge
    evs = notation_example()   # the text notation has no ?H: the events as an EGN reader gives them
    dealt = next(i for i, e in enumerate(evs) if e.kind == "CardsDealt")
    hands = tuple(tuple("?H" if (s, c) == (E, "9H") else c for c in h) for s, h in enumerate(evs[dealt].hands))
    evs[dealt] = dataclasses.replace(evs[dealt], hands=hands)
    k = next(i for i, e in enumerate(evs) if e.kind == "CardPlayed" and (e.seat, e.card) == (E, "9H"))
    evs[k] = dataclasses.replace(evs[k], card="?H")
    g = Game(evs)
    k = next(i for i, e in enumerate(g.events) if e.kind == "CardPlayed" and (e.seat, e.card) == (E, "?H"))
    [void] = knowledge(g, k + 1, S).voids
    assert (void.seat, void.suit, void.trick) == (E, "C", 1)


def notation_example_text():
    doc = open(os.path.join(ROOT, "docs", "notation.md"), encoding="utf-8").read()
    return re.search(r"```euchre\n(.*?)```", doc, re.S).group(1)


def test_record_says_the_rules_verdict_on_a_claim_at_once(tmp_path):
    """`record GAME '{"type": "RenegeClaimed", ...}'` on the notation example
    imported whole: South claims East reneged at trick 5 of deal 3, where East
    trumped North's A♣ with J♥ (the left bower: diamonds trump), void in clubs.
    The claim is stored (it happened) and the rules' verdict is said at once;
    before, only "position 62: RenegeClaimed" was printed."""
    from euchre_events.cli import app
    db, rec = str(tmp_path / "a.sqlite"), tmp_path / "example.euchre"
    rec.write_text(notation_example_text(), encoding="utf-8")
    r = RUNNER.invoke(app, ["import", "--db", db, str(rec)])
    gid = r.output.split()[0]
    r = RUNNER.invoke(app, ["record", "--db", db, gid,
                                 '{"type": "RenegeClaimed", "by": 2, "against": 1, "deal": 3, "trick": 5}'])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines() == [
        "event 63: RenegeClaimed",
        "event 63: the rules judge this claim rejected: no renege: East (Bob) played J♥ on the clubs "
        "lead, but held no clubs then: a void, not a renege"]


def test_a_void_reads_from_the_trick_it_was_first_shown():
    """fixtures/ghost-hand/deals/ghost-swap-blind-then-bid.euchre, diamonds
    trump: P3 plays 10♣ on P1's A♦ at trick 1, then J♣ Q♣ K♣ A♣ on the next
    four diamond leads.  P2's readout said "P3 (Cy) diamonds (trick 5)" (the
    latest showing), as if the void had come at trick 5: it reads trick 1."""
    from euchre_events.formats import read_records
    from euchre_events.projections.seat import knowledge
    from euchre_events.ui.describe import state_text
    (rec,) = read_records(os.path.join(FIXTURES, "ghost-hand", "deals", "ghost-swap-blind-then-bid.euchre"))
    g = Game(rec.events)
    k = next(i for i, e in enumerate(g.events) if e.kind == "CardPlayed" and e.card == "AC") + 1
    [void] = knowledge(g, k, 1).voids
    assert (void.seat, void.suit, void.trick, void.card) == (2, "D", 1, "TC")
    assert "Voids shown: P3 (Cy) diamonds (trick 1)" in state_text(g.state_at(k), seat=1).splitlines()


def _without_deals(text: str, drop: set) -> str:
    """A text record with the blocks of the deals ``drop`` taken out (the
    other deals keep their numbers and dealers)."""
    import re
    head, *blocks = re.split(r"\n(?=Deal \d+ dealer )", text)
    kept = [b for b in blocks if int(b.split()[1]) not in drop]
    return "\n".join([head] + kept)


@pytest.mark.parametrize("drop,words", [
    ({2, 3, 4}, "deal 5 follows deal 1: deals 2 to 4 are not in the record; the score counts the deals recorded"),
    ({3}, "deal 4 follows deal 2: deal 3 is not in the record; the score counts the deals recorded"),
])
def test_deals_missing_from_the_record_are_said_and_the_dealer_is_not_judged_across_them(tmp_path, drop, words):
    """Club night 1 with deals left out: the deal after the gap is flagged
    once, with the numbers missing, and not as dealt out of rotation (the
    record's dealers rotate through the missing deals)."""
    import os
    from euchre_events.formats import read_records
    from euchre_events.projections import Game
    src = str(CLUB)
    path = tmp_path / "gaps.euchre"
    path.write_text(_without_deals(open(src, encoding="utf-8").read(), drop))
    g = Game(read_records(str(path))[0].events)
    kinds = [(f.kind, f.deal) for f in g.audit()]
    after = max(drop) + 1
    assert ("deal-numbers-skipped", after) in kinds
    assert not [k for k in kinds if k[0] == "dealer-out-of-rotation"]
    f = next(f for f in g.audit() if f.kind == "deal-numbers-skipped")
    assert words in f.penalty
    full = Game(read_records(src)[0].events)
    assert not [f for f in full.audit() if f.kind == "deal-numbers-skipped"]


# ---------------------------------------------------------------- a live game's renege (from the newcomer's findings)


def test_a_renege_in_a_deal_still_being_played_is_not_yet_established():
    """Mid-deal (a live game, rules.md 1.5): E's 9H on a clubs lead is a renege
    that can still be corrected until the trick is gathered; the deal is not
    abandoned, and the audit must not say so."""
    import sys
    sys.path.insert(0, os.path.dirname(__file__))
    from test_official_result import E, c3_events, pos
    from euchre_events.projections import Game
    from euchre_events.ui.auditreport import game_lines
    evs = c3_events()
    g = Game(evs[:pos(evs, E, "9H") + 2])
    text = "\n".join(game_lines(g, g.audit()))
    assert "not established yet (the trick is not gathered: it can still be corrected)" in text
    assert "abandoned" not in text
