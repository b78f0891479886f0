"""The chain workload: one place for its code, run by CPython and by Pyodide alike.

``y = sin(y * 1.0001 + 0.1) * 0.9`` repeated 50 times on a float64 scalar: 200 primitive
operations (multiply, add, sin, multiply), recorded on a ``GradientTape`` and differentiated;
the floor is the same forward pass and chain rule written by hand in NumPy. The figure is time
per primitive op, forward + backward.

Who uses this file:

* ``benchmarks/run.py`` (its ``chain`` table, beside autograd, PyTorch and TensorFlow) takes
  ``numpy_hand`` and ``minitape_chain`` from here;
* ``benchmarks/pyodide_chain.py`` runs ``measure()`` here in CPython and, through the notebook
  ``benchmarks/chain.ipynb`` of the JupyterLite site (``make lite`` puts this file's text in it,
  unchanged), inside the site's Pyodide kernel, and prints the two side by side.

It needs only NumPy and minitape (no third-party timing tool), so it runs as it is in both.

Timing: each repetition times a *batch* of calls together and divides. In the browser,
``time.perf_counter`` is ``performance.now()``, which Chromium coarsens to 100 µs on a page
that is not cross-origin isolated (a JupyterLite site is not); a chain gradient takes a few
hundred µs there, so one call per timing would be mostly clock noise. A batch lasts at least
``batch_s`` (20 ms quick, 100 ms full; its size is found after the warm-up as timeit's
autorange finds it), which puts that error under 0.5 % (0.1 %). The two
implementations alternate batch by batch in rounds after a warm-up, so a slow moment of a
shared machine hits both alike; the figure is the median over the rounds, per op, and the
fastest batch is kept too (the one a loaded machine disturbed least).
"""

import gc
import platform
import statistics
import sys
import time

import numpy as np

import minitape

CHAIN_LINES = 50          # each line is 4 primitive ops: multiply, add, sin, multiply
CHAIN_OPS = 4 * CHAIN_LINES
A, B_, C = 1.0001, 0.1, 0.9
X0 = 0.5
GRADIENT_RTOL = 1e-12     # minitape's gradient against the chain rule by hand, float64


def numpy_hand():
    """The floor: the forward pass, then the chain rule written out, in NumPy float64."""
    y = np.float64(X0)
    us = []
    for _ in range(CHAIN_LINES):
        u = y * A + B_
        us.append(u)
        y = np.sin(u) * C
    g = np.float64(1.0)
    for u in reversed(us):
        g = g * C
        g = g * np.cos(u)
        g = g * A
    return float(g)


def minitape_chain(tf=minitape):
    """A zero-argument function: the chain recorded on a GradientTape, and its gradient."""
    x = tf.Variable(X0, dtype=tf.float64)

    def chain():
        with tf.GradientTape() as tape:
            y = x
            for _ in range(CHAIN_LINES):
                y = tf.sin(y * A + B_) * C
        return float(tape.gradient(y, x))
    return chain


def implementations():
    """{name: zero-argument function returning dy/dx}: the floor first."""
    return {"NumPy by hand": numpy_hand, "minitape": minitape_chain()}


def _warm(fn, seconds):
    n, t0 = 0, time.perf_counter()
    while n < 3 or time.perf_counter() - t0 < seconds:
        fn()
        n += 1


def _batch_size(fn, seconds):
    """The first of 1, 2, 5, 10, 20, 50, ... calls that last at least `seconds` together (as
    timeit's autorange): measured on the clock itself, after the warm-up, so neither a slow
    first call nor a coarse clock makes the batches too short."""
    n = 1
    while True:
        for k in (1, 2, 5):
            t0 = time.perf_counter()
            for _ in range(n * k):
                fn()
            if time.perf_counter() - t0 >= seconds:
                return n * k
        n *= 10


def measure(quick=False):
    """Gradients checked, then seconds per call of each implementation, in a dict that
    json.dumps takes: per-op medians and quartiles in µs, the gradients, and where it ran."""
    rounds, batch_s, warmup_s = (5, 0.02, 0.1) if quick else (15, 0.1, 0.5)
    fns = implementations()
    gradients = {name: fn() for name, fn in fns.items()}
    floor = gradients["NumPy by hand"]
    if not abs(gradients["minitape"] - floor) <= GRADIENT_RTOL * abs(floor):
        raise AssertionError(f"chain: minitape's gradient {gradients['minitape']!r} differs from "
                             f"the chain rule by hand {floor!r} (rtol {GRADIENT_RTOL})")
    for fn in fns.values():
        _warm(fn, warmup_s)
    batch = {name: _batch_size(fn, batch_s) for name, fn in fns.items()}
    per_call = {name: [] for name in fns}
    perf = time.perf_counter
    for _ in range(rounds):
        for name, fn in fns.items():
            n = batch[name]
            gc.collect()
            t0 = perf()
            for _ in range(n):
                fn()
            per_call[name].append((perf() - t0) / n)
    result = {name: dict(summarize([t / CHAIN_OPS * 1e6 for t in ts]), batch=batch[name],
                         gradient=gradients[name]) for name, ts in per_call.items()}
    return {"implementations": result, "ops": CHAIN_OPS, "quick": bool(quick),
            "overhead": result["minitape"]["per_op_us"] / result["NumPy by hand"]["per_op_us"],
            "python": platform.python_version(), "implementation": platform.python_implementation(),
            "platform": sys.platform, "numpy": np.__version__, "minitape": minitape.__version__}


def summarize(batches_us):
    """Median, quartiles and fastest of per-op figures (one per batch), and the figures."""
    ts = list(batches_us)
    q = statistics.quantiles(ts, n=4) if len(ts) >= 2 else [ts[0]] * 3
    return {"per_op_us": statistics.median(ts), "q1_us": q[0], "q3_us": q[2], "best_us": min(ts),
            "rounds": len(ts), "batches_us": ts}
