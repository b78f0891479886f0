"""The fast paths of the per-operation hot path give the same results as the general ones."""
from __future__ import annotations

import math

import numpy as np
import pytest

import minitape as tf
from minitape.errors import InvalidArgumentError


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64])
def test_python_float_adapts_to_the_tensor_dtype_on_both_sides(dtype):
    x = tf.constant(np.array([1.5, -2.0], dtype=dtype))
    for r in (x * 0.1, 0.1 * x, x + 0.25, 0.25 + x, x - 0.5, 0.5 - x, x / 4.0, 4.0 / x):
        assert r.dtype.as_numpy_dtype == dtype
    np.testing.assert_allclose((x * 0.1).numpy(), x.numpy() * dtype(0.1))
    np.testing.assert_allclose((0.5 - x).numpy(), dtype(0.5) - x.numpy())


def test_float_constants_keep_signed_zero_and_nan():
    x = tf.constant(np.float64(2.0))
    assert math.copysign(1.0, float(x * -0.0)) == -1.0
    assert math.copysign(1.0, float(x * 0.0)) == 1.0
    assert math.copysign(1.0, float(x * -0.0)) == -1.0  # again, after 0.0 was used
    assert math.isnan(float(x * float("nan")))
    y = tf.constant(np.float32(3.0))
    assert float(y * 0.1) == float(np.float32(3.0) * np.float32(0.1))
    assert float(x * 0.1) == 2.0 * 0.1  # same value, other dtype: its own constant


def test_same_constant_in_a_loop_gives_the_right_gradient():
    x = tf.Variable(0.5, dtype=tf.float64)
    with tf.GradientTape() as tape:
        y = x
        for _ in range(10):
            y = tf.sin(y * 1.0001 + 0.1) * 0.9
    v, d = 0.5, 1.0
    for _ in range(10):
        u = v * 1.0001 + 0.1
        v, d = math.sin(u) * 0.9, d * 1.0001 * math.cos(u) * 0.9
    assert float(y) == pytest.approx(v, rel=1e-15)
    assert float(tape.gradient(y, x)) == pytest.approx(d, rel=1e-12)


def test_two_tensors_of_different_dtypes_still_raise():
    a = tf.constant(np.float32(1.0))
    b = tf.constant(np.float64(1.0))
    for f in (tf.add, tf.multiply, tf.subtract, lambda p, q: p * q, lambda p, q: p + q):
        with pytest.raises(InvalidArgumentError, match="float tensor but is a double tensor"):
            f(a, b)


def test_variables_as_operands_of_binary_operations():
    v = tf.Variable(np.array([1.0, 2.0], dtype=np.float32))
    w = tf.Variable(np.array([3.0, 4.0], dtype=np.float32))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v * w + v * 2.0)
    gv, gw = tape.gradient(y, [v, w])
    np.testing.assert_array_equal(gv.numpy(), [5.0, 6.0])
    np.testing.assert_array_equal(gw.numpy(), [1.0, 2.0])


def _ops_on(x, y):
    return [tf.sin(x), tf.tanh(x), tf.exp(x), tf.negative(x), x * y, x + y, x - y, x / y,
            tf.multiply(x, y), tf.maximum(x, y)]


def test_operations_outside_any_tape_match_recorded_ones():
    x = tf.constant(np.array([0.3, -1.2], dtype=np.float64))
    y = tf.constant(np.array([2.0, 0.5], dtype=np.float64))
    plain = _ops_on(x, y)
    with tf.GradientTape() as tape:
        tape.watch(x)
        taped = _ops_on(x, y)
    assert len({t._id for t in plain + taped + [x, y]}) == len(plain) + len(taped) + 2
    for a, b in zip(plain, taped):
        assert type(a) is tf.Tensor and a.dtype == tf.float64
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert tape.gradient(taped[4], x).numpy().tolist() == [2.0, 0.5]


def test_forward_accumulator_sees_operations_between_tensors():
    x = tf.constant(2.0)
    y = tf.constant(3.0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        z = x * y
        s = tf.sin(x)
    assert float(acc.jvp(z)) == 3.0
    assert float(acc.jvp(s)) == pytest.approx(math.cos(2.0), rel=1e-6)


def test_internal_helpers_use_python_range_not_tf_range(monkeypatch):
    # the operations define the `range` operation; their own helpers must not build tensors
    # to count axes (patched in every module of the operations that sees the name)
    import importlib
    import pkgutil
    from minitape import _ops

    def no_tf_range(*args, **kwargs):
        raise AssertionError("an internal helper called minitape's range operation")

    for info in pkgutil.iter_modules(_ops.__path__):
        mod = importlib.import_module(f"minitape._ops.{info.name}")
        if getattr(mod, "range", None) is _ops.range:
            monkeypatch.setattr(mod, "range", no_tf_range)
    monkeypatch.setattr(_ops, "range", no_tf_range)
    x = tf.Variable(np.arange(1.0, 7.0).reshape(2, 3))
    b = tf.constant(np.ones((1, 3)))
    with tf.GradientTape() as tape:
        ys = [tf.transpose(x), tf.matmul(x, x, transpose_a=True), x + b,
              tf.reduce_logsumexp(x), tf.reduce_prod(x), tf.tile(x, [2, 1]),
              tf.reverse(x, [1]), tf.stack(tf.unstack(x, axis=1))]
        loss = tf.add_n([tf.reduce_sum(y) for y in ys])
    g = tape.gradient(loss, x)
    assert g.shape == (2, 3)
    assert all(type(p) is int for p in tf.transpose(x)._value.shape)


def test_gradient_with_operations_after_the_target_and_off_its_path():
    x = tf.Variable(2.0)
    w = tf.Variable(5.0)
    with tf.GradientTape(persistent=True) as tape:
        y = x * x            # a target...
        z = y * 3.0          # ...that later operations consume
        side = w * x         # leads to x and w, not to y
        u = tf.sin(side)
    assert float(tape.gradient(y, x)) == 4.0
    assert float(tape.gradient(z, x)) == 12.0
    assert tape.gradient(y, w) is None
    gx, gw = tape.gradient([y, u], [x, w])
    assert float(gx) == pytest.approx(4.0 + math.cos(10.0) * 5.0, rel=1e-5)  # float32
    assert float(gw) == pytest.approx(math.cos(10.0) * 2.0, rel=1e-5)
    # the stepper shows only the operations between the target and the sources
    from minitape import debugging
    steps = list(debugging.backward_steps(tape, y, x))
    assert [s.op for s in steps] == [None, "Mul"]
