"""The turn clock of a round, as its record shows it (docs/rules.md §10.25): each move's time in
milliseconds since the deal, and the moves played for a seat whose time ran out.

A clocked round gives each turn ``turn_ms``: the turn starts when the move before it was made (the
deal, for the first), so its deadline is that move's time plus ``turn_ms``. A move may still be made
up to ``grace_ms`` after the deadline (a network's lag); after that only the timeout move may be: the
default move, which the service plays for the seat (``auto``), and never before the deadline. Which
move is the default is not the rules' to say (it is the club-level hint of the move-hint strategy):
whoever replays a record gives it (``replay_round``'s ``default_move``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from .errors import MoveError

AUTO_TIMEOUT = "timeout"  # the one kind of move the service plays for a seat
MIN_TURN_SECONDS, MAX_TURN_SECONDS = 1, 3600
MAX_GRACE_SECONDS, DEFAULT_GRACE_SECONDS = 30, 2
MAX_AT_MS = 10**12  # about 31 years: an at_ms beyond it is no round's


class ClockRunning(MoveError):
    """A timeout move before the deadline: the seat's time had not run out."""

    code = "clock-running"


class TurnExpired(MoveError):
    """A move made after its deadline and the grace: only the timeout move may be made then."""

    code = "turn-expired"


class NotTheDefaultMove(MoveError):
    """A move marked as played for the seat on timeout that is not the default move."""

    code = "not-the-default-move"


class BadTime(MoveError):
    """A move of a clocked round without its time, or a time before the previous move's."""

    code = "bad-time"


@dataclass(frozen=True, slots=True)
class TurnClock:
    turn_ms: int
    grace_ms: int

    @classmethod
    def of_seconds(cls, turn_seconds: int, grace_seconds: int = DEFAULT_GRACE_SECONDS) -> TurnClock:
        return cls(turn_seconds * 1000, grace_seconds * 1000)

    @classmethod
    def of_json(cls, data: Mapping[str, Any]) -> TurnClock:
        """A record's ``clock``: ``{"turn_seconds", "grace_seconds"?, "dealt_at"?}``."""
        return cls.of_seconds(data["turn_seconds"], data.get("grace_seconds", DEFAULT_GRACE_SECONDS))

    def to_json(self) -> dict[str, Any]:
        return {"turn_seconds": self.turn_ms // 1000, "grace_seconds": self.grace_ms // 1000}


class Stamp(NamedTuple):
    """When a move of a record was made (ms since the deal), and whether the service played it for the
    seat on timeout."""

    at_ms: int | None
    auto: bool = False


def stamp_of(data: Mapping[str, Any]) -> Stamp | None:
    """A record move's stamp (``at_ms``, ``"auto": "timeout"``), or None when it has neither. The
    schema has checked their types."""
    at_ms, auto = data.get("at_ms"), data.get("auto")
    if at_ms is None and auto is None:
        return None
    return Stamp(at_ms, auto == AUTO_TIMEOUT)


def time_problem(clock: TurnClock | None, previous_ms: int, stamp: Stamp | None) -> MoveError | None:
    """Why a move made at ``stamp`` breaks the clock, the move before it having been made at
    ``previous_ms`` (0: the deal), or None. Whether an auto move is the default move is the caller's
    to check (``is_default``)."""
    at_ms = None if stamp is None else stamp.at_ms
    if clock is None:
        if stamp is not None and stamp.auto:
            return ClockRunning("the round has no turn clock: no seat's time runs out, so no move is played for it")
        if at_ms is not None and at_ms < previous_ms:
            return BadTime(f"made at {at_ms} ms, before the move before it ({previous_ms} ms)")
        return None
    if at_ms is None:
        return BadTime("a move of a clocked round gives at_ms, when it was made")
    if at_ms < previous_ms:
        return BadTime(f"made at {at_ms} ms, before the move before it ({previous_ms} ms)")
    deadline = previous_ms + clock.turn_ms
    if stamp is not None and stamp.auto:
        if at_ms < deadline:
            return ClockRunning(
                f"played for the seat at {at_ms} ms, before its deadline at {deadline} ms: its time had not run out"
            )
        return None
    if at_ms > deadline + clock.grace_ms:
        return TurnExpired(
            f"made at {at_ms} ms, after the deadline at {deadline} ms and its grace of {clock.grace_ms} ms: "
            "only the default move could be played then"
        )
    return None
