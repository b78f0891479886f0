"""autograde-all --scheduler: a real Dask scheduler and two workers, separate processes on
127.0.0.1, grade a class to the gradebook the local pool writes; a worker killed mid-run loses
no submission. The course and the submissions are shipped with the tasks: the workers run in a
folder of their own and never see the course folder."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time

import nbformat
import pytest

from tests.support.course import LESSON, autograde_summary, env, grader_cli, nbgrader
from grader.infra.parallel import read_rows
from test_grader_parallel import _class as _local_class, _outputs, build_class as _class, link_submission, local_pool_class

pytest.importorskip("distributed", reason="Dask is not installed (pip install -e '.[cluster]')")

pytestmark = [pytest.mark.slow, pytest.mark.kernel,
              pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")]

EN = f"{LESSON}-en"
FULL = {"l01_ex1": 1.0, "l01_ex2": 2.0, "l01_ex3": 2.0, "l01_ex4": 2.0, "l01_ex5": 2.0}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """``dask scheduler`` and ``dask worker`` processes; workers in folders of their own."""

    def __init__(self, root, workers: int = 2, nanny: bool = True):
        self.nanny = nanny
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.port = _free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.env = env()
        self.scheduler = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
             "--port", str(self.port), "--no-dashboard"],
            cwd=root, env=self.env, stdout=subprocess.DEVNULL, stderr=open(root / "scheduler.log", "wb"))
        self.workers: dict[str, subprocess.Popen] = {}
        for i in range(workers):
            self.add_worker(f"w{i}")
        self.wait(workers)

    def add_worker(self, name: str) -> None:
        home = self.root / name
        (home / "tmp").mkdir(parents=True)
        self.workers[name] = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", self.address, "--nthreads", "1",
             *([] if self.nanny else ["--no-nanny"]), "--no-dashboard", "--host", "127.0.0.1", "--name", name,
             "--local-directory", str(home)],
            cwd=home, env=dict(self.env, TMPDIR=str(home / "tmp")), stdout=subprocess.DEVNULL,
            stderr=open(home / "worker.log", "wb"))

    def wait(self, workers: int) -> None:
        from distributed import Client

        with Client(self.address, timeout=60) as client:
            client.wait_for_workers(workers, timeout=120)

    def close(self) -> None:
        """Workers first, then the scheduler: a nanny whose scheduler is already gone spends its
        shutdown trying to reach it (8.3 s to close a two-nanny cluster that way, 2.7 s in order)."""
        for group in ([*self.workers.values()], [self.scheduler]):
            for proc in group:
                if proc.poll() is None:
                    proc.terminate()
            for proc in group:
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


@pytest.fixture
def cluster(tmp_path):
    """``dask worker``'s default: each worker process run by a nanny (a daemonic process)."""
    c = Cluster(tmp_path / "cluster")
    yield c
    c.close()


@pytest.fixture
def bare_cluster(tmp_path):
    """Workers without nannies: killing one ends it for good (none restarts it)."""
    c = Cluster(tmp_path / "cluster", nanny=False)
    yield c
    c.close()


def _rows(course, student):
    return read_rows(f"sqlite:///{course / 'gradebook.db'}", EN, student)


def _cells(course, student):
    """What feedback is made of: every cell's source and outputs, without what differs between
    any two runs (how prints are split into messages, timings, addresses: the same comparison
    as serial nbgrader against the local pool in test_grader_parallel), and the issues noted."""
    nb = nbformat.read(course / "autograded" / student / EN / f"{LESSON}.ipynb", as_version=4)
    return ([(cell.cell_type, cell.source, _outputs(cell)) for cell in nb.cells],
            nb.metadata.get("grader", {}).get("issues"))


def test_cluster_grades_like_the_local_pool(tmp_path, cluster):
    """The cluster's gradebook rows and autograded cells equal the local pool's for the same
    class (test_grader_parallel's, graded once per session and shared): a correct, a wrong and
    late, a partly right, a crashed kernel, an untouched notebook, a link (refused alike)."""
    remote, students = _local_class(tmp_path / "remote", untouched=True)
    link_submission(remote)
    out = grader_cli(remote, "autograde-all", EN, "--scheduler", cluster.address, "--quiet").stdout
    local, local_out = local_pool_class()
    summary = autograde_summary(out, EN)
    assert (summary["graded"], summary["failed"], summary["refused"]) == (5, 0, 1)
    assert summary["statuses"] == autograde_summary(local_out, EN)["statuses"]  # the local pool's
    assert summary["students"]["unanswered"] == ["e_untouched"], summary
    assert f"2 worker thread(s) of the Dask cluster at {cluster.address}, " in out
    refused = "refused (not graded, nothing copied; see the export): f_linked: refused_link"
    assert refused in out and refused in local_out
    assert not (remote / "autograded" / "f_linked").exists()
    assert "kernels: 6 forked from preloaded processes, 0 started fresh" in out
    for student in students:
        assert _rows(remote, student) == _rows(local, student), student
        assert _cells(remote, student) == _cells(local, student), student
    grades = _rows(remote, "d_killed")["notebooks"][LESSON]["grades"]
    assert {g: v["auto_score"] for g, v in grades.items()} == {**FULL, "l01_ex3": 0.0}
    # the workers never saw the course folder: they graded shipped copies in their own folders
    for name in cluster.workers:
        log = (cluster.root / name / "worker.log").read_text(encoding="utf-8", errors="replace")
        assert str(remote) not in log
    # the feedback of the cluster's run is nbgrader's
    nbgrader(remote, "generate_feedback", EN)
    assert (remote / "feedback" / "a_correct" / EN / f"{LESSON}.html").exists()


def test_cluster_grades_lesson7_where_minitapes_autodiff_is_absent(tmp_path, cluster):
    """The Dask path runs the same worker code: lesson 7's exercises 1-5 are probed in the
    no-autodiff world on the cluster's workers too (each builds the world from its own
    student site), so minitape's jacobian earns nothing there and an honest tape everything."""
    from lesson7_attacks import FORBIDDEN
    from tests.support.course import make_course, read, reference_solutions, released, submit, with_answers

    lesson = "07-build-your-own-tape"
    assignment = f"{lesson}-en"
    course = make_course(tmp_path / "l7", langs=("en",), timeout=60, lessons=(lesson,))
    nbgrader(course, "generate_assignment", assignment)
    sol = reference_solutions(course, assignment, lesson=lesson)
    rel = released(course, assignment, lesson=lesson)
    for student, answers in {"a_own_tape": sol,
                             "b_jacobian": {**sol, "l07_ex2": FORBIDDEN["l07_ex2 (jacobian)"]}}.items():
        submit(course, student, assignment, with_answers(rel, answers), "2030-01-01 10:00:00 UTC",
               lesson=lesson)
    out = grader_cli(course, "autograde-all", assignment, "--scheduler", cluster.address,
                     "--quiet").stdout
    assert f"{assignment}: 2 submission(s): 2 graded" in out, out
    scores = {s: read(course / "autograded" / s / assignment / f"{lesson}.ipynb").metadata.grader.scores
              for s in ("a_own_tape", "b_jacobian")}
    assert {k: v["score"] for k, v in scores["a_own_tape"].items()} == \
        {"l07_ex1": 2, "l07_ex2": 3, "l07_ex3": 2, "l07_ex4": 2, "l07_ex5": 2, "l07_ex6": 0}
    assert scores["b_jacobian"]["l07_ex2"]["score"] == 0
    assert scores["b_jacobian"]["l07_ex3"]["score"] == 2


def test_a_worker_killed_mid_run_loses_no_submission(tmp_path, bare_cluster):
    cluster = bare_cluster
    # the kill lands 1 s after a worker names s_slow as the one it grades: its 4 s sleep keeps the
    # window open under load, and its regrade on the other worker sleeps 4 s, not 10
    slow = "import time\ntime.sleep(4)\n"
    correct = ["a_correct", "b_correct", "c_correct"]
    course, students = _class(tmp_path / "c", lambda sol: {
        **{s: sol for s in correct}, "s_slow": {**sol, "l01_ex1": slow + sol["l01_ex1"]}})
    proc = subprocess.Popen([sys.executable, "-m", "grader", "autograde-all", EN, "--scheduler",
                             cluster.address, "--course", str(course)], cwd=course, env=env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    killed = None
    deadline = time.time() + 400
    while killed is None and time.time() < deadline and proc.poll() is None:
        for name in cluster.workers:  # a worker's grading process names the student it grades
            for marker in (cluster.root / name / "tmp").glob("grader-worker-*/grader-task-*/running-*"):
                try:
                    if marker.read_text(encoding="utf-8").strip() == "s_slow":
                        time.sleep(1)  # grading s_slow (≥ 4 s): well inside it
                        cluster.workers[name].kill()
                        killed = name
                        break
                except OSError:
                    pass
            if killed:
                break
        time.sleep(0.2)
    out, err = proc.communicate(timeout=600)
    assert killed is not None, out + err
    assert proc.returncode == 0, out + err
    # the export's statuses: build_class makes its second student late
    assert f"{EN}: 4 submission(s): 4 graded (3 ok, 1 late), 0 failed;" in out
    assert "late (see the export's notes): b_correct" in out
    # progress: done / failed / per second, one line per student (not a terminal)
    assert "4/4 students, 0 failed," in err and "/s," in err
    assert {s: {g: v["auto_score"] for g, v in _rows(course, s)["notebooks"][LESSON]["grades"].items()}
            for s in students} == {s: FULL for s in students}


def test_unreachable_scheduler_is_one_clear_line(tmp_path):
    course, _ = _class(tmp_path / "c", lambda sol: {"a_correct": sol})
    address = f"tcp://127.0.0.1:{_free_port()}"
    # a short --connect-timeout: nothing listens there, and the default (10 s) would only be waited out.
    # That it was the one used is read from Dask's own reason, not from a wall clock (a loaded machine
    # once took 18 s for the whole command)
    proc = grader_cli(course, "autograde-all", EN, "--scheduler", address, "--connect-timeout", "2",
                      "--quiet", check=False)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: cannot reach the Dask scheduler at {address}")
    assert lines[0].endswith("after 2 s"), "--connect-timeout was not used: " + lines[0]
    assert "Traceback" not in proc.stderr
    assert not (course / "autograded").exists()


def test_without_scheduler_dask_is_not_imported():
    code = ("import sys, grader.autograde.cli, grader.infra.parallel; grader.autograde.cli.build_parser(); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))")
    out = subprocess.run([sys.executable, "-c", code], env=env(), capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("value", ["0", "-1", "soon", "inf"])
def test_connect_timeout_must_be_positive_seconds(value, capsys):
    from grader.autograde.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["autograde-all", EN, "--scheduler", "tcp://127.0.0.1:1", "--connect-timeout", value])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "--connect-timeout" in err and "Traceback" not in err
