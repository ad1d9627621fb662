"""Committed deals (docs/rules.md §10.26): a deck that nobody chose, and that anyone can check after
the round.

Before any card is chosen, the dealer (the service) draws a secret 32-byte ``server_seed`` and
publishes its commitment, the lowercase hex of SHA-256(server_seed). Each seat then gives a seed of
its own; the deck is the portable seeded shuffle (``seeded_deck``) of the seed text ``s``, the
lowercase hex of HMAC-SHA256(key = server_seed, message = the UTF-8 of the RFC 8785 canonical JSON
of ``{"commitment": <commitment>, "seeds": [<each seat's seed>]}``). Once the round is over, the
server seed is revealed, and anyone recomputes the commitment and the deck. docs/fair-deals.md gives
test vectors and what this proves.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card
from .shuffle import seeded_deck

SERVER_SEED_BYTES = 32
MAX_SEAT_SEED_CHARS = 128


def commitment_of(server_seed: bytes) -> str:
    return hashlib.sha256(server_seed).hexdigest()


def canonical_seeds(commitment: str, seeds: Sequence[str]) -> bytes:
    """The RFC 8785 canonical JSON of ``{"commitment", "seeds"}``: strings only, so the standard
    library writes it as JCS does (keys in order, no spaces, only the escapes JSON requires, the
    rest as UTF-8)."""
    return json.dumps(
        {"commitment": commitment, "seeds": list(seeds)}, ensure_ascii=False, separators=(",", ":"), sort_keys=True
    ).encode("utf-8")


def seed_text(server_seed: bytes, commitment: str, seeds: Sequence[str]) -> str:
    """The seed text of the deck: HMAC-SHA256 of the canonical seeds, keyed with the server seed, in hex."""
    return hmac.new(server_seed, canonical_seeds(commitment, seeds), hashlib.sha256).hexdigest()


def fair_deck(server_seed: bytes, commitment: str, seeds: Sequence[str]) -> tuple[Card, ...]:
    return seeded_deck(seed_text(server_seed, commitment, seeds))


@dataclass(frozen=True, slots=True)
class FairCheck:
    """The verdict on a record's ``fair`` block: ``verified``, or ``mismatch`` with the reason."""

    verified: bool
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"fair_deal": "verified" if self.verified else "mismatch"}
        if self.reason is not None:
            data["fair_deal_reason"] = self.reason
        return data


def check_fair_deal(
    players: int, commitment: str, seeds: Sequence[str], server_seed_hex: str, deck: Sequence[Card]
) -> FairCheck:
    """Whether the revealed server seed is the one committed to, and the deck the one its seeds give."""
    if len(seeds) != players:
        return FairCheck(False, f"{len(seeds)} seeds for {players} seats: a committed deal takes one per seat")
    try:
        server_seed = bytes.fromhex(server_seed_hex)
    except ValueError:
        return FairCheck(False, "server_seed is not hexadecimal")
    if len(server_seed) != SERVER_SEED_BYTES or server_seed_hex != server_seed.hex():
        return FairCheck(False, f"server_seed is not {SERVER_SEED_BYTES} bytes in lowercase hex")
    if not hmac.compare_digest(commitment_of(server_seed), commitment):
        return FairCheck(
            False, "SHA-256 of server_seed is not the commitment: the seed revealed is not the one committed to"
        )
    expected = fair_deck(server_seed, commitment, seeds)
    if tuple(deck) != expected:
        differs = next(i for i, (a, b) in enumerate(zip(deck, expected, strict=True)) if a != b)
        return FairCheck(
            False,
            f"the deck is not the one the server seed and the seats' seeds give: card {differs} is "
            f"{deck[differs].code}, the derivation gives {expected[differs].code}",
        )
    return FairCheck(True)
