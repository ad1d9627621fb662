"""Request ids and structured access logs: one JSON line per request, written by the app
(``service.ops.observe`` calls them for every request).

Every response carries ``X-Request-ID``: the caller's own when it is well formed (so a client or a
proxy can follow its request through the logs), else one generated here. The access log is written
by the app rather than by gunicorn because only the app knows the operation a request reached;
gunicorn's own access log stays off (``gunicorn.conf.py``), so each request is logged exactly once.

``CHKOBBA_ACCESS_LOG`` (``Settings.access_log``; ``ACCESS_LOG`` in the app's config) says where the lines go: ``-``
(the default) for standard output, an empty value for nowhere, anything else for a file to append to.
"""

from __future__ import annotations

import re
import sys
import threading
from random import getrandbits
from typing import IO, Any

import orjson

REQUEST_ID_HEADER = "X-Request-ID"
# What a caller may send as its own id: short, and nothing that could break a header or a log line.
# UUIDs, ULIDs, hex trace ids and "Root=1-...;Parent=..." tracing headers all fit.
REQUEST_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:;=+/@~-]{0,127}")


def request_id_from(incoming: str | None) -> str:
    """The caller's id when it is well formed, else a fresh one."""
    if incoming is not None and REQUEST_ID_PATTERN.fullmatch(incoming):
        return incoming
    # 32 hex digits, like a UUID's hex form. An id must be unique, not secret: the random module's
    # generator (seeded from the OS, and seeded again in every forked worker) costs half of
    # secrets.token_hex, which asks the kernel for every id.
    return f"{getrandbits(128):032x}"


class AccessLog:
    """Writes one JSON object per line to standard output (looked up at each write) or to a file."""

    def __init__(self, destination: str) -> None:
        self.destination = destination
        self._lock = threading.Lock()  # whole lines even under threaded workers
        self._file: IO[str] | None = None
        if destination not in ("", "-"):
            self._file = open(destination, "a", encoding="utf-8", buffering=1)

    @property
    def enabled(self) -> bool:
        return self.destination != ""

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        self.destination = ""  # closed: write nothing more

    def write(self, record: dict[str, Any]) -> None:
        if not self.enabled:
            return
        line = orjson.dumps(record).decode() + "\n"  # strings and small numbers: orjson writes them all
        stream = self._file or sys.stdout
        with self._lock:
            stream.write(line)
            stream.flush()
