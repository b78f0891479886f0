"""benchmarks/pyodide_chain.py without a browser: the notebook the site ships holds the workload's
one copy, the figures are checked, the table's ratios are what the figures say. The run inside
Pyodide itself is tests/browser/test_pyodide_chain_in_browser.py (marker `lite`)."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import statistics
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks"


def _load(name):
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


pc = _load("pyodide_chain")
cw = _load("chain_workload")


def test_the_notebook_runs_chain_workload_py_unchanged_with_the_parameters_cell_set(tmp_path):
    path = pc.write_notebook(tmp_path / "chain.ipynb")
    nb = json.loads(path.read_text(encoding="utf-8"))
    assert nb["nbformat"] == 4 and [c["cell_type"] for c in nb["cells"]] == ["markdown", "code", "code", "code"]
    full, quick = pc.code_cells(nb, False), pc.code_cells(nb, True)
    assert full[0] == "QUICK = False" and quick[0] == "QUICK = True"
    assert full[1] == (BENCH / "chain_workload.py").read_text(encoding="utf-8").rstrip("\n")
    assert full[1:] == quick[1:] and "measure(quick=QUICK)" in full[2]
    # the cells, run in order in one namespace, do what the kernel does (here in CPython)
    ns: dict = {}
    for code in quick:
        exec(compile(code, "<cell>", "exec"), ns)
    res = ns["chain_result"]
    assert res["quick"] is True and res["implementation"] == "CPython"
    assert set(res["implementations"]) == {"NumPy by hand", "minitape"}


def test_run_py_takes_the_chain_from_the_one_workload_file():
    saved = os.environ.copy()
    try:
        run = _load("run")  # it sets the BLAS thread counts in os.environ: put them back after
        impls = run.chain_impls()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    assert impls["NumPy by hand"].__module__ == "chain_workload"
    assert impls["NumPy by hand"] is sys.modules["chain_workload"].numpy_hand
    assert impls["minitape"].__qualname__ == "minitape_chain.<locals>.chain"
    assert impls["minitape"].__module__ == "chain_workload"
    assert run.CHAIN_OPS == cw.CHAIN_OPS == 200


def test_measure_quick_gives_finite_positive_figures_and_matching_gradients():
    res = cw.measure(quick=True)
    for r in res["implementations"].values():
        assert 0 < r["best_us"] <= r["q1_us"] <= r["per_op_us"] <= r["q3_us"] < math.inf
        assert r["rounds"] == len(r["batches_us"]) == 5 and r["batch"] >= 1
        assert r["per_op_us"] == statistics.median(r["batches_us"]) and r["best_us"] == min(r["batches_us"])
    g = res["implementations"]["minitape"]["gradient"]
    assert g == pytest.approx(cw.numpy_hand(), rel=1e-12) and g != 0
    assert res["overhead"] == pytest.approx(res["implementations"]["minitape"]["per_op_us"]
                                            / res["implementations"]["NumPy by hand"]["per_op_us"])


def test_measure_refuses_a_wrong_gradient(monkeypatch):
    monkeypatch.setattr(cw, "implementations", lambda: {"NumPy by hand": cw.numpy_hand,
                                                         "minitape": lambda: cw.numpy_hand() * (1 + 1e-9)})
    with pytest.raises(AssertionError, match="differs from the chain rule by hand"):
        cw.measure(quick=True)


def _result(tape_us, floor_us, grad, python="3.11.2", platform="linux"):
    def impl(us, g):
        batches = [us * 0.8, us * 0.9, us, us * 1.1, us * 1.2]
        return {"per_op_us": us, "q1_us": us * 0.85, "q3_us": us * 1.15, "best_us": us * 0.8, "rounds": 5,
                "batches_us": batches, "batch": 10, "gradient": g}
    return {"implementations": {"NumPy by hand": impl(floor_us, grad), "minitape": impl(tape_us, grad)},
            "overhead": tape_us / floor_us, "python": python, "platform": platform, "numpy": "2.x",
            "implementation": "CPython", "minitape": "0.1.0", "ops": 200, "quick": True}


def test_table_ratios_and_each_side_pooled_over_its_measurements():
    g = cw.numpy_hand()
    # CPython's batches pooled over two measurements: minitape 3.2 3.6 4 4.4 4.8 and 4.8 5.4 6 6.6 7.2
    cpython = pc.combine([_result(4.0, 0.3, g), _result(6.0, 0.5, g)])
    c = cpython["implementations"]
    assert c["minitape"]["per_op_us"] == pytest.approx(4.8) and c["minitape"]["best_us"] == pytest.approx(3.2)
    assert c["minitape"]["rounds"] == 10 and len(c["minitape"]["batches_us"]) == 10
    assert c["NumPy by hand"]["per_op_us"] == pytest.approx(0.38)
    assert cpython["overhead"] == pytest.approx(4.8 / 0.38) and cpython["segments"] == [4.0, 6.0]
    pyodide = dict(pc.combine([_result(15.0, 1.6, g, python="3.12.7", platform="emscripten")]), pyodide="0.27.7")
    assert pyodide["implementations"]["minitape"]["per_op_us"] == 15.0
    rows = pc.table(cpython, pyodide)
    assert rows[0].startswith("| µs per primitive op") and "Pyodide 0.27.7 kernel (Python 3.12.7)" in rows[0]
    assert rows[2] == "| minitape: chain recorded + gradient | 4.800 | 15.000 | 3.12x |"
    assert rows[3] == "| NumPy by hand (floor) | 0.380 | 1.600 | 4.21x |"
    assert rows[4] == "| minitape / NumPy by hand (the tape's overhead) | 12.6x | 9.4x | |"
    # fastest batch: the minimum over all of a side's batches
    assert rows[5] == "| minitape, fastest batch | 3.200 | 12.000 | 3.75x |"
    assert rows[6] == "| NumPy by hand, fastest batch | 0.240 | 1.280 | 5.33x |"
    assert pc.problems(cpython, pyodide) == []


def test_problems_names_bad_figures_and_gradients_that_disagree():
    g = cw.numpy_hand()
    cpython = _result(4.0, 0.3, g)
    assert pc.problems(cpython, _result(float("nan"), 0.3, g)) == [
        f"Pyodide minitape {key} = nan (not finite and positive)" for key in ("per_op_us", "q1_us", "q3_us", "best_us")]
    assert pc.problems(cpython, _result(4.0, -0.3, g))[0] == "Pyodide NumPy by hand per_op_us = -0.3 (not finite and positive)"
    off = _result(4.0, 0.3, g)
    off["implementations"]["minitape"]["gradient"] = g * (1 + 1e-9)
    (p,) = pc.problems(cpython, off)
    assert p.startswith("Pyodide minitape: dy/dx =") and "CPython's NumPy by hand gives" in p


def test_a_site_without_the_notebook_or_with_an_old_one_is_refused(tmp_path):
    assert "make lite" in pc.stale(tmp_path)
    path = pc.write_notebook(tmp_path / "files" / pc.NOTEBOOK)
    assert pc.stale(tmp_path) is None
    nb = json.loads(path.read_text(encoding="utf-8"))
    nb["cells"][2]["source"] = ["X0 = 0.25\n"]
    path.write_text(json.dumps(nb), encoding="utf-8")
    assert "older than benchmarks/chain_workload.py" in pc.stale(tmp_path)


def test_make_lite_ships_the_notebook_and_rebuilds_when_the_workload_changes(tmp_path):
    spec = importlib.util.spec_from_file_location("minitape_lite_build_for_chain", ROOT / "lite" / "build.py")
    lite_build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lite_build)
    assert set(lite_build.CHAIN_BENCHMARK_SOURCES) == {BENCH / "chain_workload.py", BENCH / "pyodide_chain.py"}
    lite_build.stage_chain_benchmark(tmp_path)
    shipped = json.loads((tmp_path / "benchmarks" / "chain.ipynb").read_text(encoding="utf-8"))
    assert pc.code_cells(shipped, False) == pc.code_cells(pc.notebook(), False)
    # the build's cache key covers both files: an edited workload makes `make lite` rebuild
    key = lite_build.input_key()
    edited = ROOT / "build" / "test-chain-workload.py"  # inside the repo: the key names paths relative to it
    edited.parent.mkdir(exist_ok=True)
    try:
        edited.write_text((BENCH / "chain_workload.py").read_text(encoding="utf-8") + "\n# edited\n")
        lite_build.CHAIN_BENCHMARK_SOURCES = (edited, BENCH / "pyodide_chain.py")
        assert lite_build.input_key() != key
    finally:
        edited.unlink()
