"""Every answer that is not a success is an RFC 9457 problem with a stable code (README.md, 'Errors')."""

from __future__ import annotations

import copy
import json

import pytest

from ..support import CANONICAL, POST_PATHS, counts, deck_starting, ok, problem

CAPTURES = {"rules": "chkobba", "table": ["2D", "6S"], "hand": ["QH"]}

# One well-formed body per POST path, for the edge cases that do not depend on the body.
VALID = {
    "/v1/captures": CAPTURES,
    "/v1/moves": {**CAPTURES, "play": {"card": "QH"}},
    "/v1/scores": {
        "rules": "chkobba",
        "sides": [
            {"counts": counts(22, 6, 2, 3, True), "sweeps": 1},
            {"counts": counts(18, 4, 2, 1, False), "sweeps": 0},
        ],
    },
    "/v1/match-decisions": {"rules": "chkobba", "scores": [17, 12], "round_points": [5, 1]},
    "/v1/rounds": {"rules": "chkobba", "players": 2, "dealer": 0, "deck": CANONICAL, "cut": "keep"},
    "/v1/rounds/replay": {"rules": "scopa", "players": 2, "dealer": 0, "deck": CANONICAL, "moves": []},
    "/v1/matches/replay": {"rules": "scopa", "players": 2, "dealer": 0, "rounds": [{"deck": CANONICAL, "moves": []}]},
    "/v1/rounds/review": {"rules": "scopa", "players": 2, "dealer": 0, "deck": CANONICAL, "moves": []},
    "/v1/deals/commitments": {},
}
RULED = [path for path, body in VALID.items() if "rules" in body]  # the operations that take a profile


@pytest.fixture(scope="module")
def fresh_state(client):
    """Dealer 0, cut keep: seat 1 holds QH 5S 4H and leads; seat 0 holds 7C AC 2H; the table AD 2D 3C 2S."""
    deck = deck_starting("QH", "5S", "4H", "7C", "AC", "2H", "AD", "2D", "3C", "2S")
    return ok(
        client.post("/v1/rounds", json={"rules": "chkobba", "players": 2, "dealer": 0, "deck": deck, "cut": "keep"})
    )["state"]


@pytest.fixture(scope="module")
def valid_bodies(fresh_state):
    return {
        **VALID,
        "/v1/rounds/play": {"state": fresh_state, "move": {"card": "QH"}},
        "/v1/hints": {"state": fresh_state},
        "/v1/rounds/view": {"state": fresh_state, "seat": 0},
    }


def test_the_valid_bodies_are_valid(client, valid_bodies):
    for path in POST_PATHS:
        ok(client.post(path, json=valid_bodies[path]))


# ---- HTTP-level problems ------------------------------------------------------------------------


@pytest.mark.parametrize("path", POST_PATHS)
@pytest.mark.parametrize("data", ["{", '{"rules": "chkobba",}', "nul", "[1, 2", "{'a': 1}", ""])
def test_malformed_json_is_400(client, path, data):
    problem(client.post(path, data=data, content_type="application/json"), 400, "malformed-json")


@pytest.mark.parametrize("path", POST_PATHS)
def test_invalid_utf8_is_400(client, path):
    problem(client.post(path, data=b'{"rules": "\xff\xfe"}', content_type="application/json"), 400, "malformed-json")


@pytest.mark.parametrize("path", POST_PATHS)
@pytest.mark.parametrize("depth", [200, 253])  # with the body's own object: 254 levels, the most taken
def test_moderately_nested_json_is_a_422(client, path, depth):
    """Parsed, then refused: a table is not a card (where a table belongs), else a field not taken."""
    data = '{"rules": "chkobba", "table": ' + "[" * depth + "]" * depth + "}"
    code = "invalid-card" if path in ("/v1/captures", "/v1/moves") else "validation-error"
    problem(client.post(path, data=data, content_type="application/json"), 422, code)


@pytest.mark.parametrize("path", ["/nope", "/v1", "/v1/nope", "/v1/rulesets/chkobba/extra", "/v1/rounds/play/x"])
def test_unknown_path_is_404(client, path):
    problem(client.get(path), 404, "not-found")
    problem(client.post(path, json={}), 404, "not-found")


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [("get", p, "POST") for p in POST_PATHS]
    + [
        ("delete", "/v1/captures", "POST"),
        ("put", "/v1/rounds/play", "POST"),
        ("post", "/v1/rulesets", "GET"),
        ("patch", "/v1/rulesets/chkobba", "GET"),
        ("post", "/healthz", "GET"),
        ("post", "/metrics", "GET"),
    ],
)
def test_wrong_method_is_405_with_allow(client, method, path, allowed):
    response = getattr(client, method)(path)
    problem(response, 405, "method-not-allowed")
    assert allowed in {m.strip() for m in response.headers["Allow"].split(",")}


@pytest.mark.parametrize("path", POST_PATHS)
def test_body_over_64_kib_is_413(client, path):
    big = json.dumps({"rules": "chkobba", "table": [], "hand": ["QH"], "pad": "x" * (64 * 1024)})
    problem(client.post(path, data=big, content_type="application/json"), 413, "body-too-large")


@pytest.mark.parametrize("path", POST_PATHS)
def test_body_of_garbage_over_64_kib_is_413(client, path):
    problem(client.post(path, data=b"[" * (65 * 1024), content_type="application/json"), 413, "body-too-large")


def test_body_just_under_the_limit_is_read(client):
    body = {**CAPTURES, "pad": "x" * (60 * 1024)}
    found = problem(client.post("/v1/captures", json=body), 422, "validation-error")
    assert "pad" in found["errors"]


@pytest.mark.parametrize("path", POST_PATHS)
@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "application/xml", None])
def test_non_json_content_type_is_415(client, valid_bodies, path, content_type):
    data = json.dumps(valid_bodies[path])
    response = client.post(path, data=data, content_type=content_type) if content_type else client.post(path, data=data)
    problem(response, 415, "unsupported-media-type")


def test_json_with_a_charset_is_json(client):
    ok(client.post("/v1/captures", data=json.dumps(CAPTURES), content_type="application/json; charset=utf-8"))


@pytest.mark.parametrize("path", POST_PATHS)
@pytest.mark.parametrize("data", ["null", "[]", "1", '"chkobba"', "true", "{}"])
def test_json_that_is_not_the_request_object_is_422(client, path, data):
    response = client.post(path, data=data, content_type="application/json")
    if data == "{}" and VALID.get(path) == {}:  # commitDeal's request is the empty object
        ok(response)
    else:
        problem(response, 422, "validation-error")


# ---- validation problems: 422 with errors per field path ----------------------------------------


@pytest.mark.parametrize("bad", ["8D", "10H", "7d", "7X", "D7", "", " 7D", 7, 7.0, True, ["7D"], {"card": "7D"}])
def test_invalid_card_on_the_table_names_its_position(client, bad):
    body = problem(client.post("/v1/captures", json={**CAPTURES, "table": ["AD", "3C", bad]}), 422, "invalid-card")
    assert list(body["errors"]) == ["table.2"]


def test_null_card_names_its_position(client):
    body = problem(client.post("/v1/captures", json={**CAPTURES, "table": ["AD", "3C", None]}), 422, "invalid-card")
    assert list(body["errors"]) == ["table.2"]


def test_every_invalid_card_is_named(client):
    body = problem(client.post("/v1/captures", json={**CAPTURES, "table": ["8D", "10H", "7d"]}), 422, "invalid-card")
    assert set(body["errors"]) == {"table.0", "table.1", "table.2"}


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/v1/captures", {**CAPTURES, "hand": [7]}, "hand.0"),
        ("/v1/moves", {**CAPTURES, "play": {"card": "8D"}}, "play.card"),
        ("/v1/moves", {**CAPTURES, "play": {"card": "QH", "capture": ["2D", "9S"]}}, "play.capture.1"),
        (
            "/v1/scores",
            {**VALID["/v1/scores"], "sides": [{"captured": ["AD", "ZZ"], "sweeps": 0}] * 2},
            "sides.0.captured.1",
        ),
        ("/v1/rounds", {**VALID["/v1/rounds"], "deck": [*CANONICAL[:39], "8C"]}, "deck.39"),
        ("/v1/rounds/replay", {**VALID["/v1/rounds/replay"], "moves": [{"card": "10D"}]}, "moves.0.card"),
    ],
)
def test_invalid_card_paths(client, path, body, field):
    found = problem(client.post(path, json=body), 422, "invalid-card")
    assert field in found["errors"], found["errors"]


RECORD_MOVE = {"card": "AD", "capture": ["2D", "XX"]}


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/v1/captures", {**CAPTURES, "table": ["2D", "XX"]}, "table.1"),  # found by a schema field
        ("/v1/moves", {**CAPTURES, "play": {"card": "QH", "capture": ["2D", "XX"]}}, "play.capture.1"),
        ("/v1/rounds/replay", {**VALID["/v1/rounds/replay"], "moves": [RECORD_MOVE]}, "moves.0.capture.1"),  # the core
        ("/v1/rounds/replay", {**VALID["/v1/rounds/replay"], "moves": [{"card": "XX"}]}, "moves.0.card"),
        (
            "/v1/matches/replay",
            {**VALID["/v1/matches/replay"], "rounds": [{"deck": CANONICAL, "moves": [RECORD_MOVE]}]},
            "rounds.0.moves.0.capture.1",
        ),
    ],
)
def test_an_invalid_card_is_named_by_its_path_once(client, path, body, field):
    """Whichever layer finds it, a card that is not one reads alike: the detail names the path, then
    the message; the message names the value, not the path again."""
    found = problem(client.post(path, json=body), 422, "invalid-card")
    assert list(found["errors"]) == [field]
    (message,) = found["errors"][field]
    assert message.startswith("'XX' is not a card"), message
    assert found["detail"] == f"{field}: {message}"


@pytest.mark.parametrize(
    ("path", "body", "places"),
    [
        (
            "/v1/rounds/replay",
            {**VALID["/v1/rounds/replay"], "moves": [{"card": "AD", "capture": ["2D", "3D", "2D"]}]},
            ["moves.0.capture.0", "moves.0.capture.2"],
        ),
        (
            "/v1/matches/replay",
            {
                **VALID["/v1/matches/replay"],
                "rounds": [{"deck": CANONICAL, "moves": [{"card": "AD", "capture": ["2D", "3D", "2D"]}]}],
            },
            ["rounds.0.moves.0.capture.0", "rounds.0.moves.0.capture.2"],
        ),
    ],
)
def test_a_card_twice_in_a_record_move_names_both_places_once(client, path, body, places):
    found = problem(client.post(path, json=body), 422, "duplicate-card")
    assert list(found["errors"]) == places
    message = "2D appears twice, at 0 and 2"  # in the list that errors names
    assert found["errors"] == {place: [message] for place in places}
    assert found["detail"] == f"{places[0]}: {message}"  # as every error a schema field finds


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({**CAPTURES, "table": ["2D", "6S"], "hand": ["2D"]}, "hand"),
        ({**CAPTURES, "table": ["2D", "6S", "2D"]}, "table.2"),
        ({**CAPTURES, "hand": ["QH", "QH"]}, "hand.1"),
    ],
)
def test_duplicate_cards(client, body, field):
    found = problem(client.post("/v1/captures", json=body), 422, "duplicate-card")
    assert field in found["errors"], found["errors"]


def test_duplicate_card_across_table_and_hand_in_a_move(client):
    body = {"rules": "chkobba", "table": ["2D", "6S"], "hand": ["QH", "6S"], "play": {"card": "QH"}}
    problem(client.post("/v1/moves", json=body), 422, "duplicate-card")


def test_duplicate_card_in_a_deck(client):
    problem(
        client.post("/v1/rounds", json={**VALID["/v1/rounds"], "deck": [*CANONICAL[:39], "AD"]}), 422, "duplicate-card"
    )


@pytest.mark.parametrize("path", RULED)
@pytest.mark.parametrize("rules", ["nope", "Chkobba", "", 7, None, [], {"profile": "nope"}, {"options": {}}])
def test_unknown_profile(client, path, rules):
    code = "validation-error" if rules is None else "unknown-profile"  # null is no value at all
    body = problem(client.post(path, json={**VALID[path], "rules": rules}), 422, code)
    assert any(key.startswith("rules") for key in body["errors"]), body["errors"]


@pytest.mark.parametrize(
    "rules",
    [
        {"profile": "chkobba", "options": {"face_sums": True}},
        {"profile": "chkobba", "options": {"primiera": False}},
        {"profile": "scopa", "options": {"ties_to_last_capturer": True}},
        {"profile": "chkobba-crp", "options": {"colour": "red"}},
        {"profile": "chkobba", "options": {"target": 0}},
        {"profile": "chkobba", "options": {"target": -3}},
        {"profile": "chkobba", "options": {"target": "21"}},
        {"profile": "chkobba", "options": {"target": 21.5}},
        {"profile": "chkobba", "options": {"target": True}},
        {"profile": "chkobba-crp", "options": {"primiera": 1}},
        {"profile": "chkobba-crp", "options": {"face_sums": "true"}},
        {"profile": "chkobba", "options": []},
        {"profile": "chkobba", "variant": "x"},
    ],
)
def test_invalid_option(client, rules):
    body = problem(client.post("/v1/captures", json={**CAPTURES, "rules": rules}), 422, "invalid-option")
    assert any(key.startswith("rules") for key in body["errors"]), body["errors"]


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/v1/captures", {**CAPTURES, "last_play": 1}, "last_play"),
        ("/v1/captures", {**CAPTURES, "last_play": 0}, "last_play"),
        ("/v1/captures", {**CAPTURES, "last_play": "true"}, "last_play"),
        ("/v1/moves", {**VALID["/v1/moves"], "last_play": 1}, "last_play"),
        (
            "/v1/scores",
            {
                **VALID["/v1/scores"],
                "sides": [{"counts": counts(22, 6, 2, 3, 1), "sweeps": 1}, VALID["/v1/scores"]["sides"][1]],
            },
            "sides.0.counts.seven_of_diamonds",
        ),
    ],
)
def test_booleans_given_as_numbers_or_strings_are_rejected(client, path, body, field):
    found = problem(client.post(path, json=body), 422, "validation-error")
    assert field in found["errors"], found["errors"]


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/v1/match-decisions", {**VALID["/v1/match-decisions"], "scores": ["17", 12]}, "scores.0"),
        ("/v1/match-decisions", {**VALID["/v1/match-decisions"], "round_points": [5, 1.5]}, "round_points.1"),
        ("/v1/match-decisions", {**VALID["/v1/match-decisions"], "scores": [True, 12]}, "scores.0"),
        ("/v1/rounds", {**VALID["/v1/rounds"], "players": "2"}, "players"),
        ("/v1/rounds", {**VALID["/v1/rounds"], "dealer": True}, "dealer"),
        ("/v1/rounds", {**VALID["/v1/rounds"], "dealer": 0.5}, "dealer"),
        ("/v1/scores", {**VALID["/v1/scores"], "last_capturer": "0"}, "last_capturer"),
        (
            "/v1/scores",
            {
                **VALID["/v1/scores"],
                "sides": [{"counts": counts(22, 6, 2, 3, True), "sweeps": "1"}, VALID["/v1/scores"]["sides"][1]],
            },
            "sides.0.sweeps",
        ),
        (
            "/v1/scores",
            {
                **VALID["/v1/scores"],
                "sides": [{"counts": counts("22", 6, 2, 3, True), "sweeps": 1}, VALID["/v1/scores"]["sides"][1]],
            },
            "sides.0.counts.cards",
        ),
        ("/v1/rounds/replay", {**VALID["/v1/rounds/replay"], "players": "2"}, "players"),
    ],
)
def test_integers_given_as_strings_or_booleans_are_rejected(client, path, body, field):
    found = problem(client.post(path, json=body), 422, "validation-error")
    assert field in found["errors"], found["errors"]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/match-decisions", {**VALID["/v1/match-decisions"], "scores": [17.0, 12]}),
        ("/v1/rounds", {**VALID["/v1/rounds"], "dealer": 0.0, "players": 2.0}),
        ("/v1/rounds", {**VALID["/v1/rounds"], "rules": {"profile": "chkobba", "options": {"target": 11.0}}}),
        ("/v1/rounds", {**{k: v for k, v in VALID["/v1/rounds"].items() if k != "deck"}, "seed": 42.0}),
        ("/v1/rounds/replay", {**VALID["/v1/rounds/replay"], "dealer": 0.0}),
    ],
)
def test_whole_numbers_written_with_a_fraction_of_zero_are_integers(client, path, body):
    """JSON has one kind of number, and JSON Schema (so the contract) counts 2.0 as the integer 2:
    the answer is the one the same body with 2 gets."""
    as_ints = json.loads(json.dumps(body), parse_float=lambda text: int(float(text)))
    got, expected = client.post(path, json=body), client.post(path, json=as_ints)
    assert got.status_code == expected.status_code == 200, got.get_json()
    assert got.get_json() == expected.get_json()


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/v1/captures", {**CAPTURES, "extra": 1}, "extra"),
        ("/v1/moves", {**VALID["/v1/moves"], "play": {"card": "QH", "take": ["2D"]}}, "play.take"),
        ("/v1/scores", {**VALID["/v1/scores"], "winner": 0}, "winner"),
        (
            "/v1/match-decisions",
            {**VALID["/v1/match-decisions"], "claimed": {"outcome": "won", "winner": 0, "x": 1}},
            "claimed.x",
        ),
        ("/v1/rounds", {**VALID["/v1/rounds"], "shuffle": True}, "shuffle"),
        ("/v1/rounds/replay", {**VALID["/v1/rounds/replay"], "seed": "x"}, "seed"),
    ],
)
def test_unknown_fields_are_rejected(client, path, body, field):
    found = problem(client.post(path, json=body), 422, "validation-error")
    assert field in found["errors"], found["errors"]


@pytest.mark.parametrize("path", POST_PATHS)
def test_missing_required_fields(client, valid_bodies, path):
    for name in valid_bodies[path]:
        body = {k: v for k, v in valid_bodies[path].items() if k != name}
        response = client.post(path, json=body)
        if response.status_code == 200:  # an optional field
            continue
        found = problem(response, 422, "validation-error")
        assert any(key.split(".")[0] == name for key in found["errors"]), (name, found["errors"])


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({**CAPTURES, "hand": []}, "hand"),
        ({**CAPTURES, "hand": ["QH", "JH", "3C", "AD"]}, "hand"),
        ({**CAPTURES, "table": "2D 6S"}, "table"),
    ],
)
def test_list_shapes(client, body, field):
    found = problem(client.post("/v1/captures", json=body), 422, "validation-error")
    assert field in found["errors"], found["errors"]


def test_validation_problem_lists_every_field(client):
    body = {"rules": "chkobba", "table": ["8D"], "hand": "QH", "last_play": 1}
    found = problem(client.post("/v1/captures", json=body), 422, "invalid-card")
    assert {"table.0", "hand", "last_play"} <= set(found["errors"])
    for messages in found["errors"].values():
        assert messages and all(isinstance(m, str) and m for m in messages)


# ---- illegal moves: 422 problems with options and legal -----------------------------------------


def test_apply_illegal_sum_instead_of_match(client):
    body = {
        "rules": "chkobba",
        "table": ["7S", "4C", "3D"],
        "hand": ["7H", "AD"],
        "play": {"card": "7H", "capture": ["4C", "3D"]},
    }
    found = problem(client.post("/v1/moves", json=body), 422, "illegal-move")
    assert found["options"] == [{"capture": ["7S"], "sweep": False}]
    assert found["legal"] == [
        {"card": "7H", "value": 7, "kind": "match", "options": [{"capture": ["7S"], "sweep": False}]},
        {"card": "AD", "value": 1, "kind": "none", "options": []},
    ]
    assert "play.capture" in found["errors"]


def test_apply_capture_of_a_card_not_on_the_table(client):
    body = {**CAPTURES, "play": {"card": "QH", "capture": ["2D", "6C"]}}
    found = problem(client.post("/v1/moves", json=body), 422, "illegal-move")
    assert found["options"] == [{"capture": ["2D", "6S"], "sweep": True}]
    assert "6C" in found["detail"]
    assert "legal" in found


def test_apply_capture_is_mandatory(client):
    found = problem(
        client.post("/v1/moves", json={**CAPTURES, "play": {"card": "QH", "capture": []}}), 422, "illegal-move"
    )
    assert found["options"] == [{"capture": ["2D", "6S"], "sweep": True}]
    assert "legal" in found


def test_apply_face_sum_in_crp_is_illegal(client):
    body = {
        "rules": "chkobba-crp",
        "table": ["4D", "4S"],
        "hand": ["JH"],
        "play": {"card": "JH", "capture": ["4D", "4S"]},
    }
    found = problem(client.post("/v1/moves", json=body), 422, "illegal-move")
    assert found["options"] == []


def test_apply_scopa_fewer_cards_is_illegal(client):
    body = {
        "rules": "scopa",
        "table": ["4C", "6D", "AH", "2S", "3C"],
        "hand": ["KS"],
        "play": {"card": "KS", "capture": ["4C", "6D"]},
    }
    found = problem(client.post("/v1/moves", json=body), 422, "illegal-move")
    assert found["options"] == [{"capture": ["4C", "AH", "2S", "3C"], "sweep": False}]


def test_apply_ambiguous_capture(client):
    body = {"rules": "chkobba", "table": ["7S", "7D", "AC"], "hand": ["7C", "2H"], "play": {"card": "7C"}}
    found = problem(client.post("/v1/moves", json=body), 422, "ambiguous-capture")
    assert found["options"] == [{"capture": ["7S"], "sweep": False}, {"capture": ["7D"], "sweep": False}]
    assert [m["card"] for m in found["legal"]] == ["7C", "2H"]
    assert "play.capture" in found["errors"]


def test_apply_card_not_held(client):
    body = {"rules": "chkobba", "table": ["7S", "7D", "AC"], "hand": ["7C", "2H"], "play": {"card": "5C"}}
    found = problem(client.post("/v1/moves", json=body), 422, "card-not-held")
    assert "options" not in found  # a card not held has no captures to list
    assert found["legal"] == [
        {
            "card": "7C",
            "value": 7,
            "kind": "match",
            "options": [{"capture": ["7S"], "sweep": False}, {"capture": ["7D"], "sweep": False}],
        },
        {"card": "2H", "value": 2, "kind": "none", "options": []},
    ]
    assert "play.card" in found["errors"]


def test_apply_card_on_the_table_is_not_held(client):
    found = problem(client.post("/v1/moves", json={**CAPTURES, "play": {"card": "2D"}}), 422, "card-not-held")
    assert found["code"] in ("card-not-held", "duplicate-card")


# ---- bad states ---------------------------------------------------------------------------------


def tampered(state, change):
    state = copy.deepcopy(state)
    change(state)
    return state


BAD_STATES = {
    "card-missing": (lambda s: s["stock"].pop(), "state"),
    "turn-wrong": (lambda s: s.__setitem__("turn", 0), "state.turn"),
    "turn-null-in-play": (lambda s: s.__setitem__("turn", None), "state.turn"),
    "hand-sizes": (lambda s: s["table"].append(s["hands"][0].pop()), "state.hands"),
    "stock-not-a-multiple": (lambda s: s["table"].append(s["stock"].pop()), "state.stock"),
    "sweeps-without-captures": (lambda s: s.__setitem__("sweeps", [0, 1]), "state.sweeps.1"),
    "negative-sweeps": (lambda s: s.__setitem__("sweeps", [0, -1]), None),
    "last-capturer-with-empty-pile": (lambda s: s.__setitem__("last_capturer", 0), "state.last_capturer"),
    "three-piles-for-two-players": (lambda s: s.__setitem__("piles", [[], [], []]), "state.piles"),
    "dealer-out-of-range": (lambda s: s.__setitem__("dealer", 2), "state.dealer"),
    "phase-over-with-cards-left": (lambda s: s.update(phase="over", turn=None), "state.phase"),
    "phase-cut-with-cards-dealt": (lambda s: s.update(phase="cut"), "state.phase"),
    "scopa-in-phase-cut": (lambda s: s.update(rules="scopa", phase="cut"), "state.phase"),
    "unknown-phase": (lambda s: s.update(phase="deal"), None),
    "chkobba-three-players": (lambda s: s.update(players=3, hands=[*s["hands"], []]), "state.players"),
}


@pytest.mark.parametrize("case", list(BAD_STATES))
def test_bad_state_is_a_422(client, fresh_state, case):
    change, field = BAD_STATES[case]
    state = tampered(fresh_state, change)
    # A field named: a state that breaks the rules; none: one that breaks the contract's form.
    code = "validation-error" if field is None else "bad-state"
    found = problem(client.post("/v1/rounds/play", json={"state": state, "move": {"card": "QH"}}), 422, code)
    if field is not None:
        assert field in found["errors"], found["errors"]


DUPLICATES = {
    "card-in-hand-and-stock": (lambda s: s["stock"].__setitem__(0, s["hands"][0][0]), ["state.hands.0", "state.stock"]),
    "card-in-table-and-pile": (lambda s: s["piles"][0].append(s["table"][0]), ["state.table", "state.piles.0"]),
}


@pytest.mark.parametrize("case", list(DUPLICATES))
def test_a_card_in_two_places_of_a_state_is_a_duplicate_naming_both(client, fresh_state, case):
    """docs/rules.md §10.21: the card and both field paths, in the detail and in errors."""
    change, places = DUPLICATES[case]
    state = tampered(fresh_state, change)
    found = problem(
        client.post("/v1/rounds/play", json={"state": state, "move": {"card": "QH"}}), 422, "duplicate-card"
    )
    assert list(found["errors"]) == places
    assert all(place in found["detail"] for place in places)


def test_bad_state_duplicate_between_a_hand_and_the_stock(client, fresh_state):
    state = tampered(fresh_state, lambda s: s["stock"].__setitem__(0, s["hands"][0][0]))
    found = problem(
        client.post("/v1/rounds/play", json={"state": state, "move": {"card": "QH"}}), 422, "duplicate-card"
    )
    assert "7C" in found["detail"]


def test_bad_state_hand_of_four(client, fresh_state):
    """docs/rules.md §9: hands hold 0-3 cards; a state breaking it is a bad state (openapi.yaml 'playRound':
    checked first)."""
    state = tampered(fresh_state, lambda s: s["hands"][1].append(s["stock"].pop(0)))
    found = problem(client.post("/v1/rounds/play", json={"state": state, "move": {"card": "QH"}}), 422, "bad-state")
    assert "state.hands.1" in found["errors"], found["errors"]


def test_bad_state_is_checked_before_the_move(client, fresh_state):
    """Even a move that would be legal, or one by the wrong seat, gets the bad-state problem first."""
    state = tampered(fresh_state, lambda s: s.__setitem__("turn", 0))
    problem(client.post("/v1/rounds/play", json={"state": state, "move": {"card": "7C", "seat": 0}}), 422, "bad-state")


def test_state_with_unknown_profile(client, fresh_state):
    state = tampered(fresh_state, lambda s: s.update(rules="nope"))
    problem(client.post("/v1/rounds/play", json={"state": state, "move": {"card": "QH"}}), 422, "unknown-profile")


def test_state_with_an_invalid_card(client, fresh_state):
    state = tampered(fresh_state, lambda s: s["stock"].__setitem__(3, "9S"))
    found = problem(client.post("/v1/rounds/play", json={"state": state, "move": {"card": "QH"}}), 422, "invalid-card")
    assert "state.stock.3" in found["errors"]


def test_state_with_unknown_fields(client, fresh_state):
    state = tampered(fresh_state, lambda s: s.update(score=[0, 0]))
    found = problem(
        client.post("/v1/rounds/play", json={"state": state, "move": {"card": "QH"}}), 422, "validation-error"
    )
    assert any("score" in key for key in found["errors"]), found["errors"]


@pytest.mark.parametrize(
    "move",
    [
        {},
        {"card": "QH", "cut": "keep"},
        {"cut": "halve"},
        {"card": "QH", "extra": 1},
        {"card": "QH", "seat": "1"},
        "QH",
    ],
)
def test_malformed_moves(client, fresh_state, move):
    found = problem(client.post("/v1/rounds/play", json={"state": fresh_state, "move": move}), 422, "validation-error")
    assert any(key.startswith("move") for key in found["errors"]), found["errors"]


def test_not_your_turn(client, fresh_state):
    found = problem(
        client.post("/v1/rounds/play", json={"state": fresh_state, "move": {"card": "7C", "seat": 0}}),
        422,
        "not-your-turn",
    )
    assert "move.seat" in found["errors"]


def test_wrong_phase(client, fresh_state):
    problem(client.post("/v1/rounds/play", json={"state": fresh_state, "move": {"cut": "table"}}), 422, "wrong-phase")


# ---- operational endpoints ----------------------------------------------------------------------


def test_health_and_readiness(client):
    assert ok(client.get("/healthz")) == {"status": "ok"}
    assert ok(client.get("/readyz")) == {"status": "ready"}


def test_openapi_is_served(client):
    response = client.get("/openapi.yaml")
    assert response.status_code == 200
    assert response.mimetype == "application/yaml"
    text = response.get_data(as_text=True)
    assert text.startswith("openapi: 3.1")
    for operation_id in (
        "listRulesets",
        "getRuleset",
        "legalCaptures",
        "applyMove",
        "scoreRound",
        "decideMatch",
        "dealRound",
        "playRound",
        "replayRound",
        "replayMatch",
    ):
        assert f"operationId: {operation_id}" in text


def test_metrics_text(client):
    client.get("/v1/rulesets")
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    text = response.get_data(as_text=True)
    assert 'chkobba_http_requests_total{operation="listRulesets",status="200"}' in text
    assert "chkobba_http_request_duration_seconds_bucket" in text


def test_a_card_twice_in_one_list_is_one_problem_at_both_places(client):
    """docs/rules.md §10.21: both indexes are in errors, and the detail counts it as one problem."""
    deck = [c for c in CANONICAL]
    deck[39] = deck[3]
    body = {"rules": "chkobba", "players": 2, "dealer": 0, "deck": deck, "cut": "keep"}
    found = problem(client.post("/v1/rounds", json=body), 422, "duplicate-card")
    assert set(found["errors"]) == {"deck.3", "deck.39"}
    assert "more)" not in found["detail"], found["detail"]
