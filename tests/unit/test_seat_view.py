"""One seat's view of a round (service/rules/seat_view.py): everything that seat may know, nothing more.

A view holds the seat's own hand, the table, the piles captured in the open, sweeps, scores' inputs,
whose turn it is and how many cards each hand and the stock hold; never another hand (a partner's
included), the order of the stock, or a cut card that another seat drew (docs/rules.md §2-§6).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from service.rules import (
    DECK,
    Captures,
    Card,
    Cut,
    CutMove,
    InvalidInput,
    Phase,
    PlayMove,
    RoundState,
    deal_round,
    legal_moves,
    play,
)
from service.rules.seat_view import SeatView, seat_view

from ..support import strings_in

CODES = [c.code for c in DECK]
VIEW_KEYS = {
    "seat",
    "side",
    "rules",
    "players",
    "dealer",
    "phase",
    "turn",
    "hand",
    "hand_sizes",
    "table",
    "stock_size",
    "piles",
    "sweeps",
    "last_capturer",
}
# Every profile and player count (docs/rules.md §2), chkobba with both cuts and with the cut left to play.
SETUPS = [
    ("chkobba", 2, "keep"),
    ("chkobba", 2, "table"),
    ("chkobba", 2, None),
    ("chkobba", 4, "keep"),
    ("chkobba", 4, None),
    ("chkobba-crp", 2, None),
    ("chkobba-crp", 3, None),
    ("chkobba-crp", 4, None),
    ("scopa", 2, None),
]


def codes(cards: Any) -> list[str]:
    return [c.code for c in cards]


def check_view(state: RoundState, seat: int) -> dict[str, Any]:
    view = seat_view(state, seat).to_json()
    json.dumps(view)  # plain JSON
    cutter_sees = state.phase is Phase.CUT and seat == state.turn and bool(state.stock)
    cut_card = state.stock[0].code if cutter_sees else None
    hidden = {c.code for s, hand in enumerate(state.hands) if s != seat for c in hand} | set(codes(state.stock))
    hidden.discard(cut_card)
    found = strings_in(view)
    assert not hidden & found, (seat, sorted(hidden & found))
    allowed = set(codes(state.hands[seat])) | set(codes(state.table)) | {c.code for p in state.piles for c in p}
    assert found & set(CODES) <= allowed | {cut_card}
    assert set(view) == VIEW_KEYS | ({"cut_card"} if cut_card else set())
    assert view["seat"] == seat and view["side"] == state.side_of(seat)
    assert view["hand"] == codes(state.hands[seat])
    assert view["hand_sizes"] == [len(h) for h in state.hands]
    assert view["table"] == codes(state.table)
    assert view["stock_size"] == len(state.stock)
    assert view["piles"] == [codes(p) for p in state.piles]
    assert view["sweeps"] == list(state.sweeps)
    assert (view["turn"], view["phase"], view["dealer"], view["players"]) == (
        state.turn,
        state.phase.value,
        state.dealer,
        state.players,
    )
    assert view["last_capturer"] == state.last_capturer and view["rules"] == state.rules.to_json()
    if cut_card:
        assert view["cut_card"] == cut_card
    return view


def next_move(state: RoundState, step: int) -> PlayMove | CutMove:
    options = legal_moves(state)
    if state.phase is Phase.CUT:
        return CutMove(options[step % 2])
    captures: Captures = options[step % len(options)]
    capture = captures.options[step % len(captures.options)] if captures.options else None
    return PlayMove(captures.card, capture)


@pytest.mark.parametrize(("rules", "players", "cut"), SETUPS)
def test_every_view_of_a_whole_round_holds_only_what_its_seat_may_know(rules, players, cut):
    for seed in range(3):
        state, _ = deal_round(rules, players, seed % players, seed=f"view-{rules}-{players}-{seed}", cut=cut)
        step = seed
        while True:
            for seat in range(players):
                check_view(state, seat)
            if state.phase not in (Phase.CUT, Phase.PLAY):
                break
            state, _ = play(state, next_move(state, step))
            step += 1
        assert state.phase in (Phase.OVER, Phase.REDEAL)


def test_a_partners_hand_is_hidden():
    state, _ = deal_round("chkobba", 4, 3, deck=CODES, cut="keep")
    # Dealer 3: seat 0 takes AD 2D 3D, seat 1 4D 5D 6D, seat 2 (seat 0's partner) 7D JD QD, seat 3 KD AH 2H.
    view = seat_view(state, 0).to_json()
    assert view["hand"] == ["AD", "2D", "3D"]
    assert view["side"] == 0 and state.side_of(2) == 0
    assert not {"7D", "JD", "QD"} & strings_in(view)
    assert view["hand_sizes"] == [3, 3, 3, 3]


def test_the_cut_card_is_the_cutters_alone():
    state, _ = deal_round("chkobba", 2, 0, deck=CODES)
    assert state.phase is Phase.CUT and state.turn == 1
    cutter, other = seat_view(state, 1), seat_view(state, 0)
    assert cutter.cut_card == Card.parse("AD") and cutter.to_json()["cut_card"] == "AD"
    assert other.cut_card is None and "cut_card" not in other.to_json()
    assert not set(CODES) & strings_in(other.to_json())
    assert strings_in(cutter.to_json()) & set(CODES) == {"AD"}
    assert cutter.to_json()["stock_size"] == 40 and cutter.to_json()["hand"] == []


def test_after_the_cut_nobody_has_a_cut_card():
    state, _ = deal_round("chkobba", 2, 0, deck=CODES)
    for cut in Cut:
        after, _ = play(state, CutMove(cut))
        assert all("cut_card" not in seat_view(after, s).to_json() for s in range(2))


def test_no_cut_card_outside_phase_cut_or_in_other_profiles():
    state, _ = deal_round("chkobba-crp", 3, 0, deck=CODES)
    assert state.phase is Phase.PLAY
    assert all(seat_view(state, s).cut_card is None for s in range(3))


def test_a_finished_round_shows_every_pile():
    state, _ = deal_round("scopa", 2, 0, seed="over")
    step = 0
    while state.phase is Phase.PLAY:
        state, _ = play(state, next_move(state, step))
        step += 1
    assert state.phase is Phase.OVER
    view = check_view(state, 0)
    assert sorted(c for p in view["piles"] for c in p) == sorted(CODES)
    assert view["hand"] == [] and view["stock_size"] == 0 and view["turn"] is None


def test_a_view_of_a_redeal_shows_its_own_hand_only():
    # chkobba: a completed table of three 7s calls for a redeal (docs/rules.md §3).
    deck = ["AD", "2D", "3D", "4D", "5D", "6D", "7D", "7H", "7S", "KD"]
    deck += [c for c in CODES if c not in deck]
    state, _ = deal_round("chkobba", 2, 0, deck=deck, cut="keep")
    assert state.phase is Phase.REDEAL
    for seat in range(2):
        check_view(state, seat)


@pytest.mark.parametrize("seat", [-1, 2, 4, 2.0])
def test_a_seat_outside_the_round_is_no_such_seat(seat):
    state, _ = deal_round("scopa", 2, 0, deck=CODES)
    with pytest.raises(InvalidInput) as caught:
        seat_view(state, seat)
    assert caught.value.code == "no-such-seat" and caught.value.field == "seat"


@pytest.mark.parametrize("seat", [True, False, 0.5, "0", None])
def test_a_seat_that_is_no_whole_number_is_invalid_input(seat):
    state, _ = deal_round("scopa", 2, 0, deck=CODES)
    with pytest.raises(InvalidInput) as caught:
        seat_view(state, seat)
    assert caught.value.code == "invalid-input" and caught.value.field == "seat"


def test_a_seat_written_with_a_zero_fraction_is_that_seat():
    state, _ = deal_round("scopa", 2, 0, deck=CODES)
    assert seat_view(state, 1.0) == seat_view(state, 1)


def test_a_view_is_a_value_over_the_state():
    state, _ = deal_round("scopa", 2, 0, deck=CODES)
    view = seat_view(state, 1)
    assert view == SeatView(state, 1) and view.hand == state.hands[1]
    data = view.to_json()
    data["hand"].append("KC")
    data["table"].clear()
    assert seat_view(state, 1).to_json()["hand"] == codes(state.hands[1])
    assert seat_view(state, 1).to_json()["table"] == codes(state.table)


def test_rules_with_options_are_shown_as_given():
    rules = {"profile": "chkobba-crp", "options": {"face_sums": True, "target": 16}}
    state, _ = deal_round(rules, 2, 0, deck=CODES)
    assert seat_view(state, 0).to_json()["rules"] == state.rules.to_json()


def test_the_view_follows_the_state_not_a_copy_of_it():
    state, _ = deal_round("scopa", 2, 0, deck=CODES)
    emptier = replace(state, table=state.table[:2], piles=(state.table[2:], ()), last_capturer=0)
    view = seat_view(emptier, 0).to_json()
    assert view["table"] == codes(state.table[:2]) and view["piles"] == [codes(state.table[2:]), []]
