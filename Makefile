# The two commands of the README: `make run` serves the viewer, `make test` runs every test.
# Each sets up what it needs first: a .venv with the project and its test extras, and htmx from npm.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
CHROMIUM ?= /usr/bin/chromium

.PHONY: setup run test bench fuzz check-chromium clean

setup: $(VENV)/.installed node_modules/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

run: setup
	$(PY) -m viewer serve

test: setup check-chromium
	$(PY) -m pytest

check-chromium:
	@test -x "$(CHROMIUM)" || { echo "make test: the browser tests need Chromium at $(CHROMIUM): run 'apt-get install chromium' (Debian) or set CHROMIUM=/path/to/chromium"; exit 1; }

bench: setup
	$(PY) bench/parse.py
	$(PY) bench/web.py

clean:
	rm -rf $(VENV) node_modules var .pytest_cache .hypothesis
