"""How far the expert's goal is from what a search can reach: players that search the last deals,
some of them seeing hidden cards, against club on the ladder's seat-swapped two-player rounds.

Run with ``.venv/bin/python -m bench.ceiling [--rounds N] [--limit CARDS] [--samples N] [--only P,...]
[--iterations N] [--workers N] [--json PATH] [--consistency]``. Not a level and not part of the
service: two of these players read what no seat may see, to measure what knowing it would be worth
(docs/strategy.md, "What the goal asks").

Every player plays as club until the stock holds at most ``--limit`` cards (6: the last two deals; 12:
the last three). Then all but ``ismcts`` value each legal play by the exact search of the rules core
(the endgame's minimax on the final margin, ``service.strategy.endgame``) in one or more worlds: a
world is the round with the other hand and the stock's order filled in. The play with the highest
total over its worlds is played, club's order breaking ties.

``sees-all``   one world, the round itself: it sees the other hand and the stock's order.
``sees-hand``  sees the other hand; ``--samples`` worlds of the stock's order, drawn alike.
``samples``    sees its own seat only; ``--samples`` worlds of the other hand and the stock, drawn alike
               (perfect-information Monte Carlo: the fair search).
``infers``     sees its own seat and the plays of the current deal; ``--candidates`` worlds drawn alike,
               each weighted by the other seat's plays of this deal: 1 for each play club would have
               made with the hand the world gives it, ``--miss`` for each it would not have
               (``club_misses``); then ``--samples`` worlds drawn by weight.
``ismcts``     sees its own seat only; information-set Monte Carlo tree search (``ismcts``) over
               ``--iterations`` worlds drawn alike, the round played out greedily from each new node.

``--consistency`` reports instead how much the other seat's plays tell: club playing both seats, the
share of drawn hands with which club would have made the other seat's plays of the deal so far.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Final

from bench.ladder import Game, play, report, run
from service.rules import (
    DECK,
    Captures,
    Move,
    Phase,
    PlayMove,
    RoundInPlay,
    RoundState,
    Tally,
    round_breakdown,
    seat_view,
)
from service.strategy import SeatKnowledge
from service.strategy.budget import Budget, Meter
from service.strategy.endgame import Endgame
from service.strategy.knowledge import legal_plays
from service.strategy.levels import rank_at

UNBOUNDED = Budget(reply_steps=10**9, endgame_steps=10**9, seconds=3600.0)
History = Sequence[tuple[RoundState, Move]]
Worlds = Callable[[RoundState, SeatKnowledge, random.Random, History], list[RoundState]]


def with_hidden(state: RoundState, other: int, hand: Sequence[Any], stock: Sequence[Any]) -> RoundState:
    """``state`` with the other seat's hand and the stock replaced."""
    hands = list(state.hands)
    hands[other] = tuple(sorted(hand))
    return dataclasses.replace(state, hands=tuple(hands), stock=tuple(stock))


def sees_all(state: RoundState, k: SeatKnowledge, rng: random.Random, history: History) -> list[RoundState]:
    return [state]


def sees_hand(state: RoundState, k: SeatKnowledge, rng: random.Random, history: History, n: int) -> list[RoundState]:
    other = 1 - k.seat
    rest = [c for c in k.unseen() if c not in state.hands[other]]
    worlds = []
    for _ in range(n):
        rng.shuffle(rest)
        worlds.append(with_hidden(state, other, state.hands[other], rest))
    return worlds


def drawn(k: SeatKnowledge, rng: random.Random, n: int) -> list[tuple[tuple[Any, ...], list[Any]]]:
    """``n`` draws of the other hand and the stock's order from the unseen cards, each alike: from the
    seat's knowledge alone, never the round."""
    unseen = list(k.unseen())
    h = k.hand_sizes[1 - k.seat]
    out = []
    for _ in range(n):
        rng.shuffle(unseen)
        out.append((tuple(unseen[:h]), unseen[h:]))
    return out


def samples(state: RoundState, k: SeatKnowledge, rng: random.Random, history: History, n: int) -> list[RoundState]:
    return [with_hidden(state, 1 - k.seat, hand, stock) for hand, stock in drawn(k, rng, n)]


def infers(
    state: RoundState,
    k: SeatKnowledge,
    rng: random.Random,
    history: History,
    n: int,
    candidates: int,
    miss: float,
) -> list[RoundState]:
    other = 1 - k.seat
    theirs = their_plays(history, other)
    drawn_worlds = drawn(k, rng, candidates)
    weights = [miss ** club_misses(theirs, other, hand) for hand, _ in drawn_worlds]
    chosen = rng.choices(drawn_worlds, weights, k=n)
    return [with_hidden(state, other, hand, stock) for hand, stock in chosen]


def their_plays(history: History, other: int) -> list[tuple[RoundState, PlayMove]]:
    return [(s, m) for s, m in history if s.turn == other and isinstance(m, PlayMove)]


def club_misses(theirs: Sequence[tuple[RoundState, PlayMove]], other: int, hand: Sequence[Any]) -> int:
    """How many of the other seat's plays club would not have made, had it held ``hand`` now."""
    misses, later = 0, list(hand)
    for before, move in reversed(theirs):  # their hand then: this one and the cards played since
        later.append(move.card)
        view = seat_view(with_hidden(before, other, later, before.stock), other)
        misses += rank_at(SeatKnowledge.of(view), "club")[0].move != move
    return misses


def consistency(rounds: int, limit: int, candidates: int) -> None:
    """Club against club: at each play of the last deals while the stock still hides cards, after one
    or two of the other seat's plays of the deal, the share of ``candidates`` hands drawn alike with
    which club would have made them all."""
    shares: dict[int, list[float]] = {1: [], 2: []}

    def watch(state: RoundState, seed: bytes, history: History) -> Move:
        k = SeatKnowledge.of(seat_view(state, state.turn))
        theirs = their_plays(history, 1 - k.seat)
        # With an empty stock the other hand is the unseen cards: every drawn hand is the true one.
        if k.phase is Phase.PLAY and 0 < k.stock_size <= limit and theirs and k.hand_sizes[1 - k.seat]:
            hands = drawn(k, random.Random(seed), candidates)
            shares[len(theirs)].append(sum(not club_misses(theirs, 1 - k.seat, h) for h, _ in hands) / candidates)
        return rank_at(k, "club", seed)[0].move

    for index in range(rounds):
        play("chkobba", 2, "watched", "club", index, {"watched": watch})
    for plays, found in shares.items():
        print(
            f"after {plays} of their plays: {len(found)} plays; hands that would have made them: "
            f"median {statistics.median(found):.0%}, mean {statistics.fmean(found):.0%}, "
            f"under a quarter in {sum(x < 0.25 for x in found) / len(found):.0%} of the plays"
        )


def searching(worlds: Worlds, limit: int) -> Callable[[RoundState, bytes, History], Move]:
    def move(state: RoundState, seed: bytes, history: History) -> Move:
        k = SeatKnowledge.of(seat_view(state, state.turn))
        club = [h.move for h in rank_at(k, "club", seed)]
        if k.phase is not Phase.PLAY or k.players != 2 or k.stock_size > limit:
            return club[0]
        plays = legal_plays(k)
        totals = [0.0] * len(plays)
        for world in worlds(state, k, random.Random(seed), history):
            scored = Endgame(k, Meter(UNBOUNDED), world).score(plays)
            totals = [t + value for t, (value, _) in zip(totals, scored, strict=True)]
        value = {PlayMove(card, taken): t for (card, taken, _, _), t in zip(plays, totals, strict=True)}
        return max(club, key=value.__getitem__)  # the first of the best: club's order breaks ties

    return move


class _Node:
    """A node of the ISMCTS tree: a sequence of plays from the root, whichever world it was met in."""

    __slots__ = ("children", "visits", "total", "available")

    def __init__(self) -> None:
        self.children: dict[PlayMove, _Node] = {}
        self.visits = 0
        self.total = 0.0  # the final margins of the root's side, summed
        self.available = 1  # the iterations in which its play was legal (a world may not allow it)


# A card's worth to the play-outs' greedy policy: a card, a diamond, a seven, a six and 7D more.
_WORTH: Final = {
    c: t.cards + 0.6 * t.diamonds + t.sevens + 0.3 * t.sixes + 3 * t.seven_of_diamonds
    for c, t in ((c, Tally.of_pile((c,), 0)) for c in DECK)
}


def _greedy(in_play: RoundInPlay, rng: random.Random) -> tuple[PlayMove, Captures]:
    """The play-outs' policy: the capture worth most (a sweep first), else the card laid worth least."""
    best: tuple[float, PlayMove, Captures] | None = None
    for caps in in_play.legal_captures():
        for i, option in enumerate(caps.options or ((),)):
            if caps.options:
                score = 10.0 * (i == caps.sweep_option) + _WORTH[caps.card] + sum(_WORTH[c] for c in option)
            else:
                score = -_WORTH[caps.card] - 0.1 * caps.value
            score += 0.01 * rng.random()
            if best is None or score > best[0]:
                best = (score, PlayMove(caps.card, option), caps)
    assert best is not None
    return best[1], best[2]


def ismcts(limit: int, iterations: int, exploration: float) -> Callable[[RoundState, bytes, History], Move]:
    """Single-observer information-set Monte Carlo tree search: each iteration draws a world of the
    hidden cards alike, walks the tree of plays legal in it (UCB1 over the plays available, the other
    seat minimizing our margin), adds one play, plays the round out with ``_greedy``, and adds the final
    margin to every node walked. It plays the root's most visited play."""

    def move(state: RoundState, seed: bytes, history: History) -> Move:
        k = SeatKnowledge.of(seat_view(state, state.turn))
        club = [h.move for h in rank_at(k, "club", seed)]
        if k.phase is not Phase.PLAY or k.players != 2 or k.stock_size > limit or len(club) == 1:
            return club[0]
        rng = random.Random(seed)
        root = _Node()
        for hand, stock in drawn(k, rng, iterations):
            in_play = RoundInPlay(with_hidden(state, 1 - k.seat, hand, stock))
            node, walked, growing = root, [root], True
            while in_play.phase is Phase.PLAY:
                if not growing:
                    in_play.move(*_greedy(in_play, rng))
                    continue
                ours = in_play.turn == k.seat
                legal = [(PlayMove(c.card, o), c) for c in in_play.legal_captures() for o in (c.options or ((),))]
                untried = [(m, c) for m, c in legal if m not in node.children]
                for m, _ in legal:
                    if m in node.children:
                        node.children[m].available += 1
                if untried:
                    m, caps = rng.choice(untried)
                    node.children[m] = child = _Node()
                    growing = False
                else:

                    def ucb(pair: tuple[PlayMove, Captures], node: _Node = node, ours: bool = ours) -> float:
                        child = node.children[pair[0]]
                        mean = child.total / child.visits
                        spread = math.sqrt(math.log(child.available) / child.visits)
                        return (mean if ours else -mean) + exploration * spread

                    m, caps = max(legal, key=ucb)
                    child = node.children[m]
                in_play.move(m, caps)
                node = child
                walked.append(child)
            totals = [s.total for s in round_breakdown(in_play.state())]
            margin = totals[k.side] - totals[1 - k.side]
            for n in walked:
                n.visits += 1
                n.total += margin
        visits = {m: n.visits for m, n in root.children.items()}
        return max(club, key=lambda m: visits.get(m, -1))  # the first of the most visited, in club's order

    return move


def players(
    limit: int, n_samples: int, candidates: int, miss: float, iterations: int, exploration: float
) -> dict[str, Callable[..., Move]]:
    return {
        "sees-all": searching(sees_all, limit),
        "sees-hand": searching(partial(sees_hand, n=n_samples), limit),
        "samples": searching(partial(samples, n=n_samples), limit),
        "infers": searching(partial(infers, n=n_samples, candidates=candidates, miss=miss), limit),
        "ismcts": ismcts(limit, iterations, exploration),
    }


SETTINGS: dict[str, Any] = {}  # set in the parent before the workers fork


def run_chunk(args: tuple[str, int, str, str, int, int]) -> list[Game]:
    profile, n_players, a, b, start, stop = args
    seeing = players(**SETTINGS)
    return [play(profile, n_players, a, b, i, seeing) for i in range(start, stop)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ceiling", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200, help="rounds per row, even (each deal twice)")
    parser.add_argument("--limit", type=int, default=6, help="search exactly once the stock holds this many cards")
    parser.add_argument("--samples", type=int, default=12, help="worlds searched per move")
    parser.add_argument("--candidates", type=int, default=60, help="worlds drawn for infers to weigh")
    parser.add_argument("--miss", type=float, default=0.1, help="infers' weight for a play club would not make")
    parser.add_argument("--iterations", type=int, default=2000, help="ismcts' iterations per move")
    parser.add_argument("--exploration", type=float, default=3.0, help="ismcts' UCB1 constant, in round points")
    parser.add_argument("--only", help="players, comma-separated (default: all five)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", metavar="PATH")
    parser.add_argument("--consistency", action="store_true", help="how many drawn hands club's plays leave")
    args = parser.parse_args(argv)
    if args.consistency:
        consistency(args.rounds, args.limit, args.candidates)
        return 0
    SETTINGS.update(
        limit=args.limit,
        n_samples=args.samples,
        candidates=args.candidates,
        miss=args.miss,
        iterations=args.iterations,
        exploration=args.exploration,
    )
    names = list(players(**SETTINGS))
    chosen = args.only.split(",") if args.only else names
    if any(n not in names for n in chosen):
        parser.error(f"players are {', '.join(names)}")
    rows = [("chkobba", 2, name, "club", args.rounds + args.rounds % 2) for name in chosen]
    started = time.perf_counter()
    report("bench.ceiling", argv, run(rows, args.workers, run_chunk), started, args.json, settings=SETTINGS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
