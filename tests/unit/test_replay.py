"""Replaying a round record (openapi.yaml ``replayRound``): a verdict per move, stopping at the first
illegal one."""

from types import MappingProxyType
from typing import Any

import pytest

from service.rules import (
    DECK,
    Card,
    Cut,
    CutMove,
    InvalidCard,
    InvalidInput,
    NoSuchSeat,
    Phase,
    PlayMove,
    RoundState,
    deal_round,
    legal_moves,
    play,
    replay_round,
    round_breakdown,
    seeded_deck,
)

from ..support import NotedPlay

CODES = [c.code for c in DECK]


def record(state: RoundState, limit: int = 99) -> tuple[list[dict[str, Any]], list[RoundState]]:
    """Play the first legal option of the first card until the end; the moves and the states after each."""
    moves: list[dict[str, Any]] = []
    states = [state]
    while state.phase is Phase.PLAY and len(moves) < limit:
        caps = legal_moves(state)[0]
        option = caps.options[-1] if caps.options else ()
        state, _ = play(state, PlayMove(caps.card, option))
        moves.append({"card": caps.card.code, "capture": [c.code for c in option]})
        states.append(state)
    return moves, states


def test_legal_record_replays_to_the_same_end() -> None:
    deck = seeded_deck("replay-1")
    state, _ = deal_round("scopa", 2, 1, deck=deck)
    moves, states = record(state)
    assert len(moves) == 36
    replay = replay_round("scopa", 2, 1, moves, deck=[c.code for c in deck])
    assert replay.valid and replay.complete and replay.first_illegal is None
    assert replay.state == states[-1]
    assert replay.breakdown == round_breakdown(states[-1])
    assert replay.deck == deck
    assert [v.position for v in replay.moves] == list(range(36))
    assert [v.seat for v in replay.moves[:4]] == [0, 1, 0, 1]
    assert all(v.legal and v.code is None for v in replay.moves)


def test_values_built_on_the_hot_path_have_every_field() -> None:
    """Verdicts, events, moves, plays and captures are built with ``record`` (no defaults, no checks):
    each must be as long as its fields, whether a move is legal or not."""
    state, deck = deal_round("chkobba", 2, 0, seed="fields", cut="keep")
    moves, _ = record(state)
    moves[5] = {"card": moves[6]["card"], "capture": []}  # played out of hand order: a verdict
    replay = replay_round("chkobba", 2, 0, moves, deck=[c.code for c in deck], cut="keep")
    built: list[tuple[Any, ...]] = []
    for verdict in replay.moves:
        built += [verdict, verdict.move, *([verdict.event] if verdict.event else []), *verdict.options]
    assert {type(v).__name__ for v in built} >= {"MoveVerdict", "PlayMove", "Event", "Captures"}
    assert all(len(v) == len(type(v)._fields) for v in built)  # type: ignore[attr-defined]


def test_verdicts_report_captures_and_sweeps() -> None:
    # Dealer 0: seat 1 holds QH first and the table is 2D 6S, 2 more cards that Q cannot take.
    deck = ["QH", "AH", "KH", "3C", "4C", "5C", "2D", "6S", "KS", "JS"]
    deck += [c for c in CODES if c not in deck]
    replay = replay_round("chkobba", 2, 0, [{"card": "QH", "capture": ["6S", "2D"]}], deck=deck, cut="keep")
    verdict = replay.moves[0]
    assert verdict.legal and verdict.seat == 1
    assert verdict.to_json() == {
        "index": 0,
        "seat": 1,
        "verdict": "legal",
        "card": "QH",
        "captured": ["QH", "2D", "6S"],
        "sweep": False,
    }
    assert replay.valid and not replay.complete and replay.breakdown is None


def test_replay_stops_at_the_first_illegal_move() -> None:
    deck = seeded_deck("replay-2")
    state, _ = deal_round("chkobba-crp", 3, 0, deck=deck)
    moves, states = record(state, limit=5)
    # Move 3 names a card still in the stock, so nobody holds it.
    held = {c for hand in states[3].hands for c in hand}
    stranger = next(c for c in states[3].stock if c not in held)
    bad = [*moves[:3], {"card": stranger.code}, *moves[3:]]
    replay = replay_round("chkobba-crp", 3, 0, bad, deck=deck)
    assert not replay.valid and replay.first_illegal == 3
    assert len(replay.moves) == 4
    verdict = replay.moves[3]
    assert verdict.legal is False and verdict.code == "card-not-held"
    assert verdict.options == tuple(legal_moves(states[3]))
    assert replay.state == states[3]
    assert not replay.complete and replay.breakdown is None
    data = verdict.to_json()
    assert data["verdict"] == "illegal" and data["code"] == "card-not-held" and data["captured"] == []


def test_illegal_capture_in_a_record_is_a_verdict_with_its_options() -> None:
    deck = ["QH", "AH", "KH", "3C", "4C", "5C", "2D", "6S", "KS", "JS"]
    deck += [c for c in CODES if c not in deck]
    replay = replay_round("chkobba", 2, 0, [{"card": "QH", "capture": []}], deck=deck, cut="keep")
    verdict = replay.moves[0]
    assert (verdict.legal, verdict.code, replay.first_illegal) == (False, "illegal-move", 0)
    # The options are the seat's: one entry per card of its hand (QH AH KH).
    assert [caps.card.code for caps in verdict.options] == ["QH", "AH", "KH"]
    assert [[c.code for c in o] for o in verdict.options[0].options] == [["2D", "6S"]]
    assert verdict.options == tuple(legal_moves(deal_round("chkobba", 2, 0, deck=deck, cut="keep")[0]))


def test_ambiguous_capture_in_a_record_is_a_verdict() -> None:
    deck = ["5H", "AH", "KH", "3C", "4C", "6C", "5D", "5S", "KS", "JS"]
    deck += [c for c in CODES if c not in deck]
    replay = replay_round("chkobba", 2, 0, [{"card": "5H"}], deck=deck, cut="keep")
    assert replay.moves[0].code == "ambiguous-capture" and replay.first_illegal == 0


def test_move_out_of_turn_in_a_record_is_a_verdict() -> None:
    state, _ = deal_round("scopa", 2, 0, deck=CODES)
    card = state.hands[0][0].code
    replay = replay_round("scopa", 2, 0, [{"card": card, "seat": 0}], deck=CODES)
    verdict = replay.moves[0]
    assert (verdict.legal, verdict.code, verdict.seat) == (False, "not-your-turn", 0)


def test_card_played_instead_of_the_cut_is_a_verdict_offering_the_cuts() -> None:
    replay = replay_round("chkobba", 2, 0, [{"card": "AD"}], deck=CODES)
    verdict = replay.moves[0]
    assert (verdict.legal, verdict.code, verdict.seat) == (False, "wrong-phase", 1)
    assert verdict.options == (Cut.KEEP, Cut.TABLE)
    assert replay.state.phase is Phase.CUT


def test_cut_recorded_as_the_first_move_of_a_chkobba_round() -> None:
    deck = seeded_deck("replay-3")
    state, _ = deal_round("chkobba", 4, 3, deck=deck, cut="table")
    moves, states = record(state)
    replay = replay_round("chkobba", 4, 3, [{"cut": "table"}, *moves], deck=deck)
    assert replay.valid and replay.complete
    assert replay.moves[0].seat == 0 and replay.moves[0].to_json()["cut"] == "table"
    assert replay.state == states[-1]


def test_cut_in_the_play_phase_of_a_record_is_a_verdict() -> None:
    replay = replay_round("chkobba", 2, 0, [{"cut": "keep"}], deck=CODES, cut="keep")
    assert replay.moves[0].code == "wrong-phase"
    assert replay.moves[0].options == tuple(legal_moves(replay.state))
    replay = replay_round("scopa", 2, 0, [{"cut": "keep"}], deck=CODES)
    assert replay.moves[0].code == "wrong-phase"


def test_move_after_the_end_is_a_verdict() -> None:
    deck = seeded_deck("replay-4")
    state, _ = deal_round("scopa", 2, 0, deck=deck)
    moves, states = record(state)
    replay = replay_round("scopa", 2, 0, [*moves, moves[-1]], deck=deck)
    assert replay.first_illegal == 36 and replay.moves[36].code == "wrong-phase"
    assert replay.state == states[-1] and replay.complete
    assert replay.breakdown == round_breakdown(states[-1])


def test_record_dealt_from_a_seed() -> None:
    state, _ = deal_round("scopa", 2, 0, seed=7)
    moves, states = record(state)
    replay = replay_round("scopa", 2, 0, moves, seed=7)
    assert replay.valid and replay.state == states[-1]


def test_record_moves_may_be_move_values() -> None:
    moves = [CutMove(Cut.KEEP), PlayMove(Card.parse("AD"))]
    replay = replay_round("chkobba", 2, 0, moves, deck=CODES)
    assert replay.valid and replay.state.phase is Phase.PLAY
    assert replay.state.table == tuple(Card.parse(c) for c in ["7D", "JD", "QD", "KD", "AD"])


def test_record_needs_a_deck_or_seed() -> None:
    with pytest.raises(InvalidInput) as info:
        replay_round("scopa", 2, 0, [])
    assert info.value.field == "deck"


@pytest.mark.parametrize("moves", ["QH", {"card": "QH"}, None])
def test_record_moves_must_be_a_list(moves: Any) -> None:
    with pytest.raises(InvalidInput) as info:
        replay_round("scopa", 2, 0, moves, deck=CODES)
    assert info.value.field == "moves"


def test_record_longer_than_a_round_is_refused() -> None:
    with pytest.raises(InvalidInput) as info:
        replay_round("scopa", 2, 0, [{"card": "AD"}] * 65, deck=CODES)
    assert info.value.field == "moves"


def test_malformed_move_in_a_record_is_an_error_not_a_verdict() -> None:
    with pytest.raises(InvalidInput) as info:
        replay_round("scopa", 2, 0, [{"card": "AD"}, {"play": "2D"}], deck=CODES)
    assert info.value.field == "moves.1"
    with pytest.raises(InvalidCard) as bad:
        replay_round("scopa", 2, 0, [{"card": "8D"}], deck=CODES)
    assert bad.value.field == "moves.0.card"


def test_replay_of_an_empty_record_is_the_deal() -> None:
    replay = replay_round("chkobba-crp", 2, 1, [], deck=CODES)
    assert replay.valid and replay.moves == () and replay.state == deal_round("chkobba-crp", 2, 1, deck=CODES)[0]
    assert replay.state.hands[0] == tuple(Card.parse(c) for c in CODES[:3])


@pytest.mark.parametrize("seat", [2, -1])
def test_a_seat_beyond_the_table_in_a_record_is_an_error_at_its_move(seat: int) -> None:
    """A move that names a seat the table lacks makes the record malformed: an error naming that
    move's seat (``moves.1.seat``), before any move is judged, even after an illegal one."""
    # Seat 1 leads and does not hold 4D: move 0 alone would be an illegal move, a verdict.
    with pytest.raises(NoSuchSeat) as info:
        replay_round("scopa", 2, 0, [{"card": "4D"}, {"card": "AD", "seat": seat}], deck=CODES)
    assert info.value.code == "no-such-seat" and info.value.field == "moves.1.seat"


def test_a_record_of_64_moves_is_not_too_long() -> None:
    """At most 64 moves (``MAX_MOVES``; 65 are refused): 64 are replayed, up to the first illegal one."""
    replay = replay_round("scopa", 2, 0, [{"card": "AD"}] * 64, deck=CODES)
    assert replay.first_illegal == 1 and replay.moves[1].code == "card-not-held"


def test_an_illegal_verdict_gives_its_reason_and_the_replay_its_deck() -> None:
    """The verdict on an illegal move carries the refusal's message as its reason, in its JSON too;
    the replay that stops there keeps the deck it dealt."""
    replay = replay_round("scopa", 2, 0, [{"card": "4D"}], deck=CODES)
    verdict = replay.moves[0]
    assert verdict.code == "card-not-held" and verdict.reason == "4D is not in the hand"
    assert verdict.to_json() == {
        "index": 0,
        "seat": 1,
        "verdict": "illegal",
        "card": "4D",
        "captured": [],
        "sweep": False,
        "code": "card-not-held",
        "reason": "4D is not in the hand",
    }
    assert replay.deck == DECK


def test_moves_that_are_no_dict_are_read_as_json_or_refused() -> None:
    """A move that is neither a dict nor a move value is read as a move's JSON: any mapping is one,
    anything else is refused at its place in the record."""
    replay = replay_round("scopa", 2, 0, [MappingProxyType({"card": "AD"})], deck=CODES)
    assert replay.valid and replay.moves[0].move == PlayMove(Card.parse("AD"))
    with pytest.raises(InvalidInput) as info:
        replay_round("scopa", 2, 0, [{"card": "AD"}, "4D"], deck=CODES)
    assert info.value.field == "moves.1"


def test_a_play_of_a_subclass_of_play_move_has_the_same_verdicts() -> None:
    """A record's plays may be of a caller's subclass of ``PlayMove``: the verdicts in JSON are those
    of the same plays as ``PlayMove`` values (captures, sweeps and cards laid alike)."""
    state, deck = deal_round("scopa", 2, 0, seed="noted-record-5")  # a record with a sweep
    moves, _ = record(state)
    plays = [PlayMove(Card.parse(m["card"]), tuple(map(Card.parse, m["capture"]))) for m in moves]
    noted = [NotedPlay(*play) for play in plays]
    expected = [v.to_json() for v in replay_round("scopa", 2, 0, plays, deck=deck).moves]
    assert any(v["captured"] for v in expected) and any(v["sweep"] for v in expected)
    assert [v.to_json() for v in replay_round("scopa", 2, 0, noted, deck=deck).moves] == expected


def test_claims_in_json_give_a_reason_only_when_they_cannot_be_judged() -> None:
    """A right or wrong claim has no reason; a claim on a record that stops early has one, which says
    why (an illegal move, or a record that ends before the round does: docs/rules.md §10.14)."""
    state, deck = deal_round("scopa", 2, 0, seed="claims")
    moves, _ = record(state)
    whole = replay_round("scopa", 2, 0, moves, deck=deck)
    assert whole.breakdown is not None
    claim = [line.to_json() for line in whole.breakdown]
    assert whole.judge(claim).to_json() == {"verdict": "right", "valid": True, "discrepancies": []}
    wrong = whole.judge([{**claim[0], "total": claim[0]["total"] + 1}, claim[1]]).to_json()
    assert set(wrong) == {"verdict", "valid", "discrepancies"} and wrong["verdict"] == "wrong"
    short = replay_round("scopa", 2, 0, moves[:5], deck=deck).judge(claim).to_json()
    assert set(short) == {"verdict", "valid", "reason", "discrepancies"}
    assert (short["verdict"], short["valid"], short["discrepancies"]) == ("cannot-be-judged", None, [])
    assert "ends before the end of the round" in short["reason"]
    stopped = replay_round("scopa", 2, 0, [*moves[:5], moves[4]], deck=deck).judge(claim).to_json()
    assert "illegal move" in stopped["reason"] and stopped["discrepancies"] == []
