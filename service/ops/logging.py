"""Request ids and structured access logs: one JSON line per request, written by the app.

Every response carries ``X-Request-ID``: the caller's own when it is well formed (so a client or a
proxy can follow its request through the logs), else one generated here. The access log is written
by the app rather than by gunicorn because only the app knows the operation a request reached;
gunicorn's own access log stays off (``gunicorn.conf.py``), so each request is logged exactly once.

``CHKOBBA_ACCESS_LOG`` (read as the app's ``ACCESS_LOG`` setting) says where the lines go: ``-``
(the default) for standard output, an empty value for nowhere, anything else for a file to append to.
"""

from __future__ import annotations

import json
import re
import sys
import threading
import time
import uuid
from datetime import UTC, datetime
from typing import IO, Any

from flask import Flask, Response, g, request
from flask.signals import got_request_exception

from service.api.operations import ENDPOINT_TO_OPERATION

REQUEST_ID_HEADER = "X-Request-ID"
# What a caller may send as its own id: short, and nothing that could break a header or a log line.
# UUIDs, ULIDs, hex trace ids and "Root=1-...;Parent=..." tracing headers all fit.
REQUEST_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:;=+/@~-]{0,127}")


def request_id_from(incoming: str | None) -> str:
    """The caller's id when it is well formed, else a fresh one."""
    if incoming is not None and REQUEST_ID_PATTERN.fullmatch(incoming):
        return incoming
    return uuid.uuid4().hex


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
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
        stream = self._file or sys.stdout
        with self._lock:
            stream.write(line)
            stream.flush()


def _operation() -> str:
    if request.url_rule is None:
        return "unmatched"
    return ENDPOINT_TO_OPERATION.get(request.endpoint or "", request.endpoint or "unmatched")


def install(app: Flask) -> None:
    """Give every request an id, echo it in every response, and log every request once."""
    destination = app.config.get("ACCESS_LOG", "-")
    log = AccessLog("" if destination is None else str(destination))
    app.extensions["chkobba_access_log"] = log

    @app.before_request
    def _begin() -> None:
        g.request_id = request_id_from(request.headers.get(REQUEST_ID_HEADER))
        g.access_start = time.perf_counter()

    def _note_exception(sender: Flask, exception: BaseException, **extra: Any) -> None:  # noqa: ARG001
        g.access_error = type(exception).__name__

    # weak=False: the receiver is a local function, which a weak reference would lose at once.
    got_request_exception.connect(_note_exception, app, weak=False)

    @app.after_request
    def _finish(response: Response) -> Response:
        request_id = g.get("request_id") or request_id_from(request.headers.get(REQUEST_ID_HEADER))
        response.headers[REQUEST_ID_HEADER] = request_id
        if log.enabled:
            start = g.get("access_start")
            record: dict[str, Any] = {
                "time": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                "log": "access",
                "request_id": request_id,
                "method": request.method,
                "path": request.path,
                "operation": _operation(),
                "status": response.status_code,
                "duration_ms": round((time.perf_counter() - start) * 1000, 3) if start is not None else None,
                "bytes": response.content_length,
                "remote_addr": request.remote_addr,
                "user_agent": request.headers.get("User-Agent"),
            }
            error = g.get("access_error")
            if error:
                record["error"] = error
            log.write(record)
        return response
