"""replayMatch (openapi.yaml; docs/rules.md §2.4, §3.4, §8, §10.23).

The records are real matches, played with the rules core (tests/support.py ``match_record``). The
expectations come from the service's own operations called round by round: replayRound for each round
(as it was dealt) and decideMatch after it, with the rotation of docs/rules.md §2.4 written out in
tests/support.py (``round_by_round``, the oracle the core's tests share).
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from service.ops.limits import MAX_BODY_BYTES

from ..support import match_record, ok, problem, round_by_round, round_record

PATH = "/v1/matches/replay"
MAX_ROUNDS = 40  # docs/rules.md §10.23
LIMIT_BYTES = 512 * 1024  # docs/performance.md, "What each operation costs at worst"

MATCHES = {  # the prefix of the seeds, and the first dealer: each match has a tiebreak (found by search)
    "chkobba-2": ("chkobba", 2, "tb146", 0),
    "chkobba-4": ("chkobba", 4, "tb14", 2),
    "chkobba-crp-2": ("chkobba-crp", 2, "tb43", 1),
    "chkobba-crp-3": ("chkobba-crp", 3, "tb47", 2),
    "chkobba-crp-4": ("chkobba-crp", 4, "tb13", 1),
    "scopa-2": ("scopa", 2, "match-scopa", 0),
    "scopa-target-11": ({"profile": "scopa", "options": {"target": 11}}, 2, "tb16", 0),
}


def record_of(name: str, rounds: int = 40) -> dict[str, Any]:
    rules, players, prefix, dealer = MATCHES[name]
    return match_record(rules, players, dealer, [f"{prefix}-{i}" for i in range(rounds)])


def replay_match(client, record: dict[str, Any], **extra: Any):
    data = json.dumps({**record, **extra}, separators=(",", ":"))  # compact, as a client near the body limit sends it
    return client.post(PATH, data=data, content_type="application/json")


def over_http(client, record: dict[str, Any]) -> dict[str, Any]:
    """What replayRound and decideMatch say of the record, one round after another (tests/support.py)."""

    def decide(scores: list[int], points: list[int]) -> dict[str, Any]:
        body = {"rules": record["rules"], "scores": scores, "round_points": points}
        return ok(client.post("/v1/match-decisions", json=body))

    return round_by_round(record, lambda body: ok(client.post("/v1/rounds/replay", json=body)), decide)


def with_round_claims(client, record: dict[str, Any], wrong: int | None = None) -> dict[str, Any]:
    """The record with each complete round claiming its breakdown (round ``wrong`` one point too many)."""
    record = copy.deepcopy(record)
    answer = ok(replay_match(client, record))
    for judged, given in zip(answer["rounds"], record["rounds"], strict=False):
        if judged["breakdown"] is not None:
            given["claimed"] = copy.deepcopy(judged["breakdown"])
            if judged["index"] == wrong:
                given["claimed"][0]["total"] += 1
    return record


# ---- whole matches -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_a_whole_match_is_what_its_rounds_and_decisions_say(client, name):
    record = with_round_claims(client, record_of(name), wrong=1)
    body = ok(replay_match(client, record))
    assert body == over_http(client, record)
    assert body["valid"] is True and body["complete"] is True and body["first_illegal"] is None
    assert body["outcome"] in ("won", "draw")
    outcomes = [r["decision"]["outcome"] for r in body["rounds"] if r["decision"]]
    assert outcomes[-1] == body["outcome"] and all(o in ("continue", "tiebreak") for o in outcomes[:-1])
    if name != "scopa-2":
        assert "tiebreak" in outcomes  # docs/rules.md §10.13: a tiebreak goes on
    else:
        assert len(body["rounds"]) == 1 and body["outcome"] == "draw"  # docs/rules.md §8.5
    claims = [r["claim"]["verdict"] for r in body["rounds"] if "claim" in r]
    assert claims == ["wrong" if r["index"] == 1 else "right" for r in body["rounds"] if "claim" in r]
    assert "state" not in body["rounds"][0]  # a round's final state is not repeated


def test_the_claimed_result_right_and_wrong(client):
    record = record_of("chkobba-2")
    body = ok(replay_match(client, record))
    assert (body["outcome"], body["winner"], body["scores"]) == ("won", 0, [26, 22])
    right = ok(replay_match(client, record, claimed={"outcome": "won", "winner": 0, "scores": [26, 22]}))
    assert right["claim"] == {"verdict": "right", "valid": True, "discrepancies": []}
    wrong = ok(replay_match(client, record, claimed={"outcome": "won", "winner": 1, "scores": [26, 23]}))
    assert wrong["claim"] == {
        "verdict": "wrong",
        "valid": False,
        "discrepancies": [
            {"field": "winner", "claimed": 1, "expected": 0},
            {"field": "scores.1", "claimed": 23, "expected": 22},
        ],
    }
    assert {k: v for k, v in wrong.items() if k != "claim"} == body


def test_a_void_deal_is_dealt_again_by_the_same_dealer_and_scores_nothing(client):
    void = round_record("chkobba", 2, 1, "void-36", cut="keep")  # three aces on the table
    rounds = [void, void, round_record("chkobba", 2, 1, "m-2", cut="keep"), round_record("chkobba", 2, 0, "m-3")]
    rounds[3] = round_record("chkobba", 2, 0, "m-3", cut_move="table")  # dealt without its cut: the cut is a move
    record = {"rules": "chkobba", "players": 2, "dealer": 1, "rounds": rounds}
    body = ok(replay_match(client, record))
    assert body == over_http(client, record)
    assert [r["void"] for r in body["rounds"]] == [True, True, False, False]
    assert [r["dealer"]["expected"] for r in body["rounds"]] == [1, 1, 1, 0]
    assert [r["decision"] is None for r in body["rounds"]] == [True, True, False, False]
    assert body["rounds"][0]["scores"] == body["rounds"][1]["scores"] == [0, 0]
    assert all(r["complete"] and r["breakdown"] is None for r in body["rounds"][:2])


def test_a_wrong_dealer_is_reported_and_the_round_replayed_as_dealt(client):
    record = record_of("chkobba-crp-3", rounds=3)
    second = record["rounds"][1]
    expected = (record["dealer"] + 1) % 3
    wrong = (expected + 1) % 3
    record["rounds"][1] = {**round_record("chkobba-crp", 3, wrong, "wrong-dealer"), "dealer": wrong}
    record["rounds"][2] = round_record("chkobba-crp", 3, (wrong + 1) % 3, "after")
    body = ok(replay_match(client, record))
    assert body == over_http(client, record)
    assert body["rounds"][1]["dealer"] == {"expected": expected, "given": wrong, "valid": False}
    assert body["rounds"][2]["dealer"] == {"expected": (wrong + 1) % 3, "given": (wrong + 1) % 3, "valid": True}
    assert [r["valid"] for r in body["rounds"]] == [True, False, True]
    assert body["valid"] is False and body["first_illegal"] is None
    assert all(v["verdict"] == "legal" for v in body["rounds"][1]["moves"])
    assert body["rounds"][1]["moves"][0]["seat"] == (wrong + 1) % 3  # the dealer's right leads
    assert second != record["rounds"][1]


# ---- where the judging stops ------------------------------------------------------------------------------


def test_an_illegal_move_in_a_late_round_stops_the_judging(client):
    record = record_of("chkobba-4")
    late = len(record["rounds"]) - 2
    moves = record["rounds"][late]["moves"]
    at = next(i for i, m in enumerate(moves) if m.get("capture") and i > 20)
    moves[at] = {"card": moves[at]["card"], "capture": []}  # capture is mandatory (docs/rules.md §4.3)
    before = _counter(client, "chkobba_illegal_moves_total", code="illegal-move")
    body = ok(replay_match(client, record, claimed={"outcome": "won", "winner": 0}))
    assert _counter(client, "chkobba_illegal_moves_total", code="illegal-move") == before + 1
    assert body == {**over_http(client, record), "claim": body["claim"]}
    assert body["first_illegal"] == {"round": late, "move": at}
    assert len(body["rounds"]) == late + 1 and body["valid"] is False and body["complete"] is False
    illegal = body["rounds"][late]["moves"][at]
    assert illegal["verdict"] == "illegal" and illegal["code"] == "illegal-move" and illegal["legal"]
    assert body["claim"]["verdict"] == "cannot-be-judged" and body["claim"]["valid"] is None
    assert body["claim"]["reason"] == (
        f"the record stops at an illegal move (round {late}, move {at}), so the match has no result"
    )


def test_a_record_that_stops_early_is_judged_as_far_as_it_goes(client):
    record = record_of("scopa-target-11", rounds=3)
    record["rounds"][2]["moves"] = record["rounds"][2]["moves"][:7]
    record["rounds"][2]["claimed"] = [
        {
            "side": s,
            "cards": 0,
            "diamonds": 0,
            "sevens": 0,
            "seven_of_diamonds": s,
            "sweeps": 0,
            "primiera": 0,
            "total": s,
        }
        for s in (0, 1)
    ]
    body = ok(replay_match(client, record, claimed={"outcome": "won", "winner": 0}))
    assert body == {**over_http(client, record), "claim": body["claim"]}
    last = body["rounds"][2]
    assert (last["complete"], last["breakdown"], last["decision"]) == (False, None, None)
    assert last["claim"] == {
        "verdict": "cannot-be-judged",
        "valid": None,
        "reason": "the record ends before the end of the round, so the round has no score yet",
        "discrepancies": [],
    }
    assert body["scores"] == body["rounds"][1]["scores"] and body["outcome"] == "continue"
    assert body["claim"]["verdict"] == "cannot-be-judged"


def test_no_round_may_follow_one_that_stops_before_its_end(client):
    record = record_of("chkobba-crp-2", rounds=4)
    record["rounds"][1]["moves"].pop()
    found = problem(replay_match(client, record), 422, "inconsistent-record")
    assert found["errors"] == {"rounds.2": ["round 1 stops before its end, so no round can follow it"]}


@pytest.mark.parametrize(("field", "value"), [("rules", "scopa"), ("players", 3)])
def test_a_round_under_other_rules_or_players_is_refused(client, field, value):
    record = record_of("chkobba-crp-2", rounds=3)
    record["rounds"][2][field] = value
    found = problem(replay_match(client, record), 422, "inconsistent-record")
    assert list(found["errors"]) == [f"rounds.2.{field}"]
    record["rounds"][2][field] = record[field]  # the match's own: accepted
    ok(replay_match(client, record))


def test_a_round_after_the_end_of_the_match_is_match_over(client):
    record = record_of("scopa-2")
    record["rounds"].append(round_record("scopa", 2, 1, "one-more"))
    found = problem(replay_match(client, record), 422, "match-over")
    assert found["errors"] == {"rounds.1": ["the match was drawn at round 0: no round follows it"]}


# ---- the request's form ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "status", "code", "field"),
    [
        (lambda r: r.update(rounds=[]), 422, "validation-error", "rounds"),
        (lambda r: r["rounds"][0].pop("deck"), 422, "validation-error", "rounds.0.deck"),
        (lambda r: r["rounds"][1].update(moves=r["rounds"][1]["moves"] * 7), 422, "validation-error", "rounds.1.moves"),
        (lambda r: r["rounds"][1].update(seed="m-1"), 422, "validation-error", "rounds.1.seed"),
        (lambda r: r.update(dealer=3), 422, "no-such-seat", "dealer"),
        (lambda r: r["rounds"][1].update(dealer=2), 422, "no-such-seat", "rounds.1.dealer"),
        (lambda r: r.update(players=3), 422, "not-in-profile", "players"),
        (lambda r: r["rounds"][1].update(cut="keep"), 422, "not-in-profile", "rounds.1.cut"),
        (lambda r: r["rounds"][1]["moves"][3].update(card="8D"), 422, "invalid-card", "rounds.1.moves.3.card"),
        (
            lambda r: r["rounds"][1]["deck"].__setitem__(5, r["rounds"][1]["deck"][0]),
            422,
            "duplicate-card",
            "rounds.1.deck.5",
        ),
        (
            lambda r: r["rounds"][0].update(claimed=[r["rounds"][0]["claimed"][0]] * 3),
            422,
            "inconsistent-counts",
            "rounds.0.claimed",
        ),
    ],
)
def test_a_malformed_record_is_a_problem_naming_its_place(client, change, status, code, field):
    record = with_round_claims(client, record_of("scopa-target-11", rounds=2))
    record["rounds"][1]["moves"] = record["rounds"][1]["moves"][:10]
    record = {**record, "claimed": {"outcome": "won", "winner": 0}}
    change(record)
    found = problem(replay_match(client, record), status, code)
    assert field in found["errors"], found


def test_claimed_scores_of_another_number_of_sides_are_refused(client):
    record = record_of("scopa-2")
    found = problem(
        replay_match(client, record, claimed={"outcome": "draw", "winner": None, "scores": [1, 1, 0]}),
        422,
        "invalid-scores",
    )
    assert list(found["errors"]) == ["claimed.scores"]


def test_at_most_max_rounds_rounds(client):
    void = round_record("chkobba", 2, 0, "void-36", cut="keep")
    record = {"rules": "chkobba", "players": 2, "dealer": 0, "rounds": [void] * MAX_ROUNDS}
    body = ok(replay_match(client, record))
    assert len(body["rounds"]) == MAX_ROUNDS and all(r["void"] for r in body["rounds"])
    found = problem(replay_match(client, {**record, "rounds": [void] * (MAX_ROUNDS + 1)}), 422, "validation-error")
    assert "rounds" in found["errors"]
    spec = client.get("/openapi.json").get_json()
    rounds = spec["components"]["schemas"]["MatchReplayRequest"]["properties"]["rounds"]
    assert (rounds["minItems"], rounds["maxItems"]) == (1, MAX_ROUNDS)


# ---- claims and metrics ---------------------------------------------------------------------------------------


def _counter(client, name: str, **labels: str) -> float:
    text = client.get("/metrics").get_data(as_text=True)
    wanted = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    found = re.search(rf"^{name}\{{{re.escape(wanted)}\}} (\S+)$", text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def test_claims_are_counted_by_kind_and_verdict(client):
    record = with_round_claims(client, record_of("chkobba-crp-4"), wrong=0)
    rounds = len([r for r in record["rounds"] if "claimed" in r])
    before = {
        (kind, verdict): _counter(client, "chkobba_claims_total", kind=kind, verdict=verdict)
        for kind in ("match", "match-round")
        for verdict in ("accepted", "rejected", "unjudged")
    }
    body = ok(replay_match(client, record, claimed={"outcome": "won", "winner": 1}))
    after = {key: _counter(client, "chkobba_claims_total", kind=key[0], verdict=key[1]) for key in before}
    match_verdict = {"right": "accepted", "wrong": "rejected"}[body["claim"]["verdict"]]
    assert {k: after[k] - before[k] for k in before if after[k] != before[k]} == {
        ("match", match_verdict): 1,
        ("match-round", "accepted"): rounds - 1,
        ("match-round", "rejected"): 1,
    }


# ---- limits ---------------------------------------------------------------------------------------------------


def test_a_long_chkobba_match_fits_the_body_limit_with_every_claim(client):
    """A 21-point chkobba match of ten rounds and more (tiebreak included), every round claimed."""
    record = with_round_claims(client, record_of("chkobba-2"))
    record["claimed"] = {"outcome": "won", "winner": 0, "scores": [26, 22]}
    assert len(record["rounds"]) >= 10 and all(len(r["moves"]) >= 36 for r in record["rounds"] if r["moves"][1:])
    size = len(json.dumps(record, separators=(",", ":")))
    assert size < MAX_BODY_BYTES / 3, size
    assert ok(replay_match(client, record))["claim"]["verdict"] == "right"


def _largest(client, profile: str, players: int, claims: bool) -> dict[str, Any]:
    """As many whole rounds as the body limit holds, of a match that goes on (target 1000)."""
    rules = {"profile": profile, "options": {"target": 1000}}
    record = match_record(rules, players, 0, [f"max-{i}" for i in range(MAX_ROUNDS)])
    for claimed in (False, claims):
        if claimed:
            record = with_round_claims(client, record, wrong=0)
        while len(json.dumps(record, separators=(",", ":"))) > MAX_BODY_BYTES:
            record["rounds"].pop()
    return record


@pytest.mark.parametrize(("profile", "players"), [("chkobba", 2), ("chkobba-crp", 3), ("scopa", 2)])
@pytest.mark.parametrize("claims", [False, True])
def test_the_largest_valid_records_answer_under_512_kib(client, profile, players, claims):
    record = _largest(client, profile, players, claims)
    assert (
        len(record["rounds"]) == MAX_ROUNDS
    )  # about 1.1 to 1.4 KB a whole round: all fit (docs/referee.md, "Replaying a match")
    data = json.dumps(record, separators=(",", ":"))
    response = client.post(PATH, data=data, content_type="application/json")
    body = ok(response)
    assert len(body["rounds"]) == len(record["rounds"]) and body["outcome"] == "continue"
    assert len(response.get_data()) <= LIMIT_BYTES
