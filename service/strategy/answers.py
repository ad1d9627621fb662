"""What the strategy answers: the moves ranked, each with its score and the reasons behind it."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from service.rules import CutMove, PlayMove

from .budget import Shortened


class Reason(enum.Enum):
    """Why a move scores as it does. The codes are stable; docs/strategy.md "Move hints" documents each one."""

    TAKES_SEVEN_OF_DIAMONDS = "takes-seven-of-diamonds"  # 000 "never leave the 7D", 002, 004
    SWEEPS = "sweeps"  # the capture empties the table (not on the last play)
    TAKES_SEVENS = "takes-sevens"  # sevens majority still open (chkobba): 000 "count the sevens"
    TAKES_SIXES = "takes-sixes"  # sixes break a tie in sevens (chkobba)
    TAKES_DIAMONDS = "takes-diamonds"  # 000 "on equal value take diamonds", 002, 004
    TAKES_CARDS = "takes-cards"  # the most-cards point still open
    BLOCKS_SWEEP = "blocks-sweep"  # 000 "block the opponent's sweep"; 002, 004 "watch the table total"
    SWEEP_RISK = "sweep-risk"  # the next player may sweep the table left
    LEAVES_SEVEN_OF_DIAMONDS = "leaves-seven-of-diamonds"  # 7D stays on the table within the next player's reach
    LAYS_SCORING_CARD = "lays-scoring-card"  # 000 "think about what you leave": 7D, a diamond, a seven laid
    GIVES_CAPTURES = "gives-captures"  # 000 "think about what you leave": the next player's best reply is costly
    KEEPS_SEVEN = "keeps-seven"  # 004 "until the 7D shows, keep a 7 in hand"
    EXACT_ENDGAME = "exact-endgame"  # two players, empty stock: the score is the exact final margin
    WINS_LAST_CAPTURE = "wins-last-capture"  # exact endgame: our side captures last and collects the table
    KEEPS_CUT_CARD = "keeps-cut-card"  # the cut: keep the drawn card
    TABLES_CUT_CARD = "tables-cut-card"  # the cut: put the drawn card on the table


REASONS: Final = tuple(r.value for r in Reason)
_REASON_ORDER: Final = {r: i for i, r in enumerate(Reason)}


def ordered(reasons: Sequence[Reason]) -> tuple[Reason, ...]:
    """The reasons once each, in the order of ``Reason``."""
    return tuple(sorted(set(reasons), key=_REASON_ORDER.__getitem__))


Scored = tuple[float, tuple[Reason, ...]]  # a play's score (rounded) and its reasons, in order


@dataclass(frozen=True, slots=True)
class Hint:
    move: PlayMove | CutMove
    score: float  # the expected final point margin of the round after this move (see the package doc)
    reasons: tuple[Reason, ...]

    def to_json(self) -> dict[str, Any]:
        return {"move": move_json(self.move), "score": self.score, "reasons": [r.value for r in self.reasons]}


def move_json(move: PlayMove | CutMove) -> dict[str, Any]:
    """A move as playRound takes it: in phase play its card and capture (empty when laid)."""
    if isinstance(move, CutMove):
        return {"cut": move.cut.value}
    return {"card": move.card.code, "capture": [c.code for c in move.capture or ()]}


@dataclass(frozen=True, slots=True)
class Hints:
    """The answer of ``suggest``: the best moves, how many legal moves there are, and which budget,
    if any, cut the search short (then every move was scored by the race and the habits alone)."""

    moves: tuple[Hint, ...]  # best first, at most ``limit``
    count: int  # every legal move of the seat
    shortened_by: Shortened | None = None
