"""How much each term of a move's score weighs, per profile (docs/strategy.md, "Move hints", gives each one)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from service.rules import Rank

_KEEP_CUT: Final = MappingProxyType({Rank.SEVEN: 1.0, Rank.SIX: 0.5})


@dataclass(frozen=True, slots=True)
class Weights:
    """The strategy's weights (docs/strategy.md, "Move hints"), tuned with ``bench/hints.py``."""

    cards: float = 1.0  # multiplies the race value of the cards point
    diamonds: float = 1.0
    sevens: float = 1.0  # the sevens point (its sixes tiebreak included)
    seven_of_diamonds: float = 1.0  # the 7D point (7D also counts in diamonds and sevens)
    sweeps: float = 1.0  # one sweep scored
    pessimism: float = 0.3  # 1: the next player plays his best card; 0: any card of his alike
    follow: float = 1.0  # multiplies the value of our best capture after his play (two players)
    lay: float = 0.6  # multiplies what a card laid without capturing would be worth to us in the race
    keep_seven: float = 0.1  # keeping a seven in hand while 7D is unseen
    # The cut: the score of keeping the drawn card, by rank (tabling it scores 0).
    keep_cut: Mapping[Rank, float] = field(default_factory=lambda: _KEEP_CUT)
    keep_cut_other: float = -0.1
    keep_cut_seven_of_diamonds: float = 1.0  # more, for 7D
    gives_captures: float = 0.25  # the reply cost above which ``gives-captures`` is named (a label, not a weight)


DEFAULT_WEIGHTS: Final = Weights()
# Per profile: the race values already follow each profile's card values and scored categories.
WEIGHTS: Final[Mapping[str, Weights]] = MappingProxyType(
    {"chkobba": DEFAULT_WEIGHTS, "chkobba-crp": DEFAULT_WEIGHTS, "scopa": DEFAULT_WEIGHTS}
)
