"""The record a sealed round's token carries, so that the round can be replayed once it has ended.

Inside the token the record is packed, one character per card, since it rides along with every move:
``{"deck": <40 characters>, "cut": "keep" | "table" | null, "moves": [<one string per move>]}``, where
a play is its seat's digit, the card played and the cards it took (``"1K34"``), and a cut its seat's
digit, ``!`` and ``k`` or ``t``; in a clocked round, either is followed by ``@`` and the milliseconds
since the deal, then ``*`` when the service played it for the seat on timeout (``"1K34@12345*"``).
Packed, a whole round adds about 300 bytes to the state's 400, where its JSON would add 1,600
(docs/performance.md). The packing depends only on the deck's order and on moves the table has seen,
never on which hidden card lies where: a token's length tells nothing.
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from typing import Any

from service.rules import AUTO_TIMEOUT, DECK, Card, Cut, CutMove, Event, RoundState, record_json

_CHARS = string.digits + string.ascii_lowercase + "ABCD"  # one per card, in DECK's order
_CARD_OF_CHAR = {char: card.code for char, card in zip(_CHARS, DECK, strict=True)}
_CUT_CHARS = {cut.value: cut.value[0] for cut in Cut}  # keep: k, table: t
_CUT_OF_CHAR = {char: cut for cut, char in _CUT_CHARS.items()}


def _packed(cards: Iterable[Card]) -> str:
    return "".join(_CHARS[card.index] for card in cards)


def new_record(deck: Iterable[Card], cut: str | None) -> dict[str, Any]:
    """The record of a round just dealt: its deck and the cut given with the deal, no move yet."""
    return {"deck": _packed(deck), "cut": cut, "moves": []}


def with_move(record: dict[str, Any], event: Event, at_ms: int | None = None, auto: bool = False) -> dict[str, Any]:
    """The record with one more move: the seat, and the card played with every card it took; in a
    clocked round, when it was made (``at_ms``) and whether it was played on timeout (``auto``)."""
    move = event.move
    if isinstance(move, CutMove):
        packed = f"{event.seat}!{_CUT_CHARS[move.cut.value]}"
    else:
        packed = f"{event.seat}{_CHARS[move.card.index]}{_packed(event.taken)}"
    if at_ms is not None:
        packed += f"@{at_ms}" + ("*" if auto else "")
    return {**record, "moves": [*record["moves"], packed]}


def unpacked(state: RoundState, record: dict[str, Any]) -> dict[str, Any]:
    """The record of the round that ``state`` ends, as replayRound takes it."""
    moves: list[dict[str, Any]] = []
    for packed in record["moves"]:
        played, _, time = packed.partition("@")
        seat = int(played[0])
        move: dict[str, Any]
        if played[1] == "!":
            move = {"cut": _CUT_OF_CHAR[played[2]], "seat": seat}
        else:
            card, *taken = (_CARD_OF_CHAR[char] for char in played[1:])
            move = {"card": card, "capture": taken, "seat": seat}
        if time:
            move["at_ms"] = int(time.rstrip("*"))
            if time.endswith("*"):
                move["auto"] = AUTO_TIMEOUT
        moves.append(move)
    return record_json(state, [_CARD_OF_CHAR[char] for char in record["deck"]], record["cut"], moves)
