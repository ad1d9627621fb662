"""Prometheus metrics, correct under several gunicorn workers.

With ``PROMETHEUS_MULTIPROC_DIR`` set (``gunicorn.conf.py`` sets it before any worker imports
prometheus_client), each worker writes its samples to files there and ``/metrics`` merges them (a
dead worker's files are folded into archives: ``metrics_archive``); without it (tests, a single
process) the default registry answers. The directory is the settings' ``metrics_dir``
(``service.ops.settings``), which the app passes to ``exposition``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask import Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric

from .metrics_archive import LockedCollector

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
# Every seal under a state key, by the key's id and what the token is for ("state", "commit"): a
# commitment's token is sealed under the same keys.
STATES_SEALED = Counter(
    "chkobba_state_tokens_sealed_total", "Tokens sealed under the state keys, by key id and kind", ["key_id", "kind"]
)


def illegal_move(code: str) -> None:
    ILLEGAL_MOVES.labels(code).inc()


def token_rejected(reason: str) -> None:
    TOKENS_REJECTED.labels(reason).inc()


def state_sealed(key_id: str, kind: str) -> None:
    STATES_SEALED.labels(key_id, kind).inc()


class KeysMadeAtStart:
    """``chkobba_keys_made_at_start{keys}``: 1 where the keys of that kind were made at start. A fact of
    the server's settings, the same in the master and every worker: answered from them at each scrape,
    rather than from a sample file that each worker would write at boot."""

    NAME = "chkobba_keys_made_at_start"
    HELP = (
        "1 where the keys of this kind were made at start (CHKOBBA_EPHEMERAL_KEYS=1): this server's alone, "
        "lost at a restart, not shared by replicas"
    )
    made: dict[str, bool] = {}

    def collect(self) -> Iterable[Metric]:
        if self.made:
            family = GaugeMetricFamily(self.NAME, self.HELP, labels=["keys"])
            for kind, made in self.made.items():
                family.add_metric([kind], float(made))
            yield family


KEYS_MADE = KeysMadeAtStart()
REGISTRY.register(KEYS_MADE)  # the registry of a single process; a multiprocess one adds it (exposition)


def keys_made_at_start(*, state: bool, receipt: bool) -> None:
    """Say whether this server made its keys at start (create_app, and gunicorn's master)."""
    KeysMadeAtStart.made.update(state=state, receipt=receipt)


def claim(kind: str, accepted: bool | None) -> None:
    """One claim judged: accepted, rejected, or (None) one that cannot be judged."""
    CLAIMS.labels(kind, "unjudged" if accepted is None else "accepted" if accepted else "rejected").inc()


_CHILDREN: dict[tuple[str, int], tuple[Any, Any]] = {}  # labels() is a locked lookup: once per pair


def observe(operation: str, status: int, seconds: float) -> None:
    """Count one answered request and its latency."""
    children = _CHILDREN.get((operation, status))
    if children is None:
        code = str(status)
        children = _CHILDREN[operation, status] = (REQUESTS.labels(operation, code), LATENCY.labels(operation, code))
    children[0].inc()
    children[1].observe(seconds)


def exposition(directory: str | None) -> Response:
    """The metrics: merged from the workers' files in ``directory``, or this process's own (None)."""
    if directory:
        registry = CollectorRegistry()
        registry.register(LockedCollector(directory))
        registry.register(KEYS_MADE)
    else:
        registry = REGISTRY
    return Response(generate_latest(registry), headers={"Content-Type": CONTENT_TYPE_LATEST})
