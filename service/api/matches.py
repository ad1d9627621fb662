"""Replaying a whole match record: every round as replayRound judges it, the dealer against the rotation,
the scores and the decision after each round as decideMatch gives them (docs/rules.md §10.23)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response

from service.ops import metrics
from service.rules import MAX_ROUNDS, RoundResult, replay_match

from . import examples, schemas
from .io import body
from .operations import Operation, operation
from .receipts import answer_with_receipt
from .render import breakdown_json, verdicts_json
from .rounds import default_move, fair_check

bp = Blueprint("matches", __name__)


@operation(
    bp,
    Operation(
        "replayMatch",
        "post",
        "/v1/matches/replay",
        "Replay a whole match record",
        "Judges `rounds` in order, each a replayRound body (its `rules` and `players` may be left out), void deals "
        "included. Each round answers replayRound's verdicts and breakdown, its dealer checked against the "
        "rotation (the first dealer, then the dealer's right after a round, the same dealer after a void deal), "
        "and the match scores and decision after it, as decideMatch gives them. Judging stops at the first illegal "
        "move (`first_illegal`: its round and move); a record that stops before the end of the match is judged as "
        "far as it goes. Answers the final `scores`, `outcome` and `winner`, and a verdict on every claim (a "
        "round's `claimed` breakdown, and the match's `claimed` result). A round after the end of the match is "
        "`match-over`; a round after one that stops before its end is `inconsistent-record`. At most "
        f"{MAX_ROUNDS} rounds (docs/rules.md §10.23).",
        "rounds",
        schemas.MatchReplayResponse,
        schemas.MatchReplayRequest,
        examples.match_replay,
    ),
)
def replay() -> Response:
    data = body("match_replay")
    result = replay_match(
        data["rules"],
        data["players"],
        data["dealer"],
        data["rounds"],
        claimed=data.get("claimed"),
        default_move=default_move,
    )
    stop = result.first_illegal
    if stop is not None:
        metrics.illegal_move(result.rounds[-1].replay.first_illegal_code or "illegal-move")
    out: dict[str, Any] = {
        "valid": result.valid,
        "complete": result.complete,
        "rounds": [_round_json(r, data["rounds"][r.index], data["players"]) for r in result.rounds],
        "first_illegal": None if stop is None else {"round": stop[0], "move": stop[1]},
        "scores": list(result.scores),
        "outcome": result.outcome.value,
        "winner": result.winner,
    }
    for judged in result.rounds:
        if judged.claim is not None:
            metrics.claim("match-round", judged.claim.valid)
    if result.claim is not None:
        metrics.claim("match", result.claim.valid)
        out["claim"] = result.claim.to_json()
    return answer_with_receipt(data, out)


def _round_json(result: RoundResult, record: dict[str, Any], players: int) -> dict[str, Any]:
    replay = result.replay
    decision = result.decision
    out: dict[str, Any] = {
        "index": result.index,
        "dealer": result.dealer.to_json(),
        "void": result.void,
        "valid": result.valid,
        "complete": result.complete,
        "first_illegal": replay.first_illegal,
        "moves": verdicts_json(replay.moves, record["moves"]),
        "breakdown": breakdown_json(replay.breakdown),
    }
    if result.claim is not None:
        out["claim"] = result.claim.to_json()
    if "fair" in record:
        out.update(fair_check({**record, "players": players}, replay.deck).to_json())
    out["scores"] = list(result.scores)
    out["decision"] = None if decision is None else {"outcome": decision.outcome.value, "winner": decision.winner}
    return out
