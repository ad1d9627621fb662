"""What every request leaves behind: its id in the answer, one access log line, and its metrics.

A WSGI middleware rather than Flask hooks: it sees every answer, the ones Flask or Werkzeug make on
their own (404, 405, 413) included, and it costs a fraction of what hooks reaching through Flask's
context proxies cost on every request.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from time import perf_counter
from typing import Any

from flask import Flask, Request, request
from flask.signals import got_request_exception
from werkzeug.http import HTTP_STATUS_CODES
from werkzeug.routing import Rule

from . import metrics
from .logging import REQUEST_ID_HEADER, AccessLog, request_id_from

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
# Werkzeug's status lines ("422 UNPROCESSABLE ENTITY") to their codes; any other line is parsed.
_STATUSES = {f"{code} {phrase.upper()}": code for code, phrase in HTTP_STATUS_CODES.items()}
observe = metrics.observe
ERROR_KEY = "chkobba.error"
ENDPOINT_KEY = "chkobba.endpoint"  # Flask empties environ["werkzeug.request"] when it is done
# An OPTIONS request is answered by Flask (and, for a CORS preflight, flask-cors) without the view
# of its path: counted and logged under one of these, never as the operation it asks about.
PREFLIGHT = "preflight"  # a CORS preflight: OPTIONS with Origin and Access-Control-Request-Method
OPTIONS = "options"  # any other OPTIONS
# On every answer: a browser takes each answer for the type it says (JSON, a problem), never sniffs one
# into HTML or a script.
NOSNIFF = ("X-Content-Type-Options", "nosniff")


class Observed:
    def __init__(self, app: WSGIApp, log: AccessLog, operations: Mapping[str, str]) -> None:
        self.app, self.log, self.operations = app, log, operations

    def operation_of(self, environ: dict[str, Any]) -> str:
        """The operation a request reached (its operationId, or the endpoint of a page), "unmatched",
        or for an OPTIONS request to a path that exists, ``PREFLIGHT`` or ``OPTIONS``."""
        endpoint: str | None = environ.get(ENDPOINT_KEY)
        if endpoint is None:
            return "unmatched"
        if environ.get("REQUEST_METHOD") == "OPTIONS":
            preflight = "HTTP_ORIGIN" in environ and "HTTP_ACCESS_CONTROL_REQUEST_METHOD" in environ
            return PREFLIGHT if preflight else OPTIONS
        return self.operations.get(endpoint, endpoint)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        began = perf_counter()
        request_id = request_id_from(environ.get("HTTP_X_REQUEST_ID"))
        answered: tuple[str, list[tuple[str, str]]] | None = None

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            nonlocal answered
            headers.append((REQUEST_ID_HEADER, request_id))
            if not any(name.lower() == "x-content-type-options" for name, _ in headers):  # the pages set it too
                headers.append(NOSNIFF)
            answered = status, headers
            return start_response(status, headers, exc_info)

        body = self.app(environ, start)
        seconds = perf_counter() - began
        status = (_STATUSES.get(answered[0]) or int(answered[0][:3])) if answered else 500
        operation = self.operation_of(environ)
        observe(operation, status, seconds)
        if self.log.destination:  # the log is on (AccessLog.enabled, without a property call)
            self.log.write(self._record(environ, request_id, operation, status, seconds, answered))
        return body

    @staticmethod
    def _record(
        environ: dict[str, Any],
        request_id: str,
        operation: str,
        status: int,
        seconds: float,
        answered: tuple[str, list[tuple[str, str]]] | None,
    ) -> dict[str, Any]:
        length = next((v for k, v in answered[1] if k.lower() == "content-length"), None) if answered else None
        record: dict[str, Any] = {
            "time": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "log": "access",
            "request_id": request_id,
            "method": environ.get("REQUEST_METHOD"),
            "path": environ.get("PATH_INFO"),
            "operation": operation,
            "status": status,
            "duration_ms": round(seconds * 1000, 3),
            "bytes": int(length) if length is not None else None,
            "remote_addr": environ.get("REMOTE_ADDR"),
            "user_agent": environ.get("HTTP_USER_AGENT"),
        }
        error = environ.get(ERROR_KEY)
        if error:
            record["error"] = error
        return record


def install(app: Flask, operations: Mapping[str, str], access_log: str) -> None:
    """Wrap ``app`` so that every request gets an id, a log line (to ``access_log``, as
    ``CHKOBBA_ACCESS_LOG`` has it) and its metrics, under its operation: ``operations`` maps Flask
    endpoints to operationIds (the layer above says which they are)."""
    log = AccessLog(access_log)
    app.extensions["chkobba_access_log"] = log

    def note_exception(sender: Flask, exception: BaseException, **extra: Any) -> None:  # noqa: ARG001
        request.environ[ERROR_KEY] = type(exception).__name__

    # weak=False: the receiver is a local function, which a weak reference would lose at once.
    got_request_exception.connect(note_exception, app, weak=False)
    app.request_class = EndpointNoted
    app.wsgi_app = Observed(app.wsgi_app, log, operations)  # type: ignore[method-assign]


class EndpointNoted(Request):
    """A request that notes its endpoint in the environ the moment Flask matches its URL (Flask
    sets ``url_rule`` then), for ``Observed`` to read once Flask is done: cheaper than a request hook,
    which costs a call through Flask's hook machinery on every request."""

    @property
    def url_rule(self) -> Rule | None:
        rule: Rule | None = self.__dict__.get("_url_rule")
        return rule

    @url_rule.setter
    def url_rule(self, rule: Rule | None) -> None:
        self.__dict__["_url_rule"] = rule
        self.__dict__.pop("_blueprints", None)
        if rule is not None:
            self.environ[ENDPOINT_KEY] = rule.endpoint

    @property
    def blueprints(self) -> list[str]:
        """Flask's, worked out once per request: Flask asks for it three times (before and after the
        view, at teardown), each time from the endpoint's name."""
        found: list[str] | None = self.__dict__.get("_blueprints")
        if found is None:
            found = self.__dict__["_blueprints"] = super().blueprints
        return found
