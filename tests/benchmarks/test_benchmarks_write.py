"""Benchmark figures live in files the benchmarks write (`--write`), not in prose (issue 25)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_run_writes_its_tables_with_the_command_date_and_machine(tmp_path):
    out = tmp_path / "run.md"
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick", "--only", "hessian",
                        "--skip", "torch,tensorflow,autograd,jax", "--write", str(out)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# minitape benchmarks (benchmarks/run.py)\n")
    assert "Written by `python benchmarks/run.py --quick --only hessian" in text and " UTC, " in text
    assert "| minitape |" in text and "**hessian:" in text  # Markdown tables, as printed
    assert r.stdout.strip() in text  # the file holds what the run printed


def test_the_docs_link_files_the_scripts_write():
    docs = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    for name in ("run", "instructions", "autograde_parallel", "pyodide_chain", "gpu"):
        assert f"benchmarks/results/{name}.md" in docs
        assert (ROOT / "benchmarks" / "results" / f"{name}.md").exists()
        help_text = subprocess.run([sys.executable, str(ROOT / "benchmarks" / f"{name}.py"), "--help"],
                                   capture_output=True, text=True, timeout=120).stdout
        assert "--write" in help_text and f"benchmarks/results/{name}.md" in help_text
    # the README quotes measured figures only from a file a benchmark wrote (its Performance
    # section, from benchmarks/gpu.py --write): each one is in benchmarks/results/gpu.md
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    gpu = (ROOT / "benchmarks" / "results" / "gpu.md").read_text(encoding="utf-8")
    assert "Not edited by hand" in gpu
    quoted = re.findall(r"(\d+(?:\.\d+)?) ?(µs|ms)\b", readme)
    assert quoted, "the README's Performance section quotes the GPU figures"
    assert [q for q in quoted if f"{q[0]} {q[1]}" not in gpu] == []
