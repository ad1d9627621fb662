"""The gunicorn worker that serves the app: gevent, with deadlines for slow clients and whole bodies.

A sync worker is held by one connection from its first byte to its last, so a few idle or trickling
clients stop the service (docs/operations.md, "Running it in front of real clients"). Here every connection is
a greenlet: waiting on a client costs memory, not a worker. gunicorn's gevent worker already closes
a connection that has not sent a complete request line and headers within ``keepalive`` seconds
(of opening, or of its previous answer); this worker adds the rest:

- the body is read whole, at most ``MAX_BODY_BYTES`` of it, within ``client_timeout`` seconds, before
  the app runs, so the app never waits on a socket and never sees a truncated body, chunked or not
  (a body shorter than its Content-Length, or without its last chunk, is a 400, a transfer coding
  but chunked a 501);
  a body that is too large or too slow reaches the app as one that raises 413 or 408 when read,
  so that the answer is the app's own problem, logged and counted like any other;
- the answer must be computed (its turn included) and taken by the client within ``client_timeout``
  seconds as well;
- requests compute one at a time, in the order they arrived, and the loop looks at every connection
  between two of them: no client, however fast, keeps the worker to itself, a new connection waits
  for one request at most to be accepted, and the probes (``PROBE_PATHS``) do not queue at all;
- a request gunicorn cannot parse (a request line or headers too long, a bad chunk) is refused
  with a problem document like every other refusal, where gunicorn would write an HTML page;
- on SIGTERM, connections already waiting in the listen backlog are accepted and served before the
  worker stops listening, rather than reset when the socket closes; kept-alive connections then
  have ``STOP_LINGER`` seconds to send one more request (answered with ``Connection: close``).
  When the whole server stops, the master first makes the listening sockets ignore new connection
  requests (``refuse_new_connections``), so that no connection can join the backlog between a
  worker's last look at it and the close that would reset it.
"""

from __future__ import annotations

import ctypes
import io
import json
import socket
import struct
import sys
import time
from collections import deque
from functools import partial
from typing import Any

import gevent
from gevent.event import Event
from gevent.pool import Pool
from gevent.server import StreamServer
from gunicorn.http import errors
from gunicorn.sock import ssl_context
from gunicorn.util import write_nonblock
from gunicorn.workers.ggevent import GeventWorker
from werkzeug.exceptions import BadRequest, HTTPException, RequestEntityTooLarge, RequestTimeout
from werkzeug.exceptions import NotImplemented as NotImplementedCoding

from . import metrics, settings
from .limits import MAX_BODY_BYTES, PROBE_PATHS
from .problems import HTTP_CODES, PROBLEM_MEDIA_TYPE, http_title, problem

STOP_LINGER = 2.0  # as gunicorn's threaded worker: for a request a client may already be sending
# After refuse_new_connections, for the handshakes already under way to reach the backlog (a round
# trip) before the workers drain it: the master waits this long before it signals them.
HANDSHAKE_GRACE = 0.1
# The requests gunicorn cannot parse, by status (the first class that matches); a problem with the
# app's answer, or with the configuration, stays gunicorn's 500.
UNPARSED = (
    (errors.InvalidResponseHeader, None),
    (errors.InvalidResponseHeaderName, None),
    (errors.ConfigurationProblem, None),
    (errors.LimitRequestLine, 414),
    (errors.LimitRequestHeaders, 431),
    (errors.ExpectationFailed, 417),
    (errors.UnsupportedTransferCoding, 501),
    (errors.ForbiddenProxyRequest, 403),
    (errors.ParseException, 400),
)


class RefusedBody:
    """A request body the worker would not take: reading it raises ``error`` (a 400, 408, 413 or 501)."""

    def __init__(self, error: HTTPException) -> None:
        self.error = error

    def read(self, size: int | None = -1) -> bytes:
        raise self.error

    readline = read

    def readlines(self, hint: int | None = -1) -> list[bytes]:
        raise self.error

    def __iter__(self) -> RefusedBody:
        return self

    def __next__(self) -> bytes:
        raise self.error


# A classic BPF socket filter (Linux's SO_ATTACH_FILTER) that drops every TCP segment with SYN set
# and ACK clear, a request for a new connection, and passes every other: the handshakes under way
# finish and the connections in the backlog keep their data. A filtered SYN is not answered, so the
# client sends it again a second later and is then refused, as nothing listens any more: a refusal
# before anything was sent, which a client or an ingress may retry elsewhere.
SO_ATTACH_FILTER = 26  # Linux's, which the socket module does not name
TCP_FLAGS_OFFSET = 13  # the filter sees the segment from its TCP header
NEW_CONNECTION_FILTER = (
    (0x30, 0, 0, TCP_FLAGS_OFFSET),  # load the flags byte
    (0x54, 0, 0, 0x12),  # keep SYN and ACK
    (0x15, 0, 1, 0x02),  # SYN alone: next instruction, else the one after
    (0x06, 0, 0, 0),  # drop
    (0x06, 0, 0, 0xFFFFFFFF),  # pass whole
)


def refuse_new_connections(sock: socket.socket) -> bool:
    """Make a listening TCP socket ignore new connection requests, for every process that holds it;
    False where the system has no socket filters (the server then stops as it would without)."""
    if sys.platform != "linux" or sock.family not in (socket.AF_INET, socket.AF_INET6):
        return False
    code = ctypes.create_string_buffer(b"".join(struct.pack("HBBI", *line) for line in NEW_CONNECTION_FILTER))
    program = struct.pack("HL", len(NEW_CONNECTION_FILTER), ctypes.addressof(code))  # struct sock_fprog
    try:
        sock.setsockopt(socket.SOL_SOCKET, SO_ATTACH_FILTER, program)
    except OSError:
        return False
    return True


class DrainingServer(StreamServer):  # type: ignore[misc]
    """A listener that, when closed, first accepts and serves every connection already waiting.

    The kernel queues connections until a worker accepts them; closing the last copy of the
    listening socket resets whatever is still queued, although those clients have sent their
    requests. Under load a worker busy with a request leaves connections queued.
    """

    def close(self) -> None:
        while not self.closed:
            waiting = self.do_read()
            if waiting is None:
                break
            self.do_handle(*waiting)
        super().close()


class ListenerName:
    """What gunicorn's handler asks of the listening socket: its name. A connection taken from the
    backlog as the listener closes is served after the socket is gone."""

    def __init__(self, sock: Any) -> None:
        self.name = sock.getsockname()

    def getsockname(self) -> Any:
        return self.name


class HeadDeadline:
    """The time a connection has to deliver a request's line and headers (``keepalive`` seconds,
    idle time included), kept in ``waiting`` so that a stopping worker can end the wait early."""

    def __init__(self, seconds: float, waiting: dict[gevent.Timeout, Any]) -> None:
        self.timeout = gevent.Timeout(seconds, False)  # False: expiring ends the wait, quietly
        self.waiting = waiting

    def __enter__(self) -> None:
        self.waiting[self.timeout] = gevent.getcurrent()
        self.timeout.start()

    def __exit__(self, *exc: Any) -> bool:
        self.waiting.pop(self.timeout, None)
        return bool(self.timeout.__exit__(*exc))


class Turns:
    """One at a time, strictly in the order they came: a turn that ends goes to the longest waiter.
    (gevent's Semaphore lets a greenlet that asks while the next waiter is being woken go first.)"""

    def __init__(self) -> None:
        self.taken = False
        self.waiting: deque[Event] = deque()

    def __enter__(self) -> None:
        if not self.taken and not self.waiting:
            self.taken = True
            return
        mine = Event()
        self.waiting.append(mine)
        try:
            mine.wait()  # until __exit__ hands the turn over: taken stays True
        except BaseException:  # killed while waiting: give up the place, or the turn if it came
            if mine.is_set():
                self.__exit__()
            else:
                self.waiting.remove(mine)
            raise

    def __exit__(self, *exc: Any) -> None:
        if self.waiting:
            self.waiting.popleft().set()
        else:
            self.taken = False


def after_a_poll() -> None:
    """Wait until the loop has polled every connection once. A timer already due: the loop polls
    without blocking, then runs it (one due in the future, however soon, makes the poll wait a whole
    millisecond, epoll's grain, whenever no other connection has anything to say)."""
    hub = gevent.get_hub()
    with hub.loop.timer(0) as timer:
        hub.wait(timer)


def header(req: Any, wanted: str) -> str | None:
    for name, value in req.headers:
        if name == wanted:
            return str(value)
    return None


def unknown_codings(req: Any) -> list[str]:
    """The transfer codings of the request other than chunked (gunicorn reads ``gzip, chunked`` as
    chunked, leaving the gzip to the app: a proxy that decodes it would judge another body)."""
    codings = (header(req, "TRANSFER-ENCODING") or "").lower().split(",")
    return [coding.strip() for coding in codings if coding.strip() not in ("", "chunked")]


class Worker(GeventWorker):  # type: ignore[misc]  # gunicorn has no type information
    wsgi: Any  # the app, as gunicorn loaded it and then as computing_in_turn wraps it

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.client_timeout = float(settings.current().client_timeout)  # CHKOBBA_CLIENT_TIMEOUT
        self.waiting: dict[gevent.Timeout, Any] = {}  # connections between requests: deadline -> greenlet
        self.stopping = Event()  # set with alive = False, so that the loop below stops at once
        self.turns = Turns()  # one request computes at a time, in the order they came

    def load_wsgi(self) -> None:
        super().load_wsgi()
        self.wsgi = self.computing_in_turn(self.wsgi)

    def computing_in_turn(self, app: Any) -> Any:
        """``app``, called one request at a time, each after the loop has looked at every connection.

        In a greenlet a request's computation runs to its end, and a kept-alive (or pipelined) client
        whose next request is already there would be served again and again, the loop never polling:
        32 clients sending the costliest requests back to back kept /healthz waiting for more than
        10 s. Waiting for the turn puts a request behind those that came before it, and
        ``after_a_poll`` behind the other connections (``gevent.sleep(0)`` only queues it behind other
        greenlets). Only the app's call takes a turn: reading the body and writing the answer wait on
        the client, and a slow client must not hold the others up.
        """

        def in_turn(environ: dict[str, Any], start_response: Any) -> Any:
            if environ.get("PATH_INFO") in PROBE_PATHS:
                return app(environ, start_response)
            with self.turns:
                after_a_poll()
                return app(environ, start_response)

        return in_turn

    def timeout_ctx(self) -> HeadDeadline:
        return HeadDeadline(self.cfg.keepalive if self.alive else min(self.cfg.keepalive, STOP_LINGER), self.waiting)

    def run(self) -> None:
        """gunicorn's gevent loop, with a listener that drains its queue when it closes."""
        ssl = {"ssl_context": ssl_context(self.cfg)} if self.cfg.is_ssl else {}
        servers = []
        for sock in self.sockets:
            sock.setblocking(1)
            pool = Pool(self.worker_connections)
            server = DrainingServer(sock, handle=partial(self.handle, ListenerName(sock)), spawn=pool, **ssl)
            if self.cfg.workers > 1:
                server.max_accept = 1  # leave the next connection to a less busy worker
            server.start()
            servers.append(server)
        while self.alive:
            self.notify()
            self.stopping.wait(1.0)
        for server in servers:
            server.close()
        # Requests in progress have until the graceful timeout; kept-alive connections may send one
        # more request within STOP_LINGER seconds, after which their wait ends as if it expired.
        linger = time.monotonic() + STOP_LINGER
        deadline = time.monotonic() + self.cfg.graceful_timeout
        while any(server.pool.free_count() != server.pool.size for server in servers):
            if time.monotonic() > linger:
                while self.waiting:
                    timeout, greenlet = self.waiting.popitem()
                    greenlet.kill(timeout, block=False)
            if time.monotonic() > deadline:
                self.log.warning("Worker graceful timeout (pid:%s)", self.pid)
                for server in servers:
                    server.stop(timeout=1)
                return
            self.notify()
            gevent.sleep(0.1)

    def handle_exit(self, sig: Any, frame: Any) -> None:  # SIGTERM
        super().handle_exit(sig, frame)
        self.stopping.set()

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        req.body = self.read_body(req, sock)
        deadline = gevent.Timeout(self.client_timeout)
        deadline.start()
        try:
            return super().handle_request(listener_name, req, sock, addr)
        except gevent.Timeout as expired:
            if expired is not deadline:
                raise
            self.log.info(
                "Closed a connection after %g s: its request was still waiting for its turn, or its client had not "
                "taken the answer",
                self.client_timeout,
            )
            raise StopIteration from None  # gunicorn's way to end a connection quietly
        finally:
            deadline.cancel()
            if not self.alive:  # max_requests reached: recycle now, not at the next heartbeat
                self.stopping.set()

    def read_body(self, req: Any, sock: Any) -> Any:
        """The whole body as a stream, or a ``RefusedBody``; a refused body closes the connection,
        since the rest of it may still be on the way.

        A client that asked to be told to go on (``Expect: 100-continue``) is told so here, before
        the body is read, and only if the body will be taken; gunicorn would say it later, after the
        body had been waited for, or before a refusal."""
        # gunicorn has no public name for it; tests/ops/test_slow_clients.py checks both answers.
        expects_continue = getattr(req, "_expected_100_continue", False)
        req._expected_100_continue = False
        length_text = header(req, "CONTENT-LENGTH")
        length = None if length_text is None else int(length_text)  # gunicorn refused anything but digits
        refused = self.refusal(req, length)
        if refused is not None:
            req.must_close = True
            return RefusedBody(refused)
        if length == 0:
            return io.BytesIO()
        if expects_continue:
            sock.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
        try:
            with gevent.Timeout(self.client_timeout):
                data = req.body.read(MAX_BODY_BYTES + 1)
        except gevent.Timeout:
            req.must_close = True
            return RefusedBody(RequestTimeout(f"the request body did not arrive within {self.client_timeout:g} s"))
        except errors.NoMoreData:  # the client stopped sending (and said so) before the last chunk
            req.must_close = True
            return RefusedBody(BadRequest("the body ended before its last chunk"))
        if len(data) > MAX_BODY_BYTES:
            req.must_close = True
            return RefusedBody(RequestEntityTooLarge())
        if length is not None and len(data) < length:
            req.must_close = True
            return RefusedBody(BadRequest(f"the body ended after {len(data)} of the {length} bytes it announced"))
        return io.BytesIO(data)

    @staticmethod
    def refusal(req: Any, length: int | None) -> HTTPException | None:
        """Why the body is refused before a byte of it is read, if it is."""
        codings = unknown_codings(req)
        if codings:
            return NotImplementedCoding(f"the transfer coding {codings[0]!r} is not supported; send the body as it is")
        if length is not None and length > MAX_BODY_BYTES:
            return RequestEntityTooLarge()
        return None

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        status = next((status for kind, status in UNPARSED if isinstance(exc, kind)), None)
        if status is None:
            super().handle_error(req, client, addr, exc)
            return
        self.log.warning("Invalid request from ip=%s: %s", (addr or ("",))[0], exc)
        metrics.observe("unparsed", status, 0.0)
        code = HTTP_CODES[status]
        body = json.dumps(problem(status, code, http_title(status), str(exc)[:200] or http_title(status))).encode()
        head = f"HTTP/1.1 {status} {http_title(status)}\r\nConnection: close\r\nContent-Type: {PROBLEM_MEDIA_TYPE}\r\n"
        head += "X-Content-Type-Options: nosniff\r\n"
        if settings.current().cors_origins == (settings.ANY_ORIGIN,):  # as the app's every answer (cors.py)
            head += f"Access-Control-Allow-Origin: {settings.ANY_ORIGIN}\r\n"
        head += f"Content-Length: {len(body)}\r\n\r\n"
        try:
            write_nonblock(client, head.encode("latin-1") + body)
        except OSError:
            self.log.debug("Failed to send error message.")
