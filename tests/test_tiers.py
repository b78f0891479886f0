"""The two tiers (docs/testing.md): make check leaves out what needs a kernel, a browser, an
install or the JupyterLite site, and refuses to start a kernel, so that an unmarked test fails
there instead of slowing the fast tier down; make test (CI) runs everything."""
from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _check_markers() -> str:
    (line,) = [l for l in (REPO / "Makefile").read_text(encoding="utf-8").splitlines()
               if l.startswith("CHECK_MARKERS ?=")]
    return line.split("?=", 1)[1].strip()


def test_make_check_deselects_every_marker_that_needs_more_than_python():
    expr = _check_markers()
    for marker in ("kernel", "browser", "install", "lite"):
        assert re.search(rf"\bnot {marker}\b", expr), (marker, expr)
    registered = {m.split(":")[0] for m in tomllib.loads(
        (REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]["markers"]}
    assert set(re.findall(r"not (\w+)", expr)) <= registered
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    # CI runs everything on one Python, and the fast tier only on the other supported ones
    assert re.search(r'^make test PYTHON="\$python"$', ci, re.M), ci
    assert re.search(r'^\s+make check PYTHON="\$other" VENV=', ci, re.M), ci


def test_the_fast_tier_refuses_to_start_a_kernel():
    code = ("import asyncio\n"
            "from jupyter_client.manager import AsyncKernelManager, KernelManager\n"
            "from tests.conftest import _refuse_kernels\n"
            "_refuse_kernels()\n"
            "for start in (KernelManager().start_kernel, lambda: asyncio.run(AsyncKernelManager().start_kernel())):\n"
            "    try:\n"
            "        start()\n"
            "    except RuntimeError as e:\n"
            "        print('refused:', e)\n")
    p = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.count("refused: ") == 2, p.stdout
    assert "mark it @pytest.mark.kernel" in p.stdout


def test_a_module_that_builds_a_shared_fixture_runs_on_one_worker(tmp_path):
    # two modules, one with a module-scoped fixture that records which worker built it: run on
    # two workers, it is built once, by the worker that ran every test of its module
    tests = tmp_path / "tests"
    tests.mkdir()
    (tmp_path / "conftest.py").write_text(
        "import sys\nsys.path.insert(0, %r)\nfrom tests.conftest import pytest_xdist_make_scheduler  # noqa\n"
        % str(REPO), encoding="utf-8")
    (tests / "test_a_alone.py").write_text(
        "".join(f"def test_first_{i}():\n    pass\n" for i in range(6)), encoding="utf-8")
    (tests / "test_b_shared.py").write_text(
        "import os, pytest\n"
        "@pytest.fixture(scope='module')\n"
        "def built(tmp_path_factory):\n"
        "    with open(os.environ['BUILT_LOG'], 'a') as f:\n"
        "        f.write(os.environ.get('PYTEST_XDIST_WORKER', '-') + '\\n')\n"
        "    return 1\n"
        + "".join(f"def test_uses_{i}(built):\n    assert built == 1\n" for i in range(12)),
        encoding="utf-8")
    (tests / "test_c_alone.py").write_text(
        "".join(f"def test_fast_{i}():\n    pass\n" for i in range(40)), encoding="utf-8")
    log = tmp_path / "built.log"
    p = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "-q", "-p", "no:cacheprovider",
                        "--rootdir", str(tmp_path), str(tests)], cwd=tmp_path, capture_output=True,
                       text=True, timeout=300, env={**__import__("os").environ, "BUILT_LOG": str(log)})
    assert "58 passed" in p.stdout, p.stdout + p.stderr
    assert len(log.read_text().split()) == 1  # built once, not once per worker
