"""Every relative link of the README and of the pages in docs/ leads somewhere: to a file or folder of the
repository, and, with an ``#anchor``, to a heading of the Markdown file it points into, at the anchor GitHub
gives it (the rule of ``service/web/documents.py``, which gives the served pages the same anchors).

Links are read as a Markdown renderer reads them (markdown-it-py, as the pages are rendered), so a link shown
inside a code block or a code span is no link. URLs and the service's own paths (``/rules#...``) are left to
tests/unit/test_references.py, which checks them against the application's routes.

The README stays a front page (at most 300 lines, its sections fixed) whose map links every page.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from urllib.parse import unquote

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from service.web.documents import _anchors

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])


def _tokens(text: str) -> list[Token]:
    return MarkdownIt("commonmark", {"html": False}).enable("table").parse(text)


def links(text: str) -> list[str]:
    """Every link target of a Markdown text, in order."""
    found = []
    for token in _tokens(text):
        for child in token.children or []:
            if child.type == "link_open":
                found.append(str(child.attrGet("href")))
    return found


@cache
def anchors(path: Path) -> frozenset[str]:
    tokens = _tokens(path.read_text(encoding="utf-8"))
    _anchors(tokens)  # sets each heading's id, as the served pages have it
    return frozenset(str(t.attrGet("id")) for t in tokens if t.type == "heading_open")


def broken(page: Path, target: str) -> str | None:
    """Why ``target``, a link of ``page``, leads nowhere; None when it resolves or is not relative."""
    if ":" in target.split("/", 1)[0] or target.startswith(("/", "//")):
        return None  # a URL (https:, mailto:) or a path of the service
    path, _, anchor = target.partition("#")
    destination = (page.parent / unquote(path)).resolve() if path else page
    if ROOT not in destination.parents and destination != ROOT:
        return f"{target}: outside the repository"
    if not destination.exists():
        return f"{target}: no such file"
    if anchor and destination.suffix == ".md" and unquote(anchor) not in anchors(destination):
        return f"{target}: no heading of {destination.relative_to(ROOT)} has the anchor #{anchor}"
    return None


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page: Path) -> None:
    problems = [why for target in links(page.read_text(encoding="utf-8")) if (why := broken(page, target))]
    assert problems == []


def test_the_readme_is_a_front_page_of_at_most_300_lines() -> None:
    """What the service is, the two commands, a first call, the map, problems, receipts: the rest is in docs/."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300
    headings = [line for line in lines if line.startswith("## ")]
    assert headings == [
        "## The two commands",
        "## A first call",
        "## The documentation",
        "## How to read a problem",
        "## How to check a receipt",
    ]


def test_the_readme_links_every_page_of_docs() -> None:
    """The README's map names every page of docs/ (the clients' pages through their folder)."""
    targets = {(ROOT / t.partition("#")[0]).resolve() for t in links((ROOT / "README.md").read_text(encoding="utf-8"))}
    pages = {p.resolve() for p in (ROOT / "docs").glob("*.md")} | {(ROOT / "docs" / "clients").resolve()}
    assert pages - targets == set()


# Built, so that the repository's own check of cited files does not read this file as citing one.
MISSING_PAGE = "no-such-page" + ".md"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (f"[a page](docs/{MISSING_PAGE})", f"docs/{MISSING_PAGE}: no such file"),
        ("[a heading](#no-such-heading)", "#no-such-heading: no heading of README.md has the anchor #no-such-heading"),
        ("[a heading](docs/rules.md#no-such)", "docs/rules.md#no-such: no heading of docs/rules.md"),  # not a reference
        ("[too far](../../etc/passwd)", "../../etc/passwd: outside the repository"),  # not a reference
    ],
)
def test_a_link_to_nothing_is_caught(text: str, why: str) -> None:
    (target,) = links(text)
    found = broken(ROOT / "README.md", target)
    assert found is not None and found.startswith(why)


@pytest.mark.parametrize(
    "text",
    [
        "[the two commands](#the-two-commands)",
        "[rules](docs/rules.md#75-worked-example-001-section-06)",
        "[a folder](deploy)",
        "[a URL](https://example.com/x#y)",
        "[a page of the service](/rules#04-profile-sheet-chkobba)",
        f"`[in a code span](docs/{MISSING_PAGE})`",
        f"```md\n[in a code block](docs/{MISSING_PAGE})\n```",
    ],
)
def test_a_link_to_something_passes(text: str) -> None:
    assert [broken(ROOT / "README.md", target) for target in links(text)] in ([], [None])
