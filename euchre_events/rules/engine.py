"""The shared rules engine of the Euchre family (docs/design.md, "What a variant is").

A :class:`Table` is the working state of a game; :func:`apply` folds one event
into it, checking that the event is *possible* (a card in the hand, a seat on
turn, a phase that admits it).  Illegal-but-real plays (reneges) are *not*
refused: the trick engine records a finding with its evidence and carries on
(docs/design.md, "Three kinds of wrong").

What every variant shares lives here: dealing bookkeeping, trick play
(effective suit, follow-suit legality, trick winner, who leads next, seats that
sit out), renege detection, deal scoring hand-off and game end.  A
:class:`Variant` supplies what differs: deck and deal shape, the auction and
exchanges (its phases), who leads, scoring, the winner and renege penalties.

Pure: no I/O.
"""
from __future__ import annotations

import dataclasses
from functools import lru_cache
from itertools import chain, product
from operator import itemgetter
from typing import Any, Optional, Sequence

from euchre_events.events import (CardPlayed, CardsDealt, DealStarted, DealThrownIn, Event,
                                  GameStarted, number_problem)
from euchre_events.rules import cards as C
from euchre_events.rules import claims
from euchre_events.rules.cards import UNKNOWN, base, effective_suit, winning_index
from euchre_events.rules.playcore import next_seats
from euchre_events.rules.variant import PLAY_HOOKS
from euchre_events.rules.registry import make_variant
from euchre_events.rules.seats import score_text
# the working state and the variant base, re-exported: the engine is their face
from euchre_events.rules.table import (DEAL, DEAL_OVER, DEALING, GAME_OVER, PLAY, START, THROWN_IN,
                                       DealEnd, DealOutcome, ImpossibleEvent, Irregularity, Phase, Renege,
                                       Table, UpCardStatus, flag)
from euchre_events.rules.variant import Variant, VariantOptions, options_from_dict

__all__ = ["ImpossibleEvent", "Irregularity", "Phase", "Renege", "Table", "UpCardStatus", "flag", "Variant",
           "VariantOptions", "options_from_dict", "new_table", "apply", "fold",
           "legal_actions", "play_legal", "play_actions", "apply_legal"]


# --------------------------------------------------------------------- fold

_NO_UP_CARD, _FACE_UP = UpCardStatus.NONE, UpCardStatus.FACE_UP  # globals: see table.PLAY


def new_table() -> Table:
    """An empty working table, ready for a GameStarted event."""
    return Table()


def apply(t: Table, ev: Event) -> None:
    """Fold one event into the table (in place).

    Raises :class:`ImpossibleEvent` (with ``position`` and ``deal`` filled in)
    when the record cannot contain the event, among them an event holding a
    number that is not a whole number within
    :data:`~euchre_events.events.MAX_NUMBER` (every way into the archive
    folds here: this is the one check of stored numbers).
    """
    problem = number_problem(ev)
    if problem is not None:
        raise _placed(ImpossibleEvent(problem), t, ev)
    # apply_legal's body, not a call to it: every replay folds here, and the call cost 2.5%
    try:
        _apply(t, ev)
    except KeyError as k:  # a card code that belongs to no deck
        raise _placed(ImpossibleEvent(f"{k.args[0]!r} is not a card of this game"), t, ev) from None
    except ImpossibleEvent as e:
        raise _placed(e, t, ev)
    t.pos += 1


def apply_legal(t: Table, ev: Event) -> None:
    """:func:`apply` of an action that :func:`legal_actions` gave for ``t``
    (the solver's search folds thousands a deal): the same fold, without
    the check of the event's numbers, which are the engine's own."""
    try:
        _apply(t, ev)
    except KeyError as k:  # a card code that belongs to no deck
        raise _placed(ImpossibleEvent(f"{k.args[0]!r} is not a card of this game"), t, ev) from None
    except ImpossibleEvent as e:
        raise _placed(e, t, ev)
    t.pos += 1


def _placed(e: ImpossibleEvent, t: Table, ev: Event) -> ImpossibleEvent:
    """``e`` with where it happened filled in where not yet: the table's
    position and deal, and the event."""
    if e.position is None:
        e.position = t.pos
    if e.deal is None and t.deal_no:
        e.deal = t.deal_no
    if e.event is None:
        e.event = ev
    return e


def _apply(t: Table, ev: Event) -> None:
    k = ev.kind
    if k == "CardPlayed":
        if t.phase != PLAY:
            raise ImpossibleEvent(f"a card is played outside the play of tricks (phase {t.phase})")
        _play(t, ev)
        return
    if k == "PlayCorrected":
        _play_corrected(t, ev)
        return
    if k == "RenegeClaimed" or k == "RenegeRuled":
        if t.phase == START:
            raise ImpossibleEvent("the first event must be GameStarted")
        _claim_or_ruling(t, ev)
        return
    if k == "GameStarted":
        if t.phase != START:
            raise ImpossibleEvent("GameStarted can only be the first event")
        _start(t, ev)
        return
    if t.phase == START:
        raise ImpossibleEvent("the first event must be GameStarted")
    if k == "DealStarted":
        redeal = t.phase not in (DEAL, DEAL_OVER, GAME_OVER)
        if t.dealer is not None and (ev.deal < t.deal_no or ev.deal == t.deal_no and not redeal):
            # claims, rulings, penalties and the audit name a deal by its number; only a
            # deal stopped before its end may be dealt again under its own number
            raise ImpossibleEvent(f"deal {ev.deal} follows deal {t.deal_no}: each deal's number must be "
                                  "higher than the one before (or the same, to deal again a deal "
                                  "stopped before its end)")
        if redeal:      # a misdeal, or a hand stopped: kept and flagged, never refused
            _abandon(t)
        _deal_started(t, ev, check_rotation=not redeal)
        if t.game_over:  # officially won already: the record goes on, flagged (rules.md 1.6)
            flag(t, "played-after-game-won", _after_won_text(ev.deal, t.official_scores), ev.dealer)
        return
    if t.phase == GAME_OVER:
        raise ImpossibleEvent("the game is over: only a new deal may follow "
                              "(kept, and flagged as played after the game was won)")
    if k == "CardsDealt":
        if t.phase != DEALING:
            raise ImpossibleEvent(f"cards dealt outside a deal's start (phase {t.phase})")
        _cards_dealt(t, ev)
        return
    if k == "DealThrownIn":
        if t.phase != THROWN_IN and not t.variant.may_throw_in(t, ev):
            raise ImpossibleEvent(f"the deal cannot be thrown in now (phase {t.phase})")
        zero = (0,) * t.variant.n_sides
        t.deal_results.append((t.deal_no, zero, ev.reason))
        t.phase = DEAL_OVER
        t.turn = None
        if t.as_played_winner is None:   # a game of a fixed number of deals may end here (rules.md 2.9)
            t.as_played_winner = t.variant.game_winner(t, t.scores)
        _deal_done(t, zero, "thrown in")
        return
    seat = getattr(ev, "seat", None)
    if seat is not None and ev.by_seat and t.turn is not None and seat != t.turn:
        raise ImpossibleEvent(f"seat {seat} acts out of turn (seat {t.turn} is to act)")
    t.variant.apply(t, ev)


def _start(t: Table, ev: GameStarted) -> None:
    v = make_variant(ev.variant, ev.options)  # shared per (name, options); ValueError for a bad one
    t.variant = v
    t.options = v.options
    t.players = tuple(ev.players)
    t.n_seats = v.n_seats
    if len(t.players) != v.n_seats:
        raise ImpossibleEvent(f"{len(t.players)} players named; {v.name} has {v.n_seats} seats")
    init = ev.initial_score
    t.scores = list(init) if init else v.initial_scores()
    if len(t.scores) != v.n_sides:
        raise ImpossibleEvent(f"initial score has {len(t.scores)} entries, {v.name} has {v.n_sides} sides")
    t.initial_score = tuple(t.scores)
    t.title = ev.title
    t.source = ev.source
    t.dealer = None
    t.first_dealer = ev.first_dealer
    t.phase = DEAL
    t.game_over = False
    t.winner = None
    t.tokens = []
    t.official_scores = list(t.scores)
    t.official_results, t.claims, t.rulings, t.open_reneges = [], [], [], []
    t.deal_outcomes, t.deal_ends = [], []
    t.as_played_winner = None
    # a fragment that starts where the game is already won: kept, flagged, and
    # its deals count for nothing (rules.md 1.6)
    w = v.game_winner(_AtDealEnd(t, DealEnd(None, None, (0,) * t.n_seats, frozenset()), -1), t.scores)
    if w is not None:
        flag(t, "started-after-game-won",
             f"the record starts at {score_text(t.scores)}, where the game is already won; "
             "its deals count for nothing")
        t.game_over = True
        t.winner = w if isinstance(w, int) else None


def _deal_started(t: Table, ev: DealStarted, check_rotation: bool = True) -> None:
    if not 0 <= ev.dealer < t.n_seats:
        raise ImpossibleEvent(f"dealer seat {ev.dealer} does not exist")
    out_of_rotation = None
    # deals missing from the record (deal 5 after deal 1): said, as the score counts only
    # the deals recorded; whose deal it is cannot be judged across the gap
    skipped = check_rotation and t.dealer is not None and ev.deal > t.deal_no + 1
    if check_rotation and not skipped and t.dealer is not None and t.phase in (DEAL_OVER, GAME_OVER):
        expected = t.variant.next_dealer(t)
        if ev.dealer != expected:
            out_of_rotation = expected
    before = t.deal_no
    t.deal_no = ev.deal
    if skipped:
        missing = f"deal {before + 1}" if ev.deal == before + 2 else f"deals {before + 1} to {ev.deal - 1}"
        flag(t, "deal-numbers-skipped",
             f"deal {ev.deal} follows deal {before}: {missing} {'is' if ev.deal == before + 2 else 'are'} "
             "not in the record; the score counts the deals recorded")
    if out_of_rotation is not None:   # flagged on the deal dealt out of turn, not the one before
        flag(t, "dealer-out-of-rotation",
             f"seat {ev.dealer} deals deal {ev.deal}; by rotation seat {out_of_rotation} should deal "
             "(rules.md 1.4)", ev.dealer)
    t.dealer = ev.dealer
    t.phase = DEALING
    t.turn = None
    t.hands = [[] for _ in range(t.n_seats)]
    t.dealt = ()
    t.up_card = None
    t.up_status = _NO_UP_CARD
    t.kitty, t.dummy, t.ghost, t.dead, t.discards = [], [], [], [], []
    t.trump = None
    t.maker = t.alone = t.lone_defender = None
    t.out = frozenset()
    t.out_of_turn = False
    t.auction = t.contract = None  # the variant starts its own at CardsDealt
    t.leader = None
    t.trick, t.tricks = [], []
    t.tricks_won = [0] * t.n_seats
    t.seen = set()
    t.led_suit = None
    t.deal_start_pos = t.pos
    t.low = False
    t.open_reneges = []


_VAGUE = frozenset((UNKNOWN, *C.UNKNOWN_OF.values()))
"""The codes of cards a record does not state (or states the suit of only)."""


def _cards_dealt(t: Table, ev: CardsDealt) -> None:
    v = t.variant
    v.check_dealt(t, ev)
    deck = v.__dict__.get("_deck_set")  # the variant's deck, cached on the (cached) variant
    if deck is None:
        deck = v._deck_set = frozenset(v.deck())
    hands = ev.hands
    known = list(chain(*hands, ev.kitty, ev.dummy, ev.ghost))
    if ev.up_card is not None:
        known.append(ev.up_card)
    seen = set(known)
    vague = {c for c in seen if c[0] == "?"}   # "??" and "?D": no card of the deck named
    seen -= vague
    n_vague = sum(1 for c in known if c in vague) if vague else 0
    if len(seen) != len(known) - n_vague or not seen <= deck or not vague <= _VAGUE:
        seen = set()  # find and name the first bad card
        groups = [("seat %d's hand" % s, h) for s, h in enumerate(ev.hands)]
        groups += [("the kitty", ev.kitty), ("the dummy", ev.dummy), ("the ghost hand", ev.ghost)]
        if ev.up_card is not None:
            groups.append(("the up-card", (ev.up_card,)))
        for where, cards in groups:
            for c in cards:
                if c in _VAGUE:
                    continue
                if c not in deck:
                    raise ImpossibleEvent(f"{c} in {where} is not a card of this deck")
                if c in seen:
                    raise ImpossibleEvent(f"{c} is dealt twice (again in {where})")
                seen.add(c)
    t.seen = seen
    t.hands = list(map(list, hands))
    t.dealt = tuple(map(tuple, hands))
    t.up_card = ev.up_card
    t.up_status = _FACE_UP if ev.up_card is not None else _NO_UP_CARD
    t.kitty = list(ev.kitty)
    t.dummy = list(ev.dummy)
    t.ghost = list(ev.ghost)
    v.start_auction(t)


def _gather(t: Table, trick: list, winner: int) -> None:
    """The trick ``trick`` (``[(seat, card)]``, complete) is won by seat
    ``winner``: it is kept, counted, and the winner leads the next
    (rules.md 1.3).  Shared by :func:`_play` and :func:`_fast_plays`."""
    t.tricks.append((trick[0][0], tuple(trick), winner))
    t.tricks_won[winner] += 1
    t.trick = []
    t.led_suit = None
    t.leader = winner
    t.turn = winner


def _play(t: Table, ev: CardPlayed) -> None:
    # the replay hot path: locals and table lookups (cards.suit_and_power).
    # fold()'s _fast_plays folds the common case of this function for
    # variants that keep the base _PLAY_HOOKS; the two share the turn
    # (playcore.next_seats), the gathering of a trick (_gather) and the
    # trick keys (cards.trick_keys, behind Variant.trick_winner).
    seat = ev.seat
    card = ev.card
    if t.open_reneges:
        _track_reneges(t, seat, card)
    if seat != t.turn:
        _out_of_turn(t, seat)
    hand = t.hands[seat]
    trump = t.trump
    v = t.variant
    eff = C.suit_and_power(trump)[0]
    if not t.trick:
        if card[0] == "?":   # "??", or "?D": the led suit only if the record decides it
            suits = _suits(t, card)
            t.led_suit = next(iter(suits)) if len(suits) == 1 else None
        else:  # a joker led at no-trump has no suit: eff gives None
            t.led_suit = eff[card] if card in eff else effective_suit(card, trump)
    else:
        led = t.led_suit
        if card[0] == "?" or (led is None and t.trick[0][1][0] == "?"):
            _follow_unknown(t, seat, card)
        elif (led is not None
                and (eff[card] if card in eff else effective_suit(card, trump)) != led
                and not v.exempt_from_following(t, card)):
            held = C.cards_of_suit(hand, led, trump)
            if held:
                _renege(t, seat, card, led, held, len(t.tricks) + 1)
            elif any(c[0] == "?" and c != UNKNOWN for c in hand):
                _follow_unknown(t, seat, card)   # a "?D" held may be of the led suit
    try:
        hand.remove(card)
    except ValueError:  # not in the hand: a "??" may stand for it, or it is impossible
        t.remove_card(seat, card)
    if card[0] != "?":   # an unknown card names no card: two "?D" may both be played
        t.seen.add(card)
    trick = t.trick
    trick.append((seat, card))
    if len(trick) < v.trick_size(t):
        t.turn = next_seats(t.n_seats, t.out)[seat]
        if t.out_of_turn:  # after a card out of turn: the next seat yet to play
            played = {s for s, _ in trick}
            while t.turn in played:
                t.turn = t.next_active(t.turn)
        v.after_card(t)
        return
    t.out_of_turn = False
    cards = [c for _, c in trick]
    w = _decided_winner(t, cards) if any(c[0] == "?" for c in cards) else v.trick_winner(t, cards)
    _gather(t, trick, trick[w][0])
    if len(t.tricks) >= v.tricks_in_deal(t) or v.after_trick(t):
        _end_deal(t)


_MAX_COMPLETIONS = 50_000
"""How many ways of reading a trick's unknown cards :func:`_decided_winner`
tries before it gives up (and refuses: never a guess)."""


def _decided_winner(t: Table, cards: list) -> int:
    """Index of the winner of a complete trick holding unknown cards (``??``,
    ``?D``), when the record decides it: every card each unknown could be
    (of its printed suit, not yet seen in the deal) gives the same winner.
    Otherwise the deal cannot be replayed as recorded: raises
    :class:`ImpossibleEvent` saying so (docs/design.md "Three kinds of wrong":
    unknown stays unknown, never guessed)."""
    v = t.variant
    taken = set(t.seen)
    taken.update(c for c in cards if c[0] != "?")
    slots = [i for i, c in enumerate(cards) if c[0] == "?"]
    choices = []
    for i in slots:
        c = cards[i]
        opts = [d for d in v.deck() if d not in taken and (c == UNKNOWN or C.suit_of(d) == c[1])]
        if not opts:
            raise ImpossibleEvent(f"no {C.card_name(c)[2:]} is left for card {i + 1} of trick "
                                  f"{len(t.tricks) + 1}: every one was dealt elsewhere or played")
        choices.append(opts)
    winners = set()
    for n, pick in enumerate(product(*choices)):
        if len(set(pick)) < len(pick):
            continue
        if n >= _MAX_COMPLETIONS:
            winners.add(None)
            break
        concrete = list(cards)
        for i, d in zip(slots, pick):
            concrete[i] = d
        winners.add(v.trick_winner(t, concrete))
        if len(winners) > 1:
            break
    if len(winners) != 1 or None in winners:
        names = ", ".join(C.card_name(cards[i]) for i in slots)
        raise ImpossibleEvent(
            f"who wins trick {len(t.tricks) + 1} cannot be decided: the record does not say "
            f"which card is {names}, and the winner depends on it (refused rather than guessed)")
    return winners.pop()


def _suits(t: Table, card: str) -> set:
    """The effective suits ``card`` may have: those of the cards of the deck
    it may be (its printed suit, not yet seen in this deal).  A ``"?S"``
    whose jack is seen elsewhere is a plain spade, not the left bower."""
    if card[0] != "?":
        return set(C.possible_suits(card, t.trump))
    eff = C.suit_and_power(t.trump)[0]
    return {eff[d] if d in eff else effective_suit(d, t.trump) for d in t.variant.deck()
            if d not in t.seen and (card == UNKNOWN or C.suit_of(d) == card[1])}


def _follow_unknown(t: Table, seat: int, card: str) -> None:
    """The follow-suit check (rules.md 1.3) for a play that the record leaves
    open: the lead, the card or a card still held is unknown or of unknown
    rank.  A renege that holds whichever card each one is is recorded as
    usual; one that depends on a card the record does not state is flagged
    ``could-not-decide`` (never guessed either way).  A ``??`` still held
    is not evidence: the record does not say what it is."""
    trump = t.trump
    hand = list(t.hands[seat])
    if card in hand:
        hand.remove(card)   # the card played is not one held back
    lead = t.trick[0][1]
    led_suits = {t.led_suit} if t.led_suit is not None else _suits(t, lead)
    mine = _suits(t, card)
    if card[0] != "?" and t.variant.exempt_from_following(t, card):
        return
    doubt = []
    for led in sorted(s for s in led_suits if s is not None):
        if mine == {led}:
            continue   # whatever it is, it follows
        sure = C.cards_of_suit(hand, led, trump)
        vague = [c for c in hand if c[0] == "?" and c != UNKNOWN and led in _suits(t, c)]
        sure += [c for c in vague if _suits(t, c) == {led}]
        if len(led_suits) == 1 and led not in mine and sure:
            _renege(t, seat, card, led, sure, len(t.tricks) + 1)
            return
        if sure or vague:
            doubt.append((led, sure or vague))
    if doubt:
        held = "; ".join(f"if {C.SUIT_NAMES[led]} were led, holding "
                         + ", ".join(C.card_name(c) for c in cards) for led, cards in doubt)
        flag(t, "could-not-decide",
             f"could not decide whether seat {seat} followed suit in trick {len(t.tricks) + 1}: "
             f"{C.card_name(lead)} was led and seat {seat} played {C.card_name(card)} ({held}); "
             "whether that was a renege depends on cards the record does not state", seat)


def _renege(t: Table, seat: int, card: str, led: str, held: list, trick_no: int) -> None:
    """Record a :class:`Renege` at the event being folded: ``seat`` played
    ``card`` to trick ``trick_no`` while holding ``held`` of the led suit."""
    lone_seats = {s for s in (t.alone, t.lone_defender) if s is not None}
    t.open_reneges.append(len(t.reneges))
    t.reneges.append(Renege(
        position=t.pos, deal=t.deal_no, trick=trick_no, seat=seat, card=card, led_suit=led,
        evidence=tuple(held), lone=bool(lone_seats),
        against_lone=any(t.side_of(s) != t.side_of(seat) for s in lone_seats),
        by_lone=seat in lone_seats, maker=t.maker))


def _play_corrected(t: Table, ev: Event) -> None:
    """Fold a :class:`~euchre_events.events.PlayCorrected` (rules.md 1.5: a
    card taken back before the trick is gathered, no score penalty).

    The card must be in the trick being played, or in the trick just
    completed while no card of the next trick has been played and the deal
    is not yet scored (a correction to the deal's last trick must therefore
    come before its last card); it must not be the card that led the trick
    (the led suit, and so every other card's legality, stays as it was).
    ``replacement`` leaves the hand and takes the card's place in the trick
    (same position in play order); the card goes back to the hand.  A renege
    recorded for the card is marked ``corrected_at`` (kept for the audit);
    the replacement is checked for a renege as any card.  If the trick was
    complete, its winner is recomputed with the variant's ``trick_winner``
    (tricks won, and the leader and seat on turn of the next trick, follow).
    A joker led at no-trump names its suit in an event that is gathered
    with the trick: such a completed trick cannot be corrected.
    Raises :class:`ImpossibleEvent` for anything else.
    """
    seat, card, repl = ev.seat, ev.card, ev.replacement
    if t.phase != PLAY:
        if t.phase in (DEAL_OVER, GAME_OVER) and t.tricks:
            raise ImpossibleEvent(
                f"seat {seat} cannot take back {card}: trick {len(t.tricks)} ended the deal, "
                f"which is already scored (the trick is gathered)")
        raise ImpossibleEvent(f"a card can be taken back only during the play of tricks (phase {t.phase})")
    if t.trick:
        trick, trick_no, complete = t.trick, len(t.tricks) + 1, False
        where = f"trick {trick_no}"
    elif t.tricks:
        trick, trick_no, complete = list(t.tricks[-1][1]), len(t.tricks), True
        where = f"trick {trick_no} (complete, not yet gathered)"
    else:
        raise ImpossibleEvent(f"seat {seat} cannot take back {card}: no card has been played yet")
    at = next((i for i, (s, c) in enumerate(trick) if s == seat and c == card), None)
    if at is None:
        earlier = t.tricks[:-1] if complete else t.tricks
        if any(s == seat and c == card for _, cs, _ in earlier for s, c in cs):
            raise ImpossibleEvent(
                f"seat {seat} cannot take back {card}: its trick was gathered "
                f"(a card of a later trick has been played; rules.md 1.5)")
        raise ImpossibleEvent(f"seat {seat} cannot take back {card}: seat {seat} did not play it to {where}")
    if at == 0:
        raise ImpossibleEvent(f"seat {seat} cannot take back {card}: it led {where} "
                              f"(only a card played to a led suit can be corrected)")
    if repl == card:
        raise ImpossibleEvent(f"seat {seat} takes back {card} and plays the same card")
    trump = t.trump
    v = t.variant
    lead = trick[0][1]
    if complete:
        if lead == UNKNOWN:
            led = None
        else:
            led = effective_suit(lead, trump)
            if led is None:
                raise ImpossibleEvent(
                    f"seat {seat} cannot take back {card}: {where} was led by a joker at "
                    f"no-trump, and the suit named for it went with the trick")
    else:
        led = t.led_suit
    hand = t.hands[seat]
    held = C.cards_of_suit(hand + [card], led, trump) if led is not None else []
    t.remove_card(seat, repl)               # ImpossibleEvent if it is not in the hand
    t.seen.add(repl)
    hand.append(card)
    t.reneges = [dataclasses.replace(r, corrected_at=t.pos)
                 if (r.deal == t.deal_no and r.trick == trick_no and r.seat == seat
                     and r.card == card and r.corrected_at is None) else r
                 for r in t.reneges]
    if (held and repl != UNKNOWN and effective_suit(repl, trump) != led
            and not v.exempt_from_following(t, repl)):
        _renege(t, seat, repl, led, held, trick_no)
    trick[at] = (seat, repl)
    if not complete:
        return
    _, _, old_winner = t.tricks[-1]
    saved_led = t.led_suit
    t.led_suit = led                        # the base trick_winner reads the led suit here
    try:
        w = v.trick_winner(t, [c for _, c in trick])
    finally:
        t.led_suit = saved_led
    winner = trick[w][0]
    t.tricks[-1] = (trick[0][0], tuple(trick), winner)
    t.tricks_won[old_winner] -= 1
    t.tricks_won[winner] += 1
    t.leader = winner
    t.turn = winner


def _out_of_turn(t: Table, seat: int) -> None:
    """A card led or played out of turn: illegal but real (docs/design.md "Three
    kinds of wrong"; rules.md 1.3 says who leads and plays).  It is kept and
    flagged; the trick goes on clockwise from it, each active seat playing
    once.  A seat that sits out, or has already played to the trick, cannot
    have played: :class:`ImpossibleEvent`."""
    if not 0 <= seat < t.n_seats or seat in t.out:
        raise ImpossibleEvent(f"seat {seat} plays a card but takes no part in this deal")
    if any(s == seat for s, _ in t.trick):
        raise ImpossibleEvent(f"seat {seat} plays a second card to trick {len(t.tricks) + 1}")
    n = len(t.tricks) + 1
    if t.trick:
        flag(t, "played-out-of-turn",
             f"seat {seat} plays to trick {n} before seat {t.turn}, whose turn it was (rules.md 1.3)", seat)
    else:
        flag(t, "led-out-of-turn",
             f"seat {seat} leads trick {n}; seat {t.turn} won the last trick and should lead (rules.md 1.3)",
             seat)
        t.leader = seat
    t.out_of_turn = True


def _end_deal(t: Table) -> None:
    v = t.variant
    pts = v.score_deal(t)
    for i, p in enumerate(pts):
        t.scores[i] += p
    t.deal_results.append((t.deal_no, tuple(pts), "played"))
    t.turn = None
    t.phase = DEAL_OVER
    if t.open_reneges:  # a renege on the last trick stands once the hand ends (rules.md 1.5)
        for i in t.open_reneges:
            if t.reneges[i].established_at is None and t.reneges[i].corrected_at is None:
                t.reneges[i] = dataclasses.replace(t.reneges[i], established_at=t.pos)
        t.open_reneges = []
    if t.as_played_winner is None:
        t.as_played_winner = v.game_winner(t, t.scores)
    _deal_done(t, pts, "")


# ------------------------------------------------------ the official result

def _track_reneges(t: Table, seat: int, card: str) -> None:
    """Before ``seat`` plays ``card`` (at ``t.pos``): mark the reneges of
    this deal that this play establishes (the first card of a later trick:
    the renege's trick has been gathered, rules.md 1.5) or shows (the
    offender plays a card of the suit held back, effective under trump)."""
    trick_no = len(t.tricks) + 1
    still = []
    for i in t.open_reneges:
        r = t.reneges[i]
        if r.corrected_at is not None:
            continue
        changes = {}
        if trick_no > r.trick:
            if r.established_at is None:
                changes["established_at"] = t.pos
            if (r.shown_at is None and seat == r.seat and card[0] != "?"
                    and effective_suit(card, t.trump) == r.led_suit):
                changes["shown_at"], changes["shown_card"] = t.pos, card
        if changes:
            r = t.reneges[i] = dataclasses.replace(r, **changes)
        if r.established_at is None or r.shown_at is None:
            still.append(i)
    t.open_reneges = still


def _abandon(t: Table) -> None:
    """A DealStarted before the deal being played ended: the deal is
    abandoned (a misdeal, or a hand stopped when a renege was called).
    Kept and flagged (``deal-abandoned``); it scores nothing as played, and
    officially only what the renege policy, the claims and the rulings give
    (rules.md 1.5)."""
    n = len(t.tricks)
    when = (f"after {n} trick{'s' if n != 1 else ''}" if t.phase == PLAY
            else f"in phase {t.phase}")
    flag(t, "deal-abandoned", f"deal {t.deal_no} is abandoned {when} and a new deal starts; "
         "it scores nothing unless a renege penalty or a ruling says so", t.dealer)
    zero = (0,) * t.variant.n_sides
    t.deal_results.append((t.deal_no, zero, "abandoned"))
    t.turn = None
    t.phase = DEAL_OVER
    t.open_reneges = []
    _deal_done(t, zero, "abandoned")


def _deal_done(t: Table, pts: Sequence[int], note: str) -> None:
    """A deal has ended (scored, thrown in or abandoned, its as-played
    ``pts`` per side already added): its official outcome
    (:class:`DealOutcome`), the official score and the official game end
    (rules.md 1.5, 1.6).  A deal after the game was won counts for nothing."""
    t.scored_contract = t.contract
    t.deal_outcomes.append(None)
    t.deal_ends.append(DealEnd(t.maker, t.contract, tuple(t.tricks_won), t.out, t.deal_start_pos))
    o = _outcome(t, len(t.deal_outcomes) - 1, pts, note)
    if t.game_over:
        t.official_results.append(DealOutcome(o.deal, (0,) * t.variant.n_sides, (), AFTER_WON))
        t.phase = GAME_OVER
        return
    t.official_results.append(o)
    for s, p in enumerate(o.points):
        t.official_scores[s] += p
    if _decides(o) and t.phase in (DEAL_OVER, GAME_OVER):
        _decide(t, t.variant.game_winner(t, t.official_scores))


def _decides(o: DealOutcome) -> bool:
    """Whether the game end is decided after this deal: a deal played out or
    thrown in (a fixed number of deals may end on one, rules.md 2.9), or one
    with a penalty; an abandoned deal with no penalty changes no score and
    counts as no deal."""
    return o.note != "abandoned" or bool(o.penalized)


def _outcome(t: Table, i: int, pts: Sequence[int], note: str) -> DealOutcome:
    """(Re)compute deal ``i``'s official outcome as if it counted
    (``t.deal_outcomes[i]``), from its as-played points ``pts`` and the
    renege penalties, claims and rulings on it (rules.md 1.5, 2.7)."""
    v = t.variant
    deal = t.deal_results[i][0] if i < len(t.deal_results) else t.deal_no
    # a deal dealt again under its own number: only this one's reneges (rules.md 1.5)
    ends = t.deal_ends
    since = ends[i].start if i < len(ends) else t.deal_start_pos
    until = ends[i + 1].start if i + 1 < len(ends) else None
    latest = all(t.deal_results[j][0] != deal for j in range(i + 1, len(t.deal_results))) \
        and not (t.deal_no == deal and t.deal_start_pos > since)
    pen = claims.penalized(t, deal, note == "abandoned", since, until, latest)
    official, applied = v.official_deal_points(t, pen, pts) if pen else (tuple(pts), ())
    o = t.deal_outcomes[i] = DealOutcome(deal, tuple(official), applied, note)
    return o


AFTER_WON = "after the game was won"
"""The note of a deal played after the official game end: it counts for nothing (rules.md 1.6)."""


def _after_won_text(deal: int, scores: Sequence[int]) -> str:
    """The words of a ``played-after-game-won`` flag: deal ``deal`` came
    after the game was won at official score ``scores`` (rules.md 1.6)."""
    return (f"deal {deal} is played after the game was won "
            f"({score_text(scores)}, official score); it does not count")


class _AtDealEnd:
    """The table as ``game_winner`` sees it at the end of an earlier deal:
    that deal's :class:`DealEnd`, the rest from the table."""

    __slots__ = ("_t", "maker", "contract", "tricks_won", "out", "deal_results")

    def __init__(self, t: Table, end: DealEnd, j: int):
        self._t = t
        self.maker, self.contract, self.tricks_won, self.out = end.maker, end.contract, end.tricks_won, end.out
        self.deal_results = t.deal_results[:j + 1]   # the deals up to that one (deals counted)

    def __getattr__(self, name):
        return getattr(self._t, name)


def _tally(t: Table) -> None:
    """The official score and game end again over every deal in order
    (rules.md 1.6), after a late ruling on an earlier deal: the game ends
    after the first deal whose official score has a winner, and the deals
    after it count for nothing.  The ruling may so move the end back, or
    (taking points away) forward: flagged ``game-end-moved``, and the
    ``played-after-game-won`` flags follow the end."""
    v = t.variant
    zero = (0,) * v.n_sides
    before = [o.deal for o in t.official_results if o.note != AFTER_WON]
    scores, results, end, w = list(t.initial_score), [], None, None
    for j, o in enumerate(t.deal_outcomes):
        if end is not None:
            results.append(DealOutcome(o.deal, zero, (), AFTER_WON))
            continue
        results.append(o)
        for s, p in enumerate(o.points):
            scores[s] += p
        if _decides(o):
            w = v.game_winner(_AtDealEnd(t, t.deal_ends[j], j), scores)
            if w is not None:
                end = j
    t.official_results, t.official_scores = results, scores
    if before != [o.deal for o in results if o.note != AFTER_WON]:
        _end_moved(t, results, end)
    # a ruling may change the score the game was won at without moving the
    # end: the flags of the deals after it name the score as it now stands
    t.flags = [dataclasses.replace(f, text=_after_won_text(f.deal, scores)) if f.kind == "played-after-game-won"
               else f for f in t.flags]
    if t.phase in (DEAL_OVER, GAME_OVER):
        _decide(t, w)
    else:    # a deal is being played: it counts for nothing if the game has ended
        t.game_over = end is not None
        t.winner = w if t.game_over and isinstance(w, int) else None


def _end_moved(t: Table, results: list, end: Optional[int]) -> None:
    """Flag a game end moved by a ruling on an earlier deal (the deals that
    no longer count said by number), and keep the ``played-after-game-won``
    flags on the deals that come after the end."""
    counting = {o.deal for o in results if o.note != AFTER_WON}
    t.flags = [f for f in t.flags if not (f.kind == "played-after-game-won" and f.deal in counting)]
    later = [o.deal for o in results if o.note == AFTER_WON]
    score = score_text(t.official_scores)
    if end is not None:
        span = ("" if not later else f": deal {later[0]} counts for nothing" if len(later) == 1
                else f": deals {later[0]}-{later[-1]} count for nothing")
        text = (f"with this ruling the game ends after deal {results[end].deal} ({score}, official "
                f"score){span}")
    else:
        text = f"with this ruling nobody has won yet ({score}, official score): every deal counts"
    flag(t, "game-end-moved", text)


def _decide(t: Table, w: Any) -> None:
    """The game end on the official score (rules.md 1.6) from the variant's
    ``game_winner`` ``w``: ``game_over``, ``winner`` (a side, or None when
    the game ends tied or shared: the variant's :meth:`~Variant.record_tie`
    notes who) and the phase (between deals)."""
    v = t.variant
    if t.scored_contract is not None:
        t.contract = t.scored_contract   # undo a tie an earlier decision noted
    t.game_over = w is not None
    t.winner = w if isinstance(w, int) else None
    if isinstance(w, tuple):
        v.record_tie(t, w)
    t.phase = GAME_OVER if t.game_over else DEAL_OVER


def _claim_or_ruling(t: Table, ev: Event) -> None:
    """Fold a RenegeClaimed (judged against the record now:
    :func:`claims.judge_claim`) or a RenegeRuled; then, if it concerns a
    deal already scored, its official outcome again (rules.md 1.5, 2.7).
    Raises :class:`ImpossibleEvent` for a seat that does not exist or a
    malformed ruling."""
    for name in ("by", "against") if ev.kind == "RenegeClaimed" else ("against",):
        seat = getattr(ev, name)
        if type(seat) is not int or not 0 <= seat < t.n_seats:
            raise ImpossibleEvent(f"{ev.kind}: {name}={seat!r} is not a seat of this game")
    if ev.kind == "RenegeClaimed":
        t.claims.append(claims.judge_claim(t, t.pos, ev.by, ev.against, ev.deal, ev.trick))
    else:
        try:
            t.rulings.append(claims.rule(t, t.pos, ev.deal, ev.trick, ev.against, ev.ruling,
                                         ev.penalty, ev.by, ev.reason))
        except ValueError as e:
            raise ImpossibleEvent(str(e)) from None
    if ev.deal == t.deal_no and t.phase not in (DEAL_OVER, GAME_OVER):
        return   # the deal is being played: it is settled when it ends
    for i in range(len(t.deal_outcomes) - 1, -1, -1):
        o = t.deal_outcomes[i]
        if o.deal == ev.deal:
            _outcome(t, i, t.deal_results[i][1], o.note)
            _tally(t)
            return


# ---------------------------------------------------------- play legality

def _following(t: Table) -> tuple:
    """``(known cards of the seat on turn, those that follow the led suit,
    those exempt from following)``, the last two None where any known card
    may be played (a lead, no suit led, void in it): rules.md 1.3 with the
    effective suit of rules.md 1.2, the one place :func:`play_legal` and
    :func:`play_actions` read it from."""
    known = [c for c in t.hands[t.turn] if c != UNKNOWN]
    if not t.trick:
        return known, None, None
    led = t.led_suit
    if led is None:
        return known, None, None
    follow = C.cards_of_suit(known, led, t.trump)
    if not follow:
        return known, None, None
    v = t.variant
    if len(follow) == len(known) or fast_plays_ok(v):     # none left to ask, or the base hook: none exempt
        return known, follow, []
    return known, follow, [c for c in known if c not in follow and v.exempt_from_following(t, c)]


_CARD_PLAYED: dict = {}
"""``{(seat, card): CardPlayed}``: the play's legal actions made once (events are immutable)."""


def play_actions(t: Table) -> tuple:
    """The play's legal actions for the seat on turn (``t.phase == PLAY``), as
    :func:`legal_actions` gives them, without the reason in words (the
    solver's and the review's question, asked at every card)."""
    known, follow, free = _following(t)
    return _played(t.turn, known if follow is None else (follow + free if free else follow))


def _played(seat: int, cards) -> tuple:
    """``CardPlayed(seat, card)`` of each of ``cards``, each made once (:data:`_CARD_PLAYED`)."""
    out = []
    for c in cards:
        ev = _CARD_PLAYED.get((seat, c))
        if ev is None:
            ev = CardPlayed(seat, c)
            if len(_CARD_PLAYED) < 10_000:
                _CARD_PLAYED[(seat, c)] = ev
        out.append(ev)
    return tuple(out)


def play_legal(t: Table) -> tuple:
    """Legal cards for the seat on turn in the play, with the reason in words.

    Returns ``(cards, reason)``.  Follows rules.md 1.3 with the effective suit
    of rules.md 1.2 (the left bower is a trump, never a card of its printed suit).
    """
    hand = t.hands[t.turn]
    known, follow, free = _following(t)
    trump = t.trump
    if not t.trick:
        return known, "leads: any card may be led"
    led = t.led_suit
    if led is None:
        return known, "no suit was led: any card"
    name = C.SUIT_NAMES[led]
    if follow:
        reason = f"must follow {name}"
        if trump is not None:
            lb = C.left_bower(trump)
            if led == trump and any(base(c) == lb for c in follow):
                reason += f"; the {C.card_name(lb)} counts as {C.SUIT_SINGULAR[trump]}"
                reason = reason.replace("counts as ", "counts as a ")
            elif any(base(c) == lb for c in known) and C.suit_of(lb) == led:
                reason += f"; the {C.card_name(lb)} is a trump here, not a {C.SUIT_SINGULAR[led]}"
        if UNKNOWN in hand:
            reason += " (the hand also holds cards the record does not state)"
        if free:
            follow = follow + free
            reason += "; " + ", ".join(C.card_name(c) for c in free) + " may be played at any time"
        return follow, reason
    reason = f"void in {name}: any card may be played"
    if trump is not None:
        lb = C.left_bower(trump)
        if any(base(c) == lb for c in known) and C.suit_of(lb) == led:
            reason = (f"void in {name} (the {C.card_name(lb)} counts as a "
                      f"{C.SUIT_SINGULAR[trump]}): any card may be played")
    if any(c[0] == "?" and led in C.possible_suits(c, trump) for c in hand):
        # a card the record does not state may be of the led suit: not known void
        reason = (f"no known {name} in the hand: any known card may be played (the hand also "
                  f"holds cards the record does not state, which may include {name})")
    return known, reason


def legal_actions(t: Table) -> tuple:
    """``(events, reason)``: every event the seat on turn may legally add now.

    In the play these are :class:`CardPlayed` events; in the auction and the
    exchanges they come from the variant.  Forced steps (the dealer picking up,
    a thrown-in deal) appear as a single action.  After the deal or game is
    over the tuple is empty.
    """
    ph = t.phase
    if ph == PLAY:
        cards, reason = play_legal(t)
        return _played(t.turn, cards), reason
    if ph in (DEAL, DEAL_OVER):
        if t.game_over:
            return (), "the game is over"
        nd = t.variant.next_dealer(t) if t.dealer is not None else t.first_dealer
        return (DealStarted(t.deal_no + 1, nd),), f"deal {t.deal_no + 1} starts"
    if ph == GAME_OVER:
        return (), "the game is over"
    if ph == DEALING:
        return (), "the cards are dealt"
    if ph == THROWN_IN:
        return (DealThrownIn("all passed"),), "everyone passed: the deal is thrown in"
    return t.variant.legal(t)


# ------------------------------------------------------------ batch fold

_PLAY_HOOKS = PLAY_HOOKS
"""The variant hooks :func:`_play` calls (:data:`~euchre_events.rules.variant.PLAY_HOOKS`).
:func:`fold` takes its fast path only for variants that keep the base version
of every one of them."""

_FAST_OK: dict = {}


def fast_plays_ok(v: Variant) -> bool:
    """True if ``v`` plays tricks exactly as the base engine (no play hook
    overridden, every card of its deck in :func:`cards.suit_and_power`)."""
    ok = _FAST_OK.get(v)
    if ok is None:
        cls = type(v)
        ok = (all(getattr(cls, h) is getattr(Variant, h) for h in _PLAY_HOOKS)
              and frozenset(v.deck()) <= C.suit_and_power(None)[0].keys())
        if len(_FAST_OK) < 1024:
            _FAST_OK[v] = ok
    return ok


@lru_cache(maxsize=64)
def _suit_sets(trump: Optional[str]) -> dict:
    """``{suit: frozenset of card codes}`` by effective suit under ``trump``
    (every card of every deck; the joker at no-trump under ``None``), so that
    "does this hand hold the led suit?" is one ``isdisjoint`` (rules.md 1.2, 1.3)."""
    sets: dict = {}
    for c, s in C.suit_and_power(trump)[0].items():
        sets.setdefault(s, set()).add(c)
    return {s: frozenset(cs) for s, cs in sets.items()}


_second = itemgetter(1)


def _fast_plays(t: Table, events: Sequence[Event], i: int, n: int) -> int:
    """Fold the run of ordinary CardPlayed events ``events[i:n]`` starting at
    ``i`` (phase ``play``); return the index of the first event not folded.

    Stops, without touching the table for that event, at anything else:
    another event kind, a seat out of turn, an unknown card or one not in the
    hand, a renege, a trick that holds a card the fast path cannot rank.
    :func:`apply` then folds that event the general way.  The result is the
    one :func:`_play` gives, event by event.  The seat on turn, the trick,
    the led suit and the position are kept in locals and written back to the
    table before returning (and before the deal is scored).
    """
    v = t.variant
    trump = t.trump
    eff = C.suit_and_power(trump)[0]
    of_suit = _suit_sets(trump)
    hands = t.hands
    seen = t.seen
    nxt = next_seats(t.n_seats, t.out)
    size = t.n_seats - len(t.out)                 # base trick_size
    per_deal = v.tricks_per_deal                  # base tricks_in_deal
    twins = v.first_twin_wins
    tricks = t.tricks
    low = t.low
    turn = t.turn
    trick = t.trick
    led = t.led_suit
    first = i
    while i < n:
        ev = events[i]
        if ev.kind != "CardPlayed":
            break
        seat = ev.seat
        card = ev.card
        suit = eff.get(card, UNKNOWN)             # UNKNOWN: not a card of any deck
        if seat != turn or suit == UNKNOWN:
            break
        hand = hands[seat]
        try:
            at = hand.index(card)
        except ValueError:                        # not in the hand ("??" stands for it?)
            break
        if trick:
            if led is None and trick[0][1][0] == "?":
                break                             # an unknown lead: _play judges the follow
            if led is not None and suit != led and (not of_suit[led].isdisjoint(hand) or any(
                    c[0] == "?" and c != UNKNOWN for c in hand)):
                break                             # a renege (or a "?D" held): _play's way
            if len(trick) + 1 == size:            # this card ends the trick
                keys = C.trick_keys(trump, led if led else eff.get(trick[0][1], UNKNOWN), low)
                ranked = list(map(keys.get, map(_second, trick)))
                if None in ranked:                # a "??" or a card of no deck: _play's way
                    break
        else:
            led = suit
            if size == 1:
                keys = C.trick_keys(trump, led, low)
                ranked = []
        del hand[at]
        seen.add(card)
        trick.append((seat, card))
        i += 1
        if len(trick) < size:
            turn = nxt[seat]
            continue
        ranked.append(keys[card])
        # winning_index(ranked, twins), inlined for the usual rule (the first of the highest)
        winner = trick[ranked.index(max(ranked)) if twins else winning_index(ranked, False)][0]
        _gather(t, trick, winner)
        trick = t.trick
        led = None
        turn = winner
        if len(tricks) >= per_deal:
            t.pos += i - first
            _end_deal(t)
            return i
    t.trick = trick
    t.led_suit = led
    t.turn = turn
    t.pos += i - first
    return i


def fold(t: Table, events: Sequence[Event], start: int = 0, stop: Optional[int] = None,
         checkpoint: Optional[Any] = None) -> Table:
    """Fold ``events[start:stop]`` into ``t`` (in place) and return ``t``.

    The result is exactly that of :func:`apply` on each event in turn (the
    same table, the same :class:`ImpossibleEvent` with position, deal and
    event), but runs of ordinary card plays take a fast path.
    ``checkpoint``: a function called with the table before each
    DealStarted and before the first event of a game (position 0), e.g. to
    keep copies for jumps (:class:`euchre_events.projections.Game`).
    """
    n = len(events) if stop is None else min(stop, len(events))
    i = start
    while i < n:
        ev = events[i]
        k = ev.kind
        if checkpoint is not None and (k == "DealStarted" or t.pos == 0):
            checkpoint(t)
        if k == "CardPlayed" and t.phase == PLAY and not t.out_of_turn \
                and not t.open_reneges and fast_plays_ok(t.variant):
            j = _fast_plays(t, events, i, n)
            if j > i:
                i = j
                continue
        apply(t, ev)
        i += 1
    return t
