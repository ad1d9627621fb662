"""Fair play anyone can check: a sealed token names its round and its place and is bound to a table
(``round_id``, ``seq``, ``context``), a turn clock carried in the token (``clock``, the ``timeout``
move, ``clock-running``, ``turn-expired``, ``at_ms`` and ``auto`` in the record), committed deals
(``commitDeal``, ``fair``, ``record.fair``, ``fair_deal``) and the record the service signs
(``record_receipt``): docs/rules.md §10.25 and §10.26, docs/fair-deals.md.

The service's clock is set by each test (``app.extensions["chkobba.clock"]``), never read from the wall.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.api.sealed_rounds import TIMEOUT_MARGIN_SECONDS
from service.api.sealing import HEADER, LEGACY_FORMAT, Sealer, key_id
from service.app import create_app
from service.rules import deal_round, fair_deck, seeded_deck

from ..support import ROOT, b64url_decode, b64url_encode, counted, deck_starting, ok, problem, strings_in

T0 = 1_780_000_000.0  # the service's clock at the deal, in Unix seconds
TURN, GRACE = 20, 2


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def app() -> Iterator[Flask]:
    app = create_app({"TESTING": True, "ACCESS_LOG": ""})
    app.extensions["chkobba.clock"] = Clock()
    yield app


@pytest.fixture
def client(app: Flask) -> Iterator[FlaskClient]:
    with app.test_client() as test_client:
        yield test_client


def clock_of(app: Flask) -> Clock:
    clock: Clock = app.extensions["chkobba.clock"]
    return clock


def deal(client: FlaskClient, **extra: Any) -> dict[str, Any]:
    body = {"rules": "chkobba", "players": 2, "dealer": 0, "seed": "fair-play", "sealed": True, **extra}
    answer: dict[str, Any] = ok(client.post("/v1/rounds", json=body))
    return answer


def play(client: FlaskClient, token: str, move: dict[str, Any], **extra: Any) -> Any:
    return client.post("/v1/rounds/play", json={"state_token": token, "move": move, **extra})


def top_hint(client: FlaskClient, token: str, **extra: Any) -> dict[str, Any]:
    hints = ok(client.post("/v1/hints", json={"state_token": token, **extra}))
    move: dict[str, Any] = {**hints["moves"][0]["move"], "seat": hints["seat"]}
    return move


def rfc3339(seconds: float) -> str:
    from datetime import UTC, datetime

    moment = datetime.fromtimestamp(seconds, tz=UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{round(seconds * 1000) % 1000:03d}Z"


def play_to_the_end(
    app: Flask, client: FlaskClient, answer: dict[str, Any], step_s: float, **extra: Any
) -> dict[str, Any]:
    """Every move the top hint, ``step_s`` seconds after the one before: the answer that ends the round."""
    while "record" not in answer:
        clock_of(app).now += step_s
        answer = ok(play(client, answer["state_token"], top_hint(client, answer["state_token"], **extra), **extra))
    return answer


# ---- the token names its round, its place and its table -------------------------------------------


def test_a_round_keeps_its_id_and_counts_its_moves_the_cut_included(client: FlaskClient) -> None:
    dealt = deal(client)
    assert dealt["seq"] == 0 and len(dealt["round_id"]) == 22
    cut = ok(play(client, dealt["state_token"], {"cut": "keep", "seat": 1}))
    first = ok(play(client, cut["state_token"], top_hint(client, cut["state_token"])))
    assert [a["round_id"] for a in (cut, first)] == [dealt["round_id"]] * 2
    assert [a["seq"] for a in (cut, first)] == [1, 2]
    assert deal(client)["round_id"] != dealt["round_id"]  # each deal draws its own


def test_an_older_token_replayed_is_told_apart_by_its_place_alone(client: FlaskClient) -> None:
    """The game server's one comparison (docs/integrator.md): an answer is the table's next only if it
    names the table's round, one move further."""
    dealt = deal(client)
    table = {"round_id": dealt["round_id"], "seq": dealt["seq"]}
    newer = ok(play(client, dealt["state_token"], {"cut": "keep", "seat": 1}))
    assert (newer["round_id"], newer["seq"]) == (table["round_id"], table["seq"] + 1)
    table = {"round_id": newer["round_id"], "seq": newer["seq"]}
    # The deal's token again: the service answers (it keeps nothing), but the answer is a move behind.
    stale = ok(play(client, dealt["state_token"], {"cut": "table", "seat": 1}))
    assert (stale["round_id"], stale["seq"]) == (table["round_id"], table["seq"])  # not seq + 1: refused


def test_a_token_is_bound_to_the_context_it_was_dealt_with(client: FlaskClient) -> None:
    dealt = deal(client, context="table-17")
    token = dealt["state_token"]
    before = counted(client, "chkobba_state_tokens_rejected_total", "reason")
    for context in (None, "table-18", "table-17 "):
        extra = {} if context is None else {"context": context}
        for refused in (
            play(client, token, {"cut": "keep", "seat": 1}, **extra),
            client.post("/v1/rounds/view", json={"state_token": token, "seat": 1, **extra}),
            client.post("/v1/hints", json={"state_token": token, **extra}),
        ):
            found = problem(refused, 422, "tampered-state")
            assert list(found["errors"]) == ["state_token"] and "context" in found["detail"]
    ok(play(client, token, {"cut": "keep", "seat": 1}, context="table-17"))
    ok(client.post("/v1/rounds/view", json={"state_token": token, "seat": 1, "context": "table-17"}))
    ok(client.post("/v1/hints", json={"state_token": token, "context": "table-17"}))
    # A round dealt with no context takes none.
    free = deal(client)["state_token"]
    problem(play(client, free, {"cut": "keep", "seat": 1}, context="table-17"), 422, "tampered-state")
    # Counted under a reason of their own (docs/operations.md, "Sealed rounds").
    assert counted(client, "chkobba_state_tokens_rejected_total", "reason") - before == Counter({"context": 10})


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/v1/rounds", {"rules": "scopa", "players": 2, "dealer": 0, "context": "t"}, "context"),
        ("/v1/rounds", {"rules": "scopa", "players": 2, "dealer": 0, "context": "x" * 129, "sealed": True}, "context"),
        ("/v1/rounds", {"rules": "scopa", "players": 2, "dealer": 0, "clock": {"turn_seconds": 20}}, "clock"),
        (
            "/v1/rounds",
            {"rules": "scopa", "players": 2, "dealer": 0, "sealed": True, "clock": {"turn_seconds": 0}},
            "clock.turn_seconds",
        ),
        (
            "/v1/rounds",
            {
                "rules": "scopa",
                "players": 2,
                "dealer": 0,
                "sealed": True,
                "clock": {"turn_seconds": 20, "grace_seconds": 31},
            },
            "clock.grace_seconds",
        ),
        ("/v1/rounds/view", {"state": deal_round("scopa", 2, 0, seed=1)[0].to_json(), "context": "t"}, "context"),
    ],  # fmt: skip
)
def test_context_and_clock_go_with_a_sealed_round(client: FlaskClient, path: str, body: Any, field: str) -> None:
    assert field in problem(client.post(path, json=body), 422, "validation-error")["errors"]


def test_a_token_of_the_previous_format_still_plays_as_a_round_of_its_own(app: Flask, client: FlaskClient) -> None:
    """A rolling upgrade breaks no round: a token sealed as the version before sealed them (format 1: no
    round id, no place) opens, and its round gets an id that every call with it gives alike."""
    import os

    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    sealer: Sealer = app.extensions["chkobba.sealer"]
    state, deck = deal_round("chkobba", 2, 0, seed="legacy", cut="keep")
    packed = "".join("0123456789abcdefghijklmnopqrstuvwxyzABCD"[card.index] for card in deck)
    payload = json.dumps({**state.to_json(), "record": {"deck": packed, "cut": "keep", "moves": []}}).encode()
    header = HEADER.pack(LEGACY_FORMAT, key_id(sealer.keys[0]), int(T0))
    nonce = os.urandom(12)
    token = b64url_encode(header + nonce + AESGCM(sealer.keys[0]).encrypt(nonce, payload, header))
    move = top_hint(client, token)
    first, again = (ok(play(client, token, move)) for _ in range(2))
    assert first["round_id"] == again["round_id"] and first["round_id"].startswith("v1-")
    assert first["seq"] == 1
    assert b64url_decode(first["state_token"])[0] == 2  # sealed again in today's format
    later = ok(play(client, first["state_token"], top_hint(client, first["state_token"])))
    assert (later["round_id"], later["seq"]) == (first["round_id"], 2)


# ---- the turn clock ------------------------------------------------------------------------------


def test_a_clocked_deal_gives_the_deadline_of_the_seat_to_move(client: FlaskClient) -> None:
    dealt = deal(client, clock={"turn_seconds": TURN})
    assert dealt["clock"] == {"seat": 1, "deadline": rfc3339(T0 + TURN)}  # the cutter, dealer + 1
    assert "clock" not in deal(client)  # no clock unless asked for


def test_each_answer_gives_the_next_deadline_from_the_move_just_made(app: Flask, client: FlaskClient) -> None:
    dealt = deal(client, clock={"turn_seconds": TURN})
    clock_of(app).now = T0 + 7.25
    cut = ok(play(client, dealt["state_token"], {"cut": "keep", "seat": 1}))
    assert cut["event"]["at_ms"] == 7250 and "auto" not in cut["event"]
    assert cut["clock"] == {"seat": cut["views"][0]["turn"], "deadline": rfc3339(T0 + 7.25 + TURN)}


def test_a_view_of_a_clocked_round_gives_the_deadline_a_returning_player_needs(app: Flask, client: FlaskClient) -> None:
    dealt = deal(client, clock={"turn_seconds": TURN})
    clock_of(app).now = T0 + 7.25
    cut = ok(play(client, dealt["state_token"], {"cut": "keep", "seat": 1}))
    clock_of(app).now = T0 + 9
    for asked in ({"seat": 0}, {}):  # a seat's view, and a spectator's
        view = ok(client.post("/v1/rounds/view", json={"state_token": cut["state_token"], **asked}))
        assert view["clock"] == cut["clock"]
    unclocked = deal(client)["state_token"]
    assert "clock" not in ok(client.post("/v1/rounds/view", json={"state_token": unclocked, "seat": 0}))


def test_a_move_within_the_grace_is_taken_and_after_it_refused(app: Flask, client: FlaskClient) -> None:
    token = deal(client, clock={"turn_seconds": TURN})["state_token"]
    clock_of(app).now = T0 + TURN + GRACE  # the last instant of the grace
    ok(play(client, token, {"cut": "keep", "seat": 1}))
    clock_of(app).now = T0 + TURN + GRACE + 0.001
    refused = problem(play(client, token, {"cut": "keep", "seat": 1}), 422, "turn-expired")
    assert list(refused["errors"]) == ["move"] and "timeout" in refused["detail"]


def test_a_clock_that_would_outlast_its_token_is_refused_at_the_deal() -> None:
    """A turn whose grace ends after the token that carries it has expired could never be timed out:
    dealRound refuses it, and takes the longest clock the deployment's lifetime allows."""
    app = create_app({"TESTING": True, "ACCESS_LOG": "", "STATE_TOKEN_LIFETIME": 600})
    client = app.test_client()
    longest = 600 - TIMEOUT_MARGIN_SECONDS - GRACE
    body = {"rules": "chkobba", "players": 2, "dealer": 0, "seed": "fair-play", "sealed": True}
    refused = problem(
        client.post("/v1/rounds", json={**body, "clock": {"turn_seconds": longest + 1}}), 422, "clock-outlasts-token"
    )
    assert refused["errors"] == {"clock.turn_seconds": [f"at most {longest} on this deployment"]}
    assert f"{longest} s at most" in refused["detail"]
    ok(client.post("/v1/rounds", json={**body, "clock": {"turn_seconds": longest}}))
    more_grace = {"turn_seconds": longest, "grace_seconds": GRACE + 1}
    problem(client.post("/v1/rounds", json={**body, "clock": more_grace}), 422, "clock-outlasts-token")


def test_the_longest_clock_with_the_default_lifetime_can_still_be_timed_out(app: Flask) -> None:
    """With the default lifetime, the longest clock the deal takes: its timeout move, sent in the minute
    after the grace, is played with the token of the move before."""
    client = app.test_client()
    lifetime = app.extensions["chkobba.sealer"].lifetime_seconds
    turn = lifetime - TIMEOUT_MARGIN_SECONDS - GRACE
    refused = client.post(
        "/v1/rounds",
        json={"rules": "chkobba", "players": 2, "dealer": 0, "sealed": True, "clock": {"turn_seconds": turn + 1}},
    )
    problem(refused, 422, "clock-outlasts-token")
    token = deal(client, clock={"turn_seconds": turn})["state_token"]
    clock_of(app).now = T0 + turn + GRACE + TIMEOUT_MARGIN_SECONDS - 1
    assert ok(play(client, token, {"timeout": True, "seat": 1}))["event"]["auto"] == "timeout"


def test_a_timeout_before_the_deadline_is_clock_running(app: Flask, client: FlaskClient) -> None:
    token = deal(client, clock={"turn_seconds": TURN})["state_token"]
    clock_of(app).now = T0 + TURN - 0.001
    refused = problem(play(client, token, {"timeout": True, "seat": 1}), 422, "clock-running")
    assert list(refused["errors"]) == ["move.timeout"] and "options" not in refused
    problem(play(client, token, {"timeout": True, "seat": 0}), 422, "not-your-turn")  # only for the seat to move


@pytest.mark.parametrize("where", ["unclocked-token", "plain-state"])
def test_a_timeout_needs_a_clocked_round(client: FlaskClient, where: str) -> None:
    if where == "unclocked-token":
        refused = play(client, deal(client)["state_token"], {"timeout": True, "seat": 1})
    else:
        state = deal_round("chkobba", 2, 0, seed="fair-play")[0].to_json()
        refused = client.post("/v1/rounds/play", json={"state": state, "move": {"timeout": True, "seat": 1}})
    problem(refused, 422, "clock-running")


@pytest.mark.parametrize(
    "move", [{"timeout": False, "seat": 1}, {"timeout": True}, {"timeout": True, "seat": 1, "card": "7D"}]
)
def test_a_timeout_move_is_true_with_the_seat_and_nothing_else(client: FlaskClient, move: dict[str, Any]) -> None:
    token = deal(client, clock={"turn_seconds": TURN})["state_token"]
    problem(play(client, token, move), 422, "validation-error")


def test_after_the_deadline_the_timeout_plays_the_top_club_hint_for_the_seat(app: Flask, client: FlaskClient) -> None:
    dealt = deal(client, clock={"turn_seconds": TURN})
    cut = ok(play(client, dealt["state_token"], {"cut": "keep", "seat": 1}))
    clock_of(app).now = T0 + TURN  # the cut was made at the deal's instant: this is the deadline
    hinted = top_hint(client, cut["state_token"])
    played = ok(play(client, cut["state_token"], {"timeout": True, "seat": hinted["seat"]}))
    event = played["event"]
    assert (event["card"], event["auto"], event["at_ms"]) == (hinted["card"], "timeout", TURN * 1000)
    plain = ok(play(client, cut["state_token"], hinted))
    assert {k: v for k, v in event.items() if k not in ("auto", "at_ms")} == {
        k: v for k, v in plain["event"].items() if k != "at_ms"
    }
    assert played["views"] == plain["views"]


def test_a_clocked_records_moves_carry_their_times_and_it_replays_valid(app: Flask, client: FlaskClient) -> None:
    dealt = deal(client, clock={"turn_seconds": TURN})
    clock_of(app).now = T0 + TURN + 5  # the cutter stalled: its move is played for it
    cut = ok(play(client, dealt["state_token"], {"timeout": True, "seat": 1}))
    end = play_to_the_end(app, client, cut, step_s=3)
    record = end["record"]
    assert record["clock"] == {"turn_seconds": TURN, "grace_seconds": GRACE, "dealt_at": rfc3339(T0)}
    times = [move["at_ms"] for move in record["moves"]]
    assert times == [(TURN + 5 + 3 * i) * 1000 for i in range(len(times))]
    assert record["moves"][0]["auto"] == "timeout" and not any("auto" in m for m in record["moves"][1:])
    replayed = ok(client.post("/v1/rounds/replay", json=record))
    assert (replayed["valid"], replayed["complete"], replayed["breakdown"]) == (True, True, end["breakdown"])
    assert [m.get("at_ms") for m in replayed["moves"]] == times and replayed["moves"][0]["auto"] == "timeout"
    assert "clock" not in end  # nobody is to move once the round is over


@pytest.fixture
def clocked_record(app: Flask, client: FlaskClient) -> dict[str, Any]:
    dealt = deal(client, clock={"turn_seconds": TURN})
    clock_of(app).now = T0 + TURN + 1
    cut = ok(play(client, dealt["state_token"], {"timeout": True, "seat": 1}))
    clock_of(app).now += 4
    first = ok(play(client, cut["state_token"], top_hint(client, cut["state_token"])))
    clock_of(app).now += TURN + 10
    second = ok(play(client, first["state_token"], {"timeout": True, "seat": first["views"][0]["turn"]}))
    record: dict[str, Any] = play_to_the_end(app, client, second, step_s=1)["record"]
    assert ok(client.post("/v1/rounds/replay", json=record))["valid"]
    return record


def replayed_stop(client: FlaskClient, record: dict[str, Any]) -> dict[str, Any]:
    answer = ok(client.post("/v1/rounds/replay", json=record))
    assert answer["valid"] is False
    stop: dict[str, Any] = answer["moves"][answer["first_illegal"]]
    return {"index": answer["first_illegal"], **stop}


def test_a_record_whose_timeout_came_before_the_deadline_is_refused(client: FlaskClient, clocked_record: Any) -> None:
    edited = copy.deepcopy(clocked_record)
    edited["moves"][2]["at_ms"] = edited["moves"][1]["at_ms"] + TURN * 1000 - 1  # a move played for a seat early
    for move in edited["moves"][3:]:
        move["at_ms"] -= 15_000
    stop = replayed_stop(client, edited)
    assert (stop["index"], stop["code"]) == (2, "clock-running")


def test_a_record_whose_move_came_after_the_grace_is_refused(client: FlaskClient, clocked_record: Any) -> None:
    edited = copy.deepcopy(clocked_record)
    late = (edited["moves"][3]["at_ms"] - edited["moves"][2]["at_ms"]) + (TURN + GRACE) * 1000 + 1
    for move in edited["moves"][3:]:
        move["at_ms"] += late
    stop = replayed_stop(client, edited)
    assert (stop["index"], stop["code"]) == (3, "turn-expired")


def test_a_record_whose_auto_move_is_not_the_default_move_is_refused(client: FlaskClient, clocked_record: Any) -> None:
    edited = copy.deepcopy(clocked_record)
    edited["moves"][0]["cut"] = "table" if edited["moves"][0]["cut"] == "keep" else "keep"
    stop = replayed_stop(client, edited)
    assert (stop["index"], stop["code"]) == (0, "not-the-default-move")


@pytest.mark.parametrize("edit", ["missing", "going-back"])
def test_a_clocked_record_gives_every_move_its_time_in_order(
    client: FlaskClient, clocked_record: Any, edit: str
) -> None:
    edited = copy.deepcopy(clocked_record)
    if edit == "missing":
        del edited["moves"][5]["at_ms"]
    else:
        edited["moves"][5]["at_ms"] = edited["moves"][4]["at_ms"] - 1
    stop = replayed_stop(client, edited)
    assert (stop["index"], stop["code"]) == (5, "bad-time")


def test_an_auto_move_in_a_record_without_a_clock_is_clock_running(client: FlaskClient, clocked_record: Any) -> None:
    unclocked = {k: v for k, v in clocked_record.items() if k != "clock"}
    stop = replayed_stop(client, unclocked)
    assert (stop["index"], stop["code"]) == (0, "clock-running")


def test_a_match_record_judges_each_rounds_clock(client: FlaskClient, clocked_record: Any) -> None:
    edited = copy.deepcopy(clocked_record)
    edited["moves"][5]["at_ms"] = edited["moves"][4]["at_ms"] - 1
    match = {k: clocked_record[k] for k in ("rules", "players", "dealer")}
    good = ok(client.post("/v1/matches/replay", json={**match, "rounds": [clocked_record]}))
    assert good["valid"] and good["rounds"][0]["moves"][0]["auto"] == "timeout"
    bad = ok(client.post("/v1/matches/replay", json={**match, "rounds": [edited]}))
    assert bad["first_illegal"] == {"round": 0, "move": 5} and bad["rounds"][0]["moves"][5]["code"] == "bad-time"


# ---- committed deals ---------------------------------------------------------------------------------


def commit(client: FlaskClient) -> dict[str, Any]:
    found: dict[str, Any] = ok(client.post("/v1/deals/commitments", json={}))
    return found


def test_a_commitment_is_the_sha256_of_a_secret_the_answer_does_not_hold(client: FlaskClient) -> None:
    first, second = commit(client), commit(client)
    assert set(first) == {"commitment", "commit_token"}
    assert len(first["commitment"]) == 64 and set(first["commitment"]) <= set("0123456789abcdef")
    assert first["commitment"] != second["commitment"]  # a new server seed every time
    problem(client.post("/v1/deals/commitments", json={"seed": "mine"}), 422, "validation-error")


def test_a_committed_deal_reveals_its_server_seed_with_the_record_and_never_before(
    app: Flask, client: FlaskClient
) -> None:
    committed = commit(client)
    seeds = ["alice", "bob"]
    fair = {"commit_token": committed["commit_token"], "seeds": seeds}
    body = {"rules": "chkobba", "players": 2, "dealer": 0, "sealed": True, "fair": fair}
    answers = [ok(client.post("/v1/rounds", json=body))]
    answers.append(ok(play(client, answers[-1]["state_token"], {"cut": "keep", "seat": 1})))
    while "record" not in answers[-1]:
        token = answers[-1]["state_token"]
        answers.append(ok(play(client, token, top_hint(client, token))))
    record = answers[-1]["record"]
    server_seed = record["fair"]["server_seed"]
    assert record["fair"] == {"commitment": committed["commitment"], "seeds": seeds, "server_seed": server_seed}
    assert hashlib.sha256(bytes.fromhex(server_seed)).hexdigest() == committed["commitment"]
    assert record["deck"] == [c.code for c in fair_deck(bytes.fromhex(server_seed), committed["commitment"], seeds)]
    for answer in answers[:-1]:  # no answer before the end holds the server seed, in any form
        text = json.dumps(answer)
        assert server_seed not in text and not {server_seed, server_seed.upper()} & strings_in(answer)
        assert b64url_encode(bytes.fromhex(server_seed)) not in text
    assert "fair" not in json.dumps(answers[0])  # nor the seeds' derivation
    replayed = ok(client.post("/v1/rounds/replay", json=record))
    assert replayed["valid"] and replayed["fair_deal"] == "verified" and "fair_deal_reason" not in replayed


def test_a_committed_deal_replays_as_a_mismatch_when_anything_differs(client: FlaskClient) -> None:
    server_seed = bytes(range(32))
    commitment = hashlib.sha256(server_seed).hexdigest()
    seeds = ["alice", "bob"]
    deck = [c.code for c in fair_deck(server_seed, commitment, seeds)]
    record = {
        "rules": "chkobba", "players": 2, "dealer": 0, "deck": deck, "cut": "keep", "moves": [],
        "fair": {"commitment": commitment, "seeds": seeds, "server_seed": server_seed.hex()},
    }  # fmt: skip
    assert ok(client.post("/v1/rounds/replay", json=record))["fair_deal"] == "verified"
    edits = {
        "another-seed": ("seeds", ["alice", "bobby"], "deck is not the one"),
        "another-server-seed": ("server_seed", bytes(range(1, 33)).hex(), "not the commitment"),
        "seeds-for-another-table": ("seeds", ["alice", "bob", "carol"], "one per seat"),
    }
    for name, (field, value, reason) in edits.items():
        edited = {**record, "fair": {**record["fair"], field: value}}
        answer = ok(client.post("/v1/rounds/replay", json=edited))
        assert answer["fair_deal"] == "mismatch" and reason in answer["fair_deal_reason"], name
        assert answer["valid"], name  # a finding about the deal, not about its moves
    shuffled = {**record, "deck": [c.code for c in seeded_deck("not the derivation")]}
    assert ok(client.post("/v1/rounds/replay", json=shuffled))["fair_deal"] == "mismatch"
    assert "fair_deal" not in ok(
        client.post("/v1/rounds/replay", json={k: v for k, v in record.items() if k != "fair"})
    )
    for one, verdict in ((record, "verified"), (shuffled, "mismatch")):  # each round of a match record too
        match = {"rules": "chkobba", "players": 2, "dealer": 0, "rounds": [one]}
        assert ok(client.post("/v1/matches/replay", json=match))["rounds"][0]["fair_deal"] == verdict


def test_a_committed_deal_takes_one_seed_per_seat_and_no_deck(client: FlaskClient) -> None:
    token = commit(client)["commit_token"]
    base = {"rules": "chkobba", "players": 2, "dealer": 0, "sealed": True}
    refused = problem(
        client.post("/v1/rounds", json={**base, "fair": {"commit_token": token, "seeds": ["a", "b", "c"]}}),
        422,
        "wrong-seed-count",
    )
    assert list(refused["errors"]) == ["fair.seeds"]
    for extra, field in (({"seed": "x"}, "seed"), ({"sealed": False}, "fair")):
        body = {**base, **extra, "fair": {"commit_token": token, "seeds": ["a", "b"]}}
        assert field in problem(client.post("/v1/rounds", json=body), 422, "validation-error")["errors"]
    long_seed = {**base, "fair": {"commit_token": token, "seeds": ["a", "b" * 129]}}
    problem(client.post("/v1/rounds", json=long_seed), 422, "validation-error")


def test_a_commit_token_and_a_state_token_do_not_stand_for_each_other(client: FlaskClient) -> None:
    committed = commit(client)
    state_token = deal(client)["state_token"]
    problem(play(client, committed["commit_token"], {"cut": "keep", "seat": 1}), 422, "tampered-state")
    body = {"rules": "chkobba", "players": 2, "dealer": 0, "sealed": True}
    refused = problem(
        client.post("/v1/rounds", json={**body, "fair": {"commit_token": state_token, "seeds": ["a", "b"]}}),
        422,
        "tampered-state",
    )
    assert list(refused["errors"]) == ["fair.commit_token"]


def test_a_commit_token_expires_as_a_state_token_does(app: Flask, client: FlaskClient) -> None:
    token = commit(client)["commit_token"]
    clock_of(app).now = T0 + app.extensions["chkobba.sealer"].lifetime_seconds + 1
    body = {
        "rules": "chkobba",
        "players": 2,
        "dealer": 0,
        "sealed": True,
        "fair": {"commit_token": token, "seeds": ["a", "b"]},
    }
    problem(client.post("/v1/rounds", json=body), 422, "expired-state")


# ---- the record the service signs ----------------------------------------------------------------


def referee_check() -> dict[str, Any]:
    """The receipt check of docs/referee.md, run as the page writes it: its record_verifies and
    strict_loads."""
    page = (ROOT / "docs" / "referee.md").read_text(encoding="utf-8")
    (block,) = [b for b in page.split("```python\n")[1:] if "def record_verifies" in b]
    names: dict[str, Any] = {}
    exec(block.split("```", 1)[0], names)  # noqa: S102 - the page's own code
    return names


REFEREE = referee_check()
record_verifies = REFEREE["record_verifies"]


def test_the_record_that_ends_a_sealed_round_is_signed_and_any_edit_shows(app: Flask, client: FlaskClient) -> None:
    end: dict[str, Any] = {"record": {"moves": []}}
    while len(end["record"]["moves"]) < 8:  # about one committed deal in a hundred is void: no moves to edit
        committed = commit(client)
        body = {"rules": "chkobba", "players": 2, "dealer": 0, "sealed": True, "clock": {"turn_seconds": TURN},
                "fair": {"commit_token": committed["commit_token"], "seeds": ["a", "b"]}}  # fmt: skip
        end = play_to_the_end(app, client, ok(client.post("/v1/rounds", json=body)), step_s=2)
    record, receipt = end["record"], end["record_receipt"]
    jwks = ok(client.get("/.well-known/jwks.json"))
    assert record_verifies(record, receipt, jwks)
    edits = [
        ("moves", 3, "at_ms", lambda v: v + 1),
        ("moves", 0, "auto", lambda v: "timeout"),
        ("moves", 7, "card", lambda v: "AD" if v != "AD" else "2D"),
        ("fair", None, "seeds", lambda v: ["a", "c"]),
        ("clock", None, "turn_seconds", lambda v: v + 1),
        ("dealer", None, None, lambda v: 1),
    ]
    for top, index, field, change in edits:
        edited = copy.deepcopy(record)
        holder = edited[top] if index is None else edited[top][index]
        if field is None:
            edited[top] = change(edited[top])
        else:
            holder[field] = change(holder.get(field))
        assert not record_verifies(edited, receipt, jwks), (top, index, field)


def test_the_referees_check_says_false_without_a_receipt_and_refuses_a_key_given_twice(client: FlaskClient) -> None:
    deck = deck_starting("AD", "2D", "3D", "4D", "5D", "6D", "7D", "7H", "7S", "KD")  # a void deal: its record
    body = {"rules": "chkobba", "players": 2, "dealer": 0, "deck": deck, "cut": "keep", "sealed": True}
    dealt = ok(client.post("/v1/rounds", json=body))
    jwks = ok(client.get("/.well-known/jwks.json"))
    for receipt in (None, 5, "", "a.b"):
        assert record_verifies(dealt["record"], receipt, jwks) is False
    text = json.dumps(dealt)
    twice = text.replace('"record": {', '"record": {"dealer": 1, ', 1)
    assert json.loads(twice)["record"]["dealer"] == 0  # the last copy kept: what strict_loads refuses
    with pytest.raises(ValueError, match="twice"):
        REFEREE["strict_loads"](twice)
    assert REFEREE["strict_loads"](text) == dealt


def test_a_void_deal_ends_the_round_with_its_record_signed(client: FlaskClient) -> None:
    deck = deck_starting("AD", "2D", "3D", "4D", "5D", "6D", "7D", "7H", "7S", "KD")
    body = {"rules": "chkobba", "players": 2, "dealer": 0, "deck": deck, "cut": "keep", "sealed": True}
    dealt = ok(client.post("/v1/rounds", json=body))
    assert dealt["views"][0]["phase"] == "redeal"
    assert record_verifies(dealt["record"], dealt["record_receipt"], ok(client.get("/.well-known/jwks.json")))


def test_every_answer_holding_a_commit_token_or_a_hidden_state_is_not_stored(client: FlaskClient) -> None:
    """commitDeal's commit_token seals the server seed; an unsealed deal's or move's answer holds the
    whole state, deck and hands: no cache may keep them, nor a problem of those operations."""
    committed = client.post("/v1/deals/commitments", json={})
    assert "commit_token" in ok(committed) and committed.headers["Cache-Control"] == "no-store"
    assert client.post("/v1/deals/commitments", json={"seed": "x"}).headers["Cache-Control"] == "no-store"
    plain = client.post("/v1/rounds", json={"rules": "chkobba", "players": 2, "dealer": 0, "seed": "open"})
    dealt = ok(plain)
    assert "deck" in dealt and plain.headers["Cache-Control"] == "no-store"
    played = client.post("/v1/rounds/play", json={"state": dealt["state"], "move": {"cut": 7}})
    assert played.headers["Cache-Control"] == "no-store", played.status_code
    for cacheable in ("/openapi.json", "/.well-known/jwks.json", "/v1/rulesets"):
        assert "no-store" not in client.get(cacheable).headers.get("Cache-Control", ""), cacheable


def test_every_operation_whose_example_answer_holds_a_token_is_not_stored() -> None:
    from service.app import NOT_STORED  # noqa: PLC0415

    document = json.loads((ROOT / "openapi.json").read_text(encoding="utf-8"))
    for path in document["paths"].values():
        for op in (op for op in path.values() if isinstance(op, dict) and "responses" in op):
            answer = json.dumps(op.get("responses", {}).get("200", {}))
            if '"state_token"' in answer or '"commit_token"' in answer:
                assert op["operationId"] in NOT_STORED, op["operationId"]
