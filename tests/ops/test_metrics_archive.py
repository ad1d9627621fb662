"""The merge of dead workers' metric files (service/ops/metrics_archive.py), without gunicorn.

Thousands of workers are simulated in this process: prometheus_client's own multiprocess value class,
given a process identifier the test changes, writes each worker's files as a forked worker would (to
it, a new identifier is a fork). Dead workers get pids no process can have (above Linux's
PID_MAX_LIMIT, 2**22); the live worker has this process's pid. Every latency observed is a multiple of
1/8, so that float sums are exact in any order and every total can be compared with ==.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
import random
import threading
from collections import Counter as Tally
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest, values
from prometheus_client.metrics import MetricWrapperBase
from prometheus_client.mmap_dict import MmapedDict
from prometheus_client.parser import text_string_to_metric_families

from service.ops import metrics
from service.ops.metrics_archive import LOCK_NAME, MERGED_TYPES, LockedCollector, Merged, merge_dead_workers

DEAD = 5_000_000  # DEAD + n: the pid of the n-th dead worker
BUCKETS = (0.25, 0.5, 1.0)
OPERATIONS = ("listRulesets", "legalCaptures", "applyMove", "scoreRound")
STATUSES = ("200", "404", "422")
LOG = logging.getLogger("test.metrics_archive")


@dataclass
class Workers:
    """Simulated workers counting requests and their latency, and what the counts must add up to."""

    directory: Path
    pid: list[int]
    requests: Counter
    latency: Histogram
    rng: random.Random = field(default_factory=lambda: random.Random(12))
    expected_requests: Tally = field(default_factory=Tally)  # (operation, status)
    expected_sums: Tally = field(default_factory=Tally)
    expected_buckets: Tally = field(default_factory=Tally)  # (operation, status, le), cumulated

    def become(self, pid: int) -> None:
        """From now on the metrics are written by process ``pid``."""
        self.pid[0] = pid

    def serve(self, requests: int) -> None:
        for _ in range(requests):
            labels = (self.rng.choice(OPERATIONS), self.rng.choice(STATUSES))
            seconds = self.rng.randrange(0, 13) / 8  # 0 to 1.5 s: every bucket and +Inf
            self.requests.labels(*labels).inc()
            self.latency.labels(*labels).observe(seconds)
            self.expected_requests[labels] += 1
            self.expected_sums[labels] += seconds
            for bound in BUCKETS:
                if seconds <= bound:
                    self.expected_buckets[(*labels, str(bound))] += 1
            self.expected_buckets[(*labels, "+Inf")] += 1

    def merge(self) -> Merged:
        """What gunicorn's child_exit does after a worker died."""
        merged = merge_dead_workers(str(self.directory), LOG)
        assert merged is not None
        return merged


@pytest.fixture
def workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Workers]:
    directory = tmp_path / "metrics"
    directory.mkdir()
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(directory))
    pid = [os.getpid()]
    value_class = values.MultiProcessValue(lambda: pid[0])
    monkeypatch.setattr(values, "ValueClass", value_class)
    requests = Counter("t_requests_total", "Requests", ["operation", "status"], registry=None)
    latency = Histogram("t_latency_seconds", "Latency", ["operation", "status"], buckets=BUCKETS, registry=None)
    yield Workers(directory, pid, requests, latency)
    value_class.close_all_files()  # type: ignore[attr-defined]


def scrape(directory: Path) -> dict[str, Tally]:
    """What /metrics answers for ``directory``: sample values by name, then by their sorted labels."""
    registry = CollectorRegistry()
    registry.register(LockedCollector(str(directory)))
    found: dict[str, Tally] = {}
    for family in text_string_to_metric_families(generate_latest(registry).decode()):
        for sample in family.samples:
            found.setdefault(sample.name, Tally())[tuple(sorted(sample.labels.items()))] += sample.value
    return found


def by(found: dict[str, Tally], name: str, *keys: str) -> Tally:
    out: Tally = Tally()
    for labels, value in found.get(name, Tally()).items():
        d = dict(labels)
        out[tuple(d[k] for k in keys)] += value
    return out


def assert_exact(found: dict[str, Tally], w: Workers) -> None:
    assert by(found, "t_requests_total", "operation", "status") == w.expected_requests
    assert by(found, "t_latency_seconds_count", "operation", "status") == w.expected_requests
    assert by(found, "t_latency_seconds_sum", "operation", "status") == w.expected_sums
    assert +by(found, "t_latency_seconds_bucket", "operation", "status", "le") == w.expected_buckets


def db_files(directory: Path) -> set[str]:
    return {f.name for f in directory.iterdir() if f.name.endswith(".db")}


def used_bytes(path: str) -> int:
    """How much of a prometheus_client file holds samples (its first 4 bytes say)."""
    with open(path, "rb") as f:
        return int.from_bytes(f.read(4), "little")


def scrape_cost(directory: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """The files a scrape reads, and the sample bytes in them."""
    read: list[str] = []
    real = MmapedDict.read_all_values_from_file

    def counting(path: str) -> Any:
        read.append(path)
        return real(path)

    with monkeypatch.context() as patch:
        patch.setattr(MmapedDict, "read_all_values_from_file", staticmethod(counting))
        scrape(directory)
    return len(read), sum(used_bytes(p) for p in read)


def test_thousands_of_dead_workers_fold_into_one_archive_per_type(workers, monkeypatch):
    live = {f"counter_{os.getpid()}.db", f"histogram_{os.getpid()}.db"}
    workers.serve(5)  # the live worker: its files stay where they are
    cost = {}
    for n in range(1, 2001):
        workers.become(DEAD + n)
        workers.serve(workers.rng.randrange(1, 4))
        assert workers.merge() == Merged(frozenset({DEAD + n}))
        assert db_files(workers.directory) == {"counter_archive.db", "histogram_archive.db", *live}
        if n in (100, 2000):
            assert len(workers.expected_requests) == len(OPERATIONS) * len(STATUSES)  # every series exists
            cost[n] = scrape_cost(workers.directory, monkeypatch)
            assert_exact(scrape(workers.directory), workers)
    # After 2,000 dead workers a scrape reads the same 4 files and the same bytes as after 100: the
    # archives hold one value per series, not per worker.
    assert cost[2000] == cost[100] and cost[100][0] == 4, cost


def test_one_merge_takes_every_dead_worker_left_behind(workers):
    """Files a merge had to leave (the lock was busy, or they predate this code) go at the next one."""
    for n in range(1, 501):
        workers.become(DEAD + n)
        workers.serve(2)
    workers.become(os.getpid())
    workers.serve(1)
    assert len(db_files(workers.directory)) == 2 * 500 + 2
    before = scrape(workers.directory)
    assert_exact(before, workers)
    assert workers.merge() == Merged(frozenset(range(DEAD + 1, DEAD + 501)))
    assert len(db_files(workers.directory)) == 2 + 2
    assert scrape(workers.directory) == before


def hold_scrape_lock(directory: Path) -> int:
    """Take the lock as a scrape does (shared), on a file description of its own."""
    fd = os.open(directory / LOCK_NAME, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_SH)
    return fd


def test_a_merge_is_put_off_while_a_scrape_reads(workers):
    for n in range(1, 4):
        workers.become(DEAD + n)
        workers.serve(3)
    files = db_files(workers.directory)
    fd = hold_scrape_lock(workers.directory)
    try:
        assert merge_dead_workers(str(workers.directory), LOG, wait_s=0.05) == Merged(frozenset(), deferred=True)
        assert db_files(workers.directory) == files
        assert_exact(scrape(workers.directory), workers)  # scrapes share the lock
    finally:
        os.close(fd)
    assert workers.merge() == Merged(frozenset({DEAD + 1, DEAD + 2, DEAD + 3}))
    assert db_files(workers.directory) == {"counter_archive.db", "histogram_archive.db"}
    assert_exact(scrape(workers.directory), workers)


def test_a_scrape_never_sees_a_merge_half_done(workers, monkeypatch):
    """A scrape started between the archive's rename and the dead files' deletion waits for the end.

    Without the lock it would read the new archive and the dead files too: their counts twice.
    """
    for n in range(1, 4):
        workers.become(DEAD + n)
        workers.serve(3)
    workers.merge()
    workers.become(DEAD + 4)
    workers.serve(4)
    results: list[dict[str, Tally]] = []
    scraper = threading.Thread(target=lambda: results.append(scrape(workers.directory)))
    finished_midway = []
    real_replace = os.replace

    def replace_then_scrape(src: Any, dst: Any) -> None:
        real_replace(src, dst)
        if not finished_midway:  # the first type's archive is in place, its dead files not yet deleted
            scraper.start()
            scraper.join(1.0)  # long enough for a scrape of 4 small files, unless it must wait
            finished_midway.append(not scraper.is_alive())

    monkeypatch.setattr(os, "replace", replace_then_scrape)
    assert workers.merge() == Merged(frozenset({DEAD + 4}))
    scraper.join(10)
    assert finished_midway == [False]
    assert len(results) == 1
    assert_exact(results[0], workers)


def test_a_failed_merge_leaves_every_count_where_it_was(workers, monkeypatch, caplog):
    for n in range(1, 4):
        workers.become(DEAD + n)
        workers.serve(3)
    workers.merge()
    workers.become(DEAD + 4)
    workers.serve(4)
    before = db_files(workers.directory)

    def full(src: Any, dst: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as patch, caplog.at_level(logging.ERROR):
        patch.setattr(os, "replace", full)
        assert merge_dead_workers(str(workers.directory), LOG) is None  # logged, not raised
    assert "not merged" in caplog.text and "No space left" in caplog.text
    assert db_files(workers.directory) == before
    assert_exact(scrape(workers.directory), workers)
    assert (workers.directory / "counter_archive.partial").exists()  # what the failed merge wrote
    assert workers.merge() == Merged(frozenset({DEAD + 4}))
    assert db_files(workers.directory) == {"counter_archive.db", "histogram_archive.db"}
    assert not [f for f in workers.directory.iterdir() if f.suffix == ".partial"]
    assert_exact(scrape(workers.directory), workers)


def test_live_gauges_of_dead_workers_go_other_gauges_stay(workers):
    """Not merged: a live* gauge dies with its worker (mark_process_dead), other modes are left alone."""
    workers.become(DEAD + 1)
    for mode in ("livesum", "liveall", "all", "max"):
        Gauge(f"t_{mode}", "A gauge", multiprocess_mode=mode, registry=None).set(3)
    workers.merge()
    assert db_files(workers.directory) == {f"gauge_all_{DEAD + 1}.db", f"gauge_max_{DEAD + 1}.db"}


def test_the_service_has_only_metrics_the_merge_folds():
    """The bound on the metrics directory holds for counters and histograms; a gauge would need a mode."""
    types = {m._type for m in vars(metrics).values() if isinstance(m, MetricWrapperBase)}
    assert types and types <= set(MERGED_TYPES), types
