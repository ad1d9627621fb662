"""Replaying a whole match record (docs/rules.md §2.4, §3.4, §8, §10.23): each round judged as
``replay_round`` judges it, its dealer checked against the rotation, its points added and the match
decided after it by ``decide_match``, and a verdict on every claim. Nothing of a round, a score or a
decision is worked out here: this module only strings those together, round after round.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .clock import TurnClock
from .errors import InconsistentRecord, InvalidInput, InvalidScores, MatchAlreadyOver, RulesError
from .match import Decision, DecisionDiscrepancy, Outcome, compare_decision, decide_match
from .profiles import Rules, RulesLike
from .replay import UNJUDGED, ClaimVerdict, RecordMoves, Replay, parse_record_moves, replay_round
from .round import Move
from .state import RoundState

# The most rounds a record holds, void deals included (docs/rules.md §10.22, §10.23): a match to 21
# takes seven to ten rounds, one to 31 rarely twenty. 64 four-player chkobba-crp rounds with every
# option on cost 49 to 51 ms of CPU, at the 50 ms any request may cost; 40 cost 32 to 33 (README,
# "Replaying a match").
MAX_ROUNDS: Final = 40

# Enum members read once (an Enum class attribute read is a hook call on Python 3.11).
_WON, _DRAW, _CONTINUE = Outcome.WON, Outcome.DRAW, Outcome.CONTINUE
_FINAL = frozenset({_WON, _DRAW})  # a decision after which no round is played
_ROUND_FIELDS: Final = frozenset(
    {"rules", "players", "dealer", "deck", "seed", "cut", "moves", "claimed", "clock", "fair"}
)
_MATCH_FIELDS: Final = ("rules", "players")  # a round may repeat them, never change them


@dataclass(frozen=True, slots=True)
class DealerCheck:
    """Who dealt a round, against who should have: the rotation of docs/rules.md §2.4."""

    expected: int
    given: int

    @property
    def valid(self) -> bool:
        return self.given == self.expected

    def to_json(self) -> dict[str, Any]:
        return {"expected": self.expected, "given": self.given, "valid": self.given == self.expected}


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One round of a match record, as judged: its replay, its dealer, and the match after it."""

    index: int
    dealer: DealerCheck
    replay: Replay  # the verdicts on its moves, its final state and, once complete, its breakdown
    scores: tuple[int, ...]  # the match scores after the round (unchanged unless it is complete)
    decision: Decision | None  # decide_match's, exactly when the round is complete (its breakdown exists)
    claim: ClaimVerdict | None  # on the round's claimed breakdown, when it gives one

    @property
    def void(self) -> bool:
        return self.replay.void

    @property
    def complete(self) -> bool:
        """The record reaches the end of the round, or of its void deal: another round may follow."""
        return self.replay.complete or self.replay.void

    @property
    def valid(self) -> bool:
        """Every move of the round is legal and the right seat dealt it."""
        return self.replay.valid and self.dealer.valid


@dataclass(frozen=True, slots=True)
class MatchReplay:
    """A match record as judged: the rounds judged, in order, up to the first illegal move."""

    rules: Rules
    players: int
    rounds: tuple[RoundResult, ...]  # never empty: a record holds one round at least
    claim: ClaimVerdict | None  # on the claimed final result, when the record gives one

    @property
    def first_illegal(self) -> tuple[int, int] | None:
        """(round, move) of the first illegal move, each counted from 0: judging stops there, so it is in
        the last round judged."""
        last = self.rounds[-1]
        move = last.replay.first_illegal
        return None if move is None else (last.index, move)

    @property
    def valid(self) -> bool:
        """Every move judged is legal and every round was dealt by the seat the rotation names."""
        return all(r.valid for r in self.rounds)

    @property
    def decision(self) -> Decision | None:
        """The decision after the last complete round (None when no round is complete)."""
        return next((r.decision for r in reversed(self.rounds) if r.decision is not None), None)

    @property
    def scores(self) -> tuple[int, ...]:
        return self.rounds[-1].scores

    @property
    def outcome(self) -> Outcome:
        decision = self.decision
        return _CONTINUE if decision is None else decision.outcome

    @property
    def winner(self) -> int | None:
        decision = self.decision
        return None if decision is None else decision.winner

    @property
    def complete(self) -> bool:
        """The record reaches the end of the match: a round after which the match is won or drawn."""
        decision = self.decision
        return decision is not None and decision.outcome in _FINAL


def replay_match(
    rules: RulesLike,
    players: int,
    dealer: int,
    rounds: Sequence[Mapping[str, Any]],
    *,
    claimed: Mapping[str, Any] | None = None,
    default_move: Callable[[RoundState], Move] | None = None,
) -> MatchReplay:
    """Judge a match record: ``rounds`` in order, each a round record as ``replay_round`` takes it
    (``deck`` or ``seed``, ``cut``, ``moves``), which may repeat the match's ``rules`` and ``players``,
    may name its ``dealer`` and may give a ``claimed`` breakdown; ``dealer`` deals the first round.
    ``claimed`` is the claimed final result, ``{outcome, winner, scores?}`` (docs/rules.md §10.23). A
    clocked round's record gives its ``clock`` and its moves' times, judged as ``replay_round`` judges
    them, with ``default_move``."""
    the_rules = Rules.of(rules)
    if not isinstance(rounds, Sequence) or isinstance(rounds, str | bytes):
        raise InvalidInput("rounds must be a list", field="rounds")
    if not 1 <= len(rounds) <= MAX_ROUNDS:
        raise InvalidInput(f"a match record holds 1 to {MAX_ROUNDS} rounds", field="rounds")
    moves = [_checked(the_rules, players, i, record) for i, record in enumerate(rounds)]

    results: list[RoundResult] = []
    expected = dealer  # the first dealer; then whoever the rotation names (docs/rules.md §2.4)
    scores: tuple[int, ...] | None = None  # every side starts at 0 (docs/rules.md §8.1)
    decision: Decision | None = None
    decided_at = 0
    for i, record in enumerate(rounds):
        if decision is not None and decision.outcome in _FINAL:
            how = "won" if decision.outcome is _WON else "drawn"
            raise MatchAlreadyOver(
                f"the match was {how} at round {decided_at}: no round follows it", field=f"rounds.{i}"
            )
        if results and not results[-1].complete:
            raise InconsistentRecord(
                f"round {i - 1} stops before its end, so no round can follow it", field=f"rounds.{i}"
            )
        given = record.get("dealer", expected)
        replay = _replay(
            the_rules, players, given, record, moves[i], i, given_by_round="dealer" in record, default_move=default_move
        )
        if scores is None:
            scores = (0,) * replay.state.sides
        breakdown = replay.breakdown
        round_decision = None
        if breakdown is not None:
            round_decision = decision = decide_match(the_rules, scores, [line.total for line in breakdown])
            scores, decided_at = round_decision.scores, i
        claim = _judged(replay, record["claimed"], i) if record.get("claimed") is not None else None
        results.append(RoundResult(i, DealerCheck(expected, given), replay, scores, round_decision, claim))
        if replay.first_illegal is not None:
            break  # the record no longer follows the rules: nothing after this move is judged (§10.14)
        next_dealer = replay.state.next_dealer  # the dealer's right after a round, the same one after a void deal
        if next_dealer is not None:
            expected = next_dealer
    judged = MatchReplay(the_rules, players, tuple(results), None)
    if claimed is None:
        return judged
    return MatchReplay(the_rules, players, judged.rounds, judge_result(judged, claimed))


def judge_result(match: MatchReplay, claimed: Mapping[str, Any]) -> ClaimVerdict:
    """The verdict on a claimed final result ``{outcome, winner, scores?}``: compared with the decision
    after the last round when the record reaches the end of the match, else neither right nor wrong."""
    stop = match.first_illegal
    if stop is not None:
        reason = f"the record stops at an illegal move (round {stop[0]}, move {stop[1]}), so the match has no result"
        return ClaimVerdict(UNJUDGED, (), reason)
    decided = [r for r in match.rounds if r.decision is not None]
    if not decided:
        reason = "the record stops before the match is decided: no round of it is complete, so it has no result yet"
        return ClaimVerdict(UNJUDGED, (), reason)
    last = decided[-1]
    decision = last.decision
    assert decision is not None
    if decision.outcome not in _FINAL:
        reason = (
            f"the record stops before the match is decided: after round {last.index} it goes on "
            f"({decision.outcome.value}), so it has no result yet"
        )
        return ClaimVerdict(UNJUDGED, (), reason)
    found = compare_decision(decision, claimed.get("outcome"), claimed.get("winner"))
    scores = claimed.get("scores")
    if scores is not None:
        if len(scores) != len(decision.scores):
            raise InvalidScores(
                f"the claim gives {len(scores)} scores; the match has {len(decision.scores)} sides",
                field="claimed.scores",
            )
        found += [
            DecisionDiscrepancy(f"scores.{side}", score, expected)
            for side, (score, expected) in enumerate(zip(scores, decision.scores, strict=True))
            if score != expected
        ]
    return ClaimVerdict.of(found)


def _checked(rules: Rules, players: int, index: int, record: object) -> RecordMoves:
    """A round record's form, checked before any round is judged (a malformed record is an error
    wherever it is): an object of the round record's fields, the match's rules and players if it
    repeats them, and its moves, parsed."""
    where = f"rounds.{index}"
    if not isinstance(record, Mapping):
        raise InvalidInput("a round record is an object {deck, moves, ...}", field=where)
    unknown = set(record) - _ROUND_FIELDS
    if unknown:
        raise InvalidInput(f"a round record has no field {', '.join(sorted(map(str, unknown)))}", field=where)
    if "rules" in record and not same_rules(_rules_of(record["rules"], where), rules):
        raise InconsistentRecord(
            "a round is played under the match's rules: leave them out, or give the match's", field=f"{where}.rules"
        )
    if "players" in record and record["players"] != players:
        raise InconsistentRecord(
            f"the match is played by {players} players, not {record['players']}", field=f"{where}.players"
        )
    moves = record.get("moves")
    if isinstance(moves, RecordMoves):  # parsed already, by an edge's schema field
        return moves
    return parse_record_moves(moves, field=f"{where}.moves")  # type: ignore[arg-type]  # it checks the type


def _rules_of(spec: Any, where: str) -> Rules:
    try:
        return Rules.of(spec)
    except RulesError as exc:
        exc.field = f"{where}.{exc.field or 'rules'}"
        raise


def same_rules(one: Rules, other: Rules) -> bool:
    """The same profile with the same options in effect, however they are written (``"chkobba"`` and
    ``{"profile": "chkobba", "options": {"target": 21}}`` are the same rules)."""
    if one.profile is not other.profile:
        return False
    return all(one.option(name) == other.option(name) for name in one.profile.options)


def _replay(
    rules: Rules,
    players: int,
    dealer: int,
    record: Mapping[str, Any],
    moves: RecordMoves,
    index: int,
    *,
    given_by_round: bool,
    default_move: Callable[[RoundState], Move] | None,
) -> Replay:
    """``replay_round`` on one round record; an error in it names its place in the match record."""
    clock = record.get("clock")
    try:
        return replay_round(
            rules,
            players,
            dealer,
            moves,
            deck=record.get("deck"),
            seed=record.get("seed"),
            cut=record.get("cut"),
            clock=None if clock is None else TurnClock.of_json(clock),
            default_move=default_move,
        )
    except RulesError as exc:
        exc.field = _place(exc.field, index, given_by_round)
        places = exc.details.get("places")
        if places:
            exc.details["places"] = [_place(p, index, given_by_round) for p in places]
        raise


def _judged(replay: Replay, claimed: Any, index: int) -> ClaimVerdict:
    """``Replay.judge`` on a round's claim; a claim of the wrong shape names its place in the match record."""
    try:
        return replay.judge(claimed)
    except RulesError as exc:
        exc.field = f"rounds.{index}.{exc.field or 'claimed'}"
        raise


def _place(field: str | None, index: int, dealer_given: bool) -> str:
    """Where in the match record the field of a round's error lies: the match's rules and players (which
    the round repeats, if it gives them), the first dealer (a round that names none is dealt by the one
    expected, the match's own for round 0), or the round's own field."""
    if field is None:
        return f"rounds.{index}"
    head = field.split(".", 1)[0]
    if head in _MATCH_FIELDS or (head == "dealer" and not dealer_given):
        return field
    return f"rounds.{index}.{field}"
