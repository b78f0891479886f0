"""Exercises whose prose says "a tape must compute it" declare that technique. A technique is
established on the trusted side by reading the code that ran, and a concern is a note for the
instructor's review, never points lost (grader/README.md, "Evidence"): a hand-derived formula with
the right values keeps every point and is noted."""

from __future__ import annotations

from unittest import mock

import pytest

from grader.student.registry import get
from grader.autograde.scoring import build_probe, score_probe

TAPE_EXERCISES = ["l01_ex1", "l01_ex2", "l01_ex3", "l01_ex4", "l03_ex1", "l03_ex2", "l03_ex3", "l05_ex1"]

HAND_DERIVED = {
    "l01_ex1": "def derivative_at(x0):\n    return tf.constant(3 * x0**2 - 2.0)\n",
    "l03_ex2": ("def descent_gradients(x0, lr, steps):\n"
                "    x, grads = x0, []\n"
                "    for _ in range(steps):\n"
                "        g = 2 * (x - 2.0)\n"
                "        grads.append(g)\n"
                "        x = x - lr * g\n"
                "    return tf.constant(grads, dtype=tf.float32)\n"),
    "l03_ex3": ("def row_norms_gradient(w):\n"
                "    w = w.numpy()\n"
                "    r = np.sqrt((w**2).sum(axis=1, keepdims=True))\n"
                "    return tf.constant(w / (r * (1 + r)))\n"),
}


@pytest.mark.parametrize("exercise_id", TAPE_EXERCISES)
def test_tape_exercises_declare_a_gradient_call_on_a_tape(exercise_id):
    techniques = get(exercise_id).techniques
    tape = [t for t in techniques if t.must and "GradientTape" in t.source_names]
    assert tape, f"{exercise_id} does not ask for a GradientTape"
    assert tape[0].reported == "GradientTape.gradient"
    assert set(tape[0].description) == {"en", "es", "pt", "ru"}


def _score(exercise_id, code):
    ex = get(exercise_id)
    source, plan = build_probe(ex, "en", 3, None)
    ns = {"__name__": "__main__"}
    exec("import minitape as tf\nimport numpy as np\n" + code, ns)
    shown = []
    with mock.patch("IPython.display.display", lambda obj, raw=False: shown.append(obj)):
        exec(source, ns)
    outputs = [{"output_type": "display_data", "data": d} for d in shown]
    return score_probe(ex, plan, outputs, "en", [code])


@pytest.mark.parametrize("exercise_id", sorted(HAND_DERIVED))
def test_a_hand_derived_formula_is_noted_for_the_instructor(exercise_id):
    result, issues, _ = _score(exercise_id, HAND_DERIVED[exercise_id])
    assert result.checks and all(c.passed for c in result.checks), result.text()
    assert result.score == result.points
    notes = [detail for kind, detail in issues if kind == "technique"]
    assert notes and any("GradientTape" in d for d in notes), issues


def test_l03_ex5_snippets_in_the_lesson_are_the_graders(lessons):
    """The lesson prints the snippets the reference runs: the same strings, letter by letter,
    and each cause code 0-6 is the answer to at least one of them."""
    from grader.student.registry import l03

    lesson = next(lesson for lesson in lessons if lesson.name == "03-none-gradients")
    cell = next(c for c in lesson.code if c.key == "ex5-snippets")
    ns: dict = {"print": lambda *a, **k: None}
    exec(cell.source, ns)
    assert ns["SNIPPETS"] == l03.SNIPPETS
    ex = get("l03_ex5")
    codes = {letter: float(ex.reference(letter)) for letter in l03.SNIPPETS}
    assert set(codes.values()) == {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0}
    assert [c.label for c in ex.visible] == ["A", "B"]
    assert sorted(c.label for c in ex.hidden) == list("CDEFGHI")


def test_l03_ex5_needs_the_cause_not_only_none():
    """Running the snippets tells None from a tensor; answering only that (1 for None) loses most
    of the points, and the right causes earn them all."""
    none_or_not = ("def none_cause(snippet):\n"
                   "    return 0.0 if snippet in 'BH' else 1.0\n")
    result, _, _ = _score("l03_ex5", none_or_not)
    assert result.score < result.points / 2, result.text()
    causes = ("def none_cause(snippet):\n"
              "    return float({'A': 1, 'B': 0, 'C': 4, 'D': 2, 'E': 3, 'F': 5, 'G': 6, 'H': 0,"
              " 'I': 1}[snippet])\n")
    result, issues, _ = _score("l03_ex5", causes)
    assert (result.score, issues) == (result.points, []), result.text()


def _graded(exercise_id, func, seed=11):
    from grader.student.runner import run_exercise

    ex = get(exercise_id)
    return run_exercise(ex, {ex.function: func}, include_hidden=True, seed=seed)


def test_l04_ex6_a_recorded_scale_gives_a_zero_gradient_and_fails():
    import minitape as tf

    def scale_recorded(w, x, y):
        with tf.GradientTape() as tape:
            residual = tf.reduce_sum(x * w, axis=1) - y
            loss = tf.reduce_mean(residual ** 2)
            relative = loss / tf.reduce_mean(residual ** 2)
        return tape.gradient(relative, w)

    # optional (0 points): the checks still run and decide what the report says
    assert not any(c.passed for c in _graded("l04_ex6", scale_recorded).checks)
    assert _graded("l04_ex6", get("l04_ex6").reference).passed


def test_l04_ex7_a_default_tape_watches_the_weights_and_loses_the_count():
    import minitape as tf

    def default_tape(layer, x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(layer(x) ** 2)
        return [tape.gradient(loss, x), float(len(tape.watched_variables()))]

    result = _graded("l04_ex7", default_tape)
    count_checks = [c for c in result.checks if "watched_variables" in c.label]
    assert count_checks and not any(c.passed for c in count_checks)
    assert any(c.passed for c in result.checks if "dL/dx" in c.label)
    assert not result.passed and result.points == result.score == 0  # optional: no points


@pytest.mark.parametrize("exercise_id", ["l04_ex6", "l04_ex7"])
def test_l04_new_exercises_ask_for_their_technique(exercise_id):
    code = {"l04_ex6": ("def relative_loss_gradient(w, x, y):\n"
                        "    with tf.GradientTape() as tape:\n"
                        "        r = tf.reduce_sum(x * w, axis=1) - y\n"
                        "        loss = tf.reduce_mean(r ** 2)\n"
                        "        rel = loss / tf.stop_gradient(loss)\n"
                        "    return tape.gradient(rel, w)\n"),
            "l04_ex7": ("def input_gradient_only(layer, x):\n"
                        "    with tf.GradientTape() as tape:\n"
                        "        tape.watch(x)\n"
                        "        loss = tf.reduce_sum(layer(x) ** 2)\n"
                        "    return [tape.gradient(loss, x), 0.0]\n")}[exercise_id]
    result, issues, _ = _score(exercise_id, code)
    assert all(c.passed for c in result.checks), result.text()
    assert result.score == result.points   # a technique concern is a note, never points
    assert any(kind == "technique" for kind, _ in issues), issues


def test_l05_ex7_the_closed_form_is_noted_for_the_instructor():
    closed_form = ("def tempered_softmax_jacobians(z, temperature):\n"
                   "    s = tf.nn.softmax(z / temperature)\n"
                   "    ds_dz = (tf.linalg.diag(s) - s[:, None] * s[None, :]) / temperature\n"
                   "    ds_dt = -s * (z - tf.reduce_sum(s * z)) / temperature**2\n"
                   "    return [ds_dz, ds_dt]\n")
    result, issues, _ = _score("l05_ex7", closed_form)
    # optional: 0 points, every check passes
    assert all(c.passed for c in result.checks) and result.score == result.points == 0, result.text()
    notes = [detail for kind, detail in issues if kind == "technique"]
    assert notes and any("jacobian" in d for d in notes), issues