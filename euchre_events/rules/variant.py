"""The base of a rule set: :class:`Variant` declares every hook the shared
engine calls (abstract where a variant must supply it), and
:class:`VariantOptions` is the base of each variant's options dataclass
(docs/design.md "What a variant is").  Pure: no I/O.
"""
from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from typing import Any, Optional, Sequence

from euchre_events.events import MAX_NUMBER, CardsDealt, Event, describe_value, field_types, type_problem
from euchre_events.rules.seats import side_groups, side_short
from euchre_events.rules import cards as C
from euchre_events.rules.table import PLAY, ImpossibleEvent, Renege, Table

PLAY_HOOKS = ("trick_size", "tricks_in_deal", "trick_winner", "after_trick", "after_card",
              "exempt_from_following")
"""The variant hooks the engine's ``_play`` calls (add any new hook that
``_play`` calls here): ``engine.fold`` and the fast core
(``rules/fastcore.py``) take their shortcuts only for a variant that keeps
the base version of every one of them."""


class Variant(ABC):
    """Base of a rule set.  Subclasses override the hooks they need.

    Class attributes: ``name`` (the variant id used in events and files),
    ``options_class`` (a frozen dataclass with defaults from rules.md),
    ``auction_state`` and ``contract_state`` (the frozen dataclasses the
    variant keeps in ``Table.auction`` and ``Table.contract``, or None),
    ``n_seats``, ``n_sides``, ``hand_size``, ``tricks_per_deal``.
    """

    name = "base"
    options_class: Any = None
    auction_state: Any = None
    """The frozen dataclass of this variant's auction state (``Table.auction``), or None."""
    contract_state: Any = None
    """The frozen dataclass of this variant's contract state (``Table.contract``:
    exchanges, dummy, drop-outs, the contract's outcome), or None."""
    n_seats = 4
    n_sides = 2
    hand_size = 5
    tricks_per_deal = 5

    def __init__(self, options: Any = None):
        if options is None:
            options = self.options_class()
        elif isinstance(options, dict):
            options = options_from_dict(self.options_class, options)
        elif not isinstance(options, self.options_class):
            raise ValueError(f"the options of {self.name} must be an object of name: value pairs, "
                             f"not {describe_value(options)}")
        self.options = options

    # --- seats and sides
    partnerships = True
    """False where every player scores alone (side == seat, no partner)."""

    def side_of(self, seat: int) -> int:
        """Side that ``seat`` scores for: seat % 2 in partnership games
        (side 0 = seats 0 and 2), else the seat itself."""
        return seat % 2 if self.partnerships else seat

    def partner_of(self, seat: int) -> Optional[int]:
        """The partner's seat (opposite), or None where there are no partnerships."""
        return (seat + 2) % 4 if self.partnerships and self.n_seats == 4 else None

    def initial_scores(self) -> list:
        """Scores at the start of a game, one per side."""
        return [0] * self.n_sides

    # --- dealing
    def deck(self) -> list:
        """The deck of this variant (24 cards unless overridden)."""
        return C.deck()

    def next_dealer(self, t: Table) -> int:
        """Dealer of the next deal: one seat to the left (rules.md 1.4)."""
        return (t.dealer + 1) % t.n_seats if t.dealer is not None else 0

    def check_dealt(self, t: Table, ev: CardsDealt) -> None:
        """Raise :class:`ImpossibleEvent` if the dealt cards have the wrong shape."""
        if len(ev.hands) != t.n_seats:
            raise ImpossibleEvent(f"{len(ev.hands)} hands dealt, this game has {t.n_seats} seats")
        if set(map(len, ev.hands)) != {self.hand_size}:  # then name the first short or long hand
            for s, h in enumerate(ev.hands):
                if len(h) != self.hand_size:
                    raise ImpossibleEvent(f"seat {s} was dealt {len(h)} cards, not {self.hand_size}")

    # --- hooks the subclasses implement
    @abstractmethod
    def start_auction(self, t: Table) -> None:
        """Enter the variant's first auction phase after CardsDealt (sets ``t.phase`` and ``t.turn``)."""

    def legal(self, t: Table) -> tuple:
        """(legal events, reason in words) for the phase the variant owns."""
        return (), ""

    def apply(self, t: Table, ev: Event) -> None:
        """Fold an auction or exchange event; raise :class:`ImpossibleEvent` if the phase does not admit it."""
        raise ImpossibleEvent(f"{ev.kind} is not possible now (phase {t.phase})")

    def first_leader(self, t: Table) -> int:
        """Seat that leads trick 1: left of the dealer, skipping seats that sit out."""
        return t.next_active(t.dealer)

    MAKERS_NEED = 3
    """Tricks of the deal's 5 the makers of a trump call must take for the
    call to stand (rules.md 2.6, 3.4, 4.5, 6.4); fewer is a euchre (Buck:
    bucked)."""

    def tricks_needed(self, contract: Any = None) -> int:
        """The tricks the makers (or the maker) must take for their call to
        stand: a bid of 3 or more needs the bid (rules.md 5.4, 7.5),
        partner's best and shoot the moon every trick of the deal
        (``"pb"``, ``"moon"``), a trump call with no bid
        :data:`MAKERS_NEED` (3).  ``contract``: the bid, or None.  The one
        place the read models, the tutorial and every variant's
        :meth:`score_deal` ask (through :meth:`call_made`)."""
        if isinstance(contract, int) and not isinstance(contract, bool):
            return contract
        if contract in ("pb", "moon"):
            return self.tricks_per_deal
        return self.MAKERS_NEED

    def maker_tricks(self, tricks_won: Sequence[int], maker: int) -> int:
        """Tricks the maker's side took in a deal: ``tricks_won`` per seat,
        summed over the seats :meth:`side_of` puts on ``maker``'s side (the
        maker alone where every player scores alone)."""
        if self.partnerships and type(self).side_of is Variant.side_of:
            return sum(tricks_won[maker % 2::2])   # side = seat % 2
        side = self.side_of(maker)
        return sum(n for s, n in enumerate(tricks_won) if self.side_of(s) == side)

    def call_made(self, tricks_won: Sequence[int], maker: int, contract: Any = None) -> bool:
        """Whether the call of ``maker`` stood: its side's tricks
        (:meth:`maker_tricks`) reach :meth:`tricks_needed` for
        ``contract`` (the bid, or None); else a euchre, a set, or bucked
        (rules.md 2.6, 3.4, 4.5, 5.4, 6.4, 7.5).  The one rule every
        :meth:`score_deal` and the read models' ``made`` ask."""
        return self.maker_tricks(tricks_won, maker) >= self.tricks_needed(contract)

    @abstractmethod
    def score_deal(self, t: Table) -> list:
        """Points per side for the deal just finished."""

    def orders_tricks(self) -> bool:
        """Whether :meth:`trick_order` can be other than None under these
        options (standard's ``fast_break``); False by default."""
        return False

    def trick_order(self, t: Table) -> Optional[bool]:
        """How the order in which tricks fall bears on the points of the
        deal at ``t`` (a position in the play): None where only how many
        tricks each seat takes counts (every rule set as played, the
        default); False where the counts decide given the tricks already
        played (:meth:`score_deal` reads those: it scores a final count
        on the tricks :meth:`completed_tricks` gives); True where the order
        of the tricks still to play decides too (standard's ``fast_break``
        before its third trick).  The face-up solver searches the play by
        counts where this is not True, and keeps positions apart by it."""
        return None

    def completed_tricks(self, t: Table, won: Sequence[int]) -> list:
        """``t.tricks`` completed to the end of the deal for scoring the
        final tricks won per seat ``won`` (``score_deal`` on a copy of ``t``
        with these tricks and ``won``), where :meth:`trick_order` is not
        True: the tricks still to play in an order that scores as every
        order would.  The default: ``t.tricks`` as they are (the points do
        not read them)."""
        return t.tricks

    SCORES_BY_SIDE = True
    """What :meth:`score_deal` reads of a finished deal: the tricks won only
    as each side's total (:meth:`side_of`: a partnership's tricks, whoever
    of the two took them: :meth:`maker_tricks`), never the trump suit
    (rules.md 2.6, 3.4, 4.5, 5.4, 6.4, 7.5: the points follow the tricks
    each side took and the contract).  The face-up solver scores each way
    the sides' tricks can end once per contract, whatever the trump, for
    every way the seats of a side share them (``_outcomes`` in
    :mod:`euchre_events.analysis.solver`).  A variant whose points read
    which seat of a side took a trick, or the trump, sets it False (the
    solver then scores every seat's count for each trump)."""

    def game_winner(self, t: Table, scores: Sequence[int]) -> Any:
        """Who has won after the deal just scored, with ``scores`` (points
        per side: the official ones, or the as-played ones, rules.md 1.6):
        a side; a tuple of sides when the game ends with no single winner
        (tied, or a shared win: :meth:`record_tie` then notes them); or None
        while the game goes on.  Pure: changes nothing (the engine calls it
        for both scores)."""
        return None

    def penalty_order(self) -> Optional[str]:
        """When the renege penalties of a deal that is scored as played are
        scored, as the race to the target sees it (rules.md 1.6): ``"before"``
        the hand's points (the 1888 laws: "the penalty is scored before
        anything else", 1.5), ``"after"`` them (casual: "the hand is played
        out and scored as usual, then +2 to the other side", 2.7), or None
        (the penalty replaces the hand's points, or the game's tie rule
        decides)."""
        return None

    def scoring_steps(self, t: Any) -> Optional[list]:
        """The official points per side of the deal just decided, in the
        order the rules score them (:meth:`penalty_order`): ``[hand,
        penalties]`` or ``[penalties, hand]`` (each a tuple of points per
        side), one step ``[official points]`` when there is no order (no
        penalty, or a ruling that gave its own points), or None when the
        deal's official outcome is not known yet (the as-played score).
        ``t`` is the table as ``game_winner`` sees it (the deal just scored
        is the last of ``t.deal_results``)."""
        i = len(t.deal_results) - 1
        outcomes = t.deal_outcomes
        if i < 0 or i >= len(outcomes) or outcomes[i] is None:
            return None
        o = outcomes[i]
        order = self.penalty_order()
        if (order is None or not o.penalized or o.note == "abandoned"
                or any(u.deal == o.deal and u.ruling == "upheld" and u.penalty is not None
                       for u in t.rulings)):
            return [tuple(o.points)]
        hand = tuple(t.deal_results[i][1])
        penalties = tuple(p - h for p, h in zip(o.points, hand))
        return [hand, penalties] if order == "after" else [penalties, hand]

    def first_at_target(self, t: Any, scores: Sequence[int], target: int) -> tuple:
        """The sides that reached ``target`` first on the deal just decided
        (rules.md 1.6: the first to the target wins), walking its
        :meth:`scoring_steps` from the score before it (``scores`` less the
        deal's points); all the sides at ``target`` or more when the order
        is not known.  Used where a game has no tie rule of its own because
        a normal hand scores one side only (standard, two-handed: 2.6, 3.4),
        when a renege penalty lets both sides cross on one deal."""
        over = tuple(s for s, p in enumerate(scores) if p >= target)
        if len(over) < 2:
            return over
        steps = self.scoring_steps(t)
        if not steps:
            return over
        now = [p - sum(step[s] for step in steps) for s, p in enumerate(scores)]
        for step in steps:
            now = [p + d for p, d in zip(now, step)]
            first = tuple(s for s, p in enumerate(now) if p >= target)
            if first:
                return first
        return over

    def record_tie(self, t: Table, sides: tuple) -> None:
        """Note a game that ended with ``sides`` tied or sharing the win
        (the variant's contract state; e.g. Buck's ``tied``, rules.md 6.4)."""
        return None

    def renege_penalty(self, t: Table, r: Renege, deal_points: Sequence[int]) -> tuple:
        """``(points per side for the deal, abandons_hand, words)`` for one
        established renege ``r``, given the deal's points so far
        (``deal_points``: as played, or with earlier penalties applied):
        the points replace the deal's (rules.md 1.5 and each variant's renege
        section)."""
        return [0] * self.n_sides, False, "no penalty defined"

    def official_deal_points(self, t: Table, penalized: Sequence, deal_points: Sequence[int]) -> tuple:
        """The official points of a deal (rules.md 1.5, 2.7): ``penalized``
        is ``[(Renege, ruled points per side or None), ...]`` in play order,
        the reneges the policy, the claims and the rulings penalize;
        ``deal_points``: the deal's points as played (0 each for an
        abandoned deal).  Each penalty applies in order to the points so
        far; one that abandons the hand (the ``tournament`` presets) ends
        it there, so a later renege no longer counts; a ruling's own points
        replace the deal's and end it too.  Returns ``(points per side,
        ((renege position, words), ...))``, the penalties applied."""
        pts = list(deal_points)
        applied = []
        for r, ruled in penalized:
            if ruled is not None:
                applied.append((r.position, "as ruled: the deal scores "
                                + "-".join(str(p) for p in ruled)))
                return tuple(ruled), tuple(applied)
            pts, abandons, words = self.renege_penalty(t, r, pts)
            applied.append((r.position, words))
            if abandons:
                break
        return tuple(pts), tuple(applied)

    def after_trick(self, t: Table) -> bool:
        """Hook after each trick; return True to end the deal early."""
        return False

    # --- play hooks: the shared trick engine's defaults (rules.md 1.3)
    def trick_size(self, t: Table) -> int:
        return t.n_seats - len(t.out)


    def tricks_in_deal(self, t: Table) -> int:
        return self.tricks_per_deal


    def trick_winner(self, t: Table, cards: list) -> int:
        return C.trick_winner_index(cards, t.trump, t.led_suit if t.led_suit else None, low=t.low,
                                    first_twin_wins=self.first_twin_wins)

    def sides(self) -> list:
        """The seats of each side in score order (:func:`~euchre_events.rules.seats.side_groups`
        of :meth:`side_of`): ``[[0, 2], [1, 3]]``, ``[[0], [1], [2]]``."""
        return side_groups(self.n_seats, self.n_sides, self.side_of)

    def side_name(self, side: int) -> str:
        """A side's short name (``"N/S"``, ``"P2"``; :func:`~euchre_events.rules.seats.side_short`),
        for the rules' own words (a renege penalty's note)."""
        return side_short(self.sides()[side], self.n_seats)

    @property
    def first_twin_wins(self) -> bool:
        """Of two identical cards in a trick (a double deck), the first
        played wins (rules.md 1.3); the option ``first_twin_wins`` of a
        game that has one (Bid, 5), else True.  The one place that option
        is read (the engine, its fast path, the solver, the tutorial)."""
        return getattr(self.options, "first_twin_wins", True)


    def may_throw_in(self, t: Table, ev: Event) -> bool:
        return False


    def exempt_from_following(self, t: Table, card: str) -> bool:
        """True if ``card`` may be played even by a seat holding the led suit
        (e.g. the joker at no-trump under ``nt_joker_any_time``, rules.md 7.8)."""
        return False


    def after_card(self, t: Table) -> None:
        """Hook after a card that does not complete the trick (the next seat is
        already on turn); e.g. a joker led at no-trump, whose leader then names
        the suit to follow (rules.md 7.8)."""
        return None

    # --- shared: starting the play of tricks
    def start_play(self, t: Table) -> None:
        """Enter the trick-play phase with the first leader on turn."""
        t.phase = PLAY
        t.leader = self.first_leader(t)
        t.turn = t.leader
        t.trick = []
        t.led_suit = None


def leaders(scores: Sequence[int], sides: Sequence[int], lowest: bool = False) -> tuple:
    """Of the sides ``sides`` (indices into ``scores``, points per side),
    those with the best score: the highest, or the lowest where scores count
    down (Buck, rules.md 6.4).  One side: it wins; several: they are tied
    at the top, and the game's tie rule decides (rules.md 1.6, 4.5, 5.5,
    6.4, 7.5).  Empty when ``sides`` is."""
    if not sides:
        return ()
    best = (min if lowest else max)(scores[s] for s in sides)
    return tuple(s for s in sides if scores[s] == best)


RENEGE_ENFORCEMENT = ("automatic", "claimed")
"""``renege_enforcement`` values (rules.md 2.7): ``automatic``, every
established renege is penalized as if claimed at once (records that hold no
claims); ``claimed``, only a renege claimed in time (or upheld by a
ruling) changes the official score."""

CLAIM_WINDOWS = ("next-deal", "first-chance")
"""``renege_claim_window`` values (rules.md 1.5, 2.7): until the next deal
starts, or only at the first later moment the offender shows the suit held
back (the Wikipedia variant)."""

SINCE = "since"
"""Field metadata key: the release that added an option.  Such an option is
left out of :meth:`VariantOptions.to_dict` while it holds its default, so
that a game stored before it existed keeps its content id and its stored
GameStarted (every option written out) reads the same."""


_IMMUTABLE = (str, int, float, bool, type(None))


@dataclasses.dataclass(frozen=True)
class VariantOptions:
    """Base of every variant's frozen options dataclass (rules.md: each open
    point has a default and a named option).

    The options every variant shares (table law, rules.md 1.5, 2.7):

    * ``renege_enforcement``: ``"automatic"`` (default) or ``"claimed"``
      (:data:`RENEGE_ENFORCEMENT`);
    * ``renege_claim_window``: ``"next-deal"`` (default) or ``"first-chance"``
      (:data:`CLAIM_WINDOWS`).

    Every value is checked against its field's annotation (``bool``,
    ``int``, ``str``, ``Optional[int]``, ...: :meth:`check_types`) and every
    whole number against :attr:`option_minimum` / :attr:`option_maximum`,
    so that a new field needs no check of its own; word options list their
    values in the subclass's ``__post_init__`` through :meth:`check_choices`.
    """

    option_minimum = {"target_score": 1, "start_score": 1}
    """Smallest value of the whole-number options named here (a game to 0
    would be over before it starts); every other whole-number option is
    points or cards and must be 0 or more."""
    option_maximum = MAX_NUMBER
    """Largest value of any whole-number option: a bound on what a record
    may ask of the engine (no rule set needs more than a few dozen); the one
    bound of every stored number (:data:`euchre_events.events.MAX_NUMBER`)."""

    renege_enforcement: str = dataclasses.field(default="automatic", metadata={SINCE: "0.2"})
    renege_claim_window: str = dataclasses.field(default="next-deal", metadata={SINCE: "0.2"})

    def __post_init__(self):
        self.check_shared()

    def check_shared(self) -> None:
        """Raise ``ValueError`` naming the option if a shared table-law
        option holds a value not in its list (called by every variant's
        ``__post_init__``)."""
        # membership only: the type checks run once the variant has
        # normalised its own values (check_types, from check_choices)
        for name, allowed in (("renege_enforcement", RENEGE_ENFORCEMENT),
                              ("renege_claim_window", CLAIM_WINDOWS)):
            if getattr(self, name) not in allowed:
                raise ValueError(f"option {name}={_shown(getattr(self, name))}: expected one of "
                                 f"{', '.join(allowed)}")

    def to_dict(self) -> dict:
        """Every option as a plain dict (stored in GameStarted.options),
        except an option added after 0.1.0 (field metadata :data:`SINCE`)
        that holds its default: see :data:`SINCE`.  A new dict each call."""
        d = self.__dict__.get("_plain_dict")   # options are frozen: made once per instance
        if d is None:
            d = dataclasses.asdict(self)
            for f in dataclasses.fields(self):
                if SINCE in f.metadata and d.get(f.name) == f.default:
                    del d[f.name]
            if not all(type(x) in _IMMUTABLE for x in d.values()):
                return d                       # a copy of a list value would be shared
            object.__setattr__(self, "_plain_dict", d)
        return dict(d)

    def check_types(self) -> None:
        """Raise ``ValueError`` naming the option if a value does not fit its
        field's annotation, or is a whole number out of range
        (``"option target_score=10.5: expected a whole number, not the
        number 10.5"``, ``"option target_score=0: must be at least 1"``)."""
        for name, hint in field_types(type(self)).items():
            problem = option_problem(type(self), name, hint, getattr(self, name))
            if problem:
                raise ValueError(problem)

    def check_choices(self, choices: dict) -> None:
        """Raise ``ValueError`` naming the option if a value has the wrong
        type (:meth:`check_types`, checked first) or is not one of
        ``choices[name]`` (a tuple of allowed values)."""
        self.check_types()
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"option {name}={_shown(getattr(self, name))}: expected one of "
                                 f"{', '.join(map(str, allowed))}")

    def check_fixed(self, fixed: dict, game: str) -> None:
        """Raise ``ValueError`` if a field that the game's rules fix (a key of
        ``fixed``, ``{name: value}``) holds another value.  Such a field is
        no real option: it stays a field only because stored games carry it
        in ``GameStarted.options`` (removing it would change their content
        id); ``game`` names the game in the message."""
        for name, value in fixed.items():
            if hasattr(self, name) and getattr(self, name) != value:
                raise ValueError(f"option {name}={getattr(self, name)!r}: the rules of {game} fix it "
                                 f"at {value!r} (it is not an option there)")


def _shown(value: Any) -> str:
    """An option's value as a record writes it (``true``, ``null``, ``10.5``), clipped."""
    from euchre_events.events import clip
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    return clip(repr(value), 40)


def option_problem(cls: type, name: str, hint: Any, value: Any) -> Optional[str]:
    """The problem with ``value`` for option ``name`` (annotation ``hint``)
    of the options class ``cls``, in words naming the option, or None."""
    problem = type_problem(value, hint)
    if problem:
        return f"option {name}={_shown(value)}: {problem}"
    if isinstance(value, int) and not isinstance(value, bool):
        low = cls.option_minimum.get(name, 0)
        if value < low:
            return f"option {name}={_shown(value)}: must be at least {low}"
        if value > cls.option_maximum:
            return f"option {name}={_shown(value)}: must be at most {cls.option_maximum}"
    return None


def options_from_dict(cls, d: dict):
    """Options dataclass ``cls`` from a dict ``{name: value}`` (as stored in
    ``GameStarted.options`` or read from a record).

    Raises ``ValueError`` naming the option for an unknown key, a value of
    the wrong type for its field (checked from the dataclass annotations:
    ``target_score`` must be a whole number, ``super_euchre`` true or false),
    a whole number out of range (:attr:`VariantOptions.option_minimum`), or
    a word that is not one of the option's choices; ``d`` not a dict is a
    ``ValueError`` too.  Never ``TypeError``.
    """
    import dataclasses
    if not isinstance(d, dict):
        raise ValueError(f"the options of {_game_words(cls)} must be an object of name: value pairs, "
                         f"not {describe_value(d)}")
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = set(d) - names
    if unknown:
        raise ValueError(f"unknown option(s) of {_game_words(cls)}: "
                         f"{', '.join(_shown(str(k)) for k in sorted(map(str, unknown)))} "
                         f"(its options: {', '.join(sorted(names))})")
    try:
        opts = cls(**d)
    except TypeError as e:
        # a __post_init__ compared a value of the wrong type before its check:
        # name the option from the raw values
        hints = field_types(cls)
        for name, value in d.items():
            problem = option_problem(cls, name, hints.get(name, Any), value)
            if problem:
                raise ValueError(problem) from None
        raise ValueError(f"bad options for {cls.__name__}: {e}") from None
    if isinstance(opts, VariantOptions):
        opts.check_types()   # also where a __post_init__ calls no check_choices
    return opts


def _game_words(cls) -> str:
    """``"standard Euchre"`` for StandardOptions: the game an options class is of, in words."""
    import re
    name = re.sub(r"Options$", "", cls.__name__) or cls.__name__
    return re.sub(r"(?<!^)([A-Z])", r" \1", name).lower() + " Euchre"
