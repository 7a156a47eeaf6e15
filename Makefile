# The two commands of the README: `make run` serves the viewer, `make test` type-checks the code and runs every test.
# Each sets up what it needs first: a .venv with the project, its optional native parts (Hyperscan, tiktoken,
# gunicorn) and its test extras, htmx and js-tiktoken from npm,
# and the o200k vocabulary the context page counts tokens with, rebuilt from js-tiktoken (nothing downloads later).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
CHROMIUM ?= /usr/bin/chromium
VOCABULARY := var/tiktoken/o200k_base.tiktoken
# The samples that are databases or archives of several files are made, never committed (tests/harness/stores).
MADE_SAMPLES := var/samples.made

.PHONY: setup run test bench fuzz system-packages clean

setup: $(VENV)/.installed node_modules/.installed $(VOCABULARY) $(MADE_SAMPLES)

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test,fast,tokens,production]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Rebuilt when js-tiktoken is installed anew; checked against tiktoken's SHA-256 (viewer/tokens/vocabulary.py).
$(VOCABULARY): node_modules/.installed | $(VENV)/.installed
	$(PY) viewer/tokens/vocabulary.py --out $(dir $@)
	touch $@

$(MADE_SAMPLES): $(shell find tests/harness/stores -type f -not -name '*.pyc') | $(VENV)/.installed
	$(PY) -m tests.harness.stores.samples sample_transcripts
	mkdir -p $(dir $@) && touch $@

run: setup
	$(PY) -m viewer serve

# mypy first ([tool.mypy] in pyproject.toml): a type error stops the run before the tests start.
test: setup system-packages
	$(PY) -m mypy viewer
	$(PY) -m pytest

# Debian packages the tests need: Chromium (browser tests) and PostgreSQL's server (tests/postgres.py). When one
# is missing and we may install (root or passwordless sudo, and apt-get), install it; otherwise stop and say how.
system-packages:
	@missing=""; \
	test -x "$(CHROMIUM)" || missing="$$missing chromium"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then sudo=""; elif sudo -n true 2>/dev/null; then sudo="sudo -n"; else sudo=none; fi; \
	if [ "$$sudo" = none ] || ! command -v apt-get >/dev/null 2>&1; then \
		echo "make test: the tests need$$missing: run 'sudo apt-get install -y$$missing'"; exit 1; \
	fi; \
	echo "make test: installing$$missing"; \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$$missing

# Runs every bench of bench/report.py's list in turn and writes what each prints into docs/benchmarks.md.
bench: setup
	$(PY) bench/report.py

clean:
	rm -rf $(VENV) node_modules var .pytest_cache .hypothesis .mypy_cache
