"""The README's curl examples still give the outputs it shows."""

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from service.app import create_app

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
PAIR = re.compile(r"```sh\n(curl [^`]*?)\n```\n\n```json\n([^`]*?)\n```")


def _examples() -> list[Any]:
    cases = []
    for command, output in PAIR.findall(README):
        words = shlex.split(command.split(" | ")[0].replace("\\\n", " "))
        url = next(w for w in words if w.startswith("localhost:"))
        body = words[words.index("-d") + 1] if "-d" in words else None
        path = url.removeprefix("localhost:8080")
        cases.append(pytest.param(path, body, json.loads(output), id=path))
    return cases


EXAMPLES = _examples()


def test_the_readme_shows_an_example_of_every_contract_operation() -> None:
    paths = {path for path, *_ in (case.values for case in EXAMPLES)}
    assert paths >= {
        "/v1/rulesets/scopa",
        "/v1/captures",
        "/v1/moves",
        "/v1/scores",
        "/v1/match-decisions",
        "/v1/rounds",
        "/v1/rounds/play",
        "/v1/rounds/replay",
    }


@pytest.mark.parametrize(("path", "body", "expected"), EXAMPLES)
def test_readme_example_gives_the_output_shown(path: str, body: str | None, expected: Any) -> None:
    client = create_app({"TESTING": True}).test_client()
    if body is None:
        response = client.get(path)
    else:
        response = client.post(path, data=body, content_type="application/json")
    assert response.get_json() == expected
