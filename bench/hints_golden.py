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
- **odd positions**: rounds of every profile and player count played to positions real rounds
  seldom reach, each move drawn from a skewed player: one who lays the highest card that takes
  nothing and else takes the fewest cards (big tables), one who sweeps when it can and else takes
  the most (sweeps), and a random one. Played through the core, every position is one a round
  reaches (a built state may not be: docs/rules.md §10.17-10.20);
- **cuts**: chkobba deals waiting for the cut, each drawing another card;
- **other weights**: a tenth of the played positions asked again with weights that switch terms off
  (no pessimism, no follow, no lay cost), so that every branch of the strategy is compared;
- **tight budgets**: a fifth of the played and odd positions asked again with a tenth of each step
  budget, so that what a budget leaves (the race and the habits alone, the endgame left to the
  heuristic) is compared too: no real round comes near the default budgets often enough for that;
- **options**: rounds played as above under the options the strategy reads (chkobba-crp with
  ``ties_to_last_capturer``, every player count), listed last so that the lines before them stay
  as they were.

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
from service.rules import Card, Phase, PlayMove, RoundState, Rules, advance, deal_round, legal_moves
from service.strategy import ENDGAME_BUDGET, REPLY_BUDGET, Budget, Hints, Weights, suggest

SETUPS = CONFIGS  # every profile and player count, as bench/hints.py plays them
# The options the strategy reads, each with its profile's player counts: (name in the ids, rules, players).
TIES = {"profile": "chkobba-crp", "options": {"ties_to_last_capturer": True}}
OPTION_SETUPS: tuple[tuple[str, Any, int], ...] = tuple(
    ("chkobba-crp+ties", TIES, players) for players in Rules.of(TIES).profile.players
)
STILL = Budget(clock=lambda: 0.0)  # the step budgets alone decide
TIGHT = Budget(reply_steps=REPLY_BUDGET // 10, endgame_steps=ENDGAME_BUDGET // 10, clock=lambda: 0.0)
OTHER_WEIGHTS = (
    Weights(pessimism=0.0, follow=0.0),
    Weights(lay=0.0, keep_seven=0.0, pessimism=1.0),
)


def played(rounds: int, setups: Sequence[tuple[str, Any, int]] | None = None) -> Iterator[tuple[str, RoundState]]:
    for name, rules, players in setups or [(profile, profile, players) for profile, players in SETUPS]:
        for index in range(rounds):
            seed = f"golden/{name}/{players}/{index}"
            rng = random.Random(seed)
            state, _ = deal_round(rules, players, index % players, seed=seed)
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
    made = index = 0
    while made < count:
        profile, players = SETUPS[index % len(SETUPS)]
        cut = ("keep", "table")[index // len(SETUPS) % 2] if Rules.of(profile).profile.cut_ritual else None
        state, _ = deal_round(profile, players, index % players, seed=f"golden/odd/{index}", cut=cut)
        index += 1
        while state.turn is not None and made < count:  # a void deal (phase redeal) is left
            yield f"odd/{made}", state
            made += 1
            state, _ = advance(state, skewed(state, rng))


def cuts(count: int) -> Iterator[tuple[str, RoundState]]:
    """Chkobba deals waiting for the cut, each with its own drawn card."""
    for index in range(count):
        players = 2 + 2 * (index % 2)
        state, _ = deal_round("chkobba", players, index % players, seed=f"golden/cut/{index}")
        yield f"cut/{index}", state


def skewed(state: RoundState, rng: random.Random) -> PlayMove:
    """A move of the hoarder (60%), the sweeper (25%) or the random player (15%)."""
    values = state.rules.profile.card_values
    plays: list[tuple[Card, tuple[Card, ...], bool]] = [
        (caps.card, option, i == caps.sweep_option)
        for caps in legal_moves(state)
        for i, option in enumerate(caps.options or ((),))
    ]
    style = rng.random()
    if style < 0.6:  # lay the highest card that takes nothing: lays from high to low build big tables
        laid = [p for p in plays if not p[1]]
        if laid:
            top = max(values[p[0]] for p in laid)
            plays = [p for p in laid if values[p[0]] == top]
        else:
            fewest = min(len(p[1]) for p in plays)
            plays = [p for p in plays if len(p[1]) == fewest]
    elif style < 0.85:  # sweep, else take the most cards
        sweeps = [p for p in plays if p[2]]
        most = max(len(p[1]) for p in plays)
        plays = sweeps or [p for p in plays if len(p[1]) == most]
    card, option, _ = plays[rng.randrange(len(plays))]
    return PlayMove(card, option)


def answer(found: Hints) -> dict[str, Any]:
    return {
        "moves": [h.to_json() for h in found.moves],
        "move_count": found.count,
        "shortened_by": None if found.shortened_by is None else found.shortened_by.value,
    }


def lines(quick: bool) -> Iterator[dict[str, Any]]:
    rounds, odd_count = (4, 200) if quick else (40, 2000)
    every = list(played(rounds))
    odd_ones = list(odd(odd_count))
    for name, state in every:
        yield {"id": name, "state": state.to_json(), "answer": answer(suggest(state, budget=STILL))}
    for name, state in (*odd_ones, *cuts(odd_count // 10)):
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
    for name, state in [p for p in [*every, *odd_ones][::5] if p[1].phase is Phase.PLAY]:  # a cut has no budget
        yield {
            "id": f"{name}/tight",
            "budget": {"reply_steps": TIGHT.reply_steps, "endgame_steps": TIGHT.endgame_steps},
            "state": state.to_json(),
            "answer": answer(suggest(state, budget=TIGHT)),
        }
    for name, state in played(rounds, OPTION_SETUPS):
        yield {"id": name, "state": state.to_json(), "answer": answer(suggest(state, budget=STILL))}


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
