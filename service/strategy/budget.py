"""What one call may cost (docs/strategy.md, "Move hints"): counted steps for each search, and CPU time for both.

Any valid state must answer within a few milliseconds: a crafted table (three kings to move on 12
table cards have 168 moves, each weighed against the replies) must not block a worker. Steps are counted
(deterministic); bench/hints.py reports the most a real round spends, bench/worst.py the CPU time of
the states that spend the most.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from service.rules import Card

REPLY_BUDGET: Final = 1_200  # reply and next-capture steps per call (real rounds: about 720 at most, bar one)
ENDGAME_BUDGET: Final = 800  # positions and captures of the endgame search (real rounds: about 630 at most, bar one)
TIME_BUDGET: Final = 0.015  # seconds of this thread's CPU time for both searches: a safety net


class Shortened(enum.Enum):
    """Which budget cut the search short (``Hints.shortened_by``)."""

    STEPS = "steps"  # deterministic: the same input is always cut the same way
    TIME = "time"  # the machine was too slow for the step budgets: the answer may vary with load


@dataclass(frozen=True, slots=True)
class Budget:
    """The work one call may do: steps for each search, and CPU seconds for both (a safety net, read
    from ``clock``: this thread's CPU time, which other processes' load barely changes)."""

    reply_steps: int = REPLY_BUDGET
    endgame_steps: int = ENDGAME_BUDGET
    seconds: float = TIME_BUDGET
    clock: Callable[[], float] = time.thread_time


DEFAULT_BUDGET: Final = Budget()


class OverBudget(Exception):
    """A budget is spent: fall back to a cheaper evaluation (``Meter.shortened_by`` says which)."""


class Meter:
    """One call's spending against its ``Budget``."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.clock = budget.clock
        self.deadline = budget.clock() + budget.seconds
        self.shortened_by: Shortened | None = None
        self.unchecked = 0  # steps since the clock was last read

    def over_steps(self) -> OverBudget:
        if self.shortened_by is None:
            self.shortened_by = Shortened.STEPS
        return OverBudget()

    def check_time(self, steps: int) -> None:
        """Read the clock every 16 steps or so (a read costs about a microsecond, a step several)."""
        self.unchecked += steps
        if self.unchecked < 16:
            return
        self.unchecked = 0
        if self.clock() > self.deadline:
            self.shortened_by = Shortened.TIME
            raise OverBudget


def table_work(table: Sequence[Card]) -> int:
    """The steps of finding captures on a big table, beyond one per option found: the search for
    sums grows with the table (and scopa keeps only a few of the sums it finds). Tables of real
    rounds, of 12 cards or fewer, cost nothing more."""
    return max(0, len(table) - 12)
