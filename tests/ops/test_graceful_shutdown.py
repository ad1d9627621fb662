"""SIGTERM while requests are in flight: gunicorn lets every one of them finish, then exits 0.

This is what happens to a pod on every rollout, scale-down and node drain: the kubelet runs the
preStop pause (endpoints are removed meanwhile, so new requests stop arriving), then sends SIGTERM.
The first test holds two requests in the app, each reading its body, when the signal arrives and
sends the rest afterwards. The second keeps eight clients busy through the signal: connections
still waiting in the listen backlog must be served, not reset when the workers stop listening.
"""

from __future__ import annotations

import http.client
import json
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import closing
from typing import Any

import pytest

from service.rules import PlayMove, Rules, deal_round, legal_moves, play

pytestmark = pytest.mark.server  # every test here starts gunicorn

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


def test_sigterm_under_load_loses_no_request_that_reached_the_server(start_gunicorn: Any) -> None:
    """Eight clients send requests without pause, half on fresh connections and half on kept-alive
    ones, while gunicorn gets SIGTERM (as on every rollout). Each request gets its answer, or its
    connection is refused (or reset while connecting) before anything is sent: a client or an
    ingress may retry that one, as every operation is free of side effects. None is reset or
    dropped after it was sent: the workers serve the connections waiting in the listen backlog
    before they stop listening."""
    server = start_gunicorn()
    body = json.dumps({"rules": "chkobba", "table": ["AD", "3S", "4C"], "hand": ["7D", "QS"]}).encode()
    headers = {"Content-Type": "application/json"}
    outcomes: list[tuple[str, float]] = []
    stop = threading.Event()

    def client(keep_alive: bool) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        while not stop.is_set():
            if not keep_alive:
                conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            try:
                conn.connect() if conn.sock is None else None
            except (ConnectionRefusedError, ConnectionResetError):
                # Nothing listens any more, or the listener closed during the handshake (the kernel
                # resets a connection still in its queue of half-open ones): nothing was sent.
                outcomes.append(("refused", time.monotonic()))
                return
            try:
                conn.request("POST", "/v1/captures", body=body, headers=headers)
                response = conn.getresponse()
                outcomes.append(
                    (str(response.status) if json.loads(response.read())["moves"] else "empty", time.monotonic())
                )
            except Exception as exc:  # noqa: BLE001 - every failure is an outcome the test reports
                outcomes.append((type(exc).__name__, time.monotonic()))
                return
            if not keep_alive or response.will_close:
                conn.close()

    threads = [threading.Thread(target=client, args=(i % 2 == 0,), daemon=True) for i in range(8)]
    for thread in threads:
        thread.start()
    time.sleep(1.5)
    server.process.send_signal(signal.SIGTERM)
    signalled = time.monotonic()
    assert server.process.wait(GRACEFUL_TIMEOUT + 10) == 0, server.log()
    stop.set()
    for thread in threads:
        thread.join(10)
    kinds = {kind for kind, _ in outcomes}
    assert kinds <= {"200", "refused"}, sorted(
        (kind, round(at - signalled, 3)) for kind, at in outcomes if kind not in ("200", "refused")
    )
    assert sum(kind == "200" and at > signalled for kind, at in outcomes) > 0  # served on after the signal
    assert sum(kind == "200" for kind, _ in outcomes) > 100


def test_on_sigterm_kept_alive_connections_may_send_one_more_request_then_close(start_gunicorn: Any) -> None:
    """A kept-alive connection idle when SIGTERM arrives is not held open for the whole keep-alive
    time (here 60 s): a request sent soon after is answered with Connection: close, and an idle
    connection is closed within seconds, so the worker exits long before the keep-alive ends."""
    server = start_gunicorn(env={"CHKOBBA_KEEPALIVE": "60", "CHKOBBA_GRACEFUL_TIMEOUT": str(GRACEFUL_TIMEOUT)})
    with (
        closing(http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)) as busy,
        closing(http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)) as idle,
    ):
        for conn in (busy, idle):
            conn.request("GET", "/healthz")
            response = conn.getresponse()
            assert response.status == 200 and not response.will_close
            response.read()
        time.sleep(0.5)  # both connections waiting for their next request, with the 60-s keep-alive
        server.process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        time.sleep(0.5)
        busy.request("GET", "/healthz")
        response = busy.getresponse()
        assert (response.status, response.will_close) == (200, True)
        assert idle.sock is not None and idle.sock.recv(1) == b""  # closed by the server, nothing sent
        assert server.process.wait(GRACEFUL_TIMEOUT + 10) == 0
    assert time.monotonic() - signalled < GRACEFUL_TIMEOUT / 2, server.log()
    assert "graceful timeout" not in server.log() and "exited with code" not in server.log(), server.log()


def test_a_reload_keeps_taking_new_connections(start_gunicorn: Any) -> None:
    """On SIGHUP gunicorn starts new workers and stops the old ones (with SIGTERM, as on a stop), all
    sharing the master's listening socket: only the master's own stop may make that socket refuse
    new connections, or the reloaded server would take none."""
    server = start_gunicorn()
    server.process.send_signal(signal.SIGHUP)
    deadline = time.monotonic() + 20
    while server.log().count("Booting worker") < 4:  # the two first workers, then their replacements
        assert time.monotonic() < deadline, server.log()
        time.sleep(0.1)
    time.sleep(1.0)  # the old workers close their copies of the socket
    for _ in range(5):
        status, _, _ = server.get("/healthz")  # a new connection each
        assert status == 200
    assert server.process.poll() is None
