"""Committed deals (docs/rules.md §10.26; docs/fair-deals.md): the derivation, its published test
vectors, the standalone verifier a referee runs, and the check of a record's ``fair`` block."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
import rfc8785
from hypothesis import given
from hypothesis import strategies as st

from service.rules import Card, check_fair_deal, commitment_of, fair_deck, fair_seed_text
from service.rules.fair import canonical_seeds

from ..support import examples

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "fair-deals.md").read_text(encoding="utf-8")
VECTORS = json.loads(re.search(r"<!-- fair-vectors:begin -->\n```json\n(.*?)```", PAGE, re.DOTALL)[1])  # type: ignore[index]


def standalone() -> ModuleType:
    """tools/referee/verify_fair_deal.py, the referee's own verifier, loaded as the file it is."""
    spec = importlib.util.spec_from_file_location(
        "verify_fair_deal", ROOT / "tools" / "referee" / "verify_fair_deal.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: "-".join(v["seeds"][:1]))
def test_the_published_vectors_are_what_the_core_derives(vector: dict) -> None:
    server_seed = bytes.fromhex(vector["server_seed"])
    assert commitment_of(server_seed) == vector["commitment"]
    assert canonical_seeds(vector["commitment"], vector["seeds"]).decode() == vector["message"]
    assert fair_seed_text(server_seed, vector["commitment"], vector["seeds"]) == vector["seed_text"]
    assert [c.code for c in fair_deck(server_seed, vector["commitment"], vector["seeds"])] == vector["deck"]


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: "-".join(v["seeds"][:1]))
def test_the_standalone_verifier_derives_the_vectors_and_checks_a_record(vector: dict) -> None:
    verifier = standalone()
    assert (
        verifier.seed_text(bytes.fromhex(vector["server_seed"]), vector["commitment"], vector["seeds"])
        == vector["seed_text"]
    )
    assert verifier.seeded_deck(vector["seed_text"]) == vector["deck"]
    record = {
        "players": len(vector["seeds"]),
        "deck": vector["deck"],
        "fair": {k: vector[k] for k in ("commitment", "seeds", "server_seed")},
    }
    assert verifier.verify(record)[0] is True
    swapped = {**record, "deck": [vector["deck"][1], vector["deck"][0], *vector["deck"][2:]]}
    assert verifier.verify(swapped) == (False, verifier.verify(swapped)[1]) and "card 0" in verifier.verify(swapped)[1]
    wrong_seed = {**record, "fair": {**record["fair"], "server_seed": "00" * 32}}
    assert verifier.verify(wrong_seed)[0] is False


def test_the_standalone_verifier_imports_nothing_but_the_standard_library() -> None:
    source = (ROOT / "tools" / "referee" / "verify_fair_deal.py").read_text(encoding="utf-8")
    imported = set(re.findall(r"^(?:from|import) ([a-z_]+)", source, re.MULTILINE))
    assert imported <= {"__future__", "hashlib", "hmac", "json", "sys"}, imported


def run_verifier(tmp_path: Path, body: str | bytes) -> tuple[int, str, str]:
    """The verifier run as a referee runs it, on a file holding body: (exit code, stdout, stderr)."""
    path = tmp_path / "record.json"
    path.write_bytes(body.encode("utf-8") if isinstance(body, str) else body)
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "referee" / "verify_fair_deal.py"), str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


def vector_record_json(**changes: object) -> dict:
    vector = VECTORS[0]
    fair = {k: vector[k] for k in ("commitment", "seeds", "server_seed")}
    record: dict = {"players": len(vector["seeds"]), "deck": vector["deck"], "fair": fair}
    for key, value in changes.items():
        where = fair if key in fair else record
        if value is None:
            del where[key]
        else:
            where[key] = value
    return record


def test_the_standalone_verifier_exits_0_when_verified_and_1_on_a_mismatch(tmp_path: Path) -> None:
    code, out, err = run_verifier(tmp_path, json.dumps(vector_record_json()))
    assert (code, err) == (0, "") and out.startswith("verified: ")
    swapped = VECTORS[0]["deck"][1::-1] + VECTORS[0]["deck"][2:]
    code, out, err = run_verifier(tmp_path, json.dumps(vector_record_json(deck=swapped)))
    assert (code, err) == (1, "") and out.startswith("mismatch: ") and "card 0" in out
    ending_answer = {"record": vector_record_json(), "record_receipt": "x..y", "round_id": "r", "seq": 36}
    code, out, err = run_verifier(tmp_path, json.dumps(ending_answer))  # the answer that ended it, pasted whole
    assert (code, err) == (0, "") and out.startswith("verified: ")


@pytest.mark.parametrize(
    "name",
    ["uppercase server seed", "space-padded server seed", "uppercase commitment"],
)
def test_the_standalone_verifier_takes_only_lowercase_hex_as_the_service_does(tmp_path: Path, name: str) -> None:
    vector = VECTORS[0]
    changes = {
        "uppercase server seed": {"server_seed": vector["server_seed"].upper()},
        "space-padded server seed": {"server_seed": f" {vector['server_seed']} "},
        "uppercase commitment": {"commitment": vector["commitment"].upper()},
    }[name]
    code, out, err = run_verifier(tmp_path, json.dumps(vector_record_json(**changes)))
    field = next(iter(changes))
    assert (code, err) == (2, ""), (out, err)
    assert out.startswith("cannot check: ") and f"fair.{field} is not 64 lowercase hex digits" in out
    assert out.count("\n") == 1


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (json.dumps(vector_record_json(server_seed="zz" * 32)), "fair.server_seed is not 64 lowercase hex"),
        (json.dumps(vector_record_json(players=None)), "no players"),
        (json.dumps(vector_record_json(players="2")), "no players"),
        (json.dumps(vector_record_json(seeds=["alice", "\ud800"]), ensure_ascii=True), "lone surrogate"),
        (json.dumps(vector_record_json(seeds="alice")), "fair.seeds is not a list of strings"),
        (json.dumps(vector_record_json(deck=None)), "deck is not a list of strings"),
        (json.dumps(vector_record_json(server_seed=None)), "fair.server_seed is not 64"),
        (json.dumps({**vector_record_json(), "fair": []}), "fair block is not an object"),
        (json.dumps([1, 2]), "not a JSON object"),
        ('{"players": 2, "players": 3}', "names a key twice"),
        ('{"players": NaN}', "NaN is not JSON"),
        ("{not json", "not JSON"),
        (b"\xff\xfe", "not UTF-8"),
        ("[" * 100_000, "nested too deeply"),
        (json.dumps({"players": 2, "deck": []}), "no committed deal"),
        (json.dumps({"record": {"players": 2, "deck": []}, "record_receipt": "x..y"}), "no committed deal"),
        (
            json.dumps({**vector_record_json(), "fair": {**vector_record_json()["fair"], "note": "x"}}),
            "fair block holds note, which no record",
        ),
    ],
    ids=lambda value: value if isinstance(value, str) and len(value) < 40 else None,
)
def test_the_standalone_verifier_says_in_one_line_why_it_cannot_check_and_exits_2(
    tmp_path: Path, body: str | bytes, reason: str
) -> None:
    code, out, err = run_verifier(tmp_path, body)
    assert (code, err) == (2, ""), (out, err)
    assert out.startswith("cannot check: ") and reason in out and out.count("\n") == 1, out


def test_the_standalone_verifier_cannot_check_a_file_it_cannot_read(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "referee" / "verify_fair_deal.py"), str(tmp_path / "absent.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (2, "") and done.stdout.startswith("cannot check: cannot read ")


def test_the_standalone_verifiers_exit_codes_are_documented() -> None:
    source = (ROOT / "tools" / "referee" / "verify_fair_deal.py").read_text(encoding="utf-8")
    for line in ("0  verified", "1  mismatch", "2  cannot check"):
        assert line in source
        assert line in PAGE


@given(st.lists(st.text(max_size=12), min_size=2, max_size=4))
@examples(100)
def test_the_seeds_message_is_rfc_8785_canonical_json(seeds: list[str]) -> None:
    commitment = "ab" * 32
    try:
        expected = rfc8785.dumps({"commitment": commitment, "seeds": seeds})
    except rfc8785.CanonicalizationError:  # a lone surrogate: no JSON request carries one
        return
    assert canonical_seeds(commitment, seeds) == expected


def vector_record(vector: dict) -> tuple[int, str, list[str], str, tuple[Card, ...]]:
    deck = tuple(Card.parse(c) for c in vector["deck"])
    return len(vector["seeds"]), vector["commitment"], vector["seeds"], vector["server_seed"], deck


def test_a_records_fair_block_checks_only_when_everything_agrees() -> None:
    players, commitment, seeds, server_seed, deck = vector_record(VECTORS[0])
    assert check_fair_deal(players, commitment, seeds, server_seed, deck).verified
    cases = {
        "another server seed": (players, commitment, seeds, "ff" * 32, deck, "not the commitment"),
        "uppercase hex": (players, commitment, seeds, server_seed.upper(), deck, "lowercase hex"),
        "a short seed": (players, commitment, seeds, server_seed[:62], deck, "32 bytes"),
        "not hex": (players, commitment, seeds, "zz" * 32, deck, "not hexadecimal"),
        "other seeds": (players, commitment, ["alice", "carol"], server_seed, deck, "card "),
        "more seats": (3, commitment, seeds, server_seed, deck, "one per seat"),
        "a deck cut differently": (players, commitment, seeds, server_seed, deck[1:] + deck[:1], "card 0"),
    }
    for name, (n, c, s, seed, d, reason) in cases.items():
        check = check_fair_deal(n, c, s, seed, d)
        assert not check.verified and reason in (check.reason or ""), name
        assert check.to_json() == {"fair_deal": "mismatch", "fair_deal_reason": check.reason}


def test_a_commitment_is_sha256_of_the_server_seed_in_lowercase_hex() -> None:
    seed = bytes(range(32))
    assert commitment_of(seed) == hashlib.sha256(seed).hexdigest() == VECTORS[0]["commitment"]
