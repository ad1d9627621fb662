"""The short road for loading request bodies (service/api/loading.py) against Schema.load itself:
the same result for every body, or the same error."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from marshmallow import ValidationError

from service.api import examples, schemas
from service.api.io import LOADERS

EXAMPLES = {
    "captures": examples.CAPTURES,
    "moves": examples.MOVES,
    "scores": examples.SCORES,
    "match": examples.MATCH,
    "deal": examples.DEAL,
    "play": examples.PLAY,
    "view": examples.VIEW,
    "hints": examples.HINTS,
    "replay": examples.REPLAY,
}
SHORT = sorted(name for name, loader in LOADERS.items() if loader.fields is not None)


def outcome(load: Any, body: Any) -> tuple[str, Any]:
    try:
        return "loaded", load(body)
    except ValidationError as exc:
        return "refused", exc.messages


def test_every_request_schema_has_examples_here() -> None:
    assert set(EXAMPLES) == set(schemas.REQUESTS)


def test_the_short_road_serves_the_hot_requests_and_never_a_schema_with_hooks() -> None:
    assert {"captures", "replay", "scores", "moves"} <= set(SHORT)
    for name, loader in LOADERS.items():
        if loader.fields is not None:
            assert not any(loader.schema._hooks.values()), name


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_examples_load_alike(name: str) -> None:
    for example in EXAMPLES[name].values():
        body = example["body"]
        assert outcome(LOADERS[name].load, body) == outcome(schemas.REQUESTS[name].load, body)
        assert outcome(LOADERS[name].load, body)[0] == "loaded"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 70) | st.sampled_from(["7D", "AS", "chkobba", "keep", "", "x"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["card", "capture", "a"]), inner),
    max_leaves=6,
)


@pytest.mark.parametrize("name", SHORT)
@given(data=st.data())
def test_changed_examples_load_or_fail_alike(name: str, data: st.DataObject) -> None:
    example = data.draw(st.sampled_from(sorted(EXAMPLES[name])))
    body: dict[str, Any] = dict(EXAMPLES[name][example]["body"])
    keys = sorted(body)
    for key in data.draw(st.lists(st.sampled_from(keys), max_size=2, unique=True)):
        del body[key]
    for key in data.draw(st.lists(st.sampled_from(keys), max_size=2, unique=True)):
        body[key] = data.draw(JSON)
    if data.draw(st.booleans()):
        body["unknown"] = data.draw(JSON)
    assert outcome(LOADERS[name].load, body) == outcome(schemas.REQUESTS[name].load, body)


@pytest.mark.parametrize("name", SHORT)
def test_an_unknown_field_beside_a_valid_body_fails_alike(name: str) -> None:
    for example in EXAMPLES[name].values():
        body = {**example["body"], "unknown": 1}
        assert outcome(LOADERS[name].load, body) == outcome(schemas.REQUESTS[name].load, body)
        assert outcome(LOADERS[name].load, body)[0] == "refused"


@pytest.mark.parametrize("name", SHORT)
@pytest.mark.parametrize("body", [None, [], "body", 3, {"unknown": 1}])
def test_what_is_not_a_body_fails_alike(name: str, body: Any) -> None:
    assert outcome(LOADERS[name].load, body) == outcome(schemas.REQUESTS[name].load, body)
    assert outcome(LOADERS[name].load, body)[0] == "refused"
