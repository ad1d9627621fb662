"""One turn as a game server plays it: the latency of each call of a sealed two-player chkobba round.

Run with ``.venv/bin/python -m bench.turn [--url URL] [--rounds N]`` against a service already running
(``make run``, or gunicorn with gunicorn.conf.py as ``make run`` starts it). It is never part of
``make test``.

One client, one kept-alive connection, one call at a time: the figures are what a game server waits
for on each call, not what the service can serve (``bench/http.py``). For each round (dealer
alternating, seed ``turn-<n>``): dealRound with ``"sealed": true``, then the cut, then every play
until the round is over. Before each play, as a phone's front end might ask through its game server:
viewRound of the seat to move (a refresh), legalCaptures of its hand on the table (to show what each
card takes) and suggestMoves (a hint); then playRound with the best hint and the seat's number. Every
answer must be a 200. It prints each call's median and 90th percentile in ms, with the machine.
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

CALLS = ("dealRound", "playRound (cut)", "playRound", "viewRound", "legalCaptures", "suggestMoves")
PATHS = {"dealRound": "/v1/rounds", "playRound": "/v1/rounds/play", "viewRound": "/v1/rounds/view"}
PATHS |= {"playRound (cut)": "/v1/rounds/play", "legalCaptures": "/v1/captures", "suggestMoves": "/v1/hints"}
HEADERS = {"Content-Type": "application/json"}


class Client:
    """One kept-alive HTTP/1.1 connection; each call's round trip is timed into ``times``."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80, timeout=10)
        self.times: dict[str, list[float]] = {call: [] for call in CALLS}

    def call(self, name: str, body: dict[str, Any]) -> Any:
        data = json.dumps(body).encode()
        start = time.perf_counter()
        self.conn.request("POST", PATHS[name], data, HEADERS)
        response = self.conn.getresponse()
        answer = response.read()
        self.times[name].append(time.perf_counter() - start)
        if response.status != 200:
            raise SystemExit(f"{name} answered {response.status}: {answer[:500]!r}")
        return json.loads(answer)


def play_round(client: Client, number: int) -> None:
    dealt = client.call(
        "dealRound",
        {"rules": "chkobba", "players": 2, "dealer": number % 2, "seed": f"turn-{number}", "sealed": True},
    )
    token, views = dealt["state_token"], dealt["views"]
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
    # The loop ends in phase "over", or "redeal" when the cut completed a deal that must be dealt again.


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8080", help="the running service")
    parser.add_argument("--rounds", type=int, default=300, help="rounds to play (default 300)")
    args = parser.parse_args(argv)
    print(json.dumps(machine()))
    client = Client(args.url)
    started = time.monotonic()
    for number in range(args.rounds):
        play_round(client, number)
    client.conn.close()
    print(f"{args.rounds} rounds in {time.monotonic() - started:.1f} s")
    print(f"{'call':<18}{'calls':>7}{'median ms':>11}{'p90 ms':>9}")
    for name, times in client.times.items():
        ms = sorted(t * 1000 for t in times)
        p90 = ms[int(0.9 * (len(ms) - 1))]
        print(f"{name:<18}{len(ms):>7}{statistics.median(ms):>11.2f}{p90:>9.2f}")


if __name__ == "__main__":
    main()
