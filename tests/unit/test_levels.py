"""The computer's levels (service/strategy/levels.py, docs/strategy.md "Levels"): every level ranks every
legal move once, sees only the seat's knowledge, and answers the same for the same seed."""

from __future__ import annotations

import random

import pytest

from service.rules import (
    InvalidInput,
    NotYourTurn,
    Phase,
    PlayMove,
    RoundState,
    Rules,
    advance,
    deal_round,
    legal_moves,
    parse_deck,
    seat_view,
)
from service.strategy import LEVELS, Hint, SeatKnowledge, knowledge_seed, rank_at, rank_moves, suggest_at
from service.strategy.beginner import CARD, SEES, beginner_rank
from service.strategy.expert import EXPERT_WEIGHTS

from ..support import deck_starting, hide_differently

# Every profile and player count (docs/rules.md §2).
SETUPS = [("chkobba", 2), ("chkobba", 4), ("chkobba-crp", 2), ("chkobba-crp", 3), ("chkobba-crp", 4), ("scopa", 2)]


def positions(rules: str, players: int, seeds: range) -> list[RoundState]:
    """Every position of whole rounds in which each seat follows club's hints."""
    found = []
    for seed in seeds:
        state, _ = deal_round(rules, players, seed % players, seed=f"levels-{rules}-{players}-{seed}")
        while state.turn is not None:
            found.append(state)
            state, _ = advance(state, suggest_at(state).moves[0].move)
    return found


def dealt(*top: str) -> RoundState:
    """Two-player chkobba, dealer 0, the cut kept: seat 1 (to move) holds the first three of ``top``,
    seat 0 the next three, and the table the next four."""
    state, _ = deal_round("chkobba", 2, 0, deck=parse_deck(deck_starting(*top)), cut="keep")
    assert state.phase is Phase.PLAY and state.turn == 1
    return state


def moves_of(hints: tuple[Hint, ...]) -> list[tuple[str, tuple[str, ...]]]:
    return [
        (h.move.card.code, tuple(c.code for c in h.move.capture or ())) for h in hints if isinstance(h.move, PlayMove)
    ]


def legal_pairs(state: RoundState) -> list[tuple[str, tuple[str, ...]]]:
    return [(c.card.code, tuple(x.code for x in o)) for c in legal_moves(state) for o in (c.options or [()])]


def knowledge(state) -> SeatKnowledge:
    return SeatKnowledge.of(seat_view(state, state.turn))


def test_the_levels():
    assert LEVELS == ("beginner", "club", "expert")


def test_club_is_todays_hints():
    for state in positions("chkobba", 2, range(2)):
        k = knowledge(state)
        assert rank_at(k, "club", b"any seed") == rank_moves(k)


def test_an_unknown_level_is_refused():
    state = positions("chkobba", 2, range(1))[3]
    with pytest.raises(InvalidInput) as refused:
        rank_at(knowledge(state), "grandmaster", b"")
    assert refused.value.field == "level"


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("rules", "players"), SETUPS)
def test_every_level_ranks_every_legal_move_once(level, rules, players):
    for state in positions(rules, players, range(1)):
        hints = rank_at(knowledge(state), level, knowledge_seed(knowledge(state)))
        scores = [h.score for h in hints]
        assert scores == sorted(scores, reverse=True)
        if state.phase is Phase.CUT:
            assert {h.move.cut.value for h in hints} == {"keep", "table"}
            continue
        assert sorted(moves_of(hints)) == sorted(legal_pairs(state))


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("rules", "players"), SETUPS)
def test_a_level_does_not_depend_on_the_hidden_cards(level, rules, players):
    """The same seat's knowledge and seed, other hidden hands and stock: the same answer."""
    rng = random.Random(f"levels-hidden-{rules}-{players}")
    found = positions(rules, players, range(1))
    differ = 0
    for state in found:
        other = hide_differently(state, rng)
        differ += other != state
        seed = knowledge_seed(knowledge(state))
        assert knowledge_seed(knowledge(other)) == seed
        assert rank_at(knowledge(other), level, seed) == rank_at(knowledge(state), level, seed)
        assert suggest_at(other, level=level) == suggest_at(state, level=level)
    assert differ > len(found) / 2


def test_the_seed_is_what_the_seat_knows():
    states = positions("chkobba", 2, range(1))
    seeds = {knowledge_seed(knowledge(s)) for s in states}
    assert len(seeds) == len(states)  # every position its own seed


def test_the_expert_is_clubs_terms_with_its_own_weights():
    for state in positions("chkobba", 2, range(1)):
        k = knowledge(state)
        assert rank_at(k, "expert", b"") == rank_moves(k, EXPERT_WEIGHTS["chkobba"])
    assert EXPERT_WEIGHTS["chkobba"].lay == 0.0


def test_only_the_seat_to_move_is_ranked():
    state = positions("chkobba", 2, range(1))[3]
    other = SeatKnowledge.of(seat_view(state, 1 - state.turn))
    for level in LEVELS:
        with pytest.raises(NotYourTurn):
            rank_at(other, level, b"")


# ---- the beginner ------------------------------------------------------------------------------------


def test_the_beginner_takes_the_most_cards_it_sees():
    # Seat 1: 5S takes 2S 3C; 4H and AH take nothing and are laid.
    state = dealt("5S", "4H", "AH", "4C", "JH", "QH", "2S", "3C", "QC", "JC")
    for seed in range(5):
        hints = beginner_rank(knowledge(state), bytes([seed]))
        assert moves_of(hints)[0] == ("5S", ("2S", "3C"))
        assert hints[0].score == round(3 * CARD, 4) and [h.score for h in hints[1:]] == [0.0, 0.0]


def test_the_beginner_does_not_count_sevens_or_the_seven_of_diamonds():
    # Seat 1 may take 7D with its 7H, or 4C with its 4S: one card each, the same to a beginner.
    state = dealt("7H", "4S", "KS", "AH", "2H", "3H", "7D", "4C", "QC", "JC")
    hints = beginner_rank(knowledge(state), b"")
    top = {m: h.score for m, h in zip(moves_of(hints), hints, strict=True)}
    assert top[("7H", ("7D",))] == top[("4S", ("4C",))] == round(2 * CARD, 4)
    firsts = {moves_of(beginner_rank(knowledge(state), bytes([i])))[0] for i in range(30)}
    assert firsts == {("7H", ("7D",)), ("4S", ("4C",))}  # either, at random


def test_the_beginner_does_not_see_what_it_lays():
    # Seat 1 takes nothing: laying the 7S (a seven, offered) is alike to it to laying a king.
    state = dealt("7S", "6H", "KC", "5H", "5C", "5S", "QD", "QS", "JH", "JS")
    hints = beginner_rank(knowledge(state), b"")
    assert len(hints) == 3 and {h.score for h in hints} == {0.0}
    ranked = rank_moves(knowledge(state))
    club = {m: h.score for m, h in zip(moves_of(ranked), ranked, strict=True)}
    assert club[("7S", ())] < club[("KC", ())]  # club sees it


def test_the_beginner_misses_a_long_sum_even_when_it_sweeps():
    # KS takes AC 2C 3C 4S (1 + 2 + 3 + 4) and sweeps: four table cards, more than a new player sees.
    state = dealt("KS", "QH", "JH", "5H", "6H", "7H", "AC", "2C", "3C", "4S")
    hints = beginner_rank(knowledge(state), b"")
    sweep = next(h for h in hints if h.move.card.code == "KS")
    assert sweep.score == 0.0 and SEES < 4
    assert sweep.reasons == ()  # neither takes-cards nor sweeps: it did not see them
    assert moves_of(rank_moves(knowledge(state)))[0] == ("KS", ("AC", "2C", "3C", "4S"))  # club sweeps


def test_the_beginner_sees_a_sum_of_two():
    # 7H takes 3S 4C; the kings take nothing.
    state = dealt("7H", "KS", "KC", "5H", "6H", "2H", "3S", "4C", "JD", "JS")
    hints = beginner_rank(knowledge(state), b"")
    assert moves_of(hints)[0] == ("7H", ("3S", "4C"))
    assert hints[0].score == round(3 * CARD, 4)


def test_every_level_plays_whole_rounds_of_every_profile():
    for rules, players in SETUPS:
        for level in LEVELS:
            state, _ = deal_round(Rules.of(rules), players, 0, seed=f"levels-{rules}-{players}-{level}")
            while state.turn is not None:
                state, _ = advance(state, suggest_at(state, level=level).moves[0].move)
            assert state.phase in (Phase.OVER, Phase.REDEAL)
