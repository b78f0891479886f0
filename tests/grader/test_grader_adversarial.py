"""An adversarial class through the real nbgrader pipeline (lesson 1, English).

Every cheat that used to change a score from inside the kernel, every way honest work used to
lose points, every way students break a notebook's structure: one submission each, graded by
``python -m grader autograde-all`` (and the ``grader.py`` shadowing case by serial
``nbgrader autograde``), then ``generate_feedback`` and ``export``. Exact per-cell scores,
status and feedback content are asserted. Scores are computed in the nbgrader process from the
values the kernel reports (grader.autograde.scoring), so cheats earn what their values deserve: here 0,
or the visible checks' share for a hard-coded answer.
"""

from __future__ import annotations

import copy
import csv
import glob
import json
import re

import nbformat
import pytest

from tests.support.course import (HARD_CODED, LESSON, WRONG, autograde_summary, grader_cli, make_course, nbgrader, read,
                                  released, released_course, reference_solutions, solution_index,
                                  strip_html, submit, with_answers)
from tests.support.course import test_index as cell_index_of_test
from lesson7_attacks import LESSON1_FORGING_HOOK

pytestmark = [pytest.mark.slow, pytest.mark.kernel]

EN = f"{LESSON}-en"
ON_TIME = "2030-01-01 10:00:00 UTC"
CELLS = ("l01_ex1", "l01_ex2", "l01_ex3", "l01_ex4", "l01_ex5")
FULL = {"l01_ex1": "1", "l01_ex2": "2", "l01_ex3": "2", "l01_ex4": "2", "l01_ex5": "2"}
ZERO = dict.fromkeys(CELLS, "0")
TIMEOUT = 15  # seconds per cell, and per call of a student's function


def _wrong_with(prefix: str) -> dict[str, str]:
    """WRONG answers, with ``prefix`` (the cheat) run at the top of the first answer cell."""
    return {**WRONG, "l01_ex1": prefix + "\n\n" + WRONG["l01_ex1"]}


PATCH_GRADE = ("import grader\n"
               "grader.grade = lambda *a, **k: 7\n"
               "grader.check = lambda *a, **k: None\n")
PATCH_COMPARE = ("import grader.student.checks, grader.student.runner\n"
                 "from grader.student.checks import LeafOutcome\n"
                 "grader.student.checks.compare_leaf = lambda *a, **k: LeafOutcome('', True, 'ok', 'ok')\n"
                 "grader.student.runner.compare = lambda *a, **k: []\n")
PATCH_SCORE = ("import grader.student.runner\n"
               "grader.student.runner.ExerciseResult.score = property(lambda self: self.points)\n"
               "grader.student.runner.ExerciseResult.__repr__ = lambda self: str(self.points)\n")
# in the sandbox the registry is not even importable (the course is hidden): the cheat must
# not cost the hard-coded answer below its visible share either way
CLEAR_REGISTRY = ("try:\n"
                  "    from grader.student.registry import get\n"
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
PRINTS_INPUTS = ("def derivative_at(x0):\n    print('SEEN' + '-INPUT', repr(x0))\n"
                 "    x = tf.Variable(x0)\n    with tf.GradientTape() as tape:\n"
                 "        y = x**3 - 2 * x\n    return tape.gradient(y, x)\n")
FILLS_A_LIST = ("SEEN = []\n\ndef derivative_at(x0):\n    SEEN.append(float(x0))\n"
                "    x = tf.Variable(x0)\n    with tf.GradientTape() as tape:\n"
                "        y = x**3 - 2 * x\n    return tape.gradient(y, x)\n")
ENV_CHECK = ("import os\n\ndef _clean():\n    try:\n"
             "        raw = open('/proc/self/environ', 'rb').read().decode('utf-8', 'replace')\n"
             "    except OSError:\n        raw = ''\n"
             "    return ('GRADER_SEED' not in os.environ and 'GRADER_SEED' not in raw\n"
             "            and os.environ.get('JPY_PARENT_PID') in (None, '', '0', '1'))\n\n"
             "def derivative_at(x0):\n    x = tf.Variable(x0)\n"
             "    with tf.GradientTape() as tape:\n        y = x**3 - 2 * x\n"
             "    g = tape.gradient(y, x)\n    return g if _clean() else g * 0.0\n")
MARKER = ("# ### BEGIN HIDDEN TESTS -- my own note, not nbgrader's\n"
          "def derivative_at(x0):\n    x = tf.Variable(x0)\n    with tf.GradientTape() as tape:\n"
          "        y = x**3 - 2 * x\n    return tape.gradient(y, x)\n")

# student -> ({cell: score}, total, status)
EXPECTED = {
    # cheats: each earns what its values deserve; patching what the probe uses is named for
    # review (issue 36, item 2a)
    "c01_patch_grade": (ZERO, "0", "hooked"),
    "c02_patch_compare": (ZERO, "0", "hooked"),
    "c03_patch_score": (ZERO, "0", "hooked"),
    # the registry cleared in the kernel: the hidden checks still run (2 of 6 weights of l01_ex1);
    # its hard-coded answer has no GradientTape, which l01_ex1 asks for: a note, never points
    "c04_clear_registry": ({**FULL, "l01_ex1": "0.3333"}, "8.3333", "technique"),
    "c05_fake_grader_module": (ZERO, "0", "hooked"),
    "c06_patch_numpy": (ZERO, "0", "hooked"),
    "c07_patch_builtins": (ZERO, "0", "hooked"),
    "c08_patch_tape": ({**ZERO, "l01_ex5": "2"}, "2", "hooked"),  # ex5 needs no tape
    # right values survive a changed display setting; wrong ones do not profit from it
    "c09_interactivity_none": (FULL, "9", "ok"),
    "c10_interactivity_all": (ZERO, "0", "ok"),
    "c11_forged_output": (ZERO, "0", "malformed_result;multiple_results"),
    "c12_shadow_grader_py": (ZERO, "0", "ok"),
    # issue 36, item 2a: a display hook publishes minitape's values for a buggy function. In
    # the student's own kernel (lesson 1 forbids nothing) what the kernel reports is the
    # kernel's word, and these are the right values: the points follow them, and the hook is
    # named for the instructor's review with every exercise it could change
    "c13_output_hook": (FULL, "9", "hooked"),
    # honest work
    "h01_float32_cast": (FULL, "9", "ok"),
    "h02_slow": (FULL, "9", "ok"),
    "h03_marker_in_solution": (FULL, "9", "ok"),
    # issue 24, class F: what a hidden case passes never reaches the student
    "f01_prints_inputs": (FULL, "9", "ok"),
    "f02_later_cell_prints": (FULL, "9", "ok"),
    "f03_env": (FULL, "9", "ok"),
    # what students do to notebooks
    "m01_duplicate_solution": (FULL, "9", "duplicate_cell"),
    "m02_duplicate_test": (FULL, "9", "duplicate_cell"),
    "m03_moved_test": (FULL, "9", "test_cell_moved"),
    "m04_deleted_solution": ({**FULL, "l01_ex3": "0"}, "7", "solution_cell_deleted"),
    "m05_retyped_solution": (FULL, "9", "cell_retyped"),
    "m06_points_edited": (FULL, "9", "metadata_edited"),
    "m07_unknown_cell_id": (FULL, "9", "metadata_edited"),
    # issue 36, item 2c: a cell carrying a probe's metadata is the student's: kept, with its
    # outputs, and with a cell's time limit (not a probe's)
    "m08_probe_metadata_cell": (FULL, "9", "metadata_edited;timed_out"),
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
        "c13_output_hook": with_answers(rel, {**sol, "l01_ex1": LESSON1_FORGING_HOOK + "\n"
                                                       + WRONG["l01_ex1"]}),
        "h01_float32_cast": with_answers(rel, {**sol, "l01_ex1": FLOAT32_CAST}),
        "h02_slow": with_answers(rel, {**sol, "l01_ex1": SLOW}),
        "h03_marker_in_solution": with_answers(rel, {**sol, "l01_ex1": MARKER}),
        "f01_prints_inputs": with_answers(rel, {**sol, "l01_ex1": PRINTS_INPUTS}),
        "f02_later_cell_prints": with_answers(rel, {**sol, "l01_ex1": FILLS_A_LIST,
                                                    "l01_ex2": "print('LEAKED', SEEN)\n\n"
                                                               + sol["l01_ex2"]}),
        "f03_env": with_answers(rel, {**sol, "l01_ex1": ENV_CHECK}),
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
    m08 = copy.deepcopy(right)
    mine = nbformat.v4.new_code_cell(f"import time\ntime.sleep({2 * TIMEOUT})\nprint('MINE-SLEPT')\n")
    mine.metadata["grader_probe"] = {"id": "l01_ex1", "part": "visible", "token": "0" * 16}
    m08.cells.insert(solution_index(m08, "l01_ex1") + 1, mine)
    subs["m08_probe_metadata_cell"] = m08
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
    assert "grader_probe" in rows["m08_probe_metadata_cell"][f"{LESSON}:notes"]
    # the hooks, with the exercises whose reported values they could change
    notes = rows["c13_output_hook"][f"{LESSON}:notes"]
    assert "hooked (" in notes and "l01_ex1, l01_ex2, l01_ex3, l01_ex4" in notes, notes
    assert "json patched" in notes and "IPython patched" in notes, notes


def test_a_cell_with_a_probes_metadata_is_the_students(course):
    nb = read(course / "autograded" / "m08_probe_metadata_cell" / EN / f"{LESSON}.ipynb")
    mine = [c for c in nb.cells if f"time.sleep({2 * TIMEOUT})" in c.get("source", "")]
    assert len(mine) == 1 and "grader_probe" not in mine[0].metadata
    # it ran under the cell's limit (the probe's is several times longer), and was interrupted
    assert any(o.get("output_type") == "error" for o in mine[0].outputs)
    assert "MINE-SLEPT" not in "".join(o.get("text", "") for o in mine[0].outputs)


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
    def hidden_points(student):
        nb = read(course / "autograded" / student / EN / f"{LESSON}.ipynb")
        return nb.metadata.grader.scores["l01_ex1"]["hidden_points"]

    first = {s: hidden_points(s) for s in ("c01_patch_grade", "c02_patch_compare")}
    assert first["c01_patch_grade"] != first["c02_patch_compare"]
    grader_cli(course, "autograde-all", EN, "--force", "--quiet", "--student", "c01_patch_grade")
    assert hidden_points("c01_patch_grade") == first["c01_patch_grade"]
    grader_cli(course, "autograde-all", EN, "--force", "--quiet", "--seed", "7",
               "--student", "c01_patch_grade", "--student", "c02_patch_compare")
    seeded = {s: hidden_points(s) for s in ("c01_patch_grade", "c02_patch_compare")}
    assert seeded["c01_patch_grade"] == seeded["c02_patch_compare"] != first["c01_patch_grade"]


# ------------------------------------------------------------------------------------------
# Issue 24, class F (lesson 1): nothing of a hidden case reaches the student, no seed or host
# PID in the kernel
# ------------------------------------------------------------------------------------------
def _hidden_cases(student, exercise="l01_ex1"):
    """(inputs, expected) of ``student``'s hidden cases, as the trusted side draws them."""
    import numpy as np

    from grader.student.registry import get
    from grader.student.runner import graded_cases, reference_answer
    from grader.autograde.scoring import exercise_seed

    ex = get(exercise)
    seed = exercise_seed(exercise, course="minitape-autodiff", assignment=EN, student=student)
    out = []
    for case, _, hidden, case_seed, _ in graded_cases(ex, "en", True, seed):
        if hidden:
            out.append((case.make(np.random.default_rng(case_seed)).args,
                        reference_answer(ex, case, case_seed)))
    return out


def test_a_failed_hidden_check_shows_neither_its_inputs_nor_its_expected_value(course):
    # what a resubmission would need to be a lookup table built from the first feedback
    from grader.student.checks import fmt_number

    text = _feedback(course, "c03_patch_score")
    assert "Wrong values at a hidden point" in text
    found = []
    for args, expected in _hidden_cases("c03_patch_score"):
        for value in (float(args[0]), float(expected)):
            shown = fmt_number(value)
            if len(shown.strip("-0.")) >= 4 and shown in text:
                found.append(shown)
    assert found == [], found


def test_output_printed_during_hidden_calls_is_not_shown(course):
    text = _feedback(course, "f01_prints_inputs")
    assert "Score: 1 of 1 point" in text
    assert "SEEN-INPUT" not in text


def test_a_later_cell_cannot_see_what_the_probes_passed(course):
    # the probes run after the last cell: the list the function fills is empty when printed
    text = _feedback(course, "f02_later_cell_prints")
    assert "LEAKED []" in text and "Score: 1 of 1 point" in text


def test_the_kernel_sees_no_seed_and_no_host_pid(course):
    # f03 answers right only in a kernel whose environment (os.environ and the process's own
    # /proc/self/environ) has no GRADER_SEED and no host PID in JPY_PARENT_PID
    def score():
        nb = read(course / "autograded" / "f03_env" / EN / f"{LESSON}.ipynb")
        return nb.metadata.grader.scores["l01_ex1"]["score"]

    assert score() == 1
    grader_cli(course, "autograde-all", EN, "--force", "--quiet", "--seed", "3",
               "--student", "f03_env")
    assert score() == 1


# ------------------------------------------------------------------------------------------
# Lesson 7: minitape's autodiff is absent where the graded values are computed (issue 36,
# item 1; issue 24's classes A-E before it); the probe's channel is the student's (item 2);
# honest variety keeps every point and draws no note (item 7)
# ------------------------------------------------------------------------------------------
L7 = "07-build-your-own-tape"
L7_EN = f"{L7}-en"
L7_CELLS = ("l07_ex1", "l07_ex2", "l07_ex3", "l07_ex4", "l07_ex5", "l07_ex6")
L7_FULL = {"l07_ex1": "2", "l07_ex2": "3", "l07_ex3": "2", "l07_ex4": "2", "l07_ex5": "2",
           "l07_ex6": "0"}  # l07_ex6 is optional: 0 points
L7_FLAGS = {"technique", "forged_result", "hooked", "crashed", "metadata_edited"}

from lesson7_attacks import (ALIAS, BY_MINITAPE, CLASS_PATCH, EVENT_HOOK, FORBIDDEN,  # noqa: E402
                             FORGING_HOOK, HAND_FORMULA_HOOK, PERCENT_RUN, RAISES_A_TIMEOUT_NAME, REBIND,
                             STOP_NAMED, mt_backward, searching)
from lesson7_attacks import ZERO as UNCONNECTED_ZERO  # noqa: E402 (not this module's ZERO scores)

# A. the stubs stay; a display hook (and a json spy for the inputs) answers for them
DISPLAY_HOOK = HAND_FORMULA_HOOK

# A. `compile` shadowed in the notebook's globals: the old probe was compiled with it and its
# tool record edited before it was published
SHADOW_COMPILE = (ALIAS + "_real_compile = compile\n\n"
                  "def compile(source, *args, **kwargs):\n"
                  "    if isinstance(source, str):\n"
                  "        source = source.replace('sorted(tools.used | tapes.ops())', '[]')\n"
                  "    return _real_compile(source, *args, **kwargs)\n\n" + mt_backward())
# A. the record edited from inside the call, through the caller's frame
GETFRAME = ("import sys\n" + ALIAS + mt_backward(
    extra="try:\n        sys._getframe(1).f_locals['tools'].used.clear()\n"
          "    except Exception:\n        pass\n    "))
# B. ways around a run-time record: jacobian, a method captured at module level, __wrapped__
CAPTURED = (ALIAS + "_grad = tf.GradientTape.gradient\n\n" + mt_backward(
    f"_grad(gt, env[target], [env[n] for n in names], unconnected_gradients={UNCONNECTED_ZERO})"))
WRAPPED = ALIAS + mt_backward(
    f"getattr(GT.gradient, '__wrapped__', GT.gradient)(gt, env[target], [env[n] for n in names], "
    f"unconnected_gradients={UNCONNECTED_ZERO})")
# C. a decoy definition, then a rebinding to what really runs
DECOY = ("def backward(tape, values, target):\n    return {name: 0.0 for name in values}\n\n"
         + BY_MINITAPE + "\nbackward = _by_minitape\n")


def _l7_answers(sol):
    ex1 = sol["l07_ex1"]
    own = ex1[ex1.index("def quotient_gradients"):]
    helpers = ex1[:ex1.index("def quotient_gradients")]
    # C. the own tape on the visible points only, a hand-derived formula elsewhere
    visible_only = (helpers + "import math as _m\n\n"
                    + own.replace("def quotient_gradients(a0, b0):",
                                  "def _taped(a0, b0):")
                    + "\n\ndef quotient_gradients(a0, b0):\n"
                      "    if (a0, b0) in ((0.5, 2.0), (-1.0, 0.75)):\n"
                      "        return _taped(a0, b0)\n"
                      "    s = _m.sin(a0 * b0)\n"
                      "    return [-s, -a0 * s / b0 - _m.cos(a0 * b0) / b0 ** 2]\n")
    # E. a switched-off debug branch that mentions GradientTape, a helper, a lambda
    debug_lambda = (helpers + "DEBUG = False\n\n"
                    + own.replace("def quotient_gradients(a0, b0):", "def _quotient(a0, b0):")
                    .replace("    return tape.gradient(f, [a, b])",
                             "    if DEBUG:\n"
                             "        import minitape as tf\n"
                             "        with tf.GradientTape() as check_tape:\n"
                             "            pass\n"
                             "    return tape.gradient(f, [a, b])")
                    + "\n\nquotient_gradients = lambda a0, b0: _quotient(a0, b0)\n")
    # E. a plain Python 0 where the answers are plain numbers
    zero_int = sol["l07_ex2"].replace("{name: 0.0 for name in values}", "{name: 0 for name in values}")
    assert zero_int != sol["l07_ex2"] and "_quotient" in debug_lambda and "_taped" in visible_only
    return helpers, own, visible_only, debug_lambda, zero_int


def _honest_variety(sol, helpers, own):
    """Every exercise answered honestly in another shape: an alias of the lesson's Tape, a
    class, a closure, a helper in a cell of its own, a default resolved at the top."""
    ex1 = helpers + "MyTape = Tape\n\n" + own.replace("Tape()", "MyTape()")
    ex2 = ("class Sweep:\n    def __init__(self, tape, values):\n"
           "        self.tape, self.values = tape, values\n\n"
           "    def run(self, target):\n        return _solution_backward(self.tape, self.values, target)\n\n\n"
           + sol["l07_ex2"].replace("def backward(", "def _solution_backward(")
           + "\n\ndef backward(tape, values, target):\n    return Sweep(tape, values).run(target)\n")
    ex3 = sol["l07_ex3"].replace("def neuron_gradients(", "def _neuron(")
    ex3 += ("\n\ndef _factory():\n    def neuron_gradients(w1, w2, b, x1, x2, y):\n"
            "        return _neuron(w1, w2, b, x1, x2, y)\n    return neuron_gradients\n\n\n"
            "neuron_gradients = _factory()\n")
    ex4 = ("def linear_hinge_gradients(w1, w2, b, xs, ys, alpha):\n"
           "    return _hinge_helper(w1, w2, b, xs, ys, alpha)\n")
    helper4 = sol["l07_ex4"].replace("def linear_hinge_gradients(", "def _hinge_helper(")
    ex5 = sol["l07_ex5"].replace("kit=OURS):", "kit=None):\n    if kit is None:\n        kit = OURS")
    assert ex5 != sol["l07_ex5"] and "MyTape()" in ex1
    return {**sol, "l07_ex1": ex1, "l07_ex2": ex2, "l07_ex3": ex3, "l07_ex4": ex4,
            "l07_ex5": ex5}, helper4


def _insert_after(nb, index, *sources, metadata=None):
    nb = copy.deepcopy(nb)
    for offset, source in enumerate(sources):
        cell = nbformat.v4.new_code_cell(source)
        if metadata:
            cell.metadata.update(copy.deepcopy(metadata[offset]))
        nb.cells.insert(index + 1 + offset, cell)
    return nb


def _with_answer(sol, exercise, code):
    return {**sol, exercise: code}


# student -> ({cell: score}, total, issue kinds the export must note, of L7_FLAGS)
_ZERO2 = {**L7_FULL, "l07_ex2": "0"}
L7_EXPECTED = {
    # D. untouched: no points
    "d01_untouched": (dict.fromkeys(L7_CELLS, "0"), "0", set()),
    "e01_solution": (L7_FULL, "11", set()),
    # A. answers forged for a stub that always raises: 0, flagged, the hooks named
    "a01_display_hook": (dict.fromkeys(L7_CELLS, "0"), "0", {"forged_result", "hooked"}),
    # A/B/C: right values by minitape's autodiff, which the kernel that computes the graded
    # values does not have: 0 for that exercise; the reading's note stays for the instructor
    "a02_shadow_compile": (_ZERO2, "8", {"technique", "hooked"}),
    "a03_getframe": (_ZERO2, "8", {"technique"}),
    "b01_jacobian": (_ZERO2, "8", {"technique"}),
    "b02_captured_method": (_ZERO2, "8", {"technique"}),
    "b03_wrapped": (_ZERO2, "8", {"technique"}),
    "c01_decoy_then_rebinding": (_ZERO2, "8", {"technique"}),
    # C. no minitape in it: right values earn their points, the missing tape is noted
    "c02_own_tape_on_visible_only": (L7_FULL, "11", {"technique"}),
    # issue 36, item 1: every door to minitape's autodiff found this week
    "g01_for_target": (_ZERO2, "8", {"technique"}),
    "g02_walrus": (_ZERO2, "8", {"technique"}),
    "g03_main_attribute": (_ZERO2, "8", {"technique"}),
    "g04_percent_run": (_ZERO2, "8", {"technique", "hooked"}),
    "g05_method_on_a_class": (_ZERO2, "8", {"technique"}),
    "g06_event_hook": (_ZERO2, "8", {"technique", "hooked"}),
    "g07_names_from_strings": ({**_ZERO2, "l07_ex1": "0"}, "6", {"technique"}),
    "g08_kill_so_the_replay_drops_it": (_ZERO2, "8", {"technique", "crashed"}),
    "g09_minimize": ({**L7_FULL, "l07_ex5": "0"}, "9", {"technique"}),
    # item 2: a forging output hook has nothing to compute with (the buggy function's own
    # score, the same as without the hook: g10b), and it is named for review
    "g10_forging_hook_on_a_bug": (None, None, {"hooked"}),
    "g10b_the_bug_alone": (None, None, set()),
    # item 2b: an exception named like a stop reason is the student's: its text stays out of
    # feedback, and two of them in a row stop nothing
    "g11_stop_named_exceptions": (_ZERO2, "8", set()),
    # item 2c: cells carrying the grader's metadata are the student's, kept with their outputs
    "g12_grader_metadata": (L7_FULL, "11", {"metadata_edited"}),
    # item 1: in the kernel that grades, nothing of the tool can be found or imported
    # (its search reads files and imports by name: code a reading does not follow, noted)
    "w01_searches_for_the_tool": (L7_FULL, "11", {"technique", "hooked"}),
    # E. honest variety: every point, no note
    "e02_debug_branch_and_lambda": (L7_FULL, "11", set()),
    "e03_plain_zero": (L7_FULL, "11", set()),
    "e04_aliases_classes_closures_helpers": (L7_FULL, "11", set()),
    "e05_magics_and_scratch_cells": (L7_FULL, "11", set()),
}
L7_NOTES = {  # what the notes say, per student
    "a01_display_hook": ["forged result (l07_ex1)", "always raises", "hooked (l07_ex1_solution)",
                         "IPython patched", "l07_ex1, l07_ex2"],
    "a02_shadow_compile": ["technique (l07_ex2)", "minitape's automatic differentiation",
                           "compile defined in the notebook"],
    "a03_getframe": ["technique (l07_ex2)", "minitape's automatic differentiation", "_getframe"],
    "b01_jacobian": ["technique (l07_ex2)", "minitape's automatic differentiation"],
    # the cell stopped at its first line in the world (GradientTape.gradient is not there)
    "b02_captured_method": ["technique (l07_ex2)", "minitape's automatic differentiation",
                            "was not defined in the kernel without the tool"],
    "b03_wrapped": ["technique (l07_ex2)", "minitape's automatic differentiation"],
    "c01_decoy_then_rebinding": ["technique (l07_ex2)", "minitape's automatic differentiation"],
    "c02_own_tape_on_visible_only": ["technique (l07_ex1)", "only on some paths"],
    "g01_for_target": ["technique (l07_ex2)", "minitape's automatic differentiation"],
    "g02_walrus": ["technique (l07_ex2)", "minitape's automatic differentiation"],
    "g03_main_attribute": ["technique (l07_ex2)", "__main__", "review by hand"],
    "g04_percent_run": ["technique (l07_ex2)", "%run", "hooked ("],
    "g05_method_on_a_class": ["technique (l07_ex2)", "minitape's automatic differentiation"],
    "g06_event_hook": ["technique (l07_ex2)", "get_ipython()", "hooked (", "IPython's shell"],
    "g07_names_from_strings": ["technique (l07_ex1)", "technique (l07_ex2)", "getattr",
                               "attrgetter"],
    "g08_kill_so_the_replay_drops_it": ["crashed (cell", "technique (l07_ex2)",
                                        "minitape's automatic differentiation"],
    "g09_minimize": ["technique (l07_ex5)", "minitape's automatic differentiation"],
    "g10_forging_hook_on_a_bug": ["hooked (", "json patched", "l07_ex1"],
    "g12_grader_metadata": ["metadata edited", "grader_probe", "metadata.grader"],
}


@pytest.fixture(scope="module")
def course7(tmp_path_factory):
    course = make_course(tmp_path_factory.mktemp("adversarial7"), langs=("en",), timeout=60,
                         lessons=(L7,))
    nbgrader(course, "generate_assignment", L7_EN)
    sol = reference_solutions(course, L7_EN, lesson=L7)
    rel = released(course, L7_EN, lesson=L7)
    stub1 = rel.cells[solution_index(rel, "l07_ex1")].source
    helpers, own, visible_only, debug_lambda, zero_int = _l7_answers(sol)
    right = with_answers(rel, sol)
    ex1_at, ex2_at = solution_index(rel, "l07_ex1"), solution_index(rel, "l07_ex2")
    honest2 = sol["l07_ex2"] + "\n\n"
    buggy1 = helpers + own.replace("return tape.gradient(f, [a, b])",
                                   "da, db = tape.gradient(f, [a, b])\n    return [da, -db]")
    assert buggy1 != helpers + own
    variety, helper4 = _honest_variety(sol, helpers, own)
    subs = {
        "d01_untouched": rel,
        "e01_solution": right,
        "a01_display_hook": with_answers(rel, {"l07_ex1": DISPLAY_HOOK + "\n" + stub1}),
        "a02_shadow_compile": with_answers(rel, _with_answer(sol, "l07_ex2", SHADOW_COMPILE)),
        "a03_getframe": with_answers(rel, _with_answer(sol, "l07_ex2", GETFRAME)),
        "b01_jacobian": with_answers(rel, _with_answer(sol, "l07_ex2", FORBIDDEN["l07_ex2 (jacobian)"])),
        "b02_captured_method": with_answers(rel, _with_answer(sol, "l07_ex2", CAPTURED)),
        "b03_wrapped": with_answers(rel, _with_answer(sol, "l07_ex2", WRAPPED)),
        "c01_decoy_then_rebinding": with_answers(rel, _with_answer(sol, "l07_ex2", DECOY)),
        "c02_own_tape_on_visible_only": with_answers(rel, _with_answer(sol, "l07_ex1", visible_only)),
        "g01_for_target": with_answers(rel, _with_answer(
            sol, "l07_ex2", honest2 + BY_MINITAPE + "\n" + REBIND["for_target"])),
        "g02_walrus": with_answers(rel, _with_answer(
            sol, "l07_ex2", honest2 + BY_MINITAPE + "\n" + REBIND["walrus"])),
        "g03_main_attribute": with_answers(rel, _with_answer(
            sol, "l07_ex2", honest2 + BY_MINITAPE + "\n" + REBIND["main_attribute"])),
        "g04_percent_run": with_answers(rel, _with_answer(sol, "l07_ex2", honest2 + PERCENT_RUN)),
        "g05_method_on_a_class": with_answers(rel, _with_answer(sol, "l07_ex2", CLASS_PATCH)),
        "g06_event_hook": with_answers(rel, _with_answer(sol, "l07_ex2", honest2 + EVENT_HOOK)),
        "g07_names_from_strings": with_answers(rel, {**sol, "l07_ex1": helpers + FORBIDDEN["l07_ex1"],
                                                     "l07_ex2": FORBIDDEN["l07_ex2"]}),
        # the forbidden backward, then a cell with the honest one that kills the kernel: the
        # kernel keeps the first (the replay drops the killing cell), the notebook reads honest
        "g08_kill_so_the_replay_drops_it": _insert_after(
            with_answers(rel, _with_answer(sol, "l07_ex2", ALIAS + mt_backward())), ex2_at,
            honest2 + "import os\nos._exit(0)\n"),
        "g09_minimize": with_answers(rel, _with_answer(sol, "l07_ex5", FORBIDDEN["l07_ex5"])),
        "g10_forging_hook_on_a_bug": with_answers(rel, _with_answer(sol, "l07_ex1",
                                                                    FORGING_HOOK + "\n" + buggy1)),
        "g10b_the_bug_alone": with_answers(rel, _with_answer(sol, "l07_ex1", buggy1)),
        "g11_stop_named_exceptions": _insert_after(
            with_answers(rel, _with_answer(sol, "l07_ex2", STOP_NAMED)), ex1_at,
            RAISES_A_TIMEOUT_NAME, RAISES_A_TIMEOUT_NAME),
        "g12_grader_metadata": _insert_after(
            right, ex1_at, "print('MY-OWN-CELL-1')\n", "print('MY-OWN-CELL-2')\n",
            metadata=[{"grader_probe": "l07_ex6"},
                      {"grader_probe": {"id": "l07_ex1", "part": "visible", "token": "0" * 16},
                       "grader": {"note": "mine"}}]),
        "w01_searches_for_the_tool": with_answers(rel, _with_answer(sol, "l07_ex1",
                                                                    searching(helpers + own))),
        "e02_debug_branch_and_lambda": with_answers(rel, _with_answer(sol, "l07_ex1", debug_lambda)),
        "e03_plain_zero": with_answers(rel, _with_answer(sol, "l07_ex2", zero_int)),
        "e04_aliases_classes_closures_helpers": _insert_after(
            with_answers(rel, variety), solution_index(rel, "l07_ex4") - 1, helper4),
        "e05_magics_and_scratch_cells": _insert_after(
            right, ex1_at, "%matplotlib inline\n%timeit -n 1 -r 1 quotient_gradients(0.5, 2.0)\n",
            "x_tf = tf.Variable(0.5)\nwith tf.GradientTape() as scratch:\n    y_tf = tf.cos(x_tf)\n"
            "print('minitape says', float(scratch.gradient(y_tf, x_tf)))\n"),
    }
    subs["g12_grader_metadata"].metadata["grader"] = {
        "scores": {"l07_ex1": {"score": 2, "points": 2}, "bonus": {"score": 50, "points": 50}},
        "issues": [{"kind": "technique", "cell": "l07_ex3", "detail": "planted"}]}
    assert sorted(subs) == sorted(L7_EXPECTED)
    for student, nb in subs.items():
        submit(course, student, L7_EN, nb, ON_TIME, lesson=L7)
    grader_cli(course, "autograde-all", L7_EN, "--jobs", "2", "--quiet")
    nbgrader(course, "generate_feedback", L7_EN)
    nbgrader(course, "export", "--to", str(course / "grades.csv"))
    return course


def _rows7(course7):
    with open(course7 / "grades.csv", newline="", encoding="utf-8") as fh:
        return {row["student_id"]: row for row in csv.DictReader(fh)}


def _feedback7(course7, student):
    path = course7 / "feedback" / student / L7_EN / f"{L7}.html"
    return strip_html(path.read_text(encoding="utf-8"))


def test_lesson7_forbidden_tool_earns_nothing_and_honest_variety_everything(course7):
    rows = _rows7(course7)
    assert sorted(rows) == sorted(L7_EXPECTED)
    got, want = {}, {}
    for student, (cells, total, kinds) in L7_EXPECTED.items():
        row = rows[student]
        status = set(row[f"{L7}:status"].split(";"))
        got[student] = ({c: row[f"{L7}:{c}"] for c in L7_CELLS} if cells else None,
                        row[f"{L7}:score"] if total else None, status & L7_FLAGS)
        want[student] = (cells, total, kinds)
    assert got == want
    for student, words in L7_NOTES.items():
        notes = rows[student][f"{L7}:notes"]
        for word in words:
            assert word in notes, (student, word, notes)


def test_lesson7_an_output_hook_has_nothing_to_forge_with(course7):
    rows = _rows7(course7)
    hooked, alone = (rows[s][f"{L7}:l07_ex1"] for s in ("g10_forging_hook_on_a_bug",
                                                          "g10b_the_bug_alone"))
    assert hooked == alone and 0 < float(alone) < 2, (hooked, alone)


def test_lesson7_nothing_of_the_tool_is_found_where_the_values_are_computed(course7):
    # the student's kernel (where the lesson's cells ran, with minitape's autodiff) found it:
    # the search is not vacuous; the kernel that computed l07_ex1 found nothing (full points)
    nb = read(course7 / "autograded" / "w01_searches_for_the_tool" / L7_EN / f"{L7}.ipynb")
    cell = nb.cells[solution_index(nb, "l07_ex1")]
    text = "".join(o.get("text", "") for o in cell.get("outputs", []))
    line = next(ln for ln in text.splitlines() if ln.startswith("SEARCH: "))
    import json

    found = json.loads(line[len("SEARCH: "):])
    assert any(path.endswith("minitape/_tape.py") for path in found["found"]), found
    assert nb.metadata.grader.scores["l07_ex1"]["score"] == 2


def test_lesson7_stop_reasons_come_from_the_trusted_side(course7):
    text = _feedback7(course7, "g11_stop_named_exceptions")
    assert 'SECRET-" + repr' in text  # the student's own code is shown ...
    assert "SECRET-[" not in text      # ... never what it raised with the probe's arguments
    rows = _rows7(course7)
    # two student cells raising an exception named CellTimeoutError in a row: no timeout, and
    # nothing after them was stopped
    assert "timed_out" not in rows["g11_stop_named_exceptions"][f"{L7}:status"]
    assert "not_run" not in rows["g11_stop_named_exceptions"][f"{L7}:status"]


def test_lesson7_cells_with_grader_metadata_stay_the_students(course7):
    nb = read(course7 / "autograded" / "g12_grader_metadata" / L7_EN / f"{L7}.ipynb")
    texts = ["".join(o.get("text", "") for o in c.get("outputs", [])) for c in nb.cells]
    assert any("MY-OWN-CELL-1" in t for t in texts) and any("MY-OWN-CELL-2" in t for t in texts)
    assert not any("grader_probe" in c.metadata or "grader" in c.metadata for c in nb.cells)
    assert set(nb.metadata.grader.scores) == set(L7_CELLS)  # the planted "bonus" is gone
    assert not any(i.get("detail") == "planted" for i in nb.metadata.grader.issues)
    assert "MY-OWN-CELL-1" in _feedback7(course7, "g12_grader_metadata")


def test_lesson7_notes_stay_with_the_instructor(course7):
    for student in L7_EXPECTED:
        text = _feedback7(course7, student)
        for phrase in ("asked for", "asked not to use", "reaches it", "review by hand",
                       "could change what the kernel reported"):
            assert phrase not in text, (student, phrase)
    forged = _feedback7(course7, "a01_display_hook")
    assert "did not come from your function" in forged
    # what a student who used the forbidden tool reads: why, in the visible checks
    assert "is not available here" in _feedback7(course7, "b01_jacobian")
    assert "was not defined where this exercise is graded" in _feedback7(course7, "b02_captured_method")


# ------------------------------------------------------------------------------------------
# Issue 36, classes 3 and 4, issue 43 item 2: every notebook Jupyter can open is graded (its
# oddities repaired and noted, never a reason to give up on the submission); extreme values
# earn nothing; an exercise whose cells were deleted costs that exercise only
# ------------------------------------------------------------------------------------------
KERNEL_SENDS_ODD_TEXT = (  # a kernel's own messages: half a surrogate pair, an output nbformat refuses
    "import IPython as _ip\n"
    "_k = _ip.get_ipython().kernel\n"
    "for _content in (b'{\"data\": {\"text/plain\": \"\\\\ud83d sent raw\"}, \"metadata\": {}}',\n"
    "                 b'{\"data\": {\"application/x-new\": 1}, \"metadata\": {}}'):\n"
    "    _k.session.send(_k.iopub_socket, 'display_data', ident=b'display_data',\n"
    "                    parent=_k.get_parent('shell'), content=_content)\n")
OVERFLOW = {
    "l01_ex1": "def derivative_at(x0):\n    return tf.constant(1.79e308, dtype=tf.float64)\n",
    "l01_ex2": "def mse_gradients(w, b, x, y_true):\n    return [tf.ones_like(w) * 1.79e308, tf.ones_like(b) * 1.79e308]\n",
    "l01_ex3": "def gradients_by_name(params, x):\n    return {k: tf.ones_like(v) * 1.79e308 for k, v in params.items()}\n",
    "l01_ex4": "def dense_gradients(layer, x):\n    return [tf.ones_like(v) * 1.79e308 for v in layer.trainable_variables]\n",
    "l01_ex5": "def gradient_check(f, x, grad, v):\n    return [1.79e308, 1.79e308, 1.79e308]\n",
}
BIG_INT = "def derivative_at(x0):\n    # exact arithmetic, honestly overflowing any float\n    return 10 ** 400\n"


def _json(nb) -> dict:
    data = json.loads(nbformat.writes(nb))
    for cell in data["cells"]:
        cell["source"] = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    return data


def _bytes(data: dict, **kw) -> bytes:
    return json.dumps(data, indent=1, **kw).encode("utf-8")


def _at(data: dict, grade_id: str) -> int:
    return next(i for i, c in enumerate(data["cells"])
                if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == grade_id)


def _without(data: dict, *grade_ids: str) -> dict:
    data = copy.deepcopy(data)
    data["cells"] = [c for c in data["cells"]
                     if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") not in grade_ids]
    return data


def _oddities(rel, sol) -> dict[str, bytes]:
    """student -> the bytes of a notebook Jupyter (or another front end, or an editor) saves."""
    right = _json(with_answers(rel, sol))

    def edited(change) -> dict:
        data = copy.deepcopy(right)
        change(data)
        return data

    def surrogates(d):
        d["cells"][_at(d, "l01_ex1_solution")]["source"] = (
            "# half an emoji pasted from a chat: \ud83d\n" + sol["l01_ex1"])
        d["cells"][0]["source"] += " \udc00"
        d["cells"][_at(d, "l01_ex2_solution")]["metadata"]["note \ud83d"] = "\ud83d"

    def newer_schema(d):
        d["cells"][_at(d, "l01_ex2")]["metadata"]["nbgrader"]["schema_version"] = 4
        d["cells"][_at(d, "l01_ex3_solution")]["metadata"]["nbgrader"]["from_a_newer_nbgrader"] = 1

    def cells_of_every_shape(d):
        d["cells"].insert(1, {"cell_type": "markdown", "metadata": {}, "id": "att",
                              "source": "![plot](attachment:p.png)",
                              "attachments": {"p.png": {"image/png": "iVBORw0KGgo="}}})
        d["cells"].insert(2, {"cell_type": "raw", "metadata": {}, "id": "raw", "source": "raw"})
        d["cells"].insert(3, {"cell_type": "heading", "level": 2, "metadata": {}, "id": "old",
                              "source": "An nbformat 3 heading"})
        del d["cells"][4]["metadata"]
        d["cells"][_at(d, "l01_ex1_solution")]["outputs"] = [
            {"output_type": "weird"}, {"output_type": "display_data", "metadata": {},
                                       "data": {"application/x-new": {"a": [1]}}}]
        d["cells"][_at(d, "l01_ex1_solution")]["execution_count"] = "seven"
        d["cells"][_at(d, "l01_ex2_solution")]["outputs"] = [
            {"output_type": "stream", "name": "stdout", "text": "x" * 20_000_000}]

    def ids(d, minor, value=None):
        d["nbformat_minor"] = minor
        for cell in d["cells"]:
            cell.pop("id", None) if value is None else cell.__setitem__("id", value)

    latin = copy.deepcopy(right)
    latin["cells"][_at(latin, "l01_ex1_solution")]["source"] = "# caf\u00e9\n" + sol["l01_ex1"]
    return {
        "r01_newer_schema": _bytes(edited(newer_schema)),
        "r02_half_surrogates": _bytes(edited(surrogates), ensure_ascii=True),
        "r03_big_int": _bytes(_json(with_answers(rel, {**sol, "l01_ex1": BIG_INT}))),
        "r04_bom_and_crlf": b"\xef\xbb\xbf" + _bytes(right).replace(b"\\n", b"\\r\\n").replace(b"\n", b"\r\n"),
        "r05_utf16": json.dumps(right, indent=1, ensure_ascii=False).encode("utf-16"),
        "r06_not_utf8": json.dumps(latin, indent=1, ensure_ascii=False).encode("latin-1", "replace"),
        "r07_nbformat3": nbformat.writes(nbformat.convert(with_answers(rel, sol), 3)).encode(),
        "r08_no_ids": _bytes(edited(lambda d: ids(d, 4))),
        "r09_duplicate_ids_newer_minor": _bytes(edited(lambda d: ids(d, 99, "same"))),
        "r10_cells_of_every_shape": _bytes(edited(cells_of_every_shape)),
        "r11_kernel_sends_odd_text": _bytes(_json(with_answers(rel, {
            **sol, "l01_ex2": sol["l01_ex2"] + "\n" + KERNEL_SENDS_ODD_TEXT}))),
        "r12_overflow": _bytes(_json(with_answers(rel, OVERFLOW))),
        "r13_deleted_ex1": _bytes(_without(right, "l01_ex1", "l01_ex1_solution")),
        "r14_deleted_ex3_ex4": _bytes(_without(right, "l01_ex3", "l01_ex3_solution",
                                               "l01_ex4", "l01_ex4_solution")),
    }


# student -> ({cell: score}, total, status, words the notes must hold)
ODD_EXPECTED = {
    "r01_newer_schema": (FULL, "9", "metadata_edited", ["metadata edited (l01_ex2)"]),
    "r02_half_surrogates": (FULL, "9", "ok", ["half a UTF-16 surrogate pair"]),
    "r03_big_int": ({**FULL, "l01_ex1": "0"}, "8", "malformed_result;technique", ["malformed result (l01_ex1)"]),
    "r04_bom_and_crlf": (FULL, "9", "ok", ["byte-order mark (utf-8)", "CR LF"]),
    "r05_utf16": (FULL, "9", "ok", ["byte-order mark (utf-16)"]),
    "r06_not_utf8": (FULL, "9", "ok", ["not UTF-8"]),
    "r07_nbformat3": (FULL, "9", "ok", ["nbformat 3 converted to 4"]),
    "r08_no_ids": (FULL, "9", "ok", []),
    "r09_duplicate_ids_newer_minor": (FULL, "9", "ok", ["nbformat 4.99 read as 4.5"]),
    "r10_cells_of_every_shape": (FULL, "9", "ok", ["read as a raw cell"]),
    "r11_kernel_sends_odd_text": (FULL, "9", "ok", []),
    "r12_overflow": (ZERO, "0", "technique", []),
    # issue 43, item 2: 0 of 7 (not_autograded) before; exercise 5 came since
    "r13_deleted_ex1": ({**FULL, "l01_ex1": "0"}, "8", "test_cell_restored;solution_cell_deleted",
                        ["test cell restored (l01_ex1)", "solution cell deleted (l01_ex1_solution)"]),
    "r14_deleted_ex3_ex4": ({**FULL, "l01_ex3": "0", "l01_ex4": "0"}, "5",
                            "test_cell_restored;solution_cell_deleted", ["(l01_ex4_solution)"]),
}


@pytest.fixture(scope="module")
def odd_course(tmp_path_factory):
    course = released_course(tmp_path_factory.mktemp("oddities") / "course", timeout=TIMEOUT)
    sol, rel = reference_solutions(course, EN), released(course, EN)
    for student, data in _oddities(rel, sol).items():
        folder = submit(course, student, EN, rel, ON_TIME)
        (folder / f"{LESSON}.ipynb").write_bytes(data)
    out = grader_cli(course, "autograde-all", EN, "--jobs", "2", "--quiet").stdout
    nbgrader(course, "generate_feedback", EN)
    nbgrader(course, "export", "--to", str(course / "grades.csv"))
    return course, out


def test_every_notebook_jupyter_opens_is_graded_and_its_oddities_noted(odd_course):
    course, out = odd_course
    summary = autograde_summary(out, EN)
    assert (summary["graded"], summary["failed"]) == (len(ODD_EXPECTED), 0), out
    rows = _rows(course)
    got = {s: ({c: rows[s][f"{LESSON}:{c}"] for c in CELLS}, rows[s][f"{LESSON}:score"],
               rows[s][f"{LESSON}:status"]) for s in ODD_EXPECTED}
    assert got == {s: want[:3] for s, want in ODD_EXPECTED.items()}
    for student, (*_, words) in ODD_EXPECTED.items():
        for word in words:
            assert word in rows[student][f"{LESSON}:notes"], (student, rows[student][f"{LESSON}:notes"])


def test_what_was_repaired_is_written_as_strict_utf8_and_shown_to_the_student(odd_course):
    course, _ = odd_course
    for student in ODD_EXPECTED:
        raw = (course / "autograded" / student / EN / f"{LESSON}.ipynb").read_bytes()
        text = raw.decode("utf-8")  # strict: no lone surrogate, no stray byte
        json.loads(text, parse_constant=lambda c: pytest.fail(f"{student}: {c} in the notebook"))
        feedback = (course / "feedback" / student / EN / f"{LESSON}.html").read_bytes().decode("utf-8")
        assert "Score:" in feedback, student
    surrogate = _feedback(course, "r02_half_surrogates")
    assert "half an emoji pasted from a chat: \ufffd" in surrogate
    odd = read(course / "autograded" / "r11_kernel_sends_odd_text" / EN / f"{LESSON}.ipynb")
    texts = [o.get("text", "") for c in odd.cells for o in c.get("outputs", [])]
    assert any("\ufffd sent raw" in str(o.get("data", {})) for c in odd.cells for o in c.get("outputs", []))
    assert any("could not be read and was dropped" in t for t in texts)


def test_an_exercise_deleted_with_its_test_cell_comes_back_from_the_release_commented_out(odd_course):
    course, _ = odd_course
    nb = read(course / "autograded" / "r13_deleted_ex1" / EN / f"{LESSON}.ipynb")
    answer = nb.cells[solution_index(nb, "l01_ex1")]
    assert answer.source.startswith("# This answer cell (id:l01_ex1_solution) was missing")
    assert all(line.startswith("#") for line in answer.source.splitlines())
    assert "Score: 0 of 1 point" in _feedback(course, "r13_deleted_ex1")
    assert "Score: 2 of 2 points" in _feedback(course, "r13_deleted_ex1")
