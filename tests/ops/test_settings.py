"""Every setting is an environment variable, the README's settings table lists each of them, and a
value out of range stops the start with a message that names it."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from ..support import ROOT, clean_environment, free_port

SETTING = re.compile(r"\b((?:CHKOBBA|PROMETHEUS)_[A-Z0-9_]+)\b")


def documented() -> set[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Settings", 1)[1].split("\n## ", 1)[0]
    names: set[str] = set()
    for row in re.findall(r"^\| (`[^|]+) \|", table, re.MULTILINE):
        names |= set(re.findall(r"`([A-Z][A-Z0-9_]*)`", row))
    return names


def read_by_the_service() -> set[str]:
    """Names set in the image and the manifests, and named in quotes or backticks in the Python code
    (``os.environ.get("X")``, a docstring's ``X``): a constant such as ``CHKOBBA_CRP`` is no setting."""
    names: set[str] = set()
    for path in [ROOT / "Dockerfile", *ROOT.glob("deploy/**/*.yaml")]:
        names |= set(SETTING.findall(path.read_text(encoding="utf-8")))
    for path in [ROOT / "gunicorn.conf.py", *ROOT.glob("service/**/*.py")]:
        text = path.read_text(encoding="utf-8")
        names |= set(re.findall(r"[\"'`]((?:CHKOBBA|PROMETHEUS)_[A-Z0-9_]+)[\"'`]", text))
        names |= set(re.findall(r"os\.environ(?:\.get\(|\[)[\"']([A-Z][A-Z0-9_]*)[\"']", text))
    return names


def test_every_setting_the_service_reads_is_in_the_readme() -> None:
    assert read_by_the_service() - documented() == set()


def test_the_readme_lists_no_setting_the_service_ignores() -> None:
    assert documented() - read_by_the_service() == set()


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("CHKOBBA_KEEPALIVE", "0", "at least 1"),
        ("CHKOBBA_KEEPALIVE", "0.5", "a whole number"),
        ("CHKOBBA_CLIENT_TIMEOUT", "0", "at least 1"),
        ("CHKOBBA_CLIENT_TIMEOUT", "-5", "at least 1"),
        ("CHKOBBA_CLIENT_TIMEOUT", "abc", "a whole number"),
        ("CHKOBBA_WORKER_CONNECTIONS", "0", "at least 1"),
        ("CHKOBBA_WORKERS", "two", "a whole number"),
        ("CHKOBBA_MAX_REQUESTS", "-1", "at least 0"),
    ],
)
def test_a_setting_out_of_range_stops_the_start_with_its_name(name: str, value: str, says: str) -> None:
    """Rather than a traceback, or a server that listens and never answers (0 connections)."""
    env = clean_environment(CHKOBBA_BIND=f"127.0.0.1:{free_port()}", **{name: value})
    done = subprocess.run(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "--check-config", "service.app:create_app()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert f"{name} must be {says}" in done.stderr + done.stdout, done.stderr[-2000:]
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("origins", ["example.com", "http://a/path", "*,http://a"])
def test_a_wrong_cors_origins_stops_the_start_with_one_line(origins: str) -> None:
    """Checked by gunicorn's master as it starts (gunicorn.conf.py), before any worker boots: one
    line, where each worker would otherwise print a traceback."""
    env = clean_environment(CHKOBBA_BIND=f"127.0.0.1:{free_port()}", CHKOBBA_CORS_ORIGINS=origins)
    done = subprocess.run(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "service.app:create_app()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    lines = [line for line in done.stderr.splitlines() if "CHKOBBA_CORS_ORIGINS" in line]
    assert len(lines) == 1 and repr(origins) in lines[0], done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "Booting worker" not in done.stderr
