"""Builds the contract from the operation registry and the marshmallow schemas.

The committed files are generated, never edited: ``python -m service.contract`` (``make openapi``)
writes ``openapi.yaml`` and ``openapi.json``, and a test fails when they differ from what this
module produces. Response examples are the service's real answers to the request examples.
"""

from __future__ import annotations

import copy
import json
from importlib import metadata
from typing import Any

import yaml
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask.testing import FlaskClient
from marshmallow import Schema, fields

from service.ops.limits import MAX_BODY_BYTES
from service.ops.problems import PROBLEM_MEDIA_TYPE
from service.rules import DECK, PROFILES, Outcome, Phase
from service.rules.shuffle import MAX_SEED_LENGTH, SEED_MAX, SEED_MIN
from service.strategy import LEVELS, Shortened

from .codes import CODES
from .fields import CardList, Moves, Referenced
from .loading import Checked
from .operations import OPERATIONS, Operation
from .render import OPTION_TYPES
from .schemas import CAPTURE_KINDS, CUTS, WITH_VARIANTS, ProblemOut, RecordMoveInput

PACKAGE_VERSION = metadata.version("chkobba-referee")
DESCRIPTION = """\
The reference rules-adjudication service for Chkobba, Tunisia's national card game, and its
Scopa-family relatives (profiles `chkobba`, `chkobba-crp`, `scopa`). Stateless: every request
carries everything needed to answer it.

* Cards are two-character codes: rank `A 2 3 4 5 6 7 J Q K`, suit `D H S C` (`7D`, `QH`).
* `rules` is a profile id or `{"profile", "options"}`; an option the profile lacks is a 422.
* Every answer that is not a success is `application/problem+json` (RFC 9457) with a stable
  `code`; validation problems add `errors`, a map from field path to messages; illegal moves add
  `options` (the played card's legal captures) and `legal` (what each hand card may do).
* Request bodies over {body_kib} KiB are refused with 413.
* The rules it applies: [the rules page](rules) (`/rules`; docs/rules.md in the repository). Each
  profile's sheet there is its ruleset's `rules_url`.
* The portable seeded shuffle and its test vectors: [the seeded shuffle](docs/seeded-shuffle)
  (`/docs/seeded-shuffle`; docs/seeded-shuffle.md in the repository).
""".replace("{body_kib}", str(MAX_BODY_BYTES // 1024))

STANDARD_PROBLEMS = {
    "400": "The body is not JSON (`malformed-json`).",
    "413": f"The body is larger than {MAX_BODY_BYTES // 1024} KiB (`body-too-large`).",
    "415": "The body is not `application/json` (`unsupported-media-type`).",
    "422": "The request breaks the contract or the rules; `code` says how, `errors` where.",
}


def _schema_name(schema: type[Schema] | Schema) -> str:
    cls = schema if isinstance(schema, type) else type(schema)
    name = cls.__name__
    for suffix in ("Schema", "Out"):  # RoundStateSchema is RoundState, RulesetOut is Ruleset
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def _referenced(self: Any, field: fields.Field, **kwargs: Any) -> dict[str, Any]:  # type: ignore[type-arg]
    if isinstance(field, CardList):
        return {
            "items": {"$ref": "#/components/schemas/Card"},
            "minItems": field.min_items,
            "maxItems": field.max_items,
        }
    if isinstance(field, Moves):
        return {"items": {"$ref": "#/components/schemas/RecordMoveInput"}, "maxItems": field.max_items}
    if not isinstance(field, Referenced):
        return {}
    ref = {"$ref": f"#/components/schemas/{field.openapi_ref}"}
    return {"anyOf": [ref, {"type": "null"}]} if field.allow_none else ref


def _profile_name(profile_id: str) -> str:
    """``chkobba-crp`` as ``ChkobbaCrp``: the stem of the profile's component names."""
    return "".join(part.capitalize() for part in profile_id.split("-"))


def _varnames(members: list[str]) -> dict[str, list[str]]:
    """Names for the members of an enum whose values have hyphens (`card-not-held` as CARD_NOT_HELD):
    without them openapi-generator's Python client spells each hyphen out (CARD_MINUS_NOT_MINUS_HELD)."""
    if not any("-" in m for m in members):
        return {}
    return {"x-enum-varnames": [m.replace("-", "_").upper() for m in members]}


def _components() -> dict[str, dict[str, Any]]:
    """The shared components: named, so that client generators give each a type of its own."""
    components: dict[str, dict[str, Any]] = {
        "Card": {
            "type": "string",
            "enum": [c.code for c in DECK],
            "x-enum-varnames": [_card_name(c) for c in DECK],
            "description": "A card: rank (A 2 3 4 5 6 7 J Q K) then suit (D H S C).",
            "example": "7D",
        },
        "ProfileId": {
            "type": "string",
            "enum": list(PROFILES),
            **_varnames(list(PROFILES)),
            "description": "A rules profile, with its default options.",
        },
    }
    variants = [{"$ref": "#/components/schemas/ProfileId"}]
    for profile in PROFILES.values():
        options: dict[str, Any] = {}
        for spec in profile.options.values():
            if spec.type is bool:
                options[spec.name] = {"type": "boolean", "default": spec.default, "description": spec.description}
            else:
                options[spec.name] = {"type": "integer", "minimum": 1, "description": spec.description}
                if spec.maximum is not None:
                    options[spec.name]["maximum"] = spec.maximum
                if spec.default is not None:
                    options[spec.name]["default"] = spec.default
        name = _profile_name(profile.id)
        components[f"{name}Profile"] = {
            "type": "string",
            "enum": [profile.id],
            **_varnames([profile.id]),
            "description": f"The profile id `{profile.id}`, its only value: what tells {name}Rules from the other "
            "profiles' rules.",
        }
        components[f"{name}Options"] = {
            "type": "object",
            "description": f"The options of {profile.id}; each one left out takes its default.",
            "properties": options,
            "additionalProperties": False,
        }
        components[f"{name}Rules"] = {
            "type": "object",
            "description": f"{profile.id} with options: `profile` is always `{profile.id}`.",
            "properties": {
                "profile": {"$ref": f"#/components/schemas/{name}Profile"},
                "options": {"$ref": f"#/components/schemas/{name}Options"},
            },
            "required": ["profile"],
            "additionalProperties": False,
        }
        variants.append({"$ref": f"#/components/schemas/{name}Rules"})
    components["Rules"] = {
        "description": "A profile id, or a profile with options. An option the profile lacks is an error.",
        "oneOf": variants,
        "example": "chkobba",
    }
    # Each branch of a union of primitives is a named component: generators name a branch after its
    # component, and an inline one after its type (Go's `string` and `int64`, reserved words there).
    components["SeedText"] = {
        "type": "string",
        "minLength": 1,
        "maxLength": MAX_SEED_LENGTH,
        "description": "A seed as text.",
    }
    components["SeedNumber"] = {
        "type": "integer",
        "format": "int64",
        "minimum": SEED_MIN,
        "maximum": SEED_MAX,
        "description": "A seed as a whole number, taken as its decimal text.",
    }
    components["Seed"] = {
        "description": "Seed of the portable shuffle: a string, or a whole number taken as its decimal text "
        f"(`{SEED_MIN}` to `{SEED_MAX}`, the signed 64-bit range of most languages; send larger numbers as strings, "
        'which give the same deck: `"18446744073709551615"`).',
        "oneOf": [{"$ref": "#/components/schemas/SeedText"}, {"$ref": "#/components/schemas/SeedNumber"}],
        "example": "chkobba",
    }
    for name, (description, branches) in PRIMITIVE_UNIONS.items():
        refs = []
        for suffix, json_type in branches:
            components[name + suffix] = {"type": json_type, "description": f"{description}: the {json_type} form."}
            refs.append({"$ref": f"#/components/schemas/{name}{suffix}"})
        components[name] = {"description": description + ".", "oneOf": refs}
    return components


# The values of more than one JSON type, as named unions (a `type` list of several types becomes an empty
# or untyped model in most generators): the component, what it holds, and its branches.
PRIMITIVE_UNIONS = {
    "OptionValue": ("An option's value: a boolean or a whole number", (("Flag", "boolean"), ("Number", "integer"))),
    "DiscrepancyValue": (
        "A claimed or expected value: an outcome or a whole number (a seat, a side, a score)",
        (("Text", "string"), ("Number", "integer")),
    ),
}
PRIMITIVE_UNION_OF = {tuple(t for _, t in branches): name for name, (_, branches) in PRIMITIVE_UNIONS.items()}


RANK_NAMES = {"A": "ACE", "2": "TWO", "3": "THREE", "4": "FOUR", "5": "FIVE", "6": "SIX", "7": "SEVEN"}
RANK_NAMES.update(J="JACK", Q="QUEEN", K="KING")
SUIT_NAMES = {"D": "DIAMONDS", "H": "HEARTS", "S": "SPADES", "C": "CLUBS"}


def _card_name(card: Any) -> str:
    """``7D`` as ``SEVEN_OF_DIAMONDS``: the enum member's name in generated clients."""
    return f"{RANK_NAMES[card.code[0]]}_OF_{SUIT_NAMES[card.code[1]]}"


def _run_examples(client: FlaskClient, op: Operation, examples: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each request example answered by the service, grouped by status code."""
    by_status: dict[str, dict[str, Any]] = {}
    for name, example in examples.items():
        response = client.open(op.path, method=op.method.upper(), json=example["body"])
        by_status.setdefault(str(response.status_code), {})[name] = {
            "summary": example["summary"],
            "value": _without_tokens(response.get_json()),
        }
    return by_status


TOKEN_PLACEHOLDER = "(an opaque token of about a thousand characters; it differs on every call)"
# What differs on every call (a fresh salt, a secret drawn at random, the time), shown as a placeholder.
VOLATILE = {
    "state_token": TOKEN_PLACEHOLDER,
    "commit_token": "(an opaque token; it differs on every call)",
    "round_id": "(22 characters drawn at the deal)",
    "commitment": "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",  # docs/fair-deals.md, vector 1
    "deadline": "2026-12-02T07:40:05.123Z",
}


def _without_tokens(value: Any) -> Any:
    """What differs on every call (VOLATILE) as placeholders, so that the examples stay the same."""
    if isinstance(value, dict):
        return {k: VOLATILE[k] if k in VOLATILE else _without_tokens(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_tokens(v) for v in value]
    return value


def build(client: FlaskClient) -> dict[str, Any]:
    """The contract of the operations registered, with ``client`` (the whole app's test client)
    answering the examples."""
    spec = APISpec(
        title="Chkobba referee",
        version=PACKAGE_VERSION,
        openapi_version="3.1.0",
        plugins=[MarshmallowPlugin(schema_name_resolver=_schema_name)],
        info={
            "description": DESCRIPTION,
            "license": {"name": "MIT", "identifier": "MIT"},
            "contact": {"name": "The Chkobba referee team"},
        },
        # No authentication: the service sits behind the game server, which authenticates players
        # (docs/integrator.md).
        security=[],
        servers=[{"url": "http://127.0.0.1:8080", "description": "make run"}],
        tags=[
            {"name": "rules", "description": "The rules profiles as data."},
            {"name": "adjudication", "description": "Captures, plays, scores and match decisions."},
            {"name": "rounds", "description": "Rounds and matches: deal, play move by move, replay a record."},
            {
                "name": "operations",
                "description": "Health, readiness, metrics, this contract, and the keys that verify receipts.",
            },
        ],
    )
    plugin = spec.plugins[0]
    assert isinstance(plugin, MarshmallowPlugin) and plugin.converter is not None
    plugin.converter.map_to_openapi_type(Referenced, None, None)  # type: ignore[no-untyped-call]
    plugin.converter.map_to_openapi_type(CardList, "array", None)  # type: ignore[no-untyped-call]
    plugin.converter.map_to_openapi_type(Moves, "array", None)  # type: ignore[no-untyped-call]
    plugin.converter.add_attribute_function(_referenced)  # type: ignore[no-untyped-call]
    for name, schema in _components().items():
        spec.components.schema(name, schema)
    spec.components.schema("OpenApiDocument", OPENAPI_DOCUMENT)  # named: generators name an inline one themselves
    spec.components.schema("Problem", schema=ProblemOut)
    spec.components.schema("RecordMoveInput", schema=RecordMoveInput)  # a record's moves (the Moves field)

    for op in sorted(OPERATIONS, key=lambda o: (o.path, o.method)):
        spec.path(path=op.path, operations={op.method: _operation(client, op)}, parameters=list(op.parameters))
    document = spec.to_dict()
    _variants(document)
    _checks_stated(document)
    schemas = document["components"]["schemas"]
    schemas.update({name: _named_enums(schema) for name, schema in schemas.items() if name not in NAMED_ENUMS})
    for name, members in NAMED_ENUMS.items():
        schemas.setdefault(name, {"type": "string", "enum": members, **_varnames(members)})
    document["paths"] = _named_enums(document["paths"])
    _card_lists(schemas)
    _primitive_unions(schemas)
    return {"openapi": document.pop("openapi"), **document}


OPENAPI_DOCUMENT = {
    "type": "object",
    "description": "This OpenAPI document.",
    "properties": {
        "openapi": {"type": "string"},
        "info": {"type": "object", "additionalProperties": True},
        "paths": {"type": "object", "additionalProperties": True},
    },
    "required": ["openapi", "info", "paths"],
    "additionalProperties": True,
}


def _operation(client: FlaskClient, op: Operation) -> dict[str, Any]:
    examples = op.examples() if op.examples else {}
    ran = _run_examples(client, op, examples)
    responses: dict[str, Any] = {}
    ok: dict[str, Any] = {"description": "Success."}
    if op.response is not None:
        content: dict[str, Any] = {"schema": op.response}
        if "200" in ran:
            content["examples"] = ran["200"]
        ok["content"] = {"application/json": content}
    elif op.media_type == "application/json":  # this document
        ok["content"] = {op.media_type: {"schema": {"$ref": "#/components/schemas/OpenApiDocument"}}}
    elif op.media_type == "application/yaml":
        # This document in YAML, with no schema: JSON Schema describes it only once parsed (a YAML-aware
        # checker, such as schemathesis, parses it), and a generated client, which parses no YAML, would
        # then call a JSON parser on it; without one, clients answer its bytes as they came.
        ok["description"] = "This OpenAPI document, as YAML text: the same document as `/openapi.json`."
        ok["content"] = {op.media_type: {}}
    else:  # the metrics
        ok["content"] = {op.media_type: {"schema": {"type": "string"}}}
    responses["200"] = ok
    problems = dict(STANDARD_PROBLEMS) if op.request is not None else {}
    if op.operation_id == "getRuleset":
        problems["404"] = "No such profile (`unknown-profile`)."
    if op.operation_id == "getReadiness":
        not_ready = {"schema": {"$ref": "#/components/schemas/Health"}}
        responses["503"] = {"description": "Not ready yet.", "content": {"application/json": not_ready}}
    for status, description in problems.items():
        problem: dict[str, Any] = {"schema": {"$ref": "#/components/schemas/Problem"}}
        if status in ran:
            problem["examples"] = ran[status]
        responses[status] = {"description": description, "content": {PROBLEM_MEDIA_TYPE: problem}}
    if not any(status.startswith("4") for status in responses):
        responses["4XX"] = {
            "description": "Refused by the HTTP layer: a request line or headers too long (414, 431), ...",
            "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}},
        }
    responses["default"] = {
        "description": "Any other problem (404, 405 with `Allow`, ...).",
        "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}},
    }
    unexpected = set(ran) - set(responses)
    if unexpected:
        raise RuntimeError(f"{op.operation_id}: examples answered with undocumented statuses {sorted(unexpected)}")
    operation: dict[str, Any] = {
        "operationId": op.operation_id,
        "summary": op.summary,
        "description": op.description,
        "tags": [op.tag],
        "responses": responses,
    }
    if op.request is not None:
        body: dict[str, Any] = {"schema": op.request}
        if examples:
            body["examples"] = {n: {"summary": e["summary"], "value": e["body"]} for n, e in examples.items()}
        operation["requestBody"] = {"required": True, "content": {"application/json": body}}
    return operation


# Closed sets used in several places, each a named enum (one type in a generated client, not one
# per field): the components' names and their values.
NAMED_ENUMS = {
    "ProfileId": list(PROFILES),
    "ProblemCode": list(CODES),
    "Cut": CUTS,
    "CaptureKind": CAPTURE_KINDS,
    "Phase": [p.value for p in Phase],
    "Outcome": [o.value for o in Outcome],
    "OptionType": list(OPTION_TYPES.values()),
    "Shortened": [reason.value for reason in Shortened],
    "ComputerLevel": list(LEVELS),
}


DISTINCT = "Distinct cards, in order: a card is in one place at a time (a list that repeats one is `duplicate-card`)."


def _card_lists(node: Any) -> None:
    """Every list of cards holds each card once (a card is in one place at a time), and its order matters
    (the table's, the stock's, a hand's): said in words, not with ``uniqueItems``, which generators turn
    into unordered sets."""
    if isinstance(node, list):
        for item in node:
            _card_lists(item)
    elif isinstance(node, dict):
        if node.get("type") in ("array", ["array", "null"]) and node.get("items") == {
            "$ref": "#/components/schemas/Card"
        }:
            node.pop("uniqueItems", None)
            described = node.get("description")
            node["description"] = f"{described} {DISTINCT}" if described else DISTINCT
        for value in node.values():
            _card_lists(value)


def _primitive_unions(node: Any) -> None:
    """Each ``type`` list of several JSON types (null aside) as its named union of PRIMITIVE_UNIONS, and
    ``anyOf`` it and null where null is one of them."""
    if isinstance(node, list):
        for item in node:
            _primitive_unions(item)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        _primitive_unions(value)
    types = node.get("type")
    if not isinstance(types, list) or len([t for t in types if t != "null"]) < 2:
        return
    ref = {"$ref": f"#/components/schemas/{PRIMITIVE_UNION_OF[tuple(t for t in types if t != 'null')]}"}
    del node["type"]
    node.update({"anyOf": [ref, {"type": "null"}]} if "null" in types else ref)


def _named_enums(node: Any) -> Any:
    """Each inline enum of NAMED_ENUMS as a reference to its component; a nullable enum as
    ``anyOf`` the enum and null (a list of types beside ``enum`` confuses client generators)."""
    if isinstance(node, list):
        return [_named_enums(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _named_enums(value) for key, value in node.items()}
    values = node.get("enum")
    if not isinstance(values, list) or node.get("type") not in ("string", ["string", "null"]):
        return node
    rest = {k: v for k, v in node.items() if k not in ("type", "enum")}
    named = next(
        (name for name, members in NAMED_ENUMS.items() if members == [v for v in values if v is not None]), None
    )
    enum: dict[str, Any] = (
        {"$ref": f"#/components/schemas/{named}"}
        if named
        else {"type": "string", "enum": [v for v in values if v is not None]}
    )
    if None in values:
        return {**rest, "anyOf": [enum, {"type": "null"}]}
    return {**rest, **enum} if named or rest else enum


def _checks_stated(document: dict[str, Any]) -> None:
    """Each Checked schema's ``contract``: what its checks refuse, said in the contract too."""
    schemas = document["components"]["schemas"]
    found, todo = [], list(Checked.__subclasses__())
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo += cls.__subclasses__()
    for cls in found:
        if cls.contract:
            schemas[_schema_name(cls)].update(cls.contract)


def _variants(document: dict[str, Any]) -> None:
    """Each schema with variants becomes a ``oneOf`` of named components: the fields of the schema,
    less the other variants' own fields, with the variant's field required."""
    schemas = document["components"]["schemas"]
    for cls in WITH_VARIANTS:
        name = _schema_name(cls)
        whole = schemas[name]
        own = {field: set(only) | {field} for field, (_, only) in cls.variants.items()}
        refs = []
        for field, (variant, _) in cls.variants.items():
            others = set().union(*(fields_ for f, fields_ in own.items() if f != field))
            properties = {k: copy.deepcopy(v) for k, v in whole["properties"].items() if k not in others}
            required = [k for k in whole.get("required", []) if k in properties]
            also = getattr(cls, "variant_required", {}).get(variant, ())  # what the variant needs beside its field
            schemas[variant] = {
                **{k: v for k, v in whole.items() if k not in ("properties", "required")},
                "properties": properties,
                "required": sorted({*required, field, *also}),
            }
            refs.append({"$ref": f"#/components/schemas/{variant}"})
        schemas[name] = {"oneOf": refs}


class _Dumper(yaml.SafeDumper):
    """Writes multi-line text as literal blocks, so the descriptions read as they were written."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|" if "\n" in value else None)


def _list(dumper: yaml.SafeDumper, value: list[Any]) -> yaml.Node:
    flat = all(isinstance(item, str | int | bool) or item is None for item in value)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flat and bool(value))


_Dumper.add_representer(str, _text)
_Dumper.add_representer(list, _list)


def render(document: dict[str, Any]) -> str:
    text: str = yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=110)
    return text


def render_json(document: dict[str, Any]) -> str:
    """The same document as JSON (served as /openapi.json, read by the /docs page), committed beside
    the YAML so that no worker parses YAML to serve it."""
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"
