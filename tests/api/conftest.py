"""Fixtures and helpers for the HTTP API tests: the app in-process, through Flask's test client.

Expected bodies in these tests are derived by hand from docs/rules.md and openapi.yaml, never computed
with the rules core, so the tests check the service rather than restate it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.app import create_app

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_FIELDS = ("type", "title", "status", "detail", "code")

POST_PATHS = (
    "/v1/captures",
    "/v1/moves",
    "/v1/scores",
    "/v1/match-decisions",
    "/v1/rounds",
    "/v1/rounds/play",
    "/v1/rounds/replay",
    "/v1/matches/replay",
)


@pytest.fixture(scope="session")
def app() -> Flask:
    return create_app({"TESTING": True})


@pytest.fixture(scope="session")
def client(app: Flask) -> Iterator[FlaskClient]:
    # Session scope: hypothesis tests may use it (no function-scoped fixture under @given).
    with app.test_client() as test_client:
        yield test_client


def ok(response: Any) -> Any:
    """The JSON body of a 200 answer (with the body in the failure message otherwise)."""
    assert response.status_code == 200, (response.status_code, response.get_data(as_text=True))
    assert response.mimetype == "application/json"
    return response.get_json()


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    """Assert an RFC 9457 problem with the stable fields of openapi.yaml 'Problem' and the ``code`` named; return
    its body. (The code is required: a refusal for another reason must fail the test.)"""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.mimetype == PROBLEM_MEDIA_TYPE, response.headers.get("Content-Type")
    body = response.get_json()
    assert isinstance(body, dict), body
    for name in PROBLEM_FIELDS:
        assert name in body, (name, body)
    assert body["status"] == status
    assert isinstance(body["type"], str) and body["type"]
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"]
    assert isinstance(body["code"], str) and body["code"]
    assert body["code"] == code, body
    # No stack trace or internals leak into a problem.
    text = response.get_data(as_text=True)
    assert "Traceback" not in text and 'File "' not in text
    return body


def line(side: int, cards: int, diamonds: int, sevens: int, seven_of_diamonds: int, sweeps: int, primiera: int) -> dict:
    """A breakdown line, its total computed here as the sum of the categories."""
    points = (cards, diamonds, sevens, seven_of_diamonds, sweeps, primiera)
    names = ("cards", "diamonds", "sevens", "seven_of_diamonds", "sweeps", "primiera")
    return {"side": side, **dict(zip(names, points, strict=True)), "total": sum(points)}


def counts(cards: int, diamonds: int, sevens: int, sixes: int, seven_of_diamonds: bool) -> dict[str, Any]:
    return {
        "cards": cards,
        "diamonds": diamonds,
        "sevens": sevens,
        "sixes": sixes,
        "seven_of_diamonds": seven_of_diamonds,
    }
