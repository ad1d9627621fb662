"""Sealed round states (service/api/sealing.py): AES-256-GCM tokens with a key id and an issue time,
each under a key and nonce of its own, derived from the configured key and the token's salt.

The token layout is rebuilt here from the module's documentation (version, key id, issued at, salt,
ciphertext and tag), and the derivation from RFC 5869, so that every region of a token can be altered
on purpose and a token of the format before it can still be made.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import struct

import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from service.api.sealing import Sealer, TokenError, new_key, parse_keys
from service.ops.settings import NO_KEYS_WARNING, SettingError, read, with_state_keys

from ..support import b64url_decode, b64url_encode, state_json

NOW = 1_780_000_000.0  # a fixed clock: every test passes ``now``
LIFETIME = 3600
KEY_A = bytes(range(32))
KEY_B = bytes(range(100, 132))
# Sealing never checks the rules: a short stock will do.
STATE = state_json(
    hands=[["4D", "5D", "6D"], ["AD", "2D", "3D"]], table=["7D", "JD", "QD", "KD"], stock=["AH", "2H", "3H"]
)

# version (1) | key id (8) | issued at (8) | salt (24) | ciphertext | tag (16)
REGIONS = {
    "version": range(0, 1),
    "key id": range(1, 9),
    "issued at": range(9, 17),
    "salt": range(17, 41),
}
HEADER_BYTES, SALT_END, TAG_BYTES = 17, 41, 16


def sealer(*keys: bytes, lifetime: int = LIFETIME) -> Sealer:
    return Sealer(keys or (KEY_A,), lifetime)


def kid(key: bytes) -> bytes:
    return hashlib.sha256(key).digest()[:8]


def flip(token: str, index: int) -> str:
    raw = bytearray(b64url_decode(token))
    raw[index] ^= 0x01
    return b64url_encode(bytes(raw))


def rejected(token: object, code: str, reason: str, *, by: Sealer | None = None, now: float = NOW) -> TokenError:
    with pytest.raises(TokenError) as caught:
        (by or sealer()).open(token, now=now)
    error = caught.value
    assert (error.code, error.reason) == (code, reason), (error.code, error.reason, error.detail)
    assert error.detail and str(error) == error.detail
    return error


def hkdf_expand(prk: bytes, info: bytes, length: int) -> bytes:
    """RFC 5869 §2.3, written out from the RFC."""
    okm, block, counter = b"", b"", 1
    while len(okm) < length:
        block = hmac.new(prk, block + info + bytes([counter]), hashlib.sha256).digest()
        okm, counter = okm + block, counter + 1
    return okm[:length]


def derived(key: bytes, salt: bytes) -> tuple[bytes, bytes]:
    okm = hkdf_expand(key, b"chkobba state token v2" + salt, 44)
    return okm[:32], okm[32:]


def authentic(payload: bytes, *, key: bytes = KEY_A, issued: int = int(NOW), version: int = 2) -> str:
    """A token sealed with ``key`` around any payload, as only the holder of the key could make it."""
    salt = bytes(range(24))
    header = struct.pack(">B8sQ", version, kid(key), issued) + salt
    token_key, nonce = derived(key, salt)
    return b64url_encode(header + AESGCM(token_key).encrypt(nonce, payload, header))


def legacy(payload: bytes, *, key: bytes = KEY_A, issued: int = int(NOW)) -> str:
    """A token of format 1, as the version before this one sealed every state: a random 96-bit nonce
    under the configured key itself, the 17-byte header as associated data."""
    header = struct.pack(">B8sQ", 1, kid(key), issued)
    nonce = bytes(range(12))
    return b64url_encode(header + nonce + AESGCM(key).encrypt(nonce, payload, header))


# ---- the round trip and the format ---------------------------------------------------------------


def test_round_trip():
    token = sealer().seal(STATE, now=NOW)
    assert sealer().open(token, now=NOW) == STATE


def test_token_is_base64url_without_padding():
    token = sealer().seal(STATE, now=NOW)
    assert token and set(token) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def test_token_layout_is_version_key_id_issue_time_salt_then_aes_gcm_under_the_tokens_own_key():
    token = sealer(KEY_A).seal(STATE, now=NOW + 0.9)
    raw = b64url_decode(token)
    version, key_id, issued = struct.unpack(">B8sQ", raw[:HEADER_BYTES])
    assert (version, key_id, issued) == (2, kid(KEY_A), int(NOW))
    salt, sealed = raw[HEADER_BYTES:SALT_END], raw[SALT_END:]
    token_key, nonce = derived(KEY_A, salt)
    plain = AESGCM(token_key).decrypt(nonce, sealed, raw[:SALT_END])  # the header and salt are associated data
    assert json.loads(plain) == STATE


def test_no_token_is_sealed_under_the_configured_key_itself():
    raw = b64url_decode(sealer(KEY_A).seal(STATE, now=NOW))
    for nonce in (raw[HEADER_BYTES : HEADER_BYTES + 12], derived(KEY_A, raw[HEADER_BYTES:SALT_END])[1]):
        with pytest.raises(InvalidTag):
            AESGCM(KEY_A).decrypt(nonce, raw[SALT_END:], raw[:SALT_END])


def test_a_token_of_the_previous_format_opens_until_it_expires():
    """A rolling upgrade breaks no round: tokens sealed by the version before still open."""
    token = legacy(json.dumps(STATE).encode(), issued=int(NOW) - LIFETIME + 5)
    assert sealer().open(token, now=NOW) == STATE
    rejected(token, "expired-state", "expired", now=NOW + 10)
    rejected(flip(token, 20), "tampered-state", "altered")  # its nonce, authenticated as before
    rejected(legacy(json.dumps(STATE).encode(), key=KEY_B), "tampered-state", "unknown-key")


def test_the_token_shows_no_card_and_no_field_name_in_clear():
    raw = b64url_decode(sealer().seal(STATE, now=NOW))
    # As JSON strings, quotes included: a bare two-character code turns up in a kilobyte of random
    # ciphertext a few times in a hundred runs; four bytes, once in millions.
    for text in ('"4D"', '"AD"', '"7D"', '"stock"', '"hands"', '"chkobba"'):
        assert text.encode() not in raw
    with pytest.raises(ValueError):
        json.loads(raw[SALT_END:])  # encrypted, not merely encoded


def test_every_seal_takes_a_fresh_salt_and_so_a_key_of_its_own():
    tokens = {sealer().seal(STATE, now=NOW) for _ in range(20)}
    assert len(tokens) == 20
    salts = {b64url_decode(t)[HEADER_BYTES:SALT_END] for t in tokens}
    assert len(salts) == 20 and len({derived(KEY_A, salt) for salt in salts}) == 20


# ---- tampering, region by region -------------------------------------------------------------------


def test_a_flipped_version_byte_is_malformed():
    rejected(flip(sealer().seal(STATE, now=NOW), 0), "tampered-state", "malformed")


@pytest.mark.parametrize("version", [0, 3, 255])
def test_another_version_is_refused_even_if_authentic(version):
    rejected(authentic(json.dumps(STATE).encode(), version=version), "tampered-state", "malformed")


@pytest.mark.parametrize("index", REGIONS["key id"])
def test_a_flipped_key_id_names_no_key_held(index):
    rejected(flip(sealer().seal(STATE, now=NOW), index), "tampered-state", "unknown-key")


@pytest.mark.parametrize("region", ["issued at", "salt"])
def test_a_flipped_issue_time_or_salt_is_altered(region):
    token = sealer().seal(STATE, now=NOW)
    for index in REGIONS[region]:
        rejected(flip(token, index), "tampered-state", "altered")


def test_every_flipped_byte_of_the_ciphertext_and_the_tag_is_altered():
    token = sealer().seal(STATE, now=NOW)
    size = len(b64url_decode(token))
    assert size > SALT_END + TAG_BYTES
    for index in range(SALT_END, size):  # ciphertext, then the 16-byte tag
        rejected(flip(token, index), "tampered-state", "altered")


def test_every_single_bit_of_the_tag_counts():
    token = sealer().seal(STATE, now=NOW)
    raw = b64url_decode(token)
    for index in range(len(raw) - TAG_BYTES, len(raw)):
        for bit in range(8):
            altered = bytearray(raw)
            altered[index] ^= 1 << bit
            rejected(b64url_encode(bytes(altered)), "tampered-state", "altered")


def test_refreshing_the_issue_time_does_not_revive_an_expired_token():
    old = sealer().seal(STATE, now=NOW - LIFETIME - 100)
    raw = bytearray(b64url_decode(old))
    raw[9:17] = struct.pack(">Q", int(NOW))
    rejected(b64url_encode(bytes(raw)), "tampered-state", "altered")


def test_swapping_the_key_id_for_another_held_key_is_altered():
    token = sealer(KEY_A).seal(STATE, now=NOW)
    raw = bytearray(b64url_decode(token))
    raw[1:9] = kid(KEY_B)
    rejected(b64url_encode(bytes(raw)), "tampered-state", "altered", by=sealer(KEY_A, KEY_B))


def test_every_truncation_is_tampered():
    token = sealer().seal(STATE, now=NOW)
    for length in range(len(token)):
        with pytest.raises(TokenError) as caught:
            sealer().open(token[:length], now=NOW)
        assert caught.value.code == "tampered-state"
        assert caught.value.reason in ("malformed", "altered"), (length, caught.value.reason)


def non_canonical(token: str) -> dict[str, str]:
    """Other spellings of ``token`` that a lenient base64 decoder reads as the same bytes."""
    middle = len(token) // 2
    spellings = {
        "a character inserted": token[:middle] + "!" + token[middle:],
        "a space inserted": token[:middle] + " " + token[middle:],
        "a leading dot": "." + token,
        "a trailing newline": token + "\n",
        "padding added": token + "=" * (-len(token) % 4 or 4),
        "the standard alphabet": token.replace("-", "+").replace("_", "/"),
    }
    if len(token) % 4:  # the last character carries unused low bits
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        last = alphabet.index(token[-1])
        spellings["unused bits set"] = token[:-1] + alphabet[last | (0b1111 if len(token) % 4 == 2 else 0b11)]
    return {name: text for name, text in spellings.items() if text != token}


def test_only_the_token_as_issued_opens():
    """A token altered as a string is refused even where a lenient base64 decoder reads the same bytes.
    Otherwise one sealed state has many spellings, and a game server that refuses the tokens it has
    already seen (docs/operations.md, "Sealed rounds") could be handed an old one respelled."""
    sealed, rng = sealer(), random.Random(4)
    by_remainder: dict[int, str] = {}
    for size in range(24):  # tokens of every length modulo 4 that base64 produces (0, 2 and 3)
        token = sealed.seal({"pad": rng.randbytes(size).hex()}, now=NOW)
        by_remainder.setdefault(len(token) % 4, token)
    assert set(by_remainder) == {0, 2, 3}
    accepted = [
        (remainder, name)
        for remainder, token in sorted(by_remainder.items())
        for name, text in non_canonical(token).items()
        if _opens(sealed, text)
    ]
    assert accepted == [], f"respelled tokens that still open: {accepted}"


def _opens(sealed: Sealer, token: str) -> bool:
    try:
        sealed.open(token, now=NOW)
    except TokenError as error:
        assert error.code == "tampered-state"
        return False
    return True


def test_appended_bytes_are_altered():
    token = sealer().seal(STATE, now=NOW)
    rejected(b64url_encode(b64url_decode(token) + b"\0\0\0"), "tampered-state", "altered")


def test_random_tokens_of_the_right_length_are_refused():
    token = sealer().seal(STATE, now=NOW)
    size = len(b64url_decode(token))
    rng = random.Random(2026)
    for _ in range(200):
        with pytest.raises(TokenError) as caught:
            sealer().open(b64url_encode(rng.randbytes(size)), now=NOW)
        assert caught.value.code == "tampered-state"


def test_forged_with_a_real_header_is_altered():
    token = sealer().seal(STATE, now=NOW)
    raw = b64url_decode(token)
    forged = raw[:HEADER_BYTES] + random.Random(7).randbytes(len(raw) - HEADER_BYTES)
    rejected(b64url_encode(forged), "tampered-state", "altered")


@pytest.mark.parametrize(
    "token",
    [None, 17, b"abc", ["x"], {"t": 1}, "", "!!!!", "a b c", "A", "A" * 8193, "AAAA", "é" * 40],
    ids=repr,
)
def test_not_a_token_is_malformed(token):
    rejected(token, "tampered-state", "malformed")


# ---- keys -----------------------------------------------------------------------------------------


def test_a_token_sealed_with_a_key_not_held_is_unknown_key():
    token = sealer(KEY_B).seal(STATE, now=NOW)
    rejected(token, "tampered-state", "unknown-key", by=sealer(KEY_A))


def test_rotation_the_first_key_seals_all_open():
    old = sealer(KEY_A).seal(STATE, now=NOW)
    rotated = sealer(KEY_B, KEY_A)
    assert rotated.open(old, now=NOW) == STATE
    new = rotated.seal(STATE, now=NOW)
    assert b64url_decode(new)[1:9] == kid(KEY_B)
    assert rotated.open(new, now=NOW) == STATE
    rejected(new, "tampered-state", "unknown-key", by=sealer(KEY_A))


def test_new_key_is_32_random_bytes_in_base64url():
    keys = {new_key() for _ in range(10)}
    assert len(keys) == 10
    for text in keys:
        assert "=" not in text and "+" not in text and "/" not in text
        assert parse_keys(text) == [b64url_decode(text)]
        assert len(b64url_decode(text)) == 32


def test_parse_keys_takes_a_comma_separated_list_and_skips_blanks():
    a, b = b64url_encode(KEY_A), b64url_encode(KEY_B)
    assert parse_keys(f"{b}, {a} ,") == [KEY_B, KEY_A]
    assert parse_keys(f"{b}=,{a}") == [KEY_B, KEY_A]  # padding is optional
    assert parse_keys("") == [] and parse_keys(" , ") == []


@pytest.mark.parametrize(
    "text",
    [b64url_encode(bytes(16)), b64url_encode(bytes(33)), "not!base64", b64url_encode(KEY_A) + ",short", "A"],
    ids=["16-bytes", "33-bytes", "not-base64", "second-short", "one-char"],
)
def test_parse_keys_refuses_a_key_that_is_not_32_bytes_of_base64url(text):
    with pytest.raises(ValueError, match="CHKOBBA_STATE_KEYS entry"):
        parse_keys(text)


def test_the_error_names_the_entry_not_the_key():
    secret = b64url_encode(bytes(31))
    with pytest.raises(ValueError) as caught:
        parse_keys(f"{b64url_encode(KEY_A)},{secret}")
    assert "entry 1" in str(caught.value) and secret not in str(caught.value)


def test_from_settings_takes_their_keys_and_lifetime():
    settings = read(
        {"CHKOBBA_STATE_KEYS": f"{b64url_encode(KEY_B)},{b64url_encode(KEY_A)}", "CHKOBBA_STATE_TOKEN_LIFETIME": "60"}
    )
    built = Sealer.from_settings(settings)
    assert built.keys == (KEY_B, KEY_A) and built.lifetime_seconds == 60


def test_the_sealer_reads_no_environment(monkeypatch):
    """The settings are its one source: no fallback to CHKOBBA_STATE_KEYS behind their back."""
    monkeypatch.setenv("CHKOBBA_STATE_KEYS", b64url_encode(KEY_A))
    built = Sealer.from_settings(read({"CHKOBBA_STATE_KEYS": b64url_encode(KEY_B)}))
    assert built.keys == (KEY_B,)
    with pytest.raises(ValueError, match="needs a key"):
        Sealer.from_settings(read({}))


def test_without_keys_the_settings_get_one_made_at_start_and_warn():
    warned: list[str] = []
    first, second = (with_state_keys(read({}), warned.append) for _ in range(2))
    assert first.key_made_at_start and len(first.state_keys) == 1 and len(first.state_keys[0]) == 32
    assert first.state_keys != second.state_keys
    assert warned == [NO_KEYS_WARNING] * 2
    sealer_ = Sealer.from_settings(first)
    assert sealer_.open(sealer_.seal(STATE)) == STATE


def test_a_bad_key_is_refused_with_the_settings():
    with pytest.raises(SettingError, match="CHKOBBA_STATE_KEYS entry 0"):
        read({"CHKOBBA_STATE_KEYS": "not-a-key"})


# ---- lifetime and clock ---------------------------------------------------------------------------


def test_a_token_opens_until_its_lifetime_is_over():
    token = sealer().seal(STATE, now=NOW)
    assert sealer().open(token, now=NOW + LIFETIME) == STATE
    error = rejected(token, "expired-state", "expired", now=NOW + LIFETIME + 1)
    assert "expired" in error.detail


def test_an_expired_token_is_expired_state_long_after():
    token = sealer().seal(STATE, now=NOW - 10 * LIFETIME)
    rejected(token, "expired-state", "expired")


def test_the_lifetime_is_the_sealers():
    token = sealer(lifetime=86400).seal(STATE, now=NOW - 3 * LIFETIME)
    assert sealer(lifetime=86400).open(token, now=NOW) == STATE
    rejected(token, "expired-state", "expired", by=sealer(lifetime=LIFETIME))


def test_a_little_clock_skew_is_allowed():
    token = sealer().seal(STATE, now=NOW + 30)
    assert sealer().open(token, now=NOW) == STATE


def test_a_token_issued_in_the_future_is_tampered():
    token = sealer().seal(STATE, now=NOW + 3600)
    rejected(token, "tampered-state", "from-the-future")


def test_an_altered_expired_token_is_tampered_not_expired():
    """Authenticity is checked first: a forger learns nothing from the answer about the clock."""
    token = sealer().seal(STATE, now=NOW - 10 * LIFETIME)
    rejected(flip(token, 40), "tampered-state", "altered")


# ---- authentic but unreadable (only a bug of ours could make these) -------------------------------


@pytest.mark.parametrize(
    "payload",
    [
        b"not json",
        b"[1, 2, 3]",
        b'"a string"',
        b"{" * 200,
    ],
    ids=["not-json", "a-list", "a-string", "unbalanced"],
)
def test_an_authentic_token_without_a_state_object_is_unreadable(payload):
    rejected(authentic(payload), "tampered-state", "unreadable")


def test_an_authentic_token_opens_to_any_object_the_rules_then_judge():
    """The sealer only vouches that the service sealed the object; the rules core still validates it."""
    assert sealer().open(authentic(b'{"x": 1}'), now=NOW) == {"x": 1}


def test_a_state_orjson_cannot_write_still_seals_and_opens():
    """Tokens are written with orjson, which hands what it cannot take (a whole number beyond 64
    bits, which a rules option may hold) to the standard library: such a state opens as sealed."""
    state = {**STATE, "rules": {"profile": "chkobba", "options": {"target": 2**70 + 1}}}
    opened = sealer().open(sealer().seal(state, now=NOW), now=NOW)
    assert opened == state and type(opened["rules"]["options"]["target"]) is int


def test_the_first_key_seals_and_a_rotated_one_still_opens():
    one = sealer(KEY_A, KEY_B)
    assert one.key_id == kid(KEY_A).hex()
    token = one.seal(STATE, now=NOW)
    assert sealer(KEY_B, KEY_A).open(token, now=NOW) == STATE  # rotated: the second key still opens


def test_the_states_the_service_seals_read_as_the_standard_library_reads_them():
    """Tokens are read with orjson when the rules are a profile id (sealing.py, _read): every state
    of played rounds, and the object form of the rules (read by the standard library), open to what
    json.loads reads from the same payload."""
    from service.api.encoding import to_json
    from service.rules import Phase, PlayMove, advance, deal_round, legal_moves

    rng = random.Random(7)
    states = []
    for rules in ("chkobba", "scopa", {"profile": "chkobba-crp", "options": {"target": 1000}}):
        state, _ = deal_round(rules, 2, 0, seed=str(rules), cut="keep" if rules == "chkobba" else None)
        while state.phase is Phase.PLAY:
            states.append(state.to_json())
            caps = rng.choice(legal_moves(state))
            state, _ = advance(state, PlayMove(caps.card, rng.choice(caps.options) if caps.options else ()))
        states.append(state.to_json())
    for state in states:
        payload = to_json(state)
        opened = sealer().open(authentic(payload), now=NOW)
        assert opened == json.loads(payload) == state
        assert json.dumps(opened) == json.dumps(state)  # the same types too: no int read as a float


@pytest.mark.parametrize("payload", [b'{"rules": "chkobba", "x": NaN}', b'{"rules": "chkobba", "x": "\\ud800"}'])
def test_what_orjson_refuses_is_read_by_the_standard_library(payload):
    assert sealer().open(authentic(payload), now=NOW).keys() == json.loads(payload).keys()


def test_the_tokens_key_is_hkdf_expand_as_the_cryptography_package_computes_it():
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand

    from service.api.sealing import token_key

    salt = bytes(range(50, 74))
    okm = HKDFExpand(hashes.SHA256(), 44, b"chkobba state token v2" + salt).derive(KEY_B)
    assert token_key(KEY_B, salt) == (okm[:32], okm[32:]) == derived(KEY_B, salt)


def test_every_seal_is_counted_under_its_keys_id_and_its_kind():
    from prometheus_client import REGISTRY

    from service.api.sealing import COMMIT

    def sealed(key: bytes, kind: str = "state") -> float:
        found = REGISTRY.get_sample_value("chkobba_state_tokens_sealed_total", {"key_id": kid(key).hex(), "kind": kind})
        return found or 0.0

    before = sealed(KEY_A), sealed(KEY_B), sealed(KEY_B, "commit")
    for _ in range(3):
        sealer(KEY_A, KEY_B).seal(STATE, now=NOW)
    sealer(KEY_B).seal(STATE, now=NOW)
    sealer(KEY_B).seal({"server_seed": "00"}, now=NOW, kind=COMMIT)
    sealer(KEY_B).seal({"server_seed": "01"}, now=NOW, kind=COMMIT)
    after = sealed(KEY_A), sealed(KEY_B), sealed(KEY_B, "commit")
    assert tuple(a - b for a, b in zip(after, before, strict=True)) == (3, 1, 2)
