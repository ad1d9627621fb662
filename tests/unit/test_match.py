"""Match decisions (docs/rules.md §8; openapi.yaml ``decideMatch``)."""

import itertools
from typing import Any

import pytest

from service.rules import (
    Decision,
    InvalidOption,
    InvalidScores,
    MatchAlreadyOver,
    Outcome,
    Rules,
    UnknownProfile,
    compare_decision,
    decide_match,
)
from service.rules.profiles import PROFILES
from service.rules.sweeps import _points, work_out_every_profile

CHKOBBA = Rules.of("chkobba")
CRP = Rules.of("chkobba-crp")
SCOPA = Rules.of("scopa")


def decide(rules: Rules, scores: list[Any], round_points: list[Any]) -> tuple[list[int], str, int | None]:
    decision = decide_match(rules, scores, round_points)
    return list(decision.scores), decision.outcome.value, decision.winner


def test_nobody_at_the_target_plays_on() -> None:
    assert decide(CHKOBBA, [10, 12], [3, 4]) == ([13, 16], "continue", None)


def test_worked_example_of_001_reaches_the_target() -> None:
    # 17 + 5 = 22 reaches 21 (docs/rules.md §7).
    assert decide(CHKOBBA, [17, 15], [5, 0]) == ([22, 15], "won", 0)


def test_reaching_the_target_exactly_wins() -> None:
    assert decide(CHKOBBA, [18, 10], [3, 2]) == ([21, 12], "won", 0)
    assert decide(CRP, [8, 10], [2, 1]) == ([10, 11], "won", 1)


def test_highest_total_at_or_above_the_target_wins() -> None:
    assert decide(CHKOBBA, [20, 19], [3, 5]) == ([23, 24], "won", 1)


def test_tie_for_the_highest_total_at_the_target_is_a_tiebreak() -> None:
    assert decide(CHKOBBA, [19, 19], [2, 2]) == ([21, 21], "tiebreak", None)
    assert decide(CHKOBBA, [19, 20], [4, 3]) == ([23, 23], "tiebreak", None)


def test_tiebreak_round_decides_or_ties_again() -> None:
    assert decide(CHKOBBA, [21, 21], [1, 0]) == ([22, 21], "won", 0)
    assert decide(CHKOBBA, [21, 21], [2, 2]) == ([23, 23], "tiebreak", None)
    assert decide(CHKOBBA, [21, 21], [0, 1]) == ([21, 22], "won", 1)


def test_three_sides_tie_at_the_top_is_a_tiebreak() -> None:
    assert decide(CRP, [9, 9, 5], [2, 3, 7]) == ([11, 12, 12], "tiebreak", None)


def test_three_sides_tie_below_the_unique_top_still_wins() -> None:
    assert decide(CRP, [9, 9, 5], [4, 2, 7]) == ([13, 11, 12], "won", 0)


def test_four_players_are_two_sides() -> None:
    assert decide(CHKOBBA, [20, 3], [1, 4]) == ([21, 7], "won", 0)


def test_default_targets_per_profile() -> None:
    assert decide(CHKOBBA, [18, 0], [2, 0]) == ([20, 0], "continue", None)
    assert decide(CRP, [9, 0], [2, 0]) == ([11, 0], "won", 0)


def test_house_target_is_accepted() -> None:
    rules = Rules.of({"profile": "chkobba", "options": {"target": 31}})
    assert decide(rules, [20, 10], [5, 3]) == ([25, 13], "continue", None)
    assert decide(rules, [28, 10], [3, 3]) == ([31, 13], "won", 0)


def test_scopa_is_one_round_with_more_points_winning() -> None:
    assert decide(SCOPA, [0, 0], [4, 2]) == ([4, 2], "won", 0)
    assert decide(SCOPA, [0, 0], [1, 5]) == ([1, 5], "won", 1)


def test_scopa_equal_points_is_a_draw() -> None:
    assert decide(SCOPA, [0, 0], [3, 3]) == ([3, 3], "draw", None)
    assert decide(SCOPA, [0, 0], [1, 1]) == ([1, 1], "draw", None)


def test_scopa_without_a_target_needs_zero_scores_before_the_round() -> None:
    with pytest.raises(InvalidScores) as info:
        decide_match(SCOPA, [1, 0], [3, 2])
    assert info.value.code == "invalid-scores"
    assert info.value.field == "scores"


def test_scopa_with_a_target_is_a_match_to_that_target() -> None:
    rules = Rules.of({"profile": "scopa", "options": {"target": 11}})
    assert decide(rules, [0, 0], [3, 3]) == ([3, 3], "continue", None)
    assert decide(rules, [9, 5], [2, 1]) == ([11, 6], "won", 0)
    assert decide(rules, [9, 10], [2, 1]) == ([11, 11], "tiebreak", None)


def test_scores_that_already_had_a_winner_are_refused() -> None:
    with pytest.raises(MatchAlreadyOver) as info:
        decide_match(CHKOBBA, [21, 10], [0, 3])
    assert info.value.code == "match-over"
    assert info.value.field == "scores"
    with pytest.raises(MatchAlreadyOver):
        decide_match(CRP, [5, 12, 3], [1, 1, 1])


def test_a_tie_at_the_target_is_not_a_finished_match() -> None:
    assert decide(CRP, [12, 12, 3], [0, 1, 0]) == ([12, 13, 3], "won", 1)


@pytest.mark.parametrize(
    ("scores", "round_points", "field"),
    [
        ([0, 0], [1, 2, 3], "round_points"),
        ([0, 0, 0], [1, 2], "round_points"),
        ([0, 0, 0], [1, 2, 0], "scores"),
        ([0], [1], "scores"),
        ([-1, 0], [1, 2], "scores.0"),
        ([0, 0], [1, -2], "round_points.1"),
        ([True, 0], [1, 2], "scores.0"),
        ([0, 0], [1, False], "round_points.1"),
        ([0, 1.0], [1, 2], "scores.1"),
        ([0, "3"], [1, 2], "scores.1"),
        ([0, 0], [None, 2], "round_points.0"),
    ],
)
def test_bad_scores_are_refused(scores: list[Any], round_points: list[Any], field: str) -> None:
    with pytest.raises(InvalidScores) as info:
        decide_match(CHKOBBA, scores, round_points)
    assert info.value.code == "invalid-scores"
    assert info.value.field == field


def test_decision_to_json() -> None:
    assert decide_match(CHKOBBA, [17, 15], [5, 0]).to_json() == {"scores": [22, 15], "outcome": "won", "winner": 0}


def test_correct_claim_has_no_discrepancies() -> None:
    expected = decide_match(CHKOBBA, [17, 15], [5, 0])
    assert compare_decision(expected, "won", 0) == []


def test_wrong_claim_names_outcome_and_winner() -> None:
    expected = Decision((21, 21), Outcome.TIEBREAK, None)
    found = compare_decision(expected, "won", 1)
    assert [d.to_json() for d in found] == [
        {"field": "outcome", "claimed": "won", "expected": "tiebreak"},
        {"field": "winner", "claimed": 1, "expected": None},
    ]
    found = compare_decision(decide_match(CHKOBBA, [17, 15], [5, 0]), "won", 1)
    assert [d.to_json() for d in found] == [{"field": "winner", "claimed": 1, "expected": 0}]


# Rules selection (openapi.yaml "Rules"): profiles and their options.


def test_rules_from_a_profile_id_use_the_defaults() -> None:
    assert (CHKOBBA.profile.id, CHKOBBA.target, CHKOBBA.face_sums) == ("chkobba", 21, True)
    assert (CRP.profile.id, CRP.target, CRP.face_sums, CRP.ties_to_last_capturer, CRP.primiera) == (
        "chkobba-crp",
        11,
        False,
        False,
        False,
    )
    assert (SCOPA.profile.id, SCOPA.target, SCOPA.face_sums) == ("scopa", None, True)


def test_rules_from_an_object_set_the_options() -> None:
    spec = {"profile": "chkobba-crp", "options": {"face_sums": True, "primiera": True, "target": 16}}
    rules = Rules.of(spec)
    assert (rules.face_sums, rules.primiera, rules.ties_to_last_capturer, rules.target) == (True, True, False, 16)
    assert rules.to_json() == spec
    assert Rules.of(rules.to_json()) == rules
    assert Rules.of({"profile": "scopa"}).to_json() == "scopa"


@pytest.mark.parametrize("spec", ["tute", "Chkobba", "", "scopone", {"profile": "tute"}, {"profile": 3}])
def test_unknown_profile_is_refused(spec: Any) -> None:
    with pytest.raises(UnknownProfile) as info:
        Rules.of(spec)
    assert info.value.code == "unknown-profile"
    assert info.value.field == "rules.profile"


@pytest.mark.parametrize("spec", [3, ["chkobba"], True])
def test_rules_of_the_wrong_type_are_refused(spec: Any) -> None:
    with pytest.raises(UnknownProfile) as info:
        Rules.of(spec)
    assert info.value.field == "rules"


@pytest.mark.parametrize(
    ("profile", "option"),
    [
        ("chkobba", "face_sums"),
        ("chkobba", "primiera"),
        ("chkobba", "ties_to_last_capturer"),
        ("scopa", "face_sums"),
        ("scopa", "primiera"),
        ("chkobba-crp", "sevens"),
        ("chkobba-crp", "Target"),
    ],
)
def test_option_the_profile_lacks_is_refused(profile: str, option: str) -> None:
    with pytest.raises(InvalidOption) as info:
        Rules.of({"profile": profile, "options": {option: False}})
    assert info.value.code == "invalid-option"
    assert info.value.field == f"rules.options.{option}"


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("face_sums", "true"),
        ("face_sums", 1),
        ("face_sums", None),
        ("primiera", 0),
        ("ties_to_last_capturer", "yes"),
        ("target", "21"),
        ("target", 21.5),
        ("target", True),
        ("target", None),
    ],
)
def test_option_of_the_wrong_type_is_refused(option: str, value: Any) -> None:
    with pytest.raises(InvalidOption) as info:
        Rules.of({"profile": "chkobba-crp", "options": {option: value}})
    assert info.value.field == f"rules.options.{option}"


@pytest.mark.parametrize("target", [0, -1, -21])
def test_target_must_be_positive(target: int) -> None:
    for profile in ("chkobba", "chkobba-crp", "scopa"):
        with pytest.raises(InvalidOption) as info:
            Rules.of({"profile": profile, "options": {"target": target}})
        assert info.value.field == "rules.options.target"


def test_target_of_one_is_accepted() -> None:
    assert Rules.of({"profile": "chkobba", "options": {"target": 1}}).target == 1


def test_rules_object_with_unknown_fields_is_refused() -> None:
    with pytest.raises(InvalidOption) as info:
        Rules.of({"profile": "chkobba", "option": {"target": 11}})
    assert info.value.field == "rules"


def test_options_must_be_an_object() -> None:
    with pytest.raises(InvalidOption) as info:
        Rules.of({"profile": "chkobba", "options": [["target", 11]]})
    assert info.value.field == "rules.options"


def test_rules_object_needs_a_profile() -> None:
    with pytest.raises(UnknownProfile) as info:
        Rules.of({"options": {"target": 11}})
    assert info.value.field == "rules.profile"


def test_null_options_are_refused() -> None:
    with pytest.raises(InvalidOption) as info:
        Rules.of({"profile": "chkobba", "options": None})
    assert info.value.field == "rules.options"


def test_the_round_points_of_every_rules_a_request_can_name_are_worked_out_before_any_request() -> None:
    """The round points a round can give (§10.19) take up to 60 ms to work out for chkobba-crp's three
    sides, more than any request may cost: gunicorn.conf.py works them out in the master, with
    ``work_out_every_profile``, for every worker to inherit. Every combination of the profiles'
    yes-or-no options, and every number of players, then finds them ready."""
    _points.cache_clear()
    work_out_every_profile()
    ready = _points.cache_info()
    for profile in PROFILES.values():
        flags = [name for name, spec in profile.options.items() if spec.type is bool]
        for values in itertools.product((False, True), repeat=len(flags)):
            rules = Rules.of({"profile": profile.id, "options": dict(zip(flags, values, strict=True))})
            for players in profile.players:
                sides = profile.sides(players)
                decide_match(rules, [0] * sides, [1] + [0] * (sides - 1))
    assert _points.cache_info().misses == ready.misses
    assert _points.cache_info().hits > ready.hits  # the decisions above did ask for them


def test_points_no_round_gives_are_refused_at_round_points() -> None:
    """[21, 1] fits the bounds (22 at most in chkobba) but no round gives it (docs/rules.md §10.17,
    §10.19): 21 points need 17 sweeps at least, and then the other side can neither sweep nor take
    a category. The refusal names round_points."""
    with pytest.raises(InvalidScores) as info:
        decide_match(CHKOBBA, [0, 0], [21, 1])
    assert info.value.code == "invalid-scores"
    assert info.value.field == "round_points"
    assert "no round gives the points [21, 1]" in info.value.message
    assert decide(CHKOBBA, [0, 0], [22, 0]) == ([22, 0], "won", 0)  # all 18 sweeps: every point
