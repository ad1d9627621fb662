# The README's two commands: `make run` and `make test`. Both create .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
PORT ?= 8080

.PHONY: install test lint bench run openapi clean

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

test: lint
	$(BIN)/pytest

bench: install
	$(BIN)/python -m bench.captures

run: install
	PORT=$(PORT) $(BIN)/gunicorn -c gunicorn.conf.py "service.app:create_app()"

# Regenerate the committed contract from the schemas and the operation registry.
openapi: install
	$(BIN)/python -m service.api.spec openapi.yaml

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
