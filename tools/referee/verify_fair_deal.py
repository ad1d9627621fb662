#!/usr/bin/env python3
"""Check a committed deal from its round record, with nothing but Python's standard library.

    python3 verify_fair_deal.py RECORD.json     (or the record on standard input)

RECORD.json is the `record` that the answer ending a sealed round carried (a replayRound body). Its
`fair` block holds the commitment the service published before the deal, the seats' seeds and the
server seed revealed at the end. This checks, independently of the service that dealt it:

1. SHA-256 of the server seed is the commitment: the seed revealed is the one committed to;
2. the deck is the seeded shuffle of the seed text HMAC-SHA256(server seed, the RFC 8785 canonical
   JSON of {"commitment", "seeds"}), in lowercase hex: the deck follows from them, and nothing else.

It prints the seed text and "verified", or what differs, and exits 0 when verified, 1 when not, 2
when the record has no committed deal. The derivation is docs/fair-deals.md's (and the seeded
shuffle docs/seeded-shuffle.md's): written again here, on purpose, so that a referee need trust
neither the service's code nor its answers.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys

RANKS = "A234567JQK"
SUITS = "DHSC"


def seeded_deck(seed: str) -> list[str]:
    """Fisher-Yates from the canonical order, each draw the first 8 bytes (big-endian) of SHA-256 of
    "<seed>:<k>", a draw at or above the largest multiple of n below 2^64 drawn again."""
    deck = [rank + suit for suit in SUITS for rank in RANKS]
    k = 0
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = 2**64 - 2**64 % n
        while True:
            x = int.from_bytes(hashlib.sha256(f"{seed}:{k}".encode()).digest()[:8], "big")
            k += 1
            if x < limit:
                break
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def seed_text(server_seed: bytes, commitment: str, seeds: list[str]) -> str:
    # RFC 8785 of an object of strings: keys in order, no spaces, JSON's own escapes, UTF-8.
    message = json.dumps({"commitment": commitment, "seeds": seeds}, ensure_ascii=False, separators=(",", ":"))
    return hmac.new(server_seed, message.encode("utf-8"), hashlib.sha256).hexdigest()


def verify(record: dict) -> tuple[bool, str]:
    fair = record["fair"]
    server_seed = bytes.fromhex(fair["server_seed"])
    if hashlib.sha256(server_seed).hexdigest() != fair["commitment"]:
        return False, "SHA-256 of the server seed is not the commitment"
    if len(fair["seeds"]) != record["players"]:
        return False, f"{len(fair['seeds'])} seeds for {record['players']} seats"
    text = seed_text(server_seed, fair["commitment"], fair["seeds"])
    expected = seeded_deck(text)
    deck = record["deck"]
    if deck != expected:
        if len(deck) != len(expected):
            return False, f"the record's deck has {len(deck)} cards, not {len(expected)}"
        first = next(i for i, (a, b) in enumerate(zip(deck, expected, strict=True)) if a != b)
        return False, f"seed text {text}: card {first} is {deck[first]}, the derivation gives {expected[first]}"
    return True, f"seed text {text}: the deck is the one the server seed and the seats' seeds give"


def main(argv: list[str]) -> int:
    record = json.load(open(argv[1], encoding="utf-8") if len(argv) > 1 else sys.stdin)
    if "fair" not in record:
        print("no committed deal: the record has no fair block")
        return 2
    verified, why = verify(record)
    print(("verified: " if verified else "mismatch: ") + why)
    return 0 if verified else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
