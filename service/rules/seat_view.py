"""What one seat may know of a round (docs/rules.md §2-§6): its own hand, everything played in the open,
and the sizes of what is hidden. Never another hand (a partner's included), the order of the stock,
or a cut card that another seat drew. A spectator (an arbiter, a broadcast) sees what every seat sees
alike, and no hand at all."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .cards import Card
from .errors import InvalidInput, check_seat
from .numbers import whole_number
from .state import Phase, RoundState


@dataclass(frozen=True, slots=True)
class SeatView:
    state: RoundState
    seat: int

    @property
    def hand(self) -> tuple[Card, ...]:
        return self.state.hands[self.seat]

    @property
    def cut_card(self) -> Card | None:
        """In phase cut, the cutter has drawn the top card and looked at it; nobody else has."""
        state = self.state
        if state.phase is Phase.CUT and self.seat == state.turn and state.stock:
            return state.stock[0]
        return None

    def to_json(self) -> dict[str, Any]:
        return views_json(self.state, (self.seat,))[0]


def spectator_json(state: RoundState) -> dict[str, Any]:
    """What every seat sees alike, which is all a spectator sees: the table, the piles and sweeps, the
    turn, and how many cards each hand and the stock hold."""
    return {
        "rules": state.rules.to_json(),
        "players": state.players,
        "dealer": state.dealer,
        "phase": state.phase._value_,  # _value_: .value is a property
        "turn": state.turn,
        "hand_sizes": list(map(len, state.hands)),
        "table": [c.code for c in state.table],
        "stock_size": len(state.stock),
        "piles": [[c.code for c in pile] for pile in state.piles],
        "sweeps": list(state.sweeps),
        "last_capturer": state.last_capturer,
    }


def views_json(state: RoundState, seats: Iterable[int]) -> list[dict[str, Any]]:
    """``SeatView.to_json`` of each of ``seats`` (valid seats of ``state``): what every seat sees
    alike (``spectator_json``) is rendered once and shared by the views."""
    hands = state.hands
    shared = spectator_json(state)
    sides = state.rules.profile.seat_sides(state.players)
    views = []
    for seat in seats:
        data: dict[str, Any] = {"seat": seat, "side": sides[seat], "hand": [c.code for c in hands[seat]], **shared}
        cut = SeatView(state, seat).cut_card if shared["phase"] == "cut" else None
        if cut is not None:
            data["cut_card"] = cut.code
        views.append(data)
    return views


def seat_view(state: RoundState, seat: int) -> SeatView:
    """The view of ``seat`` (a valid state is assumed: validate it first when it comes from outside)."""
    number = whole_number(seat)
    if number is None:
        raise InvalidInput("seat must be a whole number", field="seat")
    check_seat(number, state.players, field="seat")
    return SeatView(state, number)
