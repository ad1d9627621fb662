"""The exact endgame: two players and an empty stock, so the other hand is exactly the unseen cards,
and the rest of the round is searched (minimax on the final margin). At most three cards each: a few
hundred positions. ``bench/ceiling.py`` also hands it a whole world (a stock of a few cards, the other
hand as sampled or seen): the same search, past a deal.

The core plays every move (``RoundInPlay``, forked with ``copy`` at each position: the last play
never sweeps, and the last capturer takes the table, docs/rules.md §5, §6) and scores the finished round
(``round_breakdown``); the search only chooses.
"""

from __future__ import annotations

from typing import Any

from service.rules import Phase, PlayMove, RoundInPlay, RoundState, Tally, round_breakdown

from .answers import Reason, Scored, ordered
from .budget import DEFAULT_BUDGET, Meter, table_work
from .knowledge import Play, SeatKnowledge

_OVER = Phase.OVER  # read once: an Enum class attribute read is dear on Python 3.11


class Endgame:
    """Two players, empty stock: the exact final margin of each play under best play from both seats."""

    def __init__(self, k: SeatKnowledge, meter: Meter | None = None, world: RoundState | None = None) -> None:
        self.k = k
        self.world = world  # the round searched, when not ``k.known_round()``
        self.meter = meter or Meter(DEFAULT_BUDGET)
        self.rules = k.rules
        self.me = k.seat
        self.side = k.side
        self.memo: dict[tuple[Any, ...], tuple[float, int | None]] = {}
        self.leaves: dict[tuple[Any, ...], float] = {}
        self.nodes = 0

    def score(self, plays: list[Play]) -> list[Scored]:
        """Raises ``OverBudget`` past the endgame budget (each play is a position at least: a
        hopeless search is not started)."""
        if len(plays) > self.meter.budget.endgame_steps:
            raise self.meter.over_steps()
        state = self.world or self.k.known_round()
        assert state is not None  # two players, an empty stock: the other hand is the unseen cards
        start = RoundInPlay(state)
        scores = self.rules.scores
        by_sixes = self.rules.profile.sevens_tiebreak_by_sixes
        scored = []
        for card, taken, sweep, legal in plays:
            after = start.copy()
            after.move(PlayMove(card, taken), legal)
            value, last = self._value(after)
            captured = (card, *taken) if taken else ()
            counted = Tally.of_pile(captured, 0)
            reasons = [Reason.EXACT_ENDGAME]
            if sweep:
                reasons.append(Reason.SWEEPS)
            if captured:
                reasons.append(Reason.TAKES_CARDS)
            if scores("diamonds") and counted.diamonds:
                reasons.append(Reason.TAKES_DIAMONDS)
            if scores("sevens") and counted.sevens:
                reasons.append(Reason.TAKES_SEVENS)
            if scores("sevens") and by_sixes and counted.sixes:
                reasons.append(Reason.TAKES_SIXES)
            if counted.seven_of_diamonds:
                reasons.append(Reason.TAKES_SEVEN_OF_DIAMONDS)
            if last == self.side:
                reasons.append(Reason.WINS_LAST_CAPTURE)
            scored.append((round(value, 4), ordered(reasons)))
        return scored

    def _value(self, in_play: RoundInPlay) -> tuple[float, int | None]:
        """The final margin for our side under best play from both seats, and who captures last."""
        self._spend(1)
        if in_play.phase is _OVER:
            return self._final(in_play), in_play.last_capturer
        table, hands, stock, turn = in_play.table, tuple(in_play.hands), in_play.stock, in_play.turn
        key = (table, hands, stock, frozenset(in_play.piles[0]), tuple(in_play.sweeps), in_play.last_capturer, turn)
        known = self.memo.get(key)
        if known is not None:
            return known
        best: tuple[float, int | None] | None = None
        maximize = turn == self.me
        for caps in in_play.legal_captures():
            self._spend(len(caps.options) + table_work(table))
            for option in caps.options or ((),):
                after = in_play.copy()
                after.move(PlayMove(caps.card, option), caps)
                got = self._value(after)
                if best is None or (got[0] > best[0] if maximize else got[0] < best[0]):
                    best = got
        assert best is not None
        self.memo[key] = best
        return best

    def _spend(self, work: int) -> None:
        """One step per position and per capture option generated."""
        self.nodes += work
        if self.nodes > self.meter.budget.endgame_steps:
            raise self.meter.over_steps()
        self.meter.check_time(work)

    def _final(self, in_play: RoundInPlay) -> float:
        """Our side's points minus the other side's, as the core scores the finished round."""
        key = (frozenset(in_play.piles[0]), tuple(in_play.sweeps), in_play.last_capturer)
        known = self.leaves.get(key)
        if known is None:
            totals = [s.total for s in round_breakdown(in_play.state())]
            known = self.leaves[key] = float(totals[self.side] - totals[1 - self.side])
        return known
