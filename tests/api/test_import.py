"""Nothing heavy, and nothing that can fail, happens when the service is imported: the examples deal
their rounds when the spec is built, and a missing flask-swagger-ui costs /docs its Swagger UI (a
503 saying why, and a warning at start), never the import or the API."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from service import web
from service.app import create_app

from ..support import ok, problem

ROOT = Path(__file__).resolve().parents[2]


def run(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter (nothing of the service imported yet), from this checkout."""
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)


COUNTING_DEALS = """
import service.rules as rules
dealt = []
def counted(function):
    def call(*args, **kwargs):
        dealt.append(function.__name__)
        return function(*args, **kwargs)
    return call
rules.deal_round, rules.seeded_deck = counted(rules.deal_round), counted(rules.seeded_deck)
"""


def test_importing_the_app_deals_no_round() -> None:
    done = run(
        COUNTING_DEALS
        + "import service.app, service.api.examples\n"
        + "print('at import', len(dealt))\n"
        + "from service import contract\n"
        + "contract.build()\n"
        + "print('with the spec', len(dealt) > 0)\n"
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == ["at import 0", "with the spec True"]


def test_the_service_imports_without_flask_swagger_ui() -> None:
    # A None in sys.modules is how Python spells "not installed" to the import system.
    done = run("import sys; sys.modules['flask_swagger_ui'] = None; import service.app, service.web; print('imported')")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "imported"


@pytest.fixture
def without_swagger_ui(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(sys.modules, "flask_swagger_ui", None)
    web.swagger_ui_dist.cache_clear()
    yield
    web.swagger_ui_dist.cache_clear()


@pytest.mark.usefixtures("without_swagger_ui")
def test_without_swagger_ui_its_files_answer_503_and_the_api_serves(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("WARNING"):
        client = create_app({"TESTING": True, "ACCESS_LOG": ""}).test_client()
    assert any("flask-swagger-ui is not installed" in r.getMessage() for r in caplog.records), caplog.records
    body = problem(client.get("/docs/swagger-ui/swagger-ui-bundle.js"), 503, "http-error")
    assert "flask-swagger-ui is not installed" in body["detail"]
    problem(client.get("/docs/swagger-ui/not-a-file.js"), 404, "not-found")
    assert ok(client.get("/readyz")) == {"status": "ready"}
    with client.get("/docs") as page:
        assert page.status_code == 200
    ok(client.post("/v1/captures", json={"rules": "chkobba", "table": ["2D", "6S"], "hand": ["QH"]}))


def test_with_swagger_ui_its_files_are_served() -> None:
    client = create_app({"TESTING": True, "ACCESS_LOG": ""}).test_client()
    with client.get("/docs/swagger-ui/swagger-ui.css") as response:
        assert response.status_code == 200 and response.data
