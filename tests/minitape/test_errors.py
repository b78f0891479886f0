"""Error paths: TensorFlow's exception types and messages, and clear errors for bad input."""
import warnings

import numpy as np
import pytest

import minitape as tf


def test_reentering_an_active_tape_is_a_value_error():
    tape = tf.GradientTape()
    with tape:
        with pytest.raises(ValueError, match="Tape is still recording, This can happen if you try "
                                             "to re-enter an already-active tape."):
            with tape:
                pass


def test_second_gradient_of_non_persistent_tape():
    x = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="non-persistent GradientTape can only be used to compute "
                                           "one set of gradients"):
        tape.gradient(y, x)
    with pytest.raises(RuntimeError):
        tape.jacobian(y, x)


def test_gradient_inside_persistent_context_warns_and_records():
    x = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        y = x ** 3
        with pytest.warns(UserWarning, match="Calling GradientTape.gradient on a persistent tape "
                                             "inside its context is significantly less efficient"):
            g = tape.gradient(y, x)
    assert g.numpy() == 12.0
    # the gradient computation was recorded: differentiate it again with the same tape
    assert tape.gradient(g, x).numpy() == 12.0


def test_gradient_inside_non_persistent_context_is_silent():
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = x ** 2
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert tape.gradient(y, x).numpy() == 4.0


def test_mixing_dtypes_names_both():
    a = tf.constant(1.0)                       # float32
    b = tf.constant(1.0, dtype=tf.float64)
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        a + b
    msg = str(e.value)
    # TF names dtypes as its kernels do: float32 is "float", float64 "double"
    assert "a float tensor but is a double tensor" in msg and "[Op:AddV2]" in msg
    with pytest.raises(tf.errors.InvalidArgumentError, match="int32 tensor but is a float tensor"):
        tf.constant(1) * tf.constant(2.0)


def test_python_numbers_adapt_to_tensors():
    x = tf.constant(2.0, dtype=tf.float64)
    assert (x * 3).dtype == tf.float64
    assert (3 * x).dtype == tf.float64
    assert (tf.constant(2) + 1).dtype == tf.int32
    assert (tf.constant(2.0, dtype=tf.float16) ** 2).dtype == tf.float16
    with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int32"):
        tf.constant(2) * 1.5


def test_default_dtypes_like_tensorflow():
    assert tf.constant(1.0).dtype == tf.float32
    assert tf.constant(1).dtype == tf.int32
    assert tf.constant([1, 2.5]).dtype == tf.float32
    assert tf.constant(True).dtype == tf.bool
    assert tf.constant(np.array([1.0])).dtype == tf.float64
    assert tf.constant(np.array([1], dtype=np.int64)).dtype == tf.int64
    assert tf.Variable(3.0).dtype == tf.float32
    assert tf.constant(1, dtype=tf.float32).numpy() == 1.0
    with pytest.raises(TypeError):
        tf.constant(1.5, dtype=tf.int32)
    assert tf.cast(tf.constant(1.7), tf.int32).numpy() == 1


def test_stop_recording_on_idle_tape():
    tape = tf.GradientTape()
    with pytest.raises(RuntimeError, match="not recording"):  # as TF
        with tape.stop_recording():
            pass


def test_watch_rejects_non_tensors():
    with tf.GradientTape() as tape:
        with pytest.raises(ValueError, match="not tf.Tensor or tf.Variable"):
            tape.watch([1.0, 2.0])


def test_gradient_rejects_none_sources_and_bad_targets():
    x = tf.Variable(1.0)
    with tf.GradientTape(persistent=True) as tape:
        y = x * 2
    with pytest.raises(TypeError, match="None"):  # TF's class
        tape.gradient(y, [x, None])
    with pytest.raises(AttributeError, match="'str' object has no attribute '_id'"):
        tape.gradient("loss", x)  # TF's error reading the target's id
    with pytest.raises(TypeError, match="but received None"):
        tape.gradient(None, x)


def test_output_gradients_structure_must_match():
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        y = x * 2
    g = tape.gradient(y, x, output_gradients=tf.constant([1.0, 10.0]))
    np.testing.assert_array_equal(g.numpy(), [2.0, 20.0])
    with pytest.raises(ValueError, match="output_gradients"):
        tape.gradient([y, y], x, output_gradients=[tf.constant([1.0, 1.0])])


def test_shape_errors_are_clear():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Matrix size-incompatible: In\[0\]: \[2,3\], In\[1\]: \[2,3\] \[Op:MatMul\]"):
        tf.matmul(tf.ones((2, 3)), tf.ones((2, 3)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input to reshape is a tensor with 6 values"):
        tf.reshape(tf.ones((2, 3)), [4, 2])
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(ValueError, match="Shape mismatch"):
        v.assign([1.0, 2.0, 3.0])


def test_truth_value_of_non_scalar_is_ambiguous():
    with pytest.raises(ValueError, match="ambiguous"):
        bool(tf.constant([1.0, 2.0]) > 0)
    assert bool(tf.constant(1.0) > 0.0)
    assert float(tf.constant(2.5)) == 2.5


def test_tensors_are_unhashable_but_have_refs():
    t = tf.constant(1.0)
    with pytest.raises(TypeError):
        hash(t)
    d = {t.ref(): 1}
    assert d[t.ref()] == 1 and t.ref().deref() is t


def test_custom_gradient_wrong_number_of_gradients():
    @tf.custom_gradient
    def f(a, b):
        return a * b, lambda dy: dy     # one gradient for two inputs

    a, b = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = f(a, b)
    with pytest.raises(ValueError, match="expected to return 2 gradients"):
        tape.gradient(y, [a, b])


def _contrast(x, f):
    with tf.GradientTape() as tape:
        tape.watch([x, f])
        y = tf.reduce_sum(tf.image.adjust_contrast(x, f))
    return tape, y


def test_register_gradient_gives_an_operation_without_one_a_gradient_and_restores():
    """TensorFlow's registry: one entry per operation type; AdjustContrastv2 has none."""
    from minitape._custom import restore_gradient

    x = tf.constant([[[1.0, 2.0], [3.0, 5.0]]])
    f = tf.constant(2.0)
    tape, y = _contrast(x, f)
    with pytest.raises(LookupError, match="gradient registry has no entry for: AdjustContrastv2"):
        tape.gradient(y, x)

    @tf.RegisterGradient("AdjustContrastv2")
    def _contrast_grad(op, grad):  # d/dx of mean + f (x - mean), summed: f per element
        images, factor = op.inputs
        mean = tf.reduce_mean(images, axis=[-3, -2], keepdims=True)
        return grad * factor, tf.reduce_sum(grad * (images - mean))

    try:
        tape, y = _contrast(x, f)
        gx, gf = tape.gradient(y, [x, f])
        np.testing.assert_allclose(gx.numpy(), np.full((1, 2, 2), 2.0))
        assert float(gf) == pytest.approx(0.0, abs=1e-6)  # deviations from the mean sum to 0
    finally:
        restore_gradient("AdjustContrastv2")
    tape, y = _contrast(x, f)
    with pytest.raises(LookupError):
        tape.gradient(y, x)
    with pytest.raises(KeyError, match="no operation named 'NoSuchOp'"):
        tf.RegisterGradient("NoSuchOp")(lambda op, g: g)


@pytest.mark.parametrize("register", [lambda name: tf.RegisterGradient(name)(lambda op, g: g),
                                      tf.no_gradient], ids=["RegisterGradient", "no_gradient"])
def test_a_second_gradient_for_an_operation_type_raises_key_error_as_in_tensorflow(register):
    from minitape._custom import restore_gradient
    for name in ("Sin", "Mul", "Tanh"):  # built-in rules
        with pytest.raises(KeyError, match=f"Registering two gradient with name '{name}'"):
            register(name)
    x = tf.constant(0.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sin(x)
    assert float(tape.gradient(y, x)) == pytest.approx(np.cos(0.5))  # rule untouched
    register("AdjustContrastv2")
    try:
        with pytest.raises(KeyError, match="restore_gradient"):
            register("AdjustContrastv2")  # over an earlier registration of one's own
    finally:
        restore_gradient("AdjustContrastv2")


def test_no_gradient_declaration_gives_none_as_in_tensorflow():
    from minitape._custom import restore_gradient
    x = tf.constant([[[1.0, 2.0], [3.0, 5.0]]])
    f = tf.constant(2.0)
    tf.no_gradient("AdjustContrastv2")
    try:
        tape, y = _contrast(x, f)
        assert tape.gradient(y, [x, f]) == [None, None]
        tape, y = _contrast(x, f)
        assert tape.gradient(y, x, unconnected_gradients="zero").numpy().tolist() == [[[0, 0], [0, 0]]]
    finally:
        restore_gradient("AdjustContrastv2")


def test_non_differentiable_ops_give_none():
    x = tf.constant([0.3, 1.7, -2.2])
    for fn in (tf.math.floor, tf.math.ceil, tf.round, lambda t: tf.cast(tf.argmax(t), tf.float32),
               lambda t: tf.cast(t > 0, tf.float32), lambda t: tf.cast(tf.cast(t, tf.int32), tf.float32)):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        assert tape.gradient(y, x) is None
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sign(x)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [0., 0., 0.])


def test_long_chain_has_no_recursion_limit():
    x = tf.constant(1.0, dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(100_000):
            y = y * 1.0
    assert tape.gradient(y, x).numpy() == 1.0
