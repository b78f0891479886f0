"""Record TensorFlow's output for the guide-style notebook cells (``guide_cells.py``).

Run with a Python that has TensorFlow (2.21, CPU, Keras 3) installed; the tests never import it:

    python benchmarks/tfdiff/record_guides.py           # writes the fixture, prints agreement
    python benchmarks/tfdiff/record_guides.py --check   # only compare minitape with the fixture
    python benchmarks/tfdiff/record_guides.py --only sparse_gradients   # re-record notebooks

``--only`` records the named notebooks again and keeps the others' recordings as they are.

Each notebook runs in a fresh interpreter (as a new Jupyter kernel: Keras' layer names start
again at ``dense``), once with ``import tensorflow as tf`` and once with ``import minitape as
tf``; per cell, the printed text, the warnings (TF's ``WARNING:tensorflow`` log lines and Python
warnings), the exception and the repr of the last expression are recorded into
``tests/minitape/fixtures/tfdiff_guides.json``. ``tests/minitape/test_tfdiff_guides.py`` replays
the cells under minitape and compares.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
# the checkout (minitape, and the comparer in tests/support); this script's own folder
# (programs.py, guide_cells.py) is on sys.path already, as for any script
sys.path.insert(0, str(ROOT))

import guide_cells  # noqa: E402
from tests.support import tfdiff  # noqa: E402

FIXTURE = tfdiff.FIXTURES / "tfdiff_guides.json"


def record(only=None, previous=None) -> dict:
    import subprocess
    version = subprocess.run([sys.executable, "-c", "import tensorflow as tf; print(tf.__version__)"],
                             capture_output=True, text=True, check=True,
                             env={"TF_CPP_MIN_LOG_LEVEL": "3", **__import__("os").environ}
                             ).stdout.split()[-1]
    notebooks = {}
    for name, cells in guide_cells.NOTEBOOKS.items():
        if only and name not in only and previous and name in previous["notebooks"]:
            notebooks[name] = previous["notebooks"][name]
            continue
        results = tfdiff.run_notebook_in_subprocess("tensorflow", cells)
        notebooks[name] = [{"src": c, "tf": r} for c, r in zip(cells, results)]
        print(f"recorded {name}: {len(cells)} cells", flush=True)
    return {"tensorflow": version, "cells": "benchmarks/tfdiff/guide_cells.py",
            "notebooks": notebooks}


def dump(data: dict) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def check(data: dict) -> tuple[int, int]:
    agree = total = 0
    per_notebook = []
    for name, cells in data["notebooks"].items():
        got = tfdiff.run_notebook_in_subprocess("minitape", [c["src"] for c in cells])
        ok = 0
        for i, (c, g) in enumerate(zip(cells, got)):
            total += 1
            diffs = tfdiff.compare_cell(c["tf"], g, exact=name in tfdiff.EXACT_TEXT)
            if diffs:
                print(f"--- {name}[{i}]:\n" + "\n".join("  " + d for d in diffs))
            else:
                ok += 1
        agree += ok
        per_notebook.append((name, ok, len(cells)))
    print("\n".join(f"{name:>22}: {ok:3d} of {n:3d} cells agree" for name, ok, n in per_notebook))
    print(f"minitape agrees with TensorFlow {data['tensorflow']} on {agree} of {total} cells "
          f"({100 * agree / total:.1f}%)")
    return agree, total


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare only, do not record")
    ap.add_argument("--only", nargs="+", metavar="NOTEBOOK", choices=list(guide_cells.NOTEBOOKS),
                    help="record only these notebooks again, keep the others' recordings")
    args = ap.parse_args()
    if args.check:
        data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    else:
        previous = (json.loads(FIXTURE.read_text(encoding="utf-8"))
                    if args.only and FIXTURE.exists() else None)
        data = record(args.only, previous)
        FIXTURE.write_text(dump(data), encoding="utf-8")
    check(data)


if __name__ == "__main__":
    main()
