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
    assert "is not on PATH" in proc.stderr and "python3-venv" in proc.stderr
    assert "3.11, 3.12 or 3.13" in proc.stderr


def test_old_python_is_refused(tmp_path):
    fake = tmp_path / "python3.11"
    fake.write_text("#!/bin/sh\n[ \"$1\" = --version ] && { echo 'Python 3.9.2'; exit 0; }\nexit 1\n")
    fake.chmod(0o755)
    proc = _make("preflight", f"PYTHON={fake}")
    assert proc.returncode != 0
    assert "must be Python 3.11, 3.12 or 3.13" in proc.stderr and "Python 3.9.2" in proc.stderr


def test_a_python_newer_than_the_tested_ones_is_refused(tmp_path):
    """3.14 is not among the Pythons the lock files and the tests cover: refused before any install."""
    import sys

    fake = tmp_path / "python3"
    fake.write_text(f"#!/bin/sh\nexec {sys.executable} -c 'import sys; sys.exit(1)'\n")
    fake.chmod(0o755)
    proc = _make("preflight", f"PYTHON={fake}")
    assert proc.returncode != 0 and "must be Python 3.11, 3.12 or 3.13" in proc.stderr


def test_the_default_python_is_the_first_supported_one_on_path(tmp_path):
    """Ubuntu 24.04 has python3.12 and Debian 13 python3.13, with no python3.11: make finds them."""
    import sys

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3.13").symlink_to(sys.executable)
    # no python3.11 anywhere on PATH; no PYTHON from a calling make (it exports its command line's)
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHON", "MAKEFLAGS", "MAKELEVEL", "MFLAGS"}}
    env["PATH"] = str(bin_dir)
    proc = subprocess.run([shutil.which("make"), "-s", "-C", str(REPO), "-p", "-n", "help"], capture_output=True,
                          text=True, timeout=60, env=env)
    (line,) = [l for l in proc.stdout.splitlines() if l.startswith("PYTHON :=")]
    assert line.split(":=", 1)[1].strip() == str(bin_dir / "python3.13")


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

    pip_lines = [l.strip() for l in text.splitlines()
                 if l.strip().startswith("/nonexistent-venv/") and " -m pip " in l and " install " in l]
    # every install comes from the lock files, by hash, and the project itself adds nothing unpinned
    assert [l.split(" -r ", 1)[1] for l in pip_lines if " -r " in l] == ["requirements/build.txt",
                                                                          "requirements/dev.txt"]
    assert all("--require-hashes" in l for l in pip_lines if " -r " in l)
    (editable,) = [l for l in pip_lines if " -e " in l]
    assert "--no-deps" in editable and "--no-build-isolation" in editable
    for pip_line in pip_lines:
        argv = shlex.split(pip_line)
        argv = [sys.executable] + argv[1:] + ["--help"]
        pip = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        assert pip.returncode == 0, (argv, pip.stderr)
    # and every echoed line is valid shell (a comma inside $(call ...) once cut a phase's text)
    for line in text.splitlines():
        if "==>" in line:
            check = subprocess.run(["bash", "-n", "-c", line], capture_output=True, text=True)
            assert check.returncode == 0, (line, check.stderr)
