"""Every setting of the service, declared once: its environment variable, default, meaning (the
README's settings table is made from these declarations, and a test keeps it so) and how it is read.

The environment is read in one place, ``read``, into an immutable ``Settings``; a wrong value raises
a ``SettingError`` of one line that names the setting, and the start stops there:

- under gunicorn, ``gunicorn.conf.py`` reads the settings in the master before any worker exists,
  stops with that one line (no traceback, no worker booted), and ``install``\\ s them; each worker is
  forked from the master, so its ``create_app()`` uses that very object (``current``): the
  environment is read once for the whole server, and a state key or a receipt key made at start is
  every worker's;
- without gunicorn, ``create_app()`` reads them (or is given a ``Settings``), and raises the error.

This module imports only the standard library: gunicorn.conf.py imports it before anything else.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import secrets
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any


class SettingError(ValueError):
    """A value the service will not start with; its text is one line that names the setting."""


KEY_BYTES = 32  # AES-256: each of CHKOBBA_STATE_KEYS; an Ed25519 seed: each of CHKOBBA_RECEIPT_KEYS
LOG_LEVELS = ("debug", "info", "warning", "error", "critical")  # gunicorn's, which takes any other as info
ANY_ORIGIN = "*"
DEFAULT_STATE_TOKEN_LIFETIME = 3600  # seconds: a round at 20 s a turn lasts about 12 minutes
# A token is worth its round's hidden cards for as long as it lives (docs/security.md): a day at most.
MAX_STATE_TOKEN_LIFETIME = 86400
DIGITS = re.compile(r"-?[0-9]+")  # a sign is read, to say "at least 1" of "-5"
# An origin as a browser sends it: scheme, host (a name, an IPv4 address or a bracketed IPv6 one), port.
ORIGIN = re.compile(
    r"(?P<scheme>https?)://(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::(?P<port>[0-9]{1,5}))?",
    re.IGNORECASE,  # browsers send both in lower case; flask-cors compares them without regard to case
)
DEFAULT_PORTS = {"http": 80, "https": 443}
BASE64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")  # the URL-safe alphabet only: no +, /, quotes or other bytes
# What gunicorn binds to: HOST:PORT (an IPv6 host in brackets), unix:PATH or fd://N.
BIND = re.compile(r"(?:(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):(?P<port>[0-9]{1,5})|unix:.+|fd://[0-9]+)")
# RFC 8037's example Ed25519 private key (Appendix A.1, RFC 8032's TEST 1): public, so anyone could
# sign with it. The contract's examples are signed with it (service/contract.py); a server is refused it.
RFC8037_EXAMPLE_SEED = base64.urlsafe_b64decode("nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A=")
# Every Ed25519 private key RFC 8032 publishes (section 7.1's TEST 2, TEST 3, TEST 1024 and TEST SHA(abc),
# 7.2's Ed25519ctx key), each beside its public key: copied from the RFC as keys, they are anyone's.
RFC8032_SEEDS = {
    "TM0Imyj_ltqdtsNG7BFOD1uKMZ81q6Yk2oz27U-4pvs": ("TEST 2", "PUAXw-hDiVqStwqnTRt-vJyYLM8uxJaMwM1V8Sr0Zgw"),
    "xaqN9D-fg3vtt0QvMdy3sWbThTUHbwlLhc46LgtEWPc": ("TEST 3", "_FHNjmIYoaONpH7QAjDwWAgW7RO6MwOsXeuRFUiQgCU"),
    "9eV2fPFTMZUXYw8iaHa4bIFgzFg7wBN0TGvyVfXMDuU": ("TEST 1024", "J4EX_BRMcjQPZ9DyMW6Dhs7_vyskKMnFH-98WX8dQm4"),
    "gz_mJAkje51i7HdYdSCRHpp1nOwdGXVbfakBuW3KPUI": ("TEST SHA(abc)", "7Bcrk61eVjv0kyxw4SRQNMNUZ-8u_U1k6_gZaDRn4r8"),
    "AwUzTjga948UHLZm9hmfV7w0lTNaJWqVvSpVv1RmY_Y": (
        "the Ed25519ctx test",
        "38lCXk-Wj38MKfAlnPX5rtaFHCu0rYv7hgz-4KskgpI",
    ),
}


def _bytes(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


PUBLISHED_SEEDS = {
    _bytes(seed): f"is RFC 8032's {name} key, which is public" for seed, (name, _) in RFC8032_SEEDS.items()
}
PUBLISHED_SEEDS[RFC8037_EXAMPLE_SEED] = "is RFC 8037's example key, which is public"
# Public keys whose private keys are public: RFC 8037's example key's (A.1), RFC 8032's, the all-zero seed's.
KNOWN_PUBLIC_KEYS = {
    _bytes("11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"): "is RFC 8037's example public key",
    _bytes("O2onvM62pC1io6jQKm8Nc2UyFXcd4kOmOsBIoYtZ2ik"): "is the all-zero seed's public key",
    **{_bytes(public): f"is RFC 8032's {name} public key" for name, public in RFC8032_SEEDS.values()},
}
EPHEMERAL_KEYS = "CHKOBBA_EPHEMERAL_KEYS"
# No setting: gunicorn.conf.py writes it beside the keys it made at start and exported (so that a reload,
# SIGHUP, which reads the settings again, keeps them), naming the kinds made, "state" and "receipt",
# each with its keys' fingerprint. Read back beside those same keys, they still count as made at start
# (chkobba_keys_made_at_start stays 1); beside other keys, it is stale and says nothing.
MADE_AT_START_MARKER = "_CHKOBBA_KEYS_MADE_AT_START"
NEW_KEY_COMMAND = "python -m service.ops.settings --new-key"
NO_KEYS_REFUSAL = (
    '{missing} not set: give the keys every replica shares (docs/security.md, "Settings an operator must '
    'give"), or CHKOBBA_EPHEMERAL_KEYS=1 for keys made at start, for this server alone'
)
NO_KEYS_WARNING = (
    "CHKOBBA_STATE_KEYS is not set: sealed states use a key generated at start, which will not survive a "
    "restart or span replicas"
)
SHARED_METRICS_WARNING = (
    "CHKOBBA_METRICS_ADDRESS is not set: /metrics is served on the service's own port, to whoever reaches it "
    "(set it, e.g. to 127.0.0.1:9090, to serve the metrics there alone)"
)
NO_RECEIPT_KEYS_WARNING = (
    "CHKOBBA_RECEIPT_KEYS is not set: receipts are signed with a key generated at start, which will not survive "
    "a restart or span replicas (receipts it signed then verify only with a copy of /.well-known/jwks.json kept "
    "from before)"
)


# ---- how values are read: each takes the setting's name and its text, and raises a SettingError -------


def whole(least: int, most: int | None = None) -> Callable[[str, str], int]:
    """A whole number of at least ``least``: a typo would otherwise end in a traceback, and a 0 in a
    server that listens but never answers."""

    def read(name: str, text: str) -> int:
        # ASCII digits alone: int() would also take "+5", "3_600" and other scripts' digits ("٣٦٠٠").
        if not DIGITS.fullmatch(text.strip()):
            raise SettingError(f"{name} must be a whole number, not {text!r}")
        value = int(text)
        if value < least:
            raise SettingError(f"{name} must be at least {least}, not {value}")
        if most is not None and value > most:
            raise SettingError(f"{name} must be at most {most}, not {value}")
        return value

    return read


def as_text(name: str, value: str) -> str:  # noqa: ARG001
    return value


def _port_fault(found: re.Match[str] | None) -> bool:
    """A port that cannot be listened on as said: above 65535, or 0 (the system would pick one, which
    no client or scraper would know)."""
    return found is not None and found["port"] is not None and not 0 < int(found["port"]) <= 65535


def bind_address(name: str, value: str) -> str:
    found = BIND.fullmatch(value)
    if found is None or _port_fault(found):
        raise SettingError(f"{name} must be HOST:PORT (or unix:PATH, fd://N), not {value!r}")
    return value


def log_level(name: str, value: str) -> str:
    level = value.strip().lower()
    if level not in LOG_LEVELS:
        raise SettingError(f"{name} must be one of {', '.join(LOG_LEVELS)}; not {value!r}")
    return level


def access_log(name: str, value: str) -> str:
    """``-`` (standard output), empty (none), or a file the service can append to."""
    if value in ("", "-"):
        return value
    directory = os.path.dirname(os.path.abspath(value))
    if os.path.isdir(value):
        raise SettingError(f"{name} must be -, empty or a file to append to; {value!r} is a directory")
    if not os.path.isdir(directory):
        raise SettingError(f"{name}: cannot write {value!r}, there is no directory {directory!r}")
    if not os.access(value if os.path.exists(value) else directory, os.W_OK):
        raise SettingError(f"{name}: cannot write {value!r}, permission denied")
    return value


def existing_directory(name: str, value: str) -> str:
    if not os.path.isdir(value):
        raise SettingError(f"{name} must be an existing directory, not {value!r}")
    return value


def parse_keys(value: str, name: str = "CHKOBBA_STATE_KEYS") -> list[bytes]:
    """The keys of ``CHKOBBA_STATE_KEYS`` (or of the setting ``name``: ``CHKOBBA_RECEIPT_KEYS``),
    comma-separated base64url, 32 bytes each (blanks skipped), strictly: the URL-safe alphabet alone,
    unpadded or correctly padded, canonical (one key, one spelling). An error names the entry, never the key."""
    keys = []
    for i, item in enumerate(part.strip() for part in value.split(",")):
        if not item:
            continue
        body = item.rstrip("=")
        padding = len(item) - len(body)
        if not BASE64URL.fullmatch(item) or len(body) % 4 == 1 or padding not in (0, -len(body) % 4):
            raise SettingError(f"{name} entry {i} is not base64url")  # A-Z a-z 0-9 - _, padded right or not
        key = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        if len(key) != KEY_BYTES:
            raise SettingError(f"{name} entry {i} is {len(key)} bytes, not {KEY_BYTES}")
        if _encoded((key,)) != item.rstrip("="):  # unused low bits set: another spelling of the same key
            raise SettingError(f"{name} entry {i} is not canonical base64url (its last character's unused bits)")
        keys.append(key)
    return keys


def new_key() -> str:
    """A fresh key in the form ``CHKOBBA_STATE_KEYS`` and ``CHKOBBA_RECEIPT_KEYS`` take: 32 random bytes
    (an Ed25519 private key is its 32-byte seed, any 32 bytes)."""
    return base64.urlsafe_b64encode(secrets.token_bytes(KEY_BYTES)).decode().rstrip("=")


def key_list(name: str, value: str) -> tuple[bytes, ...]:
    """A setting's keys; a list given but holding none (``" , , "``) is refused rather than read as
    unset, which would make a key up at start."""
    keys = tuple(parse_keys(value, name))
    if not keys:
        raise SettingError(f"{name} is set but holds no key: {value!r} (unset it, or give its keys)")
    return keys


# Ed25519 (RFC 8032, 5.1): the curve -x^2 + y^2 = 1 + d x^2 y^2 over GF(p), its prime-order subgroup's order L.
_P = 2**255 - 19
_D = -121665 * pow(121666, _P - 2, _P) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)
_L = 2**252 + 27742317777372353535851937790883648493
_Point = tuple[int, int, int, int]  # extended coordinates (X, Y, Z, T)


def _add(a: _Point, b: _Point) -> _Point:
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    e, f = (y1 - x1) * (y2 - x2) % _P, (y1 + x1) * (y2 + x2) % _P
    c, g = t1 * 2 * _D * t2 % _P, z1 * 2 * z2 % _P
    e, f, g, h = f - e, g - c, g + c, f + e
    return e * f % _P, g * h % _P, f * g % _P, e * h % _P


def _times(n: int, point: _Point) -> _Point:
    found: _Point = (0, 1, 1, 0)
    while n:
        if n & 1:
            found = _add(found, point)
        point, n = _add(point, point), n >> 1
    return found


def _is_identity(point: _Point) -> bool:
    return point[0] % _P == 0 and (point[1] - point[2]) % _P == 0


def public_key_fault(key: bytes) -> str | None:
    """Why ``key`` is no Ed25519 public key that a private key can stand behind, or None: an encoding
    that is not canonical (y >= p, or x = 0 with its sign bit set), no point of the curve, a point of
    small order (the 8 of the curve: any signature "verifies" under some of them) or with a small-order
    part (outside the subgroup of order L that every real public key a·B lies in), or a public key
    whose private key is public."""
    if key in KNOWN_PUBLIC_KEYS:
        return f"{KNOWN_PUBLIC_KEYS[key]}, whose private key anyone may know"
    number = int.from_bytes(key, "little")
    y, sign = number & (2**255 - 1), number >> 255
    if y >= _P:
        return "is not a canonical encoding (y is not below 2^255 - 19)"
    u, v = (y * y - 1) % _P, (_D * y * y + 1) % _P
    x = u * pow(v, 3, _P) * pow(u * pow(v, 7, _P), (_P - 5) // 8, _P) % _P
    if (v * x * x - u) % _P:
        x = x * _SQRT_M1 % _P
        if (v * x * x - u) % _P:
            return "is not a point of the curve"
    if x == 0 and sign:
        return "is not a canonical encoding (x = 0 with its sign bit set)"
    if x & 1 != sign:
        x = _P - x
    point = (x, y, 1, x * y % _P)
    if _is_identity(_times(8, point)):
        return "is a point of small order, under which signatures can be forged"
    if not _is_identity(_times(_L, point)):
        return "has a small-order component (it is not in the prime-order subgroup)"
    return None


def public_key_list(name: str, value: str) -> tuple[bytes, ...]:
    """Ed25519 public keys, comma-separated base64url of 32 bytes each (as a JWK's ``x``), each a point
    of the prime-order subgroup, canonically encoded, whose private key is not public
    (``public_key_fault``). An error names the entry, never the key. A retired key's public half that is
    also a signing key's is published once (``Signer`` lists each key once)."""
    keys = key_list(name, value)
    for i, key in enumerate(keys):
        fault = public_key_fault(key)
        if fault is not None:
            raise SettingError(f"{name} entry {i} {fault}: give a retired receipt key's public half (its JWK's x)")
    return keys


def flag(name: str, value: str) -> bool:
    if value.strip() not in ("0", "1"):
        raise SettingError(f"{name} must be 1 or 0, not {value!r}")
    return value.strip() == "1"


def host_and_port(name: str, value: str) -> str:
    """HOST:PORT, a TCP address of its own (the metrics'), never a socket path."""
    found = BIND.fullmatch(value)
    if found is None or found["port"] is None or _port_fault(found):
        raise SettingError(
            f"{name} must be HOST:PORT (an IPv6 host in brackets), its port from 1 to 65535, not {value!r}"
        )
    return value


def origins(name: str, value: str) -> tuple[str, ...]:
    """The origins allowed: none when empty, ``("*",)`` for any. Anything else than origins (a path,
    a missing scheme, ``*`` in a list) is refused: a typo would otherwise leave every page blocked,
    or every page allowed."""
    if not value.strip():
        return ()
    found = tuple(entry.strip() for entry in value.split(","))
    if ANY_ORIGIN in found:
        if found != (ANY_ORIGIN,):
            raise SettingError(f"{name}: * allows every origin, so it stands alone, not in a list: {value!r}")
        return found
    for origin in found:
        match = ORIGIN.fullmatch(origin)
        if match is None or int(match["port"] or 0) > 65535:
            raise SettingError(
                f"{name}: {origin!r} is not an origin; write http(s)://host[:port], with no path or "
                "trailing slash, origins separated by commas, or * alone for any origin"
            )
        if match["port"] and int(match["port"]) == DEFAULT_PORTS[match["scheme"].lower()]:
            raise SettingError(
                f"{name}: {origin!r} names its scheme's default port, which browsers leave out of the "
                "Origin they send, so it would never match: write it without the port"
            )
    return found


# ---- the declarations ----------------------------------------------------------------------------------


Known = Mapping[str, Any]  # the values read so far, by field, and "under_gunicorn"


def _metrics_dir(known: Known) -> str | None:
    """Under gunicorn, a directory of this server's own (two servers on one machine must not share
    one: each wipes it at start); a single process keeps its metrics in memory."""
    if not known["under_gunicorn"]:
        return None
    bind = str(known["bind"])
    found = BIND.fullmatch(bind)
    place = found["port"] if found and found["port"] else re.sub(r"[^A-Za-z0-9.]+", "-", bind).strip("-")
    return os.path.join(tempfile.gettempdir(), f"chkobba-metrics-{place}")


@dataclass(frozen=True)
class Setting:
    name: str  # the environment variable
    attribute: str  # its field in Settings
    default: str  # as the README's table shows it
    meaning: str  # the README's table's text
    read: Callable[[str, str], Any]  # (name, text) -> value, or a SettingError
    fallback: Callable[[Known], Any]  # the value when unset (or empty, unless empty_is_a_value)
    empty_is_a_value: bool = False  # CHKOBBA_ACCESS_LOG: empty means no log, not the default; a key list: refused


SETTINGS: tuple[Setting, ...] = (
    Setting("PORT", "port", "`8080`", "port of `make run` (on 127.0.0.1)", whole(1, 65535), lambda k: 8080),
    Setting(
        "CHKOBBA_BIND",
        "bind",
        "`127.0.0.1:$PORT`",
        "full bind address, e.g. `0.0.0.0:8080` in a container",
        bind_address,
        lambda k: f"127.0.0.1:{k['port']}",
    ),
    Setting(
        "CHKOBBA_WORKERS",
        "workers",
        "number of cores",
        "gunicorn worker processes (gevent: each serves many connections; see "
        "[Running it in front of real clients](#running-it-in-front-of-real-clients)); at least 1",
        whole(1),
        lambda k: os.cpu_count() or 1,
    ),
    Setting(
        "CHKOBBA_WORKER_CONNECTIONS",
        "worker_connections",
        "`1000`",
        "connections one worker holds at once; more wait in the listen backlog; at least 1",
        whole(1),
        lambda k: 1000,
    ),
    Setting(
        "CHKOBBA_KEEPALIVE",
        "keepalive",
        "`5`",
        "seconds a connection may wait for its next request, and the most a client may take to send a "
        "request's line and headers; at least 1",
        whole(1),
        lambda k: 5,
    ),
    Setting(
        "CHKOBBA_CLIENT_TIMEOUT",
        "client_timeout",
        "`10`",
        "seconds a client has to send a request's body once its headers are in, and again to take the "
        "answer; a slower body gets a 408; at least 1",
        whole(1),
        lambda k: 10,
    ),
    Setting(
        "CHKOBBA_TIMEOUT",
        "timeout",
        "`30`",
        "seconds a worker may go without checking in before the master restarts it; at least 1",
        whole(1),
        lambda k: 30,
    ),
    Setting(
        "CHKOBBA_GRACEFUL_TIMEOUT",
        "graceful_timeout",
        "`20`",
        "seconds a worker has to finish its requests on SIGTERM",
        whole(0),
        lambda k: 20,
    ),
    Setting(
        "CHKOBBA_MAX_REQUESTS",
        "max_requests",
        "`1000000`",
        "recycle a worker after this many requests, 0 for never (rarely: memory stays flat without it, and "
        "each restart costs a worker boot; the metrics survive it, see "
        "[Scraping the metrics](#scraping-the-metrics))",
        whole(0),
        lambda k: 1000000,
    ),
    Setting(
        "CHKOBBA_MAX_REQUESTS_JITTER",
        "max_requests_jitter",
        "`50000`",
        "up to this many requests more, drawn for each worker, so that workers do not all recycle at once",
        whole(0),
        lambda k: 50000,
    ),
    Setting(
        "CHKOBBA_ACCESS_LOG",
        "access_log",
        "`-` (stdout)",
        "the JSON access log (see [Logs](#logs)): `-` for standard output, empty for none, else a file to "
        "append to (its directory must exist)",
        access_log,
        lambda k: "-",
        empty_is_a_value=True,
    ),
    Setting(
        "CHKOBBA_LOG_LEVEL",
        "log_level",
        "`info`",
        "gunicorn log level: `debug`, `info`, `warning`, `error` or `critical`",
        log_level,
        lambda k: "info",
    ),
    Setting(
        "PROMETHEUS_MULTIPROC_DIR",
        "metrics_dir",
        "`$TMPDIR/chkobba-metrics-$PORT`",
        "where gunicorn's workers share metrics (each live worker's files, and the dead workers' counts in "
        "one archive per type); wiped at start; without gunicorn, unset: one process's metrics, in memory",
        as_text,
        _metrics_dir,
    ),
    Setting(
        "CHKOBBA_CONTROL_SOCKET",
        "control_socket",
        "unset: none",
        "path of gunicorn's control socket (for `gunicornc`); off by default, since its default place, "
        "`~/.gunicorn`, is unwritable in the image and shared by every server on a machine",
        as_text,
        lambda k: None,
    ),
    Setting(
        "CHKOBBA_WORKER_TMP_DIR",
        "worker_tmp_dir",
        "the system temporary directory",
        "where gunicorn keeps its workers' heartbeat files (an existing directory)",
        existing_directory,
        lambda k: None,
    ),
    Setting(
        "CHKOBBA_STATE_TOKEN_LIFETIME",
        "state_token_lifetime",
        "`3600`",
        "seconds a sealed state token stays valid (see [Sealed rounds](#sealed-rounds)); from 1 to 86400 "
        "(a day); an hour by default, a round at 20 s a turn lasting about 12 minutes",
        whole(1, MAX_STATE_TOKEN_LIFETIME),
        lambda k: DEFAULT_STATE_TOKEN_LIFETIME,
    ),
    Setting(
        "CHKOBBA_CORS_ORIGINS",
        "cors_origins",
        "unset: none",
        "the origins whose pages may call the API, comma-separated "
        "(`https://play.example,http://localhost:5173`), or `*` alone for any origin (see "
        "[Calling it from a browser](#calling-it-from-a-browser-cors))",
        origins,
        lambda k: (),
    ),
    Setting(
        "CHKOBBA_STATE_KEYS",
        "state_keys",
        "unset: refused at start, unless `CHKOBBA_EPHEMERAL_KEYS=1`",
        "the keys that seal round states, comma-separated base64url, 32 bytes each (the first seals, all "
        "open); every replica of a deployment needs the same ones; a list with no key, an all-zero key or "
        "one that is also a receipt key is refused",
        key_list,
        lambda k: (),
        empty_is_a_value=True,  # an empty Secret is refused, never read as unset
    ),
    Setting(
        "CHKOBBA_RECEIPT_KEYS",
        "receipt_keys",
        "unset: refused at start, unless `CHKOBBA_EPHEMERAL_KEYS=1`",
        "the Ed25519 private keys that sign receipts (see [Receipts](#receipts-verdicts-anyone-can-check)), "
        "comma-separated base64url of each key's 32-byte seed (the first signs; all are published in "
        "`/.well-known/jwks.json`); every replica of a deployment needs the same ones; RFC 8037's example "
        "key, an all-zero key or a state key is refused",
        key_list,
        lambda k: (),
        empty_is_a_value=True,  # an empty Secret is refused, never read as unset
    ),
    Setting(
        "CHKOBBA_RECEIPT_PUBLIC_KEYS",
        "receipt_public_keys",
        "unset: none",
        "Ed25519 public keys published in `/.well-known/jwks.json` beside the signing keys' own, "
        "comma-separated base64url of 32 bytes (a JWK's `x`): a retired receipt key's, so that the receipts "
        "it signed still verify once its private key is gone (docs/security.md)",
        public_key_list,
        lambda k: (),
        empty_is_a_value=True,  # an empty Secret is refused, never read as unset
    ),
    Setting(
        EPHEMERAL_KEYS,
        "ephemeral_keys",
        "`0`",
        "`1`: a missing `CHKOBBA_STATE_KEYS` or `CHKOBBA_RECEIPT_KEYS` is made at start, for this server "
        "alone (lost at a restart, not shared by replicas: `make run`, tests); `0`: the start is refused",
        flag,
        lambda k: False,
    ),
    Setting(
        "CHKOBBA_METRICS_ADDRESS",
        "metrics_address",
        "unset: `/metrics` on the service's own port",
        "HOST:PORT where gunicorn's master serves `/metrics` (and nothing else); once set, the service's "
        "port answers 404 for the metrics under any spelling; `make run`: `127.0.0.1:$METRICS_PORT`",
        host_and_port,
        lambda k: None,
    ),
)
BY_NAME: Mapping[str, Setting] = {s.name: s for s in SETTINGS}


@dataclass(frozen=True)
class Settings:
    """The service's settings, as read from the environment (``read``): one per server."""

    port: int
    bind: str
    workers: int
    worker_connections: int
    keepalive: int
    client_timeout: int
    timeout: int
    graceful_timeout: int
    max_requests: int
    max_requests_jitter: int
    access_log: str
    log_level: str
    metrics_dir: str | None  # None: one process, its metrics in memory
    control_socket: str | None
    worker_tmp_dir: str | None
    state_token_lifetime: int
    cors_origins: tuple[str, ...]
    state_keys: tuple[bytes, ...] = field(repr=False)  # none: with_state_keys makes one
    receipt_keys: tuple[bytes, ...] = field(repr=False)  # Ed25519 seeds; none: with_receipt_keys makes one
    receipt_public_keys: tuple[bytes, ...] = ()  # published for verification only (retired keys)
    ephemeral_keys: bool = False  # missing keys may be made at start (require_keys)
    metrics_address: str | None = None  # None: /metrics on the service's own port
    key_made_at_start: bool = False  # state_keys is one key with_state_keys made, for this server only
    receipt_key_made_at_start: bool = False  # receipt_keys likewise, made by with_receipt_keys

    def overridden(self, changes: Mapping[str, Any]) -> Settings:
        """These settings with some changed, each read as the environment's text would be; a change is
        named by its variable (``CHKOBBA_STATE_KEYS``) or without the prefix (``STATE_KEYS``, as the
        app's config takes it), and a whole number may be given as one."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        for key, value in changes.items():
            setting = setting_named(key)
            if setting is None:
                raise KeyError(f"{key} is not a setting")
            if isinstance(value, int) and not isinstance(value, bool):
                value = str(value)
            if value is not None and not isinstance(value, str):
                raise SettingError(f"{setting.name} must be given as text, not {value!r}")
            values[setting.attribute] = _value(setting, value, {**values, "under_gunicorn": False})
            if setting.attribute == "state_keys":
                values["key_made_at_start"] = False
            if setting.attribute == "receipt_keys":
                values["receipt_key_made_at_start"] = False
        return checked(Settings(**values))


def setting_named(key: str) -> Setting | None:
    """The setting a variable (``CHKOBBA_STATE_KEYS``) or a config key (``STATE_KEYS``) names."""
    return BY_NAME.get(key) or BY_NAME.get(f"CHKOBBA_{key}")


def _value(setting: Setting, raw: str | None, known: Known) -> Any:
    if raw is None or (not raw.strip() and not setting.empty_is_a_value):
        return setting.fallback(known)
    return setting.read(setting.name, raw)


def read(environ: Mapping[str, str] | None = None, *, under_gunicorn: bool = False) -> Settings:
    """Every setting from ``environ`` (the process's environment by default), each checked: the one
    place the environment is read. ``under_gunicorn``: the defaults of a gunicorn master (a metrics
    directory shared by its workers)."""
    source = os.environ if environ is None else environ
    known: dict[str, Any] = {"under_gunicorn": under_gunicorn}
    for setting in SETTINGS:
        known[setting.attribute] = _value(setting, source.get(setting.name), known)
    del known["under_gunicorn"]
    made = set(source.get(MADE_AT_START_MARKER, "").split(","))
    known["key_made_at_start"] = _mark("state", known["state_keys"]) in made and bool(known["state_keys"])
    known["receipt_key_made_at_start"] = _mark("receipt", known["receipt_keys"]) in made and bool(known["receipt_keys"])
    return checked(Settings(**known))


def _weak(key: bytes) -> str | None:
    """Why ``key`` is one that anyone may know, or None."""
    if key in PUBLISHED_SEEDS:
        return PUBLISHED_SEEDS[key]
    if len(set(key)) == 1:
        return "is one byte repeated"  # never which byte: that would be the whole key
    return None


def checked(settings: Settings) -> Settings:
    """``settings``, or a SettingError for keys that anyone may know (RFC 8037's and RFC 8032's
    example keys, one byte repeated such as all zeros), for one key that both seals and signs, or for
    metrics on the service's own port (on any of its hosts: one of them may be a wildcard). An error names the
    setting and the entry, never the key."""
    for name, keys in (("CHKOBBA_STATE_KEYS", settings.state_keys), ("CHKOBBA_RECEIPT_KEYS", settings.receipt_keys)):
        for i, key in enumerate(keys):
            reason = _weak(key)
            if reason is not None:
                raise SettingError(f"{name} entry {i} {reason}: make one with `{NEW_KEY_COMMAND}`")
    service, metrics = BIND.fullmatch(settings.bind), settings.metrics_address
    if metrics is not None and service is not None and service["port"] == BIND.fullmatch(metrics)["port"]:  # type: ignore[index]
        raise SettingError(
            f"CHKOBBA_METRICS_ADDRESS {metrics} is on the service's own port (CHKOBBA_BIND={settings.bind}): "
            "give the metrics a port of their own"
        )
    shared = set(settings.state_keys) & set(settings.receipt_keys)
    if shared:
        i = next(i for i, key in enumerate(settings.receipt_keys) if key in shared)
        raise SettingError(
            f"CHKOBBA_RECEIPT_KEYS entry {i} is also in CHKOBBA_STATE_KEYS: give each use keys of its own"
        )
    return settings


def require_keys(settings: Settings) -> Settings:
    """``settings``, if they give both kinds of key or allow keys made at start
    (``CHKOBBA_EPHEMERAL_KEYS=1``); else a SettingError of one line naming the settings missing. What a
    server checks before it starts (gunicorn.conf.py, ``create_app`` but for a test app): each replica
    of a deployment making its own keys would break every round and receipt that crosses replicas."""
    missing = [
        name
        for name, keys in (("CHKOBBA_STATE_KEYS", settings.state_keys), ("CHKOBBA_RECEIPT_KEYS", settings.receipt_keys))
        if not keys
    ]
    if missing and not settings.ephemeral_keys:
        said = " and ".join(missing) + (" are" if len(missing) > 1 else " is")
        raise SettingError(NO_KEYS_REFUSAL.format(missing=said))
    return settings


def with_state_keys(settings: Settings, warn: Callable[[str], object]) -> Settings:
    """``settings`` with a sealing key: their own, or else one made now, for this server alone, which
    ``warn`` is told about (the one place that warning is made)."""
    if settings.state_keys:
        return settings
    warn(NO_KEYS_WARNING)
    return replace(settings, state_keys=(secrets.token_bytes(KEY_BYTES),), key_made_at_start=True)


def with_receipt_keys(settings: Settings, warn: Callable[[str], object]) -> Settings:
    """``settings`` with a key to sign receipts: their own, or else one made now, for this server alone,
    which ``warn`` is told about (the one place that warning is made)."""
    if settings.receipt_keys:
        return settings
    warn(NO_RECEIPT_KEYS_WARNING)
    return replace(settings, receipt_keys=(secrets.token_bytes(KEY_BYTES),), receipt_key_made_at_start=True)


def with_keys(settings: Settings, warn: Callable[[str], object]) -> Settings:
    """``settings`` with the keys that seal states and sign receipts, each made now if it is missing
    (``with_state_keys``, ``with_receipt_keys``): what a server starts with."""
    return with_receipt_keys(with_state_keys(settings, warn), warn)


def encoded_keys(settings: Settings) -> str:
    """The keys as ``CHKOBBA_STATE_KEYS`` writes them."""
    return _encoded(settings.state_keys)


def encoded_receipt_keys(settings: Settings) -> str:
    """The receipt keys as ``CHKOBBA_RECEIPT_KEYS`` writes them."""
    return _encoded(settings.receipt_keys)


def _mark(kind: str, keys: Iterable[bytes]) -> str:
    """A kind of key and a fingerprint of the keys: a marker left in an environment (copied from a
    running server's, say) then names keys made at start only while these are those very keys."""
    return f"{kind}:{hashlib.sha256(b''.join(keys)).hexdigest()[:16]}"


def made_at_start_marker(settings: Settings) -> str:
    """The value of ``MADE_AT_START_MARKER`` for ``settings``: the kinds of key made at start, each
    with its keys' fingerprint."""
    return ",".join(
        _mark(kind, keys)
        for kind, keys, made in (
            ("state", settings.state_keys, settings.key_made_at_start),
            ("receipt", settings.receipt_keys, settings.receipt_key_made_at_start),
        )
        if made
    )


def _encoded(keys: Iterable[bytes]) -> str:
    return ",".join(base64.urlsafe_b64encode(key).decode().rstrip("=") for key in keys)


_installed: Settings | None = None


def install(settings: Settings) -> Settings:
    """Make ``settings`` this process's (and its forked workers'): gunicorn.conf.py, in the master."""
    global _installed
    _installed = settings
    return settings


def installed() -> Settings | None:
    return _installed


def current() -> Settings:
    """The settings installed in this process (a gunicorn master's, inherited by its workers), or else
    the environment's, read now."""
    return _installed if _installed is not None else read()


# ---- the README's table ------------------------------------------------------------------------------


def table_rows(settings: Iterable[Setting] = SETTINGS) -> list[str]:
    """The README's settings table, made from the declarations."""
    rows = ["| variable | default | meaning |", "|---|---|---|"]
    rows += [f"| `{s.name}` | {s.default} | {s.meaning} |" for s in settings]
    return rows


if __name__ == "__main__":  # python -m service.ops.settings: the table, for the README; --new-key: a key
    sys.stdout.write((new_key() if sys.argv[1:] == ["--new-key"] else "\n".join(table_rows())) + "\n")
