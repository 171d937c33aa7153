# Potager: `make sim` and `make test` are all a fresh machine needs (they build .venv).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# one stamp per requirement set, named by its files' checksum: an edit reinstalls that set
RUN_STAMP := $(VENV)/.installed-run-$(shell cat requirements.txt | cksum | cut -d' ' -f1)
DEV_STAMP := $(VENV)/.installed-dev-$(shell cat requirements.txt requirements-dev.txt | cksum | cut -d' ' -f1)

.PHONY: venv dev-venv pico-deps sim sim-macropad test pytest lint typecheck format bench fuzz soak cuts cuts-pico model screenshots explore bundle enclosure clean

# what running needs (sim, score, export, deploy, bundle): requirements.txt
venv: $(RUN_STAMP)

# that and the tests, lint and types: requirements-dev.txt
dev-venv: $(DEV_STAMP)

$(RUN_STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements.txt
	rm -f $(VENV)/.installed-run-* && touch $@

# the dev set holds the run set: its stamp is touched too, so `make sim` installs nothing more
$(DEV_STAMP): requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements-dev.txt
	# type-check the hardware adapters against the Pico's board module
	$(VENV)/bin/circuitpython_setboard raspberry_pi_pico
	rm -f $(VENV)/.installed-* && touch $@ $(RUN_STAMP)

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

# the same firmware on a simulated Adafruit MacroPad RP2040 (its keys, encoder and SH1106)
sim-macropad: venv
	$(PY) -m host_tools sim --board sim-macropad

test: dev-venv pico-deps lint typecheck pytest

pytest: dev-venv pico-deps
	$(PY) -m pytest --durations=15  # the slowest, for a CI run kept under 30 minutes

lint: dev-venv
	$(PY) -m ruff check firmware host_tools tests hardware/*.py
	$(PY) -m ruff format --check firmware host_tools tests hardware/*.py

typecheck: dev-venv
	$(PY) -m mypy

format: dev-venv
	$(PY) -m ruff format firmware host_tools tests hardware/*.py
	$(PY) -m ruff check --fix firmware host_tools tests hardware/*.py

bench: dev-venv pico-deps
	$(PY) -m host_tools bench

# saves with nonsense under valid CRCs, at length (make test runs a short fixed-seed round)
fuzz: dev-venv
	$(PY) -m host_tools.savefuzz --count 20000 --seed 1

# the random walks four times as far as make test: presses through the App (40 sessions of
# 2,500), the screens in both languages, the save fuzz, the explorer (tests/soak.py)
soak: dev-venv
	POTAGER_SOAK=4 $(PY) -m pytest tests/test_fuzz.py tests/test_i18n.py tests/test_save_fuzz.py \
		tests/test_explore.py tests/test_mode_diced_tomatoes.py

# power cuts in pairs over each mode's whole game, in the simulator: a cut inside every save,
# then inside each of the first CUTS_SECOND saves after the boot (make test runs a bounded set)
CUTS_SECOND ?= 3
CUTS_GAMES ?= tests/fullgames/free-6p-tie.txt tests/fullgames/diced_tomatoes-3p.txt \
	tests/fullgames/horticolor-3p.txt tests/fullgames/arboretum-3p.txt \
	tests/fullgames/hortis-live.txt
cuts: venv
	$(PY) -m host_tools cuts --second $(CUTS_SECOND) $(CUTS_GAMES)

# the same matrix on the real CircuitPython in the emulated Pico: hours (CUTS_FIRSTS=2 for the
# first two saves and those around the compaction only)
cuts-pico: venv pico-deps
	$(PY) -m host_tools cuts --board pico --second $(CUTS_SECOND) \
		$(if $(CUTS_FIRSTS),--firsts $(CUTS_FIRSTS)) $(CUTS_GAMES)

# the table services against their reference model, a longer random search than `make test`
# (MODEL_SEQUENCES, MODEL_STEPS): prints the sequences and steps tried and the disagreements
model: dev-venv
	$(PY) tests/test_table_model.py

# the UI explorer at length: every start, every key short and held, BFS and random walks, the
# clock edges (make test runs a short fixed-seed round); EXPLORE_SEED, EXPLORE_BUDGET
EXPLORE_SEED ?= 1
EXPLORE_BUDGET ?= 600
explore: venv
	$(PY) -m host_tools explore --seed $(EXPLORE_SEED) --budget $(EXPLORE_BUDGET) --steps 600

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

# the CIRCUITPY drive's files in build/bundle/potager-circuitpython-{9,10}.zip, for copying
# by hand onto a board (no Python needed there); .mpy by the CircuitPython kit's mpy-cross
bundle: venv
	$(PY) -m host_tools bundle

# the enclosure from the numbers of hardware/enclosure.py: hardware/enclosure/*.stl (3D printing),
# *.svg and *.dxf (laser cutting), and the tables of hardware/enclosure.md
enclosure: dev-venv
	$(PY) hardware/enclosure.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache bench/results.json $(PICO)/node_modules
