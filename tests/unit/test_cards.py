"""Cards (docs/rules.md §1, openapi.yaml "Card") and the seeded shuffle (docs/seeded-shuffle.md)."""

import pickle

import pytest

from service.rules import (
    DECK,
    SEVEN_OF_DIAMONDS,
    Card,
    Deck,
    DuplicateCard,
    InvalidCard,
    InvalidInput,
    Rank,
    Suit,
    deal_round,
    deck_of,
    parse_cards,
    parse_deck,
    random_deck,
    seeded_deck,
)

from ..support import reference_shuffle


def test_card_parses_and_prints_its_two_character_code() -> None:
    card = Card.parse("7D")
    assert card.rank is Rank.SEVEN and card.suit is Suit.DIAMONDS
    assert str(card) == "7D" and card.code == "7D"
    assert card is SEVEN_OF_DIAMONDS
    assert Card(Rank.QUEEN, Suit.HEARTS) is Card.parse("QH")


def test_every_rank_and_suit_parses() -> None:
    for rank in "A234567JQK":
        for suit in "DHSC":
            assert str(Card.parse(rank + suit)) == rank + suit


def test_deck_is_forty_cards_in_canonical_order() -> None:
    # Suits D H S C, each A 2 3 4 5 6 7 J Q K.
    expected = [rank + suit for suit in "DHSC" for rank in "A234567JQK"]
    assert [c.code for c in DECK] == expected
    assert len(set(DECK)) == 40
    assert [c.index for c in DECK] == list(range(40))


def test_cards_are_immutable_and_survive_pickling() -> None:
    card = Card.parse("KS")
    with pytest.raises(AttributeError):
        card.code = "KH"  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(card)) is card


@pytest.mark.parametrize("code", ["8D", "9S", "10H", "7d", "qh", "7X", "D7", "", "7", "7DD", " 7D", "1D", "0H"])
def test_invalid_card_code_is_rejected_naming_it(code: str) -> None:
    with pytest.raises(InvalidCard) as info:
        Card.parse(code)
    assert info.value.code == "invalid-card"
    assert repr(code) in info.value.message
    assert info.value.details["card"] == code


@pytest.mark.parametrize("value", [7, 7.0, None, True, ["7D"], b"7D"])
def test_non_string_card_is_rejected_naming_it(value: object) -> None:
    with pytest.raises(InvalidCard) as info:
        Card.parse(value)
    assert info.value.code == "invalid-card"
    assert ("null" if value is None else repr(value)) in info.value.message  # a JSON null, as a client wrote it
    assert info.value.details["card"] == value


@pytest.mark.parametrize("bad", ["8D", "10H", "7d", "7X", 10, 7])
def test_parse_cards_names_the_bad_entry_and_its_position(bad: object) -> None:
    with pytest.raises(InvalidCard) as info:
        parse_cards(["AD", "2H", bad, "3S"], where="table")
    assert info.value.code == "invalid-card"
    assert info.value.field == "table.2"
    assert info.value.details["card"] == bad
    assert info.value.message.startswith(f"{bad!r} is not a card")  # the place is in field, not said again


def test_parse_cards_rejects_a_duplicate_naming_the_second_occurrence() -> None:
    with pytest.raises(DuplicateCard) as info:
        parse_cards(["7D", "QH", "7D"], where="hand")
    assert info.value.code == "duplicate-card"
    assert info.value.field == "hand.2"
    assert info.value.details["card"] == "7D"
    assert info.value.details["places"] == ["hand.0", "hand.2"]
    assert info.value.message == "7D appears twice, at 0 and 2"  # places in its list: an edge may nest the list


@pytest.mark.parametrize("value", ["7D", "7D QH", 7, None, b"7D"])
def test_parse_cards_needs_a_list(value: object) -> None:
    with pytest.raises(InvalidCard) as info:
        parse_cards(value, where="table")  # type: ignore[arg-type]
    assert info.value.field == "table" and "table" not in info.value.message


def test_parse_cards_accepts_codes_and_cards_in_order() -> None:
    assert parse_cards(["QH", Card.parse("2D"), "AS"]) == (Card.parse("QH"), Card.parse("2D"), Card.parse("AS"))
    assert parse_cards([]) == ()


@pytest.mark.parametrize("seed", ["0", "chkobba", "round-7", "سبعة"])
def test_seeded_deck_follows_the_contract_shuffle(seed: str) -> None:
    assert [c.code for c in seeded_deck(seed)] == reference_shuffle(seed)


def test_whole_number_seed_is_its_decimal_text() -> None:
    assert seeded_deck(42) == seeded_deck("42")
    assert [c.code for c in seeded_deck(-5)] == reference_shuffle("-5")
    assert seeded_deck(1) != seeded_deck(2)


@pytest.mark.parametrize("seed", [True, 1.5, None, "", "x" * 257, 2**64, -(2**64), ["1"]])
def test_bad_seed_is_rejected(seed: object) -> None:
    with pytest.raises(InvalidInput) as info:
        seeded_deck(seed)
    assert info.value.code == "invalid-input"
    assert info.value.field == "seed"


def test_random_deck_is_a_permutation_of_the_forty_cards() -> None:
    deck = random_deck()
    assert len(deck) == 40 and set(deck) == set(DECK)


def test_deck_of_takes_the_40_cards_each_once() -> None:
    codes = [c.code for c in reversed(DECK)]
    assert deck_of(codes) == parse_deck(codes) == Deck(tuple(reversed(DECK)))
    deck = deck_of(codes)
    assert deck is not None and parse_deck(deck) is deck  # a Deck is taken as it is


@pytest.mark.parametrize(
    "values",
    [[c.code for c in DECK[:39]], [*[c.code for c in DECK[:39]], "AD"], [*[c.code for c in DECK[:39]], "XX"], "AD"],
)
def test_deck_of_declines_what_is_not_a_deck_and_parse_deck_names_it(values: object) -> None:
    assert deck_of(values) is None
    with pytest.raises((InvalidInput, InvalidCard, DuplicateCard)) as info:
        parse_deck(values, where="deck")
    assert info.value.field is not None and info.value.field.startswith("deck")


def test_a_deal_takes_a_deck_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Deck was checked when it was made: dealing it parses nothing again."""
    deck = deck_of([c.code for c in DECK])
    assert deck is not None
    for module in ("service.rules.cards", "service.rules.round"):
        monkeypatch.setattr(f"{module}.distinct_cards", lambda *args, **kwargs: pytest.fail("parsed again"))
        monkeypatch.setattr(f"{module}.parse_cards", lambda *args, **kwargs: pytest.fail("parsed again"))
    state, dealt = deal_round("scopa", 2, 0, deck=deck)
    assert dealt == deck.cards and state.stock == deck.cards[10:]


@pytest.mark.parametrize("seed", [-(2**63), 2**63 - 1, "x" * 256, "7" * 256])
def test_seeds_at_the_limits_are_accepted(seed: object) -> None:
    """The limits are inclusive (docs/seeded-shuffle.md): a whole number from -(2^63) to 2^63 - 1,
    a text of 1 to 256 characters; each shuffles as its text does."""
    assert [c.code for c in seeded_deck(seed)] == reference_shuffle(str(seed))
