"""The problem document (RFC 9457) that every refusal is: its media type, the base of its type URIs,
and the stable codes of the refusals made at the HTTP level, by Werkzeug or by the gunicorn worker."""

from __future__ import annotations

from typing import Any

from werkzeug.http import HTTP_STATUS_CODES

PROBLEM_TYPE = "https://chkobba-referee.dev/problems/"
MEDIA_TYPE = "application/problem+json"
HTTP_CODES = {
    400: "malformed-request",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    406: "not-acceptable",
    408: "request-timeout",
    413: "body-too-large",
    414: "uri-too-long",
    415: "unsupported-media-type",
    417: "expectation-failed",
    431: "headers-too-large",
    501: "not-implemented",
}


def http_title(status: int) -> str:
    return HTTP_STATUS_CODES.get(status, "Error")


def problem(status: int, code: str, title: str, detail: str, **extra: Any) -> dict[str, Any]:
    return {"type": PROBLEM_TYPE + code, "title": title, "status": status, "detail": detail, "code": code, **extra}
