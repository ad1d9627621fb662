"""Writes the contract, ``openapi.yaml`` and ``openapi.json``, from the app's operations and schemas:
``python -m service.contract [DIRECTORY]`` (``make openapi``), by default into the repository's root,
where clients, generators and linters look for it. ``service/api/openapi.yaml`` and ``openapi.json`` are
links to those two files, so that the app serves them as package data (``service.api.operational.SPEC_PATH``)
and a wheel holds them. Written to files, not stdout: the examples run the app, which may log to stdout."""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import Any

from service.api import spec
from service.api.receipts import EXAMPLE_SEED, Signer
from service.app import create_app

CONTRACT_DIR = Path(__file__).resolve().parents[1]


def build() -> dict[str, Any]:
    app = create_app({"TESTING": True, "ACCESS_LOG": ""})
    # Receipts in the examples signed with RFC 8037's example key, the same on every build (Ed25519
    # signs deterministically), rather than with a key made at start.
    app.extensions["chkobba.signer"] = Signer((EXAMPLE_SEED,))
    # No collection while the examples run: a full one inside a suggestMoves example (tens of ms, once
    # the review's examples have filled the heap) spends the hints' CPU-time budget, and the example
    # would then show a search cut short by `time` instead of the answer every calm machine gives.
    gc.disable()
    try:
        return spec.build(app.test_client())
    finally:
        gc.enable()


def write(directory: Path = CONTRACT_DIR) -> None:
    document = build()
    (directory / "openapi.yaml").write_text(spec.render(document), encoding="utf-8")
    (directory / "openapi.json").write_text(spec.render_json(document), encoding="utf-8")


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else CONTRACT_DIR)
