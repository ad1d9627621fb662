"""Reading requests and writing answers: the only JSON handling the views share."""

from __future__ import annotations

import json
from typing import Any

from flask import Response, request

from . import schemas
from .encoding import to_json
from .loading import Loader
from .problems import Problem

LOADERS = {name: Loader(schema) for name, schema in schemas.REQUESTS.items()}


def body(schema: str) -> dict[str, Any]:
    """The request's JSON object, loaded by the named request schema (raises problems)."""
    # The exact media type first: parsing the header, as is_json does, costs more than the test.
    if request.environ.get("CONTENT_TYPE") != "application/json" and not request.is_json:
        raise Problem(415, "unsupported-media-type", "send the request body as application/json")
    raw = request.get_data(cache=False)
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:  # RecursionError: absurdly nested input
        raise Problem(400, "malformed-json", f"the body is not valid JSON: {str(exc)[:200]}") from None
    return LOADERS[schema].load(data)


def answer(data: Any, status: int = 200) -> Response:
    # content_type, not mimetype: the same header, without Werkzeug deciding whether to add a charset.
    return Response(to_json(data), status=status, content_type="application/json")
