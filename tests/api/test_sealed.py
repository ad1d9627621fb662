"""Sealed rounds: dealRound with ``"sealed": true``, playRound with a ``state_token``, and the problems
and metric of a token the service will not open (docs/operations.md, "Sealed rounds").

The whole-round tests play every profile and player count through the token alone, choosing each
move from the view of the seat to move, while a plain round dealt from the same seed runs alongside
to know every hidden card; at every step each seat's view is searched for every card it must not see.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import struct
import time
from collections import Counter
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from service.api import rounds
from service.api.sealing import Sealer, new_key
from service.app import create_app
from service.rules import RoundState

from ..support import (
    CANONICAL,
    b64url_decode,
    b64url_encode,
    clean_environment,
    counted,
    deck_starting,
    free_port,
    health,
    ok,
    problem,
    running_gunicorn,
    send,
    strings_in,
)

VIEW_KEYS = {
    "seat",
    "side",
    "rules",
    "players",
    "dealer",
    "phase",
    "turn",
    "hand",
    "hand_sizes",
    "table",
    "stock_size",
    "piles",
    "sweeps",
    "last_capturer",
}
PUBLIC_KEYS = ("rules", "players", "dealer", "phase", "turn", "table", "piles", "sweeps", "last_capturer")
DEAL_KEYS = {"state_token", "round_id", "seq", "views"}
PLAY_KEYS = {"state_token", "round_id", "seq", "views", "event", "breakdown", "next_dealer"}
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
HEADER_BYTES, SALT_END = 17, 41  # version (1) | key id (8) | issued at (8) | salt (24) | ciphertext+tag
METRIC = "chkobba_state_tokens_rejected_total"


def key_id(key_text: str) -> bytes:
    """The key id the README documents: the first 8 bytes of SHA-256 of the 32-byte key."""
    return hashlib.sha256(b64url_decode(key_text)).digest()[:8]


def rejections(client) -> Counter:
    """``chkobba_state_tokens_rejected_total`` by reason, as ``/metrics`` shows it."""
    return counted(client, METRIC, "reason")


# ---- a whole round through the token, every profile and player count --------------------------------


@dataclass(frozen=True)
class Setup:
    rules: Any
    players: int
    dealer: int
    seed: str
    cut: str | None = None  # given to dealRound
    cut_move: str | None = None  # played through the token when the deal stops in phase cut

    @property
    def id(self) -> str:
        profile = self.rules if isinstance(self.rules, str) else self.rules["profile"]
        how = f"cut-{self.cut}" if self.cut else f"phase-cut-then-{self.cut_move}" if self.cut_move else "deal"
        return f"{profile}-{self.players}-{how}"


# Seeds chosen so that no deal calls for a redeal (the whole round is then played).
SETUPS = [
    Setup("chkobba", 2, 1, "sealed-chkobba-2-keep", cut="keep"),
    Setup("chkobba", 2, 1, "sealed-chkobba-2-table", cut_move="table"),
    Setup("chkobba", 4, 3, "sealed-chkobba-4-table", cut="table"),
    Setup("chkobba", 4, 3, "sealed-chkobba-4-keep", cut_move="keep"),
    Setup("chkobba-crp", 2, 1, "sealed-chkobba-crp-2-keep"),
    Setup({"profile": "chkobba-crp", "options": {"face_sums": True}}, 3, 2, "sealed-chkobba-crp-3-keep"),
    Setup("chkobba-crp", 4, 3, "sealed-chkobba-crp-4-keep"),
    Setup("scopa", 2, 1, "sealed-scopa-2-keep"),
]


def check_view(view: dict[str, Any], state: dict[str, Any], seat: int) -> None:
    """``view`` holds everything ``seat`` may know of the plain ``state``, and nothing else."""
    hands, stock = state["hands"], state["stock"]
    cutter_sees = state["phase"] == "cut" and seat == state["turn"]
    cut_card = stock[0] if cutter_sees else None
    hidden = {card for other, hand in enumerate(hands) if other != seat for card in hand} | set(stock)
    hidden.discard(cut_card)
    # Search every string of the view, and its JSON text, for every card it must not hold.
    text = json.dumps(view)
    leaked = sorted(card for card in hidden if f'"{card}"' in text) + sorted(hidden & strings_in(view))
    assert not leaked, f"seat {seat} sees {leaked} in {view}"
    if state["players"] == 4:
        partner = hands[(seat + 2) % 4]
        assert not set(partner) & strings_in(view), f"seat {seat} sees its partner's hand"
    allowed = set(hands[seat]) | set(state["table"]) | {c for pile in state["piles"] for c in pile} | {cut_card}
    assert strings_in(view) & set(CANONICAL) <= allowed
    # ... and everything it may know.
    assert set(view) == VIEW_KEYS | ({"cut_card"} if cut_card else set()), sorted(view)
    assert view["seat"] == seat
    assert view["side"] == seat % (2 if state["players"] == 4 else state["players"])
    assert view["hand"] == hands[seat]
    assert view["hand_sizes"] == [len(hand) for hand in hands]
    assert view["stock_size"] == len(stock)
    for key in PUBLIC_KEYS:
        assert view[key] == state[key], key
    if cut_card:
        assert view["cut_card"] == cut_card == stock[0]


def check_token(token: str, state: dict[str, Any], sealer: Sealer, *, search_every_card: bool) -> None:
    assert isinstance(token, str) and 0 < len(token) <= 8192  # playRound takes tokens up to 8192 characters
    assert set(token) <= set(ALPHABET)
    raw = b64url_decode(token)
    assert raw[0] == 2 and raw[1:9] == hashlib.sha256(sealer.keys[0]).digest()[:8]
    issued = struct.unpack(">Q", raw[9:17])[0]
    assert abs(issued - time.time()) < 120
    # Ciphertext, not a mere encoding or compression of the state.
    clear = {"stock", "hands", "phase"}
    for cards in (state["stock"], state["hands"], *state["hands"]):
        clear |= {json.dumps(cards), json.dumps(cards, separators=(",", ":"))}
    for text in clear:
        if len(text) >= 5:  # shorter patterns (an empty list's "[]") turn up in random bytes by chance
            assert text.encode() not in raw, text
    with pytest.raises(ValueError):
        json.loads(raw[SALT_END:])
    if search_every_card:  # a 4-byte pattern: kept to a few tokens so that chance can never match
        assert not [card for card in CANONICAL if f'"{card}"'.encode() in raw]


def check_sealed(
    answer: dict[str, Any], state: dict[str, Any], sealer: Sealer, keys: set[str], *, first: bool = False
) -> None:
    assert set(answer) == keys, sorted(answer)
    assert "state" not in answer and "deck" not in answer
    assert len(answer["views"]) == state["players"]
    for seat, view in enumerate(answer["views"]):
        check_view(view, state, seat)
    check_token(answer["state_token"], state, sealer, search_every_card=first)
    # Outside the views, the answer names no card that any seat holds or that lies in the stock.
    rest = {k: v for k, v in answer.items() if k not in ("views", "state_token")}
    held = {c for hand in state["hands"] for c in hand} | set(state["stock"])
    assert not held & strings_in(rest), sorted(held & strings_in(rest))


def choose(client, view: dict[str, Any], step: int, setup: Setup) -> dict[str, Any]:
    """A legal move chosen from what the seat to move may see: its hand and the table."""
    if view["phase"] == "cut":
        return {"cut": setup.cut_move, "seat": view["seat"]}
    last_play = view["stock_size"] == 0 and sum(view["hand_sizes"]) == 1
    body = {"rules": view["rules"], "table": view["table"], "hand": view["hand"], "last_play": last_play}
    moves = ok(client.post("/v1/captures", json=body))["moves"]
    entry = moves[step % len(moves)]
    move: dict[str, Any] = {"card": entry["card"]}
    if entry["options"]:
        move["capture"] = entry["options"][step % len(entry["options"])]["capture"]
    if step % 2:
        move["seat"] = view["seat"]
    return move


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: s.id)
def test_a_whole_round_through_the_token_never_shows_a_seat_what_it_may_not_see(client, app, setup):
    sealer: Sealer = app.extensions["chkobba.sealer"]
    deal = {"rules": setup.rules, "players": setup.players, "dealer": setup.dealer, "seed": setup.seed}
    if setup.cut:
        deal["cut"] = setup.cut
    plain = ok(client.post("/v1/rounds", json=deal))
    state = plain["state"]
    sealed = ok(client.post("/v1/rounds", json={**deal, "sealed": True}))
    check_sealed(sealed, state, sealer, DEAL_KEYS, first=True)
    assert state["phase"] == ("cut" if setup.cut_move else "play")
    for seat in range(setup.players):  # viewRound of the token gives the same views
        assert ok(client.post("/v1/rounds/view", json={"state_token": sealed["state_token"], "seat": seat})) == {
            "view": sealed["views"][seat]
        }

    token, views, step = sealed["state_token"], sealed["views"], 0
    while state["phase"] in ("cut", "play"):
        mover = views[0]["turn"]
        move = choose(client, views[mover], step, setup)
        answer = ok(client.post("/v1/rounds/play", json={"state_token": token, "move": move}))
        expected = ok(client.post("/v1/rounds/play", json={"state": state, "move": move}))
        state = expected["state"]
        # The record only once the round is over: during it, no answer holds more than before.
        ended = {"record", "record_receipt"} if state["phase"] == "over" else set()
        check_sealed(answer, state, sealer, PLAY_KEYS | ended, first=step == 0)
        assert answer["event"] == expected["event"]
        assert (answer["breakdown"], answer["next_dealer"]) == (expected["breakdown"], expected["next_dealer"])
        assert answer["state_token"] != token
        # The same round, one move further: what a game server compares to refuse a stale token.
        assert (answer["round_id"], answer["seq"]) == (sealed["round_id"], step + 1)
        token, views, step = answer["state_token"], answer["views"], step + 1

    assert state["phase"] == "over"
    assert step == 36 + (1 if setup.cut_move else 0)  # 40 cards less the 4 first on the table, plus the cut
    assert answer["breakdown"] is not None and answer["next_dealer"] == (setup.dealer + 1) % setup.players
    assert sorted(c for pile in views[0]["piles"] for c in pile) == sorted(CANONICAL)
    for seat in range(setup.players):
        final = ok(client.post("/v1/rounds/view", json={"state_token": token, "seat": seat}))["view"]
        assert final == views[seat]
    # The round's record replays as it is, to the same end (issue 16: a sealed round can be disputed).
    record = answer["record"]
    assert record["deck"] == plain["deck"] and record.get("cut") == setup.cut
    assert len(record["moves"]) == step and all("seat" in move for move in record["moves"])
    replayed = ok(client.post("/v1/rounds/replay", json=record))
    assert (replayed["valid"], replayed["complete"]) == (True, True)
    assert (replayed["state"], replayed["breakdown"]) == (state, answer["breakdown"])


def test_the_cutters_view_alone_shows_the_drawn_card(client, app):
    deal = {"rules": "chkobba", "players": 4, "dealer": 1, "deck": CANONICAL, "sealed": True}
    sealed = ok(client.post("/v1/rounds", json=deal))
    views = sealed["views"]
    assert [v["phase"] for v in views] == ["cut"] * 4 and views[0]["turn"] == 2
    assert views[2]["cut_card"] == "AD"  # the top card of the deck
    for seat in (0, 1, 3):
        assert "cut_card" not in views[seat] and not set(CANONICAL) & strings_in(views[seat])
    assert all(v["stock_size"] == 40 and v["hand_sizes"] == [0, 0, 0, 0] for v in views)


@pytest.mark.parametrize(
    "deal",
    [
        {"rules": "scopa", "players": 2, "dealer": 0, "deck": CANONICAL},
        {"rules": "chkobba-crp", "players": 3, "dealer": 0},
        {"rules": "chkobba", "players": 2, "dealer": 0, "seed": 1, "cut": "keep"},
    ],
    ids=["deck", "secure-shuffle", "seed"],
)
def test_a_sealed_deal_answers_neither_state_nor_deck(client, deal):
    body = ok(client.post("/v1/rounds", json={**deal, "sealed": True}))
    assert set(body) == DEAL_KEYS
    views = body["views"]
    for view in views:
        assert not {"state", "deck", "stock", "hands"} & set(view)
    # The only cards the answer names are those dealt face up or into a hand: never the stock.
    dealt = {c for view in views for c in view["hand"]} | set(views[0]["table"])
    assert len(dealt) == 3 * deal["players"] + 4
    assert strings_in(body) & set(CANONICAL) == dealt


def test_two_seals_of_one_deal_differ(client):
    deal = {"rules": "scopa", "players": 2, "dealer": 0, "seed": "twice", "sealed": True}
    first, second = (ok(client.post("/v1/rounds", json=deal)) for _ in range(2))
    assert first["views"] == second["views"] and first["state_token"] != second["state_token"]


def test_a_sealed_redeal_is_final(client, app):
    # chkobba, dealer 0, the cutter keeps AD: the completed table 7D 7H 7S KD calls for a redeal.
    deck = deck_starting("AD", "2D", "3D", "4D", "5D", "6D", "7D", "7H", "7S", "KD")
    deal = {"rules": "chkobba", "players": 2, "dealer": 0, "deck": deck, "cut": "keep"}
    state = ok(client.post("/v1/rounds", json=deal))["state"]
    assert state["phase"] == "redeal"
    sealed = ok(client.post("/v1/rounds", json={**deal, "sealed": True}))
    # Beside the record, which a void deal ends the round with (the cards are shuffled again anyway).
    unrecorded = {k: v for k, v in sealed.items() if k not in ("record", "record_receipt")}
    check_sealed(unrecorded, state, app.extensions["chkobba.sealer"], DEAL_KEYS)
    refused = client.post("/v1/rounds/play", json={"state_token": sealed["state_token"], "move": {"card": "AD"}})
    assert "options" not in problem(refused, 422, "wrong-phase")  # no card's captures to list
    # A void deal ends the round: its record (no moves) is public, and replays to the same redeal.
    assert sealed["record"] == {"rules": "chkobba", "players": 2, "dealer": 0, "deck": deck, "cut": "keep", "moves": []}
    assert ok(client.post("/v1/rounds/replay", json=sealed["record"]))["state"] == state


def test_a_plain_play_stays_plain(client):
    state = ok(client.post("/v1/rounds", json={"rules": "scopa", "players": 2, "dealer": 0, "deck": CANONICAL}))
    answer = ok(client.post("/v1/rounds/play", json={"state": state["state"], "move": {"card": "AD"}}))
    assert "state" in answer and "state_token" not in answer and "views" not in answer


def test_problems_about_a_sealed_round_name_no_hidden_card(client):
    sealed = ok(
        client.post("/v1/rounds", json={"rules": "scopa", "players": 2, "dealer": 0, "deck": CANONICAL, "sealed": True})
    )
    token = sealed["state_token"]
    # Dealer 0: seat 1 holds AD 2D 3D and leads; seat 0 holds 4D 5D 6D; the table 7D JD QD KD.
    hidden_from_0 = {"AD", "2D", "3D", *CANONICAL[10:]}
    for move in ({"card": "4D", "seat": 0}, {"card": "AD", "seat": 0}, {"cut": "keep", "seat": 0}):
        answer = client.post("/v1/rounds/play", json={"state_token": token, "move": move})
        body = problem(answer, 422, "not-your-turn")
        assert not hidden_from_0 & strings_in(body), sorted(hidden_from_0 & strings_in(body))


def test_a_sealed_move_out_of_turn_without_a_seat_shows_not_the_movers_hand(client):
    sealed = ok(
        client.post("/v1/rounds", json={"rules": "scopa", "players": 2, "dealer": 0, "deck": CANONICAL, "sealed": True})
    )
    # Seat 1 (AD 2D 3D) is to move; a client of seat 0 plays its own 4D without naming a seat.
    body = problem(
        client.post("/v1/rounds/play", json={"state_token": sealed["state_token"], "move": {"card": "4D"}}),
        422,
        "card-not-held",
    )
    assert "legal" not in body and "options" not in body  # options only where they list something
    assert not {"AD", "2D", "3D"} & strings_in(body)


def test_a_plain_move_error_still_lists_what_was_legal(client):
    state = ok(client.post("/v1/rounds", json={"rules": "scopa", "players": 2, "dealer": 0, "deck": CANONICAL}))
    body = problem(
        client.post("/v1/rounds/play", json={"state": state["state"], "move": {"card": "4D"}}), 422, "card-not-held"
    )
    assert [m["card"] for m in body["legal"]] == ["AD", "2D", "3D"]


def test_a_viewer_gets_its_own_view_alone(client):
    deal = {"rules": "chkobba", "players": 4, "dealer": 3, "seed": "viewer", "cut": "keep", "sealed": True}
    dealt = ok(client.post("/v1/rounds", json={**deal, "viewer": 2}))
    assert [v["seat"] for v in dealt["views"]] == [2]
    seat_0 = ok(client.post("/v1/rounds", json=deal))["views"][0]
    move = {"card": seat_0["hand"][0], "capture": None}
    played = client.post("/v1/rounds/play", json={"state_token": dealt["state_token"], "move": move, "viewer": 1})
    if played.status_code == 200:
        assert [v["seat"] for v in played.get_json()["views"]] == [1]
    else:  # the card has several captures: the point here is only that viewer is accepted with a token
        assert problem(played, 422)["code"] == "ambiguous-capture"


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/rounds", {"rules": "scopa", "players": 2, "dealer": 0, "seed": "v", "viewer": 0}),
        ("/v1/rounds/play", {"state": None, "move": {"card": "AD"}, "viewer": 0}),
    ],
)
def test_viewer_goes_only_with_sealed_answers(client, path, body):
    if body.get("state", "") is None:
        body = {
            **body,
            "state": ok(client.post("/v1/rounds", json={"rules": "scopa", "players": 2, "dealer": 0, "seed": "v"}))[
                "state"
            ],
        }
    found = problem(client.post(path, json=body), 422, "validation-error")
    assert "viewer" in found["errors"]


@pytest.mark.parametrize("path", ["/v1/rounds", "/v1/rounds/play"])
def test_a_viewer_beyond_the_players_is_no_such_seat_named_viewer(client, path):
    deal = {"rules": "scopa", "players": 2, "dealer": 0, "seed": "v", "sealed": True}
    if path == "/v1/rounds":
        body = {**deal, "viewer": 2}
    else:
        dealt = ok(client.post("/v1/rounds", json={**deal, "viewer": 1}))
        body = {"state_token": dealt["state_token"], "move": {"card": dealt["views"][0]["hand"][0]}, "viewer": 3}
    found = problem(client.post(path, json=body), 422, "no-such-seat")
    assert list(found["errors"]) == ["viewer"]


# ---- tokens the service will not open ----------------------------------------------------------------


@pytest.fixture
def core_unreached(monkeypatch):
    """Make the rules core fail loudly if a request gets that far."""
    reached: list[str] = []

    def trap(name: str):
        def sprung(*args: Any, **kwargs: Any) -> Any:
            reached.append(name)
            raise AssertionError(f"{name} was reached")

        return sprung

    monkeypatch.setattr(RoundState, "from_json", staticmethod(trap("RoundState.from_json")))
    for name in ("advance", "seat_view"):  # parsing the move, in the schema, learns nothing of the round
        monkeypatch.setattr(rounds, name, trap(name))
    return reached


@pytest.fixture(scope="module")
def dealt(client):
    """A plain state and the same deal sealed."""
    deal = {"rules": "chkobba", "players": 2, "dealer": 0, "seed": "tokens", "cut": "keep"}
    state = ok(client.post("/v1/rounds", json=deal))["state"]
    token = ok(client.post("/v1/rounds", json={**deal, "sealed": True}))["state_token"]
    return SimpleNamespace(state=state, token=token)


def flip_byte(token: str, index: int) -> str:
    raw = bytearray(b64url_decode(token))
    raw[index] ^= 0x01
    return b64url_encode(bytes(raw))


def flip_char(token: str, index: int) -> str:
    return token[:index] + ("B" if token[index] == "A" else "A") + token[index + 1 :]


def authentic(sealer: Sealer, payload: bytes) -> str:
    header = struct.pack(">B8sQ", 1, hashlib.sha256(sealer.keys[0]).digest()[:8], int(time.time()))
    nonce = os.urandom(12)
    return b64url_encode(header + nonce + AESGCM(sealer.keys[0]).encrypt(nonce, payload, header))


def forged(token: str) -> str:
    rng = random.Random(token)
    return "".join(rng.choice(ALPHABET) for _ in token)


# name -> (make a bad token from (good token, plain state, the app's sealer), code, reason or None for any)
BAD_TOKENS = {
    "a-character-flipped-in-the-middle": (lambda t, s, k: flip_char(t, len(t) // 2), "tampered-state", "altered"),
    "the-version-byte-altered": (lambda t, s, k: flip_byte(t, 0), "tampered-state", "malformed"),
    "another-version": (
        lambda t, s, k: b64url_encode(bytes([3]) + b64url_decode(t)[1:]),
        "tampered-state",
        "malformed",
    ),
    "the-key-id-altered": (lambda t, s, k: flip_byte(t, 3), "tampered-state", "unknown-key"),
    "the-issue-time-altered": (lambda t, s, k: flip_byte(t, 12), "tampered-state", "altered"),
    "the-salt-altered": (lambda t, s, k: flip_byte(t, 20), "tampered-state", "altered"),
    "the-ciphertext-altered": (lambda t, s, k: flip_byte(t, SALT_END + 5), "tampered-state", "altered"),
    "the-tag-altered": (lambda t, s, k: flip_byte(t, len(b64url_decode(t)) - 3), "tampered-state", "altered"),
    "truncated": (lambda t, s, k: b64url_encode(b64url_decode(t)[:-3]), "tampered-state", "altered"),
    "truncated-as-text": (lambda t, s, k: t[:-4], "tampered-state", None),
    "truncated-to-the-header": (lambda t, s, k: t[:24], "tampered-state", "malformed"),
    "cut-to-an-impossible-length": (lambda t, s, k: t[: (len(t) // 4) * 4 + 1], "tampered-state", "malformed"),
    "forged-at-random": (lambda t, s, k: forged(t), "tampered-state", None),
    "forged-behind-a-real-header": (
        lambda t, s, k: b64url_encode(
            b64url_decode(t)[:HEADER_BYTES] + random.Random(1).randbytes(len(b64url_decode(t)) - HEADER_BYTES)
        ),
        "tampered-state",
        "altered",
    ),
    "not-base64": (lambda t, s, k: "!*" * 40, "tampered-state", "malformed"),
    "sealed-with-an-unknown-key": (
        lambda t, s, k: Sealer((os.urandom(32),), 86400).seal(s),
        "tampered-state",
        "unknown-key",
    ),
    "expired": (
        lambda t, s, k: k.seal(s, now=time.time() - k.lifetime_seconds - 3600),
        "expired-state",
        "expired",
    ),
    "issued-far-in-the-future": (
        lambda t, s, k: k.seal(s, now=time.time() + 3600),
        "tampered-state",
        "from-the-future",
    ),
    "authentic-but-no-state": (lambda t, s, k: authentic(k, b"\x00not json"), "tampered-state", "unreadable"),
}
ENDPOINTS = {
    "playRound": ("/v1/rounds/play", lambda token: {"state_token": token, "move": {"card": "AD"}}),
    "viewRound": ("/v1/rounds/view", lambda token: {"state_token": token, "seat": 0}),
}


@pytest.mark.parametrize("endpoint", ENDPOINTS)
@pytest.mark.parametrize("case", BAD_TOKENS)
def test_a_token_the_service_will_not_open_is_a_problem_before_the_rules(
    client, app, dealt, core_unreached, endpoint, case
):
    make, code, reason = BAD_TOKENS[case]
    token = make(dealt.token, dealt.state, app.extensions["chkobba.sealer"])
    assert token != dealt.token
    path, body = ENDPOINTS[endpoint]
    before = rejections(client)
    response = client.post(path, json=body(token))
    answer = problem(response, 422, code)
    assert answer["type"].endswith("/" + code)
    assert "state_token" in answer["errors"]
    assert core_unreached == []
    added = rejections(client) - before
    assert sum(added.values()) == 1, added
    if reason is not None:
        assert added == Counter({reason: 1}), added


def test_the_trap_springs_on_a_good_token(client, dealt, core_unreached):
    """The trap above does catch a request that reaches the rules core."""
    with pytest.raises(AssertionError, match="was reached"):
        client.post("/v1/rounds/view", json={"state_token": dealt.token, "seat": 0})
    assert core_unreached


def test_the_metric_is_on_metrics(client, dealt):
    client.post("/v1/rounds/view", json={"state_token": flip_char(dealt.token, 40), "seat": 0})
    text = client.get("/metrics").get_data(as_text=True)
    assert re.search(rf'^{METRIC}{{reason="altered"}} [1-9]', text, re.M), text


def test_a_good_token_opens_after_bad_ones(client, dealt):
    for bad in (flip_char(dealt.token, 50), dealt.token[:-4]):
        problem(client.post("/v1/rounds/view", json={"state_token": bad, "seat": 1}), 422, "tampered-state")
    assert ok(client.post("/v1/rounds/view", json={"state_token": dealt.token, "seat": 1}))["view"]["seat"] == 1


# ---- lifetime -----------------------------------------------------------------------------------------


def test_a_short_lifetime_from_the_config(monkeypatch):
    app = create_app({"TESTING": True, "STATE_KEYS": new_key(), "STATE_TOKEN_LIFETIME": 60, "ACCESS_LOG": ""})
    client = app.test_client()
    deal = {"rules": "scopa", "players": 2, "dealer": 0, "seed": "short", "sealed": True}
    token = ok(client.post("/v1/rounds", json=deal))["state_token"]
    view = {"state_token": token, "seat": 0}
    real = time.time()
    app.extensions["chkobba.clock"] = lambda: real + 59  # the service's clock (service/api/sealed_rounds.py)
    ok(client.post("/v1/rounds/view", json=view))
    app.extensions["chkobba.clock"] = lambda: real + 62
    before = rejections(client)
    problem(client.post("/v1/rounds/view", json=view), 422, "expired-state")
    problem(client.post("/v1/rounds/play", json={"state_token": token, "move": {"card": "AD"}}), 422, "expired-state")
    assert rejections(client) - before == Counter({"expired": 2})


def test_the_lifetime_from_the_environment(monkeypatch, dealt):
    monkeypatch.setenv("CHKOBBA_STATE_TOKEN_LIFETIME", "60")
    app = create_app({"TESTING": True, "ACCESS_LOG": ""})
    sealer: Sealer = app.extensions["chkobba.sealer"]
    assert sealer.lifetime_seconds == 60
    client = app.test_client()
    fresh = sealer.seal(dealt.state, now=time.time() - 30)
    stale = sealer.seal(dealt.state, now=time.time() - 120)
    ok(client.post("/v1/rounds/view", json={"state_token": fresh, "seat": 0}))
    problem(client.post("/v1/rounds/view", json={"state_token": stale, "seat": 0}), 422, "expired-state")


def test_the_default_lifetime_is_an_hour(monkeypatch):
    """At most an hour (a round at 20 s a turn lasts about 12 minutes): a token leaked or kept is worth
    its hidden cards no longer (docs/security.md)."""
    monkeypatch.delenv("CHKOBBA_STATE_TOKEN_LIFETIME", raising=False)
    assert create_app({"TESTING": True}).extensions["chkobba.sealer"].lifetime_seconds == 3600


# ---- keys and rotation ---------------------------------------------------------------------------------


@pytest.fixture
def no_key_in_env(monkeypatch):
    monkeypatch.delenv("CHKOBBA_STATE_KEYS", raising=False)
    monkeypatch.delenv("CHKOBBA_STATE_KEYS_EPHEMERAL", raising=False)


def app_with(keys: str):
    return create_app({"TESTING": True, "STATE_KEYS": keys, "ACCESS_LOG": ""}).test_client()


def test_key_rotation(no_key_in_env):
    a, b = new_key(), new_key()
    old, rotated, b_only = app_with(a), app_with(f"{b},{a}"), app_with(b)
    deal = {"rules": "chkobba", "players": 2, "dealer": 0, "seed": "rotation", "cut": "keep", "sealed": True}
    dealt = ok(old.post("/v1/rounds", json=deal))
    token_a = dealt["state_token"]
    assert b64url_decode(token_a)[1:9] == key_id(a)
    move = {"card": dealt["views"][1]["hand"][0], "seat": 1}
    # A round dealt before the rotation goes on after it ...
    played = ok(rotated.post("/v1/rounds/play", json={"state_token": token_a, "move": move}))
    token_b = played["state_token"]
    # ... and what the rotated service seals, it seals with the new first key.
    assert b64url_decode(token_b)[1:9] == key_id(b) != key_id(a)
    ok(b_only.post("/v1/rounds/view", json={"state_token": token_b, "seat": 0}))
    before = rejections(old)
    body = problem(old.post("/v1/rounds/view", json={"state_token": token_b, "seat": 0}), 422, "tampered-state")
    assert "state_token" in body["errors"]
    assert rejections(old) - before == Counter({"unknown-key": 1})
    problem(b_only.post("/v1/rounds/view", json={"state_token": token_a, "seat": 0}), 422, "tampered-state")


def test_keys_from_the_environment(monkeypatch, no_key_in_env):
    a, b = new_key(), new_key()
    token_a = ok(app_with(a).post("/v1/rounds", json={"rules": "scopa", "players": 2, "dealer": 0, "sealed": True}))
    monkeypatch.setenv("CHKOBBA_STATE_KEYS", f"{b},{a}")
    client = create_app({"TESTING": True, "ACCESS_LOG": ""}).test_client()
    ok(client.post("/v1/rounds/view", json={"state_token": token_a["state_token"], "seat": 0}))
    fresh = ok(client.post("/v1/rounds", json={"rules": "scopa", "players": 2, "dealer": 0, "sealed": True}))
    assert b64url_decode(fresh["state_token"])[1:9] == key_id(b)


@pytest.mark.parametrize(
    "keys", ["not-a-key", new_key()[:20], f"{new_key()},{new_key()}x"], ids=["word", "short", "second"]
)
def test_a_bad_key_stops_the_app_at_start(no_key_in_env, keys):
    with pytest.raises(ValueError, match="CHKOBBA_STATE_KEYS"):
        create_app({"TESTING": True, "STATE_KEYS": keys})


def test_without_a_key_the_app_warns(no_key_in_env, caplog):
    with caplog.at_level("WARNING"):
        create_app({"ACCESS_LOG": ""})
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any("CHKOBBA_STATE_KEYS" in m and "restart" in m and "replicas" in m for m in warnings), warnings


def test_with_a_key_the_app_does_not_warn(no_key_in_env, caplog):
    with caplog.at_level("WARNING"):
        create_app({"ACCESS_LOG": "", "STATE_KEYS": new_key()})
    assert not [r for r in caplog.records if "CHKOBBA_STATE_KEYS" in r.getMessage()]


# ---- make run without a key: one key for every worker -------------------------------------------------


@pytest.mark.server
def test_without_a_key_every_gunicorn_worker_opens_every_token(tmp_path):
    """The issue: with no key configured, sealing uses a key generated once at start and shared by
    all workers. Two workers, each recycled after a few requests: every token must open anywhere."""
    port = free_port()
    env = clean_environment(
        PORT=str(port),
        CHKOBBA_WORKERS="2",
        CHKOBBA_MAX_REQUESTS="6",
        CHKOBBA_MAX_REQUESTS_JITTER="0",
        CHKOBBA_ACCESS_LOG="",
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "prometheus"),
    )
    log_path = tmp_path / "gunicorn.log"
    with running_gunicorn(env, lambda: health(port) == 200, log_path):
        deal = {"rules": "scopa", "players": 2, "dealer": 0, "seed": "workers", "sealed": True}
        status, data = send(port, "POST", "/v1/rounds", deal)
        assert status == 200, data
        token = json.loads(data)["state_token"]
        statuses: Counter[int] = Counter()
        booted: list[str] = []
        deadline = time.monotonic() + 30
        # On fresh connections: both workers, and their successors, serve. A worker past its
        # max_requests serves on until its loop notices (within a second), so ask until the
        # workers have been recycled: then tokens have crossed processes.
        while len(set(booted)) < 4 and time.monotonic() < deadline:
            status, data = send(
                port, "POST", "/v1/rounds/view", {"state_token": token, "seat": sum(statuses.values()) % 2}
            )
            statuses[status] += 1
            booted = re.findall(r"Booting worker with pid: (\d+)", log_path.read_text(errors="replace"))
        assert len(set(booted)) >= 4, booted
        assert set(statuses) == {200}, (statuses, data)
        text = log_path.read_text(errors="replace")
        assert re.search(r"WARNING.*CHKOBBA_STATE_KEYS", text), text[-2000:]


def test_a_tokens_holder_sees_every_seats_hand_so_the_token_is_the_game_servers_alone(client):
    """docs/security.md, "Who holds a token": nothing in viewRound asks who is asking. Whoever holds
    a token may ask for each seat's view in turn and learn every hand: a token is never a player's."""
    deal = {"rules": "chkobba", "players": 4, "dealer": 0, "seed": "holder", "cut": "keep", "sealed": True}
    dealt = ok(client.post("/v1/rounds", json=deal))
    hands = {view["seat"]: view["hand"] for view in dealt["views"]}
    for seat in range(4):
        viewed = ok(client.post("/v1/rounds/view", json={"state_token": dealt["state_token"], "seat": seat}))
        assert viewed["view"]["hand"] == hands[seat] and len(hands[seat]) == 3


def test_a_tokens_holder_gets_the_hints_and_so_the_hand_of_the_seat_to_move(client):
    dealt = ok(
        client.post("/v1/rounds", json={"rules": "scopa", "players": 2, "dealer": 0, "seed": "h", "sealed": True})
    )
    hinted = ok(client.post("/v1/hints", json={"state_token": dealt["state_token"]}))
    mover = next(view for view in dealt["views"] if view["seat"] == hinted["seat"])
    assert {m["move"]["card"] for m in hinted["moves"]} == set(mover["hand"])


def test_a_tokens_length_does_not_depend_on_the_hidden_cards(client):
    """Not compressed: the deals of one shape seal to tokens of one length, whatever their cards."""
    lengths = {
        len(ok(client.post("/v1/rounds", json={**deal, "seed": f"length-{i}"}))["state_token"])
        for deal in [{"rules": "scopa", "players": 2, "dealer": 0, "sealed": True}]
        for i in range(12)
    }
    assert len(lengths) == 1, lengths
