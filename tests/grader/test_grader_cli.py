"""python -m grader: help, clear errors for bad input, course checks."""

from __future__ import annotations

import shutil
import subprocess
import sys

import nbformat
import pytest

from tests.support.course import PACKAGED_COURSE, REPO, env
from grader.autograde.cli import main
from grader.autograde.course_check import check_notebook


def _run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "grader", *args], cwd=cwd or REPO, env=env(),
                          capture_output=True, text=True, timeout=120)


def test_help_lists_every_command():
    proc = _run("--help")
    assert proc.returncode == 0
    for command in ("autograde-all", "export", "check-course", "exercises", "init-course"):
        assert command in proc.stdout
    sub = _run("autograde-all", "--help")
    assert "--jobs" in sub.stdout and "--force" in sub.stdout and "--course" in sub.stdout


def test_missing_course_dir(tmp_path, capsys):
    with pytest.raises(SystemExit, match="does not exist"):
        main(["autograde-all", "01-gradients-en", "--course", str(tmp_path / "nope")])
    with pytest.raises(SystemExit, match="is not an nbgrader course: no nbgrader_config.py"):
        main(["export", "--course", str(tmp_path)])


def test_unknown_assignment_and_missing_gradebook(tmp_path, capsys):
    course = tmp_path / "course"
    assert main(["init-course", str(course)]) == 0
    assert (course / "nbgrader_config.py").exists()
    assert main(["autograde-all", "01-gradients-xx", "--course", str(course)]) == 2
    assert "no gradebook" in capsys.readouterr().err
    assert main(["export", "--course", str(course)]) == 2
    assert "no gradebook" in capsys.readouterr().err
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", "minitape-autodiff") as gb:
        gb.add_assignment("01-gradients-en")
    assert main(["autograde-all", "01-gradients-xx", "--course", str(course)]) == 2
    err = capsys.readouterr().err
    assert "unknown assignment '01-gradients-xx'" in err and "01-gradients-en" in err
    assert main(["autograde-all", "01-gradients-en", "--course", str(course)]) == 2
    assert "no submissions of 01-gradients-en" in capsys.readouterr().err
    assert main(["export", "--assignment", "99-nothing", "--course", str(course)]) == 2
    assert "unknown assignment(s) 99-nothing" in capsys.readouterr().err
    assert main(["init-course", str(course)]) == 2  # not empty


def test_exercises_table(capsys):
    assert main(["exercises"]) == 0
    out = capsys.readouterr().out
    assert "l01_ex1" in out and "derivative_at(x0)" in out


def test_packaged_course_matches_the_exercise_registry(capsys):
    """The lesson build and the grader agree on ids, points, functions and test cells."""
    assert main(["check-course", "--course", str(PACKAGED_COURSE)]) == 0, capsys.readouterr().err


def test_check_course_finds_inconsistencies(tmp_path):
    src = PACKAGED_COURSE / "source" / "01-gradients-en" / "01-gradients.ipynb"
    nb = nbformat.read(str(src), as_version=4)
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("grade_id") == "l01_ex1":
            meta["points"] = 5
        if meta.get("grade_id") == "l01_ex2":
            cell.source = 'check("l01_ex2")\n### BEGIN HIDDEN TESTS\ngrade("l01_ex2")\nprint(1)\n### END HIDDEN TESTS'
        if meta.get("grade_id") == "l01_ex3":
            meta["grade_id"] = "l01_ex33"
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, str(path))
    problems = "\n".join(check_notebook(str(path)))
    assert "'l01_ex1': points=5 but the exercise is worth 1" in problems
    assert "'l01_ex2': the last line must be grade('l01_ex2')" in problems
    assert "no exercise 'l01_ex33'" in problems
