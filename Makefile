# Potager: `make sim` and `make test` are all a fresh machine needs (they build .venv).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum < requirements.txt | cut -d' ' -f1)

.PHONY: venv sim test pytest lint typecheck format bench fuzz model screenshots clean

venv: $(STAMP)

$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements.txt
	# type-check the hardware adapters against the Pico's board module
	$(VENV)/bin/circuitpython_setboard raspberry_pi_pico
	rm -f $(VENV)/.installed-* && touch $@

sim: venv
	$(PY) -m host_tools sim

test: venv lint typecheck pytest

pytest: venv
	$(PY) -m pytest

lint: venv
	$(PY) -m ruff check firmware host_tools tests
	$(PY) -m ruff format --check firmware host_tools tests

typecheck: venv
	$(PY) -m mypy

format: venv
	$(PY) -m ruff format firmware host_tools tests
	$(PY) -m ruff check --fix firmware host_tools tests

bench: venv
	$(PY) -m host_tools bench

# saves with nonsense under valid CRCs, at length (make test runs a short fixed-seed round)
fuzz: venv
	$(PY) -m host_tools.savefuzz --count 20000 --seed 1

# the table services against their reference model, a longer random search than `make test`
# (MODEL_SEQUENCES, MODEL_STEPS): prints the sequences and steps tried and the disagreements
model: venv
	$(PY) tests/test_table_model.py

# the README's pictures: each demo script of docs/scripts run in the simulator (a script's
# "# drive: DIR" line puts DIR's files on the drive); SHOTS="docs/scripts/names*.txt" for some
SHOTS ?= docs/scripts/*.txt
screenshots: venv
	for script in $(SHOTS); do \
		name=$$(basename $$script .txt); \
		drive=$$(sed -n 's/^# drive: *//p' $$script | head -n 1); \
		$(PY) -m host_tools sim --headless --script $$script --png docs/img/$$name.png \
			$${drive:+--drive $$drive} || exit 1; \
	done

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache bench/results.json
