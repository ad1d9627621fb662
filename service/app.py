"""The application factory: wires the HTTP edge, the pages, the operational endpoints and metrics."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from service import web
from service.api import adjudication, cors, hints, operational, problems, rounds
from service.api.operations import ENDPOINT_TO_OPERATION
from service.api.sealing import Sealer
from service.ops import observe
from service.ops.limits import MAX_BODY_BYTES


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    spec_yaml, spec_json = operational.load_spec()
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY_BYTES, OPENAPI_YAML=spec_yaml, OPENAPI_JSON=spec_json)
    app.config.from_prefixed_env("CHKOBBA")
    if config:
        app.config.update(config)
    cors_origins = cors.origins_from(app.config.get("CORS_ORIGINS"))  # CHKOBBA_CORS_ORIGINS
    sealer = Sealer.from_config(app.config)
    if sealer.ephemeral and not app.testing:
        app.logger.warning(
            "CHKOBBA_STATE_KEYS is not set: sealed states use a key generated at start, which will not "
            "survive a restart or span replicas"
        )
    app.extensions["chkobba.sealer"] = sealer
    problems.register(app)
    app.register_blueprint(adjudication.bp)
    app.register_blueprint(rounds.bp)
    app.register_blueprint(hints.bp)
    app.register_blueprint(operational.bp)
    app.register_blueprint(web.bp)
    if web.swagger_ui_dist() is None:
        app.logger.warning("%s; the API is unaffected", web.SWAGGER_UI_MISSING)
    cors.install(app, cors_origins)
    observe.install(app, ENDPOINT_TO_OPERATION)
    return app
