"""The README's curl examples still give the outputs it shows."""

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from service.app import create_app

from ..support import POST_PATHS

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
PAIR = re.compile(r"```sh\n(curl [^`]*?)\n```\n\n```json\n([^`]*?)\n```")
# The chkobba deal through its cut ("Integrating a game"): calls in sequence on one service, each
# sending the state token of the answer before it as $TOKEN, each token shown by its length.
CUT_EXAMPLE = re.compile(r"<!-- cut-example:begin -->\n(.*?)<!-- cut-example:end -->", re.DOTALL)


def _request(command: str) -> tuple[str, str | None]:
    """The path and the body of a curl command."""
    words = shlex.split(command.split(" | ")[0].replace("\\\n", " "))
    url = next(w for w in words if w.startswith("localhost:"))
    body = words[words.index("-d") + 1] if "-d" in words else None
    return url.removeprefix("localhost:8080"), body


def _examples() -> list[Any]:
    cases = []
    for command, output in PAIR.findall(CUT_EXAMPLE.sub("", README)):
        path, body = _request(command)
        cases.append(pytest.param(path, body, json.loads(output), id=path))
    return cases


EXAMPLES = _examples()


def test_the_readme_shows_an_example_of_every_contract_operation() -> None:
    paths = {path for path, *_ in (case.values for case in EXAMPLES)}
    assert paths >= {"/v1/rulesets/scopa", *POST_PATHS}


@pytest.mark.parametrize(("path", "body", "expected"), EXAMPLES)
def test_readme_example_gives_the_output_shown(path: str, body: str | None, expected: Any) -> None:
    client = create_app({"TESTING": True}).test_client()
    if body is None:
        response = client.get(path)
    else:
        response = client.post(path, data=body, content_type="application/json")
    assert response.get_json() == expected


def test_the_chkobba_deal_and_its_cut_give_the_outputs_shown() -> None:
    block = CUT_EXAMPLE.search(README)
    assert block is not None, "the README has no chkobba deal through its cut"
    pairs = PAIR.findall(block.group(1))
    assert [_request(command)[0] for command, _ in pairs] == ["/v1/rounds", "/v1/rounds/play"]
    client = create_app({"TESTING": True}).test_client()
    token = None
    for command, output in pairs:
        path, body = _request(command)
        assert body is not None
        if token is not None:
            assert "$TOKEN" in body
            body = body.replace("$TOKEN", token)
        response = client.post(path, data=body, content_type="application/json")
        assert response.status_code == 200, response.get_json()
        answer = response.get_json()
        token = answer["state_token"]
        masked = {name: f"<{len(answer[name])} characters>" for name in ("state_token", "round_id")}
        assert {**answer, **masked} == json.loads(output)
