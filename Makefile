# One command to run the demo, one to run the tests. Both install into .venv first.
VENV ?= .venv
BIN := $(VENV)/bin
PYTHON ?= python3

.PHONY: demo serve test test-fast lint bench install screenshots

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $@

install: $(BIN)/.installed

demo: $(BIN)/.installed
	$(BIN)/groundgate demo

# The web page and API on http://127.0.0.1:8000 over the demo workspace (local mode, no key).
serve: $(BIN)/.installed
	$(BIN)/groundgate serve --demo

# Re-take the README's screenshots (needs /usr/bin/chromium; CJK and emoji fonts make them readable).
screenshots: $(BIN)/.installed
	GROUNDGATE_SCREENSHOTS_DIR=$(CURDIR)/docs/screenshots $(BIN)/pytest -q tests/web/test_web_browser.py

lint: $(BIN)/.installed
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

# pytest exits 5 when it collects no tests; make treats that as a failure, as it should.
# Then every golden set the project has, offline: exits non-zero on any regression (docs/eval.md).
test: lint
	$(BIN)/pytest
	$(BIN)/groundgate eval run --suite all

# The fast lane: every test not marked `slow`, in under a minute.
test-fast: $(BIN)/.installed
	$(BIN)/pytest -m "not slow"

bench: $(BIN)/.installed
	$(BIN)/python benchmarks/bench_checker.py
	$(BIN)/python benchmarks/eval_checker.py
	$(BIN)/python benchmarks/bench_pipeline.py
	$(BIN)/python benchmarks/bench_retrieval.py
	$(BIN)/python benchmarks/bench_store.py
	$(BIN)/python benchmarks/bench_service.py
	$(BIN)/python benchmarks/bench_service_cpu.py
	$(BIN)/python benchmarks/bench_startup.py
	$(BIN)/python benchmarks/eval_pipeline.py
	$(BIN)/python benchmarks/eval_agent.py
