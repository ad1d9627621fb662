"""openapi-generator's typescript-fetch client (clients/openapi-generator/typescript-fetch.yaml), compiled
with the TypeScript compiler of clients/typescript (`make ts-client` installs it), plays a sealed
four-player chkobba round with a rules object to the end with hints, the cut included, replays its
record and reads a refusal's problem (clients/openapi-generator/typescript-fetch-round/round.ts), with
Node's own fetch, against the service under gunicorn.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from ..support import a_whole_round_said

ROOT = Path(__file__).resolve().parents[2]
TSC = ROOT / "clients" / "typescript" / "node_modules" / ".bin" / "tsc"
pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def compiled(generated_clients: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """round.ts compiled to JavaScript with the client under the tsconfig it is generated with."""
    assert TSC.exists(), "make ts-client installs the TypeScript compiler"
    client = generated_clients["typescript-fetch"].out
    shutil.copy(ROOT / "clients" / "openapi-generator" / "typescript-fetch-round" / "round.ts", client / "src")
    out = tmp_path_factory.mktemp("typescript-fetch-js")
    run = subprocess.run(
        [str(TSC), "-p", str(client / "tsconfig.json"), "--outDir", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return out / "round.js"


def test_a_sealed_four_player_round_with_a_rules_object_played_and_replayed(compiled: Path, referee_url: str) -> None:
    run = subprocess.run(["node", str(compiled), referee_url], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    said = a_whole_round_said(run.stdout)
    assert said["refused"] == "422 wrong-phase"
