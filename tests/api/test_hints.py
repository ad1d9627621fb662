"""suggestMoves (POST /v1/hints): every legal move of the seat to move, ranked, for a plain or sealed state
(docs/strategy.md, "Move hints").

Expected moves are derived here from docs/rules.md (matches first, then sums) for hand-built tables; whole
rounds are played through playRound by following the hints, so every hint is checked by the service's
own referee.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from ..support import CANONICAL, deck_starting, ok, problem, strings_in

MOVE_KEYS = {"move", "score", "reasons"}
# The codes docs/strategy.md "Move hints" documents.
REASONS = {
    "takes-seven-of-diamonds",
    "sweeps",
    "takes-sevens",
    "takes-sixes",
    "takes-diamonds",
    "takes-cards",
    "blocks-sweep",
    "sweep-risk",
    "leaves-seven-of-diamonds",
    "lays-scoring-card",
    "gives-captures",
    "keeps-seven",
    "exact-endgame",
    "wins-last-capture",
    "keeps-cut-card",
    "tables-cut-card",
}


def hints(client, **body):
    return client.post("/v1/hints", json=body)


def deal(client, **body) -> Any:
    return ok(client.post("/v1/rounds", json=body))


def check_shape(body: dict[str, Any]) -> None:
    assert set(body) == {"seat", "moves", "move_count", "shortened_by"}
    assert body["moves"], body
    # Real rounds: every legal move (the default limit is 20), and no budget reached.
    assert body["move_count"] == len(body["moves"]) and body["shortened_by"] is None
    for entry in body["moves"]:
        assert set(entry) == MOVE_KEYS
        assert isinstance(entry["score"], int | float)
        assert set(entry["reasons"]) <= REASONS
        assert len(entry["reasons"]) == len(set(entry["reasons"]))
    scores = [entry["score"] for entry in body["moves"]]
    assert scores == sorted(scores, reverse=True)


def test_a_plain_state_every_move_of_the_seat_to_move(client):
    # Dealer 0, cut kept: seat 1 (the leader) holds AD 2D 3D; seat 0 4D 5D 6D; the table 7D JD QD KD.
    state = deal(client, rules="chkobba", players=2, dealer=0, deck=CANONICAL, cut="keep")["state"]
    body = ok(hints(client, state=state))
    check_shape(body)
    assert body["seat"] == 1
    # No sum of the table (7, 9, 8, 10) makes 1, 2 or 3: each card is laid, three moves.
    assert sorted(entry["move"]["card"] for entry in body["moves"]) == ["2D", "3D", "AD"]
    assert all(entry["move"]["capture"] == [] for entry in body["moves"])
    # The seat may name itself.
    assert ok(hints(client, state=state, seat=1)) == body


def test_every_capture_option_is_a_move_and_the_seven_of_diamonds_comes_first(client):
    # Dealer 0: seat 1 takes 7H QH KS, seat 0 2S 3S 4S, the table 7C 7D AS 5C.
    deck = deck_starting("7H", "QH", "KS", "2S", "3S", "4S", "7C", "7D", "AS", "5C")
    state = deal(client, rules="chkobba", players=2, dealer=0, deck=deck, cut="keep")["state"]
    body = ok(hints(client, state=state))
    check_shape(body)
    moves = [(entry["move"]["card"], sorted(entry["move"]["capture"])) for entry in body["moves"]]
    # In chkobba Q is 8 and K 10 (docs/rules.md §1). 7H must take one 7, 7C or 7D (§4.1); QH takes 7C+AS or
    # 7D+AS (§4.2); no set of 7, 7, 1, 5 adds up to 10, so KS is laid (§4.4).
    assert sorted(moves) == sorted(
        [("7H", ["7C"]), ("7H", ["7D"]), ("QH", ["7C", "AS"]), ("QH", ["7D", "AS"]), ("KS", [])]
    )
    best = body["moves"][0]
    assert "7D" in best["move"]["capture"]
    assert "takes-seven-of-diamonds" in best["reasons"]


def test_following_the_hints_plays_a_whole_round(client):
    """Every seat plays its first hint through playRound until the round is over: each is legal."""
    body = deal(client, rules="chkobba-crp", players=3, dealer=2, seed="hints-api")
    state = body["state"]
    moves = 0
    while state["turn"] is not None:
        suggested = ok(hints(client, state=state))
        check_shape(suggested)
        assert suggested["seat"] == state["turn"]
        state = ok(client.post("/v1/rounds/play", json={"state": state, "move": suggested["moves"][0]["move"]}))[
            "state"
        ]
        moves += 1
    assert state["phase"] == "over" and moves == 36


def test_a_sealed_state_gets_the_same_hints_and_shows_nothing_hidden(client):
    plain = deal(client, rules="scopa", players=2, dealer=0, seed="hints-sealed")["state"]
    sealed = deal(client, rules="scopa", players=2, dealer=0, seed="hints-sealed", sealed=True)
    body = ok(hints(client, state_token=sealed["state_token"]))
    assert body == ok(hints(client, state=plain))
    seat = body["seat"]
    hidden = {c for other, hand in enumerate(plain["hands"]) if other != seat for c in hand} | set(plain["stock"])
    assert not hidden & strings_in(body)
    assert strings_in(body) & set(CANONICAL) <= set(plain["hands"][seat]) | set(plain["table"])
    assert "state_token" not in body and "state" not in body


def test_a_seat_that_is_not_to_move_is_refused(client):
    state = deal(client, rules="chkobba", players=2, dealer=0, seed="hints-turn", cut="keep")["state"]
    assert state["turn"] == 1
    body = problem(hints(client, state=state, seat=0), 422, "not-your-turn")
    assert body["errors"] == {"seat": ["it is seat 1's turn, not seat 0's"]}
    assert "legal" not in body


def test_a_sealed_state_and_the_wrong_seat_shows_no_hand(client):
    sealed = deal(client, rules="chkobba", players=4, dealer=3, seed="hints-sealed-4", cut="keep", sealed=True)
    body = problem(hints(client, state_token=sealed["state_token"], seat=1), 422, "not-your-turn")
    assert not strings_in(body) & set(CANONICAL)


def test_the_cut_phase_suggests_keep_or_table(client):
    # Dealer 1: seat 0 cuts and has drawn the top card, 7D: keep it.
    deck = deck_starting("7D")
    state = deal(client, rules="chkobba", players=2, dealer=1, deck=deck)["state"]
    assert state["phase"] == "cut"
    body = ok(hints(client, state=state))
    check_shape(body)
    assert body["seat"] == 0
    assert [entry["move"] for entry in body["moves"]] == [{"cut": "keep"}, {"cut": "table"}]
    assert "keeps-seven" in body["moves"][0]["reasons"]
    # A king drawn is put on the table.
    state = deal(client, rules="chkobba", players=2, dealer=1, deck=deck_starting("KS"))["state"]
    assert [entry["move"] for entry in ok(hints(client, state=state))["moves"]] == [{"cut": "table"}, {"cut": "keep"}]


def test_nobody_moves_in_phase_redeal(client):
    # Dealer 0, cut kept: the table (cards 7 to 10 of the deck) holds three sevens: deal again.
    deck = deck_starting("AD", "2D", "3D", "4D", "5D", "6D", "7S", "7H", "7C", "KD")
    state = deal(client, rules="chkobba", players=2, dealer=0, deck=deck, cut="keep")["state"]
    assert state["phase"] == "redeal"
    problem(hints(client, state=state), 422, "wrong-phase")


def test_nobody_moves_once_the_round_is_over(client):
    state = deal(client, rules="scopa", players=2, dealer=0, seed="hints-over")["state"]
    while state["turn"] is not None:
        move = ok(hints(client, state=state))["moves"][-1]["move"]  # the worst move is legal too
        state = ok(client.post("/v1/rounds/play", json={"state": state, "move": move}))["state"]
    assert state["phase"] == "over"
    problem(hints(client, state=state), 422, "wrong-phase")


def test_the_same_request_gets_the_same_answer(client):
    state = deal(client, rules="chkobba", players=4, dealer=1, seed="hints-same", cut="table")["state"]
    first = hints(client, state=state).get_data()
    assert hints(client, state=state).get_data() == first
    assert json.loads(first)["seat"] == 2


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({}, "state"),
        ({"seat": 0}, "state"),
        ({"state_token": "x", "move": {"card": "7D"}}, "move"),
        ({"state_token": "x", "seat": 4}, "seat"),
        ({"state_token": "x", "seat": True}, "seat"),
    ],
)
def test_a_request_that_breaks_the_contract(client, body, where):
    found = problem(hints(client, **body), 422, "validation-error")
    assert where in found["errors"], found


def test_a_state_or_a_token_not_both(client):
    state = deal(client, rules="scopa", players=2, dealer=0, seed="hints-both")["state"]
    found = problem(hints(client, state=state, state_token="x"), 422, "validation-error")
    assert "state_token" in found["errors"], found


def test_a_bad_state_is_a_bad_state(client):
    state = deal(client, rules="chkobba", players=2, dealer=0, seed="hints-bad", cut="keep")["state"]
    state["turn"] = 0
    problem(hints(client, state=state), 422, "bad-state")


# ---- the limit and the budgets (docs/strategy.md, "Move hints": "What a call may cost") -------------------------

# As many legal moves as a real position has (docs/rules.md §10.20: a table holds one card a value beside the
# pairs dealt). Dealer 0, the cut kept: the deal lays 3S 3C 6S 6C, and the first hand lays QS 7S 5S 4S 2S AS,
# highest first, each where no card of its value lies and no set of table cards adds up to it (§4.4); the
# refill gives seat 1 KH KS KC. In chkobba K is 10 and Q 8 (§1): each king takes one of 16 sets adding up to
# 10 (8+2; 7+3 and 6+4, twice each; 7+2+1; 6+3+1, four times; 5+4+1; 5+3+2, twice; 4+3+3; 4+3+2+1, twice):
# 48 moves (§4.2).
HUGE_DECK = deck_starting("QS", "5S", "2S", "7S", "4S", "AS", "3S", "3C", "6S", "6C", "KH", "KS", "KC")
HUGE_PLAYS = ["QS", "7S", "5S", "4S", "2S", "AS"]


@pytest.fixture(scope="module")
def huge_state_json(client) -> dict[str, Any]:
    state = deal(client, rules="chkobba", players=2, dealer=0, deck=HUGE_DECK, cut="keep")["state"]
    for card in HUGE_PLAYS:
        state = ok(client.post("/v1/rounds/play", json={"state": state, "move": {"card": card}}))["state"]
    assert state["table"] == ["3S", "3C", "6S", "6C", "QS", "7S", "5S", "4S", "2S", "AS"]
    assert state["turn"] == 1 and state["hands"][1] == ["KH", "KS", "KC"] and len(state["stock"]) == 24
    return state


def test_a_huge_table_answers_the_best_moves_and_says_a_step_budget_cut_the_search(client, huge_state_json):
    body = ok(hints(client, state=huge_state_json))
    # 48 legal moves, the 20 best of them answered (the default limit).
    assert body["move_count"] == 48
    assert len(body["moves"]) == 20
    # Two players with a stock: the reply and our next capture, weighed for each move, outrun the step budget.
    assert body["shortened_by"] == "steps"
    for entry in body["moves"]:
        assert entry["move"]["card"] in {"KH", "KS", "KC"} and entry["move"]["capture"]
        assert set(entry["reasons"]) <= REASONS and "sweep-risk" not in entry["reasons"]  # no reply weighed
    scores = [entry["score"] for entry in body["moves"]]
    assert scores == sorted(scores, reverse=True)
    # The step budget depends on the input only: the same answer, byte for byte.
    assert hints(client, state=huge_state_json).get_data() == hints(client, state=huge_state_json).get_data()


def test_the_limit_keeps_the_best_moves_in_order(client, huge_state_json):
    every = ok(hints(client, state=huge_state_json, limit=100))
    assert len(every["moves"]) == every["move_count"] == 48  # fewer than the largest limit: every one
    for limit in (1, 3, 20):
        body = ok(hints(client, state=huge_state_json, limit=limit))
        assert body["moves"] == every["moves"][:limit]
        assert body["move_count"] == every["move_count"]
    # A real round: fewer moves than the limit, every one answered.
    state = deal(client, rules="chkobba", players=2, dealer=0, seed="hints-limit", cut="keep")["state"]
    full = ok(hints(client, state=state))
    first = ok(hints(client, state=state, limit=1))
    assert first["moves"] == full["moves"][:1] and first["move_count"] == full["move_count"] == len(full["moves"])


def test_the_answer_stays_small_at_the_largest_limit(client, huge_state_json):
    # The most moves a real position has, every one answered at the largest limit: well below 32 KiB.
    response = hints(client, state=huge_state_json, limit=100)
    assert response.status_code == 200
    assert len(response.get_json()["moves"]) == 48
    assert len(response.get_data()) < 32 * 1024


@pytest.mark.parametrize("limit", [0, -1, 101, 10**6, True, "5", 2.5, None])
def test_a_limit_out_of_range_is_refused(client, huge_state_json, limit):
    found = problem(hints(client, state=huge_state_json, limit=limit), 422, "validation-error")
    assert "limit" in found["errors"], found


# ---- levels (docs/strategy.md, "Levels") -------------------------------------------------------------


@pytest.mark.parametrize("level", ["beginner", "club", "expert"])
def test_every_level_answers_every_legal_move_and_the_same_request_the_same(client, level):
    state = deal(client, rules="chkobba", players=2, dealer=0, seed="hints-levels", cut="keep")["state"]
    for _ in range(8):  # a few plays in
        body = ok(hints(client, state=state, level=level))
        check_shape(body)
        again = hints(client, state=state, level=level)
        assert again.get_data() == hints(client, state=state, level=level).get_data()
        assert again.get_json() == body
        move = body["moves"][0]["move"]
        state = ok(client.post("/v1/rounds/play", json={"state": state, "move": move}))["state"]


def test_the_default_level_is_club(client):
    state = deal(client, rules="chkobba", players=2, dealer=0, seed="hints-level-default", cut="keep")["state"]
    assert ok(hints(client, state=state)) == ok(hints(client, state=state, level="club"))


@pytest.mark.parametrize("level", ["", "Expert", "master", 1, None, ["club"]])
def test_an_unknown_level_is_refused(client, level):
    state = deal(client, rules="chkobba", players=2, dealer=0, seed="hints-level-bad", cut="keep")["state"]
    found = problem(hints(client, state=state, level=level), 422, "validation-error")
    assert "level" in found["errors"], found
