# syntax=docker/dockerfile:1
# The Chkobba referee: gunicorn serving service.app:create_app() on 0.0.0.0:8080, as a non-root user,
# with nothing to write but /tmp (see README.md, "Container image").
#   docker build -t chkobba-referee:0.1.0 .
#   docker run --rm -p 8080:8080 --read-only --tmpfs /tmp chkobba-referee:0.1.0
# The base is pinned to a Python release; append its @sha256 digest to pin it to the byte.
ARG PYTHON_IMAGE=python:3.11.17-slim-bookworm

# ---- build: the runtime dependencies, at the exact versions of constraints.txt, into /opt/venv ----
FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore
WORKDIR /build
COPY pyproject.toml constraints.txt ./
# The dependency list is pyproject.toml's (one source of truth); constraints.txt pins each version.
# Wheels only: nothing is compiled, and the venv gets no pip of its own.
RUN python -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies'], sep='\n')" \
        > requirements.txt \
    && python -m venv --without-pip /opt/venv \
    && python -m pip --python /opt/venv/bin/python install --no-cache-dir --only-binary=:all: \
        -c constraints.txt -r requirements.txt

# ---- runtime: the venv, the service's code, contract and documents, and gunicorn's settings ----
FROM ${PYTHON_IMAGE} AS runtime
RUN groupadd --system --gid 10001 chkobba \
    && useradd --system --uid 10001 --gid chkobba --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin chkobba
COPY --from=build /opt/venv /opt/venv
WORKDIR /app
COPY gunicorn.conf.py ./
# The service's code and its pages; its contract, which service/api links to as package data.
COPY service ./service
COPY openapi.yaml openapi.json ./
# The documents the service renders as pages (/rules, /docs/seeded-shuffle, /docs/fair-deals): service/web/docs
# links to them.
COPY docs/rules.md docs/seeded-shuffle.md docs/fair-deals.md ./docs/
# Byte-compiled now, since the root file system is read-only at run time.
RUN /opt/venv/bin/python -m compileall -q /app/service

# CHKOBBA_BIND: every interface in the container. CHKOBBA_METRICS_ADDRESS: the metrics on a port of
# their own, never the service's (docs/security.md). No key and no CHKOBBA_EPHEMERAL_KEYS: a container
# started without CHKOBBA_STATE_KEYS and CHKOBBA_RECEIPT_KEYS refuses to start. PROMETHEUS_MULTIPROC_DIR: a writable temporary
# path, wiped when gunicorn starts (a tmpfs with `docker run --read-only`, an emptyDir in the pod).
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    CHKOBBA_BIND=0.0.0.0:8080 \
    CHKOBBA_METRICS_ADDRESS=0.0.0.0:9090 \
    PROMETHEUS_MULTIPROC_DIR=/tmp/chkobba-metrics

USER 10001:10001
EXPOSE 8080 9090
# gunicorn stops gracefully on SIGTERM: it stops accepting, serves the connections already waiting,
# lets each worker finish its requests (up to CHKOBBA_GRACEFUL_TIMEOUT seconds), then exits 0.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; port = os.environ.get('CHKOBBA_BIND', ':8080').rsplit(':', 1)[1]; urllib.request.urlopen(f'http://127.0.0.1:{port}/readyz', timeout=2)"]
ENTRYPOINT ["gunicorn", "-c", "/app/gunicorn.conf.py"]
CMD ["service.app:create_app()"]
