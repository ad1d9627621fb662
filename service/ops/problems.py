"""The problem document (RFC 9457) that every refusal is: its media type, the base of its type URIs,
and the stable codes of the refusals made at the HTTP level, by Werkzeug or by the gunicorn worker.
The codes of the API's own refusals (a body, a contract, the rules) are the API's: service/api/codes.py."""

from __future__ import annotations

from typing import Any, NamedTuple

from werkzeug.http import HTTP_STATUS_CODES

from .limits import MAX_BODY_BYTES, MAX_REQUEST_LINE

# A problem's type is the path of its code's page on this service (service/web: what the code means and
# what a client should do), resolved against the request's URL as RFC 9457 §3.1.1 says.
PROBLEM_TYPE = "/problems/"
PROBLEM_MEDIA_TYPE = "application/problem+json"


class Code(NamedTuple):
    status: int | None  # None: the status varies
    advice: str  # what a client should do about it (docs/api.md, "Problem codes")


# The refusals made before the app reads a body; service/api/codes.py adds the app's to make the
# table of every code the service answers with.
HTTP_LEVEL_CODES: dict[str, Code] = {
    # Refused at the HTTP level, before the body is read (Werkzeug or service/ops/worker.py).
    "malformed-request": Code(
        400,
        "A client bug: the request is not HTTP/1.1, or the body is shorter than its "
        "Content-Length or lacks its last chunk. Fix the client; do not retry the same bytes.",
    ),
    "forbidden": Code(403, "A proxy header came from an address not trusted to send it. Fix the deployment."),
    "not-found": Code(404, "No such path. Check the path against the contract."),
    "method-not-allowed": Code(405, "Use a method named in the Allow header."),
    "request-timeout": Code(
        408, "The body came too slowly. Retry on a better connection: every operation is free of side effects."
    ),
    "body-too-large": Code(
        413, f"The body is over {MAX_BODY_BYTES // 1024} KiB. No valid request is that large: fix the client."
    ),
    "uri-too-long": Code(414, f"The request line is over {MAX_REQUEST_LINE:,} bytes. Fix the client."),
    "unsupported-media-type": Code(
        415, "Send Content-Type: application/json (charset=utf-8 at most), without a content coding."
    ),
    "expectation-failed": Code(417, "Send no Expect header, or Expect: 100-continue."),
    "headers-too-large": Code(431, "Send fewer or shorter headers."),
    "not-implemented": Code(501, "Send the body as it is or chunked, with no other transfer coding."),
    "http-error": Code(None, "Another refusal of the HTTP layer; the status says which. Fix the request."),
}

# The code of a refusal made at the HTTP level, by its status.
HTTP_CODES = {code.status: name for name, code in HTTP_LEVEL_CODES.items() if code.status not in (None, 400)}
HTTP_CODES[400] = "malformed-request"
HTTP_FALLBACK = "http-error"


def http_title(status: int) -> str:
    return HTTP_STATUS_CODES.get(status, "Error")


def problem(status: int, code: str, title: str, detail: str, **extra: Any) -> dict[str, Any]:
    return {"type": PROBLEM_TYPE + code, "title": title, "status": status, "detail": detail, "code": code, **extra}
