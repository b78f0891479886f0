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


# -- autograde-all's summary: one vocabulary (the export's statuses) and the wall time (issue 40) --
def _summary(results):
    from grader.infra.parallel import AutogradeSummary, StudentResult

    summary = AutogradeSummary("01-gradients-es", 2, 3.0)
    summary.results = [StudentResult(s, ok, 1.0, refused=refused) for s, ok, refused in results]
    return summary


def test_the_summary_counts_graded_submissions_by_their_export_status():
    from grader.autograde.cli import _summary_lines

    summary = _summary([("ana", True, ""), ("bob", True, ""), ("cid", True, ""), ("dan", True, ""),
                        ("eve", False, ""), ("*", False, "refused_id")])
    statuses = {"ana": "ok", "bob": "unanswered", "cid": "crashed;not_run", "dan": "ok"}
    lines = _summary_lines(summary, statuses, "2 worker(s)", 55.04)
    assert lines[0] == ("01-gradients-es: 6 submission(s): 4 graded (2 ok, 1 crashed;not_run, "
                        "1 unanswered), 1 failed, 1 refused; 2 worker(s), 55.0s wall time (0.11/s)")
    assert "crashed;not_run (see the export's notes): cid" in lines
    assert "unanswered (see the export's notes): bob" in lines
    assert not any("flagged" in line for line in lines)
    assert not any("roster" in line for line in lines)
    # a graded student nobody imported (a submitted/ folder put there by hand): one line
    lines = _summary_lines(summary, statuses, "2 worker(s)", 55.0, roster={"ana", "bob", "cid"})
    assert lines[-1].startswith("not in the roster (nbgrader added them to the gradebook;")
    assert lines[-1].endswith(": dan")
    assert not any("roster" in line for line in _summary_lines(summary, statuses, "w", 1.0, roster=set()))
    # where the export cannot be read, the workers' own flags
    assert "0 flagged for review" in _summary_lines(summary, {}, "2 worker(s)", 1.0)[0]


def test_the_wall_time_starts_with_the_process():
    import time

    from grader.autograde.cli import _process_started

    now = time.perf_counter()
    started = _process_started(now)
    assert started <= now  # this process began before this line ran
    assert now - started < 3600
