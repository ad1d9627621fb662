"""The costs issue 25 bounds (docs/security.md, "What it costs"): the seal rate, and the costliest
replayMatch body with a receipt, with floats in it and without, measured in the same run.

Run with ``.venv/bin/python -m bench.keys [--quick]``.

1. **Seals a second**: ``Sealer.seal`` of a round's state after its first move (what sealed
   operations seal), on one core, in rounds of a fixed count: the median and the lowest round.
2. **replayMatch with a receipt**: the largest valid record (40 whole chkobba rounds, a match that
   goes on, every round claiming its breakdown: about 180 KB, as the issue's), asked with
   ``"receipt": true`` through the WSGI app in this process (``bench.worst.Meter``: CPU time of the
   call), written three ways: every number an integer; one claimed total written ``1.0``-style; every
   claimed number written as a float. Median and p95 of the CPU ms, and the ratio to the integers'.
   Then the canonicalization alone of that payload: the service's (``receipts.canonical``) against
   ``rfc8785.dumps``, the road every float took before.
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from bench.worst import Meter, Request


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def seal_rate(rounds: int, per_round: int) -> tuple[float, float]:
    from bench.bodies import full_round
    from service.api.sealing import Sealer
    from service.ops.settings import new_key, parse_keys

    state = full_round().after(0)[0].to_json()  # a round just dealt and one card played
    sealer = Sealer(tuple(parse_keys(new_key())), 3600)
    rates = []
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(per_round):
            sealer.seal(state)
        rates.append(per_round / (time.perf_counter() - started))
    return statistics.median(rates), min(rates)


# The largest records of tests/api/test_match_replay.py: a match that goes on (target 1000).
SHAPES = (("chkobba", 2), ("chkobba", 4), ("chkobba-crp", 3), ("scopa", 2))


def largest_record(profile: str, players: int) -> tuple[dict[str, Any], int]:
    """replayMatch's largest valid body of a profile: as many whole rounds as the body limit holds."""
    from service.ops.limits import MAX_BODY_BYTES
    from service.rules import MAX_ROUNDS
    from tests.support import match_record

    rules = {"profile": profile, "options": {"target": 1000}}
    record = match_record(rules, players, 0, [f"max-{i}" for i in range(MAX_ROUNDS)])
    return record, MAX_BODY_BYTES


def with_claims(meter: Meter, record: dict[str, Any], limit: int) -> dict[str, Any]:
    record = copy.deepcopy(record)
    answer = json.loads(meter.once(Request("replayMatch", "post", "/v1/matches/replay", record))[3])
    for judged, given in zip(answer["rounds"], record["rounds"], strict=False):
        if judged["breakdown"] is not None:
            given["claimed"] = judged["breakdown"]
    while len(json.dumps({**record, "receipt": True}, separators=(",", ":"))) > limit:
        record["rounds"].pop()
    return {**record, "receipt": True}


def floated(body: dict[str, Any], every: bool) -> dict[str, Any]:
    """``body`` with claimed numbers written as floats: every one, or the first claimed total only."""
    body = copy.deepcopy(body)
    for given in body["rounds"]:
        for side in given.get("claimed") or []:
            for name, value in side.items():
                if type(value) is int and name != "side":
                    side[name] = float(value)
                    if not every:
                        return body
    return body


def cpu_ms(meter: Meter, body: dict[str, Any], repeats: int) -> list[float]:
    request = Request("replayMatch", "post", "/v1/matches/replay", body)
    out = []
    for _ in range(repeats):
        cpu, _, status, answer = meter.once(request)
        assert status == 200 and b'"receipt"' in answer, answer[:300]
        out.append(cpu * 1000)
    return out


def timed(call: Callable[[], object], repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        started = time.thread_time()
        call()
        out.append((time.thread_time() - started) * 1000)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.keys", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples (a smoke run)")
    args = parser.parse_args(argv)
    repeats = 7 if args.quick else 41
    median, lowest = seal_rate(3 if args.quick else 9, 2000)
    print(
        f"seals a second (one core, a chkobba state after one move): median {median:,.0f}, lowest round {lowest:,.0f}"
    )

    meter = Meter()
    # The costliest of the largest records, each with every round's claim and a receipt.
    bodies = [with_claims(meter, *largest_record(*shape)) for shape in SHAPES]
    body = max(bodies, key=lambda b: statistics.median(cpu_ms(meter, b, 5)))
    size = len(json.dumps(body, separators=(",", ":")))
    print(
        f"\nreplayMatch, receipt: true, {body['rules']['profile']} {body['players']} players, "
        f"{len(body['rounds'])} rounds, {size:,} bytes (the costliest of {len(SHAPES)} shapes); CPU ms of the WSGI call"
    )
    print(f"{'numbers':<28} {'median':>8} {'p95':>8} {'max':>8} {'ratio':>6}")
    variants = {
        "integers": body,
        "one claimed total as 1.0": floated(body, False),
        "every claim a float": floated(body, True),
    }
    # What the bench built lives on, as what a worker loaded does: frozen out of the collector's reach,
    # as gunicorn.conf.py's post_worker_init freezes it. Else each full collection walks the bench's own
    # bodies inside some call (p95 55 ms against a median of 15, measured on a calm machine).
    gc.collect()
    gc.freeze()
    samples = {name: [] for name in variants}
    for _ in range(repeats):  # interleaved: the machine's load falls on every variant alike
        for name, variant in variants.items():
            samples[name] += cpu_ms(meter, variant, 1)
    base = statistics.median(samples["integers"])
    for name, found in samples.items():
        m = statistics.median(found)
        print(f"{name:<28} {m:>8.2f} {percentile(found, 0.95):>8.2f} {max(found):>8.2f} {m / base:>6.2f}")

    import rfc8785

    from service.api.receipts import canonical

    answer = json.loads(
        meter.once(Request("replayMatch", "post", "/v1/matches/replay", variants["every claim a float"]))[3]
    )
    payload = {"operation": "replayMatch", "request": variants["every claim a float"], "answer": answer}
    ours, theirs = timed(lambda: canonical(payload), repeats), timed(lambda: rfc8785.dumps(payload), repeats)
    assert canonical(payload) == rfc8785.dumps(payload)
    print(
        f"\ncanonical JSON of that payload (every claim a float): service {statistics.median(ours):.2f} ms, "
        f"rfc8785 (the road of any float before) {statistics.median(theirs):.2f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
