"""The computer's levels (docs/strategy.md, "Levels"): ``rank_at(knowledge, level, seed)`` ranks every legal
move of the seat to move as that level values it, best first, each ``Hint.score`` the expected final
round-point margin of the seat's side (the unit of ``rank_moves``).

``beginner``  a new player: takes what it sees on the table (the most cards, a sweep it makes), and
              nothing more: it does not count sevens or diamonds, and lays any card, whatever it offers
              (``beginner.py``).
``club``      today's hints, unchanged (``ranking.rank_moves``).
``expert``    club's terms with the weights that measured ahead of club (``expert.py``).

Every level sees only the seat's ``SeatKnowledge``. A level that draws at random draws from ``seed``
(the API derives it from the request), so the same request gets the same answer.
"""

from __future__ import annotations

import hashlib
import json
from typing import Final

from service.rules import Card, InvalidInput, RoundState

from .answers import Hint, Hints
from .beginner import beginner_rank
from .expert import EXPERT_WEIGHTS
from .knowledge import SeatKnowledge
from .ranking import mover_knowledge, rank

LEVELS: Final = ("beginner", "club", "expert")
DEFAULT_LEVEL: Final = "club"


def rank_at(knowledge: SeatKnowledge, level: str, seed: bytes = b"") -> tuple[Hint, ...]:
    """Every legal move of ``knowledge.seat`` (the seat to move), ranked best first by ``level``."""
    return hints_at(knowledge, level, seed).moves


def hints_at(knowledge: SeatKnowledge, level: str, seed: bytes = b"", limit: int | None = None) -> Hints:
    """``rank_at``, the best ``limit`` moves only, with the count of legal moves and, for club and the
    expert, the budget that cut the search short, if any."""
    if level == "club":
        return rank(knowledge, limit=limit)
    if level == "expert":
        return rank(knowledge, EXPERT_WEIGHTS.get(knowledge.rules.profile.id), limit=limit)
    if level == "beginner":
        moves = beginner_rank(knowledge, seed)
        return Hints(moves[:limit], len(moves))
    raise InvalidInput(f"level must be one of {', '.join(LEVELS)}", field="level")


def suggest_at(
    state: RoundState, seat: int | None = None, level: str = DEFAULT_LEVEL, *, limit: int | None = None
) -> Hints:
    """``suggest`` at ``level``, seeded by what the seat to move knows (``knowledge_seed``): the same
    request gets the same answer, whatever the hidden cards are."""
    knowledge = mover_knowledge(state, seat)
    return hints_at(knowledge, level, knowledge_seed(knowledge), limit)


def knowledge_seed(k: SeatKnowledge) -> bytes:
    """A seed made of everything the seat knows and nothing else: SHA-256 of its canonical JSON."""
    data = {
        "rules": k.rules.to_json(),
        "players": k.players,
        "seat": k.seat,
        "dealer": k.dealer,
        "phase": k.phase.value,
        "turn": k.turn,
        "hand": cards(k.hand),
        "hand_sizes": list(k.hand_sizes),
        "table": cards(k.table),
        "stock_size": k.stock_size,
        "piles": [cards(p) for p in k.piles],
        "sweeps": list(k.sweeps),
        "last_capturer": k.last_capturer,
        "cut_card": None if k.cut_card is None else str(k.cut_card),
    }
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).digest()


def cards(cs: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cs]
