"""Committed deals (docs/fair-deals.md): the commitment to a secret server seed, given before any card
is chosen, and the deck that the seed and the seats' seeds then give."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from flask import Blueprint, Response

from service.rules import Card, commitment_of, fair_deck
from service.rules.fair import SERVER_SEED_BYTES

from . import examples, schemas
from .io import answer, body
from .operations import Operation, operation
from .problems import Problem
from .sealed_rounds import current_sealer, now_seconds
from .sealing import COMMIT, Sealer, TokenError

bp = Blueprint("deals", __name__)


@operation(
    bp,
    Operation(
        "commitDeal",
        "post",
        "/v1/deals/commitments",
        "Commit to a deal before any card is chosen",
        "Draws a secret 32-byte server seed from a secure random source and answers its `commitment`, the lowercase "
        "hex of its SHA-256, with `commit_token`, which holds the seed sealed: publish the commitment to the "
        "players, collect one seed per seat, then deal with dealRound's `fair` (`sealed: true`). The deck is then "
        "the seeded shuffle of HMAC-SHA256(server seed, the canonical JSON of the commitment and the seeds), and the "
        "answer that ends the round reveals the server seed in `record.fair`, so that anyone can check the deal "
        "(docs/fair-deals.md). A commit token lives as long as a state token, and is meant for one deal: two records "
        "with one commitment show a deal made twice.",
        "rounds",
        schemas.CommitResponse,
        schemas.CommitRequest,
        examples.commit,
    ),
)
def commit() -> Response:
    body("commit")
    server_seed = secrets.token_bytes(SERVER_SEED_BYTES)
    token = current_sealer().seal({"server_seed": server_seed.hex()}, now=now_seconds(), kind=COMMIT)
    return answer({"commitment": commitment_of(server_seed), "commit_token": token})


def committed_deck(sealer: Sealer, fair: dict[str, Any], players: int) -> tuple[tuple[Card, ...], dict[str, Any]]:
    """The deck of a committed deal, and what the round's record reveals of it at the end: the
    commitment, the seats' seeds and the server seed."""
    seeds: Sequence[str] = fair["seeds"]
    if len(seeds) != players:
        raise Problem(
            422,
            "wrong-seed-count",
            f"fair.seeds gives {len(seeds)} seeds for {players} seats: one per seat",
            errors={"fair.seeds": [f"one seed per seat: {players}, not {len(seeds)}"]},
        )
    opened = sealer.open(fair["commit_token"], now=now_seconds(), kind=COMMIT, field="fair.commit_token")
    server_seed_hex = opened.get("server_seed")
    if not isinstance(server_seed_hex, str):  # authentic, so only a bug of ours could do this
        raise TokenError("tampered-state", "unreadable", "commit_token holds no server seed", "fair.commit_token")
    server_seed = bytes.fromhex(server_seed_hex)
    commitment = commitment_of(server_seed)
    reveal = {"commitment": commitment, "seeds": list(seeds), "server_seed": server_seed_hex}
    return fair_deck(server_seed, commitment, seeds), reveal
