"""``legal_captures`` against a brute-force enumeration of every subset of the table (docs/rules.md §4, §5)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules import DECK, CaptureKind, Card, apply_play, legal_captures

# docs/rules.md §1.4: capture values per profile.
FACE_VALUES = {"chkobba": {"J": 9, "Q": 8, "K": 10}, "chkobba-crp": {"J": 8, "Q": 9, "K": 10}}
FACE_VALUES["scopa"] = FACE_VALUES["chkobba-crp"]
RULES = [
    "chkobba",
    "scopa",
    "chkobba-crp",
    {"profile": "chkobba-crp", "options": {"face_sums": False}},
    {"profile": "chkobba-crp", "options": {"face_sums": True}},
]


def value(profile: str, card: Card) -> int:
    rank = card.code[0]
    return 1 if rank == "A" else FACE_VALUES[profile].get(rank) or int(rank)


def brute_force(rules: Any, table: list[Card], card: Card, last_play: bool) -> tuple[str, list[tuple[int, ...]], Any]:
    """The kind, the options as tuples of table positions in lexicographic order, and the index of the sweep option."""
    profile = rules if isinstance(rules, str) else rules["profile"]
    face_sums = profile != "chkobba-crp" or (isinstance(rules, dict) and rules["options"].get("face_sums", False))
    values = [value(profile, c) for c in table]
    v = value(profile, card)
    matches = [(i,) for i, w in enumerate(values) if w == v]
    if matches:  # §4.1: match first, exactly one card
        kind, options = "match", matches
    elif card.code[0] in "JQK" and not face_sums:  # §4.2: chkobba-crp faces capture only by match
        kind, options = "none", []
    else:
        options = [
            subset
            for size in range(2, len(table) + 1)
            for subset in combinations(range(len(table)), size)
            if sum(values[i] for i in subset) == v
        ]
        if profile == "scopa" and options:  # §4.2: only the sets with the most cards
            most = max(map(len, options))
            options = [o for o in options if len(o) == most]
        kind = "sum" if options else "none"
    options.sort()
    sweep_option = None
    if not last_play:  # §5: the last play never sweeps
        sweep_option = next((i for i, o in enumerate(options) if len(o) == len(table)), None)
    return kind, options, sweep_option


LOW_CARDS = [c for c in DECK if c.code[0] in "A2345"]


@st.composite
def tables(draw: st.DrawFn) -> list[Card]:
    """0 to 15 distinct cards; half the time only low cards, which make many long sums."""
    size = draw(st.integers(0, 15), label="table size")
    pool = draw(st.sampled_from([DECK, LOW_CARDS]), label="pool")
    return draw(st.lists(st.sampled_from(pool), unique=True, min_size=size, max_size=size), label="table")


# These examples are cheap: run more of them than the profile's default.
more = settings(max_examples=settings().max_examples * 5)


@more
@given(
    rules=st.sampled_from(RULES),
    table=tables(),
    data=st.data(),
    last_play=st.booleans(),
    as_codes=st.booleans(),
)
def test_legal_captures_equal_brute_force(
    rules: Any, table: list[Card], data: st.DataObject, last_play: bool, as_codes: bool
) -> None:
    card = data.draw(st.sampled_from([c for c in DECK if c not in table]), label="card")
    given_table: list[Any] = [c.code for c in table] if as_codes else table
    caps = legal_captures(rules, given_table, card.code if as_codes else card, last_play=last_play)
    kind, positions, sweep_option = brute_force(rules, table, card, last_play)
    assert caps.card is card
    assert caps.value == value(rules if isinstance(rules, str) else rules["profile"], card)
    assert caps.kind.value == kind
    assert caps.options == tuple(tuple(table[i] for i in option) for option in positions)
    assert caps.sweep_option == sweep_option
    if last_play:
        assert caps.sweep_option is None


@more
@given(rules=st.sampled_from(RULES), table=tables(), data=st.data(), last_play=st.booleans())
def test_every_option_applies_and_leaves_the_rest_of_the_table(
    rules: Any, table: list[Card], data: st.DataObject, last_play: bool
) -> None:
    others = [c for c in DECK if c not in table]
    hand = data.draw(st.lists(st.sampled_from(others), unique=True, min_size=1, max_size=3), label="hand")
    card = data.draw(st.sampled_from(hand), label="card")
    caps = legal_captures(rules, table, card, last_play=last_play)
    rest_of_hand = tuple(c for c in hand if c is not card)
    if not caps.options:
        result = apply_play(rules, table, hand, card, last_play=last_play)
        assert result.kind is CaptureKind.NONE and result.taken == () and result.captured == ()
        assert result.table == (*table, card) and result.hand == rest_of_hand and not result.sweep
        return
    for index, option in enumerate(caps.options):
        shuffled = data.draw(st.permutations(option), label="capture order")
        result = apply_play(rules, table, hand, card, [c.code for c in shuffled], last_play=last_play)
        assert result.taken == option
        assert result.captured == (card, *option)
        assert result.table == tuple(c for c in table if c not in option)
        assert result.hand == rest_of_hand
        assert result.sweep is (not result.table and not last_play)
        assert result.sweep is (index == caps.sweep_option)
