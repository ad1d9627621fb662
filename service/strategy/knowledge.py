"""What one seat may know of a round, and the plays it may make.

``SeatKnowledge.of(view)`` copies from a ``SeatView`` what that view shows (the seat's own hand, the
table, the piles, the sweeps, the sizes of the hidden hands and of the stock, the cut card the
cutter drew) and nothing else; the strategy takes a ``SeatKnowledge`` and never a ``RoundState``, so
it cannot read another hand or the order of the stock. The cards the seat cannot see (the *unseen*
cards: every card not in its hand, on the table or in a pile) are the only candidates for the other
hands.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.rules import (
    DECK,
    Captures,
    Card,
    Phase,
    RoundState,
    Rules,
    SeatView,
    hand_captures_of,
    is_last_play,
)


@dataclass(frozen=True, slots=True)
class SeatKnowledge:
    """What one seat may know of a round: the data of its ``SeatView``, no hidden card."""

    rules: Rules
    players: int
    seat: int
    dealer: int
    phase: Phase
    turn: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    table: tuple[Card, ...]
    stock_size: int
    piles: tuple[tuple[Card, ...], ...]
    sweeps: tuple[int, ...]
    last_capturer: int | None
    cut_card: Card | None

    @classmethod
    def of(cls, view: SeatView) -> SeatKnowledge:
        """Copy what ``view`` shows (the same fields as ``SeatView.to_json``), and nothing else."""
        state = view.state
        return cls(
            rules=state.rules,
            players=state.players,
            seat=view.seat,
            dealer=state.dealer,
            phase=state.phase,
            turn=state.turn,
            hand=view.hand,
            hand_sizes=tuple(len(h) for h in state.hands),
            table=state.table,
            stock_size=len(state.stock),
            piles=state.piles,
            sweeps=state.sweeps,
            last_capturer=state.last_capturer,
            cut_card=view.cut_card,
        )

    @property
    def sides(self) -> int:
        return self.rules.profile.sides(self.players)

    @property
    def side(self) -> int:
        return self.rules.profile.side_of(self.players, self.seat)

    @property
    def last_play(self) -> bool:
        """The next play is the last of the round (the core's ``is_last_play``)."""
        return is_last_play(self.stock_size, sum(self.hand_sizes))

    def unseen(self) -> tuple[Card, ...]:
        """The cards this seat cannot see, in canonical order: the other hands and the stock."""
        seen = {*self.hand, *self.table, *(c for pile in self.piles for c in pile)}
        return tuple(c for c in DECK if c not in seen)

    def known_round(self) -> RoundState | None:
        """The round itself, when this seat can tell where every card is: in phase play, the stock
        empty and no more than one other seat holding cards (the unseen ones, in canonical order).
        The seat's own hand is in card order. None when some card's place is hidden."""
        if self.phase is not Phase.PLAY or self.stock_size:
            return None
        holders = [s for s, n in enumerate(self.hand_sizes) if n and s != self.seat]
        if len(holders) > 1:
            return None
        hands: list[tuple[Card, ...]] = [()] * self.players
        hands[self.seat] = tuple(sorted(self.hand))
        if holders:
            hands[holders[0]] = self.unseen()
        return RoundState(
            self.rules,
            self.players,
            self.dealer,
            self.phase,
            self.turn,
            tuple(hands),
            self.table,
            (),
            self.piles,
            self.sweeps,
            self.last_capturer,
        )


# A legal play: the card, the table cards it takes, whether it sweeps, and the card's legal captures
# (as the core lists them, for the core to apply the play without working them out again).
Play = tuple[Card, tuple[Card, ...], bool, Captures]


def legal_plays(k: SeatKnowledge) -> list[Play]:
    """Every legal play of the seat, in card order, then in the core's order of capture options: the
    core's ``hand_captures_of`` of the hand, one play per option (or the card laid when it has none)."""
    plays: list[Play] = []
    for caps in hand_captures_of(k.rules, k.table, tuple(sorted(k.hand)), k.last_play):
        card = caps.card
        if caps.options:
            plays.extend([(card, option, False, caps) for option in caps.options])
            if caps.sweep_option is not None:  # at most one option sweeps
                start = len(plays) - len(caps.options)
                plays[start + caps.sweep_option] = (card, caps.options[caps.sweep_option], True, caps)
        else:
            plays.append((card, (), False, caps))
    return plays
