# The README's two commands:
#   make lab    create .venv if needed, install the course, start JupyterLab on lessons/
#   make test   create/refresh .venv, install course + dev tools (and Debian chromium), run pytest
#
# Installs are idempotent: a stamp file in .venv records what was installed, keyed on the
# hash of pyproject.toml and on which top-level packages exist (an editable install maps
# only the packages it saw), so a second run installs nothing and starts at once.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3.11
VENV ?= .venv
VPY := $(VENV)/bin/python
# -qq: only errors (pip's warnings about this machine's local indexes are noise).
PIP := $(VPY) -m pip -qq --disable-pip-version-check
# -n auto: pytest-xdist, one worker per core; --durations: the slowest tests, to keep CI time in view; override e.g. `make test PYTEST_ARGS="-x tests/minitape"`.
PYTEST_ARGS ?= -n auto -q --durations=10

INSTALL_KEY := $(shell { cat pyproject.toml; for p in minitape grader lessons; do test -f $$p/__init__.py && echo $$p; done; } 2>/dev/null | sha256sum | cut -c1-16)
STAMP_COURSE := $(VENV)/.stamp-course-$(INSTALL_KEY)
STAMP_DEV := $(VENV)/.stamp-dev-$(INSTALL_KEY)

.PHONY: help lab test install install-dev chromium clean

help:
	@echo "make lab    start JupyterLab on the lessons (creates .venv on first use)"
	@echo "make test   run the whole test suite (installs what is missing first)"
	@echo "make clean  remove .venv and build artefacts"

$(VPY):
	$(PYTHON) -m venv --clear $(VENV)

# The dev stamp implies the course stamp: `make lab` after `make test` installs nothing.
$(STAMP_COURSE): | $(VPY)
	@if [ -f $(STAMP_DEV) ]; then touch $@; else \
	  echo "Installing the course into $(VENV) (pip install -e '.[course]')..."; \
	  rm -f $(VENV)/.stamp-*; \
	  $(PIP) install -e '.[course]'; \
	  touch $@; fi

$(STAMP_DEV): | $(VPY)
	@echo "Installing the course and test tools into $(VENV) (pip install -e '.[course,dev]')..."
	@rm -f $(VENV)/.stamp-*
	@$(PIP) install -e '.[course,dev]'
	@touch $@ $(STAMP_COURSE)

install: $(STAMP_COURSE)
install-dev: $(STAMP_DEV)

# Debian's chromium for the real-browser test (Playwright drives /usr/bin/chromium) and
# bubblewrap, the sandbox autograding runs students' kernels in (grader/README.md, "Sandbox").
chromium:
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/bwrap ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; \
	  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
	  else echo "warning: /usr/bin/chromium or /usr/bin/bwrap is missing and cannot be installed without root;" \
	            "install Debian's chromium and bubblewrap (apt-get install chromium bubblewrap) for the" \
	            "browser and sandbox tests" >&2; exit 0; fi; \
	  echo "Installing Debian chromium and bubblewrap (apt-get)..."; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  $$SUDO apt-get update -qq >/dev/null; \
	  $$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core bubblewrap >/dev/null; \
	  /usr/bin/chromium --version 2>/dev/null; /usr/bin/bwrap --version 2>/dev/null; \
	fi

# Jupyter refuses to run as root unless told (containers, CI machines).
lab: $(STAMP_COURSE)
	$(VENV)/bin/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) lessons/

# The engine's tests a second time with every tensor on the strict backend, a CPU array that
# refuses implicit conversion to NumPy as CuPy's GPU arrays do (tests/minitape/strict_backend.py).
test: $(STAMP_DEV) chromium
	$(VPY) -m pytest $(PYTEST_ARGS)
	$(VPY) -m pytest -n auto -q tests/minitape --backend=strict

clean:
	rm -rf $(VENV) build dist *.egg-info test-artifacts
