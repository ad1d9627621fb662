"""marshmallow fields that turn JSON into rule values at the edge.

Their errors are ``CodedMessage`` strings: marshmallow keeps a message object as it is given, so
the problem handler can read the stable code of a card or rules error out of the error tree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from marshmallow import ValidationError, fields, missing, validate

from service.rules import (
    DECK,
    PROFILES,
    Card,
    Deck,
    InvalidInput,
    Move,
    RecordMoves,
    Rules,
    RulesError,
    deck_of,
    parse_move,
    parse_record_moves,
)
from service.rules.cards import card_by_code, distinct_cards
from service.rules.numbers import whole_number
from service.rules.shuffle import seed_text

MAX_SEATS = max(n for profile in PROFILES.values() for n in profile.players)


class CodedMessage(str):
    """A validation message that carries the stable problem ``code`` it stands for."""

    code: str

    def __new__(cls, message: str, code: str) -> CodedMessage:
        self = super().__new__(cls, message)
        self.code = code
        return self


def coded_error(exc: RulesError, *, coded: bool = True) -> ValidationError:
    """The core's error as marshmallow's, nested at the path the core names below the field; with
    ``coded=False``, a plain message, which the problem answers as validation-error. The core's
    message does not say the path (its ``field`` does), so it is taken as it is."""
    text: Any = CodedMessage(exc.message, exc.code) if coded else exc.message
    tree: dict[str, Any] = {}
    for place in exc.details.get("places") or [exc.field or ""]:  # a card in two places: at both
        *parents, last = place.split(".")[1:] or ["_schema"]
        node = tree
        for part in parents:
            node = node.setdefault(part, {})
        node.setdefault(last, []).append(text)
    return ValidationError(tree.get("_schema", tree) if list(tree) == ["_schema"] else tree)


class Referenced(fields.Field):  # type: ignore[type-arg]
    """A field described in the spec by a shared component (``openapi_ref``) rather than inline."""

    openapi_ref: str = ""


class CardField(Referenced):
    """A card code such as ``7D``, loaded as an interned ``Card`` and dumped as its code."""

    openapi_ref = "Card"

    def make_error(self, key: str, **kwargs: Any) -> ValidationError:
        if key == "null":  # a null where a card belongs is not a card, like any other non-card
            return ValidationError(CodedMessage("null is not a card", "invalid-card"))
        return super().make_error(key, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> Card:
        try:
            return Card.parse(value)
        except RulesError as exc:
            raise coded_error(exc) from None

    def quick_load(self, value: Any) -> Any:
        """``_deserialize`` for a valid code; ``missing`` otherwise (service/api/loading.py)."""
        card = card_by_code(value)
        return missing if card is None else card

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return None if value is None else str(value)


class BoundedList(fields.List):  # type: ignore[type-arg]
    """A list whose length (its ``Length`` validator) is checked before its items. marshmallow's List
    loads every item first and runs the validators after: a 64 KiB body holds 30,000 items, and
    30,000 bad ones cost a second of work and a problem of megabytes before the length refused them.
    Loaded as a plain List is, by both roads (service/api/loading.py)."""

    loads_as_list = True

    def __init__(self, inner: Any, *, validate: validate.Length, **kwargs: Any) -> None:
        super().__init__(inner, validate=validate, **kwargs)
        self.length = validate

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> Any:
        if type(value) is list:
            self.length(value)  # too long (or too short): said at once, in Length's own words
        return super()._deserialize(value, attr, data, **kwargs)


class CardList(fields.Field):  # type: ignore[type-arg]
    """A list of distinct card codes, loaded as a tuple of ``Card``. One pass over the list rather
    than a field per card: card lists are on the hot path of nearly every request."""

    def __init__(self, *, min_items: int = 0, max_items: int = len(DECK), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.min_items, self.max_items = min_items, max_items

    def _deserialize(
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> tuple[Card, ...]:
        if not isinstance(value, list):
            raise ValidationError("Not a valid list.")
        if not self.min_items <= len(value) <= self.max_items:
            raise ValidationError(f"Length must be between {self.min_items} and {self.max_items}.")
        found = distinct_cards(value)
        if found is not None:
            return found
        cards: dict[Card, int] = {}  # the slow path, which names every bad entry (ordered, cheap to test)
        errors: dict[int, list[str]] = {}
        for index, code in enumerate(value):
            try:
                card = Card.parse(code)
            except RulesError as exc:
                errors[index] = [CodedMessage(exc.message, exc.code)]
                continue
            if card in cards:  # named at both places
                first = cards[card]
                message = CodedMessage(f"{card} appears twice, at {first} and {index}", "duplicate-card")
                errors.setdefault(first, []).append(message)
                errors[index] = [message]
            else:
                cards[card] = index
        if errors:
            raise ValidationError(errors)
        return tuple(cards)

    def quick_load(self, value: Any) -> Any:
        """``_deserialize`` for a list of distinct valid codes of an allowed length; ``missing``
        otherwise (service/api/loading.py)."""
        if type(value) is not list or not self.min_items <= len(value) <= self.max_items:
            return missing
        found = distinct_cards(value)
        return missing if found is None else found

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return None if value is None else [str(card) for card in value]


class DeckField(CardList):
    """A deck to deal from, top first: the 40 cards, each once, loaded by the core (``deck_of``) as a
    ``Deck``, once: a deal takes it as it is. A list that is not one is named as a card list is."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_items=len(DECK), max_items=len(DECK), **kwargs)

    # A Deck, not the tuple of cards a CardList loads: documented as a card list, loaded as what a deal takes.
    def _deserialize(  # type: ignore[override]
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> Deck:
        deck = deck_of(value)
        return deck if deck is not None else Deck(super()._deserialize(value, attr, data, **kwargs))

    def quick_load(self, value: Any) -> Any:
        """``_deserialize`` for a list of the 40 cards, each once; ``missing`` otherwise."""
        deck = deck_of(value) if type(value) is list else None
        return missing if deck is None else deck

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return super()._serialize(value.cards if isinstance(value, Deck) else value, attr, obj, **kwargs)


@dataclass(frozen=True, slots=True)
class Timeout:
    """The timeout move of a clocked round, ``{"timeout": true, "seat"}``: play the default move for
    ``seat``, whose time has run out (service/api/rounds.py). Not a move of the rules: the service
    chooses the move it stands for."""

    seat: int


def _timeout(value: Any) -> Timeout:
    if value.keys() != {"timeout", "seat"} or value["timeout"] is not True:
        raise ValidationError('a timeout move is {"timeout": true, "seat": <the seat to move>}')
    seat = whole_number(value["seat"])  # 2.0 is the whole number 2, as JSON Schema counts it
    if seat is None or not 0 <= seat < MAX_SEATS:
        raise ValidationError({"seat": [f"a seat from 0 to {MAX_SEATS - 1}"]})
    return Timeout(seat)


class MoveField(Referenced):
    """A move of a round, loaded by the core's own parser (``parse_move``), once: the view passes the
    ``Move`` on as it is; or a clocked round's ``Timeout``. Documented as ``MoveInput``, whose variants
    the contract names."""

    openapi_ref = "MoveInput"

    def _deserialize(
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> Move | Timeout:
        if isinstance(value, Mapping) and "timeout" in value:
            return _timeout(value)
        try:
            return parse_move(value)
        except RulesError as exc:
            # A move of the wrong form breaks the contract, as a wrong value of any other field does
            # (validation-error); a card that is not one keeps its own code.
            raise coded_error(exc, coded=not isinstance(exc, InvalidInput)) from None

    def quick_load(self, value: Any) -> Any:
        """``_deserialize`` for a move the core takes; ``missing`` otherwise (service/api/loading.py)."""
        try:
            return parse_move(value)
        except RulesError:
            return missing  # a timeout move too: _deserialize takes it


class Moves(fields.Field):  # type: ignore[type-arg]
    """A round record's moves, each loaded by the core's own parser (``parse_record_moves``: a move and,
    in a clocked round, its time), once, into ``RecordMoves``: the core then plays them as they are.
    An error names the move at fault (``moves.3.card``) with the core's code. Documented as a list of
    ``RecordMove``."""

    def __init__(self, *, max_items: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.max_items = max_items
        self.paths = tuple(f"moves.{i}" for i in range(max_items))

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> RecordMoves:
        if not isinstance(value, list):
            raise ValidationError("Not a valid list.")
        if len(value) > self.max_items:
            raise ValidationError(f"Longer than maximum length {self.max_items}.")
        try:
            return parse_record_moves(value)
        except RulesError as exc:
            raise coded_error(exc) from None

    def quick_load(self, value: Any) -> Any:
        """``_deserialize`` for a list of moves the core takes; ``missing`` otherwise (service/api/loading.py)."""
        if type(value) is not list or len(value) > self.max_items:
            return missing
        try:
            return parse_record_moves(value)
        except RulesError:
            return missing


class RulesField(Referenced):
    """A profile id, or ``{profile, options}``, loaded as a ``Rules`` value."""

    openapi_ref = "Rules"

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> Rules:
        if not isinstance(value, str | Mapping):
            raise ValidationError(
                CodedMessage("rules must be a profile id or an object {profile, options}", "unknown-profile")
            )
        try:
            return Rules.of(value)
        except RulesError as exc:
            raise coded_error(exc) from None

    def quick_load(self, value: Any) -> Any:
        """``_deserialize`` for a profile id; ``missing`` otherwise, the object form included
        (service/api/loading.py)."""
        return Rules.of(value) if type(value) is str and value in PROFILES else missing

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return value.to_json() if isinstance(value, Rules) else value


class SeedField(Referenced):
    """A seed for the portable shuffle: a string, or a whole number taken as its decimal text."""

    openapi_ref = "Seed"

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> str:
        try:
            return seed_text(value)
        except RulesError as exc:
            raise coded_error(exc) from None
