"""JSON in and out: every request body is parsed here, every answer, problem and access log line
is encoded here."""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

# Integers in this range are read as integers (seeds span it), others as floats. orjson's own range
# stops at -2**63 below, so a body with a longer negative integer takes the slow road.
_LOWEST_INT, _HIGHEST_INT = -(2**64 - 1), 2**64 - 1
_LONG_NEGATIVE = re.compile(rb"-[0-9]{19}")
# Arrays and objects nest at most this deep: as deep as orjson writes (so both roads agree), far
# deeper than any request of the contract, and shallow enough that no error message recurses out.
MAX_DEPTH = 254
_TOO_DEEP = f"the body nests arrays and objects more than {MAX_DEPTH} levels deep"


class JSONRefused(ValueError):
    """A body that is not one unambiguous JSON text in UTF-8; ``code`` is the problem's."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code, self.detail = code, detail


def from_json(raw: bytes) -> Any:
    """The JSON value of a request body, or ``JSONRefused``.

    Refused: anything but UTF-8 (a byte order mark included), text that is not JSON, NaN and the
    infinities, lone surrogates (``"\\ud800"``), and an object that names a key twice (which value
    would count is up to each parser; RFC 8259 §4). Integers beyond 64 bits (beyond ±(2**64 - 1)) are
    read as floats, which no integer field takes.

    orjson refuses all of these but duplicate keys, at a fifth of the standard library's time. For
    those: a colon outside strings stands for one key, and strings hold the same colons before and
    after parsing unless written as ``\\u003a``. So, in a body with no ``\\u`` escape, the value
    orjson writes back holds as many colons as the body if and only if no key was dropped. Otherwise
    (or if orjson refuses the body) the standard library parses it again and says exactly what is
    wrong.
    """
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return _strictly(raw)
    if b"\\u" in raw or (b"-" in raw and _LONG_NEGATIVE.search(raw)):
        return _strictly(raw)
    try:
        written = orjson.dumps(value)
    except orjson.JSONEncodeError:  # nested deeper than orjson writes: MAX_DEPTH
        return _strictly(raw)
    if raw.count(b":") != written.count(b":"):
        return _strictly(raw)
    return value


def _strictly(raw: bytes) -> Any:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise JSONRefused("malformed-json", f"the body is not UTF-8 (byte {exc.start})") from None
    try:
        value = json.loads(text, object_pairs_hook=_unique, parse_constant=_no_constant, parse_int=_whole)
    except JSONRefused:
        raise
    except RecursionError:
        raise JSONRefused("malformed-json", _TOO_DEEP) from None
    except ValueError as exc:
        raise JSONRefused("malformed-json", f"the body is not valid JSON: {str(exc)[:200]}") from None
    _check_tree(value)
    return value


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise JSONRefused("duplicate-key", f"an object names the key {json.dumps(key)} more than once")
            seen.add(key)
    return value


def _no_constant(name: str) -> Any:
    raise JSONRefused("malformed-json", f"the body is not valid JSON: {name} is not a JSON number")


def _whole(text: str) -> int | float:
    if len(text) <= 21:
        number = int(text)
        if _LOWEST_INT <= number <= _HIGHEST_INT:
            return number
    return float(text)


def _check_tree(value: Any) -> None:
    """Refuse a lone surrogate in any string (keys included), and nesting deeper than orjson's
    road takes (a loop, as deep input must not recurse)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise JSONRefused("malformed-json", "the body holds a lone surrogate (\\ud800 to \\udfff)") from None
        elif isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise JSONRefused("malformed-json", _TOO_DEEP)
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            stack += [(child, depth + 1) for child in children]


def to_json(data: Any) -> bytes:
    """Compact JSON in UTF-8, non-ASCII text as it is. orjson encodes a whole round's replay in a
    tenth of the standard library's time. What it refuses (integers beyond 64 bits) goes to the
    standard library, so that no answer depends on orjson's limits."""
    try:
        return orjson.dumps(data)
    except TypeError:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
