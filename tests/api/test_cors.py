"""CORS: pages on the origins CHKOBBA_CORS_ORIGINS lists may call the API and read its answers,
problems included; other origins get no CORS header; preflights never reach a view."""

from __future__ import annotations

import http.client
import json
import socket
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from prometheus_client import REGISTRY

from service.app import create_app

from ..support import clean_environment, free_port, ok, problem, running_gunicorn, status_of

ALLOWED = "http://referee.test:8000"
OTHER = "https://elsewhere.test"
CAPTURES = {"rules": "chkobba", "table": ["2D", "6S", "AC"], "hand": ["QH", "7C", "KS"]}
CAPTURES_ANSWER = {
    "moves": [
        {"card": "QH", "value": 8, "kind": "sum", "options": [{"capture": ["2D", "6S"], "sweep": False}]},
        {"card": "7C", "value": 7, "kind": "sum", "options": [{"capture": ["6S", "AC"], "sweep": False}]},
        {"card": "KS", "value": 10, "kind": "none", "options": []},
    ]
}
NOT_A_CARD = {"rules": "chkobba", "table": ["ZZ"], "hand": ["QH"]}
PREFLIGHT = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type, x-request-id"}


def client_for(origins: str | None, **config: Any) -> FlaskClient:
    settings: dict[str, Any] = {"TESTING": True, "ACCESS_LOG": "", **config}
    if origins is not None:
        settings["CORS_ORIGINS"] = origins  # what CHKOBBA_CORS_ORIGINS becomes
    return create_app(settings).test_client()


def cors_headers(response: Any) -> dict[str, str]:
    return {k: v for k, v in response.headers.items() if k.lower().startswith("access-control-")}


def requests_counted(operation: str) -> float:
    """chkobba_http_requests_total of ``operation``, every status (this process's own registry)."""
    return sum(
        sample.value
        for family in REGISTRY.collect()
        if family.name == "chkobba_http_requests"
        for sample in family.samples
        if sample.name == "chkobba_http_requests_total" and sample.labels["operation"] == operation
    )


def test_an_allowed_origin_may_read_an_answer() -> None:
    client = client_for(f"{ALLOWED}, http://localhost:5173")
    response = client.post("/v1/captures", json=CAPTURES, headers={"Origin": ALLOWED, "X-Request-ID": "page-1"})
    assert ok(response) == CAPTURES_ANSWER
    assert response.headers["Access-Control-Allow-Origin"] == ALLOWED  # the origin itself, never *
    assert "Origin" in response.vary
    exposed = {h.strip().lower() for h in response.headers["Access-Control-Expose-Headers"].split(",")}
    assert "x-request-id" in exposed and response.headers["X-Request-ID"] == "page-1"
    assert "Access-Control-Allow-Credentials" not in response.headers


def test_an_allowed_origin_may_read_a_problem() -> None:
    client = client_for(ALLOWED)
    response = client.post("/v1/captures", json=NOT_A_CARD, headers={"Origin": ALLOWED})
    assert problem(response, 422, "invalid-card")["errors"]
    assert response.headers["Access-Control-Allow-Origin"] == ALLOWED
    assert "Origin" in response.vary
    for path, status, code in (("/v1/nowhere", 404, "not-found"), ("/v1/captures", 405, "method-not-allowed")):
        refused = client.get(path, headers={"Origin": ALLOWED})
        problem(refused, status, code)
        assert refused.headers["Access-Control-Allow-Origin"] == ALLOWED, path


def test_a_server_error_carries_the_headers_too() -> None:
    app = create_app({"CORS_ORIGINS": ALLOWED, "ACCESS_LOG": ""})  # not TESTING: the error is answered

    @app.post("/v1/boom")
    def boom() -> None:
        raise RuntimeError("boom")

    response = app.test_client().post("/v1/boom", headers={"Origin": ALLOWED})
    assert response.status_code == 500
    assert response.headers["Access-Control-Allow-Origin"] == ALLOWED


def test_an_origin_not_listed_gets_no_allow_origin() -> None:
    client = client_for(ALLOWED)
    answer = client.post("/v1/captures", json=CAPTURES, headers={"Origin": OTHER})
    assert ok(answer) == CAPTURES_ANSWER  # the server answers; the browser keeps it from the page
    assert cors_headers(answer) == {}
    assert "Origin" in answer.vary  # the answer depends on the Origin: no cache may reuse it for another
    preflight = client.options("/v1/captures", headers={"Origin": OTHER, **PREFLIGHT})
    assert cors_headers(preflight) == {}
    # Close calls: another port, another scheme, a longer name.
    for near in ("http://referee.test:8001", "https://referee.test:8000", "http://referee.test:80001"):
        assert cors_headers(client.post("/v1/captures", json=CAPTURES, headers={"Origin": near})) == {}, near


@pytest.mark.parametrize("origins", [None, "", " "])
def test_without_the_setting_there_is_no_cors_header(origins: str | None) -> None:
    client = client_for(origins)
    answers = [
        client.post("/v1/captures", json=CAPTURES, headers={"Origin": ALLOWED}),
        client.post("/v1/captures", json=NOT_A_CARD, headers={"Origin": ALLOWED}),
        client.options("/v1/captures", headers={"Origin": ALLOWED, **PREFLIGHT}),
    ]
    for response in answers:
        assert cors_headers(response) == {}
        assert "Origin" not in response.vary


def test_any_origin_only_when_set_to_star() -> None:
    anyone = client_for("*")
    for origin in (ALLOWED, OTHER, "null"):
        response = anyone.post("/v1/captures", json=CAPTURES, headers={"Origin": origin})
        assert response.headers["Access-Control-Allow-Origin"] == "*", origin
    listed = client_for(ALLOWED)
    for client in (listed, client_for(None)):
        response = client.post("/v1/captures", json=CAPTURES, headers={"Origin": OTHER})
        assert response.headers.get("Access-Control-Allow-Origin") != "*"


def test_a_preflight_is_answered_without_the_view_and_counted_as_a_preflight(
    capsys: pytest.CaptureFixture[str],
) -> None:
    app = create_app({"TESTING": True, "CORS_ORIGINS": ALLOWED, "ACCESS_LOG": "-"})

    def never(**_: Any) -> None:
        pytest.fail("a preflight ran the view")

    app.view_functions["adjudication.legalCaptures"] = never
    client = app.test_client()
    captures_before, preflights_before = requests_counted("legalCaptures"), requests_counted("preflight")
    capsys.readouterr()
    response = client.options("/v1/captures", headers={"Origin": ALLOWED, **PREFLIGHT})
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert response.status_code == 200  # flask-cors answers a preflight 200, with no body
    assert response.get_data() == b""
    assert response.headers["Access-Control-Allow-Origin"] == ALLOWED
    methods = {m.strip() for m in response.headers["Access-Control-Allow-Methods"].split(",")}
    assert {"GET", "POST"} <= methods
    allowed = {h.strip().lower() for h in response.headers["Access-Control-Allow-Headers"].split(",")}
    assert allowed == {"content-type", "x-request-id"}
    assert response.headers["Access-Control-Max-Age"] == "7200"
    assert "Origin" in response.vary
    assert requests_counted("legalCaptures") == captures_before
    assert requests_counted("preflight") == preflights_before + 1
    assert [(r["operation"], r["method"], r["path"], r["status"]) for r in records] == [
        ("preflight", "OPTIONS", "/v1/captures", response.status_code)
    ]


def test_a_preflight_asking_for_another_method_or_header_is_not_granted_it() -> None:
    client = client_for(ALLOWED)
    delete = client.options("/v1/captures", headers={"Origin": ALLOWED, "Access-Control-Request-Method": "DELETE"})
    assert delete.headers["Access-Control-Allow-Origin"] == ALLOWED
    assert "Access-Control-Allow-Methods" not in delete.headers  # so the browser will not send the DELETE
    extra = client.options(
        "/v1/captures",
        headers={
            "Origin": ALLOWED,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type, x-a",
        },
    )
    assert extra.headers["Access-Control-Allow-Headers"].lower() == "content-type"


def test_only_the_api_is_cross_origin_and_flask_cors_settings_cannot_widen_it() -> None:
    """flask-cors also reads the app's CORS_* settings, where CHKOBBA_CORS_* variables land: they
    change nothing. The probes, the metrics and the pages stay same-origin."""
    client = client_for(
        ALLOWED, CORS_SUPPORTS_CREDENTIALS=True, CORS_EXPOSE_HEADERS="X-Secret", CORS_RESOURCES=r"/*", CORS_MAX_AGE=1
    )
    response = client.post("/v1/captures", json=CAPTURES, headers={"Origin": ALLOWED})
    assert response.headers["Access-Control-Allow-Origin"] == ALLOWED
    assert "Access-Control-Allow-Credentials" not in response.headers
    assert "secret" not in response.headers["Access-Control-Expose-Headers"].lower()
    preflight = client.options("/v1/captures", headers={"Origin": ALLOWED, **PREFLIGHT})
    assert preflight.headers["Access-Control-Max-Age"] == "7200"
    for path in ("/healthz", "/readyz", "/metrics", "/openapi.yaml", "/referee"):
        with client.get(path, headers={"Origin": ALLOWED}) as other:  # closes the page's file
            assert other.status_code == 200 and cors_headers(other) == {}, path


@pytest.mark.parametrize(
    "origins",
    [
        "example.com",
        "http://a/path",
        "*,http://a",
        "http://a, *",
        "http://a/",
        "ftp://a",
        "//a",
        "http://a:99999",
        "http://a,,http://b",
        "http://*.example.com",
        8080,  # a number in the config: read as the text "8080", which is no origin
    ],
)
def test_a_wrong_setting_stops_the_app_with_one_line_naming_it(origins: Any) -> None:
    with pytest.raises(ValueError, match="CHKOBBA_CORS_ORIGINS") as raised:
        create_app({"TESTING": True, "CORS_ORIGINS": origins})
    assert "\n" not in str(raised.value)


def test_the_setting_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHKOBBA_CORS_ORIGINS", "example.com")
    with pytest.raises(ValueError, match="CHKOBBA_CORS_ORIGINS: 'example.com'"):
        create_app({"TESTING": True})
    monkeypatch.setenv("CHKOBBA_CORS_ORIGINS", f"http://[::1]:3000,{ALLOWED}")
    client = create_app({"TESTING": True, "ACCESS_LOG": ""}).test_client()
    for origin in ("http://[::1]:3000", ALLOWED.upper().replace("HTTP", "http")):  # host names ignore case
        response = client.post("/v1/captures", json=CAPTURES, headers={"Origin": origin})
        assert response.headers["Access-Control-Allow-Origin"] == origin
    assert cors_headers(client.post("/v1/captures", json=CAPTURES, headers={"Origin": "http://1:3000"})) == {}


# ---- under gunicorn: the worker's own refusals of a body -------------------------------------------


def raw_answer(port: int, head: bytes) -> bytes:
    """What the server sends back on a connection that sends ``head`` and then nothing."""
    with socket.create_connection(("127.0.0.1", port), timeout=15) as sock:
        sock.sendall(head)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    return received


@pytest.mark.server
def test_a_body_the_worker_refuses_is_answered_with_the_headers(tmp_path: Path) -> None:
    """The worker refuses a body too large (413) or too slow (408) through the app, which answers with
    its problem: CORS headers included, so that a page can read why."""
    port = free_port()
    env = clean_environment(
        CHKOBBA_BIND=f"127.0.0.1:{port}",
        CHKOBBA_WORKERS="1",
        CHKOBBA_CLIENT_TIMEOUT="1",
        CHKOBBA_ACCESS_LOG="",
        CHKOBBA_CORS_ORIGINS=ALLOWED,
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"),
    )
    with running_gunicorn(env, lambda: status_of(port, "/readyz") == 200, tmp_path / "gunicorn.log"):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            conn.request(
                "POST",
                "/v1/captures",
                body=b" " * (70 * 1024),
                headers={"Content-Type": "application/json", "Origin": ALLOWED},
            )
            large = conn.getresponse()
            assert large.status == 413 and json.loads(large.read())["code"] == "body-too-large"
            assert large.getheader("Access-Control-Allow-Origin") == ALLOWED
        finally:
            conn.close()
        slow = raw_answer(
            port,
            b"POST /v1/captures HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + f"Origin: {ALLOWED}\r\nContent-Length: 200\r\n\r\n".encode(),
        )
        head, _, body = slow.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408 "), slow
        assert f"Access-Control-Allow-Origin: {ALLOWED}".encode() in head.split(b"\r\n")
        assert json.loads(body)["code"] == "request-timeout"


# ---- headers on every answer ----------------------------------------------------------------------------

DEAL = {"rules": "scopa", "players": 2, "dealer": 0, "seed": "headers", "sealed": True}


def test_with_any_origin_every_answer_allows_it_with_or_without_origin() -> None:
    """With ``*`` the answer does not depend on the Origin: one a cache kept for a request without
    Origin (the JWKS, fetched by a server) serves a page too, so it says ``*`` as well."""
    anyone = client_for("*")
    asked = [
        anyone.get("/.well-known/jwks.json"),
        anyone.post("/v1/captures", json=CAPTURES),
        anyone.post("/v1/captures", json=NOT_A_CARD),  # a problem
        anyone.get("/v1/rulesets"),
        anyone.post("/v1/rounds", json=DEAL),
        anyone.get("/healthz"),
        anyone.get("/openapi.yaml"),
        anyone.get("/problems/illegal-move"),
        anyone.get("/no-such-page"),
    ]
    for response in asked:
        assert response.headers["Access-Control-Allow-Origin"] == "*", response.request.path
        assert "Origin" not in response.headers.get("Vary", "")
    listed = client_for(ALLOWED).get("/.well-known/jwks.json")  # a list: no Origin, no CORS header
    assert cors_headers(listed) == {} and "Origin" in listed.headers["Vary"]


@pytest.mark.parametrize("origins", [None, "*"])
def test_every_answer_says_nosniff(origins: str | None) -> None:
    client = client_for(origins)
    answers = [
        client.post("/v1/captures", json=CAPTURES),
        client.post("/v1/captures", json=NOT_A_CARD),
        client.post("/v1/captures", data=b"{", content_type="application/json"),
        client.get("/nowhere"),
        client.put("/v1/captures"),
        client.get("/metrics"),
        client.get("/healthz"),
        client.get("/.well-known/jwks.json"),
        client.get("/openapi.yaml"),
        client.get("/referee"),
        client.get("/docs"),
        client.get("/rules"),
        client.options("/v1/captures", headers={"Origin": ALLOWED, **PREFLIGHT}),
    ]
    for response in answers:
        with response:
            said = response.headers.getlist("X-Content-Type-Options")
            assert said == ["nosniff"], (response.request.path, response.status, said)  # once: the pages set it too


def test_every_answer_carrying_a_state_token_is_not_stored() -> None:
    client = client_for(None)
    dealt = client.post("/v1/rounds", json=DEAL)
    token = ok(dealt)["state_token"]
    assert dealt.headers["Cache-Control"] == "no-store"
    move = {"card": ok(dealt)["views"][1]["hand"][0], "seat": 1}
    played = client.post("/v1/rounds/play", json={"state_token": token, "move": move})
    assert "state_token" in ok(played) and played.headers["Cache-Control"] == "no-store"
    viewed = client.post("/v1/rounds/view", json={"state_token": token, "seat": 0})
    assert "state_token" not in ok(viewed) and "no-store" not in viewed.headers.get("Cache-Control", "")
    jwks = client.get("/.well-known/jwks.json")
    assert jwks.headers["Cache-Control"] == "public, max-age=300"  # no token: cacheable as before
