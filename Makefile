# Two commands matter: `make demo` and `make test`. Both build .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
EMULATOR := tests/telegram/emulator
NODE_STAMP := $(EMULATOR)/node_modules/.installed-stamp

.PHONY: demo test lint bench clean browser

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[dev]"
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/clubtd demo

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# The Telegram Bot API emulator (npm telegram-test-api) for the end-to-end tests.
$(NODE_STAMP): $(EMULATOR)/package-lock.json
	npm ci --prefix $(EMULATOR) --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

# Debian's chromium for the public pages' browser tests (Playwright drives it; its own
# browser download is never used). Installed when missing and we may (root, as in CI).
browser:
	@if [ ! -x /usr/bin/chromium ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; \
		else \
			echo "chromium is missing: sudo apt-get install -y chromium (browser tests skip)"; \
		fi; \
	fi

# pytest's options (every core, the 20 slowest printed) are in pyproject.toml; CI sets
# HYPOTHESIS_PROFILE=thorough for every example of the property tests.
test: lint $(NODE_STAMP) browser
	$(BIN)/pytest

# The peer bench.core measures beside ours (brackets-manager.js).
PEER_STAMP := bench/peer/node_modules/.installed-stamp
$(PEER_STAMP): bench/peer/package-lock.json
	npm ci --prefix bench/peer --no-audit --no-fund --loglevel=error
	touch $(PEER_STAMP)

bench: $(STAMP) $(NODE_STAMP) $(PEER_STAMP)
	$(BIN)/python -m bench.core
	$(BIN)/python -m bench.commands
	$(BIN)/python -m bench.telegram
	$(BIN)/python -m bench.discord
	$(BIN)/python -m bench.pictures
	$(BIN)/python -m bench.web
	$(BIN)/python -m bench.load

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
