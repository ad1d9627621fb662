"""Match decisions after a round (docs/rules.md §8), and a verdict on a claimed decision."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from .errors import InvalidScores, MatchAlreadyOver
from .profiles import MAX_TARGET, Rules, RulesLike
from .scoring import most_points
from .sweeps import MAX_SWEEPS, possible_points

# Before a round, no score is at the target unless the leaders tied there (docs/rules.md §8): ten times the
# highest target leaves room for any run of tiebreak rounds a table will play.
MAX_SCORE: Final = 10 * MAX_TARGET


class Outcome(enum.Enum):
    CONTINUE = "continue"  # nobody reached the target: play another round
    WON = "won"
    TIEBREAK = "tiebreak"  # a tie for the highest total at or above the target: one more round
    DRAW = "draw"  # a single-round match (scopa without a target) with equal points


@dataclass(frozen=True, slots=True)
class Decision:
    scores: tuple[int, ...]  # after the round
    outcome: Outcome
    winner: int | None

    def to_json(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "outcome": self.outcome.value, "winner": self.winner}


@dataclass(frozen=True, slots=True)
class DecisionDiscrepancy:
    field: str
    claimed: Any
    expected: Any

    def to_json(self) -> dict[str, Any]:
        return {"field": self.field, "claimed": self.claimed, "expected": self.expected}


def decide_match(rules: RulesLike, scores: Sequence[int], round_points: Sequence[int]) -> Decision:
    """Add a complete round's points to the match scores and decide what happens next."""
    rules = Rules.of(rules)
    _check(rules, scores, round_points)
    after = tuple(s + p for s, p in zip(scores, round_points, strict=True))
    target = rules.target
    if target is None:  # one round decides the match
        return _single_round(after)
    before = _at_target(tuple(scores), target)
    if before.outcome is Outcome.WON:
        raise MatchAlreadyOver(
            f"side {before.winner} had already won with {scores[before.winner or 0]} of {target}: the match was over",
            field="scores",
        )
    return _at_target(after, target)


def _at_target(scores: tuple[int, ...], target: int) -> Decision:
    reached = [s for s in scores if s >= target]
    if not reached:
        return Decision(scores, Outcome.CONTINUE, None)
    top = max(reached)
    leaders = [side for side, s in enumerate(scores) if s == top]
    if len(leaders) == 1:
        return Decision(scores, Outcome.WON, leaders[0])
    return Decision(scores, Outcome.TIEBREAK, None)


def _single_round(scores: tuple[int, ...]) -> Decision:
    top = max(scores)
    leaders = [side for side, s in enumerate(scores) if s == top]
    if len(leaders) == 1:
        return Decision(scores, Outcome.WON, leaders[0])
    return Decision(scores, Outcome.DRAW, None)


def _check(rules: Rules, scores: Sequence[int], round_points: Sequence[int]) -> None:
    sides = rules.profile.side_counts()
    if len(scores) != len(round_points):
        raise InvalidScores(
            f"scores has {len(scores)} sides but round_points has {len(round_points)}", field="round_points"
        )
    if len(scores) not in sides:
        allowed = " or ".join(map(str, sides))
        raise InvalidScores(f"{rules.profile.id} is played by {allowed} sides, not {len(scores)}", field="scores")
    for name, values, most in (("scores", scores, MAX_SCORE), ("round_points", round_points, most_points(rules))):
        for i, value in enumerate(values):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
                raise InvalidScores(f"{name}[{i}] must be a whole number from 0 to {most}", field=f"{name}.{i}")
    if not any(round_points):
        raise InvalidScores(
            "every round gives the seven of diamonds' point to some side, so round_points cannot all be 0 "
            "(docs/rules.md §10.19)",
            field="round_points",
        )
    if sum(round_points) > most_points(rules):
        raise InvalidScores(
            f"round_points add up to {sum(round_points)}; a round gives at most {most_points(rules)}: each "
            f"category's point to one side, and at most {MAX_SWEEPS} sweeps in all (docs/rules.md §10.19)",
            field="round_points",
        )
    if tuple(round_points) not in possible_points(rules, len(round_points)):
        raise InvalidScores(
            f"no round gives the points {list(round_points)}: so many points need so many sweeps, and the "
            f"sides play in turn, so no two sweeps come one after the other; the side that makes all {MAX_SWEEPS} "
            "has captured every card, and every other point with them (docs/rules.md §10.17, §10.19)",
            field="round_points",
        )
    if rules.target is None and any(scores):
        raise InvalidScores(
            f"without a target a {rules.profile.id} match is a single round: scores before it are all 0",
            field="scores",
        )


def compare_decision(expected: Decision, outcome: object, winner: object) -> list[DecisionDiscrepancy]:
    sides = len(expected.scores)
    if winner is not None and (isinstance(winner, bool) or not isinstance(winner, int) or not 0 <= winner < sides):
        # A claim that names no side is malformed, as claimed scores of the wrong length are (§10.11).
        raise InvalidScores(f"the claimed winner must be a side from 0 to {sides - 1}, or null", field="claimed.winner")
    found = []
    if outcome != expected.outcome.value:
        found.append(DecisionDiscrepancy("outcome", outcome, expected.outcome.value))
    if winner != expected.winner:
        found.append(DecisionDiscrepancy("winner", winner, expected.winner))
    return found
