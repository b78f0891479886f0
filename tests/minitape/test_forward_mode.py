"""Forward mode: ForwardAccumulator's JVPs against the tape's Jacobian, and Hessian-vector
products (forward-over-backward, backward-over-forward, forward-over-forward)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

import minitape as tf
from test_ops_gradcheck import CASES, NO_SECOND_ORDER

SETTINGS = dict(deadline=None, database=None, suppress_health_check=list(HealthCheck),
                phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink])


def jvp_forward(f, arrs, tangents):
    xs = [tf.constant(a) for a in arrs]
    with tf.autodiff.ForwardAccumulator(xs, [tf.constant(t) for t in tangents]) as acc:
        y = f(*xs)
    j = acc.jvp(y, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert j.dtype == y.dtype and j.shape == y.shape
    return j.numpy()


def jvp_from_jacobian(f, arrs, tangents):
    xs = [tf.constant(a) for a in arrs]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        y = f(*xs)
    jacs = tape.jacobian(y, xs, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    out = np.zeros(tuple(y.shape))
    for jac, t in zip(jacs, tangents):
        jac = jac.numpy().reshape(int(np.prod(y.shape, dtype=int)), t.size)
        out = out + (jac @ t.reshape(-1)).reshape(tuple(y.shape))
    return out


@pytest.mark.parametrize("name", sorted(set(CASES) - NO_SECOND_ORDER))  # (LookupError, as TF)
@settings(max_examples=8, **SETTINGS)
@given(data=st.data(), seed=st.integers(0, 2**31 - 1))
def test_jvp_equals_jacobian_times_tangent(name, data, seed):
    rng = np.random.default_rng(seed)
    f, arrs = CASES[name](data, rng)
    tangents = [rng.uniform(-1, 1, size=np.shape(a)) for a in arrs]
    got = jvp_forward(f, arrs, tangents)
    want = jvp_from_jacobian(f, arrs, tangents)
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9)


def test_tensorflow_docstring_hvp_is_6_0():
    v = tf.Variable([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(v, tf.constant([1.0, 0.0])) as acc:
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(v ** 3.0)
        backward = tape.gradient(y, v)
    np.testing.assert_allclose(backward.numpy(), [3.0, 12.0])
    hvp = acc.jvp(backward)
    assert hvp.dtype == tf.float32
    np.testing.assert_allclose(hvp.numpy(), [6.0, 0.0])


def test_tensorflow_docstring_jvp():
    # tf.autodiff.ForwardAccumulator's first docstring example
    x = tf.constant([[2.0, 3.0], [1.0, 4.0]])
    targets = tf.constant([[1.0, 0.0], [0.0, 1.0]])
    with tf.autodiff.ForwardAccumulator(x, targets) as acc:
        y = tf.reduce_sum(tf.sin(x))
    np.testing.assert_allclose(float(acc.jvp(y)), np.cos(2.0) + np.cos(4.0), rtol=1e-6)


def _f(x):
    return tf.reduce_sum(tf.sin(x) * tf.exp(x[::-1]) + tf.square(tf.tanh(x)) * tf.reduce_sum(x))


def _hessian(x):
    x = tf.constant(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = _f(x)
        g = inner.gradient(y, x)
    return outer.jacobian(g, x).numpy()


def test_forward_over_backward_hvp_equals_hessian_times_vector():
    rng = np.random.default_rng(3)
    x, v = rng.normal(size=4), rng.normal(size=4)
    xt = tf.constant(x)
    with tf.autodiff.ForwardAccumulator(xt, tf.constant(v)) as acc:
        with tf.GradientTape() as tape:
            tape.watch(xt)
            y = _f(xt)
        g = tape.gradient(y, xt)
    np.testing.assert_allclose(acc.jvp(g).numpy(), _hessian(x) @ v, rtol=1e-10)


def test_backward_over_forward_hvp_equals_hessian_times_vector():
    rng = np.random.default_rng(4)
    x, v = rng.normal(size=4), rng.normal(size=4)
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        with tf.autodiff.ForwardAccumulator(xt, tf.constant(v)) as acc:
            y = _f(xt)
        dy = acc.jvp(y)  # directional derivative <grad f, v>, itself recorded on the tape
    np.testing.assert_allclose(tape.gradient(dy, xt).numpy(), _hessian(x) @ v, rtol=1e-10)


def test_forward_over_forward_gives_second_directional_derivative():
    rng = np.random.default_rng(5)
    x, u, v = rng.normal(size=4), rng.normal(size=4), rng.normal(size=4)
    xt = tf.constant(x)
    with tf.autodiff.ForwardAccumulator(xt, tf.constant(u)) as outer:
        with tf.autodiff.ForwardAccumulator(xt, tf.constant(v)) as inner:
            y = _f(xt)
        dv = inner.jvp(y)
    np.testing.assert_allclose(float(outer.jvp(dv)), u @ _hessian(x) @ v, rtol=1e-10)


def test_jvp_through_variables_custom_gradient_and_several_primals():
    @tf.custom_gradient
    def cube(x):
        return x ** 3.0, lambda dy: dy * 3.0 * x ** 2.0

    a = tf.Variable(np.array([1.0, 2.0]))
    b = tf.constant(np.array([0.5, -1.0]))
    with tf.autodiff.ForwardAccumulator([a, b], [tf.constant(np.array([1.0, 1.0])),
                                                 tf.constant(np.array([2.0, 0.0]))]) as acc:
        y = cube(a) * b
    # d(a^3 b) = 3a^2 b da + a^3 db
    np.testing.assert_allclose(acc.jvp(y).numpy(), [3 * 0.5 * 1 + 1 * 2, 3 * 4 * -1.0 + 0.0])


def test_jvp_of_unconnected_and_non_differentiable_results():
    x = tf.constant([1.0, 2.0])
    c = tf.constant([3.0, 4.0])
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0])) as acc:
        y = c * 2.0
        z = tf.math.floor(x)
        w = tf.stop_gradient(x) * 2.0
    assert acc.jvp(y) is None and acc.jvp(z) is None and acc.jvp(w) is None
    np.testing.assert_array_equal(acc.jvp(y, unconnected_gradients="zero").numpy(), [0.0, 0.0])
    # nested structures come back with the same structure
    r = acc.jvp({"a": x, "b": [y]})
    np.testing.assert_array_equal(r["a"].numpy(), [1.0, 1.0])
    assert r["b"][0] is None


def test_accumulator_errors():
    x = tf.constant([1.0, 2.0])
    with pytest.raises(ValueError):
        tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError):
        tf.autodiff.ForwardAccumulator([x, x], [tf.constant([1.0, 2.0])])
    img = tf.ones((2, 2, 1))
    with tf.autodiff.ForwardAccumulator(img, tf.ones((2, 2, 1))):
        with pytest.raises(LookupError, match="AdjustContrastv2"):
            tf.image.adjust_contrast(img, 2.0)
