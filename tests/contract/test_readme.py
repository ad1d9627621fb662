"""Every curl example of the README and of docs/ still gives the answer the page shows.

The examples are read, and the answers written as the pages write them, by scripts/readme_examples.py
(`make readme` writes them again): a JSON answer is compared as JSON, a value shown as `<N characters>`
by its length; a text answer is what the command's `python3` pipe prints for the service's answer.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from scripts.readme_examples import (
    CUT_EXAMPLE,
    EXAMPLE,
    PAGES,
    ROOT,
    Example,
    answer_as_shown,
    call,
    examples,
    masked,
    service_client,
)

from ..support import POST_PATHS


def _cases() -> list[Any]:
    return [
        pytest.param(example, id=f"{page.relative_to(ROOT).as_posix()}:{example.path}")
        for page in PAGES
        for example in examples(page.read_text(encoding="utf-8"))
    ]


EXAMPLES = _cases()


def test_the_pages_show_an_example_of_every_contract_operation() -> None:
    paths = {case.values[0].path for case in EXAMPLES}
    assert paths >= {"/v1/rulesets", "/v1/rulesets/scopa", *POST_PATHS}, sorted(set(POST_PATHS) - paths)


def test_the_readme_shows_a_first_call_and_a_problem() -> None:
    shown = [example for example in EXAMPLES if example.id.startswith("README.md:")]
    assert [case.values[0].path for case in shown] == ["/v1/captures", "/v1/moves"]


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_example_gives_the_answer_shown(example: Example) -> None:
    response = call(service_client(), example.path, example.body)
    assert answer_as_shown(example, response) == example.shown


def test_a_wrong_answer_is_caught() -> None:
    command = """curl -s localhost:8080/v1/captures -d '{"rules":"chkobba","table":["2D","6S"],"hand":["QH"]}'"""
    shown = '{"moves":[{"card":"QH","value":9,"kind":"sum","options":[]}]}'
    (example,) = examples(f"```sh\n{command}\n```\n\n```json\n{shown}\n```")
    assert answer_as_shown(example, call(service_client(), example.path, example.body)) != example.shown


def test_a_length_is_shown_for_a_value_that_changes_and_checked() -> None:
    assert masked({"token": "abcd", "seq": 0}, {"token": "<3 characters>", "seq": 0}) == {
        "token": "<4 characters>",
        "seq": 0,
    }


def test_the_rules_core_example_gives_the_value_shown() -> None:
    page = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    code = page.split("\n## The rules core\n", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    *statements, expression, shown = code.strip().splitlines()
    space: dict[str, Any] = {}
    exec("\n".join(statements), space)  # noqa: S102 - the page's own example
    assert f"# {eval(expression, space)!r}" == shown  # noqa: S307 - the page's own expression


def _sequence(page: Path) -> list[Example]:
    block = CUT_EXAMPLE.search(page.read_text(encoding="utf-8"))
    assert block is not None, f"{page.name} has no chkobba deal through its cut"
    return [Example(m.group(1), m.group(2), m.group(3), m.start(3), m.end(3)) for m in EXAMPLE.finditer(block.group(1))]


def test_the_chkobba_deal_and_its_cut_give_the_outputs_shown() -> None:
    pairs = _sequence(ROOT / "docs" / "integrator.md")
    assert [example.path for example in pairs] == ["/v1/rounds", "/v1/rounds/play"]
    client = service_client()
    token = None
    for example in pairs:
        body = example.body
        assert body is not None
        if token is not None:
            assert "$TOKEN" in body
            body = body.replace("$TOKEN", token)
        response = call(client, example.path, body)
        assert response.status_code == 200, response.get_json()
        answer = response.get_json()
        token = answer["state_token"]
        assert masked(answer, json.loads(example.shown)) == json.loads(example.shown)
