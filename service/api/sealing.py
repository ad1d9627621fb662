"""Sealed round states: an opaque token that a client can carry but neither read nor alter.

A token is base64url (no padding) of::

    version (1 byte) | key id (8) | issued at (8, Unix seconds, big-endian) | nonce (12) | ciphertext

where the ciphertext is AES-256-GCM of the JSON state, with the first 17 bytes as associated data,
so the key id and the issue time are authenticated too. The key id is the first 8 bytes of SHA-256
of the key. Keys come from ``CHKOBBA_STATE_KEYS`` (comma-separated, each 32 bytes in base64url):
the first seals, all of them open, so keys can be rotated without breaking rounds in progress. A
token lives ``CHKOBBA_STATE_TOKEN_LIFETIME`` seconds (a day by default). Both are read, with every
other setting, by ``service.ops.settings``: a ``Sealer`` is made from the settings. A stateless service
cannot tell a fresh token from an older one it issued itself: see the README, "Sealed rounds", for
what a game server should do about replays.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import secrets
import struct
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from service.ops.settings import KEY_BYTES as KEY_BYTES
from service.ops.settings import Settings
from service.ops.settings import new_key as new_key
from service.ops.settings import parse_keys as parse_keys

from .encoding import to_json

TOKEN_FORMAT = 1
HEADER = struct.Struct(">B8sQ")
NONCE_BYTES = 12
CLOCK_SKEW_SECONDS = 60
MAX_TOKEN_CHARS = 8192


class TokenError(Exception):
    """A token the service will not open. ``code`` is the stable problem code."""

    def __init__(self, code: str, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.code, self.reason, self.detail = code, reason, detail


def _tampered(reason: str, detail: str) -> TokenError:
    return TokenError("tampered-state", reason, detail)


def _encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def key_id(key: bytes) -> bytes:
    return hashlib.sha256(key).digest()[:8]


def _read(payload: bytes) -> Any:
    """The state of an authentic token, read as the standard library reads it. orjson reads it three
    times faster and alike, but for numbers beyond 64 bits, which it reads as floats. A sealed state
    is the JSON of a valid one, whose only number that can be that large is a rules option, so orjson
    is taken at its word where the rules are a profile id, and the standard library reads anything
    else (the object form of the rules, whatever orjson refuses)."""
    try:
        state = orjson.loads(payload)
    except orjson.JSONDecodeError:
        return json.loads(payload)
    return state if type(state) is dict and type(state.get("rules")) is str else json.loads(payload)


@dataclass(frozen=True)
class Sealer:
    keys: tuple[bytes, ...]  # the first seals; all open
    lifetime_seconds: int
    # Per key id, its cipher, made once (an AESGCM object only holds its key: it can be reused).
    _ciphers: dict[bytes, AESGCM] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.keys:
            raise ValueError("a Sealer needs a key (service.ops.settings.with_state_keys makes one)")
        ciphers: dict[bytes, AESGCM] = {}
        for key in self.keys:
            ciphers.setdefault(key_id(key), AESGCM(key))  # the first key with an id opens its tokens
        object.__setattr__(self, "_ciphers", ciphers)

    @classmethod
    def from_settings(cls, settings: Settings) -> Sealer:
        """The sealer of ``settings``' keys and token lifetime (``with_state_keys`` gives it keys)."""
        return cls(settings.state_keys, settings.state_token_lifetime)

    def seal(self, state: Mapping[str, Any], *, now: float | None = None) -> str:
        kid = key_id(self.keys[0])
        header = HEADER.pack(TOKEN_FORMAT, kid, int(time.time() if now is None else now))
        nonce = secrets.token_bytes(NONCE_BYTES)
        # Not compressed: compression would make the length depend on the hidden cards' order.
        payload = to_json(state)
        sealed = self._ciphers[kid].encrypt(nonce, payload, header)
        return _encode(header + nonce + sealed)

    def open(self, token: object, *, now: float | None = None) -> dict[str, Any]:
        """The state a token carries; raises ``TokenError`` before anything reaches the rules."""
        if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_CHARS:
            raise _tampered("malformed", "state_token is not a token this service issued")
        try:
            raw = base64.b64decode(token + "=" * (-len(token) % 4), altchars=b"-_", validate=True)
        except (binascii.Error, ValueError):
            raise _tampered("malformed", "state_token is not base64url") from None
        if _encode(raw) != token:  # one spelling per token: no padding, no stray bits or characters
            raise _tampered("malformed", "state_token is not in its canonical form")
        if len(raw) < HEADER.size + NONCE_BYTES + 16:
            raise _tampered("malformed", "state_token is too short to be a sealed state")
        header, nonce, sealed = (
            raw[: HEADER.size],
            raw[HEADER.size : HEADER.size + NONCE_BYTES],
            raw[HEADER.size + NONCE_BYTES :],
        )
        version, kid, issued = HEADER.unpack(header)
        if version != TOKEN_FORMAT:
            raise _tampered("malformed", f"state_token has version {version}; this service issues {TOKEN_FORMAT}")
        cipher = self._ciphers.get(kid)
        if cipher is None:
            raise _tampered("unknown-key", "state_token was sealed with a key this service does not hold")
        try:
            payload = cipher.decrypt(nonce, sealed, header)
        except InvalidTag:
            raise _tampered("altered", "state_token was altered or forged") from None
        current = time.time() if now is None else now
        if issued > current + CLOCK_SKEW_SECONDS:
            raise _tampered("from-the-future", "state_token claims to be issued in the future")
        if current - issued > self.lifetime_seconds:
            raise TokenError(
                "expired-state", "expired", f"state_token expired {int(current - issued - self.lifetime_seconds)} s ago"
            )
        try:
            state = _read(payload)
        except ValueError:  # authentic but unreadable: only a bug of ours could do this
            raise _tampered("unreadable", "state_token holds no readable state") from None
        if not isinstance(state, dict):
            raise _tampered("unreadable", "state_token holds no state object")
        return state
