"""The race: what the captures so far are worth, category by category, as expected points of margin.

Each category still open (cards, diamonds, sevens then sixes, the seven of diamonds) is valued by
the chance that the side ends with strictly the most, when every card not yet captured falls to each
side alike; sweeps already scored count one point each. What a card counts for, and how many of each
kind the deck holds, are the rules core's (``Tally`` and ``TOTALS`` of its scoring): the race only
turns the counts into chances.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from service.rules import DECK, TOTALS, Card, Rules, Tally

from .weights import Weights

# How many cards of each kind the deck holds, and what each card counts for, as scoring tallies it.
TOTAL_CARDS: Final = TOTALS["cards"]
TOTAL_DIAMONDS: Final = TOTALS["diamonds"]
TOTAL_SEVENS: Final = TOTALS["sevens"]
TOTAL_SIXES: Final = TOTALS["sixes"]
COUNTS: Final = {c: Tally.of_pile((c,), 0) for c in DECK}
# What a card counts for in the race: diamond, seven, six (each 0 or 1).
KIND: Final = {c: (t.diamonds, t.sevens, t.sixes) for c, t in COUNTS.items()}
PLAIN: Final = (0, 0, 0)  # the kind of a card that counts for nothing but the cards point
# What a set of cards counts for, packed in one int so that a sum adds it up: the number of cards,
# of diamonds, of sevens, of sixes and of 7D, six bits each (at most 40 of anything).
PACK: Final = {
    c: t.cards + (t.diamonds << 6) + (t.sevens << 12) + (t.sixes << 18) + (t.seven_of_diamonds << 24)
    for c, t in COUNTS.items()
}


@dataclass(frozen=True, slots=True)
class Standing:
    """What each side has captured, category by category as scoring tallies it, and the sweeps."""

    cards: tuple[int, ...]
    diamonds: tuple[int, ...]
    sevens: tuple[int, ...]
    sixes: tuple[int, ...]
    holder: int | None  # the side holding 7D
    sweeps: tuple[int, ...]

    @classmethod
    def of(cls, piles: Sequence[Sequence[Card]], sweeps: Sequence[int]) -> Standing:
        tallies = [Tally.of_pile(pile, n) for pile, n in zip(piles, sweeps, strict=True)]
        return cls(
            tuple(t.cards for t in tallies),
            tuple(t.diamonds for t in tallies),
            tuple(t.sevens for t in tallies),
            tuple(t.sixes for t in tallies),
            next((s for s, t in enumerate(tallies) if t.seven_of_diamonds), None),
            tuple(t.sweeps for t in tallies),
        )

    def add(self, side: int, cards: Sequence[Card], sweep: bool) -> Standing:
        """The standing once ``side`` captures ``cards`` (with a sweep, when ``sweep``)."""
        got = Tally.of_pile(cards, int(sweep))

        def plus(values: tuple[int, ...], n: int) -> tuple[int, ...]:
            return values if not n else (*values[:side], values[side] + n, *values[side + 1 :])

        return Standing(
            plus(self.cards, got.cards),
            plus(self.diamonds, got.diamonds),
            plus(self.sevens, got.sevens),
            plus(self.sixes, got.sixes),
            side if got.seven_of_diamonds else self.holder,
            plus(self.sweeps, got.sweeps),
        )


# ---- chances of each category from the counts ------------------------------------------------------


@cache
def _splits(sides: int, remaining: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every way ``remaining`` cards may fall to ``sides`` sides, each card to each side alike, with
    its chance: (cards per side, chance)."""
    total = sides**remaining
    out: list[tuple[tuple[int, ...], float]] = []

    def split(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == sides - 1:
            shares = (*prefix, left)
            ways = math.factorial(remaining)
            for s in shares:
                ways //= math.factorial(s)
            out.append((shares, ways / total))
            return
        for s in range(left + 1):
            split((*prefix, s), left - s)

    split((), remaining)
    return tuple(out)


def _finals(counts: tuple[int, ...], remaining: int) -> list[tuple[list[int], float]]:
    """Every final count vector and its chance."""
    return [([c + s for c, s in zip(counts, shares, strict=True)], p) for shares, p in _splits(len(counts), remaining)]


def _unique_top(values: Sequence[int]) -> int | None:
    top = max(values)
    first = values.index(top)
    return None if top in values[first + 1 :] else first


@cache
def most(counts: tuple[int, ...], total: int) -> tuple[float, ...]:
    """The chance of each side to end with strictly the most of ``total`` cards of a kind.

    Counted in whole numbers of ways, by sums of binomial coefficients: a few dozen operations for
    two or three sides, where listing every split of 36 cards among three sides takes 703 (a new
    count vector must cost little: a worker's first calls meet many)."""
    remaining = total - sum(counts)
    if len(counts) == 2:
        a, b = counts
        gap = b + remaining - a  # side 0 leads when it gets x cards with 2x > gap
        leads = _ways_between(remaining, gap // 2 + 1, remaining), _ways_between(remaining, 0, (gap + 1) // 2 - 1)
        return tuple(w / 2**remaining for w in leads)
    if len(counts) == 3:
        chances = []
        for side in range(3):
            other, last = [counts[s] for s in range(3) if s != side]
            ways = 0
            for x in range(remaining + 1):  # x cards to this side, and of the rest from low to high to ``other``
                top, rest = counts[side] + x, remaining - x
                ways += math.comb(remaining, x) * _ways_between(rest, rest - top + last + 1, top - other - 1)
            chances.append(ways / 3**remaining)
        return tuple(chances)
    chances_any = [0.0] * len(counts)
    for final, p in _finals(counts, remaining):
        winner = _unique_top(final)
        if winner is not None:
            chances_any[winner] += p
    return tuple(chances_any)


@cache
def _binomial_sums(n: int) -> tuple[int, ...]:
    """``sums[k]``: the sum of C(n, j) for j below k, k from 0 to n + 1."""
    sums = [0]
    for j in range(n + 1):
        sums.append(sums[-1] + math.comb(n, j))
    return tuple(sums)


def _ways_between(n: int, low: int, high: int) -> int:
    """The ways to give each of ``n`` cards to one of two sides with the first getting from ``low``
    to ``high`` of them."""
    low, high = max(low, 0), min(high, n)
    if low > high:
        return 0
    sums = _binomial_sums(n)
    return sums[high + 1] - sums[low]


@cache
def most_sevens(sevens: tuple[int, ...], sixes: tuple[int, ...], by_sixes: bool) -> tuple[float, ...]:
    """The sevens point: most sevens, then (chkobba) most sixes among the sides tied on sevens."""
    chances = [0.0] * len(sevens)
    six_finals = _finals(sixes, TOTAL_SIXES - sum(sixes)) if by_sixes else ()
    for final, p in _finals(sevens, TOTAL_SEVENS - sum(sevens)):
        top = max(final)
        tied = [s for s, v in enumerate(final) if v == top]
        if len(tied) == 1:
            chances[tied[0]] += p
            continue
        for six_final, q in six_finals:
            winner = _unique_top([six_final[s] for s in tied])
            if winner is not None:
                chances[tied[winner]] += p * q
    return tuple(chances)


def margin(values: Sequence[float], side: int) -> float:
    """A side's value minus the mean of the other sides'."""
    n = len(values)
    return values[side] - (sum(values) - values[side]) / (n - 1)


class Race:
    """The value of a ``Standing`` for a side, per category, as expected points of margin."""

    def __init__(self, rules: Rules, sides: int, w: Weights) -> None:
        self.sides = sides
        self.cards = w.cards if rules.scores("cards") else 0.0
        self.diamonds = w.diamonds if rules.scores("diamonds") else 0.0
        self.sevens = w.sevens if rules.scores("sevens") else 0.0
        self.by_sixes = rules.profile.sevens_tiebreak_by_sixes
        self.seven_of_diamonds = w.seven_of_diamonds if rules.scores("seven_of_diamonds") else 0.0
        self.sweeps = w.sweeps if rules.scores("sweeps") else 0.0

    def parts(self, t: Standing, side: int) -> tuple[float, float, float, float, float]:
        """Cards, diamonds, sevens, seven of diamonds, sweeps."""
        n = self.sides
        cards = self.cards * margin(most(t.cards, TOTAL_CARDS), side) if self.cards else 0.0
        diamonds = self.diamonds * margin(most(t.diamonds, TOTAL_DIAMONDS), side) if self.diamonds else 0.0
        sevens = self.sevens * margin(most_sevens(t.sevens, t.sixes, self.by_sixes), side) if self.sevens else 0.0
        if t.holder is None or not self.seven_of_diamonds:
            seven_d = 0.0
        else:
            seven_d = self.seven_of_diamonds * (1.0 if t.holder == side else -1.0 / (n - 1))
        sweeps = self.sweeps * margin(t.sweeps, side) if self.sweeps else 0.0
        return cards, diamonds, sevens, seven_d, sweeps

    def value(self, t: Standing, side: int) -> float:
        return sum(self.parts(t, side))
