"""minitape on a real NVIDIA GPU through CuPy.  Skipped, with the reason, where there is none.

The whole engine suite also runs on the GPU with ``python -m pytest tests/minitape
--backend=cupy``; these tests check what only a real GPU can show (CuPy arrays, device names,
scatter-add with repeated indices, CPU/GPU agreement on float32 work).
"""
from __future__ import annotations

import numpy as np
import pytest

import minitape as tf
from minitape import _device


# skipped, with minitape's reason, where CuPy or a GPU is missing (conftest.py)
pytestmark = [pytest.mark.gpu, pytest.mark.usefixtures("no_ambient_device")]
GPU0 = "/job:localhost/replica:0/task:0/device:GPU:0"


def test_gpu_is_listed_and_named():
    gpus = tf.config.list_physical_devices("GPU")
    assert gpus and gpus[0].name == "/physical_device:GPU:0" and gpus[0].device_type == "GPU"
    assert _device.gpu_name(0)


def test_tensors_live_on_the_gpu_and_come_back_as_numpy():
    import cupy
    with tf.device("/GPU:0"):
        x = tf.constant([[1.0, 2.0]])
        v = tf.Variable(tf.random.normal((2, 2)))
        s = tf.reduce_sum(x)
    for t in (x, v, s):
        assert type(t._value) is cupy.ndarray and t.device == GPU0
    assert type(x.numpy()) is np.ndarray and isinstance(s.numpy(), np.float32)
    assert float(s) == 3.0 and bool(s > 2.0)
    np.testing.assert_array_equal(np.asarray(x), [[1.0, 2.0]])


def test_gradients_on_gpu_match_cpu():
    def work():
        tf.random.set_seed(0)
        w1 = tf.Variable(tf.random.normal((64, 32)) * 0.1)
        w2 = tf.Variable(tf.random.normal((32, 1)) * 0.1)
        x = tf.random.normal((128, 64))
        y = tf.random.normal((128, 1))
        with tf.GradientTape() as t:
            h = tf.nn.relu(x @ w1)
            loss = tf.reduce_mean(tf.square(h @ w2 - y)) + tf.reduce_sum(tf.math.erf(w2))
        return [g.numpy() for g in t.gradient(loss, [w1, w2])]

    with tf.device("/CPU:0"):
        cpu = work()
    with tf.device("/GPU:0"):
        gpu = work()
    for c, g in zip(cpu, gpu):
        np.testing.assert_allclose(g, c, rtol=1e-4, atol=1e-5)


def test_scatter_add_with_repeated_indices_and_masks_on_gpu():
    with tf.device("/GPU:0"):
        x = tf.Variable(tf.range(6.0))
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.gather(x, [1, 1, 4])) + tf.reduce_sum(x[x > 2.0]) + x[np.array([0, 0])][0]
    g = t.gradient(y, x)
    assert g.device == GPU0
    np.testing.assert_array_equal(g.numpy(), [1.0, 2.0, 0.0, 1.0, 2.0, 1.0])


def test_mixed_cpu_gpu_runs_on_gpu_and_gradients_flow_back():
    a = tf.Variable([1.0, 2.0])
    with tf.device("/GPU:0"):
        b = tf.Variable([3.0, 4.0])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(a * b * 2.0)
    assert y.device == GPU0
    ga, gb = t.gradient(y, [a, b])
    assert ga.device.endswith("CPU:0") and gb.device == GPU0
    np.testing.assert_array_equal(ga.numpy(), [6.0, 8.0])
    with tf.device("/CPU:0"):
        host = tf.identity(b)
    assert host.device.endswith("CPU:0")


def test_scalar_chain_on_gpu_matches_cpu():
    def chain():
        x = tf.Variable(0.5, dtype=tf.float64)
        with tf.GradientTape() as t:
            y = x
            for _ in range(200):
                y = tf.sin(y * 1.0001 + 0.1) * 0.9
        return y.numpy(), t.gradient(y, x).numpy()

    with tf.device("/CPU:0"):
        cpu = chain()
    with tf.device("/GPU:0"):
        gpu = chain()
    np.testing.assert_allclose(gpu, cpu, rtol=1e-12)
