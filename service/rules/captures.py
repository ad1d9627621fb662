"""Legal captures (docs/rules.md §4, §5): the one place that decides what a played card may take.

An option is the tuple of table cards it takes, in table order. Options come in lexicographic order
of their table positions. Sums are built by dynamic programming over the table from its end:
``row[r]`` holds, in order, every set of cards at positions >= i adding up to r, so each set is
built once by putting one card in front of sets already built, and only the remainders that the
cards before i can leave, and the cards from i on can make, are computed. Sets with the same sum
are never prefixes of one another, which is why prepending keeps the order lexicographic with no
sorting.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from .cards import Card, CardLike, card_of, check_disjoint, distinct_cards, parse_cards
from .errors import InvalidInput
from .profiles import Rules, RulesLike
from .tuples import new_tuple

HAND_SIZE = 3

Option = tuple[Card, ...]


class CaptureKind(enum.Enum):
    MATCH = "match"  # takes exactly one table card of the same value (§4.1)
    SUM = "sum"  # takes two or more table cards adding up to the value (§4.2)
    NONE = "none"  # captures nothing: the card is laid on the table (§4.4)


# Enum members read once: on Python 3.11 every Enum class attribute read goes through EnumType's
# __getattr__ hook, about 900 machine instructions, and these are read for every move.
_MATCH, _SUM, _NONE = CaptureKind.MATCH, CaptureKind.SUM, CaptureKind.NONE
_ONE = 1  # _ONE.__lshift__: the bit of a value


class Captures(NamedTuple):
    """What a card may do on a table: its value, the kind of capture, the legal options (each the
    table cards taken, in table order) and which option, if any, sweeps the table (§5)."""

    card: Card
    value: int
    kind: CaptureKind
    options: tuple[Option, ...]
    sweep_option: int | None  # index in ``options`` of the option that empties the table

    def find(self, taken: Iterable[Card]) -> int | None:
        """The index of the option taking exactly these cards (compared as a set), if legal."""
        taken = tuple(taken)
        try:
            return self.options.index(taken)  # the usual case: the cards in table order
        except ValueError:
            pass
        wanted = frozenset(taken)
        for index, option in enumerate(self.options):
            if len(option) == len(wanted) and wanted.issuperset(option):
                return index
        return None


def legal_captures(rules: RulesLike, table: Sequence[CardLike], card: CardLike, *, last_play: bool = False) -> Captures:
    """The legal captures of ``card`` played on ``table`` under ``rules``.

    ``last_play`` marks the last play of the round, which never sweeps (§5). Raises ``InvalidCard``
    or ``DuplicateCard`` for bad input, naming the offending entry.
    """
    every = distinct_cards([*table, card]) if type(table) is list or type(table) is tuple else None
    if every is not None:  # the common case: the table and the card parsed and checked in one pass
        return captures_of(Rules.of(rules), every[:-1], every[-1], last_play)
    cards = parse_cards(table, where="table")  # else one at a time, naming what is wrong
    played = card_of(card)
    if played in frozenset(cards):  # a set: `in` a tuple compares each card the slow way (Card.__lt__)
        check_disjoint([("table", cards), ("the card played", (played,))])
    return captures_of(Rules.of(rules), cards, played, last_play)


def hand_captures(
    rules: RulesLike, table: Sequence[CardLike], hand: Sequence[CardLike], *, last_play: bool = False
) -> list[Captures]:
    """The legal captures of every card of ``hand``, in hand order."""
    table_cards, hand_cards = table_and_hand(table, hand)
    return hand_captures_of(Rules.of(rules), table_cards, hand_cards, last_play)


def hand_captures_of(rules: Rules, table: tuple[Card, ...], hand: tuple[Card, ...], last_play: bool) -> list[Captures]:
    """``hand_captures`` for a table and a hand already parsed (each of distinct cards, the hand of at
    most 3: an edge that loaded them checked that): what is left to check is that no card is both on
    the table and in the hand."""
    if not frozenset(table).isdisjoint(hand):  # a set: `in` a tuple compares each card the slow way
        check_disjoint([("table", table), ("hand", hand)])
    return captures_of_each(rules, table, hand, last_play)


def captures_of_each(rules: Rules, table: tuple[Card, ...], cards: tuple[Card, ...], last_play: bool) -> list[Captures]:
    """``captures_of`` for each of ``cards`` on one table. The sums of every card are worked out by
    one pass of the dynamic program over the table (the first card that needs them asks for all)."""
    if len(cards) < 2 or len(table) < 2:
        return [captures_of(rules, table, card, last_play) for card in cards]
    shared: list[list[list[Option]] | None] = []

    def sums(values: list[int], target: int) -> list[Option]:
        if not shared:  # every card's value that no table card matches may need its sums
            targets = set(map(rules.card_values.__getitem__, cards)).difference(values)
            shared.append(_sets(table, values, sum(map(_ONE.__lshift__, targets)), max(targets)))
        rows = shared[0]
        return [] if rows is None else rows[target]

    return [captures_of(rules, table, card, last_play, sums) for card in cards]


def table_and_hand(table: Sequence[CardLike], hand: Sequence[CardLike]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Parse a table and a hand of at most 3 cards, with no card in both."""
    table_cards = parse_cards(table, where="table")
    hand_cards = parse_cards(hand, where="hand")
    if len(hand_cards) > HAND_SIZE:
        raise InvalidInput(f"a hand holds at most {HAND_SIZE} cards", field="hand")
    check_disjoint([("table", table_cards), ("hand", hand_cards)])
    return table_cards, hand_cards


def captures_of(
    rules: Rules,
    table: tuple[Card, ...],
    card: Card,
    last_play: bool,
    sums: Callable[[list[int], int], list[Option]] | None = None,
) -> Captures:
    """``legal_captures`` for inputs already parsed and checked (the round engine's hot path).
    ``sums(values, value)``, when given, gives the sets adding up to the value, from a pass of the
    dynamic program that ``captures_of_each`` shares between the cards of a hand."""
    value_of = rules.card_values
    value = value_of[card]
    if len(table) < 2:  # no sum: two cards at least make one (§4.2); a match (which sweeps) or nothing
        if table and value_of[table[0]] == value:
            return new_tuple(Captures, (card, value, _MATCH, ((table[0],),), None if last_play else 0))
        return new_tuple(Captures, (card, value, _NONE, (), None))
    values = list(map(value_of.__getitem__, table))
    if value in values:
        if values.count(value) == 1:
            matches: tuple[Option, ...] = ((table[values.index(value)],),)
        else:
            matches = tuple([(c,) for c, v in zip(table, values, strict=True) if v == value])
        return new_tuple(Captures, (card, value, _MATCH, matches, None))  # more cards stay on the table
    if card.face and not rules.face_sums:
        return new_tuple(Captures, (card, value, _NONE, (), None))
    # Every set of table cards adding up to the value, in lexicographic order of positions; no
    # table card is worth it (that was a match), so each set has two cards or more.
    if sums is None:
        rows = _sets(table, values, 1 << value, value)
        options = [] if rows is None else rows[value]
    else:
        options = sums(values, value)
    if not options:
        return new_tuple(Captures, (card, value, _NONE, (), None))
    if rules.most_cards:
        most = max(map(len, options))
        options = [o for o in options if len(o) == most]
    # The set taking the whole table, when legal, is lexicographically first.
    sweep_option = 0 if len(options[0]) == len(table) and not last_play else None
    return new_tuple(Captures, (card, value, _SUM, tuple(options), sweep_option))


def _sets(table: tuple[Card, ...], values: list[int], targets: int, top: int) -> list[list[Option]] | None:
    """``row``, where ``row[t]`` lists every set of table cards adding up to ``t``, in lexicographic
    order of positions, for each ``t`` in the bit set ``targets`` (the highest is ``top``); None when
    no target can be made. No table card is worth a target (that would be a match), so each set has
    two or more cards.

    Remainders are bit sets: bit r of ``needs[i]`` is set when the cards before position i can
    leave exactly r to make up a target; bit s of ``after`` when the cards after i can add up to s.
    """
    needs: list[int] = []
    need = targets
    for v in values:
        needs.append(need)
        need |= need >> v
    if not need & 1:
        return None
    row: list[list[Option]] = [[]] * (top + 1)
    # row[r]: the sets of the cards after position i adding up to r. Entries are replaced, never
    # changed in place, and remainders go from the highest down, so row[r - v] is still the row of
    # the cards after i when remainder r reads it.
    after = 1
    for i in range(len(values) - 1, -1, -1):
        v = values[i]
        if v >= top:
            continue
        useful = needs[i] & (after << v)  # remainders r that card i can start a set for
        after |= after << v
        head = (table[i],)
        while useful:
            r = useful.bit_length() - 1
            useful ^= 1 << r
            if r == v:
                row[r] = [head, *row[r]]
            else:
                row[r] = [*map(head.__add__, row[r - v]), *row[r]]
    return row
