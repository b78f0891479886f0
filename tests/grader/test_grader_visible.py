"""The visible checks as shipped to students: data, no reference code (grader.student.visible)."""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path

import pytest

from grader.student.registry import all_exercises
from grader.student.runner import run_exercise
from grader.student.visible import DATA, build_data, dumps, visible_exercise

from test_grader_scoring import SOLUTIONS, _lesson7_namespace

_lesson7 = functools.cache(_lesson7_namespace)  # the lesson's cells run once, each test copies

REPO = Path(__file__).resolve().parents[2]


def _same(shipped, built, where="") -> list[str]:
    """Where ``shipped`` and ``built`` differ; expected answers are compared as numbers to 1e-12
    (their last bits depend on the machine's BLAS and CPU, not on the definitions)."""
    import numpy as np

    from grader.wire import decode_answer

    if isinstance(shipped, dict) and isinstance(built, dict):
        if shipped.keys() != built.keys():
            return [f"{where}: keys {sorted(shipped)} != {sorted(built)}"]
        out = []
        for k in shipped:
            if k == "expected" and shipped[k] != built[k]:
                a, b = decode_answer(shipped[k]), decode_answer(built[k])

                def close(x, y):
                    if isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
                        return len(x) == len(y) and all(close(i, j) for i, j in zip(x, y))
                    if isinstance(x, dict) and isinstance(y, dict):
                        return x.keys() == y.keys() and all(close(x[i], y[i]) for i in x)
                    if x is None or y is None:
                        return x is y
                    x, y = np.asarray(x), np.asarray(y)
                    return x.shape == y.shape and x.dtype == y.dtype and np.allclose(x, y, rtol=1e-12, atol=0)

                if not close(a, b):
                    out.append(f"{where}/expected")
            else:
                out += _same(shipped[k], built[k], f"{where}/{k}")
        return out
    if isinstance(shipped, list) and isinstance(built, list):
        if len(shipped) != len(built):
            return [f"{where}: {len(shipped)} items != {len(built)}"]
        return [d for i, (a, b) in enumerate(zip(shipped, built)) for d in _same(a, b, f"{where}[{i}]")]
    return [] if shipped == built else [f"{where}: {shipped!r} != {built!r}"]


def test_the_shipped_data_is_up_to_date_with_the_definitions():
    import json

    differences = _same(json.loads(DATA.read_text(encoding="utf-8")),
                        json.loads(dumps(build_data(all_exercises()))))
    assert not differences, ("grader/student/visible_cases.json is stale: run `python -m grader.student.visible`\n"
                             + "\n".join(differences[:20]))


@pytest.mark.parametrize("exercise_id", sorted(all_exercises()))
def test_visible_exercises_carry_answers_but_no_reference_and_no_hidden_case(exercise_id):
    ex, full = visible_exercise(exercise_id), all_exercises()[exercise_id]
    assert ex.hidden == [] and ex.hidden_check_count == full.hidden_check_count
    assert (ex.points, ex.function, ex.precision) == (full.points, full.function, full.precision)
    with pytest.raises(RuntimeError, match="not installed"):
        ex.reference()
    # lesson 7's solutions run on the tape classes the lesson's earlier cells define
    ns = dict(_lesson7()) if exercise_id.startswith("l07") else {}
    exec("import minitape as tf\nimport numpy as np\n" + SOLUTIONS[exercise_id], ns)
    result = run_exercise(ex, ns, include_hidden=False)
    assert result.passed, result.text()


def test_check_works_and_grade_refuses_without_the_instructor_definitions():
    # a student's install: grader without grader/course/definitions
    code = (
        "import grader.student.registry as e\n"
        "e.__path__[:] = [p for p in e.__path__ if 'course' not in p]\n"
        "assert not e.definitions_available() and e.all_exercises() == {}\n"
        "import minitape as tf\n"
        "from grader import check, grade\n"
        "def derivative_at(x0):\n"
        "    x = tf.Variable(x0)\n"
        "    with tf.GradientTape() as tape:\n"
        "        y = x ** 3 - 2 * x\n"
        "    return tape.gradient(y, x)\n"
        "result = check('l01_ex1', globals())\n"
        "assert result.passed and result.hidden_pending == 4, result.text()\n"
        "try:\n"
        "    grade('l01_ex1', globals())\n"
        "except RuntimeError as exc:\n"
        "    assert 'instructor' in str(exc)\n"
        "else:\n"
        "    raise AssertionError('grade ran without hidden cases')\n"
        "print('ok')\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


def test_grade_in_a_course_folder_finds_the_courses_definitions(tmp_path):
    # `nbgrader validate source/<assignment>/...` with the package installed without them
    import shutil

    (tmp_path / "source" / "a").mkdir(parents=True)
    (tmp_path / "nbgrader_config.py").write_text("", encoding="utf-8")
    shutil.copytree(REPO / "grader" / "course" / "definitions", tmp_path / "exercises")
    code = (
        "import grader.student.registry as e\n"
        "e.__path__[:] = [p for p in e.__path__ if not p.startswith(%r)]\n"
        "import minitape as tf\n"
        "from grader import grade\n"
        "def derivative_at(x0):\n"
        "    x = tf.Variable(x0)\n"
        "    with tf.GradientTape() as tape:\n"
        "        y = x ** 3 - 2 * x\n"
        "    return tape.gradient(y, x)\n"
        "print(grade('l01_ex1', globals()).score)\n") % str(REPO / "grader" / "course")
    env = {**__import__("os").environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path / "source" / "a",
                          capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0 and proc.stdout.strip() == "1.0", proc.stderr


@pytest.mark.parametrize("exercise_id", sorted(all_exercises()))
def test_the_report_names_the_exercise_its_parts_and_what_was_compared(exercise_id):
    """Every exercise has a title in every language; its ``components`` and ``compares`` have
    the structure of its reference answer, so a part is called ``dL/dw`` (not ``[0]``) and a
    loss curve is never said to match "the reference gradient"."""
    from grader.student.checks import KINDS, flatten_with_paths
    from grader.i18n import LANGS

    ex = all_exercises()[exercise_id]
    assert set(ex.title) == set(LANGS) and all(ex.title.values()), ex.title
    shipped = visible_exercise(exercise_id)
    answer = shipped.visible[0].expected  # the reference answer, as data
    paths = [p for p, _ in flatten_with_paths(answer)]
    assert (shipped.compares, shipped.components) == (ex.compares, ex.components)
    if not isinstance(ex.compares, str):
        assert [p for p, _ in flatten_with_paths(ex.compares)] == paths
        assert all(k in KINDS for _, k in flatten_with_paths(ex.compares))
    if ex.components is not None:
        labels = dict(flatten_with_paths(ex.components))
        assert list(labels) == paths, f"{exercise_id}: components {ex.components!r} vs answer paths {paths}"
        assert all(isinstance(v, str) and v and not v.startswith("[") for v in labels.values())
    elif len(paths) > 1 and exercise_id != "l07_ex2":  # l07_ex2: random names, shown as keys
        raise AssertionError(f"{exercise_id}: a nested answer needs components (names for {paths})")


def test_report_wording_follows_what_is_compared():
    def train_linear(w, b, x, y, lr, steps):
        import minitape as tf

        losses = []
        for _ in range(steps):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((tf.matmul(x, w) + b - y) ** 2)
            gw, gb = tape.gradient(loss, [w, b])
            w.assign_sub(lr * gw)
            b.assign_sub(lr * gb)
            losses.append(loss)
        return tf.stack(losses)

    def mse_gradients(w, b, x, y_true):
        return None

    curve = run_exercise(visible_exercise("l06_ex2"), {"train_linear": train_linear},
                         include_hidden=False, lang="es")
    assert curve.passed
    text = curve.text()
    assert "pérdidas de referencia" in text and "gradiente" not in text
    assert text.startswith("Ejercicio «Un bucle de entrenamiento y su curva de pérdida» (l06_ex2)")
    html = curve._repr_html_()
    assert "Un bucle de entrenamiento" in html and "data-exercise='l06_ex2'" in html
    none = run_exercise(visible_exercise("l01_ex2"), {"mse_gradients": mse_gradients},
                        include_hidden=False, lang="en")
    labels = [c.label for c in none.checks]
    assert all(" · dL/d" in label for label in labels) and not any("[0]" in lb for lb in labels), labels
    assert all("Expected a gradient of shape" in c.message for c in none.checks)
