"""A fast first check of an EGN document against the shipped schema
(``schemas/egn-schema-v1.json``; issue 11 "Speed": ``jsonschema`` took half
the time of reading a real game): the schema written as ``msgspec`` types,
each at least as strict as the schema, so that a document they take is one
the schema takes.  A document they refuse is not necessarily invalid (a
``3.0`` where the schema allows an integer, say): :func:`certainly_valid`
then says False and :mod:`.schema` asks ``jsonschema``, which words the
errors as before.  ``tests/test_egn_fastschema.py`` holds the two against
each other on the shipped records and on thousands of mutated ones.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from euchre_events.formats import sigint_held

with sigint_held():     # a Ctrl-C while msgspec is imported or builds types (see there)
    import msgspec
    from msgspec import Meta, Struct

__all__ = ["certainly_valid"]

_Card = Annotated[str, Meta(pattern=r"^([78N9TJQKAX][SsHhCcDdxtngh]|[LRB])$")]
_Cards = Annotated[list[_Card], Meta(max_length=10)]
_Seat = Annotated[int, Meta(ge=0, le=9)]
_Notes = dict[Annotated[str, Meta(pattern=r"^[0-9]+$")],
              Annotated[list[Annotated[str, Meta(max_length=1024)]], Meta(max_length=50)]]
_Id = Annotated[str, Meta(max_length=64)]


class _Exchange(Struct, forbid_unknown_fields=True):
    receiver: _Seat
    cards: _Cards
    sender: _Seat = None


class _Bidding(Struct, tag_field="type", tag="EUCHRE_BIDDING", forbid_unknown_fields=True):
    phaseNumber: int
    calls: Annotated[list[Literal["Pass", "Order", "s", "h", "d", "c", "n", "x"]], Meta(max_length=16)]
    isAlone: bool = None
    aloneDefender: int = None
    discard: _Card = None
    cardExchanges: Annotated[list[_Exchange], Meta(max_length=4)] = None
    callAnnotations: _Notes = None


class _TrickPlay(Struct, tag_field="type", tag="TRICK_PLAY", forbid_unknown_fields=True):
    phaseNumber: int
    tricks: Annotated[list[_Cards], Meta(max_length=10)]
    isAlone: bool = None
    playAnnotations: _Notes = None


_Phase = Union[_Bidding, _TrickPlay]


class _Line(Struct, forbid_unknown_fields=True):
    branchIndex: Annotated[int, Meta(ge=0)]
    phases: Annotated[list[_Phase], Meta(min_length=1)]


class _Start(Struct, forbid_unknown_fields=True):
    dealer: _Seat
    upCard: _Card
    playerCards: Annotated[list[_Cards], Meta(max_length=10)] = None


class _Deal(Struct, forbid_unknown_fields=True):
    dealNumber: Annotated[int, Meta(ge=0)]
    initialState: _Start
    phases: Annotated[list[_Phase], Meta(max_length=2)]
    alternativeLines: Annotated[list[_Line], Meta(max_length=50)] = None


class _PlayerId(Struct, forbid_unknown_fields=True):
    id: _Id
    source: _Id


class _Player(Struct, forbid_unknown_fields=True):
    name: _Id
    id: _Id = None
    playerIds: Annotated[list[_PlayerId], Meta(max_length=10)] = None


class _Ruleset(Struct, forbid_unknown_fields=True):
    std: bool = None
    min_rank: int = None
    winning_score: Annotated[int, Meta(ge=0)] = None
    num_deals: Annotated[int, Meta(ge=0)] = None
    canadian: bool = None
    loner_lead: Literal["LEFT_OF_DEALER", "LEFT_OF_LONER"] = None
    loner_march_score: int = None
    loner_euchred_score: int = None
    defend_alone: bool = None
    farmers: bool = None
    partners_best: bool = None
    go_under: bool = None
    joker: bool = None
    num_players: int = None
    allow_no_trump: bool = None
    fast_break: bool = None
    four_trick_tokens: bool = None


class _Metadata(Struct, forbid_unknown_fields=True):
    players: Annotated[list[Union[_Id, _Player]], Meta(max_length=10)]
    initialScore: Annotated[list[int], Meta(max_length=2)]
    gameId: _Id = None
    title: Annotated[str, Meta(max_length=128)] = None
    description: Annotated[str, Meta(max_length=1024)] = None
    finalScore: Annotated[list[int], Meta(max_length=2)] = None
    # the schema's anyOf (format date-time, or a pattern) holds for any string: formats are
    # not asserted (no format checker), so "date" is a string of at most 64 characters
    date: _Id = None
    ruleset: _Ruleset = None


class _Egn(Struct, forbid_unknown_fields=True):
    fileType: Literal["Euchre Game Notation"]
    version: Annotated[str, Meta(pattern=r"^1\.[234](?:\.\d+)?$")]
    metadata: _Metadata
    deals: Annotated[list[Union[_Deal, Annotated[str, Meta(pattern=r"^[A-Za-z0-9+/_-]*={0,2}$")]]],
                     Meta(max_length=100)]


def certainly_valid(doc: Any) -> bool:
    """True when ``doc`` (a parsed EGN 1.2-1.4 document) is valid against
    the shipped EGN schema, known without ``jsonschema``; False when this
    check cannot tell (the caller asks ``jsonschema``)."""
    try:
        egn = msgspec.convert(doc, _Egn)
    except (msgspec.ValidationError, TypeError, ValueError, RecursionError):
        return False
    r = egn.metadata.ruleset
    if r is not None:
        # the schema's allOf: not both winning_score and num_deals; a winning_score of 0
        # only with num_deals >= 1 (which the first forbids): both left to jsonschema
        if r.winning_score is not None and (r.num_deals is not None or r.winning_score == 0):
            return False
    return True
