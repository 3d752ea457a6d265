# Two commands: `make run` and `make test`. Everything else is a detail of those.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
# Where `make run` serves, so the links in its emails (invitations, password resets) lead there;
# a SITE_URL from the environment or the command line wins.
SITE_URL ?= http://127.0.0.1:$(PORT)

.PHONY: run test test-postgres test-production lint typecheck migrate seed clean clients openapi

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python >= 3.11 is required (set PYTHON=...)")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall only when the dependency list changed.
$(VENV)/.installed-runtime: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@ $(VENV)/.installed-runtime

migrate: $(VENV)/.installed-runtime
	$(BIN)/python manage.py migrate --noinput

# The dev server, the job worker and the webhook delivery dispatcher together (the Procfile's
# three processes), all with SITE_URL set to where they serve; Ctrl-C stops them all.
run: export SITE_URL := $(SITE_URL)
run: migrate
	$(BIN)/python manage.py seed_demo
	@($(BIN)/python manage.py resume_jobs && exec $(BIN)/python manage.py db_worker --interval 1) & worker=$$!; \
	$(BIN)/python manage.py deliver_webhooks & webhooks=$$!; \
	trap 'kill $$worker $$webhooks 2>/dev/null; wait $$worker $$webhooks' EXIT; \
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy .

# The TypeScript check's compiler and generator (pinned in their package-lock.json), when npm
# is there; without it tests/contract/test_typescript_types.py is skipped.
TS_CHECK := tests/typescript/node_modules/.installed
$(TS_CHECK): tests/typescript/package-lock.json
	@if command -v npm >/dev/null; then \
		cd tests/typescript && npm ci --no-audit --no-fund --loglevel=error && touch node_modules/.installed; \
	else echo "make: no npm, so the TypeScript types check is skipped"; fi

# The SDKs' generated parts (clients/), regenerated from the live schema; the test suite fails
# when they are stale (tests/contract/test_clients_generated.py). Then the packages, into
# clients/dist (git-ignored): the Python wheel (offline: the venv's setuptools and wheel) and the
# npm tarball; their versions are clients/python/maintplan/_version.py and package.json.
clients: $(VENV)/.installed-dev $(TS_CHECK)
	$(BIN)/python -m scripts.clients_generate
	mkdir -p clients/dist
	$(BIN)/python -m pip wheel --quiet --no-deps --no-build-isolation --wheel-dir clients/dist clients/python
	@if command -v npm >/dev/null; then \
		cd clients/typescript && npm pack --silent --pack-destination ../dist; \
	else echo "make: no npm, so the npm tarball is not built"; fi

# The committed copy of the public schema (tests/contract/openapi.yaml), rewritten from the live
# one: a feature issue that changes the API on purpose runs it (tests/contract/
# test_schema_unchanged.py fails on any other change).
openapi: $(VENV)/.installed-runtime
	$(BIN)/python -m scripts.openapi_write

test: lint typecheck $(VENV)/.installed-dev $(TS_CHECK)
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/pytest $(PYTEST_ARGS)

# The same suite against a throwaway PostgreSQL cluster (initdb/pg_ctl, removed afterwards).
test-postgres: $(VENV)/.installed-dev $(TS_CHECK)
	scripts/with-postgres.sh $(BIN)/pytest $(PYTEST_ARGS)

# The production shape over HTTP: throwaway PostgreSQL + Redis, two gunicorn servers, one
# worker; kills and restarts (scripts/smoke_production/ says what each step measures).
test-production: $(VENV)/.installed-dev
	$(BIN)/python -m scripts.smoke_production

clean:
	rm -rf $(VENV) data .pytest_cache .ruff_cache .mypy_cache .hypothesis tests/typescript/node_modules
