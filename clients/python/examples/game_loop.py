"""A game server's loop: one sealed round of four-player chkobba, played through the generated client.

    make python-client    # generates clients/python/generated/chkobba_referee_client (git-ignored)
    PYTHONPATH=clients/python/generated .venv/bin/python clients/python/examples/game_loop.py http://127.0.0.1:8080

What it does, step by step (docs/game-loops.md walks through it):

1. deals a sealed round: every seat gets its own view, the game server keeps only the token;
2. asks the cutter for its cut, then each seat in turn for its move, on its behalf: suggestMoves with
   the `seat` to move stands in for the player, and the hint's move, which comes back without a seat,
   gets that `seat` added before playRound, so that the service checks whose turn it is;
3. once, a seat tries to move out of turn: the generated `sync()` returns the Problem (it does not
   raise), the game server tells that seat `not-your-turn` and goes on;
4. when the cut leaves a table that calls for a redeal (phase `redeal`), files the void deal's record
   and deals again, with the same dealer;
5. keeps the `record` and `record_receipt` that the round's last answer carries, and then, as a
   referee would from what was filed, checks the receipt against the service's keys and replays the
   record: its verdict must be the breakdown the round ended with.

It exits with 0 and prints a last line of JSON (a summary) when every check holds, else it exits with 1
and says which check failed. `--seed` (repeatable) gives the decks of the deals in order, for a game
that can be played again; without it the service shuffles. `--records DIR` writes what was filed there.
The receipt check uses `cryptography` and `rfc8785` (pip install cryptography rfc8785).
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
from pathlib import Path
from typing import Any, TypeVar

import rfc8785
from chkobba_referee_client import Client
from chkobba_referee_client.api.operations import get_jwks
from chkobba_referee_client.api.rounds import deal_round, play_round, replay_round, suggest_moves
from chkobba_referee_client.models import (
    CutMove,
    DealRequest,
    HintsResponse,
    Jwks,
    Phase,
    PlayMove,
    Problem,
    ProblemCode,
    ProfileId,
    ReplayRequest,
    ReplayResponse,
    SealedDeal,
    SealedHintsRequest,
    SealedPlayRequest,
    SealedPlayResponse,
)
from chkobba_referee_client.types import UNSET, Unset
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

RULES = ProfileId.CHKOBBA
PLAYERS = 4
MAX_DEALS = 10  # a redeal is rare (a few deals in a hundred): ten void deals in a row would be a bug
T = TypeVar("T")


class GameError(Exception):
    """A check of the game server failed: the program exits with 1."""


class Refused(Exception):
    """The service answered a problem (RFC 9457) instead of the answer asked for."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(f"{problem.status} {problem.code}: {problem.detail}")
        self.problem = problem


def expect(holds: bool, what: str) -> None:
    if not holds:
        raise GameError(what)


def answer(result: T | Problem | None, kind: type[T]) -> T:
    """The answer of a generated `sync()`: it returns a Problem for a 4xx (it does not raise), as for
    any status the contract does not list (every operation has a default problem answer); a body that is
    not one of the service's problems makes the parser raise (docs/clients/python.md)."""
    if isinstance(result, Problem):
        raise Refused(result)
    if not isinstance(result, kind):
        raise GameError(f"expected a {kind.__name__}, the service answered {result!r}")
    return result


class Table:
    """What the game server keeps of a table's round: the last token, and the round_id and seq of the
    last answer it accepted, so that an answer to a stale token is refused (docs/integrator.md)."""

    def __init__(self, dealt: SealedDeal) -> None:
        self.round_id = dealt.round_id
        self.seq = dealt.seq
        self.token = dealt.state_token
        self.views = dealt.views

    def accept(self, played: SealedPlayResponse) -> None:
        expect(
            played.round_id == self.round_id and played.seq == self.seq + 1,
            f"a stale answer: round {played.round_id} seq {played.seq} after seq {self.seq}",
        )
        self.seq, self.token, self.views = played.seq, played.state_token, played.views

    @property
    def phase(self) -> Phase:
        return self.views[0].phase

    @property
    def turn(self) -> int | None:
        return self.views[0].turn


class GameServer:
    def __init__(self, client: Client, seeds: list[str], dealer: int) -> None:
        self.client = client
        self.seeds = seeds
        self.dealer = dealer
        self.deals = 0
        self.void_deals: list[dict[str, Any]] = []  # what was filed of each void deal: its record and receipt
        self.hinted: set[int] = set()
        self.refusals: list[str] = []
        self.out_of_turn_tried = False

    def deal(self) -> Table:
        seed = self.seeds[self.deals] if self.deals < len(self.seeds) else UNSET  # none: the service shuffles
        self.deals += 1
        request = DealRequest(rules=RULES, players=PLAYERS, dealer=self.dealer, sealed=True, seed=seed)
        table = Table(answer(deal_round.sync(client=self.client, body=request), SealedDeal))
        expect(table.phase == Phase.CUT and all(v.hand == [] for v in table.views), "a chkobba deal waits for the cut")
        expect(table.turn == (self.dealer + 1) % PLAYERS, "the cutter is the dealer's right")
        say(f"deal {self.deals} (seed {seed or 'none'}): dealer {self.dealer}, seat {table.turn} to cut")
        return table

    def hint(self, table: Table, seat: int) -> CutMove | PlayMove:
        """The move a seat would make: here the top hint, asked for on that seat's behalf (a player's
        app would show the hints and send the player's choice)."""
        request = SealedHintsRequest(state_token=table.token, seat=seat, limit=1)
        hints = answer(suggest_moves.sync(client=self.client, body=request), HintsResponse)
        expect(hints.seat == seat and len(hints.moves) == 1, f"one hint for seat {seat}")
        move = hints.moves[0].move
        expect(isinstance(move, CutMove | PlayMove), f"a cut or a play for seat {seat}: {move!r}")
        assert isinstance(move, CutMove | PlayMove)  # for the type checker
        self.hinted.add(seat)
        return move

    def play(self, table: Table, move: CutMove | PlayMove) -> SealedPlayResponse:
        played = answer(
            play_round.sync(client=self.client, body=SealedPlayRequest(state_token=table.token, move=move)),
            SealedPlayResponse,
        )
        table.accept(played)
        return played

    def out_of_turn(self, table: Table, move: CutMove | PlayMove, seat: int) -> None:
        """A seat that is not to move sends a move (a player tapping early): the service refuses it,
        because the move carries its seat, and the round is unchanged."""
        intruder = (seat + 1) % PLAYERS
        move.seat = intruder
        try:
            self.play(table, move)
        except Refused as refused:
            expect(refused.problem.code == ProblemCode.NOT_YOUR_TURN, f"not-your-turn, not {refused}")
            self.refusals.append(str(refused.problem.code))
            say(f"  seat {intruder} tried to move out of turn: {refused.problem.code} ({refused.problem.detail})")
            return
        raise GameError(f"seat {intruder} moved out of turn and the service took it")

    def round(self) -> SealedPlayResponse:
        """One round, from the deal to its end: redeals included."""
        table = self.deal()
        while True:
            seat = table.turn
            expect(seat is not None, f"a seat to move in phase {table.phase}")
            assert seat is not None
            move = self.hint(table, seat)
            if isinstance(move, PlayMove) and not self.out_of_turn_tried:
                self.out_of_turn_tried = True
                self.out_of_turn(table, move, seat)
            move.seat = seat  # the hint's move has no seat: with it, the service checks it is this seat's turn
            played = self.play(table, move)
            say(f"  seat {seat} {describe(played)}")
            if table.phase == Phase.REDEAL:
                expect(played.next_dealer == self.dealer, "the same dealer deals again")
                self.void_deals.append(filed(played))
                say(
                    f"  the table {' '.join(table.views[0].table)} calls for a redeal: dealer {self.dealer} deals again"
                )
                expect(self.deals < MAX_DEALS, f"{MAX_DEALS} void deals in a row")
                table = self.deal()
            elif table.phase == Phase.OVER:
                return played


def describe(played: SealedPlayResponse) -> str:
    event = played.event
    if event.cut:
        return f"cuts: {event.cut}"
    taken = [card for card in event.captured or [] if card != event.card]  # captured holds the played card too
    said = f"plays {event.card}, " + (f"takes {' '.join(taken)}" if taken else "lays it")
    if event.sweep:
        said += " (chkobba: a sweep)"
    if event.collected:
        said += f"; the last to capture collects {' '.join(event.collected)}"
    return said


def filed(played: SealedPlayResponse) -> dict[str, Any]:
    """What a game server files when a round (or a void deal) ends: the record and its receipt, as JSON."""
    expect(not isinstance(played.record, Unset), "the answer that ends a round carries its record")
    expect(isinstance(played.record_receipt, str), "and its receipt")
    assert not isinstance(played.record, Unset)
    return {"record": played.record.to_dict(), "record_receipt": played.record_receipt}


# ---- the referee's side: from what was filed alone ----


def b64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def receipt_verifies(record: dict[str, Any], receipt: str, jwks: dict[str, Any]) -> bool:
    """docs/referee.md: the receipt is a detached JWS (EdDSA) over the canonical JSON of
    {"operation": "playRound", "record": record}, by a key of /.well-known/jwks.json."""
    header, detached, signature = receipt.split(".")
    kid = json.loads(b64(header))["kid"]
    keys = [k for k in jwks["keys"] if k["kid"] == kid]
    if detached != "" or len(keys) != 1:
        return False
    payload = rfc8785.dumps({"operation": "playRound", "record": record})
    signing_input = header + "." + base64.urlsafe_b64encode(payload).decode().rstrip("=")
    try:
        Ed25519PublicKey.from_public_bytes(b64(keys[0]["x"])).verify(b64(signature), signing_input.encode())
    except InvalidSignature:
        return False
    return True


def referee(client: Client, kept: dict[str, Any], jwks: dict[str, Any]) -> ReplayResponse:
    """Checks a filed record's receipt, then replays it: the verdict on every move, and the state reached."""
    expect(receipt_verifies(kept["record"], kept["record_receipt"], jwks), "the record's receipt verifies")
    record = ReplayRequest.from_dict(kept["record"])
    replay = answer(replay_round.sync(client=client, body=record), ReplayResponse)
    expect(replay.valid and replay.first_illegal is None, f"every move of the record is legal: {replay.first_illegal}")
    return replay


def lines(breakdown: Any) -> list[dict[str, Any]]:
    return [line.to_dict() for line in breakdown or []]


def play_game(base_url: str, seeds: list[str], dealer: int = 0, records: Path | None = None) -> dict[str, Any]:
    client = Client(base_url=base_url, raise_on_unexpected_status=True)
    server = GameServer(client, seeds, dealer)
    last = server.round()
    kept = filed(last)
    expect(last.breakdown is not None and last.next_dealer == (dealer + 1) % PLAYERS, "a breakdown and the next dealer")
    expect(server.hinted == set(range(PLAYERS)), f"every seat was hinted: {sorted(server.hinted)}")
    expect(server.refusals == [ProblemCode.NOT_YOUR_TURN], f"one out-of-turn move refused: {server.refusals}")
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
        for n, one in enumerate([*server.void_deals, kept], start=1):
            (records / f"deal-{n}.json").write_text(json.dumps(one, indent=1) + "\n", encoding="utf-8")

    jwks = answer(get_jwks.sync(client=client), Jwks).to_dict()
    for void in server.void_deals:
        replay = referee(client, void, jwks)
        expect(not replay.complete and replay.state.phase == Phase.REDEAL, "a void deal replays to its redeal")
        expect(replay.next_dealer == dealer, "and the same dealer deals again")
    replay = referee(client, kept, jwks)
    expect(replay.complete and replay.state.phase == Phase.OVER, "the record replays to the round's end")
    expect(lines(replay.breakdown) == lines(last.breakdown), "the replay's breakdown is the round's")
    expect(replay.next_dealer == last.next_dealer, "and so is the next dealer")
    points = [line.total for line in last.breakdown or []]
    say(f"round over: points by side {points}; the referee's replay agrees, and the receipts verify")
    return {
        "deals": server.deals,
        "redeals": len(server.void_deals),
        "moves": len(kept["record"]["moves"]),
        "hinted_seats": sorted(server.hinted),
        "refused": server.refusals,
        "points": points,
        "next_dealer": last.next_dealer,
        "receipts": "verified",
        "replay": "agrees",
    }


def say(text: str) -> None:
    print(text, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("base_url", help="the service, e.g. http://127.0.0.1:8080")
    parser.add_argument("--seed", action="append", default=[], help="the seed of the next deal (repeatable)")
    parser.add_argument("--dealer", type=int, default=0, help="the seat that deals (default 0)")
    parser.add_argument("--records", type=Path, help="a folder to file each deal's record and receipt in")
    args = parser.parse_args(argv)
    try:
        summary = play_game(args.base_url, args.seed, args.dealer, args.records)
    except (GameError, Refused) as failed:
        print(f"game loop failed: {failed}", file=sys.stderr)
        return 1
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
