"""The contract holds none of the constructs that client generators turn into code that cannot play
(issue 24; docs/clients/openapi-generator.md): a lint over openapi.json, in milliseconds. The generators
themselves run in tests/contract/test_openapi_generator.py.

- no ``type`` list of several JSON types (null aside): named ``oneOf`` unions instead;
- no ``uniqueItems``: generators make sets of them, and the order of the table, the stock and a hand
  is the game's (the descriptions say "distinct");
- every union of objects can be told apart as generators decide: a discriminator with a mapping, or
  branches that are closed shapes each needing a property the other lacks or holding a one-value enum
  the other cannot; a union of primitives has branches of different JSON types, each a named component;
- every rule the generators ignore (``not``, ``dependentSchemas``, ``dependentRequired``, ``const``) is
  also in the words of its schema's description.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = json.loads((ROOT / "openapi.json").read_text(encoding="utf-8"))
SCHEMAS: dict[str, Any] = DOCUMENT["components"]["schemas"]
IGNORED_BY_GENERATORS = ("not", "dependentSchemas", "dependentRequired", "const")


def nodes(node: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema-like mapping under ``node``, with its path."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from nodes(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from nodes(value, f"{path}/{index}")


def resolved(schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = SCHEMAS[schema["$ref"].rsplit("/", 1)[1]]
    return schema


def json_type(schema: dict[str, Any]) -> str | None:
    schema = resolved(schema)
    if "oneOf" in schema:
        return None
    return schema.get("type")


def excludes(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """No instance of ``a`` is one of ``b``: ``a`` needs a property that ``b``, closed, lacks, or a
    property that both need holds enums with no value in common."""
    b_properties = b.get("properties", {})
    for name in a.get("required", []):
        if name not in b_properties and b.get("additionalProperties") is False:
            return True
        if name in b.get("required", []) and name in b_properties:
            a_enum = resolved(a["properties"][name]).get("enum")
            b_enum = resolved(b_properties[name]).get("enum")
            if a_enum is not None and b_enum is not None and not set(a_enum) & set(b_enum):
                return True
    return False


def union_problems(path: str, schema: dict[str, Any]) -> list[str]:
    branches = schema["oneOf"]
    problems = [f"{path}: branch {b} is not a named component" for b in branches if "$ref" not in b]
    if problems:
        return problems
    types = [json_type(b) for b in branches]
    objects = [resolved(b) for b, t in zip(branches, types, strict=True) if t == "object"]
    primitives = [t for t in types if t != "object"]
    if len(set(primitives)) != len(primitives) or None in primitives:
        problems.append(f"{path}: branches of the same JSON type {types}")
    if len(objects) > 1:
        mapping = schema.get("discriminator", {}).get("mapping")
        if mapping is not None:
            named = {ref.rsplit("/", 1)[1] for ref in mapping.values()}
            missing = {b["$ref"].rsplit("/", 1)[1] for b in branches} - named
            if missing:
                problems.append(f"{path}: the discriminator maps no value to {sorted(missing)}")
        else:
            for a, b in itertools.combinations(objects, 2):
                if not (excludes(a, b) and excludes(b, a)):
                    problems.append(f"{path}: {a.get('required')} and {b.get('required')} can both match")
    return problems


def named_in(rule: Any) -> set[str]:
    """The property names and values that a rule the generators ignore speaks of."""
    names: set[str] = set()
    for _, node in nodes(rule):
        names.update(node.get("required", []))
        names.update(node.get("properties", {}))
        for key in ("dependentSchemas", "dependentRequired"):
            names.update(node.get(key, {}))
        for values in node.get("dependentRequired", {}).values():
            names.update(values)
        if "const" in node:
            names.add(json.dumps(node["const"]).strip('"'))
        if node.get("not") == {}:  # matches nothing: in the contract, only as an object's other properties
            names.add("additionalProperties")
    return names


def test_no_type_lists_of_several_types() -> None:
    found = [
        f"{path}: {node['type']}"
        for path, node in nodes(DOCUMENT)
        if isinstance(node.get("type"), list) and len([t for t in node["type"] if t != "null"]) > 1
    ]
    assert found == []


def test_no_unique_items_and_card_lists_say_distinct() -> None:
    assert [path for path, node in nodes(DOCUMENT) if "uniqueItems" in node] == []
    card_lists = [
        (path, node)
        for path, node in nodes(DOCUMENT)
        if node.get("items") == {"$ref": "#/components/schemas/Card"} and "/examples/" not in path
    ]
    assert len(card_lists) > 20
    assert [path for path, node in card_lists if "Distinct cards" not in node.get("description", "")] == []


def test_every_union_can_be_told_apart() -> None:
    unions = [(path, node) for path, node in nodes(DOCUMENT["components"]) if "oneOf" in node]
    assert len(unions) >= 12
    assert [problem for path, node in unions for problem in union_problems(path, node)] == []


def test_every_any_of_is_a_named_schema_or_null() -> None:
    for path, node in nodes(DOCUMENT):
        if "anyOf" in node and "/examples/" not in path:
            branches = node["anyOf"]
            assert len(branches) == 2 and {"type": "null"} in branches, path
            assert any("$ref" in b for b in branches), path


def with_ignored_rules(name: str) -> bool:
    return any(key in node for _, node in nodes(SCHEMAS[name]) for key in IGNORED_BY_GENERATORS)


@pytest.mark.parametrize("name", [name for name in SCHEMAS if with_ignored_rules(name)])
def test_rules_the_generators_ignore_are_said_in_words(name: str) -> None:
    schema = SCHEMAS[name]
    rules = [node for _, node in nodes(schema) if any(k in node for k in IGNORED_BY_GENERATORS)]
    spoken = named_in([{k: node[k] for k in IGNORED_BY_GENERATORS if k in node} for node in rules])
    description = schema.get("description", "")
    assert spoken and [word for word in sorted(spoken) if f"`{word}`" not in description] == []


def test_rules_keeps_its_string_form_and_each_profile_is_a_named_one_value_enum() -> None:
    branches = [b["$ref"].rsplit("/", 1)[1] for b in SCHEMAS["Rules"]["oneOf"]]
    assert branches[0] == "ProfileId"
    for name, profile in zip(branches[1:], SCHEMAS["ProfileId"]["enum"], strict=True):
        profile_ref = SCHEMAS[name]["properties"]["profile"]["$ref"].rsplit("/", 1)[1]
        assert SCHEMAS[profile_ref] == {**SCHEMAS[profile_ref], "type": "string", "enum": [profile]}


def test_the_lint_catches_each_construct() -> None:
    """The checks above fail on what they look for (so that passing means something)."""
    closed = {"type": "object", "additionalProperties": False}
    SCHEMAS_ = {
        "A": {**closed, "properties": {"x": {}, "y": {}}, "required": ["x"]},
        "B": {**closed, "properties": {"x": {}, "y": {}}, "required": ["y"]},
        "C": {"type": "object", "properties": {"z": {}}, "required": ["z"]},
    }
    saved = dict(SCHEMAS)
    SCHEMAS.update(SCHEMAS_)
    try:
        ref = [{"$ref": f"#/components/schemas/{n}"} for n in "ABC"]
        assert union_problems("AB", {"oneOf": ref[:2]})  # both have x and y: {"x", "y"} matches both
        assert union_problems("AC", {"oneOf": [ref[0], ref[2]]})  # C is open: {"x", "z"} matches both
        assert union_problems("inline", {"oneOf": [{"type": "string"}, {"type": "integer"}]})
        assert not union_problems(
            "mapped",
            {
                "oneOf": ref[:2],
                "discriminator": {"propertyName": "x", "mapping": {"a": ref[0]["$ref"], "b": ref[1]["$ref"]}},
            },
        )
    finally:
        SCHEMAS.clear()
        SCHEMAS.update(saved)
    assert named_in({"not": {"required": ["deck", "seed"]}}) == {"deck", "seed"}
    assert named_in({"dependentSchemas": {"viewer": {"properties": {"sealed": {"const": True}}}}}) == {
        "viewer",
        "sealed",
        "true",
    }
