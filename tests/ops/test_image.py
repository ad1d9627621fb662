"""The image, as far as it can be checked without a Docker engine: its build context holds all the
service needs and nothing else, and the service starts from that context alone the way the image
starts it (its ENTRYPOINT, CMD and ENV, with a HOME it cannot write), and passes its HEALTHCHECK."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ..support import NOT_INSTALLED, build_context, free_port

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
CONTINUED = r"(?:[^\n]*\\\n)*[^\n]*"  # an instruction's text, over its continued lines


def _instruction(name: str) -> str:
    return re.findall(rf"^{name} ({CONTINUED})$", DOCKERFILE, re.MULTILINE)[-1].replace("\\\n", " ")


def _runtime_env() -> dict[str, str]:
    runtime = DOCKERFILE.split(" AS runtime", 1)[1]
    env: dict[str, str] = {}
    for block in re.findall(rf"^ENV ({CONTINUED})$", runtime, re.MULTILINE):
        for key, value in re.findall(r"([A-Z_]+)=(\S+)", block.replace("\\\n", " ")):
            env[key] = value
    return env


def test_the_build_context_is_the_service_and_nothing_else() -> None:
    sent = build_context()
    # The contract at the root, and the links to it that make it package data, served by the app.
    contract = {"service/api/openapi.yaml", "service/api/openapi.json"}
    root_files = {"pyproject.toml", "constraints.txt", "gunicorn.conf.py", "openapi.yaml", "openapi.json"}
    assert {*root_files, "service/app.py", *contract} <= set(sent)
    assert {p for p in sent if "/" not in p} == root_files
    # The browser pages the service serves, and the links to the documents it renders (service/web/docs).
    web_assets = ("service/web/pages/", "service/web/static/", "service/web/docs/")
    served = [p for p in sent if p.startswith("service/")]
    assert all(p.endswith(".py") or p.startswith(web_assets) or p in contract for p in served), served
    assert not [p for p in sent if p.split("/")[0] in {"tests", "bench", "deploy", ".git", ".venv", "scripts"}]
    # Of docs/, the documents the service serves as pages (service/web/documents.py), and nothing else.
    from service.web.documents import PAGES

    assert {p for p in sent if p.startswith("docs/")} == {f"docs/{page.file}" for page in PAGES.values()}
    assert not [p for p in sent if "__pycache__" in p or p.endswith(".pyc")]
    # Every COPY from the context names something the context holds.
    for sources in re.findall(r"^COPY (?!--from)(.+) \S+$", DOCKERFILE, re.MULTILINE):
        for source in sources.split():
            assert any(p == source or p.startswith(source.rstrip("/") + "/") for p in sent), source


@pytest.mark.server
def test_the_service_runs_from_the_build_context_as_the_image_runs_it(tmp_path: Path, start_gunicorn: Any) -> None:
    app_dir = tmp_path / "app"  # the image's WORKDIR /app
    for relative in build_context():
        (app_dir / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / relative, app_dir / relative)
    entrypoint = json.loads(_instruction("ENTRYPOINT"))
    assert json.loads(_instruction("CMD")) == ["service.app:create_app()"]
    assert entrypoint[0] == "gunicorn"
    # The venv's gunicorn script, as the image's PATH finds it: sys.path then holds the script's
    # directory, not the working directory, until gunicorn adds it.
    script = str(Path(sys.executable).with_name("gunicorn"))
    command = [script, *(a.replace("/app/", f"{app_dir}/") for a in entrypoint[1:])]
    home = tmp_path / "home"  # the image's user has no home; this one must stay empty
    home.mkdir()
    # The image installs the dependencies, not the project: hide this checkout's editable install
    # and its distribution metadata, so that only the copied context can answer.
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(NOT_INSTALLED, encoding="utf-8")
    env = {k: v for k, v in _runtime_env().items() if k != "PATH"}
    env["PYTHONPATH"] = str(site)
    assert env["CHKOBBA_BIND"] == "0.0.0.0:8080" and env["PROMETHEUS_MULTIPROC_DIR"].startswith("/tmp/")
    env["HOME"] = str(home)
    env.pop("CHKOBBA_BIND")  # the fixture binds a free loopback port instead
    env.pop("PROMETHEUS_MULTIPROC_DIR")  # and gives a metrics directory of the test's own
    assert env.pop("CHKOBBA_METRICS_ADDRESS") == "0.0.0.0:9090"  # a fixed port: the test's own is free
    assert not {"CHKOBBA_EPHEMERAL_KEYS", "CHKOBBA_STATE_KEYS", "CHKOBBA_RECEIPT_KEYS"} & set(env)
    env["CHKOBBA_METRICS_ADDRESS"] = f"127.0.0.1:{free_port()}"
    server = start_gunicorn(cwd=app_dir, command=command, env=env)

    # The code answering is the copy in the context, and the project itself is not installed.
    origin = subprocess.run(
        [sys.executable, "-c", "import service.app; print(service.app.__file__)"],
        cwd=tmp_path,  # not the context: only the editable install could find the package from here
        env={**os.environ, "PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
    )
    assert "No module named 'service'" in origin.stderr, origin

    healthcheck = json.loads(_instruction("HEALTHCHECK").split(" CMD ", 1)[1])
    assert healthcheck[0] == "python"
    probe_env = {**os.environ, "CHKOBBA_BIND": f"0.0.0.0:{server.port}"}
    probe = subprocess.run([sys.executable, *healthcheck[1:]], env=probe_env, capture_output=True, text=True)
    assert probe.returncode == 0, probe.stderr
    status, headers, body = server.get("/v1/rulesets/scopa")
    assert status == 200 and headers["X-Request-ID"]
    # The rules page, rendered from the copy of docs/rules.md, and the page its rulesets link to.
    rules_url = json.loads(body)["rules_url"]
    status, headers, page = server.get(rules_url.split("#")[0])
    assert status == 200 and headers["Content-Type"].startswith("text/html"), page[:300]
    assert f'id="{rules_url.split("#")[1]}"'.encode() in page
    status, _, page = server.get("/docs/seeded-shuffle")
    assert status == 200 and b"Fisher-Yates" in page
    assert list(home.iterdir()) == [], "gunicorn wrote under HOME (its control socket?)"
    assert "control" not in server.log().lower(), server.log()


def test_the_healthcheck_fails_when_nothing_answers() -> None:
    healthcheck = json.loads(_instruction("HEALTHCHECK").split(" CMD ", 1)[1])
    env = {**os.environ, "CHKOBBA_BIND": f"0.0.0.0:{free_port()}"}
    probe = subprocess.run([sys.executable, *healthcheck[1:]], env=env, capture_output=True, text=True)
    assert probe.returncode != 0
