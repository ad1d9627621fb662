"""The service against the committed contract, in-process, with every schemathesis check enabled."""

from pathlib import Path

import schemathesis

from service.app import create_app

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"

schema = schemathesis.openapi.from_path(SPEC)
schema.app = create_app({"TESTING": True})


@schema.parametrize()
def test_operation_conforms_to_the_contract(case: schemathesis.Case) -> None:
    case.call_and_validate()
