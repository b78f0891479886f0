"""Autograde every submission of an assignment on all cores.

nbgrader grades one student after another (nbgrader #174) and its sqlite gradebook accepts one
writer at a time. Here ``N`` worker processes each run nbgrader's own ``AutogradeApp``
(in-process: no interpreter start per student) against a *private copy* of the gradebook, one
student at a time; after each student the worker reads that student's rows back (submission
timestamp, per-notebook late penalty and flag, per-cell auto score, needs-manual-grade, auto
comment) and the parent process, the only writer of the real gradebook, merges them with
nbgrader's Gradebook API. Students are independent, so the merged gradebook is the one serial
``nbgrader autograde`` produces (``tests/grader/test_grader_parallel.py`` compares them).
Autograded notebooks are written by the workers directly to ``autograded/<student>/...``
(one folder per student: no two workers write the same file).

A non-sqlite gradebook (e.g. PostgreSQL) takes concurrent writers itself: the workers then
use it directly and nothing is merged.
"""

from __future__ import annotations

import concurrent.futures as cf
from concurrent.futures.process import BrokenProcessPool
import contextlib
import glob
import io
import logging
import multiprocessing
import multiprocessing.util
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field

__all__ = ["AutogradeSummary", "CourseError", "autograde_all", "load_coursedir"]


class CourseError(Exception):
    """Bad input: no course here, unknown assignment, no submissions."""


@dataclass
class StudentResult:
    student: str
    ok: bool
    seconds: float
    log: str = ""
    rows: dict | None = None
    forked: int = 0   # kernels forked from the worker's preloaded process
    fresh: int = 0    # kernels started from scratch
    note: str = ""    # what the instructor should know beyond the gradebook (worker deaths)
    refused: str = ""  # refused_link / refused_special: not graded, nothing copied (grader.infra.submissions)


@dataclass
class AutogradeSummary:
    assignment: str
    jobs: int
    seconds: float
    results: list[StudentResult] = field(default_factory=list)

    @property
    def graded(self) -> list[StudentResult]:
        """Submissions nbgrader autograded (their scores are in the gradebook)."""
        return [r for r in self.results if r.ok]

    @property
    def failed(self) -> list[StudentResult]:
        """Submissions nbgrader could not autograde: nothing of them reached the gradebook."""
        return [r for r in self.results if not r.ok and not r.refused]

    @property
    def refused(self) -> list[StudentResult]:
        """Submissions refused before anything read them (links, special files)."""
        return [r for r in self.results if r.refused]

    @property
    def flagged(self) -> list[StudentResult]:
        """Graded submissions flagged for review (crashed, timed out, tampered test cells)."""
        return [r for r in self.graded
                if r.rows and any(nb["flagged"] for nb in r.rows["notebooks"].values())]

    @property
    def kernels_forked(self) -> int:
        return sum(r.forked for r in self.results)

    @property
    def kernels_fresh(self) -> int:
        return sum(r.fresh for r in self.results)


# ----------------------------------------------------------------------------------------------
# The course
# ----------------------------------------------------------------------------------------------
def load_coursedir(course_dir: str):
    """nbgrader's CourseDirectory configured from ``course_dir/nbgrader_config.py``."""
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config.loader import PyFileConfigLoader

    course_dir = os.path.abspath(course_dir)
    if not os.path.isdir(course_dir):
        raise CourseError(f"course directory {course_dir} does not exist")
    config_file = os.path.join(course_dir, "nbgrader_config.py")
    if not os.path.isfile(config_file):
        raise CourseError(f"{course_dir} is not an nbgrader course: it has no nbgrader_config.py "
                          "(pass --course DIR, or create one with `python -m grader init-course DIR`)")
    with _chdir(course_dir):
        config = PyFileConfigLoader("nbgrader_config.py", path=course_dir).load_config()
    coursedir = CourseDirectory(config=config)
    coursedir.root = course_dir
    return coursedir


@contextlib.contextmanager
def _chdir(path: str):
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def submitted_students(coursedir, assignment: str) -> list[str]:
    pattern = coursedir.format_path(coursedir.submitted_directory, "*", assignment)
    students = []
    for path in sorted(glob.glob(pattern)):
        if os.path.isdir(path):
            # submitted/<student>/<assignment>: the student id is the parent folder's name
            students.append(os.path.basename(os.path.dirname(os.path.normpath(path))))
    return students


def _check_assignment(coursedir, assignment: str) -> None:
    from nbgrader.api import Gradebook, MissingEntry

    db_url = coursedir.db_url
    if db_url.startswith("sqlite:///") and not os.path.exists(db_url[len("sqlite:///"):]):
        raise CourseError(f"no gradebook at {db_url[len('sqlite:///'):]}: run "
                          f"`nbgrader generate_assignment {assignment}` first")
    with Gradebook(db_url, coursedir.course_id) as gb:
        try:
            gb.find_assignment(assignment)
        except MissingEntry:
            known = ", ".join(sorted(a.name for a in gb.assignments)) or "none"
            raise CourseError(f"unknown assignment {assignment!r} (in the gradebook: {known}); "
                              f"run `nbgrader generate_assignment {assignment}` first") from None


def preload_modules(coursedir, assignment: str, extra: list[str] | None = None) -> list[str]:
    """What a worker's kernels are forked with already imported: the kernel machinery, the
    modules the assignment's source (else release) notebooks import, also on first use
    (:func:`grader.infra.kernels.modules_reached_by`), and ``extra``."""
    from grader.infra.kernels import KERNEL_MODULES, modules_reached_by

    notebooks: list[str] = []
    for folder in (coursedir.source_directory, coursedir.release_directory):
        notebooks = sorted(glob.glob(os.path.join(coursedir.format_path(folder, ".", assignment),
                                                  "*.ipynb")))
        if notebooks:
            break
    found = list(KERNEL_MODULES) + modules_reached_by(notebooks) + list(extra or [])
    return list(dict.fromkeys(found))


# ----------------------------------------------------------------------------------------------
# Gradebook rows of one student: read from a worker's copy, merged into the real gradebook
# ----------------------------------------------------------------------------------------------
def read_rows(db_url: str, assignment: str, student: str) -> dict | None:
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(db_url) as gb:
        try:
            st = gb.find_student(student)
            sub = gb.find_submission(assignment, student)
        except MissingEntry:
            return None
        rows = {
            "student": {"first_name": st.first_name, "last_name": st.last_name,
                        "email": st.email, "lms_user_id": st.lms_user_id},
            "timestamp": sub.timestamp,
            "notebooks": {},
        }
        for nb in sub.notebooks:
            rows["notebooks"][nb.name] = {
                "flagged": nb.flagged,
                "late_submission_penalty": nb.late_submission_penalty,
                "grades": {g.name: {"auto_score": g.auto_score,
                                    "needs_manual_grade": g.needs_manual_grade}
                           for g in nb.grades},
                "comments": {c.name: {"auto_comment": c.auto_comment} for c in nb.comments},
            }
        return rows


def merge_rows(db_url: str, assignment: str, student: str, rows: dict, gb=None) -> None:
    """Write ``student``'s rows (from :func:`read_rows` in a worker) into the gradebook; into
    the open Gradebook ``gb`` if given (opening one costs ~40 ms: a client merging thousands of
    results keeps one open)."""
    import warnings

    from nbgrader.api import Gradebook, MissingEntry
    from sqlalchemy.exc import SAWarning

    with contextlib.ExitStack() as stack, warnings.catch_warnings():
        if gb is None:
            gb = stack.enter_context(Gradebook(db_url))
        # nbgrader's add_submission autoflushes half-built rows; serial autograde warns alike
        warnings.simplefilter("ignore", SAWarning)
        try:
            gb.find_student(student)
        except MissingEntry:
            gb.add_student(student, **{k: v for k, v in rows["student"].items() if v is not None})
        if rows["timestamp"] is not None:
            sub = gb.update_or_create_submission(assignment, student, timestamp=rows["timestamp"])
        else:
            sub = gb.update_or_create_submission(assignment, student)
        for nb in sub.notebooks:
            data = rows["notebooks"].get(nb.name)
            if data is None:
                continue
            nb.flagged = data["flagged"]
            nb.late_submission_penalty = data["late_submission_penalty"]
            for grade in nb.grades:
                g = data["grades"].get(grade.name)
                if g is not None:
                    grade.auto_score = g["auto_score"]
                    grade.needs_manual_grade = g["needs_manual_grade"]
            for comment in nb.comments:
                c = data["comments"].get(comment.name)
                if c is not None:
                    comment.auto_comment = c["auto_comment"]
        gb.db.commit()


# ----------------------------------------------------------------------------------------------
# Workers
# ----------------------------------------------------------------------------------------------
_W: dict = {}


def _watch_parent(parent: int) -> None:
    """A worker is in a process group of its own (a kernel that kills its worker's group must
    not take the parent, the gradebook's writer, with it), so the terminal's Ctrl+C and the
    parent's death no longer reach it: it ends itself, and its group, when the parent is gone."""
    import signal
    import threading

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os.killpg(0, signal.SIGKILL)

    threading.Thread(target=watch, name="grader-parent-watch", daemon=True).start()


def _worker_init(course_dir: str, template_db: str | None, workdir: str, argv: list[str],
                 preload: list[str] | None, sandbox=None, parent: int | None = None) -> None:
    if parent is not None:
        os.setpgid(0, 0)
        _watch_parent(parent)
    _W["course_dir"] = course_dir
    _W["argv"] = argv
    _W["workdir"] = workdir
    from grader.infra import kernels

    if sandbox is None:
        kernels.use_sandbox(None)  # chosen: not the default sandbox of grader.infra.kernels
    else:
        # a scratch area of this worker's own, inside the run's folder: removed with it even if
        # the worker is killed
        sandbox = sandbox.for_this_process(base=workdir)
        kernels.use_sandbox(sandbox)
        multiprocessing.util.Finalize(None, sandbox.close, exitpriority=5)  # after the zygote
    if template_db:
        db = os.path.join(workdir, f"worker-{os.getpid()}.db")
        shutil.copyfile(template_db, db)
        _W["db_url"] = f"sqlite:///{db}"
        _scratch_sqlite(db)
    else:
        _W["db_url"] = None
    # nbgrader and the kernels log to stderr; keep the parent's terminal for the progress bar
    log = open(os.path.join(workdir, f"worker-{os.getpid()}.log"), "ab", buffering=0)
    os.dup2(log.fileno(), 2)
    sys.stderr = io.TextIOWrapper(open(2, "wb", buffering=0, closefd=False), write_through=True)
    if preload is not None:
        from grader.infra import kernels

        try:
            zygote = kernels.start_zygote(preload, cwd=course_dir)
        except kernels.ZygoteError as exc:
            print(f"[grader] kernels start fresh (no preloaded kernel process: {exc})", file=sys.stderr)
        else:
            for name, why in zygote.failed.items():
                print(f"[grader] could not preload {name}: {why}", file=sys.stderr)
            if zygote.unsafe:
                print(f"[grader] kernels start fresh: {zygote.unsafe}", file=sys.stderr)
            # pool workers end through os._exit: atexit would not run, multiprocessing's Finalize does
            multiprocessing.util.Finalize(None, kernels.stop_zygote, exitpriority=10)


def _scratch_sqlite(path: str) -> None:
    """The worker's private gradebook is scratch (the parent merges its rows into the real one):
    its writes need not reach the disk before the next statement runs. Without this, nbgrader's
    ~36 commits per submission each wait for the disk (about a tenth of a worker's time per
    submission on the benchmark's class). Only connections to ``path`` are affected."""
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    target = os.path.realpath(path)

    @event.listens_for(Engine, "connect")
    def _fast(dbapi_connection, _record) -> None:
        import sqlite3

        if not isinstance(dbapi_connection, sqlite3.Connection):
            return
        files = [row[2] for row in dbapi_connection.execute("PRAGMA database_list")]
        if files and files[0] and os.path.realpath(files[0]) == target:
            dbapi_connection.execute("PRAGMA synchronous=OFF")
            dbapi_connection.execute("PRAGMA journal_mode=MEMORY")


def _grade_student(assignment: str, student: str, replay: bool = False) -> StudentResult:
    """nbgrader's autograde of one student in this worker, and the student's gradebook rows.

    Each executed cell's outputs are recorded as it finishes (``GraderExecute.checkpoint``);
    with ``replay`` no kernel runs: the submission is graded from the record a worker that died
    while grading it left (crashed in the cell it died in, with the points of the cells before).
    """
    from nbgrader.apps.autogradeapp import AutogradeApp

    from grader.infra.kernels import STATS

    start = time.perf_counter()
    # who this worker grades now: if the worker dies, the parent knows whom to suspect
    marker = os.path.join(_W["workdir"], f"running-{os.getpid()}")
    with open(marker, "w", encoding="utf-8") as fh:
        fh.write(student)
    before = dict(STATS)
    buffer = io.StringIO()
    argv = [assignment, f"--student={student}", *(_W["argv"]),
            f"--GraderExecute.checkpoint={os.path.join(_W['workdir'], 'checkpoint-' + student)}"]
    if replay:
        argv.append("--GraderExecute.replay=True")
    if _W["db_url"]:
        argv.append(f"--db={_W['db_url']}")
    ok = True
    handler = logging.StreamHandler(buffer)
    handler.setFormatter(logging.Formatter("[%(levelname)s] %(message)s"))
    kernel_log = logging.getLogger("grader.infra.kernels")
    kernel_log.addHandler(handler)
    with _chdir(_W["course_dir"]):
        app = AutogradeApp()
        try:
            app.initialize(argv)
            app.log.addHandler(handler)
            app.start()
        except SystemExit as exc:
            ok = not exc.code
        except Exception:
            import traceback

            ok = False
            buffer.write(traceback.format_exc())
        finally:
            app.log.removeHandler(handler)
            for h in list(app.log.handlers):  # AutogradeApp.initialize adds a handler per instance
                if h is not handler:
                    app.log.removeHandler(h)
                    h.close()
    kernel_log.removeHandler(handler)
    rows = read_rows(_W["db_url"], assignment, student) if _W["db_url"] else None
    os.unlink(marker)
    result = StudentResult(student, ok, time.perf_counter() - start, buffer.getvalue(), rows,
                           STATS["forked"] - before["forked"], STATS["fresh"] - before["fresh"])
    if replay:
        result.note = ("the grading worker died twice while grading this submission (its code "
                       "killed the worker, or it ran out of memory): graded up to the cell it "
                       "died in, recorded as crashed")
    return result


# ----------------------------------------------------------------------------------------------
# Progress
# ----------------------------------------------------------------------------------------------
class Progress:
    """A one-line progress bar on a terminal, one line per student otherwise."""

    def __init__(self, total: int, stream=None, enabled: bool = True):
        self.total, self.done, self.failed = total, 0, 0
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.tty = enabled and hasattr(self.stream, "isatty") and self.stream.isatty()
        self.start = time.perf_counter()

    def update(self, result: StudentResult) -> None:
        self.done += 1
        self.failed += 0 if result.ok else 1
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.start
        eta = elapsed / self.done * (self.total - self.done)
        width = 30
        filled = int(width * self.done / max(1, self.total))
        bar = "#" * filled + "-" * (width - filled)
        state = "ok" if result.ok else "FAILED"
        rate = self.done / elapsed if elapsed > 0 else 0.0
        text = (f"[{bar}] {self.done}/{self.total} students, {self.failed} failed, "
                f"{rate:.2f}/s, {elapsed:5.1f}s elapsed, eta {eta:5.1f}s")
        if self.tty:
            self.stream.write("\r" + text + (f"  last: {result.student} {state}" + " " * 10)[:40])
            if self.done == self.total:
                self.stream.write("\n")
        else:
            self.stream.write(f"{text}  ({result.student}: {state}, {result.seconds:.1f}s)\n")
        self.stream.flush()


# ----------------------------------------------------------------------------------------------
# Entry point
# ----------------------------------------------------------------------------------------------
def _kill_workers(pool) -> None:
    """On Ctrl+C: the workers (each in a process group of its own, out of the terminal's reach)
    are killed, with their kernels, instead of finishing the class first."""
    import signal

    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
    pool.shutdown(wait=False, cancel_futures=True)


def _run_pool(ctx, jobs: int, initargs: tuple, assignment: str, students: list[str], workdir: str,
              on_result, replay: bool = False) -> tuple[list[str], list[str]]:
    """Grade ``students`` on a pool of ``jobs`` workers, ``on_result(result)`` for each one
    graded. Returns (suspects, not_started) if a worker died: the students being graded when
    the pool broke (one of them killed it, or all were cut short) and those not yet begun."""
    done: set[str] = set()
    try:
        with cf.ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_worker_init,
                                    initargs=initargs + (os.getpid(),)) as pool:
            try:
                futures = {pool.submit(_grade_student, assignment, s, replay): s for s in students}
                for future in cf.as_completed(futures):
                    try:
                        result = future.result()
                    except BrokenProcessPool:
                        continue  # the rest are sorted out below
                    except Exception as exc:  # noqa: BLE001 - e.g. a result that could not be sent
                        result = StudentResult(futures[future], False, 0.0, f"worker failed: {exc!r}")
                    done.add(result.student)
                    on_result(result)
            except KeyboardInterrupt:
                _kill_workers(pool)
                raise
    except BrokenProcessPool:
        pass
    markers = glob.glob(os.path.join(workdir, "running-*"))
    suspects = []
    for marker in markers:
        with open(marker, encoding="utf-8") as fh:
            suspects.append(fh.read().strip())
        os.unlink(marker)
    suspects = [s for s in students if s in suspects and s not in done]
    not_started = [s for s in students if s not in done and s not in suspects]
    return suspects, not_started


def say(message: str, enabled: bool = True) -> None:
    """A line on stderr about what grading is doing before its progress bar starts."""
    if enabled:
        print(f"[grader] {message}", file=sys.stderr, flush=True)


def prepare(course_dir: str, assignment: str, students: list[str] | None, force: bool,
            extra_args: list[str] | None, sandbox: bool, limits, seed: int | None = None,
            progress: bool = False):
    """What every way of grading a class starts from (this machine's pool, a Dask cluster):
    the course, the students to grade, nbgrader's arguments (``seed``, one seed of hidden points
    for everyone, among them: ``InjectProbes.seed``), the sandbox (checked here)."""
    from grader.infra import nbgrader_compat

    nbgrader_compat.install()  # before any Gradebook: no `alembic` needed on PATH
    coursedir = load_coursedir(course_dir)
    _check_assignment(coursedir, assignment)
    found = submitted_students(coursedir, assignment)
    if students:
        unknown = sorted(set(students) - set(found))
        if unknown:
            raise CourseError(f"no submission of {assignment} for: {', '.join(unknown)}")
        found = [s for s in found if s in students]
    if not found:
        raise CourseError(f"no submissions of {assignment} under "
                          f"{coursedir.format_path(coursedir.submitted_directory, '*', assignment)}")
    argv = list(extra_args or [])
    if force:
        argv.append("--force")
    if seed is not None:  # an argument of every grading process, never its environment
        argv.append(f"--InjectProbes.seed={int(seed)}")

    box = None
    if sandbox:
        from grader.infra.sandbox import Sandbox

        say(f"{assignment}: {len(found)} submission(s); preparing the sandbox (the first run "
            "after an update builds the student site its kernels import, a few seconds)", progress)
        # the course is hidden even where it lies inside a folder the sandbox shows
        box = Sandbox(hide=[coursedir.root], **({} if limits is None else {"limits": limits}))
        box.check()
    return coursedir, found, argv, box


def grade_alone(ctx, initargs: tuple, assignment: str, student: str, workdir: str, record,
                forget) -> None:
    """Grade ``student``, whose grading a worker died in, alone on a fresh worker; if it kills
    that one too, grade it from what that worker recorded before it died (no kernel runs:
    crashed in the cell it died in, as a kernel that dies is); failed only if even that fails."""
    forget(student)
    lone, _ = _run_pool(ctx, 1, initargs, assignment, [student], workdir, record)
    if not lone:
        return
    forget(student)
    replay_args = tuple(initargs[:4]) + (None, None)  # no zygote, no sandbox: no kernel runs
    again, _ = _run_pool(ctx, 1, replay_args, assignment, [student], workdir, record, replay=True)
    if again:
        record(StudentResult(student, False, 0.0,
                             "the grading worker died twice while grading this submission "
                             "(killed, or out of memory), and grading it from what the worker "
                             "recorded failed too; it was not graded"))


def autograde_all(course_dir: str, assignment: str, jobs: int | None = None, force: bool = False,
                  students: list[str] | None = None, progress: bool = True,
                  extra_args: list[str] | None = None, preload: bool = True,
                  extra_preload: list[str] | None = None, sandbox: bool = True,
                  limits=None, seed: int | None = None) -> AutogradeSummary:
    """Autograde the submissions of ``assignment`` (all, or ``students``) with ``jobs`` workers.

    With ``preload`` (the default) each worker forks its kernels from a process that has already
    imported the kernel machinery and every module the assignment's source notebooks import,
    plus ``extra_preload`` (see :mod:`grader.infra.kernels`); without it every kernel starts fresh,
    as in ``nbgrader autograde``.

    With ``sandbox`` (the default) every kernel runs confined (:mod:`grader.infra.sandbox`, with
    ``limits``, a :class:`grader.infra.sandbox.Limits`); :class:`grader.infra.sandbox.SandboxError` where
    that is impossible (no bubblewrap): only ``sandbox=False`` grades without it.

    A worker that dies (killed, out of memory) fails no one: the submissions it was grading are
    graded again, each on a fresh worker of its own, and the rest on a fresh pool; one whose
    grading kills a worker twice (with ``sandbox=False`` a student's code can) is graded from
    what that worker recorded before it died: crashed in the cell it died in, with the points
    of the cells before, as a kernel that dies is (reported as failed only if even that fails).

    ``seed`` (optional): one seed of hidden points for every student, passed to each grading
    process as ``--InjectProbes.seed`` (else each student's points derive from course,
    assignment and student).

    Raises :class:`CourseError` for a missing course, an unknown assignment or no submissions.
    """
    from grader.infra.submissions import refusal_of

    coursedir, found, argv, box = prepare(course_dir, assignment, students, force, extra_args,
                                          sandbox, limits, seed, progress=progress)
    if not sandbox:  # the choice, as the grading processes' nbgrader reads it
        argv.append("--GraderExecute.sandbox=False")
    course_dir = coursedir.root
    # links and special files: refused before any worker reads the submission
    refusals = {s: r for s in found if (r := refusal_of(coursedir, assignment, s)) is not None}
    found = [s for s in found if s not in refusals]
    summary = AutogradeSummary(assignment, 0, 0.0)
    summary.results += [StudentResult(s, False, 0.0, log=r.note, refused=r.status) for s, r in refusals.items()]
    if not found:
        summary.results.sort(key=lambda r: r.student)
        return summary
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(found)))
    summary.jobs = jobs
    db_url = coursedir.db_url
    sqlite = db_url.startswith("sqlite:///")
    bar = Progress(len(found), enabled=progress)
    start = time.perf_counter()
    try:
        _autograde_pool(summary, bar, coursedir, assignment, found, argv, box, jobs, force,
                        preload, extra_preload)
    finally:
        if box is not None:
            box.close()  # the scratch area (no /tmp/grader-sandbox-* left behind)
    summary.seconds = time.perf_counter() - start
    summary.results.sort(key=lambda r: r.student)
    return summary


def _autograde_pool(summary, bar, coursedir, assignment, found, argv, box, jobs, force, preload,
                    extra_preload) -> None:
    course_dir, db_url = coursedir.root, coursedir.db_url
    sqlite = db_url.startswith("sqlite:///")
    with tempfile.TemporaryDirectory(prefix="grader-autograde-") as workdir:
        template = None
        if sqlite:
            template = os.path.join(workdir, "template.db")
            shutil.copyfile(db_url[len("sqlite:///"):], template)
        # fork (Linux) lets the workers inherit nbgrader, nbconvert and jupyter_client already
        # imported here: seconds of CPU per worker that spawn would spend importing them again
        import nbgrader.apps.autogradeapp  # noqa: F401
        import nbgrader.preprocessors  # noqa: F401
        import nbgrader.api  # noqa: F401

        modules = preload_modules(coursedir, assignment, extra_preload) if preload else None
        say(f"starting {jobs} grading worker(s)"
            + (f"; each preloads what its kernels import ({', '.join(m for m in modules if '.' not in m)[:80]}"
               "...), a few seconds, then grades" if modules else "")
            + f" {len(found)} submission(s)", bar.enabled)
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        ctx = multiprocessing.get_context(method)
        initargs = (course_dir, template, workdir, argv, modules, box)

        def record(result: StudentResult) -> None:
            if sqlite and result.rows is not None:
                merge_rows(db_url, assignment, result.student, result.rows)
            summary.results.append(result)
            bar.update(result)

        def autograded(student: str) -> str:
            return coursedir.format_path(coursedir.autograded_directory, student, assignment)

        existed = {s for s in found if os.path.isdir(autograded(s))}

        def forget(student: str) -> None:
            """The half-written output of a grading cut short (nbgrader would skip it)."""
            if force or student not in existed:
                shutil.rmtree(autograded(student), ignore_errors=True)

        queue = list(found)
        while queue:
            before = len(summary.results)
            suspects, queue = _run_pool(ctx, jobs, initargs, assignment, queue, workdir, record)
            if queue and not suspects and len(summary.results) == before:
                # the workers died before grading anyone (at start-up): do not loop for ever
                for student in queue:
                    record(StudentResult(student, False, 0.0, "the grading workers died while "
                                         "starting, before grading anything"))
                queue = []
            for student in queue:
                forget(student)
            for student in suspects:  # each alone on a fresh worker: who killed it is then clear
                grade_alone(ctx, initargs, assignment, student, workdir, record, forget)
