"""The heuristic: one ply and the next player's reply (terms 1 to 4 of the package docstring).

A play is valued in the race (``race.py``) after it, then after the next player's reply, his hand
drawn from the unseen cards, then (two players) after our best capture with the cards we keep; the
habits adjust the score. When our play or his ends the round, every card's place is known
(``SeatKnowledge.known_round``) and the core plays the end out: the last capturer takes the table.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NamedTuple

from service.rules import (
    DECK,
    SEVEN_OF_DIAMONDS,
    Card,
    PlayMove,
    RoundInPlay,
    Tally,
    captures_of,
    is_last_play,
    next_seat,
    refill_size,
    table_after,
)

from .answers import Reason, Scored, ordered
from .budget import DEFAULT_BUDGET, Meter, table_work
from .knowledge import Play, SeatKnowledge
from .race import KIND, PACK, PLAIN, Race, Standing
from .weights import Weights


class Heuristic:
    """Terms 1 to 4 of the package docstring."""

    def __init__(self, k: SeatKnowledge, w: Weights, meter: Meter | None = None) -> None:
        self.k, self.w = k, w
        self.meter = meter or Meter(DEFAULT_BUDGET)
        self.rules = k.rules
        self.n = k.sides
        self.side = k.side
        self.race = Race(k.rules, self.n, w)
        self.tallies = Standing.of(k.piles, k.sweeps, k.last_capturer)
        self.before = self.race.parts(self.tallies, self.side)
        self.unseen = k.unseen()
        self.next_seat = next_seat(k.players, k.seat)
        self.next_side = k.rules.profile.side_of(k.players, self.next_seat)
        scores_7d = k.rules.scores("seven_of_diamonds")
        self.keep_seven = w.keep_seven if scores_7d and SEVEN_OF_DIAMONDS in self.unseen else 0.0
        # The unseen cards by what matters to the race and to captures: value, and diamond or not.
        classes: dict[tuple[int, int], list[Card]] = {}
        values = k.rules.profile.card_values
        for c in self.unseen:
            classes.setdefault((values[c], KIND[c][0]), []).append(c)
        self.classes = sorted(classes.items())
        # Our next play comes right after the next player's only with two players.
        self.follows = k.players == 2 and w.follow > 0
        # What a card counts for, each alone: valued with our side as the last capturer before and after,
        # so that the capture that would take it (once, whatever it takes) is not counted in every card.
        ours = self.tallies.with_last(self.side)
        self.before_ours = self.race.parts(ours, self.side)  # the parts before a capture of ours
        base = sum(self.before_ours)
        self.worth: dict[tuple[int, int, int], float] = {}
        for card in DECK:
            key = KIND[card]
            if key not in self.worth:
                self.worth[key] = self.race.value(ours.add(self.side, (card,), False), self.side) - base
        self.sweep_worth = self.race.sweeps
        self.follow_pack = _follow_pack(k.rules.profile.id, values)
        self.one_ply = False  # set by ``quick``: the race and the habits only
        self.spent = 0
        self.known: RoundInPlay | None = None  # the round itself, once asked for (``_round``)

    def score(self, plays: list[Play]) -> list[Scored]:
        """Every term, for every play; raises ``OverBudget`` past the reply budget (each play
        takes at least one step per class of unseen cards: a hopeless search is not started)."""
        if self.k.last_play:
            return self.quick(plays)  # the last play of the round: nobody replies, the race is every term
        if len(plays) * max(1, len(self.classes)) > self.meter.budget.reply_steps:
            raise self.meter.over_steps()
        evaluated = [self.evaluate(p) for p in plays]
        any_risk = any(risk for *_, risk in evaluated)
        scored = []
        for _, score, reasons, risk in evaluated:
            if any_risk and risk == 0.0 and Reason.SWEEPS not in reasons:
                reasons.append(Reason.BLOCKS_SWEEP)
            scored.append((round(score, 4), ordered(reasons)))
        return scored

    def quick(self, plays: list[Play]) -> list[Scored]:
        """The race and the habits only (no reply, no next capture), for every play: once per kind
        of play, since they depend only on the card played and on what the capture counts for (how
        many cards, diamonds, sevens and sixes, and 7D), not on which table cards it takes. At the
        end of the round either every capture takes the whole table with it, or the card is laid."""
        self.one_ply = True
        memo: dict[tuple[Card, int, bool], Scored] = {}
        pack = PACK.__getitem__
        scored = []
        for play in plays:
            card, taken, sweep, _ = play
            key = (card, sum(map(pack, taken)), sweep)
            found = memo.get(key)
            if found is None:
                _, score, reasons, _ = self.evaluate(play)
                found = memo[key] = (round(score, 4), ordered(reasons))
            scored.append(found)
        return scored

    def _round(self) -> RoundInPlay:
        """The round before our play, when every card's place is known (our play or the next one
        ends the round)."""
        if self.known is None:
            state = self.k.known_round()
            assert state is not None
            self.known = RoundInPlay(state)
        return self.known

    def evaluate(self, play: Play) -> tuple[PlayMove, float, list[Reason], float | None]:
        """The move, its score, its reasons, and the chance that the next player can sweep (None when
        nobody plays after it)."""
        k, w = self.k, self.w
        card, taken, sweep, legal = play
        reasons: list[Reason] = [Reason.SWEEPS] if sweep else []
        tallies = self.tallies
        captured: tuple[Card, ...] = ()
        if taken:
            captured = (card, *taken)
            tallies = tallies.add(self.side, captured, sweep)
        table = table_after(k.table, card, taken)
        left = sum(k.hand_sizes) - 1  # cards in the hands after this play
        risk: float | None = None
        parts = self.race.parts(tallies, self.side)
        score = sum(parts)
        if k.last_play:  # the core plays the end of the round: the last capturer takes the table
            end = self._round().copy()
            collected = end.move(PlayMove(card, taken), legal).collected
            if collected:
                tallies = Standing.of(end.piles, end.sweeps, end.last_capturer)
                if end.last_capturer == self.side:
                    captured += collected
                parts = self.race.parts(tallies, self.side)
                score = sum(parts)
        else:
            if not self.one_ply:
                dealt = refill_size(k.stock_size, left)  # our play empties every hand: the stock deals
                h = dealt or k.hand_sizes[self.next_seat]
                hand = () if dealt else tuple(c for c in k.hand if c is not card)  # the new cards are unseen
                after_ours = None
                if is_last_play(k.stock_size, left):  # his play ends the round: the core plays it out
                    after_ours = self._round().copy()
                    after_ours.move(PlayMove(card, taken), legal)
                reply = self._reply(tallies, table, h, left, hand, after_ours)
                score = reply.value
                risk = reply.sweep_chance
                if risk > 0:
                    reasons.append(Reason.SWEEP_RISK)
                if reply.reach_7d:
                    reasons.append(Reason.LEAVES_SEVEN_OF_DIAMONDS)
                if reply.cost >= w.gives_captures:
                    reasons.append(Reason.GIVES_CAPTURES)
            if not taken and w.lay:  # a card laid is a card offered: the more it counts, the worse
                worth = self.worth[KIND[card]]
                score -= w.lay * worth
                if worth > self.worth[PLAIN] + 1e-9:
                    reasons.append(Reason.LAYS_SCORING_CARD)
        # What the play gains in each category, against the standing before it with the same last
        # capturer: taking the last capture (a shared top, under ties_to_last_capturer) is no reason.
        before = self.before_ours if tallies.last == self.side else self.before
        gained = [after > was + 1e-9 for after, was in zip(parts, before, strict=True)]
        if gained[0]:
            reasons.append(Reason.TAKES_CARDS)
        if gained[1]:
            reasons.append(Reason.TAKES_DIAMONDS)
        if gained[2]:
            counted = Tally.of_pile(captured, 0)
            if counted.sevens:
                reasons.append(Reason.TAKES_SEVENS)
            if counted.sixes:
                reasons.append(Reason.TAKES_SIXES)
        if gained[3]:
            reasons.append(Reason.TAKES_SEVEN_OF_DIAMONDS)
        if self.keep_seven and any(KIND[c][1] and c is not card for c in k.hand):
            score += self.keep_seven
            reasons.append(Reason.KEEPS_SEVEN)
        return PlayMove(card, taken), score, reasons, risk

    def _reply(
        self,
        tallies: Standing,
        table: tuple[Card, ...],
        h: int,
        left: int,
        hand: tuple[Card, ...],
        after_ours: RoundInPlay | None,
    ) -> _Reply:
        """The next player holds ``h`` of the unseen cards, any ``h`` alike, and plays one. For each
        card he may hold, his best choice on ``table``; then (two players) our best capture with
        ``hand`` on what he leaves. Exact expectations over the hands he may hold. ``after_ours`` is
        the round after our play when his play ends it (he holds the one unseen card)."""
        unseen = len(self.unseen)
        h = min(h, unseen)
        race, me, them = self.race, self.side, self.next_side
        two = self.n == 2
        base_me = race.value(tallies, me)
        if h == 0:
            return _Reply(base_me, 0.0, 0.0, False)
        base_them = -base_me if two else race.value(tallies, them)
        stock = self.k.stock_size
        his_last = is_last_play(stock, left)  # his play ends the round
        our_last = is_last_play(stock, left - 1)  # ours, after his, does
        by_value: dict[int, Any] = {}
        memo: dict[tuple[int, bool | None], tuple[float, float]] = {}
        pack = PACK.__getitem__
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
                work = table_work(table)
            sweep_option = caps.sweep_option
            choices = [(o, i == sweep_option) for i, o in enumerate(caps.options)] or [((), False)]
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
                    if after_ours is not None:  # the core plays his card, the last one of the round
                        end = after_ours.copy()
                        end.move(PlayMove(rep, option), caps)
                        after = Standing.of(end.piles, end.sweeps, end.last_capturer)
                    elif option:
                        after = tallies.add(them, (rep, *option), sweeps)
                    else:
                        after = tallies
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
                        rest = table_after(table, rep, option)
                        next_gain = follows[left_kind] = self._follow(rest, hand, our_last)
                    ours += next_gain
                gain = base_me - ours if two else his_gain
                total += ours
                if best is None or gain > best[0]:
                    best = (gain, ours, base_me - mine)
            assert best is not None
            rated.append((*best, total / len(choices), len(cards), caps.sweep_option is not None))
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
            self._spend(1 + len(caps.options) + table_work(table))
            if not caps.options:
                continue
            own = worth[KIND[card]]
            sweep_option = caps.sweep_option
            for i, option in enumerate(caps.options):
                gain = own + sum(worth[KIND[c]] for c in option)
                if i == sweep_option:
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
            c: 1 << 3 * (8 * values[c] + 4 * KIND[c][0] + 2 * KIND[c][1] + KIND[c][2]) for c in DECK
        }
    return found
