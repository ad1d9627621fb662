"""The application factory: wires the HTTP edge, the operational endpoints and metrics."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from service.api import problems
from service.api import views as api_views
from service.ops import metrics
from service.ops import views as ops_views

MAX_BODY_BYTES = 64 * 1024  # a full round record is about 4 KiB


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY_BYTES, OPENAPI_YAML=ops_views.load_spec())
    app.config.from_prefixed_env("CHKOBBA")
    if config:
        app.config.update(config)
    problems.register(app)
    app.register_blueprint(api_views.bp)
    app.register_blueprint(ops_views.bp)
    metrics.instrument(app)
    return app
