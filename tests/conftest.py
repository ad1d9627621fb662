"""Hypothesis profiles: the default run is deterministic and bounded (STYLE.md, Tests)."""

import os

from hypothesis import HealthCheck, settings

# Deterministic: the same examples on every run and machine, no example database on disk.
settings.register_profile(
    "default",
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)
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
