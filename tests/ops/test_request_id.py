"""X-Request-ID: a well-formed id from the caller is kept, anything else is replaced, and every
response carries one, problems included."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from service.app import create_app
from service.ops.limits import MAX_BODY_BYTES

GENERATED = re.compile(r"[0-9a-f]{32}")


@pytest.fixture(scope="module")
def client() -> FlaskClient:
    return create_app({"TESTING": True, "ACCESS_LOG": ""}).test_client()


@pytest.mark.parametrize(
    "incoming",
    [
        "3f2b7c1e-8a4d-4e55-9a0b-6c1d2e3f4a5b",
        "01JD8X3Q7W9ZK2M4N6P8R0T2V4",
        "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8",
        "a",
        "x" * 128,
    ],
)
def test_a_well_formed_incoming_id_is_echoed(client: FlaskClient, incoming: str) -> None:
    response = client.get("/healthz", headers={"X-Request-ID": incoming})
    assert response.headers["X-Request-ID"] == incoming


@pytest.mark.parametrize(
    "incoming",
    ["", "x" * 129, "has space", 'quote"d', "new\\nline", "<script>", "-leading-dash", "ünïcode", "a,b"],
)
def test_a_malformed_incoming_id_is_replaced(client: FlaskClient, incoming: str) -> None:
    response = client.get("/healthz", headers={"X-Request-ID": incoming})
    assert GENERATED.fullmatch(response.headers["X-Request-ID"])


def test_without_an_incoming_id_each_response_gets_a_fresh_one(client: FlaskClient) -> None:
    ids = {client.get("/healthz").headers["X-Request-ID"] for _ in range(20)}
    assert len(ids) == 20 and all(GENERATED.fullmatch(i) for i in ids)


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "status"),
    [
        ("get", "/v1/rulesets", {}, 200),
        ("get", "/metrics", {}, 200),
        ("get", "/no/such/path", {}, 404),
        ("delete", "/v1/captures", {}, 405),
        ("post", "/v1/captures", {"data": "{", "content_type": "application/json"}, 400),
        ("post", "/v1/captures", {"data": "x" * (MAX_BODY_BYTES + 1), "content_type": "application/json"}, 413),
        ("post", "/v1/captures", {"data": "{}", "content_type": "text/plain"}, 415),
        ("post", "/v1/captures", {"json": {"rules": "chkobba", "table": ["8D"], "hand": []}}, 422),
        (
            "post",
            "/v1/moves",
            {
                "json": {
                    "rules": "chkobba",
                    "table": ["7S", "4C", "3D"],
                    "hand": ["7H"],
                    "play": {"card": "7H", "capture": ["4C", "3D"]},
                }
            },
            422,
        ),
    ],
)
def test_every_response_echoes_the_id_problems_included(
    client: FlaskClient, method: str, path: str, kwargs: dict[str, object], status: int
) -> None:
    response = getattr(client, method)(path, headers={"X-Request-ID": "trace-42"}, **kwargs)
    assert response.status_code == status
    assert response.headers["X-Request-ID"] == "trace-42"


def test_a_405_keeps_its_allow_header_beside_the_id(client: FlaskClient) -> None:
    response = client.delete("/v1/captures")
    assert response.headers["Allow"] and response.headers["X-Request-ID"]


def test_generated_ids_differ_between_forked_workers() -> None:
    """gunicorn forks its workers from one master: each must draw its own ids, not the master's."""
    import os

    from service.ops.logging import request_id_from

    request_id_from(None)  # the generator in use before the fork
    ids = []
    for _ in range(2):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: one id to the pipe, then out without pytest's clean-up
            os.write(write, request_id_from(None).encode())
            os._exit(0)
        os.close(write)
        ids.append(os.read(read, 64).decode())
        os.close(read)
        os.waitpid(pid, 0)
    ids.append(request_id_from(None))
    assert all(GENERATED.fullmatch(i) for i in ids)
    assert len(set(ids)) == 3
