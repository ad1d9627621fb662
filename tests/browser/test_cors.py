"""A page on another origin calls the API in Chromium (CORS): from an origin CHKOBBA_CORS_ORIGINS
lists, it reads legalCaptures, a sealed round, a problem and a refused body; from one it does not
list, every call fails as a browser blocks it (a TypeError), and nothing is computed.

The pages are served by a small HTTP server of this module on ports of their own, so they are of
other origins than the service. conftest's ``open_page`` fails a test on any request that leaves
the service, so these tests open their pages themselves and judge the console here.
"""

from __future__ import annotations

import http.client
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ..support import DESKTOP, Service, clean_environment, free_port, running_gunicorn, status_of

# One page, for either origin: it calls the service named by its query string (?api=...).
PAGE = b"""<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>A card table on another origin</title></head>
<body>
<script>
  const api = new URLSearchParams(location.search).get("api");

  // One POST of JSON (so a preflight first): the answer's status, X-Request-ID and body.
  async function call(path, body, requestId) {
    const headers = { "Content-Type": "application/json" };
    if (requestId) headers["X-Request-ID"] = requestId;
    const response = await fetch(api + path, { method: "POST", headers, body: JSON.stringify(body) });
    return { status: response.status, requestId: response.headers.get("X-Request-ID"), body: await response.json() };
  }

  // A sealed round: deal it, then play the first card of the seat to move on the state token.
  async function playSealed(deal) {
    const dealt = await call("/v1/rounds", deal);
    const seat = dealt.body.views[0].turn;
    const card = dealt.body.views[seat].hand[0];
    const played = await call("/v1/rounds/play", { state_token: dealt.body.state_token, move: { card } });
    return { dealt, card, played };
  }

  // What a call ends in: its answer, or the error fetch threw.
  async function attempt(call) {
    try {
      return { answer: await call() };
    } catch (error) {
      return { error: error.name };
    }
  }

  Object.assign(window, { call, playSealed, attempt });
  document.body.dataset.ready = "true";
</script>
</body>
</html>
"""
CAPTURES = {"rules": "chkobba", "table": ["2D", "6S", "AC"], "hand": ["QH", "7C", "KS"]}
DEAL = {"rules": "scopa", "players": 2, "dealer": 0, "seed": "cors", "sealed": True}
# Chromium logs every 4xx answer to fetch this way: a verdict the page reads, not a fault.
STATUS_LOGGED = "Failed to load resource: the server responded with a status of"


class OnePage(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *args: Any) -> None:  # quiet: pytest shows what the test says
        pass


@pytest.fixture(scope="module")
def origins() -> Iterator[dict[str, str]]:
    """Two page servers, each on a free loopback port of its own: two origins."""
    servers = {name: ThreadingHTTPServer(("127.0.0.1", 0), OnePage) for name in ("listed", "not listed")}
    threads = [threading.Thread(target=server.serve_forever, daemon=True) for server in servers.values()]
    for thread in threads:
        thread.start()
    try:
        yield {name: f"http://127.0.0.1:{server.server_address[1]}" for name, server in servers.items()}
    finally:
        for server in servers.values():
            server.shutdown()
            server.server_close()


@pytest.fixture(scope="module")
def cors_service(tmp_path_factory: pytest.TempPathFactory, origins: dict[str, str]) -> Iterator[Service]:
    """The service under gunicorn, allowing the "listed" origin only."""
    tmp: Path = tmp_path_factory.mktemp("cors-service")
    port = free_port()
    env = clean_environment(
        CHKOBBA_BIND=f"127.0.0.1:{port}",
        CHKOBBA_WORKERS="2",
        CHKOBBA_ACCESS_LOG="",
        CHKOBBA_CORS_ORIGINS=origins["listed"],
        PROMETHEUS_MULTIPROC_DIR=str(tmp / "metrics"),
    )
    log = tmp / "gunicorn.log"
    with running_gunicorn(env, lambda: status_of(port, "/readyz") == 200, log) as process:
        yield Service(f"http://127.0.0.1:{port}", process, log)


@contextmanager
def page_from(browser: Any, origin: str, service: Service) -> Iterator[tuple[Page, list[str]]]:
    """The page served from ``origin``, calling ``service``, and what its console says."""
    context = browser.new_context(viewport=DESKTOP, service_workers="block")
    context.set_default_timeout(10_000)
    console: list[str] = []
    page = context.new_page()
    page.on("console", lambda message: console.append(f"console {message.type}: {message.text}"))
    page.on("pageerror", lambda error: console.append(f"uncaught: {error}"))
    try:
        page.goto(f"{origin}/?api={service.base}")
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        yield page, console
    finally:
        context.close()


def requests_counted(service: Service, operation: str) -> float:
    """chkobba_http_requests_total of ``operation``, every status, from /metrics."""
    host, port = service.base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        connection.request("GET", "/metrics")
        text = connection.getresponse().read().decode()
    finally:
        connection.close()
    pattern = rf'^chkobba_http_requests_total\{{operation="{operation}",status="\d+"\}} (\S+)$'
    return sum(float(value) for value in re.findall(pattern, text, re.MULTILINE))


def test_a_page_on_a_listed_origin_reads_captures_and_a_sealed_round(
    browser: Any, cors_service: Service, origins: dict[str, str]
) -> None:
    with page_from(browser, origins["listed"], cors_service) as (page, console):
        captures = page.evaluate("([body, id]) => call('/v1/captures', body, id)", [CAPTURES, "page-captures-1"])
        sealed = page.evaluate("deal => playSealed(deal)", DEAL)
        refused = page.evaluate("() => call('/v1/captures', { rules: 'chkobba', table: ['ZZ'], hand: ['QH'] })")
        too_large = page.evaluate(
            """() => fetch(api + "/v1/captures", {
                 method: "POST", headers: { "Content-Type": "application/json" }, body: " ".repeat(70 * 1024),
               }).then(async (response) => [response.status, (await response.json()).code])"""
        )

    # legalCaptures: the API's own answer, and the request id the page sent, read back.
    assert captures["status"] == 200
    assert captures["body"] == cors_service.call("POST", "/v1/captures", CAPTURES)[1]
    assert captures["requestId"] == "page-captures-1"

    # The sealed round: the views dealt from the seed, then the same move played on a token of our own.
    dealt, played = sealed["dealt"], sealed["played"]
    assert dealt["status"] == 200 and sorted(dealt["body"]) == ["round_id", "seq", "state_token", "views"]
    status, ours = cors_service.call("POST", "/v1/rounds", DEAL)
    assert status == 200 and dealt["body"]["views"] == ours["views"]
    assert played["status"] == 200, played["body"]
    move = {"state_token": ours["state_token"], "move": {"card": sealed["card"]}}
    status, ours_played = cors_service.call("POST", "/v1/rounds/play", move)
    assert status == 200 and played["body"]["state_token"]
    # Each deal draws its own round_id; the rest of the answer is the same move's.
    assert {k: v for k, v in played["body"].items() if k not in ("state_token", "round_id")} == {
        k: v for k, v in ours_played.items() if k not in ("state_token", "round_id")
    }

    # Problems are readable too: a 422 of the app, and a body the worker refused.
    assert refused["status"] == 422 and refused["body"]["code"] == "invalid-card" and refused["requestId"]
    assert too_large == [413, "body-too-large"]

    assert [line for line in console if STATUS_LOGGED not in line] == []
    # Chromium's preflights were answered without the operations, and counted as such.
    assert requests_counted(cors_service, "preflight") >= 1


def test_a_page_on_an_origin_not_listed_is_blocked(
    browser: Any, cors_service: Service, origins: dict[str, str]
) -> None:
    captures_before = requests_counted(cors_service, "legalCaptures")
    preflights_before = requests_counted(cors_service, "preflight")
    with page_from(browser, origins["not listed"], cors_service) as (page, console):
        captures = page.evaluate("body => attempt(() => call('/v1/captures', body))", CAPTURES)
        sealed = page.evaluate("deal => attempt(() => playSealed(deal))", DEAL)
        # A GET needs no preflight: the service answers it, and the browser keeps the answer from the page.
        rulesets = page.evaluate("() => attempt(() => fetch(api + '/v1/rulesets').then((r) => r.json()))")

    assert captures == {"error": "TypeError"}
    assert sealed == {"error": "TypeError"}
    assert rulesets == {"error": "TypeError"}
    assert any("has been blocked by CORS policy" in line for line in console), console
    assert not any(line.startswith("uncaught") for line in console), console
    # The POST itself was never sent: its preflight was refused.
    assert requests_counted(cors_service, "legalCaptures") == captures_before
    assert requests_counted(cors_service, "preflight") >= preflights_before + 2
