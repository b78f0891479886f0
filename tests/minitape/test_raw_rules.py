"""Backward passes that nothing records run on raw arrays (issue 31): same results, no graph.

A first-order gradient (no tape or forward accumulator active while it runs) uses the
primitives' raw rules (``Primitive.raw_vjps``, :mod:`minitape._ops.raw_grads`) and builds no
Tensor per step; a pass that an outer tape or accumulator records keeps the Tensor rules, so
higher derivatives are unchanged.  These tests hold the raw rules to the Tensor rules, the
choice of path to what records, and the tape's one decision about consuming its recording
(issue 26, item 5).
"""
from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import minitape as tf
from minitape import _core, _jacobian, _tape
from minitape._ops.raw_grads import _wrap
from minitape._core import REGISTRY

# One case per primitive that has raw rules: the operation, and a domain for its inputs.
UNARY = {
    "Neg": (tf.negative, None), "Identity": (tf.identity, None), "Sin": (tf.sin, None),
    "Cos": (tf.cos, None), "Exp": (tf.exp, None), "Log": (tf.math.log, "positive"),
    "Tanh": (tf.tanh, None), "Sigmoid": (tf.sigmoid, None), "Square": (tf.square, None),
    "Sqrt": (tf.sqrt, "positive"), "Relu": (tf.nn.relu, None), "Relu6": (tf.nn.relu6, "wide"),
}
BINARY = {"AddV2": tf.add, "Sub": tf.subtract, "Mul": tf.multiply, "RealDiv": tf.divide}


@pytest.fixture
def host_only(request):
    """Raw passes run only with one array module (NumPy).  Under ``--backend=strict`` (or
    cupy) these tests are skipped, with the reason; in a NumPy run, a test earlier in the same
    process may have registered a second module (the fake CuPy of test_device.py), which turns
    raw passes off for good: every tensor here is on the host, so the flag is lowered for the
    test."""
    from minitape import _state
    backend = (request.config.getoption("backend", default=None)
               or os.environ.get("MINITAPE_TEST_BACKEND") or "numpy")  # (conftest's rule)
    if backend != "numpy":
        pytest.skip("raw passes need a single array module (this run places tensors on a "
                    "second backend, where every pass runs the Tensor rules)")
    saved = _state.multi_device[0]
    _state.multi_device[0] = False
    yield
    _state.multi_device[0] = saved


def _values(rng, shape, dtype, domain=None):
    v = rng.standard_normal(shape)
    if domain == "positive":
        v = np.abs(v) + 0.1
    elif domain == "wide":
        v = v * 5
    v = v.astype(dtype)
    return v[()] if v.ndim == 0 else v  # a 0-d value is a NumPy scalar, as ops give


def _entry(op, *xs):
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = op(*xs)
    (out_id, in_ids, prim, saved, params), = tape._entries
    return prim, saved, params, y


def _assert_raw_rules_are_the_tensor_rules(prim, saved, params, g):
    """Each input's raw rule on ``g`` gives its Tensor rule's array, bit for bit."""
    for k in range(len(prim.raw_vjps)):
        want = prim.vjps[k](_wrap(g), *saved, **params)._value
        got = prim.raw_vjps[k](g, *saved, **params)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


@pytest.mark.usefixtures("host_only")
def test_every_raw_rule_has_a_case_here():
    with_raw = {name for name, p in REGISTRY.items() if p.raw_vjps is not None}
    assert with_raw == set(UNARY) | set(BINARY) | {"MatMul"}


@pytest.mark.usefixtures("host_only")
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
@pytest.mark.parametrize("shapes", [((2, 3), (3, 4)), ((5, 2, 3), (3, 4)), ((2, 3), (5, 3, 4)),
                                    ((2, 1, 2, 3), (4, 3, 2))])
def test_raw_matmul_rules_are_the_tensor_rules_bit_for_bit(shapes, dtype):
    rng = np.random.default_rng(hash(shapes) % 2**32)
    a = tf.constant(_values(rng, shapes[0], dtype))
    b = tf.constant(_values(rng, shapes[1], dtype))
    prim, saved, params, y = _entry(tf.matmul, a, b)
    assert prim.name == "MatMul"
    g = _values(rng, y._value.shape, dtype)
    _assert_raw_rules_are_the_tensor_rules(prim, saved, params, g)
    # and through a whole pass, broadcast batch axes summed back by the tape
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        s = tf.reduce_sum(tf.matmul(a, b) * 0.5)
    raw = tape.gradient(s, [a, b])
    with tf.GradientTape() as outer:
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            s = tf.reduce_sum(tf.matmul(a, b) * 0.5)
        recorded = tape.gradient(s, [a, b])
    for r, c, x in zip(raw, recorded, (a, b)):
        assert r.shape == x.shape
        np.testing.assert_array_equal(r.numpy(), c.numpy())


@pytest.mark.usefixtures("host_only")
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(), (4,), (2, 3)])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_raw_unary_rule_is_the_tensor_rule_bit_for_bit(name, shape, dtype):
    op, domain = UNARY[name]
    rng = np.random.default_rng(hash((name, shape)) % 2**32)
    x = tf.constant(_values(rng, shape, dtype, domain))
    prim, saved, params, y = _entry(op, x)
    g = _values(rng, shape, dtype)
    want = prim.vjps[0](_wrap(g), *saved, **params)._value
    got = prim.raw_vjps[0](g, *saved, **params)
    assert type(got) is type(want) and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.usefixtures("host_only")
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shapes", [((), ()), ((4,), (4,)), ((2, 3), (3,)), ((1, 3), (2, 1))])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_raw_binary_rules_are_the_tensor_rules_bit_for_bit(name, shapes, dtype):
    rng = np.random.default_rng(hash((name, shapes)) % 2**32)
    a = tf.constant(_values(rng, shapes[0], dtype))
    b = tf.constant(_values(rng, shapes[1], dtype, "positive"))
    prim, saved, params, y = _entry(BINARY[name], a, b)
    g = _values(rng, y._value.shape, dtype)
    _assert_raw_rules_are_the_tensor_rules(prim, saved, params, g)


def _model(x, w):
    h = tf.nn.relu(tf.matmul(x, w))
    z = tf.tanh(h * 0.5 - 0.25) / (1.0 + tf.square(h))
    return tf.reduce_mean(tf.exp(-z) + tf.sqrt(tf.sigmoid(z)) + tf.sin(z) * tf.cos(h))


@pytest.mark.usefixtures("host_only")
def test_a_raw_pass_gives_what_a_recorded_pass_gives():
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal((5, 4)))
    w = tf.Variable(rng.standard_normal((4, 3)))
    with tf.GradientTape() as tape:
        loss = _model(x, w)
    raw = tape.gradient(loss, w)
    with tf.GradientTape() as outer:  # an outer tape active: the pass is recorded
        with tf.GradientTape() as tape:
            loss = _model(x, w)
        recorded = tape.gradient(loss, w)
        s = tf.reduce_sum(recorded)
    assert type(raw) is tf.Tensor and raw.dtype == recorded.dtype == tf.float64
    np.testing.assert_array_equal(raw.numpy(), recorded.numpy())
    assert outer.gradient(s, w) is not None  # and it was recorded


def _refuse_tensor_rule(monkeypatch, name):
    """Make ``name``'s Tensor rules raise: a pass that gets through did not use them."""
    prim = REGISTRY[name]

    def refuse(*args, **kwargs):
        raise AssertionError(f"{name}'s Tensor rule ran")
    monkeypatch.setattr(prim, "vjps", (refuse,) * len(prim.vjps))


@pytest.mark.usefixtures("host_only")
def test_first_order_passes_run_no_tensor_rule(monkeypatch):
    _refuse_tensor_rule(monkeypatch, "Sin")
    _refuse_tensor_rule(monkeypatch, "Mul")
    x = tf.Variable(0.3, dtype=tf.float64)
    for persistent in (False, True):
        with tf.GradientTape(persistent=persistent) as tape:
            y = tf.sin(x * 2.0) * x
        assert float(tape.gradient(y, x)) == pytest.approx(
            2 * np.cos(0.6) * 0.3 + np.sin(0.6), rel=1e-14)


@pytest.mark.usefixtures("host_only")
@pytest.mark.parametrize("recorder", ["outer tape", "own persistent context", "accumulator"])
def test_passes_that_something_records_run_the_tensor_rules(monkeypatch, recorder):
    _refuse_tensor_rule(monkeypatch, "Sin")
    x = tf.Variable(0.3, dtype=tf.float64)
    with pytest.raises(AssertionError, match="Sin's Tensor rule ran"):
        if recorder == "outer tape":
            with tf.GradientTape():
                with tf.GradientTape() as tape:
                    y = tf.sin(x)
                tape.gradient(y, x)
        elif recorder == "own persistent context":
            with tf.GradientTape(persistent=True) as tape:
                y = tf.sin(x)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", _tape.TapeWarning)
                    tape.gradient(y, x)
        else:
            with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0, tf.float64)):
                with tf.GradientTape() as tape:
                    y = tf.sin(x)
                tape.gradient(y, x)


def test_a_second_array_module_keeps_the_tensor_rules(monkeypatch):
    from minitape import _state
    monkeypatch.setattr(_core, "_place", lambda prim, inputs, params: (inputs, params))
    _refuse_tensor_rule(monkeypatch, "Sin")
    saved = _state.multi_device[0]
    _state.multi_device[0] = True  # as once CuPy or the strict backend is registered
    try:
        x = tf.Variable(0.3, dtype=tf.float64)
        with tf.GradientTape() as tape:
            y = tf.sin(x)
        with pytest.raises(AssertionError, match="Sin's Tensor rule ran"):
            tape.gradient(y, x)
    finally:
        _state.multi_device[0] = saved


def test_higher_orders_through_nested_tapes_are_unchanged():
    x = tf.Variable(0.7, dtype=tf.float64)
    with tf.GradientTape() as t3:
        with tf.GradientTape() as t2:
            with tf.GradientTape() as t1:
                y = tf.sin(x) * x
            d1 = t1.gradient(y, x)
        d2 = t2.gradient(d1, x)
    d3 = t3.gradient(d2, x)  # the only raw pass: the outermost
    s, c, v = np.sin(0.7), np.cos(0.7), 0.7
    assert float(d1) == pytest.approx(c * v + s, rel=1e-14)
    assert float(d2) == pytest.approx(-s * v + 2 * c, rel=1e-14)
    assert float(d3) == pytest.approx(-c * v - 3 * s, rel=1e-14)


@pytest.mark.usefixtures("host_only")
def test_raw_pass_sums_fan_in_and_skips_what_leads_to_no_source(monkeypatch):
    prim = REGISTRY["Cos"]

    def refuse(*args, **kwargs):
        raise AssertionError("an entry that leads to no source ran")
    monkeypatch.setattr(prim, "raw_vjps", (refuse,))
    x = tf.Variable(np.array([0.5, -1.5]))
    w = tf.Variable(np.array([2.0, 3.0]))
    with tf.GradientTape() as tape:
        a, b, c = tf.sin(x), tf.exp(x), x * x     # three gradients meet in x
        side = tf.cos(w) * x                       # Cos leads to w, which is not asked for
        y = tf.reduce_sum(a + b + c + side)
    gx = tape.gradient(y, x)
    v, u = x.numpy(), w.numpy()
    np.testing.assert_allclose(gx.numpy(), np.cos(v) + np.exp(v) + 2 * v + np.cos(u),
                               rtol=1e-15)


def test_raw_pass_with_several_outputs_and_an_intermediate_source():
    @tf.custom_gradient
    def two(x):
        def grad(da, db):
            return da * 2.0 + db * 3.0
        return (x * 2.0, x * 3.0), grad

    x = tf.Variable(1.5, dtype=tf.float64)
    with tf.GradientTape() as tape:
        a, b = two(x)
        h = a * b                                  # 6 x**2
        y = tf.sin(h)
    gx, gh = tape.gradient(y, [x, h])
    assert float(gh) == pytest.approx(np.cos(13.5), rel=1e-14)
    assert float(gx) == pytest.approx(18.0 * np.cos(13.5), rel=1e-14)


# --- the tape's one decision about its recording (issue 26, item 5) ------------------------

def test_jacobian_of_a_persistent_tape_in_its_context_warns_once():
    x = tf.Variable(np.array([1.0, 2.0]))
    with tf.GradientTape(persistent=True) as tape:
        y = tf.sin(x) * x
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            tape.jacobian(y, x, experimental_use_pfor=False)   # one pass per row
            tape.jacobian(y, x, parallel_iterations=1)         # one pass per chunk
    assert [type(w.message) for w in caught] == [_tape.TapeWarning] * 2


@pytest.mark.parametrize("call", ["gradient", "jacobian", "batch_jacobian"])
def test_every_call_of_a_non_persistent_tape_consumes_it(call):
    x = tf.Variable(np.ones((2, 3)))
    with tf.GradientTape() as tape:
        y = tf.sin(x) * x
    getattr(tape, call)(y, x)
    assert tape._entries is None
    with pytest.raises(RuntimeError, match="non-persistent GradientTape can only be used"):
        tape.gradient(y, x)


def test_a_jacobian_reads_the_recording_only_through_what_it_receives():
    x = tf.Variable(np.array([0.5, 1.0, 2.0]))
    with tf.GradientTape(persistent=True) as tape:
        y = tf.sin(x) * x
    calls = []
    reader = tape._reader()

    def passes(*args, **kwargs):
        calls.append(kwargs.get("batch"))
        return reader.passes(*args, **kwargs)

    j = _jacobian.jacobian(_jacobian.Reader(passes, reader.entries, reader.watched),
                           y, [x], tf.UnconnectedGradients.NONE, None, True)[0]
    v = x.numpy()
    np.testing.assert_allclose(j.numpy(), np.diag(np.cos(v) * v + np.sin(v)), rtol=1e-14)
    assert calls == [3]  # one vectorized pass of 3 rows
    assert tape._entries is not None  # a Jacobian's passes keep the recording


# --- forward: the commonest calls record without building what nothing reads -------------

def _shape_of_entries(tape):
    return [(e[2].name, len(e[1]), e[4]) for e in tape._entries]


def test_binary_and_unary_calls_record_as_the_general_path_does():
    x = tf.Variable(np.array([0.5, 2.0]))
    c = tf.constant(np.array([3.0, 4.0]))
    with tf.GradientTape(persistent=True) as one:
        a = x * c
        b = a + 0.5
        s = tf.sin(b)
        cut = s // 2.0          # FloorDiv has no gradient: a cut note, no entry
        free = c * 2.0          # nothing watched: no entry
    assert _shape_of_entries(one) == [("Mul", 2, {}), ("AddV2", 2, {}), ("Sin", 1, {})]
    assert all(e[4] is _core._NO_PARAMS for e in one._entries)  # one shared empty dict
    assert [n.kind for n in one._notes] == ["cut"] and one._notes[0].op == "FloorDiv"
    assert free._id not in one._watched and cut._id not in one._watched
    v = x.numpy()
    np.testing.assert_allclose(one.gradient(s, x).numpy(),
                               np.cos(v * [3.0, 4.0] + 0.5) * [3.0, 4.0],
                               rtol=1e-15)
    # two tapes, or a forward accumulator: the general path, the same recording
    with tf.GradientTape() as outer, tf.GradientTape() as inner:
        s2 = tf.sin(x * c + 0.5)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(np.ones(2))) as acc:
        with tf.GradientTape() as t3:
            s3 = tf.sin(x * c + 0.5)
    for t in (outer, inner):
        assert _shape_of_entries(t) == _shape_of_entries(one)
    # (with the accumulator active, t3 also records the tangents' operations, as in TF)
    assert _shape_of_entries(t3)[:3] == _shape_of_entries(one)
    for t, s_ in ((outer, s2), (inner, s2), (t3, s3)):
        np.testing.assert_array_equal(t.gradient(s_, x).numpy(), one.gradient(s, x).numpy())
    np.testing.assert_allclose(acc.jvp(s3).numpy(), np.cos(v * [3.0, 4.0] + 0.5) * [3.0, 4.0],
                               rtol=1e-15)


def test_a_matrix_product_is_not_kept_alive_by_the_tape():
    """MatMul's rules read its operands only (Primitive save=keep_inputs): the tape keeps the
    operands, and the product lives only as long as its users, as in TensorFlow. Gradients,
    first and second order, are unchanged."""
    import gc
    import weakref

    rng = np.random.default_rng(3)
    x = tf.constant(rng.standard_normal((4, 5)))
    w = tf.Variable(rng.standard_normal((5, 3)))
    with tf.GradientTape(persistent=True) as tape:
        z = tf.matmul(x, w)
        gone = weakref.ref(z)
        h = tf.nn.relu(z)  # relu keeps a mask, not z
        loss = tf.reduce_sum(h * h)
    del z
    gc.collect()
    assert gone() is None
    (_, _, prim, saved, _), = [e for e in tape._entries if e[2].name == "MatMul"]
    assert saved[0] is None and saved[1] is x
    got = tape.gradient(loss, w).numpy()
    zv = x.numpy() @ w.numpy()
    want = x.numpy().T @ (2 * np.maximum(zv, 0) * (zv > 0))
    np.testing.assert_allclose(got, want, rtol=1e-12)
    with tf.GradientTape() as outer:  # second order through the product
        with tf.GradientTape() as inner:
            s = tf.reduce_sum(tf.square(tf.matmul(x, w)))
        g = inner.gradient(s, w)
    np.testing.assert_allclose(outer.gradient(g, w).numpy(), 2 * (x.numpy().T @ x.numpy()).sum(axis=1, keepdims=True) * np.ones((1, 3)), rtol=1e-12)


def test_the_debugging_view_shows_a_matrix_product_that_kept_only_its_operands():
    """minitape.debugging draws a product whose output the tape did not keep: its operands
    from its own entry, its value from the operation that used it."""
    x = tf.constant([[1.0, 2.0]])
    w = tf.Variable([[3.0], [4.0]])
    with tf.GradientTape(persistent=True) as tape:
        y = tf.matmul(x, w) * 2.0
    text = str(tf.debugging.draw(tape, target=y, sources=w))
    assert "MatMul(x, w)  -> [[11.]]" in text and "[[1. 2.]]" in text, text
    np.testing.assert_array_equal(tape.gradient(y, w).numpy(), [[2.0], [4.0]])


def test_a_primitives_numpy_forward_is_its_forward_on_numpy_arrays():
    """Primitive.host, which the NumPy-only fast paths call instead of fwd, computes what fwd
    computes on NumPy arrays and scalars (fwd dispatches on the array module)."""
    rng = np.random.default_rng(5)
    x = rng.uniform(0.1, 0.9, size=(3, 4))
    special = [p for p in REGISTRY.values() if p.host is not p.fwd]
    assert {"Sin", "Cos", "Log", "Sqrt", "Tanh", "Exp"} <= {p.name for p in special}
    for prim in special:
        for v in (x, x.astype(np.float32), np.float64(0.5), np.float32(0.25)):
            with np.errstate(all="ignore"):  # (arccosh below 1: NaN, in both)
                want = prim.fwd(v)
                got = prim.host(v)
            assert type(got) is type(want) and got.dtype == want.dtype, prim.name
            np.testing.assert_array_equal(got, want)
