"""Legal captures (docs/rules.md §4, §5; openapi.yaml ``legalCaptures``)."""

from typing import Any

import pytest

from service.rules import CaptureKind, Captures, DuplicateCard, InvalidCard, InvalidInput, hand_captures, legal_captures

CRP_FACE_SUMS = {"profile": "chkobba-crp", "options": {"face_sums": True}}


def codes(caps: Captures) -> list[list[str]]:
    return [[c.code for c in option] for option in caps.options]


def test_single_match_beats_sum() -> None:
    # 3+4 would make 7, but a 7 on the table must be matched (§4.1).
    caps = legal_captures("chkobba", ["3D", "4S", "7C"], "7H")
    assert caps.kind is CaptureKind.MATCH
    assert codes(caps) == [["7C"]]
    assert caps.value == 7


def test_match_takes_exactly_one_of_several_matching_cards() -> None:
    caps = legal_captures("chkobba", ["5D", "2H", "5S", "3C"], "5H")
    assert caps.kind is CaptureKind.MATCH
    assert codes(caps) == [["5D"], ["5S"]]
    assert caps.sweep_option is None


def test_queen_worth_eight_takes_two_and_six_in_chkobba() -> None:
    # The worked example of 001 (docs/rules.md §7.5): Q (8) takes 2D+6S and sweeps.
    caps = legal_captures("chkobba", ["2D", "6S"], "QH")
    assert (caps.value, caps.kind, codes(caps), caps.sweep_option) == (8, CaptureKind.SUM, [["2D", "6S"]], 0)


def test_jack_worth_nine_cannot_take_two_and_six_in_chkobba() -> None:
    caps = legal_captures("chkobba", ["2D", "6S"], "JH")
    assert (caps.value, caps.kind, caps.options, caps.sweep_option) == (9, CaptureKind.NONE, (), None)


@pytest.mark.parametrize(
    ("rules", "card", "value"),
    [
        ("chkobba", "JS", 9),
        ("chkobba", "QS", 8),
        ("chkobba", "KS", 10),
        ("chkobba-crp", "JS", 8),
        ("chkobba-crp", "QS", 9),
        ("chkobba-crp", "KS", 10),
        ("scopa", "JS", 8),
        ("scopa", "QS", 9),
        ("scopa", "KS", 10),
        ("scopa", "AS", 1),
        ("chkobba", "AS", 1),
        ("chkobba-crp", "7S", 7),
    ],
)
def test_card_values_depend_on_the_profile(rules: str, card: str, value: int) -> None:
    assert legal_captures(rules, [], card).value == value


def test_queen_is_worth_nine_in_scopa_and_takes_three_and_six() -> None:
    assert codes(legal_captures("scopa", ["3D", "6S"], "QH")) == [["3D", "6S"]]
    assert legal_captures("chkobba", ["3D", "6S"], "QH").kind is CaptureKind.NONE


def test_sums_are_listed_in_lexicographic_order_of_table_positions() -> None:
    # Sums to 9 (J in chkobba) on A 2 3 4 5: positions (0,2,4), (1,2,3), (3,4).
    caps = legal_captures("chkobba", ["AD", "2S", "3H", "4C", "5D"], "JH")
    assert caps.kind is CaptureKind.SUM
    assert codes(caps) == [["AD", "3H", "5D"], ["2S", "3H", "4C"], ["4C", "5D"]]
    assert caps.sweep_option is None


def test_capture_cards_are_in_table_order() -> None:
    assert codes(legal_captures("chkobba", ["6S", "KC", "2D"], "QH")) == [["6S", "2D"]]


def test_scopa_sum_must_take_the_most_cards() -> None:
    # Sums to 7 on A 2 3 4 6: {A,6}, {3,4} and {A,2,4}; scopa allows only the three-card set.
    table = ["AD", "2S", "3H", "4C", "6D"]
    assert codes(legal_captures("scopa", table, "7S")) == [["AD", "2S", "4C"]]
    assert codes(legal_captures("chkobba", table, "7S")) == [["AD", "2S", "4C"], ["AD", "6D"], ["3H", "4C"]]


def test_scopa_chooses_among_several_largest_sums() -> None:
    # Q is 9 in scopa: {4,5}, {A,3,5}, {2,3,4}; the two three-card sets remain.
    caps = legal_captures("scopa", ["AD", "2S", "3H", "4C", "5D"], "QH")
    assert codes(caps) == [["AD", "3H", "5D"], ["2S", "3H", "4C"]]


def test_scopa_match_still_beats_a_larger_sum() -> None:
    caps = legal_captures("scopa", ["AD", "2S", "3H"], "3C")
    assert caps.kind is CaptureKind.MATCH and codes(caps) == [["3H"]]


@pytest.mark.parametrize("face", ["JH", "QH", "KH"])
def test_chkobba_crp_face_card_captures_only_by_match(face: str) -> None:
    value = {"JH": 8, "QH": 9, "KH": 10}[face]
    table = ["4D", f"{value - 4}S"]
    caps = legal_captures("chkobba-crp", table, face)
    assert (caps.kind, caps.options, caps.sweep_option) == (CaptureKind.NONE, (), None)
    explicit_off = {"profile": "chkobba-crp", "options": {"face_sums": False}}
    assert legal_captures(explicit_off, table, face).kind is CaptureKind.NONE


def test_chkobba_crp_face_card_still_matches() -> None:
    caps = legal_captures("chkobba-crp", ["4D", "6S", "KD"], "KH")
    assert caps.kind is CaptureKind.MATCH and codes(caps) == [["KD"]]


def test_chkobba_crp_face_sums_option_lets_a_king_take_six_and_four() -> None:
    caps = legal_captures(CRP_FACE_SUMS, ["6D", "4S"], "KH")
    assert (caps.kind, codes(caps), caps.sweep_option) == (CaptureKind.SUM, [["6D", "4S"]], 0)


def test_chkobba_crp_number_card_takes_sums() -> None:
    caps = legal_captures("chkobba-crp", ["2D", "5S"], "7H")
    assert caps.kind is CaptureKind.SUM and codes(caps) == [["2D", "5S"]]


def test_single_card_is_never_a_sum() -> None:
    # A lone card worth less than v is not a capture; sums need two or more cards.
    caps = legal_captures("chkobba", ["3D"], "5S")
    assert caps.kind is CaptureKind.NONE and caps.options == ()


def test_card_without_capture_is_laid() -> None:
    caps = legal_captures("chkobba", ["KD", "QS"], "AH")
    assert (caps.kind, caps.options, caps.sweep_option) == (CaptureKind.NONE, (), None)


def test_empty_table_offers_nothing() -> None:
    caps = legal_captures("scopa", [], "7D")
    assert (caps.kind, caps.options, caps.sweep_option) == (CaptureKind.NONE, (), None)


def test_match_of_the_only_table_card_sweeps() -> None:
    caps = legal_captures("chkobba", ["5D"], "5S")
    assert caps.sweep_option == 0


def test_last_play_never_sweeps() -> None:
    assert legal_captures("chkobba", ["5D"], "5S", last_play=True).sweep_option is None
    assert legal_captures("chkobba", ["2D", "6S"], "QH", last_play=True).sweep_option is None
    assert codes(legal_captures("chkobba", ["2D", "6S"], "QH", last_play=True)) == [["2D", "6S"]]


def test_sweeping_is_the_option_taking_the_whole_table() -> None:
    # K (10) on A 2 3 4: only the whole table, which sweeps. 7 on A 2 4 6: neither option empties it.
    caps = legal_captures("chkobba", ["AD", "2S", "3H", "4C"], "KS")
    assert codes(caps) == [["AD", "2S", "3H", "4C"]] and caps.sweep_option == 0
    caps = legal_captures("chkobba", ["AD", "2S", "4C", "6H"], "7S")
    assert codes(caps) == [["AD", "2S", "4C"], ["AD", "6H"]] and caps.sweep_option is None


def test_partial_match_is_not_a_sweep() -> None:
    caps = legal_captures("chkobba", ["5D", "5C"], "5S")
    assert caps.sweep_option is None


def test_find_compares_a_capture_as_a_set() -> None:
    caps = legal_captures("chkobba", ["AD", "2S", "4C", "6H"], "7S")
    cards = {c.code: c for option in caps.options for c in option}
    assert caps.find([cards["6H"], cards["AD"]]) == 1
    assert caps.find([cards["4C"], cards["2S"], cards["AD"]]) == 0
    assert caps.find([cards["AD"]]) is None


def test_played_card_on_the_table_is_a_duplicate() -> None:
    with pytest.raises(DuplicateCard) as info:
        legal_captures("chkobba", ["5D", "7H"], "7H")
    assert info.value.code == "duplicate-card"
    assert info.value.details["card"] == "7H"


@pytest.mark.parametrize(
    ("table", "field", "bad"),
    [(["5D", "8H"], "table.1", "8H"), (["5D", "5S", "5D"], "table.2", "5D"), (["7d"], "table.0", "7d")],
)
def test_bad_table_names_the_entry(table: list[Any], field: str, bad: str) -> None:
    with pytest.raises((InvalidCard, DuplicateCard)) as info:
        legal_captures("chkobba", table, "7H")
    assert info.value.field == field
    assert info.value.details["card"] == bad


def test_bad_played_card_is_named() -> None:
    with pytest.raises(InvalidCard) as info:
        legal_captures("chkobba", ["5D"], "10H")
    assert info.value.details["card"] == "10H"
    assert "'10H'" in info.value.message


def test_hand_captures_lists_every_hand_card_in_order() -> None:
    table = ["2D", "6S", "5C"]
    every = hand_captures("chkobba", table, ["QH", "5H", "AS"])
    assert every == [legal_captures("chkobba", table, c) for c in ["QH", "5H", "AS"]]
    assert [caps.kind for caps in every] == [CaptureKind.SUM, CaptureKind.MATCH, CaptureKind.NONE]
    assert hand_captures("chkobba", ["5D"], ["5S"], last_play=True)[0].sweep_option is None
    assert hand_captures("scopa", ["5D"], []) == []


def test_hand_captures_rejects_a_bad_hand() -> None:
    with pytest.raises(InvalidInput) as info:
        hand_captures("chkobba", [], ["AD", "2D", "3D", "4D"])
    assert info.value.field == "hand"
    with pytest.raises(DuplicateCard) as dup:
        hand_captures("chkobba", ["AD"], ["AD"])
    assert dup.value.details["card"] == "AD"
    with pytest.raises(InvalidCard) as bad:
        hand_captures("chkobba", [], ["AD", "7X"])
    assert bad.value.field == "hand.1"
