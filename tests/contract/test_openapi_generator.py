"""openapi-generator 7.26.0 (pinned; PyPI's openapi-generator-cli bundles it) generates every client of
clients/openapi-generator/ from the contract with nothing said beyond its notices, and no model left
untyped or a union left without its branches (issue 24; docs/clients/openapi-generator.md). The clients
are generated once per run (tests/contract/conftest.py), two at a time.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("go", "java", "kotlin", "csharp", "typescript-fetch", "python", "swift6", "dart-dio")

# Where each language writes its models, and a field declared with no type (where the contract has one).
MODELS: dict[str, tuple[str, str]] = {
    "go": ("model_*.go", r"^\t[A-Z]\w* +\*?(interface\{\}|map\[string\]interface\{\}) "),
    "java": ("src/main/java/org/chkobba/client/model/*.java", r"^  private Object \w+"),
    "kotlin": ("src/main/kotlin/org/chkobba/client/models/*.kt", r"val \w+: kotlin\.Any\b"),
    "csharp": ("src/Chkobba.Client/Model/*.cs", r"public [Oo]bject \w+ \{"),
    "typescript-fetch": ("src/models/*.ts", r"^    \w+\??: any\b"),
    "python": ("chkobba_og/models/*.py", r"^    \w+: [^=]*\bAny\b"),  # the type, before the default and description
    "swift6": ("Sources/ChkobbaClient/Models/*.swift", r"\bAnyCodable\b"),
    "dart-dio": ("lib/src/model/*.dart", r"\bJsonObject\b"),
}
# The one model free-form by design: the contract itself (getOpenapiJson), whose info and paths are any JSON.
FREE_FORM = re.compile(r"open_?api_?document", re.IGNORECASE)
# Each union and branches that its model must name, in every language.
UNIONS = {
    "DealResponse": ("PlainDeal", "SealedDeal"),
    "PlayResponse": ("PlainPlayResponse", "SealedPlayResponse"),
    "ViewResponse": ("SeatViewAnswer", "SpectatorViewAnswer"),
    "PlayRequest": ("PlainPlayRequest", "SealedPlayRequest"),
    "MoveInput": ("PlayMove", "CutMove", "TimeoutMove"),
    "SideInput": ("SideWithPile", "SideWithCounts"),
    "Rules": ("ChkobbaRules", "ChkobbaCrpRules", "ScopaRules"),
}


def model_files(out: Path, language: str) -> list[Path]:
    pattern = MODELS[language][0]
    return sorted(p for p in out.glob(pattern) if not FREE_FORM.search(p.stem))


def model_of(out: Path, language: str, name: str) -> str:
    wanted = re.sub(r"[_-]", "", name).lower()
    found = [p for p in model_files(out, language) if re.sub(r"^model_|[_-]", "", p.stem).lower() == wanted]
    assert len(found) == 1, (language, name, found)
    return found[0].read_text(encoding="utf-8")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_generator_says_nothing_beyond_its_notices(generated_clients: dict[str, Any], language: str) -> None:
    result = generated_clients[language]
    assert result.returncode == 0 and list(result.findings) == [], "\n".join(result.findings)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_model_is_untyped_and_every_union_keeps_its_branches(
    generated_clients: dict[str, Any], language: str
) -> None:
    out = generated_clients[language].out
    files = model_files(out, language)
    assert len(files) > 80, language
    untyped = re.compile(MODELS[language][1], re.MULTILINE)
    assert [f"{p.name}: {m.group(0)}" for p in files for m in untyped.finditer(p.read_text(encoding="utf-8"))] == []
    for union, branches in UNIONS.items():
        text = model_of(out, language, union)
        assert [b for b in branches if b not in text] == [], (language, union)
    seed = model_of(out, language, "Seed")
    assert re.search(r"string|String|str\b", seed) and re.search(r"int64|Int64|Long|long|int\b|Int\b", seed), language


def test_the_finder_finds_what_it_looks_for(openapi_generator: Any) -> None:
    log = "\n".join(
        [
            "[main] WARN  o.o.codegen.DefaultCodegen - OpenAPI 3.1 support is still in beta. To report...",
            "[main] WARN  o.o.c.languages.AbstractJavaCodegen - Ignoring complex example on request body",
            "[main] INFO  o.o.codegen.InlineModelResolver - Inline schema created as Option_default.",
            "[main] WARN  o.o.c.languages.Swift6ClientCodegen - Type (reserved word) cannot be used as model name.",
        ]
    )
    assert len(openapi_generator.findings_in(log, "java")) == 2
    assert len(openapi_generator.findings_in(log, "go")) == 3  # the Java warning is Java's only
    assert openapi_generator.findings_in(log.splitlines()[0], "swift6") == []
    missing = openapi_generator.findings_in(log.splitlines()[0], "java")
    assert missing == ["expected 1 time(s), seen 0: Ignoring complex example on request body"]


MINIMAL = {
    "openapi": "3.1.0",
    "info": {"title": "minimal", "version": "1"},
    "paths": {
        "/things": {
            "post": {
                "operationId": "makeThing",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/Thing"},
                            "examples": {"one": {"value": {"name": "a"}}},
                        }
                    },
                },
                "responses": {"200": {"description": "made"}},
            }
        }
    },
    "components": {
        "schemas": {
            "Thing": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}},
            # A closed shape that no operation names: the generator's 3.1 parser then looks up a name it
            # never set. In the contract, it is the closed shapes (what keeps unions' branches apart).
            "Part": {"type": "object", "properties": {"n": {"type": "integer"}}, "additionalProperties": False},
        }
    },
}


@pytest.mark.parametrize("language", ["python", "java"])
def test_what_the_finder_lets_pass_is_printed_for_any_contract(
    openapi_generator: Any, tmp_path: Path, language: str
) -> None:
    """The NOTICES, and Java's one accepted warning, come from the generator: a 3.1 document with one
    operation, whose body is a model with an example, and one closed model prints each of them too."""
    spec = tmp_path / "minimal.json"
    spec.write_text(json.dumps(MINIMAL), encoding="utf-8")
    result = openapi_generator.generate(language, tmp_path / "out", spec=spec)
    log = (tmp_path / "out" / f"{language}.log").read_text(encoding="utf-8")
    assert result.returncode == 0 and list(result.findings) == []
    assert [notice for notice in openapi_generator.NOTICES if notice not in log] == []
