"""/rules and /docs/seeded-shuffle in Chromium: the rules and the seeded shuffle, rendered from docs/rules.md and
docs/seeded-shuffle.md in the referee console's style, under the pages' Content-Security-Policy, and reached
from /docs, /referee and a ruleset's rules_url.

The open_page fixture fails a test on any console error, CSP violation, failed request or request to another
origin, so every page opened here is also a check of the CSP.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from ..support import PHONE

ROOT = Path(__file__).resolve().parents[2]
RULES_MD = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
# docs/rules.md's numbered headings, read here from the Markdown: ("7.5", "Worked example (001 section 06)").
SECTIONS = re.findall(r"^#{2,3} (\d+(?:\.\d+)?)\.? (.+)$", RULES_MD, re.MULTILINE)


def slug(text: str) -> str:
    """GitHub's anchor of a heading, which the page gives it too."""
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page is wider than the screen: {width}"


def test_the_rules_page_shows_every_section_of_docs_rules_md(open_page, screenshots) -> None:
    page = open_page("/rules")
    expect(page).to_have_title("Rules: Chkobba and its Scopa-family profiles · Chkobba referee")
    expect(page.locator("header.bar h1")).to_have_text("Rules: Chkobba and its Scopa-family profiles")
    # The headings were read from the first (§0) to the last ruling (§10), however many rulings there are.
    assert len(SECTIONS) > 60 and SECTIONS[0][0] == "0" and SECTIONS[-1][0].startswith("10.")
    headings = page.locator("main h2, main h3")
    expect(headings).to_have_count(len(SECTIONS))
    shown = headings.evaluate_all("hs => hs.map(h => [h.id, h.textContent])")
    plain = [(n, re.sub(r"[`*]", "", title)) for n, title in SECTIONS]  # code and emphasis marks unwrapped
    assert shown == [[slug(f"{n} {title}"), f"{n}{'' if '.' in n else '.'} {title}"] for n, title in plain]
    # Its tables are those of the Markdown, and no table widens the page on a phone.
    expect(page.locator("main table")).to_have_count(len(re.findall(r"^ *\|[-| :]+\|$", RULES_MD, re.MULTILINE)))
    # The page uses the console's sheet: the same bar colour as /referee.
    bar = page.locator("header.bar").evaluate("b => getComputedStyle(b).backgroundColor")
    assert bar == "rgb(27, 67, 50)"  # --green of referee.css
    screenshots(page, "rules-desktop")


def test_the_rules_contents_and_section_links_lead_to_their_sections(open_page) -> None:
    page = open_page("/rules")
    contents = page.get_by_role("navigation", name="Contents")
    expect(contents.locator("a")).to_have_count(len(SECTIONS))
    contents.get_by_role("link", name="7.5 Worked example (001 section 06)").click()
    expect(page).to_have_url(re.compile(r"/rules#75-worked-example-001-section-06$"))
    expect(page.locator('[id="75-worked-example-001-section-06"]')).to_be_in_viewport()
    # A section cited in the text is a link to it: §1.4 in the worked example.
    page.locator("main").get_by_role("link", name="§1.4").first.click()
    expect(page).to_have_url(re.compile(r"/rules#14-capture-values$"))
    expect(page.get_by_role("heading", name="1.4 Capture values")).to_be_in_viewport()


def test_the_rules_on_a_phone(open_page, screenshots) -> None:
    page = open_page("/rules#75-worked-example-001-section-06", viewport=PHONE)
    expect(page.locator('[id="75-worked-example-001-section-06"]')).to_be_in_viewport()
    no_sideways_scroll(page)
    # A wide table scrolls inside its own frame.
    frame = page.locator("main .table-scroll").first
    assert frame.evaluate("f => f.scrollWidth > f.clientWidth"), "the first table fits a phone: nothing to check"
    page.goto(page.url.split("#")[0])
    screenshots(page, "rules-phone")


def test_arabic_words_are_isolated_and_marked(open_page) -> None:
    page = open_page("/rules")
    chkobba = page.locator('main bdi[lang="ar"]', has_text="الشكبة").first
    expect(chkobba).to_be_visible()
    assert "Arabic" in chkobba.evaluate("b => getComputedStyle(b).fontFamily")  # the console's Arabic fonts


@pytest.mark.parametrize(("start", "link"), [("/docs", "Rules"), ("/referee?lang=en", "The rules")])
def test_docs_and_the_console_link_to_the_rules(open_page, start: str, link: str) -> None:
    page = open_page(start)
    # /docs then fetches the contract for Swagger UI: leaving before it arrives would abort it (a
    # failed request, to the page watch), which a busy machine made happen once in CI.
    page.wait_for_load_state("networkidle")
    page.locator("header").get_by_role("link", name=link, exact=True).click()
    expect(page).to_have_url(re.compile(r"/rules$"))
    expect(page.locator("header.bar h1")).to_have_text("Rules: Chkobba and its Scopa-family profiles")


@pytest.mark.parametrize(("lang", "text"), [("fr", "Les règles"), ("ar", "القواعد")])
def test_the_consoles_link_to_the_rules_speaks_its_language(open_page, lang: str, text: str) -> None:
    page = open_page(f"/referee?lang={lang}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.locator("header").get_by_role("link", name=text, exact=True).click()
    expect(page).to_have_url(re.compile(r"/rules$"))


@pytest.mark.parametrize(
    ("profile", "anchor"),
    [("chkobba", "04-profile-sheet-chkobba"), ("chkobba-crp", "05-profile-sheet-chkobba-crp")],
)
def test_the_console_links_each_profile_to_its_sheet(open_page, service, profile: str, anchor: str) -> None:
    status, ruleset = service.call("GET", f"/v1/rulesets/{profile}")
    assert status == 200 and ruleset["rules_url"] == f"/rules#{anchor}"
    page = open_page("/referee?lang=en")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.get_by_label("Profile").select_option(profile)
    page.get_by_role("link", name="The rules of this profile").click()
    expect(page).to_have_url(re.compile(f"/rules#{anchor}$"))
    expect(page.locator(f'[id="{anchor}"]')).to_be_in_viewport()
    expect(page.locator(f'[id="{anchor}"]')).to_contain_text(f"Profile sheet: {profile}")


def follow_from_the_docs(open_page, name: str) -> Page:
    """Open /docs and follow the link ``name`` of the contract's description (Swagger UI opens it in a new
    tab); the page it leads to, opened again through open_page so that it is watched like the others."""
    docs = open_page("/docs")
    link = docs.locator(".swagger-ui .info .description").get_by_role("link", name=name)
    with docs.context.expect_page() as opened:
        link.click()
    target = opened.value
    target.wait_for_load_state()
    path = "/" + target.url.split("/", 3)[3]
    target.close()
    return open_page(path)


def test_the_seeded_shuffle_page_from_the_docs(open_page, screenshots) -> None:
    # The contract's description links to the seeded shuffle (a 404 once), and that link leads to its page.
    page = follow_from_the_docs(open_page, "the seeded shuffle")
    expect(page).to_have_url(re.compile(r"/docs/seeded-shuffle$"))
    expect(page.locator("header.bar h1")).to_have_text("The seeded shuffle")
    expect(page.get_by_role("heading", name="Test vectors")).to_be_visible()
    expect(page.locator("main pre code")).to_contain_text("def seeded_deck(seed: str | int) -> list[str]:")
    screenshots(page, "seeded-shuffle-desktop")
    # Its "§3" is a link to that section of the rules.
    page.locator("main").get_by_role("link", name="§3").click()
    expect(page).to_have_url(re.compile(r"/rules#3-the-deal$"))
    expect(page.get_by_role("heading", name="3. The deal")).to_be_in_viewport()


def test_the_docs_repository_paths_reach_the_pages(open_page) -> None:
    page = open_page("/docs/seeded-shuffle.md")
    expect(page).to_have_url(re.compile(r"/docs/seeded-shuffle$"))
    page = open_page("/docs/rules.md")
    expect(page).to_have_url(re.compile(r"/rules$"))


def test_the_docs_link_to_the_rules_from_the_contracts_description(open_page) -> None:
    page = follow_from_the_docs(open_page, "the rules page")
    expect(page).to_have_url(re.compile(r"/rules$"))
    expect(page.locator("header.bar h1")).to_have_text("Rules: Chkobba and its Scopa-family profiles")
