"""The repository's documents as pages: docs/rules.md at /rules, docs/seeded-shuffle.md at /docs/seeded-shuffle,
docs/fair-deals.md at /docs/fair-deals.

The Markdown files are the only text: each page is rendered from its file (markdown-it-py, CommonMark with
tables, raw HTML off) the first time it is asked for, and kept. The files are read from service/web/docs,
whose entries are links to docs/rules.md, docs/seeded-shuffle.md and docs/fair-deals.md: one text in the repository, and
package data that a wheel holds as files (tests/ops/test_wheel.py), as the contract is.

What the rendering adds to the Markdown:

* every heading gets the anchor GitHub gives it (``#75-worked-example-001-section-06``), so a link into
  docs/rules.md works the same on the page and in the repository;
* a section cited as ``§7.5`` (outside code) links to that section of /rules;
* a link to one of the documents (``seeded-shuffle.md``, ``rules.md``, ``rulings.md``) goes to its page;
* runs of Arabic script are isolated and marked ``lang="ar"`` (the console's Arabic font, no bidi mix-ups);
* tables scroll sideways on a narrow screen instead of widening the page, and no element carries a
  ``style`` attribute (the pages' Content-Security-Policy allows none).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

DOCS = Path(__file__).resolve().parent / "docs"

SECTION_REF = re.compile(r"§(\d+(?:\.\d+)*)")
SECTION_HEADING = re.compile(r"^(\d+(?:\.\d+)*)\.?\s")
_LETTER = "\u0600-\u06ff\u0750-\u077f"  # the Arabic and Arabic Supplement blocks, marks included
ARABIC = re.compile(f"[{_LETTER}](?:[{_LETTER} ]*[{_LETTER}])?")  # a run of Arabic words


@dataclass(frozen=True)
class Page:
    """A document of docs/ and where the service serves it."""

    file: str  # its name in docs/
    path: str  # its path on the service
    short_title: str  # its name in the pages' navigation


PAGES = {
    "rules": Page("rules.md", "/rules", "Rules"),
    "seeded-shuffle": Page("seeded-shuffle.md", "/docs/seeded-shuffle", "Seeded shuffle"),
    "fair-deals": Page("fair-deals.md", "/docs/fair-deals", "Committed deals"),
}
# A link in a document to another document of docs/, and where it goes on the service (from the root).
LINKED = {
    "rules.md": "rules",
    "seeded-shuffle.md": "docs/seeded-shuffle",
    "fair-deals.md": "docs/fair-deals",
    "rulings.md": "rules#10-rulings",
}


@dataclass(frozen=True)
class Heading:
    level: int
    anchor: str
    html: str  # the heading's content, rendered


@dataclass(frozen=True)
class Rendered:
    title: str  # the text of the document's first-level heading
    body: str  # HTML, without that heading
    headings: tuple[Heading, ...]  # the second- and third-level headings, in order: the contents
    sections: dict[str, str]  # the anchors of the numbered headings, by number: {"7.5": "75-worked-..."}


Wrap = Callable[[re.Match[str]], list[Token] | None]


def github_slug(text: str) -> str:
    """The anchor GitHub gives a heading whose text (code spans unwrapped) is ``text``."""
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def _plain(inline: Token) -> str:
    """A heading's text as GitHub slugs it: code spans and emphasis unwrapped."""
    return "".join(child.content for child in inline.children or [] if child.type in ("text", "code_inline"))


def _anchors(tokens: list[Token]) -> dict[str, str]:
    """Give every heading its anchor; return the anchors of the numbered ones by number ("7.5")."""
    seen: dict[str, int] = {}
    numbered: dict[str, str] = {}
    for opening, inline in zip(tokens, tokens[1:], strict=False):
        if opening.type != "heading_open":
            continue
        text = _plain(inline)
        slug = github_slug(text)
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchor = slug if count == 0 else f"{slug}-{count}"
        opening.attrSet("id", anchor)
        number = SECTION_HEADING.match(text)
        if number:
            numbered.setdefault(number.group(1), anchor)
    return numbered


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


def _split(children: list[Token], pattern: re.Pattern[str], wrap: Wrap) -> list[Token]:
    """Split the text tokens outside links at ``pattern``; ``wrap(match)`` gives the tokens of a match,
    or None to leave it as text."""
    out: list[Token] = []
    depth = 0
    for child in children:
        if child.type == "link_open":
            depth += 1
        elif child.type == "link_close":
            depth -= 1
        if child.type != "text" or depth:
            out.append(child)
            continue
        at = 0
        for match in pattern.finditer(child.content):
            tokens = wrap(match)
            if tokens is None:
                continue
            if match.start() > at:
                out.append(_text(child.content[at : match.start()]))
            out.extend(tokens)
            at = match.end()
        if at == 0:
            out.append(child)
        elif at < len(child.content):
            out.append(_text(child.content[at:]))
    return out


def _section_link(numbered: dict[str, str], rules_href: str) -> Wrap:
    def wrap(match: re.Match[str]) -> list[Token] | None:
        anchor = numbered.get(match.group(1))
        if anchor is None:
            return None
        opening = Token("link_open", "a", 1)
        opening.attrSet("href", f"{rules_href}#{anchor}")
        opening.attrSet("class", "section-ref")
        return [opening, _text(match.group(0)), Token("link_close", "a", -1)]

    return wrap


def _arabic(match: re.Match[str]) -> list[Token] | None:
    opening = Token("bdi_open", "bdi", 1)
    opening.attrSet("lang", "ar")
    return [opening, _text(match.group(0)), Token("bdi_close", "bdi", -1)]


def _link_target(href: str, root: str, here: str) -> str:
    """A link between documents goes to the page of the document it names (``here`` is this page's)."""
    path, _, fragment = href.partition("#")
    if "://" in href or path not in LINKED:
        return href
    page, _, anchor = LINKED[path].partition("#")
    anchor = fragment or anchor
    if page == here:
        return f"#{anchor}" if anchor else "#"
    return root + page + (f"#{anchor}" if anchor else "")


def render(markdown: str, *, here: str, rules_anchors: dict[str, str] | None = None, rules_href: str = "") -> Rendered:
    """``markdown`` as the body of the page at ``here`` (its path from the service's root, ``docs/x``).

    A section cited as §N links to ``rules_href`` (the rules page, relative to this page; empty on the
    rules page itself) with the anchors ``rules_anchors`` (by default, this document's own).
    """
    root = "../" * here.count("/")
    md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
    tokens = md.parse(markdown)
    numbered = _anchors(tokens)
    linked_sections = _section_link(rules_anchors if rules_anchors is not None else numbered, rules_href)
    for previous, token in zip([None, *tokens], tokens, strict=False):
        if token.type in ("th_open", "td_open"):
            align = str(token.attrGet("style") or "").removeprefix("text-align:")
            if align:
                token.attrs.pop("style", None)
                token.attrSet("class", f"align-{align}")
        if token.type == "inline" and token.children is not None:
            children = token.children
            if previous is None or previous.type != "heading_open":  # a heading is a link of the contents
                children = _split(children, SECTION_REF, linked_sections)
            children = _split(children, ARABIC, _arabic)
            for child in children:
                if child.type == "link_open":
                    child.attrSet("href", _link_target(str(child.attrGet("href")), root, here))
            token.children = children
    headings = []
    title = ""
    body = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type == "heading_open" and token.tag == "h1" and not title:
            title = _plain(tokens[i + 1])
            i += 3
            continue
        if token.type == "heading_open" and token.tag in ("h2", "h3"):
            inline = md.renderer.render(tokens[i + 1].children or [], md.options, {})
            headings.append(Heading(int(token.tag[1]), str(token.attrGet("id")), inline))
        body.append(token)
        i += 1
    html = md.renderer.render(body, md.options, {})
    html = re.sub(r"<table>", '<div class="table-scroll" tabindex="0"><table>', html)
    html = html.replace("</table>", "</table></div>")
    return Rendered(title=title, body=html, headings=tuple(headings), sections=numbered)


@cache
def rendered(name: str) -> Rendered:
    """The page ``name`` of ``PAGES``, rendered once per process. Raises FileNotFoundError without its file."""
    page = PAGES[name]
    here = page.path.removeprefix("/")
    text = (DOCS / page.file).read_text(encoding="utf-8")
    if name == "rules":
        return render(text, here=here)
    root = "../" * here.count("/")
    return render(text, here=here, rules_anchors=rendered("rules").sections, rules_href=root + "rules")
