"""The class report and the LMS exports (issue 29) on a synthetic graded class (no kernel):
counts are exactly what the class was built with; the report never runs student code."""

import contextlib
import csv
import io
import json
import subprocess
import sys

import pytest

from tests.support.synthetic_class import POINTS, REPO, Submission, build

FAMILY_OF = {  # student -> (exercise, pattern record, the function's code)
}


def _class():
    subs = []
    # 5 right, 4 sum-instead-of-mean on l01_ex2, 3 sign on l01_ex1 (one of them named Zoe Quill),
    # 2 None on l01_ex1, 1 that timed out on l01_ex3
    for i in range(5):
        subs.append(Submission(f"ok{i}", dict(POINTS)))
    for i in range(4):
        s = dict(POINTS, l01_ex2=0.0)
        subs.append(Submission(f"sum{i}", s, {"l01_ex2": {"pattern": "scale", "k": "n", "leaves": {}}},
                               code={"mse_gradients": "def mse_gradients(w, b, x, y_true):\n"
                                                      "    # Zoe wrote this\n    return tf.reduce_sum(w)\n"}))
    for i in range(3):
        subs.append(Submission(f"neg{i}", dict(POINTS, l01_ex1=0.0),
                               {"l01_ex1": {"pattern": "sign", "leaves": {}}},
                               code={"derivative_at": f"def derivative_at(x0):  # by Zoe Quill, zq@example.org\n"
                                                      f"    return -{i} * x0  # zquill\n"},
                               first_name="Zoe", last_name="Quill", email="zq@example.org"))
    for i in range(2):
        subs.append(Submission(f"none{i}", dict(POINTS, l01_ex1=0.0),
                               {"l01_ex1": {"pattern": "none", "why": "not watched", "leaves": {}}}))
    subs.append(Submission("slow", dict(POINTS, l01_ex3=0.0), {"l01_ex3": {"pattern": "error"}},
                           issues=[{"kind": "timed_out", "cell": "l01_ex3", "detail": "a call ran past its time limit"}]))
    return subs


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    return build(tmp_path_factory.mktemp("class") / "course", _class())


def _cli(course, *args):
    """``python -m grader ARGS --course COURSE`` in this process: (returncode, stdout, stderr)."""
    from grader.autograde.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([*args, "--course", str(course)])
        except SystemExit as exc:
            code = exc.code
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def test_report_command_runs_as_a_program(course, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "grader", "report", "01-gradients-en", "--course",
                           str(course), "--out", str(tmp_path)], capture_output=True, text=True,
                          cwd=REPO, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "15 student(s), 4 exercise(s)" in proc.stdout


def test_report_counts_are_what_the_class_was_built_with(course, tmp_path):
    proc = _cli(course, "report", "01-gradients-en", "--out", str(tmp_path / "out"), "--lang", "es")
    assert proc.returncode == 0, proc.stderr
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["assignment"] == "01-gradients-en" and report["students"] == 15
    ex = report["exercises"]
    assert {k: v["points"] for k, v in ex.items()} == POINTS
    assert ex["l01_ex1"]["patterns"] == {"sign": 3, "none": 2}
    assert ex["l01_ex2"]["patterns"] == {"scale": 4} and ex["l01_ex2"]["kinds"] == {"scale:n": 4}
    assert ex["l01_ex3"]["patterns"] == {} and ex["l01_ex3"]["errors"] == 1
    assert ex["l01_ex3"]["flags"] == {"timed_out": 1} and report["flags"] == {"timed_out": 1}
    assert ex["l01_ex1"]["mean"] == pytest.approx(10 / 15, abs=1e-4)
    assert ex["l01_ex2"]["mean"] == pytest.approx(2 * 11 / 15, abs=1e-4)
    assert ex["l01_ex2"]["distribution"] == {"0": 4, "2": 11}
    assert report["difficulty"][0] == "l01_ex1"  # hardest: 10 of 15 full marks
    # the example of the most common pattern: that student's code, anonymized
    example = ex["l01_ex1"]["example"]
    assert example["pattern"] == "sign" and "def derivative_at(x0):" in example["code"]
    assert "Zoe" not in example["code"] and "zq@" not in example["code"] and "#" not in example["code"]
    assert "neg0" not in json.dumps(report)  # no student id anywhere
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "Informe de la clase: 01-gradients-en" in page and "signo cambiado" in page
    assert page.count("<svg") >= 5 and "Zoe" not in page and "<script" not in page


def test_report_of_a_lesson_takes_its_language_variants_and_unknown_ones_fail(course, tmp_path):
    proc = _cli(course, "report", "01-gradients", "--out", str(tmp_path / "o"))
    assert proc.returncode == 0, proc.stderr
    assert json.loads((tmp_path / "o" / "report.json").read_text())["students"] == 15
    proc = _cli(course, "report", "02-watching", "--out", str(tmp_path / "o2"))
    assert proc.returncode == 2 and "unknown assignment" in proc.stderr


# ---------------------------------------------------------------------------------------------
# LMS exports, against the examples their documentation gives
# ---------------------------------------------------------------------------------------------
# Canvas's gradebook export/import layout (Canvas Instructor Guide, "How do I import grades in
# the Gradebook?"): the five fixed columns, then assignments; a "Points Possible" row second
CANVAS_DOC = ('Student,ID,SIS User ID,SIS Login ID,Section,Quiz 1 (23)\n'
              '    Points Possible,,,,,10.00\n'
              '"Block, Jasen",11,,jblock3430,XC 101,8.00\n')
# Moodle's CSV grade import fixture (grade/tests/fixtures/grade_import.csv): identifiers, items
MOODLE_DOC = 'First name,Last name,Email address,Manual item 1\nStudent,1,student1@example.com,400\n'


def _rows(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.reader(fh))


def test_canvas_export_has_canvas_documented_layout(course, tmp_path):
    out = tmp_path / "canvas.csv"
    proc = _cli(course, "export", "--format", "canvas", "--to", str(out), "--canvas-id", "01-gradients=4321")
    assert proc.returncode == 0, proc.stderr
    rows = _rows(out)
    doc = list(csv.reader(CANVAS_DOC.splitlines()))
    assert rows[0][:5] == doc[0][:5] and rows[0][5:] == ["01-gradients (4321)"]
    assert rows[1][0] == doc[1][0] and rows[1][1:5] == ["", "", "", ""] and float(rows[1][5]) == 7.0
    assert len(rows) == 2 + 15 and all(len(r) == 6 for r in rows)
    zoe = next(r for r in rows if r[2] == "neg0")
    assert zoe[:5] == ["Quill, Zoe", "", "neg0", "zq@example.org", ""] and float(zoe[5]) == 6.0
    assert {float(r[5]) for r in rows[2:] if r[2].startswith("ok")} == {7.0}


def test_moodle_export_has_moodle_documented_layout(course, tmp_path):
    out = tmp_path / "moodle.csv"
    proc = _cli(course, "export", "--format", "moodle", "--to", str(out))
    assert proc.returncode == 0, proc.stderr
    rows = _rows(out)
    doc = list(csv.reader(MOODLE_DOC.splitlines()))
    for column in doc[0][:3]:  # the documented identifier columns, by their names
        assert column in rows[0]
    assert rows[0] == ["First name", "Last name", "ID number", "Email address", "01-gradients"]
    zoe = next(r for r in rows if r[2] == "neg0")
    assert zoe == ["Zoe", "Quill", "neg0", "zq@example.org", "6"]
    assert len(rows) == 16


def test_bad_canvas_id_is_a_clear_error(course, tmp_path):
    proc = _cli(course, "export", "--format", "canvas", "--to", str(tmp_path / "c.csv"), "--canvas-id", "x")
    assert proc.returncode == 2 and "LESSON=NUMBER" in proc.stderr


def test_a_lesson_report_counts_each_student_once_on_the_latest_variant(tmp_path):
    course = build(tmp_path / "course", _class())
    # neg0 submitted again, later, in Spanish, and got everything right there
    build(course, [Submission("neg0", dict(POINTS))], assignment="01-gradients-es",
          timestamp="2026-11-21 10:00:00.000000")
    proc = _cli(course, "report", "01-gradients", "--out", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["assignments"] == ["01-gradients-en", "01-gradients-es"]
    assert report["students"] == 15
    assert report["exercises"]["l01_ex1"]["patterns"] == {"sign": 2, "none": 2}
    assert sum(report["exercises"]["l01_ex1"]["distribution"].values()) == 15


def test_an_untouched_notebook_is_unanswered_not_an_exception(tmp_path):
    """Issue 40, item 6: the stub raises NotImplementedError at every call, which the autograder
    records as the pattern "error"; the class report said "raised an exception" under every
    exercise while the export said ``unanswered``. It counts the export's word now, from the same
    gradebook record (nbgrader's "No response."), and a real exception stays an exception."""
    blank = {cell: {"pattern": "error"} for cell in POINTS}
    course = build(tmp_path / "course", [
        Submission("ok", dict(POINTS)),
        Submission("untouched", {c: 0.0 for c in POINTS}, blank, unanswered=list(POINTS)),
        Submission("raises", dict(POINTS, l01_ex2=0.0), {"l01_ex2": {"pattern": "error"}}),
    ])
    proc = _cli(course, "report", "01-gradients-en", "--out", str(tmp_path / "out"), "--lang", "es")
    assert proc.returncode == 0, proc.stderr
    ex = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))["exercises"]
    assert {e: (v["unanswered"], v["errors"]) for e, v in ex.items()} == {
        "l01_ex1": (1, 0), "l01_ex2": (1, 1), "l01_ex3": (1, 0), "l01_ex4": (1, 0)}
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert page.count("sin responder: 1") == 4 and page.count("lanzó una excepción: 1") == 1


def test_an_optional_exercise_is_summarized_by_the_share_of_checks_passed(tmp_path):
    """Issue 38: optional exercises are worth 0 points, so their scores say nothing; the report
    counts the share of checks each student passed (recorded by the autograder) instead."""
    lesson = "04-custom-gradients"
    template = REPO / "grader" / "course" / "source" / f"{lesson}-en" / f"{lesson}.ipynb"
    points = {"l04_ex1": 2.0, "l04_ex6": 0.0}
    course = build(tmp_path / "course", [
        Submission("all", {"l04_ex1": 2.0, "l04_ex6": 0.0}, passed={"l04_ex1": 1.0, "l04_ex6": 1.0}),
        Submission("half", {"l04_ex1": 1.0, "l04_ex6": 0.0}, passed={"l04_ex1": 0.5, "l04_ex6": 0.5}),
        Submission("none", {"l04_ex1": 0.0, "l04_ex6": 0.0}, passed={"l04_ex1": 0.0, "l04_ex6": 0.0}),
    ], assignment=f"{lesson}-en", notebook=lesson, points=points, template=template)
    proc = _cli(course, "report", f"{lesson}-en", "--out", str(tmp_path / "out"), "--lang", "en")
    assert proc.returncode == 0, proc.stderr
    ex = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))["exercises"]
    assert (ex["l04_ex6"]["optional"], ex["l04_ex6"]["points"], ex["l04_ex6"]["mean"],
            ex["l04_ex6"]["full"], ex["l04_ex6"]["zero"]) == (True, 1.0, 0.5, 1, 1)
    assert (ex["l04_ex1"]["optional"], ex["l04_ex1"]["points"], ex["l04_ex1"]["mean"]) == (False, 2.0, 1.0)
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "optional, 0 points: the share of checks passed" in page
