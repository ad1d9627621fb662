"""Hypothesis profiles: the default run is deterministic and bounded (a failure replays; a run's time is known)."""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from service.strategy import DEFAULT_BUDGET

from . import support
from .support import CURRENT_TEST

# Keys made at start, as `make run` has them: a server without CHKOBBA_STATE_KEYS and
# CHKOBBA_RECEIPT_KEYS refuses to start otherwise (docs/security.md). For the apps the tests build in
# this process, and for every gunicorn they start: clean_environment leaves out the shell's CHKOBBA_*
# variables, so it is wrapped here, before any test module takes it from tests/support.py. A test of
# the refusal itself removes the variable from the environment it gets.
os.environ["CHKOBBA_EPHEMERAL_KEYS"] = "1"
_clean_environment = support.clean_environment


def _clean_environment_with_keys_made_at_start(**settings: str) -> dict[str, str]:
    return _clean_environment(CHKOBBA_EPHEMERAL_KEYS="1", **settings)


support.clean_environment = _clean_environment_with_keys_made_at_start

# Deterministic: the same examples on every run and machine, no example database on disk.
settings.register_profile(
    "default",
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)
# make test-fast, the quick loop while working: a third as many examples (make test runs them all).
settings.register_profile("quick", parent=settings.get_profile("default"), max_examples=20)
# For a longer hunt by hand: CHKOBBA_HYPOTHESIS_PROFILE=thorough pytest tests/property
settings.register_profile(
    "thorough",
    derandomize=False,
    database=None,
    deadline=None,
    max_examples=2000,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("CHKOBBA_HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def _current_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """The running test, for running_gunicorn to check its marker (tests/support.py)."""
    CURRENT_TEST[0] = request.node
    yield
    CURRENT_TEST[0] = None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test under tests/browser drives Chromium: marked browser."""
    browser = Path(__file__).resolve().parent / "browser"
    for item in items:
        if browser in Path(item.path).resolve().parents:  # by its file: a test id may name the folder
            item.add_marker(pytest.mark.browser)


@pytest.fixture(autouse=True)
def _hints_clock_held_still() -> Iterator[None]:
    """The hints' CPU-time budget is a safety net that a loaded machine can trip, and then the answer
    depends on the load: every test runs with its clock held still, so that answers depend on the
    input alone (the time budget's own tests inject their clocks: tests/unit/test_hints.py)."""
    clock = DEFAULT_BUDGET.clock
    object.__setattr__(DEFAULT_BUDGET, "clock", _still)  # a frozen dataclass: its default, for the test
    yield
    object.__setattr__(DEFAULT_BUDGET, "clock", clock)


def _still() -> float:
    return 0.0
