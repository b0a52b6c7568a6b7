"""Compile the EGN .proto schemas shipped in euchre_events/schemas/egn-proto/
into the descriptor sets the binary EGN reader loads with the protobuf
runtime (protobuf has no .proto parser of its own; grpcio-tools' protoc is a
development tool only).  Run after changing a .proto:

    .venv/bin/python scripts/build-egn-protos.py

tests/test_egn_binary.py checks that the shipped sets match the .proto files.
"""
import os
import sys

from grpc_tools import protoc

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "euchre_events", "schemas",
                    "egn-proto")

# egn.proto (condensed) and egn-expanded.proto both define egn.EgnFile: one set each
SETS = {"egn-condensed.binpb": "egn.proto", "egn-expanded.binpb": "egn-expanded.proto",
        "emn.binpb": "emn.proto"}


def build(out_dir: str = HERE) -> None:
    """Write one FileDescriptorSet (with its imports) per top-level schema into ``out_dir``."""
    for out, proto in SETS.items():
        rc = protoc.main(["protoc", f"-I{HERE}", "--include_imports",
                          f"--descriptor_set_out={os.path.join(out_dir, out)}", os.path.join(HERE, proto)])
        if rc != 0:
            sys.exit(f"protoc failed on {proto}")


if __name__ == "__main__":
    build(sys.argv[1] if len(sys.argv) > 1 else HERE)
