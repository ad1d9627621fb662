"""The application factory: wires the HTTP edge, the pages, the operational endpoints and metrics."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from service import web
from service.api import adjudication, cors, deals, hints, matches, operational, problems, reviews, rounds
from service.api.operations import ENDPOINT_TO_OPERATION
from service.api.receipts import Signer
from service.api.sealing import Sealer
from service.ops import observe
from service.ops import settings as service_settings
from service.ops.limits import MAX_BODY_BYTES


def create_app(config: Mapping[str, Any] | None = None, *, settings: service_settings.Settings | None = None) -> Flask:
    """The app, with ``settings`` (by default the ones gunicorn.conf.py installed, or else the
    environment's: ``service.ops.settings.current``).

    ``config`` goes to Flask's config (``TESTING``), but for the keys that name a setting without its
    prefix (``STATE_KEYS``, ``ACCESS_LOG``, ``CORS_ORIGINS``, ...), which change those settings, read
    and checked as the environment's would be. A wrong one raises a ``SettingError`` of one line.
    """
    overrides = {k: v for k, v in (config or {}).items() if service_settings.setting_named(k) is not None}
    app = Flask(__name__)
    spec_yaml, spec_json = operational.load_spec()
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY_BYTES, OPENAPI_YAML=spec_yaml, OPENAPI_JSON=spec_json)
    app.config.update({k: v for k, v in (config or {}).items() if k not in overrides})
    chosen = (settings or service_settings.current()).overridden(overrides)
    # Under gunicorn the master made the keys (and warned); a test app needs no warning.
    chosen = service_settings.with_keys(chosen, (lambda _: None) if app.testing else app.logger.warning)
    app.extensions["chkobba.settings"] = chosen
    app.extensions["chkobba.sealer"] = Sealer.from_settings(chosen)
    app.extensions["chkobba.signer"] = Signer.from_settings(chosen)
    problems.register(app)
    app.extensions["chkobba.problem_types"] = {
        code: web.ProblemType(*page) for code, page in problems.problem_types().items()
    }
    app.register_blueprint(adjudication.bp)
    app.register_blueprint(rounds.bp)
    app.register_blueprint(deals.bp)
    app.register_blueprint(matches.bp)
    app.register_blueprint(hints.bp)
    app.register_blueprint(reviews.bp)
    app.register_blueprint(operational.bp)
    app.register_blueprint(web.bp)
    if web.swagger_ui_dist() is None:
        app.logger.warning("%s; the API is unaffected", web.SWAGGER_UI_MISSING)
    cors.install(app, chosen.cors_origins)
    observe.install(app, ENDPOINT_TO_OPERATION, chosen.access_log)
    return app
