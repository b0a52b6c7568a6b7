"""Binary EGN (the EGN project's spec/binary-format.md): the condensed
``.egnb`` and the expanded ``.expanded.egnb`` of every example game in
records/egn/binary/ read to the same game as its ``.egn`` twin; our own
binary export reads back to the same events; the packer gives the EGN
project's own packed strings bit for bit."""
import json
from pathlib import Path

import pytest

from conftest import ROOT, RUNNER
from euchre_events.archive.store import content_id
from euchre_events.cli import app
from euchre_events.formats import RecordError, detect_format, read_records
from euchre_events.formats.egn import read_egn_dict, read_egn_file, write_egnb
from euchre_events.formats.egn.binary import _message_class, egnb_to_dict
from euchre_events.formats.egn.packed import PackError, pack_deal, unpack_deal

SHARED = ROOT.parent / "shared" / "records" / "egn"
if not SHARED.is_dir():   # a worktree beside main: /work/wt-x and /work/shared
    SHARED = Path("/work/shared/records/egn")
BINARY = SHARED / "binary"
pytestmark = pytest.mark.skipif(not BINARY.is_dir(), reason="records/egn/binary not present")

FILES = sorted(p.name for p in BINARY.glob("*.egnb")) if BINARY.is_dir() else []
GAMES = sorted({n.replace(".expanded.egnb", "").replace(".egnb", "") for n in FILES})


def _twin(name: str) -> Path:
    return SHARED / (name.replace(".expanded.egnb", "").replace(".egnb", "") + ".egn")


def _same_game(a, b) -> None:
    def strip(evs):
        return [e.to_dict() | ({"source": {}} if e.kind == "GameStarted" else {}) for e in evs]
    assert strip(a.events) == strip(b.events)
    assert a.annotations == b.annotations
    assert [(v["position"], [e.to_dict() for e in v["events"]], v["annotations"]) for v in a.variations] == \
           [(v["position"], [e.to_dict() for e in v["events"]], v["annotations"]) for v in b.variations]
    assert content_id(a.events, a.annotations, a.variations) == \
           content_id(b.events, b.annotations, b.variations)


def test_every_example_has_both_forms():
    assert len(GAMES) == 7 and len(FILES) == 14


@pytest.mark.parametrize("name", FILES)
def test_binary_example_reads_to_its_egn_twin(name):
    path = BINARY / name
    data = path.read_bytes()
    assert data[0] == (0 if name.endswith(".expanded.egnb") else 1)   # the magic byte
    assert detect_format(str(path)) == "egnb"
    (rec,) = read_records(str(path))
    (twin,) = read_egn_file(str(_twin(name)))
    _same_game(rec, twin)


def test_vwec_final_from_the_condensed_file_scores_as_its_twin():
    from euchre_events.projections.game import Game
    (rec,) = read_records(str(BINARY / "VWEC Finals.egnb"))
    g = Game(rec.events)
    assert g.deals == 13 and g.final_score == [8, 10]
    assert rec.events[0].players == ("WWMM", "Llama", "Euchrazy1", "LeftyKnavey")
    assert rec.events[0].options["loner_lead"] == "left_of_loner"


@pytest.mark.parametrize("game", GAMES)
def test_packer_gives_the_egn_projects_own_strings(game):
    # the condensed file's deals, packed by the EGN project's tools, and ours
    # packed from the .egn twin: the same bits
    msg = _message_class("egn-condensed").FromString((BINARY / f"{game}.egnb").read_bytes()[1:])
    twin = json.loads((SHARED / f"{game}.egn").read_text())
    assert list(msg.deals) == [pack_deal(d) for d in twin["deals"]]
    for i, s in enumerate(msg.deals):
        deal = unpack_deal(s, i)
        assert deal["initialState"]["dealer"] == twin["deals"][i]["initialState"]["dealer"]
        assert [t for p in deal["phases"] if p["type"] == "TRICK_PLAY" for t in p["tricks"]] == \
               [[c[0] + c[1].lower() for c in t] for p in twin["deals"][i]["phases"]
                if p["type"] == "TRICK_PLAY" for t in p["tricks"]]


@pytest.mark.parametrize("expanded", [False, True])
@pytest.mark.parametrize("game", GAMES)
def test_our_binary_export_reads_back(game, expanded, tmp_path):
    (rec,) = read_egn_file(str(SHARED / f"{game}.egn"))
    data = write_egnb(rec.events, rec.annotations, rec.variations, expanded=expanded)
    assert data[0] == (0 if expanded else 1)
    out = tmp_path / ("g.expanded.egnb" if expanded else "g.egnb")
    out.write_bytes(data)
    (back,) = read_records(str(out))
    _same_game(back, rec)


def test_an_unknown_card_needs_the_expanded_form(tmp_path):
    # a card of unknown rank cannot be packed (a packed card is an index into
    # the cards left): the condensed export refuses, the expanded one keeps it
    d = json.loads((SHARED / "VWEC Finals.egn").read_text())
    d["deals"][0]["phases"][1]["tricks"][0][0] = "Xd"
    (rec,) = read_egn_dict(d)
    with pytest.raises(ValueError, match="expanded"):
        write_egnb(rec.events, expanded=False)
    back = egnb_to_dict(write_egnb(rec.events, expanded=True))
    assert back["deals"][0]["phases"][1]["tricks"][0][0] == "Xd"


def test_json_with_packed_string_deals_reads(tmp_path):
    # the schema allows a deal as its packed string inside the JSON document
    d = json.loads((SHARED / "VWEC Finals.egn").read_text())
    d["deals"] = [pack_deal(x) for x in d["deals"]]
    p = tmp_path / "packed.egn"
    p.write_text(json.dumps(d))
    (rec,) = read_egn_file(str(p))
    (twin,) = read_egn_file(str(SHARED / "VWEC Finals.egn"))
    _same_game(rec, twin)


def test_damaged_binary_files_are_refused_by_name(tmp_path):
    data = (BINARY / "VWEC Finals.egnb").read_bytes()
    cut = tmp_path / "cut.egnb"
    cut.write_bytes(data[:200])
    with pytest.raises(RecordError) as e:
        read_records(str(cut))
    assert "cut.egnb" in str(e.value)
    junk = tmp_path / "junk.expanded.egnb"
    junk.write_bytes(b"\x00\xff\xff\xff\xff")
    with pytest.raises(RecordError, match="junk.expanded.egnb.*not a binary EGN file"):
        read_records(str(junk))
    empty = tmp_path / "empty.egnb"
    empty.write_bytes(b"")
    with pytest.raises(RecordError, match="empty"):
        read_records(str(empty))
    with pytest.raises(PackError, match="version 0"):
        unpack_deal("AAAA")


def test_a_damaged_packed_deal_names_the_deal(tmp_path):
    d = json.loads((SHARED / "VWEC Finals.egn").read_text())
    d["deals"] = [pack_deal(x) for x in d["deals"]]
    d["deals"][2] = d["deals"][2][:6]
    p = tmp_path / "packed.egn"
    p.write_text(json.dumps(d))
    with pytest.raises(RecordError) as e:
        read_egn_file(str(p))
    assert e.value.deal == 3 and "packed deal 3 cannot be read" in str(e.value)


def test_cli_imports_a_binary_file_as_the_same_game(tmp_path):
    runner = RUNNER
    db = str(tmp_path / "a.sqlite")
    a = runner.invoke(app, ["import", str(BINARY / "VWEC Finals.egnb"), "--db", db])
    b = runner.invoke(app, ["import", str(SHARED / "VWEC Finals.egn"), "--db", db])
    assert a.exit_code == 0 and b.exit_code == 0, a.output + b.output
    assert a.output.split()[0] == b.output.split()[0]
    assert "already stored" in b.output
    out = tmp_path / "v.expanded.egnb"
    c = runner.invoke(app, ["export", str(SHARED / "VWEC Finals.egn"), "-f", "egnb-expanded",
                            "-o", str(out)])
    assert c.exit_code == 0, c.output
    assert out.read_bytes()[0] == 0
    assert runner.invoke(app, ["export", str(SHARED / "VWEC Finals.egn"), "-f", "egnb"]).exit_code != 0


def test_shipped_descriptor_sets_match_the_proto_files(tmp_path):
    # the reader loads compiled descriptor sets (protobuf has no .proto
    # parser); they must be what the shipped .proto files compile to
    pytest.importorskip("grpc_tools")
    import importlib.util
    spec = importlib.util.spec_from_file_location("build", ROOT / "scripts" / "build-egn-protos.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.build(str(tmp_path))
    from google.protobuf.descriptor_pb2 import FileDescriptorSet
    shipped = ROOT / "euchre_events" / "schemas" / "egn-proto"
    for name in mod.SETS:
        built = FileDescriptorSet.FromString((tmp_path / name).read_bytes())
        assert built == FileDescriptorSet.FromString((shipped / name).read_bytes()), \
            f"{name} is stale: run scripts/build-egn-protos.py"
    for proto in ("egn.proto", "egn-common.proto", "egn-expanded.proto"):
        assert (shipped / proto).read_text() == (SHARED / "spec" / proto).read_text()


@pytest.mark.parametrize("name", FILES)
def test_export_of_a_binary_file_gives_its_bytes_back(name, tmp_path):
    """``export --format egnb|egnb-expanded`` of a ``.egnb`` as read: the
    EGN project's bytes.  Its encoder writes repeated numbers (the initial
    score) one tag each, not packed, and so do we.  Protobuf leaves the order
    of a map's entries to the encoder: the one file with a map of several
    annotations (deal 4 of VWEC Finals Annotated, play annotations at 4, 5
    and 6) comes back with them in another order, the same message."""
    src = BINARY / name
    fmt = "egnb-expanded" if name.endswith(".expanded.egnb") else "egnb"
    out = tmp_path / ("g.expanded.egnb" if fmt == "egnb-expanded" else "g.egnb")
    r = RUNNER.invoke(app, ["export", str(src), "--format", fmt, "-o", str(out)])
    assert r.exit_code == 0, r.output
    a, b = src.read_bytes(), out.read_bytes()
    if a != b:    # only a map's order may differ, and only where a map has several entries
        assert name == "VWEC Finals Annotated.expanded.egnb"
        cls = _message_class("egn-expanded")
        assert len(a) == len(b) and cls.FromString(a[1:]) == cls.FromString(b[1:])


def test_a_binary_file_of_more_deals_than_a_game_holds_is_refused_before_decoding_them(tmp_path):
    """Issue 26, finding 8: 6 MB of empty deals (under the 8 MB limit) went over 8 GB."""
    msg = _message_class("egn-expanded").FromString((BINARY / "VWEC Finals.expanded.egnb").read_bytes()[1:])
    for _ in range(2000):
        msg.deals.add()
    p = tmp_path / "many.expanded.egnb"
    p.write_bytes(bytes([0]) + msg.SerializeToString())
    with pytest.raises(RecordError) as e:
        read_records(str(p))
    assert e.value.reason == "breaks the EGN schema: deals: 2013 deals; an EGN game holds at most 100"
