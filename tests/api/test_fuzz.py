"""No request, however malformed, gets a 5xx or a body without a problem code (README.md, 'Errors').

Bounded and deterministic: the hypothesis profile of tests/conftest.py derandomizes every run.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ..support import CANONICAL, POST_PATHS, deck_starting, examples

ANSWERS = {200, 400, 404, 413, 415, 422}

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-2, max_value=5)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from([*CANONICAL, "8D", "10H", "7d", "chkobba", "chkobba-crp", "scopa", "keep", "table", "play"])
)
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=8), children, max_size=6),
    max_leaves=25,
)

FIELDS = {
    "/v1/captures": ["rules", "table", "hand", "last_play"],
    "/v1/moves": ["rules", "table", "hand", "play", "last_play"],
    "/v1/scores": ["rules", "sides", "last_capturer", "claimed"],
    "/v1/match-decisions": ["rules", "scores", "round_points", "claimed"],
    "/v1/rounds": ["rules", "players", "dealer", "deck", "seed", "cut"],
    "/v1/rounds/play": ["state", "move"],
    "/v1/rounds/replay": ["rules", "players", "dealer", "deck", "cut", "moves", "claimed"],
    "/v1/matches/replay": ["rules", "players", "dealer", "rounds", "claimed"],
    "/v1/rounds/review": ["rules", "players", "dealer", "deck", "cut", "moves", "claimed", "fair", "clock"],
    "/v1/rounds/view": ["state", "state_token", "seat", "context"],
    "/v1/hints": ["state", "state_token", "seat", "limit", "level", "context"],
    "/v1/deals/commitments": ["x"],
}
INNER = ["profile", "options", "card", "capture", "cut", "seat", "captured", "counts", "sweeps", "outcome", "winner"]
INNER += ["phase", "turn", "hands", "stock", "piles", "cards", "diamonds", "sevens", "sixes", "seven_of_diamonds"]
INNER += ["rules", "players", "dealer", "deck", "moves", "claimed", "scores"]  # a match record's rounds and claim
near_values = st.recursive(
    scalars | st.lists(st.sampled_from(CANONICAL), max_size=8),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(INNER) | st.text(max_size=4), children, max_size=5)
    ),
    max_leaves=20,
)


def check(response) -> None:
    assert response.status_code < 500, response.get_data(as_text=True)
    assert response.status_code in ANSWERS, (response.status_code, response.get_data(as_text=True))
    body = json.loads(response.get_data(as_text=True))
    if response.status_code >= 300:
        assert response.mimetype == "application/problem+json"
        assert isinstance(body, dict) and isinstance(body.get("code"), str) and body["code"]
        assert body["status"] == response.status_code
        for name in ("type", "title", "detail"):
            assert isinstance(body.get(name), str)
    else:
        assert response.mimetype == "application/json"


@examples(100)
@given(value=json_values)
def test_random_json_to_every_post_path(client, value):
    data = json.dumps(value)
    for path in POST_PATHS:
        check(client.post(path, data=data, content_type="application/json"))


@examples(100)
@given(data=st.data())
def test_near_miss_bodies(client, data):
    """Objects with the operation's own field names (and a stray one) holding random values."""
    path = data.draw(st.sampled_from(POST_PATHS))
    names = data.draw(st.lists(st.sampled_from([*FIELDS[path], "x"]), unique=True, max_size=len(FIELDS[path]) + 1))
    body = {name: data.draw(near_values) for name in names}
    check(client.post(path, json=body))


@examples(50)
@given(raw=st.binary(max_size=64))
def test_random_bytes(client, raw):
    for path in ("/v1/captures", "/v1/rounds/play"):
        check(client.post(path, data=raw, content_type="application/json"))


@pytest.fixture(scope="module")
def valid_bodies(client) -> dict[str, dict]:
    deck = deck_starting("QH", "5S", "4H", "7C", "AC", "2H", "AD", "2D", "3C", "2S")
    deal = {"rules": "chkobba", "players": 2, "dealer": 0, "deck": deck, "cut": "keep"}
    state = client.post("/v1/rounds", json=deal).get_json()["state"]
    table, hand, sweep = ["AD", "2D", "3C", "2S"], ["QH", "5S", "4H"], ["2S", "3C", "2D", "AD"]
    counts = {"cards": 22, "diamonds": 6, "sevens": 2, "sixes": 3, "seven_of_diamonds": True}
    other = {"cards": 18, "diamonds": 4, "sevens": 2, "sixes": 1, "seven_of_diamonds": False}
    line = {"side": 0, "cards": 1, "diamonds": 1, "sevens": 1, "seven_of_diamonds": 1, "sweeps": 1, "primiera": 0}
    claimed = [{**line, "total": 5}, {**{k: 0 for k in line}, "side": 1, "total": 0}]
    return {
        "/v1/captures": {"rules": "chkobba", "table": table, "hand": hand, "last_play": False},
        "/v1/moves": {"rules": "chkobba", "table": table, "hand": hand, "play": {"card": "QH", "capture": sweep}},
        "/v1/scores": {
            "rules": {"profile": "chkobba", "options": {"target": 21}},
            "sides": [{"counts": counts, "sweeps": 1}, {"counts": other, "sweeps": 0}],
            "last_capturer": 0,
            "claimed": claimed,
        },
        "/v1/match-decisions": {
            "rules": "chkobba",
            "scores": [17, 12],
            "round_points": [5, 1],
            "claimed": {"outcome": "won", "winner": 0},
        },
        "/v1/rounds": deal,
        "/v1/rounds/play": {"state": state, "move": {"card": "QH", "capture": sweep, "seat": 1}},
        "/v1/rounds/replay": {
            **deal,
            "moves": [{"card": "QH", "capture": sweep, "seat": 1}, {"card": "7C"}, {"card": "5S"}],
            "claimed": claimed,
        },
        "/v1/matches/replay": {
            "rules": "chkobba",
            "players": 2,
            "dealer": 0,
            "rounds": [
                {
                    **deal,
                    "moves": [{"card": "QH", "capture": sweep, "seat": 1}, {"card": "7C"}, {"card": "5S"}],
                    "claimed": claimed,
                }
            ],
            "claimed": {"outcome": "won", "winner": 0, "scores": [21, 12]},
        },
        "/v1/rounds/review": {**deal, "moves": [{"card": "QH", "capture": sweep, "seat": 1}, {"card": "7C"}]},
        "/v1/rounds/view": {"state": state, "seat": 0},
        "/v1/hints": {"state": state, "seat": 1, "limit": 3, "level": "expert"},
        "/v1/deals/commitments": {},
    }


def test_the_bodies_to_mutate_are_valid(client, valid_bodies):
    for path in POST_PATHS:
        response = client.post(path, json=valid_bodies[path])
        assert response.status_code == 200, (path, response.get_json())


def paths_of(value, prefix=()):
    """Every path to a value inside a JSON document (the root included)."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths_of(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths_of(item, (*prefix, index))


def replaced(value, path, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: replaced(value[head], rest, new)}
    return [replaced(item, rest, new) if i == head else item for i, item in enumerate(value)]


@examples(100)
@given(data=st.data())
def test_one_mutation_of_a_valid_body(client, valid_bodies, data):
    """A valid body with one value replaced: reaches the rules core, the state checks and the round engine."""
    path = data.draw(st.sampled_from(POST_PATHS))
    body = valid_bodies[path]
    where = data.draw(st.sampled_from(list(paths_of(body))))
    mutated = replaced(body, where, data.draw(near_values))
    check(client.post(path, json=mutated))
