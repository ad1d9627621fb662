"""Which sweeps, and which round points, a round can make (docs/rules.md §10.17, §10.19).

A round has 36 plays, the sides playing in turn from the leader's (docs/rules.md §2, §3.2). A sweep
empties the table, so the next play finds nothing to take (§4.4): no sweep follows a sweep at once;
and the last play of a round never sweeps (§5). So the sweeps each side can have made are those of
the sets of plays with no two in a row, counted per side: worked out once per number of sides and
leading side, for every number of plays, and kept.
"""

from __future__ import annotations

from functools import cache
from itertools import product

from .cards import DECK
from .profiles import CATEGORIES, PROFILES, Rules

TABLE_SIZE = 4  # the first deal lays 4 cards on the table (docs/rules.md §3.2)
PLAYS = len(DECK) - TABLE_SIZE
MAX_SWEEPS = PLAYS // 2  # every other play of the first 35


@cache
def _by_plays(sides: int, first: int) -> tuple[frozenset[tuple[int, ...]], ...]:
    """For k = 0 to 36: every per-side count of sweeps that the first k plays can make."""
    reached = {(False, (0,) * sides)}  # (the last play swept, the sweeps per side)
    out = [frozenset(counts for _, counts in reached)]
    for k in range(PLAYS):
        side = (first + k) % sides
        after = set()
        for swept, counts in reached:
            after.add((False, counts))
            if not swept and k != PLAYS - 1:
                after.add((True, counts[:side] + (counts[side] + 1,) + counts[side + 1 :]))
        reached = after
        out.append(frozenset(counts for _, counts in reached))
    return tuple(out)


def possible_sweeps(sweeps: tuple[int, ...], first: int, plays: int) -> bool:
    """Whether the first ``plays`` plays of a round, the sides playing in turn from side ``first``,
    can have made ``sweeps`` (per side)."""
    return sweeps in _by_plays(len(sweeps), first)[plays]


def possible_in_a_round(sweeps: tuple[int, ...]) -> bool:
    """Whether some round (whichever side led) makes ``sweeps``: for counts scored without the deal."""
    return any(possible_sweeps(sweeps, first, PLAYS) for first in range(len(sweeps)))


def possible_points(rules: Rules, sides: int) -> frozenset[tuple[int, ...]]:
    """Every list of round points that a round of ``rules`` between ``sides`` sides can give: each
    category's point to one side or (a tie) to nobody, the seven of diamonds' to one side always, and
    the sweeps a round can make (§10.17); a side that makes all 18 sweeps has captured every card,
    and so takes every category (§10.19)."""
    return _points(tuple((c, rules.scores(c)) for c in CATEGORIES), sides)


def work_out_every_profile() -> None:
    """``possible_points`` for every profile, with and without its scoring options, and every number of
    sides it is played by: under 0.1 s in all, paid once where a server starts rather than by the
    first request of each kind (a third of it, up to 60 ms, for chkobba-crp's three sides)."""
    for profile in PROFILES.values():
        variants = [()] + ([(("primiera", True),)] if "primiera" in profile.options else [])
        for explicit in variants:
            for sides in {profile.sides(players) for players in profile.players}:
                possible_points(Rules(profile, explicit), sides)


@cache
def _points(scores: tuple[tuple[str, int], ...], sides: int) -> frozenset[tuple[int, ...]]:
    worth = dict(scores)
    categories = [c for c, points in scores if c != "sweeps" and points]
    choices = [range(sides) if c == "seven_of_diamonds" else range(sides + 1) for c in categories]
    awards = set()
    for winners in product(*choices):  # sides + 1: nobody
        awards.add(
            tuple(sum(worth[c] for c, w in zip(categories, winners, strict=True) if w == s) for s in range(sides))
        )
    every = sum(worth[c] for c in categories)
    per_sweep = worth["sweeps"]
    sweeps = set().union(*(_by_plays(sides, first)[PLAYS] for first in range(sides)))
    points = set()
    for swept in sweeps:
        if MAX_SWEEPS in swept:
            points.add(tuple(every + per_sweep * n if n == MAX_SWEEPS else 0 for n in swept))
            continue
        for award in awards:
            points.add(tuple(a + per_sweep * n for a, n in zip(award, swept, strict=True)))
    return frozenset(points)
