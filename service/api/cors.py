"""Calls from pages on other origins (CORS), allowed by ``CHKOBBA_CORS_ORIGINS``.

The setting lists the allowed origins, comma-separated (``https://referee.example,http://localhost:5173``),
or is ``*`` alone for any origin; unset or empty, the service sends no CORS header at all and only
pages of its own origin can read its answers. flask-cors writes the headers, on the ``/v1/`` API only
(the probes, ``/metrics`` and the pages stay same-origin), problems included, and answers preflights
with Flask's own OPTIONS answer: no view, no rules. No credentials: the API has no cookies or logins.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask, Response, request
from flask_cors import CORS

from service.ops.logging import REQUEST_ID_HEADER

SETTING = "CHKOBBA_CORS_ORIGINS"
ANY = "*"
API_PATHS = re.compile(r"/v1/")
MAX_AGE_SECONDS = 7200  # how long a browser may keep a preflight's answer: Chromium's cap
# An origin as a browser sends it: scheme, host (a name, an IPv4 address or a bracketed IPv6 one), port.
ORIGIN = re.compile(r"https?://(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::(?P<port>[0-9]{1,5}))?")


def origins_from(value: Any) -> list[str]:
    """The origins the setting allows: none when it is unset or empty, ``["*"]`` for any origin.

    Anything else than origins (a path, a missing scheme, ``*`` in a list) raises a ValueError of one
    line that names the setting: a typo would otherwise leave every page blocked, or every page allowed.
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return []
    if not isinstance(value, str):  # from_prefixed_env reads JSON: 8080 or [...] is no list of origins
        raise ValueError(f"{SETTING} must be origins separated by commas, or * alone; not {value!r}")
    origins = [entry.strip() for entry in value.split(",")]
    if ANY in origins:
        if origins != [ANY]:
            raise ValueError(f"{SETTING}: * allows every origin, so it stands alone, not in a list: {value!r}")
        return origins
    for origin in origins:
        match = ORIGIN.fullmatch(origin)
        if match is None or int(match["port"] or 0) > 65535:
            raise ValueError(
                f"{SETTING}: {origin!r} is not an origin; write http(s)://host[:port], with no path or "
                "trailing slash, origins separated by commas, or * alone for any origin"
            )
    return origins


def install(app: Flask, origins: list[str]) -> None:
    """Send CORS headers on the API's answers to the ``origins`` (nothing when there are none)."""
    if not origins:
        return
    anyone = origins == [ANY]
    # Every flask-cors option is given here, so that the app's CORS_* settings, which flask-cors would
    # read too (CHKOBBA_CORS_* variables land there), change nothing but through the one setting.
    CORS(
        app,
        resources=API_PATHS,
        # Exact patterns rather than strings: flask-cors takes a string with brackets, as an IPv6
        # host has, for a regular expression. Origins compare without regard to case, as browsers do.
        origins=ANY if anyone else [re.compile(re.escape(o) + r"\Z", re.IGNORECASE) for o in origins],
        send_wildcard=anyone,  # "*" itself, never the caller's origin, when any origin is allowed
        methods=["GET", "POST", "OPTIONS"],
        allow_headers=["Content-Type", REQUEST_ID_HEADER],
        expose_headers=[REQUEST_ID_HEADER, "Allow"],  # Allow: the methods a 405 problem names
        max_age=MAX_AGE_SECONDS,
        supports_credentials=False,
        always_send=False,  # no Origin, no CORS headers (flask-cors would list every allowed origin)
        vary_header=False,  # Vary: Origin is added below, on every answer that depends on the origin
        automatic_options=True,
        intercept_exceptions=False,  # Flask runs after_request on error answers, 500 included
        allow_private_network=False,
    )
    if not anyone:
        app.after_request(_vary_on_origin)


def _vary_on_origin(response: Response) -> Response:
    """With a list of origins, an API answer depends on the request's Origin (whether it is allowed),
    with or without CORS headers: a cache must not give one origin's answer to another. flask-cors
    says so only when it allows the origin and more than one could be."""
    if API_PATHS.match(request.path):
        response.vary.add("Origin")
    return response
