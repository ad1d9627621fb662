"""Whole numbers as JSON gives them."""

from __future__ import annotations

import math


def whole_number(value: object) -> int | None:
    """``value`` as an int when it is a whole number, else None. JSON has one kind of number: an
    integral float such as ``2.0`` is the integer 2 (JSON Schema counts it as one, and JavaScript
    cannot tell them apart). A boolean is not a number."""
    if type(value) is int:
        return value
    if type(value) is float and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    return None
