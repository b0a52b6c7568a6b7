"""EGN ruleset toggles (the EGN project's spec/alternate-rules.md): a house
rule set in the ruleset but used by no deal never refuses the record (it is
read as standard Euchre, with a warning naming it); one a deal uses that
standard Euchre cannot replay is refused by name; the toggles our options
have no field for yet are said, never silently ignored."""
import json
from pathlib import Path

import pytest

from euchre_events.formats import RecordError
from euchre_events.formats.egn import read_egn_dict, read_egn_file
from euchre_events.projections.game import Game

ROOT = Path(__file__).resolve().parent.parent
VWEC = ROOT / "fixtures" / "egn" / "VWEC Finals.egn"


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
