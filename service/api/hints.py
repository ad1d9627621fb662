"""Move hints: every legal move of the seat to move, ranked, for a turn timer or a computer opponent."""

from __future__ import annotations

from flask import Blueprint, Response

import service.strategy as strategy

from . import examples, schemas
from .io import answer, body
from .operations import Operation, operation
from .rounds import state_of

bp = Blueprint("hints", __name__)


@operation(
    bp,
    Operation(
        "suggestMoves",
        "post",
        "/v1/hints",
        "Suggest moves, best first",
        "For the round in `state` (or `state_token`), the legal moves of the seat to move, ranked best first, each "
        'with a `score` and its `reasons` (stable codes; docs/strategy.md, "Move hints"): every card with every '
        "capture "
        "option in phase play, keep and table in phase cut; the best `limit` of them (20 by default, at most 100), "
        "and `move_count`, how many there are. The strategy uses only that seat's view, never another hand or the "
        "stock. Its work is bounded by step budgets and a CPU-time safety net (10 to 15 ms of CPU at worst on the "
        'benchmark\'s machine, docs/performance.md "What each operation costs at worst"): the answer is the same '
        "for the same "
        "input unless `shortened_by` is `time`. `seat`, when given, must be the seat to move (else "
        "`not-your-turn`); in phases redeal and over nobody moves (`wrong-phase`). Each `move` can be sent as it "
        "is to playRound. `level` chooses how the computer plays: `beginner`, `club` (the default) or `expert` "
        '(docs/strategy.md, "Levels"); each costs no more than club.',
        "rounds",
        schemas.HintsResponse,
        schemas.HintsRequest,
        examples.hints,
    ),
)
def suggest() -> Response:
    data = body("hints")
    state = state_of(data)
    found = strategy.suggest_at(state, data.get("seat"), data["level"], limit=data["limit"])
    shortened = found.shortened_by
    return answer(
        {
            "seat": state.turn,
            "moves": [hint.to_json() for hint in found.moves],
            "move_count": found.count,
            "shortened_by": None if shortened is None else shortened.value,
        }
    )
