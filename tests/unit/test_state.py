"""Round-state validation (docs/rules.md §9, openapi.yaml "RoundState"): every check names its field."""

import copy
from typing import Any

import pytest

from service.rules import (
    DECK,
    BadState,
    DuplicateCard,
    InvalidCard,
    InvalidOption,
    RoundState,
    RulesError,
    UnknownProfile,
)

from ..support import state_json

CODES = [c.code for c in DECK]


# chkobba, two players, dealer 0: seat 1 leads. A fresh deal, seat 1 to play; stock 30.
FRESH = state_json(hands=[["AD", "2D", "3D"], ["4D", "5D", "6D"]], table=["7H", "JH", "QH", "KH"])
# Later in the round: 15 cards captured, stock 18; seat 1 has played, seat 0 to play.
MID = state_json(
    turn=0,
    hands=[["3S", "4S", "5S"], ["AS", "2S"]],
    table=["7H", "JH"],
    piles=[["AD", "2D", "3D", "4D", "5D", "6D", "7D", "JD"], ["QD", "KD", "AH", "2H", "3H", "4H", "5H"]],
    sweeps=[1, 0],
    last_capturer=1,
)
OVER = state_json(
    phase="over", turn=None, hands=[[], []], table=[], piles=[CODES[:22], CODES[22:]], sweeps=[2, 1], last_capturer=0
)
CUT = state_json(phase="cut", turn=1, hands=[[], []], table=[])
REDEAL = state_json(
    phase="redeal", turn=None, hands=[["AD", "2D", "3D"], ["4D", "6D", "7D"]], table=["5D", "5H", "5S", "KC"]
)
# Four players, dealer 2: playing order 3, 0, 1, 2. Seats 3 and 0 have played this hand: seat 1 to play.
FOUR = state_json(
    players=4,
    dealer=2,
    turn=1,
    hands=[["AD"], ["2D", "3D"], ["4D", "5D"], ["6D"]],
    table=["7H", "JH", "QH"],
    piles=[
        ["AS", "AC", "2S", "2C", "3S", "3C", "7C", "JS", "JC"],
        ["4S", "4C", "5S", "5C", "6S", "6C", "7S", "QS", "QC", "KS"],
    ],
    sweeps=[0, 1],
    last_capturer=1,
)


def with_fields(base: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """A deep copy of the state ``base`` with its top-level ``fields`` replaced (tests/support.py's
    ``changed`` makes one change anywhere in a JSON value)."""
    data = copy.deepcopy(base)
    data.update(fields)
    return data


def rejected(data: object, error: type[RulesError] = BadState) -> RulesError:
    with pytest.raises(error) as info:
        RoundState.from_json(data)
    return info.value


@pytest.mark.parametrize(
    "data", [FRESH, MID, OVER, CUT, REDEAL, FOUR], ids=["fresh", "mid", "over", "cut", "redeal", "4p"]
)
def test_valid_states_are_accepted_and_round_trip(data: dict[str, Any]) -> None:
    assert RoundState.from_json(data).to_json() == data


def test_fixtures_have_the_expected_stock_sizes() -> None:
    assert [len(d["stock"]) for d in (FRESH, MID, OVER, CUT, REDEAL, FOUR)] == [30, 18, 0, 40, 30, 12]


# docs/rules.md §9: every card in exactly one place.


def test_a_card_in_two_places_is_a_duplicate_naming_both() -> None:
    """docs/rules.md §10.21."""
    data = with_fields(FRESH, table=["7H", "JH", "QH", "KH", "AD"])
    error = rejected(data, DuplicateCard)
    assert error.code == "duplicate-card"
    assert error.field == "state.table"
    assert error.details["card"] == "AD"
    assert error.details["places"] == ["state.hands.0", "state.table"]
    assert "state.hands.0" in error.message and "state.table" in error.message


def test_a_card_in_a_pile_and_the_stock_is_a_duplicate_naming_both() -> None:
    data = with_fields(MID)
    data["piles"][1].append(data["stock"][0])
    error = rejected(data, DuplicateCard)
    assert error.code == "duplicate-card"
    assert error.field == "state.piles.1"
    assert error.details["card"] == data["stock"][0]
    assert error.details["places"] == ["state.stock", "state.piles.1"]


def test_duplicate_card_within_one_list_is_rejected_naming_the_entry() -> None:
    data = with_fields(FRESH, table=["7H", "JH", "QH", "7H"])
    data["stock"].append("KH")
    with pytest.raises(RulesError) as info:
        RoundState.from_json(data)
    assert info.value.code == "duplicate-card"
    assert info.value.field == "state.table.3"


def test_missing_card_is_a_bad_state() -> None:
    data = with_fields(MID)
    lost = data["stock"].pop()
    error = rejected(data)
    assert error.code == "bad-state"
    assert error.field == "state"
    assert error.details["missing"] == [lost]


# Hands hold 0-3 cards; hand sizes follow the playing order.


def test_hand_of_four_cards_is_a_bad_state() -> None:
    data = with_fields(FRESH, hands=[["AD", "2D", "3D", "AC"], ["4D", "5D", "6D"]])
    data["stock"].remove("AC")
    error = rejected(data)
    assert error.field == "state.hands.0"


def test_hand_sizes_out_of_playing_order_are_a_bad_state() -> None:
    # Seat 1 leads, so seat 0 (the dealer) cannot have played before it.
    data = with_fields(FRESH, hands=[["AD", "2D"], ["4D", "5D", "6D"]], table=["7H", "JH", "QH", "KH", "3D"])
    error = rejected(data)
    assert error.field == "state.hands"


def test_hand_sizes_differing_by_two_are_a_bad_state() -> None:
    data = with_fields(MID, hands=[["3S", "4S", "5S"], ["AS"]], table=["7H", "JH", "2S"])
    error = rejected(data)
    assert error.field == "state.hands"


def test_hand_sizes_out_of_order_with_four_players_are_a_bad_state() -> None:
    # Order 3, 0, 1, 2: seat 1 cannot hold fewer cards than seat 2 while seat 0 holds more.
    data = with_fields(FOUR, hands=[["AD", "JD"], ["2D"], ["4D", "5D"], ["6D", "QD"]])
    data["stock"] = [c for c in data["stock"] if c not in ("JD", "QD")]
    data["table"] = ["7H", "JH", "QH", "3D"]
    error = rejected(data)
    assert error.field == "state.hands"


def test_play_with_every_hand_empty_is_a_bad_state() -> None:
    data = with_fields(OVER, phase="play", turn=1)
    assert rejected(data).field == "state.hands"


# The turn belongs to the seat whose turn it is.


@pytest.mark.parametrize(("base", "turn"), [(FRESH, 0), (MID, 1), (FOUR, 2), (FOUR, 3), (FRESH, None), (FRESH, 2)])
def test_wrong_turn_is_a_bad_state(base: dict[str, Any], turn: int | None) -> None:
    error = rejected(with_fields(base, turn=turn))
    assert error.code == "bad-state"
    assert error.field == "state.turn"


# A sweep count never exceeds the captures made.


def test_more_sweeps_than_possible_captures_is_a_bad_state() -> None:
    # Side 1's pile of 7 cards holds at most 3 captures.
    data = with_fields(MID, sweeps=[1, 4])
    error = rejected(data)
    assert error.field == "state.sweeps.1"


def test_sweeps_without_captures_is_a_bad_state() -> None:
    assert rejected(with_fields(FRESH, sweeps=[1, 0])).field == "state.sweeps.0"


def test_negative_sweeps_is_a_bad_state() -> None:
    assert rejected(with_fields(MID, sweeps=[-1, 0])).field == "state.sweeps.0"


# last_capturer agrees with the piles.


def test_last_capturer_null_after_captures_is_a_bad_state() -> None:
    assert rejected(with_fields(MID, last_capturer=None)).field == "state.last_capturer"


def test_last_capturer_with_an_empty_pile_is_a_bad_state() -> None:
    assert rejected(with_fields(FRESH, last_capturer=0)).field == "state.last_capturer"


@pytest.mark.parametrize("side", [2, -1, 5])
def test_last_capturer_outside_the_sides_is_a_bad_state(side: int) -> None:
    assert rejected(with_fields(MID, last_capturer=side)).field == "state.last_capturer"


def test_last_capturer_is_a_side_not_a_seat_with_four_players() -> None:
    assert rejected(with_fields(FOUR, last_capturer=3)).field == "state.last_capturer"


# The stock is refilled 3 cards per player at a time.


def test_stock_not_a_multiple_of_three_per_player_is_a_bad_state() -> None:
    data = with_fields(MID)
    data["piles"][0].append(data["stock"].pop())
    error = rejected(data)
    assert error.field == "state.stock"


def test_stock_of_nine_with_four_players_is_a_bad_state() -> None:
    data = with_fields(FOUR)
    data["piles"][0] += data["stock"][:3]
    data["stock"] = data["stock"][3:]
    assert rejected(data).field == "state.stock"


# The phase: cut only in chkobba, redeal only where the profile deals again, over means done.


def test_cut_phase_in_a_profile_without_the_cut_is_a_bad_state() -> None:
    for rules in ("scopa", "chkobba-crp"):
        error = rejected(with_fields(CUT, rules=rules))
        assert error.field == "state.phase"


def test_cut_phase_after_the_deal_is_a_bad_state() -> None:
    assert rejected(with_fields(FRESH, phase="cut")).field == "state.phase"


def test_cut_phase_belongs_to_the_dealer_s_right() -> None:
    assert rejected(with_fields(CUT, turn=0)).field == "state.turn"
    assert rejected(with_fields(CUT, turn=None)).field == "state.turn"


def test_redeal_phase_in_scopa_is_a_bad_state() -> None:
    assert rejected(with_fields(REDEAL, rules="scopa")).field == "state.phase"


def test_redeal_phase_with_a_turn_is_a_bad_state() -> None:
    assert rejected(with_fields(REDEAL, turn=1)).field == "state.turn"


def test_redeal_phase_needs_a_table_calling_for_it() -> None:
    data = with_fields(REDEAL, table=["5D", "5H", "KS", "KC"])
    data["stock"] = [c for c in data["stock"] if c != "KS"] + ["5S"]
    assert rejected(data).field == "state.phase"


def test_chkobba_crp_redeal_needs_three_kings() -> None:
    # Three fives call for a redeal in chkobba but not in chkobba-crp (docs/rules.md §3).
    assert rejected(with_fields(REDEAL, rules="chkobba-crp")).field == "state.phase"
    kings = state_json(
        rules="chkobba-crp", phase="redeal", turn=None, hands=REDEAL["hands"], table=["KD", "KH", "KS", "5D"]
    )
    assert RoundState.from_json(kings).to_json() == kings


def test_redeal_phase_after_captures_is_a_bad_state() -> None:
    data = with_fields(REDEAL, piles=[["AS", "AC"], []], last_capturer=0)
    data["stock"] = [c for c in data["stock"] if c not in ("AS", "AC")]
    assert rejected(data).field == "state.phase"


def test_play_phase_on_a_deal_that_calls_for_a_redeal_is_a_bad_state() -> None:
    assert rejected(with_fields(REDEAL, phase="play", turn=1)).field == "state.table"


def test_over_with_a_turn_is_a_bad_state() -> None:
    assert rejected(with_fields(OVER, turn=0)).field == "state.turn"


def test_over_with_cards_left_is_a_bad_state() -> None:
    data = with_fields(OVER, table=["KC"])
    data["piles"][1].remove("KC")
    assert rejected(data).field == "state.phase"
    data = with_fields(MID, phase="over", turn=None)
    assert rejected(data).field == "state.phase"


def test_over_needs_a_last_capturer() -> None:
    assert rejected(with_fields(OVER, last_capturer=None)).field == "state.last_capturer"


# Players, dealer and list lengths.


def test_player_count_the_profile_does_not_allow_is_a_bad_state() -> None:
    assert rejected(with_fields(FRESH, players=3)).field == "state.players"
    assert rejected(with_fields(FRESH, rules="scopa", players=4)).field == "state.players"


@pytest.mark.parametrize("dealer", [2, -1])
def test_dealer_outside_the_seats_is_a_bad_state(dealer: int) -> None:
    assert rejected(with_fields(FRESH, dealer=dealer)).field == "state.dealer"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("hands", [["AD", "2D", "3D"], ["4D", "5D", "6D"], []]),
        ("piles", [[], [], []]),
        ("sweeps", [0, 0, 0]),
        ("sweeps", [0]),
    ],
)
def test_one_entry_per_seat_or_side(name: str, value: list[Any]) -> None:
    assert rejected(with_fields(FRESH, **{name: value})).field == f"state.{name}"


# The JSON form: unknown and missing fields, wrong types.


def test_unknown_field_is_rejected() -> None:
    error = rejected(with_fields(FRESH, score=[0, 0]))
    assert error.field == "state"
    assert "score" in error.message


@pytest.mark.parametrize("name", ["rules", "phase", "stock", "last_capturer"])
def test_missing_field_is_rejected(name: str) -> None:
    data = with_fields(FRESH)
    del data[name]
    assert rejected(data).field == f"state.{name}"


@pytest.mark.parametrize("data", [None, [], "state", 3])
def test_state_must_be_an_object(data: object) -> None:
    assert rejected(data).field == "state"


@pytest.mark.parametrize(
    ("name", "value", "field"),
    [
        ("players", "2", "state.players"),
        ("players", 2.0, "state.players"),
        ("players", True, "state.players"),
        ("dealer", None, "state.dealer"),
        ("turn", True, "state.turn"),
        ("turn", "1", "state.turn"),
        ("phase", "playing", "state.phase"),
        ("phase", 1, "state.phase"),
        ("phase", None, "state.phase"),
        ("hands", "AD 2D 3D", "state.hands"),
        ("hands", {"0": []}, "state.hands"),
        ("hands", [["AD", "2D", "3D"], "4D 5D 6D"], "state.hands.1"),
        ("table", None, "state.table"),
        ("stock", "AD", "state.stock"),
        ("piles", [[], None], "state.piles.1"),
        ("sweeps", "00", "state.sweeps"),
        ("sweeps", [0, "0"], "state.sweeps.1"),
        ("sweeps", [0, 0.0], "state.sweeps.1"),
        ("last_capturer", "1", "state.last_capturer"),
        ("last_capturer", False, "state.last_capturer"),
    ],
)
def test_wrong_type_is_a_bad_state(name: str, value: object, field: str) -> None:
    error = rejected(with_fields(FRESH, **{name: value}))
    assert error.code == "bad-state"
    assert error.field == field


def test_bad_card_in_a_state_names_its_place() -> None:
    data = with_fields(FRESH, table=["7H", "JH", "QH", "8H"])
    error = rejected(data, InvalidCard)
    assert error.code == "invalid-card"
    assert error.field == "state.table.3"
    assert error.details["card"] == "8H"
    data = with_fields(MID)
    data["piles"][1][2] = "10H"
    assert rejected(data, InvalidCard).field == "state.piles.1.2"


def test_unknown_profile_in_a_state_is_rejected() -> None:
    error = rejected(with_fields(FRESH, rules="tute"), UnknownProfile)
    assert error.code == "unknown-profile"
    assert error.field == "state.rules.profile"


def test_option_the_profile_lacks_in_a_state_is_rejected() -> None:
    data = with_fields(FRESH, rules={"profile": "chkobba", "options": {"face_sums": True}})
    error = rejected(data, InvalidOption)
    assert error.code == "invalid-option"
    assert error.field == "state.rules.options.face_sums"


def test_rules_with_options_survive_the_round_trip() -> None:
    rules = {"profile": "chkobba-crp", "options": {"face_sums": True, "primiera": True}}
    data = with_fields(FRESH, rules=rules)
    state = RoundState.from_json(data)
    assert state.rules.face_sums is True and state.rules.primiera is True
    assert state.to_json() == data
