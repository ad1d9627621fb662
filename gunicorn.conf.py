"""gunicorn settings for the service. Every setting can be changed by an environment variable.

Loaded explicitly (`gunicorn -c gunicorn.conf.py`), so a stray file elsewhere cannot change it.
"""

import base64
import gc
import os
import secrets
import shutil
import tempfile


def setting(name, default, least):
    """A whole number from the environment, or the service does not start: a typo would otherwise
    end in a traceback, and a 0 in a server that listens but never answers."""
    text = os.environ.get(name) or str(default)
    try:
        value = int(text)
    except ValueError:
        raise SystemExit(f"{name} must be a whole number, not {text!r}") from None
    if value < least:
        raise SystemExit(f"{name} must be at least {least}, not {value}")
    return value


bind = os.environ.get("CHKOBBA_BIND", f"127.0.0.1:{os.environ.get('PORT', '8080')}")
workers = setting("CHKOBBA_WORKERS", os.cpu_count() or 1, 1)
# gevent with deadlines for slow clients and whole bodies (service/ops/worker.py; README, "Running it
# in front of real clients"): an idle or trickling connection holds a greenlet, never a worker.
worker_class = "service.ops.worker.Worker"
worker_connections = setting("CHKOBBA_WORKER_CONNECTIONS", 1000, 1)
timeout = setting("CHKOBBA_TIMEOUT", 30, 1)
graceful_timeout = setting("CHKOBBA_GRACEFUL_TIMEOUT", 20, 0)
# Also the time a client has to send a request's line and headers: the gevent worker waits for them
# under this timeout, so 0 (which would wait for ever) is refused.
keepalive = setting("CHKOBBA_KEEPALIVE", 5, 1)
# Read by the worker (service/ops/worker.py) from the environment, checked here.
setting("CHKOBBA_CLIENT_TIMEOUT", 10, 1)
# Recycle workers now and then, with jitter so they do not all restart at once. Rarely: memory stays
# flat without it and each restart costs a worker boot; at full load this is a recycle every few
# hours. A dead worker's counts survive it: child_exit folds its metric files into the archives.
max_requests = setting("CHKOBBA_MAX_REQUESTS", 1000000, 0)
max_requests_jitter = setting("CHKOBBA_MAX_REQUESTS_JITTER", 50000, 0)
# Bounded request line and headers: nothing this API takes needs more.
limit_request_line = 2048
limit_request_fields = 50
limit_request_field_size = 8190
# The app writes the access log (JSON lines, with the operation and the request id: see
# service/ops/logging.py, set by CHKOBBA_ACCESS_LOG); gunicorn's own would log each request twice.
accesslog = None
errorlog = "-"
loglevel = os.environ.get("CHKOBBA_LOG_LEVEL", "info")
# gunicorn 25+ opens a control socket under $HOME/.gunicorn by default: on a read-only root file
# system that fails, and two servers on one machine would share (and unlink) the same socket. Off
# unless CHKOBBA_CONTROL_SOCKET names a path for it.
control_socket_disable = not os.environ.get("CHKOBBA_CONTROL_SOCKET")
if not control_socket_disable:
    control_socket = os.environ["CHKOBBA_CONTROL_SOCKET"]
# Workers' heartbeat files: default the system temporary directory (in the pod, a memory emptyDir).
worker_tmp_dir = os.environ.get("CHKOBBA_WORKER_TMP_DIR") or None

# prometheus_client picks its storage when first imported, so the directory must be in the
# environment before any worker imports the app.
metrics_dir = os.environ.setdefault(
    "PROMETHEUS_MULTIPROC_DIR", os.path.join(tempfile.gettempdir(), f"chkobba-metrics-{bind.rsplit(':', 1)[-1]}")
)


def on_starting(server):
    # A wrong CHKOBBA_CORS_ORIGINS stops the start here, with one line, rather than each worker's boot
    # with a traceback. (Here rather than above: only now is the service's directory on sys.path.)
    from service.api.cors import origins_from

    try:
        origins_from(os.environ.get("CHKOBBA_CORS_ORIGINS"))
    except ValueError as error:
        raise SystemExit(str(error)) from None
    # Files left by an earlier run would be counted again: start from an empty directory.
    shutil.rmtree(metrics_dir, ignore_errors=True)
    os.makedirs(metrics_dir, exist_ok=True)
    if not os.environ.get("CHKOBBA_STATE_KEYS"):
        # One key for every worker (they inherit the environment), so any worker opens any token.
        os.environ["CHKOBBA_STATE_KEYS"] = base64.urlsafe_b64encode(secrets.token_bytes(32)).decode().rstrip("=")
        server.log.warning(
            "CHKOBBA_STATE_KEYS is not set: sealed states use a key generated at start, which will not "
            "survive a restart or span replicas"
        )


def child_exit(server, worker):  # noqa: ARG001
    from service.ops.metrics_archive import merge_dead_workers

    merge_dead_workers(metrics_dir, server.log)


def post_worker_init(worker):  # noqa: ARG001
    # Everything the app loaded lives as long as the worker: collect once, then freeze it out of the
    # collector's reach. Otherwise the first full collection walks all of it inside some early
    # request: about 30 ms of CPU in the first move hint of a new worker (enough to trip the hints'
    # 15 ms time budget on a busy machine), 3 ms with this.
    gc.collect()
    gc.freeze()
