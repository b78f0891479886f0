"""minitape against HIPS autograd on composite functions, first and second order.

Each function is written once against a small namespace ``o`` that is either minitape or
autograd.numpy, and takes one flat parameter vector ``theta`` (unpacked into its arrays), so
autograd's ``grad`` and ``hessian`` and minitape's tape gradient and nested-tape Hessian
(``jacobian`` of a gradient) are compared on exactly the same expression.
"""
from __future__ import annotations

import autograd.numpy as anp
import numpy as np
import pytest
from autograd import elementwise_grad, grad, hessian

import minitape as tf


def _ag_logsumexp(x, axis=None, keepdims=False):
    """logsumexp written in autograd.numpy (autograd.scipy would need SciPy, which the project
    does not depend on).  The max shift cancels exactly in value and derivatives."""
    m = anp.max(x, axis=axis, keepdims=True)
    r = anp.log(anp.sum(anp.exp(x - m), axis=axis, keepdims=True)) + m
    if keepdims:
        return r
    return anp.squeeze(r, axis=axis) if axis is not None else anp.squeeze(r)


class MT:
    """The minitape side of the namespace."""
    sin, cos, tan, exp, log, tanh, sqrt = tf.sin, tf.cos, tf.tan, tf.exp, tf.math.log, tf.tanh, tf.sqrt
    log1p, atan, square, abs, sigmoid = tf.math.log1p, tf.math.atan, tf.square, tf.abs, tf.sigmoid
    maximum, minimum, matmul, transpose = tf.maximum, tf.minimum, tf.matmul, tf.transpose
    solve, inv, det, einsum = tf.linalg.solve, tf.linalg.inv, tf.linalg.det, tf.einsum
    atan2, softplus, cumsum, reshape = tf.math.atan2, tf.math.softplus, tf.math.cumsum, tf.reshape
    relu, elu = tf.nn.relu, tf.nn.elu

    @staticmethod
    def sum(x, axis=None, keepdims=False):
        return tf.reduce_sum(x, axis=axis, keepdims=keepdims)

    @staticmethod
    def mean(x, axis=None, keepdims=False):
        return tf.reduce_mean(x, axis=axis, keepdims=keepdims)

    @staticmethod
    def max(x, axis=None, keepdims=False):
        return tf.reduce_max(x, axis=axis, keepdims=keepdims)

    @staticmethod
    def prod(x, axis=None, keepdims=False):
        return tf.reduce_prod(x, axis=axis, keepdims=keepdims)

    @staticmethod
    def logsumexp(x, axis=None, keepdims=False):
        return tf.reduce_logsumexp(x, axis=axis, keepdims=keepdims)

    @staticmethod
    def log_softmax(x, axis=-1):
        return tf.nn.log_softmax(x, axis=axis)

    @staticmethod
    def softmax(x, axis=-1):
        return tf.nn.softmax(x, axis=axis)

    @staticmethod
    def norm(x, ord=2, axis=None):  # noqa: A002
        return tf.norm(x, ord="euclidean" if ord == 2 else ord, axis=axis)

    @staticmethod
    def where(c, x, y):
        return tf.where(c, x, y)

    @staticmethod
    def const(a):
        return tf.constant(np.asarray(a, dtype=np.float64))

    @staticmethod
    def concat(xs, axis=0):
        return tf.concat(xs, axis=axis)

    @staticmethod
    def take(x, idx, axis=0):
        return tf.gather(x, idx, axis=axis)


class AG:
    """The autograd side."""
    sin, cos, tan, exp, log, tanh, sqrt = anp.sin, anp.cos, anp.tan, anp.exp, anp.log, anp.tanh, anp.sqrt
    log1p, atan, square, abs = anp.log1p, anp.arctan, anp.square, anp.abs
    maximum, minimum, matmul, einsum = anp.maximum, anp.minimum, anp.matmul, anp.einsum
    solve, inv, det = anp.linalg.solve, anp.linalg.inv, anp.linalg.det
    atan2, cumsum, reshape = anp.arctan2, anp.cumsum, anp.reshape

    @staticmethod
    def sigmoid(x):
        return 0.5 * (anp.tanh(x / 2.0) + 1.0)

    @staticmethod
    def softplus(x):
        return anp.logaddexp(0.0, x)

    @staticmethod
    def relu(x):
        return anp.maximum(x, 0.0)

    @staticmethod
    def elu(x):
        return anp.where(x > 0, x, anp.expm1(anp.minimum(x, 0.0)))

    @staticmethod
    def transpose(x, perm=None):
        return anp.transpose(x, perm)

    @staticmethod
    def sum(x, axis=None, keepdims=False):
        return anp.sum(x, axis=tuple(axis) if isinstance(axis, list) else axis, keepdims=keepdims)

    @staticmethod
    def mean(x, axis=None, keepdims=False):
        return anp.mean(x, axis=tuple(axis) if isinstance(axis, list) else axis, keepdims=keepdims)

    @staticmethod
    def max(x, axis=None, keepdims=False):
        return anp.max(x, axis=axis, keepdims=keepdims)

    @staticmethod
    def prod(x, axis=None, keepdims=False):
        return anp.prod(x, axis=axis, keepdims=keepdims)

    @staticmethod
    def logsumexp(x, axis=None, keepdims=False):
        return _ag_logsumexp(x, axis=axis, keepdims=keepdims)

    @staticmethod
    def log_softmax(x, axis=-1):
        return x - _ag_logsumexp(x, axis=axis, keepdims=True)

    @staticmethod
    def softmax(x, axis=-1):
        return anp.exp(x - _ag_logsumexp(x, axis=axis, keepdims=True))

    @staticmethod
    def norm(x, ord=2, axis=None):  # noqa: A002
        if ord == 2:
            return anp.sqrt(anp.sum(x * x, axis=axis))
        if ord == 1:
            return anp.sum(anp.abs(x), axis=axis)
        return anp.sum(anp.abs(x) ** ord, axis=axis) ** (1.0 / ord)

    @staticmethod
    def where(c, x, y):
        return anp.where(c, x, y)

    @staticmethod
    def const(a):
        return np.asarray(a, dtype=np.float64)

    @staticmethod
    def concat(xs, axis=0):
        return anp.concatenate(xs, axis=axis)

    @staticmethod
    def take(x, idx, axis=0):
        assert axis == 0
        return x[idx]  # autograd differentiates indexing, not anp.take


def unpack(o, theta, shapes):
    out, i = [], 0
    for s in shapes:
        n = int(np.prod(s, dtype=int))
        out.append(o.reshape(theta[i:i + n], s))
        i += n
    return out


# ------------------------------------------------------------------------------------------
# The battery: name -> (function(o, theta), shapes of the unpacked arrays, sampler)
# ------------------------------------------------------------------------------------------

def _normal(rng, n):
    return rng.normal(size=n)


def _spd(shapes):
    """Sampler making the first (n, n) block a well-conditioned matrix."""
    def sample(rng, n):
        theta = rng.normal(size=n) * 0.3
        k = shapes[0][0]
        theta[:k * k] += (2.0 * np.eye(k)).reshape(-1)
        return theta
    return sample


FUNCS = {}


def fn(name, shapes, sampler=_normal):
    def deco(f):
        FUNCS[name] = (f, shapes, sampler)
        return f
    return deco


X = np.random.default_rng(100).normal(size=(5, 3))          # fixed data
LABELS = np.eye(4)[np.random.default_rng(101).integers(0, 4, size=5)]
Y01 = (np.random.default_rng(102).uniform(size=5) > 0.5).astype(float)


@fn("mlp_mse", [(3, 4), (4,), (4, 1), (1,)])
def _mlp(o, th):
    w1, b1, w2, b2 = unpack(o, th, [(3, 4), (4,), (4, 1), (1,)])
    h = o.tanh(o.matmul(o.const(X), w1) + b1)
    y = o.matmul(h, w2) + b2
    return o.mean(o.square(y - 0.5))


@fn("mlp_softmax_xent", [(3, 4), (4,)])
def _xent(o, th):
    w, b = unpack(o, th, [(3, 4), (4,)])
    logits = o.matmul(o.const(X), w) + b
    return -o.mean(o.sum(o.const(LABELS) * o.log_softmax(logits, axis=-1), axis=-1))


@fn("softmax_probabilities", [(2, 5)])
def _softmax(o, th):
    (z,) = unpack(o, th, [(2, 5)])
    p = o.softmax(z, axis=0)
    return o.sum(p * o.const(np.arange(10.0).reshape(2, 5)) ** 2) + o.sum(o.log(p))


@fn("logsumexp_axes", [(3, 4)])
def _lse(o, th):
    (z,) = unpack(o, th, [(3, 4)])
    return o.sum(o.logsumexp(z, axis=1) ** 2) + o.logsumexp(z * 2.0) + o.sum(o.logsumexp(z, axis=0, keepdims=True) * z)


@fn("logistic_regression_bce", [(3,), (1,)])
def _bce(o, th):
    w, b = unpack(o, th, [(3,), (1,)])
    z = o.sum(o.const(X) * w, axis=1) + b
    p = o.sigmoid(z)
    y = o.const(Y01)
    return -o.mean(y * o.log(p) + (1.0 - y) * o.log(1.0 - p))


@fn("norms", [(3, 4)])
def _norms(o, th):
    (a,) = unpack(o, th, [(3, 4)])
    return o.norm(a) + o.sum(o.norm(a, axis=1) ** 3) + o.sum(o.norm(a, ord=3, axis=0))


@fn("trig_chain", [(3,), (3,)])
def _trig(o, th):
    x, y = unpack(o, th, [(3,), (3,)])
    return o.sum(o.sin(o.cos(x) * o.tan(y / 4.0)) + o.atan(x * y) + o.atan2(x, o.exp(y)))


@fn("exp_log_chain", [(4,)])
def _explog(o, th):
    (x,) = unpack(o, th, [(4,)])
    return o.sum(o.exp(-o.square(x)) * o.log1p(o.exp(x)) + o.softplus(o.tanh(x) * 3.0) + o.log(1.0 + x * x))


@fn("solve_quadratic_form", [(3, 3), (3, 2)], _spd([(3, 3)]))
def _solve(o, th):
    a, b = unpack(o, th, [(3, 3), (3, 2)])
    x = o.solve(a, b)
    return o.sum(x * b) + o.sum(o.square(x))


@fn("inverse_expression", [(3, 3), (3, 3)], _spd([(3, 3)]))
def _inv(o, th):
    a, b = unpack(o, th, [(3, 3), (3, 3)])
    ai = o.inv(a)
    return o.sum(o.matmul(o.matmul(ai, b), ai)) + o.sum(o.transpose(ai) * b)


@fn("log_det", [(3, 3)], _spd([(3, 3)]))
def _logdet(o, th):
    (a,) = unpack(o, th, [(3, 3)])
    return o.log(o.det(a)) + o.det(a * 0.5) ** 2


@fn("gaussian_nll", [(3,), (3,)], lambda rng, n: np.concatenate([rng.normal(size=3), rng.uniform(0.5, 1.5, size=3)]))
def _gauss(o, th):
    mu, sigma = unpack(o, th, [(3,), (3,)])
    z = (o.const(X) - mu) / sigma
    return 0.5 * o.sum(z * z) + 5.0 * o.sum(o.log(sigma))


@fn("attention", [(2, 3), (4, 3), (4, 2)])
def _attention(o, th):
    q, k, v = unpack(o, th, [(2, 3), (4, 3), (4, 2)])
    w = o.softmax(o.matmul(q, o.transpose(k)) / np.sqrt(3.0), axis=-1)
    return o.sum(o.tanh(o.matmul(w, v)))


@fn("layer_norm", [(5, 3), (3,)])
def _layernorm(o, th):
    x, gamma = unpack(o, th, [(5, 3), (3,)])
    m = o.mean(x, axis=1, keepdims=True)
    v = o.mean(o.square(x - m), axis=1, keepdims=True)
    y = (x - m) / o.sqrt(v + 1e-3) * gamma
    return o.sum(y * o.const(X))


@fn("broadcast_rational", [(3, 1), (4,)])
def _rational(o, th):
    x, y = unpack(o, th, [(3, 1), (4,)])
    return o.sum((x * x + y) / (o.square(x * y) + 2.0))


@fn("einsum_bilinear", [(3,), (3, 4), (4,)])
def _bilinear(o, th):
    x, a, y = unpack(o, th, [(3,), (3, 4), (4,)])
    return o.einsum("i,ij,j->", x, a, y) * o.sum(o.einsum("ij,ik->jk", a, a))


@fn("reductions_mix", [(3, 4)], lambda rng, n: rng.permutation(n) * 0.3 - 1.7 + rng.uniform(-0.05, 0.05, size=n))
def _reductions(o, th):
    (a,) = unpack(o, th, [(3, 4)])
    return o.sum(o.max(a, axis=1) * o.mean(a, axis=1)) + o.sum(o.prod(a, axis=0)) + o.sum(o.cumsum(a, axis=1) ** 2)


@fn("relu_elu_network", [(3, 4), (4,)], lambda rng, n: rng.normal(size=n) + 0.05)
def _relu(o, th):
    w, v = unpack(o, th, [(3, 4), (4,)])
    h = o.relu(o.matmul(o.const(X), w))
    return o.sum(o.elu(h * v - 0.3) ** 2)


@fn("where_and_gather", [(6,)])
def _where(o, th):
    (x,) = unpack(o, th, [(6,)])
    c = np.array([True, False, True, True, False, False])
    picked = o.take(x, np.array([0, 0, 5, 2]))
    return o.sum(o.where(c, o.sin(x), x * x)) + o.sum(picked ** 3) + o.sum(o.concat([x, picked]) * 0.5)


NAMES = sorted(FUNCS)


def _theta(name, seed):
    f, shapes, sampler = FUNCS[name]
    n = sum(int(np.prod(s, dtype=int)) for s in shapes)
    return sampler(np.random.default_rng(seed), n)


def mt_grad_and_hessian(name, theta):
    f = FUNCS[name][0]
    t = tf.constant(theta)
    with tf.GradientTape() as outer:
        outer.watch(t)
        with tf.GradientTape() as inner:
            inner.watch(t)
            y = f(MT, t)
        g = inner.gradient(y, t)
    h = outer.jacobian(g, t)
    return float(y), g.numpy(), h.numpy()


def test_battery_is_large_enough():
    assert len(FUNCS) >= 15


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", [0, 1])
def test_value_gradient_and_hessian_match_autograd(name, seed):
    f = FUNCS[name][0]
    theta = _theta(name, seed)
    value, g, h = mt_grad_and_hessian(name, theta)
    ag_f = lambda th: f(AG, th)  # noqa: E731
    np.testing.assert_allclose(value, ag_f(theta), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(g, grad(ag_f)(theta), rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(h, hessian(ag_f)(theta), rtol=1e-8, atol=1e-9)


ELEMENTWISE = ["sin", "cos", "tan", "exp", "tanh", "log1p", "atan", "square", "sigmoid", "softplus", "elu"]


@pytest.mark.parametrize("name", ELEMENTWISE)
def test_elementwise_first_and_second_derivatives_match_autograd(name):
    x = np.random.default_rng(7).uniform(-0.9, 0.9, size=(2, 3))
    x[np.abs(x) < 0.05] = 0.3
    mt_f, ag_f = getattr(MT, name), getattr(AG, name)
    t = tf.constant(x)
    with tf.GradientTape() as outer:
        outer.watch(t)
        with tf.GradientTape() as inner:
            inner.watch(t)
            y = mt_f(t)
        d1 = inner.gradient(y, t)
    d2 = outer.gradient(d1, t)
    np.testing.assert_allclose(d1.numpy(), elementwise_grad(ag_f)(x), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(d2.numpy(), elementwise_grad(elementwise_grad(ag_f))(x), rtol=1e-10, atol=1e-12)
