"""What a request may weigh: shared by the gunicorn worker, which reads bodies, and the app."""

MAX_BODY_BYTES = 64 * 1024  # a full round record is about 4 KiB
