"""The class report over a large class: 20,000 submissions of one assignment (issue 29).

    python benchmarks/class_report.py                      # 20,000 students, built in a temp dir
    python benchmarks/class_report.py --students 2000 --keep /tmp/big-class

Builds a synthetic graded class with ``tests/support/synthetic_class.py``: an nbgrader
gradebook (bulk-inserted rows, nbgrader's own schema) and one autograded notebook per student
(lesson 1's notebook, ~27 KB, with ``metadata.grader`` as the trusted side writes it: scores,
mistake patterns, issues), with a realistic mix of right answers, every mistake family, errors
and timeouts. Then it times, side by side on the same class:

* ``python -m grader report`` as an instructor runs it (a fresh process: imports included),
  which opens the gradebook once and reads each notebook's top-level ``metadata`` only;
* the same report in process (imports paid), to separate the fixed start from the reading;
* the same report reading every notebook whole (``json.loads`` of the file: what a reader
  without the fast path would pay), in process;

checks that both give the same report and that its counts are the ones the class was built
with, prints a table and writes it to ``benchmarks/results/class_report.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.support.synthetic_class import POINTS, Submission, build  # noqa: E402

FAMILIES = ["none", "shape", "sign", "scale", "partial", "swapped", "stale", "not_finite",
            "precision", "other"]
CODE = "def {f}(*args):\n    # student {s}\n    with tf.GradientTape() as tape:\n        pass\n    return None\n"
FUNCTIONS = {"l01_ex1": "derivative_at", "l01_ex2": "mse_gradients", "l01_ex3": "gradients_by_name",
             "l01_ex4": "dense_gradients"}


def make_class(n: int, seed: int = 0) -> tuple[list[Submission], dict]:
    rng = random.Random(seed)
    expected: dict = {ex: Counter() for ex in POINTS}
    subs = []
    for i in range(n):
        student = f"s{i:06d}"
        scores, patterns, issues, code = dict(POINTS), {}, [], {}
        for ex, pts in POINTS.items():
            r = rng.random()
            if r < 0.55:
                continue
            scores[ex] = rng.choice([0.0, pts / 2])
            if r < 0.95:
                family = rng.choice(FAMILIES)
                patterns[ex] = {"pattern": family, "leaves": {"": {"pattern": family}}}
                expected[ex][family] += 1
                code[FUNCTIONS[ex]] = CODE.format(f=FUNCTIONS[ex], s=student)
            elif r < 0.98:
                patterns[ex] = {"pattern": "error"}
            else:
                patterns[ex] = {"pattern": "error"}
                issues.append({"kind": "timed_out", "cell": ex, "detail": "a call ran past its time limit"})
        subs.append(Submission(student, scores, patterns, issues, code))
    return subs, expected


def run_cli(course: Path, out: Path) -> float:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "grader", "report", "01-gradients-en", "--course", str(course),
                    "--out", str(out), "--quiet"], check=True, env=env, cwd=REPO)
    return time.perf_counter() - t0


def run_in_process(course: Path, out: Path, whole: bool) -> float:
    """The report in this process (imports already paid); ``whole``: every notebook parsed
    whole (the top-level-metadata fast path switched off)."""
    from grader.autograde import class_report

    def parse_whole(path):
        try:
            with open(path, encoding="utf-8") as fh:
                return json.load(fh).get("metadata", {}).get("grader", {})
        except (OSError, ValueError):
            return None

    saved = class_report._metadata
    if whole:
        class_report._metadata = parse_whole
    try:
        t0 = time.perf_counter()
        class_report.write_report(str(course), "01-gradients-en", str(out), progress=False)
        return time.perf_counter() - t0
    finally:
        class_report._metadata = saved


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=20000)
    parser.add_argument("--keep", metavar="DIR", help="build the class here and keep it")
    parser.add_argument("--reuse", metavar="DIR", help="time an existing class built with --keep")
    args = parser.parse_args()
    tmp = None
    subs, expected = make_class(args.students)
    if args.reuse:
        course = Path(args.reuse)
        build_s = float("nan")
    else:
        if args.keep:
            course = Path(args.keep)
            if course.exists():
                shutil.rmtree(course)
        else:
            tmp = tempfile.mkdtemp(prefix="class-report-")
            course = Path(tmp) / "course"
        print(f"building a class of {args.students} submissions in {course} ...", flush=True)
        t0 = time.perf_counter()
        build(course, subs)
        build_s = time.perf_counter() - t0
        print(f"  built in {build_s:.1f} s", flush=True)
    try:
        # warm the page cache alike for both contenders: read every notebook once
        for path in (course / "autograded").glob("*/*/*.ipynb"):
            path.read_bytes()
        rows = []
        cli = run_cli(course, course / "report-cli")
        run_in_process(course, course / "report-warmup", False)  # imports, once
        fast = run_in_process(course, course / "report-fast", False)
        full = run_in_process(course, course / "report-full", True)
        reports = [json.loads((course / d / "report.json").read_text())
                   for d in ("report-cli", "report-fast", "report-full")]
        assert reports[0] == reports[1] == reports[2], "the readers disagree"
        a = reports[0]
        assert a["students"] == args.students
        for ex in POINTS:
            assert a["exercises"][ex]["patterns"] == dict(expected[ex]), ex
        rows.append(("`python -m grader report` as run by an instructor (a new process: imports included)", cli))
        rows.append(("the report in process: gradebook once, top-level metadata of each notebook", fast))
        rows.append(("the same, every notebook parsed whole", full))
        size = sum(p.stat().st_size for p in (course / "autograded").glob("*/*/*.ipynb"))
        load = os.getloadavg()
        lines = [
            f"# Class report over {args.students:,} submissions",
            "",
            f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {platform.node()} "
            f"({os.cpu_count()} CPUs, load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}); "
            f"{args.students:,} autograded notebooks, {size / 1e6:.0f} MB, page cache warm. "
            f"Building the class took {build_s:.0f} s (not part of the report).",
            "",
            "| reader | wall | per submission | target |",
            "|---|---|---|---|",
        ]
        for name, secs in rows:
            lines.append(f"| {name} | {secs:.1f} s | {secs / args.students * 1000:.2f} ms | "
                         f"{'met' if secs <= 60 else 'missed'} (<= 60 s) |")
        lines += ["", "All three give the same report.json; its pattern counts equal the ones the "
                  "class was built with."]
        text = "\n".join(lines) + "\n"
        print(text)
        results = REPO / "benchmarks" / "results"
        results.mkdir(exist_ok=True)
        (results / "class_report.md").write_text(text, encoding="utf-8")
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
