"""Parallel autograde gives the gradebook serial `nbgrader autograde` gives.

The class graded by the local pool (``local_pool_class``) is graded once per test session and
shared with test_grader_cluster, which compares the Dask cluster's run with the same run.
"""

from __future__ import annotations

import os
import re

import nbformat
import pytest

from tests.support import shared
from tests.support.course import (KILLS_KERNEL, LESSON, PARTLY_RIGHT, WRONG, autograde_summary, grader_cli, released_course,
                            nbgrader, released, reference_solutions, set_duedate, submit,
                            with_answers)
from grader.infra.parallel import merge_rows, read_rows

pytestmark = [pytest.mark.slow, pytest.mark.kernel]

EN = f"{LESSON}-en"


def build_class(root, answers):
    """Lesson 1's released course under ``root`` with one submission per entry of
    ``answers(reference solutions)`` ({student: {exercise: code}}); the second student is late."""
    course = released_course(root, langs=("en",), timeout=30)
    set_duedate(course, EN, "2030-01-01 12:00:00 UTC")
    sol, rel = reference_solutions(course, EN), released(course, EN)
    answers = answers(sol)
    for i, (student, code) in enumerate(answers.items()):
        stamp = "2030-01-02 10:00:00 UTC" if i == 1 else "2030-01-01 10:00:00 UTC"  # one is late
        submit(course, student, EN, with_answers(rel, code), stamp)
    return course, sorted(answers)


def _class(root, untouched: bool = False):
    """a_correct, b_wrong (late), c_partly, d_killed (its kernel dies in ex3), and with
    ``untouched`` e_untouched (the released notebook as it was)."""
    return build_class(root, lambda sol: {
        "a_correct": sol, "b_wrong": WRONG, "c_partly": {**sol, **PARTLY_RIGHT},
        "d_killed": {**sol, **KILLS_KERNEL}, **({"e_untouched": {}} if untouched else {})})


def link_submission(course) -> None:
    """f_linked: a submission that is a symbolic link (to the instructor's source notebook)."""
    linked = course / "submitted" / "f_linked" / EN
    linked.mkdir(parents=True)
    (linked / f"{LESSON}.ipynb").symlink_to(course / "source" / EN / f"{LESSON}.ipynb")


def local_pool_class():
    """``_class(untouched=True)`` plus ``f_linked``, graded by the local pool
    (``autograde-all --jobs 2``), once per test session across pytest-xdist's workers
    (``shared.build_once``): this module compares it with serial nbgrader, test_grader_cluster
    with the Dask cluster, instead of each grading the same class again. Returns (course,
    autograde-all's stdout); the course is shared: read it, never change it."""
    def build(folder):
        course, _ = _class(folder / "course", untouched=True)
        link_submission(course)
        out = grader_cli(course, "autograde-all", EN, "--jobs", "2", "--quiet").stdout
        (folder / "autograde-all.out").write_text(out, encoding="utf-8")

    folder = shared.build_once("local-pool-class", shared.content_key([], LESSON, "v1"), build)
    return folder / "course", (folder / "autograde-all.out").read_text(encoding="utf-8")


def _volatile(text):
    if "grader-report" in text:  # hidden checks draw random shapes and points: keep the verdict
        return re.findall(r"data-(?:exercise|score)='([^']*)'", text)
    text = re.sub(r"0x[0-9a-f]+", "0x", text)
    return re.sub(r"-?\d+(\.\d+)?(e[-+]?\d+)?", "#", text)


def _outputs(cell):
    """A cell's outputs without what differs from run to run (timings, object addresses)."""
    if cell.cell_type != "code":
        return None
    found = []
    for out in cell.get("outputs", []):
        out = dict(out)
        out.pop("metadata", None)
        # a kernel that died during a cell may or may not have announced its execution count
        out.pop("execution_count", None)
        if "data" in out:
            # PNG bytes are deterministic; object addresses and the errors measured at the
            # hidden checks' random points are not
            out["data"] = {k: (_volatile(v) if k in ("text/plain", "text/html") else v)
                           for k, v in out["data"].items() if k != "application/vnd.jupyter.widget-view+json"}
        if (out.get("output_type") == "stream" and found and found[-1].get("output_type") == "stream"
                and found[-1]["name"] == out["name"]):
            # how a cell's prints are split into stream messages depends on timing: join them
            found[-1] = {**found[-1], "text": found[-1]["text"] + out["text"]}
            continue
        found.append(out)
    for out in found:
        if "text" in out:
            out["text"] = _volatile(out["text"])
    return found


def test_parallel_autograde_equals_serial(tmp_path):
    serial, students = _class(tmp_path / "serial")
    nbgrader(serial, "autograde", EN)
    parallel, out = local_pool_class()
    # every kernel forked from a worker's preloaded process, none fell back to a fresh start
    # (6: a-d and e_untouched, and d_killed's second kernel after its function killed the
    # first while ex3 was checked; the link is refused before any kernel)
    assert "kernels: 6 forked from preloaded processes, 0 started fresh" in out
    # exact counts, in the export's statuses: d_killed crashed its kernel and is graded, the
    # untouched notebook is unanswered (not "0 flagged"), the link refused
    summary = autograde_summary(out, EN)
    assert (summary["submissions"], summary["graded"], summary["failed"], summary["refused"]) == (6, 5, 0, 1)
    crashed = [who for status, who in summary["students"].items() if "crashed" in status.split(";")]
    assert crashed == [["d_killed"]], summary
    assert summary["students"]["unanswered"] == ["e_untouched"], summary
    assert sum(summary["statuses"].values()) == 5
    db = lambda course: f"sqlite:///{course / 'gradebook.db'}"  # noqa: E731
    for student in students:
        expected, got = read_rows(db(serial), EN, student), read_rows(db(parallel), EN, student)
        assert expected is not None and got == expected, student
        # and the autograded notebooks hold the same outputs (figures included) as nbgrader's
        want = nbformat.read(serial / "autograded" / student / EN / f"{LESSON}.ipynb", as_version=4)
        have = nbformat.read(parallel / "autograded" / student / EN / f"{LESSON}.ipynb", as_version=4)
        assert len(want.cells) == len(have.cells)
        for a, b in zip(want.cells, have.cells):
            assert _outputs(a) == _outputs(b), (student, a.source[:200])
    scores = {s: {g: v["auto_score"] for g, v in read_rows(db(parallel), EN, s)["notebooks"][LESSON]["grades"].items()}
              for s in students}
    assert scores["a_correct"] == {"l01_ex1": 1.0, "l01_ex2": 2.0, "l01_ex3": 2.0, "l01_ex4": 2.0, "l01_ex5": 2.0}
    assert scores["c_partly"]["l01_ex3"] == 0.75
    # its function killed the kernel while ex3 was checked: the other exercises' checks went on
    # in a fresh kernel (issue 36: the probes run every visible case before any hidden one)
    assert scores["d_killed"] == {"l01_ex1": 1.0, "l01_ex2": 2.0, "l01_ex3": 0.0, "l01_ex4": 2.0,
                                  "l01_ex5": 2.0}


def test_summary_counts_failures_and_exits_nonzero(tmp_path):
    """A submission nbgrader cannot grade (not a notebook) is counted as failed, never as graded."""
    course = released_course(tmp_path / "c", langs=("en",), timeout=30)
    rel = released(course, EN)
    submit(course, "a_correct", EN, with_answers(rel, reference_solutions(course, EN)),
           "2030-01-01 10:00:00 UTC")
    broken = submit(course, "b_broken", EN, rel, "2030-01-01 10:00:00 UTC")
    (broken / f"{LESSON}.ipynb").write_text("{ this is not a notebook", encoding="utf-8")
    proc = grader_cli(course, "autograde-all", EN, "--jobs", "2", "--quiet", check=False)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"{EN}: 2 submission(s): 1 graded (1 ok), 1 failed;" in proc.stdout
    assert "error: 1 of 2 submission(s) could not be autograded" in proc.stderr
    assert "b_broken" in proc.stderr.splitlines()[-1]


def test_merge_is_idempotent_and_creates_missing_students(tmp_path):
    from nbgrader.api import Gradebook

    course, _ = _class(tmp_path / "c")
    url = f"sqlite:///{course / 'gradebook.db'}"
    rows = {"student": {"first_name": "Zoe", "last_name": None, "email": None, "lms_user_id": None},
            "timestamp": None,
            "notebooks": {LESSON: {"flagged": True, "late_submission_penalty": None,
                                   "grades": {"l01_ex1": {"auto_score": 0.5, "needs_manual_grade": False}},
                                   "comments": {}}}}
    merge_rows(url, EN, "z_new", rows)
    merge_rows(url, EN, "z_new", rows)
    again = read_rows(url, EN, "z_new")
    assert again["student"]["first_name"] == "Zoe"
    assert again["notebooks"][LESSON]["flagged"] is True
    assert again["notebooks"][LESSON]["grades"]["l01_ex1"] == {"auto_score": 0.5, "needs_manual_grade": False}
    with Gradebook(url) as gb:
        assert len([s for s in gb.students if s.id == "z_new"]) == 1
