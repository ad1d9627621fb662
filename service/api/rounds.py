"""The round operations: deal, play move by move, replay a whole record."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app

from service.ops import metrics
from service.rules import (
    Phase,
    RoundState,
    advance,
    deal_round,
    replay_round,
    round_breakdown,
    seat_view,
    spectator_json,
)
from service.rules.cards import codes
from service.rules.errors import MoveError, check_seat
from service.rules.seat_view import views_json

from . import examples, schemas
from .io import answer, body
from .operations import Operation, operation
from .receipts import answer_with_receipt
from .records import new_record, unpacked, with_move
from .render import breakdown_json, verdicts_json
from .sealing import Sealer

bp = Blueprint("rounds", __name__)
_OVER = Phase.OVER  # an Enum class attribute costs a hook call on Python 3.11: read once
_ENDED = (Phase.OVER, Phase.REDEAL)  # a round ends played, or as a void deal: its record is then public


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
        examples.deal,
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
    if data["sealed"]:
        return answer(_sealed(state, data.get("viewer"), new_record(deck, data.get("cut"))))
    return answer({"state": state.to_json(), "deck": codes(deck)})


@operation(
    bp,
    Operation(
        "playRound",
        "post",
        "/v1/rounds/play",
        "Play one move of a round",
        "Checks `state` against docs/rules.md §9, then applies `move`: `{card, capture?}` in phase play, `{cut}` in "
        "phase cut. Answers with the next state, what happened, and the breakdown once the round is over. An illegal "
        "move is a 422 problem naming the legal options, every one (about 11 KB at most: a round's table is bounded, "
        'docs/rules.md §10.20, README "What each operation costs at worst"; never with a `state_token`).',
        "rounds",
        schemas.PlayResponse,
        schemas.PlayRequest,
        examples.play,
    ),
)
def play_round() -> Response:
    data = body("play")
    sealed = "state_token" in data
    # Validated once: by the schema's StateField, or as the token is opened (play() would validate it
    # again). A token also carries the round's record.
    state, record = _opened(data["state_token"]) if sealed else (data["state"], None)
    move = data["move"]  # a Move, parsed by the schema's MoveField
    try:
        after, event = advance(state, move)
    except MoveError as exc:
        metrics.illegal_move(exc.code)
        exc.field = exc.field if exc.field and exc.field.startswith("move") else f"move.{exc.field}"
        if sealed:
            # Whoever sends a sealed state may not be the seat to move: never show that seat's hand.
            exc.details.pop("legal", None)
        raise
    breakdown = breakdown_json(round_breakdown(after)) if after.phase is _OVER else None
    if sealed:
        carried = _sealed(after, data.get("viewer"), None if record is None else with_move(record, event))
    else:
        carried = {"state": after.to_json()}
    return answer({**carried, "event": event.to_json(), "breakdown": breakdown, "next_dealer": after.next_dealer})


@operation(
    bp,
    Operation(
        "viewRound",
        "post",
        "/v1/rounds/view",
        "One seat's view of a round, or a spectator's",
        "What `seat` may know of the round in `state` (or `state_token`): its own hand, the table, the piles "
        "captured in the open, sweeps, whose turn it is, and how many cards each hand and the stock hold. Never "
        "another hand (a partner's included), the order of the stock, or a cut card another seat drew. Without "
        "`seat`, `spectator`: what everyone at the table sees (for an arbiter or a broadcast), no hand at all.",
        "rounds",
        schemas.ViewResponse,
        schemas.ViewRequest,
        examples.view,
    ),
)
def view_round() -> Response:
    data = body("view")
    state = state_of(data)
    if "seat" not in data:
        return answer({"spectator": spectator_json(state)})
    return answer({"view": seat_view(state, data["seat"]).to_json()})


def state_of(data: dict[str, Any]) -> RoundState:
    """The plain state of a request (its schema field built and validated it), or the one its token
    carries, validated as it is opened."""
    if "state_token" in data:
        return _opened(data["state_token"])[0]
    state: RoundState = data["state"]
    return state


def _opened(token: str) -> tuple[RoundState, dict[str, Any] | None]:
    """The state a token carries, validated, and the round's record so far (none in a token sealed
    before records were kept): ``{"deck", "cut", "moves"}``, which only the round's end reveals."""
    payload = _sealer().open(token)
    record = payload.pop("record", None)
    return RoundState.from_json(payload), record if isinstance(record, dict) else None


def _sealed(state: RoundState, viewer: int | None, record: dict[str, Any] | None) -> dict[str, Any]:
    """A sealed answer: the token (the state and the record so far, encrypted) and the views; once the
    round has ended (over, or a void deal), the record itself, which then hides nothing."""
    if viewer is not None:
        check_seat(viewer, state.players, field="viewer")
    seats = range(state.players) if viewer is None else [viewer]
    payload = state.to_json()
    if record is not None:
        payload["record"] = record
    out: dict[str, Any] = {"state_token": _sealer().seal(payload), "views": views_json(state, seats)}
    if record is not None and state.phase in _ENDED:
        out["record"] = unpacked(state, record)
    return out


def _sealer() -> Sealer:
    sealer: Sealer = current_app.extensions["chkobba.sealer"]
    return sealer


@operation(
    bp,
    Operation(
        "replayRound",
        "post",
        "/v1/rounds/replay",
        "Replay a whole round record",
        "Deals from `deck` and plays `moves` in order, giving a verdict on each and stopping at the first illegal "
        "one, which is a verdict (200), not an error. Answers with the state reached and, when the record reaches "
        "the end of the round, the breakdown; with `claimed`, a verdict on the claimed breakdown. The illegal move's "
        "verdict lists every legal option of the seat (`legal`), which a big table makes long.",
        "rounds",
        schemas.ReplayResponse,
        schemas.ReplayRequest,
        examples.replay,
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
        "moves": verdicts_json(result.moves),
        "state": result.state.to_json(),
        "breakdown": breakdown_json(breakdown),
        "next_dealer": result.state.next_dealer,
    }
    refused = result.moves[-1].code if result.first_illegal is not None else None  # the replay stopped there
    if refused:
        metrics.illegal_move(refused)
    if "claimed" in data:
        claim = result.judge(data["claimed"])
        metrics.claim("replay", claim.valid)
        out["claim"] = claim.to_json()
    return answer_with_receipt(data, out)
