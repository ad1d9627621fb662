"""The rules of Chkobba and its Scopa-family relatives, as a pure library (docs/rules.md, openapi.yaml).

This package imports only the standard library: no web framework, no metrics, no logging set-up, no
environment reads. A referee can use it with no server at all; the HTTP layer only calls it.

Rules
    ``Rules.of(spec)``: ``spec`` is a profile id (``"chkobba"``, ``"chkobba-crp"``, ``"scopa"``) or
    ``{"profile": ..., "options": {...}}``. ``PROFILES`` holds the profiles as data.
Cards
    ``Card.parse("7D")``, ``str(card)``, ``parse_cards(codes)`` (rejects bad codes and duplicates),
    ``DECK`` (the canonical order), ``seeded_deck(seed)`` (the portable shuffle), ``random_deck()``;
    ``parse_deck(codes)`` (``deck_of`` for the common case) gives a ``Deck``, which a deal takes unchecked.
Captures and plays
    ``legal_captures(rules, table, card, last_play=False) -> Captures``: the card's value, the kind
    (match, sum, none) and its options, each the tuple of table cards taken in table order, listed
    in lexicographic order of table positions; ``Captures.sweep_option`` is the index of the option that
    empties the table, if any. ``hand_captures(rules, table, hand)``: the same for every hand card
    (``hand_captures_of`` for a table and a hand already parsed).
    ``apply_play(rules, table, hand, card, capture=None, last_play=False) -> PlayResult``; raises
    ``CardNotHeld``, ``AmbiguousCapture`` or ``IllegalMove``, each carrying the legal options
    (``apply_play_of`` for values already parsed).
    ``HAND_SIZE``: the cards each hand is dealt at a time. ``table_after(table, card, taken)``: the
    table once a play is made (the cards taken leave it, else the card is laid).
Rounds
    ``deal_round(rules, players, dealer, deck=... | seed=..., cut=None) -> (RoundState, deck)``,
    ``play(state, move) -> (RoundState, Event)`` (validates the state first), ``advance(state, move)``
    (the same for a state already validated, by ``from_json`` say, or built by the core), ``parse_move(json)``,
    ``legal_moves(state)``, ``round_breakdown(state)``, ``RoundState.to_json()`` and
    ``RoundState.from_json(data)`` (validates against docs/rules.md §9). ``is_last_play(stock_size,
    cards_in_hands)`` is the one definition of the round's last play (it never sweeps; the last
    capturer then takes the table). ``refill_size(stock_size, cards_in_hands)``: what the stock deals
    each hand after a play (``HAND_SIZE`` once every hand is empty, else 0); ``next_seat(players,
    seat)``: who plays after a seat. ``RoundInPlay(state)`` is the engine itself, a round changed in
    place: ``move(move)``, ``legal_captures()``, ``copy()`` (for a search) and ``state()``.
Scoring and the match
    ``score_round(rules, tallies, last_capturer=None)`` with ``Tally.of_pile(pile, sweeps)`` or
    ``Tally(cards=..., ...)`` (checked for consistency; ``TOTALS``: the deck's count of each kind),
    ``compare_breakdown(expected, claimed)``; the awards it makes from each side's values,
    ``award_most(values, ties_to)`` (cards, diamonds, primiera; ``tie_taker(rules, last_capturer)``
    is the side a shared top goes to) and ``award_sevens(sevens, sixes, tiebreak_by_sixes)``.
    ``decide_match(rules, scores, round_points) -> Decision``, ``compare_decision(...)``.
Replays
    ``replay_round(rules, players, dealer, moves, deck=..., cut=None) -> Replay``: a verdict per
    move, stopping at the first illegal one, with the final state and, if complete, the breakdown;
    ``Replay.judge(claimed) -> ClaimVerdict`` (right, wrong or cannot-be-judged, ``CLAIM_VERDICTS``).
    ``replay_match(rules, players, dealer, rounds, claimed=None) -> MatchReplay``: a whole match
    record, round by round (``RoundResult``: the replay, the ``DealerCheck`` against the rotation, the
    scores and the decision after it), up to the first illegal move; ``MAX_ROUNDS``, ``same_rules``.
The turn clock and committed deals
    ``TurnClock`` (a clocked round's turn and grace), ``Stamp`` (when a record's move was made, and
    whether it was played on timeout), ``time_problem``; ``replay_round(..., clock=, stamps=,
    default_move=)`` judges a record's times (docs/rules.md §10.25). ``commitment_of(server_seed)``,
    ``fair_seed_text`` and ``fair_deck`` derive a committed deal, ``check_fair_deal`` checks a
    record's (docs/rules.md §10.26).
Seat views
    ``seat_view(state, seat) -> SeatView``: what one seat may know (its own hand, everything played
    in the open, the sizes of what is hidden), with ``to_json()``. The move hints, built on that
    view and this API, are not part of the rules: ``service.strategy``.
Errors
    Every error derives from ``RulesError`` and has a stable ``code`` and, where it applies, the
    ``field`` it concerns.
"""

from .captures import HAND_SIZE, CaptureKind, Captures, captures_of, hand_captures, hand_captures_of, legal_captures
from .cards import DECK, RANKS, SEVEN_OF_DIAMONDS, SUITS, Card, Deck, Rank, Suit, deck_of, parse_cards, parse_deck
from .clock import (
    AUTO_TIMEOUT,
    BadTime,
    ClockRunning,
    NotTheDefaultMove,
    Stamp,
    TurnClock,
    TurnExpired,
    stamp_of,
    time_problem,
)
from .errors import (
    AmbiguousCapture,
    BadState,
    CardNotHeld,
    DuplicateCard,
    IllegalMove,
    InconsistentRecord,
    InvalidCard,
    InvalidCounts,
    InvalidInput,
    InvalidOption,
    InvalidScores,
    MatchAlreadyOver,
    MoveError,
    NoSuchSeat,
    NotYourTurn,
    RulesError,
    UnknownProfile,
    WrongPhase,
    check_seat,
)
from .fair import FairCheck, check_fair_deal, commitment_of, fair_deck
from .fair import seed_text as fair_seed_text
from .match import Decision, DecisionDiscrepancy, Outcome, compare_decision, decide_match
from .match_record import MAX_ROUNDS, DealerCheck, MatchReplay, RoundResult, judge_result, replay_match, same_rules
from .moves import PlayResult, apply_play, apply_play_of, table_after
from .profiles import CATEGORIES, PROFILES, Profile, Rules, SumPolicy
from .replay import (
    CLAIM_VERDICTS,
    ClaimVerdict,
    MoveVerdict,
    RecordMoves,
    Replay,
    parse_record_moves,
    record_json,
    replay_round,
)
from .round import (
    Cut,
    CutMove,
    Event,
    Move,
    PlayMove,
    RoundInPlay,
    advance,
    deal_round,
    is_last_play,
    legal_moves,
    parse_move,
    play,
    refill_size,
    round_breakdown,
)
from .scoring import (
    TOTALS,
    Discrepancy,
    SideScore,
    Tally,
    award_most,
    award_sevens,
    compare_breakdown,
    primiera_total,
    score_round,
    tie_taker,
)
from .seat_view import SeatView, seat_view, spectator_json
from .shuffle import random_deck, seeded_deck
from .state import Phase, RoundState, next_seat, validate

__all__ = [
    "CATEGORIES", "CLAIM_VERDICTS", "DECK", "HAND_SIZE", "MAX_ROUNDS", "PROFILES", "RANKS", "SEVEN_OF_DIAMONDS",
    "SUITS", "TOTALS",
    "ClaimVerdict", "DealerCheck", "InconsistentRecord", "MatchReplay", "RoundResult",
    "AmbiguousCapture", "BadState", "CaptureKind", "Captures", "Card", "CardNotHeld", "Cut", "CutMove", "Deck",
    "SeatView", "seat_view", "spectator_json",
    "Decision", "DecisionDiscrepancy", "Discrepancy", "DuplicateCard", "Event", "IllegalMove",
    "InvalidCard", "InvalidCounts", "InvalidInput", "InvalidOption", "InvalidScores", "MatchAlreadyOver",
    "Move", "MoveError", "MoveVerdict", "NoSuchSeat", "NotYourTurn", "Outcome", "Phase", "PlayMove", "PlayResult",
    "Profile", "Rank", "Replay", "RoundInPlay", "RoundState", "Rules", "RulesError", "SideScore",
    "Suit", "SumPolicy", "Tally", "UnknownProfile", "WrongPhase",
    "advance", "apply_play", "apply_play_of", "award_most", "award_sevens", "captures_of", "check_seat",
    "compare_breakdown", "compare_decision", "deal_round", "deck_of", "decide_match",
    "hand_captures", "hand_captures_of", "is_last_play", "judge_result", "legal_captures", "legal_moves", "next_seat",
    "parse_cards", "parse_deck", "parse_move", "play", "primiera_total", "random_deck", "record_json", "refill_size",
    "replay_match", "replay_round", "round_breakdown", "same_rules", "score_round", "seeded_deck", "table_after",
    "tie_taker", "validate",
    "AUTO_TIMEOUT", "BadTime", "ClockRunning", "NotTheDefaultMove", "Stamp", "TurnClock", "TurnExpired", "stamp_of",
    "time_problem",
    "RecordMoves", "parse_record_moves",
    "FairCheck", "check_fair_deal", "commitment_of", "fair_deck", "fair_seed_text",
]  # fmt: skip
