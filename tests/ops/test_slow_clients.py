"""Slow, idle and greedy clients against the service as gunicorn.conf.py runs it (service/ops/worker.py).

A sync worker is held by one connection until its request is complete: two idle connections
stopped the service for 30 s. Here 64 connections that send nothing, or trickle their headers or
their body, must not keep cheap requests waiting, and each is cut off after the configured time.
``bench/slow_clients.py`` measures the latencies; these tests check what must hold.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest

from service.ops.limits import MAX_BODY_BYTES

pytestmark = pytest.mark.server  # every test here starts gunicorn

SLOW = 64
CAPTURES = json.dumps({"rules": "chkobba", "table": ["AD", "3S", "4C"], "hand": ["7D", "QS"]}).encode()
HEAD = b"POST /v1/captures HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n"


class Dawdler:
    """A connection that sends nothing (``idle``), or a request's headers (``headers``) or body
    (``body``, after complete headers) one byte every ``pause`` seconds, and notes when and how
    the server ended it."""

    def __init__(self, port: int, way: str, pause: float = 1.0) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.opened = time.monotonic()
        self.way, self.pause = way, pause
        self.closed_after: float | None = None
        self.received = b""
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        trickle = {"idle": b"", "headers": HEAD, "body": b" " * 200}[self.way]
        if self.way == "body":
            self.sock.sendall(HEAD)
        self.sock.settimeout(self.pause)
        for i in range(10**6):
            if self.stop.is_set():
                return
            try:
                if i < len(trickle):
                    self.sock.sendall(trickle[i : i + 1])
                data = self.sock.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                data = b""
            if not data:
                self.closed_after = time.monotonic() - self.opened
                return
            self.received += data

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        self.sock.close()


@contextmanager
def dawdlers(port: int, way: str, count: int = SLOW) -> Iterator[list[Dawdler]]:
    with ExitStack() as stack:
        slow = []
        for _ in range(count):
            dawdler = Dawdler(port, way)
            stack.callback(dawdler.close)
            slow.append(dawdler)
        yield slow


def ask(port: int, method: str, path: str, body: bytes | None = None, timeout: float = 5) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


@pytest.mark.parametrize("way", ["idle", "headers", "body"])
def test_cheap_requests_are_answered_while_64_connections_dawdle(start_gunicorn: Any, way: str) -> None:
    server = start_gunicorn()
    with dawdlers(server.port, way) as slow:
        time.sleep(0.5)  # every dawdler connected: under sync workers, each worker is now held
        for i in range(20):  # each one fails with a timeout if it waits 5 s
            status, data = (
                ask(server.port, "GET", "/healthz") if i % 2 else ask(server.port, "POST", "/v1/captures", CAPTURES)
            )
            assert status == 200, data
        assert all(d.closed_after is None for d in slow)  # still within their time: nobody was cut early


@pytest.mark.parametrize("way", ["idle", "headers"])
def test_a_connection_without_a_whole_request_head_is_closed_after_keepalive(start_gunicorn: Any, way: str) -> None:
    server = start_gunicorn(env={"CHKOBBA_KEEPALIVE": "2"})
    with dawdlers(server.port, way, count=4) as slow:
        for dawdler in slow:
            dawdler.thread.join(15)
    for dawdler in slow:
        assert dawdler.closed_after is not None and 1.5 < dawdler.closed_after < 8, dawdler.closed_after
        assert dawdler.received == b""  # nothing to answer: no request arrived


def test_a_body_slower_than_the_client_timeout_gets_a_408_then_the_connection_closes(
    start_gunicorn: Any, tmp_path: Any
) -> None:
    access_log = tmp_path / "access.jsonl"
    server = start_gunicorn(env={"CHKOBBA_CLIENT_TIMEOUT": "2", "CHKOBBA_ACCESS_LOG": str(access_log)})
    with dawdlers(server.port, "body", count=2) as slow:
        for dawdler in slow:
            dawdler.thread.join(15)
    for dawdler in slow:
        assert dawdler.closed_after is not None and 1.5 < dawdler.closed_after < 8, dawdler.closed_after
        head, _, body = dawdler.received.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408 "), dawdler.received
        assert b"Content-Type: application/problem+json" in head
        assert json.loads(body)["code"] == "request-timeout"
    records = [json.loads(line) for line in access_log.read_text().splitlines()]
    assert [(r["operation"], r["status"]) for r in records if r["path"] == "/v1/captures"] == [
        ("legalCaptures", 408)
    ] * 2
    status, metrics = ask(server.port, "GET", "/metrics")
    assert 'chkobba_http_requests_total{operation="legalCaptures",status="408"} 2.0' in metrics.decode()


def test_keep_alive_serves_several_requests_on_one_connection(start_gunicorn: Any) -> None:
    server = start_gunicorn()
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        sockets = set()
        for _ in range(3):
            conn.request("POST", "/v1/captures", body=CAPTURES, headers={"Content-Type": "application/json"})
            response = conn.getresponse()
            assert response.status == 200 and json.loads(response.read())["moves"]
            assert not response.will_close, response.getheaders()
            sockets.add(id(conn.sock))
        assert len(sockets) == 1
    finally:
        conn.close()


def chunked(body: bytes, size: int = 4096) -> Iterator[bytes]:
    for start in range(0, len(body), size):
        yield body[start : start + size]


@pytest.mark.parametrize("chunks", [False, True], ids=["content-length", "chunked"])
def test_a_body_over_64_kib_is_refused_whole_never_judged_on_a_part(start_gunicorn: Any, chunks: bool) -> None:
    """The first 64 KiB are a valid request; the rest is JSON whitespace. Cut at the limit, the body
    would be judged (and answered 200) on its first part."""
    server = start_gunicorn()
    fits = CAPTURES + b" " * (MAX_BODY_BYTES - len(CAPTURES))
    for body, expected in ((fits, 200), (fits + b" ", 413)):
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        try:
            conn.request(
                "POST",
                "/v1/captures",
                body=chunked(body) if chunks else body,
                headers={"Content-Type": "application/json"},
                encode_chunked=chunks,
            )
            response = conn.getresponse()
            answer: dict[str, Any] = json.loads(response.read())
        finally:
            conn.close()
        assert response.status == expected, answer
        if expected == 413:
            assert answer["code"] == "body-too-large"
            assert response.getheader("Content-Type") == "application/problem+json"


def raw_exchange(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in header_lines)
    return int(status_line.split()[1]), headers, body


UNPARSED = [
    (b"GET /" + b"x" * 3000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri-too-long"),
    (
        b"GET /healthz HTTP/1.1\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(60)) + b"\r\n",
        431,
        "headers-too-large",
    ),
    (b"GET /healthz HTTP/1.1\r\nX-Big: " + b"y" * 9000 + b"\r\n\r\n", 431, "headers-too-large"),
    (b"NOT A REQUEST\r\n\r\n", 400, "malformed-request"),
    (
        b"POST /v1/captures HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        400,
        "malformed-request",
    ),
    (b"POST /v1/captures HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 400, "malformed-request"),
]


@pytest.mark.parametrize(
    ("request_bytes", "status", "code"),
    UNPARSED,
    ids=["request-line", "header-count", "header-size", "garbage", "bad-chunk", "transfer-coding"],
)
def test_what_gunicorn_cannot_parse_is_refused_with_a_problem(
    start_gunicorn: Any, request_bytes: bytes, status: int, code: str
) -> None:
    """gunicorn's own refusals, made before the app sees anything, are problem documents too."""
    server = start_gunicorn()
    got, headers, body = raw_exchange(server.port, request_bytes)
    assert (got, headers["Content-Type"]) == (status, "application/problem+json"), body
    answer = json.loads(body)
    assert (answer["status"], answer["code"]) == (status, code) and answer["type"].endswith(code)
    _, metrics = ask(server.port, "GET", "/metrics")
    assert f'chkobba_http_requests_total{{operation="unparsed",status="{status}"}} 1.0' in metrics.decode()


def test_with_any_origin_allowed_what_gunicorn_cannot_parse_is_readable_by_any_page_too(start_gunicorn: Any) -> None:
    """CHKOBBA_CORS_ORIGINS=*: every answer says so, the worker's own refusals included (a page that
    sent a request too large would otherwise see a network error, not the problem)."""
    server = start_gunicorn(env={"CHKOBBA_CORS_ORIGINS": "*"})
    for request_bytes, status, _ in UNPARSED:
        got, headers, body = raw_exchange(server.port, request_bytes)
        assert got == status and headers.get("Access-Control-Allow-Origin") == "*", (status, headers, body)
        assert headers["X-Content-Type-Options"] == "nosniff"
    unset = start_gunicorn()
    got, headers, _ = raw_exchange(unset.port, UNPARSED[0][0])
    assert got == 414 and "Access-Control-Allow-Origin" not in headers


def post_head(length: int, *extra: bytes) -> bytes:
    lines = [
        b"POST /v1/captures HTTP/1.1",
        b"Host: x",
        b"Content-Type: application/json",
        b"Content-Length: %d" % length,
    ]
    return b"\r\n".join([*lines, *extra]) + b"\r\n\r\n"


def test_a_body_shorter_than_its_content_length_is_a_400_not_judged(start_gunicorn: Any) -> None:
    """The client stops sending (and says so) before the bytes it announced: the part that came is
    a valid request, which must not be judged as if it were the whole."""
    server = start_gunicorn()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(post_head(len(CAPTURES) + 100) + CAPTURES)
        sock.shutdown(socket.SHUT_WR)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 "), received
    answer = json.loads(body)
    assert answer["code"] == "malformed-request" and f"of the {len(CAPTURES) + 100} bytes" in answer["detail"]


def test_a_chunked_body_without_its_last_chunk_is_a_400_not_judged(start_gunicorn: Any) -> None:
    server = start_gunicorn()
    head = b"POST /v1/captures HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked"
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(head + b"\r\n\r\n" + b"%x\r\n" % len(CAPTURES) + CAPTURES + b"\r\n")
        sock.shutdown(socket.SHUT_WR)
        response = http.client.HTTPResponse(sock)
        response.begin()
        answer = json.loads(response.read())
    assert (response.status, answer["code"]) == (400, "malformed-request"), answer
    assert "last chunk" in answer["detail"]


def test_a_client_that_expects_100_continue_is_told_to_go_on_before_the_body(start_gunicorn: Any) -> None:
    server = start_gunicorn()
    with socket.create_connection(("127.0.0.1", server.port), timeout=3) as sock:
        sock.sendall(post_head(len(CAPTURES), b"Expect: 100-continue"))
        assert sock.recv(65536) == b"HTTP/1.1 100 Continue\r\n\r\n"  # a timeout here: nobody said go on
        sock.sendall(CAPTURES)
        response = http.client.HTTPResponse(sock)
        response.begin()
        answer = json.loads(response.read())
    assert response.status == 200 and answer["moves"][0]["kind"] == "sum", answer


def test_a_body_over_the_limit_is_refused_without_inviting_it(start_gunicorn: Any) -> None:
    server = start_gunicorn()
    status, headers, body = raw_exchange(server.port, post_head(10**6, b"Expect: 100-continue"))
    assert (status, json.loads(body)["code"]) == (413, "body-too-large")  # a 100 first would be status 100


@pytest.mark.parametrize("codings", [b"gzip, chunked", b"deflate,chunked"])
def test_a_transfer_coding_other_than_chunked_is_a_501(start_gunicorn: Any, codings: bytes) -> None:
    """gunicorn reads ``gzip, chunked`` as chunked: a proxy that decodes the gzip would judge
    another body than the service."""
    server = start_gunicorn()
    head = b"POST /v1/captures HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: "
    request = head + codings + b"\r\n\r\n" + b"%x\r\n" % len(CAPTURES) + CAPTURES + b"\r\n0\r\n\r\n"
    status, headers, body = raw_exchange(server.port, request)
    assert (status, headers["Content-Type"], json.loads(body)["code"]) == (
        501,
        "application/problem+json",
        "not-implemented",
    )
