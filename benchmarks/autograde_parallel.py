"""Parallel autograde vs serial `nbgrader autograde`, on the same generated class.

    python benchmarks/autograde_parallel.py                 # 60 students, --jobs 2
    python benchmarks/autograde_parallel.py --students 20 --jobs 2 4

Builds an nbgrader course from lesson 1 (English), releases it, writes N submissions (a mix of
correct, wrong, partly right, hard-coded, noisy, untouched answers and one that kills its
kernel), then grades identical copies of the class with `nbgrader autograde` (serial) and
`python -m grader autograde-all --jobs J`, checks that the gradebooks agree row for row, and
prints a table: wall time, students per second, speedup, and the CPU time the graders and
their kernels used, as a share of what the cores could give (CPU-bound when near 100 %).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "grader"))

from course_fixture import (HARD_CODED, KILLS_KERNEL, LESSON, NOISY, PARTLY_RIGHT, WRONG,  # noqa: E402
                            env, make_course, nbgrader, released, reference_solutions, submit,
                            with_answers)

ASSIGNMENT = f"{LESSON}-en"


def build_class(root: Path, students: int) -> Path:
    course = make_course(root, langs=("en",), timeout=60)
    nbgrader(course, "generate_assignment", ASSIGNMENT)
    sol, rel = reference_solutions(course, ASSIGNMENT), released(course, ASSIGNMENT)
    kinds = [sol, WRONG, {**sol, **PARTLY_RIGHT}, {**sol, **HARD_CODED}, {**sol, **NOISY}, {}]
    for i in range(students):
        answers = {**sol, **KILLS_KERNEL} if i == students // 2 else kinds[i % len(kinds)]
        submit(course, f"student{i:03d}", ASSIGNMENT, with_answers(rel, answers),
               "2030-01-01 10:00:00 UTC")
    return course


def timed(cmd: list[str], cwd: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and all its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env(), capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def gradebook_rows(course: Path, students: list[str]) -> dict:
    from grader.parallel import read_rows

    url = f"sqlite:///{course / 'gradebook.db'}"
    return {s: read_rows(url, ASSIGNMENT, s) for s in students}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=60)
    parser.add_argument("--jobs", type=int, nargs="+", default=[2])
    parser.add_argument("--keep", metavar="DIR", help="build the courses here and keep them")
    args = parser.parse_args()

    work = Path(args.keep or tempfile.mkdtemp(prefix="autograde-bench-"))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"building a class of {args.students} submissions of {ASSIGNMENT} in {work} ...", flush=True)
    base = build_class(work / "base", args.students)
    students = sorted(p.name for p in (base / "submitted").iterdir())

    runs = [("nbgrader autograde (serial)", 1, [sys.executable, "-m", "nbgrader", "autograde", ASSIGNMENT])]
    for jobs in args.jobs:
        runs.append((f"grader autograde-all -j {jobs}", jobs,
                     [sys.executable, "-m", "grader", "autograde-all", ASSIGNMENT, "--jobs", str(jobs),
                      "--quiet"]))
    results = []
    reference = None
    for name, jobs, cmd in runs:
        course = work / f"run-{len(results)}"
        shutil.copytree(base, course)
        load = os.getloadavg()[0]
        print(f"running: {name} ...", flush=True)
        wall, cpu = timed(cmd, course)
        rows = gradebook_rows(course, students)
        if reference is None:
            reference = rows
        same = rows == reference
        results.append((name, jobs, wall, cpu, load, same))

    serial_wall = results[0][2]
    print()
    print(f"{args.students} submissions of {ASSIGNMENT}, {cores} CPU cores available, "
          f"load average before each run shown")
    head = ("run", "wall s", "students/s", "speedup", "CPU s", "CPU use", "load", "gradebook")
    lines = [head]
    for name, jobs, wall, cpu, load, same in results:
        lines.append((name, f"{wall:.1f}", f"{args.students / wall:.2f}", f"{serial_wall / wall:.2f}x",
                      f"{cpu:.0f}", f"{100 * cpu / (wall * min(cores, max(jobs, 1)) ):.0f}% of {min(cores, jobs)}",
                      f"{load:.1f}", "reference" if jobs == 1 else ("same" if same else "DIFFERENT")))
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    for line in lines:
        print("  ".join(c.ljust(w) for c, w in zip(line, widths)))
    print()
    print("CPU s counts the graders and their kernels; 'CPU use' is that over wall time x the "
          "cores the run could use. Near 100 % the run is CPU-bound: each submission costs a "
          "kernel start, the lesson's imports and cells, and nbgrader's own conversion, so "
          "throughput scales with cores until they are all busy.")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if all(r[5] for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
