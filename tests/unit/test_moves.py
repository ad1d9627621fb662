"""Applying one play (docs/rules.md §4, §5; openapi.yaml ``applyMove``)."""

import pytest

from service.rules import (
    AmbiguousCapture,
    CaptureKind,
    Card,
    CardNotHeld,
    DuplicateCard,
    IllegalMove,
    InvalidCard,
    InvalidInput,
    MoveError,
    Rules,
    apply_play,
    apply_play_of,
    legal_captures,
    table_after,
)


def codes(cards: tuple[object, ...]) -> list[str]:
    return [str(c) for c in cards]


def test_card_without_capture_is_laid_on_the_table() -> None:
    result = apply_play("chkobba", ["KD", "QS"], ["AH", "2S"], "AH")
    assert result.kind is CaptureKind.NONE
    assert codes(result.table) == ["KD", "QS", "AH"]
    assert codes(result.hand) == ["2S"]
    assert result.taken == () and result.captured == () and result.sweep is False


def test_table_after_is_the_table_a_play_leaves() -> None:
    """``table_after`` is what ``apply_play`` leaves on the table: the taken cards go, the others keep
    their order, and a card that takes nothing is laid last."""
    table = tuple(Card.parse(c) for c in ["2D", "KC", "6S", "AH"])
    taken = apply_play("chkobba", table, ["QH"], "QH", ["2D", "6S"]).taken
    assert codes(table_after(table, Card.parse("QH"), taken)) == ["KC", "AH"]
    assert codes(table_after(table, Card.parse("5C"), ())) == ["2D", "KC", "6S", "AH", "5C"]


def test_laid_card_accepts_an_empty_capture() -> None:
    result = apply_play("chkobba", ["KD"], ["AH"], "AH", [])
    assert result.kind is CaptureKind.NONE and codes(result.table) == ["KD", "AH"]


def test_capture_takes_the_cards_and_leaves_the_rest_in_order() -> None:
    result = apply_play("chkobba", ["2D", "KC", "6S", "AH"], ["QH", "3S"], "QH", ["2D", "6S"])
    assert result.kind is CaptureKind.SUM
    assert codes(result.taken) == ["2D", "6S"]
    assert codes(result.captured) == ["QH", "2D", "6S"]
    assert codes(result.table) == ["KC", "AH"]
    assert codes(result.hand) == ["3S"]
    assert result.sweep is False


def test_capture_emptying_the_table_is_a_sweep() -> None:
    result = apply_play("chkobba", ["2D", "6S"], ["QH"], "QH", ["2D", "6S"])
    assert result.sweep is True and result.table == ()


def test_last_play_emptying_the_table_is_not_a_sweep() -> None:
    result = apply_play("chkobba", ["2D", "6S"], ["QH"], "QH", ["2D", "6S"], last_play=True)
    assert result.sweep is False and result.table == () and codes(result.captured) == ["QH", "2D", "6S"]


def test_capture_is_compared_as_a_set() -> None:
    result = apply_play("chkobba", ["2D", "KC", "6S"], ["QH"], "QH", ["6S", "2D"])
    assert codes(result.taken) == ["2D", "6S"]


def test_capture_may_be_omitted_with_exactly_one_option() -> None:
    result = apply_play("chkobba", ["2D", "KC", "6S"], ["QH"], "QH")
    assert result.kind is CaptureKind.SUM and codes(result.taken) == ["2D", "6S"]
    result = apply_play("chkobba", ["5D"], ["5S"], "5S")
    assert result.kind is CaptureKind.MATCH and codes(result.taken) == ["5D"] and result.sweep is True


def test_omitted_capture_with_several_options_is_ambiguous() -> None:
    table = ["5D", "2H", "5S"]
    with pytest.raises(AmbiguousCapture) as info:
        apply_play("chkobba", table, ["5H"], "5H")
    assert info.value.code == "ambiguous-capture"
    assert info.value.field == "capture"
    assert info.value.details["options"] == legal_captures("chkobba", table, "5H")
    assert codes(info.value.details["options"].options[1]) == ["5S"]
    assert info.value.details["legal"] == [legal_captures("chkobba", table, "5H")]


def test_empty_capture_when_capture_is_mandatory_is_illegal() -> None:
    with pytest.raises(IllegalMove) as info:
        apply_play("chkobba", ["2D", "6S"], ["QH", "AC"], "QH", [])
    assert info.value.code == "illegal-move"
    assert info.value.field == "capture"
    assert info.value.details["options"] == legal_captures("chkobba", ["2D", "6S"], "QH")
    assert info.value.details["legal"] == [legal_captures("chkobba", ["2D", "6S"], c) for c in ("QH", "AC")]


def test_sum_instead_of_a_match_is_illegal() -> None:
    with pytest.raises(IllegalMove) as info:
        apply_play("chkobba", ["3D", "4S", "7C"], ["7H"], "7H", ["3D", "4S"])
    assert info.value.code == "illegal-move"
    assert [codes(o) for o in info.value.details["options"].options] == [["7C"]]


def test_match_takes_only_one_card() -> None:
    with pytest.raises(IllegalMove) as info:
        apply_play("chkobba", ["5D", "5S"], ["5H"], "5H", ["5D", "5S"])
    assert [codes(o) for o in info.value.details["options"].options] == [["5D"], ["5S"]]


def test_capture_of_a_card_not_on_the_table_is_illegal_and_named() -> None:
    with pytest.raises(IllegalMove) as info:
        apply_play("chkobba", ["2D", "6S"], ["QH"], "QH", ["2D", "6C"])
    assert "6C" in info.value.message
    assert [codes(o) for o in info.value.details["options"].options] == [["2D", "6S"]]


def test_capture_of_a_wrong_sum_is_illegal() -> None:
    with pytest.raises(IllegalMove) as info:
        apply_play("chkobba", ["2D", "5S", "6C"], ["QH"], "QH", ["2D", "5S"])
    assert [codes(o) for o in info.value.details["options"].options] == [["2D", "6C"]]


def test_capture_of_a_subset_of_a_sum_is_illegal() -> None:
    with pytest.raises(IllegalMove):
        apply_play("chkobba", ["2D", "6S"], ["QH"], "QH", ["2D"])


def test_scopa_smaller_sum_is_illegal() -> None:
    with pytest.raises(IllegalMove) as info:
        apply_play("scopa", ["AD", "2S", "3H", "4C", "6D"], ["7S"], "7S", ["AD", "6D"])
    assert [codes(o) for o in info.value.details["options"].options] == [["AD", "2S", "4C"]]


def test_chkobba_crp_face_sum_is_illegal() -> None:
    with pytest.raises(IllegalMove) as info:
        apply_play("chkobba-crp", ["6D", "4S"], ["KH"], "KH", ["6D", "4S"])
    assert info.value.details["options"].kind is CaptureKind.NONE
    assert info.value.details["options"].options == ()


def test_capture_given_for_a_card_that_takes_nothing_is_illegal() -> None:
    with pytest.raises(IllegalMove) as info:
        apply_play("chkobba", ["KD", "QS"], ["AH"], "AH", ["KD"])
    assert info.value.details["options"].options == ()


def test_card_not_in_the_hand_is_refused_with_every_card_s_options() -> None:
    table = ["2D", "6S", "5C"]
    with pytest.raises(CardNotHeld) as info:
        apply_play("chkobba", table, ["QH", "5H", "AS"], "7D", ["2D", "5C"])
    assert info.value.code == "card-not-held"
    assert info.value.field == "card"
    assert info.value.details["card"] == "7D"
    assert info.value.details["options"] is None
    assert info.value.details["legal"] == [legal_captures("chkobba", table, c) for c in ["QH", "5H", "AS"]]


def test_error_options_respect_the_last_play() -> None:
    with pytest.raises(IllegalMove) as info:
        apply_play("chkobba", ["5D"], ["5S"], "5S", [], last_play=True)
    assert info.value.details["options"].sweep_option is None
    assert info.value.details["legal"] == [legal_captures("chkobba", ["5D"], "5S", last_play=True)]


def test_move_errors_are_distinct() -> None:
    codes_by_class = {cls: cls.code for cls in (IllegalMove, AmbiguousCapture, CardNotHeld)}
    assert len(set(codes_by_class.values())) == 3
    assert all(issubclass(cls, MoveError) for cls in codes_by_class)
    assert not issubclass(AmbiguousCapture, IllegalMove) and not issubclass(CardNotHeld, IllegalMove)


def test_hand_of_more_than_three_cards_is_refused() -> None:
    with pytest.raises(InvalidInput) as info:
        apply_play("chkobba", [], ["AD", "2D", "3D", "4D"], "AD")
    assert info.value.field == "hand"


def test_card_both_on_the_table_and_in_the_hand_is_refused() -> None:
    with pytest.raises(DuplicateCard) as info:
        apply_play("chkobba", ["5D", "KS"], ["KS", "AH"], "AH")
    assert info.value.code == "duplicate-card"
    assert info.value.details["card"] == "KS"


def test_bad_capture_entries_are_named() -> None:
    with pytest.raises(DuplicateCard) as info:
        apply_play("chkobba", ["2D", "6S"], ["QH"], "QH", ["2D", "2D"])
    assert info.value.field == "capture.1"
    with pytest.raises(InvalidCard) as invalid:
        apply_play("chkobba", ["2D", "6S"], ["QH"], "QH", ["2D", "6s"])
    assert invalid.value.field == "capture.1" and invalid.value.details["card"] == "6s"


def test_apply_play_of_parsed_values_is_apply_play() -> None:
    table = tuple(map(Card.parse, ("7S", "4C", "3D")))
    hand = tuple(map(Card.parse, ("7H", "AD")))
    rules = Rules.of("chkobba")
    taken = (Card.parse("7S"),)
    assert apply_play_of(rules, table, hand, hand[0], taken, False) == apply_play("chkobba", table, hand, "7H", ["7S"])


def test_apply_play_of_still_refuses_a_card_both_on_the_table_and_in_the_hand() -> None:
    table, hand = (Card.parse("7S"), Card.parse("AD")), (Card.parse("AD"),)
    with pytest.raises(DuplicateCard) as info:
        apply_play_of(Rules.of("chkobba"), table, hand, hand[0], None, False)
    assert info.value.details["places"] == ["table", "hand"]
