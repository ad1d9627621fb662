"""The move hints' answers on thousands of seeded positions, written once and compared later: a
change meant to leave the strategy's answers alone (a refactoring) must give the same file.

Run with ``.venv/bin/python -m bench.hints_golden --write PATH`` before the change and
``.venv/bin/python -m bench.hints_golden --check PATH`` after it (``--quick`` for a tenth of the
positions). One JSON line per position: the state, and the whole answer of ``suggest`` (every move
with its score and reasons, ``move_count`` and ``shortened_by``). The check prints how many
positions it compared and every one that differs.

The positions, the same on every run:

- **played rounds**: for every profile and player count, rounds dealt from the portable seeded
  shuffle (chkobba with the cut ritual, so phase cut is asked too) and played to the end, each seat
  following the best hint or, half the time, a legal move drawn by a seeded ``random.Random``;
  every position where somebody moves is asked, endgames with an empty stock included;
- **odd states**: valid states built at random (every profile and player count), with tables of up
  to 34 cards, empty stocks and sweeps, which real rounds seldom reach: these reach the step budgets;
- **cuts**: chkobba deals waiting for the cut, each drawing another card;
- **other weights**: a tenth of the played positions asked again with weights that switch terms off
  (no pessimism, no follow, no lay cost), so that every branch of the strategy is compared.

The time budget's clock is held still (``Budget(clock=...)``), so that only the counted steps can cut
a search short and the answers do not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import random
import sys
import time
from collections.abc import Iterator, Sequence
from typing import Any

from bench.hints import CONFIGS
from service.rules import DECK, BadState, Phase, PlayMove, RoundState, Rules, advance, deal_round, legal_moves
from service.strategy import Budget, Hints, Weights, suggest

SETUPS = CONFIGS  # every profile and player count, as bench/hints.py plays them
STILL = Budget(clock=lambda: 0.0)  # the step budgets alone decide
OTHER_WEIGHTS = (
    Weights(pessimism=0.0, follow=0.0),
    Weights(lay=0.0, keep_seven=0.0, pessimism=1.0),
)


def played(rounds: int) -> Iterator[tuple[str, RoundState]]:
    for profile, players in SETUPS:
        for index in range(rounds):
            seed = f"golden/{profile}/{players}/{index}"
            rng = random.Random(seed)
            state, _ = deal_round(profile, players, index % players, seed=seed)
            n = 0
            while state.turn is not None:
                yield f"{seed}/{n}", state
                n += 1
                if rng.random() < 0.5:
                    move = suggest(state, limit=1, budget=STILL).moves[0].move
                elif state.phase is Phase.CUT:
                    move = suggest(state, budget=STILL).moves[rng.randrange(2)].move
                else:
                    plays = [(c.card, o) for c in legal_moves(state) for o in (c.options or [()])]
                    move = PlayMove(*plays[rng.randrange(len(plays))])
                state, _ = advance(state, move)


def odd(count: int) -> Iterator[tuple[str, RoundState]]:
    rng = random.Random("golden/odd")
    made = 0
    while made < count:
        profile, players = SETUPS[rng.randrange(len(SETUPS))]
        state = odd_state(rng, profile, players)
        if state is not None:
            yield f"odd/{made}", state
            made += 1


def cuts(count: int) -> Iterator[tuple[str, RoundState]]:
    """Chkobba deals waiting for the cut, each with its own drawn card."""
    for index in range(count):
        players = 2 + 2 * (index % 2)
        state, _ = deal_round("chkobba", players, index % players, seed=f"golden/cut/{index}")
        yield f"cut/{index}", state


def odd_state(rng: random.Random, profile: str, players: int) -> RoundState | None:
    """A valid state in phase play with a random table, stock, piles and sweeps (None when invalid)."""
    rules = Rules.of(profile)
    sides = rules.profile.sides(players)
    deck = list(DECK)
    rng.shuffle(deck)
    dealer = rng.randrange(players)
    leader = (dealer + 1) % players
    order = [(leader + k) % players for k in range(players)]
    top = rng.randint(1, 3)
    played_already = rng.randrange(players)
    sizes = {seat: top - (k < played_already) for k, seat in enumerate(order)}
    hands = [[deck.pop().code for _ in range(sizes[seat])] for seat in range(players)]
    refills = rng.choice([0, 0, 0, 1, 2])
    stock = [deck.pop().code for _ in range(3 * players * refills) if len(deck) > 3 * players]
    stock = stock[: len(stock) - len(stock) % (3 * players)]
    table_size = rng.choice([rng.randint(0, 8), rng.randint(0, len(deck))])
    table = [deck.pop().code for _ in range(min(table_size, len(deck)))]
    piles: list[list[str]] = [[] for _ in range(sides)]
    for card in deck:
        piles[rng.randrange(sides)].append(card.code)
    sweeps = [rng.randint(0, min(2, len(p) // 2)) for p in piles]
    holders = [s for s, p in enumerate(piles) if p]
    data = {
        "rules": profile,
        "players": players,
        "dealer": dealer,
        "phase": "play",
        "turn": order[played_already],
        "hands": hands,
        "table": table,
        "stock": stock,
        "piles": piles,
        "sweeps": sweeps,
        "last_capturer": rng.choice(holders) if holders else None,
    }
    try:
        return RoundState.from_json(data)
    except BadState:
        return None


def answer(found: Hints) -> dict[str, Any]:
    return {
        "moves": [h.to_json() for h in found.moves],
        "move_count": found.count,
        "shortened_by": None if found.shortened_by is None else found.shortened_by.value,
    }


def lines(quick: bool) -> Iterator[dict[str, Any]]:
    rounds, odd_count = (4, 200) if quick else (40, 2000)
    every = list(played(rounds))
    for name, state in every:
        yield {"id": name, "state": state.to_json(), "answer": answer(suggest(state, budget=STILL))}
    for name, state in (*odd(odd_count), *cuts(odd_count // 10)):
        yield {"id": name, "state": state.to_json(), "answer": answer(suggest(state, budget=STILL))}
    for k, (name, state) in enumerate(every[::10]):
        weights = OTHER_WEIGHTS[k % len(OTHER_WEIGHTS)]
        found = suggest(state, weights=weights, budget=STILL)
        yield {
            "id": f"{name}/weights",
            "weights": {f.name: getattr(weights, f.name) for f in dataclasses.fields(weights) if f.name != "keep_cut"},
            "state": state.to_json(),
            "answer": answer(found),
        }


def dump(line: dict[str, Any]) -> str:
    return json.dumps(line, sort_keys=True, separators=(",", ":"))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.hints_golden", description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", metavar="PATH", help="write the answers to PATH (JSON lines)")
    group.add_argument("--check", metavar="PATH", help="compare the answers with those written to PATH")
    parser.add_argument("--quick", action="store_true", help="a tenth of the positions")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    digest = hashlib.sha256()
    produced = []
    for line in lines(args.quick):
        text = dump(line)
        digest.update(text.encode() + b"\n")
        produced.append(text)
    calls = len(produced)
    kinds: dict[str, int] = {}
    for text in produced:
        line = json.loads(text)
        state, found = line["state"], line["answer"]
        for kind in (
            f"phase {state['phase']}",
            "empty stock" if not state["stock"] and state["phase"] == "play" else "",
            f"shortened by {found['shortened_by']}" if found["shortened_by"] else "",
        ):
            if kind:
                kinds[kind] = kinds.get(kind, 0) + 1
    print(", ".join(f"{kind}: {n}" for kind, n in sorted(kinds.items())))
    if args.write:
        with open(args.write, "w", encoding="utf-8") as out:
            out.writelines(text + "\n" for text in produced)
        print(f"{calls} answers written to {args.write}; sha256 {digest.hexdigest()}")
    else:
        with open(args.check, encoding="utf-8") as source:
            expected = source.read().splitlines()
        differ = [json.loads(want)["id"] for want, got in zip(expected, produced, strict=False) if want != got]
        if len(expected) != calls:
            differ.append(f"(count: {len(expected)} expected, {calls} produced)")
        print(f"{calls} answers compared with {args.check}: {len(differ)} differences; sha256 {digest.hexdigest()}")
        for name in differ[:20]:
            print(f"  differs: {name}")
        if differ:
            return 1
    print(f"({time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
