#!/usr/bin/env bash
# The TypeScript client (clients/typescript), as `make test` runs it: install its dependencies from the
# committed lock file, check that the generated types are what openapi.yaml gives, then type-check and run
# its tests, which start the service (.venv/bin/gunicorn) on a free port and stop it after.
# SERVICE_URL=http://127.0.0.1:8080 runs them against a service already running instead.
set -euo pipefail
cd "$(dirname "$0")/../clients/typescript"
npm ci --no-audit --no-fund --loglevel=error
npm run --silent check-generated
npm test
