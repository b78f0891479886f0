"""Exceptions and messages as TensorFlow 2.21 raises them (issue 15)."""
import numpy as np
import pytest

import minitape as tf
from minitape.errors import InvalidArgumentError


def test_invalid_argument_error_is_not_a_value_error():
    assert not issubclass(InvalidArgumentError, ValueError)
    assert issubclass(InvalidArgumentError, tf.errors.OpError)
    with pytest.raises(InvalidArgumentError):
        try:
            tf.constant([1., 2.]) + tf.constant([1., 2., 3.])
        except ValueError:  # TF's does not catch it either
            pytest.fail("caught as ValueError")


@pytest.mark.parametrize("op, name", [(lambda a, b: a + b, "AddV2"), (tf.multiply, "Mul"),
                                      (tf.subtract, "Sub"), (tf.divide, "RealDiv"),
                                      (tf.maximum, "Maximum")])
def test_broadcast_mismatch(op, name):
    with pytest.raises(InvalidArgumentError) as e:
        op(tf.constant([1., 2.]), tf.constant([1., 2., 3.]))
    assert str(e.value) == f"Incompatible shapes: [2] vs. [3] [Op:{name}]"


def test_broadcast_mismatch_2d_and_while_recording():
    x = tf.Variable(tf.ones((2, 3)))
    with tf.GradientTape():
        with pytest.raises(InvalidArgumentError, match=r"Incompatible shapes: \[2,3\] vs\. \[4,3\]"):
            x * tf.ones((4, 3))


def test_output_gradients_of_the_wrong_shape():
    x = tf.constant([1., 2.])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    with pytest.raises(InvalidArgumentError, match=r"Incompatible shapes: \[3\] vs\. \[2\]"):
        tape.gradient(y, x, output_gradients=tf.constant([1., 2., 3.]))


def test_assign_add_and_apply_gradients_need_the_same_shape():
    v = tf.Variable([1., 2.])
    with pytest.raises(InvalidArgumentError) as e:
        v.assign_add([1., 2., 3.])
    assert str(e.value) == ("Cannot update variable with shape [2] using a Tensor with shape [3], "
                            "shapes must be equal. [Op:AssignAddVariableOp]")
    with pytest.raises(InvalidArgumentError, match=r"shape \[\].*\[Op:AssignSubVariableOp\]"):
        v.assign_sub(1.0)  # no broadcasting in TF's kernel
    with pytest.raises(InvalidArgumentError, match="Cannot update variable with shape"):
        tf.keras.optimizers.SGD(0.1).apply_gradients([(tf.constant([1., 2., 3.]), v)])
    np.testing.assert_array_equal(v.numpy(), [1., 2.])


def test_index_errors():
    t = tf.constant([1., 2., 3.])
    with pytest.raises(InvalidArgumentError, match=r"slice index 5 of dimension 0 out of bounds\."):
        t[5]
    with pytest.raises(InvalidArgumentError, match=r"slice index -4 of dimension 0 out of bounds\."):
        t[-4]
    m = tf.ones((2, 3))
    with pytest.raises(InvalidArgumentError, match="slice index 3 of dimension 1 out of bounds"):
        m[0, 3]
    for bad in (1.0, np.float32(1.0), tf.constant(1.0)):
        with pytest.raises(TypeError, match=r"Only integers, slices \(`:`\), ellipsis"):
            t[bad]
    assert t[tf.constant(1)].numpy() == 2.0 and t[-1].numpy() == 3.0


def test_reduction_over_a_missing_axis_raises():
    t = tf.constant([1., 2., 3.])
    with pytest.raises(InvalidArgumentError) as e:
        tf.reduce_sum(t, axis=2)
    # TF 2.21's kernel text, unbalanced parenthesis included (checked against TF 2.21 CPU)
    assert str(e.value) == "Invalid reduction dimension (2 for input with 1 dimension(s) [Op:Sum]"
    with pytest.raises(InvalidArgumentError, match=r"dimension \(-2 for input with 1 dimension\(s\) \[Op:Mean\]"):
        tf.reduce_mean(t, axis=-2)
    with pytest.raises(InvalidArgumentError, match=r"\[Op:Max\]"):
        tf.reduce_max(tf.ones((2, 2)), axis=[0, 2])
    assert tf.reduce_sum(t, axis=-1).numpy() == 6.0


def test_dtypes_kernels_refuse():
    with pytest.raises(InvalidArgumentError, match="Value for attr 'T' of int32 is not in the list"):
        tf.nn.softmax(tf.constant([1, 2]))
    with pytest.raises(InvalidArgumentError, match=r"(?s)of bool is not in the list.*\[Op:AddV2\]"):
        tf.constant([True]) + tf.constant([False])
    with pytest.raises(InvalidArgumentError, match=r"(?s)of bool is not in the list.*\[Op:Sum\]"):
        tf.reduce_sum(tf.constant([True, False]))
    assert tf.reduce_any(tf.constant([True, False])).numpy()  # bool reductions stay
    assert (tf.constant([True]) & tf.constant([False])).numpy().tolist() == [False]


def test_int_tensor_plus_a_float():
    # + and tf.add convert 0.5 with the tensor's dtype only as a hint: float32 meets int32
    with pytest.raises(InvalidArgumentError) as e:
        tf.constant([1, 2]) + 0.5
    assert str(e.value) == ("cannot compute AddV2 as input #1(zero-based) was expected to be a "
                            "int32 tensor but is a float tensor [Op:AddV2]")
    with pytest.raises(InvalidArgumentError, match="expected to be a float tensor but is a int32"):
        0.5 + tf.constant([1, 2])
    with pytest.raises(TypeError, match="Cannot convert 0.5 to EagerTensor of dtype int32"):
        tf.constant([1, 2]) * 0.5


def test_gradient_of_none_and_of_a_python_number():
    x = tf.constant(1.)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
    with pytest.raises(TypeError, match="Argument `target` should be a list or nested structure"):
        tape.gradient(None, x)
    with pytest.raises(AttributeError, match="'float' object has no attribute '_id'"):
        tape.gradient(3.0, x)


def test_stop_recording_outside_the_context():
    tape = tf.GradientTape()
    with pytest.raises(RuntimeError, match="Trying to stop recording a tape which is not recording"):
        with tape.stop_recording():
            pass


def test_constant_of_mixed_python_data():
    mixed = "Can't convert Python sequence with mixed types to Tensor."
    for bad in ([True, 1], [1, 2j], [1j, 2], [1, None], [1.5, "a"]):
        with pytest.raises(ValueError, match=mixed.replace(".", r"\.")):
            tf.constant(bad)
    with pytest.raises(ValueError, match=r"Attempt to convert a value \(None\) with an unsupported"):
        tf.constant([None, 1])
    # the first value picks the kind: an int first accepts bools (Python ints) and floats
    assert tf.constant([1, True]).dtype == tf.int32
    assert tf.constant([1, 2.5]).dtype == tf.float32
    assert tf.constant([1j, 2j]).dtype == tf.complex128


def test_constant_of_numpy_arrays_and_scalars():
    t = tf.constant([np.array([1., 2.]), np.array([3., 4.])])
    assert t.dtype == tf.float64 and t.shape == (2, 2)
    assert tf.constant(np.float64(1.5)).dtype == tf.float64
    assert tf.constant([np.float32(1.), np.float32(2.)]).dtype == tf.float32


def test_constant_refuses_tensors_in_lists_convert_to_tensor_stacks_them():
    with pytest.raises(ValueError, match="tf.stack"):
        tf.constant([tf.constant(1.), tf.constant(2.)])
    with pytest.raises(ValueError, match="tf.stack"):
        tf.constant([tf.Variable(1.), 2.])
    assert tf.convert_to_tensor([tf.constant(1.), tf.constant(2.)]).shape == (2,)


def test_float32_overflow():
    with pytest.raises(ValueError, match="out of range for a double-precision float"):
        tf.constant(1e40)
    with pytest.raises(ValueError, match="out of range"):
        tf.constant([1.0, -1e39])
    assert tf.constant(1e40, dtype=tf.float64).numpy() == 1e40
    # asked for float32, TF rounds to inf instead of raising (checked against TF 2.21 CPU)
    assert np.isinf(tf.constant(1e40, dtype=tf.float32).numpy())
    assert tf.constant([-1e40], dtype=tf.float32).numpy().tolist() == [-np.inf]
    assert np.isinf(tf.constant(float("inf")).numpy())


def test_concat_of_scalars_and_reshape_with_a_free_dimension():
    # TF 2.21's ConcatV2 and Reshape kernels (found by the random differential programs)
    for values in ([tf.constant(1.), tf.ones([1, 1])], [tf.ones([2]), tf.constant(2.)]):
        with pytest.raises(InvalidArgumentError) as e:
            tf.concat(values, 0)
        assert str(e.value) == ("ConcatOp : Can't concatenate scalars (use tf.stack instead) "
                                "[Op:ConcatV2] name: concat")
    with pytest.raises(InvalidArgumentError) as e:
        tf.reshape(tf.ones([6]), [4, -1])
    assert str(e.value) == ("Input to reshape is a tensor with 6 values, but the requested "
                            "shape requires a multiple of 4 [Op:Reshape]")
    with pytest.raises(InvalidArgumentError) as e:
        tf.reshape(tf.ones([6]), [-1, -1])
    assert str(e.value) == "Only one input size may be -1, not both 0 and 1 [Op:Reshape]"
    with pytest.raises(InvalidArgumentError, match="but the requested shape has 0"):
        tf.reshape(tf.ones([6]), [0, -1])


def test_batch_jacobian_needs_rank_2_as_tf():
    x = tf.Variable([[1.0, 2.0]])
    with tf.GradientTape(persistent=True) as tape:
        y = tf.reduce_sum(x, axis=1)
        v = tf.reduce_sum(x)
    with pytest.raises(ValueError) as e:
        tape.batch_jacobian(y, x)  # one number per example: TF wants (batch, 1)
    assert str(e.value) == "Shape (1,) must have rank at least 2"
    with pytest.raises(ValueError, match=r"^Shape \(\) must have rank at least 2$"):
        tape.batch_jacobian(v, x)
    assert tape.batch_jacobian(y[:, None], x).shape == (1, 1, 2)


def test_stop_recording_after_the_context_exited():
    x = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        x * x
    with pytest.raises(ValueError) as e:  # TF: a tape that has been used, not the idle one's text
        with tape.stop_recording():
            pass
    assert str(e.value) == "Tape is not recording."


def test_variable_assign_messages_as_tf():
    v = tf.Variable([1.0, 2.0], name="w")
    with pytest.raises(ValueError) as e:
        v.assign([1.0, 2.0, 3.0])
    assert str(e.value) == ("Cannot assign value to variable ' w:0': Shape mismatch.The variable "
                            "shape (2,), and the assigned value shape (3,) are incompatible.")
    with pytest.raises(TypeError) as e:
        tf.Variable(3.0).assign("x")
    assert str(e.value) == "Cannot convert 'x' to EagerTensor of dtype float"
    with pytest.raises(TypeError, match="of dtype double$"):
        tf.constant("a", dtype=tf.float64)
    with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int32$"):
        tf.constant(1.5, dtype=tf.int32)


def test_dense_input_size_mismatch_is_keras_3s_value_error():
    layer = tf.keras.layers.Dense(2, kernel_initializer="zeros", name="dense")
    layer(tf.ones([1, 3]))
    with pytest.raises(ValueError) as e:
        layer(tf.ones([1, 4]))
    assert str(e.value) == ("Input 0 with name 'None' of layer 'dense' is incompatible with the "
                            "layer: expected axis -1 of input shape to have value 3, but received "
                            "input with shape (1, 4)")


def test_fill_matmul_and_transpose_messages_as_tf():
    # recorded from TF 2.21 (benchmarks/tfdiff)
    for make in (lambda: tf.zeros([2, -1]), lambda: tf.ones([-1]), lambda: tf.fill([2, -1], 1.0)):
        with pytest.raises(InvalidArgumentError, match=r"^Dimension -1 must be >= 0 \[Op:Fill\]$"):
            make()
    cases = [((tf.ones([2, 2]), tf.ones([3])),
              "In[0] and In[1] has different ndims: [2,2] vs. [3] [Op:MatMul]"),
             ((tf.ones([3]), tf.ones([3])), "In[0] and In[1] ndims must be == 2: 1 [Op:MatMul]"),
             ((tf.ones([2, 3, 3]), tf.ones([3])), "In[1] ndims must be >= 2: 1 [Op:BatchMatMulV2]")]
    for (a, b), text in cases:
        with pytest.raises(InvalidArgumentError) as e:
            tf.matmul(a, b)
        assert str(e.value) == text
    for perm, text in (([0, 1, 2], "transpose expects a vector of size 2. But input(1) is a "
                                   "vector of size 3 [Op:Transpose]"),
                       ([0, 0], "1 is missing from {0,0}. [Op:Transpose]"),
                       ([0, 2], "2 is out of range [0 .. 2) [Op:Transpose]")):
        with pytest.raises(InvalidArgumentError) as e:
            tf.transpose(tf.ones([2, 3]), perm=perm)
        assert str(e.value) == text
    assert tf.transpose(tf.ones([2, 3]), perm=[-1, 0]).shape == (3, 2)


def test_sources_that_are_not_tensors_raise_tfs_class():
    x = tf.Variable(1.0)
    with tf.GradientTape(persistent=True) as tape:
        y = x * 2
    with pytest.raises(TypeError, match=r"^Cannot convert the argument `type_value`: None to a "
                                        r"TensorFlow DType\. \(each source must be"):
        tape.gradient(y, [x, None])
    with pytest.raises(AttributeError, match=r"^'float' object has no attribute 'dtype'"):
        tape.gradient(y, 3.0)
    with pytest.raises(AttributeError, match=r"^'int' object has no attribute '_id'"):
        tape.gradient(y, [x, 2])


def test_keras_messages_as_keras_3():
    with pytest.raises(ValueError, match="Received: units=0"):
        tf.keras.layers.Dense(0)
    layer = tf.keras.layers.Dense(2)  # the refused layer took no name, as in Keras 3
    with pytest.raises(ValueError) as e:
        layer(tf.ones([3]))
    assert str(e.value) == (f"Input 0 with name 'None' of layer '{layer.name}' is incompatible "
                            "with the layer: expected min_ndim=2, found ndim=1. Full shape "
                            "received: (3,)")
    with pytest.raises(ValueError) as e:
        tf.keras.optimizers.SGD(0.1).apply_gradients([(None, tf.Variable(1.0))])
    assert str(e.value) == "No gradients provided for any variable."
