"""EGN ruleset toggles (the EGN project's spec/alternate-rules.md): a house
rule set in the ruleset but used by no deal never refuses the record (it is
read as standard Euchre, with a warning naming it); one a deal uses that
standard Euchre cannot replay is refused by name; the toggles our options
have no field for yet are said, never silently ignored."""
import json

import pytest

from conftest import ROOT, VWEC
from euchre_events.formats import RecordError
from euchre_events.formats.egn import read_egn_dict, read_egn_file
from euchre_events.projections.game import Game


def _vwec(**ruleset):
    d = json.loads(VWEC.read_text())
    d["metadata"]["ruleset"].update(ruleset)
    return d


@pytest.mark.parametrize("key,value", [("partners_best", True), ("go_under", True), ("joker", True),
                                       ("allow_no_trump", True), ("min_rank", 7)])
def test_a_toggle_no_deal_uses_is_accepted_with_a_warning(key, value):
    (rec,) = read_egn_dict(_vwec(**{key: value}))
    (plain,) = read_egn_file(str(VWEC))
    assert [e.to_dict() for e in rec.events[1:]] == [e.to_dict() for e in plain.events[1:]]
    assert Game(rec.events).final_score == [8, 10]
    assert any(f"ruleset {key}=" in w and "no deal of this record uses it" in w for w in rec.warnings)
    assert rec.events[0].source["ruleset"][key] == value


def test_a_used_toggle_we_cannot_replay_is_refused_by_name():
    d = _vwec(allow_no_trump=True)
    # deal 2 of the final: round 2 named a suit; make it a no-trump call
    deal = next(x for x in d["deals"] if len(x["phases"][0]["calls"]) > 4)
    deal["phases"][0]["calls"][-1] = "n"
    with pytest.raises(RecordError, match="allow_no_trump=True is not standard Euchre and this record uses it"):
        read_egn_dict(d, "nt.egn")
    d = _vwec(partners_best=True)
    d["deals"][0]["phases"][0]["cardExchanges"] = [{"sender": 0, "receiver": 2, "cards": ["Ad"]}]
    with pytest.raises(RecordError, match="partners_best=True .* this record uses it"):
        read_egn_dict(d, "pb.egn")


# the farmer's hand and card exchanges (alternate-rules.md farmers, partners_best,
# go_under): standard Euchre replays no exchange, so a deal that records one is
# refused by name and a toggle set but unused is a warning only

def test_farmers_set_but_unused_is_a_warning():
    (rec,) = read_egn_dict(_vwec(farmers=True))
    assert Game(rec.events).final_score == [8, 10]
    assert any("ruleset farmers=True: no deal of this record uses it" in w for w in rec.warnings)


def test_a_farmers_exchange_is_refused_by_name():
    d = _vwec(farmers=True)
    d["deals"][0]["phases"][0]["cardExchanges"] = [{"sender": 1, "receiver": 1, "cards": ["9d", "Td", "9s"]}]
    with pytest.raises(RecordError, match="farmers=True is not standard Euchre and this record uses it"):
        read_egn_dict(d, "farm.egn")


def test_card_exchanges_without_a_toggle_are_refused_not_dropped():
    # before: a warning, and the deal replayed as if nobody had exchanged a card
    d = _vwec()
    d["deals"][2]["phases"][0]["cardExchanges"] = [{"sender": 0, "receiver": 2, "cards": ["Ad"]}]
    with pytest.raises(RecordError) as e:
        read_egn_dict(d, "x.egn")
    assert e.value.deal == 3 and "cardExchanges" in str(e.value) and "x.egn" in str(e.value)


def test_an_alternative_line_with_card_exchanges_is_left_out_with_the_reason():
    d = json.loads((ROOT / "fixtures" / "egn" / "VWEC Finals Annotated.egn").read_text())
    deal = next(x for x in d["deals"] if x.get("alternativeLines"))
    line = deal["alternativeLines"][0]
    bid = next((p for p in line["phases"] if p.get("type") == "EUCHRE_BIDDING"), None)
    if bid is None:
        bid = {"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": deal["phases"][0]["calls"],
               "cardExchanges": []}
    bid["cardExchanges"] = [{"sender": 0, "receiver": 2, "cards": ["Ad"]}]
    if bid not in line["phases"]:
        line["phases"].insert(0, bid)
    (rec,) = read_egn_dict(d, "alt.egn")
    assert any("could not be replayed" in w and "cardExchanges" in w for w in rec.warnings)


@pytest.mark.parametrize("key,value", [("fast_break", True), ("four_trick_tokens", True),
                                       ("loner_march_score", 5), ("num_deals", 13)])
def test_the_scoring_toggles_are_played_not_warned_about(key, value):
    d = _vwec(**{key: value})
    if key == "num_deals":
        d["metadata"]["ruleset"].pop("winning_score", None)
    (rec,) = read_egn_dict(d)
    assert not any(key in w or "not replayed" in w for w in rec.warnings)
    assert rec.events[0].options[key] == value


# a value other than the default, for each option of standard Euchre that is a string
_OTHER_STRINGS = ("left_of_loner", "vs_lone", "any", "after_exchange", "same", "claimed", "first-chance",
                  "casual", "deduct", "laws1888")


def _other_value(field):
    """A value of ``field`` other than its default that standard Euchre takes."""
    from euchre_events.rules.registry import make_variant
    if isinstance(field.default, bool):
        candidates = [not field.default]
    elif isinstance(field.default, int):
        candidates = [field.default + 1, field.default - 1, 2, 4]
    else:
        candidates = list(_OTHER_STRINGS)
    for value in candidates:
        if value == field.default:
            continue
        try:
            make_variant("standard", {field.name: value})
        except ValueError:
            continue
        return value
    raise AssertionError(f"no other value of option {field.name} found: add one to _OTHER_STRINGS")


def test_every_standard_option_is_written_to_egn_or_said_left_out():
    """Each option of standard Euchre at a value other than its default is
    written to the EGN ruleset (a key) or said in the notes ("has no EGN
    ruleset key; left out", ruleset._NO_KEY): an option added to
    StandardOptions without either would be lost from an export silently."""
    import dataclasses

    from euchre_events.formats.egn.ruleset import ruleset_from_options
    from euchre_events.rules.registry import make_variant
    plain = ruleset_from_options(make_variant("standard").options, {}, [])
    for field in dataclasses.fields(make_variant("standard").options):
        value = _other_value(field)
        notes: list = []
        written = ruleset_from_options(make_variant("standard", {field.name: value}).options, {}, notes)
        assert written != plain or any(field.name in n for n in notes), \
            f"option {field.name}={value!r} is neither written to the EGN ruleset nor said left out"
