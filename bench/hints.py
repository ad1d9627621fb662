"""The move-hint benchmark: complete seeded rounds, the hinted player against a random and a greedy one.

Run with ``.venv/bin/python -m bench.hints [--quick] [--rounds N] [--workers N] [--json PATH]``;
``--ladder`` reports the computer's levels instead (bench/ladder.py): each level against the others,
greedy and random, in seat-swapped rounds, with intervals and the CPU ms of each call.

For every profile and player count below, and each opponent, N rounds are dealt from the portable
seeded shuffle and played to the end. The dealer is ``i % players`` and the hinted side
``(i // players) % sides`` in round ``i``, so both alternate evenly; with four players the hinted
side is both partners. Every seat of the hinted side plays the first move of ``suggest_moves``; every
other seat plays the opponent's rule:

- ``random``: a move drawn uniformly from every legal (card, capture option) pair, and the cut
  uniformly, with ``random.Random`` seeded from the round;
- ``greedy``: the capture taking the most cards (the played card included), then the highest total
  value of the cards taken, then the first in card order and capture order; when no card captures,
  the card of lowest value (first in card order); keep at the cut.

A round is won when the hinted side's round total is strictly the highest, lost when another side's
is strictly higher, and undecided otherwise (a tie at the top). The report gives wins over decided
rounds with a 95% Wilson interval, the mean point margin (the hinted side's total minus the best
other side's, over every round) with a 95% normal-approximation interval, and the median time of
one ``suggest_moves`` call. A goal is met when its whole interval lies at or above it. A row
``greedy vs random`` calibrates the baseline: a plain greedy rule's share against the random player.
It also counts the hint calls that a work budget cut short (``shortened_by``): real rounds should
have none, since the budgets are sized far above what they need.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bench.report import in_chunks, machine, write_json
from service.rules import (
    Captures,
    Cut,
    CutMove,
    Phase,
    PlayMove,
    RoundState,
    Rules,
    advance,
    deal_round,
    legal_moves,
    round_breakdown,
)
from service.strategy import suggest, suggest_moves

# Every profile and player count the issue names, and chkobba-crp with four.
CONFIGS: tuple[tuple[str, int], ...] = (
    ("chkobba", 2),
    ("chkobba", 4),
    ("chkobba-crp", 2),
    ("chkobba-crp", 3),
    ("chkobba-crp", 4),
    ("scopa", 2),
)
OPPONENTS = ("random", "greedy")
GOALS = {("chkobba", 2, "random"): 0.85, ("chkobba", 2, "greedy"): 0.60}
Z95 = 1.959963984540054

Policy = Callable[[RoundState, random.Random], Any]


# ---- the players -------------------------------------------------------------------------------------


def random_move(state: RoundState, rng: random.Random) -> Any:
    legal = legal_moves(state)
    if state.phase is Phase.CUT:
        return CutMove(rng.choice(legal))
    plays = [(c.card, o) for c in legal for o in (c.options or [()])]
    card, option = plays[rng.randrange(len(plays))]
    return PlayMove(card, option)


def greedy_move(state: RoundState, rng: random.Random) -> Any:
    if state.phase is Phase.CUT:
        return CutMove(Cut.KEEP)
    values = state.rules.profile.card_values
    legal: list[Captures] = sorted(legal_moves(state), key=lambda c: c.card.index)
    best: tuple[tuple[int, int], PlayMove] | None = None
    for caps in legal:
        for option in caps.options:
            key = (len(option) + 1, values[caps.card] + sum(values[c] for c in option))
            if best is None or key > best[0]:
                best = (key, PlayMove(caps.card, option))
    if best is not None:
        return best[1]
    low = min(legal, key=lambda c: (c.value, c.card.index))
    return PlayMove(low.card, ())


def hinted_move(state: RoundState, rng: random.Random) -> Any:
    return suggest_moves(state)[0].move


POLICIES: dict[str, Policy] = {"random": random_move, "greedy": greedy_move, "hints": hinted_move}


# ---- one round ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    index: int
    margin: int  # the hinted side's total minus the best other side's
    hint_ns: tuple[int, ...]  # the time of each hinted call
    shortened: int = 0  # hinted calls that a work budget cut short


def play_round(profile: str, players: int, index: int, ours: str, theirs: str) -> Outcome:
    rules = Rules.of(profile)
    sides = rules.profile.sides(players)
    dealer = index % players
    our_side = (index // players) % sides
    seed = f"hints/{profile}/{players}/{index}"
    rng = random.Random(f"{seed}/{theirs}")
    state, _ = deal_round(rules, players, dealer, seed=seed)
    redeals = 0
    times: list[int] = []
    shortened = 0
    ours_policy, theirs_policy = POLICIES[ours], POLICIES[theirs]
    while True:
        while state.turn is not None:
            mine = state.turn % sides == our_side
            if mine and ours == "hints":
                t0 = time.perf_counter_ns()
                found = suggest(state, limit=1)
                times.append(time.perf_counter_ns() - t0)
                move = found.moves[0].move
                shortened += found.shortened_by is not None
            else:
                move = (ours_policy if mine else theirs_policy)(state, rng)
            state, _ = advance(state, move)
        if state.phase is Phase.OVER:
            break
        redeals += 1  # the deal is void: deal again, same dealer
        state, _ = deal_round(rules, players, dealer, seed=f"{seed}/redeal{redeals}")
    totals = round_totals(state)
    best_other = max(t for s, t in enumerate(totals) if s != our_side)
    return Outcome(index, totals[our_side] - best_other, tuple(times), shortened)


def round_totals(state: RoundState) -> list[int]:
    return [s.total for s in round_breakdown(state)]


def run_chunk(args: tuple[str, int, str, str, int, int]) -> list[Outcome]:
    profile, players, ours, theirs, start, stop = args
    return [play_round(profile, players, i, ours, theirs) for i in range(start, stop)]


# ---- statistics --------------------------------------------------------------------------------------


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def summarize(profile: str, players: int, ours: str, theirs: str, outcomes: Sequence[Outcome]) -> dict[str, Any]:
    margins = [o.margin for o in outcomes]
    wins = sum(m > 0 for m in margins)
    losses = sum(m < 0 for m in margins)
    decided = wins + losses
    mean = statistics.fmean(margins)
    half = Z95 * statistics.stdev(margins) / math.sqrt(len(margins)) if len(margins) > 1 else math.inf
    low, high = wilson(wins, decided)
    times = [t for o in outcomes for t in o.hint_ns]
    goal = GOALS.get((profile, players, theirs)) if ours == "hints" else None
    return {
        "profile": profile,
        "players": players,
        "ours": ours,
        "opponent": theirs,
        "rounds": len(outcomes),
        "wins": wins,
        "losses": losses,
        "ties": len(outcomes) - decided,
        "win_share": wins / decided if decided else None,
        "win_share_ci95": [low, high],
        "mean_margin": mean,
        "mean_margin_ci95": [mean - half, mean + half],
        "hint_calls": len(times),
        "shortened_calls": sum(o.shortened for o in outcomes),
        "median_hint_us": statistics.median(times) / 1000 if times else None,
        "p99_hint_us": statistics.quantiles(times, n=100)[98] / 1000 if len(times) >= 100 else None,
        "goal": goal,
        "goal_met": None if goal is None else low >= goal,  # the whole interval at or above the goal
        "goal_missed": None if goal is None else high < goal,  # the whole interval below it
    }


# ---- running and reporting ---------------------------------------------------------------------------


def plan(quick: bool, rounds: int | None) -> list[tuple[str, int, str, str, int]]:
    """(profile, players, ours, opponent, rounds) for every row of the report."""
    rows = []
    for profile, players in CONFIGS:
        headline = (profile, players) == ("chkobba", 2)
        n = rounds or (100 if quick else 8000 if headline else 1500)
        rows.extend((profile, players, "hints", theirs, n) for theirs in OPPONENTS)
    rows.append(("chkobba", 2, "greedy", "random", rounds or (100 if quick else 2000)))
    return rows


def print_row(r: dict[str, Any]) -> None:
    who = f"{r['ours']} vs {r['opponent']}"
    low, high = r["win_share_ci95"]
    mlow, mhigh = r["mean_margin_ci95"]
    share = "n/a" if r["win_share"] is None else f"{100 * r['win_share']:5.1f}%"
    median = "" if r["median_hint_us"] is None else f"{r['median_hint_us']:.0f}"
    goal = ""
    if r["goal"] is not None:
        verdict = "met" if r["goal_met"] else "NOT MET" if r["goal_missed"] else "not shown (the CI straddles it)"
        goal = f"≥{100 * r['goal']:.0f}% {verdict}"
    print(
        f"{r['profile']:<11} {r['players']:>2} {who:<17} {r['rounds']:>6} {r['wins']:>5} {r['losses']:>5} "
        f"{r['ties']:>4} {share:>6} [{100 * low:5.1f}, {100 * high:5.1f}] "
        f"{r['mean_margin']:+6.2f} [{mlow:+5.2f}, {mhigh:+5.2f}] {median:>6} {goal}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.hints", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="100 rounds per row (a smoke run)")
    parser.add_argument(
        "--rounds",
        type=int,
        help="rounds per row (default 4000 for 2-player chkobba, 2000 for the greedy baseline, else 1000)",
    )
    parser.add_argument("--workers", type=int, help="processes (default: the CPUs this process may use)")
    parser.add_argument("--json", metavar="PATH", help="also write every figure as JSON to PATH")
    parser.add_argument(
        "--ladder", action="store_true", help="the levels' ladder (bench/ladder.py; --rounds per row, default 400)"
    )
    args = parser.parse_args(argv)
    if args.ladder:
        from bench import ladder  # it imports this module's players

        return ladder.main(
            [f"--rounds={args.rounds or 400}", f"--workers={args.workers or 2}"]
            + ([f"--json={args.json}"] if args.json else [])
        )
    info = machine()
    workers = args.workers or info["cpus_usable"] or 1
    started = time.perf_counter()
    print(f"move-hint benchmark: Python {info['python']}, {info['platform']}")
    load = info["loadavg_at_start"]
    print(
        f"CPUs: {info['cpu_count']} (usable: {info['cpus_usable']}); workers: {workers}; load average: "
        f"{' '.join(f'{x:.2f}' for x in load) if load else 'n/a'}"
    )
    rows = plan(args.quick, args.rounds)
    outcomes = in_chunks(rows, run_chunk, 25, workers)
    results = [summarize(*key, sorted(found, key=lambda o: o.index)) for key, found in outcomes.items()]
    print()
    print("wins / decided rounds with a 95% Wilson interval; mean margin (hinted side minus the best other")
    print("side, every round) with a 95% normal interval; median µs of one suggest_moves call.")
    print()
    head = (
        f"{'profile':<11} {'n':>2} {'players':<17} {'rounds':>6} {'won':>5} {'lost':>5} {'tie':>4} {'won %':>6} "
        f"{'95% CI':>14} {'margin':>6} {'95% CI':>14} {'µs':>6} goal"
    )
    print(head)
    print("-" * len(head))
    for r in results:
        print_row(r)
    elapsed = time.perf_counter() - started
    calls = sum(r["hint_calls"] for r in results)
    print()
    print(f"hint calls cut short by a work budget: {sum(r['shortened_calls'] for r in results)} of {calls:,}")
    print(f"total run time: {elapsed:.1f} s")
    if args.json:
        write_json(args.json, {"machine": info, "workers": workers, "results": results, "total_s": elapsed})
    return 0


if __name__ == "__main__":
    sys.exit(main())
