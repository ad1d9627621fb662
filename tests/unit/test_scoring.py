"""Round scoring (docs/rules.md §7; openapi.yaml ``scoreRound``)."""

from typing import Any

import pytest

from service.rules import (
    DECK,
    Card,
    DuplicateCard,
    InvalidCounts,
    Rules,
    SideScore,
    Tally,
    award_most,
    award_sevens,
    compare_breakdown,
    primiera_total,
    score_round,
    tie_taker,
)

CODES = [c.code for c in DECK]
CHKOBBA = Rules.of("chkobba")
CRP = Rules.of("chkobba-crp")
SCOPA = Rules.of("scopa")


def tally(cards: int, diamonds: int, sevens: int, sixes: int, seven_of_diamonds: bool, sweeps: int = 0) -> Tally:
    return Tally(
        cards=cards,
        diamonds=diamonds,
        sevens=sevens,
        sixes=sixes,
        seven_of_diamonds=seven_of_diamonds,
        sweeps=sweeps,
    )


def points(scores: tuple[SideScore, ...], category: str) -> list[int]:
    return [getattr(s, category) for s in scores]


def piles(*first: str) -> tuple[Tally, Tally]:
    """Side 0 holds ``first``, side 1 the rest of the deck, neither with sweeps."""
    pile0 = [Card.parse(c) for c in first]
    pile1 = [c for c in DECK if c not in pile0]
    return Tally.of_pile(pile0, 0), Tally.of_pile(pile1, 0)


# The worked example of 001 (docs/rules.md §7.5).
WORKED_A = tally(22, 6, 2, 3, True, sweeps=1)
WORKED_B = tally(18, 4, 2, 1, False)


def test_worked_example_of_001_scores_five() -> None:
    a, b = score_round(CHKOBBA, [WORKED_A, WORKED_B])
    assert a == SideScore(side=0, cards=1, diamonds=1, sevens=1, seven_of_diamonds=1, sweeps=1, primiera=0, total=5)
    assert b == SideScore(side=1, cards=0, diamonds=0, sevens=0, seven_of_diamonds=0, sweeps=0, primiera=0, total=0)


def test_twenty_cards_each_gives_the_cards_point_to_nobody() -> None:
    scores = score_round(CHKOBBA, [tally(20, 6, 3, 2, True), tally(20, 4, 1, 2, False)])
    assert points(scores, "cards") == [0, 0]
    assert points(scores, "diamonds") == [1, 0]


def test_five_diamonds_each_gives_the_diamonds_point_to_nobody() -> None:
    scores = score_round(CHKOBBA, [tally(21, 5, 3, 2, True), tally(19, 5, 1, 2, False)])
    assert points(scores, "diamonds") == [0, 0]
    assert points(scores, "cards") == [1, 0]


def test_most_sevens_wins_the_sevens_point_in_chkobba() -> None:
    scores = score_round(CHKOBBA, [tally(19, 4, 1, 4, False), tally(21, 6, 3, 0, True)])
    assert points(scores, "sevens") == [0, 1]


def test_sevens_tie_is_settled_by_sixes_in_chkobba() -> None:
    scores = score_round(CHKOBBA, [tally(19, 4, 2, 3, False), tally(21, 6, 2, 1, True)])
    assert points(scores, "sevens") == [1, 0]


def test_sevens_and_sixes_tie_gives_the_point_to_nobody() -> None:
    scores = score_round(CHKOBBA, [tally(19, 4, 2, 2, False), tally(21, 6, 2, 2, True)])
    assert points(scores, "sevens") == [0, 0]
    assert [s.total for s in scores] == [0, 3]


@pytest.mark.parametrize("rules", [CRP, SCOPA])
def test_sevens_are_not_scored_outside_chkobba(rules: Rules) -> None:
    scores = score_round(rules, [tally(19, 4, 4, 4, True), tally(21, 6, 0, 0, False)])
    assert points(scores, "sevens") == [0, 0]
    assert points(scores, "primiera") == [0, 0]
    assert [s.total for s in scores] == [1, 2]


def test_seven_of_diamonds_point_goes_to_its_holder() -> None:
    scores = score_round(SCOPA, [tally(10, 1, 1, 0, True), tally(30, 9, 3, 4, False)])
    assert points(scores, "seven_of_diamonds") == [1, 0]


def test_each_sweep_is_a_point() -> None:
    scores = score_round(SCOPA, [tally(20, 5, 2, 2, True, sweeps=3), tally(20, 5, 2, 2, False, sweeps=4)])
    assert points(scores, "sweeps") == [3, 4]
    assert [s.total for s in scores] == [4, 4]


def test_three_sides_score_alone_and_most_means_strictly_most() -> None:
    tallies = [tally(14, 4, 2, 1, True, sweeps=1), tally(14, 4, 1, 2, False), tally(12, 2, 1, 1, False, sweeps=2)]
    scores = score_round(CRP, tallies)
    assert points(scores, "cards") == [0, 0, 0]
    assert points(scores, "diamonds") == [0, 0, 0]
    assert [s.total for s in scores] == [2, 0, 2]
    assert [s.side for s in scores] == [0, 1, 2]


def test_three_sides_with_a_clear_leader() -> None:
    tallies = [tally(15, 5, 2, 1, True), tally(13, 3, 1, 2, False), tally(12, 2, 1, 1, False)]
    assert [s.total for s in score_round(CRP, tallies)] == [3, 0, 0]


# chkobba-crp options.

TIES = Rules.of({"profile": "chkobba-crp", "options": {"ties_to_last_capturer": True}})
TIED = [tally(20, 5, 2, 2, True), tally(20, 5, 2, 2, False)]


def test_ties_go_to_the_last_capturer_with_the_option() -> None:
    scores = score_round(TIES, TIED, last_capturer=1)
    assert points(scores, "cards") == [0, 1]
    assert points(scores, "diamonds") == [0, 1]
    assert [s.total for s in scores] == [1, 2]


def test_the_awards_scoring_makes_are_public_for_the_strategy() -> None:
    """``award_most``, ``award_sevens`` and ``tie_taker`` are the rules ``score_round`` applies, from
    each side's values; the move hints' race asks them of every final count it weighs."""
    assert award_most([21, 19]) == 0 and award_most([12, 14, 14]) is None
    assert award_most([20, 20], ties_to=1) == 1 and award_most([14, 14, 12], ties_to=2) is None
    assert award_most([13, 14, 13], ties_to=0) == 1  # a strict majority is no tie
    assert tie_taker(TIES, 1) == 1 and tie_taker(TIES, None) is None and tie_taker(CRP, 1) is None
    assert award_sevens([3, 1], [0, 4], True) == 0
    assert award_sevens([2, 2], [3, 1], True) == 0 and award_sevens([2, 2], [3, 1], False) is None
    assert award_sevens([2, 2], [2, 2], True) is None
    assert award_sevens([2, 1, 1], [0, 2, 2], True) == 0 and award_sevens([1, 2, 1], [4, 0, 0], True) == 1


def test_ties_go_to_nobody_without_the_option() -> None:
    scores = score_round(CRP, TIED, last_capturer=1)
    assert points(scores, "cards") == [0, 0] and points(scores, "diamonds") == [0, 0]


def test_ties_go_to_nobody_when_the_last_capturer_is_unknown() -> None:
    scores = score_round(TIES, TIED)
    assert points(scores, "cards") == [0, 0] and points(scores, "diamonds") == [0, 0]


def test_ties_go_to_nobody_when_the_last_capturer_is_not_tied() -> None:
    tallies = [tally(15, 4, 2, 1, True), tally(15, 4, 1, 2, False), tally(10, 2, 1, 1, False)]
    scores = score_round(TIES, tallies, last_capturer=2)
    assert points(scores, "cards") == [0, 0, 0] and points(scores, "diamonds") == [0, 0, 0]
    scores = score_round(TIES, tallies, last_capturer=1)
    assert points(scores, "cards") == [0, 1, 0] and points(scores, "diamonds") == [0, 1, 0]


def test_ties_option_does_not_touch_a_clear_majority() -> None:
    scores = score_round(TIES, [tally(21, 6, 2, 2, True), tally(19, 4, 2, 2, False)], last_capturer=1)
    assert points(scores, "cards") == [1, 0] and points(scores, "diamonds") == [1, 0]


PRIMIERA = Rules.of({"profile": "chkobba-crp", "options": {"primiera": True}})


def test_primiera_total_sums_the_best_card_per_suit() -> None:
    pile = [Card.parse(c) for c in ["6D", "7D", "AH", "KS", "QS", "2C", "JC"]]
    assert primiera_total(pile) == 21 + 16 + 10 + 12
    assert primiera_total([Card.parse(c) for c in ["7D", "7H", "7S", "7C"]]) == 84
    assert primiera_total([Card.parse(c) for c in ["5D", "4H", "3S", "JC"]]) == 15 + 14 + 13 + 10


def test_primiera_total_needs_all_four_suits() -> None:
    assert primiera_total([Card.parse(c) for c in ["7D", "7H", "7S"]]) is None
    assert primiera_total([]) is None


def test_primiera_goes_to_the_highest_total() -> None:
    scores = score_round(PRIMIERA, piles("7D", "7H", "7S", "7C", "KD", "KH"))
    assert points(scores, "primiera") == [1, 0]


def test_side_lacking_a_suit_cannot_win_primiera() -> None:
    # Side 1 holds every 7 of D, H and S but no club; side 0 qualifies with K K K and 7C (51).
    first = ["KD", "KH", "KS", *(c for c in CODES if c.endswith("C"))]
    assert primiera_total([Card.parse(c) for c in first]) == 51
    scores = score_round(PRIMIERA, piles(*first))
    assert points(scores, "primiera") == [1, 0]


def test_primiera_tie_gives_nobody_the_point() -> None:
    scores = score_round(PRIMIERA, piles("7D", "7H", "6S", "6C"))
    assert points(scores, "primiera") == [0, 0]


def test_primiera_with_nobody_qualifying_gives_nobody_the_point() -> None:
    scores = score_round(PRIMIERA, piles(*(c for c in CODES if c[1] in "DH")))
    assert points(scores, "primiera") == [0, 0]


def test_primiera_off_by_default() -> None:
    scores = score_round(CRP, piles("7D", "7H", "7S", "7C", "KD", "KH"))
    assert points(scores, "primiera") == [0, 0]


def test_piles_sharing_a_card_are_refused() -> None:
    # AH twice and 2H nowhere: the counts add up, the piles do not partition the deck.
    pile0 = [Card.parse(c) for c in CODES[:20]]
    pile1 = [Card.parse(c) for c in CODES[20:] + ["AH"]]
    pile0.remove(Card.parse("2H"))
    with pytest.raises(DuplicateCard) as info:
        score_round(CHKOBBA, [Tally.of_pile(pile0, 0), Tally.of_pile(pile1, 0)])
    assert info.value.code == "duplicate-card"
    assert info.value.details["card"] == "AH"
    assert info.value.field == "sides.1.captured"


def test_primiera_needs_piles_not_counts() -> None:
    with pytest.raises(InvalidCounts) as info:
        score_round(PRIMIERA, [tally(20, 5, 2, 2, True), tally(20, 5, 2, 2, False)])
    assert info.value.code == "inconsistent-counts"
    assert info.value.field == "sides"


def test_tally_of_a_pile_counts_its_cards() -> None:
    t = Tally.of_pile([Card.parse(c) for c in ["7D", "6D", "6S", "7C", "KD", "AH"]], 1)
    assert (t.cards, t.diamonds, t.sevens, t.sixes, t.seven_of_diamonds, t.sweeps) == (6, 3, 2, 2, True, 1)


# Counts that cannot be a finished round.


@pytest.mark.parametrize(
    ("tallies", "category"),
    [
        ([tally(22, 6, 2, 3, True), tally(17, 4, 2, 1, False)], "cards"),
        ([tally(22, 6, 2, 3, True), tally(18, 5, 2, 1, False)], "diamonds"),
        ([tally(22, 6, 3, 3, True), tally(18, 4, 2, 1, False)], "sevens"),
        ([tally(22, 6, 2, 3, True), tally(18, 4, 2, 0, False)], "sixes"),
        ([tally(22, 6, 2, 3, False), tally(18, 4, 2, 1, False)], "seven_of_diamonds"),
        ([tally(22, 6, 2, 3, True), tally(18, 4, 2, 1, True)], "seven_of_diamonds"),
    ],
)
def test_counts_must_add_up_to_the_deck(tallies: list[Tally], category: str) -> None:
    with pytest.raises(InvalidCounts) as info:
        score_round(CHKOBBA, tallies)
    assert info.value.code == "inconsistent-counts"
    assert info.value.field == "sides"
    assert info.value.details["category"] == category


def test_more_sweeps_than_half_the_cards_is_inconsistent() -> None:
    with pytest.raises(InvalidCounts) as info:
        score_round(CHKOBBA, [tally(36, 9, 4, 4, True), tally(4, 1, 0, 0, False, sweeps=3)])
    assert info.value.field == "sides.1.sweeps"


def test_more_diamonds_than_cards_is_inconsistent() -> None:
    with pytest.raises(InvalidCounts) as info:
        score_round(CHKOBBA, [tally(37, 6, 4, 4, True), tally(3, 4, 0, 0, False)])
    assert info.value.field == "sides.1"


def test_seven_of_diamonds_without_a_seven_or_a_diamond_is_inconsistent() -> None:
    with pytest.raises(InvalidCounts) as info:
        score_round(CHKOBBA, [tally(20, 0, 1, 2, True), tally(20, 10, 3, 2, False)])
    assert info.value.field == "sides.0"


def test_negative_count_is_inconsistent() -> None:
    with pytest.raises(InvalidCounts) as info:
        score_round(CHKOBBA, [tally(41, 10, 4, 4, True), tally(-1, 0, 0, 0, False)])
    assert info.value.field == "sides.1.cards"


def test_counts_that_cannot_fit_their_cards_are_inconsistent() -> None:
    # Side 0: 3 cards holding 3 diamonds (not 7D) and a seven; only 7D or 6D could count twice.
    with pytest.raises(InvalidCounts) as info:
        score_round(CHKOBBA, [tally(3, 3, 1, 0, False), tally(37, 7, 3, 4, True)])
    assert info.value.field == "sides"
    # With a six among the diamonds, 6D can be both: 2 diamonds, a seven and a six fit in 3 cards.
    scores = score_round(CHKOBBA, [tally(3, 2, 1, 1, False), tally(37, 8, 3, 3, True)])
    assert [s.total for s in scores] == [0, 4]


def test_two_cards_are_one_capture_of_two_cards_of_one_value() -> None:
    """docs/rules.md §10.18: a pair, so at most one diamond, and sevens or sixes two at a time."""
    for counts in [(2, 2, 0, 0, False), (2, 1, 1, 0, False), (2, 0, 1, 1, False), (2, 1, 1, 1, True)]:
        with pytest.raises(InvalidCounts) as info:
            other = tally(38, 10 - counts[1], 4 - counts[2], 4 - counts[3], not counts[4])
            score_round(CHKOBBA, [tally(*counts), other])
        assert info.value.field == "sides.0"
    scores = score_round(CHKOBBA, [tally(2, 1, 2, 0, True), tally(38, 9, 2, 4, False)])
    assert scores[0].seven_of_diamonds == 1


@pytest.mark.parametrize(("rules", "sides"), [(CHKOBBA, 3), (CHKOBBA, 1), (SCOPA, 3), (CRP, 1), (CRP, 4)])
def test_wrong_number_of_sides_is_refused(rules: Rules, sides: int) -> None:
    tallies = [tally(40, 10, 4, 4, True), *(tally(0, 0, 0, 0, False) for _ in range(sides - 1))]
    with pytest.raises(InvalidCounts) as info:
        score_round(rules, tallies)
    assert info.value.field == "sides"


def test_last_capturer_must_be_a_side() -> None:
    with pytest.raises(InvalidCounts) as info:
        score_round(TIES, TIED, last_capturer=2)
    assert info.value.field == "last_capturer"


# Verdicts on a claimed breakdown.


def test_matching_claim_has_no_discrepancies() -> None:
    expected = score_round(CHKOBBA, [WORKED_A, WORKED_B])
    assert compare_breakdown(expected, [s.to_json() for s in expected]) == []


def test_claim_discrepancies_name_side_category_and_total() -> None:
    expected = score_round(CHKOBBA, [WORKED_A, WORKED_B])
    claimed: list[dict[str, Any]] = [s.to_json() for s in expected]
    claimed[1]["sevens"] = 1
    claimed[1]["total"] = 1
    claimed[0]["sweeps"] = 2
    found = compare_breakdown(expected, claimed)
    assert [d.to_json() for d in found] == [
        {"side": 0, "category": "sweeps", "claimed": 2, "expected": 1},
        {"side": 1, "category": "sevens", "claimed": 1, "expected": 0},
        {"side": 1, "category": "total", "claimed": 1, "expected": 0},
    ]


def test_claim_with_a_wrong_total_only() -> None:
    expected = score_round(CHKOBBA, [WORKED_A, WORKED_B])
    claimed = [s.to_json() for s in expected]
    claimed[0]["total"] = 6
    assert [d.to_json() for d in compare_breakdown(expected, claimed)] == [
        {"side": 0, "category": "total", "claimed": 6, "expected": 5}
    ]


def test_claim_for_the_wrong_number_of_sides_is_refused() -> None:
    expected = score_round(CHKOBBA, [WORKED_A, WORKED_B])
    with pytest.raises(InvalidCounts) as info:
        compare_breakdown(expected, [expected[0].to_json()])
    assert info.value.field == "claimed"


def test_claim_with_sides_out_of_order_is_refused() -> None:
    expected = score_round(CHKOBBA, [WORKED_A, WORKED_B])
    with pytest.raises(InvalidCounts) as info:
        compare_breakdown(expected, [expected[1].to_json(), expected[0].to_json()])
    assert info.value.field == "claimed"


def test_a_claim_that_leaves_out_a_category_is_malformed_not_an_agreement() -> None:
    tallies = [Tally.of_pile(DECK[:20], 0), Tally.of_pile(DECK[20:], 0)]
    breakdown = score_round("chkobba", tallies)
    partial = [{"side": 0}, {"side": 1}]
    with pytest.raises(InvalidCounts) as caught:
        compare_breakdown(breakdown, partial)
    assert "lacks cards" in caught.value.message


def test_score_round_takes_a_profile_id_like_every_other_entry_point() -> None:
    tallies = [Tally.of_pile(DECK[:20], 0), Tally.of_pile(DECK[20:], 0)]
    assert score_round("scopa", tallies) == score_round(Rules.of("scopa"), tallies)


# Each refusal names the count, side and category at fault (so that a client can point at it).


def test_a_negative_count_is_named_not_a_zero_count_before_it() -> None:
    """The field of a negative count is that count's, even when counts before it are 0 (they are
    allowed): side 1's sweeps, not its cards."""
    with pytest.raises(InvalidCounts) as info:
        score_round(CHKOBBA, [tally(40, 10, 4, 4, True), tally(0, 0, 0, 0, False, sweeps=-1)])
    assert info.value.field == "sides.1.sweeps"
    assert "sweeps cannot be negative" in info.value.message


def test_too_many_sweeps_say_how_many_cards_they_need() -> None:
    """Each sweep takes at least two cards (the card played and one more), so the refusal of 3 sweeps
    in 4 cards says that 3 sweeps need 6."""
    with pytest.raises(InvalidCounts) as info:
        score_round(CHKOBBA, [tally(36, 9, 4, 4, True), tally(4, 1, 0, 0, False, sweeps=3)])
    assert "3 sweeps need at least 6 captured cards, not 4" in info.value.message


def test_more_sevens_and_sixes_than_cards_is_inconsistent_for_that_side() -> None:
    """Sevens and sixes are distinct cards: 2 of each cannot fit in side 1's 3 cards, which is that
    side's fault (its field), not a clash between the sides' counts."""
    with pytest.raises(InvalidCounts) as info:
        score_round(CHKOBBA, [tally(37, 10, 2, 2, True), tally(3, 0, 2, 2, False)])
    assert info.value.field == "sides.1"
    assert "more special cards than cards" in info.value.message


def test_sweeps_no_round_makes_are_refused_as_sweeps() -> None:
    """18 sweeps for one side and 1 for the other: each fits its own cards, but no round makes 19
    (docs/rules.md §10.17); the refusal names the category, sweeps."""
    with pytest.raises(InvalidCounts) as info:
        score_round(CHKOBBA, [tally(38, 10, 4, 4, True, sweeps=18), tally(2, 0, 0, 0, False, sweeps=1)])
    assert info.value.field == "sides"
    assert info.value.details == {"category": "sweeps"}


def test_all_eighteen_sweeps_without_every_card_names_the_side_s_cards() -> None:
    """A side that swept at every other play left the others nothing to capture (docs/rules.md
    §10.17): 18 sweeps with 38 cards is refused at that side's cards."""
    with pytest.raises(InvalidCounts) as info:
        score_round(CHKOBBA, [tally(38, 10, 4, 4, True, sweeps=18), tally(2, 0, 0, 0, False)])
    assert info.value.field == "sides.0.cards"
    # With every card, the same 18 sweeps are a round: all the points are side 0's.
    full = score_round(CHKOBBA, [tally(40, 10, 4, 4, True, sweeps=18), tally(0, 0, 0, 0, False)])
    assert [s.total for s in full] == [22, 0]


def without_sevens(cards: int, diamonds: int, seven_of_diamonds: bool, sweeps: int = 0) -> Tally:
    return Tally(cards, diamonds, 0, 0, seven_of_diamonds, sweeps, sevens_given=False)


@pytest.mark.parametrize("rules", [SCOPA, CRP])
def test_counts_may_leave_out_the_sevens_where_the_profile_does_not_score_them(rules: Rules) -> None:
    """docs/rules.md §10.7: only a profile that scores the sevens needs them."""
    given = score_round(rules, [WORKED_A, WORKED_B])
    left_out = score_round(rules, [without_sevens(22, 6, True, sweeps=1), without_sevens(18, 4, False)])
    assert left_out == given
    assert [s.total for s in left_out] == [4, 0]  # cards, diamonds, 7D, a sweep; no sevens point
    mixed = score_round(rules, [without_sevens(22, 6, True, sweeps=1), WORKED_B])
    assert mixed == given


def test_chkobba_counts_need_the_sevens_and_sixes() -> None:
    with pytest.raises(InvalidCounts) as info:
        score_round(CHKOBBA, [WORKED_A, without_sevens(18, 4, False)])
    assert info.value.field == "sides.1.counts.sevens" and "chkobba scores the sevens" in info.value.message


def test_counts_without_sevens_are_still_refused_when_no_sevens_make_them_possible() -> None:
    # Side 1 says it holds all four sevens and sixes but not 7D, which side 0 holds: side 0's sevens,
    # left out, would need to be at least one, and there is none left.
    with pytest.raises(InvalidCounts) as info:
        score_round(SCOPA, [without_sevens(20, 5, True), tally(20, 5, 4, 4, False)])
    assert info.value.field == "sides" and "whatever sevens and sixes" in info.value.message
    # Two cards are a pair, whatever the sevens: two diamonds cannot be one.
    with pytest.raises(InvalidCounts) as info:
        score_round(SCOPA, [without_sevens(2, 2, False), without_sevens(38, 8, True)])
    assert info.value.field == "sides.0"
    # Four diamonds that are not 7D, and room for nothing else, beside a side that can hold every six.
    score_round(SCOPA, [without_sevens(4, 4, False), without_sevens(36, 6, True)])
    # Four cards, four diamonds, and this side must hold a seven: it cannot fit beside them.
    with pytest.raises(InvalidCounts):
        score_round(SCOPA, [without_sevens(4, 4, False), tally(36, 6, 3, 4, True)])


def test_a_partial_pile_is_refused_for_its_total_first() -> None:
    """The most basic reason first: five cards are not a round's 40, before 2C 5H is not a pair (§10.18)."""
    two, three = [Card.parse(c) for c in ("2C", "5H")], [Card.parse(c) for c in ("7D", "7S", "6D")]
    with pytest.raises(InvalidCounts) as info:
        score_round(CHKOBBA, [Tally.of_pile(two, 0), Tally.of_pile(three, 0)])
    assert info.value.message == "the sides' cards add up to 5, not 40" and info.value.field == "sides"
