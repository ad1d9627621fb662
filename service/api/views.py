"""The /v1 operations: load the request, call the rules core, answer. Views never decide legality."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, request

from service.ops import metrics
from service.rules import (
    PROFILES,
    Phase,
    RoundState,
    Rules,
    Tally,
    apply_play,
    compare_breakdown,
    compare_decision,
    deal_round,
    decide_match,
    hand_captures,
    parse_cards,
    parse_move,
    play,
    replay_round,
    round_breakdown,
    score_round,
)
from service.rules.errors import MoveError

from . import examples, schemas
from .operations import Operation, operation
from .problems import Problem
from .render import breakdown_json, captures_json, codes, ruleset_json, verdict_json

bp = Blueprint("v1", __name__)


def body(schema: str) -> dict[str, Any]:
    """The request's JSON object, loaded by the named request schema (raises problems)."""
    if not request.is_json:
        raise Problem(415, "unsupported-media-type", "send the request body as application/json")
    raw = request.get_data(cache=False)
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:  # RecursionError: absurdly nested input
        raise Problem(400, "malformed-json", f"the body is not valid JSON: {str(exc)[:200]}") from None
    loaded: dict[str, Any] = schemas.REQUESTS[schema].load(data)
    return loaded


def answer(data: Any, status: int = 200) -> Response:
    return Response(
        json.dumps(data, ensure_ascii=False, separators=(",", ":")), status=status, mimetype="application/json"
    )


@operation(
    bp,
    Operation(
        "listRulesets",
        "get",
        "/v1/rulesets",
        "Every rules profile",
        "Each profile with its card values, figure names, options and defaults, targets, scoring categories with "
        "their local names, and the source documents it follows.",
        "rules",
        schemas.RulesetsResponse,
    ),
)
def list_rulesets() -> Response:
    return answer({"rulesets": [ruleset_json(p) for p in PROFILES.values()]})


@operation(
    bp,
    Operation(
        "getRuleset",
        "get",
        "/v1/rulesets/{profile}",
        "One rules profile",
        "The profile named in the path; a 404 problem (`unknown-profile`) if there is none.",
        "rules",
        schemas.RulesetOut,
        parameters=(
            {
                "name": "profile",
                "in": "path",
                "required": True,
                "schema": {"type": "string", "example": "chkobba"},
                "description": "A profile id: chkobba, chkobba-crp or scopa.",
            },
        ),
    ),
)
def get_ruleset(profile: str) -> Response:
    found = PROFILES.get(profile)
    if found is None:
        raise Problem(404, "unknown-profile", f"unknown profile {profile!r}; known profiles: {', '.join(PROFILES)}")
    return answer(ruleset_json(found))


@operation(
    bp,
    Operation(
        "legalCaptures",
        "post",
        "/v1/captures",
        "The legal captures of each card in a hand",
        "For each hand card, in hand order: its value, the kind of capture (match, sum, or none: the card is laid) "
        "and its options in lexicographic order of table positions, each capture's cards in table order. "
        "With `last_play` no option sweeps (RULES.md §5).",
        "adjudication",
        schemas.CapturesResponse,
        schemas.CapturesRequest,
        examples.CAPTURES,
    ),
)
def captures() -> Response:
    data = body("captures")
    found = hand_captures(data["rules"], data["table"], data["hand"], last_play=data["last_play"])
    return answer({"moves": [captures_json(c) for c in found]})


@operation(
    bp,
    Operation(
        "applyMove",
        "post",
        "/v1/moves",
        "The result of one play",
        "Plays `play.card` from `hand` on `table`, taking `play.capture` (a set of table cards). The capture may be "
        "omitted only when the card has one legal option or none. An illegal or ambiguous play, or a card not in "
        "the hand, is a 422 problem whose `options` and `legal` list what was legal.",
        "adjudication",
        schemas.MoveResponse,
        schemas.MoveRequest,
        examples.MOVES,
    ),
)
def moves() -> Response:
    data = body("moves")
    move = data["play"]
    try:
        result = apply_play(
            data["rules"], data["table"], data["hand"], move["card"], move.get("capture"), last_play=data["last_play"]
        )
    except MoveError as exc:
        metrics.illegal_move(exc.code)
        exc.field = f"play.{exc.field}"
        raise
    return answer(
        {
            "card": result.card.code,
            "kind": result.kind.value,
            "captured": codes(result.captured),
            "taken": codes(result.taken),
            "sweep": result.sweep,
            "table": codes(result.table),
            "hand": codes(result.hand),
        }
    )


@operation(
    bp,
    Operation(
        "scoreRound",
        "post",
        "/v1/scores",
        "The score breakdown of a finished round",
        "Each side gives its pile (`captured`) or its `counts`, and its `sweeps`. Piles must partition the 40 cards; "
        "counts must add up exactly (40 cards, 10 diamonds, 4 sevens, 4 sixes, 7D held by one side). Primiera needs "
        "piles. With `claimed`, the answer adds `valid` and one discrepancy per differing category, `total` "
        "included: a claim that disagrees is a 200 with `valid: false`, not an error.",
        "adjudication",
        schemas.ScoreResponse,
        schemas.ScoreRequest,
        examples.SCORES,
    ),
)
def scores() -> Response:
    data = body("scores")
    rules: Rules = data["rules"]
    tallies = [_tally(i, side) for i, side in enumerate(data["sides"])]
    breakdown = score_round(rules, tallies, data.get("last_capturer"))
    out: dict[str, Any] = {"breakdown": breakdown_json(breakdown)}
    if "claimed" in data:
        found = compare_breakdown(breakdown, data["claimed"])
        out.update(valid=not found, discrepancies=[d.to_json() for d in found])
        metrics.claim("score", not found)
    return answer(out)


@operation(
    bp,
    Operation(
        "decideMatch",
        "post",
        "/v1/match-decisions",
        "The match decision after a round",
        "Adds `round_points` to `scores` (both per side) and decides: `continue`, `won` (with the winner), "
        "`tiebreak` (a tie for the highest total at or above the target: one more round) or `draw` (scopa's single "
        "round with equal points). Scores that already had a winner are a 422 (`match-over`). With `claimed`, adds "
        "`valid` and the discrepancies.",
        "adjudication",
        schemas.MatchResponse,
        schemas.MatchRequest,
        examples.MATCH,
    ),
)
def match_decisions() -> Response:
    data = body("match")
    rules: Rules = data["rules"]
    decision = decide_match(rules, data["scores"], data["round_points"])
    out = {**decision.to_json(), "target": rules.target}
    claimed = data.get("claimed")
    if claimed is not None:
        found = compare_decision(decision, claimed["outcome"], claimed["winner"])
        out.update(valid=not found, discrepancies=[d.to_json() for d in found])
        metrics.claim("decision", not found)
    return answer(out)


@operation(
    bp,
    Operation(
        "dealRound",
        "post",
        "/v1/rounds",
        "Deal a round",
        "Deals from `deck` (top first), from the portable seeded shuffle of `seed`, or from a secure shuffle, and "
        "answers with the full round state and the deck used. Each seat in playing order (from the dealer's right) "
        "takes a block of 3, then the table a block of 4. In chkobba without `cut` the state waits in phase `cut`; "
        "a table that calls for a redeal gives phase `redeal`, which is final: deal again.",
        "rounds",
        schemas.DealResponse,
        schemas.DealRequest,
        examples.DEAL,
    ),
)
def deal() -> Response:
    data = body("deal")
    state, deck = deal_round(
        data["rules"],
        data["players"],
        data["dealer"],
        deck=data.get("deck"),
        seed=data.get("seed"),
        cut=data.get("cut"),
    )
    return answer({"state": state.to_json(), "deck": codes(deck)})


@operation(
    bp,
    Operation(
        "playRound",
        "post",
        "/v1/rounds/play",
        "Play one move of a round",
        "Checks `state` against RULES.md §9, then applies `move`: `{card, capture?}` in phase play, `{cut}` in phase "
        "cut. Answers with the next state, what happened, and the breakdown once the round is over. An illegal move "
        "is a 422 problem naming the legal options.",
        "rounds",
        schemas.PlayResponse,
        schemas.PlayRequest,
        examples.PLAY,
    ),
)
def play_round() -> Response:
    data = body("play")
    state = RoundState.from_json(data["state"])
    move = parse_move(data["move"])
    try:
        after, event = play(state, move)
    except MoveError as exc:
        metrics.illegal_move(exc.code)
        exc.field = exc.field if exc.field and exc.field.startswith("move") else f"move.{exc.field}"
        raise
    breakdown = breakdown_json(round_breakdown(after)) if after.phase is Phase.OVER else None
    out = {"state": after.to_json(), "event": event.to_json(), "breakdown": breakdown, "next_dealer": after.next_dealer}
    return answer(out)


@operation(
    bp,
    Operation(
        "replayRound",
        "post",
        "/v1/rounds/replay",
        "Replay a whole round record",
        "Deals from `deck` and plays `moves` in order, giving a verdict on each and stopping at the first illegal "
        "one, which is a verdict (200), not an error. Answers with the state reached and, when the record reaches "
        "the end of the round, the breakdown; with `claimed`, a verdict on the claimed breakdown.",
        "rounds",
        schemas.ReplayResponse,
        schemas.ReplayRequest,
        examples.REPLAY,
    ),
)
def replay() -> Response:
    data = body("replay")
    result = replay_round(
        data["rules"], data["players"], data["dealer"], data["moves"], deck=data["deck"], cut=data.get("cut")
    )
    breakdown = result.breakdown
    out: dict[str, Any] = {
        "valid": result.valid,
        "complete": result.complete,
        "first_illegal": result.first_illegal,
        "moves": [verdict_json(v) for v in result.moves],
        "state": result.state.to_json(),
        "breakdown": breakdown_json(breakdown),
        "next_dealer": result.state.next_dealer,
    }
    for verdict in result.moves:
        if not verdict.legal and verdict.code:
            metrics.illegal_move(verdict.code)
    if "claimed" in data:
        if breakdown is None:
            claim = {"valid": False, "reason": "the record does not reach the end of the round", "discrepancies": []}
        else:
            found = compare_breakdown(breakdown, data["claimed"])
            claim = {"valid": not found, "discrepancies": [d.to_json() for d in found]}
        metrics.claim("replay", bool(claim["valid"]))
        out["claim"] = claim
    return answer(out)


def _tally(index: int, side: dict[str, Any]) -> Tally:
    if side.get("captured") is not None:
        return Tally.of_pile(parse_cards(side["captured"], where=f"sides.{index}.captured"), side["sweeps"])
    return Tally(**side["counts"], sweeps=side["sweeps"])
