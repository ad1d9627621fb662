"""Golden vectors (tests/vectors/*.json) run through the public API of ``service.rules``.

Every file is ``{"about": ..., "vectors": [{"id", "source", "rules", "input", "expect"}, ...]}``; its ``about``
documents its shapes, and its name picks the runner below:

    cards     {cards}                              parse_cards; values via legal_captures on an empty table;
                                                   italian: the profile's Italian figure name of each card
    profiles  {}                                   Rules.of(rules): profile, players, target, options, scored
    captures  {table, card, last_play?}            legal_captures -> {value, kind, options: [{capture, sweep}]}
              {table, hand, last_play?}            hand_captures -> {moves: [{card, value, kind, options}]}
    plays     {table, hand, card, capture?, ...}   apply_play -> {kind, taken, captured, sweep, table, hand}
    deals     {players, dealer, deck|seed, cut?}   deal_round -> the state's JSON (+ stock_size)
    rounds    {state, move}                        play(RoundState.from_json(state), parse_move(move))
                                                   -> {state, event, pile_sizes, pile_tails, breakdown}
    states    {state}                              RoundState.from_json -> {valid: true}
    scoring   {sides, last_capturer?, claimed?}    score_round (+ compare_breakdown) -> {breakdown, ...}
    match     {scores, round_points, claimed?}     decide_match (+ compare_decision) -> {scores, outcome, winner}
    shuffle   {seed}                               seeded_deck -> {deck}
    replays   {players, dealer, deck, cut?, moves} replay_round -> {valid, first_illegal, moves, state, ...}
    match_records {players, dealer, rounds, claimed?}  replay_match -> {valid, complete, first_illegal, scores,
                                                   outcome, winner, claim, rounds: [per round judged]}

``expect`` is compared key by key with what the runner computed: every key it names must match, and the
nested ``state`` and ``event`` objects, each replayed verdict and each round of a match, are compared on
the keys they name.
``{"error": code}`` expects a ``RulesError`` with that code (and, when given, the legal ``options`` it
lists, or a ``field`` path starting with the given one). In a state or a scoring request, one pile may be
the string ``"rest"``: every card placed nowhere else, in canonical order (a shorthand for the input only).

The expectations were derived by hand from docs/rules.md and openapi.yaml, never by running the core; but
for whole matches (match_records), which were played with legal moves from seeded deals and worked out round
by round with replay_round and decide_match (tests/support.py), never with replay_match.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from service.rules import (
    CATEGORIES,
    Captures,
    Phase,
    RoundState,
    Rules,
    RulesError,
    Tally,
    apply_play,
    compare_breakdown,
    compare_decision,
    deal_round,
    decide_match,
    hand_captures,
    legal_captures,
    parse_cards,
    parse_move,
    play,
    primiera_total,
    replay_match,
    replay_round,
    round_breakdown,
    score_round,
    seeded_deck,
)

from ..support import CANONICAL, reference_draws, reference_shuffle

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "tests" / "vectors"
SHUFFLE_DOC = ROOT / "docs" / "seeded-shuffle.md"
RULES_DOC = ROOT / "docs" / "rules.md"
# The numbers of the rules' sections and subsections, from their headings: "7", "7.5", "10.16".
SECTIONS = frozenset(re.findall(r"^#{2,4} (\d+(?:\.\d+)*)\.? ", RULES_DOC.read_text(encoding="utf-8"), re.MULTILINE))
MISSING = "<missing>"

Json = dict[str, Any]


def _codes(cards: Any) -> list[str]:
    return [str(card) for card in cards]


def _with_rest(piles: list[Any], placed: list[str]) -> list[Any]:
    """Replace a pile given as "rest" by every card not in ``placed`` nor in the other piles."""
    taken = set(placed).union(*(pile for pile in piles if pile != "rest"))
    rest = [code for code in CANONICAL if code not in taken]
    return [rest if pile == "rest" else pile for pile in piles]


def _state_input(state: Any) -> Any:
    if not isinstance(state, dict) or not isinstance(state.get("piles"), list) or "rest" not in state["piles"]:
        return state
    placed = [*itertools.chain.from_iterable(state["hands"]), *state["table"], *state["stock"]]
    return {**state, "piles": _with_rest(state["piles"], placed)}


def _state_output(state: RoundState) -> Json:
    return {**state.to_json(), "stock_size": len(state.stock)}


# --- one runner per file -----------------------------------------------------------------------------


def run_cards(rules: Any, given: Json) -> Json:
    the_rules = Rules.of(rules)
    cards = parse_cards(given["cards"])
    figures = the_rules.profile.figure_names
    return {
        "codes": _codes(cards),
        "values": [legal_captures(the_rules, [], card).value for card in cards],
        "italian": [figures.get(card.rank, {}).get("it") for card in cards],
    }


def run_profiles(rules: Any, given: Json) -> Json:
    the_rules = Rules.of(rules)
    return {
        "profile": the_rules.profile.id,
        "players": list(the_rules.profile.players),
        "target": the_rules.target,
        "face_sums": the_rules.face_sums,
        "ties_to_last_capturer": the_rules.ties_to_last_capturer,
        "primiera": the_rules.primiera,
        "scored": [category for category in CATEGORIES if the_rules.scores(category)],
    }


def _options(captures: Captures) -> list[Json]:
    sweep = captures.sweep_option
    return [{"capture": _codes(option), "sweep": i == sweep} for i, option in enumerate(captures.options)]


def _captures_json(captures: Captures) -> Json:
    return {"value": captures.value, "kind": captures.kind.value, "options": _options(captures)}


def run_captures(rules: Any, given: Json) -> Json:
    last_play = given.get("last_play", False)
    if "hand" in given:  # the legalCaptures shape: one entry per hand card, in hand order
        moves = hand_captures(rules, given["table"], given["hand"], last_play=last_play)
        return {"moves": [{"card": str(c.card), **_captures_json(c)} for c in moves]}
    return _captures_json(legal_captures(rules, given["table"], given["card"], last_play=last_play))


def run_plays(rules: Any, given: Json) -> Json:
    result = apply_play(
        rules,
        given["table"],
        given["hand"],
        given["card"],
        given.get("capture"),
        last_play=given.get("last_play", False),
    )
    return {
        "kind": result.kind.value,
        "taken": _codes(result.taken),
        "captured": _codes(result.captured),
        "sweep": result.sweep,
        "table": _codes(result.table),
        "hand": _codes(result.hand),
    }


def run_deals(rules: Any, given: Json) -> Json:
    state, deck = deal_round(
        rules, given["players"], given["dealer"], deck=given.get("deck"), seed=given.get("seed"), cut=given.get("cut")
    )
    return {**_state_output(state), "deck": _codes(deck)}


def run_rounds(rules: Any, given: Json) -> Json:
    state = RoundState.from_json(_state_input(given["state"]))
    after, event = play(state, parse_move(given["move"]))
    return {
        "state": _state_output(after),
        "event": event.to_json(),
        "pile_sizes": [len(pile) for pile in after.piles],
        "piles": [_codes(pile) for pile in after.piles],  # for pile_tails
        "breakdown": [row.to_json() for row in round_breakdown(after)] if after.phase is Phase.OVER else None,
    }


def run_states(rules: Any, given: Json) -> Json:
    RoundState.from_json(_state_input(given["state"]))
    return {"valid": True}


def run_scoring(rules: Any, given: Json) -> Json:
    the_rules = Rules.of(rules)
    sides = given["sides"]
    piles = _with_rest([side.get("captured") for side in sides if "captured" in side], [])
    piles_left = iter(piles)
    tallies = []
    for i, side in enumerate(sides):
        if "captured" in side:
            tallies.append(Tally.of_pile(parse_cards(next(piles_left), where=f"sides.{i}.captured"), side["sweeps"]))
        else:
            tallies.append(Tally(**side["counts"], sweeps=side["sweeps"]))
    breakdown = score_round(the_rules, tallies, given.get("last_capturer"))
    out: Json = {"breakdown": [row.to_json() for row in breakdown]}
    if all(t.pile is not None for t in tallies):
        out["primiera_totals"] = [primiera_total(t.pile or ()) for t in tallies]
    if "claimed" in given:
        found = compare_breakdown(breakdown, given["claimed"])
        out.update(valid=not found, discrepancies=[d.to_json() for d in found])
    return out


def run_match(rules: Any, given: Json) -> Json:
    decision = decide_match(Rules.of(rules), given["scores"], given["round_points"])
    out = decision.to_json()
    if "claimed" in given:
        claimed = given["claimed"]
        found = compare_decision(decision, claimed.get("outcome"), claimed.get("winner"))
        out.update(valid=not found, discrepancies=[d.to_json() for d in found])
    return out


def run_shuffle(rules: Any, given: Json) -> Json:
    return {"deck": _codes(seeded_deck(given["seed"]))}


def run_replays(rules: Any, given: Json) -> Json:
    replay = replay_round(
        rules, given["players"], given["dealer"], given["moves"], deck=given.get("deck"), cut=given.get("cut")
    )
    breakdown = replay.breakdown
    return {
        "valid": replay.valid,
        "first_illegal": replay.first_illegal,
        "complete": replay.complete,
        "moves": [verdict.to_json() for verdict in replay.moves],
        "state": _state_output(replay.state),
        "breakdown": None if breakdown is None else [row.to_json() for row in breakdown],
    }


def run_match_records(rules: Any, given: Json) -> Json:
    result = replay_match(rules, given["players"], given["dealer"], given["rounds"], claimed=given.get("claimed"))
    stop = result.first_illegal
    rounds = []
    for judged in result.rounds:
        breakdown, decision = judged.replay.breakdown, judged.decision
        rounds.append(
            {
                "index": judged.index,
                "dealer": judged.dealer.to_json(),
                "void": judged.void,
                "valid": judged.valid,
                "complete": judged.complete,
                "first_illegal": judged.replay.first_illegal,
                "totals": None if breakdown is None else [row.total for row in breakdown],
                "scores": list(judged.scores),
                "decision": None
                if decision is None
                else {"outcome": decision.outcome.value, "winner": decision.winner},
                "claim": None if judged.claim is None else judged.claim.verdict,
            }
        )
    claim = result.claim
    return {
        "valid": result.valid,
        "complete": result.complete,
        "first_illegal": None if stop is None else {"round": stop[0], "move": stop[1]},
        "scores": list(result.scores),
        "outcome": result.outcome.value,
        "winner": result.winner,
        "claim": None if claim is None else {k: v for k, v in claim.to_json().items() if k != "reason"},
        "rounds": rounds,
    }


RUNNERS: dict[str, Callable[[Any, Json], Json]] = {
    "cards": run_cards,
    "profiles": run_profiles,
    "captures": run_captures,
    "plays": run_plays,
    "deals": run_deals,
    "rounds": run_rounds,
    "states": run_states,
    "scoring": run_scoring,
    "match": run_match,
    "shuffle": run_shuffle,
    "replays": run_replays,
    "match_records": run_match_records,
}


# --- comparison ----------------------------------------------------------------------------------------


def _subset(actual: Any, expected: Any) -> Any:
    """``actual`` restricted to the keys ``expected`` names (for a dict), so that a diff shows only those."""
    if isinstance(actual, dict) and isinstance(expected, dict):
        return {key: actual.get(key, MISSING) for key in expected}
    return actual


def _pick(actual: Json, expect: Json) -> Json:
    picked: Json = {}
    for key, want in expect.items():
        got = actual.get(key, MISSING)
        if key in ("state", "event"):
            got = _subset(got, want)
        elif key in ("moves", "rounds") and isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
            got = [_subset(g, w) for g, w in zip(got, want, strict=True)]
        elif key == "pile_tails" and "piles" in actual:
            got = [
                pile[len(pile) - len(tail) :] if tail else [] for pile, tail in zip(actual["piles"], want, strict=False)
            ]
        elif key == "field" and isinstance(got, str) and (got == want or got.startswith(f"{want}.")):
            got = want
        elif key == "discrepancies" and isinstance(got, list):
            got, want = _sorted(got), _sorted(want)
        picked[key] = got
    return picked


def _sorted(items: list[Json]) -> list[Json]:
    return sorted(items, key=lambda d: json.dumps(d, sort_keys=True))


def _error_output(exc: RulesError) -> Json:
    out: Json = {"error": exc.code, "field": exc.field, "message": exc.message}
    options = exc.details.get("options")
    if isinstance(options, Captures):
        out["options"] = [_codes(option) for option in options.options]
    return out


# --- loading -----------------------------------------------------------------------------------------


def _files() -> list[Path]:
    return sorted(VECTORS.glob("*.json"))


def _vectors() -> list[tuple[str, Json]]:
    found = []
    for path in _files():
        for vector in json.loads(path.read_text(encoding="utf-8"))["vectors"]:
            found.append((path.stem, vector))
    return found


ALL = _vectors()


@pytest.mark.parametrize(("topic", "vector"), [pytest.param(t, v, id=v["id"]) for t, v in ALL])
def test_vector(topic: str, vector: Json) -> None:
    run = RUNNERS[topic]
    expect = vector["expect"]
    if "error" in expect:
        with pytest.raises(RulesError) as caught:
            unexpected = run(vector["rules"], vector["input"])
            pytest.fail(f"expected error {expect['error']!r}, got {unexpected!r}")
        actual = _error_output(caught.value)
    else:
        actual = run(vector["rules"], vector["input"])
    assert _pick(actual, expect) == expect


# --- the vectors themselves ------------------------------------------------------------------------------


def test_vector_files_exist_and_each_has_a_runner() -> None:
    assert len(ALL) > 200
    assert {path.stem for path in _files()} == set(RUNNERS)


def test_vector_ids_are_unique() -> None:
    ids = [vector["id"] for _, vector in ALL]
    assert sorted(id for id in ids if ids.count(id) > 1) == []


def _malformed(vector: Json) -> str | None:
    """What is wrong with the form of a vector, if anything."""
    if set(vector) - {"note"} != {"id", "source", "rules", "input", "expect"}:
        return f"keys {sorted(vector)}"
    if not isinstance(vector["source"], str) or "docs/rules.md §" not in vector["source"]:
        return "no section of docs/rules.md cited"
    missing = [n for n in re.findall(r"§(\d+(?:\.\d+)*)", vector["source"]) if n not in SECTIONS]
    if missing:
        return f"docs/rules.md has no section {', '.join('§' + n for n in missing)}"
    if not isinstance(vector["input"], dict):
        return "input is not an object"
    # An expectation that names nothing could never fail.
    if not isinstance(vector["expect"], dict) or not vector["expect"]:
        return "nothing expected"
    if any(value == MISSING for value in vector["expect"].values()):
        return "an expectation of nothing"
    return None


def test_every_vector_is_well_formed() -> None:
    """The form of the vector files (one test: no change of the service can fail it, only of a file)."""
    found = {vector["id"]: _malformed(vector) for _, vector in ALL}
    assert {vid: why for vid, why in found.items() if why} == {}


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ("RULES" + ".md §4.2 (Q worth 8 takes 2+6 in chkobba)", "no section of docs/rules.md cited"),  # not a reference
        ("001 section 06", "no section of docs/rules.md cited"),
        ("docs/rules.md §4.2, §7.9; §11", "docs/rules.md has no section §7.9, §11"),  # not a reference
    ],
)
def test_a_vector_citing_no_section_of_the_rules_is_malformed(source: str, why: str) -> None:
    good = next(vector for _, vector in ALL if _malformed(vector) is None)
    assert {"4.2", "7.5", "10.16"} <= SECTIONS
    assert _malformed({**good, "source": source}) == why


def _shuffle_vectors() -> list[Json]:
    vectors: list[Json] = json.loads((VECTORS / "shuffle.json").read_text(encoding="utf-8"))["vectors"]
    return vectors


def test_shuffle_vectors_match_an_independent_implementation() -> None:
    vectors = _shuffle_vectors()
    assert len(vectors) >= 5
    assert any(isinstance(v["input"]["seed"], int) for v in vectors)
    assert any(not v["input"]["seed"].isascii() for v in vectors if isinstance(v["input"]["seed"], str))
    for vector in vectors:
        assert vector["expect"]["deck"] == reference_shuffle(vector["input"]["seed"]), vector["id"]


class _Digest:
    def __init__(self, value: bytes) -> None:
        self._value = value

    def digest(self) -> bytes:
        return self._value


LIMIT_40 = 2**64 - (2**64 % 40)  # the first draw is for i = 39, n = 40


@pytest.mark.parametrize(
    ("forced", "redrawn"),
    [
        pytest.param(2**64 - 1, True, id="max-is-redrawn"),
        pytest.param(LIMIT_40, True, id="limit-is-redrawn"),
        pytest.param(LIMIT_40 - 1, False, id="below-limit-is-kept"),
    ],
)
def test_seeded_shuffle_rejection(monkeypatch: pytest.MonkeyPatch, forced: int, redrawn: bool) -> None:
    """Force draw 0 (n = 40) to a chosen value: at or above 2^64 - (2^64 mod 40) it must be drawn again."""
    seed = "chkobba"
    real = hashlib.sha256
    hits = []

    def fake_sha256(data: bytes = b"", *args: Any, **kwargs: Any) -> Any:
        if data == f"{seed}:0".encode():
            hits.append(data)
            return _Digest(forced.to_bytes(8, "big") + bytes(24))
        return real(data, *args, **kwargs)

    expected = reference_shuffle(draws=itertools.chain([forced], itertools.islice(reference_draws(seed), 1, None)))
    monkeypatch.setattr(hashlib, "sha256", fake_sha256)
    got = _codes(seeded_deck(seed))
    monkeypatch.undo()
    assert hits, "the shuffle must hash the text '<seed>:<k>'"
    assert got == expected
    if redrawn:
        # Rejecting draw 0 shifts every later draw by one: k = 1 decides i = 39, and so on.
        assert got == reference_shuffle(draws=itertools.islice(reference_draws(seed), 1, None))
    else:
        assert got[39] == "KC"  # (2^64 - 17) mod 40 = 39: card 39 swaps with itself
    assert got != next(v["expect"]["deck"] for v in _shuffle_vectors() if v["input"]["seed"] == seed)


def test_shuffle_doc_publishes_the_same_vectors() -> None:
    rows = re.findall(r"^\| `([^`]+)` \| `([^`]+)` \|$", SHUFFLE_DOC.read_text(encoding="utf-8"), flags=re.MULTILINE)
    published = [(json.loads(seed), deck.split()) for seed, deck in rows]
    stored = [(v["input"]["seed"], v["expect"]["deck"]) for v in _shuffle_vectors()]
    assert published == stored
