"""Operational endpoints: liveness, readiness, metrics, the contract itself, and the public keys that
verify receipts (the metrics are service/ops' own, the keys service/api/receipts.py's; here they are
only served)."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, current_app

from service.ops import metrics

from .io import answer
from .operations import Operation, operation
from .receipts import signer
from .schemas import HealthOut, JwksOut

bp = Blueprint("ops", __name__)
# The contract, package data beside this module: `make openapi` (python -m service.contract) writes it.
SPEC_PATH = Path(__file__).resolve().with_name("openapi.yaml")
# How long a client may keep the receipt keys: a key is listed here before it signs, for at least this
# long, when rotated as the README says ("Receipts: verdicts anyone can check").
JWKS_MAX_AGE_SECONDS = 300


@operation(bp, Operation("getHealth", "get", "/healthz", "Liveness", "The process answers.", "operations", HealthOut))
def healthz() -> Response:
    return answer({"status": "ok"})


@operation(
    bp,
    Operation(
        "getReadiness",
        "get",
        "/readyz",
        "Readiness",
        "Ready to adjudicate: the contract is loaded.",
        "operations",
        HealthOut,
    ),
)
def readyz() -> Response:
    if not (current_app.config.get("OPENAPI_YAML") and current_app.config.get("OPENAPI_JSON")):
        return Response('{"status":"starting"}', status=503, mimetype="application/json")
    return answer({"status": "ready"})


@operation(
    bp,
    Operation(
        "getMetrics",
        "get",
        "/metrics",
        "Prometheus metrics",
        "Request counts and latency histograms per operation and status, illegal moves by code, claims by verdict, "
        "merged across every gunicorn worker.",
        "operations",
        None,
        media_type="text/plain",
    ),
)
def metrics_view() -> Response:
    return metrics.exposition(current_app.extensions["chkobba.settings"].metrics_dir)


@operation(
    bp,
    Operation(
        "getOpenapi",
        "get",
        "/openapi.yaml",
        "This contract",
        "The OpenAPI 3.1 document this service follows.",
        "operations",
        None,
        media_type="application/yaml",
    ),
)
def openapi_yaml() -> Response:
    return Response(current_app.config["OPENAPI_YAML"], mimetype="application/yaml")


@operation(
    bp,
    Operation(
        "getOpenapiJson",
        "get",
        "/openapi.json",
        "This contract, as JSON",
        "The same OpenAPI 3.1 document as `/openapi.yaml`, for tools that read only JSON.",
        "operations",
        None,
    ),
)
def openapi_json() -> Response:
    return Response(current_app.config["OPENAPI_JSON"], mimetype="application/json")


@operation(
    bp,
    Operation(
        "getJwks",
        "get",
        "/.well-known/jwks.json",
        "The keys that verify receipts",
        "A JWK Set (RFC 7517) of the Ed25519 public keys (RFC 8037) that verify the `receipt` of replayRound, "
        "scoreRound and decideMatch: every key of `CHKOBBA_RECEIPT_KEYS`, the one that signs now first, each named "
        "by its `kid`, its RFC 7638 thumbprint. Cacheable for five minutes "
        '(docs/referee.md, "Receipts: verdicts anyone can check").',
        "operations",
        JwksOut,
    ),
)
def jwks() -> Response:
    response = Response(signer().jwks_json, content_type="application/json")
    response.cache_control.public = True
    response.cache_control.max_age = JWKS_MAX_AGE_SECONDS
    return response


def load_spec() -> tuple[bytes, bytes]:
    """The committed contract, as YAML and as JSON (empty when missing: /readyz then says so).
    Package data: an installed wheel holds it (tests/ops/test_wheel.py)."""
    yaml_path, json_path = SPEC_PATH, SPEC_PATH.with_suffix(".json")
    return (
        yaml_path.read_bytes() if yaml_path.exists() else b"",
        json_path.read_bytes() if json_path.exists() else b"",
    )
