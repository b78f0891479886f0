"""Issue 38, pedagogy: the exercises added or rewritten so that they need their lesson.

Lesson 1's gradient check (a function passed to the student's code, sent to the kernel as data),
lesson 1's Dense(1) against (k,) labels, lesson 3's mean over the examples that count, lesson 4's
windowed straight-through estimator and clipped custom backward, lesson 5's softmax with
temperature. For each: the lesson's own solution (its statement followed literally) and other
honest formulations earn every point at several draws of the hidden points, through the
autograder's probe (the path that grades a class); the mistakes the lesson warns about fail on
values, named by their declared patterns; the technique the lesson teaches is the one the values
require (a plain autodiff answer does not pass).
"""

from __future__ import annotations

import warnings
from unittest import mock

import nbformat
import numpy as np
import pytest

from grader.autograde.scoring import build_probe, score_probe
from grader.student.mistakes import annotate
from grader.student.registry import get
from tests.support.project import REPO

SEEDS = (1, 2, 3)


def _solution(exercise_id: str) -> str:
    """The lesson's solution cell of ``exercise_id`` (English instructor notebook), markers out."""
    for path in sorted((REPO / "grader" / "course" / "source").glob("*-en/*.ipynb")):
        for cell in nbformat.read(str(path), as_version=4).cells:
            if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == f"{exercise_id}_solution":
                return "\n".join(line for line in cell.source.splitlines() if "### " not in line)
    raise KeyError(exercise_id)


def probe(exercise_id: str, code: str, seed: int = 1):
    """Grade ``code`` as the autograder does: inputs sent as data, answers read back as data."""
    ex = get(exercise_id)
    source, plan = build_probe(ex, "en", seed, None)
    ns = {"__name__": "__main__"}
    exec("import minitape as tf\nimport numpy as np\n" + code, ns)
    shown = []
    with warnings.catch_warnings(), \
            mock.patch("IPython.display.display", lambda obj, raw=False: shown.append(obj)):
        warnings.simplefilter("ignore")
        exec(source, ns)
    outputs = [{"output_type": "display_data", "data": d} for d in shown]
    result, issues, _ = score_probe(ex, plan, outputs, "en", [code])
    return result, issues


HONEST = {
    "l01_ex4": [
        # the predictions squeezed, the labels given an axis, a column taken, a tuple back
        "def dense_gradients(layer, x, y):\n"
        "    with tf.GradientTape() as tape:\n"
        "        loss = tf.reduce_mean((tf.squeeze(layer(x), axis=1) - y) ** 2)\n"
        "    return tape.gradient(loss, layer.trainable_variables)\n",
        "def dense_gradients(layer, x, y):\n"
        "    with tf.GradientTape() as tape:\n"
        "        loss = tf.reduce_mean((layer(x) - tf.reshape(y, [-1, 1])) ** 2)\n"
        "    return tuple(tape.gradient(loss, layer.trainable_variables))\n",
        "def dense_gradients(layer, x, y):\n"
        "    with tf.GradientTape() as tape:\n"
        "        pred = layer(x)[:, 0]\n"
        "        loss = tf.reduce_sum((pred - y) ** 2) / int(y.shape[0])\n"
        "    return tape.gradient(loss, [layer.kernel, layer.bias])\n",
    ],
    "l01_ex5": [
        # NumPy throughout, floats back
        "def gradient_check(f, x, grad, v):\n"
        "    h = 1e-5\n"
        "    x, grad, v = x.numpy(), grad.numpy(), v.numpy()\n"
        "    nudge = (float(f(x + h * v)) - float(f(x - h * v))) / (2 * h)\n"
        "    predicted = float(np.vdot(grad, v))\n"
        "    return (nudge, predicted, abs(nudge - predicted) / max(abs(nudge), abs(predicted)))\n",
        # tensors back, another reasonable h
        "def gradient_check(f, x, grad, v):\n"
        "    h = 1e-6\n"
        "    nudge = (f(x + h * v) - f(x - h * v)) / (2 * h)\n"
        "    predicted = tf.reduce_sum(grad * v)\n"
        "    return [nudge, predicted, tf.abs(nudge - predicted) / tf.maximum(tf.abs(nudge), tf.abs(predicted))]\n",
    ],
    "l03_ex6": [
        # the gradient of the masked sum, divided by the count after the tape
        "def masked_mean_gradient(w, x, y, mask):\n"
        "    with tf.GradientTape() as tape:\n"
        "        losses = mask * (tf.reduce_sum(x * w, axis=1) - y) ** 2\n"
        "    return tape.gradient(losses, w) / tf.reduce_sum(mask)\n",
        # normalized weights
        "def masked_mean_gradient(w, x, y, mask):\n"
        "    weights = mask / tf.reduce_sum(mask)\n"
        "    with tf.GradientTape() as tape:\n"
        "        loss = tf.reduce_sum(weights * (tf.linalg.matvec(x, w) - y) ** 2)\n"
        "    return tape.gradient(loss, w)\n",
    ],
    "l04_ex1": [
        # the window as min/max, the layer as matmul
        "def quantized_gradient(w, x, t):\n"
        "    with tf.GradientTape() as tape:\n"
        "        c = tf.minimum(tf.maximum(w, -1.0), 1.0)\n"
        "        q = c + tf.stop_gradient(tf.round(w) - c)\n"
        "        loss = tf.reduce_mean(tf.square(tf.matmul(x, q) - t))\n"
        "    return tape.gradient(loss, w)\n",
    ],
    "l04_ex3": [
        # the clip as clip_by_norm of a scalar, a persistent tape, two gradient calls
        "def scaled_tanh_gradients(a, x):\n"
        "    @tf.custom_gradient\n"
        "    def scaled_tanh(z):\n"
        "        y = tf.tanh(a * z)\n"
        "        def backward(upstream, variables=None):\n"
        "            local = 1.0 - y * y\n"
        "            return upstream * a * local, [tf.clip_by_norm(tf.reduce_sum(upstream * z * local), 1.0)]\n"
        "        return y, backward\n"
        "    with tf.GradientTape(persistent=True) as tape:\n"
        "        tape.watch(x)\n"
        "        loss = tf.reduce_sum(tf.square(scaled_tanh(x))) + tf.square(a)\n"
        "    out = [tape.gradient(loss, x), tape.gradient(loss, a)]\n"
        "    del tape\n"
        "    return out\n",
    ],
    "l05_ex7": [
        # two Jacobian calls on a persistent tape, the temperature watched as well
        "def tempered_softmax_jacobians(z, temperature):\n"
        "    with tf.GradientTape(persistent=True) as tape:\n"
        "        tape.watch([z, temperature])\n"
        "        s = tf.nn.softmax(z / temperature)\n"
        "    out = [tape.jacobian(s, z), tape.jacobian(s, temperature)]\n"
        "    del tape\n"
        "    return out\n",
    ],
}

NEW_OR_CHANGED = sorted(HONEST)


@pytest.mark.parametrize("exercise_id", NEW_OR_CHANGED)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_statement_followed_literally_earns_every_point(exercise_id, seed):
    result, issues = probe(exercise_id, _solution(exercise_id), seed)
    assert result.passed and result.score == result.points, result.text()
    assert not [i for i in issues if i[0] != "technique"], issues


@pytest.mark.parametrize("exercise_id, index", [(e, i) for e in NEW_OR_CHANGED for i in range(len(HONEST[e]))])
def test_honest_formulations_earn_every_point(exercise_id, index):
    for seed in SEEDS:
        result, _ = probe(exercise_id, HONEST[exercise_id][index], seed)
        assert result.passed and result.score == result.points, (seed, result.text())


WRONG = {
    # the shape trap: (k, 1) - (k,) is (k, k)
    "l01_ex4": ("def dense_gradients(layer, x, y):\n"
                "    with tf.GradientTape() as tape:\n"
                "        loss = tf.reduce_mean((layer(x) - y) ** 2)\n"
                "    return tape.gradient(loss, layer.trainable_variables)\n", "broadcast_kk"),
    # the slope along v forgotten
    "l01_ex5": ("def gradient_check(f, x, grad, v):\n"
                "    h = 1e-5\n"
                "    nudge = float((f(x + h * v) - f(x - h * v)) / (2 * h))\n"
                "    predicted = float(tf.reduce_sum(grad))\n"
                "    return [nudge, predicted, abs(nudge - predicted) / max(abs(nudge), abs(predicted))]\n",
                "no_direction"),
    # the vector of masked losses handed to the tape: the gradient of their sum
    "l03_ex6": ("def masked_mean_gradient(w, x, y, mask):\n"
                "    with tf.GradientTape() as tape:\n"
                "        losses = mask * (tf.reduce_sum(x * w, axis=1) - y) ** 2\n"
                "    return tape.gradient(losses, w)\n", "sum_not_mean"),
    # the plain straight-through estimator of the lesson's first section: no window
    "l04_ex1": ("def quantized_gradient(w, x, t):\n"
                "    with tf.GradientTape() as tape:\n"
                "        q = w + tf.stop_gradient(tf.round(w) - w)\n"
                "        loss = tf.reduce_mean((x @ q - t) ** 2)\n"
                "    return tape.gradient(loss, w)\n", "no_window"),
    # plain autodiff, no custom gradient: the values tell the technique apart
    "l04_ex3": ("def scaled_tanh_gradients(a, x):\n"
                "    with tf.GradientTape() as tape:\n"
                "        tape.watch(x)\n"
                "        loss = tf.reduce_sum(tf.tanh(a * x) ** 2) + a ** 2\n"
                "    return tape.gradient(loss, [x, a])\n", "not_clipped"),
    # the gradient where the temperature's Jacobian is asked
    "l05_ex7": ("def tempered_softmax_jacobians(z, temperature):\n"
                "    with tf.GradientTape(persistent=True) as tape:\n"
                "        tape.watch(z)\n"
                "        s = tf.nn.softmax(z / temperature)\n"
                "    return [tape.jacobian(s, z), tape.gradient(s, temperature)]\n",
                "gradient_not_jacobian"),
}


@pytest.mark.parametrize("exercise_id", sorted(WRONG))
def test_the_mistake_the_lesson_warns_about_fails_on_values_and_is_named(exercise_id):
    code, pattern = WRONG[exercise_id]
    for seed in SEEDS:
        result, _ = probe(exercise_id, code, seed)
        assert not result.passed, result.text()
        if result.points:
            assert result.score < result.points
        assert annotate(result).get("kind") == pattern, (seed, result.text())
        assert any(pattern in str(c.details.get("pattern", {})) for c in result.checks if not c.passed)


def test_a_hand_written_clipped_custom_backward_differs_from_clipping_the_total():
    """l04_ex3: the clip inside ``backward`` acts on the function's contribution only; a clip of the
    whole gradient after the tape is another answer (the declared pattern ``clipped_total``)."""
    clipped_total = ("def scaled_tanh_gradients(a, x):\n"
                     "    with tf.GradientTape() as tape:\n"
                     "        tape.watch(x)\n"
                     "        loss = tf.reduce_sum(tf.tanh(a * x) ** 2) + a ** 2\n"
                     "    dx, da = tape.gradient(loss, [x, a])\n"
                     "    return [dx, tf.clip_by_value(da, -1.0, 1.0)]\n")
    result, _ = probe("l04_ex3", clipped_total)
    assert not result.passed and annotate(result).get("kind") == "clipped_total", result.text()
    # the visible case a = 0.5, x = [1, -2]: the statement's numbers
    expected = get("l04_ex3").reference(*get("l04_ex3").visible[0].make(np.random.default_rng(0)).args)
    assert float(expected[1]) == pytest.approx(2.0, abs=1e-12)
    assert np.allclose(expected[0].numpy(), [0.3634, -0.3199], atol=1e-4)


def test_the_gradient_check_tells_right_gradients_from_wrong_ones_at_every_hidden_point():
    """l01_ex5's hidden cases: each function once with the tape's gradient (a relative error at
    rounding level) and once with a wrong one (above 1e-3, as the statement says), at points where no ReLU input is
    within reach of the nudge and along directions where neither slope is 0."""
    ex = get("l01_ex5")
    for seed in range(40):
        for i, case in enumerate(ex.hidden):
            nudge, predicted, rel = (float(v) for v in ex.reference(*case.make(np.random.default_rng(seed)).args))
            # never a flat case (a ReLU layer with every unit off): the relative error would be 0/0
            assert min(abs(nudge), abs(predicted)) > 1e-3, (seed, i, nudge, predicted)
            if i % 2 == 0 and i < 8:
                assert rel < 1e-7, (seed, i, rel)
            else:
                assert rel > 1e-3, (seed, i, rel)


def test_a_formula_reaches_the_kernel_as_data_and_evaluates_the_same():
    from grader.wire import Formula, build_input, encode_input

    import minitape as tf

    f = Formula(["sum", ["square", ["relu", ["add", ["matvec", np.eye(2), "x"], np.array([0.5, -1.0])]]]], "f")
    g = build_input(encode_input(f))
    x = np.array([1.0, 0.25])
    assert float(g(x)) == float(f(tf.constant(x))) == pytest.approx(1.5 ** 2)
    assert repr(g) == "<function f(x)>"
    with pytest.raises(ValueError):
        Formula(["eval", "x"])
    with pytest.raises(ValueError):
        Formula(["pow", "x", "2"])
