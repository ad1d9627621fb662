"""Every file the repository cites is a file the repository holds, and every rule it cites exists.

A reader who clones the repository, or opens the pages the service serves, must be able to follow every
reference: a Markdown link, a path such as ``service/rules/round.py`` or ``docs/rules.md``, a Markdown file's
bare name such as ``README.md``, a folder such as ``tests/vectors/``, and a section of the rules such as
``docs/rules.md §7.5`` or a bare ``§4.1``. This test reads every tracked text file and lists each reference
that leads nowhere. The rules, the contract and the source documents once lived outside the repository
(the team's rules reference and contract, and ``seeds/...``): a citation of any of them fails here. The
examples below spell those names in pieces, so that the repository itself never cites them.

What counts as a reference, and where it may lead:

* a path with one of the files' extensions (``EXTENSIONS``), relative to the citing file's folder or to the
  repository's root, or the tail of a tracked path (``src/schema.ts`` in the README's TypeScript section);
  in TypeScript an import of ``./x.js`` is ``./x.ts``; a path of the running service (``web/referee.css``
  in a page) is one the application routes;
* a bare file name ending in ``.md``: a tracked file's name (other bare names, such as ``args.json`` or
  ``self.cfg``, are as often an attribute as a file, and are left alone);
* a path that starts with one of the repository's top-level folders and ends with a slash or goes two
  folders deep, or any path into ``seeds/``: the start of a tracked path (``service/api/schemas``,
  ``tests/vectors/``; not ``service/ceiling``, a ratio in bench/);
* a Markdown link ``[text](target)``: relative to the citing file (or the root); ``#anchor`` must be a
  heading of the Markdown file it points into; ``/path`` must be a path the service routes, and
  ``/rules#anchor`` a heading of docs/rules.md.

Left alone: URLs, absolute paths (``/tmp/...``, ``/usr/bin/chromium``), module names (``service.rules``),
wildcards and placeholders (``tests/vectors/*.json``, ``artifacts/screenshots/<name>.png``), the folders that
only a build or a run creates (``GENERATED``), the few files of other projects named in ``NOT_OURS``, and a
line that ends with the comment ``# not a reference`` (a test's example of a broken citation).
"""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path, PurePosixPath

import pytest
from werkzeug.exceptions import MethodNotAllowed, NotFound

from ..support import github_slug

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules.md"
# Not citations: npm's lock file (package names and registry URLs), the ignore files (patterns), and this
# file, which names the missing files to show that they are caught.
SKIPPED = frozenset({"package-lock.json", ".gitignore", ".dockerignore"})
THIS = Path(__file__).resolve().relative_to(ROOT).as_posix()
# Made by a build, a test or `make install`, never committed (see .gitignore): a path through one is no citation.
GENERATED = frozenset(
    {
        ".venv",
        "artifacts",
        "build",
        "dist",
        "node_modules",
        "__pycache__",
        ".hypothesis",
        ".schemathesis",
        "mutants",
        "generated",  # clients/python/generated: make python-client
    }
)
# Files of other projects that a file names: not ours to hold.
NOT_OURS = frozenset(
    {
        "flask/app.py",  # bench/http.py: Flask's own module, as a profiler names its frames
        "short/file.py",  # bench/http.py: the shape of a shortened frame's file name
        "swagger-ui-bundle.js",  # Swagger UI's files, served from the flask-swagger-ui wheel
        "swagger-ui.css",
        "index.html",  # Swagger UI's page, which /docs/swagger-ui/ refuses to serve
        "oauth2-redirect.html",
    }
)
# Where the rules' sources lived outside the repository: a path into it is a citation of nothing.
OUTSIDE = ("seeds",)
# The pages rendered from a Markdown file: an anchor of the page is a heading of the file.
PAGES = {
    "/rules": "docs/rules.md",
    "/docs/seeded-shuffle": "docs/seeded-shuffle.md",
    "/docs/fair-deals": "docs/fair-deals.md",
}

EXTENSIONS = "md|yaml|yml|json|py|ts|js|mjs|txt|toml|cfg|ini|sh|html|css|svg"
URL = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s\"'`<>)\]]*", re.IGNORECASE)
MARKDOWN_LINK = re.compile(r"\[[^\[\]\n]*\]\(<?([\w./#%~+:\-]+)>?(?:\s+\"[^\"]*\")?\)")
# Not after a character that would make the token part of a longer word, a URL, an absolute path, a
# module name, an encoded path (%2F) or a placeholder.
BEFORE = r"(?<![\w/.\-~$@*{<%:])"
FILE_TOKEN = re.compile(BEFORE + rf"((?:[\w.\-]+/)*[\w\-]+(?:\.[\w\-]+)*\.(?:{EXTENSIONS}))(?![\w/*\-])")
PATH_TOKEN = re.compile(BEFORE + r"((?:[\w.\-]+/)+[\w.\-]*)(?![\w/*{<\-])")
NOT_A_REFERENCE = "# not a reference"
SECTION = re.compile(r"(?<!RFC )(?<!RFC \d{4} )§(\d+(?:\.\d+)*)")


@cache
def tracked() -> tuple[str, ...]:
    listing = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return tuple(n for n in listing.decode("utf-8").split("\0") if n and (ROOT / n).is_file())


@cache
def tracked_text_files() -> dict[str, str]:
    """Every file git tracks, as text: not binary files, npm's lock file nor the ignore files."""
    files = {}
    for name in tracked():
        if PurePosixPath(name).name in SKIPPED or "node_modules/" in name or name == THIS:
            continue
        data = (ROOT / name).read_bytes()
        if b"\0" in data:
            continue
        try:
            files[name] = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
    return files


@cache
def folders() -> frozenset[str]:
    return frozenset(str(p) for name in tracked() for p in PurePosixPath(name).parents if str(p) != ".")


@cache
def top_folders() -> frozenset[str]:
    return frozenset(name.split("/", 1)[0] for name in tracked() if "/" in name)


def _normal(path: PurePosixPath) -> str | None:
    """``a/b/../c`` as ``a/c``; None when the path climbs out of the repository."""
    parts: list[str] = []
    for part in path.parts:
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                return None
            parts.pop()
        else:
            parts.append(part)
    return "/".join(parts)


def _candidates(target: str, citing: str) -> list[str]:
    """``target`` relative to the citing file's folder and to the root, normalized."""
    bases = (PurePosixPath(citing).parent, PurePosixPath("."))
    return [n for n in (_normal(base / target.rstrip("/")) for base in bases) if n is not None]


@cache
def _app_urls():  # type: ignore[no-untyped-def]
    from service.app import create_app

    app = create_app({"TESTING": True, "ACCESS_LOG": ""})
    return app, app.url_map.bind("localhost")


def routed(path: str, *, prefix: bool = False) -> bool:
    """Whether the running service answers ``path`` (or, with ``prefix``, some path under it)."""
    app, urls = _app_urls()
    if prefix:
        return any(rule.rule.startswith(path) for rule in app.url_map.iter_rules())
    try:
        endpoint, arguments = urls.match(path, method="GET")
    except MethodNotAllowed:
        return True
    except NotFound:
        return False
    if endpoint.endswith(".static"):  # a file of a blueprint's static folder
        blueprint = app.blueprints[endpoint.rsplit(".", 1)[0]]
        return Path(blueprint.static_folder or "", arguments["filename"]).is_file()
    return True


def resolves(target: str, citing: str) -> bool:
    """Whether the file ``target``, cited in ``citing``, is a file of the repository or of the service."""
    files = set(tracked())
    if set(PurePosixPath(target).parts) & GENERATED or target in NOT_OURS or PurePosixPath(target).name in NOT_OURS:
        return True
    if "/" not in target and target in {PurePosixPath(name).name for name in files}:
        return True
    variants = [target] + ([target[:-3] + ".ts"] if target.endswith(".js") else [])
    for variant in variants:
        if any(c in files for c in _candidates(variant, citing)):
            return True
        tail = re.sub(r"^(?:\.\.?/)+", "", variant)
        if "/" in tail and any(name.endswith("/" + tail) for name in files):
            return True
    return routed("/" + re.sub(r"^(?:\.\.?/)+", "", target))


def path_resolves(target: str, citing: str) -> bool:
    """Whether ``target`` (top folder first) is the start of a tracked path, or of a service path."""
    if set(PurePosixPath(target).parts) & GENERATED:
        return True
    for candidate in _candidates(target, citing):
        if any(name.startswith(candidate) for name in tracked()):
            return True
    return routed("/" + target) or routed("/" + target, prefix=True)


@cache
def anchors(name: str) -> frozenset[str]:
    """The anchors of a Markdown file's headings (GitHub's, with -1, -2 for repeated ones)."""
    seen: dict[str, int] = {}
    found = set()
    in_code = False
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        match = re.match(r"(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if match and not in_code:
            slug = github_slug(match.group(2))
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            found.add(slug if count == 0 else f"{slug}-{count}")
    return frozenset(found)


def rule_sections() -> frozenset[str]:
    """The numbers of docs/rules.md's headings: 0 to 10 and their subsections (``7``, ``7.5``, ``10.16``)."""
    numbers = re.findall(r"^#{2,4} (\d+(?:\.\d+)*)\.? ", RULES.read_text(encoding="utf-8"), re.MULTILINE)
    return frozenset(numbers)


def _broken_link(target: str, citing: str) -> str | None:
    """Why the link target ``target`` in ``citing`` leads nowhere, or None when it leads somewhere."""
    if URL.fullmatch(target) or re.match(r"[a-z]+:", target):
        return None
    path, _, fragment = target.partition("#")
    if target.startswith("/"):
        if not routed(path):
            return "not a path of the service"
        if fragment and path in PAGES and fragment not in anchors(PAGES[path]):
            return f"no heading #{fragment} in {PAGES[path]}"
        return None
    if not path:  # an anchor of the same file
        if citing.endswith(".md") and fragment not in anchors(citing):
            return f"no heading #{fragment}"
        return None
    if not resolves(path, citing) and not set(_candidates(path, citing)) & folders():
        return "no such file"
    if fragment and path.endswith(".md"):
        for candidate in _candidates(path, citing):
            if (ROOT / candidate).is_file():
                return None if fragment in anchors(candidate) else f"no heading #{fragment} in {candidate}"
    return None


def broken_references(name: str, text: str) -> list[str]:
    """Each reference of ``text`` (the file ``name``) that leads nowhere, with its line and why."""
    found = []
    outside_or_top = (*OUTSIDE, *top_folders())
    for number, line in enumerate(text.splitlines(), 1):
        if line.endswith(NOT_A_REFERENCE):
            continue
        where = f"{name}:{number}"
        for target in MARKDOWN_LINK.findall(line):
            if not name.endswith(".md") and not re.search(r"[./#]", target):
                continue  # code such as f(x)[i](y), not a link
            reason = _broken_link(target, name)
            if reason:
                found.append(f"{where}: link ({target}): {reason}")
        plain = URL.sub(" ", MARKDOWN_LINK.sub(lambda m: m.group(0).split("](", 1)[0], line))
        for token in (t.rstrip(".") for t in FILE_TOKEN.findall(plain)):
            if ("/" in token or token.endswith(".md")) and not resolves(token, name):
                found.append(f"{where}: {token}: no such file")
        for token in (t.rstrip(".") for t in PATH_TOKEN.findall(plain)):
            # A folder (tests/vectors/), a path two folders deep (service/api/schemas) or into OUTSIDE; not
            # a ratio such as service/ceiling.
            if FILE_TOKEN.fullmatch(token):
                continue  # a file: checked above
            checked = token.endswith("/") or token.count("/") >= 2 or token.startswith(OUTSIDE)
            if checked and token.split("/", 1)[0] in outside_or_top and not path_resolves(token, name):
                found.append(f"{where}: {token}: no such file or folder")
    return found


def _line_at(text: str, offset: int) -> str:
    end = text.find("\n", offset)
    return text[text.rfind("\n", 0, offset) + 1 : end if end >= 0 else len(text)]


def test_every_file_cited_is_in_the_repository() -> None:
    broken = [p for name, text in sorted(tracked_text_files().items()) for p in broken_references(name, text)]
    assert not broken, f"{len(broken)} references to files the repository does not hold:\n" + "\n".join(broken)


def test_every_section_of_the_rules_cited_exists() -> None:
    sections = rule_sections()
    assert {str(n) for n in range(11)} <= sections and {"4.1", "7.5", "10.16"} <= sections, sorted(sections)
    missing = [
        f"{name}:{text.count(chr(10), 0, match.start()) + 1}: §{match.group(1)}"
        for name, text in sorted(tracked_text_files().items())
        for match in SECTION.finditer(text)
        if match.group(1) not in sections and not _line_at(text, match.start()).endswith(NOT_A_REFERENCE)
    ]
    assert not missing, "sections that docs/rules.md does not have:\n" + "\n".join(missing)


MD = ".md"  # the examples' missing Markdown files are named in pieces (see the module's docstring)
OLD_RULES, OLD_CONTRACT, OLD_STYLE, OLD_ECOSYSTEM = (name + MD for name in ("RULES", "CONTRACT", "STYLE", "ECOSYSTEM"))
MISSING_PAGE = "no-such-page" + MD


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (f"The normative rules are `{OLD_RULES}` (§3).", [OLD_RULES]),
        (
            f'"source": "{OLD_RULES} §4.2; {OLD_CONTRACT} \'Cards\'; seeds/001 section 03"',
            ["RULES", "CONTRACT", "seeds/001"],
        ),
        (f"({OLD_STYLE}, Tests) and {OLD_ECOSYSTEM}, 'Browsers'; the seeds/ folder", ["STYLE", "ECOSYSTEM", "seeds/"]),
        (f"[the rulings](docs/{MISSING_PAGE}), [a heading](README.md#no-such-heading)", ["no-such-page", "#no-such"]),
        ("the pages [/nowhere](/nowhere) and [a section](/rules#99-no-such-section)", ["/nowhere", "#99-no-such"]),
        ("service/rules/no_such_module.py, tests/no-such-folder/, tests/vectors/old", ["no_such", "no-such", "old"]),
    ],
)
def test_a_reference_to_nothing_is_caught(line: str, expected: list[str]) -> None:
    found = broken_references("README.md", line)
    assert len(found) == len(expected), found
    for problem, what in zip(found, expected, strict=True):
        assert what in problem, (problem, what)


@pytest.mark.parametrize(
    "line",
    [
        "docs/rules.md §7.5, docs/seeded-shuffle.md, [the README](README.md#the-two-commands), service/rules/round.py",
        "tests/vectors/*.json, artifacts/screenshots/<name>.png, /usr/bin/chromium, /tmp/x.json, service.rules",
        f"https://example.com/a/b{MD}, [a page](https://example.org/x{MD}), `conftest.py`, tests/browser/",
        "[the rules](/rules), [a section](/rules#75-worked-example-001-section-06), application/json, src/client.ts",
        "[the console](/referee), [licence](/docs/swagger-ui/LICENSE), [vectors](/docs/seeded-shuffle#test-vectors)",
        "service/api/schemas, [rules](docs/rules.md#04-profile-sheet-chkobba), `args.json`, web/referee.css",
    ],
)
def test_a_reference_to_something_passes(line: str) -> None:
    assert broken_references("README.md", line) == []


def test_a_section_that_the_rules_lack_is_caught() -> None:
    cited = [m.group(1) for m in SECTION.finditer("docs/rules.md §7.5, §11, §4.9 and RFC 8259 §4")]
    assert cited == ["7.5", "11", "4.9"]
    assert "7.5" in rule_sections() and not {"11", "4.9"} & rule_sections()
