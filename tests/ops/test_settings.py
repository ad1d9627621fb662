"""Every setting is an environment variable, and the README's settings table lists each of them."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
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
