"""The ceiling of the HTTP benchmark: a bare Flask app, served by gunicorn with the service's settings.

No metrics, no schemas, no rules: one POST view that parses the body with ``json.loads`` and answers
a small JSON object, and ``GET /healthz`` for the readiness wait. No Flask service doing real work
behind the same gunicorn settings can answer faster. Started by ``bench/http.py`` as
``gunicorn -c gunicorn.conf.py "bench.bare_app:create_app()"``.
"""

from __future__ import annotations

import json

from flask import Flask, Response, request


def create_app() -> Flask:
    app = Flask(__name__)

    @app.get("/healthz")
    def healthz() -> Response:
        return Response('{"status":"ok"}', mimetype="application/json")

    @app.post("/v1/<path:operation>")
    def echo(operation: str) -> Response:  # noqa: ARG001 - every benchmarked path lands here
        body = json.loads(request.get_data())
        return Response(json.dumps({"ok": True, "n": len(body)}), mimetype="application/json")

    return app
