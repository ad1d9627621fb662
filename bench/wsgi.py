"""The in-process benchmark: the service's WSGI app against the bare app's, called directly.

Run with ``.venv/bin/python -m bench.wsgi [--quick] [--only BODY] [--profile BODY] [--json PATH]``.

No server and no socket: each request is ``app(environ, start_response)`` with a prepared environ
(a fresh ``wsgi.input`` per call) and its answer read to the end, as gunicorn would. So the figure
is what the application itself costs per request, without the server around it, which is the part
this repo can change. The bodies are those of ``bench/http.py`` (``bench/bodies.py``), and the
service's answers are checked in the same way before anything is timed. Both apps run as
``bench/http.py`` runs them: metrics in a temporary multiprocess directory (``PROMETHEUS_MULTIPROC_DIR``,
as under gunicorn), no access log.

Ceiling and service take turns within every repeat (in reverse order every other repeat), each
sample timing a calibrated number of requests; the figures are medians over the repeats, and
``extra`` is the median of the paired differences service - ceiling: what the service adds to a
request over a Flask app that only parses the body. ``--profile BODY`` then runs the service under
cProfile on that body and prints the top functions.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from bench.bodies import captures_body, check_answers, full_round, sealed_position
from bench.report import answer_of, machine, write_json

# (name, path), as in bench/http.py.
BODIES = (
    ("legalCaptures", "/v1/captures"),
    ("scoreRound", "/v1/scores"),
    ("playRound", "/v1/rounds/play"),
    ("playRoundSealed", "/v1/rounds/play"),
    ("replayRound", "/v1/rounds/replay"),
)
ROLES = ("ceiling", "service")

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def base_environ(path: str, body: bytes) -> dict[str, Any]:
    """What gunicorn puts in the environ of a POST with a JSON body (the input added per call)."""
    return {
        "REQUEST_METHOD": "POST",
        "SCRIPT_NAME": "",
        "PATH_INFO": path,
        "RAW_URI": path,
        "QUERY_STRING": "",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8080",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "REMOTE_PORT": "50000",
        "HTTP_HOST": "127.0.0.1:8080",
        "HTTP_USER_AGENT": "bench.wsgi",
        "HTTP_ACCEPT": "*/*",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "wsgi.file_wrapper": None,
    }


def call(app: WSGIApp, environ: dict[str, Any], body: bytes) -> tuple[int, bytes]:
    """One request: the status and the whole answer."""
    env = dict(environ)
    env["wsgi.input"] = io.BytesIO(body)
    return answer_of(app, env)


CLOCKS = {"cpu": time.thread_time, "wall": time.perf_counter}


def runner(app: WSGIApp, path: str, body: bytes, clock: Callable[[], float]) -> Callable[[int], float]:
    """A function timing ``n`` requests of ``body`` to ``path``, in seconds of ``clock``."""
    environ = base_environ(path, body)

    def run(n: int) -> float:
        t0 = clock()
        for _ in range(n):
            call(app, environ, body)
        return clock() - t0

    return run


def calibrate(run: Callable[[int], float], budget: float) -> int:
    n = 1
    while True:
        elapsed = run(n)
        if elapsed >= 0.005 or n >= 10**6:
            return max(1, round(n * budget / elapsed))
        n *= 4


def measure(
    apps: dict[str, WSGIApp], path: str, body: bytes, budget: float, repeats: int, clock: Callable[[], float]
) -> dict[str, Any]:
    runs = {role: runner(apps[role], path, body, clock) for role in ROLES}
    numbers = {role: calibrate(run, budget) for role, run in runs.items()}
    samples: dict[str, list[float]] = {role: [] for role in ROLES}
    for k in range(repeats):
        for role in ROLES if k % 2 == 0 else ROLES[::-1]:
            samples[role].append(runs[role](numbers[role]) / numbers[role] * 1e6)
    extra = [s - c for s, c in zip(samples["service"], samples["ceiling"], strict=True)]
    ratio = [c / s for s, c in zip(samples["service"], samples["ceiling"], strict=True)]
    return {
        "median_us": {role: statistics.median(samples[role]) for role in ROLES},
        "extra_us": statistics.median(extra),
        "ceiling_over_service": statistics.median(ratio),
        "spread_pct": {role: spread(samples[role]) for role in ROLES},
        "samples_us": samples,
    }


def spread(samples: Sequence[float]) -> float:
    if len(samples) < 2:
        return 0.0
    q1, _, q3 = statistics.quantiles(samples, n=4, method="inclusive")
    return 100 * (q3 - q1) / statistics.median(samples)


def profile(app: WSGIApp, path: str, body: bytes, seconds: float, top: int) -> None:
    run = runner(app, path, body, time.perf_counter)
    n = calibrate(run, seconds)
    prof = cProfile.Profile()
    prof.enable()
    run(n)
    prof.disable()
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    print(f"cProfile of {n} requests (per-call figures include the profiler's own overhead):")
    print(out.getvalue())


def build_apps() -> dict[str, WSGIApp]:
    # As under gunicorn (gunicorn.conf.py): metrics in a multiprocess directory, set before
    # prometheus_client is first imported; no access log, as bench/http.py runs the service.
    os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="chkobba-bench-wsgi-"))
    from bench.bare_app import create_app as bare
    from service.api.sealing import new_key
    from service.app import create_app as service

    return {"ceiling": bare(), "service": service({"ACCESS_LOG": "", "STATE_KEYS": new_key(), "EPHEMERAL_KEYS": "1"})}


def main(argv: Sequence[str] | None = None) -> int:
    names = [name for name, _ in BODIES]
    parser = argparse.ArgumentParser(prog="python -m bench.wsgi", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer and shorter samples (a smoke run)")
    parser.add_argument("--repeats", type=int, help="samples per app and body (default 15, or 5 with --quick)")
    parser.add_argument("--only", choices=names, action="append", help="measure only this body (repeatable)")
    parser.add_argument("--profile", choices=names, help="then profile the service on this body with cProfile")
    parser.add_argument("--top", type=int, default=30, help="functions shown by --profile (default 30)")
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="cpu",
        help="cpu: the thread's CPU time (default; time waiting for a busy machine's CPUs is not counted), "
        "or wall: elapsed time",
    )
    parser.add_argument("--json", metavar="PATH", help="also write every figure and sample as JSON to PATH")
    args = parser.parse_args(argv)
    repeats = args.repeats or (5 if args.quick else 15)
    budget = 0.02 if args.quick else 0.1

    info = machine()
    load = info["loadavg_at_start"]
    print(f"in-process benchmark: Python {info['python']}, {info['platform']}")
    print(f"load average: {' '.join(f'{x:.2f}' for x in load) if load else 'n/a'}")
    print(f"{repeats} interleaved samples of ~{budget * 1000:g} ms per app and body; clock: {args.clock}")

    apps = build_apps()
    played = full_round()

    def post(path: str, data: bytes) -> tuple[int, Any]:
        status, answer = call(apps["service"], base_environ(path, data), data)
        return status, json.loads(answer)

    payloads = {
        "legalCaptures": captures_body(),
        "scoreRound": played.scores_body(),
        "playRound": played.play_body(),
        "playRoundSealed": played.sealed_play_body(sealed_position(post, played)),
        "replayRound": played.replay_body(),
    }
    bodies = {name: json.dumps(p, separators=(",", ":")).encode() for name, p in payloads.items()}
    answers = {}
    for name, path in BODIES:
        for role in ROLES:
            status, answer = call(apps[role], base_environ(path, bodies[name]), bodies[name])
            if status != 200:
                raise RuntimeError(f"{role} answered {status} to {name}: {answer[:500]!r}")
            if role == "service":
                answers[name] = json.loads(answer)
    check_answers(answers, bodies, played)
    print("every answer checked (bench/bodies.py: check_answers)")
    print()

    results: dict[str, Any] = {}
    head = (
        f"{'body':<16} {'ceiling µs':>10} {'±%':>4} {'service µs':>10} {'±%':>4} {'extra µs':>9} "
        f"{'ceiling/service':>15}"
    )
    print(head)
    print("-" * len(head))
    for name, path in BODIES:
        if args.only and name not in args.only:
            continue
        r = results[name] = measure(apps, path, bodies[name], budget, repeats, CLOCKS[args.clock])
        med, sp = r["median_us"], r["spread_pct"]
        print(
            f"{name:<16} {med['ceiling']:>10.1f} {sp['ceiling']:>4.0f} {med['service']:>10.1f} {sp['service']:>4.0f} "
            f"{r['extra_us']:>9.1f} {r['ceiling_over_service']:>15.3f}",
            flush=True,
        )
    print()
    print("extra: the median of the paired differences service - ceiling; ceiling/service: the median of the")
    print("paired ratios (the server around the app adds the same to both, so over HTTP the ratio is higher).")
    if args.profile:
        print()
        profile(apps["service"], dict(BODIES)[args.profile], bodies[args.profile], 1.0, args.top)
    if args.json:
        report = {"machine": info, "repeats": repeats, "budget_s": budget, "clock": args.clock, "results": results}
        write_json(args.json, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
