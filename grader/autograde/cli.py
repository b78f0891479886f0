"""``python -m grader``: the instructor's commands around nbgrader.

    python -m grader autograde-all 01-gradients-es --jobs 2   # parallel nbgrader autograde
    python -m grader export --to grades.csv                   # per-cell CSV with status column
    python -m grader export --format canvas --to canvas.csv   # Canvas / Moodle grade import
    python -m grader report 01-gradients-es --out report/     # class report: patterns, scores
    python -m grader check-course                             # source notebooks vs exercises
    python -m grader check-hub                                # exchange, course id, roster (JupyterHub)
    python -m grader exercises                                # the registered exercises
    python -m grader init-course ~/minitape-course            # a course folder to grade in
    python -m grader lab                                      # JupyterLab with nbgrader's interface

Commands that work on a course take ``--course DIR`` (default: the current folder, which must
hold ``nbgrader_config.py``; the packaged course is ``grader/course/``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from course_lang import split_variant

PACKAGED_COURSE = Path(__file__).resolve().parents[1] / "course"


def _course(args) -> str:
    course = os.path.abspath(args.course or os.getcwd())
    if not os.path.isdir(course):
        raise SystemExit(f"error: course directory {course} does not exist")
    if not os.path.isfile(os.path.join(course, "nbgrader_config.py")):
        hint = (f" (the packaged course is {PACKAGED_COURSE})" if args.course is None else "")
        raise SystemExit(f"error: {course} is not an nbgrader course: no nbgrader_config.py there; "
                         f"pass --course DIR{hint}")
    return course


def _statuses(args, summary) -> dict[str, str]:
    """The export's status of every graded submission ({} where it cannot be read: the summary
    then counts what the workers reported)."""
    try:
        from grader.autograde.export import assignment_statuses
        from grader.infra.parallel import load_coursedir

        return assignment_statuses(load_coursedir(_course(args)), summary.assignment,
                                   [r.student for r in summary.graded])
    except Exception:  # noqa: BLE001 - a summary line must never fail the grading run
        return {}


def _roster(args) -> set[str] | None:
    """The gradebook's students before grading (None where there is no gradebook to read)."""
    try:
        from nbgrader.api import Gradebook

        from grader.infra import nbgrader_compat
        from grader.infra.parallel import load_coursedir

        coursedir = load_coursedir(_course(args))
        db = coursedir.db_url
        if db.startswith("sqlite:///") and not os.path.exists(db[len("sqlite:///"):]):
            return None
        nbgrader_compat.install()
        with Gradebook(db, coursedir.course_id) as gb:
            return {s.id for s in gb.students}
    except Exception:  # noqa: BLE001 - the error, if any, is the grading run's to report
        return None


def _summary_lines(summary, statuses: dict[str, str], where: str, wall: float,
                   roster: set[str] | None = None) -> list[str]:
    """The closing summary, in the export's vocabulary: one status per submission."""
    n = len(summary.results)
    rate = n / wall if wall else 0.0
    if statuses:
        counts: dict[str, list[str]] = {}
        for r in summary.graded:
            counts.setdefault(statuses.get(r.student) or "not_autograded", []).append(r.student)
        order = sorted(counts, key=lambda k: (k != "ok", -len(counts[k]), k))
        detail = ", ".join(f"{len(counts[k])} {k}" for k in order)
    else:
        counts, detail = {}, f"{len(summary.flagged)} flagged for review"
    lines = [f"{summary.assignment}: {n} submission(s): {len(summary.graded)} graded"
             + (f" ({detail})" if summary.graded else "") + f", {len(summary.failed)} failed"
             + (f", {len(summary.refused)} refused" if summary.refused else "")
             + f"; {where}, {wall:.1f}s wall time ({rate:.2f}/s)"]
    for result in summary.refused:
        lines.append(f"refused (not graded, nothing copied; see the export): {result.student}: "
                     f"{result.refused}: {result.log}")
    for status in sorted(k for k in counts if k != "ok"):
        lines.append(f"{status} (see the export's notes): {', '.join(sorted(counts[status]))}")
    if not statuses and summary.flagged:
        lines.append(f"flagged (see the export's status and notes): "
                     f"{', '.join(r.student for r in summary.flagged)}")
    # with a roster imported, a folder in submitted/ that is nobody in it (nbgrader adds the
    # student itself); a course without one (students created by nbgrader, as on a hub) says nothing
    outside = sorted(r.student for r in summary.graded if roster and r.student not in roster)
    if outside:
        lines.append(f"not in the roster (nbgrader added them to the gradebook; import the roster "
                     f"with `nbgrader db student import`, or remove their submitted/ folders): "
                     f"{', '.join(outside)}")
    return lines


def _process_started(now: float) -> float:
    """When this process started, on ``time.perf_counter``'s clock (Linux: /proc), else ``now``:
    the wall time reported is the command's, Python's own start and imports included."""
    try:
        with open("/proc/self/stat", encoding="ascii") as fh:
            fields = fh.read().rpartition(")")[2].split()
        with open("/proc/uptime", encoding="ascii") as fh:
            uptime = float(fh.read().split()[0])
        age = uptime - int(fields[19]) / os.sysconf("SC_CLK_TCK")
        return now - age if 0 <= age < 3600 else now
    except (OSError, ValueError, IndexError):
        return now


def cmd_autograde_all(args) -> int:
    import time

    # wall time: Python's start, the sandbox, the workers' start and the merge too
    started = _process_started(time.perf_counter())
    from grader.infra.parallel import CourseError, autograde_all
    from grader.infra.sandbox import NO_SANDBOX_WARNING, Limits, SandboxError

    if args.no_sandbox:
        print(NO_SANDBOX_WARNING, file=sys.stderr)
    limits = Limits(memory_mb=args.memory_limit or None, cpu_seconds=args.cpu_limit or None,
                    processes=args.process_limit or None)
    from grader.student.runner import environment_seed

    # the seed is read here once (--seed, else GRADER_SEED) and travels as an argument to every
    # worker (InjectProbes.seed); no grading process reads it from the environment
    seed = args.seed if args.seed is not None else environment_seed()
    roster = _roster(args)
    common = dict(seed=seed, force=args.force, students=args.student or None, progress=not args.quiet,
                  preload=not args.fresh_kernels,
                  extra_preload=[m for v in args.preload or [] for m in v.split(",") if m],
                  sandbox=not args.no_sandbox, limits=limits)
    try:
        if args.scheduler and args.jobs is not None:
            print("error: --jobs is for this machine's pool; with --scheduler the cluster's "
                  "workers grade (start as many as you want: dask worker --nworkers N)",
                  file=sys.stderr)
            return 2
        if args.scheduler:
            # only here: without --scheduler, Dask is neither needed nor imported
            from grader.infra.cluster import ClusterError, autograde_on_cluster

            try:
                summary = autograde_on_cluster(_course(args), args.assignment, args.scheduler,
                                               connect_timeout=args.connect_timeout, **common)
            except ClusterError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 2
            where = f"{summary.jobs} worker thread(s) of the Dask cluster at {args.scheduler}"
        else:
            summary = autograde_all(_course(args), args.assignment, jobs=args.jobs, **common)
            where = f"{summary.jobs} worker(s)"
    except CourseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except SandboxError as exc:
        print(f"error: grading refused: {exc}", file=sys.stderr)
        return 2
    n = len(summary.results)
    statuses = _statuses(args, summary) if summary.graded else {}
    for line in _summary_lines(summary, statuses, where, time.perf_counter() - started, roster):
        print(line)
    if summary.kernels_forked or summary.kernels_fresh:
        print(f"kernels: {summary.kernels_forked} forked from preloaded processes, "
              f"{summary.kernels_fresh} started fresh"
              + (":" if summary.kernels_fresh else ""))
        reasons = {line.strip() for r in summary.results if r.fresh
                   for line in r.log.splitlines() if "starting a fresh kernel" in line}
        for reason in sorted(reasons):
            print(f"  {reason}")
    for result in summary.results:
        if result.note:
            print(f"{result.student}: {result.note}", file=sys.stderr)
    for result in summary.failed:
        print(f"\n--- {result.student}: nbgrader autograde failed ---\n{result.log.strip()}",
              file=sys.stderr)
    if summary.failed:
        print(f"error: {len(summary.failed)} of {n} submission(s) could not be autograded "
              f"(nothing of them is in the gradebook): "
              f"{', '.join(r.student for r in summary.failed)}", file=sys.stderr)
        return 1
    return 0


def cmd_export(args) -> int:
    from nbgrader.api import Gradebook

    from grader.infra import nbgrader_compat

    nbgrader_compat.install()  # before any Gradebook: no `alembic` needed on PATH

    from grader.autograde.export import export_rows, refusal_lookup, submitted_on_disk, write_csv
    from grader.infra.parallel import CourseError, load_coursedir

    try:
        coursedir = load_coursedir(_course(args))
    except CourseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    db = coursedir.db_url
    if db.startswith("sqlite:///") and not os.path.exists(db[len("sqlite:///"):]):
        print(f"error: no gradebook at {db[len('sqlite:///'):]} (nothing generated or graded yet)",
              file=sys.stderr)
        return 2

    def autograded_path(student, assignment, notebook):
        folder = coursedir.format_path(coursedir.autograded_directory, student, assignment)
        return os.path.join(folder, f"{notebook}.ipynb")

    with Gradebook(db, coursedir.course_id) as gb:
        known = {a.name for a in gb.assignments}
        # a lesson names all its language variants (01-gradients -> 01-gradients-en, -ru, ...)
        lessons = {variant[0] for variant in map(split_variant, known) if variant}
        unknown = [a for a in args.assignment if a not in known and a not in lessons]
        if unknown:
            print(f"error: unknown assignment(s) {', '.join(unknown)} "
                  f"(in the gradebook: {', '.join(sorted(known)) or 'none'})", file=sys.stderr)
            return 2
        columns, rows = export_rows(gb, autograded_path, args.assignment, args.student,
                                    submitted=lambda: submitted_on_disk(coursedir),
                                    refused=refusal_lookup(coursedir))
        lms_ids = {s.id: s.lms_user_id for s in gb.students}
    fmt = getattr(args, "format", "csv")
    if fmt != "csv":  # an LMS's grade-import file (grader/autograde/lms_export.py)
        from grader.autograde.lms_export import canvas_table, moodle_table, parse_canvas_ids, write_table

        try:
            canvas_ids = parse_canvas_ids(args.canvas_id)
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        table = canvas_table(columns, rows, lms_ids, canvas_ids) if fmt == "canvas" \
            else moodle_table(columns, rows)
        write_table(args.to, table)
        print(f"wrote {len(rows)} student row(s) in {fmt.capitalize()}'s grade-import format to {args.to}")
        return 0
    write_csv(args.to, columns, rows)
    print(f"wrote {len(rows)} student row(s), {len(columns)} columns to {args.to}")
    return 0


def cmd_report(args) -> int:
    from grader.autograde.class_report import write_report
    from grader.i18n import LANGS
    from grader.infra.parallel import CourseError

    if args.lang not in LANGS:
        print(f"error: --lang must be one of {', '.join(LANGS)}", file=sys.stderr)
        return 2
    try:
        json_path, html_path, report = write_report(_course(args), args.assignment, args.out,
                                                    args.lang, progress=not args.quiet)
    except (CourseError, FileNotFoundError, KeyError) as exc:
        print(f"error: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2
    print(f"{report['assignment']}: {report['students']} student(s), "
          f"{len(report['exercises'])} exercise(s); wrote {html_path} and {json_path}")
    return 0


def cmd_check_course(args) -> int:
    from grader.autograde.course_check import check_course

    course = _course(args)
    count, problems = check_course(course)
    for problem in problems:
        print(problem, file=sys.stderr)
    if count == 0:
        print(f"error: no source notebooks under {course}/source/ (run `python -m lessons build`)",
              file=sys.stderr)
        return 2
    print(f"{count} source notebook(s) checked, {len(problems)} problem(s)")
    return 1 if problems else 0


def cmd_check_hub(args) -> int:
    from grader.autograde.hub_route import check_hub

    course = _course(args)
    ok, problems = check_hub(course)
    for line in ok:
        print(f"ok: {line}")
    for line in problems:
        print(f"error: {line}", file=sys.stderr)
    if problems:
        print(f"{len(problems)} problem(s): the JupyterHub route (docs/jupyterhub.md) is not ready", file=sys.stderr)
        return 1
    print("the course is ready for nbgrader's exchange on the hub")
    return 0


def cmd_exercises(args) -> int:
    from grader.student.registry import all_exercises

    rows = [(ex.id, ex.signature or ex.function, f"{ex.points:g}", str(len(ex.visible)),
             str(len(ex.hidden)), "yes" if ex.has_fd else "no") for ex in all_exercises().values()]
    head = ("id", "student defines", "points", "visible", "hidden", "finite diff.")
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    for r in [head] + rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    return 0


def cmd_init_course(args) -> int:
    dest = Path(args.directory).resolve()
    if dest.exists() and any(dest.iterdir()):
        print(f"error: {dest} exists and is not empty", file=sys.stderr)
        return 2
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy2(PACKAGED_COURSE / "nbgrader_config.py", dest / "nbgrader_config.py")
    # instructor material (solutions, hidden tests, reference solutions): only in a source
    # checkout, never in the installed wheel; the course folder gets its own copy
    definitions = PACKAGED_COURSE / "definitions"
    if not definitions.is_dir():
        print(f"error: the instructor material (grader/course/definitions, grader/course/source) "
              f"is not installed with the package; run this from a source checkout "
              f"(pip install -e .)", file=sys.stderr)
        dest.rmdir()
        return 2
    shutil.copytree(definitions, dest / "definitions",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    source = PACKAGED_COURSE / "source"
    count = 0
    if source.is_dir():
        shutil.copytree(source, dest / "source")
        count = len(list((dest / "source").glob("*/*.ipynb")))
    print(f"created {dest} with nbgrader_config.py, definitions/ and {count} source notebook(s); "
          f"next: cd {dest} && nbgrader generate_assignment <assignment>")
    return 0


def cmd_lab(args, jupyter_args: list[str]) -> int:
    """JupyterLab in the course folder with nbgrader's interface (formgrader, create assignment)."""
    import sysconfig

    course = _course(args)
    argv = [sys.executable, "-m", "jupyterlab", course]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        argv.append("--allow-root")  # containers and CI machines run as root; Jupyter refuses otherwise
    env = dict(os.environ)
    # a terminal opened in this JupyterLab finds `nbgrader` and `python -m grader` of this environment
    scripts = sysconfig.get_path("scripts")
    env["PATH"] = os.pathsep.join([scripts] + [p for p in env.get("PATH", "").split(os.pathsep)
                                               if p and p != scripts])
    print(f"Starting JupyterLab with nbgrader's interface on the course {course}; "
          "stop it with Ctrl+C.", flush=True)
    os.chdir(course)  # nbgrader's extensions read nbgrader_config.py from the server's folder
    os.execve(argv[0], argv + list(jupyter_args), env)


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    from grader.infra.sandbox import Limits

    parser = argparse.ArgumentParser(
        prog="python -m grader",
        description="Grader of the minitape autodiff course: nbgrader helpers for instructors.",
        epilog="Students use grader.check(\"<exercise id>\") in the notebooks; see grader/README.md.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    def with_course(p):
        p.add_argument("--course", metavar="DIR",
                       help="the nbgrader course folder (default: the current folder)")
        return p

    p = with_course(sub.add_parser(
        "autograde-all", help="autograde all submissions of an assignment in parallel",
        description="Run nbgrader autograde for every submission of ASSIGNMENT, N at a time, "
                    "each worker on a private gradebook copy merged into the real one "
                    "(same results as serial `nbgrader autograde ASSIGNMENT`)."))
    p.add_argument("assignment", metavar="ASSIGNMENT", help="assignment id, e.g. 01-gradients-es")
    p.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                   help="parallel workers (default: number of CPUs)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="grade on the Dask cluster whose scheduler is at ADDRESS (e.g. "
                        "tcp://10.0.0.5:8786; needs pip install -e '.[course,cluster]'): the "
                        "course and each submission are shipped to the workers, the gradebook is "
                        "written here; --jobs is then the cluster's (see grader/README.md)")
    p.add_argument("--connect-timeout", type=_positive_seconds, default=10.0, metavar="SECONDS",
                   help="with --scheduler: how long to keep trying to reach the scheduler before "
                        "giving up with one line saying so (default: 10)")
    p.add_argument("--force", "-f", action="store_true",
                   help="regrade submissions that were already autograded")
    p.add_argument("--student", action="append", metavar="ID",
                   help="grade only this student (repeatable)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.add_argument("--fresh-kernels", action="store_true",
                   help="start every kernel from scratch, as nbgrader does (slower); by default "
                        "kernels are forked from a process that has already imported the kernel "
                        "machinery and the modules the assignment's source notebook imports")
    p.add_argument("--preload", action="append", metavar="MODULE[,MODULE]",
                   help="also import these modules before forking kernels (repeatable)")
    p.add_argument("--no-sandbox", action="store_true",
                   help="run students' code WITHOUT the bubblewrap sandbox, as you, in the course "
                        "folder (it can then read and change the gradebook, solutions and other "
                        "submissions, use the network and outlive grading); only for trusted code")
    limits = Limits()
    p.add_argument("--memory-limit", type=int, default=limits.memory_mb, metavar="MB",
                   help=f"address space of each sandboxed kernel process (default {limits.memory_mb}; 0: none)")
    p.add_argument("--cpu-limit", type=int, default=limits.cpu_seconds, metavar="S",
                   help=f"CPU seconds of each sandboxed kernel process (default {limits.cpu_seconds}; 0: none)")
    p.add_argument("--process-limit", type=int, default=limits.processes, metavar="N",
                   help=f"processes and threads of one sandboxed kernel (default {limits.processes}; 0: none)")
    p.add_argument("--seed", type=int, default=None, metavar="INT",
                   help="the same hidden points for every student (default: points derived from "
                        "course, assignment and student, identical at every regrade)")
    p.set_defaults(func=cmd_autograde_all)

    p = with_course(sub.add_parser(
        "export", help="export grades: a row per student, a column per test cell, a status",
        description="Write a CSV with one row per student and, per lesson (language variants "
                    "merged), the language, one column per test cell, score, max score, late "
                    "penalty, status (ok/missing/late/crashed/timed_out/...) and notes."))
    p.add_argument("--to", default="grades.csv", metavar="FILE", help="CSV file (default: grades.csv)")
    p.add_argument("--assignment", action="append", default=[], metavar="ID",
                   help="only this assignment or lesson (e.g. 01-gradients-es or 01-gradients)")
    p.add_argument("--student", action="append", default=[], metavar="ID", help="only this student")
    p.add_argument("--format", choices=("csv", "canvas", "moodle"), default="csv",
                   help="csv: the per-cell CSV (default); canvas / moodle: the grade-import CSV "
                        "of that LMS, one column per lesson (see grader/autograde/lms_export.py)")
    p.add_argument("--canvas-id", action="append", default=[], metavar="LESSON=ID",
                   help="with --format canvas: the Canvas assignment id of a lesson's column "
                        "(repeatable; without it Canvas creates a new assignment)")
    p.set_defaults(func=cmd_export)

    p = with_course(sub.add_parser(
        "report", help="the class report: scores, mistake patterns, flags (HTML + JSON)",
        description="Write OUT/report.html and OUT/report.json for ASSIGNMENT (an nbgrader "
                    "assignment, or a lesson: its language variants together) from the gradebook "
                    "and the autograded notebooks, without running any student code."))
    p.add_argument("assignment", metavar="ASSIGNMENT", help="e.g. 01-gradients-es or 01-gradients")
    p.add_argument("--out", required=True, metavar="DIR", help="folder to write the report into")
    p.add_argument("--lang", default="en", help="language of the report: en, es, pt or ru (default en)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress output")
    p.set_defaults(func=cmd_report)

    p = with_course(sub.add_parser(
        "check-course", help="check source notebooks against the exercise registry",
        description="Every tests cell must belong to a registered exercise, have its points, "
                    "call check(id) and end with grade(id) in the hidden-tests region."))
    p.set_defaults(func=cmd_check_course)

    p = with_course(sub.add_parser(
        "check-hub", help="check the JupyterHub route: the exchange, the course id, the roster",
        description="Before releasing through nbgrader's exchange on a JupyterHub (docs/jupyterhub.md): "
                    "the exchange exists with the permissions nbgrader documents (0777), students' "
                    "servers (Jupyter's configuration path: /etc/jupyter/nbgrader_config.py) and this "
                    "course folder name the same exchange and course id, the course has a roster, and "
                    "no submission waiting in the exchange comes from someone outside it. One line per "
                    "problem, with the command that fixes it; exit 1 if there is any."))
    p.set_defaults(func=cmd_check_hub)

    p = sub.add_parser("exercises", help="list the registered exercises")
    p.set_defaults(func=cmd_exercises)

    p = with_course(sub.add_parser(
        "lab", help="open the course in JupyterLab with nbgrader's instructor interface",
        description="Start JupyterLab in the course folder with nbgrader's extensions (Formgrader, "
                    "Create Assignment, course and assignment lists); a terminal in it has this "
                    "environment's nbgrader on PATH. Other arguments go to JupyterLab "
                    "(e.g. --port 8890 --no-browser). Students use `python -m lessons lab`."))
    p.set_defaults(func=cmd_lab)

    p = sub.add_parser("init-course", help="copy the packaged nbgrader course into a new folder")
    p.add_argument("directory", metavar="DIR")
    p.set_defaults(func=cmd_init_course)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if args.command == "lab":
        return cmd_lab(args, extra)
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    return args.func(args)
