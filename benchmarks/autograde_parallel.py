"""Parallel autograde vs serial `nbgrader autograde`, on the same generated class.

    python benchmarks/autograde_parallel.py                 # 60 students, --jobs 2, 4 rounds
    python benchmarks/autograde_parallel.py --students 20 --jobs 2 4
    python benchmarks/autograde_parallel.py --plan          # the runs it would make, and exit

Builds an nbgrader course from lesson 1 (English), releases it and writes N submissions (a mix
of correct, wrong, partly right, hard-coded, noisy and untouched answers, and one that kills its
kernel). The class is graded in rounds (a slice of the students each); in every round each
contender grades its own copy of the slice -- serial `nbgrader autograde` without the sandbox
(the baseline: nbgrader as it comes) and with it, `python -m grader autograde-all --jobs J`
with `--no-sandbox` and sandboxed (the default), and `autograde-all --scheduler` on a Dask
`LocalCluster` of J single-threaded worker processes (the cluster path: course and submissions
shipped to the workers; skipped without the `cluster` extra or with `--no-dask`; the cluster is
started once, before the rounds, as a standing cluster would be) -- in an order that rotates from round to round, so
that load from other processes on a shared machine falls on all of them alike. It checks that
the gradebooks agree row for row and prints wall time, students per second, speedup (overall
and the range over rounds), and the CPU time the graders and their kernels used, as a share of
what the cores could give.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _results import add_write_option, written_to  # noqa: E402
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the checkout: its packages and the tests' support code

from tests.support.course import (HARD_CODED, KILLS_KERNEL, LESSON, NOISY, PARTLY_RIGHT,  # noqa: E402
                                  WRONG, env, make_course, nbgrader, released,
                                  reference_solutions, submit, with_answers)

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


def timed(cmd: list[str], cwd: Path, extra_env: dict | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and all its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env={**env(), **(extra_env or {})}, capture_output=True,
                          text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def gradebook_rows(course: Path, students: list[str]) -> dict:
    from grader.infra.parallel import read_rows

    url = f"sqlite:///{course / 'gradebook.db'}"
    return {s: read_rows(url, ASSIGNMENT, s) for s in students}


def grading_issues(course: Path, students: list[str]) -> dict:
    """What the autograder noted per student (crashed, timed_out, ...: metadata.grader.issues
    of the autograded notebook), to say *why* two runs' gradebooks differ."""
    import nbformat

    found = {}
    for student in students:
        path = course / "autograded" / student / ASSIGNMENT / f"{LESSON}.ipynb"
        try:
            nb = nbformat.read(path, as_version=4)
        except (OSError, ValueError):
            found[student] = "no autograded notebook"
            continue
        found[student] = [(i.get("kind"), i.get("cell")) for i in nb.metadata.get("grader", {}).get("issues", [])]
    return found


def copy_subset(base: Path, dest: Path, keep: list[str]) -> Path:
    """A copy of the course with only the submissions of ``keep``."""
    shutil.copytree(base, dest)
    for folder in (dest / "submitted").iterdir():
        if folder.name not in keep:
            shutil.rmtree(folder)
    return dest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=60)
    parser.add_argument("--jobs", type=int, nargs="+", default=[2])
    parser.add_argument("--rounds", type=int, default=4,
                        help="split the class in this many rounds and alternate the order of the "
                             "runs in each, so that load from other processes hits every run alike")
    parser.add_argument("--preloaded-only", action="store_true",
                        help="skip the runs with --fresh-kernels (parallelism alone, every kernel "
                             "started from scratch as nbgrader does)")
    parser.add_argument("--keep", metavar="DIR", help="build the courses here and keep them")
    parser.add_argument("--no-sandbox-runs", dest="sandbox", action="store_false",
                        help="only the runs without the bubblewrap sandbox (where it is missing)")
    parser.add_argument("--no-dask", dest="dask", action="store_false",
                        help="skip the runs on a Dask LocalCluster (autograde-all --scheduler)")
    parser.add_argument("--plan", action="store_true",
                        help="print the runs these options make, one a line, and exit")
    add_write_option(parser, 'autograde_parallel')
    args = parser.parse_args()
    with written_to(args.write, 'Autograding a class (benchmarks/autograde_parallel.py)', markdown=False):
        return _main(args)


def _main(args):
    if args.dask and importlib.util.find_spec("distributed") is None:
        print("note: Dask is not installed (pip install -e '.[course,cluster]'): no cluster runs")
        args.dask = False

    serial_cmd = [sys.executable, "-m", "nbgrader", "autograde", ASSIGNMENT]
    # the baseline: nbgrader as it comes, every kernel started fresh, no sandbox
    runs = [("nbgrader autograde (serial, no sandbox)", 1, serial_cmd, {"GRADER_SANDBOX": "0"})]
    if args.sandbox:
        runs.append(("nbgrader autograde (serial, sandboxed)", 1, serial_cmd, {}))
    for jobs in args.jobs:
        cmd = [sys.executable, "-m", "grader", "autograde-all", ASSIGNMENT, "--jobs", str(jobs), "--quiet"]
        if not args.preloaded_only:
            runs.append((f"grader autograde-all -j {jobs} --fresh-kernels", jobs,
                         cmd + ["--fresh-kernels"] + ([] if args.sandbox else ["--no-sandbox"]), {}))
        if args.sandbox:
            runs.append((f"grader autograde-all -j {jobs} --no-sandbox", jobs, cmd + ["--no-sandbox"], {}))
            runs.append((f"grader autograde-all -j {jobs} (sandboxed)", jobs, cmd, {}))
        else:
            runs.append((f"grader autograde-all -j {jobs} --no-sandbox", jobs, cmd + ["--no-sandbox"], {}))
    if args.dask:
        for jobs in args.jobs:  # the scheduler's address is filled in once its cluster runs
            cmd = [sys.executable, "-m", "grader", "autograde-all", ASSIGNMENT, "--quiet",
                   "--scheduler", None] + ([] if args.sandbox else ["--no-sandbox"])
            runs.append((f"grader autograde-all --scheduler (Dask, {jobs} workers)", jobs, cmd, {}))
    if args.plan:
        print("\n".join(name for name, _, _, _ in runs))
        return 0

    work = Path(args.keep or tempfile.mkdtemp(prefix="autograde-bench-"))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"building a class of {args.students} submissions of {ASSIGNMENT} in {work} ...", flush=True)
    base = build_class(work / "base", args.students)
    students = sorted(p.name for p in (base / "submitted").iterdir())
    rounds = max(1, min(args.rounds, len(students)))
    chunks = [students[i::rounds] for i in range(rounds)]
    clusters = []
    if args.dask:
        from distributed import LocalCluster

        os.environ.update(env())  # the workers and their kernels import this checkout
        for _, jobs, cmd, _ in runs:
            if "--scheduler" in cmd:
                cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None)
                clusters.append(cluster)
                cmd[cmd.index("--scheduler") + 1] = cluster.scheduler_address
    totals = {name: [0.0, 0.0, []] for name, _, _, _ in runs}  # wall, cpu, loads
    per_round = {name: [] for name, _, _, _ in runs}
    same = True
    for r, chunk in enumerate(chunks):
        order = runs[r % len(runs):] + runs[:r % len(runs)]
        reference = None
        for name, jobs, cmd, extra_env in order:
            course = copy_subset(base, work / f"round{r}-{jobs}", chunk)
            load = os.getloadavg()[0]
            print(f"round {r + 1}/{rounds}: {name} on {len(chunk)} students ...", flush=True)
            wall, cpu = timed(cmd, course, extra_env)
            if "--scheduler" in cmd:
                cpu = None  # the cluster's workers are not the command's children
            rows = gradebook_rows(course, chunk)
            issues = grading_issues(course, chunk)
            if reference is None:
                reference, reference_name, reference_issues = rows, name, issues
            if rows != reference:
                same = False
                for student in chunk:  # say where and why, not only that
                    if rows[student] != reference[student]:
                        print(f"  gradebook differs for {student}:\n"
                              f"    {reference_name}: {reference[student]}\n"
                              f"      noted: {reference_issues[student]}\n"
                              f"    {name}: {rows[student]}\n      noted: {issues[student]}", flush=True)
            totals[name][0] += wall
            totals[name][1] = None if cpu is None or totals[name][1] is None else totals[name][1] + cpu
            totals[name][2].append(load)
            per_round[name].append(wall)
            shutil.rmtree(course, ignore_errors=True)

    serial = runs[0][0]
    print()
    print(f"{len(students)} submissions of {ASSIGNMENT} in {rounds} rounds, {cores} CPU cores; "
          f"gradebooks of every run identical: {'yes' if same else 'NO'}")
    head = ("run", "wall s", "students/s", "speedup", "per round", "CPU s", "CPU use", "load")
    lines = [head]
    for name, jobs, _, _ in runs:
        wall, cpu, loads = totals[name]
        ratios = [a / b for a, b in zip(per_round[serial], per_round[name])]
        usable = min(cores, jobs)
        lines.append((name, f"{wall:.1f}", f"{len(students) / wall:.2f}",
                      f"{totals[serial][0] / wall:.2f}x", f"{min(ratios):.2f}-{max(ratios):.2f}x",
                      "n/a" if cpu is None else f"{cpu:.0f}",
                      "n/a" if cpu is None else f"{100 * cpu / (wall * usable):.0f}% of {usable}",
                      f"{sum(loads) / len(loads):.1f}"))
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    for line in lines:
        print("  ".join(c.ljust(w) for c, w in zip(line, widths)))
    print()
    print("CPU s counts the graders and their kernels; 'CPU use' is that over wall time x the "
          "cores the run could use; 'load' is the 1-minute load average when each run started "
          "(other processes compete for the same cores). Each submission costs a kernel start, "
          "the lesson's imports and cells, and nbgrader's conversion, nearly all CPU: throughput "
          "scales with cores until they are busy. --fresh-kernels starts every kernel from "
          "scratch as nbgrader does (parallelism alone); by default autograde-all forks kernels "
          "from a process that has imported the kernel machinery and the lesson's modules once, "
          "which removes most of the per-submission CPU. Sandboxed runs confine every kernel with "
          "bubblewrap (grader/README.md, 'Sandbox'); speedups are over the serial run without it.")
    if clusters:
        print("Dask runs: `autograde-all --scheduler` on a LocalCluster of single-threaded worker "
              "processes on this machine (started before the rounds, not timed); each run ships "
              "the course and every submission to the workers and merges the results here. "
              "CPU is n/a: the workers are not children of the command.")
    for cluster in clusters:
        cluster.close()
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
