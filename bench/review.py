"""The review benchmark: the CPU time of reviewing whole seeded rounds (service/strategy/review.py).

Run with ``.venv/bin/python -m bench.review [--quick] [--rounds N] [--json PATH]``.

For every profile and player count below, N rounds are dealt from the portable seeded shuffle and
played to the end, every seat following the top club hint (real play, as a record of a computer table
would hold), then every other round again with every seat playing a random legal move (a beginner's
table: more captures left on the table, so other positions). Each record is then reviewed whole,
as reviewRound reviews it (``move_reviews`` of its replay), and timed in this thread's CPU time
(``time.thread_time``), with, as the baseline measured in the same run, ``replay_round`` of the same
record (what replayRound computes). The report gives the review's median, p95 and max per round, the
median per move, the ratio of the medians review / replay, and the goals of issue 27: a 36-move
two-player round within 2 s of CPU, a four-player one within 4 s (``ok`` when the max is under).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bench.hints import random_move
from bench.report import machine, write_json
from service.rules import Move, Phase, RoundState, advance, deal_round, replay_round
from service.strategy import suggest
from service.strategy.review import move_reviews

SETUPS = (("chkobba", 2), ("chkobba", 4), ("chkobba-crp", 3), ("scopa", 2))
GOALS = {2: 2.0, 3: 3.0, 4: 4.0}  # seconds of CPU for a whole round, by players (3: between the two)


@dataclass(frozen=True)
class Timed:
    moves: int
    review: float  # seconds of CPU
    replay: float


def played(profile: str, players: int, seed: str, how: str) -> tuple[RoundState, Any, list[Move]]:
    """A whole round from ``seed`` (dealt again from the next seed while the deal is void)."""
    rng = random.Random(seed)
    for attempt in range(10):
        start, deck = deal_round(profile, players, 0, seed=f"{seed}/{attempt}")
        state, moves = start, []
        while state.turn is not None:
            move = suggest(state, limit=1).moves[0].move if how == "hints" else random_move(state, rng)
            state, _ = advance(state, move)
            moves.append(move)
        if state.phase is Phase.OVER:
            return start, deck, moves
    raise RuntimeError(f"ten void deals from {seed}")


def timed(profile: str, players: int, seed: str, how: str) -> Timed:
    start, deck, moves = played(profile, players, seed, how)
    clock = time.thread_time
    t0 = clock()
    replay = replay_round(profile, players, 0, moves, deck=deck)
    t1 = clock()
    reviews = list(move_reviews(start, replay.moves))
    t2 = clock()
    assert len(reviews) == len(moves)
    return Timed(len(moves), t2 - t1, t1 - t0)


def percentile(values: Sequence[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.review", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="6 rounds per row (a smoke run)")
    parser.add_argument("--rounds", type=int, default=40, help="rounds per row (default 40)")
    parser.add_argument("--json", metavar="PATH", help="also write every figure as JSON to PATH")
    args = parser.parse_args(argv)
    rounds = 6 if args.quick else args.rounds
    info = machine()
    load = info["loadavg_at_start"]
    print(f"review benchmark: Python {info['python']}, {info['platform']}")
    loads = " ".join(f"{x:.2f}" for x in load) if load else "n/a"
    print(f"CPUs: {info['cpu_count']} (usable: {info['cpus_usable']}); load average: {loads}")
    print(f"command: {' '.join(['python -m bench.review', *(argv if argv is not None else sys.argv[1:])])}")
    print()
    print(
        f"{'profile':<11} {'n':>1} {'moves by':<7} {'rounds':>6} {'moves':>5} {'median ms':>9} {'p95 ms':>7} "
        f"{'max ms':>7} {'ms/move':>7} {'replay ms':>9} {'ratio':>6} goal"
    )
    figures: list[dict[str, Any]] = []
    failed = False
    for profile, players in SETUPS:
        for how, count in (("hints", rounds), ("random", max(1, rounds // 2))):
            found = [timed(profile, players, f"review/{profile}/{players}/{how}/{i}", how) for i in range(count)]
            review_ms = [t.review * 1000 for t in found]
            replay_ms = [t.replay * 1000 for t in found]
            per_move = [t.review * 1000 / t.moves for t in found]
            median, replay_median = statistics.median(review_ms), statistics.median(replay_ms)
            goal = GOALS[players] * 1000
            met = max(review_ms) <= goal
            failed |= not met
            print(
                f"{profile:<11} {players:>1} {how:<7} {count:>6} {statistics.median(t.moves for t in found):>5.0f} "
                f"{median:>9.1f} {percentile(review_ms, 0.95):>7.1f} {max(review_ms):>7.1f} "
                f"{statistics.median(per_move):>7.2f} {replay_median:>9.2f} {median / replay_median:>6.0f} "
                f"{'ok' if met else 'MISS'} (max <= {goal:.0f} ms)"
            )
            figures.append(
                {
                    "profile": profile,
                    "players": players,
                    "moves_by": how,
                    "rounds": count,
                    "review_ms": review_ms,
                    "replay_ms": replay_ms,
                    "median_ms": median,
                    "p95_ms": percentile(review_ms, 0.95),
                    "max_ms": max(review_ms),
                    "ms_per_move": statistics.median(per_move),
                    "ratio_to_replay": median / replay_median,
                    "goal_ms": goal,
                    "met": met,
                }
            )
    if args.json:
        write_json(args.json, {"machine": info, "rows": figures})
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
