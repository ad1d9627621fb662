"""Domain errors. Each has a stable machine ``code``; the HTTP edge maps them to problems."""

from __future__ import annotations

from typing import Any


class RulesError(Exception):
    """Base of every error the rules core raises on bad input or an illegal action."""

    code = "rules-error"

    def __init__(self, message: str, *, field: str | None = None, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.details = details


class InvalidCard(RulesError):
    code = "invalid-card"


class DuplicateCard(RulesError):
    code = "duplicate-card"


class UnknownProfile(RulesError):
    code = "unknown-profile"


class InvalidOption(RulesError):
    code = "invalid-option"


class InvalidInput(RulesError):
    """A value that is well-formed but not allowed here (a seat out of range, a bad seed)."""

    code = "invalid-input"


class NoSuchSeat(InvalidInput):
    """A seat beyond the players at the table (a schema cannot say so: it depends on ``players``)."""

    code = "no-such-seat"


def check_seat(seat: int, players: int, *, field: str) -> None:
    """Raise ``NoSuchSeat`` unless ``seat`` is one of the ``players`` seats (field names its place)."""
    if not 0 <= seat < players:
        name = field.rpartition(".")[2]
        raise NoSuchSeat(f"{name} must be a seat from 0 to {players - 1}", field=field)


class NotInProfile(InvalidInput):
    """What the profile does not take: that many players, a cut (a schema cannot say so: it depends on
    ``rules``)."""

    code = "not-in-profile"


class BadState(RulesError):
    """A round state that breaks docs/rules.md §9 or cannot arise under its profile."""

    code = "bad-state"


class InvalidCounts(RulesError):
    """Captured piles or counts that cannot be the result of a finished round."""

    code = "inconsistent-counts"


class InvalidScores(RulesError):
    code = "invalid-scores"


class MatchAlreadyOver(RulesError):
    code = "match-over"


class InconsistentRecord(RulesError):
    """A match record whose rounds do not fit together: a round under other rules or players than the
    match's, or a round after one that stops before its end (docs/rules.md §10.23)."""

    code = "inconsistent-record"


class MoveError(RulesError):
    """A move that the rules do not allow. ``options`` lists what was legal instead."""

    code = "illegal-move"


class IllegalMove(MoveError):
    code = "illegal-move"


class AmbiguousCapture(MoveError):
    code = "ambiguous-capture"


class CardNotHeld(MoveError):
    code = "card-not-held"


class NotYourTurn(MoveError):
    code = "not-your-turn"


class WrongPhase(MoveError):
    code = "wrong-phase"
