"""The levels' ladder: two players (or two sides) play seat-swapped rounds dealt from the same seeds.

Run with ``.venv/bin/python -m bench.ladder [--rounds N] [--pairs A:B,...] [--profile P] [--players N]
[--workers N] [--json PATH]``; ``bench/hints.py --ladder`` reports the same rows.

Round ``i`` is dealt from the portable seeded shuffle (seed ``ladder/<profile>/<players>/<i // 2>``,
dealer ``(i // 2) % players``) and played twice: in round ``2j`` side 0 is ``A``, in ``2j + 1`` side 1
is, so every deal is played by each player from each seat (the luck of the deal cancels). A level's
seed for a move is the round's seed and the move's index. The margin of a round is ``A``'s side total
minus the other side's; the report gives its mean with a 95% interval over pairs of rounds (the two
plays of a deal are one sample: they are not independent), the share of decided rounds ``A`` won,
and the CPU ms of each call of each level (median, p95, max).

The players: the three levels (``service.strategy.levels``), ``greedy`` (the capture of the most
valuable cards, bench/hints.py) and ``random``.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bench.hints import Z95, greedy_move, random_move, wilson
from bench.report import in_chunks
from service.rules import Move, Phase, RoundState, Rules, advance, deal_round, round_breakdown, seat_view
from service.strategy import SeatKnowledge
from service.strategy.levels import LEVELS, rank_at

PLAYERS = (*LEVELS, "greedy", "random")
LADDER = (
    ("beginner", "greedy"),
    ("beginner", "random"),
    ("greedy", "random"),
    ("club", "beginner"),
    ("club", "greedy"),
    ("club", "random"),
    ("expert", "club"),
    ("expert", "beginner"),
    ("expert", "greedy"),
    ("expert", "random"),
)


@dataclass(frozen=True)
class Game:
    index: int
    margin: int  # A's side total minus the other side's
    ms: dict[str, tuple[float, ...]]  # CPU ms of each level call, by level


# A player that is handed the whole round (bench/ceiling.py's, which see hidden cards): the state, the
# move's seed, and the moves of the current deal so far, each with the state it was made in.
Seeing = Callable[[RoundState, bytes, Sequence[tuple[RoundState, Move]]], Move]


def play(profile: str, players: int, a: str, b: str, index: int, seeing: Mapping[str, Seeing] | None = None) -> Game:
    rules = Rules.of(profile)
    deal = index // 2
    a_side = index % 2
    seed = f"ladder/{profile}/{players}/{deal}"
    dealer = deal % players
    rng = random.Random(f"{seed}/{index}")
    state, _ = deal_round(rules, players, dealer, seed=seed)
    ms: dict[str, list[float]] = {}
    redeals = moves = 0
    this_deal: list[tuple[RoundState, Move]] = []
    while True:
        while state.turn is not None:
            who = a if rules.profile.side_of(players, state.turn) == a_side else b
            move_seed = hashlib.sha256(f"{seed}/{index}/{moves}".encode()).digest()
            if seeing and who in seeing:
                t0 = time.thread_time_ns()
                move = seeing[who](state, move_seed, this_deal)
                ms.setdefault(who, []).append((time.thread_time_ns() - t0) / 1e6)
            elif who in LEVELS:
                knowledge = SeatKnowledge.of(seat_view(state, state.turn))
                t0 = time.thread_time_ns()
                move = rank_at(knowledge, who, move_seed)[0].move
                ms.setdefault(who, []).append((time.thread_time_ns() - t0) / 1e6)
            elif who == "greedy":
                move = greedy_move(state, rng)
            else:
                move = random_move(state, rng)
            this_deal.append((state, move))
            state, event = advance(state, move)
            if event.dealt:
                this_deal.clear()
            moves += 1
        if state.phase is Phase.OVER:
            break
        redeals += 1
        this_deal.clear()
        state, _ = deal_round(rules, players, dealer, seed=f"{seed}/redeal{redeals}")
    totals = [s.total for s in round_breakdown(state)]
    return Game(index, totals[a_side] - totals[1 - a_side], {k: tuple(v) for k, v in ms.items()})


def run_chunk(args: tuple[str, int, str, str, int, int]) -> list[Game]:
    profile, players, a, b, start, stop = args
    return [play(profile, players, a, b, i) for i in range(start, stop)]


def quantile(xs: Sequence[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def summarize(profile: str, players: int, a: str, b: str, games: Sequence[Game]) -> dict[str, Any]:
    games = sorted(games, key=lambda g: g.index)
    margins = [g.margin for g in games]
    pairs = [margins[i] + margins[i + 1] for i in range(0, len(margins) - 1, 2)]  # one deal, both seats
    mean = statistics.fmean(margins)
    half = Z95 * statistics.stdev(pairs) / 2 / math.sqrt(len(pairs)) if len(pairs) > 1 else math.inf
    wins, losses = sum(m > 0 for m in margins), sum(m < 0 for m in margins)
    low, high = wilson(wins, wins + losses)
    ms: dict[str, dict[str, float]] = {}
    for level in (a, b):
        times = [t for g in games for t in g.ms.get(level, ())]
        if times:
            ms[level] = {"median": statistics.median(times), "p95": quantile(times, 0.95), "max": max(times)}
    return {
        "profile": profile,
        "players": players,
        "a": a,
        "b": b,
        "rounds": len(games),
        "mean_margin": mean,
        "mean_margin_ci95": [mean - half, mean + half],
        "wins": wins,
        "losses": losses,
        "win_share": wins / (wins + losses) if wins + losses else None,
        "win_share_ci95": [low, high],
        "ms": ms,
    }


def run(
    rows: Sequence[tuple[str, int, str, str, int]],
    workers: int,
    chunk_runner: Callable[[tuple[str, int, str, str, int, int]], list[Game]] = run_chunk,
) -> list[dict[str, Any]]:
    found = in_chunks(rows, chunk_runner, 10, workers)
    return [summarize(*key, games) for key, games in found.items()]


def report(
    module: str,
    argv: Sequence[str] | None,
    results: Sequence[dict[str, Any]],
    started: float,
    json_path: str | None,
    **extra: Any,
) -> None:
    """Print the rows with the command and the run time; write them, and ``extra``, to ``json_path``."""
    print(f"command: .venv/bin/python -m {module} " + " ".join(sys.argv[1:] if argv is None else argv))
    print(HEAD)
    for r in results:
        print(row_text(r))
    print(f"total run time: {time.perf_counter() - started:.1f} s")
    if json_path:
        from bench.report import write_json

        write_json(json_path, {**extra, "results": list(results)})


def row_text(r: dict[str, Any]) -> str:
    low, high = r["mean_margin_ci95"]
    wl, wh = r["win_share_ci95"]
    share = "n/a" if r["win_share"] is None else f"{100 * r['win_share']:5.1f}%"
    times = "  ".join(f"{lv} {t['median']:.1f}/{t['p95']:.1f}/{t['max']:.1f}" for lv, t in r["ms"].items())
    return (
        f"{r['profile']:<11} {r['players']} {r['a'] + ' vs ' + r['b']:<20} {r['rounds']:>5} "
        f"{r['mean_margin']:+6.2f} [{low:+5.2f}, {high:+5.2f}] {share:>6} [{100 * wl:4.1f}, {100 * wh:4.1f}]  {times}"
    )


HEAD = (
    "profile     n players              rounds margin  95% CI          won %  95% CI        "
    "CPU ms a call median/p95/max"
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ladder", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=400, help="rounds per row, even (each deal twice)")
    parser.add_argument("--pairs", help="A:B,... (default: the whole ladder)")
    parser.add_argument("--profile", default="chkobba")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args(argv)
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",")] if args.pairs else LADDER
    for a, b in pairs:
        if a not in PLAYERS or b not in PLAYERS:
            parser.error(f"players are {', '.join(PLAYERS)}")
    rows = [(args.profile, args.players, a, b, args.rounds + args.rounds % 2) for a, b in pairs]
    started = time.perf_counter()
    report("bench.ladder", argv, run(rows, args.workers), started, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
