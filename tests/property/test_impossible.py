"""Nothing impossible is accepted: each class of input that no legal round produces, generated or
enumerated in full over small inputs, is refused with its code and field (docs/rules.md §10.17 to
§10.21). Its other half, nothing real refused, is tests/property/test_rounds.py: every state, pile
set, count and round's points that a random round reaches is accepted.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from service.rules import (
    DECK,
    DuplicateCard,
    InvalidCounts,
    InvalidScores,
    Phase,
    PlayMove,
    RoundState,
    Rules,
    RulesError,
    Tally,
    deal_round,
    decide_match,
    legal_moves,
    play,
    score_round,
)

from ..support import state_json

CODES = [c.code for c in DECK]
SETUPS = [("chkobba", 2), ("chkobba", 4), ("chkobba-crp", 2), ("chkobba-crp", 3), ("chkobba-crp", 4), ("scopa", 2)]
PLAYS = 36  # docs/rules.md §3.2
MOST_SWEEPS = 18  # docs/rules.md §10.17
# docs/rules.md §7.2, one point per category a profile scores (primiera only with the option), and
# §10.17's 18 sweeps.
MOST_POINTS = {"chkobba": 4 + MOST_SWEEPS, "chkobba-crp": 3 + MOST_SWEEPS, "scopa": 3 + MOST_SWEEPS}


def refused(data: dict[str, Any]) -> RulesError:
    with pytest.raises(RulesError) as info:
        RoundState.from_json(data)
    return info.value


def real_states(rounds_per_setup: int = 12) -> list[RoundState]:
    """Every state in phase play of seeded random rounds of every profile and player count: what real
    rounds reach (tests/property/test_rounds.py checks that each is accepted)."""
    states = []
    for name, players in SETUPS:
        for seed in range(rounds_per_setup):
            pick = random.Random(f"{name}-{players}-{seed}")
            cut = "keep" if name == "chkobba" else None
            state, _ = deal_round(name, players, seed % players, seed=seed, cut=cut)
            while state.phase is Phase.PLAY:
                states.append(state)
                mine = pick.choice(legal_moves(state))
                state, _ = play(state, PlayMove(mine.card, pick.choice(mine.options) if mine.options else None))
    return states


REAL = real_states()


# ---- §10.18: no pile of one card ------------------------------------------------------------------


@pytest.mark.parametrize("card", CODES)
def test_a_scored_pile_of_one_card_is_refused_whichever_card(card: str) -> None:
    rest = tuple(c for c in DECK if c.code != card)
    for rules in ("chkobba", "scopa", {"profile": "chkobba-crp", "options": {"primiera": True}}):
        with pytest.raises(InvalidCounts) as info:
            score_round(rules, [Tally.of_pile(rest, 0), Tally.of_pile((DECK[CODES.index(card)],), 0)])
        assert info.value.field == "sides.1.captured"
        # The same side as counts alone.
        counts = replace(Tally.of_pile((DECK[CODES.index(card)],), 0), pile=None)
        with pytest.raises(InvalidCounts) as info:
            score_round("chkobba", [replace(Tally.of_pile(rest, 0), pile=None), counts])
        assert info.value.field == "sides.1.cards"


def test_a_state_with_a_pile_of_one_card_is_refused() -> None:
    """Each real state with a pile of 3 cards or more, all but one of them moved to another side's pile."""
    tried = 0
    for state in REAL:
        piles = [[c.code for c in p] for p in state.piles]
        side = next((s for s, p in enumerate(piles) if len(p) >= 3), None)
        other = None if side is None else (side + 1) % len(piles)
        if side is None or not piles[other]:
            continue
        piles[other] += piles[side][1:]
        piles[side] = piles[side][:1]
        error = refused({**state.to_json(), "piles": piles, "sweeps": [0] * len(piles), "last_capturer": other})
        assert (error.code, error.field) == ("bad-state", f"state.piles.{side}")
        tried += 1
    assert tried > 500


# ---- §10.17: sweeps in a round --------------------------------------------------------------------


def test_a_state_with_more_sweeps_than_its_plays_allow_is_refused() -> None:
    """Each real state whose piles hold room for it, given one sweep more than its plays allow."""
    tried = 0
    for state in REAL:
        made = PLAYS - len(state.stock) - sum(map(len, state.hands))
        allowed = (made + 1) // 2
        room = [len(p) // 2 for p in state.piles]
        if sum(room) <= allowed:
            continue
        sweeps, need = [], allowed + 1
        for most in room:
            sweeps.append(min(most, need))
            need -= sweeps[-1]
        error = refused({**state.to_json(), "sweeps": sweeps})
        assert (error.code, error.field) == ("bad-state", "state.sweeps")
        tried += 1
    assert tried > 20


def two_sides_can_sweep(leader: int, dealer: int) -> bool:
    """docs/rules.md §10.17 worked out by hand for two sides: of the 35 plays that may sweep, the
    leader's side has the 18 at even places, the other the 17 at odd ones; d > 0 sweeps at odd places
    keep the leader's side off at least d + 1 even ones."""
    return (dealer == 0 and leader <= MOST_SWEEPS) or (1 <= dealer and leader + dealer <= MOST_SWEEPS - 1)


def test_counts_sweep_as_two_sides_playing_in_turn_can() -> None:
    """Every split of sweeps between two sides of 20 cards each (at most 10 each): refused exactly
    when neither side's leading makes it possible."""
    sides = [Tally(20, 5, 2, 2, True, 0), Tally(20, 5, 2, 2, False, 0)]
    for a, b in itertools.product(range(11), repeat=2):
        split = [replace(sides[0], sweeps=a), replace(sides[1], sweeps=b)]
        if two_sides_can_sweep(a, b) or two_sides_can_sweep(b, a):
            assert [s.sweeps for s in score_round("chkobba", split)] == [a, b]
        else:
            with pytest.raises(InvalidCounts) as info:
                score_round("chkobba", split)
            assert info.value.field == "sides", (a, b)


# ---- §10.19: the points a round gives -------------------------------------------------------------


CATEGORY_POINTS = {"chkobba": 4, "chkobba-crp": 3, "scopa": 3}  # docs/rules.md §7.2, 7D among them


def two_sides_give(profile: str, points: tuple[int, int]) -> bool:
    """Whether a round between two sides gives ``points``: each category's point to a side or to
    nobody (7D always to one), plus the sweeps of two_sides_can_sweep; 18 sweeps take every card."""
    n = CATEGORY_POINTS[profile]
    for s0, s1 in itertools.product(range(MOST_SWEEPS + 1), repeat=2):
        if not (two_sides_can_sweep(s0, s1) or two_sides_can_sweep(s1, s0)):
            continue
        c0, c1 = points[0] - s0, points[1] - s1
        if MOST_SWEEPS in (s0, s1):
            if (c0, c1) == ((n, 0) if s0 == MOST_SWEEPS else (0, n)):
                return True
        elif c0 >= 0 and c1 >= 0 and 1 <= c0 + c1 <= n:
            return True
    return False


@pytest.mark.parametrize("profile", ["chkobba", "chkobba-crp", "scopa"])
def test_round_points_of_two_sides_are_refused_exactly_when_no_round_gives_them(profile: str) -> None:
    most = MOST_POINTS[profile]
    for points in itertools.product(range(most + 2), repeat=2):
        try:
            decide_match(profile, [0, 0], list(points))
        except InvalidScores as exc:
            assert not two_sides_give(profile, points), (points, exc.message)
        else:
            assert two_sides_give(profile, points), points


def test_round_points_of_three_sides() -> None:
    """18 sweeps are every other play from the first, 6 for each of three sides; a side's own 12 plays
    are never one after the other, so the leader's side may sweep with each (and take 3 categories)."""
    for points in ([6, 6, 6], [9, 6, 6], [7, 7, 6], [1, 0, 0], [0, 2, 3], [15, 0, 0]):
        decide_match("chkobba-crp", [0, 0, 0], points)
    for points in ([8, 8, 5], [16, 0, 0], [10, 10, 1], [0, 0, 0]):
        with pytest.raises(InvalidScores):
            decide_match("chkobba-crp", [0, 0, 0], points)


# ---- §10.20: cards of one value on the table ------------------------------------------------------


@pytest.mark.parametrize("profile", ["chkobba", "chkobba-crp", "scopa"])
@pytest.mark.parametrize("rank", ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"])
def test_three_of_a_value_still_on_the_table_after_a_play(profile: str, rank: str) -> None:
    """Every three cards of every value beside one more, once the leader has laid a card: refused where
    such a deal is void (chkobba: any value; chkobba-crp: kings), else the deal stood (scopa, and the
    other values in chkobba-crp)."""
    same = [f"{rank}{suit}" for suit in "DHSC"]
    for three in itertools.combinations(same, 3):
        others = [c for c in CODES if c[0] != rank]
        table = [*three, others[0], others[1]]
        hands = [others[2:5], others[5:7]]  # seat 1 led and laid others[1]
        data = state_json(rules=profile, turn=0, hands=hands, table=table)
        void = profile == "chkobba" or (profile == "chkobba-crp" and rank == "K")
        if void:
            error = refused(data)
            assert (error.code, error.field) == ("bad-state", "state.table")
        else:
            RoundState.from_json(data)


def test_a_value_repeated_on_the_table_after_a_sweep_is_refused() -> None:
    """Each real state after a sweep, a table card swapped with a stock card of another table card's value."""
    tried = 0
    for state in REAL:
        ranks = {c.rank for c in state.table[1:]}
        twin = next((c for c in state.stock if c.rank in ranks), None)
        if not any(state.sweeps) or twin is None:
            continue
        table = [twin, *state.table[1:]]
        stock = [state.table[0] if c is twin else c for c in state.stock]
        error = refused({**state.to_json(), "table": [c.code for c in table], "stock": [c.code for c in stock]})
        assert (error.code, error.field) == ("bad-state", "state.table")
        tried += 1
    assert tried > 20


def test_repeats_beyond_the_four_cards_of_a_deal_are_refused() -> None:
    """Every three pairs of three values (no value three times): six cards could not all be dealt."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"]
    for chosen in itertools.combinations(ranks, 3):
        table = [f"{r}{s}" for r in chosen for s in "DH"]
        paired = next(r for r in ranks if r not in chosen)  # two captures of a pair, one for each side
        piles = [[f"{paired}D", f"{paired}H"], [f"{paired}S", f"{paired}C"]]
        rest = [c for c in CODES if c not in table and c[0] != paired]
        hands = [rest[:3], rest[3:6]]
        data = state_json(rules="scopa", hands=hands, table=table, piles=piles, last_capturer=0)
        data["stock"] = rest[6:30]
        assert len(data["stock"]) == 24
        error = refused(data)
        assert (error.code, error.field) == ("bad-state", "state.table")


# ---- §10.21: a card in two places -----------------------------------------------------------------


@given(st.sampled_from(REAL), st.data())
def test_a_card_in_two_places_of_a_real_state_is_named_in_both(state: RoundState, data: st.DataObject) -> None:
    form = state.to_json()
    places = [
        *(f"hands.{i}" for i, h in enumerate(form["hands"]) if h),
        *(["table"] if form["table"] else []),
        *(["stock"] if form["stock"] else []),
        *(f"piles.{i}" for i, p in enumerate(form["piles"]) if p),
    ]
    source, target = data.draw(st.permutations(places).map(lambda p: p[:2]))

    def at(place: str) -> list[str]:
        head, _, index = place.partition(".")
        return form[head][int(index)] if index else form[head]

    card = data.draw(st.sampled_from(at(source)))
    at(target).append(card)
    with pytest.raises(DuplicateCard) as info:
        RoundState.from_json(form)
    assert info.value.details["card"] == card
    assert sorted(info.value.details["places"]) == sorted([f"state.{source}", f"state.{target}"])


@given(st.permutations(CODES), st.integers(0, 39), st.integers(0, 39))
def test_a_card_in_two_scored_piles_is_named_before_any_total(order: list[str], at: int, split: int) -> None:
    piles = [order[:split], order[split:]]
    assume(piles[0] and piles[1])
    card = order[at]
    other = 1 if at < split else 0
    piles[other].append(card)
    rules = Rules.of("chkobba")
    tallies = [Tally.of_pile(tuple(DECK[CODES.index(c)] for c in p), 0) for p in piles]
    with pytest.raises(DuplicateCard) as info:
        score_round(rules, tallies)
    assert info.value.details["card"] == card
    assert info.value.details["places"] == ["sides.0.captured", "sides.1.captured"]
