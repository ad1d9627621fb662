"""The committed contract is the generated one, is valid OpenAPI 3.1, and its examples hold."""

from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from openapi_spec_validator import validate

from service import contract
from service.api import operational
from service.api import spec as spec_module
from service.app import create_app

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"
COMMITTED = SPEC_PATH.read_text(encoding="utf-8")
DOCUMENT = yaml.safe_load(COMMITTED)
CONTRACT_OPERATIONS = {
    ("get", "/v1/rulesets"): "listRulesets",
    ("get", "/v1/rulesets/{profile}"): "getRuleset",
    ("post", "/v1/captures"): "legalCaptures",
    ("post", "/v1/moves"): "applyMove",
    ("post", "/v1/scores"): "scoreRound",
    ("post", "/v1/match-decisions"): "decideMatch",
    ("post", "/v1/rounds"): "dealRound",
    ("post", "/v1/rounds/play"): "playRound",
    ("post", "/v1/rounds/replay"): "replayRound",
    ("post", "/v1/matches/replay"): "replayMatch",
}


def test_committed_spec_equals_the_generated_one() -> None:
    built = contract.build()
    assert COMMITTED == spec_module.render(built), "openapi.yaml is stale: run `make openapi`"
    committed_json = SPEC_PATH.with_suffix(".json").read_text(encoding="utf-8")
    assert committed_json == spec_module.render_json(built), "openapi.json is stale: run `make openapi`"


def test_spec_is_valid_openapi_3_1() -> None:
    assert DOCUMENT["openapi"] == "3.1.0"
    validate(DOCUMENT)


def test_every_contract_operation_has_its_id_method_and_path() -> None:
    found = {
        (m, p): op["operationId"]
        for p, item in DOCUMENT["paths"].items()
        for m, op in item.items()
        if m != "parameters"
    }
    for key, operation_id in CONTRACT_OPERATIONS.items():
        assert found.get(key) == operation_id


def test_the_service_serves_the_committed_spec() -> None:
    response = create_app({"TESTING": True}).test_client().get("/openapi.yaml")
    assert response.status_code == 200 and response.mimetype == "application/yaml"
    assert response.get_data() == SPEC_PATH.read_bytes()  # the root's file, byte for byte


def test_the_package_data_is_the_root_contract_itself() -> None:
    # service/api's openapi.yaml and openapi.json link to the root's: one contract, no copy to drift.
    assert operational.SPEC_PATH.resolve() == SPEC_PATH.resolve()
    assert operational.SPEC_PATH.with_suffix(".json").resolve() == SPEC_PATH.with_suffix(".json").resolve()
    assert contract.CONTRACT_DIR == SPEC_PATH.parent  # make openapi writes the root's files


def test_the_service_serves_the_same_spec_as_json() -> None:
    client = create_app({"TESTING": True}).test_client()
    for _ in range(2):  # converted on first use, then kept
        response = client.get("/openapi.json")
        assert response.status_code == 200 and response.mimetype == "application/json"
        assert response.get_json() == DOCUMENT


def _resolver_schema(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "components": DOCUMENT["components"]}


def _examples() -> list[Any]:
    cases = []
    for item in DOCUMENT["paths"].values():
        for method, op in item.items():
            if method == "parameters":
                continue
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            for name, example in body.get("examples", {}).items():
                cases.append(pytest.param(body["schema"], example["value"], id=f"{op['operationId']}-request-{name}"))
            for status, response in op["responses"].items():
                for media in response.get("content", {}).values():
                    for name, example in media.get("examples", {}).items():
                        case_id = f"{op['operationId']}-{status}-{name}"
                        cases.append(pytest.param(media["schema"], example["value"], id=case_id))
    return cases


@pytest.mark.parametrize(("schema", "value"), _examples())
def test_every_example_follows_its_schema(schema: dict[str, Any], value: Any) -> None:
    jsonschema.Draft202012Validator(_resolver_schema(schema)).validate(value)


def test_every_operation_with_a_body_has_request_and_response_examples() -> None:
    for item in DOCUMENT["paths"].values():
        for method, op in item.items():
            if method == "parameters" or "requestBody" not in op:
                continue
            assert op["requestBody"]["content"]["application/json"].get("examples"), op["operationId"]
            answered = [m for r in op["responses"].values() for m in r.get("content", {}).values() if m.get("examples")]
            assert answered, op["operationId"]
