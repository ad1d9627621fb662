"""A round as a state machine (docs/rules.md §2-§6, §9; openapi.yaml ``dealRound`` and ``playRound``)."""

from dataclasses import replace
from typing import Any

import pytest

from service.rules import (
    DECK,
    BadState,
    CaptureKind,
    Card,
    CardNotHeld,
    Cut,
    CutMove,
    DuplicateCard,
    InvalidCard,
    InvalidInput,
    NoSuchSeat,
    NotYourTurn,
    Phase,
    PlayMove,
    RoundInPlay,
    RoundState,
    RulesError,
    WrongPhase,
    advance,
    deal_round,
    is_last_play,
    legal_captures,
    legal_moves,
    next_seat,
    parse_move,
    play,
    refill_size,
    round_breakdown,
    seeded_deck,
)

from ..support import NotedPlay, state_json

CODES = [c.code for c in DECK]


def cards(*codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in codes)


def hands_of(state: RoundState) -> list[list[str]]:
    return [[c.code for c in hand] for hand in state.hands]


def state_of(
    *,
    hands: list[list[str]],
    table: list[str],
    stock: list[str],
    piles: list[list[str]],
    turn: int = 1,
    last_capturer: int = 0,
) -> RoundState:
    """A chkobba two-player state, dealer 0 (seat 1 leads), from card codes; unplaced cards join pile 0."""
    placed = {c for group in (*hands, table, stock, *piles) for c in group}
    piles = [piles[0] + [c for c in CODES if c not in placed], *piles[1:]]
    return RoundState.from_json(
        state_json(hands=hands, table=table, stock=stock, piles=piles, turn=turn, last_capturer=last_capturer)
    )


# Dealing (docs/rules.md §3): blocks of 3 per seat in playing order from dealer+1, then 4 to the table.


def test_deal_gives_blocks_in_playing_order_from_the_dealer_s_right() -> None:
    state, deck = deal_round("chkobba-crp", 4, 2, deck=CODES)
    assert deck == DECK
    assert state.phase is Phase.PLAY and state.turn == 3
    # Playing order 3, 0, 1, 2.
    assert hands_of(state) == [["4D", "5D", "6D"], ["7D", "JD", "QD"], ["KD", "AH", "2H"], ["AD", "2D", "3D"]]
    assert state.table == cards("3H", "4H", "5H", "6H")
    assert state.stock == DECK[16:]
    assert state.piles == ((), ()) and state.sweeps == (0, 0) and state.last_capturer is None


def test_deal_for_three_players() -> None:
    state, _ = deal_round("chkobba-crp", 3, 0, deck=CODES)
    # Playing order 1, 2, 0.
    assert hands_of(state) == [["7D", "JD", "QD"], ["AD", "2D", "3D"], ["4D", "5D", "6D"]]
    assert state.table == cards("KD", "AH", "2H", "3H")
    assert len(state.stock) == 27 and state.turn == 1
    assert len(state.piles) == 3


def test_deal_for_scopa_with_the_second_seat_dealing() -> None:
    state, _ = deal_round("scopa", 2, 1, deck=CODES)
    assert hands_of(state) == [["AD", "2D", "3D"], ["4D", "5D", "6D"]]
    assert state.table == cards("7D", "JD", "QD", "KD")
    assert state.turn == 0 and len(state.stock) == 30


def test_chkobba_cut_kept_is_the_first_card_of_the_cutter_s_hand() -> None:
    state, _ = deal_round("chkobba", 2, 0, deck=CODES, cut="keep")
    assert hands_of(state) == [["4D", "5D", "6D"], ["AD", "2D", "3D"]]
    assert state.table == cards("7D", "JD", "QD", "KD")
    assert state.stock == DECK[10:] and state.turn == 1


def test_chkobba_cut_tabled_is_the_first_table_card() -> None:
    state, _ = deal_round("chkobba", 2, 0, deck=CODES, cut=Cut.TABLE)
    # AD goes to the table; the blocks start at 2D; 3 more cards complete the table.
    assert hands_of(state) == [["5D", "6D", "7D"], ["2D", "3D", "4D"]]
    assert state.table == cards("AD", "JD", "QD", "KD")
    assert state.stock == DECK[10:]


def test_chkobba_deal_without_cut_waits_for_the_cutter() -> None:
    state, deck = deal_round("chkobba", 4, 1, deck=CODES)
    assert state.phase is Phase.CUT and state.turn == 2
    assert state.stock == DECK and state.table == () and hands_of(state) == [[], [], [], []]
    assert legal_moves(state) == [Cut.KEEP, Cut.TABLE]
    after, event = play(state, CutMove(Cut.TABLE))
    dealt, _ = deal_round("chkobba", 4, 1, deck=deck, cut="table")
    assert after == dealt
    assert event.seat == 2 and event.redeal is False and event.to_json()["cut"] == "table"


@pytest.mark.parametrize("profile", ["chkobba-crp", "scopa"])
def test_cut_only_in_chkobba(profile: str) -> None:
    with pytest.raises(InvalidInput) as info:
        deal_round(profile, 2, 0, deck=CODES, cut="keep")
    assert info.value.field == "cut"


def test_bad_cut_is_rejected() -> None:
    with pytest.raises(InvalidInput) as info:
        deal_round("chkobba", 2, 0, deck=CODES, cut="burn")
    assert info.value.field == "cut"


def test_seeded_deal_uses_the_seeded_deck() -> None:
    state, deck = deal_round("scopa", 2, 0, seed="table-7")
    assert deck == seeded_deck("table-7")
    assert state.hands[1] == deck[:3] and state.hands[0] == deck[3:6] and state.table == deck[6:10]


def test_deal_without_deck_or_seed_shuffles_and_returns_the_deck() -> None:
    state, deck = deal_round("scopa", 2, 0)
    assert set(deck) == set(DECK) and state.table == deck[6:10]


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ({"players": 3}, "players"),
        ({"players": True}, "players"),
        ({"dealer": 2}, "dealer"),
        ({"dealer": -1}, "dealer"),
        ({"deck": CODES, "seed": 1}, "seed"),
        ({"deck": CODES[:39]}, "deck"),
    ],
)
def test_bad_deal_requests_are_rejected(args: dict[str, Any], field: str) -> None:
    call = {"players": 2, "dealer": 0, **args}
    with pytest.raises(InvalidInput) as info:
        deal_round("chkobba", call.pop("players"), call.pop("dealer"), cut="keep", **call)
    assert info.value.field == field


def test_deck_with_a_duplicate_is_rejected() -> None:
    with pytest.raises(DuplicateCard) as info:
        deal_round("scopa", 2, 0, deck=[*CODES[:39], "AD"])
    assert info.value.field == "deck.39"


def test_deck_with_a_bad_card_is_rejected() -> None:
    with pytest.raises(InvalidCard) as info:
        deal_round("scopa", 2, 0, deck=[*CODES[:39], "8D"])
    assert info.value.field == "deck.39"


# Redeal of the initial deal (docs/rules.md §3).


def table_deck(*table: str) -> list[str]:
    """A two-player deck (blocks of 3 to each seat, then the table) whose table is ``table``."""
    rest = [c for c in CODES if c not in table]
    return [*rest[:6], *table, *rest[6:]]


@pytest.mark.parametrize("table", [("5D", "5H", "5S", "KC"), ("QD", "AH", "QS", "QC"), ("7D", "7H", "7S", "7C")])
def test_chkobba_redeals_three_or_four_of_one_value(table: tuple[str, ...]) -> None:
    state, _ = deal_round("chkobba", 2, 0, deck=table_deck(*table), cut="keep")
    assert state.phase is Phase.REDEAL and state.turn is None
    assert state.table == cards(*table)
    assert legal_moves(state) == []


def test_chkobba_does_not_redeal_two_of_one_value() -> None:
    state, _ = deal_round("chkobba", 2, 0, deck=table_deck("5D", "5H", "KS", "KC"), cut="keep")
    assert state.phase is Phase.PLAY and state.turn == 1


def test_chkobba_redeal_counts_the_tabled_cut_card() -> None:
    # The cut card 5D is tabled; the table block after the hands brings 5H 5S and KC.
    deck = ["5D", "AD", "2D", "3D", "4D", "6D", "7D", "5H", "5S", "KC"]
    deck += [c for c in CODES if c not in deck]
    tabled, event = play(deal_round("chkobba", 2, 0, deck=deck)[0], CutMove(Cut.TABLE))
    assert tabled.phase is Phase.REDEAL and event.redeal is True
    assert tabled.table == cards("5D", "5H", "5S", "KC")
    kept, event = play(deal_round("chkobba", 2, 0, deck=deck)[0], CutMove(Cut.KEEP))
    assert kept.phase is Phase.PLAY and event.redeal is False
    assert kept.table == cards("7D", "5H", "5S", "KC")


def test_chkobba_crp_redeals_three_kings_only() -> None:
    state, _ = deal_round("chkobba-crp", 2, 0, deck=table_deck("KD", "KH", "5S", "KC"))
    assert state.phase is Phase.REDEAL and state.turn is None
    state, _ = deal_round("chkobba-crp", 2, 0, deck=table_deck("5D", "5H", "5S", "5C"))
    assert state.phase is Phase.PLAY


def test_scopa_never_redeals() -> None:
    state, _ = deal_round("scopa", 2, 0, deck=table_deck("KD", "KH", "KS", "KC"))
    assert state.phase is Phase.PLAY and state.turn == 1


# Playing, refilling and the end of the round (docs/rules.md §3-§6).


def test_play_moves_the_turn_along_the_playing_order() -> None:
    state, _ = deal_round("chkobba-crp", 4, 2, deck=CODES)
    seats = []
    for _ in range(4):
        seats.append(state.turn)
        caps = legal_moves(state)[0]
        state, event = play(state, PlayMove(caps.card, caps.options[0] if caps.options else None))
        assert event.seat == seats[-1]
    assert seats == [3, 0, 1, 2]
    assert state.turn == 3


def test_capture_goes_to_the_side_pile_with_partners_pooling() -> None:
    # Four players, dealer 3: order 0, 1, 2, 3. Seat 2 takes for side 0.
    state, _ = deal_round("chkobba", 4, 3, deck=table_deck_four("2H", "6S", "JC", "JH"), cut="keep")
    # Seats 0 and 1 lay 3D and 7C, which capture nothing here.
    state, first = play(state, PlayMove(Card.parse("3D")))
    state, second = play(state, PlayMove(Card.parse("7C")))
    assert first.kind is second.kind is CaptureKind.NONE
    state, event = play(state, PlayMove(Card.parse("QD"), cards("6S", "2H"), seat=2))
    assert event.kind is CaptureKind.SUM and event.taken == cards("2H", "6S")
    assert Card.parse("QD") in state.piles[0] and Card.parse("2H") in state.piles[0]
    assert state.last_capturer == 0 and state.sweeps == (0, 0)


def table_deck_four(*table: str) -> list[str]:
    """A four-player deck: seat blocks AD.. in order, with QD in the third block, then ``table``."""
    hands = ["3D", "4D", "5D", "7C", "JS", "KS", "QD", "AC", "2C", "3C", "4C", "5C"]
    rest = [c for c in CODES if c not in table and c not in hands]
    return [*hands, *table, *rest]


def test_sweep_scores_for_the_side() -> None:
    hands = [["5S", "KD", "QH"], ["JD", "3C"]]
    stock = [c for c in CODES if c not in {"5S", "KD", "QH", "JD", "3C", "5D", "AH", "AC"}][:12]
    state = state_of(hands=hands, table=["5D"], stock=stock, piles=[[], ["AH", "AC"]], turn=0, last_capturer=1)
    after, event = play(state, PlayMove(Card.parse("5S")))
    assert event.sweep is True and event.kind is CaptureKind.MATCH
    assert after.table == () and after.sweeps == (1, 0)
    assert after.last_capturer == 0


def test_hands_are_refilled_in_blocks_when_all_are_empty() -> None:
    stock = [c for c in CODES if c not in ("KD", "AH")][:24]
    state = state_of(hands=[["KD"], []], table=["AH"], stock=stock, piles=[[], []], turn=0)
    after, event = play(state, PlayMove(Card.parse("KD")))
    assert event.dealt is True and event.kind is CaptureKind.NONE
    assert after.hands[1] == cards(*stock[0:3]) and after.hands[0] == cards(*stock[3:6])
    assert after.stock == cards(*stock[6:])
    assert after.table == cards("AH", "KD")
    assert after.turn == 1 and after.phase is Phase.PLAY


def test_next_seat_and_refill_size_say_who_plays_next_and_what_the_stock_deals() -> None:
    """The engine's own rules, public for the move hints: play goes to the right, seat n-1 is
    followed by seat 0 (docs/rules.md §2.2); the stock deals each hand 3 once every hand is empty and
    it still holds cards (§3.5), and nothing otherwise."""
    assert [next_seat(4, seat) for seat in range(4)] == [1, 2, 3, 0] and next_seat(3, 2) == 0
    assert refill_size(24, 0) == 3
    assert refill_size(24, 1) == 0 and refill_size(0, 0) == 0 and refill_size(0, 1) == 0


def test_last_play_never_sweeps_and_ends_the_round() -> None:
    state = state_of(hands=[["5S"], []], table=["5D"], stock=[], piles=[["AH", "AC"], ["2H", "2C"]], turn=0)
    after, event = play(state, PlayMove(Card.parse("5S")))
    assert event.sweep is False and event.kind is CaptureKind.MATCH
    assert after.sweeps == (0, 0)
    assert after.phase is Phase.OVER and after.turn is None
    assert event.collected == ()
    assert sum(map(len, after.piles)) == 40


def test_table_left_at_the_end_goes_to_the_last_capturer() -> None:
    piles = [["AH", "AC"], ["2H", "2C"]]
    state = state_of(hands=[["5S"], []], table=["5D", "KC"], stock=[], piles=piles, turn=0, last_capturer=1)
    after, event = play(state, PlayMove(Card.parse("5S")))
    # Seat 0 captures last, so the KC left on the table is side 0's; it is not a sweep.
    assert event.collected == cards("KC") and event.sweep is False
    assert after.last_capturer == 0
    assert {"5S", "5D", "KC"} <= {c.code for c in after.piles[0]}


def test_card_laid_on_the_last_play_goes_with_the_table_to_the_last_capturer() -> None:
    piles = [["AH", "AC"], ["2H", "2C"]]
    state = state_of(hands=[["KS"], []], table=["5D", "3C"], stock=[], piles=piles, turn=0, last_capturer=1)
    after, event = play(state, PlayMove(Card.parse("KS")))
    assert event.kind is CaptureKind.NONE
    assert set(event.collected) == set(cards("5D", "3C", "KS"))
    assert set(cards("5D", "3C", "KS", "2H", "2C")) == set(after.piles[1])
    assert after.phase is Phase.OVER and after.last_capturer == 1


# Errors of play().


def test_move_by_a_seat_out_of_turn_is_refused() -> None:
    state, _ = deal_round("scopa", 2, 0, deck=CODES)
    with pytest.raises(NotYourTurn) as info:
        play(state, PlayMove(state.hands[0][0], seat=0))
    assert info.value.code == "not-your-turn"
    assert info.value.field == "move.seat"
    assert info.value.details["turn"] == 1


def test_card_of_another_seat_is_not_held() -> None:
    state, _ = deal_round("scopa", 2, 0, deck=CODES)
    with pytest.raises(CardNotHeld) as info:
        play(state, PlayMove(state.hands[0][0]))
    assert info.value.code == "card-not-held"
    assert info.value.details["legal"] == legal_moves(state)


def test_card_played_in_the_cut_phase_is_the_wrong_phase() -> None:
    state, _ = deal_round("chkobba", 2, 0, deck=CODES)
    with pytest.raises(WrongPhase) as info:
        play(state, PlayMove(Card.parse("AD")))
    assert info.value.code == "wrong-phase"


def test_cut_in_the_play_phase_is_the_wrong_phase() -> None:
    state, _ = deal_round("chkobba", 2, 0, deck=CODES, cut="keep")
    with pytest.raises(WrongPhase) as info:
        play(state, CutMove(Cut.KEEP))
    assert info.value.code == "wrong-phase"


@pytest.mark.parametrize("move", [PlayMove(Card.parse("5D")), CutMove(Cut.KEEP)])
def test_no_move_in_redeal(move: Any) -> None:
    state, _ = deal_round("chkobba", 2, 0, deck=table_deck("5D", "5H", "5S", "KC"), cut="keep")
    with pytest.raises(WrongPhase) as info:
        play(state, move)
    assert info.value.code == "wrong-phase" and info.value.details["phase"] == "redeal"


def test_no_move_once_the_round_is_over() -> None:
    state = state_of(hands=[["5S"], []], table=["5D"], stock=[], piles=[["AH", "AC"], []], turn=0)
    over, _ = play(state, PlayMove(Card.parse("5S")))
    with pytest.raises(WrongPhase) as info:
        play(over, PlayMove(Card.parse("5S")))
    assert info.value.details["phase"] == "over"
    assert legal_moves(over) == []


def test_play_validates_the_state_first() -> None:
    state, _ = deal_round("scopa", 2, 0, deck=CODES)
    with pytest.raises(BadState) as info:
        play(replace(state, turn=0), PlayMove(state.hands[0][0]))
    assert info.value.field == "state.turn"
    with pytest.raises(BadState) as info:
        play(replace(state, table=state.table[1:]), PlayMove(state.hands[1][0]))
    assert info.value.field == "state"


def test_legal_moves_lists_each_card_of_the_seat_to_move() -> None:
    state, _ = deal_round("chkobba", 2, 0, deck=CODES, cut="keep")
    assert legal_moves(state) == [legal_captures("chkobba", state.table, c) for c in state.hands[1]]


def test_the_last_play_is_the_one_that_ends_the_round() -> None:
    """``is_last_play`` is the core's one definition: the legal captures never sweep on it, and the
    round is over after it, never before."""
    assert is_last_play(0, 1) and not is_last_play(0, 2) and not is_last_play(6, 1) and not is_last_play(0, 0)
    for rules, players in (("chkobba", 2), ("chkobba-crp", 3), ("scopa", 2)):
        state, _ = deal_round(rules, players, 0, seed=f"last-play-{rules}", cut="keep" if rules == "chkobba" else None)
        lasts = 0
        while state.turn is not None:
            last = is_last_play(len(state.stock), sum(map(len, state.hands)))
            lasts += last
            legal = legal_moves(state)
            assert not last or all(c.sweep_option is None for c in legal)
            caps = legal[0]
            state, event = advance(state, PlayMove(caps.card, caps.options[0] if caps.options else ()))
            assert (state.phase is Phase.OVER) == last
            assert bool(event.collected) <= last
        assert lasts == 1


def test_a_round_in_play_forks_with_copy_and_takes_the_legal_captures_it_listed() -> None:
    state, _ = deal_round("scopa", 2, 0, seed="fork")
    for _ in range(30):
        in_play = RoundInPlay(state)
        legal = in_play.legal_captures()
        assert legal == legal_moves(state)
        for caps in legal:
            for option in caps.options or ((),):
                move = PlayMove(caps.card, option)
                fork = in_play.copy()
                event = fork.move(move, caps)
                assert (fork.state(), event) == advance(state, move)
                assert in_play.state() == state  # the fork moved on alone
        caps = legal[-1]
        state, _ = advance(state, PlayMove(caps.card, caps.options[-1] if caps.options else ()))


def test_only_a_finished_round_is_scored() -> None:
    state, _ = deal_round("scopa", 2, 0, deck=CODES)
    with pytest.raises(WrongPhase):
        round_breakdown(state)


def test_finished_round_is_scored_from_its_piles() -> None:
    piles = [["AH", "AC"], ["2H", "2C"]]
    state = state_of(hands=[["5S"], []], table=["5D", "KC"], stock=[], piles=piles, turn=0, last_capturer=1)
    over, _ = play(state, PlayMove(Card.parse("5S")))
    side0, side1 = round_breakdown(over)
    # Side 0 holds everything but 2H 2C: 38 cards, 10 diamonds, 4 sevens, 7D.
    assert (side0.cards, side0.diamonds, side0.sevens, side0.seven_of_diamonds, side0.total) == (1, 1, 1, 1, 4)
    assert side1.total == 0


# Moves from JSON.


def test_parse_move_reads_plays_and_cuts() -> None:
    assert parse_move({"card": "7D"}) == PlayMove(Card.parse("7D"))
    assert parse_move({"card": "QH", "capture": ["6S", "2D"], "seat": 1}) == PlayMove(
        Card.parse("QH"), cards("6S", "2D"), 1
    )
    assert parse_move({"cut": "table"}) == CutMove(Cut.TABLE)


@pytest.mark.parametrize(
    ("data", "error", "field"),
    [
        ("7D", InvalidInput, "move"),
        ({}, InvalidInput, "move"),
        ({"card": "7D", "take": []}, InvalidInput, "move"),
        ({"cut": "keep", "card": "7D"}, InvalidInput, "move"),
        ({"cut": "half"}, InvalidInput, "move.cut"),
        ({"card": "8D"}, InvalidCard, "move.card"),
        ({"card": "QH", "capture": ["2D", "2D"]}, DuplicateCard, "move.capture.1"),
        ({"card": "QH", "capture": "2D"}, InvalidCard, "move.capture"),
        ({"card": "QH", "seat": True}, InvalidInput, "move.seat"),
        ({"card": "QH", "seat": "1"}, InvalidInput, "move.seat"),
    ],
)
def test_parse_move_names_what_is_wrong(data: object, error: type[Exception], field: str) -> None:
    with pytest.raises(error) as info:
        parse_move(data)
    assert info.value.field == field  # type: ignore[attr-defined]


def test_deal_passes_to_the_dealer_s_right_after_the_round() -> None:
    piles = [["AH", "AC"], ["2H", "2C"]]
    state = state_of(hands=[["5S"], []], table=["5D"], stock=[], piles=piles, turn=0)
    assert state.next_dealer is None
    over, _ = play(state, PlayMove(Card.parse("5S")))
    assert over.next_dealer == 1
    four, _ = deal_round("chkobba-crp", 4, 3, deck=CODES)
    assert four.next_dealer is None


def test_redeal_keeps_the_dealer() -> None:
    state, _ = deal_round("chkobba", 4, 2, deck=table_deck_four("6D", "6H", "6S", "KC"), cut="keep")
    assert state.phase is Phase.REDEAL and state.next_dealer == 2


@pytest.mark.parametrize(("players", "code"), [("2", "invalid-input"), (True, "invalid-input"), (3, "not-in-profile")])
def test_players_that_are_no_whole_number_are_invalid_input_not_a_count_the_profile_lacks(players, code):
    with pytest.raises(RulesError) as caught:
        deal_round("chkobba", players, 0, seed="x")
    assert caught.value.code == code and caught.value.field == "players"


# Events in JSON (openapi.yaml "Event"): every field, for a cut and for a play.


def test_a_cut_event_says_that_it_dealt_the_hands() -> None:
    """The cut deals the hands (docs/rules.md §3.1): its event is dealt, collects nothing, and says
    whether the deal is void; its JSON has each of those fields."""
    state, _ = deal_round("chkobba", 2, 0, deck=CODES)
    _, event = play(state, CutMove(Cut.KEEP))
    assert event.dealt is True and event.redeal is False
    assert event.to_json() == {"seat": 1, "cut": "keep", "dealt": True, "collected": [], "redeal": False}


def test_a_play_event_in_json_has_every_field() -> None:
    """A capture that neither sweeps, deals nor ends the round: each of the event's fields, the
    flags false, in its JSON."""
    # Dealer 0: seat 1 holds QH first and the table is 2D 6S, 2 more cards that Q cannot take.
    deck = ["QH", "AH", "KH", "3C", "4C", "5C", "2D", "6S", "KS", "JS"]
    deck += [c for c in CODES if c not in deck]
    state, _ = deal_round("chkobba", 2, 0, deck=deck, cut="keep")
    _, event = play(state, PlayMove(Card.parse("QH"), cards("6S", "2D")))
    assert event.redeal is False
    assert event.to_json() == {
        "seat": 1,
        "card": "QH",
        "kind": "sum",
        "captured": ["QH", "2D", "6S"],
        "sweep": False,
        "dealt": False,
        "collected": [],
        "redeal": False,
    }


def test_a_play_of_a_subclass_of_play_move_has_the_same_event() -> None:
    """An event's JSON does not depend on the class of the play that made it: a subclass of
    ``PlayMove`` gives the JSON a ``PlayMove`` gives (captures, cards laid, a refill of the hands)."""
    state, _ = deal_round("scopa", 2, 0, seed="noted-play")
    for _ in range(8):
        caps = legal_moves(state)[0]
        option = caps.options[0] if caps.options else None
        after, event = play(state, PlayMove(caps.card, option))
        noted_after, noted = play(state, NotedPlay(caps.card, option))
        assert type(noted.move) is NotedPlay and noted_after == after
        assert noted.to_json() == event.to_json()
        assert set(event.to_json()) == {"seat", "card", "kind", "captured", "sweep", "dealt", "collected", "redeal"}
        state = after


def test_moves_refused_by_phase_or_seat_name_the_move_and_the_phase() -> None:
    """A refused move names what is wrong: the move (field ``move``) and the phase it met, or the
    seat (``move.seat``) when it names no seat at the table."""
    waiting, _ = deal_round("chkobba", 2, 0, deck=CODES)
    with pytest.raises(WrongPhase) as info:
        play(waiting, PlayMove(Card.parse("AD")))
    assert (info.value.field, info.value.details) == ("move", {"phase": "cut"})
    playing, _ = deal_round("chkobba", 2, 0, deck=CODES, cut="keep")
    with pytest.raises(WrongPhase) as info:
        play(playing, CutMove(Cut.KEEP))
    assert (info.value.field, info.value.details) == ("move", {"phase": "play"})
    state = state_of(hands=[["5S"], []], table=["5D"], stock=[], piles=[["AH", "AC"], []], turn=0)
    over, _ = play(state, PlayMove(Card.parse("5S")))
    with pytest.raises(WrongPhase) as info:
        play(over, PlayMove(Card.parse("5S")))
    assert (info.value.field, info.value.details) == ("move", {"phase": "over"})
    with pytest.raises(NoSuchSeat) as info:
        play(playing, PlayMove(playing.hands[1][0], seat=2))
    assert info.value.code == "no-such-seat" and info.value.field == "move.seat"
