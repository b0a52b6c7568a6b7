"""Unknown stays unknown, never guessed (docs/design.md "Three kinds of
wrong"): EGN's unknown rank ``X`` and its unknown or generic suits
(``x``, ``t``, ``n``, ``g``) are read as ``??``, never as a real card.
Reading ``Xd`` as the ten of diamonds invented a card that could win a
trick and flip a deal's score."""
import json
from pathlib import Path

import pytest

from euchre_events.formats import read_records_partial
from euchre_events.rules.cards import UNKNOWN, CardError, parse_card

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("text", ["Xd", "XD", "X\u2666", "Jx", "Kt", "An", "9g", "Xx"])
def test_unknown_rank_or_suit_reads_as_unknown(text):
    assert parse_card(text) == UNKNOWN


@pytest.mark.parametrize("text,card", [("Td", "TD"), ("10d", "TD"), ("Nd", "9D"), ("Jc", "JC")])
def test_known_cards_still_read(text, card):
    assert parse_card(text) == card


@pytest.mark.parametrize("text", ["XQ", "Zx", "1x"])
def test_not_a_card_still_refused(text):
    with pytest.raises(CardError, match="not a card"):
        parse_card(text)


def test_an_egn_play_of_unknown_rank_is_never_a_ten(tmp_path):
    # VWEC final, deal 1: North leads Ad; the record is changed to say only
    # "a diamond" (Xd).  Read as TD, the ten would have been invented.
    d = json.loads((ROOT / "fixtures" / "egn" / "VWEC Finals.egn").read_text())
    assert d["deals"][0]["phases"][1]["tricks"][0][0] == "Ad"
    d["deals"][0]["phases"][1]["tricks"][0][0] = "Xd"
    path = tmp_path / "unknown.egn"
    path.write_text(json.dumps(d))
    records, errors = read_records_partial(str(path))
    played = [e.card for r in records for e in r.events if e.kind == "CardPlayed"]
    assert "TD" not in played[:4]
    # the deal cannot be decided from the record: it is refused by name, not scored
    assert errors and "deal 1" in str(errors[0])
