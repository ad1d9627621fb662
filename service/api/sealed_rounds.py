"""What a sealed round's token carries beside its state, and the answers that carry a token.

Inside the token, beside the state's own fields, ``record`` (the round's record so far, packed:
service/api/records.py) and ``round``::

    {"id": <round_id>, "seq": <moves made, the cut included>, "context"?: <the caller's table>,
     "clock"?: {"turn_ms", "grace_ms", "dealt_at_ms", "last_ms"}, "fair"?: {"commitment", "seeds", "server_seed"}}

``round_id`` and ``seq`` are answered in the clear beside every token, so that a game server can tell
the latest token of a table from an older one by two values instead of the whole token
(docs/integrator.md, "One comparison refuses a stale token"). ``context`` binds the token to the
caller's table: every later call with the token must send the same one. A clocked round's token
holds the clock's settings, when the round was dealt (Unix milliseconds, the service's clock) and
when its last move was made (milliseconds since the deal): the deadline of the seat to move follows,
and is answered as ``clock``. A committed deal's token holds the server seed until the round is over,
when the record reveals it (docs/fair-deals.md).

A token sealed by the version before this one holds no ``round``: it opens as a round of its own
(its id derived from its record's deck, which every token of that round carries alike, keyed with the
sealing key so that it tells nothing of the deck), with no context and no clock.
"""

from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from flask import current_app

from service.rules import RoundState, TurnClock
from service.rules.errors import check_seat
from service.rules.seat_view import views_json

from .problems import Problem
from .records import unpacked
from .sealing import Sealer, TokenError

ROUND_ID_BYTES = 16
MAX_CONTEXT_CHARS = 128


def current_sealer() -> Sealer:
    sealer: Sealer = current_app.extensions["chkobba.sealer"]
    return sealer


def now_seconds() -> float:
    """The service's clock, Unix seconds: the token's issue time and a clocked round's deadlines (a
    test may set ``app.extensions["chkobba.clock"]``)."""
    clock = current_app.extensions.get("chkobba.clock", time.time)
    return float(clock())


# How long after a turn's grace a clocked round's token still lives, at the least: time for a game server
# to send the timeout move.
TIMEOUT_MARGIN_SECONDS = 60


@dataclass(frozen=True, slots=True)
class RoundClock:
    """A clocked round's clock, as its token carries it."""

    turn_ms: int
    grace_ms: int
    dealt_at_ms: int  # Unix milliseconds, the service's clock
    last_ms: int = 0  # when the last move was made, in milliseconds since the deal (0: the deal)

    @property
    def rules_clock(self) -> TurnClock:
        return TurnClock(self.turn_ms, self.grace_ms)

    @property
    def deadline_ms(self) -> int:
        """The deadline of the seat to move, in Unix milliseconds."""
        return self.dealt_at_ms + self.last_ms + self.turn_ms

    def at_ms(self, now_ms: int) -> int:
        """When a move made now is made, in milliseconds since the deal: never before the last move,
        whatever another replica's clock said then."""
        return max(now_ms - self.dealt_at_ms, self.last_ms)

    def to_payload(self) -> dict[str, int]:
        return {
            "turn_ms": self.turn_ms,
            "grace_ms": self.grace_ms,
            "dealt_at_ms": self.dealt_at_ms,
            "last_ms": self.last_ms,
        }

    @classmethod
    def dealt(cls, clock: dict[str, int], sealer: Sealer) -> RoundClock:
        """The clock that dealRound's ``clock`` starts now, if every turn ends, and its timeout move can be
        sent, while the token that carries it lives: else the round could not end."""
        longest = sealer.lifetime_seconds - TIMEOUT_MARGIN_SECONDS - clock["grace_seconds"]
        if clock["turn_seconds"] > longest:
            raise Problem(
                422,
                "clock-outlasts-token",
                f"a turn of {clock['turn_seconds']} s, with {clock['grace_seconds']} s of grace and "
                f"{TIMEOUT_MARGIN_SECONDS} s to send the timeout move, outlasts the state token's "
                f"{sealer.lifetime_seconds} s: {max(longest, 0)} s at most here",
                errors={"clock.turn_seconds": [f"at most {max(longest, 0)} on this deployment"]},
            )
        return cls(clock["turn_seconds"] * 1000, clock["grace_seconds"] * 1000, round(now_seconds() * 1000))

    @classmethod
    def of_payload(cls, data: dict[str, Any]) -> RoundClock:
        return cls(data["turn_ms"], data["grace_ms"], data["dealt_at_ms"], data["last_ms"])

    def record_json(self) -> dict[str, Any]:
        """The clock as a record gives it: its settings, and when the round was dealt."""
        return {**self.rules_clock.to_json(), "dealt_at": rfc3339(self.dealt_at_ms)}


def rfc3339(unix_ms: int) -> str:
    """A time as RFC 3339 UTC with milliseconds: ``2026-12-02T07:40:05.123Z``. Every answer of a
    clocked round gives one (the deadline): its minute is written once (``_minute``), then only the
    seconds and milliseconds, which costs a tenth of what formatting the whole time did."""
    minute, ms = divmod(unix_ms, 60_000)
    seconds, ms = divmod(ms, 1000)
    return f"{_minute(minute)}:{seconds:02d}.{ms:03d}Z"


@lru_cache(maxsize=4096)  # about three days of minutes: the deadlines of the rounds being played
def _minute(minute: int) -> str:
    return datetime.fromtimestamp(minute * 60, tz=UTC).strftime("%Y-%m-%dT%H:%M")


@dataclass(frozen=True, slots=True)
class Carried:
    """A sealed round's data beside its state."""

    round_id: str
    seq: int
    record: dict[str, Any] | None  # packed (service/api/records.py); None only in a very old token
    context: str | None = None
    clock: RoundClock | None = None
    fair: dict[str, Any] | None = None  # {"commitment", "seeds", "server_seed"}: revealed with the record

    @classmethod
    def dealt(
        cls,
        record: dict[str, Any],
        *,
        context: str | None,
        clock: RoundClock | None,
        fair: dict[str, Any] | None,
    ) -> Carried:
        return cls(new_round_id(), 0, record, context, clock, fair)

    def after_move(self, record: dict[str, Any] | None, at_ms: int | None) -> Carried:
        # Built directly: dataclasses.replace costs more than all of a clock's own work on a move.
        clock = self.clock
        if clock is not None and at_ms is not None:
            clock = RoundClock(clock.turn_ms, clock.grace_ms, clock.dealt_at_ms, at_ms)
        return Carried(self.round_id, self.seq + 1, record, self.context, clock, self.fair)

    def to_payload(self) -> dict[str, Any]:
        meta: dict[str, Any] = {"id": self.round_id, "seq": self.seq}
        if self.context is not None:
            meta["context"] = self.context
        if self.clock is not None:
            meta["clock"] = self.clock.to_payload()
        if self.fair is not None:
            meta["fair"] = self.fair
        return meta


def new_round_id() -> str:
    return secrets.token_urlsafe(ROUND_ID_BYTES)


def seal(sealer: Sealer, state: RoundState, carried: Carried) -> str:
    payload = state.to_json()
    if carried.record is not None:
        payload["record"] = carried.record
    payload["round"] = carried.to_payload()
    return sealer.seal(payload, now=now_seconds())


def open_token(sealer: Sealer, token: str, context: str | None) -> tuple[RoundState, Carried]:
    """The state a token carries, validated, and the rest it carries; refused unless ``context`` is
    the one the round was dealt with (none, if it was dealt with none)."""
    payload = sealer.open(token, now=now_seconds())
    record = payload.pop("record", None)
    record = record if isinstance(record, dict) else None
    meta = payload.pop("round", None)
    if isinstance(meta, dict):
        clock = meta.get("clock")
        carried = Carried(
            meta["id"],
            meta["seq"],
            record,
            meta.get("context"),
            None if clock is None else RoundClock.of_payload(clock),
            meta.get("fair"),
        )
    else:  # sealed by the version before this one
        carried = Carried(_legacy_round_id(sealer, record), len(record["moves"]) if record else 0, record)
    if not _same_context(carried.context, context):
        raise TokenError(
            "tampered-state",
            "context",
            "state_token belongs to another context: send the context the round was dealt with",
        )
    return RoundState.from_json(payload), carried


def _same_context(bound: str | None, given: str | None) -> bool:
    if bound is None or given is None:
        return bound is given
    return hmac.compare_digest(bound.encode(), given.encode())


def _legacy_round_id(sealer: Sealer, record: dict[str, Any] | None) -> str:
    deck = record["deck"] if record else ""
    digest = hmac.digest(sealer.keys[0], b"chkobba legacy round " + deck.encode(), "sha256")
    return "v1-" + digest[:ROUND_ID_BYTES].hex()


def sealed_answer(
    sealer: Sealer, state: RoundState, carried: Carried, viewer: int | None, *, ended: bool
) -> dict[str, Any]:
    """A sealed answer: the token (the state and the rest, encrypted), the round's id and place, the
    views (every seat's, or ``viewer``'s alone), a clocked round's deadline and, once the round has
    ended (over, or a void deal), the record itself, which then hides nothing."""
    if viewer is not None:
        check_seat(viewer, state.players, field="viewer")
    seats = range(state.players) if viewer is None else [viewer]
    out: dict[str, Any] = {
        "state_token": seal(sealer, state, carried),
        "round_id": carried.round_id,
        "seq": carried.seq,
        "views": views_json(state, seats),
    }
    if (clock := deadline_json(state, carried)) is not None:
        out["clock"] = clock
    if ended and carried.record is not None:
        out["record"] = record_of(state, carried)
    return out


def deadline_json(state: RoundState, carried: Carried) -> dict[str, Any] | None:
    """A clocked round's ``clock`` while a seat is to move (no seat is, once the round has ended): that
    seat, and its deadline."""
    if carried.clock is None or state.turn is None:
        return None
    return {"seat": state.turn, "deadline": rfc3339(carried.clock.deadline_ms)}


def record_of(state: RoundState, carried: Carried) -> dict[str, Any]:
    """The record of the round that ``state`` ends, as replayRound takes it: with its clock, and the
    committed deal it was dealt from, server seed revealed."""
    assert carried.record is not None
    record = unpacked(state, carried.record)
    if carried.clock is not None:
        record["clock"] = carried.clock.record_json()
    if carried.fair is not None:
        record["fair"] = carried.fair
    return record
