"""Consistency of an nbgrader course's source notebooks with the exercise registry.

nbgrader reads a test cell's score from its last output and refuses a score above the cell's
points, so a tests cell must (a) belong to a registered exercise, (b) have the registry's
points, (c) call ``check("<id>")`` for the student and end with ``grade("<id>")`` inside the
hidden-tests region, and (d) follow a solution cell defining the exercise's function.
``python -m grader check-course`` runs :func:`check_notebook` on every source notebook.
"""

from __future__ import annotations

import ast
import glob
import os

import nbformat

from grader.student.registry import all_exercises

__all__ = ["check_course", "check_notebook"]

BEGIN_HIDDEN, END_HIDDEN = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"


def _last_call(source: str) -> tuple[str, list] | None:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        return None
    call = tree.body[-1].value
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
        return None
    args = [a.value for a in call.args if isinstance(a, ast.Constant)]
    return call.func.id, args


def check_notebook(path: str) -> list[str]:
    """Problems of one source notebook, as ``path: message`` lines (empty list: fine)."""
    problems: list[str] = []
    registry = all_exercises()
    nb = nbformat.read(path, as_version=4)
    defined: set[str] = set()
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if cell.cell_type == "code" and meta.get("solution"):
            try:
                tree = ast.parse(cell.source)
            except SyntaxError as exc:
                problems.append(f"{path}: solution cell {meta.get('grade_id')}: syntax error: {exc}")
                continue
            defined |= {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        if not meta.get("grade"):
            continue
        grade_id = meta.get("grade_id", "")
        where = f"{path}: tests cell {grade_id!r}"
        if not grade_id.isascii():
            problems.append(f"{where}: grade id is not ASCII")
        ex = registry.get(grade_id)
        if ex is None:
            problems.append(f"{where}: no exercise {grade_id!r} in grader/course/definitions/")
            continue
        if float(meta.get("points", 0)) != float(ex.points):
            problems.append(f"{where}: points={meta.get('points')} but the exercise is worth "
                            f"{ex.points:g} (grade() scores out of {ex.points:g})")
        source = cell.source
        if f'check("{grade_id}")' not in source and f"check('{grade_id}')" not in source:
            problems.append(f"{where}: does not call check({grade_id!r}) (the student's self-check)")
        if BEGIN_HIDDEN not in source or END_HIDDEN not in source:
            problems.append(f"{where}: no hidden-tests region with grade({grade_id!r})")
        last = _last_call(source)
        if last != ("grade", [grade_id]):
            problems.append(f"{where}: the last line must be grade({grade_id!r}) so that its "
                            "score is the cell's output (partial credit)")
        elif source.rstrip().rsplit("\n", 1)[-1].strip() != END_HIDDEN:
            problems.append(f"{where}: grade({grade_id!r}) must be inside the hidden-tests region")
        if ex.function not in defined:
            problems.append(f"{where}: no solution cell above defines `{ex.function}`")
    return problems


def check_course(course_dir: str) -> tuple[int, list[str]]:
    """(number of notebooks checked, problems) for ``course_dir/source/*/*.ipynb``."""
    paths = sorted(glob.glob(os.path.join(course_dir, "source", "*", "*.ipynb")))
    problems: list[str] = []
    for path in paths:
        problems.extend(check_notebook(path))
    return len(paths), problems
