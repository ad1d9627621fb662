"""The race of the move hints (service/strategy/race.py) gives each point as the rules core awards
it: once every card is captured its chances are the core's score, and before that they are the
core's award summed over every way the cards left may fall."""

from __future__ import annotations

import itertools
import json
import math
import random
from typing import Any

import pytest

from service.rules import (
    DECK,
    TOTALS,
    RoundState,
    Rules,
    Tally,
    advance,
    award_most,
    award_sevens,
    round_breakdown,
    score_round,
)
from service.strategy import WEIGHTS, suggest
from service.strategy.race import Race, Standing, margin, most, most_sevens

TIES = {"profile": "chkobba-crp", "options": {"ties_to_last_capturer": True}}
# Every profile and count of sides, chkobba-crp with and without the option that gives a shared top
# to the last capturer.
SETUPS = [
    pytest.param(spec, sides, id=f"{name}-{sides}")
    for name, spec in (("chkobba", "chkobba"), ("chkobba-crp", "chkobba-crp"), ("ties", TIES), ("scopa", "scopa"))
    for sides in Rules.of(spec).profile.side_counts()
]


def final_margins(rules: Rules, piles: list[list[str]], sweeps: list[int], last: int | None, side: int) -> list[float]:
    """Per category of the race (cards, diamonds, sevens, 7D, sweeps), the side's margin of points
    in the core's score of the finished round."""
    tallies = [Tally.of_pile([c for c in DECK if c.code in pile], n) for pile, n in zip(piles, sweeps, strict=True)]
    scores = score_round(rules, tallies, last_capturer=last)
    return [
        margin([getattr(s, category) for s in scores], side)
        for category in ("cards", "diamonds", "sevens", "seven_of_diamonds", "sweeps")
    ]


def race_margins(rules: Rules, piles: list[list[str]], sweeps: list[int], last: int | None, side: int) -> list[float]:
    standing = Standing.of([[c for c in DECK if c.code in pile] for pile in piles], sweeps, last)
    weights = WEIGHTS[rules.profile.id]
    return list(Race(rules, len(piles), weights).parts(standing, side))


def test_a_shared_top_goes_to_the_last_capturer_in_the_race_as_in_the_score() -> None:
    """The round is over: 20 cards and 5 diamonds each, side 1 captured last. Under
    ties_to_last_capturer the core gives side 1 both points; the race once gave them to nobody."""
    codes = [c.code for c in DECK]
    diamonds = [c for c in codes if c.endswith("D")]
    others = [c for c in codes if not c.endswith("D")]
    piles = [diamonds[:5] + others[:15], diamonds[5:] + others[15:]]
    assert "7D" in piles[1]
    rules = Rules.of(TIES)
    for side in (0, 1):
        expected = final_margins(rules, piles, [0, 0], 1, side)
        assert expected[:2] == ([-1.0, -1.0] if side == 0 else [1.0, 1.0])
        assert race_margins(rules, piles, [0, 0], 1, side) == expected
    # Without the option, or with a last capturer unknown, nobody takes them, in the race as in the score.
    for spec, last in (("chkobba-crp", 1), (TIES, None)):
        plain = Rules.of(spec)
        assert race_margins(plain, piles, [0, 0], last, 0)[:2] == [0.0, 0.0]
        assert final_margins(plain, piles, [0, 0], last, 0)[:2] == [0.0, 0.0]


@pytest.mark.parametrize(("spec", "sides"), SETUPS)
def test_once_every_card_is_captured_the_race_is_the_score(spec: Any, sides: int) -> None:
    """Random finished rounds, ties made common: the race's margin in each category is the one the
    core's score gives (the default weights are all 1)."""
    rules = Rules.of(spec)
    rng = random.Random(f"race/{spec}/{sides}")
    codes = [c.code for c in DECK]
    ties = 0
    for _ in range(300):
        rng.shuffle(codes)
        if rng.random() < 0.5:  # half the time two sides level on top in cards and in diamonds
            cards, diamonds = ([20, 20], [5, 5]) if sides == 2 else ([14, 14, 12], [4, 4, 2])
            order = rng.sample(range(sides), sides)
            red = iter([c for c in codes if c.endswith("D")])
            black = iter([c for c in codes if not c.endswith("D")])
            piles: list[list[str]] = [[] for _ in range(sides)]
            for side, n, d in zip(order, cards, diamonds, strict=True):
                piles[side] = [next(red) for _ in range(d)] + [next(black) for _ in range(n - d)]
        else:
            cuts = sorted(rng.sample(range(2, len(codes) - 1), sides - 1))
            piles = [codes[a:b] for a, b in zip([0, *cuts], [*cuts, len(codes)], strict=True)]
            if any(len(p) < 2 or (len(p) == 2 and p[0][0] != p[1][0]) for p in piles):
                continue  # no round leaves a pile of one card, nor of two that are not a pair
        sweeps = [rng.randrange(min(3, len(p) // 2 + 1)) for p in piles]
        last = rng.choice([None, *range(sides)])
        cards = [len(p) for p in piles]
        ties += cards.count(max(cards)) > 1
        for side in range(sides):
            assert race_margins(rules, piles, sweeps, last, side) == pytest.approx(
                final_margins(rules, piles, sweeps, last, side), abs=1e-12
            )
    assert ties >= 20  # the rule under test is met often


def test_a_hint_on_the_last_play_scores_what_the_core_scores() -> None:
    """Three players, the last play of the round: seat 0 takes 5C with 5D and collects the table,
    ending level with side 2 in cards (16) and diamonds (4). Under ties_to_last_capturer the core
    gives side 0 both points, a margin of 3 (1 and 2 points against a mean of 0); without the option
    nobody takes them, a margin of 1 (the 7D, which side 0 holds, less nothing)."""
    state = {
        "rules": TIES,
        "players": 3,
        "dealer": 0,
        "phase": "play",
        "turn": 0,
        "hands": [["5D"], [], []],
        "table": ["5C", "7S", "AD"],
        "stock": [],
        "piles": [
            ["4D", "3C", "AC", "5H", "5S", "6C", "6S", "4S", "4H", "7D", "3S", "4C"],
            ["KH", "KD", "JC", "JH", "6D", "6H", "AH", "AS"],
            ["3D", "3H", "2S", "2C", "QC", "QD", "KS", "KC", "7C", "7H", "2D", "2H", "QH", "QS", "JS", "JD"],
        ],
        "sweeps": [0, 0, 0],
        "last_capturer": 1,
    }
    for spec, expected in ((TIES, 3.0), ("chkobba-crp", 1.0)):
        before = RoundState.from_json(json.loads(json.dumps({**state, "rules": spec})))
        (hint,) = suggest(before).moves
        after, _ = advance(before, hint.move)
        totals = [s.total for s in round_breakdown(after)]
        assert margin(totals, 0) == hint.score == expected


def deals(counts: tuple[int, ...], left: int) -> list[tuple[list[int], int]]:
    """Every final count vector once ``left`` cards fall to the sides, with its number of deals (of
    ``len(counts) ** left``, each card to each side alike)."""
    found = []
    for shares in itertools.product(range(left + 1), repeat=len(counts)):
        if sum(shares) == left:
            ways = math.factorial(left)
            for share in shares:
                ways //= math.factorial(share)
            found.append(([c + s for c, s in zip(counts, shares, strict=True)], ways))
    return found


@pytest.mark.parametrize("sides", [2, 3])
@pytest.mark.parametrize("total", [TOTALS["cards"], TOTALS["diamonds"]])
def test_the_race_chances_are_the_core_award_over_every_deal_of_the_cards_left(sides: int, total: int) -> None:
    """``most`` counts the deals by the sides they leave on top, by sums of binomial coefficients;
    listing every deal and asking the core's ``award_most`` of each gives the same chances, with a
    shared top going to nobody or to any side."""
    step = max(1, total // 8)
    for counts in itertools.product(range(0, total // 2 + 1, step), repeat=sides):
        left = total - sum(counts)
        if left < 0:
            continue
        finals = deals(counts, left)
        for ties_to in (None, *range(sides)):
            won = [0] * sides
            for final, ways in finals:
                winner = award_most(final, ties_to)
                if winner is not None:
                    won[winner] += ways
            assert most(counts, total, ties_to) == tuple(w / sides**left for w in won)


def test_the_sevens_chances_are_the_core_award_over_every_deal_of_the_sevens_and_sixes_left() -> None:
    for sevens, sixes in itertools.product(itertools.product(range(3), repeat=2), repeat=2):
        for by_sixes in (True, False):
            won = [0, 0]
            left = (TOTALS["sevens"] - sum(sevens), TOTALS["sixes"] - sum(sixes))
            for deal7 in itertools.product(range(2), repeat=left[0]):
                for deal6 in itertools.product(range(2), repeat=left[1]):
                    final7, final6 = list(sevens), list(sixes)
                    for s in deal7:
                        final7[s] += 1
                    for s in deal6:
                        final6[s] += 1
                    winner = award_sevens(final7, final6, by_sixes)
                    if winner is not None:
                        won[winner] += 1
            assert most_sevens(sevens, sixes, by_sixes) == tuple(w / 2 ** sum(left) for w in won)
