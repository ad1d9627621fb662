"""Receipts (docs/referee.md, "Receipts: verdicts anyone can check"): replayRound, scoreRound and decideMatch,
asked with ``"receipt": true``, sign the request as sent and the answer; a receipt verifies with the
service's key set for that exact operation, request and answer, and for nothing else.

Two verifiers that are not the service's code check every receipt: the README's own Python example
(``cryptography`` and ``rfc8785``), run from the README's text, and joserfc, a JOSE library.
"""

from __future__ import annotations

import base64
import copy
import json
import re
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
import rfc8785
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from flask.testing import FlaskClient
from joserfc import jws
from joserfc.errors import JoseError, SecurityWarning
from joserfc.jwk import KeySet, OKPKey

from bench.bodies import full_round
from service.api import examples, schemas
from service.api.operations import OPERATIONS
from service.api.receipts import EXAMPLE_SEED, Signer, canonical
from service.app import create_app
from service.ops.settings import new_key

from ..support import changed, ok, places, problem

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
OLD_KEY, NEW_KEY = new_key(), new_key()
JWKS_PATH = "/.well-known/jwks.json"


def readme_block(name: str) -> str:
    found = re.search(
        rf"<!-- receipt-{name}:begin -->\n```\w+\n(.*?)```\n<!-- receipt-{name}:end -->", README, re.DOTALL
    )
    assert found is not None, f"the README has no receipt-{name} block"
    return found.group(1)


def _readme_verifier() -> Callable[[str, Any, dict[str, Any], dict[str, Any]], bool]:
    space: dict[str, Any] = {}
    exec(compile(readme_block("python"), "README.md (receipts, Python)", "exec"), space)  # noqa: S102 - the README's
    verify: Callable[[str, Any, dict[str, Any], dict[str, Any]], bool] = space["verify_receipt"]
    return verify


verify = _readme_verifier()


def joserfc_verifies(operation: str, request: Any, answer: dict[str, Any], jwks: dict[str, Any]) -> bool:
    """joserfc's verdict on the receipt, with the payload rebuilt as the README says. joserfc takes
    a payload carried in the receipt over the detached one it is given, so that is refused first
    (test_joserfc_takes_a_payload_carried_in_the_receipt_over_the_detached_one)."""
    receipt = answer["receipt"]
    if receipt.count(".") != 2 or receipt.split(".")[1]:
        return False
    signed = {name: value for name, value in answer.items() if name != "receipt"}
    payload = rfc8785.dumps({"operation": operation, "request": request, "answer": signed})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SecurityWarning)  # "EdDSA is deprecated via RFC 9864"
        try:
            jws.deserialize_compact(receipt, KeySet.import_key_set(jwks), ["EdDSA"], payload=payload)
        except (JoseError, ValueError):
            return False
    return True


def both_verify(operation: str, request: Any, answer: dict[str, Any], jwks: dict[str, Any]) -> bool:
    verdicts = {verify(operation, request, answer, jwks), joserfc_verifies(operation, request, answer, jwks)}
    assert len(verdicts) == 1, "the README's verifier and joserfc disagree"
    return verdicts.pop()


def app_client(keys: str | None = None, **config: Any) -> FlaskClient:
    settings: dict[str, Any] = {"TESTING": True, "ACCESS_LOG": "", **config}
    if keys is not None:
        settings["RECEIPT_KEYS"] = keys  # what CHKOBBA_RECEIPT_KEYS becomes
    return create_app(settings).test_client()


@pytest.fixture(scope="module")
def client() -> Iterator[FlaskClient]:
    with app_client(OLD_KEY) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def key_set(client: FlaskClient) -> dict[str, Any]:
    found: dict[str, Any] = ok(client.get(JWKS_PATH))
    return found


def offering() -> set[str]:
    """The operations whose request schema takes ``receipt`` (an operation that gains the field is
    checked here with its examples, as these are)."""
    return {op.operation_id for op in OPERATIONS if op.request is not None and "receipt" in op.request._declared_fields}


PATHS = {op.operation_id: op.path for op in OPERATIONS if op.operation_id in offering()}


def cases() -> list[Any]:
    """(operation, body) pairs: the contract's examples that answer 200, and a whole round's replay."""
    found = []
    client = app_client(OLD_KEY)
    for op in sorted(OPERATIONS, key=lambda o: o.operation_id):
        if op.operation_id in offering() and op.examples is not None:
            for name, example in op.examples().items():
                body = example["body"]
                if body.get("receipt") is None and client.post(op.path, json=body).status_code == 200:
                    found.append(pytest.param(op.operation_id, body, id=f"{op.operation_id}-{name}"))
    found.append(pytest.param("replayRound", full_round().replay_body(), id="replayRound-whole-round"))
    return found


CASES = cases()


def asked(client: FlaskClient, operation: str, body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The request as sent, with ``receipt: true``, and the answer."""
    request = {**copy.deepcopy(body), "receipt": True}
    return request, ok(client.post(PATHS[operation], json=request))


# ---- a receipt verifies for the exact request and answer ----------------------------------------------


def test_replay_round_score_round_and_decide_match_offer_receipts_and_no_other_operation_does() -> None:
    assert offering() >= {"replayRound", "scoreRound", "decideMatch"}
    assert offering() - {"replayRound", "scoreRound", "decideMatch"} <= {"replayMatch"}


@pytest.mark.parametrize(("operation", "body"), CASES)
def test_a_receipt_verifies_for_the_exact_request_and_answer(
    client: FlaskClient, key_set: dict[str, Any], operation: str, body: dict[str, Any]
) -> None:
    request, answer = asked(client, operation, body)
    assert re.fullmatch(schemas.RECEIPT_PATTERN, answer["receipt"]), answer["receipt"]
    header = json.loads(base64.urlsafe_b64decode(answer["receipt"].split(".")[0] + "=="))
    assert header == {"alg": "EdDSA", "kid": key_set["keys"][0]["kid"]}
    assert both_verify(operation, request, answer, key_set)


@pytest.mark.parametrize(("operation", "body"), CASES)
def test_without_receipt_or_with_receipt_false_nothing_is_signed_and_the_answer_is_unchanged(
    client: FlaskClient, operation: str, body: dict[str, Any]
) -> None:
    plain = client.post(PATHS[operation], json=body)
    declined = client.post(PATHS[operation], json={**body, "receipt": False})
    _, signed = asked(client, operation, body)
    assert "receipt" not in ok(plain)
    assert declined.get_data() == plain.get_data()
    assert {k: v for k, v in signed.items() if k != "receipt"} == plain.get_json()


def test_the_same_request_gets_the_same_receipt(client: FlaskClient) -> None:
    """Ed25519 signs deterministically, and the payload holds no time: nothing in a receipt varies."""
    body = {"rules": "chkobba", "scores": [3, 4], "round_points": [1, 2], "receipt": True}
    first, second = (ok(client.post(PATHS["decideMatch"], json=body))["receipt"] for _ in range(2))
    assert first == second


# ---- and for nothing else ------------------------------------------------------------------------------


def altered(value: Any) -> list[Any]:
    """Other values in place of ``value``: each a change a verifier must notice."""
    if isinstance(value, bool):
        return [not value, None, int(value)]
    if isinstance(value, int):
        return [value + 1, value - 1, str(value), None]
    if isinstance(value, str):
        return [value + "x", value[:-1], value.lower() if value != value.lower() else value.upper(), None]
    if value is None:
        return [0, False, ""]
    if isinstance(value, list):
        return [[*value, value[0] if value else None], value[:-1]] + ([value[::-1]] if value != value[::-1] else [])
    return [{**value, "extra": None}]


def variants(value: Any) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every value at every place of ``value`` altered, and every object member dropped: (kind, variant),
    the kind being the place with its list indexes left out, the type of the value there and the change."""
    for path in places(value):
        here = value
        for step in path:
            here = here[step]
        field = tuple("[]" if isinstance(step, int) else step for step in path)
        for index, other in enumerate(altered(here)):
            if other != here or type(other) is not type(here):  # an empty list has no last item to drop
                yield (field, type(here).__name__, index), changed(value, path, "replace", other)
        if path and isinstance(path[-1], str):
            yield (field, type(here).__name__, "deleted"), changed(value, path, "delete", None)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def quick_verifier(
    operation: str, request: Any, answer: dict[str, Any], jwks: dict[str, Any]
) -> Callable[[Any, dict[str, Any]], bool]:
    """The README's check for this receipt and key set, given another request and answer, with the
    payload written by orjson with sorted keys instead of rfc8785: the same bytes for JSON without
    floats (altered() neither takes nor makes one), with ASCII keys and small integers, and eight
    times faster for a round (rfc8785, pure Python, takes 1.5 ms to write its 5 KB payload). The
    receipt's own request and answer must verify with these bytes: they are then the signed bytes,
    and a change is refused iff it changes them (Ed25519 signs one message; checking the signature
    again for each change took longer than writing the payload)."""
    header, _, signature = answer["receipt"].split(".")
    (jwk,) = [k for k in jwks["keys"] if k["kid"] == json.loads(base64.urlsafe_b64decode(header + "=="))["kid"]]
    public = Ed25519PublicKey.from_public_bytes(base64.urlsafe_b64decode(jwk["x"] + "="))

    def payload(other_request: Any, other_answer: dict[str, Any]) -> bytes:
        signed = {name: value for name, value in other_answer.items() if name != "receipt"}
        content = {"operation": operation, "request": other_request, "answer": signed}
        return orjson.dumps(content, option=orjson.OPT_SORT_KEYS)

    signed_payload = payload(request, answer)
    try:
        public.verify(base64.urlsafe_b64decode(signature + "=="), f"{header}.{b64(signed_payload)}".encode())
    except InvalidSignature:
        raise AssertionError("the receipt signs other bytes than orjson's payload of this request and answer") from None
    assert verify(operation, request, answer, jwks)
    return lambda other_request, other_answer: payload(other_request, other_answer) == signed_payload


def refused(
    operation: str,
    request: Any,
    answer: dict[str, Any],
    jwks: dict[str, Any],
    changes: Iterator[tuple[tuple[Any, ...], Any, dict[str, Any]]],
) -> set[tuple[Any, ...]]:
    """Assert that every (kind, request, answer) of ``changes`` fails: each by the quick verifier, and
    the first of each kind by the README's (rfc8785's payload, a millisecond each). The kinds seen."""
    quick = quick_verifier(operation, request, answer, jwks)
    kinds = set()
    for kind, other_request, other_answer in changes:
        assert not quick(other_request, other_answer), kind
        if kind not in kinds:
            kinds.add(kind)
            assert not verify(operation, other_request, other_answer, jwks), kind
    return kinds


@pytest.mark.parametrize(("operation", "body"), CASES)
def test_changing_any_field_of_the_request_fails(
    client: FlaskClient, key_set: dict[str, Any], operation: str, body: dict[str, Any]
) -> None:
    """Every change of variants() at every place of the request: the README's verifier refuses one
    change of each kind (each field, list items as one), a verifier that rebuilds the payload with
    orjson refuses every one."""
    request, answer = asked(client, operation, body)
    changes = ((kind, other, answer) for kind, other in variants(request))
    kinds = refused(operation, request, answer, key_set, changes)
    assert len(kinds) > 10
    assert not both_verify(operation, {k: v for k, v in request.items() if k != "receipt"}, answer, key_set)
    assert not both_verify(operation, {**request, "receipt": False}, answer, key_set)


@pytest.mark.parametrize(("operation", "body"), CASES)
def test_changing_any_field_of_the_answer_fails(
    client: FlaskClient, key_set: dict[str, Any], operation: str, body: dict[str, Any]
) -> None:
    """As for the request, at every place of the answer (less its receipt); and a member the answer
    lacks, added, fails for joserfc too."""
    request, answer = asked(client, operation, body)
    receipt = answer.pop("receipt")
    changes = ((kind, request, {**other, "receipt": receipt}) for kind, other in variants(answer))
    assert len(refused(operation, request, {**answer, "receipt": receipt}, key_set, changes)) > 5
    for name in ("valid", "discrepancies", "claim", "note"):  # a member the answer lacks, added
        if name not in answer:
            assert not both_verify(operation, request, {**answer, name: None, "receipt": receipt}, key_set), name


@pytest.mark.parametrize(("operation", "body"), CASES[:1] + CASES[-1:])
def test_another_operation_fails(client: FlaskClient, key_set: dict[str, Any], operation: str, body: dict) -> None:
    request, answer = asked(client, operation, body)
    for other in {*PATHS, "replayRound", "replayMatch", "playRound", ""} - {operation}:
        assert not both_verify(other, request, answer, key_set), other


def flipped(text: str, index: int) -> str:
    """``text`` (base64url) with the byte at ``index`` of what it encodes changed, written back."""
    raw = bytearray(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
    raw[index] ^= 0x01
    return base64.urlsafe_b64encode(bytes(raw)).decode().rstrip("=")


def test_changing_the_receipt_fails(client: FlaskClient, key_set: dict[str, Any]) -> None:
    request, answer = asked(client, "decideMatch", examples.match()["worked-example"]["body"])
    header, _, signature = answer["receipt"].split(".")
    assert both_verify("decideMatch", request, answer, key_set)
    forged = [flipped(header, i) + ".." + signature for i in range(len(base64.urlsafe_b64decode(header + "==")))]
    forged += [header + ".." + flipped(signature, i) for i in range(64)]
    forged += [
        "",
        header,
        header + "." + signature,
        header + "..." + signature,
        header + ".." + signature[:-2],
        header + ".." + signature + "AA",
        ".." + signature,
        header + "..",
    ]
    for receipt in forged:
        assert not both_verify("decideMatch", request, {**answer, "receipt": receipt}, key_set), receipt
    assert not verify("decideMatch", request, {k: v for k, v in answer.items() if k != "receipt"}, key_set)


def test_a_receipt_that_carries_its_payload_fails(client: FlaskClient, key_set: dict[str, Any]) -> None:
    """The payload of the compact form filled in, with a payload of another answer that the same key
    signed: the verifier must not take it for the detached one it rebuilt."""
    body = examples.match()["worked-example"]["body"]
    request, answer = asked(client, "decideMatch", body)
    other_request, other_answer = asked(client, "decideMatch", {**body, "round_points": [2, 3]})
    header, _, other_signature = other_answer["receipt"].split(".")
    signed = {k: v for k, v in other_answer.items() if k != "receipt"}
    carried = base64.urlsafe_b64encode(
        rfc8785.dumps({"operation": "decideMatch", "request": other_request, "answer": signed})
    ).decode()
    receipt = f"{header}.{carried.rstrip('=')}.{other_signature}"
    assert not both_verify("decideMatch", request, {**answer, "receipt": receipt}, key_set)


def test_joserfc_takes_a_payload_carried_in_the_receipt_over_the_detached_one(client: FlaskClient) -> None:
    """Why both verifiers refuse a receipt with a payload of its own (README: "a JOSE library handed a
    detached payload may take the embedded one instead: joserfc 1.8 does")."""
    signer = Signer((base64.urlsafe_b64decode(OLD_KEY + "="),))
    carried = signer.sign("decideMatch", {"a": 1}, {"b": 2})
    header, _, signature = carried.split(".")
    embedded = base64.urlsafe_b64encode(
        canonical({"operation": "decideMatch", "request": {"a": 1}, "answer": {"b": 2}})
    )
    whole = f"{header}.{embedded.decode().rstrip('=')}.{signature}"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SecurityWarning)
        found = jws.deserialize_compact(whole, KeySet.import_key_set(signer.jwks), ["EdDSA"], payload=b"anything else")
    assert found.payload != b"anything else"


def test_joserfc_warns_that_rfc_9864_deprecates_the_name_eddsa(client: FlaskClient, key_set: dict[str, Any]) -> None:
    """The README says so ("The algorithm's name"); the receipt verifies all the same."""
    request, answer = asked(client, "decideMatch", examples.match()["tiebreak"]["body"])
    payload = rfc8785.dumps(
        {"operation": "decideMatch", "request": request, "answer": {k: v for k, v in answer.items() if k != "receipt"}}
    )
    with pytest.warns(SecurityWarning, match="RFC 9864"):
        jws.deserialize_compact(answer["receipt"], KeySet.import_key_set(key_set), ["EdDSA"], payload=payload)


def test_a_payload_not_in_canonical_form_fails(client: FlaskClient, key_set: dict[str, Any]) -> None:
    """The signature covers RFC 8785's text and no other: the same payload written with another key
    order or other spacing does not verify, and a receipt signed over such a text fails too."""
    operation = "scoreRound"
    request, answer = asked(client, operation, examples.scores()["worked-example-counts"]["body"])
    header, _, signature = answer["receipt"].split(".")
    public = Ed25519PublicKey.from_public_bytes(base64.urlsafe_b64decode(key_set["keys"][0]["x"] + "="))
    content = {
        "operation": operation,
        "request": request,
        "answer": {k: v for k, v in answer.items() if k != "receipt"},
    }
    as_sent = {"answer": content["answer"], "request": request, "operation": operation}  # another key order

    def signs(text: bytes) -> bool:
        encoded = base64.urlsafe_b64encode(text).decode().rstrip("=")
        try:
            public.verify(base64.urlsafe_b64decode(signature + "=="), f"{header}.{encoded}".encode())
        except InvalidSignature:
            return False
        return True

    assert signs(rfc8785.dumps(content)) and signs(rfc8785.dumps(as_sent))
    others = [
        json.dumps(content).encode(),  # spaces, the key order of the object
        json.dumps(content, sort_keys=True).encode(),  # sorted, with spaces
        json.dumps(content, separators=(",", ":")).encode(),  # compact, unsorted
        json.dumps(as_sent, sort_keys=True, indent=1).encode(),
        orjson.dumps(content),
        rfc8785.dumps(content) + b"\n",
    ]
    assert all(text != rfc8785.dumps(content) for text in others)
    assert not any(signs(text) for text in others)

    # Signed by the right key over the unsorted text: no verifier that follows the README takes it.
    key = Ed25519PrivateKey.from_private_bytes(base64.urlsafe_b64decode(OLD_KEY + "="))
    encoded = base64.urlsafe_b64encode(json.dumps(content).encode()).decode().rstrip("=")
    forged = f"{header}..{base64.urlsafe_b64encode(key.sign(f'{header}.{encoded}'.encode())).decode().rstrip('=')}"
    assert not both_verify(operation, request, {**answer, "receipt": forged}, key_set)


def test_the_request_is_the_body_as_sent_however_it_was_written(client: FlaskClient, key_set: dict[str, Any]) -> None:
    """Spacing, key order, escapes and ``2.0`` for ``2`` are the JSON text's, not the request's: the
    client's own parse of the bytes it sent verifies. What the service fills in is not the request."""
    raw = (
        b'{ "receipt" : true, "round_points": [5.0, 1E0],\n "scores": [17, 12.00],'
        b' "rules": "\\u0063hkobba", "claimed": {"winner": 0, "outcome": "won"} }'
    )
    answer = ok(client.post(PATHS["decideMatch"], data=raw, content_type="application/json"))
    sent = json.loads(raw)
    assert sent["scores"] == [17, 12.0] and isinstance(sent["scores"][1], float)
    assert both_verify("decideMatch", sent, answer, key_set)
    normalized = {"rules": "chkobba", "scores": [17, 12], "round_points": [5, 1], "receipt": True}
    assert both_verify("decideMatch", {**normalized, "claimed": {"outcome": "won", "winner": 0}}, answer, key_set)
    with_defaults = {**normalized, "claimed": {"outcome": "won", "winner": 0}, "rules": {"profile": "chkobba"}}
    assert not both_verify("decideMatch", with_defaults, answer, key_set)


def test_a_whole_number_sent_as_a_fraction_is_signed_as_jcs_writes_it(client: FlaskClient) -> None:
    """A ``2.0`` in the body takes rfc8785's road (orjson would write ``2.0``), and the payload has ``2``."""
    signer = Signer((base64.urlsafe_b64decode(OLD_KEY + "="),))
    raw = b'{"rules":"scopa","scores":[0,0.0],"round_points":[3,3.0],"receipt":true}'
    answer = ok(client.post(PATHS["decideMatch"], data=raw, content_type="application/json"))
    assert answer["receipt"] == signer.sign("decideMatch", json.loads(raw), answer)
    payload = canonical({"operation": "decideMatch", "request": json.loads(raw), "answer": {"x": 1}})
    assert b'"scores":[0,0]' in payload and b'"round_points":[3,3]' in payload


def test_integral_floats_take_orjsons_road_and_sign_as_the_integers_they_equal() -> None:
    """RFC 8785 writes ``1.0`` as ``1`` and ``-0.0`` as ``0``: so does the fast road, without rfc8785,
    whatever the floats' places; a fraction, or a float beyond 2**53, still goes to rfc8785."""
    body = {"rules": "scopa", "scores": [0, 1.0], "claimed": {"x": [-0.0, 2.0e3, {"y": 7.0}]}, "n": 9007199254740991.0}
    assert canonical(body) == rfc8785.dumps(body)
    as_ints = json.loads(json.dumps(body).replace(".0", ""))
    assert canonical(body) == orjson.dumps(as_ints, option=orjson.OPT_SORT_KEYS)
    original = copy.deepcopy(body)
    canonical(body)
    assert body == original and type(body["scores"][1]) is float  # the body itself is left alone
    for odd in ({"a": 0.5}, {"a": [1.0, 1e300]}, {"a": 2.0**60}):
        assert canonical(odd) == rfc8785.dumps(odd)


def test_a_body_with_integral_floats_never_reaches_the_slow_canonicalizer(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's case: the largest replayMatch written with one score as ``1.0`` cost twice the
    CPU, in rfc8785. Here rfc8785 is not called at all for such a body."""
    from service.api import receipts

    def slow(value: Any) -> bytes:
        raise AssertionError("rfc8785 was called")

    monkeypatch.setattr(receipts.rfc8785, "dumps", slow)
    raw = b'{"rules":"scopa","scores":[0,0.0],"round_points":[3,3.0],"receipt":true}'
    answer = ok(client.post(PATHS["decideMatch"], data=raw, content_type="application/json"))
    assert answer["receipt"]


# ---- the keys ------------------------------------------------------------------------------------------


def test_a_receipt_of_another_key_or_a_kid_the_set_lacks_fails(client: FlaskClient, key_set: dict[str, Any]) -> None:
    body = examples.match()["worked-example"]["body"]
    request, answer = asked(client, "decideMatch", body)
    other = app_client(NEW_KEY)
    other_set = ok(other.get(JWKS_PATH))
    _, other_answer = asked(other, "decideMatch", body)
    assert other_answer["receipt"] != answer["receipt"]
    assert both_verify("decideMatch", request, other_answer, other_set)
    assert not both_verify("decideMatch", request, other_answer, key_set)
    assert not both_verify("decideMatch", request, answer, other_set)
    ours, theirs = key_set["keys"][0], other_set["keys"][0]
    assert not both_verify("decideMatch", request, answer, {"keys": [{**ours, "kid": theirs["kid"]}]})  # kid unknown
    assert not both_verify("decideMatch", request, answer, {"keys": [{**theirs, "kid": ours["kid"]}]})  # x another's
    assert not both_verify("decideMatch", request, answer, {"keys": []})


def test_rotation_a_receipt_of_the_old_first_key_verifies_while_that_key_is_listed(
    client: FlaskClient, key_set: dict[str, Any]
) -> None:
    body = examples.scores()["piles-with-primiera"]["body"]
    request, old_answer = asked(client, "scoreRound", body)
    rotated = app_client(f"{NEW_KEY},{OLD_KEY}")
    rotated_set = ok(rotated.get(JWKS_PATH))
    assert [k["kid"] for k in rotated_set["keys"]] == [
        app_client(NEW_KEY).get(JWKS_PATH).get_json()["keys"][0]["kid"],
        key_set["keys"][0]["kid"],
    ]
    assert both_verify("scoreRound", request, old_answer, rotated_set)
    _, new_answer = asked(rotated, "scoreRound", body)
    assert new_answer["receipt"] != old_answer["receipt"]
    assert both_verify("scoreRound", request, new_answer, rotated_set)
    assert not both_verify("scoreRound", request, new_answer, key_set)  # the new key signs now
    dropped = ok(app_client(NEW_KEY).get(JWKS_PATH))
    assert not both_verify("scoreRound", request, old_answer, dropped)


def test_a_retired_keys_public_half_keeps_its_receipts_verifiable_once_its_private_key_is_gone(
    client: FlaskClient, key_set: dict[str, Any]
) -> None:
    """CHKOBBA_RECEIPT_PUBLIC_KEYS: the old key's public half, published beside the new signing key,
    so a receipt signed before the rotation verifies after the old private key is dropped."""
    body = examples.scores()["piles-with-primiera"]["body"]
    request, old_answer = asked(client, "scoreRound", body)
    (old_jwk,) = key_set["keys"]
    retired = app_client(NEW_KEY, RECEIPT_PUBLIC_KEYS=old_jwk["x"])
    published = ok(retired.get(JWKS_PATH))
    assert [k["kid"] for k in published["keys"]][1:] == [old_jwk["kid"]]
    assert published["keys"][1] == old_jwk  # the same JWK as when it signed
    assert both_verify("scoreRound", request, old_answer, published)
    _, new_answer = asked(retired, "scoreRound", body)  # the private key listed signs, never a public one
    assert (
        json.loads(base64.urlsafe_b64decode(new_answer["receipt"].split(".")[0] + "=="))["kid"]
        == (published["keys"][0]["kid"])
    )
    assert both_verify("scoreRound", request, new_answer, published)
    assert not both_verify("scoreRound", request, old_answer, ok(app_client(NEW_KEY).get(JWKS_PATH)))


@pytest.mark.parametrize(
    "value",
    [
        "not-a-key",
        "AAAA",
        " , ",
        "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",  # RFC 8037's example public key: its seed is public
        "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",  # the identity: R = identity, S = 0 verifies anything
    ],
)
def test_a_public_key_that_is_not_one_is_refused_at_start(value: str) -> None:
    with pytest.raises(ValueError, match="CHKOBBA_RECEIPT_PUBLIC_KEYS"):
        app_client(NEW_KEY, RECEIPT_PUBLIC_KEYS=value)


def test_the_key_set_is_every_key_listed_once_as_rfc_8037_jwks(key_set: dict[str, Any]) -> None:
    listed = ok(app_client(f"{NEW_KEY}, {OLD_KEY},{NEW_KEY}").get(JWKS_PATH))
    assert len(listed["keys"]) == 2
    for jwk in listed["keys"] + key_set["keys"]:
        assert set(jwk) == {"kty", "crv", "x", "kid", "alg", "use"}
        assert (jwk["kty"], jwk["crv"], jwk["alg"], jwk["use"]) == ("OKP", "Ed25519", "EdDSA", "sig")
        assert jwk["kid"] == OKPKey.import_key(jwk).thumbprint()  # RFC 7638, by joserfc
        assert len(base64.urlsafe_b64decode(jwk["x"] + "=")) == 32


def test_the_kid_of_rfc_8037s_example_key_is_its_published_thumbprint() -> None:
    """RFC 8037, Appendix A.1 (the key) and A.3 (its thumbprint)."""
    (jwk,) = Signer((EXAMPLE_SEED,)).jwks["keys"]
    assert jwk["x"] == "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"
    assert jwk["kid"] == "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"


def test_the_key_set_is_served_cacheable_and_cross_origin_like_the_api() -> None:
    origin = "http://referee.test:8000"
    client = app_client(OLD_KEY, CORS_ORIGINS=origin)
    response = client.get(JWKS_PATH, headers={"Origin": origin})
    assert ok(response)["keys"][0]["crv"] == "Ed25519"
    assert response.headers["Cache-Control"] == "public, max-age=300"
    assert response.headers["Access-Control-Allow-Origin"] == origin
    assert "Origin" in response.headers["Vary"]
    assert "Access-Control-Allow-Origin" not in app_client(OLD_KEY).get(JWKS_PATH, headers={"Origin": origin}).headers


def test_the_contracts_example_receipt_verifies_with_rfc_8037s_example_key() -> None:
    """openapi.yaml's decideMatch example "with-receipt" is signed with the example key: the same
    on every build of the contract, and a vector the TypeScript client checks too."""
    document = json.loads((ROOT / "openapi.json").read_text(encoding="utf-8"))
    operation = document["paths"]["/v1/match-decisions"]["post"]
    request = operation["requestBody"]["content"]["application/json"]["examples"]["with-receipt"]["value"]
    answer = operation["responses"]["200"]["content"]["application/json"]["examples"]["with-receipt"]["value"]
    assert both_verify("decideMatch", request, answer, Signer((EXAMPLE_SEED,)).jwks)


# ---- what is not signed, and what is refused -----------------------------------------------------------


def test_a_problem_carries_no_receipt(client: FlaskClient) -> None:
    over = {"rules": "chkobba", "scores": [21, 3], "round_points": [1, 0], "receipt": True}
    assert "receipt" not in problem(client.post(PATHS["decideMatch"], json=over), 422, "match-over")
    not_a_card = {**examples.replay()["illegal-second-move"]["body"], "deck": ["ZZ"] * 40, "receipt": True}
    assert "receipt" not in problem(client.post(PATHS["replayRound"], json=not_a_card), 422, "invalid-card")
    lopsided = {**copy.deepcopy(examples.scores()["worked-example-counts"]["body"]), "receipt": True}
    lopsided["sides"][0]["counts"] = {**lopsided["sides"][0]["counts"], "cards": 23}
    assert "receipt" not in problem(client.post(PATHS["scoreRound"], json=lopsided), 422, "inconsistent-counts")


@pytest.mark.parametrize("value", ["true", 1, None, [True], {"sign": True}])
def test_receipt_must_be_a_boolean(client: FlaskClient, value: Any) -> None:
    body = {**examples.match()["tiebreak"]["body"], "receipt": value}
    found = problem(client.post(PATHS["decideMatch"], json=body), 422, "validation-error")
    assert "receipt" in found["errors"]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/captures", {"rules": "chkobba", "table": ["2D"], "hand": ["2H"]}),
        ("/v1/rounds", {"rules": "scopa", "players": 2, "dealer": 0, "seed": "x"}),
    ],
)
def test_an_operation_without_receipts_refuses_the_field(client: FlaskClient, path: str, body: dict) -> None:
    found = problem(client.post(path, json={**body, "receipt": True}), 422, "validation-error")
    assert "receipt" in found["errors"]


def test_every_operation_that_offers_a_receipt_documents_it_in_the_contract() -> None:
    document = json.loads((ROOT / "openapi.json").read_text(encoding="utf-8"))
    components = document["components"]["schemas"]
    by_id = {op["operationId"]: op for path in document["paths"].values() for op in path.values() if "responses" in op}
    for operation in sorted(offering()):
        found = by_id[operation]
        asked_for = found["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
        answered = found["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
        assert components[asked_for]["properties"]["receipt"]["type"] == "boolean"
        assert components[asked_for]["properties"]["receipt"]["default"] is False
        assert "receipt" not in components[asked_for].get("required", [])
        assert components[answered]["properties"]["receipt"]["pattern"] == schemas.RECEIPT_PATTERN
    jwks = document["paths"][JWKS_PATH]["get"]
    assert jwks["operationId"] == "getJwks"
    assert jwks["responses"]["200"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Jwks"}
