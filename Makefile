# Every target bootstraps .venv itself: a fresh clone needs only python3 (3.11+) and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PYTEST_JOBS ?= 2

.PHONY: install demo test lint bench chromium screenshots clean

# Installing also compiles the numba kernels once into numba's on-disk cache (scripts/warm_kernels.py, a few
# minutes), so that the first demo, test run, `watch` or page step does not wait for them.
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev,gym,web,ray]'
	$(BIN)/python scripts/warm_kernels.py
	@touch $(STAMP)

install: $(STAMP)

# The browser tests drive Debian's chromium; install it where it is missing (needs root or sudo).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; }

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks examples scripts
	$(BIN)/mypy

test: lint chromium
	$(BIN)/pytest -n $(PYTEST_JOBS) --dist worksteal --durations=15

# The screenshots docs/web.md and docs/puyo.md show, taken again on purpose by the browser tests (a test run
# writes them to a temporary folder and leaves docs/img as it is).
screenshots: $(STAMP) chromium
	PUZZLEBOTS_SCREENSHOTS=$(CURDIR)/docs/img $(BIN)/pytest tests/web/test_web_looks.py tests/web/test_web_puyo_frames.py -p no:cacheprovider

bench: $(STAMP)
	$(BIN)/puzzlebots bench

demo: $(STAMP)
	@bash scripts/demo.sh

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
