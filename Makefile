# The two everyday commands (docs/testing.md):
#   make lab    create .venv if needed, install the course, start the students' JupyterLab
#               (from this checkout its kernels run in the grader's bubblewrap sandbox: the
#               checkout holds the answers; students get the student distribution instead)
#   make test   create/refresh .venv, install course + test tools and Debian's packages, run pytest
#
# Nothing has to be activated or be on PATH but $(PYTHON) (Python 3.11, 3.12 or 3.13) and, for
# `make test` on a machine without them, apt-get: every tool runs as .venv/bin/python -m ...
# Every install comes from the lock files (requirements/course.txt, requirements/dev.txt: every
# package pinned with its hashes, for Python 3.11-3.13; requirements/README.md), so a new release
# of a dependency changes nothing here until `make lock` takes it and the change is reviewed;
# `make test-latest` runs the suite against the newest releases to show what they would break.
# Installs are idempotent: a stamp file in .venv records what was installed, keyed on the
# hash of pyproject.toml, the lock files and on which top-level packages exist (an editable
# install maps only the packages it saw), so a second run installs nothing and starts at once.
# Each phase says what it does and roughly how long it takes; pip and apt-get show their progress.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

# The first of the supported Pythons on PATH (3.11, 3.12, 3.13); PYTHON=/path/to/python picks one.
SUPPORTED_PYTHONS := python3.11 python3.12 python3.13
ifeq ($(origin PYTHON),undefined)
PYTHON := $(or $(firstword $(foreach p,$(SUPPORTED_PYTHONS),$(shell command -v $(p) 2>/dev/null))),python3)
endif
VENV ?= .venv
VPY := $(VENV)/bin/python
PIP_INSTALL := $(VPY) -m pip --disable-pip-version-check install --progress-bar on
# -n: pytest-xdist workers, one per core plus one: the kernel, browser and install tests wait on
# their subprocesses part of the time (about 10 % of the CPU idles with one worker per core);
# --durations: the slowest tests, to keep CI time in view; override e.g. `make test PYTEST_ARGS="-x tests/minitape"`.
PYTEST_WORKERS ?= $(shell echo $$(( $$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1) + 1 )))
PYTEST_ARGS ?= -n $(PYTEST_WORKERS) -q --durations=10
# Debian packages the tests need, as package:file-it-provides (installed when the file is missing).
DEB_PACKAGES ?= chromium:/usr/bin/chromium fonts-dejavu-core:/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf \
                bubblewrap:/usr/bin/bwrap valgrind:/usr/bin/valgrind nodejs:/usr/bin/node npm:/usr/bin/npm

LOCK_BUILD := requirements/build.txt
LOCK_COURSE := requirements/course.txt
LOCK_DEV := requirements/dev.txt
LOCK_HUB := requirements/hub.txt
LOCK_TF := requirements/tf.txt
INSTALL_KEY := $(shell { cat pyproject.toml $(LOCK_BUILD) $(LOCK_COURSE) $(LOCK_DEV); for p in course_lang minitape grader lessons; do test -f $$p/__init__.py && echo $$p; done; } 2>/dev/null | sha256sum | cut -c1-16)
STAMP_COURSE := $(VENV)/.stamp-course-$(INSTALL_KEY)
STAMP_DEV := $(VENV)/.stamp-dev-$(INSTALL_KEY)

phase = @printf '\n==> %s\n' $(1)

.PHONY: help lab test install install-dev system-packages preflight preflight-lab clean lite test-lite student-dist site
.PHONY: check lock test-latest install-tf test-tf hub

help:
	@echo "make lab    start the students' JupyterLab on the lessons (creates .venv on first use)"
	@echo "make test   run the whole test suite (installs what is missing first)"
	@echo "make check  the fast tier: unit-level tests, no kernels, browsers, installs or site builds (about 35 s)"
	@echo "make test-tf   the lessons under real TensorFlow beside minitape, cell by cell (installs .venv-tf first)"
	@echo "make lite   build the course as a static JupyterLite site in build/lite/ (runs in the browser, no server)"
	@echo "make site   execute every lesson in every language into a static HTML site in build/site/ (read-only pages)"
	@echo "make student-dist STUDENT_DIST=DIR   build what students get (notebooks, wheel, Binder files) into DIR"
	@echo "make hub    a demo: the course on a real JupyterHub on 127.0.0.1 (as root: system users; docs/jupyterhub.md)"
	@echo "make lock   resolve the lock files requirements/{course,dev}.txt again (then review and test)"
	@echo "make test-latest   the suite against the newest release of every dependency (what would break)"
	@echo "make clean  remove .venv and build artefacts"

# Fail at once, and say why, when the interpreter the project needs is missing.
preflight:
	@command -v $(PYTHON) >/dev/null 2>&1 || { \
	  echo "error: '$(PYTHON)' is not on PATH. Install Python 3.11, 3.12 or 3.13 (Debian/Ubuntu: apt-get install" \
	       "python3 python3-venv) or pass its path: make $(MAKECMDGOALS) PYTHON=/path/to/python3.12" >&2; exit 1; }
	@$(PYTHON) -c 'import sys, venv, ensurepip; sys.exit(not (3, 11) <= sys.version_info[:2] <= (3, 13))' 2>/dev/null || { \
	  echo "error: '$(PYTHON)' must be Python 3.11, 3.12 or 3.13 with the venv and ensurepip modules" \
	       "(Debian/Ubuntu: apt-get install python3-venv); it is: $$($(PYTHON) --version 2>&1)" >&2; exit 1; }

$(VPY): | preflight
	$(call phase,"Creating the virtual environment $(VENV) with $$($(PYTHON) --version) (a few seconds)")
	$(PYTHON) -m venv --clear $(VENV)

# The dev stamp implies the course stamp: `make lab` after `make test` installs nothing.
$(STAMP_COURSE): | $(VPY)
	@if [ -f $(STAMP_DEV) ]; then touch $@; else \
	  printf '\n==> %s\n' "Installing the course into $(VENV) from $(LOCK_COURSE) (2-3 min on a fresh machine)"; \
	  rm -f $(VENV)/.stamp-*; \
	  $(PIP_INSTALL) --require-hashes --no-deps -r $(LOCK_BUILD); \
	  $(PIP_INSTALL) --require-hashes -r $(LOCK_COURSE); \
	  $(PIP_INSTALL) --no-deps --no-build-isolation -e .; \
	  touch $@; fi

$(STAMP_DEV): | $(VPY)
	@printf '\n==> %s\n' "Installing the course and the test tools into $(VENV) from $(LOCK_DEV) (about 3 min on a fresh machine)"
	@rm -f $(VENV)/.stamp-*
	$(PIP_INSTALL) --require-hashes --no-deps -r $(LOCK_BUILD)
	$(PIP_INSTALL) --require-hashes -r $(LOCK_DEV)
	$(PIP_INSTALL) --no-deps --no-build-isolation -e .
	@touch $@ $(STAMP_COURSE)

install: $(STAMP_COURSE)
install-dev: $(STAMP_DEV)

# Debian packages for the tests: Chromium for the real-browser tests (Playwright drives
# /usr/bin/chromium; its own browser downloads are not used) and a font for it; bubblewrap, the
# sandbox autograding runs students' kernels in (grader/README.md, "Sandbox"); Node.js and npm, for
# axe-core (the accessibility tests) and configurable-http-proxy (JupyterHub's, tests/hub/); valgrind, which
# benchmarks/instructions.py counts instructions with.
system-packages:
	@missing=; for pair in $(DEB_PACKAGES); do [ -e "$${pair#*:}" ] || missing="$$missing $${pair%%:*}"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; \
	  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
	  else echo "error: the tests need Debian packages:$$missing; install them as root" \
	            "(apt-get install$$missing) or run make test as root" >&2; exit 1; fi; \
	  command -v apt-get >/dev/null || { echo "error: the tests need:$$missing, and apt-get is missing:" \
	            "install them with this system's package manager" >&2; exit 1; }; \
	  printf '\n==> %s\n' "Installing Debian packages:$$missing (apt-get; about 1-2 min on a fresh machine)"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  $$SUDO apt-get update -q; \
	  $$SUDO apt-get install -y -q --no-install-recommends $$missing; \
	  for pair in $(DEB_PACKAGES); do [ -e "$${pair#*:}" ] || { \
	    echo "error: apt-get installed$$missing but $${pair#*:} is still missing" >&2; exit 1; }; done; \
	fi

# The students' JupyterLab: the lesson notebooks only, nbgrader's instructor interface off
# (python -m lessons lab; instructors use python -m grader lab in their course folder). This
# checkout holds instructor material, so the lab's kernels run confined (bubblewrap); without
# bubblewrap it refuses unless LAB_ARGS=--no-sandbox (lessons/lab.py says why).
# LAB_LANG=es|pt|ru|en: JupyterLab's interface language (default: the system's, else English).
LAB_ARGS ?=
LAB_LANG ?=
BWRAP ?= bwrap
lab: preflight-lab $(STAMP_COURSE)
	$(VPY) -m lessons lab $(if $(LAB_LANG),--lang $(LAB_LANG)) $(LAB_ARGS)

# Before installing anything (2-3 minutes): Python (preflight) and bubblewrap, which this
# checkout's lab needs (see above), said in the words of starting a lab.
preflight-lab: preflight
	@if [[ " $(LAB_ARGS) " != *" --no-sandbox "* ]] && ! command -v $(BWRAP) >/dev/null 2>&1; then \
	  echo "error: make lab needs bubblewrap, and it is not installed. Nothing has been installed yet." >&2; \
	  echo "  Why: this checkout holds the answers (reference solutions, hidden checks), so the lessons'" >&2; \
	  echo "  kernels run in a bubblewrap sandbox where they cannot read them." >&2; \
	  echo "  Install it: sudo apt-get install bubblewrap   (Debian/Ubuntu; Fedora: sudo dnf install bubblewrap)" >&2; \
	  echo "  then run make lab again. Students never need this: they use the student distribution." >&2; \
	  echo "  To start this lab unconfined anyway (only you at this machine): make lab LAB_ARGS=--no-sandbox" >&2; \
	  exit 1; fi

# What students get, built from this checkout and audited for instructor material
# (python -m lessons student-dist; docs/instructors.md, "Publishing the student distribution").
# It refuses while pyproject.toml names the placeholder repository: STUDENT_DIST_ARGS=--allow-placeholder
# builds anyway (a local try).
STUDENT_DIST ?= build/student
STUDENT_DIST_ARGS ?=
student-dist: $(STAMP_COURSE)
	$(call phase,"Building the student distribution in $(STUDENT_DIST) (about 30 s)")
	$(VPY) -m lessons student-dist $(STUDENT_DIST) $(STUDENT_DIST_ARGS)

# A demo of the JupyterHub route (docs/jupyterhub.md): a real JupyterHub on 127.0.0.1:$(HUB_PORT) with
# hub/jupyterhub_config.py, configurable-http-proxy from npm (hub/package-lock.json), nbgrader's
# exchange, an instructor and two students as system users (ana-demo: Spanish, ben-demo:
# Portuguese), each student's JupyterLab from the student distribution. As root (it creates the
# users); Ctrl+C stops it and removes the users and $(HUB_ROOT). About 2 minutes to start the
# first time (the student distribution, the hub's environment, two assignments generated).
HUB_ROOT ?= /tmp/minitape-hub
HUB_PORT ?= 8000
HUB_TAG ?= demo
hub: system-packages $(STAMP_DEV)
	$(VPY) -m hub.course_hub --root $(HUB_ROOT) --port $(HUB_PORT) --tag $(HUB_TAG)

# The executed lessons as a static HTML site (python -m lessons site; docs/static-site.md, "Read the lessons
# online"): every lesson in every language run top to bottom and exported with nbconvert, figures
# and widget states embedded, into build/site/ (replaced only when every lesson ran cleanly).
# SITE_ARGS passes options, e.g. make site SITE_ARGS="01 --lang es".
SITE_ARGS ?=
site: $(STAMP_COURSE)
	$(call phase,"Executing every lesson in every language into build/site/ (about 2-3 min)")
	$(VPY) -m lessons site $(SITE_ARGS)

# The engine's tests a second time with every tensor on the strict backend, a CPU array that
# refuses implicit conversion to NumPy as CuPy's GPU arrays do (tests/support/strict_backend.py);
# tests the backend cannot reach (their own placement, a subprocess) are left out of that pass.
# The course's .venv and the JupyterLite build (.venv-lite, then build/lite) do not depend on each
# other: they are made side by side (-j2; the output of the two a line at a time), which takes
# about as long as the longer of the two instead of both.
test: system-packages
	@$(MAKE) --no-print-directory -j2 --output-sync=line install-dev lite install-tf
	$(call phase,"Running the test suite: pytest $(PYTEST_ARGS) (about 13 min on 2 cores)")
	$(VPY) -m pytest $(PYTEST_ARGS)
	$(call phase,"Running tests/minitape again on the strict backend (about 1 min)")
	$(VPY) -m pytest -n auto -q tests/minitape --backend=strict

# ----- The lock files (requirements/README.md) -------------------------------------------------------
# `make lock` resolves pyproject.toml's extras again, with requirements/holds.txt as constraints, for
# every supported Python at once (uv's universal resolution), every file hashed. Review the diff, run
# `make test`, commit. LOCK_ARGS passes options to uv, e.g. LOCK_ARGS="--upgrade-package numpy".
LOCK_ARGS ?=
UV_COMPILE = $(VPY) -m uv pip compile --system-certs -c requirements/holds.txt \
             --universal --python-version 3.11 --generate-hashes --custom-compile-command "make lock" --quiet $(LOCK_ARGS)
lock: $(STAMP_DEV)
	$(call phase,"Resolving the lock files in requirements/ for Python 3.11 to 3.13 (uv: seconds)")
	$(UV_COMPILE) requirements/build.in -o $(LOCK_BUILD)
	$(UV_COMPILE) pyproject.toml --extra course -o $(LOCK_COURSE)
	$(UV_COMPILE) pyproject.toml --extra course --extra dev -o $(LOCK_DEV)
	$(UV_COMPILE) pyproject.toml --extra course --extra hub -o $(LOCK_HUB)
	$(UV_COMPILE) -c $(LOCK_BUILD) -c $(LOCK_DEV) pyproject.toml --extra tensorflow -o $(LOCK_TF)
	$(UV_COMPILE) lite/requirements-build.in -c lite/requirements.txt -o lite/requirements-build.txt \
	  $$(sed -n 's/^\([A-Za-z0-9._-]*\)==.*/--no-emit-package \1/p' lite/requirements.txt)
	@git diff --stat -- requirements/ 2>/dev/null || true

# What the newest releases would break, before a user meets it: the whole suite in .venv-latest with
# every dependency at its newest release (no lock, no holds), after a table of what differs from
# the lock. Not part of CI (a new release must never turn a build red by itself); run it before
# `make lock`, or on a schedule.
VENV_LATEST ?= .venv-latest
test-latest: system-packages lite | preflight
	$(call phase,"Installing the newest release of every dependency into $(VENV_LATEST) (about 3 min)")
	$(PYTHON) -m venv --clear $(VENV_LATEST)
	PIP_CONSTRAINT= $(VENV_LATEST)/bin/python -m pip --disable-pip-version-check install --progress-bar on --upgrade -e '.[course,dev]'
	$(VENV_LATEST)/bin/python requirements/compare.py $(LOCK_DEV)
	$(call phase,"Running the test suite against the newest releases: pytest $(PYTEST_ARGS)")
	$(VENV_LATEST)/bin/python -m pytest $(PYTEST_ARGS)

# The fast tier a developer runs after every edit (docs/testing.md): the engine, the grader's and
# the lessons' unit-level tests, the source/glossary/layout checks; no Jupyter kernel, browser,
# install or JupyterLite site (the markers those tests carry are deselected). 35 s on 2 cores, quiet.
CHECK_MARKERS ?= not kernel and not browser and not install and not lite and not slow and not tensorflow
check: $(STAMP_DEV)
	$(call phase,"Running the fast tier: pytest -m '$(CHECK_MARKERS)' (about 1 min on 2 cores; minutes under load)")
	$(VPY) -m pytest -n auto -q --durations=10 -m '$(CHECK_MARKERS)' $(CHECK_ARGS)

# ----- The TensorFlow tier (docs/testing.md, "The TensorFlow tier") --------------------------------
# Every lesson's code cells, from the one source, run twice, `import minitape as tf` and `import
# tensorflow as tf`, and are compared cell by cell; the exercises' solutions run under TensorFlow on
# the visible checks; the lessons' claims are checked under both engines (tests marked `tensorflow`,
# tests/lessons/test_lessons_tensorflow.py). TensorFlow lives in its own virtualenv, .venv-tf, from the
# hashed lock requirements/tf.txt (tensorflow-cpu and what it pulls in, the course's pins kept); a .pth
# file puts .venv's packages (the course, matplotlib, ...) after its own, so nothing is installed twice
# but TensorFlow's closure. Cached on a hash of the lock files: a second run installs nothing.
VENV_TF ?= .venv-tf
TF_KEY := $(shell cat $(LOCK_BUILD) $(LOCK_TF) 2>/dev/null | sha256sum | cut -c1-16)
STAMP_TF := $(VENV_TF)/.stamp-tf-$(TF_KEY)

$(STAMP_TF): $(STAMP_DEV)
	@printf '\n==> %s\n' "Installing TensorFlow (tensorflow-cpu 2.21, Keras 3) into $(VENV_TF) from $(LOCK_TF) (about 1 min on a fresh machine)"
	@rm -rf $(VENV_TF)
	$(PYTHON) -m venv $(VENV_TF)
	$(VENV_TF)/bin/python -m pip --disable-pip-version-check install --progress-bar on --require-hashes --no-deps -r $(LOCK_BUILD)
	$(VENV_TF)/bin/python -m pip --disable-pip-version-check install --progress-bar on --require-hashes --no-deps -r $(LOCK_TF)
	@tf_lib=$$($(VENV_TF)/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])'); \
	 course_lib=$$($(VPY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])'); \
	 echo "import site; site.addsitedir('$$course_lib')" > "$$tf_lib/zz-course-venv.pth"
	@$(VENV_TF)/bin/python -c 'import tensorflow, keras, minitape, lessons, grader' 2>/dev/null || { \
	  echo "error: $(VENV_TF) cannot import TensorFlow and the course together; remove it and run make test-tf again" >&2; exit 1; }
	@touch $@

install-tf: $(STAMP_TF)

test-tf: $(STAMP_TF)
	$(call phase,"Running the TensorFlow tier: every lesson under minitape and under TensorFlow (5-9 min on 2 cores)")
	$(VPY) -m pytest -m tensorflow $(PYTEST_ARGS)

# ----- The course in the browser: a static JupyterLite site (lite/README.md) -----------------------
# `make lite` installs the pinned tools into .venv-lite (lite/requirements.txt by hash, then the
# build-only lite/requirements-build.txt, also by hash and resolved by `make lock`), then lite/build.py fetches Pyodide (npm ci), checks every
# third-party package against the official pyodide-lock.json, and builds build/lite/. The build is
# cached on a hash of its inputs: a second `make lite` with nothing changed takes about a second.
# `make test-lite` runs only the tests marked `lite` (they serve build/lite on 127.0.0.1).
VENV_LITE ?= .venv-lite
LITE_KEY := $(shell cat lite/requirements.txt lite/requirements-build.txt 2>/dev/null | sha256sum | cut -c1-16)
STAMP_LITE := $(VENV_LITE)/.stamp-lite-$(LITE_KEY)

$(STAMP_LITE): | preflight
	@printf '\n==> %s\n' "Installing the JupyterLite build tools into $(VENV_LITE): lite/requirements*.txt (about 1 min on a fresh machine)"
	@rm -rf $(VENV_LITE)
	$(PYTHON) -m venv $(VENV_LITE)
	$(VENV_LITE)/bin/python -m pip --disable-pip-version-check install --progress-bar on --require-hashes --no-deps -r lite/requirements.txt
	$(VENV_LITE)/bin/python -m pip --disable-pip-version-check install --progress-bar on --require-hashes --no-deps -r lite/requirements-build.txt
	@touch $@

lite: $(STAMP_LITE)
	$(call phase,"Building the JupyterLite site into build/lite (about 1 min; a second after when nothing changed)")
	$(VENV_LITE)/bin/python lite/build.py

test-lite: $(STAMP_DEV) system-packages lite
	$(VPY) -m pytest -m lite $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) $(VENV_LITE) $(VENV_LATEST) $(VENV_TF) build dist *.egg-info test-artifacts
