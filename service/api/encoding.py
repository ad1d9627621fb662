"""JSON out: every answer, problem and access log line is encoded here."""

from __future__ import annotations

import json
from typing import Any

import orjson


def to_json(data: Any) -> bytes:
    """Compact JSON in UTF-8, non-ASCII text as it is. orjson encodes a whole round's replay in a
    tenth of the standard library's time. What it refuses (integers beyond 64 bits) goes to the
    standard library, so that no answer depends on orjson's limits."""
    try:
        return orjson.dumps(data)
    except TypeError:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
