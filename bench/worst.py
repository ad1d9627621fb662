"""The worst-case benchmark: for every operation of ``openapi.yaml``, the valid requests that cost most.

Run with ``.venv/bin/python -m bench.worst [--quick] [--only OP] [--seed N] [--json PATH] [--update]``
(``make bench-worst``).

For each operation it measures, through the real WSGI application in this process (``create_app()``,
no access log), the CPU time of a request (``time.thread_time`` around the WSGI call and the reading
of its answer: the median of repeats) and the bytes of its answer. It searches the valid requests
for the most expensive ones in three stages, all seeded (``--seed``):

1. **constructed extremes**: what the rules make worst. A round's table is bounded (docs/rules.md
   §10.20: one card of each value, and beside them only the repeats a deal may lay), so the states
   hold the tables of that kind with the most capture options for a hand of three (found by trying
   them all), with two, three or four players, empty or full stocks; a legalCaptures or applyMove
   table is bare and unbounded: three kings on every other card (a king then has over 1,600
   captures). Also face_sums, scopa's most-cards rule, sealed states, a deal with four sealed views,
   whole records whose last move is illegal, commitDeal's only body, committed and clocked deals
   (four seeds of 128 characters), and the timeout move of every such state in a clocked round whose
   time ran out (the default move: a hint search, then the play);
2. **random valid bodies**: states, piles and round points taken from rounds actually played with
   the service's own core (``deal_round``, then moves from ``legal_moves``, laying cards to grow the
   table), stopped at any point; tables and hands; records played the same way;
3. **hill climbing**: from the costliest bodies so far, random changes (swap cards between the
   hands, the table, the piles and the stock; move a card between the table and a pile; change the
   profile, the seat, the limit...), each kept when it costs more.

Every state the search sends is one the core accepts (``RoundState.from_json``: docs/rules.md §9,
§10.17 to §10.20), every score's piles and round points are those of a finished round: a constructed
state the core refuses is a bug of this module, and a change the core refuses is dropped. A body
counts as valid only if the service answers it with a success or, for a move it judges, with that
move's problem (``illegal-move``, ``ambiguous-capture``...): a body refused as invalid
(``bad-state``, ``validation-error``...) is counted apart and never measured as a worst case.
The bodies come from the seed alone; which of them wins depends on the timings, which are noisy on
a shared machine, so the costliest bodies of the run recorded in the README are kept in
``bench/worst_bodies.json`` (``--update`` rewrites it, with each answer's status and problem code)
and ``worst_bodies()`` returns them, ready to send: another test sends them concurrently to a
gunicorn server.
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bench.report import answer_of, machine, write_json
from service.api.sealed_rounds import TIMEOUT_MARGIN_SECONDS
from service.ops.settings import DEFAULT_STATE_TOKEN_LIFETIME
from service.rules.fair import MAX_SEAT_SEED_CHARS
from service.rules.scoring import MOST_POINTS
from service.rules.sweeps import MAX_SWEEPS

WORST_BODIES = Path(__file__).resolve().with_name("worst_bodies.json")
LIMIT_CPU_MS = 50.0
LIMIT_BYTES = 512 * 1024
HAND = 3  # the cards of a hand
TARGET_CPU_MS = 25.0
# The problems that judge a move of a valid request (an illegal or ambiguous play...), which the
# search measures; any other problem refuses the request itself, which is then not valid.
JUDGED = frozenset({"illegal-move", "ambiguous-capture", "card-not-held", "not-your-turn", "wrong-phase"})

Body = dict[str, Any]
# A claimed score line, each field at the contract's maximum: one point a category, the sweeps, the total.
CLAIM_MAXIMA = {
    "cards": 1, "diamonds": 1, "sevens": 1, "seven_of_diamonds": 1, "sweeps": MAX_SWEEPS, "primiera": 1,
    "total": MOST_POINTS,
}  # fmt: skip


# ---- requests ------------------------------------------------------------------------------------


@dataclass
class Request:
    """One request of the search. A body may carry a sealed state as ``{"$sealed": state}`` in place
    of its ``state_token``, with ``"$round"`` beside it for what the token carries beside the state
    (a clock: service/api/sealed_rounds.py), and a committed deal's ``fair.commit_token`` as
    ``{"$commit": <server seed, hex>}``: each is sealed with the server's keys when sent (``rendered``)."""

    operation: str
    method: str
    path: str
    body: Body | None = None
    label: str = ""

    def rendered(self, seal: Callable[..., str]) -> Body | None:
        if self.body is None:
            return None
        body = dict(self.body)
        token = body.get("state_token")
        if isinstance(token, dict) and "$sealed" in token:
            carried = {"round": token["$round"]} if "$round" in token else {}
            body["state_token"] = seal({**token["$sealed"], **carried})
        fair = body.get("fair")
        if isinstance(fair, dict) and isinstance(fair.get("commit_token"), dict):
            from service.api.sealing import COMMIT

            server_seed = fair["commit_token"]["$commit"]
            body["fair"] = {**fair, "commit_token": seal({"server_seed": server_seed}, kind=COMMIT)}
        return body

    def to_json(self) -> dict[str, Any]:
        return {"operation": self.operation, "method": self.method, "path": self.path, "body": self.body}


def _sealer_from(keys: str | None) -> Any:
    from service.api.sealing import Sealer
    from service.ops import settings

    chosen = settings.read()  # the environment's, as the server's would be
    if keys:
        chosen = chosen.overridden({"STATE_KEYS": keys})
    return Sealer.from_settings(settings.with_state_keys(chosen, lambda _: None))


def worst_bodies(state_keys: str | None = None, *, by: str = "cpu") -> dict[str, dict[str, Any]]:
    """The costliest request found for each operation (``by`` ``"cpu"`` or ``"bytes"``), as recorded
    in ``bench/worst_bodies.json``: ``{operation: {"method", "path", "body"}}``, each body ready to
    send as JSON (``None`` for a GET). Sealed states are sealed with ``state_keys`` (the server's
    ``CHKOBBA_STATE_KEYS``; by default the environment's), valid for the token lifetime from now."""
    recorded = json.loads(WORST_BODIES.read_text(encoding="utf-8"))
    sealer = _sealer_from(state_keys)
    out: dict[str, dict[str, Any]] = {}
    for name, found in recorded["operations"].items():
        entry = found[by]
        request = Request(name, entry["method"], entry["path"], entry["body"])
        out[name] = {"method": request.method, "path": request.path, "body": request.rendered(sealer.seal)}
    return out


# ---- measuring through the WSGI application --------------------------------------------------------


class Meter:
    """The service in this process, called as gunicorn would call it."""

    def __init__(self) -> None:
        from service.api.sealing import new_key
        from service.app import create_app

        self.keys = new_key()
        self.app = create_app({"ACCESS_LOG": "", "STATE_KEYS": self.keys, "EPHEMERAL_KEYS": "1"})
        self.seal = self.app.extensions["chkobba.sealer"].seal

    def once(self, request: Request) -> tuple[float, int, int, bytes]:
        """CPU seconds, answer bytes, status and the answer of one call."""
        body = request.rendered(self.seal)
        data = b"" if body is None else json.dumps(body, separators=(",", ":")).encode()
        environ = {
            "REQUEST_METHOD": request.method.upper(),
            "SCRIPT_NAME": "",
            "PATH_INFO": request.path,
            "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8080",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_HOST": "127.0.0.1:8080",
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(data),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": False,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
        }
        if body is not None:
            environ["CONTENT_TYPE"] = "application/json"
            environ["CONTENT_LENGTH"] = str(len(data))
        started = time.thread_time()
        status, answer = answer_of(self.app, environ)
        cpu = time.thread_time() - started
        return cpu, len(answer), status, answer

    def measure(self, request: Request, repeats: int) -> Measured:
        cpus = []
        size = code = 0
        answer = b""
        for _ in range(repeats):
            cpu, size, code, answer = self.once(request)
            cpus.append(cpu)
        return Measured(request, statistics.median(cpus) * 1000, size, code, answer)


@dataclass
class Measured:
    request: Request
    cpu_ms: float
    bytes: int
    status: int
    answer: bytes = field(repr=False, default=b"")

    @property
    def code(self) -> str | None:
        """The problem's code, for an answer that is a problem."""
        if self.status < 400:
            return None
        try:
            code = json.loads(self.answer).get("code")
        except (ValueError, AttributeError):
            return None
        return code if isinstance(code, str) else None

    @property
    def valid(self) -> bool:
        """A success, or the problem of a move the service judged on a valid request."""
        return self.status < 400 or (self.status == 422 and self.code in JUDGED)


# ---- cards and rules -----------------------------------------------------------------------------

CODES: tuple[str, ...] = tuple(f"{r}{s}" for s in "DHSC" for r in "A234567JQK")
RULES: tuple[Any, ...] = (
    "chkobba",
    "chkobba-crp",
    "scopa",
    {"profile": "chkobba-crp", "options": {"face_sums": True}},
    {"profile": "chkobba-crp", "options": {"face_sums": True, "primiera": True, "ties_to_last_capturer": True}},
    {"profile": "chkobba", "options": {"target": 31}},
)
PLAYERS = {"chkobba": (2, 4), "chkobba-crp": (2, 3, 4), "scopa": (2,)}


def _profile(rules: Any) -> str:
    return rules if isinstance(rules, str) else rules["profile"]


def _sides(rules: Any, players: int) -> int:
    return 2 if players == 4 else players


def _values(rules: Any) -> dict[str, int]:
    from service.rules import Rules

    values = Rules.of(rules).profile.card_values
    return {c.code: values[c] for c in _deck()}


def _deck() -> Sequence[Any]:
    from service.rules import DECK

    return DECK


def _top_kind(rules: Any) -> list[str]:
    """The four cards of the highest value: the cards with the most sum captures."""
    values = _values(rules)
    top = max(values.values())
    return [c for c in CODES if values[c] == top]


def _refusal(state: dict[str, Any]) -> str | None:
    """Why the core refuses ``state`` (its problem code and message), or None if it accepts it."""
    from service.rules import RoundState, RulesError

    try:
        RoundState.from_json(state)
    except RulesError as exc:
        return f"{exc.code}: {exc.message}"
    return None


def _valid_state(state: dict[str, Any]) -> bool:
    return _refusal(state) is None


def _order(players: int, dealer: int) -> list[int]:
    leader = (dealer + 1) % players
    return [(leader + k) % players for k in range(players)]


def _shuffled(rng: random.Random) -> list[str]:
    deck = list(CODES)
    rng.shuffle(deck)
    return deck


def make_state(
    rules: Any,
    players: int,
    dealer: int,
    hands: dict[int, list[str]],
    table: list[str],
    stock: list[str] | None = None,
    piles: list[list[str]] | None = None,
    sweeps: list[int] | None = None,
) -> dict[str, Any]:
    """A phase-play state: the given hands, table, ``stock`` (default empty) and piles (default
    empty); the turn follows from the hand sizes, the last capturer is the first side with a pile."""
    sides = _sides(rules, players)
    full = [hands.get(seat, []) for seat in range(players)]
    stock = stock or []
    piles = piles or [[] for _ in range(sides)]
    order = _order(players, dealer)
    sizes = [len(full[s]) for s in order]
    top = max(sizes)
    turn = order[sizes.index(top)]
    last = next((s for s in range(sides) if piles[s]), None)
    return {
        "rules": rules,
        "players": players,
        "dealer": dealer,
        "phase": "play",
        "turn": turn,
        "hands": full,
        "table": table,
        "stock": stock,
        "piles": piles,
        "sweeps": sweeps or [0] * sides,
        "last_capturer": last,
    }


# ---- rounds played by legal moves ----------------------------------------------------------------


def play_round(
    rules: Any,
    players: int,
    dealer: int,
    deck: list[str],
    rng: random.Random,
    *,
    lay: float = 0.5,
    sweep: float = 0.5,
    cut: str = "keep",
) -> Iterator[Any]:
    """The states (``RoundState``) of a round dealt from ``deck`` and played by legal moves only, with
    the service's own core (``deal_round``, then a move of ``legal_moves`` applied by ``advance``),
    the dealt state first: each is a state a legal round reaches. The seat to move lays a card that
    takes nothing with chance ``lay`` (a laid card grows the table), else makes a capture: the sweep,
    when it has one, with chance ``sweep``, else the option taking the fewest cards. A void deal
    (phase redeal) is the only state of its round."""
    from service.rules import PlayMove, advance, deal_round, legal_moves

    state, _ = deal_round(rules, players, dealer, deck=deck, cut=cut if _profile(rules) == "chkobba" else None)
    yield state
    while state.turn is not None:
        legal = legal_moves(state)
        lays = [c for c in legal if not c.options]
        takes = [c for c in legal if c.options]
        if lays and (not takes or rng.random() < lay):
            move = PlayMove(rng.choice(lays).card, ())
        else:
            caps = rng.choice(takes)
            if caps.sweep_option is not None and rng.random() < sweep:
                option = caps.options[caps.sweep_option]
            else:
                option = min(caps.options, key=len)
            move = PlayMove(caps.card, option)
        state, _ = advance(state, move)
        yield state


def _random_round(
    rng: random.Random,
    rules: Any = None,
    players: int | None = None,
    *,
    lay: float | None = None,
    sweep: float | None = None,
) -> list[Any]:
    """The states of a round of any profile and player count (or the given ones), played by
    ``play_round`` with a random lean to lay and to sweep (or the given ones); never a void deal."""
    rules = rng.choice(RULES) if rules is None else rules
    players = rng.choice(PLAYERS[_profile(rules)]) if players is None else players
    while True:
        states = list(
            play_round(
                rules,
                players,
                rng.randrange(players),
                _shuffled(rng),
                rng,
                lay=rng.random() ** 0.3 if lay is None else lay,  # most rounds lay often: big tables
                sweep=rng.random() if sweep is None else sweep,
                cut=rng.choice(("keep", "table")),
            )
        )
        if states[-1].phase.value == "over":
            return states


def describe(state: dict[str, Any]) -> str:
    """A state in a few words, for the labels: players, profile, table, stock, sweeps."""
    swept = sum(state["sweeps"])
    return (
        f"{state['players']} players {_profile(state['rules'])}, {len(state['table'])} table cards, "
        f"stock {len(state['stock'])}" + (f", {swept} sweeps" if swept else "")
    )


def random_state(rng: random.Random) -> dict[str, Any]:
    """A phase-play state of a round played by legal moves (``play_round``), of any profile and
    player count, at any point of the round; half the time the round's biggest table."""
    states = [s for s in _random_round(rng) if s.phase.value == "play"]
    if rng.random() < 0.5:
        top = max(len(s.table) for s in states)
        states = [s for s in states if len(s.table) == top]
    state: dict[str, Any] = rng.choice(states).to_json()
    return state


def finished_round(rng: random.Random, rules: Any = None, players: int | None = None, **lean: float) -> Any:
    """The last state of a round played by legal moves: its piles, sweeps and last capturer."""
    return _random_round(rng, rules, players, **lean)[-1]


def round_points(state: Any) -> list[int]:
    """The points each side made in a finished round (its breakdown's totals)."""
    from service.rules import round_breakdown

    return [line.total for line in round_breakdown(state)]


# ---- crafted states, within the invariants -------------------------------------------------------


def crafted_state(
    rules: Any, players: int, dealer: int, hands: dict[int, list[str]], table: list[str], stock: int = 0
) -> dict[str, Any]:
    """A phase-play state with these hands and table that the core accepts: the next ``stock`` cards
    in card order make the stock and the others the piles, three cards or more each (no pile of one,
    nor two cards of two values, docs/rules.md §10.18), with no sweeps (a table showing two cards of
    one value has not been swept since the deal, §10.20). Raises ``ValueError``, naming the check, if
    the core refuses it: a constructed extreme must be a state the service accepts."""
    sides = _sides(rules, players)
    placed = {*table, *(c for hand in hands.values() for c in hand)}
    rest = [c for c in CODES if c not in placed]
    stock_cards, rest = rest[:stock], rest[stock:]
    piles: list[list[str]] = [[] for _ in range(sides)]
    filled = sides if len(rest) >= 3 * sides else 1
    for i, card in enumerate(rest):
        piles[i % filled].append(card)
    state = make_state(rules, players, dealer, hands, table, stock_cards, piles)
    refused = _refusal(state)
    if refused is not None:
        raise ValueError(f"the core refuses a crafted state ({refused}): {state}")
    return state


def _ranks_of(rules: Any) -> list[str]:
    """The ranks by capture value in ``rules``, highest first."""
    values = _values(rules)
    return sorted("A234567JQK", key=lambda r: -values[f"{r}D"])


def _deal_repeats(ranks: Sequence[str]) -> Iterator[tuple[str, ...]]:
    """The repeated ranks a deal of four table cards may show (the profile then decides which deals
    are void): none, a pair, two pairs, three or four of a kind, of the given ranks."""
    yield ()
    for rank in ranks:
        for copies in (2, 3, 4):
            yield (rank,) * copies
    for i, first in enumerate(ranks):
        for second in ranks[i + 1 :]:
            yield (first, first, second, second)


def _cards_of(ranks: Sequence[str], taken: set[str]) -> list[str] | None:
    """One card of each rank listed (a rank listed twice: two of its cards), not among ``taken``
    (which grows); None if a rank runs out."""
    out = []
    for rank in ranks:
        card = next((f"{rank}{s}" for s in "DHSC" if f"{rank}{s}" not in taken), None)
        if card is None:
            return None
        taken.add(card)
        out.append(card)
    return out


def richest_tables(rules: Any, count: int = 2) -> list[tuple[list[str], list[str], int]]:
    """The ``count`` tables and hands of three with the most capture options in all, among the tables
    a state may show (docs/rules.md §10.20): one card of each value the hand lacks, and beside them
    the repeats a deal may lay. Tried them all, for hands of the five highest values: ``(table,
    hand, options)``, each one the core accepts (in a two-player state, empty stock)."""
    from itertools import combinations_with_replacement

    from service.rules import hand_captures

    found = []
    for hand_ranks in combinations_with_replacement(_ranks_of(rules)[:5], 3):
        taken: set[str] = set()
        hand = _cards_of(hand_ranks, taken)
        assert hand is not None  # three cards of at most three ranks
        others = [r for r in "A234567JQK" if r not in hand_ranks]
        for repeats in _deal_repeats(others):
            extra = [r for r in others if r not in repeats]
            table = _cards_of([*repeats, *extra], set(taken))
            if table is None:
                continue
            options = sum(len(c.options) for c in hand_captures(rules, table, hand))
            found.append((options, table, hand))
    found.sort(key=lambda f: -f[0])
    out: list[tuple[list[str], list[str], int]] = []
    for options, table, hand in found:
        try:
            crafted_state(rules, 2, 0, {1: hand, 0: _highest(rules, {*table, *hand}, 3)}, table)
        except ValueError:  # a void deal in this profile, say
            continue
        out.append((table, hand, options))
        if len(out) == count:
            break
    return out


def _highest(rules: Any, taken: set[str], n: int) -> list[str]:
    """The ``n`` cards of the highest values that are not ``taken``."""
    values = _values(rules)
    return sorted((c for c in CODES if c not in taken), key=lambda c: -values[c])[:n]


def mutate_state(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A neighbour the core accepts (else None): two cards of different places swapped, or one moved
    between the table and a pile, or another profile (the cards kept)."""
    new = copy.deepcopy(state)
    places: list[list[str]] = [*new["hands"], new["table"], new["stock"], *new["piles"]]
    roll = rng.random()
    if roll < 0.6:
        a, b = rng.sample([p for p in places if p], 2) if sum(1 for p in places if p) >= 2 else (None, None)
        if a is None or b is None:
            return None
        i, j = rng.randrange(len(a)), rng.randrange(len(b))
        a[i], b[j] = b[j], a[i]
    elif roll < 0.9:
        pile = rng.choice(new["piles"])
        if rng.random() < 0.5 and pile:
            new["table"].append(pile.pop(rng.randrange(len(pile))))
        elif new["table"]:
            pile.append(new["table"].pop(rng.randrange(len(new["table"]))))
        new["sweeps"] = [min(s, len(p) // 2) for s, p in zip(new["sweeps"], new["piles"], strict=True)]
        nonempty = [s for s, p in enumerate(new["piles"]) if p]
        if new["last_capturer"] is None or not new["piles"][new["last_capturer"]]:
            new["last_capturer"] = nonempty[0] if nonempty else None
        if not nonempty:
            new["last_capturer"] = None
    else:
        same = [r for r in RULES if new["players"] in PLAYERS[_profile(r)]]
        new["rules"] = rng.choice(same)
    return new if _valid_state(new) else None


# ---- the operations ------------------------------------------------------------------------------


@dataclass
class Operation:
    name: str
    method: str
    path: str
    extremes: Callable[[], list[Request]]
    sample: Callable[[random.Random], Request] | None = None
    mutate: Callable[[Request, random.Random], Request | None] | None = None


def _get(name: str, path: str, label: str = "") -> Operation:
    return Operation(name, "get", path, lambda: [Request(name, "get", path, None, label or path)])


# legalCaptures and applyMove: a table and a hand.


def _table_hand_extremes() -> Iterator[tuple[Any, list[str], list[str], str]]:
    for rules in RULES:
        top = _top_kind(rules)
        hand = top[:3]
        table = [c for c in CODES if c not in top]
        yield rules, table, hand, f"three of the highest value on every card but the fourth ({_profile(rules)})"
    yield "chkobba", [c for c in CODES if c[0] not in "KJ"], ["KD", "KH", "JD"], "two kings and a jack, chkobba"


def _random_table_hand(rng: random.Random) -> tuple[Any, list[str], list[str]]:
    rules = rng.choice(RULES)
    deck = list(CODES)
    rng.shuffle(deck)
    hand = [deck.pop() for _ in range(rng.choice((1, 2, 3, 3)))]
    values = _values(rules)
    if rng.random() < 0.7:  # no table card of a hand card's value: sums, not matches
        deck = [c for c in deck if values[c] not in {values[h] for h in hand}]
    table = deck[: round(len(deck) * rng.random() ** 0.2)]
    return rules, table, hand


def _mutate_table_hand(body: Body, rng: random.Random) -> Body | None:
    new = copy.deepcopy(body)
    table, hand = new["table"], new["hand"]
    outside = [c for c in CODES if c not in table and c not in hand]
    roll = rng.random()
    if roll < 0.35 and outside and len(table) < 39 - len(hand):
        table.insert(rng.randrange(len(table) + 1), rng.choice(outside))
    elif roll < 0.55 and table:
        table.pop(rng.randrange(len(table)))
    elif roll < 0.8 and outside:
        hand[rng.randrange(len(hand))] = rng.choice(outside)
    elif roll < 0.9:
        new["rules"] = rng.choice(RULES)
    else:
        rng.shuffle(table)
    if len(set(table) | set(hand)) != len(table) + len(hand):
        return None
    return new


def _captures_op() -> Operation:
    name, path = "legalCaptures", "/v1/captures"

    def extremes() -> list[Request]:
        out = []
        for rules, table, hand, label in _table_hand_extremes():
            out.append(Request(name, "post", path, {"rules": rules, "table": table, "hand": hand}, label))
        return out

    def sample(rng: random.Random) -> Request:
        rules, table, hand = _random_table_hand(rng)
        return Request(
            name, "post", path, {"rules": rules, "table": table, "hand": hand, "last_play": rng.random() < 0.2}
        )

    def mutate(request: Request, rng: random.Random) -> Request | None:
        body = _mutate_table_hand(request.body or {}, rng)
        return None if body is None else Request(name, "post", path, body, "hill climbing")

    return Operation(name, "post", path, extremes, sample, mutate)


def _moves_op() -> Operation:
    name, path = "applyMove", "/v1/moves"

    def extremes() -> list[Request]:
        out = []
        for rules, table, hand, label in _table_hand_extremes():
            # An illegal capture of the first card: the problem lists its options and every card's.
            body = {"rules": rules, "table": table, "hand": hand, "play": {"card": hand[0], "capture": [table[0]]}}
            out.append(Request(name, "post", path, body, f"illegal capture: {label}"))
            body = {"rules": rules, "table": table, "hand": hand, "play": {"card": hand[0]}}
            out.append(Request(name, "post", path, body, f"ambiguous capture: {label}"))
        return out

    def play_of(body: Body, rng: random.Random) -> Body:
        from service.rules import hand_captures

        card = rng.choice(body["hand"])
        found = hand_captures(body["rules"], body["table"], body["hand"])
        options = next(c.options for c in found if c.card.code == card)
        roll = rng.random()
        if roll < 0.4 and options:
            return {"card": card, "capture": [c.code for c in rng.choice(options)]}
        if roll < 0.7 or not body["table"]:
            return {"card": card}
        return {"card": card, "capture": rng.sample(body["table"], rng.randint(1, min(4, len(body["table"]))))}

    def sample(rng: random.Random) -> Request:
        rules, table, hand = _random_table_hand(rng)
        body = {"rules": rules, "table": table, "hand": hand}
        body["play"] = play_of(body, rng)
        return Request(name, "post", path, body)

    def mutate(request: Request, rng: random.Random) -> Request | None:
        body = _mutate_table_hand(request.body or {}, rng)
        if body is None:
            return None
        body["play"] = play_of(body, rng)
        return Request(name, "post", path, body, "hill climbing")

    return Operation(name, "post", path, extremes, sample, mutate)


# scoreRound and decideMatch: small by nature, searched all the same, on the piles and the points of
# rounds played to the end.


def with_floats(body: Body, rng: random.Random | None = None) -> Body:
    """``body`` asking for a receipt, with whole numbers of its claims and scores written as floats
    (``3.0``): every one, or each with even odds given ``rng``. A float once sent the whole receipt
    payload through the pure-Python canonicalizer (issue 25); the search keeps trying them."""

    def floated(value: Any, inside: bool) -> Any:
        if isinstance(value, dict):
            return {k: floated(v, inside or k in FLOATED) if k != "side" else v for k, v in value.items()}
        if isinstance(value, list):
            return [floated(v, inside) for v in value]
        if inside and type(value) is int and (rng is None or rng.random() < 0.5):
            return float(value)
        return value

    return {**floated(body, False), "receipt": True}


FLOATED = ("claimed", "scores", "round_points")  # the numbers a client writes: claims, running scores


def _with_floats_too(operation: Operation) -> Operation:
    """``operation`` whose search also tries its bodies with floats and a receipt: a floated copy of
    each extreme, and of half the random bodies."""
    extremes, sample = operation.extremes, operation.sample

    def floated_extremes() -> list[Request]:
        found = extremes()
        return found + [replace(r, body=with_floats(r.body or {}), label=f"{r.label}, floats, receipt") for r in found]

    def floated_sample(rng: random.Random) -> Request:
        assert sample is not None
        request = sample(rng)
        if rng.random() < 0.5:
            return replace(
                request, body=with_floats(request.body or {}, rng), label=f"{request.label}, floats, receipt"
            )
        return request

    return replace(operation, extremes=floated_extremes, sample=floated_sample if sample is not None else None)


def _scores_op() -> Operation:
    name, path = "scoreRound", "/v1/scores"

    def body_of(rng: random.Random, rules: Any, players: int, claim: bool, sweep: float | None = None) -> Body:
        """The piles, sweeps and last capturer of a round played to the end, and a claim of random
        figures (each within the contract), almost surely wrong."""
        lean = {} if sweep is None else {"lay": 0.0, "sweep": sweep}
        over = finished_round(rng, rules, players, **lean)
        body: Body = {
            "rules": rules,
            "sides": [
                {"captured": [c.code for c in pile], "sweeps": n}
                for pile, n in zip(over.piles, over.sweeps, strict=True)
            ],
            "last_capturer": over.last_capturer,
        }
        if claim:
            wrong = [{k: rng.randint(0, most) for k, most in CLAIM_MAXIMA.items()} for _ in over.piles]
            body["claimed"] = [{"side": s, **line} for s, line in enumerate(wrong)]
        return body

    def extremes() -> list[Request]:
        rng = random.Random("scores")
        crp = {"profile": "chkobba-crp", "options": {"primiera": True, "ties_to_last_capturer": True}}
        return [
            Request(name, "post", path, body_of(rng, crp, 3, True), "three piles, primiera, every claim wrong"),
            Request(name, "post", path, body_of(rng, "chkobba", 2, True), "two piles, every claim wrong"),
            Request(name, "post", path, body_of(rng, "chkobba", 2, True, 1.0), "a round of sweeps, every claim wrong"),
        ]

    def sample(rng: random.Random) -> Request:
        rules = rng.choice(RULES)
        players = rng.choice(PLAYERS[_profile(rules)])
        return Request(name, "post", path, body_of(rng, rules, players, rng.random() < 0.7), "a played round")

    return Operation(name, "post", path, extremes, sample)


def _match_op() -> Operation:
    name, path = "decideMatch", "/v1/match-decisions"

    def body_of(rng: random.Random) -> Body:
        """Scores before a round (below the target, or leaders tied at it: a tiebreak round) and the
        points of a round played to the end."""
        from service.rules import Rules

        rules = rng.choice(RULES)
        players = rng.choice(PLAYERS[_profile(rules)])
        points = round_points(finished_round(rng, rules, players))
        target = Rules.of(rules).target
        if target is None:
            scores = [0] * len(points)
        else:
            scores = [rng.randrange(target) for _ in points]
            if rng.random() < 0.2:  # leaders tied at or above the target: a tiebreak round
                tied = target + rng.randrange(4)
                scores[:2] = [tied, tied]
        body: Body = {"rules": rules, "scores": scores, "round_points": points}
        if rng.random() < 0.7:
            body["claimed"] = {"outcome": rng.choice(["continue", "won", "tiebreak", "draw"]), "winner": None}
        return body

    def extremes() -> list[Request]:
        rng = random.Random("match")
        rules = {"profile": "chkobba-crp", "options": {"target": 16}}
        points = round_points(finished_round(rng, rules, 3))
        body = {
            "rules": rules,
            "scores": [15, 15, 15],
            "round_points": points,
            "claimed": {"outcome": "won", "winner": 2},
        }
        return [Request(name, "post", path, body, "three sides one point from the target, a wrong claim")]

    return Operation(
        name, "post", path, extremes, lambda rng: Request(name, "post", path, body_of(rng), "a played round")
    )


# dealRound.


def _deal_op() -> Operation:
    name, path = "dealRound", "/v1/rounds"

    def extremes() -> list[Request]:
        out = []
        for rules, players in (("chkobba", 4), ("chkobba-crp", 4), ("chkobba-crp", 3), ("scopa", 2)):
            common: Body = {"rules": rules, "players": players, "dealer": players - 1}
            if rules == "chkobba":
                common["cut"] = "keep"
            sealed = {**common, "seed": "x" * 64, "sealed": True}
            out.append(Request(name, "post", path, sealed, f"{players} sealed views, {_profile(rules)}"))
            plain = {**common, "deck": list(CODES)}
            out.append(Request(name, "post", path, plain, f"the state and the deck, {players} players"))
            fair = {**common, "sealed": True, **_fair_deal(players, "x" * MAX_SEAT_SEED_CHARS), **LONGEST_CLOCK}
            out.append(Request(name, "post", path, fair, f"committed and clocked, {players} seeds of 128 characters"))
        return out

    def sample(rng: random.Random) -> Request:
        rules = rng.choice(RULES)
        players = rng.choice(PLAYERS[_profile(rules)])
        body: Body = {
            "rules": rules,
            "players": players,
            "dealer": rng.randrange(players),
            "sealed": rng.random() < 0.6,
        }
        draw = rng.random()
        if draw < 0.4:
            body["seed"] = "".join(rng.choice("abcdef0123456789") for _ in range(rng.randint(1, 64)))
        elif draw < 0.7 or not body["sealed"]:
            deck = list(CODES)
            rng.shuffle(deck)
            body["deck"] = deck
        else:  # a committed deal (sealed only), clocked or not
            body |= _fair_deal(players, "".join(rng.choice("seat-ΣΩسعيد") for _ in range(rng.randint(1, 128))))
            if rng.random() < 0.5:
                grace = rng.randint(0, 30)
                body["clock"] = {"turn_seconds": rng.randint(1, LONGEST_TURN + 30 - grace), "grace_seconds": grace}
        if _profile(rules) == "chkobba" and rng.random() < 0.7:
            body["cut"] = rng.choice(["keep", "table"])
        return Request(name, "post", path, body)

    return Operation(name, "post", path, extremes, sample)


# A committed deal's commit token, and a clock, at their largest (the clock: the longest that the default
# token lifetime takes, clock-outlasts-token beyond); a clocked round's token.
LONGEST_TURN = DEFAULT_STATE_TOKEN_LIFETIME - TIMEOUT_MARGIN_SECONDS - 30
LONGEST_CLOCK: Body = {"clock": {"turn_seconds": LONGEST_TURN, "grace_seconds": 30}, "context": "t" * 128}
SERVER_SEED = "5eed" * 16  # 32 bytes, hex: the seed a commit token holds


def _fair_deal(players: int, seed: str) -> Body:
    """dealRound's ``fair``: a commit token (sealed when sent) and one seed per seat."""
    seeds = [f"{seed[:-1]}{seat}" for seat in range(players)]
    return {"fair": {"commit_token": {"$commit": SERVER_SEED}, "seeds": seeds}}


def _expired_clock(state: dict[str, Any]) -> dict[str, Any]:
    """What the token of a clocked round carries beside ``state``, its seat to move's time run out
    long ago (dealt in 2023, a turn of a second): a timeout move plays the default move for it.
    No record: a crafted state has none (neither has any other sealed state here)."""
    clock = {"turn_ms": 1000, "grace_ms": 0, "dealt_at_ms": 1_700_000_000_000, "last_ms": 0}
    return {"id": "worst-case", "seq": 0, "clock": clock}


def _timeout(state: dict[str, Any]) -> Body:
    """playRound's body: the timeout move of the seat to move, in a clocked round whose time ran out."""
    return {
        "state_token": {"$sealed": state, "$round": _expired_clock(state)},
        "move": {"timeout": True, "seat": state["turn"]},
    }


def _commit_op() -> Operation:
    """commitDeal: its only body is ``{}`` (a seed drawn, its hash, a commit token sealed)."""
    name, path = "commitDeal", "/v1/deals/commitments"
    return Operation(name, "post", path, lambda: [Request(name, "post", path, {}, "{}, its only body")])


# playRound, viewRound, suggestMoves: round states.


def _sealed(state: dict[str, Any]) -> dict[str, Any]:
    return {"$sealed": state}


def _state_extremes() -> list[tuple[dict[str, Any], str]]:
    """States the core accepts with the most legal moves, the costliest searches, the biggest answers:
    each profile's richest table (``richest_tables``) with its hand to move and the highest cards
    left in the other hands, for every player count, with an empty stock (for two players the hints
    then search the rest of the round exactly) or a stock of one refill; and the same table with the
    lowest cards to move, the richest hand next (the hints weigh its replies)."""
    out = []
    for rules in RULES[:4]:  # the others deal the same tables as one of these
        profile = _profile(rules)
        kind = f"{profile}{' face_sums' if isinstance(rules, dict) else ''}"
        for table, hand, options in richest_tables(rules, 1):
            label = f"{' '.join(hand)} to move, {len(table)} table cards, {options} captures ({kind})"
            for players in PLAYERS[profile]:
                for stock in (0, HAND * players):
                    taken = {*table, *hand}
                    hands = {0: hand}
                    for seat in range(1, players):
                        hands[seat] = _highest(rules, taken, HAND)
                        taken.update(hands[seat])
                    where = f"{players} players, {'empty stock' if not stock else f'a stock of {stock}'}"
                    out.append((crafted_state(rules, players, players - 1, hands, table, stock), f"{where}: {label}"))
            low = sorted((c for c in CODES if c not in {*table, *hand}), key=lambda c: (_values(rules)[c], c))[:HAND]
            two = crafted_state(rules, 2, 1, {0: low, 1: hand}, table)
            out.append((two, f"2 players, empty stock: {' '.join(low)} to move, then {label}"))
    return out


def _hints_op() -> Operation:
    name, path = "suggestMoves", "/v1/hints"

    def extremes() -> list[Request]:
        out = []
        for state, label in _state_extremes():
            out.append(Request(name, "post", path, {"state": state, "limit": 100}, label))
            out.append(Request(name, "post", path, {"state_token": _sealed(state), "limit": 100}, f"sealed: {label}"))
        return out

    def sample(rng: random.Random) -> Request:
        state = random_state(rng)
        body: Body = {"state": state, "limit": rng.choice((1, 20, 100, 100))}
        return Request(name, "post", path, body, f"played: {describe(state)}")

    def mutate(request: Request, rng: random.Random) -> Request | None:
        body = copy.deepcopy(request.body or {})
        sealed = "state_token" in body
        state = body["state_token"]["$sealed"] if sealed else body["state"]
        new = mutate_state(state, rng)
        if new is None:
            return None
        if sealed:
            body["state_token"] = _sealed(new)
        else:
            body["state"] = new
        return Request(name, "post", path, body, f"hill climbing: {describe(new)}")

    return Operation(name, "post", path, extremes, sample, mutate)


def _view_op() -> Operation:
    name, path = "viewRound", "/v1/rounds/view"

    def extremes() -> list[Request]:
        out = []
        for state, label in _state_extremes():
            out.append(Request(name, "post", path, {"state_token": _sealed(state), "seat": 1}, f"sealed: {label}"))
            out.append(Request(name, "post", path, {"state": state, "seat": 1}, label))
        return out

    def sample(rng: random.Random) -> Request:
        state = random_state(rng)
        body: Body = {"seat": rng.randrange(state["players"])}
        if rng.random() < 0.5:
            body["state_token"] = _sealed(state)
        else:
            body["state"] = state
        return Request(name, "post", path, body, f"played: {describe(state)}")

    def mutate(request: Request, rng: random.Random) -> Request | None:
        body = copy.deepcopy(request.body or {})
        sealed = "state_token" in body
        new = mutate_state(body["state_token"]["$sealed"] if sealed else body["state"], rng)
        if new is None:
            return None
        body["seat"] = rng.randrange(new["players"])
        if sealed:
            body["state_token"] = _sealed(new)
        else:
            body["state"] = new
        return Request(name, "post", path, body, f"hill climbing: {describe(new)}")

    return Operation(name, "post", path, extremes, sample, mutate)


def _legal_pairs(state: dict[str, Any]) -> list[dict[str, Any]]:
    from service.rules import RoundState, legal_moves

    round_state = RoundState.from_json(state)
    if round_state.phase.value == "cut":
        return [{"cut": "keep"}, {"cut": "table"}]
    return [
        {"card": caps.card.code, "capture": [c.code for c in option]}
        for caps in legal_moves(round_state)
        for option in (caps.options or ((),))
    ]


def illegal(state: dict[str, Any]) -> dict[str, Any]:
    """An illegal play of the seat to move's card with the most captures (its problem lists them all,
    and every card's): one table card that the card may not take alone, or no capture when it must
    take one, or a pile's card when the table is empty."""
    from service.rules import RoundState, legal_moves

    caps = max(legal_moves(RoundState.from_json(state)), key=lambda c: len(c.options))
    alone = {option[0].code for option in caps.options if len(option) == 1}
    wrong = next((card for card in state["table"] if card not in alone), None)
    if wrong is not None:
        return {"card": caps.card.code, "capture": [wrong]}
    if caps.options:
        return {"card": caps.card.code, "capture": []}
    return {"card": caps.card.code, "capture": [next(card for pile in state["piles"] for card in pile)]}


def _play_op() -> Operation:
    name, path = "playRound", "/v1/rounds/play"

    def extremes() -> list[Request]:
        out = []
        for state, label in _state_extremes():
            out.append(
                Request(name, "post", path, {"state": state, "move": illegal(state)}, f"an illegal move: {label}")
            )
            legal = _legal_pairs(state)[0]
            out.append(Request(name, "post", path, {"state_token": _sealed(state), "move": legal}, f"sealed: {label}"))
            if state["phase"] == "play":  # the default move: the hints' search, then the play
                out.append(Request(name, "post", path, _timeout(state), f"timeout: {label}"))
        return out

    def sample(rng: random.Random) -> Request:
        state = random_state(rng)
        draw = rng.random()
        if draw < 0.2 and state["phase"] == "play":
            return Request(name, "post", path, _timeout(state), f"timeout, played: {describe(state)}")
        move = illegal(state) if draw < 0.6 else rng.choice(_legal_pairs(state))
        body: Body = {"move": move}
        if rng.random() < 0.4:
            body["state_token"] = _sealed(state)
        else:
            body["state"] = state
        return Request(name, "post", path, body, f"played: {describe(state)}")

    def mutate(request: Request, rng: random.Random) -> Request | None:
        body = copy.deepcopy(request.body or {})
        sealed = "state_token" in body
        state = body["state_token"]["$sealed"] if sealed else body["state"]
        new = mutate_state(state, rng)
        if new is None:
            return None
        if "timeout" in body["move"]:  # stays a timeout of the seat to move, its time run out
            return Request(name, "post", path, _timeout(new), f"hill climbing, timeout: {describe(new)}")
        body["move"] = illegal(new) if rng.random() < 0.6 else rng.choice(_legal_pairs(new))
        if sealed:
            body["state_token"] = _sealed(new)
        else:
            body["state"] = new
        return Request(name, "post", path, body, f"hill climbing: {describe(new)}")

    return Operation(name, "post", path, extremes, sample, mutate)


# replayRound: records played by a policy that grows the table, the last move illegal.


def record_of(rules: Any, players: int, dealer: int, deck: list[str], lay: float, rng: random.Random) -> Body:
    """A record dealt from ``deck`` and played by legal moves: each seat lays a card when it can with
    chance ``lay``, else makes the capture taking the fewest cards; nine times in ten the record stops
    at an illegal capture, on the biggest table met, of the card with the most captures."""
    from service.rules import Cut, CutMove, PlayMove, deal_round, legal_moves
    from service.rules.round import advance

    cut = "keep" if _profile(rules) == "chkobba" else None
    state, _ = deal_round(rules, players, dealer, deck=deck, cut=cut)
    moves: list[dict[str, Any]] = []
    best_illegal: tuple[int, int, dict[str, Any]] | None = None  # (table size, index, move)
    while state.turn is not None:
        legal = legal_moves(state)
        if state.phase.value == "cut":
            move: Any = CutMove(Cut.KEEP)
            moves.append({"cut": "keep"})
        else:
            lays = [c for c in legal if not c.options]
            if lays and rng.random() < lay:
                caps = rng.choice(lays)
                move = PlayMove(caps.card, ())
            else:
                caps = min((c for c in legal if c.options), key=lambda c: len(c.options[0]), default=legal[0])
                move = PlayMove(caps.card, caps.options[0] if caps.options else ())
            if state.table and (best_illegal is None or len(state.table) >= best_illegal[0]):
                most = max(legal, key=lambda c: len(c.options))  # a table card it may not take alone
                alone = {option[0] for option in most.options if len(option) == 1}
                taken = next((c for c in state.table if c not in alone), None)
                if taken is not None:
                    wrong = {"card": most.card.code, "capture": [taken.code], "seat": state.turn}
                    best_illegal = (len(state.table), len(moves), wrong)
            moves.append({"card": move.card.code, "capture": [c.code for c in move.capture or ()], "seat": state.turn})
        state, _ = advance(state, move)
    if best_illegal is not None and rng.random() < 0.9:
        _, index, wrong = best_illegal
        moves = moves[:index] + [wrong]
    body: Body = {"rules": rules, "players": players, "dealer": dealer, "deck": deck, "moves": moves}
    if cut:
        body["cut"] = cut
        body["moves"] = moves[1:] if moves and moves[0] == {"cut": "keep"} else moves
    return body


def _replay_op() -> Operation:
    name, path = "replayRound", "/v1/rounds/replay"

    def claimed(sides: int) -> list[dict[str, int]]:
        return [{"side": s, **CLAIM_MAXIMA} for s in range(sides)]

    def sample(rng: random.Random) -> Request:
        rules = rng.choice(RULES)
        players = rng.choice(PLAYERS[_profile(rules)])
        deck = list(CODES)
        rng.shuffle(deck)
        body = record_of(rules, players, rng.randrange(players), deck, rng.random(), rng)
        if rng.random() < 0.5:
            body["claimed"] = claimed(_sides(rules, players))
        return Request(name, "post", path, body, f"a played record, {players} players {_profile(rules)}")

    def extremes() -> list[Request]:
        rng = random.Random("replay")
        out = []
        for rules, players in (("chkobba", 2), ("chkobba", 4), ("chkobba-crp", 3), ("scopa", 2)):
            deck = list(CODES)
            rng.shuffle(deck)
            complete = record_of(rules, players, 0, deck, 0.0, random.Random(0))
            body = {**complete, "claimed": claimed(_sides(rules, players))}
            out.append(
                Request(name, "post", path, body, f"a record with a wrong claim, {players} players {_profile(rules)}")
            )
            out.append(
                Request(
                    name,
                    "post",
                    path,
                    record_of(rules, players, 0, deck, 1.0, random.Random(1)),
                    "lays first, illegal last",
                )
            )
        return out

    def mutate(request: Request, rng: random.Random) -> Request | None:
        body = request.body or {}
        deck = list(body["deck"])
        i, j = rng.randrange(40), rng.randrange(40)
        deck[i], deck[j] = deck[j], deck[i]
        new = record_of(body["rules"], body["players"], body["dealer"], deck, rng.random(), rng)
        if "claimed" in body:
            new["claimed"] = body["claimed"]
        return Request(name, "post", path, new, "hill climbing")

    return Operation(name, "post", path, extremes, sample, mutate)


def _match_replay_op() -> Operation:
    """replayMatch: whole matches of random legal moves, as many rounds as the body limit holds (at
    most MAX_ROUNDS), each round's claim at the contract's maxima (a verdict, not a refusal)."""
    from service.ops.limits import MAX_BODY_BYTES
    from service.rules import MAX_ROUNDS
    from tests.support import match_record

    name, path = "replayMatch", "/v1/matches/replay"

    def body_of(rules: Any, players: int, seeds: Sequence[str], claims: bool) -> Body:
        record = match_record(rules, players, 0, seeds)
        if claims:
            for given in record["rounds"]:
                given["claimed"] = [{"side": s, **CLAIM_MAXIMA} for s in range(_sides(rules, players))]
        while len(json.dumps({**record, "receipt": True}, separators=(",", ":"))) > MAX_BODY_BYTES:
            record["rounds"].pop()
        return record

    def extremes() -> list[Request]:
        out = []
        crp = {"profile": "chkobba-crp", "options": {"face_sums": True, "primiera": True, "target": 1000}}
        for rules, players in ((crp, 4), ({"profile": "chkobba", "options": {"target": 1000}}, 2)):
            seeds = [f"worst/match/{i}" for i in range(MAX_ROUNDS)]
            for claims in (False, True):
                body = body_of(rules, players, seeds, claims)
                label = f"{len(body['rounds'])} whole rounds, {players} players {_profile(rules)}"
                out.append(Request(name, "post", path, body, label + (", every round claimed" if claims else "")))
        return out

    def sample(rng: random.Random) -> Request:
        rules = rng.choice(RULES)
        players = rng.choice(PLAYERS[_profile(rules)])
        seeds = [f"worst/match/{rng.random()}" for _ in range(rng.randint(1, MAX_ROUNDS))]
        body = body_of(rules, players, seeds, rng.random() < 0.5)
        return Request(name, "post", path, body, f"a match of {len(body['rounds'])} rounds, {players} players")

    return Operation(name, "post", path, extremes, sample)


def operations() -> list[Operation]:
    """Every operation of openapi.yaml, in its order."""
    return [
        _get("getHealth", "/healthz"),
        _get("getMetrics", "/metrics"),
        _get("getOpenapi", "/openapi.yaml"),
        _get("getOpenapiJson", "/openapi.json"),
        _get("getReadiness", "/readyz"),
        _captures_op(),
        _commit_op(),
        _hints_op(),
        _with_floats_too(_match_op()),
        _with_floats_too(_match_replay_op()),
        _moves_op(),
        _deal_op(),
        _play_op(),
        _with_floats_too(_replay_op()),
        _view_op(),
        _get("listRulesets", "/v1/rulesets"),
        Operation(
            "getRuleset",
            "get",
            "/v1/rulesets/{profile}",
            lambda: [Request("getRuleset", "get", f"/v1/rulesets/{p}", None, p) for p in PLAYERS],
        ),
        _with_floats_too(_scores_op()),
    ]


# ---- the search ----------------------------------------------------------------------------------


@dataclass
class Settings:
    samples: int  # random valid bodies per operation
    climbs: int  # hill-climbing steps from each of the best few
    starts: int  # how many of the best bodies the climbs start from
    repeats: int  # measurements per candidate (the median)
    final_repeats: int  # measurements of the finalists
    finalists: int


FULL = Settings(samples=60, climbs=40, starts=3, repeats=3, final_repeats=15, finalists=5)
QUICK = Settings(samples=8, climbs=6, starts=1, repeats=3, final_repeats=5, finalists=2)


@dataclass
class Found:
    operation: str
    candidates: int
    invalid: int
    cpu: Measured  # the costliest in CPU time
    bytes: Measured  # the biggest answer
    refused: dict[str, int] = field(default_factory=dict)  # the invalid bodies, by status and problem code


def search(meter: Meter, op: Operation, settings: Settings, seed: int) -> Found:
    """The costliest valid requests of ``op``: constructed, random, then hill climbing."""
    rng = random.Random(f"worst/{seed}/{op.name}")
    seen: list[Measured] = []
    refused: Counter[str] = Counter()

    def consider(request: Request | None) -> Measured | None:
        if request is None:
            return None
        measured = meter.measure(request, settings.repeats)
        if not measured.valid:
            refused[f"{measured.status} {measured.code}"] += 1
            return None
        seen.append(measured)
        return measured

    for request in op.extremes():
        consider(request)
    if op.sample is not None:
        for _ in range(settings.samples):
            consider(op.sample(rng))
    if op.mutate is not None and seen:
        for key in (lambda m: m.cpu_ms, lambda m: m.bytes):
            starts = sorted(seen, key=key, reverse=True)[: settings.starts]
            for current in starts:
                for _ in range(settings.climbs):
                    found = consider(op.mutate(current.request, rng))
                    if found is not None and key(found) > key(current):
                        current = found
    # The finalists again, measured longer: the timings of a shared machine are noisy.
    finalists = sorted(seen, key=lambda m: m.cpu_ms, reverse=True)[: settings.finalists]
    remeasured = [meter.measure(m.request, settings.final_repeats) for m in finalists]
    worst_cpu = max(remeasured, key=lambda m: m.cpu_ms)
    worst_bytes = max(seen, key=lambda m: m.bytes)
    if worst_bytes.request is not worst_cpu.request:
        worst_bytes = meter.measure(worst_bytes.request, settings.final_repeats)
    invalid = sum(refused.values())
    return Found(op.name, len(seen) + invalid, invalid, worst_cpu, worst_bytes, dict(refused))


def _summary(m: Measured) -> dict[str, Any]:
    return {
        "cpu_ms": round(m.cpu_ms, 3),
        "bytes": m.bytes,
        "status": m.status,
        "code": m.code,
        "label": m.request.label,
    }


def report(
    found: Sequence[Found], info: dict[str, Any], settings: Settings, seed: int, elapsed: float
) -> dict[str, Any]:
    return {
        "machine": info,
        "seed": seed,
        "settings": settings.__dict__,
        "limits": {"cpu_ms": LIMIT_CPU_MS, "bytes": LIMIT_BYTES, "target_cpu_ms": TARGET_CPU_MS},
        "total_s": round(elapsed, 1),
        "operations": {
            f.operation: {
                "candidates": f.candidates,
                "invalid": f.invalid,
                "refused": f.refused,
                "worst_cpu": _summary(f.cpu),
                "worst_bytes": _summary(f.bytes),
                "cpu": f.cpu.request.to_json(),
                "bytes": f.bytes.request.to_json(),
            }
            for f in found
        },
    }


def print_table(found: Sequence[Found]) -> None:
    head = (
        f"{'operation':<14} {'bodies':>6} {'CPU ms':>8} {'its bytes':>10} {'status':>6} {'most bytes':>10} "
        f"{'its CPU ms':>10}  worst body (CPU)"
    )
    print(head)
    print("-" * len(head))
    for f in found:
        print(
            f"{f.operation:<14} {f.candidates:>6} {f.cpu.cpu_ms:>8.2f} {f.cpu.bytes:>10,} {f.cpu.status:>6} "
            f"{f.bytes.bytes:>10,} {f.bytes.cpu_ms:>10.2f}  {f.cpu.request.label}"
        )
    refusals = [f"{f.operation} {n} x {why}" for f in found for why, n in sorted(f.refused.items())]
    if refusals:
        print(f"\nrefused as invalid, not measured (status and problem code): {'; '.join(refusals)}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.worst", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: few bodies per operation")
    parser.add_argument("--only", action="append", metavar="OP", help="search this operation only (repeatable)")
    parser.add_argument("--seed", type=int, default=0, help="the search's seed (default 0)")
    parser.add_argument("--json", metavar="PATH", help="also write the report and the worst bodies as JSON")
    parser.add_argument("--update", action="store_true", help=f"rewrite {WORST_BODIES.name} with the bodies found")
    parser.add_argument("--bodies", action="store_true", help="print each worst body in full")
    args = parser.parse_args(argv)
    settings = QUICK if args.quick else FULL
    info = machine()
    load = info["loadavg_at_start"]
    print(f"worst-case benchmark: Python {info['python']}, {info['platform']}")
    print(f"CPUs: {info['cpu_count']}; load average: {' '.join(f'{x:.2f}' for x in load) if load else 'n/a'}")
    print("CPU ms: median thread CPU time of one request through the WSGI app; bytes: the answer's body")
    print()
    started = time.perf_counter()
    meter = Meter()
    ops = [op for op in operations() if not args.only or op.name in args.only]
    found = []
    for op in ops:
        found.append(search(meter, op, settings, args.seed))
        print(f"  {op.name}: {found[-1].candidates} bodies", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - started
    print_table(found)
    print()
    over = [f for f in found if f.cpu.cpu_ms > LIMIT_CPU_MS or f.bytes.bytes > LIMIT_BYTES]
    high = [f for f in found if f.cpu.cpu_ms > TARGET_CPU_MS]
    print(f"limits: {LIMIT_CPU_MS:.0f} ms of CPU and {LIMIT_BYTES:,} bytes; target {TARGET_CPU_MS:.0f} ms")
    print(
        "every operation within the limits" if not over else f"OVER THE LIMITS: {', '.join(f.operation for f in over)}"
    )
    if high:
        print(f"above the target: {', '.join(f.operation for f in high)}")
    print()
    for f in found:
        text = json.dumps(f.cpu.request.body)
        print(
            f"{f.operation} ({f.cpu.request.label}): {text if args.bodies or len(text) < 300 else text[:300] + '...'}"
        )
    print(f"\ntotal run time: {elapsed:.1f} s")
    result = report(found, info, settings, args.seed, elapsed)
    if args.json:
        write_json(args.json, result)
    if args.update:
        recorded = {
            "seed": args.seed,
            "machine": info,
            "operations": {
                name: {
                    "cpu": entry["cpu"],
                    "bytes": entry["bytes"],
                    "worst_cpu": entry["worst_cpu"],
                    "worst_bytes": entry["worst_bytes"],
                }
                for name, entry in result["operations"].items()
            },
        }
        if args.only and WORST_BODIES.exists():
            kept = json.loads(WORST_BODIES.read_text(encoding="utf-8"))
            kept["operations"].update(recorded["operations"])
            recorded["operations"] = kept["operations"]
        WORST_BODIES.write_text(json.dumps(recorded, indent=1) + "\n", encoding="utf-8")
        print(f"worst bodies written to {WORST_BODIES}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
