"""What grading in a world without minitape's autodiff costs (lesson 7), and that nothing else
pays for it.

    python benchmarks/grading_world.py                  # 8 lesson-7 submissions, --jobs 2, 2 rounds
    python benchmarks/grading_world.py --students 12 --rounds 3 --write

Builds an nbgrader course of lesson 7 (English) with N submissions (the reference solution, an
untouched notebook, one that computes l07_ex2 with minitape's jacobian, one with a hand-derived
formula for l07_ex1, in turn) and grades it with `python -m grader autograde-all --jobs J`
(sandboxed) twice per round, in an order that rotates from round to round: as shipped (exercises
1-5 probed in a fresh kernel of the grading world ``no-autodiff``, grader/infra/worlds.py), and
with ``c.InjectProbes.grading_worlds = False`` in the course's configuration (every probe in the
student's own kernel, as before). It prints wall time per submission for both, the difference,
and how many kernels each started; then grades a class of lesson 1 (no exercise forbids a tool)
and prints its kernels per submission, which must be one.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _results import add_write_option, written_to  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.support.course import (env, make_course, nbgrader, reference_solutions,  # noqa: E402
                                  released, submit, with_answers)

L7 = "07-build-your-own-tape"
L7_EN = f"{L7}-en"
L1 = "01-gradients"
L1_EN = f"{L1}-en"
ON_TIME = "2030-01-01 10:00:00 UTC"


def _kinds(sol):
    sys.path.insert(0, str(REPO / "tests" / "grader"))
    from lesson7_attacks import FORBIDDEN

    ex1 = sol["l07_ex1"]
    helpers = ex1[:ex1.index("def quotient_gradients")]
    formula = (helpers + "import math\n\ndef quotient_gradients(a0, b0):\n    s = math.sin(a0 * b0)\n"
               "    return [-s, -a0 * s / b0 - math.cos(a0 * b0) / b0 ** 2]\n")
    return [sol, {}, {**sol, "l07_ex2": FORBIDDEN["l07_ex2 (jacobian)"]}, {**sol, "l07_ex1": formula}]


def build(root: Path, lesson: str, students: int) -> Path:
    assignment = f"{lesson}-en"
    course = make_course(root, langs=("en",), timeout=60, lessons=(lesson,))
    nbgrader(course, "generate_assignment", assignment)
    sol = reference_solutions(course, assignment, lesson=lesson)
    rel = released(course, assignment, lesson=lesson)
    kinds = _kinds(sol) if lesson == L7 else [sol, {}]
    for i in range(students):
        submit(course, f"student{i:03d}", assignment, with_answers(rel, kinds[i % len(kinds)]),
               ON_TIME, lesson=lesson)
    return course


def grade(course: Path, assignment: str, jobs: int, worlds: bool) -> tuple[float, int, str]:
    """(wall seconds, kernels started, stdout) of one sandboxed autograde-all."""
    config = course / "nbgrader_config.py"
    text = config.read_text(encoding="utf-8")
    line = "\nc.InjectProbes.grading_worlds = False  # benchmarks/grading_world.py\n"
    config.write_text(text.replace(line, "") + ("" if worlds else line), encoding="utf-8")
    cmd = [sys.executable, "-m", "grader", "autograde-all", assignment, "--jobs", str(jobs),
           "--quiet", "--force"]
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=course, env=env(), capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    found = re.search(r"kernels: (\d+) forked from preloaded processes, (\d+) started fresh", proc.stdout)
    kernels = int(found.group(1)) + int(found.group(2)) if found else -1
    return wall, kernels, proc.stdout


def scores(course: Path, assignment: str, lesson: str) -> dict:
    """{student: {exercise: points}} from the gradebook."""
    from grader.infra.parallel import read_rows

    url = f"sqlite:///{course / 'gradebook.db'}"
    students = sorted(p.name for p in (course / "submitted").iterdir())
    out = {}
    for s in students:
        grades = (read_rows(url, assignment, s) or {}).get("notebooks", {}).get(lesson, {}).get("grades", {})
        out[s] = {g: v.get("auto_score") for g, v in grades.items()}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--keep", metavar="DIR", help="build the courses here and keep them")
    add_write_option(parser, "grading_world")
    args = parser.parse_args()
    with written_to(args.write, "Grading in a world without the forbidden tool "
                                "(benchmarks/grading_world.py)", markdown=False):
        return _main(args)


def _main(args) -> int:
    work = Path(args.keep or tempfile.mkdtemp(prefix="grading-world-bench-"))
    print(f"building a class of {args.students} submissions of {L7_EN} in {work} ...", flush=True)
    course = build(work / "l7", L7, args.students)
    contenders = [("autograde-all (lesson 7 exercises 1-5 in the no-autodiff world)", True),
                  ("autograde-all, grading_worlds=False (every probe in the student's kernel)", False)]
    totals = {name: [0.0, 0] for name, _ in contenders}
    jacobian = {}  # contender -> l07_ex2 of the submissions that use minitape's jacobian
    loads = []
    for r in range(args.rounds):
        order = contenders[r % 2:] + contenders[:r % 2]
        for name, worlds in order:
            loads.append(os.getloadavg()[0])
            print(f"round {r + 1}/{args.rounds}: {name} ...", flush=True)
            wall, kernels, _ = grade(course, L7_EN, args.jobs, worlds)
            totals[name][0] += wall
            totals[name][1] += kernels
            got = scores(course, L7_EN, L7)
            jacobian[name] = sorted({got[s].get("l07_ex2") for i, s in enumerate(sorted(got)) if i % 4 == 2})
    n = args.students * args.rounds
    print(f"\n{L7_EN}, {args.students} submissions x {args.rounds} rounds, --jobs {args.jobs}, "
          f"sandboxed; load average {min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} cores\n")
    print(f"{'run':<80} {'wall/submission':>16} {'kernels/submission':>19}")
    for name, _ in contenders:
        wall, kernels = totals[name]
        print(f"{name:<80} {wall / n:>14.2f} s {kernels / n:>19.2f}")
    with_world, without = (totals[name][0] / n for name, _ in contenders)
    print(f"\nthe world costs {with_world - without:+.2f} s per lesson-7 submission "
          f"({with_world / without:.2f}x)")
    for name, _ in contenders:
        print(f"l07_ex2 of the submissions computing it with minitape's jacobian, {name}: "
              f"{jacobian[name]} of 3")

    print(f"\nbuilding a class of 4 submissions of {L1_EN} ...", flush=True)
    course1 = build(work / "l1", L1, 4)
    wall, kernels, _ = grade(course1, L1_EN, args.jobs, True)
    print(f"{L1_EN} (no exercise forbids a tool): {kernels / 4:.2f} kernels per submission, "
          f"{wall / 4:.2f} s wall per submission")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
