"""The round state (openapi.yaml 'RoundState'), its JSON form, and its validation against docs/rules.md §9.

A state is checked completely before any use; a bad state raises ``BadState`` naming what is wrong,
and nothing is ever repaired.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from typing import Any, Final

from .captures import HAND_SIZE
from .cards import DECK, Card, Rank, distinct_cards, parse_cards
from .errors import BadState, DuplicateCard, RulesError
from .profiles import PLAIN_RULES, Rules
from .sweeps import PLAYS, TABLE_SIZE, possible_sweeps


class Phase(enum.Enum):
    CUT = "cut"  # chkobba: the cutter must keep or table the top card
    PLAY = "play"
    REDEAL = "redeal"  # the deal is void: deal again with a new deck (same dealer)
    OVER = "over"


# Enum members read once: on Python 3.11 every Enum class attribute read goes through EnumType's
# __getattr__ hook, about 900 machine instructions, and these are read for every move.
_REDEAL, _OVER = Phase.REDEAL, Phase.OVER


@dataclass(frozen=True, slots=True)
class RoundState:
    rules: Rules
    players: int
    dealer: int
    phase: Phase
    turn: int | None
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...]
    stock: tuple[Card, ...]  # top first
    piles: tuple[tuple[Card, ...], ...]  # per side
    sweeps: tuple[int, ...]  # per side
    last_capturer: int | None  # side

    @property
    def sides(self) -> int:
        return self.rules.profile.sides(self.players)

    @property
    def leader(self) -> int:
        """The seat after the dealer: it receives first, cuts in chkobba, and leads every hand."""
        return leader_of(self.players, self.dealer)

    @property
    def next_dealer(self) -> int | None:
        """Who deals the next round once this one is over: the deal passes to the dealer's right
        (docs/rules.md §2), after a tiebreak or drawn round too. A redeal keeps the same dealer."""
        if self.phase is _OVER:
            return self.leader
        return self.dealer if self.phase is _REDEAL else None

    def side_of(self, seat: int) -> int:
        return self.rules.profile.side_of(self.players, seat)

    def playing_order(self) -> list[int]:
        return list(playing_order_of(self.leader, self.players))

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "players": self.players,
            "dealer": self.dealer,
            "phase": self.phase._value_,  # _value_: .value is a Python-level property
            "turn": self.turn,
            "hands": [[c.code for c in hand] for hand in self.hands],
            "table": [c.code for c in self.table],
            "stock": [c.code for c in self.stock],
            "piles": [[c.code for c in pile] for pile in self.piles],
            "sweeps": list(self.sweeps),
            "last_capturer": self.last_capturer,
        }

    @classmethod
    def from_json(cls, data: object) -> RoundState:
        """Build and validate a state from its JSON form. Raises a ``RulesError`` naming the field."""
        state = _well_formed(data)
        if state is None:
            state = cls._parse(data)
        validate(state)
        return state

    @classmethod
    def _parse(cls, data: object) -> RoundState:
        """The state of a JSON form, checked field by field, naming the first field at fault (the
        road of ``from_json`` when ``_well_formed`` declines)."""
        if not isinstance(data, Mapping):
            raise BadState("a state must be an object", field="state")
        fields = ("rules", "players", "dealer", "phase", "turn", "hands", "table", "stock", "piles", "sweeps")
        missing = [f for f in (*fields, "last_capturer") if f not in data]
        if missing:
            raise BadState(f"the state lacks {', '.join(missing)}", field=f"state.{missing[0]}")
        extra = set(data) - {*fields, "last_capturer"}
        if extra:
            raise BadState(f"the state has unknown fields: {', '.join(sorted(map(str, extra)))}", field="state")
        try:
            rules = Rules.of(data["rules"])
        except RulesError as exc:
            exc.field = f"state.{exc.field or 'rules'}"
            raise
        try:
            phase = Phase(data["phase"])
        except (ValueError, TypeError):
            raise BadState(f"phase must be one of {', '.join(p.value for p in Phase)}", field="state.phase") from None
        return cls(
            rules=rules,
            players=_int(data["players"], "players"),
            dealer=_int(data["dealer"], "dealer"),
            phase=phase,
            turn=_int(data["turn"], "turn", nullable=True),
            hands=_card_lists(data["hands"], "hands"),
            table=_cards(data["table"], "table"),
            stock=_cards(data["stock"], "stock"),
            piles=_card_lists(data["piles"], "piles"),
            sweeps=tuple(_int(x, f"sweeps.{i}") for i, x in enumerate(_list(data["sweeps"], "sweeps"))),
            last_capturer=_int(data["last_capturer"], "last_capturer", nullable=True),
        )


_KEYS: Final = frozenset(
    ("rules", "players", "dealer", "phase", "turn", "hands", "table", "stock", "piles", "sweeps", "last_capturer")
)
_PHASES: Final = {p.value: p for p in Phase}
_LISTS: Final = (list, tuple)
_INT: Final = frozenset({int})


def _well_formed(data: object) -> RoundState | None:
    """The state of a JSON form in the common case, by C loops: exactly the state's keys, a profile
    id (or rules already built), whole numbers and lists of distinct valid cards. None for anything
    else (the rules' object form included), which ``RoundState._parse`` then takes field by field;
    where both take a form, they build the same state."""
    if type(data) is not dict or data.keys() != _KEYS:
        return None
    rules = data["rules"]
    if type(rules) is str:
        rules = PLAIN_RULES.get(rules)
    if type(rules) is not Rules:
        return None
    phase = data["phase"]
    phase = _PHASES.get(phase) if type(phase) is str else None
    players, dealer, turn, last = data["players"], data["dealer"], data["turn"], data["last_capturer"]
    hands, piles, sweeps = data["hands"], data["piles"], data["sweeps"]
    if (
        phase is None
        or type(players) is not int
        or type(dealer) is not int
        or (turn is not None and type(turn) is not int)
        or (last is not None and type(last) is not int)
        or type(hands) not in _LISTS
        or type(piles) not in _LISTS
        or type(sweeps) not in _LISTS
        or not set(map(type, sweeps)) <= _INT
    ):
        return None
    hand_cards = tuple(map(distinct_cards, hands))
    pile_cards = tuple(map(distinct_cards, piles))
    table, stock = distinct_cards(data["table"]), distinct_cards(data["stock"])
    if table is None or stock is None or None in hand_cards or None in pile_cards:
        return None
    # No None in either: checked above (no cast(): it is a call, and this runs for every token).
    return RoundState(rules, players, dealer, phase, turn, hand_cards, table, stock, pile_cards, tuple(sweeps), last)  # type: ignore[arg-type]


def next_seat(players: int, seat: int) -> int:
    """The seat that plays after ``seat``, to its right (docs/rules.md §2.2): the next in playing
    order, and after the last seat of a hand the leader, who leads the refill (§3.5). The seat
    after the dealer is the leader (§2.4)."""
    return (seat + 1) % players


def leader_of(players: int, dealer: int) -> int:
    """The seat after the dealer (``RoundState.leader``)."""
    return next_seat(players, dealer)


@lru_cache(maxsize=64)
def playing_order_of(leader: int, players: int) -> tuple[int, ...]:
    """The seats in playing order from ``leader`` (asked for every move: worked out once)."""
    order = [leader]
    while len(order) < players:
        order.append(next_seat(players, order[-1]))
    return tuple(order)


def validate(state: RoundState) -> None:
    """Raise ``BadState`` unless ``state`` obeys docs/rules.md §9 and can arise under its profile."""
    profile = state.rules.profile
    n = state.players
    if n not in profile.players:
        allowed = " or ".join(map(str, profile.players))
        raise BadState(f"{profile.id} is played by {allowed} players, not {n}", field="state.players")
    if not 0 <= state.dealer < n:
        raise BadState(f"dealer must be a seat from 0 to {n - 1}", field="state.dealer")
    sides = state.sides
    if len(state.hands) != n or len(state.piles) != sides or len(state.sweeps) != sides:
        _expect_len(state.hands, n, "hands", "one hand per seat")
        _expect_len(state.piles, sides, "piles", "one pile per side")
        _expect_len(state.sweeps, sides, "sweeps", "one sweep count per side")
    _check_conservation(state)
    if max(map(len, state.hands)) > HAND_SIZE:  # then name the first hand too big
        for seat, hand in enumerate(state.hands):
            if len(hand) > HAND_SIZE:
                message = f"hand {seat} holds {len(hand)} cards; a hand holds at most 3"
                raise BadState(message, field=f"state.hands.{seat}")
    for side, (count, pile) in enumerate(zip(state.sweeps, state.piles, strict=True)):
        if count < 0:
            raise BadState("a sweep count cannot be negative", field=f"state.sweeps.{side}")
        if len(pile) == 1:
            raise BadState(
                f"pile {side} holds 1 card: every capture takes the card played and at least one more "
                "(docs/rules.md §10.18)",
                field=f"state.piles.{side}",
            )
        if len(pile) == 2 and pile[0].rank != pile[1].rank:
            raise BadState(
                f"pile {side} holds {pile[0]} and {pile[1]}: a capture of two cards takes a card of the played "
                "card's value (docs/rules.md §10.18)",
                field=f"state.piles.{side}",
            )
        if count > len(pile) // 2:
            raise BadState(
                f"side {side} has {count} sweeps but its pile of {len(pile)} cards holds at most "
                f"{len(pile) // 2} captures",
                field=f"state.sweeps.{side}",
            )
    _check_sweeps_in_all(state)
    _check_last_capturer(state)
    _PHASE_CHECKS[state.phase](state)


def plays_made(state: RoundState) -> int:
    """How many cards have been played: the 36 a deal leaves in play, less those still in the hands
    and the stock (negative for hands and a stock no deal leaves)."""
    return PLAYS - len(state.stock) - sum(map(len, state.hands))


def _check_sweeps_in_all(state: RoundState) -> None:
    """The sides play in turn from the leader's; no play right after a sweep can sweep (it finds the
    table empty) and the last play never does (docs/rules.md §10.17)."""
    if any(state.sweeps):
        plays = plays_made(state)
        first = state.side_of(state.leader)
        if not 0 <= plays <= PLAYS or not possible_sweeps(state.sweeps, first, plays):
            raise BadState(
                f"the sweeps {list(state.sweeps)} cannot come from the {max(plays, 0)} plays made so far: the sides "
                f"play in turn from side {first}, no play right after a sweep sweeps, and the last play never does "
                "(docs/rules.md §10.17)",
                field="state.sweeps",
            )


def _check_conservation(state: RoundState) -> None:
    every = [*chain.from_iterable(state.hands), *state.table, *state.stock, *chain.from_iterable(state.piles)]
    if len(every) == len(DECK) and len(set(every)) == len(DECK):
        return  # the common case: each card once, so all 40 somewhere; else name what is wrong
    where: dict[Card, str] = {}
    places = [
        *((f"state.hands.{i}", hand) for i, hand in enumerate(state.hands)),
        ("state.table", state.table),
        ("state.stock", state.stock),
        *((f"state.piles.{i}", pile) for i, pile in enumerate(state.piles)),
    ]
    for name, cards in places:
        for card in cards:
            if card in where:
                raise DuplicateCard(
                    f"{card} is both in {where[card]} and in {name}",
                    field=name,
                    card=card.code,
                    places=[where[card], name],
                )
            where[card] = name
    if len(where) != len(DECK):
        missing = [c.code for c in DECK if c not in where]
        raise BadState(f"every card must be somewhere; missing: {' '.join(missing)}", field="state", missing=missing)


def _check_last_capturer(state: RoundState) -> None:
    last = state.last_capturer
    anything_captured = any(state.piles)
    if last is None:
        if anything_captured:
            raise BadState("last_capturer is null although cards were captured", field="state.last_capturer")
        return
    if not 0 <= last < state.sides:
        raise BadState(f"last_capturer must be a side from 0 to {state.sides - 1}", field="state.last_capturer")
    if not state.piles[last]:
        raise BadState(f"last_capturer is side {last}, whose pile is empty", field="state.last_capturer")


def _check_cut(state: RoundState) -> None:
    if not state.rules.profile.cut_ritual:
        raise BadState(f"{state.rules.profile.id} has no cut", field="state.phase")
    if any(state.hands) or state.table or any(state.piles) or any(state.sweeps):
        raise BadState("before the cut nothing is dealt: hands, table and piles are empty", field="state.phase")
    if state.turn != state.leader:
        raise BadState(f"the cut belongs to seat {state.leader}, the dealer's right", field="state.turn")


def _check_play(state: RoundState) -> None:
    order = state.playing_order()
    sizes = list(map(len, map(state.hands.__getitem__, order)))  # C loops: this runs for every request
    top = max(sizes)
    if top == 0:
        raise BadState("in play some hand must hold cards", field="state.hands")
    played = sizes.index(top)  # seats before this one in playing order have played this hand
    # Every size before `played` is top - 1, every one from it is top (counted in C, not by generators).
    if sizes.count(top - 1) != played or sizes.count(top) != len(sizes) - played:
        raise BadState(
            "along the playing order from the leader, the seats that have played this hand hold one card fewer "
            f"than those still to play, so the sizes read n - 1 then n (from seat {state.leader}: {sizes})",
            field="state.hands",
        )
    expected = order[played]
    if state.turn != expected:
        raise BadState(f"the turn is seat {expected}'s, by the hand sizes and the playing order", field="state.turn")
    per_refill = HAND_SIZE * state.players
    if len(state.stock) % per_refill:
        raise BadState(
            f"the stock holds {len(state.stock)} cards; with {state.players} players it is refilled "
            f"{per_refill} at a time, so it holds a multiple of {per_refill}",
            field="state.stock",
        )
    ranks = [card.rank for card in state.table]
    if len(set(ranks)) != len(ranks):
        _check_values_dealt_together(state, ranks)
    _check_plays_made(state)


def _check_plays_made(state: RoundState) -> None:
    """What the plays made so far allow, in phase play (docs/rules.md §10.24)."""
    plays = plays_made(state)
    if plays < 0:
        raise BadState(
            f"the hands and the stock hold {PLAYS - plays} cards; a deal leaves {PLAYS} to play",
            field="state.stock",
        )
    sides = state.sides
    for side in range(sides):  # a side that has not played yet has captured nothing
        if plays <= (side - state.side_of(state.leader)) % sides and state.piles[side]:
            raise BadState(f"side {side} has not played yet, so its pile is empty", field=f"state.piles.{side}")
    if plays and not state.table:  # the last play emptied the table: a sweep, by the seat before the turn
        previous = state.side_of((state.turn - 1) % state.players) if state.turn is not None else None
        if previous is None or not state.sweeps[previous] or state.last_capturer != previous:
            raise BadState(
                f"the table is empty after {plays} plays, so the last play swept it: side {previous} has a sweep "
                "and captured last (docs/rules.md §10.24)",
                field="state.table",
            )


def _check_values_dealt_together(state: RoundState, ranks: list[Rank]) -> None:
    """A card laid where its value lies must take it (docs/rules.md §4.1, §4.3), so two table cards
    of one value were both dealt to the table, and have lain there since the deal (§10.20)."""
    together = " ".join(card.code for card in state.table if ranks.count(card.rank) > 1)
    why = (
        "a card played where its value lies must take it, so cards of one value lie together only as "
        "dealt (docs/rules.md §10.20)"
    )
    if sum(1 for rank in ranks if ranks.count(rank) > 1) > TABLE_SIZE:
        raise BadState(f"the table shows {together}: {why}, and the deal lays {TABLE_SIZE} cards", field="state.table")
    if any(state.sweeps):
        raise BadState(f"the table shows {together} after a sweep emptied it: {why}", field="state.table")
    redeal = state.rules.profile.redeal
    if redeal is not None and redeal.applies(state.table):
        raise BadState(
            f"the table shows {together}: {why}, and a deal that lays them is void, dealt again before anyone "
            "plays (docs/rules.md §3.4, §10.20)",
            field="state.table",
        )


def _check_redeal(state: RoundState) -> None:
    redeal = state.rules.profile.redeal
    if redeal is None:
        raise BadState(f"{state.rules.profile.id} never deals again", field="state.phase")
    if state.turn is not None:
        raise BadState("nobody moves in phase redeal", field="state.turn")
    dealt = all(len(h) == HAND_SIZE for h in state.hands) and len(state.table) == TABLE_SIZE
    if not dealt or any(state.piles) or not redeal.applies(state.table):
        raise BadState("phase redeal holds an initial deal whose table calls for a redeal", field="state.phase")


def _check_over(state: RoundState) -> None:
    if state.turn is not None:
        raise BadState("nobody moves once the round is over", field="state.turn")
    if any(state.hands) or state.table or state.stock:
        raise BadState("when the round is over every card is in a pile", field="state.phase")


_PHASE_CHECKS = {Phase.CUT: _check_cut, Phase.PLAY: _check_play, Phase.REDEAL: _check_redeal, Phase.OVER: _check_over}


def _expect_len(items: Sequence[Any], n: int, name: str, what: str) -> None:
    if len(items) != n:
        raise BadState(f"{name} must hold {what}: {n}, not {len(items)}", field=f"state.{name}")


def _list(value: object, name: str) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise BadState(f"{name} must be a list", field=f"state.{name}")
    return list(value)


def _int(value: object, name: str, *, nullable: bool = False) -> Any:
    if value is None and nullable:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadState(f"{name} must be a whole number{' or null' if nullable else ''}", field=f"state.{name}")
    return value


def _cards(value: object, name: str) -> tuple[Card, ...]:
    return parse_cards(_list(value, name), where=f"state.{name}")


def _card_lists(value: object, name: str) -> tuple[tuple[Card, ...], ...]:
    return tuple(_cards(item, f"{name}.{i}") for i, item in enumerate(_list(value, name)))
