"""Every problem code the service can answer is in the one table of codes (service/api/codes.py),
which the contract's Problem.code enum and the table of docs/api.md are made from."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from service.api.codes import CODES
from service.api.encoding import JSONRefused
from service.api.problems import TITLES, Problem
from service.api.sealing import TokenError
from service.ops.problems import HTTP_CODES, HTTP_FALLBACK
from service.rules import errors

ROOT = Path(__file__).resolve().parents[2]


def _subclasses(cls: type) -> set[type]:
    found = set(cls.__subclasses__())
    for sub in list(found):
        found |= _subclasses(sub)
    return found


def test_every_rules_error_that_is_raised_has_its_code_in_the_table() -> None:
    raised = {cls.code for cls in _subclasses(errors.RulesError)}
    assert raised <= set(CODES), raised - set(CODES)


def test_every_http_level_refusal_and_title_has_its_code_in_the_table() -> None:
    assert set(HTTP_CODES.values()) | {HTTP_FALLBACK} | set(TITLES) <= set(CODES)
    assert all(CODES[code].status == status for status, code in HTTP_CODES.items())


def test_the_codes_given_as_literals_are_in_the_table() -> None:
    """JSONRefused, TokenError and Problem take their code as an argument: every literal they are given."""
    made = set()
    for path in (ROOT / "service").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        made |= set(re.findall(r'(?:JSONRefused|TokenError)\(\s*"([a-z-]+)"', text))
        made |= set(re.findall(r'Problem\(\s*\d+,\s*"([a-z-]+)"', text))
    assert {"malformed-json", "duplicate-key", "tampered-state", "expired-state", "unsupported-media-type"} <= made
    assert made <= set(CODES), made - set(CODES)
    assert JSONRefused and TokenError and Problem  # the classes those literals are given to


def test_the_contract_lists_exactly_the_codes_of_the_table() -> None:
    document = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    schemas = document["components"]["schemas"]
    assert schemas["Problem"]["properties"]["code"]["$ref"] == "#/components/schemas/ProblemCode"
    assert schemas["ProblemCode"]["enum"] == list(CODES)


def test_the_api_reference_table_lists_every_code_with_its_status_and_advice() -> None:
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    table = page.split("\n## Problem codes\n", 1)[1].split("\n## ", 1)[0]
    rows = dict(re.findall(r"^\| `([a-z-]+)` \| (.+?) \|$", table, flags=re.MULTILINE))
    assert set(rows) == set(CODES)
    for code, entry in CODES.items():
        status = "any 4xx" if entry.status is None else str(entry.status)
        assert rows[code] == f"{status} | {entry.advice}", code
