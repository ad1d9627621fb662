"""Receipts: verdicts signed so that anyone who holds the request and the answer can check, offline,
that this service gave that answer to that request (docs/referee.md, "Receipts: verdicts anyone can check").

A receipt is a JWS (RFC 7515) in compact serialization with a detached payload (its Appendix F)::

    BASE64URL(header) || '..' || BASE64URL(signature)

The header is ``{"alg": "EdDSA", "kid": <kid>}`` (RFC 8037: Ed25519), the signature is Ed25519 over
the standard signing input ``BASE64URL(header) || '.' || BASE64URL(payload)``, and the payload, never
sent, is the RFC 8785 canonical JSON of::

    {"operation": <operationId>, "request": <the body as the client sent it>, "answer": <the answer less receipt>}

The request is the body as parsed from JSON, before any schema loaded it (``receipt: true``
included), so whoever holds the body they sent and the answer they got can rebuild the payload.
The kid is the key's RFC 7638 JWK thumbprint (SHA-256, base64url). Keys come from
``CHKOBBA_RECEIPT_KEYS`` (each the base64url of an Ed25519 key's 32-byte seed, comma-separated): the
first signs, all of them are published at ``/.well-known/jwks.json``, so that a receipt signed before
a rotation still verifies while its key is listed; ``CHKOBBA_RECEIPT_PUBLIC_KEYS`` lists public keys
published there too, a retired key's, so that its receipts verify once its private key is gone.
Signing happens on 200 answers only: a problem carries no receipt.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson
import rfc8785
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from flask import Response, current_app, request

from service.ops.settings import RFC8037_EXAMPLE_SEED, Settings

from .io import answer, sent
from .operations import ENDPOINT_TO_OPERATION

# The private key of RFC 8037's examples (Appendix A.1), which anyone can sign with: the contract's
# examples are signed with it (service/contract.py), so that they are the same on every build. A
# server refuses it as a receipt key (service.ops.settings.checked).
EXAMPLE_SEED = RFC8037_EXAMPLE_SEED
# RFC 8037, as the issue asks; RFC 9864 would name it "Ed25519" (docs/referee.md, "Receipts: verdicts anyone
# can check").
ALGORITHM = "EdDSA"
# RFC 8785 reads numbers as IEEE 754 doubles: whole numbers are exact up to 2**53 - 1.
MAX_SAFE_INTEGER = 2**53 - 1


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def canonical(value: Any) -> bytes:
    """The RFC 8785 (JCS) canonical JSON of ``value``.

    rfc8785 (Trail of Bits) writes it in pure Python: 0.6 ms of CPU for a whole round's replay (a
    5 KB payload). orjson with sorted keys writes the very same bytes, with the walk that picks the
    road in a fifth of that, for any value whose numbers are whole and in JCS's exact range (a
    ``2.0`` a client sent for a score is first made the ``2`` JCS writes) and whose keys are ASCII:
    its strings are escaped as JCS escapes them (checked over every code point), and ASCII keys sort
    alike by code point and by UTF-16 unit. Anything else (a fraction, a key outside ASCII) goes to
    rfc8785.
    tests/property/test_receipts.py checks that both roads agree."""
    # One walk, whatever the numbers: a payload with floats costs what it would with integers.
    try:
        ready = _orjson_ready(value)
    except _NotForOrjson:
        return rfc8785.dumps(value)
    return orjson.dumps(ready, option=orjson.OPT_SORT_KEYS)


class _NotForOrjson(Exception):
    """A value orjson would not write as JCS does: a fraction, a number beyond JCS's exact range, a
    key outside ASCII, a type that is not JSON's."""


def _orjson_ready(value: Any) -> Any:
    """``value`` as orjson writes it canonically: itself, or a copy of only the containers that hold a
    float of an integral value, that float written as the integer it equals (``1.0`` as ``1``, ``-0.0``
    as ``0``, as RFC 8785 writes them), so that a body whose numbers are all whole, however a client
    wrote them, costs nothing extra; ``_NotForOrjson`` for anything else. One walk, leaves looked at
    in the loop without a call each (most of a payload is strings in lists)."""
    kind = type(value)
    if kind is dict:
        if not all(map(str.isascii, value)):
            raise _NotForOrjson
        changed = None
        for key, item in value.items():
            kind = type(item)
            if kind is str or (kind is int and -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER):
                continue  # the leaves most payloads are made of, without a call
            new = _ready_item(item)
            if new is not item:
                if changed is None:
                    changed = dict(value)
                changed[key] = new
        return value if changed is None else changed
    if kind is list:
        items = None
        for i, item in enumerate(value):
            kind = type(item)
            if kind is str or (kind is int and -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER):
                continue  # the leaves most payloads are made of, without a call
            new = _ready_item(item)
            if new is not item:
                if items is None:
                    items = list(value)
                items[i] = new
        return value if items is None else items
    return _ready_item(value)


def _orjson_writes_it_canonically(value: Any) -> bool:
    """Whether orjson writes ``value`` itself as RFC 8785 does (tests/property/test_receipts.py)."""
    try:
        return _orjson_ready(value) is value
    except _NotForOrjson:
        return False


def _ready_item(item: Any) -> Any:
    kind = type(item)
    if kind is str or kind is bool or item is None:
        return item
    if kind is int:
        if -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER:
            return item
        raise _NotForOrjson
    if kind is float:
        if item.is_integer() and -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER:
            return int(item)
        raise _NotForOrjson
    if kind is dict or kind is list:
        return _orjson_ready(item)
    raise _NotForOrjson  # a tuple, a subclass: rfc8785 decides


def payload(operation: str, sent_body: Any, answered: Mapping[str, Any]) -> bytes:
    """What a receipt signs (and a verifier rebuilds): the canonical JSON of the operation, the request
    as sent and the answer without its receipt."""
    signed = {name: value for name, value in answered.items() if name != "receipt"}
    return canonical({"operation": operation, "request": sent_body, "answer": signed})


def thumbprint(public_key: bytes) -> str:
    """The RFC 7638 thumbprint of an Ed25519 public key's JWK: SHA-256 of its required members in
    canonical JSON (``{"crv":"Ed25519","kty":"OKP","x":...}``), base64url. The receipts' kid."""
    return b64url(hashlib.sha256(canonical({"crv": "Ed25519", "kty": "OKP", "x": b64url(public_key)})).digest())


@dataclass(frozen=True)
class Signer:
    seeds: tuple[bytes, ...] = field(repr=False)  # Ed25519 private keys' seeds: the first signs; all are published
    # Ed25519 public keys published beside the seeds' own: retired keys, whose receipts still verify.
    public_keys: tuple[bytes, ...] = ()
    kid: str = field(init=False)  # the signing key's
    jwks: dict[str, Any] = field(init=False, repr=False, compare=False)  # every key's public JWK, the signer's first
    jwks_json: bytes = field(init=False, repr=False, compare=False)  # as /.well-known/jwks.json serves it
    _key: Ed25519PrivateKey = field(init=False, repr=False, compare=False)
    _header: str = field(init=False, repr=False, compare=False)  # BASE64URL(header), the same for every receipt

    def __post_init__(self) -> None:
        if not self.seeds:
            raise ValueError("a Signer needs a key (service.ops.settings.with_receipt_keys makes one)")
        keys = [Ed25519PrivateKey.from_private_bytes(seed) for seed in self.seeds]
        published: dict[str, dict[str, str]] = {}  # by kid: a key listed twice is published once
        publics = [key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw) for key in keys]
        for public in publics + [
            Ed25519PublicKey.from_public_bytes(raw).public_bytes_raw() for raw in self.public_keys
        ]:
            kid = thumbprint(public)
            published.setdefault(kid, {"kty": "OKP", "crv": "Ed25519", "x": b64url(public), "kid": kid})
            published[kid].update(alg=ALGORITHM, use="sig")
        kid = next(iter(published))
        jwks = {"keys": list(published.values())}
        for name, value in (
            ("kid", kid),
            ("jwks", jwks),
            ("jwks_json", orjson.dumps(jwks)),
            ("_key", keys[0]),
            ("_header", b64url(canonical({"alg": ALGORITHM, "kid": kid}))),
        ):
            object.__setattr__(self, name, value)

    @classmethod
    def from_settings(cls, settings: Settings) -> Signer:
        """The signer of ``settings``' receipt keys (``with_receipt_keys`` gives it one)."""
        return cls(settings.receipt_keys, settings.receipt_public_keys)

    def sign(self, operation: str, sent_body: Any, answered: Mapping[str, Any]) -> str:
        """The receipt of ``answered``, the answer to ``sent_body`` (the request as sent, parsed)."""
        return self._signed(payload(operation, sent_body, answered))

    def sign_document(self, document: Mapping[str, Any]) -> str:
        """A detached JWS, as a receipt, over the canonical JSON of ``document`` itself: a sealed
        round's ``record_receipt`` signs ``{"operation": "playRound", "record": <the record>}``."""
        return self._signed(canonical(document))

    def _signed(self, signed_payload: bytes) -> str:
        signing_input = f"{self._header}.{b64url(signed_payload)}"
        return f"{self._header}..{b64url(self._key.sign(signing_input.encode('ascii')))}"


def signer() -> Signer:
    found: Signer = current_app.extensions["chkobba.signer"]
    return found


def answer_with_receipt(data: Mapping[str, Any], out: dict[str, Any]) -> Response:
    """The answer ``out``, with its ``receipt`` when the request asked for one (``data``, the loaded
    request, has ``receipt: true``): what a view of an operation that offers receipts answers with,
    instead of ``answer(out)``. The operation is the view's own operationId."""
    if data.get("receipt") is True:
        operation = ENDPOINT_TO_OPERATION[str(request.endpoint)]
        out["receipt"] = signer().sign(operation, sent(), out)
    return answer(out)
