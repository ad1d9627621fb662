"""The adjudication operations: rules profiles, captures, single plays, scores, match decisions.

A view loads the request, calls the rules core and answers; views never decide legality.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response

from service.ops import metrics
from service.rules import (
    PROFILES,
    Rules,
    Tally,
    apply_play_of,
    compare_breakdown,
    compare_decision,
    decide_match,
    hand_captures_of,
    score_round,
)
from service.rules.cards import codes
from service.rules.errors import MoveError

from . import examples, schemas
from .io import answer, body
from .operations import Operation, operation
from .problems import Problem
from .receipts import answer_with_receipt
from .render import breakdown_json, captures_json, ruleset_json

bp = Blueprint("adjudication", __name__)


@operation(
    bp,
    Operation(
        "listRulesets",
        "get",
        "/v1/rulesets",
        "Every rules profile",
        "Each profile with its card values, figure names, options and defaults, targets, scoring categories with "
        "their local names, the source documents it follows, and `rules_url`, its sheet on the rules page.",
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
        "The profile named in the path; a 404 problem (`unknown-profile`) if there is none. Its `rules_url` is "
        "the profile's sheet on this service's rules page (`/rules`, docs/rules.md), which the sheet's items "
        "link to the rules they sum up.",
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
        "With `last_play` no option sweeps (docs/rules.md §5). The lists can be long: on the largest table (36 cards, "
        "none worth 10) each card worth 10 has 1,698 options, and three of them answer about 250 KB "
        '(docs/performance.md, "What each operation costs at worst").',
        "adjudication",
        schemas.CapturesResponse,
        schemas.CapturesRequest,
        examples.captures,
    ),
)
def captures() -> Response:
    data = body("captures")  # the schema parsed the cards, with no duplicate and at most 3 in the hand
    found = hand_captures_of(data["rules"], data["table"], data["hand"], data["last_play"])
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
        "the hand, is a 422 problem whose `options` and `legal` list what was legal, every option: up to about "
        '330 KB on the largest table (docs/performance.md, "What each operation costs at worst").',
        "adjudication",
        schemas.MoveResponse,
        schemas.MoveRequest,
        examples.moves,
    ),
)
def moves() -> Response:
    data = body("moves")  # the schema parsed the cards, with no duplicate in a list and at most 3 in the hand
    move = data["play"]
    try:
        result = apply_play_of(
            data["rules"], data["table"], data["hand"], move["card"], move.get("capture"), data["last_play"]
        )
    except MoveError as exc:
        metrics.illegal_move(exc.code)
        exc.field = f"play.{exc.field}"
        raise
    return answer(
        {
            "card": result.card.code,
            "kind": result.kind._value_,
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
        examples.scores,
    ),
)
def scores() -> Response:
    data = body("scores")
    rules: Rules = data["rules"]
    tallies = [_tally(side) for side in data["sides"]]
    breakdown = score_round(rules, tallies, data.get("last_capturer"))
    out: dict[str, Any] = {"breakdown": breakdown_json(breakdown)}
    if "claimed" in data:
        found = compare_breakdown(breakdown, data["claimed"])
        out.update(valid=not found, discrepancies=[d.to_json() for d in found])
        metrics.claim("score", not found)
    return answer_with_receipt(data, out)


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
        examples.match,
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
    return answer_with_receipt(data, out)


def _tally(side: dict[str, Any]) -> Tally:
    if side.get("captured") is not None:
        return Tally.of_pile(side["captured"], side["sweeps"])  # cards the schema parsed, none twice
    counts = side["counts"]
    if "sevens" in counts:
        return Tally(**counts, sweeps=side["sweeps"])
    return Tally(**counts, sevens=0, sixes=0, sweeps=side["sweeps"], sevens_given=False)
