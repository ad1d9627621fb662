"""Move hints (README, "Move hints"): every legal move of the seat to move, ranked best first, each
with a score and the reasons behind it, for a turn timer that runs out or a computer opponent.

The strategy sees only what the seat may know. ``SeatKnowledge.of(view)`` copies from a
``SeatView`` what that view shows (the seat's own hand, the table, the piles, the sweeps, the sizes
of the hidden hands and of the stock, the cut card the cutter drew) and nothing else;
``rank_moves`` takes a ``SeatKnowledge`` and never a ``RoundState``, so it cannot read another hand
or the order of the stock. The cards the seat cannot see (the *unseen* cards: every card not in its
hand, on the table or in a pile) are the only candidates for the other hands.

The score of a move is the round's final point margin (the seat's side minus the mean of the other
sides) that the strategy expects after it (README, "Move hints", gives every term with its weight):

1. **The race.** Each category still open (cards, diamonds, sevens then sixes, the seven of
   diamonds) is valued by the chance that the side ends with strictly the most, when every card not
   yet captured falls to each side alike. A captured card is worth what it changes in those chances:
   a diamond is worth much when diamonds are 5-4, nothing once one side holds 6 ("count the
   sevens", 000). Sweeps already scored count one point each.
2. **The reply.** The next player holds ``hand_sizes[next]`` cards drawn from the unseen cards, any
   hand alike. For each card he may hold, his choice on the table the move leaves is valued in the
   same race; the expectation mixes his best card of a random hand (exact order statistics) with any
   card of it. This is what avoids a table that can be swept, or a 7D that can be taken (000, 002).
3. **Our next capture** (two players): after his play, our best capture with the cards we keep.
4. **Habits**, named: a card laid is a card offered, so laying one that counts costs part of its
   worth (000 "think about what you leave"); keep a seven in hand while 7D is unseen (004).
5. **The endgame.** With two players and an empty stock every unseen card is in the other hand, so
   the rest of the round is searched exactly (minimax, the table going to the last capturer,
   RULES.md §6) and the score is the exact final margin.

Every call has a bounded cost (README, "Move hints"), whatever the state: a ``Budget`` of counted
steps for the endgame search and for the reply terms, each falling back to the cheaper terms when
spent, and of CPU time as a safety net. Real rounds hardly ever reach the step budgets (2 calls of
the 549,672 of bench/hints.py); a huge table (a state can hold 34 table cards, and a king then has
over 1,600 captures) does, and its moves are then scored by the race and the habits alone, one
evaluation per kind of capture. The answer says which budget, if any, shortened the search.

Deterministic: no randomness, ties broken by card order, then capture positions. Steps are counted,
so a step budget gives the same answer for the same input; only the time budget depends on the
machine, and it is sized to be reached only when the machine is far slower than the one the step
budgets were sized on.
"""

from __future__ import annotations

import enum
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from .captures import HAND_SIZE, captures_of
from .cards import DECK, SEVEN_OF_DIAMONDS, Card, Rank, Suit
from .errors import InvalidInput, NoSuchSeat, NotYourTurn, WrongPhase
from .profiles import Rules
from .round import Cut, CutMove, PlayMove
from .scoring import Tally, score_round
from .seat_view import SeatView, seat_view
from .state import Phase, RoundState

TOTAL_CARDS: Final = len(DECK)
TOTAL_DIAMONDS: Final = sum(c.suit is Suit.DIAMONDS for c in DECK)
TOTAL_SEVENS: Final = sum(c.rank is Rank.SEVEN for c in DECK)
TOTAL_SIXES: Final = sum(c.rank is Rank.SIX for c in DECK)


class Reason(enum.Enum):
    """Why a move scores as it does. The codes are stable; README "Move hints" documents each one."""

    TAKES_SEVEN_OF_DIAMONDS = "takes-seven-of-diamonds"  # 000 "never leave the 7D", 002, 004
    SWEEPS = "sweeps"  # the capture empties the table (not on the last play)
    TAKES_SEVENS = "takes-sevens"  # sevens majority still open (chkobba): 000 "count the sevens"
    TAKES_SIXES = "takes-sixes"  # sixes break a tie in sevens (chkobba)
    TAKES_DIAMONDS = "takes-diamonds"  # 000 "on equal value take diamonds", 002, 004
    TAKES_CARDS = "takes-cards"  # the most-cards point still open
    BLOCKS_SWEEP = "blocks-sweep"  # 000 "block the opponent's sweep"; 002, 004 "watch the table total"
    SWEEP_RISK = "sweep-risk"  # the next player may sweep the table left
    LEAVES_SEVEN_OF_DIAMONDS = "leaves-seven-of-diamonds"  # 7D stays on the table within the next player's reach
    LAYS_SCORING_CARD = "lays-scoring-card"  # 000 "think about what you leave": 7D, a diamond, a seven laid
    GIVES_CAPTURES = "gives-captures"  # 000 "think about what you leave": the next player's best reply is costly
    KEEPS_SEVEN = "keeps-seven"  # 004 "until the 7D shows, keep a 7 in hand"
    EXACT_ENDGAME = "exact-endgame"  # two players, empty stock: the score is the exact final margin
    WINS_LAST_CAPTURE = "wins-last-capture"  # exact endgame: our side captures last and collects the table
    KEEPS_CUT_CARD = "keeps-cut-card"  # the cut: keep the drawn card
    TABLES_CUT_CARD = "tables-cut-card"  # the cut: put the drawn card on the table


# Work limits (README, "Move hints"), so that any valid state answers within a few milliseconds: a
# huge table (a state can hold 34 table cards, and a king then has over 1,600 captures) must not block a
# worker. Steps are counted (deterministic); bench/hints.py reports the most a real round spends,
# bench/worst.py the CPU time of the states that spend the most.
REPLY_BUDGET: Final = 1_200  # reply and next-capture steps per call (real rounds: about 720 at most, bar one)
ENDGAME_BUDGET: Final = 800  # positions and captures of the endgame search (real rounds: about 630 at most, bar one)
TIME_BUDGET: Final = 0.015  # seconds of this thread's CPU time for both searches: a safety net


class Shortened(enum.Enum):
    """Which budget cut the search short (``Hints.shortened_by``)."""

    STEPS = "steps"  # deterministic: the same input is always cut the same way
    TIME = "time"  # the machine was too slow for the step budgets: the answer may vary with load


@dataclass(frozen=True, slots=True)
class Budget:
    """The work one call may do: steps for each search, and CPU seconds for both (a safety net, read
    from ``clock``: this thread's CPU time, which other processes' load barely changes)."""

    reply_steps: int = REPLY_BUDGET
    endgame_steps: int = ENDGAME_BUDGET
    seconds: float = TIME_BUDGET
    clock: Callable[[], float] = time.thread_time


DEFAULT_BUDGET: Final = Budget()


class _Meter:
    """One call's spending against its ``Budget``."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.clock = budget.clock
        self.deadline = budget.clock() + budget.seconds
        self.shortened_by: Shortened | None = None
        self.unchecked = 0  # steps since the clock was last read

    def over_steps(self) -> _OverBudget:
        if self.shortened_by is None:
            self.shortened_by = Shortened.STEPS
        return _OverBudget()

    def check_time(self, steps: int) -> None:
        """Read the clock every 16 steps or so (a read costs about a microsecond, a step several)."""
        self.unchecked += steps
        if self.unchecked < 16:
            return
        self.unchecked = 0
        if self.clock() > self.deadline:
            self.shortened_by = Shortened.TIME
            raise _OverBudget


REASONS: Final = tuple(r.value for r in Reason)
_REASON_ORDER: Final = {r: i for i, r in enumerate(Reason)}


_KEEP_CUT: Final = MappingProxyType({Rank.SEVEN: 1.0, Rank.SIX: 0.5})


@dataclass(frozen=True, slots=True)
class Weights:
    """The strategy's weights (README, "Move hints"), tuned with ``bench/hints.py``."""

    cards: float = 1.0  # multiplies the race value of the cards point
    diamonds: float = 1.0
    sevens: float = 1.0  # the sevens point (its sixes tiebreak included)
    seven_of_diamonds: float = 1.0  # the 7D point (7D also counts in diamonds and sevens)
    sweeps: float = 1.0  # one sweep scored
    pessimism: float = 0.3  # 1: the next player plays his best card; 0: any card of his alike
    follow: float = 1.0  # multiplies the value of our best capture after his play (two players)
    lay: float = 0.6  # multiplies what a card laid without capturing would be worth to us in the race
    keep_seven: float = 0.1  # keeping a seven in hand while 7D is unseen
    # The cut: the score of keeping the drawn card, by rank (tabling it scores 0).
    keep_cut: Mapping[Rank, float] = field(default_factory=lambda: _KEEP_CUT)
    keep_cut_other: float = -0.1
    keep_cut_seven_of_diamonds: float = 1.0  # more, for 7D
    gives_captures: float = 0.25  # the reply cost above which ``gives-captures`` is named (a label, not a weight)


DEFAULT_WEIGHTS: Final = Weights()
# Per profile: the race values already follow each profile's card values and scored categories.
WEIGHTS: Final[Mapping[str, Weights]] = MappingProxyType(
    {"chkobba": DEFAULT_WEIGHTS, "chkobba-crp": DEFAULT_WEIGHTS, "scopa": DEFAULT_WEIGHTS}
)


@dataclass(frozen=True, slots=True)
class SeatKnowledge:
    """What one seat may know of a round: the data of its ``SeatView``, no hidden card."""

    rules: Rules
    players: int
    seat: int
    dealer: int
    phase: Phase
    turn: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    table: tuple[Card, ...]
    stock_size: int
    piles: tuple[tuple[Card, ...], ...]
    sweeps: tuple[int, ...]
    last_capturer: int | None
    cut_card: Card | None

    @classmethod
    def of(cls, view: SeatView) -> SeatKnowledge:
        """Copy what ``view`` shows (the same fields as ``SeatView.to_json``), and nothing else."""
        state = view.state
        return cls(
            rules=state.rules,
            players=state.players,
            seat=view.seat,
            dealer=state.dealer,
            phase=state.phase,
            turn=state.turn,
            hand=view.hand,
            hand_sizes=tuple(len(h) for h in state.hands),
            table=state.table,
            stock_size=len(state.stock),
            piles=state.piles,
            sweeps=state.sweeps,
            last_capturer=state.last_capturer,
            cut_card=view.cut_card,
        )

    @property
    def sides(self) -> int:
        return self.rules.profile.sides(self.players)

    @property
    def side(self) -> int:
        return self.seat % self.sides

    def unseen(self) -> tuple[Card, ...]:
        """The cards this seat cannot see, in canonical order: the other hands and the stock."""
        seen = {*self.hand, *self.table, *(c for pile in self.piles for c in pile)}
        return tuple(c for c in DECK if c not in seen)


@dataclass(frozen=True, slots=True)
class Hint:
    move: PlayMove | CutMove
    score: float  # the expected final point margin of the round after this move (see the module doc)
    reasons: tuple[Reason, ...]

    def to_json(self) -> dict[str, Any]:
        move: dict[str, Any]
        if isinstance(self.move, CutMove):
            move = {"cut": self.move.cut.value}
        else:
            move = {"card": self.move.card.code, "capture": [c.code for c in self.move.capture or ()]}
        return {"move": move, "score": self.score, "reasons": [r.value for r in self.reasons]}


@dataclass(frozen=True, slots=True)
class Hints:
    """The answer of ``suggest``: the best moves, how many legal moves there are, and which budget,
    if any, cut the search short (then every move was scored by the race and the habits alone)."""

    moves: tuple[Hint, ...]  # best first, at most ``limit``
    count: int  # every legal move of the seat
    shortened_by: Shortened | None = None


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
    turn = state.turn
    if turn is None or state.phase not in (Phase.PLAY, Phase.CUT):
        raise WrongPhase(f"nobody moves in phase {state.phase.value}", field="state.phase", phase=state.phase.value)
    if seat is not None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
            raise NoSuchSeat(f"seat must be from 0 to {state.players - 1}", field="seat")
        if seat != turn:
            raise NotYourTurn(f"it is seat {turn}'s turn, not seat {seat}'s", field="seat", turn=turn)
    return rank(SeatKnowledge.of(seat_view(state, turn)), weights, limit=limit, budget=budget)


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
        cut = _cut_hints(k, w)
        return Hints(cut[:limit], len(cut))
    if k.phase is not Phase.PLAY:
        raise WrongPhase(f"nobody moves in phase {k.phase.value}", field="state.phase", phase=k.phase.value)
    meter = _Meter(budget)
    plays = _legal_plays(k)
    scored: list[_Scored] | None = None
    if k.players == 2 and k.stock_size == 0:
        try:
            scored = _Endgame(k, meter).score(plays)
        except _OverBudget:
            scored = None
    if scored is None:
        heuristic = _Heuristic(k, w, meter)
        try:
            scored = heuristic.score(plays)
        except _OverBudget:
            scored = heuristic.quick(plays)
    # The plays come in card order, then in lexicographic order of the table positions taken: a
    # stable sort on the score alone breaks ties that way.
    negated = [-score for score, _ in scored]
    best = sorted(range(len(plays)), key=negated.__getitem__)[:limit]
    moves = tuple(Hint(PlayMove(plays[i][0], plays[i][1]), scored[i][0], scored[i][1]) for i in best)
    return Hints(moves, len(plays), meter.shortened_by)


_Scored = tuple[float, tuple[Reason, ...]]  # a play's score (rounded) and its reasons, in order


# ---- the cut ----------------------------------------------------------------------------------------


def _cut_hints(k: SeatKnowledge, w: Weights) -> tuple[Hint, ...]:
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


class _OverBudget(Exception):
    """A budget is spent: fall back to a cheaper evaluation (``_Meter.shortened_by`` says which)."""


# ---- legal plays ------------------------------------------------------------------------------------

_Play = tuple[Card, tuple[Card, ...], bool]  # card, table cards taken, sweep


def _legal_plays(k: SeatKnowledge) -> list[_Play]:
    last_play = k.stock_size == 0 and sum(k.hand_sizes) == 1
    plays: list[_Play] = []
    for card in sorted(k.hand):
        caps = captures_of(k.rules, k.table, card, last_play)
        if caps.options:
            plays.extend([(card, option, False) for option in caps.options])
            if caps.sweeping is not None:  # at most one option sweeps
                start = len(plays) - len(caps.options)
                plays[start + caps.sweeping] = (card, caps.options[caps.sweeping], True)
        else:
            plays.append((card, (), False))
    return plays


# ---- the race: chances of each category from the counts ----------------------------------------------


@cache
def _splits(sides: int, remaining: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every way ``remaining`` cards may fall to ``sides`` sides, each card to each side alike, with
    its chance: (cards per side, chance)."""
    total = sides**remaining
    out: list[tuple[tuple[int, ...], float]] = []

    def split(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == sides - 1:
            shares = (*prefix, left)
            ways = math.factorial(remaining)
            for s in shares:
                ways //= math.factorial(s)
            out.append((shares, ways / total))
            return
        for s in range(left + 1):
            split((*prefix, s), left - s)

    split((), remaining)
    return tuple(out)


def _finals(counts: tuple[int, ...], remaining: int) -> list[tuple[list[int], float]]:
    """Every final count vector and its chance."""
    return [([c + s for c, s in zip(counts, shares, strict=True)], p) for shares, p in _splits(len(counts), remaining)]


def _unique_top(values: Sequence[int]) -> int | None:
    top = max(values)
    first = values.index(top)
    return None if top in values[first + 1 :] else first


@cache
def _most(counts: tuple[int, ...], total: int) -> tuple[float, ...]:
    """The chance of each side to end with strictly the most of ``total`` cards of a kind.

    Counted in whole numbers of ways, by sums of binomial coefficients: a few dozen operations for
    two or three sides, where listing every split of 36 cards among three sides takes 703 (a new
    count vector must cost little: a worker's first calls meet many)."""
    remaining = total - sum(counts)
    if len(counts) == 2:
        a, b = counts
        gap = b + remaining - a  # side 0 leads when it gets x cards with 2x > gap
        leads = _ways_between(remaining, gap // 2 + 1, remaining), _ways_between(remaining, 0, (gap + 1) // 2 - 1)
        return tuple(w / 2**remaining for w in leads)
    if len(counts) == 3:
        chances = []
        for side in range(3):
            other, last = [counts[s] for s in range(3) if s != side]
            ways = 0
            for x in range(remaining + 1):  # x cards to this side, and of the rest from low to high to ``other``
                top, rest = counts[side] + x, remaining - x
                ways += math.comb(remaining, x) * _ways_between(rest, rest - top + last + 1, top - other - 1)
            chances.append(ways / 3**remaining)
        return tuple(chances)
    chances_any = [0.0] * len(counts)
    for final, p in _finals(counts, remaining):
        winner = _unique_top(final)
        if winner is not None:
            chances_any[winner] += p
    return tuple(chances_any)


@cache
def _binomial_sums(n: int) -> tuple[int, ...]:
    """``sums[k]``: the sum of C(n, j) for j below k, k from 0 to n + 1."""
    sums = [0]
    for j in range(n + 1):
        sums.append(sums[-1] + math.comb(n, j))
    return tuple(sums)


def _ways_between(n: int, low: int, high: int) -> int:
    """The ways to give each of ``n`` cards to one of two sides with the first getting from ``low``
    to ``high`` of them."""
    low, high = max(low, 0), min(high, n)
    if low > high:
        return 0
    sums = _binomial_sums(n)
    return sums[high + 1] - sums[low]


@cache
def _most_sevens(sevens: tuple[int, ...], sixes: tuple[int, ...], by_sixes: bool) -> tuple[float, ...]:
    """The sevens point: most sevens, then (chkobba) most sixes among the sides tied on sevens."""
    chances = [0.0] * len(sevens)
    six_finals = _finals(sixes, TOTAL_SIXES - sum(sixes)) if by_sixes else ()
    for final, p in _finals(sevens, TOTAL_SEVENS - sum(sevens)):
        top = max(final)
        tied = [s for s, v in enumerate(final) if v == top]
        if len(tied) == 1:
            chances[tied[0]] += p
            continue
        for six_final, q in six_finals:
            winner = _unique_top([six_final[s] for s in tied])
            if winner is not None:
                chances[tied[winner]] += p * q
    return tuple(chances)


def _margin(values: Sequence[float], side: int) -> float:
    """A side's value minus the mean of the other sides'."""
    n = len(values)
    return values[side] - (sum(values) - values[side]) / (n - 1)


@dataclass(frozen=True, slots=True)
class _Tallies:
    """Counts per side of what is captured, and the sweeps."""

    cards: tuple[int, ...]
    diamonds: tuple[int, ...]
    sevens: tuple[int, ...]
    sixes: tuple[int, ...]
    holder: int | None  # the side holding 7D
    sweeps: tuple[int, ...]

    @classmethod
    def of(cls, piles: Sequence[Sequence[Card]], sweeps: Sequence[int]) -> _Tallies:
        holder = next((s for s, pile in enumerate(piles) if SEVEN_OF_DIAMONDS in pile), None)
        return cls(
            tuple(len(p) for p in piles),
            tuple(sum(c.suit is Suit.DIAMONDS for c in p) for p in piles),
            tuple(sum(c.rank is Rank.SEVEN for c in p) for p in piles),
            tuple(sum(c.rank is Rank.SIX for c in p) for p in piles),
            holder,
            tuple(sweeps),
        )

    def add(self, side: int, cards: Sequence[Card], sweep: bool) -> _Tallies:
        def plus(values: tuple[int, ...], n: int) -> tuple[int, ...]:
            return values if not n else (*values[:side], values[side] + n, *values[side + 1 :])

        return _Tallies(
            plus(self.cards, len(cards)),
            plus(self.diamonds, sum(c.suit is Suit.DIAMONDS for c in cards)),
            plus(self.sevens, sum(c.rank is Rank.SEVEN for c in cards)),
            plus(self.sixes, sum(c.rank is Rank.SIX for c in cards)),
            side if SEVEN_OF_DIAMONDS in cards else self.holder,
            plus(self.sweeps, int(sweep)),
        )


class _Race:
    """The value of a ``_Tallies`` for a side, per category, as expected points of margin."""

    def __init__(self, rules: Rules, sides: int, w: Weights) -> None:
        self.sides = sides
        self.cards = w.cards if rules.scores("cards") else 0.0
        self.diamonds = w.diamonds if rules.scores("diamonds") else 0.0
        self.sevens = w.sevens if rules.scores("sevens") else 0.0
        self.by_sixes = rules.profile.sevens_tiebreak_by_sixes
        self.seven_of_diamonds = w.seven_of_diamonds if rules.scores("seven_of_diamonds") else 0.0
        self.sweeps = w.sweeps if rules.scores("sweeps") else 0.0

    def parts(self, t: _Tallies, side: int) -> tuple[float, float, float, float, float]:
        """Cards, diamonds, sevens, seven of diamonds, sweeps."""
        n = self.sides
        cards = self.cards * _margin(_most(t.cards, TOTAL_CARDS), side) if self.cards else 0.0
        diamonds = self.diamonds * _margin(_most(t.diamonds, TOTAL_DIAMONDS), side) if self.diamonds else 0.0
        sevens = self.sevens * _margin(_most_sevens(t.sevens, t.sixes, self.by_sixes), side) if self.sevens else 0.0
        if t.holder is None or not self.seven_of_diamonds:
            seven_d = 0.0
        else:
            seven_d = self.seven_of_diamonds * (1.0 if t.holder == side else -1.0 / (n - 1))
        sweeps = self.sweeps * _margin(t.sweeps, side) if self.sweeps else 0.0
        return cards, diamonds, sevens, seven_d, sweeps

    def value(self, t: _Tallies, side: int) -> float:
        return sum(self.parts(t, side))


# ---- the heuristic: one ply and the next player's reply ---------------------------------------------


class _Heuristic:
    """Terms 1 to 4 of the module docstring."""

    def __init__(self, k: SeatKnowledge, w: Weights, meter: _Meter | None = None) -> None:
        self.k, self.w = k, w
        self.meter = meter or _Meter(DEFAULT_BUDGET)
        self.rules = k.rules
        self.n = k.sides
        self.side = k.side
        self.race = _Race(k.rules, self.n, w)
        self.tallies = _Tallies.of(k.piles, k.sweeps)
        self.before = self.race.parts(self.tallies, self.side)
        self.unseen = k.unseen()
        self.next_seat = (k.seat + 1) % k.players
        self.next_side = self.next_seat % self.n
        scores_7d = k.rules.scores("seven_of_diamonds")
        self.keep_seven = w.keep_seven if scores_7d and SEVEN_OF_DIAMONDS in self.unseen else 0.0
        # The unseen cards by what matters to the race and to captures: value, and diamond or not.
        classes: dict[tuple[int, bool], list[Card]] = {}
        values = k.rules.profile.card_values
        for c in self.unseen:
            classes.setdefault((values[c], c.suit is Suit.DIAMONDS), []).append(c)
        self.classes = sorted(classes.items())
        # Our next play comes right after the next player's only with two players.
        self.follows = k.players == 2 and w.follow > 0
        base = self.race.value(self.tallies, self.side)
        self.worth: dict[tuple[bool, bool, bool], float] = {}
        for card in DECK:
            key = _kind(card)
            if key not in self.worth:
                self.worth[key] = self.race.value(self.tallies.add(self.side, (card,), False), self.side) - base
        self.sweep_worth = self.race.sweeps
        self.follow_pack = _follow_pack(k.rules.profile.id, values)
        self.one_ply = False  # set by ``quick``: the race and the habits only
        self.spent = 0

    def score(self, plays: list[_Play]) -> list[_Scored]:
        """Every term, for every play; raises ``_OverBudget`` past the reply budget (each play
        takes at least one step per class of unseen cards: a hopeless search is not started)."""
        if self.k.stock_size == 0 and sum(self.k.hand_sizes) == 1:
            return self.quick(plays)  # the last play of the round: nobody replies, the race is every term
        if len(plays) * max(1, len(self.classes)) > self.meter.budget.reply_steps:
            raise self.meter.over_steps()
        evaluated = [self._evaluate(p) for p in plays]
        any_risk = any(risk for *_, risk in evaluated)
        scored = []
        for _, score, reasons, risk in evaluated:
            if any_risk and risk == 0.0 and Reason.SWEEPS not in reasons:
                reasons.append(Reason.BLOCKS_SWEEP)
            scored.append((round(score, 4), _ordered(reasons)))
        return scored

    def quick(self, plays: list[_Play]) -> list[_Scored]:
        """The race and the habits only (no reply, no next capture), for every play: once per kind
        of play, since they depend only on the card played and on what the capture counts for (how
        many cards, diamonds, sevens and sixes, and 7D), not on which table cards it takes. At the
        end of the round either every capture takes the whole table with it, or the card is laid."""
        self.one_ply = True
        memo: dict[tuple[Card, int, bool], _Scored] = {}
        pack = _PACK.__getitem__
        scored = []
        for play in plays:
            card, taken, sweep = play
            key = (card, sum(map(pack, taken)), sweep)
            found = memo.get(key)
            if found is None:
                _, score, reasons, _ = self._evaluate(play)
                found = memo[key] = (round(score, 4), _ordered(reasons))
            scored.append(found)
        return scored

    def _evaluate(self, play: _Play) -> tuple[PlayMove, float, list[Reason], float | None]:
        """The move, its score, its reasons, and the chance that the next player can sweep (None when
        nobody plays after it)."""
        k, w = self.k, self.w
        card, taken, sweep = play
        reasons: list[Reason] = [Reason.SWEEPS] if sweep else []
        tallies, last = self.tallies, k.last_capturer
        captured: tuple[Card, ...] = ()
        if taken:
            captured = (card, *taken)
            tallies, last = tallies.add(self.side, captured, sweep), self.side
            table = tuple(c for c in k.table if c not in taken)
        else:
            table = (*k.table, card)
        left = sum(k.hand_sizes) - 1  # cards in the hands after this play
        risk: float | None = None
        parts = self.race.parts(tallies, self.side)
        score = sum(parts)
        if left == 0 and k.stock_size == 0:
            if table and last is not None:  # the end of the round: the last capturer takes the table
                tallies = tallies.add(last, table, False)
                if last == self.side:
                    captured += table
                parts = self.race.parts(tallies, self.side)
                score = sum(parts)
        else:
            if not self.one_ply:
                h = k.hand_sizes[self.next_seat] if left else HAND_SIZE  # else every hand is dealt 3 more
                hand = tuple(c for c in k.hand if c is not card) if left else ()
                reply = self._reply(tallies, last, table, h, left, hand)
                score = reply.value
                risk = reply.sweep_chance
                if risk > 0:
                    reasons.append(Reason.SWEEP_RISK)
                if reply.reach_7d:
                    reasons.append(Reason.LEAVES_SEVEN_OF_DIAMONDS)
                if reply.cost >= w.gives_captures:
                    reasons.append(Reason.GIVES_CAPTURES)
            if not taken and w.lay:  # a card laid is a card offered: the more it counts, the worse
                worth = self.worth[_kind(card)]
                score -= w.lay * worth
                if worth > self.worth[False, False, False] + 1e-9:
                    reasons.append(Reason.LAYS_SCORING_CARD)
        gained = [after > before + 1e-9 for after, before in zip(parts, self.before, strict=True)]
        if gained[0]:
            reasons.append(Reason.TAKES_CARDS)
        if gained[1]:
            reasons.append(Reason.TAKES_DIAMONDS)
        if gained[2]:
            if any(c.rank is Rank.SEVEN for c in captured):
                reasons.append(Reason.TAKES_SEVENS)
            if any(c.rank is Rank.SIX for c in captured):
                reasons.append(Reason.TAKES_SIXES)
        if gained[3]:
            reasons.append(Reason.TAKES_SEVEN_OF_DIAMONDS)
        if self.keep_seven and any(c.rank is Rank.SEVEN and c is not card for c in k.hand):
            score += self.keep_seven
            reasons.append(Reason.KEEPS_SEVEN)
        return PlayMove(card, taken), score, reasons, risk

    def _reply(
        self,
        tallies: _Tallies,
        last: int | None,
        table: tuple[Card, ...],
        h: int,
        left: int,
        hand: tuple[Card, ...],
    ) -> _Reply:
        """The next player holds ``h`` of the unseen cards, any ``h`` alike, and plays one. For each
        card he may hold, his best choice on ``table``; then (two players) our best capture with
        ``hand`` on what he leaves. Exact expectations over the hands he may hold."""
        unseen = len(self.unseen)
        h = min(h, unseen)
        race, me, them = self.race, self.side, self.next_side
        two = self.n == 2
        base_me = race.value(tallies, me)
        if h == 0:
            return _Reply(base_me, 0.0, 0.0, False)
        base_them = -base_me if two else race.value(tallies, them)
        stock = self.k.stock_size
        his_last = stock == 0 and left == 1  # his play ends the round
        our_last = stock == 0 and left == 2
        by_value: dict[int, Any] = {}
        memo: dict[tuple[int, bool | None], tuple[float, float]] = {}
        pack = _PACK.__getitem__
        follow = self.follows and bool(hand)
        follows: dict[int, float] = {}
        follow_pack = self.follow_pack.__getitem__
        table_kind = sum(map(follow_pack, table))
        rated: list[tuple[float, float, float, float, int, bool]] = []  # his gain, our value, cost, mean, n, sweeps
        reach_7d = False
        for (value, _), cards in self.classes:
            rep = cards[0]  # the cards of a class capture alike and count alike in the race
            caps = by_value.get(value)
            work = 0
            if caps is None:
                caps = by_value[value] = captures_of(self.rules, table, rep, his_last)
                work = _table_work(table)
            choices = [(o, caps.sweeps(i)) for i, o in enumerate(caps.options)] or [((), False)]
            self._spend(len(choices) + work)
            best: tuple[float, float, float] | None = None
            total = 0.0
            rep_kind = pack(rep)
            for option, sweeps in choices:
                # The race values after his play depend only on what it counts for: computed once
                # per kind of capture (a huge table has hundreds of captures of a few kinds).
                key = (rep_kind + sum(map(pack, option)), sweeps) if option else (rep_kind, None)
                known = memo.get(key)
                if known is None:
                    holder: int | None
                    if option:
                        after = tallies.add(them, (rep, *option), sweeps)
                        rest = tuple(c for c in table if c not in option)
                        holder = them
                    else:
                        after, rest, holder = tallies, (*table, rep), last
                    if his_last and rest and holder is not None:
                        after = after.add(holder, rest, False)
                    mine = race.value(after, me)
                    known = memo[key] = (mine, 0.0 if two else race.value(after, them) - base_them)
                mine, his_gain = known
                if option and not reach_7d:
                    reach_7d = SEVEN_OF_DIAMONDS in option
                ours = mine
                if follow:  # his play cannot end the round: we still hold cards
                    # Our best capture depends only on the values and kinds of the cards he leaves.
                    left_kind = table_kind - sum(map(follow_pack, option)) if option else table_kind + follow_pack(rep)
                    next_gain = follows.get(left_kind)
                    if next_gain is None:
                        rest = tuple(c for c in table if c not in option) if option else (*table, rep)
                        next_gain = follows[left_kind] = self._follow(rest, hand, our_last)
                    ours += next_gain
                gain = base_me - ours if two else his_gain
                total += ours
                if best is None or gain > best[0]:
                    best = (gain, ours, base_me - mine)
            assert best is not None
            rated.append((*best, total / len(choices), len(cards), caps.sweeping is not None))
        rated.sort(key=lambda r: -r[0])  # his best card first; ties keep the canonical class order
        combos = math.comb(unseen, h)
        best_value = best_cost = uniform = 0.0
        seen, none_before, sweepers = 0, 1.0, 0
        for _, ours, cost, mean, count, sweeps in rated:
            seen += count
            none_after = math.comb(unseen - seen, h) / combos  # none of the cards rated so far in his hand
            chance = none_before - none_after  # his best card is of this class
            best_value += ours * chance
            best_cost += cost * chance
            uniform += mean * count / unseen
            none_before = none_after
            sweepers += count if sweeps else 0
        sweep_chance = 1.0 - math.comb(unseen - sweepers, h) / combos
        p = self.w.pessimism
        return _Reply(p * best_value + (1 - p) * uniform, best_cost, sweep_chance, reach_7d)

    def _spend(self, work: int) -> None:
        self.spent += work
        if self.spent > self.meter.budget.reply_steps:
            raise self.meter.over_steps()
        self.meter.check_time(work)

    def _follow(self, table: tuple[Card, ...], hand: tuple[Card, ...], last_play: bool) -> float:
        """What our best capture with ``hand`` on ``table`` is worth, the cards valued one by one."""
        worth = self.worth
        best = 0.0
        for card in hand:
            caps = captures_of(self.rules, table, card, last_play)
            self._spend(1 + len(caps.options) + _table_work(table))
            if not caps.options:
                continue
            own = worth[_kind(card)]
            for i, option in enumerate(caps.options):
                gain = own + sum(worth[_kind(c)] for c in option)
                if caps.sweeps(i):
                    gain += self.sweep_worth
                if gain > best:
                    best = gain
        return self.w.follow * best


class _Reply(NamedTuple):
    value: float  # our expected race value after his play (and our next capture)
    cost: float  # what his best card takes from us, expected
    sweep_chance: float  # the chance that he holds a card that sweeps
    reach_7d: bool  # some card he may hold takes 7D


_FOLLOW_PACKS: dict[str, Mapping[Card, int]] = {}


def _follow_pack(profile: str, values: Mapping[Card, int]) -> Mapping[Card, int]:
    """A table by the value and the race kind of each card, packed in one int (3 bits a count):
    tables alike in this are alike for our next capture. One mapping per profile."""
    found = _FOLLOW_PACKS.get(profile)
    if found is None:
        found = _FOLLOW_PACKS[profile] = {
            c: 1 << 3 * (8 * values[c] + 4 * _kind(c)[0] + 2 * _kind(c)[1] + _kind(c)[2]) for c in DECK
        }
    return found


def _table_work(table: Sequence[Card]) -> int:
    """The steps of finding captures on a big table, beyond one per option found: the search for
    sums grows with the table (and scopa keeps only a few of the sums it finds). Tables of real
    rounds, of 12 cards or fewer, cost nothing more."""
    return max(0, len(table) - 12)


def _kind(card: Card) -> tuple[bool, bool, bool]:
    """What a card counts for in the race: diamond, seven, six."""
    return card.suit is Suit.DIAMONDS, card.rank is Rank.SEVEN, card.rank is Rank.SIX


# What a set of cards counts for, packed in one int so that a sum adds it up: the number of cards,
# of diamonds, of sevens, of sixes and of 7D, six bits each (at most 40 of anything).
_PACK: Final = {
    c: 1
    + ((c.suit is Suit.DIAMONDS) << 6)
    + ((c.rank is Rank.SEVEN) << 12)
    + ((c.rank is Rank.SIX) << 18)
    + ((c is SEVEN_OF_DIAMONDS) << 24)
    for c in DECK
}


def _ordered(reasons: Sequence[Reason]) -> tuple[Reason, ...]:
    return tuple(sorted(set(reasons), key=_REASON_ORDER.__getitem__))


# ---- the exact endgame: two players, empty stock -----------------------------------------------------

_Position = tuple[
    tuple[Card, ...],  # table
    tuple[tuple[Card, ...], ...],  # hands
    tuple[tuple[Card, ...], ...],  # piles
    tuple[int, ...],  # sweeps
    int | None,  # last capturer
]


class _Endgame:
    """Two players, empty stock: the other hand is exactly the unseen cards, so the rest of the round
    is searched (minimax on the final margin; the last play never sweeps, RULES.md §5; the table goes
    to the last capturer, §6). At most three cards each: a few hundred positions."""

    def __init__(self, k: SeatKnowledge, meter: _Meter | None = None) -> None:
        self.k = k
        self.meter = meter or _Meter(DEFAULT_BUDGET)
        self.rules = k.rules
        self.me = k.seat
        self.memo: dict[tuple[Any, ...], tuple[float, int | None]] = {}
        self.leaves: dict[tuple[Any, ...], float] = {}
        self.nodes = 0

    def score(self, plays: list[_Play]) -> list[_Scored]:
        """Raises ``_OverBudget`` past the endgame budget (each play is a position at least: a
        hopeless search is not started)."""
        if len(plays) > self.meter.budget.endgame_steps:
            raise self.meter.over_steps()
        k, me = self.k, self.me
        hands: list[tuple[Card, ...]] = [(), ()]
        hands[me], hands[1 - me] = tuple(sorted(k.hand)), k.unseen()
        start: _Position = (k.table, tuple(hands), k.piles, k.sweeps, k.last_capturer)
        scores = self.rules.scores
        scored = []
        for play in plays:
            value, last = self._value(self._after(start, me, play), 1 - me)
            card, taken, sweep = play
            captured = (card, *taken) if taken else ()
            reasons = [Reason.EXACT_ENDGAME]
            if sweep:
                reasons.append(Reason.SWEEPS)
            if captured:
                reasons.append(Reason.TAKES_CARDS)
            if scores("diamonds") and any(c.suit is Suit.DIAMONDS for c in captured):
                reasons.append(Reason.TAKES_DIAMONDS)
            if scores("sevens") and any(c.rank is Rank.SEVEN for c in captured):
                reasons.append(Reason.TAKES_SEVENS)
            if (
                scores("sevens")
                and self.rules.profile.sevens_tiebreak_by_sixes
                and any(c.rank is Rank.SIX for c in captured)
            ):
                reasons.append(Reason.TAKES_SIXES)
            if SEVEN_OF_DIAMONDS in captured:
                reasons.append(Reason.TAKES_SEVEN_OF_DIAMONDS)
            if last == me:
                reasons.append(Reason.WINS_LAST_CAPTURE)
            scored.append((round(value, 4), _ordered(reasons)))
        return scored

    @staticmethod
    def _after(pos: _Position, seat: int, play: _Play) -> _Position:
        table, hands, piles, sweeps, last = pos
        card, taken, sweep = play
        new_hands = tuple(tuple(c for c in h if c is not card) if s == seat else h for s, h in enumerate(hands))
        if not taken:
            return (*table, card), new_hands, piles, sweeps, last
        new_piles = tuple((*p, card, *taken) if s == seat else p for s, p in enumerate(piles))
        new_sweeps = tuple(n + sweep if s == seat else n for s, n in enumerate(sweeps))
        return tuple(c for c in table if c not in taken), new_hands, new_piles, new_sweeps, seat

    def _value(self, pos: _Position, turn: int) -> tuple[float, int | None]:
        """The final margin for our seat under best play from both seats, and who captures last."""
        self._spend(1)
        table, hands, piles, sweeps, last = pos
        left = len(hands[0]) + len(hands[1])
        if left == 0:
            return self._final(pos), last
        key = (table, hands, frozenset(piles[0]), sweeps, last, turn)
        known = self.memo.get(key)
        if known is not None:
            return known
        best: tuple[float, int | None] | None = None
        maximize = turn == self.me
        for card in hands[turn]:
            caps = captures_of(self.rules, table, card, left == 1)
            self._spend(len(caps.options) + _table_work(table))
            options: list[tuple[tuple[Card, ...], bool]] = [(o, caps.sweeps(i)) for i, o in enumerate(caps.options)]
            for option, sweep in options or [((), False)]:
                got = self._value(self._after(pos, turn, (card, option, sweep)), 1 - turn)
                if best is None or (got[0] > best[0] if maximize else got[0] < best[0]):
                    best = got
        assert best is not None
        self.memo[key] = best
        return best

    def _spend(self, work: int) -> None:
        """One step per position and per capture option generated."""
        self.nodes += work
        if self.nodes > self.meter.budget.endgame_steps:
            raise self.meter.over_steps()
        self.meter.check_time(work)

    def _final(self, pos: _Position) -> float:
        table, _, piles, sweeps, last = pos
        if table and last is not None:
            piles = tuple((*p, *table) if s == last else p for s, p in enumerate(piles))
        key = (frozenset(piles[0]), sweeps, last)
        known = self.leaves.get(key)
        if known is None:
            tallies = [Tally.of_pile(p, n) for p, n in zip(piles, sweeps, strict=True)]
            totals = [s.total for s in score_round(self.rules, tallies, last)]
            known = self.leaves[key] = float(totals[self.me] - totals[1 - self.me])
        return known
