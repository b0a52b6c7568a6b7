"""Exercises for the rules tutorials (docs/design.md, "Interfaces": one rules
tutorial per variant, in ``notebooks/tutorial-*.ipynb``).

An :class:`Exercise` is one question about one moment of a hand-built game:
the question, the answer choices, the right answer and an explanation.  Every
builder below takes the answer *and the facts of the explanation* from the
rules engine (``Game.state_at(k).legal`` with ``legal_reason``, the trick
winners in ``state.tricks``, the deal points in ``state.deal_results``,
``Game.winner``), never from fixed text, so a tutorial cannot drift from the
engine.  Each notebook ends with a self-check cell that compares these engine
answers with the values worked out by hand from rules.md.

Positions ``k`` are as in :meth:`euchre_events.projections.Game.state_at`:
the table after the first ``k`` events.  Seats are indices ``0..n-1``
clockwise; sides are score indices (a seat in the games where each player
scores alone); points are game points; cards are codes such as ``"JD"``.

The question logic (:meth:`Exercise.check`) is pure and needs no widgets;
:meth:`Exercise.quiz` (and displaying an exercise in Jupyter) shows it with
the tutorials' :class:`euchre_events.widgets.Quiz` (question, choices, a
**check** button, the feedback with the explanation; CSS classes
``ee-quiz``, ``ee-quiz-choices``, ``ee-quiz-check``, ``ee-quiz-feedback``),
imported only then.
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence

from euchre_events.rules import cards as C
from euchre_events.ui.describe import describe_event, seat_name, suit_text
from euchre_events.events import Event
from euchre_events.projections import Game, TableState

__all__ = [
    "Exercise", "legal_cards", "legal_action", "legal_choice", "trick_winner",
    "trick_words", "leader", "deal_points", "next_dealer", "game_winner",
    "deal_end", "who", "side_label", "renege_points", "cards_held",
]


# ------------------------------------------------------------------ exercise

@dataclass
class Exercise:
    """A question with its choices, right answer and explanation.

    ``choices``: ``((label, value), ...)`` in display order; ``answer``: the
    right value (one of the values), or a ``frozenset`` of values when
    ``multiple`` (pick every right choice, possibly all or none);
    ``explanation``: why, in words (built from the engine's state);
    ``picture``: an HTML fragment shown under the question (cards, a trick);
    ``section``: the rules.md section the exercise is about (``"3.3"``).
    """

    question: str
    choices: tuple
    answer: Any
    explanation: str
    multiple: bool = False
    picture: str = ""
    section: str = ""
    _quiz: Any = field(default=None, repr=False, compare=False)

    def label_of(self, value) -> str:
        """The label shown for ``value``."""
        for label, v in self.choices:
            if v == value:
                return label
        return str(value)

    @property
    def answer_text(self) -> str:
        """The right answer in words (labels joined by commas; "none of them")."""
        if self.multiple:
            labels = [label for label, v in self.choices if v in self.answer]
            return ", ".join(labels) if labels else "none of them"
        return self.label_of(self.answer)

    def check(self, picked) -> tuple:
        """``(correct, feedback)`` for the learner's choice.

        ``picked``: a value (one answer), or an iterable of values when
        ``multiple``; None means nothing chosen yet (then ``correct`` is False
        and the feedback asks for a choice).
        """
        if picked is None and not self.multiple:
            return False, "Choose an answer first."
        ok = (frozenset(picked) == frozenset(self.answer)) if self.multiple else picked == self.answer
        ref = f" (rules.md {self.section})" if self.section else ""
        if ok:
            return True, f"Right: {self.answer_text}. {self.explanation}{ref}"
        return False, f"Not quite. The answer is: {self.answer_text}. {self.explanation}{ref}"

    # ------------------------------------------------------------ widget
    def quiz(self):
        """The exercise as the tutorials' :class:`euchre_events.widgets.Quiz`
        (the question with its picture, the choices, a check button and the
        feedback with this explanation).  Built once, then reused."""
        if self._quiz is None:
            from euchre_events.ui.render import CSS
            from euchre_events.ui.widgets import Quiz
            ref = f" (rules.md {self.section})" if self.section else ""
            question = html.escape(self.question)
            if self.picture:
                question += f"</b><style>{CSS}</style><div class='ee-root'>{self.picture}</div><b>"
            self._quiz = Quiz(question, self.choices, self.answer, self.explanation + ref,
                              multiple=self.multiple)
        return self._quiz

    def _repr_mimebundle_(self, **kwargs):
        return self.quiz()._repr_mimebundle_(**kwargs)


# ------------------------------------------------------------------ helpers

def who(state: TableState, seat: Optional[int]) -> str:
    """A seat in words for ``state``'s game (``"West"``, ``"P2"``, ``"P1 (Ann)"``)."""
    return seat_name(seat, state.players, len(state.players))


def side_label(state: TableState, side: int) -> str:
    """A side in words: ``"N/S"`` / ``"E/W"`` in partnership games, else the seat."""
    from euchre_events.ui.render import side_names
    if len(side_names(state)) == len(state.players):
        return who(state, side)
    return side_names(state)[side]


def _cards_html(cards: Sequence[str], trump: Optional[str] = None, sort: bool = True) -> str:
    from euchre_events.ui.render import hand_html
    return hand_html(list(cards), trump, sort=sort).split("</style>", 1)[1]


def _trick_html(state: TableState, trick: Sequence) -> str:
    if not trick:
        return ""
    rows = "".join(f"<span style='display:inline-block;margin-right:8px;text-align:center'>"
                   f"{_cards_html([c], sort=False)}<br><small>{html.escape(who(state, s))}</small></span>"
                   for s, c in trick)
    return f"<div>{rows}</div>"


def deal_end(game: Game, deal: int) -> int:
    """Position just after the last event of ``deal`` (the next DealStarted,
    or the end of the record).  Raises ``KeyError`` for a deal not recorded."""
    starts = dict(game.deal_positions())
    if deal not in starts:
        raise KeyError(f"deal {deal} is not in the game")
    later = [p for d, p in game.deal_positions() if p > starts[deal]]
    return later[0] if later else len(game.events)


def _trump_words(trump: Optional[str]) -> str:
    return "no-trump" if trump is None else f"trump is {suit_text(trump)}"


def _choice_of_seats(state: TableState, seats: Iterable[int]) -> tuple:
    return tuple((who(state, s), s) for s in seats)


# ------------------------------------------------------------------ builders

def legal_cards(game: Game, k: int, question: Optional[str] = None, section: str = "1.3") -> Exercise:
    """"Which cards may <seat> play?" at position ``k`` (phase ``play``).

    Choices: the cards in the hand of the seat on turn; answer: the engine's
    legal cards (``state.legal_cards()``); explanation: the engine's
    ``legal_reason`` (follow suit with the effective suit, rules.md 1.2-1.3).
    Raises ``ValueError`` if nobody is to play a card at ``k``.
    """
    st = game.state_at(k)
    if st.phase != "play" or st.turn is None:
        raise ValueError(f"position {k} is not a card play (phase {st.phase})")
    s = st.turn
    hand = [c for c in C.sort_hand(st.hands[s], st.trump) if c != C.UNKNOWN]
    legal = frozenset(st.legal_cards())
    if question is None:
        if st.trick:
            lead_seat, lead_card = st.trick[0]
            question = (f"{_trump_words(st.trump).capitalize()}. {who(st, lead_seat)} led "
                        f"{C.card_name(lead_card)}. Which cards may {who(st, s)} play?")
        else:
            question = f"{_trump_words(st.trump).capitalize()}. Which cards may {who(st, s)} lead?"
    ok = [C.pretty(c) for c in hand if c in legal]
    not_ok = [C.pretty(c) for c in hand if c not in legal]
    expl = f"The engine says: {st.legal_reason}. Legal: {', '.join(ok) or 'none'}"
    if not_ok:
        expl += f"; playing {', '.join(not_ok)} would be a renege"
    expl += "."
    picture = (_trick_html(st, st.trick) + f"<div>{html.escape(who(st, s))}'s hand:</div>"
               + _cards_html(hand, st.trump))
    return Exercise(question, tuple((C.pretty(c), c) for c in hand), legal, expl, multiple=True,
                    picture=picture, section=section)


def _legal_words(st: TableState) -> str:
    acts = [describe_event(e, st.players, st.dealer) for e in st.legal]
    return "; ".join(acts) if acts else "nothing"


def legal_action(game: Game, k: int, event: Event, question: str, section: str = "") -> Exercise:
    """A yes/no question: is ``event`` legal at position ``k``?

    Answer ``"yes"`` if the engine lists ``event`` among the legal actions of
    the seat on turn, else ``"no"``; the explanation gives the engine's
    reason and the actions it allows.
    """
    st = game.state_at(k)
    answer = "yes" if event in st.legal else "no"
    expl = (f"The engine says: {st.legal_reason}. It allows: {_legal_words(st)}; "
            f"so \u201c{describe_event(event, st.players, st.dealer)}\u201d is {'' if answer == 'yes' else 'not '}legal here.")
    return Exercise(question, (("yes", "yes"), ("no", "no")), answer, expl, section=section)


def legal_choice(game: Game, k: int, candidates: Sequence[Event], question: str,
                 section: str = "", labels: Optional[Sequence[str]] = None) -> Exercise:
    """"Which of these may <seat> do?": pick every candidate event the engine
    allows at position ``k``.  ``labels`` name the candidates (default: the
    events in words).  Answer: the set of indices of the legal candidates."""
    st = game.state_at(k)
    if labels is None:
        labels = [describe_event(e, st.players, st.dealer) for e in candidates]
    legal = frozenset(i for i, e in enumerate(candidates) if e in st.legal)
    expl = f"The engine says: {st.legal_reason}. It allows: {_legal_words(st)}."
    return Exercise(question, tuple((lab, i) for i, lab in enumerate(labels)), legal, expl,
                    multiple=True, section=section)


def trick_words(cards: Sequence[str], trump: Optional[str], led_suit: Optional[str],
                winner: Optional[int] = None, low: bool = False, first_twin_wins: bool = True) -> str:
    """Why a card wins the trick ``cards`` (leader first), in words, from the
    rules' own trick ranking (:func:`euchre_events.rules.cards.rank_trick`,
    rules.md 1.1-1.3): which cards could win (trumps, else the led suit by
    effective suit), their order, and the bowers or identical cards involved.
    ``winner`` (index, 0 = leader), when given, must be the ranking's winner
    (raises ``ValueError`` otherwise: the words would explain another card)."""
    r = C.rank_trick(cards, trump, led_suit, low, first_twin_wins)
    if winner is not None and winner != r.winner:
        raise ValueError(f"trick {cards}: the rules rank card {r.winner} first, not {winner}")
    w = r.winner
    trumps_played = trump is not None and any(x == C.TrickRole.TRUMP for x in r.roles)
    # once a trump is in the trick only trumps can win it (rules.md 1.3)
    counting = (C.TrickRole.TRUMP,) if trumps_played else (C.TrickRole.TOP, C.TrickRole.LED)
    ranked = [cards[i] for i in r.ranked() if r.roles[i] in counting]
    out = []
    if trumps_played:
        out.append(f"{_trump_words(trump).capitalize()}; trumps played, highest first: "
                   + ", ".join(C.pretty(c) for c in ranked))
        lb = C.left_bower(trump)
        for c in cards:
            if C.base(c) == lb:
                out.append(f"the {C.card_name(lb)} is the left bower, a {C.SUIT_SINGULAR[trump]} here")
            elif C.base(c) == C.right_bower(trump):
                out.append(f"the {C.card_name(c)} is the right bower, the highest {C.SUIT_SINGULAR[trump]}")
    else:
        what = "No trump was played" if trump is not None else "At no-trump there are no bowers"
        out.append(f"{what}, so the highest {C.SUIT_SINGULAR.get(r.led_suit, 'card')} wins; led-suit cards, "
                   "highest first: " + ", ".join(C.pretty(c) for c in ranked))
    others = [cards[i] for i, x in enumerate(r.roles) if x not in counting]
    if others:
        why = "neither trump nor the led suit" if trump is not None else "not the led suit"
        out.append(", ".join(C.pretty(c) for c in others) + f" cannot win ({why})")
    if r.twins:
        out.append(f"{C.pretty(cards[w])} and its identical twin tie: the one played "
                   f"{'first' if r.twins[0] > w else 'later'} wins")
    return "; ".join(out) + f". {C.pretty(cards[w])} wins."


def trick_winner(game: Game, deal: int, trick: int, section: str = "1.3") -> Exercise:
    """"Who wins this trick?" for trick number ``trick`` (from 1) of ``deal``.

    Answer: the winner the engine recorded in ``state.tricks``; choices: the
    seats that played to it; explanation: :func:`trick_words`.  Raises
    ``IndexError`` if the trick was not completed.
    """
    end = deal_end(game, deal)
    st = game.state_at(end)
    done = st.tricks if st.deal == deal else ()
    if not 1 <= trick <= len(done):
        raise IndexError(f"deal {deal} has {len(done)} completed trick(s), not trick {trick}")
    leader_seat, plays, winner = done[trick - 1]
    cards = [c for _, c in plays]
    seats = [s for s, _ in plays]
    # the led suit as the engine saw it (a joker led at no-trump takes a named suit, rules.md 7.8)
    first = game.trick_positions(deal)[trick - 1]
    led = game.table_at(first + 1).led_suit
    if led is None and first + 1 < len(game.events) and game.events[first + 1].kind == "JokerSuitNamed":
        led = game.events[first + 1].suit
    low = bool(game.table_at(end).low)
    twins_first = getattr(game.final.variant.options, "first_twin_wins", True)
    words = trick_words(cards, st.trump, led, seats.index(winner), low, twins_first)
    question = (f"{_trump_words(st.trump).capitalize()}. Trick {trick}: "
                + "; ".join(f"{who(st, s)} {'leads' if i == 0 else 'plays'} {C.pretty(c)}"
                            for i, (s, c) in enumerate(plays))
                + ". Who wins it?")
    return Exercise(question, _choice_of_seats(st, seats), winner, words,
                    picture=_trick_html(st, plays), section=section)


def _leader_facts(st: TableState, s: int) -> list:
    n = len(st.players)
    facts = []
    left = (st.dealer + 1) % n if st.dealer is not None else None
    if s == left:
        facts.append(f"{who(st, s)} sits on the dealer's left ({'the non-dealer' if n == 2 else 'eldest'})")
    elif left is not None and left in st.sitting_out:
        nxt = next((x for x in ((st.dealer + i) % n for i in range(1, n + 1)) if x not in st.sitting_out), None)
        if nxt == s:
            facts.append(f"the dealer's left ({who(st, left)}) sits out, and {who(st, s)} is the next player still in")
    if s == st.maker:
        bid = st.extra.get("contract")
        facts.append(f"{who(st, s)} is the {'high bidder' if bid is not None else 'maker'}")
    if st.lone_defender == s:
        facts.append(f"{who(st, s)} defends alone")
    for lone in (st.alone, st.lone_defender):
        if lone is not None and lone != s:
            nxt = next((x for x in ((lone + i) % n for i in range(1, n)) if x not in st.sitting_out), None)
            if nxt == s:
                facts.append(f"{who(st, s)} is the next player still in on the left of {who(st, lone)}, who plays alone")
    return facts


def leader(game: Game, k: int, section: str = "") -> Exercise:
    """"Who leads to trick 1?" at position ``k`` (just before the first card).

    Answer: the seat on turn (the engine's first leader); choices: every
    seat; explanation: the dealer, maker, lone players and who sits out,
    with how the leader relates to them.  Raises ``ValueError`` if ``k`` is
    not just before a lead.
    """
    st = game.state_at(k)
    if st.phase != "play" or st.trick:
        raise ValueError(f"position {k} is not just before a lead (phase {st.phase})")
    s = st.turn
    n = len(st.players)
    facts = [f"dealer {who(st, st.dealer)}"]
    if st.maker is not None:
        bid = st.extra.get("contract")
        facts.append(f"high bidder {who(st, st.maker)}" if bid is not None else f"maker {who(st, st.maker)}")
    if st.alone is not None:
        facts.append(f"{who(st, st.alone)} plays alone")
    if st.sitting_out:
        facts.append("sitting out: " + ", ".join(who(st, x) for x in st.sitting_out))
    why = _leader_facts(st, s)
    expl = ("Here: " + "; ".join(facts) + f". The engine gives the lead to {who(st, s)}"
            + (": " + "; ".join(why) if why else "") + ".")
    return Exercise("Who leads to the first trick?", _choice_of_seats(st, range(n)), s, expl,
                    section=section)


def _deal_facts(st: TableState) -> str:
    n = len(st.players)
    parts = []
    if st.maker is not None:
        c = st.extra.get("contract")
        how = f"bid {c}" if isinstance(c, int) else ({"pb": "bid partner's best", "moon": "shot the moon"}.get(c)
                                                     if c is not None else "made trump")
        parts.append(f"{who(st, st.maker)} {how} ({suit_text(st.trump)})"
                     + (" and played alone" if st.alone is not None else ""))
    else:
        parts.append(f"nobody made trump ({suit_text(st.trump)})")
    if st.lone_defender is not None:
        parts.append(f"{who(st, st.lone_defender)} defended alone")
    if st.sitting_out:
        parts.append("sitting out: " + ", ".join(who(st, s) for s in st.sitting_out))
    words = "tricks: " + ", ".join(f"{who(st, s)} {st.tricks_won[s]}" for s in range(n)
                                   if s not in st.sitting_out)
    if len(st.tricks_by_side) < n:  # partnerships: the sides' totals too
        words += " (" + ", ".join(f"{side_label(st, i)} {k}" for i, k in enumerate(st.tricks_by_side)) + ")"
    parts.append(words)
    return "; ".join(parts)


def deal_points(game: Game, deal: int, side: int, choices: Sequence[int], section: str = "",
                question: Optional[str] = None) -> Exercise:
    """"How many points does <side> score for this deal?".

    Answer: the points the engine gave ``side`` for ``deal`` (from
    ``state.deal_results``; a score change, negative when points are lost or,
    in Buck Euchre, when a player counts down); ``choices``: candidate values
    to show (the engine's answer is always among them); explanation: who made
    trump, the tricks taken, every side's points and the score after.
    Raises ``KeyError`` if ``deal`` was not scored.
    """
    st = game.state_at(deal_end(game, deal))
    res = {d: (pts, how) for d, pts, how in st.deal_results}
    if deal not in res:
        raise KeyError(f"deal {deal} was not scored")
    pts, how = res[deal]
    answer = pts[side]
    values = sorted(set(choices) | {answer})
    names = [side_label(st, i) for i in range(len(pts))]
    facts = _deal_facts(st)
    expl = (facts[:1].upper() + facts[1:] + ". The engine scores the deal: "
            + ", ".join(f"{nm} {p:+d}" for nm, p in zip(names, pts))
            + "; score now " + ", ".join(f"{nm} {p}" for nm, p in zip(names, st.score)) + ".")
    if question is None:
        question = f"How many points does {names[side]} score for deal {deal}?"
    return Exercise(question, tuple((f"{v:+d}" if v else "0", v) for v in values), answer, expl,
                    section=section)


def next_dealer(game: Game, section: str = "1.4") -> Exercise:
    """"Who deals next?" after the last deal of ``game``: the answer is the
    dealer of the DealStarted the engine offers next.  Raises ``ValueError``
    if the record does not end between deals or the game is over."""
    st = game.state_at(len(game.events))
    nxt = [e for e in st.legal if e.kind == "DealStarted"]
    if not nxt:
        raise ValueError(f"the record does not end between two deals ({st.legal_reason})")
    d = nxt[0].dealer
    last = st.deal_results[-1][2] if st.deal_results else ""
    expl = (f"Deal {st.deal} was dealt by {who(st, st.dealer)}"
            + (f" and was thrown in ({last})" if last and last != "played" else "")
            + f"; the engine names {who(st, d)} to deal deal {st.deal + 1}.")
    return Exercise(f"Who deals deal {st.deal + 1}?", _choice_of_seats(st, range(len(st.players))), d,
                    expl, section=section)


def game_winner(game: Game, section: str = "") -> Exercise:
    """"Who wins the game?" at the end of ``game``: the engine's winning
    side (``Game.winner``), or ``"none"`` ("nobody yet") when no side has won;
    explanation: the final score and any tie noted by the variant."""
    st = game.state_at(len(game.events))
    n_sides = len(st.score)
    names = [side_label(st, i) for i in range(n_sides)]
    choices = tuple((nm, i) for i, nm in enumerate(names)) + (("nobody yet", "none"),)
    ans = game.winner if game.winner is not None else "none"
    tie = st.extra.get("tied") or st.extra.get("shared_winners")
    expl = ""
    if st.deal_results and st.deal_results[-1][2] == "played":
        facts = _deal_facts(st)
        expl = f"Deal {st.deal}: " + facts + ". "
    expl += "Score: " + ", ".join(f"{nm} {p}" for nm, p in zip(names, st.score)) + ". "
    if ans != "none":
        expl += f"The engine ends the game: {names[ans]} wins."
        ahead = [names[i] for i in range(n_sides) if st.score[i] > st.score[ans]]
        if ahead and game.started.options:
            opts = ", ".join(f"{k}={v!r}" for k, v in sorted(game.started.options.items()))
            expl += (f" {', '.join(ahead)} has more points, but this game's options ({opts}) "
                     "limit who may win on this deal.")
    elif st.game_over and tie:
        expl += "The engine ends the game in a tie between " + ", ".join(names[i] for i in tie) + "."
    else:
        expl += "The engine does not end the game: another deal is played."
    return Exercise("Who wins the game?", choices, ans, expl, section=section)


def renege_points(game: Game, side: int, choices: Sequence[int], finding: int = 0, section: str = "",
                  question: Optional[str] = None) -> Exercise:
    """"With the renege penalised, what does <side> score for the deal?".

    Answer: the deal points of ``side`` under the game's renege rule, from
    the audit (``Game.audit()``, renege finding number ``finding``,
    ``penalty_points``); ``choices``: candidate values (the answer is always
    among them); explanation: the renege, its evidence, when it was
    established and proven, and the penalty in words (rules.md 1.5).
    Raises ``IndexError`` if the game has no such renege finding.
    """
    found = [f for f in game.audit() if f.kind == "renege"]
    if not 0 <= finding < len(found):
        raise IndexError(f"the game has {len(found)} renege finding(s)")
    f = found[finding]
    st = game.state_at(deal_end(game, f.deal))
    answer = f.penalty_points[side]
    names = [side_label(st, i) for i in range(len(f.penalty_points))]
    led = C.SUIT_NAMES.get(f.led_suit, "the led suit")
    expl = (f"At trick {f.trick} {who(st, f.seat)} played {C.pretty(f.card)} while holding "
            f"{', '.join(C.pretty(c) for c in f.evidence)} ({led} led): a renege. "
            f"It was established {f.established}")
    if f.proven:
        expl += f" and shown at trick {f.proven['trick']} when {C.pretty(f.proven['card'])} was played"
    expl += (f". Penalty: {f.penalty}. Deal points with the penalty: "
             + ", ".join(f"{nm} {p:+d}" for nm, p in zip(names, f.penalty_points)) + ".")
    if question is None:
        question = f"With the renege penalised, how many points does {names[side]} score for deal {f.deal}?"
    values = sorted(set(choices) | {answer})
    return Exercise(question, tuple((f"{v:+d}" if v else "0", v) for v in values), answer, expl,
                    section=section)


def cards_held(game: Game, k: int, seat: int, choices: Sequence[int], section: str = "",
               question: Optional[str] = None) -> Exercise:
    """"How many cards does <seat> hold now?" at position ``k`` (e.g. a maker
    who has just picked up the dummy, rules.md 4.3).  Answer: the length of
    the seat's hand in the engine's state; explanation: the hand and the
    engine's reason for what the seat on turn must do next."""
    st = game.state_at(k)
    hand = st.hands[seat]
    answer = len(hand)
    values = sorted(set(choices) | {answer})
    expl = (f"{who(st, seat)} holds {answer} cards: "
            + " ".join(C.pretty(c) for c in C.sort_hand(hand, st.trump))
            + (f". Next, the engine says: {st.legal_reason}" if st.legal_reason else "") + ".")
    if question is None:
        question = f"How many cards does {who(st, seat)} hold now?"
    return Exercise(question, tuple((str(v), v) for v in values), answer, expl, section=section)
