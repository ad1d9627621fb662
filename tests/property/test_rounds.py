"""Random complete rounds of every profile and player count, checked against docs/rules.md at every step.

Moves are chosen by hypothesis among the legal options. The expectations (conservation, sweeps,
the last play, the end of the round and its score) are recomputed here from docs/rules.md, not taken
from the core.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.rules import (
    DECK,
    CaptureKind,
    Card,
    Cut,
    CutMove,
    Phase,
    PlayMove,
    RoundState,
    Rules,
    Tally,
    deal_round,
    decide_match,
    legal_moves,
    play,
    replay_round,
    round_breakdown,
    score_round,
)
from service.rules.shuffle import SEED_MAX, SEED_MIN

from ..support import expected_breakdown

# docs/rules.md §1.4: capture values per profile.
FACE_VALUES = {"chkobba": {"J": 9, "Q": 8, "K": 10}, "chkobba-crp": {"J": 8, "Q": 9, "K": 10}}
FACE_VALUES["scopa"] = FACE_VALUES["chkobba-crp"]
SETUPS = [("chkobba", 2), ("chkobba", 4), ("chkobba-crp", 2), ("chkobba-crp", 3), ("chkobba-crp", 4), ("scopa", 2)]


def value(profile: str, card: Card) -> int:
    rank = card.code[0]
    return 1 if rank == "A" else FACE_VALUES[profile].get(rank) or int(rank)


def redeal_called(profile: str, table: tuple[Card, ...]) -> bool:
    """docs/rules.md §3: chkobba, 3 or 4 cards of one value; chkobba-crp, 3 or 4 kings; scopa, never."""
    if profile == "scopa":
        return False
    values = Counter(value(profile, c) for c in table if profile == "chkobba" or c.code[0] == "K")
    return any(n >= 3 for n in values.values())


def sides_of(players: int) -> int:
    return 2 if players == 4 else players


def assert_conserved(state: RoundState) -> None:
    places = [*state.hands, state.table, state.stock, *state.piles]
    seen = Counter(card for place in places for card in place)
    assert sorted(seen, key=DECK.index) == list(DECK)
    assert set(seen.values()) == {1}


CRP_OPTIONS = st.fixed_dictionaries(
    {}, optional={"face_sums": st.booleans(), "ties_to_last_capturer": st.booleans(), "primiera": st.booleans()}
)
decks = st.one_of(
    st.permutations(DECK).map(lambda cards: {"deck": [c.code for c in cards]}),
    st.integers(min_value=SEED_MIN, max_value=SEED_MAX).map(lambda n: {"seed": n}),
    st.text(min_size=1, max_size=12).map(lambda s: {"seed": s}),
)


def check_step_invariants(state: RoundState) -> None:
    assert_conserved(state)
    data = state.to_json()
    again = json.loads(json.dumps(data))
    assert again == data
    assert RoundState.from_json(again) == state
    assert all(0 <= len(hand) <= 3 for hand in state.hands)


@pytest.mark.parametrize(("profile", "players"), SETUPS)
@given(data=st.data())
def test_random_round_obeys_the_rules(profile: str, players: int, data: st.DataObject) -> None:
    options = data.draw(CRP_OPTIONS, label="options") if profile == "chkobba-crp" else {}
    spec: Any = {"profile": profile, "options": options} if options else profile
    dealer = data.draw(st.integers(0, players - 1), label="dealer")
    source = data.draw(decks, label="deck")
    cut = data.draw(st.sampled_from([None, "keep", "table"]), label="cut") if profile == "chkobba" else None
    cut_as_move = profile == "chkobba" and cut is None
    state, deck = deal_round(spec, players, dealer, cut=cut, **source)
    assert len(deck) == 40 and set(deck) == set(DECK)
    if "deck" in source:
        assert [c.code for c in deck] == source["deck"]
    moves: list[dict[str, Any]] = []
    if cut_as_move:
        assert state.phase is Phase.CUT and state.turn == (dealer + 1) % players
        check_step_invariants(state)
        choice = data.draw(st.sampled_from(["keep", "table"]), label="cut move")
        state, event = play(state, CutMove(Cut(choice)))
        moves.append({"cut": choice})
        cut_used = choice
    else:
        cut_used = cut or "keep"
    check_step_invariants(state)

    # The deal itself (docs/rules.md §3): blocks of 3 per seat in playing order, then the table's block.
    order = [(dealer + 1 + k) % players for k in range(players)]
    top = list(deck)
    tabled = top[:1] if cut_used == "table" else []
    rest = top[len(tabled) :]
    for k, seat in enumerate(order):
        assert list(state.hands[seat]) == rest[3 * k : 3 * k + 3]
    assert list(state.table) == tabled + rest[3 * players : 3 * players + 4 - len(tabled)]
    assert list(state.stock) == rest[3 * players + 4 - len(tabled) :]
    if redeal_called(profile, state.table):
        assert state.phase is Phase.REDEAL and state.turn is None
        assert legal_moves(state) == []
        return
    assert state.phase is Phase.PLAY and state.turn == order[0]

    sides = sides_of(players)
    captures = [0] * sides
    last_capturer: int | None = None
    while state.phase is Phase.PLAY:
        seat = state.turn
        assert seat is not None
        hand = state.hands[seat]
        last_play = not state.stock and sum(map(len, state.hands)) == 1
        legal = legal_moves(state)
        assert [c.card for c in legal] == list(hand)
        # Every listed option applies; a card without options is laid on the table.
        for caps in legal:
            if not caps.options:
                assert caps.kind is CaptureKind.NONE
                for given_capture in (None, ()):
                    after, event = play(state, PlayMove(caps.card, given_capture))
                    assert event.kind is CaptureKind.NONE and event.taken == () and not event.sweep
                    if after.phase is Phase.PLAY:
                        assert after.table == (*state.table, caps.card)
                    else:
                        assert caps.card in after.piles[after.last_capturer or 0]
            for index, option in enumerate(caps.options):
                assert set(option) <= set(state.table)
                after, event = play(state, PlayMove(caps.card, option, seat=seat))
                assert set(event.taken) == set(option)
                sweeps_now = len(option) == len(state.table) and not last_play
                assert event.sweep is sweeps_now
                assert (caps.sweep_option == index) is sweeps_now
                side = seat % sides
                assert after.sweeps[side] == state.sweeps[side] + sweeps_now
                assert set(state.piles[side]) | {caps.card, *option} <= set(after.piles[side])
                assert after.last_capturer == side
        # Choose the move.
        card_index = data.draw(st.integers(0, len(hand) - 1), label="card")
        caps = legal[card_index]
        move: dict[str, Any] = {"card": caps.card.code}
        if caps.options:
            option = caps.options[data.draw(st.integers(0, len(caps.options) - 1), label="option")]
            if len(caps.options) == 1 and data.draw(st.booleans(), label="omit capture"):
                capture = None
            else:
                # A capture is a set: any order names the same option.
                capture = data.draw(st.permutations(option), label="capture order")
                move["capture"] = [c.code for c in capture]
        else:
            option, capture = (), None
        before = state
        state, event = play(state, PlayMove(caps.card, None if capture is None else tuple(capture)))
        moves.append(move)
        side = seat % sides
        if option:
            captures[side] += 1
            last_capturer = side
        assert state.last_capturer == last_capturer
        assert state.sweeps[side] <= captures[side]
        assert all(state.sweeps[s] <= captures[s] for s in range(sides))
        check_step_invariants(state)
        # Hands refill from the stock in blocks when all are empty (§3); the leader leads again.
        if before.stock and sum(map(len, before.hands)) == 1:
            for k, each in enumerate(order):
                assert list(state.hands[each]) == list(before.stock[3 * k : 3 * k + 3])
            assert state.turn == order[0]
            assert event.dealt
        elif state.phase is Phase.PLAY:
            assert state.turn == (seat + 1) % players

    # The end of the round (§6): everything in the piles, the leftovers to the last capturer.
    assert state.phase is Phase.OVER and state.turn is None
    assert not state.stock and not state.table and not any(state.hands)
    assert sum(map(len, state.piles)) == 40
    assert_conserved(state)
    assert last_capturer is not None and state.last_capturer == last_capturer
    last_card = event.move.card
    left = set(before.table) - set(event.taken) if event.taken else {*before.table, last_card}
    assert set(event.collected) == left
    assert set(state.piles[last_capturer]) >= set(event.collected)
    assert not event.sweep  # the last play never sweeps (§5)
    breakdown = [score.to_json() for score in round_breakdown(state)]
    piles = [[c.code for c in pile] for pile in state.piles]
    expected = expected_breakdown(profile, piles, list(state.sweeps), options=options, last_capturer=last_capturer)
    assert breakdown == expected
    most_points = 4 + bool(options.get("primiera"))
    for row, n_captures in zip(breakdown, captures, strict=True):
        assert 0 <= row["sweeps"] <= n_captures
        assert 0 <= row["total"] <= most_points + row["sweeps"]
    for category in ("cards", "diamonds", "sevens", "primiera"):
        assert sum(row[category] for row in breakdown) in (0, 1)
    assert sum(row["seven_of_diamonds"] for row in breakdown) == 1

    # Nothing real is refused (docs/rules.md §10.17-10.19): the piles as scored piles, and the round's
    # points as a match's next round, from scores of 0 and from scores short of the target.
    by_piles = score_round(
        Rules.of(spec), [Tally.of_pile(p, n) for p, n in zip(state.piles, state.sweeps, strict=True)], last_capturer
    )
    assert [s.to_json() for s in by_piles] == expected
    points = [row["total"] for row in expected]
    assert decide_match(spec, [0] * sides, points).scores == tuple(points)
    target = Rules.of(spec).target
    if target is not None:
        decide_match(spec, [target - 1] * sides, points)

    # The same score from counts alone (openapi.yaml scoreRound), when primiera does not need the piles.
    if not options.get("primiera"):
        counts = [
            Tally(
                cards=len(pile),
                diamonds=sum(c.code[1] == "D" for c in pile),
                sevens=sum(c.code[0] == "7" for c in pile),
                sixes=sum(c.code[0] == "6" for c in pile),
                seven_of_diamonds=any(c.code == "7D" for c in pile),
                sweeps=n,
            )
            for pile, n in zip(state.piles, state.sweeps, strict=True)
        ]
        by_counts = score_round(Rules.of(spec), counts, last_capturer)
        assert [s.to_json() for s in by_counts] == expected

    replay = replay_round(spec, players, dealer, moves, deck=[c.code for c in deck], cut=cut)
    assert replay.valid and replay.first_illegal is None and replay.complete
    assert replay.state == state
    assert [v.legal for v in replay.moves] == [True] * len(moves)
    assert replay.breakdown is not None
    assert [s.to_json() for s in replay.breakdown] == expected
