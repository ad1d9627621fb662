"""Every setting is declared once (service/ops/settings.py), read once, from that module alone, and the
settings table of docs/operations.md is made from the declarations; a wrong value stops the start
with one line that names it, under gunicorn as in create_app()."""

from __future__ import annotations

import ast
import base64
import dataclasses
import json
import re
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from service.app import create_app
from service.ops import settings
from service.ops.settings import SETTINGS, SettingError, new_key, read, require_keys

from ..support import (
    NOT_INSTALLED,
    ROOT,
    build_context,
    clean_environment,
    free_port,
    gunicorn_refused,
    requests_of_worker,
    running_gunicorn,
    send,
    served_pids,
    status_of,
)

NAME = re.compile(r"\b((?:CHKOBBA|PROMETHEUS)_[A-Z0-9_]+)\b")
DECLARED = {s.name for s in SETTINGS}


def readme_table() -> list[str]:
    """The settings table of docs/operations.md."""
    page = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    section = page.split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    return [line for line in section.splitlines() if line.startswith("|")]


# ---- declared once, documented once, read in one place ----------------------------------------------


def test_the_readme_table_is_made_from_the_declarations() -> None:
    """`python -m service.ops.settings` prints the table; paste it into docs/operations.md's "Settings"."""
    assert readme_table() == settings.table_rows()


def test_every_setting_the_image_and_the_manifests_set_is_declared() -> None:
    named: set[str] = set()
    for path in [ROOT / "Dockerfile", *ROOT.glob("deploy/**/*.yaml")]:
        named |= set(NAME.findall(path.read_text(encoding="utf-8")))
    assert named - DECLARED == set()


def test_every_setting_the_code_names_is_declared() -> None:
    """A name in quotes or backticks (``os.environ.get("X")``, a docstring's ``X``); a constant such as
    ``CHKOBBA_CRP`` is no setting."""
    named: set[str] = set()
    for path in [ROOT / "gunicorn.conf.py", *ROOT.glob("service/**/*.py")]:
        named |= set(re.findall(r"[\"'`]((?:CHKOBBA|PROMETHEUS)_[A-Z0-9_]+)[\"'`]", path.read_text(encoding="utf-8")))
    assert named - DECLARED == set()


def environment_reads(path: Path) -> list[str]:
    """Where ``path`` reads the process's environment: ``os.environ`` (but as the target of an
    assignment: gunicorn.conf.py hands the metrics directory to prometheus_client), ``os.getenv``,
    ``from os import environ``, or Flask's ``from_prefixed_env``. A request's WSGI environ is no setting."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    written = {
        id(target.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Subscript)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "os":
            if node.attr in ("getenv", "getenvb", "environb") or (node.attr == "environ" and id(node) not in written):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} os.{node.attr}")
        elif isinstance(node, ast.Attribute) and node.attr == "from_prefixed_env":
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} from_prefixed_env")
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            found += [f"{path.relative_to(ROOT)}:{node.lineno} from os import {a.name}" for a in node.names]
    return found


def test_only_the_settings_module_reads_the_environment() -> None:
    offenders = []
    for path in [ROOT / "gunicorn.conf.py", *ROOT.glob("service/**/*.py")]:
        if path != ROOT / "service" / "ops" / "settings.py":
            offenders += environment_reads(path)
    assert offenders == []


def test_the_settings_are_immutable_and_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHKOBBA_KEEPALIVE", "7")
    monkeypatch.setenv("CHKOBBA_LOG_LEVEL", "WARNING")
    read_now = read()
    assert (read_now.keepalive, read_now.log_level) == (7, "warning")
    with pytest.raises(dataclasses.FrozenInstanceError):
        read_now.keepalive = 8  # type: ignore[misc]


def test_the_defaults() -> None:
    found = read({})
    assert (found.port, found.bind, found.worker_connections, found.keepalive, found.client_timeout) == (
        8080,
        "127.0.0.1:8080",
        1000,
        5,
        10,
    )
    assert (found.timeout, found.graceful_timeout, found.max_requests, found.max_requests_jitter) == (
        30,
        20,
        1000000,
        50000,
    )
    assert (found.access_log, found.log_level, found.state_token_lifetime) == ("-", "info", 3600)
    assert (found.metrics_dir, found.control_socket, found.worker_tmp_dir) == (None, None, None)
    assert (found.cors_origins, found.state_keys, found.key_made_at_start) == ((), (), False)
    assert (found.receipt_keys, found.receipt_key_made_at_start) == ((), False)
    assert (found.receipt_public_keys, found.ephemeral_keys, found.metrics_address) == ((), False, None)
    assert read({"PORT": "9000"}).bind == "127.0.0.1:9000"
    assert read({"CHKOBBA_ACCESS_LOG": ""}).access_log == ""  # empty: no log, not the default


def test_under_gunicorn_the_metrics_have_a_directory_of_the_servers_own() -> None:
    by_port = read({"CHKOBBA_BIND": "0.0.0.0:8181"}, under_gunicorn=True).metrics_dir
    assert by_port is not None and by_port.endswith("/chkobba-metrics-8181")
    by_socket = read({"CHKOBBA_BIND": "unix:/run/x.sock"}, under_gunicorn=True).metrics_dir
    assert by_socket is not None and by_socket.endswith("/chkobba-metrics-unix-run-x.sock")
    assert read({"PROMETHEUS_MULTIPROC_DIR": "/m"}, under_gunicorn=True).metrics_dir == "/m"
    assert read({"PROMETHEUS_MULTIPROC_DIR": "/m"}).metrics_dir == "/m"


ZERO_KEY = "A" * 43  # 32 zero bytes
SOME_KEY = "dEmmJE0d4yJONAGctcsxHxAiWoo-AFl65ZdpbiEgXO4"  # fixed: pytest-xdist's workers collect alike
RFC8037_KEY = "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"  # RFC 8037, Appendix A.1: public
# RFC 8032, 7.1 TEST 2: 4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb, as base64url, and
# its public key 3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c; 7.2's Ed25519ctx key.
RFC8032_TEST2_KEY = base64.urlsafe_b64encode(
    bytes.fromhex("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb")
).decode()
RFC8032_TEST2_PUBLIC = base64.urlsafe_b64encode(
    bytes.fromhex("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c")
).decode()
RFC8032_CTX_KEY = base64.urlsafe_b64encode(
    bytes.fromhex("0305334e381af78f141cb666f6199f57bc3495335a256a95bd2a55bf546663f6")
).decode()
WRONG = [
    ("PORT", "http", "PORT must be a whole number, not 'http'"),
    ("PORT", "70000", "PORT must be at most 65535, not 70000"),
    ("CHKOBBA_BIND", "localhost", "CHKOBBA_BIND must be HOST:PORT (or unix:PATH, fd://N), not 'localhost'"),
    ("CHKOBBA_WORKERS", "two", "CHKOBBA_WORKERS must be a whole number, not 'two'"),
    ("CHKOBBA_WORKER_CONNECTIONS", "0", "CHKOBBA_WORKER_CONNECTIONS must be at least 1, not 0"),
    ("CHKOBBA_KEEPALIVE", "0", "CHKOBBA_KEEPALIVE must be at least 1, not 0"),
    ("CHKOBBA_KEEPALIVE", "0.5", "CHKOBBA_KEEPALIVE must be a whole number, not '0.5'"),
    ("CHKOBBA_CLIENT_TIMEOUT", "-5", "CHKOBBA_CLIENT_TIMEOUT must be at least 1, not -5"),
    ("CHKOBBA_CLIENT_TIMEOUT", "abc", "CHKOBBA_CLIENT_TIMEOUT must be a whole number, not 'abc'"),
    ("CHKOBBA_MAX_REQUESTS", "-1", "CHKOBBA_MAX_REQUESTS must be at least 0, not -1"),
    ("CHKOBBA_LOG_LEVEL", "foo", "CHKOBBA_LOG_LEVEL must be one of debug, info, warning, error, critical; not 'foo'"),
    ("CHKOBBA_ACCESS_LOG", "/nonexistent/access.log", "CHKOBBA_ACCESS_LOG: cannot write '/nonexistent/access.log'"),
    ("CHKOBBA_ACCESS_LOG", "/", "CHKOBBA_ACCESS_LOG must be -, empty or a file to append to; '/' is a directory"),
    ("CHKOBBA_WORKER_TMP_DIR", "/nonexistent", "CHKOBBA_WORKER_TMP_DIR must be an existing directory"),
    ("CHKOBBA_STATE_TOKEN_LIFETIME", "a day", "CHKOBBA_STATE_TOKEN_LIFETIME must be a whole number, not 'a day'"),
    ("CHKOBBA_STATE_TOKEN_LIFETIME", "0", "CHKOBBA_STATE_TOKEN_LIFETIME must be at least 1, not 0"),
    ("CHKOBBA_STATE_TOKEN_LIFETIME", "86401", "CHKOBBA_STATE_TOKEN_LIFETIME must be at most 86400, not 86401"),
    # int() would take each of these: an underscore, a sign, another script's digits.
    ("CHKOBBA_STATE_TOKEN_LIFETIME", "3_600", "CHKOBBA_STATE_TOKEN_LIFETIME must be a whole number, not '3_600'"),
    ("CHKOBBA_WORKERS", "+2", "CHKOBBA_WORKERS must be a whole number, not '+2'"),
    ("CHKOBBA_KEEPALIVE", "\u0665", "CHKOBBA_KEEPALIVE must be a whole number, not '\u0665'"),
    ("CHKOBBA_BIND", "0.0.0.0:0", "CHKOBBA_BIND must be HOST:PORT (or unix:PATH, fd://N), not '0.0.0.0:0'"),
    (
        "CHKOBBA_METRICS_ADDRESS",
        "127.0.0.1:0",
        "CHKOBBA_METRICS_ADDRESS must be HOST:PORT (an IPv6 host in brackets), its port from 1",
    ),
    ("CHKOBBA_METRICS_ADDRESS", "0.0.0.0:8080", "CHKOBBA_METRICS_ADDRESS 0.0.0.0:8080 is on the service's own port"),
    ("CHKOBBA_STATE_KEYS", "not-a-key", "CHKOBBA_STATE_KEYS entry 0 is not base64url"),
    ("CHKOBBA_RECEIPT_KEYS", "not-a-key", "CHKOBBA_RECEIPT_KEYS entry 0 is not base64url"),
    ("CHKOBBA_RECEIPT_KEYS", "AAAA,AAAA", "CHKOBBA_RECEIPT_KEYS entry 0 is 3 bytes, not 32"),
    ("CHKOBBA_STATE_KEYS", "", "CHKOBBA_STATE_KEYS is set but holds no key: ''"),
    ("CHKOBBA_STATE_KEYS", " , , ", "CHKOBBA_STATE_KEYS is set but holds no key: ' , , '"),
    ("CHKOBBA_RECEIPT_KEYS", ",", "CHKOBBA_RECEIPT_KEYS is set but holds no key: ','"),
    ("CHKOBBA_RECEIPT_KEYS", " ", "CHKOBBA_RECEIPT_KEYS is set but holds no key: ' '"),
    ("CHKOBBA_STATE_KEYS", ZERO_KEY, "CHKOBBA_STATE_KEYS entry 0 is one byte repeated:"),
    ("CHKOBBA_RECEIPT_KEYS", f"{SOME_KEY},{ZERO_KEY}", "CHKOBBA_RECEIPT_KEYS entry 1 is one byte repeated:"),
    ("CHKOBBA_RECEIPT_KEYS", RFC8037_KEY, "CHKOBBA_RECEIPT_KEYS entry 0 is RFC 8037's example key, which is public"),
    ("CHKOBBA_STATE_KEYS", RFC8037_KEY, "CHKOBBA_STATE_KEYS entry 0 is RFC 8037's example key, which is public"),
    (
        "CHKOBBA_RECEIPT_KEYS",
        RFC8032_TEST2_KEY,
        "CHKOBBA_RECEIPT_KEYS entry 0 is RFC 8032's TEST 2 key, which is public",
    ),
    ("CHKOBBA_STATE_KEYS", RFC8032_CTX_KEY, "CHKOBBA_STATE_KEYS entry 0 is RFC 8032's the Ed25519ctx test key"),
    (
        "CHKOBBA_RECEIPT_PUBLIC_KEYS",
        RFC8032_TEST2_PUBLIC,
        "CHKOBBA_RECEIPT_PUBLIC_KEYS entry 0 is RFC 8032's TEST 2 public",
    ),
    ("CHKOBBA_RECEIPT_PUBLIC_KEYS", "AAAA", "CHKOBBA_RECEIPT_PUBLIC_KEYS entry 0 is 3 bytes, not 32"),
    ("CHKOBBA_EPHEMERAL_KEYS", "yes", "CHKOBBA_EPHEMERAL_KEYS must be 1 or 0, not 'yes'"),
    ("CHKOBBA_METRICS_ADDRESS", "9100", "CHKOBBA_METRICS_ADDRESS must be HOST:PORT (an IPv6 host in brackets)"),
    ("CHKOBBA_METRICS_ADDRESS", "unix:/run/m", "CHKOBBA_METRICS_ADDRESS must be HOST:PORT"),
    ("CHKOBBA_CORS_ORIGINS", "example.com", "CHKOBBA_CORS_ORIGINS: 'example.com' is not an origin"),
    ("CHKOBBA_CORS_ORIGINS", "*,http://a", "CHKOBBA_CORS_ORIGINS: * allows every origin"),
    ("CHKOBBA_CORS_ORIGINS", "http://a.example:80", "CHKOBBA_CORS_ORIGINS: 'http://a.example:80' names its scheme's"),
    ("CHKOBBA_CORS_ORIGINS", "https://a.example:443", "CHKOBBA_CORS_ORIGINS: 'https://a.example:443' names its"),
]


def test_a_whole_number_may_have_spaces_around_its_digits() -> None:
    """docs/security.md: the digits 0-9, spaces around them aside (a value copied with its newline)."""
    assert read({"CHKOBBA_STATE_TOKEN_LIFETIME": " 60\n"}).state_token_lifetime == 60


def test_an_origin_may_be_written_in_capitals_and_with_a_port_other_than_its_schemes_default() -> None:
    found = read({"CHKOBBA_CORS_ORIGINS": "HTTP://A.Example, https://b.example:8443, http://c.example:443"})
    assert found.cors_origins == ("HTTP://A.Example", "https://b.example:8443", "http://c.example:443")


@pytest.mark.parametrize(("name", "value", "says"), WRONG)
def test_a_wrong_value_is_one_line_that_names_it(name: str, value: str, says: str) -> None:
    with pytest.raises(SettingError) as raised:
        read({name: value})
    assert str(raised.value).startswith(says) and "\n" not in str(raised.value)


@pytest.mark.parametrize(("name", "value", "says"), WRONG[:: len(WRONG) // 6])
def test_create_app_stops_at_a_wrong_value(monkeypatch: pytest.MonkeyPatch, name: str, value: str, says: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingError, match=re.escape(says)):
        create_app({"TESTING": True})


def test_the_apps_config_overrides_settings_read_as_the_environment_would_be() -> None:
    base = read({})
    changed = base.overridden({"STATE_TOKEN_LIFETIME": 60, "CHKOBBA_CORS_ORIGINS": "http://a.test", "ACCESS_LOG": ""})
    assert (changed.state_token_lifetime, changed.cors_origins, changed.access_log) == (60, ("http://a.test",), "")
    assert base.state_token_lifetime == 3600  # a copy: the settings themselves never change
    with pytest.raises(SettingError, match="CHKOBBA_STATE_TOKEN_LIFETIME must be given as text, not True"):
        base.overridden({"STATE_TOKEN_LIFETIME": True})
    with pytest.raises(SettingError, match="CHKOBBA_CORS_ORIGINS"):
        base.overridden({"CORS_ORIGINS": ["http://a.test"]})


def test_create_app_takes_the_settings_it_is_given_and_reads_no_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHKOBBA_CORS_ORIGINS", "not an origin")
    given = read({"CHKOBBA_STATE_TOKEN_LIFETIME": "60", "CHKOBBA_ACCESS_LOG": ""})
    app = create_app({"TESTING": True}, settings=given)
    assert app.extensions["chkobba.sealer"].lifetime_seconds == 60
    assert app.extensions["chkobba.settings"].cors_origins == ()


def test_create_app_takes_the_settings_a_gunicorn_master_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker is forked from the master, settings and all: its app reads no environment."""
    monkeypatch.setenv("CHKOBBA_STATE_TOKEN_LIFETIME", "not read")
    monkeypatch.setattr(settings, "_installed", None)
    settings.install(settings.with_state_keys(read({"CHKOBBA_STATE_TOKEN_LIFETIME": "120"}), lambda _: None))
    app = create_app({"TESTING": True, "ACCESS_LOG": ""})
    assert app.extensions["chkobba.sealer"].keys == settings.current().state_keys
    assert app.extensions["chkobba.sealer"].lifetime_seconds == 120


# ---- under gunicorn -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "value", "says"), WRONG)
@pytest.mark.server
def test_a_wrong_value_stops_gunicorn_with_one_line_naming_it(name: str, value: str, says: str) -> None:
    """In gunicorn's master, as it reads its configuration: before any worker boots, without a
    traceback (each worker would otherwise print one), and without a server that never answers."""
    port = free_port()
    env = clean_environment(CHKOBBA_BIND=f"127.0.0.1:{port}")
    # The rows are written against the default bind, port 8080; here the service has a port of its own.
    value, says = value.replace(":8080", f":{port}"), says.replace(":8080", f":{port}")
    env[name] = value
    stderr = gunicorn_refused(env)
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(says), stderr[-2000:]


@pytest.mark.server
def test_gunicorn_finds_the_service_beside_its_settings_file_from_any_directory(tmp_path: Path) -> None:
    """The image's way (the venv's `gunicorn` script, `-c` with a path), from a working directory
    without the service, and with this checkout's editable install hidden: gunicorn.conf.py puts its
    own directory on sys.path, so the service beside it answers."""
    app_dir, elsewhere, site = tmp_path / "app", tmp_path / "elsewhere", tmp_path / "site"
    for relative in build_context():
        (app_dir / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / relative, app_dir / relative)
    elsewhere.mkdir()
    site.mkdir()
    (site / "sitecustomize.py").write_text(NOT_INSTALLED, encoding="utf-8")
    port = free_port()
    env = clean_environment(
        CHKOBBA_BIND=f"127.0.0.1:{port}",
        CHKOBBA_WORKERS="1",
        PYTHONPATH=str(site),
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"),
    )
    script = str(Path(sys.executable).with_name("gunicorn"))
    log = tmp_path / "gunicorn.log"
    command = [script, "-c", str(app_dir / "gunicorn.conf.py")]
    with running_gunicorn(env, lambda: status_of(port, "/readyz") == 200, log, cwd=elsewhere, command=command):
        assert status_of(port, "/v1/rulesets") == 200


@pytest.mark.server
def test_one_warning_for_a_server_without_keys(tmp_path: Path) -> None:
    """Made once, by the master, which made the key its workers share (each worker's app takes the
    master's settings, key included, and says nothing)."""
    port = free_port()
    env = clean_environment(
        CHKOBBA_BIND=f"127.0.0.1:{port}",
        CHKOBBA_WORKERS="2",
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"),
    )
    log = tmp_path / "gunicorn.log"
    with running_gunicorn(env, lambda: status_of(port, "/readyz") == 200, log):
        for _ in range(20):  # both workers have booted
            if log.read_text(errors="replace").count("Booting worker") == 2:
                break
            status_of(port, "/healthz")
    text = log.read_text(errors="replace")
    assert text.count("Booting worker") == 2, text
    assert text.count("CHKOBBA_STATE_KEYS is not set") == 1, text
    assert text.count("CHKOBBA_RECEIPT_KEYS is not set") == 1, text
    assert text.count("CHKOBBA_METRICS_ADDRESS is not set: /metrics is served on the service's own port") == 1, text


@pytest.mark.server
def test_every_worker_signs_receipts_with_the_key_made_at_start(tmp_path: Path) -> None:
    """Without CHKOBBA_RECEIPT_KEYS the master makes one key, which every worker signs with and
    publishes: pairs of concurrent requests, on connections of their own, until each worker has
    served both the key set and a receipt (its own metrics files say which it served)."""
    port, metrics_dir = free_port(), tmp_path / "metrics"
    env = clean_environment(
        CHKOBBA_BIND=f"127.0.0.1:{port}", CHKOBBA_WORKERS="2", PROMETHEUS_MULTIPROC_DIR=str(metrics_dir)
    )
    body = {"rules": "chkobba", "scores": [3, 4], "round_points": [1, 2], "receipt": True}
    key_sets, receipts = set(), set()

    def served_by_both() -> bool:
        pids = served_pids(metrics_dir)
        served = [requests_of_worker(metrics_dir, pid) for pid in pids]
        return len(pids) == 2 and all(s["getJwks", "200"] and s["decideMatch", "200"] for s in served)

    with running_gunicorn(env, lambda: status_of(port, "/readyz") == 200, tmp_path / "gunicorn.log"):
        with ThreadPoolExecutor(max_workers=4) as pool:
            for _ in range(100):
                keys = pool.map(lambda _: send(port, "GET", "/.well-known/jwks.json")[1], range(2))
                signed = pool.map(lambda _: send(port, "POST", "/v1/match-decisions", body)[1], range(2))
                key_sets.update(keys)
                receipts.update(json.loads(answer)["receipt"] for answer in signed)
                if served_by_both():
                    break
        assert served_by_both()
    assert len(key_sets) == 1 and len(receipts) == 1
    (jwk,) = json.loads(key_sets.pop())["keys"]
    assert json.loads(base64.urlsafe_b64decode(receipts.pop().split(".")[0] + "=="))["kid"] == jwk["kid"]


# ---- keys never made up silently ------------------------------------------------------------------------


def test_one_key_both_sealing_and_signing_is_refused() -> None:
    shared = new_key()
    with pytest.raises(SettingError) as raised:
        read({"CHKOBBA_STATE_KEYS": f"{new_key()},{shared}", "CHKOBBA_RECEIPT_KEYS": f"{new_key()},{shared}"})
    says = "CHKOBBA_RECEIPT_KEYS entry 1 is also in CHKOBBA_STATE_KEYS: give each use keys of its own"
    assert str(raised.value) == says
    assert shared not in str(raised.value)


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ({}, "CHKOBBA_STATE_KEYS and CHKOBBA_RECEIPT_KEYS are not set"),
        ({"CHKOBBA_STATE_KEYS": SOME_KEY}, "CHKOBBA_RECEIPT_KEYS is not set"),
        ({"CHKOBBA_RECEIPT_KEYS": SOME_KEY}, "CHKOBBA_STATE_KEYS is not set"),
        ({"CHKOBBA_EPHEMERAL_KEYS": "0"}, "CHKOBBA_STATE_KEYS and CHKOBBA_RECEIPT_KEYS are not set"),
    ],
)
def test_without_keys_a_server_is_refused_unless_keys_made_at_start_are_asked_for(given: dict, says: str) -> None:
    with pytest.raises(SettingError) as raised:
        require_keys(read(given))
    assert str(raised.value).startswith(says) and "CHKOBBA_EPHEMERAL_KEYS=1" in str(raised.value)
    assert "\n" not in str(raised.value)
    allowed = read({**given, "CHKOBBA_EPHEMERAL_KEYS": "1"})
    assert require_keys(allowed) is allowed
    both = read({"CHKOBBA_STATE_KEYS": new_key(), "CHKOBBA_RECEIPT_KEYS": new_key()})
    assert require_keys(both) is both


def test_create_app_refuses_to_serve_without_keys_but_a_test_app_makes_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CHKOBBA_EPHEMERAL_KEYS", "CHKOBBA_STATE_KEYS", "CHKOBBA_RECEIPT_KEYS"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(SettingError, match="CHKOBBA_STATE_KEYS and CHKOBBA_RECEIPT_KEYS are not set"):
        create_app({"ACCESS_LOG": ""})
    create_app({"ACCESS_LOG": "", "EPHEMERAL_KEYS": "1"})
    create_app({"ACCESS_LOG": "", "STATE_KEYS": new_key(), "RECEIPT_KEYS": new_key()})
    tested = create_app({"TESTING": True, "ACCESS_LOG": ""})  # serves no one: Flask's test client only
    assert tested.extensions["chkobba.settings"].key_made_at_start


def gauge_of(text: str) -> dict[str, float]:
    found = re.findall(r'^chkobba_keys_made_at_start\{keys="(\w+)"\} (\S+)$', text, re.MULTILINE)
    return {kind: float(value) for kind, value in found}


def test_a_gauge_says_whether_the_keys_were_made_at_start() -> None:
    made = create_app({"TESTING": True, "ACCESS_LOG": ""}).test_client()
    assert gauge_of(made.get("/metrics").get_data(as_text=True)) == {"state": 1.0, "receipt": 1.0}
    given = create_app({"TESTING": True, "ACCESS_LOG": "", "STATE_KEYS": new_key(), "RECEIPT_KEYS": new_key()})
    assert gauge_of(given.test_client().get("/metrics").get_data(as_text=True)) == {"state": 0.0, "receipt": 0.0}


@pytest.mark.server
def test_gunicorn_without_keys_stops_with_one_line_naming_the_settings() -> None:
    """The image and deploy/ give no CHKOBBA_EPHEMERAL_KEYS: a replica without its Secret stops, rather
    than serving with a key of its own that no other replica holds."""
    env = clean_environment(CHKOBBA_BIND=f"127.0.0.1:{free_port()}")
    del env["CHKOBBA_EPHEMERAL_KEYS"]
    stderr = gunicorn_refused(env)
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr[-2000:]
    assert lines[0].startswith("CHKOBBA_STATE_KEYS and CHKOBBA_RECEIPT_KEYS are not set"), lines
    assert "CHKOBBA_EPHEMERAL_KEYS=1" in lines[0]


# ---- the public keys published beside the signing keys ------------------------------------------------


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


SMALL_ORDER = [  # the 8 points of small order of Ed25519, canonically encoded
    "0100000000000000000000000000000000000000000000000000000000000000",  # the identity
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # order 2
    "0000000000000000000000000000000000000000000000000000000000000000",  # order 4
    "0000000000000000000000000000000000000000000000000000000000000080",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",  # order 8
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
]
NOT_CANONICAL = [
    "0100000000000000000000000000000000000000000000000000000000000080",  # the identity, x = 0 signed
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # y = p + 1: the identity
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # y = p: order 4
]
BAD_PUBLIC_KEYS = [
    ("11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", "is RFC 8037's example public key"),
    ("O2onvM62pC1io6jQKm8Nc2UyFXcd4kOmOsBIoYtZ2ik", "is the all-zero seed's public key"),
    ("AgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "is not a point of the curve"),
    ("AwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "has a small-order component"),
    *[(b64url(bytes.fromhex(h)), "is a point of small order") for h in SMALL_ORDER],
    *[(b64url(bytes.fromhex(h)), "is not a canonical encoding") for h in NOT_CANONICAL],
]


@pytest.mark.parametrize(("value", "says"), BAD_PUBLIC_KEYS)
def test_a_public_key_anyone_could_sign_for_is_refused_naming_its_entry_never_the_key(value: str, says: str) -> None:
    """A receipt "signed" under one of these would verify against the service's own key set: RFC 8037's
    seed is public, and under a small-order key (the identity: R = identity, S = 0) signatures forge."""
    with pytest.raises(SettingError) as raised:
        read({"CHKOBBA_RECEIPT_PUBLIC_KEYS": f"{b64url(real_public_key())},{value}"})
    said = str(raised.value)
    assert said.startswith(f"CHKOBBA_RECEIPT_PUBLIC_KEYS entry 1 {says}") and "\n" not in said, said
    assert value not in said


def real_public_key() -> bytes:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey.generate().public_key().public_bytes_raw()


def test_real_public_keys_are_taken_and_a_signing_keys_own_public_half_is_published_once() -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    keys = [real_public_key() for _ in range(20)]
    assert read({"CHKOBBA_RECEIPT_PUBLIC_KEYS": ",".join(map(b64url, keys))}).receipt_public_keys == tuple(keys)
    seed = base64.urlsafe_b64decode(SOME_KEY + "=")
    own = Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes_raw()
    app = create_app({"TESTING": True, "ACCESS_LOG": "", "RECEIPT_KEYS": SOME_KEY, "RECEIPT_PUBLIC_KEYS": b64url(own)})
    assert [k["x"] for k in app.test_client().get("/.well-known/jwks.json").get_json()["keys"]] == [b64url(own)]


STANDARD_ALPHABET = base64.b64encode(base64.urlsafe_b64decode(SOME_KEY + "=")).decode().rstrip("=")


@pytest.mark.parametrize(
    ("value", "says"),
    [
        (f"{SOME_KEY}!!", "is not base64url"),
        (f'"{SOME_KEY}"', "is not base64url"),
        (STANDARD_ALPHABET, "is not base64url"),  # + and / where base64url has - and _
        (f"{SOME_KEY}==", "is not base64url"),  # padded wrong: one = is right for 32 bytes
        (f"{SOME_KEY[:20]} {SOME_KEY[20:]}", "is not base64url"),
        (f"{SOME_KEY[:-1]}5", "is not canonical base64url"),  # the same 32 bytes, other unused bits
    ],
)
def test_a_key_is_read_strictly_one_key_one_spelling(value: str, says: str) -> None:
    assert "+" in STANDARD_ALPHABET or "/" in STANDARD_ALPHABET
    for name in ("CHKOBBA_STATE_KEYS", "CHKOBBA_RECEIPT_KEYS"):
        with pytest.raises(SettingError) as raised:
            read({name: value})
        assert str(raised.value).startswith(f"{name} entry 0 {says}"), str(raised.value)
    assert read({"CHKOBBA_STATE_KEYS": f"{SOME_KEY}="}).state_keys == read({"CHKOBBA_STATE_KEYS": SOME_KEY}).state_keys


@pytest.mark.parametrize("byte", [0, 0x41, 0xFF])
def test_a_key_of_one_byte_repeated_is_refused_without_saying_which_byte(byte: int) -> None:
    value = base64.urlsafe_b64encode(bytes([byte]) * 32).decode().rstrip("=")
    with pytest.raises(SettingError) as raised:
        read({"CHKOBBA_STATE_KEYS": value})
    assert "0x" not in str(raised.value) and f"{byte:02x}" not in str(raised.value).lower().split(":")[0]


def test_keys_made_at_start_and_exported_for_a_reload_still_count_as_made() -> None:
    """gunicorn.conf.py exports the keys it made, so that a SIGHUP reload keeps them, and marks them
    made: read back, the gauge stays 1."""
    made = settings.with_keys(read({"CHKOBBA_EPHEMERAL_KEYS": "1"}), lambda _: None)
    exported = {
        "CHKOBBA_STATE_KEYS": settings.encoded_keys(made),
        "CHKOBBA_RECEIPT_KEYS": settings.encoded_receipt_keys(made),
        settings.MADE_AT_START_MARKER: settings.made_at_start_marker(made),
    }
    reloaded = read(exported)
    assert (reloaded.key_made_at_start, reloaded.receipt_key_made_at_start) == (True, True)
    assert reloaded.state_keys == made.state_keys and reloaded.receipt_keys == made.receipt_keys
    app = create_app({"TESTING": True, "ACCESS_LOG": ""}, settings=reloaded)
    assert gauge_of(app.test_client().get("/metrics").get_data(as_text=True)) == {"state": 1.0, "receipt": 1.0}
    given = read({**exported, settings.MADE_AT_START_MARKER: ""})
    assert (given.key_made_at_start, given.receipt_key_made_at_start) == (False, False)


def test_a_marker_left_beside_other_keys_says_nothing() -> None:
    """A marker copied into an environment that gives keys of its own (a running server's copied whole,
    an old one left set) must not make the gauge say those keys were made at start."""
    made = settings.with_keys(read({"CHKOBBA_EPHEMERAL_KEYS": "1"}), lambda _: None)
    other = settings.with_keys(read({"CHKOBBA_EPHEMERAL_KEYS": "1"}), lambda _: None)
    stale = read(
        {
            "CHKOBBA_STATE_KEYS": settings.encoded_keys(other),
            "CHKOBBA_RECEIPT_KEYS": settings.encoded_receipt_keys(made),
            settings.MADE_AT_START_MARKER: settings.made_at_start_marker(made),
        }
    )
    assert (stale.key_made_at_start, stale.receipt_key_made_at_start) == (False, True)
    for old_spelling in ("state,receipt", "state", "receipt"):
        given = read({"CHKOBBA_STATE_KEYS": SOME_KEY, settings.MADE_AT_START_MARKER: old_spelling})
        assert given.key_made_at_start is False


@pytest.mark.server
def test_after_a_reload_the_gauge_still_says_the_keys_were_made_at_start(tmp_path: Path) -> None:
    import os
    import signal
    import time

    port = free_port()
    env = clean_environment(
        CHKOBBA_BIND=f"127.0.0.1:{port}", CHKOBBA_WORKERS="1", PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "m")
    )
    log = tmp_path / "gunicorn.log"
    with running_gunicorn(env, lambda: status_of(port, "/readyz") == 200, log) as server:
        assert gauge_of(send(port, "GET", "/metrics")[1].decode()) == {"state": 1.0, "receipt": 1.0}
        os.kill(server.pid, signal.SIGHUP)
        for _ in range(100):  # the worker booted after the reload serves
            if log.read_text(errors="replace").count("Booting worker") >= 2 and status_of(port, "/readyz") == 200:
                break
            time.sleep(0.1)
        time.sleep(0.5)
        assert log.read_text(errors="replace").count("Booting worker") >= 2
        assert gauge_of(send(port, "GET", "/metrics")[1].decode()) == {"state": 1.0, "receipt": 1.0}
