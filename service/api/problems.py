"""RFC 9457 problem responses: every answer that is not a success is one, with a stable ``code``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, Response
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from service.ops import metrics
from service.ops.problems import HTTP_CODES, HTTP_FALLBACK, PROBLEM_MEDIA_TYPE, http_title, problem
from service.rules import Captures, InvalidCard, MoveError, RulesError

from .codes import CODES
from .encoding import to_json
from .fields import CodedMessage
from .render import captures_json
from .sealing import TokenError

TITLES = {
    "validation-error": "The request does not follow the contract",
    "invalid-card": "Not a card",
    "duplicate-card": "A card appears twice",
    "unknown-profile": "Unknown rules profile",
    "invalid-option": "Not an option of this profile",
    "invalid-input": "A value is not allowed here",
    "no-such-seat": "No such seat at this table",
    "not-in-profile": "The rules profile does not take this",
    "bad-state": "The round state breaks the rules",
    "inconsistent-counts": "The piles or counts cannot come from one round",
    "invalid-scores": "The match scores are not valid",
    "match-over": "The match was already over",
    "inconsistent-record": "The rounds of the match record do not fit together",
    "illegal-move": "Illegal move",
    "ambiguous-capture": "Ambiguous capture: say which cards are taken",
    "card-not-held": "The card is not in the hand",
    "not-your-turn": "Not this seat's turn",
    "wrong-phase": "The round does not take this move now",
    "clock-running": "The seat's time has not run out",
    "turn-expired": "The seat's time has run out",
    "not-the-default-move": "Not the default move of a seat whose time ran out",
    "bad-time": "The move's time is missing or before the move before it",
    "wrong-seed-count": "A committed deal takes one seed per seat",
    "clock-outlasts-token": "The turn clock outlasts the state token",
    "tampered-state": "The token was altered, forged or sealed with an unknown key",
    "expired-state": "The state token has expired",
}


def problem_types() -> dict[str, tuple[str, str, str]]:
    """What the page of each problem code says (service/web, /problems/<code>): its status, its title
    and what a client should do, from the table of codes."""
    return {
        code: (
            "any 4xx" if entry.status is None else str(entry.status),
            TITLES.get(code) or http_title(entry.status or 400),
            entry.advice,
        )
        for code, entry in CODES.items()
    }


class Problem(Exception):
    """A problem to answer with; views may raise it directly."""

    def __init__(self, status: int, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail, self.extra = status, code, detail, extra

    def response(self) -> Response:
        title = TITLES.get(self.code) or http_title(self.status)
        body = problem(self.status, self.code, title, self.detail, **self.extra)
        return Response(to_json(body), status=self.status, content_type=PROBLEM_MEDIA_TYPE)  # no charset to add


def from_rules_error(exc: RulesError) -> Problem:
    places = exc.details.get("places") or [exc.field or "body"]  # a card in two places: both of them
    extra: dict[str, Any] = {"errors": {place: [exc.message] for place in places}}
    if isinstance(exc, MoveError):
        options = exc.details.get("options")
        if isinstance(options, Captures):  # the played card's captures; a move of another kind has none
            extra["options"] = captures_json(options)["options"]
        legal = exc.details.get("legal")
        if legal is not None:
            extra["legal"] = [captures_json(c) for c in legal]
    # A card that is not one is told by its value alone: the detail names its place, as the detail
    # of a card refused by a schema field does (from_validation_error).
    detail = f"{exc.field}: {exc.message}" if exc.field and isinstance(exc, InvalidCard) else exc.message
    return Problem(422, exc.code, detail, **extra)


# The most field paths a problem's errors lists: a 64 KiB body can break thousands of fields (unknown
# keys, say), and the first ones tell the client what is wrong; the detail counts them all.
MAX_LISTED_ERRORS = 32


def from_validation_error(exc: ValidationError) -> Problem:
    errors: dict[str, list[str]] = {}
    _flatten(exc.messages, "", errors)
    coded = [m.code for messages in errors.values() for m in messages if isinstance(m, CodedMessage)]
    code = coded[0] if coded else "validation-error"
    first_path, first = next(iter(errors.items()))
    found = {  # one error per path and message, but a card in two places is one error at both
        str(m) if isinstance(m, CodedMessage) and m.code == "duplicate-card" else (path, str(m))
        for path, messages in errors.items()
        for m in messages
    }
    others = len(found) - 1
    detail = f"{first_path}: {first[0]}" + (f" (and {others} more)" if others > 0 else "")
    listed = dict(list(errors.items())[:MAX_LISTED_ERRORS])
    return Problem(422, code, detail, errors={k: [str(m) for m in v] for k, v in listed.items()})


def _flatten(messages: Any, path: str, out: dict[str, list[str]]) -> None:
    """marshmallow's nested messages as ``{"hands.0.1": [...]}``; schema-level ones at their parent."""
    if isinstance(messages, Mapping):
        for key, value in messages.items():
            _flatten(value, path if key == "_schema" else f"{path}.{key}" if path else str(key), out)
    elif isinstance(messages, list):
        for message in messages:
            _flatten(message, path, out)
    else:
        out.setdefault(path or "body", []).append(messages)


def from_http_exception(exc: HTTPException) -> Response:
    status = exc.code or 500
    refusal = Problem(status, HTTP_CODES.get(status, HTTP_FALLBACK), exc.description or http_title(status))
    response = refusal.response()
    original = exc.get_response()
    for header in ("Allow", "Retry-After"):
        if header in original.headers:
            response.headers[header] = original.headers[header]
    return response


def from_token_error(exc: TokenError) -> Response:
    metrics.token_rejected(exc.reason)
    return Problem(422, exc.code, exc.detail, errors={exc.field: [exc.detail]}).response()


def register(app: Flask) -> None:
    app.register_error_handler(TokenError, from_token_error)
    app.register_error_handler(Problem, lambda exc: exc.response())
    app.register_error_handler(RulesError, lambda exc: from_rules_error(exc).response())
    app.register_error_handler(ValidationError, lambda exc: from_validation_error(exc).response())
    app.register_error_handler(HTTPException, from_http_exception)
