"""Fixtures for the operational tests: the deploy checker as a module, and gunicorn in a subprocess.

gunicorn runs from this checkout's virtualenv on a free loopback port, with its own metrics directory
and log files under the test's tmp_path; every server a test starts is stopped when the test ends.
"""

from __future__ import annotations

import importlib.util
import itertools
import signal
import sys
from collections.abc import Iterator, Mapping
from contextlib import ExitStack
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ..support import ROOT, Server, clean_environment, free_port, running_gunicorn, status_of


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


@pytest.fixture
def start_gunicorn(tmp_path: Path) -> Iterator[Any]:
    numbers = itertools.count()
    with ExitStack() as running:

        def start(
            *,
            cwd: Path = ROOT,
            command: list[str] | None = None,
            env: Mapping[str, str] | None = None,
            ready_path: str = "/readyz",
        ) -> Server:
            port = free_port()
            n = next(numbers)
            stdout, stderr = tmp_path / f"gunicorn-{n}.out", tmp_path / f"gunicorn-{n}.err"
            environment = clean_environment(
                CHKOBBA_BIND=f"127.0.0.1:{port}",
                CHKOBBA_WORKERS="2",
                PROMETHEUS_MULTIPROC_DIR=str(tmp_path / f"metrics-{n}"),
            )
            environment.update(env or {})
            gunicorn = running_gunicorn(
                environment,
                lambda: status_of(port, ready_path) == 200,
                stdout,
                stderr=stderr,
                cwd=cwd,
                command=command,
                stop=signal.SIGQUIT,  # gunicorn's quick shutdown: it stops its workers too
            )
            return Server(running.enter_context(gunicorn), port, stdout, stderr)

        yield start
