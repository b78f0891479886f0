"""Build a real nbgrader course from lesson 1 and simulated student submissions.

Used by the grader's end-to-end tests and by ``benchmarks/autograde_parallel.py``. The course is a copy
of ``grader/course`` (its ``nbgrader_config.py`` and the lesson's source notebooks, generated
by ``python -m lessons build``); submissions are the released notebook with solution or test
cells rewritten the way students do.
"""

from __future__ import annotations

import copy
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parents[2]
LESSON = "01-gradients"
PACKAGED_COURSE = REPO / "grader" / "course"


def env() -> dict:
    """Environment for nbgrader and its kernels: the repository importable, no stray language."""
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in e.get("PYTHONPATH", "").split(os.pathsep) if p])
    for key in ("MINITAPE_LANG", "JPY_SESSION_NAME", "GRADER_SEED"):
        e.pop(key, None)
    return e


def make_course(root: Path, langs=("en", "ru"), timeout: int | None = None,
                lessons=(LESSON,)) -> Path:
    """A course folder: the packaged nbgrader_config.py (+ overrides) and the sources of
    ``lessons`` (lesson 1 by default)."""
    root.mkdir(parents=True, exist_ok=True)
    config = (PACKAGED_COURSE / "nbgrader_config.py").read_text(encoding="utf-8")
    if timeout is not None:
        config += f"\nc.Execute.timeout = {int(timeout)}\n"
    (root / "nbgrader_config.py").write_text(config, encoding="utf-8")
    # the instructor's exercise definitions, as `python -m grader init-course` copies them
    shutil.copytree(PACKAGED_COURSE / "definitions", root / "definitions",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for lesson in lessons:
        for lang in langs:
            src = PACKAGED_COURSE / "source" / f"{lesson}-{lang}"
            if not (src / f"{lesson}.ipynb").exists():
                raise FileNotFoundError(f"{src} is missing: run `python -m lessons build`")
            shutil.copytree(src, root / "source" / f"{lesson}-{lang}")
    return root


def released_course(root: Path, langs=("en",), timeout: int | None = None, lesson: str = LESSON) -> Path:
    """A course folder as ``make_course(root, langs, timeout, lessons=(lesson,))`` followed by
    ``nbgrader generate_assignment`` of each language's assignment gives it (sources,
    ``release/``, the gradebook with the assignments), copied from one course released once per
    test session (across pytest-xdist's workers: ``tests.support.shared.build_once``, keyed by the
    course's inputs and the languages): the grader's end-to-end tests share it instead of each
    running nbgrader on the lesson again. The copy is the caller's to change (submissions, due
    dates, students)."""
    from tests.support import shared

    langs = tuple(langs)
    inputs = [PACKAGED_COURSE / "nbgrader_config.py", PACKAGED_COURSE / "exercises",
              *(PACKAGED_COURSE / "source" / f"{lesson}-{lang}" for lang in langs)]

    def release(folder: Path) -> None:
        course = make_course(folder / "course", langs=langs, lessons=(lesson,))
        for lang in langs:
            nbgrader(course, "generate_assignment", f"{lesson}-{lang}")

    template = shared.build_once(f"released-{lesson}-{'-'.join(langs)}",
                                 shared.content_key(inputs, lesson, *langs), release) / "course"
    root.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(template, root, dirs_exist_ok=True)
    if timeout is not None:
        with open(root / "nbgrader_config.py", "a", encoding="utf-8") as fh:
            fh.write(f"\nc.Execute.timeout = {int(timeout)}\n")
    return root


def nbgrader(course: Path, *args: str, check: bool = True, timeout: float = 600) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course, env=env(),
                          capture_output=True, text=True, timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(f"nbgrader {' '.join(args)} failed ({proc.returncode}):\n"
                             f"{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    return proc


def grader_cli(course: Path, *args: str, check: bool = True, timeout: float = 900) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "grader", *args, "--course", str(course)],
                          cwd=course, env=env(), capture_output=True, text=True, timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(f"python -m grader {' '.join(args)} failed ({proc.returncode}):\n"
                             f"{proc.stdout[-4000:]}\n{proc.stderr[-6000:]}")
    return proc


def set_duedate(course: Path, assignment: str, duedate: str) -> None:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        gb.update_or_create_assignment(assignment, duedate=duedate)


def add_student(course: Path, student: str, **attrs) -> None:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        gb.update_or_create_student(student, **attrs)


# ----------------------------------------------------------------------------------------------
# Notebooks
# ----------------------------------------------------------------------------------------------
def read(path: Path):
    return nbformat.read(str(path), as_version=4)


def grade_id(cell) -> str | None:
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")


def test_index(nb, exercise: str) -> int:
    for i, cell in enumerate(nb.cells):
        if grade_id(cell) == exercise and cell.metadata.nbgrader.get("grade"):
            return i
    raise KeyError(f"no tests cell {exercise}")


def solution_index(nb, exercise: str) -> int:
    """The solution cell of ``exercise``: the nearest solution cell above its tests cell."""
    for i in range(test_index(nb, exercise) - 1, -1, -1):
        if nb.cells[i].get("metadata", {}).get("nbgrader", {}).get("solution"):
            return i
    raise KeyError(f"no solution cell above tests cell {exercise}")


def reference_solutions(course: Path, assignment: str, lesson: str = LESSON) -> dict[str, str]:
    """The instructor's solution code of every exercise (markers removed)."""
    nb = read(course / "source" / assignment / f"{lesson}.ipynb")
    out = {}
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("grade"):
            src = nb.cells[solution_index(nb, meta["grade_id"])].source
            out[meta["grade_id"]] = "\n".join(
                line for line in src.splitlines() if "### BEGIN SOLUTION" not in line
                and "### END SOLUTION" not in line)
    return out


def released(course: Path, assignment: str, lesson: str = LESSON):
    return read(course / "release" / assignment / f"{lesson}.ipynb")


def submit(course: Path, student: str, assignment: str, nb, timestamp: str,
           lesson: str = LESSON) -> Path:
    folder = course / "submitted" / student / assignment
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(folder / f"{lesson}.ipynb"))
    (folder / "timestamp.txt").write_text(timestamp + "\n", encoding="utf-8")
    return folder


def with_reflections(nb, answers: list[str]):
    """A copy of ``nb`` whose answer cells of the lesson's closing open questions (plain
    markdown cells, ``metadata.minitape.answer_to``) hold ``answers``, in order."""
    nb = copy.deepcopy(nb)
    cells = [c for c in nb.cells if c.get("metadata", {}).get("minitape", {}).get("answer_to")]
    if len(cells) < len(answers):
        raise ValueError(f"{len(answers)} answers for {len(cells)} open questions")
    for cell, text in zip(cells, answers):
        cell.source = text
    return nb


def with_answers(nb, answers: dict[str, str]):
    """A copy of ``nb`` whose solution cells hold ``answers[grade_id]`` (others untouched)."""
    nb = copy.deepcopy(nb)
    for exercise, code in answers.items():
        nb.cells[solution_index(nb, exercise)].source = code
    return nb


# ----------------------------------------------------------------------------------------------
# Wrong answers students write (lesson 1's exercises, see grader/course/definitions/l01.py)
# ----------------------------------------------------------------------------------------------
WRONG = {
    # forgot the -2x term: wrong values everywhere
    "l01_ex1": "def derivative_at(x0):\n    x = tf.Variable(x0)\n    with tf.GradientTape() as tape:\n"
               "        y = x**3\n    return tape.gradient(y, x)\n",
    "l01_ex2": "def mse_gradients(w, b, x, y_true):\n    with tf.GradientTape() as tape:\n"
               "        loss = tf.reduce_sum((x @ w + b - y_true) ** 2)\n"
               "    return tape.gradient(loss, [w, b])\n",
    "l01_ex3": "def gradients_by_name(params, x):\n    with tf.GradientTape() as tape:\n"
               "        f = tf.reduce_sum(tf.math.cos(params['a'] * x) + params['c'] * x)\n"
               "    return tape.gradient(f, params)\n",
    "l01_ex4": "def dense_gradients(layer, x, y):\n    with tf.GradientTape() as tape:\n"
               "        loss = tf.reduce_sum(layer(x))\n"
               "    return tape.gradient(loss, layer.trainable_variables)\n",
    # a check that reports every gradient as wrong, without measuring anything
    "l01_ex5": "def gradient_check(f, x, grad, v):\n    return [0.0, 0.0, 1.0]\n",
}

# right at the two visible points of l01_ex1 (x0 = 2.0 and -0.5), wrong anywhere else
HARD_CODED = {
    "l01_ex1": "def derivative_at(x0):\n    if x0 == 2.0:\n        return tf.constant(10.0)\n"
               "    if x0 == -0.5:\n        return tf.constant(-1.25)\n    return tf.constant(0.0)\n",
}

# correct, but warns and writes to stderr on every call
NOISY = {
    "l01_ex1": "import sys, warnings\n\ndef derivative_at(x0):\n"
               "    warnings.warn('this is only a warning', RuntimeWarning)\n"
               "    print('debugging output on stderr', file=sys.stderr)\n"
               "    x = tf.Variable(x0)\n    with tf.GradientTape() as tape:\n"
               "        y = x**3 - 2 * x\n    return tape.gradient(y, x)\n",
}

INFINITE_LOOP = {
    "l01_ex2": "def mse_gradients(w, b, x, y_true):\n    while True:\n        pass\n",
}

KILLS_KERNEL = {
    "l01_ex3": "import os\n\ndef gradients_by_name(params, x):\n    os._exit(1)\n",
}

WRONG_SHAPE = {
    # the right numbers, shape (1,) instead of ()
    "l01_ex1": "def derivative_at(x0):\n    x = tf.Variable([x0])\n    with tf.GradientTape() as tape:\n"
               "        y = x**3 - 2 * x\n    return tape.gradient(y, x)\n",
}

PARTLY_RIGHT = {
    # d/da right, d/dc wrong (c*x instead of c**2*x): half of every l01_ex3 case
    "l01_ex3": "def gradients_by_name(params, x):\n    with tf.GradientTape() as tape:\n"
               "        f = tf.reduce_sum(tf.math.sin(params['a'] * x) + params['c'] * x)\n"
               "    return tape.gradient(f, params)\n",
}

NO_RETURN = {
    "l01_ex1": "def derivative_at(x0):\n    x = tf.Variable(x0)\n    with tf.GradientTape() as tape:\n"
               "        y = x**3 - 2 * x\n    grad = tape.gradient(y, x)\n",
}


def edit_test_cell(nb, exercise: str, source: str):
    nb = copy.deepcopy(nb)
    nb.cells[test_index(nb, exercise)].source = source
    return nb


def delete_test_cell(nb, exercise: str):
    nb = copy.deepcopy(nb)
    del nb.cells[test_index(nb, exercise)]
    return nb


def strip_html(text: str) -> str:
    """Visible text of an HTML page (to search feedback for source code fragments)."""
    import html

    text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.S | re.I)
    return html.unescape(re.sub(r"<[^>]+>", "", text))


# ----------------------------------------------------------------------------------------------
# autograde-all's summary (grader/autograde/cli.py): statuses in the export's vocabulary
# ----------------------------------------------------------------------------------------------
def autograde_summary(stdout: str, assignment: str) -> dict:
    """``{"submissions", "graded", "failed", "refused", "statuses": {status: count},
    "students": {status: [student, ...]}}`` read from ``autograde-all``'s closing summary."""
    m = re.search(rf"^{re.escape(assignment)}: (\d+) submission\(s\): (\d+) graded(?: \(([^)]*)\))?, "
                  rf"(\d+) failed(?:, (\d+) refused)?; .*, [\d.]+s wall time", stdout, re.M)
    if m is None:
        raise AssertionError(f"no autograde-all summary for {assignment} in:\n{stdout[-3000:]}")
    statuses = {}
    for part in (m.group(3) or "").split(", "):
        if part:
            count, _, status = part.partition(" ")
            statuses[status] = int(count)
    students = {}
    for line in stdout.splitlines():
        found = re.match(r"^(\S+) \(see the export's notes\): (.*)$", line)
        if found:
            students[found.group(1)] = found.group(2).split(", ")
    return {"submissions": int(m.group(1)), "graded": int(m.group(2)), "failed": int(m.group(4)),
            "refused": int(m.group(5) or 0), "statuses": statuses, "students": students}
