"""Rules audit: corner cases worked out by hand from rules.md (the
tournament director's check), each a defect found and fixed, or a corner
that had no test.

Seats: 0 = N, 1 = E, 2 = S, 3 = W (side 0 = N/S, side 1 = E/W); P1.. for
the games without partnerships.  Every expected value is worked out in
the comments from the rules.md section cited.
"""
from euchre_events.formats.text import parse_text
from euchre_events.events import CardPlayed
from euchre_events.projections import Game


def one_game(text):
    (rec,) = parse_text(text)
    return Game(rec.events)


# ---------------------------------------------------------------- the C3 deal
# docs/cases.md C3 as played: trick winners E, S, W, W, W, so N/S (makers)
# take 1 trick and are euchred: E/W +2 (rules.md 2.6).  East reneged at
# trick 1 (9H on the KC lead holding TC), so N/S are the non-offending side.
C3_DEAL = """
Deal 1 dealer W
N: KC AS QD 9S TD
E: TC 9H AD KD JS
S: AC QC KS TS QH
W: JH AH KH 9C 9D
Up: TH
Kitty: JC JD QS
N pass  E pass  S order  W pickup  W discard 9D
T1: N KC  E 9H  S AC  W 9C
T2: E AD  S QH  W TH  N QD
T3: S KS  W KH  N AS  E JS
T4: W JH  N 9S  E TC  S TS
T5: W AH  N TD  E KD  S QC
"""


def c3_game(preset, initial):
    return one_game(f'[Variant "standard"]\n[Dealer "W"]\n[Option.renege_penalty "{preset}"]\n'
                    f'[InitialScore "{initial}"]\n' + C3_DEAL)


def test_casual_both_sides_reach_ten_first_to_reach_wins():
    # rules.md 2.7 casual: "the hand is played out and scored as usual, then
    # +2 to the other side"; 2.6: the game goes to the first side to 10.
    # From 9-8: the hand as played gives E/W 2 (8 -> 10: E/W reach 10 first),
    # then N/S score the renege's 2 (9 -> 11).  Official 11-10, and E/W won:
    # they were at 10 before N/S scored.  (Before the fix: N/S, the higher.)
    g = c3_game("casual", "9, 8")
    assert g.official_score == [11, 10]
    assert g.winner == 1
    assert g.as_played_winner == 1          # 9-10 as played: E/W


def test_casual_level_at_ten_first_to_reach_wins():
    # From 8-8: E/W 10 with the hand, then N/S 10 with the penalty: 10-10,
    # E/W got there first (before the fix: N/S, side 0, on the level score).
    g = c3_game("casual", "8, 8")
    assert g.official_score == [10, 10]
    assert g.winner == 1


def test_laws1888_penalty_scored_before_anything_else():
    # rules.md 1.5 (1888 Somerset Club laws): 3 points for a renege (not a
    # lone hand), "the penalty is scored before anything else".  From 7-9:
    # N/S first score the 3 (7 -> 10: N/S reach 10), then the hand stands,
    # E/W 2 (9 -> 11).  Official 10-11, and N/S won (before the fix: E/W,
    # the higher).
    g = c3_game("laws1888", "7, 9")
    assert g.official_score == [10, 11]
    assert g.winner == 0
    assert g.as_played_winner == 1          # 7-11 as played: E/W


def test_laws1888_penalty_alone_not_enough_then_the_hand_decides():
    # From 6-8: the 3 takes N/S to 9 (no one at 10), then the hand gives E/W
    # 10: E/W win, official 9-10 (only one side at 10: as before the fix).
    g = c3_game("laws1888", "6, 8")
    assert g.official_score == [9, 10]
    assert g.winner == 1


def test_tournament_one_side_scores_so_no_race():
    # rules.md 2.7 default: the hand ends, only N/S score 2: 8-9 -> 10-9.
    g = c3_game("tournament", "8, 9")
    assert g.official_score == [10, 9]
    assert g.winner == 0


# ---------------------------------------------------------- two-handed Euchre
# Dealer P2, KC up: clubs trump.  P1 orders up, P2 leaves the up-card (3.2).
# P2 holds JS, the left bower (a club here, rules.md 1.2), and plays AS on
# P1's AC lead: a renege at trick 1, shown at trick 2 (JS).
#   T1 P1 AC, P2 AS   -> P1 (trump)       T2 P1 9C, P2 JS -> P2 (left bower)
#   T3 P2 KD, P1 TD   -> P2               T4 P2 KS, P1 JH -> P2 (JH a plain heart)
#   T5 P2 9S, P1 9D   -> P2
# The maker P1 takes 1 trick: euchred, P2 +2 as played (rules.md 3.4).
TWO_HANDED_DEAL = """
Deal 1 dealer P2
P1: JH 9C 9D AC TD
P2: AS 9S KD KS JS
Up: KC
Kitty: JC QS QC AH AD TS QD 9H QH KH JD TC TH
P1 order  P2 decline
T1: P1 AC  P2 AS
T2: P1 9C  P2 JS
T3: P2 KD  P1 TD
T4: P2 KS  P1 JH
T5: P2 9S  P1 9D
"""


def test_two_handed_casual_first_to_reach_wins():
    # rules.md 3.5 (the four-handed rules apply) with the casual preset: the
    # hand is scored as played (P2 8 -> 10, P2 reaches 10 first), then P1
    # scores the renege's 2 (9 -> 11).  Official 11-10: P2 won (before the
    # fix: P1, the higher).
    g = one_game('[Variant "two-handed"]\n[Dealer "P2"]\n[Option.renege_penalty "casual"]\n'
                 '[InitialScore "9, 8"]\n' + TWO_HANDED_DEAL)
    (f,) = g.audit()
    assert (f.seat, f.trick, f.card, f.evidence) == (1, 1, "AS", ("JS",))
    assert g.final_score == [9, 10]
    assert g.official_score == [11, 10]
    assert g.winner == 1


def test_two_handed_tournament_renege():
    # rules.md 3.5 default: the hand stops and the other player scores 2.
    g = one_game('[Variant "two-handed"]\n[Dealer "P2"]\n' + TWO_HANDED_DEAL)
    assert g.final_score == [0, 2]
    assert g.official_score == [2, 0]


# ------------------------------------------------ Canadian rule, alone decided after the exchange
CANADIAN_AFTER_EXCHANGE = """[Variant "standard"]
[Dealer "W"]
[Option.dealers_partner_must_go_alone "true"]
[Option.alone_timing "after_exchange"]
Deal 1 dealer W
N: JH JD AH KH QH
E: 9C TC JC QC KC
S: AC 9D TD QD KD
W: AD 9S TS QS KS
Up: TH
Kitty: AS JS 9H
N pass
"""


def test_canadian_partner_may_assist_when_alone_is_decided_after_the_exchange():
    # rules.md 2.2 (Canada: a dealer's partner who orders up must play alone)
    # with alone_timing="after_exchange" (the maker says alone after the
    # dealer's discard): E, the dealer's partner, may assist (before the fix
    # only a pass was offered), and must then go alone.
    from euchre_events.events import OrderedUp, Passed, WentAlone
    g = one_game(CANADIAN_AFTER_EXCHANGE)
    s = g.state_at(len(g.events))
    assert s.turn == 1 and set(s.legal) == {Passed(1), OrderedUp(1)}
    g = one_game(CANADIAN_AFTER_EXCHANGE + "E order  W pickup  W discard 9S\n")
    s = g.state_at(len(g.events))
    assert s.phase == "alone" and s.turn == 1
    assert s.legal == (WentAlone(1),) and "must play alone" in s.legal_reason


# ------------------------------------------------------------ cutthroat (rules.md 4)
# Dealer P3: P1 eldest, P2 across, the dummy on P3's right.  P1 holds the
# five top hearts (JH JD AH KH QH); every other heart is the up-card TH or
# in the kitty (9H), so with hearts trump P1 leads trumps and takes all 5.
CUTTHROAT_DEAL = """[Variant "cutthroat"]
[Dealer "P3"]
{opts}[InitialScore "{initial}"]
Deal 1 dealer P3
P1: JH JD AH KH QH
P2: 9C TC JC QC KC
P3: AC 9D TD QD KD
Dummy: AD 9S TS QS KS
Up: TH
Kitty: AS JS 9H
{moves}
T1: P1 JH  P2 KC  P3 KD
T2: P1 JD  P2 QC  P3 QD
T3: P1 AH  P2 JC  P3 AC
T4: P1 KH  P2 TC  P3 TD
T5: P1 QH  P2 9C  P3 9D
"""
WITH_DUMMY = ("P1 order  P3 decline  P1 dummy  P1 discard AD  P1 discard 9S  P1 discard TS  "
              "P1 discard QS  P1 discard KS  P2 with-partner  P3 with-partner")
ALONE = "P1 order  P3 decline  P1 alone  P2 with-partner  P3 with-partner"


def cutthroat(moves, opts="", initial="0, 0, 0"):
    return one_game(CUTTHROAT_DEAL.format(opts=opts, initial=initial, moves=moves))


def test_cutthroat_march_values():
    # 4.5: a march with the dummy scores 3; alone without it 3 (the source),
    # 4 with lone_no_dummy_march; case C12's "2 for a march" house rule is
    # the option march_value (before: no such option).
    assert cutthroat(WITH_DUMMY).final_score == [3, 0, 0]
    assert cutthroat(WITH_DUMMY, '[Option.march_value "2"]\n').final_score == [2, 0, 0]
    assert cutthroat(ALONE).final_score == [3, 0, 0]
    assert cutthroat(ALONE, '[Option.lone_no_dummy_march "4"]\n').final_score == [4, 0, 0]
    # march_value is the march of a maker with the dummy only
    assert cutthroat(ALONE, '[Option.march_value "2"]\n').final_score == [3, 0, 0]


def test_cutthroat_march_to_exactly_ten_wins():
    # 4.5: first to 10.  P1 at 7 marches (3): 10, the target exactly.
    g = cutthroat(WITH_DUMMY, initial="7, 9, 9")
    assert g.official_score == [10, 9, 9] and g.winner == 0


# ------------------------------------------------------------------ Buck (rules.md 6)
# Dealer P4, up-card TH.  P1 holds the five top hearts: P1 orders up, P4
# takes the TH and discards 9S; P1 leads trumps and takes all 5 tricks.
BUCK_DEAL = """[Variant "buck"]
[Dealer "P4"]
{opts}[InitialScore "{initial}"]
Deal 1 dealer P4
P1: JH JD AH KH QH
P2: 9C TC JC QC KC
P3: AC 9D TD QD KD
P4: AD 9S TS QS KS
Up: TH
Kitty: AS JS 9H
P1 order  P4 pickup  P4 discard 9S  {drops}
"""


def buck(drops, opts="", initial="25, 25, 25, 25"):
    return one_game(BUCK_DEAL.format(opts=opts, initial=initial, drops=drops))


def test_buck_drop_forbidden_by_the_score_limit_is_flagged():
    # rules.md 6.7 noDropAtOrBelow5: P2 at 5 may not drop.  A record where
    # P2 drops anyway is kept (illegal but real) and flagged; before the fix
    # it was accepted silently and scored as a drop (0 for P2).
    g = buck("P2 drop  P3 stay  P4 stay", '[Option.no_drop_at_or_below "5"]\n', "25, 5, 25, 25")
    (flag,) = [f for f in g.final.flags if f.kind == "forbidden-drop"]
    assert flag.seat == 1 and "at 5 or below may not drop" in flag.text
    # P2 legally offered only "stay"
    s = buck("", '[Option.no_drop_at_or_below "5"]\n', "25, 5, 25, 25")
    st = s.state_at(len(s.events))
    assert st.turn == 1 and [e.kind for e in st.legal] == ["StayedIn"]


def test_buck_last_player_may_not_drop_is_flagged():
    # 6.2 alternative (last_may_not_drop): P2 and P3 dropped, so P4 may not.
    g = buck("P2 drop  P3 drop  P4 drop", '[Option.last_may_not_drop "true"]\n')
    assert [f.seat for f in g.final.flags if f.kind == "forbidden-drop"] == [3]
    assert not [f for f in buck("P2 drop  P3 drop  P4 stay", '[Option.last_may_not_drop "true"]\n')
                .final.flags if f.kind == "forbidden-drop"]


def test_buck_drop_out_scoring_and_all_five():
    # 6.4: the maker P1 takes 5 tricks: -5 (25 -> 20) and wins at once; P3
    # stayed in with no trick: +5; the dropped P2 and P4 score 0.
    g = buck("P2 drop  P3 stay  P4 drop")
    g = Game(list(g.events) + [CardPlayed(s, c) for s, c in (
        (0, "JH"), (2, "KD"), (0, "JD"), (2, "QD"), (0, "AH"), (2, "TD"),
        (0, "KH"), (2, "9D"), (0, "QH"), (2, "AC"))])
    assert g.final_score == [20, 25, 30, 25]
    assert g.winner == 0


# ------------------------------------------------------------ Ghost Hand (rules.md 5)
# Dealer P3; P1 bids first.  P3 bids 3 and names diamonds; P1 holds both
# bowers (JD right, JH left: a diamond here, rules.md 1.2).
#   T1 P3 AD, P1 JD (must follow trump), P2 9C      -> P1 (right bower)
#   T2 P1 JH (left bower), P2 TC, P3 9D (trump)     -> P1
#   T3 P1 AH, P2 JC, P3 9H (must follow hearts)     -> P1
#   T4 P1 KH, P2 QC, P3 TD (void in hearts: trump)  -> P3
#   T5 P3 KD, P1 QH, P2 KC                          -> P3
#   T6 P3 QD, P1 TH, P2 AC                          -> P3
# P1 3 tricks, P2 0, P3 3: P3 made 3 (+3), P1 +3, P2 0 (5.4).
GHOST_DEAL = """[Variant "ghost-hand"]
[Dealer "P3"]
{opts}[InitialScore "{initial}"]
Deal 1 dealer P3
P1: JH JD AH KH QH TH
P2: 9C TC JC QC KC AC
P3: 9D TD QD KD AD 9H
Ghost: 9S TS JS QS KS AS
P1 pass  P2 pass  P3 bid {bid}  P3 name D
T1: P3 AD  P1 JD  P2 9C
T2: P1 JH  P2 TC  P3 9D
T3: P1 AH  P2 JC  P3 9H
T4: P1 KH  P2 QC  P3 TD
T5: P3 KD  P1 QH  P2 KC
T6: P3 QD  P1 TH  P2 AC
"""


def ghost(initial, opts="", bid="3"):
    return one_game(GHOST_DEAL.format(opts=opts, initial=initial, bid=bid))


def test_ghost_hand_scores_and_ties_at_32():
    assert ghost("0, 0, 0").final_score == [3, 0, 3]
    assert ghost("0, 0, 0", bid="4").final_score == [3, 0, -4]      # set: minus the bid
    assert ghost("0, 0, 0", bid="moon").final_score == [3, 0, -24]  # failed moon: -24 (5.4)
    assert ghost("0, 0, 0", '[Option.failed_moon_penalty "bid"]\n', "moon").final_score == [3, 0, -6]
    # 5.5: both at 32 exactly, level: play another hand (no winner)
    g = ghost("29, 0, 29")
    assert g.official_score == [32, 0, 32] and g.winner is None and not g.final.game_over
    # 33 against 32: the highest wins
    assert ghost("30, 0, 29").winner == 0
    # bidder_out: only the bidder who made it (P3) may win on this hand, so
    # P3 at 32 wins though P1 has 33
    assert ghost("30, 0, 29", '[Option.bidder_out "true"]\n').winner == 2
    # set bidder: only the others may win; P3's 4 set lets P1 (29 + 3) win
    assert ghost("29, 0, 31", '[Option.bidder_out "true"]\n', "4").winner == 0


# ------------------------------------- standard renege value with a lone defender (rules.md 2.7)
# Dealer W, up-card TH; N orders up, W takes the TH and discards 9S; E
# declines to defend alone, W defends alone (E sits out).  N leads AD; S
# (N's partner) holds 9D TD QD KD and plays AC: a renege by the makers
# against a lone defender, shown at trick 2 (9D).
#   T1 N AD, S AC, W KS -> N     T2 N JH, S 9D, W TH -> N   T3 N JD, S TD, W QH -> N
#   T4 N AH, S QD, W TS -> N     T5 N KH, S KD, W QS -> N   (a march: N/S 2 as played)
VS_LONE_DEFENDER = """[Variant "standard"]
[Dealer "W"]
[Option.defend_alone "any"]
{opts}
Deal 1 dealer W
N: JH JD AH KH AD
E: 9C TC JC QC KC
S: AC 9D TD QD KD
W: QH 9S TS QS KS
Up: TH
Kitty: AS JS 9H
N order  W pickup  W discard 9S  E with-partner  W defend-alone
T1: N AD  S AC  W KS
T2: N JH  S 9D  W TH
T3: N JD  S TD  W QH
T4: N AH  S QD  W TS
T5: N KH  S KD  W QS
"""

# Dealer W; N orders up alone (S sits out), W takes the TH and discards AD,
# E declines, W defends alone (E sits out); under left_of_loner the lone
# defender leads when both are alone (2.5).  N trumps W's KS while holding
# 9S: a renege by the lone maker, shown at trick 5.
#   T1 W KS, N JH -> N   T2 N JD, W QH -> N   T3 N AH, W TH -> N
#   T4 N KH, W TS -> N   T5 N 9S, W QS -> W   (N 4 tricks: N/S 1 as played)
BOTH_ALONE = """[Variant "standard"]
[Dealer "W"]
[Option.defend_alone "any"]
[Option.loner_lead "left_of_loner"]
{opts}
Deal 1 dealer W
N: JH JD AH KH 9S
E: 9C TC JC QC KC
S: AC 9D TD QD KD
W: QH AD TS QS KS
Up: TH
Kitty: AS JS 9H
N order alone  W pickup  W discard AD  E with-partner  W defend-alone
T1: W KS  N JH
T2: N JD  W QH
T3: N AH  W TH
T4: N KH  W TS
T5: N 9S  W QS
"""


def test_renege_by_the_makers_against_a_lone_defender_costs_two():
    # rules.md 2.7 default: "The non-offending side scores 2"; 4 only for a
    # renege "by a defender against a lone maker" (and, under the symmetric
    # toggle, by the lone maker).  A renege by the makers against a lone
    # defender is neither: E/W score 2 (before the fix: 4).
    g = one_game(VS_LONE_DEFENDER.format(opts=""))
    (f,) = g.audit()
    assert (f.seat, f.trick, f.card, f.proven["trick"]) == (2, 1, "AC", 2)
    assert g.final_score == [2, 0]                 # the march as played
    assert f.penalty_points == (0, 2) and g.official_score == [0, 2]


def test_renege_by_the_lone_maker_facing_a_lone_defender():
    # The lone maker reneges: 2 to the defenders by default, 4 under
    # renege_symmetric (2.7).  The lone defender on the other side does not
    # make it a renege "against a lone maker" (before the fix: 4 by default).
    g = one_game(BOTH_ALONE.format(opts=""))
    (f,) = g.audit()
    assert (f.seat, f.trick, f.card, f.proven["trick"]) == (0, 1, "JH", 5)
    assert g.final_score == [1, 0]
    assert f.penalty_points == (0, 2) and g.official_score == [0, 2]
    g = one_game(BOTH_ALONE.format(opts='[Option.renege_symmetric "true"]'))
    assert g.official_score == [0, 4]


# ------------------------------------------------------------ Bid Euchre (rules.md 7)
# The C10 deal (docs/cases.md), dealer W.  N bids partner's best in hearts:
# S gives the best trump it holds (QH), N gives 9S back; S sits out.
# N: JH JD AH KH QH 9C.  T1-T5 N leads trumps (E and W hold none) -> N;
# T6 N 9C, E KS, W AC -> W.  N takes 5 of 6: partner's best failed.
BID_PB = """[Variant "bid"]
[Dealer "W"]
{opts}
Deal 1 dealer W
N: JH JD AH KH 9S 9C
E: AS KS QS JS TS TD
S: QH TH 9H AD KD QD
W: AC KC QC JC TC 9D
N bid pb  E pass  S pass  W pass  N name H
S give QH to N  N give 9S to S
T1: N JH  E TD  W 9D
T2: N JD  E TS  W TC
T3: N AH  E JS  W JC
T4: N KH  E QS  W QC
T5: N QH  E AS  W KC
T6: N 9C  E KS  W AC
"""


def test_bid_failed_partners_best_penalty_and_toggle():
    # 7.5: partner's best failed: -12 (the value it could have won), toggle
    # -6 (failed_pb_penalty); E/W score their 1 trick either way.
    assert one_game(BID_PB.format(opts="")).final_score == [-12, 1]
    assert one_game(BID_PB.format(opts='[Option.failed_pb_penalty "6"]')).final_score == [-6, 1]


def test_must_hold_named_suit_with_unknown_hands():
    # Case C5's option must_hold_named_suit (a round-2 caller must hold the
    # suit named).  A hand the record does not state ("??") may hold any
    # suit: every suit but the turned-down one is offered, and the call is
    # not flagged named-suit-not-held (before the fix: only a pass was
    # offered, and the call was flagged, accusing an unknown hand).
    # Known hands keep the rule: E (9C TC JC QC KC) may name clubs only.
    from euchre_events.events import TrumpNamed
    head = """[Variant "standard"]
[Dealer "W"]
[Option.must_hold_named_suit "true"]
Deal 1 dealer W
N: ?? ?? ?? ?? ??
E: 9C TC JC QC KC
S: ?? ?? ?? ?? ??
W: ?? ?? ?? ?? ??
Up: 9S
N pass  E pass  S pass  W pass
"""
    g = one_game(head)
    s = g.state_at(len(g.events))
    assert s.turn == 0 and {e.suit for e in s.legal if isinstance(e, TrumpNamed)} == {"C", "D", "H"}
    g = one_game(head + "N name H\n")
    assert g.final.trump == "H" and not [f for f in g.final.flags if f.kind == "named-suit-not-held"]
    g = one_game(head + "N pass\n")
    s = g.state_at(len(g.events))
    assert {e.suit for e in s.legal if isinstance(e, TrumpNamed)} == {"C"}
    g = one_game(head + "N pass  E name H\n")
    assert [f.seat for f in g.final.flags if f.kind == "named-suit-not-held"] == [1]


def test_legal_reason_does_not_call_an_unknown_hand_void():
    # rules.md 1.3: a seat holding none of the led suit may play any card.
    # With cards the record does not state, the seat is not known to be
    # void: the reason says so instead of "void in clubs" (the legal list,
    # the known cards, is unchanged).
    text = """[Variant "standard"]
[Dealer "W"]
Deal 1 dealer W
N: 9C KC QC JC TC
E: AH KH QH ?? ??
S: ?? ?? ?? ?? ??
W: ?? ?? ?? ?? ??
Up: 9S
N order  W pickup  W discard ??
N 9C
"""
    g = one_game(text)
    s = g.state_at(len(g.events))
    assert s.turn == 1 and {e.card for e in s.legal} == {"AH", "KH", "QH"}
    assert "void" not in s.legal_reason and "may include clubs" in s.legal_reason


def test_record_starting_level_at_the_target_is_over_with_no_known_winner():
    # rules.md 1.6: a record that starts at 10-10 of 10 starts after the game
    # was won, but not by whom: flagged, and no winner is invented (before
    # the fix: N/S, side 0).
    g = c3_game("tournament", "10, 10")
    assert [f.kind for f in g.audit() if f.kind == "started-after-game-won"] == ["started-after-game-won"]
    assert g.winner is None and g.final.game_over
    assert g.official_score == [10, 10]


def test_audit_text_says_why_the_lower_score_won():
    # The director reads aloud "official 11-10, winner E/W": the line says why
    # (rules.md 1.6 first to the target; 2.7 casual: hand first, then penalty).
    from euchre_events.ui.auditreport import game_lines
    g = c3_game("casual", "9, 8")
    head = game_lines(g, g.audit())[0]
    assert ("official winner: East-West, who reached 10 first: both sides reached it on the "
            "last deal, and the hand is scored before the renege penalty (rules.md 2.7); as played") in head, head
    level = game_lines(c3_game("casual", "8, 8"), ())[0]
    assert "who reached 10 first" in level
    laws = c3_game("laws1888", "7, 9")          # N/S won 10-11 (the penalty first, rules.md 1.5)
    assert "the renege penalty is scored before the hand (rules.md 1.5)" in game_lines(laws, ())[0]
    plain = one_game('[Variant "standard"]\n[Dealer "W"]\n[InitialScore "8, 8"]\n' + C3_DEAL)
    assert "first" not in game_lines(plain, plain.audit())[0]
