"""Fixtures for the HTTP API tests: the app in-process, through Flask's test client (its helpers, ``ok``,
``problem`` and the rest, are in tests/support.py).

Expected bodies in these tests are derived by hand from docs/rules.md and openapi.yaml, never computed
with the rules core, so the tests check the service rather than restate it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.app import create_app


@pytest.fixture(scope="session")
def app() -> Flask:
    return create_app({"TESTING": True})


@pytest.fixture(scope="session")
def client(app: Flask) -> Iterator[FlaskClient]:
    # Session scope: hypothesis tests may use it (no function-scoped fixture under @given).
    with app.test_client() as test_client:
        yield test_client
