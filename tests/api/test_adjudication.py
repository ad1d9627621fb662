"""legalCaptures, applyMove, scoreRound and decideMatch, with bodies worked out by hand from docs/rules.md."""

from __future__ import annotations

import pytest

from ..support import CANONICAL, counts, line, ok, problem


def captures(client, rules, table, hand, **extra):
    return ok(client.post("/v1/captures", json={"rules": rules, "table": table, "hand": hand, **extra}))


def move(client, rules, table, hand, play, **extra):
    return client.post("/v1/moves", json={"rules": rules, "table": table, "hand": hand, "play": play, **extra})


# ---- legalCaptures ------------------------------------------------------------------------------


def test_worked_example_queen_takes_two_and_six_and_sweeps(client):
    """docs/rules.md §7.5 worked example (001, section 06): Q is 8 in chkobba, 2+6=8; J (9) cannot."""
    body = captures(client, "chkobba", ["2D", "6S"], ["QH", "JC", "3H"])
    assert body == {
        "moves": [
            {"card": "QH", "value": 8, "kind": "sum", "options": [{"capture": ["2D", "6S"], "sweep": True}]},
            {"card": "JC", "value": 9, "kind": "none", "options": []},
            {"card": "3H", "value": 3, "kind": "none", "options": []},
        ]
    }


def test_last_play_never_sweeps(client):
    body = captures(client, "chkobba", ["2D", "6S"], ["QH"], last_play=True)
    assert body == {
        "moves": [{"card": "QH", "value": 8, "kind": "sum", "options": [{"capture": ["2D", "6S"], "sweep": False}]}]
    }
    single = captures(client, "chkobba", ["7S"], ["7D"], last_play=True)
    assert single["moves"][0]["options"] == [{"capture": ["7S"], "sweep": False}]


def test_single_match_on_a_one_card_table_sweeps(client):
    body = captures(client, "chkobba", ["7S"], ["7D"])
    assert body["moves"] == [
        {"card": "7D", "value": 7, "kind": "match", "options": [{"capture": ["7S"], "sweep": True}]}
    ]


def test_match_comes_first_and_takes_exactly_one(client):
    """§4.1: with a 7 on the table, a 7 must take one 7 (either), never 4+3."""
    body = captures(client, "chkobba", ["7S", "4C", "3D", "7H"], ["7D"])
    assert body["moves"] == [
        {
            "card": "7D",
            "value": 7,
            "kind": "match",
            "options": [{"capture": ["7S"], "sweep": False}, {"capture": ["7H"], "sweep": False}],
        }
    ]


def test_options_in_lexicographic_order_of_table_positions(client):
    """Sums of 7 on A 2 3 4 5 6: positions (0,1,3) < (0,5) < (1,4) < (2,3)."""
    body = captures(client, "chkobba", ["AD", "2H", "3S", "4C", "5D", "6H"], ["7C"])
    assert body["moves"][0]["kind"] == "sum"
    assert [o["capture"] for o in body["moves"][0]["options"]] == [
        ["AD", "2H", "4C"],
        ["AD", "6H"],
        ["2H", "5D"],
        ["3S", "4C"],
    ]
    assert not any(o["sweep"] for o in body["moves"][0]["options"])


def test_options_follow_the_table_order_given(client):
    """The same cards in reverse order: (0,5) < (1,4) < (2,3) < (2,4,5), each capture in table order."""
    body = captures(client, "chkobba", ["6H", "5D", "4C", "3S", "2H", "AD"], ["7C"])
    assert [o["capture"] for o in body["moves"][0]["options"]] == [
        ["6H", "AD"],
        ["5D", "2H"],
        ["4C", "3S"],
        ["4C", "2H", "AD"],
    ]


def test_sum_taking_the_whole_table_is_the_sweeping_option(client):
    body = captures(client, "chkobba", ["AD", "2D", "3C", "2S"], ["QH"])
    assert body["moves"][0]["options"] == [{"capture": ["AD", "2D", "3C", "2S"], "sweep": True}]


def test_scopa_keeps_only_the_sums_with_most_cards(client):
    """§4.2: K (10) on 4 6 A 2 3: 4+6, 4+A+2+3, 6+A+3; scopa allows only the four-card set."""
    table = ["4C", "6D", "AH", "2S", "3C"]
    scopa = captures(client, "scopa", table, ["KS"])
    assert scopa["moves"] == [
        {"card": "KS", "value": 10, "kind": "sum", "options": [{"capture": ["4C", "AH", "2S", "3C"], "sweep": False}]}
    ]
    chkobba = captures(client, "chkobba", table, ["KS"])
    assert [o["capture"] for o in chkobba["moves"][0]["options"]] == [
        ["4C", "6D"],
        ["4C", "AH", "2S", "3C"],
        ["6D", "AH", "3C"],
    ]


def test_face_values_and_face_sums_per_profile(client):
    """Q is 8 and J 9 in chkobba; J 8 and Q 9 in chkobba-crp, whose faces take sums only with face_sums."""
    table = ["4D", "4S"]
    chkobba = captures(client, "chkobba", table, ["QH", "JH"])["moves"]
    assert [(m["card"], m["value"], m["kind"]) for m in chkobba] == [("QH", 8, "sum"), ("JH", 9, "none")]
    crp = captures(client, "chkobba-crp", table, ["QH", "JH"])["moves"]
    assert [(m["card"], m["value"], m["kind"], m["options"]) for m in crp] == [
        ("QH", 9, "none", []),
        ("JH", 8, "none", []),
    ]
    rules = {"profile": "chkobba-crp", "options": {"face_sums": True}}
    crp_sums = captures(client, rules, table, ["QH", "JH"])["moves"]
    assert crp_sums == [
        {"card": "QH", "value": 9, "kind": "none", "options": []},
        {"card": "JH", "value": 8, "kind": "sum", "options": [{"capture": ["4D", "4S"], "sweep": True}]},
    ]
    # A face card still captures by match in chkobba-crp.
    match = captures(client, "chkobba-crp", ["KD", "4S"], ["KH"])["moves"]
    assert match == [{"card": "KH", "value": 10, "kind": "match", "options": [{"capture": ["KD"], "sweep": False}]}]


def test_empty_table_lays_every_card(client):
    body = captures(client, "scopa", [], ["AD", "KC"])
    assert body == {
        "moves": [
            {"card": "AD", "value": 1, "kind": "none", "options": []},
            {"card": "KC", "value": 10, "kind": "none", "options": []},
        ]
    }


# ---- applyMove ----------------------------------------------------------------------------------


def test_apply_worked_example_capture_as_a_set(client):
    body = ok(move(client, "chkobba", ["2D", "6S"], ["QH", "JH", "3C"], {"card": "QH", "capture": ["6S", "2D"]}))
    assert body == {
        "card": "QH",
        "kind": "sum",
        "captured": ["QH", "2D", "6S"],
        "taken": ["2D", "6S"],
        "sweep": True,
        "table": [],
        "hand": ["JH", "3C"],
    }


def test_apply_last_play_removes_the_sweep(client):
    body = ok(move(client, "chkobba", ["2D", "6S"], ["QH"], {"card": "QH"}, last_play=True))
    assert body["sweep"] is False
    assert body["captured"] == ["QH", "2D", "6S"] and body["table"] == [] and body["hand"] == []


def test_apply_laid_card(client):
    """J (9) cannot take 2+6: it is laid at the end of the table."""
    body = ok(move(client, "chkobba", ["2D", "6S"], ["QH", "JH", "3C"], {"card": "JH"}))
    assert body == {
        "card": "JH",
        "kind": "none",
        "captured": [],
        "taken": [],
        "sweep": False,
        "table": ["2D", "6S", "JH"],
        "hand": ["QH", "3C"],
    }


def test_apply_laid_card_with_an_explicit_empty_capture(client):
    body = ok(move(client, "chkobba", ["2D", "6S"], ["3C"], {"card": "3C", "capture": []}))
    assert body["kind"] == "none" and body["table"] == ["2D", "6S", "3C"] and body["hand"] == []


def test_apply_choosing_one_of_two_matches(client):
    body = ok(move(client, "chkobba", ["7S", "7D", "AC"], ["7C"], {"card": "7C", "capture": ["7D"]}))
    assert body == {
        "card": "7C",
        "kind": "match",
        "captured": ["7C", "7D"],
        "taken": ["7D"],
        "sweep": False,
        "table": ["7S", "AC"],
        "hand": [],
    }


def test_apply_capture_omitted_with_one_option(client):
    body = ok(move(client, "chkobba", ["4C", "3S", "KD"], ["7H", "2D"], {"card": "7H"}))
    assert body["kind"] == "sum" and body["taken"] == ["4C", "3S"] and body["table"] == ["KD"]
    assert body["hand"] == ["2D"] and body["sweep"] is False


# ---- scoreRound ---------------------------------------------------------------------------------

WORKED_SIDES = [
    {"counts": counts(22, 6, 2, 3, True), "sweeps": 1},
    {"counts": counts(18, 4, 2, 1, False), "sweeps": 0},
]
WORKED_BREAKDOWN = [line(0, 1, 1, 1, 1, 1, 0), line(1, 0, 0, 0, 0, 0, 0)]


def scores(client, rules, sides, **extra):
    return client.post("/v1/scores", json={"rules": rules, "sides": sides, **extra})


def test_score_worked_example(client):
    """22 cards, 6 diamonds, 7D, 2 sevens each but 3 sixes, one chkobba: 1+1+1+1+1 = 5."""
    body = ok(scores(client, "chkobba", WORKED_SIDES))
    assert body["breakdown"] == WORKED_BREAKDOWN
    assert body["breakdown"][0]["total"] == 5
    assert "valid" not in body


def test_score_claim_that_agrees(client):
    body = ok(scores(client, "chkobba", WORKED_SIDES, claimed=WORKED_BREAKDOWN))
    assert body["valid"] is True and body["discrepancies"] == []
    assert body["breakdown"] == WORKED_BREAKDOWN


def test_score_claim_that_disagrees_is_a_200_with_discrepancies(client):
    claimed = [
        {**line(0, 1, 1, 1, 1, 0, 0), "total": 4},  # forgot the chkobba
        {**line(1, 1, 0, 0, 0, 0, 0), "total": 1},  # took the cards point
    ]
    body = ok(scores(client, "chkobba", WORKED_SIDES, claimed=claimed))
    assert body["valid"] is False
    assert body["breakdown"] == WORKED_BREAKDOWN
    assert body["discrepancies"] == [
        {"side": 0, "category": "sweeps", "claimed": 0, "expected": 1},
        {"side": 0, "category": "total", "claimed": 4, "expected": 5},
        {"side": 1, "category": "cards", "claimed": 1, "expected": 0},
        {"side": 1, "category": "total", "claimed": 1, "expected": 0},
    ]


def test_score_claim_with_only_a_wrong_total(client):
    claimed = [{**WORKED_BREAKDOWN[0], "total": 6}, WORKED_BREAKDOWN[1]]
    body = ok(scores(client, "chkobba", WORKED_SIDES, claimed=claimed))
    assert body["valid"] is False
    assert body["discrepancies"] == [{"side": 0, "category": "total", "claimed": 6, "expected": 5}]


def _without_sevens(side):
    return {**side, "counts": {k: v for k, v in side["counts"].items() if k not in ("sevens", "sixes")}}


@pytest.mark.parametrize("rules", ["scopa", "chkobba-crp"])
def test_score_counts_need_no_sevens_where_the_profile_does_not_score_them(client, rules):
    """docs/rules.md §10.7: a Scopa client gives what Scopa scores, no invented sevens and sixes."""
    body = ok(scores(client, rules, [_without_sevens(side) for side in WORKED_SIDES]))
    assert body["breakdown"] == [line(0, 1, 1, 0, 1, 1, 0), line(1, 0, 0, 0, 0, 0, 0)]
    assert body["breakdown"] == ok(scores(client, rules, WORKED_SIDES))["breakdown"]


def test_score_chkobba_counts_need_the_sevens_and_sixes(client):
    refused = problem(scores(client, "chkobba", [WORKED_SIDES[0], _without_sevens(WORKED_SIDES[1])]), 422,
                      "inconsistent-counts")  # fmt: skip
    assert list(refused["errors"]) == ["sides.1.counts.sevens"]


def test_score_counts_give_sevens_and_sixes_together(client):
    side = {**WORKED_SIDES[1], "counts": {**_without_sevens(WORKED_SIDES[1])["counts"], "sevens": 2}}
    refused = problem(scores(client, "scopa", [_without_sevens(WORKED_SIDES[0]), side]), 422, "validation-error")
    assert list(refused["errors"]) == ["sides.1.counts.sixes"]


def test_score_a_partial_pile_is_refused_for_its_total_first(client):
    sides = [{"captured": ["2C", "5H"], "sweeps": 0}, {"captured": ["7D", "7S", "6D"], "sweeps": 0}]
    refused = problem(scores(client, "chkobba", sides), 422, "inconsistent-counts")
    assert refused["detail"] == "the sides' cards add up to 5, not 40"


def test_score_from_piles(client):
    """Side 0: all ten diamonds plus 7H 7S (12 cards, 3 sevens with 7D), 2 sweeps; side 1 the other 28, 1 sweep."""
    pile0 = [c for c in CANONICAL if c.endswith("D")] + ["7H", "7S"]
    pile1 = [c for c in CANONICAL if c not in pile0]
    body = ok(scores(client, "chkobba", [{"captured": pile0, "sweeps": 2}, {"captured": pile1, "sweeps": 1}]))
    assert body["breakdown"] == [line(0, 0, 1, 1, 1, 2, 0), line(1, 1, 0, 0, 0, 1, 0)]


def test_score_ties_give_nobody_the_point(client):
    """20-20 cards, 5-5 diamonds, 2-2 sevens and 2-2 sixes: only 7D scores."""
    sides = [
        {"counts": counts(20, 5, 2, 2, True), "sweeps": 0},
        {"counts": counts(20, 5, 2, 2, False), "sweeps": 0},
    ]
    body = ok(scores(client, "chkobba", sides))
    assert body["breakdown"] == [line(0, 0, 0, 0, 1, 0, 0), line(1, 0, 0, 0, 0, 0, 0)]


def test_score_crp_ties_to_last_capturer(client):
    sides = [
        {"counts": counts(20, 5, 2, 2, True), "sweeps": 0},
        {"counts": counts(20, 5, 2, 2, False), "sweeps": 0},
    ]
    plain = ok(scores(client, "chkobba-crp", sides, last_capturer=1))
    assert plain["breakdown"] == [line(0, 0, 0, 0, 1, 0, 0), line(1, 0, 0, 0, 0, 0, 0)]
    rules = {"profile": "chkobba-crp", "options": {"ties_to_last_capturer": True}}
    ties = ok(scores(client, rules, sides, last_capturer=1))
    assert ties["breakdown"] == [line(0, 0, 0, 0, 1, 0, 0), line(1, 1, 1, 0, 0, 0, 0)]
    unknown = ok(scores(client, rules, sides))
    assert unknown["breakdown"] == plain["breakdown"]


def test_score_crp_primiera_from_piles(client):
    """Side 0 holds the four sevens (7 in each suit: 84) and AD 2D; side 1's best is a six per suit (72)."""
    pile0 = ["7D", "7H", "7S", "7C", "AD", "2D"]
    pile1 = [c for c in CANONICAL if c not in pile0]
    sides = [{"captured": pile0, "sweeps": 0}, {"captured": pile1, "sweeps": 0}]
    rules = {"profile": "chkobba-crp", "options": {"primiera": True}}
    body = ok(scores(client, rules, sides))
    assert body["breakdown"] == [line(0, 0, 0, 0, 1, 0, 1), line(1, 1, 1, 0, 0, 0, 0)]
    without = ok(scores(client, "chkobba-crp", sides))
    assert without["breakdown"] == [line(0, 0, 0, 0, 1, 0, 0), line(1, 1, 1, 0, 0, 0, 0)]


def test_score_primiera_needs_piles(client):
    rules = {"profile": "chkobba-crp", "options": {"primiera": True}}
    problem(scores(client, rules, WORKED_SIDES), 422, "inconsistent-counts")


def test_score_three_sides_in_crp(client):
    sides = [
        {"counts": counts(14, 4, 2, 1, True), "sweeps": 1},
        {"counts": counts(13, 3, 1, 2, False), "sweeps": 0},
        {"counts": counts(13, 3, 1, 1, False), "sweeps": 2},
    ]
    body = ok(scores(client, "chkobba-crp", sides))
    assert body["breakdown"] == [line(0, 1, 1, 0, 1, 1, 0), line(1, 0, 0, 0, 0, 0, 0), line(2, 0, 0, 0, 0, 2, 0)]


def test_score_scopa_does_not_score_sevens(client):
    body = ok(scores(client, "scopa", WORKED_SIDES))
    assert body["breakdown"] == [line(0, 1, 1, 0, 1, 1, 0), line(1, 0, 0, 0, 0, 0, 0)]


@pytest.mark.parametrize(
    "sides",
    [
        [{"counts": counts(22, 6, 2, 3, True), "sweeps": 1}, {"counts": counts(17, 4, 2, 1, False), "sweeps": 0}],
        [{"counts": counts(22, 6, 2, 3, True), "sweeps": 1}, {"counts": counts(18, 4, 2, 1, True), "sweeps": 0}],
        [{"counts": counts(22, 7, 2, 3, True), "sweeps": 1}, {"counts": counts(18, 4, 2, 1, False), "sweeps": 0}],
        [{"captured": CANONICAL[:20], "sweeps": 0}, {"captured": CANONICAL[19:39], "sweeps": 0}],
        [{"captured": CANONICAL[:20], "sweeps": 0}, {"captured": CANONICAL[21:], "sweeps": 0}],
    ],
    ids=["39-cards", "7D-twice", "11-diamonds", "overlapping-piles", "missing-card"],
)
def test_score_counts_that_cannot_come_from_one_round(client, request, sides):
    code = "duplicate-card" if request.node.callspec.id == "overlapping-piles" else "inconsistent-counts"
    body = problem(scores(client, "chkobba", sides), 422, code)
    assert body["errors"]


# ---- decideMatch --------------------------------------------------------------------------------


def decide(client, rules, before, points, **extra):
    return client.post("/v1/match-decisions", json={"rules": rules, "scores": before, "round_points": points, **extra})


def test_decide_worked_example_wins(client):
    """docs/rules.md §7.5: 17 + 5 = 22 reaches 21."""
    body = ok(decide(client, "chkobba", [17, 12], [5, 1], claimed={"outcome": "won", "winner": 0}))
    assert body == {
        "scores": [22, 13],
        "outcome": "won",
        "winner": 0,
        "target": 21,
        "valid": True,
        "discrepancies": [],
    }


def test_decide_claim_that_disagrees(client):
    body = ok(decide(client, "chkobba", [17, 12], [5, 1], claimed={"outcome": "continue", "winner": None}))
    assert body["valid"] is False
    assert body["outcome"] == "won" and body["winner"] == 0
    assert body["discrepancies"] == [
        {"field": "outcome", "claimed": "continue", "expected": "won"},
        {"field": "winner", "claimed": None, "expected": 0},
    ]


def test_decide_claim_with_the_wrong_winner(client):
    body = ok(decide(client, "chkobba", [17, 12], [5, 1], claimed={"outcome": "won", "winner": 1}))
    assert body["valid"] is False
    assert body["discrepancies"] == [{"field": "winner", "claimed": 1, "expected": 0}]


@pytest.mark.parametrize(
    ("rules", "before", "points", "after", "outcome", "winner"),
    [
        ("chkobba", [10, 10], [3, 2], [13, 12], "continue", None),
        ("chkobba", [19, 18], [3, 4], [22, 22], "tiebreak", None),
        ("chkobba", [20, 19], [3, 5], [23, 24], "won", 1),
        ("chkobba", [20, 17], [1, 0], [21, 17], "won", 0),
        ("chkobba", [22, 22], [1, 1], [23, 23], "tiebreak", None),
        ({"profile": "chkobba", "options": {"target": 11}}, [9, 10], [2, 0], [11, 10], "won", 0),
        ("chkobba-crp", [9, 8], [1, 1], [10, 9], "continue", None),
        ("chkobba-crp", [10, 3, 9], [1, 0, 2], [11, 3, 11], "tiebreak", None),
        ({"profile": "chkobba-crp", "options": {"target": 16}}, [15, 3], [1, 0], [16, 3], "won", 0),
        ("scopa", [0, 0], [3, 3], [3, 3], "draw", None),
        ("scopa", [0, 0], [4, 2], [4, 2], "won", 0),
        ("scopa", [0, 0], [0, 1], [0, 1], "won", 1),
        ({"profile": "scopa", "options": {"target": 11}}, [9, 10], [2, 1], [11, 11], "tiebreak", None),
        ({"profile": "scopa", "options": {"target": 11}}, [3, 4], [2, 1], [5, 5], "continue", None),
    ],
)
def test_decide_outcomes(client, rules, before, points, after, outcome, winner):
    body = ok(decide(client, rules, before, points))
    assert (body["scores"], body["outcome"], body["winner"]) == (after, outcome, winner)
    assert "valid" not in body


def test_decide_targets_reported(client):
    assert ok(decide(client, "chkobba-crp", [0, 0], [1, 1]))["target"] == 11
    assert ok(decide(client, "scopa", [0, 0], [1, 1]))["target"] is None
    rules = {"profile": "chkobba", "options": {"target": 31}}
    assert ok(decide(client, rules, [0, 0], [1, 1]))["target"] == 31


def test_decide_after_a_winner_is_match_over(client):
    problem(decide(client, "chkobba", [21, 10], [1, 1]), 422, "match-over")
    problem(decide(client, "chkobba", [23, 21], [0, 1], claimed={"outcome": "won", "winner": 0}), 422, "match-over")


def test_decide_after_a_tie_at_the_target_plays_on(client):
    """A tie at or above the target was a tiebreak, not a finished match: the extra round is decided."""
    body = ok(decide(client, "chkobba", [22, 22], [2, 1]))
    assert (body["scores"], body["outcome"], body["winner"]) == ([24, 23], "won", 0)


@pytest.mark.parametrize(
    ("before", "points", "field", "code"),
    [
        ([17, 12], [5, 1, 0], "round_points", "invalid-scores"),
        ([17, -1], [5, 1], "scores.1", "validation-error"),
        ([17, 12], [5, -2], "round_points.1", "validation-error"),
    ],
)
def test_decide_bad_lists(client, before, points, field, code):
    body = problem(decide(client, "chkobba", before, points), 422, code)
    assert field in body["errors"], body["errors"]


def test_decide_scopa_single_round_starts_from_zero(client):
    body = problem(decide(client, "scopa", [1, 0], [1, 0]), 422, "invalid-scores")
    assert "scores" in body["errors"]


def test_a_claimed_winner_that_is_no_side_is_invalid_scores(client):
    """docs/rules.md §10.11: a claim that names no side is malformed, not merely wrong."""
    found = problem(
        decide(client, "chkobba", [17, 12], [5, 0], claimed={"outcome": "won", "winner": 2}), 422, "invalid-scores"
    )
    assert "claimed.winner" in found["errors"]
