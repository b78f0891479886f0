"""The Makefile fails at once, saying what is missing, instead of deep inside a later step."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def _make(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["make", "-s", "-C", str(REPO), *args], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "MAKEFLAGS": ""})


def test_missing_python_is_named(tmp_path):
    proc = _make("preflight", f"PYTHON={tmp_path / 'python3.11'}")
    assert proc.returncode != 0
    assert "is not on PATH" in proc.stderr and "python3.11-venv" in proc.stderr


def test_old_python_is_refused(tmp_path):
    fake = tmp_path / "python3.11"
    fake.write_text("#!/bin/sh\n[ \"$1\" = --version ] && { echo 'Python 3.9.2'; exit 0; }\nexit 1\n")
    fake.chmod(0o755)
    proc = _make("preflight", f"PYTHON={fake}")
    assert proc.returncode != 0
    assert "must be Python >= 3.11" in proc.stderr and "Python 3.9.2" in proc.stderr


def test_this_python_passes():
    import sys

    assert _make("preflight", f"PYTHON={sys.executable}").returncode == 0


def test_every_phase_is_announced():
    """`make -n test` on a fresh checkout: each long phase prints what it does and how long it takes."""
    proc = subprocess.run(["make", "-n", "-C", str(REPO), "test", "VENV=/nonexistent-venv"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    for phase in ("Creating the virtual environment", "Installing the course and the test tools",
                  "Running the test suite", "strict backend"):
        assert phase in text, phase
    assert "-qq" not in text  # pip's own progress is shown
    # pip is given only options it knows, where it takes them (`pip --progress-bar` is refused)
    import shlex
    import sys

    (pip_line,) = {l.strip() for l in text.splitlines() if " -m pip " in l and "'.[course,dev]'" in l}
    argv = shlex.split(pip_line)
    argv = [sys.executable] + argv[1:argv.index("-e")] + ["--help"]
    pip = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert pip.returncode == 0, (argv, pip.stderr)
    # and every echoed line is valid shell (a comma inside $(call ...) once cut a phase's text)
    for line in text.splitlines():
        if "==>" in line:
            check = subprocess.run(["bash", "-n", "-c", line], capture_output=True, text=True)
            assert check.returncode == 0, (line, check.stderr)
