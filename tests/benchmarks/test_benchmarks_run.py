"""benchmarks/run.py keeps working: a smoke run of every workload (no timing is asserted)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # every workload of benchmarks/run.py, quick
def test_quick_run_prints_every_table_and_the_targets(tmp_path):
    out_json = tmp_path / "results.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # PyTorch and TensorFlow are left out to keep the smoke run short (and they are not test
    # dependencies); autograd is, and is included when importable
    r = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick", "--skip",
         "torch,tensorflow,jax", "--json", str(out_json)],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    text = r.stdout
    for title in ("chain: 50 x", "mlp: loss", "hessian: d2f/dx2", "jacobian: J = dy/dx",
                  "import: wall time",
                  "memory, mlp gradient", "memory, relu/tanh chain", "targets (issues 3 and 42)",
                  "import <= 1.2x `import numpy`"):
        assert title in text, title
    assert "note: PyTorch skipped (--skip)" in text
    assert "note: TensorFlow skipped (--skip)" in text
    assert "note: JAX skipped (--skip)" in text
    assert "primitive op" in text
    for row in ("NumPy by hand", "minitape", "strictly needed"):
        assert row in text
    res = json.loads(out_json.read_text())
    for workload in ("chain", "mlp", "hessian"):
        assert res[workload]["minitape"]["median"] > 0
        assert res[workload]["NumPy by hand"]["median"] > 0
    assert set(res["jacobian"]) == {"n = 10", "n = 100", "n = 1000",
                                    "batch_jacobian 32 x 100"}
    for r in res["jacobian"].values():
        assert r["minitape"]["median"] > 0 and r["NumPy by hand"]["median"] > 0
    assert res["import"]["minitape"]["median"] > 0
    mem = res["memory"]
    assert mem["chain_strictly_needed"] == mem["chain_n"] * (500 * 1 + 500 * 4 + 2 * 4)
    assert mem["mlp"]["minitape"] > 0 and mem["chain"]["minitape"] > 0


def test_markdown_tables():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick", "--markdown",
         "--only", "hessian", "--skip", "torch,tensorflow,autograd"],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "| implementation | median | ± | n | ratio |" in r.stdout
    assert "| minitape |" in r.stdout
    assert "note: autograd skipped (--skip)" in r.stdout


def test_autograde_benchmark_plans_every_run():
    """benchmarks/autograde_parallel.py's runs: serial nbgrader (without and with the sandbox),
    parallel with fresh kernels and parallel with preloaded kernels (without and with the
    sandbox), and the Dask path on a LocalCluster (with the cluster extra); --plan names them
    without grading anything."""
    import importlib.util

    dask = importlib.util.find_spec("distributed") is not None
    r = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "autograde_parallel.py"), "--jobs", "2", "--plan"],
        capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
        timeout=120)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert r.stdout.splitlines() == [
        "nbgrader autograde (serial, no sandbox)", "nbgrader autograde (serial, sandboxed)",
        "grader autograde-all -j 2 --fresh-kernels", "grader autograde-all -j 2 --no-sandbox",
        "grader autograde-all -j 2 (sandboxed)"] + (
        ["grader autograde-all --scheduler (Dask, 2 workers)"] if dask else [])


@pytest.mark.kernel
@pytest.mark.slow
def test_autograde_benchmark_smoke_run_on_one_student():
    """The benchmark runs end to end and prints its table: a class of one student (whose answer
    kills the kernel) graded by serial nbgrader and by autograde-all, gradebooks compared
    (timings not asserted). That every contender gives the same gradebook on a larger class is
    the parallel, sandbox and cluster tests' business (tests/grader/test_grader_parallel.py,
    test_grader_sandbox.py, test_grader_cluster.py); this only keeps the script working."""
    pytest.importorskip("nbgrader")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "autograde_parallel.py"), "--students", "1",
         "--jobs", "1", "--rounds", "1", "--preloaded-only", "--no-sandbox-runs", "--no-dask"],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=900)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "gradebooks of every run identical: yes" in r.stdout
    assert "gradebook differs" not in r.stdout
    rows = [line for line in r.stdout.splitlines()
            if line.startswith(("nbgrader autograde (serial", "grader autograde-all"))]
    assert [row.split("  ")[0] for row in rows] == [
        "nbgrader autograde (serial, no sandbox)", "grader autograde-all -j 1 --no-sandbox"]
    assert all("x" in row and ("% of" in row or "n/a" in row) for row in rows)


def test_instruction_counts_refuse_unknown_workloads_and_missing_tools(tmp_path):
    """benchmarks/instructions.py fails with a one-line reason, never a traceback."""
    script = ROOT / "benchmarks" / "instructions.py"
    p = subprocess.run([sys.executable, str(script), "--only", "nope"], capture_output=True,
                       text=True, env=dict(os.environ, PATH=str(tmp_path)))
    assert p.returncode == 2
    assert "Traceback" not in p.stderr
    assert "valgrind is not installed" in p.stderr
    if shutil.which("valgrind") and shutil.which("setarch"):
        p = subprocess.run([sys.executable, str(script), "--only", "nope"], capture_output=True,
                           text=True)
        assert p.returncode == 2 and "unknown workload(s) ['nope']" in p.stderr


def test_instruction_counts_read_workload_names_with_commas_in_them():
    """--only as the help writes it: the MLP floor's name has a comma and a space in it."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("instructions_script",
                                                  ROOT / "benchmarks" / "instructions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.workload_names("mlp,mlp, NumPy by hand") == ["mlp", "mlp, NumPy by hand"]
    assert module.workload_names("chain,,jacobian n=10,") == ["chain", "jacobian n=10"]
    assert set(module.workload_names(",".join(module.WORKLOADS))) == set(module.WORKLOADS)


@pytest.mark.slow  # a whole benchmark run (valgrind for the counts)
def test_instruction_counts_of_this_checkout():
    """One workload counted for real: a table row with a positive count per primitive op."""
    if not (shutil.which("valgrind") and shutil.which("setarch")):
        import pytest
        pytest.skip("valgrind is not installed (make system-packages installs it)")
    script = ROOT / "benchmarks" / "instructions.py"
    p = subprocess.run([sys.executable, str(script), "--only", "chain", "-n", "1"],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    row = next(line for line in p.stdout.splitlines() if line.startswith("chain"))
    per_op = int(row.split()[1].replace(",", ""))
    assert 1_000 < per_op < 1_000_000  # a Python-level op: thousands of instructions
