"""What one seat may know of a round (RULES.md §2-§6): its own hand, everything played in the open,
and the sizes of what is hidden. Never another hand (a partner's included), the order of the stock,
or a cut card that another seat drew."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import Card
from .errors import InvalidInput
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
        state = self.state
        data: dict[str, Any] = {
            "seat": self.seat,
            "side": state.side_of(self.seat),
            "rules": state.rules.to_json(),
            "players": state.players,
            "dealer": state.dealer,
            "phase": state.phase._value_,  # _value_: .value is a Python-level property
            "turn": state.turn,
            "hand": [c.code for c in self.hand],
            "hand_sizes": [len(h) for h in state.hands],
            "table": [c.code for c in state.table],
            "stock_size": len(state.stock),
            "piles": [[c.code for c in pile] for pile in state.piles],
            "sweeps": list(state.sweeps),
            "last_capturer": state.last_capturer,
        }
        cut = self.cut_card
        if cut is not None:
            data["cut_card"] = cut.code
        return data


def seat_view(state: RoundState, seat: int) -> SeatView:
    """The view of ``seat`` (a valid state is assumed: validate it first when it comes from outside)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise InvalidInput(f"seat must be from 0 to {state.players - 1}", field="seat")
    return SeatView(state, seat)
