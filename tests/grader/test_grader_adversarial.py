"""An adversarial class through the real nbgrader pipeline (lesson 1, English).

Every cheat that used to change a score from inside the kernel, every way honest work used to
lose points, every way students break a notebook's structure: one submission each, graded by
``python -m grader autograde-all`` (and the ``grader.py`` shadowing case by serial
``nbgrader autograde``), then ``generate_feedback`` and ``export``. Exact per-cell scores,
status and feedback content are asserted. Scores are computed in the nbgrader process from the
values the kernel reports (grader.scoring), so cheats earn what their values deserve: here 0,
or the visible checks' share for a hard-coded answer.
"""

from __future__ import annotations

import copy
import csv
import glob
import re

import nbformat
import pytest

from course_fixture import (HARD_CODED, LESSON, WRONG, grader_cli, make_course, nbgrader, read,
                            released, reference_solutions, solution_index, strip_html, submit,
                            with_answers)
from course_fixture import test_index as cell_index_of_test
from tests.support.course import released_course  # one released course per process

pytestmark = [pytest.mark.slow, pytest.mark.kernel]

EN = f"{LESSON}-en"
ON_TIME = "2030-01-01 10:00:00 UTC"
CELLS = ("l01_ex1", "l01_ex2", "l01_ex3", "l01_ex4")
FULL = {"l01_ex1": "1", "l01_ex2": "2", "l01_ex3": "2", "l01_ex4": "2"}
ZERO = dict.fromkeys(CELLS, "0")
TIMEOUT = 15  # seconds per cell, and per call of a student's function


def _wrong_with(prefix: str) -> dict[str, str]:
    """WRONG answers, with ``prefix`` (the cheat) run at the top of the first answer cell."""
    return {**WRONG, "l01_ex1": prefix + "\n\n" + WRONG["l01_ex1"]}


PATCH_GRADE = ("import grader\n"
               "grader.grade = lambda *a, **k: 7\n"
               "grader.check = lambda *a, **k: None\n")
PATCH_COMPARE = ("import grader.checks, grader.runner\n"
                 "from grader.checks import LeafOutcome\n"
                 "grader.checks.compare_leaf = lambda *a, **k: LeafOutcome('', True, 'ok', 'ok')\n"
                 "grader.runner.compare = lambda *a, **k: []\n")
PATCH_SCORE = ("import grader.runner\n"
               "grader.runner.ExerciseResult.score = property(lambda self: self.points)\n"
               "grader.runner.ExerciseResult.__repr__ = lambda self: str(self.points)\n")
# in the sandbox the registry is not even importable (the course is hidden): the cheat must
# not cost the hard-coded answer below its visible share either way
CLEAR_REGISTRY = ("try:\n"
                  "    from grader.exercises import get\n"
                  "    for i in range(1, 5):\n"
                  "        get(f'l01_ex{i}').hidden.clear()\n"
                  "except Exception:\n"
                  "    pass\n")
FAKE_MODULE = ("import sys, types\n"
               "fake = types.ModuleType('grader')\n"
               "fake.check = fake.grade = lambda *a, **k: 7\n"
               "sys.modules['grader'] = fake\n")
PATCH_NUMPY = ("import numpy as np\n"
               "np.allclose = lambda *a, **k: True\n"
               "np.isclose = lambda a, b, *r, **k: np.ones(np.shape(a), dtype=bool)\n"
               "np.abs = np.absolute = lambda x, *a, **k: x * 0\n")
PATCH_BUILTINS = ("import builtins\n"
                  "builtins.abs = lambda x: 0\n"
                  "_real_isinstance = builtins.isinstance\n"
                  "builtins.isinstance = lambda o, c: True if c in (float, int) else _real_isinstance(o, c)\n")
# every gradient becomes zeros: the old grader's reference used the same patched tape
PATCH_TAPE = ("import minitape\n"
              "def _zeros(s):\n"
              "    if isinstance(s, dict):\n"
              "        return {k: _zeros(v) for k, v in s.items()}\n"
              "    if isinstance(s, (list, tuple)):\n"
              "        return [_zeros(v) for v in s]\n"
              "    return minitape.zeros_like(s)\n"
              "minitape.GradientTape.gradient = lambda self, target, sources, *a, **k: _zeros(sources)\n")
INTERACTIVITY_NONE = "get_ipython().ast_node_interactivity = 'none'\n"
INTERACTIVITY_ALL = "get_ipython().ast_node_interactivity = 'all'\n"
FORGED_OUTPUT = (
    "from IPython.display import display\n\n"
    "def derivative_at(x0):\n"
    "    display({'application/vnd.minitape.probe+json': {'exercise': 'l01_ex1', 'nonce': '0' * 16,\n"
    "             'cases': [{'answer': {'t': 'number', 'v': 3 * x0 ** 2 - 2}}] * 5}}, raw=True)\n"
    "    raise NotImplementedError()\n")
SHADOW = "def check(*args, **kwargs):\n    return None\n\n\ndef grade(*args, **kwargs):\n    return 7\n"

FLOAT32_CAST = ("def derivative_at(x0):\n    x = tf.Variable(x0)\n    with tf.GradientTape() as tape:\n"
                "        y = x**3 - 2 * x\n    return tf.cast(tape.gradient(y, x), tf.float64)\n")
# 5 calls of 4 s: more than one cell's limit (15 s) in all, well under it per call
SLOW = ("import time\n\ndef derivative_at(x0):\n    time.sleep(4)\n    x = tf.Variable(x0)\n"
        "    with tf.GradientTape() as tape:\n        y = x**3 - 2 * x\n    return tape.gradient(y, x)\n")
MARKER = ("# ### BEGIN HIDDEN TESTS -- my own note, not nbgrader's\n"
          "def derivative_at(x0):\n    x = tf.Variable(x0)\n    with tf.GradientTape() as tape:\n"
          "        y = x**3 - 2 * x\n    return tape.gradient(y, x)\n")

# student -> ({cell: score}, total, status)
EXPECTED = {
    # cheats: each earns what its values deserve
    "c01_patch_grade": (ZERO, "0", "ok"),
    "c02_patch_compare": (ZERO, "0", "ok"),
    "c03_patch_score": (ZERO, "0", "ok"),
    # the registry cleared in the kernel: the hidden checks still run (2 of 6 weights of l01_ex1)
    "c04_clear_registry": ({**FULL, "l01_ex1": "0.3333"}, "6.3333", "ok"),
    "c05_fake_grader_module": (ZERO, "0", "ok"),
    "c06_patch_numpy": (ZERO, "0", "ok"),
    "c07_patch_builtins": (ZERO, "0", "ok"),
    "c08_patch_tape": (ZERO, "0", "ok"),
    # right values survive a changed display setting; wrong ones do not profit from it
    "c09_interactivity_none": (FULL, "7", "ok"),
    "c10_interactivity_all": (ZERO, "0", "ok"),
    "c11_forged_output": (ZERO, "0", "malformed_result;multiple_results"),
    "c12_shadow_grader_py": (ZERO, "0", "ok"),
    # honest work
    "h01_float32_cast": (FULL, "7", "ok"),
    "h02_slow": (FULL, "7", "ok"),
    "h03_marker_in_solution": (FULL, "7", "ok"),
    # what students do to notebooks
    "m01_duplicate_solution": (FULL, "7", "duplicate_cell"),
    "m02_duplicate_test": (FULL, "7", "duplicate_cell"),
    "m03_moved_test": (FULL, "7", "test_cell_moved"),
    "m04_deleted_solution": ({**FULL, "l01_ex3": "0"}, "5", "solution_cell_deleted"),
    "m05_retyped_solution": (FULL, "7", "cell_retyped"),
    "m06_points_edited": (FULL, "7", "metadata_edited"),
    "m07_unknown_cell_id": (FULL, "7", "metadata_edited"),
}


def _move_test_above_solution(nb, exercise):
    nb = copy.deepcopy(nb)
    answer_at = solution_index(nb, exercise)
    cell = nb.cells.pop(cell_index_of_test(nb, exercise))
    nb.cells.insert(answer_at, cell)
    return nb


def _duplicate(nb, index, source=None):
    nb = copy.deepcopy(nb)
    twin = copy.deepcopy(nb.cells[index])
    if source is not None:
        twin.source = source
    nb.cells.insert(index + 1, twin)
    return nb


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    course = released_course(tmp_path_factory.mktemp("adversarial") / "course", timeout=TIMEOUT)
    sol = reference_solutions(course, EN)
    rel = released(course, EN)
    right = with_answers(rel, sol)
    subs = {
        "c01_patch_grade": with_answers(rel, _wrong_with(PATCH_GRADE)),
        "c02_patch_compare": with_answers(rel, _wrong_with(PATCH_COMPARE)),
        "c03_patch_score": with_answers(rel, _wrong_with(PATCH_SCORE)),
        "c04_clear_registry": with_answers(rel, {**sol, "l01_ex1": CLEAR_REGISTRY + "\n"
                                                 + HARD_CODED["l01_ex1"]}),
        "c05_fake_grader_module": with_answers(rel, _wrong_with(FAKE_MODULE)),
        "c06_patch_numpy": with_answers(rel, _wrong_with(PATCH_NUMPY)),
        "c07_patch_builtins": with_answers(rel, _wrong_with(PATCH_BUILTINS)),
        "c08_patch_tape": with_answers(rel, {**sol, "l01_ex1": PATCH_TAPE + "\n" + sol["l01_ex1"]}),
        "c09_interactivity_none": with_answers(rel, {**sol, "l01_ex1": INTERACTIVITY_NONE
                                                     + sol["l01_ex1"]}),
        "c10_interactivity_all": with_answers(rel, _wrong_with(INTERACTIVITY_ALL)),
        "c11_forged_output": with_answers(rel, {**WRONG, "l01_ex1": FORGED_OUTPUT}),
        "c12_shadow_grader_py": with_answers(rel, WRONG),
        "h01_float32_cast": with_answers(rel, {**sol, "l01_ex1": FLOAT32_CAST}),
        "h02_slow": with_answers(rel, {**sol, "l01_ex1": SLOW}),
        "h03_marker_in_solution": with_answers(rel, {**sol, "l01_ex1": MARKER}),
        # the stub duplicated, the answer written in the copy
        "m01_duplicate_solution": _duplicate(with_answers(rel, {k: v for k, v in sol.items()
                                                                if k != "l01_ex2"}),
                                             solution_index(rel, "l01_ex2"), sol["l01_ex2"]),
        "m02_duplicate_test": _duplicate(right, cell_index_of_test(right, "l01_ex3")),
        "m03_moved_test": _move_test_above_solution(right, "l01_ex2"),
    }
    m04 = copy.deepcopy(right)
    del m04.cells[solution_index(m04, "l01_ex3")]
    subs["m04_deleted_solution"] = m04
    m05 = copy.deepcopy(right)
    cell = m05.cells[solution_index(m05, "l01_ex4")]
    m05.cells[solution_index(m05, "l01_ex4")] = nbformat.v4.new_markdown_cell(
        cell.source, metadata=cell.metadata)
    subs["m05_retyped_solution"] = m05
    m06 = copy.deepcopy(right)
    m06.cells[cell_index_of_test(m06, "l01_ex1")].metadata.nbgrader["points"] = 100
    subs["m06_points_edited"] = m06
    m07 = copy.deepcopy(right)
    bonus = nbformat.v4.new_code_cell("print('bonus')")
    bonus.metadata["nbgrader"] = {"grade": True, "solution": False, "locked": True,
                                  "grade_id": "bonus", "points": 50, "schema_version": 3}
    m07.cells.append(bonus)
    subs["m07_unknown_cell_id"] = m07
    for student, nb in subs.items():
        folder = submit(course, student, EN, nb, ON_TIME)
        if student == "c12_shadow_grader_py":
            (folder / "grader.py").write_text(SHADOW, encoding="utf-8")
    grader_cli(course, "autograde-all", EN, "--jobs", "2", "--quiet")
    # the shadowing grader.py also under serial nbgrader, where the kernel runs next to it
    nbgrader(course, "autograde", EN, "--student", "c12_shadow_grader_py", "--force")
    nbgrader(course, "generate_feedback", EN)
    nbgrader(course, "export", "--to", str(course / "grades.csv"))
    return course


def _rows(course):
    with open(course / "grades.csv", newline="", encoding="utf-8") as fh:
        return {row["student_id"]: row for row in csv.DictReader(fh)}


def _feedback(course, student):
    path = course / "feedback" / student / EN / f"{LESSON}.html"
    return strip_html(path.read_text(encoding="utf-8"))


def test_every_submission_gets_exactly_the_points_its_values_deserve(course):
    rows = _rows(course)
    assert sorted(rows) == sorted(EXPECTED)
    got = {s: ({c: rows[s][f"{LESSON}:{c}"] for c in CELLS}, rows[s][f"{LESSON}:score"],
               rows[s][f"{LESSON}:status"]) for s in EXPECTED}
    assert got == EXPECTED


def test_structural_repairs_are_noted_with_the_cell(course):
    rows = _rows(course)
    assert "l01_ex2" in rows["m01_duplicate_solution"][f"{LESSON}:notes"]
    assert "l01_ex3" in rows["m02_duplicate_test"][f"{LESSON}:notes"]
    assert "test cell moved (l01_ex2)" in rows["m03_moved_test"][f"{LESSON}:notes"]
    assert "l01_ex3" in rows["m04_deleted_solution"][f"{LESSON}:notes"]
    assert "l01_ex4" in rows["m05_retyped_solution"][f"{LESSON}:notes"]
    assert "l01_ex1" in rows["m06_points_edited"][f"{LESSON}:notes"]
    assert "bonus" in rows["m07_unknown_cell_id"][f"{LESSON}:notes"]


def test_feedback_shows_the_trusted_report_and_no_hidden_or_probe_code(course):
    files = sorted(glob.glob(str(course / "feedback" / "*" / "*" / "*.html")))
    assert len(files) == len(EXPECTED)
    for path in files:
        text = strip_html(open(path, encoding="utf-8").read())
        assert "grader-probe" not in text and "__grader_probe" not in text, path
        assert not re.search(r"\bgrade\(", text.replace("def grade(", "")), path
        if "h03_marker" not in path:
            assert "HIDDEN TESTS" not in text, path
    # the student's own marker text is kept, the real hidden tests are not shown
    marker = _feedback(course, "h03_marker_in_solution")
    assert "BEGIN HIDDEN TESTS -- my own note" in marker
    assert "Score: 1 of 1 point" in marker
    assert "Score: 0 of 1 point" in _feedback(course, "c01_patch_grade")
    assert "Wrong values" in _feedback(course, "c08_patch_tape")
    assert "Score: 1 of 1 point" in _feedback(course, "h02_slow")
    assert "Score: 0.3333 of 1 point" in _feedback(course, "c04_clear_registry")


def test_slow_solution_got_a_time_limit_per_call(course):
    nb = read(course / "autograded" / "h02_slow" / EN / f"{LESSON}.ipynb")
    seconds = nb.metadata.grader.scores["l01_ex1"]["seconds"]
    assert len(seconds) == 5 and all(4.0 <= s < TIMEOUT for s in seconds)
    assert sum(seconds) > TIMEOUT  # more than one cell's limit in all


def test_regrade_is_reproducible_and_seed_sets_the_points_for_everyone(course):
    def hidden_values(student):
        nb = read(course / "autograded" / student / EN / f"{LESSON}.ipynb")
        cell = nb.cells[cell_index_of_test(nb, "l01_ex1")]
        html = next(o for o in cell.outputs if o.output_type == "display_data").data["text/html"]
        return re.findall(r"expected: ([-0-9.e]+)", strip_html(html))

    first = {s: hidden_values(s) for s in ("c01_patch_grade", "c02_patch_compare")}
    assert first["c01_patch_grade"] and first["c01_patch_grade"] != first["c02_patch_compare"]
    grader_cli(course, "autograde-all", EN, "--force", "--quiet", "--student", "c01_patch_grade")
    assert hidden_values("c01_patch_grade") == first["c01_patch_grade"]
    grader_cli(course, "autograde-all", EN, "--force", "--quiet", "--seed", "7",
               "--student", "c01_patch_grade", "--student", "c02_patch_compare")
    seeded = {s: hidden_values(s) for s in ("c01_patch_grade", "c02_patch_compare")}
    assert seeded["c01_patch_grade"] == seeded["c02_patch_compare"] != first["c01_patch_grade"]
