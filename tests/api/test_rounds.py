"""dealRound, playRound and replayRound (openapi.yaml; docs/rules.md §2-§7, §9)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import pytest

from ..support import CANONICAL, counted, deck_starting, expected_breakdown, ok, problem
from ..support import reference_shuffle as seeded_deck

STATE_KEYS = {
    "rules",
    "players",
    "dealer",
    "phase",
    "turn",
    "hands",
    "table",
    "stock",
    "piles",
    "sweeps",
    "last_capturer",
}


def deal(client, **body):
    return client.post("/v1/rounds", json=body)


def play(client, state, move):
    return client.post("/v1/rounds/play", json={"state": state, "move": move})


def replay(client, **body):
    return client.post("/v1/rounds/replay", json=body)


# ---- dealRound ----------------------------------------------------------------------------------


def test_deal_two_players_cut_keep_from_a_deck(client):
    """Dealer 0: seat 1 (the cutter, who keeps the top card) takes AD 2D 3D, seat 0 4D 5D 6D, the table 4."""
    body = ok(deal(client, rules="chkobba", players=2, dealer=0, deck=CANONICAL, cut="keep"))
    assert body == {
        "state": {
            "rules": "chkobba",
            "players": 2,
            "dealer": 0,
            "phase": "play",
            "turn": 1,
            "hands": [["4D", "5D", "6D"], ["AD", "2D", "3D"]],
            "table": ["7D", "JD", "QD", "KD"],
            "stock": CANONICAL[10:],
            "piles": [[], []],
            "sweeps": [0, 0],
            "last_capturer": None,
        },
        "deck": CANONICAL,
    }


def test_deal_two_players_cut_table(client):
    """The cutter tables the top card: it is the first table card; the blocks come after it."""
    state = ok(deal(client, rules="chkobba", players=2, dealer=0, deck=CANONICAL, cut="table"))["state"]
    assert state["hands"] == [["5D", "6D", "7D"], ["2D", "3D", "4D"]]
    assert state["table"] == ["AD", "JD", "QD", "KD"]
    assert state["stock"] == CANONICAL[10:]
    assert (state["phase"], state["turn"]) == ("play", 1)


def test_deal_four_players_blocks_in_playing_order_from_dealer_plus_one(client):
    state = ok(deal(client, rules="chkobba", players=4, dealer=3, deck=CANONICAL, cut="keep"))["state"]
    assert state["hands"] == [["AD", "2D", "3D"], ["4D", "5D", "6D"], ["7D", "JD", "QD"], ["KD", "AH", "2H"]]
    assert state["table"] == ["3H", "4H", "5H", "6H"]
    assert state["stock"] == CANONICAL[16:]
    assert state["turn"] == 0
    assert state["piles"] == [[], []] and state["sweeps"] == [0, 0]


def test_deal_three_players_crp(client):
    """Dealer 1: order 2, 0, 1; three sides."""
    state = ok(deal(client, rules="chkobba-crp", players=3, dealer=1, deck=CANONICAL))["state"]
    assert state["hands"] == [["4D", "5D", "6D"], ["7D", "JD", "QD"], ["AD", "2D", "3D"]]
    assert state["table"] == ["KD", "AH", "2H", "3H"]
    assert state["stock"] == CANONICAL[13:]
    assert state["turn"] == 2 and state["phase"] == "play"
    assert state["piles"] == [[], [], []] and state["sweeps"] == [0, 0, 0]


def test_deal_scopa(client):
    state = ok(deal(client, rules="scopa", players=2, dealer=1, deck=CANONICAL))["state"]
    assert state["hands"] == [["AD", "2D", "3D"], ["4D", "5D", "6D"]]
    assert state["table"] == ["7D", "JD", "QD", "KD"]
    assert state["turn"] == 0 and state["rules"] == "scopa"


def test_deal_rules_object_is_echoed(client):
    rules = {"profile": "chkobba-crp", "options": {"primiera": True, "target": 16}}
    state = ok(deal(client, rules=rules, players=2, dealer=0, deck=CANONICAL))["state"]
    assert state["rules"] == rules


@pytest.mark.parametrize("seed", ["chkobba", "referee-2026", "élan"])
def test_deal_from_a_seed_follows_the_portable_shuffle(client, seed):
    deck = seeded_deck(seed)
    body = ok(deal(client, rules="chkobba", players=2, dealer=1, seed=seed, cut="keep"))
    assert body["deck"] == deck
    state = body["state"]
    if state["phase"] == "redeal":
        assert state["turn"] is None
    else:
        assert state["hands"] == [deck[0:3], deck[3:6]]
        assert state["turn"] == 0
    assert state["table"] == deck[6:10]
    assert state["stock"] == deck[10:]


@pytest.mark.parametrize("seed", ["chkobba", "table-cut"])
def test_deal_from_a_seed_with_the_cut_card_tabled(client, seed):
    """Dealer 1, cut table: the top card starts the table; seats 0 and 1 take the next two blocks of 3."""
    deck = seeded_deck(seed)
    body = ok(deal(client, rules="chkobba", players=2, dealer=1, seed=seed, cut="table"))
    assert body["deck"] == deck
    state = body["state"]
    assert state["hands"] == [deck[1:4], deck[4:7]]
    assert state["table"] == [deck[0], *deck[7:10]]
    assert state["stock"] == deck[10:]


def test_deal_numeric_seed_is_its_decimal_text(client):
    by_number = ok(deal(client, rules="scopa", players=2, dealer=0, seed=2026))
    by_text = ok(deal(client, rules="scopa", players=2, dealer=0, seed="2026"))
    assert by_number == by_text
    assert by_number["deck"] == seeded_deck("2026")


@pytest.mark.parametrize("seed", [2**63 - 1, -(2**63), 2**53 + 1, -(10**18)])
def test_deal_whole_number_seeds_span_the_signed_64_bit_range(client, seed):
    """Integers beyond JSON's safe range (2^53) and below -2^63 + 1 must not turn into floats."""
    assert ok(deal(client, rules="scopa", players=2, dealer=0, seed=seed))["deck"] == seeded_deck(str(seed))


@pytest.mark.parametrize("seed", [2**63, -(2**63) - 1, 2**64 - 1, 2**64, -(2**64), 10**40])
def test_deal_seed_beyond_the_signed_64_bit_range_is_refused(client, seed):
    """Kotlin, Swift and Java clients hold a seed in a signed 64-bit integer: larger ones go as strings."""
    refusal = problem(deal(client, rules="scopa", players=2, dealer=0, seed=seed), 422, "invalid-input")
    assert refusal["code"] == "invalid-input" and "2^63 - 1" in refusal["detail"]


def test_deal_a_large_seed_as_a_string_gives_the_deck_of_its_digits(client):
    big = str(2**64 - 1)
    assert ok(deal(client, rules="scopa", players=2, dealer=0, seed=big))["deck"] == seeded_deck(big)


def test_deal_without_deck_or_seed_returns_the_deck_used(client):
    body = ok(deal(client, rules="scopa", players=2, dealer=0))
    deck = body["deck"]
    assert sorted(deck) == sorted(CANONICAL)
    assert body["state"]["hands"] == [deck[3:6], deck[0:3]]
    assert body["state"]["table"] == deck[6:10] and body["state"]["stock"] == deck[10:]


def test_deal_chkobba_without_cut_waits_for_the_cutter(client):
    body = ok(deal(client, rules="chkobba", players=4, dealer=3, seed="cut"))
    state = body["state"]
    assert state["phase"] == "cut"
    assert state["turn"] == 0  # dealer + 1
    assert state["hands"] == [[], [], [], []]
    assert state["table"] == [] and state["piles"] == [[], []] and state["sweeps"] == [0, 0]
    assert state["stock"] == body["deck"] == seeded_deck("cut")


@pytest.mark.parametrize("cut", ["keep", "table"])
def test_play_the_cut(client, cut):
    waiting = ok(deal(client, rules="chkobba", players=2, dealer=0, deck=CANONICAL))["state"]
    direct = ok(deal(client, rules="chkobba", players=2, dealer=0, deck=CANONICAL, cut=cut))["state"]
    body = ok(play(client, waiting, {"cut": cut}))
    assert body["state"] == direct
    assert body["event"] == {"seat": 1, "cut": cut, "dealt": True, "collected": [], "redeal": False}
    assert body["breakdown"] is None


def test_play_the_cut_with_the_cutters_seat(client):
    waiting = ok(deal(client, rules="chkobba", players=2, dealer=1, deck=CANONICAL))["state"]
    ok(play(client, waiting, {"cut": "table", "seat": 0}))
    problem(play(client, waiting, {"cut": "table", "seat": 1}), 422, "not-your-turn")


def test_deal_redeal_when_the_table_has_three_of_a_value(client):
    """chkobba: 3 cards of one value on the completed table; here only when the drawn 7H is tabled."""
    deck = deck_starting("7H", "AD", "2D", "3D", "4D", "5D", "6D", "7S", "7C", "KD")
    kept = ok(deal(client, rules="chkobba", players=2, dealer=0, deck=deck, cut="keep"))["state"]
    assert kept["phase"] == "play" and kept["table"] == ["6D", "7S", "7C", "KD"]
    tabled = ok(deal(client, rules="chkobba", players=2, dealer=0, deck=deck, cut="table"))["state"]
    assert tabled["phase"] == "redeal" and tabled["turn"] is None
    assert tabled["table"] == ["7H", "7S", "7C", "KD"]
    # The cut played on a waiting deal gives the same redeal, flagged in the event.
    waiting = ok(deal(client, rules="chkobba", players=2, dealer=0, deck=deck))["state"]
    body = ok(play(client, waiting, {"cut": "table"}))
    assert body["state"] == tabled and body["event"]["redeal"] is True
    # Phase redeal is final: nobody moves.
    problem(play(client, tabled, {"card": "AD"}), 422, "wrong-phase")


def test_deal_redeal_rules_per_profile(client):
    kings = deck_starting("AD", "2D", "3D", "4D", "5D", "6D", "KH", "KS", "KC", "7D")
    sevens = deck_starting("AD", "2D", "3D", "4D", "5D", "6D", "7H", "7S", "7C", "KD")
    assert ok(deal(client, rules="chkobba-crp", players=2, dealer=0, deck=kings))["state"]["phase"] == "redeal"
    assert ok(deal(client, rules="chkobba-crp", players=2, dealer=0, deck=sevens))["state"]["phase"] == "play"
    assert ok(deal(client, rules="scopa", players=2, dealer=0, deck=kings))["state"]["phase"] == "play"
    assert ok(deal(client, rules="chkobba", players=2, dealer=0, deck=kings, cut="keep"))["state"]["phase"] == "redeal"


def test_cut_on_scopa_is_a_422(client):
    body = problem(deal(client, rules="scopa", players=2, dealer=0, seed="x", cut="keep"), 422, "not-in-profile")
    assert "cut" in body["errors"]
    body = problem(deal(client, rules="chkobba-crp", players=2, dealer=0, seed="x", cut="table"), 422, "not-in-profile")
    assert "cut" in body["errors"]


@pytest.mark.parametrize(
    ("body", "path", "code"),
    [
        ({"rules": "chkobba", "players": 3, "dealer": 0}, "players", "not-in-profile"),
        ({"rules": "scopa", "players": 4, "dealer": 0}, "players", "not-in-profile"),
        ({"rules": "chkobba", "players": 2, "dealer": 2}, "dealer", "no-such-seat"),
        ({"rules": "chkobba", "players": 2, "dealer": 0, "deck": CANONICAL[:39]}, "deck", "validation-error"),
        ({"rules": "chkobba", "players": 2, "dealer": 0, "deck": [*CANONICAL[:39], "AD"]}, "deck.39", "duplicate-card"),
        ({"rules": "chkobba", "players": 2, "dealer": 0, "deck": CANONICAL, "seed": "x"}, "seed", "validation-error"),
        ({"rules": "chkobba", "players": 2, "dealer": 0, "cut": "shuffle"}, "cut", "validation-error"),
        ({"rules": "chkobba", "players": 2, "dealer": 0, "seed": ""}, "seed", "invalid-input"),
        ({"rules": "chkobba", "players": 2, "dealer": 0, "seed": 1.5}, "seed", "invalid-input"),
    ],
)
def test_deal_rejects(client, body, path, code):
    found = problem(deal(client, **body), 422, code)
    assert path in found["errors"], found["errors"]


# ---- playRound, move by move --------------------------------------------------------------------


def first_play_state(client):
    """Dealer 0, cut keep: seat 1 holds QH 5S 4H, seat 0 7C AC 2H, the table AD 2D 3C 2S (1+2+3+2 = 8)."""
    deck = deck_starting("QH", "5S", "4H", "7C", "AC", "2H", "AD", "2D", "3C", "2S")
    return ok(deal(client, rules="chkobba", players=2, dealer=0, deck=deck, cut="keep"))["state"]


def test_play_a_sweep(client):
    state = first_play_state(client)
    body = ok(play(client, state, {"card": "QH", "capture": ["2S", "3C", "2D", "AD"]}))
    assert body["event"] == {
        "seat": 1,
        "card": "QH",
        "kind": "sum",
        "captured": ["QH", "AD", "2D", "3C", "2S"],
        "sweep": True,
        "dealt": False,
        "collected": [],
        "redeal": False,
    }
    assert body["breakdown"] is None
    after = body["state"]
    assert after == {
        **state,
        "turn": 0,
        "hands": [["7C", "AC", "2H"], ["5S", "4H"]],
        "table": [],
        "piles": [[], ["QH", "AD", "2D", "3C", "2S"]],
        "sweeps": [0, 1],
        "last_capturer": 1,
    }
    # Then seat 0 lays 7C on the empty table (capture omitted: nothing to take).
    second = ok(play(client, after, {"card": "7C", "seat": 0}))
    assert second["event"]["kind"] == "none" and second["event"]["captured"] == []
    assert second["state"]["table"] == ["7C"] and second["state"]["turn"] == 1


def test_play_illegal_capture_is_a_422_with_options_and_legal(client):
    state = first_play_state(client)
    body = problem(play(client, state, {"card": "QH", "capture": ["2D", "3C"]}), 422, "illegal-move")
    assert body["options"] == [{"capture": ["AD", "2D", "3C", "2S"], "sweep": True}]
    assert "legal" in body
    assert {"card": "QH", "value": 8, "kind": "sum", "options": body["options"]} in body["legal"]


def test_play_capture_is_mandatory(client):
    state = first_play_state(client)
    body = problem(play(client, state, {"card": "QH", "capture": []}), 422, "illegal-move")
    assert body["options"] == [{"capture": ["AD", "2D", "3C", "2S"], "sweep": True}]
    assert "legal" in body


def test_play_ambiguous_capture(client):
    """5S on A 2 3 2: 2D+3C and 3C+2S make 5 (and A+2+2): the player must say which."""
    state = first_play_state(client)
    body = problem(play(client, state, {"card": "5S"}), 422, "ambiguous-capture")
    assert body["options"] == [
        {"capture": ["AD", "2D", "2S"], "sweep": False},
        {"capture": ["2D", "3C"], "sweep": False},
        {"capture": ["3C", "2S"], "sweep": False},
    ]
    assert "legal" in body
    chosen = ok(play(client, state, {"card": "5S", "capture": ["2S", "3C"]}))
    assert chosen["state"]["table"] == ["AD", "2D"]


def test_play_card_not_held(client):
    state = first_play_state(client)
    body = problem(play(client, state, {"card": "7C"}), 422, "card-not-held")
    assert "options" not in body  # a card not held has no captures to list
    assert [m["card"] for m in body["legal"]] == ["QH", "5S", "4H"]
    assert body["legal"][0]["options"] == [{"capture": ["AD", "2D", "3C", "2S"], "sweep": True}]


def test_play_not_your_turn(client):
    state = first_play_state(client)
    problem(play(client, state, {"card": "7C", "seat": 0}), 422, "not-your-turn")


def test_play_a_seat_beyond_the_players_is_no_such_seat_as_in_a_replay(client):
    state = first_play_state(client)
    assert state["players"] == 2
    body = problem(play(client, state, {"card": "7C", "seat": 3}), 422, "no-such-seat")
    assert list(body["errors"]) == ["move.seat"]


def test_play_wrong_phase(client):
    state = first_play_state(client)
    problem(play(client, state, {"cut": "keep"}), 422, "wrong-phase")
    waiting = ok(deal(client, rules="chkobba", players=2, dealer=0, deck=CANONICAL))["state"]
    problem(play(client, waiting, {"card": "AD"}), 422, "wrong-phase")


@pytest.mark.parametrize("sealed", [False, True])
def test_play_checks_the_state_once(client, monkeypatch, sealed):
    """A state is validated once per playRound (by the schema's StateField, or as its token is
    opened), not again before the move, plain or sealed; a bad state is still refused."""
    from service.rules import round as round_module
    from service.rules import state as state_module

    checked: list[object] = []
    real = state_module.validate

    def counting(state):
        checked.append(state)
        real(state)

    from service.api import schemas as schema_module

    for module in (state_module, round_module):  # wherever it is called from
        monkeypatch.setattr(module, "validate", counting)
    monkeypatch.setattr(schema_module, "validate_state", counting)  # where a plain state is loaded
    state = first_play_state(client)
    if sealed:
        deck = deck_starting("QH", "5S", "4H", "7C", "AC", "2H", "AD", "2D", "3C", "2S")
        dealt = ok(deal(client, rules="chkobba", players=2, dealer=0, deck=deck, cut="keep", sealed=True))
        body = {"state_token": dealt["state_token"], "move": {"card": "QH", "capture": ["AD", "2D", "3C", "2S"]}}
    else:
        body = {"state": state, "move": {"card": "QH", "capture": ["AD", "2D", "3C", "2S"]}}
    checked.clear()
    ok(client.post("/v1/rounds/play", json=body))
    assert len(checked) == 1
    bad = {**state, "turn": 0}
    problem(play(client, bad, {"card": "7C"}), 422, "bad-state")


def test_play_parses_the_move_once(client, monkeypatch):
    """The move is turned into a core Move once, by the core's parser inside the request schema; the
    view and the core take that Move as it is."""
    from service.api import fields as fields_module
    from service.api import rounds as view_module
    from service.rules import round as round_module

    parsed: list[object] = []
    real = round_module.parse_move

    def counting(data, **kwargs):
        parsed.append(data)
        return real(data, **kwargs)

    for module in (fields_module, round_module, view_module):  # wherever it could be called from
        monkeypatch.setattr(module, "parse_move", counting, raising=False)
    state = first_play_state(client)
    parsed.clear()
    ok(play(client, state, {"card": "QH", "capture": ["AD", "2D", "3C", "2S"]}))
    assert parsed == [{"card": "QH", "capture": ["AD", "2D", "3C", "2S"]}]


# ---- a whole round, then its replay -------------------------------------------------------------


@dataclass
class Round:
    deal_request: dict[str, Any]
    deck: list[str]
    moves: list[dict[str, Any]] = field(default_factory=list)
    states: list[dict[str, Any]] = field(default_factory=list)  # states[i]: before move i
    options: list[list[dict[str, Any]]] = field(default_factory=list)  # legalCaptures of the mover's hand
    events: list[dict[str, Any]] = field(default_factory=list)
    final: dict[str, Any] = field(default_factory=dict)
    breakdown: list[dict[str, int]] = field(default_factory=list)


def choose(captures: list[dict[str, Any]]) -> dict[str, Any]:
    """A legal move: a sweep if any, else the capture taking most cards, else lay the first card."""
    best = None
    for entry in captures:
        for option in entry["options"]:
            key = (option["sweep"], len(option["capture"]))
            if best is None or key > best[0]:
                best = (key, {"card": entry["card"], "capture": option["capture"]})
    return best[1] if best else {"card": captures[0]["card"]}


def play_whole_round(client, **deal_request) -> Round:
    dealt = ok(deal(client, **deal_request))
    state = dealt["state"]
    assert state["phase"] == "play", state
    record = Round(deal_request, dealt["deck"])
    players = state["players"]
    sides = 2 if players == 4 else players
    leader = (state["dealer"] + 1) % players
    order = [(leader + k) % players for k in range(players)]
    while state["phase"] == "play":
        assert set(state) >= STATE_KEYS
        seat = state["turn"]
        hand = state["hands"][seat]
        last_play = not state["stock"] and sum(map(len, state["hands"])) == 1
        found = ok(
            client.post(
                "/v1/captures",
                json={"rules": state["rules"], "table": state["table"], "hand": hand, "last_play": last_play},
            )
        )
        chosen = choose(found["moves"])
        body = ok(play(client, state, chosen))
        after, event = body["state"], body["event"]
        record.states.append(state)
        record.moves.append(chosen)
        record.options.append(found["moves"])
        record.events.append(event)

        # What the move did, checked against the move chosen.
        taken = chosen.get("capture", [])
        assert event["seat"] == seat and event["card"] == chosen["card"]
        assert event["captured"] == ([chosen["card"], *[c for c in state["table"] if c in taken]] if taken else [])
        assert event["kind"] == next(m["kind"] for m in found["moves"] if m["card"] == chosen["card"])
        side = seat % sides
        if taken:
            assert after["last_capturer"] == side
            assert after["sweeps"][side] == state["sweeps"][side] + event["sweep"]
            if not event["collected"]:
                assert after["piles"][side] == state["piles"][side] + event["captured"]
        else:
            assert after["last_capturer"] == state["last_capturer"] and not event["sweep"]
        remaining = [c for c in state["table"] if c not in taken] + ([] if taken else [chosen["card"]])
        hands_empty = all(len(h) == (1 if s == seat else 0) for s, h in enumerate(state["hands"]))
        if not hands_empty:
            assert after["table"] == remaining and after["stock"] == state["stock"]
            assert after["turn"] == (seat + 1) % players and not event["dealt"]
        elif state["stock"]:  # every hand empty: 3 more each, in blocks in playing order; the leader leads
            assert event["dealt"] is True and after["turn"] == leader and after["table"] == remaining
            for k, each in enumerate(order):
                assert after["hands"][each] == state["stock"][3 * k : 3 * k + 3]
            assert after["stock"] == state["stock"][3 * players :]
        else:  # the end: the rest of the table goes to the last capturer, never a sweep
            assert event["collected"] == remaining and not event["dealt"]
            assert after["phase"] == "over" and after["turn"] is None
            assert after["table"] == [] and after["hands"] == [[] for _ in range(players)] and after["stock"] == []
            capturer = after["last_capturer"]
            assert after["piles"][capturer][len(after["piles"][capturer]) - len(remaining) :] == remaining
            assert body["breakdown"] is not None
            record.breakdown = body["breakdown"]
        if after["phase"] != "over":
            assert body["breakdown"] is None
        state = after
    record.final = state
    return record


ROUNDS = {
    "chkobba-2": {"rules": "chkobba", "players": 2, "dealer": 0, "seed": "round-a", "cut": "keep"},
    "chkobba-4": {"rules": "chkobba", "players": 4, "dealer": 2, "seed": "round-b", "cut": "table"},
    "crp-3": {"rules": "chkobba-crp", "players": 3, "dealer": 1, "seed": "round-c"},
    "scopa-2": {"rules": "scopa", "players": 2, "dealer": 1, "seed": "round-d"},
}


@pytest.fixture(scope="module")
def rounds(client):
    return {name: play_whole_round(client, **request) for name, request in ROUNDS.items()}


@pytest.mark.parametrize("name", list(ROUNDS))
def test_play_a_whole_round(rounds, name):
    record = rounds[name]
    final = record.final
    assert len(record.moves) == 36  # 40 cards less the 4 first table cards
    assert sum(e["dealt"] for e in record.events) == 36 // (3 * final["players"]) - 1
    assert sorted(c for pile in final["piles"] for c in pile) == sorted(CANONICAL)
    assert final["sweeps"] == [
        sum(e["sweep"] for e in record.events if e["seat"] % len(final["piles"]) == s)
        for s in range(len(final["piles"]))
    ]
    profile = ROUNDS[name]["rules"]
    assert record.breakdown == expected_breakdown(profile, final["piles"], final["sweeps"])
    assert not record.events[-1]["sweep"]  # the last play never sweeps


@pytest.mark.parametrize("name", list(ROUNDS))
def test_breakdown_agrees_with_score_round(client, rounds, name):
    record = rounds[name]
    final = record.final
    sides = [{"captured": pile, "sweeps": n} for pile, n in zip(final["piles"], final["sweeps"], strict=True)]
    body = ok(
        client.post(
            "/v1/scores",
            json={
                "rules": final["rules"],
                "sides": sides,
                "last_capturer": final["last_capturer"],
                "claimed": record.breakdown,
            },
        )
    )
    assert body["breakdown"] == record.breakdown and body["valid"] is True


def test_a_finished_round_takes_no_move(client, rounds):
    final = rounds["chkobba-2"].final
    problem(play(client, final, {"card": "AD"}), 422, "wrong-phase")


def replay_request(record: Round, moves: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    request = {k: v for k, v in record.deal_request.items() if k != "seed"}
    return {**request, "deck": record.deck, "moves": record.moves if moves is None else moves, **extra}


@pytest.mark.parametrize("name", list(ROUNDS))
def test_replay_of_the_played_round(client, rounds, name):
    record = rounds[name]
    body = ok(replay(client, **replay_request(record)))
    assert body["valid"] is True and body["complete"] is True and body["first_illegal"] is None
    assert body["state"] == record.final
    assert body["breakdown"] == record.breakdown
    assert len(body["moves"]) == len(record.moves)
    for index, (verdict, event) in enumerate(zip(body["moves"], record.events, strict=True)):
        assert verdict["index"] == index
        assert verdict["verdict"] == "legal"
        assert verdict["seat"] == event["seat"] and verdict["card"] == event["card"]
        assert verdict["captured"] == event["captured"] and verdict["sweep"] == event["sweep"]
        assert "code" not in verdict or verdict["code"] is None
    assert "claim" not in body


def test_replay_with_the_cut_as_first_move(client, rounds):
    record = rounds["chkobba-2"]
    request = replay_request(record, [{"cut": "keep"}, *record.moves])
    del request["cut"]
    body = ok(replay(client, **request))
    assert body["valid"] is True and body["complete"] is True
    assert body["state"] == record.final
    assert body["moves"][0]["verdict"] == "legal" and body["moves"][0]["cut"] == "keep"
    assert body["moves"][0]["seat"] == 1


def test_replay_without_the_cut_stops_on_a_card(client, rounds):
    record = rounds["chkobba-2"]
    request = replay_request(record)
    del request["cut"]
    body = ok(replay(client, **request))
    assert body["valid"] is False and body["first_illegal"] == 0
    assert body["moves"][0]["code"] == "wrong-phase"
    assert sorted(body["moves"][0]["legal_cuts"]) == ["keep", "table"]
    assert body["state"]["phase"] == "cut"


def test_replay_with_a_claim(client, rounds):
    record = rounds["chkobba-2"]
    good = ok(replay(client, **replay_request(record, claimed=record.breakdown)))
    assert good["claim"] == {"verdict": "right", "valid": True, "discrepancies": []}
    wrong = copy.deepcopy(record.breakdown)
    wrong[0]["total"] += 1
    bad = ok(replay(client, **replay_request(record, claimed=wrong)))
    assert bad["valid"] is True  # the moves are legal; the claim is not
    assert (bad["claim"]["verdict"], bad["claim"]["valid"]) == ("wrong", False)
    assert bad["claim"]["discrepancies"] == [
        {"side": 0, "category": "total", "claimed": wrong[0]["total"], "expected": record.breakdown[0]["total"]}
    ]


def test_replay_of_an_incomplete_record(client, rounds):
    record = rounds["scopa-2"]
    body = ok(replay(client, **replay_request(record, record.moves[:5], claimed=record.breakdown)))
    assert body["valid"] is True and body["complete"] is False and body["first_illegal"] is None
    assert body["state"] == record.states[5]
    assert body["breakdown"] is None
    # docs/rules.md §10.14: neither right nor wrong, and never confused with a wrong claim.
    assert body["claim"] == {
        "verdict": "cannot-be-judged",
        "valid": None,
        "reason": "the record ends before the end of the round, so the round has no score yet",
        "discrepancies": [],
    }


def test_a_claim_on_a_record_stopped_by_an_illegal_move_cannot_be_judged(client, rounds):
    record = rounds["chkobba-2"]
    at = first_capture_index(record)
    moves = [*record.moves[:at], {"card": record.moves[at]["card"], "capture": []}]
    body = ok(replay(client, **replay_request(record, moves, claimed=record.breakdown)))
    assert body["first_illegal"] == at
    assert body["claim"]["verdict"] == "cannot-be-judged" and body["claim"]["valid"] is None
    assert "illegal move" in body["claim"]["reason"]


def first_capture_index(record: Round) -> int:
    return next(i for i, m in enumerate(record.moves) if m.get("capture"))


@pytest.mark.parametrize("name", ["chkobba-2", "crp-3"])
def test_replay_stops_at_an_illegal_move(client, rounds, name):
    """The first move that captured, replayed as a lay: capture is mandatory, so it is illegal."""
    record = rounds[name]
    i = first_capture_index(record)
    card = record.moves[i]["card"]
    moves = [*record.moves[:i], {"card": card, "capture": []}, *record.moves[i + 1 :]]
    body = ok(replay(client, **replay_request(record, moves)))
    assert body["valid"] is False and body["complete"] is False
    assert body["first_illegal"] == i
    assert len(body["moves"]) == i + 1
    assert all(v["verdict"] == "legal" for v in body["moves"][:i])
    verdict = body["moves"][i]
    assert verdict["verdict"] == "illegal" and verdict["code"] == "illegal-move"
    assert verdict["index"] == i and verdict["card"] == card and verdict["seat"] == record.states[i]["turn"]
    assert verdict["captured"] == [] and verdict["sweep"] is False
    assert verdict["legal"] == record.options[i]  # what the seat could play: each card of its hand
    assert body["state"] == record.states[i]
    assert body["breakdown"] is None


ILLEGAL_MOVES = "chkobba_illegal_moves_total"


@pytest.mark.parametrize("code", ["illegal-move", "card-not-held", "not-your-turn"])
def test_a_replay_stopped_by_an_illegal_move_counts_it_once_under_its_code(client, rounds, code):
    """An illegal move is a verdict of replayRound (200), not a problem, and still counted: the replay that
    stops at it adds exactly one to chkobba_illegal_moves_total under the verdict's code, and nothing
    under any other code."""
    record = rounds["chkobba-2"]
    at = first_capture_index(record)
    moves = {
        "illegal-move": [
            *record.moves[:at],
            {"card": record.moves[at]["card"], "capture": []},
            *record.moves[at + 1 :],
        ],
        "card-not-held": [{"card": record.states[0]["hands"][0][0]}, *record.moves],  # seat 0's card; seat 1 leads
        "not-your-turn": [*record.moves[:1], {**record.moves[1], "seat": 1}, *record.moves[2:]],
    }[code]
    before = counted(client, ILLEGAL_MOVES, "code")
    body = ok(replay(client, **replay_request(record, moves)))
    assert body["first_illegal"] is not None and body["moves"][-1]["code"] == code
    after = counted(client, ILLEGAL_MOVES, "code")
    assert {c: after[c] - before[c] for c in after if after[c] != before[c]} == {code: 1}


def test_a_replay_without_an_illegal_move_counts_none(client, rounds):
    """A whole legal record, and one that ends early, add nothing to chkobba_illegal_moves_total."""
    record = rounds["chkobba-2"]
    before = counted(client, ILLEGAL_MOVES, "code")
    assert ok(replay(client, **replay_request(record)))["valid"] is True
    assert ok(replay(client, **replay_request(record, record.moves[:5])))["complete"] is False
    assert counted(client, ILLEGAL_MOVES, "code") == before


def test_replay_card_not_held_lists_the_hand(client, rounds):
    record = rounds["chkobba-2"]
    other = record.states[0]["hands"][0][0]  # seat 0's card, while seat 1 leads
    body = ok(replay(client, **replay_request(record, [{"card": other}, *record.moves])))
    assert body["first_illegal"] == 0
    assert body["moves"][0]["code"] == "card-not-held"
    assert body["moves"][0]["legal"] == record.options[0]
    assert body["state"] == record.states[0]


def test_replay_not_your_turn(client, rounds):
    record = rounds["chkobba-2"]
    moves = [*record.moves[:1], {**record.moves[1], "seat": 1}, *record.moves[2:]]
    body = ok(replay(client, **replay_request(record, moves)))
    assert body["first_illegal"] == 1
    assert body["moves"][1]["code"] == "not-your-turn"


def test_replay_rejects_malformed_records(client, rounds):
    record = rounds["chkobba-2"]
    too_long = record.moves + record.moves
    assert "moves" in problem(replay(client, **replay_request(record, too_long)), 422, "validation-error")["errors"]
    bad_card = [*record.moves[:3], {"card": "8D"}]
    assert "moves.3.card" in problem(replay(client, **replay_request(record, bad_card)), 422, "invalid-card")["errors"]
    short_deck = {**replay_request(record), "deck": record.deck[:39]}
    assert "deck" in problem(replay(client, **short_deck), 422, "validation-error")["errors"]
    scopa = rounds["scopa-2"]
    assert "cut" in problem(replay(client, **replay_request(scopa, cut="keep")), 422, "not-in-profile")["errors"]


def test_a_malformed_claim_is_refused_even_when_it_cannot_be_judged(client, rounds):
    """docs/rules.md §10.11: a claim of three sides on a two-sided round is inconsistent-counts, as
    scoreRound says, though the record stops before the round's end."""
    record = rounds["scopa-2"]
    three = [*record.breakdown, {**record.breakdown[0], "side": 2}]
    found = problem(
        replay(client, **replay_request(record, record.moves[:5], claimed=three)), 422, "inconsistent-counts"
    )
    assert "claimed" in found["errors"]
