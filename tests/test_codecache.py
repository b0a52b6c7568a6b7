"""The dataclasses' compile cache (euchre_events/_codecache.py, issue 21
"Speed"): the same classes and methods with it as without it; a second
process compiles nothing; a corrupt, foreign or unwritable file is never an
error (its texts are compiled as without the cache)."""
import json
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from euchre_events import _codecache

ROOT = Path(__file__).resolve().parents[1]

# Run in a fresh interpreter: MODE "plain" (dataclasses' own exec), or the
# cache read from and written to PATH.  Prints what the generated methods
# are and do, for a few dataclasses of events, analysis, rules and a variant.
_PROBE = r"""
import dataclasses, json, sys
mode, path = sys.argv[1], sys.argv[2]
from euchre_events import _codecache
if mode == "plain":
    del dataclasses.exec                      # the builtin again
else:
    _codecache.start(path)
from euchre_events import events
from euchre_events.analysis import review
from euchre_events.rules import table
from euchre_events.rules.variants import upcard


@dataclasses.dataclass(frozen=True)
class Mine:                                   # not the package's: compiled as usual
    x: int


def probe(cls, *args):
    a, b = cls(*args), cls(*args)
    c = cls(*args[:-1], args[-1] + 1) if args else None
    methods = {name: [f.__qualname__, f.__name__, f.__module__, f.__code__.co_filename,
                      f.__code__.co_varnames, f.__defaults__ is None]
               for name, f in sorted(vars(cls).items()) if callable(f) and hasattr(f, "__code__")}
    try:
        setattr(a, dataclasses.fields(cls)[0].name, 99)
        frozen = "set"
    except Exception as e:
        frozen = [type(e).__name__, str(e)]
    try:
        hashed = hash(a) == hash(b)
    except TypeError as e:
        hashed = str(e)
    return {"methods": methods, "repr": repr(a), "eq": [a == b, a == c, a != c], "hash": hashed,
            "frozen": frozen, "doc": cls.__doc__ is not None,
            "fields": [(f.name, str(f.type), "-" if f.default is dataclasses.MISSING else repr(f.default))
                       for f in dataclasses.fields(cls)]}


def ints(cls):
    return [i + 1 for i, f in enumerate(dataclasses.fields(cls)) if f.init]


out = {
    "CardPlayed": probe(events.CardPlayed, 0, 5),
    "TrumpNamed": probe(events.TrumpNamed, 1, 3),
    "Option": probe(review.Option, *ints(review.Option)),
    "Decision": probe(review.Decision, *ints(review.Decision)),
    "Renege": probe(table.Renege, *ints(table.Renege)),
    "Claim": probe(table.Claim, *ints(table.Claim)),
    "UpCardRules": probe(upcard.UpCardRules, *ints(upcard.UpCardRules)),
    "Mine": probe(Mine, 1),
}
_codecache.save()
print(json.dumps({"out": out, "misses": _codecache.misses, "texts": len(_codecache._codes),
                  "mine_kept": any("x:_type_x" in t for t in _codecache._codes)}))
"""


def _probe(mode: str, path: Path) -> dict:
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(ROOT))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    p = subprocess.run([sys.executable, "-c", _PROBE, mode, str(path)], capture_output=True,
                       text=True, env=env, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    return json.loads(p.stdout)


def test_the_same_methods_and_a_second_process_compiles_nothing(tmp_path):
    path = tmp_path / "dataclass-code.marshal"
    plain = _probe("plain", path)
    assert not path.exists()
    first = _probe("cache", path)
    assert path.exists()
    second = _probe("cache", path)
    assert first["out"] == plain["out"] == second["out"]
    assert plain["out"]["Renege"]["methods"]["__init__"][0] == "Renege.__init__"
    assert plain["out"]["Option"]["frozen"][0] == "FrozenInstanceError"
    assert first["misses"] == first["texts"] > 20     # every text compiled once, then kept
    assert second["misses"] == 0 and second["texts"] == first["texts"]
    assert not first["mine_kept"]                     # another module's dataclass is not kept
    assert list(tmp_path.iterdir()) == [path]        # no temporary file left


@pytest.mark.parametrize("content", [
    b"",
    b"\x00\x01",
    b"not marshal data at all",
    _codecache.MAGIC_NUMBER + b"\xff\xfe truncated",
    b"\x00\x00\r\n" + marshal.dumps({"def f(): pass": compile("1", "<string>", "exec")}),  # another magic
    _codecache.MAGIC_NUMBER + marshal.dumps(["a list"]),
    _codecache.MAGIC_NUMBER + marshal.dumps({"text": 1}),
], ids=["empty", "short", "garbage", "truncated", "foreign", "list", "not-code"])
def test_a_corrupt_or_foreign_file_is_an_empty_cache_and_is_replaced(tmp_path, content):
    path = tmp_path / "dataclass-code.marshal"
    path.write_bytes(content)
    assert _codecache._read(str(path)) == {}
    run = _probe("cache", path)
    assert run["misses"] == run["texts"] > 20
    assert _probe("cache", path)["misses"] == 0      # the file was written again, readable


def test_the_file_of_another_interpreter_is_never_loaded(tmp_path):
    path = tmp_path / "dataclass-code.marshal"
    text = "def __create_fn__():\n def f(self):\n  return 1\n return f"
    path.write_bytes(_codecache.MAGIC_NUMBER + marshal.dumps({text: compile(text, "<string>", "exec")}))
    assert list(_codecache._read(str(path))) == [text]
    other = bytes([_codecache.MAGIC_NUMBER[0] ^ 1]) + _codecache.MAGIC_NUMBER[1:]
    path.write_bytes(other + path.read_bytes()[4:])
    assert _codecache._read(str(path)) == {}


def test_the_file_lives_with_the_package_bytecode():
    from importlib.util import cache_from_source
    folder = os.path.dirname(cache_from_source(os.path.abspath(_codecache.__file__)))
    opt = f".opt-{sys.flags.optimize}" if sys.flags.optimize else ""
    assert _codecache._path == os.path.join(
        folder, f"dataclass-code.{sys.implementation.cache_tag}{opt}.marshal")
    import dataclasses
    assert dataclasses.exec is _codecache._exec


def test_saving_is_never_an_error(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    path = blocker / "__pycache__" / "dataclass-code.marshal"     # its folder cannot be made
    codes, saved_path, unsaved = _codecache._codes, _codecache._path, _codecache._unsaved
    try:
        text = "def __create_fn__():\n def g(self):\n  return 2\n return g"
        _codecache._codes = {text: compile(text, "<string>", "exec")}
        _codecache._path, _codecache._unsaved = str(path), 1
        _codecache.save()                                            # no error
        assert list(tmp_path.iterdir()) == [blocker]
        writable = tmp_path / "cache" / "dataclass-code.marshal"
        _codecache._path, _codecache._unsaved = str(writable), 1
        monkeypatch.setattr(sys, "dont_write_bytecode", True)
        _codecache.save()                                            # -B: nothing written
        assert not writable.exists()
        monkeypatch.setattr(sys, "dont_write_bytecode", False)
        _codecache._unsaved = 1
        _codecache.save()
        assert list(_codecache._read(str(writable))) == [text]
    finally:
        _codecache._codes, _codecache._path, _codecache._unsaved = codes, saved_path, unsaved


def test_the_cached_code_runs_as_execs_own():
    text = "def __create_fn__(a):\n def __init__(self, b=a):\n  self.b = b\n return __init__"
    ns_exec, ns_cache = {}, {}
    counts = _codecache.misses, _codecache._unsaved
    exec(text, {"__name__": "elsewhere"}, ns_exec)
    _codecache._exec(text, {"__name__": "euchre_events.test"}, ns_cache)
    try:
        code = _codecache._codes[text]
        assert code.co_filename == "<string>"
        assert code.co_flags == compile(text, "<string>", "exec", dont_inherit=True).co_flags
        f, g = ns_exec["__create_fn__"](3), ns_cache["__create_fn__"](3)
        assert (f.__qualname__, f.__defaults__, f.__code__.co_code) == \
               (g.__qualname__, g.__defaults__, g.__code__.co_code)
    finally:
        _codecache._codes.pop(text, None)
        _codecache.misses, _codecache._unsaved = counts
