"""The round operations: deal, play move by move, replay a whole record."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response

import service.strategy as strategy
from service.ops import metrics
from service.rules import (
    AUTO_TIMEOUT,
    ClockRunning,
    FairCheck,
    Move,
    MoveError,
    NotYourTurn,
    Phase,
    RecordMoves,
    Replay,
    RoundState,
    TurnClock,
    TurnExpired,
    advance,
    check_fair_deal,
    deal_round,
    replay_round,
    round_breakdown,
    seat_view,
    spectator_json,
)
from service.rules.cards import codes

from . import examples, schemas
from .deals import committed_deck
from .fields import Timeout
from .io import answer, body
from .operations import Operation, operation
from .receipts import answer_with_receipt, signer
from .records import new_record, with_move
from .render import breakdown_json, verdicts_json
from .sealed_rounds import (
    Carried,
    RoundClock,
    current_sealer,
    deadline_json,
    now_seconds,
    open_token,
    rfc3339,
    sealed_answer,
)

# The default move of a seat whose time ran out, by the step budgets alone (never the time budget, a
# safety net that depends on the machine): anyone replaying the record finds the same move.
DEFAULT_MOVE_BUDGET = strategy.Budget(seconds=float("inf"))

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
    fair = data.get("fair")
    deck, reveal = (data.get("deck"), None) if fair is None else committed_deck(current_sealer(), fair, data["players"])
    state, dealt = deal_round(
        data["rules"], data["players"], data["dealer"], deck=deck, seed=data.get("seed"), cut=data.get("cut")
    )
    if not data["sealed"]:
        return answer({"state": state.to_json(), "deck": codes(dealt)})
    clock = data.get("clock")
    carried = Carried.dealt(
        new_record(dealt, data.get("cut")),
        context=data.get("context"),
        clock=None if clock is None else RoundClock.dealt(clock, current_sealer()),
        fair=reveal,
    )
    return answer(_sealed(state, carried, data.get("viewer")))


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
        'docs/rules.md §10.20, docs/performance.md "What each operation costs at worst"; never with a `state_token`).',
        "rounds",
        schemas.PlayResponse,
        schemas.PlayRequest,
        examples.play,
    ),
)
def play_round() -> Response:
    data = body("play")
    # Validated once: by the schema's StateField, or as the token is opened (play() would validate it
    # again). A token also carries the round's record.
    state, carried = state_and_carried(data)
    move = data["move"]  # a Move (or a Timeout), parsed by the schema's MoveField
    at_ms, auto = None, isinstance(move, Timeout)
    try:
        if isinstance(move, Timeout):
            check_timeout(state, carried, move.seat)
        if carried is not None and carried.clock is not None:
            at_ms = on_time(carried.clock, state, auto)
        if isinstance(move, Timeout):  # the seat's time has run out: the service plays for it
            move = default_move(state)
        after, event = advance(state, move)
    except MoveError as exc:
        metrics.illegal_move(exc.code)
        exc.field = exc.field if exc.field and exc.field.startswith("move") else f"move.{exc.field}"
        if carried is not None:
            # Whoever sends a sealed state may not be the seat to move: never show that seat's hand.
            exc.details.pop("legal", None)
        raise
    breakdown = breakdown_json(round_breakdown(after)) if after.phase is _OVER else None
    if carried is not None:
        record = None if carried.record is None else with_move(carried.record, event, at_ms, auto)
        out = _sealed(after, carried.after_move(record, at_ms), data.get("viewer"))
    else:
        out = {"state": after.to_json()}
    played = event.to_json()
    if auto:
        played["auto"] = AUTO_TIMEOUT
    if at_ms is not None:
        played["at_ms"] = at_ms
    return answer({**out, "event": played, "breakdown": breakdown, "next_dealer": after.next_dealer})


def check_timeout(state: RoundState, carried: Carried | None, seat: int) -> None:
    """A timeout move names the seat to move, in a clocked round."""
    if carried is None or carried.clock is None:
        raise ClockRunning("the round has no turn clock: no seat's time runs out", field="move.timeout")
    if state.turn is not None and seat != state.turn:
        raise NotYourTurn(f"it is seat {state.turn}'s turn, not seat {seat}'s", field="move.seat", turn=state.turn)


def default_move(state: RoundState) -> Move:
    """The default move of the seat to move (docs/rules.md §10.25): the club level's top hint for it,
    by the step budgets alone, so that anyone replaying the record recomputes it on any machine under
    any load (the time budget, a safety net, could vary it)."""
    best = strategy.suggest(state, limit=1, budget=DEFAULT_MOVE_BUDGET).moves[0].move
    return best


def on_time(clock: RoundClock, state: RoundState, auto: bool) -> int:
    """When a move is made, in milliseconds since the deal; raises the clock's refusal: a timeout
    before the deadline (``clock-running``), any other move after it and its grace (``turn-expired``)."""
    now_ms = round(now_seconds() * 1000)
    deadline = clock.deadline_ms
    if state.phase not in (Phase.PLAY, Phase.CUT):
        return clock.at_ms(now_ms)  # the round refuses the move itself (wrong-phase)
    if auto and now_ms < deadline:
        raise ClockRunning(
            f"seat {state.turn}'s time runs out at {rfc3339(deadline)}, in {deadline - now_ms} ms: "
            "a timeout move is played only after it",
            field="move.timeout",
        )
    if not auto and now_ms > deadline + clock.grace_ms:
        raise TurnExpired(
            f"seat {state.turn}'s time ran out at {rfc3339(deadline)} ({now_ms - deadline} ms ago, more than the "
            f"{clock.grace_ms} ms of grace): send the timeout move, which plays the default move for it",
            field="move",
        )
    return clock.at_ms(now_ms)


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
    state, carried = state_and_carried(data)
    seat = data.get("seat")
    out: dict[str, Any] = (
        {"spectator": spectator_json(state)} if seat is None else {"view": seat_view(state, seat).to_json()}
    )
    if carried is not None and (clock := deadline_json(state, carried)) is not None:
        out["clock"] = clock  # a player who comes back learns the deadline from the view
    return answer(out)


def state_of(data: dict[str, Any]) -> RoundState:
    """The plain state of a request (its schema field built and validated it), or the one its token
    carries, validated as it is opened."""
    return state_and_carried(data)[0]


def state_and_carried(data: dict[str, Any]) -> tuple[RoundState, Carried | None]:
    """``state_of``, with what a token carries beside its state (None for a plain state)."""
    if "state_token" in data:
        return opened(data)
    state: RoundState = data["state"]
    return state, None


def opened(data: dict[str, Any]) -> tuple[RoundState, Carried]:
    """The state the request's token carries, validated, and what it carries beside (the round's id,
    place, clock and record so far), if the request's ``context`` is the round's."""
    return open_token(current_sealer(), data["state_token"], data.get("context"))


def _sealed(state: RoundState, carried: Carried, viewer: int | None) -> dict[str, Any]:
    """A sealed answer (``sealed_answer``); the one that ends the round carries its record, signed."""
    out = sealed_answer(current_sealer(), state, carried, viewer, ended=state.phase in _ENDED)
    if "record" in out:
        out["record_receipt"] = signer().sign_document({"operation": "playRound", "record": out["record"]})
    return out


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
    result = replay_record(data)
    breakdown = result.breakdown
    out: dict[str, Any] = {
        "valid": result.valid,
        "complete": result.complete,
        "first_illegal": result.first_illegal,
        "moves": verdicts_json(result.moves, data["moves"]),
        "state": result.state.to_json(),
        "breakdown": breakdown_json(breakdown),
        "next_dealer": result.state.next_dealer,
    }
    if "fair" in data:
        out.update(fair_check(data, result.deck).to_json())
    refused = result.first_illegal_code  # the replay stopped there
    if refused:
        metrics.illegal_move(refused)
    if "claimed" in data:
        claim = result.judge(data["claimed"])
        metrics.claim("replay", claim.valid)
        out["claim"] = claim.to_json()
    return answer_with_receipt(data, out)


def replay_record(data: dict[str, Any]) -> Replay:
    """replay_round of a loaded record (a replayRound body, a round of a match record): its moves,
    their times against its clock, and any move played on timeout against the default move."""
    moves: RecordMoves = data["moves"]
    clock = data.get("clock")
    return replay_round(
        data["rules"],
        data["players"],
        data["dealer"],
        moves.moves,
        deck=data["deck"],
        cut=data.get("cut"),
        clock=None if clock is None else TurnClock.of_json(clock),
        stamps=moves.stamps,
        default_move=default_move,
    )


def fair_check(data: dict[str, Any], deck: Any) -> FairCheck:
    fair = data["fair"]
    return check_fair_deal(data["players"], fair["commitment"], fair["seeds"], fair["server_seed"], deck)
