"""The fast checks of ``formats.load_json`` (issue "Speed") give exactly the
answers of the plain ones they stand in for: the nesting depth
(``_shallow_bytes`` against the token walk ``_shallow``) and the numbers the
strict hooks must see (``_risky_numbers`` against ``_RISKY_NUMBER``)."""
from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from euchre_events.formats import (MAX_DEPTH, _RISKY_NUMBER, _risky_numbers, _shallow,
                                   _shallow_bytes)

_TEXT = st.text(alphabet=st.sampled_from('ab[]{}"\\ é,:0'), max_size=8)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**40, 10**40) | st.floats(allow_nan=False,
                                                                        allow_infinity=False)
    | _TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=40)


def _nest(n: int, inner: str = "0") -> str:
    return "[" * (n // 2) + '{"k":' * (n - n // 2) + inner + "}" * (n - n // 2) + "]" * (n // 2)


@settings(max_examples=400, deadline=None)
@given(_JSON, st.sampled_from([None, 0, 2]))
def test_fast_depth_and_number_checks_agree_with_the_plain_ones(value, indent):
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    data = text.encode("utf-8")
    if b"\\" not in data:
        assert _shallow_bytes(data) == _shallow(text)
    assert _risky_numbers(data) == (_RISKY_NUMBER.search(text) is not None)


def test_depth_at_the_limit_and_one_past_it():
    for n, ok in ((MAX_DEPTH, True), (MAX_DEPTH + 1, False), (3 * MAX_DEPTH, False)):
        text = _nest(n)
        assert _shallow(text) is ok and _shallow_bytes(text.encode()) is ok, n
    # brackets inside strings do not count; a string holding one is decided exactly
    text = _nest(MAX_DEPTH, '"]]]][[[[{{{"')
    assert _shallow_bytes(text.encode()) is True
    text = '["' + "[" * 300 + '"]'
    assert _shallow_bytes(text.encode()) is True


def test_risky_numbers_found_where_the_expression_finds_them():
    for text, risky in (("[1e308]", True), ("[1E-300]", True), ("[1e+99]", False),
                        ("[" + "9" * 31 + "]", True), ("[" + "9" * 30 + "]", False),
                        ('{"legal": [1, 2, 3], "steps": -12}', False), ('"e-000"', True)):
        assert _risky_numbers(text.encode()) is risky, text
        assert (_RISKY_NUMBER.search(text) is not None) is risky, text


_ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=4) | st.integers(-5, 5) | st.booleans() | st.none()
                      | st.floats(allow_nan=False), inner, max_size=4),
    max_leaves=30)


@settings(max_examples=400, deadline=None)
@given(_ANY_JSON)
def test_the_audit_reports_indented_json_is_the_standard_librarys(value):
    """``audit --json`` writes each game with its own indented encoder: the
    text ``json.dumps(value, indent=2)`` gives, character for character."""
    from euchre_events.ui.auditwriter import indented_json
    assert indented_json(value) == json.dumps(value, indent=2)
    assert indented_json(value, "\n    ") == json.dumps(value, indent=2).replace("\n", "\n    ")
