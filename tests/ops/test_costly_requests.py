"""The costliest valid requests, 32 in flight at once, do not starve the liveness probe.

Before the cost bounds, 32 four-player suggestMoves requests (220 ms each) made every 3-second
/healthz check fail: Kubernetes would have restarted a healthy pod. Here 32 clients send the worst
bodies ``bench/worst.py`` found for the four costliest operations, back to back, from a process of
their own, while /healthz is asked on fresh connections: each ask must be answered within 1 s. The
worker computes one request at a time in arrival order and serves the probes first, so a probe waits
for about two requests at most; ``bench/slow_clients.py --way costly`` measured a p99 of 60-140 ms on
the 2-core development machine under other load. Without the turns, the probes timed out.
"""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bench.worst import worst_bodies
from service.api.sealing import new_key

pytestmark = pytest.mark.server  # every test here starts gunicorn

IN_FLIGHT = 32
COSTLIEST = ("suggestMoves", "legalCaptures", "applyMove", "playRound")
WITHIN_S = 1.0
LOAD = """
import http.client, json, sys, threading, time
port, seconds = int(sys.argv[1]), float(sys.argv[2])
with open(sys.argv[3], encoding="utf-8") as file:
    requests = json.load(file)
end, answered, failures = time.monotonic() + seconds, [], []
def costly(path, body):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        while time.monotonic() < end:
            conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
            response = conn.getresponse()
            data = response.read()
            answered.append(f"{response.status} {json.loads(data).get('code') if response.status >= 400 else ''}")
    except Exception as exc:
        failures.append(repr(exc))
threads = [threading.Thread(target=costly, args=(path, body.encode())) for path, body in requests]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(json.dumps({"answered": answered, "failures": failures}))
"""


def test_healthz_answers_while_32_worst_case_requests_are_in_flight(start_gunicorn: Any, tmp_path: Path) -> None:
    keys = new_key()
    server = start_gunicorn(env={"CHKOBBA_STATE_KEYS": keys, "CHKOBBA_ACCESS_LOG": ""})
    bodies = worst_bodies(keys)
    requests = [(bodies[name]["path"], json.dumps(bodies[name]["body"])) for name in COSTLIEST]
    plan = tmp_path / "requests.json"
    plan.write_text(json.dumps([requests[i % len(requests)] for i in range(IN_FLIGHT)]), encoding="utf-8")
    # The load in a process of its own: its threads must not hold back the probes here.
    load = subprocess.Popen(
        [sys.executable, "-c", LOAD, str(server.port), "6", str(plan)], stdout=subprocess.PIPE, text=True
    )
    time.sleep(1.5)  # every costly client has sent, and the workers are busy
    waits = []
    for _ in range(10):
        began = time.monotonic()
        status, _ = ask(server.port, "/healthz")
        assert status == 200
        waits.append(time.monotonic() - began)
        time.sleep(0.2)
    out, _ = load.communicate(timeout=60)
    result = json.loads(out)
    assert not result["failures"], result["failures"]
    answered = Counter(result["answered"])
    # As the worst bodies are: the costliest illegal moves (applyMove, playRound) list every legal option.
    assert set(answered) <= {"200 ", "422 illegal-move"} and sum(answered.values()) >= IN_FLIGHT, answered
    assert max(waits) < WITHIN_S, waits


def ask(port: int, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=3)  # the liveness probe's timeout
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()
