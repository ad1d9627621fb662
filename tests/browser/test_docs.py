"""/docs in Chromium: Swagger UI over the committed contract, every operation ready to run with its
documented example, and one of them run for real against the service that serves the page."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from playwright.sync_api import expect

from ..support import PHONE

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
OPERATIONS = [
    (path, method, operation)
    for path, item in CONTRACT["paths"].items()
    for method, operation in item.items()
    if method != "parameters"
]


def block_id(path: str, method: str, operation: dict) -> str:
    # Swagger UI's deep-link id: operations-<first tag>-<operationId>.
    return f"operations-{operation['tags'][0]}-{operation['operationId']}"


def expected_status(operation: dict) -> str:
    """The status the contract documents for the operation's first request example (else 200)."""
    content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    if not content.get("examples"):
        return "200"
    name = next(iter(content["examples"]))
    for status, response in operation["responses"].items():
        for media in response.get("content", {}).values():
            if name in media.get("examples", {}):
                return str(status)
    return "200"


def test_docs_run_an_operation_with_its_documented_example(open_page, screenshots, service) -> None:
    page = open_page("/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Chkobba referee")
    for path, method, operation in OPERATIONS:
        expect(page.locator(f"#{block_id(path, method, operation)}")).to_have_count(1)

    block = page.locator("#operations-adjudication-legalCaptures")
    block.locator(".opblock-summary-control").click()
    examples = CONTRACT["paths"]["/v1/captures"]["post"]["requestBody"]["content"]["application/json"]["examples"]
    first_example = next(iter(examples.values()))["value"]
    editor = block.locator("textarea.body-param__text")
    expect(editor).to_be_visible()
    assert json.loads(editor.input_value()) == first_example  # "Try it out" starts from the example
    expect(block.locator(".opblock-section-request-body .examples-select select option")).to_have_count(len(examples))

    block.locator("button.execute").click()
    response = block.locator(".live-responses-table .response")
    expect(response.locator(".response-col_status")).to_have_text("200")
    body = json.loads(response.locator(".response-col_description pre").first.inner_text())
    # By hand (docs/rules.md §7.5, the 001 worked example): Q is worth 8 in chkobba, so QH takes 2D + 6S and
    # sweeps; J (9) and 3 can take nothing from 2D 6S.
    assert body["moves"][0] == {
        "card": "QH",
        "value": 8,
        "kind": "sum",
        "options": [{"capture": ["2D", "6S"], "sweep": True}],
    }
    assert [move["kind"] for move in body["moves"][1:]] == ["none", "none"]
    # The request went to the service serving the page, whatever port it runs on.
    expect(block.locator(".request-url pre")).to_have_text(service.base + "/v1/captures")
    block.scroll_into_view_if_needed()
    screenshots(page, "docs-desktop")


def test_every_operation_of_the_docs_can_be_tried_with_its_example(open_page) -> None:
    page = open_page("/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Chkobba referee")
    for path, method, operation in OPERATIONS:
        block = page.locator(f"#{block_id(path, method, operation)}")
        block.locator(".opblock-summary-control").click()
        expect(block.locator("button.execute")).to_be_visible()
        content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
        if content.get("examples"):
            first = next(iter(content["examples"].values()))["value"]
            assert json.loads(block.locator("textarea.body-param__text").input_value()) == first, path
        block.locator("button.execute").click()
        status = block.locator(".live-responses-table .response .response-col_status")
        expect(status).to_have_text(expected_status(operation), timeout=15_000)
        block.locator(".opblock-summary-control").click()  # fold it again


def test_docs_fit_a_phone(open_page, screenshots) -> None:
    page = open_page("/docs", viewport=PHONE)
    expect(page.locator("#operations-rounds-replayRound")).to_be_visible()
    screenshots(page, "docs-phone")
