"""One-hot seeds kept structured through a vectorized Jacobian's pass (minitape/_onehot.py,
issue 42), held to the dense pass they replace.

Each primitive with one-hot rules (``Primitive.onehot_vjps``) has a case here, run in float32
and float64, on scalars, vectors, matrices and broadcast operands, through ``jacobian`` and
``batch_jacobian``, in chunks, and inside Hessians (a Jacobian of a recorded gradient): the
result must be the dense pass's, bit for bit.  The one documented difference: a matrix
product's one-hot rule gathers rows where the dense pass multiplies by zeros, so a zero in its
result may differ in sign (values are compared with ``==`` there, NaNs included).  Every case of
``test_ops_gradcheck`` is run both ways too (hypothesis draws shapes, broadcasting, size 0).

One-hot passes run only where nothing records the pass and NumPy is the only array module:
under ``--backend=strict`` (CuPy's stand-in) the tests here check that the dense pass runs.
"""
from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import minitape as tf
from minitape import _jacobian, _onehot, _state
from minitape._core import REGISTRY
from test_ops_gradcheck import CASES, NAMES, NO_SECOND_ORDER, SETTINGS
from test_ops_gradcheck import away0 as _away0, distinct as _distinct, pos as _pos
from test_ops_gradcheck import real as _real, unit as _unit


def _backend(request):
    return (request.config.getoption("backend", default=None)
            or os.environ.get("MINITAPE_TEST_BACKEND") or "numpy")  # (conftest's rule)


@pytest.fixture
def host_only(request):
    """One-hot passes need NumPy alone: skipped (with the reason) under another backend; in a
    NumPy run, a fake second module registered by an earlier test is lowered for the test."""
    if _backend(request) != "numpy":
        pytest.skip("one-hot passes need a single array module (this run places tensors on a "
                    "second backend, where every vectorized pass is dense: "
                    "test_onehot_passes_only_where_nothing_records checks it)")
    saved = _state.multi_device[0]
    _state.multi_device[0] = False
    yield
    _state.multi_device[0] = saved


@pytest.fixture
def ran(monkeypatch):
    """The names of the primitives whose one-hot rules ran, and whether a matrix product was
    computed from a one-hot gradient (its zeros' signs are the one documented difference)."""
    seen = []
    orig = _onehot.step

    def step(prim, *args):
        seen.append(prim.name)
        return orig(prim, *args)
    monkeypatch.setattr(_onehot, "step", step)
    return seen


def _dense_pass(monkeypatch, fn):
    """``fn()`` with one-hot seeds switched off: the dense pass of before."""
    with monkeypatch.context() as m:
        m.setattr(_onehot, "available", lambda target: False)
        return fn()


def _bits(a):
    a = np.ascontiguousarray(a)
    return a.view(np.dtype(f"u{a.dtype.itemsize}")) if a.dtype.kind == "f" else a


def _same(a, b, what, zero_sign=False):
    """``a`` (one-hot) is ``b`` (dense): same shape, dtype and bits (``zero_sign``: a zero may
    differ in sign, after a matrix product's gather)."""
    if a is None or b is None:
        assert a is None and b is None, what
        return
    a = a.numpy() if hasattr(a, "numpy") else a
    b = b.numpy() if hasattr(b, "numpy") else b
    assert a.shape == b.shape and a.dtype == b.dtype, (what, a.shape, b.shape, a.dtype, b.dtype)
    if zero_sign:  # the same bits, but where both are zeros
        np.testing.assert_array_equal(a, b, err_msg=what)
        nonzero = ~((a == 0) & (b == 0))
        assert np.array_equal(_bits(a)[nonzero], _bits(b)[nonzero]), (what, a, b)
    else:
        assert np.array_equal(_bits(a), _bits(b)), (what, a, b)


def _grad_of(f, x):
    """A gradient computed (and recorded by the tape around it) inside the case: the
    Jacobian of it runs over the rules' own operations (ReluGrad, Unbroadcast...)."""
    with tf.GradientTape() as t:
        t.watch(x)
        y = f(x)
    return t.gradient(y, x)


def _above1(rng, shape):
    return rng.uniform(1.2, 3.0, size=shape)


_W = np.random.default_rng(9).standard_normal((3, 3))

# One case per primitive with one-hot rules: (function of x, or of x and y; x's values; y's)
UNARY = {
    "Neg": (tf.negative, _real), "Abs": (tf.abs, _away0), "Sign": (lambda x: tf.sign(x) * x, _away0),
    "Sin": (tf.sin, _real), "Cos": (tf.cos, _real), "Tan": (tf.tan, _unit),
    "Asin": (tf.math.asin, _unit), "Acos": (tf.math.acos, _unit), "Atan": (tf.math.atan, _real),
    "Sinh": (tf.math.sinh, _real), "Cosh": (tf.math.cosh, _real), "Tanh": (tf.tanh, _real),
    "Exp": (tf.exp, _real), "Expm1": (tf.math.expm1, _real), "Log": (tf.math.log, _pos),
    "Log1p": (tf.math.log1p, _unit), "Sqrt": (tf.sqrt, _pos), "Rsqrt": (tf.math.rsqrt, _pos),
    "Square": (tf.square, _real), "Reciprocal": (tf.math.reciprocal, _away0),
    "Sigmoid": (tf.sigmoid, _real), "Softplus": (tf.math.softplus, _real),
    "Erf": (tf.math.erf, _real), "Erfc": (tf.math.erfc, _real), "Relu": (tf.nn.relu, _away0),
    "Relu6": (tf.nn.relu6, lambda r, s: _away0(r, s) * 4), "Elu": (tf.nn.elu, _away0),
    "LeakyRelu": (lambda x: tf.nn.leaky_relu(x, alpha=0.3), _away0),
    "Identity": (tf.identity, _real),
    "Cast": (lambda x: tf.cast(tf.cast(x, tf.float64 if x.dtype == tf.float32 else tf.float32),
                               x.dtype) * x, _real),
    "ReluGrad": (lambda x: _grad_of(lambda v: tf.nn.relu(v) * v, x), _away0),
    "LeakyReluGrad": (lambda x: _grad_of(lambda v: tf.nn.leaky_relu(v, 0.2) * v, x), _away0),
    "SelectV2": (lambda x: tf.where(x > 0, x * 2.0, tf.sin(x)), _away0),
    "ClipByValue": (lambda x: tf.clip_by_value(x, -1.0, 1.0) * x,
                    lambda r, s: r.choice([-1.5, -0.5, 0.5, 1.5], size=s)),
    "Asinh": (tf.math.asinh, _real), "Acosh": (tf.math.acosh, _above1),
    "Atanh": (tf.math.atanh, _unit), "Softsign": (tf.nn.softsign, _real),
    # shapes and reductions (x at least a vector: see _shapes)
    "Reshape": (lambda x: tf.sin(tf.reshape(x, tuple(x.shape) + (1,))) * 2.0, _real),
    "Transpose": (lambda x: tf.sin(tf.transpose(x)) * x.shape[0], _real),
    "Sum": (lambda x: tf.sin(tf.reduce_sum(x * x, axis=-1, keepdims=True)), _real),
    "Mean": (lambda x: tf.sin(tf.reduce_mean(tf.tanh(x), axis=-1, keepdims=True)), _real),
    "Max": (lambda x: tf.sin(tf.reduce_max(x, axis=-1, keepdims=True)), _distinct),
    "Min": (lambda x: tf.cos(tf.reduce_min(x, axis=-1, keepdims=True)), _distinct),
    "Prod": (lambda x: tf.sin(tf.reduce_prod(x, axis=-1, keepdims=True)), _away0),
    "LogSumExp": (lambda x: tf.sin(tf.reduce_logsumexp(x, axis=-1, keepdims=True)), _real),
    "Unbroadcast": (lambda x: _grad_of(lambda v: tf.reduce_sum(tf.sin(v * tf.constant(
        np.ones((2,) + tuple(v.shape), dtype=v.dtype.as_numpy_dtype))) ** 2), x), _real),
    "MatMul": (lambda x: tf.sin(tf.linalg.matvec(tf.constant(_W.astype(x.dtype.as_numpy_dtype)),
                                                 tf.reshape(x, (-1,))[:3] * 1.0)), _real),
}
BINARY = {
    "AddV2": (tf.add, _real, _real), "Sub": (tf.subtract, _real, _real),
    "Mul": (tf.multiply, _real, _real), "RealDiv": (tf.divide, _real, _away0),
    "FloorMod": (lambda x, y: tf.math.floormod(x, y) * x, _real, _pos),
    "Pow": (tf.pow, _pos, _real), "Maximum": (tf.maximum, _distinct, lambda r, s: _distinct(r, s) + 0.1),
    "Minimum": (tf.minimum, _distinct, lambda r, s: _distinct(r, s) + 0.1),
    "SquaredDifference": (tf.math.squared_difference, _real, _real),
    "Atan2": (tf.math.atan2, _real, _pos),
}
DTYPES = [np.float32, np.float64]


def test_every_onehot_rule_has_a_case_here():
    with_rules = {n for n, p in REGISTRY.items() if p.onehot_vjps is not None}
    assert with_rules == set(UNARY) | set(BINARY)


def _shapes(name):
    if name in ("Reshape", "Transpose", "Sum", "Mean", "Max", "Min", "Prod", "LogSumExp"):
        return [(4,), (2, 3)] if name != "Transpose" else [(2, 3), (3, 3)]
    if name == "MatMul":
        return [(3,), (2, 3)]
    return [(), (4,), (2, 3)]


def _run(monkeypatch, f, xs, batch=False, parallel=None):
    """The Jacobian of ``f(*xs)`` w.r.t. every input, one-hot and dense."""
    def jac():
        with tf.GradientTape(persistent=True) as t:
            t.watch(xs)
            y = f(*xs)
        if batch:
            return [t.batch_jacobian(y, xs[0], parallel_iterations=parallel)]
        return t.jacobian(y, xs, parallel_iterations=parallel)
    return jac(), _dense_pass(monkeypatch, jac)


@pytest.mark.usefixtures("host_only")
@pytest.mark.parametrize("dtype", DTYPES, ids=["float32", "float64"])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_rule_is_the_dense_pass(monkeypatch, ran, name, dtype):
    f, gen = UNARY[name]
    rng = np.random.default_rng(len(name))
    for shape in _shapes(name):
        x = tf.constant(gen(rng, shape).astype(dtype))
        del ran[:]
        (o,), (d,) = _run(monkeypatch, f, [x])
        _same(o, d, f"{name} {shape}", zero_sign="MatMul" in ran)
        assert name in ran, (name, shape, ran)  # the one-hot rule ran (not a dense fallback)
        if len(shape) == 2 and name not in ("Transpose", "MatMul"):
            # per example (batch_jacobian), in one pass and in chunks of one and two rows
            for parallel in (None, 1, 2):
                (o,), (d,) = _run(monkeypatch, f, [x], batch=True, parallel=parallel)
                _same(o, d, f"{name} {shape} batch_jacobian, chunks {parallel}",
                      zero_sign="MatMul" in ran)


@pytest.mark.usefixtures("host_only")
@pytest.mark.parametrize("dtype", DTYPES, ids=["float32", "float64"])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_rule_is_the_dense_pass(monkeypatch, ran, name, dtype):
    """Same shapes, and broadcast operands: the gradient of the broadcast one is summed back
    (written out first), the other stays one-hot."""
    f, gx, gy = BINARY[name]
    rng = np.random.default_rng(len(name))
    for sx, sy in [((), ()), ((4,), (4,)), ((2, 3), (3,)), ((3,), (2, 3)), ((2, 1), (1, 3))]:
        x = tf.constant(gx(rng, sx).astype(dtype))
        y = tf.constant(gy(rng, sy).astype(dtype))
        del ran[:]
        o, d = _run(monkeypatch, f, [x, y])
        for k in range(2):
            _same(o[k], d[k], f"{name} {sx} {sy} d/dx{k}")
        assert name in ran, (name, sx, sy, ran)
        for parallel in (1, 3):
            o, d = _run(monkeypatch, f, [x, y], parallel=parallel)
            for k in range(2):
                _same(o[k], d[k], f"{name} {sx} {sy} d/dx{k}, chunks of {parallel}")


@pytest.mark.usefixtures("host_only")
def test_float16_and_non_finite_values(monkeypatch, ran):
    """float16 seeds; infinities and NaNs in the values (the other seeds' value becomes NaN,
    0 * inf): still the dense pass's bits, NaNs where it has them."""
    x16 = tf.constant(np.array([0.5, -1.0, 2.0, 3.0], dtype=np.float16))
    o, d = _run(monkeypatch, lambda x: tf.sin(x) * x + tf.exp(x), [x16])
    _same(o[0], d[0], "float16")
    xs = tf.constant(np.array([1.0, np.inf, -np.inf, np.nan, 0.0]))
    c = tf.constant(np.array([np.inf, 2.0, 0.0, 1.0, np.nan]))
    with np.errstate(all="ignore"):
        o, d = _run(monkeypatch, lambda x: tf.sin(x) * c + x * x, [xs])
    _same(o[0], d[0], "non-finite values")
    assert np.isnan(o[0].numpy()).any()


@pytest.mark.usefixtures("host_only")
@pytest.mark.parametrize("parallel", [None, 1, 7, 40])
@pytest.mark.parametrize("layout", ["matvec", "row_vector", "two_layers", "batched_rows",
                                    "non_finite", "transposed", "transposed_matvec",
                                    "batched_matrices", "summed"])
def test_matrix_products(monkeypatch, ran, layout, parallel):
    """A product with a one-hot gradient is a gather of rows: the dense product's values, in
    one pass and in chunks; an infinite matrix, a gradient that is not one-hot (below the
    first product) and labels that are not the seeds' own (a transpose) still agree."""
    rng = np.random.default_rng(5)
    n = 48
    W = rng.standard_normal((n, n)) / np.sqrt(n)
    if layout == "non_finite":
        W[3, 4] = np.inf
    W1, W2 = tf.constant(W), tf.constant(rng.standard_normal((n, n)))
    x = tf.constant(rng.standard_normal((n,)))
    X = tf.constant(rng.standard_normal((4, n)))

    def f(x):
        if layout == "row_vector":
            h = tf.tanh(tf.reshape(tf.reshape(x, (1, n)) @ W1, (n,)))
        elif layout == "transposed":  # (labels written out by the transpose below)
            h = tf.tanh(tf.reshape(tf.reshape(x, (1, n)) @ W1, (n,)))
        else:
            h = tf.tanh(tf.linalg.matvec(W1, x))
        if layout == "two_layers":
            h = tf.linalg.matvec(W2, h)
        if layout == "summed":  # (one seed, n labelled positions in the product's one row:
            # the gather would sum them, so the product is dense)
            return tf.sin(tf.reduce_sum(tf.reshape(tf.reshape(h, (1, n)) @ W2, (n,))))
        if layout in ("transposed", "transposed_matvec"):
            return tf.reshape(tf.transpose(tf.reshape(tf.sin(h) * h, (6, 8))), (n,))
        return tf.sin(h) * h
    with np.errstate(all="ignore"):
        if layout == "batched_rows":
            o, d = _run(monkeypatch, lambda X: tf.sin(tf.tanh(X @ W1) @ W2), [X],
                        batch=True, parallel=parallel)
        elif layout == "batched_matrices":  # (examples of 3 rows: the gather's general form)
            X3 = tf.constant(rng.standard_normal((4, 3, n)))
            o, d = _run(monkeypatch, lambda X: tf.sin(tf.tanh(X @ W1)), [X3],
                        batch=True, parallel=parallel)
        else:
            o, d = _run(monkeypatch, f, [x], parallel=parallel)
    _same(o[0], d[0], layout, zero_sign=True)
    assert "MatMul" in ran


@pytest.mark.usefixtures("host_only")
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=3, **SETTINGS)
@given(data=st.data(), seed=st.integers(0, 2**31 - 1))
def test_every_operation_case_is_the_dense_pass(monkeypatch, ran, name, dtype, data, seed):
    """Every case of test_ops_gradcheck (broadcasting, size 0, axes, keepdims), first order and
    (where it has one) second order, one-hot against dense."""
    f, arrs = CASES[name](data, np.random.default_rng(seed))
    try:
        xs = [tf.constant(np.asarray(a, dtype=dtype)) for a in arrs]
        if f(*xs).dtype.as_numpy_dtype != dtype:
            return
    except Exception:  # noqa: BLE001  (the few float64-only cases, in float32)
        return
    with np.errstate(all="ignore"):
        o, d = _run(monkeypatch, f, xs)
        for k in range(len(xs)):
            _same(o[k], d[k], f"d y / d x{k}", zero_sign="MatMul" in ran)
        if name in NO_SECOND_ORDER:
            return

        def hessians():  # the Jacobian of a recorded gradient: one-hot through its rules
            with tf.GradientTape(persistent=True) as outer:
                outer.watch(xs)
                with tf.GradientTape() as inner:
                    inner.watch(xs)
                    y = tf.reduce_sum(f(*xs) * 0.75)
                gs = inner.gradient(y, xs)
            return [[None if g is None else outer.jacobian(g, x) for x in xs] for g in gs]
        del ran[:]
        ho = hessians()
        hd = _dense_pass(monkeypatch, hessians)
    for i, (ro, rd) in enumerate(zip(ho, hd)):
        for k, (a, b) in enumerate(zip(ro, rd)):
            _same(a, b, f"d2 y / d x{i} d x{k}", zero_sign="MatMul" in ran)


def test_onehot_passes_only_where_nothing_records(request, monkeypatch, ran):
    """Inside a recording tape (a Jacobian to be differentiated again), with a forward
    accumulator, or on another array backend, the pass is dense (and recorded)."""
    x = tf.constant(np.array([0.3, -0.7, 1.1]))
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(x)
        with tf.GradientTape(persistent=True) as t:
            t.watch(x)
            y = tf.sin(x) * x
        recorded = t.jacobian(y, x)
    assert ran == []
    plain = t.jacobian(y, x)
    assert (ran != []) == (_backend(request) == "numpy" and not _state.multi_device[0])
    _same(plain, recorded, "recorded vs plain")
    # the recorded Jacobian is differentiable: its Jacobian is the Hessian of each output
    h = outer.jacobian(recorded, x).numpy()
    xv = x.numpy()
    expect = np.zeros((3, 3, 3))
    for i in range(3):
        expect[i, i, i] = 2 * np.cos(xv[i]) - xv[i] * np.sin(xv[i])
    np.testing.assert_allclose(h, expect, rtol=1e-12, atol=1e-15)


@pytest.mark.usefixtures("host_only")
def test_chunks_of_a_onehot_pass(monkeypatch):
    """A pass that stays one-hot down to its sources is not split (the Jacobian is its own
    result); one that turns dense (a second layer) is, by its dense gradients' size."""
    rng = np.random.default_rng(0)
    n = 1000
    W1 = tf.constant((rng.standard_normal((n, n)) / np.sqrt(n)).astype(np.float32))
    W2 = tf.constant((rng.standard_normal((n, n)) / np.sqrt(n)).astype(np.float32))
    x = tf.constant(rng.standard_normal((n,)).astype(np.float32))
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        h = tf.tanh(tf.linalg.matvec(W1, x))
        y1 = tf.sin(h) * h
        y2 = tf.sin(tf.linalg.matvec(W2, y1))
    reader = t._reader()
    assert _jacobian.auto_chunk(reader, y1, [x], n, onehot=True) == n
    assert _jacobian.auto_chunk(reader, y1, [x], n) < n  # (the dense pass would be split)
    assert _jacobian.auto_chunk(reader, y2, [x], n, onehot=True) < n
    j2 = t.jacobian(y2, x)
    _same(j2, _dense_pass(monkeypatch, lambda: t.jacobian(y2, x)), "two layers",
          zero_sign=True)


def test_labels_and_dense():
    """The seeds' affine labels and the same labels written out give the same gradient; a
    transpose and a broadcast relabel positions as the arrays move."""
    shape = (3, 4)
    pair = np.arange(24, dtype=np.float64).reshape((2,) + shape) - 11.5
    for start, stop, inner in [(0, 12, 12), (5, 9, 12), (1, 3, 4), (0, 4, 4)]:
        lab = _onehot.Labels(shape, stop - start, start, inner)
        arr = (np.arange(12) % inner - start).reshape(shape)
        np.testing.assert_array_equal(lab.arr, arr)
        written = _onehot.Labels(shape, stop - start, arr=arr)
        assert lab.same(written) and written.same(lab)
        d1 = _onehot.OneHot(pair, lab).dense().numpy()
        d2 = _onehot.OneHot(pair, written).dense().numpy()
        np.testing.assert_array_equal(d1, d2)
        for r in range(stop - start):  # seed r: pair[0] where labelled r, pair[1] elsewhere
            np.testing.assert_array_equal(d1[r], np.where(arr == r, pair[0], pair[1]))
        t = lab.transpose((1, 0))
        np.testing.assert_array_equal(t.arr, arr.T)
        assert not t.same(lab.reshape((4, 3)))
        b = lab.reshape((3, 1, 4)).broadcast((3, 1, 4), (3, 2, 4))
        np.testing.assert_array_equal(b.arr, np.broadcast_to(arr[:, None, :], (3, 2, 4)))
