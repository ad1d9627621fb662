"""The race: what the captures so far are worth, category by category, as expected points of margin.

Each category still open (cards, diamonds, sevens then sixes, the seven of diamonds) is valued by
the chance that the side takes its point, when every card not yet captured falls to each side
alike; sweeps already scored count one point each. What a card counts for, how many of each kind
the deck holds, and who takes a point from the final counts are the rules core's (``Tally`` and
``TOTALS`` of its scoring, ``award_most`` and ``award_sevens``): the race only turns the counts into
chances. Under ``ties_to_last_capturer`` a shared top in cards or diamonds goes, as the core's
``tie_taker`` says, to the side that captured last so far: the race does not guess who will capture
last.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Final

from service.rules import DECK, TOTALS, Card, Rules, Tally, award_most, award_sevens, tie_taker

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
    last: int | None  # the side that captured last, if any

    @classmethod
    def of(cls, piles: Sequence[Sequence[Card]], sweeps: Sequence[int], last_capturer: int | None) -> Standing:
        tallies = [Tally.of_pile(pile, n) for pile, n in zip(piles, sweeps, strict=True)]
        return cls(
            tuple(t.cards for t in tallies),
            tuple(t.diamonds for t in tallies),
            tuple(t.sevens for t in tallies),
            tuple(t.sixes for t in tallies),
            next((s for s, t in enumerate(tallies) if t.seven_of_diamonds), None),
            tuple(t.sweeps for t in tallies),
            last_capturer,
        )

    def with_last(self, side: int | None) -> Standing:
        """The same captures, ``side`` having captured last."""
        return Standing(self.cards, self.diamonds, self.sevens, self.sixes, self.holder, self.sweeps, side)

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
            side if got.cards else self.last,
        )


# ---- chances of each category from the counts ------------------------------------------------------


@cache
def _splits(sides: int, remaining: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every way ``remaining`` cards may fall to ``sides`` sides, each card to each side alike, with
    its number of ways (of ``sides ** remaining``, each as likely): (cards per side, ways)."""
    out: list[tuple[tuple[int, ...], int]] = []

    def split(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == sides - 1:
            shares = (*prefix, left)
            ways = math.factorial(remaining)
            for s in shares:
                ways //= math.factorial(s)
            out.append((shares, ways))
            return
        for s in range(left + 1):
            split((*prefix, s), left - s)

    split((), remaining)
    return tuple(out)


def _finals(counts: tuple[int, ...], remaining: int) -> list[tuple[list[int], int]]:
    """Every final count vector and its number of ways."""
    return [([c + s for c, s in zip(counts, shares, strict=True)], w) for shares, w in _splits(len(counts), remaining)]


@cache
def _tops(sides: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every set of sides that may end level on top, with counts where exactly they do (1 each, the
    others 0): the single sides first."""
    return tuple(
        (top, tuple(int(s in top) for s in range(sides)))
        for size in range(1, sides + 1)
        for top in combinations(range(sides), size)
    )


@cache
def most(counts: tuple[int, ...], total: int, ties_to: int | None = None) -> tuple[float, ...]:
    """The chance of each side to take the point for the most of ``total`` cards of a kind, as the
    core's ``award_most`` gives it from the final counts (a shared top to ``ties_to``, if tied).

    The award is asked once for each set of sides that may end on top, and the deals that end with
    that set on top are counted only when it gives somebody the point."""
    n = len(counts)
    remaining = total - sum(counts)
    won = [0] * n
    for top, level in _tops(n):
        winner = award_most(level, ties_to)
        if winner is not None:
            won[winner] += _ways_on_top(counts, remaining, top)
    deals = n**remaining
    return tuple(w / deals for w in won)


@cache
def _ways_on_top(counts: tuple[int, ...], remaining: int, top: tuple[int, ...]) -> int:
    """The ways to deal the ``remaining`` cards (of ``len(counts) ** remaining``) so that exactly the
    sides ``top`` end with the most, level.

    Counted in whole numbers of ways, by sums of binomial coefficients: a few dozen operations for
    two or three sides, where listing every split of 36 cards among three sides takes 703 (a new
    count vector must cost little: a worker's first calls meet many)."""
    n = len(counts)
    if n == 2:
        a, b = counts
        gap = b + remaining - a  # side 0 gets x cards: it leads when 2x > gap, trails when 2x < gap
        if top == (0,):
            return _ways_between(remaining, gap // 2 + 1, remaining)
        if top == (1,):
            return _ways_between(remaining, 0, (gap + 1) // 2 - 1)
        return _ways_between(remaining, gap // 2, gap // 2) if gap % 2 == 0 else 0
    if n == 3:
        ways = 0
        if len(top) == 1:
            side = top[0]
            other, last = [counts[s] for s in range(3) if s != side]
            for x in range(remaining + 1):  # x cards to this side, and of the rest from low to high to ``other``
                high, rest = counts[side] + x, remaining - x
                ways += math.comb(remaining, x) * _ways_between(rest, rest - high + last + 1, high - other - 1)
            return ways
        # x cards to the first side on top, as many to the second as level it with the first, and the
        # rest to the third, which ends level with them (three on top) or below.
        first, second = top[:2]
        third = 3 - first - second
        all_three = len(top) == 3
        for x in range(remaining + 1):
            high = counts[first] + x
            y = high - counts[second]
            rest = remaining - x - y
            if y >= 0 and rest >= 0 and (counts[third] + rest == high if all_three else counts[third] + rest < high):
                ways += math.comb(remaining, x) * math.comb(remaining - x, y)
        return ways
    ways = 0
    for final, w in _finals(counts, remaining):
        high = max(final)
        if tuple(s for s, v in enumerate(final) if v == high) == top:
            ways += w
    return ways


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
    """The chance of each side to take the sevens point, as the core's ``award_sevens`` gives it from
    the final sevens and sixes (chkobba: most sevens, then most sixes among the sides tied on them).
    At most 4 of each to deal: every final is listed."""
    n = len(sevens)
    won = [0] * n
    left_sevens, left_sixes = TOTAL_SEVENS - sum(sevens), TOTAL_SIXES - sum(sixes)
    six_finals = _finals(sixes, left_sixes)
    for final, ways in _finals(sevens, left_sevens):
        for six_final, six_ways in six_finals:
            winner = award_sevens(final, six_final, by_sixes)
            if winner is not None:
                won[winner] += ways * six_ways
    deals = n ** (left_sevens + left_sixes)
    return tuple(w / deals for w in won)


def margin(values: Sequence[float], side: int) -> float:
    """A side's value minus the mean of the other sides'."""
    n = len(values)
    return values[side] - (sum(values) - values[side]) / (n - 1)


class Race:
    """The value of a ``Standing`` for a side, per category, as expected points of margin."""

    def __init__(self, rules: Rules, sides: int, w: Weights) -> None:
        self.sides = sides
        # Who takes a shared top in cards or diamonds, by the side that captured last (the core's rule).
        self.ties_to = {last: tie_taker(rules, last) for last in (None, *range(sides))}
        self.cards = w.cards if rules.scores("cards") else 0.0
        self.diamonds = w.diamonds if rules.scores("diamonds") else 0.0
        self.sevens = w.sevens if rules.scores("sevens") else 0.0
        self.by_sixes = rules.profile.sevens_tiebreak_by_sixes
        self.seven_of_diamonds = w.seven_of_diamonds if rules.scores("seven_of_diamonds") else 0.0
        self.sweeps = w.sweeps if rules.scores("sweeps") else 0.0

    def parts(self, t: Standing, side: int) -> tuple[float, float, float, float, float]:
        """Cards, diamonds, sevens, seven of diamonds, sweeps."""
        n = self.sides
        ties_to = self.ties_to[t.last]
        cards = self.cards * margin(most(t.cards, TOTAL_CARDS, ties_to), side) if self.cards else 0.0
        diamonds = self.diamonds * margin(most(t.diamonds, TOTAL_DIAMONDS, ties_to), side) if self.diamonds else 0.0
        sevens = self.sevens * margin(most_sevens(t.sevens, t.sixes, self.by_sixes), side) if self.sevens else 0.0
        if t.holder is None or not self.seven_of_diamonds:
            seven_d = 0.0
        else:
            seven_d = self.seven_of_diamonds * (1.0 if t.holder == side else -1.0 / (n - 1))
        sweeps = self.sweeps * margin(t.sweeps, side) if self.sweeps else 0.0
        return cards, diamonds, sevens, seven_d, sweeps

    def value(self, t: Standing, side: int) -> float:
        return sum(self.parts(t, side))
