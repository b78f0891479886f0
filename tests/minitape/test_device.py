"""Device placement: ``minitape.device``, ``.device``, the mixing rule, and life without CuPy.

The GPU is stood in for by the strict test backend (``tests/support/strict_backend.py``): a CPU array type
that refuses implicit conversion to NumPy as CuPy does, registered as a second array module.
Everything here therefore runs on machines without a GPU; ``test_gpu.py`` repeats the essential
checks on a real GPU where there is one.
"""
from __future__ import annotations

import contextlib
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import numpy as np
import pytest

import minitape as tf
from minitape import _backend as B

from tests.support import strict_backend
from tests.support.strict_backend import StrictArray

ROOT = Path(__file__).resolve().parents[2]
CPU = "/job:localhost/replica:0/task:0/device:CPU:0"
DEV = "/job:localhost/replica:0/task:0/device:STRICT:0"


# these tests define their own placement (the fixture is in conftest.py)
pytestmark = pytest.mark.usefixtures("no_ambient_device")


@pytest.fixture
def on_dev():
    """A context manager placing new tensors on the strict device (a stand-in for the GPU)."""
    module = strict_backend.install()

    @contextlib.contextmanager
    def scope():
        B._default.append(module)
        try:
            yield module
        finally:
            assert B._default.pop() is module

    return scope


def is_dev(t):
    return type(t._value) is StrictArray and t.device == DEV


def is_cpu(t):
    return B.xp(t._value) is np and t.device == CPU


def run_python(code, **env):
    import os
    e = dict(os.environ, PYTHONPATH=str(ROOT), **env)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, env=e, cwd=str(ROOT), timeout=120)


# ------------------------------------------------------------------------------------------
# The strict backend really is strict (otherwise the suite run on it would prove nothing)
# ------------------------------------------------------------------------------------------

def test_strict_backend_refuses_every_implicit_conversion():
    s = strict_backend.install()
    a = s.asarray(np.arange(3.0))
    one = a.sum()
    for convert in (np.asarray, float, int, bool, complex, lambda v: v.item(), lambda v: v.tolist()):
        with pytest.raises(TypeError, match="Implicit conversion to a NumPy array is not allowed"):
            convert(one)
    with pytest.raises(TypeError, match="numpy.sum was called on a device array"):
        np.sum(a)
    with pytest.raises(TypeError, match="does not support ufuncs"):
        np.exp(a)
    with pytest.raises(TypeError, match="host NumPy array"):
        a + np.ones(3)
    with pytest.raises(TypeError, match="host NumPy array"):
        np.ones(3) * a
    assert type(a * np.float64(2.0)) is StrictArray  # NumPy scalars are numbers, as in CuPy
    np.testing.assert_array_equal(s.asnumpy(a), [0.0, 1.0, 2.0])
    np.testing.assert_array_equal(a.get(), [0.0, 1.0, 2.0])


# ------------------------------------------------------------------------------------------
# Without CuPy / without a GPU
# ------------------------------------------------------------------------------------------

def test_import_and_cpu_work_never_import_cupy():
    r = run_python("""
        import sys
        import minitape as tf
        x = tf.Variable([1.0, 2.0])
        with tf.GradientTape() as t:
            y = tf.reduce_sum(tf.sin(x) * 2.0)
        t.gradient(y, x)
        with tf.device("/CPU:0"):
            tf.constant(1.0) + 1
        tf.config.list_physical_devices("CPU")
        assert "cupy" not in sys.modules, "importing minitape imported CuPy"
        from minitape import _backend
        assert _backend._multi[0] is False, "device placement switched on without a device"
        print("ok")
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"


def test_gpu_without_cupy_is_a_clear_error_and_the_rest_still_works():
    r = run_python("""
        import sys
        sys.modules["cupy"] = None  # as if CuPy were not installed
        import minitape as tf
        assert tf.config.list_physical_devices("GPU") == []
        assert [d.device_type for d in tf.config.list_physical_devices()] == ["CPU"]
        with tf.device("/GPU:0"):  # soft device placement (TF's default): the CPU, silently
            assert tf.constant(1.0).device.endswith("CPU:0")
        assert tf.config.get_soft_device_placement()
        tf.config.set_soft_device_placement(False)
        with tf.device("/GPU:0"):  # TF: entering is fine, the first operation raises
            pass
        for attempt in range(2):  # the error is the same every time it is asked for
            try:
                with tf.device("/GPU:0"):
                    tf.constant(1.0)
            except tf.errors.InvalidArgumentError as e:
                print(str(e) + " || " + " ".join(e.__notes__))
            else:
                raise SystemExit("no error")
        tf.config.set_soft_device_placement(True)
        x = tf.Variable(3.0)
        with tf.GradientTape() as t:
            y = x * x
        assert float(t.gradient(y, x)) == 6.0
        with tf.device("/CPU:0"):
            assert tf.constant(2.0).device.endswith("CPU:0")
    """)
    assert r.returncode == 0, r.stderr
    first, second = r.stdout.strip().splitlines()
    assert first == second
    assert first.startswith("Could not satisfy device specification "
                            "'/job:localhost/replica:0/task:0/device:GPU:0'. enable_soft_placement=0.")
    # TF's message exactly; what is missing and how to install it is the exception's note
    assert first.split(" || ")[0].endswith("All available devices "
                                           "[/job:localhost/replica:0/task:0/device:CPU:0].")
    assert "CuPy is not installed" in first
    assert "pip install cupy-cuda12x" in first
    assert "NVIDIA GPU" in first and "'/CPU:0'" in first


def test_install_hint_names_this_distribution_and_its_gpu_extra():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == "minitape"
    assert any(dep.startswith("cupy-cuda12x") for dep in project["optional-dependencies"]["gpu"])
    assert "numpy" in " ".join(project["dependencies"]) and len(project["dependencies"]) == 1
    from minitape import _device
    src = Path(_device.__file__).read_text()
    (cupy,) = [d for d in project["optional-dependencies"]["gpu"] if d.startswith("cupy-cuda12x")]
    assert "pip install cupy-cuda12x" in src  # a package on the index (minitape itself is not)
    assert "pip install -e '.[gpu]'" in src   # the extra, from a checkout


def test_cupy_without_a_gpu_is_a_clear_error():
    r = run_python("""
        import sys, types
        # a CuPy that imports but sees no device, as on a machine without an NVIDIA driver
        cupy = types.ModuleType("cupy")
        cupy.cuda = types.SimpleNamespace(runtime=types.SimpleNamespace(
            getDeviceCount=lambda: (_ for _ in ()).throw(RuntimeError("cudaErrorNoDevice"))))
        sys.modules["cupy"] = cupy
        import minitape as tf
        assert tf.config.list_physical_devices("GPU") == []
        with tf.device("/GPU:0"):
            assert tf.constant([1.0]).device.endswith("CPU:0")  # soft placement
        tf.config.set_soft_device_placement(False)
        try:
            with tf.device("/GPU:0"):
                tf.Variable(1.0)
        except tf.errors.InvalidArgumentError as e:
            print(str(e) + " " + " ".join(e.__notes__))
        tf.config.set_soft_device_placement(True)
        assert tf.constant([1.0]).device.endswith("CPU:0")
    """)
    assert r.returncode == 0, r.stderr
    msg = r.stdout.strip()
    assert "CuPy is installed but no NVIDIA GPU is visible" in msg
    assert "cudaErrorNoDevice" in msg and "'/CPU:0'" in msg


@pytest.mark.parametrize("spec", ["/GPU:0", "GPU:0", "/device:GPU:0", "/gpu:0",
                                  "/job:localhost/replica:0/task:0/device:GPU:0"])
def test_device_names_are_parsed_like_tensorflow(spec):
    d = tf.device(spec)
    assert (d._kind, d._index) == ("GPU", 0)


@pytest.mark.parametrize("spec", ["/TPU:0", "cuda", "/GPU", "GPU:x", ""])
def test_bad_device_names_are_value_errors(spec):
    with pytest.raises(ValueError, match=repr(spec).strip("'") or "Invalid device"):
        tf.device(spec)


def test_cpu_scope_and_tensor_device():
    with tf.device("/CPU:0"):
        x = tf.constant([1.0, 2.0])
        v = tf.Variable(1.0)
    assert x.device == CPU and v.device == CPU
    assert [d.name for d in tf.config.list_physical_devices("CPU")] == ["/physical_device:CPU:0"]


# ------------------------------------------------------------------------------------------
# New tensors land on the current device
# ------------------------------------------------------------------------------------------

def test_every_creation_function_uses_the_current_device(on_dev):
    tf.random.set_seed(1)
    with on_dev():
        made = {
            "constant": tf.constant([1.0, 2.0]),
            "constant numpy": tf.constant(np.arange(3, dtype=np.float64)),
            "constant shape": tf.constant(0.5, shape=(2, 2)),
            "convert_to_tensor": tf.convert_to_tensor([[1, 2]]),
            "zeros": tf.zeros((2, 3)), "ones": tf.ones(3, dtype=tf.int32),
            "fill": tf.fill((2,), 7.0), "eye": tf.eye(3), "linspace": tf.linspace(0.0, 1.0, 5),
            "range": tf.range(5), "normal": tf.random.normal((2, 2)),
            "uniform": tf.random.uniform((3,)), "truncated": tf.random.truncated_normal((4,)),
            "Variable": tf.Variable([1.0, 2.0]), "Variable numpy": tf.Variable(np.ones(2)),
            "one_hot": tf.one_hot([0, 2], 3), "zeros_initializer": tf.keras.initializers.zeros((2,)),
            "glorot": tf.keras.initializers.glorot_uniform((2, 3)),
        }
        layer = tf.keras.layers.Dense(4, activation="relu")
        layer(tf.ones((1, 3)))
        # a Keras 3 weight has no .device (as in TensorFlow); the tf.Variable behind it, .value, has
        made["Dense.kernel"] = layer.kernel.value
        made["Dense.bias"] = layer.bias.value
    for what, t in made.items():
        assert is_dev(t), f"{what} was created on {t.device}"
        assert type(t.numpy()) in (np.ndarray,) or isinstance(t.numpy(), np.generic), what
    np.testing.assert_array_equal(made["range"].numpy(), np.arange(5))
    np.testing.assert_array_equal(made["fill"].numpy(), [7.0, 7.0])
    assert made["convert_to_tensor"].dtype == tf.int32


def test_same_seed_same_numbers_on_every_device(on_dev):
    tf.random.set_seed(7)
    cpu = tf.random.normal((3, 3)).numpy()
    tf.random.set_seed(7)
    with on_dev():
        dev = tf.random.normal((3, 3))
    assert is_dev(dev)
    np.testing.assert_array_equal(dev.numpy(), cpu)


def test_numpy_and_python_conversions_copy_to_the_host_explicitly(on_dev):
    with on_dev():
        x = tf.constant([[1.5, -2.0]])
        s = tf.reduce_sum(x)
    assert type(x.numpy()) is np.ndarray
    assert isinstance(s.numpy(), np.float32) and s.numpy() == -0.5
    assert float(s) == -0.5 and bool(s < 0) and int(tf.constant(3, dtype=tf.int32) + 0) == 3
    if s < 0.0:  # the guide's `if x > 0.0:` works on a device scalar
        pass
    np.testing.assert_array_equal(np.asarray(x), [[1.5, -2.0]])
    assert repr(s) == "<tf.Tensor: shape=(), dtype=float32, numpy=-0.5>"
    assert "1.5" in str(x) and f"{s:.2f}" == "-0.50"
    assert [float(r) for r in x[0]] == [1.5, -2.0]


# ------------------------------------------------------------------------------------------
# The mixing rule
# ------------------------------------------------------------------------------------------

def test_python_numbers_and_numpy_constants_meet_device_tensors(on_dev):
    with on_dev():
        x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as t:
        y = (x * 2.0 + 1) / 4 - np.float32(0.5) + np.array([1.0, 1.0, 1.0], dtype=np.float32)
        z = tf.reduce_sum(2.0 ** x + y ** 2 + tf.maximum(x, 2.0) + tf.where(x > 1.5, x, 0.0))
    assert is_dev(y) and is_dev(z)
    np.testing.assert_allclose(y.numpy(), [1.25, 1.75, 2.25])
    g = t.gradient(z, x)
    assert is_dev(g)
    xs = np.array([1.0, 2.0, 3.0])
    expected = np.log(2) * 2 ** xs + 2 * ((xs * 2 + 1) / 4 + 0.5) * 0.5 + (xs >= 2) + (xs > 1.5)
    np.testing.assert_allclose(g.numpy(), expected, rtol=1e-6)


def test_device_constants_are_copied_once_and_keep_the_sign_of_zero(on_dev):
    from minitape import _ops
    with on_dev():
        x = tf.constant([1.0, -1.0])
    x * 3.25
    n = len(_ops._DEVICE_SCALARS)
    for _ in range(5):
        x * 3.25
    assert len(_ops._DEVICE_SCALARS) == n
    assert np.signbit((x * -0.0).numpy()).tolist() == [True, False]
    assert np.signbit((x * 0.0).numpy()).tolist() == [False, True]


def test_mixed_devices_run_on_the_device_and_gradients_flow_back(on_dev):
    a_cpu = tf.Variable([1.0, 2.0])
    with on_dev():
        b_dev = tf.Variable([3.0, 4.0])
    with tf.GradientTape() as t:
        y = a_cpu * b_dev          # the CPU operand is copied to the device
        loss = tf.reduce_sum(y * y)
    assert is_dev(y) and is_dev(loss)
    ga, gb = t.gradient(loss, [a_cpu, b_dev])
    assert is_cpu(ga), "a CPU variable's gradient lives on the CPU"
    assert is_dev(gb)
    np.testing.assert_allclose(ga.numpy(), 2 * np.array([3.0, 8.0]) * [3.0, 4.0])
    np.testing.assert_allclose(gb.numpy(), 2 * np.array([3.0, 8.0]) * [1.0, 2.0])


def test_a_device_scope_decides_where_operations_run(on_dev):
    with on_dev():
        x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as t:
        with tf.device("/CPU:0"):
            host = tf.identity(x)        # TensorFlow's idiom to copy to the host
            y = tf.reduce_sum(tf.sin(x) * host)
    assert is_cpu(host) and is_cpu(y)
    g = t.gradient(y, x)
    assert is_dev(g)
    xs = np.array([1.0, 2.0])
    np.testing.assert_allclose(g.numpy(), np.cos(xs) * xs + np.sin(xs), rtol=1e-6)
    # and back again
    with on_dev():
        back = tf.identity(host)
    assert is_dev(back)


def test_variables_stay_on_their_device_when_assigned_host_values(on_dev):
    with on_dev():
        v = tf.Variable([1.0, 2.0])
    v.assign([5.0, 6.0])
    v.assign_add(np.array([1.0, 1.0], dtype=np.float32))
    v.assign_sub(tf.constant([0.5, 0.5]))
    assert is_dev(v)
    np.testing.assert_array_equal(v.numpy(), [5.5, 6.5])
    with pytest.raises(ValueError, match="Shape mismatch"):
        v.assign([1.0])


def test_indexing_gather_and_concat_with_host_indices(on_dev):
    with on_dev():
        x = tf.Variable(np.arange(12.0).reshape(3, 4))
    idx_cpu = tf.constant([2, 0, 2])
    with tf.GradientTape() as t:
        parts = [x[1], x[:, np.array([0, 3])], tf.gather(x, [2, 0, 2]), tf.gather(x, idx_cpu, axis=0),
                 x[x[:, 0] > 3.0], tf.concat([x, tf.ones((1, 4), dtype=tf.float64)], axis=0)]
        loss = tf.add_n([tf.reduce_sum(p) for p in parts])
    assert all(is_dev(p) for p in parts)
    g = t.gradient(loss, x).numpy()
    expected = np.ones((3, 4))
    expected[1] += 1
    expected[:, [0, 3]] += 1
    expected[2] += 4
    expected[0] += 2
    expected[[1, 2]] += 1
    np.testing.assert_array_equal(g, expected + 0)


# ------------------------------------------------------------------------------------------
# Gradients, tangents, jacobians, custom gradients on the device
# ------------------------------------------------------------------------------------------

def _cpu_and_dev(on_dev, fn):
    """Run ``fn()`` on the CPU and on the device; return both results as NumPy."""
    out_cpu = fn()
    with on_dev():
        out_dev = fn()
    for r in tf.nest.flatten(out_dev):
        assert is_dev(r), f"result on {r.device}"
    return ([r.numpy() for r in tf.nest.flatten(out_cpu)],
            [r.numpy() for r in tf.nest.flatten(out_dev)])


def test_higher_order_jacobians_and_forward_mode_match_the_cpu(on_dev):
    def work():
        x = tf.Variable([0.3, -1.2, 2.0], dtype=tf.float64)
        with tf.GradientTape() as outer:
            with tf.GradientTape(persistent=True) as inner:
                y = tf.reduce_sum(tf.tanh(x) * x ** 2)
                z = tf.nn.softmax(tf.reshape(x, (1, 3)))
            g = inner.gradient(y, x)
        h = outer.jacobian(g, x)
        j = inner.jacobian(z, x)
        with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.0, 0.0], tf.float64)) as acc:
            w = tf.reduce_sum(tf.exp(x) * x)
        return g, h, j, acc.jvp(w)

    cpu, dev = _cpu_and_dev(on_dev, work)
    for c, d in zip(cpu, dev):
        np.testing.assert_allclose(d, c, rtol=1e-12)


def test_batch_jacobian_hessian_vector_product_and_zero_gradients(on_dev):
    def work():
        x = tf.constant([[1.0, 2.0], [3.0, 4.0]], dtype=tf.float64)
        u = tf.constant(5.0, dtype=tf.float64)
        with tf.GradientTape() as t:
            t.watch([x, u])
            y = tf.sin(x) * tf.reduce_sum(x, axis=1, keepdims=True)
        bj = t.batch_jacobian(y, x)
        with tf.GradientTape() as t2:
            t2.watch([x, u])
            y2 = tf.reduce_sum(x * x)
        gx, gu = t2.gradient(y2, [x, u], unconnected_gradients=tf.UnconnectedGradients.ZERO)
        v = tf.Variable([1.0, 2.0], dtype=tf.float64)
        with tf.autodiff.ForwardAccumulator(v, tf.constant([1.0, 0.0], tf.float64)) as acc:
            with tf.GradientTape() as t3:
                loss = tf.reduce_sum(v ** 3)
            grad = t3.gradient(loss, v)
        return bj, gx, gu, acc.jvp(grad)

    cpu, dev = _cpu_and_dev(on_dev, work)
    for c, d in zip(cpu, dev):
        np.testing.assert_allclose(d, c, rtol=1e-12)
    np.testing.assert_array_equal(dev[3], [6.0, 0.0])  # TensorFlow's HVP docstring example


def test_custom_gradient_and_stop_gradient_on_the_device(on_dev):
    @tf.custom_gradient
    def clipped_identity(x):
        def grad(dy):
            return tf.clip_by_value(dy, -0.5, 0.5)
        return tf.identity(x), grad

    def work():
        x = tf.Variable([1.0, -2.0, 3.0])
        w = tf.Variable(2.0)

        @tf.custom_gradient
        def scaled(u):
            def grad(dy, variables=None):
                return dy * w, [tf.reduce_sum(dy * u)]
            return u * w, grad

        with tf.GradientTape(persistent=True) as t:
            y = tf.reduce_sum(clipped_identity(x) * 3.0 + tf.stop_gradient(x) * x)
            s = tf.reduce_sum(scaled(x))
        return t.gradient(y, x), t.gradient(s, [x, w])

    cpu, dev = _cpu_and_dev(on_dev, work)
    for c, d in zip(cpu, dev):
        np.testing.assert_allclose(d, c)
    np.testing.assert_allclose(dev[0], [0.5 + 1.0, 0.5 - 2.0, 0.5 + 3.0])


def test_training_a_model_gives_the_same_numbers_on_every_device(on_dev):
    def train(opt_cls):
        tf.random.set_seed(3)
        model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="tanh"),
                                     tf.keras.layers.Dense(1)])
        x = tf.random.normal((16, 3))
        y = tf.reduce_sum(x, axis=1, keepdims=True)
        opt = opt_cls(learning_rate=0.05)
        losses = []
        for _ in range(5):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(x) - y))
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            losses.append(loss)
        return [tf.stack(losses)] + [v.value for v in model.trainable_variables]  # Keras 3: .value has the device

    for opt_cls in (tf.keras.optimizers.SGD, tf.keras.optimizers.Adam):
        cpu, dev = _cpu_and_dev(on_dev, lambda: train(opt_cls))
        for c, d in zip(cpu, dev):
            np.testing.assert_allclose(d, c, rtol=1e-5, atol=1e-6)
        assert cpu[0][-1] < cpu[0][0]


# ------------------------------------------------------------------------------------------
# The GPU-only code paths, run against a CuPy stand-in (tests/support/fake_cupy)
# ------------------------------------------------------------------------------------------

def _with_fake_cupy(args, timeout=300):
    import os
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "tests" / "support" / "fake_cupy"),
                                                       str(ROOT)]))
    env.pop("MINITAPE_TEST_BACKEND", None)
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                          cwd=str(ROOT), timeout=timeout)


def test_gpu_tests_and_benchmark_run_against_a_cupy_stand_in():
    """What runs only when CuPy imports: device("/GPU:0"), GPU device names, test_gpu.py and
    benchmarks/gpu.py; here against fake_cupy (the strict backend behind CuPy's names)."""
    r = _with_fake_cupy(["-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                         "tests/minitape/test_gpu.py"])
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "6 passed" in r.stdout
    r = _with_fake_cupy(["benchmarks/gpu.py", "--quick", "--batch", "64", "--hidden", "64"])
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    out = r.stdout
    assert out.startswith("GPU: minitape fake GPU (strict CPU backend) (CuPy 0.0-fake")
    for row in ("mlp 64x64 float32, minitape", "mlp 64x64 float32, by hand (NumPy / CuPy)",
                "chain, 200 scalar ops: minitape, per op", "minitape / by hand, mlp: GPU"):
        assert row in out, out


def test_gpu_benchmark_without_a_gpu_says_why():
    r = run_python("""
        import runpy, sys
        sys.modules["cupy"] = None
        sys.argv = ["benchmarks/gpu.py", "--quick"]
        runpy.run_path("benchmarks/gpu.py", run_name="__main__")
    """)
    assert r.returncode == 1
    assert "no GPU to measure" in r.stderr and "pip install cupy-cuda12x" in r.stderr


def test_soft_placement_off_raises_at_the_first_operation_not_on_entering():
    # TensorFlow 2.21: an empty block, or one with Python only, runs; each operation placed
    # in it (a constant, a Variable, an op on tensors made outside) raises; a CPU block inside
    # runs; after the block, operations run as before
    r = run_python("""
        import sys
        sys.modules["cupy"] = None
        import minitape as tf
        tf.config.set_soft_device_placement(False)
        x = tf.constant([1.0, 2.0])
        with tf.device("/GPU:0"):
            n = 1 + 2
        steps = []
        for make in (lambda: tf.constant(1.0), lambda: tf.Variable(1.0),
                     lambda: tf.reduce_sum(x), lambda: x * 2.0, lambda: tf.zeros([2])):
            try:
                with tf.device("/GPU:0"):
                    steps.append("entered")
                    make()
                    steps.append("ran")
            except tf.errors.InvalidArgumentError:
                steps.append("raised")
        with tf.device("/GPU:0"):
            with tf.device("/CPU:0"):
                y = tf.constant(1.0) + 1
        print(n, steps.count("entered"), steps.count("raised"), steps.count("ran"), float(y),
              float(tf.reduce_sum(x * 2.0)))
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["3", "5", "5", "0", "2.0", "6.0"]
