"""Prometheus metrics, correct under several gunicorn workers.

With ``PROMETHEUS_MULTIPROC_DIR`` set (``gunicorn.conf.py`` sets it before any worker imports
prometheus_client), each worker writes its samples to files there and ``/metrics`` merges them;
without it (tests, a single process) the default registry answers.
"""

from __future__ import annotations

import os
import time

from flask import Flask, Response, g, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)

from service.api.operations import ENDPOINT_TO_OPERATION

REQUESTS = Counter("chkobba_http_requests_total", "HTTP requests answered", ["operation", "status"])
LATENCY = Histogram(
    "chkobba_http_request_duration_seconds",
    "Time to answer an HTTP request",
    ["operation", "status"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
ILLEGAL_MOVES = Counter("chkobba_illegal_moves_total", "Moves judged illegal, by problem code", ["code"])
TOKENS_REJECTED = Counter("chkobba_state_tokens_rejected_total", "Sealed state tokens refused, by reason", ["reason"])
CLAIMS = Counter("chkobba_claims_total", "Claims judged, by kind and verdict", ["kind", "verdict"])


def illegal_move(code: str) -> None:
    ILLEGAL_MOVES.labels(code).inc()


def token_rejected(reason: str) -> None:
    TOKENS_REJECTED.labels(reason).inc()


def claim(kind: str, accepted: bool) -> None:
    CLAIMS.labels(kind, "accepted" if accepted else "rejected").inc()


def _operation() -> str:
    rule = request.url_rule
    if rule is None:
        return "unmatched"
    return ENDPOINT_TO_OPERATION.get(request.endpoint or "", request.endpoint or "unmatched")


def instrument(app: Flask) -> None:
    @app.before_request
    def _start() -> None:
        g.metrics_start = time.perf_counter()

    @app.after_request
    def _observe(response: Response) -> Response:
        start = g.get("metrics_start")
        operation, status = _operation(), str(response.status_code)
        REQUESTS.labels(operation, status).inc()
        if start is not None:
            LATENCY.labels(operation, status).observe(time.perf_counter() - start)
        return response


def exposition() -> Response:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    else:
        registry = REGISTRY
    return Response(generate_latest(registry), headers={"Content-Type": CONTENT_TYPE_LATEST})
