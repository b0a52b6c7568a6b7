"""The numeric auction shared by Bid Euchre (rules.md 7.2) and Ghost Hand
Euchre (5.2, which follows pagat's general Bid Euchre rule): bids of a
number of tricks on a ladder (3 < 4 < 5 < ... < partner's best < moon),
one turn each from the dealer's left (or several rounds), then the high
bidder names trump.  :class:`BidAuction` is the mixin, its state a
:class:`BidAuctionState` in ``Table.auction``; the won bid, the
irregularities and whether the bid was made go to the contract state, a
:class:`BidContractBase` subclass of each variant.

Pure: no I/O.
"""
from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Any, Optional, Sequence

from euchre_events.events import BidMade, Passed
from euchre_events.rules.table import THROWN_IN, ImpossibleEvent, Table, evolve, flag
from euchre_events.rules.variant import leaders


class AuctionPhase(StrEnum):
    """The phases of the numeric auction."""

    AUCTION = "auction"  # bid or pass, from the dealer's left (5.2, 7.2)
    TRUMP = "trump"      # the high bidder names trump (5.2, 7.2)


AUCTION, TRUMP = AuctionPhase
"""The members as module constants (see :data:`euchre_events.rules.table.PLAY`)."""


@dataclass(frozen=True)
class BidAuctionState:
    """The state of a numeric auction (``Table.auction``, rules.md 5.2, 7.2).

    * ``high``: the high bid so far (an ``int`` number of tricks, ``"pb"``
      or ``"moon"``), None before any bid;
    * ``high_seat``: the seat that made it, or None;
    * ``bids``: every turn so far, ``((seat, bid or "pass"), ...)`` in order
      (an insufficient bid is kept as a pass);
    * ``turns``: turns taken; ``passes_in_row``: passes since the last bid.
    """

    high: Any
    high_seat: Optional[int]
    bids: tuple
    turns: int
    passes_in_row: int


@lru_cache(maxsize=4096)
def bid_auction_state(high: Any, high_seat: Optional[int], bids: tuple, turns: int,
                      passes_in_row: int) -> BidAuctionState:
    """The :class:`BidAuctionState` with these values, one shared instance per
    value while it is in the cache (it is frozen): the fold makes one on
    every bid and pass, and a cached lookup costs a third of building one."""
    return BidAuctionState(high, high_seat, bids, turns, passes_in_row)


_NO_BIDS = bid_auction_state(None, None, (), 0, 0)


@dataclass(frozen=True, kw_only=True)
class BidContractBase:
    """What a numeric auction leaves in the contract state (``Table.contract``).

    * ``bid``: the winning bid (shown as ``"contract"`` in ``Table.extra()``),
      None until the auction is won;
    * ``irregular``: words of each illegal-but-real step of this deal
      (insufficient bid, stuck dealer passing, a wrong exchange), in order;
    * ``made``: after the deal is scored, whether the bid was made (rules.md
      5.5, 7.5 ``bidder_out``), else None.
    """

    bid: Any = field(default=None, metadata={"key": "contract"})
    irregular: tuple = ()
    made: Optional[bool] = None


# ------------------------------------------------------------------ helpers

def normalize_bid(bid) -> object:
    """A bid as stored: an ``int`` number of tricks, ``"pb"`` or ``"moon"``.

    Accepts ``"4"``, ``"PB"``, ``"partner's best"``, ``"shoot the moon"``.
    Raises :class:`ImpossibleEvent` for anything else.
    """
    if isinstance(bid, bool):
        raise ImpossibleEvent(f"{bid!r} is not a bid")
    if isinstance(bid, int):
        return bid
    if isinstance(bid, str):
        b = bid.strip().lower()
        if b.isdigit():
            return int(b)
        if b in ("pb", "partner's best", "partners best", "partner's-best"):
            return "pb"
        if b in ("moon", "shoot the moon", "shoot-the-moon", "shoot"):
            return "moon"
    raise ImpossibleEvent(f"{bid!r} is not a bid")


def bid_text(bid) -> str:
    """A bid in words: ``"4"``, ``"partner's best"``, ``"shoot the moon"``."""
    return {"pb": "partner's best", "moon": "shoot the moon"}.get(bid, str(bid))


def note_irregular(t: Table, words: str, kind: str = "irregular", seat: Optional[int] = None) -> None:
    """Note an illegal-but-real step of the auction or exchanges.

    The words go to the contract state's ``irregular`` (tuple of str, per
    deal) and an :class:`~euchre_events.rules.table.Irregularity` of ``kind``
    at ``seat`` to ``t.flags``, which the audit turns into findings (docs/design.md
    "Three kinds of wrong").
    """
    t.contract = evolve(t.contract, irregular=t.contract.irregular + (words,))
    flag(t, kind, words, seat)


class BidAuction:
    """Mixin: the numeric auction of Bid Euchre (rules.md 7.2, 5.2).

    Bidding starts at the dealer's left.  ``auction_rounds="single"``: every
    seat has exactly one turn (the dealer last).  ``"multi"``: bidding goes on
    round the table until ``n_seats - 1`` passes in a row follow a bid (or
    ``n_seats`` passes with no bid); a seat that passed may come back in.
    Every bid must beat the high bid on the ladder :meth:`bid_ladder`.  With
    ``stick_the_dealer`` the dealer may not pass when nobody has bid (7.7).
    Everyone passing sends the deal to phase ``thrown_in`` (the engine then
    offers ``DealThrownIn("all passed")``; the deal passes left, 7.2).

    Illegal but real (docs/design.md "Three kinds of wrong"), kept and flagged
    for the audit, with no score penalty (the rules give none):

    * an *insufficient bid*, a bid of the ladder that does not beat the high
      bid, or a number below the minimum (1 or 2 when the minimum is 3):
      flag ``"insufficient-bid"``.  The usual table remedy is that the bid
      stands as a pass, so it counts as a pass for the auction's outcome and
      the auction goes on;
    * a *stuck dealer who passes* (``stick_the_dealer``): flag
      ``"stuck-dealer-passed"``; the pass is kept, so when nobody bid the
      deal is thrown in as the record shows;
    * a call of :meth:`ranked_bids` that is off the ladder (double-deck Bid
      Euchre's plain 12, rules.md 7.10, 8.16): flag of the kind
      :meth:`unoffered_bid` gives.  Legal play never offers it; a recorded
      one stands as made, ranked where the record's table ranked it (a
      plain 12 above 11, below partner's best), because the record goes on
      from it (the bidder names trump and plays for 12) and the tool never
      rewrites a real call (docs/design.md "Three kinds of wrong").  Unlike
      an insufficient bid it is the high bid when made, so no table remedy
      turns it into a pass.

    Impossible (:class:`ImpossibleEvent`): a bid that no record of the game
    can hold, not even as a kept call (a plain 6 in single deck, 7.2;
    ``"pb"`` in Ghost Hand; 0; a word), or a seat out of turn.
    ``auction_section`` / ``stick_section`` name the rules.md sections cited
    in the flags (7.2 / 7.7 here; Ghost Hand 5.2 / 5.8).

    Auction state: ``Table.auction``, a :class:`BidAuctionState` (made by
    :func:`bid_auction_state`); the won
    bid goes to the contract state (a :class:`BidContractBase`:
    ``bid``, ``irregular``, ``made``).  The subclass implements
    :meth:`bid_ladder` and may override :meth:`auction_won`.
    """

    auction_state: Any = BidAuctionState
    auction_section = "7.2"
    stick_section = "7.7"

    @abstractmethod
    def bid_ladder(self) -> tuple:
        """The bids of the game, low to high: what legal play offers."""

    def ranked_bids(self) -> tuple:
        """Every call a record may hold as a bid, low to high: the
        :meth:`bid_ladder` and, in their places, the calls that are no bid of
        the game but are kept and flagged when recorded (see
        :meth:`unoffered_bid`).  Default: the ladder itself."""
        return self.bid_ladder()

    def unoffered_bid(self, bid) -> Optional[tuple]:
        """``(kind, words citing rules.md)`` for a call of :meth:`ranked_bids`
        that is not on the :meth:`bid_ladder` (the flag a recorded one gets),
        or None for a bid of the ladder.  Default: None."""
        return None

    def auction_won(self, t: Table) -> None:
        """The auction ended with ``t.maker`` the high bidder: the bidder
        names trump (phase ``trump``, rules.md 5.2, 7.2)."""
        t.phase, t.turn = TRUMP, t.maker

    def auction_start(self, t: Table) -> None:
        """Enter phase ``auction`` with the dealer's left on turn."""
        t.phase = AUCTION
        t.turn = (t.dealer + 1) % t.n_seats
        t.auction = _NO_BIDS

    def bid_rank(self, bid) -> int:
        """Place of ``bid`` (normalized) among :meth:`ranked_bids` (0 =
        lowest).  Raises :class:`ImpossibleEvent` if no record of the game
        can hold such a bid (the message lists the ladder's bids)."""
        ranked = self.ranked_bids()
        if bid not in ranked:
            raise ImpossibleEvent(
                f"{bid_text(bid)} is not a bid of this game (bids: "
                + ", ".join(bid_text(b) for b in self.bid_ladder()) + ")")
        return ranked.index(bid)

    def insufficient(self, t: Table, bid) -> Optional[str]:
        """Why ``bid`` (normalized) is too low to stand, in words citing
        rules.md, or None if it is a proper bid now.

        Too low: a bid of the ladder that does not beat the high bid, or a
        whole number from 1 up to just below the minimum.  Raises
        :class:`ImpossibleEvent` for a bid that does not exist in the game
        (see :meth:`bid_rank`).
        """
        ladder = self.bid_ladder()
        sec = self.auction_section
        if (isinstance(bid, int) and bid not in ladder and isinstance(ladder[0], int)
                and 1 <= bid < ladder[0]):
            return (f"a bid of {bid} is below the minimum of {bid_text(ladder[0])} "
                    f"(rules.md {sec}); it stands as a pass")
        r = self.bid_rank(bid)
        high = t.auction.high
        if high is not None and r <= self.bid_rank(high):
            return (f"a bid of {bid_text(bid)} does not beat the high bid of {bid_text(high)} "
                    f"(rules.md {sec}: every bid must be higher); it stands as a pass")
        return None

    def stuck(self, t: Table) -> bool:
        """True when the seat on turn is a dealer stuck with the bid (7.7)."""
        return (bool(getattr(self.options, "stick_the_dealer", False)) and t.turn == t.dealer
                and t.auction.high is None)

    def auction_legal(self, t: Table) -> tuple:
        """(events, reason) of the seat on turn in the auction."""
        s = t.turn
        high = t.auction.high
        ladder = self.bid_ladder()
        # the high bid may be a kept call off the ladder (a plain 12): compare ranks
        floor = -1 if high is None else self.bid_rank(high)
        acts = [BidMade(s, b) for b in ladder if self.bid_rank(b) > floor]
        if self.stuck(t):
            return tuple(acts), "everyone else passed: the dealer is stuck and must bid"
        acts.insert(0, Passed(s))
        if high is None:
            reason = f"bid at least {bid_text(ladder[0])}, or pass"
        elif len(acts) == 1:
            reason = f"{bid_text(high)} cannot be beaten: pass"
        else:
            reason = f"beat {bid_text(high)} or pass"
        return tuple(acts), reason

    def auction_apply(self, t: Table, ev) -> bool:
        """Fold a Passed or BidMade of the auction; False for other events.

        An insufficient bid is flagged and counts as a pass; a stuck dealer's
        pass is flagged and kept; a call off the ladder (:meth:`unoffered_bid`)
        is flagged and stands (see the class docstring).  Raises
        :class:`ImpossibleEvent` for a bid no record of the game can hold.
        """
        a = t.auction
        too_low = None
        if ev.kind == "BidMade":
            bid = normalize_bid(ev.bid)
            too_low = self.insufficient(t, bid)
            if too_low:
                note_irregular(t, f"seat {ev.seat}: {too_low}", "insufficient-bid", ev.seat)
            else:
                off = self.unoffered_bid(bid)
                if off is not None:
                    note_irregular(t, f"seat {ev.seat}: {off[1]}", off[0], ev.seat)
        if ev.kind == "Passed" or too_low:
            if ev.kind == "Passed" and self.stuck(t):
                note_irregular(t, f"seat {ev.seat}, the dealer, passes although stuck: the dealer must "
                                  f"bid at least {bid_text(self.bid_ladder()[0])} (rules.md "
                                  f"{self.stick_section}); the pass is kept as recorded",
                               "stuck-dealer-passed", ev.seat)
            a = bid_auction_state(a.high, a.high_seat, a.bids + ((ev.seat, "pass"),), a.turns + 1,
                                  a.passes_in_row + 1)
        elif ev.kind == "BidMade":
            bid = normalize_bid(ev.bid)
            a = bid_auction_state(bid, ev.seat, a.bids + ((ev.seat, bid),), a.turns + 1, 0)
        else:
            return False
        t.auction = a
        n = t.n_seats
        if getattr(self.options, "auction_rounds", "single") == "multi":
            done = a.passes_in_row >= (n - 1 if a.high is not None else n)
        else:
            done = a.turns >= n
        if not done:
            t.turn = (t.turn + 1) % n
        elif a.high is None:
            t.phase, t.turn = THROWN_IN, None
        else:
            t.maker = a.high_seat
            t.contract = evolve(t.contract, bid=a.high)
            self.auction_won(t)
        return True

    def game_winner(self, t: Table, scores: Sequence[int]) -> Any:
        """First party (Bid: team, Ghost Hand: player) to ``target_score``
        (32); if several, the highest; an exact tie at the top plays another
        hand; with ``bidder_out`` only the party that made its bid, or the
        parties that set it, may win on this hand; a hand with no contract
        (thrown in) qualifies nobody (rules.md 5.5, 7.5)."""
        qualified = set(range(self.n_sides))
        if self.options.bidder_out:
            made = getattr(t.contract, "made", None) if t.maker is not None else None
            bp = self.side_of(t.maker) if made is not None else None
            qualified = set() if made is None else {bp} if made else qualified - {bp}
        return bidder_out_winner(scores, self.options.target_score, qualified)

    def renege_points_lost(self, party: int, deal_points: Sequence[int], loser: str) -> tuple:
        """The renege penalty of the bidding games (rules.md 5.6, 7.6):
        ``party`` (a side in Bid, a player in Ghost Hand; ``loser`` its name
        and verb, ``"N/S lose"``, ``"P2 loses"``) loses the option
        ``renege_points`` (2); with ``renege_abandons_hand`` only the penalty
        counts for the hand, else the hand is scored as played first.
        Returns ``(points per party, hand abandoned?, words)``, as
        :meth:`Variant.renege_penalty`."""
        o = self.options
        if o.renege_abandons_hand:
            pts = [0] * self.n_sides
            pts[party] = -o.renege_points
            return pts, True, f"hand abandoned; {loser} {o.renege_points}"
        pts = list(deal_points)
        pts[party] -= o.renege_points
        return pts, False, f"hand scored as played; {loser} {o.renege_points}"


def bidder_out_winner(scores: Sequence[int], target: int, qualified) -> Optional[int]:
    """The side that wins after a hand (rules.md 5.5, 7.5), or None.

    Sides with ``target`` or more points that are in ``qualified`` (all sides
    unless the ``bidder_out`` rule narrows it) are candidates; the highest
    wins; an exact tie at the top plays another hand (None).
    """
    best = leaders(scores, [s for s, p in enumerate(scores) if p >= target and s in qualified])
    return best[0] if len(best) == 1 else None


