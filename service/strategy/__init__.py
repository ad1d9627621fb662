"""The move-hint strategy (docs/strategy.md, "Move hints"): every legal move of the seat to move, ranked best
first, each with a score and the reasons behind it, for a turn timer that runs out or a computer
opponent.

It is built on the rules core's public API alone (``service.rules``): the core lists the legal
captures, applies every move the endgame search explores, says when a play is the round's last, and
counts and scores what each side captured; the strategy only chooses. The rules core does not import
it. The modules:

``knowledge``  what the seat may know (``SeatKnowledge``, from its ``SeatView``) and its legal plays
``race``       what the captures so far are worth, as chances of each category (term 1 below)
``heuristic``  one ply, the next player's reply, our next capture and the habits (terms 1 to 4)
``endgame``    the exact search of two-player endgames (term 5)
``ranking``    ``suggest``, ``rank`` and the cut: which of the above scores the moves, and the order
``budget``     what one call may cost (``Budget``), and which budget cut a search short
``weights``    the tunable weights (``Weights``); ``answers``: ``Hint``, ``Hints``, ``Reason``
``levels``     the computer's levels (``rank_at``): ``beginner`` (``beginner``), ``club`` (all of the
               above) and ``expert`` (``expert``: club's terms with the weights that beat club)

The strategy sees only what the seat may know. ``rank_moves`` takes a ``SeatKnowledge`` and never a
``RoundState``, so it cannot read another hand or the order of the stock. The cards the seat cannot
see (the *unseen* cards: every card not in its hand, on the table or in a pile) are the only
candidates for the other hands.

The score of a move is the round's final point margin (the seat's side minus the mean of the other
sides) that the strategy expects after it (docs/strategy.md, "Move hints", gives every term with its weight):

1. **The race.** Each category still open (cards, diamonds, sevens then sixes, the seven of
   diamonds) is valued by the chance that the side takes its point as the core awards it (strictly
   the most; under ``ties_to_last_capturer`` a shared top in cards or diamonds goes to the side that
   captured last so far), when every card not yet captured falls to each side alike. A captured
   card is worth what it changes in those chances:
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
   docs/rules.md §6) and the score is the exact final margin.

Every call has a bounded cost (docs/strategy.md, "Move hints"), whatever the state: a ``Budget`` of counted
steps for the endgame search and for the reply terms, each falling back to the cheaper terms when
spent, and of CPU time as a safety net. Real rounds hardly ever reach the step budgets (2 calls of
the 549,672 of bench/hints.py); a crafted table (three kings to move on 12 table cards have 168
moves) does, and its moves are then scored by the race and the habits alone, one evaluation per kind
of capture. The answer says which budget, if any, shortened the search.

Deterministic: no randomness, ties broken by card order, then capture positions. Steps are counted,
so a step budget gives the same answer for the same input; only the time budget depends on the
machine, and it is sized to be reached only when the machine is far slower than the one the step
budgets were sized on.
"""

from .answers import REASONS, Hint, Hints, Reason
from .budget import DEFAULT_BUDGET, ENDGAME_BUDGET, REPLY_BUDGET, TIME_BUDGET, Budget, Shortened
from .knowledge import SeatKnowledge
from .levels import DEFAULT_LEVEL, LEVELS, hints_at, knowledge_seed, rank_at, suggest_at
from .ranking import mover_knowledge, rank, rank_moves, suggest, suggest_moves
from .weights import DEFAULT_WEIGHTS, WEIGHTS, Weights

__all__ = [
    "DEFAULT_BUDGET", "DEFAULT_LEVEL", "DEFAULT_WEIGHTS", "LEVELS", "ENDGAME_BUDGET", "REASONS", "REPLY_BUDGET",
    "TIME_BUDGET", "WEIGHTS",
    "Budget", "Hint", "Hints", "Reason", "SeatKnowledge", "Shortened", "Weights",
    "hints_at", "knowledge_seed", "mover_knowledge", "rank", "rank_at", "rank_moves", "suggest", "suggest_at",
    "suggest_moves",
]  # fmt: skip
