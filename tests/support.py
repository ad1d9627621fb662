"""Helpers that several test suites share, and the plain helpers a suite's test modules import: the
conftest modules hold only fixtures and hooks, and no test module imports one (tests/unit/test_purity.py)."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import http.client
import itertools
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import settings
from prometheus_client import multiprocess
from prometheus_client.parser import text_string_to_metric_families

# Shared with the benchmarks, which start gunicorn the same way.
from bench.report import children as children
from bench.report import free_port as free_port
from bench.report import send as send
from service.rules import (
    DECK,
    Cut,
    CutMove,
    Outcome,
    Phase,
    PlayMove,
    RoundState,
    Rules,
    advance,
    deal_round,
    decide_match,
    legal_moves,
    replay_round,
)
from service.rules.replay import verdicts_to_json

ROOT = Path(__file__).resolve().parents[1]
CURRENT_TEST: list[pytest.Item | None] = [None]  # set for each test by tests/conftest.py

# The canonical order (docs/rules.md §1.2): suits D H S C, each A 2 3 4 5 6 7 J Q K. Written out here,
# never taken from the rules core, so that a test of the core's deck has something to compare it with.
RANKS = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
SUITS = ("D", "H", "S", "C")
CANONICAL = [rank + suit for suit in SUITS for rank in RANKS]


def examples(count: int) -> settings:
    """``settings(max_examples=count)`` for a test that needs another count than the profile's, scaled
    as the loaded profile scales the default one (tests/conftest.py: make test-fast's quick profile
    runs a third of them)."""
    scale = settings.default.max_examples / settings.get_profile("default").max_examples
    return settings(max_examples=max(1, round(count * scale)))


def deck_starting(*prefix: str) -> list[str]:
    """A full deck whose top cards are ``prefix``, the rest in canonical order."""
    assert len(set(prefix)) == len(prefix)
    return [*prefix, *(c for c in CANONICAL if c not in prefix)]


def b64url_decode(text: str) -> bytes:
    """The bytes of base64url text written without its ``=`` padding (a state token, a key)."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url_encode(raw: bytes) -> str:
    """``raw`` as base64url text without ``=`` padding, as the service writes tokens and reads keys."""
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading, as /rules gives it too."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def state_json(
    *,
    rules: Any = "chkobba",
    players: int = 2,
    dealer: int = 0,
    phase: str = "play",
    turn: int | None = 1,
    hands: Sequence[Sequence[str]],
    table: Sequence[str],
    stock: Sequence[str] | None = None,
    piles: Sequence[Sequence[str]] | None = None,
    sweeps: Sequence[int] | None = None,
    last_capturer: int | None = None,
) -> dict[str, Any]:
    """A round state in its JSON form (openapi.yaml "RoundState"), from card codes.

    By default: chkobba, two players, dealer 0, phase play, seat 1 to move, empty piles, no sweeps, no
    last capturer, and a stock of every card not placed elsewhere, in the canonical order (``DECK``).
    Any field can be given, ``stock`` too (then no card is added anywhere: the state need not be valid).
    Every list is a fresh copy, so a test may change the state without touching what it was built from.
    """
    sides = 2 if players == 4 else players
    piles = [list(p) for p in piles] if piles is not None else [[] for _ in range(sides)]
    if stock is None:
        used = {c for group in (*hands, table, *piles) for c in group}
        stock = [c.code for c in DECK if c.code not in used]
    return {
        "rules": rules,
        "players": players,
        "dealer": dealer,
        "phase": phase,
        "turn": turn,
        "hands": [list(h) for h in hands],
        "table": list(table),
        "stock": list(stock),
        "piles": piles,
        "sweeps": list(sweeps) if sweeps is not None else [0] * sides,
        "last_capturer": last_capturer,
    }


def strings_in(value: Any) -> set[str]:
    """Every string in a JSON value, keys included: where a card code could show."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for k, v in value.items() for s in strings_in(k) | strings_in(v)}
    if isinstance(value, list):
        return {s for item in value for s in strings_in(item)}
    return set()


def status_of(port: int, path: str) -> int:
    """The status of GET ``path`` on the loopback ``port`` (an OSError while nothing listens there)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    finally:
        conn.close()


def clean_environment(**settings: str) -> dict[str, str]:
    """The test's environment without any of the service's settings, then ``settings``.

    No CHKOBBA_* or PROMETHEUS_* variable, nor PORT, of the calling shell (a log level, a bind) leaks in.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CHKOBBA_", "PROMETHEUS_")) and k != "PORT"}
    env.update(settings)
    return env


def gunicorn_refused(env: Mapping[str, str]) -> str:
    """What gunicorn serving ``service.app:create_app()`` with ``env`` prints on stderr as it refuses to
    start; the test fails if it starts (or waits) instead."""
    done = subprocess.run(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "service.app:create_app()"],
        cwd=ROOT,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode != 0, done.stderr[-2000:]
    return done.stderr


@contextmanager
def running_gunicorn(
    env: Mapping[str, str],
    ready: Callable[[], bool],
    log: Path,
    *,
    stderr: Path | None = None,
    cwd: Path = ROOT,
    command: Sequence[str] | None = None,
    stop: signal.Signals = signal.SIGTERM,
) -> Iterator[subprocess.Popen[bytes]]:
    """gunicorn serving ``service.app:create_app()`` with ``env``, once ``ready()`` is true; stopped after.

    Output goes to ``log`` (stderr too, unless ``stderr`` names a file of its own). ``ready`` may raise
    an OSError while nothing listens yet. The test fails, with the log, if gunicorn exits or is not ready
    within 30 s. At the end gunicorn gets ``stop``, then is killed if still running 10 s later.
    Only a test marked ``server`` may start one (``make test-fast`` leaves those out).
    """
    test = CURRENT_TEST[0]
    if test is not None and test.get_closest_marker("server") is None and test.get_closest_marker("browser") is None:
        pytest.fail(f"{test.nodeid} starts gunicorn: mark it @pytest.mark.server (make test-fast skips those)")
    command = command or [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py")]
    with ExitStack() as files:
        out = files.enter_context(log.open("wb"))
        err = files.enter_context(stderr.open("wb")) if stderr else subprocess.STDOUT
        process = subprocess.Popen(
            [*command, "service.app:create_app()"], cwd=cwd, env=dict(env), stdout=out, stderr=err
        )

    def output() -> str:
        return (stderr or log).read_text(encoding="utf-8", errors="replace")

    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                pytest.fail(f"gunicorn exited with {process.returncode}:\n{output()}")
            try:
                if ready():
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"gunicorn was not ready within 30 s:\n{output()}")
            time.sleep(0.1)
        yield process
    finally:
        if process.poll() is None:
            process.send_signal(stop)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)


# ---- the HTTP API's answers, in-process (tests/api): Flask's test client ----

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_FIELDS = ("type", "title", "status", "detail", "code")

# Every operation answered by a POST, by its path, as the contract lists them.
POST_PATHS = tuple(
    path
    for path, operations in yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))["paths"].items()
    if "post" in operations
)


def ok(response: Any) -> Any:
    """The JSON body of a 200 answer (with the body in the failure message otherwise)."""
    assert response.status_code == 200, (response.status_code, response.get_data(as_text=True))
    assert response.mimetype == "application/json"
    return response.get_json()


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    """Assert an RFC 9457 problem with the stable fields of openapi.yaml 'Problem' and the ``code`` named; return
    its body. (The code is required: a refusal for another reason must fail the test.)"""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.mimetype == PROBLEM_MEDIA_TYPE, response.headers.get("Content-Type")
    body = response.get_json()
    assert isinstance(body, dict), body
    for name in PROBLEM_FIELDS:
        assert name in body, (name, body)
    assert body["status"] == status
    assert isinstance(body["type"], str) and body["type"]
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"]
    assert isinstance(body["code"], str) and body["code"]
    assert body["code"] == code, body
    # No stack trace or internals leak into a problem.
    text = response.get_data(as_text=True)
    assert "Traceback" not in text and 'File "' not in text
    return body


def line(side: int, cards: int, diamonds: int, sevens: int, seven_of_diamonds: int, sweeps: int, primiera: int) -> dict:
    """A breakdown line, its total computed here as the sum of the categories."""
    points = (cards, diamonds, sevens, seven_of_diamonds, sweeps, primiera)
    names = ("cards", "diamonds", "sevens", "seven_of_diamonds", "sweeps", "primiera")
    return {"side": side, **dict(zip(names, points, strict=True)), "total": sum(points)}


def counts(cards: int, diamonds: int, sevens: int, sixes: int, seven_of_diamonds: bool) -> dict[str, Any]:
    """A side's pile counts, as scoreRound takes them."""
    return {
        "cards": cards,
        "diamonds": diamonds,
        "sevens": sevens,
        "sixes": sixes,
        "seven_of_diamonds": seven_of_diamonds,
    }


def counted(client: Any, metric: str, label: str) -> Counter:
    """The counter ``metric`` (its ``_total`` sample) by the value of its ``label``, as the app's ``/metrics``
    shows it to ``client``. Only the lines of that family are parsed: the whole text grows with every
    operation and status the session's app answered (a hundred kilobytes, tens of milliseconds to parse,
    by the end of tests/api)."""
    response = client.get("/metrics")
    assert response.status_code == 200
    family_name = metric.removesuffix("_total")
    lines = [line for line in response.get_data(as_text=True).splitlines() if family_name in line]
    found: Counter = Counter()
    for family in text_string_to_metric_families("\n".join(lines) + "\n"):
        for sample in family.samples:
            if sample.name == metric:
                found[sample.labels[label]] += sample.value
    return found


# ---- a gunicorn that a test started: tests/ops's start_gunicorn fixture, tests/browser's service ----


@dataclass
class Server:
    """A gunicorn that tests/ops's ``start_gunicorn`` started (or a test itself): its process, its loopback
    port, and its output files."""

    process: subprocess.Popen[bytes]
    port: int
    stdout: Path
    stderr: Path

    def get(self, path: str, headers: Mapping[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request("GET", path, headers=dict(headers or {}))
            response = conn.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            conn.close()

    def log(self) -> str:
        return self.stderr.read_text(encoding="utf-8", errors="replace")


# The screen sizes of the browser tests (tests/browser): a desktop's, and a phone's, as the issue asks.
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


@dataclass
class Service:
    """The gunicorn that tests/browser's ``service`` fixture runs for the pages: its base URL, process and log."""

    base: str
    process: subprocess.Popen[bytes]
    log: Path

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """The API's own answer, fetched without the browser, to compare the pages with."""
        host, port = self.base.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        try:
            headers = {"Content-Type": "application/json"} if body is not None else {}
            data = json.dumps(body) if body is not None else None
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            return response.status, json.loads(response.read() or b"null")
        finally:
            connection.close()


def places(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path in a JSON value (dict keys and list indexes), the value itself first."""
    found = [at]
    if isinstance(value, dict):
        for key, item in value.items():
            found += places(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += places(item, (*at, index))
    return found


def changed(body: Any, path: tuple[Any, ...], action: str, new: Any) -> Any:
    """A copy of a JSON value with one change at ``path``: ``replace`` the value there by ``new``,
    ``delete`` it, ``swap`` a list's item with its first, or (any other action) insert ``new``
    before it in a list, or beside it, under a new key, in an object."""
    body = json.loads(json.dumps(body))
    if not path:
        return new if action == "replace" else body
    parent = body
    for step in path[:-1]:
        parent = parent[step]
    key = path[-1]
    if action == "replace":
        parent[key] = new
    elif action == "delete":
        del parent[key]
    elif action == "swap" and isinstance(parent, list) and parent:
        parent[key], parent[0] = parent[0], parent[key]
    elif isinstance(parent, list):
        parent.insert(key, new)
    else:
        parent[f"{key}_"] = new
    return body


def health(port: int) -> int | None:
    """/healthz's status, or None while nothing listens."""
    try:
        return send(port, "GET", "/healthz", timeout=2)[0]
    except OSError:  # not listening yet
        return None


# --- a move of a caller's own class


class NotedPlay(PlayMove):
    """A play of a caller's own class (tests/unit): the core takes any ``PlayMove``, subclasses too, and
    answers as for a ``PlayMove``, though its fast paths test for that exact class."""

    __slots__ = ()


# --- the seeded shuffle, written from its published description alone (docs/seeded-shuffle.md),
# never from service.rules.shuffle: the tests' one oracle for it.


def reference_draws(seed: object) -> Iterator[int]:
    """Draw k: the first 8 bytes, big-endian, of SHA-256 of the UTF-8 text "<seed>:<k>"."""
    for k in itertools.count():
        yield int.from_bytes(hashlib.sha256(f"{seed}:{k}".encode()).digest()[:8], "big")


def reference_shuffle(seed: object = None, *, draws: Iterator[int] | None = None) -> list[str]:
    """The deck of ``seed`` (or of the ``draws`` given), top card first, as card codes."""
    draws = reference_draws(seed) if draws is None else draws
    deck = list(CANONICAL)
    for i in range(39, 0, -1):
        n = i + 1
        x = next(draws)
        while x >= 2**64 - (2**64 % n):
            x = next(draws)
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# --- match records, played with the rules core: rounds dealt from seeds, each move a legal one drawn
# with a seeded random.Random, so that every record is real and the same on every run.


def round_record(
    rules: Any, players: int, dealer: int, seed: str, *, cut: str | None = None, cut_move: str | None = None
) -> dict[str, Any]:
    """A whole round as replayRound takes it (``deck``, ``moves``, and ``cut`` when given), played from the
    deal of ``seed`` to its end with random legal moves. In chkobba, ``cut`` deals through the cut and
    ``cut_move`` records it as the first move instead; a void deal (docs/rules.md §3.4) ends there."""
    state, deck = deal_round(rules, players, dealer, seed=seed, cut=cut)
    moves: list[dict[str, Any]] = []
    if cut_move is not None:
        state, _ = advance(state, CutMove(Cut(cut_move)))
        moves.append({"cut": cut_move})
    pick = random.Random(f"{seed}:moves")
    while state.phase is Phase.PLAY:
        captures = pick.choice(legal_moves(state))
        option = pick.choice(captures.options) if captures.options else None
        move: dict[str, Any] = {"card": captures.card.code}
        if option is not None:
            move["capture"] = [c.code for c in option]
        state, _ = advance(state, PlayMove(captures.card, option))
        moves.append(move)
    record: dict[str, Any] = {"deck": [c.code for c in deck], "moves": moves}
    if cut is not None:
        record["cut"] = cut
    return record


def match_record(
    rules: Any, players: int, dealer: int, seeds: Sequence[str], *, most: int | None = None
) -> dict[str, Any]:
    """A match as a table records it: a round from each seed in turn, dealt by the seat the rotation
    names (docs/rules.md §2.4: the dealer's right after a round, the same dealer after a void deal),
    until the match is won or drawn (decide_match), the seeds run out, or ``most`` rounds are played.
    In chkobba every other round records its cut as a move. The record: ``{rules, players, dealer,
    rounds}``, replayMatch's request."""
    the_rules = Rules.of(rules)
    rounds: list[dict[str, Any]] = []
    scores: list[int] | None = None
    deals = dealer
    for k, seed in enumerate(seeds):
        if most is not None and len(rounds) >= most:
            break
        if the_rules.profile.cut_ritual:
            kind = ("keep", "table")[k % 2]
            record = round_record(rules, players, deals, seed, **({"cut": kind} if k % 2 else {"cut_move": kind}))
        else:
            record = round_record(rules, players, deals, seed)
        rounds.append(record)
        replay = replay_round(rules, players, deals, record["moves"], deck=record["deck"], cut=record.get("cut"))
        deals = replay.state.next_dealer if replay.state.next_dealer is not None else deals
        breakdown = replay.breakdown
        if breakdown is None:
            continue  # a void deal: the same dealer deals again
        scores = scores or [0] * len(breakdown)
        decision = decide_match(the_rules, scores, [line.total for line in breakdown])
        scores = list(decision.scores)
        if decision.outcome in (Outcome.WON, Outcome.DRAW):
            break
    return {"rules": rules, "players": players, "dealer": dealer, "rounds": rounds}


# A round of a match record, as replayRound takes it (the rules, the players and the dealer added), to
# replayRound's answer; and the scores so far with a round's points, to decideMatch's answer.
RoundReplayer = Callable[[dict[str, Any]], dict[str, Any]]
MatchDecider = Callable[[list[int], list[int]], dict[str, Any]]


def round_by_round(record: Mapping[str, Any], replay: RoundReplayer, decide: MatchDecider) -> dict[str, Any]:
    """The oracle of a match record's replay: each round replayed by ``replay`` and the match decided
    after it by ``decide``, one round after another, with the rotation of docs/rules.md §2.4 and §3.4
    written out here (the dealer's right after a round, the same dealer after a void deal). Stops after
    the round with the first illegal move. The structural refusals (a round after the end of the match,
    or after a round that stops early) are not its business. Returns replayMatch's answer but for its
    claim over the whole match; ``core_replay`` and ``core_decide`` play the operations with the core."""
    rules, players = record["rules"], record["players"]
    scores = [0] * Rules.of(rules).profile.sides(players)
    decision: dict[str, Any] | None = None
    expected = record["dealer"]
    judged: list[dict[str, Any]] = []
    stop = None
    for index, given_round in enumerate(record["rounds"]):
        given = given_round.get("dealer", expected)
        replayed = replay({"rules": rules, "players": players, **given_round, "dealer": given})
        void = replayed["state"]["phase"] == "redeal"
        round_decision = None
        if replayed["breakdown"] is not None:
            decided = decide(scores, [line["total"] for line in replayed["breakdown"]])
            scores = list(decided["scores"])
            round_decision = decision = {"outcome": decided["outcome"], "winner": decided["winner"]}
        entry = {
            "index": index,
            "dealer": {"expected": expected, "given": given, "valid": given == expected},
            "void": void,
            "valid": replayed["valid"] and given == expected,
            "complete": replayed["complete"] or void,
            "first_illegal": replayed["first_illegal"],
            "moves": replayed["moves"],
            "breakdown": replayed["breakdown"],
        }
        if "claim" in replayed:
            entry["claim"] = replayed["claim"]
        judged.append({**entry, "scores": scores, "decision": round_decision})
        if replayed["first_illegal"] is not None:
            stop = {"round": index, "move": replayed["first_illegal"]}
            break
        expected = given if void else (given + 1) % players
    final = decision or {"outcome": "continue", "winner": None}
    return {
        "valid": all(r["valid"] for r in judged),
        "complete": final["outcome"] in ("won", "draw"),
        "rounds": judged,
        "first_illegal": stop,
        "scores": scores,
        **final,
    }


def core_replay(body: Mapping[str, Any]) -> dict[str, Any]:
    """replayRound's answer by the core's ``replay_round`` (a claim left out)."""
    replay = replay_round(
        body["rules"],
        body["players"],
        body["dealer"],
        body["moves"],
        deck=body.get("deck"),
        seed=body.get("seed"),
        cut=body.get("cut"),
    )
    breakdown = replay.breakdown
    return {
        "valid": replay.valid,
        "complete": replay.complete,
        "first_illegal": replay.first_illegal,
        "moves": verdicts_to_json(replay.moves),
        "state": replay.state.to_json(),
        "breakdown": None if breakdown is None else [line.to_json() for line in breakdown],
    }


def core_decide(rules: Any) -> MatchDecider:
    """decideMatch's answer under ``rules``, by the core's ``decide_match``."""

    def decide(scores: list[int], points: list[int]) -> dict[str, Any]:
        decided = decide_match(Rules.of(rules), scores, points)
        return {"scores": list(decided.scores), "outcome": decided.outcome.value, "winner": decided.winner}

    return decide


def core_round_by_round(record: Mapping[str, Any]) -> dict[str, Any]:
    """``round_by_round`` with the core's replay and decision."""
    return round_by_round(record, core_replay, core_decide(record["rules"]))


# ---- a round's score, from docs/rules.md §7 alone (tests/api/test_rounds.py, tests/property/test_rounds.py) ----

# docs/rules.md §7.4: the primiera points of each rank (chkobba-crp's option).
PRIMIERA_POINTS = {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "J": 10, "Q": 10, "K": 10}


def expected_breakdown(
    profile: str,
    piles: Sequence[Sequence[str]],
    sweeps: Sequence[int],
    *,
    options: Mapping[str, Any] | None = None,
    last_capturer: int | None = None,
) -> list[dict[str, int]]:
    """A round's breakdown by docs/rules.md §7, computed from the piles' card codes, written here
    independently of the service; ``options`` are chkobba-crp's (§7.4), none by default."""
    options = options or {}
    n = len(piles)
    ties_to = last_capturer if options.get("ties_to_last_capturer") else None

    def most(values: list[int], ties_to: int | None = None) -> int | None:
        top = max(values)
        tied = [s for s in range(n) if values[s] == top]
        if len(tied) == 1:
            return tied[0]
        return ties_to if ties_to in tied else None

    cards = [len(p) for p in piles]
    diamonds = [sum(c[1] == "D" for c in p) for p in piles]
    sevens = [sum(c[0] == "7" for c in p) for p in piles]
    sixes = [sum(c[0] == "6" for c in p) for p in piles]
    winners: dict[str, int | None] = {
        "cards": most(cards, ties_to),
        "diamonds": most(diamonds, ties_to),
        "seven_of_diamonds": next(s for s in range(n) if "7D" in piles[s]),
        "sevens": None,
        "primiera": None,
    }
    if profile == "chkobba":
        top = max(sevens)
        tied = [s for s in range(n) if sevens[s] == top]
        if len(tied) == 1:
            winners["sevens"] = tied[0]
        else:
            top6 = max(sixes[s] for s in tied)
            by_sixes = [s for s in tied if sixes[s] == top6]
            winners["sevens"] = by_sixes[0] if len(by_sixes) == 1 else None
    if options.get("primiera"):
        totals = []
        for pile in piles:
            best: dict[str, int] = {}
            for c in pile:
                best[c[1]] = max(best.get(c[1], 0), PRIMIERA_POINTS[c[0]])
            totals.append(sum(best.values()) if len(best) == 4 else -1)
        if max(totals) >= 0:
            winners["primiera"] = most(totals)
    rows = []
    for s in range(n):
        row = {"side": s, "sweeps": sweeps[s]}
        for category, winner in winners.items():
            row[category] = int(winner == s)
        row["total"] = sum(v for k, v in row.items() if k != "side")
        rows.append(row)
    return rows


# ---- the image's build context (tests/ops/test_image.py, tests/ops/test_settings.py) ----


def _dockerignore_pattern(pattern: str) -> re.Pattern[str]:
    """A .dockerignore pattern (Go filepath.Match with ``**``), matching a path or any parent of it."""
    regex = ""
    for part in re.split(r"(\*\*/?|\*|\?)", pattern.strip("/")):
        regex += {"**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}.get(part, re.escape(part))
    regex = regex.replace(re.escape("[cod]"), "[cod]")  # the one character class used
    return re.compile(rf"{regex}(?:/.*)?")


NOT_INSTALLED = """\
import importlib.metadata
import sys

sys.meta_path[:] = [f for f in sys.meta_path if "__editable__" not in getattr(f, "__module__", "")]
_distribution = importlib.metadata.distribution


def _without_the_project(name):
    if name.replace("_", "-").lower() == "chkobba-referee":
        raise importlib.metadata.PackageNotFoundError(name)
    return _distribution(name)


importlib.metadata.distribution = _without_the_project
"""


def build_context() -> list[str]:
    """The files `docker build .` sends: the last .dockerignore pattern that matches decides."""
    rules = []
    for line in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            rules.append((line.startswith("!"), _dockerignore_pattern(line.lstrip("!"))))
    allowed = [p for negated, p in rules if negated]
    sent = []
    for top in sorted(ROOT.iterdir()):
        # Skip whole trees (.git, .venv) that no exception pattern could reach into.
        if not any(p.match(top.name) or p.pattern.startswith(re.escape(top.name)) for p in allowed):
            continue
        for path in [top] if top.is_file() else sorted(top.rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if path.is_file():
                included = True
                for negated, pattern in rules:
                    if pattern.fullmatch(relative):
                        included = negated
                if included:
                    sent.append(relative)
    return sent


# ---- a worker's own metrics files (tests/api/test_metrics_gunicorn.py, tests/ops/test_settings.py) ----


def served_pids(metrics_dir: Path) -> set[int]:
    """The pids that wrote sample files: a worker writes them when it first counts a request."""
    if not metrics_dir.is_dir():
        return set()
    return {int(m.group(1)) for f in metrics_dir.iterdir() if (m := re.fullmatch(r"\w+?_(\d+)\.db", f.name))}


def requests_of_worker(metrics_dir: Path, pid: int) -> Counter:
    """chkobba_http_requests_total from one worker's own files, by (operation, status)."""
    files = [str(f) for f in metrics_dir.glob(f"*_{pid}.db")]
    out: Counter = Counter()
    for metric in multiprocess.MultiProcessCollector.merge(files, accumulate=True):
        for sample in metric.samples:
            if sample.name == "chkobba_http_requests_total":
                out[sample.labels["operation"], sample.labels["status"]] += sample.value
    return out


def hide_differently(state: RoundState, rng: random.Random) -> RoundState:
    """The same state for the seat to move, with the cards it cannot see dealt out again: the other
    hands and the stock (whose top card stays put in phase cut, as the cutter has seen it)."""
    seat = state.turn
    assert seat is not None
    fixed = 1 if state.phase is Phase.CUT else 0
    hidden = [c for s, h in enumerate(state.hands) if s != seat for c in h] + list(state.stock[fixed:])
    rng.shuffle(hidden)
    hands = []
    for s, hand in enumerate(state.hands):
        if s == seat:
            hands.append(hand)
        else:
            hands.append(tuple(hidden[: len(hand)]))
            hidden = hidden[len(hand) :]
    return dataclasses.replace(state, hands=tuple(hands), stock=(*state.stock[:fixed], *hidden))


def a_whole_round_said(stdout: str) -> dict[str, str]:
    """What a generated client's live round printed, one fact a line (clients/openapi-generator/*-round),
    checked: a sealed four-player chkobba round dealt in phase cut, the cut then 36 plays, over with two
    piles, its record replayed valid and complete with the same totals. The facts, by name."""
    said = dict(line.split(" ", 1) for line in stdout.splitlines())
    assert said["views"] == "4 cut"
    moves = said["moves"].split(",")
    assert moves[0] == "CutMove" and moves[1:] == ["PlayMove"] * 36
    assert said["phase"] == "over piles 2"
    assert said["replay"] == "valid true complete true"
    totals, replayed = said["totals"].split(" replayed ")
    assert totals == replayed and re.fullmatch(r"0:\d+,1:\d+", totals)
    return said
