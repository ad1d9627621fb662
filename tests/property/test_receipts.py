"""The canonical JSON that receipts sign (service/api/receipts.py): orjson's road, where it is taken,
writes exactly what rfc8785 writes, and rfc8785 writes the rest."""

from __future__ import annotations

import sys
from typing import Any

import orjson
import pytest
import rfc8785
from hypothesis import given
from hypothesis import strategies as st

from service.api import receipts
from service.api.receipts import MAX_SAFE_INTEGER, canonical

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER)
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
KEYS = st.text(max_size=4) | st.sampled_from(["a", "b", "\ue000", "\U0001f600", "\u00e9", "A", "_", ""])
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4))
# What the service signs: no floats, whole numbers in range, ASCII keys. orjson's road must take them all.
PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(st.characters(max_codepoint=127)), inner),
)


@given(JSON)
def test_canonical_is_rfc_8785_for_any_json(value: Any) -> None:
    try:
        expected = rfc8785.dumps(value)
    except rfc8785.CanonicalizationError:  # integers beyond 2**53: no JCS text, on either road
        with pytest.raises(rfc8785.CanonicalizationError):
            canonical(value)
        return
    assert canonical(value) == expected


@given(PLAIN)
def test_orjson_writes_what_the_service_signs_and_writes_it_as_rfc8785_does(value: Any) -> None:
    assert receipts._orjson_writes_it_canonically(value)
    assert orjson.dumps(value, option=orjson.OPT_SORT_KEYS) == rfc8785.dumps(value)


def test_orjson_escapes_every_code_point_as_rfc8785_does() -> None:
    """All of them in one string, the surrogates aside (no JSON text parsed here holds a lone one)."""
    every = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF)
    assert orjson.dumps(every) == rfc8785.dumps(every)


@pytest.mark.parametrize(
    "value",
    [
        {"scores": [2.0, 1]},  # orjson writes 2.0, JCS 2
        [-0.0],
        [100.0],
        [MAX_SAFE_INTEGER + 1],
        {"\U0001f600": 1, "\ue000": 2},  # UTF-16 order puts the emoji first; code points put it last
        (1, 2),
    ],
)
def test_what_orjson_would_write_otherwise_takes_rfc8785s_road(value: Any) -> None:
    assert not receipts._orjson_writes_it_canonically(value)
    try:
        expected = rfc8785.dumps(value)
    except rfc8785.CanonicalizationError:
        return
    assert canonical(value) == expected
    if not isinstance(value, tuple):
        assert orjson.dumps(value, option=orjson.OPT_SORT_KEYS) != expected  # the road matters
