"""JSON out (service/api/encoding.py): orjson, and the standard library for what orjson refuses."""

from __future__ import annotations

import json

from service.api.encoding import to_json


def test_compact_utf8_with_non_ascii_text_kept() -> None:
    assert to_json({"name": "ديناري", "cards": ("7D", "AS")}) == '{"name":"ديناري","cards":["7D","AS"]}'.encode()


def test_integers_beyond_64_bits_fall_back_to_the_standard_library() -> None:
    big = 2**70 + 1
    assert json.loads(to_json({"seed": big, "n": [1, -(2**80)]})) == {"seed": big, "n": [1, -(2**80)]}
