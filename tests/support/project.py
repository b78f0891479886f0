"""Helpers shared by the packaging tests: the project's files, a clean copy of them, subprocesses.

(A module with a unique name rather than conftest.py, so test modules can import it safely.)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("course_lang", "minitape", "grader", "lessons")
_SKIP_PARTS = {".git", ".venv", "__pycache__", ".ipynb_checkpoints", ".pytest_cache", ".hypothesis",
               "build", "dist", "test-artifacts"}


def project_files() -> list[str]:
    """Relative paths of the files a commit of this working tree would hold.

    Tracked files plus untracked ones git does not ignore (so the tests see work in progress the
    way a commit would); without git (an unpacked sdist), every file outside tool folders.
    """
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=REPO, check=True, capture_output=True,
        ).stdout.decode()
        files = [f for f in out.split("\0") if f and (REPO / f).is_file()]
    except (OSError, subprocess.CalledProcessError):
        files = [
            str(p.relative_to(REPO)) for p in REPO.rglob("*")
            if p.is_file() and not _SKIP_PARTS.intersection(p.relative_to(REPO).parts)
        ]
    return sorted(files)


def copy_project(dest: Path) -> Path:
    """Copy the project's files to dest, as a fresh clone would have them (repo2docker copies too)."""
    for rel in project_files():
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / rel, target)
    return dest


def clean_env(venv: Path | None = None, **extra: str) -> dict[str, str]:
    """The environment for a subprocess that must not see this test run's interpreter or venv."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "MINITAPE_LANG",
                        "JPY_SESSION_NAME", "PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER",
                        "PIP_REQUIRE_VIRTUALENV", "PIP_USER"}
           and not k.startswith("PYTEST_")}
    if venv is not None:
        env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        env["VIRTUAL_ENV"] = str(venv)
    env["PYTHONNOUSERSITE"] = "1"
    env.update(extra)
    return env


def run(cmd, *, cwd: Path, env: dict[str, str], timeout: float) -> subprocess.CompletedProcess:
    """Run cmd; on failure raise with its output, so the pytest report shows why."""
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    if proc.returncode != 0:
        raise AssertionError(
            f"command failed with exit code {proc.returncode}: {' '.join(map(str, cmd))}\n"
            f"--- stdout (tail) ---\n{proc.stdout[-6000:]}\n--- stderr (tail) ---\n{proc.stderr[-6000:]}"
        )
    return proc


def student_distribution() -> Path:
    """The student distribution (``python -m lessons student-dist``: notebooks, the wheel, Binder's
    files) built from a copy of the project as a fresh clone has it, once per test session for
    every pytest-xdist worker (``tests.support.shared.build_once``, keyed by the project's files).
    Shared: read it, or copy it before changing anything in it."""
    from tests.support import shared

    files = project_files()

    def build(folder: Path) -> None:
        from lessons import student

        checkout = copy_project(folder / "checkout")
        manifest = student.build(folder / "minitape-student", root=checkout)
        assert manifest["files"], manifest
        shutil.rmtree(checkout)

    key = shared.content_key([REPO / f for f in files], *files)
    return shared.build_once("student-dist", key, build) / "minitape-student"
