"""Reading requests and writing answers: the only JSON handling the views share."""

from __future__ import annotations

import io
from typing import Any

from flask import Response, g, request
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.http import parse_options_header

from service.ops.limits import MAX_BODY_BYTES

from . import schemas
from .encoding import JSONRefused, from_json, to_json
from .loading import Loader
from .problems import Problem

LOADERS = {name: Loader(schema) for name, schema in schemas.REQUEST_SCHEMAS.items()}
JSON_MEDIA_TYPE = "application/json"


def body(schema: str) -> dict[str, Any]:
    """The request's JSON object, loaded by the named request schema (raises problems)."""
    # The exact media type first: parsing the header costs more than the test.
    content_type = request.environ.get("CONTENT_TYPE")
    if content_type != JSON_MEDIA_TYPE and not _is_json(content_type):
        raise Problem(
            415, "unsupported-media-type", "send the request body as application/json (charset utf-8, if any)"
        )
    if request.environ.get("HTTP_CONTENT_ENCODING", "identity").strip().lower() != "identity":
        raise Problem(415, "unsupported-media-type", "send the request body as it is, with no content coding")
    try:
        data = from_json(_raw_body())
    except JSONRefused as exc:
        raise Problem(400, exc.code, exc.detail) from None
    g.sent = data  # as the client sent it, for a receipt (service/api/receipts.py); loading leaves it as it is
    return LOADERS[schema].load(data)


def sent() -> Any:
    """This request's body as the client sent it, parsed from JSON but not loaded by any schema: what
    a receipt signs, which the client can rebuild from the body it sent."""
    return g.sent


def _is_json(content_type: str | None) -> bool:
    """``application/json``, with no parameter but ``charset=utf-8``, in any case."""
    media_type, options = parse_options_header(content_type)
    if media_type.lower() != JSON_MEDIA_TYPE:
        return False
    return all(name == "charset" and value.lower() == "utf-8" for name, value in options.items())


def _raw_body() -> bytes:
    """The whole body, never a part of it. gunicorn's worker (service/ops/worker.py) hands the app
    the body read whole, in memory, and it is taken as it is (Werkzeug's stream around it cost a
    tenth of a playRound request). Behind another server, a body sent without a Content-Length
    (chunked) is cut by Werkzeug at the limit without a word, so one byte more is looked for."""
    stream = request.environ["wsgi.input"]
    if type(stream) is io.BytesIO:  # in memory: the worker's, or a test client's
        raw = stream.read(MAX_BODY_BYTES + 1)
        if len(raw) > MAX_BODY_BYTES:
            raise RequestEntityTooLarge()
        return raw
    raw = request.get_data(cache=False)
    if len(raw) >= MAX_BODY_BYTES and request.content_length is None and request.environ["wsgi.input"].read(1):
        raise RequestEntityTooLarge()
    return raw


def answer(data: Any, status: int = 200) -> Response:
    # content_type, not mimetype: the same header, without Werkzeug deciding whether to add a charset.
    return Response(to_json(data), status=status, content_type="application/json")
