"""Execute generated lesson notebooks with nbclient (used by the tests and ``timing``)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from .build import ROOT


@dataclass
class CellError:
    index: int
    cell_id: str
    role: str | None  # "solution", "tests" or None
    ename: str
    evalue: str


@dataclass
class Execution:
    path: Path
    nb: object
    kernel_seconds: float  # sum over cells of execute_input -> execute_reply
    wall_seconds: float  # including kernel start-up
    errors: list[CellError] = field(default_factory=list)
    cell_seconds: dict[str, float] = field(default_factory=dict)
    kernel_stderr: str = ""


def kernel_env(root: Path = ROOT, lang: str | None = None) -> dict[str, str]:
    """Environment for the kernel: the repository importable, a non-interactive plot backend."""
    env = dict(os.environ)
    paths = [str(root)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    env.pop("JPY_SESSION_NAME", None)
    env.pop("MINITAPE_LANG", None)
    if lang:
        env["MINITAPE_LANG"] = lang
    env.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    env.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # silence debugpy's frozen-modules warning
    return env


def _parse(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


SKIP_TAG = "skip-execution"  # nbclient's NotebookClient.skip_cells_with_tag


def execute(path: Path, timeout: int = 120, allow_errors: bool = True, root: Path = ROOT,
            cwd: Path | None = None, nb=None, skip_roles: tuple[str, ...] = ()) -> Execution:
    """Run a notebook top to bottom in a fresh python3 kernel whose cwd is the notebook's folder.

    The language is not forced: the kernel finds it from its working directory, exactly as a
    student's kernel does (``lessons/<lang>/`` or ``...-<lang>/``).

    ``nb``: run this notebook (an nbformat node, e.g. one just built from its source) instead of
    reading ``path``, which then only names it and gives its folder. ``skip_roles``: exercise
    cells of these nbgrader roles ("solution", "tests") are left unrun, without outputs (the
    static site shows a student notebook's stubs that way, not the stub's NotImplementedError).
    """
    import tempfile
    import time

    import nbformat
    from nbclient import NotebookClient

    if nb is None:
        nb = nbformat.read(str(path), as_version=4)
    skipped = []
    for cell in nb.cells:
        grading = cell.metadata.get("nbgrader", {})
        role = "solution" if grading.get("solution") else "tests" if grading.get("grade") else None
        if cell.cell_type == "code" and role in skip_roles:
            tags = cell.metadata.setdefault("tags", [])
            if SKIP_TAG not in tags:
                tags.append(SKIP_TAG)
                skipped.append(cell)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=allow_errors,
                            record_timing=True, resources={"metadata": {"path": str(cwd or path.parent)}})
    start = time.perf_counter()
    # The kernel's own stderr (start-up warnings, a crash's last words) goes to a file, not to
    # our console; it is kept on the result for diagnosis.
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as log:
        try:
            client.execute(env=kernel_env(root), stderr=log)
        finally:
            log.seek(0)
            kernel_stderr = log.read()[-4000:]
            for cell in skipped:   # the tag was ours: leave the notebook's metadata as it was
                cell.metadata["tags"].remove(SKIP_TAG)
                if not cell.metadata["tags"]:
                    del cell.metadata["tags"]
    wall = time.perf_counter() - start
    errors, per_cell, total = [], {}, 0.0
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        timing = cell.metadata.get("execution", {})
        if "iopub.execute_input" in timing and "shell.execute_reply" in timing:
            seconds = (_parse(timing["shell.execute_reply"]) - _parse(timing["iopub.execute_input"])).total_seconds()
            per_cell[cell.get("id", str(index))] = seconds
            total += seconds
        grading = cell.metadata.get("nbgrader", {})
        role = "solution" if grading.get("solution") else "tests" if grading.get("grade") else None
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                errors.append(CellError(index, cell.get("id", str(index)), role,
                                        output.get("ename", ""), output.get("evalue", "")))
    return Execution(path=path, nb=nb, kernel_seconds=total, wall_seconds=wall, errors=errors,
                     cell_seconds=per_cell, kernel_stderr=kernel_stderr)
