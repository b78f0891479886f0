"""Gradient semantics of individual operations: None for non-differentiable ones, TensorFlow's
choices at ties and kinks, dtypes, empty reductions, and regressions of fixed bugs."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import minitape as tf
from minitape.errors import InvalidArgumentError
from _mt_numeric import check_first_order, check_second_order


def grad_of(f, x):
    """The gradient, dense (a gather's is an IndexedSlices, as in TF)."""
    x = tf.Variable(x)
    with tf.GradientTape() as t:
        y = f(x)
    g = t.gradient(y, x)
    return tf.convert_to_tensor(g) if isinstance(g, tf.IndexedSlices) else g


# ------------------------------------------------------------------------------------------
# Non-differentiable operations give None; sign gives zeros
# ------------------------------------------------------------------------------------------

NON_DIFFERENTIABLE = {
    "argmax": lambda x: tf.cast(tf.argmax(x), tf.float32),
    "argmin": lambda x: tf.cast(tf.math.argmin(x), tf.float32),
    "floor": tf.math.floor,
    "ceil": tf.math.ceil,
    "round": tf.round,
    "floordiv": lambda x: x // 2.0,
    "greater": lambda x: tf.cast(x > 0.0, tf.float32),
    "less_equal": lambda x: tf.cast(x <= 0.0, tf.float32),
    "equal": lambda x: tf.cast(tf.equal(x, 1.5), tf.float32),
    "not_equal": lambda x: tf.cast(x != 1.5, tf.float32),
    "is_nan": lambda x: tf.cast(tf.math.is_nan(x), tf.float32),
    "logical_and": lambda x: tf.cast(tf.logical_and(x > 0.0, x < 2.0), tf.float32),
    "reduce_any": lambda x: tf.cast(tf.reduce_any(x > 0.0), tf.float32),
    "stop_gradient": tf.stop_gradient,
    "one_hot": lambda x: tf.one_hot(tf.argmax(x), 3),
    "zeros_like": tf.zeros_like,
    "ones_like": tf.ones_like,
    "shape": lambda x: tf.cast(tf.shape(x), tf.float32),
    "where_indices": lambda x: tf.cast(tf.where(x > 0.0), tf.float32),
    "cast_to_int_and_back": lambda x: tf.cast(tf.cast(x, tf.int32), tf.float32),
    "numpy_function": lambda x: tf.constant(np.sin(x)),  # __array__: the tape loses track
}


@pytest.mark.parametrize("name", sorted(NON_DIFFERENTIABLE))
def test_non_differentiable_ops_give_none(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert grad_of(NON_DIFFERENTIABLE[name], [1.5, -2.5, 3.0]) is None


def test_non_differentiable_ops_give_zeros_when_asked():
    x = tf.Variable([1.5, -2.5])
    with tf.GradientTape() as t:
        y = tf.math.floor(x)
    g = t.gradient(y, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    np.testing.assert_array_equal(g.numpy(), [0.0, 0.0])
    assert g.dtype == tf.float32


def test_sign_has_a_zero_gradient_not_none():
    g = grad_of(tf.sign, [1.5, -2.5, 0.0])
    assert g is not None
    np.testing.assert_array_equal(g.numpy(), [0.0, 0.0, 0.0])
    # and the zero is differentiable again (second order through sign)
    x = tf.Variable(2.0)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = tf.sign(x) * x ** 2
        dy = inner.gradient(y, x)
    assert float(dy) == pytest.approx(4.0)
    assert float(outer.gradient(dy, x)) == pytest.approx(2.0)


def test_mixed_differentiable_and_not():
    # floor's branch contributes nothing; the x * 3 branch contributes 3
    g = grad_of(lambda x: tf.math.floor(x) * 0.0 + x * 3.0 + tf.round(x), 1.3)
    assert float(g) == pytest.approx(3.0)


# ------------------------------------------------------------------------------------------
# TensorFlow's choices at ties and kinks
# ------------------------------------------------------------------------------------------

def test_reduce_max_splits_the_gradient_among_ties():
    np.testing.assert_allclose(grad_of(tf.reduce_max, [1.0, 3.0, 3.0]).numpy(), [0.0, 0.5, 0.5])
    np.testing.assert_allclose(grad_of(tf.reduce_min, [[1.0, 1.0], [2.0, 1.0]]).numpy(),
                               np.array([[1, 1], [0, 1]]) / 3.0)
    np.testing.assert_allclose(
        grad_of(lambda x: tf.reduce_max(x, axis=1), [[1.0, 1.0], [2.0, 0.0]]).numpy(),
        [[0.5, 0.5], [1.0, 0.0]])


def test_maximum_and_minimum_give_ties_to_the_first_argument():
    x, y = tf.Variable([1.0, 2.0]), tf.Variable([1.0, 1.0])
    with tf.GradientTape(persistent=True) as t:
        a = tf.maximum(x, y)
        b = tf.minimum(x, y)
    np.testing.assert_array_equal(t.gradient(a, x).numpy(), [1.0, 1.0])
    np.testing.assert_array_equal(t.gradient(a, y).numpy(), [0.0, 0.0])
    np.testing.assert_array_equal(t.gradient(b, x).numpy(), [1.0, 0.0])
    np.testing.assert_array_equal(t.gradient(b, y).numpy(), [0.0, 1.0])


@pytest.mark.parametrize("f, expected", [
    (tf.abs, [-1.0, 0.0, 1.0]),
    (tf.nn.relu, [0.0, 0.0, 1.0]),
    (tf.nn.elu, [np.exp(-1.0), 1.0, 1.0]),
    (lambda x: tf.nn.leaky_relu(x, alpha=0.1), [0.1, 0.1, 1.0]),
    (lambda x: tf.clip_by_value(x, -1.0, 0.0), [1.0, 1.0, 0.0]),   # bounds inclusive
])
def test_gradients_at_kinks(f, expected):
    np.testing.assert_allclose(grad_of(f, [-1.0, 0.0, 1.0]).numpy(), expected, rtol=1e-6)


def test_pow_gradient_for_the_exponent_is_zero_where_the_base_is_not_positive():
    x, y = tf.Variable([-2.0, 0.0, 2.0]), tf.Variable(2.0)
    with tf.GradientTape() as t:
        z = tf.pow(x, y)
    gx, gy = t.gradient(z, [x, y])
    np.testing.assert_allclose(gx.numpy(), [-4.0, 0.0, 4.0])
    assert float(gy) == pytest.approx(4.0 * np.log(2.0))


# ------------------------------------------------------------------------------------------
# dtypes
# ------------------------------------------------------------------------------------------

FLOAT32_OPS = [tf.sin, tf.exp, tf.square, tf.sigmoid, tf.nn.softplus, tf.math.erf,
               tf.nn.softmax, tf.reduce_logsumexp, tf.reduce_prod, tf.math.reduce_std,
               lambda x: tf.linalg.inv(tf.reshape(x, (2, 2)) + tf.eye(2)),
               lambda x: tf.linalg.det(tf.reshape(x, (2, 2)) + tf.eye(2)),
               lambda x: tf.norm(x), lambda x: tf.clip_by_norm(x, 0.1),
               lambda x: tf.gather(x, [0, 0, 3]), lambda x: x[1:3] ** 2.0,
               lambda x: tf.cast(x, tf.float64) * 2.0, lambda x: tf.einsum("i,i->", x, x)]


@pytest.mark.parametrize("k", range(len(FLOAT32_OPS)))
def test_float32_in_float32_gradient_out(k):
    g = grad_of(FLOAT32_OPS[k], np.array([0.3, -0.2, 0.5, 0.1], dtype=np.float32))
    assert g.dtype == tf.float32 and g.shape == (4,)
    assert np.all(np.isfinite(g.numpy()))


def test_cast_gradient_is_cast_back():
    x = tf.Variable(np.array([1.0, 2.0]), dtype=tf.float64)
    with tf.GradientTape() as t:
        y = tf.cast(x, tf.float32) * tf.constant([3.0, 4.0])
    g = t.gradient(y, x)
    assert g.dtype == tf.float64
    np.testing.assert_array_equal(g.numpy(), [3.0, 4.0])


def test_integer_reductions_keep_their_dtype():
    for dt in (tf.int32, tf.int64, tf.int16):
        x = tf.constant([[1, 2], [3, 4]], dtype=dt)
        for op in (tf.reduce_sum, tf.reduce_prod, tf.reduce_max, tf.reduce_min, tf.reduce_mean):
            r = op(x, axis=0)
            assert r.dtype == dt, (op, dt, r.dtype)
    assert int(tf.reduce_sum(tf.constant([1, 2, 3]))) == 6
    assert int(tf.reduce_prod(tf.constant([2, 3, 4]))) == 24


# ------------------------------------------------------------------------------------------
# Empty reductions (TensorFlow's identities) and size-0 gradients
# ------------------------------------------------------------------------------------------

def test_reductions_over_no_elements():
    e = tf.zeros((0, 3), dtype=tf.float64)
    np.testing.assert_array_equal(tf.reduce_sum(e, axis=0).numpy(), [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(tf.reduce_prod(e, axis=0).numpy(), [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(tf.reduce_max(e, axis=0).numpy(), [-np.inf] * 3)
    np.testing.assert_array_equal(tf.reduce_min(e, axis=0).numpy(), [np.inf] * 3)
    np.testing.assert_array_equal(tf.reduce_logsumexp(e, axis=0).numpy(), [-np.inf] * 3)
    assert tf.reduce_max(e, axis=1).shape == (0,)
    assert tf.reduce_max(e, axis=0, keepdims=True).shape == (1, 3)
    assert float(tf.reduce_max(e)) == -np.inf
    assert int(tf.reduce_max(tf.zeros((0,), dtype=tf.int32))) == np.iinfo(np.int32).min
    assert int(tf.reduce_min(tf.zeros((0,), dtype=tf.int32))) == np.iinfo(np.int32).max


@pytest.mark.parametrize("op", [tf.reduce_sum, tf.reduce_max, tf.reduce_logsumexp, tf.reduce_prod,
                                tf.sin, tf.nn.softmax, lambda x: x * 2.0 + 1.0])
def test_gradient_of_a_size_zero_tensor_is_a_size_zero_zero(op):
    x = tf.constant(np.zeros((0, 3)))
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(op(x))
    g = t.gradient(y, x)
    assert g is not None and g.shape == (0, 3) and g.dtype == tf.float64


# ------------------------------------------------------------------------------------------
# norm: vector and matrix norms, TensorFlow's errors
# ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ord_", ["euclidean", "fro", 1, np.inf])
@pytest.mark.parametrize("keepdims", [False, True])
def test_matrix_norms_match_numpy(ord_, keepdims):
    x = np.random.default_rng(0).normal(size=(2, 3, 4))
    got = tf.norm(tf.constant(x), ord=ord_, axis=[-2, -1], keepdims=keepdims).numpy()
    want = np.linalg.norm(x, ord="fro" if ord_ == "euclidean" else ord_, axis=(-2, -1),
                          keepdims=keepdims)
    np.testing.assert_allclose(got, want)
    want_t = np.linalg.norm(np.swapaxes(x, 0, 2), ord="fro" if ord_ == "euclidean" else ord_,
                            axis=(0, 1))
    np.testing.assert_allclose(tf.norm(tf.constant(x), ord=ord_, axis=(2, 1)).numpy(), want_t)


@pytest.mark.parametrize("ord_", ["euclidean", 1, np.inf])
def test_matrix_norm_gradients(ord_):
    x = np.array([[1.0, -2.0, 0.5], [0.3, 4.0, -6.0]])  # unique largest column / row sums
    check_first_order(lambda t: tf.norm(t, ord=ord_, axis=[0, 1]), [x])
    check_second_order(lambda t: tf.norm(t, ord=ord_, axis=[0, 1]), [x])


@pytest.mark.parametrize("ord_", [1, 2, np.inf, 3, 0.5])
def test_vector_norms_match_numpy(ord_):
    x = np.random.default_rng(1).normal(size=(3, 4))
    np.testing.assert_allclose(tf.norm(tf.constant(x), ord=ord_, axis=1).numpy(),
                               np.linalg.norm(x, ord=ord_, axis=1))
    np.testing.assert_allclose(tf.norm(tf.constant(x), ord=ord_).numpy(),
                               np.linalg.norm(x.reshape(-1), ord=ord_))


def test_norm_errors():
    x = tf.ones((2, 2))
    with pytest.raises(ValueError, match="'ord' must be a supported vector norm, got fro"):
        tf.norm(x, ord="fro")
    with pytest.raises(ValueError, match="'ord' must be a supported vector norm, got 0"):
        tf.norm(x, ord=0)
    with pytest.raises(ValueError, match="'ord' must be a supported vector norm, got -1"):
        tf.norm(x, ord=-1, axis=0)
    with pytest.raises(ValueError, match=r"supported matrix norm in \['euclidean', 'fro', 1, 2, inf\], got 3"):
        tf.norm(x, ord=3, axis=[0, 1])
    with pytest.raises(NotImplementedError, match="spectral norm"):
        tf.norm(x, ord=2, axis=[0, 1])


# ------------------------------------------------------------------------------------------
# clip_by_norm and clip_by_value
# ------------------------------------------------------------------------------------------

def test_clip_by_norm_gradient_is_finite_at_zero():
    # TensorFlow never differentiates the square root at zero: the gradient is the identity.
    g = grad_of(lambda x: tf.clip_by_norm(x, 1.0), [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(g.numpy(), [1.0, 1.0, 1.0])
    g = grad_of(lambda x: tf.clip_by_norm(x, 1.0, axes=[1]), [[0.0, 0.0], [3.0, 4.0]])
    assert np.all(np.isfinite(g.numpy()))
    np.testing.assert_allclose(g.numpy()[0], [1.0, 1.0])


def test_clip_by_norm_values():
    np.testing.assert_allclose(tf.clip_by_norm(tf.constant([3.0, 4.0]), 1.0).numpy(), [0.6, 0.8])
    np.testing.assert_allclose(tf.clip_by_norm(tf.constant([0.3, 0.4]), 1.0).numpy(), [0.3, 0.4])
    np.testing.assert_allclose(tf.clip_by_norm(tf.constant([[3.0, 4.0], [0.3, 0.4]]), 1.0, axes=[1]).numpy(),
                               [[0.6, 0.8], [0.3, 0.4]], rtol=1e-6)


def test_clip_by_value_with_tensor_bounds_gives_them_gradients():
    x = tf.Variable([-2.0, 0.5, 3.0])
    lo, hi = tf.Variable(-1.0), tf.Variable(1.0)
    with tf.GradientTape() as t:
        y = tf.clip_by_value(x, lo, hi) * tf.constant([1.0, 2.0, 3.0])
    gx, glo, ghi = t.gradient(y, [x, lo, hi])
    np.testing.assert_array_equal(gx.numpy(), [0.0, 2.0, 0.0])
    assert float(glo) == 1.0 and float(ghi) == 3.0
    np.testing.assert_array_equal(tf.clip_by_value(x, lo, hi).numpy(), [-1.0, 0.5, 1.0])


# ------------------------------------------------------------------------------------------
# gather: batch_dims, index validation
# ------------------------------------------------------------------------------------------

def _gather_reference(p, idx, axis, bd):
    if bd == 0:
        return np.take(p, idx, axis=axis)
    return np.stack([_gather_reference(p[i], idx[i], axis - 1, bd - 1) for i in range(p.shape[0])])


@pytest.mark.parametrize("pshape, ishape, axis, bd", [
    ((2, 3, 4), (2, 5), 1, 1),
    ((2, 3, 4), (2, 2), 2, 1),
    ((2, 3, 4), (2, 3, 2), 2, 2),
    ((2, 3, 4, 2), (2, 1, 3), 2, 1),
    ((2, 3), (2, 2, 2), None, 1),
    ((3, 4), (2,), 1, 0),
    ((2, 3, 4), (2, 5), 1, -1),
])
def test_gather_batch_dims(pshape, ishape, axis, bd):
    rng = np.random.default_rng(0)
    p = rng.normal(size=pshape)
    eff_bd = bd if bd >= 0 else bd + len(ishape)
    eff_axis = eff_bd if axis is None else axis
    idx = rng.integers(0, pshape[eff_axis], size=ishape)
    got = tf.gather(tf.constant(p), idx, axis=axis, batch_dims=bd)
    np.testing.assert_array_equal(got.numpy(), _gather_reference(p, idx, eff_axis, eff_bd))
    f = lambda t: tf.gather(t, idx, axis=axis, batch_dims=bd) ** 2  # noqa: E731
    check_first_order(f, [p])
    check_second_order(f, [p])


def test_gather_index_errors():
    p = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with pytest.raises(InvalidArgumentError, match=r"indices\[1\] = 3 is not in \[0, 3\)"):
        tf.gather(p, [0, 3])
    with pytest.raises(InvalidArgumentError, match=r"indices\[0,1\] = -1 is not in \[0, 2\)"):
        tf.gather(p, [[0, -1]], axis=1)
    with pytest.raises(TypeError, match="integers"):
        tf.gather(p, [0.5])


# ------------------------------------------------------------------------------------------
# The *_no_nan family, xlogy, activations, sorting, masks, gather_nd, slogdet
# ------------------------------------------------------------------------------------------

def test_no_nan_operations_and_their_gradients_at_zero():
    x, y = tf.Variable([2.0, 3.0, 0.0]), tf.Variable([0.0, 2.0, 0.0])
    with tf.GradientTape(persistent=True) as t:
        d = tf.math.divide_no_nan(x, y)
        m = tf.math.multiply_no_nan(tf.constant([np.inf, 1.0, np.nan]), y)
        r = tf.math.reciprocal_no_nan(y)
        xl = tf.math.xlogy(tf.constant([0.0, 2.0, 0.0]), y)
        xd = tf.math.xdivy(tf.constant([0.0, 2.0, 0.0]), y)
    np.testing.assert_array_equal(d.numpy(), [0.0, 1.5, 0.0])
    np.testing.assert_array_equal(m.numpy(), [0.0, 2.0, 0.0])
    np.testing.assert_array_equal(r.numpy(), [0.0, 0.5, 0.0])
    np.testing.assert_allclose(xl.numpy(), [0.0, 2.0 * np.log(2.0), 0.0])
    np.testing.assert_array_equal(xd.numpy(), [0.0, 1.0, 0.0])
    for out in (d, r, xl, xd):
        for src in (x, y):
            g = t.gradient(out, src, unconnected_gradients="zero")
            assert np.all(np.isfinite(g.numpy())), (out, src)
    np.testing.assert_allclose(t.gradient(d, x).numpy(), [0.0, 0.5, 0.0])
    np.testing.assert_allclose(t.gradient(d, y).numpy(), [0.0, -0.75, 0.0])
    np.testing.assert_allclose(t.gradient(xl, y).numpy(), [0.0, 1.0, 0.0])


def test_xlogy_gradient_for_x_is_zero_where_x_is_zero():
    x, y = tf.Variable([0.0, 1.0]), tf.constant([3.0, 3.0])
    with tf.GradientTape() as t:
        z = tf.math.xlogy(x, y)
    np.testing.assert_allclose(t.gradient(z, x).numpy(), [0.0, np.log(3.0)], rtol=1e-6)


def test_activation_values():
    x = tf.constant([-2.0, -0.5, 0.0, 0.5, 2.0], dtype=tf.float64)
    xv = x.numpy()
    from math import erf
    np.testing.assert_allclose(tf.nn.gelu(x).numpy(), [0.5 * v * (1 + erf(v / np.sqrt(2))) for v in xv])
    np.testing.assert_allclose(tf.nn.gelu(x, approximate=True).numpy(),
                               0.5 * xv * (1 + np.tanh(np.sqrt(2 / np.pi) * (xv + 0.044715 * xv ** 3))))
    np.testing.assert_allclose(tf.nn.selu(x).numpy(),
                               1.0507009873554805 * np.where(xv > 0, xv, 1.6732632423543772 * np.expm1(xv)))
    np.testing.assert_allclose(tf.nn.softsign(x).numpy(), xv / (1 + np.abs(xv)))
    np.testing.assert_allclose(tf.math.log_sigmoid(x).numpy(), -np.log1p(np.exp(-xv)))
    assert float(tf.math.log_sigmoid(tf.constant(-1000.0))) == -1000.0  # no overflow
    np.testing.assert_allclose(tf.math.asinh(x).numpy(), np.arcsinh(xv))
    np.testing.assert_allclose(tf.nn.l2_normalize(tf.constant([3.0, 4.0])).numpy(), [0.6, 0.8])


def test_sort_argsort_and_top_k():
    x = tf.constant([[3.0, 1.0, 3.0, 2.0], [0.0, -1.0, 5.0, 5.0]])
    np.testing.assert_array_equal(tf.sort(x).numpy(), np.sort(x.numpy(), axis=-1))
    np.testing.assert_array_equal(tf.sort(x, direction="DESCENDING").numpy(), -np.sort(-x.numpy(), axis=-1))
    np.testing.assert_array_equal(tf.sort(x, axis=0).numpy(), np.sort(x.numpy(), axis=0))
    i = tf.argsort(x)
    assert i.dtype == tf.int32
    np.testing.assert_array_equal(i.numpy(), [[1, 3, 0, 2], [1, 0, 2, 3]])  # ties keep their order
    np.testing.assert_array_equal(tf.argsort(x, direction="DESCENDING").numpy(), [[0, 2, 3, 1], [2, 3, 0, 1]])
    values, indices = tf.math.top_k(x, k=2)
    np.testing.assert_array_equal(values.numpy(), [[3.0, 3.0], [5.0, 5.0]])
    np.testing.assert_array_equal(indices.numpy(), [[0, 2], [2, 3]])  # TF: lower index first
    r = tf.math.top_k(x, 1)
    assert r.values.shape == (2, 1) and r.indices.dtype == tf.int32
    with pytest.raises(InvalidArgumentError, match="at least k=5"):
        tf.math.top_k(x, 5)
    with pytest.raises(ValueError, match="direction"):
        tf.sort(x, direction="UP")
    # sorting moves gradients with the values; indices are constants
    g = grad_of(lambda v: tf.sort(v) * tf.constant([1.0, 10.0, 100.0]), [5.0, 1.0, 3.0])
    np.testing.assert_array_equal(g.numpy(), [100.0, 1.0, 10.0])
    assert grad_of(lambda v: tf.cast(tf.argsort(v), tf.float32), [2.0, 1.0]) is None


def test_boolean_mask():
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    np.testing.assert_array_equal(tf.boolean_mask(x, [False, True]).numpy(), [[4.0, 5.0, 6.0]])
    np.testing.assert_array_equal(tf.boolean_mask(x, [True, False, True], axis=1).numpy(),
                                  [[1.0, 3.0], [4.0, 6.0]])
    np.testing.assert_array_equal(tf.boolean_mask(x, x > 2.5).numpy(), [3.0, 4.0, 5.0, 6.0])
    with pytest.raises(ValueError, match="incompatible"):
        tf.boolean_mask(x, [True, False, True])
    with pytest.raises(TypeError, match="boolean"):
        tf.boolean_mask(x, [1, 0])
    g = grad_of(lambda v: tf.boolean_mask(v, np.array([[True, False], [True, True]])) * 3.0,
                [[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(g.numpy(), [[3.0, 0.0], [3.0, 3.0]])


def test_gather_nd_values_and_errors():
    p = np.arange(24.0).reshape(2, 3, 4)
    t = tf.constant(p)
    np.testing.assert_array_equal(tf.gather_nd(t, [[1, 2, 3], [0, 0, 1]]).numpy(), [23.0, 1.0])
    np.testing.assert_array_equal(tf.gather_nd(t, [[1], [0]]).numpy(), p[[1, 0]])
    np.testing.assert_array_equal(tf.gather_nd(t, [[[0, 1]], [[1, 2]]]).numpy(), [[p[0, 1]], [p[1, 2]]])
    np.testing.assert_array_equal(tf.gather_nd(t, [[2, 3], [0, 0]], batch_dims=1).numpy(), [p[0, 2, 3], p[1, 0, 0]])
    with pytest.raises(InvalidArgumentError, match="does not index into param shape"):
        tf.gather_nd(t, [[2, 0]])
    with pytest.raises(InvalidArgumentError, match="innermost dimension"):
        tf.gather_nd(t, [[0, 0, 0, 0]])
    g = grad_of(lambda v: tf.gather_nd(v, [[0, 1], [0, 1], [1, 0]]), [[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(g.numpy(), [[0.0, 2.0], [1.0, 0.0]])  # repeats add up


def test_slogdet_logdet_and_diag():
    a = np.array([[2.0, 1.0], [1.0, -3.0]])
    sign, logabs = tf.linalg.slogdet(tf.constant(a))
    assert float(sign) == -1.0 and float(logabs) == pytest.approx(np.log(7.0))
    g = grad_of(lambda v: tf.linalg.slogdet(v)[1], a)
    np.testing.assert_allclose(g.numpy(), np.linalg.inv(a).T)
    spd = np.array([[2.0, 0.5], [0.5, 1.0]])
    assert float(tf.linalg.logdet(tf.constant(spd))) == pytest.approx(np.log(np.linalg.det(spd)))
    np.testing.assert_array_equal(tf.linalg.diag(tf.constant([[1.0, 2.0]])).numpy(), [[[1.0, 0.0], [0.0, 2.0]]])
    assert grad_of(lambda v: tf.linalg.slogdet(v)[0], a) is None


def test_count_nonzero():
    x = tf.constant([[0.0, 1.5], [2.0, 0.0]])
    c = tf.math.count_nonzero(x)
    assert c.dtype == tf.int64 and int(c) == 2
    np.testing.assert_array_equal(tf.math.count_nonzero(x, axis=0).numpy(), [1, 1])
    assert int(tf.math.count_nonzero(tf.constant([True, False, True]))) == 2
    assert grad_of(lambda v: tf.cast(tf.math.count_nonzero(v), tf.float32), [1.0, 0.0]) is None


def test_tensorflow_top_level_aliases():
    for name in ["acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cosh", "sinh", "floor",
                 "sort", "argsort", "boolean_mask", "gather_nd"]:
        assert callable(getattr(tf, name)), name
    for name in ["asinh", "acosh", "atanh", "xlogy", "xdivy", "divide_no_nan", "multiply_no_nan",
                 "reciprocal_no_nan", "log_sigmoid", "softsign", "top_k", "count_nonzero"]:
        assert callable(getattr(tf.math, name)), name
    for name in ["gelu", "selu", "softsign", "l2_normalize"]:
        assert callable(getattr(tf.nn, name)), name
    for name in ["slogdet", "logdet", "diag"]:
        assert callable(getattr(tf.linalg, name)), name


@pytest.mark.parametrize("spec, shapes", [
    ("ii->", [(3, 3)]), ("ii->i", [(3, 3)]), ("ij,jj->i", [(2, 3), (3, 3)]),
    ("...ij,...jk->...ik", [(1, 2, 3), (2, 3, 2)]), ("...ij,...jk", [(4, 2, 3), (3, 2)]),
    ("...i,...i", [(2, 3), (3,)]), ("i...->...", [(2, 3, 2)]), ("...", [(2, 3)]),
    ("ab...,b->...a", [(2, 3, 4, 1), (3,)]),
])
def test_einsum_matches_numpy(spec, shapes):
    rng = np.random.default_rng(0)
    arrs = [rng.normal(size=s) for s in shapes]
    np.testing.assert_allclose(tf.einsum(spec, *[tf.constant(a) for a in arrs]).numpy(),
                               np.einsum(spec, *arrs), rtol=1e-12)


def test_einsum_errors():
    with pytest.raises(ValueError, match="more indices"):
        tf.einsum("ijk...->", tf.ones((2, 2)))
    with pytest.raises(ValueError, match="names 2 operands"):
        tf.einsum("...i,...i->...", tf.ones((2, 2)))


def _einsum_specs():
    from test_ops_gradcheck import EINSUM_SPECS
    return EINSUM_SPECS


@pytest.mark.parametrize("spec, shapes", _einsum_specs())
def test_every_einsum_spec_first_and_second_order(spec, shapes):
    rng = np.random.default_rng(1)
    arrs = [rng.normal(size=s) for s in shapes]
    f = lambda *ts: tf.einsum(spec, *ts)  # noqa: E731
    check_first_order(f, arrs)
    check_second_order(f, arrs)


# ------------------------------------------------------------------------------------------
# Shape errors with TensorFlow's messages; trace and diag_part of any matrix
# ------------------------------------------------------------------------------------------

def test_shape_errors_of_concat_stack_add_n_split():
    with pytest.raises(InvalidArgumentError, match=r"Dimension 1 in both shapes must be equal: "
                                                   r"shape\[0\] = \[2,3\] vs. shape\[1\] = \[3,2\]"):
        tf.concat([tf.ones((2, 3)), tf.ones((3, 2))], axis=0)
    with pytest.raises(InvalidArgumentError, match="Ranks of all input tensors should match"):
        tf.concat([tf.ones((2, 3)), tf.ones((3,))], axis=0)
    with pytest.raises(InvalidArgumentError, match=r"range \[-2, 2\), but got 2"):
        tf.concat([tf.ones((2, 3))], axis=2)
    with pytest.raises(InvalidArgumentError, match=r"values\[0\].shape = \[2\] != values\[1\].shape = \[3\]"):
        tf.stack([tf.ones(2), tf.ones(3)])
    with pytest.raises(ValueError, match="not in range"):
        tf.stack([tf.ones(2)], axis=2)
    with pytest.raises(InvalidArgumentError, match=r"must have the same size and shape.  Input 0: \[2\] != input 1: \[3\]"):
        tf.add_n([tf.ones(2), tf.ones(3)])
    with pytest.raises(InvalidArgumentError, match="Got: 4"):
        tf.split(tf.ones(5), [2, 2])
    assert [t.shape for t in tf.split(tf.ones(5), [2, -1])] == [(2,), (3,)]
    np.testing.assert_array_equal(tf.concat([tf.ones((2, 0)), tf.ones((2, 1))], axis=-1).numpy(), np.ones((2, 1)))


def test_sparse_softmax_cross_entropy_checks_labels():
    with pytest.raises(InvalidArgumentError, match=r"label value of 5 which is outside the valid range of \[0, 3\)"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 5], logits=tf.ones((2, 3)))
    logits = tf.constant([[2.0, 1.0, 0.1]])
    want = -np.log(np.exp(2.0) / np.exp([2.0, 1.0, 0.1]).sum())
    assert float(tf.nn.sparse_softmax_cross_entropy_with_logits([0], logits)[0]) == pytest.approx(want, rel=1e-6)


@pytest.mark.parametrize("shape", [(3, 3), (2, 3), (3, 2), (2, 2, 3)])
def test_trace_and_diag_part_of_any_matrix(shape):
    x = np.random.default_rng(0).normal(size=shape)
    np.testing.assert_allclose(tf.linalg.diag_part(tf.constant(x)).numpy(),
                               np.diagonal(x, axis1=-2, axis2=-1))
    np.testing.assert_allclose(tf.linalg.trace(tf.constant(x)).numpy(), np.trace(x, axis1=-2, axis2=-1))
    check_first_order(lambda t: tf.linalg.trace(t) ** 2 + tf.reduce_sum(tf.linalg.diag_part(t) ** 3), [x])
    check_second_order(lambda t: tf.linalg.trace(t) ** 2 + tf.reduce_sum(tf.linalg.diag_part(t) ** 3), [x])


@pytest.mark.parametrize("mode, pads", [
    ("CONSTANT", [[1, 2], [0, 1]]), ("REFLECT", [[1, 1], [2, 2]]), ("REFLECT", [[0, 1], [2, 0]]),
    ("SYMMETRIC", [[2, 2], [3, 3]]), ("symmetric", [[0, 1], [1, 0]]),
])
def test_pad_modes_match_numpy(mode, pads):
    np_mode = {"CONSTANT": "constant", "REFLECT": "reflect"}.get(mode, "symmetric")
    x = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(tf.pad(tf.constant(x), pads, mode=mode).numpy(), np.pad(x, pads, mode=np_mode))
    # each input element's gradient is the number of its copies in the output
    g = grad_of(lambda t: tf.pad(t, pads, mode=mode), x)
    counts = np.zeros(6)
    if mode == "CONSTANT":
        counts[:] = 1.0
    else:
        np.add.at(counts, np.pad(np.arange(6).reshape(2, 3), pads, mode=np_mode).reshape(-1), 1.0)
    np.testing.assert_array_equal(g.numpy().reshape(-1), counts)


def test_pad_errors():
    x = tf.ones((2, 3))
    with pytest.raises(InvalidArgumentError, match="not less than 2"):
        tf.pad(x, [[2, 0], [0, 0]], mode="REFLECT")
    with pytest.raises(InvalidArgumentError, match="greater than 3"):
        tf.pad(x, [[0, 0], [4, 0]], mode="SYMMETRIC")
    with pytest.raises(ValueError, match="mode"):
        tf.pad(x, [[0, 0], [1, 0]], mode="EDGE")
    with pytest.raises(InvalidArgumentError, match="rank"):
        tf.pad(x, [[0, 0]])
