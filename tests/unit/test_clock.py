"""The turn clock of a record (docs/rules.md §10.25): each move against its deadline and grace, and
moves played for a seat on timeout."""

from __future__ import annotations

import pytest

from service.rules import (
    CutMove,
    PlayMove,
    RoundState,
    Stamp,
    TurnClock,
    advance,
    deal_round,
    legal_moves,
    parse_record_moves,
    replay_round,
    time_problem,
)

CLOCK = TurnClock.of_seconds(20)  # a 20 s turn, 2 s of grace


@pytest.mark.parametrize(
    ("previous", "stamp", "code"),
    [
        (0, Stamp(0), None),  # at once
        (5_000, Stamp(27_000), None),  # the last instant of the grace: 5 s + 20 s + 2 s
        (5_000, Stamp(27_001), "turn-expired"),
        (5_000, Stamp(25_000, auto=True), None),  # the deadline itself: the time has run out
        (5_000, Stamp(24_999, auto=True), "clock-running"),
        (5_000, Stamp(90_000, auto=True), None),  # played for the seat long after: any time after the deadline
        (5_000, Stamp(4_999), "bad-time"),  # before the move before it
        (5_000, None, "bad-time"),  # a clocked round's move gives its time
        (5_000, Stamp(None), "bad-time"),
    ],
)
def test_a_move_is_judged_against_its_deadline_and_grace(previous: int, stamp: Stamp | None, code: str | None) -> None:
    problem = time_problem(CLOCK, previous, stamp)
    assert (problem.code if problem else None) == code


def test_without_a_clock_only_an_auto_move_and_time_going_back_are_refused() -> None:
    assert time_problem(None, 100, None) is None and time_problem(None, 100, Stamp(10**9)) is None
    assert time_problem(None, 100, Stamp(200, auto=True)).code == "clock-running"  # type: ignore[union-attr]
    assert time_problem(None, 100, Stamp(99)).code == "bad-time"  # type: ignore[union-attr]


def first_option(state: RoundState) -> PlayMove:
    """The hand's first card with its first capture option: the default move of these tests."""
    captures = legal_moves(state)[0]
    return PlayMove(captures.card, captures.options[0] if captures.options else ())


def second_card(state: RoundState) -> PlayMove:
    captures = legal_moves(state)[1]
    return PlayMove(captures.card, captures.options[0] if captures.options else ())


def record_moves(seed: str, count: int) -> list[dict]:
    """The first ``count`` moves of a scopa round, each ``first_option``, as a record gives them."""
    state, _ = deal_round("scopa", 2, 0, seed=seed)
    moves = []
    for _ in range(count):
        move = first_option(state)
        moves.append({"card": move.card.code, "capture": [c.code for c in move.capture or ()]})
        state, _ = advance(state, move)
    return moves


def test_a_replay_stops_at_the_first_move_that_breaks_the_clock() -> None:
    moves = record_moves("clock", 4)
    timed = [{**m, "at_ms": at} for m, at in zip(moves, [1_000, 15_000, 40_000, 41_000], strict=True)]
    replay = replay_round("scopa", 2, 0, timed, seed="clock", clock=CLOCK)
    assert [v.legal for v in replay.moves] == [True, True, False]
    assert replay.moves[-1].code == "turn-expired" and replay.first_illegal == 2
    assert replay_round("scopa", 2, 0, timed[:2], seed="clock", clock=CLOCK).valid


def test_an_auto_move_must_be_the_default_move_of_its_position() -> None:
    moves = record_moves("clock", 2)
    auto = [{**moves[0], "at_ms": 20_000, "auto": "timeout"}, {**moves[1], "at_ms": 21_000}]
    assert replay_round("scopa", 2, 0, auto, seed="clock", clock=CLOCK, default_move=first_option).valid
    replay = replay_round("scopa", 2, 0, auto, seed="clock", clock=CLOCK, default_move=second_card)
    assert (replay.first_illegal, replay.moves[0].code) == (0, "not-the-default-move")
    assert "the default move there is" in (replay.moves[0].reason or "")


def test_a_records_moves_are_parsed_with_their_times() -> None:
    parsed = parse_record_moves(
        [{"card": "7D", "at_ms": 3}, {"cut": "keep"}, {"card": "AS", "auto": "timeout", "at_ms": 9}]
    )
    assert parsed.stamps == (Stamp(3), None, Stamp(9, True))
    assert isinstance(parsed.moves[1], CutMove)
    assert parse_record_moves([{"card": "7D"}]).stamps is None  # no time anywhere: nothing kept
    for bad in ({"card": "7D", "at_ms": -1}, {"card": "7D", "at_ms": 1.5}, {"card": "7D", "auto": "lag"}):
        with pytest.raises(Exception) as caught:
            parse_record_moves([bad])
        assert getattr(caught.value, "code", None) == "invalid-input"
