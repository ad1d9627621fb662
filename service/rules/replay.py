"""Replaying a whole round record (deal plus moves): a verdict per move, stopping at the first
illegal one. An illegal move is a verdict here, not an error; a malformed record is an error. A claimed
breakdown gets a verdict too: right, wrong, or cannot-be-judged (docs/rules.md §10.14)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, NamedTuple

from .cards import Deck
from .clock import AUTO_TIMEOUT, MAX_AT_MS, NotTheDefaultMove, Stamp, TurnClock, time_problem
from .errors import InvalidInput, MoveError, check_seat
from .numbers import whole_number
from .profiles import RulesLike
from .round import (
    Cut,
    CutMove,
    Event,
    Move,
    PlayMove,
    RoundInPlay,
    deal_round,
    legal_moves,
    parse_move,
    round_breakdown,
)
from .scoring import Discrepancy, SideScore, check_claim_form, compare_breakdown
from .state import Phase, RoundState
from .tuples import new_tuple

MAX_MOVES = 64  # a round has at most 36 plays and one cut; anything longer is not a round
_MOVES = (PlayMove, CutMove)
_MOVE_FIELDS = tuple(f"moves.{i}" for i in range(MAX_MOVES))
_SEAT = attrgetter("seat")
_SEATS = {players: frozenset(range(players)) for players in (2, 3, 4)}  # deal_round allows no other count


# Enum members read once: on Python 3.11 every Enum class attribute read goes through EnumType's
# __getattr__ hook, about 900 machine instructions, and these are read for every move.
_OVER, _REDEAL = Phase.OVER, Phase.REDEAL

# A claim's verdict (docs/rules.md §10.14): it equals the score, it differs, or there is no score to
# compare it with (the record stops before the end of the round, or the deal is void).
RIGHT, WRONG, UNJUDGED = CLAIM_VERDICTS = ("right", "wrong", "cannot-be-judged")


@dataclass(frozen=True, slots=True)
class ClaimVerdict:
    """The verdict on a claim: ``discrepancies`` when wrong, ``reason`` when it cannot be judged."""

    verdict: str  # one of CLAIM_VERDICTS
    discrepancies: tuple[Any, ...] = ()  # each with to_json(): Discrepancy, DecisionDiscrepancy
    reason: str | None = None

    @property
    def valid(self) -> bool | None:
        """Whether the claim is right; None when it cannot be judged (never False: it is not wrong)."""
        return None if self.verdict == UNJUDGED else self.verdict == RIGHT

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"verdict": self.verdict, "valid": self.valid}
        if self.reason is not None:
            data["reason"] = self.reason
        data["discrepancies"] = [d.to_json() for d in self.discrepancies]
        return data

    @classmethod
    def of(cls, found: Sequence[Any]) -> ClaimVerdict:
        """The verdict on a claim that was compared: right when nothing differs, else wrong."""
        return cls(WRONG, tuple(found)) if found else cls(RIGHT)


class MoveVerdict(NamedTuple):
    """The verdict on one move of a record (a named tuple: one is made for every move)."""

    position: int  # the move's index in the record
    seat: int | None
    move: Move
    legal: bool
    code: str | None = None  # why it is illegal
    reason: str | None = None
    event: Event | None = None  # what the move did, when legal
    options: tuple[Any, ...] = ()  # when illegal: what the seat could do (Captures per hand card, or cuts)

    def to_json(self) -> dict[str, Any]:
        return verdicts_to_json((self,))[0]

    def _general_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "index": self.position,
            "seat": self.seat,
            "verdict": "legal" if self.legal else "illegal",
        }
        if isinstance(self.move, CutMove):
            data["cut"] = self.move.cut.value
        else:
            data["card"] = self.move.card.code
        event = self.event
        data["captured"] = [c.code for c in event.captured] if event else []
        data["sweep"] = bool(event and event.sweep)
        if not self.legal:
            data.update(code=self.code, reason=self.reason)
        return data


def record_json(state: RoundState, deck: Sequence[str], cut: str | None, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The record of the round that ``state`` ends, as replayRound takes it: the deck as dealt, the
    cut given with the deal (if any), and every move with its seat."""
    record: dict[str, Any] = {
        "rules": state.rules.to_json(),
        "players": state.players,
        "dealer": state.dealer,
        "deck": list(deck),
    }
    if cut is not None:
        record["cut"] = cut
    record["moves"] = moves
    return record


def verdicts_to_json(verdicts: Iterable[MoveVerdict]) -> list[dict[str, Any]]:
    """``MoveVerdict.to_json`` of each verdict, in one loop: a replay renders one per move, and a
    legal play, the common case, is written here in one dict display."""
    out: list[dict[str, Any]] = []
    append = out.append
    for verdict in verdicts:
        position, seat, move, legal, _, _, event, _ = verdict
        if legal and event is not None and type(move) is PlayMove:
            code = move.card.code
            taken = event.taken
            captured = [code, *[c.code for c in taken]] if taken else []
            sweep = bool(event.sweep)
            append(
                {
                    "index": position,
                    "seat": seat,
                    "verdict": "legal",
                    "card": code,
                    "captured": captured,
                    "sweep": sweep,
                }
            )
        else:
            append(verdict._general_json())
    return out


@dataclass(frozen=True, slots=True)
class Replay:
    moves: tuple[MoveVerdict, ...]
    state: RoundState  # after the last legal move
    deck: tuple[Any, ...]
    _scored: tuple[SideScore, ...] | None = field(default=None, compare=False, repr=False)

    @property
    def first_illegal(self) -> int | None:
        """The position of the illegal move, if any: a replay stops at it, so it is the last verdict."""
        last = self.moves[-1] if self.moves else None
        return last.position if last is not None and not last.legal else None

    @property
    def first_illegal_code(self) -> str | None:
        """Why the illegal move is illegal: its problem code, if there is an illegal move."""
        return self.moves[-1].code if self.first_illegal is not None else None

    @property
    def valid(self) -> bool:
        return self.first_illegal is None

    @property
    def complete(self) -> bool:
        return self.state.phase is _OVER

    @property
    def void(self) -> bool:
        """The deal is void (docs/rules.md §3.4): the same dealer deals again, and it scores nothing."""
        return self.state.phase is _REDEAL

    @property
    def breakdown(self) -> tuple[SideScore, ...] | None:
        if not self.complete:
            return None
        scored = self._scored
        if scored is None:  # worked out once: a view, a claim and a match decision all read it
            scored = round_breakdown(self.state)
            object.__setattr__(self, "_scored", scored)
        return scored

    def judge(self, claimed: Sequence[Mapping[str, Any]]) -> ClaimVerdict:
        """The verdict on a claimed breakdown: compared with the round's (``compare_breakdown``), or,
        with no score to compare it with, neither right nor wrong (docs/rules.md §10.14)."""
        breakdown = self.breakdown
        if breakdown is not None:
            found: list[Discrepancy] = compare_breakdown(breakdown, claimed)
            return ClaimVerdict.of(found)
        check_claim_form(claimed, self.state.sides)
        if self.first_illegal is not None:
            reason = "the record stops at an illegal move before the end of the round, so the round has no score yet"
        elif self.void:
            reason = "the deal is void (docs/rules.md §3.4): it is dealt again, and a void deal has no score"
        else:
            reason = "the record ends before the end of the round, so the round has no score yet"
        return ClaimVerdict(UNJUDGED, (), reason)


def replay_round(
    rules: RulesLike,
    players: int,
    dealer: int,
    moves: Sequence[Mapping[str, Any] | Move] | RecordMoves,
    *,
    deck: Deck | Sequence[Any] | None = None,
    seed: object = None,
    cut: Cut | str | None = None,
    clock: TurnClock | None = None,
    stamps: Sequence[Stamp | None] | None = None,
    default_move: Callable[[RoundState], Move] | None = None,
) -> Replay:
    """Deal from ``deck`` (or ``seed``) and play ``moves`` in order until the first illegal one.

    With ``stamps`` (one per move: when it was made, whether it was played for the seat on timeout;
    moves given as JSON carry theirs as ``at_ms`` and ``auto``) each move is also judged against the
    round's turn ``clock`` (docs/rules.md §10.25), and a move played on timeout must be
    ``default_move`` of the state it was played in (without ``default_move``, such a move is judged
    on its time alone)."""
    if deck is None and seed is None:
        raise InvalidInput("a record gives the deck it was dealt from (or its seed)", field="deck")
    recorded = moves if isinstance(moves, RecordMoves) else parse_record_moves(moves)
    parsed = recorded.moves
    if stamps is None:
        stamps = recorded.stamps
    state, dealt_deck = deal_round(rules, players, dealer, deck=deck, seed=seed, cut=cut)
    seats = set(map(_SEAT, parsed))
    seats.discard(None)
    if not seats <= _SEATS[players]:  # then find the first seat out of range, if any
        for i, move in enumerate(parsed):
            if move.seat is not None:
                check_seat(move.seat, players, field=f"moves.{i}.seat")
    verdicts: list[MoveVerdict] = []
    in_play = RoundInPlay(state)
    timed = stamps is not None or clock is not None
    previous_ms = 0
    for index, move in enumerate(parsed):
        seat = in_play.turn if move.seat is None else move.seat
        try:
            if timed:
                stamp = stamps[index] if stamps is not None and index < len(stamps) else None
                _check_time(in_play, move, clock, previous_ms, stamp, default_move)
                if stamp is not None and stamp.at_ms is not None:
                    previous_ms = stamp.at_ms
            event = in_play.move(move)
        except MoveError as exc:
            state = in_play.state()
            legal = tuple(exc.details.get("legal") or legal_moves(state))
            verdicts.append(MoveVerdict(index, seat, move, False, exc.code, exc.message, None, legal))
            return Replay(tuple(verdicts), state, dealt_deck)
        verdicts.append(new_tuple(MoveVerdict, (index, seat, move, True, None, None, event, ())))
    return Replay(tuple(verdicts), in_play.state(), dealt_deck)


_STAMP_KEYS = frozenset({"at_ms", "auto"})


class RecordMoves(NamedTuple):
    """A record's moves, parsed, with when each was made: ``stamps`` is None when no move gives a time
    (the common case: an unclocked round), else one ``Stamp`` or None per move."""

    moves: tuple[Move, ...]
    stamps: tuple[Stamp | None, ...] | None = None


def parse_record_moves(moves: Sequence[Mapping[str, Any] | Move], *, field: str = "moves") -> RecordMoves:
    """A record's moves from their JSON form, each as ``parse_move`` takes it plus, in a clocked
    round, ``at_ms`` (a whole number of milliseconds since the deal) and ``auto`` (``"timeout"``)."""
    if not isinstance(moves, Sequence) or isinstance(moves, str | bytes):
        raise InvalidInput("moves must be a list", field=field)
    if len(moves) > MAX_MOVES:
        raise InvalidInput(f"a round has at most {MAX_MOVES} moves", field=field)
    paths = _MOVE_FIELDS if field == "moves" else tuple(f"{field}.{i}" for i in range(len(moves)))
    parsed: list[Move] = []
    stamps: list[Stamp | None] | None = None
    for i, move in enumerate(moves):
        if type(move) is dict and ("at_ms" in move or "auto" in move):
            stamp = _stamp(move, paths[i])
            if stamps is None:
                stamps = [None] * i
            stamps.append(stamp)
            move = {k: v for k, v in move.items() if k not in _STAMP_KEYS}
        elif stamps is not None:
            stamps.append(None)
        parsed.append(parse_move(move, field=paths[i]) if type(move) is dict or not isinstance(move, _MOVES) else move)
    return RecordMoves(tuple(parsed), None if stamps is None else tuple(stamps))


def _stamp(move: Mapping[str, Any], where: str) -> Stamp | None:
    at_ms, auto = move.get("at_ms"), move.get("auto")
    if at_ms is not None:
        at_ms = whole_number(at_ms)  # 2.0 is the whole number 2, as JSON Schema counts it
        if at_ms is None or not 0 <= at_ms <= MAX_AT_MS:
            raise InvalidInput(f"at_ms is a whole number of milliseconds from 0 to {MAX_AT_MS}", field=f"{where}.at_ms")
    if auto is not None and auto != AUTO_TIMEOUT:
        raise InvalidInput(f'auto is "{AUTO_TIMEOUT}", or absent', field=f"{where}.auto")
    return Stamp(at_ms, auto == AUTO_TIMEOUT)


def _check_time(
    in_play: RoundInPlay,
    move: Move,
    clock: TurnClock | None,
    previous_ms: int,
    stamp: Stamp | None,
    default_move: Callable[[RoundState], Move] | None,
) -> None:
    """Raise the ``MoveError`` of a move that breaks the clock: its time, then, for a move played on
    timeout, whether it is the default move of its position."""
    problem = time_problem(clock, previous_ms, stamp)
    if problem is not None:
        raise problem
    if stamp is not None and stamp.auto and default_move is not None and in_play.phase in (Phase.PLAY, Phase.CUT):
        expected = default_move(in_play.state())
        if not same_move(move, expected):
            raise NotTheDefaultMove(
                f"marked as played on timeout, but the default move there is {describe_move(expected)}, "
                f"not {describe_move(move)}"
            )


def same_move(move: Move, other: Move) -> bool:
    """The same play or cut, whoever is named as its seat; a capture compared as a set."""
    if isinstance(move, CutMove) or isinstance(other, CutMove):
        return isinstance(move, CutMove) and isinstance(other, CutMove) and move.cut is other.cut
    if move.card is not other.card:
        return False
    return move.capture is None or other.capture is None or set(move.capture) == set(other.capture)


def describe_move(move: Move) -> str:
    if isinstance(move, CutMove):
        return f"the cut {move.cut.value}"
    if not move.capture:
        return f"{move.card.code} laid" if move.capture is not None else move.card.code
    return f"{move.card.code} taking {' '.join(c.code for c in move.capture)}"
