"""Issue 30, TF fidelity round three: sparse gradients (tf.IndexedSlices), printing, warnings,
errors and dtypes.  TF 2.21's own output for these is in fixtures/tfdiff_guides.json (notebooks
sparse_gradients, printing_digits, kink_warnings, errors_round3, dtypes_round3); these tests
pin the semantics underneath, with values worked out by hand."""
import warnings

import numpy as np
import pytest

import minitape as tf
from minitape.errors import InvalidArgumentError


def _sparse_grad(v, idx, power=2):
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.gather(v, idx) ** power)
    return tape.gradient(y, v)


# ---- IndexedSlices -------------------------------------------------------------------------

def test_gather_gradient_of_a_variable_is_indexed_slices():
    v = tf.Variable([[1., 2.], [3., 4.], [5., 6.]])
    g = _sparse_grad(v, [0, 2, 0])
    assert type(g) is tf.IndexedSlices and type(g).__name__ == "IndexedSlices"
    assert not isinstance(g, tf.Tensor) and tf.is_tensor(g)
    np.testing.assert_array_equal(g.values.numpy(), [[2., 4.], [10., 12.], [2., 4.]])
    assert g.indices.dtype == tf.int32 and g.indices.numpy().tolist() == [0, 2, 0]
    assert g.dense_shape.dtype == tf.int32 and g.dense_shape.numpy().tolist() == [3, 2]
    assert g.shape == (3, 2) and g.dtype == tf.float32
    np.testing.assert_array_equal(tf.convert_to_tensor(g).numpy(), [[4., 8.], [0., 0.], [10., 12.]])
    assert str(g).startswith("IndexedSlices(indices=tf.Tensor([0 2 0], shape=(3,), dtype=int32), "
                             "values=tf.Tensor(\n[[ 2.  4.]")
    assert str(g).endswith("dense_shape=tf.Tensor([3 2], shape=(2,), dtype=int32))")


def test_what_an_indexed_slices_supports():
    g = _sparse_grad(tf.Variable([[1., 2.], [3., 4.]]), [1])
    for bad in (lambda: g * 2, lambda: g + g, lambda: g / 2, lambda: g[0], lambda: len(g)):
        with pytest.raises(TypeError):
            bad()
    with pytest.raises(AttributeError):
        g.numpy()
    assert np.asarray(g).dtype == object  # no __array__, as in TF
    assert type(-g) is tf.IndexedSlices and (-g).values.numpy().tolist() == [[-6., -8.]]
    np.testing.assert_array_equal(tf.multiply(g, 2.).numpy(), [[0., 0.], [12., 16.]])
    np.testing.assert_array_equal(tf.add(g, g).numpy(), [[0., 0.], [12., 16.]])
    assert (g == g) is True and bool(g)
    for keep in (tf.identity(g), tf.cast(g, tf.float64), tf.clip_by_value(g, 0., 7.),
                 tf.clip_by_norm(g, 1.)):
        assert type(keep) is tf.IndexedSlices and keep.indices is g.indices
    np.testing.assert_allclose(tf.clip_by_norm(g, 1.).values.numpy(), [[0.6, 0.8]], rtol=1e-6)


def test_accumulation_and_which_gradients_are_sparse():
    v = tf.Variable([[1., 2.], [3., 4.], [5., 6.]])
    with tf.GradientTape(persistent=True) as tape:
        two_sparse = tf.reduce_sum(tf.gather(v, [1])) + tf.reduce_sum(tf.gather(v, [2, 1]))
        mixed = tf.reduce_sum(tf.gather(v, [1])) + tf.reduce_sum(v)
        other_axis = tf.reduce_sum(tf.gather(v, [1], axis=1))
        through_mul = tf.reduce_sum(tf.gather(v * 2., [1]))
        through_identity = tf.reduce_sum(tf.gather(tf.identity(v), [1]))
        embedded = tf.reduce_sum(tf.nn.embedding_lookup(v, [[1, 2], [0, 0]]))
    g = tape.gradient(two_sparse, v)
    assert type(g) is tf.IndexedSlices and g.indices.numpy().tolist() == [1, 2, 1]
    assert type(tape.gradient(mixed, v)) is not tf.IndexedSlices
    np.testing.assert_array_equal(tape.gradient(mixed, v).numpy(), [[1, 1], [2, 2], [1, 1]])
    assert type(tape.gradient(other_axis, v)) is not tf.IndexedSlices
    assert type(tape.gradient(through_mul, v)) is not tf.IndexedSlices
    assert type(tape.gradient(through_identity, v)) is tf.IndexedSlices
    assert tape.gradient(embedded, v).indices.numpy().tolist() == [1, 2, 0, 0]


@pytest.mark.filterwarnings("ignore:Calling GradientTape.gradient on a persistent tape")
def test_indexed_slices_as_target_and_under_a_second_tape():
    v = tf.Variable([[1., 2.], [3., 4.], [5., 6.]])
    with tf.GradientTape(persistent=True) as tape:
        y = tf.reduce_sum(tf.gather(v, [1]) ** 2)
        g = tape.gradient(y, v)
    with pytest.raises(AttributeError) as e:
        tape.gradient(g, v)
    assert str(e.value) == "'IndexedSlices' object has no attribute '_id'"
    assert tape.gradient(g.values, v).values.numpy().tolist() == [[2., 2.]]
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = tf.reduce_sum(tf.gather(v, [1]))  # linear: the values do not depend on v
        z = tf.reduce_sum(t1.gradient(y, v).values)
    assert t2.gradient(z, v) is None
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = tf.reduce_sum(tf.gather(v, [1, 0]) ** 3)
        z = tf.reduce_sum(tf.convert_to_tensor(t1.gradient(y, v)) ** 2)
    h = t2.gradient(z, v)  # d/dv sum((3 v^2)^2) = 36 v^3 on the gathered rows
    assert type(h) is tf.IndexedSlices
    np.testing.assert_allclose(h.values.numpy(), [[972., 2304.], [36., 288.]])


def test_jacobians_through_a_gather_are_dense():
    v = tf.Variable([[1., 2.], [3., 4.]])
    with tf.GradientTape(persistent=True) as tape:
        y = tf.gather(v, [1, 1])
    for use_pfor in (True, False):
        j = tape.jacobian(y, v, experimental_use_pfor=use_pfor)
        assert isinstance(j, tf.Tensor) and j.shape == (2, 2, 2, 2)
        assert float(tf.reduce_sum(j)) == 4.0


def test_optimizers_apply_indexed_slices_as_keras_3():
    v = tf.Variable([[1., 2.], [3., 4.]])
    g = _sparse_grad(v, [0, 0])  # rows [2, 4] twice
    tf.keras.optimizers.SGD(0.1).apply_gradients([(g, v)])
    np.testing.assert_allclose(v.numpy(), [[0.6, 1.2], [3., 4.]], rtol=1e-6)
    # Adam squares the slices before summing them: v-hat from 2 * 0.2**2, not (2 * 0.2)**2
    w = tf.Variable([[0., 0.], [5., 5.]])
    s = tf.IndexedSlices(tf.constant([[0.2, 0.2], [0.2, 0.2]]), tf.constant([0, 0]),
                         tf.constant([2, 2]))
    tf.keras.optimizers.Adam(0.1).apply_gradients([(s, w)])
    np.testing.assert_allclose(w.numpy()[0], [-0.1 * 0.4 / np.sqrt(0.08)] * 2, rtol=1e-4)
    np.testing.assert_array_equal(w.numpy()[1], [5., 5.])


def test_variable_scatter_methods():
    v = tf.Variable(tf.ones([3, 2]))
    s = tf.IndexedSlices(tf.constant([[1., 2.], [3., 4.]]), tf.constant([2, 2]))
    assert v.scatter_add(s) is v
    np.testing.assert_array_equal(v.numpy()[2], [5., 7.])
    v.scatter_sub(s)
    np.testing.assert_array_equal(v.numpy(), np.ones([3, 2]))
    v.scatter_update(tf.IndexedSlices(tf.constant([[9., 9.]]), tf.constant([0])))
    np.testing.assert_array_equal(v.numpy()[0], [9., 9.])
    with pytest.raises(TypeError, match="sparse_delta is not IndexedSlices"):
        v.scatter_add(tf.ones([3, 2]))


def test_indexed_slices_without_dense_shape_and_resource_gather_errors():
    s = tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([1]))
    assert s.shape.as_list() == [None, 2]
    with pytest.raises(ValueError, match="requested for IndexedSlices for argument `value` "
                                         "without dense_shape"):
        tf.convert_to_tensor(s)
    with pytest.raises(InvalidArgumentError, match=r"\[Op:ResourceGather\]"):
        tf.gather(tf.Variable([1., 2.]), [5])
    with pytest.raises(InvalidArgumentError, match=r"\[Op:GatherV2\]"):
        tf.gather(tf.constant([1., 2.]), [5])


# ---- printing ------------------------------------------------------------------------------

def test_linspace_computes_in_float32_as_tf():
    t = tf.linspace(0., 1., 11)
    assert t.numpy()[9] == np.float32(0.1) * np.float32(9)  # 0.90000004
    assert str(t) == ("tf.Tensor(\n[0.         0.1        0.2        0.3        0.4        0.5\n"
                      " 0.6        0.7        0.8        0.90000004 1.        ], shape=(11,), "
                      "dtype=float32)")
    assert tf.linspace(0., 1., 1).numpy().tolist() == [0.]
    assert tf.linspace(0., 1., 0).shape == (0,)
    assert tf.linspace(2., 3., 2).numpy().tolist() == [2., 3.]


def test_module_repr_is_pythons_and_keras_layers_show_name_and_built():
    class Net(tf.Module):
        pass
    assert repr(Net()).startswith("<") and " object at 0x" in repr(Net())
    d = tf.keras.layers.Dense(2, name="d")
    assert repr(d) == "<Dense name=d, built=False>"
    d(tf.ones([1, 3]))
    assert repr(d) == "<Dense name=d, built=True>"


# ---- warnings ------------------------------------------------------------------------------

def test_gradient_rules_at_kinks_are_silent_even_when_every_warning_is_asked_for():
    x = tf.constant([-1., 0., 2.])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning fails the test
        with tf.GradientTape() as t3:
            t3.watch(x)
            with tf.GradientTape() as t2:
                t2.watch(x)
                with tf.GradientTape() as t1:
                    t1.watch(x)
                    y = tf.nn.leaky_relu(x) ** 2
                g1 = t1.gradient(y, x)
            g2 = t2.gradient(g1, x)
        g3 = t3.gradient(g2, x)
        with tf.GradientTape() as t:
            t.watch(x)
            z = tf.norm(x - x)
        gz = t.gradient(z, x)
    assert np.isnan(g3.numpy()[1]) and np.isnan(gz.numpy()).all()
    with pytest.warns(RuntimeWarning):  # the student's own NumPy code still warns
        np.log(np.array([0.]))


def test_keras_input_shape_and_integer_primal_warnings():
    with pytest.warns(UserWarning, match="Do not pass an `input_shape`/`input_dim` argument"):
        tf.keras.layers.Dense(2, input_shape=(3,))
    with pytest.warns(UserWarning, match="watched primal must be floating .* got tf.int32"):
        with tf.autodiff.ForwardAccumulator(tf.constant(2), tf.constant(1)):
            pass


# ---- errors --------------------------------------------------------------------------------

def test_scalar_conversions_need_a_0d_tensor():
    for f in (float, int, complex):
        with pytest.raises(TypeError, match="only 0-dimensional arrays can be converted"):
            f(tf.constant([1.]))
    assert float(tf.constant(2.5)) == 2.5 and int(tf.constant(3)) == 3


def test_python_list_index_is_a_tuple_and_too_many_indices():
    t = tf.constant([[1., 2.], [3., 4.]])
    assert float(t[[0, 1]]) == 2.0 and t[[0]].shape == (2,)
    for key in ((0, 0, 0), [0, 1, 0], (Ellipsis, 0, 0, 0)):
        with pytest.raises(InvalidArgumentError) as e:
            t[key]
        assert str(e.value) == ("Index out of range using input dim 2; input has only 2 dims "
                                "[Op:StridedSlice] name: strided_slice/")
    with pytest.raises(TypeError, match="valid indices, got \\[0\\]"):
        t[0, [0]]


def test_reset_outside_the_context_and_integer_negative_powers_and_hash():
    tape = tf.GradientTape()
    with tape:
        tape.reset()  # inside: fine
    with pytest.raises(ValueError, match="Tape is not recording."):
        tape.reset()
    with pytest.raises(InvalidArgumentError, match=r"Integers to negative integer powers are "
                                                   r"not allowed \[Op:Pow\]"):
        tf.constant([2, 3]) ** -1
    with pytest.raises(TypeError, match=r"Tensor is unhashable. Instead, use tensor.ref\(\)"):
        hash(tf.constant(1.))
    with pytest.raises(TypeError, match=r"Variable is unhashable. Instead, use variable.ref\(\)"):
        {tf.Variable(1.): 1}


def test_custom_gradient_shape_and_output_gradients_list_as_tf():
    @tf.custom_gradient
    def f(x):
        return x * 2., lambda dy: tf.ones([3])
    x = tf.constant([1., 2.])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert tape.gradient(y, x).shape == (3,)  # returned as it is, as in TF
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    # flattened and paired with the targets: 1.0 for the one target
    assert tape.gradient(y, x, output_gradients=[1., 2.]).numpy().tolist() == [2., 4.]


def test_declared_partial_shape_stays():
    v = tf.Variable([1., 2.], shape=tf.TensorShape([None]))
    v.assign([1., 2., 3.])
    assert str(v.shape) == "(None,)"
    with pytest.raises(ValueError, match=r"The variable shape \(None,\)"):
        v.assign([[1.]])


# ---- dtypes --------------------------------------------------------------------------------

@pytest.mark.parametrize("value, dtype", [
    ([np.float32(1.5), 2], tf.float32), ([np.float64(1.5), 2], tf.float64),
    ([np.float16(1), 2], tf.float16), ([np.int64(1), 2], tf.int32),
    ([np.int64(2**40), 1], tf.int64), ([np.int64(1), 2.5], tf.float32),
    ([np.float32(1), np.float64(2)], tf.float32), ([[np.float32(1.5), 2], [3, 4]], tf.float32),
])
def test_numpy_scalar_first_in_a_list_picks_the_dtype_as_tf(value, dtype):
    assert tf.constant(value).dtype == dtype
    assert tf.convert_to_tensor(value).dtype == dtype


def test_numpy_scalars_in_a_list_that_tf_refuses():
    with pytest.raises(ValueError, match="mixed types"):
        tf.constant([np.bool_(True), 1])
    with pytest.raises(ValueError, match="out of range"):
        tf.constant([np.float32(1), 1e40])


def test_numpy_index_arrays_still_index_on_purpose():
    """docs/tensorflow-differences.md: TF refuses NumPy arrays as indices (TypeError); minitape's
    own operations index with them. This fails if minitape starts refusing them as TF does."""
    t = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
    assert t[np.array([0, 2])].numpy().tolist() == [[1., 2.], [5., 6.]]
