"""Pages for people: the interactive API documentation (/docs), the referee's console (/referee), and
the documents of docs/ that a person needs beside them: the rules (/rules, docs/rules.md) and the
seeded shuffle (/docs/seeded-shuffle, docs/seeded-shuffle.md); and the page of each problem code
(/problems/<code>), which every problem's ``type`` names.

The first two are static pages whose scripts call the public API from the browser, exactly as any
client does: nothing here decides a rule. The documents are rendered from their Markdown, with no
script at all (``documents.py``). No page is an API operation, so none is in ``openapi.yaml``
(metrics and the access log name them by endpoint: ``web.referee``, ``web.rules``, ...).

Every asset comes from the service itself. Swagger UI's are the ones the ``flask-swagger-ui`` wheel
ships (Swagger UI 5, which reads OpenAPI 3.1; Apache-2.0, its LICENSE served beside them), pinned in
``constraints.txt`` like every other dependency. A strict Content-Security-Policy then forbids
anything else: no inline script or style, no other origin, no eval, no framing.

Without that package (a broken install) this module still imports and the API still serves: only
/docs lacks Swagger UI, whose files answer 503 saying why, and the app warns at start.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import Any, NamedTuple

from flask import Blueprint, Response, abort, current_app, redirect, render_template, send_from_directory, url_for
from markupsafe import Markup, escape
from werkzeug.exceptions import ServiceUnavailable

from . import documents


class ProblemType(NamedTuple):
    """What a problem code's page says; the app gives the table (the API's codes, service/api/codes.py)
    as ``app.extensions["chkobba.problem_types"]``."""

    status: str  # "422", or "any 4xx"
    title: str
    advice: str


bp = Blueprint("web", __name__, static_folder="static", static_url_path="/web", template_folder="pages")

PAGES_DIR = Path(__file__).resolve().parent / "pages"  # the HTML pages and templates (documents.PAGES: docs/ served)


SWAGGER_UI_MISSING = "flask-swagger-ui is not installed: it ships the Swagger UI files that /docs serves"


@cache
def swagger_ui_dist() -> Path | None:
    """Where the flask-swagger-ui wheel keeps Swagger UI's files (found without importing it), or
    None when it is not installed."""
    spec = find_spec("flask_swagger_ui")
    return None if spec is None or spec.origin is None else Path(spec.origin).parent / "dist"


# Only what /docs loads, and the licence it is shipped under.
SWAGGER_UI_FILES = frozenset({"swagger-ui-bundle.js", "swagger-ui.css", "LICENSE", "VERSION"})

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",  # Swagger UI's stylesheet draws its icons as data: SVGs
        "connect-src 'self'",  # the pages call this service's API, and nothing else
        "font-src 'self'",
        "manifest-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ]
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), geolocation=(), microphone=(), payment=(), usb=()",
}


@bp.after_request
def _security_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


@bp.get("/docs")
def docs() -> Response:
    return _page("docs.html")


@bp.get("/docs/openapi.json")
def docs_spec() -> Response:
    """The committed contract as JSON for Swagger UI, its `servers` replaced by this very service.

    The committed file names `make run`'s address; a page served from anywhere else (a test's free
    port, a deployment) must send "Try it out" to the origin it came from, which the page's CSP
    allows and nothing else.
    """
    cached = current_app.extensions.get("chkobba.docs_spec")
    if cached is None:
        document: dict[str, Any] = json.loads(current_app.config["OPENAPI_JSON"] or b"{}")
        document["servers"] = [{"url": "/", "description": "This service"}]
        cached = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
        current_app.extensions["chkobba.docs_spec"] = cached
    return Response(cached, mimetype="application/json")


@bp.get("/docs/swagger-ui/<name>")
def swagger_ui(name: str) -> Response:
    if name not in SWAGGER_UI_FILES:
        abort(404)
    dist = swagger_ui_dist()
    if dist is None:
        raise ServiceUnavailable(SWAGGER_UI_MISSING)
    mimetype = "text/plain" if name in ("LICENSE", "VERSION") else None
    return send_from_directory(dist, name, mimetype=mimetype)


@bp.get("/referee")
def referee() -> Response:
    return _page("referee.html")


@bp.get("/rules")
def rules() -> Response:
    return _document("rules")


@bp.get("/docs/seeded-shuffle")
def seeded_shuffle() -> Response:
    return _document("seeded-shuffle")


@bp.get("/docs/fair-deals")
def fair_deals() -> Response:
    return _document("fair-deals")


# The documents' paths in the repository, as a relative link or a reader may give them: to their pages.
@bp.get("/docs/rules.md")
def rules_file() -> Response:
    return redirect(url_for("web.rules"), code=301)  # type: ignore[return-value]


@bp.get("/docs/seeded-shuffle.md")
def seeded_shuffle_file() -> Response:
    return redirect(url_for("web.seeded_shuffle"), code=301)  # type: ignore[return-value]


@bp.get("/docs/fair-deals.md")
def fair_deals_file() -> Response:
    return redirect(url_for("web.fair_deals"), code=301)  # type: ignore[return-value]


@bp.get("/problems")
def problem_types() -> Response:
    return _problems(list(_problem_table()), one=False)


@bp.get("/problems/<code>")
def problem_type(code: str) -> Response:
    """The page a problem's ``type`` names: what its code means and what a client should do."""
    if code not in _problem_table():
        abort(404)
    return _problems([code], one=True)


def _problem_table() -> dict[str, ProblemType]:
    table: dict[str, ProblemType] = current_app.extensions["chkobba.problem_types"]
    return table


def _problems(codes: list[str], *, one: bool) -> Response:
    table = _problem_table()
    heading = f"Problem: {codes[0]}" if one else "Problem codes"
    html = render_template(
        "problem.html",
        heading=heading,
        root="../" if one else "",
        links=[{"href": href, "text": text} for href, text in NAVIGATION],
        problems=[
            {"code": code, **table[code]._asdict(), "advice": _with_code_spans(table[code].advice)} for code in codes
        ],
        one=one,
    )
    response = Response(html, mimetype="text/html")
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response


def _with_code_spans(text: str) -> Markup:
    """The advice's `code spans` (Markdown, as the docs show it) as <code>, every other character escaped."""
    return Markup(re.sub(r"`([^`]+)`", r"<code>\1</code>", str(escape(text))))


# The pages' navigation: (href from the root, text).
NAVIGATION = (
    ("referee", "Referee's console"),
    ("docs", "API documentation"),
    ("rules", "Rules"),
    ("docs/seeded-shuffle", "Seeded shuffle"),
    ("docs/fair-deals", "Committed deals"),
)


def _document(name: str) -> Response:
    page = documents.PAGES[name]
    try:
        rendered = documents.rendered(name)
    except FileNotFoundError:
        current_app.logger.error("%s is missing: %s cannot be served", documents.DOCS / page.file, page.path)
        abort(404)
    here = page.path.removeprefix("/")
    contents: list[dict[str, Any]] = []
    for heading in rendered.headings:
        entry = {"anchor": heading.anchor, "html": Markup(heading.html), "children": []}
        if heading.level == 2 or not contents:
            contents.append(entry)
        else:
            contents[-1]["children"].append(entry)
    html = render_template(
        "document.html",
        name=name,
        file=page.file,
        title=rendered.title,
        root="../" * here.count("/"),
        links=[{"href": href, "text": text, "current": href == here} for href, text in NAVIGATION],
        contents=contents,
        body=Markup(rendered.body),
    )
    response = Response(html, mimetype="text/html")
    response.headers["Cache-Control"] = "no-cache"
    return response


def _page(name: str) -> Response:
    response = send_from_directory(PAGES_DIR, name, mimetype="text/html")
    response.headers["Cache-Control"] = "no-cache"
    response.headers.pop("Content-Disposition", None)  # a page to show, not a file named referee.html
    return response
