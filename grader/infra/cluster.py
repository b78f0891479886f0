"""Autograde a class on a Dask cluster: ``python -m grader autograde-all A --scheduler ADDRESS``.

One machine grades a submission of lesson 1 in ~1.7 CPU-s; a course with thousands of
submissions per assignment needs more machines. `Dask <https://distributed.dask.org>`_'s
distributed scheduler spreads the submissions over the workers of a running cluster
(``dask scheduler`` and ``dask worker`` processes on one or many machines, or SSH, Kubernetes,
HPC job queues through ``dask-jobqueue``); this module is the client.

What runs where:

- **the client** (this process, on the instructor's machine, in the course folder) prepares the
  run exactly as :func:`grader.infra.parallel.autograde_all` does (same checks, same sandbox check,
  same nbgrader arguments), then sends *one task per submission*. It stays the only writer of
  the course: it merges each student's gradebook rows (:func:`grader.infra.parallel.merge_rows`, the
  local path's merge) and writes each student's ``autograded/`` folder, once per student, as
  results come in; it shows progress (done / failed / per second) and counts the summary.
- **the course is shipped with the tasks** (the workers need no access to the course folder):
  one archive per run, a task of its own that each worker fetches once (and the cluster makes
  again if a worker holding it dies), holds
  ``nbgrader_config.py``, the exercise definitions (``definitions/``: reference solutions and
  hidden cases), the assignment's ``source/`` folder and a copy of the gradebook; each task
  carries its student's ``submitted/<student>/<assignment>/`` folder. A worker unpacks the
  course once into a private temporary folder and keeps it for the run.
- **a worker** grades each task with the local path's own code: a grading process of its own
  (:func:`grader.infra.parallel._worker_init`, a process pool of one), which runs nbgrader's
  ``AutogradeApp`` on a private gradebook copy with forked, sandboxed kernels
  (:func:`grader.infra.parallel._grade_student`), scores outside the kernel, reads the student's rows
  back. A kernel that kills that grading process is handled as on one machine
  (:func:`grader.infra.parallel.grade_alone`: again on a fresh process, then from the record it left).
  The task returns the rows and the ``autograded/`` folder as an archive.
- **a worker that dies** (killed, out of memory, its machine gone) loses nothing: the scheduler
  gives its tasks to other workers (up to ``distributed.scheduler.allowed-failures`` deaths per
  task, then the client reports that submission as failed), and since only the client writes the
  course, a submission is merged once, whichever attempt finished it.

The shared-filesystem alternative (every worker sees the course folder at the same path, e.g. on
NFS) is documented in grader/README.md; shipping is what this module does, and what the tests
use.
"""

from __future__ import annotations

import collections
import io
import os
import shutil
import tarfile
import tempfile
import threading
import time
import uuid

from grader.infra.parallel import (AutogradeSummary, CourseError, Progress, StudentResult, grade_alone,
                       merge_rows, prepare, preload_modules)

__all__ = ["ClusterError", "autograde_on_cluster"]


class ClusterError(Exception):
    """The Dask cluster cannot be used (unreachable scheduler, no workers, dask missing)."""


# ----------------------------------------------------------------------------------------------
# Archives
# ----------------------------------------------------------------------------------------------
def _pack(members: list[tuple[str, str]]) -> bytes:
    """A gzipped tar of ``(path on disk, name in the archive)``."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", compresslevel=3) as tar:
        for path, name in members:
            if os.path.exists(path):
                tar.add(path, arcname=name, filter=_no_cache)
    return buffer.getvalue()


def _no_cache(info: tarfile.TarInfo):
    return None if "__pycache__" in info.name.split("/") or info.name.endswith(".pyc") else info


def _unpack(data: bytes, dest: str) -> None:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(dest, filter="data")  # no absolute paths, links out, devices
        else:  # Python < 3.11.4: the archives are the grader's own (client and workers)
            tar.extractall(dest)


def course_bundle(coursedir, assignment: str) -> bytes:
    """What a worker needs of the course to grade ``assignment`` (see the module doc)."""
    root = coursedir.root
    rel = lambda path: os.path.relpath(path, root)  # noqa: E731
    source = coursedir.format_path(coursedir.source_directory, ".", assignment)
    members = [(os.path.join(root, "nbgrader_config.py"), "nbgrader_config.py"),
               (os.path.join(root, "definitions"), "definitions"),
               (os.path.join(root, "exercises"), "exercises"),  # a course folder from before
               (source, rel(source))]
    db = coursedir.db_url[len("sqlite:///"):]
    with tempfile.TemporaryDirectory(prefix="grader-bundle-") as tmp:
        # a consistent copy even while nbgrader writes (sqlite's backup API)
        import sqlite3

        copy = os.path.join(tmp, "template.db")
        with sqlite3.connect(db) as src, sqlite3.connect(copy) as dst:
            src.backup(dst)
        src.close()
        dst.close()
        members.append((copy, "template.db"))
        return _pack(members)


# ----------------------------------------------------------------------------------------------
# On a worker
# ----------------------------------------------------------------------------------------------
class _Grader:
    """A grading process of a worker's own (a pool of one, as a local worker) and its folder."""

    def __init__(self, course: "_Course"):
        self.course = course
        self.workdir = tempfile.mkdtemp(prefix="grader-task-", dir=course.base)
        self.pool = None

    def initargs(self, with_kernels: bool = True) -> tuple:
        c = self.course
        return (c.root, c.template, self.workdir, c.options["argv"],
                c.options["preload"] if with_kernels else None,
                c.sandbox if with_kernels else None)

    def grade(self, assignment: str, student: str) -> list[StudentResult]:
        import concurrent.futures as cf
        from concurrent.futures.process import BrokenProcessPool

        from grader.infra import parallel

        results: list[StudentResult] = []
        if self.pool is None:
            self.pool = cf.ProcessPoolExecutor(1, mp_context=self.course.ctx,
                                               initializer=parallel._worker_init,
                                               initargs=self.initargs() + (os.getpid(),))
        try:
            results.append(self.pool.submit(parallel._grade_student, assignment, student).result())
            return results
        except BrokenProcessPool:
            # the submission killed its grading process (or it ran out of memory): as on one
            # machine, again on a fresh one, then from what that one recorded
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None
            for name in os.listdir(self.workdir):
                if name.startswith("running-"):
                    os.unlink(os.path.join(self.workdir, name))
        grade_alone(self.course.ctx, self.initargs(), assignment, student, self.workdir,
                    results.append, self.course.forget(assignment))
        return results

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None


class _Course:
    """A course unpacked on this worker (one per run), with its idle grading processes."""

    def __init__(self, bundle: bytes, options: dict):
        import multiprocessing

        from grader.infra.parallel import load_coursedir

        self.options = options
        self.base = tempfile.mkdtemp(prefix="grader-worker-")
        self.root = os.path.join(self.base, "course")
        os.makedirs(self.root)
        _unpack(bundle, self.root)
        self.template = os.path.join(self.root, "template.db")
        self.coursedir = load_coursedir(self.root)
        self.sandbox = None
        if options["sandbox"]:
            from grader.infra.sandbox import Limits, Sandbox

            self.sandbox = Sandbox(hide=[self.root], limits=Limits(**options["limits"]))
            self.sandbox.check()  # SandboxError: this worker cannot sandbox kernels
        # spawn, not fork: a Dask worker runs threads (its event loop) that a fork would copy
        # mid-flight; the grading process imports nbgrader once and then grades many tasks
        self.ctx = multiprocessing.get_context("spawn")
        self.idle: list[_Grader] = []
        self.lock = threading.Lock()
        self.users = 0  # tasks using it now

    def forget(self, assignment: str):
        def forget(student: str) -> None:
            shutil.rmtree(self.autograded(student, assignment), ignore_errors=True)
        return forget

    def autograded(self, student: str, assignment: str) -> str:
        return self.coursedir.format_path(self.coursedir.autograded_directory, student, assignment)

    def submitted(self, student: str, assignment: str) -> str:
        return self.coursedir.format_path(self.coursedir.submitted_directory, student, assignment)

    def take(self) -> _Grader:
        with self.lock:
            return self.idle.pop() if self.idle else _Grader(self)

    def give_back(self, grader: _Grader) -> None:
        with self.lock:
            self.idle.append(grader)

    def close(self) -> None:
        with self.lock:
            graders, self.idle = self.idle, []
        for grader in graders:
            grader.close()
        if self.sandbox is not None:
            self.sandbox.close()
        shutil.rmtree(self.base, ignore_errors=True)


_DAEMON_LOCK = threading.Lock()
_DAEMON_USERS = 0


class _may_have_children:
    """A Dask worker under a nanny (``dask worker``'s default, ``LocalCluster``) is a daemonic
    process, and multiprocessing refuses to start children from one (they would be orphaned
    when it is killed). Our grading processes watch their parent and end themselves, and their
    process groups, when it is gone (``grader.infra.parallel._watch_parent``), so the flag is lifted
    while they are started."""

    def __enter__(self):
        import multiprocessing

        global _DAEMON_USERS
        with _DAEMON_LOCK:
            config = multiprocessing.current_process()._config
            if _DAEMON_USERS == 0:
                self.daemon = config.get("daemon")
                _may_have_children.saved = self.daemon
                config["daemon"] = False
            _DAEMON_USERS += 1
        return self

    def __exit__(self, *exc):
        import multiprocessing

        global _DAEMON_USERS
        with _DAEMON_LOCK:
            _DAEMON_USERS -= 1
            if _DAEMON_USERS == 0 and _may_have_children.saved:
                multiprocessing.current_process()._config["daemon"] = _may_have_children.saved


_COURSES: dict[str, _Course] = {}
_COURSES_LOCK = threading.Lock()


def _course(run: str, bundle: bytes, options: dict) -> _Course:
    """The unpacked course of ``run`` (one per run: each has its own options and gradebook
    copy), its user count raised; earlier runs' courses that no task uses are removed (two
    clients may grade on one cluster at once)."""
    with _COURSES_LOCK:
        course = _COURSES.get(run)
        if course is None:
            for old in [r for r, c in _COURSES.items() if c.users == 0]:
                _COURSES.pop(old).close()
            course = _COURSES[run] = _Course(bundle, options)
        course.users += 1
        return course


def _release(course: _Course) -> None:
    with _COURSES_LOCK:
        course.users -= 1


def _identity(data: bytes) -> bytes:
    return data


def grade_task(run: str, bundle: bytes, options: dict, assignment: str, student: str,
               submission: bytes) -> tuple[list[StudentResult], bytes | None]:
    """A Dask task: grade one shipped submission; (results, the autograded folder archived)."""
    course = _course(run, bundle, options)
    try:
        submitted = course.submitted(student, assignment)
        autograded = course.autograded(student, assignment)
        shutil.rmtree(submitted, ignore_errors=True)
        shutil.rmtree(autograded, ignore_errors=True)
        os.makedirs(submitted)
        _unpack(submission, submitted)
        grader = course.take()
        try:
            with _may_have_children():
                results = grader.grade(assignment, student)
        finally:
            course.give_back(grader)
        files = _pack([(autograded, ".")]) if os.path.isdir(autograded) else None
        shutil.rmtree(submitted, ignore_errors=True)
        shutil.rmtree(autograded, ignore_errors=True)
        return results, files
    finally:
        _release(course)


# ----------------------------------------------------------------------------------------------
# The client
# ----------------------------------------------------------------------------------------------
def connect(address: str, timeout: float = 10):
    """A Dask client of the scheduler at ``address``; :class:`ClusterError` if it cannot be."""
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError("--scheduler needs Dask's distributed scheduler: "
                           "pip install -e '.[course,cluster]'") from None
    try:
        return Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {reason}") from None


def autograde_on_cluster(course_dir: str, assignment: str, scheduler, force: bool = False,
                         students: list[str] | None = None, progress: bool = True,
                         extra_args: list[str] | None = None, preload: bool = True,
                         extra_preload: list[str] | None = None, sandbox: bool = True,
                         limits=None, seed: int | None = None,
                         connect_timeout: float = 10) -> AutogradeSummary:
    """Autograde ``assignment`` on the Dask cluster whose scheduler is ``scheduler`` (an address
    such as ``tcp://10.0.0.5:8786``, or a :class:`distributed.Client`). Same arguments and
    result as :func:`grader.infra.parallel.autograde_all`; ``summary.jobs`` is the number of worker
    threads the cluster had at the start.

    Raises :class:`CourseError` as the local path does, :class:`ClusterError` for an
    unreachable scheduler or a cluster without workers.
    """
    import dataclasses

    from grader.infra.sandbox import Limits
    from grader.infra.submissions import refusal_of

    # the sandbox is checked where kernels run, on the workers (SandboxError there)
    coursedir, found, argv, _ = prepare(course_dir, assignment, students, force, extra_args,
                                        False, None, seed)  # the seed travels in argv
    if not sandbox:  # the choice, as the grading processes' nbgrader reads it
        argv.append("--GraderExecute.sandbox=False")
    # links and special files: refused here, before anything of them is packed for a worker (as
    # the local pool refuses them), and reported as refused, not as failed
    refusals = {s: r for s in found if (r := refusal_of(coursedir, assignment, s)) is not None}
    found = [s for s in found if s not in refusals]
    refused = [StudentResult(s, False, 0.0, log=r.note, refused=r.status) for s, r in refusals.items()]
    db_url = coursedir.db_url
    if not db_url.startswith("sqlite:///"):
        raise CourseError("--scheduler grades into the course's sqlite gradebook; with "
                          f"{db_url.split(':', 1)[0]} run autograde-all on one machine")
    client = connect(scheduler, connect_timeout) if isinstance(scheduler, str) else scheduler
    own_client = isinstance(scheduler, str)
    try:
        summary = _run(client, coursedir, assignment, found, argv, force, progress,
                       preload_modules(coursedir, assignment, extra_preload) if preload else None,
                       dataclasses.asdict(limits or Limits()), sandbox)
        summary.results = sorted(summary.results + refused, key=lambda r: r.student)
        return summary
    finally:
        if own_client:
            client.close()


def _run(client, coursedir, assignment, found, argv, force, progress, modules, limits,
         sandboxed) -> AutogradeSummary:
    threads = sum(client.nthreads().values())
    if not threads:
        try:
            client.wait_for_workers(1, timeout=30)
        except TimeoutError:
            raise ClusterError(f"the Dask cluster at {client.scheduler.address} has no workers") from None
        threads = sum(client.nthreads().values())
    db_url = coursedir.db_url
    summary = AutogradeSummary(assignment, threads, 0.0)
    bar = Progress(len(found), enabled=progress)
    start = time.perf_counter()

    def autograded(student: str) -> str:
        return coursedir.format_path(coursedir.autograded_directory, student, assignment)

    def record(result: StudentResult, files: bytes | None = None) -> None:
        if result.ok and files is not None:
            dest = autograded(result.student)
            shutil.rmtree(dest, ignore_errors=True)
            os.makedirs(dest)
            _unpack(files, dest)
        if result.rows is not None:
            merge_rows(db_url, assignment, result.student, result.rows, gb=gradebook)
        summary.results.append(result)
        bar.update(result)

    from nbgrader.api import Gradebook

    # the one writer of the gradebook: one session for the run, a commit per student
    gradebook = Gradebook(db_url)
    try:
        _submit_all(client, coursedir, assignment, found, argv, force, modules, limits, sandboxed,
                    threads, autograded, record)
    finally:
        gradebook.close()
    summary.seconds = time.perf_counter() - start
    summary.results.sort(key=lambda r: r.student)
    return summary


def _submit_all(client, coursedir, assignment, found, argv, force, modules, limits, sandboxed,
                threads, autograded, record) -> None:
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    todo = []
    for student in found:
        if not force and os.path.isdir(autograded(student)):
            # what nbgrader does on one machine: an autograded submission is skipped
            record(StudentResult(student, True, 0.0, "already autograded (--force regrades it)"))
        else:
            todo.append(student)
    run = uuid.uuid4().hex
    # the seed of hidden points, if any, is in argv (InjectProbes.seed)
    options = {"argv": argv, "preload": modules, "sandbox": sandboxed, "limits": limits}
    # the course as a task whose result is the archive (not scattered data, which the cluster
    # cannot recover once a worker holding it dies): a worker gets it once, from the scheduler
    # or another worker, and a lost copy is made again
    bundle = client.submit(_identity, course_bundle(coursedir, assignment), key=f"course-{run}",
                           pure=False)

    def submit(student: str):
        folder = coursedir.format_path(coursedir.submitted_directory, student, assignment)
        return client.submit(grade_task, run, bundle, options, assignment, student,
                             _pack([(folder, ".")]), key=f"grade-{assignment}-{student}-{run}",
                             pure=False)

    # a bounded window of submissions in flight: the client holds the archives of a few,
    # not of the whole class
    window = max(16, 4 * threads)
    queue = collections.deque(todo)
    pending = as_completed(loop=client.loop)
    owner = {}
    while queue and len(owner) < window:
        student = queue.popleft()
        future = submit(student)
        owner[future.key] = student
        pending.add(future)
    for future in pending:
        student = owner.pop(future.key)
        try:
            results, files = future.result()
        except KilledWorker:
            record(StudentResult(student, False, 0.0, "the Dask workers grading this submission "
                                 "died each time (see distributed.scheduler.allowed-failures)"))
        except Exception as exc:  # noqa: BLE001 - a task that raised: report it, go on
            record(StudentResult(student, False, 0.0, f"grading on the cluster failed: "
                                 f"{type(exc).__name__}: {exc}"))
        else:
            for result in results:
                record(result, files if result is results[-1] else None)
        future.release()
        if queue:
            nxt = queue.popleft()
            new = submit(nxt)
            owner[new.key] = nxt
            pending.add(new)
