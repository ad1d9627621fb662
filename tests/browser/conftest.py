"""The pages for people (/docs, /referee) in a real browser: Debian's Chromium, driven by Playwright.

The service runs under gunicorn on a free loopback port, as `make run` starts it. Playwright cannot
download a browser of its own on these machines, so it drives /usr/bin/chromium; when that is
missing the tests FAIL (never skip) and say how to install it. Every page a test opens is watched:
a console error, an uncaught exception, a Content-Security-Policy violation or a request to another
origin fails the test. Screenshots go to artifacts/screenshots/ for a person to look at.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from ..support import DESKTOP, ROOT, Service, clean_environment, free_port, running_gunicorn, status_of

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
# What Debian's Chromium needs to run headless as root here: no sandbox (it refuses to start as root
# with one), no GPU, and nothing fetched or updated in the background.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

INSTALL_HINT = (
    "The browser tests need Debian's chromium package at /usr/bin/chromium (Playwright cannot download "
    "its own browser here). Install it as root with `scripts/install_chromium.sh` "
    "(or `apt-get update && apt-get install -y chromium`), then run the tests again."
)


@pytest.fixture(scope="session")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    tmp = tmp_path_factory.mktemp("browser-service")
    port = free_port()
    env = clean_environment(
        CHKOBBA_BIND=f"127.0.0.1:{port}",
        CHKOBBA_WORKERS="2",
        CHKOBBA_ACCESS_LOG="",
        PROMETHEUS_MULTIPROC_DIR=str(tmp / "metrics"),
    )
    log = tmp / "gunicorn.log"
    with running_gunicorn(env, lambda: status_of(port, "/readyz") == 200, log) as process:
        yield Service(f"http://127.0.0.1:{port}", process, log)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(f"/usr/bin/chromium is missing. {INSTALL_HINT}", pytrace=False)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright is not installed: run `make install` (it installs the dev extras).", pytrace=False)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@dataclass
class Watch:
    """What went wrong on a page: console errors, uncaught exceptions, requests to other origins."""

    base: str
    problems: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    documents: dict[Any, str] = field(default_factory=dict)
    aborted: list[Any] = field(default_factory=list)

    def console(self, message: Any) -> None:
        # A CSP violation is reported as a console error ("Refused to ... Content Security Policy").
        # Chromium also logs every 4xx answer as an error: those are judged in response() instead.
        if message.text.startswith("Failed to load resource: the server responded with a status of"):
            return
        if message.type in ("error", "warning") or "Content Security Policy" in message.text:
            self.problems.append(f"console {message.type}: {message.text}")

    def response(self, response: Any) -> None:
        # A 422 from the API is a verdict the page shows (an illegal move); a page or an asset that
        # fails to load, or any 5xx, is a fault.
        path = response.url.removeprefix(self.base)
        if response.status >= 500 or (response.status >= 400 and not path.startswith("/v1/")):
            self.problems.append(f"{response.status} for {response.url}")

    def request(self, request: Any) -> None:
        self.requests.append(request.url)
        self.documents[request] = request.frame.url
        if not request.url.startswith((self.base + "/", "data:", "blob:")):
            self.problems.append(f"a request left the service: {request.url}")

    def request_failed(self, request: Any) -> None:
        if request.failure == "net::ERR_ABORTED":
            self.aborted.append(request)
        else:
            self.problems.append(f"request failed: {request.url} ({request.failure})")

    def faults(self) -> list[str]:
        # Following a link cancels what the old document was still fetching (its favicon, say): that
        # abort is the browser's, not a fault of the page, so it counts only if the frame stayed put.
        # Judged when the test ends, once any navigation has committed.
        stayed = [r for r in self.aborted if self.documents.get(r) == r.frame.url]
        return self.problems + [f"request aborted: {r.url}" for r in stayed]


@pytest.fixture
def open_page(browser: Any, service: Service) -> Iterator[Callable[..., Any]]:
    """open_page(path, viewport=DESKTOP, locale="en-US") -> a Page, watched until the test ends."""
    contexts: list[tuple[Any, Watch]] = []

    def open_(path: str, *, viewport: dict[str, int] = DESKTOP, locale: str = "en-US") -> Any:
        context = browser.new_context(viewport=viewport, locale=locale, service_workers="block")
        context.set_default_timeout(10_000)
        watch = Watch(service.base)
        page = context.new_page()
        page.on("console", watch.console)
        page.on("pageerror", lambda error: watch.problems.append(f"uncaught: {error}"))
        page.on("request", watch.request)
        page.on("response", watch.response)
        page.on("requestfailed", watch.request_failed)
        contexts.append((context, watch))
        page.goto(service.base + path)
        return page

    yield open_
    problems = [p for _, watch in contexts for p in watch.faults()]
    for context, _ in contexts:
        context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture(scope="session")
def screenshots() -> Callable[[Any, str], Path]:
    """screenshot(page, name): the whole page, saved as artifacts/screenshots/<name>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
