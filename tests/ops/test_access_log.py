"""The access log: one JSON object per line and per request, with the operation the request reached."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from service.app import create_app

FIELDS = {
    "time", "log", "request_id", "method", "path", "operation", "status", "duration_ms", "bytes",
    "remote_addr", "user_agent",
}  # fmt: skip


def lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def test_one_json_line_per_request_with_every_field(capsys: pytest.CaptureFixture[str]) -> None:
    client = create_app({"TESTING": True}).test_client()
    capsys.readouterr()
    ok = client.post(
        "/v1/captures",
        json={"rules": "chkobba", "table": ["2D", "6S", "AC"], "hand": ["QH"]},
        headers={"X-Request-ID": "abc-1", "User-Agent": "referee-test/1"},
    )
    missing = client.get("/nowhere")
    records = lines(capsys.readouterr().out)
    assert len(records) == 2
    first, second = records
    assert set(first) == FIELDS
    assert first["time"].endswith("Z") and first["log"] == "access"
    assert first["request_id"] == "abc-1" == ok.headers["X-Request-ID"]
    assert (first["method"], first["path"], first["operation"], first["status"]) == (
        "POST",
        "/v1/captures",
        "legalCaptures",
        200,
    )
    assert first["bytes"] == len(ok.get_data()) and first["user_agent"] == "referee-test/1"
    assert isinstance(first["duration_ms"], float) and 0 <= first["duration_ms"] < 10_000
    assert first["remote_addr"] == "127.0.0.1"
    assert (second["operation"], second["status"]) == ("unmatched", 404)
    assert second["request_id"] == missing.headers["X-Request-ID"]


@pytest.mark.parametrize(
    ("method", "path", "operation", "status"),
    [
        ("get", "/healthz", "getHealth", 200),
        ("get", "/readyz", "getReadiness", 200),
        ("get", "/v1/rulesets/scopa", "getRuleset", 200),
        ("get", "/v1/rulesets/nope", "getRuleset", 404),
        ("put", "/v1/rulesets", "unmatched", 405),
        ("options", "/v1/captures", "options", 200),  # Flask's own answer: the view never runs
    ],
)
def test_the_operation_is_the_contracts_operation_id(
    capsys: pytest.CaptureFixture[str], method: str, path: str, operation: str, status: int
) -> None:
    client = create_app({"TESTING": True}).test_client()
    capsys.readouterr()
    getattr(client, method)(path)
    [record] = lines(capsys.readouterr().out)
    assert (record["operation"], record["status"]) == (operation, status)


def test_a_server_error_is_logged_with_the_exception_name(capsys: pytest.CaptureFixture[str]) -> None:
    app = create_app({"ACCESS_LOG": "-"})  # not TESTING: the error is answered, not raised

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("boom")

    client = app.test_client()
    capsys.readouterr()
    response = client.get("/boom", headers={"X-Request-ID": "boom-1"})
    assert response.status_code == 500 and response.headers["X-Request-ID"] == "boom-1"
    [record] = lines(capsys.readouterr().out)
    assert (record["status"], record["error"], record["request_id"]) == (500, "RuntimeError", "boom-1")


def test_an_empty_setting_turns_the_log_off(capsys: pytest.CaptureFixture[str]) -> None:
    client = create_app({"TESTING": True, "ACCESS_LOG": ""}).test_client()
    capsys.readouterr()
    assert client.get("/healthz").headers["X-Request-ID"]
    assert capsys.readouterr().out == ""


def test_the_setting_comes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "access.jsonl"
    monkeypatch.setenv("CHKOBBA_ACCESS_LOG", str(target))
    app: Flask = create_app({"TESTING": True})
    try:
        app.test_client().get("/healthz", headers={"X-Request-ID": "to-file"})
    finally:
        app.extensions["chkobba_access_log"].close()
    assert capsys.readouterr().out == ""
    [record] = lines(target.read_text(encoding="utf-8"))
    assert record["request_id"] == "to-file"
