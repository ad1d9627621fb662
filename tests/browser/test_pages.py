"""The pages' HTTP side, in-process (no browser): what they serve, their security headers, and how
they stay out of the contract while metrics and the access log still name them."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

import pytest
import yaml
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from service.app import create_app
from service.web import CONTENT_SECURITY_POLICY

from ..support import github_slug

ROOT = Path(__file__).resolve().parents[2]
PAGES = ("/docs", "/referee", "/rules", "/docs/seeded-shuffle")
ASSETS = (
    "/web/document.css",
    "/web/referee.js",
    "/web/referee.css",
    "/web/i18n.js",
    "/web/cards.js",
    "/web/dom.js",
    "/web/review.js",
    "/web/examples.js",
    "/web/docs.js",
    "/web/docs.css",
    "/web/favicon.svg",
    "/docs/swagger-ui/swagger-ui-bundle.js",
    "/docs/swagger-ui/swagger-ui.css",
    "/docs/swagger-ui/LICENSE",
    "/docs/openapi.json",
)


@pytest.fixture(scope="module")
def client() -> FlaskClient:
    return create_app({"TESTING": True, "ACCESS_LOG": ""}).test_client()


def get(client: FlaskClient, path: str) -> TestResponse:
    """The answer, read and closed (a file sent by Flask stays open until its response is closed)."""
    response = client.get(path)
    response.get_data()
    response.close()
    return response


@pytest.mark.parametrize("path", PAGES + ASSETS)
def test_pages_and_assets_are_served_with_a_strict_policy(client: FlaskClient, path: str) -> None:
    response = get(client, path)
    assert response.status_code == 200, path
    policy = response.headers["Content-Security-Policy"]
    assert policy == CONTENT_SECURITY_POLICY
    directives = dict(d.split(" ", 1) for d in policy.split("; "))
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["connect-src"] == "'self'" and directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy and "http" not in policy
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_the_pages_are_html_in_utf8(client: FlaskClient) -> None:
    for path in PAGES:
        assert get(client, path).content_type == "text/html; charset=utf-8"


class _Inline(HTMLParser):
    """Whatever a strict CSP would block: inline scripts, styles, handlers, other origins."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "style" or "style" in values:
            self.found.append(f"inline style in <{tag}>")
        self.found += [f"handler {name} in <{tag}>" for name in values if name.startswith("on")]
        if tag == "script" and not values.get("src"):
            self.found.append("inline <script>")
        for name in ("src", "href"):
            if (values.get(name) or "").startswith(("http:", "https:", "//")):
                self.found.append(f"another origin: {values[name]}")


@pytest.mark.parametrize("name", ["docs.html", "referee.html", "document.html"])
def test_the_pages_have_nothing_inline_and_nothing_from_elsewhere(name: str) -> None:
    parser = _Inline()
    parser.feed((ROOT / "service" / "web" / "pages" / name).read_text(encoding="utf-8"))
    assert parser.found == []


@pytest.mark.parametrize("path", ["/rules", "/docs/seeded-shuffle"])
def test_the_rendered_documents_have_nothing_inline_and_nothing_from_elsewhere(client: FlaskClient, path: str) -> None:
    parser = _Inline()
    parser.feed(get(client, path).get_data(as_text=True))
    assert parser.found == []


def test_the_inline_check_finds_what_the_policy_would_block() -> None:
    parser = _Inline()
    parser.feed('<td style="text-align:left"><script>x()</script><a href="https://elsewhere.example/">')
    assert parser.found == ["inline style in <td>", "inline <script>", "another origin: https://elsewhere.example/"]


class _Document(HTMLParser):
    """A document page's headings (id, text), its links and every id it has."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[list[str]] = []
        self.links: list[str] = []
        self.ids: set[str] = set()
        self._heading: list[str] | None = None
        self._in_main = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag == "main":
            self._in_main = True
        if tag in ("h2", "h3") and self._in_main:
            self._heading = [str(values.get("id")), ""]
            self.headings.append(self._heading)
        if tag == "a" and values.get("href"):
            self.links.append(str(values["href"]))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("h2", "h3"):
            self._heading = None
        if tag == "main":
            self._in_main = False

    def handle_data(self, data: str) -> None:
        if self._heading is not None:
            self._heading[1] += data


def document(client: FlaskClient, path: str) -> _Document:
    parser = _Document()
    parser.feed(get(client, path).get_data(as_text=True))
    return parser


def test_the_rules_page_has_every_section_of_docs_rules_md_at_its_anchor(client: FlaskClient) -> None:
    markdown = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    sections = [re.sub(r"[`*]", "", title) for title in re.findall(r"^#{2,3} (.+)$", markdown, re.MULTILINE)]
    assert len(sections) > 60
    page = document(client, "/rules")
    assert page.headings == [[github_slug(title), title] for title in sections]
    # A section cited in the text links to its heading, here as everywhere on the page.
    assert "#75-worked-example-001-section-06" in page.links and "#102-a-redeal-is-final" in page.links


@pytest.mark.parametrize("path", ["/rules", "/docs/seeded-shuffle"])
def test_every_link_of_a_document_page_leads_somewhere(client: FlaskClient, path: str) -> None:
    page = document(client, path)
    assert len(page.links) > 5
    for link in page.links:
        target, _, anchor = urljoin(f"http://localhost{path}", link).removeprefix("http://localhost").partition("#")
        assert target.startswith("/"), link  # nothing from elsewhere
        if target == path:
            assert not anchor or anchor in page.ids, link  # the page itself (the navigation), or a heading of it
            continue
        response = get(client, target)
        assert response.status_code == 200, link
        if anchor:
            assert anchor in document(client, target).ids, link


def test_the_seeded_shuffle_page_cites_the_rules_page(client: FlaskClient) -> None:
    page = document(client, "/docs/seeded-shuffle")
    assert [h[1] for h in page.headings] == ["The algorithm", "Test vectors"]
    assert "../rules#3-the-deal" in page.links  # "docs/rules.md §3"


@pytest.mark.parametrize(
    ("path", "page"), [("/docs/seeded-shuffle.md", "/docs/seeded-shuffle"), ("/docs/rules.md", "/rules")]
)
def test_the_documents_repository_paths_lead_to_their_pages(client: FlaskClient, path: str, page: str) -> None:
    response = get(client, path)
    assert response.status_code == 301 and response.headers["Location"] == page


def test_a_missing_document_is_not_found(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from service.web import documents

    monkeypatch.setattr(documents, "DOCS", tmp_path)
    documents.rendered.cache_clear()
    try:
        fresh = create_app({"TESTING": True, "ACCESS_LOG": ""}).test_client()
        response = get(fresh, "/rules")
        assert (response.status_code, response.get_json()["code"]) == (404, "not-found")
    finally:
        documents.rendered.cache_clear()


def test_no_script_of_ours_loads_anything_from_elsewhere() -> None:
    for path in (ROOT / "service" / "web" / "static").iterdir():
        text = path.read_text(encoding="utf-8")
        urls = re.findall(r"https?://[^\s\"')]+", text)
        assert [u for u in urls if not u.startswith("http://www.w3.org/")] == [], path.name


def test_swagger_ui_serves_only_what_the_docs_load(client: FlaskClient) -> None:
    for path in ("index.html", "oauth2-redirect.html", "..%2F__init__.py"):
        refused = get(client, f"/docs/swagger-ui/{path}")
        assert (refused.status_code, refused.get_json()["code"]) == (404, "not-found"), path
    licence = get(client, "/docs/swagger-ui/LICENSE")
    assert "Apache License" in licence.get_data(as_text=True)
    assert "SmartBear" in licence.get_data(as_text=True)


def test_the_docs_show_the_committed_contract_sent_to_this_very_service(client: FlaskClient) -> None:
    committed = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    shown = get(client, "/docs/openapi.json").get_json()
    assert shown["servers"] == [{"url": "/", "description": "This service"}]
    assert {k: v for k, v in shown.items() if k != "servers"} == {k: v for k, v in committed.items() if k != "servers"}


def test_the_pages_are_not_api_operations(client: FlaskClient) -> None:
    paths = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))["paths"]
    assert not [p for p in paths if p.startswith(("/docs", "/referee", "/web", "/rules"))]


def test_metrics_name_the_pages_by_their_endpoint(client: FlaskClient) -> None:
    get(client, "/referee")
    get(client, "/docs")
    get(client, "/web/referee.js")
    get(client, "/rules")
    get(client, "/docs/seeded-shuffle")
    text = get(client, "/metrics").get_data(as_text=True)
    for endpoint in ("web.referee", "web.docs", "web.static", "web.rules", "web.seeded_shuffle"):
        assert re.search(rf'chkobba_http_requests_total\{{operation="{endpoint}",status="200"\}} [1-9]', text), endpoint
