"""The metrics on an address of their own (``CHKOBBA_METRICS_ADDRESS``), served by gunicorn's master.

Once that address is set, the service's own port answers 404 for ``/metrics`` under any spelling
(``service.ops.observe``), so that a proxy's rule for one spelling of the path cannot leave them
public; here one thread of the master answers ``GET /metrics`` (and nothing else) with the merge of
the workers' files, as the service's ``/metrics`` would. The master forks its workers before any
request comes here, and a fork keeps only the forking thread: the workers never serve this address.
"""

from __future__ import annotations

import socket
import sys
import threading
from collections.abc import Callable, Iterable
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

from .metrics import KEYS_MADE
from .metrics_archive import LockedCollector

PATH = "/metrics"
NOSNIFF = ("X-Content-Type-Options", "nosniff")
TIMEOUT_SECONDS = 5.0  # a connection idle this long is closed: it held a thread of the master
# ...and one that has not had its answer this long after it opened, however steadily it trickles
# (a byte every few seconds would reset the timeout above for ever, and MAX_CONNECTIONS of them
# would keep the scraper out). A scrape's request is one packet, its answer a few KiB.
CONNECTION_SECONDS = 5.0
MAX_CONNECTIONS = 8  # served at once, each by a thread of its own; one more is closed unanswered


class _Server(ThreadingMixIn, WSGIServer):
    """A thread per connection, but at most ``MAX_CONNECTIONS`` of them: an idle connection would
    otherwise hold a thread of gunicorn's master for ever (500 of them, 182 threads)."""

    daemon_threads = True
    allow_reuse_address = True
    block_on_close = False
    request_queue_size = 64  # the listen backlog

    def server_activate(self) -> None:
        super().server_activate()
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._slots.acquire(blocking=False):
            self.shutdown_request(request)  # too many at once: a scraper retries at its next interval
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client too slow (the socket's timeout) or gone is no error of the server's: no traceback."""
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        deadline = threading.Timer(CONNECTION_SECONDS, _cut, (request,))
        deadline.daemon = True
        deadline.start()
        try:
            super().process_request_thread(request, client_address)
        finally:
            deadline.cancel()
            self._slots.release()


def _cut(sock: socket.socket) -> None:
    """End a connection past its time: a read or write waiting on it returns at once."""
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:  # already closed
        pass


class _Server6(_Server):
    address_family = socket.AF_INET6


class _Quiet(WSGIRequestHandler):
    timeout = TIMEOUT_SECONDS  # the socket's, set in setup(): a read or write slower than it ends the connection

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the scrapes are not logged
        pass


def metrics_app(directory: str) -> Callable[..., Iterable[bytes]]:
    """A WSGI app answering ``GET /metrics`` with the merge of the workers' files in ``directory``."""
    registry = CollectorRegistry()
    registry.register(LockedCollector(directory))
    registry.register(KEYS_MADE)

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("PATH_INFO") != PATH:
            start_response("404 Not Found", [("Content-Type", "text/plain; charset=utf-8"), NOSNIFF])
            return [b"not found: only /metrics is served here\n"]
        if environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
            start_response("405 Method Not Allowed", [("Allow", "GET, HEAD"), ("Content-Type", "text/plain"), NOSNIFF])
            return [b"GET only\n"]
        body = generate_latest(registry)
        start_response("200 OK", [("Content-Type", CONTENT_TYPE_LATEST), ("Content-Length", str(len(body))), NOSNIFF])
        return [body]

    return app


def split_address(address: str) -> tuple[str, int]:
    """``HOST:PORT`` (an IPv6 host in brackets) as a host and a port."""
    host, _, port = address.rpartition(":")
    return host.strip("[]"), int(port)


def serve_metrics(address: str, directory: str, log: Any) -> _Server:
    """Serve the metrics on ``address`` from a daemon thread; a port that cannot be bound stops the
    start with one line naming the setting."""
    host, port = split_address(address)
    server_class = _Server6 if ":" in host else _Server
    try:
        server = make_server(host, port, metrics_app(directory), server_class=server_class, handler_class=_Quiet)
    except OSError as error:
        raise SystemExit(f"CHKOBBA_METRICS_ADDRESS: cannot listen on {address}: {error.strerror}") from None
    threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()
    log.info("Metrics at http://%s%s", address, PATH)
    return server
