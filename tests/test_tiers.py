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
    assert "exec make test " in ci  # CI runs everything, not the fast tier


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
