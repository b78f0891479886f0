"""Every example of TensorFlow's "Introduction to gradients and automatic differentiation"
guide (the seeds in shared/seeds), run with ``import minitape as tf``, with TensorFlow's
documented values, Nones and exceptions."""
import warnings

import numpy as np
import pytest

import minitape as tf


def test_computing_gradients_scalar():
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x**2
    dy_dx = tape.gradient(y, x)
    assert dy_dx.numpy() == 6.0
    assert dy_dx.dtype == tf.float32


def test_gradient_with_respect_to_list_and_dict_of_variables():
    tf.random.set_seed(0)
    w = tf.Variable(tf.random.normal((3, 2)), name='w')
    b = tf.Variable(tf.zeros(2, dtype=tf.float32), name='b')
    x = [[1., 2., 3.]]
    with tf.GradientTape(persistent=True) as tape:
        y = x @ w + b
        loss = tf.reduce_mean(y**2)
    [dl_dw, dl_db] = tape.gradient(loss, [w, b])
    assert w.shape == dl_dw.shape == (3, 2)
    assert str(w.shape) == "(3, 2)"
    # d mean(y^2)/dy = y (2 outputs: 2*y/2), dy/dw = x^T
    yv = np.array(x, np.float32) @ w.numpy() + b.numpy()
    np.testing.assert_allclose(dl_db.numpy(), yv[0], rtol=1e-6)
    np.testing.assert_allclose(dl_dw.numpy(), np.array(x).T @ yv, rtol=1e-6)
    my_vars = {'w': w, 'b': b}
    grad = tape.gradient(loss, my_vars)
    assert set(grad) == {'w', 'b'}
    np.testing.assert_allclose(grad['b'].numpy(), dl_db.numpy())


def test_gradient_with_respect_to_a_model():
    layer = tf.keras.layers.Dense(2, activation='relu')
    x = tf.constant([[1., 2., 3.]])
    with tf.GradientTape() as tape:
        y = layer(x)
        loss = tf.reduce_mean(y**2)
    grad = tape.gradient(loss, layer.trainable_variables)
    names = [(var.name, tuple(g.shape)) for var, g in zip(layer.trainable_variables, grad)]
    assert names == [("kernel", (3, 2)), ("bias", (2,))]  # TF 2.21 / Keras 3 names


def test_controlling_what_the_tape_watches():
    x0 = tf.Variable(3.0, name='x0')
    x1 = tf.Variable(3.0, name='x1', trainable=False)
    x2 = tf.Variable(2.0, name='x2') + 1.0      # a Variable plus a Tensor is a Tensor
    x3 = tf.constant(3.0, name='x3')
    with tf.GradientTape() as tape:
        y = (x0**2) + (x1**2) + (x2**2)
    grad = tape.gradient(y, [x0, x1, x2, x3])
    assert grad[0].numpy() == 6.0
    assert grad[1:] == [None, None, None]
    assert [var.name for var in tape.watched_variables()] == ['x0:0']


def test_watch_a_tensor():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x**2
    assert tape.gradient(y, x).numpy() == 6.0


def test_watch_accessed_variables_false():
    x0 = tf.Variable(0.0)
    x1 = tf.Variable(10.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(x1)
        y0 = tf.math.sin(x0)
        y1 = tf.nn.softplus(x1)
        y = y0 + y1
        ys = tf.reduce_sum(y)
    grad = tape.gradient(ys, {'x0': x0, 'x1': x1})
    assert grad['x0'] is None
    np.testing.assert_allclose(grad['x1'].numpy(), 0.9999546, rtol=1e-6)


def test_intermediate_results():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    assert tape.gradient(z, y).numpy() == 18.0


def test_persistent_tape():
    x = tf.constant([1, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    np.testing.assert_array_equal(tape.gradient(z, x).numpy(), [4.0, 108.0])
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [2.0, 6.0])
    del tape


def test_non_persistent_tape_second_call_raises():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    tape.gradient(z, x)
    with pytest.raises(RuntimeError, match="A non-persistent GradientTape can only be used to "
                                           r"compute one set of gradients \(or jacobians\)"):
        tape.gradient(y, x)


def test_gradient_of_non_scalar_targets_is_sum():
    x = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        y0 = x**2
        y1 = 1 / x
    assert tape.gradient(y0, x).numpy() == 4.0
    assert tape.gradient(y1, x).numpy() == -0.25
    with tf.GradientTape() as tape:
        y0 = x**2
        y1 = 1 / x
    assert tape.gradient({'y0': y0, 'y1': y1}, x).numpy() == 3.75
    with tf.GradientTape() as tape:
        y = x * [3., 4.]
    assert tape.gradient(y, x).numpy() == 7.0


def test_elementwise_gradient_of_sigmoid():
    x = tf.linspace(-10.0, 10.0, 200 + 1)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.sigmoid(x)
    dy_dx = tape.gradient(y, x)
    assert dy_dx.shape == (201,)
    s = 1 / (1 + np.exp(-np.linspace(-10, 10, 201)))
    np.testing.assert_allclose(dy_dx.numpy(), s * (1 - s), rtol=1e-5, atol=1e-7)
    assert dy_dx.numpy()[100] == pytest.approx(0.25)


def test_control_flow():
    x = tf.constant(1.0)
    v0 = tf.Variable(2.0)
    v1 = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        if x > 0.0:
            result = v0
        else:
            result = v1**2
    dv0, dv1 = tape.gradient(result, [v0, v1])
    assert dv0.numpy() == 1.0
    assert dv1 is None
    assert tape.gradient(result, x) is None


def test_none_unconnected():
    x = tf.Variable(2.)
    y = tf.Variable(3.)
    with tf.GradientTape() as tape:
        z = y * y
    assert tape.gradient(z, x) is None


def test_none_variable_replaced_by_tensor():
    x = tf.Variable(2.0)
    seen = []
    for epoch in range(2):
        with tf.GradientTape() as tape:
            y = x + 1
        seen.append((isinstance(x, tf.Variable), tape.gradient(y, x)))
        x = x + 1   # This should be `x.assign_add(1)`
    assert seen[0][0] is True and seen[0][1].numpy() == 1.0
    assert seen[1][0] is False and seen[1][1] is None


def test_none_calculation_outside_tensorflow():
    x = tf.Variable([[1.0, 2.0], [3.0, 4.0]], dtype=tf.float32)
    with tf.GradientTape() as tape:
        x2 = x**2
        y = np.mean(x2, axis=0)        # leaves the tape: a NumPy array
        y = tf.reduce_mean(y, axis=0)
    assert isinstance(np.mean(x2, axis=0), np.ndarray)
    assert tape.gradient(y, x) is None


def test_none_integer_gradients_warns():
    x = tf.constant(10)
    with pytest.warns(UserWarning, match="The dtype of the watched tensor must be floating"):
        with tf.GradientTape() as g:
            g.watch(x)
            y = x * x
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert g.gradient(y, x) is None
    # TF 2.21 logs integer targets and sources at verbosity 1 only: one warning in all
    assert [str(m.message) for m in w] == []


def test_none_stateful_assign():
    x0 = tf.Variable(3.0)
    x1 = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        x1.assign_add(x0)      # Update x1 = x1 + x0.
        y = x1**2              # The tape starts recording from x1.
    assert tape.gradient(y, x0) is None
    assert x1.numpy() == 3.0


def test_no_gradient_registered_raises_lookup_error():
    image = tf.Variable([[[0.5, 0.0, 0.0]]])
    delta = tf.Variable(0.1)
    with tf.GradientTape() as tape:
        new_image = tf.image.adjust_contrast(image, delta)
    with pytest.raises(LookupError) as e:
        tape.gradient(new_image, [image, delta])
    assert f'{type(e.value).__name__}: {e.value}' == \
        'LookupError: gradient registry has no entry for: AdjustContrastv2'


def test_zeros_instead_of_none():
    x = tf.Variable([2., 2.])
    y = tf.Variable(3.)
    with tf.GradientTape() as tape:
        z = y**2
    g = tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    np.testing.assert_array_equal(g.numpy(), [0., 0.])
    assert g.dtype == tf.float32


def test_printed_forms_match_tensorflow():
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x**2
    g = tape.gradient(y, x)
    assert str(g) == "tf.Tensor(6.0, shape=(), dtype=float32)"
    assert repr(g) == "<tf.Tensor: shape=(), dtype=float32, numpy=6.0>"
    assert repr(tf.Variable([1., 2.], name="v")) == \
        "<tf.Variable 'v:0' shape=(2,) dtype=float32, numpy=array([1., 2.], dtype=float32)>"
    assert str(tf.constant([1., 2.])) == "tf.Tensor([1. 2.], shape=(2,), dtype=float32)"


def test_course_activity_examples():
    """The Spanish course notebooks' own examples (x**2 at 3.0; 2-D tensors; dicts)."""
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x**2
    assert tape.gradient(y, x).numpy() == 6.0
    w = tf.Variable(tf.ones((3, 2)), name='w')
    b = tf.Variable(tf.zeros(2), name='b')
    with tf.GradientTape() as tape:
        y = tf.constant([[1., 2., 3.]]) @ w + b
        loss = tf.reduce_mean(y**2)
    g = tape.gradient(loss, {'w': w, 'b': b})
    np.testing.assert_allclose(g['b'].numpy(), [6., 6.])
    np.testing.assert_allclose(g['w'].numpy(), [[6., 6.], [12., 12.], [18., 18.]])
