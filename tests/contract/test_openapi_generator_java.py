"""openapi-generator's Java client (native; clients/openapi-generator/java.yaml), compiled with javac
against Debian's jackson jars (scripts/install_java_client_deps.sh), plays a sealed four-player chkobba
round with a rules object to the end with hints, the cut included, and replays its record
(clients/openapi-generator/java-round/Round.java), against the service under gunicorn.

One change to the generated code before it compiles: jackson-datatype-jsr310 (java.time) is not in
Debian, so its two modules and their registration are left out. The contract's two date-time fields
(a clocked round's ``dealt_at`` and ``deadline``) would need it; this round has no clock.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from ..support import a_whole_round_said

ROOT = Path(__file__).resolve().parents[2]
JARS = ("jackson-core", "jackson-databind", "jackson-annotations", "jsr305", "geronimo-annotation-1.3-spec")
pytestmark = pytest.mark.server


def without_jsr310(source: Path) -> None:
    invoker = source / "org" / "chkobba" / "client"
    for name in ("RFC3339JavaTimeModule.java", "RFC3339InstantDeserializer.java"):
        (invoker / name).unlink()
    for name in ("ApiClient.java", "JSON.java"):
        path = invoker / name
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"^.*(jsr310|JavaTimeModule\(\)).*\n", "", text, flags=re.MULTILINE), encoding="utf-8")


@pytest.fixture(scope="module")
def compiled(generated_clients: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> str:
    """The classpath of the compiled client and Round."""
    install = subprocess.run(
        ["sh", str(ROOT / "scripts" / "install_java_client_deps.sh")], capture_output=True, text=True
    )
    assert install.returncode == 0, install.stderr
    assert shutil.which("javac"), "the JDK's javac is needed"
    source = generated_clients["java"].out / "src" / "main" / "java"
    without_jsr310(source)
    classes = tmp_path_factory.mktemp("java-classes")
    jars = ":".join(f"/usr/share/java/{jar}.jar" for jar in JARS)
    files = [str(p) for p in source.rglob("*.java")] + [str(ROOT / "clients/openapi-generator/java-round/Round.java")]
    run = subprocess.run(
        ["javac", "-nowarn", "-encoding", "UTF-8", "-d", str(classes), "-cp", jars, *files],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return f"{classes}:{jars}"


def test_a_sealed_four_player_round_with_a_rules_object_played_and_replayed(compiled: str, referee_url: str) -> None:
    run = subprocess.run(
        ["java", "-cp", compiled, "Round", referee_url.removeprefix("http://")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    a_whole_round_said(run.stdout)
