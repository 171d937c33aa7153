# Potager: `make sim` and `make test` are all a fresh machine needs (they build .venv).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum < requirements.txt | cut -d' ' -f1)

.PHONY: venv pico-deps sim test pytest lint typecheck format bench screenshots clean

venv: $(STAMP)

$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements.txt
	# type-check the hardware adapters against the Pico's board module
	$(VENV)/bin/circuitpython_setboard raspberry_pi_pico
	rm -f $(VENV)/.installed-* && touch $@

# the emulated Pico's Node package (rp2040js), pinned by host_tools/pico/package-lock.json
PICO := host_tools/pico
PICO_STAMP := $(PICO)/node_modules/.installed-$(shell cksum < $(PICO)/package-lock.json | cut -d' ' -f1)

pico-deps: $(PICO_STAMP)

$(PICO_STAMP): $(PICO)/package-lock.json
	@if command -v npm >/dev/null; then \
		npm ci --prefix $(PICO) --no-audit --no-fund --loglevel=error && \
		rm -f $(PICO)/node_modules/.installed-* && touch $@; \
	else echo "npm not found: the emulated Pico tests will skip"; fi

sim: venv
	$(PY) -m host_tools sim

test: venv pico-deps lint typecheck pytest

pytest: venv pico-deps
	$(PY) -m pytest

lint: venv
	$(PY) -m ruff check firmware host_tools tests
	$(PY) -m ruff format --check firmware host_tools tests

typecheck: venv
	$(PY) -m mypy

format: venv
	$(PY) -m ruff format firmware host_tools tests
	$(PY) -m ruff check --fix firmware host_tools tests

bench: venv pico-deps
	$(PY) -m host_tools bench

# the README's pictures: each demo script of docs/scripts run in the simulator
screenshots: venv
	for script in docs/scripts/*.txt; do \
		name=$$(basename $$script .txt); \
		$(PY) -m host_tools sim --headless --script $$script --png docs/img/$$name.png || exit 1; \
	done

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache bench/results.json $(PICO)/node_modules
