"""What the gunicorn worker and the app agree on: how much a request may weigh, and which paths are
the probes that the worker serves before queued work."""

MAX_BODY_BYTES = 64 * 1024  # a full round record is about 1.7 KB of compact JSON
# The request line and headers gunicorn takes (gunicorn.conf.py): nothing this API takes needs more.
MAX_REQUEST_LINE = 2048
MAX_HEADER_FIELDS = 50
MAX_HEADER_FIELD_BYTES = 8190
PROBE_PATHS = frozenset({"/healthz", "/readyz"})
