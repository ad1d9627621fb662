"""The beginner: plays like a new player, who takes what the table shows and thinks no further.

A capture is worth what a new player sees in it (a match, or a sum of two table cards: a longer sum
goes unseen, and is worth no more to it than a card laid): the cards it takes (the most cards is a point of the
round, about one for 21 of the 40, so ``CARD`` a card) and a sweep it makes (one point). Sevens,
diamonds and 7D count like any other card (it does not count the sevens), and a card laid is worth
nothing whatever it leaves (it does not see the sweep it offers, nor the 7D it lays). Among moves it
values alike it takes one at random (drawn from ``seed``), as a new player does; at the cut it keeps
or tables the card at random.
"""

from __future__ import annotations

import random
from typing import Final

from service.rules import Cut, CutMove, NotYourTurn, Phase, PlayMove, WrongPhase

from .answers import Hint, Reason, ordered
from .knowledge import SeatKnowledge, legal_plays

CARD: Final = 1 / 21  # a card captured, as a new player values it
SWEEP: Final = 1.0
SEES: Final = 2  # a sum of more table cards than this is not seen: it is valued as a card laid


def beginner_rank(k: SeatKnowledge, seed: bytes) -> tuple[Hint, ...]:
    if k.turn != k.seat:
        raise NotYourTurn(f"it is seat {k.turn}'s turn, not seat {k.seat}'s", field="seat", turn=k.turn)
    rng = random.Random(b"beginner/" + seed)
    if k.phase is Phase.CUT:
        cuts = [
            Hint(CutMove(Cut.KEEP), 0.0, (Reason.KEEPS_CUT_CARD,)),
            Hint(CutMove(Cut.TABLE), 0.0, (Reason.TABLES_CUT_CARD,)),
        ]
        rng.shuffle(cuts)
        return tuple(cuts)
    if k.phase is not Phase.PLAY:
        raise WrongPhase(f"nobody moves in phase {k.phase.value}", field="state.phase", phase=k.phase.value)
    hints = []
    for card, taken, sweep, _ in legal_plays(k):
        seen = len(taken) <= SEES
        score = CARD * (len(taken) + 1) if taken and seen else 0.0
        reasons = [Reason.TAKES_CARDS] if taken and seen else []  # what it does not see is no reason
        if sweep and seen:
            score += SWEEP
            reasons.append(Reason.SWEEPS)
        hints.append((round(score, 4), rng.random(), Hint(PlayMove(card, taken), round(score, 4), ordered(reasons))))
    hints.sort(key=lambda h: (-h[0], h[1]))
    return tuple(h[2] for h in hints)
