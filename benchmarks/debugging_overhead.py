"""What the teaching instruments (minitape.debugging) cost: the engine's hot path, side by side.

    python benchmarks/debugging_overhead.py            # 300 interleaved rounds
    python benchmarks/debugging_overhead.py --rounds 600

The engine carries a few hooks for ``minitape.debugging``: notes taken off the hot path
(NumPy escapes, assignments, cut paths), Variable operators that remember their result came
from a Variable, and what a non-persistent ``gradient`` keeps for ``why_none`` (the ``on_step``
checks in ``backward`` are woven into its fast path and are not stripped).  This script copies ``minitape/`` twice into a temporary
directory, strips those hooks from one copy ("plain"), imports both in one process and times
them interleaved (mean of the fastest 10 % of the rounds, so background load cancels out).
It then times the instruments themselves.
"""
from __future__ import annotations

import argparse
import gc
import importlib
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# (backward's ``on_step is None`` checks are part of its fast path's structure and stay.)
_TAPE_HOOKS = [
    (r"\n        skeleton = None\n        if consume and self\._notes is not None:\n[^\n]*\n", "\n"),
    (r"self\._release\(_Spent\(skeleton, [^\n]*\n[^\n]*\)\)", "self._release()"),
]


def _strip(pkg: Path) -> list[str]:
    """Remove the debugging hooks from a copy of minitape; return what could not be found."""
    missing = []
    tensor = (pkg / "_tensor.py").read_text()
    tensor, n1 = re.subn(r"\n        if _tapes:[^\n]*\n            _trace\.note_escape\(self, _tapes\)", "", tensor)
    tensor, n2 = re.subn(r"\n        if _tapes:\n            _trace\.note_assign\([^\n]*\)", "", tensor)
    (pkg / "_tensor.py").write_text(tensor)
    core = (pkg / "_core.py").read_text()
    core, n3 = re.subn(r"return _trace\.note_cut\(prim, inputs, out, _tapes\)[^\n]*", "return", core)
    if not (n1 and n2 and n3):
        missing.append("_tensor.py/_core.py hooks")
    (pkg / "_core.py").write_text(core)
    operators = pkg / "_ops" / "operators.py"
    ops = operators.read_text()
    if "_trace.install_variable_operators(Variable, Tensor)" not in ops:
        missing.append("_ops/operators.py Variable operators")
    operators.write_text(ops.replace("_trace.install_variable_operators(Variable, Tensor)", ""))
    tape = (pkg / "_tape.py").read_text()
    for pat, rep in _TAPE_HOOKS:
        tape, n = re.subn(pat, rep, tape)
        if not n:
            missing.append(f"_tape.py: {pat[:40]}")
    (pkg / "_tape.py").write_text(tape)
    return missing


def _chain(tf, persistent):
    def run():
        x = tf.Variable(1.0)
        with tf.GradientTape(persistent=persistent) as tape:
            y = x
            for _ in range(200):
                y = y * 1.001 + 0.001
        return tape.gradient(y, x)
    return run


def _forward(tf):
    def run():
        x = tf.Variable(1.0)
        with tf.GradientTape():
            y = x
            for _ in range(200):
                y = y * 1.001 + 0.001
        return y
    return run


def _variable_operand(tf):
    def run():
        x = tf.Variable(1.0)
        with tf.GradientTape():
            for _ in range(200):
                y = x * 1.001
        return y
    return run


def _mlp(tf):
    tf.random.set_seed(0)
    l1, l2 = tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(1)
    x = tf.random.normal((8, 4))

    def run():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((l2(l1(x)) - 1.0) ** 2)
        return tape.gradient(loss, l1.trainable_variables + l2.trainable_variables)
    return run


def _time_pair(fa, fb, rounds):
    fa(), fb()
    ta, tb = [], []
    for r in range(rounds):
        order = ((fa, ta), (fb, tb)) if r % 2 == 0 else ((fb, tb), (fa, ta))
        for f, acc in order:
            t = time.perf_counter()
            f()
            acc.append(time.perf_counter() - t)
    k = max(rounds // 10, 1)
    return sum(sorted(ta)[:k]) / k, sum(sorted(tb)[:k]) / k


def _time(f, rounds):
    f()
    ts = []
    for _ in range(rounds):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    k = max(rounds // 10, 1)
    return sum(sorted(ts)[:k]) / k


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=300)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="mt-dbg-bench-"))
    try:
        shutil.copytree(REPO / "minitape", tmp / "mt_plain")
        shutil.copytree(REPO / "minitape", tmp / "mt_instrumented")
        missing = _strip(tmp / "mt_plain")
        if missing:
            print("cannot build the uninstrumented copy (the engine changed): " + "; ".join(missing))
            return 1
        sys.path.insert(0, str(tmp))
        plain = importlib.import_module("mt_plain")
        inst = importlib.import_module("mt_instrumented")
        gc.disable()
        print(f"{'engine benchmark':34s} {'plain us':>9s} {'instrumented us':>16s} {'ratio':>7s}")
        rows = [("200-op chain, gradient", _chain(plain, False), _chain(inst, False)),
                ("200-op chain, persistent tape", _chain(plain, True), _chain(inst, True)),
                ("200-op chain, forward only", _forward(plain), _forward(inst)),
                ("200 ops on a Variable operand", _variable_operand(plain), _variable_operand(inst)),
                ("2-layer MLP step (8x4 -> 16 -> 1)", _mlp(plain), _mlp(inst))]
        for name, fa, fb in rows:
            a, b = _time_pair(fa, fb, args.rounds)
            print(f"{name:34s} {a * 1e6:9.0f} {b * 1e6:16.0f} {b / a:7.3f}")
        gc.enable()
        tf = inst
        dbg = importlib.import_module("mt_instrumented.debugging")
        x = tf.Variable(0.5)
        with tf.GradientTape(persistent=True) as tape:
            y = x
            for _ in range(25):
                y = tf.sin(y) * 1.1
        print()
        print(f"{'instrument (50-op tape)':34s} {'ms':>9s}")
        for name, f in [("draw(tape).svg", lambda: dbg.draw(tape).svg),
                        ("str(draw(tape))", lambda: str(dbg.draw(tape))),
                        ("stepper(tape, y, x)", lambda: dbg.stepper(tape, y, x)),
                        ("why_none(tape, y, x)", lambda: dbg.why_none(tape, y, x))]:
            print(f"{name:34s} {_time(f, 30) * 1e3:9.2f}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
