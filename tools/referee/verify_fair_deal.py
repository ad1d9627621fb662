#!/usr/bin/env python3
"""Check a committed deal from its round record, with nothing but Python's standard library.

    python3 verify_fair_deal.py RECORD.json     (or the record on standard input; --help: this text)

RECORD.json is the `record` that the answer ending a sealed round carried (a replayRound body), or
that whole answer (`{"record", "record_receipt", ...}`), whose record is then checked. Its
`fair` block holds the commitment the service published before the deal, the seats' seeds and the
server seed revealed at the end. This checks, independently of the service that dealt it:

1. SHA-256 of the server seed is the commitment: the seed revealed is the one committed to;
2. the deck is the seeded shuffle of the seed text HMAC-SHA256(server seed, the RFC 8785 canonical
   JSON of {"commitment", "seeds"}), in lowercase hex: the deck follows from them, and nothing else.

It reads the record as strictly as the service's replayRound does: `server_seed` and `commitment`
must be 64 lowercase hex digits (no uppercase, no spaces), `fair` hold nothing else beside `seeds`,
`players` a number, `seeds` and `deck` lists of strings, the whole one JSON text in UTF-8 (no lone
surrogate, no NaN, no key named twice).
It prints one line and exits:

    0  verified: the seed text, and that the deck is the one the seeds give;
    1  mismatch: what differs (the seed is not the one committed to, or the deck is another);
    2  cannot check: the input is unreadable or malformed, or the record has no committed deal
       (no `fair` block); the line says why.

The derivation is docs/fair-deals.md's (and the seeded shuffle docs/seeded-shuffle.md's): written
again here, on purpose, so that a referee need trust neither the service's code nor its answers.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys

RANKS = "A234567JQK"
SUITS = "DHSC"
HEX_DIGITS = frozenset("0123456789abcdef")
VERIFIED, MISMATCH, CANNOT_CHECK = 0, 1, 2


class Unreadable(ValueError):
    """The input is not a record this can check: exit 2, with the reason."""


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


def lowercase_hex_64(fair: dict, name: str) -> str:
    value = fair.get(name)
    if not isinstance(value, str) or len(value) != 64 or not set(value) <= HEX_DIGITS:
        raise Unreadable(
            f"fair.{name} is not 64 lowercase hex digits (no uppercase, no spaces), the only form the service "
            "writes and replayRound accepts"
        )
    return value


def list_of_strings(value: object, name: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise Unreadable(f"{name} is not a list of strings")
    return value


def verify(record: dict) -> tuple[bool, str]:
    """(True, why) when verified, (False, what differs) when not; Unreadable when it cannot say."""
    if not isinstance(record, dict):
        raise Unreadable("the record is not a JSON object")
    fair = record.get("fair")
    if not isinstance(fair, dict):
        raise Unreadable("the record's fair block is not an object")
    unknown = sorted(set(fair) - {"commitment", "seeds", "server_seed"})
    if unknown:
        raise Unreadable(f"the record's fair block holds {', '.join(unknown)}, which no record of the service has")
    server_seed_hex = lowercase_hex_64(fair, "server_seed")
    commitment = lowercase_hex_64(fair, "commitment")
    seeds = list_of_strings(fair.get("seeds"), "fair.seeds")
    players = record.get("players")
    if not isinstance(players, int) or isinstance(players, bool):
        raise Unreadable("the record has no players (a whole number of seats)")
    deck = list_of_strings(record.get("deck"), "the record's deck")
    server_seed = bytes.fromhex(server_seed_hex)
    if hashlib.sha256(server_seed).hexdigest() != commitment:
        return False, "SHA-256 of the server seed is not the commitment"
    if len(seeds) != players:
        return False, f"{len(seeds)} seeds for {players} seats"
    text = seed_text(server_seed, commitment, seeds)
    expected = seeded_deck(text)
    if deck != expected:
        if len(deck) != len(expected):
            return False, f"the record's deck has {len(deck)} cards, not {len(expected)}"
        first = next(i for i, (a, b) in enumerate(zip(deck, expected, strict=True)) if a != b)
        return False, f"seed text {text}: card {first} is {deck[first]!r}, the derivation gives {expected[first]}"
    return True, f"seed text {text}: the deck is the one the server seed and the seats' seeds give"


def no_key_twice(pairs: list[tuple[str, object]]) -> dict:
    record = dict(pairs)
    if len(record) != len(pairs):
        raise Unreadable("an object names a key twice")
    return record


def no_constant(name: str) -> object:
    raise Unreadable(f"{name} is not JSON")


def no_lone_surrogate(value: object) -> None:
    """Refuse what no JSON text in UTF-8 carries (json reads "\\ud800" as a lone surrogate)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise Unreadable("the record holds a lone surrogate (\\ud800 to \\udfff)") from None
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def read_record(argv: list[str]) -> object:
    try:
        if len(argv) > 1:
            with open(argv[1], "rb") as file:
                data = file.read()
        else:
            data = sys.stdin.buffer.read()
    except OSError as error:
        raise Unreadable(f"cannot read {argv[1] if len(argv) > 1 else 'standard input'}: {error.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise Unreadable("the input is not UTF-8") from None
    try:
        record = json.loads(text, object_pairs_hook=no_key_twice, parse_constant=no_constant)
    except json.JSONDecodeError as error:
        raise Unreadable(f"the input is not JSON: {error}") from None
    except RecursionError:
        raise Unreadable("the input is nested too deeply") from None
    no_lone_surrogate(record)
    return record


def main(argv: list[str]) -> int:
    if len(argv) > 1 and argv[1] in ("-h", "--help"):
        print(__doc__)
        return VERIFIED
    try:
        record = read_record(argv)
        if isinstance(record, dict) and "fair" not in record and isinstance(record.get("record"), dict):
            record = record["record"]  # the whole answer that ended the round: its record
        if isinstance(record, dict) and "fair" not in record:
            print("cannot check: no committed deal, the record has no fair block")
            return CANNOT_CHECK
        verified, why = verify(record)  # type: ignore[arg-type]
    except Unreadable as error:
        print(f"cannot check: {error}")
        return CANNOT_CHECK
    print(("verified: " if verified else "mismatch: ") + why)
    return VERIFIED if verified else MISMATCH


if __name__ == "__main__":
    sys.exit(main(sys.argv))
