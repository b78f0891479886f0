#!/usr/bin/env python
"""minitape on an NVIDIA GPU (CuPy) against minitape on the CPU (NumPy).

    pip install -e '.[gpu]'            # CuPy for CUDA 12 (cupy-cuda12x)
    python benchmarks/gpu.py           # the full run: mlp 4096 x 4096 float32, scalar chain
    python benchmarks/gpu.py --quick   # smoke run: small sizes, few repetitions
    python benchmarks/gpu.py --markdown

Without CuPy or without a GPU it prints why and exits with status 1.

Workloads
---------
mlp
    The mlp workload of ``benchmarks/run.py`` scaled up: ``mean((relu(X @ W1) @ W2 - Y) ** 2)``
    with X (batch, hidden), W1 (hidden, hidden), W2 (hidden, 1), Y (batch, 1), float32,
    batch = hidden = 4096; gradients of W1 and W2 with ``tf.GradientTape``.  The same function
    on each device (created inside ``with minitape.device(...)``), and the same gradients
    written by hand with the device's own array module (NumPy / CuPy: 5 matrix products and
    a mask) as the floor.  CPU BLAS uses all cores (the fair comparison for a GPU).
chain
    Per-operation overhead: ``y = sin(y * 1.0001 + 0.1) * 0.9`` repeated 50 times on a float64
    scalar, 200 primitive operations recorded and differentiated; time / 200.  On a GPU every
    operation is at least one kernel launch, so this measures what a lesson cell of scalar
    operations pays there; the floor is the same chain and its derivative by hand with CuPy
    (one launch per array operation, no tape).

Every GPU repetition ends with a device synchronisation, so the times include the GPU's work,
not only the launches.  Results are checked (GPU against CPU, minitape against the floor)
before anything is timed.  Medians over repetitions, after warm-up.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

import minitape as tf  # noqa: E402
from minitape import _device  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _results import add_write_option, written_to  # noqa: E402


# ------------------------------------------------------------------------------------------
# Workloads
# ------------------------------------------------------------------------------------------

def mlp_setup(device, batch, hidden, seed=0):
    """X, Y (constants) and W1, W2 (variables) on ``device``; same numbers on every device."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, hidden), dtype=np.float32)
    y = rng.standard_normal((batch, 1), dtype=np.float32)
    w1 = (rng.standard_normal((hidden, hidden), dtype=np.float32) / np.sqrt(hidden)).astype(np.float32)
    w2 = (rng.standard_normal((hidden, 1), dtype=np.float32) / np.sqrt(hidden)).astype(np.float32)
    with tf.device(device):
        return tf.constant(x), tf.constant(y), tf.Variable(w1), tf.Variable(w2)


def mlp_minitape(X, Y, W1, W2):
    with tf.GradientTape() as tape:
        h = tf.nn.relu(tf.matmul(X, W1))
        loss = tf.reduce_mean(tf.square(tf.matmul(h, W2) - Y))
    return tape.gradient(loss, [W1, W2])


def mlp_by_hand(xp, X, Y, W1, W2):
    """The same two gradients with the array module ``xp`` directly (the floor)."""
    Z = X @ W1
    H = xp.maximum(Z, 0)
    D = H @ W2 - Y
    dP = D * np.float32(2.0 / D.size)
    gW2 = H.T @ dP
    dZ = (dP @ W2.T) * (Z > 0)
    gW1 = X.T @ dZ
    return gW1, gW2


def chain_minitape(x):
    with tf.GradientTape() as tape:
        y = x
        for _ in range(50):
            y = tf.sin(y * 1.0001 + 0.1) * 0.9
    return tape.gradient(y, x)


def chain_by_hand(xp, x):
    """Forward keeping what the derivative needs, then the chain rule backwards, with ``xp``."""
    args = []
    y = x
    for _ in range(50):
        a = y * 1.0001 + 0.1
        args.append(a)
        y = xp.sin(a) * 0.9
    g = xp.ones_like(x)
    for a in reversed(args):
        g = g * (xp.cos(a) * 0.9 * 1.0001)
    return g


# ------------------------------------------------------------------------------------------
# Timing
# ------------------------------------------------------------------------------------------

def median_time(fn, reps, warmup, sync):
    for _ in range(warmup):
        fn()
        sync()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def fmt_time(s):
    if s >= 1.0:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.1f} ms"
    return f"{s * 1e6:.1f} µs"


def host(a):
    return a.numpy() if isinstance(a, tf.Tensor) else _device._load_cupy().asnumpy(a)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, few repetitions")
    parser.add_argument("--batch", type=int, default=None, help="mlp batch (default 4096)")
    parser.add_argument("--hidden", type=int, default=None, help="mlp hidden size (default 4096)")
    parser.add_argument("--reps", type=int, default=None, help="GPU repetitions (default 20)")
    parser.add_argument("--cpu-reps", type=int, default=None, help="CPU repetitions (default 3)")
    parser.add_argument("--no-cpu", action="store_true", help="skip the (slow) CPU mlp run")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    add_write_option(parser, "gpu")
    args = parser.parse_args(argv)

    try:
        cp = _device._load_cupy()
    except RuntimeError as e:
        print(f"benchmarks/gpu.py: no GPU to measure. {e}", file=sys.stderr)
        return 1
    batch = args.batch or (256 if args.quick else 4096)
    hidden = args.hidden or (256 if args.quick else 4096)
    reps = args.reps or (3 if args.quick else 20)
    cpu_reps = args.cpu_reps or (2 if args.quick else 3)
    chain_reps = 5 if args.quick else 200
    gpu_sync = cp.cuda.Device().synchronize
    no_sync = lambda: None  # noqa: E731
    gpu = _device.gpu_name(0)

    rows = []  # (workload, cpu seconds or None, gpu seconds, unit divisor)

    # --- mlp -------------------------------------------------------------------------------
    Xg, Yg, W1g, W2g = mlp_setup("/GPU:0", batch, hidden)
    gg = mlp_minitape(Xg, Yg, W1g, W2g)
    hg = mlp_by_hand(cp, Xg._value, Yg._value, W1g._value, W2g._value)
    for a, b in zip(gg, hg):
        np.testing.assert_allclose(host(a), host(b), rtol=2e-3, atol=1e-5)
    assert all(g.device.endswith("GPU:0") for g in gg)
    t_gpu = median_time(lambda: mlp_minitape(Xg, Yg, W1g, W2g), reps, 3, gpu_sync)
    t_gpu_hand = median_time(lambda: mlp_by_hand(cp, Xg._value, Yg._value, W1g._value, W2g._value),
                             reps, 3, gpu_sync)
    t_cpu = t_cpu_hand = None
    if not args.no_cpu:
        Xc, Yc, W1c, W2c = mlp_setup("/CPU:0", batch, hidden)
        gc = mlp_minitape(Xc, Yc, W1c, W2c)
        for a, b in zip(gc, gg):  # the GPU computes the CPU's numbers
            np.testing.assert_allclose(host(b), host(a), rtol=2e-3, atol=1e-4)
        t_cpu = median_time(lambda: mlp_minitape(Xc, Yc, W1c, W2c), cpu_reps, 1, no_sync)
        t_cpu_hand = median_time(lambda: mlp_by_hand(np, Xc._value, Yc._value, W1c._value,
                                                     W2c._value), cpu_reps, 1, no_sync)
    name = f"mlp {batch}x{hidden} float32"
    rows.append((f"{name}, minitape", t_cpu, t_gpu, 1))
    rows.append((f"{name}, by hand (NumPy / CuPy)", t_cpu_hand, t_gpu_hand, 1))

    # --- chain: per-operation overhead -------------------------------------------------------
    with tf.device("/GPU:0"):
        xg = tf.Variable(0.5, dtype=tf.float64)
    with tf.device("/CPU:0"):
        xc = tf.Variable(0.5, dtype=tf.float64)
    cg, cc = chain_minitape(xg), chain_minitape(xc)
    hand = chain_by_hand(cp, cp.asarray(np.float64(0.5)))
    np.testing.assert_allclose(host(cg), host(cc), rtol=1e-12)
    np.testing.assert_allclose(host(hand), host(cc), rtol=1e-12)
    assert cg.device.endswith("GPU:0")
    t_chain_gpu = median_time(lambda: chain_minitape(xg), chain_reps, 5, gpu_sync)
    t_chain_cpu = median_time(lambda: chain_minitape(xc), chain_reps, 5, no_sync)
    x_hand_gpu = cp.asarray(np.float64(0.5))
    t_chain_hand = median_time(lambda: chain_by_hand(cp, x_hand_gpu), chain_reps, 5, gpu_sync)
    t_chain_hand_cpu = median_time(lambda: chain_by_hand(np, np.float64(0.5)), chain_reps, 5, no_sync)
    rows.append(("chain, 200 scalar ops: minitape, per op", t_chain_cpu, t_chain_gpu, 200))
    rows.append(("chain, by hand (NumPy / CuPy), per array op", t_chain_hand_cpu, t_chain_hand,
                 2 * 50 * 4))  # forward 4 ops per step, backward 4 (cos, *, *, *) per step

    # --- report ---------------------------------------------------------------------------
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    try:
        cuda_rt = cp.cuda.runtime.runtimeGetVersion()
        cuda = f"CUDA runtime {cuda_rt // 1000}.{cuda_rt % 1000 // 10}"
    except Exception:  # pragma: no cover
        cuda = "CUDA runtime ?"
    header = (f"GPU: {gpu} (CuPy {cp.__version__}, {cuda}); CPU: {platform.processor() or platform.machine()}, "
              f"{cores} cores, NumPy {np.__version__}; Python {platform.python_version()}; "
              f"{datetime.date.today().isoformat()}")
    table = [("workload", "CPU (NumPy)", f"GPU (CuPy)", "GPU speed-up")]
    for label, c, g, div in rows:
        cpu_s = "skipped" if c is None else fmt_time(c / div)
        speed = "" if c is None else f"{c / g:.1f}x"
        table.append((label, cpu_s, fmt_time(g / div), speed))
    ratio_gpu = t_gpu / t_gpu_hand
    ratio_cpu = None if t_cpu is None else t_cpu / t_cpu_hand
    notes = [f"minitape / by hand, mlp: GPU {ratio_gpu:.2f}x"
             + ("" if ratio_cpu is None else f", CPU {ratio_cpu:.2f}x"),
             f"mlp repetitions: GPU {reps}, CPU {cpu_reps}; chain repetitions {chain_reps}"]
    with written_to(args.write, "minitape on a GPU (benchmarks/gpu.py)", args.markdown):
        _report(header, table, notes, args.markdown)
    return 0


def _report(header, table, notes, markdown) -> None:
    print(header)
    if markdown:
        print()
        print("| " + " | ".join(table[0]) + " |")
        print("| --- | ---: | ---: | ---: |")
        for row in table[1:]:
            print("| " + " | ".join(row) + " |")
        print()
        for n in notes:
            print(f"- {n}")
    else:
        widths = [max(len(r[i]) for r in table) for i in range(4)]
        for k, row in enumerate(table):
            print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))))
            if k == 0:
                print("  ".join("-" * w for w in widths))
        for n in notes:
            print(n)


if __name__ == "__main__":
    sys.exit(main())
