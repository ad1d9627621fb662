"""gunicorn settings for the service, every one of them from service/ops/settings.py, which reads the
environment (README, "Settings").

Loaded explicitly (`gunicorn -c gunicorn.conf.py`), so a stray file elsewhere cannot change it.
"""

import gc
import os
import shutil
import sys
import time

# The service's package sits beside this file (a checkout, or /app in the image), and gunicorn puts
# only its working directory on sys.path: from any other directory, or with the `gunicorn` script,
# the import below would find nothing, or another copy of the service. (Where the service is an
# installed package and this file stands alone, the installed one is found.)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from service.ops import settings as service_settings  # noqa: E402
from service.ops.limits import MAX_HEADER_FIELD_BYTES, MAX_HEADER_FIELDS, MAX_REQUEST_LINE  # noqa: E402

try:
    # Read once, here in the master before any worker exists; a wrong value stops the start with one
    # line that names it, rather than each worker's boot with a traceback.
    # No key made up silently: without CHKOBBA_STATE_KEYS and CHKOBBA_RECEIPT_KEYS the start is
    # refused here, unless CHKOBBA_EPHEMERAL_KEYS=1 (make run, the tests) asks for keys made at start.
    SETTINGS = service_settings.install(service_settings.require_keys(service_settings.read(under_gunicorn=True)))
except service_settings.SettingError as error:
    raise SystemExit(str(error)) from None

bind = SETTINGS.bind
workers = SETTINGS.workers
# gevent with deadlines for slow clients and whole bodies (service/ops/worker.py; README, "Running it
# in front of real clients"): an idle or trickling connection holds a greenlet, never a worker. The
# worker takes CHKOBBA_CLIENT_TIMEOUT from the settings installed above.
worker_class = "service.ops.worker.Worker"
worker_connections = SETTINGS.worker_connections
timeout = SETTINGS.timeout
graceful_timeout = SETTINGS.graceful_timeout
# Also the time a client has to send a request's line and headers: the gevent worker waits for them
# under this timeout, so 0 (which would wait for ever) is refused.
keepalive = SETTINGS.keepalive
# Recycle workers now and then, with jitter so they do not all restart at once. Rarely: memory stays
# flat without it and each restart costs a worker boot; at full load this is a recycle every few
# hours. A dead worker's counts survive it: child_exit folds its metric files into the archives.
max_requests = SETTINGS.max_requests
max_requests_jitter = SETTINGS.max_requests_jitter
limit_request_line = MAX_REQUEST_LINE
limit_request_fields = MAX_HEADER_FIELDS
limit_request_field_size = MAX_HEADER_FIELD_BYTES
# The app writes the access log (JSON lines, with the operation and the request id: see
# service/ops/logging.py, set by CHKOBBA_ACCESS_LOG); gunicorn's own would log each request twice.
accesslog = None
errorlog = "-"
loglevel = SETTINGS.log_level
# gunicorn 25+ opens a control socket under $HOME/.gunicorn by default: on a read-only root file
# system that fails, and two servers on one machine would share (and unlink) the same socket. Off
# unless CHKOBBA_CONTROL_SOCKET names a path for it.
control_socket_disable = SETTINGS.control_socket is None
if SETTINGS.control_socket is not None:
    control_socket = SETTINGS.control_socket
# Workers' heartbeat files: default the system temporary directory (in the pod, a memory emptyDir).
worker_tmp_dir = SETTINGS.worker_tmp_dir

# prometheus_client picks its storage when first imported, so the directory must be in the
# environment before any worker imports it (gunicorn imports the worker class after this file).
metrics_dir = str(SETTINGS.metrics_dir)
os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir


def on_starting(server):
    # Files left by an earlier run would be counted again: start from an empty directory.
    shutil.rmtree(metrics_dir, ignore_errors=True)
    os.makedirs(metrics_dir, exist_ok=True)
    # One sealing key and one receipt key for every worker, made in the master before any worker forks
    # (each inherits them), so that every worker opens the others' tokens and signs with the key that
    # /.well-known/jwks.json publishes. In the environment too, so that a reload (SIGHUP), which reads
    # the settings again, keeps them.
    keyed = service_settings.install(service_settings.with_keys(SETTINGS, server.log.warning))
    os.environ["CHKOBBA_STATE_KEYS"] = service_settings.encoded_keys(keyed)
    os.environ["CHKOBBA_RECEIPT_KEYS"] = service_settings.encoded_receipt_keys(keyed)
    # ...and that they were made here: a reload reads them as given otherwise, and the workers it forks
    # say chkobba_keys_made_at_start 0.
    os.environ[service_settings.MADE_AT_START_MARKER] = service_settings.made_at_start_marker(keyed)
    server.stop = stopping_without_resets(server, server.stop)
    if keyed.metrics_address is None and keyed.workers > 1:
        # A server for others, not make run's one process: its metrics are public unless a proxy hides them.
        server.log.warning(service_settings.SHARED_METRICS_WARNING)
    if keyed.metrics_address is not None:
        # The metrics on their own address, served by this master (it reads the workers' files), so
        # that no path of the service's port reaches them (service/ops/metrics_server.py).
        from service.ops.metrics import keys_made_at_start
        from service.ops.metrics_server import serve_metrics

        keys_made_at_start(state=keyed.key_made_at_start, receipt=keyed.receipt_key_made_at_start)

        serve_metrics(keyed.metrics_address, metrics_dir, server.log)
    # What no request should pay for, worked out once here for every worker to inherit: the round
    # points a round can give (up to 60 ms for three sides, in the first such decideMatch otherwise).
    from service.rules.sweeps import work_out_every_profile

    work_out_every_profile()


def stopping_without_resets(server, stop):
    """gunicorn's stop (SIGTERM, SIGINT, SIGQUIT), after which no new connection joins the listen
    backlog: the workers serve what it holds, then close, and nothing is left in it to be reset
    (service/ops/worker.py). Only when no other process goes on listening on the sockets: gunicorn's
    own condition for unlinking them (no upgrade by USR2 under way, no systemd socket)."""
    from service.ops.worker import HANDSHAKE_GRACE, refuse_new_connections

    def stop_taking_connections_then_stop(graceful=True):
        if server.reexec_pid == server.master_pid == 0 and not server.systemd:
            refused = [refuse_new_connections(listener.sock) for listener in server.LISTENERS]
            if any(refused):
                time.sleep(HANDSHAKE_GRACE)  # the handshakes under way join the backlog, which the workers drain
        stop(graceful)

    return stop_taking_connections_then_stop


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
