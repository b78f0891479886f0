"""What a student sees printed is what TensorFlow 2.21 prints (issue 15).

Expected texts are TensorFlow's documented output: ``numpy_text`` puts text of several lines
on a new line, a scalar's repr is its Python number, ``format`` formats the NumPy value.
"""
import pickle

import numpy as np
import pytest

import minitape as tf


def test_multiline_tensor_str_starts_on_a_new_line():
    t = tf.constant([[1., 2.], [3., 4.]])
    assert str(t) == "tf.Tensor(\n[[1. 2.]\n [3. 4.]], shape=(2, 2), dtype=float32)"


def test_multiline_tensor_repr_has_newline_after_numpy():
    t = tf.constant([[1., 2.], [3., 4.]])
    assert repr(t) == ("<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\n"
                       "array([[1., 2.],\n       [3., 4.]], dtype=float32)>")


def test_one_line_tensors_unchanged():
    assert str(tf.constant([1, 2, 3])) == "tf.Tensor([1 2 3], shape=(3,), dtype=int32)"
    assert repr(tf.constant([1, 2])) == \
        "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>"
    assert repr(tf.constant(True)) == "<tf.Tensor: shape=(), dtype=bool, numpy=True>"


def test_scalar_repr_is_the_python_number():
    # TF's numpy_text: repr(value.item()) for scalars, so float32 shows its float64 digits
    assert repr(tf.constant(6.0)) == "<tf.Tensor: shape=(), dtype=float32, numpy=6.0>"
    assert repr(tf.constant(0.1)) == \
        "<tf.Tensor: shape=(), dtype=float32, numpy=0.10000000149011612>"
    assert str(tf.constant(0.1)) == "tf.Tensor(0.1, shape=(), dtype=float32)"
    assert repr(tf.constant(3)) == "<tf.Tensor: shape=(), dtype=int32, numpy=3>"


def test_multiline_variable_repr_and_print():
    v = tf.Variable([[1., 2.], [3., 4.]], name="w")
    expected = ("<tf.Variable 'w:0' shape=(2, 2) dtype=float32, numpy=\n"
                "array([[1., 2.],\n       [3., 4.]], dtype=float32)>")
    assert repr(v) == expected and str(v) == expected


def test_dtype_prints_as_tf():
    t = tf.constant([1.])
    assert str(t.dtype) == "<dtype: 'float32'>"
    assert repr(t.dtype) == "tf.float32"
    assert f"{tf.int32}" == "<dtype: 'int32'>"


def test_format_gives_the_numpy_text():
    assert "{}".format(tf.constant([1, 2, 3])) == "[1 2 3]"
    t = tf.constant([[1., 2.], [3., 4.]])
    assert f"{t}" == "[[1. 2.]\n [3. 4.]]"
    assert f"{tf.constant(2.5):.2f}" == "2.50"
    assert f"{tf.constant(7):>4}" == "   7"
    # a Variable formats as TF's (object.__format__): its text, and a spec is refused
    assert f"{tf.Variable(1.5)}" == "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.5>"
    with pytest.raises(TypeError, match="unsupported format string passed to "
                                        "ResourceVariable.__format__"):
        f"{tf.Variable(1.5):.2f}"
    assert f"{tf.Variable(1.5).numpy():.2f}" == "1.50"
    with pytest.raises(TypeError):  # NumPy refuses a format spec for an array, as in TF
        f"{tf.constant([1., 2.]):.2f}"


def test_numpy_of_a_scalar_is_a_numpy_scalar():
    a = tf.constant(2.5).numpy()
    assert type(a) is np.float32 and a == 2.5
    b = tf.Variable(2.5).numpy()
    assert type(b) is np.float32
    assert type(tf.constant(3).numpy()) is np.int32
    assert type(tf.reduce_sum(tf.constant([1., 2.])).numpy()) is np.float32
    arr = tf.constant([1., 2.]).numpy()
    assert type(arr) is np.ndarray and arr.shape == (2,)


def test_numpy_of_an_array_is_a_copy():
    t = tf.constant([1., 2.])
    a = t.numpy()
    a[0] = 9.
    assert t.numpy()[0] == 1.


def test_type_names_as_tf():
    assert type(tf.constant(1.)).__name__ == "EagerTensor"
    assert type(tf.Variable(1.)).__name__ == "ResourceVariable"
    assert isinstance(tf.constant(1.), tf.Tensor)
    # minitape's Variable stays a Tensor subclass (README's table of differences)
    assert isinstance(tf.Variable(1.), tf.Variable)


def test_variables_pickle_under_their_tf_type_name():
    v = tf.Variable([1., 2.], name="v")
    w = pickle.loads(pickle.dumps(v))
    assert type(w) is tf.Variable and w.name == "v:0" and list(w.numpy()) == [1., 2.]
    t = pickle.loads(pickle.dumps(tf.constant([[1, 2]])))
    assert t.shape == (1, 2) and t.dtype == tf.int32


def test_dense_variable_names_as_keras_3():
    layer = tf.keras.layers.Dense(2, name="dense")
    layer(tf.ones((1, 3)))
    assert [v.name for v in layer.trainable_variables] == ["kernel", "bias"]
    assert [v.path for v in layer.trainable_variables] == ["dense/kernel", "dense/bias"]
    with pytest.raises(AttributeError):
        tf.Variable(1.).path  # a plain tf.Variable has no Keras path
