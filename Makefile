# The README's two commands: `make run` and `make test`. Both create .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps: what the service needs to run (make run), and that plus the development tools (make test).
RUNTIME := $(VENV)/.installed-runtime
INSTALLED := $(VENV)/.installed
PORT ?= 8080
TS_CLIENT := clients/typescript
# Compiled modules are kept (in __pycache__, which git ignores) even where the shell asks Python not
# to write them: otherwise every pytest process, and every gunicorn a test starts, compiles the
# service and rewrites the tests' asserts again (about 2 s of each `make test-fast`).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: install install-runtime openapi-clients java-client-deps test test-fast lint contract-lint offline-checks browser ts-client python-client mutation bench bench-rules bench-http bench-hints bench-ceiling bench-worst bench-slow run openapi readme clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall whenever the project metadata or the pinned versions change. make run installs only the
# service's own dependencies; the tests, linters and generators come with make install (make test).
$(RUNTIME): pyproject.toml constraints.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e .
	touch $@

$(INSTALLED): $(RUNTIME)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[dev]'
	touch $@

install-runtime: $(RUNTIME)

install: $(INSTALLED)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The contract under Spectral's spectral:oas rules and Redocly's recommended ones (tools/contract-lint,
# pinned by its lock file): an error fails the build.
contract-lint:
	cd tools/contract-lint && npm ci --no-audit --no-fund --loglevel=error && npm run --silent lint

# The image recipe and the Kubernetes manifests, checked without a Docker engine or a cluster:
# hadolint, kubernetes-validate --strict (a warning fails), the kustomize renders, the alert rules.
offline-checks: install
	$(BIN)/python scripts/check_deploy.py

# Debian's Chromium for tests/browser: installed (as root) when missing, else nothing is done.
browser:
	sh scripts/install_chromium.sh

# The TypeScript client: npm ci from its lock file, the generated-code check, then its tests
# against a gunicorn they start and stop.
ts-client: install
	bash scripts/ts_client_tests.sh

# The Python client, generated from the contract into clients/python/generated/ (git ignores it), as a game
# integrator would: PYTHONPATH=clients/python/generated then imports chkobba_referee_client
# (clients/python/examples/game_loop.py, docs/game-loops.md).
python-client: install
	$(BIN)/openapi-python-client generate --path openapi.yaml --config clients/python/config.yml \
		--meta none --output-path clients/python/generated/chkobba_referee_client --overwrite

# The clients of clients/openapi-generator/ (openapi-generator 7.26.0, in .venv), written to
# build/openapi-generator with each generator's findings; tests/contract/test_openapi_generator*.py does the same.
openapi-clients: install
	$(BIN)/python scripts/openapi_generator_clients.py

# Debian's jars that openapi-generator's Java client compiles against in tests/contract (as root, when missing).
java-client-deps:
	sh scripts/install_java_client_deps.sh

test: lint contract-lint offline-checks browser java-client-deps ts-client
	$(BIN)/pytest

# The rules core and the HTTP edge in-process, without the tests that start gunicorn or a browser
# (pytest markers server and browser): the quick loop while working, on both cores (pytest-xdist).
# `make test` runs everything, with three times the examples of each property test without its own
# count (hypothesis profile quick, tests/conftest.py). The schemathesis and anyio plugins serve only
# tests/contract and tests/ops: not loading them saves each of the three processes about 0.4 s.
test-fast: install
	CHKOBBA_HYPOTHESIS_PROFILE=quick $(BIN)/pytest -q -p no:schemathesis -p no:anyio -n 2 \
		-m "not server and not browser" tests/unit tests/api

# Mutation testing of the rules core, never part of `make test`: mutmut mutates service/rules/ and
# runs tests/unit against each mutant ([tool.mutmut] in pyproject.toml), from scratch each time (a kept
# mutants/ would keep its survivors' verdicts after tests are added). About 35 minutes on 2 cores.
# Then `$(BIN)/mutmut results` lists the survivors and `$(BIN)/mutmut show NAME` shows one.
mutation: install
	rm -rf mutants
	$(BIN)/mutmut run
	$(BIN)/mutmut export-cicd-stats
	$(BIN)/python -c 'import json; s = json.load(open("mutants/mutmut-cicd-stats.json")); print(json.dumps(s, indent=1)); \
		k, n = s["killed"], s["total"] - s["skipped"] - s["no_tests"]; print(f"kill rate: {k}/{n} = {k / n:.1%} (killed / total less skipped and no tests)")'

# Benchmarks: never part of `make test`. `make bench` runs them all (several minutes).
bench: bench-rules bench-http bench-hints bench-worst bench-slow

bench-rules: install
	$(BIN)/python -m bench.captures

bench-http: install
	$(BIN)/python -m bench.http

bench-hints: install
	$(BIN)/python -m bench.hints

# What searching the last deals, and seeing hidden cards, would be worth against club (docs/strategy.md,
# "What the goal asks"): about 35 minutes, so not part of `make bench`.
bench-ceiling: install
	$(BIN)/python -m bench.ceiling --rounds 400 --limit 6
	$(BIN)/python -m bench.ceiling --rounds 400 --limit 6 --samples 48 --only samples
	$(BIN)/python -m bench.ceiling --rounds 200 --limit 12 --only sees-all,sees-hand,ismcts
	$(BIN)/python -m bench.ceiling --rounds 600 --limit 12 --only infers,samples

# Each operation's costliest valid requests, searched for and measured (README, "What each
# operation costs at worst"); --update rewrites bench/worst_bodies.json.
bench-worst: install
	$(BIN)/python -m bench.worst

# Cheap requests while 64 connections dawdle or 32 costly requests run, under the project's worker
# and gunicorn's sync and gthread workers (README, "Running it in front of real clients").
bench-slow: install
	$(BIN)/python -m bench.slow_clients

# Keys made at start unless the shell gives them (docs/security.md), and the metrics on loopback, on
# the port after the service's, unless the shell says otherwise.
run: install-runtime
	PORT=$(PORT) CHKOBBA_EPHEMERAL_KEYS=$${CHKOBBA_EPHEMERAL_KEYS:-1} \
		CHKOBBA_METRICS_ADDRESS=$${CHKOBBA_METRICS_ADDRESS:-127.0.0.1:$$(($(PORT) + 1))} \
		$(BIN)/gunicorn -c gunicorn.conf.py "service.app:create_app()"

# Regenerate the committed contract (openapi.yaml and openapi.json at the root) from the schemas and the
# operation registry, and the TypeScript client's types from the contract.
openapi: install
	$(BIN)/python -m service.contract
	cd $(TS_CLIENT) && npm ci --no-audit --no-fund --loglevel=error && npm run --silent generate

# Rewrite every curl example of README.md and docs/ with the service's real answers (tests/contract/test_readme.py checks them).
readme: install
	$(BIN)/python -m scripts.readme_examples

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis $(TS_CLIENT)/node_modules $(TS_CLIENT)/dist \
		clients/python/generated \
		tools/contract-lint/node_modules
