"""Bodies that are JSON only in part, or ambiguous, or built to break a parser: a 400, 413, 415 or
422 problem with a precise code, never a 5xx and never a guess (issue: "no 500 from any body")."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.ops.limits import MAX_BODY_BYTES
from service.rules.match import MAX_SCORE
from service.rules.profiles import MAX_TARGET
from service.rules.sweeps import MAX_SWEEPS

from ..support import POST_PATHS, counts, examples, ok, problem

CAPTURES = {"rules": "chkobba", "table": ["2D", "6S"], "hand": ["QH"]}
SCORES = {
    "rules": "chkobba",
    "sides": [
        {"counts": counts(22, 6, 2, 3, True), "sweeps": 1},
        {"counts": counts(18, 4, 2, 1, False), "sweeps": 0},
    ],
}
MATCH = {"rules": "chkobba", "scores": [17, 12], "round_points": [5, 1]}
DEAL = {"rules": "scopa", "players": 2, "dealer": 0, "seed": "hostile"}


def post(client: Any, path: str, raw: bytes, content_type: str = "application/json") -> Any:
    return client.post(path, data=raw, content_type=content_type)


# ---- duplicate keys: which value counts would be up to the parser --------------------------------------


@pytest.mark.parametrize(
    ("path", "raw", "key"),
    [
        ("/v1/captures", b'{"rules":"scopa","rules":"chkobba","table":["2D","6S"],"hand":["QH"]}', "rules"),
        ("/v1/moves", b'{"rules":"chkobba","table":[],"hand":["QH"],"play":{"card":"QH","card":"QH"}}', "card"),
        (
            "/v1/rounds",
            b'{"rules":{"profile":"scopa","options":{"target":11,"target":21}},"players":2,"dealer":0}',
            "target",
        ),
        # a colon inside a string: the parser cannot count keys by colons, and must still find the twin
        ("/v1/rounds", b'{"rules":"scopa","players":2,"dealer":0,"seed":"a:b","dealer":1}', "dealer"),
        # an escaped colon parses to one colon more than the body shows: it must not hide the twin
        ("/v1/rounds", rb'{"rules":"scopa","players":2,"dealer":0,"seed":"a\u003ab","dealer":1}', "dealer"),
    ],
    ids=["top-level", "nested", "in-options", "beside-a-colon-in-a-string", "beside-an-escaped-colon"],
)
def test_a_key_named_twice_is_a_400(client: Any, path: str, raw: bytes, key: str) -> None:
    body = problem(post(client, path, raw), 400, "duplicate-key")
    assert f'"{key}"' in body["detail"]


def test_the_same_key_in_two_objects_is_not_a_duplicate(client: Any) -> None:
    raw = b'{"rules":"chkobba","table":["2D","6S"],"hand":["QH"],"play":{"card":"QH","capture":["2D","6S"]}}'
    assert ok(post(client, "/v1/moves", raw))["captured"]


def test_colons_in_strings_are_read_as_text(client: Any) -> None:
    raw = json.dumps({**DEAL, "seed": "a:b:c"}).encode()
    assert ok(post(client, "/v1/rounds", raw))["state"]["phase"] == "play"


# ---- text that is not Unicode, or not UTF-8 --------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "raw"),
    [
        ("/v1/captures", b'{"rules":"chkobba","table":[],"hand":["QH"],"\\ud800":1}'),  # an unknown field's name
        ("/v1/rounds", b'{"rules":{"profile":"scopa","options":{"\\udfff":true}},"players":2,"dealer":0}'),
        ("/v1/rounds", b'{"rules":"scopa","players":2,"dealer":0,"seed":"\\ud800"}'),
        ("/v1/rounds", b'{"rules":"scopa","players":2,"dealer":0,"seed":"x:\\ud83d"}'),  # the slow road
        ("/v1/captures", b'{"rules":"chkobba","table":[],"hand":["\\ude00\\ud83d"]}'),  # a pair the wrong way round
    ],
    ids=["field-name", "option-name", "seed", "seed-beside-a-colon", "reversed-pair"],
)
def test_a_lone_surrogate_is_a_400(client: Any, path: str, raw: bytes) -> None:
    assert "surrogate" in problem(post(client, path, raw), 400, "malformed-json")["detail"]


def test_a_surrogate_pair_is_one_character(client: Any) -> None:
    raw = b'{"rules":"scopa","players":2,"dealer":0,"seed":"\\ud83d\\ude00"}'
    assert ok(post(client, "/v1/rounds", raw))["state"]["phase"] == "play"


@pytest.mark.parametrize(
    "raw",
    [
        json.dumps(CAPTURES).encode("utf-16"),
        json.dumps(CAPTURES).encode("utf-32"),
        b"\xef\xbb\xbf" + json.dumps(CAPTURES).encode(),
        json.dumps({**CAPTURES, "rules": "scopa\u00e9"}, ensure_ascii=False).encode("latin-1"),
    ],
    ids=["utf-16", "utf-32", "utf-8-bom", "latin-1"],
)
def test_anything_but_utf8_is_a_400(client: Any, raw: bytes) -> None:
    problem(post(client, "/v1/captures", raw), 400, "malformed-json")


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinities_are_not_json(client: Any, constant: str) -> None:
    raw = f'{{"rules":"chkobba","scores":[{constant},0],"round_points":[1,1]}}'.encode()
    problem(post(client, "/v1/match-decisions", raw), 400, "malformed-json")


@pytest.mark.parametrize("path", POST_PATHS)
@pytest.mark.parametrize(
    "data",
    [
        "[" * 20000,
        "[" * 20000 + "]" * 20000,
        '{"a":' * 10000,
        '{"a":' * 10000 + "1" + "}" * 10000,
        '{"rules": "chkobba", "table": ' + "[" * 20000 + "]" * 20000 + "}",
        "[" * 1100 + "]" * 1100,
        # Deeper than the 254 levels taken, though orjson reads them; from 952 levels on, an error
        # message naming such a value recursed out of Python's stack (a 500).
        '{"rules": "chkobba", "table": ' + "[" * 254 + "]" * 254 + ', "hand": ["QH"]}',
        '{"rules": "chkobba", "table": ' + "[" * 962 + "]" * 962 + ', "hand": ["QH"]}',
        '{"rules": "chkobba", "x": ' + '{"a":' * 600 + "1" + "}" * 600 + "}",
        # The same depths on the strict parser's road (a \u escape takes it)
        '{"rules": "chkob\\u0062a", "table": ' + "[" * 300 + "]" * 300 + "}",
    ],
    ids=[
        "open-arrays",
        "closed-arrays",
        "open-objects",
        "closed-objects",
        "in-a-field",
        "just-over-orjson-depth",
        "255-levels",
        "963-levels",
        "601-objects",
        "strict-road",
    ],
)
def test_absurd_nesting_is_a_400(client: Any, path: str, data: str) -> None:
    refusal = problem(post(client, path, data.encode()), 400, "malformed-json")
    assert "254 levels" in refusal["detail"] or "not valid JSON" in refusal["detail"]


# ---- numbers beyond the contract's maxima ----------------------------------------------------------------

HUGE = "9" * 4300


@pytest.mark.parametrize(
    ("path", "raw", "field"),
    [
        ("/v1/match-decisions", f'{{"rules":"chkobba","scores":[{HUGE},0],"round_points":[1,1]}}', "scores.0"),
        ("/v1/match-decisions", f'{{"rules":"chkobba","scores":[0,0],"round_points":[1,{HUGE}0]}}', "round_points.1"),
        ("/v1/scores", json.dumps(SCORES).replace('"sweeps": 1', f'"sweeps": {HUGE}'), "sides.0.sweeps"),
        ("/v1/match-decisions", json.dumps(MATCH).replace("[17, 12]", "[18446744073709551616, 1]"), "scores.0"),
        ("/v1/match-decisions", json.dumps(MATCH).replace("[17, 12]", "[1e400, 1]"), "scores.0"),
    ],
    ids=["4300-digits", "4301-digits", "sweeps", "2-to-the-64", "float-infinity"],
)
def test_a_number_too_big_for_any_field_is_a_422(client: Any, path: str, raw: str, field: str) -> None:
    assert field in problem(post(client, path, raw.encode()), 422, "validation-error")["errors"]


def test_a_huge_target_is_an_invalid_option(client: Any) -> None:
    raw = f'{{"rules":{{"profile":"chkobba","options":{{"target":{HUGE}}}}},"scores":[0,0],"round_points":[1,1]}}'
    assert (
        "rules.options.target"
        in problem(post(client, "/v1/match-decisions", raw.encode()), 422, "invalid-option")["errors"]
    )


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        (
            {**MATCH, "rules": {"profile": "chkobba", "options": {"target": MAX_TARGET + 1}}},
            "rules.options.target",
            "invalid-option",
        ),
        ({**MATCH, "scores": [MAX_SCORE + 1, 0]}, "scores.0", "validation-error"),
        ({**MATCH, "round_points": [5, 26]}, "round_points.1", "validation-error"),
    ],
    ids=["target", "score", "round-points"],
)
def test_one_above_each_maximum_is_refused(client: Any, body: dict[str, Any], field: str, code: str) -> None:
    assert field in problem(client.post("/v1/match-decisions", json=body), 422, code)["errors"]


def test_the_maxima_themselves_are_taken(client: Any) -> None:
    body = {**MATCH, "rules": {"profile": "chkobba", "options": {"target": MAX_TARGET}}, "scores": [0, 0]}
    assert ok(client.post("/v1/match-decisions", json=body))["target"] == MAX_TARGET
    sides = [
        {"counts": counts(40, 10, 4, 4, True), "sweeps": MAX_SWEEPS},
        {"counts": counts(0, 0, 0, 0, False), "sweeps": 0},
    ]
    assert (
        ok(client.post("/v1/scores", json={"rules": "chkobba", "sides": sides}))["breakdown"][0]["sweeps"] == MAX_SWEEPS
    )


def test_round_points_above_what_the_profile_gives_are_invalid_scores(client: Any) -> None:
    """22 points (4 categories and 18 sweeps, docs/rules.md §10.17) is chkobba's most, which the schema
    allows; scopa scores no sevens: 21."""
    body = {**MATCH, "rules": "scopa", "scores": [0, 0], "round_points": [22, 0]}
    assert "round_points.0" in problem(client.post("/v1/match-decisions", json=body), 422, "invalid-scores")["errors"]


# ---- media types -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content_type",
    ["application/json", "application/json; charset=utf-8", "application/json;charset=UTF-8", "APPLICATION/JSON"],
)
def test_json_with_or_without_charset_utf8_is_taken(client: Any, content_type: str) -> None:
    ok(post(client, "/v1/captures", json.dumps(CAPTURES).encode(), content_type))


@pytest.mark.parametrize(
    "content_type",
    [
        "application/json; charset=latin-1",
        "application/json; charset=utf-16",
        "application/evil+json",
        "application/problem+json",
        "application/json; profile=x",
        "text/json",
        "text/plain",
    ],
)
def test_any_other_media_type_is_a_415(client: Any, content_type: str) -> None:
    problem(post(client, "/v1/captures", json.dumps(CAPTURES).encode(), content_type), 415, "unsupported-media-type")


# ---- a body sent without a length (chunked) ---------------------------------------------------------------


def chunked_post(app: Any, raw: bytes) -> tuple[int, dict[str, Any]]:
    """What a server that reads chunked bodies hands the app: no Content-Length, input terminated."""
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/v1/captures",
        "SERVER_NAME": "test",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(raw),
        "wsgi.input_terminated": True,
        "wsgi.errors": sys.stderr,
        "CONTENT_TYPE": "application/json",
        "HTTP_TRANSFER_ENCODING": "chunked",
    }
    status: list[str] = []
    body = b"".join(app(environ, lambda s, h, e=None: status.append(s)))
    return int(status[0][:3]), json.loads(body)


def test_a_chunked_body_over_the_limit_is_a_413_not_its_first_part(app: Any) -> None:
    fits = json.dumps(CAPTURES).encode().ljust(MAX_BODY_BYTES)
    assert chunked_post(app, fits)[0] == 200
    status, answer = chunked_post(app, fits + b" ")
    assert (status, answer["code"]) == (413, "body-too-large")


# ---- fuzzing: one hostile change to a valid body -----------------------------------------------------------

VALID = {"/v1/captures": CAPTURES, "/v1/scores": SCORES, "/v1/match-decisions": MATCH, "/v1/rounds": DEAL}


def keys_of(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [*value, *(k for v in value.values() for k in keys_of(v))]
    if isinstance(value, list):
        return [k for v in value for k in keys_of(v)]
    return []


@examples(60)
@given(data=st.data())
def test_one_hostile_change_to_a_valid_body(client: Any, data: Any) -> None:
    path = data.draw(st.sampled_from(sorted(VALID)))
    text = json.dumps(VALID[path])
    numbers = [i for i, c in enumerate(text) if c.isdigit() and not text[i - 1].isalnum() and text[i - 1] != '"']
    change = data.draw(st.sampled_from(["twin", "surrogate", "encoding", "media"] + ["huge"] * bool(numbers)))
    content_type, raw = "application/json", text.encode()
    if change == "twin":  # a key of some object said again, with any value
        key = data.draw(st.sampled_from(keys_of(VALID[path])))
        at = text.index(f'"{key}": ')
        twin = f'"{key}": {json.dumps(data.draw(st.integers() | st.text(max_size=4) | st.none()))}, '
        raw, expected = (text[:at] + twin + text[at:]).encode(), (400, "duplicate-key")
    elif change == "surrogate":  # a lone surrogate escaped inside some string
        escape = "\\u" + format(data.draw(st.integers(0xD800, 0xDFFF)), "04x")
        at = data.draw(st.sampled_from([i + 1 for i, c in enumerate(text) if c == '"']))
        raw, expected = (text[:at] + escape + text[at:]).encode(), (400, "malformed-json")
    elif change == "huge":  # some whole number replaced by one of 20 to 5,000 digits
        at = data.draw(st.sampled_from(numbers))
        end = at + len(text[at:]) - len(text[at:].lstrip("0123456789"))
        digits = "9" * data.draw(st.integers(20, 5000))
        raw, expected = (text[:at] + digits + text[end:]).encode(), (422, "validation-error")
    elif change == "encoding":
        raw = text.encode(data.draw(st.sampled_from(["utf-16", "utf-16-le", "utf-32", "utf-8-sig"])))
        expected = (400, "malformed-json")
    else:
        content_type = data.draw(
            st.sampled_from(["application/x+json", "text/plain", "application/json; charset=ascii"])
        )
        expected = (415, "unsupported-media-type")
    problem(post(client, path, raw, content_type), *expected)


@pytest.mark.parametrize("coding", ["gzip", "br", "identity, gzip"])
def test_a_content_coding_is_a_415(client: Any, coding: str) -> None:
    """The body would be judged as it came, not as its coding says it is."""
    response = client.post(
        "/v1/captures", data=json.dumps(CAPTURES), content_type="application/json", headers={"Content-Encoding": coding}
    )
    problem(response, 415, "unsupported-media-type")


def test_the_identity_coding_is_the_body_as_it_is(client: Any) -> None:
    response = client.post(
        "/v1/captures",
        data=json.dumps(CAPTURES),
        content_type="application/json",
        headers={"Content-Encoding": "identity"},
    )
    ok(response)


# ---- long lists of bad items: the length is refused before any item is looked at --------------------

STATE = {
    "rules": "chkobba", "players": 2, "dealer": 0, "phase": "play", "turn": 1, "hands": [[], []],
    "table": [], "stock": [], "piles": [[], []], "sweeps": [0, 0], "last_capturer": None,
}  # fmt: skip
MATCH_RECORD = {"rules": "chkobba", "players": 2, "dealer": 0}


@pytest.mark.parametrize(
    ("path", "body", "where"),
    [
        ("/v1/matches/replay", lambda items: {**MATCH_RECORD, "rounds": items}, "rounds"),
        ("/v1/scores", lambda items: {"rules": "chkobba", "sides": items}, "sides"),
        ("/v1/scores", lambda items: {**SCORES, "claimed": items}, "claimed"),
        ("/v1/match-decisions", lambda items: {**MATCH, "round_points": items}, "round_points"),
        ("/v1/match-decisions", lambda items: {**MATCH, "scores": items}, "scores"),
        ("/v1/rounds/play", lambda items: {"state": {**STATE, "hands": items}, "move": {"card": "AD"}}, "state.hands"),
        ("/v1/rounds/play", lambda items: {"state": {**STATE, "piles": items}, "move": {"card": "AD"}}, "state.piles"),
        ("/v1/hints", lambda items: {"state": {**STATE, "sweeps": items}}, "state.sweeps"),
    ],
)
@pytest.mark.parametrize("item", [1, {}, ""])
def test_a_list_too_long_is_refused_for_its_length_before_its_items(client, path, body, where, item):
    """A 64 KiB body holds some 20,000 bad items: marshmallow would give each its error before the
    length refused the list (a second of work and a problem of megabytes, issue 12's tryout), where
    the length alone says what is wrong."""
    items = [item] * 20_000
    raw = json.dumps(body(items), separators=(",", ":")).encode()
    assert len(raw) <= MAX_BODY_BYTES
    response = post(client, path, raw)
    found = problem(response, 422, "validation-error")
    assert list(found["errors"]) == [where], list(found["errors"])[:5]
    assert found["errors"][where][0].startswith(("Length must be between", "Longer than maximum length"))
    assert len(response.get_data()) < 1000


def test_a_body_of_thousands_of_unknown_keys_lists_a_few_and_counts_them_all(client):
    """Every unknown key is an error of its own: the problem lists the first 32 paths and its detail
    counts every one, so 6,000 of them answer a problem of a few KB, not 200 KB."""
    state = {**STATE, **{f"k{i}": 1 for i in range(6000)}}
    raw = json.dumps({"state": state, "move": {"card": "AD"}}, separators=(",", ":")).encode()
    response = post(client, "/v1/rounds/play", raw)
    found = problem(response, 422, "validation-error")
    assert len(found["errors"]) == 32 and all(path.startswith("state.k") for path in found["errors"])
    assert found["detail"].endswith("(and 5999 more)")
    assert len(response.get_data()) < 4000
