"""The review of a round (service/strategy/review.py; docs/strategy.md, "Review"): every move valued from
what its mover could know, the best named, the loss and the judgment; per seat, the loss and accuracy."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from service.rules import (
    Cut,
    CutMove,
    Phase,
    PlayMove,
    RoundInPlay,
    RoundState,
    Rules,
    advance,
    deal_round,
    legal_moves,
    replay_round,
    round_breakdown,
)
from service.strategy import review as review_module
from service.strategy.levels import suggest_at
from service.strategy.review import (
    BEST_BELOW,
    GOOD_BELOW,
    INACCURACY_BELOW,
    MISTAKE_BELOW,
    MoveReview,
    judgment,
    move_accuracy,
    move_reviews,
    seat_reviews,
)

SETUPS = [("chkobba", 2), ("chkobba", 4), ("chkobba-crp", 2), ("chkobba-crp", 3), ("chkobba-crp", 4), ("scopa", 2)]


def random_play(state: RoundState, rng: random.Random) -> PlayMove | CutMove:
    if state.phase is Phase.CUT:
        return CutMove(rng.choice(list(Cut)))
    captures = rng.choice(legal_moves(state))
    return PlayMove(captures.card, rng.choice(captures.options) if captures.options else ())


def played(profile: str, players: int, seed: str, hinted: frozenset[int]) -> tuple[RoundState, list[Any]]:
    """A round dealt from ``seed`` (chkobba: its cut recorded as the first move), the seats in
    ``hinted`` playing the expert's top hint, the others random legal moves: the deal and the moves."""
    start, _ = deal_round(profile, players, 0, seed=seed)
    state, moves, rng = start, [], random.Random(seed)
    while state.phase in (Phase.PLAY, Phase.CUT):
        assert state.turn is not None
        move = (
            suggest_at(state, level="expert", limit=1).moves[0].move
            if state.turn in hinted
            else random_play(state, rng)
        )
        state, _ = advance(state, move)
        moves.append(move)
    return start, moves


def review_of(profile: str, players: int, seed: str, hinted: frozenset[int]) -> tuple[RoundState, list[MoveReview]]:
    start, deck = deal_round(profile, players, 0, seed=seed)
    _, moves = played(profile, players, seed, hinted)
    replay = replay_round(profile, players, 0, moves, deck=deck)
    assert replay.first_illegal is None
    return start, list(move_reviews(start, replay.moves))


@pytest.mark.parametrize(("profile", "players"), SETUPS)
def test_the_experts_own_moves_review_as_best_and_every_loss_is_what_the_best_move_is_worth_more(
    profile: str, players: int
) -> None:
    for i in range(3):
        start, reviews = review_of(profile, players, f"review/{profile}/{players}/{i}", frozenset({0}))
        assert [r.index for r in reviews] == list(range(len(reviews)))
        for r in reviews:
            assert r.loss >= 0
            assert r.loss == pytest.approx(r.best_value - r.played_value, abs=1e-4)
            assert r.judgment == judgment(r.loss, r.legal_moves)
            if r.seat == 0:
                assert r.loss == 0 and r.judgment in ("best", "forced"), r
        assert any(r.loss > 0 for r in reviews if r.seat != 0)  # random play gives points away


def test_a_single_legal_move_is_forced_and_costs_nothing() -> None:
    _, reviews = review_of("chkobba", 2, "review/forced", frozenset())
    forced = [r for r in reviews if r.legal_moves == 1]
    assert forced and all(r.judgment == "forced" and r.loss == 0 and r.best == r.played for r in forced)
    assert all(r.judgment != "forced" for r in reviews if r.legal_moves > 1)


def test_the_judgments_follow_the_published_thresholds() -> None:
    assert judgment(5.0, 1) == "forced"
    assert [judgment(x, 2) for x in (0.0, BEST_BELOW - 1e-9, BEST_BELOW)] == ["best", "best", "good"]
    assert [judgment(x, 3) for x in (GOOD_BELOW - 1e-9, GOOD_BELOW)] == ["good", "inaccuracy"]
    assert [judgment(x, 3) for x in (INACCURACY_BELOW - 1e-9, INACCURACY_BELOW)] == ["inaccuracy", "mistake"]
    assert [judgment(x, 3) for x in (MISTAKE_BELOW - 1e-9, MISTAKE_BELOW, 9.0)] == ["mistake", "blunder", "blunder"]
    assert (BEST_BELOW, GOOD_BELOW, INACCURACY_BELOW, MISTAKE_BELOW) == (0.005, 0.2, 0.4, 0.6)  # docs/strategy.md


def test_a_seats_loss_is_the_sum_of_its_moves_and_its_accuracy_the_mean_over_its_chosen_moves() -> None:
    _, reviews = review_of("chkobba-crp", 3, "review/seats", frozenset({1}))
    seats = seat_reviews(3, reviews)
    assert [s.seat for s in seats] == [0, 1, 2]
    for s in seats:
        mine = [r for r in reviews if r.seat == s.seat]
        chosen = [r for r in mine if r.legal_moves > 1]
        assert s.moves == len(mine) and s.forced == len(mine) - len(chosen)
        assert s.loss == pytest.approx(sum(r.loss for r in mine), abs=1e-3)
        assert s.accuracy == pytest.approx(sum(100 * math.exp(-2 * r.loss) for r in chosen) / len(chosen), abs=0.05)
    assert seats[1].loss == 0 and seats[1].accuracy == 100.0
    assert move_accuracy(0.5) == pytest.approx(100 / math.e)


def test_a_seat_without_a_chosen_move_has_no_accuracy() -> None:
    start, reviews = review_of("chkobba", 2, "review/none", frozenset())
    only_forced = [r for r in reviews if r.judgment == "forced"]
    seats = seat_reviews(start.players, only_forced[:1])
    assert seats[only_forced[0].seat].accuracy is None and seats[only_forced[0].seat].loss == 0
    assert seats[1 - only_forced[0].seat] == review_module.SeatReview(1 - only_forced[0].seat, 0, 0, 0.0, None)


def test_the_review_stops_at_the_first_illegal_move() -> None:
    start, deck = deal_round("scopa", 2, 0, seed="review/illegal")
    _, moves = played("scopa", 2, "review/illegal", frozenset({0, 1}))
    wrong = PlayMove(start.hands[1][0], ())  # at move 3, seat 0 plays a card of seat 1's first hand
    assert start.turn == 1 and wrong.card not in start.hands[0]
    replay = replay_round("scopa", 2, 0, [*moves[:3], wrong, *moves[4:]], deck=deck)
    assert replay.first_illegal == 3
    reviews = list(move_reviews(start, replay.moves))
    assert [r.index for r in reviews] == [0, 1, 2]


@pytest.mark.parametrize(("seven", "keep"), [("7H", 1.0), ("7D", 2.0), ("6C", 0.5), ("KS", -0.1)])
def test_the_cut_is_judged_by_the_preference_of_keeping_the_drawn_card(seven: str, keep: float) -> None:
    """docs/strategy.md, "Review": tabling a drawn seven loses the 1.0 keeping it scores, a blunder."""
    seed = next(
        f"review/cut/{i}" for i in range(999) if deal_round("chkobba", 2, 0, seed=f"review/cut/{i}")[1][0].code == seven
    )
    start, deck = deal_round("chkobba", 2, 0, seed=seed)
    for cut in Cut:
        (review,) = move_reviews(start, replay_round("chkobba", 2, 0, [CutMove(cut)], deck=deck).moves)
        loss = max(keep, 0.0) - (keep if cut is Cut.KEEP else 0.0)
        assert (review.best, review.loss) == (CutMove(Cut.KEEP if keep > 0 else Cut.TABLE), loss)
        assert review.judgment == judgment(loss, review.legal_moves)
        assert (review.judgment == "blunder") is (seven in ("7H", "7D") and cut is Cut.TABLE)


def test_a_move_is_valued_from_what_its_mover_could_know_never_the_other_hands_or_the_stock() -> None:
    """Two deals that differ only in cards the leader cannot see (the other hand and the stock,
    exchanged) review the leader's first move alike."""
    state, deck = deal_round("chkobba", 2, 0, seed="review/hidden", cut="keep")
    leader = state.turn
    assert leader is not None
    hidden_a, hidden_b = state.hands[1 - leader][0], state.stock[5]
    other = [hidden_b if c is hidden_a else hidden_a if c is hidden_b else c for c in deck]
    swapped, _ = deal_round("chkobba", 2, 0, deck=other, cut="keep")
    assert swapped.hands[leader] == state.hands[leader] and swapped.hands[1 - leader] != state.hands[1 - leader]
    first = legal_moves(state)[0]
    move = PlayMove(first.card, first.options[0] if first.options else ())
    a = list(move_reviews(state, replay_round("chkobba", 2, 0, [move], deck=deck, cut="keep").moves))
    b = list(move_reviews(swapped, replay_round("chkobba", 2, 0, [move], deck=other, cut="keep").moves))
    assert a == b


def exact_margins(state: RoundState, side: int) -> dict[tuple[Any, frozenset[Any]], float]:
    """An oracle for the exact endgame, from the round itself (every hand seen): each legal play's final
    margin for ``side`` under best play from both seats, by a plain minimax of the core's moves."""

    def value(in_play: RoundInPlay) -> float:
        if in_play.phase is Phase.OVER:
            totals = [s.total for s in round_breakdown(in_play.state())]
            return float(totals[side] - totals[1 - side])
        values = []
        for caps in in_play.legal_captures():
            for option in caps.options or ((),):
                after = in_play.copy()
                after.move(PlayMove(caps.card, option))
                values.append(value(after))
        return max(values) if in_play.side_of[in_play.turn] == side else min(values)

    start = RoundInPlay(state)
    out = {}
    for caps in start.legal_captures():
        for option in caps.options or ((),):
            after = start.copy()
            after.move(PlayMove(caps.card, option))
            out[(caps.card, frozenset(option))] = value(after)
    return out


@pytest.mark.parametrize("profile", ["chkobba", "chkobba-crp", "scopa"])
def test_with_two_players_and_an_empty_stock_the_loss_is_exact(profile: str) -> None:
    checked = 0
    for i in range(4):
        seed = f"review/exact/{profile}/{i}"
        start, deck = deal_round(profile, 2, 0, seed=seed)
        _, moves = played(profile, 2, seed, frozenset())
        replay = replay_round(profile, 2, 0, moves, deck=deck)
        reviews = list(move_reviews(start, replay.moves))
        in_play = RoundInPlay(start)
        for r, move in zip(reviews, moves, strict=True):
            state = in_play.state()
            if state.phase is Phase.PLAY and not state.stock:
                side = Rules.of(profile).profile.side_of(2, r.seat)
                margins = exact_margins(state, side)
                assert r.exact
                assert r.best_value == pytest.approx(max(margins.values()), abs=1e-4)
                assert isinstance(r.played, PlayMove)
                assert r.played_value == pytest.approx(margins[(r.played.card, frozenset(r.played.capture))], abs=1e-4)
                checked += 1
            else:
                assert not r.exact
            in_play.move(move)
    assert checked >= 4 * 6
