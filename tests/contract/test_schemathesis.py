"""The service against the committed contract, in-process, with every schemathesis check enabled,
and one of ours: a schema-valid body may be refused only for a reason no schema can state."""

from pathlib import Path
from typing import Any

import pytest
import schemathesis

from service.app import create_app

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"

# The codes of a 422 that a schema-valid body may get: what a JSON schema cannot say (a card in two
# lists, a state or counts no round reaches, a seat beyond the players, a move the rules forbid, a
# token that is altered or old, a match record whose rounds do not fit together, a clock's deadline, as
# many seeds as seats). validation-error and invalid-input are not among them: a body that gets them breaks
# a rule the contract could state, so the contract must state it.
BEYOND_THE_SCHEMA = {
    "duplicate-card",
    "no-such-seat",
    "not-in-profile",
    "bad-state",
    "inconsistent-counts",
    "invalid-scores",
    "match-over",
    "inconsistent-record",
    "illegal-move",
    "ambiguous-capture",
    "card-not-held",
    "not-your-turn",
    "wrong-phase",
    "clock-running",
    "turn-expired",
    "wrong-seed-count",
    "tampered-state",
    "expired-state",
}

schema = schemathesis.openapi.from_path(SPEC)
schema.app = create_app({"TESTING": True})


def refused_beyond_the_schema(response: Any, case: schemathesis.Case) -> None:
    """A schema-valid body answered 422 must carry one of BEYOND_THE_SCHEMA."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 422:
        return
    code = response.json().get("code")
    assert code in BEYOND_THE_SCHEMA, (
        f"a schema-valid body got 422 {code!r}: the contract should refuse it, or the service accept it\n"
        f"body: {case.body!r}\nanswer: {response.json()!r}"
    )


# Every operation, GET /openapi.yaml included (tests/contract/test_spec.py checks that it serves the
# committed file, byte for byte).
@schema.parametrize()
def test_operation_conforms_to_the_contract(case: schemathesis.Case) -> None:
    response = case.call_and_validate()
    refused_beyond_the_schema(response, case)


class _Positive:
    is_positive = True


class _Meta:
    class generation:  # noqa: N801 - the shape of schemathesis's CaseMetadata
        mode = _Positive


class _Answer:
    status_code = 422

    def __init__(self, code: str) -> None:
        self.code = code

    def json(self) -> dict[str, str]:
        return {"code": self.code}


class _Case:
    meta = _Meta
    body = {"rules": "chkobba"}


@pytest.mark.parametrize("code", ["validation-error", "invalid-input", "invalid-card"])
def test_the_check_fails_a_schema_valid_body_refused_for_a_schema_reason(code: str) -> None:
    with pytest.raises(AssertionError, match=code):
        refused_beyond_the_schema(_Answer(code), _Case())  # type: ignore[arg-type]


def test_the_check_lets_a_refusal_beyond_the_schema_pass() -> None:
    refused_beyond_the_schema(_Answer("bad-state"), _Case())  # type: ignore[arg-type]
