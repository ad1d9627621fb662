"""Cheap requests keep their latency while reviews run (service/api/reviews.py).

A review (reviewRound) values every legal move of every move of a round: many times the 50 ms any
other request may cost. gunicorn's worker computes one request at a time (service/ops/worker.py), so
a review computed in its turn would hold every request behind it for the whole review. The review's
view only replays the record in its turn; the moves are reviewed as the answer is sent, pausing
between two moves, and the other requests compute in those pauses. Here one worker serves clients
that send reviews of four-player rounds back to back, while legalCaptures is asked again and again
on a connection of its own: each answer must come within a few moves' work, far sooner than a review.
"""

from __future__ import annotations

import http.client
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from service.rules import Phase, advance, deal_round
from service.strategy.levels import suggest_at

pytestmark = pytest.mark.server  # every test here starts gunicorn

REVIEWERS = 4
CHEAP = ("/v1/captures", {"rules": "chkobba", "table": ["AD", "2C", "5S", "6H"], "hand": ["7D", "3H", "KC"]})
LOAD = """
import http.client, json, sys, threading, time
port, seconds, body = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3].encode()
end, took, failures = time.monotonic() + seconds, [], []
def reviews():
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        while time.monotonic() < end:
            began = time.monotonic()
            conn.request("POST", "/v1/rounds/review", body=body, headers={"Content-Type": "application/json"})
            response = conn.getresponse()
            data = json.loads(response.read())
            assert response.status == 200 and len(data["moves"]) == 36, (response.status, data)
            took.append(time.monotonic() - began)
    except Exception as exc:
        failures.append(repr(exc))
threads = [threading.Thread(target=reviews) for _ in range(int(sys.argv[4]))]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(json.dumps({"took": took, "failures": failures}))
"""


def four_player_record() -> dict[str, Any]:
    state, deck = deal_round("chkobba", 4, 0, seed="review-latency", cut="keep")
    moves = []
    while state.phase is Phase.PLAY:
        move = suggest_at(state, level="expert", limit=1).moves[0].move
        state, _ = advance(state, move)
        moves.append({"card": move.card.code, "capture": [c.code for c in move.capture or ()]})
    assert len(moves) == 36
    deck_codes = [c.code for c in deck]
    return {"rules": "chkobba", "players": 4, "dealer": 0, "deck": deck_codes, "cut": "keep", "moves": moves}


def latencies(port: int, count: int) -> list[float]:
    path, body = CHEAP
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    took = []
    try:
        for _ in range(count):
            began = time.monotonic()
            conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
            response = conn.getresponse()
            response.read()
            assert response.status == 200
            took.append(time.monotonic() - began)
            time.sleep(0.02)
    finally:
        conn.close()
    return took


def test_cheap_requests_keep_their_latency_while_reviews_run(start_gunicorn: Any, tmp_path: Path) -> None:
    server = start_gunicorn(env={"CHKOBBA_WORKERS": "1", "CHKOBBA_ACCESS_LOG": ""})
    record = json.dumps(four_player_record())
    alone = latencies(server.port, 20)
    load = subprocess.Popen(
        [sys.executable, "-c", LOAD, str(server.port), "5", record, str(REVIEWERS)], stdout=subprocess.PIPE, text=True
    )
    time.sleep(1.0)  # every reviewer has sent, and the worker is busy reviewing
    during = latencies(server.port, 60)
    out, _ = load.communicate(timeout=120)
    result = json.loads(out)
    assert not result["failures"], result["failures"]
    reviews = result["took"]
    assert len(reviews) >= 2 * REVIEWERS
    review = statistics.median(reviews)
    # A review computed in its turn would hold a request behind it for about a whole review (and
    # behind the other reviewers' for more); in the pauses, it waits a few moves' work at most.
    assert max(during) < review / 2, (sorted(during)[-5:], review)
    assert statistics.median(during) < max(review / 10, statistics.median(alone) + 0.05), (during, alone, review)
