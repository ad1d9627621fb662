"""The metrics on an address of their own (CHKOBBA_METRICS_ADDRESS, docs/security.md): served there by
gunicorn's master, merged across the workers, and unreachable through the service's port under any
spelling of the path."""

from __future__ import annotations

import http.client
import socket
from typing import Any

import pytest

from service.app import create_app

from ..support import free_port, gunicorn_refused

SPELLINGS = ["/metrics", "//metrics", "/%6detrics", "/%6D%65trics", "/metrics/", "/./metrics", "/x/../metrics"]


def raw(port: int, request_line: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request_line + b"\r\nHost: a\r\nConnection: close\r\n\r\n")
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    return received


def get(port: int, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def test_in_process_the_metrics_endpoint_answers_404_once_it_has_an_address() -> None:
    elsewhere = create_app({"TESTING": True, "ACCESS_LOG": "", "METRICS_ADDRESS": "127.0.0.1:9"}).test_client()
    for path in ("/metrics", "/%6detrics", "http://a/metrics"):
        response = elsewhere.get(path, follow_redirects=True)
        assert response.status_code == 404 and b"chkobba_" not in response.data, path
    assert elsewhere.head("/metrics").status_code == 404
    here = create_app({"TESTING": True, "ACCESS_LOG": ""}).test_client()  # unset: on the service's port
    assert here.get("/metrics").status_code == 200


@pytest.mark.server
def test_the_metrics_are_on_their_own_address_and_nowhere_on_the_public_port(start_gunicorn: Any) -> None:
    metrics_port = free_port()
    server = start_gunicorn(env={"CHKOBBA_METRICS_ADDRESS": f"127.0.0.1:{metrics_port}"})
    for _ in range(4):
        assert server.get("/v1/rulesets")[0] == 200
    status, text = get(metrics_port, "/metrics")
    assert status == 200
    assert b'chkobba_http_requests_total{operation="listRulesets",status="200"} 4.0' in text
    assert b'chkobba_keys_made_at_start{keys="state"} 1.0' in text
    assert get(metrics_port, "/v1/rulesets")[0] == 404  # the metrics' address serves the metrics only
    for path in SPELLINGS:
        status, _, body = server.get(path)
        assert status == 404 and b"chkobba_" not in body, (path, status)
    for target in (b"http://a/metrics", b"http://a//metrics", b"http://a/%6detrics"):
        answer = raw(server.port, b"GET " + target + b" HTTP/1.1")
        assert answer.startswith(b"HTTP/1.1 404") and b"chkobba_" not in answer, target
        assert b"\r\nX-Content-Type-Options: nosniff\r\n" in answer
    unparsed = raw(server.port, b"GET /metrics HTTP/1.1\r\nBad Header")  # the worker answers it itself
    assert unparsed.startswith(b"HTTP/1.1 400") and b"\r\nX-Content-Type-Options: nosniff\r\n" in unparsed


@pytest.mark.server
def test_a_metrics_address_in_use_stops_the_start_with_one_line(start_gunicorn: Any, tmp_path: Any) -> None:

    from ..support import clean_environment

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = clean_environment(
            CHKOBBA_BIND=f"127.0.0.1:{free_port()}",
            CHKOBBA_METRICS_ADDRESS=f"127.0.0.1:{port}",
            PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "m"),
        )
        stderr = gunicorn_refused(env)
    assert f"CHKOBBA_METRICS_ADDRESS: cannot listen on 127.0.0.1:{port}" in stderr, stderr[-2000:]


def test_a_connection_that_trickles_is_closed_when_its_time_is_up(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A byte every 0.2 s never lets the per-read timeout expire; the connection's own deadline ends it,
    and MAX_CONNECTIONS tricklers cannot keep a scrape out for longer than that."""
    import threading
    import time

    from service.ops import metrics_server

    monkeypatch.setattr(metrics_server, "CONNECTION_SECONDS", 1.0)
    port = free_port()
    log = type("Log", (), {"info": staticmethod(lambda *a: None)})()
    server = metrics_server.serve_metrics(f"127.0.0.1:{port}", str(tmp_path), log)
    closed_after: list[float] = []

    def trickle() -> None:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            started = time.monotonic()
            try:
                for byte in b"GET /metrics HTTP/1.1\r\nX-Slow: " + b"y" * 100:
                    sock.sendall(bytes([byte]))
                    time.sleep(0.2)
            except OSError:  # reset by the server's cut
                pass
            closed_after.append(time.monotonic() - started)

    try:
        tricklers = [threading.Thread(target=trickle) for _ in range(metrics_server.MAX_CONNECTIONS)]
        for thread in tricklers:
            thread.start()
        time.sleep(0.3)
        for thread in tricklers:
            thread.join(timeout=30)
        assert len(closed_after) == metrics_server.MAX_CONNECTIONS and max(closed_after) < 3, closed_after
        assert raw(port, b"GET /metrics HTTP/1.1").startswith(b"HTTP/1.0 200")
    finally:
        server.shutdown()
        server.server_close()


def test_the_metrics_server_closes_idle_connections_and_serves_few_at_once(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each connection is a thread of gunicorn's master: idle ones are closed after a few seconds, and
    past MAX_CONNECTIONS at once one more is closed unanswered, rather than a thread each for ever."""
    import threading
    import time

    from service.ops import metrics_server

    monkeypatch.setattr(metrics_server._Quiet, "timeout", 0.5)
    port = free_port()
    log = type("Log", (), {"info": staticmethod(lambda *a: None)})()
    server = metrics_server.serve_metrics(f"127.0.0.1:{port}", str(tmp_path), log)
    try:
        idle = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(60)]
        time.sleep(0.2)
        serving = [t for t in threading.enumerate() if "process_request_thread" in t.name]
        assert 0 < len(serving) <= metrics_server.MAX_CONNECTIONS
        started = time.monotonic()
        for sock in idle:
            assert sock.recv(1) == b""  # closed by the server: unanswered past the cap, or timed out
            sock.close()
        assert time.monotonic() - started < 5
        for answer in (raw(port, b"GET /metrics HTTP/1.1"), raw(port, b"GET /x HTTP/1.1")):
            assert b"\r\nX-Content-Type-Options: nosniff\r\n" in answer, answer[:200]
        assert raw(port, b"GET /metrics HTTP/1.1").startswith(b"HTTP/1.0 200")
    finally:
        server.shutdown()
        server.server_close()
