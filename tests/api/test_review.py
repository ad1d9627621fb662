"""reviewRound (POST /v1/rounds/review): a replayRound body -> each move's loss against the best move
its mover could know of, and a judgment; per seat the loss and an accuracy (docs/strategy.md, Review).

Whole rounds are played through the service (dealRound, suggestMoves, playRound): one seat follows the
expert's top hint, so the review must find nothing to fault in its moves; the other plays the last-ranked move
whenever it has a choice, so the review must fault every one of those moves."""

from __future__ import annotations

from typing import Any

import pytest

from ..support import ok, problem

JUDGMENTS = {"forced", "best", "good", "inaccuracy", "mistake", "blunder"}
CONTRACT_KEYS = {"index", "seat", "played", "best", "loss", "judgment"}  # the contract's fields
MOVE_KEYS = CONTRACT_KEYS | {"played_value", "best_value", "legal_moves", "exact"}


def played_record(client: Any, rules: str, players: int, seed: str, worst: frozenset[int]) -> dict[str, Any]:
    """A round played through the service from the deal of ``seed``: the seats in ``worst`` play their
    last-ranked move, the others the expert's top hint; the record as replayRound takes it."""
    dealt = ok(client.post("/v1/rounds", json={"rules": rules, "players": players, "dealer": 0, "seed": seed}))
    state, moves = dealt["state"], []
    while state["phase"] in ("play", "cut"):
        hints = ok(client.post("/v1/hints", json={"state": state, "limit": 100, "level": "expert"}))["moves"]
        move = hints[-1 if state["turn"] in worst else 0]["move"]
        state = ok(client.post("/v1/rounds/play", json={"state": state, "move": move}))["state"]
        moves.append(move)
    return {"rules": rules, "players": players, "dealer": 0, "deck": dealt["deck"], "moves": moves}


@pytest.mark.parametrize(("rules", "players"), [("chkobba", 2), ("chkobba-crp", 4), ("scopa", 2)])
def test_a_whole_round_the_hinted_seat_gives_nothing_away_and_the_worst_moves_are_faulted(
    client: Any, rules: str, players: int
) -> None:
    record = played_record(client, rules, players, f"review-api/{rules}/{players}", frozenset({1}))
    review = ok(client.post("/v1/rounds/review", json=record))
    assert set(review) == {"moves", "seats", "first_illegal", "first_illegal_code", "complete"}
    assert review["first_illegal"] is None and review["first_illegal_code"] is None and review["complete"] is True
    assert [m["index"] for m in review["moves"]] == list(range(len(record["moves"])))
    for move, reviewed in zip(record["moves"], review["moves"], strict=True):
        assert set(reviewed) == MOVE_KEYS
        assert reviewed["judgment"] in JUDGMENTS and reviewed["loss"] >= 0
        if "cut" in move:
            assert reviewed["played"] == {"cut": move["cut"]}
        else:
            assert reviewed["played"]["card"] == move["card"]
            assert set(reviewed["played"]["capture"]) == set(move["capture"])
        if reviewed["seat"] != 1:
            assert reviewed["loss"] == 0 and reviewed["judgment"] in ("best", "forced")
        elif reviewed["legal_moves"] > 1:
            assert reviewed["judgment"] != "forced"
        else:
            assert reviewed["judgment"] == "forced" and reviewed["best"] == reviewed["played"]
    seats = review["seats"]
    assert [s["seat"] for s in seats] == list(range(players))
    for seat in seats:
        mine = [m for m in review["moves"] if m["seat"] == seat["seat"]]
        assert seat["moves"] == len(mine)
        assert seat["forced"] == sum(m["judgment"] == "forced" for m in mine)
        assert seat["loss"] == pytest.approx(sum(m["loss"] for m in mine), abs=1e-3)
    assert seats[0]["loss"] == 0 and seats[0]["accuracy"] == 100.0
    assert seats[1]["loss"] > 1 and seats[1]["accuracy"] < 90  # the last-ranked move, every time


def test_a_review_stops_at_the_first_illegal_move(client: Any) -> None:
    record = played_record(client, "scopa", 2, "review-api/illegal", frozenset())
    illegal = {"card": record["moves"][0]["card"]}  # played again at move 2: no longer in the hand
    record["moves"] = [*record["moves"][:2], illegal, *record["moves"][3:]]
    review = ok(client.post("/v1/rounds/review", json=record))
    assert review["first_illegal"] == 2 and review["complete"] is False
    assert review["first_illegal_code"] == "card-not-held"  # as replayRound says why
    replayed = ok(client.post("/v1/rounds/replay", json=record))
    assert replayed["moves"][2]["code"] == review["first_illegal_code"]
    assert [m["index"] for m in review["moves"]] == [0, 1]
    assert [s["moves"] for s in review["seats"]] == [1, 1]


def test_an_empty_record_reviews_nothing(client: Any) -> None:
    record = played_record(client, "scopa", 2, "review-api/empty", frozenset())
    review = ok(client.post("/v1/rounds/review", json={**record, "moves": []}))
    assert review == {
        "moves": [],
        "seats": [
            {"seat": 0, "loss": 0.0, "accuracy": None, "moves": 0, "forced": 0},
            {"seat": 1, "loss": 0.0, "accuracy": None, "moves": 0, "forced": 0},
        ],
        "first_illegal": None,
        "first_illegal_code": None,
        "complete": False,
    }


def test_refusals_are_problems_with_their_codes(client: Any) -> None:
    record = played_record(client, "scopa", 2, "review-api/refused", frozenset())
    problem(client.post("/v1/rounds/review", json={**record, "deck": ["8D", *record["deck"][1:]]}), 422, "invalid-card")
    problem(client.post("/v1/rounds/review", json={**record, "rules": "belote"}), 422, "unknown-profile")
    problem(client.post("/v1/rounds/review", json={**record, "players": 5}), 422, "validation-error")
    problem(client.post("/v1/rounds/review", data="{", content_type="application/json"), 400, "malformed-json")
    problem(client.post("/v1/rounds/review", data="x", content_type="text/plain"), 415, "unsupported-media-type")


@pytest.mark.parametrize("path", ["/v1/rounds/replay", "/v1/rounds/review"])
def test_a_records_clock_gives_when_it_was_dealt_as_an_rfc_3339_date_time(client: Any, path: str) -> None:
    record = played_record(client, "scopa", 2, "review-api/clock", frozenset())
    clock = {"turn_seconds": 30, "grace_seconds": 2}
    for wrong in ("", "2026-12-02", "2026-02-30T10:00:00Z", "2026-12-02T10:00:00"):
        body = {**record, "moves": [], "clock": {**clock, "dealt_at": wrong}}
        assert list(problem(client.post(path, json=body), 422, "validation-error")["errors"]) == ["clock.dealt_at"]
    ok(client.post(path, json={**record, "moves": [], "clock": {**clock, "dealt_at": "2026-12-02T10:00:00.125Z"}}))
