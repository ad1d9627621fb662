"""Every problem's ``type`` is the path of a page this service serves for its code (RFC 9457 §3.1.1):
what the code means and what a client should do, from the same table as the contract's ProblemCode."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import urljoin

import pytest
from flask.testing import FlaskClient

from service.api.codes import CODES
from service.api.problems import TITLES

from ..support import problem


def _text(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


@pytest.mark.parametrize("code", list(CODES))
def test_each_code_has_a_page_that_says_what_to_do(client: FlaskClient, code: str) -> None:
    response = client.get(f"/problems/{code}")
    assert response.status_code == 200 and response.mimetype == "text/html"
    text = " ".join(_text(response.get_data(as_text=True)).split())
    assert code in text
    assert CODES[code].advice.replace("`", "") in text
    if code in TITLES:
        assert TITLES[code] in text
    assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")


def test_the_index_lists_every_code_in_the_table_order(client: FlaskClient) -> None:
    html = client.get("/problems").get_data(as_text=True)
    assert re.findall(r'<section id="([a-z-]+)">', html) == list(CODES)


def test_an_unknown_code_is_a_not_found_problem(client: FlaskClient) -> None:
    found = problem(client.get("/problems/no-such-code"), 404, "not-found")
    assert found["type"] == "/problems/not-found"


@pytest.mark.parametrize(
    ("request_args", "status", "code"),
    [
        (
            (
                "post",
                "/v1/moves",
                {
                    "rules": "chkobba",
                    "table": ["7S", "4C", "3D"],
                    "hand": ["7H"],
                    "play": {"card": "7H", "capture": ["4C", "3D"]},
                },
            ),
            422,
            "illegal-move",
        ),  # fmt: skip
        (("post", "/v1/captures", {"rules": "bridge", "table": [], "hand": ["7H"]}), 422, "unknown-profile"),
        (("get", "/v1/nowhere", None), 404, "not-found"),
        (("delete", "/v1/captures", None), 405, "method-not-allowed"),
    ],
)
def test_a_problems_type_resolves_to_its_codes_page(
    client: FlaskClient, request_args: tuple[str, str, object], status: int, code: str
) -> None:
    method, path, body = request_args
    answer = problem(getattr(client, method)(path, json=body), status, code)
    assert answer["type"] == f"/problems/{code}"
    page = client.get(urljoin(f"http://localhost{path}", answer["type"]))  # resolved against the request's URL
    assert page.status_code == 200 and f'<section id="{code}">' in page.get_data(as_text=True)


@pytest.mark.parametrize("path", ["//v1/rulesets", "///healthz", "//.well-known/jwks.json", "/v1//rulesets"])
def test_a_path_with_doubled_slashes_is_an_unknown_path(client: FlaskClient, path: str) -> None:
    """werkzeug's matching drops leading slashes: ``//v1/rulesets`` would answer as ``/v1/rulesets``
    and pass a proxy's rule written for the exact path (docs/security.md)."""
    assert client.get(re.sub("/+", "/", path)).status_code == 200
    problem(client.get("/", environ_overrides={"PATH_INFO": path}), 404, "not-found")


def test_a_post_to_a_path_with_doubled_slashes_is_an_unknown_path(client: FlaskClient) -> None:
    problem(client.post("/", json={}, environ_overrides={"PATH_INFO": "//v1/captures"}), 404, "not-found")
