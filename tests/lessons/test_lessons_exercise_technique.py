"""Exercises whose prose says "a tape must compute it" declare that technique, so a
hand-derived formula with the right values keeps only the values' share of the points."""

from __future__ import annotations

from unittest import mock

import pytest

from grader.exercises import get
from grader.scoring import build_probe, score_probe

TAPE_EXERCISES = ["l01_ex1", "l03_ex1", "l03_ex2", "l03_ex3", "l05_ex1"]

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
def test_a_hand_derived_formula_loses_the_technique_share(exercise_id):
    result, issues, _ = _score(exercise_id, HAND_DERIVED[exercise_id])
    values = [c for c in result.checks if c.reason != "technique"]
    assert values and all(c.passed for c in values), result.text()
    assert any(kind == "technique" for kind, _ in issues)
    assert 0 < result.score < result.points
    assert "asks for a GradientTape" in result.text()
