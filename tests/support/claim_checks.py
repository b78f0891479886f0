"""The checks of the lessons' claims (``tests/support/claims.py`` says how they are tied to the
sentences). One function per claim id, run under the engines it names, after the lesson's cells
ran in that engine (``c.cell(key)``: a cell's printed text, warnings, values and figures;
``c.env``: the lesson's names; ``c.tf``: the engine). A check raises when its claim no longer
holds. Ids: ``course.*`` for sentences several lessons make, ``lNN.*`` for one lesson's.
"""
from __future__ import annotations

import numpy as np

from tests.support.claims import BOTH, MINITAPE, TENSORFLOW, claim, compare_claim  # noqa: F401


def _gradient_of(tf, f, x0, dtype=None):
    x = tf.Variable(x0, dtype=dtype) if dtype else tf.Variable(x0)
    with tf.GradientTape() as tape:
        y = f(x)
    return tape.gradient(y, x)


# ------------------------------------------------------------------------------------------------
# The whole course
# ------------------------------------------------------------------------------------------------
@compare_claim("course.runs-on-tensorflow", "*",
               "every lesson's code runs unchanged with `import tensorflow as tf`, except the cells "
               "marked as the course's own (tf=\"course\"), and gives the same results (cells marked "
               "tf=\"random\" up to their random numbers, tf=\"differs\" as the lesson explains)")
def _(tf_run, mt_run):
    from tests.support import lesson_engines

    diffs = lesson_engines.compare_runs(tf_run, mt_run)
    modes = {c["key"]: c["tf"] for c in tf_run["cells"]}
    unexplained = {k: d for k, d in diffs.items() if d and modes[k] != lesson_engines.TF_DIFFERS}
    assert not unexplained, unexplained
    assert all(not c["error"] or modes[c["key"]] == lesson_engines.TF_DIFFERS or
               next(m for m in mt_run["cells"] if m["key"] == c["key"])["error"]
               for c in tf_run["cells"] if c["ran"])
    for cell in tf_run["cells"]:  # the course's own cells are not run under TensorFlow
        assert cell["ran"] == (cell["tf"] != lesson_engines.TF_COURSE), cell["key"]


@claim("course.number-rule", "01", BOTH,
       "an answer counts by its value (tensor, NumPy array, Python number or list; ints or floats) "
       "and is compared within float32's tolerance (relative 2e-4)")
def _(c):
    from grader.student.checks import Tolerance, compare

    tf = c.tf
    expected = np.array([1.5, 2.0, -3.0])
    forms = [tf.constant([1.5, 2.0, -3.0], dtype=tf.float32), np.array([1.5, 2.0, -3.0]),
             [1.5, 2.0, -3.0], (1.5, 2, -3), [np.float32(1.5), np.int64(2), -3],
             tf.Variable([1.5, 2.0, -3.0], dtype=tf.float64)]
    for form in forms:
        assert all(o.passed for o in compare(expected, form, Tolerance(), precision="float32")), form
    assert all(o.passed for o in compare(np.array(3.0), 3, Tolerance(), precision="float32"))  # an int code
    near = expected * (1 + 1.5e-4)
    far = expected * (1 + 3e-4)
    assert all(o.passed for o in compare(expected, near, Tolerance(), precision="float32"))
    assert not any(o.passed for o in compare(expected, far, Tolerance(), precision="float32"))
    from grader.student.registry import all_exercises

    assert {ex.precision for ex in all_exercises().values()} == {"float32"}


# ------------------------------------------------------------------------------------------------
# Lesson 1
# ------------------------------------------------------------------------------------------------
@claim("l01.drawing", "01", MINITAPE,
       "the drawing of the tape of y = x**2 + 2x: each tensor with its value and shape, each "
       "operation between its inputs and its output, the watched variable marked")
def _(c):
    from minitape.debugging import draw

    tf = c.tf
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x**2 + 2 * x
    drawing = draw(tape)
    text = drawing.text
    assert "3 operations recorded" in text
    for line in ("Pow(x, 2.0)", "Mul(2.0, x)", "AddV2(t1, t2)", "-> 15.0  () float32", "[watched source]"):
        assert line in text, (line, text)
    svg = drawing._repr_svg_() if hasattr(drawing, "_repr_svg_") else str(drawing.svg)
    assert svg.count("<rect") >= 4 and ("<path" in svg or "<line" in svg)


@claim("l01.two-paths", "01", BOTH,
       "x feeds two operations of y = x**2 + 2x, and its gradient is the sum over both paths: 8 at x = 3")
def _(c):
    assert c.stdout("recorded-backward-code").strip() == "8.0"
    tf = c.tf
    assert float(_gradient_of(tf, lambda x: x**2, 3.0)) + float(_gradient_of(tf, lambda x: 2 * x, 3.0)) == 8.0


@claim("l01.stepper", "01", MINITAPE,
       "minitape.debugging.stepper steps through the backward pass of z = (x*x)**2, one operation "
       "at a time, ending with dz/dx = 108")
def _(c):
    from minitape.debugging import backward_steps, stepper

    tf = c.tf
    x = tf.Variable(3.0)
    with tf.GradientTape(persistent=True) as tape:
        y = x * x
        z = y * y
    steps = list(backward_steps(tape, z, [x]))
    assert [s.op for s in steps if s.op] == ["Mul", "Mul"], [s.op for s in steps]
    last = steps[-1].grads
    assert 108.0 in [float(np.asarray(g.numpy() if hasattr(g, "numpy") else g)) for g in last.values()]
    assert stepper(tape, z, x) is not None


@claim("l01.dense-builds", "01", BOTH,
       "a Keras Dense layer creates its kernel and bias at its first call and lists them in "
       "trainable_variables; they are the sources of one gradient each")
def _(c):
    tf = c.tf
    layer = tf.keras.layers.Dense(2, activation="tanh")
    assert len(layer.trainable_variables) == 0
    x = tf.constant([[1.0, 2.0, 3.0]])
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(layer(x) ** 2)
    assert [v.name for v in layer.trainable_variables] == ["kernel", "bias"]
    grads = tape.gradient(loss, layer.trainable_variables)
    assert [tuple(g.shape) for g in grads] == [(3, 2), (2,)]


@claim("l01.plot-helper", "01", MINITAPE,
       "plot_function_and_derivative draws f and its derivative from one tape, for any "
       "element-wise function of minitape operations")
def _(c):
    from lessons.widgets import derivative_curve

    tf = c.tf
    xs = np.linspace(-6, 6, 25)
    ys, dys = derivative_curve(lambda x: x * tf.math.sin(x), xs)
    assert np.allclose(ys, xs * np.sin(xs)) and np.allclose(dys, np.sin(xs) + xs * np.cos(xs))
    figure = c.figure("plot-helper-code")
    curves = [line for line in figure["lines"] if not line["label"].startswith("_")]
    assert len(curves) == 2 and all(line["points"] == 201 for line in curves), curves
