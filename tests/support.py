"""Helpers that several test suites share."""

from __future__ import annotations

import socket
from typing import Any


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def strings_in(value: Any) -> set[str]:
    """Every string in a JSON value, keys included: where a card code could show."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for k, v in value.items() for s in strings_in(k) | strings_in(v)}
    if isinstance(value, list):
        return {s for item in value for s in strings_in(item)}
    return set()
