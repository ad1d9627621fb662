"""The review of a round record: each move against the best one the mover could know of.

A review values every legal move of every move of the record (about one move hint's work per move),
so it is the one operation allowed past the 50 ms of CPU any other request may cost: its cost is in
the description below and in docs/strategy.md ("Review"). Under gunicorn's worker (service/ops/worker.py),
where requests compute one at a time, the view itself only replays the record (what any refusal comes
from) and answers with a body that reviews the moves as it is sent, after the view has given up its
turn, pausing between two moves: the other requests compute in those pauses, so a review holds none
of them up by more than one move's work (tests/ops/test_review_latency.py).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any, Final

from flask import Blueprint, Response
from marshmallow import Schema, fields, validate

from service.rules import Replay, RoundState, deal_round
from service.strategy.answers import move_json
from service.strategy.review import (
    ACCURACY_SCALE,
    BEST_BELOW,
    GOOD_BELOW,
    INACCURACY_BELOW,
    JUDGMENTS,
    MISTAKE_BELOW,
    MoveReview,
    move_reviews,
    seat_reviews,
)

from . import schemas
from .encoding import to_json
from .examples import played_record
from .io import body
from .operations import Operation, operation
from .rounds import fair_check, replay_record

bp = Blueprint("reviews", __name__)

# Between two moves, the review sleeps this long: under gevent (gunicorn's worker patches time.sleep)
# a timer, so that the loop polls every connection and the requests waiting compute; elsewhere a
# thread's sleep. 36 moves wait 36 ms in all.
PAUSE_SECONDS: Final = 0.001


class MoveReviewOut(Schema):
    index = fields.Integer(required=True, metadata={"description": "The move's position in the record, from 0."})
    seat = fields.Integer(required=True)
    played = fields.Nested(
        schemas.MoveInput,
        required=True,
        metadata={"description": "The move played, with every card it took (`capture`, empty when laid)."},
    )
    best = fields.Nested(
        schemas.MoveInput,
        required=True,
        metadata={"description": "The best move from what the mover could know (the first of equals in card order)."},
    )
    loss = fields.Float(
        required=True,
        validate=validate.Range(min=0),
        metadata={
            "description": "The expected round points the played move gave up: `best_value - played_value`, in "
            "points of the final margin of the mover's side (docs/strategy.md, Review). 0 for the best move."
        },
    )
    judgment = fields.String(
        required=True,
        validate=validate.OneOf(JUDGMENTS),
        metadata={
            "description": f"`forced` (a single legal move), else by `loss`: `best` below {BEST_BELOW}, `good` below "
            f"{GOOD_BELOW}, `inaccuracy` below {INACCURACY_BELOW}, `mistake` below {MISTAKE_BELOW}, `blunder` from "
            f"{MISTAKE_BELOW} on."
        },
    )
    played_value = fields.Float(
        required=True,
        metadata={
            "description": "Phase play: the final point margin of the mover's side (its points minus the mean of "
            "the other sides') expected after the move played, from what the mover could know. Phase cut: a preference."
        },
    )
    best_value = fields.Float(required=True, metadata={"description": "The same, after the best move."})
    legal_moves = fields.Integer(required=True, metadata={"description": "How many legal moves the mover had."})
    exact = fields.Boolean(
        required=True,
        metadata={
            "description": "The values are the exact final margins under best play from both seats: two players "
            "and an empty stock, where the mover knows where every card is."
        },
    )


class SeatReviewOut(Schema):
    seat = fields.Integer(required=True)
    loss = fields.Float(required=True, metadata={"description": "The round points its moves gave up, summed."})
    accuracy = fields.Float(
        required=True,
        allow_none=True,
        validate=validate.Range(min=0, max=100),
        metadata={
            "description": f"A percentage: the mean, over the seat's moves that were not forced, of 100 * "
            f"exp(-loss / {ACCURACY_SCALE}) (100 for the best move). null when the seat made no such move."
        },
    )
    moves = fields.Integer(required=True, metadata={"description": "The seat's moves reviewed."})
    forced = fields.Integer(required=True, metadata={"description": "Of which forced."})


class ReviewResponse(Schema):
    moves = fields.List(
        fields.Nested(MoveReviewOut),
        required=True,
        metadata={"description": "Every legal move of the record, in order, up to its first illegal move."},
    )
    seats = fields.List(fields.Nested(SeatReviewOut), required=True, metadata={"description": "Every seat."})
    first_illegal = fields.Integer(
        required=True,
        allow_none=True,
        metadata={
            "description": "The index of the record's first illegal move, where the review stops (as replayRound)."
        },
    )
    first_illegal_code = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "Why that move is illegal: its problem code, as replayRound's verdict gives it."},
    )
    complete = fields.Boolean(required=True, metadata={"description": "The record reaches the end of the round."})


def examples() -> dict[str, dict[str, Any]]:
    first = played_record("scopa", 2, 0, "review-2", None, 1)
    return {
        "random-moves": {
            "summary": "The first eight moves of a two-player chkobba round, each a random legal move",
            "body": {
                "rules": "chkobba",
                "players": 2,
                "dealer": 0,
                **played_record("chkobba", 2, 0, "review-1", "keep", 8),
            },
        },
        "seat-beyond-the-players": {
            "summary": "A record whose first move names seat 3 of a two-player round: refused before any review",
            "body": {"rules": "scopa", "players": 2, "dealer": 0, **first, "moves": [{**first["moves"][0], "seat": 3}]},
        },
    }


@operation(
    bp,
    Operation(
        "reviewRound",
        "post",
        "/v1/rounds/review",
        "Review every move of a round record",
        "Takes a replayRound body, without `receipt` (a review is the strategy's opinion, not a verdict of the "
        "rules, and is not signed; `claimed` and `fair` are checked as replayRound checks them, and not "
        "answered), and for every move up to the first illegal one values each legal move from what the mover "
        "could know at that moment (its hand, everything played in the open, the sizes of what is hidden: never "
        "another hand or the stock), as the move hints' `expert` level values them: the best move, the expected "
        "round points the played move gave up (`loss`) and a `judgment`; per seat, the points given up and an "
        "accuracy (docs/strategy.md, Review, gives the thresholds and the formula). With two players and an empty"
        " stock the values are exact (`exact`). **The one operation allowed past 50 ms of CPU**: a review costs "
        "about one expert move hint per move, measured at 15 to 30 ms for a whole 36-move round "
        "on the benchmark's machine (bench/review.py), against goals of 2 s for a two-player round and 4 s for a "
        "four-player one; under the service's worker it pauses between two moves, so that the other requests keep"
        " their latency while it runs. A refusal comes before the answer starts; the answer is sent without a "
        "Content-Length.",
        "rounds",
        ReviewResponse,
        schemas.ReviewRequest,
        examples,
    ),
)
def review_round() -> Response:
    data = body("review")
    replay = replay_record(data)
    if "claimed" in data:  # refused as replayRound refuses it, when it could not be a round's breakdown
        replay.judge(data["claimed"])
    if "fair" in data:
        fair_check(data, replay.deck)
    start, _ = deal_round(data["rules"], data["players"], data["dealer"], deck=replay.deck, cut=data.get("cut"))
    return Response(_reviewed(start, replay), content_type="application/json")


def _reviewed(start: RoundState, replay: Replay) -> Iterator[bytes]:
    """The answer, worked out as it is sent: after the view has returned, outside its turn."""
    reviews: list[MoveReview] = []
    for review in move_reviews(start, replay.moves):
        reviews.append(review)
        time.sleep(PAUSE_SECONDS)
    yield to_json(
        {
            "moves": [move_review_json(r) for r in reviews],
            "seats": [
                {"seat": s.seat, "loss": s.loss, "accuracy": s.accuracy, "moves": s.moves, "forced": s.forced}
                for s in seat_reviews(start.players, reviews)
            ],
            "first_illegal": replay.first_illegal,
            "first_illegal_code": replay.first_illegal_code,
            "complete": replay.complete,
        }
    )


def move_review_json(review: MoveReview) -> dict[str, Any]:
    return {
        "index": review.index,
        "seat": review.seat,
        "played": move_json(review.played),
        "best": move_json(review.best),
        "loss": review.loss,
        "judgment": review.judgment,
        "played_value": review.played_value,
        "best_value": review.best_value,
        "legal_moves": review.legal_moves,
        "exact": review.exact,
    }
