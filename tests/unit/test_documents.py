"""How service/web/documents.py turns a Markdown document into a page body: what it adds (anchors, section
links, links between documents, Arabic isolated) and what it must never let through (raw HTML, style
attributes, which the pages' Content-Security-Policy would block)."""

from __future__ import annotations

import re

from service.web.documents import PAGES, github_slug, render, rendered

DOCUMENT = """\
# A title

Intro citing §1.2 and §4, `§1.2 in code`, and [the shuffle](seeded-shuffle.md#test-vectors).

## 1. First

### 1.2 Second: `code` and *emphasis*

| left | centre | right |
|:-----|:------:|------:|
| الشكبة *ech-chkobba* | 2 | 3 |

<script>alert(1)</script> and <b style="color:red">raw</b>

```python
# §1.2 in a code block
```

### 1.2 Second: `code` and *emphasis*
"""


def test_headings_get_githubs_anchors_and_the_title_leaves_the_body() -> None:
    page = render(DOCUMENT, here="rules")
    assert page.title == "A title" and "A title" not in page.body
    assert [(h.level, h.anchor) for h in page.headings] == [
        (2, "1-first"),
        (3, "12-second-code-and-emphasis"),
        (3, "12-second-code-and-emphasis-1"),  # a repeated heading, as GitHub numbers it
    ]
    assert page.headings[1].html == "1.2 Second: <code>code</code> and <em>emphasis</em>"
    assert page.sections == {"1": "1-first", "1.2": "12-second-code-and-emphasis"}
    assert github_slug("10.15 A move's optional seat") == "1015-a-moves-optional-seat"


def test_sections_cited_in_the_text_link_to_them_and_nothing_else_does() -> None:
    body = render(DOCUMENT, here="rules").body
    assert '<a href="#12-second-code-and-emphasis" class="section-ref">§1.2</a>' in body
    assert "§4" in body and 'class="section-ref">§4' not in body  # not a section of this document: left as text
    assert "<code>§1.2 in code</code>" in body and "# §1.2 in a code block" in body
    assert body.count('class="section-ref"') == 1


def test_a_section_of_another_page_links_to_the_rules_page() -> None:
    page = render("See §3.", here="docs/seeded-shuffle", rules_anchors={"3": "3-the-deal"}, rules_href="../rules")
    assert '<a href="../rules#3-the-deal" class="section-ref">§3</a>' in page.body


def test_links_between_documents_go_to_their_pages() -> None:
    rules = render(DOCUMENT, here="rules").body
    assert '<a href="docs/seeded-shuffle#test-vectors">the shuffle</a>' in rules
    shuffle = render("[rules](rules.md), [rulings](rulings.md), [me](seeded-shuffle.md)", here="docs/seeded-shuffle")
    assert '<a href="../rules">rules</a>' in shuffle.body
    assert '<a href="../rules#10-rulings">rulings</a>' in shuffle.body
    assert '<a href="#">me</a>' in shuffle.body


def test_nothing_the_policy_would_block_gets_through() -> None:
    body = render(DOCUMENT, here="rules").body
    assert "<script" not in body and "&lt;script&gt;" in body  # raw HTML is text
    assert not re.search(r"<[a-z]+[^<>]* style=", body) and "&lt;b style=" in body  # no style attribute
    assert '<th class="align-left">left</th>' in body and '<th class="align-center">centre</th>' in body
    assert '<td class="align-right">3</td>' in body
    assert '<div class="table-scroll" tabindex="0"><table>' in body and "</table></div>" in body


def test_arabic_is_isolated_and_marked() -> None:
    body = render(DOCUMENT, here="rules").body
    assert '<bdi lang="ar">الشكبة</bdi> <em>ech-chkobba</em>' in body


def test_the_served_documents_render() -> None:
    for name in PAGES:
        document = rendered(name)
        assert document.title and document.headings, name
    assert rendered("rules").sections["10.16"] == "1016-seeds"
