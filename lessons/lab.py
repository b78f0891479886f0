"""The students' JupyterLab: ``python -m lessons lab`` (what ``make lab`` runs).

A JupyterLab server rooted at the lessons, as a student should meet it:

* the file browser opens on the lesson notebooks only: one folder per language (``en/``,
  ``es/``, ...); the package's tooling beside them (``build.py``, ``src/`` with the solutions,
  ``messages/``, ...) is hidden from the server (``ContentsManager.hide_globs``), computed from
  the folder itself: whatever is not a folder of notebooks;
* nbgrader's instructor interface is off for this server only (``jupyter_config/``, put first
  on ``JUPYTER_CONFIG_PATH``): no *Create Assignment* sidebar, no *Formgrader*, no *Validate*,
  and no "No nbgrader_config.py file found" warning;
* it runs this interpreter's JupyterLab (``python -m jupyterlab``), so no virtualenv needs to
  be activated, and passes ``--allow-root`` when run as root (containers, CI machines), which
  Jupyter otherwise refuses.

Extra arguments go to JupyterLab (``python -m lessons lab --port 8890 --no-browser``).
Instructors open the course with nbgrader's interface through ``python -m grader lab``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
CONFIG = ROOT / "jupyter_config"


def lesson_folders(root: Path = ROOT) -> list[str]:
    """Folders of ``root`` that hold notebooks: what a student is shown."""
    return sorted(p.name for p in root.iterdir()
                  if p.is_dir() and not p.name.startswith(".") and any(p.glob("*.ipynb")))


def hidden_names(root: Path = ROOT) -> list[str]:
    """Everything else in ``root`` (tooling, sources with solutions, configuration)."""
    shown = set(lesson_folders(root))
    return sorted(p.name for p in root.iterdir() if p.name not in shown and not p.name.startswith("."))


def command(root: Path = ROOT, extra: list[str] | None = None) -> list[str]:
    from jupyter_server.services.contents.filemanager import FileContentsManager

    globs = list(dict.fromkeys([*FileContentsManager().hide_globs, *hidden_names(root)]))
    argv = [sys.executable, "-m", "jupyterlab", str(root)]
    argv += [f"--ContentsManager.hide_globs={g}" for g in globs]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        argv.append("--allow-root")
    return argv + list(extra or [])


def environment(base: dict | None = None) -> dict:
    env = dict(os.environ if base is None else base)
    env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(
        [str(CONFIG)] + [p for p in env.get("JUPYTER_CONFIG_PATH", "").split(os.pathsep) if p])
    return env


def main(extra: list[str]) -> int:
    folders = lesson_folders()
    if not folders:
        print(f"error: no lesson notebooks under {ROOT} (run `python -m lessons build`)", file=sys.stderr)
        return 2
    argv = command(extra=extra)
    print(f"Starting JupyterLab on the lessons in {ROOT} ({', '.join(folders)}); "
          "stop it with Ctrl+C.", flush=True)
    os.execve(argv[0], argv, environment())
