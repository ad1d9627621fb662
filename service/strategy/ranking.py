"""Every legal move of the seat to move, scored and ranked: the endgame search when it applies, the
heuristic otherwise (or when a budget cuts the search short), and the cut."""

from __future__ import annotations

from service.rules import (
    SEVEN_OF_DIAMONDS,
    Cut,
    CutMove,
    InvalidInput,
    NotYourTurn,
    Phase,
    PlayMove,
    Rank,
    RoundState,
    WrongPhase,
    check_seat,
    seat_view,
)

from .answers import Hint, Hints, Reason, Scored
from .budget import DEFAULT_BUDGET, Budget, Meter, OverBudget
from .endgame import Endgame
from .heuristic import Heuristic
from .knowledge import SeatKnowledge, legal_plays
from .weights import DEFAULT_WEIGHTS, WEIGHTS, Weights


def suggest_moves(state: RoundState, seat: int | None = None, weights: Weights | None = None) -> tuple[Hint, ...]:
    """Every legal move of the seat to move, best first (a valid state is assumed: validate it first
    when it comes from outside). ``seat``, when given, must be the seat to move (``NotYourTurn``);
    nobody moves in phases redeal and over (``WrongPhase``)."""
    return suggest(state, seat, weights).moves


def suggest(
    state: RoundState,
    seat: int | None = None,
    weights: Weights | None = None,
    *,
    limit: int | None = None,
    budget: Budget = DEFAULT_BUDGET,
) -> Hints:
    """``suggest_moves`` with its cost in view: at most ``limit`` moves (all when None), the search
    within ``budget``, and the number of legal moves."""
    return rank(mover_knowledge(state, seat), weights, limit=limit, budget=budget)


def mover_knowledge(state: RoundState, seat: int | None = None) -> SeatKnowledge:
    """What the seat to move knows of ``state``; ``seat``, when given, must be that seat
    (``NotYourTurn``); nobody moves in phases redeal and over (``WrongPhase``)."""
    turn = state.turn
    if turn is None or state.phase not in (Phase.PLAY, Phase.CUT):
        raise WrongPhase(f"nobody moves in phase {state.phase.value}", field="state.phase", phase=state.phase.value)
    if seat is not None:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise InvalidInput("seat must be a whole number", field="seat")
        check_seat(seat, state.players, field="seat")
        if seat != turn:
            raise NotYourTurn(f"it is seat {turn}'s turn, not seat {seat}'s", field="seat", turn=turn)
    return SeatKnowledge.of(seat_view(state, turn))


def rank_moves(knowledge: SeatKnowledge, weights: Weights | None = None) -> tuple[Hint, ...]:
    """The strategy: every legal move of ``knowledge.seat``, which must be the seat to move, ranked."""
    return rank(knowledge, weights).moves


def rank(
    knowledge: SeatKnowledge,
    weights: Weights | None = None,
    *,
    limit: int | None = None,
    budget: Budget = DEFAULT_BUDGET,
) -> Hints:
    """``rank_moves``, the best ``limit`` moves only, within ``budget``."""
    k = knowledge
    if k.turn != k.seat:
        raise NotYourTurn(f"it is seat {k.turn}'s turn, not seat {k.seat}'s", field="seat", turn=k.turn)
    if limit is not None and limit < 1:
        raise InvalidInput("limit must be at least 1", field="limit")
    w = weights or WEIGHTS.get(k.rules.profile.id, DEFAULT_WEIGHTS)
    if k.phase is Phase.CUT:
        cut = cut_hints(k, w)
        return Hints(cut[:limit], len(cut))
    if k.phase is not Phase.PLAY:
        raise WrongPhase(f"nobody moves in phase {k.phase.value}", field="state.phase", phase=k.phase.value)
    meter = Meter(budget)
    plays = legal_plays(k)
    scored: list[Scored] | None = None
    if k.players == 2 and k.stock_size == 0:
        try:
            scored = Endgame(k, meter).score(plays)
        except OverBudget:
            scored = None
    if scored is None:
        heuristic = Heuristic(k, w, meter)
        try:
            scored = heuristic.score(plays)
        except OverBudget:
            scored = heuristic.quick(plays)
    # The plays come in card order, then in lexicographic order of the table positions taken: a
    # stable sort on the score alone breaks ties that way.
    negated = [-score for score, _ in scored]
    best = sorted(range(len(plays)), key=negated.__getitem__)[:limit]
    moves = tuple(Hint(PlayMove(plays[i][0], plays[i][1]), scored[i][0], scored[i][1]) for i in best)
    return Hints(moves, len(plays), meter.shortened_by)


def cut_hints(k: SeatKnowledge, w: Weights) -> tuple[Hint, ...]:
    """Keep a drawn seven (000 "count the sevens", 004 "keep a 7"), 7D above all, or a six (the
    sevens tiebreak); table any other card: the cutter plays first, so he may take it back."""
    card = k.cut_card
    keep = 0.0 if card is None else w.keep_cut.get(card.rank, w.keep_cut_other)
    reasons = [Reason.KEEPS_CUT_CARD]
    if card is SEVEN_OF_DIAMONDS:
        keep += w.keep_cut_seven_of_diamonds
    if card is not None and card.rank is Rank.SEVEN:
        reasons.append(Reason.KEEPS_SEVEN)
    hints = [
        Hint(CutMove(Cut.KEEP), round(keep, 4), tuple(reasons)),
        Hint(CutMove(Cut.TABLE), 0.0, (Reason.TABLES_CUT_CARD,)),
    ]
    return tuple(sorted(hints, key=lambda h: -h.score))  # stable: keep first on a tie
