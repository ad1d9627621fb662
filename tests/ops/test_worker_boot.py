"""What gunicorn.conf.py does as a worker boots."""

from __future__ import annotations

import gc
import runpy
from pathlib import Path

import pytest

from service.ops import settings

from ..support import ROOT


def test_a_booted_worker_freezes_what_the_app_loaded_out_of_the_collectors_reach(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Else the first full collection walks it all inside an early request (about 30 ms of CPU in a
    new worker's first move hint, over the hints' time budget on a busy machine)."""
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))  # the file sets it when unset
    # The file installs its settings as this process's, as it does in a gunicorn master: put back
    # what was there, so that the apps of later tests are not a gunicorn worker's.
    monkeypatch.setattr(settings, "_installed", settings.installed())
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    gc.unfreeze()
    try:
        conf["post_worker_init"](None)
        assert gc.get_freeze_count() > 10_000
        assert gc.get_count()[2] == 0  # collected first: nothing left pending for a full collection
    finally:
        gc.unfreeze()
