# The README's two commands: `make run` and `make test`. Both create .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
PORT ?= 8080

.PHONY: install test lint offline-checks bench run openapi readme clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall whenever the project metadata or the pinned versions change.
$(INSTALLED): pyproject.toml constraints.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $@

install: $(INSTALLED)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The image recipe and the Kubernetes manifests, checked without a Docker engine or a cluster:
# hadolint, kubernetes-validate --strict (a warning fails), the kustomize renders, the alert rules.
offline-checks: install
	$(BIN)/python scripts/check_deploy.py

test: lint offline-checks
	$(BIN)/pytest

bench: install
	$(BIN)/python -m bench.captures

run: install
	PORT=$(PORT) $(BIN)/gunicorn -c gunicorn.conf.py "service.app:create_app()"

# Regenerate the committed contract from the schemas and the operation registry.
openapi: install
	$(BIN)/python -m service.api.spec openapi.yaml

# Rewrite the README's API examples with the service's real answers.
readme: install
	$(BIN)/python -m scripts.readme_examples

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
