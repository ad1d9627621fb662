"""Round scoring (docs/rules.md §7): per-side tallies, the breakdown, and a verdict on a claimed one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from itertools import repeat
from operator import attrgetter
from typing import Any

from .cards import DECK, SEVEN_OF_DIAMONDS, Card, Rank, Suit, check_disjoint
from .errors import DuplicateCard, InvalidCounts
from .profiles import CATEGORIES, Rules, RulesLike
from .sweeps import MAX_SWEEPS, possible_in_a_round

TOTALS = {"cards": len(DECK), "diamonds": 10, "sevens": 4, "sixes": 4}
COUNT_FIELDS = ("cards", "diamonds", "sevens", "sixes", "sweeps")  # none may be negative
_totalled = attrgetter(*TOTALS)
_counts = attrgetter(*COUNT_FIELDS)
# Italian primiera values (004 gives only the order, "mirroring Italian Scopa"; docs/rules.md §7).
PRIMIERA_POINTS = {
    Rank.SEVEN: 21, Rank.SIX: 18, Rank.ACE: 16, Rank.FIVE: 15, Rank.FOUR: 14,
    Rank.THREE: 13, Rank.TWO: 12, Rank.JACK: 10, Rank.QUEEN: 10, Rank.KING: 10,
}  # fmt: skip


# Each card's counts packed in one integer, 32 bits each: diamonds, sevens, sixes, 7D. Summing a
# pile's integers counts all four in one pass of C loops (anything that is not a card counts 0).
_FIELD = 32
_MASK = (1 << _FIELD) - 1
_PACKED = {
    c: (c.suit is Suit.DIAMONDS)
    | (c.rank is Rank.SEVEN) << _FIELD
    | (c.rank is Rank.SIX) << 2 * _FIELD
    | (c is SEVEN_OF_DIAMONDS) << 3 * _FIELD
    for c in DECK
}


@dataclass(frozen=True, slots=True)
class Tally:
    """What one side captured in a round, as counts; ``pile`` keeps the cards when they are known."""

    cards: int
    diamonds: int
    sevens: int
    sixes: int
    seven_of_diamonds: bool
    sweeps: int
    pile: tuple[Card, ...] | None = None
    # False for counts that leave out sevens and sixes, which only a profile scoring the sevens needs
    # (chkobba): ``sevens`` and ``sixes`` then hold 0 and say nothing, and the checks find whether some
    # sevens and sixes the sides could hold make the counts a round's.
    sevens_given: bool = True

    @classmethod
    def of_pile(cls, pile: Sequence[Card], sweeps: int) -> Tally:
        packed = sum(map(_PACKED.get, pile, repeat(0)))
        return cls(
            len(pile),
            packed & _MASK,  # diamonds
            packed >> _FIELD & _MASK,  # sevens
            packed >> 2 * _FIELD & _MASK,  # sixes
            packed >> 3 * _FIELD > 0,  # 7D
            sweeps,
            tuple(pile),
        )


@dataclass(frozen=True, slots=True)
class SideScore:
    side: int
    cards: int
    diamonds: int
    sevens: int
    seven_of_diamonds: int
    sweeps: int
    primiera: int
    total: int

    def to_json(self) -> dict[str, int]:
        return {
            "side": self.side,
            "cards": self.cards,
            "diamonds": self.diamonds,
            "sevens": self.sevens,
            "seven_of_diamonds": self.seven_of_diamonds,
            "sweeps": self.sweeps,
            "primiera": self.primiera,
            "total": self.total,
        }


SCORE_FIELDS = tuple(f.name for f in fields(SideScore))
CATEGORY_FIELDS = SCORE_FIELDS[1:]  # the categories and total
_score_values = attrgetter(*SCORE_FIELDS)


@dataclass(frozen=True, slots=True)
class Discrepancy:
    side: int
    category: str
    claimed: Any
    expected: Any

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "category": self.category, "claimed": self.claimed, "expected": self.expected}


def most_points(rules: Rules) -> int:
    """The most points a round of ``rules`` gives, to one side or to all sides together: each
    category's point goes to one side at most, and the round makes at most MAX_SWEEPS sweeps."""
    return sum(rules.scores(c) for c in CATEGORIES if c != "sweeps") + MAX_SWEEPS * rules.scores("sweeps")


MOST_POINTS = len(CATEGORIES) - 1 + MAX_SWEEPS  # a bound over every profile; most_points() is each one's own


def check_tallies(rules: Rules, tallies: Sequence[Tally]) -> None:
    """Raise ``InvalidCounts`` unless the tallies can be the piles of one finished round."""
    profile = rules.profile
    if len(tallies) not in profile.side_counts():
        allowed = " or ".join(map(str, profile.side_counts()))
        raise InvalidCounts(f"{profile.id} is scored for {allowed} sides, not {len(tallies)}", field="sides")
    # A card in two piles first: naming it and both places says more than the totals it upsets.
    check_disjoint([(f"sides.{s}.captured", t.pile) for s, t in enumerate(tallies) if t.pile is not None])
    _check_seven_of_diamonds_once(tallies)
    unknown = [s for s, t in enumerate(tallies) if not t.sevens_given]
    if unknown and rules.scores("sevens"):
        raise InvalidCounts(
            f"{profile.id} scores the sevens, the most sixes breaking a tie (docs/rules.md §7.2): give side "
            f"{unknown[0]}'s sevens and sixes",
            field=f"sides.{unknown[0]}.counts.sevens",
            category="sevens",
        )
    for side, t in enumerate(tallies):
        if min(_counts(t)) < 0:
            name = next(name for name, count in zip(COUNT_FIELDS, _counts(t), strict=True) if count < 0)
            raise InvalidCounts(f"side {side}: {name} cannot be negative", field=f"sides.{side}.{name}")
    # The totals next: a partial pile is short of the deck's cards before it is anything else.
    sums = map(sum, zip(*map(_totalled, tallies), strict=True))  # per category of TOTALS, over the sides
    for (name, total), got in zip(TOTALS.items(), sums, strict=True):
        if got != total and not (unknown and name in ("sevens", "sixes")):
            raise InvalidCounts(f"the sides' {name} add up to {got}, not {total}", field="sides", category=name)
    for side, t in enumerate(tallies):
        if t.cards == 1:
            raise InvalidCounts(
                f"side {side} captured 1 card: every capture takes the card played and at least one more "
                "(docs/rules.md §10.18)",
                field=f"sides.{side}.{'cards' if t.pile is None else 'captured'}",
            )
        if t.cards == 2:
            _check_one_capture_of_two(side, t)
        if t.sweeps > t.cards // 2:
            raise InvalidCounts(
                f"side {side}: {t.sweeps} sweeps need at least {2 * t.sweeps} captured cards, not {t.cards}",
                field=f"sides.{side}.sweeps",
            )
        if t.seven_of_diamonds and not ((t.sevens or not t.sevens_given) and t.diamonds):
            raise InvalidCounts(
                f"side {side} holds 7D, so it counts at least one seven and one diamond", field=f"sides.{side}"
            )
        if t.diamonds > t.cards or t.sevens + t.sixes > t.cards:
            raise InvalidCounts(f"side {side} counts more special cards than cards", field=f"sides.{side}")
    swept = tuple(t.sweeps for t in tallies)
    if any(swept) and not possible_in_a_round(swept):
        raise InvalidCounts(
            f"no round makes the sweeps {list(swept)}: the sides play in turn, no play right after a sweep can "
            f"sweep, and the last play never does, so a round makes at most {MAX_SWEEPS} in all, and that many "
            "only by the leader's side (docs/rules.md §10.17)",
            field="sides",
            category="sweeps",
        )
    for side, t in enumerate(tallies):
        if t.sweeps == MAX_SWEEPS and t.cards != TOTALS["cards"]:
            raise InvalidCounts(
                f"side {side} made {MAX_SWEEPS} sweeps, every other play: the others never captured, so it holds "
                f"every card, not {t.cards} (docs/rules.md §10.17)",
                field=f"sides.{side}.cards",
            )
    holders = sum(t.seven_of_diamonds for t in tallies)
    if holders != 1:
        raise InvalidCounts(f"exactly one side holds 7D, not {holders}", field="sides", category="seven_of_diamonds")
    if unknown:
        _check_some_sevens_fit(tallies)
    else:
        _check_room(tallies)
    if rules.primiera and any(t.pile is None for t in tallies):
        raise InvalidCounts("primiera is scored from the captured cards: give every side's pile", field="sides")


def _check_seven_of_diamonds_once(tallies: Sequence[Tally]) -> None:
    """7D in one side's pile and in another side's counts is one card in two places (§10.21)."""
    in_piles = [s for s, t in enumerate(tallies) if t.pile is not None and t.seven_of_diamonds]
    in_counts = [s for s, t in enumerate(tallies) if t.pile is None and t.seven_of_diamonds]
    if in_piles and in_counts:
        first, second = sorted([f"sides.{in_piles[0]}.captured", f"sides.{in_counts[0]}.counts.seven_of_diamonds"])
        raise DuplicateCard(f"7D is both in {first} and in {second}", field=second, card="7D", places=[first, second])


def _check_one_capture_of_two(side: int, t: Tally) -> None:
    """A side with two cards made one capture of two: a card and one of its value (§10.18)."""
    place = f"sides.{side}.captured" if t.pile is not None else f"sides.{side}"
    same = (
        len({c.rank for c in t.pile}) == 1
        if t.pile is not None
        else (t.diamonds <= 1 and (not t.sevens_given or (t.sevens in (0, 2) and t.sixes in (0, 2))))
    )
    if not same:
        raise InvalidCounts(
            f"side {side} captured 2 cards that do not share a value: a capture of two cards takes a card of "
            "the played card's value (docs/rules.md §10.18)",
            field=place,
        )


def _check_room(tallies: Sequence[Tally]) -> None:
    """Each side's diamonds, sevens and sixes must fit in its cards. They overlap only in 7D and in
    6D, and exactly one side holds 6D, so one side that can hold it may count one card less."""
    base = [t.diamonds + t.sevens + t.sixes - t.seven_of_diamonds for t in tallies]
    may_hold_6d = [t.sixes >= 1 and t.diamonds - t.seven_of_diamonds >= 1 for t in tallies]
    for holder, eligible in enumerate(may_hold_6d):
        if eligible and all(t.cards >= b - (s == holder) for s, (t, b) in enumerate(zip(tallies, base, strict=True))):
            return
    raise InvalidCounts(
        "the counts do not fit together: some side counts more diamonds, sevens and sixes than its cards "
        "can hold (they overlap only in 7D and 6D)",
        field="sides",
    )


def _check_some_sevens_fit(tallies: Sequence[Tally]) -> None:
    """``_check_room`` for counts of which some leave out the sevens and sixes: whether some sevens and
    sixes for those sides (4 of each in all) pass every check that the given ones would, 6D held by one
    side. A walk over the sides, keeping the reachable (sevens, sixes, 6D placed) so far: 50 states."""
    reachable = {(0, 0, False)}
    for t in tallies:
        pairs = (
            [(t.sevens, t.sixes)]
            if t.sevens_given
            else [
                (sevens, sixes)
                for sevens in range(int(t.seven_of_diamonds), TOTALS["sevens"] + 1)
                for sixes in range(TOTALS["sixes"] + 1)
                if sevens + sixes <= t.cards and (t.cards != 2 or (sevens in (0, 2) and sixes in (0, 2)))
            ]
        )
        options = []
        for sevens, sixes in pairs:
            room = t.diamonds + sevens + sixes - t.seven_of_diamonds  # cards they need, 7D counted once
            if room <= t.cards:
                options.append((sevens, sixes, False))
            if sixes >= 1 and t.diamonds - t.seven_of_diamonds >= 1 and room - 1 <= t.cards:  # may hold 6D
                options.append((sevens, sixes, True))
        reachable = {
            (sevens + s, sixes + x, placed or holds)
            for sevens, sixes, placed in reachable
            for s, x, holds in options
            if not (placed and holds) and sevens + s <= TOTALS["sevens"] and sixes + x <= TOTALS["sixes"]
        }
    if (TOTALS["sevens"], TOTALS["sixes"], True) not in reachable:
        raise InvalidCounts(
            "the counts do not fit together: whatever sevens and sixes the sides that leave them out hold, some "
            "side counts more diamonds, sevens and sixes than its cards can hold (they overlap only in 7D and 6D)",
            field="sides",
        )


def score_round(rules: RulesLike, tallies: Sequence[Tally], last_capturer: int | None = None) -> tuple[SideScore, ...]:
    """The breakdown per side. Checks the tallies first; ``last_capturer`` (a side) matters only to
    ``ties_to_last_capturer``."""
    rules = Rules.of(rules)
    check_tallies(rules, tallies)
    if last_capturer is not None and 0 <= last_capturer < len(tallies) and not tallies[last_capturer].cards:
        raise InvalidCounts(
            f"last_capturer is side {last_capturer}, which captured nothing (docs/rules.md §10.6)",
            field="last_capturer",
        )
    return scored(rules, tallies, last_capturer)


def scored(rules: Rules, tallies: Sequence[Tally], last_capturer: int | None) -> tuple[SideScore, ...]:
    """``score_round`` for tallies known to be consistent: those of a round the engine played
    (``round_breakdown``), or checked by ``check_tallies``."""
    n = len(tallies)
    if last_capturer is not None and not 0 <= last_capturer < n:
        raise InvalidCounts(f"last_capturer must be a side from 0 to {n - 1}", field="last_capturer")
    ties_to = tie_taker(rules, last_capturer)
    scores = rules.scores
    # The side that takes each point, in SideScore's order, or None (a tie, or not scored here).
    cards = award_most([t.cards for t in tallies], ties_to) if scores("cards") else None
    diamonds = award_most([t.diamonds for t in tallies], ties_to) if scores("diamonds") else None
    if scores("sevens"):
        sevens = award_sevens(
            [t.sevens for t in tallies], [t.sixes for t in tallies], rules.profile.sevens_tiebreak_by_sixes
        )
    else:
        sevens = None
    holder = next(s for s, t in enumerate(tallies) if t.seven_of_diamonds) if scores("seven_of_diamonds") else None
    sweeps = scores("sweeps")
    primiera = _primiera(tallies) if rules.primiera else None  # scores("primiera") is rules.primiera
    breakdown = []
    for side, t in enumerate(tallies):
        points = (
            int(cards == side),
            int(diamonds == side),
            int(sevens == side),
            int(holder == side),
            t.sweeps if sweeps else 0,
            int(primiera == side),
        )
        breakdown.append(SideScore(side, *points, sum(points)))
    return tuple(breakdown)


def tie_taker(rules: Rules, last_capturer: int | None) -> int | None:
    """The side that takes a point of cards or diamonds when the top is shared (docs/rules.md §7.2,
    §7.4): the last capturer under ``ties_to_last_capturer`` (if it is one of the tied sides, which
    ``award_most`` checks), else nobody. Pass it to ``award_most`` as ``ties_to``."""
    return last_capturer if rules.ties_to_last_capturer else None


def award_most(values: Sequence[int], ties_to: int | None = None) -> int | None:
    """The side that takes a point won by the most (cards, diamonds, primiera), from each side's
    value: the one side with strictly the most; when the top is shared, ``ties_to`` if it is one of
    the tied sides (``tie_taker``), else nobody (None)."""
    top = max(values)
    tied = [s for s, v in enumerate(values) if v == top]
    if len(tied) == 1:
        return tied[0]
    return ties_to if ties_to in tied else None


def award_sevens(sevens: Sequence[int], sixes: Sequence[int], tiebreak_by_sixes: bool) -> int | None:
    """The side that takes the sevens point, from each side's sevens and sixes (docs/rules.md §7.2):
    the most sevens; among the sides tied on them, the most sixes when ``tiebreak_by_sixes``
    (``Profile.sevens_tiebreak_by_sixes``); else, or when the sixes tie too, nobody (None)."""
    top = max(sevens)
    tied = [s for s, v in enumerate(sevens) if v == top]
    if len(tied) == 1 or not tiebreak_by_sixes:
        return tied[0] if len(tied) == 1 else None
    best = award_most([sixes[s] for s in tied])
    return None if best is None else tied[best]


def primiera_total(pile: Sequence[Card]) -> int | None:
    """The sum of the best primiera card per suit, or None when a suit is missing."""
    best: dict[Suit, int] = {}
    for card in pile:
        best[card.suit] = max(best.get(card.suit, 0), PRIMIERA_POINTS[card.rank])
    return sum(best.values()) if len(best) == len(Suit) else None


def _primiera(tallies: Sequence[Tally]) -> int | None:
    totals = [primiera_total(t.pile or ()) for t in tallies]
    qualifying = [total if total is not None else -1 for total in totals]
    if max(qualifying) < 0:
        return None
    return award_most(qualifying)


def check_claim_form(claimed: Sequence[Mapping[str, Any]], sides: int) -> None:
    """A claimed breakdown gives every category of every side, in order (docs/rules.md §10.11):
    checked whether or not the round can be scored, so a malformed claim is never merely unjudged."""
    if len(claimed) != sides:
        raise InvalidCounts(f"the claim covers {len(claimed)} sides; the round has {sides}", field="claimed")
    for side, claim in enumerate(claimed):
        if claim.get("side", side) != side:
            raise InvalidCounts("claimed entries must list the sides in order from 0", field="claimed")
        missing = [c for c in CATEGORY_FIELDS if c not in claim]
        if missing:
            raise InvalidCounts(f"the claim for side {side} lacks {', '.join(missing)}", field="claimed")


def compare_breakdown(expected: Sequence[SideScore], claimed: Sequence[Mapping[str, Any]]) -> list[Discrepancy]:
    """One discrepancy per side and category (total included) where the claim differs. A claim
    must give every category: one that leaves some out is malformed, not a silent agreement."""
    check_claim_form(claimed, len(expected))
    found = []
    for score, claim in zip(expected, claimed, strict=True):
        for category, value in zip(CATEGORY_FIELDS, _score_values(score)[1:], strict=True):
            if claim[category] != value:
                found.append(Discrepancy(score.side, category, claim[category], value))
    return found
