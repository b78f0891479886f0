"""Every example of TensorFlow's "Advanced automatic differentiation" guide, the older
(Russian) version of the introduction, the Spanish course notebook, and the docstring examples
of tf.autodiff.ForwardAccumulator, run with ``import minitape as tf``."""
import warnings
import numpy as np
import pytest

import minitape as tf


def test_stop_recording():
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as t:
        x_sq = x * x
        with t.stop_recording():
            y_sq = y * y
        z = x_sq + y_sq
    grad = t.gradient(z, {'x': x, 'y': y})
    assert grad['x'].numpy() == 4.0
    assert grad['y'] is None


@pytest.mark.parametrize("reset", [True, False])
def test_reset(reset):
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as t:
        y_sq = y * y
        if reset:
            t.reset()       # throw out all the tape recorded so far
        z = x * x + y_sq
    grad = t.gradient(z, {'x': x, 'y': y})
    assert grad['x'].numpy() == 4.0
    if reset:
        assert grad['y'] is None
    else:
        assert grad['y'].numpy() == 6.0


def test_stop_gradient():
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as t:
        y_sq = y**2
        z = x**2 + tf.stop_gradient(y_sq)
    grad = t.gradient(z, {'x': x, 'y': y})
    assert grad['x'].numpy() == 4.0
    assert grad['y'] is None


def test_custom_gradient_clips_gradient():
    @tf.custom_gradient
    def clip_gradients(y):
        def backward(dy):
            return tf.clip_by_norm(dy, 0.5)
        return y, backward

    v = tf.Variable(2.0)
    with tf.GradientTape() as t:
        output = clip_gradients(v * v)
    assert t.gradient(output, v).numpy() == 2.0   # calls "backward", which clips 4 to 2


def test_custom_gradient_log1pexp_numerically_stable():
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)
        def grad(upstream):
            return upstream * (1 - 1 / (1 + e))
        return tf.math.log(1 + e), grad

    x = tf.constant(100.)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    assert tape.gradient(y, x).numpy() == 1.0


def test_custom_gradient_with_variables_keyword():
    w = tf.Variable(3.0)

    @tf.custom_gradient
    def scale(x):
        def grad(dy, variables=None):
            return dy * w, [dy * x * 10.0]   # deliberately 10x for the variable
        return x * w, grad

    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = scale(x)
    dx, dw = tape.gradient(y, [x, w])
    assert dx.numpy() == 3.0
    assert dw.numpy() == 20.0


def test_custom_gradient_using_variables_needs_keyword():
    w = tf.Variable(3.0)

    @tf.custom_gradient
    def scale(x):
        return x * w, lambda dy: dy * w

    with tf.GradientTape() as tape:
        with pytest.raises(TypeError, match="grad_fn must accept a keyword argument 'variables'"):
            scale(tf.constant(2.0))


def test_multiple_tapes():
    x0 = tf.constant(0.0)
    x1 = tf.constant(0.0)
    with tf.GradientTape() as tape0, tf.GradientTape() as tape1:
        tape0.watch(x0)
        tape1.watch(x1)
        y0 = tf.math.sin(x0)
        y1 = tf.nn.sigmoid(x1)
        y = y0 + y1
        ys = tf.reduce_sum(y)
    assert tape0.gradient(ys, x0).numpy() == 1.0     # cos(x) => 1.0
    assert tape1.gradient(ys, x1).numpy() == 0.25    # sigmoid(x1)*(1-sigmoid(x1)) => 0.25


def test_higher_order_gradients():
    x = tf.Variable(1.0)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = x * x * x
        dy_dx = t1.gradient(y, x)
    d2y_dx2 = t2.gradient(dy_dx, x)
    assert dy_dx.numpy() == 3.0
    assert d2y_dx2.numpy() == 6.0


def test_third_and_fourth_order_by_nesting():
    x = tf.Variable(0.5, dtype=tf.float64)
    with tf.GradientTape() as t4:
        with tf.GradientTape() as t3:
            with tf.GradientTape() as t2:
                with tf.GradientTape() as t1:
                    y = tf.sin(x) * tf.exp(x)
                d1 = t1.gradient(y, x)
            d2 = t2.gradient(d1, x)
        d3 = t3.gradient(d2, x)
    d4 = t4.gradient(d3, x)
    xv = 0.5
    # (sin x e^x)'''' = -4 sin x e^x
    np.testing.assert_allclose(d4.numpy(), -4 * np.sin(xv) * np.exp(xv), rtol=1e-12)
    np.testing.assert_allclose(d3.numpy(), 2 * np.exp(xv) * (np.cos(xv) - np.sin(xv)), rtol=1e-12)


def test_input_gradient_regularization():
    x = tf.random.normal([7, 5])
    layer = tf.keras.layers.Dense(10, activation=tf.nn.relu)
    with tf.GradientTape() as t2:
        # The inner tape only takes the gradient with respect to the input, not the variables.
        with tf.GradientTape(watch_accessed_variables=False) as t1:
            t1.watch(x)
            y = layer(x)
            out = tf.reduce_sum(layer(x)**2)
        g1 = t1.gradient(out, x)
        g1_mag = tf.norm(g1)
    dg1_mag = t2.gradient(g1_mag, layer.trainable_variables)
    assert [var.shape for var in dg1_mag] == [tf.TensorShape([5, 10]), tf.TensorShape([10])]
    assert repr([var.shape for var in dg1_mag]) == "[TensorShape([5, 10]), TensorShape([10])]"


def test_jacobian_scalar_source():
    x = tf.linspace(-10.0, 10.0, 200 + 1)
    delta = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        y = tf.nn.sigmoid(x + delta)
    dy_dx = tape.jacobian(y, delta)
    assert y.shape == (201,)
    assert dy_dx.shape == (201,)
    s = 1 / (1 + np.exp(-np.linspace(-10, 10, 201)))
    np.testing.assert_allclose(dy_dx.numpy(), s * (1 - s), rtol=1e-5, atol=1e-7)


def test_jacobian_tensor_source():
    x = tf.random.normal([7, 5])
    layer = tf.keras.layers.Dense(10, activation=tf.nn.relu)
    with tf.GradientTape(persistent=True) as tape:
        y = layer(x)
    assert y.shape == (7, 10) and layer.kernel.shape == (5, 10)
    j = tape.jacobian(y, layer.kernel)
    assert j.shape == (7, 10, 5, 10)
    g = tape.gradient(y, layer.kernel)
    j_sum = tf.reduce_sum(j, axis=[0, 1])
    delta = tf.reduce_max(abs(g - j_sum)).numpy()
    assert delta < 1e-3


def test_hessian_and_newton_step():
    x = tf.random.normal([7, 5])
    layer1 = tf.keras.layers.Dense(8, activation=tf.nn.relu)
    layer2 = tf.keras.layers.Dense(6, activation=tf.nn.relu)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            x = layer1(x)
            x = layer2(x)
            loss = tf.reduce_mean(x**2)
        g = t1.gradient(loss, layer1.kernel)
    h = t2.jacobian(g, layer1.kernel)
    assert layer1.kernel.shape == (5, 8)
    assert h.shape == (5, 8, 5, 8)
    n_params = tf.reduce_prod(layer1.kernel.shape)
    g_vec = tf.reshape(g, [n_params, 1])
    h_mat = tf.reshape(h, [n_params, n_params])
    # The Hessian of a sum of squares is symmetric.
    np.testing.assert_allclose(h_mat.numpy(), h_mat.numpy().T, atol=1e-5)
    eps = 1e-3
    eye_eps = tf.eye(h_mat.shape[0]) * eps
    update = tf.linalg.solve(h_mat + eye_eps, g_vec)
    before = layer1.kernel.numpy()
    _ = layer1.kernel.assign_sub(tf.reshape(update, layer1.kernel.shape))
    np.testing.assert_allclose(layer1.kernel.numpy(), before - update.numpy().reshape(5, 8), rtol=1e-6)
    np.testing.assert_allclose((h_mat.numpy() + eps * np.eye(40)) @ update.numpy(), g_vec.numpy(),
                               atol=1e-4)


def test_newton_step_exact_on_quadratic():
    """One Newton step solves a quadratic exactly (Hessian via nested tapes)."""
    A = tf.constant([[3., 1.], [1., 2.]], dtype=tf.float64)
    b = tf.constant([1., -1.], dtype=tf.float64)
    x = tf.Variable([5., 5.], dtype=tf.float64)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            f = 0.5 * tf.reduce_sum(x * tf.linalg.matvec(A, x)) - tf.reduce_sum(b * x)
        g = t1.gradient(f, x)
    h = t2.jacobian(g, x)
    np.testing.assert_allclose(h.numpy(), A.numpy())
    x.assign_sub(tf.reshape(tf.linalg.solve(h, tf.reshape(g, [2, 1])), [2]))
    np.testing.assert_allclose(x.numpy(), np.linalg.solve(A.numpy(), b.numpy()), rtol=1e-12)


def test_batch_jacobian():
    x = tf.random.normal([7, 5])
    layer1 = tf.keras.layers.Dense(8, activation=tf.nn.elu)
    layer2 = tf.keras.layers.Dense(6, activation=tf.nn.elu)
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(x)
        y = layer1(x)
        y = layer2(y)
    assert y.shape == (7, 6)
    j = tape.jacobian(y, x)
    assert j.shape == (7, 6, 7, 5)
    j_sum = tf.reduce_sum(j, axis=2)
    assert j_sum.shape == (7, 6, 5)
    j_select = tf.einsum('bxby->bxy', j)
    assert j_select.shape == (7, 6, 5)
    jb = tape.batch_jacobian(y, x)
    assert jb.shape == (7, 6, 5)
    error = tf.reduce_max(abs(jb - j_sum))
    assert error < 1e-3


def test_batch_jacobian_first_dimension_must_match():
    x = tf.random.normal([7, 5])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.reduce_sum(x, axis=0)    # shape (5,): batch dimension gone
    with pytest.raises(ValueError, match="first dimension"):
        tape.batch_jacobian(tf.reshape(y, [5, 1]), x)


def test_forward_accumulator_jvp():
    x = tf.constant([[2.0, 3.0], [1.0, 4.0]])
    targets = tf.constant([[1.], [-1.]])
    dense = tf.keras.layers.Dense(1)
    dense.build([None, 2])
    with tf.autodiff.ForwardAccumulator(
            primals=dense.kernel, tangents=tf.constant([[1.], [0.]])) as acc:
        loss = tf.reduce_sum((dense(x) - targets) ** 2.)
    with tf.GradientTape() as tape:
        loss2 = tf.reduce_sum((dense(x) - targets) ** 2.)
    g = tape.gradient(loss2, dense.kernel)
    np.testing.assert_allclose(acc.jvp(loss).numpy(), g.numpy()[0, 0], rtol=1e-5)


def test_forward_over_backward_hessian_vector_product():
    v = tf.Variable([1., 2.])
    with tf.autodiff.ForwardAccumulator(v, tf.constant([1., 0.])) as acc:
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(v ** 3.)
        backward = tape.gradient(y, v)
    np.testing.assert_array_equal(backward.numpy(), [3., 12.])   # gradient from backprop
    np.testing.assert_array_equal(acc.jvp(backward).numpy(), [6., 0.])  # Hessian-vector product


def test_backward_over_forward():
    x = tf.constant([1., 2.])
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tf.autodiff.ForwardAccumulator(x, tf.constant([1., 0.])) as acc:
            y = tf.reduce_sum(x ** 3.)
        jvp = acc.jvp(y)
    np.testing.assert_array_equal(jvp.numpy(), 3.0)
    np.testing.assert_array_equal(tape.gradient(jvp, x).numpy(), [6., 0.])


# --- the older version of the introduction (Russian seed) and the Spanish course notebook ----

def test_gradient_of_intermediate_and_ones():
    x = tf.ones((2, 2))
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = tf.reduce_sum(x)
        z = tf.multiply(y, y)
    dz_dx = t.gradient(z, x)
    for i in [0, 1]:
        for j in [0, 1]:
            assert dz_dx[i][j].numpy() == 8.0
    assert t.gradient(z, y).numpy() == 8.0


def test_control_flow_loop():
    def f(x, y):
        output = 1.0
        for i in range(y):
            if i > 1 and i < 5:
                output = tf.multiply(output, x)
        return output

    def grad(x, y):
        with tf.GradientTape() as t:
            t.watch(x)
            out = f(x, y)
        return t.gradient(out, x)

    x = tf.convert_to_tensor(2.0)
    assert grad(x, 6).numpy() == 12.0
    assert grad(x, 5).numpy() == 12.0
    assert grad(x, 4).numpy() == 4.0


def test_integer_variable_created_inside_tape_gives_none():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning in TF 2.21
        with tf.GradientTape() as tape:
            x = tf.Variable([[2, 2], [2, 2]], dtype=tf.int8)
            y = x * x
        assert tape.gradient(y, x) is None


def test_unconnected_variable_target():
    x = tf.Variable(2.)
    y = tf.Variable(3.)
    with tf.GradientTape(persistent=True) as tape:
        z = y * y
    assert tape.gradient(x, y) is None
    assert tape.gradient(x, y, unconnected_gradients=tf.UnconnectedGradients.ZERO).numpy() == 0.0


def test_watch_only_some_variables():
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape(watch_accessed_variables=False, persistent=True) as t:
        t.watch(y)
        y_sq = y * y
        z = x + y_sq
    assert t.gradient(z, x) is None
    assert t.gradient(z, y).numpy() == 6.0
    del t


def test_intermediate_gradient_inside_stop_recording_then_reset():
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape(persistent=True) as t:
        y_sq = y * y
        with t.stop_recording():
            assert t.gradient(y_sq, y).numpy() == 6.0
        z = x + y_sq
        t.reset()
    assert t.gradient(z, y) is None


def test_user_gradient_functions_run_once_per_operation_as_in_tensorflow():
    """A two-output custom_gradient's grad_fn and a RegisterGradient function are each called
    once per operation in a backward pass (not once per input or per output), with one
    gradient per output (zeros for an output the target does not depend on)."""
    from minitape._custom import restore_gradient

    calls = []

    @tf.custom_gradient
    def two(x, y):
        def grad_fn(d_sum, d_prod):
            calls.append(("custom", float(d_sum), float(d_prod)))
            return d_sum + d_prod * y, d_sum + d_prod * x
        return (x + y, x * y), grad_fn

    x, y = tf.constant(2.0), tf.constant(5.0)
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        s, p = two(x, y)
        loss = s * 3.0 + p
    gx, gy = tape.gradient(loss, [x, y])
    assert calls == [("custom", 3.0, 1.0)]
    assert (float(gx), float(gy)) == (3.0 + 5.0, 3.0 + 2.0)

    calls.clear()
    with tf.GradientTape() as tape:
        tape.watch(x)
        s, _ = two(x, y)
    assert float(tape.gradient(s, x)) == 1.0
    assert calls == [("custom", 1.0, 0.0)]  # the unused output's gradient is zeros

    @tf.RegisterGradient("AdjustContrastv2")  # two inputs, and no gradient of its own
    def _contrast_grad(op, grad):
        calls.append(("registered", op.type))
        images, factor = op.inputs
        mean = tf.reduce_mean(images, axis=[-3, -2], keepdims=True)
        return grad * factor, tf.reduce_sum(grad * (images - mean))

    try:
        calls.clear()
        images = tf.constant([[[1.0], [4.0]]])
        with tf.GradientTape() as tape:
            tape.watch([images, x])
            z = tf.reduce_sum(tf.image.adjust_contrast(images, x) ** 2)
        gi, gx = tape.gradient(z, [images, x])
        assert calls == [("registered", "AdjustContrastv2")]
        # out = mean + x (images - mean) = [-0.5, 5.5]; dz/dout = 2 out
        assert gi.numpy().ravel().tolist() == [-2.0, 22.0]
        assert float(gx) == (-1.0) * (-1.5) + 11.0 * 1.5
    finally:
        restore_gradient("AdjustContrastv2")
