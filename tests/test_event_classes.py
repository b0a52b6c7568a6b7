"""The event classes are the frozen dataclasses they declare (events._event_class
makes their __repr__, __eq__ and __hash__ once, not dataclasses at each start-up):
the same text, comparison, hash, pickling and frozen fields."""
import dataclasses
import pickle

import pytest

from euchre_events.events import (EVENT_TYPES, BidMade, CardPlayed, CardsDealt, DealThrownIn, GameStarted,
                                  OrderedUp, Passed, RenegeRuled, TrumpNamed, WentAlone)

SAMPLES = [GameStarted("standard", {"target": 10}, ("N", "E", "S", "W"), initial_score=(1, 2)),
           CardsDealt((("AS", "??"), ("KD", "9C")), "JD"), Passed(2), OrderedUp(1, True), TrumpNamed(3, None),
           BidMade(0, "pb"), DealThrownIn(), RenegeRuled(1, 2, 3, "upheld", (0, 2)), CardPlayed(1, "JD")]


def test_the_repr_is_the_dataclass_text():
    assert repr(CardPlayed(0, "JD")) == "CardPlayed(seat=0, card='JD')"
    assert repr(DealThrownIn()) == "DealThrownIn(reason='all passed', seat=None)"
    assert repr(TrumpNamed(3, None)) == "TrumpNamed(seat=3, suit=None, alone=False)"
    assert repr(GameStarted("standard", {}, ("a", "b"))) == (
        "GameStarted(variant='standard', options={}, players=('a', 'b'), first_dealer=0, initial_score=None, "
        "title='', source={})")


@pytest.mark.parametrize("ev", SAMPLES, ids=lambda ev: ev.kind)
def test_equality_hash_pickling_and_frozen_fields_are_the_dataclass_ones(ev):
    cls = type(ev)
    names = [f.name for f in dataclasses.fields(cls)]
    values = tuple(getattr(ev, n) for n in names)
    assert cls.__match_args__ == tuple(names)
    twin = cls(*values)
    assert twin == ev and not twin != ev
    assert ev.__eq__(object()) is NotImplemented
    if cls is GameStarted:      # its dicts: unhashable, as dataclasses' hash of the fields' tuple
        with pytest.raises(TypeError):
            hash(ev)
    else:
        assert hash(ev) == hash(values) == hash(twin)
    assert pickle.loads(pickle.dumps(ev)) == ev
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(ev, names[0], values[0])
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(ev, names[0])


def test_every_class_declares_what_it_did():
    for cls in EVENT_TYPES.values():
        p = cls.__dataclass_params__
        assert (p.init, p.repr, p.eq, p.order, p.unsafe_hash, p.frozen) == (True, True, True, False, False, True)
        assert cls.__slots__ == cls.__match_args__        # slots: the fields, no __dict__
        assert cls.__eq__.__qualname__ == f"{cls.__qualname__}.__eq__"
    assert not hasattr(CardPlayed(1, "JD"), "__dict__")
    assert Passed(1) != WentAlone(1) and CardPlayed(1, "JD") != CardPlayed(1, "JC")
    assert {CardPlayed(1, "JD"): 1}[CardPlayed(1, "JD")] == 1
