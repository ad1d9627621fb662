"""The short road for loading request bodies (service/api/loading.py) against Schema.load itself:
the same result for every body, or the same error."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from marshmallow import Schema, ValidationError, fields, post_load, pre_load, validates_schema

from service.api import examples, reviews, schemas
from service.api.io import LOADERS
from service.api.loading import Checked, Loader

from ..support import ROOT, changed, places

EXAMPLES = {
    "captures": examples.captures(),
    "moves": examples.moves(),
    "scores": examples.scores(),
    "match": examples.match(),
    "deal": examples.deal(),
    "play": examples.play(),
    "view": examples.view(),
    "hints": examples.hints(),
    "replay": examples.replay(),
    "review": reviews.examples(),
    "match_replay": examples.match_replay(),
    "commit": examples.commit(),
}
SHORT = sorted(name for name, loader in LOADERS.items() if loader.fields is not None)


def outcome(load: Any, body: Any) -> tuple[str, Any]:
    try:
        return "loaded", load(body)
    except ValidationError as exc:
        return "refused", exc.messages


def test_every_request_schema_has_examples_here() -> None:
    assert set(EXAMPLES) == set(schemas.REQUEST_SCHEMAS)


def test_the_short_road_serves_every_request() -> None:
    assert set(SHORT) == set(schemas.REQUEST_SCHEMAS)
    assert all(isinstance(loader.schema, Checked) for loader in LOADERS.values())


def test_no_schema_of_the_service_has_a_hook_but_checked_s_own() -> None:
    """The short road reproduces only the checks a Checked schema names: a marshmallow hook written
    in a request schema would be skipped by it."""
    hooks = re.compile(r"@(pre_load|post_load|validates|validates_schema)\b")
    found = {
        path.name: hooks.findall(path.read_text(encoding="utf-8")) for path in (ROOT / "service" / "api").glob("*.py")
    }
    assert {name: used for name, used in found.items() if used} == {"loading.py": ["validates_schema"]}


class TwoChecks(Checked):
    a = fields.Integer()
    b = fields.Integer()
    checks = ("a_small", "b_small")

    def a_small(self, data: dict[str, Any]) -> None:
        if data.get("a", 0) > 1:
            raise ValidationError("a is too big", "a")

    def b_small(self, data: dict[str, Any]) -> None:
        if data.get("b", 0) > 1:
            raise ValidationError(["b is too big", "b is odd"], "b")


def test_every_failing_check_is_reported_as_marshmallow_reports_every_failing_hook() -> None:
    loader = Loader(TwoChecks())
    assert loader.load({"a": 1, "b": 0}) == {"a": 1, "b": 0}
    with pytest.raises(ValidationError) as caught:
        loader.load({"a": 2, "b": 3})
    assert caught.value.messages == {"a": ["a is too big"], "b": ["b is too big", "b is odd"]}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_examples_take_the_short_road(name: str) -> None:
    """Not a fall-back every time: the short road itself loads every example, as Schema.load does."""
    for example in EXAMPLES[name].values():
        body = example["body"]
        assert LOADERS[name].quick(body) == schemas.REQUEST_SCHEMAS[name].load(body)


class Hooked(Schema):
    value = fields.Integer()

    @pre_load
    def _strip(self, data: Any, **kwargs: Any) -> Any:
        return data


class Original(Schema):
    value = fields.Integer()

    @validates_schema(pass_original=True)
    def _check(self, data: Any, original: Any, **kwargs: Any) -> None:
        pass


class Renamed(Schema):
    value = fields.Integer(data_key="Value")


class Inner(Schema):
    value = fields.Integer()

    @post_load
    def _wrap(self, data: Any, **kwargs: Any) -> Any:
        return ("wrapped", data)


class Outer(Schema):
    inner = fields.Nested(Inner)


@pytest.mark.parametrize("schema", [Hooked(), Original(), Renamed(), Hooked(many=True), Hooked(partial=True)])
def test_what_the_short_road_does_not_reproduce_goes_to_schema_load(schema: Schema) -> None:
    loader = Loader(schema)
    assert loader.fields is None
    key = "Value" if isinstance(schema, Renamed) else "value"
    body: Any = [{key: 1}] if schema.many else {key: 1}
    assert loader.load(body) == schema.load(body)


def test_a_nested_schema_with_hooks_loads_by_its_own_road() -> None:
    loader = Loader(Outer())
    assert loader.load({"inner": {"value": 2}}) == {"inner": ("wrapped", {"value": 2})}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_examples_load_alike(name: str) -> None:
    for example in EXAMPLES[name].values():
        body = example["body"]
        assert outcome(LOADERS[name].load, body) == outcome(schemas.REQUEST_SCHEMAS[name].load, body)
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
    if keys:  # commitDeal's body is empty: there is nothing to drop or change, only a field to add
        for key in data.draw(st.lists(st.sampled_from(keys), max_size=2, unique=True)):
            del body[key]
        for key in data.draw(st.lists(st.sampled_from(keys), max_size=2, unique=True)):
            body[key] = data.draw(JSON)
    if data.draw(st.booleans()):
        body["unknown"] = data.draw(JSON)
    assert outcome(LOADERS[name].load, body) == outcome(schemas.REQUEST_SCHEMAS[name].load, body)


@pytest.mark.parametrize("name", SHORT)
def test_an_unknown_field_beside_a_valid_body_fails_alike(name: str) -> None:
    for example in EXAMPLES[name].values():
        body = {**example["body"], "unknown": 1}
        assert outcome(LOADERS[name].load, body) == outcome(schemas.REQUEST_SCHEMAS[name].load, body)
        assert outcome(LOADERS[name].load, body)[0] == "refused"


@pytest.mark.parametrize("name", SHORT)
@pytest.mark.parametrize("body", [None, [], "body", 3, {"unknown": 1}])
def test_what_is_not_a_body_fails_alike(name: str, body: Any) -> None:
    assert outcome(LOADERS[name].load, body) == outcome(schemas.REQUEST_SCHEMAS[name].load, body)
    assert outcome(LOADERS[name].load, body)[0] == "refused"


# ---- changes anywhere in a body, nested states and moves included ---------------------------------

LEAVES = st.sampled_from(
    [None, True, False, -1, 0, 1, 2, 3, 4, 5, 39, 40, 64, 65, 2.0, 1.5, "", "x", "7D", "AS", "KH", "QC", "2D"]
    + ["keep", "table", "play", "cut", "over", "redeal", "chkobba", "scopa", "chkobba-crp", "continue", "won"]
) | st.just({"profile": "chkobba-crp", "options": {"face_sums": True}})
VALUES = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=3), max_leaves=4)


@pytest.mark.parametrize("name", SHORT)
@given(data=st.data())
def test_deep_changes_load_or_fail_alike(name: str, data: st.DataObject) -> None:
    """One to three changes at any depth (a card in a nested state's hand, a move's capture, a
    side's counts): the short road gives what Schema.load gives, or Schema.load's own error."""
    example = data.draw(st.sampled_from(sorted(EXAMPLES[name])))
    body: Any = EXAMPLES[name][example]["body"]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(places(body)))
        action = data.draw(st.sampled_from(["replace", "delete", "insert"]))
        body = changed(body, path, action, data.draw(VALUES))
    assert outcome(LOADERS[name].load, body) == outcome(schemas.REQUEST_SCHEMAS[name].load, body)


# ---- a plain state: loaded by its schema, then built without reading its form again ---------------


def _round_states() -> list[dict[str, Any]]:
    import random

    from service.rules import Phase, PlayMove, advance, deal_round, legal_moves

    found = []
    for profile, players in [("chkobba", 2), ("chkobba", 4), ("chkobba-crp", 3), ("scopa", 2)]:
        rng = random.Random(players)
        state, _ = deal_round(
            profile, players, 0, seed=f"{profile}{players}", cut="keep" if profile == "chkobba" else None
        )
        found.append(state.to_json())
        while state.phase is Phase.PLAY:
            caps = rng.choice(legal_moves(state))
            state, _ = advance(state, PlayMove(caps.card, rng.choice(caps.options) if caps.options else ()))
            found.append(state.to_json())
    found.append(deal_round("chkobba", 2, 1, seed="cut")[0].to_json())  # phase cut
    return found


ROUND_STATES = _round_states()
STATE_CHANGES = st.sampled_from(["turn", "dealer", "players", "last_capturer", "sweeps", "swap", "move", "phase"])


def _state_outcome(build: Any, state: Any) -> tuple[Any, ...]:
    from service.rules import RulesError

    try:
        return ("state", build(state))
    except RulesError as exc:
        return ("error", type(exc), exc.code, exc.field, exc.message, exc.details)


@given(data=st.data())
def test_a_loaded_plain_state_is_the_state_from_json_reads(data: st.DataObject) -> None:
    """A request's plain state is built from what RoundStateSchema loaded (schemas._checked_state, in
    the StateField) instead of reading its form again with from_json: the same state, or the same
    bad-state error."""
    from service.api.schemas import _STATE_LOADER, _checked_state
    from service.rules import RoundState

    state = json.loads(json.dumps(data.draw(st.sampled_from(ROUND_STATES))))
    for _ in range(data.draw(st.integers(0, 2))):
        change = data.draw(STATE_CHANGES)
        if change == "phase":
            state["phase"] = data.draw(st.sampled_from(["cut", "play", "redeal", "over"]))
        elif change in ("swap", "move"):
            places = [p for p in (state["table"], state["stock"], *state["hands"], *state["piles"]) if p]
            source = data.draw(st.sampled_from(places))
            card = source.pop(data.draw(st.integers(0, len(source) - 1)))
            target = data.draw(st.sampled_from([state["table"], state["stock"], *state["hands"], *state["piles"]]))
            target.append(card)
            if change == "swap" and len(target) > 1:
                target[0], target[-1] = target[-1], target[0]
        elif change == "sweeps":
            state["sweeps"][0] = data.draw(st.integers(-1, 12))
        else:
            state[change] = (
                data.draw(st.none() | st.integers(-1, 5))
                if change in ("turn", "last_capturer")
                else (data.draw(st.integers(0, 4)))
            )
    try:
        loaded = _STATE_LOADER.load(state)
    except ValidationError:
        return  # refused for its form, at the edge: from_json is never reached
    assert _state_outcome(_checked_state, loaded) == _state_outcome(RoundState.from_json, state)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("sweeps", [0, True]),
        ("sweeps", [0, -1]),
        ("sweeps", [0, 2.0]),
        ("sweeps", []),
        ("sweeps", [0, 0, 0, 0]),
        ("hands", [["AD"], None]),
        ("hands", [["AD"], ["AD"]]),
        ("hands", [["AD", "AD"], []]),
        ("hands", [["XX"], []]),
        ("hands", "AD"),
        ("piles", [[], [], [], []]),
        ("players", True),
        ("players", 5),
        ("turn", None),
        ("turn", -1),
        ("phase", "Play"),
        ("phase", 3),
        ("last_capturer", 3),
        ("rules", {"profile": "chkobba-crp", "options": {"face_sums": True}}),
        ("rules", "nope"),
    ],
)
def test_the_written_out_state_tests_load_or_fail_as_schema_load(key: str, value: Any) -> None:
    """The tests _compile writes in line (a range, a set of types, a list of card lists) against
    Schema.load on a state changed in one field."""
    state = json.loads(json.dumps(ROUND_STATES[3]))
    state[key] = value
    body = {"state": state, "move": {"card": "AD"}}
    assert outcome(LOADERS["play"].load, body) == outcome(schemas.REQUEST_SCHEMAS["play"].load, body)
