"""The rules core's quick roads against its slow ones: where the core takes a common case by a
shorter road, the result (or the error, its code, field, message and details) must be the one the
general road gives.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.rules import (
    DECK,
    Phase,
    RoundState,
    RulesError,
    Tally,
    deal_round,
    legal_moves,
    round_breakdown,
    score_round,
)
from service.rules.round import PlayMove, advance
from service.rules.state import _well_formed, validate

from ..support import changed, places

SETUPS = [("chkobba", 2), ("chkobba", 4), ("chkobba-crp", 2), ("chkobba-crp", 3), ("chkobba-crp", 4), ("scopa", 2)]
CODES = [c.code for c in DECK]


def positions(profile: str, players: int, seed: int) -> list[RoundState]:
    """Every state of a round dealt from ``seed`` and played with random legal moves."""
    rng = random.Random(seed)
    state, _ = deal_round(profile, players, seed % players, seed=seed, cut="keep" if profile == "chkobba" else None)
    found = [state]
    while state.turn is not None and state.phase is Phase.PLAY:
        legal = legal_moves(state)
        caps = rng.choice(legal)
        option = rng.choice(caps.options) if caps.options else ()
        state, _ = advance(state, PlayMove(caps.card, option))
        found.append(state)
    return found


STATES = [s.to_json() for profile, players in SETUPS for seed in range(3) for s in positions(profile, players, seed)]
LEAVES = st.sampled_from(
    [None, True, False, -1, 0, 1, 2, 3, 4, 5, 2.0, "", "x", "play", "cut", "over", "redeal", "chkobba", "scopa"]
    + ["chkobba-crp", *CODES[:6], "7D", "KC"]
) | st.just({"profile": "chkobba-crp", "options": {"face_sums": True}})
VALUES = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner), max_leaves=4)


def outcome(build: Any, data: Any) -> tuple[Any, ...]:
    try:
        return ("state", build(data))
    except RulesError as exc:
        return ("error", type(exc), exc.code, exc.field, exc.message, exc.details)


def slow_from_json(data: Any) -> RoundState:
    state = RoundState._parse(data)
    validate(state)
    return state


@given(data=st.data())
def test_from_json_takes_a_state_as_its_field_by_field_road_does(data: st.DataObject) -> None:
    state: Any = data.draw(st.sampled_from(STATES))
    for _ in range(data.draw(st.integers(0, 3))):
        path = data.draw(st.sampled_from(places(state)))
        action = data.draw(st.sampled_from(["replace", "delete", "insert", "swap"]))
        state = changed(state, path, action, data.draw(VALUES))
    assert outcome(RoundState.from_json, state) == outcome(slow_from_json, state)
    quick = _well_formed(state)
    if quick is not None:
        assert quick == RoundState._parse(state)


def test_the_well_formed_road_takes_every_state_the_core_makes() -> None:
    for state in STATES:
        assert _well_formed(state) == RoundState._parse(state)


@pytest.mark.parametrize(
    "tweak",
    [
        lambda s: {**s, "players": True},
        lambda s: {**s, "sweeps": [0, False] if len(s["sweeps"]) == 2 else s["sweeps"]},
        lambda s: {**s, "table": tuple(s["table"])},
        lambda s: {**s, "rules": {"profile": s["rules"]}},
        lambda s: {**s, "phase": "Play"},
        lambda s: {k: v for k, v in s.items() if k != "last_capturer"},
    ],
)
def test_the_well_formed_road_declines_what_is_not_plainly_well_formed(tweak: Any) -> None:
    state = tweak(STATES[5])
    quick = _well_formed(state)
    if quick is not None:  # a tuple for a list: both roads take it
        assert quick == RoundState._parse(state)
    assert outcome(RoundState.from_json, state) == outcome(slow_from_json, state)


def finished_rounds() -> list[RoundState]:
    found = []
    for profile, players in SETUPS:
        for seed in range(4):
            last = positions(profile, players, seed)[-1]
            if last.phase is Phase.OVER:
                found.append(last)
    return found


def test_round_breakdown_scores_as_score_round_does_with_its_checks() -> None:
    """round_breakdown skips check_tallies on the engine's own finished states: they always pass it."""
    rounds = finished_rounds()
    assert len(rounds) >= 12
    for state in rounds:
        tallies = [Tally.of_pile(pile, n) for pile, n in zip(state.piles, state.sweeps, strict=True)]
        assert round_breakdown(state) == score_round(state.rules, tallies, state.last_capturer)


@given(st.lists(st.sampled_from([*DECK, "7D", None, 7]), max_size=60), st.integers(0, 5))
def test_a_tally_counts_its_pile_one_card_at_a_time(pile: list[Any], sweeps: int) -> None:
    """Tally.of_pile counts four things in one packed sum; counted here one card at a time (duplicates
    and things that are not cards included, which count for nothing)."""
    from service.rules import SEVEN_OF_DIAMONDS, Card, Rank, Suit

    cards = [c for c in pile if isinstance(c, Card)]
    tally = Tally.of_pile(pile, sweeps)
    assert (tally.cards, tally.sweeps, tally.pile) == (len(pile), sweeps, tuple(pile))
    assert tally.diamonds == sum(c.suit is Suit.DIAMONDS for c in cards)
    assert tally.sevens == sum(c.rank is Rank.SEVEN for c in cards)
    assert tally.sixes == sum(c.rank is Rank.SIX for c in cards)
    assert tally.seven_of_diamonds is (SEVEN_OF_DIAMONDS in cards)


@given(st.lists(st.sampled_from([*DECK[:6], "7D", "XX", None, 3]), max_size=4) | st.sampled_from(["AD", None, {}]))
def test_distinct_cards_is_the_parse_of_a_valid_list(values: Any) -> None:
    from service.rules import DuplicateCard, InvalidCard, parse_cards
    from service.rules.cards import distinct_cards

    found = distinct_cards(values)
    try:
        parsed = parse_cards(values)
    except (InvalidCard, DuplicateCard):
        assert found is None
    else:
        assert found == parsed


@given(st.lists(st.sampled_from(DECK), max_size=6, unique=True), st.integers(1, 4), st.booleans())
def test_a_redeal_rule_counts_ranks_as_a_tally_does(table: list[Any], count: int, kings_only: bool) -> None:
    from service.rules import Rank
    from service.rules.profiles import RedealRule

    rule = RedealRule(count=count, ranks=frozenset({Rank.KING}) if kings_only else None)
    tally: dict[Any, int] = {}
    for card in table:
        if rule.ranks is None or card.rank in rule.ranks:
            tally[card.rank] = tally.get(card.rank, 0) + 1
    assert rule.applies(tuple(table)) is any(n >= count for n in tally.values())


CODE_OR_JUNK = st.sampled_from([*CODES[:12], "7D", "KH", "XX", None])


@given(st.lists(CODE_OR_JUNK, max_size=8), CODE_OR_JUNK, st.sampled_from(["chkobba", "scopa", "chkobba-crp"]))
def test_legal_captures_parses_in_one_pass_as_one_at_a_time(table: list[Any], card: Any, rules: str) -> None:
    """legal_captures parses the table and the card in one pass when all is well; otherwise one at a
    time, naming what is wrong. Both roads: the same captures, or the same error."""
    from service.rules import Rules, captures_of, legal_captures, parse_cards
    from service.rules.cards import card_of, check_disjoint

    def one_at_a_time() -> Any:
        cards = parse_cards(table, where="table")
        played = card_of(card)
        check_disjoint([("table", cards), ("the card played", (played,))])
        return captures_of(Rules.of(rules), cards, played, False)

    assert outcome(lambda _: legal_captures(rules, table, card), None) == outcome(lambda _: one_at_a_time(), None)


def test_seat_views_rendered_together_are_the_views_of_each_seat() -> None:
    """views_json renders what every seat sees alike once and shares it between the views: each
    view is still the seat's own, spelled out here field by field."""
    from service.rules import seat_view
    from service.rules.seat_view import views_json

    cut_state = deal_round("chkobba", 2, 1, seed="views")[0]  # phase cut: the cutter sees the card
    for state in [cut_state, *(RoundState.from_json(s) for s in STATES[::7])]:
        seats = range(state.players)
        expected = []
        for seat in seats:
            view = {
                "seat": seat,
                "side": state.side_of(seat),
                "hand": [c.code for c in state.hands[seat]],
                # What a spectator sees too (spectator_json):
                "rules": state.rules.to_json(),
                "players": state.players,
                "dealer": state.dealer,
                "phase": state.phase.value,
                "turn": state.turn,
                "hand_sizes": [len(h) for h in state.hands],
                "table": [c.code for c in state.table],
                "stock_size": len(state.stock),
                "piles": [[c.code for c in pile] for pile in state.piles],
                "sweeps": list(state.sweeps),
                "last_capturer": state.last_capturer,
            }
            if state.phase is Phase.CUT and seat == state.turn:
                view["cut_card"] = state.stock[0].code
            expected.append(view)
        assert views_json(state, seats) == expected
        assert [seat_view(state, seat).to_json() for seat in seats] == expected
        assert [list(v) for v in views_json(state, seats)] == [list(v) for v in expected]  # the keys' order


@given(
    st.lists(st.sampled_from(DECK), min_size=0, max_size=12, unique=True),
    st.sampled_from(["chkobba", "scopa", "chkobba-crp", {"profile": "chkobba-crp", "options": {"face_sums": True}}]),
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_the_cards_of_a_hand_share_one_pass_and_find_what_each_finds_alone(
    cards: list[Any], rules: Any, last_play: bool, rng: Any
) -> None:
    """captures_of_each works out every card's sums in one pass over the table: the same captures as
    captures_of card by card (matches, face cards refused, the most-cards rule, sweeps)."""
    from service.rules import Rules, captures_of
    from service.rules.captures import captures_of_each

    the_rules = Rules.of(rules)
    rest = [c for c in DECK if c not in cards]
    hand = tuple(rng.sample(rest, min(3, len(rest))))
    table = tuple(cards)
    assert captures_of_each(the_rules, table, hand, last_play) == [
        captures_of(the_rules, table, card, last_play) for card in hand
    ]


def test_an_event_renders_as_its_fields_say() -> None:
    """Event.to_json writes a play in one dict display: the same keys, in order, as its fields give."""
    for profile, players in SETUPS:
        rng = random.Random(players)
        state, _ = deal_round(
            profile, players, 0, seed=f"events {profile}", cut="keep" if profile == "chkobba" else None
        )
        while state.phase is Phase.PLAY:
            caps = rng.choice(legal_moves(state))
            state, event = advance(state, PlayMove(caps.card, rng.choice(caps.options) if caps.options else ()))
            expected = {
                "seat": event.seat,
                "card": event.move.card.code,
                "kind": event.kind.value if event.kind else None,
                "captured": [c.code for c in event.captured],
                "sweep": event.sweep,
                "dealt": event.dealt,
                "collected": [c.code for c in event.collected],
                "redeal": event.redeal,
            }
            assert list(event.to_json().items()) == list(expected.items())
