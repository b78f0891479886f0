"""A student's own cell that kills the kernel costs only what depends on that cell.

Probes run after all of the student's cells; before this, a top-level ``os._exit(1)`` (or a
signal the kernel sends itself) in any cell stopped the notebook there and every exercise,
even those answered above the crash, got 0. Now the kernel is restarted, the cells that ran are
replayed without the one that killed it, and grading goes on (grader GraderExecute).
"""

from __future__ import annotations

import copy
import csv

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from nbgrader.utils import determine_grade
from grader.i18n import t
from grader.autograde.execute import GraderExecute
from grader.autograde.issues import issues_of
from tests.support.course import (LESSON, grader_cli, nbgrader, reference_solutions, released,
                                  released_course, solution_index, submit, with_answers)

pytestmark = [pytest.mark.kernel]

EN = f"{LESSON}-en"
ON_TIME = "2030-01-01 10:00:00 UTC"
CELLS = ("l01_ex1", "l01_ex2", "l01_ex3", "l01_ex4", "l01_ex5")
FULL = {"l01_ex1": "1", "l01_ex2": "2", "l01_ex3": "2", "l01_ex4": "2", "l01_ex5": "2"}
EXIT = "import os\nos._exit(1)\n"
SIGKILL_SELF = "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n"


def _grade_cell(source: str, grade_id: str, points: float = 2):
    cell = new_code_cell(source)
    cell.metadata["nbgrader"] = {"grade": True, "solution": False, "locked": True,
                                 "grade_id": grade_id, "points": points, "schema_version": 3}
    return cell


def _run(nb, assignment="demo-ru", **traits):
    ep = GraderExecute(timeout=30, interrupt_on_timeout=True, **traits)
    ep.preprocess(nb, {"metadata": {"path": "."}, "nbgrader": {"assignment": assignment}})
    return nb


def test_the_kernel_is_restarted_without_the_cell_that_killed_it(tmp_path):
    marker = tmp_path / "ran-once"
    nb = new_notebook(cells=[
        new_code_cell("a = 21"),
        # runs fine the first time; kills the kernel when it is replayed
        new_code_cell(f"import os, pathlib\nm = pathlib.Path({str(marker)!r})\n"
                      "if m.exists():\n    os._exit(3)\nm.write_text('x')\nb = 1"),
        new_code_cell(SIGKILL_SELF),  # (in the sandbox the kernel is PID 1 there: ignored)
        new_code_cell("c = 2 * a"),
        _grade_cell("assert c == 42", "uses_a"),
        _grade_cell("assert b == 1", "uses_b"),
    ])
    _run(nb)
    assert nb.cells[2].outputs[-1].ename == "DeadKernelError"
    # in the student's language (the assignment id's suffix), naming the cell
    assert nb.cells[2].outputs[-1].evalue == t("grading.kernel_killed", "ru", cell="cell 3")
    assert nb.cells[1].outputs[-1].evalue == t("grading.kernel_killed", "ru", cell="cell 2")
    assert determine_grade(nb.cells[4]) == (2.0, 2.0)  # the cells above the kill still count
    assert determine_grade(nb.cells[5]) == (0, 2.0)    # b came only from the skipped cell
    assert nb.cells[5].outputs[-1].ename == "NameError"
    # cell 2 is found out while cell 3's kill is being recovered from
    assert [(i["kind"], i["cell"]) for i in issues_of(nb)] == [("crashed", "cell 2"),
                                                                 ("crashed", "cell 3")]


def test_a_replayed_cell_keeps_the_outputs_of_its_first_run(tmp_path):
    # nbclient puts every cell it runs into the notebook; the replay's own outputs (here "run 2")
    # must not replace what the student's kernel showed the first time (issue 36)
    counter = tmp_path / "runs"
    nb = new_notebook(cells=[
        new_code_cell(f"import pathlib\np = pathlib.Path({str(counter)!r})\n"
                      "n = int(p.read_text()) + 1 if p.exists() else 1\np.write_text(str(n))\n"
                      "print('run', n)"),
        new_code_cell(EXIT),
        _grade_cell("assert n == 2", "after"),
    ])
    _run(nb)
    assert counter.read_text() == "2"  # it was replayed
    assert [o.get("text") for o in nb.cells[0].outputs] == ["run 1\n"]
    assert determine_grade(nb.cells[2]) == (2.0, 2.0)


def test_restarts_are_bounded_then_the_notebook_stops_as_before():
    nb = new_notebook(cells=[new_code_cell("a = 1"), new_code_cell(EXIT), new_code_cell(EXIT),
                             _grade_cell("assert a == 1", "after")])
    _run(nb, max_kernel_restarts=1)
    assert nb.cells[1].outputs[-1].evalue == t("grading.kernel_killed", "ru", cell="cell 2")
    assert nb.cells[2].outputs[-1].ename == "DeadKernelError"  # no restart left
    assert nb.cells[3].outputs[0].ename == "NotRun"
    assert determine_grade(nb.cells[3]) == (0, 2.0)
    assert [i["kind"] for i in issues_of(nb)] == ["crashed", "crashed", "not_run"]


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    course = released_course(tmp_path_factory.mktemp("kernel-restart") / "course", timeout=15)
    sol = reference_solutions(course, EN)
    rel = released(course, EN)
    right = with_answers(rel, sol)
    # l01_ex2's answer cell kills the kernel before it defines the function
    subs = {"k1_exit_in_answer": with_answers(rel, {**sol, "l01_ex2": EXIT + sol["l01_ex2"]})}
    k2 = copy.deepcopy(right)  # a cell of the student's own, between two exercises
    k2.cells.insert(solution_index(k2, "l01_ex2"), new_code_cell(EXIT))
    subs["k2_exit_in_own_cell"] = k2
    subs["k3_correct"] = right
    for student, nb in subs.items():
        submit(course, student, EN, nb, ON_TIME)
    grader_cli(course, "autograde-all", EN, "--jobs", "2", "--quiet")
    nbgrader(course, "generate_feedback", EN)
    nbgrader(course, "export", "--to", str(course / "grades.csv"))
    return course


def _rows(course):
    with open(course / "grades.csv", newline="", encoding="utf-8") as fh:
        return {row["student_id"]: row for row in csv.DictReader(fh)}


def test_exercises_that_do_not_need_the_killing_cell_keep_their_points(course):
    rows = _rows(course)
    got = {s: ({c: rows[s][f"{LESSON}:{c}"] for c in CELLS}, rows[s][f"{LESSON}:status"])
           for s in rows}
    assert got == {
        "k1_exit_in_answer": ({**FULL, "l01_ex2": "0"}, "crashed"),
        "k2_exit_in_own_cell": (FULL, "crashed"),
        "k3_correct": (FULL, "ok"),
    }
    assert rows["k1_exit_in_answer"][f"{LESSON}:score"] == "7"


def test_the_export_and_the_feedback_name_the_cell_that_killed_the_kernel(course):
    rows = _rows(course)
    nb = nbformat.read(course / "autograded" / "k2_exit_in_own_cell" / EN / f"{LESSON}.ipynb",
                       as_version=4)
    killer = next(i for i, c in enumerate(nb.cells) if c.source == EXIT)
    name = f"cell {killer + 1}"
    assert rows["k2_exit_in_own_cell"][f"{LESSON}:notes"] == f"crashed ({name})"
    message = t("grading.kernel_killed", "en", cell=name)
    assert nb.cells[killer].outputs[-1].evalue == message
    feedback = (course / "feedback" / "k2_exit_in_own_cell" / EN / f"{LESSON}.html").read_text(
        encoding="utf-8")
    assert "The kernel died while running this cell" in feedback and name in feedback
