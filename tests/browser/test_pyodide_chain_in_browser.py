"""The chain benchmark inside the JupyterLite site's Pyodide kernel (benchmarks/pyodide_chain.py,
quick mode): the site's notebook benchmarks/chain.ipynb runs in the browser's Python, its
figures are finite and positive, and its gradients match each other and CPython's. Needs the
built site (`make lite`); run it with `make test-lite` or `pytest -m lite`."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.lite, pytest.mark.browser, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]
SITE = REPO / "build" / "lite"
BENCH = REPO / "benchmarks"


def _load(name):
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_chain_benchmark_runs_in_the_pyodide_kernel_with_matching_gradients(browser):
    pc, cw = _load("pyodide_chain"), _load("chain_workload")
    problem = pc.stale(SITE)
    if problem:
        pytest.fail(problem)
    with pc.serve(SITE) as base:
        session = pc.PyodideSession(browser, base, SITE, timeout_s=420, log=lambda msg: None)
        try:
            pyodide = session.run(quick=True)
        finally:
            session.close()
    # it ran in the browser's Python, from the site's packages
    assert pyodide["platform"] == "emscripten" and pyodide["pyodide"] == "0.27.7"
    assert pyodide["quick"] is True and pyodide["numpy"] == "2.0.2"
    assert "tape overhead: minitape / NumPy by hand" in session.printed
    impls = pyodide["implementations"]
    assert set(impls) == {"NumPy by hand", "minitape"}
    for r in impls.values():
        assert r["rounds"] == 5 and r["batch"] >= 1
        assert 0 < r["best_us"] <= r["q1_us"] <= r["per_op_us"] <= r["q3_us"]
    cpython = cw.measure(quick=True)
    # finite, positive figures; the gradients agree inside Pyodide and with CPython's
    assert pc.problems(cpython, pyodide) == []
    assert impls["minitape"]["gradient"] == pytest.approx(cw.numpy_hand(), rel=1e-12)
    assert pyodide["overhead"] > 1  # a recorded chain costs more than the chain rule by hand
    rows = pc.table(cpython, pyodide)
    assert "Pyodide 0.27.7 kernel (Python 3.12.7)" in rows[0]
