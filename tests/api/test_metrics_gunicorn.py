"""/metrics under gunicorn with two workers: the counts merged across workers add up exactly.

Starts the real server (gunicorn.conf.py, prometheus multiprocess mode in a pytest tmp dir), sends a
known mix of requests on fresh connections from several threads so that both workers serve, then
scrapes /metrics and checks every count. Only the standard library speaks HTTP here.
"""

from __future__ import annotations

import os
import re
import signal
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from ..support import (
    CANONICAL,
    children,
    clean_environment,
    deck_starting,
    free_port,
    health,
    requests_of_worker,
    running_gunicorn,
    send,
    served_pids,
)

pytestmark = pytest.mark.server  # every test here starts gunicorn

CAPTURES = {"rules": "chkobba", "table": ["2D", "6S"], "hand": ["QH", "JC", "3H"]}
AMBIGUOUS = {"rules": "chkobba", "table": ["7S", "7D", "AC"], "hand": ["7C", "2H"], "play": {"card": "7C"}}
SIDES = [
    {"counts": {"cards": 22, "diamonds": 6, "sevens": 2, "sixes": 3, "seven_of_diamonds": True}, "sweeps": 1},
    {"counts": {"cards": 18, "diamonds": 4, "sevens": 2, "sixes": 1, "seven_of_diamonds": False}, "sweeps": 0},
]
LINE = {"cards": 1, "diamonds": 1, "sevens": 1, "seven_of_diamonds": 1, "sweeps": 1, "primiera": 0, "total": 5}
GOOD_CLAIM = [{"side": 0, **LINE}, {"side": 1, **{k: 0 for k in LINE}}]
BAD_CLAIM = [{"side": 0, **LINE, "total": 4}, {"side": 1, **{k: 0 for k in LINE}}]
DECK = deck_starting("QH", "5S", "4H", "7C", "AC", "2H", "AD", "2D", "3C", "2S")  # seat 1 leads with QH 5S 4H


def state_after_deal() -> dict:
    """The state dealt from DECK (dealer 0, cut keep), written out by hand (docs/rules.md §3)."""
    return {
        "rules": "chkobba",
        "players": 2,
        "dealer": 0,
        "phase": "play",
        "turn": 1,
        "hands": [["7C", "AC", "2H"], ["QH", "5S", "4H"]],
        "table": ["AD", "2D", "3C", "2S"],
        "stock": DECK[10:],
        "piles": [[], []],
        "sweeps": [0, 0],
        "last_capturer": None,
    }


def plan() -> list[tuple[str, str, str, object, int]]:
    """(operation label, method, path, JSON body or raw (content type, bytes), expected status), 40 in all."""
    state = state_after_deal()
    requests: list[tuple[str, str, str, object, int]] = []
    requests += [("listRulesets", "GET", "/v1/rulesets", None, 200)] * 3
    requests += [("getRuleset", "GET", "/v1/rulesets/chkobba", None, 200)] * 2
    requests += [("getRuleset", "GET", "/v1/rulesets/nope", None, 404)] * 2
    requests += [("legalCaptures", "POST", "/v1/captures", CAPTURES, 200)] * 4
    requests += [("legalCaptures", "POST", "/v1/captures", ("application/json", b"{"), 400)] * 2
    requests += [("legalCaptures", "POST", "/v1/captures", ("text/plain", b"{}"), 415)]
    requests += [("applyMove", "POST", "/v1/moves", {**CAPTURES, "play": {"card": "QH"}}, 200)] * 3
    requests += [("applyMove", "POST", "/v1/moves", {**CAPTURES, "play": {"card": "QH", "capture": []}}, 422)] * 3
    requests += [("applyMove", "POST", "/v1/moves", AMBIGUOUS, 422)] * 2
    requests += [("applyMove", "POST", "/v1/moves", {**AMBIGUOUS, "play": {"card": "5C"}}, 422)]
    requests += [("scoreRound", "POST", "/v1/scores", {"rules": "chkobba", "sides": SIDES}, 200)]
    requests += [
        ("scoreRound", "POST", "/v1/scores", {"rules": "chkobba", "sides": SIDES, "claimed": GOOD_CLAIM}, 200)
    ] * 2
    requests += [
        ("scoreRound", "POST", "/v1/scores", {"rules": "chkobba", "sides": SIDES, "claimed": BAD_CLAIM}, 200)
    ] * 3
    match = {"rules": "chkobba", "scores": [17, 12], "round_points": [5, 1]}
    requests += [
        ("decideMatch", "POST", "/v1/match-decisions", {**match, "claimed": {"outcome": "won", "winner": 0}}, 200)
    ]
    requests += [
        (
            "decideMatch",
            "POST",
            "/v1/match-decisions",
            {**match, "claimed": {"outcome": "continue", "winner": None}},
            200,
        )
    ] * 2
    requests += [("decideMatch", "POST", "/v1/match-decisions", {**match, "scores": [21, 3]}, 422)]
    deal = {"rules": "chkobba", "players": 2, "dealer": 0, "deck": DECK, "cut": "keep"}
    requests += [
        ("dealRound", "POST", "/v1/rounds", deal, 200),
        ("dealRound", "POST", "/v1/rounds", {**deal, "deck": CANONICAL}, 200),
    ]
    sweep = {"card": "QH", "capture": ["AD", "2D", "3C", "2S"]}
    requests += [("playRound", "POST", "/v1/rounds/play", {"state": state, "move": sweep}, 200)]
    requests += [("playRound", "POST", "/v1/rounds/play", {"state": state, "move": {"card": "7C", "seat": 0}}, 422)]
    requests += [("playRound", "POST", "/v1/rounds/play", {"state": state, "move": {"cut": "keep"}}, 422)]
    record = {**deal, "moves": [sweep, {"card": "7C"}, {"card": "AC"}], "claimed": GOOD_CLAIM}  # AC: seat 1's turn
    requests += [("replayRound", "POST", "/v1/rounds/replay", record, 200)]
    requests += [("unmatched", "GET", "/no/such/path", None, 404)]
    assert len(requests) == 40
    return requests


# What the plan must add to the illegal-move and claim counters.
EXPECTED_ILLEGAL = {"illegal-move": 3, "ambiguous-capture": 2, "card-not-held": 2, "not-your-turn": 1, "wrong-phase": 1}
EXPECTED_CLAIMS = {
    ("score", "accepted"): 2,
    ("score", "rejected"): 3,
    ("decision", "accepted"): 1,
    ("decision", "rejected"): 2,
    ("replay", "unjudged"): 1,  # the record stops at an illegal move, so the claim cannot be judged
}


def samples(text: str) -> dict[str, Counter]:
    """Sample values by sample name, keyed by their sorted label items."""
    found: dict[str, Counter] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found.setdefault(sample.name, Counter())[tuple(sorted(sample.labels.items()))] += sample.value
    return found


def by_labels(values: Counter, *names: str) -> Counter:
    out: Counter = Counter()
    for labels, value in values.items():
        d = dict(labels)
        out[tuple(d.get(n) for n in names)] += value
    return out


@pytest.fixture
def server(tmp_path):
    port = free_port()
    metrics_dir = tmp_path / "prometheus"
    env = clean_environment(PORT=str(port), CHKOBBA_WORKERS="2", PROMETHEUS_MULTIPROC_DIR=str(metrics_dir))
    log_path = tmp_path / "gunicorn.log"
    health_polls = 0

    def both_workers_answered() -> bool:
        # Poll /healthz in pairs of concurrent requests until both workers have answered (each has
        # written its own sample files), so that the requests under test can reach either one.
        nonlocal health_polls
        if len(served_pids(metrics_dir)) >= 2:
            return True
        with ThreadPoolExecutor(max_workers=2) as pool:
            health_polls += sum(status == 200 for status in pool.map(lambda _: health(port), range(2)))
        return False

    with running_gunicorn(env, both_workers_answered, log_path) as process:
        yield {
            "port": port,
            "metrics_dir": metrics_dir,
            "log": log_path,
            "health_polls": health_polls,
            "process": process,
        }


def worker_pids(log_path: Path) -> set[int]:
    return {int(p) for p in re.findall(r"Booting worker with pid: (\d+)", log_path.read_text(errors="replace"))}


def test_metrics_add_up_across_two_workers(server):
    port = server["port"]
    requests = plan()

    def run(item):
        operation, method, path, body, expected = item
        status, payload = send(port, method, path, body)
        assert status == expected, (operation, path, status, payload[:300])
        return operation, status

    with ThreadPoolExecutor(max_workers=4) as pool:
        answered = list(pool.map(run, requests))

    expected_requests = Counter((op, str(status)) for op, status in answered)
    expected_requests[("getHealth", "200")] += server["health_polls"]

    status, _ = send(port, "GET", "/metrics")
    assert status == 200
    status, text = send(port, "GET", "/metrics")  # the second scrape counts the first
    assert status == 200
    expected_requests[("getMetrics", "200")] += 1
    found = samples(text.decode())

    requests_total = by_labels(found["chkobba_http_requests_total"], "operation", "status")
    assert {k: v for k, v in requests_total.items() if v} == dict(expected_requests)

    latency_count = by_labels(found["chkobba_http_request_duration_seconds_count"], "operation", "status")
    assert {k: v for k, v in latency_count.items() if v} == dict(expected_requests)
    buckets = found["chkobba_http_request_duration_seconds_bucket"]
    infinite = by_labels(Counter({k: v for k, v in buckets.items() if dict(k)["le"] == "+Inf"}), "operation", "status")
    assert {k: v for k, v in infinite.items() if v} == dict(expected_requests)

    illegal = by_labels(found["chkobba_illegal_moves_total"], "code")
    assert {k[0]: v for k, v in illegal.items() if v} == EXPECTED_ILLEGAL

    claims = by_labels(found["chkobba_claims_total"], "kind", "verdict")
    assert {k: v for k, v in claims.items() if v} == EXPECTED_CLAIMS

    # Both workers served: each wrote its own sample files, named by pid, and the merged counts are
    # the sum of the two workers' own counts.
    pids = worker_pids(server["log"])
    assert len(pids) == 2, server["log"].read_text(errors="replace")
    assert served_pids(server["metrics_dir"]) == pids
    per_worker = {pid: requests_of_worker(server["metrics_dir"], pid) for pid in pids}
    assert sum(per_worker.values(), Counter()) == expected_requests + Counter({("getMetrics", "200"): 1})
    for pid, counts in per_worker.items():
        assert sum(v for (op, _), v in counts.items() if op != "getHealth") > 0, (pid, per_worker)

    # Scraped again (from whichever worker answers), the merged counts stay the same, one scrape more.
    for scrape in range(3):
        status, text = send(port, "GET", "/metrics")
        assert status == 200
        again = by_labels(samples(text.decode())["chkobba_http_requests_total"], "operation", "status")
        assert again[("getMetrics", "200")] == 2 + scrape
        assert sum(again.values()) == sum(expected_requests.values()) + 1 + scrape


def test_gunicorn_stops_on_sigterm(server):
    process = server["process"]
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=10) == 0


def test_metrics_survive_dozens_of_worker_restarts(tmp_path):
    """Workers recycled every 3 requests (max_requests), and every 10th request one that served is
    killed (SIGKILL and SIGTERM in turn): the merged counts stay exact at every scrape, and once
    gunicorn has reaped the dead, the directory holds the live workers' files and the two archives."""
    port = free_port()
    metrics_dir = tmp_path / "prometheus"
    env = clean_environment(
        PORT=str(port),
        CHKOBBA_WORKERS="2",
        CHKOBBA_MAX_REQUESTS="3",
        CHKOBBA_MAX_REQUESTS_JITTER="0",
        PROMETHEUS_MULTIPROC_DIR=str(metrics_dir),
    )
    log_path = tmp_path / "gunicorn.log"
    expected: Counter = Counter()

    def ready() -> bool:
        status = health(port)
        expected[("getHealth", "200")] += status == 200
        return status == 200

    def settled(master: int) -> set[str]:
        """The .db files once gunicorn has merged every dead worker's (the test fails if it never does)."""
        deadline = time.monotonic() + 10
        while True:
            live = children(master)
            files = {f.name for f in metrics_dir.glob("*.db")}
            if served_pids(metrics_dir) <= live:
                return files
            assert time.monotonic() < deadline, (sorted(files), sorted(live))
            time.sleep(0.05)

    def scrape_and_check() -> dict[str, Counter]:
        status, text = send(port, "GET", "/metrics", timeout=30)
        assert status == 200
        found = samples(text.decode())
        requests_total = by_labels(found["chkobba_http_requests_total"], "operation", "status")
        assert +requests_total == expected
        latency_count = by_labels(found["chkobba_http_request_duration_seconds_count"], "operation", "status")
        assert +latency_count == expected
        expected[("getMetrics", "200")] += 1
        return found

    requests = plan() * 3
    signals = [signal.SIGKILL, signal.SIGTERM]
    killed = []
    with running_gunicorn(env, ready, log_path) as process:
        for i, (operation, method, path, body, status) in enumerate(requests, 1):
            answered, payload = send(port, method, path, body, timeout=30)
            assert answered == status, (operation, path, answered, payload[:300])
            expected[(operation, str(answered))] += 1
            if i % 10 == 0:  # between requests: the victim is idle, every count it made is written
                victim = min(children(process.pid) & served_pids(metrics_dir), default=None)
                if victim is not None:
                    os.kill(victim, signals[i // 10 % 2])
                    killed.append(victim)
            if i % 20 == 0:
                files = settled(process.pid)
                assert len(files) <= 2 * 2 + 2, sorted(files)
                scrape_and_check()
        files = settled(process.pid)
        found = scrape_and_check()
        restarts = len(worker_pids(log_path)) - 2

    assert restarts >= 30 and len(killed) >= 6, (killed, log_path.read_text(errors="replace")[-3000:])
    assert {"counter_archive.db", "histogram_archive.db"} <= files and len(files) <= 2 * 2 + 2, sorted(files)
    illegal = by_labels(found["chkobba_illegal_moves_total"], "code")
    assert {k[0]: v for k, v in illegal.items() if v} == {k: 3 * v for k, v in EXPECTED_ILLEGAL.items()}
    claims = by_labels(found["chkobba_claims_total"], "kind", "verdict")
    assert {k: v for k, v in claims.items() if v} == {k: 3 * v for k, v in EXPECTED_CLAIMS.items()}
    buckets = found["chkobba_http_request_duration_seconds_bucket"]
    infinite = by_labels(Counter({k: v for k, v in buckets.items() if dict(k)["le"] == "+Inf"}), "operation", "status")
    assert +infinite == expected - Counter({("getMetrics", "200"): 1})  # the last scrape counted itself after
