"""Generates the clients of clients/openapi-generator/<language>.yaml from openapi.yaml with the pinned
openapi-generator (PyPI's openapi-generator-cli, which bundles its jar), two at a time, and says what in
its output is more than the notices every generation prints.

``python scripts/openapi_generator_clients.py [OUT]`` (``make openapi-clients``) writes each client to
OUT/<language> (build/openapi-generator by default) and its log beside it, prints the time taken, and
exits 1 on any finding. tests/contract/test_openapi_generator.py runs the same, once per test run.
"""

from __future__ import annotations

import importlib.resources
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = ROOT / "clients" / "openapi-generator"
LANGUAGES = ("go", "java", "kotlin", "csharp", "typescript-fetch", "python", "swift6", "dart-dio")
# What every generation of this contract prints, about the generator rather than the contract: the 3.1
# support notice, and a lookup of a name that the 3.1 parser leaves unset (printed for closed object shapes;
# docs/clients/openapi-generator.md).
NOTICES = ("OpenAPI 3.1 support is still in beta", "Failed to get the schema name: null")
# Warnings of one generator that are about it, not the contract, each with the number of times it is
# printed: Java's docs never show the example of a body that is a model, and it says so once for any such
# body (the contract's examples are for /docs and the contract tests, so they stay).
ACCEPTED = {"java": {"Ignoring complex example on request body": 1}}
# Lines that are not warnings but say that a schema generated badly: a model named by the generator
# (an inline schema), or one it left out.
BAD_INFO = ("Inline schema created as", "not generated since it's a free-form object")
# The one schema with no properties by design: commitDeal's body, an empty object.
EMPTY_BY_DESIGN = ("CommitRequest",)


@dataclass(frozen=True)
class Generated:
    language: str
    out: Path
    returncode: int
    findings: tuple[str, ...]
    seconds: float


def jar() -> Path:
    return Path(str(importlib.resources.files("openapi_generator_cli") / "openapi-generator.jar"))


def findings_in(log: str, language: str = "") -> list[str]:
    """The log's warnings and errors, less the NOTICES and the language's ACCEPTED ones (exactly as many
    as expected), and the BAD_INFO lines."""
    found = []
    accepted = ACCEPTED.get(language, {})
    seen = dict.fromkeys(accepted, 0)
    for line in log.splitlines():
        if not re.search(r"\b(WARN|ERROR)\b", line) and not any(bad in line for bad in BAD_INFO):
            continue
        if any(notice in line for notice in NOTICES):
            continue
        known = next((text for text in accepted if text in line), None)
        if known is not None:
            seen[known] += 1
            continue
        if "not generated since it's a free-form object" in line and any(
            f"Model {name} not" in line for name in EMPTY_BY_DESIGN
        ):
            continue
        found.append(line.strip())
    found += [f"expected {n} time(s), seen {seen[text]}: {text}" for text, n in accepted.items() if seen[text] != n]
    return found


def generate(language: str, out: Path, spec: Path = ROOT / "openapi.yaml") -> Generated:
    target = out / language
    shutil.rmtree(target, ignore_errors=True)
    started = time.monotonic()
    java = shutil.which("java") or "java"
    run = subprocess.run(
        [java, "-jar", str(jar()), "generate", "-c", str(CONFIGS / f"{language}.yaml")]
        + ["-i", str(spec), "-o", str(target)],
        cwd=ROOT,  # the configs' templateDir is relative to the repository's root
        capture_output=True,
        text=True,
        timeout=600,
    )
    log = run.stdout + run.stderr
    (out / f"{language}.log").write_text(log, encoding="utf-8")
    findings = (
        findings_in(log, language) if run.returncode == 0 else [f"exit {run.returncode}", *log.splitlines()[-20:]]
    )
    return Generated(language, target, run.returncode, tuple(findings), time.monotonic() - started)


def generate_all(out: Path, workers: int = 2) -> dict[str, Generated]:
    out.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(workers) as pool:
        return {g.language: g for g in pool.map(lambda language: generate(language, out), LANGUAGES)}


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else ROOT / "build" / "openapi-generator"
    started = time.monotonic()
    results = generate_all(out)
    for result in results.values():
        print(f"{result.language}: {result.seconds:.0f} s, {len(result.findings)} findings")
        for finding in result.findings:
            print(f"  {finding}")
    print(f"all {len(results)} generated in {time.monotonic() - started:.0f} s, into {out}")
    return 1 if any(r.findings for r in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
