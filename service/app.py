"""The application factory: wires the HTTP edge, the pages, the operational endpoints and metrics."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, request
from werkzeug.exceptions import NotFound

from service import web
from service.api import adjudication, cors, deals, hints, matches, operational, problems, reviews, rounds
from service.api.operations import ENDPOINT_TO_OPERATION
from service.api.receipts import Signer
from service.api.sealing import Sealer
from service.ops import metrics, observe
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
    # A path with doubled slashes is answered 404 like any unknown path: merging them, werkzeug would
    # redirect (308) to a Location built from the request's Host header, whatever a client put there.
    app.url_map.merge_slashes = False
    spec_yaml, spec_json = operational.load_spec()
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY_BYTES, OPENAPI_YAML=spec_yaml, OPENAPI_JSON=spec_json)
    app.config.update({k: v for k, v in (config or {}).items() if k not in overrides})
    chosen = (settings or service_settings.current()).overridden(overrides)
    if not app.testing:  # a test app serves no one: its keys may be made here, and it says nothing
        service_settings.require_keys(chosen)
    # Under gunicorn the master made the keys (and warned); a test app needs no warning.
    chosen = service_settings.with_keys(chosen, (lambda _: None) if app.testing else app.logger.warning)
    metrics.keys_made_at_start(state=chosen.key_made_at_start, receipt=chosen.receipt_key_made_at_start)
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
    app.before_request(_one_leading_slash)
    cors.install(app, chosen.cors_origins)
    if chosen.metrics_address is not None:
        app.before_request(_metrics_served_elsewhere)
    app.after_request(_not_stored_if_secret)
    observe.install(app, ENDPOINT_TO_OPERATION, chosen.access_log)
    return app


METRICS_ENDPOINT = "ops.getMetrics"  # service/api/operational.py's blueprint and operationId
# The operations whose answers hold what a round hides: a state token (dealRound sealed, playRound
# sealed), the commit token that seals commitDeal's server seed, or the whole state and deck (dealRound
# and playRound unsealed). No cache may keep them (docs/security.md). viewRound and suggestMoves answer
# one seat's hand and stay as they were (tests/api/test_cors.py keeps viewRound's answer cacheable).
NOT_STORED = frozenset({"commitDeal", "dealRound", "playRound"})


def _one_leading_slash() -> None:
    """A path that starts with doubled slashes is an unknown path, 404, as one with them inside is
    (``merge_slashes``): werkzeug's matching drops leading slashes, so ``//v1/rulesets`` would answer
    as ``/v1/rulesets`` and pass a proxy's rule written for the exact path."""
    if request.environ.get("PATH_INFO", "").startswith("//"):
        raise NotFound()


def _metrics_served_elsewhere() -> None:
    """With CHKOBBA_METRICS_ADDRESS set, the metrics are on that address only: 404 here for the
    metrics' endpoint, whichever spelling of the path (``/%6detrics``, an absolute-form target) routed
    to it."""
    if request.endpoint == METRICS_ENDPOINT:
        raise NotFound()


def _not_stored_if_secret(response: Response) -> Response:
    """An answer of an operation in ``NOT_STORED`` is worth the hidden cards (or the server seed) it
    carries or seals (docs/security.md): no cache, shared or the browser's, may keep it. Decided by the
    operation, never by the answer's bytes: its problems too."""
    if ENDPOINT_TO_OPERATION.get(request.endpoint or "") in NOT_STORED:
        response.headers["Cache-Control"] = "no-store"
    return response
