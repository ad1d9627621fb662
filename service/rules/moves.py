"""Applying one play to a table and a hand (docs/rules.md §4, §5), checked against ``captures_of``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import filterfalse
from typing import NamedTuple

from .captures import CaptureKind, Captures, captures_of, captures_of_each, table_and_hand
from .cards import Card, CardLike, card_of, check_disjoint, parse_cards
from .errors import AmbiguousCapture, CardNotHeld, IllegalMove, InvalidCard, MoveError
from .profiles import Rules, RulesLike
from .tuples import new_tuple

# Enum members read once: on Python 3.11 every Enum class attribute read goes through EnumType's
# __getattr__ hook, about 900 machine instructions, and these are read for every move.
_NONE = CaptureKind.NONE


class PlayResult(NamedTuple):
    card: Card
    kind: CaptureKind  # NONE when the card was laid on the table
    taken: tuple[Card, ...]  # the table cards captured
    sweep: bool
    table: tuple[Card, ...]  # the table after the play
    hand: tuple[Card, ...]  # the hand after the play
    legal: Captures  # what the card could have done

    @property
    def captured(self) -> tuple[Card, ...]:
        """The played card and the cards it took, as they go to the pile; empty when laid."""
        return (self.card, *self.taken) if self.taken else ()


def apply_play(
    rules: RulesLike,
    table: Sequence[CardLike],
    hand: Sequence[CardLike],
    card: CardLike,
    capture: Iterable[CardLike] | None = None,
    *,
    last_play: bool = False,
) -> PlayResult:
    """Play ``card`` from ``hand`` on ``table``, taking ``capture`` (a set of table cards).

    ``capture`` may be omitted only when the card has one legal option or none. Raises
    ``CardNotHeld``, ``AmbiguousCapture`` or ``IllegalMove``, each carrying the legal options.
    """
    table_cards, hand_cards = table_and_hand(table, hand)
    try:
        played = card_of(card)
    except InvalidCard as exc:
        exc.field = "card"
        raise
    taken = None if capture is None else parse_cards(capture, where="capture")
    return play_on(Rules.of(rules), table_cards, hand_cards, played, taken, last_play)


def apply_play_of(
    rules: Rules,
    table: tuple[Card, ...],
    hand: tuple[Card, ...],
    card: Card,
    capture: tuple[Card, ...] | None,
    last_play: bool,
) -> PlayResult:
    """``apply_play`` for values already parsed (a table and a hand each of distinct cards, the hand of
    at most 3, a capture of distinct cards: an edge that loaded them checked that): what is left to
    check is that no card is both on the table and in the hand, then the play itself."""
    if not frozenset(table).isdisjoint(hand):  # a set: `in` a tuple compares each card the slow way
        check_disjoint([("table", table), ("hand", hand)])
    return play_on(rules, table, hand, card, capture, last_play)


def play_on(
    rules: Rules,
    table: tuple[Card, ...],
    hand: tuple[Card, ...],
    card: Card,
    capture: tuple[Card, ...] | None,
    last_play: bool,
    legal: Captures | None = None,
) -> PlayResult:
    """``apply_play`` for inputs already parsed and checked (the round engine's hot path). ``legal``,
    when given, is ``captures_of(rules, table, card, last_play)``, which a search that has listed
    every option already holds: it is not worked out again."""
    try:
        at = hand.index(card)
    except ValueError:
        raise _refused(
            CardNotHeld, f"{card} is not in the hand", "card", rules, table, hand, card, None, last_play
        ) from None
    if legal is None:
        legal = captures_of(rules, table, card, last_play)
    rest_of_hand = hand[:at] + hand[at + 1 :]
    if capture is None:
        if len(legal.options) > 1:
            message = f"{card} has {len(legal.options)} legal captures: say which one"
            raise _refused(AmbiguousCapture, message, "capture", rules, table, hand, card, legal, last_play)
        chosen = 0 if legal.options else None
    elif not capture:
        if legal.options:
            message = f"capture is mandatory: {card} must take one of its legal options"
            raise _refused(IllegalMove, message, "capture", rules, table, hand, card, legal, last_play)
        chosen = None
    else:
        try:
            chosen = legal.options.index(capture)  # the usual case: the cards in table order
        except ValueError:
            chosen = legal.find(capture)
        if chosen is None:
            missing = [c.code for c in capture if c not in table]
            why = f"{', '.join(missing)} not on the table" if missing else "not a legal capture"
            message = f"{card} cannot take {' '.join(c.code for c in capture)}: {why}"
            raise _refused(IllegalMove, message, "capture", rules, table, hand, card, legal, last_play)
    if chosen is None:
        return new_tuple(PlayResult, (card, _NONE, (), False, table_after(table, card, ()), rest_of_hand, legal))
    taken = legal.options[chosen]
    remaining = table_after(table, card, taken)
    return new_tuple(
        PlayResult, (card, legal.kind, taken, chosen == legal.sweep_option, remaining, rest_of_hand, legal)
    )


def table_after(table: Sequence[Card], card: Card, taken: Sequence[Card]) -> tuple[Card, ...]:
    """The table once ``card`` is played taking ``taken``, one of its legal options or none (docs/rules.md
    §4): the cards taken leave it, the others keep their order; a card that takes nothing is laid on
    it, last (§4.4)."""
    if not taken:
        return (*table, card)
    return tuple(filterfalse(frozenset(taken).__contains__, table))  # a set test: see legal_captures


def _refused(
    error: type[MoveError],
    message: str,
    field: str,
    rules: Rules,
    table: tuple[Card, ...],
    hand: tuple[Card, ...],
    card: Card,
    options: Captures | None,
    last_play: bool,
) -> MoveError:
    """The error for an illegal play, with the card's options and every hand card's legal captures."""
    legal = captures_of_each(rules, table, hand, last_play)
    return error(message, field=field, card=card.code, options=options, legal=legal)
