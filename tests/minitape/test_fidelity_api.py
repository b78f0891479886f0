"""API a course meets, as TensorFlow 2.21 / Keras 3 provide it (issue 15)."""
import io
import sys

import numpy as np
import pytest

import minitape as tf


def test_slice_assignment():
    v = tf.Variable([[1., 2.], [3., 4.]])
    r = v[0].assign([9., 8.])
    assert r is v
    v[1, 0].assign(7.)
    v[:, 1].assign_add(1.)
    v[1].assign_sub([1., 1.])
    np.testing.assert_array_equal(v.numpy(), [[9., 9.], [6., 4.]])
    with pytest.raises(tf.errors.InvalidArgumentError):
        v[0].assign([1., 2., 3.])


def test_variable_slices_are_tensors_on_the_tape():
    v = tf.Variable([[1., 2.], [3., 4.]])
    assert type(v[0]).__name__ == "EagerTensor" and isinstance(v[0], tf.Tensor)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v[0] * v[1])
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), [[3., 4.], [1., 2.]])
    rows = [r.numpy().tolist() for r in v]
    assert rows == [[1., 2.], [3., 4.]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="float tensor but is a int32"):
        v[0] + tf.constant([1, 1])
    assert tf.concat([v[0], v[1]], axis=0).numpy().tolist() == [1., 2., 3., 4.]
    assert (2.0 * v[1]).numpy().tolist() == [6., 8.]


def test_tf_print_output_stream(capsys, tmp_path):
    buf = io.StringIO()
    tf.print("x:", tf.constant([1, 2]), output_stream=buf)
    assert buf.getvalue() == "x: [1 2]\n"
    tf.print("to stdout", output_stream=sys.stdout)
    tf.print("to stderr", output_stream=sys.stderr)
    out = capsys.readouterr()
    assert out.out == "to stdout\n" and out.err == "to stderr\n"
    tf.print(tf.range(10), summarize=2, output_stream=buf)
    assert buf.getvalue().endswith("[0 1 ... 8 9]\n")
    path = tmp_path / "log.txt"
    tf.print("a", 1, sep=",", output_stream=f"file://{path}")
    assert path.read_text() == "a,1\n"


# tf.print's text as TensorFlow 2.21 (CPU) writes it, recorded from TF: each case's expected
# line(s) are TF's output for the same call.
TF_PRINT_CASES = [
    (lambda: tf.constant([1.5, 2.]), {}, "[1.5 2]"),
    (lambda: tf.constant(2.), {}, "2"),
    (lambda: tf.constant(0.1), {}, "0.1"),
    (lambda: tf.constant(0.123456789), {}, "0.123456791"),
    (lambda: tf.constant(1.0, dtype=tf.float64) / 3, {}, "0.33333333333333331"),
    (lambda: tf.constant(3.14159, dtype=tf.float16), {}, "3.140625"),
    (lambda: tf.constant([[1., 2.], [3., 4.5]]), {}, "[[1 2]\n [3 4.5]]"),
    (lambda: tf.constant([1e-8, 1e8]), {}, "[1e-08 1e+08]"),
    (lambda: tf.constant([True, False]), {}, "[1 0]"),
    (lambda: tf.Variable([1., 2.]), {}, "[1 2]"),
    (lambda: tf.constant([np.nan, np.inf, -0.0]), {}, "[nan inf -0]"),
    (lambda: tf.range(20), {}, "[0 1 2 ... 17 18 19]"),
    (lambda: tf.constant([1.5, 2., 3.]), {"summarize": 1}, "[1.5 ... 3]"),
    (lambda: tf.constant([1.5, 2.]), {"summarize": 1}, "[1.5 2]"),
    (lambda: tf.reshape(tf.range(8.), (2, 2, 2)), {}, "[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]"),
    (lambda: tf.reshape(tf.range(100), (10, 10)), {},
     "[[0 1 2 ... 7 8 9]\n [10 11 12 ... 17 18 19]\n [20 21 22 ... 27 28 29]\n ...\n"
     " [70 71 72 ... 77 78 79]\n [80 81 82 ... 87 88 89]\n [90 91 92 ... 97 98 99]]"),
    (lambda: [tf.constant(1.), 2.5], {}, "[1, 2.5]"),
    (lambda: {"a": tf.constant(1.)}, {}, "{'a': 1}"),
]


@pytest.mark.parametrize("make, kwargs, expected", TF_PRINT_CASES)
def test_tf_print_writes_tensorflows_text(make, kwargs, expected):
    buf = io.StringIO()
    tf.print(make(), output_stream=buf, **kwargs)
    assert buf.getvalue() == expected + "\n"


def test_tf_print_of_several_values():
    buf = io.StringIO()
    tf.print("loss:", tf.constant(0.123456789), "step", 3, output_stream=buf)
    assert buf.getvalue() == "loss: 0.123456791 step 3\n"
    tf.print(tf.reshape(tf.range(100), (10, 10)), summarize=-1, output_stream=buf)
    assert "[40 41 42 43 44 45 46 47 48 49]" in buf.getvalue()


def test_sequential_call_with_training():
    model = tf.keras.Sequential([tf.keras.layers.Dense(2), tf.keras.layers.Dense(1)])
    x = tf.ones((3, 4))
    a = model(x, training=False)
    b = model(x, training=True)
    assert a.shape == (3, 1)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert tf.keras.layers.Dense(2)(x, training=True).shape == (3, 2)


def test_sparse_categorical_crossentropy():
    logits = np.array([[1., 2., 0.5], [3., 1., 0.]], np.float32)
    labels = np.array([1, 0])
    ls = logits - logits.max(-1, keepdims=True)
    logp = ls - np.log(np.exp(ls).sum(-1, keepdims=True))
    want = -logp[np.arange(2), labels]
    loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    np.testing.assert_allclose(loss(labels, logits).numpy(), want.mean(), rtol=1e-6)
    probs = np.exp(logp).astype(np.float32)
    loss_p = tf.keras.losses.SparseCategoricalCrossentropy()
    np.testing.assert_allclose(loss_p(labels, probs).numpy(), want.mean(), rtol=1e-5)
    np.testing.assert_allclose(loss_p(labels.reshape(2, 1), probs).numpy(), want.mean(), rtol=1e-5)
    none = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
    np.testing.assert_allclose(none(labels, logits).numpy(), want, rtol=1e-6)
    w = tf.Variable(logits)
    with tf.GradientTape() as tape:
        value = loss(labels, w)
    g = tape.gradient(value, w).numpy()
    np.testing.assert_allclose(g, (np.exp(logp) - np.eye(3)[labels]) / 2, rtol=1e-5, atol=1e-7)


def test_metrics_mean_and_accuracy():
    m = tf.keras.metrics.Mean()
    assert m.name == "mean"
    m.update_state([1., 2.])
    m.update_state(6.)
    assert m.result().numpy() == pytest.approx(3.0) and m.result().dtype == tf.float32
    m.reset_state()
    assert m.result().numpy() == 0.0
    assert m(tf.constant([4., 2.]), sample_weight=[1., 0.]).numpy() == pytest.approx(4.0)
    acc = tf.keras.metrics.Accuracy()
    acc.update_state([1, 2, 3, 4], [1, 2, 0, 4])
    assert acc.result().numpy() == pytest.approx(0.75) and acc.name == "accuracy"
    sca = tf.keras.metrics.SparseCategoricalAccuracy()
    sca.update_state([[1], [0]], [[0.1, 0.9], [0.2, 0.8]])
    assert sca.result().numpy() == pytest.approx(0.5)
    np.testing.assert_array_equal(tf.keras.metrics.accuracy([1, 2], [1, 3]).numpy(), [1., 0.])


def test_batch_normalization():
    rng = np.random.default_rng(0)
    x = tf.constant(rng.normal(2.0, 3.0, size=(64, 3)).astype(np.float32))
    bn = tf.keras.layers.BatchNormalization()
    y0 = bn(x)  # inference: moving statistics start at mean 0, variance 1
    np.testing.assert_allclose(y0.numpy(), x.numpy() / np.sqrt(1 + 1e-3), rtol=1e-5)
    names = sorted(v.name for v in bn.variables)
    assert names == ["beta", "gamma", "moving_mean", "moving_variance"]
    assert sorted(v.name for v in bn.trainable_variables) == ["beta", "gamma"]
    with tf.GradientTape() as tape:
        y = bn(x, training=True)
        loss = tf.reduce_sum(y * tf.constant([1., 2., 3.]))
    xs = x.numpy()
    want = (xs - xs.mean(0)) / np.sqrt(xs.var(0) + 1e-3)
    np.testing.assert_allclose(y.numpy(), want, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(bn.moving_mean.numpy(), 0.01 * xs.mean(0), rtol=1e-4)
    np.testing.assert_allclose(bn.moving_variance.numpy(), 0.99 + 0.01 * xs.var(0), rtol=1e-4)
    grads = tape.gradient(loss, bn.trainable_variables)
    assert all(g is not None for g in grads)
    model = tf.keras.Sequential([tf.keras.layers.Dense(4), tf.keras.layers.BatchNormalization()])
    assert model(x, training=True).shape == (64, 4)
    assert len(model.trainable_variables) == 4


def test_variable_with_unknown_shape():
    v = tf.Variable(1., shape=tf.TensorShape(None))
    v.assign([1., 2., 3.])
    assert v.shape == tf.TensorShape(None) and str(v.shape) == "<unknown>"
    assert v.shape.rank is None
    np.testing.assert_array_equal(v.numpy(), [1., 2., 3.])
    w = tf.Variable([1., 2.], shape=[None])
    w.assign([5.])
    assert w.numpy().tolist() == [5.]
    with pytest.raises(ValueError):
        w.assign([[1.]])
    with pytest.raises(ValueError):
        tf.Variable([1., 2.]).assign([1., 2., 3.])


def test_tensor_shape_compares_with_lists():
    s = tf.constant([[1, 2, 3]]).shape
    assert s == [1, 3] and s == (1, 3) and not (s != [1, 3]) and s != [3, 1]
    assert s.as_list() == [1, 3] and hash(s) == hash((1, 3))
    assert repr(tf.TensorShape(None)) == "TensorShape(None)"


def test_watched_variables_include_integer_variables():
    with tf.GradientTape() as tape:
        a = tf.Variable(1)
        b = tf.Variable(2.)
        y = tf.cast(a, tf.float32) * b
    assert [id(v) for v in tape.watched_variables()] == [id(a), id(b)]  # as TF lists them
    grads = tape.gradient(y, [a, b])
    assert grads[0] is None and grads[1].numpy() == 1.0


def test_linspace_dtype_as_tf():
    # TF's linspace keeps the dtype of (stop - start) / (num - 1): truediv of the start's dtype
    assert tf.linspace(0.0, 1.0, 3).dtype == tf.float32
    assert tf.linspace(tf.constant(0.0, tf.float64), 1.0, 3).dtype == tf.float64
    t = tf.linspace(0, 1, 3)
    assert t.dtype == tf.float64 and t.numpy().tolist() == [0.0, 0.5, 1.0]
    assert tf.linspace(np.int16(0), np.int16(4), 3).dtype == tf.float32
