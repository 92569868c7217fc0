# OV Studio — the two commands of the README, and their parts.
#   make run    set up and open the app
#   make test   set up and pass the whole suite, then build, install and try the .deb (what CI runs)
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
export QT_QPA_PLATFORM ?= offscreen

.PHONY: run test setup setup-dev setup-bench fixtures check lint format typecheck imports pytest bench screenshots walk clean \
	dist deb nsis-check package-test

run: setup
	@$(PY) -m app setup
	QT_QPA_PLATFORM= $(PY) -m app

test: setup-dev fixtures check package-test

setup:
	@scripts/setup.sh

setup-dev:
	@scripts/setup.sh --dev

# llama-cpp-python (the bench extra) builds from source: only for `make bench`.
setup-bench:
	@scripts/setup.sh --bench

fixtures: setup-dev
	@$(PY) tests/fixtures/build_models.py

check: lint typecheck imports pytest

lint:
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format:
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

typecheck:
	$(VENV)/bin/mypy

imports:
	$(VENV)/bin/lint-imports

# The slowest tests are listed so a CI log shows where its time limit goes. Two processes
# (pytest-xdist), each given whole test files: much of the suite waits (event loops, servers,
# subprocesses, PostgreSQL), so two share two cores well — 57 min instead of 89 under the same
# load. Each process has its own database server, temporary folders and Qt application.
PYTEST_WORKERS ?= 2
pytest:
	$(VENV)/bin/pytest -q --durations=40 --numprocesses=$(PYTEST_WORKERS) --dist=loadfile

# The installable product (installers/README.md): the one-folder frozen app, the .deb, the
# Windows installer script checked over the Linux build (a stand-in payload, stored not
# compressed: it checks the script, not Windows), and the installed package tried for real.
dist: setup-dev fixtures
	@scripts/build_dist.sh

deb: dist
	@scripts/build_deb.sh

nsis-check: dist
	@if command -v makensis >/dev/null; then \
		makensis -V2 -DEXE=ov-studio -DNOCOMPRESS -DDIST=$(CURDIR)/dist/ov-studio \
			-DOUTFILE=$(CURDIR)/build/ov-studio-standin-setup.exe installers/windows/ov-studio.nsi \
			&& rm -f build/ov-studio-standin-setup.exe && echo "nsis-check: the script compiles"; \
	else echo "nsis-check: skipped, makensis is not installed (apt-get install nsis)"; fi

package-test: deb nsis-check
	@scripts/check_installed_package.sh

# The benchmarks' models (40M chat models, full-size SpeechT5 and Wav2Lip) take minutes to
# build, and llama-cpp-python compiles for minutes: only here, never for `make test`.
bench: setup-bench fixtures
	@$(PY) tests/fixtures/build_models.py --role bench
	$(PY) benchmarks/bench_chat.py
	$(PY) benchmarks/bench_json_decode.py
	$(PY) benchmarks/bench_rag.py
	$(PY) benchmarks/bench_models.py
	$(PY) benchmarks/bench_voice.py
	$(PY) benchmarks/bench_voice_clone.py
	$(PY) benchmarks/bench_avatar.py
	$(PY) benchmarks/bench_memory.py
	$(PY) benchmarks/bench_context.py
	$(PY) benchmarks/bench_engines.py
	$(PY) benchmarks/bench_engine_features.py
	$(PY) benchmarks/bench_server.py
	$(PY) benchmarks/bench_shared_engine.py
	$(PY) benchmarks/bench_images.py

# The Voice and Avatar pictures come from their UI tests (real speech, a staged lip-sync).
# Every panel, dialog and empty state in English and German, light and dark, on 1600×1000,
# 1366×768 and 1024×600 screens: build/walk/index.html (to look at, not to commit).
walk: setup-dev fixtures
	$(PY) scripts/screenshot_walk.py

screenshots: setup-dev fixtures
	$(PY) scripts/render_screenshots.py --theme light --theme dark
	$(PY) scripts/render_screenshots.py --theme light --language de
	$(PY) scripts/render_screenshots.py --theme light --language zh_CN
	$(PY) scripts/render_see_hear.py
	$(PY) scripts/render_server.py
	$(PY) scripts/render_remote.py
	$(PY) scripts/render_engine_room.py
	OV_STUDIO_WRITE_SCREENSHOTS=1 $(VENV)/bin/pytest -q \
		tests/ui/voice/test_panel.py::test_screenshot tests/ui/avatar/test_speech_source.py::test_screenshot

clean:
	rm -rf build dist
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .import_linter_cache
