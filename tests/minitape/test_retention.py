"""What a tape keeps alive: only what each gradient needs (the memory targets of issue 3)."""
from __future__ import annotations

import gc
import weakref

import numpy as np

import minitape as tf


def _record(op):
    """Record ``loss = sum(tanh(op(relu(x))))``; weak references to relu(x) and op(relu(x)).

    relu(x) is kept by nothing else on the tape (relu keeps a mask, tanh its output), so
    whether it survives tells what ``op``'s entry keeps.
    """
    x = tf.Variable(np.linspace(-1, 1, 7, dtype=np.float32))
    with tf.GradientTape() as tape:
        h = tf.nn.relu(x)
        y = op(h)
        loss = tf.reduce_sum(tf.tanh(y))
    refs = weakref.ref(h), weakref.ref(y)
    del h, y
    gc.collect()
    return refs, tape, x, loss


def _expected(x, f, df):
    r = np.maximum(x, 0)
    return (1 - np.tanh(f(r)) ** 2) * df(r) * (x > 0)


def test_tanh_exp_sigmoid_keep_their_output_not_their_input():
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    for op, f, df in ((tf.tanh, np.tanh, lambda v: 1 - np.tanh(v) ** 2),
                      (tf.exp, np.exp, np.exp),
                      (tf.sigmoid, sig, lambda v: sig(v) * (1 - sig(v)))):
        (h, y), tape, x, loss = _record(op)
        assert h() is None, f"{op.__name__}'s tape entry keeps its input alive"
        assert y() is not None, f"{op.__name__}'s output was not kept for its gradient"
        np.testing.assert_allclose(tape.gradient(loss, x).numpy(), _expected(x.numpy(), f, df),
                                   rtol=1e-5, atol=1e-7)


def test_relu_keeps_neither_input_nor_output():
    (h, y), tape, x, loss = _record(tf.nn.relu)
    assert h() is None, "relu's tape entry keeps its input"
    assert y() is None, "relu's tape entry keeps its output"
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(),
                               _expected(x.numpy(), lambda v: v, lambda v: np.ones_like(v)),
                               rtol=1e-6)


def test_relu_gradient_is_differentiable_again():
    x = tf.Variable(np.array([-1.0, 2.0, 0.5], dtype=np.float32))
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = tf.reduce_sum(tf.nn.relu(x) * x)
        g = inner.gradient(y, x)          # 2x where x > 0
        s = tf.reduce_sum(g * g)          # 4x^2 where x > 0
    np.testing.assert_array_equal(g.numpy(), [0.0, 4.0, 1.0])
    np.testing.assert_array_equal(outer.gradient(s, x).numpy(), [0.0, 16.0, 4.0])
    assert g.dtype == tf.float32


def test_non_persistent_tape_frees_entries_during_backward():
    # a long relu/tanh chain: each residual is released once its entry has been used
    x = tf.Variable(np.ones(1000, dtype=np.float32))
    refs = []
    with tf.GradientTape() as tape:
        y = x
        for i in range(20):
            y = tf.nn.relu(y) if i % 2 == 0 else tf.tanh(y)
            refs.append(weakref.ref(y))
        loss = tf.reduce_sum(y)
    del y
    g = tape.gradient(loss, x)
    del loss
    gc.collect()
    assert all(r() is None for r in refs)
    assert g.shape == (1000,)


def test_entries_are_freed_while_the_backward_pass_runs():
    # the first operation's gradient runs last: by then every later entry has been used, and a
    # non-persistent tape must already have let go of what those entries kept
    refs, seen = [], []

    @tf.custom_gradient
    def first(x):
        def grad(g):
            gc.collect()
            seen.append([r() is None for r in refs])
            return g
        return tf.identity(x), grad

    x = tf.Variable(np.ones(10, dtype=np.float32))
    with tf.GradientTape() as tape:
        y = first(x)
        for _ in range(5):
            y = tf.tanh(y)  # each tanh entry keeps its output
            refs.append(weakref.ref(y))
        loss = tf.reduce_sum(y)
    del y
    g = tape.gradient(loss, x)
    assert seen == [[True] * 5]
    t = np.ones(10)
    for _ in range(5):
        t = np.tanh(t)
    expected = np.ones(10)
    v = np.ones(10)
    for _ in range(5):
        v = np.tanh(v)
        expected = expected * (1 - v * v)
    np.testing.assert_allclose(g.numpy(), expected, rtol=1e-5)
