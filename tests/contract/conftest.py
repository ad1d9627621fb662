"""The clients of clients/openapi-generator/, generated once per test run (the generators take about a
minute and a half on two cores) for the tests of tests/contract that look at them or play with them."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tests.support import clean_environment, free_port, running_gunicorn, status_of

ROOT = Path(__file__).resolve().parents[2]


def _runner() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "openapi_generator_clients", ROOT / "scripts" / "openapi_generator_clients.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def openapi_generator() -> ModuleType:
    """scripts/openapi_generator_clients.py, the generators' runner."""
    return _runner()


@pytest.fixture(scope="session")
def generated_clients(openapi_generator: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Every language's client, generated from openapi.yaml into a temporary folder: {language: Generated}."""
    results: dict[str, object] = openapi_generator.generate_all(tmp_path_factory.mktemp("openapi-generator"))
    return results


@pytest.fixture(scope="module")
def referee_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The service under gunicorn on a free loopback port, for the live rounds (tests marked server)."""
    port = free_port()
    env = clean_environment(PORT=str(port), CHKOBBA_BIND=f"127.0.0.1:{port}")
    log = tmp_path_factory.mktemp("referee") / "gunicorn.log"
    with running_gunicorn(env, lambda: status_of(port, "/healthz") == 200, log):
        yield f"http://127.0.0.1:{port}"
