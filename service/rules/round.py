"""A round as a state machine (docs/rules.md §2-§6): the deal, the cut ritual, plays and the end.

Every function returns a new ``RoundState``; nothing is mutated.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import Any, Final, NamedTuple

from .captures import HAND_SIZE, CaptureKind, Captures, captures_of_each
from .cards import Card, CardLike, Deck, card_by_code, card_of, distinct_cards, parse_cards, parse_deck
from .errors import InvalidCard, InvalidInput, NotInProfile, NotYourTurn, WrongPhase, check_seat
from .moves import play_on
from .numbers import whole_number
from .profiles import Rules, RulesLike
from .scoring import SideScore, Tally, scored
from .shuffle import random_deck, seeded_deck
from .state import Phase, RoundState, leader_of, next_seat, playing_order_of, validate
from .sweeps import TABLE_SIZE
from .tuples import new_tuple


class Cut(enum.Enum):
    KEEP = "keep"  # the cutter keeps the drawn card as the first card of his hand
    TABLE = "table"  # the drawn card is the first table card


# Enum members read once: on Python 3.11 every Enum class attribute read goes through EnumType's
# __getattr__ hook, about 900 machine instructions, and these are read for every move.
_CUT, _PLAY, _REDEAL, _OVER = Phase.CUT, Phase.PLAY, Phase.REDEAL, Phase.OVER
_KEEP, _TABLE = Cut.KEEP, Cut.TABLE


class PlayMove(NamedTuple):  # a named tuple: one is made for every move of every replay
    card: Card
    capture: tuple[Card, ...] | None = None  # None: let the rules choose, legal only if unambiguous
    seat: int | None = None  # when given, must be the seat whose turn it is


class CutMove(NamedTuple):
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
    dealt: bool = False  # each seat received 3 cards: the cut dealt the hands, or every hand was empty
    collected: tuple[Card, ...] = ()  # the end of the round: table cards taken by the last capturer
    redeal: bool = False  # a cut completed a deal whose table calls for a redeal

    @property
    def captured(self) -> tuple[Card, ...]:
        if isinstance(self.move, PlayMove) and self.taken:
            return (self.move.card, *self.taken)
        return ()

    def to_json(self) -> dict[str, Any]:
        move = self.move
        if type(move) is PlayMove:  # a play, the common case, as one dict display
            code, taken = move.card.code, self.taken
            return {
                "seat": self.seat,
                "card": code,
                "kind": self.kind._value_ if self.kind else None,  # _value_: .value is a Python-level property
                "captured": [code, *[c.code for c in taken]] if taken else [],
                "sweep": self.sweep,
                "dealt": self.dealt,
                "collected": [c.code for c in self.collected],
                "redeal": self.redeal,
            }
        data: dict[str, Any] = {"seat": self.seat}
        if isinstance(self.move, CutMove):
            data["cut"] = self.move.cut.value
        else:
            data.update(
                card=self.move.card.code,
                kind=self.kind._value_ if self.kind else None,  # _value_: .value is a Python-level property
                captured=[c.code for c in self.captured],
                sweep=self.sweep,
            )
        data.update(dealt=self.dealt, collected=[c.code for c in self.collected], redeal=self.redeal)
        return data


_PLAY_KEYS: Final = frozenset({"card", "capture", "seat"})
_CUT_KEYS: Final = frozenset({"cut", "seat"})


def parse_move(data: object, *, field: str = "move") -> Move:
    """A move from its JSON form: ``{"card", "capture"?, "seat"?}`` or ``{"cut", "seat"?}``; a move
    parsed already (by an edge's schema field) is taken as it is."""
    if type(data) is not dict and not isinstance(data, Mapping):  # the type test first: it is cheaper
        if isinstance(data, PlayMove | CutMove):
            return data
        raise InvalidInput("a move is an object {card, capture?} or {cut}", field=field)
    seat = data.get("seat")
    if type(seat) is not int and (seat is not None or "seat" in data):
        seat = whole_number(seat)
        if seat is None:
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
    card = card_by_code(data["card"])
    if card is None:
        try:
            card = card_of(data["card"])  # a Card itself, or a code that card_of words as wrong
        except InvalidCard as exc:
            exc.field = f"{field}.card"
            raise
    capture = data.get("capture")
    if capture is None:
        return new_tuple(PlayMove, (card, None, seat))
    taken = distinct_cards(capture)
    if taken is None:  # parse_cards names what is wrong
        taken = parse_cards(capture, where=f"{field}.capture")
    return new_tuple(PlayMove, (card, taken, seat))


def deal_round(
    rules: RulesLike,
    players: int,
    dealer: int,
    *,
    deck: Deck | Sequence[CardLike] | None = None,
    seed: object = None,
    cut: Cut | str | None = None,
) -> tuple[RoundState, tuple[Card, ...]]:
    """Deal a round from ``deck`` (top first), from the seeded shuffle of ``seed``, or from a secure
    shuffle. Returns the state and the deck used. A chkobba deal without ``cut`` stops in phase
    ``cut``; a deal whose table calls for a redeal is final, in phase ``redeal``. A ``Deck`` (an
    edge that loaded the deck with ``deck_of`` holds one) is dealt as it is: it was checked."""
    the_rules = Rules.of(rules)
    profile = the_rules.profile
    if isinstance(players, bool) or not isinstance(players, int):
        raise InvalidInput("players must be a whole number", field="players")
    if players not in profile.players:
        allowed = " or ".join(map(str, profile.players))
        raise NotInProfile(f"{profile.id} is played by {allowed} players", field="players")
    if isinstance(dealer, bool) or not isinstance(dealer, int):
        raise InvalidInput("dealer must be a whole number", field="dealer")
    check_seat(dealer, players, field="dealer")
    if deck is not None and seed is not None:
        raise InvalidInput("give a deck or a seed, not both", field="seed")
    if deck is not None:
        cards = parse_deck(deck).cards
    else:
        cards = seeded_deck(seed) if seed is not None else random_deck()
    if cut is not None and not profile.cut_ritual:
        raise NotInProfile(f"{profile.id} has no cut ritual", field="cut")
    the_cut = _cut_of(cut)
    sides = profile.sides(players)
    empty, zeros = ((),) * sides, (0,) * sides
    if profile.cut_ritual and the_cut is None:
        turn = leader_of(players, dealer)
        return RoundState(the_rules, players, dealer, _CUT, turn, ((),) * players, (), cards, empty, zeros, None), cards
    return _lay_out(the_rules, players, dealer, cards, the_cut or _KEEP, empty, zeros, None), cards


_CUTS: Final = {c.value: c for c in Cut}


def _cut_of(cut: Cut | str | None) -> Cut | None:
    if cut is None or isinstance(cut, Cut):
        return cut
    found = _CUTS.get(cut) if type(cut) is str else None  # Cut(cut) is an enum lookup, several times dearer
    if found is not None:
        return found
    try:
        return Cut(cut)
    except ValueError:
        raise InvalidInput('cut must be "keep" or "table"', field="cut") from None


def _lay_out(
    rules: Rules,
    players: int,
    dealer: int,
    deck: tuple[Card, ...],
    cut: Cut,
    piles: tuple[tuple[Card, ...], ...],
    sweeps: tuple[int, ...],
    last_capturer: int | None,
) -> RoundState:
    """The deal from ``deck`` (the stock of the round waiting for the cut): each seat in playing order
    takes a block of 3, then the table a block of 4. A tabled cut card is the first table card, drawn
    before the blocks; a kept one is simply the first card of the cutter's block (the cutter is first
    in order). The piles, sweeps and last capturer are the round's, as they were before the cut."""
    tabled = deck[:1] if cut is _TABLE else ()
    rest = deck[len(tabled) :]
    hands: list[tuple[Card, ...]] = [()] * players
    leader = leader_of(players, dealer)
    for k, seat in enumerate(playing_order_of(leader, players)):
        hands[seat] = rest[HAND_SIZE * k : HAND_SIZE * (k + 1)]
    dealt = HAND_SIZE * players
    table = (*tabled, *rest[dealt : dealt + TABLE_SIZE - len(tabled)])
    stock = rest[dealt + TABLE_SIZE - len(tabled) :]
    redeal = rules.profile.redeal
    void = redeal is not None and redeal.applies(table)
    phase, turn = (_REDEAL, None) if void else (_PLAY, leader)
    return RoundState(rules, players, dealer, phase, turn, tuple(hands), table, stock, piles, sweeps, last_capturer)


def refill_size(stock_size: int, cards_in_hands: int) -> int:
    """How many cards the stock deals each hand after a play that leaves ``cards_in_hands`` cards in
    all the hands and ``stock_size`` in the stock (docs/rules.md §3.5): ``HAND_SIZE`` when every hand
    is empty and the stock still holds cards, else none (the hands play on, or the round is over)."""
    return HAND_SIZE if stock_size and not cards_in_hands else 0


def is_last_play(stock_size: int, cards_in_hands: int) -> bool:
    """Whether the next play is the last of the round (docs/rules.md §5, §6: it never sweeps, and the last
    capturer then takes the table): the stock is empty and one card is left in all the hands."""
    return not stock_size and cards_in_hands == 1


def play(state: RoundState, move: Move) -> tuple[RoundState, Event]:
    """Validate ``state`` (docs/rules.md §9), then apply ``move``. Raises a ``MoveError`` when illegal."""
    validate(state)
    return advance(state, move)


def advance(state: RoundState, move: Move) -> tuple[RoundState, Event]:
    """``play`` for a state known to be valid (one the core built or validated)."""
    in_play = RoundInPlay(state)
    event = in_play.move(move)
    return in_play.state(), event


class RoundInPlay:
    """A round changed in place, move by move: the one implementation of a move. ``advance`` uses it
    for one move; a replay for a whole record, building a ``RoundState`` only at the end; a search
    (the move hints' endgame) forks it with ``copy`` at every position it explores."""

    __slots__ = (
        "rules", "players", "dealer", "order", "side_of", "phase", "turn", "hands", "table", "stock", "piles",
        "sweeps", "last_capturer", "in_hands",
    )  # fmt: skip

    def __init__(self, state: RoundState) -> None:
        self._load(state)

    def _load(self, state: RoundState) -> None:
        self.rules, self.players, self.dealer = state.rules, state.players, state.dealer
        self.order = state.playing_order()
        self.side_of = state.rules.profile.seat_sides(state.players)  # per seat, as the profile says
        self.phase, self.turn = state.phase, state.turn
        self.hands = list(state.hands)
        self.table, self.stock = state.table, state.stock
        self.piles = list(map(list, state.piles))
        self.sweeps = list(state.sweeps)
        self.last_capturer = state.last_capturer
        self.in_hands = sum(map(len, state.hands))

    def state(self) -> RoundState:
        return RoundState(
            self.rules,
            self.players,
            self.dealer,
            self.phase,
            self.turn,
            tuple(self.hands),
            self.table,
            self.stock,
            tuple(map(tuple, self.piles)),
            tuple(self.sweeps),
            self.last_capturer,
        )

    def copy(self) -> RoundInPlay:
        """An independent round in the same position (cheaper than ``state()`` and a new round)."""
        other = RoundInPlay.__new__(RoundInPlay)
        other.rules, other.players, other.dealer, other.order = self.rules, self.players, self.dealer, self.order
        other.side_of, other.phase, other.turn = self.side_of, self.phase, self.turn
        other.hands, other.table, other.stock = self.hands[:], self.table, self.stock
        other.piles, other.sweeps = [pile[:] for pile in self.piles], self.sweeps[:]
        other.last_capturer, other.in_hands = self.last_capturer, self.in_hands
        return other

    def legal_captures(self) -> list[Captures]:
        """``legal_moves`` in phase play: the legal captures of each card of the seat to move."""
        assert self.turn is not None
        last_play = is_last_play(len(self.stock), self.in_hands)
        return captures_of_each(self.rules, self.table, self.hands[self.turn], last_play)

    def move(self, move: Move, legal: Captures | None = None) -> Event:
        """Apply ``move``; a ``MoveError`` leaves the round as it was. ``legal``, for a play, may be
        the played card's entry of ``legal_captures()``, so that it is not worked out again."""
        turn = self.turn
        if turn is None:
            raise WrongPhase(f"nobody moves in phase {self.phase.value}", field="move", phase=self.phase.value)
        if move.seat is not None and move.seat != turn:
            check_seat(move.seat, self.players, field="move.seat")
            raise NotYourTurn(f"it is seat {turn}'s turn, not seat {move.seat}'s", field="move.seat", turn=turn)
        if self.phase is _CUT:
            if not isinstance(move, CutMove):
                raise WrongPhase("the round waits for the cut: keep or table the drawn card", field="move", phase="cut")
            piles = tuple(map(tuple, self.piles))
            after = _lay_out(
                self.rules,
                self.players,
                self.dealer,
                self.stock,
                move.cut,
                piles,
                tuple(self.sweeps),
                self.last_capturer,
            )
            self._load(after)
            return Event(turn, move, dealt=True, redeal=after.phase is _REDEAL)  # the cut deals the hands
        if not isinstance(move, PlayMove):
            raise WrongPhase("the cut is over: play a card", field="move", phase=self.phase.value)
        last_play = is_last_play(len(self.stock), self.in_hands)
        card = move.card
        _, kind, taken, sweep, self.table, self.hands[turn], _ = play_on(
            self.rules, self.table, self.hands[turn], card, move.capture, last_play, legal
        )
        self.in_hands -= 1
        if taken:
            side = self.side_of[turn]
            pile = self.piles[side]
            pile.append(card)
            pile += taken
            if sweep:
                self.sweeps[side] += 1
            self.last_capturer = side
        self.turn = next_seat(self.players, turn)
        dealt = False
        collected: tuple[Card, ...] = ()
        if last_play:
            # Somebody always captures in a round (docs/rules.md §6): four cards of each value force a match.
            assert self.last_capturer is not None
            collected, self.table = self.table, ()
            self.piles[self.last_capturer] += collected
            self.turn, self.phase = None, _OVER
        else:
            each = refill_size(len(self.stock), self.in_hands)
            if each:  # every hand is empty: the stock deals again
                self._refill(each)
                dealt = True
        return new_tuple(Event, (turn, move, kind, taken, sweep, dealt, collected, False))

    def _refill(self, each: int) -> None:
        """Every hand is empty: each seat in playing order takes ``each`` cards from the stock; the
        leader plays next (the seat after the dealer, who played last)."""
        stock = self.stock
        for k, seat in enumerate(self.order):
            self.hands[seat] = stock[each * k : each * (k + 1)]
        self.in_hands = each * self.players
        self.stock = stock[self.in_hands :]
        self.turn = self.order[0]


def legal_moves(state: RoundState) -> list[Any]:
    """What the seat to move may do: the legal captures of each card in hand, or the two cuts."""
    if state.phase is _CUT:
        return list(Cut)
    if state.turn is None:
        return []
    last_play = is_last_play(len(state.stock), sum(map(len, state.hands)))
    return captures_of_each(state.rules, state.table, state.hands[state.turn], last_play)


def round_breakdown(state: RoundState) -> tuple[SideScore, ...]:
    """The score of a finished round, from its piles and sweeps (a valid state is assumed, as by
    ``advance``: validate a state that comes from outside first)."""
    if state.phase is not _OVER:
        raise WrongPhase("only a finished round is scored", field="state.phase", phase=state.phase.value)
    tallies = [Tally.of_pile(pile, n) for pile, n in zip(state.piles, state.sweeps, strict=True)]
    # A finished state is valid (from_json validated it, or the engine played it out), so its piles
    # partition the deck and its sweeps fit them: check_tallies would find nothing to refuse.
    return scored(state.rules, tallies, state.last_capturer)
