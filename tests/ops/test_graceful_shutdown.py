"""SIGTERM while requests are in flight: gunicorn lets every one of them finish, then exits 0.

This is what happens to a pod on every rollout, scale-down and node drain: the kubelet runs the
preStop pause (endpoints are removed meanwhile, so no new request arrives), then sends SIGTERM.
Each request here is in the app, inside the view, reading its body, when the signal arrives, and
sends the rest of it afterwards: a sync worker holds one request at a time, so with two workers
two requests are in flight. Requests still waiting in the listen backlog would be dropped at exit;
the preStop pause is what keeps that backlog empty in a cluster.
"""

from __future__ import annotations

import http.client
import json
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

from service.rules import PlayMove, Rules, deal_round, legal_moves, play

GRACEFUL_TIMEOUT = 10
IN_FLIGHT = 2  # one per worker


def full_round_record() -> dict[str, Any]:
    """A complete, legal scopa round: each turn, the first card in hand with its first option."""
    rules = Rules.of("scopa")
    state, deck = deal_round(rules, 2, 0, seed="graceful-shutdown")
    moves = []
    while state.turn is not None:
        captures = legal_moves(state)[0]
        capture = captures.options[0] if captures.options else ()
        moves.append({"card": captures.card.code, "capture": [c.code for c in capture], "seat": state.turn})
        state, _ = play(state, PlayMove(captures.card, capture, state.turn))
    return {"rules": "scopa", "players": 2, "dealer": 0, "deck": [c.code for c in deck], "moves": moves}


def test_sigterm_lets_every_in_flight_request_finish(start_gunicorn: Any, tmp_path: Any) -> None:
    access_log = tmp_path / "access.jsonl"
    server = start_gunicorn(
        env={"CHKOBBA_GRACEFUL_TIMEOUT": str(GRACEFUL_TIMEOUT), "CHKOBBA_ACCESS_LOG": str(access_log)}
    )
    body = json.dumps(full_round_record()).encode()
    half_sent = [threading.Event() for _ in range(IN_FLIGHT)]
    terminated = threading.Event()
    results: dict[int, Any] = {}

    def slow_replay(i: int) -> None:
        def chunks() -> Iterator[bytes]:
            yield body[: len(body) // 2]
            half_sent[i].set()
            terminated.wait(20)
            time.sleep(0.3)  # the rest arrives after SIGTERM
            yield body[len(body) // 2 :]

        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        try:
            headers = {
                "Content-Type": "application/json",
                "Content-Length": str(len(body)),
                "X-Request-ID": f"in-flight-{i}",
            }
            conn.request("POST", "/v1/rounds/replay", body=chunks(), headers=headers)
            response = conn.getresponse()
            results[i] = (response.status, response.getheader("X-Request-ID"), json.loads(response.read()))
        except Exception as exc:  # noqa: BLE001 - recorded, and the assertion below shows it
            results[i] = exc
        finally:
            conn.close()

    threads = [threading.Thread(target=slow_replay, args=(i,)) for i in range(IN_FLIGHT)]
    for thread in threads:
        thread.start()
    for event in half_sent:
        assert event.wait(10)
    time.sleep(1.0)  # each idle worker accepts its connection at once; leave time on a busy machine

    server.process.send_signal(signal.SIGTERM)
    signalled = time.monotonic()
    terminated.set()
    for thread in threads:
        thread.join(20)
    exit_status = server.process.wait(GRACEFUL_TIMEOUT + 10)
    elapsed = time.monotonic() - signalled

    for i in range(IN_FLIGHT):
        assert not isinstance(results[i], Exception), f"request {i} failed: {results[i]!r}\n{server.log()}"
        status, request_id, answer = results[i]
        assert (status, request_id) == (200, f"in-flight-{i}")
        assert answer["valid"] and answer["complete"] and answer["breakdown"] is not None
    assert exit_status == 0, server.log()
    assert elapsed < GRACEFUL_TIMEOUT, f"{elapsed:.1f} s: the workers were not idle after their last request"
    log = server.log()
    assert "Handling signal: term" in log
    for sign in ("SIGKILL", "WORKER TIMEOUT", "Traceback"):
        assert sign not in log, log
    lines = [json.loads(line) for line in access_log.read_text(encoding="utf-8").splitlines()]
    replays = sorted((r["request_id"], r["operation"], r["status"]) for r in lines if r["path"] == "/v1/rounds/replay")
    assert replays == [(f"in-flight-{i}", "replayRound", 200) for i in range(IN_FLIGHT)]
