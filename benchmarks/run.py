#!/usr/bin/env python
"""minitape side by side with NumPy by hand, HIPS autograd, PyTorch (CPU) and TensorFlow (CPU).

One command, one process, one table per workload::

    python benchmarks/run.py             # the full run (a few minutes on 2 cores)
    python benchmarks/run.py --quick     # smoke run: every workload, few repetitions
    python benchmarks/run.py --markdown  # the same tables in Markdown (for the README)

Each framework is included when it can be imported and skipped with a note otherwise.
Times are medians over repetitions; "ratio" is a framework's median divided by minitape's
(2.0x = twice as slow as minitape, 0.5x = twice as fast).

Fairness rules
--------------
* Single-threaded everywhere: OMP/OpenBLAS/MKL/BLIS/vecLib/NumExpr thread counts are set to 1
  in the environment *before* any framework is imported; ``torch.set_num_threads(1)``;
  TensorFlow's intra- and inter-op pools are set to 1 thread.
* Identical math and dtypes: every implementation computes the same function with the same
  dtype (float64 for the scalar workloads, float32 for the MLP) and the results are checked
  against each other before anything is timed.
* Each gradient is computed the way that framework's users write it: ``tf.GradientTape`` for
  minitape and TensorFlow, ``torch.autograd.grad`` for PyTorch, ``autograd.grad`` for HIPS
  autograd, and the chain rule written out for NumPy by hand.
* Warm-up before timing; every repetition recomputes the forward pass and the gradient from
  the inputs (no result is cached between repetitions; what the engines cache for everyone,
  such as minitape's and TensorFlow's conversion of a Python float constant to a tensor, stays
  cached, as it would in a learner's loop); repetitions of the frameworks are
  interleaved in rounds so that a slow period of the machine hits all of them alike; the
  garbage collector stays on (what a learner's notebook gets).

Workloads
---------
chain
    ``y = sin(y * 1.0001 + 0.1) * 0.9`` repeated 50 times on a float64 scalar: 200 *primitive*
    operations (multiply, add, sin, multiply; a Python constant is not an operation), recorded
    and differentiated.  Reported: (forward + backward time) / 200, i.e. per primitive op.
mlp
    ``mean((relu(X @ W1) @ W2 - Y) ** 2)``, X (256, 512), W1 (512, 512), W2 (512, 1),
    Y (256, 1), float32, no biases; gradients of W1 and W2.  Floor: the same gradients by hand
    in NumPy (5 matrix products, 1 mask).
hessian
    d2f/dx2 of ``f`` = 5 x ``y = sin(y * 1.3 + 0.2) * y`` (20 primitive operations) on a float64
    scalar, through two nested tapes (``create_graph=True`` in PyTorch, ``grad(grad(f))`` in
    autograd).  NumPy by hand propagates (value, first, second derivative) forward.
jacobian
    ``J = d y / d x`` of ``y = sin(tanh(W x)) * tanh(W x)``, x of size n = 10, 100, 1000, W
    (n, n), float32: minitape's and TensorFlow's ``tape.jacobian`` (vectorized: one backward
    pass with a batch of seeds; pfor in TensorFlow), PyTorch's ``torch.func.jacrev`` and JAX's
    ``jax.jacrev`` (both vmap; JAX eagerly, as the others, and also under ``jax.jit``, compiled
    once before timing), and the NumPy floor ``diag(d) W`` by hand.  Batch row:
    ``batch_jacobian`` of the same function applied to each row of X (32, 100)
    (``vmap(jacrev)`` in PyTorch and JAX).
import
    wall time of a fresh ``python -c "import X"`` (median of several runs, after one untimed run
    that lets Python write its bytecode cache, as an installed package has), the bare
    interpreter's start-up for reference, and the peak resident memory after the import.
memory
    Peak of Python's ``tracemalloc`` (NumPy reports its array buffers to it) above what is
    allocated before the gradient is computed (inputs and parameters are excluded; the
    gradients returned are included).  PyTorch and TensorFlow allocate outside tracemalloc's
    view, so they have no memory figures.

    * mlp: one gradient of the mlp workload, against the NumPy floor (the by-hand function
      used for timing).
    * relu/tanh chain: 1,000 steps (relu at even steps, tanh at odd ones) on a 1,000,000-element
      float32 vector, ``reduce_sum`` of the result, gradient w.r.t. the input, non-persistent
      tape.  **Strictly needed** is defined as what any reverse-mode implementation must hold
      at the start of its backward pass, the moment of its peak: for every relu a boolean mask
      of its input's sign (1 byte per element, NumPy's smallest addressable element), for
      every tanh its float32 output (4 bytes per element; the gradient 1 - y**2 needs it), plus
      two float32 gradient buffers (the incoming gradient and the one being produced):
      n * (500 * 1 + 500 * 4 + 2 * 4) bytes.  The forward values themselves (each step's
      output) are not needed beyond what the residuals above contain, and temporaries of
      the VJP formulas are not counted (a fused kernel would not need them).
"""
from __future__ import annotations

import os

# --- single-threaded everything, before any numerical library is imported -------------------
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS",
             "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS", "TF_NUM_INTRAOP_THREADS",
             "TF_NUM_INTEROP_THREADS"):
    os.environ[_var] = "1"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # TensorFlow's start-up chatter
# JAX (XLA on the CPU): one thread, and no accelerator search
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false "
                      "intra_op_parallelism_threads=1")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import argparse
import datetime
import gc
import importlib
import json
import platform
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _results import add_write_option, written_to  # noqa: E402
import time
import tracemalloc
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402

import minitape  # noqa: E402

# ------------------------------------------------------------------------------------------
# Frameworks
# ------------------------------------------------------------------------------------------

FRAMEWORKS = ["NumPy by hand", "minitape", "autograd", "PyTorch", "TensorFlow", "JAX",
              "JAX (jit)"]
NOTES: list[str] = []
MODULES: dict[str, object] = {"NumPy by hand": np, "minitape": minitape}
VERSIONS: dict[str, str] = {"NumPy": np.__version__, "minitape": minitape.__version__}


def load_frameworks(skip):
    """Import the optional frameworks; a missing one becomes a note, not an error."""
    if "autograd" not in skip:
        try:
            import autograd
            import autograd.numpy  # noqa: F401
            from importlib.metadata import version
            MODULES["autograd"] = autograd
            VERSIONS["autograd"] = version("autograd")
        except Exception as e:  # noqa: BLE001
            NOTES.append(f"autograd skipped: cannot import it ({type(e).__name__}: {e})")
    if "torch" not in skip:
        try:
            import torch
            torch.set_num_threads(1)
            try:
                torch.set_num_interop_threads(1)
            except RuntimeError:
                pass
            MODULES["PyTorch"] = torch
            VERSIONS["PyTorch"] = torch.__version__
        except Exception as e:  # noqa: BLE001
            NOTES.append(f"PyTorch skipped: cannot import torch ({type(e).__name__}: {e})")
    if "tensorflow" not in skip:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                import tensorflow as tf
            tf.config.threading.set_intra_op_parallelism_threads(1)
            tf.config.threading.set_inter_op_parallelism_threads(1)
            tf.get_logger().setLevel("ERROR")
            MODULES["TensorFlow"] = tf
            VERSIONS["TensorFlow"] = tf.__version__
        except Exception as e:  # noqa: BLE001
            NOTES.append("TensorFlow skipped: cannot import tensorflow "
                         f"({type(e).__name__}: {e}); `pip install tensorflow-cpu` adds it")
    if "jax" not in skip:
        try:
            import jax
            MODULES["JAX"] = jax
            VERSIONS["JAX"] = jax.__version__
        except Exception as e:  # noqa: BLE001
            NOTES.append(f"JAX skipped: cannot import jax ({type(e).__name__}: {e}); "
                         "`pip install jax` adds it (jacobian workload only)")
    for name in FRAMEWORKS:
        if name == "JAX (jit)":
            continue
        if name not in MODULES and not any(n.startswith(name) for n in NOTES):
            NOTES.append(f"{name} skipped (--skip)")


def available(names=FRAMEWORKS):
    return [n for n in names if n in MODULES]


# ------------------------------------------------------------------------------------------
# Timing
# ------------------------------------------------------------------------------------------

class Config:
    rounds = 7             # interleaved rounds
    round_s = 0.25         # target time per framework per round
    warmup_s = 0.3
    max_reps = 400
    import_runs = 15       # timed runs of each import command (PyTorch, TensorFlow: 5)
    chain_n = 1_000_000    # elements of the relu/tanh memory chain


def _warm(fn, seconds):
    n, t0 = 0, time.perf_counter()
    while n < 3 or time.perf_counter() - t0 < seconds:
        fn()
        n += 1
    return (time.perf_counter() - t0) / n


def time_interleaved(fns, cfg):
    """Median seconds per call of each zero-argument callable, interleaved in rounds."""
    est = {name: _warm(fn, cfg.warmup_s) for name, fn in fns.items()}
    times = {name: [] for name in fns}
    perf = time.perf_counter
    for _ in range(cfg.rounds):
        for name, fn in fns.items():
            reps = max(1, min(cfg.max_reps, int(cfg.round_s / max(est[name], 1e-9))))
            ts = times[name]
            gc.collect()
            for _ in range(reps):
                t0 = perf()
                fn()
                ts.append(perf() - t0)
    out = {}
    for name, ts in times.items():
        q = statistics.quantiles(ts, n=4) if len(ts) >= 2 else [ts[0]] * 3
        out[name] = {"median": statistics.median(ts), "q1": q[0], "q3": q[2], "n": len(ts)}
    return out


# ------------------------------------------------------------------------------------------
# Workload 1: chain of scalar operations
# ------------------------------------------------------------------------------------------

# The workload's constants and its NumPy and minitape implementations live in one place,
# benchmarks/chain_workload.py, which benchmarks/pyodide_chain.py also runs inside Pyodide.
from chain_workload import A, B_, C, CHAIN_LINES, CHAIN_OPS, X0  # noqa: E402
from chain_workload import minitape_chain, numpy_hand  # noqa: E402


def chain_impls():
    impls = {"NumPy by hand": numpy_hand, "minitape": minitape_chain(minitape)}

    if "autograd" in MODULES:
        import autograd
        import autograd.numpy as anp

        def f(x):
            y = x
            for _ in range(CHAIN_LINES):
                y = anp.sin(y * A + B_) * C
            return y
        df = autograd.grad(f)
        impls["autograd"] = lambda: float(df(X0))

    if "PyTorch" in MODULES:
        torch = MODULES["PyTorch"]
        xt = torch.tensor(X0, dtype=torch.float64, requires_grad=True)

        def torch_chain():
            y = xt
            for _ in range(CHAIN_LINES):
                y = torch.sin(y * A + B_) * C
            (g,) = torch.autograd.grad(y, xt)
            return float(g)
        impls["PyTorch"] = torch_chain

    if "TensorFlow" in MODULES:
        tf = MODULES["TensorFlow"]
        xtf = tf.Variable(X0, dtype=tf.float64)

        def tf_chain():
            with tf.GradientTape() as tape:
                y = xtf
                for _ in range(CHAIN_LINES):
                    y = tf.sin(y * A + B_) * C
            return float(tape.gradient(y, xtf))
        impls["TensorFlow"] = tf_chain
    return impls


# ------------------------------------------------------------------------------------------
# Workload 2: MLP gradient
# ------------------------------------------------------------------------------------------

BATCH, IN, HIDDEN, OUT = 256, 512, 512, 1


def mlp_data():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((BATCH, IN), dtype=np.float32)
    W1 = rng.standard_normal((IN, HIDDEN), dtype=np.float32) / np.float32(np.sqrt(IN))
    W2 = rng.standard_normal((HIDDEN, OUT), dtype=np.float32) / np.float32(np.sqrt(HIDDEN))
    Y = rng.standard_normal((BATCH, OUT), dtype=np.float32)
    return X, W1, W2, Y


def mlp_numpy_hand(X, W1, W2, Y):
    """The floor: forward and both weight gradients written out in NumPy."""
    Z = X @ W1
    H = np.maximum(Z, np.float32(0))
    P = H @ W2
    D = P - Y
    loss = np.mean(D * D)
    dP = D * np.float32(2.0 / D.size)
    dW2 = H.T @ dP
    dH = dP @ W2.T
    dZ = dH * (Z > 0)
    dW1 = X.T @ dZ
    return loss, dW1, dW2


def mlp_impls():
    X, W1, W2, Y = mlp_data()
    impls = {"NumPy by hand": lambda: mlp_numpy_hand(X, W1, W2, Y)[1:]}

    mt = minitape
    Xm, Ym = mt.constant(X), mt.constant(Y)
    W1m, W2m = mt.Variable(W1), mt.Variable(W2)

    def mt_mlp():
        with mt.GradientTape() as tape:
            h = mt.nn.relu(mt.matmul(Xm, W1m))
            loss = mt.reduce_mean(mt.square(mt.matmul(h, W2m) - Ym))
        return tuple(tape.gradient(loss, [W1m, W2m]))
    impls["minitape"] = mt_mlp

    if "autograd" in MODULES:
        import autograd
        import autograd.numpy as anp

        def loss_fn(params):
            w1, w2 = params
            h = anp.maximum(anp.dot(X, w1), np.float32(0))
            return anp.mean(anp.square(anp.dot(h, w2) - Y))
        dloss = autograd.grad(loss_fn)
        impls["autograd"] = lambda: tuple(dloss([W1, W2]))

    if "PyTorch" in MODULES:
        torch = MODULES["PyTorch"]
        Xt, Yt = torch.from_numpy(X), torch.from_numpy(Y)
        W1t = torch.from_numpy(W1.copy()).requires_grad_()
        W2t = torch.from_numpy(W2.copy()).requires_grad_()

        def torch_mlp():
            h = torch.relu(Xt @ W1t)
            loss = torch.mean(torch.square(h @ W2t - Yt))
            return torch.autograd.grad(loss, [W1t, W2t])
        impls["PyTorch"] = torch_mlp

    if "TensorFlow" in MODULES:
        tf = MODULES["TensorFlow"]
        Xf, Yf = tf.constant(X), tf.constant(Y)
        W1f, W2f = tf.Variable(W1), tf.Variable(W2)

        def tf_mlp():
            with tf.GradientTape() as tape:
                h = tf.nn.relu(tf.matmul(Xf, W1f))
                loss = tf.reduce_mean(tf.square(tf.matmul(h, W2f) - Yf))
            return tuple(tape.gradient(loss, [W1f, W2f]))
        impls["TensorFlow"] = tf_mlp
    return impls


# ------------------------------------------------------------------------------------------
# Workload 3: second derivative through nested tapes
# ------------------------------------------------------------------------------------------

H_LINES = 5               # 4 primitive ops per line: 20 operations
H_A, H_B, H_X0 = 1.3, 0.2, 0.8


def hessian_impls():
    impls = {}

    def numpy_hand():
        # (value, d/dx, d2/dx2) carried forward through each primitive
        v, d, dd = np.float64(H_X0), np.float64(1.0), np.float64(0.0)
        for _ in range(H_LINES):
            u, du, ddu = v * H_A, d * H_A, dd * H_A
            u = u + H_B
            s, c = np.sin(u), np.cos(u)
            sv, sd, sdd = s, c * du, c * ddu - s * du * du
            v, d, dd = sv * v, sd * v + sv * d, sdd * v + 2.0 * sd * d + sv * dd
        return float(dd)
    impls["NumPy by hand"] = numpy_hand

    mt = minitape
    xm = mt.Variable(H_X0, dtype=mt.float64)

    def mt_hess():
        with mt.GradientTape() as t2:
            with mt.GradientTape() as t1:
                y = xm
                for _ in range(H_LINES):
                    y = mt.sin(y * H_A + H_B) * y
            dy = t1.gradient(y, xm)
        return float(t2.gradient(dy, xm))
    impls["minitape"] = mt_hess

    if "autograd" in MODULES:
        import autograd
        import autograd.numpy as anp

        def f(x):
            y = x
            for _ in range(H_LINES):
                y = anp.sin(y * H_A + H_B) * y
            return y
        d2f = autograd.grad(autograd.grad(f))
        impls["autograd"] = lambda: float(d2f(H_X0))

    if "PyTorch" in MODULES:
        torch = MODULES["PyTorch"]
        xt = torch.tensor(H_X0, dtype=torch.float64, requires_grad=True)

        def torch_hess():
            y = xt
            for _ in range(H_LINES):
                y = torch.sin(y * H_A + H_B) * y
            (g,) = torch.autograd.grad(y, xt, create_graph=True)
            (h,) = torch.autograd.grad(g, xt)
            return float(h)
        impls["PyTorch"] = torch_hess

    if "TensorFlow" in MODULES:
        tf = MODULES["TensorFlow"]
        xtf = tf.Variable(H_X0, dtype=tf.float64)

        def tf_hess():
            with tf.GradientTape() as t2:
                with tf.GradientTape() as t1:
                    y = xtf
                    for _ in range(H_LINES):
                        y = tf.sin(y * H_A + H_B) * y
                dy = t1.gradient(y, xtf)
            return float(t2.gradient(dy, xtf))
        impls["TensorFlow"] = tf_hess
    return impls


# ------------------------------------------------------------------------------------------
# Workload 3b: Jacobians (vectorized)
# ------------------------------------------------------------------------------------------

JAC_SIZES = (10, 100, 1000)
JAC_BATCH = (32, 100)  # batch_jacobian: 32 examples of size 100


def jac_data(n):
    rng = np.random.default_rng(n)
    W = (rng.standard_normal((n, n)) / np.sqrt(n)).astype(np.float32)
    x = rng.standard_normal(n).astype(np.float32)
    return W, x


def jacobian_impls(n, batch=None):
    """Implementations of J = dy/dx for y = sin(tanh(W x)) * tanh(W x); with ``batch``,
    per-example Jacobians of each row of X (batch, n): (batch, n, n)."""
    W, x = jac_data(n)
    if batch is not None:
        x = np.random.default_rng(batch).standard_normal((batch, n)).astype(np.float32)
    impls = {}

    def numpy_hand():
        t = np.tanh(x @ W.T)
        d = (np.cos(t) * t + np.sin(t)) * (1 - t * t)
        return d[..., :, None] * W  # diag(d) W (per example with a batch)
    impls["NumPy by hand"] = numpy_hand

    mt = minitape
    Wm, xm = mt.constant(W), mt.constant(x)

    def mt_jac():
        with mt.GradientTape() as tape:
            tape.watch(xm)
            t = mt.tanh(mt.matmul(xm, Wm, transpose_b=True) if batch else mt.linalg.matvec(Wm, xm))
            y = mt.sin(t) * t
        return (tape.batch_jacobian(y, xm) if batch else tape.jacobian(y, xm)).numpy()
    impls["minitape"] = mt_jac

    if "PyTorch" in MODULES:
        torch = MODULES["PyTorch"]
        Wt, xt = torch.from_numpy(W), torch.from_numpy(x)

        def f(v):
            t = torch.tanh(Wt @ v)
            return torch.sin(t) * t
        jf = torch.func.jacrev(f)
        if batch:
            jf = torch.func.vmap(jf)
        impls["PyTorch"] = lambda: jf(xt).numpy()

    if "TensorFlow" in MODULES:
        tf = MODULES["TensorFlow"]
        Wtf, xtf = tf.constant(W), tf.constant(x)

        def tf_jac():
            with tf.GradientTape() as tape:
                tape.watch(xtf)
                t = tf.tanh(tf.matmul(xtf, Wtf, transpose_b=True) if batch
                            else tf.linalg.matvec(Wtf, xtf))
                y = tf.sin(t) * t
            return (tape.batch_jacobian(y, xtf) if batch else tape.jacobian(y, xtf)).numpy()
        impls["TensorFlow"] = tf_jac

    if "JAX" in MODULES:
        jax = MODULES["JAX"]
        jnp = jax.numpy
        Wj, xj = jnp.asarray(W), jnp.asarray(x)

        def fj(v):
            t = jnp.tanh(Wj @ v)
            return jnp.sin(t) * t
        jj = jax.jacrev(fj)
        if batch:
            jj = jax.vmap(jj)
        jit = jax.jit(jj)
        jit(xj).block_until_ready()  # compiled once, before timing
        impls["JAX"] = lambda: np.asarray(jj(xj))
        impls["JAX (jit)"] = lambda: np.asarray(jit(xj))
    return impls


# ------------------------------------------------------------------------------------------
# Agreement checks (identical math)
# ------------------------------------------------------------------------------------------

def check_agreement(title, impls, rtol):
    # (the timed functions return each framework's own tensors: converting them is not timed)
    results = {name: fn() for name, fn in impls.items()}
    ref = results["NumPy by hand"]
    for name, r in results.items():
        a = r if isinstance(r, tuple) else (r,)
        b = ref if isinstance(ref, tuple) else (ref,)
        for x, y in zip(a, b):
            x, y = np.asarray(x), np.asarray(y)
            if x.shape != y.shape:
                raise SystemExit(f"{title}: {name} gives shape {x.shape}, NumPy by hand {y.shape}")
            err = float(np.linalg.norm((x - y).astype(np.float64)) /
                        (np.linalg.norm(y.astype(np.float64)) or 1.0))
            if err > rtol:
                raise SystemExit(f"{title}: {name} disagrees with NumPy by hand "
                                 f"(relative error {err:.2e} > {rtol:g})")
            if name != "autograd" and x.dtype != y.dtype:
                raise SystemExit(f"{title}: {name} returns {x.dtype}, NumPy by hand {y.dtype}")


# ------------------------------------------------------------------------------------------
# Workload 4: import time
# ------------------------------------------------------------------------------------------

def _child_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode cache
    return env


def _peak_rss_mb(stmt, env):
    """Peak resident memory (MB) of a fresh interpreter running ``stmt``; NaN without /proc."""
    # /proc's VmHWM: a child's ru_maxrss would include its parent's RSS before exec
    try:
        out = subprocess.run(
            [sys.executable, "-c", stmt + "; print(next(l.split()[1] for l in "
             "open('/proc/self/status') if l.startswith('VmHWM')))"],
            env=env, check=True, capture_output=True, text=True).stdout.split()[-1]
        return int(out) / 1024
    except (subprocess.CalledProcessError, IndexError, ValueError):
        return float("nan")


def import_bench(cfg):
    """Fresh interpreters, interleaved in rounds (a busy moment hits every import alike)."""
    rows = {"python (no import)": "pass", "NumPy": "import numpy", "minitape": "import minitape"}
    if "autograd" in MODULES:
        rows["autograd"] = "import autograd"
    if "PyTorch" in MODULES:
        rows["PyTorch"] = "import torch"
    if "TensorFlow" in MODULES:
        rows["TensorFlow"] = "import tensorflow"
    env = _child_env()
    for stmt in rows.values():  # writes the bytecode caches, warms the file cache
        subprocess.run([sys.executable, "-c", stmt], env=env, check=True, capture_output=True)
    heavy = {"PyTorch", "TensorFlow"}
    times = {name: [] for name in rows}
    for r in range(cfg.import_runs):
        for name, stmt in rows.items():
            if name in heavy and r >= max(1, cfg.import_runs // 3):
                continue  # a few runs of the multi-second imports are enough
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", stmt], env=env, check=True, capture_output=True)
            times[name].append(time.perf_counter() - t0)
    return {name: {"median": statistics.median(ts), "min": min(ts), "max": max(ts), "n": len(ts),
                   "rss_mb": _peak_rss_mb(rows[name], env)} for name, ts in times.items()}


# ------------------------------------------------------------------------------------------
# Workload 5: memory
# ------------------------------------------------------------------------------------------

def traced_peak(fn):
    """Peak bytes allocated (tracemalloc) while ``fn()`` runs, above what existed before."""
    fn()  # warm-up: lazily created module state is not counted
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        r = fn()
        peak = tracemalloc.get_traced_memory()[1]
        del r
    finally:
        tracemalloc.stop()
    return peak - base


def memory_mlp():
    impls = mlp_impls()
    return {name: traced_peak(impls[name]) for name in ("NumPy by hand", "minitape", "autograd")
            if name in impls}


CHAIN_STEPS = 1000


def memory_chain(n):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(n, dtype=np.float32)
    out = {}

    def numpy_hand():
        y = x
        res = []
        for i in range(CHAIN_STEPS):
            if i % 2 == 0:
                res.append(y > 0)
                y = np.maximum(y, np.float32(0))
            else:
                y = np.tanh(y)
                res.append(y)
        loss = y.sum()
        del y
        g = np.ones_like(x)
        for i in range(CHAIN_STEPS - 1, -1, -1):
            r = res.pop()
            g = g * r if i % 2 == 0 else g * (np.float32(1) - r * r)
            del r
        return loss, g

    mt = minitape
    xm = mt.Variable(x)

    def mt_chain():
        with mt.GradientTape() as tape:
            y = xm
            for i in range(CHAIN_STEPS):
                y = mt.nn.relu(y) if i % 2 == 0 else mt.tanh(y)
            loss = mt.reduce_sum(y)
        return tape.gradient(loss, xm)

    impls = {"NumPy by hand": numpy_hand, "minitape": mt_chain}
    if "autograd" in MODULES:
        import autograd
        import autograd.numpy as anp

        def f(v):
            y = v
            for i in range(CHAIN_STEPS):
                y = anp.maximum(y, np.float32(0)) if i % 2 == 0 else anp.tanh(y)
            return anp.sum(y)
        df = autograd.grad(f)
        impls["autograd"] = lambda: df(x)
    g_ref = numpy_hand()[1]
    g_mt = mt_chain().numpy()
    if not np.allclose(g_ref, g_mt, rtol=1e-5, atol=1e-6):
        raise SystemExit("memory chain: minitape's gradient disagrees with NumPy by hand")
    del g_ref, g_mt
    for name, fn in impls.items():
        out[name] = traced_peak(fn)
        gc.collect()
    strictly = n * ((CHAIN_STEPS // 2) * 1 + (CHAIN_STEPS // 2) * 4 + 2 * 4)
    return out, strictly


# ------------------------------------------------------------------------------------------
# Report
# ------------------------------------------------------------------------------------------

class Report:
    def __init__(self, markdown):
        self.md = markdown
        self.lines = []

    def p(self, s=""):
        print(s)

    def table(self, title, header, rows):
        if self.md:
            self.p(f"**{title}**")
            self.p()
            self.p("| " + " | ".join(header) + " |")
            self.p("|" + "|".join(" --- " if i == 0 else " ---: " for i in range(len(header))) + "|")
            for r in rows:
                self.p("| " + " | ".join(r) + " |")
            self.p()
        else:
            self.p(title)
            widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
            fmt = "  " + "  ".join(f"{{:<{w}}}" if i == 0 else f"{{:>{w}}}"
                                   for i, w in enumerate(widths))
            self.p(fmt.format(*header))
            self.p("  " + "  ".join("-" * w for w in widths))
            for r in rows:
                self.p(fmt.format(*r))
            self.p()


def fmt_time(s, unit):
    if unit == "us":
        return f"{s * 1e6:.2f} µs"
    if unit == "ms":
        return f"{s * 1e3:.3f} ms" if s < 0.01 else f"{s * 1e3:.2f} ms"
    return f"{s:.3f} s"


def timing_rows(res, scale, unit):
    ref = res["minitape"]["median"]
    rows = []
    for name in FRAMEWORKS:
        if name not in res:
            continue
        r = res[name]
        spread = (r["q3"] - r["q1"]) / 2 / r["median"] * 100
        rows.append([name, fmt_time(r["median"] * scale, unit), f"±{spread:.0f}%", str(r["n"]),
                     f"{r['median'] / ref:.2f}x"])
    return rows


def mib(b):
    return f"{b / 2**20:.1f} MiB"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="smoke run: few repetitions, small arrays")
    ap.add_argument("--markdown", action="store_true", help="print the tables in Markdown")
    ap.add_argument("--only", default="chain,mlp,hessian,jacobian,import,memory",
                    help="comma-separated workloads (default: all)")
    ap.add_argument("--skip", default="", help="comma-separated frameworks to leave out "
                    "(autograd, torch, tensorflow, jax)")
    ap.add_argument("--json", metavar="FILE", help="also write the raw results to FILE")
    add_write_option(ap, 'run')
    args = ap.parse_args(argv)
    if args.write:
        args.markdown = True
    with written_to(args.write, 'minitape benchmarks (benchmarks/run.py)', markdown=True):
        return _main(args)


def _main(args):
    cfg = Config()
    if args.quick:
        cfg.rounds, cfg.round_s, cfg.warmup_s, cfg.max_reps = 2, 0.03, 0.02, 20
        cfg.import_runs, cfg.chain_n = 1, 20_000
    only = set(args.only.split(","))
    load_frameworks(set(filter(None, args.skip.split(","))))

    rep = Report(args.markdown)
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    rep.p(f"minitape benchmarks, {datetime.date.today().isoformat()}"
          f"{' (--quick: smoke run, not for comparison)' if args.quick else ''}")
    rep.p(f"machine: {cpu}, {os.cpu_count()} cores; Python {platform.python_version()}; "
          "single-threaded BLAS and frameworks")
    rep.p("versions: " + ", ".join(f"{k} {v}" for k, v in VERSIONS.items()))
    for n in NOTES:
        rep.p(f"note: {n}")
    rep.p("ratio = framework's median / minitape's median (above 1x: slower than minitape); "
          "± = half the interquartile range; n = timed repetitions")
    rep.p()
    results = {"date": datetime.date.today().isoformat(), "versions": VERSIONS, "notes": NOTES}
    targets = []

    if "chain" in only:
        impls = chain_impls()
        check_agreement("chain", impls, 1e-12)
        res = time_interleaved(impls, cfg)
        results["chain"] = res
        rep.table(f"chain: {CHAIN_LINES} x `y = sin(y * 1.0001 + 0.1) * 0.9` = {CHAIN_OPS} primitive "
                  "ops on a float64 scalar; time per primitive op, forward + backward",
                  ["implementation", "per op", "±", "n", "ratio"],
                  timing_rows(res, 1 / CHAIN_OPS, "us"))
        per_op = res["minitape"]["median"] / CHAIN_OPS
        targets.append(("chain <= 5 µs per primitive op", per_op <= 5e-6, f"{per_op * 1e6:.2f} µs"))
        for name, k in (("PyTorch", 2), ("autograd", 4)):
            if name in res:
                r = res[name]["median"] / res["minitape"]["median"]
                targets.append((f"chain >= {k}x faster than {name}", r >= k, f"{r:.2f}x"))
        if "PyTorch" in res:  # issue 42: at most 0.3x PyTorch's time per op
            r = res["minitape"]["median"] / res["PyTorch"]["median"]
            targets.append(("chain <= 0.3x PyTorch's time", r <= 0.3, f"{r:.2f}x"))

    if "mlp" in only:
        impls = mlp_impls()
        # float32: a relu mask may flip where X @ W1 rounds differently across BLAS libraries
        check_agreement("mlp", impls, 1e-2)
        res = time_interleaved(impls, cfg)
        results["mlp"] = res
        rep.table(f"mlp: loss = `mean((relu(X @ W1) @ W2 - Y) ** 2)`, X ({BATCH}, {IN}), hidden {HIDDEN}, "
                  f"output {OUT}, float32; gradients of W1 and W2",
                  ["implementation", "median", "±", "n", "ratio"], timing_rows(res, 1, "ms"))
        r = res["minitape"]["median"] / res["NumPy by hand"]["median"]
        targets.append(("mlp <= 1.05x NumPy by hand", r <= 1.05, f"{r:.3f}x"))

    if "hessian" in only:
        impls = hessian_impls()
        check_agreement("hessian", impls, 1e-10)
        res = time_interleaved(impls, cfg)
        results["hessian"] = res
        rep.table(f"hessian: d2f/dx2 through two nested tapes, f = {H_LINES} x "
                  "`y = sin(y * 1.3 + 0.2) * y` (20 primitive ops), float64 scalar",
                  ["implementation", "median", "±", "n", "ratio"], timing_rows(res, 1, "ms"))
        t = res["minitape"]["median"]
        targets.append(("hessian <= 0.5 ms", t <= 0.5e-3, f"{t * 1e3:.3f} ms"))

    if "jacobian" in only:
        cols = [(f"n = {n}", n, None) for n in JAC_SIZES]
        cols.append((f"batch_jacobian {JAC_BATCH[0]} x {JAC_BATCH[1]}", JAC_BATCH[1],
                     JAC_BATCH[0]))
        table = {}
        results["jacobian"] = {}
        for label, n, batch in cols:
            impls = jacobian_impls(n, batch)
            check_agreement(f"jacobian {label}", impls, 1e-4)
            res = time_interleaved(impls, cfg)
            results["jacobian"][label] = res
            table[label] = res
        names = [n for n in FRAMEWORKS if any(n in r for r in table.values())]
        rows = []
        for name in names:
            row = [name]
            for label, _, _ in cols:
                r = table[label]
                if name not in r:
                    row.append("-")
                    continue
                ratio = r[name]["median"] / r["minitape"]["median"]
                row.append(f"{fmt_time(r[name]['median'], 'ms')} ({ratio:.2f}x)")
            rows.append(row)
        for missing in ("PyTorch", "TensorFlow", "JAX"):
            if missing not in names:
                why = ("skipped" if f"{missing} skipped (--skip)" in NOTES else "not installed")
                rows.append([missing] + [why] * len(cols))
        rep.table("jacobian: J = dy/dx, y = `sin(tanh(W x)) * tanh(W x)`, float32, median time "
                  "(ratio to minitape)", ["implementation"] + [c[0] for c in cols], rows)
        for label, n, batch in cols:
            r = table[label]
            if "PyTorch" in r and batch is None and n >= 100:
                k = r["PyTorch"]["median"] / r["minitape"]["median"]
                targets.append((f"jacobian n={n} >= 2x faster than PyTorch jacrev", k >= 2,
                                f"{k:.2f}x"))
            if "PyTorch" in r and batch is not None:  # issue 42
                k = r["PyTorch"]["median"] / r["minitape"]["median"]
                targets.append((f"{label}: PyTorch vmap(jacrev) >= 2x slower", k >= 2,
                                f"{k:.2f}x"))
            if "JAX (jit)" in r and batch is None and n in (100, 1000):  # issue 42
                k = r["minitape"]["median"] / r["JAX (jit)"]["median"]
                limit = 2 if n == 100 else 1
                targets.append((f"jacobian n={n} <= {limit}x JAX (jit)'s time", k <= limit,
                                f"{k:.2f}x"))
        r = table[cols[0][0]]
        eager = [p for p in ("PyTorch", "TensorFlow", "JAX") if p in r]
        if eager:
            k = min(r[p]["median"] for p in eager) / r["minitape"]["median"]
            targets.append((f"jacobian n={JAC_SIZES[0]} faster than every peer "
                            f"({', '.join(eager)})", k > 1, f"{k:.2f}x"))

    if "import" in only:
        res = import_bench(cfg)
        results["import"] = res
        ref = res["minitape"]["median"]
        rows = [[f"`python -c \"{'pass' if n.startswith('python') else 'import ' + ('torch' if n == 'PyTorch' else n.lower())}\"`"
                 if args.markdown else n,
                 f"{r['median']:.3f} s", f"{r['min']:.3f}-{r['max']:.3f} s", str(r["n"]),
                 f"{r['median'] / ref:.2f}x", f"{r['rss_mb']:.0f} MB"] for n, r in res.items()]
        rep.table("import: wall time of a fresh `python -c \"import X\"` (interpreter start-up "
                  "included) and peak resident memory",
                  ["command" if args.markdown else "import", "median", "range", "n", "ratio",
                   "peak RSS"], rows)
        targets.append(("import <= 0.3 s", ref <= 0.3, f"{ref:.3f} s (bare interpreter "
                        f"{res['python (no import)']['median']:.3f} s, NumPy "
                        f"{res['NumPy']['median']:.3f} s)"))
        k = ref / res["NumPy"]["median"]  # issue 42
        targets.append(("import <= 1.2x `import numpy`", k <= 1.2, f"{k:.2f}x"))

    if "memory" in only:
        mm = memory_mlp()
        cm, strictly = memory_chain(cfg.chain_n)
        results["memory"] = {"mlp": mm, "chain": cm, "chain_strictly_needed": strictly,
                             "chain_n": cfg.chain_n}
        floor = mm["NumPy by hand"]
        rows = [[n, mib(b), f"{b / floor:.2f}x"] for n, b in mm.items()]
        rep.table("memory, mlp gradient: tracemalloc peak above inputs and parameters",
                  ["implementation", "peak", "vs NumPy by hand"], rows)
        rows = [["strictly needed (see docstring)", mib(strictly), "1.00x"]]
        rows += [[n, mib(b), f"{b / strictly:.2f}x"] for n, b in cm.items()]
        rep.table(f"memory, relu/tanh chain: {CHAIN_STEPS} steps on {cfg.chain_n:,} float32 "
                  "elements, non-persistent tape, gradient w.r.t. the input",
                  ["implementation", "peak", "vs strictly needed"], rows)
        r1 = mm["minitape"] / floor
        r2 = cm["minitape"] / strictly
        targets.append(("memory: mlp peak <= 1.3x NumPy floor", r1 <= 1.3, f"{r1:.2f}x"))
        targets.append(("memory: relu/tanh chain peak <= 1.5x strictly needed", r2 <= 1.5,
                        f"{r2:.2f}x"))
        rep.p("PyTorch and TensorFlow allocate outside tracemalloc's view: no memory figures.")
        rep.p()

    if targets:
        rep.table("targets (issues 3 and 42)", ["target", "met", "minitape"],
                  [[t, "yes" if ok else "NO", v] for t, ok, v in targets])
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
