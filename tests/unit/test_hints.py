"""Move hints (service/strategy; docs/strategy.md, "Move hints"): every legal move of the seat to move,
ranked, from what that seat may know and nothing more."""

from __future__ import annotations

import dataclasses
import inspect
import json
import random
from typing import Any

import pytest

from service.rules import (
    DECK,
    Card,
    Cut,
    CutMove,
    InvalidInput,
    NotYourTurn,
    Phase,
    PlayMove,
    RoundState,
    WrongPhase,
    advance,
    deal_round,
    legal_moves,
    play,
    round_breakdown,
    seat_view,
)
from service.strategy import (
    REASONS,
    REPLY_BUDGET,
    WEIGHTS,
    Budget,
    Hint,
    Reason,
    SeatKnowledge,
    Shortened,
    rank_moves,
    suggest,
    suggest_moves,
)
from service.strategy.answers import ordered
from service.strategy.budget import Meter
from service.strategy.endgame import Endgame
from service.strategy.heuristic import Heuristic
from service.strategy.knowledge import legal_plays

from ..support import hide_differently, state_json

CODES = [c.code for c in DECK]
# Every profile and player count (docs/rules.md §2).
SETUPS = [("chkobba", 2), ("chkobba", 4), ("chkobba-crp", 2), ("chkobba-crp", 3), ("chkobba-crp", 4), ("scopa", 2)]


def state_of(
    *,
    hands: list[list[str]],
    table: list[str],
    stock: list[str] | None = None,
    piles: list[list[str]] | None = None,
    rules: Any = "chkobba",
    dealer: int = 0,
) -> RoundState:
    """A two-player state in phase play from card codes, seat 1 (the dealer's right) to move. Every
    card not placed joins the stock (when ``stock`` is None; as many as whole refills allow) or the
    piles: dull ones (no diamond, seven or six), so that they change no race.

    A state a round can reach: the stock gives back refills until the plays made so far can have
    piled the cards over (``can_pile``), and two or three cards over go to one pile. A table no deal
    leaves (docs/rules.md §10.20) is the core's to refuse."""
    placed = {c for group in (*hands, table, stock or [], *(piles or [[], []])) for c in group}
    # The rest, dull cards last: the piles take theirs from the end.
    rest = sorted(
        (c for c in DECK if c.code not in placed), key=lambda c: c.suit.value != "D" and c.rank.value not in "67"
    )
    keep = len(rest) - len(rest) % 6 if stock is None else 0
    while True:
        extra = [c.code for c in rest[keep:]]
        shares = (extra, []) if len(extra) < 4 else (extra[0::2], extra[1::2])
        filled = [[*given, *share] for given, share in zip(piles or [[], []], shares, strict=True)]
        if stock is not None or keep == 0 or can_pile(hands, keep, filled, dealer):
            break
        keep -= 6
    if stock is None:
        stock = [c.code for c in rest[:keep]]
    piles = filled
    return RoundState.from_json(
        state_json(
            rules=rules,
            dealer=dealer,
            turn=(dealer + 1) % 2 if len(hands[(dealer + 1) % 2]) >= len(hands[dealer]) else dealer,
            hands=hands,
            table=table,
            stock=stock,
            piles=piles,
            last_capturer=0 if piles[0] else 1 if piles[1] else None,
        )
    )


def can_pile(hands: list[list[str]], stock: int, piles: list[list[str]], dealer: int) -> bool:
    """Whether the plays made so far (two players, the leader first) can have piled ``piles``: each
    capture piles the card played and at least one table card (docs/rules.md §10.18), on a play of
    the side whose pile it joins."""
    made = len(DECK) - 4 - sum(map(len, hands)) - stock
    plays = {(dealer + 1) % 2: (made + 1) // 2, dealer: made // 2}
    return all(not pile or (len(pile) >= 2 and plays[side] > 0) for side, pile in enumerate(piles))


def moves_of(hints: tuple[Hint, ...]) -> list[tuple[str, tuple[str, ...]]]:
    return [
        (h.move.card.code, tuple(c.code for c in h.move.capture or ())) for h in hints if isinstance(h.move, PlayMove)
    ]


def legal_pairs(state: RoundState) -> list[tuple[str, tuple[str, ...]]]:
    return [(c.card.code, tuple(x.code for x in o)) for c in legal_moves(state) for o in (c.options or [()])]


def positions(rules: str, players: int, seeds: range, cut: str | None = None) -> list[RoundState]:
    """Every position of whole rounds in which each seat follows the hints."""
    found = []
    for seed in seeds:
        state, _ = deal_round(rules, players, seed % players, seed=f"hints-{rules}-{players}-{seed}", cut=cut)
        while state.turn is not None:
            found.append(state)
            state, _ = advance(state, suggest_moves(state)[0].move)
    return found


# ---- what the strategy may see ----------------------------------------------------------------------


def test_the_strategy_takes_a_seats_knowledge_not_a_state():
    assert list(inspect.signature(rank_moves).parameters) == ["knowledge", "weights"]
    names = {f.name for f in dataclasses.fields(SeatKnowledge)}
    assert not names & {"hands", "stock", "state"}
    assert "hand" in names and "hand_sizes" in names and "stock_size" in names


def test_a_seats_knowledge_is_exactly_its_view():
    state, _ = deal_round("chkobba", 4, 3, seed="knowledge", cut="keep")
    for seat in range(4):
        view = seat_view(state, seat)
        known = SeatKnowledge.of(view)
        shown = view.to_json()
        assert [c.code for c in known.hand] == shown["hand"]
        assert list(known.hand_sizes) == shown["hand_sizes"]
        assert known.stock_size == shown["stock_size"]
        assert [c.code for c in known.table] == shown["table"]
        assert [[c.code for c in p] for p in known.piles] == shown["piles"]
        assert set(known.unseen()) == {c for s, h in enumerate(state.hands) if s != seat for c in h} | set(state.stock)


@pytest.mark.parametrize(("rules", "players"), SETUPS)
def test_hints_do_not_depend_on_the_hidden_cards(rules, players):
    """Two states that differ only in the other hands and the order of the stock give the same hints."""
    rng = random.Random(f"hidden-{rules}-{players}")
    found = positions(rules, players, range(2))
    differ = 0
    for state in found:
        other = hide_differently(state, rng)
        differ += other != state
        assert suggest_moves(other) == suggest_moves(state)
    assert differ > len(found) / 2


def test_the_cutters_hint_depends_on_the_drawn_card_only():
    rng = random.Random("cut")
    for seed in range(20):
        state, _ = deal_round("chkobba", 2, seed % 2, seed=f"cut-{seed}")
        assert state.phase is Phase.CUT
        assert suggest_moves(hide_differently(state, rng)) == suggest_moves(state)


# ---- every legal move, exactly once, each legal ------------------------------------------------------


@pytest.mark.parametrize(("rules", "players"), SETUPS)
def test_every_legal_move_is_listed_once_and_every_listed_move_is_legal(rules, players):
    for state in positions(rules, players, range(2), cut="keep" if rules == "chkobba" else None):
        hints = suggest_moves(state)
        listed = moves_of(hints)
        assert len(listed) == len(set(listed)) == len(hints)
        assert sorted(listed) == sorted(legal_pairs(state))
        for hint in hints:
            after, event = play(state, hint.move)  # the core accepts each one as it is
            assert isinstance(hint.move, PlayMove)
            assert set(event.taken) == set(hint.move.capture or ())
            assert all(r.value in REASONS for r in hint.reasons)
            assert hint.score == round(hint.score, 4)
        scores = [h.score for h in hints]
        assert scores == sorted(scores, reverse=True)


def test_ties_are_broken_by_card_order_then_capture_positions():
    # 5H and 5S each take 5D or 5C: four moves; equal scores fall back to card order, then table order.
    state = state_of(hands=[["AH", "2C", "3S"], ["5H", "5S", "KC"]], table=["5D", "5C", "JH"])
    hints = suggest_moves(state)
    for a, b in zip(hints, hints[1:], strict=False):
        if a.score == b.score:
            assert isinstance(a.move, PlayMove) and isinstance(b.move, PlayMove)
            key_a = (a.move.card.index, [state.table.index(c) for c in a.move.capture or ()])
            key_b = (b.move.card.index, [state.table.index(c) for c in b.move.capture or ()])
            assert key_a < key_b


def test_hints_are_deterministic():
    for state in positions("chkobba", 2, range(1), cut="table")[:12]:
        first = [h.to_json() for h in suggest_moves(state)]
        again = [h.to_json() for h in suggest_moves(RoundState.from_json(json.loads(json.dumps(state.to_json()))))]
        assert first == again


# ---- the good player's habits ------------------------------------------------------------------------


def test_takes_the_seven_of_diamonds_when_it_can():
    # 000: "never leave the 7D". 7H may take 7D or 7C; QH (8) may take 7D + AS.
    state = state_of(hands=[["2S", "3S", "4S"], ["7H", "QH", "KS"]], table=["7C", "7D", "AS"])
    best = suggest_moves(state)[0]
    assert Card.parse("7D") in (best.move.capture or ())
    assert Reason.TAKES_SEVEN_OF_DIAMONDS in best.reasons


def test_sweeps_when_it_can():
    state = state_of(hands=[["2S", "3S", "4S"], ["QH", "5C", "KS"]], table=["2D", "6S"])
    best = suggest_moves(state)[0]
    assert best.move == PlayMove(Card.parse("QH"), (Card.parse("2D"), Card.parse("6S")))
    assert Reason.SWEEPS in best.reasons


def test_the_last_play_never_sweeps():
    # docs/rules.md §5: the last play of the round takes 2D+6S but is no sweep.
    rest = [c for c in CODES if c not in {"QH", "2D", "6S"}]
    state = state_of(hands=[["QH"], []], table=["2D", "6S"], stock=[], piles=[rest[:20], rest[20:]])
    (only,) = suggest_moves(state)
    assert Reason.SWEEPS not in only.reasons
    assert Reason.EXACT_ENDGAME in only.reasons


def test_prefers_diamonds_on_equal_value():
    # 000: "on equal value take the diamond". 5H must take one 5: 5D rather than 5S.
    state = state_of(hands=[["2S", "3S", "4S"], ["5H", "KC", "JC"]], table=["5S", "5D", "QS"])
    best = suggest_moves(state)[0]
    assert best.move == PlayMove(Card.parse("5H"), (Card.parse("5D"),))
    assert Reason.TAKES_DIAMONDS in best.reasons


def test_avoids_leaving_a_table_the_next_player_can_sweep():
    # Laying 3C on 4S leaves 7 (a seven sweeps it); laying KC leaves 4S+KC, which no card sweeps.
    state = state_of(hands=[["2S", "3S", "5S"], ["3C", "KC", "KH"]], table=["4S"])
    hints = {moves_of((h,))[0][0]: h for h in suggest_moves(state)}
    assert Reason.SWEEP_RISK in hints["3C"].reasons
    assert Reason.BLOCKS_SWEEP in hints["KC"].reasons
    assert hints["KC"].score > hints["3C"].score
    assert moves_of(suggest_moves(state)[:1])[0][0] in {"KC", "KH"}


def test_counts_the_sevens():
    # Sevens decided (side 1 holds three): taking a seven is no longer named, nor worth anything more.
    piles = [["AD", "2D"], ["7S", "7H", "7C", "3C"]]
    state = state_of(hands=[["2S", "3S", "4S"], ["6H", "KC", "JC"]], table=["6C", "7D"], piles=piles)
    for hint in suggest_moves(state):
        assert Reason.TAKES_SEVENS not in hint.reasons


def test_keeps_a_seven_while_the_seven_of_diamonds_is_unseen():
    # 004: until 7D shows, keep a 7. Both lays are safe; the one keeping 7H is preferred.
    state = state_of(hands=[["2S", "3S", "4S"], ["7H", "KC", "AH"]], table=["QS", "JS", "KS"])
    hints = {moves_of((h,))[0][0]: h for h in suggest_moves(state)}
    assert Reason.KEEPS_SEVEN in hints["KC"].reasons and Reason.KEEPS_SEVEN not in hints["7H"].reasons


@pytest.mark.parametrize("rules", ["chkobba", "chkobba-crp", "scopa"])
def test_every_profile_values_its_own_cards(rules):
    # J is 9 in chkobba, 8 in the others (docs/rules.md §1): on 2D+6S (8) only the card worth 8 sweeps.
    eight = "QH" if rules == "chkobba" else "JH"
    state = state_of(hands=[["2S", "3S", "4S"], ["QH", "JH", "KS"]], table=["2D", "6S"], rules=rules)
    best = suggest_moves(state)[0]
    if rules == "chkobba-crp":  # face cards take no sums there (face_sums off)
        assert Reason.SWEEPS not in best.reasons
    else:
        assert best.move == PlayMove(Card.parse(eight), (Card.parse("2D"), Card.parse("6S")))


# ---- the cut, phases and turns -----------------------------------------------------------------------


def test_the_cutter_keeps_a_seven_and_tables_a_king():
    for code, first in (("7D", Cut.KEEP), ("7S", Cut.KEEP), ("KS", Cut.TABLE)):
        deck = [code, *(c for c in CODES if c != code)]
        state, _ = deal_round("chkobba", 2, 0, deck=deck)
        hints = suggest_moves(state)
        assert [h.move for h in hints][0] == CutMove(first)
        assert {h.move for h in hints} == {CutMove(Cut.KEEP), CutMove(Cut.TABLE)}


def test_only_the_seat_to_move_gets_hints():
    state = state_of(hands=[["2S", "3S", "4S"], ["5H", "KC", "JC"]], table=["5S"])
    assert suggest_moves(state, 1) == suggest_moves(state)
    with pytest.raises(NotYourTurn):
        suggest_moves(state, 0)
    with pytest.raises(NotYourTurn):
        rank_moves(SeatKnowledge.of(seat_view(state, 0)))


def test_nobody_gets_hints_in_phases_redeal_and_over():
    deck = ["AD", "2D", "3D", "4D", "5D", "6D", "7S", "7H", "7C", "KD"]
    state, _ = deal_round("chkobba", 2, 0, deck=deck + [c for c in CODES if c not in deck], cut="keep")
    assert state.phase is Phase.REDEAL
    with pytest.raises(WrongPhase):
        suggest_moves(state)
    over = positions("scopa", 2, range(1))[-1]
    over, _ = advance(over, suggest_moves(over)[0].move)
    assert over.phase is Phase.OVER
    with pytest.raises(WrongPhase):
        suggest_moves(over)


# ---- the exact endgame -------------------------------------------------------------------------------


def best_play_margin(state: RoundState, seat: int) -> float:
    """The final margin for ``seat`` under best play from both seats, through the core itself."""
    if state.phase is Phase.OVER:
        totals = [s.total for s in round_breakdown(state)]
        return totals[seat] - totals[1 - seat]
    values = [
        best_play_margin(advance(state, PlayMove(c.card, o))[0], seat)
        for c in legal_moves(state)
        for o in (c.options or [()])
    ]
    return max(values) if state.turn == seat else min(values)


@pytest.mark.parametrize("rules", ["chkobba", "scopa"])
def test_the_endgame_score_is_the_exact_final_margin(rules):
    checked = 0
    for state in positions(rules, 2, range(3), cut="keep" if rules == "chkobba" else None):
        if state.stock or state.phase is not Phase.PLAY:
            continue
        seat = state.turn
        assert seat is not None
        for hint in suggest_moves(state):
            assert Reason.EXACT_ENDGAME in hint.reasons
            assert hint.score == best_play_margin(advance(state, hint.move)[0], seat)
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("rules", ["chkobba", "scopa"])
def test_the_endgame_searches_a_whole_world_past_a_deal(rules):
    # bench/ceiling.py hands the search the round itself, the stock included: the last plays of a deal,
    # the stock's six cards dealt, and the last deal played out.
    unbounded = Budget(reply_steps=10**9, endgame_steps=10**9, seconds=3600.0)
    checked = choices = reordered = 0
    for state in positions(rules, 2, range(12), cut="keep" if rules == "chkobba" else None):
        if len(state.stock) != 6 or sum(map(len, state.hands)) > 4 or state.phase is not Phase.PLAY:
            continue
        seat = state.turn
        assert seat is not None
        k = SeatKnowledge.of(seat_view(state, seat))
        plays = legal_plays(k)
        scores = [score for score, _ in Endgame(k, Meter(unbounded), state).score(plays)]
        for (card, taken, _, _), score in zip(plays, scores, strict=True):
            assert score == best_play_margin(advance(state, PlayMove(card, taken))[0], seat)
            checked += 1
        choices += len(set(scores)) > 1
        # The same round with the stock's order reversed: the last deal's hands change, so may the scores.
        other = dataclasses.replace(state, stock=state.stock[::-1])
        reordered += [score for score, _ in Endgame(k, Meter(unbounded), other).score(plays)] != scores
    assert checked >= 40 and choices > 3 and reordered > 0, (checked, choices, reordered)


def test_does_not_lay_the_seven_of_diamonds_when_another_card_will_do():
    # 000: "never leave the 7D". Nothing captures on Q J K (8 9 10 in chkobba): every card is laid.
    state = state_of(hands=[["2S", "3S", "4S"], ["7D", "AH", "2C"]], table=["QS", "JS", "KS"])
    hints = suggest_moves(state)
    assert hints[-1].move == PlayMove(Card.parse("7D"), ())
    assert {Reason.LAYS_SCORING_CARD, Reason.LEAVES_SEVEN_OF_DIAMONDS} <= set(hints[-1].reasons)


def replayed(players: int, top: str, plays: list[str]) -> RoundState:
    """A chkobba round that a table can play: dealer 0, the cut kept, dealt from a deck whose top
    cards are ``top`` (the seats' blocks from the leader, the table's, then the stock's) and the rest
    in canonical order; then ``plays`` made, each a card code, with the table cards it takes after
    "+"."""
    codes = top.split()
    state, _ = deal_round("chkobba", players, 0, deck=[*codes, *(c for c in CODES if c not in codes)], cut="keep")
    for play_ in plays:
        card, *taken = play_.split("+")
        state, _ = advance(state, PlayMove(Card.parse(card), tuple(map(Card.parse, taken))))
    return state


def huge_state(players: int = 2) -> RoundState:
    """As many legal moves as a real position has (48: no table a round leaves gives more). A table
    holds at most one card a value beside the pairs dealt (docs/rules.md §10.20), and a card is laid
    only where it takes nothing. The deal lays 3S 3C 6S 6C; the first hand lays QS 7S 5S 4S 2S AS,
    highest first, so that none is a sum of the cards it finds (with four players the next seat takes
    the first Q, 7 and 5 laid, and another of each is laid); the refill gives seat 1 three kings. Each
    king (10) takes any of 16 sets adding up to 10. Two players with a stock weigh the reply and our
    next capture for each move, far past the reply budget."""
    if players == 2:
        return replayed(2, "QS 5S 2S 7S 4S AS 3S 3C 6S 6C KH KS KC", ["QS", "7S", "5S", "4S", "2S", "AS"])
    plays = ["QH", "QC+QH", "QS", "7H", "7C+7H", "7S", "5H", "5C+5H", "5S", "4S", "2S", "AS"]
    return replayed(4, "QH 7C 5S QC 7S 4S QS 5H 2S 7H 5C AS 3S 3C 6S 6C KH KS KC", plays)


# The default step budgets, and a clock that stands still: only counted steps cut a search short, on
# any machine however slow (a huge table's search takes a few milliseconds of the 15 the time budget allows).
STEPS_ONLY = Budget(clock=lambda: 0.0)


@pytest.mark.parametrize(
    ("players", "budget"),
    # Four players weigh no next capture: 1,476 steps, near the reply budget, so a smaller one makes sure.
    [(2, STEPS_ONLY), (4, dataclasses.replace(STEPS_ONLY, reply_steps=REPLY_BUDGET // 2))],
)
def test_a_huge_table_is_cut_short_by_a_step_budget_and_still_lists_every_move(players, budget):
    state = huge_state(players)
    assert [c.code for c in state.table] == ["3S", "3C", "6S", "6C", "QS", "7S", "5S", "4S", "2S", "AS"]
    assert [c.code for c in state.hands[1]] == ["KH", "KS", "KC"] and state.turn == 1 and state.stock
    found = suggest(state, budget=budget)
    assert found.shortened_by is Shortened.STEPS
    assert found.count == len(found.moves) == len(legal_pairs(state)) == 48
    assert sorted(moves_of(found.moves)) == sorted(legal_pairs(state))
    assert all(Reason.EXACT_ENDGAME not in h.reasons and Reason.SWEEP_RISK not in h.reasons for h in found.moves)
    # Steps are counted, not timed: the same answer every time.
    assert suggest(huge_state(players), budget=budget) == found


# ---- what a call may cost: the limit and the budgets -------------------------------------------------


class Clock:
    """An injected clock: each read moves it on by ``step`` seconds, and it counts its reads."""

    def __init__(self, step: float) -> None:
        self.now, self.step, self.reads = 0.0, step, 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


def test_the_limit_keeps_the_best_moves_and_counts_them_all():
    for state in [*positions("chkobba", 2, range(1), cut="keep")[:10], huge_state(2), huge_state(4)]:
        every = suggest(state, budget=STEPS_ONLY)
        for limit in (1, 2, 5):
            found = suggest(state, limit=limit, budget=STEPS_ONLY)
            assert found.moves == every.moves[:limit]
            assert found.count == every.count
    with pytest.raises(InvalidInput):
        suggest(huge_state(), limit=0)


def test_real_rounds_never_reach_a_budget():
    for rules, players in SETUPS:
        for state in positions(rules, players, range(2), cut="keep" if rules == "chkobba" else None):
            found = suggest(state, budget=Budget(clock=Clock(0.0)))
            assert found.shortened_by is None
            assert found.moves == suggest_moves(state)


def test_a_step_budget_leaves_the_race_and_the_habits_for_every_move():
    # Two players with a stock: the reply terms weigh the next player's hand; with no reply steps
    # they are left out, for every move alike, and the answer says so.
    state = state_of(hands=[["2S", "3S", "5S"], ["3C", "KC", "KH"]], table=["4S"])
    full = suggest(state)
    assert full.shortened_by is None and any(Reason.SWEEP_RISK in h.reasons for h in full.moves)
    cut = suggest(state, budget=Budget(reply_steps=0))
    assert cut.shortened_by is Shortened.STEPS
    assert sorted(moves_of(cut.moves)) == sorted(moves_of(full.moves))
    assert not any({Reason.SWEEP_RISK, Reason.BLOCKS_SWEEP} & set(h.reasons) for h in cut.moves)
    assert {h.move: h.score for h in cut.moves} != {h.move: h.score for h in full.moves}


def test_an_endgame_over_its_step_budget_falls_back_to_the_heuristic():
    rest = [c for c in CODES if c not in {"7H", "KS", "3C", "7S", "5D", "JC", "7D", "2S", "5C"}]
    state = state_of(
        hands=[["7H", "KS", "3C"], ["7S", "5D", "JC"]], table=["7D", "2S", "5C"], stock=[], piles=[rest[:16], rest[16:]]
    )
    exact = suggest(state)
    assert exact.shortened_by is None and all(Reason.EXACT_ENDGAME in h.reasons for h in exact.moves)
    for steps in (0, 10):
        cut = suggest(state, budget=Budget(endgame_steps=steps))
        assert cut.shortened_by is Shortened.STEPS
        assert not any(Reason.EXACT_ENDGAME in h.reasons for h in cut.moves)
        assert sorted(moves_of(cut.moves)) == sorted(moves_of(exact.moves))


def test_the_time_budget_is_a_safety_net_read_from_the_clock():
    state = state_of(hands=[["2S", "3S", "5S"], ["3C", "KC", "KH"]], table=["4S"])
    # A clock that stands still: the step budgets decide, as on any machine fast enough.
    still = Clock(0.0)
    assert suggest(state, budget=Budget(clock=still)) == suggest(state)
    assert still.reads >= 1
    # A clock that runs a second a read: past the budget at the first look, so the race and the
    # habits score every move, and the answer says that time, not steps, cut the search short.
    slow = Clock(1.0)
    found = suggest(state, budget=Budget(clock=slow))
    assert found.shortened_by is Shortened.TIME
    assert found.moves == suggest(state, budget=Budget(reply_steps=0)).moves
    # A slow clock with no search to run changes nothing: a phase-cut state has no budget to reach.
    deck = ["7D", *(c for c in CODES if c != "7D")]
    cut_state, _ = deal_round("chkobba", 2, 0, deck=deck)
    assert suggest(cut_state, budget=Budget(clock=Clock(1.0))).shortened_by is None


def test_the_clock_is_read_every_16_steps():
    # A read costs about a microsecond, a step several: the search reads the clock once per 16 steps.
    clock = Clock(0.0)
    meter = Meter(Budget(clock=clock))
    assert clock.reads == 1  # the deadline
    for _ in range(160):
        meter.check_time(1)
    assert clock.reads == 1 + 10
    meter.check_time(100)  # one big step: read at once
    assert clock.reads == 1 + 11


def test_the_quick_scores_are_the_one_ply_scores_of_each_move():
    """``quick`` scores once per kind of capture: the same as scoring each move by itself."""
    for state in [huge_state(2), huge_state(4), *positions("chkobba", 4, range(1))[:8]]:
        k = SeatKnowledge.of(seat_view(state, state.turn))
        plays = legal_plays(k)
        quick = Heuristic(k, WEIGHTS["chkobba"]).quick(plays)
        one_ply = Heuristic(k, WEIGHTS["chkobba"])
        one_ply.one_ply = True
        for each, (score, reasons) in zip(plays, quick, strict=True):
            _, expected, named, _ = one_ply.evaluate(each)
            assert (score, reasons) == (round(expected, 4), ordered(named))
