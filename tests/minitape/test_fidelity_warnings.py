"""Only the warnings TensorFlow 2.21 gives reach the student (issue 15)."""
import subprocess
import sys
import textwrap
import warnings

import minitape as tf


def _caught(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        result = fn()
    return result, [str(m.message) for m in w]


def test_watching_an_integer_tensor_warns_once():
    def run():
        x = tf.constant(3)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        return tape.gradient(y, x)
    grad, messages = _caught(run)
    assert grad is None
    assert messages == ["The dtype of the watched tensor must be floating (e.g. tf.float32), "
                        "got tf.int32"]


def test_integer_variable_created_inside_the_tape_is_silent():
    def run():
        with tf.GradientTape() as tape:
            v = tf.Variable(3)
            y = v * v
        return tape.gradient(y, v)
    grad, messages = _caught(run)
    assert grad is None and messages == []


def test_integer_target_and_source_are_silent():
    x = tf.Variable([[2, 2], [2, 2]])
    def run():
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(x)
        return tape.gradient(y, x)
    grad, messages = _caught(run)
    assert grad is None and messages == []


def test_numpy_runtime_warnings_never_reach_the_student():
    # A fresh interpreter with Python's default warning filters, as a notebook kernel has.
    code = textwrap.dedent("""
        import minitape as tf
        a = tf.constant([1., 0.])
        r = [a / 0., tf.math.log(a), tf.exp(tf.constant(1000.)), tf.sqrt(tf.constant(-1.)),
             tf.pow(tf.constant(0.), -1.), tf.reduce_mean(tf.zeros((0,))),
             tf.constant([0.]) / tf.constant([0.]), tf.math.reciprocal(tf.constant(0.))]
        x = tf.Variable([0., -1.])
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.sqrt(x) + tf.math.log(x))
        g = tape.gradient(y, x)
        print(r[0].numpy().tolist(), r[5].numpy(), g.numpy().tolist())
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.strip() == "[inf, nan] nan [inf, nan]"


def test_the_filter_outlives_a_catch_warnings_block_minitape_was_imported_in():
    # e.g. a harness or a library that imports minitape inside `warnings.catch_warnings()`
    code = textwrap.dedent("""
        import warnings
        with warnings.catch_warnings():
            import minitape as tf
        r = tf.math.log(tf.constant([1., 0.]))
        x = tf.Variable([0., -1.])
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.sqrt(x))
        print(r.numpy().tolist(), tape.gradient(y, x).numpy().tolist())
        import numpy as np
        np.log(np.zeros(1))  # the student's own NumPy still warns
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[0.0, -inf] [inf, nan]"
    assert done.stderr.count("RuntimeWarning") == 1
    assert "divide by zero encountered in log" in done.stderr and "<string>" in done.stderr


def test_the_students_own_numpy_still_warns():
    code = "import minitape, numpy as np; np.log(np.zeros(1))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert "RuntimeWarning: divide by zero encountered in log" in done.stderr
