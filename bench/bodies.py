"""The request bodies of the HTTP benchmark (``bench/http.py``), built with the rules core.

- ``captures_body()``: legalCaptures on a typical five-card table with a three-card hand;
- ``full_round(...)``: a complete, legal two-player chkobba round, played with a fixed
  deterministic policy from the seeded shuffle; its record is the replayRound body, its final
  piles and sweeps are the scoreRound body, and its position before move ``PLAY_AT`` (mid-round) with
  that move is the playRound body (a plain state; the sealed variant carries the same position in a
  ``state_token``, which only the service can make: ``bench/http.py`` gets it from the service).

Everything is checked with the rules core here; ``bench/http.py`` also checks the service's answers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from service.rules import (
    Captures,
    Event,
    Phase,
    PlayMove,
    RoundState,
    deal_round,
    legal_moves,
    parse_move,
    replay_round,
    seat_view,
)
from service.rules.round import advance

PROFILE = "chkobba"
PLAYERS = 2
DEALER = 0
CUT = "keep"
ROUND_MOVES = 36  # 40 cards, 4 of them dealt to the table: 36 plays in a two-player round
PLAY_AT = ROUND_MOVES // 2  # the playRound bodies: the position before this move, and this move


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
    states: tuple[RoundState, ...]  # the state before each move

    def deal_body(self, *, sealed: bool = False) -> dict[str, Any]:
        """The dealRound body that deals this round's first state (the cut kept)."""
        body: dict[str, Any] = {"rules": PROFILE, "players": PLAYERS, "dealer": DEALER, "deck": list(self.deck)}
        return {**body, "cut": CUT, **({"sealed": True} if sealed else {})}

    def play_body(self, at: int = PLAY_AT) -> dict[str, Any]:
        """playRound with a plain state: the position before move ``at``, and that move."""
        return {"state": self.states[at].to_json(), "move": dict(self.moves[at])}

    def sealed_play_body(self, token: str, at: int = PLAY_AT) -> dict[str, Any]:
        """playRound with ``token``, which must seal the position before move ``at``."""
        return {"state_token": token, "move": dict(self.moves[at])}

    def after(self, at: int = PLAY_AT) -> tuple[RoundState, Event]:
        """The state and event that move ``at`` gives, by the rules core."""
        return advance(self.states[at], parse_move(self.moves[at]))

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
    states: list[RoundState] = []
    while state.turn is not None:
        seat = state.turn
        move = choose(legal_moves(state))
        states.append(state)
        state, _ = advance(state, move)
        moves.append({"card": move.card.code, "capture": [c.code for c in move.capture or ()], "seat": seat})
    return FullRound(seed, tuple(c.code for c in deck), tuple(moves), state, tuple(states))


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
        assert played.states[PLAY_AT].phase is Phase.PLAY and played.states[PLAY_AT].stock, seed  # mid-round
        check = replay_round(PROFILE, PLAYERS, DEALER, list(played.moves), deck=list(played.deck), cut=CUT)
        assert check.valid and check.complete, (seed, check.first_illegal)
        return played
    raise RuntimeError(f"no seed in {first_seed}..{first_seed + tries - 1} deals a played round with a sweep")


# ---------------------------------------------------------------------------------------------------
# What only the service can make, and what its answers must be. ``post(path, body)`` sends a JSON
# body to the service (over HTTP, or to its WSGI app) and returns the status and the decoded answer.

Post = Callable[[str, bytes], tuple[int, Any]]


def sealed_position(post: Post, played: FullRound, at: int = PLAY_AT) -> str:
    """A state token of the service for the position before move ``at`` of ``played``: the round
    dealt sealed by the service from its deck, then its first ``at`` moves played with tokens. The
    last answer's views must be the rules core's seat views of that position."""
    status, data = post("/v1/rounds", json.dumps(played.deal_body(sealed=True)).encode())
    if status != 200:
        raise RuntimeError(f"the service answered {status} to a sealed dealRound: {str(data)[:500]}")
    token: str = data["state_token"]
    for k in range(at):
        status, data = post("/v1/rounds/play", json.dumps(played.sealed_play_body(token, k)).encode())
        if status != 200:
            raise RuntimeError(f"the service answered {status} to sealed move {k}: {str(data)[:500]}")
        token = data["state_token"]
    state = played.states[at]
    expected = [seat_view(state, seat).to_json() for seat in range(state.players)]
    assert data["views"] == expected, ("the sealed position differs from the core's", data["views"], expected)
    return token


def check_answers(answers: dict[str, Any], bodies: dict[str, bytes], played: FullRound) -> None:
    """The service's answers to the benchmark's bodies must be right: legalCaptures one entry per
    hand card; the replay valid and complete, its breakdown equal to scoreRound's on the same piles;
    both playRound answers the rules core's next state and event, the sealed one as its seat views."""
    moves = answers["legalCaptures"]["moves"]
    assert [m["card"] for m in moves] == json.loads(bodies["legalCaptures"])["hand"], moves
    replay = answers["replayRound"]
    assert replay["valid"] is True and replay["complete"] is True, {k: replay[k] for k in ("valid", "complete")}
    assert len(replay["moves"]) == ROUND_MOVES and replay["first_illegal"] is None, replay["first_illegal"]
    assert replay["breakdown"] == answers["scoreRound"]["breakdown"], (replay["breakdown"], answers["scoreRound"])
    after, event = played.after(PLAY_AT)
    plain = answers["playRound"]
    assert plain == {"state": after.to_json(), "event": event.to_json(), "breakdown": None, "next_dealer": None}, plain
    sealed = answers["playRoundSealed"]
    views = [seat_view(after, seat).to_json() for seat in range(after.players)]
    assert sealed["views"] == views and sealed["event"] == event.to_json(), sealed
    assert set(sealed) == {"state_token", "views", "event", "breakdown", "next_dealer"}, sorted(sealed)
    assert sealed["state_token"] and sealed["breakdown"] is None and sealed["next_dealer"] is None, sealed
