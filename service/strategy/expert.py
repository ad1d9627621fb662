"""The expert: club, looking one reply further.

Club values the next player's reply from the race alone (his best card of a random hand, order
statistics). The expert deals the cards it cannot see at random (``SAMPLES`` deals drawn from
``seed``, each consistent with what the seat knows: the unseen cards, the size of each hidden hand),
plays each of its moves in each deal, lets the next player choose as club would from what *he* would
know there (his hand in that deal, never ours), and values the position it is then left with as
club would, from what *we* would know: the move's score is the mean over the deals. Where club is
already exact (two players, an empty stock), or where one side's gain is not the other's loss (three
sides), the expert is club.

Its cost is bounded: at most ``MAX_CALLS`` club calls (fewer deals when the seat has many moves), and
a CPU-time safety net after which the deals already played decide.
"""

from __future__ import annotations

import random
import time
from typing import Final

from service.rules import Captures, Phase, PlayMove, RoundInPlay, RoundState, round_breakdown

from .answers import Hint
from .knowledge import SeatKnowledge, legal_plays
from .ranking import rank, rank_moves

SAMPLES: Final = 8  # deals of the unseen cards per call
MAX_CALLS: Final = 48  # (move, deal) pairs per call at most
MAX_PLAYS: Final = 16  # beyond (crafted tables), the expert is club
TIME_BUDGET = 0.060  # seconds of this thread's CPU time: a safety net


def expert_rank(k: SeatKnowledge, seed: bytes) -> tuple[Hint, ...]:
    """Every legal move, ranked by the expert."""
    return expert_hints(k, seed, rank_moves(k))[0]


def expert_hints(k: SeatKnowledge, seed: bytes, club: tuple[Hint, ...]) -> tuple[tuple[Hint, ...], bool]:
    """Every legal move ranked by the expert, from ``club``'s ranking of them, and whether the time
    safety net cut the deals short (the answer may then vary with the machine's load)."""
    if k.phase is not Phase.PLAY or k.sides != 2 or k.known_round() is not None or k.last_play:
        return club, False
    plays = legal_plays(k)
    if len(plays) < 2 or len(plays) > MAX_PLAYS:
        return club, False
    deadline = time.thread_time() + TIME_BUDGET
    rng = random.Random(b"expert/" + seed)
    samples = max(2, min(SAMPLES, MAX_CALLS // len(plays)))
    totals = [0.0] * len(plays)
    dealt = 0
    cut = False
    for _ in range(samples):
        deal = _deal(k, rng)
        for i, (card, taken, _, legal) in enumerate(plays):
            totals[i] += _value_after(k, deal, PlayMove(card, taken), legal)
        dealt += 1
        if dealt < samples and time.thread_time() > deadline:
            cut = True
            break
    by_move = {h.move: h for h in club}
    valued = [(round(total / dealt, 4), by_move[PlayMove(p[0], p[1])]) for total, p in zip(totals, plays, strict=True)]
    valued.sort(key=lambda v: -v[0])  # stable: ties keep the plays' order
    return tuple(Hint(hint.move, score, hint.reasons) for score, hint in valued), cut


def _deal(k: SeatKnowledge, rng: random.Random) -> RoundInPlay:
    """A round the seat's knowledge allows: the unseen cards dealt at random to the hidden hands and the stock."""
    unseen = list(k.unseen())
    rng.shuffle(unseen)
    hands = []
    at = 0
    for seat, size in enumerate(k.hand_sizes):
        if seat == k.seat:
            hands.append(k.hand)
        else:
            hands.append(tuple(unseen[at : at + size]))
            at += size
    state = RoundState(
        k.rules, k.players, k.dealer, k.phase, k.turn, tuple(hands), k.table, tuple(unseen[at:]), k.piles, k.sweeps,
        k.last_capturer,
    )  # fmt: skip
    return RoundInPlay(state)


def _value_after(k: SeatKnowledge, deal: RoundInPlay, move: PlayMove, legal: Captures) -> float:
    """Our side's expected margin after ``move`` in ``deal``: the next player replies as club would, and
    club values what we are left with."""
    after = deal.copy()
    after.move(move, legal)
    for _ in range(2):
        if after.phase is Phase.OVER:
            totals = [s.total for s in round_breakdown(after.state())]
            return float(totals[k.side] - totals[1 - k.side])
        mover = _knowledge(k, after)
        if mover.side == k.side:
            return rank(mover, limit=1).moves[0].score
        after.move(rank(mover, limit=1).moves[0].move)
    raise AssertionError("two sides take turns")


def _knowledge(k: SeatKnowledge, r: RoundInPlay) -> SeatKnowledge:
    """What the seat to move in ``r`` knows there (``SeatKnowledge.of`` without building a state)."""
    seat = r.turn
    assert seat is not None
    return SeatKnowledge(
        k.rules, k.players, seat, k.dealer, r.phase, seat, r.hands[seat], tuple(map(len, r.hands)), r.table,
        len(r.stock), tuple(map(tuple, r.piles)), tuple(r.sweeps), r.last_capturer, None,
    )  # fmt: skip
