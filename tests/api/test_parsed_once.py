"""One parse per value: a card list of a request is turned into cards once, by the schema field that
loads it, and the view hands those cards to the rules core, which does not parse them again.

Every card list, at the edge and in the core, goes through ``distinct_cards`` (service/rules/cards.py):
these tests count its calls on each list of a valid request.
"""

from __future__ import annotations

import sys
from collections import Counter

import pytest

from service.api.io import LOADERS
from service.api.schemas import REQUEST_SCHEMAS
from service.rules import CutMove, PlayMove, RecordMoves, RoundState, Stamp, deal_round, parse_move
from service.rules import cards as core_cards

from ..support import CANONICAL, deck_starting, ok, problem


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[str, ...]]:
    """How many times each card list (as its codes) is parsed: every module's ``distinct_cards`` counts."""
    real = core_cards.distinct_cards
    seen: Counter[tuple[str, ...]] = Counter()

    def counted(values: object) -> tuple[core_cards.Card, ...] | None:
        if type(values) in (list, tuple) and values:  # empty lists are alike: not counted
            seen[tuple(map(str, values))] += 1  # type: ignore[call-overload]
        return real(values)

    for module in list(sys.modules.values()):
        if getattr(module, "distinct_cards", None) is real:
            monkeypatch.setattr(module, "distinct_cards", counted)
    return seen


def twice(seen: Counter[tuple[str, ...]]) -> dict[tuple[str, ...], int]:
    return {codes: n for codes, n in seen.items() if n != 1}


def test_a_replayed_deck_is_parsed_once(client, parsed):
    body = {"rules": "scopa", "players": 2, "dealer": 0, "deck": CANONICAL, "moves": [{"card": "JS"}]}
    ok(client.post("/v1/rounds/replay", json=body))
    assert parsed[tuple(CANONICAL)] == 1
    assert not twice(parsed)


def test_a_dealt_deck_is_parsed_once(client, parsed):
    deck = deck_starting("QH", "5S", "4H", "7C", "AC", "2H", "AD", "2D", "3C", "2S")
    ok(client.post("/v1/rounds", json={"rules": "chkobba", "players": 2, "dealer": 0, "deck": deck, "cut": "keep"}))
    assert parsed[tuple(deck)] == 1


def test_the_decks_of_a_match_record_are_parsed_once(client, parsed):
    body = {"rules": "scopa", "players": 2, "dealer": 0, "rounds": [{"deck": CANONICAL, "moves": [{"card": "JS"}]}]}
    ok(client.post("/v1/matches/replay", json=body))
    assert parsed[tuple(CANONICAL)] == 1


def test_the_cards_of_a_move_are_parsed_once(client, parsed):
    body = {
        "rules": "chkobba",
        "table": ["7S", "4C", "3D"],
        "hand": ["7H", "AD"],
        "play": {"card": "7H", "capture": ["7S"]},
    }
    ok(client.post("/v1/moves", json=body))
    assert set(parsed) == {("7S", "4C", "3D"), ("7H", "AD"), ("7S",)}
    assert not twice(parsed)


def test_the_piles_scored_are_parsed_once(client, parsed):
    piles = [CANONICAL[:22], CANONICAL[22:]]
    body = {"rules": "scopa", "sides": [{"captured": pile, "sweeps": 0} for pile in piles]}
    ok(client.post("/v1/scores", json=body))
    assert parsed[tuple(piles[0])] == 1 and parsed[tuple(piles[1])] == 1


def test_the_cards_of_a_plain_state_are_parsed_once(client, parsed):
    deck = deck_starting("QH", "5S", "4H", "7C", "AC", "2H", "AD", "2D", "3C", "2S")
    dealt = ok(
        client.post("/v1/rounds", json={"rules": "chkobba", "players": 2, "dealer": 0, "deck": deck, "cut": "keep"})
    )
    parsed.clear()
    ok(client.post("/v1/rounds/play", json={"state": dealt["state"], "move": {"card": "QH"}}))
    state = dealt["state"]
    for cards in [*state["hands"], state["table"], state["stock"]]:
        assert parsed[tuple(cards)] == 1, cards


@pytest.mark.parametrize("schema", ["replay", "match_replay"])
def test_a_record_s_moves_are_loaded_as_moves_by_the_schema_on_either_road(schema):
    """The schema field parses a record's moves with the core's parse_record_moves (parse_move, and each
    move's time), on the short road and on marshmallow's (taken when anything else in the body is in
    doubt), so the core plays them as they are."""
    moves = [{"card": "JS"}, {"card": "QH", "capture": ["2D", "6S"], "seat": 1}, {"cut": "keep"}]
    timed = [{**moves[0], "at_ms": 5}, moves[1], {**moves[2], "at_ms": 9, "auto": "timeout"}]
    for given, stamps in ((moves, None), (timed, (Stamp(5), None, Stamp(9, True)))):
        record = {"deck": CANONICAL, "moves": given}
        body = {"rules": "scopa", "players": 2, "dealer": 0}
        body |= record if schema == "replay" else {"rounds": [record]}
        for loaded in (LOADERS[schema].load(body), REQUEST_SCHEMAS[schema].load(body)):
            found = loaded["moves"] if schema == "replay" else loaded["rounds"][0]["moves"]
            assert found == RecordMoves(tuple(parse_move(move) for move in moves), stamps)
            assert [type(move) for move in found.moves] == [PlayMove, PlayMove, CutMove]


@pytest.mark.parametrize("schema", ["play", "view", "hints"])
def test_a_plain_state_is_loaded_as_a_checked_round_state_by_the_schema_on_either_road(schema):
    """The StateField builds the RoundState and has the core check it, once, on the short road and on
    marshmallow's: the views take it as it is."""
    state, _ = deal_round("chkobba", 2, 0, deck=CANONICAL, cut="keep")
    body = {"state": state.to_json()} | ({"move": {"card": "KD"}} if schema == "play" else {})
    for loaded in (LOADERS[schema].load(body), REQUEST_SCHEMAS[schema].load(body)):
        assert loaded["state"] == state and type(loaded["state"]) is RoundState


def test_a_state_the_rules_refuse_is_an_error_of_its_field_beside_the_others(client):
    """A state no round reaches is refused with the core's code at the path the core names, and an
    error elsewhere in the same body is named too (the schema collects both)."""
    state, _ = deal_round("chkobba", 2, 0, deck=CANONICAL, cut="keep")
    plain = state.to_json() | {"sweeps": [18, 0]}
    found = problem(client.post("/v1/rounds/play", json={"state": plain, "move": {"card": 5}}), 422, "bad-state")
    assert set(found["errors"]) == {"state.sweeps.0", "move.card"}
    assert found["detail"].startswith("state.sweeps.0: side 0 has 18 sweeps")
