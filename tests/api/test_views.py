"""viewRound, POST /v1/rounds/view: a plain state or a state_token and a seat -> that seat's view.

Expected views are written out by hand from the deal convention of docs/rules.md §3 (each seat in playing
order takes a block of 3 from the top, then the table a block of 4).
"""

from __future__ import annotations

import copy

import pytest

from ..support import CANONICAL, deck_starting, ok, problem, state_json, strings_in

# chkobba, 2 players, dealer 0, dealt from CANONICAL with the cutter (seat 1) keeping AD: stock CANONICAL[10:].
STATE = state_json(hands=[["4D", "5D", "6D"], ["AD", "2D", "3D"]], table=["7D", "JD", "QD", "KD"])
PUBLIC = {
    "rules": "chkobba",
    "players": 2,
    "dealer": 0,
    "phase": "play",
    "turn": 1,
    "hand_sizes": [3, 3],
    "table": ["7D", "JD", "QD", "KD"],
    "stock_size": 30,
    "piles": [[], []],
    "sweeps": [0, 0],
    "last_capturer": None,
}


def view(client, **body):
    return client.post("/v1/rounds/view", json=body)


@pytest.mark.parametrize(
    ("seat", "hand"),
    [(0, ["4D", "5D", "6D"]), (1, ["AD", "2D", "3D"])],
)
def test_view_of_each_seat_of_a_plain_state(client, seat, hand):
    body = ok(view(client, state=STATE, seat=seat))
    assert body == {"view": {"seat": seat, "side": seat, **PUBLIC, "hand": hand}}
    other = STATE["hands"][1 - seat]
    assert not (set(other) | set(CANONICAL[10:])) & strings_in(body)


def test_four_players_partners_hand_is_hidden_too(client):
    # Dealer 3, cut keep: seat 0 AD 2D 3D, seat 1 4D 5D 6D, seat 2 7D JD QD, seat 3 KD AH 2H; table 3H-6H.
    state = ok(client.post("/v1/rounds", json={"rules": "chkobba", "players": 4, "dealer": 3, "deck": CANONICAL}))
    state = ok(client.post("/v1/rounds/play", json={"state": state["state"], "move": {"cut": "keep"}}))["state"]
    hands = [["AD", "2D", "3D"], ["4D", "5D", "6D"], ["7D", "JD", "QD"], ["KD", "AH", "2H"]]
    assert state["hands"] == hands
    for seat in range(4):
        seen = ok(view(client, state=state, seat=seat))["view"]
        assert seen == {
            "seat": seat,
            "side": seat % 2,
            "rules": "chkobba",
            "players": 4,
            "dealer": 3,
            "phase": "play",
            "turn": 0,
            "hand": hands[seat],
            "hand_sizes": [3, 3, 3, 3],
            "table": ["3H", "4H", "5H", "6H"],
            "stock_size": 24,
            "piles": [[], []],
            "sweeps": [0, 0],
            "last_capturer": None,
        }
        partner = (seat + 2) % 4
        assert not set(hands[partner]) & strings_in(seen), f"seat {seat} sees its partner's hand"
        hidden = {c for s in range(4) if s != seat for c in hands[s]} | set(CANONICAL[16:])
        assert not hidden & strings_in(seen)


def test_phase_cut_only_the_cutter_sees_the_drawn_card(client):
    state = ok(client.post("/v1/rounds", json={"rules": "chkobba", "players": 2, "dealer": 0, "deck": CANONICAL}))
    state = state["state"]
    assert (state["phase"], state["turn"]) == ("cut", 1)
    cutter = ok(view(client, state=state, seat=1))["view"]
    other = ok(view(client, state=state, seat=0))["view"]
    assert cutter["cut_card"] == "AD" == state["stock"][0]
    assert "cut_card" not in other
    assert not set(CANONICAL) & strings_in(other)
    assert set(CANONICAL) & strings_in(cutter) == {"AD"}
    assert cutter["hand"] == other["hand"] == [] and cutter["stock_size"] == other["stock_size"] == 40


def test_a_view_after_a_sweep_shows_the_piles_and_sweeps(client):
    deck = deck_starting("QH", "5S", "4H", "7C", "AC", "2H", "AD", "2D", "3C", "2S")
    state = ok(
        client.post("/v1/rounds", json={"rules": "chkobba", "players": 2, "dealer": 0, "deck": deck, "cut": "keep"})
    )
    # Seat 1 holds QH 5S 4H: QH (8) takes AD 2D 3C 2S (1+2+3+2) and sweeps.
    played = ok(
        client.post(
            "/v1/rounds/play",
            json={"state": state["state"], "move": {"card": "QH", "capture": ["AD", "2D", "3C", "2S"]}},
        )
    )
    for seat, hand in ((0, ["7C", "AC", "2H"]), (1, ["5S", "4H"])):
        seen = ok(view(client, state=played["state"], seat=seat))["view"]
        assert seen["hand"] == hand
        assert seen["hand_sizes"] == [3, 2] and seen["table"] == [] and seen["stock_size"] == 30
        assert sorted(seen["piles"][1]) == sorted(["QH", "AD", "2D", "3C", "2S"]) and seen["piles"][0] == []
        assert seen["sweeps"] == [0, 1] and seen["last_capturer"] == 1 and seen["turn"] == 0


def test_a_view_of_a_state_token_equals_the_view_dealt(client):
    dealt = ok(
        client.post("/v1/rounds", json={"rules": "chkobba-crp", "players": 3, "dealer": 2, "seed": 7, "sealed": True})
    )
    for seat in range(3):
        assert ok(view(client, state_token=dealt["state_token"], seat=seat)) == {"view": dealt["views"][seat]}


def test_the_view_of_a_state_and_of_its_token_agree(client):
    plain = ok(client.post("/v1/rounds", json={"rules": "scopa", "players": 2, "dealer": 1, "seed": "agree"}))
    sealed = ok(
        client.post("/v1/rounds", json={"rules": "scopa", "players": 2, "dealer": 1, "seed": "agree", "sealed": True})
    )
    for seat in range(2):
        from_state = ok(view(client, state=plain["state"], seat=seat))
        from_token = ok(view(client, state_token=sealed["state_token"], seat=seat))
        assert from_state == from_token == {"view": sealed["views"][seat]}


def test_a_finished_round_view(client):
    state = ok(client.post("/v1/rounds", json={"rules": "scopa", "players": 2, "dealer": 0, "deck": CANONICAL}))
    state = state["state"]
    while state["phase"] == "play":
        hand = state["hands"][state["turn"]]
        moves = ok(client.post("/v1/captures", json={"rules": "scopa", "table": state["table"], "hand": hand}))
        first = moves["moves"][0]
        move = {"card": first["card"], **({"capture": first["options"][0]["capture"]} if first["options"] else {})}
        state = ok(client.post("/v1/rounds/play", json={"state": state, "move": move}))["state"]
    assert state["phase"] == "over"
    for seat in range(2):
        seen = ok(view(client, state=state, seat=seat))["view"]
        assert seen["piles"] == state["piles"] and seen["hand"] == [] and seen["stock_size"] == 0
        assert seen["turn"] is None and seen["phase"] == "over"


# ---- problems ---------------------------------------------------------------------------------------


def test_a_seat_beyond_the_players_of_the_state_is_no_such_seat(client):
    body = problem(view(client, state=STATE, seat=2), 422, "no-such-seat")
    assert "seat" in body["errors"]


@pytest.mark.parametrize("seat", [4, -1, "0", True, 1.5, None, [0]])
def test_a_seat_that_is_no_seat_is_a_validation_error(client, seat):
    body = problem(view(client, state=STATE, seat=seat), 422, "validation-error")
    assert "seat" in body["errors"]


def test_without_a_seat_a_spectator_sees_what_every_seat_sees_and_no_hand(client):
    body = ok(view(client, state=STATE))
    assert body == {"spectator": PUBLIC}
    hidden = {*STATE["hands"][0], *STATE["hands"][1], *STATE["stock"]}
    assert not hidden & strings_in(body)


def test_a_spectator_sees_no_cut_card_and_no_hand_of_four_players(client):
    cut = ok(client.post("/v1/rounds", json={"rules": "chkobba", "players": 2, "dealer": 0, "deck": CANONICAL}))
    assert not set(CANONICAL) & strings_in(ok(view(client, state=cut["state"])))
    four = ok(
        client.post("/v1/rounds", json={"rules": "chkobba", "players": 4, "dealer": 3, "seed": "x", "cut": "keep"})
    )
    seen = ok(view(client, state=four["state"]))["spectator"]
    assert seen["hand_sizes"] == [3, 3, 3, 3] and seen["stock_size"] == 24
    assert set(strings_in(seen)) & set(CANONICAL) == set(four["state"]["table"])


def test_a_spectator_of_a_sealed_round_sees_what_a_spectator_of_its_state_sees(client):
    dealt = ok(
        client.post(
            "/v1/rounds", json={"rules": "chkobba", "players": 2, "dealer": 0, "seed": 7, "sealed": True, "cut": "keep"}
        )
    )
    plain = ok(
        client.post("/v1/rounds", json={"rules": "chkobba", "players": 2, "dealer": 0, "seed": 7, "cut": "keep"})
    )
    assert ok(view(client, state_token=dealt["state_token"])) == ok(view(client, state=plain["state"]))
    seat_view = dealt["views"][0]
    spectator = ok(view(client, state_token=dealt["state_token"]))["spectator"]
    assert spectator == {k: v for k, v in seat_view.items() if k not in ("seat", "side", "hand")}


def test_a_bad_state_is_bad_state(client):
    broken = copy.deepcopy(STATE)
    broken["stock"] = broken["stock"][1:]  # AH is nowhere
    body = problem(view(client, state=broken, seat=0), 422, "bad-state")
    assert "AH" in body["detail"]


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda s: s["hands"][0].append("7H"), "duplicate-card"),  # 7H also lies in the stock
        (lambda s: s.update(turn=0), "bad-state"),  # the cutter (seat 1) leads
        (lambda s: s.update(phase="nope"), "validation-error"),
        (lambda s: s.update(players=3), "bad-state"),
        (lambda s: s.pop("stock"), "validation-error"),
    ],
    ids=["a-card-twice", "wrong-turn", "bad-phase", "wrong-players", "no-stock"],
)
def test_a_state_that_breaks_the_rules_is_refused(client, change, code):
    broken = copy.deepcopy(STATE)
    change(broken)
    problem(view(client, state=broken, seat=0), 422, code)


@pytest.mark.parametrize(
    "body",
    [
        {"seat": 0},
        {"state": STATE, "state_token": "x" * 40, "seat": 0},
        {"state": STATE, "seat": 0, "move": {"card": "AD"}},
        {"state_token": "", "seat": 0},
        {"state_token": 12, "seat": 0},
        {"state_token": "A" * 8193, "seat": 0},
    ],
    ids=["neither", "both", "unknown-field", "empty-token", "token-not-a-string", "token-too-long"],
)
def test_a_request_that_does_not_follow_the_contract(client, body):
    problem(client.post("/v1/rounds/view", json=body), 422, "validation-error")


def test_view_answers_only_the_view(client):
    body = ok(view(client, state=STATE, seat=0))
    assert set(body) == {"view"}
    assert not {"hands", "stock", "deck", "state", "state_token"} & set(body["view"])
