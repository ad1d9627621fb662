"""gunicorn settings for the service. Every setting can be changed by an environment variable.

Loaded explicitly (`gunicorn -c gunicorn.conf.py`), so a stray file elsewhere cannot change it.
"""

import os
import shutil
import tempfile

bind = os.environ.get("CHKOBBA_BIND", f"127.0.0.1:{os.environ.get('PORT', '8080')}")
workers = int(os.environ.get("CHKOBBA_WORKERS") or os.cpu_count() or 1)
worker_class = "sync"
timeout = int(os.environ.get("CHKOBBA_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("CHKOBBA_GRACEFUL_TIMEOUT", "20"))
keepalive = int(os.environ.get("CHKOBBA_KEEPALIVE", "5"))
# Recycle workers now and then, with jitter so they do not all restart at once.
max_requests = int(os.environ.get("CHKOBBA_MAX_REQUESTS", "20000"))
max_requests_jitter = int(os.environ.get("CHKOBBA_MAX_REQUESTS_JITTER", "2000"))
# Bounded request line and headers: nothing this API takes needs more.
limit_request_line = 2048
limit_request_fields = 50
limit_request_field_size = 8190
accesslog = os.environ.get("CHKOBBA_ACCESS_LOG", "-")
errorlog = "-"
loglevel = os.environ.get("CHKOBBA_LOG_LEVEL", "info")

# prometheus_client picks its storage when first imported, so the directory must be in the
# environment before any worker imports the app.
metrics_dir = os.environ.setdefault(
    "PROMETHEUS_MULTIPROC_DIR", os.path.join(tempfile.gettempdir(), f"chkobba-metrics-{bind.rsplit(':', 1)[-1]}")
)


def on_starting(server):  # noqa: ARG001 - gunicorn's hook signature
    # Files left by an earlier run would be counted again: start from an empty directory.
    shutil.rmtree(metrics_dir, ignore_errors=True)
    os.makedirs(metrics_dir, exist_ok=True)


def child_exit(server, worker):  # noqa: ARG001
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)
