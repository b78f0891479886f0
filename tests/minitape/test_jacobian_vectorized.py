"""Vectorized Jacobians (one backward pass with a batch axis of seeds) against the per-row loop.

Every case of ``test_ops_gradcheck`` (one or more per differentiable primitive of the registry,
with broadcasting and size-0 shapes drawn by hypothesis) is differentiated both ways, first
order (``jacobian``) and second order (a Hessian through nested tapes, and the Jacobian of a
vectorized Jacobian), in float64 and float32; ``batch_jacobian``, chunking
(``parallel_iterations``), the fallback to the loop for operations without batch rules, and
the memory bound of the vectorized pass are tested below.
"""
from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import minitape as tf
from minitape import _jacobian, _tape
from minitape._core import REGISTRY
from test_ops_gradcheck import CASES, NAMES, NO_SECOND_ORDER, SETTINGS

N_EXAMPLES = 4
TOL = {np.float64: dict(rtol=1e-9, atol=1e-11), np.float32: dict(rtol=2e-4, atol=2e-5)}


@pytest.fixture
def fallbacks(monkeypatch):
    """The names of the primitives that made a vectorized Jacobian fall back to the loop."""
    seen = []
    orig = _tape.backward

    def spy(*args, **kwargs):
        try:
            return orig(*args, **kwargs)
        except _jacobian.NotBatchable as e:
            seen.append(str(e))
            raise
    monkeypatch.setattr(_tape, "backward", spy)
    return seen


def _consts(arrs, dtype):
    return [tf.constant(np.asarray(a, dtype=dtype)) for a in arrs]


def _runs_in(f, arrs, dtype):
    """Whether case ``f`` computes in ``dtype`` (a few cases build float64 constants)."""
    try:
        out = f(*_consts(arrs, dtype))
    except Exception:  # noqa: BLE001  (a dtype mismatch: the case is float64 only)
        return False
    return out.dtype.as_numpy_dtype == dtype


def _refused_in_float32(f, arrs, dtype):
    """Whether case ``f`` is one of the few float64-only ones (it builds float64 constants) run
    in float32: such a case must be refused as TF refuses it, with InvalidArgumentError's dtype
    message, never computed in another dtype than its inputs'."""
    if dtype is not np.float32:
        return False
    try:
        out = f(*_consts(arrs, dtype))
    except tf.errors.InvalidArgumentError as e:
        assert "expected to be a" in str(e), str(e)
        return True
    assert out.dtype.as_numpy_dtype == dtype, f"float32 inputs gave {out.dtype.name}"
    return False


def _close(a, b, dtype, what):
    if a is None or b is None:
        assert a is None and b is None, what
        return
    a, b = a.numpy(), b.numpy()
    assert a.shape == b.shape, (what, a.shape, b.shape)
    assert a.dtype == b.dtype == dtype, (what, a.dtype, b.dtype)
    scale = max(1.0, float(np.max(np.abs(b), initial=0.0)))
    tol = TOL[dtype]
    np.testing.assert_allclose(a, b, rtol=tol["rtol"], atol=tol["atol"] * scale, err_msg=what)


def _first_order(f, arrs, dtype, fallbacks):
    xs = _consts(arrs, dtype)
    with tf.GradientTape(persistent=True) as t:
        t.watch(xs)
        y = f(*xs)
    jv = t.jacobian(y, xs)
    assert not fallbacks, f"fell back to the loop on {fallbacks}"
    jl = t.jacobian(y, xs, experimental_use_pfor=False)
    for k in range(len(xs)):
        _close(jv[k], jl[k], dtype, f"d y / d x{k}")
    # unconnected sources: zeros of the right shape on both paths
    z = tf.constant(np.ones((2,), dtype=dtype))
    zv = t.jacobian(y, z, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    zl = t.jacobian(y, z, unconnected_gradients=tf.UnconnectedGradients.ZERO,
                    experimental_use_pfor=False)
    _close(zv, zl, dtype, "unconnected")
    if y._value.size:  # (an empty target's Jacobian is an empty array, on both paths)
        assert t.jacobian(y, z) is None


def _second_order(f, arrs, dtype, fallbacks):
    """Hessians of sum(w * f) by a vectorized outer Jacobian over a first-order gradient, and
    (small cases) the Jacobian of a vectorized Jacobian, against the loop at both levels."""
    w = np.random.default_rng(1).uniform(0.5, 1.5, size=tuple(f(*_consts(arrs, dtype)).shape))
    results = {}
    for pfor in (True, False):
        xs = _consts(arrs, dtype)
        with tf.GradientTape(persistent=True) as outer:
            outer.watch(xs)
            with tf.GradientTape(persistent=True) as inner:
                inner.watch(xs)
                y = f(*xs)
                L = tf.reduce_sum(y * tf.constant(w.astype(dtype)))
            gs = inner.gradient(L, xs)
            small = y._value.size * sum(a._value.size for a in xs) <= 48
            js = inner.jacobian(y, xs, experimental_use_pfor=pfor) if small else None
        hess = [[None if g is None else outer.jacobian(g, x, experimental_use_pfor=pfor)
                 for x in xs] for g in gs]
        jj = None if js is None else [
            [None if j is None else outer.jacobian(j, x, experimental_use_pfor=pfor) for x in xs]
            for j in js]
        results[pfor] = hess, jj
    assert not fallbacks, f"fell back to the loop on {fallbacks}"
    (hv, jjv), (hl, jjl) = results[True], results[False]
    for i, (rv, rl) in enumerate(zip(hv, hl)):
        for k, (a, b) in enumerate(zip(rv, rl)):
            _close(a, b, dtype, f"d2 L / d x{i} d x{k}")
    if jjv is not None:
        for i, (rv, rl) in enumerate(zip(jjv, jjl)):
            for k, (a, b) in enumerate(zip(rv, rl)):
                _close(a, b, dtype, f"d (dy/dx{i}) / d x{k}")


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=N_EXAMPLES, **SETTINGS)
@given(data=st.data(), seed=st.integers(0, 2**31 - 1))
def test_first_order_vectorized_matches_loop(fallbacks, name, dtype, data, seed):
    f, arrs = CASES[name](data, np.random.default_rng(seed))
    if _refused_in_float32(f, arrs, dtype):
        return  # checked: refused as TF refuses it (test_float32_covers_most_cases keeps these few)
    with np.errstate(all="ignore"):
        _first_order(f, arrs, dtype, fallbacks)


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("name", [n for n in NAMES if n not in NO_SECOND_ORDER])
@settings(max_examples=N_EXAMPLES, **SETTINGS)
@given(data=st.data(), seed=st.integers(0, 2**31 - 1))
def test_second_order_vectorized_matches_loop(fallbacks, name, dtype, data, seed):
    f, arrs = CASES[name](data, np.random.default_rng(seed))
    if _refused_in_float32(f, arrs, dtype):
        return  # checked: refused as TF refuses it
    with np.errstate(all="ignore"):
        _second_order(f, arrs, dtype, fallbacks)


def test_float32_covers_most_cases():
    """The float32 runs above skip only the few cases that build float64 constants."""
    @settings(max_examples=1, derandomize=True, **{k: v for k, v in SETTINGS.items()
                                                    if k != "phases"})
    @given(data=st.data())
    def count(data):
        f32 = [n for n in NAMES if _runs_in(*CASES[n](data, np.random.default_rng(0)),
                                            np.float32)]
        assert len(f32) >= 0.8 * len(NAMES), sorted(set(NAMES) - set(f32))
    count()


def test_every_differentiable_primitive_has_batch_rules():
    """A primitive without batch rules makes every Jacobian through it fall back to the loop:
    the registry's differentiable primitives all declare theirs (``defvjps(..., batch=True)``
    or ``defbatch``)."""
    missing = sorted(n for n, p in REGISTRY.items() if p.differentiable and p.batch_vjps is None)
    assert not missing, missing


# ------------------------------------------------------------------------------------------
# batch_jacobian
# ------------------------------------------------------------------------------------------

def _per_example_functions(W, v):
    """Functions whose example i depends only on example i of the input (batch first)."""
    return {
        "elementwise": lambda x: tf.sin(x) * tf.tanh(x) + x ** 2,
        "matmul": lambda x: tf.tanh(x @ W),
        "softmax": lambda x: tf.nn.softmax(x * 2.0),
        "reduce_keepdims": lambda x: x * tf.reduce_sum(x ** 2, axis=1, keepdims=True),
        "reshape_transpose": lambda x: tf.reshape(tf.transpose(
            tf.reshape(x, (x.shape[0], 2, -1)), (0, 2, 1)), (x.shape[0], -1)) * v,
        "slice_concat": lambda x: tf.concat([x[:, 1:] * 3.0, tf.exp(x[:, :2])], axis=1),
        "einsum_outer": lambda x: tf.reshape(tf.einsum("bi,bj->bij", x, tf.sin(x)),
                                             (x.shape[0], -1)),
        # a target of rank 2 (TF's batch_jacobian refuses rank 1): one number per example
        "broadcast_scalar": lambda x: (tf.reduce_logsumexp(x, axis=1)
                                       * tf.reduce_mean(x, 1))[:, None],
    }


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("kind", sorted(_per_example_functions(None, None)))
def test_batch_jacobian_vectorized_matches_loop(fallbacks, kind, dtype):
    rng = np.random.default_rng(3)
    W = tf.constant(rng.standard_normal((4, 5)).astype(dtype))
    v = tf.constant(rng.standard_normal((4,)).astype(dtype))
    f = _per_example_functions(W, v)[kind]
    x = tf.constant(rng.standard_normal((3, 4)).astype(dtype))
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(x)
        with tf.GradientTape(persistent=True) as t:
            t.watch(x)
            y = f(x)
        bv = t.batch_jacobian(y, x)
        bl = t.batch_jacobian(y, x, experimental_use_pfor=False)
        full = t.jacobian(y, x)
    assert not fallbacks
    _close(bv, bl, dtype, "batch_jacobian")
    # the definition: the diagonal blocks of the full Jacobian
    m = y._value.size // 3
    blocks = full.numpy().reshape(3, m, 3, -1)
    diag = np.stack([blocks[i, :, i] for i in range(3)]).reshape(bv.shape)
    np.testing.assert_allclose(bv.numpy(), diag, **TOL[dtype])
    for parallel in (1, 2):
        _close(t.batch_jacobian(y, x, parallel_iterations=parallel), bl, dtype, "chunked")
    # second order: the batch Jacobian of a vectorized batch Jacobian
    s = tf.reshape(bv, (3, -1))
    s_loop = tf.reshape(bl, (3, -1))
    _close(outer.batch_jacobian(s, x), outer.batch_jacobian(s_loop, x,
                                                            experimental_use_pfor=False),
           dtype, "batch_jacobian of batch_jacobian")
    assert not fallbacks


def test_batch_jacobian_unconnected_and_checks():
    x = tf.constant(np.ones((2, 3)))
    z = tf.constant(np.ones((2, 4)))
    with tf.GradientTape(persistent=True) as t:
        t.watch([x, z])
        y = tf.sin(x)
    zn = t.batch_jacobian(y, z)  # (as TensorFlow: zeros, whatever unconnected_gradients says)
    assert zn.shape == (2, 3, 4) and not np.any(zn.numpy())
    zj = t.batch_jacobian(y, z, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert zj.shape == (2, 3, 4) and not np.any(zj.numpy())
    with pytest.raises(ValueError, match="first dimension"):
        t.batch_jacobian(y, tf.constant(np.ones((3, 3))))


# ------------------------------------------------------------------------------------------
# Chunks, fallback, tape states
# ------------------------------------------------------------------------------------------

def _net(n, dtype, seed=0):
    rng = np.random.default_rng(seed)
    W = tf.constant((rng.standard_normal((n, n)) / np.sqrt(n)).astype(dtype))
    x = tf.constant(rng.standard_normal((n,)).astype(dtype))

    def f(x):
        h = tf.tanh(tf.linalg.matvec(W, x))
        return tf.sin(h) * h
    return f, x


@pytest.mark.parametrize("recording", [False, True], ids=["plain", "outer-tape"])
def test_chunked_equals_unchunked(monkeypatch, recording):
    """parallel_iterations rows per pass, and the automatic chunks (forced small here), give
    the unchunked result, whether the chunks are filled into one array or concatenated (an
    outer tape records)."""
    f, x = _net(7, np.float64)
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(x)
        with tf.GradientTape(persistent=True) as t:
            t.watch(x)
            y = f(x)
        if not recording:
            outer._pop()
        whole = t.jacobian(y, x)
        parts = {p: t.jacobian(y, x, parallel_iterations=p) for p in (1, 2, 3, 7, 100)}
        monkeypatch.setattr(_jacobian, "_UNSPLIT", 1)  # automatic chunks of a few rows
        auto = t.jacobian(y, x)
        if not recording:
            outer._push()
    for p, j in parts.items():
        np.testing.assert_array_equal(j.numpy(), whole.numpy(), err_msg=f"chunk {p}")
    np.testing.assert_array_equal(auto.numpy(), whole.numpy())
    if recording:  # the concatenated chunks are differentiable
        h1 = outer.jacobian(parts[3], x)
        h2 = outer.jacobian(whole, x, experimental_use_pfor=False)
        np.testing.assert_allclose(h1.numpy(), h2.numpy(), rtol=1e-12, atol=1e-14)


def test_auto_chunk_splits_large_passes_only():
    f, x = _net(1000, np.float32)
    with tf.GradientTape() as t:
        t.watch(x)
        y = f(x)
    # per row about 3 x 1000 elements; the Jacobian holds 1000 x 1000
    assert _jacobian.auto_chunk(t._reader(), y, [x], 1000) < 1000
    f, x = _net(50, np.float32)
    with tf.GradientTape() as t:
        t.watch(x)
        y = f(x)
    assert _jacobian.auto_chunk(t._reader(), y, [x], 50) >= 50


def _peak(fn):
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        r = fn()
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    return r, peak


@pytest.mark.parametrize("n", [600, 1500])
def test_vectorized_pass_needs_at_most_twice_the_jacobian(n):
    """Peak memory of jacobian() (result included) within 2x the Jacobian's size: large
    passes are chunked."""
    f, x = _net(n, np.float64)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = f(x)
    j, peak = _peak(lambda: t.jacobian(y, x))
    size = j.numpy().nbytes
    assert peak <= 2 * size + 256 * 1024, (peak / size, peak, size)
    np.testing.assert_array_equal(j.numpy(), t.jacobian(y, x, parallel_iterations=n).numpy())


def test_custom_gradient_falls_back_to_the_loop(fallbacks):
    @tf.custom_gradient
    def cube(x):
        def grad(dy):
            return dy * 3.0 * x * x
        return x * x * x, grad

    x = tf.constant(np.array([0.5, -1.0, 2.0]))
    results = {}
    for pfor in (True, False):
        with tf.GradientTape(persistent=True) as outer:
            outer.watch(x)
            with tf.GradientTape() as t:
                t.watch(x)
                y = tf.sin(cube(x)) * x
            j = t.jacobian(y, x, experimental_use_pfor=pfor)
            n_recorded = len(outer._entries)
        results[pfor] = (j.numpy(), outer.jacobian(j, x, experimental_use_pfor=pfor).numpy(),
                         n_recorded)
    # the fallback names the primitive without batch rules: the custom gradient's own
    assert fallbacks and all(REGISTRY.get(name) is None or REGISTRY[name].batch_vjps is None
                             for name in fallbacks), fallbacks
    np.testing.assert_allclose(results[True][0], results[False][0], rtol=1e-12)
    np.testing.assert_allclose(results[True][1], results[False][1], rtol=1e-12)
    # the refused vectorized pass recorded nothing on the outer tape
    assert results[True][2] == results[False][2]


def test_non_persistent_tape_is_consumed_and_persistent_tape_reused():
    f, x = _net(4, np.float64)
    with tf.GradientTape() as t:
        t.watch(x)
        y = f(x)
    t.jacobian(y, x)
    with pytest.raises(RuntimeError, match="non-persistent"):
        t.jacobian(y, x)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = f(x)
    a = t.jacobian(y, x)
    b = t.jacobian(y, x)
    g = t.gradient(y, x)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    np.testing.assert_allclose(a.numpy().sum(0), g.numpy(), rtol=1e-12)


def test_jacobian_of_scalar_and_of_several_sources():
    x = tf.constant(np.array([[1.0, 2.0], [3.0, 4.0]]))
    b = tf.constant(np.array([0.5, -0.5]))
    with tf.GradientTape(persistent=True) as t:
        t.watch([x, b])
        y = tf.reduce_sum(tf.square(x + b))
        z = x @ x + b
    jy = t.jacobian(y, {"x": x, "b": b})
    assert set(jy) == {"x", "b"} and jy["x"].shape == (2, 2) and jy["b"].shape == (2,)
    np.testing.assert_allclose(jy["x"].numpy(), 2 * (x.numpy() + b.numpy()))
    jz = t.jacobian(z, [x, b])
    lz = t.jacobian(z, [x, b], experimental_use_pfor=False)
    for a, c in zip(jz, lz):
        np.testing.assert_array_equal(a.numpy(), c.numpy())


def test_registered_gradient_falls_back_to_the_loop(fallbacks):
    """A RegisterGradient entry is a whole-op rule without batch rules: Jacobians through it
    fall back to the loop and use it; once removed, the operation has no gradient again."""
    from minitape._custom import restore_gradient
    x = tf.constant(np.random.default_rng(2).uniform(size=(1, 2, 2, 1)))

    def jac():
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.image.adjust_contrast(x, 2.0) * 3.0
        return t.jacobian(y, x)

    @tf.RegisterGradient("AdjustContrastv2")
    def _grad(op, grad):
        return grad * 10.0, None
    try:
        j = jac().numpy().reshape(4, 4)
        assert fallbacks == ["AdjustContrastv2"]
        np.testing.assert_allclose(j, np.eye(4) * 30.0)
    finally:
        restore_gradient("AdjustContrastv2")
    with pytest.raises(LookupError):
        jac()


@pytest.mark.parametrize("layout", ["matvec", "row_vector", "two_layers", "non_finite"])
@pytest.mark.parametrize("parallel", [None, 40])
def test_selected_rows_shortcut_of_matrix_products(monkeypatch, layout, parallel):
    """Dense seeds that reach a matrix-vector product as diag(d) (identity rows scaled
    element-wise) are multiplied as selected rows when nothing records: same Jacobian as the
    loop, chunks (shifted diagonals) included; dense gradients and non-finite matrices take
    the product.  (Seeds that stay one-hot take the one-hot rules instead, test_onehot.py:
    switched off here, as where a gradient was written out before its product.)"""
    from minitape import _onehot
    from minitape._ops import linalg_grads
    monkeypatch.setattr(_onehot, "available", lambda target: False)
    taken = []
    orig = linalg_grads._selected_rows

    def spy(g, axis):  # (a last chunk smaller than the shortcut's minimum takes the product)
        r = orig(g, axis)
        if g._value.size >= linalg_grads._SHORTCUT_MIN:
            taken.append(r is not None)
        return r
    monkeypatch.setattr(linalg_grads, "_selected_rows", spy)
    rng = np.random.default_rng(5)
    n = 128  # (the shortcut starts at 64 x 64 gradient elements: 40 rows of 128 are enough)
    W = rng.standard_normal((n, n)) / np.sqrt(n)
    if layout == "non_finite":
        W[3, 4] = np.inf
    W1, W2 = tf.constant(W), tf.constant(rng.standard_normal((n, n)))
    x = tf.constant(rng.standard_normal((n,)))

    def f(x):
        if layout == "row_vector":
            h = tf.tanh(tf.reshape(tf.reshape(x, (1, n)) @ W1, (n,)))
        else:
            h = tf.tanh(tf.linalg.matvec(W1, x))
        if layout == "two_layers":
            h = tf.linalg.matvec(W2, h)
        return tf.sin(h) * h
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = f(x)
    with np.errstate(all="ignore"):
        jv = t.jacobian(y, x, parallel_iterations=parallel).numpy()
        jl = t.jacobian(y, x, experimental_use_pfor=False).numpy()
    np.testing.assert_allclose(jv, jl, rtol=1e-12, atol=1e-14, equal_nan=True)
    if type(x._value) is not np.ndarray:
        assert not any(taken)  # another array backend (--backend=strict): always the product
    elif layout == "two_layers":  # per pass: W2's product is selected rows, W1's is dense
        assert taken[0::2] and all(taken[0::2]) and not any(taken[1::2]), taken
    else:  # (non_finite: the rows are selected, but the infinite matrix takes the product)
        assert taken and all(taken), taken
