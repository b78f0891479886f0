"""Gradients as TensorFlow 2.21 computes them (issue 15): the rectifiers' gradient ops stay
connected to their activation (higher derivatives are zeros, not None), values at the kinks
follow TF's *Grad kernels, batch_jacobian of an unconnected target is zeros, and the softmax
cross-entropy gradient is TF's softmax - labels."""
import numpy as np
import pytest

import minitape as tf

X = [-1.0, 0.0, 2.0, 6.0, 7.0]
ALPHA, SCALE = 1.6732632423543772, 1.0507009873554805

ACTIVATIONS = {
    "relu": tf.nn.relu,
    "leaky_relu": lambda x: tf.nn.leaky_relu(x, alpha=0.2),
    "relu6": tf.nn.relu6,
    "elu": tf.nn.elu,
    "selu": tf.nn.selu,
}

# TF's kernels: ReluGrad (x > 0), LeakyReluGrad (x > 0 ? 1 : alpha), Relu6Grad (0 < y < 6),
# EluGrad (y < 0 ? y + 1 : 1), SeluGrad (y < 0 ? y + scale*alpha : scale)
FIRST = {
    "relu": [0, 0, 1, 1, 1],
    "leaky_relu": [0.2, 0.2, 1, 1, 1],
    "relu6": [0, 0, 1, 0, 0],
    "elu": [np.exp(-1), 1, 1, 1, 1],
    "selu": [SCALE * ALPHA * np.exp(-1), SCALE, SCALE, SCALE, SCALE],
}
# EluGradGrad / SeluGradGrad: where(y < 0, ...) -> 0 at x = 0
SECOND = {
    "relu": [0] * 5, "leaky_relu": [0] * 5, "relu6": [0] * 5,
    "elu": [np.exp(-1), 0, 0, 0, 0],
    "selu": [SCALE * ALPHA * np.exp(-1), 0, 0, 0, 0],
}


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_first_and_second_derivative_with_nested_tapes(name):
    f = ACTIVATIONS[name]
    x = tf.Variable(X)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = f(x)
        d1 = inner.gradient(y, x)
    d2 = outer.gradient(d1, x)
    np.testing.assert_allclose(d1.numpy(), FIRST[name], rtol=1e-6)
    assert d2 is not None, f"{name}'' must be zeros as in TF, not None"
    np.testing.assert_allclose(d2.numpy(), SECOND[name], rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", ["relu", "relu6", "elu", "selu"])
def test_third_derivative_connected(name):
    # ReluGrad's rule sends zeros through Relu's gradient again, so TF stays connected
    f = ACTIVATIONS[name]
    x = tf.Variable(X)
    with tf.GradientTape() as t3:
        with tf.GradientTape() as t2:
            with tf.GradientTape() as t1:
                y = f(x)
            d1 = t1.gradient(y, x)
        d2 = t2.gradient(d1, x)
    d3 = t3.gradient(d2, x)
    assert d3 is not None and d3.shape == (5,)


def test_leaky_relu_third_derivative_is_none_as_tf():
    # LeakyReluGradGrad gives zeros_like(x) straight to x: nothing left to differentiate
    x = tf.Variable(X)
    with tf.GradientTape() as t3:
        with tf.GradientTape() as t2:
            with tf.GradientTape() as t1:
                y = tf.nn.leaky_relu(x)
            d1 = t1.gradient(y, x)
        d2 = t2.gradient(d1, x)
    assert t3.gradient(d2, x) is None


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_hessian_with_jacobian(name):
    x = tf.Variable(X)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = tf.reduce_sum(ACTIVATIONS[name](x))
        g = inner.gradient(y, x)
    h = outer.jacobian(g, x)
    assert h is not None and h.shape == (5, 5)
    np.testing.assert_allclose(np.diag(h.numpy()), SECOND[name], rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_persistent_tape_second_derivative(name):
    x = tf.Variable(X)
    with tf.GradientTape(persistent=True) as tape:
        y = ACTIVATIONS[name](x)
        with pytest.warns(UserWarning, match="persistent tape inside its context"):
            d1 = tape.gradient(y, x)
    d2 = tape.gradient(d1, x)
    assert d2 is not None
    np.testing.assert_allclose(d2.numpy(), SECOND[name], rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_forward_over_backward(name):
    x = tf.Variable(X)
    with tf.autodiff.ForwardAccumulator(x, tf.ones(5)) as acc:
        with tf.GradientTape() as tape:
            y = ACTIVATIONS[name](x)
        g = tape.gradient(y, x)
    hvp = acc.jvp(g)
    assert hvp is not None
    np.testing.assert_allclose(hvp.numpy(), SECOND[name], rtol=1e-6, atol=1e-7)


def test_batch_jacobian_of_unconnected_target_is_zeros():
    x = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
    z = tf.constant([[1., 1., 1.]] * 3)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = z * 2.0
    j = tape.batch_jacobian(y, x)
    assert j is not None and j.shape == (3, 3, 2) and j.dtype == tf.float32
    assert not j.numpy().any()


def test_batch_jacobian_connected_unchanged():
    x = tf.constant([[1., 2.], [3., 4.]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    np.testing.assert_array_equal(tape.batch_jacobian(y, x).numpy(),
                                  [[[2, 0], [0, 4]], [[6, 0], [0, 8]]])


def _softmax(v):
    e = np.exp(v - v.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_softmax_cross_entropy_gradient_is_softmax_minus_labels():
    logits = np.array([[1., 2., 3.], [0., 0., 1.]], np.float32)
    labels = np.array([[0.5, 0.5, 0.5], [2., 0., 0.]], np.float32)  # rows sum to 1.5 and 2
    lo = tf.Variable(logits)
    la = tf.constant(labels)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(la)
        loss = tf.nn.softmax_cross_entropy_with_logits(labels=la, logits=lo)
    sm = _softmax(logits)
    np.testing.assert_allclose(loss.numpy(), -(labels * np.log(sm)).sum(-1), rtol=1e-6)
    # TF's value (not the true derivative sum(labels) * softmax - labels)
    np.testing.assert_allclose(tape.gradient(loss, lo).numpy(), sm - labels, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(tape.gradient(loss, la).numpy(), -np.log(sm), rtol=1e-5)


def test_softmax_cross_entropy_axis_and_second_derivative():
    logits = np.array([[1., 0.], [2., 0.5], [3., 1.]], np.float32)  # classes along axis 0
    labels = np.array([[0.2, 0.], [0.3, 1.], [0.5, 0.]], np.float32)
    lo = tf.Variable(logits)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            loss = tf.reduce_sum(tf.nn.softmax_cross_entropy_with_logits(labels, lo, axis=0))
        g = inner.gradient(loss, lo)
        picked = tf.reduce_sum(g[:, 0] * tf.constant([1., 0., 0.]))
    sm = _softmax(logits.T).T
    np.testing.assert_allclose(g.numpy(), sm - labels, rtol=1e-5, atol=1e-7)
    gg = outer.gradient(picked, lo)
    s = sm[:, 0]
    np.testing.assert_allclose(gg.numpy()[:, 0], s[0] * ((np.arange(3) == 0) - s), rtol=1e-5,
                               atol=1e-7)
    assert not gg.numpy()[:, 1].any()


def test_leaky_relu_alpha_is_a_float32_attribute_as_in_tf():
    # TF scales a float64 tensor by float32(alpha): leaky_relu(-1.0) is -0.20000000298023224
    x = tf.Variable([-1.0, 2.0], dtype=tf.float64)
    with tf.GradientTape() as tape:
        y = tf.nn.leaky_relu(x)
    assert y.numpy()[0] == -float(np.float32(0.2))
    assert tape.gradient(y, x).numpy()[0] == float(np.float32(0.2))
    assert tf.nn.leaky_relu(tf.constant(-1.0, tf.float64), alpha=0.3).numpy() == -float(np.float32(0.3))


def test_gelu_digits_as_tf_in_float64():
    # TF 2.21 writes gelu with erfc and casts 1/sqrt(2) from float32: its float64 gradient at
    # -0.417 is 0.1858333231466363 (recorded), 1.7e-8 from the exact 0.18583331838043715
    x = tf.constant([1.425, -0.417, -0.786, 0.229], dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.gelu(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(),
                               [1.1288801811660554, 0.1858333231466363, -0.01430579420858646,
                                0.6795590066656845], rtol=1e-14)
    # erfc keeps its digits where 1 + erf cancels
    assert tf.nn.gelu(tf.constant(-6.0)).numpy() < 0
