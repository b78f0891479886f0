#!/usr/bin/env python
"""Instructions per operation, this checkout side by side with a git revision (or several).

Wall-clock figures on a shared machine move by several percent between runs; an engine
change worth 1-3 % drowns in that.  Counted instructions do not: under Valgrind's cachegrind,
with address-space randomization off, a fixed hash seed and one BLAS thread, the same
program executes the same instructions every time.  This script runs each workload of
``benchmarks/run.py``'s hot paths (chain, hessian, the Jacobians, the MLP and its NumPy floor)
under cachegrind for
every tree, twice (with 0 and with N repetitions after the same warm-up, once bytecode caches
are written) and reports the
difference divided by the work: instructions per primitive op (chain), per Hessian, per
Jacobian.  Instructions are a proxy for time (they ignore cache misses and NumPy's vectorized
loops), so use it for Python-level overhead; confirm with ``benchmarks/run.py`` on a quiet
machine.

    python benchmarks/instructions.py --vs 58c69a3            # this checkout vs a revision
    python benchmarks/instructions.py --vs v0.1 --vs HEAD~3 -n 50

Needs ``valgrind`` and ``setarch`` (Debian: ``apt-get install valgrind``; setarch is in
util-linux).  A revision is exported with ``git archive`` into a temporary folder.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _results import add_write_option, written_to  # noqa: E402
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# One workload per hot path; each is run 20 times before counting starts.  `unit` divides
# the count: primitive ops for the chain, one for the others.
WORKLOADS = {
    "chain": (200, """
xm = mt.Variable(0.5, dtype=mt.float64)
def f():
    with mt.GradientTape() as tape:
        y = xm
        for _ in range(50):
            y = mt.sin(y * 1.0001 + 0.1) * 0.9
    return float(tape.gradient(y, xm))
"""),
    "hessian": (1, """
xm = mt.Variable(0.3, dtype=mt.float64)
def f():
    with mt.GradientTape() as t2:
        with mt.GradientTape() as t1:
            y = xm
            for _ in range(5):
                y = mt.sin(y * 1.3 + 0.2) * y
        dy = t1.gradient(y, xm)
    return float(t2.gradient(dy, xm))
"""),
    "jacobian n=10": (1, """
import numpy as np
rng = np.random.default_rng(0)
W = mt.constant(rng.standard_normal((10, 10)).astype("float32"))
x = mt.constant(rng.standard_normal((10, 1)).astype("float32"))
def f():
    with mt.GradientTape() as t:
        t.watch(x)
        h = mt.tanh(mt.matmul(W, x))
        y = mt.sin(h) * h
    return t.jacobian(y, x)
"""),
}
# benchmarks/run.py's Jacobians (issue 42) and its MLP, with the MLP's NumPy floor for scale
_JAC = """
import numpy as np
rng = np.random.default_rng(0)
n, batch = {n}, {batch}
W = mt.constant((rng.standard_normal((n, n)) / np.sqrt(n)).astype("float32"))
x = mt.constant(rng.standard_normal((batch, n) if batch else (n,)).astype("float32"))
def f():
    with mt.GradientTape() as t:
        t.watch(x)
        h = mt.tanh(mt.matmul(x, W, transpose_b=True) if batch else mt.linalg.matvec(W, x))
        y = mt.sin(h) * h
    return t.batch_jacobian(y, x) if batch else t.jacobian(y, x)
"""
WORKLOADS["jacobian n=100"] = (1, _JAC.format(n=100, batch=0))
WORKLOADS["jacobian n=1000"] = (1, _JAC.format(n=1000, batch=0))
WORKLOADS["batch_jacobian 32x100"] = (1, _JAC.format(n=100, batch=32))
_MLP = """
import numpy as np
rng = np.random.default_rng(0)
X = rng.standard_normal((256, 512), dtype=np.float32)
W1 = rng.standard_normal((512, 512), dtype=np.float32) / np.float32(np.sqrt(512))
W2 = rng.standard_normal((512, 1), dtype=np.float32) / np.float32(np.sqrt(512))
Y = rng.standard_normal((256, 1), dtype=np.float32)
"""
WORKLOADS["mlp"] = (1, _MLP + """
Xm, Ym, W1m, W2m = mt.constant(X), mt.constant(Y), mt.Variable(W1), mt.Variable(W2)
def f():
    with mt.GradientTape() as tape:
        h = mt.nn.relu(mt.matmul(Xm, W1m))
        loss = mt.reduce_mean(mt.square(mt.matmul(h, W2m) - Ym))
    return tape.gradient(loss, [W1m, W2m])
""")
WORKLOADS["mlp, NumPy by hand"] = (1, _MLP + """
def f():  # (benchmarks/run.py's floor; the same in every tree)
    Z = X @ W1
    H = np.maximum(Z, np.float32(0))
    D = H @ W2 - Y
    loss = np.mean(D * D)
    dP = D * np.float32(2.0 / D.size)
    return loss, X.T @ ((dP @ W2.T) * (Z > 0)), H.T @ dP
""")

def workload_names(text: str) -> list[str]:
    """``--only``'s workloads: commas separate them, and a comma followed by a space belongs to
    a name (``--only mlp,'mlp, NumPy by hand'``, as the help writes it)."""
    return [w.strip() for w in re.split(r",(?! )", text) if w.strip()]


DRIVER = """
import sys
import minitape as mt
{body}
for _ in range(20):
    f()
for _ in range(int(sys.argv[1])):
    f()
"""


def _fail(msg: str) -> None:
    print(f"instructions.py: {msg}", file=sys.stderr)
    raise SystemExit(2)


def export(rev: str, into: Path) -> Path:
    """``minitape/`` of git revision ``rev`` in a folder of its own."""
    out = into / rev.replace("/", "_")
    out.mkdir(parents=True)
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "minitape"],
                                 check=True, capture_output=True).stdout
    except subprocess.CalledProcessError as e:
        _fail(f"cannot export revision {rev!r}: {e.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive, check=True)
    return out


def count(tree: Path, body: str, n: int, work: Path) -> int:
    """Instructions cachegrind counts for the driver with ``n`` repetitions."""
    script = work / "driver.py"
    script.write_text(DRIVER.format(body=body))
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1",
               OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    if n == 0:  # first, once natively: Python writes the bytecode caches it would compile
        subprocess.run([sys.executable, str(script), "0"], env=env, check=False,
                       capture_output=True)
    cmd = ["setarch", "-R", "valgrind", "--tool=cachegrind", "--cache-sim=no",
           "--cachegrind-out-file=/dev/null", sys.executable, str(script), str(n)]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        _fail(f"the workload failed under valgrind in {tree}:\n{p.stderr[-2000:]}")
    for line in p.stderr.splitlines():
        if "I" in line and "refs:" in line:
            return int(line.split("refs:")[1].replace(",", "").split()[0])
    _fail(f"no instruction count in valgrind's output:\n{p.stderr[-2000:]}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--vs", action="append", default=[], metavar="REV",
                    help="a git revision to compare with (repeatable)")
    ap.add_argument("-n", type=int, default=30, help="repetitions counted (default 30)")
    ap.add_argument("--only", default=",".join(w for w in WORKLOADS if not w.startswith("mlp")),
                    help="comma-separated workloads (default: all but the MLP's two, whose "
                         "BLAS products take minutes under valgrind: --only mlp,'mlp, NumPy "
                         "by hand')")
    add_write_option(ap, 'instructions')
    args = ap.parse_args(argv)
    with written_to(args.write, 'Instruction counts (benchmarks/instructions.py)', markdown=False):
        return _main(args)


def _main(args):
    for tool in ("valgrind", "setarch"):
        if shutil.which(tool) is None:
            _fail(f"{tool} is not installed (Debian: apt-get install valgrind util-linux)")
    names = workload_names(args.only)
    unknown = [w for w in names if w not in WORKLOADS]
    if unknown:
        _fail(f"unknown workload(s) {unknown}; choose from {list(WORKLOADS)}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        trees = [(rev, export(rev, tmp)) for rev in args.vs] + [("this checkout", ROOT)]
        rows = []
        for name in names:
            unit, body = WORKLOADS[name]
            per = []
            for label, tree in trees:
                print(f"  {name}: {label} ...", file=sys.stderr, flush=True)
                base = count(tree, body, 0, tmp)
                total = count(tree, body, args.n, tmp)
                per.append((total - base) / (args.n * unit))
            rows.append((name, per))
    labels = [label for label, _ in trees]
    width = max(14, *(len(x) for x in labels))
    print(f"{'instructions per unit':<22}" + "".join(f"{x:>{width + 2}}" for x in labels)
          + "   change vs first")
    for name, per in rows:
        change = (per[-1] / per[0] - 1) * 100 if per[0] else float("nan")
        print(f"{name:<22}" + "".join(f"{v:>{width + 2},.0f}" for v in per)
              + f"   {change:+.2f} %")
    print("(chain: per primitive op; the others: per call.  Deterministic counts.)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
