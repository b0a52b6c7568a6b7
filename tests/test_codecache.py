"""The dataclasses' compile cache (euchre_events/_codecache.py, issue 21
"Speed"): the same classes and methods with it as without it; a second
process compiles nothing; a corrupt, foreign or unwritable file is never an
error (its texts are compiled as without the cache)."""
import json
import marshal
import os
import subprocess
import sys
import time
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
                  "used": sorted(_codecache._used),
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
    _codecache._dumps(["a list"]),
    _codecache._dumps({"text": 1}),
    _codecache.MAGIC_NUMBER + marshal.dumps({"def f(): pass": compile("1", "<string>", "exec")}),
], ids=["empty", "short", "garbage", "truncated", "foreign", "list", "not-code", "no-stamp"])
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
    path.write_bytes(_codecache._dumps({text: compile(text, "<string>", "exec")}))
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
    codes, used, saved_path, unsaved = _codecache._codes, _codecache._used, _codecache._path, _codecache._unsaved
    try:
        text = "def __create_fn__():\n def g(self):\n  return 2\n return g"
        _codecache._codes = _codecache._used = {text: compile(text, "<string>", "exec")}
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
        _codecache._codes, _codecache._used = codes, used
        _codecache._path, _codecache._unsaved = saved_path, unsaved


@pytest.fixture
def own_state():
    """The module's state (what the package's import loaded) put back after the test."""
    names = ["_codes", "_used", "_header", "_path", "misses", "_unsaved"]
    saved = {name: getattr(_codecache, name) for name in names}
    yield
    for name, value in saved.items():
        setattr(_codecache, name, value)


def _one(n: int):
    text = f"def __create_fn__():\n def f{n}(self):\n  return {n}\n return f{n}"
    return text, compile(text, "<string>", "exec", dont_inherit=True)


def test_a_file_past_most_is_written_with_the_used_texts_only(tmp_path):
    path = tmp_path / "dataclass-code.marshal"
    stale_code = _one(0)[1]
    stale = {f"# stale {i}\n" + _one(0)[0]: stale_code for i in range(5000)}
    path.write_bytes(_codecache._dumps(stale))
    run = _probe("cache", path)                       # all misses, 5,000 old texts in the file
    assert run["misses"] == len(run["used"]) > 20
    assert sorted(_codecache._read(str(path))) == run["used"]
    # the used texts found, the old ones past _MOST: pruned though nothing was compiled
    path.write_bytes(_codecache._dumps({**stale, **_codecache._read(str(path))}))
    again = _probe("cache", path)
    assert again["misses"] == 0 and again["used"] == run["used"]
    assert sorted(_codecache._read(str(path))) == run["used"]
    # under _MOST: the other texts of the file are kept
    few = dict(list(stale.items())[:100])
    path.write_bytes(_codecache._dumps(few))
    third = _probe("cache", path)
    assert third["misses"] == len(run["used"])
    assert sorted(_codecache._read(str(path))) == sorted([*few, *run["used"]])


def test_a_damaged_file_is_an_empty_cache(tmp_path):
    path = tmp_path / "dataclass-code.marshal"
    plain = _probe("plain", path)
    first = _probe("cache", path)
    good = path.read_bytes()
    header = len(_codecache._header) + 4
    for offset in (header + 1000, len(good) // 2, len(good) - 3):      # a flipped bit of the payload
        damaged = bytearray(good)
        damaged[offset] ^= 0x10
        path.write_bytes(damaged)
        assert _codecache._read(str(path)) == {}
        run = _probe("cache", path)                   # compiled fresh, the same behaviour
        assert run["out"] == plain["out"]
        assert run["misses"] == len(run["used"]) == first["misses"]
        assert sorted(_codecache._read(str(path))) == first["used"]    # written anew
    assert _probe("cache", path)["misses"] == 0


def test_the_file_is_tied_to_the_installed_module(tmp_path, monkeypatch, own_state):
    st = os.stat(_codecache.__file__)
    assert _codecache._header == (_codecache.MAGIC_NUMBER + st.st_size.to_bytes(8, "little")
                                  + st.st_mtime_ns.to_bytes(8, "little"))
    # a reinstall rewrites the module: its size or mtime changes, the file is not used
    source = tmp_path / "_codecache.py"
    source.write_bytes(Path(_codecache.__file__).read_bytes())
    monkeypatch.setattr(_codecache, "__file__", str(source))
    path = tmp_path / "dataclass-code.marshal"
    _codecache.start(str(path))
    text, code = _one(1)
    path.write_bytes(_codecache._dumps({text: code}))
    _codecache.start(str(path))
    assert list(_codecache._codes) == [text]
    os.utime(source, ns=(st.st_atime_ns, st.st_mtime_ns + 1))
    _codecache.start(str(path))
    assert _codecache._codes == {}
    _codecache.start(str(path))
    text2, code2 = _one(2)
    path.write_bytes(_codecache._dumps({text2: code2}))
    source.write_bytes(source.read_bytes() + b"\n")
    os.utime(source, ns=(st.st_atime_ns, st.st_mtime_ns + 1))   # the same mtime, another size
    _codecache.start(str(path))
    assert _codecache._codes == {}


def _save_one(path: Path, n: int = 3) -> None:
    text, code = _one(n)
    _codecache._codes, _codecache._used = {text: code}, {text: code}
    _codecache._path, _codecache._unsaved = str(path), 1
    _codecache.save()


def test_old_temporary_files_are_removed_at_save(tmp_path, own_state):
    path = tmp_path / "dataclass-code.marshal"
    old = [tmp_path / "dataclass-code.marshal.4242.tmp", tmp_path / "dataclass-code.marshal.7.tmp"]
    new = tmp_path / "dataclass-code.marshal.4243.tmp"                  # a process writing now
    others = [tmp_path / "dataclass-code.marshal.x7.tmp", tmp_path / "other.marshal.4242.tmp",
              tmp_path / "dataclass-code.marshal.4244.tmp.keep"]
    for f in [*old, new, *others]:
        f.write_bytes(b"partial")
    long_ago = time.time() - _codecache._STALE - 60
    for f in [*old, *others]:
        os.utime(f, (long_ago, long_ago))
    _save_one(path)
    assert sorted(tmp_path.iterdir()) == sorted([path, new, *others])
    assert list(_codecache._read(str(path))) == [_one(3)[0]]


def test_the_temporary_file_follows_no_link_and_has_a_pycs_mode(tmp_path, own_state):
    path = tmp_path / "dataclass-code.marshal"
    target = tmp_path / "elsewhere"
    target.write_bytes(b"keep me")
    link = tmp_path / f"dataclass-code.marshal.{os.getpid()}.tmp"
    link.symlink_to(target)
    _save_one(path)                                   # gives up, silently
    assert target.read_bytes() == b"keep me"
    assert link.is_symlink() and not path.exists()
    link.unlink()
    umask = os.umask(0)
    try:
        _save_one(path)
    finally:
        os.umask(umask)
    assert list(_codecache._read(str(path))) == [_one(3)[0]]
    assert path.stat().st_mode & 0o777 == 0o644       # not group- or world-writable


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
