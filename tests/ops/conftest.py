"""Helpers for the operational tests: the deploy checker as a module, and gunicorn in a subprocess.

gunicorn runs from this checkout's virtualenv on a free loopback port, with its own metrics directory
and log files under the test's tmp_path; every server a test starts is stopped when the test ends.
"""

from __future__ import annotations

import http.client
import importlib.util
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ..support import free_port

ROOT = Path(__file__).resolve().parents[2]


def load_script(name: str) -> ModuleType:
    path = ROOT / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"scripts_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and typing need the module registered
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def check_deploy() -> ModuleType:
    return load_script("check_deploy")


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int
    stdout: Path
    stderr: Path

    def get(self, path: str, headers: Mapping[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request("GET", path, headers=dict(headers or {}))
            response = conn.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            conn.close()

    def log(self) -> str:
        return self.stderr.read_text(encoding="utf-8", errors="replace")


def clean_environment(**overrides: str) -> dict[str, str]:
    """The test's environment without any of the service's settings, then ``overrides``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CHKOBBA_", "PROMETHEUS_")) and k != "PORT"}
    env.update(overrides)
    return env


@pytest.fixture
def start_gunicorn(tmp_path: Path) -> Iterator[Any]:
    started: list[Server] = []

    def start(
        *,
        cwd: Path = ROOT,
        command: list[str] | None = None,
        env: Mapping[str, str] | None = None,
        ready_path: str = "/readyz",
    ) -> Server:
        port = free_port()
        n = len(started)
        stdout, stderr = tmp_path / f"gunicorn-{n}.out", tmp_path / f"gunicorn-{n}.err"
        environment = clean_environment(
            CHKOBBA_BIND=f"127.0.0.1:{port}",
            CHKOBBA_WORKERS="2",
            PROMETHEUS_MULTIPROC_DIR=str(tmp_path / f"metrics-{n}"),
        )
        environment.update(env or {})
        command = command or [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py")]
        with stdout.open("wb") as out, stderr.open("wb") as err:
            process = subprocess.Popen(
                [*command, "service.app:create_app()"], cwd=cwd, env=environment, stdout=out, stderr=err
            )
        server = Server(process, port, stdout, stderr)
        started.append(server)
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                pytest.fail(f"gunicorn exited with {process.returncode}:\n{server.log()}")
            try:
                if server.get(ready_path)[0] == 200:
                    return server
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"gunicorn was not ready within 30 s:\n{server.log()}")
            time.sleep(0.1)

    yield start
    for server in started:
        if server.process.poll() is None:
            server.process.send_signal(signal.SIGQUIT)  # gunicorn's quick shutdown: it stops its workers too
            try:
                server.process.wait(10)
            except subprocess.TimeoutExpired:
                server.process.kill()
                server.process.wait(10)
