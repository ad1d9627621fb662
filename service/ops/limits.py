"""What the gunicorn worker and the app agree on: how much a request body may weigh, and which paths
are the probes that the worker serves before queued work."""

MAX_BODY_BYTES = 64 * 1024  # a full round record is about 1.7 KB of compact JSON
PROBE_PATHS = frozenset({"/healthz", "/readyz"})
