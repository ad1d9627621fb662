"""Calls from pages on other origins (CORS), allowed by ``CHKOBBA_CORS_ORIGINS``.

The setting lists the allowed origins, comma-separated (``https://referee.example,http://localhost:5173``),
or is ``*`` alone for any origin; unset or empty, the service sends no CORS header at all and only
pages of its own origin can read its answers. flask-cors writes the headers, problems included: with
a list of origins on the ``/v1/`` API and the receipt keys (``/.well-known/jwks.json``) only (the
probes, ``/metrics`` and the pages stay same-origin); with ``*``, which makes everything public anyway,
on every answer, so that no answer a cache keeps lacks it. It answers preflights
with Flask's own OPTIONS answer: no view, no rules. No credentials: the API has no cookies or logins.
The setting is read and checked with every other one, by ``service.ops.settings``; here it is wired.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from flask import Flask, Response, request
from flask_cors import CORS

from service.ops.logging import REQUEST_ID_HEADER
from service.ops.settings import ANY_ORIGIN as ANY

# The API, and the keys that verify its receipts (a page may verify one with keys it fetches).
API_PATHS = re.compile(r"/v1/|/\.well-known/jwks\.json\Z")
EVERY_PATH = re.compile(r"/")
MAX_AGE_SECONDS = 7200  # how long a browser may keep a preflight's answer: Chromium's cap


def install(app: Flask, origins: Sequence[str]) -> None:
    """Send CORS headers on the API's answers to the ``origins`` (nothing when there are none), as
    ``CHKOBBA_CORS_ORIGINS`` gives them (``Settings.cors_origins``)."""
    if not origins:
        return
    anyone = tuple(origins) == (ANY,)
    # Every flask-cors option is given here, so that the app's CORS_* config, which flask-cors would
    # read too, changes nothing: CHKOBBA_CORS_ORIGINS is the one setting.
    CORS(
        app,
        resources=EVERY_PATH if anyone else API_PATHS,
        # Exact patterns rather than strings: flask-cors takes a string with brackets, as an IPv6
        # host has, for a regular expression. Origins compare without regard to case, as browsers do.
        origins=ANY if anyone else [re.compile(re.escape(o) + r"\Z", re.IGNORECASE) for o in origins],
        send_wildcard=anyone,  # "*" itself, never the caller's origin, when any origin is allowed
        methods=["GET", "POST", "OPTIONS"],
        allow_headers=["Content-Type", REQUEST_ID_HEADER],
        expose_headers=[REQUEST_ID_HEADER, "Allow"],  # Allow: the methods a 405 problem names
        max_age=MAX_AGE_SECONDS,
        supports_credentials=False,
        # With any origin allowed, "*" on every answer, one without Origin too: an answer a cache kept
        # for a request without Origin (the JWKS, say) must serve a page's request as well. With a list,
        # no Origin, no CORS headers (flask-cors would list every allowed origin).
        always_send=anyone,
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
