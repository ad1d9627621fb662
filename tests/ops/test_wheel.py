"""The project as a wheel: built, installed with its dependencies (at constraints.txt's versions) into
a fresh virtualenv, and served by that virtualenv's gunicorn from an empty working directory, it is
ready (/readyz) and serves its contract and its pages, which are package data.

It downloads the dependencies from the package index (pip's cache makes a second run quicker): about
half a minute the first time.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from ..support import ROOT, Server, clean_environment, free_port, running_gunicorn, status_of

PACKAGE_DATA = [
    ROOT / "service" / "api" / "openapi.yaml",
    ROOT / "service" / "api" / "openapi.json",
    *sorted((ROOT / "service" / "web" / "pages").glob("*.html")),
    *sorted(p for p in (ROOT / "service" / "web" / "static").iterdir() if p.is_file()),
    *sorted((ROOT / "service" / "web" / "docs").glob("*.md")),
]


def run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{command}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


@pytest.mark.server
def test_an_installed_wheel_is_ready_and_serves_its_contract_and_pages(tmp_path: Path) -> None:
    # The sources a wheel is built from, copied: an in-tree build would leave build/ in the checkout.
    source = tmp_path / "chkobba-referee"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(ROOT / "service", source / "service", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    dist = tmp_path / "dist"
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(dist), str(source)])
    [wheel] = dist.glob("chkobba_referee-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        held = set(archive.namelist())
    assert {p.relative_to(ROOT).as_posix() for p in PACKAGE_DATA} <= held, sorted(held)

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)])
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    run([*pip, "-c", str(ROOT / "constraints.txt"), str(wheel)])

    # An empty working directory, and gunicorn.conf.py alone in another: nothing but the installed
    # package can answer. No PYTHONPATH either (the tests may run with one naming this checkout).
    empty, settings = tmp_path / "empty", tmp_path / "settings"
    empty.mkdir()
    settings.mkdir()
    shutil.copy2(ROOT / "gunicorn.conf.py", settings / "gunicorn.conf.py")
    port = free_port()
    env = clean_environment(
        CHKOBBA_BIND=f"127.0.0.1:{port}",
        CHKOBBA_WORKERS="1",
        CHKOBBA_ACCESS_LOG="",
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"),
    )
    env.pop("PYTHONPATH", None)
    origin = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import service.app; print(service.app.__file__)"],
        cwd=empty,
        env=env,
        capture_output=True,
        text=True,
    )
    assert origin.stdout.startswith(str(venv)), origin
    command = [str(venv / "bin" / "gunicorn"), "-c", str(settings / "gunicorn.conf.py")]
    log = tmp_path / "gunicorn.log"
    # Ready is asked below: a 503 there must fail the test with its answer, not time out.
    with running_gunicorn(env, lambda: status_of(port, "/healthz") == 200, log, cwd=empty, command=command) as process:
        server = Server(process, port, log, log)
        status, _, body = server.get("/readyz")
        assert (status, body) == (200, b'{"status":"ready"}'), server.log()
        status, headers, body = server.get("/openapi.json")
        assert status == 200 and body == (ROOT / "openapi.json").read_bytes()
        status, _, body = server.get("/openapi.yaml")
        assert status == 200 and body == (ROOT / "openapi.yaml").read_bytes()
        pages = ("/docs", "/referee", "/rules", "/docs/seeded-shuffle", "/web/referee.js")
        for path in (*pages, "/docs/swagger-ui/swagger-ui-bundle.js"):
            assert server.get(path)[0] == 200, path
        assert b"seven of diamonds" in server.get("/rules")[2].lower()
    assert list(empty.iterdir()) == []
