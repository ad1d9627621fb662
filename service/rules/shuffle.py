"""The portable seeded shuffle of docs/seeded-shuffle.md, so that any language deals the same deck from a seed.

Start from the canonical order (suits D H S C, each A..K), then Fisher-Yates from i = 39 down to 1:
with n = i + 1, draw x, an unsigned 64-bit integer, drawing again while x >= 2^64 - (2^64 mod n);
j = x mod n; swap cards i and j. Draw k (counted over the whole shuffle) is the first 8 bytes,
big-endian, of SHA-256 of the UTF-8 text "<seed>:<k>". Index 0 of the result is the top card.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator

from .cards import DECK, Card
from .errors import InvalidInput
from .numbers import whole_number

# Whole-number seeds: the signed 64-bit range, which every client language holds in an integer.
SEED_MIN, SEED_MAX = -(1 << 63), (1 << 63) - 1
_SPAN = 1 << 64  # the draws: unsigned 64-bit integers
MAX_SEED_LENGTH = 256


def seed_text(seed: object) -> str:
    """The text form of a seed: a string as it is, a whole number in decimal."""
    if not isinstance(seed, str):
        seed = whole_number(seed)
    if seed is None or (isinstance(seed, int) and not SEED_MIN <= seed <= SEED_MAX):
        # A JSON number beyond 64 bits may arrive as a float: the same refusal, saying the range.
        raise InvalidInput(
            "seed must be a string, or a whole number from -(2^63) to 2^63 - 1 (send larger ones as strings)",
            field="seed",
        )
    text = seed if isinstance(seed, str) else str(seed)
    if not text or len(text) > MAX_SEED_LENGTH:
        raise InvalidInput(f"seed must have 1 to {MAX_SEED_LENGTH} characters", field="seed")
    return text


def _draws(seed: str) -> Iterator[int]:
    k = 0
    while True:
        digest = hashlib.sha256(f"{seed}:{k}".encode()).digest()
        yield int.from_bytes(digest[:8], "big")
        k += 1


def seeded_deck(seed: object) -> tuple[Card, ...]:
    """The deck that the seeded shuffle gives for ``seed`` (a string or a whole number)."""
    draws = _draws(seed_text(seed))
    deck = list(DECK)
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = _SPAN - _SPAN % n
        x = next(draws)
        while x >= limit:
            x = next(draws)
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def random_deck() -> tuple[Card, ...]:
    """A deck shuffled from the operating system's secure random source."""
    deck = list(DECK)
    secrets.SystemRandom().shuffle(deck)
    return tuple(deck)
