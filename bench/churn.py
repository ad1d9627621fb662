"""Worker churn and /metrics: the metrics directory and the scrape time after N worker restarts.

Issue 12: every recycled or killed worker used to leave its sample files behind, and every scrape
read them all. This starts the service under gunicorn (2 workers, as gunicorn.conf.py makes them, a temporary metrics
directory), then restarts workers N times: each round sends four requests of different operations,
then SIGTERMs every worker that has written sample files (it has served a request: the way
``max_requests`` retires a worker) and waits for gunicorn to replace it. Then it reports the metrics
directory (files, bytes allocated), times scrapes of /metrics on fresh connections, and checks that
/metrics still counts every request sent.

    .venv/bin/python -m bench.churn --restarts 575
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from prometheus_client.parser import text_string_to_metric_families

from .report import children, free_port, machine, send, write_json

ROOT = Path(__file__).resolve().parents[1]
WORKERS = 2
TIMEOUT_S = 30.0


# Each round's requests: (operation, method, path, body, status). Several series per worker's files,
# as a worker that served real traffic would have.
ROUND = [
    ("getHealth", "GET", "/healthz", None, 200),
    ("listRulesets", "GET", "/v1/rulesets", None, 200),
    ("getRuleset", "GET", "/v1/rulesets/nope", None, 404),
    ("legalCaptures", "POST", "/v1/captures", b'{"rules":"chkobba","table":["2D","6S"],"hand":["QH","3H"]}', 200),
]


def wait_for(what: str, condition: Any, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + TIMEOUT_S
    while not condition():
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"gave up waiting for {what} (gunicorn: {process.poll()})")
        time.sleep(0.01)


def directory(metrics_dir: Path) -> dict[str, int]:
    files = [f for f in metrics_dir.iterdir() if f.is_file()]
    return {
        "db_files": sum(f.suffix == ".db" for f in files),
        "files": len(files),
        "bytes_allocated": sum(f.stat().st_blocks * 512 for f in files),
    }


def requests_counted(text: str) -> dict[tuple[str, str], float]:
    counted: dict[tuple[str, str], float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "chkobba_http_requests_total":
                key = (sample.labels["operation"], sample.labels["status"])
                counted[key] = counted.get(key, 0.0) + sample.value
    return counted


def run(restarts: int, scrapes: int) -> dict[str, Any]:
    home = Path(tempfile.mkdtemp(prefix="chkobba-bench-churn-"))
    metrics_dir = home / "metrics"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CHKOBBA_", "PROMETHEUS_"))}
    env.update(
        CHKOBBA_BIND=f"127.0.0.1:{port}",
        CHKOBBA_WORKERS=str(WORKERS),
        CHKOBBA_EPHEMERAL_KEYS="1",  # keys made at start
        CHKOBBA_ACCESS_LOG="",
        PROMETHEUS_MULTIPROC_DIR=str(metrics_dir),
    )
    argv = [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "service.app:create_app()"]
    log = home / "gunicorn.log"
    with log.open("wb") as out:
        process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:

        def ready() -> bool:
            try:
                return send(port, "GET", "/readyz", timeout=30)[0] == 200 and len(children(process.pid)) == WORKERS
            except OSError:
                return False

        wait_for("gunicorn to answer", ready, process)
        sent: dict[tuple[str, str], int] = {}
        began = time.monotonic()
        done = 0
        while done < restarts:
            for operation, method, path, body, expected in ROUND:
                status, _ = send(port, method, path, None if body is None else ("application/json", body), timeout=30)
                assert status == expected, (path, status)
                sent[operation, str(status)] = sent.get((operation, str(status)), 0) + 1
            served = {p for p in children(process.pid) if (metrics_dir / f"counter_{p}.db").exists()}
            for pid in served:
                os.kill(pid, signal.SIGTERM)
            wait_for(
                "the workers to be replaced",
                lambda served=served: not (children(process.pid) & served) and len(children(process.pid)) == WORKERS,
                process,
            )
            done += len(served)
        churn_s = time.monotonic() - began
        time.sleep(0.5)  # gunicorn merges (or not) in its main loop: let it catch up

        times = []
        text = b""
        for _ in range(scrapes):
            t0 = time.perf_counter()
            status, text = send(port, "GET", "/metrics", timeout=30)
            times.append((time.perf_counter() - t0) * 1000)
            assert status == 200, status
        after = directory(metrics_dir)  # the live workers have counted the scrapes: their files are in
        counted = requests_counted(text.decode())
        if any(counted.get(key) != n for key, n in sent.items()):
            raise RuntimeError(f"/metrics counts {counted}, these were answered: {sent}")
        times.sort()
        return {
            "restarts": done,
            "churn_seconds": round(churn_s, 1),
            **after,
            "scrapes": scrapes,
            "scrape_ms_median": round(statistics.median(times), 2),
            "scrape_ms_p90": round(times[int(0.9 * (len(times) - 1))], 2),
            "requests_sent_and_counted": sum(sent.values()),
        }
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(home, ignore_errors=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.churn", description=__doc__.split("\n\n")[0])
    parser.add_argument("--restarts", type=int, default=575, help="worker restarts before measuring (575)")
    parser.add_argument("--scrapes", type=int, default=50, help="timed scrapes of /metrics after the churn (50)")
    parser.add_argument("--json", metavar="PATH", help="also write the report as JSON")
    args = parser.parse_args(argv)
    report = {"machine": machine(), **run(args.restarts, args.scrapes)}
    for key, value in report.items():
        print(f"{key}: {value}")
    if args.json:
        write_json(args.json, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
