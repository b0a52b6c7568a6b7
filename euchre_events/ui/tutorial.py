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

How an exercise teaches (issue 10): it shows the table *before* the
decision (:attr:`Exercise.board`, drawn with ``hide_answers``: no legal
cards raised, no legal calls or reason, no trick winner, no deal points), so
the page holds no answer until the learner has answered; a wrong pick is
answered with why *that* pick is wrong (:meth:`Exercise.why_wrong`, in a
teacher's words built from the rules functions: the effective suit of
rules.md 1.2, the trick ranking of 1.3, the scoring rule of the game), and
the learner may try again; the right answer, with its explanation and the
table with its highlights (:attr:`Exercise.reveal`), comes with a right
pick, a second wrong one, or **show the answer**.

The question logic (:meth:`Exercise.check`, :meth:`Exercise.why_wrong`) is
pure and needs no widgets; :meth:`Exercise.quiz` (and displaying an
exercise in Jupyter) shows it with the tutorials'
:class:`euchre_events.widgets.Quiz` (question, board, choices, a **check**
button, a **show the answer** button, the feedback; CSS classes ``ee-quiz``,
``ee-quiz-board``, ``ee-quiz-choices``, ``ee-quiz-check``, ``ee-quiz-show``,
``ee-quiz-feedback`` holding ``ee-quiz-right`` or ``ee-quiz-wrong`` with the
mark ``ee-quiz-mark``), imported only then.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence

from euchre_events.rules import cards as C
from euchre_events.rules.registry import make_variant
from euchre_events.rules.seats import side_short
from euchre_events.ui.describe import describe_event, seat_name, sides_of, suit_text
from euchre_events.ui.render import state_html
from euchre_events.events import Event
from euchre_events.ui.display import register_display
from euchre_events.projections import Game, TableState

register_display()   # used in a notebook: Card and TableState draw themselves there

__all__ = [
    "Exercise", "legal_cards", "legal_action", "legal_choice", "trick_winner",
    "trick_words", "leader", "deal_points", "next_dealer", "game_winner",
    "deal_end", "who", "side_words", "renege_points", "cards_held", "boards", "score_rule", "buck_rule",
    "refusal", "points_hint", "seat_target", "card_target", "picture", "Picture", "Lesson",
]


def __getattr__(name):
    # the lesson's progress bar needs ipywidgets: loaded only when a notebook asks for it
    if name == "Lesson":
        from euchre_events.ui.lesson import Lesson
        return Lesson
    raise AttributeError(name)


# ------------------------------------------------------------------ exercise

@dataclass
class Exercise:
    """A question with its choices, right answer and explanation.

    ``choices``: ``((label, value), ...)`` in display order; ``answer``: the
    right value (one of the values), or a ``frozenset`` of values when
    ``multiple`` (pick every right choice, possibly all or none);
    ``explanation``: why, in words (built from the engine's state);
    ``picture``: an HTML fragment shown under the question (cards, a trick);
    ``section``: the rules.md section the exercise is about (``"3.3"``);
    ``board``: the table before the decision with the answers hidden (HTML,
    ``""`` when the exercise is not about one position); ``reveal``: the
    same table with its highlights, shown once the answer is known;
    ``why``: ``{value: words}``, why a pick of that choice is wrong (one
    answer), or, when ``multiple``, why that choice is or is not right;
    ``targets``: per choice (in ``choices`` order), the CSS selector of what
    the learner clicks on the table to give that answer (a card of a hand,
    a seat), ``""`` for a button of the strip under the table (a call, a
    points picker: :class:`euchre_events.ui.lesson.TableQuiz`);
    ``bar_title``: the words in front of those buttons.
    """

    question: str
    choices: tuple
    answer: Any
    explanation: str
    multiple: bool = False
    picture: str = ""
    section: str = ""
    board: str = ""
    reveal: str = ""
    why: dict = field(default_factory=dict)
    targets: tuple = ()
    bar_title: str = ""
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

    def why_wrong(self, picked) -> str:
        """Why the learner's wrong pick is wrong, in words, without giving the
        whole answer away: for one answer, the words for that choice; for
        ``multiple``, the words for each choice ticked that should not be,
        and how many right choices were left out (not which: that would be
        the answer).  ``""`` for a right pick."""
        if self.multiple:
            got = frozenset(picked or ())
            extra = [v for _, v in self.choices if v in got and v not in self.answer]
            missed = [v for _, v in self.choices if v in self.answer and v not in got]
            parts = _merge_clauses([self.why.get(v) or f"{self.label_of(v)} is not one of them" for v in extra])
            if missed:
                # which ones are missing would be the answer: say how many, not which (issue 10)
                n, verb = ("one", "is") if len(missed) == 1 else (str(len(missed)), "are")
                if got & self.answer:
                    parts.append(f"{'one more' if n == 'one' else n + ' more'} of the choices {verb} right too"
                                 + (": look again at the ones you left out" if not extra else ""))
                else:   # nothing right picked: "one more ... too" would say something was
                    parts.append(f"{n} of the other choices {verb} right")
            return "; ".join(parts)
        if picked == self.answer:
            return ""
        return self.why.get(picked) or f"{self.label_of(picked)} is not the answer"

    def check(self, picked) -> tuple:
        """``(correct, feedback)`` for the learner's choice.

        ``picked``: a value (one answer), or an iterable of values when
        ``multiple``; None means nothing chosen yet (then ``correct`` is False
        and the feedback asks for a choice).  A wrong pick's feedback is why
        that pick is wrong (:meth:`why_wrong`), then the right answer and its
        explanation.
        """
        if picked is None and not self.multiple:
            return False, "Choose an answer first."
        ok = (frozenset(picked) == frozenset(self.answer)) if self.multiple else picked == self.answer
        ref = f" (rules.md {self.section})" if self.section else ""
        if ok:
            return True, f"Right: {self.answer_text}. {self.explanation}{ref}"
        return False, (f"Not quite: {self.why_wrong(picked)}. The answer is: {self.answer_text}. "
                       f"{self.explanation}{ref}")

    # ------------------------------------------------------------ widget
    def quiz(self):
        """The exercise as a lesson's :class:`euchre_events.ui.lesson.TableQuiz`:
        the question, the table before the decision, answered by a click on
        the table (``targets``) or on the strip's buttons, the feedback with
        this explanation and its rules.md section.  Built once, then reused."""
        if self._quiz is None:
            from euchre_events.ui.lesson import TableQuiz
            self._quiz = TableQuiz(self)
        return self._quiz

    def then(self, *widgets) -> "Exercise":
        """Show ``widgets`` (say the deal in a :class:`~euchre_events.ui.widgets.GameViewer`)
        under the exercise once it is answered, not before
        (:meth:`euchre_events.ui.lesson.TableQuiz.then`).  Returns the exercise."""
        self.quiz().then(*widgets)
        return self

    def _repr_mimebundle_(self, **kwargs):
        return self.quiz()._repr_mimebundle_(**kwargs)


# ------------------------------------------------------------------ helpers

def who(state: TableState, seat: Optional[int]) -> str:
    """A seat in words for ``state``'s game (``"West"``, ``"P2"``, ``"P1 (Ann)"``)."""
    return seat_name(seat, state.players, len(state.players))


def side_words(state: TableState, side: int) -> str:
    """A side in words: ``"N/S"`` / ``"E/W"`` in partnership games
    (:func:`euchre_events.rules.seats.side_short`), else the seat with the
    player's name (:func:`who`: ``"P2 (Ann)"``)."""
    groups = sides_of(state.variant, len(state.players))
    if len(groups) == len(state.players):
        return who(state, side)
    return side_short(groups[side], len(state.players))


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


def boards(game: Game, k: int, seat: Optional[int] = None) -> tuple:
    """``(board, reveal)``: the table after ``k`` events as an exercise shows
    it before the answer (``hide_answers``: :func:`euchre_events.ui.render.table_parts`)
    and after it (legal cards raised, the reason, the trick winner, the
    points).  ``seat``: draw what that seat could know.  HTML fragments,
    each with the style sheet, record text escaped."""
    st = game.state_at(k)
    nxt = game.events[k] if k < len(game.events) else None
    board = state_html(st, seat, include_css=True, hide_answers=True)
    reveal = state_html(st, seat, findings=game.audit(), next_event=nxt, include_css=True)
    return board, reveal


class Picture:
    """A table drawn for a lesson's text, with nothing a later exercise asks:
    the position as :func:`boards` draws it before an answer (no legal calls
    or cards, nobody on turn), without the exercise's prompt.  Displays as
    HTML in Jupyter (``_repr_html_``); ``html`` is the drawing, record text
    escaped."""

    def __init__(self, game: Game, k: int, caption: str = ""):
        board = boards(game, k)[0]
        board = board.replace('<div class="ee-reason ee-hidden-answer">answer the question to see what the '
                              'rules allow</div>', "")
        cap = f"<div style='margin:2px 0 6px;font-size:13px'>{html.escape(caption)}</div>" if caption else ""
        self.html = board + cap

    def _repr_html_(self) -> str:
        return self.html


def picture(game: Game, k: int, caption: str = "") -> Picture:
    """The table after ``k`` events as a lesson shows it in its text (:class:`Picture`):
    a viewer there would list the legal calls, which a later exercise asks."""
    return Picture(game, k, caption)


def _trump_words(trump: Optional[str]) -> str:
    return "no-trump" if trump is None else f"trump is {suit_text(trump)}"


def _choice_of_seats(state: TableState, seats: Iterable[int]) -> tuple:
    return tuple((who(state, s), s) for s in seats)


def seat_target(seat: int) -> str:
    """The CSS selector of a seat on an exercise's table: its box, and its card in the trick."""
    return f'.ee-seat-{seat}, .ee-played[data-seat="{seat}"]'


def card_target(card: str, seat: Optional[int] = None) -> str:
    """The CSS selector of a card on an exercise's table (in ``seat``'s hand, or anywhere)."""
    where = f".ee-hand-{seat} " if seat is not None else ""
    return f'{where}.ee-card[data-card="{card}"]'


def _merge_clauses(parts: Sequence[str]) -> list:
    """Say a reason once: ``["2 is not allowed here: R", "6 is not allowed here: R"]``
    becomes ``["2 and 6 are not allowed here: R"]``; identical parts once."""
    out: list = []
    groups: dict = {}
    for p in parts:
        head, sep, tail = p.partition(" is not allowed here: ")
        if not sep:
            if p not in out:
                out.append(p)
            continue
        if tail not in groups:
            groups[tail] = []
            out.append(groups[tail])
        groups[tail].append(head)
    merged = []
    for x in out:
        if isinstance(x, list):
            tail = next(t for t, h in groups.items() if h is x)
            heads = x[0] if len(x) == 1 else ", ".join(x[:-1]) + " and " + x[-1]
            merged.append(f"{heads} {'is' if len(x) == 1 else 'are'} not allowed here: {tail}")
        else:
            merged.append(x)
    return merged


_SECTION_REF = re.compile(r"\s*\(rules\.md [0-9.]+(?:, [^)]*)?\)")


def _no_section(text: str) -> str:
    """The rules' words without their own rules.md reference: the exercise cites its
    variant's section (a two-handed exercise must not send the learner to standard's 2.3)."""
    return _SECTION_REF.sub("", text)


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
    # natural suits, as the board draws it before the answer: sorted by trump, the left
    # bower would sit among the trumps and give the answer away (issue 22)
    hand = [c for c in C.sort_hand(st.hands[s], None) if c != C.UNKNOWN]
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
    expl = f"{st.legal_reason[:1].upper()}{st.legal_reason[1:]}. {who(st, s)} may play {', '.join(ok) or 'nothing'}"
    if not_ok:
        expl += f"; playing {', '.join(not_ok)} would be a renege"
    expl += "."
    board, reveal = boards(game, k)
    why = {c: _card_words(st, s, c, c in legal, hand) for c in hand}
    return Exercise(question, tuple((C.pretty(c), c) for c in hand), legal, expl, multiple=True,
                    section=section, board=board, reveal=reveal, why=why,
                    targets=tuple(card_target(c, s) for c in hand))


def _suit_of_card_words(c: str, trump: Optional[str]) -> str:
    """``"a club"``, ``"a heart here (the left bower)"``, ``"the joker, a trump"``."""
    eff = C.effective_suit(c, trump)
    b = C.base(c)
    if b == C.JOKER:
        return f"the joker, a {C.SUIT_SINGULAR[trump]} here (the highest trump)" if eff and trump else "the joker"
    if trump is not None and b == C.left_bower(trump):
        return f"the left bower: a {C.SUIT_SINGULAR[trump]} here, not a {C.SUIT_SINGULAR[C.suit_of(b)]}"
    return f"a {C.SUIT_SINGULAR.get(eff, 'card')}"


def _card_words(st: TableState, s: int, c: str, legal: bool, hand: Sequence[str]) -> str:
    """Why card ``c`` of seat ``s``'s hand may or may not be played now, in a
    teacher's words, from the effective suit (rules.md 1.2) and follow-suit
    (1.3)."""
    name, you = C.pretty(c), who(st, s)
    if not st.trick:
        return f"{name} may be led: whoever leads may lead any card"
    led = (st.extra or {}).get("led_suit") or C.effective_suit(st.trick[0][1], st.trump)
    led_word = C.SUIT_NAMES.get(led, "the suit led")
    follow = [x for x in C.cards_of_suit(hand, led, st.trump)]
    if legal:
        if follow and c in follow:
            return f"{name} is {_suit_of_card_words(c, st.trump)}, so it follows {led_word}: it may be played"
        if not follow:
            return f"{you} holds no {led_word}, so any card may be played, {name} too"
        return f"{name} may be played"
    # how many, not which: naming them would be the answer (issue 22)
    bower = st.trump is not None and any(C.base(x) == C.left_bower(st.trump) for x in follow)
    held = (f"{'a' if len(follow) == 1 else len(follow)} {C.SUIT_SINGULAR[led] if len(follow) == 1 else led_word}"
            if led in C.SUIT_SINGULAR else f"{len(follow)} card{'s' if len(follow) != 1 else ''} of the suit led")
    if bower:   # where that card is would be the answer: remind the rule only
        held += " (look at every card's suit as trump makes it)"
    return (f"{name} is {_suit_of_card_words(c, st.trump)}, but {you} still holds {held}, "
            f"so {you} must follow {led_word}")


def _legal_words(st: TableState) -> str:
    acts = [describe_event(e, st.players, st.dealer) for e in st.legal]
    return "; ".join(acts) if acts else "nothing"


def refusal(game: Game, k: int, event: Event) -> str:
    """Why the rules refuse ``event`` at position ``k``, in their own words:
    the irregularity the engine flags when the event is recorded anyway
    (a plain 12 in double-deck Bid Euchre, rules.md 7.10; a stuck dealer's
    pass, 2.3), or the reason it cannot happen at all.  ``""`` for a legal
    event or when the rules give no words.  Nothing is stored."""
    from euchre_events.rules.engine import ImpossibleEvent
    if event in game.state_at(k).legal:
        return ""
    try:
        g = Game(list(game.events[:k]) + [event])
    except ImpossibleEvent as e:
        why = _named(getattr(e, "reason", "") or str(e), game)
        # "Passed is not possible now (phase pickup)" names the engine's event and phase,
        # not a rule: the caller then says what the rule allows (the state's legal_reason)
        return "" if re.search(r"is not possible now \(phase \w+\)", why) else _no_section(why)
    except ValueError as e:
        return _no_section(str(e))
    st = g.state_at(k + 1)
    new = [f for f in st.flags if getattr(f, "position", None) == k]
    if not new:
        return ""
    # the flag speaks to a director ("seat 0: ...; it stands as a pass"): keep the rule only
    text = re.sub(r"^seat \d+: ", "", new[-1].text)
    return _no_section("; ".join(p for p in text.split("; ") if "stand" not in p and "kept as recorded" not in p))


def _named(text: str, game: Game) -> str:
    """Rules' words naming seats by index ("seat 2 acts out of turn") as people say them."""
    from euchre_events.rules.seats import name_seats
    return name_seats(text, game.players, len(game.players))


def legal_action(game: Game, k: int, event: Event, question: str, section: str = "") -> Exercise:
    """A yes/no question: is ``event`` legal at position ``k``?

    Answer ``"yes"`` if the engine lists ``event`` among the legal actions of
    the seat on turn, else ``"no"``; the explanation gives the engine's
    reason and the actions it allows.  On the table: the call as a button
    ("allowed") and "not allowed" (values ``"yes"``, ``"no"``).
    """
    st = game.state_at(k)
    answer = "yes" if event in st.legal else "no"
    act = describe_event(event, st.players, st.dealer)
    expl = (f"Here the rule is: {st.legal_reason}. {who(st, st.turn)} may: {_legal_words(st)}; "
            f"so \u201c{act}\u201d is {'' if answer == 'yes' else 'not '}allowed.")
    why = {"yes": f"\u201c{act}\u201d is not among what {who(st, st.turn)} may do now: "
                  f"{refusal(game, k, event) or st.legal_reason}",
           "no": f"\u201c{act}\u201d is allowed here: it is one of {who(st, st.turn)}'s choices ({st.legal_reason})"}
    board, reveal = boards(game, k)
    return Exercise(question, (("allowed", "yes"), ("not allowed", "no")), answer, expl, section=section,
                    board=board, reveal=reveal, why=why, bar_title=f"\u201c{act}\u201d:")


def legal_choice(game: Game, k: int, candidates: Sequence[Event], question: str,
                 section: str = "", labels: Optional[Sequence[str]] = None) -> Exercise:
    """"Which of these may <seat> do?": pick every candidate event the engine
    allows at position ``k``.  ``labels`` name the candidates (default: the
    events in words).  Answer: the set of indices of the legal candidates."""
    st = game.state_at(k)
    if labels is None:
        labels = [describe_event(e, st.players, st.dealer) for e in candidates]
    legal = frozenset(i for i, e in enumerate(candidates) if e in st.legal)
    expl = f"Here the rule is: {st.legal_reason}. {who(st, st.turn)} may: {_legal_words(st)}."
    why = {i: (f"{lab} is allowed ({st.legal_reason})" if i in legal
               else f"{lab} is not allowed here: {refusal(game, k, e) or st.legal_reason}")
           for i, (lab, e) in enumerate(zip(labels, candidates))}
    board, reveal = boards(game, k)
    return Exercise(question, tuple((lab, i) for i, lab in enumerate(labels)), legal, expl,
                    multiple=True, section=section, board=board, reveal=reveal, why=why,
                    bar_title=f"{who(st, st.turn)}:" if st.turn is not None else "")


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
    beaten = [cards[i] for i, x in enumerate(r.roles) if x not in counting and x == C.TrickRole.LED]
    others = [cards[i] for i, x in enumerate(r.roles) if x not in counting and x != C.TrickRole.LED]
    if beaten:   # cards of the led suit, once a trump is in the trick (rules.md 1.3)
        out.append(", ".join(C.pretty(c) for c in beaten) + " cannot win (a trump was played)")
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
    twins_first = game.final.variant.first_twin_wins
    words = trick_words(cards, st.trump, led, seats.index(winner), low, twins_first)
    question = (f"{_trump_words(st.trump).capitalize()}. Trick {trick}: "
                + "; ".join(f"{who(st, s)} {'leads' if i == 0 else 'plays'} {C.pretty(c)}"
                            for i, (s, c) in enumerate(plays))
                + ". Who wins it?")
    # the board: just after the trick's last card, the trick still in the middle
    k = first
    while k < end and len(game.state_at(k).tricks) < trick:
        k += 1
    board, reveal = boards(game, k)
    r = C.rank_trick(cards, st.trump, led, low, twins_first)
    w = seats.index(winner)
    why = {}
    for i, (s, c) in enumerate(plays):
        if s == winner:
            continue
        role = r.roles[i]
        if i in r.twins:
            why[s] = (f"{who(st, s)}'s {C.pretty(c)} is identical to {who(st, winner)}'s, and of two "
                      f"identical cards the one played first wins")
        elif st.trump is not None and role not in (C.TrickRole.TRUMP, C.TrickRole.TOP, C.TrickRole.LED):
            why[s] = (f"{who(st, s)}'s {C.pretty(c)} cannot win: it is {_suit_of_card_words(c, st.trump)}, "
                      "neither trump nor the suit led")
        elif st.trump is None and role not in (C.TrickRole.TOP, C.TrickRole.LED):
            why[s] = f"{who(st, s)}'s {C.pretty(c)} cannot win: at no-trump only the suit led can win"
        elif r.roles[w] == C.TrickRole.TRUMP and role != C.TrickRole.TRUMP:
            why[s] = (f"{who(st, s)}'s {C.pretty(c)} is {_suit_of_card_words(c, st.trump)}, but a trump was "
                      f"played, and any trump beats every card of the suit led")
        elif r.roles[w] == C.TrickRole.TRUMP:
            # which card beats it would be the answer: say where to look (issue 22)
            why[s] = (f"{who(st, s)}'s {C.pretty(c)} is a trump, but another trump in this trick ranks higher: "
                      "rank the trumps again, the bowers first")
        else:
            why[s] = (f"{who(st, s)}'s {C.pretty(c)} follows suit, but another card of the suit led "
                      "ranks higher")
    return Exercise(question, _choice_of_seats(st, seats), winner, words,
                    picture="" if board else _trick_html(st, plays), section=section,
                    board=board, reveal=reveal, why=why, targets=tuple(seat_target(x) for x in seats))


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
    reasons = _leader_facts(st, s)
    expl = ("Here: " + "; ".join(facts) + f". So {who(st, s)} leads"
            + (": " + "; ".join(reasons) if reasons else "") + ".")
    why = {}
    for x in range(n):
        if x == s:
            continue
        mine = _leader_facts(st, x) or [f"{who(st, x)} is "
                                        + ("the dealer" if x == st.dealer else "not on the dealer's left")]
        if x in st.sitting_out:
            mine = [f"{who(st, x)} sits out this deal"]
        why[x] = "; ".join(mine) + ": that does not give the first lead"
    board, reveal = boards(game, k)
    return Exercise("Who leads to the first trick?", _choice_of_seats(st, range(n)), s, expl,
                    section=section, board=board, reveal=reveal, why=why,
                    targets=tuple(seat_target(x) for x in range(n)))


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
        words += " (" + ", ".join(f"{side_words(st, i)} {k}" for i, k in enumerate(st.tricks_by_side)) + ")"
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
    names = [side_words(st, i) for i in range(len(pts))]
    facts = _deal_facts(st)
    rule = buck_rule(st, side, pts) if st.variant == "buck" else score_rule(st, pts)
    if st.variant == "ghost-hand" and st.maker is not None and side != st.maker and side < len(st.tricks_won):
        # rules.md 5.4: whatever became of the bid, a player who did not win the bidding scores its own tricks
        took = st.tricks_won[side]
        rule = (f"{who(st, side)} did not win the bidding and took {took} trick{'s' if took != 1 else ''}: "
                f"such a player scores {make_variant(st.variant).PER_TRICK} a trick, whatever became of the bid")
    expl = (facts[:1].upper() + facts[1:] + ". " + (rule[:1].upper() + rule[1:] + ": " if rule else "")
            + ", ".join(f"{nm} {p:+d}" for nm, p in zip(names, pts))
            + "; score now " + ", ".join(f"{nm} {p}" for nm, p in zip(names, st.score)) + ".")
    if question is None:
        question = f"How many points does {names[side]} score for deal {deal}?"
    # why a pick is wrong: the case the deal fell under, neither the number nor the
    # rate that gives it (that is the answer, issue 22)
    hint = points_hint(st, side, pts)
    why = {v: f"not {_signed(v)}: {hint}" for v in values if v != answer}
    board, reveal = boards(game, deal_end(game, deal))
    return Exercise(question, tuple((_signed(v), v) for v in values), answer, expl,
                    section=section, board=board, reveal=reveal, why=why, bar_title="points:")


def points_hint(st: TableState, side: int, pts: Sequence[int]) -> str:
    """The scoring case a side's deal fell under, in words, without the points
    it pays (a hint for a wrong pick: the number is the answer): ``"euchred:
    P2 (Ben), the maker, took only 2 tricks; look up what a euchre pays
    P1 (Ann)"``.  ``st``: the state at the deal's end; ``side``: a score
    index; ``pts``: the deal's points per side.  Rules: 2.6, 3.4, 4.5, 5.4,
    6.4, 7.5.  Never raises."""
    if not 0 <= side < len(pts):
        return "look again at who made trump and the tricks taken"
    x = side_words(st, side)
    if st.variant == "buck":
        if side in st.sitting_out:
            return f"{x} dropped out of this deal: look up what that scores"
        took = st.tricks_won[side] if side < len(st.tricks_won) else 0
        n = f"{took} trick{'s' if took != 1 else ''}"
        if side == st.maker:
            if took < make_variant(st.variant).tricks_needed():
                return f"{x}, the maker, took only {n}: look up what being bucked costs"
            return f"{x}, the maker, took {n}: count what each trick is worth (scores count down)"
        if took == 0:
            return f"{x} stayed in and took no trick: look up what that costs (scores count down)"
        return f"{x} stayed in and took {n}: count what each trick is worth (scores count down)"
    if st.maker is None:
        return "nobody made trump in this deal"
    groups = sides_of(st.variant, len(st.players))
    ms = next((i for i, g in enumerate(groups) if st.maker in g), None)
    if ms is None:
        return "look again at who made trump and the tricks taken"
    total = sum(st.tricks_won)
    took = sum(st.tricks_won[s] for s in groups[ms] if s < len(st.tricks_won))
    mine = sum(st.tricks_won[s] for s in groups[side] if s < len(st.tricks_won)) if side < len(groups) else 0
    makers = "the makers" if len(groups[ms]) > 1 else f"{who(st, st.maker)}, the maker,"
    contract = st.extra.get("contract")
    if isinstance(contract, int) or contract in ("pb", "moon"):
        bid = {"pb": "partner's best", "moon": "shoot the moon"}.get(contract, contract)
        case = (f"{side_words(st, ms)} bid {bid} and took {took} of {total} tricks"
                + ("" if side == ms else f"; {x} did not win the bidding and took {mine}"))
        return case + ": look up what that scores"
    alone = " alone" if st.alone is not None else ""
    if pts[ms] <= 0:
        case = f"euchred: {makers} took only {took} trick{'s' if took != 1 else ''}"
    elif took == total:
        case = f"a march: {makers} took all {total} tricks{alone}"
    else:
        case = f"{makers} took {took} of {total} tricks{alone}"
    whom = "the makers" if side == ms and len(groups[ms]) > 1 else (
        "the maker" if side == ms else ("each defender" if len(groups) > 2 else "the defenders"
                                        if len(groups[side]) > 1 else "the defender"))
    extra = f" ({x} sat out)" if side in st.sitting_out else ""
    return f"{case}{extra}: look up what that pays {whom}"


def _signed(v: int) -> str:
    return f"{v:+d}" if v else "0"


def buck_rule(st: TableState, side: int, pts: Sequence[int]) -> str:
    """The Buck Euchre scoring rule one player's deal fell under, in words
    (rules.md 6.4, cases C8, C9; scores count down from 25, so a trick is
    minus 1 and being bucked plus 5): ``"South, the maker, took 3 tricks:
    minus 1 a trick"``, ``"bucked: West stayed in and took no trick, so West
    goes up 5"``, ``"East dropped out: a player who drops out scores
    nothing"``.  ``st``: the state at the deal's end; ``side``: the player
    (seat index); ``pts``: the deal's points per player (to tell a bucked
    maker).  Never raises."""
    if not 0 <= side < len(st.players):
        return ""
    x = who(st, side)
    if side in st.sitting_out:
        return f"{x} dropped out: a player who drops out scores nothing"
    took = st.tricks_won[side] if side < len(st.tricks_won) else 0
    n = f"{took} trick{'s' if took != 1 else ''}"
    # the numbers are the variant's own (BuckEuchre.score_deal counts with them)
    v = make_variant(st.variant)
    need, up, per = v.tricks_needed(), v.BUCKED, f"minus {-v.PER_TRICK} a trick"
    if side == st.maker:
        if side < len(pts) and pts[side] > 0:
            return f"bucked: {x}, the maker, took only {n} (fewer than {need}), so {x} goes up {up}"
        return f"{x}, the maker, took {n}: {need} or more, so {per}"
    no_maker = " (no maker: clubs were turned up, or everyone passed twice)" if st.maker is None else ""
    if took == 0:
        return f"bucked: {x} stayed in and took no trick, so {x} goes up {up}{no_maker}"
    return f"{x} stayed in and took {n}: {per}{no_maker}"


def score_rule(st: TableState, pts: Sequence[int]) -> str:
    """The scoring rule a deal fell under, in words (rules.md 2.6, 3.4,
    4.5, 5.5, 6.4, 7.5): ``"euchred: the makers took only 2 tricks, so the
    defenders score 2"``, ``"a march: the makers took all 5 tricks"``,
    ``"made: the makers took 3 of 5 tricks"``, ``"set: N/S bid 4 and took
    3"``.  ``st``: the state at the deal's end; ``pts``: the deal's points
    per side.  ``""`` when nobody made trump.  Never raises."""
    if st.maker is None:
        return ""
    groups = sides_of(st.variant, len(st.players))
    ms = next((i for i, g in enumerate(groups) if st.maker in g), None)
    if ms is None or ms >= len(pts):
        return ""
    total = sum(st.tricks_won)
    took = sum(st.tricks_won[x] for x in groups[ms] if x < len(st.tricks_won))
    makers = "the makers" if len(groups[ms]) > 1 else who(st, st.maker)
    contract = st.extra.get("contract")
    alone = " alone" if st.alone is not None else ""
    others = [p for i, p in enumerate(pts) if i != ms]
    if isinstance(contract, int) or contract in ("pb", "moon"):
        bid = {"pb": "partner's best", "moon": "shoot the moon"}.get(contract, contract)
        side = side_words(st, ms)
        if pts[ms] > 0:
            return f"bid made: {side} bid {bid} and took {took} of {total} tricks"
        return f"set: {side} bid {bid} and took only {took}, so they lose {-pts[ms]}"
    if pts[ms] > 0:
        if took == total:
            return f"a march: {makers} took all {total} tricks{alone}, worth {pts[ms]}"
        return f"made: {makers} took {took} of {total} tricks, worth {pts[ms]}"
    if any(p > 0 for p in others):
        rest = [g for i, g in enumerate(groups) if i != ms]
        # two-handed: one defender, who scores alone (rules.md 3.4)
        defenders = (f"the defender, {who(st, rest[0][0])}, scores" if len(rest) == 1 and len(rest[0]) == 1
                     else "the defenders score")
        return (f"euchred: {makers} took only {took} trick{'s' if took != 1 else ''}, "
                f"so {defenders} {max(others)}")
    if pts[ms] < 0:
        return f"{makers} took {took} of {total} tricks and lose {-pts[ms]}"
    return ""


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
            + f"; the deal passes to the left, thrown in or not, so {who(st, d)} deals deal {st.deal + 1}.")
    why = {x: (f"{who(st, x)} dealt deal {st.deal}, and the deal moves on even when a deal is thrown in"
               if x == st.dealer else f"the deal passes one seat to the left, to {who(st, d)}, not {who(st, x)}")
           for x in range(len(st.players)) if x != d}
    board, reveal = boards(game, len(game.events))
    return Exercise(f"Who deals deal {st.deal + 1}?", _choice_of_seats(st, range(len(st.players))), d,
                    expl, section=section, board=board, reveal=reveal, why=why,
                    targets=tuple(seat_target(x) for x in range(len(st.players))))


def game_winner(game: Game, section: str = "") -> Exercise:
    """"Who wins the game?" at the end of ``game``: the engine's winning
    side (``Game.winner``), or ``"none"`` ("nobody yet") when no side has won;
    explanation: the final score and any tie noted by the variant."""
    st = game.state_at(len(game.events))
    n_sides = len(st.score)
    names = [side_words(st, i) for i in range(n_sides)]
    choices = tuple((nm, i) for i, nm in enumerate(names)) + (("nobody yet", "none"),)
    ans = game.winner if game.winner is not None else "none"
    tie = st.extra.get("tied") or st.extra.get("shared_winners")
    expl = ""
    if st.deal_results and st.deal_results[-1][2] == "played":
        facts = _deal_facts(st)
        expl = f"Deal {st.deal}: " + facts + ". "
    expl += "Score: " + ", ".join(f"{nm} {p}" for nm, p in zip(names, st.score)) + ". "
    if ans != "none":
        expl += f"That ends the game: {names[ans]} wins."
        ahead = [names[i] for i in range(n_sides) if st.score[i] > st.score[ans]]
        if ahead and game.started.options:
            opts = ", ".join(f"{k}={v!r}" for k, v in sorted(game.started.options.items()))
            expl += (f" {', '.join(ahead)} has more points, but this game's options ({opts}) "
                     "limit who may win on this deal.")
    elif st.game_over and tie:
        expl += "The game ends in a tie between " + ", ".join(names[i] for i in tie) + "."
    else:
        top = max(st.score) if st.score else 0
        level = [names[i] for i in range(n_sides) if st.score[i] == top]
        if len(level) > 1:    # e.g. rules.md 4.5: two players reach the target together, level
            expl += f"{' and '.join(level)} are level at the top with {top}: a tie is not a win. "
        expl += "Nobody has won yet: another deal is played."
    why = {}
    for v in [c[1] for c in choices]:
        if v == ans:
            continue
        if v == "none":
            why[v] = "the game is over on this deal: look at the score and at how the deal went"
        elif ans == "none" and st.score[v] == max(st.score) and list(st.score).count(st.score[v]) > 1:
            others = [names[i] for i in range(n_sides) if i != v and st.score[i] == st.score[v]]
            why[v] = (f"{names[v]} has {st.score[v]} points, but so has {' and '.join(others)}: "
                      "level at the top is not a win, so another deal is played")
        else:
            # not who has won: that is the answer (issue 22)
            why[v] = (f"{names[v]} has {st.score[v]} points: not a win" + (" yet" if ans == "none" else ""))
    board, reveal = boards(game, len(game.events))
    groups = sides_of(st.variant, len(st.players))
    targets = tuple(", ".join([seat_target(x) for x in groups[i]] + [f".ee-side-{i}"]) if i < len(groups) else ""
                    for i in range(n_sides)) + ("",)
    return Exercise("Who wins the game?", choices, ans, expl, section=section,
                    board=board, reveal=reveal, why=why, targets=targets, bar_title="or:")


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
    names = [side_words(st, i) for i in range(len(f.penalty_points))]
    led = C.SUIT_NAMES.get(f.led_suit, "the led suit")
    expl = (f"At trick {f.trick} {who(st, f.seat)} played {C.pretty(f.card)} while holding "
            f"{', '.join(C.pretty(c) for c in f.evidence)} ({led} led): a renege. "
            f"It was established {_named(f.established, game)}")
    if f.proven:
        expl += f" and shown at trick {f.proven['trick']} when {C.pretty(f.proven['card'])} was played"
    expl += (f". Penalty: {f.penalty}. Deal points with the penalty: "
             + ", ".join(f"{nm} {p:+d}" for nm, p in zip(names, f.penalty_points)) + ".")
    if question is None:
        question = f"With the renege penalised, how many points does {names[side]} score for deal {f.deal}?"
    values = sorted(set(choices) | {answer})
    why = {v: f"not {_signed(v)}: score the deal as played first, then apply the renege penalty"
           for v in values if v != answer}
    return Exercise(question, tuple((_signed(v), v) for v in values), answer, expl,
                    section=section, why=why, bar_title="points:")


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
            + (f". Next: {st.legal_reason}" if st.legal_reason else "") + ".")
    if question is None:
        question = f"How many cards does {who(st, seat)} hold now?"
    why = {v: f"not {v}: count the cards of the hand and the cards it has just taken" for v in values if v != answer}
    return Exercise(question, tuple((str(v), v) for v in values), answer, expl, section=section, why=why,
                    bar_title="cards:")
