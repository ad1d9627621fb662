"""Sealed round states: an opaque token that a client can carry but neither read nor alter.

A token is base64url (no padding) of::

    version (1 byte) | key id (8) | issued at (8, Unix seconds, big-endian) | salt (24) | ciphertext

where the ciphertext is AES-256-GCM of the JSON payload under a key and nonce of this token alone,
with the first 41 bytes as associated data (so the key id, the issue time and the salt are
authenticated too). The token's key and nonce are HKDF-Expand (RFC 5869, SHA-256) of the configured
key over ``"chkobba state token v2"`` and the salt: 44 bytes, the key then the nonce. The configured
keys are 32 random bytes, uniform already, so HKDF-Extract adds nothing (RFC 5869 §3.3).

Why a key per token: AES-GCM with random 96-bit nonces is good for about 2^32 seals per key (NIST SP
800-38D §8.3); here each derived key seals once, and the limit is the chance that two tokens draw the
same 192-bit salt, which for q tokens is at most q^2 / 2^193: for 100 pods sealing 3,000 states a
second for a year (q ≈ 2^43.1), about 2^-107 (docs/security.md, "Sealing and its limits").

The key id is the first 8 bytes of SHA-256 of the configured key. Keys come from
``CHKOBBA_STATE_KEYS`` (comma-separated, each 32 bytes in base64url): the first seals, all of them open,
so keys can be rotated without breaking rounds in progress. A token lives
``CHKOBBA_STATE_TOKEN_LIFETIME`` seconds. Both are read, with every other setting, by
``service.ops.settings``: a ``Sealer`` is made from the settings.

Tokens of the format before this one (version 1: a random 96-bit nonce under the configured key
itself) still open until they expire, so that a rolling upgrade breaks no round in progress; nothing
seals them any more.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
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

from service.ops import metrics
from service.ops.settings import KEY_BYTES as KEY_BYTES
from service.ops.settings import Settings
from service.ops.settings import new_key as new_key
from service.ops.settings import parse_keys as parse_keys

from .encoding import to_json

TOKEN_FORMAT = 2
LEGACY_FORMAT = 1  # opened until its tokens expire, never sealed
HEADER = struct.Struct(">B8sQ")  # version, key id, issued at: both formats begin so
SALT_BYTES = 24
NONCE_BYTES = 12
TAG_BYTES = 16
# What a token is for goes into its key (HKDF's info): a commit token (service/api/deals.py) does not
# open as a state token, nor the other way round.
STATE, COMMIT = "state", "commit"
CLOCK_SKEW_SECONDS = 60
MAX_TOKEN_CHARS = 8192


class TokenError(Exception):
    """A token the service will not open. ``code`` is the stable problem code."""

    def __init__(self, code: str, reason: str, detail: str, field: str = "state_token") -> None:
        super().__init__(detail)
        self.code, self.reason, self.detail, self.field = code, reason, detail, field


def _tampered(reason: str, detail: str) -> TokenError:
    return TokenError("tampered-state", reason, detail)


def _encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def key_id(key: bytes) -> bytes:
    return hashlib.sha256(key).digest()[:8]


def token_key(key: bytes, salt: bytes, kind: str = STATE) -> tuple[bytes, bytes]:
    """The AES-256-GCM key and nonce of the token whose salt is ``salt``: HKDF-Expand (RFC 5869) of
    ``key`` with the info ``"chkobba <kind> token v2" || salt``, 44 bytes (two blocks of HMAC-SHA256)."""
    info = f"chkobba {kind} token v2".encode() + salt
    first = hmac.digest(key, info + b"\x01", "sha256")
    second = hmac.digest(key, first + info + b"\x02", "sha256")
    okm = first + second
    return okm[:32], okm[32 : 32 + NONCE_BYTES]


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
    # Per key id, its configured key (the first key with an id opens its tokens).
    _by_id: dict[bytes, bytes] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.keys:
            raise ValueError("a Sealer needs a key (service.ops.settings.with_state_keys makes one)")
        by_id: dict[bytes, bytes] = {}
        for key in self.keys:
            by_id.setdefault(key_id(key), key)
        object.__setattr__(self, "_by_id", by_id)

    @property
    def key_id(self) -> str:
        """The id of the key that seals, in hexadecimal (the seals counter's label)."""
        return key_id(self.keys[0]).hex()

    @classmethod
    def from_settings(cls, settings: Settings) -> Sealer:
        """The sealer of ``settings``' keys and token lifetime (``with_state_keys`` gives it keys)."""
        return cls(settings.state_keys, settings.state_token_lifetime)

    def seal(self, state: Mapping[str, Any], *, now: float | None = None, kind: str = STATE) -> str:
        key = self.keys[0]
        kid = key_id(key)
        salt = secrets.token_bytes(SALT_BYTES)
        header = HEADER.pack(TOKEN_FORMAT, kid, int(time.time() if now is None else now)) + salt
        cipher_key, nonce = token_key(key, salt, kind)
        # Not compressed: compression would make the length depend on the hidden cards' order.
        sealed = AESGCM(cipher_key).encrypt(nonce, to_json(state), header)
        metrics.state_sealed(kid.hex(), kind)
        return _encode(header + sealed)

    def open(
        self, token: object, *, now: float | None = None, kind: str = STATE, field: str | None = None
    ) -> dict[str, Any]:
        """``_open``; a refusal names ``field``, the request's field that held the token (by default
        ``<kind>_token``)."""
        try:
            return self._open(token, now=now, kind=kind)
        except TokenError as exc:
            exc.field = field or f"{kind}_token"
            raise

    def _open(self, token: object, *, now: float | None, kind: str) -> dict[str, Any]:
        """The state a token carries; raises ``TokenError`` before anything reaches the rules.
        ``kind``: what the token must be for (a state, a commitment); a token of another kind is
        refused as altered, as it cannot be decrypted."""
        name = f"{kind}_token"  # the field a refusal names
        if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_CHARS:
            raise _tampered("malformed", f"{name} is not a token this service issued")
        try:
            raw = base64.b64decode(token + "=" * (-len(token) % 4), altchars=b"-_", validate=True)
        except (binascii.Error, ValueError):
            raise _tampered("malformed", f"{name} is not base64url") from None
        if _encode(raw) != token:  # one spelling per token: no padding, no stray bits or characters
            raise _tampered("malformed", f"{name} is not in its canonical form")
        version = raw[0] if raw else None
        # The bytes after the header that the format puts before its ciphertext: a salt, or a nonce.
        middle = SALT_BYTES if version == TOKEN_FORMAT else NONCE_BYTES
        if len(raw) < HEADER.size + middle + TAG_BYTES:
            raise _tampered("malformed", f"{name} is too short to be a sealed state")
        version, kid, issued = HEADER.unpack(raw[: HEADER.size])
        if version not in (TOKEN_FORMAT, LEGACY_FORMAT) or (version == LEGACY_FORMAT and kind != STATE):
            raise _tampered("malformed", f"{name} has version {version}; this service issues {TOKEN_FORMAT}")
        key = self._by_id.get(kid)
        if key is None:
            raise _tampered("unknown-key", f"{name} was sealed with a key this service does not hold")
        try:
            if version == TOKEN_FORMAT:
                header, sealed = raw[: HEADER.size + SALT_BYTES], raw[HEADER.size + SALT_BYTES :]
                cipher_key, nonce = token_key(key, header[HEADER.size :], kind)
                payload = AESGCM(cipher_key).decrypt(nonce, sealed, header)
            else:
                header, nonce = raw[: HEADER.size], raw[HEADER.size : HEADER.size + NONCE_BYTES]
                payload = AESGCM(key).decrypt(nonce, raw[HEADER.size + NONCE_BYTES :], header)
        except InvalidTag:
            raise _tampered("altered", f"{name} was altered or forged") from None
        current = time.time() if now is None else now
        if issued > current + CLOCK_SKEW_SECONDS:
            raise _tampered("from-the-future", f"{name} claims to be issued in the future")
        if current - issued > self.lifetime_seconds:
            raise TokenError(
                "expired-state", "expired", f"{name} expired {int(current - issued - self.lifetime_seconds)} s ago"
            )
        try:
            state = _read(payload)
        except ValueError:  # authentic but unreadable: only a bug of ours could do this
            raise _tampered("unreadable", f"{name} holds no readable state") from None
        if not isinstance(state, dict):
            raise _tampered("unreadable", f"{name} holds no state object")
        return state
