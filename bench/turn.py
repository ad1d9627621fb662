"""One turn as a game server plays it: the latency of each call of a sealed two-player chkobba round.

Run with ``.venv/bin/python -m bench.turn [--url URL] [--rounds N] [--compare] [--in-process]``
against a service already running (``make run``, or gunicorn with gunicorn.conf.py as ``make run``
starts it), or with ``--in-process`` against the app in this process. It is never part of ``make test``.

One client, one kept-alive connection, one call at a time: the figures are what a game server waits
for on each call, not what the service can serve (``bench/http.py``). For each round (dealer
alternating, seed ``turn-<n>``): dealRound with ``"sealed": true``, then the cut, then every play
until the round is over. Before each play, as a phone's front end might ask through its game server:
viewRound of the seat to move (a refresh), legalCaptures of its hand on the table (to show what each
card takes) and suggestMoves (a hint); then playRound with the best hint and the seat's number. Every
answer must be a 200. It prints each call's median and 90th percentile in ms, with the machine.

``--compare`` plays every round number twice, side by side in the same run: first as a clocked and
committed round (``fair``: commitDeal, then dealRound with ``fair``, one seed per seat
``turn-<n>-<seat>``, and ``clock``, an hour a turn so that no move is late), then as a plain sealed
round (``plain``) dealt from the deck the first one was dealt (its record shows it): the hints are
the same, so both rounds make the same moves in the same positions, with the same calls for every
turn, and only the clock and the commitment differ. It prints both tables, the ratio of playRound's
medians, fair over plain, against the goal of issue 26 (a clocked and committed round adds at most 10%
to a sealed playRound; the exit status is 1 above it), and the median of the per-move ratios.

``--in-process`` calls the WSGI app in this process instead (as ``bench/worst.py`` does) and times
each call's thread CPU time: on a shared machine a round trip's median mostly measures the wait for
a CPU, which hides a cost of a few tens of microseconds or invents one; CPU time does neither.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import time
from typing import Any
from urllib.parse import urlsplit

from bench.report import machine

CALLS = ("commitDeal", "dealRound", "playRound (cut)", "playRound", "viewRound", "legalCaptures", "suggestMoves")
PATHS = {"dealRound": "/v1/rounds", "playRound": "/v1/rounds/play", "viewRound": "/v1/rounds/view"}
PATHS |= {"playRound (cut)": "/v1/rounds/play", "legalCaptures": "/v1/captures", "suggestMoves": "/v1/hints"}
PATHS |= {"commitDeal": "/v1/deals/commitments"}
HEADERS = {"Content-Type": "application/json"}
KINDS = ("plain", "fair")  # a sealed round as dealt from a seed; one clocked and dealt from a commitment
FAIR_CLOCK = {"turn_seconds": 3000}  # no move of the benchmark is late
GOAL_RATIO = 1.10  # issue 26: a clocked and committed round adds at most 10% to a sealed playRound


class Client:
    """One kept-alive HTTP/1.1 connection; each call's round trip is timed into ``times``."""

    unit = "ms, the round trip"

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80, timeout=10)
        self.times: dict[str, dict[str, list[float]]] = {kind: {call: [] for call in CALLS} for kind in KINDS}
        self.kind = KINDS[0]  # the kind of round being played: its calls are timed apart

    def call(self, name: str, body: dict[str, Any]) -> Any:
        seconds, status, answer = self.send(name, json.dumps(body).encode())
        self.times[self.kind][name].append(seconds)
        if status != 200:
            raise SystemExit(f"{name} answered {status}: {answer[:500]!r}")
        return json.loads(answer)

    def send(self, name: str, data: bytes) -> tuple[float, int, bytes]:
        start = time.perf_counter()
        self.conn.request("POST", PATHS[name], data, HEADERS)
        response = self.conn.getresponse()
        answer = response.read()
        return time.perf_counter() - start, response.status, answer

    def close(self) -> None:
        self.conn.close()


class InProcess(Client):
    """The service in this process (``bench.worst.Meter``: the WSGI app as gunicorn calls it, no access
    log); each call's thread CPU time is timed, which a shared machine's load does not change as it
    changes a round trip."""

    unit = "ms of CPU, in process"

    def __init__(self) -> None:  # no connection: the app is called
        from bench.worst import Meter, Request

        self.meter, self.request = Meter(), Request
        self.times = {kind: {call: [] for call in CALLS} for kind in KINDS}
        self.kind = KINDS[0]

    def send(self, name: str, data: bytes) -> tuple[float, int, bytes]:
        cpu, _, status, answer = self.meter.once(self.request(name, "post", PATHS[name], json.loads(data)))
        return cpu, status, answer

    def close(self) -> None:
        pass


def play_round(client: Client, number: int, kind: str = "plain", deck: list[str] | None = None) -> list[str]:
    """One round (``fair``: clocked and committed; ``plain`` from ``deck``, else from the seed
    ``turn-<number>``); answers the deck it was dealt, as the record that ends it shows."""
    client.kind = kind
    deal: dict[str, Any] = {"rules": "chkobba", "players": 2, "dealer": number % 2, "sealed": True}
    if kind == "fair":
        commit_token = client.call("commitDeal", {})["commit_token"]
        seeds = [f"turn-{number}-{seat}" for seat in range(2)]
        deal |= {"fair": {"commit_token": commit_token, "seeds": seeds}, "clock": FAIR_CLOCK}
    elif deck is not None:
        deal["deck"] = deck
    else:
        deal["seed"] = f"turn-{number}"
    played = client.call("dealRound", deal)
    token, views = played["state_token"], played["views"]
    if views[0]["phase"] == "cut":
        cutter = views[0]["turn"]
        played = client.call("playRound (cut)", {"state_token": token, "move": {"cut": "keep", "seat": cutter}})
        token, views = played["state_token"], played["views"]
    while views[0]["phase"] == "play":
        seat = views[0]["turn"]
        view = client.call("viewRound", {"state_token": token, "seat": seat})["view"]
        client.call("legalCaptures", {"rules": "chkobba", "table": view["table"], "hand": view["hand"]})
        best = client.call("suggestMoves", {"state_token": token, "seat": seat, "limit": 1})["moves"][0]["move"]
        played = client.call("playRound", {"state_token": token, "move": {**best, "seat": seat}})
        token, views = played["state_token"], played["views"]
    # The loop ends in phase "over", or "redeal" when the deal (or the cut) must be dealt again: either
    # answer holds the record.
    dealt: list[str] = played["record"]["deck"]
    return dealt


def print_table(times: dict[str, list[float]]) -> None:
    print(f"{'call':<18}{'calls':>7}{'median ms':>11}{'p90 ms':>9}")
    for name, taken in times.items():
        if not taken:
            continue
        ms = sorted(t * 1000 for t in taken)
        p90 = ms[int(0.9 * (len(ms) - 1))]
        print(f"{name:<18}{len(ms):>7}{statistics.median(ms):>11.3f}{p90:>9.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8080", help="the running service")
    parser.add_argument("--rounds", type=int, default=300, help="rounds to play (default 300; of each kind)")
    parser.add_argument("--compare", action="store_true", help="clocked and committed rounds beside plain ones")
    parser.add_argument("--in-process", action="store_true", help="call the app in this process, timing CPU")
    args = parser.parse_args(argv)
    print(json.dumps(machine()))
    client = InProcess() if args.in_process else Client(args.url)
    print(f"times: {client.unit}")
    started = time.monotonic()
    for number in range(args.rounds):
        if args.compare:  # the same deck, so the same moves: only the clock and the commitment differ
            play_round(client, number, "plain", play_round(client, number, "fair"))
        else:
            play_round(client, number)
    client.close()
    print(f"{args.rounds} rounds{' of each kind' if args.compare else ''} in {time.monotonic() - started:.1f} s")
    if not args.compare:
        print_table(client.times["plain"])
        return 0
    for kind in KINDS:
        print(f"\n{kind}: {'sealed, the same deck' if kind == 'plain' else 'sealed, clocked, committed'}")
        print_table(client.times[kind])
    plains, fairs = (client.times[kind]["playRound"] for kind in KINDS)
    plain, fair = statistics.median(plains), statistics.median(fairs)
    ratio = fair / plain
    verdict = "within" if ratio <= GOAL_RATIO else "OVER"
    print(
        f"\nplayRound median: plain {plain * 1000:.3f} ms, clocked and committed {fair * 1000:.3f} ms, "
        f"ratio {ratio:.3f} ({verdict} the goal of {GOAL_RATIO:.2f})"
    )
    if len(plains) == len(fairs):  # the same moves: each play of a fair round beside its plain twin
        paired = statistics.median(f / p for f, p in zip(fairs, plains, strict=True))
        print(f"median of the {len(plains)} paired ratios (the same move of the same deal): {paired:.3f}")
    return 0 if ratio <= GOAL_RATIO else 1


if __name__ == "__main__":
    raise SystemExit(main())
