"""Record TensorFlow's results for the random differential programs (``programs.py``).

Run with a Python that has TensorFlow (2.21, CPU) installed; minitape's tests never import it:

    python benchmarks/tfdiff/record_programs.py            # writes the fixture, prints agreement
    python benchmarks/tfdiff/record_programs.py --check    # only compare minitape with the fixture

It generates programs for seeds 0, 1, 2, ... runs each under TensorFlow, keeps those whose values
are all finite (a program that raises is kept: its exception is compared), until ``--count``
programs are kept, and writes ``tests/minitape/fixtures/tfdiff_programs.json`` (source text and
TF's encoded results). Then it replays every program under minitape and prints how many agree
and the differences of the others; ``tests/minitape/test_tfdiff_programs.py`` does the same
comparison in the test suite.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
# the checkout (minitape, and the comparer in tests/support); this script's own folder
# (programs.py, guide_cells.py) is on sys.path already, as for any script
sys.path.insert(0, str(ROOT))

import programs  # noqa: E402
from tests.support import tfdiff  # noqa: E402

FIXTURE = tfdiff.FIXTURES / "tfdiff_programs.json"


def _finite(enc):
    k = enc["kind"]
    if k in ("tensor", "ndarray"):
        return all(v not in ("nan", "inf", "-inf") for v in enc["value"])
    if k == "list":
        return all(_finite(e) for e in enc["items"])
    if k == "dict":
        return all(_finite(e) for e in enc["items"].values())
    return True


def record(count: int) -> dict:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow as tf
    kept, seed = [], 0
    while len(kept) < count:
        src = programs.generate(seed)
        result = tfdiff.run_program(tf, src)
        if _finite({"kind": "list", "items": result}):
            kept.append({"seed": seed, "src": src, "tf": result})
        seed += 1
    return {"tensorflow": tf.__version__, "generator": "benchmarks/tfdiff/programs.py",
            "programs": kept}


def dump(data: dict) -> str:
    """JSON with one program a line, so that a re-recording shows as a readable diff."""
    head = {k: v for k, v in data.items() if k != "programs"}
    lines = [json.dumps(p, separators=(",", ":")) for p in data["programs"]]
    return (json.dumps(head)[:-1] + ', "programs": [\n' + ",\n".join(lines) + "\n]}\n")


def check(data: dict) -> int:
    import minitape
    drift = [p["seed"] for p in data["programs"] if programs.generate(p["seed"]) != p["src"]]
    if drift:
        print(f"note: programs.py now generates other text for {len(drift)} recorded seeds "
              f"(e.g. {drift[:3]}); re-record to test the generator as it is")
    agree = 0
    for p in data["programs"]:
        diffs = tfdiff.compare_runs(p["tf"], tfdiff.run_program(minitape, p["src"]))
        if diffs:
            print(f"--- seed {p['seed']}:\n" + "\n".join("  " + d for d in diffs))
        else:
            agree += 1
    print(f"minitape agrees with TensorFlow {data['tensorflow']} on {agree} of "
          f"{len(data['programs'])} programs")
    return agree


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=360)
    ap.add_argument("--check", action="store_true", help="compare only, do not record")
    args = ap.parse_args()
    if args.check:
        data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    else:
        data = record(args.count)
        FIXTURE.parent.mkdir(exist_ok=True)
        FIXTURE.write_text(dump(data), encoding="utf-8")
        print(f"recorded {len(data['programs'])} programs with TensorFlow {data['tensorflow']}")
    check(data)


if __name__ == "__main__":
    main()
