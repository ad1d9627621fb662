"""Request examples for every operation. The spec builder answers each one with the real service, so
the response examples in ``openapi.yaml`` are what the service says, and a test keeps them so.

Each operation's examples are a function, called when the spec is built (never at import: several
deal rounds), and made once."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from service.rules import (
    DECK,
    Card,
    Phase,
    PlayMove,
    RoundState,
    advance,
    deal_round,
    legal_moves,
    replay_round,
    seeded_deck,
)
from service.rules.scoring import CATEGORY_FIELDS

Example = dict[str, Any]


def _codes(cards: Any) -> list[str]:
    return [c.code for c in cards]


@cache
def captures() -> dict[str, Example]:
    return {
        "sum-sweeps": {
            "summary": "docs/rules.md §7.5 worked example: Q is worth 8 in chkobba, so QH takes 2D+6S and sweeps",
            "body": {"rules": "chkobba", "table": ["2D", "6S"], "hand": ["QH", "JC", "3H"]},
        },
        "match-first": {
            "summary": "A single card of the same value must be taken before any sum (§4.1)",
            "body": {"rules": "chkobba", "table": ["7S", "4C", "3D", "7H"], "hand": ["7D"]},
        },
        "scopa-most-cards": {
            "summary": "Scopa: only the sums with the most cards (§4.2)",
            "body": {"rules": "scopa", "table": ["4C", "6D", "AH", "2S", "3C", "KD"], "hand": ["KS"]},
        },
    }


@cache
def moves() -> dict[str, Example]:
    return {
        "sum-capture": {
            "summary": "A 7 takes 4+3 (the only option, so the capture may be omitted)",
            "body": {"rules": "chkobba", "table": ["4C", "3S", "KD"], "hand": ["7H", "2D"], "play": {"card": "7H"}},
        },
        "choose-among-equal-singles": {
            "summary": "Two sevens on the table: the player names the one taken",
            "body": {
                "rules": "chkobba",
                "table": ["7S", "7D", "AC"],
                "hand": ["7C"],
                "play": {"card": "7C", "capture": ["7D"]},
            },
        },
        "illegal-sum-instead-of-match": {
            "summary": "Taking 4+3 while a 7 lies on the table is illegal (422 with the legal options)",
            "body": {
                "rules": "chkobba",
                "table": ["7S", "4C", "3D"],
                "hand": ["7H"],
                "play": {"card": "7H", "capture": ["4C", "3D"]},
            },
        },
    }


def _line(side: int, *points: int) -> dict[str, int]:
    """A line of a breakdown: the side, then the points of each category (the core's order) and the total."""
    return {"side": side, **dict(zip(CATEGORY_FIELDS, points, strict=True))}


def _counts(cards: int, diamonds: int, sevens: int, sixes: int, seven_of_diamonds: bool) -> dict[str, Any]:
    return {
        "cards": cards,
        "diamonds": diamonds,
        "sevens": sevens,
        "sixes": sixes,
        "seven_of_diamonds": seven_of_diamonds,
    }


@cache
def scores() -> dict[str, Example]:
    return {
        "worked-example-counts": {
            "summary": "docs/rules.md §7.5 worked example from 001: 22 cards, 6 diamonds, 7D, 2 sevens, 3 sixes, "
            "one chkobba",
            "body": {
                "rules": "chkobba",
                "sides": [
                    {"counts": _counts(22, 6, 2, 3, True), "sweeps": 1},
                    {"counts": _counts(18, 4, 2, 1, False), "sweeps": 0},
                ],
                "claimed": [
                    _line(0, 1, 1, 1, 1, 1, 0, 5),
                    _line(1, 0, 0, 0, 0, 0, 0, 0),
                ],
            },
        },
        "piles-with-primiera": {
            "summary": "chkobba-crp with primiera: scored from the piles",
            "body": {
                "rules": {"profile": "chkobba-crp", "options": {"primiera": True}},
                "sides": [
                    {"captured": _codes(seeded_deck("example")[:21]), "sweeps": 2},
                    {"captured": _codes(seeded_deck("example")[21:]), "sweeps": 0},
                ],
                "last_capturer": 0,
            },
        },
    }


@cache
def match() -> dict[str, Example]:
    return {
        "worked-example": {
            "summary": "docs/rules.md §7.5: 17 + 5 = 22 reaches the target of 21",
            "body": {
                "rules": "chkobba",
                "scores": [17, 12],
                "round_points": [5, 1],
                "claimed": {"outcome": "won", "winner": 0},
            },
        },
        "tiebreak": {
            "summary": "Both reach 21 with the same total: one more round",
            "body": {"rules": "chkobba", "scores": [19, 18], "round_points": [3, 4]},
        },
        "scopa-single-round": {
            "summary": "Scopa without a target: one round decides, equal points draw",
            "body": {"rules": "scopa", "scores": [0, 0], "round_points": [3, 3]},
        },
        "with-receipt": {
            "summary": "receipt: true adds a signature of the request and the answer (here by the public example "
            "key of RFC 8037, A.1; a service signs with its own, listed in /.well-known/jwks.json)",
            "body": {"rules": "chkobba", "scores": [17, 12], "round_points": [5, 1], "receipt": True},
        },
    }


@cache
def deal() -> dict[str, Example]:
    return {
        "sealed": {
            "summary": "Sealed: an opaque state_token and one view per seat, no state and no deck",
            "body": {"rules": "scopa", "players": 2, "dealer": 0, "seed": "sealed", "sealed": True},
        },
        "sealed-with-a-clock": {
            "summary": "Sealed, bound to a table's context, with a turn clock of 20 s: the cutter's deadline",
            "body": {
                "rules": "chkobba",
                "players": 2,
                "dealer": 0,
                "seed": "clocked",
                "sealed": True,
                "viewer": 1,
                "context": "table-17",
                "clock": {"turn_seconds": 20},
            },
        },
        "seeded-with-cut": {
            "summary": "A chkobba deal from the portable seeded shuffle, the cutter keeping the drawn card",
            "body": {"rules": "chkobba", "players": 2, "dealer": 0, "seed": "chkobba", "cut": "keep"},
        },
        "four-players-waiting-for-the-cut": {
            "summary": "Without cut, a chkobba deal waits in phase cut for the cutter (dealer + 1)",
            "body": {"rules": "chkobba", "players": 4, "dealer": 3, "seed": 2026},
        },
        "explicit-deck": {
            "summary": "Scopa from a deck given top first",
            "body": {"rules": "scopa", "players": 2, "dealer": 1, "deck": _codes(seeded_deck("scopa"))},
        },
    }


@cache
def _seeded_round() -> RoundState:
    """A seeded chkobba round after the cut: its first play, and a record of it."""
    return deal_round("chkobba", 2, 0, seed="chkobba", cut="keep")[0]


def _first_hand() -> list[str]:
    """The hand of the seat that plays first in that round."""
    return _codes(_seeded_round().hands[1])


@cache
def play() -> dict[str, Example]:
    return {
        "first-play": {
            "summary": "The first play of a seeded chkobba round",
            "body": {"state": _seeded_round().to_json(), "move": {"card": _first_hand()[0]}},
        },
        "cut": {
            "summary": "The cutter tables the drawn card",
            "body": {
                "state": deal_round("chkobba", 2, 1, seed="cut")[0].to_json(),
                "move": {"cut": "table", "seat": 0},
            },
        },
    }


@cache
def replay() -> dict[str, Example]:
    return {
        "illegal-second-move": {
            "summary": "A record whose second move is not the seat's card: the verdict stops there",
            "body": {
                "rules": "chkobba",
                "players": 2,
                "dealer": 0,
                "deck": _codes(seeded_deck("chkobba")),
                "cut": "keep",
                "moves": [{"card": _first_hand()[0]}, {"card": _first_hand()[1]}],
            },
        },
    }


def played_record(rules: Any, players: int, dealer: int, seed: str, cut: str | None = None, most: int = 99) -> Example:
    """A round record played from the deal of ``seed``: each move a legal one drawn at random (seeded),
    up to the end of the round or ``most`` moves; a void deal ends at once."""
    state, deck = deal_round(rules, players, dealer, seed=seed, cut=cut)
    pick = random.Random(seed)
    moves: list[Example] = []
    while state.phase is Phase.PLAY and len(moves) < most:
        captures = pick.choice(legal_moves(state))
        option = pick.choice(captures.options) if captures.options else None
        state, _ = advance(state, PlayMove(captures.card, option))
        moves.append({"card": captures.card.code, **({"capture": _codes(option)} if option else {})})
    return {"deck": _codes(deck), **({"cut": cut} if cut else {}), "moves": moves}


def _breakdown(rules: Any, players: int, dealer: int, record: Example) -> list[dict[str, int]]:
    """The breakdown of a whole round record, to claim it."""
    replay = replay_round(rules, players, dealer, record["moves"], deck=record["deck"], cut=record.get("cut"))
    assert replay.breakdown is not None
    return [line.to_json() for line in replay.breakdown]


@cache
def match_replay() -> dict[str, Example]:
    scopa = played_record("scopa", 2, 0, "match-scopa")
    scopa_claimed = {**scopa, "claimed": _breakdown("scopa", 2, 0, scopa)}
    return {
        "scopa-single-round": {
            "summary": "A scopa match without a target is one round (docs/rules.md §8.5), here drawn 2 to 2: the "
            "round and the match, each with a claim",
            "body": {
                "rules": "scopa",
                "players": 2,
                "dealer": 0,
                "rounds": [scopa_claimed],
                "claimed": {"outcome": "draw", "winner": None, "scores": [2, 2]},
            },
        },
        "void-deal-then-a-wrong-dealer": {
            "summary": "chkobba: a void deal (three aces on the table), dealt again by the same seat; round 2 is "
            "dealt by seat 0 where seat 1 should deal, and the record stops there",
            "body": {
                "rules": "chkobba",
                "players": 2,
                "dealer": 0,
                "rounds": [
                    played_record("chkobba", 2, 0, "void-36", cut="keep"),
                    played_record("chkobba", 2, 0, "match-chkobba-1", cut="keep"),
                    {**played_record("chkobba", 2, 0, "match-chkobba-2", cut="table", most=4), "dealer": 0},
                ],
                "claimed": {"outcome": "won", "winner": 0},
            },
        },
        "a-round-after-the-end": {
            "summary": "A round after a scopa single-round match: match-over",
            "body": {
                "rules": "scopa",
                "players": 2,
                "dealer": 0,
                "rounds": [scopa, played_record("scopa", 2, 1, "again")],
            },
        },
    }


@cache
def view() -> dict[str, Example]:
    return {
        "partner-hidden": {
            "summary": "Seat 0's view of a four-player chkobba round: its partner's hand (seat 2) is hidden too",
            "body": {"state": deal_round("chkobba", 4, 3, seed="view", cut="keep")[0].to_json(), "seat": 0},
        },
        "spectator": {
            "summary": "No seat: what everyone at the table sees (an arbiter, a broadcast), no hand at all",
            "body": {"state": deal_round("chkobba", 4, 3, seed="view", cut="keep")[0].to_json()},
        },
    }


@cache
def _most_moves() -> RoundState:
    """As many legal moves as a real position has (docs/rules.md §10.20: a table shows one card a value beside
    the pairs dealt): the deal lays 3S 3C 6S 6C, the first hand lays QS 7S 5S 4S 2S AS, highest first, so
    that none takes anything, and the refill gives seat 1 three kings, with 16 captures each."""
    top = ["QS", "5S", "2S", "7S", "4S", "AS", "3S", "3C", "6S", "6C", "KH", "KS", "KC"]
    state = deal_round("chkobba", 2, 0, deck=[*top, *(c.code for c in DECK if c.code not in top)], cut="keep")[0]
    for code in ("QS", "7S", "5S", "4S", "2S", "AS"):
        state = advance(state, PlayMove(Card.parse(code), ()))[0]
    return state


@cache
def hints() -> dict[str, Example]:
    return {
        "takes-the-seven-of-diamonds": {
            "summary": "The leader of a seeded chkobba round: QC (8) takes AC+7D rather than AC+7H",
            "body": {"state": deal_round("chkobba", 2, 0, seed="hints-1", cut="keep")[0].to_json()},
        },
        "sweeps": {
            "summary": "Scopa: 7S takes the whole table, the 5S captures leave a table the next player may sweep",
            "body": {"state": deal_round("scopa", 2, 0, seed="hints-44")[0].to_json(), "seat": 1},
        },
        "exact-endgame": {
            "summary": "Two players, empty stock: the other hand is known by counting, so the score is the exact "
            "margin",
            "body": {
                "state": {
                    "rules": "chkobba",
                    "players": 2,
                    "dealer": 0,
                    "phase": "play",
                    "turn": 1,
                    "hands": [["7H", "KS", "3C"], ["7S", "5D", "JC"]],
                    "table": ["7D", "2S", "5C"],
                    "stock": [],
                    "piles": [
                        [
                            "AD",
                            "3D",
                            "6D",
                            "QD",
                            "AH",
                            "3H",
                            "5H",
                            "JH",
                            "KH",
                            "3S",
                            "5S",
                            "JS",
                            "AC",
                            "4C",
                            "7C",
                            "KC",
                        ],
                        ["2D", "4D", "JD", "KD", "2H", "4H", "6H", "QH", "AS", "4S", "6S", "QS", "2C", "6C", "QC"],
                    ],
                    "sweeps": [1, 0],
                    "last_capturer": 0,
                }
            },
        },
        "huge-table": {
            "summary": "Two players, three kings to move on a 10-card table: 48 legal moves, the most a real round "
            "gives, the best 3 asked for; the step budget leaves the race and the habits to score them "
            "(shortened_by: steps)",
            "body": {"state": _most_moves().to_json(), "limit": 3},
        },
        "cut": {
            "summary": "Phase cut: the cutter (seat 0) has drawn 7D and is told to keep it",
            "body": {"state": deal_round("chkobba", 2, 1, seed="cut-8")[0].to_json()},
        },
        "not-your-turn": {
            "summary": "A seat that is not the seat to move: a 422 problem",
            "body": {"state": deal_round("chkobba", 2, 0, seed="hints-1", cut="keep")[0].to_json(), "seat": 0},
        },
    }


@cache
def commit() -> dict[str, Example]:
    return {"commit": {"summary": "A commitment to a server seed, before any card is chosen", "body": {}}}
