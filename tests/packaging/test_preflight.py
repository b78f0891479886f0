"""`make lab` checks what the machine needs before installing anything (issue 25).

It used to install for almost two minutes and only then fail because bubblewrap was missing,
with advice about grading.  Now it stops at once, says what to install and why in the words of
starting a lab, and has created nothing.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _make(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["make", "-C", str(REPO), "lab", f"VENV={tmp_path / 'venv'}", *args],
                          capture_output=True, text=True, timeout=120)


def test_make_lab_without_bubblewrap_says_what_to_install_before_installing(tmp_path):
    proc = _make(tmp_path, "BWRAP=no-such-bwrap")
    assert proc.returncode != 0
    err = proc.stderr
    assert "make lab needs bubblewrap" in err and "sudo apt-get install bubblewrap" in err
    assert "Nothing has been installed yet" in err and "LAB_ARGS=--no-sandbox" in err
    assert "grade" not in err  # the user is starting a lab, not grading
    assert len(err.strip().splitlines()) <= 24  # one screen
    assert not (tmp_path / "venv").exists()


def test_make_lab_without_python_says_so_first(tmp_path):
    proc = _make(tmp_path, "PYTHON=no-such-python3.11", "BWRAP=no-such-bwrap")
    assert proc.returncode != 0
    assert "'no-such-python3.11' is not on PATH" in proc.stderr and "bubblewrap" not in proc.stderr
    assert not (tmp_path / "venv").exists()


def test_make_lab_checks_pass_where_bubblewrap_is_there_or_not_wanted(tmp_path):
    dry = subprocess.run(["make", "-n", "-C", str(REPO), "lab", f"VENV={tmp_path / 'venv'}",
                          "BWRAP=no-such-bwrap", "LAB_ARGS=--no-sandbox"],
                         capture_output=True, text=True, timeout=120)
    assert dry.returncode == 0, dry.stderr
    dry = subprocess.run(["make", "-C", str(REPO), "preflight-lab", "BWRAP=sh"],
                         capture_output=True, text=True, timeout=120)
    assert dry.returncode == 0, dry.stderr
