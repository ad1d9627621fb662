"""The listening socket of a stopping server (service/ops/worker.py, ``refuse_new_connections``): no
new connection joins its backlog, while the connections already in it keep their requests and are
served. Without this, a connection that completed its handshake between a worker's last look at the
backlog and the close of the socket was reset after its request was sent (one run in about twenty
of tests/ops/test_graceful_shutdown.py under load)."""

from __future__ import annotations

import socket
import sys
from contextlib import closing

import pytest

from service.ops.worker import refuse_new_connections

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="socket filters are Linux's")


def test_a_listener_that_refuses_new_connections_still_serves_those_it_holds() -> None:
    with closing(socket.create_server(("127.0.0.1", 0), backlog=16)) as listener:
        port = listener.getsockname()[1]
        accepted_before = socket.create_connection(("127.0.0.1", port), timeout=5)
        served, _ = listener.accept()
        waiting = socket.create_connection(("127.0.0.1", port), timeout=5)  # in the backlog, not accepted
        with closing(accepted_before), closing(served), closing(waiting):
            assert refuse_new_connections(listener)

            late = socket.socket()
            late.settimeout(0.5)
            with closing(late), pytest.raises(TimeoutError):  # its SYN goes unanswered
                late.connect(("127.0.0.1", port))

            waiting.sendall(b"sent before the stop")
            queued, _ = listener.accept()
            with closing(queued):
                queued.settimeout(5)
                assert queued.recv(100) == b"sent before the stop"
                queued.sendall(b"answered")
                assert waiting.recv(100) == b"answered"
            accepted_before.sendall(b"still talking")
            served.settimeout(5)
            assert served.recv(100) == b"still talking"


def test_only_tcp_listeners_take_the_filter() -> None:
    with closing(socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)) as unix:
        assert not refuse_new_connections(unix)
