"""Dead workers' metric files, folded into one archive file per type (issue 12).

In prometheus_client's multiprocess mode each worker writes its samples to files named by its pid
(``counter_<pid>.db``, ``histogram_<pid>.db``), and a scrape reads every ``*.db`` file of the
directory, taking the metric type from the part of the name before the first ``_``. A dead worker's
counts must outlive it, or the counters would go back; so its files used to stay, and every recycled
or killed worker made the directory bigger and every scrape slower.

``merge_dead_workers``, which the gunicorn master calls after each worker exit (``child_exit``),
adds the values of every such file whose process is gone into ``counter_archive.db``
(``histogram_archive.db``, ``summary_archive.db``), key by key, and deletes the dead files. A key is
the metric, the sample name and its labels; histogram buckets are stored one count per bucket, not
cumulated, so adding them key by key is what a scrape does anyway: the totals stay exact. The
directory holds the live workers' files and one archive per type, however many workers died.

A scrape must never see a merge half done: between "added to the archive" and "dead files deleted"
it would count the dead worker twice, in the other order not at all, and Prometheus would take
either for a counter reset. A merge spans several files, so no single rename can publish it; hence
a lock file in the directory (``merge.lock``, ``flock``): a scrape holds it shared while it lists and
reads the files (``LockedCollector``), a merge holds it exclusive from reading the dead files to
deleting them. The archive is still written under a temporary name and renamed over the old one, so
a merge that fails midway (a full volume) leaves the previous state, exact. The master only tries
the lock for up to ``LOCK_WAIT_S``: a scrape holds it for milliseconds, but a worker stuck in one
must not block the master that would kill it; the files then wait for the next merge.

A file is dead when no process has its pid (``os.kill(pid, 0)``). The master, which merges, is also
the only one that forks workers, so no new worker can take a pid while a merge runs; a worker that
died but is not reaped yet still has its pid, and is merged at its own ``child_exit``; a pid reused
by a later worker is alive, and that worker carries on from its predecessor's values in the same
files (prometheus_client reopens them).

Gauges: the service has none. Those of a ``live*`` mode are deleted for dead pids, as
``multiprocess.mark_process_dead`` does; gauges of the other modes are left alone (still right, but
not bounded): how to fold them depends on the mode, and ``all`` keeps one series per pid.
"""

from __future__ import annotations

import fcntl
import os
import re
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from prometheus_client import multiprocess
from prometheus_client.metrics_core import Metric
from prometheus_client.mmap_dict import MmapedDict

LOCK_NAME = "merge.lock"
ARCHIVE = "archive"  # counter_archive.db: the collector reads "counter" from the name, ignores the rest
MERGED_TYPES = ("counter", "histogram", "summary")  # the types whose samples add up across processes
LOCK_WAIT_S = 1.0
_PER_PROCESS = re.compile(r"(\w+?)_(\d{1,10})\.db")  # counter_123.db, gauge_livesum_123.db


class Log(Protocol):
    def debug(self, msg: str, *args: Any) -> None: ...
    def warning(self, msg: str, *args: Any) -> None: ...
    def exception(self, msg: str, *args: Any) -> None: ...


@dataclass(frozen=True)
class Merged:
    pids: frozenset[int]  # the dead processes whose files were merged or deleted
    deferred: bool = False  # the lock stayed busy: the dead files are left for the next merge


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    except OverflowError:  # no process can have it
        return False
    return True


@contextmanager
def _lock(directory: str, operation: int, wait_s: float | None = None) -> Iterator[bool]:
    """Hold the directory's lock (LOCK_SH or LOCK_EX); with ``wait_s``, give up (False) after that long."""
    fd = os.open(os.path.join(directory, LOCK_NAME), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if wait_s is None:
            fcntl.flock(fd, operation)
        else:
            deadline = time.monotonic() + wait_s
            while True:
                try:
                    fcntl.flock(fd, operation | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        yield False
                        return
                    time.sleep(0.005)
        yield True
    finally:
        os.close(fd)  # releases the lock


class LockedCollector:
    """What ``multiprocess.MultiProcessCollector`` collects, read under the shared lock."""

    def __init__(self, directory: str) -> None:
        self.directory = directory

    def collect(self) -> Iterable[Metric]:
        with _lock(self.directory, fcntl.LOCK_SH):
            files = [e.path for e in os.scandir(self.directory) if e.name.endswith(".db")]
            # merge() reads every file before it returns.
            metrics: Iterable[Metric] = multiprocess.MultiProcessCollector.merge(files, accumulate=True)  # type: ignore[no-untyped-call]
            return metrics


def _dead_files(directory: str) -> dict[str, dict[int, str]]:
    """Per file prefix ("counter", "gauge_livesum", ...), the files to merge or delete, by pid."""
    found: dict[str, dict[int, str]] = {}
    for entry in os.scandir(directory):
        match = _PER_PROCESS.fullmatch(entry.name)
        if not match:
            continue
        prefix, pid = match.group(1), int(match.group(2))
        if (prefix in MERGED_TYPES or prefix.startswith("gauge_live")) and not alive(pid):
            found.setdefault(prefix, {})[pid] = entry.path
    return found


def _fold(directory: str, typ: str, dead: list[str]) -> None:
    """Add the dead files' values into ``<typ>_archive.db``, then delete them (lock held)."""
    archive = os.path.join(directory, f"{typ}_{ARCHIVE}.db")
    sources = [archive, *dead] if os.path.exists(archive) else dead
    totals: dict[str, list[float]] = {}
    for path in sources:
        for key, value, timestamp, _ in MmapedDict.read_all_values_from_file(path):  # type: ignore[no-untyped-call]
            total = totals.setdefault(key, [0.0, 0.0])
            total[0] += value
            total[1] = max(total[1], timestamp)
    partial = os.path.join(directory, f"{typ}_{ARCHIVE}.partial")  # not *.db: no scrape reads it
    if os.path.exists(partial):
        os.unlink(partial)  # left by a failed merge: MmapedDict would append to it
    written = MmapedDict(partial)  # type: ignore[no-untyped-call]
    try:
        for key, (value, timestamp) in totals.items():
            written.write_value(key, value, timestamp)  # type: ignore[no-untyped-call]
    finally:
        written.close()  # type: ignore[no-untyped-call]
    os.replace(partial, archive)
    for path in dead:
        os.unlink(path)


def merge_dead_workers(directory: str, log: Log, wait_s: float = LOCK_WAIT_S) -> Merged | None:
    """Fold the metric files of every process that is gone into the archives; None if it failed.

    Never raises: it runs in the gunicorn master, which an exception in ``child_exit`` would stop.
    """
    try:
        if not _dead_files(directory):
            return Merged(frozenset())
        with _lock(directory, fcntl.LOCK_EX, wait_s) as locked:
            if not locked:
                log.warning("metrics of dead workers left for the next merge: a scrape held the lock for %g s", wait_s)
                return Merged(frozenset(), deferred=True)
            dead = _dead_files(directory)  # again, under the lock
            pids = frozenset(pid for files in dead.values() for pid in files)
            for prefix, files in sorted(dead.items()):
                if prefix in MERGED_TYPES:
                    _fold(directory, prefix, list(files.values()))
                else:  # a live* gauge: gone with its process
                    for path in files.values():
                        os.unlink(path)
        log.debug("metrics of dead workers %s merged into the archives", sorted(pids))
        return Merged(pids)
    except Exception:
        log.exception("metrics of dead workers not merged in %s", directory)
        return None
