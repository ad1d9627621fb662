"""The request bodies of the HTTP benchmark (``bench/http.py``), built with the rules core.

- ``captures_body()``: legalCaptures on a typical five-card table with a three-card hand;
- ``full_round(...)``: a complete, legal two-player chkobba round, played with a fixed
  deterministic policy from the seeded shuffle; its record is the replayRound body, and its final
  piles and sweeps are the scoreRound body.

Everything is checked with the rules core here; ``bench/http.py`` also checks the service's answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.rules import Captures, Phase, PlayMove, RoundState, deal_round, legal_moves, replay_round
from service.rules.round import advance

PROFILE = "chkobba"
PLAYERS = 2
DEALER = 0
CUT = "keep"
ROUND_MOVES = 36  # 40 cards, 4 of them dealt to the table: 36 plays in a two-player round


def captures_body() -> dict[str, Any]:
    """A typical position: five table cards, a full hand; sums, a match and a laid card."""
    return {"rules": PROFILE, "table": ["AD", "3S", "4C", "6H", "2C"], "hand": ["7D", "QS", "KH"]}


def choose(legal: list[Captures]) -> PlayMove:
    """The deterministic policy: the capture taking the most cards (the first such option of the
    first such card), else lay the first card of the hand."""
    best: PlayMove | None = None
    for caps in legal:
        for option in caps.options:
            if best is None or best.capture is None or len(option) > len(best.capture):
                best = PlayMove(caps.card, option)
    return best if best is not None else PlayMove(legal[0].card, ())


@dataclass(frozen=True)
class FullRound:
    seed: int
    deck: tuple[str, ...]
    moves: tuple[dict[str, Any], ...]
    final: RoundState

    def replay_body(self) -> dict[str, Any]:
        return {
            "rules": PROFILE,
            "players": PLAYERS,
            "dealer": DEALER,
            "deck": list(self.deck),
            "cut": CUT,
            "moves": list(self.moves),
        }

    def scores_body(self) -> dict[str, Any]:
        """The round's two piles (all 40 cards between them) and sweeps."""
        return {
            "rules": PROFILE,
            "sides": [
                {"captured": [c.code for c in pile], "sweeps": sweeps}
                for pile, sweeps in zip(self.final.piles, self.final.sweeps, strict=True)
            ],
        }


def play_out(seed: int) -> FullRound | None:
    """The round dealt from ``seed`` (dealer 0, the cut kept) and played with ``choose``; None when
    the deal calls for a redeal."""
    state, deck = deal_round(PROFILE, PLAYERS, DEALER, seed=seed, cut=CUT)
    if state.phase is not Phase.PLAY:
        return None
    moves: list[dict[str, Any]] = []
    while state.turn is not None:
        seat = state.turn
        move = choose(legal_moves(state))
        state, _ = advance(state, move)
        moves.append({"card": move.card.code, "capture": [c.code for c in move.capture or ()], "seat": seat})
    return FullRound(seed, tuple(c.code for c in deck), tuple(moves), state)


def full_round(first_seed: int = 0, tries: int = 100) -> FullRound:
    """The first seed from ``first_seed`` whose deal is played (not a redeal) and whose round has at
    least one sweep, played out and checked with ``replay_round``."""
    for seed in range(first_seed, first_seed + tries):
        played = play_out(seed)
        if played is None or not any(played.final.sweeps):
            continue
        final = played.final
        assert final.phase is Phase.OVER and len(played.moves) == ROUND_MOVES, (seed, final.phase, len(played.moves))
        assert sum(map(len, final.piles)) == 40, seed
        check = replay_round(PROFILE, PLAYERS, DEALER, list(played.moves), deck=list(played.deck), cut=CUT)
        assert check.valid and check.complete, (seed, check.first_illegal)
        return played
    raise RuntimeError(f"no seed in {first_seed}..{first_seed + tries - 1} deals a played round with a sweep")
