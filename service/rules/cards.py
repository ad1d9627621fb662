"""The 40-card pack: ranks, suits and interned ``Card`` values with their two-character codes."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from itertools import chain
from typing import Any, Final, NamedTuple

from .errors import DuplicateCard, InvalidCard, InvalidInput


class Suit(enum.Enum):
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"
    CLUBS = "C"


class Rank(enum.Enum):
    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def is_face(self) -> bool:
        return self in (Rank.JACK, Rank.QUEEN, Rank.KING)


SUITS: Final = tuple(Suit)
RANKS: Final = tuple(Rank)


class Card:
    """One of the 40 cards. Instances are interned, so identity is equality and hashing is cheap."""

    __slots__ = ("rank", "suit", "code", "index", "face")
    rank: Rank
    suit: Suit
    code: str
    index: int  # position in the canonical order (suits D H S C, each A..K)
    face: bool  # a figure: J, Q or K

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        return _BY_RANK_SUIT[rank, suit]

    @classmethod
    def _make(cls, rank: Rank, suit: Suit, index: int) -> Card:
        card = object.__new__(cls)
        for name, value in (
            ("rank", rank),
            ("suit", suit),
            ("code", rank.value + suit.value),
            ("index", index),
            ("face", rank.is_face),
        ):
            object.__setattr__(card, name, value)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card.parse, (self.code,))

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    @staticmethod
    def parse(code: object) -> Card:
        """Parse a canonical code such as ``7D`` or ``QH``; anything else raises ``InvalidCard``."""
        card = _BY_CODE.get(code) if isinstance(code, str) else None
        if card is None:
            raise InvalidCard(
                f"{'null' if code is None else repr(code)} is not a card: a card is a rank (A 2 3 4 5 6 7 J Q K) "
                "followed by a suit (D H S C), such as 7D",
                card=code,
            )
        return card


CardLike = Card | str

DECK: Final[tuple[Card, ...]] = tuple(
    Card._make(rank, suit, i * len(RANKS) + j) for i, suit in enumerate(SUITS) for j, rank in enumerate(RANKS)
)
_BY_RANK_SUIT: Final = {(c.rank, c.suit): c for c in DECK}
_BY_CODE: Final = {c.code: c for c in DECK}
SEVEN_OF_DIAMONDS: Final = _BY_CODE["7D"]


# Codes and the cards themselves, so that one lookup takes either (cards hash by identity).
_LOOKUP: Final[dict[object, Card]] = {}
for _card in DECK:
    _LOOKUP[_card.code] = _LOOKUP[_card] = _card


_CARD_OF: Final = _LOOKUP.__getitem__  # bound once: an attribute lookup per call costs more than a small list


def card_by_code(code: object) -> Card | None:
    """The card of a canonical code, or None (where ``Card.parse`` would raise)."""
    return _BY_CODE.get(code) if type(code) is str else None


def card_of(value: CardLike) -> Card:
    try:
        return _LOOKUP[value]  # a code or a card: one lookup
    except (KeyError, TypeError):  # TypeError: unhashable
        return Card.parse(value)  # which names what is wrong


def distinct_cards(values: object) -> tuple[Card, ...] | None:
    """The cards of a list of codes or cards, all valid and none twice; else None. The common case,
    in one pass of C loops, for ``parse_cards`` and the round engine's hot path."""
    if type(values) is not list and type(values) is not tuple:
        return None
    try:
        if len(values) < 2:  # most captures and many hands: no map, no set
            return (_LOOKUP[values[0]],) if values else ()
        found = tuple(map(_CARD_OF, values))
    except (KeyError, TypeError):  # not a card, or unhashable
        return None
    return found if len(set(found)) == len(found) else None


def parse_cards(values: Iterable[CardLike], *, where: str = "cards") -> tuple[Card, ...]:
    """Parse a list of codes or cards, rejecting bad codes and duplicates with the offending entry.

    ``where`` is the list's field path: an error names the entry at fault in ``field``
    (``where.i``), and its message does not say the path again (an edge shows both)."""
    found = distinct_cards(values)
    if found is not None:
        return found
    if not isinstance(values, list | tuple):
        raise InvalidCard("not a list of card codes", field=where)
    seen: dict[Card, int] = {}
    for i, value in enumerate(values):
        try:
            card = card_of(value)
        except InvalidCard as exc:
            exc.field = f"{where}.{i}"
            raise
        if card in seen:
            places = [f"{where}.{seen[card]}", f"{where}.{i}"]
            raise DuplicateCard(
                f"{card} appears twice, at {seen[card]} and {i}",  # as a schema's CardList says it
                field=places[1],
                card=card.code,
                places=places,
            )
        seen[card] = i
    return tuple(seen)


class Deck(NamedTuple):
    """A deck to deal from, top first: the 40 cards, each once, as ``deck_of`` or ``parse_deck`` found
    them. A deal takes it as it is, without checking it again."""

    cards: tuple[Card, ...]


def deck_of(values: object) -> Deck | None:
    """The deck of a list of the 40 cards (codes or cards), each once; else None, where
    ``parse_deck`` names what is wrong."""
    if (type(values) is not list and type(values) is not tuple) or len(values) != len(DECK):
        return None
    cards = distinct_cards(values)
    return None if cards is None else Deck(cards)


def parse_deck(values: object, *, where: str = "deck") -> Deck:
    """The deck of a list of the 40 cards, each once, top first; a ``Deck`` is taken as it is."""
    if type(values) is Deck:
        return values
    deck = deck_of(values)
    if deck is not None:
        return deck
    cards = parse_cards(values, where=where)  # type: ignore[arg-type]  # it names what is not a list of cards
    missing = " ".join(c.code for c in DECK if c not in cards)
    raise InvalidInput(f"a deck holds all 40 cards; this one lacks {missing}", field=where)


def check_disjoint(groups: Sequence[tuple[str, Sequence[Card]]]) -> None:
    """Raise ``DuplicateCard`` naming both places if any card stands in two of the named groups."""
    lists = [cards for _, cards in groups]
    if len(set(chain.from_iterable(lists))) == sum(map(len, lists)):
        return  # the common case, without naming places
    where: dict[Card, str] = {}
    for name, cards in groups:
        for card in cards:
            if card in where:
                raise DuplicateCard(
                    f"{card} is both in {where[card]} and in {name}",
                    field=name,
                    card=card.code,
                    places=[where[card], name],
                )
            where[card] = name


def codes(cards: Iterable[Card]) -> list[str]:
    return [c.code for c in cards]
