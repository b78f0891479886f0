"""tf.nest, tf.Module, keras Dense, the SGD and Adam optimizers, and tf.random."""
from __future__ import annotations

import collections

import numpy as np
import pytest

import minitape as tf

# ------------------------------------------------------------------------------------------
# nest
# ------------------------------------------------------------------------------------------

Point = collections.namedtuple("Point", ["y", "x"])


def test_flatten_orders_dicts_by_key_and_keeps_sequences_in_order():
    s = {"b": [1, (2, 3)], "a": 4, "c": {"z": 5, "y": None}}
    assert tf.nest.flatten(s) == [4, 1, 2, 3, None, 5]
    assert tf.nest.flatten(7) == [7]
    assert tf.nest.flatten(None) == [None]
    assert tf.nest.flatten(Point(y=1, x=2)) == [1, 2]  # namedtuples: field order
    assert tf.nest.flatten([]) == []


def test_pack_sequence_as_rebuilds_the_structure():
    s = {"b": [1, (2, 3)], "a": 4, "p": Point(5, 6)}
    packed = tf.nest.pack_sequence_as(s, [10, 20, 30, 40, 50, 60])
    assert packed == {"b": [20, (30, 40)], "a": 10, "p": Point(50, 60)}  # filled in key order
    assert list(packed) == ["b", "a", "p"]  # the dict keeps its own key order
    assert isinstance(packed["p"], Point) and isinstance(packed["b"][1], tuple)
    assert tf.nest.pack_sequence_as(1, [5]) == 5
    with pytest.raises(ValueError):
        tf.nest.pack_sequence_as([1, 2], [1])
    with pytest.raises(ValueError):
        tf.nest.pack_sequence_as([1, 2], [1, 2, 3])


def test_map_structure():
    s = {"a": [1, 2], "b": (3,)}
    assert tf.nest.map_structure(lambda v: v * 10, s) == {"a": [10, 20], "b": (30,)}
    assert tf.nest.map_structure(lambda u, v: u + v, [1, (2, 3)], [10, (20, 30)]) == [11, (22, 33)]
    t = tf.nest.map_structure(lambda v: v * 2.0, [tf.constant(1.0), {"k": tf.constant(2.0)}])
    assert float(t[1]["k"]) == 4.0


def test_map_structure_checks_structures():
    with pytest.raises(ValueError, match="don't have the same nested structure"):
        tf.nest.map_structure(lambda a, b: a, [1, [2]], [1, 2])         # same leaf count
    with pytest.raises(ValueError, match="don't have the same nested structure"):
        tf.nest.map_structure(lambda a, b: a, [1, 2], [1, 2, 3])
    with pytest.raises(TypeError, match="same sequence type"):
        tf.nest.map_structure(lambda a, b: a, [1, 2], (1, 2))
    assert tf.nest.map_structure(lambda a, b: a + b, [1, 2], (1, 2), check_types=False) == [2, 4]
    with pytest.raises(ValueError, match="same set of keys"):
        tf.nest.map_structure(lambda a, b: a, {"a": 1}, {"b": 1})
    tf.nest.assert_same_structure({"a": [1, 2]}, {"a": [3, 4]})


def test_gradient_accepts_nested_sources_and_returns_their_structure():
    w = {"w": tf.Variable([1.0, 2.0]), "b": [tf.Variable(3.0)]}
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(w["w"] ** 2) * w["b"][0]
    g = tape.gradient(y, w)
    assert set(g) == {"w", "b"} and isinstance(g["b"], list)
    np.testing.assert_allclose(g["w"].numpy(), [6.0, 12.0])
    assert float(g["b"][0]) == 5.0


# ------------------------------------------------------------------------------------------
# Module
# ------------------------------------------------------------------------------------------

class Inner(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(1.0, name="inner_w")
        self.frozen = tf.Variable(2.0, trainable=False, name="inner_frozen")


class Outer(tf.Module):
    def __init__(self):
        super().__init__()
        self.a_child = Inner()                 # submodule: listed after Outer's own variables
        self.z = tf.Variable(3.0, name="z")
        self.b_list = [tf.Variable(4.0, name="l0"), tf.Variable(5.0, name="l1")]
        self.c_dict = {"y": tf.Variable(6.0, name="dy"), "x": tf.Variable(7.0, name="dx")}
        self.not_a_variable = tf.constant(8.0)
        self.alias = self.z                    # listed once, where "alias" sorts
        self.m_children = [Inner(name="second")]


def names(vs):
    return [v.name for v in vs]


def test_module_variables_order_is_tensorflows():
    m = Outer()
    # own attributes by name (lists in order, dicts by key), then submodules in the order met
    assert names(m.trainable_variables) == ["z:0", "l0:0", "l1:0", "dx:0", "dy:0",
                                            "inner_w:0", "inner_w:0"]
    assert names(m.variables) == ["z:0", "l0:0", "l1:0", "dx:0", "dy:0",
                                  "inner_frozen:0", "inner_w:0", "inner_frozen:0", "inner_w:0"]
    assert m.trainable_variables[5] is m.a_child.w and m.trainable_variables[6] is m.m_children[0].w
    assert names(m.non_trainable_variables) == ["inner_frozen:0", "inner_frozen:0"]
    assert [s.name for s in m.submodules] == ["inner", "second"]
    assert isinstance(m.trainable_variables, tuple)


def test_nested_submodules_are_walked_depth_first():
    class Leaf(tf.Module):
        def __init__(self, tag):
            super().__init__(name=tag)
            self.v = tf.Variable(0.0, name=tag)

    class Mid(tf.Module):
        def __init__(self):
            super().__init__()
            self.deep = Leaf("deep")
            self.v = tf.Variable(0.0, name="mid")

    class Top(tf.Module):
        def __init__(self):
            super().__init__()
            self.first = Mid()
            self.second = Leaf("second")
            self.v = tf.Variable(0.0, name="top")

    t = Top()
    assert names(t.variables) == ["top:0", "mid:0", "deep:0", "second:0"]
    assert [s.name for s in t.submodules] == ["mid", "second", "deep"]


def test_module_names():
    assert tf.Module().name == "module"
    assert tf.Module().name == "module"  # TensorFlow does not make module names unique
    assert Inner().name == "inner"
    assert tf.Module(name="my_model").name == "my_model"
    with pytest.raises(ValueError, match="not a valid module name"):
        tf.Module(name="not valid")


def test_module_gradients_with_trainable_variables():
    class Linear(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable([[1.0], [2.0]])
            self.b = tf.Variable([0.5])

        def __call__(self, x):
            return x @ self.w + self.b

    m = Linear()
    x = tf.constant([[1.0, 1.0], [2.0, 0.0]])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(m(x) ** 2)
    gb, gw = tape.gradient(loss, m.trainable_variables)  # order: b, w
    y = x.numpy() @ m.w.numpy() + m.b.numpy()
    np.testing.assert_allclose(gw.numpy(), x.numpy().T @ (2 * y))
    np.testing.assert_allclose(gb.numpy(), (2 * y).sum(0))


# ------------------------------------------------------------------------------------------
# keras.layers.Dense
# ------------------------------------------------------------------------------------------

def test_dense_shapes_names_and_values():
    tf.random.set_seed(0)
    layer = tf.keras.layers.Dense(3, activation="relu")
    assert layer.trainable_variables == [] and not layer.built  # Keras 3: lists
    x = tf.constant(np.random.default_rng(0).normal(size=(4, 2)).astype(np.float32))
    y = layer(x)
    assert y.shape == (4, 3) and y.dtype == tf.float32
    assert layer.kernel.shape == (2, 3) and layer.bias.shape == (3,)
    assert layer.kernel.name == "kernel" and layer.bias.name == "bias"  # Keras 3
    assert layer.kernel.path == layer.name + "/kernel" and layer.name.startswith("dense")
    np.testing.assert_array_equal(layer.bias.numpy(), np.zeros(3, np.float32))  # zeros initializer
    limit = np.sqrt(6.0 / (2 + 3))                                              # glorot_uniform
    assert np.all(np.abs(layer.kernel.numpy()) <= limit)
    np.testing.assert_allclose(y.numpy(), np.maximum(x.numpy() @ layer.kernel.numpy() + layer.bias.numpy(), 0),
                               rtol=1e-6)
    assert [v.name for v in layer.trainable_variables] == [layer.kernel.name, layer.bias.name]
    assert layer.variables == layer.trainable_variables


def test_dense_names_are_unique():
    a, b = tf.keras.layers.Dense(1), tf.keras.layers.Dense(1)
    assert a.name != b.name
    assert tf.keras.layers.Dense(1, name="out").name == "out"


@pytest.mark.parametrize("activation, fn", [
    (None, lambda z: z), ("linear", lambda z: z), ("relu", lambda z: np.maximum(z, 0)),
    ("sigmoid", lambda z: 1 / (1 + np.exp(-z))), ("tanh", np.tanh),
    ("softplus", lambda z: np.log1p(np.exp(z))), (tf.math.sin, np.sin),
    (lambda t: t * 2.0, lambda z: 2 * z),
])
def test_dense_activation_by_name_or_callable(activation, fn):
    layer = tf.keras.layers.Dense(2, activation=activation)
    x = tf.constant([[0.5, -1.0, 2.0]])
    y = layer(x)
    z = x.numpy() @ layer.kernel.numpy() + layer.bias.numpy()
    np.testing.assert_allclose(y.numpy(), fn(z), rtol=1e-5, atol=1e-6)


def test_dense_errors():
    with pytest.raises(ValueError, match="Unknown activation"):
        tf.keras.layers.Dense(2, activation="no_such_activation")
    with pytest.raises(ValueError, match="units"):
        tf.keras.layers.Dense(0)
    with pytest.raises(ValueError, match="expected min_ndim=2, found ndim=1"):
        tf.keras.layers.Dense(2)(tf.constant([1.0, 2.0]))


def test_dense_without_bias_and_on_3d_inputs():
    layer = tf.keras.layers.Dense(4, use_bias=False)
    y = layer(tf.ones((2, 5, 3)))
    assert y.shape == (2, 5, 4) and layer.bias is None
    assert [v.name for v in layer.trainable_variables] == [layer.kernel.name]


def test_dense_gradients_and_module_order():
    class Model(tf.Module):
        def __init__(self):
            super().__init__()
            self.hidden = tf.keras.layers.Dense(4, activation="tanh")
            self.out = tf.keras.layers.Dense(1)

        def __call__(self, x):
            return self.out(self.hidden(x))

    m = Model()
    x = tf.constant(np.random.default_rng(1).normal(size=(5, 3)).astype(np.float32))
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(m(x) ** 2)
    # Keras 3's layers are not tf.Modules: a tf.Module finds none of their weights
    assert m.trainable_variables == () and m.submodules == ()
    # a keras.Model tracks its layers: in the order they were assigned, kernel before bias
    class KerasModel(tf.keras.Model):
        def __init__(self, hidden, out):
            super().__init__()
            self.hidden, self.out = hidden, out

        def call(self, x):
            return self.out(self.hidden(x))

    m = KerasModel(m.hidden, m.out)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(m(x) ** 2)
    vs = m.trainable_variables
    assert vs == [m.hidden.kernel, m.hidden.bias, m.out.kernel, m.out.bias]
    grads = tape.gradient(loss, vs)
    assert all(g is not None and g.shape == v.shape for g, v in zip(grads, vs))
    # check the output layer's kernel gradient by hand
    h = np.tanh(x.numpy() @ m.hidden.kernel.numpy() + m.hidden.bias.numpy())
    y = h @ m.out.kernel.numpy() + m.out.bias.numpy()
    np.testing.assert_allclose(grads[2].numpy(), h.T @ (2 * y / 5), rtol=1e-5)


# ------------------------------------------------------------------------------------------
# Optimizers against a NumPy implementation of the same update rules
# ------------------------------------------------------------------------------------------

def _quadratic_grads(ws):
    # loss = sum((w - 1)^2 * c), different per variable
    return [2.0 * (w - 1.0) * (k + 1.0) for k, w in enumerate(ws)]


def _run_minitape(opt, steps, dtype=np.float64):
    ws = [tf.Variable(np.array([0.5, -1.0, 2.0], dtype=dtype)), tf.Variable(np.array(3.0, dtype=dtype))]
    history = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.add_n([tf.reduce_sum((w - 1.0) ** 2 * float(k + 1)) for k, w in enumerate(ws)])
        grads = tape.gradient(loss, ws)
        opt.apply_gradients(zip(grads, ws))
        history.append([w.numpy().copy() for w in ws])
    return history


def _run_numpy(update, state, steps):
    ws = [np.array([0.5, -1.0, 2.0]), np.array(3.0)]
    history = []
    for t in range(1, steps + 1):
        gs = _quadratic_grads(ws)
        ws = [update(w, g, state.setdefault(k, {}), t) for k, (w, g) in enumerate(zip(ws, gs))]
        history.append([w.copy() for w in ws])
    return history


def _sgd(lr, momentum=0.0, nesterov=False):
    def update(w, g, s, t):
        if momentum == 0.0:
            return w - lr * g
        m = momentum * s.get("m", 0.0) - lr * g
        s["m"] = m
        return w + (momentum * m - lr * g if nesterov else m)
    return update


def _adam(lr, b1=0.9, b2=0.999, eps=1e-7):
    def update(w, g, s, t):
        m = b1 * s.get("m", 0.0) + (1 - b1) * g
        v = b2 * s.get("v", 0.0) + (1 - b2) * g * g
        s["m"], s["v"] = m, v
        # Keras' form of the bias correction: eps is added to sqrt(v), not to sqrt(v_hat)
        alpha = lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        return w - m * alpha / (np.sqrt(v) + eps)
    return update


@pytest.mark.parametrize("make, ref", [
    (lambda: tf.keras.optimizers.SGD(learning_rate=0.1), _sgd(0.1)),
    (lambda: tf.keras.optimizers.SGD(0.05, momentum=0.9), _sgd(0.05, 0.9)),
    (lambda: tf.keras.optimizers.SGD(0.05, momentum=0.9, nesterov=True), _sgd(0.05, 0.9, True)),
    (lambda: tf.keras.optimizers.Adam(learning_rate=0.1), _adam(0.1)),
    (lambda: tf.keras.optimizers.Adam(0.01, beta_1=0.5, beta_2=0.9, epsilon=1e-3), _adam(0.01, 0.5, 0.9, 1e-3)),
])
def test_optimizer_steps_match_numpy(make, ref):
    opt = make()
    got = _run_minitape(opt, 6)
    want = _run_numpy(ref, {}, 6)
    for step_got, step_want in zip(got, want):
        for a, b in zip(step_got, step_want):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)
    assert opt.iterations == 6


def test_adam_first_step_moves_each_weight_by_the_learning_rate():
    w = tf.Variable([1.0, -3.0, 100.0])
    tf.keras.optimizers.Adam(learning_rate=0.1).apply_gradients([(tf.constant([2.0, -0.5, 1e-3]), w)])
    np.testing.assert_allclose(w.numpy(), [0.9, -2.9, 99.9], rtol=1e-4)


@pytest.mark.parametrize("make, ref", [
    (lambda: tf.keras.optimizers.SGD(0.05, momentum=0.9), _sgd(0.05, 0.9)),
    (lambda: tf.keras.optimizers.Adam(0.1), _adam(0.1)),
])
def test_optimizer_on_float32_variables_keeps_float32(make, ref):
    got = _run_minitape(make(), 5, dtype=np.float32)
    want = _run_numpy(ref, {}, 5)
    for a, b in zip(got[-1], want[-1]):
        assert a.dtype == np.float32
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_optimizer_skips_none_gradients_with_a_warning_and_rejects_all_none():
    a, b = tf.Variable(1.0, name="a"), tf.Variable(2.0, name="b")
    opt = tf.keras.optimizers.SGD(0.5)
    with pytest.warns(UserWarning, match="Gradients do not exist"):
        opt.apply_gradients([(tf.constant(1.0), a), (None, b)])
    assert float(a) == 0.5 and float(b) == 2.0
    with pytest.raises(ValueError, match="No gradients provided"):
        opt.apply_gradients([(None, a), (None, b)])
    with pytest.raises(TypeError, match="Variable"):
        opt.apply_gradients([(tf.constant(1.0), tf.constant(1.0))])


def test_optimizer_options_that_would_change_the_update_are_refused():
    with pytest.raises(NotImplementedError, match="amsgrad"):
        tf.keras.optimizers.Adam(amsgrad=True)
    with pytest.raises(NotImplementedError, match="clipnorm"):
        tf.keras.optimizers.SGD(clipnorm=1.0)
    with pytest.raises(ValueError, match="not recognized"):
        tf.keras.optimizers.SGD(0.1, momentun=0.9)
    with pytest.raises(ValueError, match="momentum"):
        tf.keras.optimizers.SGD(0.1, momentum=1.5)
    tf.keras.optimizers.Adam(amsgrad=False, jit_compile=True)  # harmless defaults accepted


def test_optimizer_updates_are_not_recorded():
    w = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = w * 2.0
        tf.keras.optimizers.SGD(0.1).apply_gradients([(tf.constant(1.0), w)])
    assert float(tape.gradient(y, w)) == 2.0


# ------------------------------------------------------------------------------------------
# random
# ------------------------------------------------------------------------------------------

def test_set_seed_makes_sequences_reproducible():
    def draw():
        return [tf.random.normal((2, 3)).numpy(), tf.random.uniform((4,)).numpy(),
                tf.random.normal((2,), seed=7).numpy(), tf.random.normal((2,), seed=7).numpy(),
                tf.random.uniform((3,), 0, 10, dtype=tf.int32).numpy()]
    tf.random.set_seed(42)
    a = draw()
    tf.random.set_seed(42)
    b = draw()
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    tf.random.set_seed(43)
    c = draw()
    assert not np.array_equal(a[0], c[0])
    # as in TensorFlow's eager mode: the same operation seed twice gives two different draws
    assert not np.array_equal(a[2], a[3])


def test_random_shapes_dtypes_and_ranges():
    tf.random.set_seed(1)
    n = tf.random.normal([1000], mean=2.0, stddev=0.5)
    assert n.shape == (1000,) and n.dtype == tf.float32
    assert abs(float(tf.reduce_mean(n)) - 2.0) < 0.1 and abs(float(tf.math.reduce_std(n)) - 0.5) < 0.1
    u = tf.random.uniform((10, 20), minval=-1.0, maxval=3.0, dtype=tf.float64)
    assert u.shape == (10, 20) and u.dtype == tf.float64
    assert float(tf.reduce_min(u)) >= -1.0 and float(tf.reduce_max(u)) < 3.0
    i = tf.random.uniform((500,), minval=2, maxval=5, dtype=tf.int32)
    assert i.dtype == tf.int32 and set(np.unique(i.numpy())) == {2, 3, 4}
    assert tf.random.normal(tf.constant([2, 2])).shape == (2, 2)
    assert tf.random.normal((), dtype=tf.float64).shape == ()
    t = tf.random.truncated_normal((2000,))
    assert float(tf.reduce_max(tf.abs(t))) <= 2.0


def test_random_errors():
    with pytest.raises(ValueError, match="maxval"):
        tf.random.uniform((2,), dtype=tf.int32)
    with pytest.raises(ValueError, match="floating"):
        tf.random.normal((2,), dtype=tf.int32)
    with pytest.raises(ValueError, match="minval < maxval"):
        tf.random.uniform((2,), 5, 5, dtype=tf.int64)


def test_random_values_are_constants_for_the_tape():
    tf.random.set_seed(3)
    w = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        noise = tf.random.normal(())
        y = w * noise
    assert float(tape.gradient(y, w)) == pytest.approx(float(noise))


def test_adam_matches_keras_3_to_the_last_digit():
    # Keras 3 computes the step size from float32 powers of the betas; recorded from TF 2.21
    opt = tf.keras.optimizers.Adam(learning_rate=0.5)
    v = tf.Variable(1.0)
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = (v - 4.0) ** 2
        opt.apply_gradients([(tape.gradient(loss, v), v)])
    assert v.numpy() == np.float32(2.4822814)


def test_keras_weights_repr_as_keras_3():
    layer = tf.keras.layers.Dense(2, kernel_initializer="zeros", name="dense")
    layer(tf.ones([1, 1]))
    assert repr(layer.bias) == "<Variable path=dense/bias, shape=(2,), dtype=float32, value=[0. 0.]>"
    assert repr(layer.kernel) == ("<Variable path=dense/kernel, shape=(1, 2), dtype=float32, "
                                  "value=[[0. 0.]]>")


def test_missing_gradients_warning_in_keras_3s_words():
    opt = tf.keras.optimizers.SGD(0.1)
    w, b = tf.Variable(1.0), tf.Variable(2.0, name="b")
    with pytest.warns(UserWarning) as rec:
        opt.apply_gradients([(tf.constant(1.0), w), (None, b)])
    assert str(rec[0].message) == ("Gradients do not exist for variables ['b:0'] when minimizing "
                                   "the loss. If using `model.compile()`, did you forget to provide "
                                   "a `loss` argument?")


def test_keras_set_random_seed_makes_initial_weights_reproducible():
    # Keras 3: tf.random.set_seed alone does not fix a layer's initial weights; this does
    # (lesson 6 seeds its MLP with it, and runs under TensorFlow too)
    def weights(seed):
        tf.keras.utils.set_random_seed(seed)
        layer = tf.keras.layers.Dense(3)
        layer(tf.ones((1, 4)))
        return layer.kernel.numpy()

    assert np.array_equal(weights(1), weights(1))
    assert not np.array_equal(weights(1), weights(2))
    import random
    tf.keras.utils.set_random_seed(7)
    first = (random.random(), np.random.rand())
    tf.keras.utils.set_random_seed(7)
    assert (random.random(), np.random.rand()) == first  # Python's and NumPy's too, as Keras 3
    for bad in (1.5, None, "1"):
        with pytest.raises(ValueError, match=r"Expected `seed` argument to be an integer"):
            tf.keras.utils.set_random_seed(bad)


def test_keras_trainable_weights_are_the_trainable_variables():
    # Keras 3 names them both ways; an answer may use either (l01_ex4, l06_ex4)
    model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="tanh"), tf.keras.layers.Dense(1)])
    model(tf.ones((2, 4)))
    assert [id(v) for v in model.trainable_weights] == [id(v) for v in model.trainable_variables]
    layer = model.layers[0]
    assert [v.name for v in layer.trainable_weights] == ["kernel", "bias"]
    assert layer.non_trainable_weights == []
