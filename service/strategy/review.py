"""The review of a round (docs/strategy.md, "Review"): for every move of a record, every legal move
valued from what the mover could know at that moment, the best of them, what the played one gave up
(``loss``, in expected round points) and a judgment; per seat, the points given up and an accuracy.

Each move is valued from the mover's ``SeatKnowledge`` at that moment (its ``SeatView``: its hand,
everything played in the open, the sizes of what is hidden), never from the record's other hands or
the order of its stock, which a review may no more use than the player could. A move's value is the
strategy's score of it (``Hint.score``: the final round-point margin the mover's side may expect
after it), so ``loss`` is the drop in that margin. Where the mover knows where every card is (two
players, an empty stock) the value is the endgame search's exact final margin under best play, and
the loss is exact.

The review is a generator (``move_reviews``), one move at a time, so that the caller may let other
work run between two moves: a move costs what one ranking of the strategy costs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from service.rules import CutMove, MoveVerdict, Phase, PlayMove, RoundInPlay, RoundState, seat_view

from .answers import Hint, Reason
from .budget import Budget
from .knowledge import SeatKnowledge
from .levels import knowledge_seed, rank_at
from .ranking import rank

# The judgments, by the loss in round points of margin (docs/strategy.md, "Review", says why): a loss
# below each bound gets the judgment before it.
BEST_BELOW: Final = 0.005  # the played move's value is the best's (scores are rounded to 4 decimals)
GOOD_BELOW: Final = 0.2
INACCURACY_BELOW: Final = 0.4
MISTAKE_BELOW: Final = 0.6  # and a blunder from here on
JUDGMENTS: Final = ("forced", "best", "good", "inaccuracy", "mistake", "blunder")
ACCURACY_SCALE: Final = 0.5  # a move's accuracy is 100 * exp(-loss / ACCURACY_SCALE)

# The ranking's budget in a review: by steps alone (never the time safety net, which depends on the
# machine), so that a review is the same everywhere; the endgame search may go further than a hint's
# before it gives up its exactness (a real round's endgame spends about 630 steps at most).
REVIEW_BUDGET: Final = Budget(seconds=math.inf, endgame_steps=20_000)


def value_moves(knowledge: SeatKnowledge) -> tuple[Hint, ...]:
    """Every legal move of the seat to move, valued and ranked best first: the one place the review
    chooses how moves are valued. As the expert level values them, seeded as suggestMoves seeds it
    (so that the expert's own move reviews as best); where the mover knows every card's place, by the
    exact endgame search (the expert's too), with the review's larger budget."""
    k = knowledge
    if k.phase is Phase.PLAY and k.known_round() is not None and k.players == 2:
        return rank(k, budget=REVIEW_BUDGET).moves
    return rank_at(k, "expert", knowledge_seed(k))


@dataclass(frozen=True, slots=True)
class MoveReview:
    index: int  # the move's position in the record
    seat: int
    played: PlayMove | CutMove  # with the cards it took (a play's capture is never left out)
    best: PlayMove | CutMove
    played_value: float  # the expected final margin of the mover's side after the move played
    best_value: float
    loss: float  # best_value - played_value, >= 0
    judgment: str  # one of JUDGMENTS
    legal_moves: int
    exact: bool  # the values are the exact final margins (the endgame search, with two players and an empty stock)


@dataclass(frozen=True, slots=True)
class SeatReview:
    seat: int
    moves: int  # the seat's moves reviewed
    forced: int  # of which forced
    loss: float  # the points given up, summed over its moves
    accuracy: float | None  # a percentage; None when the seat made no move that was not forced


def move_reviews(start: RoundState, verdicts: Iterable[MoveVerdict]) -> Iterator[MoveReview]:
    """The review of each legal move of a replay (``replay_round``'s verdicts), dealt as ``start``, up
    to its first illegal move, one at a time."""
    in_play = RoundInPlay(start)
    for verdict in verdicts:
        if not verdict.legal or verdict.event is None:
            return
        state = in_play.state()
        seat = state.turn
        assert seat is not None and verdict.event.seat == seat  # a legal move is the turn's
        event = in_play.move(verdict.move)
        played: PlayMove | CutMove = (
            event.move if isinstance(event.move, CutMove) else PlayMove(event.move.card, event.taken)
        )
        yield review_move(verdict.position, SeatKnowledge.of(seat_view(state, seat)), played)


def review_move(index: int, knowledge: SeatKnowledge, played: PlayMove | CutMove) -> MoveReview:
    """The review of ``played``, a legal move of the seat to move in ``knowledge``."""
    hints = value_moves(knowledge)
    best = hints[0]
    mine = next(h for h in hints if same_move(h.move, played))
    loss = max(0.0, round(best.score - mine.score, 4))
    exact = knowledge.phase is Phase.PLAY and all(Reason.EXACT_ENDGAME in h.reasons for h in hints)
    return MoveReview(
        index,
        knowledge.seat,
        played,
        best.move,
        mine.score,
        best.score,
        loss,
        judgment(loss, len(hints)),
        len(hints),
        exact,
    )


def same_move(move: PlayMove | CutMove, other: PlayMove | CutMove) -> bool:
    """The same cut, or the same card taking the same cards (as a set)."""
    if isinstance(move, CutMove) or isinstance(other, CutMove):
        return isinstance(move, CutMove) and isinstance(other, CutMove) and move.cut is other.cut
    return move.card is other.card and set(move.capture or ()) == set(other.capture or ())


def judgment(loss: float, legal_moves: int) -> str:
    if legal_moves == 1:
        return "forced"
    if loss < BEST_BELOW:
        return "best"
    if loss < GOOD_BELOW:
        return "good"
    if loss < INACCURACY_BELOW:
        return "inaccuracy"
    if loss < MISTAKE_BELOW:
        return "mistake"
    return "blunder"


def move_accuracy(loss: float) -> float:
    """A move's accuracy, in percent: 100 for no loss, 37 for half a round point."""
    return 100.0 * math.exp(-loss / ACCURACY_SCALE)


def seat_reviews(players: int, reviews: Sequence[MoveReview]) -> tuple[SeatReview, ...]:
    """Per seat: its moves, the points they gave up, and its accuracy, the mean of the accuracies of
    its moves that were not forced (a forced move shows nothing of the player)."""
    out = []
    for seat in range(players):
        mine = [r for r in reviews if r.seat == seat]
        chosen = [r for r in mine if r.judgment != "forced"]
        accuracy = round(sum(move_accuracy(r.loss) for r in chosen) / len(chosen), 1) if chosen else None
        out.append(SeatReview(seat, len(mine), len(mine) - len(chosen), round(sum(r.loss for r in mine), 4), accuracy))
    return tuple(out)
