"""The receipt keys as settings (CHKOBBA_RECEIPT_KEYS) and the signer made from them
(service/api/receipts.py); the receipts themselves are tests/api/test_receipts.py's."""

from __future__ import annotations

import pytest

from service.api.receipts import Signer, payload
from service.app import create_app
from service.ops import settings
from service.ops.settings import NO_RECEIPT_KEYS_WARNING, SettingError, read, with_keys, with_receipt_keys

from ..support import b64url_encode

KEY_A, KEY_B = bytes(range(32)), bytes(range(1, 33))


def test_the_keys_are_read_comma_separated_the_first_signing() -> None:
    found = read({"CHKOBBA_RECEIPT_KEYS": f" {b64url_encode(KEY_B)}, {b64url_encode(KEY_A)}=,"})
    assert found.receipt_keys == (KEY_B, KEY_A) and not found.receipt_key_made_at_start
    signer = Signer.from_settings(found)
    assert [k["kid"] for k in signer.jwks["keys"]] == [Signer((KEY_B,)).kid, Signer((KEY_A,)).kid]
    assert signer.kid == Signer((KEY_B,)).kid


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("not-a-key", "CHKOBBA_RECEIPT_KEYS entry 0 is not base64url"),
        (f"{b64url_encode(KEY_A)},{b64url_encode(KEY_A[:16])}", "CHKOBBA_RECEIPT_KEYS entry 1 is 16 bytes, not 32"),
        (b64url_encode(KEY_A + b"!"), "CHKOBBA_RECEIPT_KEYS entry 0 is 33 bytes, not 32"),
    ],
)
def test_a_bad_key_stops_the_start_with_one_line_naming_the_entry_not_the_key(
    monkeypatch: pytest.MonkeyPatch, text: str, says: str
) -> None:
    with pytest.raises(SettingError) as raised:
        read({"CHKOBBA_RECEIPT_KEYS": text})
    assert str(raised.value) == says
    monkeypatch.setenv("CHKOBBA_RECEIPT_KEYS", text)
    with pytest.raises(SettingError, match=says):
        create_app({"TESTING": True})


def test_without_keys_one_is_made_at_start_with_a_warning() -> None:
    warned: list[str] = []
    first, second = (with_receipt_keys(read({}), warned.append) for _ in range(2))
    assert first.receipt_key_made_at_start and len(first.receipt_keys) == 1 and len(first.receipt_keys[0]) == 32
    assert first.receipt_keys != second.receipt_keys
    assert warned == [NO_RECEIPT_KEYS_WARNING] * 2
    given = read({"CHKOBBA_RECEIPT_KEYS": b64url_encode(KEY_A)})
    assert with_receipt_keys(given, warned.append) is given and len(warned) == 2


def test_a_server_starts_with_both_kinds_of_keys_each_made_when_missing() -> None:
    warned: list[str] = []
    keyed = with_keys(read({"CHKOBBA_STATE_KEYS": b64url_encode(KEY_B)}), warned.append)
    assert keyed.state_keys == (KEY_B,) and len(keyed.receipt_keys) == 1
    assert warned == [NO_RECEIPT_KEYS_WARNING]
    assert settings.encoded_receipt_keys(keyed) == b64url_encode(keyed.receipt_keys[0])


def test_the_app_signs_with_the_keys_a_gunicorn_master_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker forked from the master signs with the master's key, made at start or not."""
    monkeypatch.setattr(settings, "_installed", None)
    settings.install(with_keys(read({}), lambda _: None))
    app = create_app({"TESTING": True, "ACCESS_LOG": ""})
    assert app.extensions["chkobba.signer"].seeds == settings.current().receipt_keys


def test_the_apps_config_may_name_the_keys() -> None:
    app = create_app({"TESTING": True, "ACCESS_LOG": "", "RECEIPT_KEYS": b64url_encode(KEY_A)})
    assert app.extensions["chkobba.signer"] == Signer((KEY_A,))
    assert not app.extensions["chkobba.settings"].receipt_key_made_at_start


def test_a_signer_needs_a_key_and_shows_none() -> None:
    with pytest.raises(ValueError, match="needs a key"):
        Signer(())
    assert b64url_encode(KEY_A) not in repr(Signer((KEY_A,))) and repr(KEY_A) not in repr(Signer((KEY_A,)))


def test_the_payload_leaves_the_receipt_out_of_the_answer() -> None:
    assert payload("decideMatch", {"receipt": True}, {"a": 1, "receipt": "x"}) == (
        b'{"answer":{"a":1},"operation":"decideMatch","request":{"receipt":true}}'
    )
