"""A round as a state machine (RULES.md §2-§6): the deal, the cut ritual, plays and the end.

Every function returns a new ``RoundState``; nothing is mutated.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, NamedTuple

from .captures import HAND_SIZE, CaptureKind, captures_of
from .cards import DECK, Card, CardLike, card_of, parse_cards
from .errors import InvalidCard, InvalidInput, NotYourTurn, WrongPhase
from .moves import play_on
from .profiles import Rules, RulesLike
from .scoring import SideScore, Tally, score_round
from .shuffle import random_deck, seeded_deck
from .state import TABLE_SIZE, Phase, RoundState, validate


class Cut(enum.Enum):
    KEEP = "keep"  # the cutter keeps the drawn card as the first card of his hand
    TABLE = "table"  # the drawn card is the first table card


@dataclass(frozen=True, slots=True)
class PlayMove:
    card: Card
    capture: tuple[Card, ...] | None = None  # None: let the rules choose, legal only if unambiguous
    seat: int | None = None  # when given, must be the seat whose turn it is


@dataclass(frozen=True, slots=True)
class CutMove:
    cut: Cut
    seat: int | None = None


Move = PlayMove | CutMove


class Event(NamedTuple):
    """What one move did. A named tuple: one is made for every move of every replay."""

    seat: int
    move: Move
    kind: CaptureKind | None = None  # None for a cut
    taken: tuple[Card, ...] = ()
    sweep: bool = False
    dealt: bool = False  # every hand was empty, so each seat received 3 more cards
    collected: tuple[Card, ...] = ()  # the end of the round: table cards taken by the last capturer
    redeal: bool = False  # a cut completed a deal whose table calls for a redeal

    @property
    def captured(self) -> tuple[Card, ...]:
        if isinstance(self.move, PlayMove) and self.taken:
            return (self.move.card, *self.taken)
        return ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": self.seat}
        if isinstance(self.move, CutMove):
            data["cut"] = self.move.cut.value
        else:
            data.update(
                card=self.move.card.code,
                kind=self.kind.value if self.kind else None,
                captured=[c.code for c in self.captured],
                sweep=self.sweep,
            )
        data.update(dealt=self.dealt, collected=[c.code for c in self.collected], redeal=self.redeal)
        return data


_PLAY_KEYS: Final = frozenset({"card", "capture", "seat"})
_CUT_KEYS: Final = frozenset({"cut", "seat"})


def parse_move(data: object, *, field: str = "move") -> Move:
    """A move from its JSON form: ``{"card", "capture"?, "seat"?}`` or ``{"cut", "seat"?}``."""
    if not isinstance(data, dict | Mapping):  # dict first: the common case skips the ABC check
        raise InvalidInput("a move is an object {card, capture?} or {cut}", field=field)
    seat = data.get("seat")
    if "seat" in data and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise InvalidInput("seat must be a whole number", field=f"{field}.seat")
    if "cut" in data:
        if not data.keys() <= _CUT_KEYS:
            raise InvalidInput("a cut move holds only cut (and seat)", field=field)
        try:
            return CutMove(Cut(data["cut"]), seat)
        except (ValueError, TypeError):
            raise InvalidInput('cut must be "keep" or "table"', field=f"{field}.cut") from None
    if not data.keys() <= _PLAY_KEYS or "card" not in data:
        raise InvalidInput("a play is an object {card, capture?, seat?}", field=field)
    try:
        card = card_of(data["card"])
    except InvalidCard as exc:
        exc.field = f"{field}.card"
        raise
    capture = data.get("capture")
    taken = None if capture is None else parse_cards(capture, where=f"{field}.capture")
    return PlayMove(card, taken, seat)


def deal_round(
    rules: RulesLike,
    players: int,
    dealer: int,
    *,
    deck: Sequence[CardLike] | None = None,
    seed: object = None,
    cut: Cut | str | None = None,
) -> tuple[RoundState, tuple[Card, ...]]:
    """Deal a round from ``deck`` (top first), from the seeded shuffle of ``seed``, or from a secure
    shuffle. Returns the state and the deck used. A chkobba deal without ``cut`` stops in phase
    ``cut``; a deal whose table calls for a redeal is final, in phase ``redeal``."""
    the_rules = Rules.of(rules)
    profile = the_rules.profile
    if isinstance(players, bool) or not isinstance(players, int) or players not in profile.players:
        allowed = " or ".join(map(str, profile.players))
        raise InvalidInput(f"{profile.id} is played by {allowed} players", field="players")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise InvalidInput(f"dealer must be a seat from 0 to {players - 1}", field="dealer")
    if deck is not None and seed is not None:
        raise InvalidInput("give a deck or a seed, not both", field="seed")
    if deck is not None:
        cards = parse_cards(deck, where="deck")
        if len(cards) != len(DECK):
            missing = " ".join(c.code for c in DECK if c not in cards)
            raise InvalidInput(f"a deck holds all 40 cards; this one lacks {missing}", field="deck")
    else:
        cards = seeded_deck(seed) if seed is not None else random_deck()
    if cut is not None and not profile.cut_ritual:
        raise InvalidInput(f"{profile.id} has no cut ritual", field="cut")
    the_cut = _cut_of(cut)
    empty = tuple(() for _ in range(profile.sides(players)))
    start = RoundState(
        rules=the_rules,
        players=players,
        dealer=dealer,
        phase=Phase.CUT,
        turn=(dealer + 1) % players,
        hands=tuple(() for _ in range(players)),
        table=(),
        stock=cards,
        piles=empty,
        sweeps=tuple(0 for _ in empty),
        last_capturer=None,
    )
    if profile.cut_ritual and the_cut is None:
        return start, cards
    return _lay_out(start, the_cut or Cut.KEEP), cards


def _cut_of(cut: Cut | str | None) -> Cut | None:
    if cut is None or isinstance(cut, Cut):
        return cut
    try:
        return Cut(cut)
    except ValueError:
        raise InvalidInput('cut must be "keep" or "table"', field="cut") from None


def _lay_out(start: RoundState, cut: Cut) -> RoundState:
    """The deal from the deck in ``start.stock``: each seat in playing order takes a block of 3, then
    the table a block of 4. A tabled cut card is the first table card, drawn before the blocks; a
    kept one is simply the first card of the cutter's block (the cutter is first in order)."""
    deck = start.stock
    tabled = deck[:1] if cut is Cut.TABLE else ()
    rest = deck[len(tabled) :]
    hands: list[tuple[Card, ...]] = [()] * start.players
    for k, seat in enumerate(start.playing_order()):
        hands[seat] = rest[HAND_SIZE * k : HAND_SIZE * (k + 1)]
    dealt = HAND_SIZE * start.players
    table = (*tabled, *rest[dealt : dealt + TABLE_SIZE - len(tabled)])
    stock = rest[dealt + TABLE_SIZE - len(tabled) :]
    redeal = start.rules.profile.redeal
    void = redeal is not None and redeal.applies(table)
    return replace(
        start,
        phase=Phase.REDEAL if void else Phase.PLAY,
        turn=None if void else start.leader,
        hands=tuple(hands),
        table=table,
        stock=stock,
    )


def play(state: RoundState, move: Move) -> tuple[RoundState, Event]:
    """Validate ``state`` (RULES.md §9), then apply ``move``. Raises a ``MoveError`` when illegal."""
    validate(state)
    return advance(state, move)


def advance(state: RoundState, move: Move) -> tuple[RoundState, Event]:
    """``play`` for a state known to be valid (one the core built or validated)."""
    turn = state.turn
    if turn is None:
        raise WrongPhase(f"nobody moves in phase {state.phase.value}", field="move", phase=state.phase.value)
    if move.seat is not None and move.seat != turn:
        raise NotYourTurn(f"it is seat {turn}'s turn, not seat {move.seat}'s", field="move.seat", turn=turn)
    if state.phase is Phase.CUT:
        if not isinstance(move, CutMove):
            raise WrongPhase("the round waits for the cut: keep or table the drawn card", field="move", phase="cut")
        after = _lay_out(state, move.cut)
        return after, Event(turn, move, redeal=after.phase is Phase.REDEAL)
    if not isinstance(move, PlayMove):
        raise WrongPhase("the cut is over: play a card", field="move", phase=state.phase.value)
    return _play_card(state, turn, move)


def _play_card(state: RoundState, seat: int, move: PlayMove) -> tuple[RoundState, Event]:
    last_play = not state.stock and sum(map(len, state.hands)) == 1
    result = play_on(state.rules, state.table, state.hands[seat], move.card, move.capture, last_play)
    hands = list(state.hands)
    hands[seat] = result.hand
    piles, sweeps, last_capturer = list(state.piles), list(state.sweeps), state.last_capturer
    if result.taken:
        side = state.side_of(seat)
        piles[side] = (*piles[side], *result.captured)
        sweeps[side] += result.sweep
        last_capturer = side
    table, stock, phase = result.table, state.stock, Phase.PLAY
    turn: int | None = (seat + 1) % state.players
    dealt = False
    collected: tuple[Card, ...] = ()
    if not any(hands):
        if stock:
            for k, each in enumerate(state.playing_order()):
                hands[each] = stock[HAND_SIZE * k : HAND_SIZE * (k + 1)]
            stock, turn, dealt = stock[HAND_SIZE * state.players :], state.leader, True
        else:
            # Somebody always captures in a round (RULES.md §6): four cards of each value force a match.
            assert last_capturer is not None
            collected, table = table, ()
            piles[last_capturer] = (*piles[last_capturer], *collected)
            turn, phase = None, Phase.OVER
    # The constructor rather than dataclasses.replace: this runs for every move of every replay.
    after = RoundState(
        state.rules,
        state.players,
        state.dealer,
        phase,
        turn,
        tuple(hands),
        table,
        stock,
        tuple(piles),
        tuple(sweeps),
        last_capturer,
    )
    event = Event(seat, move, result.kind, result.taken, result.sweep, dealt, collected)
    return after, event


def legal_moves(state: RoundState) -> list[Any]:
    """What the seat to move may do: the legal captures of each card in hand, or the two cuts."""
    if state.phase is Phase.CUT:
        return list(Cut)
    if state.turn is None:
        return []
    last_play = not state.stock and sum(map(len, state.hands)) == 1
    return [captures_of(state.rules, state.table, c, last_play) for c in state.hands[state.turn]]


def round_breakdown(state: RoundState) -> tuple[SideScore, ...]:
    """The score of a finished round, from its piles and sweeps."""
    if state.phase is not Phase.OVER:
        raise WrongPhase("only a finished round is scored", field="state.phase", phase=state.phase.value)
    tallies = [Tally.of_pile(pile, n) for pile, n in zip(state.piles, state.sweeps, strict=True)]
    return score_round(state.rules, tallies, state.last_capturer)
