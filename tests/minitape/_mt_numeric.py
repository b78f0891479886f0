"""Numerical helpers shared by the minitape gradient tests.

Everything here works in float64: a function ``f`` of minitape tensors is reduced to a scalar
``L = sum(w * f(x))`` with fixed random weights ``w`` (so every output element counts, with a
different weight), and its tape gradient is compared with central finite differences.
Second order: ``M = sum_i sum(v_i * dL/dx_i)`` differentiated by a tape around the first tape,
against central differences of the first-order tape gradient itself.
"""
from __future__ import annotations

import numpy as np

import minitape as tf

EPS = 1e-6


def _const(arrs):
    return [tf.constant(np.asarray(a, dtype=np.float64)) for a in arrs]


def weights_for(f, arrs, seed=0):
    """Random weights with the shape of ``f``'s output (float64)."""
    out = f(*_const(arrs))
    shape = tuple(out.shape)
    return np.random.default_rng(seed + 12345).uniform(0.5, 1.5, size=shape) * \
        np.random.default_rng(seed + 777).choice([-1.0, 1.0], size=shape)


def scalarize(f, xs, w):
    out = f(*xs)
    assert out.dtype == tf.float64, f"output dtype {out.dtype} (expected float64)"
    return tf.reduce_sum(tf.multiply(out, tf.constant(w)))


def loss_value(f, arrs, w):
    return float(scalarize(f, _const(arrs), w).numpy())


def dense(g):
    """A gather's gradient is an IndexedSlices (as in TF): compared as its dense tensor."""
    return tf.convert_to_tensor(g) if isinstance(g, tf.IndexedSlices) else g


def tape_grad(f, arrs, w, wrt=None):
    """First-order tape gradients of ``sum(w * f(*arrs))`` (NumPy arrays, None kept)."""
    xs = _const(arrs)
    wrt = range(len(xs)) if wrt is None else wrt
    with tf.GradientTape() as t:
        for i in wrt:
            t.watch(xs[i])
        L = scalarize(f, xs, w)
    gs = t.gradient(L, [xs[i] for i in wrt])
    out = []
    for i, g in zip(wrt, gs):
        g = dense(g)
        if g is not None:
            assert g.dtype == tf.float64, f"gradient dtype {g.dtype}"
            assert tuple(g.shape) == np.shape(arrs[i]), (g.shape, np.shape(arrs[i]))
            g = g.numpy()
        out.append(g)
    return out


def numeric_grad(fun, arrs, wrt, eps=EPS):
    """Central differences of the scalar function ``fun(arrs)`` w.r.t. ``arrs[i]``, i in wrt."""
    out = []
    for i in wrt:
        a = np.array(arrs[i], dtype=np.float64)
        g = np.zeros_like(a)
        flat = a.reshape(-1)
        gf = g.reshape(-1)
        for j in range(flat.size):
            old = flat[j]
            flat[j] = old + eps
            plus = fun([a if k == i else arrs[k] for k in range(len(arrs))])
            flat[j] = old - eps
            minus = fun([a if k == i else arrs[k] for k in range(len(arrs))])
            flat[j] = old
            gf[j] = (plus - minus) / (2 * eps)
        out.append(g)
    return out


def assert_close(actual, expected, rtol=1e-5, atol=1e-6, what=""):
    assert actual is not None, f"{what}: gradient is None"
    actual = np.asarray(actual)
    expected = np.asarray(expected)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    scale = max(1.0, float(np.max(np.abs(expected)))) if expected.size else 1.0
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol * scale, err_msg=what)


def check_first_order(f, arrs, wrt=None, seed=0, rtol=1e-5, atol=1e-6):
    wrt = list(range(len(arrs))) if wrt is None else list(wrt)
    w = weights_for(f, arrs, seed)
    got = tape_grad(f, arrs, w, wrt)
    want = numeric_grad(lambda a: loss_value(f, a, w), arrs, wrt)
    for i, g, n in zip(wrt, got, want):
        assert_close(g, n, rtol, atol, what=f"d/dx{i}")


def _second_scalar(f, arrs, w, v, wrt):
    """M(x) = sum_i <v_i, dL/dx_i>, evaluated from the first-order tape (no outer tape)."""
    gs = tape_grad(f, arrs, w, wrt)
    return float(sum(np.sum(vi * (g if g is not None else 0.0)) for vi, g in zip(v, gs)))


def tape_second(f, arrs, w, v, wrt):
    """Gradient of M by a tape around the first-order tape."""
    xs = _const(arrs)
    with tf.GradientTape() as outer:
        for i in wrt:
            outer.watch(xs[i])
        with tf.GradientTape() as inner:
            for i in wrt:
                inner.watch(xs[i])
            L = scalarize(f, xs, w)
        gs = inner.gradient(L, [xs[i] for i in wrt],
                            unconnected_gradients=tf.UnconnectedGradients.ZERO)
        M = tf.add_n([tf.reduce_sum(tf.multiply(g, tf.constant(vi))) for g, vi in zip(gs, v)])
    hs = outer.gradient(M, [xs[i] for i in wrt], unconnected_gradients=tf.UnconnectedGradients.ZERO)
    hs = [dense(h) for h in hs]
    for i, h in zip(wrt, hs):
        assert h.dtype == tf.float64 and tuple(h.shape) == np.shape(arrs[i])
    return [h.numpy() for h in hs]


def check_second_order(f, arrs, wrt=None, seed=0, rtol=1e-5, atol=1e-6):
    wrt = list(range(len(arrs))) if wrt is None else list(wrt)
    w = weights_for(f, arrs, seed)
    rng = np.random.default_rng(seed + 99)
    v = [rng.uniform(-1, 1, size=np.shape(arrs[i])) for i in wrt]
    got = tape_second(f, arrs, w, v, wrt)
    want = numeric_grad(lambda a: _second_scalar(f, a, w, v, wrt), arrs, wrt)
    for i, g, n in zip(wrt, got, want):
        assert_close(g, n, rtol, atol, what=f"second order d/dx{i}")


def jacobian_numeric(f, arrs, i, eps=EPS):
    """d f(*arrs) / d arrs[i] by central differences, shape out.shape + arrs[i].shape."""
    a = np.array(arrs[i], dtype=np.float64)
    base = f(*_const(arrs)).numpy()
    jac = np.zeros(np.shape(base) + a.shape)
    flat = a.reshape(-1)
    jf = jac.reshape(np.shape(base) + (-1,))
    for j in range(flat.size):
        old = flat[j]
        flat[j] = old + eps
        p = f(*_const([a if k == i else arrs[k] for k in range(len(arrs))])).numpy()
        flat[j] = old - eps
        m = f(*_const([a if k == i else arrs[k] for k in range(len(arrs))])).numpy()
        flat[j] = old
        jf[..., j] = (p - m) / (2 * eps)
    return jac
