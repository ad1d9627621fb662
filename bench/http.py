"""The HTTP benchmark: the service under gunicorn against a bare Flask app under the same settings.

Run with ``.venv/bin/python -m bench.http [--quick] [--worker-class CLASS] [--only BODY] [--access-log]
[--json PATH] [--profile]``.

It starts two gunicorn servers on free loopback ports, with the same gunicorn.conf.py and the same
environment (2 workers of the same class, a temporary metrics directory each, no access log unless
``--access-log``): the service, ``service.app:create_app()``, and the ceiling,
``bench.bare_app:create_app()``, a Flask app whose one POST view only parses the JSON body and
answers a small object. For each request body (legalCaptures, scoreRound with two full piles,
playRound at mid-round with a plain state and with a sealed state token, replayRound of a complete
36-move round), wrk loads each server in turn: ceiling, service, then service, ceiling, and so on,
so that a slow spell of the machine hits both alike. Each figure is the median over the
repetitions; the ratio service/ceiling of requests per second is the number to compare between
runs and machines.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import http.client
import json
import os
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from bench.bodies import PLAY_AT, FullRound, captures_body, check_answers, full_round, sealed_position
from bench.report import children, free_port, write_json, wrk_report
from bench.report import machine as base_machine

ROOT = Path(__file__).resolve().parents[1]
LUA = Path(__file__).resolve().with_name("wrk_post.lua")
WORKERS = 2
THREADS = 1
CONNECTIONS = 8
SERVICE_APP = "service.app:create_app()"
CEILING_APP = "bench.bare_app:create_app()"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
READY_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 30.0  # gunicorn.conf.py gives workers 20 s to finish on SIGTERM

# (name, path, goal): the goal is the least service/ceiling ratio of requests per second, set by
# issue 12 for the project's own worker (gevent, turns in arrival order) with HTTP keep-alive
# (GOAL_MODEL), both servers alike.
BODIES = (
    ("legalCaptures", "/v1/captures", 0.85),
    ("scoreRound", "/v1/scores", None),
    ("playRound", "/v1/rounds/play", 0.8),
    ("playRoundSealed", "/v1/rounds/play", 0.7),
    ("replayRound", "/v1/rounds/replay", 0.6),
)
GOAL_MODEL = ("service.ops.worker.Worker", True)  # (worker class, keep-alive)
ROLES = ("ceiling", "service")


# ---------------------------------------------------------------------------------------------------
# The servers.


@dataclass
class Server:
    role: str
    app: str
    port: int
    home: Path  # a temporary directory: the metrics directory, the log, py-spy's output
    argv: list[str]
    access_log: bool = False  # the service's JSON access log, to a file of its home (the ceiling has none)
    worker_class: str | None = None  # gunicorn's -k; None: gunicorn.conf.py's
    proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log(self) -> Path:
        return self.home / "gunicorn.log"

    def boots(self) -> int:
        """Workers booted so far (2 at start; one more each time max_requests recycles one)."""
        try:
            return self.log.read_text(errors="replace").count("Booting worker with pid")
        except FileNotFoundError:
            return 0

    def workers(self) -> list[int]:
        """The pids of the master's live children."""
        assert self.proc is not None
        return sorted(children(self.proc.pid))

    def worker_in_use(self) -> str:
        """The worker class gunicorn reports ("Using worker: gevent"), or "unknown"."""
        try:
            found = re.search(r"Using worker: (\S+)", self.log.read_text(errors="replace"))
        except FileNotFoundError:
            return "unknown"
        return found.group(1) if found else "unknown"

    def cpu_seconds(self) -> float:
        """User and system CPU time used so far by the live workers (from /proc/PID/stat)."""
        total = 0
        for pid in self.workers():
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            total += int(fields[11]) + int(fields[12])  # utime and stime, in clock ticks
        return total / CLOCK_TICKS

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except FileNotFoundError:
            return "(no log)"


def server_env(port: int, home: Path, access_log: bool = False) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "CHKOBBA_BIND"}  # CHKOBBA_BIND would override PORT
    env.update(
        CHKOBBA_WORKERS=str(WORKERS),
        CHKOBBA_EPHEMERAL_KEYS="1",  # keys made at start unless the shell gives them
        CHKOBBA_ACCESS_LOG=str(home / "access.log") if access_log else "",
        PORT=str(port),
        PROMETHEUS_MULTIPROC_DIR=str(home / "metrics"),
    )
    return env


def shown_command(server: Server) -> str:
    env = server_env(server.port, Path("$TMP"), server.access_log)
    names = ("CHKOBBA_WORKERS", "CHKOBBA_ACCESS_LOG", "PORT", "PROMETHEUS_MULTIPROC_DIR")
    shown = " ".join(f"{k}={env[k] or chr(39) * 2}" for k in names if k in env)
    return f"{shown} gunicorn {' '.join(server.argv[3:-1])} '{server.app}'"


def start_server(role: str, app: str, access_log: bool = False, worker_class: str | None = None) -> Server:
    home = Path(tempfile.mkdtemp(prefix=f"chkobba-bench-{role}-"))
    port = free_port()
    argv = [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py"]
    argv += ["-k", worker_class] if worker_class else []
    server = Server(role, app, port, home, [*argv, app], access_log, worker_class)
    env = server_env(port, home, access_log)
    with open(server.log, "wb") as log:
        server.proc = subprocess.Popen(server.argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    return server


def wait_ready(server: Server) -> None:
    assert server.proc is not None
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise RuntimeError(f"{server.role} exited with {server.proc.returncode}:\n{server.log_tail()}")
        try:
            with urllib.request.urlopen(server.base + "/healthz", timeout=2) as resp:
                if resp.status == 200 and len(server.workers()) == WORKERS:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{server.role} not ready after {READY_TIMEOUT_S:g} s:\n{server.log_tail()}")


def stop_server(server: Server) -> None:
    proc = server.proc
    if proc is not None and proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            print(f"warning: {server.role} (pid {proc.pid}) still running after SIGTERM; killing it", file=sys.stderr)
            proc.kill()
            proc.wait()
    shutil.rmtree(server.home, ignore_errors=True)


def keeps_alive(server: Server) -> bool:
    """Whether the server keeps an HTTP/1.1 connection open after an answer: two requests on one
    connection, and the first answer must not say ``Connection: close`` (sync workers always do)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    try:
        conn.request("GET", "/healthz")
        first = conn.getresponse()
        first.read()
        if first.will_close:
            return False
        conn.request("GET", "/healthz")
        second = conn.getresponse()
        second.read()
        return second.status == 200
    except (OSError, http.client.HTTPException):
        return False
    finally:
        conn.close()


@contextlib.contextmanager
def servers(access_log: bool = False, worker_class: str | None = None) -> Iterator[dict[str, Server]]:
    started: dict[str, Server] = {}
    try:
        started["ceiling"] = start_server("ceiling", CEILING_APP, worker_class=worker_class)
        started["service"] = start_server("service", SERVICE_APP, access_log, worker_class)
        for server in started.values():
            wait_ready(server)
        yield started
    finally:
        for server in started.values():
            stop_server(server)


# ---------------------------------------------------------------------------------------------------
# Checking the bodies before anything is measured.


def post(url: str, body: bytes) -> tuple[int, Any]:
    request = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(errors="replace")


def check_bodies(found: dict[str, Server], bodies: dict[str, bytes], played: FullRound) -> dict[str, Any]:
    """POST each body once to both servers: every answer must be a 200, and the service's must be
    right (``bench.bodies.check_answers``)."""
    answers: dict[str, Any] = {}
    for name, path, _ in BODIES:
        for role, server in found.items():
            status, data = post(server.base + path, bodies[name])
            if status != 200:
                raise RuntimeError(f"{role} answered {status} to {name} ({path}): {str(data)[:500]}")
            if role == "service":
                answers[name] = data
    check_answers(answers, bodies, played)
    return answers


# ---------------------------------------------------------------------------------------------------
# wrk.


def wrk_version() -> str:
    proc = subprocess.run(["wrk", "-v"], capture_output=True, text=True, check=False)
    first = (proc.stdout or proc.stderr).splitlines()
    return first[0].split(" Copyright")[0].strip() if first else "unknown"


def wrk_argv(url: str, body_file: Path, seconds: float) -> list[str]:
    return [
        "wrk",
        f"-t{THREADS}",
        f"-c{CONNECTIONS}",
        f"-d{seconds:g}s",
        "--latency",
        "-s",
        str(LUA),
        url,
        str(body_file),
    ]


def parse_wrk(output: str) -> dict[str, Any]:
    """Requests/sec, the latency distribution, the error counts and the statuses, from the JSON line
    wrk_post.lua prints (``bench.report.wrk_report``)."""
    try:
        report = wrk_report(output)
    except ValueError as exc:
        raise RuntimeError(str(exc)) from None
    errors = report["errors"]
    socket_errors = {kind: errors[kind] for kind in ("connect", "read", "write", "timeout")}
    latency = {int(p): us / 1e3 for p, us in report["latency_us"]["percentiles"].items()}
    statuses = {int(s): n for s, n in report["statuses"].items()}
    non_2xx = sum(n for s, n in statuses.items() if not 200 <= s < 300)
    return {
        "rps": report["requests"] / (max(report["duration_us"], 1) / 1e6),
        "requests": report["requests"],
        "p50_ms": latency.get(50),
        "p99_ms": latency.get(99),
        "latency_ms": latency,
        "socket_errors": socket_errors,
        "wrk_non_2xx_3xx": errors["status"],  # wrk's count: statuses of 400 and above
        "statuses": statuses,
        "non_2xx": non_2xx,
        "errors": non_2xx + sum(socket_errors.values()),
    }


def run_wrk(server: Server, path: str, body_file: Path, seconds: float) -> dict[str, Any]:
    boots = server.boots()
    cpu = server.cpu_seconds()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    argv = wrk_argv(server.base + path, body_file, seconds)
    proc = subprocess.run(argv, capture_output=True, text=True, check=False, timeout=seconds + 60)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    wrk_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        raise RuntimeError(f"wrk failed ({proc.returncode}): {' '.join(argv)}\n{proc.stdout}\n{proc.stderr}")
    result = parse_wrk(proc.stdout)
    result["recycled_workers"] = server.boots() - boots
    # The workers' CPU time per answered request: unlike req/s, it does not count the time the
    # workers wait for a CPU that another process holds, so it moves less on a busy machine.
    result["cpu_us_per_request"] = 1e6 * (server.cpu_seconds() - cpu) / max(1, result["requests"])
    result["wrk_cpu_us_per_request"] = 1e6 * wrk_cpu / max(1, result["requests"])
    return result


# ---------------------------------------------------------------------------------------------------
# The measurement.


def measure(
    found: dict[str, Server], path: str, body_file: Path, seconds: float, repeats: int, warmup: float
) -> dict[str, Any]:
    for role in ROLES:  # not recorded: the first requests of each worker
        run_wrk(found[role], path, body_file, warmup)
    runs_of: dict[str, list[dict[str, Any]]] = {role: [] for role in ROLES}
    for k in range(repeats):  # ceiling, service; service, ceiling; ...
        for role in ROLES if k % 2 == 0 else ROLES[::-1]:
            runs_of[role].append(run_wrk(found[role], path, body_file, seconds))
    out: dict[str, Any] = {"runs": runs_of}
    for role in ROLES:
        runs = runs_of[role]
        rps = [r["rps"] for r in runs]
        med = statistics.median(rps)
        out[role] = {
            "median_rps": med,
            "spread_pct": 100 * (max(rps) - min(rps)) / med if med else None,
            "median_p50_ms": statistics.median(r["p50_ms"] for r in runs),
            "median_p99_ms": statistics.median(r["p99_ms"] for r in runs),
            "errors": sum(r["errors"] for r in runs),
            "non_2xx": sum(r["non_2xx"] for r in runs),
            "socket_errors": sum(sum(r["socket_errors"].values()) for r in runs),
            "requests": sum(r["requests"] for r in runs),
            "recycled_workers": sum(r["recycled_workers"] for r in runs),
            "median_cpu_us": statistics.median(r["cpu_us_per_request"] for r in runs),
            "median_wrk_cpu_us": statistics.median(r["wrk_cpu_us_per_request"] for r in runs),
        }
    out["ratio"] = out["service"]["median_rps"] / out["ceiling"]["median_rps"]
    out["median_paired_ratio"] = statistics.median(
        s["rps"] / c["rps"] for s, c in zip(runs_of["service"], runs_of["ceiling"], strict=True)
    )
    # What req/s comes to when the benchmark alone saturates the CPUs: the workers and wrk share
    # them, so the throughput is inversely proportional to their CPU time per request.
    out["cpu_ratio"] = statistics.median(
        (c["cpu_us_per_request"] + c["wrk_cpu_us_per_request"])
        / (s["cpu_us_per_request"] + s["wrk_cpu_us_per_request"])
        for s, c in zip(runs_of["service"], runs_of["ceiling"], strict=True)
    )
    return out


# ---------------------------------------------------------------------------------------------------
# The optional profile (py-spy on the service's workers during one more run, legalCaptures by default).

PROFILE_RATE_HZ = 500
APP_ENTRY = "Flask.__call__ (flask/app.py)"
FLASK = "Flask and Werkzeug"  # below it: the application; above it: gunicorn
CATEGORIES = (  # (area, prefixes of a frame's shortened file name); a frame counts in the first that matches
    ("rules core (service/rules)", ("service/rules/",)),
    (
        "request schemas (marshmallow, service/api/schemas, fields)",
        ("marshmallow/", "service/api/schemas", "service/api/fields"),
    ),
    ("metrics (prometheus_client, service/ops/metrics)", ("prometheus_client/", "service/ops/metrics")),
    ("JSON (the json module)", ("stdlib/json/",)),
    ("request ids and access log (service/ops/logging, uuid)", ("service/ops/logging", "stdlib/uuid")),
    ("the views and rendering (service/api)", ("service/api/",)),
    (FLASK, ("flask/", "werkzeug/")),
)


def py_spy() -> Path | None:
    exe = Path(sys.executable).with_name("py-spy")
    if exe.exists():
        return exe
    print("installing py-spy into the virtualenv (--profile) ...", flush=True)
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "py-spy"], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0 or not exe.exists():
        print(f"profile skipped: could not install py-spy:\n{(proc.stderr or proc.stdout).strip()[-800:]}")
        return None
    return exe


def short_frame(frame: str) -> str:
    """``function (file:line)`` with a full file name -> ``function (short/file.py)``: the line
    dropped, so that the samples of one function add up; the repo, site-packages and the standard
    library (``stdlib/``) cut off the file name."""
    m = re.fullmatch(r"(.*) \((.*?)(?::\d+)?\)", frame.strip())
    if m is None:
        return frame.strip()
    name, path = m.groups()
    root = str(ROOT) + "/"
    if path.startswith(root) and "/site-packages/" not in path:
        path = path[len(root) :]
    elif "/site-packages/" in path:
        path = path.split("/site-packages/", 1)[1]
    elif re.search(r"/lib/python3\.\d+/", path):
        path = "stdlib/" + re.split(r"/lib/python3\.\d+/", path, maxsplit=1)[1]
    return f"{name} ({path})"


def category_of(frame: str) -> str | None:
    path = frame[frame.rfind("(") + 1 : -1]
    for name, prefixes in CATEGORIES:
        if path.startswith(prefixes):
            return name
    return None


def profile(server: Server, path: str, body_file: Path, seconds: float, top: int = 12) -> dict[str, Any] | None:
    """py-spy on every worker of ``server`` during one wrk run (not one of the measured runs): only
    samples holding the GIL (``--gil``), so a worker waiting on its socket is not counted."""
    exe = py_spy()
    if exe is None:
        return None
    pids = server.workers()
    outs = [server.home / f"py-spy-{pid}.txt" for pid in pids]
    spies = [
        subprocess.Popen(
            [str(exe), "record", "--pid", str(pid), "--duration", f"{seconds:g}", "--rate", str(PROFILE_RATE_HZ)]
            + ["--gil", "--full-filenames", "--format", "raw", "--output", str(out)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for pid, out in zip(pids, outs, strict=True)
    ]
    time.sleep(0.5)  # py-spy attaches
    load = run_wrk(server, path, body_file, seconds + 1)
    messages = [spy.communicate(timeout=seconds + 60)[0] for spy in spies]
    stacks: collections.Counter[tuple[str, ...]] = collections.Counter()
    for out in outs:
        if out.exists():
            for line in out.read_text(errors="replace").splitlines():
                stack, _, count = line.rpartition(" ")
                if stack and count.isdigit():
                    stacks[tuple(short_frame(f) for f in stack.split(";"))] += int(count)
    total = sum(stacks.values())
    if total == 0:
        print("profile skipped: py-spy recorded no samples (tracing another process needs ptrace, SYS_PTRACE):")
        for pid, spy, text in zip(pids, spies, messages, strict=True):
            print(f"  worker {pid}: exit {spy.returncode}: {text.strip()[-400:]}")
        return None
    app = outside = 0
    app_own: collections.Counter[str] = collections.Counter()
    outside_own: collections.Counter[str] = collections.Counter()
    app_incl: collections.Counter[str] = collections.Counter()
    area_own: collections.Counter[str] = collections.Counter()
    area_incl: collections.Counter[str] = collections.Counter()
    for stack, n in stacks.items():
        if APP_ENTRY not in stack:
            outside += n
            outside_own[stack[-1]] += n
            continue
        app += n
        inner = stack[stack.index(APP_ENTRY) :]
        app_own[inner[-1]] += n
        for frame in set(inner):
            app_incl[frame] += n
        area_own[category_of(inner[-1]) or "other (the standard library)"] += n
        for area in {category_of(f) for f in inner} - {None}:
            assert area is not None
            area_incl[area] += n
    result = {
        "workers": pids,
        "samples": total,
        "rate_hz": PROFILE_RATE_HZ,
        "load": load,
        "app_share": app / total,
        "outside": [(name, n / total) for name, n in outside_own.most_common(6)],
        "app_own": [(name, n / app) for name, n in app_own.most_common(top)] if app else [],
        "app_inclusive": [(name, n / app) for name, n in app_incl.most_common(top + 8)] if app else [],
        "areas_inclusive": [(a, n / app) for a, n in area_incl.most_common()] if app else [],
        "areas_own": [(a, n / app) for a, n in area_own.most_common()] if app else [],
    }
    return result


def print_profile(prof: dict[str, Any]) -> None:
    load = prof["load"]
    print(
        f"py-spy --gil on the service's workers {', '.join(map(str, prof['workers']))} during one more "
        f"{prof['body']} run ({prof['samples']} samples at {prof['rate_hz']} Hz per worker; {load['rps']:.0f} req/s "
        f"under the profiler, {load['errors']} errors)."
    )
    print(
        f"Of the samples holding the GIL, {prof['app_share'] * 100:.0f}% are in the application (Flask.__call__ "
        f"and below), {(1 - prof['app_share']) * 100:.0f}% in gunicorn around it; its top frames:"
    )
    for name, share in prof["outside"]:
        print(f"    {share * 100:5.1f}%  {name}")
    if not prof["app_own"]:
        return
    print()
    print("Inside the application, by area (% of the application's samples; incl: anywhere on the stack,")
    print("own: the sampled frame itself):")
    own = dict(prof["areas_own"])
    for area, share in prof["areas_inclusive"]:
        if area != FLASK:  # Flask.__call__ is on every stack: 100% by construction
            print(f"    {share * 100:5.1f}% incl  {own.get(area, 0) * 100:5.1f}% own   {area}")
    for area, share in prof["areas_own"]:
        if area == FLASK or area not in dict(prof["areas_inclusive"]):
            print(f"                 {share * 100:5.1f}% own   {area}")
    print()
    print("Inside the application, top functions by own samples:")
    for name, share in prof["app_own"]:
        print(f"    {share * 100:5.1f}%  {name}")
    print()
    print("Inside the application, top functions by inclusive samples:")
    for name, share in prof["app_inclusive"]:
        if share < 0.999:
            print(f"    {share * 100:5.1f}%  {name}")


# ---------------------------------------------------------------------------------------------------
# Reporting.


def machine() -> dict[str, Any]:
    return {
        **base_machine(),
        "wrk": wrk_version(),
        "gunicorn": metadata.version("gunicorn"),
        "flask": metadata.version("flask"),
    }


def print_results(results: dict[str, dict[str, Any]]) -> None:
    head = (
        f"{'body':<16} {'server':<8} {'req/s':>8} {'±%':>4} {'p50 ms':>7} {'p99 ms':>7} {'requests':>9} "
        f"{'errors':>6} {'recycled':>8} {'service/ceiling':>16} {'CPU µs/req':>10} {'CPU ratio':>9}"
    )
    print(head)
    print("-" * len(head))
    for name, res in results.items():
        for role in ROLES:
            r = res[role]
            service = role == "service"
            ratio = f"{res['ratio']:.2f} ({res['median_paired_ratio']:.2f})" if service else ""
            cpu_ratio = f"{res['cpu_ratio']:.2f}" if service else ""
            print(
                f"{name if role == 'ceiling' else '':<16} {role:<8} {r['median_rps']:>8.0f} {r['spread_pct']:>4.0f} "
                f"{r['median_p50_ms']:>7.2f} {r['median_p99_ms']:>7.2f} {r['requests']:>9} {r['errors']:>6} "
                f"{r['recycled_workers']:>8} {ratio:>16} {r['median_cpu_us']:>10.0f} {cpu_ratio:>9}"
            )


def goals(results: dict[str, dict[str, Any]], model: tuple[str, bool]) -> list[dict[str, Any]]:
    """Each goal of issue 12 against this run; met only under the model the goals are set for."""
    out = []
    for name, _, goal in BODIES:
        if goal is None or name not in results:
            continue
        res = results[name]
        errors = res["service"]["errors"] + res["ceiling"]["errors"]
        met = res["ratio"] >= goal and errors == 0 and model == GOAL_MODEL
        out.append(
            {
                "body": name,
                "goal": goal,
                "ratio": res["ratio"],
                "cpu_ratio": res["cpu_ratio"],
                "errors": errors,
                "met": met,
            }
        )
    return out


def model_text(model: tuple[str, bool]) -> str:
    return f"{model[0]} workers, keep-alive {'on' if model[1] else 'off'}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.http", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="short runs (~3 s each, 2 repetitions): a smoke run")
    parser.add_argument("--json", metavar="PATH", help="also write every figure and every wrk run as JSON to PATH")
    parser.add_argument("--duration", type=float, help="seconds per wrk run (default 8, or 3 with --quick)")
    parser.add_argument("--repeats", type=int, help="wrk runs per server and body (default 3, or 2 with --quick)")
    parser.add_argument(
        "--worker-class",
        metavar="CLASS",
        help="gunicorn worker class of both servers (gunicorn's -k; default: gunicorn.conf.py's, the project's "
        "own gevent worker, for which the goals are set)",
    )
    parser.add_argument("--profile", action="store_true", help="also profile the service with py-spy (installs it)")
    parser.add_argument(
        "--profile-body",
        choices=[name for name, _, _ in BODIES],
        default="legalCaptures",
        help="the body to profile with --profile (default legalCaptures)",
    )
    parser.add_argument(
        "--only",
        choices=[name for name, _, _ in BODIES],
        action="append",
        help="measure only this body (repeatable; default: every body)",
    )
    parser.add_argument(
        "--access-log",
        action="store_true",
        help="the service writes its JSON access log (on by default in production) to a file; default: off",
    )
    args = parser.parse_args(argv)
    seconds = args.duration or (3.0 if args.quick else 8.0)
    repeats = args.repeats or (2 if args.quick else 3)
    warmup = 1.0 if args.quick else 2.0
    if repeats < 1 or seconds < 1:
        parser.error("--repeats must be at least 1 and --duration at least 1 s")
    if shutil.which("wrk") is None:
        print("wrk is not installed: apt-get install -y wrk", file=sys.stderr)
        return 2

    started = time.perf_counter()
    info = machine()
    print(f"HTTP benchmark: Python {info['python']} ({info['implementation']}), {info['platform']}")
    load = info["loadavg_at_start"]
    print(
        f"CPUs: {info['cpu_count']} (usable: {info['cpus_usable']}); load average: "
        f"{' '.join(f'{x:.2f}' for x in load) if load else 'n/a'}"
    )
    print(f"{info['wrk']}; gunicorn {info['gunicorn']}; Flask {info['flask']}")
    mode = "quick" if args.quick else "full"
    print(
        f"mode: {mode}; {repeats} run{'s' if repeats != 1 else ''} of {seconds:g} s per server and body, "
        f"after a {warmup:g} s warm-up; gunicorn: {WORKERS} workers each"
    )

    played = full_round()
    payloads = {
        "legalCaptures": captures_body(),
        "scoreRound": played.scores_body(),
        "playRound": played.play_body(),
        "replayRound": played.replay_body(),
    }
    work = Path(tempfile.mkdtemp(prefix="chkobba-bench-bodies-"))
    results: dict[str, dict[str, Any]] = {}
    prof: dict[str, Any] | None = None
    model = ("unknown", False)
    try:
        with servers(args.access_log, args.worker_class) as found:
            # The sealed body carries a token of the service's own key: only the service can make it.
            service = found["service"]
            token = sealed_position(lambda path, data: post(service.base + path, data), played)
            payloads["playRoundSealed"] = played.sealed_play_body(token)
            files, bodies = {}, {}
            for name, payload in payloads.items():
                bodies[name] = json.dumps(payload, separators=(",", ":")).encode()
                files[name] = work / f"{name}.json"
                files[name].write_bytes(bodies[name])
            used = {role: (server.worker_in_use(), keeps_alive(server)) for role, server in found.items()}
            if used["ceiling"] != used["service"]:
                raise RuntimeError(f"the two servers do not run the same model: {used}")
            model = used["service"]
            print()
            print("servers (cwd: the repo; $TMP: a temporary directory of each server):")
            for role in ROLES:
                print(f"  {role:<8} {shown_command(found[role])}")
            print(f"  both: {model_text(model)} (gunicorn's 'Using worker' line; two requests on one connection)")
            answers = check_bodies(found, bodies, played)
            breakdown = answers["replayRound"]["breakdown"]
            print()
            print("bodies (each POSTed once to both servers first: 200 everywhere):")
            print(
                f"  legalCaptures    POST /v1/captures        {len(bodies['legalCaptures']):>5} B  "
                f"{payloads['legalCaptures']['table']} / {payloads['legalCaptures']['hand']}"
            )
            print(
                f"  scoreRound       POST /v1/scores          {len(bodies['scoreRound']):>5} B  "
                f"the final piles ({', '.join(str(len(s['captured'])) for s in payloads['scoreRound']['sides'])} "
                f"cards) and sweeps {played.final.sweeps} of the round below"
            )
            print(
                f"  playRound        POST /v1/rounds/play     {len(bodies['playRound']):>5} B  "
                f"the round below before move {PLAY_AT} (a plain state), and that move: "
                f"{payloads['playRound']['move']}"
            )
            print(
                f"  playRoundSealed  POST /v1/rounds/play     {len(bodies['playRoundSealed']):>5} B  "
                f"the same position and move, the state in a state_token (the service's: its sealed deal, "
                f"then {PLAY_AT} sealed moves)"
            )
            print(
                f"  replayRound      POST /v1/rounds/replay   {len(bodies['replayRound']):>5} B  "
                f"chkobba, 2 players, seed {played.seed}, cut kept, {len(played.moves)} moves; the service: "
                f"valid, complete, totals {[b['total'] for b in breakdown]}"
            )
            print()
            example = wrk_argv(found["service"].base + "/v1/captures", files["legalCaptures"], seconds)
            print("wrk command line (URL and body file change per run):")
            print("  " + " ".join(example))
            print()
            for name, path, _ in BODIES:
                if args.only and name not in args.only:
                    continue
                print(f"measuring {name} ...", flush=True)
                results[name] = measure(found, path, files[name], seconds, repeats, warmup)
            if args.profile:
                name = args.profile_body
                print(f"profiling the service on {name} ...", flush=True)
                prof = profile(found["service"], dict((n, p) for n, p, _ in BODIES)[name], files[name], seconds)
                if prof is not None:
                    prof["body"] = name
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print()
    print("Medians over the runs. ±%: (max - min) / median of req/s. errors: non-2xx answers and socket errors,")
    print("summed over the runs. recycled: workers restarted by max_requests during the runs.")
    print("service/ceiling: the ratio of the median req/s (the median of the paired runs' ratios).")
    print("CPU µs/req: the workers' CPU time per answered request (median over the runs). CPU ratio: the")
    print("median over the paired runs of (ceiling + its wrk) / (service + its wrk) CPU time per request: what")
    print("service/ceiling comes to when the benchmark alone saturates the CPUs; steadier on a busy machine.")
    print()
    print_results(results)
    print()
    checked = goals(results, model)
    for g in checked:
        print(
            f"goal {g['body']}: service ≥ {g['goal']:.2f} of the ceiling with no errors, {model_text(GOAL_MODEL)}: "
            f"{'MET' if g['met'] else 'MISSED'} ({g['ratio']:.3f}, {g['errors']} errors; "
            f"CPU ratio {g['cpu_ratio']:.3f})"
        )
    if checked and model != GOAL_MODEL:
        print(
            f"note: this run used {model_text(model)}; issue 12 sets the goals for {model_text(GOAL_MODEL)} "
            "(gunicorn.conf.py's worker class), so none is met here"
        )
    noisy = [f"{n}/{r}" for n, res in results.items() for r in ROLES if (res[r]["spread_pct"] or 0) > 10]
    if noisy:
        print(f"note: req/s varied by more than 10% between runs for {', '.join(noisy)}: rerun before judging")
    if prof is not None:
        print()
        print_profile(prof)
    elapsed = time.perf_counter() - started
    info["loadavg_at_end"] = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    print()
    end_load = info["loadavg_at_end"]
    print(
        f"total run time: {elapsed:.1f} s; load average at the end: "
        f"{' '.join(f'{x:.2f}' for x in end_load) if end_load else 'n/a'}"
    )
    if load and load[0] > 1.0:  # the run itself adds about 3 (wrk and two workers): judge the start only
        print("note: the machine was busy at the start (1-minute load average above 1); ratios suffer less than")
        print("      absolute req/s, but rerun on a quiet machine before judging a goal")

    if args.json:
        report = {
            "machine": info,
            "mode": mode,
            "access_log": args.access_log,
            "duration_s": seconds,
            "repeats": repeats,
            "warmup_s": warmup,
            "workers": WORKERS,
            "worker_class": model[0],
            "keep_alive": model[1],
            "wrk": {"threads": THREADS, "connections": CONNECTIONS, "script": str(LUA.relative_to(ROOT))},
            "round": {"seed": played.seed, "moves": len(played.moves), "sweeps": list(played.final.sweeps)},
            "bodies": payloads,
            "results": results,
            "goals": checked,
            "profile": prof,
            "total_s": elapsed,
        }
        write_json(args.json, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
