"""What the benchmarks share: the machine they ran on, the JSON report, rows of games played in chunks
on a process pool, a free port, a server's workers, one call of a WSGI app, and the report of a wrk run
(bench/wrk_post.lua)."""

from __future__ import annotations

import http.client
import json
import os
import platform
import socket
import sys
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any


def machine() -> dict[str, Any]:
    """Python, the platform, the CPUs (all, and usable by this process) and the load at the start."""
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "cpus_usable": affinity,
        "loadavg_at_start": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }


def in_chunks(
    rows: Sequence[tuple[Any, ...]], run_chunk: Callable[..., list[Any]], chunk: int, workers: int
) -> dict[tuple[Any, ...], list[Any]]:
    """Each row ``(*key, n)`` played as chunks of ``chunk`` games on ``workers`` processes:
    ``run_chunk((*key, start, stop))`` plays games start to stop; their results by key, in order."""
    tasks = [(*row[:-1], start, min(row[-1], start + chunk)) for row in rows for start in range(0, row[-1], chunk)]
    found: dict[tuple[Any, ...], list[Any]] = {tuple(row[:-1]): [] for row in rows}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for task, result in zip(tasks, pool.map(run_chunk, tasks), strict=True):
            found[task[:-2]].extend(result)
    return found


def write_json(path: str, report: dict[str, Any]) -> None:
    with open(path, "w", encoding="utf-8") as out:
        json.dump(report, out, indent=2)
        out.write("\n")
    print(f"JSON written to {path}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def children(parent: int) -> set[int]:
    """The live (not zombie) children of ``parent``, from /proc: a gunicorn master's workers."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()  # the command name may hold spaces
            if int(fields[1]) == parent and fields[0] != "Z":
                found.add(int(entry.name))
    return found


def send(port: int, method: str, path: str, body: object = None, timeout: float = 5.0) -> tuple[int, bytes]:
    """One request to a server on loopback, on a connection of its own: (status, body). ``body`` is JSON
    to encode, or (content type, bytes) to send as they are."""
    headers = {"Connection": "close"}
    data = None
    if isinstance(body, tuple):
        headers["Content-Type"], data = body
    elif body is not None:
        headers["Content-Type"], data = "application/json", json.dumps(body).encode()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def answer_of(app: Callable[..., Iterable[bytes]], environ: dict[str, Any]) -> tuple[int, bytes]:
    """One call of a WSGI app, as a server makes it: the status and the whole answer."""
    status: list[str] = []

    def start_response(line: str, headers: Any, exc_info: Any = None) -> Callable[[bytes], None]:
        status.append(line)
        return lambda _: None

    result = app(environ, start_response)
    try:
        data = b"".join(result)
    finally:
        close = getattr(result, "close", None)
        if close is not None:
            close()
    return int(status[0][:3]), data


def wrk_report(output: str) -> dict[str, Any]:
    """The figures of a wrk run: the JSON line ``bench/wrk_post.lua``'s ``done()`` prints after wrk's
    own text report (requests, duration_us, bytes, errors, latency_us, statuses)."""
    for line in reversed(output.splitlines()):
        if line.startswith("{"):
            report: dict[str, Any] = json.loads(line)
            return report
    raise ValueError(f"wrk_post.lua printed no JSON report:\n{output}")
