"""Binary EGN (``spec/binary-format.md`` of the EGN project): the condensed
``.egnb`` and the expanded ``.expanded.egnb``, both ways.

A binary file is one magic byte, then a protobuf message ``egn.EgnFile``:

* ``0x00``: expanded, the whole EGN document as protobuf
  (``egn-expanded.proto``);
* ``0x01``: condensed, the metadata as protobuf and each deal as a
  Base64URL string of a bit-packed deal (``egn.proto``; the bit layout is
  in :mod:`.packed`);
* any other first byte: a legacy file without a magic byte, condensed.

The protobuf side is read and written with the ``protobuf`` runtime from
the project's own ``.proto`` schemas, shipped in
``euchre_events/schemas/egn-proto/`` and compiled into descriptor sets by
``scripts/build-egn-protos.py`` (the runtime has no ``.proto`` parser).
This module only maps the protobuf message to the EGN JSON document and
back; reading the game is :func:`~euchre_events.formats.egn.read_egn_dict`'s.
"""
from __future__ import annotations

import copy
from functools import lru_cache
from importlib import resources
from typing import Any, Optional

from euchre_events.formats import MAX_RECORD_BYTES, RecordError
from euchre_events.formats.egn.packed import PackError, pack_deal, unpack_deal
from euchre_events.formats.egn.schema import too_many_deals

MAGIC_EXPANDED = 0x00
MAGIC_CONDENSED = 0x01
MAX_BYTES = MAX_RECORD_BYTES
"""The EGN converter's size cap on a binary file (binary-format.md,
"Validation and Safety Limits"): 8 MiB, the limit of every record file read
whole (:data:`euchre_events.formats.MAX_RECORD_BYTES`)."""

# protobuf field names (snake_case in the .proto) and the EGN JSON keys
_TO_JSON = {"file_type": "fileType", "game_id": "gameId", "initial_score": "initialScore",
            "final_score": "finalScore", "deal_number": "dealNumber",
            "initial_state": "initialState", "up_card": "upCard", "phase_number": "phaseNumber",
            "is_alone": "isAlone", "alone_defender": "aloneDefender",
            "branch_index": "branchIndex", "alternative_lines": "alternativeLines"}
_TO_PROTO = {v: k for k, v in _TO_JSON.items()}
_PHASES = (("bidding", "EUCHRE_BIDDING"), ("play", "TRICK_PLAY"))


@lru_cache(maxsize=None)
def _message_class(schema: str):
    """The ``egn.EgnFile`` class of one shipped descriptor set
    (``"egn-condensed"`` or ``"egn-expanded"``): each in a pool of its own,
    since both schemas name their top message ``egn.EgnFile``."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    data = resources.files("euchre_events").joinpath("schemas", "egn-proto", schema + ".binpb").read_bytes()
    fds = descriptor_pb2.FileDescriptorSet.FromString(data)
    pool = descriptor_pool.DescriptorPool()
    for fd in fds.file:
        _unpacked(fd)
        pool.Add(fd)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("egn.EgnFile"))


_SCALARS = frozenset(range(1, 19)) - {9, 10, 11, 12, 14}
"""FieldDescriptorProto types of numbers and booleans (not string, group,
message, bytes or enum)."""


def _unpacked(fd) -> None:
    """Write repeated numbers one tag each (``initial_score``, ``final_score``),
    as the EGN project's own encoder does, not packed as proto3 would by
    default: so a game read from a ``.egnb`` is written back to the same
    bytes.  Readers take both forms (protobuf requires it)."""
    for msg in fd.message_type:
        _unpacked_message(msg)


def _unpacked_message(msg) -> None:
    for f in msg.field:
        if f.label == f.LABEL_REPEATED and f.type in _SCALARS:
            f.options.packed = False
    for sub in msg.nested_type:
        _unpacked_message(sub)


def is_binary_egn(data: bytes) -> bool:
    """True when ``data`` starts as a binary EGN file does (magic byte 0 or 1)."""
    return bool(data) and data[0] in (MAGIC_EXPANDED, MAGIC_CONDENSED)


def egnb_to_dict(data: bytes, path: str = "<bytes>") -> dict:
    """The EGN JSON document (a dict, as :func:`json.load` gives it) of a
    binary EGN file's bytes.  Packed deals are unpacked.  Raises
    :class:`RecordError` naming ``path`` (and the deal, from 1) when the
    bytes are not a binary EGN file or a packed deal cannot be read."""
    from google.protobuf.json_format import MessageToDict
    from google.protobuf.message import DecodeError
    if not data:
        raise RecordError(path, "the file is empty: it holds no game")
    if len(data) > MAX_BYTES:
        raise RecordError(path, f"binary EGN file of {len(data)} bytes: more than the "
                                f"{MAX_BYTES} the EGN format allows")
    condensed = data[0] != MAGIC_EXPANDED
    body = data[1:] if is_binary_egn(data) else data   # no magic byte: legacy condensed
    cls = _message_class("egn-condensed" if condensed else "egn-expanded")
    try:
        msg = cls.FromString(body)
    except DecodeError as e:
        kind = "condensed" if condensed else "expanded"
        raise RecordError(path, f"not a binary EGN file: the {kind} protobuf message cannot "
                                f"be decoded ({e})") from None
    too_many = too_many_deals(len(msg.deals))
    if too_many:   # before each deal becomes a dict (6 MB of empty deals went over 8 GB)
        raise RecordError(path, "breaks the EGN schema: " + too_many)
    raw = MessageToDict(msg, preserving_proto_field_name=True)
    doc = _from_proto(raw)
    if not doc.get("fileType") and not doc.get("deals"):
        raise RecordError(path, "not a binary EGN file: the message holds no fileType and no deals")
    if condensed:
        deals = []
        for i, packed in enumerate(doc.get("deals") or []):
            try:
                deals.append(unpack_deal(packed, i))
            except PackError as e:
                raise RecordError(path, f"packed deal {i + 1} cannot be read: {e}", deal=i + 1) from None
        doc["deals"] = deals
    return doc


def dict_to_egnb(doc: dict, expanded: bool = False, path: str = "<egn>",
                 warnings: Optional[list] = None) -> bytes:
    """The binary EGN bytes of an EGN JSON document: condensed (each deal
    bit-packed, magic byte 1) or ``expanded`` (magic byte 0).  Raises
    :class:`RecordError` naming ``path`` when a deal cannot be packed; an
    alternative line that cannot (:func:`~.packed.pack_deal`) is left out,
    noted in ``warnings`` (a list) with its deal, or raises when it is None."""
    from google.protobuf.json_format import ParseDict
    d = copy.deepcopy(doc)
    if not expanded:
        rs = (d.get("metadata") or {}).get("ruleset") or {}
        packed = []
        for i, deal in enumerate(d.get("deals") or []):
            if isinstance(deal, str):
                packed.append(deal)
                continue
            lost: Optional[list] = [] if warnings is not None else None
            try:
                packed.append(pack_deal(deal, int(rs.get("num_players", 4)), int(rs.get("min_rank", 9)),
                                        lost))
                warnings.extend(f"deal {i + 1}: {w}" for w in lost or ())
            except PackError as e:
                raise RecordError(path, f"deal {i + 1} cannot be packed: {e}", deal=i + 1) from None
        d["deals"] = packed
    cls = _message_class("egn-expanded" if expanded else "egn-condensed")
    msg = ParseDict(_to_proto(d), cls(), ignore_unknown_fields=True)
    return bytes([MAGIC_EXPANDED if expanded else MAGIC_CONDENSED]) + msg.SerializeToString()


# ------------------------------------------------------------ the mapping

def _from_proto(o: Any, key: str = "") -> Any:
    """A ``MessageToDict`` value (proto field names) as EGN JSON."""
    if isinstance(o, list):
        if key == "players":
            return [_player_from_proto(p) for p in o]
        if key in ("playerCards", "tricks"):
            return [list(x.get("cards", [])) for x in o]
        if key == "phases":
            out = []
            for p in o:
                for field, kind in _PHASES:
                    if field in p:
                        ph = _from_proto(p[field])
                        ph["type"] = kind
                        out.append(ph)
            return out
        return [_from_proto(x, key) for x in o]
    if isinstance(o, dict):
        if key in ("callAnnotations", "playAnnotations"):
            return {str(k): list(v.get("texts", [])) for k, v in o.items()}
        return {_TO_JSON.get(k, k): _from_proto(v, _TO_JSON.get(k, k)) for k, v in o.items()}
    return o


def _player_from_proto(p: dict) -> Any:
    if "player_with_id" in p:
        w = p["player_with_id"]
        out = {"name": w.get("name", "")}
        if w.get("ids"):
            out["playerIds"] = [{"id": i.get("id", ""), "source": i.get("source", "")} for i in w["ids"]]
        return out
    return p.get("name", "")


def _to_proto(o: Any, key: str = "") -> Any:
    """An EGN JSON value as a ``ParseDict`` input (proto field names)."""
    if isinstance(o, list):
        if key == "players":
            return [{"name": p} if isinstance(p, str) else
                    {"player_with_id": {"name": p.get("name", ""),
                                        "ids": [{"id": i.get("id", ""), "source": i.get("source", "")}
                                                for i in p.get("playerIds") or []]}} for p in o]
        if key in ("playerCards", "tricks"):
            return [{"cards": list(x)} for x in o]
        if key == "phases":
            out = []
            for p in o:
                field = "bidding" if p.get("type") == "EUCHRE_BIDDING" else "play"
                body = {k: v for k, v in p.items() if k != "type"}
                out.append({field: _to_proto(body)})
            return out
        return [_to_proto(x, key) for x in o]
    if isinstance(o, dict):
        if key in ("callAnnotations", "playAnnotations"):
            return {str(k): {"texts": v if isinstance(v, list) else [v]} for k, v in o.items()}
        return {_TO_PROTO.get(k, k): _to_proto(v, k) for k, v in o.items()}
    return o
