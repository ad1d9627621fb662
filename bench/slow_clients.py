"""Slow clients against the service: how cheap requests fare while many connections dawdle.

Run with ``.venv/bin/python -m bench.slow_clients [--worker-class CLASS ...] [--connections N]``.

For each worker class (by default the project's own, gunicorn's ``sync`` and ``gthread``), it starts
the service under gunicorn with ``gunicorn.conf.py`` and 2 workers (``-k CLASS`` on the command line
overrides the file), then for each way of being slow opens ``--connections`` connections that

- ``idle``: connect and send nothing;
- ``headers``: send a request's line and headers one byte a second;
- ``body``: send complete headers (``Content-Length: 200``), then the body one byte a second;
- ``costly``: send, back to back on kept-alive connections, the worst bodies ``bench/worst.py``
  found for the four costliest operations (suggestMoves, legalCaptures, applyMove, playRound), a
  quarter of the connections each, with ``wrk`` (a process of its own, so that the load does not
  slow the probes down);

and meanwhile, every 20 ms, a probe opens a fresh connection and asks ``GET /healthz`` or
``POST /v1/captures`` (in turn), with a 5 s timeout (``--in-flight`` costly requests, 32 by default,
for the costly way). It prints, per class and way, the probes'
p50, p99 and worst latency (all, then per path), how many failed (timeout, reset or not a 200), and when the server cut
the slow connections off (seconds after they opened, median and worst; ``-`` if it had not by the
end). It is never part of ``make test``; ``tests/ops/test_slow_clients.py`` checks the behaviour.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.bodies import captures_body
from bench.report import free_port, machine, write_json, wrk_report
from bench.worst import worst_bodies
from service.api.sealing import new_key

ROOT = Path(__file__).resolve().parents[1]
PROJECT = "service.ops.worker.Worker"
CLASSES = (PROJECT, "sync", "gthread --threads 32")
WAYS = ("idle", "headers", "body", "costly")
COSTLIEST = ("suggestMoves", "legalCaptures", "applyMove", "playRound")
WRK_LUA = Path(__file__).resolve().with_name("wrk_post.lua")
PROBE_EVERY_S = 0.02
PROBE_TIMEOUT_S = 5.0
BODY_LENGTH = 200
CAPTURES = json.dumps(captures_body()).encode()


@contextlib.contextmanager
def service(worker_class: str, settings: dict[str, str]) -> Iterator[int]:
    port = free_port()
    home = Path(tempfile.mkdtemp(prefix="chkobba-slow-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CHKOBBA_", "PROMETHEUS_"))}
    env.update(
        PORT=str(port),
        CHKOBBA_WORKERS="2",
        CHKOBBA_EPHEMERAL_KEYS="1",  # the receipt key, made at start
        CHKOBBA_ACCESS_LOG="",
        PROMETHEUS_MULTIPROC_DIR=str(home / "metrics"),
        **settings,
    )
    argv = [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "-k", *shlex.split(worker_class)]
    argv.append("service.app:create_app()")
    with open(home / "gunicorn.log", "wb") as log:
        proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError):
                if probe(port, "/healthz")[0] == 200:
                    break
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError((home / "gunicorn.log").read_text(errors="replace")[-3000:])
            time.sleep(0.1)
        yield port
    finally:
        proc.send_signal(signal.SIGQUIT)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def probe(port: int, path: str) -> tuple[int, float]:
    began = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=PROBE_TIMEOUT_S)
    try:
        if path == "/healthz":
            conn.request("GET", path)
        else:
            conn.request("POST", path, body=CAPTURES, headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        return response.status, time.perf_counter() - began
    finally:
        conn.close()


@dataclass
class SlowClient:
    way: str
    port: int
    opened: float = 0.0
    cut_after: float | None = None  # seconds from opening until the server closed or reset it
    answer: bytes = b""
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        head = "POST /v1/captures HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        head += f"Content-Length: {BODY_LENGTH}\r\n\r\n"
        with socket.create_connection(("127.0.0.1", self.port), timeout=60) as sock:
            self.opened = time.monotonic()
            trickle = {"idle": b"", "headers": head.encode(), "body": b" " * BODY_LENGTH}[self.way]
            if self.way == "body":
                sock.sendall(head.encode())
            sock.settimeout(1.0)
            sent = 0
            while not self.stop.is_set():
                if sent < len(trickle):
                    try:
                        sock.sendall(trickle[sent : sent + 1])
                    except OSError:
                        break
                    sent += 1
                try:
                    data = sock.recv(65536)
                except TimeoutError:
                    continue
                except OSError:
                    break
                if not data:
                    break
                self.answer += data
            if not self.stop.is_set():
                self.cut_after = time.monotonic() - self.opened


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


@contextlib.contextmanager
def costly_load(port: int, connections: int, seconds: float, keys: str) -> Iterator[list[subprocess.Popen[str]]]:
    """wrk sending the costliest bodies, ``connections`` in all, for ``seconds`` and a little more."""
    bodies = worst_bodies(keys)
    home = Path(tempfile.mkdtemp(prefix="chkobba-costly-"))
    loads = []
    for i, name in enumerate(COSTLIEST):
        body_file = home / f"{name}.json"
        body_file.write_text(json.dumps(bodies[name]["body"]))
        share = connections // len(COSTLIEST) + (i < connections % len(COSTLIEST))
        url = f"http://127.0.0.1:{port}{bodies[name]['path']}"
        argv = ["wrk", "-t1", f"-c{share}", f"-d{seconds + 2:g}s", "-s", str(WRK_LUA), url, str(body_file)]
        loads.append(subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    try:
        yield loads
    finally:
        for load in loads:
            load.wait(seconds + 30)


def measure(port: int, way: str, connections: int, seconds: float, keys: str = "") -> dict[str, Any]:
    if way == "costly":
        with costly_load(port, connections, seconds, keys) as loads:
            time.sleep(1.0)  # every costly connection busy
            row = probe_for(port, seconds)
        row.update(way=way, connections=connections, cut=0, cut_median_s=None, cut_max_s=None, answers=[])
        row["load"] = [wrk_report(load.stdout.read() if load.stdout else "") for load in loads]
        return row
    clients = [SlowClient(way, port) for _ in range(connections)]
    threads = [threading.Thread(target=c.run, daemon=True) for c in clients]
    for thread in threads:
        thread.start()
    time.sleep(0.5)  # every slow connection open (and, under sync workers, every worker held)
    row = probe_for(port, seconds)
    for client in clients:
        client.stop.set()
    for thread in threads:
        thread.join(5)
    cuts = [c.cut_after for c in clients if c.cut_after is not None]
    row.update(
        way=way,
        connections=connections,
        cut=len(cuts),
        cut_median_s=statistics.median(cuts) if cuts else None,
        cut_max_s=max(cuts) if cuts else None,
        answers=sorted({c.answer.split(b"\r\n", 1)[0].decode(errors="replace") for c in clients if c.answer}),
    )
    return row


def probe_for(port: int, seconds: float) -> dict[str, Any]:
    """Probes every PROBE_EVERY_S for ``seconds``: their latencies, and how many failed."""
    paths = ("/healthz", "/v1/captures")
    of_path: dict[str, list[float]] = {path: [] for path in paths}
    failures = 0
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        path = paths[n % 2]
        try:
            status, took = probe(port, path)
            of_path[path].append(took)
            failures += status != 200
        except OSError:
            of_path[path].append(PROBE_TIMEOUT_S)
            failures += 1
        n += 1
        time.sleep(PROBE_EVERY_S)
    latencies = [took for took_of_path in of_path.values() for took in took_of_path]
    return {
        "probes": len(latencies),
        "failed": failures,
        **latency_ms(latencies),
        "by_path": {path: latency_ms(took) for path, took in of_path.items() if took},
    }


def latency_ms(latencies: list[float]) -> dict[str, float]:
    return {
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * percentile(latencies, 99),
        "max_ms": 1000 * max(latencies),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--worker-class",
        action="append",
        help=f"gunicorn's -k value, and other options (default: {', '.join(CLASSES)})",
    )
    parser.add_argument("--way", action="append", choices=WAYS, help="default: all")
    parser.add_argument("--connections", type=int, default=64, help="slow connections (idle, headers, body)")
    parser.add_argument("--in-flight", type=int, default=32, help="costly requests in flight (costly)")
    parser.add_argument("--duration", type=float, default=15.0, help="seconds of probing per way")
    parser.add_argument("--keepalive", default="5", help="CHKOBBA_KEEPALIVE for the run")
    parser.add_argument("--client-timeout", default="10", help="CHKOBBA_CLIENT_TIMEOUT for the run")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    keys = new_key()  # the server's, so that the sealed worst bodies open
    settings = {
        "CHKOBBA_KEEPALIVE": args.keepalive,
        "CHKOBBA_CLIENT_TIMEOUT": args.client_timeout,
        "CHKOBBA_STATE_KEYS": keys,
    }
    info = machine()
    print(json.dumps(info))
    rows = []
    for worker_class in args.worker_class or CLASSES:
        with service(worker_class, settings) as port:
            for way in args.way or WAYS:
                connections = args.in_flight if way == "costly" else args.connections
                row = {"worker_class": worker_class, **measure(port, way, connections, args.duration, keys)}
                rows.append(row)
                cut = "-" if row["cut_median_s"] is None else f"{row['cut_median_s']:.1f}/{row['cut_max_s']:.1f}"
                print(
                    f"{worker_class:26s} {way:8s} probes {row['probes']:4d} failed {row['failed']:4d} "
                    f"p50 {row['p50_ms']:8.1f} ms p99 {row['p99_ms']:8.1f} ms max {row['max_ms']:8.1f} ms "
                    f"cut {row['cut']:3d} after {cut} s {row['answers']}",
                    flush=True,
                )
                for path, took in row["by_path"].items():
                    print(
                        f"{'':26s} {'':8s} {path:18s} p50 {took['p50_ms']:8.1f} ms p99 {took['p99_ms']:8.1f} ms "
                        f"max {took['max_ms']:8.1f} ms",
                        flush=True,
                    )
    if args.json:
        write_json(args.json, {"machine": info, "settings": settings, "rows": rows})


if __name__ == "__main__":
    main()
